//! Game review over HTTP (`/api/review`): a Dipole record with a known blunder is reviewed by
//! the real engine at depth 6 and the blunder is marked; a review can be cancelled, replaced,
//! and is stopped with its game left (its engine process gone); a dice game and an unknown
//! engine are refused.

use super::limits::{children, eventually, state};
use super::*;
use steere::dipole::{Position, Variant};

/// A game of steere against itself (depth 5), as a record (`positions/review-dipole-blunder.pgn`), in which Black, to move after 73 moves with a
/// forced win (bear off `a1off1`), bears three checkers off `e1` instead (`e1off3`), after
/// which White wins by force and does: Black, in a lost position, moves his last checkers off.
/// 78 moves, 79 positions, White wins (with White to move in the last position).
const GAME: &str = include_str!("../../positions/review-dipole-blunder.pgn");

/// The position (its ply) the blunder leads to: the move from position 73.
const BLUNDER: usize = 74;

/// [`GAME`], a record of the match runner's format (the browser suite opens it too).
fn record() -> String {
    GAME.to_string()
}

/// Whether the side to move wins `pos` with best play, by the rules alone: a full-depth
/// minimax without evaluation, sharing nothing with the engine's search (Dipole has no draws
/// and every game ends; these endgames are a handful of bear-offs deep).
fn wins(pos: &Position) -> bool {
    match pos.winner() {
        Some(winner) => winner == pos.side_to_move(),
        None => pos.legal_moves().iter().any(|&mv| !wins(&pos.make_move(mv))),
    }
}

/// Opens [`GAME`] as a new game; returns its state.
fn open(gui: &Gui) -> Value {
    let (status, opened) = gui.post("/api/load", json!({"text": record()}));
    assert_eq!(status, 200, "{opened}");
    opened["game"].clone()
}

/// The game's review once it has stopped running (or after `limit`).
fn reviewed(gui: &Gui, id: u64, limit: Duration) -> Value {
    eventually(limit, || state(gui, id)["review"]["running"] == false);
    state(gui, id)["review"].clone()
}

#[test]
fn a_review_marks_the_blunder_that_throws_a_forced_win_away() {
    let gui = Gui::start(&[]);
    let game = open(&gui);
    let id = game["id"].as_u64().unwrap();
    let body = GAME.split("\n\n").nth(1).unwrap();
    let texts: Vec<&str> = body.split_whitespace().filter(|w| *w != "1-0").collect();
    assert_eq!(moves(&game), texts);

    // The rules' verdict, independent of the engine: Black wins position 73 by force, the
    // move played leaves White (to move) a forced win, and Black has lost position 77.
    let history = game["position"]["history"].as_array().unwrap();
    let position = |ply: usize| Position::from_fen(Variant::Dipole, history[ply].as_str().unwrap()).unwrap();
    assert!(wins(&position(BLUNDER - 1)), "Black wins position {}", BLUNDER - 1);
    assert!(wins(&position(BLUNDER)), "White wins after the blunder");
    assert!(!wins(&position(77)), "Black has lost position 77");
    assert_eq!(game["position"]["winner"], "white");

    let (status, started) = gui.post("/api/review", json!({"id": id, "engine": "steere", "depth": 6}));
    assert_eq!(status, 200, "{started}");
    let review = &started["review"];
    assert_eq!(
        (&review["engine"], &review["depth"], &review["movetime"]),
        (&json!("steere"), &json!(6), &Value::Null)
    );
    assert_eq!((&review["total"], &review["running"]), (&json!(79), &json!(true)), "{review}");
    // The game changes meanwhile: the review stays one of the moves it was started on.
    let (status, _) = gui.post("/api/truncate", json!({"id": id, "ply": 10}));
    assert_eq!(status, 200);

    let review = reviewed(&gui, id, Duration::from_secs(120));
    assert_eq!((&review["running"], &review["error"]), (&json!(false), &Value::Null), "{review}");
    assert_eq!((&review["done"], &review["total"]), (&json!(79), &json!(79)), "{review}");
    assert_eq!(review["moves"], json!(texts));
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 79);
    for (k, entry) in plies.iter().enumerate() {
        assert_eq!(entry["ply"], k, "{entry}");
        assert!(entry["score"].is_string(), "position {k}: {entry}");
    }
    let score = |ply: usize| plies[ply]["score"].as_str().unwrap().to_string();
    let mark = |ply: usize| plies[ply]["mark"].clone();
    // The start has no move to judge; the first move, in a balanced opening, is no blunder.
    assert_eq!((&plies[0]["loss"], &plies[0]["mark"]), (&Value::Null, &Value::Null));
    assert!(score(0).starts_with("cp ") && score(1).starts_with("cp "), "{} {}", score(0), score(1));
    assert_ne!(mark(1), "blunder", "{}", plies[1]);
    assert!(plies[1]["loss"].as_i64().unwrap() < 60, "{}", plies[1]);
    // The engine sees both forced wins, and the move between them is the blunder: a proven win
    // turned into a proven loss loses the most the scale counts (1000 to -1000).
    assert!(score(BLUNDER - 1).starts_with("mate ") && !score(BLUNDER - 1).contains('-'), "{}", score(73));
    assert!(score(BLUNDER).starts_with("mate ") && !score(BLUNDER).contains('-'), "{}", score(74));
    assert_eq!(plies[BLUNDER - 1]["best"], "a1off1", "{}", plies[73]);
    assert_eq!((mark(BLUNDER), &plies[BLUNDER]["loss"]), (json!("blunder"), &json!(2000)), "{}", plies[74]);
    // White's win kept, and Black's moves inside his proven loss, are not marked.
    for entry in &plies[BLUNDER + 1..] {
        assert_eq!(entry["mark"], Value::Null, "{entry}");
    }
    // The last position is over: scored from its result (White, to move, has won), not asked.
    assert_eq!((score(78), &plies[78]["best"]), ("mate 1".to_string(), &Value::Null));
    // The review's engine quits with the review.
    assert!(eventually(Duration::from_secs(10), || children(&gui) == 0), "{} engines", children(&gui));
}

