//! Building the HexDame tables by retrograde analysis: the exact value of every position with
//! `k` pieces, from the tables with fewer pieces.
//!
//! **Why retrograde.** Kings move back and forth, so the game graph has cycles and a memoised
//! depth-first search cannot settle values. Instead values are settled in order of distance:
//! first the positions without a move (lost), then everything one ply from a settled value, and
//! so on; what is never settled is a draw (both sides can keep the game on undecided positions
//! until a threefold repetition ends it).
//!
//! **Order.** A capture removes pieces (a smaller table, already built); a promotion turns a man
//! into a king (the same table, another material with one man fewer). Every other move keeps
//! the material. So the materials of table `k` are built in order of their number of men, each
//! with its colour swap (a flip maps a position of one onto a position of the other with the
//! other side to move: together they are closed under material-keeping moves). Within such a
//! *group*, every move that leaves it is valued at once from what is built (an *exit*); the
//! moves within it are the retrograde graph.
//!
//! **Retrograde moves.** The predecessors of a position within its group are found by unmaking
//! the last move of the side not to move: a man one step back, a king slid back along any line
//! of empty cells. Such a non-capture was legal exactly when its mover had no capture, which is
//! checked with the engine's own [`movegen::must_capture`]. So no list of edges is stored: each
//! position keeps only the count of its moves not yet known to lose (`remaining`) and the
//! longest loss among its exits.
//!
//! **Threads.** Each ply's newly settled positions are shared out among the threads; a value
//! is stored with a compare-and-swap from "unknown", so a position reached twice in one ply is
//! settled once. The set of positions settled at each ply does not depend on the order within
//! the ply, so the table is the same byte for byte whatever the number of threads.

use super::index::{Layout, canonical};
use super::{Tables, decode, encode};
use crate::game::{Outcome, TableValue};
use crate::hexdame::board::{Cells, bit, neighbour, opposite};
use crate::hexdame::{Color, Kind, Position, movegen};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};

/// Positions per parallel task in the first pass.
const CHUNK: u64 = 1 << 12;

/// One group being built: a material and its colour swap (the same when symmetric).
struct Group<'a> {
    layout: &'a Layout,
    /// The material ids of the group (one or two).
    ids: Vec<usize>,
    /// The whole table's entries, shared by every group (settled groups are read by exits).
    values: &'a [AtomicU8],
    /// Per local position: the moves not yet known to lose for the side to move (an exit to
    /// a draw or a win counts for ever).
    remaining: Vec<AtomicU8>,
    /// Per local position: the longest loss, in plies, through an exit (0 if none).
    exit_loss: Vec<AtomicU8>,
}

impl Group<'_> {
    /// The number of local positions.
    fn len(&self) -> u64 {
        self.ids.iter().map(|&id| self.layout.materials[id].entries).sum()
    }

    /// The table number of local position `local`.
    fn global(&self, local: u64) -> u64 {
        let first = &self.layout.materials[self.ids[0]];
        if local < first.entries {
            first.offset + local
        } else {
            self.layout.materials[self.ids[1]].offset + local - first.entries
        }
    }

    /// The local number of table entry `global` (which is in the group).
    fn local(&self, global: u64) -> u64 {
        let first = &self.layout.materials[self.ids[0]];
        if (first.offset..first.offset + first.entries).contains(&global) {
            global - first.offset
        } else {
            first.entries + global - self.layout.materials[self.ids[1]].offset
        }
    }

    /// The position of local number `local`, if it is one.
    fn position(&self, local: u64) -> Option<Position> {
        let first = self.layout.materials[self.ids[0]].entries;
        if local < first {
            self.layout.position(self.ids[0], local)
        } else {
            self.layout.position(self.ids[1], local - first)
        }
    }
}

/// Whether `mv` keeps the material (neither a capture nor a promotion): the only moves within
/// a group.
fn keeps_material(pos: &Position, mv: crate::hexdame::Move) -> bool {
    let us = pos.side_to_move();
    let promotes = pos.pieces(us, Kind::Man) & bit(mv.from()) != 0 && us.far_edge() & bit(mv.to()) != 0;
    !mv.is_capture() && !promotes
}

