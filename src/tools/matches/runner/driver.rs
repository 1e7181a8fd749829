//! The loop every match runs, board game or dice game: game slots play games by number, and the
//! main thread alone writes each finished game to the record file, counts it, runs the SPRT and
//! prints the progress, until the games run out or the SPRT decides.
//!
//! What differs between the games comes in from outside: how a game number becomes a game
//! played (a closure), and the record's encoding ([`MatchRecord`]). The game
//! counter, the stop flag, the channel, the record file and the SPRT are here once, so that a
//! change to how matches run is made once for both: the games played are a [`Slice`] of the
//! schedule (`--shard`, less the games of a `--resume`d record file), and a SIGINT or SIGTERM
//! ([`super::interrupt`]) raises the stop flag as a verdict does.

use super::interrupt;
use super::slice::Slice;
use crate::tools::matches::MatchArgs;
use crate::tools::matches::record::{Category, MatchRecord};
use crate::tools::matches::report::Tally;
use crate::tools::matches::report::stats::{Pentanomial, Sprt, SprtState, Verdict};
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::{Duration, Instant};

/// How long a game slot waits, after a game that ended by an engine's crash, for a signal
/// that interrupts the match: a batch system signals every process of a job at once (Slurm:
/// the engines a few milliseconds before the runner), and an engine killed by the match's own
/// interruption lost no game. If the signal comes, the game is neither counted nor recorded,
/// and `--resume` plays it again.
pub const CRASH_GRACE: Duration = Duration::from_secs(1);

/// How a match ended: the final tally, the SPRT's state and the time it took.
pub struct Outcome {
    /// The games counted.
    pub tally: Tally,
    /// The test, when `--sprt` asked for one.
    pub sprt: Option<SprtState>,
    /// From the first game to the last.
    pub elapsed: Duration,
    /// True when a signal stopped the match before its games ran out.
    pub interrupted: bool,
}

impl Outcome {
    /// The note after the table's first line: whether the SPRT cut the match short.
    pub fn stop_note(&self) -> &'static str {
        if self.interrupted {
            return " (interrupted)";
        }
        match self.sprt.map(|s| s.verdict) {
            Some(Verdict::H0 | Verdict::H1) => " (stopped by the SPRT)",
            _ => "",
        }
    }
}

/// The match's settings for the loop and its record file.
pub struct Driver {
    /// Appended to after every counted game.
    record_file: Option<File>,
    /// The test, if any.
    sprt: Option<Sprt>,
    /// False for an SPRT without `--rounds` or `--games`, whose planned length (the cap of
    /// [`crate::tools::matches::MAX_SPRT_PAIRS`]) is not worth showing.
    fixed_length: bool,
    /// `--progress`: a line every N games when stderr is not a terminal.
    progress: u64,
    /// False for a shard: its SPRT is reported but stops nothing, as the verdict belongs to
    /// the merged shards.
    sprt_stops: bool,
}

impl Driver {
    /// Opens the record file. Called before any engine starts, so that a bad `--pgn` path
    /// stops the match before the engines cost anything.
    pub fn new(args: &MatchArgs, sprt: Option<Sprt>) -> Result<Driver, String> {
        let record_file = match args.record_path() {
            Some(path) => Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("--pgn {}: {e}", path.display()))?,
            ),
            None => None,
        };
        Ok(Driver {
            record_file,
            fixed_length: args.rounds.is_some() || args.games.is_some() || sprt.is_none(),
            sprt,
            progress: args.progress,
            sprt_stops: args.shard.is_none(),
        })
    }

    /// Plays the games of `slice` not yet done, each game slot of `slots` in a thread of its own
    /// calling `play` with its slot, the game's number and the stop flag (`None`: stopped, the
    /// game is dropped). `tally` holds the games already done (resumed). Ends when the games run
    /// out, the SPRT decides or a signal interrupts; an error writing the record file stops the
    /// match and is returned.
    pub fn run<R, S, P>(self, slice: Slice, slots: Vec<S>, tally: Tally, play: P) -> Result<Outcome, String>
    where
        R: MatchRecord,
        S: Send,
        P: Fn(&mut S, u64, &AtomicBool) -> Option<R> + Sync,
    {
        interrupt::install();
        let start = Instant::now();
        let planned = slice.planned_games();
        let counter = Counter { slice, next_position: AtomicU64::new(0), stop: AtomicBool::new(false) };
        let mut main = MainThread {
            sprt: self.sprt.map(|sprt| initial_sprt(sprt, &tally.penta)),
            tally,
            record_file: self.record_file,
            planned: self.fixed_length.then_some(planned),
            progress: self.progress,
            terminal: std::io::stderr().is_terminal(),
            write_error: None,
            sprt_stops: self.sprt_stops,
        };
        // A resumed match whose test had already decided plays nothing more.
        if self.sprt_stops && main.sprt.is_some_and(|s| s.verdict != Verdict::Continue) {
            counter.stop.store(true, Ordering::Relaxed);
        }
        let finished = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| watch_signals(&counter.stop, &finished));
            let (sender, results) = channel::<R>();
            for slot in slots {
                let sender = sender.clone();
                let (counter, play) = (&counter, &play);
                scope.spawn(move || worker(counter, slot, play, &sender));
            }
            drop(sender);
            for record in results {
                if counter.stop.load(Ordering::Relaxed) || interrupt::interrupted() {
                    continue; // finished after the verdict or the signal: not counted
                }
                main.take(&record, &counter.stop);
            }
            finished.store(true, Ordering::Relaxed);
        });
        if main.terminal {
            eprintln!();
        }
        match main.write_error {
            Some(e) => Err(e),
            None => Ok(Outcome {
                tally: main.tally,
                sprt: main.sprt,
                elapsed: start.elapsed(),
                interrupted: interrupt::interrupted(),
            }),
        }
    }
}

