//! One game between two engines, refereed by the rules code.
//!
//! The runner never trusts an engine: before the game both get `ucinewgame`/`isready` (an
//! engine that is missing or broken is restarted first); then, turn by turn, the side to move
//! gets the whole game as `position fen OPENING moves ...` and a `go` with both clocks
//! ([`super::ask`], shared with the dice referee, does steps 1 and 2), and its `bestmove` is
//! checked in this order:
//! 1. it arrived at all: an engine that dies is a **crash**; one that says nothing before its
//!    clock (or fixed move time) plus the margin runs out loses by **time forfeit**, and one
//!    limited only by depth or nodes that says nothing within `--move-timeout` by **timeout**;
//! 2. in time: a move that took longer than allowed is a **time forfeit** too;
//! 3. a move: text that is not a move of the game's notation is **garbage**;
//! 4. legal: [`Rules::parse_step`] accepts only legal moves; anything else (including
//!    `bestmove (none)` while moves exist) is an **illegal move**.
//!
//! The first failure loses the game, with the reason recorded. Otherwise the game ends when
//! the rules say so: a win ([`crate::game::Game::outcome`]; Impasse and Dipole always end so),
//! or, in a game that can repeat a position, a draw by **threefold repetition**, which the
//! referee sees in its [`GameHistory`]. Two engines can also shuffle kings for ever without
//! repeating, so the runner adds a **draw cap** of its own (not a rule of any game), set by
//! [`DrawCap`]: a draw after N plies in a row of reversible moves (in HexDame: no man moved and
//! nothing was captured), and after M plies in all.

use super::ask::{Deadlines, ask};
use super::record::{Category, GameRecord, PlayedMove};
use crate::client::clock::Clock;
use crate::client::spec::EngineSpec;
use crate::client::{Engine, Fault};
use crate::game::{BoardRules, GameHistory, MoveTextError, Player as Side, rules};
use crate::variants::Variant;
use std::sync::atomic::{AtomicBool, Ordering};

/// One side of a game: the engine process of a slot (started on demand) and its spec.
pub struct Player<'a> {
    /// The engine of this slot; `None` or broken: (re)started before the game.
    pub engine: &'a mut Option<Engine>,
    /// How to start it, its time control and options.
    pub spec: &'a EngineSpec,
    /// Its name in records.
    pub name: &'a str,
}

/// Settings that apply to every game.
#[derive(Clone, Copy, Debug)]
pub struct Referee {
    /// How long a move may take.
    pub deadlines: Deadlines,
    /// The runner's cap for endless games.
    pub cap: DrawCap,
}

/// The runner's draw cap for endless games: `None` turns a limit off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawCap {
    /// A draw after this many plies in a row of reversible moves ([`crate::game::Game::is_reversible`]).
    pub reversible_plies: Option<u32>,
    /// A draw after this many plies from the opening.
    pub max_plies: Option<u32>,
}

impl DrawCap {
    /// The cap of games that can repeat a position: 50 reversible plies (the spirit of the
    /// 25-move king rule of international draughts, which docs/rules/hexdame.md suggests to
    /// runners), 400 plies in all. Games that cannot repeat always end: no cap.
    pub fn default_for<G: BoardRules>() -> DrawCap {
        if G::CAN_REPEAT {
            DrawCap { reversible_plies: Some(50), max_plies: Some(400) }
        } else {
            DrawCap::default()
        }
    }

    /// Why the game is drawn after `plies` plies, the last `reversible` of them reversible.
    fn reached(&self, plies: u32, reversible: u32) -> Option<String> {
        if let Some(n) = self.reversible_plies.filter(|&n| reversible >= n) {
            return Some(format!(
                "{n} plies in a row without an irreversible move (--draw-reversible-plies {n})"
            ));
        }
        let n = self.max_plies.filter(|&n| plies >= n)?;
        Some(format!("{n} plies played (--draw-max-plies {n})"))
    }
}

/// Which game of the match this is.
#[derive(Clone, Copy, Debug)]
pub struct GameId {
    /// The game number, from 1.
    pub number: u64,
    /// The opening pair, from 1.
    pub pair: u64,
    /// 1 or 2 within the pair.
    pub game_in_pair: u32,
}

