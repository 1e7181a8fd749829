//! Independent reference move generator for Impasse, used only by tests.
//!
//! This module exists to check the engine's fast bitboard generator in `src/`, so it shares
//! nothing with it: it has its own board, FEN reader and writer, move notation and perft. It is
//! written to be obviously correct rather than fast: the board is a plain `[[Cell; 8]; 8]` array
//! indexed by file and rank, every candidate turn is played on a fresh copy of the board, and the
//! turn is built phase by phase exactly as the rules contract (`docs/rules/impasse.md`) words it:
//!
//! * phase A: a basic move (single slide, double slide, transpose) or, only when there is none,
//!   an impasse removal;
//! * phase B: the automatic bear-off of a double left on its owner's nearest row;
//! * phase C: the compulsory crown, with one move per choice of the single that is stacked.
//!
//! Nothing here is clever, so that a disagreement with the fast generator is easy to judge by
//! reading the rules beside this code.

// This file is included with `#[path = "impasse_reference/mod.rs"] mod reference;` by several test
// targets, and each of them uses only part of its API: without this, every target would warn
// about the items that it happens not to use.
#![allow(dead_code)]

/// FEN of the start position (White to move), as given in the rules contract.
pub const START_FEN: &str = "1W1b1W1b/b1W1b1W1/8/8/8/8/1B1w1B1w/w1B1w1B1 w";

/// One of the two players, and the colour of his checkers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// White: sits at rank 1 and moves first.
    White,
    /// Black: sits at rank 8.
    Black,
}

impl Color {
    /// The other player.
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0-based rank of this player's nearest row: rank 1 (index 0) for White, rank 8 (7) for Black.
    pub fn nearest_rank(self) -> usize {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }

    /// 0-based rank of this player's furthest row: rank 8 (index 7) for White, rank 1 (0) for Black.
    pub fn furthest_rank(self) -> usize {
        match self {
            Color::White => 7,
            Color::Black => 0,
        }
    }

    /// Rank step of a "forward" move (away from the owner): +1 for White, -1 for Black.
    pub fn forward(self) -> isize {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// The player's name, for error messages.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

/// The content of one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// No checker.
    Empty,
    /// One checker of the given colour.
    Single(Color),
    /// Two stacked checkers of the given colour.
    Double(Color),
}

/// A square as `(file, rank)`, both 0-based: `(0, 0)` is a1, `(7, 7)` is h8.
pub type Square = (usize, usize);

/// Whether a square is one of the 32 dark (playing) squares: a1 is dark, so file + rank is even.
pub fn is_dark(sq: Square) -> bool {
    (sq.0 + sq.1).is_multiple_of(2)
}

/// The name of a square, `a1`..`h8`.
pub fn square_name(sq: Square) -> String {
    format!("{}{}", (b'a' + sq.0 as u8) as char, sq.1 + 1)
}

/// The square one diagonal step away, or `None` off the board.
fn step(sq: Square, file_step: isize, rank_step: isize) -> Option<Square> {
    let file = sq.0 as isize + file_step;
    let rank = sq.1 as isize + rank_step;
    if (0..8).contains(&file) && (0..8).contains(&rank) { Some((file as usize, rank as usize)) } else { None }
}

/// A position: the board and the player to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// `board[file][rank]`, both 0-based (`board[0][0]` is a1).
    pub board: [[Cell; 8]; 8],
    /// The player to move.
    pub to_move: Color,
}

