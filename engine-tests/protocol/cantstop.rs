//! Can't Stop over the protocol: whole games of 2, 3 and 4 players in which the test rolls the
//! dice, the engine takes every decision (the search and each fixed player), and the independent
//! reference referees: every `bestmove` must be legal, `query turn` and `query result` must
//! agree with it. Also the answers where nobody decides, and errors that leave the position as
//! it was.

use super::cantstop_reference as reference;
use super::pipe::Engine;
use super::shared;

/// Starts an engine playing Can't Stop.
fn cantstop_engine() -> Engine {
    let mut engine = Engine::start(&[]);
    engine.send("uci");
    engine.until("uciok", |l| l == "uciok");
    engine.send("setoption name UCI_Variant value cantstop");
    engine.sync_quiet();
    engine
}

/// A tiny seeded generator (xorshift64*), so that the dice do not come from the engine's code.
struct Dice(u64);

impl Dice {
    fn roll(&mut self) -> String {
        let mut token = String::from("r");
        for _ in 0..4 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            let value = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33;
            token.push(char::from(b'1' + (value % 6) as u8));
        }
        token
    }
}

/// Plays one game: the engine decides with `go_command`, the test rolls, the reference
/// referees. Returns the number of events.
fn play_game(engine: &mut Engine, players: usize, seed: u64, go_command: &str, max_events: usize) -> usize {
    let start = reference::start_fen(players);
    let mut pos = reference::Position::parse(&start).unwrap();
    let mut events: Vec<String> = Vec::new();
    let mut dice = Dice(seed.max(1));
    while pos.winner().is_none() && events.len() < max_events {
        let is_roll_phase = matches!(pos.phase(), reference::Phase::Roll);
        let event = if is_roll_phase {
            dice.roll()
        } else {
            engine.send(&format!("position fen {start} moves {}", events.join(" ")));
            assert_eq!(engine.query("turn"), format!("p{}", pos.to_move()), "after {events:?}");
            engine.send(go_command);
            let lines = engine.until("bestmove", |l| l.starts_with("bestmove "));
            let best = lines.last().unwrap().trim_start_matches("bestmove ").to_string();
            assert!(pos.legal_events().contains(&best), "illegal {best} after {events:?}: {lines:?}");
            best
        };
        pos = pos.play(&event).unwrap();
        events.push(event);
    }
    engine.send(&format!("position fen {start} moves {}", events.join(" ")));
    let result = pos.winner().map_or("none".to_string(), |w| format!("p{w}win"));
    assert_eq!(engine.query("result"), result, "{events:?}");
    assert_eq!(engine.query("gameover"), pos.winner().is_some().to_string());
    assert_eq!(engine.query("fen"), pos.to_fen());
    events.len()
}

#[test]
fn whole_games_with_every_strategy_are_legal_and_end_as_the_reference_says() {
    let _guard = shared();
    let mut engine = cantstop_engine();
    let mut finished = 0;
    for (i, strategy) in ["rule28", "glenn", "greedy", "random", "search"].iter().enumerate() {
        engine.send(&format!("setoption name Strategy value {strategy}"));
        for players in 2..=4 {
            let go = if *strategy == "search" { "go depth 1" } else { "go movetime 50" };
            let limit = if *strategy == "search" { 150 } else { 3000 };
            let events = play_game(&mut engine, players, (i * 10 + players) as u64 + 1, go, limit);
            finished += usize::from(events < limit);
        }
    }
    assert!(finished >= 12, "{finished} of 15 games finished");
    engine.finish();
}

#[test]
fn where_nobody_decides_go_answers_none() {
    let _guard = shared();
    let mut engine = cantstop_engine();
    engine.send("position startpos");
    engine.send("go movetime 50");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    assert_eq!(
        lines,
        [
            "info string no decision: the next event is a roll of the dice, which no player chooses",
            "bestmove (none)"
        ]
    );
    engine.send("position fen p3 30000500003/00000500000/00000000000 7:13 1 s moves stop");
    assert_eq!(engine.query("result"), "p1win");
    engine.send("go depth 3");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    assert_eq!(lines, ["info string game over: player 1 won", "bestmove (none)"]);
    engine.finish();
}

