//! The Dipole endgame suite, `positions/endgames-dipole.epd`, checked against the independent
//! exhaustive Dipole solver (engine-tests/dipole_solver, no code shared with the search), and
//! the solver itself checked against the rules and the independent reference generator.
//!
//! Fast tests (run by `cargo test`, a few seconds in the optimised test profile):
//! - the file is large and varied, and the lines a fresh solver analyses within a small budget
//!   (most of them) agree with the solver: value, distance in plies, winning moves (`bm`),
//!   fastest or longest moves (`c1`);
//! - positions worked out by hand from docs/rules/dipole.md get the values the rules imply;
//! - the solver's first-ply moves, and the positions they lead to, are those of the reference
//!   generator (engine-tests/dipole_reference) along best lines of a sample of the file;
//! - on the smallest positions of the file, a plain recursive minimax over the reference
//!   generator finds the solver's values (independent of both its table and the engine's rules);
//! - the solver gives up cleanly over its budget;
//! - `steere solve` proves every line of the file with its exact value, playing one of the
//!   fastest (or longest-resisting) moves, and fails a line whose distance is off by one.
//!
//! Ignored (slow): every line against the solver, and the generator, which checks that the file
//! is reproduced, or rewrites it with `STEERE_REGENERATE=1`:
//! `STEERE_REGENERATE=1 cargo test --test dipole_suites -- --ignored regenerate_dipole_endgames`.
//!
//! The file is parsed here by a small local reader, independent of `steere::tools::epd`, which
//! `steere solve` uses.

mod common;
#[path = "dipole_reference/mod.rs"]
mod dipole_reference;
mod dipole_solver;
#[path = "dipole_solver/generate.rs"]
mod generate;

use common::{operations, project_file, reproduce_or_write, suite_lines, thousands};
use dipole_solver::{Analysis, Exact, Solver};
use std::collections::{BTreeSet, HashMap};
use steere::dipole::{Color, Move, Position, Variant};

/// One line of `positions/endgames-dipole.epd`.
struct Entry {
    /// The line number in the file, for messages.
    line: usize,
    /// The position (`board side`).
    position: Position,
    /// The `bm` moves, as written.
    bm: Vec<String>,
    /// The value: whether the side to move wins, and N (own moves).
    value: (bool, u32),
    /// The `id` operand, without its quotes.
    id: String,
    /// The `c0` comment: origin, checkers, `plies P`, features.
    c0: String,
    /// The moves of `c1` after its first word (`fastest` / `longest`).
    c1: Vec<String>,
}

impl Entry {
    /// The distance in plies that `c0` states (`plies P`).
    fn plies(&self) -> u32 {
        self.c0
            .split("; ")
            .find_map(|item| item.strip_prefix("plies "))
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("{}: no `plies P` in c0", self.id))
    }

    /// The features listed in `c0` after the distance.
    fn features(&self) -> Vec<&str> {
        self.c0.split("; ").skip_while(|item| !item.starts_with("plies ")).skip(1).collect()
    }
}

/// Reads one position line: the FEN (board and side), then `bm`, `win`/`loss`, `id`, `c0`,
/// `c1` operations; panics with the line number on anything else.
fn parse_entry(line: usize, text: &str) -> Entry {
    let fail = |why: String| -> ! { panic!("endgames-dipole.epd:{line}: {why}: {text}") };
    let mut fields = text.splitn(3, ' ');
    let (board, side, rest) = match (fields.next(), fields.next(), fields.next()) {
        (Some(b), Some(s), Some(r)) => (b, s, r),
        _ => fail("too few fields".to_string()),
    };
    let position = Position::from_fen(Variant::Dipole, &format!("{board} {side}"))
        .unwrap_or_else(|e| fail(format!("bad FEN: {e}")));
    let mut entry = Entry {
        line,
        position,
        bm: Vec::new(),
        value: (false, u32::MAX),
        id: String::new(),
        c0: String::new(),
        c1: Vec::new(),
    };
    let unquote = |s: &str| s.strip_prefix('"').and_then(|s| s.strip_suffix('"')).map(str::to_string);
    for op in operations(rest) {
        let (code, operand) = op.split_once(' ').unwrap_or_else(|| fail(format!("no operand in {op:?}")));
        match code {
            "bm" => entry.bm = operand.split_whitespace().map(str::to_string).collect(),
            "win" | "loss" => {
                let n = operand.parse().unwrap_or_else(|_| fail(format!("bad distance {operand:?}")));
                entry.value = (code == "win", n);
            }
            "id" => entry.id = unquote(operand).unwrap_or_else(|| fail("unquoted id".to_string())),
            "c0" => entry.c0 = unquote(operand).unwrap_or_else(|| fail("unquoted c0".to_string())),
            "c1" => {
                let c1 = unquote(operand).unwrap_or_else(|| fail("unquoted c1".to_string()));
                entry.c1 = c1.split_whitespace().skip(1).map(str::to_string).collect();
            }
            _ => fail(format!("unknown opcode {code:?}")),
        }
    }
    if entry.value.1 == u32::MAX {
        fail("no value".to_string());
    }
    entry
}

