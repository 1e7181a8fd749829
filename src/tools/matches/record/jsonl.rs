//! The record of a dice game: one JSON object per line, from which the game replays and is
//! checked, dice included.
//!
//! ```text
//! {"variant":"cantstop","game":3,"stream":1,"rotation":0,"dice":"5b2f0e9c1d3a4b77","players":2,
//!  "seats":["greedy","rule28"],"settings":["movetime=50 ...","movetime=50 ..."],
//!  "start":"p2 00000000000/00000000000 - 1 r","events":"r1546 6.10 roll r2435 6.8 stop ...",
//!  "turns":41,"max_turns":1000,"result":"p2win","reason":"normal","forfeit":null,
//!  "detail":"player 2 won 3 columns"}
//! ```
//! (one line in the file). `game` numbers the games from 1 in schedule order (the file is in
//! order of completion); `stream` and `rotation` (from 0) place it in the duplicate schedule,
//! `dice` is the stream's seed in hex (the dice are the [`DiceStream`] of it),
//! `seats` the names of players 1 to N. `events` is the whole game in the rules' notation,
//! rolls included, exactly what the engines were sent after `position fen START moves`.
//! `result` is `pKwin` or `none` (as the protocol's `query result`); `reason` a label of
//! [`Category`]: `normal`, `unfinished` (the turn limit), or the fault of the seat `forfeit`
//! (1-based): `illegal move`, `garbage`, `time forfeit`, `timeout`, `crash`. The faulty answer
//! is not among the events: after them it was the offender's decision (or the game had not
//! started: a failed restart or `isready`).

use super::{Category, Expected, MatchRecord, Outcome};
use crate::game::{Node, Params, RuleOption, Rules, rules};
use crate::tools::matches::referee::dice::DiceStream;
use crate::tools::matches::referee::{Log, Refereed, timing::MoveTiming};
use crate::variants::Variant;
use crate::with_variant;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How every record line begins (its first member), which `--resume` looks for to drop a last
/// line cut short.
pub const RECORD_START: &str = "{\"variant\":";

/// One finished dice game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiceRecord {
    /// The variant's name.
    pub variant: String,
    /// The game's number in the match, from 1.
    pub game: u64,
    /// The dice stream, from 0.
    pub stream: u64,
    /// The seat rotation within the stream, from 0: seat s is entrant (s + rotation) mod N.
    pub rotation: usize,
    /// The stream's seed, 16 hex digits.
    pub dice: String,
    /// The number of players.
    pub players: usize,
    /// The rule options the game was played under, every one of the variant's by name
    /// (`{"ColumnsToWin":"4","CantStopVariant":"none"}`); a record without them was played
    /// under the defaults.
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    /// The name of each seat's engine, player 1 first.
    pub seats: Vec<String>,
    /// Each seat's settings (limits, options).
    pub settings: Vec<String>,
    /// The start position (FEN).
    pub start: String,
    /// The events, space-separated, rolls included.
    pub events: String,
    /// Turns completed.
    pub turns: u32,
    /// The match's turn limit.
    pub max_turns: u32,
    /// `pKwin` or `none`.
    pub result: String,
    /// The category label: `normal`, `unfinished` or a fault.
    pub reason: String,
    /// The seat (1-based) that forfeited, if one did.
    pub forfeit: Option<usize>,
    /// The detail of the ending.
    pub detail: String,
    /// The timing of every decision under a clock or move time, by seat (0-based); not
    /// written.
    #[serde(skip)]
    pub timings: Vec<(usize, MoveTiming)>,
}

impl DiceRecord {
    /// The winner's seat, 0-based.
    pub fn winner(&self) -> Option<usize> {
        let digits = self.result.strip_prefix('p')?.strip_suffix("win")?;
        digits.parse::<usize>().ok().filter(|&p| (1..=self.players).contains(&p)).map(|p| p - 1)
    }

    /// The ending's category (`None` for an unknown label).
    pub fn category(&self) -> Option<Category> {
        Category::from_label(&self.reason)
    }

