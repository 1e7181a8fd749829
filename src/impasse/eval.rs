//! The static evaluation of an Impasse position: a weighted sum of features, linear in its
//! weights ([`crate::game::LinearEval`]), which `steere tune` fits to the results of self-play
//! games and writes to `src/impasse/weights.rs` (docs/tuning.md).
//!
//! Impasse is a race to *remove* one's own checkers. A checker leaves the game only by bear-off
//! (a double reaching its owner's nearest row loses its top checker) or by an impasse removal
//! (when a player has no basic move). A checker's life is therefore a cycle: a single travels
//! forward to the furthest row, is crowned (another single jumps onto it), the double travels
//! back to the nearest row and bears off, which leaves a single there to travel forward again.
//! The features measure how far each side is along that cycle.
//!
//! Each feature is counted for both colours, the side to move's minus the opponent's (tempo for
//! the side to move only); the evaluation is their dot product with the weights, in hundredths
//! of a checker, from the point of view of the side to move. Rows are counted from the owner's
//! nearest row (row 1) to his furthest (row 8).
//!
//! | feature          | what it counts                                                      |
//! |------------------|---------------------------------------------------------------------|
//! | `single_row_R`   | singles on row R (R = 1..8): their worth as checkers still to go and |
//! |                  | as progress toward the crown                                         |
//! | `double_row_R`   | doubles on row R (R = 1..8; a double on row 1 bears off at once, so |
//! |                  | only a set-up position has one)                                      |
//! | `mobile`         | pieces (singles or doubles) that have at least one basic move       |
//! | `waiting`        | 1 if the colour has a single waiting on its furthest row            |
//! | `impasse`        | 1 if the colour has no basic move at all: its next turn removes     |
//! | `tempo`          | 1: the player on move is a move ahead in the race                   |
//! | `NAME_ending`    | each feature above again, times `max(0, 16 - n)` where n is the     |
//! |                  | number of checkers on the board (both colours, a double two)        |
//!
//! The `_ending` copies make the weights tapered: with 16 or more checkers on the board they
//! add nothing, and each checker that leaves below 16 moves every weight by its ending weight.
//! In an ending the race decides, and what a piece is worth there (a blocked piece that brings
//! an impasse, a double one move from home) differs from the middle game; one set of weights
//! for both found fewer of the forced wins of `positions/tactics-impasse.epd` than the first,
//! hand-set evaluation did.
//!
//! The row tables generalise the first evaluation's terms: checkers on the board (-100 each, a
//! double two), rows a single still has to go (0 per row) and rows a double still has to go
//! (-4 per row), and pieces without a basic move (-2, a waiting single excepted); expressed over
//! these features they are the start weights of issue 28 (a single -102 on every row, a double
//! `-202 - 4 (R - 1)`, mobile 4, waiting 2, impasse 30, tempo 10), kept in the tests. Their
//! history, by 300-game self-play matches at 20,000 nodes a move: rows of singles -3 against 0
//! cost 260 Elo (rushing singles forward loses: a crowned single has 7 rows to go home), rows
//! of doubles -4 against 0 won 61, mobility 2/-2 against none 88, impasse 30 against 0 about 14.
//! The colour symmetry is exact: rotating the board by 180 degrees and swapping the colours and
//! the side to move gives the same evaluation (tested below).

use super::board::{Bitboard, Direction, shift};
use super::{Color, Position};
use crate::game::LinearEval;

/// The number of features (and of weights): the base features and their ending copies.
pub const FEATURES: usize = 2 * BASE;
/// The number of base features (those without `_ending`).
const BASE: usize = 20;
/// Index of the first ending copy: feature `ENDING + i` is feature `i` times the ending factor.
const ENDING: usize = BASE;
/// The number of checkers on the board (both colours) from which the ending copies start to
/// count: the factor is `max(0, ENDING_FROM - checkers)`.
const ENDING_FROM: i32 = 16;

