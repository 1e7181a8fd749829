//! The protocol conformance suite: starts the real `steere` binary and talks UCI/UGI to it over
//! pipes (see `pipe.rs`).
//!
//! Covered: the handshake in both dialects, every option, every `go` form, `UCI_Variant` and
//! whole games of Dipole (`protocol/variants.rs`), HexDame's draws by threefold repetition in
//! queries, searches and games (`protocol/hexdame.rs`), `stop` and
//! `ponderhit` timing, a whole game through `position ... moves` with every `query` checked at
//! every ply, a scripted GUI session and a UGI runner's sequence, the terminal extensions, and
//! hostile input (unknown commands, malformed FEN, illegal moves, bad option values, empty and
//! 1 MB lines, invalid UTF-8, commands during a search, `go` on a finished game, end of input,
//! a closed output). After each hostile step the engine must answer `isready` and `query fen`
//! must show the expected position. Expected values come from the rules API, not from the
//! engine's own output.
//!
//! Timing checks (stop latency) take the suite's lock exclusively, so that the other tests'
//! engines do not compete with them for the processor; a check that still misses its bound on
//! a loaded machine is retried, never loosened.

#[path = "protocol/cantstop.rs"]
mod cantstop;
#[path = "cantstop_reference/mod.rs"]
mod cantstop_reference;
mod common;
mod dipole_reference;
/// HexDame over the protocol: draws by repetition, checked against its reference.
#[path = "protocol/hexdame.rs"]
mod hexdame;
#[path = "hexdame_reference/mod.rs"]
mod hexdame_reference;
/// The hostile-input half of the suite.
#[path = "protocol/hostile.rs"]
mod hostile;
/// Strength levels and MultiPV in every variant.
#[path = "protocol/levels.rs"]
mod levels;
/// The limits of every game: the deepest perft, the largest table, quoting of bad tokens.
#[path = "protocol/limits.rs"]
mod limits;
mod pipe;
/// Which job each `stop` ends, in pipelined input.
#[path = "protocol/stops.rs"]
mod stops;
/// Every variant over the protocol, Dipole checked against its reference.
#[path = "protocol/variants.rs"]
mod variants;

use common::Rng;
use pipe::Engine;
use std::sync::RwLock;
use std::time::{Duration, Instant};
use steere::impasse::{Color, Position, START_FEN};

/// Timing tests hold it for writing, every other test for reading.
static SUITE: RwLock<()> = RwLock::new(());

fn shared() -> std::sync::RwLockReadGuard<'static, ()> {
    SUITE.read().unwrap_or_else(|p| p.into_inner())
}

fn exclusive() -> std::sync::RwLockWriteGuard<'static, ()> {
    SUITE.write().unwrap_or_else(|p| p.into_inner())
}

/// The bound on `stop` latency required by the issue.
const STOP_LATENCY: Duration = Duration::from_millis(50);

/// A position a few plies into a game, used as the "expected position" of hostile tests.
const SOME_MOVES: &str = "d2e3 e7f6 e3d4";

fn position_after(moves: &str) -> Position {
    moves.split_whitespace().fold(Position::startpos(), |pos, m| pos.make_move(pos.parse_move(m).unwrap()))
}

/// Checks an `info` line of a search of `pos`: the fields in order, with a PV that is legal.
fn check_info(engine: &Engine, line: &str, pos: &Position) {
    let words: Vec<&str> = line.split(' ').collect();
    let fail = |why: &str| engine.fail(&format!("bad info line ({why}): {line}"));
    let keys = [
        "info", "depth", "", "seldepth", "", "score", "", "", "nodes", "", "nps", "", "time", "", "hashfull",
        "",
    ];
    if words.len() < keys.len() {
        fail("too short");
    }
    for (i, key) in keys.iter().enumerate() {
        if !key.is_empty() && words[i] != *key {
            fail(&format!("expected '{key}' at {i}"));
        }
    }
    for i in [2, 4, 9, 11, 13, 15] {
        if words[i].parse::<u64>().is_err() {
            fail("a count is not a number");
        }
    }
    if !(words[6] == "cp" || words[6] == "mate") || words[7].parse::<i32>().is_err() {
        fail("score is not 'cp X' or 'mate N'");
    }
    if words.len() > keys.len() {
        if words[16] != "pv" || words.len() == 17 {
            fail("expected 'pv' and moves");
        }
        let mut p = *pos;
        for text in &words[17..] {
            match p.parse_move(text) {
                Ok(mv) => p = p.make_move(mv),
                Err(e) => fail(&format!("pv move {text}: {e}")),
            }
        }
    }
}

