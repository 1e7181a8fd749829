//! What the page needs to know of a dice game (Can't Stop), computed with the rules of its
//! variant through the generic [`ChanceRules`] traits: the FEN, the player to move, what comes
//! next (the dice, a decision, nothing), the legal decisions, the winner, and for every event
//! who made it and whether it was a roll that bust. The server names no game here: the page's
//! drawing code (`assets/cantstop.js`) reads the FEN and the event tokens.
//!
//! The events are replayed from the start on every view: a dice game's position is a few
//! bytes and an event a few comparisons, so a game of a thousand events is replayed in well
//! under a millisecond, and the replay checks every event with the rules each time.

use crate::game::{ChanceRules, Node, rules};
use crate::variants::{self, ChanceJob, Variant};
use serde::Serialize;

/// A dice game's position as the page sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiceView {
    /// The position's FEN.
    pub fen: String,
    /// The number of players.
    pub players: usize,
    /// The player to move, from 1 (after the game: the one after the winner, as the FEN says).
    pub to_move: usize,
    /// What comes next: `dice` (a roll is due), `decision` (the player to move decides) or
    /// `over`.
    pub next: &'static str,
    /// The legal decisions' tokens, in the rules' order; empty unless [`DiceView::next`] is
    /// `decision`.
    pub decisions: Vec<String>,
    /// The winner, from 1, once the game is over.
    pub winner: Option<usize>,
    /// `player 2 has won`, once the game is over.
    pub result: Option<String>,
    /// The FEN of every position of the game, the start first and this one last.
    pub history: Vec<String>,
    /// What each event was, in order.
    pub events: Vec<EventInfo>,
}

/// What one event of a dice game was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EventInfo {
    /// The player (from 1) to move when it came: the roller of the dice, or the decider.
    pub player: usize,
    /// Whether it was a roll of the dice (a chance event) rather than a decision.
    pub roll: bool,
    /// Whether it was a roll that bust: no choice, the turn passed with it.
    pub bust: bool,
}

/// The position of the dice game `variant` reached from `start` (a FEN) by `events`, or why
/// there is none (the FEN's error, or the first event the rules refuse, numbered from 1).
pub fn view(variant: &str, start: &str, events: &[String]) -> Result<DiceView, String> {
    variants::dispatch_chance(variant, ViewJob { start, events })?
}

/// The start of `variant` for `players` players (refused outside the game's range) or, when
/// `fen` is given, that position (whose player count must be `players`); returns its FEN.
pub fn start_fen(variant: &str, players: usize, fen: Option<&str>) -> Result<String, String> {
    variants::dispatch_chance(variant, StartJob { players, fen })?
}

/// The roll of the dice (the event's token) in the position `fen` for the random number
/// `value`: the `value % total`-th of the game's equally likely elementary outcomes.
pub fn roll(variant: &str, fen: &str, value: u64) -> Result<String, String> {
    variants::dispatch_chance(variant, RollJob { fen, value })?
}

/// The strategies an engine seat may be given: `search`, then the game's fixed players.
pub fn strategies(variant: &str) -> Result<Vec<&'static str>, String> {
    variants::dispatch_chance(variant, StrategiesJob)
}

/// The fewest and the most players of `variant`.
pub fn player_range(variant: &str) -> Result<(usize, usize), String> {
    variants::dispatch_chance(variant, RangeJob)
}

struct ViewJob<'a> {
    start: &'a str,
    events: &'a [String],
}

impl ChanceJob for ViewJob<'_> {
    type Output = Result<DiceView, String>;
    fn run<G: ChanceRules>(self, _: Variant<G>) -> Result<DiceView, String> {
        let mut pos = rules::parse_standard_fen::<G>(self.start)?;
        let mut history = vec![pos.fen()];
        let mut events = Vec::with_capacity(self.events.len());
        for (i, text) in self.events.iter().enumerate() {
            let event = pos.parse_step(text).map_err(|e| format!("event {} ({text}): {e}", i + 1))?;
            let (player, roll) = (pos.to_move() + 1, pos.node() == Node::Chance);
            pos = pos.play(event);
            // A roll that leaves no decision passed the turn: the roll bust.
            events.push(EventInfo { player, roll, bust: roll && pos.node() != Node::Decision });
            history.push(pos.fen());
        }
        let next = match pos.node() {
            Node::Chance => "dice",
            Node::Decision => "decision",
            Node::Over => "over",
        };
        let winner = rules::winner(&pos).map(|w| w + 1);
        Ok(DiceView {
            fen: pos.fen(),
            players: pos.players(),
            to_move: pos.to_move() + 1,
            next,
            decisions: pos.decisions().iter().map(ToString::to_string).collect(),
            winner,
            result: winner.map(|w| format!("player {w} has won")),
            history,
            events,
        })
    }
}

struct StartJob<'a> {
    players: usize,
    fen: Option<&'a str>,
}

impl ChanceJob for StartJob<'_> {
    type Output = Result<String, String>;
    fn run<G: ChanceRules>(self, variant: Variant<G>) -> Result<String, String> {
        let range = G::PLAYERS;
        if !range.contains(&self.players) {
            return Err(format!(
                "{} is played by {} to {} players, not {}",
                variant.name(),
                range.start(),
                range.end(),
                self.players
            ));
        }
        let Some(fen) = self.fen else { return Ok(rules::start_for_players::<G>(self.players)?.fen()) };
        let pos = rules::parse_standard_fen::<G>(fen)?;
        if pos.players() != self.players {
            return Err(format!(
                "the FEN is a game of {} players, and {} seats were chosen",
                pos.players(),
                self.players
            ));
        }
        Ok(pos.fen())
    }
}

