//! Impasse as a [`Game`]: a thin adapter from the rules module to the search's view.
//!
//! Move codes pack `from` (5 bits), `to` (5 bits) and the crown (6 bits: 0 for none, else the
//! crowning square + 1). Within one position these three determine the move: the kind follows
//! from what stands on `from` and `to` (a removal has `to == from`), so the code is unique among
//! the legal moves, as [`Game::move_code`] requires.

use crate::game::TableValue;
use crate::game::{Game, MoveTextError, Outcome, Rules};
use crate::impasse::notation::{self, MoveError};
use crate::impasse::{Move, MoveKind, MoveList, Position, eval};

impl Game for Position {
    type Move = Move;
    type MoveList = MoveList;

    /// Side to move (2) x from (32) x to (32).
    const HISTORY_SIZE: usize = 2 * 32 * 32;

    #[inline(always)]
    fn legal_moves(&self) -> MoveList {
        Position::legal_moves(self)
    }

    #[inline(always)]
    fn make_move(&self, mv: Move) -> Position {
        Position::make_move(self, mv)
    }

    #[inline(always)]
    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    /// The game is over exactly when the player who just moved has no checkers left: he has
    /// won, so the side to move has lost.
    #[inline(always)]
    fn outcome(&self) -> Option<Outcome> {
        if self.is_game_over() { Some(Outcome::Loss) } else { None }
    }

    #[inline(always)]
    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    #[inline(always)]
    fn probe_tables(&self) -> Option<TableValue> {
        crate::impasse::tablebase::probe(self)
    }

    #[inline(always)]
    fn move_code(mv: Move) -> u16 {
        let crown = mv.crown().map_or(0, |sq| sq.index() as u16 + 1);
        mv.from().index() as u16 | (mv.to().index() as u16) << 5 | crown << 10
    }

    #[inline(always)]
    fn history_index(&self, mv: Move) -> usize {
        (self.side_to_move().index() << 10) | (mv.from().index() << 5) | mv.to().index()
    }

    /// Crowns (a checker jumps to the far row and the double can start home) and bear-offs (a
    /// checker leaves the game) are the moves that make progress at once.
    #[inline(always)]
    fn is_forcing(&self, mv: Move) -> bool {
        let bears_off = matches!(mv.kind(), MoveKind::DoubleSlide | MoveKind::Transpose)
            && mv.to().bit() & self.side_to_move().nearest_row() != 0;
        mv.crown().is_some() || bears_off
    }

    /// Crowns and bear-offs: an Impasse win is a race of them, so the line that proves a fast
    /// win is followed past the iteration's horizon (measured in docs/tuning.md, "stop 52").
    #[inline(always)]
    fn is_extended(&self, mv: Move) -> bool {
        self.is_forcing(mv)
    }
}

impl Rules for Position {
    type Step = Move;

    crate::game::board_game_rules!(one board);
    const FEN_FIELDS: usize = 2;
    const EVAL_UNIT: &'static str = "hundredths of a checker";

    fn parse_step(&self, text: &str) -> Result<Move, MoveTextError> {
        self.parse_move(text).map_err(|e| match e {
            MoveError::Syntax { text, reason } => MoveTextError::Malformed { text, reason },
            MoveError::Illegal { text, hint } => MoveTextError::Illegal { text, hint },
        })
    }

    #[inline(always)]
    fn count_steps(&self) -> u64 {
        Position::count_moves(self)
    }

    fn diagram(&self) -> Vec<String> {
        notation::diagram(self)
    }

    fn ending(&self) -> Option<String> {
        let winner = self.winner()?;
        Some(format!("{winner} has removed all his checkers and won"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_codes_are_unique_and_history_indices_in_range() {
        // A small walk over the first plies covers slides, transposes and crowns.
        assert!(crate::game::testing::check_codes_and_history(Position::startpos(), 3) > 500);
    }

    #[test]
    fn finished_game_is_a_loss_for_the_side_to_move() {
        // White has just removed his last checker; Black is to move and has lost.
        let pos = Position::from_fen("8/8/8/8/8/8/8/b7 b").unwrap();
        assert_eq!(pos.outcome(), Some(Outcome::Loss));
        assert!(Game::legal_moves(&pos).is_empty());
        assert_eq!(Position::startpos().outcome(), None);
    }
}
