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
use crate::game::Rules;
use crate::search::{Limits, SearchControl, SearchResult, Searcher};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::thread::JoinHandle;
use std::time::Instant;

/// The search thread's stack: the main search thread recurses one frame (with a move list) per
/// ply, like the helper threads, which get 16 MiB.
const SEARCH_STACK: usize = 32 << 20;

/// How a search answers: what its `bestmove` line carries and whether it explains its timing.
#[derive(Clone, Copy, Debug)]
pub struct Answer {
    /// Append `ponder R` to `bestmove` when the search has an expected reply.
    pub ponder_move: bool,
    /// `debug on`: report where the time of the move went (see [`timing_report`]).
    pub debug: bool,
}

/// A running (or finished, not yet joined) search.
pub struct SearchJob<G: Rules> {
    control: Arc<SearchControl>,
    finished: Arc<AtomicBool>,
    handle: JoinHandle<Option<Searcher<G>>>,
}

impl<G: Rules> SearchJob<G> {
    /// Starts searching `pos` within `limits` on a new thread. On failure (the system refuses
    /// a thread) the searcher is lost and the error returned; the caller still owes a
    /// `bestmove`.
    ///
    /// The `bestmove` is printed as soon as the main search thread has its result, before the
    /// helper threads are joined ([`Searcher::search_reporting`]): on a loaded machine a helper
    /// may wait tens of milliseconds for a processor, and the clock should not.
    pub fn start(
        mut searcher: Searcher<G>,
        pos: G,
        limits: Limits,
        control: Arc<SearchControl>,
        out: Output,
        answer: Answer,
    ) -> std::io::Result<SearchJob<G>> {
        let finished = Arc::new(AtomicBool::new(false));
        let (thread_control, thread_finished) = (control.clone(), finished.clone());
        let handle =
            std::thread::Builder::new().name("search".into()).stack_size(SEARCH_STACK).spawn(move || {
                let thread_started = Instant::now();
                let mut answered = false;
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    searcher.search_reporting(
                        &pos,
                        &limits,
                        &thread_control,
                        &mut |info| out.line(&info_line(info)),
                        &mut |result| {
                            let (best, ponder) = checked_moves(&pos, result, &out);
                            if answer.debug {
                                out.info_string(&format!(
                                    "debug: search ended: depth {} nodes {} score {}",
                                    result.depth, result.nodes, result.score
                                ));
                            }
                            thread_finished.store(true, SeqCst);
                            out.line(&bestmove_line(best, ponder.filter(|_| answer.ponder_move)));
                            answered = true;
                            if answer.debug {
                                let written = Instant::now();
                                out.info_string(&timing_report(&limits, thread_started, result, written));
                            }
                        },
                    )
                }));
                match outcome {
                    Ok(_) => Some(searcher),
                    // A panic in the search (a bug; impossible in release builds, which abort):
                    // still answer with a legal move, and let the loop build a fresh searcher.
                    Err(_) => {
                        if !answered {
                            out.info_string("error: the search failed; playing the first legal move");
                            thread_finished.store(true, SeqCst);
                            out.line(&bestmove_line(pos.legal_moves().as_ref().first().copied(), None));
                        }
                        None
                    }
                }
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
        self.control.ponderhit();
    }

    /// Waits for the thread to end and returns the searcher, or `None` if the search failed.
    pub fn join(self) -> Option<Searcher<G>> {
        self.handle.join().ok().flatten()
    }
}

/// The best move and ponder move of `result`, checked against the rules of `pos`.
fn checked_moves<G: Rules>(
    pos: &G,
    result: &SearchResult<G::Move>,
    out: &Output,
) -> (Option<G::Move>, Option<G::Move>) {
    let legal = pos.legal_moves();
    let legal = legal.as_ref();
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
        (Some(best), Some(reply)) if pos.make_move(best).legal_moves().as_ref().contains(&reply) => {
            Some(reply)
        }
        _ => None,
    };
    (best, ponder)
}

/// The `debug on` account of where a move's time went, measured from the moment the input
/// thread read `go` (the origin of every budget):
/// `debug: timing go-read->thread 0.4 ms, ->search 0.5 ms, ->decided 969.8 ms, ->bestmove 970.0 ms`.
/// A large first step means the engine loop or the new thread waited for a processor; a large
/// gap between `decided` and `bestmove`, that the output did.
fn timing_report<M>(
    limits: &Limits,
    thread_started: Instant,
    result: &SearchResult<M>,
    written: Instant,
) -> String {
    let Some(read) = limits.start else {
        return "debug: timing unknown (no read time)".to_string();
    };
    let ms = |at: Instant| at.saturating_duration_since(read).as_secs_f64() * 1000.0;
    let mut text = format!("debug: timing go-read->thread {:.1} ms", ms(thread_started));
    if let Some(timing) = result.timing {
        text.push_str(&format!(
            ", ->search {:.1} ms, ->decided {:.1} ms",
            ms(timing.started),
            ms(timing.decided)
        ));
    }
    text.push_str(&format!(", ->bestmove {:.1} ms", ms(written)));
    text
}
