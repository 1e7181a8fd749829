//! The arguments of `steere tb` (the tool is `crate::tools::tablebase`).

use std::path::PathBuf;

/// The directory of the tables when none is given.
pub const DEFAULT_DIR: &str = "tables";

/// What `steere tb` does.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum TbCommand {
    /// Build the endgame tables of a game up to a size, keeping the valid files already there.
    ///
    /// Prints one line per table (entries, legal positions, wins, longest distance, time) and
    /// the peak memory. Example: steere tb build --max-stacks 5 --threads 2
    Build(TbBuildArgs),
    /// Print the exact value of a position and of each of its moves from the tables.
    ///
    /// Example: steere tb probe --fen "8/8/8/8/8/2b5/1W6/8 b"
    Probe(TbProbeArgs),
}

/// The arguments of `steere tb build`.
#[derive(clap::Args, Clone, Debug)]
pub struct TbBuildArgs {
    /// The game (only impasse has tables so far).
    #[arg(long, default_value = "impasse")]
    pub variant: String,
    /// The most stacks (occupied squares, both sides) of a position in the tables: every
    /// table from 2 stacks to this one is built (2 to 8; 5 takes minutes, 6 about an hour).
    #[arg(long, default_value_t = 4)]
    pub max_stacks: u32,
    /// Threads (default: every core).
    #[arg(short, long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// The directory of the table files.
    #[arg(long, default_value = DEFAULT_DIR)]
    pub dir: PathBuf,
}

/// The arguments of `steere tb probe`.
#[derive(clap::Args, Clone, Debug)]
pub struct TbProbeArgs {
    /// The game.
    #[arg(long, default_value = "impasse")]
    pub variant: String,
    /// The position.
    #[arg(short, long)]
    pub fen: String,
    /// The directory of the table files.
    #[arg(long, default_value = DEFAULT_DIR)]
    pub dir: PathBuf,
}
