//! Text forms: the FEN of a position and the CodinGame notation of a move.
//!
//! FEN: eight ranks from rank 8 down to rank 1 separated by `/`, each listing files a..h with
//! `w`/`b` for a white/black single, `W`/`B` for a double, a digit 1-8 for that many empty
//! squares (light squares count as empty) or `.` for one; then a space and `w` or `b` for the
//! side to move. Parsing rejects every position that no game can reach, naming the problem.
//!
//! Moves: 1 to 3 squares with no separator (`d2f4`, `g7f6`, `b6`, `a7b8d2`, `f8f8`); see
//! [`super::Move`]. A move is read in the context of its position, as in UCI, so parsing matches
//! the text against the legal moves.

use super::board::{Bitboard, Square};
use super::{Color, Move, Piece, Position};
use std::fmt;

/// The start position, White to move.
pub const START_FEN: &str = "1W1b1W1b/b1W1b1W1/8/8/8/8/1B1w1B1w/w1B1w1B1 w";

/// Why a FEN was rejected. Every message names the field, rank or square at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text has no board field.
    Empty,
    /// The text does not have exactly the board and side-to-move fields.
    FieldCount(usize),
    /// The board field does not have 8 ranks.
    RankCount(usize),
    /// A character that means nothing in a rank.
    BadChar {
        /// The rank, 1 to 8.
        rank: u8,
        /// The character.
        ch: char,
    },
    /// A rank that describes more or fewer than 8 squares.
    RankLength {
        /// The rank, 1 to 8.
        rank: u8,
        /// The squares it describes.
        squares: usize,
    },
    /// A checker on a light square (named like `b1`).
    LightSquare {
        /// The square's name.
        square: String,
    },
    /// The side-to-move field is not `w` or `b`.
    BadSide(String),
    /// A player with more than 12 checkers (a double counts two).
    TooManyCheckers {
        /// The player.
        color: Color,
        /// His checkers, a double counting two.
        count: u32,
    },
    /// A double on its owner's nearest row, where it would have borne off.
    DoubleOnNearestRow {
        /// The double's owner.
        color: Color,
        /// Its square.
        square: Square,
    },
    /// A single on its owner's furthest row while he has another single: it would have been
    /// crowned.
    UncrownedSingle {
        /// The single's owner.
        color: Color,
        /// Its square.
        square: Square,
    },
    /// Neither player has a checker.
    NoCheckers,
    /// The side to move has no checker: he would already have won.
    MoverHasNoCheckers(Color),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::FieldCount(n) => {
                let plural = if *n == 1 { "" } else { "s" };
                write!(f, "FEN has {n} field{plural}; expected 2: the board and the side to move (w or b)")
            }
            FenError::RankCount(n) => write!(f, "FEN board has {n} ranks; expected 8 separated by '/'"),
            FenError::BadChar { rank, ch } => {
                write!(f, "FEN rank {rank}: unexpected character '{ch}' (use w b W B, 1-8 or .)")
            }
            FenError::RankLength { rank, squares } => {
                write!(f, "FEN rank {rank} describes {squares} squares; expected 8")
            }
            FenError::LightSquare { square } => {
                write!(f, "FEN puts a checker on light square {square}; only dark squares are used")
            }
            FenError::BadSide(s) => write!(f, "FEN side to move is '{s}'; expected 'w' or 'b'"),
            FenError::TooManyCheckers { color, count } => {
                write!(f, "FEN gives {color} {count} checkers; at most 12")
            }
            FenError::DoubleOnNearestRow { color, square } => {
                write!(f, "FEN has a {color} double on {square}, its nearest row: it would have borne off")
            }
            FenError::UncrownedSingle { color, square } => write!(
                f,
                "FEN has a {color} single on {square}, its furthest row, while {color} has another single: it would have been crowned"
            ),
            FenError::NoCheckers => write!(f, "FEN has no checkers for either player"),
            FenError::MoverHasNoCheckers(color) => {
                write!(f, "FEN has {color} to move without checkers: {color} would already have won")
            }
        }
    }
}

impl std::error::Error for FenError {}

/// Parses a FEN (see the module docs) and validates the position.
pub fn parse_fen(fen: &str) -> Result<Position, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    match fields.len() {
        0 => return Err(FenError::Empty),
        2 => {}
        n => return Err(FenError::FieldCount(n)),
    }
    let (singles, doubles) = parse_board(fields[0])?;
    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(FenError::BadSide(other.to_string())),
    };
    validate(singles, doubles, side)?;
    Ok(Position::from_parts(singles, doubles, side))
}

/// Reads the board field into (singles, doubles) per colour.
fn parse_board(board: &str) -> Result<([Bitboard; 2], [Bitboard; 2]), FenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    let (mut singles, mut doubles) = ([0; 2], [0; 2]);
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0usize;
        for ch in text.chars() {
            let (color, double) = match ch {
                '1'..='8' => {
                    file += ch as usize - '0' as usize;
                    continue;
                }
                '.' => {
                    file += 1;
                    continue;
                }
                'w' => (Color::White, false),
                'W' => (Color::White, true),
                'b' => (Color::Black, false),
                'B' => (Color::Black, true),
                _ => return Err(FenError::BadChar { rank: rank + 1, ch }),
            };
            if file >= 8 {
                return Err(FenError::RankLength { rank: rank + 1, squares: file + 1 });
            }
            let square = Square::from_file_rank(file as u8, rank).ok_or_else(|| FenError::LightSquare {
                square: format!("{}{}", (b'a' + file as u8) as char, rank + 1),
            })?;
            let board = if double { &mut doubles } else { &mut singles };
            board[color.index()] |= square.bit();
            file += 1;
        }
        if file != 8 {
            return Err(FenError::RankLength { rank: rank + 1, squares: file });
        }
    }
    Ok((singles, doubles))
}

