//! The Can't Stop reference (`engine-tests/cantstop_reference`) against the rules contract
//! (cantstop.md): its seven worked examples, its decided edge cases written as positions, the FEN
//! and event notations with every kind of rejected position, the perft counts and bust figures of
//! `positions/cantstop-perft.txt`, the dice figures (orderings, the table of the probability that
//! a roll makes a given sum) and every line of `positions/cantstop-nobust.tsv` (both files copied
//! from beside the contract), and the invariants the rules state, checked on every position of
//! seeded random games against a second, brute-force reading of the choice rules written here.
//! The optional variants ("## Optional variants") are checked the same way: the options offered
//! per player count, W = 4 and 5 in the win and in rules 8 and 9, variant A (skip) and variant B
//! (must roll) on hand-worked positions, every rejection of that section, perft from the start
//! under every option set (against relations derived from the rules), and random games under each.
//!
//! The reference was written from the contract alone, without reading the engine; the engine will
//! be checked against it by a differential test. Expected values here come from the contract's
//! text and its data files, never from the reference's output.

#[path = "cantstop_reference/mod.rs"]
mod cantstop_reference;

use cantstop_reference::*;
use std::collections::BTreeSet;
use std::fmt::Debug;

struct Checker {
    checks: u64,
    failures: Vec<String>,
}

impl Checker {
    fn new() -> Checker {
        Checker { checks: 0, failures: Vec::new() }
    }
    fn check(&mut self, ok: bool, what: impl Into<String>) {
        self.checks += 1;
        if !ok {
            self.failures.push(what.into());
        }
    }
    fn eq<T: Debug + PartialEq>(&mut self, got: T, want: T, what: &str) {
        let ok = got == want;
        self.check(ok, format!("{what}: got {got:?}, want {want:?}"));
    }
    /// Fails the test with every failed check.
    fn finish(self) {
        assert!(self.checks > 0, "no check ran");
        assert!(
            self.failures.is_empty(),
            "{} of {} checks failed:\n{}",
            self.failures.len(),
            self.checks,
            self.failures.join("\n")
        );
    }
}

/// The position after playing `events` (space-separated) from `fen`.
fn after(fen: &str, events: &str) -> Result<Position, String> {
    after_with(&Options::base(), fen, events)
}

/// The position after playing `events` from `fen` read under `options`.
fn after_with(options: &Options, fen: &str, events: &str) -> Result<Position, String> {
    let mut pos = Position::parse_with(fen, options)?;
    for event in events.split_whitespace() {
        pos = pos.play(event)?;
    }
    Ok(pos)
}

/// The FEN after `events` from `fen` read under `options`.
fn fen_after_with(options: &Options, fen: &str, events: &str) -> Result<String, String> {
    after_with(options, fen, events).map(|p| p.to_fen())
}

/// The legal events after `events` from `fen` read under `options`, joined by spaces.
fn events_after_with(options: &Options, fen: &str, events: &str) -> Result<String, String> {
    after_with(options, fen, events).map(|p| p.legal_events().join(" "))
}

/// The FEN after `events` from `fen`.
fn fen_after(fen: &str, events: &str) -> Result<String, String> {
    after(fen, events).map(|p| p.to_fen())
}

/// The legal events after `events` from `fen`, joined by spaces.
fn events_after(fen: &str, events: &str) -> Result<String, String> {
    after(fen, events).map(|p| p.legal_events().join(" "))
}

/// The 126 roll tokens `r1111` ... `r6666`, dice non-decreasing, in order.
fn roll_tokens() -> Vec<String> {
    let mut out = Vec::new();
    for a in 1..=6 {
        for b in a..=6 {
            for c in b..=6 {
                for d in c..=6 {
                    out.push(format!("r{a}{b}{c}{d}"));
                }
            }
        }
    }
    out
}

/// The 1296 ordered outcomes of four dice.
fn ordered_outcomes() -> Vec<[u8; 4]> {
    let mut out = Vec::new();
    for a in 1..=6 {
        for b in 1..=6 {
            for c in 1..=6 {
                for d in 1..=6 {
                    out.push([a, b, c, d]);
                }
            }
        }
    }
    out
}

/// The columns of a choice token, as numbers (the contract's sort key).
fn choice_key(token: &str) -> Vec<u8> {
    token.split('.').map(|c| c.parse().unwrap()).collect()
}

/// SplitMix64; no crates.
struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

// ---------------------------------------------------------------------------------------------
// A second reading of "Choices", by brute force over candidate results: from a pairing with sums
// s and t, a candidate result is a sub-multiset of {s, t} (s, t, s+t; or s, s+s when s = t); it
// is realisable when its advances can be made one after another, each in a usable sum, in some
// order; and it is allowed when realisable and no realisable candidate of the same pairing
// strictly contains it ("a usable sum may not be left unused", "advance again if still usable",
// "exactly one of them" when only one marker is left).

fn is_closed(pos: &Position, column: u8) -> bool {
    (1..=pos.players()).any(|p| pos.marker(p, column) == column_length(column))
}

/// Where a neutral marker that would land on `space` of `column` lands: there, or under skip
/// ("it goes on to the next space up that holds none") the first space from there up that holds
/// no coloured marker of a player other than the mover; `None` past the top.
fn brute_landing(pos: &Position, column: u8, space: u8, skip: bool) -> Option<u8> {
    let mut space = space;
    while skip && (1..=pos.players()).any(|p| p != pos.to_move() && pos.marker(p, column) == space) {
        space += 1;
    }
    (space <= column_length(column)).then_some(space)
}

/// The neutral markers after advancing in `column` (under skip or not), or `None` if the sum is
/// not usable.
fn brute_step(pos: &Position, neutral: &[(u8, u8)], column: u8, skip: bool) -> Option<Vec<(u8, u8)>> {
    if is_closed(pos, column) {
        return None;
    }
    let mut out = neutral.to_vec();
    match out.iter().position(|&(c, _)| c == column) {
        Some(i) if out[i].1 < column_length(column) => {
            out[i].1 = brute_landing(pos, column, out[i].1 + 1, skip)?
        }
        Some(_) => return None,
        None if out.len() < 3 => {
            out.push((column, brute_landing(pos, column, pos.marker(pos.to_move(), column) + 1, skip)?))
        }
        None => return None,
    }
    out.sort();
    Some(out)
}

/// The neutral markers after the advances of `result` in this order, if each is possible, under
/// skip or not.
fn brute_apply_as(pos: &Position, result: &[u8], skip: bool) -> Option<Vec<(u8, u8)>> {
    let mut neutral = pos.neutral_markers();
    for &column in result {
        neutral = brute_step(pos, &neutral, column, skip)?;
    }
    Some(neutral)
}

/// The neutral markers after the advances of `result`, under the position's own options.
fn brute_apply(pos: &Position, result: &[u8]) -> Option<Vec<(u8, u8)>> {
    brute_apply_as(pos, result, pos.options().variant == Variant::Skip)
}

fn brute_choices(pos: &Position, dice: [u8; 4]) -> Vec<String> {
    let [a, b, c, d] = dice;
    let mut set: BTreeSet<Vec<u8>> = BTreeSet::new();
    for (s, t) in [(a + b, c + d), (a + c, b + d), (a + d, b + c)] {
        let candidates: Vec<Vec<u8>> =
            if s == t { vec![vec![s], vec![s, s]] } else { vec![vec![s], vec![t], vec![s, t]] };
        let realisable = |r: &Vec<u8>| {
            let mut reversed = r.clone();
            reversed.reverse();
            brute_apply(pos, r).is_some() || brute_apply(pos, &reversed).is_some()
        };
        let contains = |big: &Vec<u8>, small: &Vec<u8>| {
            big.len() > small.len() && small.iter().all(|x| big.iter().filter(|y| *y == x).count() >= 1)
        };
        for r in &candidates {
            if realisable(r) && !candidates.iter().any(|big| contains(big, r) && realisable(big)) {
                let mut sorted = r.clone();
                sorted.sort();
                set.insert(sorted);
            }
        }
    }
    set.iter().map(|r| r.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(".")).collect()
}

// ---------------------------------------------------------------------------------------------
// The worked examples.

fn examples(c: &mut Checker) {
    let start = START_FEN;
    let ok = |s: &str| Ok(s.to_string());

    // 1. A normal turn.
    c.eq(events_after(start, "r1546"), ok("5.11 6.10 7.9"), "ex1: r1546");
    c.eq(
        fen_after(start, "r1546"),
        ok("p2 00000000000/00000000000 - 1 c1456"),
        "ex1: player 1 rolled 1-5-4-6",
    );
    c.eq(fen_after(start, "r1546 6.10"), ok("p2 00000000000/00000000000 6:1,10:1 1 s"), "ex1: 6.10");
    c.eq(events_after(start, "r1546 6.10"), ok("roll stop"), "ex1: roll or stop");
    c.eq(events_after(start, "r1546 6.10 roll r2435"), ok("5 6.8 7.7 9"), "ex1: r2435");
    c.eq(
        fen_after(start, "r1546 6.10 roll r2435 6.8"),
        ok("p2 00000000000/00000000000 6:2,8:1,10:1 1 s"),
        "ex1: 6.8",
    );
    c.eq(
        fen_after(start, "r1546 6.10 roll r2435 7.7"),
        ok("p2 00000000000/00000000000 6:1,7:2,10:1 1 s"),
        "ex1: 7.7",
    );
    c.eq(
        fen_after(start, "r1546 6.10 roll r2435 5"),
        ok("p2 00000000000/00000000000 5:1,6:1,10:1 1 s"),
        "ex1: the last marker in 5",
    );
    c.eq(
        fen_after(start, "r1546 6.10 roll r2435 9"),
        ok("p2 00000000000/00000000000 6:1,9:1,10:1 1 s"),
        "ex1: the last marker in 9",
    );
    c.check(after(start, "r1546 6.10 roll r2435 5.9").is_err(), "ex1: 5.9 needs two markers, one is left");
    c.eq(
        fen_after(start, "r1546 6.10 roll r2435 6.8 stop"),
        ok("p2 00002010100/00000000000 - 2 r"),
        "ex1: stop",
    );

    // 2. A bust, and a column blocked by a neutral marker on its top.
    let f2 = "p2 01002030000/00000000000 3:2,6:11,8:4 1 r";
    c.eq(fen_after(f2, "r2455"), ok("p2 01002030000/00000000000 - 2 r"), "ex2: r2455 busts");
    c.eq(events_after(f2, "r1526"), ok("3 8"), "ex2: r1526");
    c.eq(Position::parse(f2).map(|p| p.choices_for_dice([2, 4, 5, 5]).len()), Ok(0), "ex2: 2455 is a bust");

    // 3. The 2-4-5-5 choice with one marker left.
    c.eq(events_after("p2 00000000000/00000000000 3:1,6:1 1 r", "r2455"), ok("6.10 7 9"), "ex3: r2455");

    // 4. Closed columns.
    let f4 = "p2 0000b000700/000000b0000 - 1 r";
    c.eq(fen_after(f4, "r2446"), ok("p2 0000b000700/000000b0000 - 2 r"), "ex4: r2446 busts");

    // 5. Winning on stop.
    let f5 = "p3 30000500003/00000500000/00000000000 7:13 1 s";
    c.eq(events_after(f5, ""), ok("roll stop"), "ex5: roll or stop");
    c.eq(fen_after(f5, "stop"), ok("p3 30000d00003/00000000000/00000000000 - 2 r"), "ex5: stop");
    c.eq(after(f5, "stop").map(|p| p.winner()), Ok(Some(1)), "ex5: player 1 wins");
    c.eq(events_after(f5, "stop"), ok(""), "ex5: the game is over");
    let f5b = "p2 30000000003/00000000000 3:5,11:5 1 s";
    c.eq(fen_after(f5b, "stop"), ok("p2 35000000053/00000000000 - 2 r"), "ex5: one stop wins 3 and 11");
    c.eq(
        after(f5b, "stop").map(|p| (p.winner(), p.won_columns(1))),
        Ok((Some(1), vec![2, 3, 11, 12])),
        "ex5: 4 columns",
    );
    c.eq(events_after(f5b, "stop"), ok(""), "ex5b: the game is over");

    // 6. The same sum twice with one space left.
    let f6 = "p2 00000000000/00000000000 4:2,7:12,9:3 1 r";
    c.eq(events_after(f6, "r1634"), ok("4 7 9"), "ex6: r1634");
    c.eq(fen_after(f6, "r1634 7"), ok("p2 00000000000/00000000000 4:2,7:13,9:3 1 s"), "ex6: 7");
    c.check(after(f6, "r1634 7.7").is_err(), "ex6: 7.7 is not a choice (the second advance is lost)");
    c.check(after(f6, "r1634 4.10").is_err(), "ex6: 4.10 is not a choice (no marker for 10)");

    // 7. Placing above one's own marker, on a shared space.
    let f7 = "p2 00003000000/00002000000 - 2 r";
    c.eq(events_after(f7, "r1515"), ok("2.10 6.6"), "ex7: r1515");
    c.eq(fen_after(f7, "r1515 6.6"), ok("p2 00003000000/00002000000 6:4 2 s"), "ex7: 6.6");

    // The whole turn of "Events and their notation".
    c.eq(
        fen_after(start, "r1546 6.10 roll r2435 6.8 stop"),
        ok("p2 00002010100/00000000000 - 2 r"),
        "a whole turn",
    );
}

