//! A match interrupted as batch systems and machines interrupt it: a SIGTERM to every process
//! of the job at once (Slurm's preemption, `scancel`, the time limit), repeated signals,
//! `kill -9` of the runner at random moments, a record file cut in the middle of a game, and a
//! shard's report written whole or not at all. In every case `--resume` must end with the
//! match an uninterrupted run plays: no game lost, none invented, none counted twice.
//!
//! Expected values come from the uninterrupted match run by the test itself (the engines are
//! deterministic, see match_runs/mod.rs).

mod match_runs;

use match_runs::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The exit status of an interrupted, resumable match.
const INTERRUPTED: i32 = 75;

/// Writes an executable shell script.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    Command::new("chmod").args(["+x", path.to_str().unwrap()]).status().unwrap();
    path.display().to_string()
}

/// The processes whose parent is `pid`.
fn children(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else { continue };
        // The parent is the second field after the command name in parentheses.
        let after_name = &stat[stat.rfind(')').map_or(0, |i| i + 1)..];
        if after_name.split_whitespace().nth(1).and_then(|p| p.parse::<u32>().ok()) == Some(pid) {
            found.push(child);
        }
    }
    found
}

/// Sends `signal` to each process of `pids`.
fn kill(signal: &str, pids: &[u32]) {
    for pid in pids {
        let _ = Command::new("kill").args([signal, &pid.to_string()]).status();
    }
}

