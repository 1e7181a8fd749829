//! The games of the fuzz, each judged by its independent reference (engine-tests/impasse_reference,
//! dipole_reference, hexdame_reference, cantstop_reference), never by the engine's own rules.
//!
//! Every answer the fuzz expects from the engine about a position (its canonical FEN, its legal
//! moves, the position after a move, who won, a perft count) comes from here. Positions are
//! passed around as the references' canonical FEN strings, which are also what the engine
//! prints, so that a position is "the same" exactly when the strings are equal.

use super::cantstop_reference as cantstop;
use super::common::Rng;
use super::dipole_reference as dipole;
use super::hexdame_reference as hexdame;
use super::reference as impasse;

/// A variant the engine plays (`UCI_Variant`), with its reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    /// `impasse`, judged by engine-tests/impasse_reference.
    Impasse,
    /// `dipole` (8x8), judged by engine-tests/dipole_reference.
    Dipole,
    /// `dipole10` (10x10), judged by engine-tests/dipole_reference.
    Dipole10,
    /// `hexdame`, judged by engine-tests/hexdame_reference.
    HexDame,
    /// `cantstop` (2 to 4 players), judged by engine-tests/cantstop_reference.
    CantStop,
}

impl Game {
    /// Every variant of `UCI_Variant`, in the order of its `var` list.
    pub const ALL: [Game; 5] = [Game::Impasse, Game::Dipole, Game::Dipole10, Game::HexDame, Game::CantStop];

