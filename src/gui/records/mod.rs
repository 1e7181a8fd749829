//! The records the GUI saves and opens, one file per format:
//! - [`runner`]: a board game in the match runner's PGN-like format (docs/matches.md);
//! - [`dice`]: a dice game in the GUI's own format, PGN-like too, with the seed of its dice;
//! - [`dice_lines`]: `steere match`'s dice records (one JSON object per line), opened only.
//!
//! A game reaches a format as a [`Saved`] and comes back from one as an [`Opened`]: the formats
//! know no game table, and the table ([`super::games`]) opens every record the same way.

mod dice;
mod dice_lines;
mod runner;

use super::view::{SEARCH, View};
use crate::variants::Family;
use serde::{Deserialize, Serialize};

/// One step of a game (a move, a decision or a roll), with what its engine said of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Played {
    /// The step's text.
    pub text: String,
    /// The engine's last depth, for an engine's step.
    pub depth: Option<u32>,
    /// The engine's last score (`cp 35`, `mate 3`), for an engine's step.
    pub score: Option<String>,
    /// How long the step's player took over it, in milliseconds (none for a roll, or a
    /// record's step without a time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub millis: Option<u64>,
}

impl Played {
    /// A step nobody said anything of: a person's, or a roll.
    pub fn bare(text: &str) -> Played {
        Played { text: text.to_string(), depth: None, score: None, millis: None }
    }
}

/// One seat of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// `human` or an engine's name.
    pub player: String,
    /// An engine seat's strategy in a dice game (`search`, the default, or one of the game's
    /// fixed players); always `None` for a person and in a board game.
    #[serde(default)]
    pub strategy: Option<String>,
    /// An engine seat's strength level (`Skill Level` 0 to 8, docs/levels.md); `None` for
    /// full strength and for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
}

impl Seat {
    /// A person at the page.
    pub fn human() -> Seat {
        Seat { player: "human".to_string(), strategy: None, level: None }
    }

    /// Whether a person sits here.
    pub fn is_human(&self) -> bool {
        self.player == "human"
    }

    /// `steere`, `steere (greedy)` or `steere (level 3)`, for messages and records.
    pub fn label(&self) -> String {
        let mut notes = Vec::new();
        if let Some(strategy) = self.strategy.as_deref().filter(|&s| s != SEARCH) {
            notes.push(strategy.to_string());
        }
        if let Some(level) = self.level {
            notes.push(format!("level {level}"));
        }
        if notes.is_empty() { self.player.clone() } else { format!("{} ({})", self.player, notes.join(", ")) }
    }
}

/// A game as a record is written from it.
pub struct Saved<'a> {
    /// The variant.
    pub variant: &'static str,
    /// The rule options that differ from the variant's defaults.
    pub options: &'a [(String, String)],
    /// The start position.
    pub start: &'a str,
    /// The seed of the dice.
    pub seed: u64,
    /// Who sits in each seat.
    pub seats: &'a [Seat],
    /// The engines' time per move.
    pub movetime: u64,
    /// The steps played.
    pub steps: &'a [Played],
    /// The seat that lost on time, if one did.
    pub time_loss: Option<usize>,
    /// How the game ended, if it ended beside its moves ([`Ending`]).
    pub ending: Option<&'a Ending>,
    /// The position after the steps.
    pub view: View,
}

/// A game read from a record, to be opened as a new game between people.
pub struct Opened {
    /// The variant.
    pub variant: String,
    /// The rule options the game was played under (those that differ from the defaults).
    pub options: Vec<(String, String)>,
    /// The start position (`None`: the variant's).
    pub fen: Option<String>,
    /// The seed of the dice (`None`: drawn from the clock).
    pub seed: Option<u64>,
    /// The steps, with the recorded depths and scores.
    pub steps: Vec<Played>,
    /// How the game ended where no replay can see it (a draw by the match runner's cap, a
    /// resignation, a draw agreed): the game stays ended after its last move until the moves
    /// change.
    pub ending: Option<Ending>,
}

/// An end of a game that the rules do not see in its moves: it is kept beside them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A draw by the match runner's cap for endless games, with its detail
    /// (`draw cap: DETAIL` in a record).
    DrawCap(String),
    /// The players agreed a draw (where the rules allow one).
    Agreement,
    /// The seat (from 0) resigned: the other side wins.
    Resignation(usize),
}

/// The game as a record in its family's format.
pub fn write(game: &Saved) -> String {
    match game.view.family {
        Family::Board => runner::write(game),
        Family::Dice => dice::write(game),
    }
}

/// Game `index` (from 0) of a record file, checked with the rules, and a title for every game
/// of the file. The format is told by the text: JSON lines are `steere match`'s dice records
/// (board records are never JSON), a `Variant` tag naming a dice game the GUI's dice record,
/// anything else the match runner's.
pub fn open(text: &str, index: usize) -> Result<(Opened, Vec<String>), String> {
    let first = text.lines().map(str::trim).find(|line| !line.is_empty()).unwrap_or("");
    if first.starts_with('{') {
        dice_lines::open(text, index)
    } else if dice::variant_of(text).is_some_and(|variant| crate::variants::is_dice_game(&variant)) {
        dice::open(text)
    } else {
        runner::open(text, index)
    }
}

/// The depth and score of a record's step comment, `{0.004s d4 cp18}` (scores as `cp 18`,
/// `mate -3`).
fn read_comment(comment: &str) -> (Option<u32>, Option<String>) {
    let (mut depth, mut score) = (None, None);
    for word in comment.split_whitespace() {
        if let Some(d) = word.strip_prefix('d').and_then(|d| d.parse().ok()) {
            depth = Some(d);
        } else if let Some(v) = word.strip_prefix("cp").filter(|v| v.parse::<i64>().is_ok()) {
            score = Some(format!("cp {v}"));
        } else if let Some(v) = word.strip_prefix("mate").filter(|v| v.parse::<i64>().is_ok()) {
            score = Some(format!("mate {v}"));
        }
    }
    (depth, score)
}

/// The time of a record's step comment, `{0.004s d4 cp18}`, in milliseconds.
fn read_time(comment: &str) -> Option<u64> {
    let seconds: f64 = comment.split_whitespace().find_map(|w| w.strip_suffix('s')?.parse().ok())?;
    (seconds.is_finite() && seconds >= 0.0).then(|| (seconds * 1000.0).round() as u64)
}

/// A step and its comment (if any) as the game keeps it.
fn played(text: &str, comment: Option<&str>) -> Played {
    let (depth, score) = comment.map(read_comment).unwrap_or_default();
    let millis = comment.and_then(read_time);
    Played { text: text.to_string(), depth, score, millis }
}