#[test]
fn the_search_stops_to_win_and_reports_values() {
    let _guard = shared();
    let mut engine = cantstop_engine();
    engine.send("position fen p2 30000000003/00000000000 3:5,11:5 1 s");
    engine.send("go depth 2");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove stop", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 1 nodes ") && l.contains(" wdl 1000 0 0")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("info string values roll ")), "{lines:?}");
    engine.finish();
}

#[test]
fn players_sets_the_start_and_errors_leave_the_position() {
    let _guard = shared();
    let mut engine = cantstop_engine();
    engine.send("setoption name Players value 4");
    engine.send("position startpos moves r1546");
    assert_eq!(engine.query("fen"), "p4 00000000000/00000000000/00000000000/00000000000 - 1 c1456");
    for (bad, says) in [
        ("position startpos moves r1546 7.11", "'7.11' is not legal here"),
        ("position startpos moves r1547", "'r1547' is no event"),
        ("position fen p2 40000000000/00000000000 - 1 r", "above its top"),
        ("setoption name Players value 5", "out of range 2..4"),
        ("setoption name Strategy value clever", "not one of search, rule28, glenn, greedy, random"),
    ] {
        engine.send(bad);
        let errors = engine.sync_errors();
        assert!(errors.len() == 1 && errors[0].contains(says), "{bad}: {errors:?}");
    }
    assert_eq!(engine.query("fen"), "p4 00000000000/00000000000/00000000000/00000000000 - 1 c1456");
    assert_eq!(engine.query("islegal 9.7"), "true");
    assert_eq!(engine.query("islegal 6"), "false");
    engine.finish();
}

/// Found by the protocol fuzz: `go searchmoves` restricts the search, the fixed players and
/// the fallback to the events given; a malformed or illegal one is reported and left out.
#[test]
fn searchmoves_restricts_every_decision() {
    let _guard = shared();
    let mut engine = cantstop_engine();
    for strategy in ["search", "rule28", "greedy"] {
        engine.send(&format!("setoption name Strategy value {strategy}"));
        for only in ["3.7", "4.6", "5.5"] {
            engine.send("position startpos moves r1234");
            engine.send(&format!("go depth 1 searchmoves {only} zz"));
            let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
            assert_eq!(lines.last().unwrap(), &format!("bestmove {only}"), "{strategy}: {lines:?}");
            assert!(lines.iter().any(|l| l.contains("error: go searchmoves: 'zz'")), "{lines:?}");
        }
    }
    engine.send("setoption name Strategy value search");
    engine.send("position startpos moves r1234");
    engine.send("go movetime 0 searchmoves 4.6");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove 4.6", "the fallback too: {lines:?}");
    engine.finish();
}

/// Found by the protocol fuzz: in a finished game `query p1turn` agrees with `query turn`.
#[test]
fn p1turn_agrees_with_turn_in_a_finished_game() {
    let _guard = shared();
    let mut engine = cantstop_engine();
    engine.send("position fen p2 00058004520/35605400033 - 1 r");
    assert_eq!(engine.query("gameover"), "true");
    assert_eq!(engine.query("turn"), "p1");
    assert_eq!(engine.query("p1turn"), "true");
    engine.finish();
}

/// Found by the protocol fuzz: an answer known without a search (a roll is next, the game is
/// over, a fixed strategy decides) still waits for `stop` or `ponderhit` under `go infinite` and
/// `go ponder`, as UCI asks, and is then given once.
#[test]
fn answers_known_at_once_still_wait_for_stop_under_infinite_and_ponder() {
    let _guard = shared();
    let mut engine = cantstop_engine();
    let cases = [
        ("", "position startpos", "go infinite", "stop", "bestmove (none)"),
        (
            "",
            "position fen p3 30000500003/00000500000/00000000000 7:13 1 s moves stop",
            "go infinite",
            "stop",
            "bestmove (none)",
        ),
        (
            "setoption name Strategy value rule28",
            "position fen p2 00000000000/00000000000 3:1,4:1,12:1 1 s",
            "go ponder depth 1",
            "ponderhit",
            "",
        ),
    ];
    for (setup, position, go, release, expected) in cases {
        if !setup.is_empty() {
            engine.send(setup);
        }
        engine.send(position);
        engine.send(go);
        engine.none_within(std::time::Duration::from_millis(300), "bestmove before stop", |l| {
            l.starts_with("bestmove")
        });
        engine.send(release);
        let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
        let answer = lines.last().unwrap();
        assert!(expected.is_empty() || answer == expected, "{go}: {answer}");
        engine.sync_quiet();
    }
    engine.finish();
}

