//! Dipole as a [`Game`]: a thin adapter from the rules module to the search's view.
//!
//! Move codes are the move's two bytes (start coordinate; landing coordinate, or k for an
//! exit, or the pass), unique among the moves of a position. History slots are the side to
//! move, the start square and the landing square, or the exit's k, or the pass.

use crate::dipole::board::{MAX_SQUARES, Variant};
use crate::dipole::notation::{self, MoveError};
use crate::dipole::{Move, MoveKind, MoveList, Position, eval};
use crate::game::{Game, MoveTextError, Outcome, Params, Rules};

/// History slots per start square: a landing square, an exit of k = 1..=20, or the pass.
const SLOTS: usize = MAX_SQUARES + 21;

impl Game for Position {
    type Move = Move;
    type MoveList = MoveList;

    /// Side to move (2) x start square (50) x landing square, exit k or pass (71).
    const HISTORY_SIZE: usize = 2 * MAX_SQUARES * SLOTS;

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

    /// A finished game is won by the player who still has checkers: the side to move loses
    /// after a capture of his last stack, and wins after the opponent took his own last
    /// checkers off the board.
    #[inline(always)]
    fn outcome(&self) -> Option<Outcome> {
        self.winner().map(|winner| if winner == self.side_to_move() { Outcome::Win } else { Outcome::Loss })
    }

    #[inline(always)]
    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    #[inline(always)]
    fn move_code(mv: Move) -> u16 {
        mv.code()
    }

    fn history_index(&self, mv: Move) -> usize {
        let variant = self.variant();
        let side = self.side_to_move().index();
        let square = |(file, rank): (i32, i32)| variant.square(file, rank).map_or(0, usize::from);
        let (from, slot) = match mv.kind() {
            MoveKind::Pass => (0, SLOTS - 1),
            MoveKind::Exit => (square(mv.from()), MAX_SQUARES + mv.count() as usize - 1),
            MoveKind::Step => (square(mv.from()), square(mv.to())),
        };
        (side * MAX_SQUARES + from) * SLOTS + slot
    }

    /// Captures (an enemy stack leaves the game) are tried early.
    fn is_forcing(&self, mv: Move) -> bool {
        mv.kind() == MoveKind::Step && {
            let (file, rank) = mv.to();
            self.variant()
                .square(file, rank)
                .and_then(|sq| self.stack_at(sq))
                .is_some_and(|(color, _)| color != self.side_to_move())
        }
    }
}

/// What a well-formed Dipole move looks like, for the errors.
const MOVE_FORMS: &str = "expected FROM TO like e1e5, FROM off K like e1off5, or pass";

/// Dipole's parameters are its board: 8x8 or 10x10, always two players.
impl Params for Variant {
    fn players(&self) -> usize {
        2
    }

    fn with_players(self, players: usize) -> Result<Variant, String> {
        crate::game::rules::two_players_only(self, players)
    }
}

impl Rules for Position {
    type Step = Move;
    type Params = Variant;

    crate::game::board_game_rules!();
    const FEN_FIELDS: usize = 2;
    const EVAL_UNIT: &'static str = "hundredths of a checker";

    fn start(variant: Variant) -> Position {
        Position::startpos(variant)
    }

    fn parse_fen(variant: Variant, text: &str) -> Result<Position, String> {
        Position::from_fen(variant, text).map_err(|e| e.to_string())
    }

    fn fen(&self) -> String {
        self.to_fen()
    }

    fn params(&self) -> Variant {
        self.variant()
    }

    fn parse_step(&self, text: &str) -> Result<Move, MoveTextError> {
        self.parse_move(text).map_err(|e| match e {
            MoveError::Syntax { text } => MoveTextError::Malformed { text, reason: MOVE_FORMS.to_string() },
            MoveError::Illegal { text } => {
                let hint = if self.is_game_over() { " (the game is over)" } else { "" };
                MoveTextError::Illegal { text, hint: hint.to_string() }
            }
        })
    }

    #[inline(always)]
    fn count_steps(&self) -> u64 {
        crate::dipole::movegen::count_moves(self)
    }

    fn diagram(&self) -> Vec<String> {
        notation::diagram(self)
    }

    fn ending(&self) -> Option<String> {
        let winner = self.winner()?;
        Some(format!("{winner} has won: {} has no checkers left", winner.opponent()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_codes_are_unique_and_history_indices_in_range() {
        for variant in Variant::ALL {
            assert!(crate::game::testing::check_codes_and_history(Position::startpos(variant), 3) > 300);
        }
    }

    #[test]
    fn outcomes_follow_the_winner() {
        // Black's last single was captured: Black, to move, has lost.
        let lost = Position::from_fen(Variant::Dipole, "8/8/8/8/3,w1,4/8/8/8 b").unwrap();
        assert_eq!(lost.outcome(), Some(Outcome::Loss));
        // White moved his own last checker off: Black, to move, has won.
        let won = Position::from_fen(Variant::Dipole, "8/8/8/8/8/8/8/b1,7 b").unwrap();
        assert_eq!(won.winner(), Some(crate::dipole::Color::Black));
        assert_eq!(won.outcome(), Some(Outcome::Win));
        assert_eq!(Position::startpos(Variant::Dipole).outcome(), None);
    }
}