impl Position {
    /// The start position, White to move.
    pub fn start() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is legal")
    }

    /// The content of a square.
    pub fn get(&self, sq: Square) -> Cell {
        self.board[sq.0][sq.1]
    }

    /// Sets the content of a square.
    pub fn set(&mut self, sq: Square, cell: Cell) {
        self.board[sq.0][sq.1] = cell;
    }

    /// Every square of the board, a1, a2, .., h8.
    fn all_squares() -> impl Iterator<Item = Square> {
        (0..8).flat_map(|file| (0..8).map(move |rank| (file, rank)))
    }

    /// Number of checkers of a player on the board (a double counts 2).
    pub fn checkers(&self, color: Color) -> u32 {
        Position::all_squares()
            .map(|sq| match self.get(sq) {
                Cell::Single(c) if c == color => 1,
                Cell::Double(c) if c == color => 2,
                _ => 0,
            })
            .sum()
    }

    /// The squares of a player's singles.
    pub fn singles(&self, color: Color) -> Vec<Square> {
        Position::all_squares().filter(|&sq| self.get(sq) == Cell::Single(color)).collect()
    }

    /// Whether the game is over: the player NOT to move has no checkers left (he has won).
    pub fn is_finished(&self) -> bool {
        self.checkers(self.to_move.opponent()) == 0
    }

    /// Reads a FEN (`<board> <side>`), accepting `.` as one empty square, and rejects positions
    /// that no game can reach, with a message naming the problem.
    pub fn from_fen(fen: &str) -> Result<Position, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 2 {
            return Err(format!(
                "FEN must have 2 fields (board and side to move), found {}: {fen:?}",
                fields.len()
            ));
        }
        let rank_texts: Vec<&str> = fields[0].split('/').collect();
        if rank_texts.len() != 8 {
            return Err(format!(
                "FEN board must have 8 ranks separated by '/', found {}: {fen:?}",
                rank_texts.len()
            ));
        }
        let mut board = [[Cell::Empty; 8]; 8];
        for (i, text) in rank_texts.iter().enumerate() {
            let rank = 7 - i; // the first rank written is rank 8
            let mut file = 0usize;
            for ch in text.chars() {
                let cell = match ch {
                    '1'..='8' => {
                        file += ch.to_digit(10).expect("a digit") as usize;
                        None
                    }
                    '.' => {
                        file += 1;
                        None
                    }
                    'w' => Some(Cell::Single(Color::White)),
                    'b' => Some(Cell::Single(Color::Black)),
                    'W' => Some(Cell::Double(Color::White)),
                    'B' => Some(Cell::Double(Color::Black)),
                    _ => {
                        return Err(format!(
                            "unexpected character {ch:?} in rank {} of FEN {fen:?}",
                            rank + 1
                        ));
                    }
                };
                if let Some(cell) = cell {
                    if file >= 8 {
                        return Err(format!(
                            "rank {} describes more than 8 squares in FEN {fen:?}",
                            rank + 1
                        ));
                    }
                    board[file][rank] = cell;
                    file += 1;
                }
                if file > 8 {
                    return Err(format!("rank {} describes more than 8 squares in FEN {fen:?}", rank + 1));
                }
            }
            if file != 8 {
                return Err(format!(
                    "rank {} describes {file} squares instead of 8 in FEN {fen:?}",
                    rank + 1
                ));
            }
        }
        let to_move = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(format!("side to move must be 'w' or 'b', found {other:?}"));
            }
        };
        let pos = Position { board, to_move };
        pos.validate()?;
        Ok(pos)
    }

    /// Checks the FEN rules of the contract: the position could arise in a game.
    pub fn validate(&self) -> Result<(), String> {
        for sq in Position::all_squares() {
            if self.get(sq) != Cell::Empty && !is_dark(sq) {
                return Err(format!("checker on light square {}", square_name(sq)));
            }
        }
        for color in [Color::White, Color::Black] {
            let count = self.checkers(color);
            if count > 12 {
                return Err(format!("{} has {count} checkers, more than 12", color.name()));
            }
            for sq in Position::all_squares() {
                if self.get(sq) == Cell::Double(color) && sq.1 == color.nearest_rank() {
                    return Err(format!(
                        "{} double on {}, its owner's nearest row",
                        color.name(),
                        square_name(sq)
                    ));
                }
            }
            let singles = self.singles(color);
            for &sq in &singles {
                if sq.1 == color.furthest_rank() && singles.len() > 1 {
                    return Err(format!(
                        "{} single on {}, its owner's furthest row, while {} has another single",
                        color.name(),
                        square_name(sq),
                        color.name()
                    ));
                }
            }
        }
        let white = self.checkers(Color::White);
        let black = self.checkers(Color::Black);
        if white == 0 && black == 0 {
            return Err("both players are without checkers".to_string());
        }
        if self.checkers(self.to_move) == 0 {
            return Err(format!("the side to move ({}) has no checkers", self.to_move.name()));
        }
        Ok(())
    }

    /// The canonical FEN: ranks 8..1, runs of empty squares (light squares count as empty) as
    /// digits 1-8, then ` w` or ` b`.
    pub fn to_fen(&self) -> String {
        let mut ranks = Vec::new();
        for rank in (0..8).rev() {
            let mut text = String::new();
            let mut empty = 0;
            for file in 0..8 {
                let letter = match self.board[file][rank] {
                    Cell::Empty => {
                        empty += 1;
                        continue;
                    }
                    Cell::Single(Color::White) => 'w',
                    Cell::Single(Color::Black) => 'b',
                    Cell::Double(Color::White) => 'W',
                    Cell::Double(Color::Black) => 'B',
                };
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push(letter);
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            ranks.push(text);
        }
        let side = match self.to_move {
            Color::White => "w",
            Color::Black => "b",
        };
        format!("{} {side}", ranks.join("/"))
    }
}

