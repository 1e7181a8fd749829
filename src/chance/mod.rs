//! The chance-node search: the decision of the player to move in a game with dice, by
//! expectimax over the rest of his turn with exact probabilities, and the game's value of the
//! position where the turn ends.
//!
//! Knows games only through [`ChanceGame`]. The scheme:
//! - a **decision** node takes the best of its children for the player who owns the turn;
//! - a **chance** node is the weighted mean of its outcomes (weights out of
//!   [`crate::game::Rules::chance_total`]: exact, never sampled);
//! - where a new turn starts (or the game ends) the search stops and asks the game what the
//!   position is worth to that player ([`ChanceGame::value`]).
//!
//! Within a turn only one player decides, so the tree has no min nodes: the Star1/Star2
//! pruning of two-player expectimax (Ballard 1983), which needs a min player's bounds, has
//! nothing to cut, and the search is exact. What makes it affordable is that the rest of a turn
//! is a small graph: many orders of events reach the same position, so every position is
//! solved once per depth ([`memo`], keyed by the position itself, not a hash, so nothing
//! collides).
//!
//! **Depth** is the number of further rolls (chance nodes) a line may contain. At the horizon
//! a chance node has no value, and a decision takes the best of the children that have one: in
//! Can't Stop that means stopping at the horizon, a safe underestimate of rolling on. Iterative
//! deepening grows the depth until the root's value no longer depends on the horizon (the turn
//! is solved exactly) or a limit is reached; each depth reuses every exactly solved position.
//! A value is reused only at its own depth (an exact one from its depth on), so a search to a
//! given depth is exactly the expectimax to that depth, whatever it searched first.
//!
//! **Threads.** On one thread the node count is deterministic for a position and a depth (the
//! bench's signature). With [`Helpers`], each depth's positions after the first roll are shared
//! among the threads through one memo ([`Team`]); the values, the move and what is reported of
//! them are those of one thread whatever the scheduling, and only the node count varies.

mod memo;
pub mod player;

#[cfg(test)]
use crate::game::Rules as _;
use crate::game::{ChanceGame, Node};
use memo::{LocalMemo, Memo, SharedMemo};
use rustc_hash::FxHashSet;
use std::marker::PhantomData;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The deepest a search goes, in rolls: more than any turn needs in practice.
pub const MAX_DEPTH: u32 = 40;

/// How often (in nodes) the search looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;

/// When a search must end (any combination; none: until the turn is solved exactly).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The most rolls a line may contain.
    pub depth: Option<u32>,
    /// About this many nodes, checked between depths and every [`CHECK_EVERY`] nodes.
    pub nodes: Option<u64>,
    /// This much time.
    pub movetime: Option<Duration>,
}

/// One completed depth of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration<E> {
    /// The depth in rolls.
    pub depth: u32,
    /// The value of each decision of the root, in the order of `decisions()`.
    pub values: Vec<(E, f64)>,
    /// The best decision (the first of the best values, in the game's order).
    pub best: E,
    /// Its value.
    pub value: f64,
    /// Whether the values are exact: no line reached the horizon.
    pub exact: bool,
    /// Nodes searched so far (the whole search, all depths).
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
}

/// The helper threads of searches on several threads, kept from search to search (a thread
/// started for every search would map and unmap its stack every move: see
/// `src/protocol/workers.rs`). The calling thread is always the first of a search's threads.
#[derive(Debug, Default)]
pub struct Helpers {
    pool: Option<rayon::ThreadPool>,
}

impl Helpers {
    /// No helper: searches run on the calling thread alone.
    pub fn none() -> Helpers {
        Helpers { pool: None }
    }

    /// The helpers of searches on `threads` threads (the caller and `threads - 1` helpers);
    /// none if the system refuses them (searches then run on one thread, as correct). The
    /// helpers run at the ordinary priority whatever thread makes them.
    pub fn new(threads: usize) -> Helpers {
        if threads <= 1 {
            return Helpers::none();
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads - 1)
            .thread_name(|i| format!("chance helper {}", i + 1))
            .start_handler(|_| crate::realtime::release())
            .build()
            .ok();
        Helpers { pool }
    }

