//! Which engines of the games may stop ([`super::super::upkeep`] stops them): a finished
//! game's players' (its analysing engine stays, to analyse it), and every engine of a game
//! left (no page has shown it for a while), whose analysis and review stop too. A review's
//! engine is never in its game: it lives on the review's thread and quits when the review
//! ends ([`super::review`]), whether it was done, cancelled or stopped here.

use super::*;
use std::sync::atomic::Ordering;
use std::time::Duration;

impl Games {
    /// The games in progress: neither over nor left.
    pub(in crate::gui) fn in_progress(&self) -> usize {
        self.all().iter().filter(|game| lock(game).in_progress()).count()
    }

    /// Makes left the games no page has shown for `unseen`, and takes out the engines no
    /// longer needed (an engine thinking is not in its game: it is taken once it has answered).
    pub(in crate::gui) fn release(&self, unseen: Duration) -> Vec<Engine> {
        let mut freed = Vec::new();
        for game in self.all() {
            let mut g = lock(&game);
            if !g.left {
                g.check_flag(); // a flag fallen unseen ends the game
            }
            if !g.left && g.last_seen.elapsed() >= unseen {
                g.leave();
            }
            if g.left || g.is_over() {
                freed.extend(g.engines.iter_mut().filter_map(Option::take));
            }
            if g.left {
                freed.extend(g.analyser.take());
            }
        }
        freed
    }

    /// Every game, so that each is locked alone (never under the lock of all).
    fn all(&self) -> Vec<Arc<Mutex<Game>>> {
        lock(&self.games).values().cloned().collect()
    }
}

impl Game {
    fn in_progress(&self) -> bool {
        !self.left && !self.is_over()
    }

    /// Leaves the game: no engine is asked to move, the analysis stops (its engine is taken
    /// when it has stopped) and so does the review (its engine quits on the review's thread,
    /// once it has answered); the positions reviewed are kept.
    fn leave(&mut self) {
        self.left = true;
        self.analysis_stop.store(true, Ordering::SeqCst);
        if self.analysis.take().is_some() {
            self.changed();
        }
        self.review_stop.store(true, Ordering::SeqCst);
        if let Some(review) = self.review.as_mut().filter(|r| r.running) {
            review.running = false;
            review.error = Some("stopped: no page showed the game".to_string());
            self.changed();
        }
    }
}
