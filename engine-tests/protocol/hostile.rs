//! Hostile input: unknown commands, malformed FENs, illegal moves, bad values, empty and 1 MB
//! lines, invalid UTF-8, commands during a search, random garbage, end of input and a closed
//! output. After each step the engine must answer `isready` and still be at `SOME_MOVES`.

use super::pipe::{ANSWER, Engine};
use super::{Rng, SOME_MOVES, check_consistent, position_after, ready_engine, search_output, shared};
use std::time::Duration;
use steere::impasse::START_FEN;

#[test]
fn hostile_input_leaves_the_engine_alive_and_consistent() {
    let _guard = shared();
    let mut engine = ready_engine();
    let errors = |engine: &mut Engine, line: &str, count: usize| {
        engine.send(line);
        let errors = engine.sync_errors();
        assert_eq!(errors.len(), count, "{line}: {errors:?}");
        check_consistent(engine);
        errors
    };
    // Unknown commands and tokens.
    errors(&mut engine, "foo", 1);
    errors(&mut engine, "xyzzy 42 plugh", 1);
    engine.send("joho isready");
    assert_eq!(
        engine.until("readyok", |l| l == "readyok"),
        ["info string unknown token 'joho' ignored", "readyok"]
    );
    // Malformed FENs and illegal moves leave the position unchanged.
    for (line, needle) in [
        ("position fen", "needs a FEN"),
        ("position fen 8/8/8 w", "ranks"),
        ("position fen 1W1b1W1b/b1W1b1W1/8/8/8/8/1B1w1B1w/w1B1w1B1 x", "side to move"),
        ("position fen 1W1b1W1b/b1W1b1W1/8/8/8/8/1B1w1B1w/w1B1w1B1", "field"),
        ("position fen W7/8/8/8/8/8/8/8 w", "light square"),
        ("position fen 8/8/8/8/8/8/8/8 w", "no checkers"),
        ("position fen 1z6/8/8/8/8/8/8/8 w", "unexpected character"),
        ("position startpos moves d2e3 d2e3", "move 2 'd2e3': illegal"),
        ("position startpos moves d2e3 e7f6 zz", "move 3 'zz': malformed"),
        ("position startpos moves a1a1a1a1", "malformed"),
        ("position startpos moves b8a7", "illegal"),
        ("position nowhere", "expected 'startpos' or 'fen'"),
        ("position", "expected 'startpos' or 'fen"),
    ] {
        let found = errors(&mut engine, line, 1);
        assert!(found[0].contains(needle), "{line}: {found:?}");
    }
    // Empty and blank lines are ignored silently; CR LF line ends are fine.
    engine.send("");
    engine.send("   \t ");
    engine.send_bytes(b"\r\n");
    check_consistent(&mut engine);
    engine.send_bytes(b"query p1turn\r\n");
    engine.wait_for("response", |l| l == "response false");
    // A 1 MB line, one of 1 MB of garbage, and one very long position command.
    engine.send(&"x".repeat(1 << 20));
    let found = engine.sync_errors();
    assert!(found[0].len() < 200, "messages do not echo the line");
    check_consistent(&mut engine);
    errors(&mut engine, &format!("position startpos moves {}", "d2e3 ".repeat(200_000)), 1);
    errors(&mut engine, &format!("go depth {}", "9".repeat(1 << 20)), 1);
    // Invalid UTF-8 and control characters.
    engine.send_bytes(b"\xff\xfe\xfd\n");
    engine.sync_errors();
    engine.send_bytes(b"\xc3\x28 isready\n");
    engine.wait_for("readyok", |l| l == "readyok");
    engine.send_bytes(b"go depth \x07\x1b[2J\n");
    let found = engine.sync_errors();
    assert!(!found[0].chars().any(|c| c.is_control()), "{found:?}");
    engine.send_bytes(b"\0\0\0\n");
    engine.sync_errors();
    check_consistent(&mut engine);
    // Queries that are not queries.
    errors(&mut engine, "query", 1);
    errors(&mut engine, "query weather", 1);
    errors(&mut engine, "query islegal", 1);
    assert_eq!(engine.query("islegal \u{1F600}"), "false");
    assert_eq!(engine.query("islegal d2e3d2e3d2e3"), "false");
    errors(&mut engine, "perft", 1);
    errors(&mut engine, "perft -3", 1);
    errors(&mut engine, "debug sideways", 1);
    engine.finish();
}

