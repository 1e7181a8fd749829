//! HexDame endgame tables: the exact value (win, loss or draw, and the distance) of every
//! position with at most N pieces, built by `steere tb build --variant hexdame` and read
//! memory-mapped by the search and the tools.
//!
//! One file per number of pieces, `hexdame-K.stb` (the format: [`crate::tablebase::file`]), one
//! byte per number of the index of [`index`] (White to move; Black to move is flipped first).
//! **Value encoding 2**: 0 marks a number that is no position, 1 a draw, and any other byte `b`
//! a decided position `b - 2` plies from the end with best play (the winner hurrying, the loser
//! resisting): odd plies when the side to move wins, even when it loses (a side without a move
//! has lost: 0 plies, byte 2). A byte holds up to [`MAX_PLIES`] plies; the build fails rather
//! than store more. A table is complete for its number of pieces.
//!
//! The tables the engine uses are installed once per process ([`install`]) and read by
//! [`probe`]; before any is installed, `probe` costs one comparison.

pub mod build;
pub mod index;

use crate::game::{Outcome, TableValue};
use crate::hexdame::Position;
use crate::tablebase::{self, MappedTable, TableHeader};
use index::{Layout, canonical};
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::{Arc, RwLock};

/// The game's name in the files' headers and names.
pub const GAME: &str = "hexdame";
/// The value encoding of the HexDame tables: 0 no position, 1 draw, plies + 2 (odd plies: win).
pub const ENCODING: u32 = 2;
/// The longest distance a byte holds, in plies.
pub const MAX_PLIES: u32 = 253;
/// The largest table `steere tb build` accepts.
pub const MAX_TABLE: u32 = 5;

/// The byte of a value (see the module docs).
pub fn encode(value: TableValue) -> u8 {
    match value.outcome {
        Outcome::Draw => 1,
        _ => (value.plies.min(MAX_PLIES) + 2) as u8,
    }
}

/// The value of a byte (`None`: no position).
pub fn decode(code: u8) -> Option<TableValue> {
    match code {
        0 => None,
        1 => Some(TableValue { outcome: Outcome::Draw, plies: 0 }),
        _ => {
            let plies = u32::from(code) - 2;
            let outcome = if plies % 2 == 1 { Outcome::Win } else { Outcome::Loss };
            Some(TableValue { outcome, plies })
        }
    }
}

/// The header table `pieces` must have.
pub fn header(pieces: u32) -> TableHeader {
    TableHeader { game: GAME.into(), table: pieces, encoding: ENCODING, entries: Layout::new(pieces).entries }
}

/// The entries of one table: a mapped file, or a table just built.
enum Entries {
    Mapped(MappedTable),
    Owned(Vec<u8>),
}

/// One table and its index.
struct Table {
    layout: Layout,
    entries: Entries,
}

impl Table {
    fn bytes(&self) -> &[u8] {
        match &self.entries {
            Entries::Mapped(m) => m.entries(),
            Entries::Owned(v) => v,
        }
    }
}

/// A set of tables, by number of pieces.
#[derive(Default)]
pub struct Tables {
    tables: Vec<Option<Table>>,
}

impl Tables {
    /// No tables.
    pub fn new() -> Tables {
        Tables::default()
    }

    /// Opens `hexdame-K.stb` in `dir` for every K from 2 to `max` whose file exists. A missing
    /// file is skipped; one that fails its checks is skipped too, with a one-line warning
    /// naming it (the second value).
    pub fn open(dir: &Path, max: u32) -> (Tables, Vec<String>) {
        let (mut tables, mut warnings) = (Tables::new(), Vec::new());
        for pieces in 2..=max.min(MAX_TABLE) {
            let path = dir.join(tablebase::file_name(GAME, pieces));
            if path.exists() {
                match MappedTable::open(&path, &header(pieces)) {
                    Ok(table) => tables.insert(pieces, Entries::Mapped(table)),
                    Err(e) => warnings.push(e),
                }
            }
        }
        (tables, warnings)
    }

    fn insert(&mut self, pieces: u32, entries: Entries) {
        let slot = pieces as usize;
        if self.tables.len() <= slot {
            self.tables.resize_with(slot + 1, || None);
        }
        self.tables[slot] = Some(Table { layout: Layout::new(pieces), entries });
    }

    /// Adds a table just built.
    pub fn insert_built(&mut self, pieces: u32, entries: Vec<u8>) {
        self.insert(pieces, Entries::Owned(entries));
    }

