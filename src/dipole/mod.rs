//! The rules of Dipole (Mark Steere, 2007): positions, moves, legal move generation, notation
//! and hashing, for both variants (`dipole` on 8x8, `dipole10` on 10x10).
//!
//! This module is docs/rules/dipole.md turned into code, and depends on nothing else in the
//! crate. A [`Position`] is one bitboard of the dark squares per colour (which squares hold a
//! stack of that colour), a table of stack heights, the side to move, the variant and a Zobrist
//! hash updated with every move. Positions are `Copy`, so making a move returns a new one
//! (copy-make).
//!
//! The scheme, room by room: [`board`] the geometry (square numbering, directions), [`movegen`]
//! the moves (plain moves, merges, captures, exits, the pass) and their bulk count for perft,
//! [`notation`] FEN and move text, [`zobrist`] the hash keys, [`eval`] the static evaluation (its weights in `weights_dipole` and `weights_dipole10`).

pub mod board;
pub mod eval;
pub mod game;
pub mod movegen;
pub mod notation;
mod weights_dipole;
mod weights_dipole10;
pub mod zobrist;

pub use board::{Square, Variant};
pub use movegen::{MAX_MOVES, MoveList};
pub use notation::{FenError, MoveError};

use board::MAX_SQUARES;
use std::fmt;

/// One of the two players, and the colour of his checkers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// White: starts on rank 1, moves up, moves first.
    White,
    /// Black: starts on the top rank, moves down.
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

    /// The rank step of a forward move: +1 for White, -1 for Black.
    pub const fn forward(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// The FEN letter of the colour's stacks and of its side to move: `w` or `b`.
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

/// What a move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// Top checkers move to a square of the board: a plain move, a merge or a capture.
    Step,
    /// Top checkers leave the board forward.
    Exit,
    /// No move was possible.
    Pass,
}

/// A move, written in board coordinates so that it prints without its position: `e1e5`,
/// `e1off5`, `pass`. A coordinate byte is `rank * 16 + file`; an exit stores [`EXIT_BASE`] + k
/// as its destination, and the pass [`PASS_BYTE`] in both bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
}

/// The destination byte of an exit of k checkers is `EXIT_BASE + k` (above every coordinate).
const EXIT_BASE: u8 = 0xA0;
/// Both bytes of the pass.
const PASS_BYTE: u8 = 0xFF;

impl Move {
    /// The pass.
    pub const PASS: Move = Move { from: PASS_BYTE, to: PASS_BYTE };

    /// The top checkers of `(file, rank)` move to `(to_file, to_rank)`.
    pub const fn step(from: (i32, i32), to: (i32, i32)) -> Move {
        Move { from: (from.1 * 16 + from.0) as u8, to: (to.1 * 16 + to.0) as u8 }
    }

    /// The top `k` checkers of `(file, rank)` leave the board.
    pub const fn exit(from: (i32, i32), k: u32) -> Move {
        Move { from: (from.1 * 16 + from.0) as u8, to: EXIT_BASE + k as u8 }
    }

    /// What the move does.
    pub const fn kind(self) -> MoveKind {
        if self.from == PASS_BYTE {
            MoveKind::Pass
        } else if self.to >= EXIT_BASE {
            MoveKind::Exit
        } else {
            MoveKind::Step
        }
    }

    /// The starting `(file, rank)` (meaningless for the pass).
    pub const fn from(self) -> (i32, i32) {
        ((self.from % 16) as i32, (self.from / 16) as i32)
    }

    /// The landing `(file, rank)` of a step (meaningless otherwise).
    pub const fn to(self) -> (i32, i32) {
        ((self.to % 16) as i32, (self.to / 16) as i32)
    }

    /// The number k of checkers that move (0 for the pass).
    pub const fn count(self) -> u32 {
        match self.kind() {
            MoveKind::Pass => 0,
            MoveKind::Exit => (self.to - EXIT_BASE) as u32,
            MoveKind::Step => {
                let (f0, r0) = self.from();
                let (f1, r1) = self.to();
                let (df, dr) = ((f1 - f0).unsigned_abs(), (r1 - r0).unsigned_abs());
                if df > dr { df } else { dr }
            }
        }
    }

    /// A 16-bit code, unique among the moves of any position: the two bytes.
    pub const fn code(self) -> u16 {
        (self.from as u16) << 8 | self.to as u16
    }
}

impl fmt::Display for Move {
    /// The move notation: `e1e5`, `e1off5`, `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |(file, rank): (i32, i32)| board::coordinate_name(file, rank);
        match self.kind() {
            MoveKind::Pass => f.write_str("pass"),
            MoveKind::Exit => write!(f, "{}off{}", name(self.from()), self.count()),
            MoveKind::Step => write!(f, "{}{}", name(self.from()), name(self.to())),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A position: the stacks, the side to move and the variant.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    variant: Variant,
    side: Color,
    /// The squares holding a stack of each colour.
    stacks: [u64; 2],
    /// The height of the stack on each square (0 where there is none).
    heights: [u8; MAX_SQUARES],
    /// Checkers on the board, per colour.
    checkers: [u8; 2],
    hash: u64,
}

impl Position {
    /// The start position of `variant`.
    pub fn startpos(variant: Variant) -> Position {
        Position::from_fen(variant, variant.start_fen()).expect("the start FEN is valid")
    }

