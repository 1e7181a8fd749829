//! One dice game between N engines, refereed by the rules ([`ChanceRules`]).
//!
//! The referee rolls the dice itself, from the game's [`DiceStream`], and asks an engine only
//! when its player has a decision ([`Node::Decision`]): it sends `position fen START moves
//! E1 E2 ...` (every event so far, rolls included) and `go` with that engine's limits
//! ([`crate::tools::matches::ask`], as for board games). Every `bestmove` is checked as in board
//! games (docs/matches.md, "Faults"): an engine that dies is
//! a **crash**, one that says nothing in time a **time forfeit** (or a **timeout** when only
//! depth or nodes limit it), one too late for its clock a **time forfeit**; then the token goes
//! to [`crate::game::Rules::parse_step`]: text that is no event of the game's notation is
//! **garbage**, an event that is not legal here (`bestmove (none)` included) an **illegal
//! move**.
//!
//! **Forfeits.** The first fault ends the game at once, and the offender loses. With two
//! players the other one wins, as in board games (so that Elo and the SPRT see every game);
//! with three or four **nobody wins**: the game counts as played for everybody, a loss with its
//! reason for the offender and no result for the others. Picking a winner among them by the
//! position would reward whoever happened to lead, and sharing the win would make fractional
//! wins.
//!
//! **Turn limit.** The rules set no length limit (contract, edge case 11), so the referee
//! counts turns (a turn ends where [`crate::game::ChanceGame::is_turn_start`] holds again) and
//! adjudicates a game still running after `max_turns` turns in all as **unfinished**, with no
//! winner.

use super::record::{DiceRecord, result_text};
use super::schedule::DiceStream;
use crate::client::clock::Clock;
use crate::game::{ChanceRules, MoveTextError, Node, rules};
use crate::tools::matches::ask::{Deadlines, Forfeit, ask};
use crate::tools::matches::game::{Player, prepare};
use crate::tools::matches::record::Category;
use crate::tools::matches::timing::MoveTiming;
use crate::variants::Variant;
use std::sync::atomic::{AtomicBool, Ordering};

/// Settings that apply to every game.
#[derive(Clone, Copy, Debug)]
pub struct DiceReferee {
    /// How long a decision may take.
    pub deadlines: Deadlines,
    /// Turns in all after which a game is unfinished.
    pub max_turns: u32,
}

/// Which game of the match this is.
#[derive(Clone, Copy, Debug)]
pub struct DiceGameId {
    /// The game number, from 1.
    pub number: u64,
    /// The dice stream, from 0.
    pub stream: u64,
    /// The rotation within the stream, from 0.
    pub rotation: usize,
    /// The stream's seed.
    pub dice_seed: u64,
}

/// Plays one game with `seats[s]` as player `s + 1`. Returns `None` if `stop` was set during
/// the game (the match is over; the game does not count).
pub fn play<G: ChanceRules>(
    variant: Variant<G>,
    mut seats: Vec<Player<'_>>,
    referee: DiceReferee,
    id: DiceGameId,
    stop: &AtomicBool,
) -> Option<DiceRecord> {
    let players = seats.len();
    let start = rules::start_for_players::<G>(players).ok()?;
    let mut record = DiceRecord {
        variant: variant.name().to_string(),
        game: id.number,
        stream: id.stream,
        rotation: id.rotation,
        dice: format!("{:016x}", id.dice_seed),
        players,
        seats: seats.iter().map(|s| s.name.to_string()).collect(),
        settings: seats.iter().map(|s| s.spec.settings_text()).collect(),
        start: start.fen(),
        events: String::new(),
        turns: 0,
        max_turns: referee.max_turns,
        result: result_text(None),
        reason: Category::Normal.label().to_string(),
        forfeit: None,
        detail: String::new(),
        timings: Vec::new(),
    };
    let forfeit = |mut record: DiceRecord, seat: usize, category: Category, detail: String| {
        // Two players: the other one wins; more: nobody (see the module docs).
        let winner = (players == 2).then(|| 1 - seat);
        record.result = result_text(winner);
        record.reason = category.label().to_string();
        record.forfeit = Some(seat + 1);
        record.detail = format!("p{}: {detail}", seat + 1);
        Some(record)
    };

    for (seat, player) in seats.iter_mut().enumerate() {
        if let Err((category, detail)) = prepare(player) {
            return forfeit(record, seat, category, detail);
        }
    }
    let mut clocks: Vec<Clock> = seats.iter().map(|s| Clock::new(&s.spec.control)).collect();
    let mut dice = DiceStream::new(id.dice_seed);
    let mut position = start;
    loop {
        let event = match position.node() {
            Node::Over => break,
            Node::Chance => dice.roll(&position),
            Node::Decision => {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let seat = position.to_move();
                match decide(&mut seats[seat], &mut clocks, seat, &position, &record, referee) {
                    (Ok(event), timing) => {
                        record.timings.extend(timing.map(|t| (seat, t)));
                        event
                    }
                    (Err((category, detail)), timing) => {
                        record.timings.extend(timing.map(|t| (seat, t)));
                        return forfeit(record, seat, category, detail);
                    }
                }
            }
        };
        position = position.play(event);
        if !record.events.is_empty() {
            record.events.push(' ');
        }
        record.events.push_str(&event.to_string());
        if position.is_turn_start() {
            record.turns += 1;
            if position.node() != Node::Over && record.turns >= referee.max_turns {
                record.reason = Category::Unfinished.label().to_string();
                record.detail = format!("no winner after {} turns (--max-turns)", record.turns);
                return Some(record);
            }
        }
    }
    let winner = rules::winner(&position);
    record.result = result_text(winner);
    record.detail = match winner {
        Some(w) => format!("player {} won after {} turns", w + 1, record.turns),
        None => format!("the game ended without a winner after {} turns", record.turns),
    };
    Some(record)
}

/// Asks the engine of `seat` for its decision in `position` and checks it. Returns the event
/// or the fault that forfeits the game, and the decision's timing when a clock or move time
/// applied.
fn decide<G: ChanceRules>(
    player: &mut Player<'_>,
    clocks: &mut [Clock],
    seat: usize,
    position: &G,
    record: &DiceRecord,
    referee: DiceReferee,
) -> (Result<G::Step, Forfeit>, Option<MoveTiming>) {
    let engine = player.engine.as_mut().expect("prepared engines are present");
    let moves = if record.events.is_empty() { String::new() } else { format!(" moves {}", record.events) };
    let command = format!("position fen {}{moves}", record.start);
    let (reply, timing) = ask(engine, clocks, seat, &command, referee.deadlines, "decision");
    let reply = match reply {
        Ok(reply) => reply,
        Err(forfeit) => return (Err(forfeit), timing),
    };
    let token = reply.bestmove.as_str();
    let verdict = match position.parse_step(token) {
        Ok(event) => Ok(event),
        Err(_) if token.is_empty() => Err((Category::Garbage, "'bestmove' without an event".to_string())),
        Err(_) if token == "(none)" => {
            Err((Category::IllegalMove, "'bestmove (none)' at a decision".to_string()))
        }
        Err(e @ MoveTextError::Illegal { .. }) => Err((Category::IllegalMove, e.to_string())),
        Err(e @ MoveTextError::Malformed { .. }) => Err((Category::Garbage, e.to_string())),
    };
    (verdict, timing)
}