    /// The threads a search with these helpers runs on.
    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, |pool| pool.current_num_threads() + 1)
    }
}

/// The counts every thread of a search adds to and the flag that ends them all.
#[derive(Default)]
struct Counters {
    /// Raised by the thread that ends the search: the others end at their next node.
    abort: AtomicBool,
    /// The nodes of every thread, each adding its own every [`CHECK_EVERY`] nodes and at the
    /// end of its work.
    nodes: AtomicU64,
}

/// What a thread of a search obeys: the limits, the clock, a stop flag, the shared counts.
struct Control<'a> {
    limits: Limits,
    start: Instant,
    /// The caller's stop flag (a helper's: the shared abort flag; the calling thread passes
    /// the caller's on).
    stop: &'a AtomicBool,
    counters: &'a Counters,
}

impl Control<'_> {
    /// Whether the stop flag, the node limit or the time limit says to end.
    fn out_of_budget(&self) -> bool {
        self.stop.load(Relaxed)
            || self.limits.nodes.is_some_and(|n| self.counters.nodes.load(Relaxed) >= n)
            || self.limits.movetime.is_some_and(|t| self.start.elapsed() >= t)
    }

    /// Whether a full table of the memo may grow: growing copies its `len` entries at once
    /// (about 100 ns each), a pause the clock checks between nodes cannot interrupt, so a
    /// search near its deadline stops instead.
    fn may_grow(&self, len: usize) -> bool {
        let growth = Duration::from_nanos(100 * len as u64);
        self.limits.movetime.is_none_or(|t| self.start.elapsed() + growth < t)
    }
}

/// The chance-node search (its entry points; a search's state is its threads' [`Worker`]s).
pub struct ChanceSearch;

impl ChanceSearch {
    /// Searches `root` (a decision or a chance node) within `limits` on the calling thread,
    /// calling `report` after each completed depth; returns the last completed one, or `None`
    /// if the root has no decision to make or not even depth 1 completed. `stop` ends the
    /// search from outside.
    pub fn run<G: ChanceGame>(
        root: &G,
        limits: Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Iteration<G::Step>),
    ) -> Option<Iteration<G::Step>> {
        Self::run_among(root, &[], limits, &Helpers::none(), stop, report)
    }

    /// [`ChanceSearch::run`] with the root's decisions restricted to those of `only` (`go
    /// searchmoves`; an empty `only`, or one that holds none of them, restricts nothing), on
    /// the calling thread and `helpers` ([`Team`]).
    pub fn run_among<G: ChanceGame>(
        root: &G,
        only: &[G::Step],
        limits: Limits,
        helpers: &Helpers,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Iteration<G::Step>),
    ) -> Option<Iteration<G::Step>> {
        let mut decisions = root.decisions();
        if decisions.iter().any(|d| only.contains(d)) {
            decisions.retain(|d| only.contains(d));
        }
        if decisions.is_empty() {
            return None;
        }
        let (start, player) = (Instant::now(), root.to_move());
        let search = Deepening { root, decisions: &decisions, limits };
        let Some(pool) = &helpers.pool else {
            let counters = Counters::default();
            let control = Control { limits, start, stop, counters: &counters };
            return search.run(Worker::new(LocalMemo::default(), player, &control), None, report);
        };
        let team = Arc::new(Team::new(first_outcomes(root, &decisions), limits, start));
        for _ in 0..pool.current_num_threads() {
            let team = Arc::clone(&team);
            pool.spawn(move || team.help(player));
        }
        let control = Control { limits, start, stop, counters: &team.counters };
        let result = search.run(Worker::new(&team.memo, player, &control), Some(&team), report);
        team.finish();
        result
    }
}

/// The iterative deepening of one search.
struct Deepening<'r, G: ChanceGame> {
    root: &'r G,
    decisions: &'r [G::Step],
    limits: Limits,
}