/// Waits until the record file holds `games` games (counted by `marker`).
fn wait_for_games(record: &Path, marker: &str, games: usize) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::read_to_string(record).map_or(0, |t| t.matches(marker).count()) < games {
        assert!(Instant::now() < deadline, "the match never recorded {games} games");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Starts `args` with stdout and stderr piped.
fn start(args: &[String]) -> Child {
    Command::new(STEERE).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
}

/// The board match of these tests, its record file and report file.
fn board_run(rounds: u64, engine1: &str, record: &Path, report: &Path) -> Vec<String> {
    let mut args = board_match(rounds, &words(&["--json", "--resume", record.to_str().unwrap()]));
    args.extend(words(&["--output", report.to_str().unwrap()]));
    let at = args.iter().position(|a| a == "--engine1").unwrap() + 1;
    args[at] = engine1.to_string();
    args
}

/// The uninterrupted match's games.
fn whole_games(dir: &Path, rounds: u64) -> std::collections::BTreeMap<u64, Vec<String>> {
    let record = dir.join("whole.pgn");
    summary(&board_match(rounds, &json_to("--pgn", &record)));
    board_games(&record)
}

/// Reads a report file.
fn report_of(path: &Path) -> Value {
    serde_json::from_str(std::fs::read_to_string(path).unwrap().trim()).unwrap()
}

/// An engine that sends itself SIGTERM and SIGINT before it starts lives on: the runner starts
/// engines with both ignored, so that a signal meant for the whole job stops the runner alone.
#[test]
fn an_engine_ignores_the_signals_of_the_job() {
    let dir = temp_dir("shielded");
    let engine = script(&dir, "self-signalling.sh", &format!("kill -TERM $$\nkill -INT $$\nexec {STEERE}"));
    let (record, report) = (dir.join("games.pgn"), dir.join("report.json"));
    let out = steere(&board_run(1, &engine, &record, &report));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(report_of(&report)["games"], 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// SIGTERM to every process of the match at once, the engines first (as Slurm signals a job
/// step), three times at different moments: the runner stops with status 75 and a report that
/// says so, no game is recorded as lost by a crash, and `--resume` completes the match game
/// for game. `engine1` is either `steere` (the signal is ignored) or `steere` with SIGTERM's
/// default restored (it dies of it: the driver must not count that crash).
fn job_wide_sigterm(name: &str, engine1: &dyn Fn(&Path) -> String) {
    let dir = temp_dir(name);
    let engine = engine1(&dir);
    let (record, report) = (dir.join("games.pgn"), dir.join("report.json"));
    for games in [2, 6, 11] {
        let run = start(&board_run(10, &engine, &record, &report));
        wait_for_games(&record, "[Game ", games);
        kill("-TERM", &children(run.id()));
        std::thread::sleep(Duration::from_millis(2));
        kill("-TERM", &[run.id()]);
        let out = run.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(INTERRUPTED), "{}", text(&out.stderr));
        let recorded = std::fs::read_to_string(&record).unwrap();
        assert!(!recorded.contains("crash"), "a crash was recorded:\n{recorded}");
        let partial = report_of(&report);
        assert_eq!(partial["shard"]["complete"], false);
        assert_eq!(partial["games"].as_u64(), Some(board_games(&record).len() as u64));
    }
    let out = steere(&board_run(10, &engine, &record, &report));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(report_of(&report)["shard"]["complete"], true);
    assert_eq!(board_games(&record), whole_games(&dir, 10));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_job_wide_sigterm_neither_loses_nor_invents_a_game() {
    job_wide_sigterm("job-sigterm", &|_| STEERE.to_string());
}

#[test]
fn an_engine_killed_by_the_jobs_sigterm_is_no_crash() {
    // `env --default-signal=TERM` undoes the runner's shield, as an engine that installs a
    // handler of its own would.
    job_wide_sigterm("job-sigterm-dying", &|dir| {
        script(dir, "dies-of-sigterm.sh", &format!("exec env --default-signal=TERM {STEERE}"))
    });
}

/// More SIGTERMs while the runner winds down (batch systems repeat it) change nothing: the
/// report is still written whole and the status says "interrupted".
#[test]
fn repeated_sigterms_do_not_lose_the_report() {
    let dir = temp_dir("repeated-sigterm");
    let (record, report) = (dir.join("games.pgn"), dir.join("report.json"));
    let run = start(&board_run(10, STEERE, &record, &report));
    wait_for_games(&record, "[Game ", 2);
    for _ in 0..4 {
        kill("-TERM", &[run.id()]);
        std::thread::sleep(Duration::from_millis(3));
    }
    let out = run.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(INTERRUPTED), "{}", text(&out.stderr));
    assert_eq!(report_of(&report)["games"].as_u64(), Some(board_games(&record).len() as u64));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A small seeded generator for the moments of the kills (SplitMix64).
fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `kill -9` of the runner at 20 random moments, each followed by `--resume`: the record ends
/// as the uninterrupted match's, game for game (a game cut while being written is dropped and
/// played again).
#[test]
fn kill_9_of_the_runner_twenty_times_loses_and_invents_no_game() {
    let dir = temp_dir("kill-9");
    let (record, report) = (dir.join("games.pgn"), dir.join("report.json"));
    let mut state = 21u64;
    for _ in 0..20 {
        let mut run = start(&board_run(10, STEERE, &record, &report));
        std::thread::sleep(Duration::from_millis(30 + next_random(&mut state) % 400));
        let engines = children(run.id());
        kill("-KILL", &[run.id()]);
        let _ = run.wait();
        // Orphaned engines read the end of their input and quit; kill them anyway.
        kill("-KILL", &engines);
    }
    let out = steere(&board_run(10, STEERE, &record, &report));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(board_games(&record), whole_games(&dir, 10));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A record file whose last game was cut short (the runner killed while writing it): `--resume`
/// drops that game with a warning, cuts it from the file and plays it again. A file that is
/// not a record file is refused and left as it was.
#[test]
fn a_cut_last_game_is_dropped_and_played_again() {
    let dir = temp_dir("cut");
    let whole = whole_games(&dir, 3);
    let full = std::fs::read_to_string(dir.join("whole.pgn")).unwrap();
    let fifth = full.match_indices("[Event ").nth(4).unwrap().0;
    for cut_at in [fifth + 3, fifth + 40, fifth + (full.len() - fifth) / 2, full.len() - 3] {
        let record = dir.join("cut.pgn");
        std::fs::write(&record, &full[..cut_at]).unwrap();
        let out = steere(&board_match(3, &json_to("--resume", &record)));
        assert!(out.status.success(), "cut at {cut_at}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("cut short"), "{}", text(&out.stderr));
        assert_eq!(board_games(&record), whole);
    }
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "not a record file\n").unwrap();
    let out = steere(&board_match(3, &json_to("--resume", &notes)));
    assert!(!out.status.success());
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "not a record file\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same for a dice record, whose games are lines.
#[test]
fn a_cut_last_dice_game_is_dropped_and_played_again() {
    let dir = temp_dir("cut-dice");
    let whole_record = dir.join("whole.jsonl");
    summary(&dice_match(8, &json_to("--pgn", &whole_record)));
    let full = std::fs::read_to_string(&whole_record).unwrap();
    let last_line = full[..full.len() - 1].rfind('\n').unwrap() + 1;
    let record = dir.join("cut.jsonl");
    std::fs::write(&record, &full[..last_line + 30]).unwrap();
    let out = steere(&dice_match(8, &json_to("--resume", &record)));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("cut short"));
    assert_eq!(dice_games(&record), dice_games(&whole_record));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--output`: a run refused at once leaves the previous report as it was (the shell's `>`
/// would have emptied it), and a resumed run counts the time of the earlier runs.
#[test]
fn the_report_file_is_replaced_whole_and_counts_every_run() {
    let dir = temp_dir("output");
    let (record, report) = (dir.join("games.pgn"), dir.join("report.json"));
    let run = start(&board_run(10, STEERE, &record, &report));
    wait_for_games(&record, "[Game ", 3);
    kill("-TERM", &[run.id()]);
    assert_eq!(run.wait_with_output().unwrap().status.code(), Some(INTERRUPTED));
    let first = report_of(&report);
    let first_time = first["elapsed_s"].as_f64().unwrap();
    let refused = steere(&[board_run(10, STEERE, &record, &report), words(&["--shard", "3/1"])].concat());
    assert!(!refused.status.success());
    assert_eq!(report_of(&report), first, "a refused run leaves the report alone");
    let out = steere(&board_run(10, STEERE, &record, &report));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "the report goes to the file");
    let last = report_of(&report);
    assert!(last["elapsed_s"].as_f64().unwrap() > first_time, "{last}");
    let shard_time = last["shard"]["elapsed_s"].as_f64().unwrap();
    assert!((shard_time - last["elapsed_s"].as_f64().unwrap()).abs() < 1e-3, "{last}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `merge --require-all` merges only a whole match, and otherwise writes nothing.
#[test]
fn merge_require_all_waits_for_every_shard() {
    let dir = temp_dir("require-all");
    let shard = |k: u64| -> PathBuf {
        let path = dir.join(format!("shard-{k}.json"));
        let args = board_match(2, &words(&["--json", "--shard", &format!("{k}/2"), "--output"]));
        let out = steere(&[args, vec![path.display().to_string()]].concat());
        assert!(out.status.success(), "{}", text(&out.stderr));
        path
    };
    let first = shard(1);
    let merged = dir.join("merged.txt");
    let merge = |files: &[&PathBuf]| {
        let mut args = words(&["match", "merge", "--require-all", "--output", merged.to_str().unwrap()]);
        args.extend(files.iter().map(|f| f.display().to_string()));
        steere(&args)
    };
    let out = merge(&[&first]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("missing: 2"), "{}", text(&out.stderr));
    assert!(!merged.exists());
    let second = shard(2);
    let out = merge(&[&first, &second]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = std::fs::read_to_string(&merged).unwrap();
    assert!(table.contains("(2 shards merged)"), "{table}");
    let _ = std::fs::remove_dir_all(&dir);
}