/// Index of the first `single_row_R` feature (R = 1 at this index).
const SINGLE_ROW: usize = 0;
/// Index of the first `double_row_R` feature.
const DOUBLE_ROW: usize = 8;
/// Index of `mobile`.
const MOBILE: usize = 16;
/// Index of `waiting`.
const WAITING: usize = 17;
/// Index of `impasse`.
const IMPASSE: usize = 18;
/// Index of `tempo`.
const TEMPO: usize = 19;

/// The engine's weights, one per feature (the generated file of `steere tune`).
pub const WEIGHTS: [i32; FEATURES] = super::weights::WEIGHTS_IMPASSE;

/// The names of the features, in order.
pub fn feature_names() -> Vec<String> {
    let mut names: Vec<String> = (1..=8).map(|r| format!("single_row_{r}")).collect();
    names.extend((1..=8).map(|r| format!("double_row_{r}")));
    names.extend(["mobile", "waiting", "impasse", "tempo"].map(String::from));
    let endings: Vec<String> = names.iter().map(|n| format!("{n}_ending")).collect();
    names.extend(endings);
    names
}

/// The ending factor of `pos`: how many checkers below [`ENDING_FROM`] are on the board.
#[inline(always)]
fn ending_factor(pos: &Position) -> i32 {
    let doubles = pos.doubles(Color::White) | pos.doubles(Color::Black);
    let checkers = (pos.occupied().count_ones() + doubles.count_ones()) as i32;
    (ENDING_FROM - checkers).max(0)
}

/// The squares of the 0-based rank `r` (four dark squares a rank).
const fn rank_mask(r: usize) -> Bitboard {
    0xF << (4 * r)
}

/// The squares of row `r` (0-based, from the owner's nearest row) of `color`.
#[inline(always)]
fn row_mask(color: Color, r: usize) -> Bitboard {
    match color {
        Color::White => rank_mask(r),
        Color::Black => rank_mask(7 - r),
    }
}

/// The features of `color` in `pos` (tempo excluded), added into `out` times `sign`. Always
/// inlined, so that with constant weights the compiler folds the work.
#[inline(always)]
fn add_features(pos: &Position, color: Color, sign: i32, out: &mut [i32; FEATURES]) {
    let (singles, doubles) = (pos.singles(color), pos.doubles(color));
    for r in 0..8 {
        let row = row_mask(color, r);
        out[SINGLE_ROW + r] += sign * (singles & row).count_ones() as i32;
        out[DOUBLE_ROW + r] += sign * (doubles & row).count_ones() as i32;
    }
    let (mobile, waiting) = mobility(pos, color);
    out[MOBILE] += sign * mobile;
    out[WAITING] += sign * waiting;
    out[IMPASSE] += sign * i32::from(mobile == 0);
}

/// The pieces of `color` with a basic move, and 1 if a single of `color` waits on its furthest
/// row.
#[inline(always)]
fn mobility(pos: &Position, color: Color) -> (i32, i32) {
    use Direction::*;
    let (singles, doubles) = (pos.singles(color), pos.doubles(color));
    let empty = !pos.occupied();
    // `shift(x, d)` moves squares one step along `d`, so `shift(empty, reverse of forward)` is
    // the set of squares that have an empty square one step forward. A double can slide
    // backward to an empty square or transpose onto an own single there.
    let (single_exit, double_exit) = match color {
        Color::White => (
            shift(empty, DownRight) | shift(empty, DownLeft),
            shift(empty | singles, UpRight) | shift(empty | singles, UpLeft),
        ),
        Color::Black => (
            shift(empty, UpRight) | shift(empty, UpLeft),
            shift(empty | singles, DownRight) | shift(empty | singles, DownLeft),
        ),
    };
    let mobile = ((singles & single_exit).count_ones() + (doubles & double_exit).count_ones()) as i32;
    (mobile, i32::from(singles & color.furthest_row() != 0))
}

/// The base features of `pos` (the first [`BASE`]) from the side to move's point of view: its
/// own minus the opponent's, and tempo 1; the ending copies are left at 0.
#[inline(always)]
fn base_features(pos: &Position) -> [i32; FEATURES] {
    let us = pos.side_to_move();
    let mut out = [0; FEATURES];
    add_features(pos, us, 1, &mut out);
    add_features(pos, us.opponent(), -1, &mut out);
    out[TEMPO] = 1;
    out
}