// ---------------------------------------------------------------------------------------------
// The decided edge cases, as positions.

fn edge_cases(c: &mut Checker) {
    let ok = |s: &str| Ok(s.to_string());
    let empty2 = "p2 00000000000/00000000000";

    // 1. A neutral marker on a top space cannot move; it wins only on stop; a bust loses it.
    let top = format!("{empty2} 4:2,7:13,9:3 1 s");
    c.eq(fen_after(&top, "stop"), ok("p2 00200d03000/00000000000 - 2 r"), "edge 1: stop wins 7");
    c.eq(fen_after(&top, "roll r1111"), ok("p2 00000000000/00000000000 - 2 r"), "edge 1: a bust loses 7");
    c.eq(
        fen_after(&top, "roll r1616"),
        ok("p2 00000000000/00000000000 - 2 r"),
        "edge 1: 7+7 on the top busts",
    );
    c.eq(events_after(&top, "roll r1634"), ok("4 9"), "edge 1: 7 is not usable, 4 and 9 are");
    c.eq(
        fen_after("p3 30000500003/00000500000/0000b000000 7:13 1 s", "stop"),
        ok("p3 30000d00003/00000000000/0000b000000 - 2 r"),
        "edge 1: the FEN example: player 1 stops and wins column 7",
    );

    // 2. Closed columns take no marker, not even from their winner.
    c.eq(
        events_after("p2 00000d00000/00000000000 - 1 r", "r1616"),
        ok("2.12"),
        "edge 2: 7 closed to its winner",
    );
    c.eq(
        fen_after("p2 30000d00000/00000000003 - 1 r", "r1616"),
        ok("p2 30000d00000/00000000003 - 2 r"),
        "edge 2: all sums closed busts with no neutral marker placed",
    );

    // 3. Shared spaces.
    c.check(Position::parse("p2 00003000000/00003000000 - 1 r").is_ok(), "edge 3: two players on one space");
    c.check(
        Position::parse("p2 00003000000/00002000000 6:3 2 s").is_ok(),
        "edge 3: neutral on another's marker",
    );
    c.eq(
        fen_after("p2 00003000000/00002000000 - 2 r", "r1515 2.10 stop"),
        ok("p2 00003000000/10002000100 - 1 r"),
        "edge 3: stop beside nobody",
    );
    c.eq(
        fen_after("p2 00003000000/00002000000 6:3 2 s", "stop"),
        ok("p2 00003000000/00003000000 - 1 r"),
        "edge 3: stop on a shared space",
    );

    // 4. A partly usable pairing: 4+10 with markers in 4, 6, 8.
    c.eq(events_after("p2 00000000000/00000000000 4:1,6:1,8:1 1 r", "r1346"), ok("4"), "edge 4: r1346");

    // 5. The same sum twice with one space left, the first advance placing on the top.
    let f5 = "p2 20000000000/00000000000 - 1 r";
    c.eq(events_after(f5, "r1111"), ok("2"), "edge 5: 2+2 with one space left");
    c.eq(fen_after(f5, "r1111 2"), ok("p2 20000000000/00000000000 2:3 1 s"), "edge 5: placed on the top");
    c.check(after(f5, "r1111 2.2").is_err(), "edge 5: 2.2 is not a choice");

    // 6. A doubled sum with one marker left.
    let f6 = format!("{empty2} 4:1,10:1 1 r");
    c.eq(events_after(&f6, "r3434"), ok("6 7.7 8"), "edge 6: 7+7 with one marker left, or 6 or 8");
    c.eq(fen_after(&f6, "r3434 7.7"), ok("p2 00000000000/00000000000 4:1,7:2,10:1 1 s"), "edge 6: two up");

    // 7. Several columns won by one stop, up to 5, other players' markers removed from each.
    let f7 = "p2 30000000003/02300000020 3:5,4:7,11:5 1 s";
    c.eq(fen_after(f7, "stop"), ok("p2 35700000053/00000000000 - 2 r"), "edge 7: stop wins 3 columns");
    c.eq(
        after(f7, "stop").map(|p| (p.winner(), p.won_columns(1).len())),
        Ok((Some(1), 5)),
        "edge 7: 5 columns",
    );
    c.check(Position::parse("p2 35700000053/00000000000 - 2 r").is_ok(), "edge 7: 5 won columns accepted");

    // 8. No stop before the first roll; rolling again always allowed.
    c.eq(
        Position::parse(START_FEN).map(|p| p.legal_events()),
        Ok(roll_tokens()),
        "edge 8: the start's events",
    );
    c.check(after(START_FEN, "stop").is_err(), "edge 8: no stop before the first roll");
    c.check(after(START_FEN, "roll").is_err(), "edge 8: no `roll` event in phase r");
    c.check(after(START_FEN, "r1546 stop").is_err(), "edge 8: no stop before choosing");
    let tops = format!("{empty2} 2:3,3:5,12:3 1 s");
    c.eq(events_after(&tops, ""), ok("roll stop"), "edge 8: roll allowed with every marker on a top");
    c.eq(Position::parse(&tops).map(|p| p.bust_probability_1296()), Ok(1296), "edge 8: every roll busts");
    for roll in roll_tokens() {
        c.eq(
            fen_after(&tops, &format!("roll {roll}")),
            ok("p2 00000000000/00000000000 - 2 r"),
            "edge 8: bust",
        );
    }

    // 9. Dice order does not matter.
    for fen in [START_FEN, "p2 01002030000/00000000000 3:2,6:11,8:4 1 r", "p2 00003000000/00002000000 - 2 r"]
    {
        let pos = Position::parse(fen).unwrap();
        for dice in ordered_outcomes() {
            let mut sorted = dice;
            sorted.sort();
            let a = pos.play(&format!("r{}{}{}{}", dice[0], dice[1], dice[2], dice[3]));
            let b = pos.play(&format!("r{}{}{}{}", sorted[0], sorted[1], sorted[2], sorted[3]));
            c.check(a == b, format!("edge 9: {fen}: {dice:?} as rolled and sorted"));
            c.eq(pos.choices_for_dice(dice), pos.choices_for_dice(sorted), "edge 9: choices_for_dice order");
        }
    }

    // 10. After the win no player has any event.
    let won = "p2 35000000053/00000000000 - 2 r";
    c.eq(events_after(won, ""), ok(""), "edge 10: no events");
    for event in ["r1234", "r1111", "roll", "stop", "7"] {
        c.check(after(won, event).is_err(), format!("edge 10: {event} after the win"));
    }
    let won_pos = Position::parse(won).unwrap();
    c.eq(
        (won_pos.winner(), won_pos.to_move(), won_pos.players()),
        (Some(1), 2, 2),
        "edge 10: winner, to move",
    );
    c.eq(Position::parse(START_FEN).map(|p| p.winner()), Ok(None), "edge 10: no winner at the start");

    // 11. Repetition means nothing: two busts in a row give the same position.
    let f4 = "p2 0000b000700/000000b0000 - 1 r";
    c.eq(after(f4, "r2446 r2446"), Position::parse(f4), "edge 11: two busts repeat the position");
    c.eq(events_after(f4, "r2446 r2446"), Ok(roll_tokens().join(" ")), "edge 11: still 126 rolls");
}

// ---------------------------------------------------------------------------------------------
// Notation.

