//! Asking an engine for its move under its clock, for the referee of every game: the `go` line, the deadline, the timing of the answer, and the faults that lose a
//! game before the answer is read as a move (crash, protocol, time forfeit, timeout). What the
//! answer means is each referee's, read with its own game's rules.

use super::Category;
use super::timing::MoveTiming;
use crate::client::clock::{Clock, TimeControl};
use crate::client::{Engine, Fault, Reply};
use crate::tools::matches::MatchArgs;
use std::time::Duration;

/// Why a move loses the game: the category and its detail.
pub type Forfeit = (Category, String);

/// How long an engine may take: the grace past a clock or move time, and the wait where
/// neither bounds a move.
#[derive(Clone, Copy, Debug)]
pub struct Deadlines {
    /// Grace added to every clock and move time before a move loses on time.
    pub margin: Duration,
    /// The longest wait for a move when neither a clock nor a move time bounds it.
    pub move_timeout: Duration,
}

impl Deadlines {
    /// The deadlines set by `--timemargin` and `--move-timeout`.
    pub fn of(args: &MatchArgs) -> Deadlines {
        Deadlines {
            margin: Duration::from_millis(args.timemargin),
            move_timeout: Duration::from_millis(args.move_timeout),
        }
    }
}

/// Sends `position` and the `go` line of player `mover` (0-based) to `engine` and waits for
/// its `bestmove`, charging the time to the mover's clock. Returns the reply, or the fault that
/// forfeits the game (its detail names the `move`, as `what` calls it), and the move's timing
/// when a clock or move time applied (also for a move that lost on time).
pub fn ask(
    engine: &mut Engine,
    clocks: &mut [Clock],
    mover: usize,
    position: &str,
    deadlines: Deadlines,
    what: &str,
) -> (Result<Reply, Forfeit>, Option<MoveTiming>) {
    let clock = &clocks[mover];
    let allowance = clock.allowance(deadlines.margin);
    let allowed = clock.allowance(Duration::ZERO);
    let go = go_command(engine, clocks, mover);
    let reply = engine.think(position, &go, allowance.unwrap_or(deadlines.move_timeout));
    let used = match &reply {
        Ok(reply) => Some(reply.elapsed),
        Err(Fault::NoAnswer { waited, .. }) => Some(*waited),
        // No answer to time: it died, or broke the protocol (see `Engine::think`).
        Err(Fault::Crash(_) | Fault::Protocol(_)) => None,
    };
    let timing = used.zip(allowed).map(|(used, allowed)| MoveTiming { used, allowed });
    let reply = match reply {
        Ok(reply) => reply,
        Err(Fault::Crash(detail)) => return (Err((Category::Crash, detail)), timing),
        Err(Fault::Protocol(detail)) => return (Err((Category::Protocol, detail)), timing),
        Err(Fault::NoAnswer { waited, .. }) => {
            let (category, limit) = match allowance {
                Some(_) => (Category::TimeForfeit, "the time allowed plus the margin"),
                None => (Category::Timeout, "the move timeout"),
            };
            let detail = format!("no {what} after {:.3} s ({limit})", waited.as_secs_f64());
            note_loss_on_time(engine.id_name(), mover, &detail);
            return (Err((category, detail)), timing);
        }
    };
    if let Err(over) = clocks[mover].charge(reply.elapsed, deadlines.margin) {
        let detail = format!(
            "'{}' took {:.3} s; allowed {:.3} s + margin {:.3} s",
            reply.bestmove,
            over.used.as_secs_f64(),
            over.allowed.as_secs_f64(),
            deadlines.margin.as_secs_f64()
        );
        note_loss_on_time(engine.id_name(), mover, &detail);
        return (Err((Category::TimeForfeit, detail)), timing);
    }
    (Ok(reply), timing)
}

/// Says on stderr when a player lost on time, with the wall-clock time (UTC, to the
/// millisecond), so that the loss can be laid beside what else happened on the machine then
/// (the stall probe of `benches/stalls.rs` logs the same clock).
fn note_loss_on_time(engine: &str, mover: usize, detail: &str) {
    let since_epoch = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let ms = since_epoch.as_millis() % 86_400_000;
    let (h, m, s, milli) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    eprintln!(
        "match: {h:02}:{m:02}:{s:02}.{milli:03} UTC: {engine} (player {}) lost on time: {detail}",
        mover + 1
    );
}

/// The `go` line for player `mover`: when the mover has a clock, the two clock words of the
/// engine's dialect (`wtime btime winc binc`, or UGI's `p1time p2time p1inc p2inc`), then the
/// fixed limits. With two players the first pair is player 1's (White's) clock, the second
/// player 2's. With more (dice games, as docs/protocol.md assigns them) the first pair goes to
/// players 1 and 3, the second to 2 and 4: the mover's own pair carries its clock, the other
/// pair the clock of the next player who uses it. A player without a clock is shown the
/// mover's.
fn go_command(engine: &Engine, clocks: &[Clock], mover: usize) -> String {
    let mut go = String::from("go");
    let own = &clocks[mover];
    if let Some(own_time) = own.remaining() {
        let players = clocks.len();
        let other = (1..players).map(|k| (mover + k) % players).find(|s| s % 2 != mover % 2).unwrap_or(mover);
        let mut pair = [&clocks[mover], &clocks[other]];
        if mover % 2 == 1 {
            pair.swap(0, 1);
        }
        let time = |c: &Clock| c.remaining().unwrap_or(own_time).as_millis();
        let inc = |c: &Clock| {
            if c.remaining().is_some() { c.control().increment } else { own.control().increment }.as_millis()
        };
        let [first_time, second_time, first_inc, second_inc] = engine.clock_words();
        go.push_str(&format!(
            " {first_time} {} {second_time} {} {first_inc} {} {second_inc} {}",
            time(pair[0]),
            time(pair[1]),
            inc(pair[0]),
            inc(pair[1])
        ));
        if let Some(n) = own.moves_to_go() {
            go.push_str(&format!(" movestogo {n}"));
        }
    }
    let TimeControl { movetime, depth, nodes, .. } = own.control();
    if let Some(t) = movetime {
        go.push_str(&format!(" movetime {}", t.as_millis()));
    }
    if let Some(d) = depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}
