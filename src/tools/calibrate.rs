//! `steere calibrate`: the Elo of every strength level of a variant, measured by the match
//! runner over a ladder of neighbouring pairs.
//!
//! **The ladder.** A uniformly random mover (`Strategy random`) is the bottom and the scale's
//! zero; then `Skill Level` 0, 1, ... up to full strength. Each rung plays the rung below it
//! (`steere match` as a separate process, the same program as a user would run it, with its
//! referee, book and statistics), and level 0 also plays a plain depth-2 search. Every engine
//! searches each move within `--top` (the weakened levels less, by their own budgets), so the
//! scale is that of one fixed budget: full strength at longer time controls is stronger than its
//! rung says.
//!
//! **The fit.** With games only between neighbours, the maximum-likelihood Elo of each rung is
//! the sum of the differences below it: each difference comes from its pair's score `s` as
//! `400 log10(s / (1 - s))`, and its variance from the games' spread (wins, draws and losses
//! around `s`) through the derivative of that curve. A clean sweep has no finite estimate: its
//! score is taken half a game short of it, and the line says so. A rung's 95% interval adds the
//! variances of the differences below it.

use crate::cli::CalibrateArgs;
use crate::levels;
use crate::variants::{self, Family};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One rung of the ladder: its name in the reports and its `steere match` engine settings.
#[derive(Clone, Debug)]
struct Rung {
    name: String,
    settings: Vec<String>,
}

/// The result of one pair: the upper rung's wins, draws and losses against the lower.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairResult {
    /// Games the upper rung won.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games the upper rung lost.
    pub losses: u64,
}

impl PairResult {
    /// Games played.
    pub fn games(self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The upper rung's score, 0 to 1.
    pub fn score(self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }

    /// The Elo difference of the upper rung over the lower and its variance (Elo squared); a
    /// clean sweep counts half a game less (see the module docs).
    pub fn elo(self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let s = self.score().clamp(0.5 / n, 1.0 - 0.5 / n);
        let elo = 400.0 * (s / (1.0 - s)).log10();
        let spread = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        // A sweep has no spread: use that of a single game the other way, the least it could be.
        let spread = spread.max(s * (1.0 - s) / n);
        let slope = 400.0 / (std::f64::consts::LN_10 * s * (1.0 - s));
        (elo, spread / n * slope * slope)
    }

    /// True for a clean sweep either way (no finite estimate).
    pub fn is_sweep(self) -> bool {
        self.games() > 0 && (self.wins == self.games() || self.losses == self.games())
    }
}

/// Runs the calibration: the ladder's matches, their lines as they finish, then the table.
pub fn run(args: &CalibrateArgs) -> Result<(), String> {
    let info = variants::find(&args.variant).map_err(|e| format!("--variant: {e}"))?;
    let engine = match &args.engine {
        Some(path) => path.clone(),
        None => std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?,
    };
    let from_file;
    let levels_text: &str = match &args.levels {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("--levels {}: {e}", path.display()))?;
            levels::rows(&text).map_err(|e| format!("--levels {}: {e}", path.display()))?;
            from_file = text;
            &from_file
        }
        None => info.levels,
    };
    let top = args.top.clone().unwrap_or_else(|| default_top(levels_text, info.family));
    let folder = match &args.keep {
        Some(dir) => dir.clone(),
        None => std::env::temp_dir().join(format!("steere-calibrate-{}", std::process::id())),
    };
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let ladder = ladder();
    let run_pair = |upper: &Rung, lower: &Rung| -> Result<PairResult, String> {
        let file = folder.join(format!("{}-vs-{}.json", upper.name, lower.name));
        let result = play(&engine, info.name, &top, args, (upper, lower), &file)?;
        let (elo, variance) = result.elo();
        let sweep = if result.is_sweep() { " (a clean sweep: a bound)" } else { "" };
        crate::outln!(
            "{} vs {}: {} games +{} ={} -{}: score {:.1}%, Elo {:+.0} +-{:.0}{sweep}",
            upper.name,
            lower.name,
            result.games(),
            result.wins,
            result.draws,
            result.losses,
            100.0 * result.score(),
            elo,
            1.96 * variance.sqrt()
        );
        Ok(result)
    };
    crate::outln!("# steere calibrate --variant {} --games {} --top {top}", info.name, args.games);
    let mut pairs = Vec::new();
    for pair in ladder.windows(2) {
        pairs.push(run_pair(&pair[1], &pair[0])?);
    }
    let depth2 = Rung { name: "depth2".to_string(), settings: vec!["depth=2".to_string()] };
    let check = run_pair(&depth2, &ladder[1])?;
    let table = fit(&ladder, &pairs);
    for line in table_lines(&table, &pairs, check) {
        crate::outln!("{line}");
    }
    if let Some(path) = &args.write {
        let elos: Vec<(u32, i32)> = table[1..]
            .iter()
            .enumerate()
            .map(|(level, row)| (level as u32, row.elo.round() as i32))
            .collect();
        let measured = format!(
            "# Measured by: steere calibrate --variant {} --games {} --top {top} ({} games per pair)",
            info.name,
            args.games,
            pairs[0].games()
        );
        let text = levels::with_elos(levels_text, &elos, &measured);
        std::fs::write(path, text).map_err(|e| format!("--write {}: {e}", path.display()))?;
    }
    if args.keep.is_none() {
        let _ = std::fs::remove_dir_all(&folder);
    }
    Ok(())
}

