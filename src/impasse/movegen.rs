//! Legal move generation, move counting and making moves.
//!
//! A turn is built phase by phase as the contract describes: a basic move (single slide,
//! double slide, transpose) or, only when there is none, an impasse removal; then the automatic
//! bear-off of a double left on the mover's nearest row; then the compulsory crown.
//!
//! **The crown rule, in one place.** A player can only have a single on his furthest row at the
//! start of a turn if it is his only single (a *waiting* single; positions are validated on
//! entry and the moves keep it so). Therefore, after phases A and B, the turn must crown exactly
//! when the mover has a single on his furthest row and some other single: either the far single
//! arrived this turn, or it was waiting and this turn created a new single (by bear-off or
//! removal). With two far singles (a removal split a far double beside a waiting single) either
//! one is stacked onto the other; otherwise every other single is a choice. `crown_choices`
//! decides that from the singles left after phases A and B; [`count_moves`] uses the same
//! reasoning in closed form.

use super::board::{Bitboard, Direction, Square, Squares, shift};
use super::{Color, Move, MoveKind, Position, zobrist};
use arrayvec::ArrayVec;

/// Capacity of a [`MoveList`]: a proven upper bound on the legal moves of any position, with
/// headroom.
///
/// Why 173 moves at most: a *crowning* action is a single sliding onto an empty square of the
/// furthest row or a transpose out of a double standing there. Each of the four far squares is
/// empty or holds a double (a far single would be a waiting single, and then no single can slide
/// and no transpose exists), and is entered or left along at most two diagonals (one for the
/// corner), so there are at most 7 crowning actions, each with at most 11 choices of the other
/// single: 77 moves. Every other action is a slide (a piece sees at most 7 squares ahead along
/// its two diagonals: `f` and `7 - f` from file `f`) or a transpose (at most 2 per double); with
/// at most 12 pieces that is `7 * 12 + 2 * 6 = 96`. Removals only happen when nothing else can,
/// and are at most 13. Hence 77 + 96 = 173; constructed positions reach 67.
pub const MAX_MOVES: usize = 192;

/// The legal moves of a position, in a fixed-capacity list on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// The two directions a colour's singles move in (forward) and its doubles move in (backward).
#[inline(always)]
const fn directions(color: Color) -> ([Direction; 2], [Direction; 2]) {
    use Direction::*;
    match color {
        Color::White => ([UpLeft, UpRight], [DownLeft, DownRight]),
        Color::Black => ([DownLeft, DownRight], [UpLeft, UpRight]),
    }
}

/// The crown phase: given the mover's singles after phases A and B and his furthest row, calls
/// `emit` with each possible crown (the single to stack), or with `None` when no crown happens.
#[inline(always)]
fn crown_choices(singles_after: Bitboard, far_row: Bitboard, mut emit: impl FnMut(Option<Square>)) {
    let far = singles_after & far_row;
    let others = singles_after & !far;
    if far == 0 || (far.count_ones() == 1 && others == 0) {
        // Nothing to crown, or a lone far single that waits for a new single.
        emit(None);
    } else if far.count_ones() >= 2 {
        // Two far singles: stack either one onto the other.
        Squares(far).for_each(|s| emit(Some(s)));
    } else {
        Squares(others).for_each(|s| emit(Some(s)));
    }
}

/// Appends `mv` completed with every crown choice, given the mover's singles after phases A-B.
#[inline(always)]
fn push_with_crowns(list: &mut MoveList, mv: Move, singles_after: Bitboard, far_row: Bitboard) {
    crown_choices(singles_after, far_row, |crown| {
        list.push(match crown {
            Some(square) => mv.with_crown(square),
            None => mv,
        })
    });
}

/// Every legal move of `pos` (none when the game is over).
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    if pos.is_game_over() {
        return list;
    }
    let us = pos.side_to_move();
    let (singles, doubles) = (pos.singles(us), pos.doubles(us));
    let (far, near) = (us.furthest_row(), us.nearest_row());
    let empty = !pos.occupied();
    let (forward, backward) = directions(us);

    for from in Squares(singles) {
        for dir in forward {
            let mut to = shift(from.bit(), dir) & empty;
            while to != 0 {
                let mv = Move::new(MoveKind::SingleSlide, from, square_of(to));
                push_with_crowns(&mut list, mv, singles ^ from.bit() ^ to, far);
                to = shift(to, dir) & empty;
            }
        }
    }
    for from in Squares(doubles) {
        for dir in backward {
            let mut to = shift(from.bit(), dir) & empty;
            while to != 0 {
                let mv = Move::new(MoveKind::DoubleSlide, from, square_of(to));
                push_with_crowns(&mut list, mv, singles | (to & near), far);
                to = shift(to, dir) & empty;
            }
            let onto = shift(from.bit(), dir) & singles;
            if onto != 0 {
                // The double becomes a single, the single a double (which bears off on `near`).
                let mv = Move::new(MoveKind::Transpose, from, square_of(onto));
                push_with_crowns(&mut list, mv, (singles ^ onto ^ from.bit()) | (onto & near), far);
            }
        }
    }
    if list.is_empty() {
        for from in Squares(singles) {
            push_with_crowns(&mut list, Move::new(MoveKind::Removal, from, from), singles ^ from.bit(), far);
        }
        for from in Squares(doubles) {
            push_with_crowns(&mut list, Move::new(MoveKind::Removal, from, from), singles | from.bit(), far);
        }
    }
    list
}