    /// The `UCI_Variant` value.
    pub fn name(self) -> &'static str {
        match self {
            Game::Impasse => "impasse",
            Game::Dipole => "dipole",
            Game::Dipole10 => "dipole10",
            Game::HexDame => "hexdame",
            Game::CantStop => "cantstop",
        }
    }

    /// The dice game, whose `startpos` follows the `Players` option.
    pub fn is_dice(self) -> bool {
        self == Game::CantStop
    }

    fn dipole_variant(self) -> dipole::Variant {
        if self == Game::Dipole10 { dipole::Variant::Dipole10 } else { dipole::Variant::Dipole }
    }

    /// The FEN of `position startpos` (`players` matters for Can't Stop only).
    pub fn start_fen(self, players: usize) -> String {
        match self {
            Game::Impasse => impasse::START_FEN.to_string(),
            Game::Dipole | Game::Dipole10 => self.dipole_variant().start_fen().to_string(),
            Game::HexDame => hexdame::START_FEN.to_string(),
            Game::CantStop => cantstop::start_fen(players),
        }
    }

    /// The canonical FEN of `text`, or `None` when the reference rejects it.
    pub fn parse_fen(self, text: &str) -> Option<String> {
        match self {
            Game::Impasse => impasse::Position::from_fen(text).ok().map(|p| p.to_fen()),
            Game::Dipole | Game::Dipole10 => {
                dipole::Position::from_fen(self.dipole_variant(), text).ok().map(|p| p.to_fen())
            }
            Game::HexDame => hexdame::Position::from_fen(text).ok().map(|p| p.to_fen()),
            Game::CantStop => cantstop::Position::parse(text).ok().map(|p| p.to_fen()),
        }
    }

    /// Every legal move (or event) of `fen` as (text, FEN after), in the reference's order;
    /// empty for a finished position (repetition aside: see [`super::model`]).
    pub fn moves(self, fen: &str) -> Vec<(String, String)> {
        let listed = match self {
            Game::Impasse => impasse::legal_moves(fen),
            Game::Dipole | Game::Dipole10 => dipole::legal_moves(self.dipole_variant(), fen),
            Game::HexDame => hexdame::legal_moves(fen),
            Game::CantStop => {
                let pos = cantstop::Position::parse(fen).expect("a tracked position is valid");
                let events = pos.legal_events();
                Ok(events.into_iter().map(|e| (e.clone(), pos.play(&e).unwrap().to_fen())).collect())
            }
        };
        listed.expect("a tracked position is valid")
    }

    /// The position after `text` in `fen`, or `None` when the reference does not accept it as a
    /// legal move there (in any spelling the reference reads).
    pub fn play(self, fen: &str, text: &str) -> Option<String> {
        match self {
            Game::Impasse => self.moves(fen).into_iter().find(|(m, _)| m == text).map(|(_, after)| after),
            Game::Dipole | Game::Dipole10 => dipole::play(self.dipole_variant(), fen, text).ok(),
            Game::HexDame => hexdame::play(fen, text).ok(),
            Game::CantStop => cantstop::Position::parse(fen).ok()?.play(text).ok().map(|p| p.to_fen()),
        }
    }

    /// The player (1-based) to move in `fen`.
    pub fn to_move(self, fen: &str) -> usize {
        match self {
            Game::Impasse | Game::Dipole | Game::Dipole10 => {
                if fen.ends_with(" w") {
                    1
                } else {
                    2
                }
            }
            Game::HexDame => {
                if fen.starts_with("W:") {
                    1
                } else {
                    2
                }
            }
            Game::CantStop => cantstop::Position::parse(fen).expect("a valid position").to_move(),
        }
    }

    /// The winner (1-based) of `fen` by the rules of the board alone (HexDame's repetition
    /// needs the game: see [`super::model`]); `None` while the game goes on.
    pub fn winner(self, fen: &str) -> Option<usize> {
        let number = |white: bool| if white { 1 } else { 2 };
        match self {
            Game::Impasse => {
                let pos = impasse::Position::from_fen(fen).expect("a valid position");
                // The player not to move has no checkers left: he has won.
                pos.is_finished().then(|| number(pos.to_move != impasse::Color::White))
            }
            Game::Dipole | Game::Dipole10 => dipole::Position::from_fen(self.dipole_variant(), fen)
                .expect("a valid position")
                .winner()
                .map(|c| number(c == dipole::Color::White)),
            Game::HexDame => hexdame::Position::from_fen(fen)
                .expect("a valid position")
                .winner()
                .map(|c| number(c == hexdame::Color::White)),
            Game::CantStop => cantstop::Position::parse(fen).expect("a valid position").winner(),
        }
    }

    /// True where the next event is a roll of the dice, which no player decides.
    pub fn is_roll(self, fen: &str) -> bool {
        self.is_dice() && fen.ends_with(" r")
    }

    /// Perft below each legal move of `fen`: (move, count at `depth - 1`), sorted by move text
    /// (`depth` >= 1).
    pub fn divide(self, fen: &str, depth: u32) -> Vec<(String, u64)> {
        let mut rows = match self {
            Game::Impasse => impasse::divide(fen, depth).expect("a valid position"),
            Game::Dipole | Game::Dipole10 => {
                dipole::divide(self.dipole_variant(), fen, depth).expect("a valid position")
            }
            Game::HexDame => hexdame::divide(fen, depth).expect("a valid position"),
            Game::CantStop => {
                let pos = cantstop::Position::parse(fen).expect("a valid position");
                pos.legal_events()
                    .into_iter()
                    .map(|e| {
                        let count = cantstop::perft(&pos.play(&e).unwrap(), depth - 1);
                        (e, count)
                    })
                    .collect()
            }
        };
        rows.sort();
        rows
    }

    /// A random position of a few pieces (for Can't Stop: markers all over the board), valid by
    /// the reference: endgames, finished games and HexDame repetitions, which random games
    /// from the start reach only rarely.
    pub fn random_small_position(self, rng: &mut Rng) -> Option<String> {
        for _ in 0..100 {
            let text = match self {
                Game::Impasse => board_fen(8, rng, |colour, rng| {
                    let letter = if colour == 0 { 'w' } else { 'b' };
                    if rng.below(2) == 0 {
                        letter.to_string()
                    } else {
                        letter.to_ascii_uppercase().to_string()
                    }
                }),
                Game::Dipole | Game::Dipole10 => dipole_fen(self.dipole_variant().size(), rng),
                Game::HexDame => Some(hexdame_fen(rng)),
                Game::CantStop => Some(cantstop_fen(rng)),
            };
            if let Some(fen) = text.and_then(|t| self.parse_fen(&t)) {
                return Some(fen);
            }
        }
        None
    }
}

