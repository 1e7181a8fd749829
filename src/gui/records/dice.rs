//! The record of a dice game saved by the GUI: PGN-like tags, then the events (rolls
//! included), one turn a line, then the result.
//!
//! ```text
//! [Event "steere gui"]
//! [Variant "cantstop"]
//! [ColumnsToWin "4"]
//! [Players "2"]
//! [Player1 "human"]
//! [Player2 "steere"]
//! [Strategy2 "greedy"]
//! [Seed "1234"]
//! [FEN "p2 00000000000/00000000000 - 1 r"]
//! [Events "9"]
//! [Result "*"]
//!
//! r1546 6.10 roll r2435 6.8 stop
//! r2455 {d1 cp35} 7 roll r1111
//! *
//! ```
//!
//! - A rule option that differs from its default has a tag of its name (`ColumnsToWin`,
//!   `CantStopVariant`); a record without them was played under the base rules.
//! - `Players` is the number of seats, `PlayerN` who sat in seat N (`human` or an engine) and
//!   `StrategyN` an engine seat's strategy. `Seed` is the seed of the server's dice: with it a
//!   game opened again rolls on as it would have. `FEN` is the start.
//! - An engine's decision may be followed by a comment `{dDEPTH cpX}`: what its last `info`
//!   line said, as in the match runner's records.
//! - `Result` and the last token are `p1win` .. `p4win`, or `*` for an unfinished game (as
//!   the protocol's `query result` words a winner).
//!
//! The reader ([`parse`]) checks the form only; [`open`] replays the events with the rules.

use super::{Opened, Saved, played};
use crate::gui::view::view;
use crate::tools::matches::record::{Movetext, movetext, parse_tag, write_tag};
use std::fmt::Write as _;

/// The game as a record, a new line for each turn (where the player changes).
pub(super) fn write(game: &Saved) -> String {
    let events = &game.view.events;
    let breaks = (1..events.len()).filter(|&i| events[i - 1].player != events[i].player).collect();
    let comment = |depth: Option<u32>, score: Option<&String>| {
        let words: Vec<String> =
            depth.map(|d| format!("d{d}")).into_iter().chain(score.map(|s| s.replace(' ', ""))).collect();
        (!words.is_empty()).then(|| words.join(" "))
    };
    DiceRecord {
        variant: game.variant.to_string(),
        options: game.options.to_vec(),
        fen: game.start.to_string(),
        seed: Some(game.seed),
        seats: game.seats.iter().map(|s| (s.player.clone(), s.strategy.clone())).collect(),
        events: game.steps.iter().map(|e| (e.text.clone(), comment(e.depth, e.score.as_ref()))).collect(),
        breaks,
        result: result_token(game.view.winner),
    }
    .to_text()
}

/// `p1win` .. `p4win` for the winner's seat (from 0), `*` while the game goes on.
fn result_token(winner: Option<usize>) -> String {
    winner.map_or("*".to_string(), |w| format!("p{}win", w + 1))
}

/// The game of a record (it holds one), replayed with the rules: its result must be theirs.
pub(super) fn open(text: &str) -> Result<(Opened, Vec<String>), String> {
    let record = parse(text)?;
    let texts: Vec<String> = record.events.iter().map(|(e, _)| e.clone()).collect();
    let position = view(&record.variant, &record.options, Some(&record.fen), &texts)?;
    let replayed = result_token(position.winner);
    if replayed != record.result {
        return Err(format!("the record's result is {}, but its events give {replayed}", record.result));
    }
    let title = format!("1: {} players, {} events, {}", position.players, texts.len(), record.result);
    let steps = record.events.iter().map(|(text, comment)| played(text, comment.as_deref())).collect();
    let opened = Opened {
        variant: record.variant,
        options: record.options,
        fen: Some(record.fen),
        seed: record.seed,
        steps,
        ending: None,
    };
    Ok((opened, vec![title]))
}

/// A dice game as its record holds it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiceRecord {
    /// The variant's name.
    pub variant: String,
    /// The rule options that differ from their defaults, by name.
    pub options: Vec<(String, String)>,
    /// The start position.
    pub fen: String,
    /// The seed of the dice, when the record gives one.
    pub seed: Option<u64>,
    /// Who sat in each seat, and the strategy of an engine seat.
    pub seats: Vec<(String, Option<String>)>,
    /// The events, with each one's comment (without its braces), if any.
    pub events: Vec<(String, Option<String>)>,
    /// Where a new line starts: before the event of each index listed (turns, for people).
    pub breaks: Vec<usize>,
    /// `p1win` .. `p4win` or `*`.
    pub result: String,
}

impl DiceRecord {
    /// The record as text.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        let mut tag = |key: &str, value: &str| write_tag(&mut text, key, value);
        tag("Event", "steere gui");
        tag("Variant", &self.variant);
        for (name, value) in &self.options {
            tag(name, value);
        }
        tag("Players", &self.seats.len().to_string());
        for (i, (player, strategy)) in self.seats.iter().enumerate() {
            tag(&format!("Player{}", i + 1), player);
            if let Some(strategy) = strategy {
                tag(&format!("Strategy{}", i + 1), strategy);
            }
        }
        if let Some(seed) = self.seed {
            tag("Seed", &seed.to_string());
        }
        tag("FEN", &self.fen);
        tag("Events", &self.events.len().to_string());
        tag("Result", &self.result);
        text.push('\n');
        let mut line = String::new();
        for (i, (event, comment)) in self.events.iter().enumerate() {
            if self.breaks.contains(&i) && !line.is_empty() {
                text.push_str(line.trim_end());
                text.push('\n');
                line.clear();
            }
            line.push_str(event);
            if let Some(comment) = comment {
                let _ = write!(line, " {{{comment}}}");
            }
            line.push(' ');
        }
        if !line.is_empty() {
            text.push_str(line.trim_end());
            text.push('\n');
        }
        text.push_str(&self.result);
        text.push('\n');
        text
    }
}

