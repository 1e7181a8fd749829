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

/// Runs `steere` with `args`, its stdin closed at once.
fn steere_no_input(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_steere"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the steere binary runs")
}

/// Checks a refusal: a failure status (not a signal), nothing on stdout, one line on stderr
/// containing every word of `needles`; returns that line.
fn one_line_error(args: &[&str], output: &Output, needles: &[&str]) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.code().is_some_and(|c| c != 0), "{args:?}: {} ({stderr})", output.status);
    assert!(output.stdout.is_empty(), "{args:?} printed to stdout");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "{args:?}: {needle} in {stderr}");
    }
    stderr.trim_end().to_string()
}

/// R3: a perft or divide deeper than the documented maximum (64) is refused in one line, in
/// every game, instead of overflowing the stack (exit 134).
#[test]
fn perft_and_divide_deeper_than_the_maximum_are_refused_in_one_line() {
    for args in [
        ["perft", "--variant", "hexdame", "--depth", "3000"],
        ["perft", "--variant", "cantstop", "--depth", "100000"],
        ["divide", "--variant", "hexdame", "--depth", "3000"],
        ["divide", "--variant", "cantstop", "--depth", "100000"],
        ["perft", "--variant", "impasse", "--depth", "65"],
    ] {
        let output = steere(&args);
        one_line_error(&args, &output, &["--depth", "64"]);
    }
}

