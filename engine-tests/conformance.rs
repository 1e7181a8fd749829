//! The conformance suite: what every registered variant must satisfy, checked over the one
//! tool-facing trait (`steere::game::Rules`), so that a new game gets all of it by being listed
//! in the registry. The model is OpenSpiel's `basic_tests.h`.
//!
//! For each variant, from its start and from every position of its bench and opening files,
//! seeded random games are played to the end (or to a cap), and at every step:
//! - the node kind, the legal steps, the result and the player to move agree with each other;
//! - the position's text reads back to the same position, with the same key (the key reached
//!   step by step, incrementally, equals the key computed from scratch from the text);
//! - every legal step's text reads back to that step; the steps of the previous position that
//!   are not legal now are refused as illegal, and garbage as malformed;
//! - at a chance node the outcomes' weights are positive and sum to the total, and every
//!   elementary outcome is a legal step; elsewhere there is no chance outcome;
//! - a finished game has a result that gives out exactly one point among the players.
//!
//! And the protocol agrees with the rules at every step of one game per variant: `position
//! ... moves`, `query gameover|turn|result|islegal` and `d`'s list of legal steps say what the
//! rules say. So does the match referee (`steere match`, the built binary): every step of its
//! records was legal where it was played, every roll an elementary chance outcome, every
//! recorded ending the rules' at the final position, and a fake engine's malformed or illegal
//! step (chosen by the rules) forfeits the game as docs/matches.md says.

use std::collections::HashSet;
use std::io::Write;
use std::sync::{Arc, Mutex};
use steere::game::{GameHistory, GameResult, MoveTextError, Node, Params, Rules, rules};
use steere::tools::rng::SplitMix64;
use steere::variants::{self, Variant};

/// Steps after which a random game is cut (Can't Stop's random players rarely finish sooner;
/// HexDame's kings could go on for ever).
const MAX_STEPS: usize = 1500;

/// Random games from each start position.
const GAMES_FROM_START: usize = 4;

/// Random games from each suite position (bench and openings).
const GAMES_FROM_SUITE: usize = 1;

/// Steps of the one game per variant replayed through the protocol.
const PROTOCOL_STEPS: usize = 120;

/// What a run of the suite saw, to show that it looked at something.
#[derive(Debug, Default)]
struct Seen {
    positions: u64,
    chance_nodes: u64,
    finished: u64,
}

/// The suite for one variant.
fn conformance<G: Rules>(variant: Variant<G>) -> Seen {
    check_declarations::<G>(variant);
    let mut seen = Seen::default();
    let mut rng = SplitMix64(0x5eed ^ variant.name().len() as u64);
    let start = variant.start();
    for _ in 0..GAMES_FROM_START {
        random_game(start, &mut rng, &mut seen);
    }
    let suite = [variant.info.bench_fens, variant.info.openings];
    for text in suite {
        for pos in variant.positions(text).unwrap_or_else(|e| panic!("{}: {e}", variant.name())) {
            for _ in 0..GAMES_FROM_SUITE {
                random_game(pos, &mut rng, &mut seen);
            }
        }
    }
    seen
}

/// The game's constants and parameters hold together.
fn check_declarations<G: Rules>(variant: Variant<G>) {
    let name = variant.name();
    assert!(*G::PLAYERS.start() >= 1 && G::PLAYERS.end() <= &4, "{name}: players {:?}", G::PLAYERS);
    assert!(G::SEAT_NAMES.len() >= *G::PLAYERS.end(), "{name}: a name for every seat");
    let params = variant.params;
    assert!(G::PLAYERS.contains(&params.players()), "{name}: the variant seats {}", params.players());
    for n in 0..=5 {
        assert_eq!(params.with_players(n).is_ok(), G::PLAYERS.contains(&n), "{name}: {n} players");
    }
    let start = variant.start();
    assert_eq!(start.players(), params.players(), "{name}: the start seats the variant's players");
    assert_eq!(start.params(), params, "{name}: the start knows its parameters");
    assert_eq!(start.fen().split_whitespace().count(), G::FEN_FIELDS, "{name}: FEN_FIELDS");
    assert!(variant.parse_fen("").is_err() && variant.parse_fen("no such position").is_err(), "{name}");
}