/// Every position of the file; checks the `# variant: dipole` line before the first one.
fn read_suite() -> Vec<Entry> {
    suite_lines("endgames-dipole.epd", "dipole").iter().map(|(line, text)| parse_entry(*line, text)).collect()
}

/// The moves' names, sorted by their bytes.
fn sorted(moves: &[Move]) -> Vec<String> {
    let mut names: Vec<String> = moves.iter().map(Move::to_string).collect();
    names.sort();
    names
}

/// Checks one line against the solver's analysis of its position: value and distance in own
/// moves and in plies, the winning moves (`bm`) and the fastest or longest ones (`c1`).
fn check_entry(entry: &Entry, analysis: &Analysis) {
    let name = format!("{} (line {})", entry.id, entry.line);
    assert_eq!(entry.value, analysis.value.own_moves(), "{name}: value");
    assert_eq!(entry.plies(), analysis.value.plies(), "{name}: plies in c0");
    let mut bm = entry.bm.clone();
    bm.sort();
    assert_eq!(bm, sorted(&analysis.winning), "{name}: bm (the winning moves)");
    let mut c1 = entry.c1.clone();
    c1.sort();
    assert_eq!(c1, sorted(&analysis.fastest), "{name}: c1 (fastest / longest)");
}

/// The fast sample: the lines a fresh solver analyses within `budget` stored positions, with
/// their analyses. The cost of a line depends on how much of the game it can reach, not on its
/// distance (a win in one ply still needs the value of every other move for `bm`), so the
/// sample is chosen by cost; the ignored test checks every line.
fn small_sample(budget: usize) -> Vec<(Entry, Analysis)> {
    read_suite()
        .into_iter()
        .filter_map(|entry| {
            let analysis = Solver::new(budget).analyse(&entry.position)?;
            Some((entry, analysis))
        })
        .collect()
}

#[test]
fn the_dipole_endgame_suite_is_large_varied_and_agrees_with_the_solver_on_a_sample() {
    let all = read_suite();
    assert!(all.len() >= 120, "only {} endgames", all.len());
    let count = |f: &dyn Fn(&Entry) -> bool| all.iter().filter(|e| f(e)).count();
    assert!(count(&|e| e.value.0) >= 40, "wins");
    assert!(count(&|e| !e.value.0) >= 40, "losses");
    assert!(count(&|e| e.position.side_to_move() == Color::Black) >= 40, "Black to move");
    assert!(count(&|e| e.position.side_to_move() == Color::White) >= 40, "White to move");
    assert!(count(&|e| e.value == (false, 0)) >= 1, "loss 0");
    assert!(count(&|e| e.value.1 >= 8) >= 10, "deep values");
    // Odd-ply losses and even-ply wins: the loser moves his own last checkers off.
    assert!(count(&|e| !e.value.0 && e.plies() % 2 == 1) >= 5, "odd-ply losses");
    assert!(count(&|e| e.value.0 && e.plies() % 2 == 0) >= 5, "even-ply wins");
    for feature in ["pass", "exit", "capture", "merge", "self-elimination"] {
        assert!(count(&|e| e.features().contains(&feature)) >= 3, "best play with {feature}");
    }
    let mut ids: Vec<&str> = all.iter().map(|e| e.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "duplicate ids");
    for e in &all {
        assert_eq!(e.value.1, e.plies().div_ceil(2), "{}: N = ceil(plies / 2)", e.id);
        assert_eq!(e.value.0, !e.bm.is_empty(), "{}: bm exactly for wins", e.id);
    }
    let sample = small_sample(30_000);
    assert!(sample.len() >= 60, "only {} lines in the sample", sample.len());
    assert!(sample.iter().any(|(e, _)| e.value.0 && e.value.1 >= 5), "a deep win in the sample");
    assert!(sample.iter().any(|(e, _)| !e.value.0 && e.value.1 >= 5), "a deep loss in the sample");
    for (entry, analysis) in &sample {
        check_entry(entry, analysis);
    }
}

