//! Helpers of the test targets that run whole matches (match_shards.rs,
//! match_interruptions.rs): the binary, deterministic matches, their summaries and records.
//!
//! The engines are deterministic: `steere` at a fixed depth (board games) and the built-in fixed
//! strategies of Can't Stop at `depth=1`, so that the same game number gives the same game in
//! any process.
#![allow(dead_code)]

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};
use steere::tools::matches::dice::record::parse_dice_records;
use steere::tools::matches::record::parse_records;

pub const STEERE: &str = env!("CARGO_BIN_EXE_steere");

/// A fresh temporary directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("steere-shards-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `steere ARGS`.
pub fn steere(args: &[String]) -> Output {
    Command::new(STEERE).args(args).output().expect("steere runs")
}

/// Strings of words.
pub fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// A board match: `steere` at depth 2 against depth 1, `rounds` opening pairs, then `extra`.
pub fn board_match(rounds: u64, extra: &[String]) -> Vec<String> {
    let mut args = words(&["match", "--engine1", STEERE, "name=d2", "depth=2", "--engine2", STEERE]);
    args.extend(words(&["name=d1", "depth=1", "--each", "option.Hash=8", "--rounds"]));
    args.push(rounds.to_string());
    args.extend_from_slice(extra);
    args
}

/// A Can't Stop match: rule28 against greedy (fixed strategies, instant), `games` games with
/// seed 3, then `extra`.
pub fn dice_match(games: u64, extra: &[String]) -> Vec<String> {
    let mut args = words(&["match", "--variant", "cantstop", "--engine1", STEERE, "name=rule28"]);
    args.extend(words(&["option.Strategy=rule28", "depth=1", "--engine2", STEERE, "name=greedy"]));
    args.extend(words(&["option.Strategy=greedy", "depth=1", "--seed", "3", "--games"]));
    args.push(games.to_string());
    args.extend_from_slice(extra);
    args
}

/// `--json --pgn FILE` (or `--resume FILE`) words.
pub fn json_to(flag: &str, record: &Path) -> Vec<String> {
    vec!["--json".into(), flag.into(), record.display().to_string()]
}

/// Runs a match that must succeed and returns its JSON summary.
pub fn summary(args: &[String]) -> Value {
    let out = steere(args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_str(text(&out.stdout).trim()).unwrap_or_else(|e| panic!("{e}: {}", text(&out.stdout)))
}

/// The counts of a summary: everything but the time and the shard or merge members.
pub fn counts(summary: &Value) -> Value {
    let mut counts = summary.clone();
    let object = counts.as_object_mut().unwrap();
    for key in ["elapsed_s", "shard", "merged"] {
        object.remove(key);
    }
    counts
}

/// Writes `summary` to `path` as a shard's JSON file.
pub fn save(path: &Path, summary: &Value) {
    std::fs::write(path, summary.to_string()).unwrap();
}

/// `steere match merge --json FILES` (must succeed).
pub fn merge_json(files: &[PathBuf]) -> Value {
    let mut args = words(&["match", "merge", "--json"]);
    args.extend(files.iter().map(|f| f.display().to_string()));
    summary(&args)
}

/// The games of a board record file by number: opening, players, moves, result, reason.
pub fn board_games(path: &Path) -> BTreeMap<u64, Vec<String>> {
    let mut games = BTreeMap::new();
    for game in parse_records(&std::fs::read_to_string(path).unwrap()).unwrap() {
        let number: u64 = game.tag("Game").unwrap().parse().unwrap();
        let mut facts: Vec<String> =
            ["FEN", "White", "Black", "Reason"].iter().map(|t| game.tag(t).unwrap().to_string()).collect();
        facts.push(game.moves.join(" "));
        facts.push(game.result.clone());
        game.replay().unwrap_or_else(|e| panic!("game {number} does not replay: {e}"));
        assert!(games.insert(number, facts).is_none(), "game {number} recorded twice");
    }
    games
}

/// The games of a dice record file by number: seats, dice, events, result.
pub fn dice_games(path: &Path) -> BTreeMap<u64, Vec<String>> {
    let mut games = BTreeMap::new();
    for game in parse_dice_records(&std::fs::read_to_string(path).unwrap()).unwrap() {
        assert_eq!(game.replay().map(|_| ()), Ok(()), "game {}", game.game);
        let facts = vec![game.seats.join(","), game.dice.clone(), game.events.clone(), game.result.clone()];
        assert!(games.insert(game.game, facts).is_none(), "game {} recorded twice", game.game);
    }
    games
}

/// Waits until `record` holds at least `games` games (counted by `marker`), then sends `signal`
/// to the runner; returns its output.
pub fn interrupt(child: Child, record: &Path, marker: &str, games: usize, signal: &str) -> Output {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let done = std::fs::read_to_string(record).map_or(0, |t| t.matches(marker).count());
        if done >= games {
            break;
        }
        assert!(Instant::now() < deadline, "the match never recorded {games} games");
        std::thread::sleep(Duration::from_millis(5));
    }
    let status = Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    child.wait_with_output().unwrap()
}

/// Starts a match with its output piped.
pub fn spawn(args: &[String]) -> Child {
    Command::new(STEERE).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
}