/// Plays one random game from `start` (uniform among the legal steps, chance outcomes by their
/// elementary weights), checking every position on the way.
fn random_game<G: Rules>(start: G, rng: &mut SplitMix64, seen: &mut Seen) {
    let mut game = GameHistory::new(start);
    let mut previous: Option<G> = None;
    for _ in 0..MAX_STEPS {
        let pos = *game.current();
        check_position(&pos, previous.as_ref());
        seen.positions += 1;
        if game.is_threefold() {
            assert!(G::DRAWS_BY_REPETITION, "only a game that says so is drawn by repetition");
            return;
        }
        let step = match pos.node() {
            Node::Over => {
                seen.finished += 1;
                return;
            }
            Node::Chance => {
                seen.chance_nodes += 1;
                let index = rng.below(pos.chance_total() as usize) as u32;
                pos.chance_step(index).expect("a chance node has an outcome for every index")
            }
            Node::Decision => {
                let steps = pos.legal_steps();
                steps[rng.below(steps.len())]
            }
        };
        previous = Some(pos);
        game.play(step);
    }
}

/// Everything one position must satisfy (see the file's header).
fn check_position<G: Rules>(pos: &G, previous: Option<&G>) {
    let fen = pos.fen();
    let reread =
        G::parse_fen(pos.params(), &fen).unwrap_or_else(|e| panic!("{fen}: does not read back: {e}"));
    assert_eq!(&reread, pos, "{fen}: reads back to another position");
    assert_eq!(reread.fen(), fen, "{fen}: the text is not canonical");
    assert_eq!(reread.key(), pos.key(), "{fen}: the key played up to here differs from the key from scratch");
    assert!(pos.to_move() < pos.players(), "{fen}: seat {} to move", pos.to_move());
    assert!(G::PLAYERS.contains(&pos.players()), "{fen}: {} players", pos.players());

    let steps = pos.legal_steps();
    let fast = pos.steps();
    assert_eq!(steps.len(), fast.as_ref().len(), "{fen}: legal_steps and steps differ in number");
    assert!(fast.as_ref().iter().all(|s| steps.contains(s)), "{fen}: legal_steps and steps differ");
    assert_eq!(pos.count_steps(), steps.len() as u64, "{fen}: count_steps");
    let mut texts: Vec<String> = steps.iter().map(ToString::to_string).collect();
    for (step, text) in steps.iter().zip(&texts) {
        assert_eq!(pos.parse_step(text).as_ref(), Ok(step), "{fen}: step {text} does not read back");
    }
    texts.sort();
    texts.dedup();
    assert_eq!(texts.len(), steps.len(), "{fen}: two steps share a text");
    assert!(
        matches!(pos.parse_step("?!"), Err(MoveTextError::Malformed { .. })),
        "{fen}: garbage is not refused as malformed"
    );
    if let Some(previous) = previous {
        for step in previous.legal_steps() {
            let text = step.to_string();
            if texts.binary_search(&text).is_err() {
                assert!(
                    matches!(pos.parse_step(&text), Err(MoveTextError::Illegal { .. })),
                    "{fen}: {text}, legal before, is not refused as illegal"
                );
            }
        }
    }
    check_node(pos, &fen, &steps);
}

