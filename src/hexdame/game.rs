//! HexDame as a [`Game`]: a thin adapter from the rules module to the search's view.
//!
//! HexDame is the first game of the family that can repeat a position (kings move back and
//! forth), so it turns on the search's repetition handling: a king's non-capturing move is the
//! only reversible move. A position where a capture is compulsory is not quiet: the search
//! extends it rather than evaluate it halfway through an exchange.
//!
//! Move codes are the start cell, the final cell and, for captures that share both, an ordinal
//! (see [`Move::code`]). History slots are the side to move, the start cell and the final cell.

use crate::game::{Game, MoveTextError, Outcome, Rules, TableValue};
use crate::hexdame::board::{CELLS, bit};
use crate::hexdame::notation::{self, MoveError};
use crate::hexdame::{Kind, Move, MoveList, Position, eval, movegen};

impl Game for Position {
    type Move = Move;
    type MoveList = MoveList;

    /// Side to move (2) x start cell (61) x final cell (61).
    const HISTORY_SIZE: usize = 2 * CELLS * CELLS;
    const CAN_REPEAT: bool = true;

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

    /// A side to move without a legal move has lost (threefold repetition is the business of
    /// the game's history, not of a position).
    #[inline(always)]
    fn outcome(&self) -> Option<Outcome> {
        (!self.has_moves()).then_some(Outcome::Loss)
    }

    #[inline(always)]
    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    /// From the installed HexDame tables (one comparison when none holds this many pieces).
    #[inline(always)]
    fn probe_tables(&self) -> Option<TableValue> {
        crate::hexdame::tablebase::probe(self)
    }

    #[inline(always)]
    fn move_code(mv: Move) -> u16 {
        mv.code()
    }

    fn history_index(&self, mv: Move) -> usize {
        let side = self.side_to_move().index();
        (side * CELLS + mv.from() as usize) * CELLS + mv.to() as usize
    }

    /// Promotions are tried early (captures need no hint: when there is one, every move is one).
    fn is_forcing(&self, mv: Move) -> bool {
        let us = self.side_to_move();
        self.pieces(us, Kind::Man) & bit(mv.from()) != 0 && us.far_edge() & bit(mv.to()) != 0
    }

    /// A king's step or slide: the only move after which the position before it may recur.
    #[inline(always)]
    fn is_reversible(&self, mv: Move) -> bool {
        !mv.is_capture() && self.pieces(self.side_to_move(), Kind::King) & bit(mv.from()) != 0
    }

    #[inline(always)]
    fn is_quiet(&self) -> bool {
        !movegen::must_capture(self)
    }
}

impl Rules for Position {
    type Step = Move;

    crate::game::board_game_rules!(one board);
    const FEN_FIELDS: usize = 1;
    const EVAL_UNIT: &'static str = "hundredths of a man";

    fn parse_step(&self, text: &str) -> Result<Move, MoveTextError> {
        self.parse_move(text).map_err(|e| match e {
            MoveError::Syntax { text, reason } => MoveTextError::Malformed { text, reason },
            MoveError::Illegal { text } => {
                let hint = if self.has_moves() {
                    if movegen::must_capture(self) {
                        " (a capture is compulsory, the largest one)"
                    } else {
                        ""
                    }
                } else {
                    " (the game is over)"
                };
                MoveTextError::Illegal { text, hint: hint.to_string() }
            }
        })
    }

    #[inline(always)]
    fn count_steps(&self) -> u64 {
        movegen::count_moves(self)
    }

    fn diagram(&self) -> Vec<String> {
        notation::diagram(self)
    }

    fn ending(&self) -> Option<String> {
        let winner = self.winner()?;
        let loser = winner.opponent();
        let why = if self.all(loser) == 0 { "has no pieces left" } else { "cannot move" };
        Some(format!("{winner} has won: {loser} {why}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_codes_are_unique_and_history_indices_in_range() {
        assert!(crate::game::testing::check_codes_and_history(Position::startpos(), 3) > 3000);
        // Captures sharing start and final cells (example 5 of the rules has one such move;
        // two sets from c3 back to c3 here).
        let pos = Position::from_fen("W:Wc3:Bd3,d4,e4,b3,b2,i9").unwrap();
        assert!(crate::game::testing::check_codes_and_history(pos, 2) > 0);
    }

    #[test]
    fn a_side_without_moves_has_lost() {
        let blocked = Position::from_fen("W:Wc3:Bc4,c5,d3,d4,e3,e5").unwrap();
        assert_eq!(blocked.outcome(), Some(Outcome::Loss));
        assert_eq!(blocked.ending().unwrap(), "black has won: white cannot move");
        let bare = Position::from_fen("W:W:Bi9").unwrap();
        assert_eq!(bare.ending().unwrap(), "black has won: white has no pieces left");
        assert_eq!(Position::startpos().outcome(), None);
    }

    #[test]
    fn only_king_steps_are_reversible_and_pending_captures_are_not_quiet() {
        let pos = Position::from_fen("W:WKa1,c3:Bi9").unwrap();
        for mv in pos.legal_moves().iter() {
            assert_eq!(pos.is_reversible(*mv), mv.from() == pos.parse_move("a1-a2").unwrap().from(), "{mv}");
        }
        assert!(pos.is_quiet());
        assert!(!Position::from_fen("W:Wc3:Bd4,i9").unwrap().is_quiet());
    }
}
