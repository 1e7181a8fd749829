//! The position notation (FEN) and the event tokens of the rules, with the errors that name
//! what is wrong.
//!
//! `pN  M1/M2[/M3[/M4]]  NEUTRAL  TOMOVE  PHASE`, e.g. `p2 00002010100/00000000000 - 2 r`; the
//! events `r1546` (a roll), `6.10` (a choice), `roll` and `stop`.

use super::board::{self, COLUMNS, HEIGHTS, MAX_PLAYERS, NEUTRAL_MARKERS};
use super::{Choice, Dice, Event, Options, Phase, Position, Variant};
use std::fmt;

/// Why a FEN was rejected: the number of the rule of the contract's "Rejected positions" it
/// breaks (1 to 9; 10 for the rules of the options in force) and what exactly is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// The rule broken, 1 to 10 (10: the options' rules).
    pub rule: u8,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FenError {}

fn reject<T>(rule: u8, message: impl Into<String>) -> Result<T, FenError> {
    Err(FenError { rule, message: message.into() })
}

/// Why an event was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventError {
    /// The text is no event token.
    Malformed(String),
    /// A well-formed event that is not legal here.
    Illegal(String),
}

impl fmt::Display for EventError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            EventError::Malformed(m) | EventError::Illegal(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for EventError {}

/// A text of the input as a message repeats it (the crate's one quoting rule): at most 40
/// characters, control characters escaped, so that a 1 MB token never makes a 1 MB message.
fn quoted(text: &str) -> String {
    crate::quote::quote(text)
}

/// The character of a marker on `space` (0 to 13): `0`-`9`, then `a`-`d`.
fn space_char(space: u8) -> char {
    char::from_digit(space as u32, 16).expect("a space is at most 13")
}

impl Position {
    /// Reads a FEN of the base game, rejecting every position no game can reach (the
    /// contract's nine rules). Dice and neutral markers may come in any order.
    pub fn parse_fen(text: &str) -> Result<Position, FenError> {
        Position::parse_fen_with(text, Options::BASE)
    }

    /// Reads a FEN of a game played under `options`, checked under them: the nine rules with
    /// their number of columns to win, and the options' own (rule 10: the options are offered
    /// for this many players; under a variant, coloured markers of two players never share a
    /// space; under skip, no neutral marker stands on another player's coloured marker).
    pub fn parse_fen_with(text: &str, options: Options) -> Result<Position, FenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 5 {
            return reject(
                1,
                format!(
                    "a position has 5 fields (players, markers, neutral, to move, phase), not {}",
                    fields.len()
                ),
            );
        }
        let players = match fields[0] {
            "p2" => 2,
            "p3" => 3,
            "p4" => 4,
            other => return reject(1, format!("the players field is p2, p3 or p4, not {}", quoted(other))),
        };
        let markers = parse_markers(fields[1], players)?;
        let to_move = match fields[3].parse::<usize>() {
            Ok(n) if (1..=players).contains(&n) => n - 1,
            _ => {
                return reject(4, format!("the player to move is 1 to {players}, not {}", quoted(fields[3])));
            }
        };
        let phase = parse_phase(fields[4])?;
        let neutral = parse_neutral(fields[2], &markers, to_move, players)?;
        let options = options.for_players(players).or_else(|e| reject(10, e))?;
        let pos = Position::from_parts(players, to_move, markers, neutral, phase, options);
        check_consistency(&pos)?;
        check_options(&pos)?;
        Ok(pos)
    }

    /// The FEN, in canonical form.
    pub fn fen(&self) -> String {
        let markers: Vec<String> = (0..self.players())
            .map(|p| (0..COLUMNS).map(|c| space_char(self.marker(p, c))).collect())
            .collect();
        let neutral: Vec<String> = (0..COLUMNS)
            .filter(|&c| self.neutral(c) != 0)
            .map(|c| format!("{}:{}", board::name(c), self.neutral(c)))
            .collect();
        let neutral = if neutral.is_empty() { "-".to_string() } else { neutral.join(",") };
        let phase = match self.phase() {
            Phase::Roll => "r".to_string(),
            Phase::Choose(dice) => format!("c{dice}"),
            Phase::Decide => "s".to_string(),
        };
        format!("p{} {} {} {} {}", self.players(), markers.join("/"), neutral, self.to_move() + 1, phase)
    }

    /// Reads an event token and checks that it is legal here.
    pub fn parse_event(&self, text: &str) -> Result<Event, EventError> {
        let event = parse_event_token(text)?;
        if self.is_legal(event) {
            Ok(event)
        } else if let Some(winner) = self.winner() {
            Err(EventError::Illegal(format!(
                "{}: the game is over (player {} won)",
                quoted(text),
                winner + 1
            )))
        } else {
            let expected = match self.phase() {
                Phase::Roll => "a roll such as r1546".to_string(),
                Phase::Choose(_) => {
                    let events: Vec<String> = self.legal_events().iter().map(|e| event_text(*e)).collect();
                    format!("one of the choices {}", events.join(" "))
                }
                Phase::Decide if self.may_stop() => "roll or stop".to_string(),
                Phase::Decide => {
                    "roll (variant mustroll: a neutral marker stands on another player's marker)".to_string()
                }
            };
            Err(EventError::Illegal(format!("{} is not legal here: expected {expected}", quoted(text))))
        }
    }
}