/// The node kind agrees with the steps, the chance outcomes and the result.
fn check_node<G: Rules>(pos: &G, fen: &str, steps: &[G::Step]) {
    match pos.node() {
        Node::Over => {
            assert!(steps.is_empty(), "{fen}: a finished game has steps");
            let result = pos.result().unwrap_or_else(|| panic!("{fen}: finished without a result"));
            let total: f64 = (0..pos.players()).map(|seat| result.score(seat, pos.players())).sum();
            assert!((total - 1.0).abs() < 1e-9, "{fen}: the result gives out {total} points");
            if let GameResult::Win(seat) = result {
                assert!(seat < pos.players(), "{fen}: seat {seat} won");
            }
            assert!(pos.ending().is_some(), "{fen}: no words for the ending");
            assert_eq!(rules::winner(pos), result.winner());
        }
        Node::Decision | Node::Chance => {
            assert!(!steps.is_empty(), "{fen}: a game that goes on has no step");
            assert_eq!(pos.result(), None, "{fen}: a result while the game goes on");
            assert_eq!(pos.ending(), None, "{fen}: an ending while the game goes on");
        }
    }
    if pos.node() == Node::Chance {
        let outcomes = pos.chance_outcomes();
        assert!(!outcomes.is_empty() && outcomes.iter().all(|&(_, w)| w > 0), "{fen}: outcomes");
        let sum: u64 = outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
        assert_eq!(sum, u64::from(pos.chance_total()), "{fen}: the weights do not sum to the total");
        let legal: HashSet<G::Step> = steps.iter().copied().collect();
        assert!(outcomes.iter().all(|(o, _)| legal.contains(o)), "{fen}: an outcome is no legal step");
        for index in 0..pos.chance_total() {
            let step = pos.chance_step(index).unwrap_or_else(|| panic!("{fen}: no outcome {index}"));
            assert!(legal.contains(&step), "{fen}: elementary outcome {index} ({step}) is no legal step");
        }
    } else {
        assert!(pos.chance_outcomes().is_empty(), "{fen}: chance outcomes at a node that is no chance node");
        assert_eq!(pos.chance_step(0), None, "{fen}: a chance step at a node that is no chance node");
    }
}

#[test]
fn every_variant_conforms_to_the_rules_contract_of_the_trait() {
    for info in &variants::VARIANTS {
        let seen = steere::with_variant!(info.name, |variant, _search| conformance(variant)).unwrap();
        eprintln!("{}: {seen:?}", info.name);
        assert!(seen.positions > 1000, "{}: only {seen:?}", info.name);
        assert!(seen.finished > 0, "{}: no random game finished: {seen:?}", info.name);
        if info.family == variants::Family::Dice {
            assert!(seen.chance_nodes > 100, "{}: {seen:?}", info.name);
        } else {
            assert_eq!(seen.chance_nodes, 0, "{}: a board game with chance nodes", info.name);
        }
    }
}

/// A writer the test can read while the protocol writes to it.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Replays one random game through the protocol, asking at every step what the rules know.
fn protocol_agrees<G: Rules>(variant: Variant<G>) -> usize {
    let mut rng = SplitMix64(7);
    let mut game = GameHistory::new(variant.start());
    let mut played: Vec<String> = Vec::new();
    let mut script = format!("uci\nsetoption name UCI_Variant value {}\n", variant.name());
    let mut expected: Vec<(usize, Vec<String>)> = Vec::new();
    for _ in 0..PROTOCOL_STEPS {
        let pos = *game.current();
        let moves = if played.is_empty() { String::new() } else { format!(" moves {}", played.join(" ")) };
        script.push_str(&format!("position startpos{moves}\nquery gameover\nquery turn\nquery result\nd\n"));
        let over = pos.node() == Node::Over || game.is_threefold();
        let result = match (pos.result(), game.is_threefold()) {
            (Some(GameResult::Win(seat)), _) => format!("p{}win", seat + 1),
            (Some(GameResult::Draw), _) | (None, true) => "draw".to_string(),
            (None, false) => "none".to_string(),
        };
        let legal = if over { Vec::new() } else { rules::sorted_step_texts(&pos) };
        let turn = format!("p{}", pos.to_move() + 1);
        expected.push((played.len(), vec![over.to_string(), turn, result, legal.join(" ")]));
        if over {
            break;
        }
        let steps = pos.legal_steps();
        let step = match pos.node() {
            Node::Chance => pos.chance_step(rng.below(pos.chance_total() as usize) as u32).unwrap(),
            _ => steps[rng.below(steps.len())],
        };
        script.push_str(&format!("query islegal {step}\n"));
        expected.last_mut().unwrap().1.push("true".to_string());
        played.push(step.to_string());
        game.play(step);
    }
    script.push_str("quit\n");
    let out = Shared::default();
    steere::protocol::run(std::io::Cursor::new(script.into_bytes()), out.clone());
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    check_transcript(variant.name(), &text, &expected);
    expected.len()
}

