//! The search: parallel iterative-deepening alpha-beta over any [`Game`].
//!
//! The scheme, room by room:
//! - [`Searcher`] (this file) owns the long-lived state (the transposition table and the
//!   per-thread ordering tables) and runs one search per call of [`Searcher::search`];
//! - `threads.rs`: Lazy SMP, every thread searching the same root and sharing the table
//!   (`shared.rs`: what they share);
//! - `root.rs`: iterative deepening with aspiration windows, and MultiPV, the root of the
//!   worker that one thread runs;
//! - `negamax.rs`: the worker and its principal-variation alpha-beta (negamax form);
//! - `ordering.rs`: move ordering (TT move, forcing moves, killers, history);
//! - [`tt`]: the lock-free transposition table; [`time`]: time management.
//!
//! **Scores.** Internally a score is an `i32` from the side to move's point of view. Heuristic
//! scores (the game's evaluation) are clamped to +-[`EVAL_LIMIT`]; a proven win in `p` plies is
//! `WIN - p`, a proven loss in `p` plies `-(WIN - p)`, so a shorter win is a higher score and a
//! longer resistance a less bad loss. [`Score`] is the public form. Proven scores are stored in
//! the transposition table relative to the node, not the root ([`score_to_tt`]), so an entry is
//! valid wherever the position recurs in the tree.
//!
//! The search knows games only through the [`Game`] trait, contains no rule of any game, and
//! never prints: progress goes to the `on_info` callback.

pub mod dfpn;
pub mod dfpn_table;
pub mod hash_size;
mod negamax;
mod ordering;
mod root;
mod shared;
mod threads;
pub mod time;
pub mod tt;

use crate::game::Game;
pub use hash_size::MAX_HASH_MIB;
use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tt::TranspositionTable;

/// The score of a win in 0 plies: a finished game won by the side to move.
pub const WIN: i32 = 30_000;
/// The deepest ply the search reaches (it has no extensions, so this is also the deepest
/// iteration, minus a margin).
pub const MAX_PLY: usize = 128;
/// The deepest iteration of the iterative deepening.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 8;
/// Heuristic scores are clamped to +-EVAL_LIMIT, far from any proven score.
pub const EVAL_LIMIT: i32 = 20_000;
/// Scores at least this far from zero are proven results (wins or losses in at most
/// `WIN - PROVEN` plies, which no search reaches).
const PROVEN: i32 = WIN - 2_000;
/// Above every score.
const INFINITY: i32 = WIN + 1;

/// True for the score of a proven win or loss.
#[inline(always)]
const fn is_proven(score: i32) -> bool {
    score >= PROVEN || score <= -PROVEN
}

