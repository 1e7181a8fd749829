//! The solve suites: `positions/endgames-impasse.epd` and `positions/tactics-impasse.epd` checked against the
//! independent exhaustive solver (engine-tests/impasse_solver, no code shared with the search), and
//! `steere solve` run end to end on them.
//!
//! Fast tests (run by `cargo test`, a few seconds in the optimised test profile):
//! - a sample of endgames-impasse.epd agrees with the solver: value, distance, winning moves;
//! - `steere solve` proves that sample with the exact values and the fastest moves;
//! - positions worked out by hand from the rules pass, and a wrong distance fails;
//! - malformed lines are reported with their line numbers and the run goes on;
//! - tactics-impasse.epd parses and every `bm` is legal.
//!
//! Ignored (slow): the same checks on every line, and the generators of both files, which check
//! that the files are reproduced, or rewrite them with `STEERE_REGENERATE=1`:
//! `STEERE_REGENERATE=1 cargo test --test impasse_suites -- --ignored regenerate_endgames` (and
//! `regenerate_tactics`).

mod common;
#[path = "impasse_solver/generate.rs"]
mod generate;
#[path = "impasse_solver/mod.rs"]
mod solver;

use common::{project_file, reproduce_or_write};
use solver::{Exact, Solver};
use std::path::PathBuf;
use std::process::{Command, Output};
use steere::impasse::{Move, Position};
use steere::tools::epd::{EpdEntry, Expectation, parse_text};
use steere::variants::{self, Variant};