/// The text of an event, canonical: `r1456`, `6.10`, `roll`, `stop`.
pub fn event_text(event: Event) -> String {
    match event {
        Event::Roll(dice) => format!("r{dice}"),
        Event::Choose(choice) => choice.columns().iter().map(u8::to_string).collect::<Vec<_>>().join("."),
        Event::Continue => "roll".to_string(),
        Event::Stop => "stop".to_string(),
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&event_text(*self))
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&event_text(Event::Choose(*self)))
    }
}

/// Reads an event token without looking at a position: `rABCD` (dice in any order), a choice
/// (`7`, `7.11`, `11.7`, `7.7`), `roll` or `stop`.
pub fn parse_event_token(text: &str) -> Result<Event, EventError> {
    let malformed = || {
        EventError::Malformed(format!(
            "{} is no event: expected a roll (r1546), a choice of columns 2-12 (7, 6.10, 7.7), roll or stop",
            quoted(text)
        ))
    };
    match text {
        "roll" => return Ok(Event::Continue),
        "stop" => return Ok(Event::Stop),
        _ => {}
    }
    if let Some(digits) = text.strip_prefix('r') {
        return parse_dice(digits).map(Event::Roll).ok_or_else(malformed);
    }
    let columns: Vec<u8> = text
        .split('.')
        .map(|part| part.parse::<u8>().ok().filter(|c| (2..=12).contains(c) && !part.starts_with('0')))
        .collect::<Option<_>>()
        .ok_or_else(malformed)?;
    match columns[..] {
        [c] => Ok(Event::Choose(Choice::one(c))),
        [s, t] => Ok(Event::Choose(Choice::two(s, t))),
        _ => Err(malformed()),
    }
}

/// Four dice digits 1-6 in any order.
fn parse_dice(digits: &str) -> Option<Dice> {
    let values: Vec<u8> = digits.chars().map(|ch| ch.to_digit(10).map(|d| d as u8)).collect::<Option<_>>()?;
    Dice::new(values.try_into().ok()?)
}

