//! The static evaluation of a Dipole position, in hundredths of a checker, from the point of
//! view of the side to move.
//!
//! Features (each White's minus Black's, then negated when Black is to move), with their
//! weights in [`WEIGHTS`]:
//! - **material**: checkers on the board. A player loses when he has none, and every capture
//!   or exit changes the count for good, so this dominates.
//! - **reserve**: for each checker, the ranks between it and the far edge, its own rank
//!   included (the `D` of docs/rules/dipole.md). Every plain move or merge spends some of it and
//!   a player who has none left must exit or capture, so it is the player's supply of tempo
//!   moves in a blocked position.
//! - **stacks**: the number of stacks: checkers spread over several stacks have more moves and
//!   lose less to one capture.
//! - **threat**: the height of the tallest enemy stack the side to move can capture now (it is
//!   his move, so this is nearly material in hand); scored for the side to move only.
//!
//! The weights are a first choice, not yet tuned by self-play (that needs the variant layer's
//! match runner, issue 11); each change must come with its match result.

use super::board::DIRECTIONS;
use super::{Color, Position};

/// The weights of the features, in hundredths of a checker per unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per checker on the board.
    pub material: i32,
    /// Per rank of reserve (see the module docs).
    pub reserve: i32,
    /// Per stack.
    pub stacks: i32,
    /// Per checker of the tallest enemy stack the side to move can capture.
    pub threat: i32,
}

/// The engine's weights.
pub const WEIGHTS: Weights = Weights { material: 100, reserve: 3, stacks: 8, threat: 60 };

/// The evaluation of `pos` (not finished) for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    let w = WEIGHTS;
    let mut white_minus_black = 0;
    for color in [Color::White, Color::Black] {
        let sign = if color == Color::White { 1 } else { -1 };
        let (mut reserve, mut stacks) = (0, 0);
        let mut bits = pos.stacks(color);
        while bits != 0 {
            let square = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let height = pos.heights[square as usize] as i32;
            let (_, rank) = pos.variant().coordinates(square);
            let ranks_left =
                if color == Color::White { pos.variant().size() as i32 - rank } else { rank + 1 };
            reserve += height * ranks_left;
            stacks += 1;
        }
        let material = pos.checkers(color) as i32;
        white_minus_black += sign * (w.material * material + w.reserve * reserve + w.stacks * stacks);
    }
    let us = pos.side_to_move();
    let own_view = if us == Color::White { white_minus_black } else { -white_minus_black };
    own_view + w.threat * tallest_capture(pos) as i32
}

/// The height of the tallest enemy stack the side to move can capture (0 if none): a stack of
/// height e at distance k on a line from an own stack of height at least k, with k >= e and k
/// even on orthogonal lines.
fn tallest_capture(pos: &Position) -> u32 {
    let variant = pos.variant();
    let us = pos.side_to_move();
    let mut best = 0;
    let mut own = pos.stacks(us);
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
                    && color != us
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
    fn material_and_threats_count() {
        // Example 6 of the rules: White can capture Black's last single.
        let pos = Position::from_fen(Variant::Dipole, "8/8/8/8/3,b1,4/2,w1,5/8/8 w").unwrap();
        assert_eq!(tallest_capture(&pos), 1);
        // Example 2: d4 (2) can take b4 (2) or f2 (1), not d2 (3).
        let pos = Position::from_fen(Variant::Dipole, "8/8/8/8/1,b2,1,w2,4/8/3,b3,1,b1,2/8 w").unwrap();
        assert_eq!(tallest_capture(&pos), 2);
        assert!(evaluate(&pos) < 0, "Black has 6 checkers to White's 2");
    }
}
