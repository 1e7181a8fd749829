//! The protocol with every variant: `UCI_Variant` switches the game, and Dipole is played over
//! the protocol with every move, position and query checked against the independent Dipole
//! reference generator (engine-tests/dipole_reference), not against the engine's own rules.

use super::common::Rng;
use super::dipole_reference::{self as reference, Variant};
use super::pipe::Engine;
use super::{SOME_MOVES, check_consistent, position_after, ready_engine, shared};
use steere::impasse::START_FEN;

/// Starts an engine and switches it to `variant`.
fn engine_playing(variant: Variant) -> Engine {
    let mut engine = Engine::start(&[]);
    engine.send("uci");
    engine.until("uciok", |l| l == "uciok");
    engine.send(&format!("setoption name UCI_Variant value {}", variant.name()));
    engine.sync_quiet();
    engine
}

/// Reads a search's output up to `bestmove` and checks that every PV and the move itself are
/// legal in `fen` according to the reference; returns the move.
fn checked_search(engine: &mut Engine, variant: Variant, fen: &str) -> String {
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    let (last, infos) = lines.split_last().unwrap();
    for info in infos.iter().filter(|l| !l.starts_with("info string")) {
        let Some((_, pv)) = info.split_once(" pv ") else { continue };
        let mut at = fen.to_string();
        for mv in pv.split(' ') {
            at = reference::play(variant, &at, mv).unwrap_or_else(|e| engine.fail(&format!("pv: {e}")));
        }
    }
    let words: Vec<&str> = last.split(' ').collect();
    if words.len() != 2 {
        engine.fail(&format!("bestmove line: {last}"));
    }
    words[1].to_string()
}

/// Plays a whole game of `variant` through `position startpos moves ...`, checking every query
/// at every ply against the reference. Returns the final FEN.
fn play_checked_game(engine: &mut Engine, variant: Variant, go: &str, seed: u64) -> String {
    let mut fen = variant.start_fen().to_string();
    let mut moves: Vec<String> = Vec::new();
    let mut rng = Rng(seed);
    loop {
        engine.send(format!("position startpos moves {}", moves.join(" ")).trim_end());
        let pos = reference::Position::from_fen(variant, &fen).unwrap();
        assert_eq!(engine.query("fen"), fen);
        assert_eq!(engine.query("gameover"), pos.is_finished().to_string());
        let white_to_move = fen.ends_with(" w");
        assert_eq!(engine.query("p1turn"), white_to_move.to_string());
        let result = match pos.winner() {
            Some(reference::Color::White) => "p1win",
            Some(reference::Color::Black) => "p2win",
            None => "none",
        };
        assert_eq!(engine.query("result"), result);
        let legal = reference::legal_moves(variant, &fen).unwrap();
        if let Some((mv, _)) = legal.get(rng.below(legal.len().max(1))) {
            assert_eq!(engine.query(&format!("islegal {mv}")), "true");
        }
        assert_eq!(engine.query("islegal a1a1"), "false");
        if pos.is_finished() {
            return fen;
        }
        engine.send(go);
        let best = checked_search(engine, variant, &fen);
        fen =
            reference::play(variant, &fen, &best).unwrap_or_else(|e| engine.fail(&format!("bestmove: {e}")));
        moves.push(best);
        assert!(moves.len() < 1000, "the game does not end");
    }
}

#[test]
fn whole_games_of_dipole_and_dipole10_over_the_protocol() {
    let _guard = shared();
    for (variant, go) in [(Variant::Dipole, "go nodes 3000"), (Variant::Dipole10, "go nodes 1500")] {
        let mut engine = engine_playing(variant);
        engine.send("ucinewgame");
        assert_eq!(engine.query("fen"), variant.start_fen(), "the variant's start position");
        let end = play_checked_game(&mut engine, variant, go, 5);
        assert!(reference::Position::from_fen(variant, &end).unwrap().is_finished());
        engine.send("go depth 3");
        let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
        assert_eq!(lines, ["info string game over", "bestmove (none)"]);
        engine.finish();
    }
}

#[test]
fn uci_variant_switches_the_game_and_resets_the_position() {
    let _guard = shared();
    let mut engine = ready_engine();
    // The same variant again is no change: the position stays.
    engine.send("setoption name UCI_Variant value impasse");
    check_consistent(&mut engine);
    // Another variant starts from its start position, with its own notation.
    engine.send("setoption name UCI_Variant value Dipole");
    engine.sync_quiet();
    assert_eq!(engine.query("fen"), Variant::Dipole.start_fen());
    engine.send("position startpos moves e1f2 d8c7");
    let after = ["e1f2", "d8c7"].iter().fold(Variant::Dipole.start_fen().to_string(), |fen, mv| {
        reference::play(Variant::Dipole, &fen, mv).unwrap()
    });
    assert_eq!(engine.query("fen"), after);
    assert_eq!(engine.query("islegal d2f4"), "false", "an Impasse move is not a Dipole move");
    // Impasse notation and FENs are errors now, and leave the position as it was.
    engine.send(&format!("position fen {START_FEN}"));
    assert_eq!(engine.sync_errors().len(), 1);
    assert_eq!(engine.query("fen"), after);
    // A bad variant is an error; a variant cannot change during a search.
    engine.send("setoption name UCI_Variant value chess");
    assert!(engine.sync_errors()[0].contains("supported: impasse, dipole, dipole10, hexdame, cantstop"));
    engine.send("go infinite");
    engine.send("setoption name UCI_Variant value impasse");
    let refused = engine.until("the refusal", |l| l.starts_with("info string error"));
    assert!(refused.last().unwrap().contains("a search is running"), "{refused:?}");
    engine.send("stop");
    let best = checked_search(&mut engine, Variant::Dipole, &after);
    assert!(reference::play(Variant::Dipole, &after, &best).is_ok());
    assert_eq!(engine.query("fen"), after);
    // `d`, `perft` and `bench` follow the variant.
    engine.send("d");
    let board = engine.until("the board", |l| l.starts_with("Legal moves"));
    assert!(board.iter().any(|l| l.contains("b11")), "Black's stack of 11 on the board: {board:?}");
    assert!(board.contains(&format!("Fen: {after}")), "{board:?}");
    engine.send("perft 3");
    let summary = engine.until("perft", |l| l.starts_with("nodes "));
    let position = reference::Position::from_fen(Variant::Dipole, &after).unwrap();
    let expected = reference::perft_position(&position, 3);
    assert!(summary.last().unwrap().starts_with(&format!("nodes {expected} ")), "{summary:?}");
    engine.send("bench 2");
    let bench = engine.until("bench", |l| l.starts_with("nodes "));
    assert!(bench.iter().any(|l| l.contains(&format!("fen {}", Variant::Dipole.start_fen()))), "{bench:?}");
    // Back to Impasse: its start position.
    engine.send("setoption name UCI_Variant value impasse");
    engine.sync_quiet();
    assert_eq!(engine.query("fen"), START_FEN);
    engine.send(&format!("position startpos moves {SOME_MOVES}"));
    assert_eq!(engine.query("fen"), position_after(SOME_MOVES).to_fen());
    engine.finish();
}
