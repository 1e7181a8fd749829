//! The rules of HexDame (Christian Freeling, 1979): international draughts on a hexagon of 61
//! cells. Positions, moves, legal move generation with the majority capture rule, notation and
//! hashing.
//!
//! This module is docs/rules/hexdame.md turned into code, and depends on nothing else in the
//! crate. A [`Position`] is four `u64` bitboards (men and kings of each colour, numbered as
//! [`board`] explains), the side to move and a Zobrist hash updated with every move. Positions
//! are `Copy`, so making a move returns a new one (copy-make). A position carries no history:
//! repetition is the business of whoever keeps the game's history (the search, the referee).
//!
//! The rooms: [`board`] the geometry (cell numbering, directions as shifts), [`movegen`] the
//! moves (steps, king slides, capture sequences with the majority rule and one canonical path
//! per move) and their bulk count for perft, [`notation`] FEN and move text, [`zobrist`] the
//! hash keys, [`eval`] the static evaluation.

pub mod board;
pub mod eval;
pub mod game;
pub mod movegen;
pub mod notation;
pub mod tablebase;
pub mod weights;
pub mod zobrist;

pub use board::Cell;
pub use movegen::MoveList;
pub use notation::{FenError, MoveError};

use board::{BLACK_FAR_EDGE, Cells, WHITE_FAR_EDGE, bit};
use std::fmt;

/// One of the two players, and the colour of his pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// White: starts around a1, moves first.
    White,
    /// Black: starts around i9.
    Black,
}

impl Color {
    /// The other player.
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The cells where this colour's men are promoted.
    #[inline(always)]
    pub fn far_edge(self) -> u64 {
        match self {
            Color::White => WHITE_FAR_EDGE,
            Color::Black => BLACK_FAR_EDGE,
        }
    }

    /// The three directions (indices into [`board::STEPS`]) in which this colour's men step.
    pub const fn forward(self) -> [usize; 3] {
        match self {
            Color::White => [0, 1, 2],
            Color::Black => [3, 4, 5],
        }
    }

    /// The FEN letter: `W` or `B`.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
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

/// A piece's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Steps forward, captures in all six directions.
    Man = 0,
    /// Flies along all six directions.
    King = 1,
}

/// The most landings a capture can have: each jump takes one enemy piece, and a side has at
/// most 16.
pub const MAX_LANDINGS: usize = 16;

/// A move: a step or slide (`c3-c4`), or a capture with its whole path (`c3xe5xg5`).
///
/// A capture keeps the set of cells it captures (removed when the move is made) and one path,
/// the canonical one (the smallest in the order of names) when the move comes from the
/// generator. `ordinal` tells apart the captures of one position that share the start and final
/// cells (they capture different sets), so that [`Move::code`] is unique in its position.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The cells of the pieces captured (0 for a step).
    captured: u64,
    /// The start cell.
    from: Cell,
    /// The number of landings (1 for a step).
    len: u8,
    /// Which of the captures of its position with the same start and final cells this is.
    ordinal: u8,
    /// The landing cells in order; `path[len - 1]` is the final cell.
    path: [Cell; MAX_LANDINGS],
}

impl Move {
    /// A step or king slide from `from` to `to`.
    pub const fn step(from: Cell, to: Cell) -> Move {
        let mut path = [0; MAX_LANDINGS];
        path[0] = to;
        Move { captured: 0, from, len: 1, ordinal: 0, path }
    }

    /// A capture from `from` along `landings` (at least one), taking the pieces on `captured`.
    pub fn capture(from: Cell, landings: &[Cell], captured: u64) -> Move {
        let mut path = [0; MAX_LANDINGS];
        path[..landings.len()].copy_from_slice(landings);
        Move { captured, from, len: landings.len() as u8, ordinal: 0, path }
    }

    /// The start cell.
    pub const fn from(self) -> Cell {
        self.from
    }

    /// The final cell.
    pub const fn to(self) -> Cell {
        self.path[self.len as usize - 1]
    }

    /// True for a capture.
    pub const fn is_capture(self) -> bool {
        self.captured != 0
    }

    /// The cells of the captured pieces.
    pub const fn captured(self) -> u64 {
        self.captured
    }

    /// The landing cells in order (one for a step).
    pub fn landings(&self) -> &[Cell] {
        &self.path[..self.len as usize]
    }

    /// True when `self` and `other` are the same move in the rules' sense: the same start and
    /// final cells and the same captured set, whatever the paths.
    pub fn same_move(&self, other: &Move) -> bool {
        self.from == other.from && self.to() == other.to() && self.captured == other.captured
    }

    /// Sets the ordinal among the captures of a position with the same start and final cells.
    pub(crate) fn set_ordinal(&mut self, ordinal: u8) {
        self.ordinal = ordinal;
    }

    /// A 16-bit code, unique among the legal moves of a position: the start and final cells
    /// and the ordinal (steps and captures never share a position).
    pub fn code(self) -> u16 {
        u16::from(self.ordinal.min(15)) << 12 | u16::from(self.from) << 6 | u16::from(self.to())
    }
}

