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

/// The pool of `count` helper threads, kept by the searcher from search to search (a thread
/// started for each search would map and unmap its stack every move; see
/// `src/protocol/workers.rs`), or `None` if the system refuses them. Its threads run at the
/// ordinary priority whatever thread builds the pool.
pub fn helper_pool(count: usize) -> Option<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(count)
        .stack_size(HELPER_STACK)
        .thread_name(|i| format!("search helper {}", i + 1))
        .start_handler(|_| crate::realtime::release())
        .build()
        .ok()
}

/// Runs one search of `pos` on `tables.len()` threads: the calling thread is the main one, and
/// the others are taken from `helpers` (a helper missing there is simply missing: the search
/// stays correct). The result goes to `on_done` before the helpers are waited for (see
/// [`super::Searcher::search_reporting`]), and is returned after.
#[allow(clippy::too_many_arguments)] // the parts of one search call, passed straight through
pub fn run<G: Game>(
    pos: &G,
    tt: &TranspositionTable,
    helpers: Option<&rayon::ThreadPool>,
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
    let mut main = |shared: &Shared<'_>, main_tables: &mut OrderingTables<G>| {
        let mut result = Worker::new(shared, main_tables, 0).iterate(pos, Some(on_info));
        shared.abort.store(true, Relaxed);
        wait_for_release(limits, control);
        result.nodes = shared.nodes.load(Relaxed);
        on_done(&result);
        result
    };
    let mut result = match helpers {
        Some(pool) if !helper_tables.is_empty() => pool.in_place_scope(|scope| {
            for (i, tables) in helper_tables.iter_mut().enumerate() {
                let shared = &shared;
                scope.spawn(move |_| {
                    // A helper that starts after the main thread has finished has nothing to do.
                    if !shared.abort.load(Relaxed) {
                        Worker::new(shared, tables, i + 1).iterate(pos, None);
                    }
                });
            }
            main(&shared, main_tables)
        }),
        _ => main(&shared, main_tables),
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Built from a thread at real-time priority (the engine loop waits at one, and may make
    /// the searcher), the helpers still run at the ordinary priority, and they are kept: the
    /// same threads serve one search after the other.
    #[test]
    fn helpers_run_at_the_ordinary_priority_and_are_kept() {
        let (granted, policies, same) = std::thread::spawn(|| {
            let granted = crate::realtime::request();
            let pool = helper_pool(2).unwrap();
            crate::realtime::release();
            let ids = |pool: &rayon::ThreadPool| {
                let mut ids = pool.broadcast(|_| std::thread::current().id());
                ids.sort_by_key(|id| format!("{id:?}"));
                ids
            };
            let policies = pool.broadcast(|_| crate::realtime::is_current());
            (granted, policies, ids(&pool) == ids(&pool))
        })
        .join()
        .unwrap();
        assert_eq!(policies, vec![false, false], "real-time granted to the builder: {granted}");
        assert!(same);
    }
}
