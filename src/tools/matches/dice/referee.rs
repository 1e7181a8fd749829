//! One dice game between N engines, refereed by the rules ([`ChanceRules`]).
//!
//! The referee rolls the dice itself, from the game's [`DiceStream`], and asks an engine only
//! when its player has a decision ([`Node::Decision`]): it sends `position fen START moves
//! E1 E2 ...` (every event so far, rolls included) and `go` with that engine's limits. Every
//! `bestmove` is checked as in board games (docs/matches.md, "Faults"): an engine that dies is
//! a **crash**, one that says nothing in time a **time forfeit** (or a **timeout** when only
//! depth or nodes limit it), one too late for its clock a **time forfeit**; then the token goes
//! to [`ChanceRules::parse_event`]: text that is no event of the game's notation is
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
use crate::game::{ChanceRules, MoveTextError, Node};
use crate::tools::matches::clock::{Clock, TimeControl};
use crate::tools::matches::engine::{Engine, Fault};
use crate::tools::matches::game::{Player, prepare};
use crate::tools::matches::record::Category;
use crate::tools::matches::timing::MoveTiming;
use crate::variants::ChanceVariant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Why a seat forfeits: the category and its detail.
type Forfeit = (Category, String);

/// Settings that apply to every game.
#[derive(Clone, Copy, Debug)]
pub struct DiceReferee {
    /// Grace added to every clock and move time before a decision loses on time.
    pub margin: Duration,
    /// The longest wait for a decision when neither a clock nor a move time bounds it.
    pub move_timeout: Duration,
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
    variant: ChanceVariant<G>,
    mut seats: Vec<Player<'_>>,
    referee: DiceReferee,
    id: DiceGameId,
    stop: &AtomicBool,
) -> Option<DiceRecord> {
    let players = seats.len();
    let start = G::start(players);
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
    let winner = position.winner();
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
) -> (Result<G::Event, Forfeit>, Option<MoveTiming>) {
    let clock = &clocks[seat];
    let allowance = clock.allowance(referee.margin);
    let allowed = clock.allowance(Duration::ZERO);
    let engine = player.engine.as_mut().expect("prepared engines are present");
    let moves = if record.events.is_empty() { String::new() } else { format!(" moves {}", record.events) };
    let command = format!("position fen {}{moves}", record.start);
    let go = go_command(engine, clocks, seat);
    let reply = engine.think(&command, &go, allowance.unwrap_or(referee.move_timeout));
    let used = match &reply {
        Ok(reply) => Some(reply.elapsed),
        Err(Fault::NoAnswer { waited, .. }) => Some(*waited),
        Err(Fault::Crash(_)) => None,
    };
    let timing = used.zip(allowed).map(|(used, allowed)| MoveTiming { used, allowed });
    let reply = match reply {
        Ok(reply) => reply,
        Err(Fault::Crash(detail)) => return (Err((Category::Crash, detail)), timing),
        Err(Fault::NoAnswer { waited, .. }) => {
            let (category, what) = match allowance {
                Some(_) => (Category::TimeForfeit, "the time allowed plus the margin"),
                None => (Category::Timeout, "the move timeout"),
            };
            let detail = format!("no decision after {:.3} s ({what})", waited.as_secs_f64());
            return (Err((category, detail)), timing);
        }
    };
    if let Err(over) = clocks[seat].charge(reply.elapsed, referee.margin) {
        let detail = format!(
            "'{}' took {:.3} s; allowed {:.3} s + margin {:.3} s",
            reply.bestmove,
            over.used.as_secs_f64(),
            over.allowed.as_secs_f64(),
            referee.margin.as_secs_f64()
        );
        return (Err((Category::TimeForfeit, detail)), timing);
    }
    let token = reply.bestmove.as_str();
    let verdict = match position.parse_event(token) {
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

/// The `go` line for `seat`: when the mover has a clock, the two clock words of the engine's
/// dialect (`wtime btime winc binc`, or UGI's `p1time p2time p1inc p2inc`), as docs/protocol.md
/// assigns them in dice games: the first pair to players 1 and 3, the second to 2 and 4. The
/// mover's own pair carries its clock, the other pair the clock of the next player who uses it
/// (with two players: simply both clocks); a player without a clock is shown the mover's. Then
/// the fixed limits.
fn go_command(engine: &Engine, clocks: &[Clock], seat: usize) -> String {
    let mut go = String::from("go");
    let own = &clocks[seat];
    if let Some(own_time) = own.remaining() {
        let players = clocks.len();
        let other = (1..players).map(|k| (seat + k) % players).find(|s| s % 2 != seat % 2).unwrap_or(seat);
        let mut pair = [&clocks[seat], &clocks[other]];
        if seat % 2 == 1 {
            pair.swap(0, 1);
        }
        let time = |c: &Clock| c.remaining().unwrap_or(own_time).as_millis();
        let inc = |c: &Clock| {
            if c.remaining().is_some() { c.control().increment } else { own.control().increment }.as_millis()
        };
        let [first_time, second_time, first_inc, second_inc] = engine.clock_words();
        go.push_str(&format!(
            " {first_time} {} {second_time} {} {first_inc} {} {second_inc} {}",
            time(pair[0]),
            time(pair[1]),
            inc(pair[0]),
            inc(pair[1])
        ));
        if let Some(n) = own.moves_to_go() {
            go.push_str(&format!(" movestogo {n}"));
        }
    }
    let TimeControl { movetime, depth, nodes, .. } = own.control();
    if let Some(t) = movetime {
        go.push_str(&format!(" movetime {}", t.as_millis()));
    }
    if let Some(d) = depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}
