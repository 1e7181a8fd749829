//! Text in and out: the FEN of a position and the text of a move (docs/rules/dipole.md).
//!
//! A FEN lists the ranks from the top down, separated by `/`, each as comma-separated tokens:
//! a count of empty squares or a stack (`w3`, `b12`); then one space and the side to move:
//! `3,b12,4/8/8/8/8/8/8/4,w12,3 w`. The reader accepts only the canonical spelling the writer
//! produces (no leading zeros, no two counts in a row, exactly one space), so every position
//! has one FEN. A move is read by matching its text against the legal moves' texts, so only
//! legal moves are ever accepted; a text that is not even well formed is told apart, for a
//! clearer message.

use super::board::Variant;
use super::{Color, Move, Position};
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
    /// The text is not a move of the notation at all.
    Syntax {
        /// The text, as given.
        text: String,
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
            MoveError::Syntax { text } => write!(
                f,
                "malformed move '{}' (expected FROM TO like e1e5, FROM off K like e1off5, or pass)",
                short(text)
            ),
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

/// Reads a decimal number with no sign and no leading zero, at least 1.
fn positive_number(text: &str) -> Option<u32> {
    let valid = !text.is_empty() && !text.starts_with('0') && text.bytes().all(|b| b.is_ascii_digit());
    if valid { text.parse().ok() } else { None }
}

/// Reads a FEN of `variant`. See the module docs and docs/rules/dipole.md for what is accepted.
pub fn parse_fen(variant: Variant, fen: &str) -> Result<Position, FenError> {
    let error = |message: String| Err(FenError(message));
    let fields: Vec<&str> = fen.split(' ').collect();
    if fields.len() != 2 || fields.iter().any(|f| f.is_empty()) {
        return error(format!(
            "a FEN is the board and the side to move separated by one space, like '{}'",
            variant.start_fen()
        ));
    }
    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return error(format!("side to move '{}' is not 'w' or 'b'", short(other))),
    };
    let size = variant.size();
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != size {
        return error(format!("{} ranks instead of {size} for {}", ranks.len(), variant.name()));
    }
    let mut pos = Position::empty(variant, side);
    for (row, text) in ranks.iter().enumerate() {
        let rank = (size - 1 - row) as i32;
        let mut file = 0i32;
        let mut previous_was_count = false;
        for token in text.split(',') {
            let rank_name = rank + 1;
            if let Some(count) = positive_number(token) {
                if previous_was_count {
                    return error(format!("rank {rank_name}: two counts of empty squares in a row"));
                }
                previous_was_count = true;
                file += count as i32;
            } else {
                let (color, height) = match (
                    token.chars().next(),
                    positive_number(token.get(1..).unwrap_or("")),
                ) {
                    (Some('w'), Some(h)) => (Color::White, h),
                    (Some('b'), Some(h)) => (Color::Black, h),
                    _ => {
                        return error(format!(
                            "rank {rank_name}: '{}' is neither a count of empty squares nor a stack like w3 or b12",
                            short(token)
                        ));
                    }
                };
                previous_was_count = false;
                if file >= size as i32 {
                    return error(format!("rank {rank_name} has more than {size} squares"));
                }
                let Some(square) = variant.square(file, rank) else {
                    return error(format!(
                        "a stack on the light square {}",
                        super::board::coordinate_name(file, rank)
                    ));
                };
                if height > variant.checkers() || pos.checkers(color) + height > variant.checkers() {
                    return error(format!("{color} has more than {} checkers", variant.checkers()));
                }
                pos.place(square, color, height);
                file += 1;
            }
            if file > size as i32 {
                return error(format!("rank {rank_name} has more than {size} squares"));
            }
        }
        if file != size as i32 {
            return error(format!("rank {} has {file} squares instead of {size}", rank + 1));
        }
    }
    if pos.checkers(Color::White) + pos.checkers(Color::Black) == 0 {
        return error("the board has no checkers".to_string());
    }
    Ok(pos)
}

/// The canonical FEN of `pos`.
pub fn format_fen(pos: &Position) -> String {
    let variant = pos.variant();
    let size = variant.size() as i32;
    let mut ranks = Vec::with_capacity(size as usize);
    for rank in (0..size).rev() {
        let mut tokens = Vec::new();
        let mut empty = 0;
        for file in 0..size {
            match variant.square(file, rank).and_then(|sq| pos.stack_at(sq)) {
                None => empty += 1,
                Some((color, height)) => {
                    if empty > 0 {
                        tokens.push(empty.to_string());
                        empty = 0;
                    }
                    tokens.push(format!("{}{height}", color.fen_char()));
                }
            }
        }
        if empty > 0 {
            tokens.push(empty.to_string());
        }
        ranks.push(tokens.join(","));
    }
    format!("{} {}", ranks.join("/"), pos.side_to_move().fen_char())
}

