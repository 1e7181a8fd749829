//! The dice: the 126 multisets of four dice with their weights out of 1296, and the three ways
//! of splitting four dice into two pairs.
//!
//! Only the four values of a roll matter (the rules' edge case 9), so a roll is kept sorted.
//! Every probability in the engine is a count of the 1296 ordered outcomes divided by 1296,
//! enumerated through these 126 multisets: exact, never sampled.

use std::fmt;

/// The number of ordered outcomes of four six-sided dice.
pub const OUTCOMES: u32 = 1296;

/// The number of distinct rolls (multisets of four dice).
pub const ROLL_COUNT: usize = 126;

/// Four dice, sorted in non-decreasing order, each 1 to 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dice([u8; 4]);

impl Dice {
    /// The roll of these four values in any order, or `None` if a value is not 1 to 6.
    pub fn new(mut values: [u8; 4]) -> Option<Dice> {
        if values.iter().any(|&v| !(1..=6).contains(&v)) {
            return None;
        }
        values.sort_unstable();
        Some(Dice(values))
    }

    /// The four values, sorted.
    pub fn values(self) -> [u8; 4] {
        self.0
    }

    /// The number of the 1296 ordered outcomes that give this multiset: 24, 12, 6, 4 or 1.
    pub fn weight(self) -> u32 {
        let mut weight = 24;
        let mut run = 1;
        for i in 1..4 {
            if self.0[i] == self.0[i - 1] {
                run += 1;
                weight /= run;
            } else {
                run = 1;
            }
        }
        weight
    }

    /// The three ways of splitting the dice into two pairs, as the two sums of each, smaller
    /// first: a+b/c+d, a+c/b+d, a+d/b+c.
    pub fn pairings(self) -> [(u8, u8); 3] {
        let [a, b, c, d] = self.0;
        let ordered = |s: u8, t: u8| if s <= t { (s, t) } else { (t, s) };
        [ordered(a + b, c + d), ordered(a + c, b + d), ordered(a + d, b + c)]
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let [a, b, c, d] = self.0;
        write!(f, "{a}{b}{c}{d}")
    }
}

/// The 126 rolls in increasing order (`1111` to `6666`), built once.
pub fn all_rolls() -> &'static [Dice; ROLL_COUNT] {
    static ROLLS: std::sync::OnceLock<[Dice; ROLL_COUNT]> = std::sync::OnceLock::new();
    ROLLS.get_or_init(|| {
        let mut rolls = [Dice([1; 4]); ROLL_COUNT];
        let mut n = 0;
        for a in 1..=6 {
            for b in a..=6 {
                for c in b..=6 {
                    for d in c..=6 {
                        rolls[n] = Dice([a, b, c, d]);
                        n += 1;
                    }
                }
            }
        }
        rolls
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weights_count_every_ordered_outcome_once() {
        assert_eq!(all_rolls().iter().map(|d| d.weight()).sum::<u32>(), OUTCOMES);
        let count = |w| all_rolls().iter().filter(|d| d.weight() == w).count();
        // The contract: 15 rolls of four different dice, 60 with one pair, 15 with two pairs,
        // 30 with three of a kind, 6 with four.
        assert_eq!([count(24), count(12), count(6), count(4), count(1)], [15, 60, 15, 30, 6]);
    }

    #[test]
    fn rolls_are_sorted_and_checked() {
        assert_eq!(Dice::new([6, 6, 3, 1]).unwrap().to_string(), "1366");
        assert_eq!(Dice::new([0, 1, 2, 3]), None);
        assert_eq!(Dice::new([1, 5, 4, 6]).unwrap().pairings(), [(5, 11), (6, 10), (7, 9)]);
    }
}
