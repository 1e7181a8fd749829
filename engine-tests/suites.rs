//! End-to-end tests of `steere solve` on small EPD files whose expectations are worked out by
//! hand from the rules contract, including malformed lines (reported with their line number,
//! never fatal) and failed expectations (non-zero exit code).

use std::process::{Command, Output};

/// Runs `steere solve` on an EPD text written to a temporary file.
fn solve(name: &str, epd: &str, args: &[&str]) -> Output {
    let path = std::env::temp_dir().join(format!("steere-suites-{}-{name}.epd", std::process::id()));
    std::fs::write(&path, epd).expect("temporary EPD file");
    let output = Command::new(env!("CARGO_BIN_EXE_steere"))
        .arg("solve")
        .arg(&path)
        .args(args)
        .output()
        .expect("the steere binary runs");
    let _ = std::fs::remove_file(&path);
    output
}

/// White's only checker, a1, is blocked by the black single b2: the impasse removal `a1` removes
/// White's last checker and wins at once, a win in 1 own move.
const WIN_IN_1: &str = "8/8/8/8/8/8/1b6/w7 w";
/// Black's only checker is a single waiting on a1; White has two singles and a turn removes at
/// most one checker, so whatever White plays, Black then removes a1 and wins: White loses in 1.
const LOSS_IN_1: &str = "8/8/8/8/8/2w1w3/8/b7 w";

#[test]
fn proven_results_pass() {
    let epd =
        format!("# hand-checked\n\n{WIN_IN_1} ; bm a1; win 1; id \"w1\"\n{LOSS_IN_1} ; loss 1; id \"l1\"\n");
    let output = solve("pass", &epd, &["--depth", "6"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("id \"w1\" pass move a1 score win 1"), "{stdout}");
    assert!(stdout.contains("id \"l1\" pass"), "{stdout}");
    assert!(stdout.contains("solved 2/2"), "{stdout}");
}

#[test]
fn wrong_expectations_fail_and_malformed_lines_are_numbered_not_fatal() {
    // Line 1: the distance is wrong (it is a win in 1); line 2: an illegal best move; line 3:
    // not a FEN; line 4: a correct entry that must still be solved after the bad lines.
    let epd = format!(
        "{WIN_IN_1} ; win 2; id \"w2\"\n{WIN_IN_1} ; bm d2f4\nnot a fen ; bm a1\n{WIN_IN_1} ; win 1; id \"ok\"\n"
    );
    let output = solve("fail", &epd, &["--depth", "6"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stdout}");
    assert!(stdout.contains("id \"w2\" fail"), "{stdout}");
    assert!(stdout.contains("id \"ok\" pass"), "{stdout}");
    assert!(stderr.contains(":2:") && stderr.contains("illegal move 'd2f4'"), "{stderr}");
    assert!(stderr.contains(":3:"), "{stderr}");
}
