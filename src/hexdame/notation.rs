//! Text in and out: the FEN of a position, the text of a move and a board diagram
//! (docs/rules/hexdame.md).
//!
//! A FEN is `SIDE:WLIST:BLIST` in the style of draughts PDN: `W:Wa1,Kc3:Bf6`. The writer sorts
//! each list by cell name; the reader also takes any order and whitespace around the whole
//! text, and nothing else. A move is a step `c3-c4` or a capture path `c3xe5xg5`; every full
//! path of a legal capture is read as that move (the generator keeps only the canonical path),
//! so a path is checked leg by leg against the position and then matched by its start cell,
//! final cell and captured set.

use super::board::{self, ALL, Cell, STEPS, bit, coordinates, neighbour};
use super::{Color, Kind, MAX_LANDINGS, Move, Position};
use std::fmt;

/// Why a FEN was rejected: one line naming the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FenError {}

/// Why a move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move of the notation at all; `reason` says what is wrong.
    Syntax {
        /// The text, as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A well-formed move that is not legal in the position.
    Illegal {
        /// The text, as given.
        text: String,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax { text, reason } => write!(f, "malformed move '{}': {reason}", short(text)),
            MoveError::Illegal { text } => write!(f, "illegal move '{}' in this position", short(text)),
        }
    }
}

impl std::error::Error for MoveError {}

/// At most 40 characters of a text, for messages.
fn short(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if text.chars().count() > 40 {
        s.push_str("...");
    }
    s
}

/// The most pieces of one colour.
const MAX_PIECES: u32 = 16;

/// Reads a FEN. See the module docs and docs/rules/hexdame.md for what is accepted.
pub fn parse_fen(fen: &str) -> Result<Position, FenError> {
    let error = |message: String| Err(FenError(message));
    let fields: Vec<&str> = fen.trim().split(':').collect();
    if fields.len() != 3 {
        return error(format!(
            "a HexDame FEN is SIDE:WLIST:BLIST with two ':', like 'W:Wa1,Kc3:Bf6' ({} found)",
            fields.len().saturating_sub(1)
        ));
    }
    let side = match fields[0] {
        "W" => Color::White,
        "B" => Color::Black,
        other => return error(format!("the side to move must be W or B, not '{}'", short(other))),
    };
    let mut pos = Position::empty(side);
    for (field, color) in fields[1..].iter().zip([Color::White, Color::Black]) {
        let Some(list) = field.strip_prefix(color.letter()) else {
            return error(format!(
                "{color}'s list must start with '{}' (White's list comes first), not '{}'",
                color.letter(),
                short(field)
            ));
        };
        if list.is_empty() {
            continue;
        }
        for item in list.split(',') {
            let (kind, name) = match item.strip_prefix('K') {
                Some(rest) => (Kind::King, rest),
                None => (Kind::Man, item),
            };
            if item.is_empty() {
                return error(format!("{color}'s list has an empty item"));
            }
            let Some(cell) = parse_cell_for_fen(name)? else {
                return error(format!(
                    "'{}' is not a piece: expected a cell like c3 or a king like Kc3",
                    short(item)
                ));
            };
            if pos.occupied() & bit(cell) != 0 {
                return error(format!("two pieces on {}", board::name(cell)));
            }
            if kind == Kind::Man && color.far_edge() & bit(cell) != 0 {
                return error(format!(
                    "a {color} man on {}, {color}'s far edge, would already have been crowned",
                    board::name(cell)
                ));
            }
            pos.put(color, kind, cell);
        }
        if pos.all(color).count_ones() > MAX_PIECES {
            return error(format!("{color} has {} pieces, more than 16", pos.all(color).count_ones()));
        }
    }
    if pos.all(side.opponent()) == 0 {
        return error(format!("{} has no pieces, but has just moved", side.opponent()));
    }
    Ok(pos)
}

/// A cell name in a FEN list: `Ok(None)` when malformed, an error when well formed but off the
/// board (the rules' second kind of error, worth its own message).
fn parse_cell_for_fen(name: &str) -> Result<Option<Cell>, FenError> {
    let bytes = name.as_bytes();
    if bytes.len() == 2 && (b'a'..=b'i').contains(&bytes[0]) && (b'1'..=b'9').contains(&bytes[1]) {
        return match board::parse_cell(name) {
            Some(cell) => Ok(Some(cell)),
            None => {
                Err(FenError(format!("{name} is not a cell of the board (a cell has |file - rank| <= 4)")))
            }
        };
    }
    Ok(None)
}

