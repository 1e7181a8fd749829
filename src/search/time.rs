//! Time management: how long to think about one move.
//!
//! Two budgets are derived from the [`Limits`], both measured from [`Limits::start`] (the moment
//! the protocol read `go`, so that every delay before the search runs is paid from the budget),
//! or from the moment pondering ends ("ponderhit"):
//! - the **soft** budget (the optimum): no new iteration of the iterative deepening starts once
//!   60% of it has passed, because the next iteration would likely not finish in time;
//! - the **hard** budget (the maximum): the search is aborted when it has passed. The main thread
//!   looks at the clock every 1024 nodes (about 0.2 ms at 5 Mnps), so the search stops within
//!   a fraction of a millisecond of the deadline.
//!
//! With a clock (`time`, `increment`, `moves_to_go`), `move_overhead` is first subtracted from
//! the remaining time for the delay between the engine and the clock (process scheduling,
//! network, GUI). The optimum is then `available / moves_to_go`, or without a moves-to-go count
//! `available / 25 + 3/4 * increment` (a game has about 25 more moves of each player to come
//! for most of its length, and most of the increment can be spent as it comes back). The
//! maximum is three times the optimum. Both are capped to `time / 3 - move_overhead`, so one move
//! never takes more than a third of the clock and the engine never loses on time: the remaining
//! time shrinks geometrically at worst, and the overhead covers the delay. With a fixed
//! `movetime` the hard budget is `movetime - move_overhead` and every iteration may start.
//!
//! The first iteration (depth 1) always completes, whatever the budget: it takes microseconds,
//! and it guarantees a searched move.

use super::Limits;
use std::time::{Duration, Instant};

/// The time budgets of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after 60% of this has passed.
    pub soft: Option<Duration>,
    /// Abort the search when this has passed.
    pub hard: Option<Duration>,
}

/// The budgets for `limits` (pure, so that it can be tested).
pub fn budget(limits: &Limits) -> Budget {
    if limits.infinite {
        return Budget { soft: None, hard: None };
    }
    let overhead = limits.move_overhead;
    let mut soft: Option<Duration> = None;
    let mut hard: Option<Duration> = limits.movetime.map(|t| t.saturating_sub(overhead));
    if let Some(clock) = &limits.clock {
        let available = clock.time.saturating_sub(overhead);
        let optimum = match clock.moves_to_go {
            Some(n) => available / n.max(1),
            None => available / 25 + clock.increment * 3 / 4,
        };
        let cap = (clock.time / 3).saturating_sub(overhead);
        let (opt, max) = (optimum.min(cap), (optimum * 3).min(cap));
        soft = Some(opt);
        hard = Some(hard.map_or(max, |h| h.min(max)));
    }
    Budget { soft, hard }
}

/// The clock of a running search, owned by the main thread.
#[derive(Debug)]
pub struct TimeManager {
    budget: Budget,
    /// When the budgets started running.
    start: Instant,
    /// True while the search ponders: no time limit applies.
    pondering: bool,
}

impl TimeManager {
    /// Starts the clock for `limits`; `pondering` suspends the budgets until
    /// [`TimeManager::ponderhit`].
    pub fn new(limits: &Limits, pondering: bool) -> TimeManager {
        TimeManager { budget: budget(limits), start: limits.start.unwrap_or_else(Instant::now), pondering }
    }

    /// Pondering has ended (at `at`, or now if the moment is unknown): the budgets start then.
    pub fn ponderhit(&mut self, at: Option<Instant>) {
        if self.pondering {
            self.pondering = false;
            self.start = at.unwrap_or_else(Instant::now);
        }
    }

    /// True while the budgets are suspended by pondering.
    pub fn is_pondering(&self) -> bool {
        self.pondering
    }

    /// True when the hard budget has passed (never while pondering).
    #[inline]
    pub fn hard_expired(&self) -> bool {
        !self.pondering && self.budget.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// True when a new iteration may start (the soft and hard budgets allow it).
    pub fn may_start_iteration(&self) -> bool {
        if self.pondering {
            return true;
        }
        let elapsed = self.start.elapsed();
        !self.hard_expired() && self.budget.soft.is_none_or(|s| elapsed < s * 3 / 5)
    }

    /// True when the search is driven by a clock with a soft budget (so that it may stop early,
    /// for instance with a single legal move or a proven result).
    pub fn is_managed(&self) -> bool {
        self.budget.soft.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Clock;
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn movetime_subtracts_overhead() {
        let limits = Limits { movetime: Some(ms(1000)), move_overhead: ms(30), ..Limits::default() };
        assert_eq!(budget(&limits), Budget { soft: None, hard: Some(ms(970)) });
    }

    #[test]
    fn clock_without_moves_to_go() {
        let clock = Clock { time: ms(60_000), increment: ms(1000), moves_to_go: None };
        let limits = Limits { clock: Some(clock), move_overhead: ms(50), ..Limits::default() };
        // (60000 - 50) / 25 + 750 = 3148; max 3 * 3148 = 9444; cap 20000 - 50.
        assert_eq!(budget(&limits), Budget { soft: Some(ms(3148)), hard: Some(ms(9444)) });
    }

    #[test]
    fn clock_is_capped_to_a_third_and_never_exceeds_the_time_left() {
        let clock = Clock { time: ms(300), increment: ms(2000), moves_to_go: Some(1) };
        let limits = Limits { clock: Some(clock), move_overhead: ms(20), ..Limits::default() };
        assert_eq!(budget(&limits), Budget { soft: Some(ms(80)), hard: Some(ms(80)) });
        // Less time than the overhead: nothing but the first iteration.
        let clock = Clock { time: ms(10), increment: ms(0), moves_to_go: None };
        let limits = Limits { clock: Some(clock), move_overhead: ms(20), ..Limits::default() };
        assert_eq!(budget(&limits), Budget { soft: Some(ms(0)), hard: Some(ms(0)) });
    }

    #[test]
    fn moves_to_go_divides_the_time() {
        let clock = Clock { time: ms(40_000), increment: ms(0), moves_to_go: Some(20) };
        let limits = Limits { clock: Some(clock), move_overhead: ms(0), ..Limits::default() };
        assert_eq!(budget(&limits), Budget { soft: Some(ms(2000)), hard: Some(ms(6000)) });
    }

    #[test]
    fn budgets_count_from_the_moment_go_was_read() {
        // A `go movetime 100` read a second ago has no time left, however late the search
        // starts; the same limits stamped now have all of it.
        let long_ago = Instant::now() - Duration::from_secs(1);
        let late = Limits { movetime: Some(ms(100)), start: Some(long_ago), ..Limits::default() };
        assert!(TimeManager::new(&late, false).hard_expired());
        let fresh = Limits { start: Some(Instant::now() + Duration::from_secs(3600)), ..late.clone() };
        assert!(!TimeManager::new(&fresh, false).hard_expired());
        // A ponder hit counts from when it was recorded, not from when the search noticed it.
        let mut tm = TimeManager::new(&fresh, true);
        tm.ponderhit(Some(long_ago));
        assert!(tm.hard_expired());
    }

    #[test]
    fn infinite_and_pondering_have_no_deadline() {
        let limits = Limits { movetime: Some(ms(0)), infinite: true, ..Limits::default() };
        assert_eq!(budget(&limits), Budget { soft: None, hard: None });
        let limits = Limits { movetime: Some(ms(0)), ..Limits::default() };
        let mut tm = TimeManager::new(&limits, true);
        assert!(!tm.hard_expired() && tm.may_start_iteration());
        tm.ponderhit(None);
        assert!(tm.hard_expired() && !tm.may_start_iteration());
    }
}
