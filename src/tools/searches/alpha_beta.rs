//! The alpha-beta search's answers to the command line: `steere analyse` (one progress line
//! per completed iteration, then the best move) and `steere bench`, the search's signature and
//! speed.
//!
//! The bench searches every bench position of the variant (`positions/bench-VARIANT.fen`,
//! compiled into the binary) to a fixed depth with a fresh table, and adds up the nodes. With
//! one thread the total is a property of the search code alone, identical on every run and
//! machine: a commit that changes the search's behaviour changes it, a pure speed-up does not
//! (the habit of Stockfish's `bench`). Each variant has its own signature. The time and nodes
//! per second measure speed; with several threads, the time to reach the same depth measures
//! the Lazy SMP gain.

use super::{DEFAULT_ANALYSE_MS, Request, Searches, SolitaireRequest};
use crate::game::BoardRules;
use crate::search::{Limits, Score, SearchControl, SearchInfo, SearchResult, Searcher};
use crate::variants::{AlphaBeta, Variant};
use std::fmt::Display;
use std::time::{Duration, Instant};

/// One progress line: `depth D seldepth S score SCORE nodes N nps X time MS hashfull H pv M...`
/// where SCORE is `cp X` (the game's evaluation unit) or `win P` / `loss P` (plies).
pub fn info_line<M: Display>(info: &SearchInfo<M>) -> String {
    progress_line(info, None, info.score, &info.pv)
}

/// The progress lines of a completed iteration with `multipv` lines: with 1, [`info_line`];
/// with more, one line per search line with `multipv K` after `seldepth`.
pub fn info_lines<M: Display>(info: &SearchInfo<M>, multipv: usize) -> Vec<String> {
    if multipv <= 1 || info.lines.is_empty() {
        return vec![info_line(info)];
    }
    let lines = info.lines.iter().take(multipv).enumerate();
    lines.map(|(k, line)| progress_line(info, Some(k + 1), line.score, &line.pv)).collect()
}

/// A progress line of `info`'s iteration for the line `pv` of score `score`.
fn progress_line<M: Display>(info: &SearchInfo<M>, multipv: Option<usize>, score: Score, pv: &[M]) -> String {
    let pv: Vec<String> = pv.iter().map(ToString::to_string).collect();
    let multipv = multipv.map_or(String::new(), |k| format!(" multipv {k}"));
    format!(
        "depth {} seldepth {}{multipv} score {score} nodes {} nps {} time {} hashfull {} pv {}",
        info.depth,
        info.seldepth,
        info.nodes,
        info.nps,
        info.time.as_millis(),
        info.hashfull,
        pv.join(" ")
    )
}

/// The closing line: `bestmove M` (with `ponder R` when a reply is expected), or
/// `bestmove (none)` when the game is over.
pub fn bestmove_line<M: Display>(result: &SearchResult<M>) -> String {
    match (&result.best_move, &result.ponder) {
        (Some(best), Some(ponder)) => format!("bestmove {best} ponder {ponder}"),
        (Some(best), None) => format!("bestmove {best}"),
        (None, _) => "bestmove (none)".to_string(),
    }
}

/// Searches `pos` within `limits` with `searcher` (made by the caller with the table and threads
/// asked for: [`Searcher::try_new`]), passing every output line to `out` as it comes.
pub fn analyse<G: BoardRules>(
    pos: &G,
    limits: &Limits,
    searcher: &mut Searcher<G>,
    out: &mut dyn FnMut(&str),
) -> SearchResult<G::Move> {
    if let Some(result) = pos.ending() {
        out(&format!("game over: {result}"));
    }
    let control = SearchControl::new();
    let result = searcher.search(pos, limits, &control, &mut |info| {
        for line in info_lines(info, limits.multipv) {
            out(&line);
        }
    });
    out(&bestmove_line(&result));
    result
}

