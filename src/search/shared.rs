//! What the threads of one search share ([`Shared`]): the table, the abort flag, the node
//! counter, the driver's flags and the search's settings. Its own room so that the thread
//! driver (`threads.rs`) and the workers (`negamax.rs`) both depend on it and not on each other.

use super::tt::TranspositionTable;
use super::{Limits, SearchControl, SearchParams};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

/// What every thread of one search shares.
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Raised by the main thread to end the search of every thread.
    pub abort: AtomicBool,
    /// Nodes searched by all threads (batched).
    pub nodes: AtomicU64,
    /// The driver's flags.
    pub control: &'a SearchControl,
    /// The limits of this search.
    pub limits: &'a Limits,
    /// The selective techniques in use.
    pub params: SearchParams,
    /// When the search started.
    pub start: Instant,
    /// The game's positions before the root since its last irreversible move (repetition games).
    pub history: &'a [u64],
}
