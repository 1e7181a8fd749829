//! `steere match` for dice games (Can't Stop) end to end: real matches of 2 and 4 players
//! between the built-in fixed players, duplicate play on shared dice, faulty engines, the turn
//! limit and refused arguments.
//!
//! Every game record is refereed again by the independent reference of the rules
//! (`engine-tests/cantstop_reference`, written from the contract alone), with the dice
//! recomputed here from the record's stream seed (SplitMix64, then the four base-6 digits of
//! `value mod 1296`), so that the expected events and results do not come from the runner.
//! Fake engines are tiny `sh` loops, as in `engine-tests/matches.rs`.

#[path = "cantstop_reference/mod.rs"]
mod cantstop_reference;

use cantstop_reference as reference;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use steere::tools::matches::dice::record::{DiceRecord, parse_dice_records};
use steere::tools::rng::SplitMix64;

const STEERE: &str = env!("CARGO_BIN_EXE_steere");

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("steere-dice-matches-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `steere match --variant cantstop ARGS`.
fn dice_match(args: &[&str]) -> Output {
    let mut all = vec!["match", "--variant", "cantstop"];
    all.extend_from_slice(args);
    Command::new(STEERE).args(&all).output().expect("steere runs")
}

/// `steere` playing a fixed strategy, as an engine's words.
fn fixed(name: &str, strategy: &str) -> Vec<String> {
    [
        STEERE.to_string(),
        format!("name={name}"),
        format!("option.Strategy={strategy}"),
        "movetime=1000".into(),
    ]
    .to_vec()
}

/// The roll of one value of a dice stream: the four base-6 digits of `value mod 1296`, lowest
/// first, each plus one, written in non-decreasing order.
fn roll_of(value: u64) -> String {
    let index = value % 1296;
    let mut dice: Vec<u64> = (0..4).map(|k| index / 6u64.pow(k) % 6 + 1).collect();
    dice.sort();
    format!("r{}", dice.iter().map(u64::to_string).collect::<String>())
}

/// The rolls of a game, in order.
fn rolls(record: &DiceRecord) -> Vec<&str> {
    record.events.split_whitespace().filter(|t| t.starts_with('r') && *t != "roll").collect()
}

/// Referees a record with the independent reference: the start, every roll against the dice
/// stream, every decision's legality, the turns, and the ending.
fn referee(record: &DiceRecord) {
    let start = reference::start_fen(record.players);
    assert_eq!(record.start, start);
    let mut dice = SplitMix64(u64::from_str_radix(&record.dice, 16).unwrap());
    let mut position = reference::Position::parse_with(&start, &reference_options(record)).unwrap();
    let mut turns = 0;
    for token in record.events.split_whitespace() {
        assert_eq!(position.winner(), None, "game {}: '{token}' after the end", record.game);
        if position.phase() == reference::Phase::Roll {
            assert_eq!(token, roll_of(dice.next_u64()), "game {}: the dice stream", record.game);
        } else {
            assert!(
                position.legal_events().iter().any(|e| e == token),
                "game {}: illegal {token}",
                record.game
            );
        }
        position = position.play(token).unwrap();
        // A turn ends with a stop or a bust: the next player to roll, no neutral marker.
        if position.winner().is_some()
            || (position.phase() == reference::Phase::Roll && position.neutral_markers().is_empty())
        {
            turns += 1;
        }
    }
    assert_eq!(turns, record.turns, "game {}", record.game);
    match record.reason.as_str() {
        "normal" => assert_eq!(Some(record.result.clone()), position.winner().map(|w| format!("p{w}win"))),
        "unfinished" => {
            assert_eq!((position.winner(), record.result.as_str()), (None, "none"));
            assert_eq!(turns, record.max_turns);
        }
        _ => {
            let seat = record.forfeit.expect("a forfeit names its seat");
            assert_eq!(position.winner(), None);
            if !record.events.is_empty() {
                assert_ne!(position.phase(), reference::Phase::Roll, "the offender had a decision");
                assert_eq!(position.to_move(), seat, "the offender was to move");
            }
            let expected = if record.players == 2 { format!("p{}win", 3 - seat) } else { "none".to_string() };
            assert_eq!(record.result, expected, "game {}", record.game);
        }
    }
    // The runner's own replay agrees.
    assert_eq!(record.replay(), Ok(position.to_fen()));
}

/// The rule options of a record, for the reference (an option not written has its default).
fn reference_options(record: &DiceRecord) -> reference::Options {
    let w = record.options.get("ColumnsToWin").map_or(3, |w| w.parse().unwrap());
    let variant = match record.options.get("CantStopVariant").map(String::as_str) {
        None | Some("none") => reference::Variant::None,
        Some("skip") => reference::Variant::Skip,
        Some("mustroll") => reference::Variant::MustRoll,
        Some(other) => panic!("game {}: variant {other}", record.game),
    };
    reference::Options::new(record.players, w, variant).unwrap()
}

/// Reads the records of a file and referees every one.
fn records(path: &Path) -> Vec<DiceRecord> {
    let mut games = parse_dice_records(&std::fs::read_to_string(path).unwrap()).unwrap();
    games.sort_by_key(|g| g.game);
    games.iter().for_each(referee);
    games
}

/// Checks the seats of every record against the rotation schedule: in rotation r, player s + 1
/// is entrant (s + r) mod N, whose name is `entrants[(s + r) % N]`; and that the rotations of a
/// stream roll the same dice, as far as each game goes.
fn check_duplicate_play(games: &[DiceRecord], entrants: &[&str]) {
    let n = entrants.len();
    assert_eq!(games.len() % n, 0);
    for (g, game) in games.iter().enumerate() {
        assert_eq!((game.game, game.stream, game.rotation), (g as u64 + 1, (g / n) as u64, g % n));
        let expected: Vec<&str> = (0..n).map(|s| entrants[(s + game.rotation) % n]).collect();
        assert_eq!(game.seats, expected, "game {}", game.game);
    }
    for stream in games.chunks(n) {
        let first = rolls(&stream[0]);
        for other in &stream[1..] {
            assert_eq!(other.dice, stream[0].dice, "one dice stream");
            let theirs = rolls(other);
            let common = first.len().min(theirs.len());
            assert!(common > 0);
            assert_eq!(first[0], theirs[0], "the first roll is shared");
            assert_eq!(first[..common], theirs[..common], "the i-th roll is the stream's i-th value");
        }
    }
}

/// The summary's engine called `name`.
fn engine<'a>(summary: &'a Value, name: &str) -> &'a Value {
    summary["engines"].as_array().unwrap().iter().find(|e| e["name"] == name).unwrap()
}

