//! The index of the HexDame tables: every position with `k` pieces gets a number below
//! [`Layout::entries`], and back.
//!
//! **Colour symmetry.** Turning the board half round ((f, r) to (10 - f, 10 - r)) and swapping
//! the colours maps White's forward directions and far edge onto Black's, so a position and its
//! [`flip`] have the same value for their side to move. The tables hold only positions with
//! White to move; a position with Black to move is flipped before it is looked up. That halves
//! the tables at the cost of a flip of four bitboards per probe.
//!
//! **Numbering.** Within table `k` a position's number is
//! `offset(material) + ((r0 * C1 + r1) * C2 + r2) * C3 + r3`, where the material is the count of
//! White men, White kings, Black men and Black kings (each side at least one piece), `r_g` is the
//! colex rank (`sum C(p_j, j + 1)`, the combinatorial number system) of group `g`'s cells among
//! the cells that group may stand on, and `C_g` the number of such sets. Men cannot stand on
//! their own far edge (they would have been crowned), so men range over 52 cells and kings over
//! 61. Two groups may claim the same cell: such numbers are no position and stay 0 in the file
//! (a few per cent of the table for four pieces), which keeps the index a formula.

use crate::hexdame::board::{ALL, BLACK_FAR_EDGE, CELLS, Cell, Cells, WHITE_FAR_EDGE, cell, coordinates};
use crate::hexdame::{Color, Kind, Position};
use std::sync::OnceLock;

/// The most pieces a table may have (the binomial table's width; 5 is already gigabytes).
pub const MAX_PIECES: u32 = 6;

/// The four groups of pieces, in the order of the index: White men, White kings, Black men,
/// Black kings.
pub const GROUPS: [(Color, Kind); 4] = [
    (Color::White, Kind::Man),
    (Color::White, Kind::King),
    (Color::Black, Kind::Man),
    (Color::Black, Kind::King),
];

/// Cell tables shared by every layout, computed once.
struct Geometry {
    /// Per group, the cell's place among the cells the group may stand on (`u8::MAX`: none).
    place: [[u8; CELLS]; 4],
    /// Per group, the cells it may stand on, ascending.
    domain: [Vec<Cell>; 4],
    /// `C(n, r)` for n <= 61 and r <= MAX_PIECES.
    binomial: [[u64; MAX_PIECES as usize + 1]; CELLS + 1],
    /// The half turn of every cell.
    half_turn: [Cell; CELLS],
}

fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(|| {
        let allowed = [ALL & !WHITE_FAR_EDGE, ALL, ALL & !BLACK_FAR_EDGE, ALL];
        let mut place = [[u8::MAX; CELLS]; 4];
        let mut domain: [Vec<Cell>; 4] = Default::default();
        for g in 0..4 {
            for c in Cells(allowed[g]) {
                place[g][c as usize] = domain[g].len() as u8;
                domain[g].push(c);
            }
        }
        let mut binomial = [[0u64; MAX_PIECES as usize + 1]; CELLS + 1];
        for n in 0..=CELLS {
            binomial[n][0] = 1;
            for r in 1..=MAX_PIECES as usize {
                binomial[n][r] = if n == 0 { 0 } else { binomial[n - 1][r - 1] + binomial[n - 1][r] };
            }
        }
        let mut half_turn = [0; CELLS];
        for (c, turned) in half_turn.iter_mut().enumerate() {
            let (f, r) = coordinates(c as Cell);
            *turned = cell(10 - f, 10 - r).expect("the half turn keeps the board");
        }
        Geometry { place, domain, binomial, half_turn }
    })
}

/// `C(n, r)`.
pub fn binomial(n: usize, r: usize) -> u64 {
    geometry().binomial[n][r]
}

/// The board turned half round with the colours swapped and the other side to move: the same
/// game seen from the other side, with the same value for its side to move.
pub fn flip(pos: &Position) -> Position {
    let g = geometry();
    let mut out = Position::empty(pos.side_to_move().opponent());
    for (color, kind) in GROUPS {
        for c in Cells(pos.pieces(color, kind)) {
            out.put(color.opponent(), kind, g.half_turn[c as usize]);
        }
    }
    out
}

