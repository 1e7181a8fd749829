//! The geometry of the HexDame board: the numbering of its 61 cells in a `u64`, the six
//! directions as shifts with edge masks, neighbours, far edges and cell names.
//!
//! # Cell numbering
//!
//! A cell is a file f (a..i = 1..9) and a rank r (1..9) with |f - r| <= 4 (docs/rules/hexdame.md).
//! Rank r holds the files `fmin(r) = max(1, r - 4)` ..= `min(9, r + 4)`: 5, 6, 7, 8, 9, 8, 7, 6
//! and 5 cells. The cells of one rank get consecutive bits, in file order, and the ranks are
//! interleaved so that the 61 cells fill bits 0..=60 exactly:
//!
//! ```text
//!  bits   0..=4   5..=12  13..=18  19..=25  26..=32  33..=38  39..=46  47..=51  52..=60
//!  rank     1       6        2        7        3        8        4        9        5
//! ```
//!
//! The same on the board (bit numbers, laid out like the board of names in the rules):
//!
//! ```text
//!                     51
//!                  50    38
//!               49    37    25
//!            48    36    24    12
//!         47    35    23    11    60
//!            34    22    10    59
//!         33    21     9    58    46
//!            20     8    57    45
//!         19     7    56    44    32
//!             6    55    43    31
//!          5    54    42    30    18
//!            53    41    29    17
//!         52    40    28    16     4
//!            39    27    15     3
//!               26    14     2
//!                  13     1
//!                      0
//! ```
//!
//! Why this order: no numbering of the hexagon into 64 bits makes every direction one constant
//! shift (a linear index would need 73 bits), but with these interleaved ranks the step along a
//! rank is always 1 bit and the step up a file always 13 bits, except from rank 5 to rank 6,
//! which is 48 bits down. So every direction is at most **two masked shifts**: one for the
//! cells whose neighbour is at the usual distance, one for the cells of the middle rank (see
//! [`Direction`]). Bits 61..=63 are never set.

/// A cell: its bit number, 0..=60.
pub type Cell = u8;

/// The number of cells.
pub const CELLS: usize = 61;
/// Every cell of the board.
pub const ALL: u64 = (1 << CELLS) - 1;
/// What [`neighbour`] returns when there is no cell in that direction.
pub const NONE: Cell = 64;

/// The first bit of each rank, indexed by rank (index 0 unused).
const RANK_BASE: [u8; 10] = [0, 0, 13, 26, 39, 52, 5, 19, 33, 47];

/// The first file of rank `r`.
pub const fn first_file(rank: i32) -> i32 {
    if rank > 5 { rank - 4 } else { 1 }
}

/// The last file of rank `r`.
pub const fn last_file(rank: i32) -> i32 {
    if rank < 5 { rank + 4 } else { 9 }
}

/// True when `(file, rank)` is a cell of the board.
pub const fn on_board(file: i32, rank: i32) -> bool {
    file >= 1 && file <= 9 && rank >= 1 && rank <= 9 && (file - rank).abs() <= 4
}

/// The cell at `(file, rank)`, if it is on the board.
pub const fn cell(file: i32, rank: i32) -> Option<Cell> {
    if on_board(file, rank) { Some(RANK_BASE[rank as usize] + (file - first_file(rank)) as u8) } else { None }
}

/// The `(file, rank)` of every cell, indexed by cell.
static COORDINATES: [(i8, i8); CELLS] = {
    let mut table = [(0, 0); CELLS];
    let mut rank = 1;
    while rank <= 9 {
        let mut file = first_file(rank);
        while file <= last_file(rank) {
            let index = RANK_BASE[rank as usize] as i32 + file - first_file(rank);
            table[index as usize] = (file as i8, rank as i8);
            file += 1;
        }
        rank += 1;
    }
    table
};

/// The `(file, rank)` of `cell` (1-based).
#[inline]
pub fn coordinates(cell: Cell) -> (i32, i32) {
    let (f, r) = COORDINATES[cell as usize];
    (i32::from(f), i32::from(r))
}

/// The cell's name, `a1` .. `i9`.
pub fn name(cell: Cell) -> String {
    let (file, rank) = coordinates(cell);
    format!("{}{}", (b'a' + file as u8 - 1) as char, rank)
}

