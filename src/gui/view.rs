//! What the page needs to know of a game's position, computed with the rules of its variant:
//! the FEN, the player to move, the legal moves' texts and the result. The page never judges a
//! move itself: it offers exactly the moves listed here, and the server checks again.
//!
//! A position carries no history, so the moves are replayed through a [`GameHistory`]: in a
//! game that can repeat a position (HexDame) the third occurrence of a position draws the game
//! at once, and no move may follow it. Games between two engines may also end by the match
//! runner's draw cap ([`DrawCap::default_for`]), which is not a rule: [`view_capped`] applies
//! it only when asked.

use crate::game::{BoardRules, GameHistory, Rules, rules};
use crate::tools::matches::game::DrawCap;
use crate::tools::matches::record::Category;
use crate::variants::{self, BoardJob, Variant};
use serde::Serialize;

/// A position as the page sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionView {
    /// The position's FEN.
    pub fen: String,
    /// `white` or `black` (the game's names of P1 and P2).
    pub to_move: &'static str,
    /// The legal moves' texts, sorted; empty once the game is over (a draw included).
    pub legal: Vec<String>,
    /// How the game ended, when it has (`white has won: black has no checkers left`,
    /// `draw by threefold repetition`).
    pub result: Option<String>,
    /// The winner's name, when the game has ended with one.
    pub winner: Option<&'static str>,
    /// How a drawn game was drawn, as the record's category label (`repetition` or
    /// `draw cap`); `None` while the game goes on or after a win.
    pub draw: Option<&'static str>,
    /// The FEN of every position of the game, the start first and this one last.
    pub history: Vec<String>,
}

/// The position of variant `variant` reached from `start` (a FEN, or the start position when
/// `None`) by `moves`, or why there is none (the FEN's error, or the first illegal move: a
/// move after a draw by repetition is one). No draw cap applies.
pub fn view(variant: &str, start: Option<&str>, moves: &[String]) -> Result<PositionView, String> {
    view_capped(variant, start, moves, false)
}

/// [`view`], with the match runner's draw cap for endless games ([`DrawCap::default_for`]
/// the variant) when `cap` is true: the GUI's games between two engines, which could shuffle
/// kings for ever. A move after the cap is reached is refused like a move after a draw.
pub fn view_capped(
    variant: &str,
    start: Option<&str>,
    moves: &[String],
    cap: bool,
) -> Result<PositionView, String> {
    variants::dispatch_board(variant, ViewJob { start, moves, cap })?
}

/// [`view_capped`] with the rules of the variant.
struct ViewJob<'a> {
    start: Option<&'a str>,
    moves: &'a [String],
    cap: bool,
}

impl BoardJob for ViewJob<'_> {
    type Output = Result<PositionView, String>;
    fn run<G: BoardRules>(self, variant: Variant<G>) -> Result<PositionView, String> {
        let start = match self.start {
            Some(fen) => variant.parse_fen(fen)?,
            None => variant.start(),
        };
        let cap = if self.cap { DrawCap::default_for::<G>() } else { DrawCap::default() };
        let mut game = GameHistory::new(start);
        let mut history = vec![start.fen()];
        let mut reversible = 0;
        let mut drawn = None;
        for (i, text) in self.moves.iter().enumerate() {
            drawn = draw(&game, &cap, i, reversible);
            if let Some((_, why)) = &drawn {
                return Err(format!("move {}: the game is already over: {why}", i + 1));
            }
            let pos = *game.current();
            let mv = pos.parse_step(text).map_err(|e| format!("move {}: {e}", i + 1))?;
            reversible = if pos.is_reversible(mv) { reversible + 1 } else { 0 };
            game.play(mv);
            history.push(game.current().fen());
        }
        if drawn.is_none() {
            drawn = draw(&game, &cap, self.moves.len(), reversible);
        }
        let pos = *game.current();
        let winner = rules::winner(&pos).map(rules::seat_name::<G>);
        Ok(PositionView {
            fen: pos.fen(),
            to_move: rules::seat_name::<G>(Rules::to_move(&pos)),
            // A decided game has no moves anyway; a drawn one keeps its pieces' moves, which
            // may no longer be played.
            legal: if drawn.is_some() { Vec::new() } else { rules::sorted_step_texts(&pos) },
            result: pos.ending().or_else(|| drawn.as_ref().map(|(_, why)| why.clone())),
            winner,
            draw: drawn.map(|(category, _)| category.label()),
            history,
        })
    }
}