/// The search runs beside the loop: `isready` is answered during it, `go infinite` and
/// `go ponder` wait for `stop` or `ponderhit` even when the turn is solved, and pipelined
/// `go`/`stop` pairs get exactly one legal `bestmove` each.
#[test]
fn the_search_runs_beside_the_loop_and_waits_for_stop() {
    let _guard = shared();
    let mut engine = cantstop_engine();
    let events = "r1546";
    engine.send(&format!("position startpos moves {events}"));
    let start = reference::start_fen(2);
    let pos = reference::Position::parse(&start).unwrap().play(events).unwrap();
    let legal = |mv: &str| pos.legal_events().iter().any(|e| e == mv);
    for go in ["go infinite", "go ponder movetime 50"] {
        engine.send(go);
        std::thread::sleep(std::time::Duration::from_millis(100));
        let sent = std::time::Instant::now();
        engine.send("isready");
        let lines = engine.until("readyok", |l| l == "readyok");
        assert!(lines.iter().all(|l| !l.starts_with("bestmove")), "{go}: {lines:?}");
        // Generous against a loaded machine; before, `isready` waited for the whole search.
        let waited = sent.elapsed();
        assert!(waited < std::time::Duration::from_secs(1), "{go}: readyok after {waited:?}");
        engine.none_within(std::time::Duration::from_millis(600), "bestmove before stop", |l| {
            l.starts_with("bestmove")
        });
        engine.send(if go.contains("ponder") { "ponderhit" } else { "stop" });
        let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
        let best = lines.last().unwrap().trim_start_matches("bestmove ");
        assert!(legal(best), "{go}: illegal {best}");
        engine.sync_quiet();
    }
    let pairs: Vec<String> = (0..40)
        .flat_map(|i| {
            let go = ["go infinite", "go movetime 1", "go depth 2", "go ponder"][i % 4];
            [go.to_string(), "stop".to_string()]
        })
        .collect();
    let mut script = pairs.join("\n");
    script.push_str("\nisready\n");
    engine.send_bytes(script.as_bytes());
    let lines = engine.until("readyok", |l| l == "readyok");
    let answers: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 40, "{lines:?}");
    assert!(answers.iter().all(|a| legal(a.trim_start_matches("bestmove "))), "{answers:?}");
    engine.finish();
}

