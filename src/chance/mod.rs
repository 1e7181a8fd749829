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
//! solved once ([`Memo`], keyed by the position itself, not a hash, so nothing collides).
//!
//! **Depth** is the number of further rolls (chance nodes) a line may contain. At the horizon
//! a chance node has no value, and a decision takes the best of the children that have one: in
//! Can't Stop that means stopping at the horizon, a safe underestimate of rolling on. Iterative
//! deepening grows the depth until the root's value no longer depends on the horizon (the turn
//! is solved exactly) or a limit is reached; each depth reuses every exactly solved position.
//! One thread; the node count is deterministic for a position and a depth.

pub mod player;

#[cfg(test)]
use crate::game::Rules as _;
use crate::game::{ChanceGame, Node};
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicBool, Ordering};
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

/// A solved position: its value for the turn's player and the depth it was solved to.
#[derive(Clone, Copy, Debug)]
struct Solved {
    value: Option<f64>,
    depth: u32,
    exact: bool,
}

/// The positions solved during one search.
type Memo<G> = FxHashMap<G, Solved>;

/// A search of one position.
pub struct ChanceSearch<'a, G: ChanceGame> {
    memo: Memo<G>,
    player: usize,
    nodes: u64,
    limits: Limits,
    start: Instant,
    stop: &'a AtomicBool,
    aborted: bool,
}

impl<'a, G: ChanceGame> ChanceSearch<'a, G> {
    /// Searches `root` (a decision or a chance node) within `limits`, calling `report` after
    /// each completed depth; returns the last completed one, or `None` if the root has no
    /// decision to make or not even depth 1 completed. `stop` ends the search from outside.
    pub fn run(
        root: &G,
        limits: Limits,
        stop: &'a AtomicBool,
        report: &mut dyn FnMut(&Iteration<G::Step>),
    ) -> Option<Iteration<G::Step>> {
        Self::run_among(root, &[], limits, stop, report)
    }

    /// [`ChanceSearch::run`] with the root's decisions restricted to those of `only` (`go
    /// searchmoves`); an empty `only`, or one that holds none of them, restricts nothing.
    pub fn run_among(
        root: &G,
        only: &[G::Step],
        limits: Limits,
        stop: &'a AtomicBool,
        report: &mut dyn FnMut(&Iteration<G::Step>),
    ) -> Option<Iteration<G::Step>> {
        let mut search = ChanceSearch {
            memo: Memo::default(),
            player: root.to_move(),
            nodes: 0,
            limits,
            start: Instant::now(),
            stop,
            aborted: false,
        };
        let mut decisions = root.decisions();
        if decisions.iter().any(|d| only.contains(d)) {
            decisions.retain(|d| only.contains(d));
        }
        if decisions.is_empty() {
            return None;
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut last = None;
        for depth in 1..=max_depth {
            let Some(iteration) = search.iterate(root, &decisions, depth) else { break };
            report(&iteration);
            let done = iteration.exact || search.out_of_budget();
            last = Some(iteration);
            if done {
                break;
            }
        }
        last
    }

    /// One depth: every root decision searched, or `None` if the search was stopped.
    fn iterate(&mut self, root: &G, decisions: &[G::Step], depth: u32) -> Option<Iteration<G::Step>> {
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
        Some(Iteration {
            depth,
            values,
            best,
            value,
            exact,
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
        })
    }

    /// The value of `pos` for the turn's player with `depth` rolls left (`None` beyond the
    /// horizon), and whether it is exact.
    fn solve(&mut self, pos: &G, depth: u32) -> (Option<f64>, bool) {
        if pos.is_turn_start() {
            return self.turn_end(pos);
        }
        if let Some(solved) = self.memo.get(pos)
            && (solved.exact || solved.depth >= depth)
        {
            return (solved.value, solved.exact);
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
            self.remember(*pos, Solved { value, depth, exact });
        }
        (value, exact)
    }

    /// A position where the turn has ended: the game's value, remembered.
    fn turn_end(&mut self, pos: &G) -> (Option<f64>, bool) {
        if let Some(solved) = self.memo.get(pos) {
            return (solved.value, true);
        }
        self.count_node();
        let value = Some(pos.value(self.player));
        self.remember(*pos, Solved { value, depth: 0, exact: true });
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

    /// Counts a node and, every [`CHECK_EVERY`], checks the limits.
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) && self.out_of_budget() {
            self.aborted = true;
        }
    }

    /// Stores a solved position, unless the memo is full and growing it would outlast the
    /// time left: growing copies every entry at once (about 100 ns each), a pause the clock
    /// checks between nodes cannot interrupt, so a search near its deadline stops instead.
    fn remember(&mut self, pos: G, solved: Solved) {
        if self.memo.len() == self.memo.capacity()
            && let Some(movetime) = self.limits.movetime
        {
            let growth = Duration::from_nanos(100 * self.memo.len() as u64);
            if self.start.elapsed() + growth >= movetime {
                self.aborted = true;
                return;
            }
        }
        self.memo.insert(pos, solved);
    }

    /// Whether the stop flag, the node limit or the time limit says to end.
    fn out_of_budget(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || self.limits.movetime.is_some_and(|t| self.start.elapsed() >= t)
    }
}

#[cfg(test)]
mod tests;
