//! The Slurm example, docs/examples/match-slurm.sh, run as shipped (only its documented knobs
//! set) on a real one-node Slurm cluster on this machine (engine-tests/slurm/cluster.sh
//! installs Debian's slurm-wlm and munge and starts it; root needed), while its tasks are
//! preempted, requeued and stopped: the merged result, made by the tasks themselves, must be
//! the unsharded match's, game for game.
//!
//! Slow (minutes) and it changes the machine (packages, daemons), so it is ignored by default:
//!   cargo test --release --test slurm -- --ignored --nocapture
//! INTERRUPTIONS (default 20) sets how many preemptions, requeues and clean stops are made.

mod match_runs;

use match_runs::{STEERE, board_games, temp_dir, text};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The two engines and the match, as the knobs give them to the example.
const ENGINE1: &str = "name=d3 depth=3";
const ENGINE2: &str = "name=d2 depth=2";
const MATCH: &str = "--each option.Hash=8 --rounds 1000";
const SHARDS: u64 = 4;

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs a shell command line in `dir` and returns its stdout; panics if it fails.
fn sh(dir: &Path, line: &str) -> String {
    try_sh(dir, line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// Runs a shell command line in `dir`: its stdout, or its output if it fails.
fn try_sh(dir: &Path, line: &str) -> Result<String, String> {
    let out = Command::new("bash").args(["-c", line]).current_dir(dir).output().unwrap();
    match out.status.success() {
        true => Ok(text(&out.stdout)),
        false => Err(format!("{}{}", text(&out.stdout), text(&out.stderr))),
    }
}

/// The environment the example's knobs are set in.
fn knobs() -> String {
    format!(
        "STEERE={STEERE} ENGINE1=\"{STEERE} {ENGINE1}\" ENGINE2=\"{STEERE} {ENGINE2}\" MATCH=\"{MATCH}\" SHARDS={SHARDS}"
    )
}

/// Submits tasks `array` of the example from `dir` (one CPU each, so that two run at once on
/// this machine and the high partition can preempt them); returns the array's job id.
fn submit(dir: &Path, array: &str) -> String {
    let example = root().join("docs/examples/match-slurm.sh");
    let line =
        format!("{} sbatch --parsable --array={array} --cpus-per-task=1 {}", knobs(), example.display());
    sh(dir, &line).trim().to_string()
}

/// The running tasks of our jobs: (`A_K`, the array task's name for Slurm's commands, K).
fn running(dir: &Path) -> Vec<(String, u64)> {
    let list = sh(dir, "squeue -h -r -n steere-match -t R -o '%i %K'");
    list.lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            Some((w.first()?.to_string(), w.get(1)?.parse().ok()?))
        })
        .collect()
}

/// Makes the pending tasks eligible at once: Slurm holds a requeued job for two minutes
/// (`BeginTime`), which would make this test last an hour; an administrator's command, not a
/// change to the example.
fn release_held(dir: &Path) {
    for task in sh(dir, "squeue -h -r -n steere-match -t PD -o %i").split_whitespace() {
        let _ = try_sh(dir, &format!("scontrol update jobid={task} starttime=now"));
    }
}

/// Whether any of our jobs is still queued or running.
fn busy(dir: &Path) -> bool {
    !sh(dir, "squeue -h -r -n steere-match -o %i").trim().is_empty()
}

