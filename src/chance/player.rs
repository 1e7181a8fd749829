//! A player of a dice game: the search or one of the game's fixed players, behind one call,
//! so that the protocol, `steere analyse` and the solitaire study decide the same way.

use super::{ChanceSearch, Iteration, Limits};
use crate::game::ChanceRules;
use std::sync::atomic::AtomicBool;

/// The strategy name that searches (the default); any other is one of the game's fixed players.
pub const SEARCH: &str = "search";

/// A decision and how it was reached.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision<E> {
    /// The event chosen.
    pub event: E,
    /// The search's last completed depth, for a searching player.
    pub search: Option<Iteration<E>>,
}

/// The decision of `strategy` (`search` or a fixed player of the game) for the player to move
/// in `pos`; `None` when nobody decides there (a roll is due, or the game is over). The search
/// reports each completed depth to `report`.
pub fn decide<G: ChanceRules>(
    pos: &G,
    strategy: &str,
    seed: u64,
    limits: Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Iteration<G::Event>),
) -> Option<Decision<G::Event>> {
    if pos.decisions().is_empty() {
        return None;
    }
    if strategy != SEARCH {
        return pos.fixed_player(strategy, seed).map(|event| Decision { event, search: None });
    }
    let iteration = ChanceSearch::run(pos, limits, stop, report);
    // Not even one depth completed (stopped at once): the first decision, which is legal.
    let event = iteration.as_ref().map_or_else(|| pos.decisions()[0], |it| it.best);
    Some(Decision { event, search: iteration })
}
