//! Lazy SMP: several threads search the same root at once and share only the transposition
//! table, a stop flag and a node counter.
//!
//! The scheme (named by Dan Homan for ExChess, made famous by Stockfish 7 and used by carp and
//! viridithas in Rust): no work is split; every thread runs its own iterative deepening on the
//! whole tree. They help each other through the shared lock-free table: a thread that finds a
//! result first stores it, and the others then cut off there, so the threads spread out over
//! different parts of the tree. To make them diverge more, helper threads with an odd index
//! search one ply deeper than their iteration counter says (so they work ahead of the main
//! thread and leave results it will need), and each thread keeps its own history and killer
//! tables, which order moves differently.
//!
//! The main thread (index 0, the calling thread) decides: it alone applies the limits and
//! reports progress, and when it stops, it raises the shared abort flag, the helpers finish
//! within a few microseconds, and the main thread's result is returned. Node counts are added
//! to the shared counter in batches of [`super::negamax::POLL_INTERVAL`] so that the threads do
//! not fight over one cache line. With one thread and a depth or node limit, nothing depends on
//! timing, so the search is exactly reproducible.

use super::negamax::Worker;
use super::ordering::OrderingTables;
use super::shared::Shared;
use super::tt::TranspositionTable;
use super::{Limits, SearchControl, SearchInfo, SearchParams, SearchResult};
use crate::game::Game;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Stack size of helper threads: the recursion holds a move list per ply.
const HELPER_STACK: usize = 16 << 20;

/// Runs one search of `pos` on `tables.len()` threads (the calling thread is the main one).
/// The result goes to `on_done` before the helper threads are joined (see
/// [`super::Searcher::search_reporting`]), and is returned after.
#[allow(clippy::too_many_arguments)] // the parts of one search call, passed straight through
pub fn run<G: Game>(
    pos: &G,
    tt: &TranspositionTable,
    tables: &mut [OrderingTables<G>],
    limits: &Limits,
    control: &SearchControl,
    params: SearchParams,
    history: &[u64],
    on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    on_done: &mut dyn FnMut(&SearchResult<G::Move>),
) -> SearchResult<G::Move> {
    let shared = Shared {
        tt,
        abort: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        control,
        limits,
        params,
        start: limits.start.unwrap_or_else(Instant::now),
        history,
    };
    let (main_tables, helper_tables) = tables.split_first_mut().expect("at least one thread");
    let mut result = std::thread::scope(|scope| {
        for (i, tables) in helper_tables.iter_mut().enumerate() {
            let shared = &shared;
            // A helper that cannot be started is simply missing: the search stays correct.
            let _ = std::thread::Builder::new().stack_size(HELPER_STACK).spawn_scoped(scope, move || {
                Worker::new(shared, tables, i + 1).iterate(pos, None);
            });
        }
        let mut result = Worker::new(&shared, main_tables, 0).iterate(pos, Some(on_info));
        shared.abort.store(true, Relaxed);
        wait_for_release(limits, control);
        result.nodes = shared.nodes.load(Relaxed);
        on_done(&result);
        result
    });
    // Every thread has flushed its count on the way out of the scope.
    result.nodes = shared.nodes.load(Relaxed);
    result
}

/// Blocks while the search must not return yet: in an infinite search until `stop`, while
/// pondering until ponderhit or `stop`.
pub fn wait_for_release(limits: &Limits, control: &SearchControl) {
    while !control.stop.load(Relaxed) && (limits.infinite || control.pondering.load(Relaxed)) {
        std::thread::sleep(Duration::from_millis(1));
    }
}