    /// The record as one line of JSON, with its line end.
    pub fn to_line(&self) -> String {
        // Serialising plain strings and numbers cannot fail.
        let mut line = serde_json::to_string(self).unwrap_or_default();
        line.push('\n');
        line
    }

    /// Replays the game with the rules of its variant: the start, every roll against its dice
    /// stream, every decision for legality, the turn count, and the result against the
    /// position the events lead to. Returns the final position's FEN.
    pub fn replay(&self) -> Result<String, String> {
        with_variant!(&self.variant, |variant, search| replay(self, variant, search))?
    }
}

// The JSON-lines encoding of a game of 2 to 4 seats with dice: the events are every step,
// rolls included; a forfeit names its seat.
impl MatchRecord for DiceRecord {
    const START: &'static str = RECORD_START;

    fn from_log<G: Rules>(variant: Variant<G>, log: Log) -> DiceRecord {
        let options = variant.params.option_values().into_iter();
        let options = options.map(|(name, value)| (name.to_string(), value.to_string())).collect();
        let detail = match (log.forfeit, log.category) {
            (Some(seat), _) => format!("p{}: {}", seat + 1, log.detail),
            (None, Category::Normal) => match log.winner {
                Some(w) => format!("player {} won after {} turns", w + 1, log.turns),
                None => format!("the game ended without a winner after {} turns", log.turns),
            },
            (None, _) => log.detail,
        };
        let events: Vec<String> = log.steps.into_iter().map(|step| step.text).collect();
        DiceRecord {
            variant: variant.name().to_string(),
            game: log.id.number,
            stream: log.id.deal,
            rotation: log.id.rotation,
            dice: format!("{:016x}", log.id.dice_seed),
            players: log.names.len(),
            options,
            seats: log.names,
            settings: log.settings,
            start: log.start,
            events: events.join(" "),
            turns: log.turns,
            max_turns: log.max_turns.unwrap_or(0),
            result: result_text(log.winner),
            reason: log.category.label().to_string(),
            forfeit: log.forfeit.map(|seat| seat + 1),
            detail,
            timings: log.timings,
        }
    }

    fn text(&self) -> String {
        self.to_line()
    }

    fn number(&self) -> Option<u64> {
        self.game.checked_sub(1)
    }

    fn outcome(&self) -> Outcome<'_> {
        Outcome {
            deal: self.stream,
            rotation: self.rotation,
            winner: self.winner(),
            category: self.category(),
            forfeit: self.forfeit.filter(|&s| (1..=self.players).contains(&s)).map(|s| s - 1),
            steps: self.events.split_whitespace().count() as u64,
            turns: u64::from(self.turns),
            timings: &self.timings,
        }
    }

    fn read(text: &str, _variant: &'static str) -> Result<Vec<DiceRecord>, String> {
        parse_dice_records(text)
    }

    /// Checks the variant, the players, the game's place (stream, rotation), its dice and the
    /// settings of every seat.
    fn check(&self, expected: &Expected) -> Result<(), String> {
        if self.variant != expected.variant || self.players != expected.players {
            return Err(format!("a {}-player game of {}", self.players, self.variant));
        }
        let (stream, rotation) = (expected.deal, expected.rotation);
        if (self.stream, self.rotation) != (stream, rotation) {
            return Err(format!(
                "stream {} rotation {}, where this match has stream {stream} rotation {rotation}",
                self.stream, self.rotation
            ));
        }
        // An option missing from the record was played at its default (records written before
        // the options existed have none).
        let differs = |&(option, value): &(&RuleOption, &str)| {
            self.options.get(option.name).map_or(value != option.default_value(), |v| v != value)
        };
        let unknown = self.options.keys().find(|name| !expected.options.iter().any(|(o, _)| o.name == *name));
        if let Some((option, value)) = expected.options.iter().find(|o| differs(o)) {
            return Err(format!(
                "options {:?}, where this match plays {} {value}",
                self.options, option.name
            ));
        }
        if let Some(name) = unknown {
            return Err(format!("option {name}, which this game does not have"));
        }
        let dice = format!("{:016x}", expected.dice_seed);
        if self.dice != dice {
            return Err(format!("dice {}, this match's are {dice} (another --seed?)", self.dice));
        }
        for (seat, (settings, given)) in self.settings.iter().zip(&expected.settings).enumerate() {
            if settings != given {
                return Err(format!(
                    "player {} played with '{settings}', this match gives '{given}'",
                    seat + 1
                ));
            }
        }
        Ok(())
    }
}

