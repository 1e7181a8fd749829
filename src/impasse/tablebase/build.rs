//! Building the Impasse tables: the exact value of every position with `k` stacks, from the
//! tables with fewer stacks.
//!
//! The game graph has no cycles, and no move adds a stack: a slide, a transpose or a bear-off
//! keeps the number of stacks, a crown or the removal of a single takes one away. So table `k`
//! depends only on itself and on the tables below it. Within table `k` the values are computed
//! by a depth-first search that stores every value once (a position's value is final the
//! moment its children's are known, since there are no cycles), the children with fewer stacks
//! being read from the tables already built. Each entry is the number of plies to the end with
//! best play (the winner hurrying, the loser resisting): odd for a win of the side to move, even
//! for a loss.
//!
//! **Threads.** The sets of occupied squares are shared out among the threads; a thread that
//! meets a position not yet known computes it itself. Two threads may compute the same position
//! at once, and both store the same byte: the value of a position is a function of the position,
//! so the table is the same byte for byte whatever the number of threads or their timing.

use super::index::{Canonical, Layout};
use super::{MAX_PLIES, Tables};
use crate::impasse::Position;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering::Relaxed};

/// The stack size of the builder's threads: the search recurses along lines of one table.
const STACK: usize = 64 << 20;

/// The state of one table's build.
struct Builder<'a> {
    layout: &'a Layout,
    values: &'a [AtomicU8],
    lower: &'a Tables,
    overflow: &'a AtomicBool,
}

impl Builder<'_> {
    /// The value of `pos` (not finished, with the table's number of stacks), computed if needed.
    fn value(&self, pos: &Position) -> u8 {
        let index = self.layout.index(&Canonical::of(pos)) as usize;
        let known = self.values[index].load(Relaxed);
        if known != 0 {
            return known;
        }
        let (mut fastest_win, mut longest_loss) = (u32::MAX, 0u32);
        for &mv in &pos.legal_moves() {
            let child = pos.make_move(mv);
            if child.is_game_over() {
                fastest_win = 1;
                break;
            }
            let plies = u32::from(if child.occupied().count_ones() < self.layout.stacks {
                self.lower.probe_plies(&child).expect("the smaller tables are complete")
            } else {
                self.value(&child)
            });
            if plies % 2 == 0 {
                fastest_win = fastest_win.min(plies + 1);
            } else {
                longest_loss = longest_loss.max(plies + 1);
            }
        }
        let plies = if fastest_win != u32::MAX { fastest_win } else { longest_loss };
        if plies > MAX_PLIES {
            self.overflow.store(true, Relaxed);
        }
        let byte = plies.min(MAX_PLIES) as u8;
        self.values[index].store(byte, Relaxed);
        byte
    }
}

/// Computes table `stacks` from `lower` (which holds every table below it) on `threads`
/// threads, calling `progress(done, total)` now and then. Returns its entries.
pub fn build_table(
    stacks: u32,
    lower: &Tables,
    threads: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Vec<u8>, String> {
    let layout = Layout::new(stacks);
    let values: Vec<AtomicU8> = (0..layout.entries).map(|_| AtomicU8::new(0)).collect();
    let overflow = AtomicBool::new(false);
    let builder = Builder { layout: &layout, values: &values, lower, overflow: &overflow };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(STACK)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let done = AtomicU64::new(0);
    pool.install(|| {
        (0..layout.square_sets as usize).into_par_iter().with_min_len(64).for_each(|set_rank| {
            let set_rank = set_rank as u64;
            for (id, material) in layout.materials.iter().enumerate() {
                for rank in 0..material.arrangements {
                    let pos = layout.position(id, set_rank, rank);
                    if pos.is_valid() {
                        builder.value(&pos.position());
                    }
                }
            }
            let finished = done.fetch_add(1, Relaxed) + 1;
            if finished.is_multiple_of(4096) || finished == layout.square_sets {
                progress(finished, layout.square_sets);
            }
        });
    });
    if overflow.load(Relaxed) {
        return Err(format!("table {stacks}: a distance exceeds {MAX_PLIES} plies (the format's limit)"));
    }
    Ok(values.into_iter().map(AtomicU8::into_inner).collect())
}