impl fmt::Display for Move {
    /// The move notation: `c3-c4`, or the capture's path `c3xe5xg5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&board::name(self.from))?;
        let separator = if self.is_capture() { "x" } else { "-" };
        for &cell in self.landings() {
            write!(f, "{separator}{}", board::name(cell))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A position: the men and kings of each colour, and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// The men of White and Black.
    men: [u64; 2],
    /// The kings of White and Black.
    kings: [u64; 2],
    side: Color,
    hash: u64,
}

/// The start position's FEN.
pub const START_FEN: &str =
    "W:Wa1,a2,a3,a4,b1,b2,b3,b4,c1,c2,c3,c4,d1,d2,d3,d4:Bf6,f7,f8,f9,g6,g7,g8,g9,h6,h7,h8,h9,i6,i7,i8,i9";

impl Position {
    /// The start position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// An empty board with `side` to move (not a valid position by itself).
    pub fn empty(side: Color) -> Position {
        let mut pos = Position { men: [0; 2], kings: [0; 2], side, hash: 0 };
        pos.hash = zobrist::hash_from_scratch(&pos);
        pos
    }

    /// The side to move.
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// The cells of `color`'s pieces of `kind`.
    #[inline(always)]
    pub const fn pieces(&self, color: Color, kind: Kind) -> u64 {
        match kind {
            Kind::Man => self.men[color.index()],
            Kind::King => self.kings[color.index()],
        }
    }

    /// The cells of all of `color`'s pieces.
    #[inline(always)]
    pub const fn all(&self, color: Color) -> u64 {
        self.men[color.index()] | self.kings[color.index()]
    }

    /// Every occupied cell.
    #[inline(always)]
    pub const fn occupied(&self) -> u64 {
        self.all(Color::White) | self.all(Color::Black)
    }

    /// The piece on `cell`, if any.
    pub fn piece_at(&self, cell: Cell) -> Option<(Color, Kind)> {
        let b = bit(cell);
        [Color::White, Color::Black].into_iter().find_map(|color| {
            if self.men[color.index()] & b != 0 {
                Some((color, Kind::Man))
            } else if self.kings[color.index()] & b != 0 {
                Some((color, Kind::King))
            } else {
                None
            }
        })
    }

    /// The Zobrist hash (pieces and side to move).
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// Every legal move (none when the side to move has lost).
    pub fn legal_moves(&self) -> MoveList {
        movegen::legal_moves(self)
    }

    /// True when the side to move has at least one legal move.
    pub fn has_moves(&self) -> bool {
        movegen::has_moves(self)
    }

    /// The winner of a finished game: the opponent of a side to move without a legal move.
    pub fn winner(&self) -> Option<Color> {
        (!self.has_moves()).then_some(self.side.opponent())
    }

    /// The position after the legal move `mv` (not checked: use [`Position::parse_move`] for
    /// untrusted text). The captured pieces go, and a man ending on his far edge is crowned.
    #[inline]
    pub fn make_move(&self, mv: Move) -> Position {
        let mut next = *self;
        let (us, them) = (self.side, self.side.opponent());
        let kind = if self.kings[us.index()] & bit(mv.from) != 0 { Kind::King } else { Kind::Man };
        next.remove(us, kind, mv.from);
        for cell in Cells(mv.captured & self.men[them.index()]) {
            next.remove(them, Kind::Man, cell);
        }
        for cell in Cells(mv.captured & self.kings[them.index()]) {
            next.remove(them, Kind::King, cell);
        }
        let to = mv.to();
        let crowned = kind == Kind::King || us.far_edge() & bit(to) != 0;
        next.put(us, if crowned { Kind::King } else { Kind::Man }, to);
        next.side = them;
        next.hash ^= zobrist::SIDE_KEY;
        next
    }

    /// Takes a piece off `cell`, updating the hash.
    #[inline(always)]
    fn remove(&mut self, color: Color, kind: Kind, cell: Cell) {
        *self.board_mut(color, kind) &= !bit(cell);
        self.hash ^= zobrist::piece_key(color, kind, cell);
    }

    /// Takes `color`'s piece of `kind` off `cell` (the tables' retrograde moves).
    pub(crate) fn take(&mut self, color: Color, kind: Kind, cell: Cell) {
        self.remove(color, kind, cell);
    }

    /// Sets the side to move, updating the hash (the tables' retrograde moves).
    pub(crate) fn set_side(&mut self, side: Color) {
        if side != self.side {
            self.side = side;
            self.hash ^= zobrist::SIDE_KEY;
        }
    }

    /// Puts a piece on the empty `cell`, updating the hash.
    #[inline(always)]
    pub(crate) fn put(&mut self, color: Color, kind: Kind, cell: Cell) {
        *self.board_mut(color, kind) |= bit(cell);
        self.hash ^= zobrist::piece_key(color, kind, cell);
    }

    /// The bitboard of `color`'s pieces of `kind`.
    #[inline(always)]
    fn board_mut(&mut self, color: Color, kind: Kind) -> &mut u64 {
        match kind {
            Kind::Man => &mut self.men[color.index()],
            Kind::King => &mut self.kings[color.index()],
        }
    }

    /// The FEN (the canonical spelling of docs/rules/hexdame.md).
    pub fn to_fen(&self) -> String {
        notation::format_fen(self)
    }

    /// Reads a FEN, rejecting anything the rules do not allow.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        notation::parse_fen(fen)
    }

    /// The legal move written `text` (any of its full paths) in this position.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(self, text)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
