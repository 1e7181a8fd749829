//! One game between engines, refereed by the rules code ([`Rules`]): every game of the
//! registry, a board game being the case of two seats and no chance nodes.
//!
//! The runner never trusts an engine: before the game every seat's engine gets
//! `ucinewgame`/`isready` (an engine that is missing or broken is restarted first). Then, node
//! by node: at a **chance node** the referee draws the event itself from the game's dice stream
//! ([`dice::DiceStream`]); at a **decision node** the seat to move gets the whole game as
//! `position fen START moves S1 S2 ...` (every step so far, rolls included) and a `go` with the
//! clocks ([`ask`] does both, and the faults before the answer is read), and its `bestmove` is
//! checked in this order:
//! 1. it arrived at all: an engine that dies is a **crash**; one that says nothing before its
//!    clock (or fixed move time) plus the margin runs out loses by **time forfeit**, and one
//!    limited only by depth or nodes that says nothing within `--move-timeout` by **timeout**;
//! 2. in time: a move that took longer than allowed is a **time forfeit** too;
//! 3. a step: text that is not a step of the game's notation is **garbage**;
//! 4. legal: [`Rules::parse_step`] accepts only legal steps; anything else (including
//!    `bestmove (none)` at a decision) is an **illegal move**.
//!
//! **Forfeits.** The first fault ends the game at once, and the offender loses. With two
//! players the other one wins (so that Elo and the SPRT see every game); with three or four
//! **nobody wins**: picking a winner among the others by the position would reward whoever
//! happened to lead, and sharing the win would make fractional wins.
//!
//! **Limits of the one loop.** Otherwise the game ends when the rules say so, or at a limit:
//! in a game that can repeat a position, a draw by **threefold repetition**, which the referee
//! sees in its [`GameHistory`]; the runner's **draw cap** for endless board games ([`DrawCap`]:
//! N plies in a row of reversible moves, M plies in all; not a rule of any game); and the
//! **turn limit** of dice games (`--max-turns`: the rules set none), after which a game still
//! running is **unfinished**, with no winner.

pub mod ask;
pub mod category;
pub mod dice;
pub mod timing;

use crate::client::clock::Clock;
use crate::client::spec::EngineSpec;
use crate::client::{Engine, Fault, Reply};
use crate::game::{GameHistory, MoveTextError, Node, Rules};
use ask::{Deadlines, Forfeit};
use dice::DiceStream;
use std::sync::atomic::{AtomicBool, Ordering};
use timing::MoveTiming;

pub use category::Category;

/// One seat of a game: the engine process of a slot (started on demand) and its spec.
pub struct Player<'a> {
    /// The engine of this slot; `None` or broken: (re)started before the game.
    pub engine: &'a mut Option<Engine>,
    /// How to start it, its time control and options.
    pub spec: &'a EngineSpec,
    /// Its name in records.
    pub name: &'a str,
}

/// How the referee words what it asks and refuses, as the game's records call its steps.
#[derive(Clone, Copy, Debug)]
pub struct Words {
    /// What an answer is, in the detail of a time forfeit (`move`, `decision`).
    pub answer: &'static str,
    /// The detail of an empty `bestmove`.
    pub empty: &'static str,
    /// The detail of `bestmove (none)` where a step is due.
    pub none: &'static str,
    /// Whether the game is written with each answer as the engine gave it (the board games'
    /// records) rather than in the notation's own form (the dice games').
    pub as_given: bool,
}

/// Settings that apply to every game of a match.
#[derive(Clone, Copy, Debug)]
pub struct Referee<G> {
    /// How long a move may take.
    pub deadlines: Deadlines,
    /// The runner's cap for endless games (board games; off for dice games).
    pub cap: DrawCap,
    /// Turns in all after which a game is unfinished (dice games; `None`: no limit).
    pub max_turns: Option<u32>,
    /// Whether a turn starts at a position (a board game: at every ply).
    pub turn_start: fn(&G) -> bool,
    /// How the game's records word the faults.
    pub words: Words,
}

/// The runner's draw cap for endless games: `None` turns a limit off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawCap {
    /// A draw after this many plies in a row of reversible moves ([`Rules::may_recur_after`]).
    pub reversible_plies: Option<u32>,
    /// A draw after this many plies from the opening.
    pub max_plies: Option<u32>,
}