/// Checks the protocol's answers, in order, against `expected`: per position, `gameover`,
/// `turn`, `result`, the legal steps of `d` (sorted) and, unless the game is over, `islegal`
/// of the step played next.
fn check_transcript(name: &str, text: &str, expected: &[(usize, Vec<String>)]) {
    assert!(!text.contains("error"), "{name}: the protocol reported an error:\n{text}");
    let mut answers = Vec::new();
    for line in text.lines() {
        if let Some(answer) = line.strip_prefix("response ") {
            answers.push(answer.to_string());
        } else if let Some((head, list)) = line.split_once("): ") {
            if head.starts_with("Legal moves (") {
                let mut steps: Vec<&str> = list.split_whitespace().collect();
                steps.sort();
                answers.push(steps.join(" "));
            }
        } else if line.starts_with("Legal moves (") {
            answers.push(String::new());
        }
    }
    let mut answers = answers.into_iter();
    for (ply, want) in expected {
        for w in want {
            let got = answers.next().unwrap_or_else(|| panic!("{name}: ply {ply}: no answer for {w:?}"));
            assert_eq!(&got, w, "{name}: after {ply} steps the protocol answers {got:?}, the rules {w:?}");
        }
    }
}

#[test]
fn the_protocol_agrees_with_the_rules_at_every_step() {
    for info in &variants::VARIANTS {
        let positions =
            steere::with_variant!(info.name, |variant, _search| protocol_agrees(variant)).unwrap();
        assert!(positions > 20, "{}: only {positions} positions", info.name);
    }
}

/// A game as the referee's record file holds it.
#[derive(Debug)]
struct Refereed {
    start: String,
    seats: Vec<String>,
    steps: Vec<String>,
    winner: Option<usize>,
    reason: String,
    forfeit: Option<usize>,
}

/// The endings that are not a fault of a seat.
const NOT_FAULTS: [&str; 4] = ["normal", "repetition", "draw cap", "unfinished"];

/// The match referee's games of one variant, checked step by step against the rules: games of
/// `steere` against itself, and of a fake engine that answers every `go` with one malformed or
/// one illegal step (both chosen by the rules), each played by `steere match` and read back
/// from its record file (written under `dir`).
fn referee_agrees<G: Rules>(variant: Variant<G>, dir: &std::path::Path) -> usize {
    let dice = variant.info.family == variants::Family::Dice;
    let steere = env!("CARGO_BIN_EXE_steere");
    let mut args: Vec<String> =
        ["match", "--variant", variant.name(), "--rounds", "1", "--seed", "5"].map(String::from).to_vec();
    // Both rules-given faults, asked of the fake in the variant's start position.
    let start = variant.start();
    let openings = dir.join(format!("{}.fen", variant.name()));
    std::fs::write(&openings, format!("{}\n", start.fen())).unwrap();
    let (malformed, illegal) = (malformed_text(&start), illegal_text(&start));
    eprintln!("{}: the fake answers {malformed:?} (malformed) and {illegal:?} (illegal)", variant.name());
    let mut matches = vec![(None, 2)];
    if dice {
        matches.push((None, 3));
    } else {
        args.extend(["--openings".to_string(), openings.display().to_string()]);
    }
    matches.extend([(Some(malformed.clone()), 2), (Some(illegal), 2)]);
    let mut games = 0;
    for (i, (fake, players)) in matches.into_iter().enumerate() {
        let record = dir.join(format!("{}-{i}.record", variant.name()));
        let mut run = args.clone();
        let strategy = |s: &str| if dice { format!("option.Strategy={s}") } else { "depth=1".into() };
        let engine1 = match &fake {
            Some(text) => vec![fake_engine(dir, variant.name(), text), "name=fake".into()],
            None => vec![steere.to_string(), strategy("rule28")],
        };
        run.extend([vec!["--engine1".into()], engine1, vec!["depth=1".into(), "--engine2".into()]].concat());
        run.extend([steere.to_string(), strategy("greedy"), "depth=1".into(), "--pgn".into()]);
        run.push(record.display().to_string());
        if dice {
            run.extend(["--players".to_string(), players.to_string()]);
        }
        let out = std::process::Command::new(steere).args(&run).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{}: steere {run:?}: {stderr}", variant.name());
        let refereed = read_record(&std::fs::read_to_string(&record).unwrap(), dice);
        assert_eq!(refereed.len(), players, "{}: {refereed:?}", variant.name());
        for game in &refereed {
            check_refereed(variant, game, players, fake.as_deref());
        }
        if let Some(text) = &fake {
            // Game 1: the fake decides first, and forfeits at once for what the rules say
            // its step is.
            let first = &refereed.iter().find(|g| g.seats[0] == "fake").unwrap();
            assert_eq!(first.forfeit, Some(0), "{}: {first:?}", variant.name());
            let kind = if text == &malformed { "garbage" } else { "illegal move" };
            assert_eq!(first.reason, kind, "{}: {text:?}: {first:?}", variant.name());
        }
        games += refereed.len();
    }
    games
}

