//! The value of a position at the end of a turn (the start of the next, or a finished game):
//! each player's chance of winning, or alone, the expected number of turns he still needs. The
//! value is **learned** (positions/cantstop-value.txt, made by `cargo run --release --example
//! cantstop_learn`: see `tools/cantstop_learn.rs` and docs/rules/cantstop.md).
//!
//! **Alone: the turns still needed.** Each column `c` with `r` spaces left is worth a learned
//! number of turns `T[c][r]` (a table, 0 for a won column, never less for more spaces left). A
//! player who must win `W` columns (3, 4 or 5, the game's option) takes the values of his
//! columns that are still his to win (those won by others are gone, his own won ones count 0),
//! sorts them, and the turns he needs are `b[W] + sum_j a[W][j] t_(j)` over the [`SLOTS`]
//! smallest, with learned weights `a[W][j] >= 0`: the slowest of the `W` columns he pursues
//! weighs most, the others and the next fallback column less. All of it (table, weights and
//! biases) was fitted, by policy iteration over self-play, to the turns that the engine's own
//! play (the exact within-turn expectimax at the depth of the measurements) still needed from
//! each turn's start: V(s) = 1 + E[V(s')], estimated by the games' outcomes.
//!
//! **With 2 to 4 players: the race.** Each player's turns still needed `m` (as alone, his rivals'
//! columns closed to him) is taken as the mean of a normal number of turns of variance
//! `spread * m`, `spread` learned by maximum likelihood from who won self-play games; from these
//! distributions and the order of play comes the chance that each is first to finish: player
//! `p` wins on his `n`-th turn if he needs exactly `n`, every player before him in the order
//! needs more than `n`, and every player after him more than `n - 1`.
//!
//! Everything within a turn (which pairing, when to stop, the chance of busting) is not modelled
//! here: the search weighs it exactly.

pub mod hand;

use super::Position;
use super::board::{COLUMNS, HEIGHTS};
use std::cell::Cell;
use std::sync::OnceLock;

/// The number of sorted column values the turns to go combine (enough for 5 columns to win and
/// a fallback).
pub const SLOTS: usize = 6;
/// The longest game the race's distributions cover, in turns of one player.
const HORIZON: usize = 80;
/// The most spaces of a column, plus one (the table's width: 0 to 13 spaces left).
pub const WIDTH: usize = 14;
/// The columns to win a model knows: 3, 4 and 5.
pub const W_RANGE: std::ops::RangeInclusive<u32> = 3..=5;

/// The shipped model's text, parsed once.
const SHIPPED: &str = include_str!("../../positions/cantstop-value.txt");

/// A learned value: the columns' table, the combinations per columns to win, the race's spread.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// `table[c][r]`: the turns-equivalent of the column of index `c` with `r` spaces left
    /// (`r` up to its height; 0 for 0 spaces left).
    pub table: [[f64; WIDTH]; COLUMNS],
    /// Per columns to win (3, 4, 5): the bias `b[W]`.
    pub bias: [f64; 3],
    /// Per columns to win (3, 4, 5): the weights of the sorted column values, smallest first.
    pub weights: [[f64; SLOTS]; 3],
    /// The variance of a player's turns still needed, per turn of its mean (2 to 4 players).
    pub spread: f64,
}

/// Which value a thread's search uses.
#[derive(Clone, Copy, Debug)]
pub enum Value<'a> {
    /// The shipped learned model (the default).
    Shipped,
    /// Another learned model (the learner's, while it learns).
    Learned(&'a Model),
    /// The previous hand-written model ([`hand`]).
    Hand,
}

thread_local! {
    /// This thread's value: null for the shipped one, [`HAND_MARK`] for the hand model.
    static ACTIVE: Cell<*const Model> = const { Cell::new(std::ptr::null()) };
}

/// The mark of the hand model in [`ACTIVE`] (never a model's address: models are aligned).
const HAND_MARK: *const Model = std::ptr::dangling();

/// Runs `f` with `value` as this thread's value (others are unaffected), restoring the previous
/// one after.
pub fn with_value<R>(value: Value<'_>, f: impl FnOnce() -> R) -> R {
    struct Restore(*const Model);
    impl Drop for Restore {
        fn drop(&mut self) {
            ACTIVE.with(|a| a.set(self.0));
        }
    }
    let ptr = match value {
        Value::Shipped => std::ptr::null(),
        Value::Learned(model) => model as *const Model,
        Value::Hand => HAND_MARK,
    };
    let _restore = Restore(ACTIVE.with(|a| a.replace(ptr)));
    f()
}

/// The shipped model.
pub fn shipped() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| Model::parse(SHIPPED).expect("positions/cantstop-value.txt parses"))
}

