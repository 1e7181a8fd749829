//! Impasse endgame tables: the exact value (win or loss, and the distance) of every position
//! with at most N stacks, built by `steere tb build` and read memory-mapped by the search and
//! the tools.
//!
//! One file per number of stacks, `impasse-K.stb` (the format: [`crate::tablebase::file`]), one
//! byte per position of the index of [`index`]: the number of plies to the end with best play,
//! odd when the side to move wins, even when it loses, 0 for a number that is no legal position.
//! A table is complete for its number of stacks: whoever probes a position with K stacks needs
//! only `impasse-K.stb`.
//!
//! The tables the engine uses are installed once per process ([`install`], from
//! `TablebasePath` or `--tables`) and read by [`probe`]; before any is installed, `probe` costs
//! one comparison.

pub mod build;
pub mod index;

use crate::game::{Outcome, TableValue};
use crate::impasse::Position;
use crate::tablebase::{self, MappedTable, TableHeader};
use index::{Canonical, Layout};
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::{Arc, RwLock};

/// The game's name in the files' headers and names.
pub const GAME: &str = "impasse";
/// The value encoding of the Impasse tables: plies to the end, odd = win.
pub const ENCODING: u32 = 1;
/// The longest distance a byte holds, in plies.
pub const MAX_PLIES: u32 = 255;

