//! The shared, lock-free transposition table.
//!
//! **Layout.** The table is an array of 64-byte buckets (one cache line each, so a probe costs
//! one memory access), each holding four entries. A position's bucket is chosen by
//! multiply-high, `(key * buckets) >> 64`, which maps the 64-bit key uniformly onto any table
//! size, not only powers of two (Lemire, "A fast alternative to the modulo reduction", 2016).
//!
//! **Lock-free and legal Rust.** An entry is two `AtomicU64`: `data`, and `key ^ data`. A reader
//! loads both (relaxed) and accepts the entry only if `stored ^ data == key`. If two threads
//! write the same entry at once, a reader may see the key word of one write with the data word
//! of the other; the XOR check then fails (except with probability about 2^-64), so a torn entry
//! reads as a miss instead of a wrong answer. This is Hyatt and Mann's lockless hashing ("A
//! lockless transposition-table implementation for parallel search", ICGA Journal 2002), here
//! with atomics so that the races are defined behaviour; there is no `unsafe` in this file. The
//! stored move is only ever used after matching it against the legal moves, so even an accepted
//! collision cannot produce an illegal move.
//!
//! **Data word** (64 bits): move code 16 | score 16 | static eval 16 | depth 8 | bound 2 |
//! has-move 1 | age 5. Scores are stored relative to the node (see [`super::score_to_tt`]).
//!
//! **Replacement.** A store goes to the entry holding the same key if there is one; it
//! overwrites it unless the old entry is from this search, deeper by more than 2 plies, and the
//! new result is not exact (a shallow re-search must not erase a deep result). Otherwise the
//! victim is the entry of least worth, `depth - 8 * age`, where `age` is how many searches ago
//! the entry was written: empty entries go first, then old ones, then shallow ones. Deep entries
//! save the most work and entries of earlier searches are the least likely to be probed again;
//! 8 plies per search of age lets a deep result outlive a few moves of a game but not forever
//! (the rule of Stockfish's `tt.cpp`).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What a stored score means relative to the true value of the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is an upper bound (the search failed low: no move reached alpha).
    Upper = 1,
    /// The score is a lower bound (a move reached beta: a cutoff).
    Lower = 2,
    /// The score is exact (between alpha and beta).
    Exact = 3,
}

/// One entry as read from the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The code of the best move found, if any ([`crate::game::Game::move_code`]).
    pub move_code: Option<u16>,
    /// The score, relative to the node (convert with [`super::score_from_tt`]).
    pub score: i32,
    /// The static evaluation of the position, if it was computed.
    pub eval: Option<i32>,
    /// The remaining depth the score was searched to.
    pub depth: i32,
    /// What kind of bound the score is.
    pub bound: Bound,
}

/// One slot: the key XOR the data, and the data.
#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

/// The entries per bucket.
const BUCKET_ENTRIES: usize = 4;

/// A cache line of entries.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    entries: [Entry; BUCKET_ENTRIES],
}

const _: () = assert!(std::mem::size_of::<Entry>() == 16);
const _: () = assert!(std::mem::size_of::<Bucket>() == 64 && std::mem::align_of::<Bucket>() == 64);

/// The stored evaluation of an entry without one.
const NO_EVAL: i32 = i16::MIN as i32;

/// Ages wrap modulo 32 (5 bits).
const AGE_MASK: u8 = 31;

/// Packs the fields into the data word.
#[inline(always)]
fn pack(move_code: Option<u16>, score: i32, eval: Option<i32>, depth: i32, bound: Bound, age: u8) -> u64 {
    let (code, has) = match move_code {
        Some(c) => (c as u64, 1u64),
        None => (0, 0),
    };
    let eval = eval.unwrap_or(NO_EVAL);
    code | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | ((depth.clamp(0, 255) as u64) << 48)
        | ((bound as u64) << 56)
        | (has << 58)
        | (((age & AGE_MASK) as u64) << 59)
}

/// The bound bits of a data word (0 = empty entry).
#[inline(always)]
fn bound_bits(data: u64) -> u64 {
    (data >> 56) & 3
}

#[inline(always)]
fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xFF) as i32
}

#[inline(always)]
fn age_of(data: u64) -> u8 {
    (data >> 59) as u8 & AGE_MASK
}

/// Unpacks a non-empty data word.
#[inline(always)]
fn unpack(data: u64) -> TtEntry {
    TtEntry {
        move_code: if (data >> 58) & 1 != 0 { Some(data as u16) } else { None },
        score: (data >> 16) as u16 as i16 as i32,
        eval: Some((data >> 32) as u16 as i16 as i32).filter(|&e| e != NO_EVAL),
        depth: depth_of(data),
        bound: match bound_bits(data) {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        },
    }
}

/// The number of buckets of a table of `mib` MiB (at least one).
fn bucket_count(mib: usize) -> usize {
    (mib.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1)
}

/// The transposition table shared by all search threads.
pub struct TranspositionTable {
    buckets: Box<[Bucket]>,
    /// The age of the current search; written only between searches (`&mut self`).
    age: u8,
}

impl TranspositionTable {
    /// A table of (about) `mib` MiB, at least one bucket, all entries empty. For the engine's
    /// own small sizes; a size from the user goes through [`TranspositionTable::try_new`].
    pub fn new(mib: usize) -> TranspositionTable {
        let buckets = std::iter::repeat_with(Bucket::default).take(bucket_count(mib)).collect();
        TranspositionTable { buckets, age: 0 }
    }