fn number(value: &Value) -> u64 {
    value.as_u64().unwrap_or_else(|| panic!("{value} is no count"))
}

#[test]
fn a_two_player_match_adds_up_with_elo_and_replays() {
    let dir = temp_dir("two");
    let record = dir.join("games.jsonl");
    let mut args: Vec<String> = vec!["--engine1".into()];
    args.extend(fixed("rule28", "rule28"));
    args.push("--engine2".into());
    args.extend(fixed("random", "random"));
    args.extend(["--games", "11", "--seed", "5", "--concurrency", "2", "--json", "--pgn"].map(String::from));
    args.push(record.to_str().unwrap().into());
    let out = dice_match(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    // 11 games round up to 6 streams of 2.
    assert_eq!((number(&summary["games"]), number(&summary["streams"])), (12, 6));
    let games = records(&record);
    assert_eq!(games.len(), 12);
    check_duplicate_play(&games, &["rule28", "random"]);
    // Results add up: every game has a winner or is unfinished (no engine faults here).
    let wins: u64 = ["rule28", "random"].iter().map(|n| number(&engine(&summary, n)["wins"])).sum();
    assert_eq!(wins + number(&summary["unfinished"]), 12);
    assert_eq!(wins, games.iter().filter(|g| g.result != "none").count() as u64);
    let seat_wins: u64 = summary["seat_wins"].as_array().unwrap().iter().map(number).sum();
    assert_eq!(seat_wins, wins);
    for name in ["rule28", "random"] {
        let e = engine(&summary, name);
        assert_eq!((number(&e["games"]), number(&e["seats"]), number(&e["entrants"])), (12, 12, 1));
        let by_seat = e["by_seat"].as_array().unwrap();
        assert!(by_seat.iter().all(|s| number(&s["games"]) == 6), "{e}");
        let won = games.iter().filter(|g| g.winner().is_some_and(|w| g.seats[w] == name)).count() as u64;
        assert_eq!(number(&e["wins"]), won, "{name}");
    }
    // Two players: Elo and LOS over the six streams (the pentanomial counts them).
    let penta: u64 = summary["pentanomial"].as_array().unwrap().iter().map(number).sum();
    assert_eq!(penta, 6);
    assert!(summary["elo"]["los"].is_number(), "{summary}");
    assert!(number(&engine(&summary, "rule28")["wins"]) > 6, "rule28 beats random: {summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A match under the rulebook's options: sent to every engine, written in every record, and
/// refereed by the reference under them (the winners have won 4 columns); a combination the
/// contract does not offer for the players is refused before any engine starts.
#[test]
fn a_match_under_rule_options_plays_records_and_replays_them() {
    let dir = temp_dir("options");
    let record = dir.join("games.jsonl");
    let mut args: Vec<String> = vec!["--engine1".into()];
    args.extend(fixed("rule28", "rule28"));
    args.push("--engine2".into());
    args.extend(fixed("greedy", "greedy"));
    args.extend(
        [
            "--games",
            "6",
            "--seed",
            "9",
            "--option",
            "ColumnsToWin=4",
            "--option",
            "cantstopvariant=skip",
            "--pgn",
        ]
        .map(String::from),
    );
    args.push(record.to_str().unwrap().into());
    let out = dice_match(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let games = records(&record);
    assert_eq!(games.len(), 6);
    for game in &games {
        let options: Vec<(&str, &str)> = game.options.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        assert_eq!(options, [("CantStopVariant", "skip"), ("ColumnsToWin", "4")], "game {}", game.game);
        assert!(
            game.settings.iter().all(|s| s.contains("option.ColumnsToWin=4 option.CantStopVariant=skip"))
        );
        if let Some(winner) = game.winner() {
            let mut position =
                reference::Position::parse_with(&game.start, &reference_options(game)).unwrap();
            for token in game.events.split_whitespace() {
                position = position.play(token).unwrap();
            }
            assert_eq!(position.won_columns(winner + 1).len(), 4, "game {}", game.game);
        }
    }
    let refused = dice_match(&[
        "--players",
        "4",
        "--option",
        "ColumnsToWin=4",
        "--engine1",
        STEERE,
        "depth=1",
        "--engine2",
        STEERE,
        "depth=1",
    ]);
    assert!(!refused.status.success());
    let error = text(&refused.stderr);
    assert!(error.contains("--option: 4 columns to win is not offered for 4 players"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_four_player_match_fills_seats_with_the_last_engine() {
    let dir = temp_dir("four");
    let record = dir.join("games.jsonl");
    let mut args: Vec<String> = vec!["--players".into(), "4".into(), "--engine1".into()];
    args.extend(fixed("greedy", "greedy"));
    args.push("--engine2".into());
    args.extend(fixed("rule28", "rule28"));
    args.extend(["--games", "8", "--seed", "9", "--json", "--pgn"].map(String::from));
    args.push(record.to_str().unwrap().into());
    let out = dice_match(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!((number(&summary["games"]), number(&summary["players"])), (8, 4));
    let games = records(&record);
    check_duplicate_play(&games, &["greedy", "rule28 #1", "rule28 #2", "rule28 #3"]);
    let (greedy, rule28) = (engine(&summary, "greedy"), engine(&summary, "rule28"));
    assert_eq!((number(&greedy["seats"]), number(&rule28["seats"]), number(&rule28["entrants"])), (8, 24, 3));
    assert_eq!(greedy["equal_share"], 0.25);
    let wins = number(&greedy["wins"]) + number(&rule28["wins"]);
    assert_eq!(wins + number(&summary["unfinished"]) + number(&summary["forfeits_without_winner"]), 8);
    assert_eq!(summary["elo"], Value::Null, "no Elo with four players");
    // Each seat position is taken twice by greedy over two streams.
    assert!(greedy["by_seat"].as_array().unwrap().iter().all(|s| number(&s["games"]) == 2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_seed_replays_the_same_match() {
    let dir = temp_dir("seed");
    let run = |seed: &str, file: &str| {
        let path = dir.join(file);
        let mut args: Vec<String> = vec!["--players".into(), "3".into(), "--engine1".into()];
        args.extend(fixed("random", "random"));
        args.push("--engine2".into());
        args.extend(fixed("greedy", "greedy"));
        args.extend(["--games", "6", "--seed", seed, "--concurrency", "3", "--pgn"].map(String::from));
        args.push(path.to_str().unwrap().into());
        let out = dice_match(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(out.status.success(), "{}", text(&out.stderr));
        records(&path)
    };
    let (first, again, other) = (run("17", "a.jsonl"), run("17", "b.jsonl"), run("18", "c.jsonl"));
    assert_eq!(first, again, "same seed, same games (in schedule order)");
    assert_ne!(first[0].dice, other[0].dice, "the seed chooses the dice");
    assert_ne!(first[0].events, other[0].events);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_turn_limit_leaves_games_unfinished() {
    let dir = temp_dir("limit");
    let record = dir.join("games.jsonl");
    let mut args: Vec<String> = vec!["--engine1".into()];
    args.extend(fixed("a", "rule28"));
    args.push("--engine2".into());
    args.extend(fixed("b", "rule28"));
    args.extend(["--games", "4", "--max-turns", "3", "--json", "--pgn"].map(String::from));
    args.push(record.to_str().unwrap().into());
    let out = dice_match(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!(number(&summary["unfinished"]), 4);
    // An unfinished game counts as a draw in the pairs: two draws per stream, LW+DD.
    assert_eq!(summary["pentanomial"], serde_json::json!([0, 0, 2, 0, 0]));
    for game in records(&record) {
        assert_eq!((game.reason.as_str(), game.result.as_str(), game.turns), ("unfinished", "none", 3));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fake Can't Stop engine: declares the options the runner sets, does `on_go` when asked to
/// decide, and appends a line to `NAME.starts` each time it starts.
fn fake_engine(dir: &Path, name: &str, on_go: &str) -> String {
    let path = dir.join(format!("{name}.sh"));
    let starts = dir.join(format!("{name}.starts"));
    let script = format!(
        "#!/bin/sh\necho started >> '{}'\nwhile read -r line; do\n  case \"$line\" in\n    \
         uci) echo \"id name {name}\"; echo 'option name UCI_Variant type combo default impasse var impasse var cantstop'; \
         echo 'option name Players type spin default 2 min 2 max 4'; echo uciok ;;\n    \
         isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n",
        starts.display()
    );
    std::fs::write(&path, script).unwrap();
    format!("sh {}", path.display())
}

/// Plays `players` players, the fake first and `greedy` in the other seats, one stream; checks
/// that the fake forfeited every game for `reason` with `detail`, in its own seat, and was
/// started `starts` times.
fn fake_forfeits(name: &str, on_go: &str, players: usize, reason: &str, detail: &str, starts: usize) {
    let dir = temp_dir(name);
    let record = dir.join("games.jsonl");
    let fake = fake_engine(&dir, name, on_go);
    let mut args: Vec<String> = vec!["--players".into(), players.to_string(), "--engine1".into(), fake];
    args.push("movetime=200".into());
    args.push("--engine2".into());
    args.extend(fixed("greedy", "greedy"));
    args.extend(["--rounds", "1", "--json", "--pgn"].map(String::from));
    args.push(record.to_str().unwrap().into());
    let out = dice_match(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    let fake = engine(&summary, name);
    assert_eq!(number(&fake["wins"]), 0, "{summary}");
    assert_eq!(number(&fake["forfeits_by_reason"][reason]), players as u64, "{summary}");
    let greedy_wins = number(&engine(&summary, "greedy")["wins"]);
    let without_winner = number(&summary["forfeits_without_winner"]);
    if players == 2 {
        assert_eq!((greedy_wins, without_winner), (2, 0), "two players: the other one wins");
    } else {
        assert_eq!((greedy_wins, without_winner), (0, players as u64), "more: nobody wins");
    }
    let games = records(&record);
    assert_eq!(games.len(), players, "the runner went on after each fault");
    for game in &games {
        assert_eq!(game.reason, reason);
        assert!(game.detail.contains(detail), "'{}' should mention '{detail}'", game.detail);
        let seat = game.forfeit.unwrap();
        assert_eq!(game.seats[seat - 1], name, "the fake forfeited in its own seat");
    }
    let started = std::fs::read_to_string(dir.join(format!("{name}.starts"))).unwrap().lines().count();
    assert_eq!(started, starts, "processes started for {name}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_illegal_event_forfeits() {
    // A turn's first decision is a choice of columns: `stop` is an event, but not legal there.
    fake_forfeits("illegal", "echo 'bestmove stop'", 2, "illegal move", "'stop' is not legal here", 1);
}

#[test]
fn garbage_forfeits() {
    fake_forfeits(
        "garbage",
        "echo 'info depth 1'; echo 'bestmove zz9'",
        2,
        "garbage",
        "'zz9' is no event",
        1,
    );
}

#[test]
fn bestmove_none_at_a_decision_forfeits() {
    fake_forfeits("none", "echo 'bestmove (none)'", 2, "illegal move", "(none)", 1);
}

#[test]
fn a_crash_forfeits_and_the_engine_is_restarted() {
    fake_forfeits("crashing", "exit 3", 2, "crash", "exited with status 3", 2);
}

#[test]
fn silence_forfeits_on_time() {
    fake_forfeits("silent", ":", 2, "time forfeit", "no decision after", 2);
}

#[test]
fn a_forfeit_with_three_players_has_no_winner() {
    fake_forfeits("illegal3", "echo 'bestmove stop'", 3, "illegal move", "not legal here", 1);
}

#[test]
fn the_table_has_seats_intervals_and_elo() {
    let mut args: Vec<String> = vec!["--engine1".into()];
    args.extend(fixed("greedy", "greedy"));
    args.push("--engine2".into());
    args.extend(fixed("random", "random"));
    args.extend(["--sprt", "elo0=0", "elo1=300", "--rounds", "40"].map(String::from));
    let out = dice_match(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    // greedy wins every game of these dice: a clean sweep, whose Elo is a one-sided bound (an
    // interval of width zero would claim a precision six streams do not have).
    for expected in [
        "95% (Wilson)",
        "P1 W/G",
        "Wins by seat: P1 ",
        "Elo difference (greedy - random): at least ",
        "(95%, one-sided: every game won)",
    ] {
        assert!(table.contains(expected), "'{expected}' in {table}");
    }
    // greedy wins nearly every game against random: the SPRT accepts H1 long before 80 games.
    assert!(table.contains("H1 accepted") && table.contains("(stopped by the SPRT)"), "{table}");
}

#[test]
fn bad_arguments_are_one_line_errors() {
    let engines = ["--engine1", STEERE, "depth=1", "--engine2", STEERE, "depth=1"];
    let cases: [(&[&str], &str); 7] = [
        (&["--variant", "cantstop", "--players", "5"], "--players 5: cantstop is played by 2 to 4 players"),
        (&["--variant", "cantstop", "--players", "1"], "--players 1"),
        (&["--variant", "impasse", "--players", "3"], "--players 3: impasse is played by 2 players"),
        (&["--variant", "cantstop", "--engine3", STEERE, "depth=1"], "--engine3: 3 engines for 2 players"),
        (&["--variant", "cantstop", "--players", "3", "--sprt"], "--sprt"),
        (&["--variant", "cantstop", "--openings", "/nonexistent.fen"], "--openings"),
        (&["--variant", "hexdame", "--max-turns", "5"], "--max-turns is for dice games"),
    ];
    for (extra, expected) in cases {
        let mut args = vec!["match"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&engines);
        let out = Command::new(STEERE).args(&args).output().unwrap();
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{args:?} should fail");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.contains(expected), "'{err}' should mention '{expected}'");
    }
}