/// What `pos` (at the start of a turn, or finished) is worth to `player`: his chance of
/// winning, or alone, minus the expected number of turns he still needs.
pub fn value(pos: &Position, player: usize) -> f64 {
    let ptr = ACTIVE.with(Cell::get);
    if ptr == HAND_MARK {
        return hand::value(pos, player);
    }
    // SAFETY: a non-null, non-mark pointer was set by `with_value` from a reference that
    // outlives the call it wraps, on this thread.
    let model = if ptr.is_null() { shipped() } else { unsafe { &*ptr } };
    model.value(pos, player)
}

impl Model {
    /// What `pos` is worth to `player` under this model (see [`value`]).
    pub fn value(&self, pos: &Position, player: usize) -> f64 {
        if pos.players() == 1 {
            // Alone a won game needs 0 turns (the hand model counted it 1, a chance).
            return -self.turns_to_go(pos, player).unwrap_or(HORIZON as f64);
        }
        if let Some(winner) = pos.winner() {
            return if winner == player { 1.0 } else { 0.0 };
        }
        self.win_chances(pos)[player]
    }

    /// The expected number of turns `player` still needs from a turn's start (0 once he has
    /// won; at least 1 otherwise, and never less than with fewer columns to win), or `None` if
    /// too few columns are left to him to win.
    pub fn turns_to_go(&self, pos: &Position, player: usize) -> Option<f64> {
        let w = pos.columns_to_win();
        if pos.won_count(player) >= w {
            return Some(0.0);
        }
        let (values, n) = column_values(self, pos, player);
        if n < w as usize {
            return None;
        }
        // Never less than with fewer columns to win: the most of the combinations from 3 to W.
        let raw = (*W_RANGE.start()..=w.min(*W_RANGE.end())).map(|v| self.combine(v, &values[..n]));
        Some(raw.fold(1.0, f64::max))
    }

    /// The turns to go for `w` columns to win from the sorted column values `sorted` (raw:
    /// not held to at least 1).
    pub fn combine(&self, w: u32, sorted: &[f64]) -> f64 {
        let k = w_index(w);
        self.bias[k] + sorted.iter().zip(&self.weights[k]).map(|(t, a)| t * a).sum::<f64>()
    }

    /// Each player's chance of winning (summing to 1 over the players who can still win, with
    /// the player to move playing first).
    pub fn win_chances(&self, pos: &Position) -> Vec<f64> {
        let n_players = pos.players();
        let order: Vec<usize> = (0..n_players).map(|i| (pos.to_move() + i) % n_players).collect();
        let means: Vec<Option<f64>> = order.iter().map(|&p| self.turns_to_go(pos, p)).collect();
        let in_order = race(&means, self.spread);
        let mut chances = vec![0.0; n_players];
        for (i, &p) in order.iter().enumerate() {
            chances[p] = in_order[i];
        }
        chances
    }

    /// The model as the text of positions/cantstop-value.txt (with `header` comment lines first).
    pub fn to_text(&self, header: &[String]) -> String {
        let mut text: String = header.iter().map(|l| format!("# {l}\n")).collect();
        for (c, row) in self.table.iter().enumerate() {
            let cells: Vec<String> = row[..=HEIGHTS[c] as usize].iter().map(|v| format!("{v:.4}")).collect();
            text.push_str(&format!("column {} {}\n", super::board::name(c), cells.join(" ")));
        }
        for w in W_RANGE {
            let k = w_index(w);
            let weights: Vec<String> = self.weights[k].iter().map(|v| format!("{v:.4}")).collect();
            text.push_str(&format!("combine {w} {:.4} {}\n", self.bias[k], weights.join(" ")));
        }
        text.push_str(&format!("spread {:.4}\n", self.spread));
        text
    }

