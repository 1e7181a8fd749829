//! The static evaluation of a Dipole position, in hundredths of a checker, from the point of
//! view of the side to move.
//!
//! Features (each White's minus Black's, then negated when Black is to move, except the
//! threat), with their weights in [`WEIGHTS`]:
//! - **material**: checkers on the board. A player loses when he has none, and every capture
//!   or exit changes the count for good, so this is the unit.
//! - **reserve** (advancement, counted backwards, weighted by stack height): for each checker,
//!   the ranks between it and the far edge, its own rank included (the `D` of
//!   docs/rules/dipole.md), so a stack of height h on a rank counts h times. Every plain move or
//!   merge spends some of it, and a player who has none left must exit or capture: it is the
//!   supply of waiting moves that decides blocked positions, and a checker far from the edge is
//!   worth more than one about to leave.
//! - **mobility**, measured as **reach**: for each stack, the forward moves its geometry allows:
//!   the k (up to its height) that stay on the board diagonally forward left, diagonally forward
//!   right and (even k only) straight forward. It ignores what stands on the target squares, so
//!   it costs a few operations per stack; a player short of moves is forced into bad exits and
//!   sacrifices. (The exact count of legal moves of both players scored better at a fixed node
//!   count, but generating them in every evaluation cost a third of the speed and lost at a
//!   fixed time: see the tuning record below.)
//! - **threat**: the height of the tallest enemy stack the side to move can capture now (it is
//!   his move, so this is nearly material in hand); for the side to move only.
//!
//! **Tuning.** The weights were tuned by self-play with `steere match --variant dipole` (the 149
//! opening pairs of the book of the first evaluation, 298 games), one change at a time against
//! the current best; Elo of the change, 95% interval about +-30. At 20,000 nodes per move:
//! reserve 3 -> 6: +47; exact mobility 0 -> 8 per move: +38 (3: +23; 15 against 8: -5); 8 per
//! stack -> 0: +23; then reserve 6 -> 10: +42, -> 15: +57 (20 against 15: -9, 30: -26). At 50 ms
//! per move: exact mobility against none -19, reach 8 against none +9, reach 8 against exact
//! mobility 8 +38, reach 16 against 8 -7. Tried and left out, no gain measured: a bonus or malus
//! per checker above the fourth of a stack (+5: -26, -5: -2), a penalty for the tallest own
//! stack the opponent could capture (30: +2, then +14), threat 30 (-30) or 90 (+2, +7). The
//! first guess was 100 material, 3 reserve, 8 per stack, 60 threat.

use super::board::DIRECTIONS;
use super::{Color, Position};

/// The weights of the features, in hundredths of a checker per unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per checker on the board.
    pub material: i32,
    /// Per rank of reserve (see the module docs).
    pub reserve: i32,
    /// Per forward move of reach (see the module docs).
    pub reach: i32,
    /// Per checker of the tallest enemy stack the side to move can capture.
    pub threat: i32,
}

/// The engine's weights.
pub const WEIGHTS: Weights = Weights { material: 100, reserve: 15, reach: 8, threat: 60 };

/// The evaluation of `pos` (not finished) for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    let w = WEIGHTS;
    let size = pos.variant().size() as i32;
    let mut white_minus_black = 0;
    for color in [Color::White, Color::Black] {
        let sign = if color == Color::White { 1 } else { -1 };
        let (mut reserve, mut reach) = (0, 0);
        let mut bits = pos.stacks(color);
        while bits != 0 {
            let square = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let height = pos.heights[square as usize] as i32;
            let (file, rank) = pos.variant().coordinates(square);
            let ranks_left = if color == Color::White { size - rank } else { rank + 1 };
            reserve += height * ranks_left;
            reach += stack_reach(height, file, ranks_left - 1, size);
        }
        let material = pos.checkers(color) as i32;
        white_minus_black += sign * (w.material * material + w.reserve * reserve + w.reach * reach);
    }
    let us = pos.side_to_move();
    let own_view = if us == Color::White { white_minus_black } else { -white_minus_black };
    own_view + w.threat * tallest_capture(pos, us) as i32
}

/// The forward moves a stack of `height` on `file` with `ahead` ranks before the far edge has
/// by geometry alone: k squares diagonally left and right, and an even k straight ahead, while
/// the target is on the board.
fn stack_reach(height: i32, file: i32, ahead: i32, size: i32) -> i32 {
    let left = height.min(ahead.min(file));
    let right = height.min(ahead.min(size - 1 - file));
    let straight = (height / 2).min(ahead / 2);
    left + right + straight
}

/// The height of the tallest stack of the opponent of `by` that `by` could capture (0 if
/// none): a stack of height e at distance k on a line from a stack of
/// `by` of height at least k, with k >= e and k even on orthogonal lines.
fn tallest_capture(pos: &Position, by: Color) -> u32 {
    let variant = pos.variant();
    let mut best = 0;
    let mut own = pos.stacks(by);
    while own != 0 {
        let square = own.trailing_zeros() as u8;
        own &= own - 1;
        let height = pos.heights[square as usize] as i32;
        let (file, rank) = variant.coordinates(square);
        for &(df, dr) in &DIRECTIONS {
            let orthogonal = df == 0 || dr == 0;
            for k in 1..=height {
                if orthogonal && k % 2 != 0 {
                    continue;
                }
                let Some(target) = variant.square(file + df * k, rank + dr * k) else {
                    if !variant.on_board(file + df * k, rank + dr * k) {
                        break;
                    }
                    continue;
                };
                if let Some((color, enemy)) = pos.stack_at(target)
                    && color != by
                    && enemy <= k as u32
                {
                    best = best.max(enemy);
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dipole::Variant;

    #[test]
    fn the_start_position_is_even_and_symmetric() {
        let white = Position::startpos(Variant::Dipole);
        assert_eq!(evaluate(&white), 0);
        let black = Position::from_fen(Variant::Dipole, "3,b12,4/8/8/8/8/8/8/4,w12,3 b").unwrap();
        assert_eq!(evaluate(&black), 0);
    }

    #[test]
    fn reach_counts_the_forward_moves_on_the_board() {
        // The start stack of 12 on e1 (file 4): 4 left to a5, 3 right to h4, straight e3 e5 e7.
        assert_eq!(stack_reach(12, 4, 7, 8), 4 + 3 + 3);
        // A single on the last rank has no forward move on the board; on a side edge it has one.
        assert_eq!(stack_reach(1, 3, 0, 8), 0);
        assert_eq!(stack_reach(1, 0, 5, 8), 1);
        // A stack of 2 in mid-board: one or two squares along each diagonal, two straight ahead.
        assert_eq!(stack_reach(2, 3, 4, 8), 2 + 2 + 1);
    }

    #[test]
    fn material_and_threats_count() {
        // Example 6 of the rules: White can capture Black's last single.
        let pos = Position::from_fen(Variant::Dipole, "8/8/8/8/3,b1,4/2,w1,5/8/8 w").unwrap();
        assert_eq!(tallest_capture(&pos, Color::White), 1);
        // Example 2: d4 (2) can take b4 (2) or f2 (1), not d2 (3).
        let pos = Position::from_fen(Variant::Dipole, "8/8/8/8/1,b2,1,w2,4/8/3,b3,1,b1,2/8 w").unwrap();
        assert_eq!(tallest_capture(&pos, Color::White), 2);
        assert!(evaluate(&pos) < 0, "Black has 6 checkers to White's 2");
    }
}
