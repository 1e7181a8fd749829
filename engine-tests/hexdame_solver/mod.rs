//! The independent HexDame endgame solver: exact game values of every position of small
//! material sets, computed by retrograde analysis from the rules alone.
//!
//! The solver sees the game only through the independent reference generator of
//! engine-tests/hexdame_reference (`generate`: every legal move with the position after it), so
//! it shares nothing with the engine's HexDame code or its search. It is the source of
//! `positions/endgames-hexdame.epd` (see `generate.rs`) and the yardstick its tests use.
//!
//! **Values.** docs/rules/hexdame.md: a side without a legal move loses; a position that occurs
//! for the third time draws; there is no other draw rule. A value is `Some(Exact)` for a
//! decided position, the distance in plies with best play (the winner hurrying, the loser
//! resisting), or `None` for a draw:
//! - a position without a legal move is `Loss(0)`;
//! - a position is `Win(p + 1)` when some move leads to `Loss(p)`, with the smallest such p;
//! - a position is `Loss(p + 1)` when every move leads to a win for the opponent, with the
//!   largest such p;
//! - every other position is a **draw**: none of its moves leads to a loss for the opponent, and
//!   at least one leads to a position that is not a win for him, so both sides can keep the
//!   game on undecided positions for ever. There are finitely many positions, so such a game
//!   repeats one, and threefold repetition ends it as a draw.
//!
//! The decided values are not changed by the repetition rule: when the winner plays a move of
//! the shortest win, whatever the loser answers, the distance drops by one every ply, so no
//! position can occur twice before the loser is left without a move; and repetition can
//! never win a game, only draw it.
//!
//! **Why retrograde.** Once kings exist the game graph has cycles, so a memoised depth-first
//! search cannot settle values (a cycle is neither won nor lost until proven). Instead, for one
//! material set (white men, white kings, black men, black kings) the solver enumerates every
//! legal placement of those pieces with either side to move, asks the reference for each
//! position's moves, and settles values in order of distance: first the positions without a
//! move, then everything one ply from them, and so on (a bucket queue with, for each position,
//! the number of its moves not yet known to lose). What is never settled is a draw.
//!
//! **Other material sets.** A capture removes pieces and a promotion turns a man into a king,
//! so such moves lead into other material sets, with fewer pieces, or as many with fewer men.
//! [`Solver::ensure`] solves those first, in that order, and looks their values up. A side with
//! no pieces has lost when it is to move (`Loss(0)`); no table is kept for it.
//!
//! **Symmetries.** Reflecting the board in its central column ((f, r) to (r, f)) swaps the
//! directions (+1, 0) and (0, +1) and leaves (+1, +1) alone, so each side's forward directions
//! and far edge map onto themselves: a position and its [`mirror`] image have the same value,
//! and only the one with the smaller slot is solved (its moves are asked of the reference;
//! moves to the other image count as moves to the solved one). Turning the board half round
//! ((f, r) to (10 - f, 10 - r)) and swapping the colours ([`flip`]) maps White's forward
//! directions and far edge onto Black's, so a material set and its colour swap have the same
//! values; only one of the two is tabled (see [`Material::canonical`]) and positions of the
//! other are turned round before the look-up. (The tests check both symmetries on the tables.)
//!
//! The tables' layout is in `material.rs`.
#![allow(dead_code)]

mod material;

pub use material::{Material, flip, mirror};

use crate::hexdame_reference::{Color, Position, generate};
use material::Layout;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::time::Instant;

pub use crate::common::exact::Exact;

/// A position's value for the side to move: `Some` decided, `None` drawn.
pub type Value = Option<Exact>;

/// The value, for the player who moved, of a position before a move that led to `value`.
pub fn parent(value: Value) -> Value {
    value.map(Exact::parent)
}

/// Value codes in a table: 0 draw, [`UNUSED`] for a slot that holds no position of its own,
/// otherwise 1 + [`Exact::pack`].
fn encode(value: Value) -> u16 {
    value.map_or(0, |v| u16::try_from(v.pack() + 1).expect("distances fit in 15 bits"))
}

/// The code of an unused slot (two pieces on a cell) or of a mirror image of a smaller slot.
const UNUSED: u16 = u16::MAX;

