//! The static evaluation of an Impasse position: a weighted sum of a few features, with every
//! weight in one table ([`Weights`]) so that they can be tuned from self-play later.
//!
//! Impasse is a race to *remove* one's own checkers. A checker leaves the game only by bear-off
//! (a double reaching its owner's nearest row loses its top checker) or by an impasse removal
//! (when a player has no basic move). A checker's life is therefore a cycle: a single travels
//! forward to the furthest row, is crowned (another single jumps onto it), the double travels
//! back to the nearest row and bears off, which leaves a single there to travel forward again.
//! The features measure how far each side is along that cycle.
//!
//! Each feature is computed for both colours; the evaluation is
//! `sum(weight * (feature(us) - feature(them))) + tempo`, in hundredths of a checker, from the
//! point of view of the side to move. Features, per colour:
//!
//! | feature          | what it counts                                                      |
//! |------------------|---------------------------------------------------------------------|
//! | `checkers`       | checkers still on the board (a double counts two): fewer is better  |
//! | `single_rows`    | rows each single still has to travel to its furthest row (crowning) |
//! | `double_rows`    | rows each double still has to travel to its nearest row (bear-off)  |
//! | `mobile`         | pieces (singles or doubles) that have at least one basic move       |
//! | `blocked`        | pieces that have none (a waiting single is counted in `waiting`)    |
//! | `waiting`        | 1 if the colour has a single waiting on its furthest row            |
//! | `impasse`        | 1 if the colour has no basic move at all: its next turn removes     |
//!
//! plus `tempo`, a bonus for the side to move (the player on move is a move ahead in the race).
//! The colour symmetry is exact: rotating the board by 180 degrees and swapping the colours and
//! the side to move gives the same evaluation (tested below).

use super::board::{Bitboard, Direction, shift};
use super::{Color, Position};

/// The weight of each feature, in hundredths of a checker per unit of the feature. A positive
/// weight means "more is better for its owner".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per checker still on the board (negative: removing checkers is the goal).
    pub checkers: i32,
    /// Per row a single still has to travel to be crowned.
    pub single_rows: i32,
    /// Per row a double still has to travel to bear off.
    pub double_rows: i32,
    /// Per piece with a basic move.
    pub mobile: i32,
    /// Per piece without a basic move (not counting a waiting single).
    pub blocked: i32,
    /// For a single waiting on the furthest row.
    pub waiting: i32,
    /// For having no basic move at all (the next turn of that colour is a removal).
    pub impasse: i32,
    /// For being the side to move.
    pub tempo: i32,
}

/// The weights in use, set by self-play matches (engine against engine with one weight
/// changed, 20,000 nodes per move, 300 games from 4-ply random openings, each opening with both
/// colours; Elo of the variant against the weights of the time):
///
/// | variant against base                                          | Elo    |
/// |---------------------------------------------------------------|--------|
/// | rows (single/double) -12/-14 against -6/-7                    | -95    |
/// | no mobile, blocked, impasse terms against 2/-2/30 (rows -6/-7)| -88    |
/// | rows -3/-4 against -6/-7                                      | +92    |
/// | rows -1/-2 against -3/-4                                      | +75    |
/// | rows 0/0 against -3/-4                                        | +92    |
/// | rows 0/-4 against 0/0                                         | +61    |
/// | rows -3/0 against 0/0                                         | -260   |
/// | rows 0/-8 against 0/-4                                        | -21    |
/// | rows +3/-4 against 0/-4                                       | +5     |
/// | mobile/blocked 6/-6 against 2/-2                              | +17    |
/// | impasse 80 against 30 / impasse 0 against 30 (240 games)      | -45/+14|
/// | waiting -30 against 0 (220 games)                             | +6     |
///
/// The surprise is `single_rows`: rushing singles forward loses. A single that reaches the far
/// row is crowned into a double that then has 7 rows to go home, so the "progress" of a single
/// is undone by its crown; the weight is 0 until a better feature (the whole remaining cycle)
/// replaces it. Differences within about +-40 Elo are noise at 300 games.
pub const WEIGHTS: Weights = Weights {
    checkers: -100,
    single_rows: 0,
    double_rows: -4,
    mobile: 2,
    blocked: -2,
    waiting: 0,
    impasse: 30,
    tempo: 10,
};

/// The features of one colour (see the module docs for their meaning).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// Checkers on the board, a double counting two.
    pub checkers: i32,
    /// Rows the singles still have to travel forward.
    pub single_rows: i32,
    /// Rows the doubles still have to travel backward.
    pub double_rows: i32,
    /// Pieces with a basic move.
    pub mobile: i32,
    /// Pieces without a basic move, except a waiting single.
    pub blocked: i32,
    /// 1 if a single waits on the furthest row.
    pub waiting: i32,
    /// 1 if the colour has no basic move.
    pub impasse: i32,
}

