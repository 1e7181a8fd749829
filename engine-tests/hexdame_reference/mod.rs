//! Independent reference move generator for HexDame (Christian Freeling, 1979), used only by tests.
//!
//! This module exists to check the engine's fast generator, so it shares nothing with it: it was
//! written from the HexDame rules contract and its perft table alone (docs/rules/hexdame.md
//! gives the same rules in the project's words), and has its own board, FEN reader and writer,
//! move notation and perft. It is
//! meant to be obviously correct rather than fast:
//!
//! * the board is a plain array of 81 optional pieces indexed by (file, rank), 1..=9 each, of
//!   which only the 61 cells with |file - rank| <= 4 exist ("Board and coordinates");
//! * capture sequences are found by plain recursion that follows the contract's words: the
//!   mover's start cell counts as empty, captured pieces stay on the board (so they block and
//!   cannot be jumped again), and every prefix of every sequence is recorded;
//! * the majority rule is applied literally: of all recorded sequences of all the mover's pieces
//!   only those with the greatest number of captured pieces are kept ("Majority rule");
//! * sequences are grouped into moves by (start cell, final cell, set of captured pieces), and a
//!   move's text is the smallest of its full paths ("Move identity", "Canonical text");
//! * every move is played on a fresh copy of the board.
//!
//! Nothing here is clever, so that a disagreement with the fast generator is easy to judge by
//! reading the contract beside this code.

// This file is included with `#[path = "hexdame_reference/mod.rs"] mod hexdame_reference;` by
// test targets, and each of them uses only part of its API.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};

/// FEN of the start position, White to move, exactly as written in the contract.
pub const START_FEN: &str =
    "W:Wa1,a2,a3,a4,b1,b2,b3,b4,c1,c2,c3,c4,d1,d2,d3,d4:Bf6,f7,f8,f9,g6,g7,g8,g9,h6,h7,h8,h9,i6,i7,i8,i9";

/// Most pieces a colour may have: each side starts with 16 men (FEN reading rule 4).
pub const MAX_PIECES: usize = 16;

/// One of the two players, and the colour of his pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White: starts around a1, moves first.
    White,
    /// Black: starts around i9.
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

    /// The FEN letter of the colour: `W` or `B` (for the side to move and the list prefixes).
    pub fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }

    /// The player's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    /// The three forward directions ("Pieces, sides and start position"): for White (0,+1),
    /// (+1,0), (+1,+1); for Black the three opposites.
    pub fn forward_directions(self) -> [(i32, i32); 3] {
        match self {
            Color::White => [(0, 1), (1, 0), (1, 1)],
            Color::Black => [(0, -1), (-1, 0), (-1, -1)],
        }
    }

    /// Whether a cell is on this colour's far edge, where its men promote: rank 9 or file i for
    /// White, rank 1 or file a for Black ("Far edge").
    pub fn is_far_edge(self, cell: Cell) -> bool {
        match self {
            Color::White => cell.1 == 9 || cell.0 == 9,
            Color::Black => cell.1 == 1 || cell.0 == 1,
        }
    }
}

/// Man or king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Steps one cell forward; jumps an adjacent enemy in any of the six directions.
    Man,
    /// Slides and jumps along any of the six directions at any distance ("flying").
    King,
}

/// A piece: its colour and kind.
pub type Piece = (Color, Kind);

/// A cell as `(file, rank)`, both 1-based as in the contract: `(1, 1)` is a1, `(9, 9)` is i9.
pub type Cell = (i32, i32);

/// The six directions as (file step, rank step), in the contract's order: (+1,0), (0,+1),
/// (+1,+1) and their opposites.
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (0, 1), (1, 1), (-1, 0), (0, -1), (-1, -1)];

/// Whether `(f, r)` is a cell of the board: 1 <= f, r <= 9 and |f - r| <= 4.
pub fn on_board(cell: Cell) -> bool {
    let (f, r) = cell;
    (1..=9).contains(&f) && (1..=9).contains(&r) && (f - r).abs() <= 4
}

