//! The arguments of `steere solve` (the solver is `crate::tools::solve`).

use std::path::PathBuf;

/// The arguments of `steere solve`.
#[derive(clap::Args, Clone, Debug)]
#[command(group(clap::ArgGroup::new("limit").args(["movetime", "depth", "nodes"])))]
pub struct SolveArgs {
    /// The EPD file of test positions (for example positions/endgames-impasse.epd).
    pub file: PathBuf,
    /// The game of the lines before any `# variant: NAME` line (default: impasse).
    #[arg(long)]
    pub variant: Option<String>,
    /// Search each position for this many milliseconds (with no limit at all: prove each).
    #[arg(short, long)]
    pub movetime: Option<u64>,
    /// Search each position this many plies deep (1 to 120).
    #[arg(short, long, value_parser = clap::value_parser!(u32).range(1..=120))]
    pub depth: Option<u32>,
    /// Search about this many nodes per position.
    #[arg(short, long)]
    pub nodes: Option<u64>,
    /// Search until every result is proven with its exact length (selective pruning off). The
    /// default when no limit is given; with a limit, the limit caps each search.
    #[arg(long)]
    pub prove: bool,
    /// The directory of endgame tables to probe (built by `steere tb build`): positions they
    /// hold are known at once, and so is every line that reaches them.
    #[arg(long)]
    pub tables: Option<PathBuf>,
    /// Search threads per position (Lazy SMP).
    #[arg(short, long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Positions solved at the same time, each by its own searcher (output stays in file order).
    #[arg(short, long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: u32,
    /// Size of each searcher's transposition (hash) table in MiB.
    #[arg(long = "hash", default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=crate::search::MAX_HASH_MIB as i64))]
    pub hash: u32,
    /// How proving mode proves: `alphabeta` (iterative deepening, full width) or `dfpn`
    /// (proof-number search for the outcome, then alpha-beta for the exact length).
    #[arg(long, value_enum, default_value_t = Prover::Alphabeta)]
    pub prover: Prover,
}

/// The prover of `steere solve --prove` (see docs/solve.md for the measurements behind the
/// default).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Prover {
    /// Full-width alpha-beta, deepened until the result is exact.
    #[default]
    Alphabeta,
    /// Df-pn decides win, loss or neither; alpha-beta then finds the exact length.
    Dfpn,
}
