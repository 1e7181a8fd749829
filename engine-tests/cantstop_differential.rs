//! The engine's Can't Stop rules (`steere::cantstop`) against the independent reference
//! (`engine-tests/cantstop_reference`, written from the contract alone): the legal events and
//! the position after every one of them, over more than 10,000 positions of seeded random
//! games of 2, 3 and 4 players; the perft file; and the properties the rules promise (FEN round
//! trip, markers within their columns, a bust gives back the turn's start, games end).

#[path = "cantstop_reference/mod.rs"]
mod cantstop_reference;

use cantstop_reference as reference;
use steere::cantstop::board::{COLUMNS, HEIGHTS};
use steere::cantstop::notation::event_text;
use steere::cantstop::{Event, Options, Phase, Position, Variant, odds};
use steere::tools::rng::SplitMix64;

/// The engine's legal events as text, and the FEN after each.
fn engine_moves(pos: &Position) -> Vec<(String, String)> {
    pos.legal_events().into_iter().map(|e| (event_text(e), pos.play(e).fen())).collect()
}

/// The reference's legal events as text, and the FEN after each.
fn reference_moves(fen: &str) -> Vec<(String, String)> {
    reference_moves_under(fen, &reference::Options::base())
}

/// [`reference_moves`] under the rule options `options`.
fn reference_moves_under(fen: &str, options: &reference::Options) -> Vec<(String, String)> {
    let pos = reference::Position::parse_with(fen, options)
        .unwrap_or_else(|e| panic!("reference rejects {fen} under {options:?}: {e}"));
    pos.legal_events()
        .into_iter()
        .map(|e| {
            let after =
                pos.play(&e).unwrap_or_else(|err| panic!("reference refuses its own {e} in {fen}: {err}"));
            (e, after.to_fen())
        })
        .collect()
}

/// A random decision of the player to move, with a bias to roll on so that games reach full
/// columns, tops and wins; `None` in a roll phase.
fn random_decision(pos: &Position, rng: &mut SplitMix64) -> Option<Event> {
    match pos.phase() {
        Phase::Roll => None,
        // Under must-roll `stop` may be refused: then the player rolls on.
        Phase::Decide => {
            Some(if rng.below(10) < 7 || !pos.may_stop() { Event::Continue } else { Event::Stop })
        }
        Phase::Choose(_) => {
            let events = pos.legal_events();
            Some(events[rng.below(events.len())])
        }
    }
}

/// The dice of a roll drawn from `rng` (four dice, each equally likely).
fn random_roll(rng: &mut SplitMix64) -> Event {
    let dice = std::array::from_fn(|_| rng.below(6) as u8 + 1);
    Event::Roll(steere::cantstop::Dice::new(dice).unwrap())
}

/// Plays seeded random games and calls `visit` on every position reached, with the event that
/// left it; returns the number of positions.
fn random_games(games: usize, seed: u64, visit: &mut dyn FnMut(&Position, Option<Event>)) -> usize {
    random_games_from(games, seed, &|game| Position::start(2 + game % 3), visit)
}

/// [`random_games`] from the starts `start(game)`.
fn random_games_from(
    games: usize,
    seed: u64,
    start: &dyn Fn(usize) -> Position,
    visit: &mut dyn FnMut(&Position, Option<Event>),
) -> usize {
    let mut rng = SplitMix64(seed);
    let mut positions = 0;
    for game in 0..games {
        let mut pos = start(game);
        for _ in 0..2000 {
            if pos.winner().is_some() {
                break;
            }
            let event = random_decision(&pos, &mut rng).unwrap_or_else(|| random_roll(&mut rng));
            visit(&pos, Some(event));
            positions += 1;
            pos = pos.play(event);
        }
        visit(&pos, None);
        positions += 1;
    }
    positions
}

#[test]
fn legal_events_and_positions_after_agree_with_the_reference() {
    let mut differences = Vec::new();
    let mut compared = 0;
    let positions = random_games(60, 0xC0FFEE, &mut |pos, _| {
        let fen = pos.fen();
        let (ours, theirs) = (engine_moves(pos), reference_moves(&fen));
        compared += ours.len();
        if ours != theirs && differences.len() < 5 {
            differences.push(format!("{fen}:\n  engine    {ours:?}\n  reference {theirs:?}"));
        }
    });
    assert!(positions >= 10_000, "only {positions} positions");
    assert!(
        differences.is_empty(),
        "{} of {positions} positions differ:\n{}",
        differences.len(),
        differences.join("\n")
    );
    assert!(compared > 500_000, "{compared} events compared");
}

/// Every combination of options the contract allows besides the base game: the engine's
/// options and the reference's, for `players` players.
fn option_sets() -> Vec<(usize, Options, reference::Options)> {
    let mut sets = Vec::new();
    for players in 2..=4 {
        for w in 3..=5u8 {
            for (ours, theirs) in [
                (Variant::None, reference::Variant::None),
                (Variant::Skip, reference::Variant::Skip),
                (Variant::MustRoll, reference::Variant::MustRoll),
            ] {
                let (Ok(engine), Ok(reference)) =
                    (Options::new(players, w, ours), reference::Options::new(players, u32::from(w), theirs))
                else {
                    // Both refuse what the contract does not offer (the table test checks it).
                    continue;
                };
                if engine != Options::BASE {
                    sets.push((players, engine, reference));
                }
            }
        }
    }
    sets
}

