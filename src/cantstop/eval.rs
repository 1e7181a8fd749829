//! The value of a position for each player (placeholder: progress fractions).

use super::Position;
use super::board::{COLUMNS, HEIGHTS};

/// What `pos` is worth to `player`.
pub fn value(pos: &Position, player: usize) -> f64 {
    if let Some(w) = pos.winner() {
        return if w == player { 1.0 } else { 0.0 };
    }
    let progress = |p: usize| -> f64 {
        (0..COLUMNS).map(|c| f64::from(pos.marker(p, c)) / f64::from(HEIGHTS[c])).sum()
    };
    let mine = progress(player);
    let best_other = (0..pos.players()).filter(|&p| p != player).map(progress).fold(0.0, f64::max);
    1.0 / (1.0 + (best_other - mine).exp())
}