/// Whether `token` is a result token: `*` or `p1win` .. `p4win` (any digit is read; the replay
/// checks the winner).
fn is_result(token: &str) -> bool {
    token == "*"
        || token
            .strip_prefix('p')
            .and_then(|rest| rest.strip_suffix("win"))
            .is_some_and(|n| n.len() == 1 && n.chars().all(|c| c.is_ascii_digit()))
}

/// The `Variant` tag of a record file, if it has one: which family of game it holds.
pub fn variant_of(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .take_while(|line| line.is_empty() || line.starts_with('['))
        .filter_map(|line| parse_tag(line).ok())
        .find(|(key, _)| key == "Variant")
        .map(|(_, value)| value)
}

/// Reads the first game of a record, with an error that names the line.
pub fn parse(text: &str) -> Result<DiceRecord, String> {
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut record = DiceRecord::default();
    let mut in_events = false;
    'lines: for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        let at = |e: &str| format!("line {}: {e}", number + 1);
        if line.is_empty() {
            continue;
        }
        if !in_events && line.starts_with('[') {
            tags.push(parse_tag(line).map_err(|e| at(&e))?);
            continue;
        }
        in_events = true;
        let mut first_on_line = true;
        for piece in movetext(line) {
            let token = match piece.map_err(|e| at(&e))? {
                Movetext::Token(token) => token,
                Movetext::Comment(comment) => {
                    let last = record.events.last_mut().ok_or_else(|| at("a comment before any event"))?;
                    last.1 = Some(comment.trim().to_string());
                    continue;
                }
            };
            if is_result(token) {
                record.result = token.to_string();
                break 'lines;
            }
            if first_on_line && !record.events.is_empty() {
                record.breaks.push(record.events.len());
            }
            first_on_line = false;
            record.events.push((token.to_string(), None));
        }
    }
    if record.result.is_empty() {
        return Err("the record does not end with a result (p1win .. p4win, or * unfinished)".to_string());
    }
    let tag = |key: &str| tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    record.variant = tag("Variant").ok_or("the record has no Variant tag")?.to_string();
    record.fen = tag("FEN").ok_or("the record has no FEN tag")?.to_string();
    // The rule options' tags, by the names every game's options have; the replay checks them.
    let options = crate::variants::rule_options();
    record.options = tags
        .iter()
        .filter(|(key, _)| options.iter().any(|o| o.name == key))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    if let Some(result) = tag("Result").filter(|r| *r != record.result) {
        return Err(format!("the Result tag says {result}, the result token {}", record.result));
    }
    record.seed = match tag("Seed") {
        Some(seed) => Some(seed.parse().map_err(|_| format!("Seed '{seed}': expected a number"))?),
        None => None,
    };
    let players = match tag("Players") {
        Some(n) => n.parse::<usize>().ok().filter(|n| (1..=8).contains(n)).ok_or(format!("Players '{n}'"))?,
        None => 0,
    };
    record.seats = (1..=players)
        .map(|i| {
            let player = tag(&format!("Player{i}")).unwrap_or("human").to_string();
            (player, tag(&format!("Strategy{i}")).map(str::to_string))
        })
        .collect();
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> DiceRecord {
        let events = ["r1546", "6.10", "roll", "r2435", "6.8", "stop", "r2455", "7", "roll"];
        DiceRecord {
            options: Vec::new(),
            variant: "cantstop".to_string(),
            fen: "p2 00000000000/00000000000 - 1 r".to_string(),
            seed: Some(1234),
            seats: vec![("human".to_string(), None), ("st\"eere".to_string(), Some("greedy".to_string()))],
            events: events
                .iter()
                .enumerate()
                .map(|(i, e)| (e.to_string(), (i == 7).then(|| "d1 cp35".to_string())))
                .collect(),
            breaks: vec![6],
            result: "*".to_string(),
        }
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let record = sample();
        let text = record.to_text();
        assert!(text.contains("[Player2 \"st\\\"eere\"]\n[Strategy2 \"greedy\"]\n[Seed \"1234\"]"), "{text}");
        assert!(text.contains("\nr1546 6.10 roll r2435 6.8 stop\nr2455 7 {d1 cp35} roll\n*\n"), "{text}");
        assert_eq!(parse(&text), Ok(record));
        assert_eq!(variant_of(&text).as_deref(), Some("cantstop"));
    }

    #[test]
    fn malformed_records_are_refused_with_a_reason() {
        let text = sample().to_text();
        let cut = text.trim_end().trim_end_matches('*');
        assert!(parse(cut).unwrap_err().contains("does not end with a result"));
        let disagree = text.replace("[Result \"*\"]", "[Result \"p2win\"]");
        assert!(parse(&disagree).unwrap_err().contains("Result tag says p2win"));
        let bad_seed = text.replace("[Seed \"1234\"]", "[Seed \"many\"]");
        assert!(parse(&bad_seed).unwrap_err().contains("Seed 'many'"));
        assert!(parse("[FEN \"x\"]\n\n*\n").unwrap_err().contains("no Variant"));
        assert!(parse("[Variant \"cantstop\"\n*").unwrap_err().starts_with("line 1:"));
        assert!(parse("{lost} r1111 *").unwrap_err().contains("before any event"));
        assert_eq!(variant_of("r1111 *"), None);
    }
}