/// Reads a FEN of the 8x8 game.
fn position(fen: &str) -> Position {
    Position::from_fen(Variant::Dipole, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The solver's analysis of a FEN, with a fresh table.
fn analyse(fen: &str) -> Analysis {
    Solver::new(1_000_000).analyse(&position(fen)).expect("a hand-worked position is small")
}

/// Positions whose values follow from docs/rules/dipole.md by hand (the reasoning is in the
/// comments); the EPD distances follow from the plies as N = ceil(P / 2).
#[test]
fn hand_worked_positions_get_the_values_the_rules_imply() {
    // Finished games: Black has no checkers and is to move (White captured the last stack,
    // worked example 6): lost. White has none and Black is to move (White moved his own last
    // checker off, worked example 7): Black has already won.
    assert_eq!(analyse("8/8/8/8/3,w1,4/8/8/8 b").value, Exact::Loss(0));
    assert_eq!(analyse("8/8/8/8/8/8/8/b1,7 b").value, Exact::Win(0));
    assert!(analyse("8/8/8/8/8/8/8/b1,7 b").moves.is_empty(), "a finished game has no moves");

    // Worked example 7: White's lone single on h8 has one move, `h8off1`, which loses at once.
    let lone = analyse("7,w1/8/8/8/8/8/8/b1,7 w");
    assert_eq!((lone.value, sorted(&lone.fastest)), (Exact::Loss(1), vec!["h8off1".to_string()]));
    assert!(lone.winning.is_empty());
    // The same with Black to move: Black's single on a1 stands on White's nearest row, where
    // both of its forward diagonals leave the board, and h8 is 7 squares away: it must exit.
    let lone = analyse("7,w1/8/8/8/8/8/8/b1,7 b");
    assert_eq!((lone.value, sorted(&lone.fastest)), (Exact::Loss(1), vec!["a1off1".to_string()]));

    // Worked example 6: `c3d4` captures Black's last checker, a win in one ply.
    let capture = analyse("8/8/8/8/3,b1,4/2,w1,5/8/8 w");
    assert_eq!((capture.value, sorted(&capture.fastest)), (Exact::Win(1), vec!["c3d4".to_string()]));

    // Worked example 5: White's single is blocked and must pass; Black's `c5d4` then captures
    // it, so White loses in 2 plies and `pass` is the only (and longest) move.
    let blocked = analyse("8/8/8/2,b2,1,b2,3/3,w1,4/8/8/8 w");
    assert_eq!(blocked.value, Exact::Loss(2));
    assert_eq!(sorted(&blocked.fastest), vec!["pass".to_string()]);
    assert_eq!(blocked.moves.len(), 1);

    // Black's single d8 can only step to c7 or e7 (no exit: m = 4; h8 is 4 squares sideways,
    // beyond one checker). Then White's single on h8, far from both, can only exit: Black
    // wins in 2 plies with either move, and in no fewer (he has no capture).
    let wait = analyse("3,b1,3,w1/8/8/8/8/8/8/8 b");
    assert_eq!(wait.value, Exact::Win(2));
    let both = vec!["d8c7".to_string(), "d8e7".to_string()];
    assert_eq!((sorted(&wait.winning), sorted(&wait.fastest)), (both.clone(), both));

    // White's single g7 can only step to f8 or h8 (no exit: m = 2), Black's single b8 then to
    // a7 or c7, too far for either side to capture, and White on the last row must exit: a
    // loss in 3 plies, an odd-ply loss, `loss 2` in own moves.
    let race = analyse("1,b1,6/6,w1,1/8/8/8/8/8/8 w");
    assert_eq!(race.value, Exact::Loss(3));
    assert_eq!(sorted(&race.fastest), vec!["g7f8".to_string(), "g7h8".to_string()]);

    // The EPD counts: N = ceil(P / 2) for wins and losses alike.
    let epd: Vec<String> =
        [Exact::Loss(0), Exact::Loss(1), Exact::Loss(2), Exact::Loss(3), Exact::Win(1), Exact::Win(2)]
            .into_iter()
            .map(Exact::epd)
            .collect();
    assert_eq!(epd, ["loss 0", "loss 1", "loss 1", "loss 2", "win 1", "win 1"]);
}

/// The reference generator's moves of a position, as (text, FEN after), from its own FEN reader.
fn reference_moves(pos: &Position) -> BTreeSet<(String, String)> {
    dipole_reference::legal_moves(dipole_reference::Variant::Dipole, &pos.to_fen())
        .expect("the reference reads the engine's FEN")
        .into_iter()
        .collect()
}

#[test]
fn the_solver_moves_are_the_reference_moves_along_best_lines() {
    // The solver sees the game through the engine's rules API; along a principal variation of
    // every sampled line, its moves and the positions they lead to must be the reference's.
    let mut solver = Solver::new(4_000_000);
    let mut checked = 0;
    for (entry, _) in small_sample(30_000) {
        let line = solver.principal_variation(&entry.position).expect("within the budget");
        for (pos, _) in &line {
            let analysis = solver.analyse(pos).expect("within the budget");
            let ours: BTreeSet<(String, String)> =
                analysis.moves.iter().map(|(mv, _)| (mv.to_string(), pos.make_move(*mv).to_fen())).collect();
            assert_eq!(ours, reference_moves(pos), "{}: moves of {}", entry.id, pos.to_fen());
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} positions compared");
}

/// A plain recursive minimax over the reference generator, memoised by the reference's own
/// position type: the same definition of the value as the solver's, sharing none of its code
/// (no table key, no frames) nor the engine's rules.
fn reference_value(
    pos: &dipole_reference::Position,
    memo: &mut HashMap<dipole_reference::Position, Exact>,
) -> Exact {
    if let Some(winner) = pos.winner() {
        return if winner == pos.to_move { Exact::Win(0) } else { Exact::Loss(0) };
    }
    if let Some(&value) = memo.get(pos) {
        return value;
    }
    let mut best: Option<Exact> = None;
    for (_, next) in dipole_reference::generate(pos) {
        let value = reference_value(&next, memo).parent();
        // A win beats a loss; the shorter win, and the longer loss, are better.
        best = Some(match (best, value) {
            (None, v) => v,
            (Some(Exact::Win(a)), Exact::Win(b)) => Exact::Win(a.min(b)),
            (Some(Exact::Loss(a)), Exact::Loss(b)) => Exact::Loss(a.max(b)),
            (Some(Exact::Win(a)), Exact::Loss(_)) | (Some(Exact::Loss(_)), Exact::Win(a)) => Exact::Win(a),
        });
        if best == Some(Exact::Win(1)) {
            break; // nothing is faster than winning with this move
        }
    }
    let value = best.expect("an unfinished position has a move, a pass at least");
    memo.insert(pos.clone(), value);
    value
}

#[test]
fn the_smallest_positions_get_the_same_values_from_a_plain_minimax_over_the_reference() {
    let mut compared = 0;
    for entry in read_suite() {
        // Small enough for the slow reference: within a small budget of a fresh solver.
        let Some(value) = Solver::new(5_000).value(&entry.position) else { continue };
        let pos =
            dipole_reference::Position::from_fen(dipole_reference::Variant::Dipole, &entry.position.to_fen())
                .expect("the reference reads the engine's FEN");
        assert_eq!(reference_value(&pos, &mut HashMap::new()), value, "{}", entry.id);
        assert_eq!((entry.value, entry.plies()), (value.own_moves(), value.plies()), "{}", entry.id);
        compared += 1;
    }
    assert!(compared >= 40, "only {compared} positions compared");
}

/// The start position is far from any proven result: a sanity check that the solver's budget
/// really stops it (and that the tests above are not vacuous).
#[test]
fn the_solver_gives_up_cleanly_over_its_budget() {
    let mut solver = Solver::new(1_000);
    assert_eq!(solver.value(&Position::startpos(Variant::Dipole)), None);
    assert!(solver.len() <= 1_000);
}

/// Every line of endgames-dipole.epd against the solver, with the same checks as the sample.
#[test]
#[ignore]
fn every_dipole_endgame_agrees_with_the_solver() {
    let mut solver = Solver::new(8_000_000);
    for entry in read_suite() {
        if solver.len() > 4_000_000 {
            solver.clear();
        }
        let analysis =
            solver.analyse(&entry.position).unwrap_or_else(|| panic!("{}: over the budget", entry.id));
        check_entry(&entry, &analysis);
    }
}

/// Regenerates positions/endgames-dipole.epd (a few minutes on one core): checks that the file
/// is reproduced, or rewrites it when `STEERE_REGENERATE` is set.
#[test]
#[ignore]
fn regenerate_dipole_endgames() {
    let started = std::time::Instant::now();
    let (body, summary) = generate::endgames();
    println!("{summary} in {:.1} s", started.elapsed().as_secs_f64());
    let header = format!(
        "\
# Dipole endgames (8x8, variant `dipole`) with their exact values, for `steere solve`.
#
# Format: `FEN bm MOVES; win N; id \"dp-eg-NNN\"; c0 \"ORIGIN; CHECKERS; plies P; FEATURES\";
# c1 \"fastest MOVES\";` for a won position, `FEN loss N; id ...; c0 ...; c1 \"longest MOVES\";`
# for a lost one (`loss 0`: the game is over, the side to move has no checkers). The FEN is
# Dipole's `board side` (docs/rules/dipole.md). P is the exact distance in plies with best play,
# the winner hurrying and the loser resisting; N = ceil(P / 2) counts the side to move's own
# moves (as UCI `mate N`). In Dipole P may have either parity for both results: a player who
# moves his own last checkers off the board loses at once, so an odd P in a loss (and an even P
# in a win) means the loser ends the game himself. `bm` lists every move that wins, at any
# distance; `c1` the moves that win fastest (for a loss: that resist longest). FEATURES name
# what best play exercises, read off one principal variation (at every ply the fastest win or
# the longest resistance whose text sorts first): a pass, an exit, a capture, a merge, and
# self-elimination when the line ends with a player moving his own last checkers off.
#
# Origin: every value and move list was computed by the exhaustive solver of
# engine-tests/dipole_solver (a memoised full-depth minimax over the rules API only; it shares
# no code with the engine's search). Candidates (seed {seed}): random placements of 1-{stacks}
# stacks per colour of height 1-{height}; \"blocked placements\", a single whose two diagonally
# forward squares hold enemy stacks of 2 or 3 (it cannot move: best play from there often
# passes), with a few random stacks more; positions of uniformly random games from the start
# position; all these with at most {max} checkers per side and {total} on the board; and the
# final positions of random games won by a capture. Candidates that need more than {budget}
# stored positions are dropped. Kept: up to 3 positions per value in plies, result and side
# to move for P <= 12, 2 beyond (1 for P = 0), N <= {deep}, preferring features the file
# covers least; sorted by N, wins before losses, then by P. The origin `random game, ply K`
# is the position after K random plies from the start.
#
# Regenerate (deterministic; without the variable the test checks that this file is reproduced):
# STEERE_REGENERATE=1 cargo test --test dipole_suites -- --ignored regenerate_dipole_endgames

# variant: dipole
",
        seed = generate::SEED,
        stacks = generate::MAX_STACKS,
        height = generate::MAX_HEIGHT,
        max = generate::MAX_CHECKERS,
        total = generate::MAX_TOTAL,
        budget = thousands(generate::BUDGET as u64),
        deep = generate::MAX_MOVES,
    );
    reproduce_or_write("positions/endgames-dipole.epd", header + &body);
}

/// Runs the real binary.
fn steere(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_steere"))
        .args(args)
        .output()
        .expect("the steere binary runs")
}

#[test]
fn steere_solve_proves_every_dipole_endgame_exactly() {
    let entries = read_suite();
    let path = project_file("positions/endgames-dipole.epd");
    let output = steere(&["solve", path.to_str().unwrap(), "--jobs", "2", "--hash", "8"]);
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let results: Vec<&str> = stdout.lines().collect();
    assert_eq!(results.len(), entries.len() + 1, "{stdout}");
    for (entry, line) in entries.iter().zip(&results) {
        // id "dp-eg-001" pass move M score win N depth D nodes N time MS proof N
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words[1], format!("\"{}\"", entry.id), "in file order: {line}");
        assert_eq!((words[2], words[5]), ("pass", "score"), "{line}");
        let (wins, n) = entry.value;
        assert_eq!(
            format!("{} {}", words[6], words[7]),
            format!("{} {n}", if wins { "win" } else { "loss" })
        );
        assert!(line.contains(" proof ") && !line.contains("proof none"), "{line}");
        if !entry.c1.is_empty() {
            assert!(entry.c1.iter().any(|m| m == words[4]), "{line}: not among the fastest {:?}", entry.c1);
        }
    }
    let summary = results.last().unwrap();
    assert!(summary.starts_with(&format!("solved {0}/{0} malformed 0 ", entries.len())), "{summary}");

    // A distance off by one fails (the search proves the exact one).
    let text = std::fs::read_to_string(&path).unwrap();
    let line = text.lines().find(|l| l.contains("win 3;")).expect("a win in 3");
    let wrong = std::env::temp_dir().join(format!("steere-dipole-wrong-{}.epd", std::process::id()));
    std::fs::write(&wrong, format!("# variant: dipole\n{}\n", line.replace("win 3;", "win 4;"))).unwrap();
    let output = steere(&["solve", wrong.to_str().unwrap()]);
    let _ = std::fs::remove_file(&wrong);
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(!output.status.success(), "{stdout}");
    assert!(stdout.contains(" fail ") && stdout.contains("win 4 expected"), "{stdout}");
}