fn parse_markers(field: &str, players: usize) -> Result<[[u8; COLUMNS]; MAX_PLAYERS], FenError> {
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != players {
        return reject(
            1,
            format!("p{players} needs {players} marker strings separated by '/', not {}", rows.len()),
        );
    }
    let mut markers = [[0; COLUMNS]; MAX_PLAYERS];
    for (p, row) in rows.iter().enumerate() {
        let spaces: Vec<u8> = row
            .chars()
            .map(|ch| if ch.is_ascii_uppercase() { None } else { ch.to_digit(16).map(|d| d as u8) })
            .collect::<Option<_>>()
            .filter(|spaces: &Vec<u8>| spaces.len() == COLUMNS && spaces.iter().all(|&s| s <= 13))
            .map_or_else(
                || {
                    reject(
                        1,
                        format!(
                            "player {}'s markers {} are not 11 characters from 0-9a-d",
                            p + 1,
                            quoted(row)
                        ),
                    )
                },
                Ok,
            )?;
        for (c, &space) in spaces.iter().enumerate() {
            if space > HEIGHTS[c] {
                return reject(
                    2,
                    format!(
                        "player {}'s marker in column {} is on space {space}, above its top ({})",
                        p + 1,
                        board::name(c),
                        HEIGHTS[c]
                    ),
                );
            }
            markers[p][c] = space;
        }
    }
    for c in 0..COLUMNS {
        let winners: Vec<usize> = (0..players).filter(|&p| markers[p][c] == HEIGHTS[c]).collect();
        if let Some(&winner) = winners.first()
            && let Some(other) = (0..players).find(|&p| p != winner && markers[p][c] != 0)
        {
            return reject(
                3,
                format!(
                    "column {} is won by player {} but still holds player {}'s marker",
                    board::name(c),
                    winner + 1,
                    other + 1
                ),
            );
        }
    }
    Ok(markers)
}

fn parse_phase(field: &str) -> Result<Phase, FenError> {
    match field {
        "r" => Ok(Phase::Roll),
        "s" => Ok(Phase::Decide),
        _ => field.strip_prefix('c').and_then(parse_dice).map(Phase::Choose).map_or_else(
            || reject(4, format!("the phase is r, s or c with four dice 1-6 (c1456), not {}", quoted(field))),
            Ok,
        ),
    }
}

fn parse_neutral(
    field: &str,
    markers: &[[u8; COLUMNS]; MAX_PLAYERS],
    to_move: usize,
    players: usize,
) -> Result<[u8; COLUMNS], FenError> {
    let mut neutral = [0; COLUMNS];
    if field == "-" {
        return Ok(neutral);
    }
    let entries: Vec<&str> = field.split(',').collect();
    if entries.len() > NEUTRAL_MARKERS {
        return reject(5, format!("there are {} neutral markers, at most 3", entries.len()));
    }
    for entry in entries {
        let parsed =
            entry.split_once(':').and_then(|(c, s)| Some((c.parse::<u8>().ok()?, s.parse::<u8>().ok()?)));
        let Some((column, space)) = parsed else {
            return reject(5, format!("neutral marker {} is not COLUMN:SPACE (e.g. 7:3)", quoted(entry)));
        };
        if !(2..=12).contains(&column) {
            return reject(5, format!("neutral marker {}: there is no column {column}", quoted(entry)));
        }
        let c = board::index(column);
        if neutral[c] != 0 {
            return reject(5, format!("two neutral markers share column {column}"));
        }
        if let Some(p) = (0..players).find(|&p| markers[p][c] == HEIGHTS[c]) {
            return reject(
                5,
                format!("neutral marker {} is in column {column}, won by player {}", quoted(entry), p + 1),
            );
        }
        if space > HEIGHTS[c] {
            return reject(
                5,
                format!(
                    "neutral marker {} is above the top of column {column} ({})",
                    quoted(entry),
                    HEIGHTS[c]
                ),
            );
        }
        if space <= markers[to_move][c] {
            return reject(
                5,
                format!(
                    "neutral marker {} is not above player {}'s own marker (space {}) in column {column}",
                    quoted(entry),
                    to_move + 1,
                    markers[to_move][c]
                ),
            );
        }
        neutral[c] = space;
    }
    Ok(neutral)
}

