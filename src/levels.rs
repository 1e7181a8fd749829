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
//! **The levels' file.** Each variant's levels are a file of its own,
//! `positions/levels-VARIANT.txt` (compiled in, through the registry): one line per level,
//! `LEVEL key=value ...`, with the weakened levels' parameters (`depth=`, `nodes=`, `lines=`,
//! `error=`: [`BoardLevel`], [`DiceLevel`]) and the Elo `steere calibrate` measured for each
//! (`elo=`), which is how `UCI_Elo` chooses a level. The parameters are per variant because the
//! games differ in how much a node or a ply is worth: one table for all would space the levels
//! evenly in one game and bunch them in another.

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

/// How a dice game's weakened level searches and chooses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiceLevel {
    /// The rolls the search looks ahead.
    pub depth: u32,
    /// The largest random error added to a decision's value (a chance of winning, 0 to 1).
    pub error: f64,
}

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

/// One line of a levels file: a level, its parameters as written, and its measured Elo.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    /// The level, 0 to [`FULL`].
    pub level: u32,
    /// `depth=`: plies (a board game) or rolls (a dice game) each move's search looks ahead.
    pub depth: Option<u32>,
    /// `nodes=`: a board game's node budget per move.
    pub nodes: Option<u64>,
    /// `lines=`: a board game's candidate moves.
    pub lines: Option<usize>,
    /// `error=`: the largest random error (see [`BoardLevel::error`], [`DiceLevel::error`]).
    pub error: Option<f64>,
    /// `elo=`: the measured Elo (the random mover is 0).
    pub elo: Option<i32>,
}

/// The environment variable that names a levels file to play instead of the compiled-in one
/// (`steere calibrate --levels FILE` sets it for the engines it measures, so that a table can be
/// tried before it is compiled in). Unset, every variant plays its own compiled-in file.
pub const OVERRIDE_VAR: &str = "STEERE_LEVELS";

/// The levels file a variant plays: the file [`OVERRIDE_VAR`] names when it is set, and is
/// readable and sound, else the compiled-in `compiled`. A file that cannot be used is reported
/// once on standard error and ignored: a level then plays as the engine was built.
pub fn table(compiled: &'static str) -> &'static str {
    static OVERRIDE: std::sync::OnceLock<Option<&'static str>> = std::sync::OnceLock::new();
    OVERRIDE.get_or_init(read_override).unwrap_or(compiled)
}

/// The levels file `variant` plays: its compiled-in one, unless [`OVERRIDE_VAR`] names another
/// ([`table`]). Every reader of a variant's levels goes through here, so that the override
/// holds everywhere.
pub fn played(variant: &crate::variants::VariantInfo) -> &'static str {
    table(variant.levels)
}

/// The levels file [`OVERRIDE_VAR`] names, kept for the program's life; `None` when unset or
/// unusable (with a one-line message).
fn read_override() -> Option<&'static str> {
    let path = std::env::var_os(OVERRIDE_VAR)?;
    let shown = std::path::Path::new(&path).display().to_string();
    match std::fs::read_to_string(&path).map_err(|e| e.to_string()).and_then(|text| {
        rows(&text)?;
        Ok(text)
    }) {
        Ok(text) => Some(Box::leak(text.into_boxed_str())),
        Err(e) => {
            eprintln!("{OVERRIDE_VAR}={shown}: {e} (the compiled-in levels are played)");
            None
        }
    }
}

