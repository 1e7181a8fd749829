//! Move ordering: alpha-beta is fastest when the best move comes first.
//!
//! Each move of a node gets a sort key, and the moves are then picked best-first by selection
//! (a cutoff after the first move or two is common, so sorting the whole list would be waste):
//! 1. the transposition-table move (the best move of an earlier search of this node);
//! 2. the two *killer* moves of this ply: moves that caused a cutoff in a sibling node (Akl
//!    and Newborn, 1977);
//! 3. every other move by its *history* score: how often and how deep the move (by
//!    [`Game::history_index`]) has caused cutoffs (Schaeffer, "The history heuristic", 1983),
//!    with a bonus of half the history range for *forcing* moves as the game defines them
//!    (Impasse: crowns and bear-offs).
//!
//! Why forcing moves are not simply tried first, as captures are in chess: measured on
//! `steere bench --depth 11` (nodes to complete the same depth), forcing moves first took
//! 7.69 M nodes, no special treatment 4.52 M, bear-offs alone first 4.65 M, and the history
//! bonus 4.13 M. A crown comes in as many moves as there are singles to stack, and most of
//! them are poor, so a whole block of them ahead of the killers delays the cutoff.
//!
//! History scores use the "gravity" update: a bonus `b` moves a score `h` by
//! `b - h * |b| / HISTORY_MAX`, so that scores stay within `+-HISTORY_MAX` and recent results
//! weigh more than old ones. Moves searched before the cutoff move get the matching malus.
//! Tables are per thread: Lazy SMP threads then order differently, which diversifies them.

use super::MAX_PLY;
use crate::game::Game;

/// History scores stay within +-HISTORY_MAX.
const HISTORY_MAX: i32 = 16_384;
/// Sort key of the transposition-table move.
const TT_MOVE: i32 = 1 << 30;
/// Added to the history score of a forcing move: half the history range, so that forcing
/// moves come early among the plain moves but after the killers (measured: see below).
const FORCING_BONUS: i32 = HISTORY_MAX / 2;
/// Sort keys of the first and second killer.
const KILLER: [i32; 2] = [1 << 22, 1 << 21];

/// The ordering tables of one search thread.
pub struct OrderingTables<G: Game> {
    history: Box<[i32]>,
    killers: Box<[[Option<G::Move>; 2]]>,
}

impl<G: Game> OrderingTables<G> {
    /// Empty tables.
    pub fn new() -> OrderingTables<G> {
        OrderingTables {
            history: vec![0; G::HISTORY_SIZE].into_boxed_slice(),
            killers: vec![[None; 2]; MAX_PLY + 1].into_boxed_slice(),
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.history.fill(0);
        self.killers.fill([None; 2]);
    }

    /// Forgets the killers (kept across the iterations of one search, not across searches: the
    /// plies then mean different positions).
    pub fn clear_killers(&mut self) {
        self.killers.fill([None; 2]);
    }

    /// Fills `keys` with the sort key of each move of `moves`, played in `pos` at `ply`.
    #[inline]
    pub fn score_moves(
        &self,
        pos: &G,
        moves: &[G::Move],
        tt_code: Option<u16>,
        ply: usize,
        keys: &mut [i32],
    ) {
        let killers = self.killers[ply];
        for (key, &mv) in keys.iter_mut().zip(moves) {
            *key = if Some(G::move_code(mv)) == tt_code {
                TT_MOVE
            } else {
                let history = self.history[pos.history_index(mv)];
                if pos.is_forcing(mv) {
                    FORCING_BONUS + history
                } else if killers[0] == Some(mv) {
                    KILLER[0]
                } else if killers[1] == Some(mv) {
                    KILLER[1]
                } else {
                    history
                }
            };
        }
    }

    /// Records that `best` caused a cutoff at `ply` with `depth` to go, after the moves `tried`
    /// (which did not) had been searched.
    #[inline]
    pub fn record_cutoff(&mut self, pos: &G, best: G::Move, tried: &[G::Move], depth: i32, ply: usize) {
        let bonus = (depth * depth).min(1200);
        self.update_history(pos.history_index(best), bonus);
        for &mv in tried {
            self.update_history(pos.history_index(mv), -bonus);
        }
        // Forcing moves have their own bonus; killers are for the plain moves.
        if !pos.is_forcing(best) && self.killers[ply][0] != Some(best) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(best);
        }
    }

    /// The gravity update of one history slot.
    #[inline(always)]
    fn update_history(&mut self, index: usize, bonus: i32) {
        let h = &mut self.history[index];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }
}

impl<G: Game> Default for OrderingTables<G> {
    fn default() -> Self {
        Self::new()
    }
}

/// True for the sort key of a move ordered by history alone: not the TT move, not a killer.
#[inline(always)]
pub fn is_plain(key: i32) -> bool {
    key < KILLER[1]
}

/// Moves picked one by one by selection; past these, a node is likely to search every move
/// (an all-node), and sorting the rest once is cheaper than selecting each.
pub const SELECT_FIRST: usize = 4;

/// Sorts `moves` by descending key (an insertion sort: stable, so the order is deterministic,
/// and fast on the short, partly ordered tails it gets).
#[inline]
pub fn sort_rest<M: Copy>(moves: &mut [M], keys: &mut [i32]) {
    for i in 1..moves.len() {
        let (mv, key) = (moves[i], keys[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] < key {
            moves[j] = moves[j - 1];
            keys[j] = keys[j - 1];
            j -= 1;
        }
        moves[j] = mv;
        keys[j] = key;
    }
}

/// Moves the best-keyed move among `moves[i..]` to position `i` and returns it (one step of a
/// selection sort; among equal keys the earliest wins, so the order is deterministic).
#[inline(always)]
pub fn pick<M: Copy>(moves: &mut [M], keys: &mut [i32], i: usize) -> M {
    let mut best = i;
    for j in i + 1..moves.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    keys.swap(i, best);
    moves[i]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_takes_the_largest_key_first_and_is_stable_on_ties() {
        let mut moves = [10, 11, 12, 13];
        let mut keys = [5, 9, 9, 1];
        let order: Vec<i32> = (0..4).map(|i| pick(&mut moves, &mut keys, i)).collect();
        assert_eq!(order, [11, 12, 10, 13]);
    }

    #[test]
    fn history_stays_bounded() {
        let mut t = OrderingTables::<crate::impasse::Position>::new();
        for _ in 0..10_000 {
            t.update_history(3, 1200);
        }
        assert!(t.history[3] <= HISTORY_MAX && t.history[3] > HISTORY_MAX - 1300);
    }
}
