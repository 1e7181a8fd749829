//! End-to-end tests of the command line: the output contracts of `perft`, `divide` and `moves`,
//! and clear errors (stderr, non-zero exit code) for bad input.

use std::process::{Command, Output};

fn steere(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_steere")).args(args).output().expect("the steere binary runs")
}

fn stdout_lines(output: &Output) -> Vec<String> {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output").lines().map(str::to_string).collect()
}

/// Checks `nodes N time MS nps X` and returns N.
fn summary_nodes(line: &str) -> u64 {
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.len(), 6, "summary line: {line}");
    assert_eq!((words[0], words[2], words[4]), ("nodes", "time", "nps"), "summary line: {line}");
    words[3].parse::<u64>().expect("time in ms");
    words[5].parse::<u64>().expect("nps");
    words[1].parse().expect("node count")
}

#[test]
fn perft_ends_with_the_summary_line() {
    for threads in ["1", "2"] {
        let output = steere(&["perft", "--depth", "4", "--threads", threads]);
        assert!(output.status.success());
        let lines = stdout_lines(&output);
        assert_eq!(summary_nodes(lines.last().unwrap()), 193_139);
    }
}

#[test]
fn divide_lists_sorted_moves_and_sums_them() {
    let output = steere(&["divide", "--depth", "2"]);
    assert!(output.status.success());
    let lines = stdout_lines(&output);
    let (rows, summary) = lines.split_at(lines.len() - 1);
    assert_eq!(rows.len(), 22);
    let moves: Vec<&str> = rows.iter().map(|r| r.split(' ').next().unwrap()).collect();
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
    let total: u64 = rows.iter().map(|r| r.split(' ').nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(total, 492);
    assert_eq!(summary_nodes(&summary[0]), 492);
}

#[test]
fn moves_prints_move_and_fen_after() {
    let output = steere(&["moves", "--fen", "3w1W2/4b1b1/8/8/8/8/8/8 w"]);
    assert!(output.status.success());
    assert_eq!(
        stdout_lines(&output),
        ["d8 5W2/4b1b1/8/8/8/8/8/8 b", "f8d8 5W2/4b1b1/8/8/8/8/8/8 b", "f8f8 3W4/4b1b1/8/8/8/8/8/8 b"]
    );
}

#[test]
fn bad_input_gives_a_one_line_error_and_failure() {
    let cases: [&[&str]; 4] = [
        &["perft", "--depth", "3", "--fen", "8/8/8/8/8/8/8/1w6 w"],
        &["moves", "--fen", "not a fen"],
        &["divide", "--depth", "0"],
        &["perft", "--depth", "3", "--threads", "0"],
    ];
    for args in cases {
        let output = steere(args);
        assert!(!output.status.success(), "{args:?} should fail");
        assert!(output.stdout.is_empty(), "{args:?} printed to stdout");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("error"), "{args:?}: {stderr}");
    }
    let output = steere(&["moves", "--fen", "8/8/8/8/8/8/8/1w6 w"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("light square b1"), "{stderr}");
}

/// `steere analyse ... | head -1`: once the reader has gone, the run ends quietly with the status
/// of a filter killed by SIGPIPE (141), with no panic message.
#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_steere"))
        .args(["analyse", "--movetime", "60000"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the steere binary runs");
    let mut reader = BufReader::new(child.stdout.take().expect("piped stdout"));
    let mut first = String::new();
    reader.read_line(&mut first).expect("a first line");
    assert!(first.starts_with("depth 1 "), "{first}");
    drop(reader);
    // The next iteration's line hits the closed pipe (a minute's search has many).
    let output = child.wait_with_output().expect("the process ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(141), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}