/// The rules that look at the whole position (6 to 9).
fn check_consistency(pos: &Position) -> Result<(), FenError> {
    match pos.phase() {
        Phase::Decide if pos.neutral_count() == 0 => {
            return reject(6, "the phase is s (roll or stop) but no neutral marker is placed");
        }
        Phase::Choose(dice) if pos.choices(dice).is_empty() => {
            return reject(
                7,
                format!("the dice {dice} leave no choice: such a roll busts, applied with the roll"),
            );
        }
        _ => {}
    }
    // A game ends when a player has won W columns; his last stop can win at most three more.
    let (wins, most) = (pos.columns_to_win(), pos.columns_to_win() + 2);
    let winners: Vec<usize> = (0..pos.players()).filter(|&p| pos.won_count(p) >= wins).collect();
    if winners.len() > 1 {
        return reject(
            8,
            format!("players {} and {} have each won {wins} columns or more", winners[0] + 1, winners[1] + 1),
        );
    }
    if let Some(p) = (0..pos.players()).find(|&p| pos.won_count(p) > most) {
        return reject(8, format!("player {} has won {} columns, more than {most}", p + 1, pos.won_count(p)));
    }
    if let Some(&winner) = winners.first() {
        let next = pos.next_player(winner);
        if pos.to_move() != next || pos.phase() != Phase::Roll || pos.neutral_count() != 0 {
            return reject(
                9,
                format!(
                    "player {} has won: the game is over, so player {} must be to roll (phase r) with no neutral marker",
                    winner + 1,
                    next + 1
                ),
            );
        }
    }
    Ok(())
}

/// Rule 10, the variants' own: under either, coloured markers of two players never share a
/// space (a stop never banks a neutral marker on another player's); under skip, no neutral
/// marker stands on another player's coloured marker either.
fn check_options(pos: &Position) -> Result<(), FenError> {
    let variant = pos.options().variant();
    if variant == Variant::None {
        return Ok(());
    }
    for c in 0..COLUMNS {
        for p in 0..pos.players() {
            let space = pos.marker(p, c);
            if let Some(q) = (p + 1..pos.players()).find(|&q| space != 0 && pos.marker(q, c) == space) {
                return reject(
                    10,
                    format!(
                        "players {} and {} share space {space} of column {} (never under variant {})",
                        p + 1,
                        q + 1,
                        board::name(c),
                        variant.name()
                    ),
                );
            }
        }
        let space = pos.neutral(c);
        let mover = pos.to_move();
        if variant == Variant::Skip
            && space != 0
            && let Some(p) = (0..pos.players()).find(|&p| p != mover && pos.marker(p, c) == space)
        {
            return reject(
                10,
                format!(
                    "the neutral marker {}:{space} stands on player {}'s marker (never under variant skip)",
                    board::name(c),
                    p + 1
                ),
            );
        }
    }
    Ok(())
}

/// A diagram for `d`: one row per column, the spaces with each player's marker (1-4) and the
/// neutral marker (`*`).
pub fn diagram(pos: &Position) -> Vec<String> {
    let mut lines = Vec::new();
    for (c, &height) in HEIGHTS.iter().enumerate() {
        let mut row = format!("{:>2} |", board::name(c));
        for space in 1..=height {
            let mut cell = String::new();
            for p in 0..pos.players() {
                if pos.marker(p, c) == space {
                    cell.push(char::from_digit(p as u32 + 1, 10).unwrap_or('?'));
                }
            }
            if pos.neutral(c) == space {
                cell.push('*');
            }
            row.push_str(&format!(" {:<2}", if cell.is_empty() { ".".to_string() } else { cell }));
        }
        let won = (0..pos.players()).find(|&p| pos.marker(p, c) == HEIGHTS[c]);
        if let Some(p) = won {
            row.push_str(&format!("  won by player {}", p + 1));
        }
        lines.push(row);
    }
    lines
}