fn decode(code: u16) -> Value {
    (code != 0).then(|| Exact::unpack(u32::from(code) - 1))
}

/// What the solver did for one material.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Legal positions (both sides to move, mirror images counted).
    pub positions: u64,
    /// Of which won for the side to move.
    pub wins: u64,
    /// Of which lost for the side to move.
    pub losses: u64,
    /// Of which drawn.
    pub draws: u64,
    /// Moves that stay within the material, between solved positions (one of each mirror
    /// pair): the edges of the retrograde graph.
    pub edges: u64,
    /// The longest distance in plies.
    pub longest: u32,
    /// Seconds taken.
    pub seconds: f64,
}

/// A solved table.
struct Table {
    layout: Layout,
    values: Vec<u16>,
    stats: Stats,
}

/// A position's value with every legal move and the value it gives the side to move.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The position's value.
    pub value: Value,
    /// Every legal move (canonical text, sorted) with its value for the side to move.
    pub moves: Vec<(String, Value)>,
}

impl Analysis {
    /// Moves whose value satisfies `keep`, in text order.
    fn filtered(&self, keep: impl Fn(Value) -> bool) -> Vec<String> {
        self.moves.iter().filter(|(_, v)| keep(*v)).map(|(m, _)| m.clone()).collect()
    }

    /// Every winning move, at any distance.
    pub fn winning(&self) -> Vec<String> {
        self.filtered(|v| matches!(v, Some(Exact::Win(_))))
    }

    /// Every move that keeps a draw.
    pub fn drawing(&self) -> Vec<String> {
        self.filtered(|v| v.is_none())
    }

    /// Every losing move.
    pub fn losing(&self) -> Vec<String> {
        self.filtered(|v| matches!(v, Some(Exact::Loss(_))))
    }

    /// The best moves: the fastest wins, the longest losses or the drawing moves (those whose
    /// value is the position's).
    pub fn best(&self) -> Vec<String> {
        self.filtered(|v| v == self.value)
    }
}

/// The retrograde solver: one table per canonical material, solved on demand.
#[derive(Default)]
pub struct Solver {
    tables: BTreeMap<Material, Table>,
    /// Print a line per solved material (for the generator).
    pub verbose: bool,
}

impl Solver {
    /// A solver with no table yet.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// The solved materials (canonical) with their statistics, in solving order.
    pub fn stats(&self) -> Vec<(Material, Stats)> {
        let mut out: Vec<(Material, Stats)> =
            self.tables.iter().map(|(m, t)| (*m, t.stats.clone())).collect();
        out.sort_by_key(|(m, _)| m.solve_order());
        out
    }

    /// Solves `material` and everything it can reach, smallest first.
    pub fn ensure(&mut self, material: Material) {
        for m in material.below().into_iter().chain([material]) {
            let m = m.canonical();
            if m.pieces(Color::White) > 0 && m.pieces(Color::Black) > 0 && !self.tables.contains_key(&m) {
                self.solve(m);
            }
        }
    }

    /// The value of a position whose material is solved; panics otherwise.
    pub fn known(&self, pos: &Position) -> Value {
        if pos.count(pos.to_move) == 0 {
            return Some(Exact::Loss(0));
        }
        let material = Material::of(pos);
        let canonical = material.canonical();
        let table = self
            .tables
            .get(&canonical)
            .unwrap_or_else(|| panic!("material {} is not solved (for {})", material.name(), pos.to_fen()));
        let slot = if canonical == material {
            table.layout.canonical_index(pos)
        } else {
            table.layout.canonical_index(&flip(pos))
        };
        decode(table.values[slot as usize])
    }