/// What phase A of a turn did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A single slid diagonally forward.
    SingleSlide,
    /// A double slid diagonally backward.
    DoubleSlide,
    /// The top checker of a double moved onto an adjacent own single one row nearer the owner.
    Transpose,
    /// Impasse: one own checker (a single, or the top of a double) was removed.
    ImpasseRemoval,
}

/// One complete turn (phases A, B and C).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// What phase A did.
    pub action: Action,
    /// Slide: the start square; transpose: the double; impasse: the square of the removal.
    pub from: Square,
    /// Slide: the destination; transpose: the single that becomes a double; impasse: `None`.
    pub to: Option<Square>,
    /// Whether phase B removed the top of a double on the mover's nearest row.
    pub bear_off: bool,
    /// Phase C: the square of the single that was stacked, if a crown happened.
    pub crown: Option<Square>,
}

impl Move {
    /// The move in CodinGame notation: `from`+`to` (slide), `double`+`single` (transpose) or
    /// `square` (impasse removal), followed by the square of the stacked single for a crown.
    pub fn text(&self) -> String {
        let mut text = square_name(self.from);
        if let Some(to) = self.to {
            text.push_str(&square_name(to));
        }
        if let Some(crown) = self.crown {
            text.push_str(&square_name(crown));
        }
        text
    }
}

/// A turn after phases A and B, before the crown of phase C.
struct PartialTurn {
    action: Action,
    from: Square,
    to: Option<Square>,
    bear_off: bool,
    /// The board after A and B; `to_move` is still the mover.
    pos: Position,
    /// A mover's single that arrived on his furthest row this turn (by a single slide, by a
    /// transpose of a double standing there, or by an impasse removal splitting a double there).
    arrived: Option<Square>,
    /// A single that the mover gained this turn (by bear-off or by impasse removal of a top).
    new_single: Option<Square>,
}

/// Phase B: if the double on `sq` stands on its owner's nearest row, its top checker is removed.
/// Returns whether that happened.
fn bear_off(pos: &mut Position, sq: Square) -> bool {
    if let Cell::Double(color) = pos.get(sq)
        && sq.1 == color.nearest_rank()
    {
        pos.set(sq, Cell::Single(color));
        return true;
    }
    false
}

