//! The worker of one search thread and its principal-variation alpha-beta in negamax form
//! (the root above it, iterative deepening, aspiration windows and MultiPV, is `root.rs`).
//!
//! - **Principal-variation search** (Marsland and Campbell, 1982; "NegaScout", Reinefeld, 1983):
//!   the first move of a node gets the full window, the others a null window that only proves
//!   them worse, re-searched with the full window when that proof fails.
//! - **Transposition table** cutoffs at non-PV nodes, when the stored depth suffices or the
//!   stored score is a proven result on the right side of the window (a proof holds at any
//!   depth).
//! - **Mate-distance pruning**: a node at ply `p` can neither win faster than in 1 ply nor lose
//!   faster than now, so the window is narrowed to `[-(WIN - p), WIN - p - 1]`.
//! - **Late-move reductions** (see [`reduction`]): quiet moves late in the ordering are first
//!   searched one or more plies shallower; one that unexpectedly beats alpha is searched again
//!   at full depth. Also in a window where a proven result is being sharpened (alpha already a
//!   proven win, or beta a proven loss): a reduced search can miss a shorter win in that
//!   iteration, never report a false one (a proven score is exact at any depth), and the
//!   deeper iterations find it. Measured on `positions/tactics-impasse.epd` (fastest wins) at
//!   1, 2, 3, 4, 6 and 8 M nodes: 41/42/42/42/44/46 solved with, 41/41/41/40/44/45 without.
//!   Proving mode (`steere solve --prove`) turns reductions off altogether.
//! - **Principal-variation extension** ([`Game::is_extended`]): at a PV node, a move the game
//!   marks (Impasse: crowns and bear-offs, the moves a race is won by) is searched one ply
//!   deeper, while the line is shorter than twice the iteration's depth. The PV is where a
//!   fastest win is proven, and following its race moves past the horizon can reach the proof
//!   an iteration early; at PV nodes only, so the tree grows by about half (the Impasse bench to fixed
//!   depths), not tenfold as when every node extends. Measured on the Impasse suites in
//!   docs/tuning.md ("stop 52"). Games that mark no move (the default) search as before.
//!   Switchable in [`super::SearchParams`] (`extensions`), like the capture extension.
//! - **Reverse futility pruning** (static null-move pruning), off by default (no measured gain,
//!   see [`super::SearchParams`]): at depth <= 3 of a non-PV node, a static evaluation beyond
//!   beta by a depth-scaled margin is trusted.
//!
//! - **Repetitions** (games with [`Game::CAN_REPEAT`] only; the code is compiled out for the
//!   others): the worker keeps the hashes of the game since its last irreversible move (handed
//!   over by the driver) and of the current line. A position that occurred earlier in the line
//!   since the root is scored as a draw (0): the side that let it recur can make it recur again,
//!   so a repetition inside the tree stands for the threefold repetition of the rules. A
//!   position that occurred before the root counts only when it occurred twice there, that is
//!   when reaching it now really is the third occurrence. See "Repetitions and the table".
//! - **Capture extension** (a quiescence search for games whose positions can be unquiet): at
//!   the horizon, a position in which the game says a forced tactical sequence is pending
//!   ([`Game::is_quiet`] false: a compulsory capture in HexDame) is searched on instead of
//!   evaluated, until a quiet position is reached. Every move of such a position is forced (a
//!   capture), so the extension stays narrow, and each capture removes a piece, so it ends.
//!   Switchable in [`super::SearchParams`] so that a match can measure it.
//!
//! **Repetitions and the table.** A draw by repetition depends on the path to a position, not
//! on the position, and the transposition table is keyed by position alone. The repetition test
//! is made before the table is probed, and a node scored as a repetition stores nothing, so no
//! entry ever says "this position is a draw". An entry above such a node can still carry a
//! score that a repetition on that path lowered or raised (the graph-history interaction every
//! engine with a shared table lives with): it is a heuristic score, never a proven result that
//! is false, because a repetition only ever contributes 0, and a proven win or loss stored
//! above it was proven along moves that avoid the repetition (a proof needs every reply of the
//! loser, and a 0 among them stops the proof). Reused on another path, such an entry can only
//! misjudge how drawish a position is, which costs strength, never legality or a false mate.
//!
//! No null-move pruning: [`Game`] has no notion of a pass, and the null-move observation ("a
//! free move only helps") is a property of a game, which the search cannot assume; a game for
//! which it holds would say so through the trait, as it says whether it can repeat.
//!
//! **Endgame tables**: a node whose position a loaded table holds ([`Game::probe_tables`]) is
//! scored at once with the table's exact result, placed at its distance from the root like a
//! finished game, so that the search's proven scores stay exact distances.
//!
//! Leaves are extended where [`Game::is_quiet`] says the evaluation is not to be trusted; a game
//! that does not answer it is always quiet (the trait's default).