    /// Reads the text of [`Model::to_text`]: every column with every number of spaces left
    /// (0 to its height, 0 worth 0, never decreasing), a combination for 3, 4 and 5 columns to
    /// win (weights not negative), the spread (positive); `#` starts a comment.
    pub fn parse(text: &str) -> Result<Model, String> {
        let mut model =
            Model { table: [[0.0; WIDTH]; COLUMNS], bias: [0.0; 3], weights: [[0.0; SLOTS]; 3], spread: 0.0 };
        let (mut columns, mut combines, mut spread) = (0u16, 0u8, false);
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let fail = |what: &str| format!("line {}: {what}: {line}", n + 1);
            let mut words = line.split_whitespace();
            let key = words.next().unwrap_or("");
            let label: u32 = match key {
                "spread" => 0,
                _ => words
                    .next()
                    .and_then(|w| w.parse().ok())
                    .ok_or_else(|| fail("no number after the key"))?,
            };
            let numbers: Vec<f64> = words
                .map(|w| w.parse::<f64>().ok().filter(|v| v.is_finite()))
                .collect::<Option<_>>()
                .ok_or_else(|| fail("not a number"))?;
            match key {
                "column" => {
                    let c = (2..=12)
                        .contains(&label)
                        .then(|| label as usize - 2)
                        .ok_or_else(|| fail("no such column"))?;
                    if numbers.len() != HEIGHTS[c] as usize + 1 {
                        return Err(fail(
                            "a column needs one value per number of spaces left, 0 to its height",
                        ));
                    }
                    if numbers[0] != 0.0 || numbers.windows(2).any(|p| p[1] < p[0]) {
                        return Err(fail("a column's values start at 0 and never decrease"));
                    }
                    if columns & (1 << c) != 0 {
                        return Err(fail("column given twice"));
                    }
                    columns |= 1 << c;
                    model.table[c][..numbers.len()].copy_from_slice(&numbers);
                }
                "combine" => {
                    if !W_RANGE.contains(&label)
                        || numbers.len() != SLOTS + 1
                        || numbers[1..].iter().any(|&a| a < 0.0)
                    {
                        return Err(fail("combine W (3 to 5), a bias and 6 weights not negative"));
                    }
                    let k = w_index(label);
                    combines |= 1 << k;
                    model.bias[k] = numbers[0];
                    model.weights[k].copy_from_slice(&numbers[1..]);
                }
                "spread" => {
                    if numbers.len() != 1 || numbers[0] <= 0.0 {
                        return Err(fail("spread: one positive number"));
                    }
                    model.spread = numbers[0];
                    spread = true;
                }
                _ => return Err(fail("unknown key (column, combine, spread)")),
            }
        }
        if columns != (1 << COLUMNS) - 1 || combines != 0b111 || !spread {
            return Err("every column 2 to 12, combine 3, 4 and 5, and spread are needed".into());
        }
        Ok(model)
    }
}

/// The index of `w` columns to win in a model's combinations (clamped to 3..=5).
fn w_index(w: u32) -> usize {
    (w.clamp(*W_RANGE.start(), *W_RANGE.end()) - W_RANGE.start()) as usize
}

/// The values of the columns still `player`'s to count, sorted ascending (his won columns 0,
/// columns won by others left out), and how many there are.
#[allow(clippy::needless_range_loop)] // A column indexes the markers, the heights and the table.
pub fn column_values(model: &Model, pos: &Position, player: usize) -> ([f64; COLUMNS], usize) {
    let mut values = [0.0; COLUMNS];
    let mut n = 0;
    let mine = pos.won_columns(player);
    for c in 0..COLUMNS {
        if mine & (1 << c) != 0 {
            values[n] = 0.0;
        } else if pos.closed_columns() & (1 << c) != 0 {
            continue;
        } else {
            values[n] = model.table[c][usize::from(HEIGHTS[c] - pos.marker(player, c))];
        }
        n += 1;
    }
    values[..n].sort_by(f64::total_cmp);
    (values, n)
}

/// The chance that each player (in the order of play, the first to move next) finishes first,
/// his mean turns still needed given (`None`: he cannot finish), with variance `spread * mean`.
pub fn race(means: &[Option<f64>], spread: f64) -> Vec<f64> {
    let finished: Vec<[f64; HORIZON]> = means.iter().map(|&m| finish_distribution(m, spread)).collect();
    (0..means.len())
        .map(|me| {
            let mut chance = 0.0;
            for n in 1..HORIZON {
                let exactly = finished[me][n] - finished[me][n - 1];
                if exactly <= 0.0 {
                    continue;
                }
                let mut others_later = 1.0;
                for (i, other) in finished.iter().enumerate().filter(|&(i, _)| i != me) {
                    // Players before me in the order have had n turns when I play my n-th.
                    others_later *= 1.0 - if i < me { other[n] } else { other[n - 1] };
                }
                chance += exactly * others_later;
            }
            chance
        })
        .collect()
}

/// For n = 0..HORIZON, the chance of having finished within n turns, for a mean of `mean`.
#[allow(clippy::needless_range_loop)] // Columns, spaces and kinds index several arrays at once.
fn finish_distribution(mean: Option<f64>, spread: f64) -> [f64; HORIZON] {
    let mut finished = [0.0; HORIZON];
    let Some(mean) = mean else { return finished };
    let sd = (spread * mean).sqrt().max(1e-6);
    for n in 1..HORIZON {
        finished[n] = normal_cdf((n as f64 + 0.5 - mean) / sd);
        if finished[n] > 1.0 - 1e-9 {
            finished[n..].fill(1.0);
            break;
        }
    }
    finished
}

/// The standard normal distribution function (Abramowitz and Stegun 7.1.26 for erf, error
/// below 1.5e-7: far below the model's own).
pub(crate) fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 { 0.5 * (1.0 + erf) } else { 0.5 * (1.0 - erf) }
}

#[cfg(test)]
mod tests;
