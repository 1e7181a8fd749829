//! Independent reference move generator for Dipole (Mark Steere, 2007), used only by tests.
//!
//! This module exists to check the engine's fast generator in `src/`, so it shares nothing with
//! it: it was written from the rules contract (`docs/rules/dipole.md`) alone and has its own
//! board, FEN reader and writer, move notation and perft. It is meant to be obviously correct
//! rather than fast:
//!
//! * the board is a plain `Vec` of cells, one per square of a `size` x `size` board (8 for the
//!   variant `dipole`, 10 for `dipole10`), each cell holding an optional (colour, height) stack;
//! * every candidate move is built by explicit loops, in the words of the contract: for each
//!   stack of the mover, for each portion k = 1..=h, for each of the 8 directions, the portion
//!   lands exactly k squares away; orthogonal directions need an even k; on the board the
//!   landing square decides (empty or own stack: forward directions only; enemy stack of height
//!   e <= k: any direction, captured whole); off the board only forward directions count, and
//!   all exits of the same k from one square make one move;
//! * every move is played on a fresh copy of the board;
//! * a pass is generated only when the loops above found nothing, and a finished position (one
//!   side without checkers) has no moves at all.
//!
//! Nothing here is clever, so that a disagreement with the fast generator is easy to judge by
//! reading the contract beside this code.

// This file is included with `#[path = "dipole_reference/mod.rs"] mod dipole_reference;` by
// several test targets, and each of them uses only part of its API.
#![allow(dead_code)]

/// One of the two rule variants of the contract; they differ only in board size and setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `dipole`: 8x8 board, 12 checkers a side.
    Dipole,
    /// `dipole10`: 10x10 board, 20 checkers a side.
    Dipole10,
}

impl Variant {
    /// The variant of a name, `"dipole"` or `"dipole10"`; `None` for any other text.
    pub fn from_name(name: &str) -> Option<Variant> {
        match name {
            "dipole" => Some(Variant::Dipole),
            "dipole10" => Some(Variant::Dipole10),
            _ => None,
        }
    }

    /// The variant's name, `"dipole"` or `"dipole10"`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Dipole => "dipole",
            Variant::Dipole10 => "dipole10",
        }
    }

    /// Number of files (and of ranks) of the board: 8 or 10.
    pub fn size(self) -> usize {
        match self {
            Variant::Dipole => 8,
            Variant::Dipole10 => 10,
        }
    }

    /// Number of checkers each side starts with (and may have at most): 12 or 20.
    pub fn checkers_per_side(self) -> u64 {
        match self {
            Variant::Dipole => 12,
            Variant::Dipole10 => 20,
        }
    }

    /// FEN of the start position, White to move, as given in the contract.
    pub fn start_fen(self) -> &'static str {
        match self {
            Variant::Dipole => "3,b12,4/8/8/8/8/8/8/4,w12,3 w",
            Variant::Dipole10 => "5,b20,4/10/10/10/10/10/10/10/10/4,w20,5 w",
        }
    }
}

/// One of the two players, and the colour of his checkers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// White: sits at rank 1, moves up, moves first.
    White,
    /// Black: sits at the top rank, moves down.
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

    /// Rank step of one square "forward" (away from the owner): +1 for White, -1 for Black.
    pub fn forward(self) -> isize {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// The FEN letter of the colour: `w` or `b` (both for stacks and for the side to move).
    pub fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
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

/// A square as `(file, rank)`, both 0-based: `(0, 0)` is a1.
pub type Square = (usize, usize);

/// The content of one square: `None` when empty, else the stack's colour and height (>= 1).
pub type Cell = Option<(Color, u32)>;

/// Whether a square is dark (a playing square): a1 is dark, so file + rank is even.
pub fn is_dark(sq: Square) -> bool {
    (sq.0 + sq.1).is_multiple_of(2)
}

/// The name of a square: its file letter then its rank number, e.g. `e1`, `f10`.
pub fn square_name(sq: Square) -> String {
    format!("{}{}", (b'a' + sq.0 as u8) as char, sq.1 + 1)
}

/// The 8 directions as (file step, rank step seen by the mover: +1 forward, -1 backward).
/// The first three are the forward ones: straight, diagonally left, diagonally right.
const DIRECTIONS: [(isize, isize); 8] =
    [(0, 1), (-1, 1), (1, 1), (-1, 0), (1, 0), (0, -1), (-1, -1), (1, -1)];

/// A position: the board, the side to move and the variant (which gives the board size).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The variant; `variant.size()` is the board size.
    pub variant: Variant,
    /// `board[rank * size + file]`, both 0-based (`board[0]` is a1).
    pub board: Vec<Cell>,
    /// The player to move.
    pub to_move: Color,
}