#[test]
fn under_every_option_set_events_and_positions_agree_with_the_reference() {
    let sets = option_sets();
    assert_eq!(sets.len(), 15, "2 players: 9 sets, 3 players: 6, 4 players: 3, less the base game's 3");
    let mut differences = Vec::new();
    let (mut positions, mut compared, mut refused_stops) = (0, 0, 0);
    for (k, (players, options, theirs)) in sets.iter().enumerate() {
        let start = |_: usize| Position::start_with(*players, *options);
        positions += random_games_from(8, 0xD1CE + k as u64, &start, &mut |pos, _| {
            let fen = pos.fen();
            let (ours, reference) = (engine_moves(pos), reference_moves_under(&fen, theirs));
            compared += ours.len();
            refused_stops += usize::from(pos.phase() == Phase::Decide && !pos.may_stop());
            if matches!(pos.phase(), Phase::Roll | Phase::Decide) && pos.winner().is_none() {
                let parsed = reference::Position::parse_with(&fen, theirs).unwrap();
                assert_eq!(odds::bust_outcomes(pos), parsed.bust_probability_1296(), "{fen} {options}");
            }
            if ours != reference && differences.len() < 5 {
                differences
                    .push(format!("{fen} ({options}):\n  engine    {ours:?}\n  reference {reference:?}"));
            }
            // Both read the position back under the options, and agree on who has won.
            assert_eq!(Position::parse_fen_with(&fen, *options).as_ref(), Ok(pos), "{fen}");
            let winner = reference::Position::parse_with(&fen, theirs).unwrap().winner();
            assert_eq!(pos.winner().map(|w| w + 1), winner, "{fen} {options}");
        });
    }
    assert!(differences.is_empty(), "positions differ:\n{}", differences.join("\n"));
    assert!(positions >= 10_000 && compared > 300_000, "{positions} positions, {compared} events");
    assert!(refused_stops > 50, "must-roll refused only {refused_stops} stops");
}

#[test]
fn bust_chances_and_choice_sets_agree_with_the_reference() {
    let mut checked = 0;
    random_games(12, 7, &mut |pos, _| {
        if matches!(pos.phase(), Phase::Roll | Phase::Decide) && pos.winner().is_none() {
            let theirs = reference::Position::parse(&pos.fen()).unwrap().bust_probability_1296();
            assert_eq!(odds::bust_outcomes(pos), theirs, "{}", pos.fen());
            checked += 1;
        }
    });
    assert!(checked > 500, "{checked}");
}

#[test]
fn the_perft_file_agrees() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/positions/cantstop-perft.txt"))
        .unwrap();
    let mut fen = None;
    let mut checked = 0;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(f) = line.strip_prefix("fen:") {
            fen = Some(Position::parse_fen(f.trim()).unwrap());
        } else if let Some(bust) = line.strip_prefix("bust:") {
            let outcomes: u32 = bust.trim().split('/').next().unwrap().parse().unwrap();
            assert_eq!(odds::bust_outcomes(fen.as_ref().unwrap()), outcomes, "{line}");
        } else {
            let mut words = line.split_whitespace();
            let depth: u32 = words.next().unwrap().parse().unwrap();
            let count: u64 = words.next().unwrap().parse().unwrap();
            assert_eq!(fen.as_ref().unwrap().perft(depth), count, "{} depth {depth}", fen.unwrap().fen());
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked} counts");
}

#[test]
fn properties_hold_in_random_games() {
    let mut turn_start: Option<Position> = None;
    let mut busts = 0;
    random_games(300, 99, &mut |pos, event| {
        // The FEN round trip.
        assert_eq!(Position::parse_fen(&pos.fen()).as_ref(), Ok(pos), "{}", pos.fen());
        // Markers never leave their columns; neutral markers stand above the mover's.
        for (c, &height) in HEIGHTS.iter().enumerate() {
            for p in 0..pos.players() {
                assert!(pos.marker(p, c) <= height, "{}", pos.fen());
            }
            assert!(pos.neutral(c) <= height, "{}", pos.fen());
        }
        assert!(pos.neutral_count() <= 3);
        if pos.is_turn_start() {
            turn_start = Some(*pos);
        }
        // A bust gives back the coloured markers of the turn's start, the next player to roll.
        if let Some(Event::Roll(dice)) = event
            && pos.choices(dice).is_empty()
        {
            let after = pos.play(Event::Roll(dice));
            let start = turn_start.expect("a turn has a start");
            for p in 0..pos.players() {
                for c in 0..COLUMNS {
                    assert_eq!(after.marker(p, c), start.marker(p, c), "{}", pos.fen());
                }
            }
            assert_eq!((after.to_move(), after.neutral_count()), (pos.next_player(pos.to_move()), 0));
            busts += 1;
        }
        // Every game ends (random_games stops at 2000 events: a finished game says it won).
        if event.is_none() {
            assert!(pos.winner().is_some(), "a game did not end: {}", pos.fen());
        }
    });
    assert!(busts > 100, "{busts} busts");
}