fn fen_checks(c: &mut Checker) {
    c.eq(start_fen(2), START_FEN.to_string(), "start_fen(2)");
    c.eq(start_fen(3), "p3 00000000000/00000000000/00000000000 - 1 r".to_string(), "start_fen(3)");
    c.eq(
        start_fen(4),
        "p4 00000000000/00000000000/00000000000/00000000000 - 1 r".to_string(),
        "start_fen(4)",
    );
    for n in 2..=4 {
        let p = Position::parse(&start_fen(n)).unwrap();
        c.eq((p.players(), p.to_move(), p.winner(), p.legal_events()), (n, 1, None, roll_tokens()), "start");
    }

    // Canonical FENs of the contract and its perft table read and write back unchanged.
    let canonical = [
        START_FEN,
        "p2 00000000000/00000000000 - 1 c1456",
        "p3 30000500003/00000500000/0000b000000 7:13 1 s",
        "p2 00000000000/00000000000 6:1,10:1 1 s",
        "p2 00000000000/00000000000 6:2,8:1,10:1 1 s",
        "p2 00000000000/00000000000 6:1,7:2,10:1 1 s",
        "p2 00002010100/00000000000 - 2 r",
        "p2 01002030000/00000000000 3:2,6:11,8:4 1 r",
        "p2 01002030000/00000000000 - 2 r",
        "p2 00000000000/00000000000 3:1,6:1 1 r",
        "p2 0000b000700/000000b0000 - 1 r",
        "p2 0000b000700/000000b0000 - 2 r",
        "p3 30000500003/00000500000/00000000000 7:13 1 s",
        "p3 30000d00003/00000000000/00000000000 - 2 r",
        "p2 30000000003/00000000000 3:5,11:5 1 s",
        "p2 35000000053/00000000000 - 2 r",
        "p2 00000000000/00000000000 4:2,7:12,9:3 1 r",
        "p2 00000000000/00000000000 4:2,7:13,9:3 1 s",
        "p2 00003000000/00002000000 - 2 r",
        "p2 00003000000/00002000000 6:4 2 s",
        "p4 05000001000/0000a0b0000/00010000700/00000000000 5:2,11:1 3 c2356",
        "p2 35000000053/00000600000 - 2 r",
        "p4 00000000000/00000000000/00000000000/00000000000 - 4 c6666",
        "p4 30000d00000/00000000000/05000000000/00000000000 - 2 r",
    ];
    for fen in canonical {
        c.eq(Position::parse(fen).map(|p| p.to_fen()), Ok(fen.to_string()), "canonical round trip");
    }

    // Non-canonical but valid: dice and neutral markers in any order.
    for (input, want) in [
        ("p2 00000000000/00000000000 - 1 c6541", "p2 00000000000/00000000000 - 1 c1456"),
        ("p2 00000000000/00000000000 10:1,6:1 1 s", "p2 00000000000/00000000000 6:1,10:1 1 s"),
        ("p2 00000000000/00000000000 9:3,4:2,7:12 1 r", "p2 00000000000/00000000000 4:2,7:12,9:3 1 r"),
        (
            "p4 05000001000/0000a0b0000/00010000700/00000000000 11:1,5:2 3 c6532",
            "p4 05000001000/0000a0b0000/00010000700/00000000000 5:2,11:1 3 c2356",
        ),
    ] {
        c.eq(Position::parse(input).map(|p| p.to_fen()), Ok(want.to_string()), &format!("{input} read"));
        c.eq(Position::parse(input), Position::parse(want), &format!("{input} equals its canonical form"));
    }

    // Rejected positions, each with the number of the rule it breaks.
    let rejected: &[(usize, &str)] = &[
        (1, ""),
        (1, "p2 00000000000/00000000000 - 1"),
        (1, "p2 00000000000/00000000000 - 1 r x"),
        (1, "p1 00000000000 - 1 r"),
        (1, "p5 00000000000/00000000000/00000000000/00000000000/00000000000 - 1 r"),
        (1, "P2 00000000000/00000000000 - 1 r"),
        (1, "p2 00000000000 - 1 r"),
        (1, "p2 00000000000/00000000000/00000000000 - 1 r"),
        (1, "p3 00000000000/00000000000 - 1 r"),
        (1, "p2 0000000000/00000000000 - 1 r"),
        (1, "p2 000000000000/00000000000 - 1 r"),
        (1, "p2 0000e000000/00000000000 - 1 r"),
        (1, "p2 0000B000000/00000000000 - 1 r"),
        (1, "p2 0000-000000/00000000000 - 1 r"),
        (2, "p2 40000000000/00000000000 - 1 r"),
        (2, "p2 00000000004/00000000000 - 1 r"),
        (2, "p2 0000c000000/00000000000 - 1 r"),
        (2, "p2 00000000000/00000000060 - 1 r"),
        (3, "p2 30000000000/10000000000 - 1 r"),
        (3, "p3 00000000000/00000d00000/00000100000 - 1 r"),
        (3, "p2 30000000000/30000000000 - 1 r"),
        (4, "p2 00000000000/00000000000 - 3 r"),
        (4, "p2 00000000000/00000000000 - 0 r"),
        (4, "p2 00000000000/00000000000 - x r"),
        (4, "p2 00000000000/00000000000 - 01 r"),
        (4, "p2 00000000000/00000000000 - 1 x"),
        (4, "p2 00000000000/00000000000 - 1 c123"),
        (4, "p2 00000000000/00000000000 - 1 c1237"),
        (4, "p2 00000000000/00000000000 - 1 c0123"),
        (4, "p2 00000000000/00000000000 - 1 c12345"),
        (4, "p2 00000000000/00000000000 - 1 C1234"),
        (4, "p2 00000000000/00000000000 - 1 R"),
        (5, "p2 00000000000/00000000000 2:1,3:1,4:1,5:1 1 s"),
        (5, "p2 00000000000/00000000000 7:1,7:2 1 s"),
        (5, "p2 00000000000/00000000000 13:1 1 s"),
        (5, "p2 00000000000/00000000000 1:1 1 s"),
        (5, "p2 00000000000/0000b000000 6:3 1 s"),
        (5, "p2 0000b000000/00000000000 6:3 2 s"),
        (5, "p2 00003000000/00000000000 6:3 1 s"),
        (5, "p2 00003000000/00000000000 6:2 1 s"),
        (5, "p2 00000000000/00000000000 7:0 1 s"),
        (5, "p2 00000000000/00000000000 7:14 1 s"),
        (5, "p2 00000000000/00000000000 2:4 1 r"),
        (5, "p2 00000000000/00000000000 7-3 1 s"),
        (5, "p2 00000000000/00000000000 7: 1 s"),
        (5, "p2 00000000000/00000000000 7:1, 1 s"),
        (6, "p2 00000000000/00000000000 - 1 s"),
        (6, "p3 30000500003/00000500000/0000b000000 - 1 s"),
        (7, "p2 0000b000700/000000b0000 - 1 c2446"),
        (7, "p2 01002030000/00000000000 3:2,6:11,8:4 1 c2455"),
        (7, "p2 00000000000/00000000000 2:3,3:5,12:3 1 c1234"),
        (8, "p2 35700000000/00000000753 - 2 r"),
        (8, "p2 3579bd00000/00000000000 - 2 r"),
        (9, "p2 35000000053/00000000000 - 1 r"),
        (9, "p3 35000000053/00000000000/00000000000 - 3 r"),
        (9, "p2 35000000053/00000000000 7:1 2 s"),
        (9, "p2 35000000053/00000000000 7:1 2 r"),
        (9, "p2 35000000053/00000000000 - 2 c1234"),
    ];
    let mut kinds = BTreeSet::new();
    for &(rule, fen) in rejected {
        let got = Position::parse(fen);
        let ok = matches!(&got, Err(e) if e.starts_with(&format!("rule {rule}:")) && e.len() > 10);
        c.check(ok, format!("rejected by rule {rule}: {fen:?}: got {got:?}"));
        kinds.insert(rule);
    }
    c.eq(kinds.len(), 9, "every kind of rejected position has an example");

    // Accepted edge positions.
    for fen in [
        "p4 30000d00000/00000000000/05000000000/00000000000 - 2 r", // won columns, nobody at 3
        "p3 30000d00000/00000000053/0070b000000 - 1 r",             // six columns won, 2 each
        "p2 00000000000/00000000000 2:3,3:5,12:3 1 r",              // all neutrals on tops
        "p2 00000000000/00000000000 7:13 1 r",                      // a neutral on a top in phase r
        "p2 00000000000/00000000000 2:1 1 c1111",                   // 2+2 with a marker in 2
        "p2 3579b000000/00000000000 - 2 r",                         // 5 columns won: the most
    ] {
        c.eq(Position::parse(fen).map(|p| p.to_fen()), Ok(fen.to_string()), "accepted");
    }
}

fn event_checks(c: &mut Checker) {
    let start = Position::parse(START_FEN).unwrap();
    // Rolls in any order; malformed rolls and other events rejected in phase r.
    c.eq(start.play("r6541"), start.play("r1456"), "r6541 = r1456");
    c.eq(start.play("r1546").map(|p| p.phase()), Ok(Phase::Choose([1, 4, 5, 6])), "phase c with sorted dice");
    for bad in
        ["", "r", "r123", "r12345", "r0123", "r1237", "R1234", "r12a4", "1234", "r 1234", "roll", "stop", "7"]
    {
        c.check(start.play(bad).is_err(), format!("phase r: {bad:?} rejected"));
    }
    // Choices: `11.5` accepted as `5.11`, malformed or absent choices rejected.
    let chosen = after(START_FEN, "r1546").unwrap();
    for (input, canonical) in [("11.5", "5.11"), ("10.6", "6.10"), ("9.7", "7.9")] {
        c.eq(chosen.play(input), chosen.play(canonical), &format!("{input} accepted as {canonical}"));
        c.check(chosen.play(input).is_ok(), format!("{input} legal"));
    }
    for bad in [
        "", "5", "11", "6", "7.7", "5.11.7", "5.11.", ".5.11", "05.11", "5.011", "5,11", "5.11 ", "5..11",
        "+5.11", "5-11", "roll", "stop", "r1546", "1.12", "5.13",
    ] {
        c.check(chosen.play(bad).is_err(), format!("phase c: {bad:?} rejected"));
    }
    let stop_phase = after(START_FEN, "r1546 6.10").unwrap();
    for bad in ["", "Roll", "STOP", "r1234", "6.10", "roll ", "pass"] {
        c.check(stop_phase.play(bad).is_err(), format!("phase s: {bad:?} rejected"));
    }
    c.eq(
        stop_phase.play("roll").map(|p| p.to_fen()),
        Ok("p2 00000000000/00000000000 6:1,10:1 1 r".into()),
        "roll",
    );

    // Event order: choices by their columns as numbers (9 before 10).
    c.eq(events_after("p2 00000000000/00000000000 2:1,3:1 1 r", "r4555"), Ok("9 10".into()), "9 < 10");
    c.eq(
        events_after("p2 00000000000/00000000000 2:1,3:1 1 r", "r3565"),
        Ok("8 9 10 11".into()),
        "8 < 9 < 10 < 11",
    );
}

// ---------------------------------------------------------------------------------------------
// Dice figures and the no-bust table.

/// A two-player position, player 1 to roll, whose usable sums are exactly `columns` (1 to 3 of
/// them): neutral markers on space 1 of those columns, the others on the tops of the lowest other
/// columns.
fn position_usable_in(columns: &[u8]) -> Position {
    let mut neutral: Vec<(u8, u8)> = columns.iter().map(|&c| (c, 1)).collect();
    for filler in 2..=12u8 {
        if neutral.len() < 3 && !columns.contains(&filler) {
            neutral.push((filler, column_length(filler)));
        }
    }
    neutral.sort();
    let text = neutral.iter().map(|(c, s)| format!("{c}:{s}")).collect::<Vec<_>>().join(",");
    Position::parse(&format!("p2 00000000000/00000000000 {text} 1 r")).unwrap()
}

