//! The Impasse endgame tables against the independent exhaustive solver of
//! engine-tests/impasse_solver (a memoised minimax over the rules API, sharing no code with the
//! tables' builder or index), on every position of the tables of 2 and 3 stacks and on sampled
//! positions of 4; the same tables from 1 and 2 threads byte for byte; faulty files refused;
//! `steere tb` and `steere solve --tables` end to end.

mod common;
#[path = "impasse_solver/mod.rs"]
mod solver;

use common::Rng;
use solver::{Exact, Solver};
use std::path::{Path, PathBuf};
use std::process::Command;
use steere::game::Outcome;
use steere::impasse::Position;
use steere::impasse::tablebase::{Tables, build_all};

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn build(dir: &Path, max: u32, threads: usize) -> Tables {
    build_all(dir, max, threads, &|_, _, _| {}, &mut |_| {}).unwrap()
}

/// The FEN of a board given square by square (rank 8 first, files a..h; ' ' for empty).
fn fen_of(cells: &[char; 64], side: char) -> String {
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|rank| {
            let mut text = String::new();
            let mut empty = 0;
            for file in 0..8 {
                match cells[rank * 8 + file] {
                    ' ' => empty += 1,
                    c => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push(c);
                    }
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    format!("{} {side}", ranks.join("/"))
}

/// Every legal position with exactly `stacks` stacks and `side` to move, found by placing the
/// four kinds of stack on the dark squares in every way and keeping what the FEN reader accepts.
fn every_position(stacks: usize, side: char) -> Vec<Position> {
    let dark: Vec<usize> = (0..64).filter(|i| (i % 8 + i / 8) % 2 == 0).collect();
    let mut found = Vec::new();
    let mut chosen = Vec::new();
    fn place(dark: &[usize], from: usize, left: usize, chosen: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if left == 0 {
            out.push(chosen.clone());
            return;
        }
        for i in from..dark.len() {
            chosen.push(dark[i]);
            place(dark, i + 1, left - 1, chosen, out);
            chosen.pop();
        }
    }
    let mut sets = Vec::new();
    place(&dark, 0, stacks, &mut chosen, &mut sets);
    for set in sets {
        for kinds in 0..4usize.pow(stacks as u32) {
            let mut cells = [' '; 64];
            for (j, &square) in set.iter().enumerate() {
                cells[square] = ['w', 'W', 'b', 'B'][(kinds >> (2 * j)) & 3];
            }
            if let Ok(pos) = Position::from_fen(&fen_of(&cells, side))
                && !pos.is_game_over()
            {
                found.push(pos);
            }
        }
    }
    found
}

/// The tables' value of `pos` as the solver writes it.
fn table_value(tables: &Tables, pos: &Position) -> Exact {
    let v = tables.probe(pos).unwrap_or_else(|| panic!("{pos} is not in the tables"));
    match v.outcome {
        Outcome::Win => Exact::Win(v.plies),
        _ => Exact::Loss(v.plies),
    }
}

#[test]
fn every_position_of_two_and_three_stacks_has_the_solvers_value() {
    let dir = scratch("small");
    let tables = build(&dir, 3, 2);
    let mut solver = Solver::new(usize::MAX);
    for stacks in 2..=3 {
        for side in ['w', 'b'] {
            let positions = every_position(stacks, side);
            // The table holds exactly the legal positions: as many non-zero entries as the FEN
            // reader accepts positions with one side to move (the other is its mirror).
            let stored = tables.entries(stacks as u32).unwrap().iter().filter(|&&b| b != 0).count();
            assert_eq!(stored, positions.len(), "{stacks} stacks, {side} to move");
            for pos in &positions {
                assert_eq!(Some(table_value(&tables, pos)), solver.value(pos), "{pos}");
            }
        }
    }
}

#[test]
fn sampled_positions_of_four_stacks_have_the_solvers_value() {
    let dir = scratch("four");
    let tables = build(&dir, 4, 2);
    let mut rng = Rng(2027);
    let mut solver = Solver::new(usize::MAX);
    let mut checked = 0;
    while checked < 3000 {
        let pos = common::random_small_position(&mut rng, 2);
        if pos.is_game_over() || pos.occupied().count_ones() != 4 {
            continue;
        }
        assert_eq!(Some(table_value(&tables, &pos)), solver.value(&pos), "{pos}");
        checked += 1;
    }
}

#[test]
fn one_and_two_threads_build_the_same_bytes() {
    let (one, two) = (scratch("one"), scratch("two"));
    build(&one, 4, 1);
    build(&two, 4, 2);
    for stacks in 2..=4 {
        let name = format!("impasse-{stacks}.stb");
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

#[test]
fn tb_build_and_probe_end_to_end_and_faulty_files_are_refused() {
    let dir = scratch("cli");
    let d = dir.to_str().unwrap();
    let (ok, out, err) = steere(&["tb", "build", "--max-stacks", "3", "--threads", "2", "--dir", d]);
    assert!(ok, "{err}");
    assert!(out.contains("table 3 stacks: 238080 entries"), "{out}");
    // Black's single c3 slides to e1 and waits; White must bear off, and Black's removal wins.
    let fen = "8/8/8/8/8/2b5/1W6/8 b";
    let (ok, out, err) = steere(&["tb", "probe", "--fen", fen, "--dir", d]);
    assert!(ok, "{err}");
    assert_eq!(out, "value win 2\nmove c3d2 win 3\nmove c3e1 win 2\n");

    let path = dir.join("impasse-2.stb");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[100] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let (ok, _, err) = steere(&["tb", "probe", "--fen", fen, "--dir", d]);
    assert!(!ok && err.contains("impasse-2.stb: checksum mismatch"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    std::fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
    let (ok, _, err) = steere(&["tb", "probe", "--fen", fen, "--dir", d]);
    assert!(!ok && err.contains("truncated"), "{err}");
    // A faulty file is built again.
    let (ok, out, _) = steere(&["tb", "build", "--max-stacks", "3", "--dir", d]);
    assert!(ok && out.contains("table 2 stacks") && out.contains("built in"), "{out}");
    assert!(out.contains("table 3 stacks") && out.contains("kept (valid file)"), "{out}");
    let (ok, _, err) = steere(&["tb", "build", "--variant", "dipole", "--dir", d]);
    assert!(!ok && err.contains("no endgame tables for \"dipole\""), "{err}");
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
fn the_protocol_loads_tables_warns_on_faulty_ones_and_keeps_the_fastest_win() {
    let dir = scratch("protocol");
    build(&dir, 4, 2);
    let d = dir.display();
    // White wins by h2 (win 3, the fastest) or h4 (slower): the exhaustive solver says which.
    let fen = "8/8/8/6b1/7w/6B1/7w/8 w";
    let pos = Position::from_fen(fen).unwrap();
    let analysis = Solver::new(1 << 20).analyse(&pos).unwrap();
    let fastest: Vec<String> = analysis.fastest.iter().map(|m| m.to_string()).collect();
    assert!(analysis.winning.len() > analysis.fastest.len(), "the position must have slower wins");
    let Exact::Win(plies) = analysis.value else { panic!("a won position") };
    // One node: the root filter alone must already have left only the fastest wins.
    let out = session(&format!(
        "uci\nsetoption name TablebasePath value {d}\nisready\nposition fen {fen}\ngo nodes 1\nisready\nquit\n"
    ));
    assert!(out.contains("info string tablebases: impasse: tables of 2 to 4 stacks"), "{out}");
    let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).unwrap_or_else(|| panic!("{out}"));
    assert!(fastest.contains(&best.to_string()), "{best} is not among the fastest {fastest:?}\n{out}");
    assert!(out.contains(&format!("score mate {}", plies.div_ceil(2))), "{out}");

    // A missing directory and a corrupt file: one warning line each, and the engine plays on
    // with what is valid.
    let path = dir.join("impasse-4.stb");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[200] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let out = session(&format!(
        "uci\nsetoption name TablebasePath value {d}/none\nsetoption name TablebasePath value {d}\n\
         isready\nposition fen {fen}\ngo depth 2\nisready\nsetoption name TablebasePath value <empty>\nisready\nquit\n"
    ));
    let warnings: Vec<&str> =
        out.lines().filter(|l| l.starts_with("info string warning: TablebasePath")).collect();
    assert_eq!(warnings.len(), 2, "{out}");
    assert!(warnings[0].contains("no such directory"), "{out}");
    assert!(
        warnings[1].contains("impasse-4.stb") && warnings[1].contains("tables of 2 to 3 stacks"),
        "{out}"
    );
    assert!(out.contains("info string tablebases: impasse: no tables"), "{out}");
    assert_eq!(out.matches("readyok").count(), 3, "{out}");
    let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).unwrap_or_else(|| panic!("{out}"));
    assert!(pos.legal_moves().as_ref().iter().any(|m| m.to_string() == best), "{out}");
}