/// Every entry of a suite file, which must have no malformed line.
fn read_suite(name: &str) -> Vec<EpdEntry<Position>> {
    let path = project_file(&format!("positions/{name}"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let impasse = Variant::<Position> { info: variants::find("impasse").unwrap(), params: () };
    parse_text(impasse, &text)
        .into_iter()
        .map(|(line, entry)| entry.unwrap_or_else(|e| panic!("{name}:{line}: {e}")))
        .collect()
}

/// The moves listed in comment `c1` after its first word (`fastest ...` / `longest ...`).
fn c1_moves(entry: &EpdEntry<Position>) -> Vec<Move> {
    let Some((_, text)) = entry.comments.iter().find(|(n, _)| *n == 1) else { return Vec::new() };
    text.split_whitespace().skip(1).map(|m| entry.position.parse_move(m).expect("a legal c1 move")).collect()
}

fn sorted(moves: &[Move]) -> Vec<String> {
    let mut names: Vec<String> = moves.iter().map(Move::to_string).collect();
    names.sort();
    names
}

/// The solver's value in the EPD form.
fn expectation(value: Exact) -> Expectation {
    match value {
        Exact::Win(p) => Expectation::Win(p.div_ceil(2)),
        Exact::Loss(p) => Expectation::Loss(p / 2),
    }
}

/// Checks one endgame line against the solver: value, distance, the winning moves (`bm`) and
/// the fastest ones (`c1`).
fn check_endgame(solver: &mut Solver, entry: &EpdEntry<Position>) {
    let name = entry.id.clone().unwrap_or_default();
    let analysis =
        solver.analyse(&entry.position).unwrap_or_else(|| panic!("{name}: over the solver budget"));
    assert_eq!(entry.value, Some(expectation(analysis.value)), "{name}: value");
    assert_eq!(sorted(&entry.best_moves), sorted(&analysis.winning), "{name}: bm (the winning moves)");
    if !entry.position.is_game_over() {
        assert_eq!(sorted(&c1_moves(entry)), sorted(&analysis.fastest), "{name}: c1 (fastest / longest)");
    }
}

/// The fast sample: every line with a value of at most `max_moves` own moves, and every `every`-th
/// line beyond.
fn endgame_sample(max_moves: u32, every: usize) -> Vec<EpdEntry<Position>> {
    read_suite("endgames-impasse.epd")
        .into_iter()
        .enumerate()
        .filter(|(i, e)| {
            let n = match e.value {
                Some(Expectation::Win(n) | Expectation::Loss(n)) => n,
                Some(Expectation::Draw) | None => u32::MAX,
            };
            n <= max_moves || i % every == 0
        })
        .map(|(_, e)| e)
        .collect()
}

#[test]
fn the_endgame_suite_is_large_varied_and_agrees_with_the_solver_on_a_sample() {
    let all = read_suite("endgames-impasse.epd");
    assert!(all.len() >= 200, "only {} endgames", all.len());
    let count = |f: &dyn Fn(&EpdEntry<Position>) -> bool| all.iter().filter(|e| f(e)).count();
    assert!(count(&|e| matches!(e.value, Some(Expectation::Win(_)))) >= 80);
    assert!(count(&|e| matches!(e.value, Some(Expectation::Loss(_)))) >= 80);
    assert!(count(&|e| e.position.side_to_move() == steere::impasse::Color::Black) >= 80);
    assert!(count(&|e| e.value == Some(Expectation::Win(1))) >= 2);
    assert!(count(&|e| matches!(e.value, Some(Expectation::Win(n) | Expectation::Loss(n)) if n >= 15)) >= 10);
    let mut solver = Solver::new(8_000_000);
    for entry in endgame_sample(6, 10) {
        check_endgame(&mut solver, &entry);
    }
}

/// Runs the real binary.
fn steere(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_steere")).args(args).output().expect("the steere binary runs")
}

/// A file in the temporary directory, unique to this process and `name`.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("steere-suites-{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("the temporary directory is writable");
    path
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

#[test]
fn steere_solve_proves_an_endgame_sample_exactly() {
    // Values up to 8 own moves (16 plies) are proven well within depth 20.
    let sample = endgame_sample(8, usize::MAX);
    let lines: Vec<String> = sample.iter().map(EpdEntry::to_string).collect();
    let path = temp_file("endgames-sample.epd", &lines.join("\n"));
    let output =
        steere(&["solve", path.to_str().unwrap(), "--prove", "--depth", "20", "--jobs", "2", "--hash", "4"]);
    let _ = std::fs::remove_file(&path);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    let results: Vec<&str> = stdout.lines().collect();
    assert_eq!(results.len(), sample.len() + 1, "{stdout}");
    for (entry, line) in sample.iter().zip(&results) {
        // id "eg-001" pass move M score win N depth D nodes N time MS proof N
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words[1], format!("\"{}\"", entry.id.as_deref().unwrap()), "in file order: {line}");
        assert_eq!((words[2], words[5]), ("pass", "score"), "{line}");
        assert!(line.contains(" proof ") && !line.contains("proof none"), "{line}");
        // The move found is one of those that win (or resist) longest, as the solver says.
        if !entry.position.is_game_over() {
            let fastest = sorted(&c1_moves(entry));
            assert!(fastest.contains(&words[4].to_string()), "{line}: not among {fastest:?}");
        }
    }
    let summary = results.last().unwrap();
    assert!(summary.starts_with(&format!("solved {0}/{0} malformed 0 nodes ", sample.len())), "{summary}");
}

/// White's only checker, a1, is blocked by the black single b2: the impasse removal `a1` removes
/// White's last checker and wins at once, a win in 1 own move.
const WIN_IN_1: &str = "8/8/8/8/8/8/1b6/w7 w";
/// Black's only checker is a single waiting on a1; White has two singles and a turn removes at
/// most one checker, so whatever White plays, Black then removes a1 and wins: White loses in 1.
const LOSS_IN_1: &str = "8/8/8/8/8/2w1w3/8/b7 w";

#[test]
fn hand_checked_results_pass() {
    let file =
        format!("# hand-checked\n\n{WIN_IN_1} ; bm a1; win 1; id \"w1\"\n{LOSS_IN_1} ; loss 1; id \"l1\"\n");
    let path = temp_file("hand-checked.epd", &file);
    let output = steere(&["solve", path.to_str().unwrap(), "--depth", "6"]);
    let _ = std::fs::remove_file(&path);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("id \"w1\" pass move a1 score win 1 depth "), "{stdout}");
    assert!(lines[1].starts_with("id \"l1\" pass move "), "{stdout}");
    assert!(lines[1].contains(" score loss 1 depth "), "{stdout}");
    assert!(lines[2].starts_with("solved 2/2 malformed 0 "), "{stdout}");
}

