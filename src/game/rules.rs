//! The [`Rules`] trait: what the tools and the protocol need of a game beyond the search's
//! [`Game`]: its start position, position and move text with clear errors, a bulk move count
//! for perft, the player to move and a board diagram.
//!
//! Every tool (perft, analyse, bench, solve, match, book) and the protocol are written once,
//! generically over `Rules`, and reached through the variant registry (`crate::variants`), the
//! only place that names the games. A game type may serve several variants (Dipole on 8x8 and
//! 10x10): what tells them apart is its [`Rules::Setup`], handed to the constructors.

use super::{Game, Outcome};
use std::fmt::{self, Debug};
use std::hash::Hash;

/// A player, by the order of play: `P1` moves first (White in Impasse and Dipole).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who moves first from the start position.
    P1,
    /// The other player.
    P2,
}

impl Player {
    /// Both players, in the order of play.
    pub const BOTH: [Player; 2] = [Player::P1, Player::P2];

    /// The other player.
    pub const fn opponent(self) -> Player {
        match self {
            Player::P1 => Player::P2,
            Player::P2 => Player::P1,
        }
    }

    /// 0 for `P1`, 1 for `P2`.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Why a move text was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextError {
    /// Not a move of the game's notation at all; `reason` says what is wrong.
    Malformed { text: String, reason: String },
    /// Well formed, but no legal move of the position has this text; `hint` is empty or starts
    /// with a space and says what would have been legal (`" (the game is over)"`).
    Illegal { text: String, hint: String },
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveTextError::Malformed { text, reason } => write!(f, "malformed move '{text}': {reason}"),
            MoveTextError::Illegal { text, hint } => {
                write!(f, "illegal move '{text}' in this position{hint}")
            }
        }
    }
}

impl std::error::Error for MoveTextError {}

/// A game as the tools see it: the search's [`Game`] plus text in and out.
pub trait Rules: Game + Eq + Hash {
    /// What tells apart the variants this type plays (`()` for a game with one).
    type Setup: Copy + Send + Sync + Debug + 'static;

    /// The names of the players as the game calls them, `P1` first (`["white", "black"]`).
    const PLAYER_NAMES: [&'static str; 2];
    /// The number of space-separated fields of a position text, so that an EPD line can tell
    /// where the position ends and its operations begin.
    const FEN_FIELDS: usize;
    /// What [`Game::evaluate`] counts, for help texts and reports ("hundredths of a checker").
    const EVAL_UNIT: &'static str;

    /// The start position.
    fn start(setup: Self::Setup) -> Self;
    /// The position written as `text`, or a one-line reason why it is not one.
    fn parse_fen(setup: Self::Setup, text: &str) -> Result<Self, String>;
    /// The position's text, which [`Rules::parse_fen`] reads back to the same position.
    fn fen(&self) -> String;
    /// The legal move written as `text`.
    fn parse_move_text(&self, text: &str) -> Result<Self::Move, MoveTextError>;
    /// The number of legal moves, counted without making them (perft's last ply).
    fn count_moves(&self) -> u64;
    /// The player to move (in a finished game: the one who would move next).
    fn to_move(&self) -> Player;
    /// The board as text, one line per row, with coordinates (the protocol's `d`).
    fn diagram(&self) -> Vec<String>;
    /// One line on how a finished game ended (`white has won: black has no checkers left`);
    /// `None` while it goes on.
    fn ending(&self) -> Option<String> {
        result_text(self)
    }
}

/// The winner of a finished game, `None` while it goes on (or after a draw).
pub fn winner<G: Rules>(pos: &G) -> Option<Player> {
    match pos.outcome()? {
        Outcome::Win => Some(pos.to_move()),
        Outcome::Loss => Some(pos.to_move().opponent()),
        Outcome::Draw => None,
    }
}

/// The name of `player` in game `G`.
pub fn player_name<G: Rules>(player: Player) -> &'static str {
    G::PLAYER_NAMES[player.index()]
}

/// One line on a finished game, `None` while it goes on: `white has won` or `draw`.
pub fn result_text<G: Rules>(pos: &G) -> Option<String> {
    pos.outcome()?;
    Some(match winner(pos) {
        Some(player) => format!("{} has won", player_name::<G>(player)),
        None => "draw".to_string(),
    })
}

/// The texts of the legal moves, sorted.
pub fn sorted_move_texts<G: Rules>(pos: &G) -> Vec<String> {
    let mut moves: Vec<String> = pos.legal_moves().as_ref().iter().map(ToString::to_string).collect();
    moves.sort();
    moves
}