/// The successes (of 1296) of a roll from `pos`: by the reference's bust figure, and by counting
/// the ordered outcomes whose choice set is not empty.
fn successes(pos: &Position) -> (u32, u32) {
    let by_ordered =
        ordered_outcomes().into_iter().filter(|&d| !pos.choices_for_dice(d).is_empty()).count() as u32;
    (1296 - pos.bust_probability_1296(), by_ordered)
}

fn dice_figures(c: &mut Checker) {
    // Multisets and their weights.
    let rolls = all_rolls();
    c.eq(rolls.len(), 126, "126 multisets");
    c.eq(rolls.iter().map(|&d| roll_token(d)).collect::<Vec<_>>(), roll_tokens(), "rolls in order");
    let mut by_weight = std::collections::BTreeMap::new();
    for &d in &rolls {
        *by_weight.entry(roll_weight(d)).or_insert(0) += 1;
        let orderings = ordered_outcomes()
            .into_iter()
            .filter(|o| {
                let mut s = *o;
                s.sort();
                s == d
            })
            .count() as u32;
        c.eq(roll_weight(d), orderings, &format!("roll_weight({d:?})"));
    }
    c.eq(
        by_weight.into_iter().collect::<Vec<_>>(),
        vec![(1, 6), (4, 30), (6, 15), (12, 60), (24, 15)],
        "weights",
    );
    c.eq(rolls.iter().map(|&d| roll_weight(d)).sum::<u32>(), 1296, "weights sum to 1296");
    let pairing_sets: BTreeSet<BTreeSet<(u8, u8)>> = rolls
        .iter()
        .map(|&[a, b, c, d]| {
            [(a + b, c + d), (a + c, b + d), (a + d, b + c)]
                .into_iter()
                .map(|(s, t)| (s.min(t), s.max(t)))
                .collect()
        })
        .collect();
    c.eq(pairing_sets.len(), 109, "109 distinct sets of pairings");

    // The table "probability that a roll makes a given sum", copied from the contract.
    let outcomes = [171, 302, 461, 580, 727, 834, 727, 580, 461, 302, 171];
    let probabilities =
        ["0.132", "0.233", "0.356", "0.448", "0.561", "0.644", "0.561", "0.448", "0.356", "0.233", "0.132"];
    for column in 2..=12u8 {
        let i = (column - 2) as usize;
        let pos = position_usable_in(&[column]);
        c.eq(successes(&pos), (outcomes[i], outcomes[i]), &format!("outcomes making {column}"));
        let arithmetic = ordered_outcomes()
            .into_iter()
            .filter(|&[a, b, x, y]| [a + b, x + y, a + x, b + y, a + y, b + x].contains(&column))
            .count() as u32;
        c.eq(arithmetic, outcomes[i], &format!("outcomes making {column}, by the pairings' sums"));
        c.eq(format!("{:.3}", outcomes[i] as f64 / 1296.0), probabilities[i].to_string(), "probability");
    }
}

fn nobust_table(c: &mut Checker) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/cantstop-nobust.tsv");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut sizes = [0usize; 4];
    let mut triples: Vec<(String, u32)> = Vec::new();
    let mut header = false;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields[0] == "columns" {
            c.eq(fields, vec!["columns", "successes_of_1296", "probability"], "tsv header");
            header = true;
            continue;
        }
        c.eq(fields.len(), 3, &format!("tsv fields of {line:?}"));
        let columns: Vec<u8> = fields[0].split('-').map(|x| x.parse().unwrap()).collect();
        let want: u32 = fields[1].parse().unwrap();
        sizes[columns.len()] += 1;
        let pos = position_usable_in(&columns);
        c.eq(successes(&pos), (want, want), &format!("no-bust successes of {}", fields[0]));
        let arithmetic = ordered_outcomes()
            .into_iter()
            .filter(|&[a, b, x, y]| {
                [a + b, x + y, a + x, b + y, a + y, b + x].iter().any(|s| columns.contains(s))
            })
            .count() as u32;
        c.eq(arithmetic, want, &format!("{} by the pairings' sums", fields[0]));
        c.eq(
            format!("{:.4}", want as f64 / 1296.0),
            fields[2].to_string(),
            &format!("probability of {}", fields[0]),
        );
        if columns.len() == 3 {
            triples.push((fields[0].to_string(), want));
        }
    }
    c.check(header, "tsv header present");
    c.eq(sizes, [0, 11, 55, 165], "11 columns, 55 pairs, 165 triples");
    // The contract's words about the table: the best set is 6-7-8 (0.9198), the worst 2-3-12 and
    // 2-11-12 (0.4383).
    let best = triples.iter().map(|t| t.1).max().unwrap();
    let worst = triples.iter().map(|t| t.1).min().unwrap();
    let named = |n: u32| triples.iter().filter(|t| t.1 == n).map(|t| t.0.clone()).collect::<Vec<_>>();
    c.eq((best, named(best)), (1192, vec!["6-7-8".to_string()]), "best triple");
    c.eq((worst, named(worst)), (568, vec!["2-3-12".to_string(), "2-11-12".to_string()]), "worst triples");
}

// ---------------------------------------------------------------------------------------------
// Perft and bust figures of positions/cantstop-perft.txt.

struct PerftEntry {
    fen: String,
    bust: Option<u32>,
    counts: Vec<(u32, u64)>,
}

fn perft_file() -> Vec<PerftEntry> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/cantstop-perft.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out: Vec<PerftEntry> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        if let Some(fen) = line.strip_prefix("fen: ") {
            out.push(PerftEntry { fen: fen.to_string(), bust: None, counts: Vec::new() });
        } else if let Some(bust) = line.strip_prefix("bust: ") {
            let n = bust.strip_suffix("/1296").unwrap_or_else(|| panic!("bad bust line {line:?}"));
            out.last_mut().unwrap().bust = Some(n.parse().unwrap());
        } else {
            let (d, n) = line.split_once(' ').unwrap_or_else(|| panic!("bad line {line:?}"));
            out.last_mut().unwrap().counts.push((d.parse().unwrap(), n.parse().unwrap()));
        }
    }
    out
}