#[test]
fn malformed_lines_are_reported_with_their_numbers_and_the_run_goes_on() {
    // Worked out by hand. `good`: White's single b4 slides to f8 and waits; White then has no
    // basic move and removes it, a win in 2 (Black's double d4 needs two turns of its own to
    // leave). `ok-2`: Black's single a3 reaches c1 and waits, then is removed: Black wins on its
    // second move, White (three checkers, at most one removed a turn) loses in 2.
    let good = "8/8/8/8/1w1B4/8/8/8 w";
    let file = format!(
        "# a comment\n{good} win 2; id \"ok-1\"\n8/8/8 w; id \"short\"\n{good} bm b4a3\n\n\
         8/8/8/2W5/5w2/b7/8/8 w loss 2; id \"ok-2\"\n{good} frob 3\n{good} win 3; id \"wrong\"\n"
    );
    let path = temp_file("malformed.epd", &file);
    let output = steere(&["solve", path.to_str().unwrap(), "--depth", "12"]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    let name = path.display().to_string();
    let _ = std::fs::remove_file(&path);
    assert!(!output.status.success(), "a malformed line or a failure makes the exit code non-zero");
    for (line, reason) in [(3, "ranks"), (4, "illegal move 'b4a3'"), (7, "unknown opcode 'frob'")] {
        assert!(stderr.contains(&format!("{name}:{line}: ")), "line {line} not reported: {stderr}");
        assert!(stderr.contains(reason), "{reason}: {stderr}");
    }
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{stdout}");
    assert!(lines[0].starts_with("id \"ok-1\" pass move "), "{stdout}");
    assert!(lines[1].starts_with("id \"ok-2\" pass move "), "{stdout}");
    assert!(
        lines[2].starts_with("id \"wrong\" fail ") && lines[2].ends_with("reason \"win 3 expected\""),
        "{stdout}"
    );
    assert!(lines[3].starts_with("solved 2/3 malformed 3 nodes "), "{stdout}");
    assert_eq!(lines[4], "failed \"wrong\"");
    assert!(stderr.contains("1 of 3 positions failed, 3 malformed lines"), "{stderr}");
}

#[test]
fn a_missing_file_is_a_clear_error() {
    let output = steere(&["solve", "/nonexistent/steere.epd"]);
    assert!(!output.status.success());
    assert!(text(&output.stderr).contains("/nonexistent/steere.epd"), "{}", text(&output.stderr));
}

#[test]
fn the_tactics_suite_parses_with_one_legal_best_move_each() {
    let tactics = read_suite("tactics-impasse.epd");
    assert!(tactics.len() >= 30, "only {} tactics", tactics.len());
    let mut ids: Vec<&str> = tactics.iter().map(|e| e.id.as_deref().expect("an id")).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), tactics.len(), "duplicate ids");
    for entry in &tactics {
        // The parser has already checked that the move is legal in the position.
        assert_eq!(entry.best_moves.len(), 1, "{:?}", entry.id);
        assert!(entry.position.legal_moves().len() >= 4, "{:?}: too few moves to be a test", entry.id);
    }
}

/// Every line of endgames-impasse.epd against the solver (a few minutes).
#[test]
#[ignore]
fn every_endgame_agrees_with_the_solver() {
    let mut solver = Solver::new(20_000_000);
    for entry in read_suite("endgames-impasse.epd") {
        if solver.len() > 10_000_000 {
            solver.clear();
        }
        check_endgame(&mut solver, &entry);
    }
}

/// Every tactic: its `bm` is the one fastest win, and every other move loses or wins at least
/// two own moves later (a few minutes).
#[test]
#[ignore]
fn every_tactic_has_one_clearly_best_move() {
    for entry in read_suite("tactics-impasse.epd") {
        let mut solver = Solver::new(40_000_000);
        let analysis = solver.analyse(&entry.position).expect("within the solver budget");
        assert_eq!(analysis.fastest, entry.best_moves, "{:?}", entry.id);
        let reason =
            generate::tactic_reason(&analysis).unwrap_or_else(|| panic!("{:?}: not a tactic", entry.id));
        let comment = &entry.comments.iter().find(|(n, _)| *n == 0).expect("a c0 comment").1;
        let claim = format!("; {} by the exhaustive solver; {reason}", analysis.value.epd());
        assert!(comment.ends_with(&claim), "{:?}: {comment}", entry.id);
    }
}

