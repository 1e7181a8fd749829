//! The arguments of `steere calibrate` (the ladder and the fit are `crate::tools::calibrate`).

use crate::variants;
use std::path::PathBuf;

/// `steere calibrate`: measure the Elo of every strength level of a variant.
#[derive(clap::Args, Clone, Debug)]
pub struct CalibrateArgs {
    /// The game (see `steere variants`).
    #[arg(long, default_value = variants::DEFAULT_VARIANT)]
    pub variant: String,
    /// Games per neighbouring pair of the ladder (an even number: openings are played twice).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(2..=100_000))]
    pub games: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
    /// The search limit of every move, the `steere match` engine setting that full strength plays
    /// at (default: the full-strength row of positions/levels-VARIANT.txt, e.g. nodes=30000 for
    /// Impasse, depth=3 for Can't Stop). The weakened levels search less, by their own budgets.
    #[arg(long, value_name = "KEY=VALUE")]
    pub top: Option<String>,
    /// Play the levels of this file instead of the compiled-in positions/levels-VARIANT.txt (to
    /// try new parameters without a rebuild; the engines read it from STEERE_LEVELS). --write then
    /// writes this file's parameters with the measured Elos.
    #[arg(long, value_name = "FILE")]
    pub levels: Option<PathBuf>,
    /// The engine command whose levels are measured (default: this steere).
    #[arg(long, value_name = "CMD")]
    pub engine: Option<PathBuf>,
    /// Write the variant's levels file with the measured Elos to FILE (the parameters are this
    /// program's; positions/levels-VARIANT.txt is the file compiled in, which UCI_Elo reads).
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
    /// Keep each match's JSON report in this folder (default: a temporary one, removed).
    #[arg(long, value_name = "DIR")]
    pub keep: Option<PathBuf>,
}
