//! The HexDame endgame suite, `positions/endgames-hexdame.epd`, checked against the independent
//! retrograde solver (engine-tests/hexdame_solver, over the reference generator of
//! engine-tests/hexdame_reference; nothing shared with the engine), and the solver itself
//! checked against the rules by hand and by a plain search over the reference.
//!
//! Fast tests (run by `cargo test`, a few seconds in the optimised test profile; they share one
//! solver with every material set of at most [`SMALL`] pieces solved, about two seconds on two
//! cores):
//! - the file is large and varied, its lines are well formed, and the lines of those small
//!   sets agree with the solver: value, distance, `bm`, `c1` and `am`;
//! - positions worked out by hand from docs/rules/hexdame.md get the values the rules imply;
//! - the small tables are a fixed point of the value rules (each position's value follows from
//!   its moves' values, asked of the reference) and symmetric under the mirror and the colour
//!   swap the solver relies on;
//! - a plain depth-limited search over the reference, with no table, finds the short wins and
//!   losses of the file at exactly their distance, and no win for either side within a short
//!   horizon from every drawn position.
//!
//! - `steere solve` proves every win and loss of the file up to [`SOLVE_MOVES`] own moves with
//!   its exact value and one of the fastest (or longest-resisting) moves, fails such a line whose
//!   distance is off by one, and matches the draws (no forced result within its depth, a
//!   drawing move), all but one named exception.
//!
//! Ignored (slow): every line against the solver with every set solved, and the generator, which
//! checks that the file is reproduced, or rewrites it with `STEERE_REGENERATE=1`:
//! `STEERE_REGENERATE=1 cargo test --test hexdame_suites -- --ignored regenerate_hexdame_endgames`.
//!
//! The file is parsed here by a small local reader.

mod common;
#[path = "hexdame_solver/generate.rs"]
mod generate;
#[path = "hexdame_reference/mod.rs"]
mod hexdame_reference;
mod hexdame_solver;

use common::{operations, project_file, reproduce_or_write, suite_lines};
use hexdame_reference::{Color, Position, generate as reference_moves};
use hexdame_solver::{Analysis, Exact, Material, Solver, Value, flip, mirror};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The material sets the fast tests solve: at most this many pieces.
const SMALL: u8 = 3;

/// One line of `positions/endgames-hexdame.epd`.
struct Entry {
    /// The line number in the file, for messages.
    line: usize,
    /// The position.
    position: Position,
    /// The value the line states: `win N` / `loss N` with the plies of `c0`, or `draw`.
    value: Value,
    /// The N of `win N` / `loss N`.
    own_moves: Option<u32>,
    /// The `bm` moves (winning, or for a draw drawing), as written.
    bm: Vec<String>,
    /// The `am` moves (for a draw, the losing ones).
    am: Vec<String>,
    /// The `id` operand, without its quotes.
    id: String,
    /// The `c0` comment: material, `plies P` and features, or `draw`.
    c0: String,
    /// The moves of `c1` after its first word (`fastest` / `longest`).
    c1: Vec<String>,
}

impl Entry {
    /// The material named first in `c0`.
    fn material(&self) -> Material {
        Material::parse(self.c0.split("; ").next().expect("c0 names the material"))
    }

    /// The features listed in `c0` after the distance.
    fn features(&self) -> Vec<&str> {
        self.c0.split("; ").skip(2).collect()
    }

    fn name(&self) -> String {
        format!("{} (line {})", self.id, self.line)
    }
}