    /// An empty board of `variant` with `side` to move (not a valid position by itself).
    pub(crate) fn empty(variant: Variant, side: Color) -> Position {
        let mut pos =
            Position { variant, side, stacks: [0; 2], heights: [0; MAX_SQUARES], checkers: [0; 2], hash: 0 };
        pos.hash = zobrist::hash_from_scratch(&pos);
        pos
    }

    /// The variant.
    pub const fn variant(&self) -> Variant {
        self.variant
    }

    /// The side to move.
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// The squares holding a stack of `color`.
    pub const fn stacks(&self, color: Color) -> u64 {
        self.stacks[color.index()]
    }

    /// The stack on `square`: its colour and height.
    pub fn stack_at(&self, square: Square) -> Option<(Color, u32)> {
        let bit = 1u64 << square;
        let height = u32::from(self.heights[square as usize]);
        if self.stacks[0] & bit != 0 {
            Some((Color::White, height))
        } else if self.stacks[1] & bit != 0 {
            Some((Color::Black, height))
        } else {
            None
        }
    }

    /// The checkers of `color` on the board.
    pub const fn checkers(&self, color: Color) -> u32 {
        self.checkers[color.index()] as u32
    }

    /// The Zobrist hash (stacks and side to move).
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The winner of a finished game: the player who still has checkers.
    pub const fn winner(&self) -> Option<Color> {
        if self.checkers[0] == 0 {
            Some(Color::Black)
        } else if self.checkers[1] == 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// True when one player has no checkers left.
    pub const fn is_game_over(&self) -> bool {
        self.winner().is_some()
    }

    /// Every legal move (none in a finished game; only the pass when nothing else is legal).
    pub fn legal_moves(&self) -> MoveList {
        movegen::legal_moves(self)
    }

    /// The position after the legal move `mv` (not checked: use [`Position::parse_move`] for
    /// untrusted text).
    pub fn make_move(&self, mv: Move) -> Position {
        let mut next = *self;
        let us = self.side;
        match mv.kind() {
            MoveKind::Pass => {}
            MoveKind::Exit => {
                let (file, rank) = mv.from();
                let from = self.variant.square(file, rank).expect("a move starts on a dark square");
                next.lift(from, mv.count());
                next.checkers[us.index()] -= mv.count() as u8;
            }
            MoveKind::Step => {
                let ((f0, r0), (f1, r1)) = (mv.from(), mv.to());
                let from = self.variant.square(f0, r0).expect("a move starts on a dark square");
                let to = self.variant.square(f1, r1).expect("a step lands on a dark square");
                let k = mv.count();
                next.lift(from, k);
                match self.stack_at(to) {
                    None => next.put(to, us, k),
                    Some((color, height)) if color == us => {
                        next.remove(to);
                        next.put(to, us, height + k);
                    }
                    Some((color, height)) => {
                        next.remove(to);
                        next.checkers[color.index()] -= height as u8;
                        next.put(to, us, k);
                    }
                }
            }
        }
        next.side = us.opponent();
        next.hash ^= zobrist::SIDE_KEY;
        next
    }

    /// Removes the top `k` checkers of the stack on `square` from it (the stack must be that
    /// high); the checkers themselves are accounted for by the caller.
    fn lift(&mut self, square: Square, k: u32) {
        let (color, height) = self.stack_at(square).expect("a move starts on a stack");
        self.remove(square);
        if height > k {
            self.put(square, color, height - k);
        }
    }

    /// Empties `square` (updating the hash, not the checker counts).
    fn remove(&mut self, square: Square) {
        if let Some((color, height)) = self.stack_at(square) {
            self.hash ^= zobrist::stack_key(color, square, height);
            self.stacks[color.index()] &= !(1u64 << square);
            self.heights[square as usize] = 0;
        }
    }

    /// Puts a stack on the empty `square` (updating the hash, not the checker counts).
    fn put(&mut self, square: Square, color: Color, height: u32) {
        self.stacks[color.index()] |= 1u64 << square;
        self.heights[square as usize] = height as u8;
        self.hash ^= zobrist::stack_key(color, square, height);
    }

    /// Places a stack while building a position (counts and hash included).
    pub(crate) fn place(&mut self, square: Square, color: Color, height: u32) {
        self.put(square, color, height);
        self.checkers[color.index()] += height as u8;
    }

    /// The FEN (the canonical spelling of docs/rules/dipole.md).
    pub fn to_fen(&self) -> String {
        notation::format_fen(self)
    }

    /// Reads a FEN of `variant`, rejecting anything the rules do not allow.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Position, FenError> {
        notation::parse_fen(variant, fen)
    }

    /// The legal move written `text` in this position.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(self, text)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {})", self.variant.name(), self.to_fen())
    }
}
