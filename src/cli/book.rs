//! The arguments of `steere book` (the generator is `crate::tools::book`).

use crate::variants;
use std::path::PathBuf;

/// `steere book`: generate an opening book.
#[derive(clap::Args, Clone, Debug)]
pub struct BookArgs {
    /// The game (see `steere variants`).
    #[arg(long, default_value = variants::DEFAULT_VARIANT)]
    pub variant: String,
    /// Random plies from the start position to each opening.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=40))]
    pub plies: u32,
    /// Openings to write.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub count: u64,
    /// Seed of the random walks.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Depth of the balance search (one thread, deterministic).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// Keep positions whose search score is within +-this many hundredths of a checker.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(0..=20_000))]
    pub max_score: u32,
    /// Threads searching candidates in parallel (the output does not depend on it).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Write the book to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl BookArgs {
    /// The command that regenerates exactly this book (every setting spelled out).
    pub fn command_line(&self) -> String {
        format!(
            "steere book --variant {} --plies {} --count {} --seed {} --depth {} --max-score {}",
            self.variant, self.plies, self.count, self.seed, self.depth, self.max_score
        )
    }
}