/// Reads one position line; panics with the line number on anything unexpected.
fn parse_entry(line: usize, text: &str) -> Entry {
    let fail = |why: String| -> ! { panic!("endgames-hexdame.epd:{line}: {why}: {text}") };
    let (fen, rest) = text.split_once(' ').unwrap_or_else(|| fail("no operations".to_string()));
    let position = Position::from_fen(fen).unwrap_or_else(|e| fail(format!("bad FEN: {e}")));
    assert_eq!(position.to_fen(), fen, "line {line}: the FEN is written canonically");
    let mut entry = Entry {
        line,
        position,
        value: None,
        own_moves: None,
        bm: Vec::new(),
        am: Vec::new(),
        id: String::new(),
        c0: String::new(),
        c1: Vec::new(),
    };
    let unquote = |s: &str| s.strip_prefix('"').and_then(|s| s.strip_suffix('"')).map(str::to_string);
    let mut result = None;
    for op in operations(rest) {
        let (code, operand) = op.split_once(' ').unwrap_or((op, ""));
        let words = || operand.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        match code {
            "bm" => entry.bm = words(),
            "am" => entry.am = words(),
            "win" | "loss" => {
                let n = operand.parse().unwrap_or_else(|_| fail(format!("bad distance {operand:?}")));
                entry.own_moves = Some(n);
                result = Some(code);
            }
            "draw" => result = Some("draw"),
            "id" => entry.id = unquote(operand).unwrap_or_else(|| fail("unquoted id".to_string())),
            "c0" => entry.c0 = unquote(operand).unwrap_or_else(|| fail("unquoted c0".to_string())),
            "c1" => {
                let c1 = unquote(operand).unwrap_or_else(|| fail("unquoted c1".to_string()));
                entry.c1 = c1.split_whitespace().skip(1).map(str::to_string).collect();
            }
            _ => fail(format!("unknown opcode {code:?}")),
        }
    }
    let plies = || -> u32 {
        let p = entry.c0.split("; ").find_map(|item| item.strip_prefix("plies "));
        p.and_then(|p| p.parse().ok()).unwrap_or_else(|| fail("no `plies P` in c0".to_string()))
    };
    entry.value = match result {
        Some("win") => Some(Exact::Win(plies())),
        Some("loss") => Some(Exact::Loss(plies())),
        Some(_) => None,
        None => fail("no value".to_string()),
    };
    entry
}

/// Every position of the file; checks the `# variant: hexdame` line before the first one.
fn read_suite() -> Vec<Entry> {
    suite_lines("endgames-hexdame.epd", "hexdame")
        .iter()
        .map(|(line, text)| parse_entry(*line, text))
        .collect()
}

/// Checks one line against the solver's analysis of its position.
fn check_entry(entry: &Entry, analysis: &Analysis) {
    let name = entry.name();
    assert_eq!(entry.value, analysis.value, "{name}: value");
    match analysis.value {
        Some(_) => {
            assert_eq!(entry.bm, analysis.winning(), "{name}: bm (the winning moves)");
            assert_eq!(entry.c1, analysis.best(), "{name}: c1 (fastest / longest)");
            assert!(entry.am.is_empty(), "{name}: am only for draws");
        }
        None => {
            assert_eq!(entry.bm, analysis.drawing(), "{name}: bm (the drawing moves)");
            assert_eq!(entry.am, analysis.losing(), "{name}: am (the losing moves)");
            assert!(entry.c1.is_empty(), "{name}: no c1 for a draw");
        }
    }
}

/// The solver with every material set of at most [`SMALL`] pieces solved, built once.
fn small_solver() -> &'static Solver {
    static SOLVER: OnceLock<Solver> = OnceLock::new();
    SOLVER.get_or_init(|| {
        let mut solver = Solver::new();
        for material in generate::materials(SMALL) {
            solver.ensure(material);
        }
        solver
    })
}

