//! The game records of a match: one design, two encodings. The referee's [`Log`] of a game is
//! written down by a [`MatchRecord`], which also reads its file back (`--resume`, the GUI),
//! checks a resumed game against the schedule and replays a game with the rules:
//! - [`pgn`]: the PGN-like text of two-player games without chance (board games);
//! - [`jsonl`]: one JSON object per line, dice included (dice games).
//!
//! The two file formats are documented in docs/matches.md and read by the GUI; they differ
//! because their games do (a board game's moves carry the engine's depth and score and are
//! read by people, a dice game's events are mostly rolls), not their code's shape.

pub mod jsonl;
pub mod pgn;

pub use super::referee::Category;
pub use pgn::{
    GameRecord, Movetext, ParsedGame, PlayedMove, Replayed, movetext, parse_records, parse_tag, write_tag,
};

use super::referee::{Log, timing::MoveTiming};
use crate::game::{RuleOption, Rules};
use crate::variants::Variant;

/// What the tally counts of a finished game, in every encoding.
#[derive(Clone, Copy, Debug)]
pub struct Outcome<'a> {
    /// The deal (opening pair, dice stream), from 0.
    pub deal: u64,
    /// The seat rotation within it, from 0.
    pub rotation: usize,
    /// The winner's seat; `None` for a draw, an unfinished game, a forfeit with no winner.
    pub winner: Option<usize>,
    /// How the game ended (`None` for an unknown label).
    pub category: Option<Category>,
    /// The seat that forfeited, if one did.
    pub forfeit: Option<usize>,
    /// Steps played (moves; dice games: rolls and decisions).
    pub steps: u64,
    /// Turns completed (a board game's turn is one move).
    pub turns: u64,
    /// The timing of every decision under a clock or move time, by seat.
    pub timings: &'a [(usize, MoveTiming)],
}

/// What the schedule gives game `number`, which a record of it in a resumed file must show.
#[derive(Clone, Debug)]
pub struct Expected {
    /// The variant's name.
    pub variant: &'static str,
    /// The number of players.
    pub players: usize,
    /// The deal (opening pair, dice stream), from 0.
    pub deal: u64,
    /// The seat rotation within it, from 0.
    pub rotation: usize,
    /// The seed of the deal's dice stream.
    pub dice_seed: u64,
    /// The start position's text.
    pub start: String,
    /// The settings of each seat's engine, seat 0 first.
    pub settings: Vec<String>,
    /// The rule options of the match, every one of the variant's with its value.
    pub options: Vec<(&'static RuleOption, &'static str)>,
}

/// A finished game in a record file's encoding.
pub trait MatchRecord: Sized + Send {
    /// How every record of the file begins, which `--resume` looks for to drop a last record
    /// cut short.
    const START: &'static str;

    /// The record of the game the referee played, of `variant` (its rule options included)
    /// with the rules of `G`.
    fn from_log<G: Rules>(variant: Variant<G>, log: Log) -> Self;

    /// The record's text, appended as it is to the record file.
    fn text(&self) -> String;

    /// The game's number in the schedule, from 0 (`None` for a record without one).
    fn number(&self) -> Option<u64>;

    /// What the tally counts of it.
    fn outcome(&self) -> Outcome<'_>;

    /// The finished games of a record file of a match of `variant`, as `--resume` counts them.
    fn read(text: &str, variant: &'static str) -> Result<Vec<Self>, String>;

    /// Whether the game is the one the schedule gives its number; the error names what differs.
    fn check(&self, expected: &Expected) -> Result<(), String>;
}
