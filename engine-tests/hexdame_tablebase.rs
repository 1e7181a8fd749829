//! The HexDame endgame tables against the independent retrograde solver of
//! engine-tests/hexdame_solver (over the reference generator of engine-tests/hexdame_reference,
//! sharing no code with the engine's move generator or the tables' builder): every position of
//! the tables of 2 and 3 pieces, and a sample of the table of 4 (every position of it in an
//! ignored test); the index round trip; the same tables from 1 and 2 threads byte for byte;
//! faulty files refused; `steere tb` and the protocol end to end.
//!
//! Every expected value comes from the solver, never from the tables under test.

mod common;
#[path = "hexdame_reference/mod.rs"]
mod hexdame_reference;
mod hexdame_solver;

use common::Rng;
use hexdame_solver::{Exact, Material, Solver, Value, mirror};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};
use steere::game::{Outcome, TableValue};
use steere::hexdame::Position;
use steere::hexdame::tablebase::index::Layout;
use steere::hexdame::tablebase::{Tables, build_all, decode};

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("hdtb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn build(dir: &Path, max: u32, threads: usize) -> Tables {
    build_all(dir, max, threads, &|_, _, _| {}, &mut |_| {}).unwrap()
}

/// The tables of 2 and 3 pieces, built once for the tests that need them.
fn small_tables() -> &'static (PathBuf, Tables) {
    static TABLES: OnceLock<(PathBuf, Tables)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = scratch("small");
        let tables = build(&dir, 3, 2);
        (dir, tables)
    })
}

/// Every material of `pieces` pieces with both sides on the board.
fn materials(pieces: u8) -> Vec<Material> {
    let mut out = Vec::new();
    for wm in 0..=pieces {
        for wk in 0..=pieces - wm {
            for bm in 0..=pieces - wm - wk {
                let bk = pieces - wm - wk - bm;
                if wm + wk > 0 && bm + bk > 0 {
                    out.push(Material { counts: [wm, wk, bm, bk] });
                }
            }
        }
    }
    out
}

/// The solver with every material of at most `pieces` pieces solved.
fn solver(pieces: u8) -> Solver {
    let mut solver = Solver::new();
    for p in 2..=pieces {
        for m in materials(p) {
            solver.ensure(m);
        }
    }
    solver
}

/// The tables' value as the solver writes it (`None`: a draw).
fn as_solver_value(value: TableValue) -> Value {
    match value.outcome {
        Outcome::Win => Some(Exact::Win(value.plies)),
        Outcome::Loss => Some(Exact::Loss(value.plies)),
        Outcome::Draw => None,
    }
}

/// The solver's value of an engine position (through its FEN: the two share nothing else).
fn solver_value(solver: &Solver, pos: &Position) -> Value {
    let fen = pos.to_fen();
    let reference = hexdame_reference::Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    solver.known(&reference)
}

/// Checks every `step`-th entry of table `pieces` (from `start`) against the solver, and that
/// the entries which are no position are exactly the index's holes. Returns the positions
/// checked.
fn check_entries(tables: &Tables, solver: &Solver, pieces: u32, start: u64, step: u64) -> u64 {
    check_entries_of(tables, solver, pieces, start, step, &|_| true)
}

/// [`check_entries`] restricted to the materials (White men, White kings, Black men, Black
/// kings) that `wanted` accepts.
fn check_entries_of(
    tables: &Tables,
    solver: &Solver,
    pieces: u32,
    start: u64,
    step: u64,
    wanted: &dyn Fn([u8; 4]) -> bool,
) -> u64 {
    let layout = Layout::new(pieces);
    let entries = tables.entries(pieces).unwrap();
    let mut checked = 0;
    let mut index = start;
    while index < layout.entries {
        let (id, local) = layout.locate(index);
        if !wanted(layout.materials[id].material.0) {
            index += step;
            continue;
        }
        let byte = entries[index as usize];
        match layout.position(id, local) {
            None => assert_eq!(byte, 0, "entry {index} is no position"),
            Some(pos) => {
                let value = decode(byte).unwrap_or_else(|| panic!("{}: no value", pos.to_fen()));
                assert_eq!(as_solver_value(value), solver_value(solver, &pos), "{}", pos.to_fen());
                checked += 1;
            }
        }
        index += step;
    }
    checked
}

#[test]
fn every_position_of_two_and_three_pieces_has_the_solvers_value() {
    let (_, tables) = small_tables();
    let solver = solver(3);
    assert_eq!(check_entries(tables, &solver, 2, 0, 1), 12_561);
    assert!(check_entries(tables, &solver, 3, 0, 1) > 1_300_000);
}