/// Reads a search's output up to its `bestmove`; checks every `info` line and that the move
/// (and ponder move) are legal in `pos`. Returns the info lines and the move text.
fn search_output(engine: &mut Engine, pos: &Position) -> (Vec<String>, String) {
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    let (last, infos) = lines.split_last().unwrap();
    let infos: Vec<String> = infos.iter().filter(|l| !l.starts_with("info string")).cloned().collect();
    for info in &infos {
        check_info(engine, info, pos);
    }
    let words: Vec<&str> = last.split(' ').collect();
    let best = pos.parse_move(words[1]).unwrap_or_else(|e| engine.fail(&format!("bestmove: {e}")));
    match words.len() {
        2 => {}
        4 if words[2] == "ponder" => {
            if let Err(e) = pos.make_move(best).parse_move(words[3]) {
                engine.fail(&format!("ponder move: {e}"));
            }
        }
        _ => engine.fail(&format!("malformed bestmove line: {last}")),
    }
    (infos, words[1].to_string())
}

/// Starts an engine, checks the handshake and sets up `SOME_MOVES`.
fn ready_engine() -> Engine {
    let mut engine = Engine::start(&[]);
    engine.send("uci");
    engine.until("uciok", |l| l == "uciok");
    engine.send(&format!("position startpos moves {SOME_MOVES}"));
    engine.sync_quiet();
    engine
}

/// The engine is alive, quiet, and still at `SOME_MOVES`.
fn check_consistent(engine: &mut Engine) {
    engine.sync_quiet();
    let expected = position_after(SOME_MOVES).to_fen();
    let fen = engine.query("fen");
    if fen != expected {
        engine.fail(&format!("position changed: {fen}, expected {expected}"));
    }
}

#[test]
fn handshake_in_both_dialects() {
    let _guard = shared();
    for (hello, ok) in [("uci", "uciok"), ("ugi", "ugiok")] {
        let mut engine = Engine::start(&[]);
        engine.send(hello);
        let lines = engine.until(ok, |l| l == ok);
        assert!(lines[0].starts_with("id name steere "), "{lines:?}");
        assert!(lines[1].starts_with("id author "), "{lines:?}");
        let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option name ")).collect();
        let names: Vec<&str> = options.iter().map(|l| l.split(" type ").next().unwrap()).collect();
        for name in [
            "Hash",
            "Threads",
            "MoveOverhead",
            "UCI_Variant",
            "Ponder",
            "Clear Hash",
            "Players",
            "Strategy",
            "Seed",
        ] {
            assert!(names.contains(&format!("option name {name}").as_str()), "{name} in {names:?}");
        }
        assert!(options.iter().any(|l| {
            l.ends_with(
                "type combo default impasse var impasse var dipole var dipole10 var hexdame var cantstop",
            )
        }));
        assert_eq!(lines.len(), 2 + options.len() + 1, "only id, option and {ok} lines: {lines:?}");
        engine.sync_quiet();
        engine.finish();
    }
}

#[test]
fn every_option_accepts_good_values_and_explains_bad_ones() {
    let _guard = shared();
    let mut engine = ready_engine();
    for good in [
        "setoption name Hash value 1",
        "setoption name hash value 8",
        "setoption name Threads value 2",
        "setoption name MoveOverhead value 0",
        "setoption name Move Overhead value 100",
        "setoption name UCI_Variant value impasse",
        "setoption name Ponder value true",
        "setoption name Clear Hash",
    ] {
        engine.send(good);
        engine.sync_quiet();
    }
    for (bad, needle) in [
        ("setoption name Hash value 0", "out of range"),
        ("setoption name Hash value 65537", "out of range"),
        ("setoption name Hash value big", "not a whole number"),
        ("setoption name Threads value 0", "out of range"),
        ("setoption name Threads value 1000", "out of range"),
        ("setoption name MoveOverhead value -1", "out of range"),
        ("setoption name MoveOverhead value 5001", "out of range"),
        ("setoption name UCI_Variant value chess", "unsupported variant"),
        ("setoption name Ponder value maybe", "not 'true' or 'false'"),
        ("setoption name Hash", "a value is required"),
        ("setoption name NoSuchOption value 1", "unknown option"),
        ("setoption", "expected 'name"),
        ("setoption name", "name is missing"),
    ] {
        engine.send(bad);
        let errors = engine.sync_errors();
        assert!(errors.len() == 1 && errors[0].contains(needle), "{bad}: {errors:?}");
    }
    // The options took effect: two threads and a small table still search correctly.
    engine.send("go depth 3");
    search_output(&mut engine, &position_after(SOME_MOVES));
    check_consistent(&mut engine);
    engine.finish();
}

