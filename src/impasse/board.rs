//! Board geometry: square numbering, masks and the diagonal shifts.
//!
//! Impasse uses only the 32 dark squares of an 8x8 board. With file `f` (a..h = 0..7) and rank
//! `r` (1..8 = 0..7) a square is dark iff `f + r` is even, so a1 is dark. Each dark square gets
//! an index `s = 4 * r + f / 2`, which packs a rank into one nibble of a `u32`:
//!
//! ```text
//!   rank 8 | . 28 . 29 . 30 . 31      odd ranks (2,4,6,8) hold files b d f h
//!   rank 7 | 24 . 25 . 26 . 27 .      even ranks (1,3,5,7) hold files a c e g
//!   rank 6 | . 20 . 21 . 22 . 23
//!   rank 5 | 16 . 17 . 18 . 19 .
//!   rank 4 | . 12 . 13 . 14 . 15
//!   rank 3 |  8 .  9 . 10 . 11 .
//!   rank 2 | .  4 .  5 .  6 .  7
//!   rank 1 |  0 .  1 .  2 .  3 .
//!            a  b  c  d  e  f  g  h
//! ```
//!
//! A diagonal step changes the rank by one, so the index changes by 4 plus or minus a
//! correction that depends on the parity of the rank (the classic 32-square checkers layout):
//!
//! | step       | from an even rank (a,c,e,g) | from an odd rank (b,d,f,h) |
//! |------------|-----------------------------|----------------------------|
//! | up-left    | `+3` (not from file a)      | `+4`                       |
//! | up-right   | `+4`                        | `+5` (not from file h)     |
//! | down-left  | `-5` (not from file a)      | `-4`                       |
//! | down-right | `-4`                        | `-3` (not from file h)     |
//!
//! [`shift`] applies one step to a whole set of squares at once: mask off the squares whose
//! step would wrap around the board edge, then shift the even-rank and odd-rank halves by their
//! amounts. Steps off the top or bottom of the board simply fall out of the `u32`.

use std::fmt;

/// A set of dark squares, one bit per square index (see the module docs).
pub type Bitboard = u32;

/// Every dark square.
pub const ALL: Bitboard = u32::MAX;
/// Squares on ranks 1, 3, 5 and 7 (files a, c, e, g).
pub const EVEN_RANKS: Bitboard = 0x0F0F_0F0F;
/// Squares on ranks 2, 4, 6 and 8 (files b, d, f, h).
pub const ODD_RANKS: Bitboard = 0xF0F0_F0F0;
/// The left-most dark square of every rank (file a or b).
pub const LEFT_COLUMN: Bitboard = 0x1111_1111;
/// The right-most dark square of every rank (file g or h).
pub const RIGHT_COLUMN: Bitboard = 0x8888_8888;

/// The four dark squares of rank `r` (0-based).
pub const fn rank_mask(r: u8) -> Bitboard {
    0xF << (4 * r)
}

/// The four diagonal directions, named from White's point of view (up = toward rank 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Toward rank 8 and file a.
    UpLeft,
    /// Toward rank 8 and file h.
    UpRight,
    /// Toward rank 1 and file a.
    DownLeft,
    /// Toward rank 1 and file h.
    DownRight,
}

/// Moves every square of `b` one diagonal step in direction `dir`; squares whose step would
/// leave the board disappear.
#[inline(always)]
pub const fn shift(b: Bitboard, dir: Direction) -> Bitboard {
    match dir {
        Direction::UpLeft => ((b & EVEN_RANKS & !LEFT_COLUMN) << 3) | ((b & ODD_RANKS) << 4),
        Direction::UpRight => ((b & EVEN_RANKS) << 4) | ((b & ODD_RANKS & !RIGHT_COLUMN) << 5),
        Direction::DownLeft => ((b & EVEN_RANKS & !LEFT_COLUMN) >> 5) | ((b & ODD_RANKS) >> 4),
        Direction::DownRight => ((b & EVEN_RANKS) >> 4) | ((b & ODD_RANKS & !RIGHT_COLUMN) >> 3),
    }
}

/// Iterates over the squares of a bitboard, lowest index first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub Bitboard);

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

/// One of the 32 dark squares, by index 0..32 (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square with index `index`, if it is below 32.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 32 { Some(Square(index)) } else { None }
    }

    /// The dark square at 0-based `file` and `rank`; `None` for a light or off-board square.
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 && (file + rank).is_multiple_of(2) {
            Some(Square(4 * rank + file / 2))
        } else {
            None
        }
    }

    /// Parses a square name such as `d2` (files a..h, ranks 1..8; only dark squares).
    pub fn parse(text: &str) -> Result<Square, String> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 || !(b'a'..=b'h').contains(&bytes[0]) || !(b'1'..=b'8').contains(&bytes[1]) {
            return Err(format!("'{text}' is not a square (expected a1..h8)"));
        }
        Square::from_file_rank(bytes[0] - b'a', bytes[1] - b'1').ok_or_else(|| {
            format!("'{text}' is a light square; only dark squares (a1, c1, b2, ...) are used")
        })
    }

    /// The index 0..32.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The 0-based rank (0 = rank 1).
    pub const fn rank(self) -> u8 {
        self.0 / 4
    }

    /// The 0-based file (0 = file a).
    pub const fn file(self) -> u8 {
        2 * (self.0 % 4) + (self.0 / 4) % 2
    }

    /// The single-bit bitboard of this square.
    #[inline(always)]
    pub const fn bit(self) -> Bitboard {
        1 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, (b'1' + self.rank()) as char)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference geometry: step by file and rank, then map back to an index.
    fn step(sq: Square, df: i8, dr: i8) -> Bitboard {
        let (f, r) = (sq.file() as i8 + df, sq.rank() as i8 + dr);
        if (0..8).contains(&f) && (0..8).contains(&r) {
            Square::from_file_rank(f as u8, r as u8).expect("diagonal step stays dark").bit()
        } else {
            0
        }
    }

    #[test]
    fn square_names_round_trip() {
        for i in 0..32 {
            let sq = Square::new(i).unwrap();
            assert_eq!(Square::parse(&sq.to_string()), Ok(sq));
            assert_eq!((sq.file() + sq.rank()) % 2, 0, "{sq} must be dark");
        }
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("h8").unwrap().index(), 31);
        assert!(Square::parse("b1").is_err());
        assert!(Square::parse("i1").is_err());
        assert!(Square::parse("a9").is_err());
        assert!(Square::parse("a").is_err());
    }

    #[test]
    fn shifts_match_file_rank_steps() {
        let dirs = [
            (Direction::UpLeft, -1, 1),
            (Direction::UpRight, 1, 1),
            (Direction::DownLeft, -1, -1),
            (Direction::DownRight, 1, -1),
        ];
        for i in 0..32 {
            let sq = Square::new(i).unwrap();
            for (dir, df, dr) in dirs {
                assert_eq!(shift(sq.bit(), dir), step(sq, df, dr), "{sq} {dir:?}");
            }
        }
    }
}