/// All 61 cells in the contract's sort order: by file letter, then rank digit (a1, a2, .., i9).
pub fn all_cells() -> Vec<Cell> {
    let mut out = Vec::new();
    for f in 1..=9 {
        for r in 1..=9 {
            if on_board((f, r)) {
                out.push((f, r));
            }
        }
    }
    out
}

/// The name of a cell: its file letter a..i then its rank digit 1..9, e.g. `e5`.
pub fn cell_name(cell: Cell) -> String {
    format!("{}{}", (b'a' + (cell.0 - 1) as u8) as char, cell.1)
}

/// The cell one step from `cell` in direction `d` (which may be off the board).
fn step(cell: Cell, d: (i32, i32)) -> Cell {
    (cell.0 + d.0, cell.1 + d.1)
}

/// Reads a cell name that must be exactly two characters: a lower-case file letter a..i and a
/// rank digit 1..9, naming a cell of the board. The error says whether the name is malformed
/// or names a cell outside the board.
pub fn parse_cell(text: &str) -> Result<Cell, String> {
    let bytes = text.as_bytes();
    if bytes.len() < 2 || !bytes[0].is_ascii_lowercase() || !bytes[1..].iter().all(|b| b.is_ascii_digit()) {
        return Err(format!("malformed cell name {text:?}: expected a letter a..i and a digit 1..9"));
    }
    if bytes.len() > 2 {
        // Every cell of the board is one letter and one digit ("Move notation"); "a10" or a
        // leading zero is not a name the contract writes.
        return Err(format!("malformed cell name {text:?}: a cell is one letter and one digit"));
    }
    let f = (bytes[0] - b'a') as i32 + 1;
    let r = (bytes[1] - b'0') as i32;
    if !on_board((f, r)) {
        return Err(format!("cell {text:?} is outside the board (cells have |file - rank| <= 4)"));
    }
    Ok((f, r))
}

/// A position: the pieces on the 61 cells and the side to move (all a FEN holds).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// `board[(file - 1) * 9 + (rank - 1)]`; the 20 slots that are not cells stay `None`.
    pub board: [Option<Piece>; 81],
    /// The player to move.
    pub to_move: Color,
}