/// The test's state before the first game: run on the resumed games, if any.
fn initial_sprt(sprt: Sprt, penta: &Pentanomial) -> SprtState {
    let llr = sprt.llr(penta);
    SprtState { sprt, llr, verdict: sprt.verdict(llr) }
}

/// Turns a signal into the stop flag (polled: a signal handler may do next to nothing), until
/// the match is over.
fn watch_signals(stop: &AtomicBool, finished: &AtomicBool) {
    while !finished.load(Ordering::Relaxed) {
        if interrupt::interrupted() {
            stop.store(true, Ordering::Relaxed);
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The games to play, shared by the game slots.
struct Counter {
    /// The games of this run.
    slice: Slice,
    /// The position in the slice of the next game to consider.
    next_position: AtomicU64,
    /// Raised by the main thread when the match is over: slots abandon their games.
    stop: AtomicBool,
}

/// A game slot: plays games taken from the shared counter until the match is over. A game
/// that `ends_in_crash` is held back for [`CRASH_GRACE`] and dropped if a signal interrupts
/// the match meanwhile.
fn worker<S, R: MatchRecord, P>(counter: &Counter, mut slot: S, play: &P, results: &Sender<R>)
where
    P: Fn(&mut S, u64, &AtomicBool) -> Option<R>,
{
    loop {
        if counter.stop.load(Ordering::Relaxed) {
            return;
        }
        let position = counter.next_position.fetch_add(1, Ordering::Relaxed);
        let Some(index) = counter.slice.game_at(position) else {
            return;
        };
        if counter.slice.done.contains(&index) {
            continue; // played before the match was resumed
        }
        match play(&mut slot, index, &counter.stop) {
            Some(record) if record.outcome().category == Some(Category::Crash) && interruption_follows() => {
                return;
            }
            Some(record) => {
                if results.send(record).is_err() {
                    return;
                }
            }
            None => return,
        }
    }
}

/// Waits up to [`CRASH_GRACE`] for a signal that interrupts the match; true if one came.
fn interruption_follows() -> bool {
    let until = Instant::now() + CRASH_GRACE;
    while Instant::now() < until {
        if interrupt::interrupted() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    interrupt::interrupted()
}

/// What the main thread keeps while the games come in.
struct MainThread {
    tally: Tally,
    sprt: Option<SprtState>,
    record_file: Option<File>,
    planned: Option<u64>,
    progress: u64,
    /// Whether stderr is a terminal: the progress line is then rewritten in place.
    terminal: bool,
    /// The first error writing the record file.
    write_error: Option<String>,
    /// Whether a verdict stops the match (not in a shard).
    sprt_stops: bool,
}

impl MainThread {
    /// Writes, counts and tests a finished game, and shows the progress; raises `stop` when
    /// the SPRT decides or the record cannot be written (that game is then not counted).
    fn take(&mut self, record: &impl MatchRecord, stop: &AtomicBool) {
        if let Some(file) = self.record_file.as_mut()
            && let Err(e) = file.write_all(record.text().as_bytes()).and_then(|()| file.flush())
        {
            self.write_error = Some(format!("--pgn: {e}"));
            stop.store(true, Ordering::Relaxed);
            return;
        }
        let unit_done = self.tally.add(record);
        if unit_done && let Some(state) = self.sprt.as_mut() {
            state.llr = state.sprt.llr(&self.tally.penta);
            state.verdict = state.sprt.verdict(state.llr);
            if state.verdict != Verdict::Continue && self.sprt_stops {
                stop.store(true, Ordering::Relaxed);
            }
        }
        self.show_progress();
    }

    /// The progress line: rewritten in place on a terminal, else every `progress` games.
    fn show_progress(&self) {
        let line = self.tally.progress_line(self.planned, self.sprt.as_ref());
        if self.terminal {
            eprint!("\r{line}\x1b[K");
        } else if self.progress > 0 && self.tally.games.is_multiple_of(self.progress) {
            eprintln!("{line}");
        }
    }
}
