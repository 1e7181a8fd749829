//! The static evaluation of a Dipole position, in hundredths of a checker, from the point of
//! view of the side to move: a weighted sum of features ([`crate::game::LinearEval`]), whose
//! weights `steere tune` fits to the results of self-play games (docs/tuning.md) and keeps in one
//! generated file per variant (`weights_dipole.rs`, `weights_dipole10.rs`).
//!
//! The features, each the side to move's count minus the opponent's unless said otherwise:
//! - **`to_go_K`** (K = 1 to the board's size): the checkers with K ranks to go before the far
//!   edge, their own rank included (the `D` of docs/rules/dipole.md), so a stack of height h
//!   counts h times. A player loses when he has no checker left and every capture or exit
//!   changes the count for good, so these carry the material; and every plain move or merge
//!   spends ranks, so a checker far from the edge is worth more than one about to leave: the
//!   supply of waiting moves decides blocked positions.
//! - **`stacks_1`, `stacks_2`, `stacks_3_4`, `stacks_5_up`**: the stacks by height. A tall
//!   stack moves far and captures tall stacks, but it is one target; singles are many and slow.
//! - **`reach`**: for each stack, the forward moves its geometry allows: the k (up to its
//!   height) that stay on the board diagonally forward left, diagonally forward right and (even
//!   k only) straight forward. It ignores what stands on the target squares, so it costs a few
//!   operations per stack; a player short of moves is forced into bad exits and sacrifices.
//! - **`threat`**: the height of the tallest enemy stack the side to move can capture now (it is
//!   his move, so this is nearly material in hand); the side to move's only.
//! - **`tempo`**: 1 (the value of having the move).
//!
//! **History.** The first evaluation (before issue 28) was 100 per checker, 15 per rank to go,
//! 8 per move of reach and 60 per checker of threat, set by 298-game matches one change at a
//! time (reserve 3 -> 15 and reach 0 -> 8 gained most; a penalty for exposed stacks and a
//! bonus per checker above the fourth of a stack measured nothing); the start weights of
//! issue 28 give it exactly (tested below).
//!
//! The colour symmetry is exact: rotating the board by 180 degrees and swapping the colours and
//! the side to move gives the same features (tested below).

use super::board::{DIRECTIONS, MAX_SIZE};
use super::{Color, Position, Variant};
use crate::game::LinearEval;

/// The most features of a variant (on 10x10).
pub const MAX_FEATURES: usize = MAX_SIZE + OTHER_FEATURES;

/// The number of features after the `to_go_K` (`stacks_1` to `tempo`).
const OTHER_FEATURES: usize = 7;

/// The number of features of `variant`: `to_go_1` to `to_go_SIZE`, then the others.
pub fn feature_count(variant: Variant) -> usize {
    variant.size() + OTHER_FEATURES
}

/// The features after the `to_go_K`, as offsets from the variant's size.
#[derive(Clone, Copy)]
#[repr(usize)]
enum Other {
    Stacks1,
    Stacks2,
    Stacks3To4,
    Stacks5Up,
    Reach,
    Threat,
    Tempo,
}

/// The names of [`Other`], in order.
const OTHER_NAMES: [&str; OTHER_FEATURES] =
    ["stacks_1", "stacks_2", "stacks_3_4", "stacks_5_up", "reach", "threat", "tempo"];

/// The index of an [`Other`] feature on a board of `size`.
#[inline(always)]
const fn index(size: usize, feature: Other) -> usize {
    size + feature as usize
}

/// The names of the features of `variant`, in order.
pub fn feature_names(variant: Variant) -> Vec<String> {
    let mut names: Vec<String> = (1..=variant.size()).map(|k| format!("to_go_{k}")).collect();
    names.extend(OTHER_NAMES.map(String::from));
    names
}

/// The engine's weights for `variant` (its generated file of `steere tune`).
pub fn weights(variant: Variant) -> &'static [i32] {
    match variant {
        Variant::Dipole => &super::weights_dipole::WEIGHTS_DIPOLE,
        Variant::Dipole10 => &super::weights_dipole10::WEIGHTS_DIPOLE10,
    }
}

/// The bucket of [`Other`] of a stack of `height`.
#[inline(always)]
const fn height_bucket(height: i32) -> Other {
    match height {
        1 => Other::Stacks1,
        2 => Other::Stacks2,
        3 | 4 => Other::Stacks3To4,
        _ => Other::Stacks5Up,
    }
}

/// What the evaluation needs of one stack.
#[derive(Clone, Copy)]
struct StackTerms {
    /// Its checkers.
    height: i32,
    /// Its ranks to go, its own included (1 to the board's size).
    to_go: i32,
    /// Its forward moves by geometry ([`stack_reach`]).
    reach: i32,
}

