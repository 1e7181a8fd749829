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
//! the same moves without listing them, for the last ply of perft: along each line it counts
//! the landing squares in reach at once ([`Rays`]) and then looks only at the enemy stacks on
//! the line, which block a plain move when taller than k and are the only targets backwards.

use super::board::{DIRECTIONS, FORWARD_DIRECTIONS, MIRRORED, Rays};
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
    let variant = pos.variant();
    let rays = Rays::get(variant);
    let size = variant.size() as i32;
    let us = pos.side_to_move();
    let enemies = pos.stacks(us.opponent());
    let mut count = 0u64;
    let mut own = pos.stacks(us);
    while own != 0 {
        let square = own.trailing_zeros() as usize;
        own &= own - 1;
        let height = u32::from(pos.heights[square]);
        let (file, rank) = variant.coordinates(square as u8);
        let ahead = if us == Color::White { size - 1 - rank } else { rank };
        let smallest_exit = 1 + file.min(size - 1 - file).min(ahead) as u32;
        count += u64::from((height + 1).saturating_sub(smallest_exit));
        for (index, &mirrored) in MIRRORED.iter().enumerate() {
            let direction = if us == Color::White { index } else { mirrored };
            let (df, dr) = DIRECTIONS[direction];
            let orthogonal = df == 0 || dr == 0;
            let reach = if orthogonal { height / 2 } else { height };
            let in_reach = u32::from(rays.count[square][direction]).min(reach);
            // Enemy stacks on the line within k <= height: k is the rank distance, or for a
            // sideways line the file distance.
            let (mut blocked, mut captures) = (0, 0);
            let mut targets = rays.squares[square][direction] & enemies;
            while targets != 0 {
                let target = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let (to_file, to_rank) = variant.coordinates(target);
                let k = (to_rank - rank).abs().max((to_file - file).abs()) as u32;
                if k > height {
                    continue;
                }
                if u32::from(pos.heights[target as usize]) <= k { captures += 1 } else { blocked += 1 }
            }
            count += u64::from(if index < FORWARD_DIRECTIONS { in_reach - blocked } else { captures });
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dipole::Variant;

    #[test]
    fn the_bulk_count_is_the_number_of_listed_moves() {
        // Positions of seeded random games of both variants (a small LCG: no dependency).
        let mut seed = 12345u64;
        let mut checked = 0;
        for variant in Variant::ALL {
            for _ in 0..100 {
                let mut pos = Position::startpos(variant);
                while !pos.is_game_over() {
                    let moves = legal_moves(&pos);
                    assert_eq!(count_moves(&pos), moves.len() as u64, "{pos:?}");
                    checked += 1;
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    pos = pos.make_move(moves[(seed >> 33) as usize % moves.len()]);
                }
                assert_eq!(count_moves(&pos), 0);
            }
        }
        assert!(checked > 4000, "{checked} positions");
    }
}
