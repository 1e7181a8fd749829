//! The file format of steere's endgame tables, the same for every game: a fixed header and one
//! byte per position, read memory-mapped.
//!
//! ```text
//! offset  size  field (little-endian)
//!      0     8  magic "STEERETB"
//!      8     4  format version (FORMAT_VERSION)
//!     12     4  header length in bytes (HEADER_LEN)
//!     16    16  the game's name, ASCII, zero-padded ("impasse")
//!     32     4  the table's number within its game (Impasse: the number of stacks)
//!     36     4  the value encoding (the game's; Impasse: 1 = plies to the end)
//!     40     8  the number of entries
//!     48     8  the checksum of the entries (see `checksum`)
//!     56     8  reserved, zero
//!     64     -  the entries, one byte each
//! ```
//!
//! A file is refused, with a message that names the file and the fault, when its magic, version,
//! game, table number or encoding is not the one asked for, when its length is not the header's
//! plus its entries (a truncated copy), or when the checksum of its entries does not match (a
//! corrupted copy). Files are written to a temporary name and renamed, so that an interrupted
//! build never leaves a file that looks complete.

use memmap2::Mmap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// The first eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"STEERETB";
/// The version of the format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// The length of the header, in bytes.
pub const HEADER_LEN: usize = 64;

/// What a table file says about itself (the header without magic and lengths).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableHeader {
    /// The game's name, at most 16 ASCII bytes.
    pub game: String,
    /// The table's number within its game.
    pub table: u32,
    /// The game's value encoding.
    pub encoding: u32,
    /// The number of entries.
    pub entries: u64,
}

/// A 64-bit checksum of `data`, eight bytes at a time (a multiply-rotate mix: fast enough to
/// check a table of gigabytes when it is opened, and any change of a byte changes it).
pub fn checksum(data: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h: u64 = data.len() as u64 ^ K;
    let mut words = data.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().expect("chunks of eight"));
        h = (h ^ w).wrapping_mul(K).rotate_left(29);
    }
    for (i, &b) in words.remainder().iter().enumerate() {
        h = (h ^ (u64::from(b) << (8 * i))).wrapping_mul(K).rotate_left(29);
    }
    h ^ (h >> 32)
}

/// The header bytes of a table with `header` and the entries' `sum`.
fn header_bytes(header: &TableHeader, sum: u64) -> [u8; HEADER_LEN] {
    let mut bytes = [0u8; HEADER_LEN];
    bytes[0..8].copy_from_slice(&MAGIC);
    bytes[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    let name = header.game.as_bytes();
    bytes[16..16 + name.len().min(16)].copy_from_slice(&name[..name.len().min(16)]);
    bytes[32..36].copy_from_slice(&header.table.to_le_bytes());
    bytes[36..40].copy_from_slice(&header.encoding.to_le_bytes());
    bytes[40..48].copy_from_slice(&header.entries.to_le_bytes());
    bytes[48..56].copy_from_slice(&sum.to_le_bytes());
    bytes
}

/// Writes a table to `path` (through a temporary file renamed at the end).
pub fn write_table(path: &Path, header: &TableHeader, entries: &[u8]) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("{}: cannot write the table: {e}", path.display());
    let temporary = path.with_extension("partial");
    let mut out = BufWriter::with_capacity(1 << 20, File::create(&temporary).map_err(fail)?);
    out.write_all(&header_bytes(header, checksum(entries))).map_err(fail)?;
    out.write_all(entries).map_err(fail)?;
    out.into_inner().map_err(|e| fail(e.into_error()))?.sync_all().map_err(fail)?;
    std::fs::rename(&temporary, path).map_err(fail)
}

/// An opened, checked table file, memory-mapped.
#[derive(Debug)]
pub struct MappedTable {
    map: Mmap,
}

impl MappedTable {
    /// Opens the table at `path` and checks it against `expected` (every field) and its
    /// checksum. The error is one line that names the file and what is wrong with it.
    pub fn open(path: &Path, expected: &TableHeader) -> Result<MappedTable, String> {
        let fail = |what: String| format!("{}: {what}", path.display());
        let file = File::open(path).map_err(|e| fail(format!("cannot open: {e}")))?;
        // SAFETY: the map is read-only and the tables are never written in place (a build
        // writes a new file and renames it), so the mapped bytes do not change under us.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| fail(format!("cannot map: {e}")))?;
        if map.len() < HEADER_LEN || map[0..8] != MAGIC {
            return Err(fail("not a steere table (bad magic or too short)".into()));
        }
        let word = |at: usize| u32::from_le_bytes(map[at..at + 4].try_into().expect("four bytes"));
        let long = |at: usize| u64::from_le_bytes(map[at..at + 8].try_into().expect("eight bytes"));
        if word(8) != FORMAT_VERSION || word(12) as usize != HEADER_LEN {
            return Err(fail(format!("format version {} (this build reads {FORMAT_VERSION})", word(8))));
        }
        let game: String = map[16..32].iter().take_while(|&&b| b != 0).map(|&b| b as char).collect();
        let found = TableHeader { game, table: word(32), encoding: word(36), entries: long(40) };
        if found != *expected {
            return Err(fail(format!("holds {found:?}, expected {expected:?}")));
        }
        let length = HEADER_LEN as u64 + found.entries;
        if map.len() as u64 != length {
            return Err(fail(format!("{} bytes, expected {length} (truncated or padded)", map.len())));
        }
        if checksum(&map[HEADER_LEN..]) != long(48) {
            return Err(fail("checksum mismatch (the file is corrupted)".into()));
        }
        Ok(MappedTable { map })
    }

    /// The entries.
    pub fn entries(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(entries: u64) -> TableHeader {
        TableHeader { game: "toy".into(), table: 3, encoding: 1, entries }
    }

    #[test]
    fn a_written_table_reads_back_and_any_fault_is_refused() {
        let dir = std::env::temp_dir().join(format!("steere-tbfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("toy-3.stb");
        let data: Vec<u8> = (0..1001u32).map(|i| (i * 7 % 251) as u8).collect();
        write_table(&path, &header(1001), &data).unwrap();
        assert_eq!(MappedTable::open(&path, &header(1001)).unwrap().entries(), &data[..]);

        let other = TableHeader { table: 4, ..header(1001) };
        assert!(MappedTable::open(&path, &other).unwrap_err().contains("expected"));

        let bytes = std::fs::read(&path).unwrap();
        let mut flipped = bytes.clone();
        flipped[HEADER_LEN + 500] ^= 1;
        std::fs::write(&path, &flipped).unwrap();
        assert!(MappedTable::open(&path, &header(1001)).unwrap_err().contains("checksum"));

        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert!(MappedTable::open(&path, &header(1001)).unwrap_err().contains("truncated"));

        std::fs::write(&path, b"hello").unwrap();
        assert!(MappedTable::open(&path, &header(1001)).unwrap_err().contains("magic"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_checksum_sees_every_byte() {
        let data = vec![0u8; 37];
        let base = checksum(&data);
        for i in 0..data.len() {
            let mut changed = data.clone();
            changed[i] = 1;
            assert_ne!(checksum(&changed), base, "byte {i}");
        }
        assert_ne!(checksum(&data[..36]), base);
    }
}