/// The position as the tables hold it: itself with White to move, its [`flip`] otherwise.
#[inline]
pub fn canonical(pos: &Position) -> Position {
    if pos.side_to_move() == Color::White { *pos } else { flip(pos) }
}

/// A material: the number of White men, White kings, Black men and Black kings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Material(pub [u8; 4]);

impl Material {
    /// The material of a position.
    pub fn of(pos: &Position) -> Material {
        Material(GROUPS.map(|(color, kind)| pos.pieces(color, kind).count_ones() as u8))
    }

    /// Every piece on the board.
    pub fn pieces(self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    /// Every man on the board.
    pub fn men(self) -> u32 {
        u32::from(self.0[0] + self.0[2])
    }

    /// The material with the colours swapped (what a [`flip`] shows).
    pub fn swapped(self) -> Material {
        let [wm, wk, bm, bk] = self.0;
        Material([bm, bk, wm, wk])
    }

    /// `3w2k-1k`-style name: White's men and kings, then Black's.
    pub fn name(self) -> String {
        let side = |men: u8, kings: u8| format!("{men}m{kings}k");
        format!("{}-{}", side(self.0[0], self.0[1]), side(self.0[2], self.0[3]))
    }
}

/// One material's place in its table.
#[derive(Clone, Debug)]
pub struct MaterialLayout {
    /// The counts.
    pub material: Material,
    /// The number of the material's first entry in the table.
    pub offset: u64,
    /// Per group, the number of its sets of cells.
    pub radix: [u64; 4],
    /// The material's entries (the product of the radices).
    pub entries: u64,
}

/// The numbering of table `k` (every position with `k` pieces, White to move).
#[derive(Clone, Debug)]
pub struct Layout {
    /// The number of pieces.
    pub pieces: u32,
    /// Every material of `k` pieces with each side at least one, in a fixed order.
    pub materials: Vec<MaterialLayout>,
    /// The table's entries.
    pub entries: u64,
    /// The id of a material in [`Layout::materials`], by its counts (`u16::MAX`: none).
    ids: Vec<u16>,
}

/// The place of counts `[a, b, c, d]` (each at most `MAX_PIECES`) in [`Layout::ids`].
#[inline(always)]
fn id_slot(counts: [u8; 4]) -> usize {
    let m = MAX_PIECES as usize + 1;
    ((usize::from(counts[0]) * m + usize::from(counts[1])) * m + usize::from(counts[2])) * m
        + usize::from(counts[3])
}

impl Layout {
    /// The layout of table `pieces` (2 to [`MAX_PIECES`]).
    pub fn new(pieces: u32) -> Layout {
        assert!((2..=MAX_PIECES).contains(&pieces), "tables have 2 to {MAX_PIECES} pieces");
        let g = geometry();
        let k = pieces as u8;
        let mut materials = Vec::new();
        let mut ids = vec![u16::MAX; (MAX_PIECES as usize + 1).pow(4)];
        let mut offset = 0;
        for white in 1..k {
            for wm in 0..=white {
                for bm in 0..=k - white {
                    let material = Material([wm, white - wm, bm, k - white - bm]);
                    let radix: [u64; 4] =
                        std::array::from_fn(|i| g.binomial[g.domain[i].len()][usize::from(material.0[i])]);
                    let entries = radix.iter().product();
                    ids[id_slot(material.0)] = materials.len() as u16;
                    materials.push(MaterialLayout { material, offset, radix, entries });
                    offset += entries;
                }
            }
        }
        Layout { pieces, materials, entries: offset, ids }
    }

    /// The id of `material` in [`Layout::materials`], if it is one of this table's.
    pub fn material_id(&self, material: Material) -> Option<usize> {
        if material.0.iter().any(|&n| u32::from(n) > MAX_PIECES) {
            return None;
        }
        let id = self.ids[id_slot(material.0)];
        (id != u16::MAX).then_some(usize::from(id))
    }

