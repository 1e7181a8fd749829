//! The rules of Impasse: position, moves, legal move generation, notation and hashing.
//!
//! This module is the contract of `docs/rules/impasse.md` turned into code, and depends on
//! nothing else in the crate. A [`Position`] is four bitboards (singles and doubles of each
//! colour, see [`board`] for the square numbering) plus the side to move and its Zobrist hash.
//! Positions are small and `Copy`, so making a move returns a new one (copy-make).
//!
//! A [`Move`] is one complete turn: a basic move (slide or transpose) or an impasse removal,
//! the automatic bear-off, and the crown with the choice of the stacked single. Two moves that
//! differ only in that choice are different moves, as the contract's perft counts require.

pub mod board;
pub mod eval;
pub mod game;
pub mod movegen;
pub mod notation;
pub mod tablebase;
pub mod weights;
pub mod zobrist;

use board::{Bitboard, Square, Squares, rank_mask};
use std::fmt;

pub use movegen::{MAX_MOVES, MoveList};
pub use notation::{FenError, MoveError, START_FEN};

/// A player. White moves first and sits at rank 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The first player, whose nearest row is rank 1.
    White = 0,
    /// The second player, whose nearest row is rank 8.
    Black = 1,
}

impl Color {
    /// The other player.
    #[inline(always)]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: an index into per-colour arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The row a player's doubles move toward and bear off on (rank 1 for White).
    #[inline(always)]
    pub const fn nearest_row(self) -> Bitboard {
        match self {
            Color::White => rank_mask(0),
            Color::Black => rank_mask(7),
        }
    }

    /// The row a player's singles move toward and are crowned on (rank 8 for White).
    #[inline(always)]
    pub const fn furthest_row(self) -> Bitboard {
        match self {
            Color::White => rank_mask(7),
            Color::Black => rank_mask(0),
        }
    }

    /// The side-to-move letter of the FEN (`w` or `b`).
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// What the first phase of a turn does; the rest of the turn (bear-off, crown) follows from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveKind {
    /// A single slides diagonally forward from `from` to `to`.
    SingleSlide,
    /// A double slides diagonally backward from `from` to `to`.
    DoubleSlide,
    /// The top checker of the double on `from` moves onto the single on `to`.
    Transpose,
    /// Impasse: the mover removes the single on `from`, or the top checker of the double there.
    Removal,
}

/// One complete turn. Four bytes; `to` equals `from` for a removal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    kind: MoveKind,
    from: Square,
    to: Square,
    crown: Option<Square>,
}

impl Move {
    /// A move of `kind` from `from` to `to`, without a crown.
    #[inline(always)]
    pub const fn new(kind: MoveKind, from: Square, to: Square) -> Move {
        Move { kind, from, to, crown: None }
    }

    /// The same move followed by stacking the single on `square` in the crown phase.
    #[inline(always)]
    pub const fn with_crown(self, square: Square) -> Move {
        Move { crown: Some(square), ..self }
    }

    /// What the first phase does.
    pub const fn kind(self) -> MoveKind {
        self.kind
    }

    /// The square the moving piece leaves (or loses its checker on, for a removal).
    pub const fn from(self) -> Square {
        self.from
    }

    /// The square the moving piece or checker arrives on (`from` for a removal).
    pub const fn to(self) -> Square {
        self.to
    }

    /// The single that is stacked in the crown phase, if the turn crowns.
    pub const fn crown(self) -> Option<Square> {
        self.crown
    }
}

impl fmt::Display for Move {
    /// The CodinGame notation of the contract: `d2f4`, `g7f6`, `b6`, `a7b8d2`, `f8f8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from)?;
        if self.kind != MoveKind::Removal {
            write!(f, "{}", self.to)?;
        }
        if let Some(crown) = self.crown {
            write!(f, "{crown}")?;
        }
        Ok(())
    }
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// One checker of the colour.
    Single(Color),
    /// Two stacked checkers of the colour.
    Double(Color),
}

/// A position: where the singles and doubles of each colour stand, and who is to move.
///
/// Only positions that obey the contract's validity rules can be built (through
/// [`Position::from_fen`] or by making legal moves), so the rules code may rely on them: at most
/// one single on a player's furthest row, and only when it is that player's only single.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    singles: [Bitboard; 2],
    doubles: [Bitboard; 2],
    side: Color,
    hash: u64,
}

impl Position {
    /// The start position, White to move.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// Builds a position from raw bitboards without validation (the caller guarantees the
    /// contract's rules); the hash is computed from scratch.
    pub(crate) fn from_parts(singles: [Bitboard; 2], doubles: [Bitboard; 2], side: Color) -> Position {
        let mut pos = Position { singles, doubles, side, hash: 0 };
        pos.hash = zobrist::hash_from_scratch(&pos);
        pos
    }

    /// The player to move.
    #[inline(always)]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// The squares holding a single of `color`.
    #[inline(always)]
    pub const fn singles(&self, color: Color) -> Bitboard {
        self.singles[color.index()]
    }

    /// The squares holding a double of `color`.
    #[inline(always)]
    pub const fn doubles(&self, color: Color) -> Bitboard {
        self.doubles[color.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub const fn occupied(&self) -> Bitboard {
        self.singles[0] | self.singles[1] | self.doubles[0] | self.doubles[1]
    }

    /// How many checkers `color` still has to remove (a double counts two).
    pub const fn checkers(&self, color: Color) -> u32 {
        self.singles(color).count_ones() + 2 * self.doubles(color).count_ones()
    }

    /// The piece on `square`, if any.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let bit = square.bit();
        [Color::White, Color::Black].into_iter().find_map(|c| {
            if self.singles(c) & bit != 0 {
                Some(Piece::Single(c))
            } else if self.doubles(c) & bit != 0 {
                Some(Piece::Double(c))
            } else {
                None
            }
        })
    }

    /// The single of the side to move that waits on its furthest row for a new single, if any.
    pub fn waiting_single(&self, color: Color) -> Option<Square> {
        Squares(self.singles(color) & color.furthest_row()).next()
    }

    /// The Zobrist hash, kept up to date incrementally by [`Position::make_move`].
    #[inline(always)]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The winner if the game is over: the player who has removed all of his checkers. Since the
    /// game ends at once, only the player who just moved can have won.
    #[inline(always)]
    pub const fn winner(&self) -> Option<Color> {
        let last_mover = self.side.opponent();
        if self.singles(last_mover) | self.doubles(last_mover) == 0 { Some(last_mover) } else { None }
    }

    /// True when the game is over (the side to move then has no moves).
    #[inline(always)]
    pub const fn is_game_over(&self) -> bool {
        self.winner().is_some()
    }

    /// The FEN of this position (see [`notation`]).
    pub fn to_fen(&self) -> String {
        notation::format_fen(self)
    }

    /// Parses a FEN, rejecting malformed text and positions no game can reach.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        notation::parse_fen(fen)
    }

    /// Parses a move in the CodinGame notation in the context of this position; only legal
    /// moves are accepted.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(self, text)
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl fmt::Display for Position {
    /// The FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}
