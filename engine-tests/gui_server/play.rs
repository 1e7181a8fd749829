//! What a player does beside moving, at the HTTP level: engine seats at a strength level (the
//! `Skill Level` and `Seed` options reach the engine), resigning and agreeing a draw (with
//! their records, reopened), a take-back in a game of engines (one move, their play paused),
//! a clock flagged at 0, and an analysis of several lines stopped at once.

use super::*;

/// An engine command that logs every line it is sent to `log`, then passes it to steere.
fn logging_engine(dir: &Path, name: &str, log: &Path) -> String {
    let path = dir.join(format!("{name}.sh"));
    std::fs::write(&path, format!("#!/bin/sh\ntee -a {} | exec {STEERE}\n", log.display())).unwrap();
    format!("{name}=sh {}", path.display())
}

#[test]
fn engine_seats_play_at_their_level_and_a_bad_level_is_refused() {
    let dir = temp_dir("levels");
    let log = dir.join("sent.log");
    let _ = std::fs::remove_file(&log);
    let gui = Gui::start(&[logging_engine(&dir, "weak", &log)]);
    let (status, game) = gui.post(
        "/api/new",
        json!({"variant": "dipole", "players": ["human", "weak"], "levels": [null, 2], "movetime": 50}),
    );
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["levels"], json!([null, 2]), "the snapshot names each seat's level");
    let id = game["id"].as_u64().unwrap();
    let (_, after) = gui.post("/api/move", json!({"id": id, "move": "e1f2"}));
    assert_eq!(moves(&after).len(), 1);
    let replied = gui.settled(id);
    assert_eq!(moves(&replied).len(), 2, "the weakened engine answers: {replied}");
    let sent = std::fs::read_to_string(&log).unwrap();
    assert!(sent.contains("setoption name Skill Level value 2"), "{sent}");
    assert!(sent.contains("setoption name Seed value"), "a level's choices are seeded: {sent}");
    // Full strength (9) sends no level; levels outside 0..9 are refused.
    let (_, full) = gui.post(
        "/api/new",
        json!({"variant": "impasse", "players": ["weak", "human"], "levels": [9, null], "movetime": 50}),
    );
    assert_eq!(full["levels"], json!([null, null]), "{full}");
    let (status, refused) = gui.post(
        "/api/new",
        json!({"variant": "impasse", "players": ["weak", "human"], "levels": [12, null], "movetime": 50}),
    );
    assert_eq!(status, 400, "{refused}");
    assert!(refused["error"].as_str().unwrap().contains("level 12"), "{refused}");
    // The setup names every level's measured Elo, weakest first.
    let (_, setup) = gui.get("/api/setup");
    let setup: Value = serde_json::from_str(&setup).unwrap();
    let elos = setup["variants"][0]["levels"].as_array().unwrap();
    assert_eq!(elos.len(), 10, "{setup}");
    assert!(elos.windows(2).all(|w| w[0].as_i64() < w[1].as_i64()), "{elos:?}");
}

