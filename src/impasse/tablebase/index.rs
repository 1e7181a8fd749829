//! The perfect index of the Impasse tables: every position with `k` stacks (occupied squares)
//! gets a distinct number below [`Layout::entries`], and back.
//!
//! **Colour symmetry.** Turning the board half a turn and swapping the colours maps a position
//! onto an equivalent one with the other side to move: the half turn maps dark square `s` to
//! `31 - s` (a1 to h8), which on the bitboards is `u32::reverse_bits`, and White's nearest row to
//! Black's. So the tables hold only positions seen from the side to move as White: the
//! **mover**'s singles and doubles and the **opponent**'s, in White's orientation.
//!
//! **The number of a position** with `k` stacks is, within table `k`:
//! `offset(material) + rank(occupied squares) * arrangements(material) + rank(arrangement)`,
//! where the material is the number of mover singles, mover doubles, opponent singles and
//! opponent doubles (each side has at least one stack: a side with none has finished), the
//! occupied squares are ranked in the combinatorial number system (colex: `sum C(s_i, i + 1)`
//! over the squares `s_0 < s_1 < ...`), and the arrangement (which kind stands on each occupied
//! square, in square order) is ranked among the arrangements of its material. Invalid positions
//! (a double on its owner's nearest row, a single on its owner's furthest row beside another
//! single) keep their numbers and are never filled: the index stays a plain formula.

use crate::impasse::board::Bitboard;
use crate::impasse::{Color, Position};

/// The most stacks a table may have (the arrangement table has `4^k` entries).
pub const MAX_STACKS: u32 = 8;

/// `C(n, r)` for `n <= 32`, `r <= MAX_STACKS`.
const fn binomial(n: u32, r: u32) -> u64 {
    if r > n {
        return 0;
    }
    let mut result = 1u64;
    let mut i = 0;
    while i < r {
        result = result * (n - i) as u64 / (i + 1) as u64;
        i += 1;
    }
    result
}

/// The kinds of stack, in the order of their digits in an arrangement code.
const MOVER_SINGLE: usize = 0;
const MOVER_DOUBLE: usize = 1;
const OPPONENT_SINGLE: usize = 2;
const OPPONENT_DOUBLE: usize = 3;

/// A position seen from its mover: the four bitboards in White's orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// Indexed by kind: mover singles, mover doubles, opponent singles, opponent doubles.
    pub boards: [Bitboard; 4],
}

impl Canonical {
    /// `pos` as its mover sees it (Black's positions turned half a turn, colours swapped).
    pub fn of(pos: &Position) -> Canonical {
        let (us, them) = (pos.side_to_move(), pos.side_to_move().opponent());
        let boards = [pos.singles(us), pos.doubles(us), pos.singles(them), pos.doubles(them)];
        match us {
            Color::White => Canonical { boards },
            Color::Black => Canonical { boards: boards.map(u32::reverse_bits) },
        }
    }

    /// The position, White to move.
    pub fn position(&self) -> Position {
        let [ms, md, os, od] = self.boards;
        Position::from_parts([ms, os], [md, od], Color::White)
    }

    /// The occupied squares.
    pub fn occupied(&self) -> Bitboard {
        self.boards.iter().fold(0, |a, b| a | b)
    }

    /// True when the contract allows this position (see the module docs), White to move.
    pub fn is_valid(&self) -> bool {
        let [ms, md, os, od] = self.boards;
        let (rank1, rank8) = (Color::White.nearest_row(), Color::White.furthest_row());
        md & rank1 == 0
            && od & rank8 == 0
            && (ms & rank8 == 0 || ms.count_ones() == 1)
            && (os & rank1 == 0 || os.count_ones() == 1)
    }
}

/// One material of a table: the number of stacks of each kind, and where its numbers start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Material {
    /// Stacks of each kind (see [`Canonical::boards`]).
    pub counts: [u32; 4],
    /// The number of its first position in the table.
    pub offset: u64,
    /// How many arrangements of its kinds over `k` occupied squares there are.
    pub arrangements: u64,
}

/// No material: the arrangement leaves a side without stacks.
const NONE: u16 = u16::MAX;

/// The index of one table: its materials and the arrangement codes.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The number of stacks.
    pub stacks: u32,
    /// `C(32, stacks)`: the number of sets of occupied squares.
    pub square_sets: u64,
    /// The materials, in the order of their numbers.
    pub materials: Vec<Material>,
    /// For each arrangement code (two bits per occupied square, lowest square first): its
    /// material and its rank among that material's arrangements.
    code_rank: Vec<(u16, u32)>,
    /// For each material, its arrangement codes in rank order.
    codes: Vec<Vec<u32>>,
    /// The number of entries.
    pub entries: u64,
}