/// The result of one bench position.
#[derive(Clone, Debug)]
pub struct BenchLine<M> {
    /// The position.
    pub fen: String,
    /// The move found.
    pub best_move: Option<M>,
    /// Its score.
    pub score: Score,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// What [`bench`] calls after each position: its index from 1, the number of positions and
/// its result.
pub type EachLine<'a, M> = &'a mut dyn FnMut(usize, usize, &BenchLine<M>);

/// Searches every bench position of `variant` to `depth` with `threads` threads and a
/// `hash_mib` MiB table (a size of the engine's own: a size from the user is allocated with
/// [`Searcher::try_new`] and given to [`bench_with`]), cleared before each position; calls
/// `each` after each position. Returns the lines of the positions searched.
pub fn bench<G: BoardRules>(
    variant: Variant<G>,
    depth: u32,
    threads: usize,
    hash_mib: usize,
    control: &SearchControl,
    each: EachLine<'_, G::Move>,
) -> Vec<BenchLine<G::Move>> {
    bench_with(variant, depth, &mut Searcher::<G>::new(hash_mib, threads), control, each)
}

/// [`bench`] with `searcher` (its table cleared before each position).
pub fn bench_with<G: BoardRules>(
    variant: Variant<G>,
    depth: u32,
    searcher: &mut Searcher<G>,
    control: &SearchControl,
    each: EachLine<'_, G::Move>,
) -> Vec<BenchLine<G::Move>> {
    let positions = variant.bench_positions();
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let mut lines = Vec::new();
    for (i, pos) in positions.iter().enumerate() {
        searcher.new_game();
        let start = Instant::now();
        let result = searcher.search(pos, &limits, control, &mut |_| {});
        if control.stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let line = BenchLine {
            fen: pos.fen(),
            best_move: result.best_move,
            score: result.score,
            nodes: result.nodes,
            time: start.elapsed(),
        };
        each(i + 1, positions.len(), &line);
        lines.push(line);
    }
    lines
}

/// The line printed for each bench position:
/// `position I/N bestmove M score S nodes N time MS fen F`.
pub fn position_line<M: std::fmt::Display>(index: usize, count: usize, line: &BenchLine<M>) -> String {
    let best = line.best_move.as_ref().map_or("(none)".to_string(), ToString::to_string);
    format!(
        "position {index}/{count} bestmove {best} score {} nodes {} time {} fen {}",
        line.score,
        line.nodes,
        line.time.as_millis(),
        line.fen
    )
}

/// The closing line, `nodes N time MS nps X`: N is the signature.
pub fn summary_line<M>(lines: &[BenchLine<M>]) -> String {
    let nodes = lines.iter().map(|l| l.nodes).sum();
    let time = lines.iter().map(|l| l.time).sum();
    crate::tools::perft::summary_line(nodes, time)
}

impl<G: BoardRules> Searches<G> for AlphaBeta {
    fn analyse(self, pos: &G, request: &Request, out: &mut dyn FnMut(&str)) -> Result<(), String> {
        let limits = Limits {
            depth: request.depth,
            nodes: request.nodes,
            movetime: request.movetime_or(DEFAULT_ANALYSE_MS),
            multipv: request.multipv,
            ..Limits::default()
        };
        let mut searcher =
            Searcher::try_new(request.hash_mib, request.threads).map_err(|e| format!("--hash: {e}"))?;
        analyse(pos, &limits, &mut searcher, out);
        Ok(())
    }

    fn bench(
        self,
        variant: Variant<G>,
        request: &Request,
        control: &SearchControl,
        out: &mut dyn FnMut(&str),
    ) -> Result<bool, String> {
        let mut searcher =
            Searcher::try_new(request.hash_mib, request.threads).map_err(|e| format!("--hash: {e}"))?;
        let depth = request.depth.unwrap_or(variant.info.bench_depth);
        let lines = bench_with(variant, depth, &mut searcher, control, &mut |i, n, line| {
            out(&position_line(i, n, line))
        });
        Ok(super::end_bench(control, summary_line(&lines), out))
    }

    fn odds(self, variant: Variant<G>, _: &G) -> Result<Vec<String>, String> {
        Err(format!("odds: {} is a board game; odds are for dice games (cantstop)", variant.name()))
    }

    fn solitaire(
        self,
        variant: Variant<G>,
        _: &SolitaireRequest,
        _: &(dyn Fn(usize) + Sync),
    ) -> Result<String, String> {
        Err(format!("solitaire: {} is a board game; solitaire is for dice games (cantstop)", variant.name()))
    }
}