#[test]
fn every_go_form_gets_exactly_one_legal_bestmove() {
    let _guard = shared();
    let mut engine = ready_engine();
    let pos = position_after(SOME_MOVES);
    for go in [
        "go depth 4",
        "go nodes 3000",
        "go movetime 60",
        "go wtime 2000 btime 2000 winc 20 binc 20",
        "go p1time 2000 p2time 2000 p1inc 20 p2inc 20",
        "go wtime 1000 btime 1000 movestogo 10",
        "go depth 3 movetime 10000 nodes 100000000",
        "go depth 0",
        "go wtime -100 btime -100",
    ] {
        engine.send(go);
        let (infos, _) = search_output(&mut engine, &pos);
        // Under a time limit on a busy machine the deadline may come before the search thread
        // has completed a depth: the answerer then gives its fallback move, with the fallback
        // search's own info line. Either way a GUI reads a score before the bestmove.
        assert!(
            infos.iter().any(|l| l.contains(" score ")),
            "{go}: a scored info line before bestmove: {infos:?}"
        );
        engine.sync_quiet();
    }
    // go depth N reports every depth from 1 to N.
    engine.send("go depth 4");
    let (infos, _) = search_output(&mut engine, &pos);
    let depths: Vec<&str> = infos.iter().map(|l| l.split(' ').nth(2).unwrap()).collect();
    assert_eq!(depths, ["1", "2", "3", "4"]);
    // infinite, ponder and a bare go end with stop.
    for go in ["go infinite", "go ponder", "go", "go ponder wtime 100 btime 100"] {
        engine.send(go);
        engine.none_within(Duration::from_millis(150), "bestmove before stop", |l| l.starts_with("bestmove"));
        engine.send("stop");
        search_output(&mut engine, &pos);
        engine.sync_quiet();
    }
    // Unknown go tokens are reported, the rest obeyed: searchmoves restricts the root.
    engine.send("go searchmoves f6h4 a7c5 depth 3 mate 3 sideways");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    assert_eq!(lines.iter().filter(|l| l.starts_with("info string")).count(), 1, "{lines:?}");
    let best = lines.last().unwrap().split(' ').nth(1).unwrap();
    assert!(["f6h4", "a7c5"].contains(&best), "{lines:?}");
    // Illegal searchmoves are left out with an error; with none left, every move is searched.
    engine.send("go depth 2 searchmoves f6e5 e1f2");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    assert!(lines.iter().any(|l| l.starts_with("info string error: go searchmoves: illegal move 'e1f2'")));
    assert_eq!(lines.last().unwrap().split(' ').nth(1), Some("f6e5"), "{lines:?}");
    engine.send("go depth 2 searchmoves e1f2");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l == "info string go searchmoves: no legal move given; every move is searched")
    );
    let best = lines.last().unwrap().split(' ').nth(1).unwrap();
    assert!(pos.parse_move(best).is_ok(), "{lines:?}");
    // Malformed values refuse the whole go: no search, no bestmove.
    for bad in ["go depth x", "go movetime", "go nodes -5", "go wtime 1.5", "go mate 0", "go mate -2"] {
        engine.send(bad);
        assert_eq!(engine.sync_errors().len(), 1, "{bad}");
    }
    check_consistent(&mut engine);
    engine.finish();
}

#[test]
fn the_clock_of_the_side_to_move_is_used() {
    let _guard = shared();
    let mut engine = ready_engine();
    // Black to move with 300 ms left against White's 100 s: a quick move. Were White's clock
    // used, the budget would be seconds.
    engine.send("position startpos moves d2e3");
    for go in ["go p1time 100000 p2time 300", "go wtime 100000 btime 300 winc 0 binc 0"] {
        let start = Instant::now();
        engine.send(go);
        search_output(&mut engine, &position_after("d2e3"));
        let elapsed = start.elapsed();
        assert!(elapsed < Duration::from_millis(2500), "{go}: took {elapsed:?}");
    }
    engine.finish();
}

