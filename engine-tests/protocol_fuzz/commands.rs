//! The mix of fuzzed lines: valid commands of every kind, with valid and invalid values, and
//! garbage ([`super::garbage`]), `position` lines ([`super::positions`]) and searches
//! ([`super::searches`]).
//!
//! Each generator returns one or a few [`Step`]s whose expected effect it computes from the
//! model and the references, never from the engine.

use super::checker::Checker;
use super::common::Rng;
use super::games::Game;
use super::garbage::{garbage, junk_prefix, mutate_token};
use super::model::{Dialect, Model, Outcome};
use super::positions::{Pool, position};
use super::searches::{go, refused_while_searching};
use super::step::{Effect, Step};

/// The next few lines to send, now and then with other blank space between the tokens and a
/// CR LF line end (which the protocol reads alike).
pub fn next(model: &Model, checker: &Checker, pool: &Pool, rng: &mut Rng) -> Vec<Step> {
    let mut steps = draw(model, checker, pool, rng);
    for step in &mut steps {
        if rng.below(20) == 0 && step.bytes.len() < 10_000 {
            step.bytes = respell(&step.bytes, rng);
        }
    }
    steps
}

/// `line` with each space a random run of spaces and tabs, and sometimes a final `\r`.
fn respell(line: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    for &byte in line {
        if byte == b' ' {
            for _ in 0..1 + rng.below(3) {
                out.push([b' ', b'\t'][rng.below(2)]);
            }
        } else {
            out.push(byte);
        }
    }
    if rng.below(2) == 0 {
        out.push(b'\r');
    }
    out
}

/// One draw of the mix.
fn draw(model: &Model, checker: &Checker, pool: &Pool, rng: &mut Rng) -> Vec<Step> {
    let waiting = checker.sent.iter().any(|s| s.waits || s.pondering);
    if waiting && rng.below(4) == 0 {
        let pondering = checker.sent.iter().any(|s| s.pondering);
        let line = if pondering && rng.below(2) == 0 { "ponderhit" } else { "stop" };
        return vec![release(line)];
    }
    match rng.below(1000) {
        0..=139 => vec![garbage(rng)],
        140..=159 => vec![prefixed(model, rng)],
        160..=409 => vec![position(model, pool, rng)],
        410..=499 => go(model, rng),
        500..=514 if checker.busy_waiting().is_some() => vec![refused_while_searching(model, rng)],
        500..=539 => vec![Step::new("isready", 0, Effect::Ready)],
        540..=689 => vec![query(model, rng)],
        690..=719 => vec![Step::new(["d", "d extra"][rng.below(2)], 0, Effect::Display)],
        720..=754 => vec![perft(model, rng)],
        755..=864 => setoption(model, rng),
        865..=884 => vec![Step::inert(["ucinewgame", "uginewgame"][rng.below(2)], 0).idle()],
        885..=894 => vec![hello(rng)],
        895..=904 => vec![debug(rng)],
        905..=906 => vec![Step::new("bench 1", 0, Effect::Bench).idle(), release("stop")],
        907..=916 => vec![perft_stopped(rng), release("stop")],
        _ => vec![release(["stop", "ponderhit", "stop now"][rng.below(3)])],
    }
}

/// `stop` or `ponderhit` (which may find nothing to act on: then they are ignored silently).
fn release(line: &str) -> Step {
    let effect = if line.starts_with("stop") { Effect::Stop } else { Effect::PonderHit };
    Step::new(line, 0, effect)
}

/// `debug on|off`, or a malformed `debug` (an error).
fn debug(rng: &mut Rng) -> Step {
    match rng.below(4) {
        0 => Step::inert("debug on", 0),
        1 => Step::inert("debug off", 0),
        2 => Step::inert("debug", 1),
        _ => Step::inert("debug maybe", 1),
    }
}

/// `uci` or `ugi`, mid-session.
fn hello(rng: &mut Rng) -> Step {
    if rng.below(2) == 0 {
        Step::new("uci", 0, Effect::Hello(Dialect::Uci))
    } else {
        Step::new("ugi", 0, Effect::Hello(Dialect::Ugi))
    }
}