/// Regenerates positions/endgames-impasse.epd (about 18 minutes on one core): checks that the file is
/// reproduced, or rewrites it when `STEERE_REGENERATE` is set.
#[test]
#[ignore]
fn regenerate_endgames() {
    let header = format!(
        "\
# Impasse endgames with their exact values, for `steere solve` (docs/solve.md).
#
# Format: `FEN bm MOVES; win N; id \"eg-NNN\"; c0 \"ORIGIN; CHECKERS; FEATURES\"; c1 \"fastest MOVES\";`
# for a won position, `FEN loss N; id ...; c0 ...; c1 \"longest MOVES\";` for a lost one (`loss 0`:
# the game is over). N counts the side to move's own moves with best play, the winner hurrying
# and the loser resisting (as UCI `mate N`): win N takes 2N-1 plies, loss N takes 2N plies.
# `bm` lists every move that wins, at any distance; `c1` the moves that win fastest (for a
# loss: that resist longest). FEATURES name what the position exercises: a waiting single,
# an impasse (the side to move has only removals), crowns, transposes.
#
# Origin: every value and move list was computed by the exhaustive solver of
# engine-tests/impasse_solver (a memoised full-depth minimax over the rules API only; it shares no
# code with the engine's search). Candidates: random placements of 1-3 pieces per colour with
# at most {max} checkers per side, positions of uniformly random games from the start position
# with at most {game_max} per side (seed {seed}), and the final positions of random games;
# candidates that need more than 4 million stored positions are dropped. Kept: a varied set of up to 4
# positions per value and side to move for N <= 10 and 2 for N = 11..{deep}, preferring
# features the file covers least; sorted by distance.
#
# Regenerate (deterministic): STEERE_REGENERATE=1 cargo test --test impasse_suites -- --ignored regenerate_endgames
",
        max = generate::ENDGAME_MAX_CHECKERS,
        game_max = generate::ENDGAME_MAX_GAME_CHECKERS,
        seed = generate::ENDGAMES_SEED,
        deep = generate::ENDGAME_MAX_MOVES
    );
    reproduce_or_write("positions/endgames-impasse.epd", header + &generate::endgames());
}

/// Regenerates positions/tactics-impasse.epd (about 10 minutes on one core): checks that the file is
/// reproduced, or rewrites it when `STEERE_REGENERATE` is set. The self-play games depend on
/// the search, so after a search change the check fails until the file is rewritten.
#[test]
#[ignore]
fn regenerate_tactics() {
    let header = format!(
        "\
# Impasse tactics: decisive positions where one move wins and every other move loses or wins
# clearly later, for `steere solve` (docs/solve.md).
# Format: `FEN bm MOVE; id \"tac-NNN\"; c0 \"ORIGIN; CHECKERS; MOVES; VALUE; WHY\";`.
#
# Origin: self-play games of the engine (both sides at depth 3, 4 or 5 in turn by game, after
# four uniformly random plies; seed {seed}). Each game was walked back from its end with the
# exhaustive solver of engine-tests/impasse_solver (a memoised full-depth minimax over the rules API
# only, sharing no code with the engine's search) until a position needed more than its budget
# of stored positions. Kept: positions with at least {checkers} checkers and {moves} legal moves where
# exactly one move wins fastest and every other move loses or wins at least {margin} own moves
# later (exact values, not estimates), the earliest two of each game, until {target} positions.
# `bm` is that move; `c0` gives the exact value (win N: own moves) and whether every other move
# loses. The engine only played the games; every claim is the solver's.
#
# In Impasse a forced win is a race won: with many checkers on the board it lies 20 to 40 own
# moves ahead, beyond both the solver and the engine's proofs (see docs/solve.md), so these are
# the latest part of the middle game that can be proven, not its early part.
#
# Regenerate (deterministic; the games depend on the search, so regenerate after changing it):
# STEERE_REGENERATE=1 cargo test --test impasse_suites -- --ignored regenerate_tactics --nocapture
",
        seed = generate::TACTICS_SEED,
        target = generate::TACTICS_TARGET,
        checkers = generate::TACTICS_MIN_CHECKERS,
        moves = generate::TACTICS_MIN_MOVES,
        margin = generate::TACTICS_MARGIN
    );
    reproduce_or_write(
        "positions/tactics-impasse.epd",
        header + &generate::tactics(&mut |line| println!("{line}")),
    );
}