impl Position {
    /// The start position, White to move.
    pub fn start() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is legal")
    }

    /// An empty board with the given side to move (not a legal position by itself).
    pub fn empty(to_move: Color) -> Position {
        Position { board: [None; 81], to_move }
    }

    /// The piece on a cell; `None` for an empty cell or a cell off the board.
    pub fn get(&self, cell: Cell) -> Option<Piece> {
        if on_board(cell) { self.board[((cell.0 - 1) * 9 + (cell.1 - 1)) as usize] } else { None }
    }

    /// Sets the content of a cell, which must be on the board.
    pub fn set(&mut self, cell: Cell, piece: Option<Piece>) {
        assert!(on_board(cell), "set on a cell off the board: {cell:?}");
        self.board[((cell.0 - 1) * 9 + (cell.1 - 1)) as usize] = piece;
    }

    /// Number of pieces (men and kings) of a colour.
    pub fn count(&self, color: Color) -> usize {
        self.board.iter().filter(|p| matches!(p, Some((c, _)) if *c == color)).count()
    }

    /// Number of pieces of a colour and kind.
    pub fn count_kind(&self, color: Color, kind: Kind) -> usize {
        self.board.iter().filter(|p| **p == Some((color, kind))).count()
    }

    /// Reads a position in the contract's notation `SIDE:WLIST:BLIST` ("Position notation").
    /// Accepts pieces in any order and whitespace around the whole text, nothing else; rejects,
    /// with a message naming the problem, a wrong shape, a cell off the board, two pieces on a
    /// cell, more than 16 pieces of a colour, a man on its own far edge, and a side not to move
    /// without pieces (rules 1 to 6).
    pub fn from_fen(fen: &str) -> Result<Position, String> {
        let text = fen.trim();
        let fields: Vec<&str> = text.split(':').collect();
        if fields.len() != 3 {
            return Err(format!(
                "FEN must be SIDE:WLIST:BLIST with exactly two ':', found {} fields: {fen:?}",
                fields.len()
            ));
        }
        let to_move = match fields[0] {
            "W" => Color::White,
            "B" => Color::Black,
            other => return Err(format!("side to move must be 'W' or 'B', found {other:?} in FEN {fen:?}")),
        };
        let mut pos = Position::empty(to_move);
        for (field, color) in [(fields[1], Color::White), (fields[2], Color::Black)] {
            let Some(list) = field.strip_prefix(color.letter()) else {
                return Err(format!(
                    "the {} list must start with '{}' (White's list first, then Black's), found {field:?} \
                     in FEN {fen:?}",
                    color.name(),
                    color.letter()
                ));
            };
            if list.is_empty() {
                continue; // "A list may be empty."
            }
            for item in list.split(',') {
                if item.is_empty() {
                    return Err(format!("empty item in the {} list of FEN {fen:?}", color.name()));
                }
                let (kind, name) = match item.strip_prefix('K') {
                    Some(rest) => (Kind::King, rest),
                    None => (Kind::Man, item),
                };
                let cell = parse_cell(name).map_err(|e| {
                    format!("bad piece {item:?} in the {} list of FEN {fen:?}: {e}", color.name())
                })?;
                if pos.get(cell).is_some() {
                    return Err(format!("two pieces on {} in FEN {fen:?}", cell_name(cell)));
                }
                if kind == Kind::Man && color.is_far_edge(cell) {
                    return Err(format!(
                        "a {} man on {}, on its own far edge (it would already be a king), in FEN {fen:?}",
                        color.name(),
                        cell_name(cell)
                    ));
                }
                pos.set(cell, Some((color, kind)));
            }
            if pos.count(color) > MAX_PIECES {
                return Err(format!(
                    "{} has {} pieces, more than {MAX_PIECES}, in FEN {fen:?}",
                    color.name(),
                    pos.count(color)
                ));
            }
        }
        if pos.count(to_move.opponent()) == 0 {
            return Err(format!(
                "{} is not to move but has no pieces (the side that has just moved must have one) in FEN {fen:?}",
                to_move.opponent().name()
            ));
        }
        Ok(pos)
    }

    /// The position in the contract's notation: side, then White's list, then Black's, each
    /// sorted by cell (letter, then digit) with men and kings mixed, kings prefixed `K`.
    pub fn to_fen(&self) -> String {
        let mut lists = Vec::new();
        for color in [Color::White, Color::Black] {
            let mut items = Vec::new();
            for cell in all_cells() {
                match self.get(cell) {
                    Some((c, Kind::Man)) if c == color => items.push(cell_name(cell)),
                    Some((c, Kind::King)) if c == color => items.push(format!("K{}", cell_name(cell))),
                    _ => {}
                }
            }
            lists.push(format!("{}{}", color.letter(), items.join(",")));
        }
        format!("{}:{}:{}", self.to_move.letter(), lists[0], lists[1])
    }

    /// Whether the game is over in this position: the side to move has no legal move ("Loss").
    /// Repetition needs the game's history; see [`game_outcome`].
    pub fn is_finished(&self) -> bool {
        generate(self).is_empty()
    }

    /// The winner when the side to move has no legal move (he has lost, "End of the game");
    /// `None` while he has one.
    pub fn winner(&self) -> Option<Color> {
        if self.is_finished() { Some(self.to_move.opponent()) } else { None }
    }
}

/// One move as the contract defines it ("Move identity").
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The start cell.
    pub from: Cell,
    /// The final cell (equal to `from` when a capture goes round back to its start).
    pub to: Cell,
    /// The cells of the captured pieces, sorted; empty for a non-capturing move.
    pub captured: Vec<Cell>,
    /// For a capture, every full path (start cell, then each landing cell) that makes this move,
    /// sorted, so `paths[0]` is the canonical one; empty for a non-capturing move.
    pub paths: Vec<Vec<Cell>>,
}

impl Move {
    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// The canonical text: `from-to` for a non-capturing move; for a capture, the smallest full
    /// path in plain character order, cells joined by `x` ("Canonical text").
    pub fn text(&self) -> String {
        if self.is_capture() {
            path_text(&self.paths[0])
        } else {
            format!("{}-{}", cell_name(self.from), cell_name(self.to))
        }
    }