/// True when `text` has the shape of a move: `pass`, or a square followed by a square or by
/// `off` and a count (squares a1..j10, counts without a leading zero).
fn is_well_formed(text: &str) -> bool {
    fn square(text: &str) -> Option<&str> {
        let mut chars = text.char_indices();
        let (_, letter) = chars.next()?;
        if !('a'..='j').contains(&letter) {
            return None;
        }
        let digits = text[1..].bytes().take_while(u8::is_ascii_digit).count();
        let rank = positive_number(&text[1..1 + digits])?;
        (rank <= 10).then_some(&text[1 + digits..])
    }
    if text == "pass" {
        return true;
    }
    let Some(rest) = square(text) else { return false };
    match rest.strip_prefix("off") {
        Some(k) => positive_number(k).is_some(),
        None => square(rest).is_some_and(str::is_empty),
    }
}

/// The legal move of `pos` written `text`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    if !is_well_formed(text) {
        return Err(MoveError::Syntax { text: text.to_string() });
    }
    pos.legal_moves()
        .iter()
        .copied()
        .find(|mv| mv.to_string() == text)
        .ok_or_else(|| MoveError::Illegal { text: text.to_string() })
}

/// The board as text for people: ranks from the top down, each dark square as `w3` / `b12`
/// (colour and height) or `.` when empty, light squares blank, file letters below.
pub fn diagram(pos: &Position) -> Vec<String> {
    let variant = pos.variant();
    let size = variant.size() as i32;
    let border = format!("    +{}+", "-".repeat(4 * size as usize + 1));
    let mut lines = vec![border.clone()];
    for rank in (0..size).rev() {
        let mut row = format!(" {:>2} |", rank + 1);
        for file in 0..size {
            let cell = match variant.square(file, rank) {
                None => String::new(),
                Some(square) => match pos.stack_at(square) {
                    None => ".".to_string(),
                    Some((color, height)) => format!("{}{height}", color.fen_char()),
                },
            };
            row.push_str(&format!(" {cell:>3}"));
        }
        row.push_str(" |");
        lines.push(row);
    }
    lines.push(border);
    let files: String = (0..size).map(|file| format!("   {}", (b'a' + file as u8) as char)).collect();
    lines.push(format!("     {files}"));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fens_round_trip() {
        for variant in Variant::ALL {
            let pos = Position::startpos(variant);
            assert_eq!(pos.to_fen(), variant.start_fen());
            assert_eq!(pos.checkers(Color::White), variant.checkers());
        }
    }

    #[test]
    fn bad_fens_are_explained() {
        let bad = |fen: &str, word: &str| {
            let e = parse_fen(Variant::Dipole, fen).unwrap_err().to_string();
            assert!(e.contains(word), "{fen}: {e}");
        };
        bad("3,b12,4/8/8/8/8/8/8/4,w12,3", "one space");
        bad("3,b12,4/8/8/8/8/8/8/4,w12,3 x", "side to move");
        bad("3,b12,4/8/8/8/8/8/8 w", "ranks");
        bad("3,b12,4/8/8/8/8/8/8/1,3,w12,3 w", "two counts");
        bad("3,b12,4/8/8/8/8/8/8/4,w012,3 w", "neither");
        bad("3,b12,4/8/8/8/8/8/8/3,w12,4 w", "light square");
        bad("3,b13,4/8/8/8/8/8/8/4,w12,3 w", "more than 12");
        bad("8/8/8/8/8/8/8/8 w", "no checkers");
        bad("3,b12,4/8/8/8/8/8/8/4,w12,4 w", "squares");
    }

    #[test]
    fn move_texts() {
        let pos = Position::startpos(Variant::Dipole);
        assert_eq!(pos.legal_moves().len(), 19);
        for text in ["e1e5", "e1off5", "e1a5", "e1h4"] {
            assert_eq!(pos.parse_move(text).unwrap().to_string(), text);
        }
        assert!(matches!(pos.parse_move("e1e4"), Err(MoveError::Illegal { .. })));
        assert!(matches!(pos.parse_move("pass"), Err(MoveError::Illegal { .. })));
        assert!(matches!(pos.parse_move("e1off05"), Err(MoveError::Syntax { .. })));
        assert!(matches!(pos.parse_move("E1E5"), Err(MoveError::Syntax { .. })));
    }
}
