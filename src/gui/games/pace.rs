//! The pace of a dice game's engine turns: how long each of an engine's steps stays on the
//! page before the next, so that a person can follow an engine's turn of thirty rolls and
//! choices, and the way to hurry one.
//!
//! A paced game ([`super::super::view::Capabilities::paced`]: Can't Stop) shows each engine
//! step for its *pace*, the new game's `pace` in milliseconds (default: the time per move, as
//! before there was a pace; 0: no pause, as fast as the engines answer). The pace is the
//! page's, not the engines': an engine still thinks up to its time per move, and a step it
//! answers slower than the pace is played as soon as it comes.
//!
//! **Skipping to the end of a turn.** While an engine is on turn, a person may ask to skip the
//! rest of its turn: its remaining steps are played without pauses, and the next turn (a
//! person's, or another engine's) is paced again. A pause under way ends when the skip comes.

use super::*;
use std::time::Duration;

/// How often a pause looks whether its turn is being skipped.
const SKIP_CHECK: Duration = Duration::from_millis(20);

/// Waits out the pause `pace` of seat `seat` in `game`, or less: until a skip of its turn.
pub(super) fn wait(game: &Mutex<Game>, seat: usize, pace: Duration) {
    let end = Instant::now() + pace;
    while let Some(left) = end.checked_duration_since(Instant::now()).filter(|d| !d.is_zero()) {
        if lock(game).skipping == Some(seat) {
            return;
        }
        std::thread::sleep(left.min(SKIP_CHECK));
    }
}

impl Game {
    /// The pause before seat `seat`'s next step is shown: none in an unpaced game (a board
    /// game), in a game without a pace or in a turn being skipped.
    pub(super) fn pause(&self, seat: usize) -> Option<Duration> {
        let hurried = self.skipping == Some(seat);
        (self.caps.paced && self.pace > 0 && !hurried).then(|| Duration::from_millis(self.pace))
    }

    /// Ends a skip once the turn it hurried is over (another seat is to move).
    pub(super) fn end_skip(&mut self, to_move: usize) {
        if self.skipping.is_some_and(|seat| seat != to_move) {
            self.skipping = None;
        }
    }
}

impl Games {
    /// Skips the rest of the engine's turn now under way: its steps come without pauses
    /// until the next seat is to move. Refused in a board game, on a person's turn and once
    /// the game is over.
    pub fn skip_turn(self: &Arc<Games>, id: u64) -> Result<Value, String> {
        let game = self.game(id)?;
        let mut g = lock(&game);
        if !g.caps.paced {
            return Err("skipping a turn is for dice games, whose engine turns are paced".to_string());
        }
        let view = g.view();
        if let Some(result) = &view.result {
            return Err(format!("the game is over: {result}"));
        }
        if g.seats[view.to_move].is_human() {
            return Err(format!(
                "player {} is a person: only an engine's turn can be skipped",
                view.to_move + 1
            ));
        }
        g.skipping = Some(view.to_move);
        g.changed();
        Ok(g.snapshot())
    }
}