/// The rulebook's options (docs/rules/cantstop.md, "Optional variants") over the protocol:
/// declared in `uci`, refused where the contract does not offer them (the option is then
/// unchanged), and changing the rules of every position set after them. The expected positions
/// are worked by hand from the contract.
#[test]
fn rule_options_are_declared_checked_and_change_the_rules() {
    let _guard = shared();
    let mut engine = Engine::start(&[]);
    engine.send("uci");
    let hello = engine.until("uciok", |l| l == "uciok");
    for declared in [
        "option name ColumnsToWin type spin default 3 min 3 max 5",
        "option name CantStopVariant type combo default none var none var skip var mustroll",
    ] {
        assert!(hello.iter().any(|l| l == declared), "{declared}: {hello:?}");
    }
    engine.send("setoption name UCI_Variant value cantstop");
    // Player 2 rolls 1-4-1-4 (5+5 or 2+8) and takes 5+5 beside player 1's marker on space 1 of
    // column 5: placed on 1 and moved to 2; under skip placed on 2 (1 is held) and moved to 3.
    let beside = "position fen p2 00010000000/00000000000 - 2 r moves r1414 5.5";
    for (variant, after) in [("none", "5:2"), ("skip", "5:3")] {
        engine.send(&format!("setoption name CantStopVariant value {variant}"));
        engine.send(beside);
        assert_eq!(engine.query("fen"), format!("p2 00010000000/00000000000 {after} 2 s"), "{variant}");
    }
    // Must roll: a neutral marker on player 1's marker (5:3), so player 2 may not stop.
    engine.send("setoption name CantStopVariant value mustroll");
    engine.send("position fen p2 00030000000/00000000000 5:3 2 s");
    assert_eq!((engine.query("islegal stop"), engine.query("islegal roll")), ("false".into(), "true".into()));
    engine.send("go depth 1");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove "));
    assert_eq!(lines.last().unwrap(), "bestmove roll", "{lines:?}");
    engine.send("position fen p2 00030000000/00000000000 5:3 2 s moves stop");
    assert_eq!(engine.sync_errors().len(), 1, "stop refused");
    // Under skip that position cannot occur at all.
    engine.send("setoption name CantStopVariant value skip");
    engine.send("position fen p2 00030000000/00000000000 5:3 2 s");
    let errors = engine.sync_errors();
    assert!(errors.len() == 1 && errors[0].contains("skip"), "{errors:?}");
    // Columns to win: stopping on the top of column 4 with 2 and 3 won wins 3 columns, which
    // wins the base game and not a game to 4.
    engine.send("setoption name CantStopVariant value none");
    let third = "position fen p2 35000000000/00000000000 4:7 1 s moves stop";
    for (w, result) in [("3", "p1win"), ("4", "none")] {
        engine.send(&format!("setoption name ColumnsToWin value {w}"));
        engine.send(third);
        assert_eq!(engine.query("result"), result, "{w} columns to win");
    }
    // Refused combinations leave the option and the position as they were, in one line each.
    for (bad, says) in [
        ("setoption name Players value 4", "Players: 4 columns to win is not offered for 4 players"),
        ("setoption name ColumnsToWin value 6", "not a whole number from 3 to 5"),
        ("setoption name CantStopVariant value both", "not one of none, skip, mustroll"),
        (
            "position fen p4 00000000000/00000000000/00000000000/00000000000 - 1 r",
            "not offered for 4 players",
        ),
    ] {
        engine.send(bad);
        let errors = engine.sync_errors();
        assert!(errors.len() == 1 && errors[0].contains(says), "{bad}: {errors:?}");
    }
    assert_eq!(engine.query("fen"), "p2 35700000000/00000000000 - 2 r");
    engine.send("d");
    let board = engine.until("Legal", |l| l.starts_with("Legal"));
    assert!(board.iter().any(|l| l == "Options: ColumnsToWin 4, CantStopVariant none"), "{board:?}");
    // Three players may play to 4; the start follows Players under the options.
    engine.send("setoption name Players value 3");
    engine.send("position startpos");
    assert_eq!(engine.query("fen"), "p3 00000000000/00000000000/00000000000 - 1 r");
    engine.finish();
}

/// `Threads` shares a dice search among threads: at a fixed depth the answer is the one thread's
/// (the same `bestmove`, score, pv and values; only the counts and times differ).
#[test]
fn threads_give_the_move_score_and_values_of_one_thread() {
    let _guard = shared();
    let mut engine = cantstop_engine();
    let mut answer = |threads: usize, position: &str| {
        engine.send(&format!("setoption name Threads value {threads}"));
        engine.send(position);
        engine.send("go depth 2");
        let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
        let kept: Vec<String> = lines
            .iter()
            .filter_map(|l| match l.split_once(" score ") {
                // `info depth D nodes N nps X time MS score ... pv E`: the depth and what follows
                // the time.
                Some((head, score)) if l.starts_with("info depth ") => {
                    Some(format!("{} score {score}", head.split(" nodes ").next().unwrap()))
                }
                _ => Some(l.clone())
                    .filter(|l| l.starts_with("info string values ") || l.starts_with("bestmove")),
            })
            .collect();
        assert_eq!(kept.len(), 4, "{position} on {threads} threads: {lines:?}");
        kept
    };
    for position in [
        "position startpos moves r1546",
        "position startpos moves r1546 6.10",
        "position fen p2 00253000000/01004320000 4:3,6:5 1 c1245",
        "position fen p3 00320000000/00004400000/00000007000 5:2,8:8 3 s",
        "position fen p4 05000001000/0000a0b0000/00010000700/00000000000 5:2,11:1 3 c2356",
    ] {
        let one = answer(1, position);
        assert_eq!(answer(2, position), one, "{position}");
        assert_eq!(answer(3, position), one, "{position}");
    }
    engine.finish();
}
