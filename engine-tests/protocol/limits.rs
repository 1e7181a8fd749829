//! The protocol's limits in every game (docs/protocol.md, "Limits"): the deepest `perft`, the
//! largest table, `perft 0`, and how much of a bad token an error repeats.

use super::pipe::Engine;
use super::shared;

/// Every game the engine plays.
const VARIANTS: [&str; 5] = ["impasse", "dipole", "dipole10", "hexdame", "cantstop"];

/// Starts an engine playing `variant`.
fn engine_playing(variant: &str) -> Engine {
    let mut engine = Engine::start(&[]);
    engine.send("uci");
    engine.until("uciok", |l| l == "uciok");
    engine.send(&format!("setoption name UCI_Variant value {variant}"));
    engine.sync_quiet();
    engine
}

/// R3: `perft` deeper than 64 is refused in one line, in every game, instead of overflowing
/// the stack; `perft 64` itself (whose first descent reaches its leaves at once) runs until
/// `stop`.
#[test]
fn perft_deeper_than_the_maximum_is_refused_and_the_maximum_runs_until_stop() {
    let _guard = shared();
    for variant in VARIANTS {
        let mut engine = engine_playing(variant);
        let fen = engine.query("fen");
        for depth in ["3000", "65", "4294967295"] {
            engine.send(&format!("perft {depth}"));
            let errors = engine.sync_errors();
            assert!(
                errors.len() == 1 && errors[0].contains("at most 64"),
                "{variant} perft {depth}: {errors:?}"
            );
        }
        engine.send("perft 64");
        std::thread::sleep(std::time::Duration::from_millis(300));
        engine.send("stop");
        assert_eq!(engine.sync(), ["info string perft stopped"], "{variant}");
        assert_eq!(engine.query("fen"), fen, "{variant}");
        engine.finish();
    }
}

/// R15: `perft 0` counts the one empty sequence, in every game, as the command line does.
#[test]
fn perft_0_is_1_in_every_game() {
    let _guard = shared();
    for variant in VARIANTS {
        let mut engine = engine_playing(variant);
        engine.send("perft 0");
        let lines = engine.until("perft summary", |l| l.starts_with("nodes "));
        assert_eq!(lines.len(), 1, "{variant}: {lines:?}");
        assert!(lines[0].starts_with("nodes 1 time "), "{variant}: {lines:?}");
        engine.sync_quiet();
        engine.finish();
    }
}

/// R13: an error repeats at most 40 characters of a bad token (and escapes control
/// characters), whichever game and whichever command quotes it.
#[test]
fn errors_quote_bad_tokens_briefly_in_every_game() {
    let _guard = shared();
    let long = format!("{}\u{7}{}", "x".repeat(20), "y".repeat(1 << 20));
    for variant in VARIANTS {
        let mut engine = engine_playing(variant);
        let fen = engine.query("fen");
        for line in [
            format!("position startpos moves {long}"),
            format!("position fen {fen} moves {long}"),
            format!("position fen {long}"),
            format!("position fen {fen} {long}"),
            format!("position fen p2 {long}/00000000000 - 1 r"),
            format!("position fen p2 00000000000/00000000000 {long} 1 r"),
            format!("position fen p2 00000000000/00000000000 - 1 {long}"),
            format!("position fen p5 00000000000/00000000000 - {long} r"),
            format!("position fen W:W{long}:Bi9"),
            format!("position fen 8/8/8/8/8/8/8/{long} w"),
            format!("go depth 1 searchmoves {long}"),
            format!("setoption name Strategy value {long}"),
            format!("setoption name {long} value 1"),
            format!("query {long}"),
            format!("perft {long}"),
        ] {
            engine.send(&line);
            let mut lines = Vec::new();
            if line.starts_with("go ") {
                lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
            }
            lines.extend(engine.sync());
            for l in &lines {
                assert!(l.len() < 300, "{variant}: {} bytes: {}", l.len(), &l[..200.min(l.len())]);
                assert!(!l.contains('\u{7}'), "{variant}: a control character: {l}");
            }
            assert_eq!(engine.query("fen"), fen, "{variant}");
        }
        engine.finish();
    }
}

/// R9: a table beyond the memory is refused with the rule of the command line (one line naming
/// the size), and the engine keeps its table and searches on.
#[test]
fn a_table_beyond_the_memory_is_refused_and_the_engine_searches_on() {
    let _guard = shared();
    let mut engine = engine_playing("impasse");
    engine.send("setoption name Hash value 65536");
    let lines = engine.sync();
    if !lines.is_empty() {
        assert!(
            lines.len() == 1
                && lines[0].starts_with("info string error: setoption: Hash: cannot allocate 65536 MiB"),
            "{lines:?}"
        );
    }
    engine.send("setoption name Hash value 65537");
    let errors = engine.sync_errors();
    assert!(errors.len() == 1 && errors[0].contains("out of range 1..65536"), "{errors:?}");
    engine.send("go depth 2");
    engine.until("bestmove", |l| l.starts_with("bestmove "));
    engine.finish();
}
