//! Zobrist hashing: a random key per (colour, kind, cell) and one for Black to move.
//!
//! A position's hash is the XOR of the keys of its pieces, and of [`SIDE_KEY`] when Black is to
//! move; a move XORs out the pieces it removes and in the ones it places. Two positions with the
//! same pieces on the same cells and the same side to move (the rules' "same position" for
//! repetition) have the same hash. The keys are made at compile time by SplitMix64 from a fixed
//! seed, so hashes are the same in every run (the module has its own few lines of SplitMix64,
//! since the rules depend on nothing else in the crate).

use super::board::{CELLS, Cell, Cells};
use super::{Color, Kind, Position};

/// SplitMix64's output function.
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The keys, indexed by colour, kind (man, king) and cell.
static KEYS: [[[u64; CELLS]; 2]; 2] = {
    let mut keys = [[[0u64; CELLS]; 2]; 2];
    let mut state: u64 = 0x4E58_DA3E_0000_0061;
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 2 {
            let mut s = 0;
            while s < CELLS {
                state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                keys[c][k][s] = mix(state);
                s += 1;
            }
            k += 1;
        }
        c += 1;
    }
    keys
};

/// XORed into the hash when Black is to move.
pub const SIDE_KEY: u64 = mix(0x4E58_DA3E_51DE_0001);

/// The key of a piece of `color` and `kind` on `cell`.
#[inline(always)]
pub fn piece_key(color: Color, kind: Kind, cell: Cell) -> u64 {
    KEYS[color.index()][kind as usize][cell as usize]
}

/// The hash of `pos` computed from its pieces.
pub fn hash_from_scratch(pos: &Position) -> u64 {
    let mut hash = if pos.side_to_move() == Color::Black { SIDE_KEY } else { 0 };
    for color in [Color::White, Color::Black] {
        for kind in [Kind::Man, Kind::King] {
            for cell in Cells(pos.pieces(color, kind)) {
                hash ^= piece_key(color, kind, cell);
            }
        }
    }
    hash
}
