//! `steere gui` at the HTTP level: the real binary serves its page and API on a free port,
//! refuses foreign hosts and origins, plays games against a real engine (every engine move
//! checked with the rules), and survives faulty engines (fake `#!/bin/sh` engines that crash,
//! hang, print garbage or an illegal move): the fault is reported and the game keeps its moves.
//! Can't Stop's games (dice rolled by the server, 2 to 4 seats, engine seats) have their own
//! file, `gui_server/cantstop.rs`; the server's limits (stalled and oversize requests, the
//! engines' lifetime, the cap on games, move text) theirs, `gui_server/limits.rs`; what a
//! player does beside moving (levels, resigning, draws agreed, take-backs between engines,
//! several analysis lines) `gui_server/play.rs`; the review of a game (`/api/review`)
//! `gui_server/review.rs`.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const STEERE: &str = env!("CARGO_BIN_EXE_steere");

/// A running `steere gui` and its port; killed when dropped.
struct Gui {
    child: Child,
    port: u16,
}

impl Gui {
    fn start(engines: &[String]) -> Gui {
        Gui::start_with(engines, &[])
    }

    /// A server with `engines` and the further options `options`.
    fn start_with(engines: &[String], options: &[&str]) -> Gui {
        let mut args = vec!["gui".to_string(), "--port".to_string(), "0".to_string()];
        args.extend(options.iter().map(|o| o.to_string()));
        for engine in engines {
            args.push("--engine".to_string());
            args.push(engine.clone());
        }
        let mut child =
            Command::new(STEERE).args(&args).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        // steere gui: open http://127.0.0.1:PORT/ (engines: ...)
        let port =
            line.split("127.0.0.1:").nth(1).and_then(|r| r.split('/').next()).and_then(|p| p.parse().ok());
        Gui { child, port: port.unwrap_or_else(|| panic!("no URL in {line:?}")) }
    }

    /// Sends one request and returns the status and the body.
    fn request(&self, method: &str, path: &str, headers: &[(&str, String)], body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        let mut text =
            format!("{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
        let host = ("Host", format!("127.0.0.1:{}", self.port));
        let own_host = headers.iter().any(|(key, _)| *key == "Host");
        for (key, value) in std::iter::once(&host).filter(|_| !own_host).chain(headers) {
            text.push_str(&format!("{key}: {value}\r\n"));
        }
        text.push_str("\r\n");
        text.push_str(body);
        stream.write_all(text.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
        // tiny_http sends a body over 32 KiB in chunks (a long dice game's state).
        let chunked = head.to_ascii_lowercase().contains("transfer-encoding: chunked");
        (status, if chunked { dechunk(body) } else { body.to_string() })
    }

    fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, &[], "")
    }

    /// A POST to the API from the page's own origin; returns the JSON answer.
    fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let origin = ("Origin", format!("http://127.0.0.1:{}", self.port));
        let (status, text) = self.request("POST", path, &[origin], &body.to_string());
        (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")))
    }