impl Position {
    /// The start position of a variant, White to move.
    pub fn start(variant: Variant) -> Position {
        Position::from_fen(variant, variant.start_fen()).expect("the start FEN is legal")
    }

    /// The board size, 8 or 10.
    pub fn size(&self) -> usize {
        self.variant.size()
    }

    /// The content of a square (which must be on the board).
    pub fn get(&self, sq: Square) -> Cell {
        self.board[sq.1 * self.size() + sq.0]
    }

    /// Sets the content of a square (which must be on the board).
    pub fn set(&mut self, sq: Square, cell: Cell) {
        let size = self.size();
        self.board[sq.1 * size + sq.0] = cell;
    }

    /// Every square of the board, a1, b1, .., then rank 2, and so on.
    pub fn squares(&self) -> Vec<Square> {
        let size = self.size();
        let mut out = Vec::new();
        for rank in 0..size {
            for file in 0..size {
                out.push((file, rank));
            }
        }
        out
    }

    /// Number of checkers of a colour on the board (the sum of its stack heights).
    pub fn checkers(&self, color: Color) -> u64 {
        let mut total = 0;
        for cell in &self.board {
            if let Some((c, h)) = *cell
                && c == color
            {
                total += h as u64;
            }
        }
        total
    }

    /// Whether the game is over: one side has no checkers on the board.
    pub fn is_finished(&self) -> bool {
        self.checkers(Color::White) == 0 || self.checkers(Color::Black) == 0
    }

