//! End-to-end tests of `--variant` on the command line: every command on Dipole, `dipole10`
//! and HexDame, with the expected values taken from the rules documents' perft tables and from
//! the independent reference generators (engine-tests/dipole_reference,
//! engine-tests/hexdame_reference), and clear errors for unknown variants.

mod dipole_reference;
#[path = "hexdame_reference/mod.rs"]
mod hexdame_reference;

use dipole_reference::{self as reference, Variant};
use std::process::{Command, Output};

fn steere(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_steere")).args(args).output().expect("the steere binary runs")
}

fn stdout(output: &Output) -> String {
    assert!(output.status.success(), "failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

/// The node count of a `nodes N time MS nps X` line.
fn summary_nodes(text: &str) -> u64 {
    let last = text.lines().last().expect("a summary line");
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!((words.len(), words[0], words[2], words[4]), (6, "nodes", "time", "nps"), "{last}");
    words[1].parse().expect("a node count")
}

/// A scratch directory for files of one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("steere-cli-variants-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn variants_lists_every_game_with_its_rules() {
    let text = stdout(&steere(&["variants"]));
    let names: Vec<&str> = text.lines().map(|l| l.split_whitespace().next().unwrap()).collect();
    assert_eq!(names, ["impasse", "dipole", "dipole10", "hexdame", "cantstop"]);
    for line in text.lines() {
        let doc = line.rsplit("(rules: ").next().unwrap().trim_end_matches(')');
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(doc);
        assert!(path.exists(), "{line}: {doc} exists");
    }
}

#[test]
fn perft_and_divide_give_the_rules_counts() {
    // The perft table of docs/rules/dipole.md.
    for (variant, depth, nodes) in [("dipole", "4", 81_107), ("dipole10", "3", 18_120)] {
        for threads in ["1", "2"] {
            let out =
                stdout(&steere(&["perft", "--variant", variant, "--depth", depth, "--threads", threads]));
            assert_eq!(summary_nodes(&out), nodes, "{variant}");
        }
        let out = stdout(&steere(&["divide", "--variant", variant, "--depth", depth]));
        let rows: Vec<&str> = out.lines().collect();
        let sum: u64 =
            rows[..rows.len() - 1].iter().map(|r| r.split(' ').nth(1).unwrap().parse::<u64>().unwrap()).sum();
        assert_eq!((sum, summary_nodes(&out)), (nodes, nodes), "{variant}");
    }
}

#[test]
fn moves_agree_with_the_reference() {
    let fen = "8/8/8/8/1,b2,1,w2,4/8/3,b3,1,b1,2/8 w";
    for (variant, fen) in [(Variant::Dipole, None), (Variant::Dipole, Some(fen)), (Variant::Dipole10, None)] {
        let mut args = vec!["moves", "--variant", variant.name()];
        args.extend(fen.iter().flat_map(|f| ["--fen", f]));
        let out = stdout(&steere(&args));
        let expected = reference::legal_moves(variant, fen.unwrap_or(variant.start_fen())).unwrap();
        let expected: Vec<String> = expected.iter().map(|(mv, after)| format!("{mv} {after}")).collect();
        assert_eq!(out.lines().collect::<Vec<_>>(), expected, "{} {fen:?}", variant.name());
    }
}

#[test]
fn analyse_and_bench_search_the_variant() {
    // Capturing Black's last single wins at once (example 6 of docs/rules/dipole.md).
    let fen = "8/8/8/8/3,b1,4/2,w1,5/8/8 w";
    let out = stdout(&steere(&["analyse", "--variant", "dipole", "--fen", fen, "--depth", "3"]));
    assert!(out.lines().any(|l| l.contains(" score win 1 ")), "{out}");
    assert_eq!(out.lines().last().unwrap(), "bestmove c3d4");
    let out = stdout(&steere(&["analyse", "--variant", "dipole10", "--depth", "4"]));
    let best = out.lines().last().unwrap().split(' ').nth(1).unwrap().to_string();
    assert!(reference::play(Variant::Dipole10, Variant::Dipole10.start_fen(), &best).is_ok(), "{out}");
    let out = stdout(&steere(&["bench", "--variant", "dipole", "--depth", "3"]));
    assert!(out.lines().next().unwrap().starts_with("position 1/41 "), "{out}");
    assert!(out.contains(&format!("fen {}", Variant::Dipole.start_fen())));
    assert!(summary_nodes(&out) > 0);
}

#[test]
fn solve_reads_the_variant_from_headers_and_operations() {
    let dir = scratch("solve");
    let file = dir.join("mixed.epd");
    // Impasse first (the default), then Dipole by header and by operation: the capture of the
    // last enemy single wins in one move; a lone White single on its last rank must exit and
    // lose (docs/rules/dipole.md: a player without checkers loses at once).
    std::fs::write(
        &file,
        "8/8/5b2/8/8/8/3w4/B7 w win 3; id \"impasse\"\n\
         # variant: dipole\n\
         8/8/8/8/3,b1,4/2,w1,5/8/8 w bm c3d4; win 1; id \"capture\"\n\
         1,w1,6/8/8/8/8/8/8/b1,7 w loss 1; id \"forced exit\"\n\
         5,b20,4/10/10/10/10/10/10/10/10/4,w20,5 w variant dipole10; id \"start10\"\n",
    )
    .unwrap();
    let out = stdout(&steere(&["solve", file.to_str().unwrap(), "--depth", "6"]));
    for id in ["impasse", "capture", "forced exit", "start10"] {
        assert!(out.contains(&format!("id \"{id}\" pass ")), "{id}: {out}");
    }
    assert!(out.contains("solved 4/4 malformed 0"), "{out}");
    // --variant sets the game of the lines before any header: Impasse's line is then malformed.
    let output = steere(&["solve", file.to_str().unwrap(), "--depth", "6", "--variant", "dipole"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("solved 3/3 malformed 1"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_and_match_play_the_variant() {
    let dir = scratch("match");
    let book = dir.join("book.fen");
    let args =
        ["book", "--variant", "dipole", "--plies", "3", "--count", "4", "--depth", "3", "--max-score", "300"];
    let mut with_out = args.to_vec();
    with_out.extend(["--out", book.to_str().unwrap()]);
    assert!(steere(&with_out).status.success());
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(text.contains("# Generated by: steere book --variant dipole --plies 3 --count 4"), "{text}");
    let exe = env!("CARGO_BIN_EXE_steere");
    let record = dir.join("games.pgn");
    let out = stdout(&steere(&[
        "match",
        "--variant",
        "dipole",
        "--engine1",
        exe,
        "name=d3",
        "depth=3",
        "--engine2",
        exe,
        "name=d1",
        "depth=1",
        "--openings",
        book.to_str().unwrap(),
        "--games",
        "4",
        "--pgn",
        record.to_str().unwrap(),
    ]));
    assert!(out.contains("Match d3 vs d1: 4 games"), "{out}");
    let games = std::fs::read_to_string(&record).unwrap();
    assert_eq!(games.matches("[Variant \"dipole\"]").count(), 4, "{games}");
    assert_eq!(games.matches("option.UCI_Variant=dipole").count(), 8, "both engines were told the game");
    // Every game replays under the reference rules from its recorded FEN.
    for game in steere::tools::matches::record::parse_records(&games).unwrap() {
        let mut fen = game.tag("FEN").unwrap().to_string();
        for mv in &game.moves {
            fen = reference::play(Variant::Dipole, &fen, mv).unwrap();
        }
        assert!(reference::Position::from_fen(Variant::Dipole, &fen).unwrap().is_finished(), "{fen}");
        assert!(game.replay().unwrap().winner.is_some());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unknown_variants_and_wrong_notations_are_clear_errors() {
    for args in [
        &["perft", "--variant", "chess", "--depth", "1"][..],
        &["moves", "--variant", "dipole", "--fen", "8/8/8/8/8/8/8/1w6 w"],
        &["book", "--variant", "go"],
        &["match", "--variant", "go", "--engine1", "x", "--engine2", "y"],
        &["codingame", "--variant", "dipole"],
    ] {
        let output = steere(args);
        assert!(!output.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("error"), "{args:?}: {stderr}");
    }
    let output = steere(&["perft", "--variant", "chess", "--depth", "1"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.trim(),
        "steere: error: --variant: unknown variant 'chess' (variants: impasse, dipole, dipole10, hexdame, cantstop)"
    );
}

#[test]
fn every_command_plays_hexdame() {
    // The perft table of docs/rules/hexdame.md, with one and two threads, and divide.
    for threads in ["1", "2"] {
        let out = stdout(&steere(&["perft", "--variant", "hexdame", "--depth", "3", "--threads", threads]));
        assert_eq!(summary_nodes(&out), 3337);
    }
    let out = stdout(&steere(&["divide", "--variant", "hexdame", "--depth", "2"]));
    assert!(out.lines().any(|l| l == "d4-e5 1"), "after d4-e5 Black's only move is f6xd4: {out}");
    assert_eq!(summary_nodes(&out), 211);
    // Moves against the reference: the start, and a king's restricted landings (example 6).
    for fen in [hexdame_reference::START_FEN, "W:WKa1,d2:Bc3,e3,h6,i9"] {
        let out = stdout(&steere(&["moves", "--variant", "hexdame", "--fen", fen]));
        let expected: Vec<String> = hexdame_reference::legal_moves(fen)
            .unwrap()
            .iter()
            .map(|(m, after)| format!("{m} {after}"))
            .collect();
        assert_eq!(out.lines().collect::<Vec<_>>(), expected, "{fen}");
    }
    // Analyse: capturing Black's last piece wins at once.
    let out = stdout(&steere(&["analyse", "--variant", "hexdame", "--fen", "W:Wc3:Bd4", "--depth", "3"]));
    assert!(out.lines().any(|l| l.contains(" score win 1 ")), "{out}");
    assert_eq!(out.lines().last().unwrap(), "bestmove c3xe5");
    // Bench, solve (a win and a draw) and book.
    let out = stdout(&steere(&["bench", "--variant", "hexdame", "--depth", "3"]));
    assert!(out.lines().next().unwrap().starts_with("position 1/41 "), "{out}");
    let dir = scratch("hexdame");
    let file = dir.join("hexdame.epd");
    std::fs::write(
        &file,
        "# variant: hexdame\nW:Wc3:Bd4 bm c3xe5; win 1; id \"last piece\"\nW:WKa1:BKi9 draw; id \"kings\"\n",
    )
    .unwrap();
    let out = stdout(&steere(&["solve", file.to_str().unwrap(), "--depth", "6"]));
    assert!(out.contains("id \"last piece\" pass") && out.contains("id \"kings\" pass"), "{out}");
    let book = dir.join("book.fen");
    let args = ["book", "--variant", "hexdame", "--plies", "2", "--count", "5", "--depth", "2"];
    let mut args = args.to_vec();
    args.extend(["--out", book.to_str().unwrap()]);
    stdout(&steere(&args));
    let text = std::fs::read_to_string(&book).unwrap();
    for fen in text.lines().filter(|l| !l.starts_with('#')) {
        assert!(hexdame_reference::legal_moves(fen).is_ok(), "{fen}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Can't Stop on the command line: the contract's perft counts and odds, the legal events,
/// analysis, a reproducible bench and solitaire study, and the board-only commands refused.
#[test]
fn cantstop_commands() {
    let cs = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--variant", "cantstop"]);
        steere(&all)
    };
    // The contract's perft table from the start and its second position.
    for (depth, nodes) in [("4", 58_212), ("5", 130_356)] {
        assert_eq!(summary_nodes(&stdout(&cs(&["perft", "--depth", depth]))), nodes);
    }
    let fen = "p2 00000000000/00000000000 4:2,7:12,9:3 1 r";
    assert_eq!(summary_nodes(&stdout(&cs(&["perft", "--depth", "3", "--fen", fen]))), 6720);
    let divide = stdout(&cs(&["divide", "--depth", "2", "--fen", fen]));
    assert_eq!(divide.lines().count(), 127, "126 rolls and the summary");
    // The legal events of the contract's first example, with the positions after.
    let moves = stdout(&cs(&["moves", "--fen", "p2 00000000000/00000000000 - 1 c1456"]));
    let events: Vec<&str> = moves.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(events, ["5.11", "6.10", "7.9"]);
    assert!(moves.contains("6.10 p2 00000000000/00000000000 6:1,10:1 1 s"), "{moves}");
    // Odds: the contract's second perft position busts in 139 of 1296 outcomes.
    let odds = stdout(&cs(&["odds", "--fen", fen]));
    assert!(odds.starts_with("bust on the next roll: 139/1296 = 10.73%"), "{odds}");
    // Analysis of a decision, and of a roll phase.
    let analysis =
        stdout(&cs(&["analyse", "--depth", "2", "--fen", "p2 00000000000/00000000000 6:1,10:1 1 c2345"]));
    let best = analysis.lines().last().unwrap();
    assert!(["bestmove 5", "bestmove 6.8", "bestmove 7.7", "bestmove 9"].contains(&best), "{analysis}");
    assert_eq!(analysis.lines().filter(|l| l.starts_with("value ")).count(), 4, "{analysis}");
    let roll = stdout(&cs(&["analyse", "--depth", "2"]));
    assert!(roll.ends_with("bestmove (none)\n"), "{roll}");
    // The bench signature is reproducible; so is a solitaire study with a seed.
    let bench = summary_nodes(&stdout(&cs(&["bench", "--depth", "2"])));
    assert_eq!(summary_nodes(&stdout(&cs(&["bench", "--depth", "2"]))), bench);
    let study = |jobs: &str| {
        let out = stdout(&cs(&[
            "solitaire",
            "--games",
            "200",
            "--strategy",
            "rule28",
            "--seed",
            "5",
            "--jobs",
            jobs,
        ]));
        out.split(" time ").next().unwrap().to_string()
    };
    let one = study("1");
    assert!(one.starts_with("games 200 strategy rule28 mean "), "{one}");
    assert_eq!(study("2"), one, "the same games on two threads");
    // Board-game commands are refused with a reason, and so are dice commands on board games.
    let refused = cs(&["solve", "positions/endgames-impasse.epd"]);
    assert!(!refused.status.success());
    // The dice-only commands default to Can't Stop.
    assert!(stdout(&steere(&["odds"])).starts_with("bust on the next roll: 0/1296"));
    let default_study = stdout(&steere(&["solitaire", "--games", "20", "--strategy", "rule28"]));
    assert!(default_study.starts_with("games 20 strategy rule28 mean "), "{default_study}");
    let odds_on_board = steere(&["odds", "--variant", "impasse"]);
    assert!(String::from_utf8_lossy(&odds_on_board.stderr).contains("odds are for dice games"));
}
