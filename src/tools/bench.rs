//! `steere bench`: the search signature and speed benchmark.
//!
//! Searches every position of `positions/bench.fen` (compiled into the binary) to a fixed depth
//! with a fresh table, and adds up the nodes. With one thread the total is a property of the
//! search code alone, identical on every run and machine: a commit that changes the search's
//! behaviour changes it, a pure speed-up does not (the habit of Stockfish's `bench`). The
//! time and nodes per second measure speed; with several threads, the time to reach the same
//! depth measures the Lazy SMP gain.

use crate::impasse::{Move, Position};
use crate::search::{Limits, Score, SearchControl, Searcher};
use std::time::{Duration, Instant};

/// The bench positions, one FEN per line, `#` comments.
pub const BENCH_FENS: &str = include_str!("../../positions/bench.fen");

/// The default depth of `steere bench`: about 40 M nodes, 6 s in release on one core of a 2020s
/// machine.
pub const DEFAULT_DEPTH: u32 = 14;

/// The result of one bench position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The position.
    pub fen: String,
    /// The move found.
    pub best_move: Option<Move>,
    /// Its score.
    pub score: Score,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// The bench positions.
pub fn positions() -> Vec<Position> {
    BENCH_FENS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| Position::from_fen(l).unwrap_or_else(|e| panic!("bad bench FEN '{l}': {e}")))
        .collect()
}

/// Searches every bench position to `depth` with `threads` threads and a `hash_mib` MiB table,
/// cleared before each position; calls `each` after each position.
pub fn bench(
    depth: u32,
    threads: usize,
    hash_mib: usize,
    each: &mut dyn FnMut(&BenchLine),
) -> Vec<BenchLine> {
    let mut searcher = Searcher::<Position>::new(hash_mib, threads);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let control = SearchControl::new();
    positions()
        .iter()
        .map(|pos| {
            searcher.new_game();
            let start = Instant::now();
            let result = searcher.search(pos, &limits, &control, &mut |_| {});
            let line = BenchLine {
                fen: pos.to_fen(),
                best_move: result.best_move,
                score: result.score,
                nodes: result.nodes,
                time: start.elapsed(),
            };
            each(&line);
            line
        })
        .collect()
}
