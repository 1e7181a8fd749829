//! Independent reference implementation of the rules of Can't Stop (Sid Sackson, 1980), used only
//! by tests.
//!
//! This module exists to check the engine's implementation, so it shares nothing with it: it was
//! written from the rules contract alone (`cantstop.md`, with its perft and no-bust tables), without
//! reading any of the engine's code, and has its own position, FEN reader and writer, event
//! notation and perft. It covers the base game and the contract's optional variants (columns to
//! win 4 or 5, variant A "skip", variant B "must roll"; see `options.rs`), which a position
//! carries: `Position::parse` is the base game, `Position::parse_with` any offered options. It is
//! meant to be obviously correct rather than fast:
//!
//! * a position is a plain record: each player's 11 coloured markers (0 = none, else the space),
//!   the neutral markers as a sorted list of (column, space), the player to move and the phase
//!   (`r`, `c` + dice, `s`), exactly the five fields of the FEN ("Position notation");
//! * a column is won by the player whose coloured marker is on its top, and closed when won;
//! * the choice set of a roll follows "Choices" word for word: for each of the three pairings
//!   a+b/c+d, a+c/b+d, a+d/b+c, the sums s and t are checked for usability and advanced in as the
//!   three cases say (s = t: advance, then again if still usable; s != t, both usable, both new,
//!   one marker left: either one; otherwise every usable sum), and the results (the columns
//!   advanced, with multiplicity, ascending) of all pairings are gathered in a set;
//! * a choice is applied by advancing in each of its columns in turn, as "Advancing" says;
//! * a roll whose choice set is empty is a bust, applied with the roll: the neutral markers come
//!   off and the next player is to roll; `stop` replaces each neutral marker by the mover's
//!   coloured marker, removes the other players' markers from the columns it wins, and passes the
//!   turn; the game is over once a player has won 3 (W) or more columns;
//! * under skip, each advance (placing or moving up) lands by the skip rule; under must-roll,
//!   phase s has only `roll` while a neutral marker stands on another player's coloured marker;
//! * perft counts event sequences, with the 126 roll events (non-decreasing dice) of a roll phase;
//! * every event is played on a fresh copy of the position.
//!
//! Nothing here is clever, so that a disagreement with the engine is easy to judge by reading the
//! contract beside this code.

// This file is included with `#[path = "cantstop_reference/mod.rs"] mod cantstop_reference;` by
// test targets, and each of them uses only part of its API.
#![allow(dead_code)]

use std::collections::BTreeSet;

mod options;
// Each including target uses only part of the API.
#[allow(unused_imports)]
pub use options::{Options, Variant};

/// The two-player start position (`startpos`), exactly as written in the contract.
pub const START_FEN: &str = "p2 00000000000/00000000000 - 1 r";

/// The number of spaces of columns 2 to 12 ("Equipment and players").
pub const COLUMN_LENGTHS: [u8; 11] = [3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3];

/// Columns a player must have won to win the game (base game; `Options::columns_to_win` else).
pub const COLUMNS_TO_WIN: usize = 3;

/// The number of spaces of `column` (2..=12); its top is that space.
pub fn column_length(column: u8) -> u8 {
    assert!((2..=12).contains(&column), "no column {column}");
    COLUMN_LENGTHS[(column - 2) as usize]
}

/// The start position with `players` players (2..=4): `pN`, N strings of eleven `0`, `- 1 r`.
pub fn start_fen(players: usize) -> String {
    assert!((2..=4).contains(&players), "Can't Stop has 2 to 4 players, not {players}");
    format!("p{players} {} - 1 r", vec!["00000000000"; players].join("/"))
}

/// The number of orderings of the multiset `dice` among the 1296 ordered outcomes of four dice.
pub fn roll_weight(dice: [u8; 4]) -> u32 {
    assert!(dice.iter().all(|d| (1..=6).contains(d)), "dice must be 1-6: {dice:?}");
    let mut weight = 24; // 4!
    for value in 1..=6u8 {
        let k = dice.iter().filter(|&&d| d == value).count() as u32;
        weight /= (1..=k).product::<u32>();
    }
    weight
}