    /// The numbers of pieces of the tables held, ascending.
    pub fn pieces(&self) -> Vec<u32> {
        (0..self.tables.len() as u32).filter(|&k| self.tables[k as usize].is_some()).collect()
    }

    /// The entries of table `pieces`, if held.
    pub fn entries(&self, pieces: u32) -> Option<&[u8]> {
        self.tables.get(pieces as usize)?.as_ref().map(Table::bytes)
    }

    /// The stored byte of `pos` (each side at least one piece): `None` when no table holds its
    /// number of pieces.
    #[inline]
    pub fn probe_code(&self, pos: &Position) -> Option<u8> {
        let table = self.tables.get(pos.occupied().count_ones() as usize)?.as_ref()?;
        let byte = table.bytes()[table.layout.index(&canonical(pos)) as usize];
        (byte != 0).then_some(byte)
    }

    /// The exact value of `pos` from the side to move's point of view, if a table holds it.
    pub fn probe(&self, pos: &Position) -> Option<TableValue> {
        let us = pos.side_to_move();
        if pos.all(us) == 0 || pos.all(us.opponent()) == 0 {
            return None;
        }
        decode(self.probe_code(pos)?)
    }
}

/// The tables the engine uses, and the most pieces among them (0: none, so that [`probe`]
/// returns at once).
static INSTALLED: RwLock<Option<Arc<Tables>>> = RwLock::new(None);
static INSTALLED_MAX: AtomicU32 = AtomicU32::new(0);

/// Makes `tables` the ones [`probe`] reads (`None`: none).
pub fn install(tables: Option<Tables>) {
    let max = tables.as_ref().and_then(|t| t.pieces().last().copied()).unwrap_or(0);
    let mut slot = INSTALLED.write().unwrap_or_else(|e| e.into_inner());
    // Closed first, so that no probe reads the old tables through the new bound.
    INSTALLED_MAX.store(0, Relaxed);
    *slot = tables.map(Arc::new);
    INSTALLED_MAX.store(max, Relaxed);
}

