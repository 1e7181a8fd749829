//! Material sets and the solver's tables' layout: which slot holds which position.
//!
//! A table has one slot per choice of cells for each group of identical pieces (a combination
//! number per group, in colex order, multiplied together) and side to move; slots that put two
//! pieces on one cell are unused. A man never stands on his own far edge (the FEN reader
//! rejects it), so men range over 52 cells, kings over 61.

use crate::hexdame_reference::{Cell, Color, Kind, Position, all_cells};
use std::sync::OnceLock;

/// A material set: how many men and kings each side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// White men, White kings, Black men, Black kings (the order of the table's groups).
    pub counts: [u8; 4],
}

impl Material {
    /// The material of a position.
    pub fn of(pos: &Position) -> Material {
        let mut counts = [0u8; 4];
        for piece in pos.board.iter().flatten() {
            counts[group_of(*piece)] += 1;
        }
        Material { counts }
    }

    /// Reads the notation of [`Material::name`], e.g. `KM v K` or `MM v -`.
    pub fn parse(text: &str) -> Material {
        let (white, black) = text.split_once(" v ").unwrap_or_else(|| panic!("material {text:?}"));
        let side = |s: &str| -> [u8; 2] {
            let count = |ch| s.chars().filter(|&c| c == ch).count() as u8;
            assert!(s == "-" || s.chars().all(|c| c == 'K' || c == 'M'), "material {text:?}");
            [count('M'), count('K')]
        };
        let (w, b) = (side(white), side(black));
        Material { counts: [w[0], w[1], b[0], b[1]] }
    }

    /// The material as text, White first: a `K` per king then an `M` per man, `-` for no
    /// pieces, e.g. `KKM v K`.
    pub fn name(self) -> String {
        let side = |men: u8, kings: u8| -> String {
            let s = "K".repeat(kings as usize) + &"M".repeat(men as usize);
            if s.is_empty() { "-".to_string() } else { s }
        };
        let c = self.counts;
        format!("{} v {}", side(c[0], c[1]), side(c[2], c[3]))
    }

    /// Pieces of each side.
    pub fn pieces(self, color: Color) -> u8 {
        match color {
            Color::White => self.counts[0] + self.counts[1],
            Color::Black => self.counts[2] + self.counts[3],
        }
    }

    /// Pieces on the board.
    pub fn total(self) -> u8 {
        self.counts.iter().sum()
    }

    /// Men on the board.
    pub fn men(self) -> u8 {
        self.counts[0] + self.counts[2]
    }

    /// The colour-swapped material (what the board turned round shows).
    pub fn swapped(self) -> Material {
        let c = self.counts;
        Material { counts: [c[2], c[3], c[0], c[1]] }
    }

    /// The tabled one of the material and its colour swap: the larger counts array.
    pub fn canonical(self) -> Material {
        self.max(self.swapped())
    }

    /// The order of solving: fewer pieces first, then fewer men (a promotion keeps the pieces
    /// and removes a man, a capture removes pieces), then the counts for determinism.
    pub fn solve_order(self) -> (u8, u8, [u8; 4]) {
        (self.total(), self.men(), self.counts)
    }