/// Measures `go` (given) then `stop` after 200 ms: the time from sending `stop` to reading
/// `bestmove`.
fn stop_latency(engine: &mut Engine, go: &str) -> Duration {
    engine.send(go);
    engine.none_within(Duration::from_millis(200), "bestmove before stop", |l| l.starts_with("bestmove"));
    let sent = Instant::now();
    engine.send("stop");
    let (at, _) = engine.wait_for("bestmove", |l| l.starts_with("bestmove"));
    engine.sync_quiet();
    at.saturating_duration_since(sent)
}

#[test]
fn stop_ends_a_search_within_50_ms() {
    let _guard = exclusive();
    let mut engine = ready_engine();
    for go in ["go infinite", "go ponder", "go depth 100", "go movetime 100000"] {
        let mut tries = Vec::new();
        // Retried on a loaded machine; the bound itself is never loosened.
        while tries.len() < 5 {
            let latency = stop_latency(&mut engine, go);
            tries.push(latency);
            if latency < STOP_LATENCY {
                break;
            }
        }
        eprintln!("stop latency after '{go}': {tries:?}");
        assert!(tries.last().unwrap() < &STOP_LATENCY, "{go}: {tries:?}");
    }
    // With several threads too.
    engine.send("setoption name Threads value 2");
    let latency = (0..5).map(|_| stop_latency(&mut engine, "go infinite")).find(|l| *l < STOP_LATENCY);
    assert!(latency.is_some(), "two threads: stop never within {STOP_LATENCY:?}");
    check_consistent(&mut engine);
    engine.finish();
}

#[test]
fn ponderhit_turns_a_ponder_search_into_a_timed_one() {
    let _guard = shared();
    let mut engine = ready_engine();
    let pos = position_after(SOME_MOVES);
    // A ponder search that has finished its work still waits for ponderhit.
    engine.send("go ponder depth 2");
    engine.none_within(Duration::from_millis(300), "bestmove while pondering", |l| l.starts_with("bestmove"));
    let sent = Instant::now();
    engine.send("ponderhit");
    search_output(&mut engine, &pos);
    assert!(sent.elapsed() < Duration::from_secs(5));
    // The time limit applies only from ponderhit: movetime 300 (minus the 30 ms overhead).
    engine.send("go ponder movetime 300");
    engine.none_within(Duration::from_millis(600), "bestmove while pondering", |l| l.starts_with("bestmove"));
    let sent = Instant::now();
    engine.send("ponderhit");
    let (at, _) = engine.wait_for("bestmove", |l| l.starts_with("bestmove"));
    let thought = at.saturating_duration_since(sent);
    assert!(thought >= Duration::from_millis(200), "the budget starts at ponderhit: {thought:?}");
    // ponderhit and stop with no search are ignored quietly.
    engine.send("ponderhit");
    engine.send("stop");
    check_consistent(&mut engine);
    engine.finish();
}

/// Plays a whole game through `position startpos moves ...`, checking every query at every
/// ply against the rules; `go` is `go_command`.
fn play_checked_game(engine: &mut Engine, go_command: &str) -> Position {
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    let mut rng = Rng(7);
    loop {
        engine.send(format!("position startpos moves {}", moves.join(" ")).trim_end());
        assert_eq!(engine.query("fen"), pos.to_fen());
        assert_eq!(engine.query("gameover"), pos.is_game_over().to_string());
        assert_eq!(engine.query("p1turn"), (pos.side_to_move() == Color::White).to_string());
        let result = match pos.winner() {
            Some(Color::White) => "p1win",
            Some(Color::Black) => "p2win",
            None => "none",
        };
        assert_eq!(engine.query("result"), result);
        let legal = pos.legal_moves();
        if let Some(&mv) = legal.get(rng.below(legal.len().max(1))) {
            assert_eq!(engine.query(&format!("islegal {mv}")), "true");
        }
        assert_eq!(engine.query("islegal a1a1"), "false");
        if pos.is_game_over() {
            return pos;
        }
        engine.send(go_command);
        let (_, best) = search_output(engine, &pos);
        pos = pos.make_move(pos.parse_move(&best).unwrap());
        moves.push(best);
        assert!(moves.len() < 2000, "the game does not end");
    }
}

