//! Zobrist hashing: a random key per (colour, square, stack height) and one for Black to move.
//!
//! A position's hash is the XOR of the keys of its stacks, and of [`SIDE_KEY`] when Black is to
//! move. A move changes a few stacks, so [`super::Position::make_move`] updates the hash by
//! XORing out the old stacks and in the new ones; [`hash_from_scratch`] recomputes it, for
//! building positions and for tests. The keys are made at compile time by SplitMix64 from a
//! fixed seed, so hashes are the same in every run (this module needs nothing outside the
//! rules, so it has its own few lines of SplitMix64).

use super::board::{MAX_SQUARES, Square};
use super::{Color, Position};

/// The tallest stack: every checker of the larger variant on one square.
const MAX_HEIGHT: usize = 20;

/// SplitMix64's output function.
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The keys, indexed by colour, square and height (height 0 unused).
static KEYS: [[[u64; MAX_HEIGHT + 1]; MAX_SQUARES]; 2] = {
    let mut keys = [[[0u64; MAX_HEIGHT + 1]; MAX_SQUARES]; 2];
    let mut state: u64 = 0xD1B5_4A32_D192_ED03;
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < MAX_SQUARES {
            let mut h = 1;
            while h <= MAX_HEIGHT {
                state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                keys[c][s][h] = mix(state);
                h += 1;
            }
            s += 1;
        }
        c += 1;
    }
    keys
};

/// XORed into the hash when Black is to move.
pub const SIDE_KEY: u64 = mix(0x5EED_D1B0_1E00_0001);

/// The key of a stack of `height` checkers of `color` on `square`.
#[inline]
pub fn stack_key(color: Color, square: Square, height: u32) -> u64 {
    KEYS[color.index()][square as usize][height as usize]
}

/// The hash of `pos` computed from its stacks.
pub fn hash_from_scratch(pos: &Position) -> u64 {
    let mut hash = if pos.side_to_move() == Color::Black { SIDE_KEY } else { 0 };
    for square in 0..pos.variant().squares() as Square {
        if let Some((color, height)) = pos.stack_at(square) {
            hash ^= stack_key(color, square, height);
        }
    }
    hash
}