/// The 126 multisets of four dice, each with its dice in non-decreasing order, in increasing order.
pub fn all_rolls() -> Vec<[u8; 4]> {
    let mut rolls = Vec::new();
    for a in 1..=6 {
        for b in a..=6 {
            for c in b..=6 {
                for d in c..=6 {
                    rolls.push([a, b, c, d]);
                }
            }
        }
    }
    rolls
}

/// The token of a roll event: `r` and the four dice as given.
pub fn roll_token(dice: [u8; 4]) -> String {
    format!("r{}{}{}{}", dice[0], dice[1], dice[2], dice[3])
}

/// The token of a choice: the columns advanced, ascending, joined by `.`.
pub fn choice_token(result: &[u8]) -> String {
    let mut columns = result.to_vec();
    columns.sort();
    columns.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(".")
}

/// The phase of a position (the FEN's last field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// `r`: the dice are to be rolled.
    Roll,
    /// `c` + dice: the player to move must choose a result for these dice (non-decreasing).
    Choose([u8; 4]),
    /// `s`: the player to move rolls again or stops.
    RollOrStop,
}

/// A position: exactly the contents of a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// 2, 3 or 4.
    players: usize,
    /// `markers[k][c - 2]`: the space of player k+1's coloured marker in column c, 0 if none.
    markers: Vec<[u8; 11]>,
    /// The neutral markers (the mover's) as (column, space), sorted by column.
    neutral: Vec<(u8, u8)>,
    /// The player to move, 1-based.
    to_move: usize,
    phase: Phase,
    /// The options in force (not part of the FEN).
    options: Options,
}

/// The character of a marker's space: `0`-`9`, then `a`=10 ... `d`=13.
fn marker_char(space: u8) -> char {
    std::char::from_digit(space as u32, 14).unwrap()
}

