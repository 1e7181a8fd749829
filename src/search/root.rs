//! The root of one thread's search: iterative deepening, aspiration windows, and MultiPV.
//!
//! - **Iterative deepening** searches depth 1, 2, 3, ... so that a move is always ready, and
//!   each iteration is ordered by the previous one (its best move first at the root, its
//!   transposition-table moves and history below).
//! - **Aspiration windows**: from depth 4 on, an iteration first searches a narrow window
//!   around the previous score and widens it (by 1.5x steps) only on failure; proven scores get
//!   the full window.
//! - **MultiPV** ([`super::Limits::multipv`], the main thread only): an iteration searches its
//!   lines one after the other, as Stockfish does. Line 1 is the ordinary search of every root
//!   move; line `k` then searches the root moves not yet taken by lines `1..k`, each with its
//!   own aspiration window around its previous score, so that every line's score is exact (not
//!   a bound) at the iteration's depth. The lines are then sorted by score (stable, so equal
//!   scores keep their order), which the next iteration starts from. Line 1 alone stores the
//!   root in the table: a later line's score is not the position's value. With one line the
//!   iteration is exactly the single-line search, so the bench signature does not move.

use super::negamax::{Reporter, Worker, exact_score};
use super::tt::Bound;
use super::{
    INFINITY, MAX_DEPTH, PROVEN, RootLine, Score, SearchInfo, SearchResult, SearchTiming, WIN, is_proven,
    score_to_tt,
};
use crate::game::{Game, TableValue};
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

/// Initial half-width of an aspiration window, in evaluation units.
const ASPIRATION_DELTA: i32 = 25;

/// The lines of one completed iteration: internal score and line, best first.
type Lines<M> = Vec<(i32, Vec<M>)>;

