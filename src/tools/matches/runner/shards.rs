//! Shards of a match: what a shard's `--json` adds to the report (its place, the fingerprint
//! of the match, its raw tally), and `steere match merge`, which adds shards up and prints the
//! report of the whole match.
//!
//! A shard's tally is written whole (serde), so that the merge is exact: counts add, the
//! pentanomial adds, the timing samples are concatenated, and Elo, LOS and the SPRT are computed
//! once, on the merged pentanomial, exactly as the unsharded match would have.

use super::fingerprint::Fingerprint;
use super::slice::Shard;
use crate::tools::matches::report::stats::{Sprt, SprtState};
use crate::tools::matches::report::{Heading, Tally};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use crate::cli::matches::MergeArgs;

/// Which runner played a shard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Board games: opening pairs.
    Board,
    /// Dice games: dice streams.
    Dice,
}

/// The part of a match's `--json` that merging needs: the `shard` member.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardInfo {
    /// K, from 1.
    pub index: u64,
    /// N.
    pub count: u64,
    /// The hash of `settings`.
    pub fingerprint: String,
    /// The match's settings (see [`super::fingerprint`]), in order.
    pub settings: Vec<(String, String)>,
    /// The runner.
    pub kind: Kind,
    /// The variant's name.
    pub variant: String,
    /// The seed (dice games: of the dice streams).
    pub seed: u64,
    /// The test, if `--sprt` was given.
    pub sprt: Option<Sprt>,
    /// The games of the shard's slice.
    pub planned_games: u64,
    /// False when the shard stopped before its slice was played (a signal).
    pub complete: bool,
    /// Seconds the shard played.
    pub elapsed_s: f64,
}

impl ShardInfo {
    /// The shard of a run with `fingerprint`, of a game with dice or without.
    pub fn new(shard: Shard, fingerprint: &Fingerprint, dice: bool, variant: &str, seed: u64) -> ShardInfo {
        ShardInfo {
            index: shard.index,
            count: shard.count,
            fingerprint: fingerprint.hash(),
            settings: fingerprint.settings.clone(),
            kind: if dice { Kind::Dice } else { Kind::Board },
            variant: variant.to_string(),
            seed,
            sprt: None,
            planned_games: 0,
            complete: false,
            elapsed_s: 0.0,
        }
    }
}

/// A shard's `shard` member: its place, the fingerprint and the raw tally.
#[derive(Serialize, Deserialize)]
struct ShardMember<T> {
    #[serde(flatten)]
    info: ShardInfo,
    tally: T,
}

/// `json` (one object) with the `shard` member added: `info` and the raw `tally`.
pub fn with_shard<T: Serialize>(json: &str, info: &ShardInfo, tally: &T) -> String {
    let member = ShardMember { info: info.clone(), tally };
    // Serialising numbers, strings and maps with integer keys cannot fail.
    let text = serde_json::to_string(&member).unwrap_or_default();
    with_member(json, "shard", &text)
}

/// Adds the member `name: value` at the end of the JSON object `json`.
fn with_member(json: &str, name: &str, value: &str) -> String {
    let body = json.trim_end().strip_suffix('}').unwrap_or(json);
    let comma = if body.trim_end().ends_with('{') { "" } else { "," };
    format!("{body}{comma}\"{name}\":{value}}}")
}

/// One file given to `merge`.
struct Part {
    path: PathBuf,
    info: ShardInfo,
    tally: serde_json::Value,
}

/// Reads a shard's `--json` output.
fn read_part(path: &Path) -> Result<Part, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
    let mut value: serde_json::Value = serde_json::from_str(text.trim())
        .map_err(|e| format!("{shown}: not the --json output of a match ({e})"))?;
    let member = value
        .get_mut("shard")
        .map(serde_json::Value::take)
        .ok_or_else(|| format!("{shown}: not the --json output of a match (no \"shard\" member)"))?;
    let part: ShardMember<serde_json::Value> =
        serde_json::from_value(member).map_err(|e| format!("{shown}: a malformed \"shard\" member ({e})"))?;
    Ok(Part { path: path.to_path_buf(), info: part.info, tally: part.tally })
}

/// Refuses parts of different matches, duplicated or incomplete shards.
fn check_parts(parts: &[Part]) -> Result<(), String> {
    let first = &parts[0];
    for (i, part) in parts.iter().enumerate() {
        let (shown, info) = (part.path.display(), &part.info);
        if info.fingerprint != first.info.fingerprint || info.count != first.info.count {
            return Err(format!(
                "{shown} is a shard of another match than {} ({})",
                first.path.display(),
                difference(&first.info, info)
            ));
        }
        if let Some(twin) = parts[..i].iter().find(|p| p.info.index == info.index) {
            return Err(format!(
                "{shown} and {} are both shard {}/{}: each shard may be merged once",
                twin.path.display(),
                info.index,
                info.count
            ));
        }
        if !info.complete {
            return Err(format!(
                "{shown}: shard {}/{} did not finish its {} games (interrupted?); finish it with --resume first",
                info.index, info.count, info.planned_games
            ));
        }
    }
    Ok(())
}