/// The header table `stacks` must have.
pub fn header(stacks: u32) -> TableHeader {
    TableHeader { game: GAME.into(), table: stacks, encoding: ENCODING, entries: Layout::new(stacks).entries }
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

/// A set of tables, by number of stacks.
#[derive(Default)]
pub struct Tables {
    tables: Vec<Option<Table>>,
    /// The directory they were opened from, if any.
    dir: Option<std::path::PathBuf>,
}

impl Tables {
    /// No tables.
    pub fn new() -> Tables {
        Tables::default()
    }

    /// Opens `impasse-K.stb` in `dir` for every K from 2 to `max` whose file exists. A missing
    /// file is skipped; one that is there but fails its checks is skipped too, with a one-line
    /// warning naming it (the second value).
    pub fn open(dir: &Path, max: u32) -> (Tables, Vec<String>) {
        let (mut tables, mut warnings) = (Tables::new(), Vec::new());
        tables.dir = Some(dir.to_path_buf());
        for stacks in 2..=max.min(index::MAX_STACKS) {
            let path = dir.join(tablebase::file_name(GAME, stacks));
            if path.exists() {
                match MappedTable::open(&path, &header(stacks)) {
                    Ok(table) => tables.insert(stacks, Entries::Mapped(table)),
                    Err(e) => warnings.push(e),
                }
            }
        }
        (tables, warnings)
    }

    fn insert(&mut self, stacks: u32, entries: Entries) {
        let slot = stacks as usize;
        if self.tables.len() <= slot {
            self.tables.resize_with(slot + 1, || None);
        }
        self.tables[slot] = Some(Table { layout: Layout::new(stacks), entries });
    }

    /// Adds a table just built.
    pub fn insert_built(&mut self, stacks: u32, entries: Vec<u8>) {
        self.insert(stacks, Entries::Owned(entries));
    }

    /// The numbers of stacks of the tables held, ascending.
    pub fn stacks(&self) -> Vec<u32> {
        (0..self.tables.len() as u32).filter(|&k| self.tables[k as usize].is_some()).collect()
    }

    /// True when every table from 2 stacks to `max` is held.
    pub fn complete_to(&self, max: u32) -> bool {
        (2..=max).all(|k| self.tables.get(k as usize).is_some_and(Option::is_some))
    }

    /// The entries of table `stacks`, if held.
    pub fn entries(&self, stacks: u32) -> Option<&[u8]> {
        self.tables.get(stacks as usize)?.as_ref().map(Table::bytes)
    }

    /// The stored byte of `pos` (not finished): plies to the end, odd for a win of the side
    /// to move; `None` when no table holds its number of stacks.
    #[inline]
    pub fn probe_plies(&self, pos: &Position) -> Option<u8> {
        if pos.is_game_over() {
            return None;
        }
        let table = self.tables.get(pos.occupied().count_ones() as usize)?.as_ref()?;
        let byte = table.bytes()[table.layout.index(&Canonical::of(pos)) as usize];
        (byte != 0).then_some(byte)
    }

    /// The exact value of `pos` from the side to move's point of view, if a table holds it.
    pub fn probe(&self, pos: &Position) -> Option<TableValue> {
        let plies = u32::from(self.probe_plies(pos)?);
        let outcome = if plies % 2 == 1 { Outcome::Win } else { Outcome::Loss };
        Some(TableValue { outcome, plies })
    }
}

/// The tables the engine uses, and the most stacks among them (0: none, so that [`probe`]
/// returns at once).
static INSTALLED: RwLock<Option<Arc<Tables>>> = RwLock::new(None);
static INSTALLED_MAX: AtomicU32 = AtomicU32::new(0);

/// Makes `tables` the ones [`probe`] reads (`None`: none).
pub fn install(tables: Option<Tables>) {
    let max = tables.as_ref().and_then(|t| t.stacks().last().copied()).unwrap_or(0);
    let mut slot = INSTALLED.write().unwrap_or_else(|e| e.into_inner());
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
    if pos.occupied().count_ones() > INSTALLED_MAX.load(Relaxed) {
        return None;
    }
    INSTALLED.read().ok()?.as_ref()?.probe(pos)
}

/// What building one table did.
#[derive(Clone, Debug)]
pub struct BuiltTable {
    /// The number of stacks.
    pub stacks: u32,
    /// The number of entries (positions, legal or not).
    pub entries: u64,
    /// The legal positions (non-zero entries).
    pub positions: u64,
    /// The wins of the side to move among them.
    pub wins: u64,
    /// The longest distance, in plies.
    pub longest: u32,
    /// Seconds spent (0 when the file was there and kept).
    pub seconds: f64,
    /// False when a valid file was already there and was kept.
    pub built: bool,
}

impl BuiltTable {
    fn of(stacks: u32, entries: &[u8], seconds: f64, built: bool) -> BuiltTable {
        let positions = entries.iter().filter(|&&b| b != 0).count() as u64;
        let wins = entries.iter().filter(|&&b| b % 2 == 1).count() as u64;
        let longest = entries.iter().copied().max().unwrap_or(0).into();
        BuiltTable { stacks, entries: entries.len() as u64, positions, wins, longest, seconds, built }
    }
}

/// Builds the tables of 2 to `max` stacks into `dir` on `threads` threads, keeping those
/// already there that pass their checks (a faulty one is built again). `report` is told of each
/// table when it is done; `progress(stacks, done, total)` now and then while one is built.
pub fn build_all(
    dir: &Path,
    max: u32,
    threads: usize,
    progress: &(dyn Fn(u32, u64, u64) + Sync),
    report: &mut dyn FnMut(&BuiltTable),
) -> Result<Tables, String> {
    if !(2..=index::MAX_STACKS).contains(&max) {
        return Err(format!("--max-stacks {max}: tables have 2 to {} stacks", index::MAX_STACKS));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("{}: cannot create the directory: {e}", dir.display()))?;
    let mut tables = Tables::new();
    for stacks in 2..=max {
        let path = dir.join(tablebase::file_name(GAME, stacks));
        if let Ok(table) = MappedTable::open(&path, &header(stacks)) {
            report(&BuiltTable::of(stacks, table.entries(), 0.0, false));
            tables.insert(stacks, Entries::Mapped(table));
            continue;
        }
        let started = std::time::Instant::now();
        let entries =
            build::build_table(stacks, &tables, threads, &|done, total| progress(stacks, done, total))?;
        tablebase::write_table(&path, &header(stacks), &entries)?;
        report(&BuiltTable::of(stacks, &entries, started.elapsed().as_secs_f64(), true));
        let mapped = MappedTable::open(&path, &header(stacks))?;
        tables.insert(stacks, Entries::Mapped(mapped));
    }
    Ok(tables)
}

/// `win N` / `loss N` in the side to move's own moves, as the EPD files and `solve` write them.
pub fn value_text(value: TableValue) -> String {
    match value.outcome {
        Outcome::Win => format!("win {}", value.plies.div_ceil(2)),
        Outcome::Loss => format!("loss {}", value.plies / 2),
        Outcome::Draw => "draw".into(),
    }
}

/// The Impasse tables as the tools and the protocol reach them (through the variant registry).
pub const FAMILY: tablebase::TableFamily =
    tablebase::TableFamily { game: GAME, build: build_command, install: install_dir, probe: probe_command };

fn build_command(request: &tablebase::BuildRequest<'_>, say: &mut dyn FnMut(String)) -> Result<(), String> {
    let mut report = |t: &BuiltTable| {
        say(format!(
            "table {} stacks: {} entries, {} positions, {} wins for the side to move, longest {} plies, {}",
            t.stacks,
            t.entries,
            t.positions,
            t.wins,
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
    let (tables, warnings) = Tables::open(dir, index::MAX_STACKS);
    let stacks = tables.stacks();
    install((!stacks.is_empty()).then_some(tables));
    let found = match (stacks.first(), stacks.last()) {
        (Some(a), Some(b)) => format!("{GAME}: tables of {a} to {b} stacks"),
        _ => format!("{GAME}: no tables in {}", dir.display()),
    };
    if warnings.is_empty() { Ok(found) } else { Err(format!("{} ({found})", warnings.join("; "))) }
}

/// The tables of `dir`: the installed ones when they come from there (the GUI asks for every
/// position it analyses, and opening checks every file, seconds for the 6-stack table), else
/// opened now, refusing a faulty file.
fn opened(dir: &Path) -> Result<Arc<Tables>, String> {
    if let Some(tables) = installed().filter(|t| t.dir.as_deref() == Some(dir)) {
        return Ok(tables);
    }
    let (tables, warnings) = Tables::open(dir, index::MAX_STACKS);
    match warnings.into_iter().next() {
        Some(w) => Err(w),
        None => Ok(Arc::new(tables)),
    }
}

/// `steere tb probe`: the value of `fen` and of each of its moves, one line each.
fn probe_command(dir: &Path, fen: &str) -> Result<Vec<String>, String> {
    let pos = Position::from_fen(fen).map_err(|e| format!("--fen: {e}"))?;
    let tables = opened(dir)?;
    if pos.is_game_over() {
        return Ok(vec!["value loss 0 (the game is over)".into()]);
    }
    let stacks = pos.occupied().count_ones();
    let value = tables.probe(&pos).ok_or_else(|| {
        format!("no table of {stacks} stacks in {} (build it with steere tb build)", dir.display())
    })?;
    let mut lines = vec![format!("value {}", value_text(value))];
    let mut moves: Vec<(String, String)> = pos
        .legal_moves()
        .as_ref()
        .iter()
        .map(|&mv| {
            let child = pos.make_move(mv);
            let text = if child.is_game_over() {
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
