//! `position` lines: games continued with random legal moves, restarts, earlier and random small
//! positions, and broken ones (misspelt moves and FENs, bad syntax).
//!
//! Whether the engine must accept a line is decided by the reference alone: every FEN is read
//! by the reference and every move played by it ([`super::model::extend`]); a line is accepted
//! exactly when the reference accepts all of it, and must then leave the engine at the
//! reference's position.

use super::common::Rng;
use super::games::Game;
use super::garbage::{mutate_fen, mutate_token};
use super::model::{Model, Outcome, extend, outcome_of};
use super::step::{Effect, Line, Step};

/// Positions reached so far in the run, offered again as `position fen`.
#[derive(Default)]
pub struct Pool {
    fens: Vec<(Game, String)>,
}

impl Pool {
    /// Remembers a position of `game` (a bounded random sample of them).
    pub fn add(&mut self, game: Game, fen: &str, rng: &mut Rng) {
        if self.fens.len() < 500 {
            self.fens.push((game, fen.to_string()));
        } else {
            let at = rng.below(self.fens.len());
            self.fens[at] = (game, fen.to_string());
        }
    }

    /// A position of `game` seen before, if any.
    fn pick(&self, game: Game, rng: &mut Rng) -> Option<String> {
        let candidates: Vec<&String> = self.fens.iter().filter(|(g, _)| *g == game).map(|(_, f)| f).collect();
        (!candidates.is_empty()).then(|| candidates[rng.below(candidates.len())].clone())
    }
}

/// A random legal move (or event) of the last position of `fens`, with the FEN after it; for
/// a roll, the four dice in random order (the protocol reads any order). `None` once the game
/// is over.
fn random_move(game: Game, fens: &[String], rng: &mut Rng) -> Option<(String, String)> {
    if outcome_of(game, fens) != Outcome::Ongoing {
        return None;
    }
    let fen = fens.last().unwrap();
    if game.is_roll(fen) {
        let dice: String = (0..4).map(|_| char::from(b'1' + rng.below(6) as u8)).collect();
        let token = format!("r{dice}");
        let after = game.play(fen, &token).expect("every roll is legal in a roll phase");
        return Some((token, after));
    }
    let moves = game.moves(fen);
    (!moves.is_empty()).then(|| moves[rng.below(moves.len())].clone())
}

/// Up to `count` random legal moves after the line `fens`: the moves and the extended line.
fn continue_line(game: Game, fens: &[String], count: usize, rng: &mut Rng) -> (Vec<String>, Vec<String>) {
    let (mut moves, mut line) = (Vec::new(), fens.to_vec());
    for _ in 0..count {
        let Some((mv, after)) = random_move(game, &line, rng) else { break };
        moves.push(mv);
        line.push(after);
    }
    (moves, line)
}

/// The text of a `position` line.
fn render(start: &str, moves: &[String]) -> String {
    let mut text = format!("position {start}");
    if !moves.is_empty() {
        text.push_str(" moves");
    }
    for mv in moves {
        text.push(' ');
        text.push_str(mv);
    }
    text
}

/// A `position` line the engine must accept, leaving it at `line`.
fn accepted(text: String, line: Line) -> Step {
    Step::new(text, 0, Effect::Position { line: Some(line), check: false })
}

/// The current game, continued by a few random moves: as a whole `startpos` line, from the
/// line's own start, or from the current position (which starts a new history).
fn continued(model: &Model, rng: &mut Rng) -> Step {
    let count = 1 + rng.below(6);
    match rng.below(3) {
        0 if model.from_startpos => {
            let (extra, fens) = continue_line(model.game, &model.fens, count, rng);
            let moves: Vec<String> = model.moves.iter().cloned().chain(extra).collect();
            accepted(render("startpos", &moves), Line { from_startpos: true, moves, fens })
        }
        1 => {
            let (extra, fens) = continue_line(model.game, &model.fens, count, rng);
            let moves: Vec<String> = model.moves.iter().cloned().chain(extra).collect();
            let start =
                if model.from_startpos { "startpos".to_string() } else { format!("fen {}", model.fens[0]) };
            accepted(render(&start, &moves), Line { from_startpos: model.from_startpos, moves, fens })
        }
        _ => {
            let here = vec![model.fen().to_string()];
            let (moves, fens) = continue_line(model.game, &here, count, rng);
            accepted(
                render(&format!("fen {}", model.fen()), &moves),
                Line { from_startpos: false, moves, fens },
            )
        }
    }
}

/// `position fen F [moves ...]` from `fen`, a valid position.
fn from_fen(model: &Model, fen: String, rng: &mut Rng) -> Step {
    let (moves, fens) = continue_line(model.game, std::slice::from_ref(&fen), rng.below(4), rng);
    accepted(render(&format!("fen {fen}"), &moves), Line { from_startpos: false, moves, fens })
}