    /// The winner of a finished game (the side that still has checkers); `None` while the game
    /// goes on.
    pub fn winner(&self) -> Option<Color> {
        if self.checkers(Color::White) == 0 {
            Some(Color::Black)
        } else if self.checkers(Color::Black) == 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Reads a FEN of the given variant, accepting only the contract's canonical spelling, and
    /// rejects with a message naming the problem: wrong field count or separator, bad side to
    /// move, wrong number of ranks or of squares in a rank, bad tokens (upper case, zero, leading
    /// zero, sign, empty, number above the board size), two numbers next to each other, a stack
    /// on a light square, more checkers of a colour than the variant has, an empty board.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Position, String> {
        let size = variant.size();
        let fields: Vec<&str> = fen.split(' ').collect();
        if fields.len() != 2 {
            return Err(format!(
                "FEN must be exactly two fields (board, side to move) separated by one space, \
                 found {} fields: {fen:?}",
                fields.len()
            ));
        }
        let to_move = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(format!("side to move must be 'w' or 'b', found {other:?} in FEN {fen:?}")),
        };
        let rank_texts: Vec<&str> = fields[0].split('/').collect();
        if rank_texts.len() != size {
            return Err(format!(
                "FEN board must have {size} ranks for {} separated by '/', found {}: {fen:?}",
                variant.name(),
                rank_texts.len()
            ));
        }
        let mut pos = Position { variant, board: vec![None; size * size], to_move };
        for (i, text) in rank_texts.iter().enumerate() {
            let rank = size - 1 - i; // the first rank written is the top rank
            let where_ = format!("rank {} of FEN {fen:?}", rank + 1);
            let mut file = 0usize;
            let mut previous_was_number = false;
            for token in text.split(',') {
                let first = match token.chars().next() {
                    Some(c) => c,
                    None => return Err(format!("empty token in {where_}")),
                };
                match first {
                    '0'..='9' => {
                        let n = parse_decimal(token)
                            .map_err(|e| format!("bad number {token:?} in {where_}: {e}"))?;
                        if n > size as u64 {
                            return Err(format!(
                                "number {n} is larger than the board size {size} in {where_}"
                            ));
                        }
                        if previous_was_number {
                            return Err(format!(
                                "two numbers next to each other in {where_}: runs of empty squares must be written whole"
                            ));
                        }
                        previous_was_number = true;
                        file += n as usize;
                        if file > size {
                            return Err(format!("{where_} has more than {size} squares"));
                        }
                    }
                    'w' | 'b' => {
                        let color = if first == 'w' { Color::White } else { Color::Black };
                        let height = parse_decimal(&token[1..])
                            .map_err(|e| format!("bad stack {token:?} in {where_}: height {e}"))?;
                        if height > variant.checkers_per_side() {
                            return Err(format!(
                                "stack {token:?} in {where_}: {} has more than {} checkers",
                                color.name(),
                                variant.checkers_per_side()
                            ));
                        }
                        if file >= size {
                            return Err(format!("{where_} has more than {size} squares"));
                        }
                        if !is_dark((file, rank)) {
                            return Err(format!(
                                "stack {token:?} on light square {} in FEN {fen:?}",
                                square_name((file, rank))
                            ));
                        }
                        pos.set((file, rank), Some((color, height as u32)));
                        previous_was_number = false;
                        file += 1;
                    }
                    'W' | 'B' => {
                        return Err(format!(
                            "upper-case token {token:?} in {where_}: stacks are written w<height> or b<height>"
                        ));
                    }
                    '+' | '-' => return Err(format!("signed token {token:?} in {where_}")),
                    _ => return Err(format!("token {token:?} is neither a number nor a stack in {where_}")),
                }
            }
            if file != size {
                return Err(format!("{where_} has {file} squares instead of {size}"));
            }
        }
        for color in [Color::White, Color::Black] {
            let count = pos.checkers(color);
            if count > variant.checkers_per_side() {
                return Err(format!(
                    "{} has {count} checkers, more than the {} of {} in FEN {fen:?}",
                    color.name(),
                    variant.checkers_per_side(),
                    variant.name()
                ));
            }
        }
        if pos.checkers(Color::White) == 0 && pos.checkers(Color::Black) == 0 {
            return Err(format!("the board has no checkers at all in FEN {fen:?}"));
        }
        Ok(pos)
    }

    /// The canonical FEN: ranks from the top down separated by `/`, each rank as comma-separated
    /// tokens (a whole run of empty squares as one number, a stack as `w<h>` or `b<h>`), then a
    /// space and `w` or `b`.
    pub fn to_fen(&self) -> String {
        let size = self.size();
        let mut ranks = Vec::new();
        for rank in (0..size).rev() {
            let mut tokens: Vec<String> = Vec::new();
            let mut empty = 0;
            for file in 0..size {
                match self.get((file, rank)) {
                    None => empty += 1,
                    Some((color, height)) => {
                        if empty > 0 {
                            tokens.push(empty.to_string());
                            empty = 0;
                        }
                        tokens.push(format!("{}{}", color.letter(), height));
                    }
                }
            }
            if empty > 0 {
                tokens.push(empty.to_string());
            }
            ranks.push(tokens.join(","));
        }
        format!("{} {}", ranks.join("/"), self.to_move.letter())
    }
}

/// Parses a positive decimal number as the contract spells it: ASCII digits only (no sign), no
/// leading zero, not zero, not empty.
fn parse_decimal(text: &str) -> Result<u64, String> {
    if text.is_empty() {
        return Err("is missing".to_string());
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{text:?} is not made of decimal digits only (no sign, no letters)"));
    }
    if text == "0" {
        return Err("is zero".to_string());
    }
    if text.starts_with('0') {
        return Err(format!("{text:?} has a leading zero"));
    }
    let mut value: u64 = 0;
    for b in text.bytes() {
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add((b - b'0') as u64))
            .ok_or_else(|| format!("{text:?} is too large"))?;
    }
    Ok(value)
}

