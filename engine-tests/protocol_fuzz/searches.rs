//! `go` lines: every limit with small values (so that a run stays short), `infinite` and
//! `ponder` (released later by `stop` or `ponderhit`), `searchmoves`, unknown tokens, malformed
//! values (refused: no search, no `bestmove`), and the commands an engine must refuse while it
//! searches.

use super::common::Rng;
use super::games::Game;
use super::model::{Model, Outcome};
use super::step::{Effect, GoSpec, Step};

/// A `go` with limits that end it soon.
fn limited(game: Game, rng: &mut Rng) -> String {
    let depth = 1 + rng.below(if game == Game::CantStop { 2 } else { 3 });
    let ms = |rng: &mut Rng| [0, 1, 5, 10, 20, 40][rng.below(6)];
    match rng.below(11) {
        0 | 1 => format!("go depth {depth}"),
        2 => format!("go nodes {}", 1 + rng.below(3000)),
        3 | 4 => format!("go movetime {}", ms(rng)),
        5 => format!("go movetime -{}", 1 + rng.below(100)),
        6 => format!(
            "go wtime {} btime {} winc {} binc {}{}",
            rng.below(3000),
            rng.below(3000),
            rng.below(50),
            rng.below(50),
            [" movestogo 5", ""][rng.below(2)]
        ),
        7 => format!(
            "go p1time {} p2time {} p1inc {} p2inc 0",
            rng.below(3000),
            rng.below(3000),
            rng.below(50)
        ),
        8 => format!("go depth {depth} nodes {} movetime {}", 1 + rng.below(5000), 1 + ms(rng)),
        9 => format!("go mate {} depth {depth}", 1 + rng.below(3)),
        _ => format!("go {} depth {depth}", ["foo", "wdepth", "1", "-"][rng.below(4)]),
    }
}

/// `searchmoves` with one to three legal moves, sometimes with a broken one among them: the
/// text and the legal ones (a broken move is reported as an error and left out).
fn searchmoves(model: &Model, rng: &mut Rng) -> (String, Vec<String>, usize) {
    let moves = model.game.moves(model.fen());
    let mut chosen: Vec<String> = (0..1 + rng.below(3))
        .filter_map(|_| moves.get(rng.below(moves.len().max(1))).map(|(m, _)| m.clone()))
        .collect();
    chosen.dedup();
    let mut text = chosen.join(" ");
    let mut errors = 0;
    if rng.below(4) == 0 {
        text.push_str(" zz9");
        // Only a search reads its moves: a finished game or a roll is answered without one.
        errors = usize::from(model.outcome() == Outcome::Ongoing && !model.game.is_roll(model.fen()));
    }
    (text, chosen, errors)
}

/// A random `go`, as one or two steps; a search that waits for `stop` is released by a later
/// step (see [`super::commands::next`]) or by the session before a command that needs an idle
/// engine.
pub fn go(model: &Model, rng: &mut Rng) -> Vec<Step> {
    let game = model.game;
    let accepted = |line: String, spec: GoSpec| Step::new(line, 0, Effect::Go(spec)).idle();
    let ends = GoSpec { ends: true, ..GoSpec::default() };
    let step = match rng.below(20) {
        0..=8 => accepted(limited(game, rng), ends),
        9 => {
            let (moves, only, errors) = searchmoves(model, rng);
            let depth = 1 + rng.below(2);
            let line = format!("go depth {depth} searchmoves {moves}");
            // With no legal move left the engine says so in an `info string` (not an error).
            let step = Step { errors: Some(errors), ..accepted(line, GoSpec { only, ..ends }) };
            if errors > 0 {
                step.labelled("a malformed go searchmoves move is not reported").synced()
            } else {
                step
            }
        }
        10 => {
            let line = ["go", "go mate 3", "go depth 120", "go depth 4000000000"][rng.below(4)].to_string();
            accepted(line, GoSpec::default())
        }
        11 | 12 => {
            let extra = ["", " depth 2", " movetime 10", " nodes 100"][rng.below(4)];
            accepted(format!("go infinite{extra}"), GoSpec { infinite: true, ..GoSpec::default() })
        }
        13 | 14 => {
            let (extra, ends) = match rng.below(4) {
                0 => ("", false),
                1 => (" movetime 20", true),
                2 => (" wtime 1000 btime 1000", true),
                _ => (" depth 1", true),
            };
            accepted(format!("go ponder{extra}"), GoSpec { ponder: true, ends, ..GoSpec::default() })
        }
        15 => accepted(
            "go ponder infinite".to_string(),
            GoSpec { ponder: true, infinite: true, ..GoSpec::default() },
        ),
        _ => Step::inert(malformed(rng), 1),
    };
    vec![step]
}

/// A `go` with a malformed value: refused with one error.
fn malformed(rng: &mut Rng) -> String {
    let lines = [
        "go depth x",
        "go depth",
        "go nodes -5",
        "go movetime",
        "go mate 0",
        "go mate -1",
        "go depth 99999999999999999999",
        "go wtime 1.5",
        "go movetime 10 depth",
        "go nodes 1e3",
        "go movestogo -1",
        "go winc",
    ];
    lines[rng.below(lines.len())].to_string()
}

/// A command that needs an idle engine, sent while a search waits for `stop`: refused with one
/// error, no effect (synced at once, so that no later `stop` can overtake it).
pub fn refused_while_searching(model: &Model, rng: &mut Rng) -> Step {
    let other = Game::ALL.into_iter().find(|g| *g != model.game).unwrap();
    let variant = format!("setoption name UCI_Variant value {}", other.name());
    let lines = [
        "go depth 1",
        "ucinewgame",
        "perft 1",
        "bench 1",
        "setoption name Hash value 8",
        "setoption name Threads value 1",
        "setoption name Clear Hash",
        variant.as_str(),
    ];
    Step::inert(lines[rng.below(lines.len())], 1)
        .synced()
        .labelled("a command is not refused during a search")
}
