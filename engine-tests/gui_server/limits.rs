//! The server's limits, over HTTP: clients that stall their uploads do not keep others from
//! being answered, an oversize body is refused at once, engine processes stop when their game
//! ends or is left (counted as the server's child processes in `/proc`), the games in progress
//! are capped, and a move's text is checked before it reaches an engine.

use super::*;

/// Sends `text` on a connection of its own and reads the whole answer, waiting at most 5 s
/// (generous: a hang check, not a speed test).
fn raw_exchange(gui: &Gui, text: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", gui.port)).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    stream.write_all(text.as_bytes()).unwrap();
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .unwrap_or_else(|e| panic!("no answer within 5 s ({e}) to {text:.60?}"));
    answer
}

/// The head of a `POST` to `path` from the page's origin, announcing `length` bytes of body.
fn post_head(gui: &Gui, path: &str, length: usize) -> String {
    let port = gui.port;
    format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n\
         Connection: close\r\nContent-Length: {length}\r\n\r\n"
    )
}

#[test]
fn stalled_uploads_do_not_starve_other_requests_and_oversize_bodies_are_refused() {
    let gui = Gui::start(&[]);
    // Four clients announce a megabyte of body, send one byte and stall.
    let stalled: Vec<TcpStream> = (0..4)
        .map(|_| {
            let mut stream = TcpStream::connect(("127.0.0.1", gui.port)).unwrap();
            let head = post_head(&gui, "/api/move", 1_000_000);
            stream.write_all(format!("{head}{{").as_bytes()).unwrap();
            stream
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300)); // the server has taken them up
    let port = gui.port;
    let page =
        raw_exchange(&gui, &format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"));
    assert!(page.starts_with("HTTP/1.1 200") && page.contains("<svg id=\"board\""), "{page:.200}");
    let (status, setup) = gui.get("/api/setup");
    assert_eq!(status, 200, "{setup}");

    // A body over the bound (1 MiB) is refused with 413 before it is read.
    let answer = raw_exchange(&gui, &format!("{}{{\"id\": 1", post_head(&gui, "/api/move", 2_000_000)));
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer:.300}");
    assert!(answer.contains("too large"), "{answer:.300}");
    // The server still plays.
    let (status, game) =
        gui.post("/api/new", json!({"variant": "impasse", "players": ["human", "human"], "movetime": 30}));
    assert_eq!(status, 200, "{game}");
    drop(stalled);
}

/// The server's live child processes (its engines), read from `/proc`.
pub(super) fn children(gui: &Gui) -> usize {
    let parent = gui.child.id().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else { return 0 };
    entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().to_string_lossy().bytes().all(|b| b.is_ascii_digit()))
        .filter(|entry| {
            // `PID (COMMAND) STATE PPID ...`: the command may hold blanks, so read after `)`.
            let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            after.split_whitespace().nth(1) == Some(parent.as_str())
        })
        .count()
}

/// The state of game `id` as it is now.
pub(super) fn state(gui: &Gui, id: u64) -> Value {
    serde_json::from_str(&gui.get(&format!("/api/game?id={id}")).1).unwrap()
}

/// Waits until `done` holds, for at most `limit`; false if it never did.
pub(super) fn eventually(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    done()
}