/// A line whose moves are misspelt or illegal somewhere (the reference judges each).
fn broken_moves(model: &Model, rng: &mut Rng) -> Step {
    let (from_startpos, base) = if model.from_startpos && rng.below(2) == 0 {
        (true, model.fens.clone())
    } else {
        (false, vec![model.fen().to_string()])
    };
    let known: Vec<String> = if from_startpos { model.moves.clone() } else { Vec::new() };
    let (mut extra, _) = continue_line(model.game, &base, 1 + rng.below(4), rng);
    let at = rng.below(extra.len() + 1);
    let bad = match extra.get(at) {
        Some(mv) => mutate_token(mv, rng),
        None => mutate_token(["d2e3", "e1e5", "a4-a5", "5.5", "roll"][rng.below(5)], rng),
    };
    if at < extra.len() {
        extra[at] = bad;
    } else {
        extra.push(bad);
    }
    let start = if from_startpos { "startpos".to_string() } else { format!("fen {}", base[0]) };
    let moves: Vec<String> = known.into_iter().chain(extra.iter().cloned()).collect();
    let text = render(&start, &moves);
    judged(text, extend(model.game, &base, &extra).map(|fens| Line { from_startpos, moves, fens }))
}

/// A misspelt FEN (the reference judges it).
fn broken_fen(model: &Model, pool: &Pool, rng: &mut Rng) -> Step {
    let original = pool.pick(model.game, rng).unwrap_or_else(|| model.fen().to_string());
    let text = mutate_fen(&original, rng);
    let line = model.game.parse_fen(&text).map(|fen| Line {
        from_startpos: false,
        moves: Vec::new(),
        fens: vec![fen],
    });
    judged(format!("position fen {text}"), line)
}

/// A line the reference accepted (`Some`) or refused, checked by `query fen` right after.
fn judged(text: String, line: Option<Line>) -> Step {
    let errors = usize::from(line.is_none());
    Step::new(text, errors, Effect::Position { line, check: true })
}

/// Lines that are wrong by their syntax alone, and odd ones that are right.
fn syntax(model: &Model, rng: &mut Rng) -> Step {
    let start = Line { from_startpos: true, moves: Vec::new(), fens: vec![model.start_fen()] };
    match rng.below(9) {
        0 => Step::inert("position", 1),
        1 => Step::inert("position fen", 1),
        2 => Step::inert("position nowhere", 1),
        3 => Step::inert("position moves d2e3", 1),
        4 => Step::inert("position fen moves", 1),
        5 => Step::inert(format!("position {}", model.fen()), 1),
        // Unknown words after `startpos` are skipped with a warning.
        6 => accepted("position startpos foo bar".to_string(), start),
        7 => accepted("position startpos".to_string(), start),
        _ => accepted("position startpos moves".to_string(), start),
    }
}

/// HexDame: two kings shuttling (`a-b`, `c-d`, `b-a`, `d-c`, twice) from the current position,
/// so that it occurs for the third time and the game is drawn; sometimes one move more, which
/// the engine must refuse. Random games reach a draw by repetition only rarely. `None` when no
/// two such king moves are found.
fn shuttle(model: &Model, rng: &mut Rng) -> Option<Step> {
    let game = model.game;
    // The current position, else small ones, which often have kings.
    let starts = std::iter::once(model.fen().to_string())
        .chain((0..5).filter_map(|_| game.random_small_position(rng)));
    let starts: Vec<String> = starts.collect();
    starts.into_iter().find_map(|fen| shuttle_from(game, fen, rng))
}

/// [`shuttle`] from `fen`.
fn shuttle_from(game: Game, fen: String, rng: &mut Rng) -> Option<Step> {
    let reverse = |mv: &str| mv.split_once('-').map(|(a, b)| format!("{b}-{a}"));
    for _ in 0..10 {
        let (first, after_first) = random_move(game, std::slice::from_ref(&fen), rng)?;
        let (reply, after_reply) = random_move(game, &[fen.clone(), after_first.clone()], rng)?;
        let (Some(back), Some(back_reply)) = (reverse(&first), reverse(&reply)) else { continue };
        let cycle = [first, reply, back, back_reply];
        let mut moves: Vec<String> = cycle.iter().chain(cycle.iter()).cloned().collect();
        if game.play(&after_reply, &cycle[2]).is_none() {
            continue;
        }
        if rng.below(3) == 0 {
            moves.push(cycle[0].clone());
        }
        let here = vec![fen.clone()];
        let text = render(&format!("fen {fen}"), &moves);
        let line = extend(game, &here, &moves).map(|fens| Line { from_startpos: false, moves, fens });
        return Some(judged(text, line));
    }
    None
}

/// A random `position` line for the model's game.
pub fn position(model: &Model, pool: &Pool, rng: &mut Rng) -> Step {
    let game = model.game;
    // Finished games are worth a few lines, not most of them: most often, start a new one.
    if model.outcome() != Outcome::Ongoing && rng.below(3) != 0 {
        let (moves, fens) = continue_line(game, &[model.start_fen()], rng.below(5), rng);
        return accepted(render("startpos", &moves), Line { from_startpos: true, moves, fens });
    }
    match rng.below(100) {
        0..=44 => continued(model, rng),
        45..=51 => {
            let (moves, fens) = continue_line(game, &[model.start_fen()], rng.below(5), rng);
            accepted(render("startpos", &moves), Line { from_startpos: true, moves, fens })
        }
        52..=61 => match pool.pick(game, rng) {
            Some(fen) => from_fen(model, fen, rng),
            None => continued(model, rng),
        },
        62..=64 if game == Game::HexDame => shuttle(model, rng).unwrap_or_else(|| continued(model, rng)),
        62..=69 => match game.random_small_position(rng) {
            Some(fen) => from_fen(model, fen, rng),
            None => continued(model, rng),
        },
        70..=81 => broken_moves(model, rng),
        82..=91 => broken_fen(model, pool, rng),
        _ => syntax(model, rng),
    }
}