#[test]
fn commands_during_a_search_are_served_or_refused() {
    let _guard = shared();
    let mut engine = ready_engine();
    let pos = position_after(SOME_MOVES);
    engine.send("go infinite");
    // isready and queries are answered during the search.
    engine.send("isready");
    engine.wait_for("readyok", |l| l == "readyok");
    assert_eq!(engine.query("fen"), pos.to_fen());
    // Commands that need the searcher or the processor are refused with a reason.
    for line in [
        "go depth 3",
        "ucinewgame",
        "setoption name Hash value 2",
        "setoption name Clear Hash",
        "perft 3",
        "bench 1",
    ] {
        engine.send(line);
        let (_, message) = engine.wait_for("refusal", |l| l.starts_with("info string error:"));
        assert!(message.contains("a search is running"), "{line}: {message}");
    }
    // Options that do not touch the searcher, and a new position, are accepted.
    engine.send("setoption name MoveOverhead value 10");
    engine.send("position startpos");
    assert_eq!(engine.query("fen"), START_FEN);
    engine.send(&format!("position startpos moves {SOME_MOVES}"));
    engine.send("d");
    engine.wait_for("board", |l| l.starts_with("Legal moves"));
    // Exactly one bestmove, for the position searched.
    engine.send("stop");
    search_output(&mut engine, &pos);
    engine.none_within(Duration::from_millis(200), "a second bestmove", |l| l.starts_with("bestmove"));
    // A command right after stop waits for the search to wind down instead of being refused.
    engine.send("go infinite");
    engine.send("stop");
    engine.send("ucinewgame");
    engine.send("go depth 2");
    search_output(&mut engine, &pos);
    search_output(&mut engine, &pos);
    check_consistent(&mut engine);
    engine.finish();
}

#[test]
fn random_garbage_never_breaks_the_engine() {
    let _guard = shared();
    let mut engine = ready_engine();
    let words = [
        "uci",
        "debug",
        "on",
        "setoption",
        "name",
        "value",
        "Hash",
        "Threads",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "p2time",
        "ponder",
        "infinite",
        "stop",
        "ponderhit",
        "query",
        "fen",
        "islegal",
        "gameover",
        "d",
        "perft",
        "d2e3",
        "g7f6",
        "1",
        "2",
        "-1",
        "\u{fffd}",
        "8/8",
        "w",
        "b",
    ];
    let mut rng = Rng(2024);
    for _ in 0..300 {
        let line: Vec<&str> = (0..rng.below(8)).map(|_| words[rng.below(words.len())]).collect();
        let mut bytes = line.join(" ").into_bytes();
        if rng.below(4) == 0 {
            bytes = (0..rng.below(40)).map(|_| rng.below(256) as u8).filter(|&b| b != b'\n').collect();
        }
        bytes.push(b'\n');
        engine.send_bytes(&bytes);
        // Nothing may run unbounded: stop whatever the line started.
        engine.send("stop");
    }
    engine.send(&format!("position startpos moves {SOME_MOVES}"));
    let lines = engine.sync();
    // Every bestmove is a move of some position, or (none); nothing is a panic.
    assert!(lines.iter().all(|l| !l.contains("panicked")));
    check_consistent(&mut engine);
    engine.finish();
}

#[test]
fn quit_and_end_of_input_end_a_search_cleanly() {
    let _guard = shared();
    for ending in ["quit", "end of input", "end of input mid-line"] {
        let mut engine = ready_engine();
        engine.send("go infinite");
        engine.none_within(Duration::from_millis(100), "bestmove", |l| l.starts_with("bestmove"));
        match ending {
            "quit" => engine.send("quit"),
            "end of input" => engine.close_input(),
            _ => {
                engine.send_bytes(b"isre");
                engine.close_input();
            }
        }
        let status = engine.wait_exit(ANSWER);
        engine.check_exit(status);
        let rest = engine.rest();
        assert_eq!(rest.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "{ending}: {rest:?}");
    }
    // End of input with no search at all.
    let mut engine = Engine::start(&[]);
    engine.close_input();
    let status = engine.wait_exit(ANSWER);
    engine.check_exit(status);
}

#[test]
fn a_closed_output_ends_the_engine_quietly() {
    let _guard = shared();
    let mut engine = Engine::start_deaf(&[]);
    engine.send("uci");
    engine.send("go infinite");
    // The engine notices at its next write or within its idle poll, and exits without a panic.
    let status = engine.wait_exit(ANSWER);
    engine.check_exit(status);
}