/// Converts a score at `ply` from the root to the form stored in the transposition table:
/// proven scores count their plies from the node instead of the root.
#[inline(always)]
pub const fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= PROVEN {
        score + ply as i32
    } else if score <= -PROVEN {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`]: a stored score read at `ply` from the root.
#[inline(always)]
pub const fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= PROVEN {
        score - ply as i32
    } else if score <= -PROVEN {
        score + ply as i32
    } else {
        score
    }
}

/// A search score from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// An estimate from the evaluation, in the game's unit (Impasse: hundredths of a checker).
    Heuristic(i32),
    /// A proven win: the side to move wins after this many plies (moves of either side) with
    /// best play; `Win(1)` is a winning move now.
    Win(u32),
    /// A proven loss: with best play the opponent wins after this many plies; `Loss(0)` is a
    /// finished game, `Loss(2)` a loss whatever the side to move plays now.
    Loss(u32),
}

impl Score {
    /// The public form of an internal score.
    pub fn from_internal(score: i32) -> Score {
        if score >= PROVEN {
            Score::Win((WIN - score) as u32)
        } else if score <= -PROVEN {
            Score::Loss((WIN + score) as u32)
        } else {
            Score::Heuristic(score)
        }
    }

    /// The internal form (see the module docs).
    pub fn to_internal(self) -> i32 {
        match self {
            Score::Heuristic(s) => s,
            Score::Win(p) => WIN - p as i32,
            Score::Loss(p) => -(WIN - p as i32),
        }
    }

    /// True for a proven win or loss.
    pub fn is_proven(self) -> bool {
        !matches!(self, Score::Heuristic(_))
    }

    /// The UCI `score mate M` value, in moves of the side to move: of the `p` plies to the end
    /// the side to move makes `(p + 1) / 2` (rounded down), so a win in `p` plies is
    /// `mate (p + 1) / 2` and a loss `mate -((p + 1) / 2)`; a finished game is `mate 0`. (In
    /// Impasse a loss always takes an even number of plies; in Dipole a move that takes one's
    /// own last checkers off loses at once, a loss in 1 ply: `mate -1`.) `None` for a heuristic
    /// score (`score cp X` in UCI).
    pub fn uci_mate(self) -> Option<i32> {
        match self {
            Score::Heuristic(_) => None,
            Score::Win(p) => Some((p as i32 + 1) / 2),
            Score::Loss(p) => Some(-((p as i32 + 1) / 2)),
        }
    }
}

impl fmt::Display for Score {
    /// `cp 35` for a heuristic score, `win 7` / `loss 6` for proven ones (in plies).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Heuristic(s) => write!(f, "cp {s}"),
            Score::Win(p) => write!(f, "win {p}"),
            Score::Loss(p) => write!(f, "loss {p}"),
        }
    }
}

/// The side to move's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub time: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves to play until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// What ends a search. Every limit given applies (the first one reached ends the search).
/// With no limit at all (the `Default`), the search runs until [`SearchControl::stop`] is set
/// or [`MAX_DEPTH`] is completed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Complete at most this many iterations (plies). The first iteration always completes.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (checked every 1024 nodes, and between iterations).
    pub nodes: Option<u64>,
    /// Think exactly this long (minus `move_overhead`).
    pub movetime: Option<Duration>,
    /// Budget the time from the side to move's clock (see [`time`]).
    pub clock: Option<Clock>,
    /// Search until stopped: every other limit is ignored, and the search does not return
    /// before [`SearchControl::stop`] is set, even when it has nothing more to search.
    pub infinite: bool,
    /// Subtracted from every time budget for the delay between the engine and the clock.
    pub move_overhead: Duration,
    /// Stop as soon as a win in at most this many own moves is proven (UCI `go mate N`); the
    /// other limits still apply.
    pub mate: Option<u32>,
    /// Search only the root moves with these [`Game::move_code`]s (UCI `go searchmoves`);
    /// empty: every legal move. Codes of no legal move are ignored, and if none is legal every
    /// move is searched, so that the search always has a move to return.
    pub search_moves: Vec<u16>,
    /// MultiPV: search this many best root moves, each with its own exact score and line
    /// ([`SearchInfo::lines`]); 0 and 1 both mean the one best move. More than the root has
    /// legal moves means all of them. The main thread alone searches the extra lines; helper
    /// threads search for the best move as always.
    pub multipv: usize,
    /// The moment the time budgets start from: when the command that asked for the search was
    /// read (the protocol stamps `go` on its input thread), so that the delays before the
    /// search starts (waking threads, allocating) are spent from the budget, not added to it.
    /// `None`: when the search starts.
    pub start: Option<Instant>,
}

/// Flags shared between the search and its driver (the protocol), typically in an `Arc`.
#[derive(Debug, Default)]
pub struct SearchControl {
    /// Set to end the search as soon as possible (within a few milliseconds); the search then
    /// still returns its best move so far.
    pub stop: AtomicBool,
    /// While true, time limits are not applied and the search does not return before it is
    /// cleared (ponderhit) or `stop` is set; when it is cleared, the time budget starts from
    /// that moment (see [`SearchControl::ponderhit`]).
    pub pondering: AtomicBool,
    /// When the ponder hit happened, if [`SearchControl::ponderhit`] recorded it.
    ponderhit_at: Mutex<Option<Instant>>,
    /// Told when `stop` or ponderhit is raised (see [`SearchControl::set_waker`]).
    waker: Mutex<Option<Waker>>,
}

/// A callback run when a search is told to stop or its pondering ends.
struct Waker(Box<dyn Fn() + Send + Sync>);

impl fmt::Debug for Waker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Waker")
    }
}

impl SearchControl {
    /// Flags for a search that is not pondering and not stopped.
    pub fn new() -> SearchControl {
        SearchControl::default()
    }

    /// Ends pondering, recording the moment (the first call's, if called twice), so that the
    /// time budget starts when the driver learnt of the ponder hit, not when the search next
    /// looks at its flags.
    pub fn ponderhit(&self) {
        {
            let mut at = self.ponderhit_at.lock().unwrap_or_else(|p| p.into_inner());
            at.get_or_insert_with(Instant::now);
            self.pondering.store(false, std::sync::atomic::Ordering::SeqCst);
        }
        self.wake();
    }

    /// Tells the search to stop (raises [`SearchControl::stop`]) and runs the waker.
    pub fn request_stop(&self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        self.wake();
    }

    /// Sets the callback that [`SearchControl::request_stop`] and [`SearchControl::ponderhit`]
    /// run after raising their flag: a driver that waits on something other than these flags
    /// (the protocol's answerer waits on a channel) hears of them at once instead of polling.
    pub fn set_waker(&self, waker: impl Fn() + Send + Sync + 'static) {
        *self.waker.lock().unwrap_or_else(|p| p.into_inner()) = Some(Waker(Box::new(waker)));
    }

    fn wake(&self) {
        if let Some(waker) = &*self.waker.lock().unwrap_or_else(|p| p.into_inner()) {
            (waker.0)();
        }
    }

    /// When [`SearchControl::ponderhit`] was first called, if it was.
    pub fn ponderhit_time(&self) -> Option<Instant> {
        *self.ponderhit_at.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Progress of a search, reported once per completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<M> {
    /// The completed iteration (nominal depth in plies).
    pub depth: u32,
    /// The deepest ply reached in it.
    pub seldepth: u32,
    /// The score of the best move.
    pub score: Score,
    /// Nodes searched so far by all threads (those of helper threads up to the last 1024).
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition-table fill in permille.
    pub hashfull: u32,
    /// The principal variation: the best move and the expected replies.
    pub pv: Vec<M>,
    /// The MultiPV lines of the iteration, best first ([`Limits::multipv`] of them, or as many
    /// as the root has moves); the first is `score` and `pv`. One line without MultiPV.
    pub lines: Vec<RootLine<M>>,
}

/// One MultiPV line: a root move's score and its principal variation (the move first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLine<M> {
    /// The score of the line's first move, from the side to move's point of view.
    pub score: Score,
    /// The line: the root move and the expected replies.
    pub pv: Vec<M>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the game is over.
    pub best_move: Option<M>,
    /// Its score (for a finished game: `Loss(0)`, or `Win(0)`/`Heuristic(0)` for games that can
    /// end so).
    pub score: Score,
    /// The last completed iteration (0 if the game is over).
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// The principal variation of the last completed iteration.
    pub pv: Vec<M>,
    /// The MultiPV lines of the last completed iteration, best first (see
    /// [`SearchInfo::lines`]); empty when the game is over.
    pub lines: Vec<RootLine<M>>,
    /// The expected reply, to ponder on.
    pub ponder: Option<M>,
    /// When the main thread began searching and when it decided to stop (`None` when no
    /// search ran): with [`Limits::start`], where the time of a move went.
    pub timing: Option<SearchTiming>,
}

/// When the main search thread started and stopped, for time diagnostics (`debug on`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchTiming {
    /// The main thread began its first iteration.
    pub started: Instant,
    /// The main thread stopped searching: its last look at the limits and the stop flag
    /// (before waiting for `stop` or `ponderhit` in an infinite or pondering search).
    pub decided: Instant,
}

/// Switches for the search's selective techniques, so that a match can measure each against
/// its absence. [`SearchParams::default`] is the engine's choice, backed by such matches
/// (self-play, 20,000 nodes per move, 4-ply random openings played with both colours):
/// - late-move reductions: +41 Elo over 1000 games (+-22, 95%) with an earlier evaluation,
///   +54 over 600 games (+-28) with the current one: **on**;
/// - reverse futility pruning: +29 over 1000 games with the earlier evaluation, but +1 over
///   600 games with the current one: no measured gain, so **off** until a match says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Late-move reductions: search late, quiet moves less deep first.
    pub lmr: bool,
    /// Reverse futility pruning: at shallow depth, trust a static evaluation far above beta.
    pub rfp: bool,
    /// Aspiration windows around the previous iteration's score (a speed technique: it changes
    /// which cutoffs happen, not what is proven).
    pub aspiration: bool,
    /// Capture extension: search on at the horizon while the game says the position is not
    /// quiet ([`Game::is_quiet`]); no effect on games that are always quiet.
    pub quiescence: bool,
    /// Principal-variation extension: one ply more for the moves the game marks
    /// ([`crate::game::Game::is_extended`]) at PV nodes; no effect on games that mark none.
    pub extensions: bool,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams { lmr: true, rfp: false, aspiration: true, quiescence: true, extensions: true }
    }
}

/// A searcher: the transposition table, the per-thread ordering tables and the thread count,
/// kept from search to search (a game's searches help each other through the table).
pub struct Searcher<G: Game> {
    tt: TranspositionTable,
    tables: Vec<ordering::OrderingTables<G>>,
    threads: usize,
    /// The helper threads (`threads - 1` of them), kept from search to search; `None` with one
    /// thread, or where the system refused them (the search then runs on its own thread).
    helpers: Option<rayon::ThreadPool>,
    params: SearchParams,
    /// The game before the position searched (see [`Searcher::set_history`]).
    history: Vec<u64>,
}

impl<G: Game> Searcher<G> {
    /// A searcher with a `hash_mib` MiB transposition table and `threads` search threads (at
    /// least one).
    pub fn new(hash_mib: usize, threads: usize) -> Searcher<G> {
        let mut searcher = Searcher {
            tt: TranspositionTable::new(hash_mib),
            tables: Vec::new(),
            threads: 1,
            helpers: None,
            params: SearchParams::default(),
            history: Vec::new(),
        };
        searcher.set_threads(threads);
        searcher
    }

    /// A searcher as [`Searcher::new`] if a `hash_mib` MiB table is accepted and can be had
    /// ([`hash_size::check`]), else the one-line reason.
    pub fn try_new(hash_mib: usize, threads: usize) -> Result<Searcher<G>, String> {
        let tt = TranspositionTable::try_new(hash_mib, 0)?;
        let mut searcher = Searcher::new(0, threads);
        searcher.tt = tt;
        Ok(searcher)
    }

    /// Resizes the transposition table to `mib` MiB (its contents are lost). For the engine's
    /// own sizes; a size from the user goes through [`Searcher::try_set_hash`].
    pub fn set_hash(&mut self, mib: usize) {
        self.tt = TranspositionTable::new(mib);
    }

    /// Resizes the transposition table to `mib` MiB if that size is accepted and can be had
    /// (the current table's memory counted as given back: it is freed first); otherwise the
    /// one-line reason, and a table of the size as before (emptied).
    pub fn try_set_hash(&mut self, mib: usize) -> Result<(), String> {
        let before = self.tt.size_mib();
        hash_size::check(mib, before)?;
        self.tt = TranspositionTable::new(0);
        match TranspositionTable::try_new(mib, before) {
            Ok(tt) => {
                self.tt = tt;
                Ok(())
            }
            Err(e) => {
                self.tt = TranspositionTable::try_new(before, before)
                    .unwrap_or_else(|_| TranspositionTable::new(0));
                Err(e)
            }
        }
    }

    /// Sets the number of search threads (at least one). The helper threads start with the
    /// next search and stay until the number changes.
    pub fn set_threads(&mut self, n: usize) {
        let n = n.max(1);
        if n != self.threads {
            self.helpers = None;
        }
        self.threads = n;
        self.tables.resize_with(self.threads, ordering::OrderingTables::new);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Sets the selective techniques in use (for measurements; the default is the engine's).
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
    }

    /// Tells the search what came before the position it will search, for games that can repeat
    /// a position ([`Game::CAN_REPEAT`]; ignored by the others): the hashes of the game's
    /// positions since its last irreversible move, oldest first, without the position to be
    /// searched. [`crate::game::history::GameHistory::hashes_before`] computes them. Kept for
    /// every later search until set again; empty at first.
    pub fn set_history(&mut self, hashes: Vec<u64>) {
        self.history = hashes;
    }

    /// Forgets everything learnt: clears the transposition table and the histories. After this,
    /// a one-thread search to a fixed depth or node count is exactly reproducible.
    pub fn new_game(&mut self) {
        self.tt.clear(self.threads);
        self.tables.iter_mut().for_each(ordering::OrderingTables::clear);
    }

    /// The transposition table's fill in permille (entries of the last search).
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `pos` within `limits` until a limit is reached or `control.stop` is set, calling
    /// `on_info` (from the calling thread) after each completed iteration. Always returns a
    /// result; its best move is legal and present unless the game is over.
    pub fn search(
        &mut self,
        pos: &G,
        limits: &Limits,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        self.search_reporting(pos, limits, control, on_info, &mut |_| {})
    }

    /// [`Searcher::search`], also handing the result to `on_done` as soon as it is final: after
    /// the main thread has stopped (and an infinite or pondering search has been released), but
    /// before the helper threads have been joined. A driver that answers from `on_done` does not
    /// wait for helpers that the operating system has not scheduled yet (on a loaded machine
    /// that can take tens of milliseconds). The node count passed there may miss the helpers'
    /// last batches; the returned result has them all.
    pub fn search_reporting(
        &mut self,
        pos: &G,
        limits: &Limits,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
        on_done: &mut dyn FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        self.tt.new_search();
        if let Some(outcome) = pos.outcome() {
            let score = match outcome {
                crate::game::Outcome::Loss => Score::Loss(0),
                crate::game::Outcome::Win => Score::Win(0),
                crate::game::Outcome::Draw => Score::Heuristic(0),
            };
            let result = SearchResult {
                best_move: None,
                score,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                lines: Vec::new(),
                ponder: None,
                timing: None,
            };
            threads::wait_for_release(limits, control);
            on_done(&result);
            return result;
        }
        if self.helpers.is_none() && self.threads > 1 {
            self.helpers = threads::helper_pool(self.threads - 1);
        }
        let tables = &mut self.tables[..self.threads];
        let history = if G::CAN_REPEAT { &self.history[..] } else { &[] };
        let helpers = self.helpers.as_ref();
        threads::run(pos, &self.tt, helpers, tables, limits, control, self.params, history, on_info, on_done)
    }
}