/// A harmless command after unknown words, which are skipped with a warning.
fn prefixed(model: &Model, rng: &mut Rng) -> Step {
    let prefix = junk_prefix(rng);
    let inner = match rng.below(3) {
        0 => Step::new("isready", 0, Effect::Ready),
        1 => query(model, rng),
        _ => Step::new("d", 0, Effect::Display),
    };
    let mut bytes = format!("{prefix} ").into_bytes();
    bytes.extend_from_slice(&inner.bytes);
    Step { bytes, ..inner }
}

/// A query, valid (answered from the model and the reference) or malformed (an error).
fn query(model: &Model, rng: &mut Rng) -> Step {
    let (game, fen, outcome) = (model.game, model.fen(), model.outcome());
    let answer = |q: &str, a: String| {
        let position = q == "fen";
        Step::new(format!("query {q}"), 0, Effect::Query { answer: Some(a), position })
    };
    match rng.below(11) {
        0 => answer("gameover", (outcome != Outcome::Ongoing).to_string()),
        1 => answer("p1turn", (game.to_move(fen) == 1).to_string()),
        2 => answer("turn", format!("p{}", game.to_move(fen))),
        3 => answer(
            "result",
            match outcome {
                Outcome::Ongoing => "none".to_string(),
                Outcome::Won(player) => format!("p{player}win"),
                Outcome::Drawn => "draw".to_string(),
            },
        ),
        4 | 5 => answer("fen", fen.to_string()),
        6 | 7 => {
            let moves = game.moves(fen);
            let candidate = match moves.get(rng.below(moves.len().max(1))) {
                Some((mv, _)) if rng.below(2) == 0 => mv.clone(),
                Some((mv, _)) => mutate_token(mv, rng),
                None => mutate_token("d2e3", rng),
            };
            let legal = game.play(fen, &candidate).is_some();
            // In a game drawn by repetition the board still has moves: the answer is not
            // predicted there (see the report of issue 22).
            let expected =
                (outcome != Outcome::Drawn).then(|| (legal && outcome == Outcome::Ongoing).to_string());
            Step::new(
                format!("query islegal {candidate}"),
                0,
                Effect::Query { answer: expected, position: false },
            )
        }
        8 => Step::inert(
            ["query", "query weather", "query islegal", "query fen now", "query FEN"][rng.below(5)],
            1,
        ),
        9 => Step::inert("query islegal a1 b2", 1),
        _ => answer("p1turn  ", (game.to_move(fen) == 1).to_string()),
    }
}

/// `perft N` for a small N (the reference must count the same), or a malformed one.
fn perft(model: &Model, rng: &mut Rng) -> Step {
    let small = model.game.moves(model.fen()).len() <= 12 && !model.game.is_roll(model.fen());
    match rng.below(10) {
        0 => Step::inert(
            ["perft", "perft -1", "perft x", "perft 2 3", "perft 99999999999", "perft 1.5"][rng.below(6)],
            1,
        )
        .idle(),
        1 if small => Step::new("perft 3", 0, Effect::Perft { depth: 3, stoppable: false }).idle(),
        2 => Step::new("perft 0", 0, Effect::Perft { depth: 0, stoppable: false }).idle(),
        3..=5 => Step::new("perft 2", 0, Effect::Perft { depth: 2, stoppable: false }).idle(),
        _ => Step::new("perft 1", 0, Effect::Perft { depth: 1, stoppable: false }).idle(),
    }
}

/// A `perft` too deep to finish, which the `stop` sent after it must end.
fn perft_stopped(rng: &mut Rng) -> Step {
    let depth = 20 + rng.below(20) as u32;
    Step::new(format!("perft {depth}"), 0, Effect::Perft { depth, stoppable: true }).idle()
}

/// The spellings of an option name the engine must accept (case, spaces and underscores are
/// ignored).
fn spell(name: &str, rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => name.to_lowercase(),
        1 => name.to_uppercase().replace(' ', ""),
        2 => name.replace(' ', "_"),
        _ => name.to_string(),
    }
}