    /// Every solved slot of a solved canonical material with its value, in slot order (one
    /// position of each mirror pair); see [`Solver::slot_position`].
    pub fn slots(&self, material: Material) -> impl Iterator<Item = (u64, Value)> + '_ {
        let table = &self.tables[&material];
        table.values.iter().enumerate().filter(|(_, c)| **c != UNUSED).map(|(i, c)| (i as u64, decode(*c)))
    }

    /// The position of a solved slot of [`Solver::slots`].
    pub fn slot_position(&self, material: Material, slot: u64) -> Position {
        self.tables[&material].layout.position(slot).expect("a solved slot holds a position")
    }

    /// The value of a position, solving its material first if needed.
    pub fn value(&mut self, pos: &Position) -> Value {
        self.ensure(Material::of(pos));
        self.known(pos)
    }

    /// The value of a position and of each of its moves; its material (and so everything its
    /// moves reach) must be solved.
    pub fn analyse(&self, pos: &Position) -> Analysis {
        let value = self.known(pos);
        let moves = generate(pos).iter().map(|(mv, after)| (mv.text(), parent(self.known(after)))).collect();
        Analysis { value, moves }
    }

    /// A line of best play from a decided position to its end: at every ply the first (in
    /// text order) of the fastest wins or longest losses, with the position it is played in.
    /// Empty for a draw, whose best play never ends.
    /// The material must be solved.
    pub fn principal_variation(&self, pos: &Position) -> Vec<(Position, String)> {
        let mut line = Vec::new();
        let mut current = pos.clone();
        if self.known(pos).is_none() {
            return line;
        }
        loop {
            let analysis = self.analyse(&current);
            let Some(best) = analysis.best().into_iter().next() else { break };
            let after = generate(&current)
                .into_iter()
                .find(|(mv, _)| mv.text() == best)
                .map(|(_, after)| after)
                .expect("the best move is legal");
            line.push((current, best));
            current = after;
        }
        line
    }

    /// Solves one canonical material whose lower materials are all solved.
    fn solve(&mut self, material: Material) {
        let started = Instant::now();
        let layout = Layout::new(material);
        let slots = layout.slots();
        assert!(slots < u64::from(u32::MAX), "{}: too many slots for 32-bit indices", material.name());
        // 1. Every position's moves, in parallel: the moves into other materials are valued
        //    at once from their tables; those within this material become edges.
        const CHUNK: u64 = 4096;
        let chunks: Vec<Chunk> = (0..slots.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let mut chunk = Chunk::default();
                for slot in c * CHUNK..((c + 1) * CHUNK).min(slots) {
                    self.expand(&layout, slot, &mut chunk);
                }
                chunk
            })
            .collect();
        // 2. Reverse the edges: each position's predecessors within the material.
        let n = slots as usize;
        let mut start = vec![0u32; n + 1];
        for chunk in &chunks {
            for &to in &chunk.edges {
                start[to as usize + 1] += 1;
            }
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut preds = vec![0u32; start[n] as usize];
        let mut remaining = Vec::with_capacity(n);
        let mut longest_loss = Vec::with_capacity(n);
        let mut buckets: Vec<Vec<(u32, bool)>> = Vec::new();
        let push = |buckets: &mut Vec<Vec<(u32, bool)>>, plies: u32, slot: u32, win: bool| {
            if buckets.len() <= plies as usize {
                buckets.resize(plies as usize + 1, Vec::new());
            }
            buckets[plies as usize].push((slot, win));
        };
        let mut weight = vec![0u8; n];
        let mut slot = 0u32;
        for chunk in &chunks {
            let mut edges = chunk.edges.iter();
            for info in &chunk.infos {
                for &to in edges.by_ref().take(info.edges as usize) {
                    preds[fill[to as usize] as usize] = slot;
                    fill[to as usize] += 1;
                }
                weight[slot as usize] = info.weight;
                remaining.push(info.remaining);
                longest_loss.push(info.longest_loss);
                // The first events: wins through a move into another material, and losses of
                // positions all of whose moves lead out of it to wins (or that have no move).
                if let Some(win) = info.fastest_win {
                    push(&mut buckets, win, slot, true);
                } else if info.weight > 0 && info.remaining == 0 {
                    push(&mut buckets, info.longest_loss, slot, false);
                }
                slot += 1;
            }
        }
        let edges = u64::from(start[n]);
        drop(chunks);
        // 3. Settle values in order of distance.
        let mut values = vec![0u16; n];
        let mut plies = 0;
        while plies < buckets.len() {
            let events = std::mem::take(&mut buckets[plies]);
            for (slot, win) in events {
                if values[slot as usize] != 0 {
                    continue; // settled earlier, at a smaller distance for a win
                }
                let p = plies as u32;
                values[slot as usize] = encode(Some(if win { Exact::Win(p) } else { Exact::Loss(p) }));
                for &pred in &preds[start[slot as usize] as usize..start[slot as usize + 1] as usize] {
                    let i = pred as usize;
                    if values[i] != 0 {
                        continue;
                    }
                    if !win {
                        push(&mut buckets, p + 1, pred, true);
                    } else {
                        remaining[i] -= 1;
                        longest_loss[i] = longest_loss[i].max(p + 1);
                        if remaining[i] == 0 {
                            push(&mut buckets, longest_loss[i], pred, false);
                        }
                    }
                }
            }
            plies += 1;
        }
        let mut stats = Stats { edges, ..Stats::default() };
        for (code, &w) in values.iter_mut().zip(&weight) {
            if w == 0 {
                *code = UNUSED;
                continue;
            }
            let w = u64::from(w);
            stats.positions += w;
            match decode(*code) {
                Some(Exact::Win(p)) => (stats.wins += w, stats.longest = stats.longest.max(p)).0,
                Some(Exact::Loss(p)) => (stats.losses += w, stats.longest = stats.longest.max(p)).0,
                None => stats.draws += w,
            }
        }
        stats.seconds = started.elapsed().as_secs_f64();
        if self.verbose {
            eprintln!(
                "{}: {} positions ({} wins, {} losses, {} draws), {} edges, longest {} plies, {:.1} s",
                material.name(),
                stats.positions,
                stats.wins,
                stats.losses,
                stats.draws,
                stats.edges,
                stats.longest,
                stats.seconds
            );
        }
        self.tables.insert(material, Table { layout, values, stats });
    }

    /// Expands one slot: its moves into other materials are valued from their tables, those
    /// within the material are recorded as edges (each once).
    fn expand(&self, layout: &Layout, slot: u64, chunk: &mut Chunk) {
        let mut info = SlotInfo::default();
        // An unused slot, or the mirror image of a smaller slot, is never an edge's target and
        // never settled. (A side not to move without pieces cannot occur: the material gives
        // both sides pieces.)
        if let Some(pos) = layout.position(slot)
            && let Some([own, mirrored]) = layout.slots_of(&pos)
            && own.min(mirrored) == slot
        {
            info.weight = if mirrored == slot { 1 } else { 2 };
            let mut inside = Vec::new();
            for (_, after) in generate(&pos) {
                if let Some([own, mirrored]) = layout.slots_of(&after) {
                    inside.push(own.min(mirrored) as u32);
                    continue;
                }
                match self.known(&after) {
                    Some(Exact::Win(p)) => info.longest_loss = info.longest_loss.max(p + 1),
                    // A winning move and a drawing move are never known to lose: each keeps the
                    // position from ever being settled as a loss.
                    Some(Exact::Loss(p)) => {
                        info.fastest_win = Some(info.fastest_win.map_or(p + 1, |w| w.min(p + 1)));
                        info.remaining += 1;
                    }
                    None => info.remaining += 1,
                }
            }
            inside.sort_unstable();
            inside.dedup();
            info.remaining += inside.len() as u32;
            info.edges = inside.len() as u32;
            chunk.edges.extend(inside);
        }
        chunk.infos.push(info);
    }
}

/// What the first pass learnt about one slot.
#[derive(Clone, Copy, Default)]
struct SlotInfo {
    /// The legal positions the slot stands for: 0 for an unused slot or a mirror image, 1
    /// for a position that is its own mirror image, 2 for a position and its image.
    weight: u8,
    /// Its moves within the material (the edges recorded for it).
    edges: u32,
    /// Moves not yet known to lose: the edges plus the winning and drawn moves into other
    /// materials (those are never known to lose).
    remaining: u32,
    /// The shortest win through a move into another material.
    fastest_win: Option<u32>,
    /// The longest loss through the moves known to lose so far.
    longest_loss: u32,
}

/// The first pass's output for a run of slots.
#[derive(Default)]
struct Chunk {
    infos: Vec<SlotInfo>,
    edges: Vec<u32>,
}