#[test]
fn a_resignation_ends_the_game_and_its_record_reopens_resigned() {
    let gui = Gui::start(&[format!("fast={STEERE}")]);
    let (_, game) =
        gui.post("/api/new", json!({"variant": "impasse", "players": ["human", "fast"], "movetime": 30}));
    let id = game["id"].as_u64().unwrap();
    gui.post("/api/move", json!({"id": id, "move": "d2f4"}));
    gui.settled(id);
    // The person resigns, whoever is to move.
    let (status, resigned) = gui.post("/api/resign", json!({"id": id}));
    assert_eq!(status, 200, "{resigned}");
    assert_eq!(resigned["position"]["winner"], "black", "{resigned}");
    assert_eq!(resigned["position"]["result"], "white resigns: black has won");
    assert_eq!(resigned["position"]["legal"], json!([]));
    let (status, _) = gui.post("/api/move", json!({"id": id, "move": "a1b2"}));
    assert_eq!(status, 400, "no move after the end");
    let (status, again) = gui.post("/api/resign", json!({"id": id}));
    assert_eq!(status, 400, "{again}");
    let (_, record) = gui.get(&format!("/api/record?id={id}"));
    assert!(
        record.contains("[Result \"0-1\"]") && record.contains("[Reason \"resignation: white resigned\"]"),
        "{record}"
    );
    // Each move carries the time its player took over it (the engine's is never 0.000s: it
    // is measured around the engine's whole answer).
    let times: Vec<f64> = record
        .split('{')
        .skip(1)
        .filter_map(|c| c.split(['}', ' ']).next()?.strip_suffix('s')?.parse().ok())
        .collect();
    assert!(times.len() == 2 && times[1] > 0.0, "{times:?} in {record}");
    let (status, opened) = gui.post("/api/load", json!({"text": record}));
    assert_eq!(status, 200, "{opened}");
    assert_eq!(opened["game"]["position"]["result"], "white resigns: black has won", "{opened}");
    let millis = (times[1] * 1000.0).round() as u64;
    assert_eq!(opened["game"]["moves"][1]["millis"].as_u64(), Some(millis), "the time read back: {opened}");
    // Engines alone cannot resign, and a draw is no ending of Impasse.
    let (_, engines) =
        gui.post("/api/new", json!({"variant": "impasse", "players": ["fast", "fast"], "movetime": 30}));
    let (status, _) = gui.post("/api/resign", json!({"id": engines["id"]}));
    assert_eq!(status, 400);
    let (_, people) =
        gui.post("/api/new", json!({"variant": "impasse", "players": ["human", "human"], "movetime": 30}));
    let (status, refused) = gui.post("/api/draw", json!({"id": people["id"]}));
    assert_eq!(status, 400, "{refused}");
    assert!(refused["error"].as_str().unwrap().contains("no draws"), "{refused}");
}

#[test]
fn hexdame_draws_are_agreed_between_people_and_by_the_engines_judgement() {
    let gui = Gui::start(&[format!("fast={STEERE}")]);
    // Between two people: an offer stands until answered; a move declines it.
    let (_, game) = gui.post(
        "/api/new",
        json!({"variant": "hexdame", "fen": "W:WKa1:BKi9", "players": ["human", "human"], "movetime": 30}),
    );
    let id = game["id"].as_u64().unwrap();
    let (_, offered) = gui.post("/api/draw", json!({"id": id}));
    assert_eq!(offered["draw_offer"], "white", "{offered}");
    let first = legal(&offered)[0].clone();
    let (_, moved) = gui.post("/api/move", json!({"id": id, "move": first}));
    assert_eq!(moved["draw_offer"], "white", "the offerer's own move keeps the offer");
    let reply = legal(&moved)[0].clone();
    let (_, declined) = gui.post("/api/move", json!({"id": id, "move": reply}));
    assert!(declined["draw_offer"].is_null(), "the other side's move declines it: {declined}");
    gui.post("/api/draw", json!({"id": id}));
    let (_, agreed) = gui.post("/api/draw", json!({"id": id, "accept": true}));
    assert_eq!(agreed["position"]["result"], "draw by agreement", "{agreed}");
    assert_eq!(agreed["position"]["draw"], "agreement");
    let (_, record) = gui.get(&format!("/api/record?id={id}"));
    assert!(record.contains("[Result \"1/2-1/2\"]") && record.contains("[Reason \"agreement"), "{record}");
    let (_, opened) = gui.post("/api/load", json!({"text": record}));
    assert_eq!(opened["game"]["position"]["result"], "draw by agreement", "{opened}");

    // Against an engine: a dead king ending is accepted at once.
    let (_, game) = gui.post(
        "/api/new",
        json!({"variant": "hexdame", "fen": "W:WKa1:BKi9", "players": ["human", "fast"], "movetime": 50}),
    );
    let id = game["id"].as_u64().unwrap();
    let (status, early) = gui.post("/api/draw", json!({"id": id}));
    assert_eq!(status, 400, "no judgement yet: {early}");
    let first = legal(&game)[0].clone();
    gui.post("/api/move", json!({"id": id, "move": first}));
    gui.settled(id);
    let (status, accepted) = gui.post("/api/draw", json!({"id": id}));
    assert_eq!(status, 200, "{accepted}");
    assert_eq!(accepted["position"]["result"], "draw by agreement");
    // Three kings against a man: the engine plays on.
    let (_, game) = gui.post(
        "/api/new",
        json!({"variant": "hexdame", "fen": "W:Wa1:BKe9,Kf9,Kg9", "players": ["human", "fast"], "movetime": 50}),
    );
    let id = game["id"].as_u64().unwrap();
    let first = legal(&game)[0].clone();
    gui.post("/api/move", json!({"id": id, "move": first}));
    let thought = gui.settled(id);
    let (status, refused) = gui.post("/api/draw", json!({"id": id}));
    assert_eq!(status, 400, "{refused} after {thought}");
    assert!(refused["error"].as_str().unwrap().contains("declines"), "{refused}");
}

