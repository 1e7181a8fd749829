//! The lifetime of the games' engine processes, and the cap on games in progress.
//!
//! An engine process costs tens of megabytes, so it runs only while its game may need it:
//! - a finished game's players' engines stop (its analysing engine stays, to analyse it);
//! - a game no page has shown for the idle timeout ([`super::limits::Limits::idle`]) is *left*: all its
//!   engines stop, its analysis too, and no engine is asked to move. The game itself is kept,
//!   and asked for again (a tab reloaded, a laptop woken) it is no longer left: engine play
//!   goes on, its engines starting again as needed. An open page asks for its game at least
//!   once a second (its event stream's heartbeat), so a game shown is never left;
//! - at most [`super::limits::Limits::max_games`] games are in progress (neither over nor left). When that
//!   many are, a new game first makes left the games no page has shown for [`RECLAIM_AFTER`]
//!   (a tab that started a new game no longer shows its old one), and is refused if that
//!   frees none.
//!
//! A thread ([`start`]) looks at every game a few times a second to do this; engines are
//! stopped on threads of their own, since each may take a moment to quit.

use super::changes::lock;
use super::games::Games;
use crate::client::Engine;
use std::sync::{Arc, MutexGuard};
use std::time::Duration;

/// When the cap is reached, games no page has shown for this long are made left at once: an
/// open page asks for its game every second or so.
pub const RECLAIM_AFTER: Duration = Duration::from_secs(5);

/// Starts the thread that stops the engines of finished and left games, for ever.
pub fn start(games: Arc<Games>) {
    // Often enough that a finished game's engines stop within a second.
    let period = (games.limits.idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(1));
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(period);
            games.reclaim(games.limits.idle);
        }
    });
}

impl Games {
    /// Lets a new game in: `Ok` with a guard to hold while it is made, or why not (the cap is
    /// reached even after the games no page shows were made left).
    pub(super) fn admit(&self) -> Result<MutexGuard<'_, ()>, String> {
        let admission = lock(&self.admission);
        let max = self.limits.max_games;
        if self.in_progress() >= max {
            self.reclaim(RECLAIM_AFTER.min(self.limits.idle));
        }
        if self.in_progress() >= max {
            return Err(format!(
                "too many games in progress ({max} at most); finish or leave one (close its tab and try again in a few seconds)"
            ));
        }
        Ok(admission)
    }

    /// Makes left the games no page has shown for `unseen`, and stops the engines that
    /// finished and left games no longer need.
    fn reclaim(&self, unseen: Duration) {
        for engine in self.release(unseen) {
            stop(engine);
        }
    }
}

/// Stops `engine` (dropping it sends `quit`, then kills it if it does not exit in time) on a
/// thread of its own; without a thread the closure is dropped with the error, and the engine
/// quits on this one.
fn stop(engine: Engine) {
    let _ = std::thread::Builder::new().name("gui engine stop".into()).spawn(move || drop(engine));
}
