//! The [`ChanceGame`] trait: what the chance-node search (`crate::chance`) and the tools know of
//! a game with dice and several players, in which turns are not single moves.
//!
//! Such a game is a sequence of steps of three kinds, and every position says which comes
//! next ([`Node`], from [`Rules`]): a chance event (the dice; its outcomes have integer weights),
//! a decision of the player to move, or nothing (the game is over). A turn is a run of events of one player
//! ending where [`ChanceGame::is_turn_start`] holds again. The search weighs the rest of the
//! current turn exactly and asks the game for the value of the position where it ends; it
//! never learns what the chance events are (dice, cards) nor how a turn works.

use super::Rules;

/// A game with chance events, 1 to 4 players and turns of several events, as the chance-node
/// search sees it: the tool-facing [`Rules`] (nodes, steps, chance outcomes with their weights,
/// the player whose turn it is) plus what only this search asks.
pub trait ChanceGame: Rules {
    /// The decisions of the player to move (empty unless [`Node::Decision`]), sorted.
    fn decisions(&self) -> Vec<Self::Step>;
    /// Whether a turn starts here (or the game is over): the search's horizon.
    fn is_turn_start(&self) -> bool;
    /// What the position is worth to `player` (higher is better) at the start of a turn or at
    /// the end of the game: his chance of winning with several players, the negated expected
    /// number of turns he still needs alone. Its scale is the game's.
    fn value(&self, player: usize) -> f64;
}

/// What the dice tools need of a chance game beyond [`Rules`] and [`ChanceGame`]: its
/// solitaire form, its odds and its fixed players.
pub trait ChanceRules: ChanceGame {
    /// The one-player start under `params`' rule options (its players aside), if the game has
    /// a solitaire form (for studies of strategies).
    fn solitaire(params: Self::Params) -> Option<Self>;
    /// The lines of `steere odds`: the exact chances of the next chance event and what each
    /// decision of the player to move leads to.
    fn odds(&self) -> Vec<String>;
    /// The names of the game's built-in fixed players (baselines for matches).
    const FIXED_PLAYERS: &'static [&'static str];
    /// The decision of the fixed player `name` (one of [`ChanceRules::FIXED_PLAYERS`]) here, with
    /// `seed` for a player that draws at random; `None` where the player to move has none.
    fn fixed_player(&self, name: &str, seed: u64) -> Option<Self::Step>;
}