/// The positions (Black to move) from which Black's last non-capture move, keeping the
/// material, led to `pos` (White to move), each given to `visit`.
fn predecessors(pos: &Position, mut visit: impl FnMut(&Position)) {
    let empty = !pos.occupied() & crate::hexdame::board::ALL;
    let mut unmake = |kind: Kind, from: u8, to: u8| {
        let mut before = *pos;
        before.take(Color::Black, kind, to);
        before.put(Color::Black, kind, from);
        before.set_side(Color::Black);
        // A non-capture is legal only when no capture is.
        if !movegen::must_capture(&before) {
            visit(&before);
        }
    };
    for to in Cells(pos.pieces(Color::Black, Kind::Man)) {
        for dir in Color::Black.forward() {
            let from = neighbour(to, opposite(dir));
            if bit(from) & empty != 0 {
                unmake(Kind::Man, from, to);
            }
        }
    }
    for to in Cells(pos.pieces(Color::Black, Kind::King)) {
        for dir in 0..6 {
            let mut from = neighbour(to, dir);
            while bit(from) & empty != 0 {
                unmake(Kind::King, from, to);
                from = neighbour(from, dir);
            }
        }
    }
}

/// What the first pass learns of one position.
struct Seed {
    local: u32,
    plies: u32,
    win: bool,
}

