//! The exact value of a position as the exhaustive test solvers compute it (engine-tests/impasse_solver
//! for Impasse, engine-tests/dipole_solver for Dipole), in plies, and its EPD form.

/// The exact value of a position for the side to move, in plies (moves of either side) with
/// best play: the winner hurrying, the loser resisting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Exact {
    /// The side to move wins in this many plies (in Impasse always odd; in Dipole even when the
    /// loser ends the game by moving his own last checkers off, and 0 once he has).
    Win(u32),
    /// The side to move loses in this many plies (0: the game is over and he has lost).
    Loss(u32),
}

impl Exact {
    /// The value in the side to move's own moves, as written in EPD (the UCI `mate` count):
    /// `win N` / `loss N` with N = ceil(plies / 2).
    pub fn epd(self) -> String {
        match self.own_moves() {
            (true, n) => format!("win {n}"),
            (false, n) => format!("loss {n}"),
        }
    }

    /// Whether the side to move wins, and the distance in own moves (the N of [`Exact::epd`]).
    pub fn own_moves(self) -> (bool, u32) {
        match self {
            Exact::Win(p) => (true, p.div_ceil(2)),
            Exact::Loss(p) => (false, p.div_ceil(2)),
        }
    }

    /// The distance in plies.
    pub fn plies(self) -> u32 {
        match self {
            Exact::Win(p) | Exact::Loss(p) => p,
        }
    }

    /// The value, for the player who moved, of the position before a move that led to `self`
    /// (one ply further, seen from the other side).
    pub fn parent(self) -> Exact {
        match self {
            Exact::Win(p) => Exact::Loss(p + 1),
            Exact::Loss(p) => Exact::Win(p + 1),
        }
    }

    /// Packs the value into 32 bits for a solver's table: the plies and a win bit.
    pub fn pack(self) -> u32 {
        match self {
            Exact::Win(p) => p << 1 | 1,
            Exact::Loss(p) => p << 1,
        }
    }

    /// The inverse of [`Exact::pack`].
    pub fn unpack(bits: u32) -> Exact {
        if bits & 1 == 1 { Exact::Win(bits >> 1) } else { Exact::Loss(bits >> 1) }
    }
}