/// One move, as the contract defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A plain move, merge or capture: the top k checkers go from `from` to `to`, where k is the
    /// distance (the larger of the file and rank differences). Text: FROM then TO, e.g. `e1e5`.
    Step {
        /// The square of the moving stack.
        from: Square,
        /// The landing square.
        to: Square,
    },
    /// An exit: the top `k` checkers of `from` leave the game. Text: FROM `off` k, e.g. `e1off5`.
    Exit {
        /// The square of the stack whose top checkers leave.
        from: Square,
        /// How many checkers leave (1 <= k <= height).
        k: u32,
    },
    /// The forced pass of a player without any move. Text: `pass`.
    Pass,
}

impl Move {
    /// The move in the contract's notation.
    pub fn text(&self) -> String {
        match *self {
            Move::Step { from, to } => format!("{}{}", square_name(from), square_name(to)),
            Move::Exit { from, k } => format!("{}off{}", square_name(from), k),
            Move::Pass => "pass".to_string(),
        }
    }
}

/// Reads one square name at the start of `text` (a file letter, then a rank number with no
/// leading zero) for a board of `size`; returns the square and the rest of the text.
fn parse_square(text: &str, size: usize) -> Result<(Square, &str), String> {
    let bytes = text.as_bytes();
    if bytes.is_empty() || !(b'a'..b'a' + size as u8).contains(&bytes[0]) {
        return Err(format!("expected a file letter a..{} at {text:?}", (b'a' + size as u8 - 1) as char));
    }
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    let rank = parse_decimal(&text[1..1 + digits]).map_err(|e| format!("rank number {e} at {text:?}"))?;
    if rank > size as u64 {
        return Err(format!("rank {rank} is off the {size}x{size} board at {text:?}"));
    }
    Ok((((bytes[0] - b'a') as usize, rank as usize - 1), &text[1 + digits..]))
}

/// Parses a move text in exactly the contract's notation (lower case, no spaces, squares on the
/// board, no leading zeros): `pass`, FROM TO, or FROM `off` k. This checks only the spelling;
/// whether the move is legal is decided by [`play`] in the context of a position.
pub fn parse_move(variant: Variant, text: &str) -> Result<Move, String> {
    let size = variant.size();
    if text == "pass" {
        return Ok(Move::Pass);
    }
    let (from, rest) = parse_square(text, size).map_err(|e| format!("bad move {text:?}: {e}"))?;
    if let Some(k_text) = rest.strip_prefix("off") {
        let k = parse_decimal(k_text).map_err(|e| format!("bad move {text:?}: exit count {e}"))?;
        let k = u32::try_from(k).map_err(|_| format!("bad move {text:?}: exit count too large"))?;
        return Ok(Move::Exit { from, k });
    }
    let (to, rest) = parse_square(rest, size).map_err(|e| format!("bad move {text:?}: {e}"))?;
    if !rest.is_empty() {
        return Err(format!("bad move {text:?}: unexpected {rest:?} after the target square"));
    }
    Ok(Move::Step { from, to })
}

/// A copy of `pos` where the top `k` checkers of the mover's stack on `from` have left that
/// square, `landing` (if any) is set to the given cell, and the other side is to move.
fn after_move(pos: &Position, from: Square, k: u32, landing: Option<(Square, Cell)>) -> Position {
    let mut next = pos.clone();
    let (color, height) = pos.get(from).expect("a stack on the start square");
    next.set(from, if height == k { None } else { Some((color, height - k)) });
    if let Some((to, cell)) = landing {
        next.set(to, cell);
    }
    next.to_move = pos.to_move.opponent();
    next
}