impl<G: ChanceGame> Deepening<'_, G> {
    /// Deepens with `main` (the calling thread); with a `team`, every depth is first opened to
    /// the helpers, and `main` takes its share of the first rolls' outcomes before the root's
    /// decisions.
    fn run<M: Memo<G>>(
        &self,
        mut main: Worker<'_, '_, G, M>,
        team: Option<&Team<G>>,
        report: &mut dyn FnMut(&Iteration<G::Step>),
    ) -> Option<Iteration<G::Step>> {
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut last = None;
        for depth in 1..=max_depth {
            if let Some(team) = team {
                team.open(depth);
                main.take_outcomes(team, depth, true);
            }
            let Some(iteration) = main.iterate(self.root, self.decisions, depth) else { break };
            report(&iteration);
            let done = iteration.exact || main.control.out_of_budget();
            last = Some(iteration);
            if done {
                break;
            }
        }
        last
    }
}

/// The positions right after the first roll below `root`'s `decisions` (through any further
/// decisions, before any turn ends), each once, in the order of the search: at depth `d` each
/// is solved with `d - 1` rolls left, and what the root's decisions are worth follows from them.
fn first_outcomes<G: ChanceGame>(root: &G, decisions: &[G::Step]) -> Vec<G> {
    let mut seen = FxHashSet::default();
    let mut outcomes = Vec::new();
    let mut stack: Vec<G> = decisions.iter().rev().map(|&d| root.play(d)).collect();
    while let Some(pos) = stack.pop() {
        if pos.is_turn_start() || !seen.insert(pos) {
            continue;
        }
        match pos.node() {
            Node::Over => {}
            Node::Decision => stack.extend(pos.decisions().iter().rev().map(|&e| pos.play(e))),
            Node::Chance => {
                for (event, _) in pos.chance_outcomes() {
                    let next = pos.play(event);
                    if !next.is_turn_start() && seen.insert(next) {
                        outcomes.push(next);
                    }
                }
            }
        }
    }
    outcomes
}

/// The most outcomes a [`Team`] shares out at a depth (what its work counter holds).
const OUTCOMES_SHARED: u64 = (1 << 24) - 1;

/// A search on several threads: what the calling thread shares with its helpers, owned by all
/// of them (a helper may outlive the search by a node).
///
/// At every depth the calling thread opens the work, the positions after the first roll
/// ([`first_outcomes`]), and every thread takes the next one not yet taken and solves it into
/// the shared memo, until none is left: the calling thread from the first, the helpers from the
/// last (neighbouring outcomes share most of what lies below them, which two threads working
/// on them at once would both solve: taken from both ends, the bench to depth 3 counts 0.5%
/// more nodes on two threads than on one, taken in one order 10%). Then the calling thread searches the root's decisions
/// as one thread would, finding what the others solved; an outcome still being solved by a
/// helper it solves itself. The calling thread never waits for a helper (one the system has
/// not run yet, or has paused, holds nothing up), and the memo gives every thread the values
/// one thread finds ([`memo`]): the values and the move are one thread's, whatever the
/// scheduling; only the node count varies. At the end the calling thread raises the abort
/// flag, and helpers still busy end at their next node.
struct Team<G> {
    memo: SharedMemo<G>,
    outcomes: Vec<G>,
    counters: Counters,
    limits: Limits,
    start: Instant,
    /// The work open: its depth (bits 48 and up), the first outcome not yet taken (bits 24 to
    /// 47) and the one after the last not yet taken (bits 0 to 23).
    work: AtomicU64,
    /// The depth last opened, and whether the search is over, for the helpers waiting.
    opened: Mutex<(u32, bool)>,
    wake: Condvar,
}

impl<G: ChanceGame> Team<G> {
    fn new(mut outcomes: Vec<G>, limits: Limits, start: Instant) -> Team<G> {
        // Any beyond what the work counts are solved by the calling thread's search of the root.
        outcomes.truncate(OUTCOMES_SHARED as usize);
        Team {
            memo: SharedMemo::new(),
            outcomes,
            counters: Counters::default(),
            limits,
            start,
            work: AtomicU64::new(0),
            opened: Mutex::new((0, false)),
            wake: Condvar::new(),
        }
    }