/// The budget full strength is measured at: the full-strength row's `nodes=` or `depth=` in
/// the levels file played, else 30,000 nodes (a board game) or 3 rolls (a dice game).
fn default_top(table: &str, family: Family) -> String {
    let full = levels::rows(table).unwrap_or_default().into_iter().find(|r| r.level == levels::FULL);
    match (full.as_ref().and_then(|r| r.nodes), full.as_ref().and_then(|r| r.depth), family) {
        (Some(nodes), _, _) => format!("nodes={nodes}"),
        (None, Some(depth), _) => format!("depth={depth}"),
        (None, None, Family::Board) => "nodes=30000".to_string(),
        (None, None, Family::Dice) => "depth=3".to_string(),
    }
}

/// The rungs, bottom to top: the random mover, every level, full strength.
fn ladder() -> Vec<Rung> {
    let mut rungs =
        vec![Rung { name: "random".to_string(), settings: vec!["option.Strategy=random".to_string()] }];
    for level in 0..levels::FULL {
        rungs.push(Rung {
            name: format!("level{level}"),
            settings: vec![format!("option.Skill Level={level}")],
        });
    }
    rungs.push(Rung { name: format!("level{}", levels::FULL), settings: Vec::new() });
    rungs
}

/// One match of `upper` (engine 1) against `lower`, its JSON report kept in `file`.
fn play(
    engine: &Path,
    variant: &str,
    top: &str,
    args: &CalibrateArgs,
    (upper, lower): (&Rung, &Rung),
    file: &PathBuf,
) -> Result<PairResult, String> {
    let exe = engine.display().to_string();
    let mut command = Command::new(engine);
    command.args(["match", "--variant", variant, "--json", "--progress", "0"]);
    command.args(["--games", &args.games.to_string(), "--concurrency", &args.concurrency.to_string()]);
    command.arg("-o").arg(file);
    command.arg("--engine1").arg(&exe).arg(format!("name={}", upper.name)).args(&upper.settings);
    command.arg("--engine2").arg(&exe).arg(format!("name={}", lower.name)).args(&lower.settings);
    command.args(["--each", top]);
    match &args.levels {
        Some(path) => command.env(levels::OVERRIDE_VAR, path),
        None => command.env_remove(levels::OVERRIDE_VAR),
    };
    let output = command.output().map_err(|e| format!("cannot run {exe} match: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().last().unwrap_or("no message");
        return Err(format!("{} vs {}: the match failed: {last}", upper.name, lower.name));
    }
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    parse_report(&text).map_err(|e| format!("{}: {e}", file.display()))
}

/// Engine 1's wins, draws and losses from a `steere match --json` report. A dice game's report
/// counts wins only: engine 1's losses are engine 2's wins, and a game neither won (the turn
/// limit) is a draw.
pub fn parse_report(text: &str) -> Result<PairResult, String> {
    let json: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not a match report: {e}"))?;
    let count = |engine: usize, key: &str| {
        json["engines"][engine][key]
            .as_u64()
            .ok_or_else(|| format!("the report has no engines[{engine}].{key}"))
    };
    let wins = count(0, "wins")?;
    if let (Ok(draws), Ok(losses)) = (count(0, "draws"), count(0, "losses")) {
        return Ok(PairResult { wins, draws, losses });
    }
    let losses = count(1, "wins")?;
    let draws = count(0, "games")?.saturating_sub(wins + losses);
    Ok(PairResult { wins, draws, losses })
}

/// A rung of the fitted table: its name, Elo and 95% interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// The rung's name (`random`, `level0`, ...).
    pub name: String,
    /// Its Elo on the scale where the random mover is 0.
    pub elo: f64,
    /// Half the width of its 95% interval.
    pub error95: f64,
}

