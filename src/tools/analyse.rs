//! `steere analyse`: search one position and print the progress of the search, one line per
//! completed iteration, then the best move.

use crate::game::BoardRules;
use crate::search::{Limits, SearchControl, SearchInfo, SearchResult, Searcher};
use std::fmt::Display;

/// One progress line: `depth D seldepth S score SCORE nodes N nps X time MS hashfull H pv M...`
/// where SCORE is `cp X` (the game's evaluation unit) or `win P` / `loss P` (plies).
pub fn info_line<M: Display>(info: &SearchInfo<M>) -> String {
    let pv: Vec<String> = info.pv.iter().map(ToString::to_string).collect();
    format!(
        "depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {} pv {}",
        info.depth,
        info.seldepth,
        info.score,
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
    let result = searcher.search(pos, limits, &control, &mut |info| out(&info_line(info)));
    out(&bestmove_line(&result));
    result
}
