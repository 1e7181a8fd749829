//! Strength levels: how a weakened engine plays, the same way in every game, and the measured
//! Elo of each level per variant.
//!
//! A level weakens the engine in two ways that a weaker human player shares: it looks less far
//! (a small node budget, or few rolls in a dice game), and it misjudges which of its candidate
//! moves is best. The second is Stockfish's "skill" idea: the search gives the values of the
//! best few moves (MultiPV), and the move played is the one whose value plus a random error is
//! highest, the error growing as the level falls. A weak level thus plays a move that looked
//! nearly as good as the best one, and rarely throws a clearly won position away; the lowest
//! levels, with large errors among many candidates, blunder as beginners do. A uniformly random
//! mover is below every level (it is the calibration's bottom anchor, `Strategy random`).
//!
//! The error is drawn from the `Seed` option and the position alone, so a level plays the
//! same move in the same position and state every time: a game is reproducible. A weakened
//! search runs on one thread (several would make its node-limited result depend on timing).
//!
//! The level's parameters are the two tables below; the Elo of each level in each variant is
//! measured by `steere calibrate` (docs/levels.md) and compiled in from
//! `positions/levels-VARIANT.txt`, which is how `UCI_Elo` chooses a level.

/// The number of levels: `Skill Level` runs from 0 to `LEVELS - 1`, the last being full
/// strength (no weakening at all).
pub const LEVELS: usize = 10;
/// The full-strength level (the default of `Skill Level`).
pub const FULL: u32 = LEVELS as u32 - 1;

/// How a board game's weakened level searches and chooses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardLevel {
    /// The depth of each move's search, where the level is depth-limited. Never 1: a one-ply
    /// search of Impasse loses to the random mover (its evaluation, right at depth 2, is
    /// misleading one ply ahead), so the weakest levels search two plies and err more.
    pub depth: Option<u32>,
    /// The node budget of each move (the first iteration always completes, so a tiny budget is
    /// a one-ply search).
    pub nodes: u64,
    /// The candidate moves (MultiPV lines) the choice is made among.
    pub lines: usize,
    /// The largest random error added to a candidate's score, as a fraction of the spread of
    /// the candidates' scores (best less worst, at most [`MAX_SPREAD`]): a fraction, not a
    /// number of evaluation units, so that a level means the same in every game, in quiet
    /// positions (where the candidates are close) as in sharp ones.
    pub error: f64,
}

/// The board games' weakened levels, 0 to `FULL - 1`.
const BOARD: [BoardLevel; LEVELS - 1] = [
    BoardLevel { depth: Some(2), nodes: u64::MAX, lines: 64, error: 1.0 },
    BoardLevel { depth: Some(2), nodes: u64::MAX, lines: 64, error: 0.5 },
    BoardLevel { depth: Some(2), nodes: u64::MAX, lines: 16, error: 0.25 },
    BoardLevel { depth: None, nodes: 1_000, lines: 8, error: 0.2 },
    BoardLevel { depth: None, nodes: 2_000, lines: 6, error: 0.15 },
    BoardLevel { depth: None, nodes: 4_000, lines: 5, error: 0.1 },
    BoardLevel { depth: None, nodes: 7_000, lines: 4, error: 0.07 },
    BoardLevel { depth: None, nodes: 11_000, lines: 3, error: 0.05 },
    BoardLevel { depth: None, nodes: 16_000, lines: 2, error: 0.03 },
];

/// How a dice game's weakened level searches and chooses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiceLevel {
    /// The rolls the search looks ahead.
    pub depth: u32,
    /// The largest random error added to a decision's value (a chance of winning, 0 to 1).
    pub error: f64,
}

/// The dice games' weakened levels, 0 to `FULL - 1`.
const DICE: [DiceLevel; LEVELS - 1] = [
    DiceLevel { depth: 1, error: 0.60 },
    DiceLevel { depth: 1, error: 0.30 },
    DiceLevel { depth: 1, error: 0.16 },
    DiceLevel { depth: 1, error: 0.08 },
    DiceLevel { depth: 1, error: 0.04 },
    DiceLevel { depth: 1, error: 0.02 },
    DiceLevel { depth: 2, error: 0.01 },
    DiceLevel { depth: 2, error: 0.004 },
    DiceLevel { depth: 3, error: 0.0 },
];

/// The largest spread of candidate scores the error scales with, in evaluation units: beyond
/// it (a proven result among the candidates) the error stops growing, so that a level does
/// not throw a won game away because one candidate loses.
pub const MAX_SPREAD: f64 = 500.0;

/// The error of a board level for candidates of `values` (best first): its fraction of their
/// spread.
pub fn board_error(level: BoardLevel, values: &[f64]) -> f64 {
    let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let worst = values.iter().copied().fold(f64::INFINITY, f64::min);
    level.error * (best - worst).clamp(1.0, MAX_SPREAD)
}