    /// Every spelling [`play`] accepts for this move: each full path of a capture, or the one
    /// `from-to` text of a non-capturing move.
    pub fn spellings(&self) -> Vec<String> {
        if self.is_capture() { self.paths.iter().map(|p| path_text(p)).collect() } else { vec![self.text()] }
    }
}

/// A capture path as text: its cells joined by `x`.
pub fn path_text(path: &[Cell]) -> String {
    path.iter().map(|c| cell_name(*c)).collect::<Vec<_>>().join("x")
}

/// Whether a cell counts as empty during a capture that started on `start`: on the board and
/// either empty or the start cell, which the capturing piece has left (rule 1 of "During the
/// sequence"). Captured pieces are still on the board, so they are not empty (rule 2).
fn empty_during(pos: &Position, start: Cell, cell: Cell) -> bool {
    on_board(cell) && (cell == start || pos.get(cell).is_none())
}

/// Whether `cell` holds an enemy piece of `me` that this sequence has not captured yet.
fn jumpable(pos: &Position, me: Color, captured: &[Cell], cell: Cell) -> bool {
    matches!(pos.get(cell), Some((c, _)) if c != me) && !captured.contains(&cell)
}

/// Records every capture sequence (every prefix of one or more jumps) of the piece of kind
/// `kind` that started on `path[0]` and now stands on the last cell of `path`, as
/// (path, captured cells in jump order). Plain recursion over the six directions.
fn capture_sequences(
    pos: &Position,
    me: Color,
    kind: Kind,
    path: &mut Vec<Cell>,
    captured: &mut Vec<Cell>,
    out: &mut Vec<(Vec<Cell>, Vec<Cell>)>,
) {
    if !captured.is_empty() {
        out.push((path.clone(), captured.clone()));
    }
    let start = path[0];
    let cur = *path.last().expect("a path has its start cell");
    for d in DIRECTIONS {
        match kind {
            Kind::Man => {
                // Man jump: an enemy on the adjacent cell, the cell directly beyond it exists
                // and is empty; the man lands there. Any of the six directions.
                let over = step(cur, d);
                let land = step(over, d);
                if jumpable(pos, me, captured, over) && empty_during(pos, start, land) {
                    path.push(land);
                    captured.push(over);
                    capture_sequences(pos, me, kind, path, captured, out);
                    captured.pop();
                    path.pop();
                }
            }
            Kind::King => {
                // King jump: zero or more empty cells, then an enemy piece (not yet captured:
                // a captured one blocks), then one or more empty cells, any of them a landing.
                let mut over = step(cur, d);
                while empty_during(pos, start, over) {
                    over = step(over, d);
                }
                if !jumpable(pos, me, captured, over) {
                    continue; // off the board, own piece, or an already captured piece
                }
                let mut land = step(over, d);
                while empty_during(pos, start, land) {
                    path.push(land);
                    captured.push(over);
                    capture_sequences(pos, me, kind, path, captured, out);
                    captured.pop();
                    path.pop();
                    land = step(land, d);
                }
            }
        }
    }
}

/// The position after a move: captured pieces removed at once, the piece moved from `from` to
/// `to`, and a man ending on its far edge promoted (promotion is checked after the removal and
/// only the final cell matters, "Promotion"); then the other side is to move.
fn after_move(pos: &Position, from: Cell, to: Cell, captured: &[Cell]) -> Position {
    let mut next = pos.clone();
    let (color, kind) = pos.get(from).expect("a piece on the start cell");
    for &cell in captured {
        next.set(cell, None);
    }
    next.set(from, None);
    let kind = if kind == Kind::Man && color.is_far_edge(to) { Kind::King } else { kind };
    next.set(to, Some((color, kind)));
    next.to_move = pos.to_move.opponent();
    next
}