/// Phase A (basic moves) with phase B applied to each.
fn basic_moves(pos: &Position) -> Vec<PartialTurn> {
    let me = pos.to_move;
    let forward = me.forward();
    let backward = -forward;
    let mut turns = Vec::new();
    for from in Position::all_squares() {
        match pos.get(from) {
            Cell::Single(c) if c == me => {
                // Single slide: diagonally forward over consecutive empty squares, stopping
                // anywhere before the first occupied square.
                for file_step in [-1, 1] {
                    let mut current = from;
                    while let Some(to) = step(current, file_step, forward) {
                        if pos.get(to) != Cell::Empty {
                            break;
                        }
                        let mut after = pos.clone();
                        after.set(from, Cell::Empty);
                        after.set(to, Cell::Single(me));
                        turns.push(PartialTurn {
                            action: Action::SingleSlide,
                            from,
                            to: Some(to),
                            bear_off: false,
                            pos: after,
                            arrived: (to.1 == me.furthest_rank()).then_some(to),
                            new_single: None,
                        });
                        current = to;
                    }
                }
            }
            Cell::Double(c) if c == me => {
                for file_step in [-1, 1] {
                    // Double slide: the same, diagonally backward; then phase B.
                    let mut current = from;
                    while let Some(to) = step(current, file_step, backward) {
                        if pos.get(to) != Cell::Empty {
                            break;
                        }
                        let mut after = pos.clone();
                        after.set(from, Cell::Empty);
                        after.set(to, Cell::Double(me));
                        let bore_off = bear_off(&mut after, to);
                        turns.push(PartialTurn {
                            action: Action::DoubleSlide,
                            from,
                            to: Some(to),
                            bear_off: bore_off,
                            pos: after,
                            arrived: None,
                            new_single: bore_off.then_some(to),
                        });
                        current = to;
                    }
                    // Transpose: an own single diagonally adjacent and one row nearer the owner
                    // receives the top checker of the double; then phase B.
                    if let Some(single) = step(from, file_step, backward)
                        && pos.get(single) == Cell::Single(me)
                    {
                        let mut after = pos.clone();
                        after.set(from, Cell::Single(me));
                        after.set(single, Cell::Double(me));
                        let bore_off = bear_off(&mut after, single);
                        turns.push(PartialTurn {
                            action: Action::Transpose,
                            from,
                            to: Some(single),
                            bear_off: bore_off,
                            pos: after,
                            arrived: (from.1 == me.furthest_rank()).then_some(from),
                            new_single: bore_off.then_some(single),
                        });
                    }
                }
            }
            _ => {}
        }
    }
    turns
}

/// Phase A when there is no basic move: remove any one own checker (a single, or the top of a
/// double). No bear-off can follow.
fn impasse_removals(pos: &Position) -> Vec<PartialTurn> {
    let me = pos.to_move;
    let mut turns = Vec::new();
    for sq in Position::all_squares() {
        let (after_cell, new_single) = match pos.get(sq) {
            Cell::Single(c) if c == me => (Cell::Empty, None),
            Cell::Double(c) if c == me => (Cell::Single(me), Some(sq)),
            _ => continue,
        };
        let mut after = pos.clone();
        after.set(sq, after_cell);
        turns.push(PartialTurn {
            action: Action::ImpasseRemoval,
            from: sq,
            to: None,
            bear_off: false,
            pos: after,
            // Splitting a double on the furthest row puts a new single there.
            arrived: new_single.filter(|s| s.1 == me.furthest_rank()),
            new_single,
        });
    }
    turns
}

/// Phase C: the compulsory crown. Pushes one complete move per choice (or the turn unchanged
/// when no crown happens), with the side to move switched.
fn finish_turn(turn: PartialTurn, waiting: Option<Square>, moves: &mut Vec<(Move, Position)>) {
    let me = turn.pos.to_move;
    let singles = turn.pos.singles(me);
    let far_singles: Vec<Square> = singles.iter().copied().filter(|s| s.1 == me.furthest_rank()).collect();
    assert!(far_singles.len() <= 2, "more than two singles on the furthest row");
    // Each crown as (square of the single that is stacked, square of the single it goes onto).
    let mut crowns: Vec<(Square, Square)> = Vec::new();
    if far_singles.len() == 2 {
        // Two singles on the furthest row (only through an impasse removal beside a waiting
        // single): either one is stacked onto the other, two distinct moves.
        crowns.push((far_singles[0], far_singles[1]));
        crowns.push((far_singles[1], far_singles[0]));
    } else if let Some(arrived) = turn.arrived {
        // A single arrived on the furthest row: any other single must be stacked onto it; with
        // no other single it stays there, waiting.
        for &other in &singles {
            if other != arrived {
                crowns.push((other, arrived));
            }
        }
    } else if let (Some(waiting), Some(new_single)) = (waiting, turn.new_single)
        && turn.pos.get(waiting) == Cell::Single(me)
    {
        // The waiting single of an earlier turn is still there, and this turn gave the player
        // a new single: that one must be stacked onto it.
        crowns.push((new_single, waiting));
    }
    let make_move = |crown: Option<Square>| Move {
        action: turn.action,
        from: turn.from,
        to: turn.to,
        bear_off: turn.bear_off,
        crown,
    };
    if crowns.is_empty() {
        let mut after = turn.pos.clone();
        after.to_move = me.opponent();
        moves.push((make_move(None), after));
    }
    for (stacked, onto) in crowns {
        let mut after = turn.pos.clone();
        after.set(stacked, Cell::Empty);
        after.set(onto, Cell::Double(me));
        after.to_move = me.opponent();
        moves.push((make_move(Some(stacked)), after));
    }
}

