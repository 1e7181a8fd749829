//! Time controls and the clocks the runner keeps.
//!
//! A [`TimeControl`] is what one engine is allowed per move or per game; any combination of
//! its parts applies at once (the first limit reached ends the engine's search):
//! - a **clock** `tc=[MOVES/]BASE[+INC]` (seconds): BASE on the clock at the start, INC added
//!   after every move; with MOVES, BASE is added again every MOVES moves and `movestogo` is
//!   sent (a repeating control, as in cutechess-cli);
//! - a fixed **move time** `st=SECONDS` or `movetime=MS`;
//! - a fixed **depth** `depth=N` or **node count** `nodes=N`, which the engine is trusted to
//!   obey (the runner cannot measure them).
//!
//! The runner is the time keeper: it measures each move from the moment it writes `go` to the
//! moment the reader thread receives `bestmove` (both are timestamps taken as close to the pipe
//! as possible, so a busy runner does not charge its own delays to the engine). A move that took
//! longer than the time left on the clock, or longer than the fixed move time, plus the
//! `--timemargin`, loses on time. The margin absorbs the pipe and scheduling delays of a loaded
//! machine; it is not added to the clock the engine sees, so an engine that budgets exactly
//! never needs it.

use std::fmt;
use std::time::Duration;

/// What one engine may spend, per move or per game. See the module docs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Time on the clock at the start of the game (and again every `moves` moves).
    pub base: Option<Duration>,
    /// Added to the clock after every move (only with `base`).
    pub increment: Duration,
    /// With a clock: the number of moves per repeating period (`40/60` is 40 moves in 60 s).
    pub moves: Option<u32>,
    /// A fixed time for every move.
    pub movetime: Option<Duration>,
    /// A fixed search depth (plies).
    pub depth: Option<u32>,
    /// A fixed node count.
    pub nodes: Option<u64>,
}

impl TimeControl {
    /// True when no limit at all is set (the engine would think forever).
    pub fn is_unlimited(&self) -> bool {
        self.base.is_none() && self.movetime.is_none() && self.depth.is_none() && self.nodes.is_none()
    }

    /// Parses the value of `tc=`: `[MOVES/]BASE[+INC]`, BASE and INC in seconds (decimals
    /// allowed), e.g. `10+0.1`, `60`, `40/120+1`.
    pub fn parse_clock(text: &str) -> Result<(Option<u32>, Duration, Duration), String> {
        let bad =
            |why: &str| format!("tc='{text}': {why} (expected [MOVES/]BASE[+INC] in seconds, like 10+0.1)");
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m.trim().parse().map_err(|_| bad("MOVES is not a whole number"))?;
                if m == 0 {
                    return Err(bad("MOVES must be at least 1"));
                }
                (Some(m), rest)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base = parse_seconds(base).map_err(|e| bad(&e))?;
        if base.is_zero() {
            return Err(bad("BASE must be more than 0"));
        }
        let inc = inc.map(parse_seconds).transpose().map_err(|e| bad(&e))?.unwrap_or_default();
        Ok((moves, base, inc))
    }
}

impl fmt::Display for TimeControl {
    /// The settings in the engine-spec grammar, e.g. `tc=10+0.1 depth=2`, or `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(base) = self.base {
            let moves = self.moves.map_or(String::new(), |m| format!("{m}/"));
            let inc = if self.increment.is_zero() {
                String::new()
            } else {
                format!("+{}", seconds(self.increment))
            };
            parts.push(format!("tc={moves}{}{inc}", seconds(base)));
        }
        if let Some(t) = self.movetime {
            parts.push(format!("movetime={}", t.as_millis()));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if parts.is_empty() { f.write_str("none") } else { f.write_str(&parts.join(" ")) }
    }
}

/// A duration in seconds without trailing zeros: `10`, `0.1`, `2.5`.
fn seconds(d: Duration) -> String {
    let text = format!("{:.3}", d.as_secs_f64());
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Parses a non-negative number of seconds with up to millisecond precision.
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text.trim().parse().map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !value.is_finite() || !(0.0..=1e7).contains(&value) {
        return Err(format!("'{text}' is not a number of seconds between 0 and 10^7"));
    }
    Ok(Duration::from_millis((value * 1000.0).round() as u64))
}

/// Why a move lost on time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overrun {
    /// How long the move took.
    pub used: Duration,
    /// What it was allowed (clock or move time), before the margin.
    pub allowed: Duration,
}

