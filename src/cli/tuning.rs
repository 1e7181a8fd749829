//! The arguments of `steere selfplay` and `steere tune` (the tools are `crate::tools::selfplay`
//! and `crate::tools::tune`; the loop is described in docs/tuning.md).

use crate::variants;
use std::path::PathBuf;

/// `steere selfplay`: games of the engine against itself, written as training positions.
#[derive(clap::Args, Clone, Debug)]
#[command(group(clap::ArgGroup::new("limit").args(["depth", "nodes"]).required(true)))]
pub struct SelfplayArgs {
    /// The board game (see `steere variants`).
    #[arg(long, default_value = variants::DEFAULT_VARIANT)]
    pub variant: String,
    /// Games to play.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub games: u64,
    /// Search every move to this depth (one thread, deterministic).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Search every move for this many nodes (one thread, deterministic).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub nodes: Option<u64>,
    /// Games played at once, one thread each (the output does not depend on it).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: u32,
    /// The openings, one FEN per line (default: the variant's book of `steere match`). Game k
    /// starts from opening k modulo their number.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Uniformly random plies played after the opening (seeded by --seed and the game's
    /// number), so that games from one opening differ.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub random_plies: u32,
    /// Seed of the random plies.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The transposition table of each game, in MiB.
    #[arg(long = "hash", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub hash: u32,
    /// The file to write (one position per line, see docs/tuning.md).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

impl SelfplayArgs {
    /// The command that regenerates exactly this file (every setting spelled out).
    pub fn command_line(&self) -> String {
        let limit = match (self.depth, self.nodes) {
            (Some(d), _) => format!("--depth {d}"),
            (None, Some(n)) => format!("--nodes {n}"),
            (None, None) => String::new(),
        };
        let openings =
            self.openings.as_ref().map(|p| format!(" --openings {}", p.display())).unwrap_or_default();
        format!(
            "steere selfplay --variant {} --games {} {limit}{openings} --random-plies {} --seed {} --hash {} --out {}",
            self.variant,
            self.games,
            self.random_plies,
            self.seed,
            self.hash,
            self.out.display()
        )
    }
}

/// `steere tune`: fit the evaluation's weights to the results of games.
#[derive(clap::Args, Clone, Debug)]
pub struct TuneArgs {
    /// The board game (see `steere variants`).
    #[arg(long, default_value = variants::DEFAULT_VARIANT)]
    pub variant: String,
    /// Training positions, as `steere selfplay` writes them (repeatable: the files are joined).
    #[arg(long, value_name = "FILE", required = true)]
    pub data: Vec<PathBuf>,
    /// Full passes of gradient descent (Adam) over the training positions.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub epochs: u32,
    /// The step size of Adam, in units of the evaluation (it decays to a tenth by the end).
    #[arg(long, default_value_t = 2.0)]
    pub rate: f64,
    /// The weight of the game's result in each position's target, against the search score's
    /// win probability (1: results only; 0.5: half each).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Discount each result by how far its position is from the game's end: the result's
    /// distance from a draw is halved every N positions before the game's last recorded one
    /// (0: no discount). A fit to discounted results values a near win above a far one.
    #[arg(long, value_name = "N", default_value_t = 0.0)]
    pub discount: f64,
    /// Use this scale (evaluation units per unit of the logistic) instead of fitting it to the
    /// current weights.
    #[arg(long)]
    pub scale: Option<f64>,
    /// Percent of the games (all their positions) held out of training to measure the fit.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub holdout: u32,
    /// Features whose weights stay as they are (names as the report prints them; repeatable).
    #[arg(long, value_name = "NAME")]
    pub freeze: Vec<String>,
    /// Write the fitted weights over the game's own weights file (run from the repository's
    /// root: the path is src/GAME/...); the next build uses them.
    #[arg(long)]
    pub write: bool,
    /// Write the weights file here instead (or as well).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl TuneArgs {
    /// The command as given, for the generated file's header.
    pub fn command_line(&self) -> String {
        let mut text = format!("steere tune --variant {}", self.variant);
        for file in &self.data {
            text.push_str(&format!(" --data {}", file.display()));
        }
        text.push_str(&format!(
            " --epochs {} --rate {} --lambda {} --holdout {}",
            self.epochs, self.rate, self.lambda, self.holdout
        ));
        if self.discount > 0.0 {
            text.push_str(&format!(" --discount {}", self.discount));
        }
        if let Some(scale) = self.scale {
            text.push_str(&format!(" --scale {scale}"));
        }
        for name in &self.freeze {
            text.push_str(&format!(" --freeze {name}"));
        }
        text
    }
}
