//! The static evaluation of a HexDame position, in hundredths of a man, from the point of view
//! of the side to move: a weighted sum of features, linear in its weights
//! ([`crate::game::LinearEval`]), which `steere tune` fits to the results of self-play games and
//! writes to `src/hexdame/weights.rs` (docs/tuning.md).
//!
//! Features, each White's minus Black's, negated when Black is to move (tempo: the side to move
//! only):
//! - `man_advance_A` (A = 0..8): men whose advancement is A, the steps made toward the far edge
//!   (`8 - d`, d the distance to the far edge in steps). The man's worth and his progress in one
//!   table: the first evaluation's `100 + 8 A`.
//! - `man_ring_C`, `king_ring_C` (C = 1..4): men and kings on ring C of centrality (`4 - hex
//!   distance to e5`; the edge, ring 0, is the reference). Self-play made the centre *worse*
//!   (-16 per ring): a piece on the edge cannot be jumped across it.
//! - `king`: kings (550 at first: a flying king controls whole lines).
//! - `man_home_edge`: men on their own two home edges (White: files a and rank 1; guards of the
//!   crowning squares; 0 at first).
//! - `tempo`: 1 for the side to move (5 at first).
//!
//! History of the first weights (self-play, 20,000 nodes a move, 300 games a test, +-35 Elo):
//! king 300 -> 400 +108, -> 550 +41, -> 700 -24; advancement 3 -> 8 +158; centre 3 -> 0 +299,
//! then -3, -6, -10, -16 each better (+192, +81, +49, +35); a formation term (4 per backed man)
//! and a runaway-man bonus measured nothing or less and were removed. The capture extension of
//! the search (`search/negamax.rs`) was measured the same way: on against off, +284 +- 47.

use super::board::{self, CELLS, Cell, Cells};
use super::{Color, Kind, Position};
use crate::game::LinearEval;
use std::sync::OnceLock;

/// The number of features (and of weights).
pub const FEATURES: usize = 20;

/// Index of `man_advance_0`.
const MAN_ADVANCE: usize = 0;
/// Index of `man_ring_1`.
const MAN_RING: usize = 9;
/// Index of `king`.
const KING: usize = 13;
/// Index of `king_ring_1`.
const KING_RING: usize = 14;
/// Index of `man_home_edge`.
const MAN_HOME_EDGE: usize = 18;
/// Index of `tempo`.
const TEMPO: usize = 19;

/// The engine's weights, one per feature (the generated file of `steere tune`).
pub const WEIGHTS: [i32; FEATURES] = super::weights::WEIGHTS_HEXDAME;

/// The names of the features, in order.
pub fn feature_names() -> Vec<String> {
    let mut names: Vec<String> = (0..=8).map(|a| format!("man_advance_{a}")).collect();
    names.extend((1..=4).map(|c| format!("man_ring_{c}")));
    names.push("king".to_string());
    names.extend((1..=4).map(|c| format!("king_ring_{c}")));
    names.extend(["man_home_edge", "tempo"].map(String::from));
    names
}

/// What each cell contributes to the features, per colour.
struct CellFeatures {
    /// `8 - distance to the far edge` of a man on each cell, per colour.
    advancement: [[usize; CELLS]; 2],
    /// `4 - hexagonal distance to e5`.
    ring: [usize; CELLS],
    /// Whether the cell is on the colour's own home edges.
    home_edge: [[bool; CELLS]; 2],
}

/// The cells' features, made once.
fn cell_features() -> &'static CellFeatures {
    static TABLES: OnceLock<CellFeatures> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t =
            CellFeatures { advancement: [[0; CELLS]; 2], ring: [0; CELLS], home_edge: [[false; CELLS]; 2] };
        for cell in 0..CELLS as Cell {
            let (f, r) = board::coordinates(cell);
            let c = cell as usize;
            t.advancement[0][c] = (8 - (9 - f).min(9 - r)) as usize;
            t.advancement[1][c] = (8 - (f - 1).min(r - 1)) as usize;
            t.ring[c] = (4 - hex_distance((f, r), (5, 5))) as usize;
            t.home_edge[0][c] = f == 1 || r == 1;
            t.home_edge[1][c] = f == 9 || r == 9;
        }
        t
    })
}