/// Reads a FEN.
fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn strings(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

#[test]
fn the_hexdame_endgame_suite_is_large_varied_and_agrees_with_the_solver_on_small_sets() {
    let all = read_suite();
    assert!(all.len() >= 100, "only {} endgames", all.len());
    let count = |f: &dyn Fn(&Entry) -> bool| all.iter().filter(|e| f(e)).count();
    assert!(count(&|e| matches!(e.value, Some(Exact::Win(_)))) >= 30, "wins");
    assert!(count(&|e| matches!(e.value, Some(Exact::Loss(_)))) >= 30, "losses");
    assert!(count(&|e| e.value.is_none()) >= 25, "draws");
    assert!(count(&|e| e.value == Some(Exact::Loss(0))) >= 1, "loss 0");
    assert!(count(&|e| e.value.is_some_and(|v| v.plies() >= 20)) >= 10, "deep values");
    for color in [Color::White, Color::Black] {
        assert!(count(&|e| e.position.to_move == color) >= 40, "{} to move", color.name());
    }
    for feature in ["promotion", "multi-capture", "majority", "blocked"] {
        assert!(count(&|e| e.features().contains(&feature)) >= 3, "best play with {feature}");
    }
    // Kings only, men only, and both.
    assert!(count(&|e| e.material().men() == 0) >= 10, "kings only");
    assert!(count(&|e| e.material().counts[1] + e.material().counts[3] == 0) >= 10, "men only");
    let mut ids: Vec<&str> = all.iter().map(|e| e.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "duplicate ids");
    for e in &all {
        let name = e.name();
        assert_eq!(Material::of(&e.position), e.material(), "{name}: material in c0");
        match e.value {
            Some(v) => {
                assert_eq!(e.own_moves, Some(v.plies().div_ceil(2)), "{name}: N = ceil(plies / 2)");
                // A game is lost only on the loser's own turn: odd wins, even losses.
                assert_eq!(v.plies() % 2 == 1, matches!(v, Exact::Win(_)), "{name}: parity");
            }
            None => assert!(!e.bm.is_empty(), "{name}: a draw keeps a drawing move"),
        }
    }
    let solver = small_solver();
    let mut checked = 0;
    for e in all.iter().filter(|e| e.material().total() <= SMALL) {
        check_entry(e, &solver.analyse(&e.position));
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} lines of small sets");
}

/// Positions whose values follow from docs/rules/hexdame.md by hand (the reasoning is in the
/// comments).
#[test]
fn hand_worked_positions_get_the_values_the_rules_imply() {
    let solver = small_solver();
    let analyse = |fen: &str| solver.analyse(&position(fen));

    // White has no pieces and is to move: he has no move, so he has lost ("No move loses").
    let bare = analyse("W:W:BKc3");
    assert_eq!((bare.value, bare.moves.len()), (Some(Exact::Loss(0)), 0));

    // The White king on a1 sees b2, c3 and d4 empty up the central column, then Black's last
    // piece on e5 with f6, g7, h8 and i9 empty beyond: capturing is compulsory, so these four
    // landings are the only moves, and each leaves Black without pieces: a win in one ply.
    let capture = analyse("W:WKa1:BKe5");
    assert_eq!(capture.value, Some(Exact::Win(1)));
    assert_eq!(capture.winning(), strings("a1xf6 a1xg7 a1xh8 a1xi9"));
    assert_eq!(capture.best(), capture.winning());

    // Bare king against bare king, not in line: a draw. A king can only ever capture the other
    // one, and only when the mover leaves his king on a line with it and an empty cell behind;
    // the side to move always has a slide that avoids that, so neither side can force it.
    // Here a1-e5 puts the White king under e9 on the e-file (e8, e7, e6 empty, e4 empty
    // behind): Black takes it and wins, so that move loses; a1-a5 reaches the column of e9
    // (b6, c7, d8 between) but a5 is on the board's edge, nothing lies behind it: it draws.
    let kings = analyse("W:WKa1:BKe9");
    assert_eq!(kings.value, None);
    assert!(kings.losing().contains(&"a1-e5".to_string()), "{:?}", kings.losing());
    assert!(kings.drawing().contains(&"a1-a5".to_string()), "{:?}", kings.drawing());

    // A forced sequence: White's man on c3 must take d4 (c3xe5, his only move: the capture is
    // compulsory and the only one). From e5 he has nothing more to jump. Then the Black king on
    // e9 sees e8, e7, e6 empty, the man on e5 and e4 empty behind it, takes White's last piece,
    // and White to move has no piece: White loses in 2 plies.
    let forced = analyse("W:Wc3:Bd4,Ke9");
    assert_eq!(forced.value, Some(Exact::Loss(2)));
    assert_eq!(forced.best(), strings("c3xe5"));
    assert_eq!(forced.moves.len(), 1);

    // Men capture backward (worked example 4): the Black man on b2 jumps the White man on c3
    // up the central column to d4, his only move, and White has nothing left.
    let backward = analyse("B:Wc3:Bb2");
    assert_eq!((backward.value, backward.winning()), (Some(Exact::Win(1)), strings("b2xd4")));
    assert_eq!(backward.moves.len(), 1);

    // The majority rule (worked example 7): the king on a1 may take c3 alone (landing on d4 or
    // e5), or go on from either cell over f6 to g7, h8 or i9 and take both; only the second
    // kind is legal, written from d4, and each takes Black's last piece.
    let majority = analyse("W:WKa1:Bc3,f6");
    assert_eq!(majority.value, Some(Exact::Win(1)));
    assert_eq!(majority.moves.len(), 3);
    assert_eq!(majority.winning(), strings("a1xd4xg7 a1xd4xh8 a1xd4xi9"));

    // A capture that ends on the far edge promotes (worked example 11): g7 takes h8 and lands on
    // i9; here that was Black's last piece, so it wins at once all the same.
    let promote = analyse("W:Wg7:Bh8");
    assert_eq!((promote.value, promote.winning()), (Some(Exact::Win(1)), strings("g7xi9")));
}

/// Checks one position in `step` of a solved table (the first and every `step`-th after it):
/// its value follows from the values of the reference's moves by the value rules (the table
/// is a fixed point of them), and it equals the value of its mirror image and of the board
/// turned round. Returns the number of positions checked.
fn check_table(solver: &Solver, material: Material, step: usize) -> usize {
    let mut checked = 0;
    for (slot, value) in solver.slots(material).step_by(step) {
        let pos = solver.slot_position(material, slot);
        let children: Vec<Value> = reference_moves(&pos)
            .iter()
            .map(|(_, after)| hexdame_solver::parent(solver.known(after)))
            .collect();
        let fastest_win = children.iter().filter_map(|v| match v {
            Some(Exact::Win(p)) => Some(*p),
            _ => None,
        });
        let expected = if let Some(p) = fastest_win.min() {
            Some(Exact::Win(p))
        } else if children.iter().all(Option::is_some) {
            // Every move loses (or there is none): the longest resistance.
            Some(Exact::Loss(children.iter().map(|v| v.unwrap().plies()).max().unwrap_or(0)))
        } else {
            None
        };
        let fen = pos.to_fen();
        assert_eq!(value, expected, "{fen}: the value from the moves' values");
        assert_eq!(solver.known(&mirror(&pos)), value, "{fen}: mirror image");
        assert_eq!(solver.known(&flip(&pos)), value, "{fen}: turned round");
        checked += 1;
    }
    checked
}

/// The small tables are a fixed point of the value rules and have the solver's symmetries, on
/// one position in 101 of every small set.
#[test]
fn the_small_tables_are_a_consistent_fixed_point_and_symmetric() {
    let solver = small_solver();
    let checked: usize = generate::materials(SMALL).into_iter().map(|m| check_table(solver, m, 101)).sum();
    assert!(checked >= 5_000, "only {checked} positions checked");
}

/// A plain depth-limited search over the reference generator, with no table: whether the side
/// to move can force a win (leave the opponent without a move) within `depth` plies.
fn wins_within(pos: &Position, depth: u32, memo: &mut HashMap<(Position, u32, bool), bool>) -> bool {
    if depth == 0 {
        return false;
    }
    if let Some(&known) = memo.get(&(pos.clone(), depth, true)) {
        return known;
    }
    let result = reference_moves(pos).iter().any(|(_, after)| loses_within(after, depth - 1, memo));
    memo.insert((pos.clone(), depth, true), result);
    result
}

/// Whether the side to move loses, whatever he plays, within `depth` plies.
fn loses_within(pos: &Position, depth: u32, memo: &mut HashMap<(Position, u32, bool), bool>) -> bool {
    if let Some(&known) = memo.get(&(pos.clone(), depth, false)) {
        return known;
    }
    let moves = reference_moves(pos);
    let result = moves.is_empty()
        || (depth >= 2 && moves.iter().all(|(_, after)| wins_within(after, depth - 1, memo)));
    memo.insert((pos.clone(), depth, false), result);
    result
}

#[test]
fn a_plain_search_over_the_reference_confirms_short_values_and_draws() {
    let mut memo = HashMap::new();
    let (mut decided, mut draws) = (0, 0);
    for e in read_suite() {
        let pos = &e.position;
        memo.clear();
        match e.value {
            // Exactly P: within P plies, and not within P - 2 (the same side moves every other
            // ply, so a win is always odd and a loss even).
            Some(Exact::Win(p)) if p <= 5 => {
                assert!(wins_within(pos, p, &mut memo), "{}: a win within {p} plies", e.name());
                assert!(
                    p < 3 || !wins_within(pos, p - 2, &mut memo),
                    "{}: no win within {}",
                    e.name(),
                    p - 2
                );
                decided += 1;
            }
            Some(Exact::Loss(p)) if p <= 4 => {
                assert!(loses_within(pos, p, &mut memo), "{}: a loss within {p} plies", e.name());
                assert!(
                    p < 2 || !loses_within(pos, p - 2, &mut memo),
                    "{}: no loss within {}",
                    e.name(),
                    p - 2
                );
                decided += 1;
            }
            // A drawn position: no win for the side to move within 3 plies, and no loss within 4.
            None => {
                assert!(!wins_within(pos, 3, &mut memo), "{}: a draw, not a win in 3", e.name());
                assert!(!loses_within(pos, 4, &mut memo), "{}: a draw, not a loss in 4", e.name());
                draws += 1;
            }
            _ => {}
        }
    }
    assert!(decided >= 15 && draws >= 25, "only {decided} decided and {draws} drawn positions searched");
}

/// Every line against the solver with every material set solved, and one position in 50 of
/// every table checked as in the fast test (about 6 minutes on two cores).
#[test]
#[ignore]
fn every_hexdame_endgame_agrees_with_the_solver() {
    let mut solver = Solver::new();
    for e in read_suite() {
        solver.ensure(e.material());
        check_entry(&e, &solver.analyse(&e.position));
    }
    for material in generate::materials(generate::MAX_PIECES) {
        solver.ensure(material);
        check_table(&solver, material, 50);
    }
}

/// Regenerates positions/endgames-hexdame.epd (about five minutes on two cores): checks that the
/// file is reproduced, or rewrites it when `STEERE_REGENERATE` is set.
#[test]
#[ignore]
fn regenerate_hexdame_endgames() {
    let started = std::time::Instant::now();
    let (text, summary) = generate::file_text();
    println!("{summary}in {:.1} s", started.elapsed().as_secs_f64());
    reproduce_or_write("positions/endgames-hexdame.epd", text);
}

/// The longest wins and losses (own moves) that the fast test has `steere solve` prove.
const SOLVE_MOVES: u32 = 7;

/// Runs `steere solve` on `lines` (a `# variant: hexdame` file) with `args`; returns stdout.
fn steere_solve(name: &str, lines: &[String], args: &[&str]) -> (bool, String) {
    let dir = std::env::temp_dir().join(format!("steere-hexdame-suites-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("lines.epd");
    std::fs::write(&file, format!("# variant: hexdame\n{}\n", lines.join("\n"))).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_steere"))
        .arg("solve")
        .arg(&file)
        .args(args)
        .output()
        .expect("steere runs");
    let _ = std::fs::remove_dir_all(&dir);
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn steere_solve_proves_the_short_results_and_matches_the_draws() {
    let text = std::fs::read_to_string(project_file("positions/endgames-hexdame.epd")).unwrap();
    let value_of = |line: &str| -> Option<(String, u32)> {
        operations(line).into_iter().find_map(|op| {
            let mut words = op.split_whitespace();
            match (words.next(), words.next()) {
                (Some(kind @ ("win" | "loss")), Some(n)) => Some((kind.to_string(), n.parse().unwrap())),
                _ => None,
            }
        })
    };
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).collect();
    let short: Vec<String> = lines
        .iter()
        .filter(|l| value_of(l).is_some_and(|(_, n)| n <= SOLVE_MOVES))
        .map(|l| l.to_string())
        .collect();
    let draws: Vec<String> =
        lines.iter().filter(|l| operations(l).contains(&"draw")).map(|l| l.to_string()).collect();
    assert!(short.len() >= 35 && draws.len() >= 40, "{} short results, {} draws", short.len(), draws.len());
    let (ok, out) = steere_solve("short", &short, &["--prove", "--movetime", "20000", "--jobs", "2"]);
    assert!(ok, "{out}");
    assert!(out.contains(&format!("solved {}/{}", short.len(), short.len())), "{out}");
    // Every draw but one is kept at depth 12 (and at 14; at 10 hd-eg-104 slips too). The exception, hd-eg-109, is a true limit of the
    // search: of Black's two promotions only e2-d1 holds, and e2-e1 loses in more than 21 plies,
    // which a depth-16 search does not see either. The test pins the exact set, so a change in
    // either direction shows.
    let (ok, out) = steere_solve("draws", &draws, &["--depth", "12", "--jobs", "2"]);
    assert!(!ok && out.contains(&format!("solved {}/{}", draws.len() - 1, draws.len())), "{out}");
    assert!(out.lines().any(|l| l == "failed \"hd-eg-109\""), "{out}");
    assert!(
        !out.contains(" score win ") && !out.contains(" score loss "),
        "no draw is proven a result: {out}"
    );
    // A distance off by one fails: the first win of the file, claimed one move longer.
    let first_win = short.iter().find(|l| value_of(l).is_some_and(|(kind, _)| kind == "win")).unwrap();
    let (_, n) = value_of(first_win).unwrap();
    let wrong = first_win.replace(&format!("win {n};"), &format!("win {};", n + 1));
    let (ok, out) = steere_solve("wrong", &[wrong], &["--prove", "--movetime", "20000"]);
    assert!(!ok && out.contains("fail"), "{out}");
}