/// Every legal move of a position with the position after it, sorted by move text. Captures
/// are compulsory and only those taking the greatest number of pieces are legal; without any
/// capture, men step forward and kings slide. A side without a legal move gets an empty list.
pub fn generate(pos: &Position) -> Vec<(Move, Position)> {
    let me = pos.to_move;
    // All capture sequences of all the mover's pieces.
    let mut sequences = Vec::new();
    for cell in all_cells() {
        if let Some((c, kind)) = pos.get(cell)
            && c == me
        {
            capture_sequences(pos, me, kind, &mut vec![cell], &mut Vec::new(), &mut sequences);
        }
    }
    let mut moves = Vec::new();
    if let Some(best) = sequences.iter().map(|(_, captured)| captured.len()).max() {
        // Majority rule: keep the sequences with the greatest number of pieces, and group them
        // by (start, final, set of captured pieces) into moves (Move identity).
        let mut grouped: BTreeMap<(Cell, Cell, Vec<Cell>), Vec<Vec<Cell>>> = BTreeMap::new();
        for (path, mut captured) in sequences {
            if captured.len() != best {
                continue;
            }
            captured.sort();
            let key = (path[0], *path.last().unwrap(), captured);
            grouped.entry(key).or_default().push(path);
        }
        for ((from, to, captured), mut paths) in grouped {
            paths.sort(); // cell order (file, then rank) is the plain character order of the text
            paths.dedup();
            let after = after_move(pos, from, to, &captured);
            moves.push((Move { from, to, captured, paths }, after));
        }
    } else {
        for from in all_cells() {
            match pos.get(from) {
                Some((c, Kind::Man)) if c == me => {
                    // A man steps one cell forward onto an empty cell.
                    for d in me.forward_directions() {
                        let to = step(from, d);
                        if on_board(to) && pos.get(to).is_none() {
                            let after = after_move(pos, from, to, &[]);
                            moves.push((Move { from, to, captured: vec![], paths: vec![] }, after));
                        }
                    }
                }
                Some((c, Kind::King)) if c == me => {
                    // A king slides any number of empty cells along one of the six directions.
                    for d in DIRECTIONS {
                        let mut to = step(from, d);
                        while on_board(to) && pos.get(to).is_none() {
                            let after = after_move(pos, from, to, &[]);
                            moves.push((Move { from, to, captured: vec![], paths: vec![] }, after));
                            to = step(to, d);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    // Each text is built once (the texts are distinct, so the order is that of sorting by text);
    // the solvers call this millions of times.
    moves.sort_by_cached_key(|(m, _)| m.text());
    moves
}

/// Every capture sequence of the side to move before the majority rule is applied: (path,
/// captured cells in jump order), every prefix of every sequence included, collected exactly as
/// [`generate`] collects them. For tools that ask what the majority rule takes away; `generate`
/// itself does not call it.
pub fn capture_sequences_before_majority(pos: &Position) -> Vec<(Vec<Cell>, Vec<Cell>)> {
    let mut sequences = Vec::new();
    for cell in all_cells() {
        if let Some((c, kind)) = pos.get(cell)
            && c == pos.to_move
        {
            capture_sequences(pos, pos.to_move, kind, &mut vec![cell], &mut Vec::new(), &mut sequences);
        }
    }
    sequences
}

/// Perft of a parsed position: the number of move sequences of length `depth` (depth 0 = 1).
/// A position whose side to move has no move has no moves; repetition is ignored.
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

/// Every legal move of the position as (canonical move text, FEN after the move), sorted by
/// move text in plain character order ("Move listing").
pub fn legal_moves(fen: &str) -> Result<Vec<(String, String)>, String> {
    let pos = Position::from_fen(fen)?;
    let mut moves: Vec<(String, String)> =
        generate(&pos).iter().map(|(mv, after)| (mv.text(), after.to_fen())).collect();
    moves.sort();
    Ok(moves)
}

/// Parses a move text into its cells, checking only the spelling: `c1-c2` (exactly two cells)
/// or `c1xc2x..` (two or more cells). Returns the cells and whether it was written with `x`.
pub fn parse_move_text(text: &str) -> Result<(Vec<Cell>, bool), String> {
    let has_dash = text.contains('-');
    let has_x = text.contains('x');
    if has_dash && has_x {
        return Err(format!("bad move {text:?}: '-' and 'x' mixed"));
    }
    if !has_dash && !has_x {
        return Err(format!("bad move {text:?}: expected FROM-TO or FROMxTOx.."));
    }
    let parts: Vec<&str> = text.split(if has_x { 'x' } else { '-' }).collect();
    if has_dash && parts.len() != 2 {
        return Err(format!("bad move {text:?}: a non-capturing move is exactly two cells joined by '-'"));
    }
    let mut cells = Vec::new();
    for part in parts {
        cells.push(parse_cell(part).map_err(|e| format!("bad move {text:?}: {e}"))?);
    }
    Ok((cells, has_x))
}

/// Plays one move and returns the FEN after it. Accepts the canonical text or any other full
/// path of a legal capture ("Reading"); rejects an illegal move, a shortened path, a capture
/// written with `-` and a step written with `x`, each with a message saying which.
pub fn play(fen: &str, move_text: &str) -> Result<String, String> {
    let pos = Position::from_fen(fen)?;
    let (cells, is_x) = parse_move_text(move_text)?;
    let moves = generate(&pos);
    for (mv, after) in &moves {
        if mv.is_capture() && is_x && mv.paths.contains(&cells) {
            return Ok(after.to_fen());
        }
        if !mv.is_capture() && !is_x && cells == [mv.from, mv.to] {
            return Ok(after.to_fen());
        }
    }
    let (first, last) = (cells[0], *cells.last().unwrap());
    if !is_x && moves.iter().any(|(m, _)| m.is_capture() && m.from == first && m.to == last) {
        return Err(format!("{move_text:?} is a capture written with '-': write its full path with 'x'"));
    }
    if is_x
        && cells.len() == 2
        && moves.iter().any(|(m, _)| !m.is_capture() && m.from == first && m.to == last)
    {
        return Err(format!("{move_text:?} is a non-capturing move written with 'x': write it with '-'"));
    }
    if is_x && moves.iter().any(|(m, _)| m.is_capture() && m.from == first && m.to == last) {
        return Err(format!(
            "{move_text:?} is not a full path of a legal capture (a shortened or wrong path?)"
        ));
    }
    Err(format!("{move_text:?} is not a legal move in {fen:?}"))
}

/// Number of move sequences of length `depth` from a FEN (perft; depth 0 = 1), counting moves
/// as the contract defines them; repetition is ignored.
pub fn perft(fen: &str, depth: u32) -> Result<u64, String> {
    let pos = Position::from_fen(fen)?;
    Ok(perft_position(&pos, depth))
}

/// Perft below each legal move: (canonical move text, perft at `depth - 1` after it), sorted by
/// move text. `depth` must be at least 1.
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

/// The state of a game after some moves ("End of the game").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// The side to move had no legal move: the other side (given here) has won.
    Win(Color),
    /// A position occurred for the third time: drawn at once.
    DrawByRepetition,
}

/// Plays `moves` from `start_fen` and says how the game stands after the last one. The start
/// position counts as the first occurrence of itself; a position is "the same" when pieces,
/// kinds, cells and side to move agree, which is exactly equality of the canonical FEN. A move
/// after the game has ended is an error.
pub fn game_outcome(start_fen: &str, moves: &[&str]) -> Result<Outcome, String> {
    let mut fen = Position::from_fen(start_fen)?.to_fen();
    let mut seen: HashMap<String, u32> = HashMap::new();
    let outcome_of = |fen: &str, seen: &mut HashMap<String, u32>| -> Outcome {
        let pos = Position::from_fen(fen).expect("a reached position is legal");
        // A position without a legal move ends the game the first time it occurs, so loss is
        // checked before repetition ("Loss and repetition never clash").
        if let Some(w) = pos.winner() {
            return Outcome::Win(w);
        }
        let n = seen.entry(fen.to_string()).or_insert(0);
        *n += 1;
        if *n >= 3 { Outcome::DrawByRepetition } else { Outcome::Ongoing }
    };
    let mut outcome = outcome_of(&fen, &mut seen);
    for (i, mv) in moves.iter().enumerate() {
        if outcome != Outcome::Ongoing {
            return Err(format!("move {} ({mv:?}) played after the game ended ({outcome:?})", i + 1));
        }
        fen = play(&fen, mv)?;
        outcome = outcome_of(&fen, &mut seen);
    }
    Ok(outcome)
}