/// A fake engine that declares the options a match sets and answers every `go` with `text`.
fn fake_engine(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(format!("fake-{name}-{}.sh", text.len()));
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name fake'; \
         echo 'option name UCI_Variant type string default impasse'; \
         echo 'option name Players type spin default 2 min 2 max 4'; echo uciok ;;\n    \
         isready) echo readyok ;;\n    go*) echo 'bestmove {text}' ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    format!("cmd=sh {}", path.display())
}

/// A text the rules read as no step of the game at all in `pos`.
fn malformed_text<G: Rules>(pos: &G) -> String {
    let candidates = ["@@", "zz9", "!", "x-"];
    let found = candidates.iter().find(|t| matches!(pos.parse_step(t), Err(MoveTextError::Malformed { .. })));
    found.expect("a malformed text").to_string()
}

/// A step text of the game that the rules refuse as illegal at the first decision from `start`
/// (after any roll, in a game that starts with one): a step of a later position of a game.
fn illegal_text<G: Rules>(start: &G) -> String {
    let firsts: Vec<G> = match start.node() {
        Node::Chance => {
            (0..start.chance_total()).map(|i| start.play(start.chance_step(i).unwrap())).collect()
        }
        _ => vec![*start],
    };
    let illegal =
        |text: &str| firsts.iter().all(|p| matches!(p.parse_step(text), Err(MoveTextError::Illegal { .. })));
    let mut rng = SplitMix64(11);
    for _ in 0..50 {
        let mut pos = *start;
        for _ in 0..40 {
            if pos.node() == Node::Over {
                break;
            }
            let steps = pos.legal_steps();
            if let Some(text) = steps.iter().map(|s| s.to_string()).find(|t| illegal(t)) {
                return text;
            }
            pos = pos.play(steps[rng.below(steps.len())]);
        }
    }
    panic!("no step text of the game is illegal at its first decision")
}