#[test]
fn a_whole_game_through_position_moves_with_queries_at_every_ply() {
    let _guard = shared();
    let mut engine = Engine::start(&[]);
    engine.send("ugi");
    engine.until("ugiok", |l| l == "ugiok");
    engine.send("uginewgame");
    let end = play_checked_game(&mut engine, "go nodes 400");
    assert!(end.is_game_over());
    // go on the finished game: no search, a bestmove that is not a move.
    engine.send("go depth 5");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    assert_eq!(lines, ["info string game over", "bestmove (none)"]);
    // Under `infinite` and `ponder` the answer waits for the GUI even here, as UCI requires ("do
    // not exit the search in ponder mode, even if it's mate").
    for go in ["go infinite", "go ponder"] {
        engine.send(go);
        engine.none_within(Duration::from_millis(100), "bestmove before stop", |l| l.starts_with("bestmove"));
        engine.send("stop");
        let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
        assert_eq!(lines.last().unwrap(), "bestmove (none)");
    }
    engine.send("go ponder");
    engine.send("ponderhit");
    assert_eq!(engine.until("bestmove", |l| l.starts_with("bestmove")).last().unwrap(), "bestmove (none)");
    engine.sync_quiet();
    engine.finish();
}

#[test]
fn a_generic_ugi_runner_sequence() {
    let _guard = shared();
    // The command sequence of the cutegames runner (its ugi.md example), lower-case option name.
    let mut engine = Engine::start(&[]);
    engine.send("ugi");
    engine.until("ugiok", |l| l == "ugiok");
    engine.send("setoption name hash value 16");
    engine.send("isready");
    assert_eq!(engine.until("readyok", |l| l == "readyok"), ["readyok"]);
    engine.send("uginewgame");
    engine.send("position startpos");
    assert_eq!(engine.query("p1turn"), "true");
    engine.send("go p1time 1000 p2time 1000 p1inc 10 p2inc 10");
    let (_, first) = search_output(&mut engine, &Position::startpos());
    engine.send(&format!("position startpos moves {first}"));
    assert_eq!(engine.query("p1turn"), "false");
    assert_eq!(engine.query("gameover"), "false");
    assert_eq!(engine.query("result"), "none");
    engine.send(&format!("position fen {START_FEN} moves {first}"));
    engine.send("go p1time 990 p2time 1000 p1inc 10 p2inc 10");
    search_output(&mut engine, &position_after(&first));
    engine.finish();
}

#[test]
fn a_scripted_gui_session() {
    let _guard = shared();
    // What a UCI GUI does for a game with pondering: handshake, options, new game, moves with
    // clocks, a ponder miss (stop) and a ponder hit.
    let mut engine = Engine::start(&[]);
    engine.send("uci");
    engine.until("uciok", |l| l == "uciok");
    engine.send("setoption name Hash value 16");
    engine.send("setoption name Ponder value true");
    engine.send("isready");
    engine.until("readyok", |l| l == "readyok");
    engine.send("ucinewgame");
    engine.send("position startpos");
    engine.send("go wtime 3000 btime 3000 winc 30 binc 30");
    let (_, w1) = search_output(&mut engine, &Position::startpos());
    let after_w1 = position_after(&w1);
    let reply = after_w1.legal_moves()[0].to_string();
    // Ponder on a reply that the opponent then does not play: stop, then the real position.
    engine.send(&format!("position startpos moves {w1} {reply}"));
    engine.send("go ponder wtime 2900 btime 2900 winc 30 binc 30");
    engine.none_within(Duration::from_millis(100), "bestmove while pondering", |l| l.starts_with("bestmove"));
    engine.send("stop");
    search_output(&mut engine, &position_after(&format!("{w1} {reply}")));
    let other = after_w1.legal_moves()[1].to_string();
    engine.send(&format!("position startpos moves {w1} {other}"));
    engine.send("go wtime 2900 btime 2800 winc 30 binc 30");
    let (_, w2) = search_output(&mut engine, &position_after(&format!("{w1} {other}")));
    // Ponder on a reply that is then played: ponderhit.
    let line = format!("{w1} {other} {w2}");
    let guess = position_after(&line).legal_moves()[0].to_string();
    engine.send(&format!("position startpos moves {line} {guess}"));
    engine.send("go ponder wtime 2800 btime 2700 winc 30 binc 30");
    engine.send("ponderhit");
    search_output(&mut engine, &position_after(&format!("{line} {guess}")));
    engine.sync_quiet();
    engine.finish();
}