/// Writes the canonical FEN: White's list first, each sorted by cell name, kings marked `K`.
pub fn format_fen(pos: &Position) -> String {
    let list = |color: Color| {
        let mut cells: Vec<Cell> = board::Cells(pos.all(color)).collect();
        cells.sort_by_key(|&c| board::name_order(c));
        let items: Vec<String> = cells
            .into_iter()
            .map(|c| {
                let king = pos.pieces(color, Kind::King) & bit(c) != 0;
                format!("{}{}", if king { "K" } else { "" }, board::name(c))
            })
            .collect();
        format!("{}{}", color.letter(), items.join(","))
    };
    format!("{}:{}:{}", pos.side_to_move().letter(), list(Color::White), list(Color::Black))
}

/// What a well-formed move looks like, for the errors.
pub const MOVE_FORMS: &str = "expected a step like c3-c4 or a capture path like c3xe5xg5";

/// Reads a move: the legal move with this text, or with this capture path.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let syntax = |reason: &str| MoveError::Syntax { text: text.to_string(), reason: reason.to_string() };
    let illegal = || MoveError::Illegal { text: text.to_string() };
    let capture = text.contains('x');
    if capture && text.contains('-') {
        return Err(syntax("a move joins its cells with '-' (a step) or 'x' (a capture), not both"));
    }
    let cells: Option<Vec<Cell>> =
        text.split(if capture { 'x' } else { '-' }).map(board::parse_cell).collect();
    let Some(cells) = cells else {
        return Err(syntax(MOVE_FORMS));
    };
    if cells.len() < 2 || (!capture && cells.len() != 2) || cells.len() > MAX_LANDINGS + 1 {
        return Err(syntax(MOVE_FORMS));
    }
    let moves = pos.legal_moves();
    if !capture {
        return moves
            .iter()
            .find(|m| !m.is_capture() && m.from() == cells[0] && m.to() == cells[1])
            .copied()
            .ok_or_else(illegal);
    }
    let captured = walk_path(pos, &cells).ok_or_else(illegal)?;
    let wanted = Move::capture(cells[0], &cells[1..], captured);
    moves.iter().find(|m| m.same_move(&wanted)).copied().ok_or_else(illegal)
}

/// Follows a capture path leg by leg on `pos` and returns the captured set, or `None` when some
/// leg is not a jump: each leg runs along one line over exactly one enemy piece not yet
/// captured, for a man to the cell right behind it, for a king over empty cells otherwise,
/// onto an empty cell. The start cell counts as empty; captured pieces still block.
fn walk_path(pos: &Position, cells: &[Cell]) -> Option<u64> {
    let us = pos.side_to_move();
    let from = cells[0];
    if pos.all(us) & bit(from) == 0 {
        return None;
    }
    let king = pos.pieces(us, Kind::King) & bit(from) != 0;
    let enemy = pos.all(us.opponent());
    let empty = !pos.occupied() & ALL | bit(from);
    let mut captured = 0u64;
    for leg in cells.windows(2) {
        let dir = direction_between(leg[0], leg[1])?;
        let mut between = Vec::new();
        let mut c = neighbour(leg[0], dir);
        while c != leg[1] {
            between.push(c);
            c = neighbour(c, dir);
        }
        let pieces: Vec<Cell> = between.iter().copied().filter(|&c| empty & bit(c) == 0).collect();
        let [jumped] = pieces[..] else { return None };
        let man_jump_ok = king || between.len() == 1;
        if !man_jump_ok || enemy & !captured & bit(jumped) == 0 || empty & bit(leg[1]) == 0 {
            return None;
        }
        captured |= bit(jumped);
    }
    Some(captured)
}

/// The direction from `a` to `b` when they lie on one line, at least one cell apart.
fn direction_between(a: Cell, b: Cell) -> Option<usize> {
    let ((fa, ra), (fb, rb)) = (coordinates(a), coordinates(b));
    let (df, dr) = (fb - fa, rb - ra);
    let k = df.abs().max(dr.abs());
    if k == 0 {
        return None;
    }
    STEPS.iter().position(|&(sf, sr)| sf * k == df && sr * k == dr)
}