impl Layout {
    /// The index of the table of `stacks` stacks (2 to [`MAX_STACKS`]).
    pub fn new(stacks: u32) -> Layout {
        assert!((2..=MAX_STACKS).contains(&stacks), "tables have 2 to {MAX_STACKS} stacks");
        let mut material_of = std::collections::BTreeMap::new();
        let mut materials = Vec::new();
        let mut codes: Vec<Vec<u32>> = Vec::new();
        let mut code_rank = vec![(NONE, 0); 1 << (2 * stacks)];
        for code in 0..1u32 << (2 * stacks) {
            let mut counts = [0u32; 4];
            for i in 0..stacks {
                counts[((code >> (2 * i)) & 3) as usize] += 1;
            }
            if counts[MOVER_SINGLE] + counts[MOVER_DOUBLE] == 0
                || counts[OPPONENT_SINGLE] + counts[OPPONENT_DOUBLE] == 0
            {
                continue;
            }
            let id = *material_of.entry(counts).or_insert_with(|| {
                materials.push(Material { counts, offset: 0, arrangements: 0 });
                codes.push(Vec::new());
                materials.len() - 1
            });
            code_rank[code as usize] = (id as u16, codes[id].len() as u32);
            codes[id].push(code);
        }
        let square_sets = binomial(32, stacks);
        let mut offset = 0;
        for (m, list) in materials.iter_mut().zip(&codes) {
            m.arrangements = list.len() as u64;
            m.offset = offset;
            offset += square_sets * m.arrangements;
        }
        Layout { stacks, square_sets, materials, code_rank, codes, entries: offset }
    }

    /// The number of `pos` (which has [`Layout::stacks`] stacks and a stack of each side).
    #[inline]
    pub fn index(&self, pos: &Canonical) -> u64 {
        let occupied = pos.occupied();
        debug_assert_eq!(occupied.count_ones(), self.stacks);
        let (mut set_rank, mut code) = (0u64, 0u32);
        let mut rest = occupied;
        let mut i = 0;
        while rest != 0 {
            let square = rest.trailing_zeros();
            let bit = 1u32 << square;
            set_rank += binomial_table(square, i + 1);
            let kind = pos.boards.iter().position(|&b| b & bit != 0).unwrap_or(0) as u32;
            code |= kind << (2 * i);
            rest &= rest - 1;
            i += 1;
        }
        let (material, rank) = self.code_rank[code as usize];
        let m = &self.materials[material as usize];
        m.offset + set_rank * m.arrangements + u64::from(rank)
    }

    /// The position with number `set_rank * arrangements + rank` of material `material`.
    pub fn position(&self, material: usize, set_rank: u64, rank: u64) -> Canonical {
        let squares = unrank_set(set_rank, self.stacks);
        let code = self.codes[material][rank as usize];
        let mut boards = [0; 4];
        for (i, &square) in squares.iter().enumerate() {
            boards[((code >> (2 * i)) & 3) as usize] |= 1 << square;
        }
        Canonical { boards }
    }
}

/// `C(n, r)` from a table built once (the index is computed at every probe).
#[inline(always)]
fn binomial_table(n: u32, r: u32) -> u64 {
    static TABLE: std::sync::OnceLock<[[u64; MAX_STACKS as usize + 1]; 33]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [[0; MAX_STACKS as usize + 1]; 33];
        for (n, row) in t.iter_mut().enumerate() {
            for (r, c) in row.iter_mut().enumerate() {
                *c = binomial(n as u32, r as u32);
            }
        }
        t
    });
    table[n as usize][r as usize]
}

/// The `k` squares (ascending) of the set with colex rank `rank`.
pub fn unrank_set(mut rank: u64, k: u32) -> Vec<u32> {
    let mut squares = vec![0; k as usize];
    let mut n = 32;
    for i in (0..k).rev() {
        // The largest square s with C(s, i + 1) <= rank.
        n -= 1;
        while binomial_table(n, i + 1) > rank {
            n -= 1;
        }
        squares[i as usize] = n;
        rank -= binomial_table(n, i + 1);
    }
    squares
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_number_of_a_small_table_is_one_position_and_back() {
        for stacks in 2..=3 {
            let layout = Layout::new(stacks);
            let mut seen = vec![false; layout.entries as usize];
            for (id, m) in layout.materials.iter().enumerate() {
                for set_rank in 0..layout.square_sets {
                    for rank in 0..m.arrangements {
                        let pos = layout.position(id, set_rank, rank);
                        let index = layout.index(&pos);
                        assert_eq!(index, m.offset + set_rank * m.arrangements + rank);
                        assert!(!seen[index as usize]);
                        seen[index as usize] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s), "table {stacks} has holes");
        }
    }

    #[test]
    fn the_sizes_are_those_of_the_combinatorics() {
        // Four kinds on k squares, less the arrangements with one side missing: 4^k - 2 * 2^k.
        for stacks in 2..=6u32 {
            let layout = Layout::new(stacks);
            let arrangements = 4u64.pow(stacks) - 2 * 2u64.pow(stacks);
            assert_eq!(layout.entries, binomial(32, stacks) * arrangements, "table {stacks}");
        }
    }

    #[test]
    fn the_half_turn_maps_a_position_to_its_mirror() {
        let pos = Position::from_fen("8/8/8/8/8/2b5/1W6/8 b").unwrap();
        let canonical = Canonical::of(&pos);
        // Black's single on c3 becomes White's on f6; White's double on b2 Black's on g7.
        assert_eq!(canonical.position().to_fen(), "8/6B1/5w2/8/8/8/8/8 w");
    }
}