/// The header of positions/endgames-impasse-deep.epd.
fn deep_header() -> String {
    format!(
        "\
# Deep Impasse endgames with their exact values, for `steere solve` (docs/solve.md).
#
# Format: `FEN bm MOVES; win N; id \"deep-NNN\"; c0 \"ORIGIN; CHECKERS; MATERIAL; FEATURES\"; c1 \"fastest MOVES\";`
# for a won position, `FEN loss N; id ...; c0 ...; c1 \"longest MOVES\";` for a lost one.
# N counts the side to move's own moves with best play, the winner hurrying and the loser
# resisting (as UCI `mate N`): win N takes 2N-1 plies, loss N takes 2N plies. `bm` lists every
# move that wins, at any distance; `c1` the moves that win fastest (for a loss: that resist
# longest). MATERIAL is `white AsBd v black CsDd` (singles and doubles of each side).
#
# Origin: every value and move list was computed by the exhaustive solver of
# engine-tests/impasse_solver (a memoised full-depth minimax over the rules API only; it shares no
# code with the engine's search). Candidates: random placements of 4 and 5 stacks (seed {seed}),
# with at least half of the stacks doubles, each solved with a budget of 12 million stored
# positions, and the positions of a line of best play from each (a random fastest move at each
# ply, solved by the same search). Kept: N from {min} to {max}, up to 4 positions per value
# and side to move, preferring materials and features the file covers least; sorted by distance.
# Positions of up to 5 stacks last at most 67 plies (34 own moves); longer ones need 6 stacks or
# more, which the solver does not reach in the time of a regeneration.
#
# Regenerate (deterministic): STEERE_REGENERATE=1 cargo test --release --test impasse_suites -- --ignored regenerate_deep_endgames
",
        seed = generate::DEEP_SEED,
        min = generate::DEEP_MIN_MOVES,
        max = generate::DEEP_MAX_MOVES
    )
}

/// Regenerates positions/endgames-impasse-deep.epd: checks that the file is reproduced, or
/// rewrites it when `STEERE_REGENERATE` is set.
#[test]
#[ignore]
fn regenerate_deep_endgames() {
    reproduce_or_write("positions/endgames-impasse-deep.epd", deep_header() + &generate::deep_endgames());
}

/// Every line of endgames-impasse-deep.epd against the solver.
#[test]
#[ignore]
fn every_deep_endgame_agrees_with_the_solver() {
    let mut solver = Solver::new(20_000_000);
    for entry in read_suite("endgames-impasse-deep.epd") {
        solver.clear();
        check_endgame(&mut solver, &entry);
    }
}

/// The distance of an entry in own moves, and whether the side to move wins.
fn distance(entry: &EpdEntry<Position>) -> (bool, u32) {
    match entry.value {
        Some(Expectation::Win(n)) => (true, n),
        Some(Expectation::Loss(n)) => (false, n),
        other => panic!("{:?}: no win or loss: {other:?}", entry.id),
    }
}

#[test]
fn the_deep_endgame_suite_is_large_deep_and_varied() {
    // The parser has already checked every FEN and that every bm and c1 move is legal.
    let all = read_suite("endgames-impasse-deep.epd");
    assert!(all.len() >= 100, "only {} deep endgames", all.len());
    let mut ids: Vec<&str> = all.iter().map(|e| e.id.as_deref().expect("an id")).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "duplicate ids");
    for entry in &all {
        let (win, n) = distance(entry);
        assert!((20..=50).contains(&n), "{:?}: {n} own moves", entry.id);
        assert_eq!(win, !entry.best_moves.is_empty(), "{:?}: a win lists its winning moves", entry.id);
        assert!(!c1_moves(entry).is_empty(), "{:?}: no c1 moves", entry.id);
    }
    let count = |f: &dyn Fn(&EpdEntry<Position>) -> bool| all.iter().filter(|e| f(e)).count();
    assert!(count(&|e| distance(e).0) >= 20, "too few wins");
    assert!(count(&|e| !distance(e).0) >= 20, "too few losses");
    assert!(count(&|e| e.position.side_to_move() == steere::impasse::Color::Black) >= 20);
    assert!(count(&|e| e.position.side_to_move() == steere::impasse::Color::White) >= 20);
    assert!(count(&|e| distance(e).1 >= 30) >= 5, "too few of 30 own moves or more");
    let mut materials: Vec<String> = all
        .iter()
        .map(|e| {
            format!(
                "{:?}",
                [
                    e.position.singles(steere::impasse::Color::White).count_ones(),
                    e.position.doubles(steere::impasse::Color::White).count_ones(),
                    e.position.singles(steere::impasse::Color::Black).count_ones(),
                    e.position.doubles(steere::impasse::Color::Black).count_ones()
                ]
            )
        })
        .collect();
    materials.sort_unstable();
    materials.dedup();
    assert!(materials.len() >= 10, "only {} materials", materials.len());
}

/// The start position is far from any proven result: a sanity check that the solver's budget
/// really stops it (and that the tests above are not vacuous).
#[test]
fn the_solver_gives_up_cleanly_over_its_budget() {
    let mut solver = Solver::new(1_000);
    assert_eq!(solver.value(&Position::startpos()), None);
    assert!(solver.len() <= 1_000);
}