/// The contract's reachability rules.
fn validate(singles: [Bitboard; 2], doubles: [Bitboard; 2], side: Color) -> Result<(), FenError> {
    for color in [Color::White, Color::Black] {
        let (s, d) = (singles[color.index()], doubles[color.index()]);
        let count = s.count_ones() + 2 * d.count_ones();
        if count > 12 {
            return Err(FenError::TooManyCheckers { color, count });
        }
        if let Some(square) = super::board::Squares(d & color.nearest_row()).next() {
            return Err(FenError::DoubleOnNearestRow { color, square });
        }
        if s.count_ones() > 1
            && let Some(square) = super::board::Squares(s & color.furthest_row()).next()
        {
            return Err(FenError::UncrownedSingle { color, square });
        }
    }
    let has = |c: Color| singles[c.index()] | doubles[c.index()] != 0;
    if !has(Color::White) && !has(Color::Black) {
        return Err(FenError::NoCheckers);
    }
    if !has(side) {
        return Err(FenError::MoverHasNoCheckers(side));
    }
    Ok(())
}

/// Writes the canonical FEN: runs of empty squares as digits, never `.`.
pub fn format_fen(pos: &Position) -> String {
    let mut out = String::with_capacity(48);
    for rank in (0..8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            let piece = Square::from_file_rank(file, rank).and_then(|sq| pos.piece_at(sq));
            let ch = match piece {
                None => {
                    empty += 1;
                    continue;
                }
                Some(super::Piece::Single(Color::White)) => 'w',
                Some(super::Piece::Double(Color::White)) => 'W',
                Some(super::Piece::Single(Color::Black)) => 'b',
                Some(super::Piece::Double(Color::Black)) => 'B',
            };
            if empty > 0 {
                out.push((b'0' + empty) as char);
                empty = 0;
            }
            out.push(ch);
        }
        if empty > 0 {
            out.push((b'0' + empty) as char);
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(pos.side_to_move().fen_char());
    out
}

/// The board as text for people: ranks 8 to 1 with files a to h, `w`/`b` singles, `W`/`B`
/// doubles, `.` empty dark squares and blanks for the light squares (which are never used).
pub fn diagram(pos: &Position) -> Vec<String> {
    let mut lines = vec!["   +-----------------+".to_string()];
    for rank in (0..8u8).rev() {
        let mut row = format!(" {} |", rank + 1);
        for file in 0..8u8 {
            let c = match Square::from_file_rank(file, rank) {
                None => ' ',
                Some(square) => match pos.piece_at(square) {
                    None => '.',
                    Some(Piece::Single(color)) => color.fen_char(),
                    Some(Piece::Double(color)) => color.fen_char().to_ascii_uppercase(),
                },
            };
            row.push(' ');
            row.push(c);
        }
        row.push_str(" |");
        lines.push(row);
    }
    lines.push("   +-----------------+".to_string());
    lines.push("     a b c d e f g h".to_string());
    lines
}

/// Why a move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not 1 to 3 square names (the message says what is wrong).
    Syntax {
        /// The text.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Well formed, but no legal move of the position has this text.
    Illegal {
        /// The text.
        text: String,
        /// Empty, or what would have been legal.
        hint: String,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax { text, reason } => write!(f, "malformed move '{text}': {reason}"),
            MoveError::Illegal { text, hint } => write!(f, "illegal move '{text}' in this position{hint}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Parses `text` as one of the legal moves of `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    let syntax = |reason: String| MoveError::Syntax { text: text.to_string(), reason };
    if text.is_empty() || text.len() > 6 || !text.len().is_multiple_of(2) || !text.is_ascii() {
        return Err(syntax("expected 1 to 3 squares with no separator, like d2f4, b6 or a7b8d2".into()));
    }
    for i in (0..text.len()).step_by(2) {
        Square::parse(&text[i..i + 2]).map_err(syntax)?;
    }
    let legal = pos.legal_moves();
    if let Some(mv) = legal.iter().find(|mv| mv.to_string() == text) {
        return Ok(*mv);
    }
    // Say what would have been legal when the text is the start of legal moves (a forgotten
    // crown square) or when the game is over.
    let completions: Vec<String> =
        legal.iter().map(|mv| mv.to_string()).filter(|m| m.starts_with(text)).collect();
    let hint = if pos.is_game_over() {
        " (the game is over)".to_string()
    } else if !completions.is_empty() {
        format!(" (the crown square is required: {})", completions.join(" "))
    } else {
        String::new()
    };
    Err(MoveError::Illegal { text: text.to_string(), hint })
}
