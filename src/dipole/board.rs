//! The geometry of Dipole's boards: the two variants, squares, coordinates and directions.
//!
//! A board has `size` files and ranks (8 or 10); only the dark squares, those whose file and rank
//! indices (from 0, a1 = (0, 0)) have an even sum, hold checkers. The dark squares are numbered
//! rank by rank from a1, `size / 2` per rank:
//!
//! ```text
//! 8x8:  rank 8   .28 . 29 . 30 . 31        index = rank * (size / 2) + file / 2
//!       ...                                file  = 2 * (index % (size / 2)) + rank % 2
//!       rank 2    4 .  5 .  6 .  7 .
//!       rank 1  0 .  1 .  2 .  3 .         (a1 = 0, c1 = 1, ..., b2 = 4, ..., h8 = 31)
//! ```
//!
//! so a set of squares fits in a `u64` (32 bits used on 8x8, 50 on 10x10). A move of k checkers
//! goes exactly k squares along a line, light squares counted: diagonally, any k lands on a dark
//! square again (file and rank change by k each, so their sum changes by 0 or 2k); orthogonally
//! only an even k does, which is why orthogonal moves need an even k. Moves are generated on
//! (file, rank) coordinates, where these facts are plain arithmetic, and the result is stored on
//! square indices.

/// A dark square's index (see the module docs); below [`MAX_SQUARES`].
pub type Square = u8;

/// The largest board's side.
pub const MAX_SIZE: usize = 10;
/// The dark squares of the largest board.
pub const MAX_SQUARES: usize = MAX_SIZE * MAX_SIZE / 2;

/// The rule variants: the same rules on two boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `dipole`: 8x8, a stack of 12 checkers each.
    Dipole,
    /// `dipole10`: 10x10, a stack of 20 checkers each.
    Dipole10,
}

impl Variant {
    /// Both variants.
    pub const ALL: [Variant; 2] = [Variant::Dipole, Variant::Dipole10];

    /// The board's number of files (and ranks).
    pub const fn size(self) -> usize {
        match self {
            Variant::Dipole => 8,
            Variant::Dipole10 => 10,
        }
    }

    /// The number of dark squares.
    pub const fn squares(self) -> usize {
        self.size() * self.size() / 2
    }

    /// The checkers each player starts with (and may have at most).
    pub const fn checkers(self) -> u32 {
        match self {
            Variant::Dipole => 12,
            Variant::Dipole10 => 20,
        }
    }

    /// The variant's name: `dipole` or `dipole10`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Dipole => "dipole",
            Variant::Dipole10 => "dipole10",
        }
    }

    /// The variant of a name (exactly `dipole` or `dipole10`).
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    /// The FEN of the start position.
    pub const fn start_fen(self) -> &'static str {
        match self {
            Variant::Dipole => "3,b12,4/8/8/8/8/8/8/4,w12,3 w",
            Variant::Dipole10 => "5,b20,4/10/10/10/10/10/10/10/10/4,w20,5 w",
        }
    }

    /// The dark square at `(file, rank)`, or `None` for a light square or one off the board.
    #[inline]
    pub const fn square(self, file: i32, rank: i32) -> Option<Square> {
        let size = self.size() as i32;
        if file < 0 || rank < 0 || file >= size || rank >= size || (file + rank) % 2 != 0 {
            return None;
        }
        Some((rank * (size / 2) + file / 2) as Square)
    }

    /// The `(file, rank)` of a dark square.
    #[inline]
    pub const fn coordinates(self, square: Square) -> (i32, i32) {
        let half = (self.size() / 2) as i32;
        let rank = square as i32 / half;
        (2 * (square as i32 % half) + rank % 2, rank)
    }

    /// True when `(file, rank)` lies on the board.
    #[inline]
    pub const fn on_board(self, file: i32, rank: i32) -> bool {
        let size = self.size() as i32;
        file >= 0 && rank >= 0 && file < size && rank < size
    }
}

/// The 8 directions as (file step, rank step) seen from White (forward = up); Black's are the
/// same with the rank step negated. The first three are the forward ones.
pub const DIRECTIONS: [(i32, i32); 8] =
    [(-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (0, -1), (1, -1)];

/// The number of forward directions at the start of [`DIRECTIONS`].
pub const FORWARD_DIRECTIONS: usize = 3;

/// The name of the square at `(file, rank)`: its file letter and rank number, `e1`, `f10`.
pub fn coordinate_name(file: i32, rank: i32) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_coordinates_round_trip() {
        for variant in Variant::ALL {
            let size = variant.size() as i32;
            let mut seen = 0;
            for rank in 0..size {
                for file in 0..size {
                    match variant.square(file, rank) {
                        Some(sq) => {
                            assert_eq!(variant.coordinates(sq), (file, rank));
                            assert!((sq as usize) < variant.squares());
                            seen += 1;
                        }
                        None => assert_eq!((file + rank) % 2, 1),
                    }
                }
            }
            assert_eq!(seen, variant.squares());
        }
        assert_eq!(Variant::Dipole.square(4, 0), Some(2));
        assert_eq!(Variant::Dipole.square(7, 7), Some(31));
        assert_eq!(coordinate_name(5, 9), "f10");
    }
}
