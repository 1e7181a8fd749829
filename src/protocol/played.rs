//! The game a session plays: the position of the last `position` command and the game that
//! led to it, and the one rule of when that game is over.
//!
//! A game is over when its position has an outcome (the rules') or when the position has
//! occurred for the third time (a draw by threefold repetition, which only the history can
//! tell). Every command that asks for moves goes through [`PlayedGame`], so that they all
//! agree: `position` refuses a move after the end, `query islegal` answers `false`, `d` lists no
//! move, and `go` answers `bestmove (none)` (see `session.rs`).

use super::command::{Query, quote};
use super::output;
use crate::game::{GameHistory, GameResult, Params, Rules, rules};
use crate::quote::move_error_reason;

/// Why a drawn game is over, in the words of `d`, `go` and `position`.
pub const DRAWN: &str = "draw by threefold repetition";

/// A game: its positions since the last irreversible move, the current one last.
pub struct PlayedGame<G: Rules> {
    history: GameHistory<G>,
}

impl<G: Rules> PlayedGame<G> {
    /// A game that starts at `start`.
    pub fn new(start: G) -> PlayedGame<G> {
        PlayedGame { history: GameHistory::new(start) }
    }

    /// The game from `start` through `moves`, or why there is none (the first move that is
    /// malformed, illegal, or played after the game ended).
    pub fn build(start: G, moves: &[String]) -> Result<PlayedGame<G>, String> {
        let mut game = PlayedGame::new(start);
        for (i, text) in moves.iter().enumerate() {
            let mv = game
                .legal_move(text)
                .map_err(|reason| format!("move {} {}: {reason}", i + 1, quote(text)))?;
            game.history.play(mv);
        }
        Ok(game)
    }

    /// The current position.
    pub fn position(&self) -> &G {
        self.history.current()
    }

    /// The hashes of the positions before the current one that the search needs to score
    /// repetitions.
    pub fn hashes_before(&self) -> Vec<u64> {
        self.history.hashes_before()
    }

    /// True when the position has occurred for the third time: the game is drawn.
    pub fn is_drawn(&self) -> bool {
        self.history.is_threefold()
    }

    /// How the game ended (`d`'s words), or `None` while it goes on.
    pub fn ending(&self) -> Option<String> {
        match self.position().ending() {
            Some(ending) => Some(ending),
            None if self.is_drawn() => Some(DRAWN.to_string()),
            None => None,
        }
    }

    /// True once the game is over: no move may be played.
    pub fn is_over(&self) -> bool {
        self.position().result().is_some() || self.is_drawn()
    }

    /// The legal move written `text`, or why it is not one (without the text: the caller quotes
    /// it): none is legal once the game is over.
    pub fn legal_move(&self, text: &str) -> Result<G::Step, String> {
        if self.is_drawn() {
            return Err(format!("the game is over ({DRAWN})"));
        }
        self.position().parse_step(text).map_err(|e| move_error_reason(&e))
    }

    /// The board for `d`: the diagram, the FEN, the side to move or how the game ended, and the
    /// legal moves (none once the game is over).
    pub fn board_lines(&self) -> Vec<String> {
        let pos = self.position();
        let moves = if self.is_over() {
            Vec::new()
        } else {
            pos.legal_steps().iter().map(ToString::to_string).collect()
        };
        let side = rules::seat_name::<G>(pos.to_move());
        let mut lines = output::board_lines(pos, self.ending(), side, &moves);
        // The FEN does not record the rule options: say which are in force, after the FEN.
        let options = pos.params().option_values();
        if !options.is_empty() {
            let text: Vec<String> = options.iter().map(|(name, value)| format!("{name} {value}")).collect();
            let at = lines.iter().position(|l| l.starts_with("Fen: ")).map_or(lines.len(), |i| i + 1);
            lines.insert(at, format!("Options: {}", text.join(", ")));
        }
        lines
    }
}

/// The answer to `query` (the text after `response `) in a game at `pos`, `drawn` by repetition
/// or not, where `is_legal` tells whether a step text may be played now: the one rule of every
/// session, board and dice games alike.
pub fn query_answer<G: Rules>(
    pos: &G,
    drawn: bool,
    query: &Query,
    is_legal: impl Fn(&str) -> bool,
) -> String {
    match query {
        Query::GameOver => (pos.result().is_some() || drawn).to_string(),
        Query::P1Turn => (pos.to_move() == 0).to_string(),
        Query::Turn => format!("p{}", pos.to_move() + 1),
        Query::Result => match pos.result() {
            Some(GameResult::Win(seat)) => format!("p{}win", seat + 1),
            Some(GameResult::Draw) => "draw".to_string(),
            None if drawn => "draw".to_string(),
            None => "none".to_string(),
        },
        Query::Fen => pos.fen(),
        Query::IsLegal(text) => is_legal(text).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_built_or_explained() {
        let start = crate::impasse::Position::startpos();
        let game = PlayedGame::build(start, &["d2f4".into()]).unwrap();
        assert_eq!(crate::game::BoardRules::player_to_move(game.position()), crate::game::Player::P2);
        let error = PlayedGame::build(start, &["d2f4".into(), "d2f4".into()]).err().unwrap();
        assert!(error.starts_with("move 2 'd2f4': illegal"), "{error}");
        let error = PlayedGame::build(start, &["zz".into()]).err().unwrap();
        assert!(error.starts_with("move 1 'zz': malformed"), "{error}");
    }

    /// R11: after the draw no move is legal, whoever asks.
    #[test]
    fn a_drawn_game_has_no_legal_move() {
        let moves: Vec<String> = ["a1-a2", "i9-c3", "a2-a1", "c3-i9", "a1-a2", "i9-c3", "a2-a1", "c3-i9"]
            .iter()
            .map(|m| m.to_string())
            .collect();
        let start = crate::hexdame::Position::parse_fen((), "W:WKa1:BKi9").unwrap();
        let game = PlayedGame::build(start, &moves).unwrap();
        assert!(game.is_drawn() && game.is_over());
        assert!(game.position().parse_step("a1-b2").is_ok(), "the position alone has moves");
        assert_eq!(game.legal_move("a1-b2"), Err(format!("the game is over ({DRAWN})")));
        let board = game.board_lines();
        assert_eq!(board.last().unwrap(), "Legal moves (0): ");
        assert!(board.contains(&format!("Game over: {DRAWN}")), "{board:?}");
        let error = PlayedGame::build(start, &[moves.clone(), vec!["a1-a2".into()]].concat()).err();
        assert_eq!(error.unwrap(), format!("move 9 'a1-a2': the game is over ({DRAWN})"));
    }
}