use super::ordering::{OrderingTables, SELECT_FIRST, is_plain, pick, sort_rest};
use super::shared::Shared;
use super::time::TimeManager;
use super::tt::Bound;
use super::{EVAL_LIMIT, INFINITY, MAX_PLY, PROVEN, SearchInfo, WIN, is_proven, score_from_tt, score_to_tt};
use crate::game::{Game, Outcome, TableValue};
use std::sync::OnceLock;
use std::sync::atomic::Ordering::Relaxed;

/// Nodes between two looks at the clock, stop flag and shared node counter (about 0.2 ms).
pub const POLL_INTERVAL: u64 = 1024;
/// Reverse futility margin per ply of remaining depth.
const RFP_MARGIN: i32 = 80;

/// The search score at `ply` from the root of a result known exactly, `plies` from the end (a
/// finished game: 0): proven wins nearer the root score higher, proven losses lower, so the
/// search prefers the fastest win and the longest resistance.
pub(super) fn exact_score(value: TableValue, ply: usize) -> i32 {
    let distance = ply as i32 + value.plies as i32;
    match value.outcome {
        Outcome::Win => WIN - distance,
        Outcome::Loss => -WIN + distance,
        Outcome::Draw => 0,
    }
}

/// The late-move reduction for the `index`-th move (0-based) at `depth`: about
/// `0.75 + ln(depth) ln(index) / 2.25` plies (the logarithmic formula of Stockfish and many
/// engines since: deep nodes and late moves are reduced most). Tabulated once.
#[inline]
fn reduction(depth: i32, index: usize) -> i32 {
    static TABLE: OnceLock<[[u8; 64]; 64]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [[0; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f32).ln() * (i as f32).ln() / 2.25) as u8;
            }
        }
        t
    });
    i32::from(table[depth.clamp(0, 63) as usize][index.min(63)])
}

/// The main thread's progress callback.
pub(super) type Reporter<'r, M> = &'r mut dyn FnMut(&SearchInfo<M>);

/// The search of one thread.
pub struct Worker<'a, G: Game> {
    pub(super) shared: &'a Shared<'a>,
    pub(super) tables: &'a mut OrderingTables<G>,
    /// 0 for the main thread.
    pub(super) id: usize,
    /// The main thread's clock.
    pub(super) time: Option<TimeManager>,
    /// Nodes not yet added to the shared counter.
    pub(super) pending: u64,
    /// The deepest ply reached in the current iteration.
    pub(super) seldepth: usize,
    /// Set when the search must unwind; results from then on are discarded.
    pub(super) stopped: bool,
    /// The depth of the current iteration.
    pub(super) root_depth: i32,
    /// The root moves, best first.
    pub(super) root_moves: Vec<G::Move>,
    /// True when `searchmoves` left out some legal root moves: the root's result is then not
    /// the position's value and must not enter the shared table.
    pub(super) root_restricted: bool,
    /// The first root move the current line may take: MultiPV line `k + 1` searches the root
    /// moves from `k` on, those before it being the better lines' (0 for the best line).
    pub(super) root_first: usize,
    /// Triangular principal-variation table: `pv[ply]` is the best line found from `ply`.
    pub(super) pv: Vec<Vec<G::Move>>,
    /// Sort-key buffers, one per ply (taken out while a node uses it).
    pub(super) keys: Vec<Vec<i32>>,
    /// Repetition games only: the hashes of the game since its last irreversible move, then of
    /// the root and of the current line (`line[root_index + ply]` is the node at `ply`).
    pub(super) line: Vec<u64>,
    /// For each entry of `line`, where its run of reversible moves starts: no position before
    /// that index can equal it.
    pub(super) run_start: Vec<usize>,
    /// The index of the root in `line`.
    pub(super) root_index: usize,
}

