//! Fixed players, the opponents of matches and the yardsticks of strength: `rule28` (Michael
//! Keller's "Rule of 28"), `greedy` and `random`. Each decides from the position alone. (`glenn`,
//! Glenn and Aloi's tuned generalisation of the Rule of 28, is in `glenn.rs` and uses `decide` and
//! `wins_by_stopping` from here.)
//!
//! **Rule of 28**, as we read Keller's description (solitairelaboratory.com) and Glenn's
//! generalisation of it: a column is worth 1 (7), 2 (6, 8), 3 (5, 9), 4 (4, 10), 5 (3, 11) or
//! 6 (2, 12) points per space. The turn's count is, over the neutral markers, the column's
//! worth per space advanced this turn, plus once more for placing the marker; with all three
//! markers placed, 2 is added if all are in odd columns, 2 taken away if all are in even ones,
//! and 4 added if all are at or below 7, or all at or above 7 (markers bunched on one side
//! make the next roll riskier). The player stops when the count reaches 28 (or when stopping
//! wins the game). He chooses the result worth most by "move value" (7 is worth 6 per space,
//! down to 1 for 2 and 12), minus 6 for every neutral marker it places.

use super::board::{self, COLUMNS, HEIGHTS};
use super::{Choice, Event, Phase, Position};

/// Points per space for the stopping count (index: column name).
const PROGRESS_POINTS: [u32; 13] = [0, 0, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6];
/// Points per space for choosing (index: column name): central columns first.
const MOVE_POINTS: [i32; 13] = [0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1];
/// The cost of placing a new neutral marker, in move points.
const MARKER_COST: i32 = 6;
/// The count at which the Rule of 28 stops.
const THRESHOLD: u32 = 28;

/// The Rule of 28's decision in phase `c` or `s`; `None` where the player has none.
pub fn rule28(pos: &Position) -> Option<Event> {
    decide(pos, best_by_move_points, |p| wins_by_stopping(p) || turn_count(p) >= THRESHOLD)
}

/// The greedy player's decision: the result that advances most spaces (ties by the Rule of
/// 28's choice), rolling on until all three neutral markers are placed, then stopping (and
/// stopping at once when that wins the game).
pub fn greedy(pos: &Position) -> Option<Event> {
    decide(
        pos,
        |p, choices| {
            let most = choices.iter().map(|c| c.columns().len()).max().unwrap_or(0);
            let longest: Vec<Choice> =
                choices.iter().copied().filter(|c| c.columns().len() == most).collect();
            best_by_move_points(p, &longest)
        },
        |p| wins_by_stopping(p) || p.neutral_count() == 3,
    )
}

/// The random player's decision: every legal event equally likely, drawn from `seed` and the
/// position (so that the same seed and position give the same event).
pub fn random(pos: &Position, seed: u64) -> Option<Event> {
    if pos.phase() == Phase::Roll || pos.winner().is_some() {
        return None;
    }
    let events = pos.legal_events();
    // The state's fields only, not the options: the same seed keeps the same games whatever
    // rules a position carries (and the draws of earlier runs stay the same).
    use std::hash::Hash;
    let mut hasher = rustc_hash::FxHasher::default();
    (pos.players, pos.to_move, pos.markers, pos.neutral, pos.phase, pos.closed, pos.winner).hash(&mut hasher);
    let mixed = splitmix(std::hash::Hasher::finish(&hasher) ^ splitmix(seed));
    Some(events[(mixed % events.len() as u64) as usize])
}

/// One round of SplitMix64's output function: spreads the bits of `x`.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A fixed player from its two rules: which choice, and whether to stop.
pub(super) fn decide(
    pos: &Position,
    choose: impl Fn(&Position, &[Choice]) -> Choice,
    stops: impl Fn(&Position) -> bool,
) -> Option<Event> {
    if pos.winner().is_some() {
        return None;
    }
    match pos.phase() {
        Phase::Roll => None,
        Phase::Choose(dice) => Some(Event::Choose(choose(pos, &pos.choices(dice)))),
        // Under variant B a stop may be refused: the player rolls on.
        Phase::Decide => Some(if stops(pos) && pos.may_stop() { Event::Stop } else { Event::Continue }),
    }
}

/// The choice worth most in move points less the markers it places (the first of equals).
fn best_by_move_points(pos: &Position, choices: &[Choice]) -> Choice {
    let worth = |choice: &Choice| -> i32 {
        let columns = choice.columns();
        let placed = columns
            .iter()
            .enumerate()
            .filter(|&(i, &c)| pos.neutral(board::index(c)) == 0 && (i == 0 || columns[i - 1] != c))
            .count() as i32;
        columns.iter().map(|&c| MOVE_POINTS[c as usize]).sum::<i32>() - MARKER_COST * placed
    };
    choices.iter().copied().fold(choices[0], |best, c| if worth(&c) > worth(&best) { c } else { best })
}