struct RollJob<'a> {
    fen: &'a str,
    value: u64,
}

impl ChanceJob for RollJob<'_> {
    type Output = Result<String, String>;
    fn run<G: ChanceRules>(self, _: Variant<G>) -> Result<String, String> {
        let pos = rules::parse_standard_fen::<G>(self.fen)?;
        if pos.node() != Node::Chance {
            return Err("no roll is due here".to_string());
        }
        let total = u64::from(pos.chance_total().max(1));
        Ok(pos.chance_step((self.value % total) as u32).ok_or("no roll is due")?.to_string())
    }
}

struct StrategiesJob;

impl ChanceJob for StrategiesJob {
    type Output = Vec<&'static str>;
    fn run<G: ChanceRules>(self, _: Variant<G>) -> Vec<&'static str> {
        std::iter::once(SEARCH).chain(G::FIXED_PLAYERS.iter().copied()).collect()
    }
}

struct RangeJob;

impl ChanceJob for RangeJob {
    type Output = (usize, usize);
    fn run<G: ChanceRules>(self, _: Variant<G>) -> (usize, usize) {
        (*G::PLAYERS.start(), *G::PLAYERS.end())
    }
}

/// The engines' own strategy, their default: the GUI sends no `Strategy` option for it, so
/// that an engine without the option can play too.
pub const SEARCH: &str = "search";

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(events: &[&str]) -> Vec<String> {
        events.iter().map(|e| e.to_string()).collect()
    }

    const START: &str = "p2 00000000000/00000000000 - 1 r";

    #[test]
    fn a_turn_is_replayed_with_its_choices_and_its_stop() {
        // docs/rules/cantstop.md, example 1.
        let start = view("cantstop", START, &[]).unwrap();
        assert_eq!((start.next, start.to_move, start.decisions.len()), ("dice", 1, 0));
        let rolled = view("cantstop", START, &texts(&["r1546"])).unwrap();
        assert_eq!((rolled.next, rolled.decisions.clone()), ("decision", texts(&["5.11", "6.10", "7.9"])));
        let turn = texts(&["r1546", "6.10", "roll", "r2435", "6.8", "stop"]);
        let after = view("cantstop", START, &turn).unwrap();
        assert_eq!(after.fen, "p2 00002010100/00000000000 - 2 r");
        assert!(after.events.iter().all(|e| e.player == 1 && !e.bust));
        let rolls: Vec<bool> = after.events.iter().map(|e| e.roll).collect();
        assert_eq!(rolls, [true, false, false, true, false, false]);
        assert_eq!(after.history.len(), 7);
    }

    #[test]
    fn a_bust_is_marked_on_its_roll_and_a_win_ends_the_game() {
        // Example 2: 2-4-5-5 busts; the turn passes with the roll.
        let fen = "p2 01002030000/00000000000 3:2,6:11,8:4 1 r";
        let bust = view("cantstop", fen, &texts(&["r2455"])).unwrap();
        assert_eq!(bust.events, [EventInfo { player: 1, roll: true, bust: true }]);
        assert_eq!((bust.to_move, bust.next), (2, "dice"));
        // Example 5: the stop wins the game; nothing may follow.
        let won =
            view("cantstop", "p3 30000500003/00000500000/00000000000 7:13 1 s", &texts(&["stop"])).unwrap();
        assert_eq!(
            (won.winner, won.next, won.result.as_deref()),
            (Some(1), "over", Some("player 1 has won"))
        );
        let error =
            view("cantstop", "p3 30000500003/00000500000/00000000000 7:13 1 s", &texts(&["stop", "r1111"]))
                .unwrap_err();
        assert!(error.starts_with("event 2 (r1111): "), "{error}");
    }

    #[test]
    fn starts_rolls_and_strategies_come_from_the_rules() {
        assert_eq!(start_fen("cantstop", 2, None).unwrap(), START);
        assert!(start_fen("cantstop", 4, None).unwrap().starts_with("p4 "));
        assert!(start_fen("cantstop", 5, None).unwrap_err().contains("2 to 4 players"));
        assert!(start_fen("cantstop", 3, Some(START)).unwrap_err().contains("2 players"));
        assert!(start_fen("cantstop", 2, Some("p2 nonsense")).is_err());
        assert!(start_fen("impasse", 2, None).unwrap_err().contains("board game"));
        // Value 0 is the first elementary outcome, all ones; the dice follow the value.
        assert_eq!(roll("cantstop", START, 0).unwrap(), "r1111");
        assert_eq!(roll("cantstop", START, 1295).unwrap(), "r6666");
        assert_eq!(roll("cantstop", START, 1296).unwrap(), "r1111");
        assert!(roll("cantstop", "p2 00000000000/00000000000 6:1 1 s", 0).is_err());
        assert_eq!(strategies("cantstop").unwrap()[0], "search");
        assert!(strategies("cantstop").unwrap().contains(&"greedy"));
        assert_eq!(player_range("cantstop").unwrap(), (2, 4));
    }
}