/// One engine's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    control: TimeControl,
    /// Time left; `None` without a `tc`.
    remaining: Option<Duration>,
    /// Moves this engine has made in the game.
    moves_made: u32,
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(control: &TimeControl) -> Clock {
        Clock { control: control.clone(), remaining: control.base, moves_made: 0 }
    }

    /// The time control.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// Time left on the clock (`None` without a clock).
    pub fn remaining(&self) -> Option<Duration> {
        self.remaining
    }

    /// The `movestogo` of a repeating control.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.control.moves.map(|m| m - self.moves_made % m)
    }

    /// The longest the next move may take before it loses on time (clock or move time, plus
    /// `margin`), or `None` when only depth or nodes limit it.
    pub fn allowance(&self, margin: Duration) -> Option<Duration> {
        let limits = [self.remaining, self.control.movetime];
        limits.into_iter().flatten().min().map(|t| t + margin)
    }

    /// Charges a move that took `used`: an overrun (clock or move time exceeded by more than
    /// `margin`) is a loss on time; otherwise the clock runs down, the increment is added and,
    /// at the end of a repeating period, the base again.
    pub fn charge(&mut self, used: Duration, margin: Duration) -> Result<(), Overrun> {
        if let Some(allowed) = [self.remaining, self.control.movetime].into_iter().flatten().min()
            && used > allowed + margin
        {
            return Err(Overrun { used, allowed });
        }
        self.moves_made += 1;
        if let Some(remaining) = self.remaining {
            let mut left = remaining.saturating_sub(used) + self.control.increment;
            if let (Some(period), Some(base)) = (self.control.moves, self.control.base)
                && self.moves_made.is_multiple_of(period)
            {
                left += base;
            }
            self.remaining = Some(left);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_clocks() {
        assert_eq!(TimeControl::parse_clock("10+0.1"), Ok((None, ms(10_000), ms(100))));
        assert_eq!(TimeControl::parse_clock("60"), Ok((None, ms(60_000), ms(0))));
        assert_eq!(TimeControl::parse_clock("40/120+1"), Ok((Some(40), ms(120_000), ms(1000))));
        assert!(TimeControl::parse_clock("0+1").is_err());
        assert!(TimeControl::parse_clock("x+1").is_err());
        assert!(TimeControl::parse_clock("0/10").is_err());
        assert!(TimeControl::parse_clock("10+-1").is_err());
    }

    #[test]
    fn clock_runs_down_and_forfeits() {
        let tc = TimeControl { base: Some(ms(1000)), increment: ms(100), ..TimeControl::default() };
        let mut clock = Clock::new(&tc);
        assert_eq!(clock.allowance(ms(50)), Some(ms(1050)));
        clock.charge(ms(300), ms(50)).unwrap();
        assert_eq!(clock.remaining(), Some(ms(800)));
        // Within the margin: allowed, the clock bottoms out at zero plus the increment.
        clock.charge(ms(840), ms(50)).unwrap();
        assert_eq!(clock.remaining(), Some(ms(100)));
        assert_eq!(clock.charge(ms(151), ms(50)), Err(Overrun { used: ms(151), allowed: ms(100) }));
    }

    #[test]
    fn repeating_control_and_movetime() {
        let tc = TimeControl { base: Some(ms(1000)), moves: Some(2), ..TimeControl::default() };
        let mut clock = Clock::new(&tc);
        assert_eq!(clock.moves_to_go(), Some(2));
        clock.charge(ms(100), ms(0)).unwrap();
        assert_eq!(clock.moves_to_go(), Some(1));
        clock.charge(ms(100), ms(0)).unwrap();
        assert_eq!(clock.remaining(), Some(ms(1800)));
        assert_eq!(clock.moves_to_go(), Some(2));

        let st = TimeControl { movetime: Some(ms(100)), depth: Some(2), ..TimeControl::default() };
        let mut clock = Clock::new(&st);
        assert_eq!(clock.allowance(ms(10)), Some(ms(110)));
        assert!(clock.charge(ms(110), ms(10)).is_ok());
        assert!(clock.charge(ms(111), ms(10)).is_err());
        assert_eq!(st.to_string(), "movetime=100 depth=2");
        assert_eq!(tc.to_string(), "tc=2/1");
        let depth_only = TimeControl { depth: Some(3), ..TimeControl::default() };
        assert_eq!(Clock::new(&depth_only).allowance(ms(10)), None);
    }
}