fn perft_checks(c: &mut Checker) {
    let entries = perft_file();
    c.eq(entries.len(), 5, "positions in cantstop-perft.txt");
    c.eq(entries.iter().filter(|e| e.bust.is_some()).count(), 3, "bust figures in cantstop-perft.txt");
    // The contract's text gives the start's counts too.
    let start = &entries[0];
    c.eq(start.fen.as_str(), START_FEN, "the file starts with the start position");
    c.eq(
        start.counts.clone(),
        vec![(1, 126), (2, 231), (3, 462), (4, 58212), (5, 130356), (6, 260712)],
        "the contract's start counts",
    );
    c.eq(entries[1].counts.last().copied(), Some((5, 2_305_206)), "depth 5 of the second position");
    for entry in &entries {
        let pos = Position::parse(&entry.fen).unwrap();
        c.eq(pos.to_fen(), entry.fen.clone(), "perft FEN round trip");
        if let Some(bust) = entry.bust {
            let (by_figure, by_ordered) = successes(&pos);
            c.eq((1296 - by_figure, 1296 - by_ordered), (bust, bust), &format!("bust of {}", entry.fen));
        }
        for &(depth, want) in &entry.counts {
            let t = std::time::Instant::now();
            let got = perft(&pos, depth);
            eprintln!("perft {depth} of {}: {got} in {:?}", entry.fen, t.elapsed());
            c.eq(got, want, &format!("perft {depth} of {}", entry.fen));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Invariants over seeded random games.

fn markers_of(pos: &Position) -> Vec<Vec<u8>> {
    (1..=pos.players()).map(|p| (2..=12).map(|col| pos.marker(p, col)).collect()).collect()
}

#[derive(Debug, Default)]
struct Stats {
    games: u32,
    ended: u32,
    events: u64,
    busts: u32,
    stops: u32,
    multi_column_wins: u32,
    one_of_two_choices: u32,
    lost_second_advances: u32,
    /// Choices whose neutral markers land elsewhere under skip than in the base game.
    skipped_landings: u32,
    /// Stops refused under must-roll.
    refused_stops: u32,
}

/// Checks one position of a game against the contract's invariants.
fn check_position(c: &mut Checker, pos: &Position) {
    let fen = pos.to_fen();
    let options = pos.options();
    let reread = Position::parse_with(&fen, &options);
    if reread.as_ref() != Ok(pos) || reread.as_ref().map(|p| p.to_fen()).as_ref() != Ok(&fen) {
        c.check(false, format!("format(parse(F)) != F for {fen}: {reread:?}"));
    }
    let mut ok = true;
    for p in 1..=pos.players() {
        for col in 2..=12 {
            ok &= pos.marker(p, col) <= column_length(col);
            if pos.marker(p, col) == column_length(col) {
                ok &= (1..=pos.players()).all(|q| q == p || pos.marker(q, col) == 0);
            }
        }
    }
    let neutral = pos.neutral_markers();
    ok &= neutral.len() <= 3 && neutral.windows(2).all(|w| w[0].0 < w[1].0);
    for &(col, space) in &neutral {
        ok &= space > pos.marker(pos.to_move(), col) && space <= column_length(col) && !is_closed(pos, col);
    }
    // The options: W decides the winner; under either variant no two players' coloured markers
    // share a space; under skip no neutral marker stands on another player's coloured marker.
    let w = options.columns_to_win as usize;
    let big: Vec<usize> = (1..=pos.players()).filter(|&p| pos.won_columns(p).len() >= w).collect();
    ok &= big.len() <= 1 && pos.winner() == big.first().copied();
    let on_other = |col: u8, space: u8| {
        (1..=pos.players()).any(|q| q != pos.to_move() && space != 0 && pos.marker(q, col) == space)
    };
    if options.variant != Variant::None {
        for p in 1..=pos.players() {
            for col in 2..=12 {
                let space = pos.marker(p, col);
                ok &= space == 0 || (1..=pos.players()).all(|q| q == p || pos.marker(q, col) != space);
            }
        }
    }
    let must_roll = options.variant == Variant::MustRoll && neutral.iter().any(|&(col, s)| on_other(col, s));
    if options.variant == Variant::Skip {
        ok &= neutral.iter().all(|&(col, s)| !on_other(col, s));
    }
    let events = pos.legal_events();
    match (pos.winner(), pos.phase()) {
        (Some(w), phase) => {
            ok &= events.is_empty() && phase == Phase::Roll && neutral.is_empty();
            ok &= pos.to_move() == w % pos.players() + 1;
        }
        (None, Phase::Roll) => ok &= events == roll_tokens(),
        (None, Phase::RollOrStop) if must_roll => ok &= events == ["roll"],
        (None, Phase::RollOrStop) => ok &= events == ["roll", "stop"] && !neutral.is_empty(),
        (None, Phase::Choose(dice)) => {
            ok &= !events.is_empty() && events == brute_choices(pos, dice);
            ok &= events.windows(2).all(|w| choice_key(&w[0]) < choice_key(&w[1]));
            ok &= events == pos.choices_for_dice(dice);
        }
    }
    c.check(ok, format!("invariants of {fen}"));
}

fn random_game(c: &mut Checker, rng: &mut SplitMix, players: usize, options: Options, stats: &mut Stats) {
    const CAP: u32 = 200_000;
    stats.games += 1;
    let mut pos = Position::start_with(players, &options).unwrap();
    c.eq(pos.options(), options, "start_with keeps its options");
    let mut turn_start = markers_of(&pos);
    for step in 0..CAP {
        check_position(c, &pos);
        c.check(markers_of(&pos) == turn_start, "coloured markers change only on stop");
        if pos.winner().is_some() {
            stats.ended += 1;
            stats.events += step as u64;
            return;
        }
        let mover = pos.to_move();
        let next_player = mover % players + 1;
        let next = match pos.phase() {
            Phase::Roll => {
                if step % 64 == 0 {
                    // The bust figure agrees with the rolls that pass the turn.
                    let busting: u32 = all_rolls()
                        .into_iter()
                        .filter(|&d| pos.play(&roll_token(d)).unwrap().to_move() != mover)
                        .map(roll_weight)
                        .sum();
                    c.eq(pos.bust_probability_1296(), busting, "bust figure = weights of the busting rolls");
                }
                let dice = [0; 4].map(|_| 1 + rng.below(6) as u8);
                let next = pos.play(&roll_token(dice)).unwrap();
                let mut sorted = dice;
                sorted.sort();
                c.check(pos.play(&roll_token(sorted)).as_ref() == Ok(&next), "dice order does not matter");
                if pos.choices_for_dice(dice).is_empty() {
                    stats.busts += 1;
                    let ok = next.to_move() == next_player
                        && next.phase() == Phase::Roll
                        && next.neutral_markers().is_empty()
                        && markers_of(&next) == turn_start;
                    c.check(ok, format!("a bust restores the turn's start: {} + {dice:?}", pos.to_fen()));
                    turn_start = markers_of(&next);
                } else {
                    let ok = next.to_move() == mover
                        && next.phase() == Phase::Choose(sorted)
                        && next.neutral_markers() == pos.neutral_markers();
                    c.check(ok, format!("a roll that does not bust: {} + {dice:?}", pos.to_fen()));
                }
                next
            }
            Phase::Choose(dice) => {
                let events = pos.legal_events();
                let [a, b, x, y] = dice;
                for (s, t) in [(a + b, x + y), (a + x, b + y), (a + y, b + x)] {
                    let has = |r: &[u8]| {
                        events.contains(&r.iter().map(|c| c.to_string()).collect::<Vec<_>>().join("."))
                    };
                    if s != t && has(&[s]) && has(&[t]) && brute_apply(&pos, &[s, t]).is_none() {
                        stats.one_of_two_choices += 1;
                    }
                    if s == t
                        && has(&[s])
                        && brute_apply(&pos, &[s]).is_some()
                        && brute_apply(&pos, &[s, s]).is_none()
                    {
                        stats.lost_second_advances += 1;
                    }
                }
                for e in &events {
                    let played = pos.play(e).unwrap();
                    let ok = played.phase() == Phase::RollOrStop
                        && played.to_move() == mover
                        && played.options() == options
                        && Some(played.neutral_markers()) == brute_apply(&pos, &choice_key(e));
                    c.check(ok, format!("choice {e} from {}", pos.to_fen()));
                    if options.variant == Variant::Skip
                        && brute_apply_as(&pos, &choice_key(e), true)
                            != brute_apply_as(&pos, &choice_key(e), false)
                    {
                        stats.skipped_landings += 1;
                    }
                }
                pos.play(&events[rng.below(events.len())]).unwrap()
            }
            Phase::RollOrStop => {
                let stop_allowed = pos.legal_events().contains(&"stop".to_string());
                if !stop_allowed {
                    stats.refused_stops += 1;
                    c.check(pos.play("stop").is_err(), format!("stop refused from {}", pos.to_fen()));
                }
                if stop_allowed && rng.below(3) == 0 {
                    stats.stops += 1;
                    let next = pos.play("stop").unwrap();
                    let neutral = pos.neutral_markers();
                    let mut want = turn_start.clone();
                    for &(col, space) in &neutral {
                        want[mover - 1][(col - 2) as usize] = space;
                        if space == column_length(col) {
                            for (p, line) in want.iter_mut().enumerate() {
                                if p + 1 != mover {
                                    line[(col - 2) as usize] = 0;
                                }
                            }
                        }
                    }
                    let ok = markers_of(&next) == want
                        && next.to_move() == next_player
                        && next.phase() == Phase::Roll
                        && next.neutral_markers().is_empty();
                    c.check(ok, format!("stop from {}", pos.to_fen()));
                    let won_before = (2..=12u8).filter(|&col| pos.column_winner(col) == Some(mover)).count();
                    let won_after = next.won_columns(mover).len();
                    if won_after >= won_before + 2 {
                        stats.multi_column_wins += 1;
                    }
                    c.eq(
                        next.winner().is_some(),
                        won_after >= options.columns_to_win as usize,
                        "the game ends when the mover has W columns",
                    );
                    turn_start = markers_of(&next);
                    next
                } else {
                    let next = pos.play("roll").unwrap();
                    c.check(
                        next.phase() == Phase::Roll
                            && next.to_move() == mover
                            && next.neutral_markers() == pos.neutral_markers(),
                        "roll again",
                    );
                    next
                }
            }
        };
        pos = next;
    }
    c.check(false, format!("a game of {players} players did not end in {CAP} events"));
}

// ---------------------------------------------------------------------------------------------
// The optional variants ("## Optional variants"): the options offered per player count, W in the
// win and in rules 8 and 9, variant A (skip), variant B (must roll) and the section's own
// rejections. Every expected value below is worked by hand from the contract's text.

const VARIANTS: [Variant; 3] = [Variant::None, Variant::Skip, Variant::MustRoll];

/// Offered options (panics if the contract does not offer them).
fn opts(players: usize, columns_to_win: u32, variant: Variant) -> Options {
    Options::new(players, columns_to_win, variant).unwrap()
}

/// Whether `got` is an error starting with `prefix` and saying more than that.
fn rejected_as(got: &Result<Position, String>, prefix: &str) -> bool {
    matches!(got, Err(e) if e.starts_with(prefix) && e.len() > prefix.len() + 10)
}

/// Whether a neutral marker of `pos` stands on a space holding another player's coloured marker.
fn neutral_on_another(pos: &Position) -> bool {
    pos.neutral_markers()
        .iter()
        .any(|&(col, space)| (1..=pos.players()).any(|q| q != pos.to_move() && pos.marker(q, col) == space))
}

fn options_table(c: &mut Checker) {
    c.eq(Options::base(), Options { columns_to_win: 3, variant: Variant::None }, "Options::base()");
    // "offered for 2 players (4 or 5) and for 3 players (4 only)"; 3 is the base game; a variant
    // goes with any offered W; Can't Stop has 2 to 4 players.
    let table: [(usize, &[u32]); 7] =
        [(0, &[]), (1, &[]), (2, &[3, 4, 5]), (3, &[3, 4]), (4, &[3]), (5, &[]), (6, &[])];
    for (players, offered) in table {
        for w in 0..=7u32 {
            for variant in VARIANTS {
                let what = format!("Options::new({players}, {w}, {variant:?})");
                let got = Options::new(players, w, variant);
                let o = Options { columns_to_win: w, variant };
                if offered.contains(&w) {
                    c.eq(got, Ok(o), &what);
                    let start = Position::start_with(players, &o);
                    c.eq(
                        start.as_ref().map(|p| (p.to_fen(), p.options(), p.legal_events().len())),
                        Ok((start_fen(players), o, 126)),
                        &format!("start_with({players}) under {o:?}"),
                    );
                    c.eq(
                        Position::parse_with(&start_fen(players), &o),
                        start,
                        "start_with = parse_with(start)",
                    );
                } else {
                    c.check(
                        matches!(&got, Err(e) if e.starts_with("options:")),
                        format!("{what} is not offered: {got:?}"),
                    );
                    c.check(Position::start_with(players, &o).is_err(), format!("start_with under {what}"));
                    if (2..=4).contains(&players) {
                        let parsed = Position::parse_with(&start_fen(players), &o);
                        c.check(
                            rejected_as(&parsed, "options:"),
                            format!("start read under {what}: {parsed:?}"),
                        );
                    }
                }
            }
        }
    }
    // Options not offered for the FEN's player count, on positions other than the start.
    for (fen, w) in [
        ("p3 30000500003/00000500000/0000b000000 7:13 1 s", 5),
        ("p4 05000001000/0000a0b0000/00010000700/00000000000 5:2,11:1 3 c2356", 4),
        ("p4 05000001000/0000a0b0000/00010000700/00000000000 5:2,11:1 3 c2356", 5),
        ("p2 00000000000/00000000000 6:1,10:1 1 s", 6),
        ("p2 00000000000/00000000000 6:1,10:1 1 s", 2),
    ] {
        for variant in VARIANTS {
            let got = Position::parse_with(fen, &Options { columns_to_win: w, variant });
            c.check(rejected_as(&got, "options:"), format!("{fen} under W={w} {variant:?}: {got:?}"));
        }
    }
    // parse is the base game; parse_with keeps its options, which play keeps; the FEN does not
    // record them.
    let fen = "p2 00003000000/00002000000 - 2 r";
    c.eq(Position::parse(fen).map(|p| p.options()), Ok(Options::base()), "parse is the base game");
    c.eq(Position::parse(fen), Position::parse_with(fen, &Options::base()), "parse = parse_with(base)");
    for w in 3..=5 {
        for variant in VARIANTS {
            let o = opts(2, w, variant);
            let pos = Position::parse_with(fen, &o).unwrap();
            c.eq(
                (pos.options(), pos.to_fen()),
                (o, fen.to_string()),
                "parse_with: options kept, FEN unchanged",
            );
            let played = pos.play("r1515").and_then(|p| p.play("6.6")).and_then(|p| p.play("roll"));
            c.eq(played.map(|p| p.options()), Ok(o), "play keeps the options");
            if o != Options::base() {
                c.check(Position::parse(fen).unwrap() != pos, "positions under other options differ");
            }
        }
    }
}

fn columns_to_win_checks(c: &mut Checker) {
    let ok = |s: &str| Ok(s.to_string());
    let base = Options::base();
    let (w4, w5) = (opts(2, 4, Variant::None), opts(2, 5, Variant::None));

    // A stop that takes the third column wins the base game, not W = 4 or 5.
    let third = "p2 30000000003/00000000000 7:13 1 s";
    c.eq(fen_after_with(&base, third, "stop"), ok("p2 30000d00003/00000000000 - 2 r"), "W=3: third column");
    c.eq(after_with(&base, third, "stop").map(|p| p.winner()), Ok(Some(1)), "W=3: the third column wins");
    c.eq(events_after_with(&base, third, "stop"), ok(""), "W=3: the game is over");
    for o in [w4, w5] {
        let w = o.columns_to_win;
        c.eq(fen_after_with(&o, third, "stop"), ok("p2 30000d00003/00000000000 - 2 r"), "W>3: third column");
        c.eq(
            after_with(&o, third, "stop").map(|p| p.winner()),
            Ok(None),
            &format!("W={w}: 3 columns do not win"),
        );
        c.eq(events_after_with(&o, third, "stop"), Ok(roll_tokens().join(" ")), "W>3: player 2 rolls on");
    }
    // Perft sees it: roll (then 126 rolls) or stop (then 126 rolls only if the game goes on).
    for (o, want) in [(base, 126), (w4, 252), (w5, 252)] {
        let pos = Position::parse_with(third, &o).unwrap();
        c.eq(
            (perft(&pos, 1), perft(&pos, 2)),
            (2, want),
            &format!("perft of the third column, W={}", o.columns_to_win),
        );
    }

    // The fourth column wins W = 4 (not 5); the base game rejects the position (rule 9: player 1
    // has won 3 columns, so player 2 must be to move).
    let fourth = "p2 30000d00003/00000000000 3:5 1 s";
    c.check(rejected_as(&Position::parse(fourth), "rule 9:"), "W=3 rejects a mover with 3 columns");
    c.eq(fen_after_with(&w4, fourth, "stop"), ok("p2 35000d00003/00000000000 - 2 r"), "W=4: fourth column");
    c.eq(
        after_with(&w4, fourth, "stop").map(|p| (p.winner(), p.won_columns(1))),
        Ok((Some(1), vec![2, 3, 7, 12])),
        "W=4: the fourth column wins",
    );
    c.eq(events_after_with(&w4, fourth, "stop"), ok(""), "W=4: the game is over");
    c.check(after_with(&w4, fourth, "stop r1234").is_err(), "W=4: no roll after the win");
    c.eq(after_with(&w5, fourth, "stop").map(|p| p.winner()), Ok(None), "W=5: 4 columns do not win");
    c.eq(events_after_with(&w5, fourth, "stop"), Ok(roll_tokens().join(" ")), "W=5: player 2 rolls on");

    // The fifth column wins W = 5; W = 4 rejects the position (rule 9).
    let fifth = "p2 35000d00003/00000000000 4:7 1 s";
    c.check(rejected_as(&Position::parse_with(fifth, &w4), "rule 9:"), "W=4 rejects a mover with 4 columns");
    c.eq(fen_after_with(&w5, fifth, "stop"), ok("p2 35700d00003/00000000000 - 2 r"), "W=5: fifth column");
    c.eq(after_with(&w5, fifth, "stop").map(|p| p.winner()), Ok(Some(1)), "W=5: the fifth column wins");
    c.eq(events_after_with(&w5, fifth, "stop"), ok(""), "W=5: the game is over");

    // Three players, W = 4: the contract's example 5 is no longer a win.
    let w4p3 = opts(3, 4, Variant::None);
    let ex5 = "p3 30000500003/00000500000/00000000000 7:13 1 s";
    c.eq(
        fen_after_with(&w4p3, ex5, "stop"),
        ok("p3 30000d00003/00000000000/00000000000 - 2 r"),
        "p3 W=4: example 5's stop",
    );
    c.eq(after_with(&w4p3, ex5, "stop").map(|p| p.winner()), Ok(None), "p3 W=4: 3 columns do not win");

    // Edge case 7 with W = 4: from 3 columns one stop wins 3 more, 6 = W + 2 in all.
    let six = "p2 30000d00003/00000000000 3:5,4:7,11:5 1 s";
    c.eq(
        fen_after_with(&w4, six, "stop"),
        ok("p2 35700d00053/00000000000 - 2 r"),
        "W=4: a stop wins 3 columns",
    );
    c.eq(
        after_with(&w4, six, "stop").map(|p| (p.winner(), p.won_columns(1).len())),
        Ok((Some(1), 6)),
        "W=4: 6 columns, a win",
    );

    // Rules 8 and 9 with W for 3 and W + 2 for 5: the outcome under W = 3, 4, 5 ("ok" = accepted).
    let table: &[(&str, [&str; 3])] = &[
        // Two players with 3 each; with 4 each.
        ("p2 35700000000/00000000753 - 2 r", ["rule 8:", "ok", "ok"]),
        ("p2 35790000000/00000009753 - 2 r", ["rule 8:", "rule 8:", "ok"]),
        // 5, 6, 7 and 8 columns won by one player, each a finished game.
        ("p2 3579b000000/00000000000 - 2 r", ["ok", "ok", "ok"]),
        ("p2 3579bd00000/00000000000 - 2 r", ["rule 8:", "ok", "ok"]),
        ("p2 3579bdb0000/00000000000 - 2 r", ["rule 8:", "rule 8:", "ok"]),
        ("p2 3579bdb9000/00000000000 - 2 r", ["rule 8:", "rule 8:", "rule 8:"]),
        // 3 columns with the game going on (mover, phase s, neutral markers); then 4; then 5.
        ("p2 35700000000/00000000000 - 1 r", ["rule 9:", "ok", "ok"]),
        ("p2 35700000000/00000000000 9:2 1 s", ["rule 9:", "ok", "ok"]),
        ("p2 35700000000/00000000000 9:2 2 r", ["rule 9:", "ok", "ok"]),
        ("p2 35790000000/00000000000 - 1 r", ["rule 9:", "rule 9:", "ok"]),
        ("p2 35790000000/00000000000 8:1 2 r", ["rule 9:", "rule 9:", "ok"]),
        ("p2 35790000000/00000000000 - 2 c1234", ["rule 9:", "rule 9:", "ok"]),
        ("p2 3579b000000/00000000000 - 1 r", ["rule 9:", "rule 9:", "rule 9:"]),
    ];
    for &(fen, outcomes) in table {
        for (o, want) in [base, w4, w5].into_iter().zip(outcomes) {
            let got = Position::parse_with(fen, &o);
            let ok = if want == "ok" {
                got.as_ref().map(|p| p.to_fen()) == Ok(fen.to_string())
            } else {
                rejected_as(&got, want)
            };
            c.check(ok, format!("{fen} under W={}: want {want}, got {got:?}", o.columns_to_win));
        }
    }
    // The winner of each accepted finished game above follows W.
    for (fen, winners) in [
        ("p2 3579b000000/00000000000 - 2 r", [Some(1), Some(1), Some(1)]),
        ("p2 35790000000/00000000000 - 2 c1234", [None, None, None]),
        ("p2 35790000000/00000009753 - 2 r", [None, None, None]),
        ("p2 35700000000/00000000753 - 2 r", [None, None, None]),
        ("p2 3579bd00000/00000000000 - 2 r", [None, Some(1), Some(1)]),
    ] {
        for (o, want) in [base, w4, w5].into_iter().zip(winners) {
            if let Ok(pos) = Position::parse_with(fen, &o) {
                c.eq(pos.winner(), want, &format!("winner of {fen} under W={}", o.columns_to_win));
                c.eq(pos.legal_events().is_empty(), want.is_some(), "events end with the win");
            }
        }
    }
    // Three players with W = 4: two players with 3 columns each, and 6 columns for one.
    c.check(
        rejected_as(&Position::parse("p3 35700000000/00000000753/00000000000 - 3 r"), "rule 8:"),
        "p3 W=3",
    );
    for fen in
        ["p3 35700000000/00000000753/00000000000 - 3 r", "p3 3579bd00000/00000000000/00000000000 - 2 r"]
    {
        c.eq(Position::parse_with(fen, &w4p3).map(|p| p.to_fen()), ok(fen), "p3 W=4 accepted");
    }
}

fn skip_checks(c: &mut Checker) {
    let ok = |s: &str| Ok(s.to_string());
    let base = Options::base();
    let (s2, s3, s4) = (opts(2, 3, Variant::Skip), opts(3, 3, Variant::Skip), opts(4, 3, Variant::Skip));

    // Placing over one space: player 1's marker on 6:1; player 2 has one marker left and 2-4-5-5
    // gives 6 or 10, 7 or 9 (example 3's rule).
    let f = "p2 00001000000/00000000000 3:1,4:1 2 r";
    c.eq(events_after_with(&s2, f, "r2455"), ok("6 7 9 10"), "skip: the choices of 2-4-5-5");
    c.eq(
        fen_after_with(&s2, f, "r2455 6"),
        ok("p2 00001000000/00000000000 3:1,4:1,6:2 2 s"),
        "skip: placed over 6:1",
    );
    c.eq(
        fen_after_with(&base, f, "r2455 6"),
        ok("p2 00001000000/00000000000 3:1,4:1,6:1 2 s"),
        "base: placed on 6:1",
    );
    c.eq(fen_after_with(&s2, f, "r2455 6 stop"), ok("p2 00001000000/01102000000 - 1 r"), "skip: stop");
    // A held space above the landing space does not matter.
    c.eq(
        fen_after_with(&s2, "p2 00002000000/00000000000 3:1,4:1 2 r", "r2455 6"),
        ok("p2 00002000000/00000000000 3:1,4:1,6:1 2 s"),
        "skip: 6:1 is free",
    );
    // The mover's own coloured marker: placing above it, on a free space.
    c.eq(
        fen_after_with(&s2, "p2 00000000000/00001000000 3:1,4:1 2 r", "r2455 6"),
        ok("p2 00000000000/00001000000 3:1,4:1,6:2 2 s"),
        "skip: own marker, placed just above it",
    );
    // Placing over two and three held spaces in a row: keep going up.
    c.eq(
        fen_after_with(&s3, "p3 00001000000/00002000000/00000000000 3:1,4:1 3 r", "r2455 6"),
        ok("p3 00001000000/00002000000/00000000000 3:1,4:1,6:3 3 s"),
        "skip: placed over 6:1 and 6:2",
    );
    c.eq(
        fen_after_with(&s4, "p4 00001000000/00002000000/00003000000/00000000000 3:1,4:1 4 r", "r2455 6"),
        ok("p4 00001000000/00002000000/00003000000/00000000000 3:1,4:1,6:4 4 s"),
        "skip: placed over 6:1, 6:2 and 6:3",
    );

    // Moving up over one, two and three held spaces: 1-2-3-4 gives 3+7, 4+6 or 5+5.
    let up1 = "p2 00002000000/00000000000 6:1 2 s";
    c.eq(events_after_with(&s2, up1, "roll r1234"), ok("3.7 4.6 5.5"), "skip: the choices of 1-2-3-4");
    c.eq(
        fen_after_with(&s2, up1, "roll r1234 4.6"),
        ok("p2 00002000000/00000000000 4:1,6:3 2 s"),
        "skip: moved over 6:2",
    );
    c.eq(
        fen_after_with(&base, up1, "roll r1234 4.6"),
        ok("p2 00002000000/00000000000 4:1,6:2 2 s"),
        "base: moved onto 6:2",
    );
    c.eq(
        fen_after_with(&s3, "p3 00002000000/00003000000/00000000000 6:1 3 s", "roll r1234 4.6"),
        ok("p3 00002000000/00003000000/00000000000 4:1,6:4 3 s"),
        "skip: moved over 6:2 and 6:3",
    );
    c.eq(
        fen_after_with(&s4, "p4 00002000000/00003000000/00004000000/00000000000 6:1 4 s", "roll r1234 4.6"),
        ok("p4 00002000000/00003000000/00004000000/00000000000 4:1,6:5 4 s"),
        "skip: moved over 6:2, 6:3 and 6:4",
    );
    // Held spaces that are not in a row: each advance skips only the one it meets.
    let apart = "p3 00002000000/00004000000/00000000000 6:1 3 s";
    c.eq(
        fen_after_with(&s3, apart, "roll r1234 4.6"),
        ok("p3 00002000000/00004000000/00000000000 4:1,6:3 3 s"),
        "skip: over 6:2 to 6:3",
    );
    c.eq(
        events_after_with(&s3, apart, "roll r1234 4.6 roll r1234"),
        ok("3 4.6 5.5 7"),
        "skip: one marker left",
    );
    c.eq(
        fen_after_with(&s3, apart, "roll r1234 4.6 roll r1234 4.6"),
        ok("p3 00002000000/00004000000/00000000000 4:2,6:5 3 s"),
        "skip: over 6:4 to 6:5",
    );

    // A skip reaching the top, moving up: 1-1-6-6 gives 2+12 or 7+7.
    let top = "p2 00000000002/00000000000 12:1 2 s";
    c.eq(events_after_with(&s2, top, "roll r1166"), ok("2.12 7.7"), "skip: the choices of 1-1-6-6");
    c.eq(
        fen_after_with(&s2, top, "roll r1166 2.12"),
        ok("p2 00000000002/00000000000 2:1,12:3 2 s"),
        "skip: 12 over 12:2 to the top",
    );
    c.eq(events_after_with(&s2, top, "roll r1166 2.12 roll r1166"), ok("2 7.7"), "skip: 12 is on its top");
    c.eq(
        fen_after_with(&s2, top, "roll r1166 2.12 stop"),
        ok("p2 00000000000/10000000003 - 1 r"),
        "skip: stop wins 12 and removes player 1's marker",
    );
    c.eq(
        after_with(&s2, top, "roll r1166 2.12 stop").map(|p| p.won_columns(2)),
        Ok(vec![12]),
        "skip: 12 won",
    );
    c.eq(
        fen_after_with(&base, top, "roll r1166 2.12 stop"),
        ok("p2 00000000002/10000000002 - 1 r"),
        "base: 12 shared, not won",
    );
    // A skip reaching the top when placing, in a doubled sum: 1-1-1-1 is 2+2 only. Player 2's marker
    // is on 2:1 and player 1's on 2:2, so the marker lands on the top and the second advance is lost
    // (edge case 5); the base game places on 2:2 and moves to 2:3 ("2.2").
    let doubled_top = "p2 20000000000/10000000000 - 2 r";
    c.eq(events_after_with(&s2, doubled_top, "r1111"), ok("2"), "skip: 2+2, the second advance lost");
    c.eq(events_after_with(&base, doubled_top, "r1111"), ok("2.2"), "base: 2+2 twice");
    c.eq(
        fen_after_with(&s2, doubled_top, "r1111 2"),
        ok("p2 20000000000/10000000000 2:3 2 s"),
        "skip: on the top",
    );
    c.check(after_with(&s2, doubled_top, "r1111 2.2").is_err(), "skip: 2.2 is not a choice");
    c.eq(
        fen_after_with(&s2, doubled_top, "r1111 2 stop"),
        ok("p2 00000000000/30000000000 - 1 r"),
        "skip: stop wins 2",
    );
    let doubled_top3 = "p3 10000000000/20000000000/00000000000 - 3 r";
    c.eq(events_after_with(&s3, doubled_top3, "r1111"), ok("2"), "skip: placed over 2:1 and 2:2 on the top");
    c.eq(
        fen_after_with(&s3, doubled_top3, "r1111 2"),
        ok("p3 10000000000/20000000000/00000000000 2:3 3 s"),
        "skip: p3, on the top of 2",
    );
    c.eq(
        fen_after_with(&base, doubled_top3, "r1111 2.2"),
        ok("p3 10000000000/20000000000/00000000000 2:2 3 s"),
        "base: p3, 2+2 to 2:2",
    );

    // A doubled sum: each advance lands by the skip rule. 1-1-5-5 gives 2+10 or 6+6.
    let dbl = "p3 00001000000/00003000000/00000000000 - 3 r";
    c.eq(events_after_with(&s3, dbl, "r1155"), ok("2.10 6.6"), "skip: the choices of 1-1-5-5");
    c.eq(
        fen_after_with(&s3, dbl, "r1155 6.6"),
        ok("p3 00001000000/00003000000/00000000000 6:4 3 s"),
        "skip: 6+6 placed over 6:1 on 6:2, then over 6:3 to 6:4",
    );
    c.eq(
        fen_after_with(&base, dbl, "r1155 6.6"),
        ok("p3 00001000000/00003000000/00000000000 6:2 3 s"),
        "base",
    );
    c.eq(
        fen_after_with(&s2, "p2 00002000000/00001000000 - 2 r", "r1155 6.6"),
        ok("p2 00002000000/00001000000 6:4 2 s"),
        "skip: 6+6 above the mover's 6:1, over 6:2 to 6:3, then 6:4",
    );
    c.eq(
        fen_after_with(&s2, "p2 00003000000/00000000000 6:2 2 s", "roll r1155 6.6"),
        ok("p2 00003000000/00000000000 6:5 2 s"),
        "skip: 6+6 moving up over 6:3 to 6:4, then 6:5",
    );
    // The contract's example 7 under skip: placed above player 2's own 6:2, over 6:3 to 6:4, then 6:5.
    let ex7 = "p2 00003000000/00002000000 - 2 r";
    c.eq(events_after_with(&s2, ex7, "r1515"), ok("2.10 6.6"), "skip: example 7's choices");
    c.eq(fen_after_with(&s2, ex7, "r1515 6.6"), ok("p2 00003000000/00002000000 6:5 2 s"), "skip: example 7");
    // Edge case 6 under skip: 7+7 with one marker left, over player 1's 7:1.
    let e6 = "p2 00000100000/00000000000 4:1,10:1 2 r";
    c.eq(events_after_with(&s2, e6, "r3434"), ok("6 7.7 8"), "skip: edge 6's choices");
    c.eq(
        fen_after_with(&s2, e6, "r3434 7.7"),
        ok("p2 00000100000/00000000000 4:1,7:3,10:1 2 s"),
        "skip: 7:3",
    );
    c.eq(
        fen_after_with(&base, e6, "r3434 7.7"),
        ok("p2 00000100000/00000000000 4:1,7:2,10:1 2 s"),
        "base: 7:2",
    );

    // W = 4 with skip: a skip to the top takes a third column, which wins only under W = 3.
    let w3s = opts(2, 3, Variant::Skip);
    let w4s = opts(2, 4, Variant::Skip);
    let third = "p2 30000d00000/00000000002 12:1 1 s";
    for (o, winner) in [(w3s, Some(1)), (w4s, None)] {
        c.eq(events_after_with(&o, third, "roll r1166"), ok("12"), "skip: 2 and 7 closed");
        c.eq(
            fen_after_with(&o, third, "roll r1166 12 stop"),
            ok("p2 30000d00003/00000000000 - 2 r"),
            "skip: 12",
        );
        c.eq(
            after_with(&o, third, "roll r1166 12 stop").map(|p| p.winner()),
            Ok(winner),
            "skip: winner under W",
        );
    }

    // Skip changes where markers land, never which sums are usable: the bust figures are the base
    // game's.
    for fen in [f, up1, apart, top, doubled_top, dbl, ex7, e6, "p2 00000000002/00000000000 2:1,12:3 2 r"] {
        let o = Options::new(fen[1..2].parse().unwrap(), 3, Variant::Skip).unwrap();
        let skip = Position::parse_with(fen, &o).map(|p| p.bust_probability_1296());
        let plain = Position::parse(fen).map(|p| p.bust_probability_1296());
        c.check(
            skip.is_ok() && skip == plain,
            format!("bust figure of {fen} under skip: {skip:?} vs {plain:?}"),
        );
    }
}

fn must_roll_checks(c: &mut Checker) {
    let ok = |s: &str| Ok(s.to_string());
    let base = Options::base();
    let (m2, m3) = (opts(2, 3, Variant::MustRoll), opts(3, 3, Variant::MustRoll));

    // A neutral marker on another player's coloured marker: `roll` is the only event.
    let on = "p2 00003000000/00002000000 6:3 2 s";
    c.eq(events_after_with(&m2, on, ""), ok("roll"), "must roll: only roll");
    c.eq(events_after_with(&base, on, ""), ok("roll stop"), "base: roll or stop");
    let refused = after_with(&m2, on, "stop");
    c.check(
        matches!(&refused, Err(e) if e.contains("stop")),
        format!("must roll: stop refused: {refused:?}"),
    );
    c.eq(fen_after_with(&m2, on, "roll"), ok("p2 00003000000/00002000000 6:3 2 r"), "must roll: roll");
    c.eq(Position::parse_with(on, &m2).map(|p| perft(&p, 1)), Ok(1), "must roll: perft 1");
    c.eq(Position::parse_with(on, &m2).map(|p| perft(&p, 2)), Ok(126), "must roll: perft 2");
    // Three players: player 1's neutral marker on player 3's coloured marker.
    c.eq(
        events_after_with(&m3, "p3 00000000000/00000000000/00003000000 6:3 1 s", ""),
        ok("roll"),
        "must roll: on player 3's marker",
    );
    c.eq(
        events_after_with(&m3, "p3 00000000000/00000000000/00003000000 6:4 1 s", ""),
        ok("roll stop"),
        "must roll: beside player 3's marker",
    );

    // Onto: the choice set is the base game's; the choice that lands on player 1's 6:2 forbids stop.
    let f = "p2 00002000000/00000000000 - 2 r";
    c.eq(events_after_with(&m2, f, "r1155"), ok("2.10 6.6"), "must roll: the choices of 1-1-5-5");
    c.eq(
        fen_after_with(&m2, f, "r1155 6.6"),
        ok("p2 00002000000/00000000000 6:2 2 s"),
        "must roll: onto 6:2",
    );
    c.eq(events_after_with(&m2, f, "r1155 6.6"), ok("roll"), "must roll: onto another's space");
    c.eq(events_after_with(&m2, f, "r1155 2.10"), ok("roll stop"), "must roll: on free spaces");
    c.check(after_with(&m2, f, "r1155 6.6 stop").is_err(), "must roll: no stop on 6:2");
    // In phase c, nothing changes: the choices of 1-2-3-4 are the base game's.
    let chosen = "p2 00002000000/00000000000 6:2 2 c1234";
    c.eq(events_after_with(&m2, chosen, ""), ok("3.7 4.6 5.5"), "must roll: phase c choices");
    c.eq(events_after_with(&base, chosen, ""), ok("3.7 4.6 5.5"), "base: phase c choices");
    // Off: the next roll moves the marker up, off the shared space, and stop is allowed again.
    c.eq(
        fen_after_with(&m2, f, "r1155 6.6 roll r1234 4.6"),
        ok("p2 00002000000/00000000000 4:1,6:3 2 s"),
        "must roll: off 6:2",
    );
    c.eq(events_after_with(&m2, f, "r1155 6.6 roll r1234 4.6"), ok("roll stop"), "must roll: stop again");
    c.eq(
        fen_after_with(&m2, f, "r1155 6.6 roll r1234 4.6 stop"),
        ok("p2 00002000000/00103000000 - 1 r"),
        "must roll: the stop",
    );
    // A roll that leaves the marker on the shared space (3+7, 5+5 elsewhere): still only roll.
    c.eq(events_after_with(&m2, f, "r1155 6.6 roll r1234 3.7"), ok("roll"), "must roll: still on 6:2 (3.7)");
    c.eq(events_after_with(&m2, f, "r1155 6.6 roll r1234 5.5"), ok("roll"), "must roll: still on 6:2 (5.5)");
    c.check(after_with(&m2, f, "r1155 6.6 roll r1234 3.7 stop").is_err(), "must roll: no stop (3.7)");
    // The only event may bust: 6-6-6-6 is 12+12, with no marker left.
    let bust = "p2 00003000000/00000000000 2:1,3:1,6:3 2 s";
    c.eq(events_after_with(&m2, bust, ""), ok("roll"), "must roll: three markers, one on 6:3");
    c.eq(fen_after_with(&m2, bust, "roll r6666"), ok("p2 00003000000/00000000000 - 1 r"), "must roll: bust");
    // A top space never holds another player's marker: a neutral marker there allows stop, which
    // wins the column and removes player 1's marker.
    let top = "p2 00000c00000/00000000000 7:13 2 s";
    c.eq(events_after_with(&m2, top, ""), ok("roll stop"), "must roll: on a top");
    c.eq(
        fen_after_with(&m2, top, "stop"),
        ok("p2 00000000000/00000d00000 - 1 r"),
        "must roll: stop on a top",
    );
}

fn variant_rejections(c: &mut Checker) {
    let ok = |s: &str| Ok(s.to_string());
    // "Under either, coloured markers of two players never share a space."
    let shared = [
        (2, "p2 00003000000/00003000000 - 1 r"),
        (2, "p2 00000000300/00000000300 7:1 2 s"),
        (3, "p3 00003000000/00000000000/00003000000 - 2 r"),
        (4, "p4 00000000000/00000050000/00000000000/00000050000 - 1 r"),
    ];
    for (players, fen) in shared {
        for w in 3..=5 {
            for variant in VARIANTS {
                let Ok(o) = Options::new(players, w, variant) else { continue };
                let got = Position::parse_with(fen, &o);
                if variant == Variant::None {
                    c.eq(got.map(|p| p.to_fen()), ok(fen), &format!("shared space accepted under W={w}"));
                } else {
                    let named = matches!(&got, Err(e) if e.contains("same space"));
                    c.check(rejected_as(&got, "options:") && named, format!("{fen} under {o:?}: {got:?}"));
                }
            }
        }
    }
    // The same space number in different columns is no shared space.
    for variant in VARIANTS {
        let fen = "p2 00003000000/00000300000 - 1 r";
        c.eq(
            Position::parse_with(fen, &opts(2, 3, variant)).map(|p| p.to_fen()),
            ok(fen),
            "different columns",
        );
    }
    // "Under A, no neutral marker stands on another player's coloured marker either." Under B it may.
    for (players, fen) in [
        (2, "p2 00003000000/00002000000 6:3 2 s"),
        (2, "p2 00003000000/00002000000 6:3 2 r"),
        (2, "p2 00003000000/00002000000 6:3 2 c1234"),
        (2, "p2 00003000000/00000000000 2:1,3:1,6:3 2 s"),
        (3, "p3 00000000000/00000000000/00003000000 6:3 1 r"),
    ] {
        for w in 3..=4 {
            let skip = Position::parse_with(fen, &opts(players, w, Variant::Skip));
            let named = matches!(&skip, Err(e) if e.contains("neutral marker"));
            c.check(rejected_as(&skip, "options:") && named, format!("{fen} under skip: {skip:?}"));
            for variant in [Variant::None, Variant::MustRoll] {
                let got = Position::parse_with(fen, &opts(players, w, variant));
                c.eq(got.map(|p| p.to_fen()), ok(fen), &format!("{fen} accepted under {variant:?}"));
            }
        }
    }
    // Beside another player's marker is fine under skip.
    let beside = "p2 00003000000/00002000000 6:4 2 s";
    c.eq(Position::parse_with(beside, &opts(2, 3, Variant::Skip)).map(|p| p.to_fen()), ok(beside), "beside");
}

/// The positions `depth` events from `pos` for which `pred` holds.
fn count_at_depth(pos: &Position, depth: u32, pred: &dyn Fn(&Position) -> bool) -> u64 {
    if depth == 0 {
        return pred(pos) as u64;
    }
    pos.legal_events().iter().map(|e| count_at_depth(&pos.play(e).unwrap(), depth - 1, pred)).sum()
}

fn perft_under_options(c: &mut Checker) {
    // From the two-player start, coloured markers appear only with the first stop (event 3), and
    // the first turn that can meet them is player 2's: roll (event 4), choice (event 5), then roll
    // or stop (event 6). So up to depth 5 every option set has the base game's tree. At depth 6:
    // - skip: player 2 places fresh markers, which never reach a top (player 1 holds at most one
    //   space of a column of 3), so his choices and his `roll stop` are the base game's;
    // - must roll: exactly the depth-5 positions in phase s with a neutral marker on player 1's
    //   coloured marker lose `stop`;
    // - W: nobody can have won 3 columns.
    let counts = [126u64, 231, 462, 58212, 130356, 260712];
    let start = Position::parse(START_FEN).unwrap();
    let blocked = count_at_depth(&start, 5, &|p| p.phase() == Phase::RollOrStop && neutral_on_another(p));
    eprintln!("depth-5 positions of the start where must-roll forbids stop: {blocked}");
    c.check(blocked > 0, "must roll: some depth-5 positions lose stop");
    for w in 3..=5 {
        for variant in VARIANTS {
            let o = opts(2, w, variant);
            let pos = Position::start_with(2, &o).unwrap();
            for depth in 1..=6u32 {
                let mut want = counts[depth as usize - 1];
                if variant == Variant::MustRoll && depth == 6 {
                    want -= blocked;
                }
                c.eq(perft(&pos, depth), want, &format!("perft {depth} of the start under {o:?}"));
            }
        }
    }
    // Three and four players: the same reasoning holds up to depth 5.
    for players in 3..=4 {
        let plain = Position::parse(&start_fen(players)).unwrap();
        let want: Vec<u64> = (1..=5).map(|d| perft(&plain, d)).collect();
        c.eq(want[..3].to_vec(), counts[..3].to_vec(), "the first turn does not depend on the player count");
        for w in 3..=5 {
            for variant in VARIANTS {
                let Ok(o) = Options::new(players, w, variant) else { continue };
                let pos = Position::start_with(players, &o).unwrap();
                let got: Vec<u64> = (1..=5).map(|d| perft(&pos, d)).collect();
                c.eq(got, want.clone(), &format!("perft 1-5 of the {players}-player start under {o:?}"));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------

#[test]
fn worked_examples_and_edge_cases() {
    let mut c = Checker::new();
    examples(&mut c);
    edge_cases(&mut c);
    c.finish();
}

#[test]
fn fen_and_event_notation() {
    let mut c = Checker::new();
    fen_checks(&mut c);
    event_checks(&mut c);
    c.finish();
}

#[test]
fn dice_figures_and_the_no_bust_table() {
    let mut c = Checker::new();
    dice_figures(&mut c);
    nobust_table(&mut c);
    c.finish();
}

#[test]
fn perft_and_bust_figures_of_the_perft_file() {
    let mut c = Checker::new();
    perft_checks(&mut c);
    c.finish();
}

#[test]
fn invariants_hold_in_random_games() {
    let mut c = Checker::new();
    let mut rng = SplitMix(0x5eed_ca57_0b57_2024);
    let mut stats = Stats::default();
    for players in 2..=4 {
        for _ in 0..100 {
            random_game(&mut c, &mut rng, players, Options::base(), &mut stats);
        }
    }
    eprintln!("random games: {stats:?}");
    c.eq(stats.ended, stats.games, "every game ended");
    for (what, n) in [
        ("busts", stats.busts),
        ("stops", stats.stops),
        ("stops winning two or more columns", stats.multi_column_wins),
        ("pairings giving one of two new columns", stats.one_of_two_choices),
        ("doubled sums whose second advance is lost", stats.lost_second_advances),
    ] {
        c.check(n >= 10, format!("random games exercise {what}: only {n}"));
    }
    c.finish();
}

#[test]
fn options_offered_and_columns_to_win() {
    let mut c = Checker::new();
    options_table(&mut c);
    columns_to_win_checks(&mut c);
    c.finish();
}

#[test]
fn variant_a_skip_and_variant_b_must_roll() {
    let mut c = Checker::new();
    skip_checks(&mut c);
    must_roll_checks(&mut c);
    variant_rejections(&mut c);
    c.finish();
}

#[test]
fn perft_under_the_options() {
    let mut c = Checker::new();
    perft_under_options(&mut c);
    c.finish();
}

#[test]
fn invariants_hold_in_random_games_under_the_options() {
    let mut c = Checker::new();
    let mut rng = SplitMix(0x0b71_0a5e_ca57_2025);
    let mut stats = Stats::default();
    let mut sets = 0;
    for players in 2..=4 {
        for w in 3..=5 {
            for variant in VARIANTS {
                let Ok(options) = Options::new(players, w, variant) else { continue };
                if options == Options::base() {
                    continue;
                }
                sets += 1;
                for _ in 0..20 {
                    random_game(&mut c, &mut rng, players, options, &mut stats);
                }
            }
        }
    }
    eprintln!("random games under the options: {stats:?}");
    c.eq(sets, 15, "option sets other than the base game: 8 for 2 players, 5 for 3, 2 for 4");
    c.eq(stats.ended, stats.games, "every game ended");
    for (what, n) in [
        ("busts", stats.busts),
        ("stops", stats.stops),
        ("landings moved by skip", stats.skipped_landings),
        ("stops refused under must-roll", stats.refused_stops),
    ] {
        c.check(n >= 10, format!("random games exercise {what}: only {n}"));
    }
    c.finish();
}
