//! The static evaluation of a HexDame position, in hundredths of a man, from the point of view
//! of the side to move.
//!
//! Features (each White's minus Black's, then negated when Black is to move), with their weights
//! in [`WEIGHTS`]:
//! - **material**: a man is the unit (100); a **king** is worth [`Weights::king`]. A flying
//!   king controls whole lines and captures from afar, so it is worth several men, as in
//!   international draughts.
//! - **advancement** (the draughts "tempo" count): per man, the steps he has made toward his far
//!   edge, `8 - d` where d is his distance to it in steps (0 on the start rows' far corner, 7
//!   next to the edge), weighted per step. Advanced men are closer to a crown and cramp the
//!   opponent; the weight stays small because men that rush ahead alone are lost.
//! - **centre**: per piece, `4 - distance to e5` (hexagonal distance): central pieces reach more
//!   of the board and are harder to surround.
//! - **formation**: per man, the friendly pieces right behind him in his three backward
//!   directions. A man backed in a direction cannot be jumped from the opposite side (the
//!   landing cell is taken), so closed formations lose fewer men.
//! - **runaway**: a man with no enemy piece in or beside his forward cone (every cell he could
//!   step to on his way to the edge, and their neighbours), while the opponent has no king,
//!   cannot be stopped: he is worth most of a king already, the more the closer he is.
//! - **tempo** (the move): a small bonus for the side to move, which in a quiet position is
//!   about half a step of advancement ahead.
//!
//! **Tuning**: see the record in [`WEIGHTS`]'s docs.

use super::board::{self, ALL, CELLS, Cell, Cells, bit, neighbour, opposite, shift};
use super::{Color, Kind, Position};
use std::sync::OnceLock;

/// The weights of the features, in hundredths of a man per unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per king (a man is 100).
    pub king: i32,
    /// Per step of advancement of a man.
    pub advance: i32,
    /// Per ring of centrality of a piece.
    pub centre: i32,
    /// Per friendly piece right behind a man.
    pub formation: i32,
    /// Per runaway man, plus [`Weights::runaway_step`] per step he is from the start rows.
    pub runaway: i32,
    /// Per step of advancement of a runaway man.
    pub runaway_step: i32,
    /// For the side to move.
    pub tempo: i32,
}

/// The engine's weights. Tuned by self-play with `steere match --variant hexdame`; the record is
/// in the module docs of the tuning (see docs/rules/hexdame.md's companion note in the issue).
pub const WEIGHTS: Weights =
    Weights { king: 300, advance: 3, centre: 3, formation: 4, runaway: 60, runaway_step: 20, tempo: 5 };

/// Per-cell tables, made once.
struct Tables {
    /// `8 - distance to the far edge` of a man on each cell, per colour.
    advancement: [[i32; CELLS]; 2],
    /// `4 - hexagonal distance to e5`.
    centrality: [i32; CELLS],
    /// The cells a man must find free of enemies to run away: his forward cone and its
    /// neighbours, per colour.
    runway: [[u64; CELLS]; 2],
}

/// The tables.
fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Tables { advancement: [[0; CELLS]; 2], centrality: [0; CELLS], runway: [[0; CELLS]; 2] };
        for cell in 0..CELLS as Cell {
            let (f, r) = board::coordinates(cell);
            t.advancement[0][cell as usize] = 8 - (9 - f).min(9 - r);
            t.advancement[1][cell as usize] = 8 - (f - 1).min(r - 1);
            t.centrality[cell as usize] = 4 - hex_distance((f, r), (5, 5));
            for color in [Color::White, Color::Black] {
                let mut cone = 0u64;
                let mut frontier = bit(cell);
                while frontier != 0 {
                    let next = color.forward().into_iter().fold(0, |acc, dir| acc | shift(frontier, dir));
                    cone |= next;
                    frontier = next & !frontier;
                }
                let around = (0..6).fold(cone, |acc, dir| acc | shift(cone, dir));
                t.runway[color.index()][cell as usize] = around & ALL & !bit(cell);
            }
        }
        t
    })
}

/// The number of steps between two cells on the hexagonal board.
fn hex_distance(a: (i32, i32), b: (i32, i32)) -> i32 {
    let (df, dr) = (b.0 - a.0, b.1 - a.1);
    if df.signum() * dr.signum() >= 0 { df.abs().max(dr.abs()) } else { df.abs() + dr.abs() }
}

/// The evaluation of `pos` with the engine's weights, for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

/// The evaluation of `pos` with weights `w`, for the side to move.
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let t = tables();
    let mut white_minus_black = 0;
    for color in [Color::White, Color::Black] {
        let them = color.opponent();
        let men = pos.pieces(color, Kind::Man);
        let kings = pos.pieces(color, Kind::King);
        let own = men | kings;
        let enemy = pos.all(them);
        let enemy_has_king = pos.pieces(them, Kind::King) != 0;
        let mut score = 100 * men.count_ones() as i32 + w.king * kings.count_ones() as i32;
        for cell in Cells(own) {
            score += w.centre * t.centrality[cell as usize];
        }
        for cell in Cells(men) {
            let advance = t.advancement[color.index()][cell as usize];
            score += w.advance * advance;
            let backed = color
                .forward()
                .into_iter()
                .filter(|&dir| bit(neighbour(cell, opposite(dir))) & own != 0)
                .count();
            score += w.formation * backed as i32;
            if !enemy_has_king && t.runway[color.index()][cell as usize] & enemy == 0 {
                score += w.runaway + w.runaway_step * advance;
            }
        }
        white_minus_black += if color == Color::White { score } else { -score };
    }
    let own_view = if pos.side_to_move() == Color::White { white_minus_black } else { -white_minus_black };
    own_view + w.tempo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hexdame::START_FEN;

    #[test]
    fn the_start_position_is_level_but_for_the_tempo() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(evaluate(&pos), WEIGHTS.tempo);
    }

    #[test]
    fn the_evaluation_is_symmetric_under_colour_reversal() {
        // a1 <-> i9 maps (f, r) to (10 - f, 10 - r) and swaps the colours.
        let fens = [("W:Wc3,Kd2:Bg7", "B:Wc3:BKf8,g7"), ("B:Wd4,e5:Bf6", "W:Wd4:Be5,f6")];
        for (a, b) in fens {
            let (pa, pb) = (Position::from_fen(a).unwrap(), Position::from_fen(b).unwrap());
            assert_eq!(evaluate(&pa), evaluate(&pb), "{a} / {b}");
        }
    }

    #[test]
    fn kings_runaways_and_centre_count() {
        let man = evaluate(&Position::from_fen("W:Wc3:Bg7,h8").unwrap());
        let king = evaluate(&Position::from_fen("W:WKc3:Bg7,h8").unwrap());
        assert!(king > man + 100);
        // A man far from any enemy with no enemy king runs; the same man blocked does not.
        let free = evaluate(&Position::from_fen("W:Wa1,e7:Bb2").unwrap());
        let watched = evaluate(&Position::from_fen("W:Wa1,e7:Bf9").unwrap());
        assert!(free > watched, "{free} {watched}");
        assert_eq!(hex_distance((5, 5), (1, 1)), 4);
        assert_eq!(hex_distance((5, 5), (1, 5)), 4);
        assert_eq!(hex_distance((1, 5), (5, 1)), 8);
    }
}