/// The cell's place in the order of names (file first, then rank): the order in which the
/// rules compare capture paths to choose the canonical one.
#[inline]
pub fn name_order(cell: Cell) -> u8 {
    let (file, rank) = COORDINATES[cell as usize];
    // In u8: files h and i (8 and 9) times 16 overflow i8, which debug builds reject.
    file as u8 * 16 + rank as u8
}

/// Reads a cell name: a letter `a`..`i` and a digit `1`..`9`, on the board.
pub fn parse_cell(text: &str) -> Option<Cell> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 || !(b'a'..=b'i').contains(&bytes[0]) || !(b'1'..=b'9').contains(&bytes[1]) {
        return None;
    }
    cell(i32::from(bytes[0] - b'a') + 1, i32::from(bytes[1] - b'0'))
}

/// The six directions as `(file step, rank step)`; a direction and its opposite are 3 apart.
pub const STEPS: [(i32, i32); 6] = [(1, 0), (0, 1), (1, 1), (-1, 0), (0, -1), (-1, -1)];

/// The direction opposite to `dir`.
pub const fn opposite(dir: usize) -> usize {
    (dir + 3) % 6
}

/// A direction as shifts: the cells in `usual` move by `usual_shift` bits, those in `middle`
/// (the one rank where the file step crosses between the two interleaved halves) by
/// `middle_shift`. A cell in neither mask has no neighbour that way.
#[derive(Clone, Copy, Debug)]
pub struct Direction {
    /// Cells whose neighbour lies `usual_shift` bits away.
    pub usual: u64,
    /// The signed shift of the usual cells.
    pub usual_shift: i32,
    /// Cells whose neighbour lies `middle_shift` bits away.
    pub middle: u64,
    /// The signed shift of the middle cells.
    pub middle_shift: i32,
}

/// Shifts by a signed amount.
#[inline(always)]
const fn signed_shift(bits: u64, by: i32) -> u64 {
    if by >= 0 { bits << by } else { bits >> -by }
}

/// The six [`Direction`]s, in the order of [`STEPS`], derived from the numbering.
pub static DIRECTIONS: [Direction; 6] = {
    let mut dirs = [Direction { usual: 0, usual_shift: 0, middle: 0, middle_shift: 0 }; 6];
    let mut d = 0;
    while d < 6 {
        let (df, dr) = STEPS[d];
        // The usual shift is the one of a cell away from the middle crossing: a1 to its
        // neighbour for the upward and rightward steps, i9 to its neighbour for the others;
        // the middle shift is the one of a cell that crosses (e5 up, e6 down).
        let (usual_shift, middle_shift) = {
            let up = dr > 0 || (dr == 0 && df > 0);
            let probe = if up { (1, 1) } else { (9, 9) };
            let here = cell(probe.0, probe.1).unwrap() as i32;
            let there = cell(probe.0 + df, probe.1 + dr).unwrap() as i32;
            let crossing = if up { (5, 5) } else { (5, 6) };
            let c_here = cell(crossing.0, crossing.1).unwrap() as i32;
            let c_there = cell(crossing.0 + df, crossing.1 + dr).unwrap() as i32;
            (there - here, c_there - c_here)
        };
        let mut usual = 0u64;
        let mut middle = 0u64;
        let mut index = 0;
        while index < CELLS {
            let (f, r) = COORDINATES[index];
            if let Some(n) = cell(f as i32 + df, r as i32 + dr) {
                if n as i32 - index as i32 == usual_shift {
                    usual |= 1 << index;
                } else {
                    // Checked by a test: every such cell moves by the middle shift.
                    middle |= 1 << index;
                }
            }
            index += 1;
        }
        dirs[d] = Direction { usual, usual_shift, middle, middle_shift };
        d += 1;
    }
    dirs
};

/// Every cell of `bits` moved one step in direction `dir` (cells without a neighbour there
/// vanish).
#[inline(always)]
pub fn shift(bits: u64, dir: usize) -> u64 {
    let d = &DIRECTIONS[dir];
    signed_shift(bits & d.usual, d.usual_shift) | signed_shift(bits & d.middle, d.middle_shift)
}