/// The features of `pos` from the side to move's point of view, the ending copies included.
#[inline(always)]
pub fn features(pos: &Position) -> [i32; FEATURES] {
    let mut out = base_features(pos);
    let e = ending_factor(pos);
    for i in 0..BASE {
        out[ENDING + i] = out[i] * e;
    }
    out
}

/// The evaluation with weights `w`, from the point of view of the side to move.
#[inline(always)]
pub fn evaluate_with(pos: &Position, w: &[i32; FEATURES]) -> i32 {
    let f = base_features(pos);
    // The dot product with the ending copies, `f[i] * w[i] + (f[i] * e) * w[ENDING + i]`,
    // summed as `f[i] * (w[i] + e * w[ENDING + i])`: the same number with half the products.
    let e = ending_factor(pos);
    let mut sum = 0;
    for i in 0..BASE {
        sum += f[i] * (w[i] + e * w[ENDING + i]);
    }
    sum
}

/// The evaluation with [`WEIGHTS`], from the point of view of the side to move.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

impl LinearEval for Position {
    fn feature_names((): ()) -> Vec<String> {
        feature_names()
    }

    fn weights((): ()) -> &'static [i32] {
        &WEIGHTS
    }

    fn weights_file((): ()) -> (&'static str, &'static str) {
        ("src/impasse/weights.rs", "WEIGHTS_IMPASSE")
    }

    fn features(&self, out: &mut Vec<i32>) {
        out.clear();
        out.extend_from_slice(&features(self));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tuning::dot;

    /// The weights at the start of issue 28 over these features (see the module docs).
    const START: [i32; FEATURES] = [
        -102, -102, -102, -102, -102, -102, -102, -102, -202, -206, -210, -214, -218, -222, -226, -230, 4, 2,
        30, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ];

    /// The first evaluation, written as it was: checkers -100, rows of singles 0, rows of
    /// doubles -4, mobile 2, blocked -2, waiting 0, impasse 30, tempo 10.
    fn old_evaluate(pos: &Position) -> i32 {
        let side = |color: Color| {
            let (s, d) = (pos.singles(color), pos.doubles(color));
            let rank_sum =
                |b: Bitboard| (0..8).map(|r| r as i32 * (b & rank_mask(r)).count_ones() as i32).sum::<i32>();
            let (ns, nd) = (s.count_ones() as i32, d.count_ones() as i32);
            let (single_rows, double_rows) = match color {
                Color::White => (7 * ns - rank_sum(s), rank_sum(d)),
                Color::Black => (rank_sum(s), 7 * nd - rank_sum(d)),
            };
            let (mobile, waiting) = mobility(pos, color);
            let blocked = ns + nd - mobile - waiting;
            // The rows of singles weighed 0 in the first evaluation.
            let _ = single_rows;
            -100 * (ns + 2 * nd) - 4 * double_rows + 2 * mobile - 2 * blocked + 30 * i32::from(mobile == 0)
        };
        let us = pos.side_to_move();
        side(us) - side(us.opponent()) + 10
    }

    /// Rotates the board by 180 degrees and swaps the colours and the side to move: the same
    /// position seen from the other side. A FEN board read backwards is the rotated board.
    fn mirror_fen(fen: &str) -> String {
        let (board, side) = fen.split_once(' ').unwrap();
        let swap = |c: char| match c {
            'w' => 'b',
            'b' => 'w',
            'W' => 'B',
            'B' => 'W',
            other => other,
        };
        let board: String = board.chars().rev().map(swap).collect();
        format!("{board} {}", if side == "w" { "b" } else { "w" })
    }

    /// Positions from a reproducible pseudo-random walk from the start (every stage of a game).
    fn sample_positions() -> Vec<Position> {
        let mut state = 0x1234_5678_9ABC_DEF0u64;
        let mut out = Vec::new();
        for _ in 0..20 {
            let mut pos = Position::startpos();
            while !pos.is_game_over() {
                out.push(pos);
                let moves = pos.legal_moves();
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                pos = pos.make_move(moves[(state >> 33) as usize % moves.len()]);
            }
        }
        out
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        let positions = sample_positions();
        assert!(positions.len() > 1000);
        for pos in positions {
            let fen = pos.to_fen();
            let mirrored = Position::from_fen(&mirror_fen(&fen)).unwrap();
            assert_eq!(features(&pos), features(&mirrored), "{fen}");
            assert_eq!(evaluate(&pos), evaluate(&mirrored), "{fen}");
        }
    }

    #[test]
    fn the_evaluation_is_the_dot_product_of_weights_and_features() {
        let names = feature_names();
        assert_eq!(names.len(), FEATURES);
        for pos in sample_positions() {
            let mut f = Vec::new();
            LinearEval::features(&pos, &mut f);
            assert_eq!(f.len(), names.len());
            assert_eq!(evaluate(&pos), dot(&WEIGHTS, &f), "{}", pos.to_fen());
            assert_eq!(evaluate_with(&pos, &START), dot(&START, &f));
        }
    }

    #[test]
    fn the_start_weights_give_the_first_evaluation() {
        for pos in sample_positions() {
            assert_eq!(evaluate_with(&pos, &START), old_evaluate(&pos), "{}", pos.to_fen());
        }
    }

    #[test]
    fn start_position_is_balanced_up_to_tempo() {
        assert_eq!(evaluate(&Position::startpos()), WEIGHTS[TEMPO]);
    }

    #[test]
    fn features_count_what_they_say() {
        // White to move: single a1 (row 1) and double e3 (row 3), both mobile. Black: single h8,
        // on Black's row 1, mobile (g7 is empty).
        let pos = Position::from_fen("7b/8/8/8/8/4W3/8/w7 w").unwrap();
        let f = features(&pos);
        assert_eq!(f[SINGLE_ROW], 1 - 1);
        assert_eq!(f[DOUBLE_ROW + 2], 1);
        assert_eq!((f[MOBILE], f[WAITING], f[IMPASSE], f[TEMPO]), (2 - 1, 0, 0, 1));
        // Black to move: White's lone single on its furthest row waits and cannot move.
        let pos = Position::from_fen("1w6/8/8/8/8/8/8/b7 b").unwrap();
        let f = features(&pos);
        // Black's single a1 is on Black's row 8 (furthest): it waits too; both are impasses.
        assert_eq!(f[SINGLE_ROW + 7], 1 - 1);
        assert_eq!((f[WAITING], f[IMPASSE], f[MOBILE]), (0, 0, 0));
        assert_eq!(mobility(&pos, Color::White), (0, 1));
        assert_eq!(mobility(&pos, Color::Black), (0, 1));
    }

    #[test]
    fn ending_copies_are_the_features_times_the_checkers_below_sixteen() {
        let mut seen = [false; 2];
        for pos in sample_positions() {
            let f = features(&pos);
            let checkers = (0..2)
                .map(|c| {
                    let color = [Color::White, Color::Black][c];
                    pos.singles(color).count_ones() + 2 * pos.doubles(color).count_ones()
                })
                .sum::<u32>() as i32;
            let factor = (16 - checkers).max(0);
            seen[usize::from(factor > 0)] = true;
            for i in 0..BASE {
                assert_eq!(f[ENDING + i], f[i] * factor, "{} feature {i}", pos.to_fen());
            }
        }
        assert_eq!(seen, [true, true], "both middle games and endings are sampled");
    }

    #[test]
    fn fewer_checkers_is_better() {
        // Same layout, but White has a single instead of a double on e3.
        let more = Position::from_fen("7b/8/8/8/8/4W3/8/w7 w").unwrap();
        let fewer = Position::from_fen("7b/8/8/8/8/4w3/8/w7 w").unwrap();
        assert!(evaluate(&fewer) > evaluate(&more));
    }
}