/// Every legal move of a position with the position after it (unsorted, no duplicates). A
/// finished position has none; a player with no other move gets exactly `pass`.
pub fn generate(pos: &Position) -> Vec<(Move, Position)> {
    let mut moves = Vec::new();
    if pos.is_finished() {
        return moves;
    }
    let me = pos.to_move;
    let size = pos.size() as isize;
    for from in pos.squares() {
        let height = match pos.get(from) {
            Some((color, height)) if color == me => height,
            _ => continue,
        };
        for k in 1..=height {
            // Whether some forward direction takes these k checkers beyond the edge. All such
            // directions together make one exit move.
            let mut exits = false;
            for (file_step, rank_step) in DIRECTIONS {
                let forward = rank_step == 1;
                let orthogonal = file_step == 0 || rank_step == 0;
                if orthogonal && !k.is_multiple_of(2) {
                    continue; // orthogonal directions need an even k
                }
                let file = from.0 as isize + file_step * k as isize;
                let rank = from.1 as isize + rank_step * me.forward() * k as isize;
                if file < 0 || file >= size || rank < 0 || rank >= size {
                    if forward {
                        exits = true; // sideways and backward moves never exit
                    }
                    continue;
                }
                let to = (file as usize, rank as usize);
                let landing = match pos.get(to) {
                    // plain move: forward only, a new k-stack
                    None if forward => Some((me, k)),
                    // merge: forward only, own g-stack becomes g + k
                    Some((color, g)) if color == me && forward => Some((me, g + k)),
                    // capture: any direction, the whole enemy stack leaves, the k-stack stands
                    Some((color, e)) if color != me && e <= k => Some((me, k)),
                    _ => None,
                };
                if let Some(cell) = landing {
                    moves.push((Move::Step { from, to }, after_move(pos, from, k, Some((to, Some(cell))))));
                }
            }
            if exits {
                moves.push((Move::Exit { from, k }, after_move(pos, from, k, None)));
            }
        }
    }
    if moves.is_empty() {
        let mut next = pos.clone();
        next.to_move = me.opponent();
        moves.push((Move::Pass, next));
    }
    moves
}

/// Perft of a parsed position: the number of move sequences of length `depth` (depth 0 = 1).
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

/// Every legal move of the position as (move text, canonical FEN after the move), sorted by the
/// byte order of the move text.
pub fn legal_moves(variant: Variant, fen: &str) -> Result<Vec<(String, String)>, String> {
    let pos = Position::from_fen(variant, fen)?;
    let mut moves: Vec<(String, String)> =
        generate(&pos).iter().map(|(mv, after)| (mv.text(), after.to_fen())).collect();
    moves.sort();
    Ok(moves)
}

/// Plays one move, given in the contract's notation, and returns the canonical FEN after it.
/// Rejects a badly spelled text and any text that is not a legal move of the position.
pub fn play(variant: Variant, fen: &str, move_text: &str) -> Result<String, String> {
    let pos = Position::from_fen(variant, fen)?;
    let mv = parse_move(variant, move_text)?;
    for (candidate, after) in generate(&pos) {
        if candidate == mv {
            return Ok(after.to_fen());
        }
    }
    Err(format!("{move_text:?} is not a legal move in {fen:?}"))
}

/// Number of move sequences of length `depth` from a FEN (perft; depth 0 = 1). `pass` and each
/// exit k count as one move; a finished position has no moves.
pub fn perft(variant: Variant, fen: &str, depth: u32) -> Result<u64, String> {
    let pos = Position::from_fen(variant, fen)?;
    Ok(perft_position(&pos, depth))
}

/// Perft below each legal move: (move text, perft at `depth - 1` after it), sorted by move
/// text. `depth` must be at least 1.
pub fn divide(variant: Variant, fen: &str, depth: u32) -> Result<Vec<(String, u64)>, String> {
    if depth == 0 {
        return Err("divide needs a depth of at least 1".to_string());
    }
    let pos = Position::from_fen(variant, fen)?;
    let mut rows: Vec<(String, u64)> =
        generate(&pos).iter().map(|(mv, after)| (mv.text(), perft_position(after, depth - 1))).collect();
    rows.sort();
    Ok(rows)
}