#[test]
fn black_to_move_and_mirror_images_have_the_solvers_value() {
    let (_, tables) = small_tables();
    let solver = solver(3);
    let mut rng = Rng(61);
    let layout = Layout::new(3);
    let mut checked = 0;
    while checked < 20_000 {
        let (id, local) = layout.locate(rng.below(layout.entries as usize) as u64);
        let Some(pos) = layout.position(id, local) else { continue };
        // The same pieces with Black to move: a different position, probed through its flip.
        let fen = pos.to_fen().replacen('W', "B", 1);
        let black = Position::from_fen(&fen).unwrap();
        let value = tables.probe(&black).map(as_solver_value).unwrap_or(Some(Exact::Loss(0)));
        assert_eq!(value, solver_value(&solver, &black), "{fen}");
        // And its mirror image (the solver's own symmetry, which the tables do not use).
        let reference = hexdame_reference::Position::from_fen(&fen).unwrap();
        let mirrored = Position::from_fen(&mirror(&reference).to_fen()).unwrap();
        let value = tables.probe(&mirrored).map(as_solver_value).unwrap_or(Some(Exact::Loss(0)));
        assert_eq!(value, solver.known(&reference), "{fen} mirrored");
        checked += 1;
    }
}

#[test]
fn every_number_of_the_small_tables_round_trips() {
    for pieces in 2..=3 {
        let layout = Layout::new(pieces);
        for index in 0..layout.entries {
            let (id, local) = layout.locate(index);
            if let Some(pos) = layout.position(id, local) {
                let again = Position::from_fen(&pos.to_fen()).unwrap();
                assert_eq!(layout.index(&again), index, "{}", pos.to_fen());
            }
        }
    }
}

/// The table of 4 pieces and the solver of every set of 4, built once (the slow part).
fn four() -> &'static Mutex<(Tables, Solver)> {
    static FOUR: OnceLock<Mutex<(Tables, Solver)>> = OnceLock::new();
    FOUR.get_or_init(|| Mutex::new((build(&scratch("four"), 4, 2), solver(4))))
}

/// The 4-piece tables: those of the directory `STEERE_HEXDAME_TABLES` when set (built by
/// `steere tb build --variant hexdame --max 4`), else built here.
fn four_piece_tables() -> Tables {
    match std::env::var_os("STEERE_HEXDAME_TABLES") {
        Some(dir) => {
            let (tables, warnings) = Tables::open(Path::new(&dir), 4);
            assert!(warnings.is_empty() && tables.entries(4).is_some(), "{warnings:?}");
            tables
        }
        None => build(&scratch("four-men"), 4, 2),
    }
}

#[test]
#[ignore = "builds the 4-piece table (or reads STEERE_HEXDAME_TABLES): a minute or two"]
fn every_men_only_position_of_four_pieces_has_the_solvers_value() {
    let tables = four_piece_tables();
    let mut solver = solver(3);
    let men_only = [[2, 0, 2, 0], [3, 0, 1, 0], [1, 0, 3, 0]];
    for counts in men_only {
        solver.ensure(Material { counts });
    }
    let checked = check_entries_of(&tables, &solver, 4, 0, 1, &|m| men_only.contains(&m));
    assert!(checked > 1_000_000, "{checked}");
}

#[test]
#[ignore = "builds the 4-piece table and solves every 4-piece set: several minutes"]
fn a_sample_of_four_pieces_has_the_solvers_value() {
    let four = four().lock().unwrap();
    let checked = check_entries(&four.0, &four.1, 4, 12_345, 997);
    assert!(checked > 80_000, "{checked}");
}

#[test]
#[ignore = "every position of the 4-piece table: several minutes"]
fn every_position_of_four_pieces_has_the_solvers_value() {
    let four = four().lock().unwrap();
    assert!(check_entries(&four.0, &four.1, 4, 0, 1) > 85_000_000);
}

#[test]
fn one_and_two_threads_build_the_same_bytes() {
    let (one, two) = (scratch("one"), scratch("two"));
    build(&one, 3, 1);
    build(&two, 3, 2);
    for pieces in 2..=3 {
        let name = format!("hexdame-{pieces}.stb");
        let (a, b) = (std::fs::read(one.join(&name)).unwrap(), std::fs::read(two.join(&name)).unwrap());
        assert!(a == b, "{name} differs between 1 and 2 threads");
    }
}