    /// Every other material a game from this one can reach: per side no more men and no more
    /// pieces (men are captured or promoted, kings captured, nothing is ever added).
    pub fn below(self) -> Vec<Material> {
        let c = self.counts;
        let mut out = Vec::new();
        for wm in 0..=c[0] {
            for wk in 0..=c[0] + c[1] - wm {
                for bm in 0..=c[2] {
                    for bk in 0..=c[2] + c[3] - bm {
                        let m = Material { counts: [wm, wk, bm, bk] };
                        if m != self {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| m.solve_order());
        out
    }
}

/// The table group of a piece: 0 White men, 1 White kings, 2 Black men, 3 Black kings.
fn group_of(piece: (Color, Kind)) -> usize {
    match piece {
        (Color::White, Kind::Man) => 0,
        (Color::White, Kind::King) => 1,
        (Color::Black, Kind::Man) => 2,
        (Color::Black, Kind::King) => 3,
    }
}

/// The piece of a table group.
const GROUP_PIECES: [(Color, Kind); 4] = [
    (Color::White, Kind::Man),
    (Color::White, Kind::King),
    (Color::Black, Kind::Man),
    (Color::Black, Kind::King),
];

/// The board's cells and the cells each group may stand on.
struct Geometry {
    /// The 61 cells in the reference's order.
    cells: Vec<Cell>,
    /// Per group, the cells it may stand on (men: not on their own far edge).
    domains: [Vec<u8>; 4],
    /// Per group and cell number, the cell's place in the group's domain (`u8::MAX`: none).
    place: [[u8; 61]; 4],
    /// Binomial coefficients C(n, k) for n <= 61, k <= 8.
    binomial: [[u64; 9]; 62],
    /// Per slot of the reference's 81-slot board, the cell number (`u8::MAX`: not a cell).
    number: [u8; 81],
    /// Per cell number, the number of its mirror image (see [`mirror`]).
    mirrored: [u8; 61],
}

/// The shared geometry, computed once.
fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(|| {
        let cells = all_cells();
        let mut domains: [Vec<u8>; 4] = Default::default();
        let mut place = [[u8::MAX; 61]; 4];
        for (g, &(color, kind)) in GROUP_PIECES.iter().enumerate() {
            for (i, &cell) in cells.iter().enumerate() {
                if kind == Kind::King || !color.is_far_edge(cell) {
                    place[g][i] = domains[g].len() as u8;
                    domains[g].push(i as u8);
                }
            }
        }
        let mut binomial = [[0u64; 9]; 62];
        for n in 0..62 {
            binomial[n][0] = 1;
            for k in 1..9 {
                binomial[n][k] = if n == 0 { 0 } else { binomial[n - 1][k - 1] + binomial[n - 1][k] };
            }
        }
        let mut number = [u8::MAX; 81];
        for (i, &(f, r)) in cells.iter().enumerate() {
            number[((f - 1) * 9 + (r - 1)) as usize] = i as u8;
        }
        let mut mirrored = [0u8; 61];
        for (i, &(f, r)) in cells.iter().enumerate() {
            mirrored[i] = number[((r - 1) * 9 + (f - 1)) as usize];
        }
        Geometry { cells, domains, place, binomial, number, mirrored }
    })
}

/// The slot layout of one material's table.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    /// The material (always canonical).
    pub(super) material: Material,
    /// Slots per group (C(domain, count)).
    radix: [u64; 4],
    /// Slots per side to move.
    per_side: u64,
}

impl Layout {
    pub(super) fn new(material: Material) -> Layout {
        let g = geometry();
        let mut radix = [1u64; 4];
        for (i, r) in radix.iter_mut().enumerate() {
            *r = g.binomial[g.domains[i].len()][material.counts[i] as usize];
        }
        Layout { material, radix, per_side: radix.iter().product() }
    }

    /// Slots in the table, both sides to move.
    pub(super) fn slots(&self) -> u64 {
        2 * self.per_side
    }

    /// The slots of a position and of its mirror image, or `None` when the position's
    /// material is not this one. One pass over the board: this runs for every move the
    /// solver looks at.
    pub(super) fn slots_of(&self, pos: &Position) -> Option<[u64; 2]> {
        let g = geometry();
        // Per orientation and group, the places of the group's pieces in its domain. The
        // board's slots run in cell order, and so do the domains, but the mirror image's
        // places must be sorted.
        let mut places = [[[0u8; 8]; 4]; 2];
        let mut seen = [0usize; 4];
        for (b, piece) in pos.board.iter().enumerate() {
            if let Some(piece) = piece {
                let group = group_of(*piece);
                if seen[group] == usize::from(self.material.counts[group]) {
                    return None;
                }
                let cell = g.number[b] as usize;
                places[0][group][seen[group]] = g.place[group][cell];
                places[1][group][seen[group]] = g.place[group][g.mirrored[cell] as usize];
                seen[group] += 1;
            }
        }
        if (0..4).any(|group| seen[group] != usize::from(self.material.counts[group])) {
            return None;
        }
        let side = u64::from(pos.to_move == Color::Black);
        Some(places.map(|mut orientation| {
            let mut index = 0;
            for (group, places) in orientation.iter_mut().enumerate() {
                let sorted = &mut places[..seen[group]];
                sorted.sort_unstable();
                // Colex rank of the sorted places: the j-th smallest place p adds C(p, j).
                let rank: u64 = sorted.iter().enumerate().map(|(j, &p)| g.binomial[p as usize][j + 1]).sum();
                index = index * self.radix[group] + rank;
            }
            side * self.per_side + index
        }))
    }

    /// The slot that holds the value of a position of this material: the smaller of its own
    /// slot and its mirror image's (see [`mirror`]), so that only one of the two is solved.
    pub(super) fn canonical_index(&self, pos: &Position) -> u64 {
        let [own, mirrored] = self.slots_of(pos).expect("a position of the table's material");
        own.min(mirrored)
    }

    /// The position of a slot, or `None` for an unused slot (two pieces on one cell).
    pub(super) fn position(&self, slot: u64) -> Option<Position> {
        let g = geometry();
        let side = if slot < self.per_side { Color::White } else { Color::Black };
        let mut rest = slot % self.per_side;
        let mut ranks = [0u64; 4];
        for group in (0..4).rev() {
            ranks[group] = rest % self.radix[group];
            rest /= self.radix[group];
        }
        let mut pos = Position::empty(side);
        for (group, &rank) in ranks.iter().enumerate() {
            let mut r = rank;
            let mut place = g.domains[group].len();
            for j in (1..=self.material.counts[group] as usize).rev() {
                // The largest place p with C(p, j) <= r is the j-th smallest place.
                place -= 1;
                while g.binomial[place][j] > r {
                    place -= 1;
                }
                r -= g.binomial[place][j];
                let cell = g.cells[g.domains[group][place] as usize];
                if pos.get(cell).is_some() {
                    return None;
                }
                pos.set(cell, Some(GROUP_PIECES[group]));
            }
        }
        Some(pos)
    }
}

/// The board turned half round with the colours swapped: the same game seen from the other
/// side, so the side to move has the same value (see the module docs).
pub fn flip(pos: &Position) -> Position {
    let mut out = Position::empty(pos.to_move.opponent());
    for cell in all_cells() {
        if let Some((color, kind)) = pos.get(cell) {
            out.set((10 - cell.0, 10 - cell.1), Some((color.opponent(), kind)));
        }
    }
    out
}

/// The board reflected in its central column ((f, r) to (r, f)): White's forward directions
/// and far edge, and Black's, map onto themselves, so the reflected position has the same value.
pub fn mirror(pos: &Position) -> Position {
    let mut out = Position::empty(pos.to_move);
    for cell in all_cells() {
        out.set((cell.1, cell.0), pos.get(cell));
    }
    out
}