impl DrawCap {
    /// The cap of games that can repeat a position: 50 reversible plies (the spirit of the
    /// 25-move king rule of international draughts, which docs/rules/hexdame.md suggests to
    /// runners), 400 plies in all. Games that cannot repeat always end: no cap.
    pub fn default_for<G: Rules>() -> DrawCap {
        if G::DRAWS_BY_REPETITION {
            DrawCap { reversible_plies: Some(50), max_plies: Some(400) }
        } else {
            DrawCap::default()
        }
    }

    /// Why the game is drawn after `plies` plies, the last `reversible` of them reversible.
    pub fn reached(&self, plies: u32, reversible: u32) -> Option<String> {
        if let Some(n) = self.reversible_plies.filter(|&n| reversible >= n) {
            return Some(format!(
                "{n} plies in a row without an irreversible move (--draw-reversible-plies {n})"
            ));
        }
        let n = self.max_plies.filter(|&n| plies >= n)?;
        Some(format!("{n} plies played (--draw-max-plies {n})"))
    }
}

/// Which game of the match this is, and what it is dealt.
#[derive(Clone, Copy, Debug)]
pub struct GameId {
    /// The game number, from 1.
    pub number: u64,
    /// The deal (an opening pair, a dice stream), from 0.
    pub deal: u64,
    /// The seat rotation within the deal, from 0.
    pub rotation: usize,
    /// The seed of the deal's dice stream.
    pub dice_seed: u64,
}

/// One step of a game as played: its text, and the engine's answer for a decision.
#[derive(Clone, Debug)]
pub struct Step {
    /// The step in the game's notation.
    pub text: String,
    /// The answer that made it; `None` for a chance event.
    pub reply: Option<Reply>,
}

/// A game as the referee saw it, for a record to write down in its own encoding.
#[derive(Clone, Debug)]
pub struct Log {
    /// Which game of the match.
    pub id: GameId,
    /// Each seat's engine name, seat 0 first.
    pub names: Vec<String>,
    /// Each seat's settings (limits, options).
    pub settings: Vec<String>,
    /// The start position's text.
    pub start: String,
    /// The seat to move at the start.
    pub first_to_move: usize,
    /// The steps played, chance events included.
    pub steps: Vec<Step>,
    /// Turns completed.
    pub turns: u32,
    /// The match's turn limit (dice games).
    pub max_turns: Option<u32>,
    /// The winner's seat; `None` for a draw, an unfinished game, a forfeit with no winner.
    pub winner: Option<usize>,
    /// How the game ended.
    pub category: Category,
    /// The seat that forfeited, if one did.
    pub forfeit: Option<usize>,
    /// The detail: the fault's (without the seat), the limit's, or the rules' ending.
    pub detail: String,
    /// The timing of every decision under a clock or move time, by seat, the one that lost on
    /// time included.
    pub timings: Vec<(usize, MoveTiming)>,
}

/// Plays one game from `start` with `seats[s]` as player `s + 1`. Returns `None` if `stop`
/// was set during the game (the match is over; the game does not count).
pub fn play<G: Rules>(
    mut seats: Vec<Player<'_>>,
    start: G,
    referee: Referee<G>,
    id: GameId,
    stop: &AtomicBool,
) -> Option<Log> {
    let mut log = Log {
        id,
        names: seats.iter().map(|s| s.name.to_string()).collect(),
        settings: seats.iter().map(|s| s.spec.settings_text()).collect(),
        start: start.fen(),
        first_to_move: start.to_move(),
        steps: Vec::new(),
        turns: 0,
        max_turns: referee.max_turns,
        winner: None,
        category: Category::Normal,
        forfeit: None,
        detail: String::new(),
        timings: Vec::new(),
    };
    let players = seats.len();
    let forfeit = |mut log: Log, seat: usize, (category, detail): Forfeit| {
        // Two players: the other one wins; more: nobody (see the module docs).
        log.winner = (players == 2).then(|| 1 - seat);
        log.category = category;
        log.forfeit = Some(seat);
        log.detail = detail;
        Some(log)
    };
    let ended = |mut log: Log, category: Category, detail: String| {
        log.category = category;
        log.detail = detail;
        Some(log)
    };

    for (seat, player) in seats.iter_mut().enumerate() {
        if let Err(fault) = prepare(player) {
            return forfeit(log, seat, fault);
        }
    }
    let mut clocks: Vec<Clock> = seats.iter().map(|s| Clock::new(&s.spec.control)).collect();
    let mut dice = DiceStream::new(id.dice_seed);
    let mut history = GameHistory::new(start);
    let mut reversible = 0;
    let mut moves_text = String::new();
    loop {
        let pos = *history.current();
        if pos.node() == Node::Over {
            break;
        }
        if history.is_threefold() {
            return ended(log, Category::Repetition, format!("{} occurred for the third time", pos.fen()));
        }
        if let Some(why) = referee.cap.reached(log.steps.len() as u32, reversible) {
            return ended(log, Category::DrawCap, why);
        }
        let (step, reply) = if pos.node() == Node::Chance {
            (dice.roll(&pos), None)
        } else {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let seat = pos.to_move();
            let engine = seats[seat].engine.as_mut().expect("prepared engines are present");
            let position = format!("position fen {}{moves_text}", log.start);
            let (reply, timing) =
                ask::ask(engine, &mut clocks, seat, &position, referee.deadlines, referee.words.answer);
            log.timings.extend(timing.map(|t| (seat, t)));
            match reply.and_then(|reply| judge(&pos, reply, referee.words)) {
                Ok((step, reply)) => (step, Some(reply)),
                Err(fault) => return forfeit(log, seat, fault),
            }
        };
        reversible = if pos.may_recur_after(step) { reversible + 1 } else { 0 };
        history.play(step);
        moves_text.push_str(if moves_text.is_empty() { " moves " } else { " " });
        let text = match &reply {
            Some(reply) if referee.words.as_given => reply.bestmove.clone(),
            _ => step.to_string(),
        };
        moves_text.push_str(&text);
        log.steps.push(Step { text, reply });
        let pos = history.current();
        if (referee.turn_start)(pos) {
            log.turns += 1;
            if pos.node() != Node::Over && referee.max_turns.is_some_and(|n| log.turns >= n) {
                let detail = format!("no winner after {} turns (--max-turns)", log.turns);
                return ended(log, Category::Unfinished, detail);
            }
        }
    }
    let pos = history.current();
    log.winner = crate::game::rules::winner(pos);
    log.detail = pos.ending().unwrap_or_default();
    Some(log)
}