    /// The number of a position with White to move and this table's number of pieces (each
    /// side at least one).
    #[inline]
    pub fn index(&self, pos: &Position) -> u64 {
        debug_assert_eq!(pos.side_to_move(), Color::White);
        let g = geometry();
        let id = self.material_id(Material::of(pos)).expect("a position of the table's material");
        let layout = &self.materials[id];
        let mut index = 0;
        for (group, &(color, kind)) in GROUPS.iter().enumerate() {
            // Ascending cells give ascending places: the colex rank of the sorted places.
            let mut rank = 0;
            for (j, c) in Cells(pos.pieces(color, kind)).enumerate() {
                rank += g.binomial[usize::from(g.place[group][c as usize])][j + 1];
            }
            index = index * layout.radix[group] + rank;
        }
        layout.offset + index
    }

    /// The position of entry `local` of material `id` (White to move), or `None` when two of
    /// its groups claim the same cell.
    pub fn position(&self, id: usize, local: u64) -> Option<Position> {
        let g = geometry();
        let layout = &self.materials[id];
        let mut ranks = [0u64; 4];
        let mut rest = local;
        for group in (0..4).rev() {
            ranks[group] = rest % layout.radix[group];
            rest /= layout.radix[group];
        }
        let mut pos = Position::empty(Color::White);
        let mut occupied = 0u64;
        for (group, &(color, kind)) in GROUPS.iter().enumerate() {
            let mut r = ranks[group];
            let mut place = g.domain[group].len();
            for j in (1..=usize::from(layout.material.0[group])).rev() {
                // The j-th smallest place is the largest p with C(p, j) <= r.
                place -= 1;
                while g.binomial[place][j] > r {
                    place -= 1;
                }
                r -= g.binomial[place][j];
                let c = g.domain[group][place];
                if occupied & (1 << c) != 0 {
                    return None;
                }
                occupied |= 1 << c;
                pos.put(color, kind, c);
            }
        }
        Some(pos)
    }

    /// The material id and local number of table entry `index`.
    pub fn locate(&self, index: u64) -> (usize, u64) {
        let id = self.materials.partition_point(|m| m.offset + m.entries <= index);
        (id, index - self.materials[id].offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_number_of_the_small_tables_is_one_position_and_back() {
        for pieces in 2..=3 {
            let layout = Layout::new(pieces);
            let mut holes = 0;
            for index in 0..layout.entries {
                let (id, local) = layout.locate(index);
                match layout.position(id, local) {
                    Some(pos) => {
                        assert_eq!(layout.index(&pos), index, "{}", pos.to_fen());
                        assert_eq!(Material::of(&pos), layout.materials[id].material);
                        assert_eq!(Position::from_fen(&pos.to_fen()).unwrap(), pos);
                    }
                    None => holes += 1,
                }
            }
            // Only the numbers with two pieces on one cell are holes: a few per cent.
            assert!(holes * 10 < layout.entries, "table {pieces}: {holes} holes");
        }
    }

    #[test]
    fn the_sizes_are_those_of_the_combinatorics() {
        // A side of w pieces is a set of men on 52 cells and of kings on 61: C(113, w) ways
        // (Vandermonde), and the sides split k pieces in every way with both non-empty.
        let c = |n: u64, r: u64| (0..r).fold(1u64, |acc, i| acc * (n - i) / (i + 1));
        for pieces in 2..=5u64 {
            let expected: u64 = (1..pieces).map(|w| c(113, w) * c(113, pieces - w)).sum();
            assert_eq!(Layout::new(pieces as u32).entries, expected, "table {pieces}");
        }
    }

    #[test]
    fn the_flip_turns_the_board_and_swaps_the_colours() {
        let pos = Position::from_fen("B:Wa1,Kc3:Be5").unwrap();
        let flipped = flip(&pos);
        assert_eq!(flipped.to_fen(), "W:We5:BKg7,i9");
        assert_eq!(flip(&flipped), pos);
        assert_eq!(canonical(&pos), flipped);
    }
}