    /// The game's state once no engine thinks (or after 20 s).
    fn settled(&self, id: u64) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let (_, text) = self.get(&format!("/api/game?id={id}"));
            let game: Value = serde_json::from_str(&text).unwrap();
            if game["thinking"] == false || Instant::now() > deadline {
                return game;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The body of a chunked HTTP/1.1 answer: each chunk is its size in hex, a line end, the data
/// and a line end; a chunk of size 0 ends it.
fn dechunk(mut rest: &str) -> String {
    let mut body = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16).unwrap();
        if size == 0 {
            break;
        }
        body.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
    body
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("steere-gui-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A fake engine: a shell loop that does `on_go` for `go`.
fn fake_engine(dir: &Path, name: &str, on_go: &str) -> String {
    let path = dir.join(format!("{name}.sh"));
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo \"id name {name}\"; echo uciok ;;\n    \
         isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    format!("{name}=sh {}", path.display())
}

#[path = "gui_server/cantstop.rs"]
mod cantstop;
#[path = "gui_server/limits.rs"]
mod limits;
#[path = "gui_server/play.rs"]
mod play;
#[path = "gui_server/review.rs"]
mod review;

fn moves(game: &Value) -> Vec<String> {
    game["moves"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap().to_string()).collect()
}

#[test]
fn the_page_and_its_assets_are_served_and_foreign_origins_refused() {
    let gui = Gui::start(&[]);
    for (path, kind, needle) in [
        ("/", "text/html", "<svg id=\"board\""),
        ("/app.js", "text/javascript", "clickSquare"),
        ("/hexboard.js", "text/javascript", "drawHexBoard"),
        ("/cantstop.js", "text/javascript", "drawCantStop"),
        ("/style.css", "text/css", "#board"),
    ] {
        let mut stream = TcpStream::connect(("127.0.0.1", gui.port)).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost:{}\r\nConnection: close\r\n\r\n", gui.port)
            .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{path}: {answer:.200}");
        assert!(answer.to_ascii_lowercase().contains(&format!("content-type: {kind}")), "{path}");
        assert!(answer.contains(needle), "{path}");
    }
    let (status, setup) = gui.get("/api/setup");
    assert_eq!(status, 200);
    let setup: Value = serde_json::from_str(&setup).unwrap();
    assert_eq!(setup["engines"], json!(["steere"]));
    assert_eq!(setup["variants"].as_array().unwrap().len(), 5);
    let cantstop = &setup["variants"][4];
    assert_eq!(
        (&cantstop["name"], &cantstop["family"], &cantstop["players"]),
        (&json!("cantstop"), &json!("dice"), &json!([2, 4]))
    );
    assert_eq!(cantstop["strategies"], json!(["search", "rule28", "glenn", "greedy", "random"]));
    // DNS rebinding (a foreign Host) and cross-site requests (a foreign Origin) are refused.
    let (status, body) = gui.request("GET", "/api/setup", &[("Host", "evil.example".to_string())], "");
    assert_eq!(status, 403, "{body}");
    let new = json!({"variant": "impasse", "players": ["human", "human"], "movetime": 100});
    let evil = ("Origin", "http://evil.example".to_string());
    let (status, body) = gui.request("POST", "/api/new", &[evil], &new.to_string());
    assert_eq!(status, 403, "{body}");
    assert_eq!(gui.get("/nothing").0, 404);
}

#[test]
fn games_against_the_engine_follow_the_rules_and_survive_bad_requests() {
    let gui = Gui::start(&[format!("fast={STEERE}")]);
    for variant in ["impasse", "dipole"] {
        let (status, game) =
            gui.post("/api/new", json!({"variant": variant, "players": ["human", "fast"], "movetime": 30}));
        assert_eq!(status, 200, "{game}");
        let id = game["id"].as_u64().unwrap();
        let mut game = game;
        // Play the first legal move every time until the game ends; the engine answers each.
        for _ in 0..400 {
            if game["position"]["result"].is_string() {
                break;
            }
            let first = game["position"]["legal"][0].as_str().unwrap().to_string();
            let (status, after) = gui.post("/api/move", json!({"id": id, "move": first}));
            assert_eq!(status, 200, "{after}");
            game = gui.settled(id);
            assert!(game["error"].is_null(), "{game}");
        }
        assert!(game["position"]["result"].is_string(), "{variant}: the game ended: {game}");
        // Every move replays under the rules (the server's own view checks each one).
        let history = game["position"]["history"].as_array().unwrap();
        assert_eq!(history.len(), moves(&game).len() + 1);
        // Bad requests change nothing.
        let before = moves(&game);
        for body in
            [json!({"id": id, "move": "zz"}), json!({"id": 999, "move": "a1"}), json!({"nonsense": 1})]
        {
            let (status, error) = gui.post("/api/move", body);
            assert_eq!(status, 400, "{error}");
            assert!(error["error"].is_string());
        }
        assert_eq!(moves(&gui.settled(id)), before);
        // Take back returns to the person's turn.
        let (_, back) = gui.post("/api/takeback", json!({"id": id}));
        assert_eq!(back["position"]["to_move"], "white", "{back}");
        assert!(moves(&back).len() < before.len());
    }
    // Save the last game as a record and open it again: the same moves.
    let (_, list) =
        gui.post("/api/new", json!({"variant": "dipole", "players": ["human", "fast"], "movetime": 30}));
    let id = list["id"].as_u64().unwrap();
    gui.post("/api/move", json!({"id": id, "move": "e1f2"}));
    let settled = gui.settled(id);
    let played = moves(&settled);
    let (status, record) = gui.get(&format!("/api/record?id={id}"));
    assert_eq!(status, 200);
    assert!(record.contains("[Variant \"dipole\"]") && record.contains("[Result \"*\"]"), "{record}");
    let (status, opened) = gui.post("/api/load", json!({"text": record}));
    assert_eq!(status, 200, "{opened}");
    assert_eq!(moves(&opened["game"]), played);
    assert_eq!(opened["games"].as_array().unwrap().len(), 1);
    // The engine's depth and score are kept (an engine answering before its first depth on a
    // loaded machine gives none: then none is kept).
    assert_eq!(opened["game"]["moves"], settled["moves"], "the engine's score is kept");
    let (status, _) = gui.post("/api/load", json!({"text": "not a record"}));
    assert_eq!(status, 400);

    // A bad FEN is the parser's message, and no game is made.
    let (status, error) = gui.post(
        "/api/new",
        json!({"variant": "dipole", "fen": "9/9 w", "players": ["human", "human"], "movetime": 30}),
    );
    assert_eq!(status, 400);
    assert!(error["error"].as_str().unwrap().contains("rank"), "{error}");
}

#[test]
fn the_event_stream_pushes_every_change_as_it_happens() {
    let gui = Gui::start(&[format!("fast={STEERE}")]);
    let (_, game) =
        gui.post("/api/new", json!({"variant": "impasse", "players": ["human", "fast"], "movetime": 100}));
    let id = game["id"].as_u64().unwrap();
    let mut stream = TcpStream::connect(("127.0.0.1", gui.port)).unwrap();
    write!(stream, "GET /api/events?id={id} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n", gui.port).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut reader = BufReader::new(stream);
    let mut header = String::new();
    reader.read_line(&mut header).unwrap();
    assert!(header.starts_with("HTTP/1.1 200"), "{header}");
    // Reads events until one has `moves` moves; returns when it came.
    let mut until = |moves_wanted: usize| -> Instant {
        loop {
            let mut line = String::new();
            assert!(reader.read_line(&mut line).unwrap() > 0, "the stream ended");
            if let Some(data) = line.strip_prefix("data: ") {
                let game: Value = serde_json::from_str(data).unwrap();
                if game["moves"].as_array().unwrap().len() == moves_wanted {
                    return Instant::now();
                }
            }
        }
    };
    until(0);
    let sent = Instant::now();
    gui.post("/api/move", json!({"id": id, "move": "d2f4"}));
    until(1);
    let replied = until(2);
    // The engine's reply is pushed at once, not at the next heartbeat (1 s).
    assert!(replied.duration_since(sent) < Duration::from_millis(900), "{:?}", replied.duration_since(sent));
    // A stream for a game that does not exist is an error, not a hang.
    assert_eq!(gui.get("/api/events?id=999").0, 400);
}

#[test]
fn clocks_run_for_people_and_engines_and_flag_a_loss_on_time() {
    let gui = Gui::start(&[format!("fast={STEERE}")]);
    // A person with 300 ms who does not move loses on time, and can no longer move.
    let (_, game) = gui.post(
        "/api/new",
        json!({"variant": "impasse", "players": ["human", "human"], "movetime": 100, "clock": [300, 0]}),
    );
    let id = game["id"].as_u64().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let flagged = gui.settled(id);
    assert_eq!(flagged["time_loss"], "white", "{flagged}");
    let (status, refused) = gui.post("/api/move", json!({"id": id, "move": "d2f4"}));
    assert_eq!(status, 400, "{refused}");
    let (_, record) = gui.get(&format!("/api/record?id={id}"));
    assert!(
        record.contains("[Result \"0-1\"]") && record.contains("time forfeit: white: lost on time"),
        "{record}"
    );
    // An engine gets both clocks with `go wtime ... btime ...` and answers within its time.
    let (_, game) = gui.post(
        "/api/new",
        json!({"variant": "dipole", "players": ["human", "fast"], "movetime": 100, "clock": [4000, 200]}),
    );
    let id = game["id"].as_u64().unwrap();
    gui.post("/api/move", json!({"id": id, "move": "e1f2"}));
    let replied = gui.settled(id);
    assert_eq!(moves(&replied).len(), 2, "{replied}");
    assert!(replied["time_loss"].is_null());
    let clocks = replied["clocks"].as_array().unwrap();
    assert!(clocks.iter().all(|c| c.as_i64().unwrap() > 0 && c.as_i64().unwrap() <= 4200), "{clocks:?}");
}

#[test]
fn faulty_engines_are_reported_and_the_game_keeps_its_moves() {
    let dir = temp_dir("faults");
    let engines = [
        fake_engine(&dir, "crasher", "exit 1"),
        fake_engine(&dir, "sleeper", "sleep 60"),
        fake_engine(&dir, "babbler", "echo 'bestmove !!garbage!!'"),
        fake_engine(&dir, "cheater", "echo 'bestmove a1a1'"),
    ];
    let gui = Gui::start(&engines);
    for (name, needle) in
        [("crasher", "crashed"), ("sleeper", "no move"), ("babbler", "illegal"), ("cheater", "illegal")]
    {
        let (status, game) =
            gui.post("/api/new", json!({"variant": "impasse", "players": ["human", name], "movetime": 50}));
        assert_eq!(status, 200, "{game}");
        let id = game["id"].as_u64().unwrap();
        gui.post("/api/move", json!({"id": id, "move": "d2f4"}));
        let game = gui.settled(id);
        let error = game["error"].as_str().unwrap_or_else(|| panic!("{name}: no error in {game}"));
        assert!(error.contains(needle), "{name}: {error}");
        assert_eq!(moves(&game), ["d2f4"], "{name}: the game keeps its moves");
        assert_eq!(game["position"]["to_move"], "black");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The legal moves of a game's position.
fn legal(game: &Value) -> Vec<String> {
    game["position"]["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect()
}

#[test]
fn hexdame_is_played_with_compulsory_captures_and_drawn_by_repetition() {
    let gui = Gui::start(&[format!("fast={STEERE}")]);
    // The start: 15 moves (docs/rules/hexdame.md, example 1); after d4-e5 Black must capture.
    let (status, game) =
        gui.post("/api/new", json!({"variant": "hexdame", "players": ["human", "human"], "movetime": 30}));
    assert_eq!(status, 200, "{game}");
    let id = game["id"].as_u64().unwrap();
    assert!(game["start"].as_str().unwrap().starts_with("W:Wa1,a2,a3,a4,b1"), "{game}");
    assert_eq!(legal(&game).len(), 15);
    assert!(legal(&game).contains(&"d4-e5".to_string()));
    let (_, after) = gui.post("/api/move", json!({"id": id, "move": "d4-e5"}));
    assert_eq!(legal(&after), ["f6xd4"], "the capture is compulsory");
    let (status, refused) = gui.post("/api/move", json!({"id": id, "move": "f7-e7"}));
    assert_eq!(status, 400, "a quiet move while a capture exists: {refused}");
    let (status, captured) = gui.post("/api/move", json!({"id": id, "move": "f6xd4"}));
    assert_eq!(status, 200, "{captured}");
    assert_eq!(moves(&captured), ["d4-e5", "f6xd4"]);
    assert_eq!(captured["position"]["to_move"], "white");

    // A two-piece capture from a set position, answered by the engine (example 3 of the rules).
    let (_, game) = gui.post(
        "/api/new",
        json!({"variant": "hexdame", "fen": "W:Wc3:Bd4,f5,i9", "players": ["human", "fast"], "movetime": 30}),
    );
    let id = game["id"].as_u64().unwrap();
    assert_eq!(legal(&game), ["c3xe5xg5"]);
    let (status, _) = gui.post("/api/move", json!({"id": id, "move": "c3xg5"}));
    assert_eq!(status, 400, "a path with a landing cell left out");
    gui.post("/api/move", json!({"id": id, "move": "c3xe5xg5"}));
    let replied = gui.settled(id);
    assert_eq!(moves(&replied).len(), 2, "the engine answers: {replied}");
    assert!(replied["error"].is_null(), "{replied}");

    // Threefold repetition (example 13): drawn after ply 8, not 7; nothing more is played.
    let (_, game) = gui.post(
        "/api/new",
        json!({"variant": "hexdame", "fen": "W:WKa1:BKi9", "players": ["human", "human"], "movetime": 30}),
    );
    let id = game["id"].as_u64().unwrap();
    let shuffle = ["a1-a2", "i9-i8", "a2-a1", "i8-i9", "a1-a2", "i9-i8", "a2-a1", "i8-i9"];
    let mut game = game;
    for (ply, text) in shuffle.iter().enumerate() {
        assert!(game["position"]["result"].is_null(), "drawn before ply {}: {game}", ply + 1);
        let (status, after) = gui.post("/api/move", json!({"id": id, "move": text}));
        assert_eq!(status, 200, "{after}");
        game = after;
    }
    let position = &game["position"];
    assert_eq!(position["result"], "draw by threefold repetition", "{game}");
    assert_eq!((&position["winner"], &position["draw"]), (&Value::Null, &json!("repetition")));
    assert!(legal(&game).is_empty());
    let (status, refused) = gui.post("/api/move", json!({"id": id, "move": "a1-a2"}));
    assert_eq!(status, 400);
    assert!(refused["error"].as_str().unwrap().contains("over"), "{refused}");

    // Its record says 1/2-1/2 by repetition, replays under the record's own check, and opens
    // again as the same drawn game.
    let (status, record) = gui.get(&format!("/api/record?id={id}"));
    assert_eq!(status, 200);
    assert!(record.contains("[Result \"1/2-1/2\"]"), "{record}");
    assert!(record.contains("[Reason \"repetition: W:WKa1:BKi9 occurred for the third time\"]"), "{record}");
    assert!(record.trim_end().ends_with("1/2-1/2"), "{record}");
    let games = steere::tools::matches::record::parse_records(&record).unwrap();
    assert_eq!(games[0].moves, shuffle);
    assert_eq!(games[0].replay().unwrap().winner, None);
    let (status, opened) = gui.post("/api/load", json!({"text": record}));
    assert_eq!(status, 200, "{opened}");
    assert_eq!(moves(&opened["game"]), shuffle);
    assert_eq!(opened["game"]["position"]["draw"], "repetition");
    assert!(opened["game"]["games"].is_null() && opened["games"][0].as_str().unwrap().contains("1/2-1/2"));
}

#[test]
fn hexdame_engines_stop_at_a_draw_and_the_draw_cap_ends_their_games() {
    let gui = Gui::start(&[format!("fast={STEERE}")]);
    // Two lone kings: neither engine can win, so the game ends by repetition or by the cap (50
    // reversible plies in a row), at most a few seconds at 10 ms a move.
    let (_, game) = gui.post(
        "/api/new",
        json!({"variant": "hexdame", "fen": "W:WKa1:BKi9", "players": ["fast", "fast"], "movetime": 10}),
    );
    let id = game["id"].as_u64().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let game = loop {
        let game = gui.settled(id);
        if game["position"]["result"].is_string() {
            break game;
        }
        assert!(game["error"].is_null(), "{game}");
        assert!(Instant::now() < deadline, "the engines did not draw: {game}");
        std::thread::sleep(Duration::from_millis(50));
    };
    let draw = game["position"]["draw"].as_str().unwrap_or_else(|| panic!("not a draw: {game}"));
    assert!(["repetition", "draw cap"].contains(&draw), "{game}");
    assert!(moves(&game).len() <= 50, "{game}");
    // No engine is asked for a move any more.
    std::thread::sleep(Duration::from_millis(300));
    let later = gui.settled(id);
    assert_eq!((moves(&later), &later["thinking"]), (moves(&game), &json!(false)));
    let (_, record) = gui.get(&format!("/api/record?id={id}"));
    assert!(
        record.contains("[Result \"1/2-1/2\"]") && record.contains(&format!("[Reason \"{draw}: ")),
        "{record}"
    );
    let games = steere::tools::matches::record::parse_records(&record).unwrap();
    games[0].replay().unwrap_or_else(|e| panic!("{e}: {record}"));
    // Opened again (between two people, without a cap) it is still the same draw.
    let (status, opened) = gui.post("/api/load", json!({"text": record}));
    assert_eq!(status, 200, "{opened}");
    assert_eq!(opened["game"]["position"]["draw"], draw, "{opened}");
    assert!(opened["game"]["position"]["legal"].as_array().unwrap().is_empty());
    // "Play from here" before the end drops the adjudication with the moves.
    let reopened = opened["game"]["id"].as_u64().unwrap();
    let (_, earlier) = gui.post("/api/truncate", json!({"id": reopened, "ply": 2}));
    assert!(earlier["position"]["result"].is_null(), "{earlier}");

    // With a person in the game the cap does not apply: 52 reversible plies in a row, no
    // position three times, and the game goes on (only repetition could draw it).
    let (_, game) = gui.post(
        "/api/new",
        json!({"variant": "hexdame", "fen": "W:WKa1:BKi9", "players": ["human", "human"], "movetime": 10}),
    );
    let id = game["id"].as_u64().unwrap();
    let mut game = game;
    for text in wandering_kings(52) {
        let (status, after) = gui.post("/api/move", json!({"id": id, "move": text}));
        assert_eq!(status, 200, "{after}");
        game = after;
    }
    assert!(game["position"]["result"].is_null(), "no cap between people: {game}");
}

/// `plies` moves of the two kings of `W:WKa1:BKi9` that never bring a position back nor offer
/// a capture.
fn wandering_kings(plies: usize) -> Vec<String> {
    use steere::game::GameHistory;
    let mut history = GameHistory::new(steere::hexdame::Position::from_fen("W:WKa1:BKi9").unwrap());
    let mut texts = Vec::new();
    while texts.len() < plies {
        let moves = history.current().legal_moves();
        let mv = *moves
            .as_ref()
            .iter()
            .find(|&&mv| {
                // A fresh position in which the other king has nothing to capture.
                let mut next = history.clone();
                next.play(mv);
                let replies = next.current().legal_moves();
                let quiet = replies.as_ref().iter().all(|reply| !reply.is_capture());
                next.occurrences() == 1 && quiet && !replies.as_ref().is_empty()
            })
            .expect("a fresh position");
        texts.push(mv.to_string());
        history.play(mv);
    }
    texts
}