/// The games of a record file, board (PGN-like) or dice (JSON lines).
fn read_record(text: &str, dice: bool) -> Vec<Refereed> {
    use steere::tools::matches::{dice::record::parse_dice_records, record::parse_records};
    if dice {
        let records = parse_dice_records(text).unwrap();
        let game = |r: steere::tools::matches::record::jsonl::DiceRecord| Refereed {
            winner: r.winner(),
            start: r.start,
            seats: r.seats,
            steps: r.events.split_whitespace().map(String::from).collect(),
            reason: r.reason,
            forfeit: r.forfeit.map(|s| s - 1),
        };
        return records.into_iter().map(game).collect();
    }
    let game = |g: steere::tools::matches::record::ParsedGame| {
        let winner = match g.result.as_str() {
            "1-0" => Some(0),
            "0-1" => Some(1),
            _ => None,
        };
        let reason = g.tag("Reason").unwrap().split(':').next().unwrap().to_string();
        let fault = !NOT_FAULTS.contains(&reason.as_str());
        Refereed {
            start: g.tag("FEN").unwrap().to_string(),
            seats: vec![g.tag("White").unwrap().to_string(), g.tag("Black").unwrap().to_string()],
            steps: g.moves.clone(),
            forfeit: winner.filter(|_| fault).map(|w| 1 - w),
            winner,
            reason,
        }
    };
    parse_records(text).unwrap().into_iter().map(game).collect()
}

/// One refereed game against the rules: every step was legal where it was played (a roll a
/// chance outcome), and the recorded ending is the rules' at the final position: a win where the
/// rules end the game, a draw where the position repeated, a game still running at a cap or
/// turn limit, and a fault where the fake was to decide and the rules refuse its `fake` text as
/// the fault's category says; the other player wins a forfeit of two, nobody one of more.
fn check_refereed<G: Rules>(variant: Variant<G>, game: &Refereed, players: usize, fake: Option<&str>) {
    let name = variant.name();
    let start = variant.parse_fen(&game.start).unwrap();
    assert_eq!(start.players(), players, "{name}: {game:?}");
    let mut history = GameHistory::new(start);
    for (i, text) in game.steps.iter().enumerate() {
        let pos = *history.current();
        assert!(
            pos.node() != Node::Over && !history.is_threefold(),
            "{name}: step {i} after the end: {game:?}"
        );
        let step =
            pos.parse_step(text).unwrap_or_else(|e| panic!("{name}: step {i} '{text}': {e}: {game:?}"));
        assert!(pos.legal_steps().contains(&step), "{name}: step {i} '{text}' is not legal in {}", pos.fen());
        if pos.node() == Node::Chance {
            let drawn = (0..pos.chance_total()).any(|i| pos.chance_step(i) == Some(step));
            assert!(drawn, "{name}: roll {text} is no elementary outcome of {}", pos.fen());
        }
        history.play(step);
    }
    let pos = *history.current();
    let running = pos.node() != Node::Over && !history.is_threefold();
    match game.reason.as_str() {
        "normal" => {
            assert_eq!(pos.node(), Node::Over, "{name}: {game:?}");
            assert_eq!(game.winner, rules::winner(&pos), "{name}: the rules' result: {game:?}");
        }
        "repetition" => assert!(history.is_threefold() && game.winner.is_none(), "{name}: {game:?}"),
        "draw cap" | "unfinished" => assert!(running && game.winner.is_none(), "{name}: {game:?}"),
        fault => {
            let seat = game.forfeit.expect("a fault names its seat");
            assert!(running && pos.node() == Node::Decision && pos.to_move() == seat, "{name}: {game:?}");
            assert_eq!(game.seats[seat], "fake", "{name}: only the fake faults: {game:?}");
            let want = match pos.parse_step(fake.unwrap()) {
                Err(MoveTextError::Malformed { .. }) => "garbage",
                Err(MoveTextError::Illegal { .. }) => "illegal move",
                Ok(_) => panic!("{name}: the referee refused a legal step: {game:?}"),
            };
            assert_eq!(fault, want, "{name}: {game:?}");
            assert_eq!(game.winner, (players == 2).then(|| 1 - seat), "{name}: {game:?}");
        }
    }
}

#[test]
fn the_match_referee_agrees_with_the_rules_at_every_step() {
    let dir = std::env::temp_dir().join(format!("steere-conformance-referee-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for info in &variants::VARIANTS {
        let games =
            steere::with_variant!(info.name, |variant, _search| referee_agrees(variant, &dir)).unwrap();
        assert!(games >= 6, "{}: only {games} games", info.name);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