impl<G: Game> Worker<'_, G> {
    /// Iterative deepening on `pos` (not finished) until the limits or the abort flag end it.
    /// Only the main thread passes `on_info`.
    pub fn iterate(&mut self, pos: &G, mut on_info: Option<Reporter<'_, G::Move>>) -> SearchResult<G::Move> {
        let started = Instant::now();
        let main = self.id == 0;
        let limits = self.shared.limits;
        self.start_line(pos);
        self.order_root_moves(pos);
        let max_depth = match limits.depth {
            Some(d) if main && !limits.infinite => d.clamp(1, MAX_DEPTH),
            _ => MAX_DEPTH,
        };
        let wanted = if main { limits.multipv.clamp(1, self.root_moves.len()) } else { 1 };
        // (depth, lines) of the last completed iteration.
        let mut completed: Option<(u32, Lines<G::Move>)> = None;
        let mut stable_proven = 0;
        for depth in 1..=max_depth {
            if depth > 1 && (self.shared.abort.load(Relaxed) || (main && !self.may_start_iteration())) {
                break;
            }
            // Odd helpers work one ply ahead (see threads.rs).
            let depth = if self.id % 2 == 1 { (depth + 1).min(MAX_DEPTH) } else { depth };
            self.root_depth = depth as i32;
            self.seldepth = 0;
            let previous: Vec<i32> =
                completed.as_ref().map_or(Vec::new(), |c| c.1.iter().map(|l| l.0).collect());
            let Some(lines) = self.search_lines(pos, depth as i32, wanted, &previous) else { break };
            let score = lines[0].0;
            stable_proven =
                if is_proven(score) && previous.first() == Some(&score) { stable_proven + 1 } else { 0 };
            completed = Some((depth, lines));
            if !main {
                continue;
            }
            self.flush_nodes();
            if let (Some(report), Some((depth, lines))) = (on_info.as_mut(), &completed) {
                report(&self.info(*depth, lines));
            }
            // Under a clock, stop early when there is nothing to think about: a single legal
            // move, or a proven result that two iterations in a row agree on, searched at
            // least as deep as its length (no shorter win can hide below that depth).
            let managed = self.time.as_ref().is_some_and(|t| t.is_managed() && !t.is_pondering());
            let plies = (WIN - score.abs()) as u32;
            if managed && (self.root_moves.len() == 1 || (stable_proven >= 1 && depth >= plies)) {
                break;
            }
            if self.mate_found(score) {
                break;
            }
        }
        self.flush_nodes();
        let (depth, lines) = completed.unwrap_or_else(|| (0, vec![(0, vec![self.root_moves[0]])]));
        let (score, pv) = lines[0].clone();
        SearchResult {
            best_move: pv.first().copied(),
            score: Score::from_internal(score),
            depth,
            nodes: 0,
            ponder: pv.get(1).copied(),
            pv,
            lines: public_lines(&lines),
            timing: Some(SearchTiming { started, decided: Instant::now() }),
        }
    }

    /// One iteration: the `wanted` best root moves with their scores and lines, best first, or
    /// `None` when the search was stopped before all of them were searched. `previous` holds the
    /// lines' scores of the last iteration, for their aspiration windows.
    fn search_lines(
        &mut self,
        pos: &G,
        depth: i32,
        wanted: usize,
        previous: &[i32],
    ) -> Option<Lines<G::Move>> {
        let mut lines = Vec::with_capacity(wanted);
        for k in 0..wanted {
            self.root_first = k;
            let score = self.aspiration(pos, depth, previous.get(k).copied());
            self.root_first = 0;
            if self.stopped {
                return None;
            }
            let mv = self.root_moves[k];
            let pv = if self.pv[0].first() == Some(&mv) { self.pv[0].clone() } else { vec![mv] };
            lines.push((score, pv));
        }
        if wanted > 1 {
            // A later line can score above an earlier one (its own window found more): best
            // first, in the lines and in the root moves the next iteration starts from.
            lines.sort_by_key(|line| std::cmp::Reverse(line.0));
            for (k, (_, pv)) in lines.iter().enumerate() {
                self.root_moves[k] = pv[0];
            }
        }
        Some(lines)
    }

    /// The progress report of a completed iteration.
    fn info(&self, depth: u32, lines: &Lines<G::Move>) -> SearchInfo<G::Move> {
        let time = self.shared.start.elapsed();
        let nodes = self.shared.nodes.load(Relaxed);
        SearchInfo {
            depth,
            seldepth: self.seldepth as u32,
            score: Score::from_internal(lines[0].0),
            nodes,
            nps: (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64,
            time,
            hashfull: self.shared.tt.hashfull(),
            pv: lines[0].1.clone(),
            lines: public_lines(lines),
        }
    }

    /// Fills `root_moves` with the legal moves of `pos`, ordered as an interior node would be.
    fn order_root_moves(&mut self, pos: &G) {
        let mut list = pos.legal_moves();
        let moves = list.as_mut();
        let tt_code = self.shared.tt.probe(pos.hash()).and_then(|e| e.move_code);
        let mut keys = vec![0; moves.len()];
        self.tables.score_moves(pos, moves, tt_code, 0, &mut keys);
        self.root_moves = (0..moves.len()).map(|i| super::ordering::pick(moves, &mut keys, i)).collect();
        assert!(!self.root_moves.is_empty(), "the search needs an unfinished position");
        let wanted = &self.shared.limits.search_moves;
        let legal = self.root_moves.len();
        if self.root_moves.iter().any(|&mv| wanted.contains(&G::move_code(mv))) {
            self.root_moves.retain(|&mv| wanted.contains(&G::move_code(mv)));
        }
        self.root_restricted = self.root_moves.len() < legal;
        self.filter_by_tables(pos);
    }

    /// The root filter of the endgame tables: when they hold the root and the result of every
    /// root move, a single line keeps only the moves with the best result (the fastest win, the
    /// longest resistance, a draw rather than a loss), so that the search cannot trade a won
    /// ending for a slower one; several lines (MultiPV) keep every move, best result first. The
    /// moves kept all score the same, so the root's score is still that of the whole position.
    fn filter_by_tables(&mut self, pos: &G) {
        if pos.probe_tables().is_none() {
            return;
        }
        let known: Option<Vec<i32>> =
            self.root_moves.iter().map(|&mv| known_score(&pos.make_move(mv))).collect();
        let Some(scores) = known else { return };
        let mut ranked: Vec<(i32, G::Move)> =
            scores.into_iter().zip(self.root_moves.iter().copied()).collect();
        // Stable: equal results keep the ordering's preference.
        ranked.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        let best = ranked[0].0;
        if self.shared.limits.multipv <= 1 {
            ranked.retain(|&(score, _)| score == best);
        }
        self.root_moves = ranked.into_iter().map(|(_, mv)| mv).collect();
    }

    /// True when `score` is a proven win short enough for `go mate N` (never while searching
    /// until `stop`, nor while pondering: the answer must wait for the GUI then).
    fn mate_found(&self, score: i32) -> bool {
        let limits = self.shared.limits;
        let pondering = self.shared.control.pondering.load(Relaxed);
        let mate = Score::from_internal(score).uci_mate();
        !limits.infinite && !pondering && limits.mate.zip(mate).is_some_and(|(n, m)| m > 0 && m as u32 <= n)
    }

    /// True when the main thread may start another iteration.
    fn may_start_iteration(&mut self) -> bool {
        let control = self.shared.control;
        if control.stop.load(Relaxed) {
            return false;
        }
        if let Some(limit) = self.shared.limits.nodes
            && !self.shared.limits.infinite
            && self.shared.nodes.load(Relaxed) >= limit
        {
            return false;
        }
        let tm = self.time.as_mut().expect("the main thread has a clock");
        if !control.pondering.load(Relaxed) {
            tm.ponderhit(control.ponderhit_time());
        }
        tm.may_start_iteration()
    }

    /// One line of an iteration (the root moves from `root_first` on), first within an
    /// aspiration window around `previous`.
    fn aspiration(&mut self, pos: &G, depth: i32, previous: Option<i32>) -> i32 {
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = match previous {
            Some(p) if self.shared.params.aspiration && depth >= 4 && !is_proven(p) => {
                ((p - delta).max(-INFINITY), (p + delta).min(INFINITY))
            }
            _ => (-INFINITY, INFINITY),
        };
        loop {
            let score = self.root(pos, depth, alpha, beta);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                // Keep the root's result too: a later search of the same position (a longer
                // analysis, a ponder miss) then starts from this move. Not when some root moves
                // were left out (`searchmoves`, or a MultiPV line after the first): the score is
                // then only that of the moves searched.
                if !self.root_restricted && self.root_first == 0 {
                    let code = Some(G::move_code(self.root_moves[0]));
                    self.shared.tt.store(pos.hash(), code, score_to_tt(score, 0), None, depth, Bound::Exact);
                }
                return score;
            }
            delta += delta / 2;
            // Near proven scores a narrow window only wastes re-searches.
            if alpha <= -PROVEN {
                alpha = -INFINITY;
            }
            if beta >= PROVEN {
                beta = INFINITY;
            }
        }
    }

    /// The root node: PVS over the root moves from `root_first` on; a move that raises alpha
    /// moves to the front of them.
    fn root(&mut self, pos: &G, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        self.pv[0].clear();
        self.count_node();
        let first = self.root_first;
        let mut best = -INFINITY;
        for i in first..self.root_moves.len() {
            let mv = self.root_moves[i];
            let child = pos.make_move(mv);
            self.enter_child(pos, mv, &child, 0);
            self.pv[1].clear();
            let score = if i == first {
                -self.negamax::<true>(&child, depth - 1, -beta, -alpha, 1)
            } else {
                let mut s = -self.negamax::<false>(&child, depth - 1, -alpha - 1, -alpha, 1);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax::<true>(&child, depth - 1, -beta, -alpha, 1);
                }
                s
            };
            if self.stopped {
                return best;
            }
            best = best.max(score);
            if score > alpha {
                self.root_moves[first..=i].rotate_right(1);
                self.update_pv(0, mv);
                if score >= beta {
                    return score;
                }
                alpha = score;
            }
        }
        best
    }
}

/// The root's score of a move to `child` when the child's result is known exactly (the game is
/// over, or a table holds it).
fn known_score<G: Game>(child: &G) -> Option<i32> {
    let value = match child.outcome() {
        Some(outcome) => TableValue { outcome, plies: 0 },
        None => child.probe_tables()?,
    };
    Some(-exact_score(value, 1))
}

/// The lines in their public form.
fn public_lines<M: Copy>(lines: &Lines<M>) -> Vec<RootLine<M>> {
    lines.iter().map(|(score, pv)| RootLine { score: Score::from_internal(*score), pv: pv.clone() }).collect()
}
