//! `steere match`: engine-vs-engine matches with the rules code as referee, Elo and SPRT, for
//! every game of the registry: a board game is the case of two seats and no chance.
//!
//! The rooms, each a folder:
//! - [`runner`]: the match itself: the schedule (game `g` is deal `g / N` in seat rotation
//!   `g % N`), the game slots and main thread ([`runner::driver`]), `--shard`, `--resume`, the
//!   fingerprint, the shards' merge, SIGINT/SIGTERM, the report file;
//! - [`referee`]: one game, every step of the engines checked by the rules
//!   ([`crate::game::Rules`]), the dice drawn from the game's stream, the draw caps and the turn
//!   limit; the move asked of an engine under its clock ([`referee::ask`]);
//! - [`record`]: the game record in its two encodings, PGN-like for two-player games without
//!   chance and JSON lines for dice games, written, read back and replayed;
//! - [`report`]: the tally, the progress line, the table and the JSON: the pentanomial, Elo, LOS
//!   and SPRT of two players, per-seat counts for more ([`report::stats`]).
//!
//! The engine processes, specs and clocks are the client's ([`crate::client`]); the arguments
//! are the command line's ([`crate::cli::matches`]). This file holds the one dispatch to the
//! variant's game type.

pub mod record;
pub mod referee;
pub mod report;
pub mod runner;

pub use report::stats;
pub use runner::interrupt;

pub use crate::cli::matches::{DiceArgs, MatchAction, MatchArgs};

/// The paths the GUI and the tests knew before the rooms: the referee's draw cap.
pub mod game {
    pub use super::referee::DrawCap;
}

/// The paths the GUI and the tests knew before the rooms: the dice games' record.
pub mod dice {
    /// The JSON-lines record of a dice game ([`crate::tools::matches::record::jsonl`]).
    pub mod record {
        pub use super::super::record::jsonl::{DiceRecord, parse_dice_records};
    }
}

/// The most pairs a match with `--sprt` and no `--games`/`--rounds` plays before giving up.
pub const MAX_SPRT_PAIRS: u64 = 1_000_000;

/// Runs a match, or `steere match merge`; progress goes to stderr, the summary to stdout.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    if let Some(MatchAction::Merge(merge)) = &args.action {
        return runner::shards::run_merge(merge).map_err(|e| format!("match merge: {e}"));
    }
    runner::check_shard_resume(args)?;
    crate::with_variant!(&args.variant, |variant, search| {
        let variant = variant.with_options(&args.option).map_err(|e| format!("--option: {e}"))?;
        runner::run_match(variant, search, args)
    })
    .map_err(|e| format!("--variant: {e}"))?
}
