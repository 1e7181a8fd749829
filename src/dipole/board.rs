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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `dipole`: 8x8, a stack of 12 checkers each (the standard form).
    #[default]
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

/// For each direction of [`DIRECTIONS`], the index of the same direction seen from Black
/// (rank step negated): Black's forward directions are `MIRRORED[0..3]`.
pub const MIRRORED: [usize; 8] = [5, 6, 7, 3, 4, 0, 1, 2];

/// The lines from every square: for each square and direction of [`DIRECTIONS`], the dark
/// squares a move can land on (k squares away for k = 1, 2, ... while on the board; only even k
/// orthogonally, since odd k land on light squares) as a set, and how many they are.
pub struct Rays {
    /// The landing squares of each square and direction.
    pub squares: [[u64; 8]; MAX_SQUARES],
    /// Their number: the largest k that stays on the board, halved for orthogonal lines.
    pub count: [[u8; 8]; MAX_SQUARES],
}

impl Rays {
    /// The rays of `variant`, computed at compile time.
    const fn of(variant: Variant) -> Rays {
        let mut rays = Rays { squares: [[0; 8]; MAX_SQUARES], count: [[0; 8]; MAX_SQUARES] };
        let mut square = 0;
        while square < variant.squares() {
            let (file, rank) = variant.coordinates(square as Square);
            let mut direction = 0;
            while direction < 8 {
                let (df, dr) = DIRECTIONS[direction];
                let mut k = 1;
                while variant.on_board(file + df * k, rank + dr * k) {
                    if let Some(target) = variant.square(file + df * k, rank + dr * k) {
                        rays.squares[square][direction] |= 1 << target;
                        rays.count[square][direction] += 1;
                    }
                    k += 1;
                }
                direction += 1;
            }
            square += 1;
        }
        rays
    }

    /// The rays of `variant`.
    #[inline(always)]
    pub fn get(variant: Variant) -> &'static Rays {
        match variant {
            Variant::Dipole => &RAYS_8,
            Variant::Dipole10 => &RAYS_10,
        }
    }
}

static RAYS_8: Rays = Rays::of(Variant::Dipole);
static RAYS_10: Rays = Rays::of(Variant::Dipole10);

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

    #[test]
    fn rays_hold_the_landing_squares() {
        let rays = Rays::get(Variant::Dipole);
        let e1 = Variant::Dipole.square(4, 0).unwrap();
        let names = |set: u64| {
            let mut names: Vec<String> = (0..32u8)
                .filter(|sq| set >> sq & 1 == 1)
                .map(|sq| {
                    let (f, r) = Variant::Dipole.coordinates(sq);
                    coordinate_name(f, r)
                })
                .collect();
            names.sort();
            names
        };
        // Up-left to a5, straight up at even distances, nothing downwards.
        assert_eq!(names(rays.squares[e1 as usize][0]), ["a5", "b4", "c3", "d2"]);
        assert_eq!(names(rays.squares[e1 as usize][1]), ["e3", "e5", "e7"]);
        assert_eq!(rays.count[e1 as usize][1], 3);
        assert_eq!(rays.squares[e1 as usize][6], 0);
        for (direction, &mirror) in MIRRORED.iter().enumerate() {
            let (df, dr) = DIRECTIONS[direction];
            assert_eq!(DIRECTIONS[mirror], (df, -dr));
        }
    }
}