/// Computes table `pieces` from `lower` (which holds every table below it) on `threads`
/// threads, calling `progress(done, total)` after each group. Returns its entries.
pub fn build_table(
    pieces: u32,
    lower: &Tables,
    threads: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Vec<u8>, String> {
    let layout = Layout::new(pieces);
    let values: Vec<AtomicU8> = (0..layout.entries).map(|_| AtomicU8::new(0)).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    // The groups, fewest men first: a promotion leads from a group into one with a man fewer.
    let mut order: Vec<usize> = (0..layout.materials.len()).collect();
    order.sort_by_key(|&id| (layout.materials[id].material.men(), id));
    let overflow = AtomicBool::new(false);
    let mut done = 0;
    for id in order {
        let material = layout.materials[id].material;
        let swap = layout.material_id(material.swapped()).expect("the swap has as many pieces");
        if swap < id {
            continue; // built with its swap
        }
        let ids = if swap == id { vec![id] } else { vec![id, swap] };
        let mut group =
            Group { layout: &layout, ids, values: &values, remaining: Vec::new(), exit_loss: Vec::new() };
        pool.install(|| build_group(&mut group, lower, &overflow));
        done += group.len();
        progress(done, layout.entries);
    }
    if overflow.load(Relaxed) {
        return Err(format!(
            "table {pieces}: a distance exceeds {} plies (the format's limit)",
            super::MAX_PLIES
        ));
    }
    Ok(values.into_iter().map(AtomicU8::into_inner).collect())
}

/// The value of a child position reached by a move that leaves the group: from a smaller table,
/// or from a group of this table already built.
fn exit_value(group: &Group<'_>, lower: &Tables, child: &Position) -> TableValue {
    let mover = child.side_to_move();
    if child.all(mover) == 0 {
        return TableValue { outcome: Outcome::Loss, plies: 0 };
    }
    let pieces = child.occupied().count_ones();
    let code = if pieces < group.layout.pieces {
        lower.probe_code(child).expect("the smaller tables are complete")
    } else {
        group.values[group.layout.index(&canonical(child)) as usize].load(Relaxed)
    };
    decode(code).expect("an exit leads to a settled position")
}

/// Settles every position of one group.
fn build_group(group: &mut Group<'_>, lower: &Tables, overflow: &AtomicBool) {
    let n = group.len();
    group.remaining = (0..n).map(|_| AtomicU8::new(0)).collect();
    group.exit_loss = (0..n).map(|_| AtomicU8::new(0)).collect();
    // 1. Every position's moves: exits valued at once, moves within the group counted.
    let first: Vec<Vec<Seed>> = {
        let group = &*group;
        (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|chunk| {
                let mut seeds = Vec::new();
                for local in chunk * CHUNK..((chunk + 1) * CHUNK).min(n) {
                    let Some(pos) = group.position(local) else { continue };
                    let (mut fastest_win, mut longest_loss, mut remaining) = (u32::MAX, 0u32, 0u32);
                    for &mv in pos.legal_moves().as_ref() {
                        if keeps_material(&pos, mv) {
                            remaining += 1;
                            continue;
                        }
                        let value = exit_value(group, lower, &pos.make_move(mv));
                        match value.outcome {
                            Outcome::Loss => fastest_win = fastest_win.min(value.plies + 1),
                            Outcome::Win => longest_loss = longest_loss.max(value.plies + 1),
                            Outcome::Draw => remaining += 1,
                        }
                    }
                    let local = local as u32;
                    if fastest_win != u32::MAX {
                        seeds.push(Seed { local, plies: fastest_win, win: true });
                        // A position with a winning exit never loses: that move never counts
                        // down, so that its other moves, refuted one by one before the win's
                        // ply, cannot make it a loss.
                        remaining += 1;
                    } else if remaining == 0 {
                        seeds.push(Seed { local, plies: longest_loss, win: false });
                    }
                    let remaining = u8::try_from(remaining).expect("fewer than 256 moves");
                    group.remaining[local as usize].store(remaining, Relaxed);
                    // Above the format's limit anyway: the overflow check reports it.
                    group.exit_loss[local as usize].store(longest_loss.min(255) as u8, Relaxed);
                }
                seeds
            })
            .collect()
    };
    let mut buckets: Vec<Vec<Seed>> = Vec::new();
    let push = |buckets: &mut Vec<Vec<Seed>>, seed: Seed| {
        let at = seed.plies as usize;
        if buckets.len() <= at {
            buckets.resize_with(at + 1, Vec::new);
        }
        buckets[at].push(seed);
    };
    for seeds in first {
        for seed in seeds {
            push(&mut buckets, seed);
        }
    }
    // 2. Settle in order of distance.
    let group = &*group;
    let mut plies = 0;
    while plies < buckets.len() {
        let events = std::mem::take(&mut buckets[plies]);
        let p = plies as u32;
        if p > super::MAX_PLIES {
            overflow.store(true, Relaxed);
            break;
        }
        let frontier: Vec<(u32, bool)> = events
            .into_par_iter()
            .filter_map(|seed| {
                let code = encode(TableValue {
                    outcome: if seed.win { Outcome::Win } else { Outcome::Loss },
                    plies: p,
                });
                let global = group.global(u64::from(seed.local)) as usize;
                group.values[global]
                    .compare_exchange(0, code, Relaxed, Relaxed)
                    .ok()
                    .map(|_| (seed.local, seed.win))
            })
            .collect();
        let next: Vec<Seed> = frontier
            .into_par_iter()
            .fold(Vec::new, |mut out, (local, win)| {
                let pos = group.position(u64::from(local)).expect("a settled position");
                predecessors(&pos, |before| {
                    let global = group.layout.index(&canonical(before));
                    if group.values[global as usize].load(Relaxed) != 0 {
                        return;
                    }
                    let pred = group.local(global) as u32;
                    if !win {
                        out.push(Seed { local: pred, plies: p + 1, win: true });
                    } else if group.remaining[pred as usize].fetch_sub(1, Relaxed) == 1 {
                        let plies = (p + 1).max(u32::from(group.exit_loss[pred as usize].load(Relaxed)));
                        out.push(Seed { local: pred, plies, win: false });
                    }
                });
                out
            })
            .reduce(Vec::new, |mut a, mut b| {
                a.append(&mut b);
                a
            });
        for seed in next {
            push(&mut buckets, seed);
        }
        plies += 1;
    }
    // 3. What was never settled is a draw.
    let drawn = encode(TableValue { outcome: Outcome::Draw, plies: 0 });
    (0..n as usize).into_par_iter().with_min_len(CHUNK as usize).for_each(|local| {
        let local = local as u64;
        let global = group.global(local) as usize;
        if group.values[global].load(Relaxed) == 0 && group.position(local).is_some() {
            group.values[global].store(drawn, Relaxed);
        }
    });
}