/// The installed tables, if any.
pub fn installed() -> Option<Arc<Tables>> {
    INSTALLED.read().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The exact value of `pos` from the installed tables, if one holds it.
#[inline]
pub fn probe(pos: &Position) -> Option<TableValue> {
    // The search's fast path: one comparison when no table is installed or the position is
    // larger than every table.
    if pos.occupied().count_ones() > INSTALLED_MAX.load(Relaxed) {
        return None;
    }
    INSTALLED.read().ok()?.as_ref()?.probe(pos)
}

/// What building one table did.
#[derive(Clone, Debug)]
pub struct BuiltTable {
    /// The number of pieces.
    pub pieces: u32,
    /// The number of entries (positions or not).
    pub entries: u64,
    /// The positions (non-zero entries).
    pub positions: u64,
    /// The wins of the side to move among them.
    pub wins: u64,
    /// The draws among them.
    pub draws: u64,
    /// The longest distance, in plies.
    pub longest: u32,
    /// Seconds spent (0 when the file was there and kept).
    pub seconds: f64,
    /// False when a valid file was already there and was kept.
    pub built: bool,
}

impl BuiltTable {
    fn of(pieces: u32, entries: &[u8], seconds: f64, built: bool) -> BuiltTable {
        let mut counts = [0u64; 256];
        for &b in entries {
            counts[b as usize] += 1;
        }
        let positions = entries.len() as u64 - counts[0];
        let wins = (2..256).filter(|b| (b - 2) % 2 == 1).map(|b| counts[b]).sum();
        let longest = (2..256).rev().find(|&b| counts[b] > 0).map_or(0, |b| b as u32 - 2);
        BuiltTable {
            pieces,
            entries: entries.len() as u64,
            positions,
            wins,
            draws: counts[1],
            longest,
            seconds,
            built,
        }
    }
}

/// Builds the tables of 2 to `max` pieces into `dir` on `threads` threads, keeping those already
/// there that pass their checks (a faulty one is built again). `report` is told of each table
/// when it is done; `progress(pieces, done, total)` now and then while one is built.
pub fn build_all(
    dir: &Path,
    max: u32,
    threads: usize,
    progress: &(dyn Fn(u32, u64, u64) + Sync),
    report: &mut dyn FnMut(&BuiltTable),
) -> Result<Tables, String> {
    if !(2..=MAX_TABLE).contains(&max) {
        return Err(format!("--max {max}: HexDame tables have 2 to {MAX_TABLE} pieces"));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("{}: cannot create the directory: {e}", dir.display()))?;
    let mut tables = Tables::new();
    for pieces in 2..=max {
        let path = dir.join(tablebase::file_name(GAME, pieces));
        if let Ok(table) = MappedTable::open(&path, &header(pieces)) {
            report(&BuiltTable::of(pieces, table.entries(), 0.0, false));
            tables.insert(pieces, Entries::Mapped(table));
            continue;
        }
        let started = std::time::Instant::now();
        let entries =
            build::build_table(pieces, &tables, threads, &|done, total| progress(pieces, done, total))?;
        tablebase::write_table(&path, &header(pieces), &entries)?;
        report(&BuiltTable::of(pieces, &entries, started.elapsed().as_secs_f64(), true));
        drop(entries);
        let mapped = MappedTable::open(&path, &header(pieces))?;
        tables.insert(pieces, Entries::Mapped(mapped));
    }
    Ok(tables)
}

/// `win N` / `loss N` in the side to move's own moves, or `draw`, as the EPD files write them.
pub fn value_text(value: TableValue) -> String {
    crate::impasse::tablebase::value_text(value)
}

/// The HexDame tables as the tools and the protocol reach them (through the variant registry).
pub const FAMILY: tablebase::TableFamily =
    tablebase::TableFamily { game: GAME, build: build_command, install: install_dir, probe: probe_command };

fn build_command(request: &tablebase::BuildRequest<'_>, say: &mut dyn FnMut(String)) -> Result<(), String> {
    let mut report = |t: &BuiltTable| {
        say(format!(
            "table {} pieces: {} entries, {} positions, {} wins and {} draws for the side to move, longest {} plies, {}",
            t.pieces,
            t.entries,
            t.positions,
            t.wins,
            t.draws,
            t.longest,
            if t.built { format!("built in {:.1} s", t.seconds) } else { "kept (valid file)".into() }
        ))
    };
    build_all(request.dir, request.max, request.threads, request.progress, &mut report).map(|_| ())
}

fn install_dir(dir: Option<&Path>) -> Result<String, String> {
    let Some(dir) = dir else {
        install(None);
        return Ok(format!("{GAME}: no tables"));
    };
    if !dir.is_dir() {
        install(None);
        return Err(format!("{}: no such directory", dir.display()));
    }
    let (tables, warnings) = Tables::open(dir, MAX_TABLE);
    let pieces = tables.pieces();
    install((!pieces.is_empty()).then_some(tables));
    let found = match (pieces.first(), pieces.last()) {
        (Some(a), Some(b)) => format!("{GAME}: tables of {a} to {b} pieces"),
        _ => format!("{GAME}: no tables in {}", dir.display()),
    };
    if warnings.is_empty() { Ok(found) } else { Err(format!("{} ({found})", warnings.join("; "))) }
}

/// `steere tb probe`: the value of `fen` and of each of its moves, one line each.
fn probe_command(dir: &Path, fen: &str) -> Result<Vec<String>, String> {
    let pos = Position::from_fen(fen).map_err(|e| format!("--fen: {e}"))?;
    let (tables, warnings) = Tables::open(dir, MAX_TABLE);
    if let Some(w) = warnings.first() {
        return Err(w.clone());
    }
    if !pos.has_moves() {
        return Ok(vec!["value loss 0 (the game is over)".into()]);
    }
    let pieces = pos.occupied().count_ones();
    let value = tables.probe(&pos).ok_or_else(|| {
        format!(
            "no table of {pieces} pieces in {} (build it with steere tb build --variant hexdame)",
            dir.display()
        )
    })?;
    let mut lines = vec![format!("value {}", value_text(value))];
    let mut moves: Vec<(String, String)> = pos
        .legal_moves()
        .as_ref()
        .iter()
        .map(|&mv| {
            let child = pos.make_move(mv);
            let text = if !child.has_moves() {
                "win 1".to_string()
            } else {
                tables.probe(&child).map_or("unknown".into(), |v| value_text(v.one_move_before()))
            };
            (mv.to_string(), text)
        })
        .collect();
    moves.sort();
    lines.extend(moves.into_iter().map(|(mv, v)| format!("move {mv} {v}")));
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_encoding_round_trips_and_keeps_zero_for_no_position() {
        assert_eq!(decode(0), None);
        for code in 1..=255u8 {
            assert_eq!(encode(decode(code).unwrap()), code);
        }
        assert_eq!(decode(2), Some(TableValue { outcome: Outcome::Loss, plies: 0 }));
        assert_eq!(decode(3), Some(TableValue { outcome: Outcome::Win, plies: 1 }));
    }
}