#[test]
fn terminal_extensions_d_perft_bench_and_debug() {
    let _guard = shared();
    let mut engine = ready_engine();
    let pos = position_after(SOME_MOVES);
    engine.send("d");
    let lines = engine.sync();
    assert_eq!(lines.len(), 14, "{lines:?}");
    assert_eq!(lines[11], format!("Fen: {}", pos.to_fen()));
    assert_eq!(lines[12], "Side to move: black");
    assert!(lines[13].starts_with(&format!("Legal moves ({}): ", pos.legal_moves().len())));
    // perft from the start position: the reference counts of the rules contract.
    engine.send("position startpos");
    engine.send("perft 4");
    let lines = engine.until("perft summary", |l| l.starts_with("nodes "));
    assert_eq!(lines.len(), 23);
    assert!(lines[22].starts_with("nodes 193139 time "), "{}", lines[22]);
    let sum: u64 = lines[..22].iter().map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 193_139);
    // A long perft is stopped by stop.
    engine.send("perft 12");
    engine.send("stop");
    assert_eq!(engine.sync(), ["info string perft stopped"]);
    // bench: the same signature as `steere bench`.
    engine.send("bench 3");
    let lines = engine.until("bench summary", |l| l.starts_with("nodes "));
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_steere"))
        .args(["bench", "--depth", "3"])
        .output()
        .unwrap();
    let cli = String::from_utf8(cli.stdout).unwrap();
    let nodes = |summary: &str| summary.split(' ').nth(1).unwrap().to_string();
    assert_eq!(nodes(lines.last().unwrap()), nodes(cli.lines().last().unwrap()), "bench signature");
    // debug on adds info strings to a search.
    engine.send("debug on");
    engine.send("go depth 2");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    assert!(lines.iter().any(|l| l.starts_with("info string debug: ")), "{lines:?}");
    // ... and, right after the bestmove, where the move's time went, counted from reading `go`.
    let after = engine.sync();
    assert_eq!(after.len(), 1, "{after:?}");
    let steps = [
        "info string debug: timing go-read->thread ",
        " ms, ->search ",
        " ms, ->decided ",
        " ms, ->bestmove ",
    ];
    let mut rest = after[0].as_str();
    let mut times = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        rest = rest.strip_prefix(step).unwrap_or_else(|| panic!("step {i} of {:?}", after[0]));
        let end = rest.find(' ').unwrap_or(rest.len());
        times.push(rest[..end].parse::<f64>().unwrap());
        rest = &rest[end..];
    }
    assert_eq!(rest, " ms");
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "the steps are in order: {times:?}");
    engine.send("debug off");
    engine.send("go depth 2");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    assert!(!lines.iter().any(|l| l.starts_with("info string")), "{lines:?}");
    engine.finish();
}

/// Sends `pairs` (a `go` and the command that ends it) in one write, then `isready`: every
/// `go` must get exactly one `bestmove`, each legal by `is_legal`, and nothing may follow the
/// last one. This is what the answerer guarantees whoever answers (the search, the deadline,
/// `stop`), in whatever order the threads run.
fn pipelined_pairs_answer_once(engine: &mut Engine, pairs: &[[&str; 2]], is_legal: &dyn Fn(&str) -> bool) {
    let mut script = String::new();
    for [go, end] in pairs {
        script.push_str(&format!("{go}\n{end}\n"));
    }
    script.push_str("isready\n");
    engine.send_bytes(script.as_bytes());
    let lines = engine.until("readyok", |l| l == "readyok");
    let answers: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), pairs.len(), "one bestmove per go: {lines:?}");
    for answer in &answers {
        let mv = answer.split(' ').nth(1).unwrap_or("");
        assert!(is_legal(mv), "illegal {answer}");
    }
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string error")).collect();
    assert!(errors.is_empty(), "{errors:?}");
    engine.none_within(Duration::from_millis(200), "output after the last answer", |_| true);
}

#[test]
fn pipelined_go_and_stop_give_exactly_one_legal_bestmove_each() {
    let _guard = shared();
    let mut engine = ready_engine();
    let pos = position_after(SOME_MOVES);
    let pairs: Vec<[&str; 2]> = (0..60)
        .map(|i| match i % 5 {
            0 => ["go infinite", "stop"],
            1 => ["go movetime 1", "stop"],
            2 => ["go ponder movetime 1", "stop"],
            3 => ["go depth 3", "stop"],
            _ => ["go wtime 50 btime 50", "stop"],
        })
        .collect();
    pipelined_pairs_answer_once(&mut engine, &pairs, &|mv| pos.parse_move(mv).is_ok());
    engine.send("setoption name Threads value 2");
    pipelined_pairs_answer_once(&mut engine, &pairs[..20], &|mv| pos.parse_move(mv).is_ok());
    check_consistent(&mut engine);
    engine.finish();
}