/// The square of a one-bit bitboard.
#[inline(always)]
fn square_of(bit: Bitboard) -> Square {
    Square::new(bit.trailing_zeros() as u8).expect("a one-bit board names a square")
}

/// The number of legal moves of `pos`, computed without generating them (bulk counting for
/// perft and mobility). Must equal `legal_moves(pos).len()`.
#[inline]
pub fn count_moves(pos: &Position) -> u64 {
    match pos.side_to_move() {
        Color::White => count_moves_for::<true>(pos),
        Color::Black => count_moves_for::<false>(pos),
    }
}

/// [`count_moves`] for one colour, so that every shift direction is a compile-time constant.
#[inline(always)]
fn count_moves_for<const WHITE: bool>(pos: &Position) -> u64 {
    let us = if WHITE { Color::White } else { Color::Black };
    if pos.is_game_over() {
        return 0;
    }
    let ([f1, f2], [b1, b2]) = directions(us);
    let (singles, doubles) = (pos.singles(us), pos.doubles(us));
    let far = us.furthest_row();
    let empty = !pos.occupied();
    let n_singles = singles.count_ones();
    // A single arriving on the far row is crowned by any other single, or waits if there is none.
    let crown_factor = n_singles.saturating_sub(1).max(1);

    // Flood each direction: the k-th step of a ray comes from exactly one square, so the
    // popcount of each frontier counts (piece, destination) pairs.
    let (mut slides, mut far_arrivals) = (0, 0);
    let (mut a, mut b) = (shift(singles, f1) & empty, shift(singles, f2) & empty);
    while a | b != 0 {
        slides += a.count_ones() + b.count_ones();
        far_arrivals += (a & far).count_ones() + (b & far).count_ones();
        a = shift(a, f1) & empty;
        b = shift(b, f2) & empty;
    }
    // A double slide is one move: a bear-off beside a waiting single has a single crown choice.
    let (mut a, mut b) = (shift(doubles, b1) & empty, shift(doubles, b2) & empty);
    while a | b != 0 {
        slides += a.count_ones() + b.count_ones();
        a = shift(a, b1) & empty;
        b = shift(b, b2) & empty;
    }
    let transposes =
        (shift(doubles, b1) & singles).count_ones() + (shift(doubles, b2) & singles).count_ones();
    // A far double that transposes leaves a single on the far row; the other single became a double.
    let far_doubles = doubles & far;
    let far_transposes =
        (shift(far_doubles, b1) & singles).count_ones() + (shift(far_doubles, b2) & singles).count_ones();
    let basic = slides + transposes + (far_arrivals + far_transposes) * (crown_factor - 1);
    if basic != 0 {
        return u64::from(basic);
    }

    // Impasse. Removing a single never crowns; removing the top of a non-far double gives one
    // move (a waiting single, if any, is crowned by the new single); splitting a far double is
    // crowned by any existing single, or twice (either way round) beside a waiting single.
    let waiting = u32::from(singles & far != 0);
    let far_split = n_singles.max(1) + waiting;
    u64::from(n_singles + (doubles & !far).count_ones() + far_doubles.count_ones() * far_split)
}

/// The position after `mv`, which must be legal in `pos` (copy-make). The hash is updated
/// incrementally from the squares that changed.
pub fn make_move(pos: &Position, mv: Move) -> Position {
    let us = pos.side_to_move();
    let (mut singles, mut doubles) = (pos.singles(us), pos.doubles(us));
    let (from, to) = (mv.from().bit(), mv.to().bit());
    match mv.kind() {
        MoveKind::SingleSlide => singles ^= from | to,
        MoveKind::DoubleSlide => doubles ^= from | to,
        MoveKind::Transpose => {
            singles ^= from | to;
            doubles ^= from | to;
        }
        MoveKind::Removal if singles & from != 0 => singles ^= from,
        MoveKind::Removal => {
            doubles ^= from;
            singles |= from;
        }
    }
    // Bear-off: a double on the nearest row loses its top checker.
    let borne_off = doubles & us.nearest_row();
    doubles ^= borne_off;
    singles |= borne_off;
    if let Some(crown) = mv.crown() {
        // The crowned single is the far single that is not the one being stacked.
        let target = singles & us.furthest_row() & !crown.bit();
        singles ^= crown.bit() | target;
        doubles |= target;
    }
    let mut next = *pos;
    next.singles[us.index()] = singles;
    next.doubles[us.index()] = doubles;
    next.side = us.opponent();
    next.hash = pos.hash() ^ zobrist::difference(pos, &next);
    next
}

impl Position {
    /// Every legal move (none when the game is over).
    pub fn legal_moves(&self) -> MoveList {
        legal_moves(self)
    }

    /// The number of legal moves, without generating them.
    pub fn count_moves(&self) -> u64 {
        count_moves(self)
    }

    /// The position after the legal move `mv`.
    pub fn make_move(&self, mv: Move) -> Position {
        make_move(self, mv)
    }
}
