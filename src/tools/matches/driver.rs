//! The loop every match runs, board game or dice game: game slots play games by number, and the
//! main thread alone writes each finished game to the record file, counts it, runs the SPRT and
//! prints the progress, until the games run out or the SPRT decides.
//!
//! What differs between the runners comes in from outside: how a game number becomes a game
//! played (a closure), and the record, tally and progress line ([`MatchTally`]). The game
//! counter, the stop flag, the channel, the record file and the SPRT are here once, so that a
//! change to how matches run (sharding, interrupt and resume) is made once for both.

use super::MatchArgs;
use super::report::SprtState;
use super::stats::{Pentanomial, Sprt, Verdict};
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::{Duration, Instant};

/// A runner's tally, as the driver needs it: its records, how to count one, and the progress.
pub trait MatchTally {
    /// A finished game, sent by a game slot to the main thread.
    type Record: Send;

    /// The record's text, appended as it is to the record file (`--pgn`).
    fn record_text(record: &Self::Record) -> String;

    /// Counts a finished game; returns true when it completes a unit of the SPRT (an opening
    /// pair, a dice stream), after which the test is run again.
    fn add(&mut self, record: &Self::Record) -> bool;

    /// Games counted.
    fn games(&self) -> u64;

    /// The completed units by engine 1's score, which the SPRT reads.
    fn penta(&self) -> &Pentanomial;

    /// The live progress line: games (of `planned_games`, for a match of fixed length), the
    /// score and, with a test, its LLR.
    fn progress_line(&self, planned_games: Option<u64>, sprt: Option<&SprtState>) -> String;
}

/// How a match ended: the final tally, the SPRT's state and the time it took.
pub struct Outcome<T> {
    /// The games counted.
    pub tally: T,
    /// The test, when `--sprt` asked for one.
    pub sprt: Option<SprtState>,
    /// From the first game to the last.
    pub elapsed: Duration,
}

impl<T> Outcome<T> {
    /// The note after the table's first line: whether the SPRT cut the match short.
    pub fn stop_note(&self) -> &'static str {
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
    /// [`super::MAX_SPRT_PAIRS`]) is not worth showing.
    fixed_length: bool,
    /// `--progress`: a line every N games when stderr is not a terminal.
    progress: u64,
}

impl Driver {
    /// Opens the record file. Called before any engine starts, so that a bad `--pgn` path
    /// stops the match before the engines cost anything.
    pub fn new(args: &MatchArgs, sprt: Option<Sprt>) -> Result<Driver, String> {
        let record_file = match &args.pgn {
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
        })
    }

    /// Plays games `0 .. total_games`, each game slot of `slots` in a thread of its own calling
    /// `play` with its slot, the game's number and the stop flag (`None`: stopped, the game is
    /// dropped). Ends when the games run out or the SPRT decides; an error writing the record
    /// file stops the match and is returned.
    pub fn run<T, S, P>(
        self,
        total_games: u64,
        slots: Vec<S>,
        tally: T,
        play: P,
    ) -> Result<Outcome<T>, String>
    where
        T: MatchTally,
        S: Send,
        P: Fn(&mut S, u64, &AtomicBool) -> Option<T::Record> + Sync,
    {
        let start = Instant::now();
        let counter = Counter { total_games, next_game: AtomicU64::new(0), stop: AtomicBool::new(false) };
        let mut main = MainThread {
            tally,
            sprt: self.sprt.map(|sprt| SprtState { sprt, llr: 0.0, verdict: Verdict::Continue }),
            record_file: self.record_file,
            planned: self.fixed_length.then_some(total_games),
            progress: self.progress,
            terminal: std::io::stderr().is_terminal(),
            write_error: None,
        };
        std::thread::scope(|scope| {
            let (sender, results) = channel::<T::Record>();
            for slot in slots {
                let sender = sender.clone();
                let (counter, play) = (&counter, &play);
                scope.spawn(move || worker(counter, slot, play, &sender));
            }
            drop(sender);
            for record in results {
                if counter.stop.load(Ordering::Relaxed) {
                    continue; // finished after the verdict: not counted
                }
                main.take(&record, &counter.stop);
            }
        });
        if main.terminal {
            eprintln!();
        }
        match main.write_error {
            Some(e) => Err(e),
            None => Ok(Outcome { tally: main.tally, sprt: main.sprt, elapsed: start.elapsed() }),
        }
    }
}

/// The games to play, shared by the game slots.
struct Counter {
    total_games: u64,
    /// The number of the next game to start.
    next_game: AtomicU64,
    /// Raised by the main thread when the match is over: slots abandon their games.
    stop: AtomicBool,
}

/// A game slot: plays games taken from the shared counter until the match is over.
fn worker<S, R, P>(counter: &Counter, mut slot: S, play: &P, results: &Sender<R>)
where
    P: Fn(&mut S, u64, &AtomicBool) -> Option<R>,
{
    loop {
        if counter.stop.load(Ordering::Relaxed) {
            return;
        }
        let index = counter.next_game.fetch_add(1, Ordering::Relaxed);
        if index >= counter.total_games {
            return;
        }
        match play(&mut slot, index, &counter.stop) {
            Some(record) => {
                if results.send(record).is_err() {
                    return;
                }
            }
            None => return,
        }
    }
}

/// What the main thread keeps while the games come in.
struct MainThread<T> {
    tally: T,
    sprt: Option<SprtState>,
    record_file: Option<File>,
    planned: Option<u64>,
    progress: u64,
    /// Whether stderr is a terminal: the progress line is then rewritten in place.
    terminal: bool,
    /// The first error writing the record file.
    write_error: Option<String>,
}

impl<T: MatchTally> MainThread<T> {
    /// Writes, counts and tests a finished game, and shows the progress; raises `stop` when
    /// the SPRT decides or the record cannot be written (that game is then not counted).
    fn take(&mut self, record: &T::Record, stop: &AtomicBool) {
        if let Some(file) = self.record_file.as_mut()
            && let Err(e) = file.write_all(T::record_text(record).as_bytes()).and_then(|()| file.flush())
        {
            self.write_error = Some(format!("--pgn: {e}"));
            stop.store(true, Ordering::Relaxed);
            return;
        }
        let unit_done = self.tally.add(record);
        if unit_done && let Some(state) = self.sprt.as_mut() {
            state.llr = state.sprt.llr(self.tally.penta());
            state.verdict = state.sprt.verdict(state.llr);
            if state.verdict != Verdict::Continue {
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
        } else if self.progress > 0 && self.tally.games().is_multiple_of(self.progress) {
            eprintln!("{line}");
        }
    }
}