/// The step an engine's answer names in `pos`, or the fault that forfeits the game: text that
/// is no step is garbage, a step that is not legal here an illegal move.
fn judge<G: Rules>(pos: &G, reply: Reply, words: Words) -> Result<(G::Step, Reply), Forfeit> {
    let token = reply.bestmove.as_str();
    match pos.parse_step(token) {
        Ok(step) => Ok((step, reply)),
        Err(_) if token.is_empty() => Err((Category::Garbage, words.empty.to_string())),
        Err(_) if token == "(none)" => Err((Category::IllegalMove, words.none.to_string())),
        Err(e @ MoveTextError::Illegal { .. }) => Err((Category::IllegalMove, e.to_string())),
        Err(e @ MoveTextError::Malformed { .. }) => Err((Category::Garbage, e.to_string())),
    }
}

/// Makes sure the player's engine is running and ready for a new game, restarting it if it is
/// missing or broken. An error is the reason the game is lost.
fn prepare(player: &mut Player<'_>) -> Result<(), Forfeit> {
    if player.engine.as_ref().is_some_and(|e| !e.is_usable()) {
        *player.engine = None; // dropping kills and reaps the old process
    }
    if player.engine.is_none() {
        let engine =
            Engine::start(player.spec).map_err(|e| (Category::Crash, format!("restart failed: {e}")))?;
        *player.engine = Some(engine);
    }
    let engine = player.engine.as_mut().expect("just started");
    engine.new_game().map_err(|fault| match fault {
        Fault::Crash(detail) => (Category::Crash, detail),
        Fault::Protocol(detail) => (Category::Protocol, detail),
        Fault::NoAnswer { awaited, waited } => {
            (Category::Timeout, format!("no '{awaited}' to 'isready' within {:.1} s", waited.as_secs_f64()))
        }
    })
}

/// What the referee and the records' replay need that only the search's family knows: where
/// a turn starts. Implemented for the two searches of the registry
/// ([`crate::variants::AlphaBeta`], [`crate::variants::Expectimax`]).
pub trait Refereed<G: Rules>: Copy {
    /// True for a game with chance events and turns of several steps (a dice game).
    const DICE: bool;

    /// Whether a turn starts at `pos` (or the game is over there).
    fn turn_start(pos: &G) -> bool;
}

impl<G: crate::game::BoardRules> Refereed<G> for crate::variants::AlphaBeta {
    const DICE: bool = false;

    // A board game's turn is one ply.
    fn turn_start(_: &G) -> bool {
        true
    }
}

impl<G: crate::game::ChanceRules> Refereed<G> for crate::variants::Expectimax {
    const DICE: bool = true;

    fn turn_start(pos: &G) -> bool {
        pos.is_turn_start()
    }
}