/// The Elo of every rung from its neighbours' results (`pairs[i]`: rung `i + 1` against `i`).
fn fit(ladder: &[Rung], pairs: &[PairResult]) -> Vec<Fitted> {
    let mut table = vec![Fitted { name: ladder[0].name.clone(), elo: 0.0, error95: 0.0 }];
    let (mut elo, mut variance) = (0.0, 0.0);
    for (rung, pair) in ladder[1..].iter().zip(pairs) {
        let (difference, v) = pair.elo();
        elo += difference;
        variance += v;
        table.push(Fitted { name: rung.name.clone(), elo, error95: 1.96 * variance.sqrt() });
    }
    table
}

/// The closing report: the table in Markdown, whether it rises at every rung, the spacing, and
/// the beginner's check.
fn table_lines(table: &[Fitted], pairs: &[PairResult], check: PairResult) -> Vec<String> {
    let mut lines = vec![
        String::new(),
        "| rung | Elo | 95% | vs the rung below: games, score | difference |".to_string(),
        "|---|---:|---:|---|---:|".to_string(),
    ];
    lines.push(format!("| {} | 0 | (anchor) | | |", table[0].name));
    for (row, pair) in table[1..].iter().zip(pairs) {
        let difference = pair.elo().0;
        let sweep = if pair.is_sweep() { " (sweep)" } else { "" };
        lines.push(format!(
            "| {} | {:.0} | +-{:.0} | {}, {:.1}%{sweep} | {:+.0} |",
            row.name,
            row.elo,
            row.error95,
            pair.games(),
            100.0 * pair.score(),
            difference
        ));
    }
    let differences: Vec<f64> = pairs[1..].iter().map(|p| p.elo().0).collect();
    let rising = differences.iter().all(|&d| d > 0.0);
    let (low, high) =
        differences.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &d| (l.min(d), h.max(d)));
    lines.push(String::new());
    lines.push(format!(
        "levels rise at every rung: {}; differences between neighbouring levels {low:+.0} to {high:+.0} Elo",
        if rising { "yes" } else { "no" }
    ));
    lines.push(format!(
        "level 0 against a depth-2 search: {} games, level 0 scores {:.1}% ({})",
        check.games(),
        100.0 * (1.0 - check.score()),
        if check.score() > 0.5 { "it loses most: a beginner can win" } else { "it does not lose most" }
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pairs_elo_follows_the_logistic_curve() {
        let even = PairResult { wins: 40, draws: 20, losses: 40 };
        assert!(even.elo().0.abs() < 1e-9);
        // 75%: 400 log10(3) = 190.8 Elo.
        let three_to_one = PairResult { wins: 75, draws: 0, losses: 25 };
        assert!((three_to_one.elo().0 - 190.85).abs() < 0.01);
        // The interval of 100 decisive games at 75%: sd of the score sqrt(0.1875/100).
        let sd = (0.1875f64 / 100.0).sqrt() * 400.0 / (std::f64::consts::LN_10 * 0.1875);
        assert!((three_to_one.elo().1.sqrt() - sd).abs() < 1e-9);
        let sweep = PairResult { wins: 10, draws: 0, losses: 0 };
        assert!(sweep.is_sweep() && sweep.elo().0.is_finite() && sweep.elo().0 > 400.0);
    }

    #[test]
    fn rungs_add_their_differences_and_variances() {
        let ladder = ladder();
        let pair = PairResult { wins: 75, draws: 0, losses: 25 };
        let table = fit(&ladder[..3], &[pair, pair]);
        assert_eq!(table.len(), 3);
        assert!((table[2].elo - 2.0 * pair.elo().0).abs() < 1e-9);
        assert!((table[2].error95 - 1.96 * (2.0 * pair.elo().1).sqrt()).abs() < 1e-9);
        assert_eq!(ladder.len(), levels::LEVELS + 1);
        assert_eq!(ladder.last().unwrap().settings, Vec::<String>::new());
    }

    #[test]
    fn the_report_is_read_from_the_match_json() {
        let json = r#"{"engines": [{"name": "a", "wins": 5, "draws": 2, "losses": 3}, {"name": "b"}]}"#;
        assert_eq!(parse_report(json), Ok(PairResult { wins: 5, draws: 2, losses: 3 }));
        assert!(parse_report("{}").unwrap_err().contains("engines[0].wins"));
        // A dice game's report: wins only.
        let dice = r#"{"engines": [{"games": 10, "wins": 6}, {"games": 10, "wins": 3}]}"#;
        assert_eq!(parse_report(dice), Ok(PairResult { wins: 6, draws: 1, losses: 3 }));
    }
}
