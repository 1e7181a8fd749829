//! Can't Stop through the GUI's HTTP API: the server rolls the dice from the game's seed (the
//! same seed and decisions give the same dice), offers exactly the rules' decisions and refuses
//! anything else, plays engine seats over the protocol (fixed players, for speed) to the end
//! of a game, saves a record that opens again and rolls on as the game would have, and reports
//! an engine that cannot play.

use super::*;

/// The event tokens of a dice game.
fn events(game: &Value) -> Vec<String> {
    game["events"].as_array().unwrap().iter().map(|e| e["text"].as_str().unwrap().to_string()).collect()
}

fn decisions(game: &Value) -> Vec<String> {
    game["position"]["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap().to_string())
        .collect()
}

/// A new Can't Stop game: `seats` as (player, strategy), the engines' time and the seed.
fn new_game(gui: &Gui, seats: &[(&str, &str)], movetime: u64, seed: Option<u64>) -> (u16, Value) {
    let seats: Vec<Value> = seats.iter().map(|(p, s)| json!({"player": p, "strategy": s})).collect();
    gui.post("/api/new", json!({"variant": "cantstop", "seats": seats, "movetime": movetime, "seed": seed}))
}

/// Game `id` once its engines have played it to its end (within two minutes, without a fault).
fn played_out(gui: &Gui, id: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let game = gui.settled(id);
        assert!(game["error"].is_null(), "{game}");
        if game["position"]["winner"].is_u64() {
            return game;
        }
        assert!(Instant::now() < deadline, "the engines did not finish: {game}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Sends event `text` of game `id`; the answer must be accepted.
fn send(gui: &Gui, id: u64, text: &str) -> Value {
    let (status, game) = gui.post("/api/move", json!({"id": id, "move": text}));
    assert_eq!(status, 200, "{text}: {game}");
    game
}

/// The person's simple play: roll where the dice are due, take the first choice, and roll
/// again until `push` choices were made in the turn, then stop.
fn person_decision(game: &Value, push: usize) -> String {
    if game["position"]["next"] == "dice" {
        return "roll".to_string();
    }
    let decisions = decisions(game);
    if decisions[0] != "roll" {
        return decisions[0].clone();
    }
    let me = &game["position"]["to_move"];
    let chosen = game["events"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .take_while(|e| e["player"] == *me)
        .filter(|e| e["text"].as_str().unwrap().starts_with(|c: char| c.is_ascii_digit()))
        .count();
    if chosen >= push { "stop" } else { "roll" }.to_string()
}

#[test]
fn people_roll_choose_and_stop_and_nothing_else_is_accepted() {
    let gui = Gui::start(&[]);
    let (status, game) = new_game(&gui, &[("human", "search"), ("human", "search")], 100, Some(7));
    assert_eq!(status, 200, "{game}");
    let id = game["id"].as_u64().unwrap();
    assert_eq!((&game["family"], &game["seed"]), (&json!("dice"), &json!("7")));
    assert_eq!(game["position"]["fen"], "p2 00000000000/00000000000 - 1 r");
    assert_eq!((&game["position"]["next"], &game["position"]["to_move"]), (&json!("dice"), &json!(1)));
    // The dice are the server's: a roll of the player's own making is refused, and so is any
    // decision before the dice.
    for refused in ["r1546", "stop", "7", "nonsense"] {
        let (status, error) = gui.post("/api/move", json!({"id": id, "move": refused}));
        assert_eq!(status, 400, "{refused}: {error}");
        assert!(error["error"].as_str().unwrap().contains("send 'roll'"), "{error}");
    }
    let rolled = send(&gui, id, "roll");
    let roll = events(&rolled)[0].clone();
    assert!(roll.starts_with('r') && roll.len() == 5, "{rolled}");
    assert_eq!(rolled["events"][0]["roll"], true);
    // The decisions offered are the rules' choice set of these dice, each accepted alone.
    let choices = decisions(&rolled);
    let fen = rolled["position"]["fen"].as_str().unwrap().to_string();
    let pos = steere::cantstop::Position::parse_fen(&fen).unwrap();
    let rules: Vec<String> = pos.legal_events().iter().map(|e| e.to_string()).collect();
    assert_eq!(choices, rules, "{fen}");
    for refused in ["roll", "stop", "r1111", "2.12", "7.7.7"] {
        if choices.iter().any(|c| c == refused) {
            continue;
        }
        let (status, error) = gui.post("/api/move", json!({"id": id, "move": refused}));
        assert_eq!(status, 400, "{refused}: {error}");
    }
    assert_eq!(events(&gui.settled(id)), std::slice::from_ref(&roll), "refused events change nothing");
    let chosen = send(&gui, id, &choices[0]);
    assert_eq!(decisions(&chosen), ["roll", "stop"]);
    // Roll again: the decision and the dice at once.
    let again = send(&gui, id, "roll");
    let texts = events(&again);
    assert_eq!(texts.len(), 4, "{again}");
    assert_eq!(texts[2], "roll");
    assert!(texts[3].starts_with('r'));
    // Play on as a person would until player 1's turn ends, by a stop or a bust.
    let mut game = again;
    while game["position"]["to_move"] == 1 {
        let decision = person_decision(&game, 2);
        game = send(&gui, id, &decision);
    }
    let last = game["events"].as_array().unwrap().last().unwrap().clone();
    assert!(last["text"] == "stop" || last["bust"] == true, "{game}");
    assert_eq!(game["position"]["next"], "dice");
    // Board-game routes say why they do not apply.
    for route in ["/api/takeback", "/api/truncate", "/api/analyse"] {
        let (status, error) = gui.post(route, json!({"id": id, "ply": 1}));
        assert_eq!(status, 400, "{route}");
        assert!(error["error"].as_str().unwrap().contains("board games"), "{error}");
    }

    // The same seed and the same decisions: the same dice.
    let (_, twin) = new_game(&gui, &[("human", "search"), ("human", "search")], 100, Some(7));
    let twin_id = twin["id"].as_u64().unwrap();
    let target = events(&game);
    let mut twin = twin;
    while events(&twin).len() < target.len() {
        // The dice where they are due (a decision to roll again brings them by itself), else
        // the first game's decision.
        let next = events(&twin).len();
        let text = if twin["position"]["next"] == "dice" { "roll" } else { target[next].as_str() };
        twin = send(&gui, twin_id, text);
    }
    assert_eq!(events(&twin), target, "seed 7 rolls the same dice");
}

#[test]
fn games_are_set_up_with_two_to_four_seats_or_refused_with_a_reason() {
    let gui = Gui::start(&[]);
    let human = ("human", "search");
    let (status, four) = new_game(&gui, &[human, human, human, human], 100, None);
    assert_eq!(status, 200, "{four}");
    assert_eq!(four["position"]["fen"], "p4 00000000000/00000000000/00000000000/00000000000 - 1 r");
    let seed: u64 = four["seed"].as_str().unwrap().parse().unwrap();
    assert!(seed <= u64::from(u32::MAX), "a seed drawn from the clock");
    assert_eq!(four["seats"][3], json!({"player": "human", "strategy": null}));
    let fen = "p3 30000500003/00000500000/00000000000 7:13 1 s";
    let (status, set) = gui.post(
        "/api/new",
        json!({"variant": "cantstop", "fen": fen, "seats": [{"player": "human"}, {"player": "human"}, {"player": "human"}], "movetime": 100}),
    );
    assert_eq!(status, 200, "{set}");
    let id = set["id"].as_u64().unwrap();
    // Example 5 of the rules: the stop wins the game; nothing may follow.
    let won = send(&gui, id, "stop");
    assert_eq!((&won["position"]["winner"], &won["position"]["next"]), (&json!(1), &json!("over")));
    assert_eq!(won["position"]["result"], "player 1 has won");
    let (status, error) = gui.post("/api/move", json!({"id": id, "move": "roll"}));
    assert_eq!(status, 400);
    assert!(error["error"].as_str().unwrap().contains("the game is over"), "{error}");
    let (_, record) = gui.get(&format!("/api/record?id={id}"));
    assert!(record.contains("[Result \"p1win\"]") && record.trim_end().ends_with("stop\np1win"), "{record}");

    for (body, needle) in [
        (json!({"seats": [{"player": "human"}]}), "2 to 4 players, not 1"),
        (json!({"seats": vec![human_seat(); 5]}), "not 5"),
        (json!({"seats": [human_seat(), {"player": "stockfish"}]}), "unknown player 'stockfish'"),
        (
            json!({"seats": [human_seat(), {"player": "steere", "strategy": "clever"}]}),
            "unknown strategy 'clever'",
        ),
        (json!({"seats": [human_seat(), human_seat()], "seed": 1u64 << 40}), "seed"),
        (
            json!({"seats": [human_seat(), human_seat(), human_seat()], "fen": "p2 00000000000/00000000000 - 1 r"}),
            "2 players",
        ),
        (json!({"seats": [human_seat(), human_seat()], "fen": "p2 00000000000 - 1 r"}), "marker"),
        (json!({"players": ["human", "human"]}), "seats"),
    ] {
        let mut body = body;
        body["variant"] = json!("cantstop");
        body["movetime"] = json!(100);
        let (status, error) = gui.post("/api/new", body.clone());
        assert_eq!(status, 400, "{body}: {error}");
        let message = error["error"].as_str().unwrap();
        assert!(message.contains(needle), "{body}: {message}");
    }
}

fn human_seat() -> Value {
    json!({"player": "human"})
}

#[test]
fn engine_seats_play_over_the_protocol_to_the_end_and_the_record_opens_again() {
    let gui = Gui::start(&[format!("fast={STEERE}")]);
    // A person and three fixed players: every engine seat plays its turns.
    let seats = [("human", "search"), ("fast", "random"), ("fast", "greedy"), ("fast", "rule28")];
    let (status, game) = new_game(&gui, &seats, 10, Some(99));
    assert_eq!(status, 200, "{game}");
    let id = game["id"].as_u64().unwrap();
    let mut game = game;
    for _ in 0..3 {
        // Three rounds: the person's turn, then the engines' until his next.
        while game["position"]["to_move"] == 1 && game["position"]["winner"].is_null() {
            let decision = person_decision(&game, 1);
            game = send(&gui, id, &decision);
        }
        let (status, refused) = gui.post("/api/move", json!({"id": id, "move": "roll"}));
        assert!(status == 400 || refused["position"]["to_move"] == 1, "an engine's turn: {refused}");
        game = gui.settled(id);
        assert!(game["error"].is_null(), "{game}");
    }
    let players: std::collections::BTreeSet<u64> =
        game["events"].as_array().unwrap().iter().map(|e| e["player"].as_u64().unwrap()).collect();
    assert_eq!(players.len(), 4, "every seat played: {game}");

    // Two engines to the end: greedy against rule28 at 10 ms a decision.
    let (_, game) = new_game(&gui, &[("fast", "greedy"), ("fast", "rule28")], 10, Some(5));
    let id = game["id"].as_u64().unwrap();
    let game = played_out(&gui, id);
    let winner = game["position"]["winner"].as_u64().unwrap();
    let history = game["position"]["history"].as_array().unwrap();
    assert_eq!(history.len(), events(&game).len() + 1);
    // The rules agree: the events replay to the same end, won by the same player.
    let mut pos = steere::cantstop::Position::parse_fen(game["start"].as_str().unwrap()).unwrap();
    for text in events(&game) {
        pos = pos.play(pos.parse_event(&text).unwrap());
    }
    assert_eq!(
        (pos.fen().as_str(), pos.winner()),
        (game["position"]["fen"].as_str().unwrap(), Some(winner as usize - 1))
    );

    // Its record: seats, strategies, seed, result; opened again, the same game between people.
    let (status, record) = gui.get(&format!("/api/record?id={id}"));
    assert_eq!(status, 200);
    for needle in ["[Variant \"cantstop\"]", "[Player1 \"fast\"]", "[Strategy2 \"rule28\"]", "[Seed \"5\"]"] {
        assert!(record.contains(needle), "{needle}: {record}");
    }
    assert!(record.contains(&format!("[Result \"p{winner}win\"]")), "{record}");
    let (status, opened) = gui.post("/api/load", json!({"text": record}));
    assert_eq!(status, 200, "{opened}");
    assert_eq!(events(&opened["game"]), events(&game));
    assert_eq!(opened["game"]["position"]["winner"], winner);
    assert_eq!(opened["game"]["seats"][0]["player"], "human");
    // A record whose result the events do not give is refused.
    let lie = record.replace(&format!("p{winner}win"), "*");
    let (status, error) = gui.post("/api/load", json!({"text": lie}));
    assert_eq!(status, 400, "{error}");
    assert!(error["error"].as_str().unwrap().contains("events give"), "{error}");
}

#[test]
fn a_record_opened_again_rolls_on_as_the_game_would_have() {
    let gui = Gui::start(&[]);
    let people = [("human", "search"), ("human", "search")];
    let (_, game) = new_game(&gui, &people, 100, Some(31));
    let id = game["id"].as_u64().unwrap();
    let mut game = game;
    while events(&game).len() < 12 {
        let decision = person_decision(&game, 2);
        game = send(&gui, id, &decision);
    }
    let (_, record) = gui.get(&format!("/api/record?id={id}"));
    let (status, opened) = gui.post("/api/load", json!({"text": record}));
    assert_eq!(status, 200, "{opened}");
    let copy = opened["game"]["id"].as_u64().unwrap();
    assert_eq!((events(&opened["game"]), &opened["game"]["seed"]), (events(&game), &json!("31")));
    // The same decisions from here: the same dice in both.
    let mut a = game;
    for _ in 0..12 {
        let decision = person_decision(&a, 2);
        a = send(&gui, id, &decision);
        let b = send(&gui, copy, &decision);
        assert_eq!(events(&a), events(&b));
    }
}

#[test]
fn an_engine_that_cannot_play_a_dice_game_is_reported_and_the_game_waits() {
    let dir = temp_dir("dice-faults");
    // A board-game engine: it declares neither `UCI_Variant` nor `Players`, so it cannot take
    // a seat.
    let engines = [fake_engine(&dir, "boardonly", "echo 'bestmove a1a1'")];
    let gui = Gui::start(&engines);
    let (_, game) = new_game(&gui, &[("human", "search"), ("boardonly", "search")], 10, Some(3));
    let id = game["id"].as_u64().unwrap();
    let mut game = game;
    while game["position"]["to_move"] == 1 {
        let decision = if game["position"]["next"] == "dice" {
            "roll".to_string()
        } else {
            let d = decisions(&game);
            if d[0] == "roll" { "stop".to_string() } else { d[0].clone() }
        };
        game = send(&gui, id, &decision);
    }
    let game = gui.settled(id);
    let error = game["error"].as_str().unwrap_or_else(|| panic!("no error: {game}"));
    assert!(error.contains("boardonly could not start") && error.contains("no option"), "{error}");
    let before = events(&game);
    let (_, resumed) = gui.post("/api/resume", json!({"id": id}));
    assert!(resumed["error"].is_string() || gui.settled(id)["error"].is_string(), "still faulty");
    assert_eq!(events(&gui.settled(id)), before, "the game keeps its events");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_steere_match_dice_record_opens_with_its_dice() {
    let dir = temp_dir("dice-match");
    let file = dir.join("match.jsonl");
    let engine = |name: &str, strategy: &str| {
        [
            STEERE.to_string(),
            format!("name={name}"),
            format!("option.Strategy={strategy}"),
            "movetime=1000".into(),
        ]
    };
    let status = Command::new(STEERE)
        .args([
            "match",
            "--variant",
            "cantstop",
            "--games",
            "2",
            "--pgn",
            file.to_str().unwrap(),
            "--engine1",
        ])
        .args(engine("g", "greedy"))
        .arg("--engine2")
        .args(engine("r", "rule28"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(&file).unwrap();
    let records = steere::tools::matches::dice::record::parse_dice_records(&text).unwrap();
    let gui = Gui::start(&[]);
    let (status, opened) = gui.post("/api/load", json!({"text": text, "index": 1}));
    assert_eq!(status, 200, "{opened}");
    assert_eq!(opened["games"].as_array().unwrap().len(), 2);
    let record = &records[1];
    let game = &opened["game"];
    assert_eq!(events(game).join(" "), record.events);
    assert_eq!(game["seed"], u64::from_str_radix(&record.dice, 16).unwrap().to_string(), "the stream's seed");
    assert_eq!(game["position"]["winner"].as_u64().map(|w| format!("p{w}win")), Some(record.result.clone()));
    // The game cut after its first turn, in the GUI's own record with the stream's seed: it
    // rolls on with the stream's dice, the record's next roll.
    let all: Vec<&str> = record.events.split_whitespace().collect();
    let cut = all.iter().position(|e| *e == "stop").unwrap() + 1;
    let text = format!(
        "[Variant \"cantstop\"]\n[Seed \"{}\"]\n[FEN \"{}\"]\n\n{} *\n",
        game["seed"].as_str().unwrap(),
        record.start,
        all[..cut].join(" ")
    );
    let (status, cut_game) = gui.post("/api/load", json!({"text": text}));
    assert_eq!(status, 200, "{cut_game}");
    let rolled = send(&gui, cut_game["game"]["id"].as_u64().unwrap(), "roll");
    assert_eq!(events(&rolled)[cut], all[cut], "the stream's next roll");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Player 1's events in the turn under way, or in his last one (a game's events are its turns
/// in order, so his last run of events).
fn last_turn_of_player_one(game: &Value) -> usize {
    let events = game["events"].as_array().unwrap();
    events.iter().rev().skip_while(|e| e["player"] != 1).take_while(|e| e["player"] == 1).count()
}

#[test]
fn an_engine_turn_is_paced_and_skipping_plays_the_rest_of_it_at_once() {
    let gui = Gui::start(&[format!("fast={STEERE}")]);
    // An engine (a fixed player, which answers at once) opens, at 10 s a step.
    let seats = json!([{"player": "fast", "strategy": "rule28"}, {"player": "human"}]);
    let new = json!({"variant": "cantstop", "seats": seats, "movetime": 50, "pace": 10_000, "seed": 7});
    let (status, game) = gui.post("/api/new", new.clone());
    assert_eq!((status, &game["pace"]), (200, &json!(10_000)), "{game}");
    let id = game["id"].as_u64().unwrap();
    // Paced: the turn's first roll waits its pause, however fast the engine is.
    std::thread::sleep(Duration::from_millis(1500));
    let (_, paced) = gui.get(&format!("/api/game?id={id}"));
    let paced: Value = serde_json::from_str(&paced).unwrap();
    assert_eq!(events(&paced).len(), 0, "a step came before its pause: {paced}");

    // Skipped: the pause ends and the rest of the turn comes without pauses, well inside
    // one pace, until the person is to move.
    let (status, skipping) = gui.post("/api/skip", json!({"id": id}));
    assert_eq!((status, &skipping["skipping"]), (200, &json!(1)), "{skipping}");
    let asked = Instant::now();
    let game = loop {
        let game = gui.settled(id);
        if game["position"]["to_move"] == 2 || game["position"]["winner"].is_u64() {
            break game;
        }
        assert!(asked.elapsed() < Duration::from_secs(8), "the skipped turn did not end: {game}");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(last_turn_of_player_one(&game) >= 1, "{game}");
    assert!(game["skipping"].is_null(), "a skip lasts one turn: {game}");
    // A person's turn cannot be skipped, nor a board game's.
    let (status, refused) = gui.post("/api/skip", json!({"id": id}));
    assert_eq!(status, 400, "{refused}");
    assert!(refused["error"].as_str().unwrap().contains("person"), "{refused}");

    // The person's turn ends, and the engine's next turn is paced again.
    let mut game = game;
    while game["position"]["to_move"] == 2 && game["position"]["winner"].is_null() {
        game = send(&gui, id, &person_decision(&game, 1));
    }
    let before = events(&game).len();
    std::thread::sleep(Duration::from_millis(1500));
    let (_, later) = gui.get(&format!("/api/game?id={id}"));
    let later: Value = serde_json::from_str(&later).unwrap();
    assert_eq!(events(&later).len(), before, "the next turn was not paced: {later}");

    // Without a pace the engines play as fast as they answer.
    let mut fast = new;
    fast["pace"] = json!(0);
    fast["seats"] =
        json!([{"player": "fast", "strategy": "greedy"}, {"player": "fast", "strategy": "rule28"}]);
    let (_, game) = gui.post("/api/new", fast);
    let id = game["id"].as_u64().unwrap();
    let started = Instant::now();
    loop {
        let game = gui.settled(id);
        if game["position"]["winner"].is_u64() {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "no pause, yet no end: {game}");
        std::thread::sleep(Duration::from_millis(50));
    }
    let board = json!({"variant": "impasse", "players": ["human", "fast"], "movetime": 50});
    let (_, game) = gui.post("/api/new", board);
    let (status, refused) = gui.post("/api/skip", json!({"id": game["id"]}));
    assert_eq!(status, 400, "{refused}");
}

/// The rulebook's options chosen at the new game: checked for the seats (the contract offers
/// 4 columns to win to 3 players, not 5), sent to the engines, shown and kept in the record,
/// which opens again under them; the engines' game ends as the options' rules say.
#[test]
fn rule_options_are_played_recorded_and_reopened() {
    let gui = Gui::start(&[format!("fast={STEERE}")]);
    let three = [
        json!({"player": "fast", "strategy": "rule28"}),
        json!({"player": "fast", "strategy": "greedy"}),
        json!({"player": "fast", "strategy": "rule28"}),
    ];
    let new = |options: Value| {
        gui.post("/api/new", json!({"variant": "cantstop", "seats": three, "movetime": 30, "pace": 0, "seed": 3, "options": options}))
    };
    for (bad, says) in [
        (json!({"ColumnsToWin": "5"}), "5 columns to win is not offered for 3 players"),
        (json!({"ColumnsToWin": "9"}), "not a whole number from 3 to 5"),
        (json!({"Blocking": "on"}), "unknown option 'Blocking'"),
    ] {
        let (status, error) = new(bad.clone());
        assert_eq!(status, 400, "{bad}: {error}");
        assert!(error["error"].as_str().unwrap().contains(says), "{bad}: {error}");
    }
    let (status, game) = new(json!({"columnstowin": "4", "CantStopVariant": "mustroll"}));
    assert_eq!(status, 200, "{game}");
    assert_eq!(
        game["options"],
        json!({"ColumnsToWin": "4", "CantStopVariant": "mustroll"}),
        "canonical names"
    );
    let id = game["id"].as_u64().unwrap();
    let game = played_out(&gui, id);
    // The winner has won 4 columns: replayed by the rules under the same options.
    let options = steere::cantstop::Options::new(3, 4, steere::cantstop::Variant::MustRoll).unwrap();
    let mut pos =
        steere::cantstop::Position::parse_fen_with(game["start"].as_str().unwrap(), options).unwrap();
    for text in events(&game) {
        pos = pos.play(pos.parse_event(&text).unwrap());
    }
    let winner = game["position"]["winner"].as_u64().unwrap() as usize - 1;
    assert_eq!((pos.fen().as_str(), pos.winner()), (game["position"]["fen"].as_str().unwrap(), Some(winner)));
    assert_eq!(pos.won_columns(winner).count_ones(), 4, "{}", pos.fen());
    let (_, record) = gui.get(&format!("/api/record?id={id}"));
    for needle in ["[ColumnsToWin \"4\"]", "[CantStopVariant \"mustroll\"]"] {
        assert!(record.contains(needle), "{needle}: {record}");
    }
    let (status, opened) = gui.post("/api/load", json!({"text": record}));
    assert_eq!(status, 200, "{opened}");
    assert_eq!(opened["game"]["options"], game["options"]);
    assert_eq!(opened["game"]["position"]["winner"], game["position"]["winner"]);
    // Without ColumnsToWin the record is a game to 3: refused if its events go on past a
    // player's third column (they do unless the third and fourth came in one turn).
    let to_three = steere::cantstop::Options::new(3, 3, steere::cantstop::Variant::MustRoll).unwrap();
    let mut pos =
        steere::cantstop::Position::parse_fen_with(game["start"].as_str().unwrap(), to_three).unwrap();
    let texts = events(&game);
    let ends_early = texts.iter().enumerate().any(|(i, text)| {
        pos = pos.play(pos.parse_event(text).unwrap());
        pos.winner().is_some() && i + 1 < texts.len()
    });
    let base = record.replace("[ColumnsToWin \"4\"]\n", "");
    let (status, answer) = gui.post("/api/load", json!({"text": base}));
    assert_eq!(status, if ends_early { 400 } else { 200 }, "{answer}");
}