    /// Opens the work of `depth` (from 1), waking the helpers.
    fn open(&self, depth: u32) {
        self.work.store(u64::from(depth) << 48 | self.outcomes.len() as u64, Relaxed);
        self.opened.lock().unwrap_or_else(|p| p.into_inner()).0 = depth;
        self.wake.notify_all();
    }

    /// The next outcome not yet taken of the work of `depth`, if it is still open: the first
    /// one for the calling thread (`first`), the last one for a helper.
    fn take(&self, depth: u32, first: bool) -> Option<&G> {
        let mut work = self.work.load(Relaxed);
        loop {
            let (open, front, back) =
                ((work >> 48) as u32, (work >> 24) & OUTCOMES_SHARED, work & OUTCOMES_SHARED);
            if open != depth || front >= back {
                return None;
            }
            let (taken, next) = if first { (front, work + (1 << 24)) } else { (back - 1, work - 1) };
            match self.work.compare_exchange_weak(work, next, Relaxed, Relaxed) {
                Ok(_) => return Some(&self.outcomes[taken as usize]),
                Err(now) => work = now,
            }
        }
    }

    /// Ends the search: the helpers at work end at their next node, those waiting wake and end.
    fn finish(&self) {
        self.counters.abort.store(true, Relaxed);
        self.opened.lock().unwrap_or_else(|p| p.into_inner()).1 = true;
        self.wake.notify_all();
    }

    /// A helper's life: the work of every depth opened, until the search is over.
    fn help(&self, player: usize) {
        let control = Control {
            limits: self.limits,
            start: self.start,
            stop: &self.counters.abort,
            counters: &self.counters,
        };
        let mut worker = Worker::new(&self.memo, player, &control);
        let mut done = 0;
        while !worker.aborted {
            let depth = {
                let mut opened = self.opened.lock().unwrap_or_else(|p| p.into_inner());
                while opened.0 == done && !opened.1 {
                    opened = self.wake.wait(opened).unwrap_or_else(|p| p.into_inner());
                }
                if opened.1 {
                    break;
                }
                opened.0
            };
            worker.take_outcomes(self, depth, false);
            worker.flush();
            done = depth;
        }
        worker.flush();
    }
}

/// One thread's part of a search: its memo (its own, or its share of one), its count, and
/// whether it has been told to end.
struct Worker<'c, 'a, G, M> {
    memo: M,
    /// The player whose turn it is.
    player: usize,
    control: &'c Control<'a>,
    /// Nodes searched by this thread, and how many of them it has added to the shared count.
    nodes: u64,
    flushed: u64,
    /// Ended: what it solves from here on is not a value, and is not remembered.
    aborted: bool,
    game: PhantomData<fn(G)>,
}

impl<'c, 'a, G: ChanceGame, M: Memo<G>> Worker<'c, 'a, G, M> {
    fn new(memo: M, player: usize, control: &'c Control<'a>) -> Self {
        Worker { memo, player, control, nodes: 0, flushed: 0, aborted: false, game: PhantomData }
    }

    /// One depth: every root decision searched, or `None` if the search was stopped.
    fn iterate(&mut self, root: &G, decisions: &[G::Step], depth: u32) -> Option<Iteration<G::Step>> {
        if self.control.counters.abort.load(Relaxed) {
            return None;
        }
        let mut values = Vec::with_capacity(decisions.len());
        let mut exact = true;
        for &decision in decisions {
            let (value, child_exact) = self.solve(&root.play(decision), depth);
            if self.aborted {
                return None;
            }
            exact &= child_exact;
            values.push((decision, value.unwrap_or(f64::NEG_INFINITY)));
        }
        let (best, value) =
            values.iter().copied().fold(values[0], |best, (e, v)| if v > best.1 { (e, v) } else { best });
        self.flush();
        Some(Iteration {
            depth,
            values,
            best,
            value,
            exact,
            nodes: self.control.counters.nodes.load(Relaxed),
            elapsed: self.control.start.elapsed(),
        })
    }

