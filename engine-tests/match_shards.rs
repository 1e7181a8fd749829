//! Matches beyond one process: `--shard K/N` and `steere match merge`, SIGINT/SIGTERM and
//! `--resume`, the one-sided report of a clean sweep, and the GNU parallel example of
//! docs/matches.md run as written.
//!
//! The engines are deterministic: `steere` at a fixed depth (board games) and the built-in fixed
//! strategies of Can't Stop at `depth=1`, so that the same game number gives the same game in
//! any process. The expected values come from the unsharded, uninterrupted match run by the
//! test itself, or from hand computations (the one-sided bounds).

mod match_runs;

use match_runs::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Two board shards, merged, are the unsharded match: the same games under the same numbers,
/// the same counts, Elo and SPRT.
#[test]
fn two_board_shards_merge_to_the_unsharded_match() {
    let dir = temp_dir("board");
    let sprt = words(&["--sprt", "elo0=0", "elo1=5"]);
    let whole = summary(&board_match(4, &[sprt.clone(), json_to("--pgn", &dir.join("whole.pgn"))].concat()));
    let mut files = Vec::new();
    let mut sharded = BTreeMap::new();
    for k in 1..=2 {
        let record = dir.join(format!("shard-{k}.pgn"));
        let shard = words(&["--shard", &format!("{k}/2")]);
        let result = summary(&board_match(4, &[sprt.clone(), shard, json_to("--pgn", &record)].concat()));
        let games = board_games(&record);
        // Pairs are dealt round-robin: shard 1 has pairs 1 and 3 (games 1, 2, 5, 6).
        let expected: Vec<u64> = if k == 1 { vec![1, 2, 5, 6] } else { vec![3, 4, 7, 8] };
        assert_eq!(games.keys().copied().collect::<Vec<_>>(), expected);
        sharded.extend(games);
        let file = dir.join(format!("shard-{k}.json"));
        save(&file, &result);
        files.push(file);
    }
    assert_eq!(sharded, board_games(&dir.join("whole.pgn")), "the shards played the match's games");
    let merged = merge_json(&files);
    assert_eq!(counts(&merged), counts(&whole));
    assert_eq!(merged["games"], 8);
    assert_eq!(merged["merged"]["shards"], serde_json::json!([1, 2]));
    assert!(merged["sprt"]["llr"].is_number(), "{merged}");
    // The table says which shards it holds.
    let mut args = words(&["match", "merge"]);
    args.extend(files.iter().map(|f| f.display().to_string()));
    let table = text(&steere(&args).stdout);
    assert!(table.starts_with("Match d2 vs d1: 8 games, 4 complete pairs,"), "{table}");
    assert!(table.contains("(2 shards merged)") && table.contains("SPRT elo0=0 elo1=5"), "{table}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two dice shards, merged, are the unsharded match: whole dice streams per shard.
#[test]
fn two_dice_shards_merge_to_the_unsharded_match() {
    let dir = temp_dir("dice");
    let whole = summary(&dice_match(20, &json_to("--pgn", &dir.join("whole.jsonl"))));
    let mut files = Vec::new();
    let mut sharded = BTreeMap::new();
    for k in 1..=2 {
        let record = dir.join(format!("shard-{k}.jsonl"));
        let shard = words(&["--shard", &format!("{k}/2")]);
        let result = summary(&dice_match(20, &[shard, json_to("--pgn", &record)].concat()));
        let games = dice_games(&record);
        // Streams are dealt round-robin, both rotations together: shard 2 has streams 1, 3, ...
        let first: Vec<u64> = games.keys().copied().take(4).collect();
        assert_eq!(first, if k == 1 { vec![1, 2, 5, 6] } else { vec![3, 4, 7, 8] });
        assert_eq!(games.len(), 10);
        sharded.extend(games);
        let file = dir.join(format!("shard-{k}.json"));
        save(&file, &result);
        files.push(file);
    }
    assert_eq!(sharded, dice_games(&dir.join("whole.jsonl")));
    let merged = merge_json(&files);
    assert_eq!(counts(&merged), counts(&whole));
    assert_eq!((merged["games"].as_u64(), merged["streams"].as_u64()), (Some(20), Some(10)));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Merge refuses what is not one match: other settings, the same shard twice, an interrupted
/// shard, a file that is no match's JSON; `--shard` refuses a bad K/N.
#[test]
fn merge_refuses_other_matches_duplicates_and_interrupted_shards() {
    let dir = temp_dir("refusals");
    let shard = |k: u64, extra: &[&str]| {
        let mut args = words(&["--json", "--shard", &format!("{k}/2")]);
        args.extend(words(extra));
        let file = dir.join(format!("shard-{k}{}.json", extra.join("")));
        save(&file, &summary(&board_match(1, &args)));
        file
    };
    let (first, second) = (shard(1, &[]), shard(2, &[]));
    let other_seed = shard(2, &["--seed", "9"]);
    let merge_error = |files: &[&PathBuf]| {
        let mut args = words(&["match", "merge"]);
        args.extend(files.iter().map(|f| f.display().to_string()));
        let out = steere(&args);
        assert!(!out.status.success());
        let error = text(&out.stderr);
        assert_eq!(error.lines().count(), 1, "one line: {error}");
        error
    };
    let error = merge_error(&[&first, &other_seed]);
    assert!(error.contains("another match") && error.contains("seed '9' against 'none'"), "{error}");
    let error = merge_error(&[&first, &first]);
    assert!(error.contains("both shard 1/2"), "{error}");
    // An interrupted shard (as a signal leaves it) must be finished before the merge.
    let interrupted = dir.join("interrupted.json");
    let text_of = std::fs::read_to_string(&second).unwrap();
    std::fs::write(&interrupted, text_of.replace("\"complete\":true", "\"complete\":false")).unwrap();
    let error = merge_error(&[&first, &interrupted]);
    assert!(error.contains("interrupted") && error.contains("--resume"), "{error}");
    let garbage = dir.join("garbage.json");
    std::fs::write(&garbage, "{\"games\":3}").unwrap();
    assert!(merge_error(&[&garbage]).contains("no \"shard\" member"));
    // The complete pair merges.
    assert_eq!(merge_json(&[first, second])["games"], 2);
    for bad in ["3/2", "0/2", "1/0", "2"] {
        let out = steere(&board_match(1, &words(&["--shard", bad])));
        assert!(!out.status.success() && text(&out.stderr).contains("--shard"), "{bad}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// SIGINT stops a board match with its finished games recorded and reported; `--resume`
/// completes it to the uninterrupted match, game for game.
#[test]
fn an_interrupted_match_keeps_its_games_and_resumes_to_the_same_totals() {
    let dir = temp_dir("interrupt");
    let record = dir.join("games.pgn");
    let run = spawn(&board_match(10, &words(&["--pgn", record.to_str().unwrap()])));
    let out = interrupt(run, &record, "[Game ", 2, "-INT");
    assert!(!out.status.success(), "an interrupted match is no success");
    let (table, error) = (text(&out.stdout), text(&out.stderr));
    assert!(error.contains("--resume"), "{error}");
    let kept = board_games(&record).len() as u64;
    assert!((2..20).contains(&kept), "{kept} games");
    assert!(table.starts_with(&format!("Match d2 vs d1: {kept} games,")), "{table}");
    assert!(table.lines().next().unwrap().ends_with("(interrupted)"), "{table}");

    let resumed = summary(&board_match(10, &json_to("--resume", &record)));
    let whole_record = dir.join("whole.pgn");
    let whole = summary(&board_match(10, &json_to("--pgn", &whole_record)));
    assert_eq!(counts(&resumed), counts(&whole));
    assert_eq!(board_games(&record), board_games(&whole_record));
    // Resuming a complete match plays nothing and reports the same.
    let again = summary(&board_match(10, &json_to("--resume", &record)));
    assert_eq!(counts(&again), counts(&whole));
    assert_eq!(board_games(&record).len(), 20);
    // A record of other settings is refused, naming the game.
    let out = steere(&board_match(10, &[words(&["--seed", "4"]), json_to("--resume", &record)].concat()));
    let error = text(&out.stderr);
    assert!(!out.status.success() && error.contains("game 1:") && error.contains("opening"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// SIGTERM stops a dice match likewise, and `--resume` completes it.
#[test]
fn sigterm_stops_a_dice_match_and_resume_completes_it() {
    let dir = temp_dir("sigterm");
    let record = dir.join("games.jsonl");
    let run = spawn(&dice_match(600, &json_to("--pgn", &record)));
    let out = interrupt(run, &record, "\"game\":", 10, "-TERM");
    assert!(!out.status.success());
    let partial: Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    let kept = dice_games(&record).len() as u64;
    assert!((10..600).contains(&kept), "{kept} games");
    assert_eq!(partial["games"].as_u64(), Some(kept));
    assert_eq!(partial["shard"]["complete"], false);
    let resumed = summary(&dice_match(600, &json_to("--resume", &record)));
    let whole_record = dir.join("whole.jsonl");
    let whole = summary(&dice_match(600, &json_to("--pgn", &whole_record)));
    assert_eq!(counts(&resumed), counts(&whole));
    assert_eq!(resumed["shard"]["complete"], true);
    assert_eq!(dice_games(&record), dice_games(&whole_record));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fake engine that answers every `go` with a move no game has: it loses every game.
fn hopeless_engine(dir: &Path) -> String {
    let path = dir.join("hopeless.sh");
    let script = "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name hopeless'; \
                  echo uciok ;;\n    isready) echo readyok ;;\n    go*) echo 'bestmove zz99' ;;\n    \
                  quit) exit 0 ;;\n  esac\ndone\n";
    std::fs::write(&path, script).unwrap();
    format!("sh {}", path.display())
}

/// A clean sweep reports a one-sided 95% bound, not an interval of width zero.
#[test]
fn a_clean_sweep_reports_a_one_sided_bound() {
    let dir = temp_dir("sweep");
    let openings = dir.join("openings.fen");
    std::fs::write(&openings, format!("{}\n", steere::impasse::START_FEN)).unwrap();
    let sweep = |first: &[&str], second: &[&str], games: &str, json: bool| {
        let mut args = words(&["match", "--engine1"]);
        args.extend(words(first));
        args.push("--engine2".into());
        args.extend(words(second));
        args.extend(words(&["--openings", openings.to_str().unwrap(), "--games", games]));
        if json {
            args.push("--json".into());
        }
        let out = steere(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        (text(&out.stdout), text(&out.stderr))
    };
    let hopeless = hopeless_engine(&dir);
    let steere_d1 = [STEERE, "name=s", "depth=1"];
    let fake = [hopeless.as_str(), "name=h", "depth=1"];
    // 10-0: 5 pairs all won. The chance q of winning a pair is at least 0.05^(1/5) = 0.549280
    // (95%, one-sided), and so is the score: Elo >= -400 log10(1/0.549280 - 1) = +34.35.
    let (table, progress) = sweep(&steere_d1, &fake, "10", false);
    // The progress line after game 10 (stderr is no terminal: every 10 games) says the same.
    assert!(progress.contains("s 10-0 (100.0%)  elo >= +34.4"), "{progress}");
    assert!(
        table.contains("Elo difference (s - h): at least +34.4 (95%, one-sided: every game won)"),
        "{table}"
    );
    assert!(!table.contains("+- 0.0"), "{table}");
    // 0-10 from the other side: at most -34.4.
    let (table, _) = sweep(&fake, &steere_d1, "10", false);
    assert!(
        table.contains("Elo difference (h - s): at most -34.4 (95%, one-sided: every game lost)"),
        "{table}"
    );
    // One pair proves little: 0.05^(1/1) = 0.05, -400 log10(19) = -511.50.
    let json: Value = serde_json::from_str(sweep(&steere_d1, &fake, "2", true).0.trim()).unwrap();
    let elo = &json["elo"];
    assert_eq!((elo["elo"].is_null(), elo["error95"].is_null(), elo["los"].is_null()), (true, true, true));
    assert_eq!(elo["one_sided"]["bound"], "lower");
    assert!((elo["one_sided"]["elo"].as_f64().unwrap() + 511.5014).abs() < 1e-3, "{elo}");
    assert_eq!(elo["one_sided"]["units"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The first `sh` code block after `heading` in docs/matches.md.
fn doc_block(heading: &str) -> String {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/matches.md")).unwrap();
    let section = &docs[docs.find(heading).unwrap_or_else(|| panic!("no '{heading}' in the docs"))..];
    let start = section.find("```sh\n").unwrap() + 6;
    section[start..start + section[start..].find("```").unwrap()].to_string()
}

/// The GNU parallel example of docs/matches.md, run exactly as written (in a directory where
/// `./target/release/steere` is the binary under test), killed (`kill -9` of one shard) and run
/// again as the docs say, merges to the unsharded match.
#[test]
fn the_gnu_parallel_example_of_the_docs_runs_as_written() {
    let block = doc_block("### On one machine: GNU parallel");
    let found = Command::new("sh").args(["-c", "command -v parallel"]).output().unwrap();
    if !found.status.success() {
        eprintln!("skipped: GNU parallel is not installed (.ci/run installs Debian's parallel)");
        return;
    }
    let dir = temp_dir("parallel");
    std::fs::create_dir_all(dir.join("target/release")).unwrap();
    std::os::unix::fs::symlink(STEERE, dir.join("target/release/steere")).unwrap();
    // First run: a shard's runner is killed (kill -9) once shard 2 has recorded a game; parallel
    // then stops the others (--halt now,fail=1). The same block, run again, finishes the match.
    let mut first = Command::new("sh").args(["-c", &block]).current_dir(&dir).spawn().unwrap();
    let record = dir.join("shard-2.pgn");
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::read_to_string(&record).map_or(0, |t| t.matches("[Game ").count()) < 1 {
        assert!(Instant::now() < deadline, "shard 2 never recorded a game");
        std::thread::sleep(Duration::from_millis(5));
    }
    // The newest shard runner still running (shard 2, or the one after it if 2 just ended).
    let killed =
        Command::new("pkill").args(["-KILL", "-n", "-f", "--", " --resume shard-"]).status().unwrap();
    assert!(killed.success(), "no shard was running");
    assert!(!first.wait().unwrap().success(), "a killed shard fails the first run");
    let out = Command::new("sh").args(["-c", &block]).current_dir(&dir).output().unwrap();
    assert!(out.status.success(), "{block}\n{}", text(&out.stderr));
    let merged = text(&out.stdout);
    // The documented match, unsharded, for the expected table (the lines after the first).
    let whole = steere(&board_match(6, &[]));
    let whole = text(&whole.stdout);
    assert!(merged.contains("(4 shards merged)"), "{merged}");
    let body = |t: &str| t.lines().skip(1).map(String::from).collect::<Vec<_>>();
    assert_eq!(body(&merged), body(&whole), "{merged}\n{whole}");
    let _ = std::fs::remove_dir_all(&dir);
}
