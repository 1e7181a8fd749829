//! How close to the flag each engine played: the distribution of *answer time minus allowed
//! time* over every timed move of a match.
//!
//! For each move made under a clock or a fixed move time, the runner knows how long the engine
//! took (from writing `go` to reading `bestmove`) and what it was allowed before the margin (the
//! time left on its clock, or the move time, whichever is smaller). Their difference is
//! negative for a move in time and positive for a late one; a move later than the
//! `--timemargin` lost on time and is counted too. The report gives the median, the 99th
//! percentile and the maximum, which is how `MoveOverhead` and `--timemargin` defaults are
//! chosen from evidence (docs/matches.md): with a fixed move time the median says how much of
//! it the engine used, the tail how late a loaded machine made it.

use std::time::Duration;

/// One move's timing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTiming {
    /// How long the move took, from `go` written to `bestmove` read (or to the runner giving up).
    pub used: Duration,
    /// What it was allowed before the margin.
    pub allowed: Duration,
}

impl MoveTiming {
    /// `used - allowed` in milliseconds (positive: late).
    pub fn lateness_ms(self) -> f64 {
        // In whole nanoseconds first, so that whole milliseconds stay exact.
        (self.used.as_nanos() as i128 - self.allowed.as_nanos() as i128) as f64 / 1e6
    }
}

/// The lateness samples of one engine (kept whole, so that the shards of a match merge into
/// the same percentiles as the whole match).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Lateness {
    samples: Vec<f64>,
}

/// A summary of [`Lateness`] samples, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LatenessSummary {
    /// Timed moves.
    pub moves: usize,
    /// The median.
    pub p50: f64,
    /// The 99th percentile.
    pub p99: f64,
    /// The latest move.
    pub max: f64,
}

impl Lateness {
    /// Adds one move.
    pub fn add(&mut self, timing: MoveTiming) {
        self.samples.push(timing.lateness_ms());
    }

    /// Adds the moves of another part of the match (a shard).
    pub fn merge(&mut self, other: &Lateness) {
        self.samples.extend_from_slice(&other.samples);
    }

    /// The median, 99th percentile and maximum, or `None` without a timed move.
    pub fn summary(&self) -> Option<LatenessSummary> {
        if self.samples.is_empty() {
            return None;
        }
        let mut sorted = self.samples.clone();
        sorted.sort_by(f64::total_cmp);
        Some(LatenessSummary {
            moves: sorted.len(),
            p50: percentile(&sorted, 50.0),
            p99: percentile(&sorted, 99.0),
            max: sorted[sorted.len() - 1],
        })
    }
}

/// The `p`-th percentile of sorted, non-empty samples, by the nearest-rank method (the smallest
/// sample with at least p% of the samples at or below it), so that it is always a real sample.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(used: u64, allowed: u64) -> MoveTiming {
        MoveTiming { used: Duration::from_millis(used), allowed: Duration::from_millis(allowed) }
    }

    #[test]
    fn nearest_rank_percentiles() {
        let mut late = Lateness::default();
        assert_eq!(late.summary(), None);
        // Lateness -100 ms ... -1 ms: a hundred moves.
        for used in 0..100 {
            late.add(timing(used, 100));
        }
        let s = late.summary().unwrap();
        assert_eq!((s.moves, s.p50, s.p99, s.max), (100, -51.0, -2.0, -1.0));
        late.add(timing(130, 100));
        assert_eq!(late.summary().unwrap().max, 30.0);
    }

    #[test]
    fn a_single_sample_is_every_percentile() {
        let mut late = Lateness::default();
        late.add(timing(95, 100));
        let s = late.summary().unwrap();
        assert_eq!((s.p50, s.p99, s.max), (-5.0, -5.0, -5.0));
    }
}
