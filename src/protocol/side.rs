//! What the session ([`super::session`]) asks of the search that plays its variant: the one
//! place where the board games' alpha-beta ([`super::alpha_beta`]) and the dice games'
//! chance-node search ([`super::expectimax`]) differ in the protocol.
//!
//! The session does everything else once for every game: the commands, the game played, the
//! answerers, the search thread and its job. A search's side keeps what the search keeps
//! between searches (alpha-beta: its transposition table and the small searcher of the
//! fallback move; expectimax: nothing), turns `go` into a [`Plan`], and lends the search
//! thread what it needs.

use super::Common;
use super::answer::{Deadline, Reporter};
use super::command::GoParams;
use super::options::Change;
use super::output::Output;
use super::played::PlayedGame;
use crate::game::Rules;
use crate::search::SearchControl;
use crate::variants::Variant;
use std::sync::Arc;
use std::time::Instant;

/// The work of a search thread: given what the side lends (`L`), the search's control flags
/// and the reporter of its lines, it searches and hands back what it was lent (`None` if it
/// failed, so that the side makes a fresh one).
pub(super) type SearchWork<L> = Box<dyn FnOnce(L, Arc<SearchControl>, Reporter) -> Option<L> + Send>;

/// What a `go` in a position with a decision to make comes to.
pub(super) enum Plan<L> {
    /// The answer is known without a search (Can't Stop's fixed players): given at once, or,
    /// under `go infinite` and `go ponder`, when the GUI releases it.
    Answer(String),
    /// A search on the session's search thread, answered by `deadline` at the latest, with
    /// `fallback` if it has offered nothing by then.
    Search {
        /// The hard deadline of the answer.
        deadline: Deadline,
        /// The `bestmove` line given if the search offers none in time.
        fallback: String,
        /// The search itself.
        work: SearchWork<L>,
    },
}

/// The search that plays a variant, as the protocol's session sees it.
pub(super) trait SearchSide<G: Rules>: Sized + 'static {
    /// What the search thread is lent for a search and hands back (alpha-beta's searcher).
    type Lent: Send + 'static;
    /// True when the search keeps a table: `ucinewgame`, `Hash`, `Threads` and `Clear Hash`
    /// then change it, and must wait for a running search to end.
    const KEEPS_TABLE: bool;

    /// The side of a new session: nothing allocated yet (so that `uci` costs nothing).
    fn new() -> Self;
    /// `isready` with no search running: allocate now what the first `go` would (runners send
    /// `isready` before they start the clock).
    fn ready(&mut self, common: &Common);
    /// `ucinewgame` (only when [`SearchSide::KEEPS_TABLE`]): forget what earlier games taught.
    fn new_game(&mut self);
    /// Checks a new `Hash` size, resizing the table if there is one; the error says why not.
    fn resize(&mut self, mib: usize) -> Result<(), String>;
    /// Applies an option that has just changed in the session's options.
    fn applied(&mut self, change: Change);
    /// Why nobody decides in `game` (its end, a roll due), said before `bestmove (none)`; `None`
    /// when the player to move has a decision to make.
    fn no_decision(game: &PlayedGame<G>) -> Option<String>;
    /// What `go` with `params`, read at `read_at`, comes to in `game`, where a decision is due.
    fn plan(
        &mut self,
        common: &Common,
        game: &PlayedGame<G>,
        params: &GoParams,
        read_at: Instant,
    ) -> Plan<Self::Lent>;
    /// What the next search is lent, set up for `game`.
    fn lend(&mut self, common: &Common, game: &PlayedGame<G>) -> Self::Lent;
    /// Takes back what a search was lent (`None`: the search failed or never ran).
    fn take_back(&mut self, lent: Option<Self::Lent>, out: &Output);
    /// `bench D`: the search's bench of `variant` to depth `depth`, stopped by `control`.
    fn bench(variant: Variant<G>, depth: u32, control: &SearchControl, out: &Output);
}
