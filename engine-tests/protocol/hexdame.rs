//! HexDame over the protocol, with the draw by threefold repetition end to end: `query result`
//! and `query gameover` against the independent reference's game outcome (which keeps its own
//! count of positions), a forced repetition scored 0 by the search (`score cp 0`), a drawn game
//! answered with `bestmove (none)`, and moves after the draw refused.

use super::hexdame_reference as reference;
use super::pipe::Engine;
use super::shared;

/// Starts an engine playing HexDame.
fn hexdame_engine() -> Engine {
    let mut engine = Engine::start(&[]);
    engine.send("uci");
    engine.until("uciok", |l| l == "uciok");
    engine.send("setoption name UCI_Variant value hexdame");
    engine.sync_quiet();
    engine
}

/// The reference's verdict on a game, in `query result` words.
fn reference_result(start: &str, moves: &[&str]) -> &'static str {
    match reference::game_outcome(start, moves).unwrap() {
        reference::Outcome::Ongoing => "none",
        reference::Outcome::Win(reference::Color::White) => "p1win",
        reference::Outcome::Win(reference::Color::Black) => "p2win",
        reference::Outcome::DrawByRepetition => "draw",
    }
}

/// The rules' repetition example (docs/rules/hexdame.md, example 13).
const START: &str = "W:WKa1:BKi9";
const SHUTTLE: [&str; 8] = ["a1-a2", "i9-i8", "a2-a1", "i8-i9", "a1-a2", "i9-i8", "a2-a1", "i8-i9"];

#[test]
fn query_result_follows_the_threefold_repetition_at_every_ply() {
    let _guard = shared();
    let mut engine = hexdame_engine();
    for plies in 0..=SHUTTLE.len() {
        let moves = &SHUTTLE[..plies];
        engine.send(format!("position fen {START} moves {}", moves.join(" ")).trim_end());
        let expected = reference_result(START, moves);
        assert_eq!(engine.query("result"), expected, "after {plies} plies");
        assert_eq!(engine.query("gameover"), (expected != "none").to_string(), "after {plies} plies");
    }
    // The game is over: `go` answers at once without a move, and no move may follow.
    engine.send("go depth 4");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    assert_eq!(lines, ["info string game over: draw by threefold repetition", "bestmove (none)"]);
    engine.send(&format!("position fen {START} moves {} a1-a2", SHUTTLE.join(" ")));
    let errors = engine.sync_errors();
    assert!(
        errors.len() == 1 && errors[0].contains("the game is over (draw by threefold repetition)"),
        "{errors:?}"
    );
    assert_eq!(engine.query("result"), "draw", "the position is unchanged");
    engine.finish();
}

#[test]
fn a_forced_repetition_is_scored_as_a_draw() {
    let _guard = shared();
    let mut engine = hexdame_engine();
    // White's lone king against two: without history the search sees a lost position.
    let root = "W:WKa1:BKh8,Ki9";
    engine.send(&format!("position fen {root}"));
    engine.send("go depth 6");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    let last_info = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
    let score: i32 =
        last_info.split(" score cp ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(score < -100, "{last_info}");
    // The same position after a game in which a1-a2 leads to a position seen twice already:
    // a1-a2 now draws by repetition, the best White can do, and every iteration says so.
    let before = "B:WKa2:BKh8,Ki9";
    let moves = ["i9-i8", "a2-a1", "i8-i9", "a1-a2", "i9-i8", "a2-a1", "i8-i9"];
    let mut fen = before.to_string();
    for mv in moves {
        fen = reference::play(&fen, mv).unwrap();
    }
    assert_eq!(fen, root, "the game reaches the same root");
    let after_draw = reference::play(&fen, "a1-a2").unwrap();
    let mut with_it = moves.to_vec();
    with_it.push("a1-a2");
    assert_eq!(reference_result(before, &with_it), "draw", "a1-a2 is the third occurrence of {after_draw}");
    engine.send(&format!("position fen {before} moves {}", moves.join(" ")));
    assert_eq!(engine.query("result"), "none");
    engine.send("go depth 6");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove a1-a2", "{lines:?}");
    let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!infos.is_empty() && infos.iter().all(|l| l.contains(" score cp 0 ")), "{infos:?}");
    engine.finish();
}

/// R11: a game drawn by threefold repetition has no legal move anywhere: `query islegal`,
/// `d`, and a search under `infinite` or `ponder`, which answers `bestmove (none)` at `stop`
/// or `ponderhit`, as `position` (which refuses every move after the draw) says.
#[test]
fn a_drawn_game_has_no_legal_move_anywhere() {
    let _guard = shared();
    let mut engine = hexdame_engine();
    let moves = ["a1-a2", "i9-c3", "a2-a1", "c3-i9", "a1-a2", "i9-c3", "a2-a1", "c3-i9"];
    assert_eq!(reference_result(START, &moves), "draw");
    engine.send(&format!("position fen {START} moves {}", moves.join(" ")));
    assert_eq!(engine.query("result"), "draw");
    for mv in ["a1-b2", "a1-a2"] {
        assert_eq!(engine.query(&format!("islegal {mv}")), "false", "{mv}");
    }
    engine.send("d");
    let board = engine.sync();
    assert_eq!(board.last().map(String::as_str), Some("Legal moves (0): "), "{board:?}");
    assert!(board.contains(&"Game over: draw by threefold repetition".to_string()), "{board:?}");
    for (go, end) in [("go infinite", "stop"), ("go ponder", "ponderhit"), ("go ponder", "stop")] {
        engine.send(go);
        engine.none_within(std::time::Duration::from_millis(200), "bestmove before stop", |l| {
            l.starts_with("bestmove")
        });
        engine.send(end);
        let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
        assert_eq!(lines.last().unwrap(), "bestmove (none)", "{go}: {lines:?}");
        assert!(!lines.iter().any(|l| l.contains(" pv ")), "{go}: no move is legal: {lines:?}");
        engine.sync_quiet();
    }
    engine.finish();
}
