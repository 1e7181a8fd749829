//! Which engines of the dice games may stop ([`super::super::upkeep`] stops them): every
//! engine of a finished game, and of a game left (no page has shown it for a while).

use super::*;

impl DiceGames {
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
            if !g.left && g.last_seen.elapsed() >= unseen {
                g.left = true;
            }
            if g.left || g.is_over() {
                freed.extend(g.engines.iter_mut().filter_map(Option::take));
            }
        }
        freed
    }

    /// Every game, so that each is locked alone (never under the lock of all).
    fn all(&self) -> Vec<Arc<Mutex<DiceGame>>> {
        lock(&self.games).values().cloned().collect()
    }
}

impl DiceGame {
    fn is_over(&self) -> bool {
        self.view().next == "over"
    }

    fn in_progress(&self) -> bool {
        !self.left && !self.is_over()
    }
}