/// The value of a man of each colour and of a king on each cell under weights `w`.
struct ValueTables {
    man: [[i32; CELLS]; 2],
    king: [i32; CELLS],
}

impl ValueTables {
    /// The tables of weights `w`.
    fn new(w: &[i32; FEATURES]) -> ValueTables {
        let t = cell_features();
        let ring = |base: usize, c: usize| if c == 0 { 0 } else { w[base + c - 1] };
        let mut v = ValueTables { man: [[0; CELLS]; 2], king: [0; CELLS] };
        for c in 0..CELLS {
            for color in 0..2 {
                v.man[color][c] = w[MAN_ADVANCE + t.advancement[color][c]]
                    + ring(MAN_RING, t.ring[c])
                    + if t.home_edge[color][c] { w[MAN_HOME_EDGE] } else { 0 };
            }
            v.king[c] = w[KING] + ring(KING_RING, t.ring[c]);
        }
        v
    }
}

/// The value tables of the engine's weights.
fn value_tables() -> &'static ValueTables {
    static TABLES: OnceLock<ValueTables> = OnceLock::new();
    TABLES.get_or_init(|| ValueTables::new(&WEIGHTS))
}

/// The number of steps between two cells on the hexagonal board.
fn hex_distance(a: (i32, i32), b: (i32, i32)) -> i32 {
    let (df, dr) = (b.0 - a.0, b.1 - a.1);
    if df.signum() * dr.signum() >= 0 { df.abs().max(dr.abs()) } else { df.abs() + dr.abs() }
}

/// The evaluation of `pos` with the engine's weights, for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_tables(pos, value_tables(), WEIGHTS[TEMPO])
}

/// The evaluation of `pos` with weights `w`, for the side to move (builds the tables: for tests
/// and tools, not the search).
pub fn evaluate_with(pos: &Position, w: &[i32; FEATURES]) -> i32 {
    evaluate_tables(pos, &ValueTables::new(w), w[TEMPO])
}

/// The evaluation from value tables: a sum of one lookup per piece.
fn evaluate_tables(pos: &Position, v: &ValueTables, tempo: i32) -> i32 {
    let mut white_minus_black = 0;
    for color in [Color::White, Color::Black] {
        let mut score = 0;
        for cell in Cells(pos.pieces(color, Kind::Man)) {
            score += v.man[color.index()][cell as usize];
        }
        for cell in Cells(pos.pieces(color, Kind::King)) {
            score += v.king[cell as usize];
        }
        white_minus_black += if color == Color::White { score } else { -score };
    }
    let own_view = if pos.side_to_move() == Color::White { white_minus_black } else { -white_minus_black };
    own_view + tempo
}

/// The features of `pos` from the side to move's point of view.
pub fn features(pos: &Position) -> [i32; FEATURES] {
    let t = cell_features();
    let mut f = [0; FEATURES];
    for color in [Color::White, Color::Black] {
        let sign = if color == pos.side_to_move() { 1 } else { -1 };
        for cell in Cells(pos.pieces(color, Kind::Man)) {
            let c = cell as usize;
            f[MAN_ADVANCE + t.advancement[color.index()][c]] += sign;
            if t.ring[c] > 0 {
                f[MAN_RING + t.ring[c] - 1] += sign;
            }
            f[MAN_HOME_EDGE] += sign * i32::from(t.home_edge[color.index()][c]);
        }
        for cell in Cells(pos.pieces(color, Kind::King)) {
            let c = cell as usize;
            f[KING] += sign;
            if t.ring[c] > 0 {
                f[KING_RING + t.ring[c] - 1] += sign;
            }
        }
    }
    f[TEMPO] = 1;
    f
}

impl LinearEval for Position {
    fn feature_names((): ()) -> Vec<String> {
        feature_names()
    }