/// Plays one game from `opening` between `white` and `black`. Returns `None` if `stop` was set
/// during the game (the match is over; the game does not count).
#[allow(clippy::too_many_arguments)] // the game's parts, each needed; a struct would only rename them
pub fn play<G: BoardRules>(
    variant: Variant<G>,
    white: Player<'_>,
    black: Player<'_>,
    opening: &G,
    referee: Referee,
    id: GameId,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let mut record = GameRecord {
        variant: variant.name(),
        number: id.number,
        pair: id.pair,
        game_in_pair: id.game_in_pair,
        white: white.name.to_string(),
        black: black.name.to_string(),
        white_settings: white.spec.settings_text(),
        black_settings: black.spec.settings_text(),
        fen: opening.fen(),
        first_to_move: opening.player_to_move(),
        moves: Vec::new(),
        winner: Some(Side::P1),
        category: Category::Normal,
        detail: String::new(),
        timings: Vec::new(),
    };
    let mut players = [white, black];
    let finish = |mut record: GameRecord, loser: Side, category: Category, detail: String| {
        record.winner = Some(loser.opponent());
        record.category = category;
        record.detail = format!("{}: {detail}", rules::player_name::<G>(loser));
        Some(record)
    };

    // Both engines ready for a new game, restarted if needed.
    for color in Side::BOTH {
        let player = &mut players[color.index()];
        if let Err((category, detail)) = prepare(player) {
            return finish(record, color, category, detail);
        }
    }

    let mut clocks = [Clock::new(&players[0].spec.control), Clock::new(&players[1].spec.control)];
    let mut history = GameHistory::new(*opening);
    let mut reversible = 0;
    let mut moves_text = String::new();
    loop {
        let pos = *history.current();
        if pos.outcome().is_some() {
            break;
        }
        let draw = if history.is_threefold() {
            Some((Category::Repetition, format!("{} occurred for the third time", pos.fen())))
        } else {
            referee.cap.reached(record.moves.len() as u32, reversible).map(|why| (Category::DrawCap, why))
        };
        if let Some((category, detail)) = draw {
            record.winner = None;
            record.category = category;
            record.detail = detail;
            return Some(record);
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let side = pos.player_to_move();
        let engine = players[side.index()].engine.as_mut().expect("prepared engines are present");
        let position = format!("position fen {}{moves_text}", record.fen);
        let (reply, timing) = ask(engine, &mut clocks, side.index(), &position, referee.deadlines, "move");
        record.timings.extend(timing.map(|t| (side, t)));
        let reply = match reply {
            Ok(reply) => reply,
            Err((category, detail)) => return finish(record, side, category, detail),
        };
        let mv = match pos.parse_step(&reply.bestmove) {
            Ok(mv) => mv,
            Err(_) if reply.bestmove == "(none)" => {
                let detail = "'bestmove (none)' in a position with legal moves".to_string();
                return finish(record, side, Category::IllegalMove, detail);
            }
            Err(e @ MoveTextError::Illegal { .. }) => {
                return finish(record, side, Category::IllegalMove, e.to_string());
            }
            Err(e @ MoveTextError::Malformed { .. }) => {
                let detail = if reply.bestmove.is_empty() {
                    "'bestmove' without a move".to_string()
                } else {
                    e.to_string()
                };
                return finish(record, side, Category::Garbage, detail);
            }
        };
        reversible = if pos.is_reversible(mv) { reversible + 1 } else { 0 };
        history.play(mv);
        if moves_text.is_empty() {
            moves_text.push_str(" moves");
        }
        moves_text.push(' ');
        moves_text.push_str(&reply.bestmove);
        record.moves.push(PlayedMove {
            text: reply.bestmove,
            time: reply.elapsed,
            depth: reply.depth,
            score: reply.score,
        });
    }
    let pos = history.current();
    record.winner = rules::winner(pos).map(Side::of_seat);
    record.detail = pos.ending().unwrap_or_default();
    Some(record)
}

/// Makes sure the player's engine is running and ready for a new game, restarting it if it is
/// missing or broken. An error is the reason the game is lost.
pub(super) fn prepare(player: &mut Player<'_>) -> Result<(), (Category, String)> {
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