/// The rows of a levels file (`#` starts a comment), or the first malformed line.
pub fn rows(text: &str) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |why: String| format!("line {}: {why}: {line}", number + 1);
        let mut words = line.split_whitespace();
        let level = words.next().unwrap_or("");
        let mut row = Row {
            level: level.parse().map_err(|_| bad(format!("'{level}' is not a level")))?,
            ..Row::default()
        };
        for word in words {
            let (key, value) =
                word.split_once('=').ok_or_else(|| bad(format!("'{word}' is not KEY=VALUE")))?;
            let number = |v: &str| v.parse::<f64>().map_err(|_| bad(format!("{key}: '{v}' is not a number")));
            match key {
                "depth" => row.depth = Some(number(value)? as u32),
                "nodes" => row.nodes = Some(number(value)? as u64),
                "lines" => row.lines = Some(number(value)? as usize),
                "error" => row.error = Some(number(value)?),
                "elo" => row.elo = Some(number(value)?.round() as i32),
                _ => return Err(bad(format!("unknown key '{key}'"))),
            }
        }
        if row.level > FULL {
            return Err(bad(format!("levels run from 0 to {FULL}")));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The row of `level` in a levels file (a malformed file has none: the tests keep them sound).
fn row(text: &str, level: u32) -> Option<Row> {
    rows(text).ok()?.into_iter().find(|r| r.level == level)
}

/// A board game's parameters of `level` from its levels file `text`; `None` at full strength
/// (or for a level the file does not weaken).
pub fn board(text: &str, level: u32) -> Option<BoardLevel> {
    let row = row(text, level).filter(|_| level < FULL)?;
    Some(BoardLevel {
        depth: row.depth,
        nodes: row.nodes.unwrap_or(u64::MAX),
        lines: row.lines.unwrap_or(1).max(1),
        error: row.error.unwrap_or(0.0),
    })
}

/// A dice game's parameters of `level` from its levels file `text`; `None` at full strength.
pub fn dice(text: &str, level: u32) -> Option<DiceLevel> {
    let row = row(text, level).filter(|_| level < FULL)?;
    Some(DiceLevel { depth: row.depth.unwrap_or(1).max(1), error: row.error.unwrap_or(0.0) })
}

/// The levels file `text` with the Elo of every level replaced by `elos` (level, Elo) and its
/// third comment line, the measuring command, by `measured`; every other line as it was.
pub fn with_elos(text: &str, elos: &[(u32, i32)], measured: &str) -> String {
    let mut out = String::new();
    let mut comments = 0;
    for line in text.lines() {
        let body = line.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            comments += 1;
            out.push_str(if comments == 3 { measured } else { line });
            out.push('\n');
            continue;
        }
        let level: Option<u32> = body.split_whitespace().next().and_then(|w| w.parse().ok());
        let kept: Vec<&str> = body.split_whitespace().filter(|w| !w.starts_with("elo=")).collect();
        let mut new = kept.join(" ");
        if let Some(&(_, elo)) = elos.iter().find(|e| Some(e.0) == level) {
            new.push_str(&format!(" elo={elo}"));
        }
        out.push_str(&new);
        out.push('\n');
    }
    out
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

/// The measured Elo of every level of a levels file, (level, Elo); empty when the variant has
/// not been calibrated.
pub fn elo_table(text: &str) -> Vec<(u32, i32)> {
    rows(text).unwrap_or_default().iter().filter_map(|r| Some((r.level, r.elo?))).collect()
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

    /// Every variant's file: a row for every level, parameters for each weakened one that
    /// weaken less as the level rises, Elos that rise with the level where measured.
    #[test]
    fn every_variants_levels_weaken_less_as_they_rise() {
        for info in &crate::variants::VARIANTS {
            let rows = rows(info.levels).unwrap_or_else(|e| panic!("{}: {e}", info.name));
            let levels: Vec<u32> = rows.iter().map(|r| r.level).collect();
            assert_eq!(levels, (0..=FULL).collect::<Vec<_>>(), "{}", info.name);
            let dice = info.family == crate::variants::Family::Dice;
            for level in 1..FULL {
                if dice {
                    let (low, high) = (
                        super::dice(info.levels, level - 1).unwrap(),
                        super::dice(info.levels, level).unwrap(),
                    );
                    assert!(high.depth >= low.depth && high.error <= low.error, "{} {level}", info.name);
                } else {
                    let (low, high) =
                        (board(info.levels, level - 1).unwrap(), board(info.levels, level).unwrap());
                    assert!(high.error <= low.error && high.lines <= low.lines, "{} {level}", info.name);
                    let reach = |l: BoardLevel| (l.depth.unwrap_or(u32::MAX).min(64), l.nodes);
                    assert!(reach(high).0 >= reach(low).0 || high.nodes < u64::MAX, "{} {level}", info.name);
                    assert!(low.error > 0.0 && low.depth != Some(1), "{} {level}", info.name);
                }
            }
            assert_eq!((board(info.levels, FULL), super::dice(info.levels, FULL)), (None, None));
            let elos: Vec<i32> = elo_table(info.levels).iter().map(|e| e.1).collect();
            assert!(elos.windows(2).all(|w| w[0] < w[1]), "{}: {elos:?}", info.name);
        }
    }

    #[test]
    fn the_file_is_read_and_its_elos_rewritten() {
        let text = "# a\n# b\n# c\n0 depth=2 lines=64 error=2 elo=100\n1 nodes=1000 lines=8 error=0.2\n9\n";
        assert_eq!(
            board(text, 0),
            Some(BoardLevel { depth: Some(2), nodes: u64::MAX, lines: 64, error: 2.0 })
        );
        assert_eq!(board(text, 1), Some(BoardLevel { depth: None, nodes: 1000, lines: 8, error: 0.2 }));
        assert_eq!(board(text, 9), None);
        let new = with_elos(text, &[(0, 120), (1, 300), (9, 900)], "# measured now");
        assert_eq!(
            new,
            "# a\n# b\n# measured now\n0 depth=2 lines=64 error=2 elo=120\n1 nodes=1000 lines=8 error=0.2 elo=300\n9 elo=900\n"
        );
        assert!(rows("0 speed=3").unwrap_err().contains("unknown key 'speed'"));
        assert!(rows("12 depth=2").unwrap_err().contains("levels run from 0 to 9"));
    }

    #[test]
    fn elo_picks_the_strongest_level_at_or_below_it() {
        let table = elo_table("# level elo\n0 elo=100\n1 elo=250 # a comment\n2 elo=400\n");
        assert_eq!(table, vec![(0, 100), (1, 250), (2, 400)]);
        assert_eq!(level_for_elo(&table, 50), 0);
        assert_eq!(level_for_elo(&table, 260), 1);
        assert_eq!(level_for_elo(&table, 400), 2);
        assert_eq!(level_for_elo(&[], 400), FULL);
    }
}