/// The result text of a winner (0-based) or none.
pub fn result_text(winner: Option<usize>) -> String {
    winner.map_or_else(|| "none".to_string(), |w| format!("p{}win", w + 1))
}

/// Reads a record file: one JSON object per line, blank lines skipped.
pub fn parse_dice_records(text: &str) -> Result<Vec<DiceRecord>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// Replays `record` with the rules of `G` (see [`DiceRecord::replay`]); errors name the event
/// or the part of the record that does not hold.
fn replay<G: Rules, S: Refereed<G>>(
    record: &DiceRecord,
    variant: Variant<G>,
    _: S,
) -> Result<String, String> {
    if !S::DICE {
        return Err(format!("{} is a board game, and this works with dice games only", variant.name()));
    }
    if !G::PLAYERS.contains(&record.players) || record.seats.len() != record.players {
        return Err(format!("{} players with {} seats", record.players, record.seats.len()));
    }
    let settings: Vec<(String, String)> = record.options.clone().into_iter().collect();
    let params = rules::with_settings(variant.params, &settings).map_err(|e| format!("options: {e}"))?;
    let start = rules::start_for_players::<G>(params, record.players).map_err(|e| format!("options: {e}"))?;
    if record.start != start.fen() {
        return Err(format!("the start '{}' is not the {}-player start", record.start, record.players));
    }
    let seed =
        u64::from_str_radix(&record.dice, 16).map_err(|_| format!("dice '{}' is no seed", record.dice))?;
    let mut dice = DiceStream::new(seed);
    let mut position = start;
    let mut turns = 0;
    for (i, token) in record.events.split_whitespace().enumerate() {
        let at = |e: String| format!("event {} '{token}': {e}", i + 1);
        match position.node() {
            Node::Over => return Err(at("the game was already over".to_string())),
            Node::Chance => {
                let expected = dice.roll(&position);
                let event = position.parse_step(token).map_err(|e| at(e.to_string()))?;
                if event != expected {
                    return Err(at(format!("the dice stream rolls {expected} here")));
                }
                position = position.play(event);
            }
            Node::Decision => {
                position = position.play(position.parse_step(token).map_err(|e| at(e.to_string()))?)
            }
        }
        if S::turn_start(&position) {
            turns += 1;
        }
    }
    if turns != record.turns {
        return Err(format!("{turns} turns played, the record says {}", record.turns));
    }
    let category = record.category().ok_or_else(|| format!("unknown reason '{}'", record.reason))?;
    let winner = record.winner();
    if winner.is_none() && record.result != "none" {
        return Err(format!("result '{}' is neither pKwin nor none", record.result));
    }
    match category {
        Category::Normal if rules::winner(&position).is_some() && rules::winner(&position) == winner => {}
        Category::Normal => {
            return Err(format!("a normal ending, but {} is not won by the winner", position.fen()));
        }
        Category::Unfinished
            if position.node() != Node::Over && winner.is_none() && turns >= record.max_turns => {}
        Category::Unfinished => return Err("an unfinished game that ended or had turns left".to_string()),
        _ => {
            let offender = record
                .forfeit
                .filter(|seat| (1..=record.players).contains(seat))
                .ok_or("a forfeit without the seat (1 to N) that forfeited")?;
            let to_decide = position.node() == Node::Decision && position.to_move() + 1 == offender;
            if !(to_decide || record.events.is_empty()) {
                return Err(format!(
                    "seat {offender} forfeited, but it had no decision in {}",
                    position.fen()
                ));
            }
            // With two players the other one wins; with more, nobody does.
            let expected = (record.players == 2).then(|| 2 - offender);
            if winner != expected {
                return Err(format!("a forfeit of seat {offender} with result {}", record.result));
            }
        }
    }
    Ok(position.fen())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3-player game that seat 2 forfeited before it started (its engine could not be
    /// restarted), on the dice of stream seed 5.
    fn sample() -> DiceRecord {
        DiceRecord {
            variant: "cantstop".to_string(),
            game: 1,
            stream: 0,
            rotation: 0,
            dice: format!("{:016x}", 5u64),
            players: 3,
            options: BTreeMap::new(),
            seats: vec!["a".into(), "b".into(), "c".into()],
            settings: vec!["depth=1".into(); 3],
            start: "p3 00000000000/00000000000/00000000000 - 1 r".to_string(),
            events: String::new(),
            turns: 0,
            max_turns: 1000,
            result: "none".to_string(),
            reason: "crash".to_string(),
            forfeit: Some(2),
            detail: "p2: restart failed".to_string(),
            timings: Vec::new(),
        }
    }

    #[test]
    fn writes_one_line_and_reads_it_back() {
        let record = sample();
        let line = record.to_line();
        assert_eq!(line.matches('\n').count(), 1);
        assert!(line.starts_with("{\"variant\":\"cantstop\",\"game\":1,\"stream\":0,"), "{line}");
        let back = parse_dice_records(&format!("{line}\n{line}")).unwrap();
        assert_eq!(back, vec![record.clone(), record.clone()]);
        assert_eq!(record.replay(), Ok("p3 00000000000/00000000000/00000000000 - 1 r".to_string()));
        assert!(parse_dice_records("{\"variant\":").unwrap_err().starts_with("line 1: "));
        assert_eq!((result_text(Some(2)), result_text(None)), ("p3win".to_string(), "none".to_string()));
    }

    #[test]
    fn replay_checks_the_dice_and_the_result() {
        // Seed 5: the first value of SplitMix64(5) picks the first roll; the offender then had
        // to choose. A wrong roll, a wrong offender or a winner after a 3-player forfeit fail.
        let mut record = sample();
        let start = crate::cantstop::Position::start(3);
        let roll = DiceStream::new(5).roll(&start).to_string();
        record.events = roll.clone();
        record.forfeit = Some(1);
        // No roll busts at the start (every column is open and all three markers are free),
        // so player 1 had a decision after it.
        assert!(record.replay().is_ok(), "{:?}", record.replay());
        record.events = if roll == "r1111" { "r6666".into() } else { "r1111".into() };
        assert!(record.replay().unwrap_err().contains("the dice stream rolls"));
        record.events = roll;
        record.forfeit = Some(3);
        assert!(record.replay().is_err());
        record.forfeit = Some(1);
        record.result = "p2win".into();
        assert!(record.replay().is_err());
    }

    #[test]
    fn replay_checks_the_rule_options() {
        // Offered for 3 players: 4 columns to win (the contract); not 5, nor an unknown option.
        let mut record = sample();
        record.options.insert("ColumnsToWin".into(), "4".into());
        record.options.insert("CantStopVariant".into(), "mustroll".into());
        assert!(record.replay().is_ok(), "{:?}", record.replay());
        let back = parse_dice_records(&record.to_line()).unwrap();
        assert_eq!(back[0].options, record.options, "written and read back");
        record.options.insert("ColumnsToWin".into(), "5".into());
        let error = record.replay().unwrap_err();
        assert!(error.contains("options: ") && error.contains("not offered for 3 players"), "{error}");
        record.options.clear();
        record.options.insert("Blocking".into(), "on".into());
        assert!(record.replay().unwrap_err().contains("unknown option 'Blocking'"));
    }
}
