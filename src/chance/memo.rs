//! The memo of a chance search: the positions solved, each with its values at the depths it
//! was solved to.
//!
//! What it gives back depends on the position and the depth asked alone, never on what was
//! searched before: a value solved with `d` rolls left is reused with `d` rolls left, and an
//! exact one (no line reached the horizon) at every depth from `d` on, where the search would
//! find that same value again. A deeper value is never reused at a shallower depth (it would
//! be a different, deeper expectimax), nor is an exact one: exact with `d` rolls means every
//! line ends within `d` rolls, and with fewer some would meet the horizon. So the search's
//! values are those of the expectimax at its depth, bit for bit, whatever the order of the
//! search, and threads that share a memo ([`SharedMemo`]) find the values of one thread.
//!
//! A position met at several depths keeps its exact value and its values at the last two
//! other depths. In Can't Stop a roll advances one or two spaces, so within one depth of a
//! search to 3 rolls or fewer a position is met with at most two numbers of rolls left, and
//! at depth 5 two slots are still as good as one per depth (the bench to depth 5: 1,043,714
//! nodes either way; with one slot in all, 1,421,560).

use rustc_hash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

/// A depth of an empty slot.
const EMPTY: u32 = u32::MAX;

/// One value of a position: its depth and its value (NaN: none, beyond the horizon; no game's
/// value is NaN).
#[derive(Clone, Copy, Debug)]
struct Slot {
    depth: u32,
    value: f64,
}

impl Slot {
    const EMPTY: Slot = Slot { depth: EMPTY, value: f64::NAN };

    fn new(depth: u32, value: Option<f64>) -> Slot {
        Slot { depth, value: value.unwrap_or(f64::NAN) }
    }

    fn value(self) -> Option<f64> {
        (!self.value.is_nan()).then_some(self.value)
    }
}

/// What the memo knows of one position.
#[derive(Clone, Copy, Debug)]
pub(super) struct Known {
    /// Its exact value, with the fewest rolls left it was solved exactly with.
    exact: Slot,
    /// Its values (not exact) at the last two other depths it was solved to.
    depths: [Slot; 2],
}

impl Known {
    const NOTHING: Known = Known { exact: Slot::EMPTY, depths: [Slot::EMPTY; 2] };

    /// The value with `depth` rolls left and whether it is exact, if known.
    fn find(&self, depth: u32) -> Option<(Option<f64>, bool)> {
        if self.exact.depth <= depth {
            return Some((self.exact.value(), true));
        }
        self.depths.iter().find(|s| s.depth == depth).map(|s| (s.value(), false))
    }

    /// Adds the value solved with `depth` rolls left.
    fn add(&mut self, depth: u32, value: Option<f64>, exact: bool) {
        if exact {
            if depth < self.exact.depth {
                self.exact = Slot::new(depth, value);
            }
            return;
        }
        // The same depth again, else an empty slot, else the shallower one (an earlier
        // iteration's, the less likely to be asked again).
        let [a, b] = self.depths;
        let i = if a.depth == depth || a.depth == EMPTY {
            0
        } else if b.depth == depth || b.depth == EMPTY || b.depth < a.depth {
            1
        } else {
            0
        };
        self.depths[i] = Slot::new(depth, value);
    }
}

/// A memo as the search uses it: one thread's own, or its share of one for several threads.
pub(super) trait Memo<G> {
    /// The value of `pos` with `depth` rolls left and whether it is exact, if known.
    fn find(&mut self, pos: &G, depth: u32) -> Option<(Option<f64>, bool)>;

    /// Stores the value of `pos` solved with `depth` rolls left (`solved`: the depth, the value
    /// and whether it is exact), unless the table is full and
    /// `may_grow` says that copying its entries (given their number) would take too long; false
    /// then, and nothing is stored.
    fn store(&mut self, pos: G, solved: (u32, Option<f64>, bool), may_grow: &dyn Fn(usize) -> bool) -> bool;
}

/// One thread's memo.
pub(super) type LocalMemo<G> = FxHashMap<G, Known>;

/// [`Memo::find`] and [`Memo::store`] in one table.
fn find_in<G: Eq + Hash>(table: &LocalMemo<G>, pos: &G, depth: u32) -> Option<(Option<f64>, bool)> {
    table.get(pos).and_then(|known| known.find(depth))
}