/// The board as text, laid out like the diagrams of the rules (a1 at the bottom, i9 at the
/// top): `w`/`b` men, `W`/`B` kings, `.` empty cells; each row ends with the names of its
/// first and last cells.
pub fn diagram(pos: &Position) -> Vec<String> {
    let mut lines = Vec::new();
    for sum in (2..=18).rev() {
        let mut row = vec![b' '; 34];
        let mut names = Vec::new();
        for file in 1..=9 {
            let rank = sum - file;
            let Some(cell) = board::cell(file, rank) else { continue };
            let symbol = match pos.piece_at(cell) {
                None => '.',
                Some((Color::White, Kind::Man)) => 'w',
                Some((Color::White, Kind::King)) => 'W',
                Some((Color::Black, Kind::Man)) => 'b',
                Some((Color::Black, Kind::King)) => 'B',
            };
            row[(2 * (file - rank + 4) + 2) as usize] = symbol as u8;
            names.push(board::name(cell));
        }
        let mut line = String::from_utf8(row).expect("ASCII");
        line.truncate(line.trim_end().len());
        let span = if names.len() == 1 {
            names[0].clone()
        } else {
            format!("{}..{}", names[0], names[names.len() - 1])
        };
        lines.push(format!("{line:<22}  {span}"));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hexdame::START_FEN;
    use crate::hexdame::board::CELLS;

    #[test]
    fn fens_round_trip_and_sort() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(pos.to_fen(), START_FEN);
        let pos = Position::from_fen("  B:WKe9,a1:Bf6,Kb1  ").unwrap();
        assert_eq!(pos.to_fen(), "B:Wa1,Ke9:BKb1,f6");
        assert_eq!(Position::from_fen("W:W:Bi9").unwrap().to_fen(), "W:W:Bi9");
        assert_eq!(board::CELLS, 61);
    }

    #[test]
    fn bad_fens_are_explained() {
        for (fen, needle) in [
            ("W:Wa1", "two ':'"),
            ("X:Wa1:Bi9", "W or B"),
            ("W:Bi9:Wa1", "must start with 'W'"),
            ("W:Wa1,:Bi9", "empty item"),
            ("W:Wa6:Bi9", "not a cell of the board"),
            ("W:Wi1:Bi9", "not a cell of the board"),
            ("W:Wz1:Bi9", "not a piece"),
            ("W:Wa1,a1:Bi9", "two pieces on a1"),
            ("W:Wa1:Bkb2", "not a piece"),
            ("W:We9:Bb2", "far edge"),
            ("W:Wa2:Ba1", "far edge"),
            ("W:Wa1:B", "black has no pieces"),
            ("W: Wa1:Bi9", "must start with 'W'"),
        ] {
            let err = Position::from_fen(fen).unwrap_err().to_string();
            assert!(err.contains(needle), "{fen}: {err}");
        }
        let many: Vec<String> = (0..CELLS as Cell)
            .filter(|&c| board::WHITE_FAR_EDGE & bit(c) == 0)
            .take(17)
            .map(board::name)
            .collect();
        let fen = format!("B:W{}:Bi9", many.join(","));
        assert!(Position::from_fen(&fen).unwrap_err().to_string().contains("more than 16"));
    }

    #[test]
    fn every_path_of_a_move_is_read_as_that_move() {
        let pos = Position::from_fen("W:Wc3:Bd3,d4,e4,i9").unwrap();
        let a = pos.parse_move("c3xe3xe5xc3").unwrap();
        let b = pos.parse_move("c3xe5xe3xc3").unwrap();
        assert_eq!(a, b);
        assert_eq!(b.to_string(), "c3xe3xe5xc3");
        let pos = Position::from_fen("W:WKa1:Bc3,f6").unwrap();
        assert_eq!(pos.parse_move("a1xe5xg7").unwrap().to_string(), "a1xd4xg7");
    }

    #[test]
    fn bad_moves_are_told_apart() {
        let pos = Position::from_fen("W:Wc3:Bd4,f5,i9").unwrap();
        for text in ["c3xg5", "c3-c4", "c3xe5", "c3xe5xg5xg3", "e5xg5"] {
            assert!(matches!(pos.parse_move(text), Err(MoveError::Illegal { .. })), "{text}");
        }
        for text in ["", "c3", "c3-", "c3xe5-g5", "a10-a2", "c3-c4-c5", "x", "C3-C4", "c3 c4"] {
            assert!(matches!(pos.parse_move(text), Err(MoveError::Syntax { .. })), "{text}");
        }
        let start = Position::from_fen(START_FEN).unwrap();
        assert!(matches!(start.parse_move("d4xe5"), Err(MoveError::Illegal { .. })));
        assert_eq!(start.parse_move("d4-e5").unwrap().to_string(), "d4-e5");
    }

    #[test]
    fn the_diagram_has_seventeen_rows_with_a1_at_the_bottom() {
        let lines = diagram(&Position::from_fen(START_FEN).unwrap());
        assert_eq!(lines.len(), 17);
        assert!(lines[0].ends_with("i9"), "{lines:?}");
        assert!(lines[16].trim_start().starts_with('w') && lines[16].ends_with("a1"), "{lines:?}");
        let board_part = |l: &String| l.chars().take(22).collect::<String>();
        assert_eq!(lines.iter().map(|l| board_part(l).matches('b').count()).sum::<usize>(), 16, "{lines:?}");
        assert_eq!(lines.iter().map(|l| board_part(l).matches('w').count()).sum::<usize>(), 16, "{lines:?}");
    }
}