/// `setoption`: every option with valid values (and their effect on the model), bad values,
/// unknown names and bad syntax. The options that touch the search table or the game are sent
/// to an idle engine only.
fn setoption(model: &Model, rng: &mut Rng) -> Vec<Step> {
    let set =
        |name: &str, value: &str, rng: &mut Rng| format!("setoption name {} value {value}", spell(name, rng));
    let step = match rng.below(22) {
        0 => Step::inert(set("Hash", &(1 + rng.below(32)).to_string(), rng), 0).idle(),
        1 => Step::inert(set("Threads", &(1 + rng.below(2)).to_string(), rng), 0).idle(),
        2 => Step::inert(set("MoveOverhead", &[0, 5, 25, 100, 5000][rng.below(5)].to_string(), rng), 0),
        3 | 4 => {
            let on = rng.below(2) == 0;
            Step::new(set("Ponder", &on.to_string(), rng), 0, Effect::Ponder(on))
        }
        5 => {
            let players = 2 + rng.below(3);
            Step::new(set("Players", &players.to_string(), rng), 0, Effect::Players(players))
        }
        6 => {
            let value = ["search", "rule28", "glenn", "greedy", "random"][rng.below(5)];
            Step::new(set("Strategy", value, rng), 0, Effect::Strategy(value != "search"))
        }
        7 => Step::inert(set("Seed", &[0, 1, 42, 4294967295u64][rng.below(4)].to_string(), rng), 0),
        8 => Step::inert(format!("setoption name {}", spell("Clear Hash", rng)), 0).idle(),
        9 => {
            let value = match rng.below(3) {
                0 => model.game.name().to_uppercase(),
                1 => model.game.name().to_string(),
                _ => format!("{}{}", &model.game.name()[..1].to_uppercase(), &model.game.name()[1..]),
            };
            Step::inert(format!("setoption name UCI_Variant value {value}"), 0).idle()
        }
        10 => return switch_away_and_back(model, rng),
        11 => Step::inert(
            [
                "setoption name debug value true",
                "setoption name debug value false",
                "setoption name OwnBook value false",
            ][rng.below(3)],
            0,
        ),
        12..=16 => Step::inert(bad_value(rng), 1).idle(),
        17 => Step::inert(
            format!(
                "setoption name {} value 1",
                ["Contempt", "MultiPV", "UCI_Chess960", "Skill"][rng.below(4)]
            ),
            1,
        ),
        18 => Step::inert(
            ["setoption", "setoption name", "setoption foo", "setoption name value 3", "setoption value 3"]
                [rng.below(5)],
            1,
        ),
        19 => Step::inert("setoption name OwnBook value true", 1),
        20 => Step::inert(set("Hash", "", rng), 1).idle(),
        _ => Step::inert(
            format!("setoption name {}", ["Hash", "Threads", "Ponder", "Players", "Seed"][rng.below(5)]),
            1,
        )
        .idle(),
    };
    vec![step]
}

/// An out-of-range or malformed value of a known option.
fn bad_value(rng: &mut Rng) -> String {
    let (name, values): (&str, &[&str]) = match rng.below(9) {
        0 => ("Hash", &["0", "65537", "-1", "abc", "1.5", "99999999999999999999"]),
        1 => ("Threads", &["0", "257", "x", "-3"]),
        2 => ("MoveOverhead", &["-1", "5001", "fast"]),
        3 => ("Ponder", &["maybe", "yes", "1", "on"]),
        4 => ("UCI_Variant", &["chess", "impasse2", "dipole 10", "hex"]),
        5 => ("Players", &["1", "5", "x", "0"]),
        6 => ("Strategy", &["clever", "Rule 28", "0"]),
        7 => ("Seed", &["-1", "4294967296", "seed"]),
        _ => ("Clear Hash", &["now"]),
    };
    if name == "Clear Hash" {
        // A button takes no value; whether one is refused is not specified, so it is sent with
        // an unknown name instead.
        return "setoption name Clear Hashes".to_string();
    }
    format!("setoption name {name} value {}", values[rng.below(values.len())])
}

/// Another variant, a query in it, and back: each switch starts that game's start position.
fn switch_away_and_back(model: &Model, rng: &mut Rng) -> Vec<Step> {
    let others: Vec<Game> = Game::ALL.into_iter().filter(|g| *g != model.game).collect();
    let other = others[rng.below(others.len())];
    let mut away = model.clone();
    away.game = other;
    away.reset_to_start();
    vec![
        Step::new(format!("setoption name UCI_Variant value {}", other.name()), 0, Effect::Variant(other))
            .idle(),
        Step::new("query fen", 0, Effect::Query { answer: Some(away.fen().to_string()), position: true }),
        Step::new(
            format!("setoption name UCI_Variant value {}", model.game.name()),
            0,
            Effect::Variant(model.game),
        )
        .idle(),
    ]
}