/// The neighbour of every cell in every direction ([`NONE`] off the board).
static NEIGHBOURS: [[Cell; 64]; 6] = {
    let mut table = [[NONE; 64]; 6];
    let mut d = 0;
    while d < 6 {
        let mut index = 0;
        while index < CELLS {
            let (f, r) = COORDINATES[index];
            if let Some(n) = cell(f as i32 + STEPS[d].0, r as i32 + STEPS[d].1) {
                table[d][index] = n;
            }
            index += 1;
        }
        d += 1;
    }
    table
};

/// The neighbour of `cell` in direction `dir`, or [`NONE`]. `neighbour(NONE, dir)` is `NONE`,
/// so that walks need no extra test.
#[inline(always)]
pub fn neighbour(cell: Cell, dir: usize) -> Cell {
    NEIGHBOURS[dir][cell as usize]
}

/// The bit of `cell` (0 for [`NONE`]).
#[inline(always)]
pub const fn bit(cell: Cell) -> u64 {
    if cell < 64 { 1 << cell } else { 0 }
}

/// White's far edge (rank 9 and file i), where his men are promoted.
pub static WHITE_FAR_EDGE: u64 = edge(true);
/// Black's far edge (rank 1 and file a).
pub static BLACK_FAR_EDGE: u64 = edge(false);

/// The far edge of White (`true`) or Black.
const fn edge(white: bool) -> u64 {
    let mut bits = 0;
    let mut index = 0;
    while index < CELLS {
        let (f, r) = COORDINATES[index];
        if (white && (f == 9 || r == 9)) || (!white && (f == 1 || r == 1)) {
            bits |= 1 << index;
        }
        index += 1;
    }
    bits
}

/// Iterates over the cells of a bitboard, lowest bit first.
#[derive(Clone, Copy)]
pub struct Cells(pub u64);

impl Iterator for Cells {
    type Item = Cell;

    #[inline(always)]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let cell = self.0.trailing_zeros() as Cell;
        self.0 &= self.0 - 1;
        Some(cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_numbering_fills_bits_0_to_60_once() {
        let mut seen = 0u64;
        for rank in 1..=9 {
            for file in 1..=9 {
                if let Some(c) = cell(file, rank) {
                    assert_eq!(seen & bit(c), 0, "{file},{rank}");
                    seen |= bit(c);
                    assert_eq!(coordinates(c), (file, rank));
                    assert_eq!(parse_cell(&name(c)), Some(c));
                }
            }
        }
        assert_eq!(seen, ALL);
        assert_eq!(ALL.count_ones(), 61);
    }

    #[test]
    fn the_diagram_of_the_docs_matches_the_numbering() {
        // Spot checks of the doc diagram: a1, i9, e1, a5, e5, e9, i5.
        for (text, bit_number) in
            [("a1", 0), ("i9", 51), ("e1", 4), ("a5", 52), ("e5", 56), ("e9", 47), ("i5", 60)]
        {
            assert_eq!(parse_cell(text), Some(bit_number), "{text}");
        }
    }

    #[test]
    fn shifts_agree_with_neighbours_in_every_direction() {
        for dir in 0..6 {
            let d = &DIRECTIONS[dir];
            assert_eq!(d.usual & d.middle, 0);
            for c in 0..CELLS as Cell {
                let n = neighbour(c, dir);
                assert_eq!(shift(bit(c), dir), bit(n), "cell {} dir {dir}", name(c));
                let (f, r) = coordinates(c);
                assert_eq!(n == NONE, !on_board(f + STEPS[dir].0, r + STEPS[dir].1));
            }
            // The middle shift concerns one rank at most.
            assert!(d.middle.count_ones() <= 9, "dir {dir}");
        }
    }

    #[test]
    fn far_edges_have_nine_cells() {
        assert_eq!(WHITE_FAR_EDGE.count_ones(), 9);
        assert_eq!(BLACK_FAR_EDGE.count_ones(), 9);
        assert_eq!(WHITE_FAR_EDGE & BLACK_FAR_EDGE, 0);
        assert!(WHITE_FAR_EDGE & bit(parse_cell("i5").unwrap()) != 0);
        assert!(BLACK_FAR_EDGE & bit(parse_cell("e1").unwrap()) != 0);
    }

    #[test]
    fn cell_names_reject_off_board_and_malformed_text() {
        for text in ["a6", "i1", "j1", "a0", "a10", "A1", "", "a"] {
            assert_eq!(parse_cell(text), None, "{text}");
        }
    }
}