/// A `size` x `size` board FEN in Impasse's spelling (digits for empty runs, `/` between
/// ranks) with one to three pieces a side on dark squares, drawn by `piece`, and a random side
/// to move.
fn board_fen(size: usize, rng: &mut Rng, piece: impl Fn(usize, &mut Rng) -> String) -> Option<String> {
    let mut cells: Vec<Option<String>> = vec![None; size * size];
    for colour in 0..2 {
        for _ in 0..1 + rng.below(3) {
            let (rank, file) = (rng.below(size), rng.below(size));
            if (rank + file) % 2 == 0 {
                cells[rank * size + file] = Some(piece(colour, rng));
            }
        }
    }
    let mut ranks = Vec::new();
    for rank in (0..size).rev() {
        let (mut text, mut empty) = (String::new(), 0);
        for file in 0..size {
            match &cells[rank * size + file] {
                Some(p) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                    }
                    empty = 0;
                    text.push_str(p);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    Some(format!("{} {}", ranks.join("/"), ["w", "b"][rng.below(2)]))
}

/// A Dipole FEN (comma-separated runs and stacks such as `b3`) with a few stacks a side.
fn dipole_fen(size: usize, rng: &mut Rng) -> Option<String> {
    let plain = board_fen(size, rng, |colour, rng| {
        format!("{}{}", if colour == 0 { 'w' } else { 'b' }, 1 + rng.below(4))
    })?;
    // Re-spell Impasse-style ranks (`2w3b14`) as Dipole ranks (`2,w3,b1,4`): split each rank into
    // runs of empty squares and stacks.
    let (board, side) = plain.split_once(' ')?;
    let ranks: Vec<String> = board
        .split('/')
        .map(|rank| {
            let mut tokens: Vec<String> = Vec::new();
            let chars: Vec<char> = rank.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                if chars[i] == 'w' || chars[i] == 'b' {
                    tokens.push(format!("{}{}", chars[i], chars[i + 1]));
                    i += 2;
                } else {
                    let start = i;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        i += 1;
                    }
                    tokens.push(chars[start..i].iter().collect());
                }
            }
            tokens.join(",")
        })
        .collect();
    Some(format!("{} {side}", ranks.join("/")))
}

/// A HexDame FEN with one to three pieces a side (men or kings) on random cells.
fn hexdame_fen(rng: &mut Rng) -> String {
    let cells = hexdame::all_cells();
    let mut taken = std::collections::BTreeSet::new();
    let mut sides = Vec::new();
    for letter in ['W', 'B'] {
        let mut pieces = Vec::new();
        for _ in 0..1 + rng.below(3) {
            let cell = cells[rng.below(cells.len())];
            if taken.insert(cell) {
                let king = if rng.below(2) == 0 { "K" } else { "" };
                pieces.push(format!("{king}{}", hexdame::cell_name(cell)));
            }
        }
        sides.push(format!("{letter}{}", pieces.join(",")));
    }
    format!("{}:{}:{}", ["W", "B"][rng.below(2)], sides[0], sides[1])
}

/// A Can't Stop FEN with markers up every column, some columns won (often three by one player:
/// a finished game, with the next player to roll as the rules require), and the mover's
/// neutral markers in some phase.
fn cantstop_fen(rng: &mut Rng) -> String {
    let players = 2 + rng.below(3);
    let mut rows = vec![[0u8; 11]; players];
    for (c, &length) in cantstop::COLUMN_LENGTHS.iter().enumerate() {
        if rng.below(4) == 0 {
            rows[rng.below(players)][c] = length;
        } else {
            for row in rows.iter_mut() {
                row[c] = if rng.below(2) == 0 { rng.below(length as usize) as u8 } else { 0 };
            }
        }
    }
    let tops = |row: &[u8; 11]| row.iter().zip(cantstop::COLUMN_LENGTHS).filter(|(s, l)| *s == l).count();
    let won_by = |c: usize| rows.iter().any(|row| row[c] == cantstop::COLUMN_LENGTHS[c]);
    let mut to_move = 1 + rng.below(players);
    let mut neutral: Vec<(usize, u8)> = Vec::new();
    for _ in 0..rng.below(4) {
        let c = rng.below(11);
        let (own, length) = (rows[to_move - 1][c], cantstop::COLUMN_LENGTHS[c]);
        if !won_by(c) && !neutral.iter().any(|(n, _)| *n == c) && own < length {
            neutral.push((c, own + 1 + rng.below((length - own) as usize) as u8));
        }
    }
    let dice: String = (0..4).map(|_| char::from(b'1' + rng.below(6) as u8)).collect();
    let mut phase = match rng.below(3) {
        0 => "r".to_string(),
        1 if !neutral.is_empty() => "s".to_string(),
        _ => format!("c{dice}"),
    };
    if let Some(winner) = (0..players).find(|&p| tops(&rows[p]) >= 3) {
        to_move = (winner + 1) % players + 1;
        neutral.clear();
        phase = "r".to_string();
    }
    neutral.sort();
    let markers: Vec<String> = rows
        .iter()
        .map(|row| row.iter().map(|&s| std::char::from_digit(u32::from(s), 14).unwrap()).collect())
        .collect();
    let neutral = if neutral.is_empty() {
        "-".to_string()
    } else {
        neutral.iter().map(|(c, s)| format!("{}:{s}", c + 2)).collect::<Vec<_>>().join(",")
    };
    format!("p{players} {} {neutral} {to_move} {phase}", markers.join("/"))
}
