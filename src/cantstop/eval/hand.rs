//! The previous value, a hand-written model of the race (steere up to commit 7342d2d), kept
//! for comparisons: the learner's first games are played with it, and `with_value(Value::Hand,
//! ..)` brings it back on one thread (the in-process duel of the new value against it).
//!
//! **The model.** A player needs `k` more columns (3 less those he has won). For an open column
//! `c` with `r` spaces left, the turns he needs there are modelled as a normal variable of mean
//! `t = r / (SPEED * p(c))`, where `p(c)` is the exact chance that a roll makes the sum `c`, and
//! of variance `SPREAD * t`. He pursues the `k` columns of smallest `t`, and finishes when the
//! slowest of them does. From these distributions, one per player, and the order of play comes
//! the chance that each is the first to finish. SPEED and SPREAD were tuned by hand (alone 7.76
//! turns, 77.5% against the Rule of 28: docs/rules/cantstop.md).

use super::normal_cdf;
use crate::cantstop::Position;
use crate::cantstop::board::{COLUMNS, HEIGHTS};
use crate::cantstop::odds::hit_outcomes;

/// Spaces gained per turn in a column, per unit of the chance that a roll makes its sum. The
/// play hardly depends on it: 2.0, 2.7 and 3.5 scored 72.9%, 72.6% and 72.1% against the Rule of
/// 28 (800 duplicate games each, SPREAD 0.5, search 2 rolls deep).
pub const SPEED: f64 = 2.7;
/// The variance of a column's turns, per turn of its mean. Larger than a column's true spread,
/// it makes the value a smooth function of the race that the search can weigh: 0.25, 0.5, 1,
/// 1.5, 2, 3, 4.5, 7 and 10 scored 68.5%, 72.6%, 75.0%, 74.1%, 77.0%, 79.9%, 80.1%, 79.6% and
/// 80.1% against the Rule of 28 (as above), and alone 4 needs 7.83 turns where 0.5 needs 8.51
/// (300 games). A model of columns contested by other players (a column another player pursues
/// faster is likely lost, and a fallback column needed) changed nothing measurable (79.9% against
/// 80.1% with two players, 54.0% against 53.3% with four), so it was left out.
pub const SPREAD: f64 = 4.0;
/// The longest game the distributions cover, in turns of one player.
const HORIZON: usize = 80;

/// The chance that a roll makes each column's sum (index: column index), exact.
pub(crate) fn sum_chances() -> &'static [f64; COLUMNS] {
    static CHANCES: std::sync::OnceLock<[f64; COLUMNS]> = std::sync::OnceLock::new();
    CHANCES.get_or_init(|| std::array::from_fn(|c| f64::from(hit_outcomes(&[c as u8 + 2])) / 1296.0))
}

/// What `pos` (at the start of a turn, or finished) is worth to `player`: his chance of
/// winning, or alone, minus the expected number of turns he still needs.
pub fn value(pos: &Position, player: usize) -> f64 {
    if let Some(winner) = pos.winner() {
        return if winner == player { 1.0 } else { 0.0 };
    }
    if pos.players() == 1 {
        let finished = finish_distribution(pos, player);
        return -(0..HORIZON).map(|n| 1.0 - finished[n]).sum::<f64>();
    }
    win_chance(pos, player)
}

/// The chance that `player` is the first to finish, the player to move playing first.
fn win_chance(pos: &Position, player: usize) -> f64 {
    let n_players = pos.players();
    let order: Vec<usize> = (0..n_players).map(|i| (pos.to_move() + i) % n_players).collect();
    let finished: Vec<[f64; HORIZON]> = order.iter().map(|&p| finish_distribution(pos, p)).collect();
    let me = order.iter().position(|&p| p == player).expect("a player of the game");
    let mut chance = 0.0;
    for n in 1..HORIZON {
        let exactly = finished[me][n] - finished[me][n - 1];
        if exactly <= 0.0 {
            continue;
        }
        let mut others_later = 1.0;
        for (i, other) in finished.iter().enumerate().filter(|&(i, _)| i != me) {
            // Players before me in the order have had n turns when I play my n-th, the others n - 1.
            others_later *= 1.0 - if i < me { other[n] } else { other[n - 1] };
        }
        chance += exactly * others_later;
    }
    chance
}

/// For n = 0..HORIZON, the chance that `player` has finished within n of his turns.
fn finish_distribution(pos: &Position, player: usize) -> [f64; HORIZON] {
    let mut finished = [0.0; HORIZON];
    let need = pos.columns_to_win().saturating_sub(pos.won_count(player)) as usize;
    let mut means: Vec<f64> = (0..COLUMNS)
        .filter(|&c| pos.closed_columns() & (1 << c) == 0)
        .map(|c| f64::from(HEIGHTS[c] - pos.marker(player, c)) / (SPEED * sum_chances()[c]))
        .collect();
    if means.len() < need {
        return finished; // Too few open columns left: he can no longer win.
    }
    means.sort_by(f64::total_cmp);
    for n in 1..HORIZON {
        finished[n] =
            means[..need].iter().map(|&t| normal_cdf((n as f64 + 0.5 - t) / (SPREAD * t).sqrt())).product();
        if finished[n] > 1.0 - 1e-9 {
            // Certain from here on: spare the rest of the normal distribution functions.
            finished[n..].fill(1.0);
            break;
        }
    }
    finished
}