/// The board game parameters of `level`; `None` at full strength.
pub fn board(level: u32) -> Option<BoardLevel> {
    BOARD.get(level as usize).copied()
}

/// The dice game parameters of `level`; `None` at full strength.
pub fn dice(level: u32) -> Option<DiceLevel> {
    DICE.get(level as usize).copied()
}

/// The index of the candidate a level plays: the one whose `value` plus a random error in
/// `[0, error)` is highest (the first of equals). The errors are drawn from `seed` and `salt`
/// (the position's hash), so the same call always chooses the same. `values` must not be empty.
pub fn choose(values: &[f64], error: f64, seed: u64, salt: u64) -> usize {
    let mut state = splitmix(seed ^ splitmix(salt));
    let mut best = (0, f64::NEG_INFINITY);
    for (i, &value) in values.iter().enumerate() {
        state = splitmix(state);
        // 53 random bits as a fraction in [0, 1).
        let unit = (state >> 11) as f64 / (1u64 << 53) as f64;
        let noisy = value + error * unit;
        if noisy > best.1 {
            best = (i, noisy);
        }
    }
    best.0
}

/// A move drawn uniformly from `count` (the random mover), from `seed` and `salt`.
pub fn uniform(count: usize, seed: u64, salt: u64) -> usize {
    (splitmix(seed ^ splitmix(salt)) % count.max(1) as u64) as usize
}

/// One round of SplitMix64's output function: spreads the bits of `x`.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The measured Elo of every level of a variant, from its `positions/levels-VARIANT.txt`
/// (`LEVEL ELO` lines, `#` comments; the scale puts the uniformly random mover at 0). Empty when
/// the variant has not been calibrated.
pub fn elo_table(text: &str) -> Vec<(u32, i32)> {
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|line| !line.is_empty())
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            Some((words.next()?.parse().ok()?, words.next()?.parse().ok()?))
        })
        .collect()
}

/// The level `UCI_Elo` stands for in a variant whose table is `table`: the strongest level
/// whose measured Elo is at most `elo` (the weakest level below the scale, full strength when
/// the variant has no table).
pub fn level_for_elo(table: &[(u32, i32)], elo: i32) -> u32 {
    if table.is_empty() {
        return FULL;
    }
    let weakest = table.iter().map(|&(level, _)| level).min().unwrap_or(0);
    table.iter().filter(|&&(_, e)| e <= elo).map(|&(level, _)| level).max().unwrap_or(weakest)
}

/// A proven or heuristic score as a value the error is added to, in evaluation units: a
/// proven win is worth far more than any estimate (so that only the weakest levels, whose error
/// is large, may miss one), the shorter the better.
pub fn board_value(score: crate::search::Score) -> f64 {
    use crate::search::Score;
    const PROVEN: f64 = 3000.0;
    match score {
        Score::Heuristic(s) => f64::from(s),
        Score::Win(p) => PROVEN - f64::from(p),
        Score::Loss(p) => -PROVEN + f64::from(p),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choice_is_reproducible_and_follows_the_error() {
        let values = [100.0, 90.0, 50.0, -200.0];
        // Without an error the best is played.
        assert!((0..50).all(|seed| choose(&values, 0.0, seed, 7) == 0));
        // The same seed and salt choose the same; other seeds vary.
        let picks: Vec<usize> = (0..200).map(|seed| choose(&values, 60.0, seed, 7)).collect();
        assert_eq!(picks, (0..200).map(|seed| choose(&values, 60.0, seed, 7)).collect::<Vec<_>>());
        assert!(picks.contains(&0) && picks.contains(&1));
        // An error of 60 cannot lift a move 150 behind over the best.
        assert!(!picks.contains(&3) && !picks.contains(&2));
    }

    #[test]
    fn levels_weaken_less_as_they_rise() {
        for level in 1..FULL {
            let (low, high) = (board(level - 1).unwrap(), board(level).unwrap());
            assert!(
                high.nodes >= low.nodes.min(high.nodes) && high.error <= low.error && high.lines <= low.lines
            );
            assert!(low.error <= 1.0 && high.error > 0.0);
            let (low, high) = (dice(level - 1).unwrap(), dice(level).unwrap());
            assert!(high.depth >= low.depth && high.error <= low.error);
        }
        assert_eq!((board(FULL), dice(FULL)), (None, None));
    }

    #[test]
    fn elo_picks_the_strongest_level_at_or_below_it() {
        let table = elo_table("# level elo\n0 100\n1 250 # a comment\n2 400\n");
        assert_eq!(table, vec![(0, 100), (1, 250), (2, 400)]);
        assert_eq!(level_for_elo(&table, 50), 0);
        assert_eq!(level_for_elo(&table, 260), 1);
        assert_eq!(level_for_elo(&table, 400), 2);
        assert_eq!(level_for_elo(&[], 400), FULL);
    }
}
