//! The history of a game, for the one rule that needs it: threefold repetition.
//!
//! A position carries no history, so whoever plays a game through (the protocol's
//! `position ... moves`, the match referee, the GUI) keeps a [`GameHistory`] beside it. It holds
//! the positions since the last irreversible move (no earlier position can recur, see
//! [`Rules::may_recur_after`]) and answers how often the current one has occurred, and which
//! hashes the search needs to score repetitions ([`GameHistory::hashes_before`]). For a game
//! that is not drawn by repetition ([`Rules::DRAWS_BY_REPETITION`] false) it keeps nothing but
//! the current position.

use super::Rules;

/// How many occurrences of a position draw the game (the rules of HexDame: the third).
pub const DRAWING_OCCURRENCES: usize = 3;

/// The positions of a game since its last irreversible move, the current one last.
#[derive(Clone, Debug)]
pub struct GameHistory<G: Rules> {
    /// Never empty: the last entry is the current position.
    since_irreversible: Vec<G>,
}

impl<G: Rules> GameHistory<G> {
    /// A game that starts (or is set up) at `start`: its first occurrence.
    pub fn new(start: G) -> GameHistory<G> {
        GameHistory { since_irreversible: vec![start] }
    }

    /// The current position.
    pub fn current(&self) -> &G {
        self.since_irreversible.last().expect("a history is never empty")
    }

    /// Plays the legal step `step` in the current position.
    pub fn play(&mut self, step: G::Step) {
        let current = *self.current();
        let next = current.play(step);
        if !G::DRAWS_BY_REPETITION || !current.may_recur_after(step) {
            self.since_irreversible.clear();
        }
        self.since_irreversible.push(next);
    }

    /// How many times the current position has occurred in the game, counting now (at least 1).
    pub fn occurrences(&self) -> usize {
        let current = self.current();
        self.since_irreversible.iter().filter(|p| *p == current).count()
    }

    /// True when the current position has occurred for the third time: the game is drawn.
    pub fn is_threefold(&self) -> bool {
        G::DRAWS_BY_REPETITION && self.occurrences() >= DRAWING_OCCURRENCES
    }

    /// The keys ([`Rules::key`]: a board game's Zobrist hashes) of the positions before the
    /// current one since the last irreversible move, oldest first: what
    /// [`crate::search::Searcher::set_history`] needs.
    pub fn hashes_before(&self) -> Vec<u64> {
        let n = self.since_irreversible.len();
        self.since_irreversible[..n - 1].iter().map(Rules::key).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::hexdame::Position;

    fn play(history: &mut GameHistory<Position>, text: &str) {
        let mv = history.current().parse_step(text).unwrap();
        history.play(mv);
    }

    #[test]
    fn the_rules_repetition_example_draws_at_ply_eight_not_seven() {
        // docs/rules/hexdame.md, example 13.
        let mut history = GameHistory::new(Position::parse_fen((), "W:WKa1:BKi9").unwrap());
        let moves = ["a1-a2", "i9-i8", "a2-a1", "i8-i9", "a1-a2", "i9-i8", "a2-a1", "i8-i9"];
        for (ply, text) in moves.iter().enumerate() {
            assert!(!history.is_threefold(), "drawn before ply {}", ply + 1);
            play(&mut history, text);
        }
        assert!(history.is_threefold());
        assert_eq!(history.occurrences(), 3);
        assert_eq!(history.hashes_before().len(), 8);
    }

    #[test]
    fn an_irreversible_move_forgets_the_past() {
        let mut history = GameHistory::new(Position::parse_fen((), "W:WKa1,b4:BKi9").unwrap());
        play(&mut history, "a1-a2");
        play(&mut history, "i9-i8");
        play(&mut history, "b4-b5");
        assert_eq!(history.hashes_before(), Vec::<u64>::new());
        assert_eq!(history.occurrences(), 1);
    }

    #[test]
    fn games_that_cannot_repeat_keep_only_the_current_position() {
        let mut history = GameHistory::new(crate::impasse::Position::startpos());
        let mv = history.current().legal_moves().as_ref()[0];
        history.play(mv);
        assert!(history.hashes_before().is_empty());
        assert!(!history.is_threefold());
    }
}
