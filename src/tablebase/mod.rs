//! Endgame tables, the frame every game's tables share: the file format ([`file`]) and the
//! exact value a table gives the search ([`crate::game::TableValue`]).
//!
//! Each game builds and indexes its own tables in its room (Impasse: `src/impasse/tablebase/`);
//! the search asks for a position's value through [`crate::game::Game::probe_tables`], and the
//! tools load and build them through the variant registry, so that nothing here names a game.

pub mod file;

pub use file::{MappedTable, TableHeader, checksum, write_table};

/// The file name of table `table` of `game` in a tables directory: `impasse-5.stb`.
pub fn file_name(game: &str, table: u32) -> String {
    format!("{game}-{table}.stb")
}

/// What `steere tb build` asks of a game.
pub struct BuildRequest<'a> {
    /// The directory of the files.
    pub dir: &'a std::path::Path,
    /// The largest table.
    pub max: u32,
    /// Threads.
    pub threads: usize,
    /// Told `(table, done, total)` now and then while a table is built.
    pub progress: &'a (dyn Fn(u32, u64, u64) + Sync),
}

/// A table builder: the request, and a sink told one line per table.
pub type BuildFn = fn(&BuildRequest<'_>, &mut dyn FnMut(String)) -> Result<(), String>;

/// A game's tables as the tools reach them: one entry per game in the variant registry.
pub struct TableFamily {
    /// The game's name (its variant's).
    pub game: &'static str,
    /// Builds the tables, saying one line per table.
    pub build: BuildFn,
    /// Makes the tables of a directory the ones the search probes (`None`: none); the summary
    /// of what was found, or a one-line warning (the valid tables are installed anyway).
    pub install: fn(Option<&std::path::Path>) -> Result<String, String>,
    /// The value of a FEN and of each of its moves, from the tables of a directory.
    pub probe: fn(&std::path::Path, &str) -> Result<Vec<String>, String>,
}
