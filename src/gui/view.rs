//! What the page needs to know of a game's position, computed with the rules of its variant:
//! the FEN, the player to move, the legal moves' texts and the result. The page never judges a
//! move itself: it offers exactly the moves listed here, and the server checks again.

use crate::game::{Rules, rules};
use crate::variants::{self, Job, Variant};
use serde::Serialize;

/// A position as the page sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionView {
    /// The position's FEN.
    pub fen: String,
    /// `white` or `black` (the game's names of P1 and P2).
    pub to_move: &'static str,
    /// The legal moves' texts, sorted.
    pub legal: Vec<String>,
    /// How the game ended, when it has (`white has won: black has no checkers left`).
    pub result: Option<String>,
    /// The winner's name, when the game has ended with one.
    pub winner: Option<&'static str>,
    /// The FEN of every position of the game, the start first and this one last.
    pub history: Vec<String>,
}

/// The position of variant `variant` reached from `start` (a FEN, or the start position when
/// `None`) by `moves`, or why there is none (the FEN's error, or the first illegal move).
pub fn view(variant: &str, start: Option<&str>, moves: &[String]) -> Result<PositionView, String> {
    variants::dispatch(variant, ViewJob { start, moves })?
}

/// [`view`] with the rules of the variant.
struct ViewJob<'a> {
    start: Option<&'a str>,
    moves: &'a [String],
}

impl Job for ViewJob<'_> {
    type Output = Result<PositionView, String>;
    fn run<G: Rules>(self, variant: Variant<G>) -> Result<PositionView, String> {
        let mut pos = match self.start {
            Some(fen) => variant.parse_fen(fen)?,
            None => variant.start(),
        };
        let mut history = vec![pos.fen()];
        for (i, text) in self.moves.iter().enumerate() {
            let mv = pos.parse_move_text(text).map_err(|e| format!("move {}: {e}", i + 1))?;
            pos = pos.make_move(mv);
            history.push(pos.fen());
        }
        Ok(PositionView {
            fen: pos.fen(),
            to_move: rules::player_name::<G>(pos.to_move()),
            legal: rules::sorted_move_texts(&pos),
            result: pos.ending(),
            winner: rules::winner(&pos).map(rules::player_name::<G>),
            history,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_follow_the_rules_of_each_variant() {
        let start = view("dipole", None, &[]).unwrap();
        assert_eq!(start.fen, "3,b12,4/8/8/8/8/8/8/4,w12,3 w");
        assert_eq!((start.to_move, start.legal.len(), start.result), ("white", 19, None));
        let after = view("impasse", None, &["d2f4".to_string()]).unwrap();
        assert_eq!(after.to_move, "black");
        let error = view("impasse", None, &["d2f4".to_string(), "d2f4".to_string()]).unwrap_err();
        assert!(error.starts_with("move 2: illegal move 'd2f4'"), "{error}");
        assert!(view("impasse", Some("8/8 w"), &[]).unwrap_err().contains("ranks"));
        let over = view("dipole", Some("8/8/8/8/8/8/8/b1,7 b"), &[]).unwrap();
        assert_eq!((over.winner, over.legal.len()), (Some("black"), 0));
        assert!(over.result.unwrap().contains("black has won"));
    }
}
