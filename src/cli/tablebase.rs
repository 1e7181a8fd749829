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
    /// the peak memory. Examples: steere tb build --variant impasse --max 5 --threads 2;
    /// steere tb build --variant hexdame --max 4 --threads 2
    Build(TbBuildArgs),
    /// Print the exact value of a position and of each of its moves from the tables.
    ///
    /// Examples: steere tb probe --fen "8/8/8/8/8/2b5/1W6/8 b";
    /// steere tb probe --variant hexdame --fen "W:Wc3:Bg7"
    Probe(TbProbeArgs),
}

/// The arguments of `steere tb build`.
#[derive(clap::Args, Clone, Debug)]
pub struct TbBuildArgs {
    /// The game: impasse or hexdame.
    #[arg(long, default_value = "impasse")]
    pub variant: String,
    /// The largest table: every table from 2 to N is built. Impasse: N stacks (occupied
    /// squares, both sides; 2 to 8; 5 takes under a minute, 6 about 22 minutes and 7 GiB on
    /// 2 cores). HexDame: N pieces (men and kings, both sides; 2 to 5; 4 takes minutes).
    #[arg(long = "max", visible_aliases = ["max-stacks", "max-pieces"], value_name = "N", default_value_t = 4)]
    pub max: u32,
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
    /// The game: impasse or hexdame.
    #[arg(long, default_value = "impasse")]
    pub variant: String,
    /// The position.
    #[arg(short, long)]
    pub fen: String,
    /// The directory of the table files.
    #[arg(long, default_value = DEFAULT_DIR)]
    pub dir: PathBuf,
}
