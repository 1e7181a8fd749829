//! Can't Stop as a [`ChanceGame`], for the chance-node search and the tools.

use super::MoveTextError;
use super::chance::{ChanceGame, ChanceRules, Node};
use crate::cantstop::dice::{self, Dice, OUTCOMES};
use crate::cantstop::{ChoiceSet, Event, EventError, Phase, Position, baseline, eval, notation, odds};

impl ChanceGame for Position {
    type Event = Event;

    fn players(&self) -> usize {
        Position::players(self)
    }

    fn to_move(&self) -> usize {
        Position::to_move(self)
    }

    fn node(&self) -> Node {
        match (self.winner(), self.phase()) {
            (Some(_), _) => Node::Over,
            (None, Phase::Roll) => Node::Chance,
            (None, _) => Node::Decision,
        }
    }

    fn winner(&self) -> Option<usize> {
        Position::winner(self)
    }

    fn decisions(&self) -> Vec<Event> {
        match self.node() {
            Node::Decision => self.legal_events(),
            _ => Vec::new(),
        }
    }

    /// Rolls that offer the same choices lead to the same positions once chosen, so they are
    /// merged into one outcome (the first such roll, with their weights summed): every bust is
    /// one outcome, and with three markers placed a dozen outcomes remain of 126. The search
    /// then solves each distinct situation once.
    fn chance_outcomes(&self) -> Vec<(Event, u32)> {
        if self.node() != Node::Chance {
            return Vec::new();
        }
        let mut outcomes: Vec<(u64, Event, u32)> = Vec::with_capacity(64);
        for &dice in dice::all_rolls() {
            let key = choice_set_key(&self.choices(dice));
            match outcomes.iter_mut().find(|(k, _, _)| *k == key) {
                Some((_, _, weight)) => *weight += dice.weight(),
                None => outcomes.push((key, Event::Roll(dice), dice.weight())),
            }
        }
        outcomes.into_iter().map(|(_, event, weight)| (event, weight)).collect()
    }

    fn chance_total(&self) -> u32 {
        OUTCOMES
    }

    fn chance_event(&self, index: u32) -> Event {
        // The index's four base-6 digits are the four dice, each equally likely.
        let die = |k: u32| (index / 6u32.pow(k) % 6) as u8 + 1;
        Event::Roll(Dice::new([die(0), die(1), die(2), die(3)]).expect("dice are 1 to 6"))
    }

    fn play(&self, event: Event) -> Position {
        Position::play(self, event)
    }

    fn is_turn_start(&self) -> bool {
        Position::is_turn_start(self)
    }

    fn value(&self, player: usize) -> f64 {
        eval::value(self, player)
    }
}

impl ChanceRules for Position {
    const PLAYERS: std::ops::RangeInclusive<usize> = 2..=4;

    fn start(players: usize) -> Position {
        Position::start(players)
    }

    fn parse_fen(text: &str) -> Result<Position, String> {
        Position::parse_fen(text).map_err(|e| e.to_string())
    }

    fn fen(&self) -> String {
        Position::fen(self)
    }

    fn parse_event(&self, text: &str) -> Result<Event, MoveTextError> {
        Position::parse_event(self, text).map_err(|e| match e {
            EventError::Malformed(reason) => MoveTextError::Malformed { text: text.to_string(), reason },
            EventError::Illegal(reason) => {
                MoveTextError::Illegal { text: text.to_string(), hint: format!(": {reason}") }
            }
        })
    }

    fn legal_events(&self) -> Vec<Event> {
        Position::legal_events(self)
    }

    fn diagram(&self) -> Vec<String> {
        notation::diagram(self)
    }

    fn solitaire() -> Option<Position> {
        Some(Position::start(1))
    }

    fn odds(&self) -> Vec<String> {
        odds::report(self)
    }

    const FIXED_PLAYERS: &'static [&'static str] = &["rule28", "greedy", "random"];

    fn fixed_player(&self, name: &str, seed: u64) -> Option<Event> {
        match name {
            "rule28" => baseline::rule28(self),
            "greedy" => baseline::greedy(self),
            "random" => baseline::random(self, seed),
            _ => None,
        }
    }
}

/// A number that identifies a choice set (sorted, at most six choices of two columns 2-12).
fn choice_set_key(set: &ChoiceSet) -> u64 {
    set.iter().fold(1, |key, choice| {
        let columns = choice.columns();
        let code = u64::from(columns[0]) << 4 | columns.get(1).map_or(0, |&c| u64::from(c));
        key << 8 | code
    })
}