impl<'a, G: Game> Worker<'a, G> {
    /// The worker of thread `id` (0 = main, which alone applies the limits).
    pub fn new(shared: &'a Shared<'a>, tables: &'a mut OrderingTables<G>, id: usize) -> Worker<'a, G> {
        let pondering = shared.control.pondering.load(Relaxed);
        tables.clear_killers();
        Worker {
            shared,
            tables,
            id,
            time: (id == 0).then(|| TimeManager::new(shared.limits, pondering)),
            pending: 0,
            seldepth: 0,
            stopped: false,
            root_depth: 0,
            root_moves: Vec::new(),
            root_restricted: false,
            root_first: 0,
            pv: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            keys: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            line: Vec::new(),
            run_start: Vec::new(),
            root_index: 0,
        }
    }

    /// Repetition games: lays out the game's history and the root at the start of `line`.
    pub(super) fn start_line(&mut self, root: &G) {
        if !G::CAN_REPEAT {
            return;
        }
        let history = self.shared.history;
        self.root_index = history.len();
        self.line = Vec::with_capacity(history.len() + MAX_PLY + 2);
        self.line.extend_from_slice(history);
        self.line.push(root.hash());
        self.line.resize(history.len() + MAX_PLY + 2, 0);
        // The driver hands over the positions since the last irreversible move: one run.
        self.run_start = vec![0; self.line.len()];
    }

    /// Repetition games: records `child` (reached by `mv` from `pos` at `ply`) in the line.
    #[inline(always)]
    pub(super) fn enter_child(&mut self, pos: &G, mv: G::Move, child: &G, ply: usize) {
        if G::CAN_REPEAT {
            let i = self.root_index + ply + 1;
            self.line[i] = child.hash();
            self.run_start[i] = if pos.is_reversible(mv) { self.run_start[i - 1] } else { i };
        }
    }

    /// Repetition games: true when the node at `ply` (> 0) is a draw by repetition: it occurred
    /// earlier in the line since the root, or twice before the root. Positions with the same
    /// side to move are an even number of plies apart, and one full move (two plies) cannot
    /// restore a position, so the search looks 4, 6, 8, ... plies back within the node's run.
    #[inline]
    fn is_repetition(&self, ply: usize) -> bool {
        let i = self.root_index + ply;
        let (hash, start) = (self.line[i], self.run_start[i]);
        let mut before_root = 0;
        let mut j = i as isize - 4;
        while j >= start as isize {
            let k = j as usize;
            if self.line[k] == hash {
                if k >= self.root_index {
                    return true;
                }
                before_root += 1;
                if before_root == 2 {
                    return true;
                }
            }
            j -= 2;
        }
        false
    }

    /// Alpha-beta search of `pos` at `ply` from the root with `depth` plies to go. `PV` is true
    /// for nodes on the principal variation (searched with an open window).
    pub(super) fn negamax<const PV: bool>(
        &mut self,
        pos: &G,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        if PV {
            self.pv[ply].clear();
        }
        self.seldepth = self.seldepth.max(ply);
        self.count_node();
        if let Some(outcome) = pos.outcome() {
            return exact_score(TableValue { outcome, plies: 0 }, ply);
        }
        if G::CAN_REPEAT && self.is_repetition(ply) {
            return 0;
        }
        // An endgame table knows the exact value: a proof at any depth (mate-distance scored).
        if let Some(value) = pos.probe_tables() {
            return exact_score(value, ply);
        }
        if ply >= MAX_PLY || (depth <= 0 && (!self.shared.params.quiescence || pos.is_quiet())) {
            return pos.evaluate().clamp(-EVAL_LIMIT, EVAL_LIMIT);
        }
        if self.stopped {
            return 0;
        }
        // Mate-distance pruning: no result here can beat a win next ply or a loss now.
        alpha = alpha.max(-WIN + ply as i32);
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = pos.hash();
        let entry = self.shared.tt.probe(key);
        let mut tt_code = None;
        let mut eval = None;
        if let Some(e) = entry {
            tt_code = e.move_code;
            eval = e.eval;
            let s = score_from_tt(e.score, ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            // A proven bound holds at any depth (a win found is a win; see tt.rs for bounds).
            let proof = (s >= PROVEN && e.bound != Bound::Upper && s >= beta)
                || (s <= -PROVEN && e.bound != Bound::Lower && s <= alpha);
            if !PV && ((usable && e.depth >= depth) || proof) {
                return s;
            }
        }
        // The static evaluation is only needed for pruning; it is kept in the table when known.
        if !PV && self.shared.params.rfp && depth <= 3 && !is_proven(beta) {
            let e = *eval.get_or_insert_with(|| pos.evaluate().clamp(-EVAL_LIMIT, EVAL_LIMIT));
            if e - RFP_MARGIN * depth >= beta {
                return e;
            }
        }

        // Also in proven windows: see the module docs (proving mode has no reductions at all).
        let may_reduce = self.shared.params.lmr && depth >= 3;
        let mut list = pos.legal_moves();
        let moves = list.as_mut();
        let mut keys = std::mem::take(&mut self.keys[ply]);
        keys.clear();
        keys.resize(moves.len(), 0);
        self.tables.score_moves(pos, moves, tt_code, ply, &mut keys);

        let mut best = -INFINITY;
        let mut best_move = None;
        for i in 0..moves.len() {
            let mv = if i < SELECT_FIRST {
                pick(moves, &mut keys, i)
            } else {
                if i == SELECT_FIRST {
                    sort_rest(&mut moves[i..], &mut keys[i..]);
                }
                moves[i]
            };
            let move_depth = depth + self.extension::<PV>(pos, mv, ply);
            let child = pos.make_move(mv);
            self.enter_child(pos, mv, &child, ply);
            if PV {
                // A scout search that fails high leaves no line: never copy a sibling's.
                self.pv[ply + 1].clear();
            }
            let score = if i == 0 {
                -self.negamax::<PV>(&child, move_depth - 1, -beta, -alpha, ply + 1)
            } else {
                let r = if may_reduce && i >= 2 + 2 * PV as usize && is_plain(keys[i]) {
                    (reduction(move_depth, i) - PV as i32).clamp(0, move_depth - 2)
                } else {
                    0
                };
                let mut s = -self.negamax::<false>(&child, move_depth - 1 - r, -alpha - 1, -alpha, ply + 1);
                if s > alpha && r > 0 {
                    s = -self.negamax::<false>(&child, move_depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if PV && s > alpha && s < beta {
                    s = -self.negamax::<true>(&child, move_depth - 1, -beta, -alpha, ply + 1);
                }
                s
            };
            if self.stopped {
                self.keys[ply] = keys;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    if PV {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        self.tables.record_cutoff(pos, mv, &moves[..i], move_depth, ply);
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.keys[ply] = keys;

        let bound = if best >= beta {
            Bound::Lower
        } else if best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let code = best_move.map(G::move_code);
        self.shared.tt.store(key, code, score_to_tt(best, ply), eval, depth, bound);
        best
    }

    /// One more ply for a move the game marks ([`Game::is_extended`]) at a principal-variation
    /// node, while the line is shorter than twice the iteration's depth, so that no line grows
    /// without bound; none elsewhere (see the module docs).
    #[inline(always)]
    fn extension<const PV: bool>(&self, pos: &G, mv: G::Move, ply: usize) -> i32 {
        let on = PV && self.shared.params.extensions;
        i32::from(on && (ply as i32) < 2 * self.root_depth && pos.is_extended(mv))
    }

    /// `pv[ply]` becomes `mv` followed by `pv[ply + 1]`.
    #[inline]
    pub(super) fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// Counts a node; every [`POLL_INTERVAL`] nodes, looks at the limits and the abort flag.
    #[inline(always)]
    pub(super) fn count_node(&mut self) {
        self.pending += 1;
        if self.pending >= POLL_INTERVAL {
            self.poll();
        }
    }

    /// Adds the pending nodes to the shared counter.
    pub(super) fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.pending, Relaxed);
        self.pending = 0;
    }

    /// The periodic check: the main thread applies the stop flag and the limits (never during
    /// the first iteration, which must complete), every thread obeys the abort flag.
    #[cold]
    #[inline(never)]
    fn poll(&mut self) {
        self.flush_nodes();
        let shared = self.shared;
        if let Some(tm) = self.time.as_mut()
            && self.root_depth > 1
        {
            if !shared.control.pondering.load(Relaxed) {
                tm.ponderhit(shared.control.ponderhit_time());
            }
            let limits = shared.limits;
            let out_of_nodes =
                !limits.infinite && limits.nodes.is_some_and(|n| shared.nodes.load(Relaxed) >= n);
            if shared.control.stop.load(Relaxed) || out_of_nodes || tm.hard_expired() {
                shared.abort.store(true, Relaxed);
            }
        }
        if shared.abort.load(Relaxed) {
            self.stopped = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        assert_eq!(reduction(3, 2), 1);
        assert!(reduction(10, 30) >= reduction(10, 5));
        assert!(reduction(20, 20) >= reduction(5, 20));
        assert!(reduction(63, 63) < 10);
    }
}