/// The contract's table of probabilities (positions/cantstop-nobust.tsv, copied from the rules
/// contract): for every set of 1, 2 or 3 columns, the outcomes of 1296 in which some pairing
/// makes a sum in the set, reproduced exactly by the engine's enumeration; for three columns
/// also as the chance of not busting with the neutral markers there.
#[test]
fn the_contract_probability_table_is_reproduced_exactly() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/positions/cantstop-nobust.tsv"))
        .unwrap();
    let mut lines = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.starts_with("columns")) {
        let fields: Vec<&str> = line.split('\t').collect();
        let columns: Vec<u8> = fields[0].split('-').map(|c| c.parse().unwrap()).collect();
        let outcomes: u32 = fields[1].parse().unwrap();
        assert_eq!(odds::hit_outcomes(&columns), outcomes, "{line}");
        assert_eq!(format!("{:.4}", odds::probability(outcomes)), fields[2], "{line}");
        if let [a, b, c] = columns[..] {
            let fen = format!("p2 00000000000/00000000000 {a}:1,{b}:1,{c}:1 1 s");
            let pos = Position::parse_fen(&fen).unwrap();
            assert_eq!(1296 - odds::bust_outcomes(&pos), outcomes, "{fen}");
        }
        lines += 1;
    }
    assert_eq!(lines, 11 + 55 + 165, "every set of one, two and three columns");
}

/// `--option` on the command line: perft and odds under the options agree with the reference
/// under them, where the options change the counts (must-roll takes `stop` away, 4 columns to
/// win keeps a game going that 3 would end, skip moves a marker past another's), and refused
/// options are one-line errors.
#[test]
fn command_line_options_count_as_the_reference_does() {
    let steere = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_steere")).args(args).output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let cases = [
        (
            "p2 00030000000/00000000000 5:3 2 s",
            "CantStopVariant=mustroll",
            reference::Options::new(2, 3, reference::Variant::MustRoll),
        ),
        (
            "p2 35000000000/00000000000 4:7 1 s",
            "ColumnsToWin=4",
            reference::Options::new(2, 4, reference::Variant::None),
        ),
    ];
    for (fen, option, theirs) in cases.clone() {
        let theirs = theirs.unwrap();
        let mut differs = false;
        for depth in [1, 2, 3, 4] {
            let expected = reference::perft(&reference::Position::parse_with(fen, &theirs).unwrap(), depth);
            let base = reference::perft(&reference::Position::parse(fen).unwrap(), depth);
            let (ok, out, err) = steere(&[
                "perft",
                "--variant",
                "cantstop",
                "--fen",
                fen,
                "--depth",
                &depth.to_string(),
                "--option",
                option,
            ]);
            assert!(ok, "{err}");
            assert!(
                out.starts_with(&format!("nodes {expected} ")),
                "{fen} {option} depth {depth}: {out} (reference {expected}, base {base})"
            );
            differs |= expected != base;
        }
        // The option changes the counts here, or the case would prove nothing.
        assert!(differs, "{fen}: {option} counts as the base game");
    }
    // Skip moves a marker past another's: the choices' positions, as `moves` lists them.
    let (fen, skip) =
        ("p2 00010000000/00000000000 - 2 c1414", reference::Options::new(2, 3, reference::Variant::Skip));
    let (ok, out, err) =
        steere(&["moves", "--variant", "cantstop", "--fen", fen, "--option", "CantStopVariant=skip"]);
    assert!(ok, "{err}");
    let listed: Vec<(String, String)> = out
        .lines()
        .map(|l| l.split_once(' ').map(|(e, f)| (e.to_string(), f.to_string())).unwrap())
        .collect();
    assert_eq!(listed, reference_moves_under(fen, &skip.unwrap()), "{fen}");
    assert_ne!(listed, reference_moves(fen), "skip changes where the marker lands");
    let (ok, out, _) = steere(&["odds", "--fen", cases[0].0, "--option", "CantStopVariant=mustroll"]);
    assert!(ok && !out.contains("stop"), "must-roll offers no stop: {out}");
    for (args, says) in [
        (
            vec!["perft", "--variant", "cantstop", "--depth", "1", "--option", "ColumnsToWin=6"],
            "--option: ColumnsToWin: value '6' is not a whole number from 3 to 5",
        ),
        (
            vec!["perft", "--variant", "impasse", "--depth", "1", "--option", "ColumnsToWin=4"],
            "--option: unknown option 'ColumnsToWin': this game has no rule options",
        ),
        (vec!["odds", "--option", "skip"], "--option: 'skip' is not NAME=VALUE"),
        (
            vec![
                "odds",
                "--fen",
                "p4 00000000000/00000000000/00000000000/00000000000 - 1 r",
                "--option",
                "ColumnsToWin=4",
            ],
            "not offered for 4 players",
        ),
    ] {
        let (ok, _, err) = steere(&args);
        assert!(!ok && err.lines().count() == 1 && err.contains(says), "{args:?}: {err}");
    }
}