/// What differs between two shards' settings, for the refusal.
fn difference(a: &ShardInfo, b: &ShardInfo) -> String {
    if a.count != b.count {
        return format!("of {} shards against {}", b.count, a.count);
    }
    let value = |info: &ShardInfo, name: &str| {
        info.settings.iter().find(|(n, _)| n == name).map_or("(none)".to_string(), |(_, v)| v.clone())
    };
    let names = a.settings.iter().chain(&b.settings).map(|(n, _)| n.as_str());
    for name in names {
        let (x, y) = (value(a, name), value(b, name));
        if x != y {
            return format!("{name} '{y}' against '{x}'");
        }
    }
    format!("fingerprint {} against {}", b.fingerprint, a.fingerprint)
}

/// The note of the merged table's first line: which shards it holds.
fn merge_note(parts: &[Part]) -> String {
    let count = parts[0].info.count;
    let mut held: Vec<u64> = parts.iter().map(|p| p.info.index).collect();
    held.sort_unstable();
    if held.len() as u64 == count {
        return format!(" ({count} shards merged)");
    }
    let missing: Vec<String> = (1..=count).filter(|k| !held.contains(k)).map(|k| k.to_string()).collect();
    format!(" ({} of {count} shards merged; missing: {})", held.len(), missing.join(", "))
}

/// Runs `steere match merge`.
pub fn run_merge(args: &MergeArgs) -> Result<(), String> {
    let parts = args.files.iter().map(|p| read_part(p)).collect::<Result<Vec<_>, _>>()?;
    check_parts(&parts)?;
    let note = merge_note(&parts);
    if note.contains("missing") {
        if args.require_all {
            return Err(format!("--require-all: not every shard is here{note}; nothing written"));
        }
        eprintln!("steere: warning: the report covers only some shards of the match{note}");
    }
    let info = &parts[0].info;
    let elapsed = Duration::from_secs_f64(parts.iter().map(|p| p.info.elapsed_s.max(0.0)).sum());
    let held: Vec<String> = parts.iter().map(|p| p.info.index.to_string()).collect();
    let merged_member = format!(
        "{{\"count\":{},\"shards\":[{}],\"fingerprint\":\"{}\"}}",
        info.count,
        held.join(","),
        info.fingerprint
    );
    let mut tally = tally_of(&parts[0])?;
    for part in &parts[1..] {
        tally.merge(&tally_of(part)?).map_err(|e| format!("{}: {e}", part.path.display()))?;
    }
    let sprt = info.sprt.map(|sprt: Sprt| {
        let llr = sprt.llr(&tally.penta);
        SprtState { sprt, llr, verdict: sprt.verdict(llr) }
    });
    let heading = Heading { variant: &info.variant, seed: info.seed };
    let output = if args.json {
        with_member(&tally.json(heading, sprt.as_ref(), elapsed), "merged", &merged_member) + "\n"
    } else {
        tally.table(heading, sprt.as_ref(), elapsed, &note)
    };
    super::output::emit(args.output.as_deref(), &output)
}

/// The raw tally of a part, in the form of its runner.
fn tally_of(part: &Part) -> Result<Tally, String> {
    Tally::read(part.tally.clone(), part.info.kind == Kind::Dice)
        .map_err(|e| format!("{}: a malformed tally in the \"shard\" member ({e})", part.path.display()))
}

/// The time recorded by the earlier runs of a resumed match: the `elapsed_s` of the JSON
/// report at `path`, if it is a report of the same match and shard (`fingerprint`, `index`
/// of `count`); zero otherwise (no such file, another match, a table). A run killed before
/// writing its report (SIGKILL) has no time to give.
pub fn earlier_elapsed(path: &Path, fingerprint: &str, index: u64, count: u64) -> Duration {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Duration::ZERO;
    };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text.trim()) else {
        return Duration::ZERO;
    };
    let Some(info) = value.get("shard").and_then(|m| serde_json::from_value::<ShardInfo>(m.clone()).ok())
    else {
        return Duration::ZERO;
    };
    if info.fingerprint != fingerprint || info.index != index || info.count != count {
        return Duration::ZERO;
    }
    Duration::try_from_secs_f64(info.elapsed_s).unwrap_or(Duration::ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_are_added_at_the_end() {
        assert_eq!(with_member("{\"a\":1}", "b", "[2]"), "{\"a\":1,\"b\":[2]}");
        assert_eq!(with_member("{}", "b", "2"), "{\"b\":2}");
    }

    #[test]
    fn only_a_report_of_the_same_shard_gives_its_time() {
        let dir = std::env::temp_dir().join(format!("steere-earlier-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.json");
        let report = r#"{"games":2,"shard":{"index":2,"count":4,"fingerprint":"abc","settings":[],"kind":"board","variant":"impasse","seed":1,"sprt":null,"planned_games":10,"complete":false,"elapsed_s":12.5,"tally":{}}}"#;
        std::fs::write(&path, report).unwrap();
        assert_eq!(earlier_elapsed(&path, "abc", 2, 4), Duration::from_secs_f64(12.5));
        assert_eq!(earlier_elapsed(&path, "abd", 2, 4), Duration::ZERO, "another match");
        assert_eq!(earlier_elapsed(&path, "abc", 3, 4), Duration::ZERO, "another shard");
        std::fs::write(&path, "a table, not JSON").unwrap();
        assert_eq!(earlier_elapsed(&path, "abc", 2, 4), Duration::ZERO);
        assert_eq!(earlier_elapsed(&dir.join("none.json"), "abc", 2, 4), Duration::ZERO);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