/// A decimal number without sign or leading zero (`0` itself excepted).
fn parse_decimal(text: &str) -> Option<u32> {
    let canonical = !text.is_empty()
        && text.chars().all(|ch| ch.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'))
        && text.len() <= 3;
    if canonical { text.parse().ok() } else { None }
}

/// The four dice of `rABCD` (any order, each 1-6), in the order given.
fn parse_roll(event: &str) -> Result<[u8; 4], String> {
    let bad = || format!("`{event}` is not a roll event `rABCD` (four dice 1-6)");
    let digits = event.strip_prefix('r').ok_or_else(bad)?;
    let dice: Vec<u8> =
        digits.chars().map(|ch| ch.to_digit(10).map(|d| d as u8)).collect::<Option<_>>().ok_or_else(bad)?;
    if dice.len() != 4 || dice.iter().any(|d| !(1..=6).contains(d)) {
        return Err(bad());
    }
    Ok([dice[0], dice[1], dice[2], dice[3]])
}

/// The columns of a choice token (`7`, `7.11`, `11.7`, `7.7`), ascending.
fn parse_choice(event: &str) -> Result<Vec<u8>, String> {
    let bad = || format!("`{event}` is not a choice (one or two columns 2-12 joined by `.`)");
    let parts: Vec<&str> = event.split('.').collect();
    if parts.len() > 2 {
        return Err(bad());
    }
    let mut columns = Vec::new();
    for part in parts {
        match parse_decimal(part) {
            Some(c) if (2..=12).contains(&c) => columns.push(c as u8),
            _ => return Err(bad()),
        }
    }
    columns.sort();
    Ok(columns)
}

impl Position {
    /// Reads a FEN of the base game, rejecting each kind of position listed under "Rejected
    /// positions" with an error that starts with `rule K:` (K = 1..9, the contract's numbering) and
    /// names the problem.
    pub fn parse(fen: &str) -> Result<Position, String> {
        Position::parse_with(fen, &Options::base())
    }

    /// Reads a FEN checked under `options`: "a position is checked under the options in force".
    /// Rules 8 and 9 use W for 3 and W + 2 for 5; options not offered for the FEN's player count
    /// and the variants' own rejections give errors starting with `options:`.
    pub fn parse_with(fen: &str, options: &Options) -> Result<Position, String> {
        let options = *options;
        let fields: Vec<&str> = fen.split_whitespace().collect();
        // Rule 1: the shape.
        if fields.len() != 5 {
            return Err(format!(
                "rule 1: {} fields, want 5 (pN, markers, neutral, to move, phase)",
                fields.len()
            ));
        }
        let players = match fields[0] {
            "p2" => 2,
            "p3" => 3,
            "p4" => 4,
            other => return Err(format!("rule 1: `{other}` is not p2, p3 or p4")),
        };
        let rows: Vec<&str> = fields[1].split('/').collect();
        if rows.len() != players {
            return Err(format!("rule 1: {} marker strings for {players} players", rows.len()));
        }
        let mut markers = Vec::new();
        for (k, row) in rows.iter().enumerate() {
            let spaces: Vec<Option<u8>> = row
                .chars()
                .map(|ch| match ch {
                    '0'..='9' | 'a'..='d' => ch.to_digit(14).map(|d| d as u8),
                    _ => None,
                })
                .collect();
            if spaces.len() != 11 || spaces.iter().any(|s| s.is_none()) {
                return Err(format!(
                    "rule 1: player {}'s markers `{row}` are not 11 characters of 0-9a-d",
                    k + 1
                ));
            }
            let mut line = [0u8; 11];
            for (i, s) in spaces.into_iter().enumerate() {
                line[i] = s.unwrap();
            }
            markers.push(line);
        }
        // The options must be offered for this player count.
        options.offered_for(players)?;
        // Rule 2: a marker above its column's top.
        for (k, line) in markers.iter().enumerate() {
            for column in 2..=12u8 {
                let space = line[(column - 2) as usize];
                if space > column_length(column) {
                    return Err(format!(
                        "rule 2: player {}'s marker in column {column} is on space {space}, above the top ({})",
                        k + 1,
                        column_length(column)
                    ));
                }
            }
        }
        // Rule 3: a won column holding another player's marker.
        for column in 2..=12u8 {
            let i = (column - 2) as usize;
            let Some(winner) = markers.iter().position(|line| line[i] == column_length(column)) else {
                continue;
            };
            for (other, line) in markers.iter().enumerate() {
                if other != winner && line[i] != 0 {
                    return Err(format!(
                        "rule 3: column {column} is won by player {} but still holds player {}'s marker",
                        winner + 1,
                        other + 1
                    ));
                }
            }
        }
        // Rule 4: the player to move and the phase.
        let to_move = match parse_decimal(fields[3]) {
            Some(n) if (1..=players as u32).contains(&n) => n as usize,
            _ => return Err(format!("rule 4: player to move `{}` is not 1 to {players}", fields[3])),
        };
        let phase = match fields[4] {
            "r" => Phase::Roll,
            "s" => Phase::RollOrStop,
            other => {
                let dice = other.strip_prefix('c').and_then(|d| parse_roll(&format!("r{d}")).ok());
                match dice {
                    Some(mut dice) => {
                        dice.sort();
                        Phase::Choose(dice)
                    }
                    None => return Err(format!("rule 4: phase `{other}` is not r, s or c + four dice 1-6")),
                }
            }
        };
        // Rule 5: the neutral markers.
        let mut neutral: Vec<(u8, u8)> = Vec::new();
        if fields[2] != "-" {
            for item in fields[2].split(',') {
                let parsed =
                    item.split_once(':').and_then(|(c, s)| Some((parse_decimal(c)?, parse_decimal(s)?)));
                let Some((column, space)) = parsed else {
                    return Err(format!("rule 5: neutral marker `{item}` is not COLUMN:SPACE"));
                };
                if !(2..=12).contains(&column) {
                    return Err(format!("rule 5: neutral marker `{item}` is in unknown column {column}"));
                }
                let column = column as u8;
                let space = u8::try_from(space).map_err(|_| {
                    format!("rule 5: neutral marker `{item}` is above the top of column {column}")
                })?;
                if neutral.iter().any(|&(c, _)| c == column) {
                    return Err(format!("rule 5: two neutral markers share column {column}"));
                }
                neutral.push((column, space));
            }
        }
        if neutral.len() > 3 {
            return Err(format!("rule 5: {} neutral markers, at most 3", neutral.len()));
        }
        neutral.sort();
        let pos = Position { players, markers, neutral, to_move, phase, options };
        for &(column, space) in &pos.neutral {
            if let Some(w) = pos.column_winner(column) {
                return Err(format!("rule 5: a neutral marker is in column {column}, won by player {w}"));
            }
            let own = pos.marker(to_move, column);
            if space <= own {
                return Err(format!(
                    "rule 5: neutral marker {column}:{space} is not above player {to_move}'s marker (space {own})"
                ));
            }
            if space > column_length(column) {
                return Err(format!(
                    "rule 5: neutral marker {column}:{space} is above the top ({})",
                    column_length(column)
                ));
            }
        }
        // Rule 6: phase s needs neutral markers.
        if pos.phase == Phase::RollOrStop && pos.neutral.is_empty() {
            return Err("rule 6: phase s with no neutral markers".to_string());
        }
        // The options section: shared spaces under either variant, and under skip a neutral
        // marker on another player's coloured marker.
        pos.check_variant_rules()?;
        // Rule 7: phase c with dice that bust.
        if let Phase::Choose(dice) = pos.phase
            && pos.choices_for_dice(dice).is_empty()
        {
            return Err(format!("rule 7: phase c with dice {dice:?}, which leave no choice (a bust)"));
        }
        // Rule 8: won columns ("rules 8 and 9 ... use W for 3 and W + 2 for 5").
        let w = options.win();
        let big: Vec<usize> = (1..=players).filter(|&p| pos.won_columns(p).len() >= w).collect();
        if big.len() >= 2 {
            return Err(format!("rule 8: players {big:?} have each won {w} or more columns"));
        }
        for p in 1..=players {
            let won = pos.won_columns(p).len();
            if won > w + 2 {
                return Err(format!("rule 8: player {p} has won {won} columns, more than {}", w + 2));
            }
        }
        // Rule 9: a finished game.
        if let Some(w) = pos.winner() {
            let next = w % players + 1;
            if pos.to_move != next || pos.phase != Phase::Roll || !pos.neutral.is_empty() {
                return Err(format!(
                    "rule 9: player {w} has won, so player {next} must be to move in phase r with no neutral markers"
                ));
            }
        }
        Ok(pos)
    }

    /// The canonical FEN: lowercase, dice sorted, neutral markers ascending.
    pub fn to_fen(&self) -> String {
        let rows: Vec<String> =
            self.markers.iter().map(|line| line.iter().map(|&s| marker_char(s)).collect()).collect();
        let neutral = if self.neutral.is_empty() {
            "-".to_string()
        } else {
            self.neutral.iter().map(|(c, s)| format!("{c}:{s}")).collect::<Vec<_>>().join(",")
        };
        let phase = match self.phase {
            Phase::Roll => "r".to_string(),
            Phase::RollOrStop => "s".to_string(),
            Phase::Choose(d) => format!("c{}{}{}{}", d[0], d[1], d[2], d[3]),
        };
        format!("p{} {} {} {} {}", self.players, rows.join("/"), neutral, self.to_move, phase)
    }

    pub fn players(&self) -> usize {
        self.players
    }

    /// The player whose turn it is, 1-based.
    pub fn to_move(&self) -> usize {
        self.to_move
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The space of `player`'s (1-based) coloured marker in `column`, 0 if he has none there.
    pub fn marker(&self, player: usize, column: u8) -> u8 {
        self.markers[player - 1][(column - 2) as usize]
    }

    /// The neutral markers as (column, space), ascending by column.
    pub fn neutral_markers(&self) -> Vec<(u8, u8)> {
        self.neutral.clone()
    }

    /// The player whose coloured marker stands on the top of `column`, if any.
    pub fn column_winner(&self, column: u8) -> Option<usize> {
        (1..=self.players).find(|&p| self.marker(p, column) == column_length(column))
    }

    /// The columns `player` has won, ascending.
    pub fn won_columns(&self, player: usize) -> Vec<u8> {
        (2..=12).filter(|&c| self.column_winner(c) == Some(player)).collect()
    }

    /// The player who has won W (3 in the base game) or more columns: the winner, once the game
    /// is over.
    pub fn winner(&self) -> Option<usize> {
        (1..=self.players).find(|&p| self.won_columns(p).len() >= self.options.win())
    }

    fn next_player(&self) -> usize {
        self.to_move % self.players + 1
    }

    /// "A sum c is usable when column c is open and one of these holds: c holds a neutral marker
    /// below its top; c holds no neutral marker and one is still off the board."
    fn usable(&self, neutral: &[(u8, u8)], column: u8) -> bool {
        if self.column_winner(column).is_some() {
            return false;
        }
        match neutral.iter().find(|&&(c, _)| c == column) {
            Some(&(_, space)) => space < column_length(column),
            None => neutral.len() < 3,
        }
    }

    /// "Advancing in column c": move its neutral marker up one space, or place one just above the
    /// mover's coloured marker (space 1 if he has none); under skip, on to the space the skip rule
    /// gives ("This applies both to placing and to moving up"). Only called when c is usable, so
    /// each advance of a doubled sum lands by the skip rule in turn.
    fn advance(&self, neutral: &mut Vec<(u8, u8)>, column: u8) {
        assert!(self.usable(neutral, column), "advance in unusable column {column}");
        match neutral.iter_mut().find(|(c, _)| *c == column) {
            Some(marker) => marker.1 = self.landing(column, marker.1 + 1),
            None => {
                let own = self.marker(self.to_move, column);
                neutral.push((column, self.landing(column, own + 1)));
                neutral.sort();
            }
        }
    }

    /// The results a pairing with sums s and t allows (each ascending; empty = nothing).
    fn pairing_results(&self, s: u8, t: u8) -> Vec<Vec<u8>> {
        let neutral = &self.neutral;
        if s == t {
            // Advance, then advance again if still usable.
            let mut after = neutral.clone();
            let mut result = Vec::new();
            if self.usable(&after, s) {
                self.advance(&mut after, s);
                result.push(s);
                if self.usable(&after, s) {
                    self.advance(&mut after, s);
                    result.push(s);
                }
            }
            return vec![result];
        }
        let new_marker = |c: u8| !neutral.iter().any(|&(col, _)| col == c);
        let (us, ut) = (self.usable(neutral, s), self.usable(neutral, t));
        if us && ut && new_marker(s) && new_marker(t) && 3 - neutral.len() == 1 {
            // Exactly one of them, the player's choice.
            return vec![vec![s], vec![t]];
        }
        // Every usable sum.
        let mut result: Vec<u8> = [s, t].into_iter().filter(|&c| self.usable(neutral, c)).collect();
        result.sort();
        vec![result]
    }

    /// The choice set of `dice` (any order) from this position's markers, ascending: each result
    /// as a list of columns (with multiplicity, ascending). Empty = bust.
    fn results_for_dice(&self, dice: [u8; 4]) -> Vec<Vec<u8>> {
        assert!(dice.iter().all(|d| (1..=6).contains(d)), "dice must be 1-6: {dice:?}");
        let [a, b, c, d] = dice;
        let mut set: BTreeSet<Vec<u8>> = BTreeSet::new();
        for (s, t) in [(a + b, c + d), (a + c, b + d), (a + d, b + c)] {
            for result in self.pairing_results(s, t) {
                if !result.is_empty() {
                    set.insert(result);
                }
            }
        }
        set.into_iter().collect() // Vec<u8> order is the contract's: 6 < 6.10 < 7 < 7.9
    }

    /// The choice set (sorted tokens) that `dice` would give the player to move with these
    /// neutral markers (meant for phases r and s); empty = bust.
    pub fn choices_for_dice(&self, dice: [u8; 4]) -> Vec<String> {
        self.results_for_dice(dice).iter().map(|r| choice_token(r)).collect()
    }

    /// The number of the 1296 ordered outcomes of four dice that bust on the next roll.
    pub fn bust_probability_1296(&self) -> u32 {
        all_rolls().into_iter().filter(|&d| self.results_for_dice(d).is_empty()).map(roll_weight).sum()
    }

    /// The legal events in the contract's order; empty when the game is over.
    pub fn legal_events(&self) -> Vec<String> {
        if self.winner().is_some() {
            return Vec::new();
        }
        match self.phase {
            Phase::Roll => all_rolls().into_iter().map(roll_token).collect(),
            Phase::Choose(dice) => self.choices_for_dice(dice),
            // Must-roll: "`stop` is not allowed, and `roll` is the only event".
            Phase::RollOrStop if self.stop_refused().is_some() => vec!["roll".to_string()],
            Phase::RollOrStop => vec!["roll".to_string(), "stop".to_string()],
        }
    }

    /// The position after `event`, or why it is not legal here.
    pub fn play(&self, event: &str) -> Result<Position, String> {
        if let Some(w) = self.winner() {
            return Err(format!("the game is over (player {w} has won): `{event}` is not legal"));
        }
        let mut next = self.clone();
        match self.phase {
            Phase::Roll => {
                let mut dice = parse_roll(event).map_err(|e| format!("phase r: {e}"))?;
                dice.sort();
                if self.results_for_dice(dice).is_empty() {
                    // The bust, applied with the roll.
                    next.neutral.clear();
                    next.to_move = self.next_player();
                    next.phase = Phase::Roll;
                } else {
                    next.phase = Phase::Choose(dice);
                }
            }
            Phase::Choose(dice) => {
                let result = parse_choice(event).map_err(|e| format!("phase c: {e}"))?;
                if !self.results_for_dice(dice).contains(&result) {
                    return Err(format!(
                        "`{event}` is not a choice of dice {dice:?}: the choices are {:?}",
                        self.choices_for_dice(dice)
                    ));
                }
                for &column in &result {
                    self.advance(&mut next.neutral, column);
                }
                next.phase = Phase::RollOrStop;
            }
            Phase::RollOrStop => match event {
                "roll" => next.phase = Phase::Roll,
                "stop" => {
                    if let Some(why) = self.stop_refused() {
                        return Err(format!("phase s: {why}"));
                    }
                    let mover = self.to_move - 1;
                    for &(column, space) in &self.neutral {
                        next.markers[mover][(column - 2) as usize] = space;
                    }
                    for &(column, space) in &self.neutral {
                        if space == column_length(column) {
                            for (k, line) in next.markers.iter_mut().enumerate() {
                                if k != mover {
                                    line[(column - 2) as usize] = 0;
                                }
                            }
                        }
                    }
                    next.neutral.clear();
                    next.to_move = self.next_player();
                    next.phase = Phase::Roll;
                }
                _ => return Err(format!("phase s: `{event}` is not `roll` or `stop`")),
            },
        }
        Ok(next)
    }
}

/// The number of event sequences of length `depth` from `pos` (126 rolls per roll phase, a bust
/// part of its roll, none from a finished game).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let events = pos.legal_events();
    if depth == 1 {
        return events.len() as u64;
    }
    events.iter().map(|e| perft(&pos.play(e).expect("a legal event plays"), depth - 1)).sum()
}
