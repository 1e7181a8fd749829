//! The ends of a game that its moves do not make: a person resigns, or the players agree a
//! draw. Both are board-game endings of two sides: a dice game of several players has neither
//! (a player who leaves Can't Stop would leave the others a different game).
//!
//! **Draws by agreement** are offered only where the rules know drawn games (HexDame, whose
//! rules end a game drawn "on agreement"); Impasse and Dipole have no draw, so their games are
//! played out or resigned. Between two people the offer stands until the other side accepts or
//! declines it, or makes a move (a move declines it, as over a real board). An engine answers
//! an offer at once by its own judgement: it accepts when the score it gave its last move,
//! from its own side, is at most [`ENGINE_ACCEPTS_AT_MOST`] (a dead king ending, a position
//! it thinks lost), and declines otherwise or when it has given no score yet.

use super::*;

/// The highest score (centipawns, from the engine's side) at which an engine accepts a draw:
/// a fifth of a man, what the engines' evaluation calls level.
pub const ENGINE_ACCEPTS_AT_MOST: i64 = 20;

/// Applies an end beside the moves to the position (one the moves have not ended already).
pub(super) fn apply(ending: Option<&Ending>, position: &mut View) {
    let Some(ending) = ending else { return };
    let (result, draw, winner) = match ending {
        Ending::DrawCap(detail) => (format!("draw by the draw cap: {detail}"), Some(Category::DrawCap), None),
        Ending::Agreement => ("draw by agreement".to_string(), Some(Category::Agreement), None),
        Ending::Resignation(seat) => {
            let winner = usize::from(*seat == 0); // two sides
            let text =
                format!("{} resigns: {} has won", position.seat_name(*seat), position.seat_name(winner));
            (text, None, Some(winner))
        }
    };
    position.result = Some(result);
    position.draw = draw;
    position.winner = winner;
    position.legal.clear();
}

impl Game {
    /// A move by `seat` declines the other side's standing offer of a draw.
    pub(super) fn declined_by(&mut self, seat: usize) {
        if self.draw_offer.is_some_and(|offerer| offerer != seat) {
            self.draw_offer = None;
        }
    }

    /// The people's seats, refused where there is none or the game is over.
    fn people(&self, what: &str) -> Result<(Vec<usize>, View), String> {
        if self.caps.family != Family::Board {
            return Err(format!("{what} is for board games of two sides"));
        }
        let view = self.view();
        if let Some(seat) = self.time_loss {
            return Err(format!("the game is over: {} has lost on time", view.seat_name(seat)));
        }
        if let Some(result) = &view.result {
            return Err(format!("the game is over: {result}"));
        }
        let people: Vec<usize> = (0..self.seats.len()).filter(|&s| self.seats[s].is_human()).collect();
        if people.is_empty() {
            return Err(format!("{what} is for a person, and engines play both sides"));
        }
        Ok((people, view))
    }

    /// The person who acts: the only one, or between two people the side to move.
    fn acting_person(people: &[usize], view: &View) -> usize {
        if people.len() == 1 { people[0] } else { view.to_move }
    }

    /// Whether the engine of seat `seat` accepts a draw, by the score of its last move (see
    /// the module's doc); its refusal says why.
    fn engine_accepts(&self, seat: usize, view: &View) -> Result<(), String> {
        let last = (0..self.steps.len()).rev().find(|&i| view.events[i].player == seat + 1);
        let score = last.and_then(|i| self.steps[i].score.clone());
        let label = self.seats[seat].label();
        let value = match score.as_deref().and_then(|s| s.split_once(' ')) {
            Some(("cp", value)) => value.parse::<i64>().ok(),
            Some(("mate", value)) => {
                value.parse::<i64>().ok().map(|n| if n > 0 { 100_000 } else { -100_000 })
            }
            _ => None,
        };
        match value {
            Some(value) if value <= ENGINE_ACCEPTS_AT_MOST => Ok(()),
            Some(_) => {
                Err(format!("{label} declines the draw (it scores its game {})", score.unwrap_or_default()))
            }
            None => Err(format!("{label} declines the draw (it has not judged the game yet)")),
        }
    }
}

impl Games {
    /// A person resigns: the only person of the game, or between two people the side to
    /// move. The other side wins.
    pub fn resign(self: &Arc<Games>, id: u64) -> Result<Value, String> {
        let game = self.game(id)?;
        let mut g = lock(&game);
        let (people, view) = g.people("resigning")?;
        let seat = Game::acting_person(&people, &view);
        g.ending = Some(Ending::Resignation(seat));
        g.draw_offer = None;
        g.thinking = false;
        g.generation += 1; // an engine thinking meanwhile is answered no more
        g.changed();
        Ok(g.snapshot())
    }

    /// Offers, accepts (`accept` true) or declines (`accept` false) a draw, where the rules
    /// know draws. Against an engine the offer is answered at once ([`ENGINE_ACCEPTS_AT_MOST`]);
    /// a declined offer is an error naming why, and changes nothing.
    pub fn draw(self: &Arc<Games>, id: u64, accept: Option<bool>) -> Result<Value, String> {
        let game = self.game(id)?;
        let mut g = lock(&game);
        let (people, view) = g.people("a draw by agreement")?;
        if !g.caps.draws {
            return Err(format!("{} has no draws: the game is played out (or resigned)", g.variant));
        }
        let person = Game::acting_person(&people, &view);
        match (g.draw_offer, accept) {
            (Some(offerer), Some(true)) if people.len() == 2 || offerer != person => {
                g.ending = Some(Ending::Agreement);
                g.draw_offer = None;
                g.thinking = false;
                g.generation += 1;
            }
            (Some(_), Some(false)) => g.draw_offer = None,
            (None, Some(_)) => return Err("no draw has been offered".to_string()),
            (Some(offerer), _) => {
                return Err(format!("{} has offered a draw: accept or decline it", view.seat_name(offerer)));
            }
            (None, None) if people.len() == 2 => g.draw_offer = Some(person),
            (None, None) => {
                let engine = 1 - person;
                g.engine_accepts(engine, &view)?;
                g.ending = Some(Ending::Agreement);
                g.thinking = false;
                g.generation += 1;
            }
        }
        g.changed();
        Ok(g.snapshot())
    }
}
