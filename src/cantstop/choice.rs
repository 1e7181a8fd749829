//! The choice set of a roll: for each pairing of the dice, the columns it advances, following
//! the rules' "Choices" section; two pairings with the same result are one choice.

use super::Position;
use super::board::{self, HEIGHTS, NEUTRAL_MARKERS};
use super::dice::Dice;
use arrayvec::ArrayVec;
use std::cmp::Ordering;

/// A choice: the columns advanced, by name, in ascending order; one or two, the same column
/// twice for a doubled sum (`7.7`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Choice {
    columns: [u8; 2],
    len: u8,
}

impl Choice {
    /// Advancing in `column` once.
    pub fn one(column: u8) -> Choice {
        Choice { columns: [column, 0], len: 1 }
    }

    /// Advancing in `s` and in `t` (the same column twice when equal), in either order.
    pub fn two(s: u8, t: u8) -> Choice {
        Choice { columns: [s.min(t), s.max(t)], len: 2 }
    }

    /// The columns advanced, by name, ascending.
    pub fn columns(&self) -> &[u8] {
        &self.columns[..self.len as usize]
    }
}

/// Choices are ordered by their columns as numbers: `6` < `6.10` < `7` < `7.9`.
impl Ord for Choice {
    fn cmp(&self, other: &Choice) -> Ordering {
        self.columns().cmp(other.columns())
    }
}

impl PartialOrd for Choice {
    fn partial_cmp(&self, other: &Choice) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The distinct choices of one roll, sorted: at most two per pairing.
pub type ChoiceSet = ArrayVec<Choice, 6>;

/// The choice set of `dice` in `pos` (phase aside): empty exactly when the roll busts.
pub fn choice_set(pos: &Position, dice: Dice) -> ChoiceSet {
    let mut set = ChoiceSet::new();
    let placed = pos.neutral_count();
    for (s, t) in dice.pairings() {
        for choice in pairing_results(pos, placed, s, t).into_iter().flatten() {
            if !set.contains(&choice) {
                set.push(choice);
            }
        }
    }
    set.sort_unstable();
    set
}

/// Whether the sum `column` can be used: the column is open, and either its neutral marker is
/// below the top or it has none and one is left.
fn usable(pos: &Position, placed: usize, column: u8) -> bool {
    let c = board::index(column);
    if pos.closed_columns() & (1 << c) != 0 {
        return false;
    }
    match pos.neutral(c) {
        0 => placed < NEUTRAL_MARKERS,
        space => space < HEIGHTS[c],
    }
}

/// The results one pairing with sums `s` <= `t` offers: none, one, or (with one marker left
/// for two new columns) one of two.
fn pairing_results(pos: &Position, placed: usize, s: u8, t: u8) -> [Option<Choice>; 2] {
    if s == t {
        if !usable(pos, placed, s) {
            return [None, None];
        }
        // The second advance is lost when the first reaches the top.
        let c = board::index(s);
        let choice = if pos.landing(c) < HEIGHTS[c] { Choice::two(s, s) } else { Choice::one(s) };
        return [Some(choice), None];
    }
    let (use_s, use_t) = (usable(pos, placed, s), usable(pos, placed, t));
    let new_s = pos.neutral(board::index(s)) == 0;
    let new_t = pos.neutral(board::index(t)) == 0;
    match (use_s, use_t) {
        (true, true) if new_s && new_t && placed == NEUTRAL_MARKERS - 1 => {
            [Some(Choice::one(s)), Some(Choice::one(t))]
        }
        (true, true) => [Some(Choice::two(s, t)), None],
        (true, false) => [Some(Choice::one(s)), None],
        (false, true) => [Some(Choice::one(t)), None],
        (false, false) => [None, None],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_sort_by_their_columns_as_numbers() {
        let mut choices = vec![Choice::two(7, 9), Choice::one(7), Choice::two(10, 6), Choice::one(6)];
        choices.sort();
        assert_eq!(choices, vec![Choice::one(6), Choice::two(6, 10), Choice::one(7), Choice::two(7, 9)]);
        assert_eq!(Choice::two(11, 7).columns(), &[7, 11]);
    }
}
