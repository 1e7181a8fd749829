//! A player of a dice game: the search or one of the game's fixed players, behind one call,
//! so that the protocol, `steere analyse` and the solitaire study decide the same way.

use super::{ChanceSearch, Helpers, Iteration, Limits};
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
/// runs within `limits` on the calling thread and `helpers`, and reports each completed depth
/// to `report`.
pub fn decide<G: ChanceRules>(
    pos: &G,
    strategy: &str,
    seed: u64,
    search: (Limits, &Helpers),
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Iteration<G::Step>),
) -> Option<Decision<G::Step>> {
    decide_among(pos, &[], strategy, seed, search, stop, report)
}

/// [`decide`] among the decisions of `only` (`go searchmoves`; empty, or holding none of the
/// position's decisions: all of them). The search searches only those; a fixed player whose
/// choice is not among them plays the first of them in the order of `decisions()`.
pub fn decide_among<G: ChanceRules>(
    pos: &G,
    only: &[G::Step],
    strategy: &str,
    seed: u64,
    (limits, helpers): (Limits, &Helpers),
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Iteration<G::Step>),
) -> Option<Decision<G::Step>> {
    let mut allowed = pos.decisions();
    if allowed.iter().any(|d| only.contains(d)) {
        allowed.retain(|d| only.contains(d));
    }
    let first = *allowed.first()?;
    if strategy != SEARCH {
        let event = pos.fixed_player(strategy, seed)?;
        let event = if allowed.contains(&event) { event } else { first };
        return Some(Decision { event, search: None });
    }
    let iteration = ChanceSearch::run_among(pos, &allowed, limits, helpers, stop, report);
    // Not even one depth completed (stopped at once): the first allowed decision, legal.
    let event = iteration.as_ref().map_or(first, |it| it.best);
    Some(Decision { event, search: iteration })
}
