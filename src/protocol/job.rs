//! A search running on its own thread, from `go` to `bestmove`.
//!
//! The engine loop lends the [`Searcher`] (with its transposition table) to the thread, which
//! searches, prints the `info` lines and exactly one `bestmove` line, and hands the searcher
//! back when it is joined. The loop keeps serving commands meanwhile; it talks to the search
//! only through the shared [`SearchControl`] flags (`stop`, `pondering`).
//!
//! The thread raises [`SearchJob::is_finished`] *before* it prints `bestmove`, so any command
//! a GUI sends after reading `bestmove` finds the job finished and may join it at once (a
//! `go` right after a `bestmove` is never mistaken for a `go` during a search).
//!
//! The move printed is checked against the rules before it leaves: a best move that is not
//! legal in the searched position (a bug, never expected) is replaced by the first legal move
//! with an `info string`, and a ponder move that is not legal after it is dropped. The engine
//! may play badly; it never prints an illegal move.

use super::output::{Output, bestmove_line, info_line};
use crate::impasse::{Move, Position};
use crate::search::{Limits, SearchControl, SearchResult, Searcher};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::thread::JoinHandle;

/// The search thread's stack: the main search thread recurses one frame (with a move list) per
/// ply, like the helper threads, which get 16 MiB.
const SEARCH_STACK: usize = 32 << 20;

/// A running (or finished, not yet joined) search.
pub struct SearchJob {
    control: Arc<SearchControl>,
    finished: Arc<AtomicBool>,
    handle: JoinHandle<Option<Searcher<Position>>>,
}

impl SearchJob {
    /// Starts searching `pos` within `limits` on a new thread. On failure (the system refuses
    /// a thread) the searcher is lost and the error returned; the caller still owes a
    /// `bestmove`.
    pub fn start(
        mut searcher: Searcher<Position>,
        pos: Position,
        limits: Limits,
        control: Arc<SearchControl>,
        out: Output,
        debug: bool,
    ) -> std::io::Result<SearchJob> {
        let finished = Arc::new(AtomicBool::new(false));
        let (thread_control, thread_finished) = (control.clone(), finished.clone());
        let handle =
            std::thread::Builder::new().name("search".into()).stack_size(SEARCH_STACK).spawn(move || {
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    searcher.search(&pos, &limits, &thread_control, &mut |info| out.line(&info_line(info)))
                }));
                let (best, ponder, searcher) = match outcome {
                    Ok(result) => {
                        if debug {
                            out.info_string(&format!(
                                "debug: search ended: depth {} nodes {} score {}",
                                result.depth, result.nodes, result.score
                            ));
                        }
                        let (best, ponder) = checked_moves(&pos, &result, &out);
                        (best, ponder, Some(searcher))
                    }
                    // A panic in the search (a bug; impossible in release builds, which abort):
                    // still answer with a legal move, and let the loop build a fresh searcher.
                    Err(_) => {
                        out.info_string("error: the search failed; playing the first legal move");
                        (pos.legal_moves().first().copied(), None, None)
                    }
                };
                thread_finished.store(true, SeqCst);
                out.line(&bestmove_line(best, ponder));
                searcher
            })?;
        Ok(SearchJob { control, finished, handle })
    }

    /// True once the search has ended (its `bestmove` is printed or about to be).
    pub fn is_finished(&self) -> bool {
        self.finished.load(SeqCst)
    }

    /// True once the search has been told to stop: it ends within milliseconds.
    pub fn is_stopping(&self) -> bool {
        self.control.stop.load(SeqCst)
    }

    /// Tells the search to stop (it then prints its `bestmove`).
    pub fn stop(&self) {
        self.control.stop.store(true, SeqCst);
    }

    /// Ends pondering: the search goes on as a normal one, its time budget starting now.
    pub fn ponderhit(&self) {
        self.control.pondering.store(false, SeqCst);
    }

    /// Waits for the thread to end and returns the searcher, or `None` if the search failed.
    pub fn join(self) -> Option<Searcher<Position>> {
        self.handle.join().ok().flatten()
    }
}

/// The best move and ponder move of `result`, checked against the rules of `pos`.
fn checked_moves(pos: &Position, result: &SearchResult<Move>, out: &Output) -> (Option<Move>, Option<Move>) {
    let legal = pos.legal_moves();
    let best = match result.best_move {
        Some(mv) if legal.contains(&mv) => Some(mv),
        other => {
            if let Some(mv) = other {
                out.info_string(&format!("error: the search returned an illegal move {mv}; replaced"));
            } else if !legal.is_empty() {
                out.info_string("error: the search returned no move; playing the first legal move");
            }
            legal.first().copied()
        }
    };
    let ponder = match (best, result.ponder) {
        (Some(best), Some(reply)) if pos.make_move(best).legal_moves().contains(&reply) => Some(reply),
        _ => None,
    };
    (best, ponder)
}
