//! Exact probabilities, by enumerating the 126 rolls with their weights out of 1296.

use super::board::{self, COLUMNS};
use super::dice::{self, OUTCOMES};
use super::{Event, Phase, Position};

/// The number of the 1296 outcomes of the next roll that bust, with the neutral markers as they
/// stand (meaningful in phases `r` and `s`).
pub fn bust_outcomes(pos: &Position) -> u32 {
    dice::all_rolls().iter().filter(|&&d| pos.choices(d).is_empty()).map(|d| d.weight()).sum()
}

/// The number of the 1296 outcomes in which some pairing sums to a column of `columns` (names
/// 2 to 12): for three columns, the chance of not busting with the neutral markers there.
pub fn hit_outcomes(columns: &[u8]) -> u32 {
    dice::all_rolls()
        .iter()
        .filter(|d| d.pairings().iter().any(|&(s, t)| columns.contains(&s) || columns.contains(&t)))
        .map(|d| d.weight())
        .sum()
}

/// What one event leads to, for `steere odds`.
#[derive(Clone, Debug, PartialEq)]
pub struct Consequence {
    /// The event.
    pub event: Event,
    /// The position after it.
    pub after: Position,
    /// The outcomes of 1296 that bust if the mover rolls next (after a choice or `roll`).
    pub bust_next: Option<u32>,
    /// The columns (names) the mover would win by stopping at once after the event.
    pub wins_on_stop: Vec<u8>,
    /// Whether stopping at once after the event wins the game.
    pub wins_game_on_stop: bool,
}

/// The consequences of every decision of the player to move (phases `c` and `s`); empty in
/// phase `r` or a finished game.
pub fn consequences(pos: &Position) -> Vec<Consequence> {
    if matches!(pos.phase(), Phase::Roll) {
        return Vec::new();
    }
    pos.legal_events()
        .into_iter()
        .map(|event| {
            let after = pos.play(event);
            let still_turn =
                after.winner().is_none() && after.to_move() == pos.to_move() && !after.is_turn_start();
            let bust_next = still_turn.then(|| bust_outcomes(&after));
            let banked = if still_turn { after.banked() } else { after };
            let mover = pos.to_move();
            let newly_won = banked.won_columns(mover) & !pos.won_columns(mover);
            Consequence {
                event,
                after,
                bust_next,
                wins_on_stop: (0..COLUMNS).filter(|&c| newly_won & (1 << c) != 0).map(board::name).collect(),
                wins_game_on_stop: banked.winner() == Some(mover),
            }
        })
        .collect()
}

/// A count of 1296 as a probability.
pub fn probability(outcomes: u32) -> f64 {
    f64::from(outcomes) / f64::from(OUTCOMES)
}

/// The lines of `steere odds`: the chance of busting on the next roll, the chance of each
/// column, and each decision's consequences.
pub fn report(pos: &Position) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(winner) = pos.winner() {
        lines.push(format!("game over: player {} won", winner + 1));
        return lines;
    }
    let percent = |n: u32| format!("{n}/1296 = {:.2}%", 100.0 * probability(n));
    match pos.phase() {
        Phase::Roll | Phase::Decide => {
            let rolling = if pos.phase() == Phase::Roll { "the next roll" } else { "rolling again" };
            lines.push(format!("bust on {rolling}: {}", percent(bust_outcomes(pos))));
            let open: Vec<u8> =
                (0..COLUMNS).filter(|&c| pos.closed_columns() & (1 << c) == 0).map(board::name).collect();
            let sums: Vec<String> =
                open.iter().map(|&c| format!("{c}:{:.3}", probability(hit_outcomes(&[c])))).collect();
            lines.push(format!("chance of each open column's sum: {}", sums.join(" ")));
        }
        Phase::Choose(dice) => lines.push(format!("dice {dice}: {} choices", pos.choices(dice).len())),
    }
    for c in consequences(pos) {
        let mut line = format!("{:<6} -> {}", c.event.to_string(), c.after.fen());
        if let Some(bust) = c.bust_next {
            line.push_str(&format!("; bust if rolling on: {}", percent(bust)));
        }
        if !c.wins_on_stop.is_empty() {
            let cols: Vec<String> = c.wins_on_stop.iter().map(u8::to_string).collect();
            line.push_str(&format!("; stopping wins column {}", cols.join(", ")));
        }
        if c.wins_game_on_stop {
            line.push_str(" and the game");
        }
        lines.push(line);
    }
    lines
}