    fn weights((): ()) -> &'static [i32] {
        &WEIGHTS
    }

    fn weights_file((): ()) -> (&'static str, &'static str) {
        ("src/hexdame/weights.rs", "WEIGHTS_HEXDAME")
    }

    fn features(&self, out: &mut Vec<i32>) {
        out.clear();
        out.extend_from_slice(&features(self));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::game::tuning::dot;
    use crate::hexdame::START_FEN;

    /// The weights at the start of issue 28 over these features (see the module docs).
    const START: [i32; FEATURES] =
        [100, 108, 116, 124, 132, 140, 148, 156, 164, -16, -32, -48, -64, 550, -16, -32, -48, -64, 0, 5];

    /// The first evaluation, as it was: man 100, king 550, advancement 8, centre -16, tempo 5.
    fn old_evaluate(pos: &Position) -> i32 {
        let mut white_minus_black = 0;
        for color in [Color::White, Color::Black] {
            let men = pos.pieces(color, Kind::Man);
            let kings = pos.pieces(color, Kind::King);
            let mut score = 100 * men.count_ones() as i32 + 550 * kings.count_ones() as i32;
            for cell in Cells(men | kings) {
                let (f, r) = board::coordinates(cell);
                score += -16 * (4 - hex_distance((f, r), (5, 5)));
            }
            for cell in Cells(men) {
                let (f, r) = board::coordinates(cell);
                let advance =
                    if color == Color::White { 8 - (9 - f).min(9 - r) } else { 8 - (f - 1).min(r - 1) };
                score += 8 * advance;
            }
            white_minus_black += if color == Color::White { score } else { -score };
        }
        let own = if pos.side_to_move() == Color::White { white_minus_black } else { -white_minus_black };
        own + 5
    }

    /// Positions of seeded random games from the start, at most 200 plies each.
    fn sample_positions() -> Vec<Position> {
        let mut state = 0x5EED_u64;
        let mut out = Vec::new();
        for _ in 0..40 {
            let mut pos = Position::from_fen(START_FEN).unwrap();
            for _ in 0..200 {
                let moves = Game::legal_moves(&pos);
                if moves.as_ref().is_empty() {
                    break;
                }
                out.push(pos);
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                pos = pos.make_move(moves.as_ref()[(state >> 33) as usize % moves.as_ref().len()]);
            }
        }
        out
    }

    #[test]
    fn the_evaluation_is_the_dot_product_of_weights_and_features() {
        let positions = sample_positions();
        assert!(positions.len() > 2000);
        assert_eq!(feature_names().len(), FEATURES);
        for pos in positions {
            let mut f = Vec::new();
            LinearEval::features(&pos, &mut f);
            assert_eq!(evaluate(&pos), dot(&WEIGHTS, &f), "{}", pos.to_fen());
            assert_eq!(evaluate_with(&pos, &START), dot(&START, &f));
            assert_eq!(evaluate_with(&pos, &START), old_evaluate(&pos), "{}", pos.to_fen());
        }
    }

    #[test]
    fn the_start_position_is_level_but_for_the_tempo() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(evaluate(&pos), WEIGHTS[TEMPO]);
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
    fn kings_advancement_and_edges_count() {
        let evaluate = |pos: &Position| evaluate_with(pos, &START);
        let man = evaluate(&Position::from_fen("W:Wc3:Bg7,h8").unwrap());
        let king = evaluate(&Position::from_fen("W:WKc3:Bg7,h8").unwrap());
        assert!(king > man + 100);
        let back = evaluate(&Position::from_fen("W:Wb2:Bi9").unwrap());
        let ahead = evaluate(&Position::from_fen("W:Wb6:Bi9").unwrap());
        assert!(ahead > back, "{ahead} {back}");
        let centre = evaluate(&Position::from_fen("W:WKe5:Bi9").unwrap());
        let edge = evaluate(&Position::from_fen("W:WKa3:Bi9").unwrap());
        assert!(edge > centre, "{edge} {centre}");
        assert_eq!(hex_distance((5, 5), (1, 1)), 4);
        assert_eq!(hex_distance((5, 5), (1, 5)), 4);
        assert_eq!(hex_distance((1, 5), (5, 1)), 8);
    }
}