#[test]
fn a_take_back_between_engines_takes_one_move_and_pauses_them() {
    let gui = Gui::start(&[format!("fast={STEERE}")]);
    let (_, game) =
        gui.post("/api/new", json!({"variant": "dipole", "players": ["fast", "fast"], "movetime": 20}));
    let id = game["id"].as_u64().unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while moves(&gui.settled(id)).len() < 6 {
        assert!(Instant::now() < deadline, "the engines did not play");
    }
    let (_, back) = gui.post("/api/takeback", json!({"id": id}));
    let kept = moves(&back).len();
    assert!(kept >= 5, "one move taken back, not the game: {back}");
    assert_eq!(back["paused"], true, "{back}");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(moves(&gui.settled(id)).len(), kept, "paused engines do not move");
    let (_, resumed) = gui.post("/api/resume", json!({"id": id}));
    assert_eq!(resumed["paused"], false);
    let deadline = Instant::now() + Duration::from_secs(20);
    while moves(&gui.settled(id)).len() <= kept {
        assert!(Instant::now() < deadline, "the engines did not play on");
    }
}

#[test]
fn a_flagged_clock_reads_zero() {
    let gui = Gui::start(&[format!("fast={STEERE}")]);
    let (_, game) = gui.post(
        "/api/new",
        json!({"variant": "dipole", "players": ["human", "human"], "movetime": 100, "clock": [400, 0]}),
    );
    let id = game["id"].as_u64().unwrap();
    std::thread::sleep(Duration::from_millis(600));
    let flagged = gui.settled(id);
    assert_eq!(flagged["time_loss"], "white", "{flagged}");
    assert_eq!(flagged["clocks"][0], 0, "the flag shows 0, not the time the turn began with: {flagged}");
    assert_eq!(flagged["clocks"][1], 400);
}

#[test]
fn an_analysis_shows_several_lines_and_stops_at_once() {
    let gui = Gui::start(&[format!("fast={STEERE}")]);
    let (_, game) =
        gui.post("/api/new", json!({"variant": "impasse", "players": ["human", "human"], "movetime": 30}));
    let id = game["id"].as_u64().unwrap();
    gui.post("/api/analyse", json!({"id": id, "engine": "fast", "ply": 0, "multipv": 3}));
    let deadline = Instant::now() + Duration::from_secs(20);
    let lines = loop {
        let (_, text) = gui.get(&format!("/api/game?id={id}"));
        let game: Value = serde_json::from_str(&text).unwrap();
        let lines = game["analysis"]["lines"].as_array().cloned().unwrap_or_default();
        if lines.len() == 3 && game["analysis"]["depth"].as_u64().unwrap_or(0) >= 3 {
            break lines;
        }
        assert!(Instant::now() < deadline, "no three lines: {game}");
        std::thread::sleep(Duration::from_millis(50));
    };
    let legal = legal(&game);
    let firsts: Vec<&str> = lines.iter().map(|l| l["pv"][0].as_str().unwrap()).collect();
    assert!(firsts.iter().all(|m| legal.iter().any(|l| l == m)), "{firsts:?}");
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{firsts:?}");
    let ranks: Vec<u64> = lines.iter().map(|l| l["multipv"].as_u64().unwrap()).collect();
    assert_eq!(ranks, [1, 2, 3]);
    let (_, before) = gui.get(&format!("/api/game?id={id}"));
    let version = serde_json::from_str::<Value>(&before).unwrap()["version"].as_u64().unwrap();
    let (_, stopped) = gui.post("/api/analyse", json!({"id": id}));
    assert!(stopped["analysis"].is_null(), "{stopped}");
    assert!(stopped["version"].as_u64().unwrap() > version, "a stop is a change the page is sent");
}