/// The Rule of 28's count of the turn so far.
fn turn_count(pos: &Position) -> u32 {
    let mover = pos.to_move();
    let columns: Vec<usize> = (0..COLUMNS).filter(|&c| pos.neutral(c) != 0).collect();
    let mut count: u32 = columns
        .iter()
        .map(|&c| {
            let spaces = u32::from(pos.neutral(c) - pos.marker(mover, c));
            PROGRESS_POINTS[board::name(c) as usize] * (spaces + 1)
        })
        .sum();
    if columns.len() == 3 {
        let names: Vec<u8> = columns.iter().map(|&c| board::name(c)).collect();
        if names.iter().all(|n| n % 2 == 1) {
            count += 2;
        }
        if names.iter().all(|n| n % 2 == 0) {
            count = count.saturating_sub(2);
        }
        if names.iter().all(|&n| n <= 7) || names.iter().all(|&n| n >= 7) {
            count += 4;
        }
    }
    count
}

/// Whether stopping now wins the game.
pub(super) fn wins_by_stopping(pos: &Position) -> bool {
    let mover = pos.to_move();
    let newly = (0..COLUMNS).filter(|&c| pos.neutral(c) == HEIGHTS[c]).count() as u32;
    pos.won_count(mover) + newly >= pos.columns_to_win()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::parse_fen(fen).unwrap()
    }

    #[test]
    fn the_rule_of_28_counts_and_stops() {
        // 7 placed and moved 3 spaces: 1 x (3 + 1) = 4; 2 placed on space 1: 6 x 2 = 12; 12 on
        // space 2: 6 x 3 = 18; neither all odd nor all even, nor all on one side of 7: 34.
        let p = pos("p2 00000000000/00000000000 2:1,7:3,12:2 1 s");
        assert_eq!(turn_count(&p), 34);
        // 4, 6, 8 at space 1: (4 + 2 + 2) x 2 = 16, all even -2: 14.
        assert_eq!(turn_count(&pos("p2 00000000000/00000000000 4:1,6:1,8:1 1 s")), 14);
        // 3, 5, 7 at space 1: (5 + 3 + 1) x 2 = 18, all odd +2, all low +4: 24.
        assert_eq!(turn_count(&pos("p2 00000000000/00000000000 3:1,5:1,7:1 1 s")), 24);
        assert_eq!(rule28(&p), Some(Event::Stop));
        let early = pos("p2 00000000000/00000000000 6:1,8:1 1 s");
        assert_eq!(turn_count(&early), 8);
        assert_eq!(rule28(&early), Some(Event::Continue));
        // Player 1 has 2 and 12 and stands on the top of 7: stopping wins.
        assert_eq!(rule28(&pos("p3 30000500003/00000500000/00000000000 7:13 1 s")), Some(Event::Stop));
    }

    #[test]
    fn the_choices_follow_move_points() {
        // 1-5-4-6: 5.11 is worth 4 + 2 - 12, 6.10 5 + 3 - 12, 7.9 6 + 4 - 12: 7.9.
        let p = pos("p2 00000000000/00000000000 - 1 c1456");
        assert_eq!(rule28(&p).unwrap().to_string(), "7.9");
        // With 6 and 10 placed, 2-4-3-5 offers 5, 6.8, 7.7, 9: 7.7 (6 + 6 - 6) beats 6.8
        // (5 + 5 - 6), 5 (4 - 6) and 9 (4 - 6).
        let q = pos("p2 00000000000/00000000000 6:1,10:1 1 c2345");
        assert_eq!(rule28(&q).unwrap().to_string(), "7.7");
        assert_eq!(greedy(&q).unwrap().to_string(), "7.7");
        // Greedy takes two spaces over one: 6.8 against 9 with 7 closed.
        let r = pos("p2 00000d00000/00000000000 6:1,10:1 2 c2345");
        assert_eq!(greedy(&r).unwrap().to_string(), "6.8");
    }

    #[test]
    fn random_is_reproducible_and_legal() {
        let p = pos("p2 00000000000/00000000000 6:1,10:1 1 c2345");
        let picks: Vec<Event> = (0..50).map(|seed| random(&p, seed).unwrap()).collect();
        assert!(picks.iter().all(|&e| p.is_legal(e)));
        assert!(picks.iter().collect::<std::collections::BTreeSet<_>>().len() > 1);
        assert_eq!(random(&p, 7), random(&p, 7));
    }
}
