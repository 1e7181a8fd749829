//! The [`ChanceGame`] trait: what the chance-node search (`crate::chance`) and the tools know of
//! a game with dice and several players, in which turns are not single moves.
//!
//! Such a game is a sequence of events of three kinds, and every position says which comes
//! next ([`Node`]): a chance event (the dice; its outcomes have integer weights), a decision of
//! the player to move, or nothing (the game is over). A turn is a run of events of one player
//! ending where [`ChanceGame::is_turn_start`] holds again. The search weighs the rest of the
//! current turn exactly and asks the game for the value of the position where it ends; it
//! never learns what the chance events are (dice, cards) nor how a turn works.

use super::MoveTextError;
use std::fmt::{Debug, Display};
use std::hash::Hash;

/// What comes next in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// A chance event: one of the outcomes, by their weights.
    Chance,
    /// A decision of the player to move.
    Decision,
    /// Nothing: the game is over.
    Over,
}

/// A game with chance events, 1 to 4 players and turns of several events.
pub trait ChanceGame: Copy + Send + Sync + Debug + Eq + Hash + 'static {
    /// One event (a chance outcome or a decision); `Display` writes the game's notation.
    type Event: Copy + Eq + Ord + Send + Sync + Debug + Display + 'static;

    /// The number of players.
    fn players(&self) -> usize;
    /// The player to move, 0-based.
    fn to_move(&self) -> usize;
    /// What comes next.
    fn node(&self) -> Node;
    /// The winner (0-based) once the game is over.
    fn winner(&self) -> Option<usize>;
    /// The decisions of the player to move (empty unless [`Node::Decision`]), sorted.
    fn decisions(&self) -> Vec<Self::Event>;
    /// The distinct chance outcomes with their weights (empty unless [`Node::Chance`]).
    fn chance_outcomes(&self) -> Vec<(Self::Event, u32)>;
    /// The sum of the weights of the chance outcomes (1296 for four dice).
    fn chance_total(&self) -> u32;
    /// The chance event of the `index`-th of the [`ChanceGame::chance_total`] equally likely
    /// elementary outcomes: how a referee draws the dice from a random number.
    fn chance_event(&self, index: u32) -> Self::Event;
    /// The position after the legal `event`.
    fn play(&self, event: Self::Event) -> Self;
    /// Whether a turn starts here (or the game is over): the search's horizon.
    fn is_turn_start(&self) -> bool;
    /// What the position is worth to `player` (higher is better) at the start of a turn or at
    /// the end of the game: his chance of winning with several players, the negated expected
    /// number of turns he still needs alone. Its scale is the game's.
    fn value(&self, player: usize) -> f64;
}

/// What the tools and the protocol need of a chance game beyond the search's [`ChanceGame`]:
/// its start, position and event text with clear errors, and a diagram.
pub trait ChanceRules: ChanceGame {
    /// The fewest and the most players of a game.
    const PLAYERS: std::ops::RangeInclusive<usize>;
    /// The start of a game of `players` players (within [`ChanceRules::PLAYERS`]).
    fn start(players: usize) -> Self;
    /// Reads a position (FEN), with an error that names the problem.
    fn parse_fen(text: &str) -> Result<Self, String>;
    /// The position's FEN, canonical.
    fn fen(&self) -> String;
    /// Reads an event token and checks that it is legal here; the error tells text that is no
    /// event of the notation ([`MoveTextError::Malformed`]) from an event not legal here.
    fn parse_event(&self, text: &str) -> Result<Self::Event, MoveTextError>;
    /// Every legal event (chance outcomes and decisions alike), sorted as the rules list them.
    fn legal_events(&self) -> Vec<Self::Event>;
    /// A text diagram of the position, for `d`.
    fn diagram(&self) -> Vec<String>;
    /// The one-player start, if the game has a solitaire form (for studies of strategies).
    fn solitaire() -> Option<Self>;
    /// The lines of `steere odds`: the exact chances of the next chance event and what each
    /// decision of the player to move leads to.
    fn odds(&self) -> Vec<String>;
    /// The names of the game's built-in fixed players (baselines for matches).
    const FIXED_PLAYERS: &'static [&'static str];
    /// The decision of the fixed player `name` (one of [`ChanceRules::FIXED_PLAYERS`]) here, with
    /// `seed` for a player that draws at random; `None` where the player to move has none.
    fn fixed_player(&self, name: &str, seed: u64) -> Option<Self::Event>;
}