#[test]
fn a_review_is_cancelled_replaced_stopped_with_its_game_and_refused_where_it_cannot_run() {
    let gui = Gui::start_with(&[], &["--idle-timeout", "2"]);
    let id = open(&gui)["id"].as_u64().unwrap();
    // 79 positions at 300 ms each take 24 s: cancelled after the first few.
    let (status, started) = gui.post("/api/review", json!({"id": id, "engine": "steere", "movetime": 300}));
    assert_eq!(status, 200, "{started}");
    assert_eq!((&started["review"]["depth"], &started["review"]["movetime"]), (&Value::Null, &json!(300)));
    assert!(eventually(Duration::from_secs(30), || state(&gui, id)["review"]["done"].as_u64() >= Some(2)));
    let (status, cancelled) = gui.post("/api/review", json!({"id": id}));
    assert_eq!(status, 200, "{cancelled}");
    assert_eq!(cancelled["review"]["running"], false, "{cancelled}");
    let done = cancelled["review"]["done"].as_u64().unwrap();
    assert!(done < 79, "{cancelled}");
    // It stays stopped, what was done is kept, and its engine quits.
    assert!(eventually(Duration::from_secs(10), || children(&gui) == 0), "{} engines", children(&gui));
    let review = state(&gui, id)["review"].clone();
    assert_eq!((&review["running"], review["done"].as_u64()), (&json!(false), Some(done)), "{review}");
    assert_eq!(review["plies"].as_array().unwrap().len() as u64, done);

    // A new review replaces a running one (one review per game): the new one runs to its end.
    gui.post("/api/review", json!({"id": id, "engine": "steere", "movetime": 300}));
    let (status, replaced) = gui.post("/api/review", json!({"id": id, "engine": "steere", "depth": 3}));
    assert_eq!(status, 200, "{replaced}");
    assert_eq!((&replaced["review"]["done"], &replaced["review"]["depth"]), (&json!(0), &json!(3)));
    let review = reviewed(&gui, id, Duration::from_secs(120));
    assert_eq!((&review["done"], &review["depth"], &review["error"]), (&json!(79), &json!(3), &Value::Null));
    assert!(eventually(Duration::from_secs(10), || children(&gui) == 0), "{} engines", children(&gui));

    // A game left (no page shows it for the idle timeout, 2 s) stops its review and its engine.
    gui.post("/api/review", json!({"id": id, "engine": "steere", "movetime": 300}));
    std::thread::sleep(Duration::from_secs(5));
    assert_eq!(children(&gui), 0, "the review's engine has quit");
    let review = state(&gui, id)["review"].clone();
    assert_eq!(review["running"], false, "{review}");
    assert!(review["error"].as_str().unwrap().contains("no page showed the game"), "{review}");

    // A dice game cannot be reviewed, nor can an unknown engine review.
    let human = json!({"player": "human"});
    let (_, dice) = gui
        .post("/api/new", json!({"variant": "cantstop", "seats": [human, human], "movetime": 30, "seed": 1}));
    let dice_id = dice["id"].as_u64().unwrap();
    let (status, refused) = gui.post("/api/review", json!({"id": dice_id, "engine": "steere"}));
    assert_eq!(status, 400, "{refused}");
    assert!(refused["error"].as_str().unwrap().contains("review is for board games"), "{refused}");
    let (status, refused) = gui.post("/api/review", json!({"id": id, "engine": "nobody", "depth": 4}));
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["error"], "no engine 'nobody' (one of: steere)", "{refused}");
    let (status, refused) = gui.post("/api/review", json!({"id": id, "engine": "steere", "depth": -1}));
    assert_eq!(status, 400, "{refused}");
    assert!(refused["error"].as_str().unwrap().starts_with("bad request body"), "{refused}");
    assert_eq!(gui.post("/api/review", json!({"id": 999, "engine": "steere"})).0, 400);
}