    /// A table of (about) `mib` MiB if the size is accepted ([`super::hash_size::check`], with
    /// `freed_mib` MiB given back first) and the memory can be had, else the one-line reason.
    pub fn try_new(mib: usize, freed_mib: usize) -> Result<TranspositionTable, String> {
        super::hash_size::check(mib, freed_mib)?;
        let count = bucket_count(mib);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count).map_err(|e| format!("cannot allocate {mib} MiB: {e}"))?;
        buckets.extend(std::iter::repeat_with(Bucket::default).take(count));
        Ok(TranspositionTable { buckets: buckets.into_boxed_slice(), age: 0 })
    }

    /// The size in whole MiB (what a [`TranspositionTable::try_new`] replacing it gets back).
    pub fn size_mib(&self) -> usize {
        self.size_bytes() >> 20
    }

    /// The size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Empties every entry, splitting the work among `threads` threads (a large table takes a
    /// noticeable time to clear on one).
    pub fn clear(&mut self, threads: usize) {
        let chunk = self.buckets.len().div_ceil(threads.max(1)).max(1);
        std::thread::scope(|s| {
            for part in self.buckets.chunks(chunk) {
                s.spawn(move || {
                    for e in part.iter().flat_map(|b| &b.entries) {
                        e.key_xor_data.store(0, Relaxed);
                        e.data.store(0, Relaxed);
                    }
                });
            }
        });
        self.age = 0;
    }

    /// Starts a new search: entries written from now on are "new" for replacement and
    /// [`TranspositionTable::hashfull`].
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & AGE_MASK;
    }

    /// The bucket of `key` (multiply-high, see the module docs).
    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Hints the processor to fetch the bucket of `key` into the cache.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        // A plain relaxed load is the portable way to touch the line without `unsafe`
        // intrinsics; it costs about as much as the probe it prepares.
        let _ = self.bucket(key).entries[0].data.load(Relaxed);
    }

    /// The entry for `key`, if the table holds one.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for e in &self.bucket(key).entries {
            let data = e.data.load(Relaxed);
            if e.key_xor_data.load(Relaxed) ^ data == key && bound_bits(data) != 0 {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a search result for `key` (see the module docs for the replacement rule). A store
    /// without a move keeps the move already stored for the same key.
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mut move_code: Option<u16>,
        score: i32,
        eval: Option<i32>,
        depth: i32,
        bound: Bound,
    ) {
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        for e in &bucket.entries {
            let data = e.data.load(Relaxed);
            if e.key_xor_data.load(Relaxed) ^ data == key && bound_bits(data) != 0 {
                if bound != Bound::Exact && age_of(data) == self.age && depth_of(data) > depth + 2 {
                    return;
                }
                if move_code.is_none() && (data >> 58) & 1 != 0 {
                    move_code = Some(data as u16);
                }
                victim = e;
                break;
            }
            let worth = if bound_bits(data) == 0 {
                i32::MIN
            } else {
                depth_of(data) - 8 * i32::from(self.age.wrapping_sub(age_of(data)) & AGE_MASK)
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let data = pack(move_code, score, eval, depth, bound, self.age);
        victim.data.store(data, Relaxed);
        victim.key_xor_data.store(key ^ data, Relaxed);
    }

    /// How full the table is, in permille: the share of the first 1000 entries that were written
    /// during the current search (the UCI `hashfull` estimate).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.iter().take(1000 / BUCKET_ENTRIES).flat_map(|b| &b.entries);
        let (mut used, mut total) = (0u32, 0u32);
        for e in sample {
            let data = e.data.load(Relaxed);
            total += 1;
            used += u32::from(bound_bits(data) != 0 && age_of(data) == self.age);
        }
        used * 1000 / total.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_is_checked_before_it_is_allocated() {
        assert_eq!(TranspositionTable::try_new(2, 0).unwrap().size_mib(), 2);
        let error = TranspositionTable::try_new(super::super::hash_size::MAX_HASH_MIB + 1, 0).err().unwrap();
        assert!(error.contains("out of range"), "{error}");
    }

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1);
        let key = 0xDEAD_BEEF_1234_5678;
        assert_eq!(tt.probe(key), None);
        tt.store(key, Some(1234), -29_990, Some(-150), 7, Bound::Lower);
        let e = tt.probe(key).unwrap();
        assert_eq!(
            e,
            TtEntry {
                move_code: Some(1234),
                score: -29_990,
                eval: Some(-150),
                depth: 7,
                bound: Bound::Lower
            }
        );
        assert_eq!(tt.probe(key ^ 1), None);
        // A store without a move keeps the old move.
        tt.store(key, None, 5, None, 8, Bound::Exact);
        assert_eq!(tt.probe(key).unwrap().move_code, Some(1234));
    }

    #[test]
    fn deep_entries_survive_shallow_stores_and_the_table_fills() {
        let mut tt = TranspositionTable::new(1);
        tt.new_search();
        let key = 42u64 << 40;
        tt.store(key, Some(1), 10, None, 12, Bound::Exact);
        tt.store(key, Some(2), 20, None, 3, Bound::Lower);
        assert_eq!(tt.probe(key).unwrap().depth, 12);
        let mut k = 1u64;
        for _ in 0..200_000 {
            k = k.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(7);
            tt.store(k, None, 0, None, 1, Bound::Upper);
        }
        assert!(tt.hashfull() > 900, "hashfull {}", tt.hashfull());
        tt.clear(2);
        assert_eq!(tt.hashfull(), 0);
        assert_eq!(tt.probe(key), None);
    }
}