/// A small seeded generator (SplitMix64) for the moments and kinds of the interruptions.
fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One interruption of a running task, of kind `kind`: what was done, or why Slurm refused
/// (a task that is starting or ending "can not be altered now").
fn interrupt(dir: &Path, kind: u64, (task, k): &(String, u64)) -> Result<String, String> {
    match kind {
        0 => {
            try_sh(dir, &format!("scontrol requeue {task}"))?;
            Ok(format!("requeued {task}"))
        }
        1 => {
            // A job of the high partition that needs every processor preempts the low ones.
            sh(dir, "sbatch -p high -N 1 --exclusive -o /dev/null --wrap 'sleep 2'");
            Ok("preempted the running tasks".to_string())
        }
        _ => {
            // The documented clean stop, then the documented resubmission of that task.
            try_sh(dir, &format!("scancel --batch --signal=TERM {task}"))?;
            let deadline = Instant::now() + Duration::from_secs(60);
            while running(dir).iter().any(|t| &t.0 == task) {
                assert!(Instant::now() < deadline, "{task} did not stop");
                std::thread::sleep(Duration::from_millis(200));
            }
            submit(dir, &k.to_string());
            Ok(format!("stopped {task} and resubmitted task {k}"))
        }
    }
}

#[test]
#[ignore = "minutes; installs and starts a Slurm cluster (root): cargo test --release --test slurm -- --ignored"]
fn the_slurm_example_survives_preemption_requeue_and_stops() {
    let interruptions: usize = std::env::var("INTERRUPTIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let cluster = root().join("engine-tests/slurm/cluster.sh");
    let out = Command::new(&cluster).arg("start").output().unwrap();
    assert!(out.status.success(), "the cluster: {}", text(&out.stderr));
    let dir = temp_dir("slurm");
    // The unsharded, uninterrupted match: what the merge must equal.
    let whole = sh(
        &dir,
        &format!(
            "{STEERE} match --engine1 {STEERE} {ENGINE1} --engine2 {STEERE} {ENGINE2} {MATCH} --pgn whole.pgn"
        ),
    );
    submit(&dir, &format!("1-{SHARDS}"));
    let mut state = 22u64;
    let mut done = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(1800);
    while done.len() < interruptions {
        assert!(Instant::now() < deadline, "interrupted {} times only: {done:?}", done.len());
        std::thread::sleep(Duration::from_millis(1000 + next_random(&mut state) % 2500));
        release_held(&dir);
        let tasks = running(&dir);
        assert!(
            !tasks.is_empty() || busy(&dir),
            "the match ended after {} interruptions: make it longer",
            done.len()
        );
        if tasks.is_empty() {
            continue;
        }
        let task = &tasks[(next_random(&mut state) % tasks.len() as u64) as usize];
        match interrupt(&dir, done.len() as u64 % 3, task) {
            Ok(action) => {
                eprintln!("interruption {}: {action}", done.len() + 1);
                done.push(action);
            }
            Err(refused) => eprintln!("(Slurm refused: {})", refused.trim()),
        }
        std::thread::sleep(Duration::from_millis(500));
        release_held(&dir);
    }
    while busy(&dir) {
        release_held(&dir);
        assert!(Instant::now() < deadline, "the tasks never finished");
        std::thread::sleep(Duration::from_secs(1));
    }
    let merged = std::fs::read_to_string(dir.join("merged.txt"))
        .unwrap_or_else(|e| panic!("no merged.txt ({e}); logs:\n{}", sh(&dir, "tail -n 5 shard-*.log")));
    assert!(merged.contains(&format!("({SHARDS} shards merged)")), "{merged}");
    let body = |t: &str| t.lines().skip(1).map(String::from).collect::<Vec<_>>();
    assert_eq!(body(&merged), body(&whole), "merged:\n{merged}\nunsharded:\n{whole}");
    let mut sharded = std::collections::BTreeMap::new();
    for k in 1..=SHARDS {
        for (number, game) in board_games(&dir.join(format!("shard-{k}.pgn"))) {
            assert!(sharded.insert(number, game).is_none(), "game {number} in two shards");
        }
    }
    assert_eq!(sharded, board_games(&dir.join("whole.pgn")), "the games, game for game");
    let logs = sh(&dir, "cat shard-*.log");
    let restarts = logs.matches("== shard").count() / 2;
    eprintln!("{} interruptions, {restarts} task runs, merged:\n{merged}", done.len());
    let _ = std::fs::remove_dir_all(&dir);
}