/// The stacks of `color`, one [`StackTerms`] each (the one loop of the features and of the
/// evaluation).
#[inline(always)]
fn stack_terms(pos: &Position, color: Color) -> impl Iterator<Item = StackTerms> + '_ {
    let size = pos.variant().size() as i32;
    let mut bits = pos.stacks(color);
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let square = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        let height = pos.heights[square as usize] as i32;
        let (file, rank) = pos.variant().coordinates(square);
        let to_go = if color == Color::White { size - rank } else { rank + 1 };
        Some(StackTerms { height, to_go, reach: stack_reach(height, file, to_go - 1, size) })
    })
}

/// Adds the per-stack features of `color` into `out`, times `sign`.
#[inline(always)]
fn add_stack_features(pos: &Position, color: Color, sign: i32, out: &mut [i32; MAX_FEATURES]) {
    let size = pos.variant().size();
    for stack in stack_terms(pos, color) {
        out[stack.to_go as usize - 1] += sign * stack.height;
        out[index(size, height_bucket(stack.height))] += sign;
        out[index(size, Other::Reach)] += sign * stack.reach;
    }
}

/// The features of `pos` (not finished) from the side to move's point of view; the first
/// [`feature_count`] entries are used.
#[inline(always)]
pub fn features(pos: &Position) -> [i32; MAX_FEATURES] {
    let size = pos.variant().size();
    let us = pos.side_to_move();
    let mut out = [0; MAX_FEATURES];
    add_stack_features(pos, us, 1, &mut out);
    add_stack_features(pos, us.opponent(), -1, &mut out);
    out[index(size, Other::Threat)] = tallest_capture(pos, us) as i32;
    out[index(size, Other::Tempo)] = 1;
    out
}

/// The evaluation with weights `w` (one per feature of the variant), for the side to move: the
/// dot product of `w` and [`features`], summed stack by stack without building the features
/// (the search calls this at every leaf; the tests check that the two agree).
#[inline]
pub fn evaluate_with(pos: &Position, w: &[i32]) -> i32 {
    let size = pos.variant().size();
    let us = pos.side_to_move();
    side_score(pos, us, w) - side_score(pos, us.opponent(), w)
        + w[index(size, Other::Threat)] * tallest_capture(pos, us) as i32
        + w[index(size, Other::Tempo)]
}

/// The weighted sum of the per-stack features of `color` (see [`add_stack_features`]).
#[inline(always)]
fn side_score(pos: &Position, color: Color, w: &[i32]) -> i32 {
    let size = pos.variant().size();
    let (mut sum, mut reach) = (0, 0);
    for stack in stack_terms(pos, color) {
        sum += w[stack.to_go as usize - 1] * stack.height + w[index(size, height_bucket(stack.height))];
        reach += stack.reach;
    }
    sum + w[index(size, Other::Reach)] * reach
}

/// The evaluation of `pos` (not finished) with the engine's weights, for the side to move.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, weights(pos.variant()))
}

impl LinearEval for Position {
    fn feature_names(variant: Variant) -> Vec<String> {
        feature_names(variant)
    }

    fn weights(variant: Variant) -> &'static [i32] {
        weights(variant)
    }

    fn weights_file(variant: Variant) -> (&'static str, &'static str) {
        match variant {
            Variant::Dipole => ("src/dipole/weights_dipole.rs", "WEIGHTS_DIPOLE"),
            Variant::Dipole10 => ("src/dipole/weights_dipole10.rs", "WEIGHTS_DIPOLE10"),
        }
    }

    fn features(&self, out: &mut Vec<i32>) {
        out.clear();
        out.extend_from_slice(&features(self)[..feature_count(self.variant())]);
    }
}

/// The forward moves a stack of `height` on `file` with `ahead` ranks before the far edge has
/// by geometry alone: k squares diagonally left and right, and an even k straight ahead, while
/// the target is on the board.
fn stack_reach(height: i32, file: i32, ahead: i32, size: i32) -> i32 {
    let left = height.min(ahead.min(file));
    let right = height.min(ahead.min(size - 1 - file));
    let straight = (height / 2).min(ahead / 2);
    left + right + straight
}

/// The height of the tallest stack of the opponent of `by` that `by` could capture (0 if
/// none): a stack of height e at distance k on a line from a stack of
/// `by` of height at least k, with k >= e and k even on orthogonal lines.
fn tallest_capture(pos: &Position, by: Color) -> u32 {
    let variant = pos.variant();
    let mut best = 0;
    let mut own = pos.stacks(by);
    while own != 0 {
        let square = own.trailing_zeros() as u8;
        own &= own - 1;
        let height = pos.heights[square as usize] as i32;
        let (file, rank) = variant.coordinates(square);
        for &(df, dr) in &DIRECTIONS {
            let orthogonal = df == 0 || dr == 0;
            for k in 1..=height {
                if orthogonal && k % 2 != 0 {
                    continue;
                }
                let Some(target) = variant.square(file + df * k, rank + dr * k) else {
                    if !variant.on_board(file + df * k, rank + dr * k) {
                        break;
                    }
                    continue;
                };
                if let Some((color, enemy)) = pos.stack_at(target)
                    && color != by
                    && enemy <= k as u32
                {
                    best = best.max(enemy);
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests;