/// Squares whose (0-based) rank has bit 0, bit 1 or bit 2 set: the sum of the ranks of a set of
/// squares is `pop(b & R0) + 2 pop(b & R1) + 4 pop(b & R2)`, three popcounts.
const RANK_BITS: [Bitboard; 3] = [0xF0F0_F0F0, 0xFF00_FF00, 0xFFFF_0000];

/// The sum of the 0-based ranks of the squares of `b`.
#[inline(always)]
fn rank_sum(b: Bitboard) -> i32 {
    ((b & RANK_BITS[0]).count_ones()
        + 2 * (b & RANK_BITS[1]).count_ones()
        + 4 * (b & RANK_BITS[2]).count_ones()) as i32
}

/// The features of `color` in `pos`. Always inlined, so that with constant weights the
/// compiler drops the work of any feature whose weight is zero.
#[inline(always)]
pub fn features(pos: &Position, color: Color) -> Features {
    use Direction::*;
    let (singles, doubles) = (pos.singles(color), pos.doubles(color));
    let empty = !pos.occupied();
    let (n_singles, n_doubles) = (singles.count_ones() as i32, doubles.count_ones() as i32);
    // `shift(x, d)` moves squares one step along `d`, so `shift(empty, reverse of forward)` is
    // the set of squares that have an empty square one step forward.
    let (single_rows, double_rows, single_exit, double_exit) = match color {
        Color::White => (
            7 * n_singles - rank_sum(singles),
            rank_sum(doubles),
            shift(empty, DownRight) | shift(empty, DownLeft),
            shift(empty | singles, UpRight) | shift(empty | singles, UpLeft),
        ),
        Color::Black => (
            rank_sum(singles),
            7 * n_doubles - rank_sum(doubles),
            shift(empty, UpRight) | shift(empty, UpLeft),
            shift(empty | singles, DownRight) | shift(empty | singles, DownLeft),
        ),
    };
    let waiting_single = singles & color.furthest_row();
    // A double can slide backward to an empty square or transpose onto an own single there.
    let mobile = ((singles & single_exit).count_ones() + (doubles & double_exit).count_ones()) as i32;
    let waiting = i32::from(waiting_single != 0);
    Features {
        checkers: n_singles + 2 * n_doubles,
        single_rows,
        double_rows,
        mobile,
        blocked: n_singles + n_doubles - mobile - waiting,
        waiting,
        impasse: i32::from(mobile == 0),
    }
}

/// The weighted sum of one colour's features (without tempo).
#[inline(always)]
fn score(f: &Features, w: &Weights) -> i32 {
    w.checkers * f.checkers
        + w.single_rows * f.single_rows
        + w.double_rows * f.double_rows
        + w.mobile * f.mobile
        + w.blocked * f.blocked
        + w.waiting * f.waiting
        + w.impasse * f.impasse
}

/// The evaluation with the given weights, from the point of view of the side to move.
#[inline]
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let us = pos.side_to_move();
    score(&features(pos, us), w) - score(&features(pos, us.opponent()), w) + w.tempo
}

/// The evaluation with [`WEIGHTS`], from the point of view of the side to move.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert_eq!(features(&pos, Color::White), features(&mirrored, Color::Black), "{fen}");
            assert_eq!(evaluate(&pos), evaluate(&mirrored), "{fen}");
        }
    }

    #[test]
    fn start_position_is_balanced_up_to_tempo() {
        assert_eq!(evaluate(&Position::startpos()), WEIGHTS.tempo);
    }

    #[test]
    fn features_count_what_they_say() {
        // White: single a1 (7 rows to go, blocked by nothing: mobile), double e3 (2 rows home).
        // Black: single h8 is on rank 8, 7 rows from rank 1; it can move to g7.
        let pos = Position::from_fen("7b/8/8/8/8/4W3/8/w7 w").unwrap();
        let white = features(&pos, Color::White);
        assert_eq!(white.checkers, 3);
        assert_eq!(white.single_rows, 7);
        assert_eq!(white.double_rows, 2);
        assert_eq!((white.mobile, white.blocked, white.waiting, white.impasse), (2, 0, 0, 0));
        let black = features(&pos, Color::Black);
        assert_eq!((black.checkers, black.single_rows, black.double_rows), (1, 7, 0));
        // A lone single on the furthest row waits and cannot move: an impasse.
        let pos = Position::from_fen("1w6/8/8/8/8/8/8/b7 b").unwrap();
        let white = features(&pos, Color::White);
        assert_eq!((white.waiting, white.mobile, white.blocked, white.impasse), (1, 0, 0, 1));
    }

    #[test]
    fn fewer_checkers_is_better() {
        // Same layout, but White has a single instead of a double on e3.
        let more = Position::from_fen("7b/8/8/8/8/4W3/8/w7 w").unwrap();
        let fewer = Position::from_fen("7b/8/8/8/8/4w3/8/w7 w").unwrap();
        assert!(evaluate(&fewer) > evaluate(&more));
    }
}