fn store_in<G: Eq + Hash>(
    table: &mut LocalMemo<G>,
    pos: G,
    (depth, value, exact): (u32, Option<f64>, bool),
    may_grow: &dyn Fn(usize) -> bool,
) -> bool {
    if table.len() == table.capacity() && !table.contains_key(&pos) && !may_grow(table.len()) {
        return false;
    }
    table.entry(pos).or_insert(Known::NOTHING).add(depth, value, exact);
    true
}

impl<G: Eq + Hash> Memo<G> for LocalMemo<G> {
    fn find(&mut self, pos: &G, depth: u32) -> Option<(Option<f64>, bool)> {
        find_in(self, pos, depth)
    }

    fn store(&mut self, pos: G, solved: (u32, Option<f64>, bool), may_grow: &dyn Fn(usize) -> bool) -> bool {
        store_in(self, pos, solved, may_grow)
    }
}

/// The number of tables of a [`SharedMemo`]: enough that threads seldom wait for one another,
/// and that a table grows (copying its entries at once) by a small part of the whole.
const SHARDS: usize = 64;

/// A position with its hash, computed once for both the choice of a table and the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Hashed<G> {
    hash: u64,
    pos: G,
}

impl<G: Hash> Hashed<G> {
    fn new(pos: G) -> Hashed<G> {
        let mut hasher = FxHasher::default();
        pos.hash(&mut hasher);
        Hashed { hash: hasher.finish(), pos }
    }
}

impl<G> Hash for Hashed<G> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// One table of a [`SharedMemo`], alone on its cache lines (threads locking neighbouring
/// tables do not contend for one line).
#[repr(align(128))]
struct Shard<G>(Mutex<LocalMemo<Hashed<G>>>);

/// A memo shared by the threads of one search: tables locked one at a time, chosen by the
/// position's hash. Every thread stores only values it has solved completely, so what one
/// finds is what it would have solved itself.
pub(super) struct SharedMemo<G> {
    shards: Vec<Shard<G>>,
}

impl<G: Eq + Hash + Copy> SharedMemo<G> {
    pub(super) fn new() -> SharedMemo<G> {
        SharedMemo { shards: (0..SHARDS).map(|_| Shard(Mutex::new(LocalMemo::default()))).collect() }
    }

    /// The table of `pos`, locked, and `pos` with its hash.
    fn shard(&self, pos: G) -> (std::sync::MutexGuard<'_, LocalMemo<Hashed<G>>>, Hashed<G>) {
        let key = Hashed::new(pos);
        // The high bits: the tables' own hashing keeps the low ones.
        let table = &self.shards[(key.hash >> 58) as usize % SHARDS].0;
        (table.lock().unwrap_or_else(|poisoned| poisoned.into_inner()), key)
    }
}

impl<G: Eq + Hash + Copy> Memo<G> for &SharedMemo<G> {
    fn find(&mut self, pos: &G, depth: u32) -> Option<(Option<f64>, bool)> {
        let (table, key) = self.shard(*pos);
        find_in(&table, &key, depth)
    }

    fn store(&mut self, pos: G, solved: (u32, Option<f64>, bool), may_grow: &dyn Fn(usize) -> bool) -> bool {
        let (mut table, key) = self.shard(pos);
        store_in(&mut table, key, solved, may_grow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_found_at_its_depth_and_an_exact_one_from_its_depth_on() {
        let mut known = Known::NOTHING;
        known.add(3, Some(0.5), false);
        known.add(2, None, false);
        assert_eq!(known.find(3), Some((Some(0.5), false)));
        assert_eq!(known.find(2), Some((None, false)));
        assert_eq!(known.find(1), None);
        assert_eq!(known.find(4), None, "a shallower value is not reused deeper");
        known.add(4, Some(0.6), false);
        assert_eq!(
            (known.find(2), known.find(3), known.find(4)),
            (None, Some((Some(0.5), false)), Some((Some(0.6), false)))
        );
        known.add(5, Some(0.7), true);
        assert_eq!(known.find(4), Some((Some(0.6), false)), "an exact value is not reused shallower");
        assert_eq!((known.find(5), known.find(9)), (Some((Some(0.7), true)), Some((Some(0.7), true))));
        known.add(6, Some(0.7), true);
        assert_eq!(known.find(5), Some((Some(0.7), true)), "the fewest rolls are kept");
    }
}
