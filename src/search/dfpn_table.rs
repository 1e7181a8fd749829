//! The table of the proof-number search ([`super::dfpn`]): proof and disproof numbers of the
//! positions searched, in bounded memory.
//!
//! Two-way buckets: a new entry takes the empty way, or the one with less work behind it (the
//! nodes searched below the position when it was stored), so that the values that were
//! expensive to find, and proofs and disproofs, survive longest. The key is the full 64-bit hash.

/// One stored position: its proof and disproof numbers for the attacker of the search, and the
/// work (nodes) spent below it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The position's hash (0: empty slot).
    pub key: u64,
    /// Proof number: 0 for a proven attacker win.
    pub pn: u32,
    /// Disproof number: 0 for a proven non-win.
    pub dn: u32,
    /// Nodes searched below the position, for replacement.
    pub work: u32,
}

/// A fixed-size table of [`Entry`]s.
pub struct DfpnTable {
    slots: Vec<Entry>,
    mask: usize,
}

impl DfpnTable {
    /// A table of about `mib` MiB (at least one bucket; the bucket count a power of two).
    pub fn new(mib: usize) -> DfpnTable {
        let bytes = mib.max(1) << 20;
        let buckets = (bytes / (2 * std::mem::size_of::<Entry>())).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        DfpnTable { slots: vec![Entry::default(); 2 * buckets], mask: buckets - 1 }
    }

    /// Empties the table, before a new search.
    pub fn clear(&mut self) {
        self.slots.fill(Entry::default());
    }

    fn bucket(&self, key: u64) -> usize {
        2 * ((key as usize) & self.mask)
    }

    /// The stored entry of `key`, if any.
    pub fn get(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.slots[b..b + 2].iter().copied().find(|e| e.key == key && key != 0)
    }

    /// Stores (or updates) `entry`, replacing the entry with less work when the bucket is full.
    pub fn put(&mut self, entry: Entry) {
        let b = self.bucket(entry.key);
        let ways = &mut self.slots[b..b + 2];
        let slot = match ways.iter().position(|e| e.key == entry.key) {
            Some(i) => i,
            None if ways[0].key == 0 => 0,
            None if ways[1].key == 0 => 1,
            // Finished values (a proof or a disproof) count as much work as anything: they end
            // whole subtrees.
            None => usize::from(weight(&ways[1]) < weight(&ways[0])),
        };
        ways[slot] = entry;
    }
}

/// How much an entry is worth keeping.
fn weight(e: &Entry) -> u64 {
    if e.pn == 0 || e.dn == 0 { u64::MAX } else { u64::from(e.work) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_finds_and_replaces_the_lighter_entry() {
        let mut t = DfpnTable::new(1);
        let buckets = t.mask + 1;
        let e = |key: u64, work| Entry { key, pn: 3, dn: 4, work };
        t.put(e(5, 10));
        assert_eq!(t.get(5), Some(e(5, 10)));
        assert_eq!(t.get(6), None);
        let (k2, k3) = (5 + buckets as u64, 5 + 2 * buckets as u64);
        t.put(e(k2, 1));
        t.put(e(k3, 7));
        assert_eq!(t.get(5), Some(e(5, 10)));
        assert_eq!(t.get(k2), None);
        assert_eq!(t.get(k3), Some(e(k3, 7)));
        t.clear();
        assert_eq!(t.get(5), None);
    }
}
