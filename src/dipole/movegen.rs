//! Move generation: for every stack of the side to move, every exit and every step.
//!
//! For a stack of height h on `(file, rank)`:
//! - **exits**: k checkers may leave the board forward exactly when `m <= k <= h`, with
//!   `m = 1 + min(file, size - 1 - file, ranks ahead)`: the smallest k that takes the
//!   diagonally forward move toward the nearer side edge, or toward the far edge, off the board
//!   (docs/rules/dipole.md, "Exits"). All directions that take the same k off give one move.
//! - **steps**: in each of the 8 directions, k = 1..=h squares away (even k only in the four
//!   orthogonal directions): onto an empty square or an own stack in the 3 forward directions
//!   (a plain move or a merge), onto an enemy stack no taller than k in any direction (a
//!   capture). Stacks in between never block. Once a line leaves the board it stays off, so the
//!   walk along it stops there.
//!
//! A player with no move passes; a finished position has no moves. [`count_moves`] counts
//! the same moves without storing them, for the last ply of perft.

use super::board::{DIRECTIONS, FORWARD_DIRECTIONS};
use super::{Color, Move, Position};
use arrayvec::ArrayVec;

/// More than any position has: a player has at most 20 checkers, and each checker of a stack
/// adds at most one exit and one step in each of 8 directions (9 per checker, 180 in all).
pub const MAX_MOVES: usize = 192;

/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Every legal move of `pos`.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    if pos.is_game_over() {
        return list;
    }
    for_each_move(pos, pos.side_to_move(), |mv| list.push(mv));
    if list.is_empty() {
        list.push(Move::PASS);
    }
    list
}

/// The number of legal moves of `pos` (as `legal_moves(pos).len()`, faster).
pub fn count_moves(pos: &Position) -> u64 {
    if pos.is_game_over() {
        return 0;
    }
    let mut count = 0u64;
    for_each_move(pos, pos.side_to_move(), |_| count += 1);
    count.max(1)
}

/// Calls `emit` with every move of `us`, the side to move, except the pass.
#[inline]
fn for_each_move(pos: &Position, us: Color, mut emit: impl FnMut(Move)) {
    let variant = pos.variant();
    let size = variant.size() as i32;
    let forward = us.forward();
    let mut own = pos.stacks(us);
    while own != 0 {
        let square = own.trailing_zeros() as u8;
        own &= own - 1;
        let height = pos.heights[square as usize] as u32;
        let (file, rank) = variant.coordinates(square);
        let ahead = if us == Color::White { size - 1 - rank } else { rank };
        let smallest_exit = 1 + file.min(size - 1 - file).min(ahead) as u32;
        for k in smallest_exit..=height {
            emit(Move::exit((file, rank), k));
        }
        for (index, &(df, dr)) in DIRECTIONS.iter().enumerate() {
            let is_forward = index < FORWARD_DIRECTIONS;
            let orthogonal = df == 0 || dr == 0;
            let dr = dr * forward;
            for k in 1..=height as i32 {
                if orthogonal && k % 2 != 0 {
                    continue;
                }
                let (to_file, to_rank) = (file + df * k, rank + dr * k);
                if !variant.on_board(to_file, to_rank) {
                    break;
                }
                let target =
                    variant.square(to_file, to_rank).expect("k squares along a line land on a dark square");
                let legal = match pos.stack_at(target) {
                    None => is_forward,
                    Some((color, _)) if color == us => is_forward,
                    Some((_, enemy_height)) => enemy_height <= k as u32,
                };
                if legal {
                    emit(Move::step((file, rank), (to_file, to_rank)));
                }
            }
        }
    }
}

/// The number of move sequences of `depth` moves from `pos` (the last ply bulk-counted).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves(pos),
        _ => legal_moves(pos).iter().map(|&mv| perft(&pos.make_move(mv), depth - 1)).sum(),
    }
}