    /// Solves the first rolls' outcomes of `team`'s work of `depth` not yet taken (from the
    /// first for the calling thread, from the last for a helper), each with `depth - 1` rolls
    /// left, until none is left or the search ends.
    fn take_outcomes(&mut self, team: &Team<G>, depth: u32, first: bool) {
        while !self.aborted {
            let Some(pos) = team.take(depth, first) else { break };
            self.solve(pos, depth - 1);
        }
    }

    /// The value of `pos` for the turn's player with `depth` rolls left (`None` beyond the
    /// horizon), and whether it is exact.
    fn solve(&mut self, pos: &G, depth: u32) -> (Option<f64>, bool) {
        if pos.is_turn_start() {
            return self.turn_end(pos);
        }
        if let Some(known) = self.memo.find(pos, depth) {
            return known;
        }
        self.count_node();
        if self.aborted {
            return (None, false);
        }
        let (value, exact) = match pos.node() {
            Node::Over => (Some(pos.value(self.player)), true),
            Node::Decision => self.decide(pos, depth),
            Node::Chance if depth == 0 => (None, false),
            Node::Chance => self.average(pos, depth - 1),
        };
        if !self.aborted {
            self.remember(*pos, (depth, value, exact));
        }
        (value, exact)
    }

    /// A position where the turn has ended: the game's value, remembered (exact from depth 0).
    fn turn_end(&mut self, pos: &G) -> (Option<f64>, bool) {
        if let Some(known) = self.memo.find(pos, 0) {
            return known;
        }
        self.count_node();
        let value = Some(pos.value(self.player));
        self.remember(*pos, (0, value, true));
        (value, true)
    }

    /// A decision: the best child that has a value.
    fn decide(&mut self, pos: &G, depth: u32) -> (Option<f64>, bool) {
        let mut best: Option<f64> = None;
        let mut exact = true;
        for event in pos.decisions() {
            let (value, child_exact) = self.solve(&pos.play(event), depth);
            exact &= child_exact;
            if let Some(v) = value
                && best.is_none_or(|b| v > b)
            {
                best = Some(v);
            }
        }
        (best, exact)
    }

    /// A chance node: the weighted mean of its outcomes, or `None` if one has no value.
    fn average(&mut self, pos: &G, depth: u32) -> (Option<f64>, bool) {
        let mut sum = 0.0;
        let mut exact = true;
        for (event, weight) in pos.chance_outcomes() {
            let (value, child_exact) = self.solve(&pos.play(event), depth);
            let Some(v) = value else { return (None, false) };
            sum += v * f64::from(weight);
            exact &= child_exact;
        }
        (Some(sum / f64::from(pos.chance_total())), exact)
    }

    /// Counts a node and, every [`CHECK_EVERY`], adds this thread's nodes to the shared count
    /// and checks the limits; ends this thread as soon as another has ended the search.
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.flush();
            if self.control.out_of_budget() {
                self.abort();
            }
        }
        if self.control.counters.abort.load(Relaxed) {
            self.aborted = true;
        }
    }

    /// Ends the search: this thread and, at their next node, the others.
    fn abort(&mut self) {
        self.aborted = true;
        self.control.counters.abort.store(true, Relaxed);
    }

    /// Adds this thread's nodes not yet counted to the shared count.
    fn flush(&mut self) {
        self.control.counters.nodes.fetch_add(self.nodes - self.flushed, Relaxed);
        self.flushed = self.nodes;
    }

    /// Stores a solved position, unless the memo's table is full and growing it would outlast
    /// the time left ([`Control::may_grow`]): the search then ends.
    fn remember(&mut self, pos: G, solved: (u32, Option<f64>, bool)) {
        let control = self.control;
        if !self.memo.store(pos, solved, &|len| control.may_grow(len)) {
            self.abort();
        }
    }
}

#[cfg(test)]
mod tests;