/// Whether the game of `history` (after `plies` moves, the last `reversible` of them
/// reversible) is drawn, how (the record's category) and why (the page's result line). A won
/// position is never drawn: it ends the game the first time it occurs.
fn draw<G: BoardRules>(
    history: &GameHistory<G>,
    cap: &DrawCap,
    plies: usize,
    reversible: u32,
) -> Option<(Category, String)> {
    if history.current().outcome().is_some() {
        return None;
    }
    if history.is_threefold() {
        return Some((Category::Repetition, "draw by threefold repetition".to_string()));
    }
    // The cap's fields are public; its own test (`DrawCap::reached`) is private to the match
    // runner, so the same two comparisons are made here.
    if let Some(n) = cap.reversible_plies.filter(|&n| reversible >= n) {
        return Some((
            Category::DrawCap,
            format!("draw by the draw cap of engine games: {n} plies in a row without an irreversible move"),
        ));
    }
    let n = cap.max_plies.filter(|&n| plies as u32 >= n)?;
    Some((Category::DrawCap, format!("draw by the draw cap of engine games: {n} plies played")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|m| m.to_string()).collect()
    }

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
        assert_eq!((over.winner, over.legal.len(), over.draw), (Some("black"), 0, None));
        assert!(over.result.unwrap().contains("black has won"));
    }

    #[test]
    fn hexdame_captures_are_compulsory_and_a_won_game_names_its_winner() {
        let start = view("hexdame", None, &[]).unwrap();
        assert_eq!(start.legal.len(), 15);
        let after = view("hexdame", None, &texts(&["d4-e5"])).unwrap();
        assert_eq!(after.legal, ["f6xd4"]);
        let won = view("hexdame", Some("W:Wg7:Bh8"), &texts(&["g7xi9"])).unwrap();
        assert_eq!((won.winner, won.draw, won.legal.len()), (Some("white"), None, 0));
    }

    #[test]
    fn the_third_occurrence_draws_and_nothing_may_follow() {
        // docs/rules/hexdame.md, example 13: drawn after ply 8, not 7.
        let moves = texts(&["a1-a2", "i9-i8", "a2-a1", "i8-i9", "a1-a2", "i9-i8", "a2-a1", "i8-i9"]);
        let seven = view("hexdame", Some("W:WKa1:BKi9"), &moves[..7]).unwrap();
        assert_eq!((seven.result.as_deref(), seven.draw), (None, None));
        let drawn = view("hexdame", Some("W:WKa1:BKi9"), &moves).unwrap();
        assert_eq!(drawn.result.as_deref(), Some("draw by threefold repetition"));
        assert_eq!((drawn.winner, drawn.draw, drawn.legal.len()), (None, Some("repetition"), 0));
        assert_eq!(drawn.history.len(), 9);
        let mut more = moves.clone();
        more.push("a1-a2".to_string());
        let error = view("hexdame", Some("W:WKa1:BKi9"), &more).unwrap_err();
        assert!(error.starts_with("move 9: the game is already over: draw by threefold"), "{error}");
    }

    #[test]
    fn the_draw_cap_applies_only_when_asked() {
        // Kings wander without any position occurring three times: 50 reversible plies.
        use crate::hexdame::Position;
        let mut game = GameHistory::new(Position::from_fen("W:WKa1:BKi9").unwrap());
        let mut moves = Vec::new();
        while moves.len() < 50 {
            let pos = *game.current();
            let mv = *pos
                .legal_moves()
                .as_ref()
                .iter()
                .find(|&&mv| {
                    // A fresh position in which the other king has nothing to capture.
                    let mut next = game.clone();
                    next.play(mv);
                    let replies = next.current().legal_moves();
                    let quiet = replies.as_ref().iter().all(|reply| !reply.is_capture());
                    next.occurrences() == 1 && quiet && !replies.as_ref().is_empty()
                })
                .expect("a fresh position");
            moves.push(mv.to_string());
            game.play(mv);
        }
        let open = view("hexdame", Some("W:WKa1:BKi9"), &moves).unwrap();
        assert_eq!((open.result, open.draw), (None, None));
        let capped = view_capped("hexdame", Some("W:WKa1:BKi9"), &moves, true).unwrap();
        assert_eq!((capped.draw, capped.legal.len()), (Some("draw cap"), 0));
        assert!(capped.result.unwrap().contains("50 plies in a row"));
        let before = view_capped("hexdame", Some("W:WKa1:BKi9"), &moves[..49], true).unwrap();
        assert_eq!(before.draw, None);
        // Games that always end have no cap.
        assert_eq!(view_capped("impasse", None, &[], true).unwrap().draw, None);
    }
}