#[test]
fn engines_stop_when_their_games_end_or_are_left_and_games_in_progress_are_capped() {
    let gui = Gui::start_with(&[format!("fast={STEERE}")], &["--idle-timeout", "2", "--max-games", "3"]);
    // Two people against the engine, each answered once, and two engines playing each other.
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (_, game) =
            gui.post("/api/new", json!({"variant": "impasse", "players": ["human", "fast"], "movetime": 30}));
        let id = game["id"].as_u64().unwrap_or_else(|| panic!("{game}"));
        gui.post("/api/move", json!({"id": id, "move": "d2f4"}));
        assert_eq!(moves(&gui.settled(id)).len(), 2);
        ids.push(id);
    }
    // Slow enough that the engines' game is still going when the fourth is asked for: at 20 ms
    // a move, it was once over first on a loaded machine, and the fourth game was let in.
    let (_, game) =
        gui.post("/api/new", json!({"variant": "impasse", "players": ["fast", "fast"], "movetime": 300}));
    let watched = game["id"].as_u64().unwrap_or_else(|| panic!("{game}"));
    ids.push(watched);
    assert!(eventually(Duration::from_secs(20), || moves(&state(&gui, watched)).len() >= 2));
    assert!(children(&gui) >= 3, "{} engine processes", children(&gui));

    // Three games in progress, all shown: a fourth is refused with a reason.
    for id in &ids {
        let shown = state(&gui, *id);
        assert!(shown["position"]["result"].is_null(), "{shown}");
    }
    let (status, refused) =
        gui.post("/api/new", json!({"variant": "impasse", "players": ["human", "human"], "movetime": 30}));
    assert_eq!(status, 400, "{refused}");
    assert!(refused["error"].as_str().unwrap().contains("too many games in progress"), "{refused}");

    // Nobody asks for them any more: they are left and every engine stops.
    assert!(
        eventually(Duration::from_secs(20), || children(&gui) == 0),
        "{} engine processes",
        children(&gui)
    );
    // Left games do not count: a new game is accepted. Asked for again, a left game plays on.
    let (status, game) =
        gui.post("/api/new", json!({"variant": "impasse", "players": ["human", "human"], "movetime": 30}));
    assert_eq!(status, 200, "{game}");
    let back = gui.settled(ids[0]);
    let next = back["position"]["legal"][0].as_str().unwrap().to_string();
    let (status, after) = gui.post("/api/move", json!({"id": ids[0], "move": next}));
    assert_eq!(status, 200, "{after}");
    let answered = gui.settled(ids[0]);
    assert_eq!(moves(&answered).len(), 4, "the engine starts again: {answered}");
    assert!(answered["error"].is_null(), "{answered}");

    // A game the engine ends with its move (the only capture takes Black's last man): its
    // engine stops at once, though the game is still shown.
    let (_, game) = gui.post(
        "/api/new",
        json!({"variant": "hexdame", "fen": "W:Wc3:Bd4", "players": ["fast", "human"], "movetime": 30}),
    );
    let ended = game["id"].as_u64().unwrap_or_else(|| panic!("{game}"));
    let over = gui.settled(ended);
    assert!(over["position"]["result"].is_string(), "{over}");
    let gone = eventually(Duration::from_secs(10), || {
        gui.get(&format!("/api/game?id={ended}"));
        gui.get(&format!("/api/game?id={}", ids[0]));
        children(&gui) <= 1 // the engine of the game played on just now may still run
    });
    assert!(gone, "{} engine processes", children(&gui));
}

#[test]
fn move_text_is_trimmed_and_blanks_controls_or_overlong_text_refused() {
    let gui = Gui::start(&[format!("fast={STEERE}")]);
    let (_, game) =
        gui.post("/api/new", json!({"variant": "impasse", "players": ["human", "fast"], "movetime": 30}));
    let id = game["id"].as_u64().unwrap();
    // Blanks around a move are trimmed: the engine gets a well-formed `position` line.
    let (status, played) = gui.post("/api/move", json!({"id": id, "move": "\nd2f4 \r\n"}));
    assert_eq!(status, 200, "{played}");
    let answered = gui.settled(id);
    assert!(answered["error"].is_null(), "the engine was blamed: {answered}");
    assert_eq!(moves(&answered).len(), 2, "{answered}");
    assert_eq!(moves(&answered)[0], "d2f4");

    // Blanks or controls inside a move, or too long a text, are refused and change nothing.
    let long = "d2f4".repeat(100);
    for (text, needle) in [
        ("d2\nf4", "space or control"),
        ("d2 f4", "space or control"),
        ("d2f4\u{0}", "space or control"),
        ("d2\u{1b}f4", "space or control"),
        (long.as_str(), "too long"),
        (" \n ", "no move"),
    ] {
        let (status, error) = gui.post("/api/move", json!({"id": id, "move": text}));
        assert_eq!(status, 400, "{text:?}: {error}");
        let message = error["error"].as_str().unwrap();
        assert!(message.contains(needle) && !message.contains('\n'), "{text:?}: {message}");
        assert_eq!(moves(&gui.settled(id)), moves(&answered), "{text:?} changed the game");
    }

    // A dice game's events are checked alike.
    let human = json!({"player": "human"});
    let (_, dice) = gui
        .post("/api/new", json!({"variant": "cantstop", "seats": [human, human], "movetime": 30, "seed": 1}));
    let dice_id = dice["id"].as_u64().unwrap();
    let (status, error) = gui.post("/api/move", json!({"id": dice_id, "move": "ro\nll"}));
    assert_eq!(status, 400, "{error}");
    assert!(error["error"].as_str().unwrap().contains("space or control"), "{error}");
    let (status, rolled) = gui.post("/api/move", json!({"id": dice_id, "move": " roll\n"}));
    assert_eq!(status, 200, "{rolled}");
}