fn steere(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_steere")).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// The solver's value of a FEN and of each of its moves, as `tb probe` prints them.
fn probe_lines(solver: &Solver, fen: &str) -> String {
    let text = |v: Value| v.map_or("draw".to_string(), Exact::epd);
    let analysis = solver.analyse(&hexdame_reference::Position::from_fen(fen).unwrap());
    let mut out = format!("value {}\n", text(analysis.value));
    for (mv, value) in &analysis.moves {
        out.push_str(&format!("move {mv} {}\n", text(*value)));
    }
    out
}

#[test]
fn tb_build_and_probe_end_to_end_and_faulty_files_are_refused() {
    let dir = scratch("cli");
    let d = dir.to_str().unwrap();
    let (ok, out, err) =
        steere(&["tb", "build", "--variant", "hexdame", "--max", "3", "--threads", "2", "--dir", d]);
    assert!(ok, "{err}");
    assert!(out.contains("table 3 pieces: 1430128 entries"), "{out}");
    let solver = solver(3);
    for fen in ["W:Wa3,d7:Bd8", "B:Wa3,e7:Bd8", "W:WKa1:Bc3,f6", "W:Wc3:Bg7"] {
        let (ok, out, err) = steere(&["tb", "probe", "--variant", "hexdame", "--fen", fen, "--dir", d]);
        assert!(ok, "{err}");
        assert_eq!(out, probe_lines(&solver, fen), "{fen}");
    }

    let fen = "W:Wc3:Bg7";
    let path = dir.join("hexdame-2.stb");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[100] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let (ok, _, err) = steere(&["tb", "probe", "--variant", "hexdame", "--fen", fen, "--dir", d]);
    assert!(!ok && err.contains("hexdame-2.stb: checksum mismatch"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    std::fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
    let (ok, _, err) = steere(&["tb", "probe", "--variant", "hexdame", "--fen", fen, "--dir", d]);
    assert!(!ok && err.contains("truncated"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // A faulty file is built again; the old flag names still work.
    let (ok, out, _) = steere(&["tb", "build", "--variant", "hexdame", "--max-pieces", "3", "--dir", d]);
    assert!(ok && out.contains("table 2 pieces") && out.contains("built in"), "{out}");
    assert!(out.contains("table 3 pieces") && out.contains("kept (valid file)"), "{out}");
}

/// The engine's answers to a protocol script (read to the end of its output).
fn session(script: &str) -> String {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_steere"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    String::from_utf8_lossy(&child.wait_with_output().unwrap().stdout).into()
}

#[test]
fn the_protocol_scores_table_positions_with_their_exact_distance_and_keeps_draws() {
    let (dir, _) = small_tables();
    let d = dir.display();
    let solver = solver(3);
    // A won and a lost position of the 3-piece table: `score mate N` of the solver's distance.
    for fen in ["W:Wa3,d7:Bd8", "B:Wa3,e7:Bd8"] {
        let reference = hexdame_reference::Position::from_fen(fen).unwrap();
        let value = solver.known(&reference).expect("a decided position");
        let mate = match value {
            Exact::Win(p) => format!("score mate {}", p.div_ceil(2)),
            Exact::Loss(p) => format!("score mate -{}", p.div_ceil(2)),
        };
        let out = session(&format!(
            "uci\nsetoption name UCI_Variant value hexdame\nsetoption name TablebasePath value {d}\nisready\n\
             position fen {fen}\ngo depth 3\nisready\nquit\n"
        ));
        assert!(out.contains("tablebases: impasse: no tables in"), "{out}");
        assert!(out.contains("hexdame: tables of 2 to 3 pieces"), "{out}");
        assert!(out.contains(&mate), "{fen}: {mate} expected\n{out}");
        let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).unwrap_or_else(|| panic!("{out}"));
        let analysis = solver.analyse(&reference);
        assert!(analysis.best().contains(&best.to_string()), "{best} not among {:?}", analysis.best());
    }
    // A drawn position with losing moves: the engine keeps the draw, scored 0.
    let drawn = solver
        .slots(Material { counts: [1, 1, 1, 0] })
        .map(|(slot, value)| (solver.slot_position(Material { counts: [1, 1, 1, 0] }, slot), value))
        .find(|(pos, value)| value.is_none() && !solver.analyse(pos).losing().is_empty())
        .map(|(pos, _)| pos)
        .expect("a draw with a losing move");
    let fen = drawn.to_fen();
    let out = session(&format!(
        "uci\nsetoption name UCI_Variant value hexdame\nsetoption name TablebasePath value {d}\nisready\n\
         position fen {fen}\ngo depth 4\nisready\nquit\n"
    ));
    let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).unwrap_or_else(|| panic!("{out}"));
    assert!(solver.analyse(&drawn).drawing().contains(&best.to_string()), "{fen}: {best}\n{out}");
    assert!(out.contains("score cp 0"), "{out}");
    // A missing directory is one warning, not one per game.
    let out = session(&format!("uci\nsetoption name TablebasePath value {d}/none\nisready\nquit\n"));
    assert_eq!(out.matches("warning: TablebasePath").count(), 1, "{out}");
}
