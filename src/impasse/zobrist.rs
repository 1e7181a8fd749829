//! Zobrist hashing: one random key per (colour, single or double, square), and one for Black to
//! move. The keys are made at compile time by SplitMix64 from a fixed seed, so hashes are the
//! same in every build and on every machine.
//!
//! Making a move changes only a few squares, so [`difference`] XORs the keys of just the squares
//! whose content changed between two positions; `make_move` applies it to keep the hash
//! incremental, and [`hash_from_scratch`] is the definition it must agree with.

use super::board::Squares;
use super::{Color, Position};

/// SplitMix64 (Steele, Lea and Flood): a tiny generator whose outputs are well-mixed 64-bit keys.
const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Keys indexed by `[colour][0 = single, 1 = double][square]`, then the side key.
const fn make_keys() -> ([[[u64; 32]; 2]; 2], u64) {
    let mut keys = [[[0u64; 32]; 2]; 2];
    let mut state = 0x5EE5_E1A5_5E11_0001;
    let mut i = 0;
    while i < 128 {
        let (next, key) = splitmix64(state);
        state = next;
        keys[i / 64][(i / 32) % 2][i % 32] = key;
        i += 1;
    }
    let (_, side) = splitmix64(state);
    (keys, side)
}

const KEYS: ([[[u64; 32]; 2]; 2], u64) = make_keys();
/// XORed into the hash when Black is to move.
const BLACK_TO_MOVE: u64 = KEYS.1;

/// The XOR of the keys of every square of `changed` for `colour` and piece kind `kind`.
#[inline(always)]
fn keys_of(colour: usize, kind: usize, changed: u32) -> u64 {
    Squares(changed).fold(0, |h, sq| h ^ KEYS.0[colour][kind][sq.index()])
}

/// The hash of `pos` computed from every piece (the definition).
pub fn hash_from_scratch(pos: &Position) -> u64 {
    let side = if pos.side_to_move() == Color::Black { BLACK_TO_MOVE } else { 0 };
    [Color::White, Color::Black]
        .into_iter()
        .fold(side, |h, c| h ^ keys_of(c.index(), 0, pos.singles(c)) ^ keys_of(c.index(), 1, pos.doubles(c)))
}

/// `hash_from_scratch(a) ^ hash_from_scratch(b)`, computed from the squares that differ.
#[inline(always)]
pub fn difference(a: &Position, b: &Position) -> u64 {
    let side = if a.side_to_move() != b.side_to_move() { BLACK_TO_MOVE } else { 0 };
    [Color::White, Color::Black].into_iter().fold(side, |h, c| {
        h ^ keys_of(c.index(), 0, a.singles(c) ^ b.singles(c))
            ^ keys_of(c.index(), 1, a.doubles(c) ^ b.doubles(c))
    })
}