/// Every legal move of a position with the position after it (unsorted). A finished game (the
/// player not to move has no checkers) has no moves.
pub fn generate(pos: &Position) -> Vec<(Move, Position)> {
    let me = pos.to_move;
    let mut moves = Vec::new();
    if pos.checkers(me.opponent()) == 0 || pos.checkers(me) == 0 {
        return moves;
    }
    // A single of the mover on his furthest row at the start of the turn is a waiting single
    // (the FEN rules make it his only single).
    let waiting = pos.singles(me).into_iter().find(|s| s.1 == me.furthest_rank());
    let mut turns = basic_moves(pos);
    if turns.is_empty() {
        turns = impasse_removals(pos);
    }
    for turn in turns {
        finish_turn(turn, waiting, &mut moves);
    }
    moves
}

/// Perft of a parsed position: the number of move sequences of length `depth`.
pub fn perft_position(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = generate(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|(_, after)| perft_position(after, depth - 1)).sum()
}

/// Every legal move of the position as (move text, canonical FEN after the move), sorted by move text.
pub fn legal_moves(fen: &str) -> Result<Vec<(String, String)>, String> {
    let pos = Position::from_fen(fen)?;
    let mut moves: Vec<(String, String)> =
        generate(&pos).iter().map(|(mv, after)| (mv.text(), after.to_fen())).collect();
    moves.sort();
    Ok(moves)
}

/// Number of move sequences of length `depth` (perft; depth 0 = 1). A finished game (the side NOT to move has no checkers left = it has won) has no moves.
pub fn perft(fen: &str, depth: u32) -> Result<u64, String> {
    let pos = Position::from_fen(fen)?;
    Ok(perft_position(&pos, depth))
}

/// Perft below each legal move: (move text, count at `depth - 1` below it), sorted by move text.
/// `depth` must be at least 1.
pub fn divide(fen: &str, depth: u32) -> Result<Vec<(String, u64)>, String> {
    if depth == 0 {
        return Err("divide needs a depth of at least 1".to_string());
    }
    let pos = Position::from_fen(fen)?;
    let mut rows: Vec<(String, u64)> =
        generate(&pos).iter().map(|(mv, after)| (mv.text(), perft_position(after, depth - 1))).collect();
    rows.sort();
    Ok(rows)
}

/// One line of a perft suite (`positions/impasse-perft.epd`): a FEN and its counts by depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftEntry {
    /// 1-based line number in the file.
    pub line: usize,
    /// The position, `<board> <side>`.
    pub fen: String,
    /// `(depth, nodes)` pairs in the order written.
    pub counts: Vec<(u32, u64)>,
}

/// Reads a perft suite: `#` comment lines and blank lines are skipped; every other line is
/// `FEN ;D1 n ;D2 n ...`.
pub fn parse_perft_suite(text: &str) -> Result<Vec<PerftEntry>, String> {
    let mut entries = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        let mut counts = Vec::new();
        for part in parts {
            let fields: Vec<&str> = part.split_whitespace().collect();
            let parsed = match fields.as_slice() {
                [depth, nodes] if depth.starts_with('D') => {
                    depth[1..].parse::<u32>().ok().zip(nodes.parse::<u64>().ok())
                }
                _ => None,
            };
            match parsed {
                Some(pair) => counts.push(pair),
                None => {
                    return Err(format!("line {}: expected ';Dn count', found {part:?}", index + 1));
                }
            }
        }
        if counts.is_empty() {
            return Err(format!("line {}: no perft counts", index + 1));
        }
        entries.push(PerftEntry { line: index + 1, fen, counts });
    }
    Ok(entries)
}