/// R3: the maximum depth itself fits the stack: the first descent of such a perft reaches its
/// leaves at once, so a stack too small would abort within the first second.
#[test]
fn a_perft_of_the_maximum_depth_does_not_overflow_the_stack() {
    for args in [
        ["perft", "--variant", "hexdame", "--depth", "64", "--threads", "1"],
        ["perft", "--variant", "hexdame", "--depth", "64", "--threads", "2"],
        ["divide", "--variant", "hexdame", "--depth", "64", "--fen", "W:WKa1:BKi9"],
        ["perft", "--variant", "cantstop", "--depth", "64", "--threads", "1"],
        ["divide", "--variant", "cantstop", "--depth", "64", "--fen", "p2 00000000000/00000000000 - 1 r"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_steere"))
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the steere binary runs");
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let status = child.try_wait().expect("try_wait");
        let _ = child.kill();
        let output = child.wait_with_output().expect("the process ends");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(status.is_none(), "{args:?} ended: {status:?} {stderr}");
    }
}

/// R17: every usage error of clap is one line on stderr that names the command's help, with
/// clap's status 2; `--help` and `--version` still print in full on stdout.
#[test]
fn usage_errors_are_one_line_for_every_subcommand() {
    let cases: &[(&[&str], &[&str])] = &[
        (&["perft", "--depth", "-1"], &["error: invalid value '-1' for '--depth", "steere perft --help"]),
        (&["perft"], &["error: ", "--depth", "steere perft --help"]),
        (&["divide", "--depth", "0"], &["error: invalid value '0'", "steere divide --help"]),
        (&["moves", "--bogus"], &["error: ", "'--bogus'", "steere moves --help"]),
        (&["analyse", "--depth", "1", "--nodes", "5"], &["error: ", "steere analyse --help"]),
        (&["analyse", "--hash", "x"], &["error: invalid value 'x'", "steere analyse --help"]),
        (&["bench", "--depth", "-3"], &["error: invalid value '-3'", "steere bench --help"]),
        (&["solve"], &["error: ", "<FILE>", "steere solve --help"]),
        (&["solve", "x.epd", "--jobs", "0"], &["error: invalid value '0'", "steere solve --help"]),
        (&["match", "--bogus"], &["error: ", "steere match --help"]),
        (&["book", "--bogus"], &["error: ", "steere book --help"]),
        (&["gui", "--bogus"], &["error: ", "steere gui --help"]),
        (&["odds", "--bogus"], &["error: ", "steere odds --help"]),
        (&["solitaire", "--games", "-5"], &["error: invalid value '-5'", "steere solitaire --help"]),
        (&["variants", "extra"], &["error: ", "steere variants --help"]),
        (&["codingame", "--turn-ms", "x"], &["error: invalid value 'x'", "steere codingame --help"]),
        (&["nosuchcommand"], &["error: ", "'nosuchcommand'", "steere --help"]),
        (&["--bogus"], &["error: ", "steere --help"]),
    ];
    for (args, needles) in cases {
        let output = steere_no_input(args);
        let line = one_line_error(args, &output, needles);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {line}");
        assert!(line.starts_with("error: "), "{args:?}: {line}");
    }
    for args in [&["--help"][..], &["perft", "--help"], &["--version"], &["help", "solve"]] {
        let output = steere_no_input(args);
        assert!(output.status.success(), "{args:?}");
        assert!(!output.stdout.is_empty() && output.stderr.is_empty(), "{args:?}");
    }
}

/// R9: a table larger than the memory is refused by `analyse`, `bench`, `solve` and
/// `codingame` with a one-line error naming `--hash`, never an abort. (On a machine with 64 GiB
/// to spare it would be allocated: then the commands succeed.)
#[test]
fn a_hash_table_too_large_for_the_memory_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("steere-cli-hash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("one.epd");
    std::fs::write(&file, "8/8/5b2/8/8/8/3w4/B7 w win 3; id \"t\"\n").unwrap();
    let file = file.to_str().unwrap();
    for args in [
        &["analyse", "--hash", "65536", "--depth", "1"][..],
        &["bench", "--hash", "65536", "--depth", "1"],
        &["solve", file, "--hash", "65536", "--depth", "3"],
        &["codingame", "--hash", "65536"],
    ] {
        let output = steere_no_input(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.code().is_some(), "{args:?} was killed: {} {stderr}", output.status);
        if !output.status.success() {
            assert!(output.stdout.is_empty(), "{args:?} printed to stdout");
            assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
            assert!(stderr.contains("--hash") && stderr.contains("65536 MiB"), "{args:?}: {stderr}");
        }
    }
    let output = steere_no_input(&["analyse", "--hash", "65537", "--depth", "1"]);
    one_line_error(&["analyse"], &output, &["--hash", "65536"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A scratch file for one test.
fn scratch(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("steere-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// R14 and the solve input: a malformed line of 30 kB is reported in a short line (the input
/// quoted at most 40 characters), one of 30 MB is refused as too long without being echoed, an
/// invalid UTF-8 byte spoils only its own line, and the good lines around them are still solved.
#[test]
fn solve_reports_bad_lines_briefly_and_solves_the_rest() {
    let good = "8/8/5b2/8/8/8/3w4/B7 w win 3; id \"good\"\n";
    let mut bytes = good.as_bytes().to_vec();
    bytes.extend_from_slice(format!("8/8/5b2/8/8/8/3w4/B7 w {}\n", "x".repeat(30_000)).as_bytes());
    bytes.extend_from_slice(b"8/8/5b2/8/8/8/3w4/B7 w id \"caf\xe9\"; win 3\n");
    bytes.extend_from_slice(format!("{}\n", "y".repeat(30 << 20)).as_bytes());
    bytes.extend_from_slice(good.replace("good", "good too").as_bytes());
    let path = scratch("bad-lines.epd", &bytes);
    let output = steere(&["solve", path.to_str().unwrap(), "--depth", "7"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.lines().all(|l| l.len() < 300), "long error lines: {} bytes", stderr.len());
    let reported: Vec<&str> = stderr.lines().filter(|l| l.contains(".epd:")).collect();
    assert_eq!(reported.len(), 2, "the two long lines: {stderr}");
    assert!(reported.iter().any(|l| l.contains(".epd:2: unknown opcode 'xxxx")), "{stderr}");
    assert!(reported.iter().any(|l| l.contains(".epd:4: the line is 31457280 bytes long")), "{stderr}");
    let passed: Vec<&str> = stdout.lines().filter(|l| l.contains(" pass ")).collect();
    assert_eq!(passed.len(), 3, "both good lines and the one with the bad byte: {stdout}");
    assert!(stdout.contains("id \"caf\u{fffd}\" pass"), "{stdout}");
    assert!(stdout.contains("solved 3/3 malformed 2 "), "{stdout}");
}

/// `steere solve /dev/zero` stops reading at the documented maximum with a one-line error,
/// instead of reading until memory runs out.
#[test]
fn solve_refuses_a_file_without_end() {
    let output = steere(&["solve", "/dev/zero", "--depth", "1"]);
    one_line_error(&["solve", "/dev/zero"], &output, &["/dev/zero", "MiB"]);
}

/// `analyse --multipv 3`: three numbered lines per depth, distinct first moves, legal lines,
/// ordered scores (proven results beyond every estimate), and the best move is line 1.
#[test]
fn analyse_with_multipv_prints_numbered_ordered_lines() {
    use steere::impasse::Position;
    let output = steere(&["analyse", "--depth", "5", "--multipv", "3"]);
    assert!(output.status.success());
    let lines = stdout_lines(&output);
    let start = Position::startpos();
    let mut per_depth: Vec<Vec<(i64, String)>> = Vec::new();
    for line in lines.iter().filter(|l| l.starts_with("depth ")) {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words[4], "multipv", "{line}");
        let k: usize = words[5].parse().unwrap();
        let value: i64 = words[8].parse().unwrap();
        let order = match words[7] {
            "cp" => value,
            "win" => 1_000_000 - value,
            "loss" => -1_000_000 + value,
            other => panic!("score kind {other} in {line}"),
        };
        let pv = line.split(" pv ").nth(1).unwrap();
        let mut pos = start;
        for mv in pv.split(' ') {
            pos = pos.make_move(pos.parse_move(mv).unwrap_or_else(|e| panic!("{e} in {line}")));
        }
        if k == 1 {
            per_depth.push(Vec::new());
        }
        per_depth.last_mut().unwrap().push((order, pv.split(' ').next().unwrap().to_string()));
        assert_eq!(per_depth.last().unwrap().len(), k, "{line}");
    }
    assert_eq!(per_depth.len(), 5);
    for rows in &per_depth {
        assert_eq!(rows.len(), 3);
        assert!(rows.windows(2).all(|w| w[0].0 >= w[1].0 && w[0].1 != w[1].1), "{rows:?}");
        assert_ne!(rows[0].1, rows[2].1);
    }
    let best = lines.last().unwrap().split(' ').nth(1).unwrap();
    assert_eq!(best, per_depth.last().unwrap()[0].1);
}

/// `steere calibrate` end to end on a tiny ladder: every pair's line, the table with a row per
/// rung, the beginner's check, and the `LEVEL ELO` file that `UCI_Elo` reads.
#[test]
fn calibrate_plays_the_ladder_and_writes_the_table() {
    let dir = std::env::temp_dir().join(format!("steere-calibrate-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("levels.txt");
    let output = steere(&[
        "calibrate",
        "--variant",
        "dipole",
        "--games",
        "2",
        "--top",
        "nodes=300",
        "--write",
        file.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}{}", String::from_utf8_lossy(&output.stderr));
    let levels = steere::levels::LEVELS;
    // One line per neighbouring pair and the depth-2 check.
    assert_eq!(
        text.lines().filter(|l| l.contains(" vs ") && l.contains("2 games")).count(),
        levels + 1,
        "{text}"
    );
    assert_eq!(text.lines().filter(|l| l.starts_with("| level")).count(), levels, "{text}");
    assert!(text.contains("level 0 against a depth-2 search: 2 games"), "{text}");
    let table = steere::levels::elo_table(&std::fs::read_to_string(&file).unwrap());
    assert_eq!(table.iter().map(|r| r.0).collect::<Vec<_>>(), (0..levels as u32).collect::<Vec<_>>());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The best moves steere answers over the protocol to `go` (after `options`) at each position
/// of a Dipole line it builds as it goes, each position the one after the moves answered
/// before; with `STEERE_LEVELS` naming `levels` when given.
fn dipole_answers(levels: Option<&std::path::Path>, options: &[&str], go: &str, plies: usize) -> Vec<String> {
    use std::io::{BufRead, BufReader, Write};
    let mut command = Command::new(env!("CARGO_BIN_EXE_steere"));
    command.stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped());
    match levels {
        Some(path) => command.env(steere::levels::OVERRIDE_VAR, path),
        None => command.env_remove(steere::levels::OVERRIDE_VAR),
    };
    let mut child = command.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    writeln!(input, "uci\nsetoption name UCI_Variant value dipole\nsetoption name Threads value 1").unwrap();
    for option in options {
        writeln!(input, "setoption name {option}").unwrap();
    }
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        let line = if moves.is_empty() { String::new() } else { format!(" moves {}", moves.join(" ")) };
        writeln!(input, "position startpos{line}\n{go}").unwrap();
        let answer = loop {
            let mut text = String::new();
            assert!(output.read_line(&mut text).unwrap() > 0, "steere ended before answering");
            if let Some(best) = text.trim().strip_prefix("bestmove ") {
                break best.split(' ').next().unwrap().to_string();
            }
        };
        moves.push(answer);
    }
    writeln!(input, "quit").unwrap();
    child.wait().unwrap();
    moves
}

/// `STEERE_LEVELS` (what `calibrate --levels` sets) makes the engine play the levels of the
/// file it names: a level 0 of one candidate at depth 4 plays what a full-strength depth-4
/// search plays, which the compiled-in level 0 (64 candidates at depth 2, a large error) does
/// not. A file that cannot be read is named, and the compiled-in levels are played.
#[test]
fn a_levels_file_named_by_the_environment_is_the_one_played() {
    let dir = std::env::temp_dir().join(format!("steere-levels-override-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let compiled = steere::variants::find("dipole").unwrap().levels;
    let strong: String = compiled
        .lines()
        .map(|line| {
            if line.starts_with("0 ") {
                "0 depth=4 lines=1 error=0.01 elo=1".to_string()
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let file = dir.join("levels-dipole.txt");
    std::fs::write(&file, strong).unwrap();
    let full = dipole_answers(None, &[], "go depth 4", 6);
    let level = ["Skill Level value 0", "Seed value 5"];
    assert_eq!(dipole_answers(Some(&file), &level, "go", 6), full, "the file's level 0 is a depth-4 search");
    assert_ne!(dipole_answers(None, &level, "go", 6), full, "the compiled-in level 0 plays weaker moves");

    // Unreadable or malformed: `calibrate --levels` refuses it in one line.
    std::fs::write(&file, "0 depth=two\n").unwrap();
    let output =
        steere(&["calibrate", "--variant", "dipole", "--games", "2", "--levels", file.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && stderr.contains("--levels"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
