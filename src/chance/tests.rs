//! The chance search against a plain expectimax written here without memo or horizon tricks.

use super::*;
use crate::cantstop::Position;
use std::sync::atomic::Ordering;

/// The value of `pos` for `player` by plain recursion over (position, rolls left), memoised
/// only as a pure function: `None` beyond `depth` rolls.
fn plain(
    pos: &Position,
    player: usize,
    depth: u32,
    root: bool,
    memo: &mut std::collections::HashMap<(Position, u32), Option<f64>>,
) -> Option<f64> {
    if !root && pos.is_turn_start() {
        return Some(pos.value(player));
    }
    if let Some(&v) = memo.get(&(*pos, depth)) {
        return v;
    }
    let value = match pos.node() {
        Node::Over => Some(pos.value(player)),
        Node::Decision => pos
            .decisions()
            .iter()
            .filter_map(|&e| plain(&pos.play(e), player, depth, false, memo))
            .reduce(f64::max),
        Node::Chance if depth == 0 => None,
        Node::Chance => {
            let mut sum = Some(0.0);
            for (e, w) in pos.chance_outcomes() {
                sum = sum
                    .zip(plain(&pos.play(e), player, depth - 1, false, memo))
                    .map(|(s, v)| s + v * f64::from(w));
            }
            sum.map(|s| s / 1296.0)
        }
    };
    memo.insert((*pos, depth), value);
    value
}

fn search(fen: &str, depth: u32) -> Iteration<crate::cantstop::Event> {
    let pos = Position::parse_fen(fen).unwrap();
    let stop = AtomicBool::new(false);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    ChanceSearch::run(&pos, limits, &stop, &mut |_| {}).unwrap()
}

#[test]
fn an_exact_solve_agrees_with_plain_expectimax() {
    // Neutral markers one or two spaces below the tops of short columns: every line of the
    // turn ends within a few rolls, so both searches see all of it.
    for fen in [
        "p2 00000000000/00000000000 2:2,3:4,12:2 1 s",
        "p2 00000000000/00000000000 2:1,3:3,12:2 1 c1166",
        "p3 30000000000/00000000000/00000000000 3:4,4:6,11:4 2 s",
    ] {
        let pos = Position::parse_fen(fen).unwrap();
        let result = search(fen, MAX_DEPTH);
        assert!(result.exact, "{fen}: not solved by depth {}", result.depth);
        let mut memo = std::collections::HashMap::new();
        for &(event, value) in &result.values {
            let want = plain(&pos.play(event), pos.to_move(), result.depth + 2, false, &mut memo).unwrap();
            assert!((value - want).abs() < 1e-12, "{fen} {event}: {value} vs {want}");
        }
    }
}

#[test]
fn a_winning_stop_is_taken() {
    let result = search("p3 30000500003/00000500000/00000000000 7:13 1 s", 3);
    assert_eq!((result.best.to_string(), result.value), ("stop".to_string(), 1.0));
}

#[test]
fn the_node_count_is_deterministic() {
    let a = search("p2 00000000000/00000000000 6:1,10:1 1 s", 3);
    let b = search("p2 00000000000/00000000000 6:1,10:1 1 s", 3);
    assert_eq!((a.nodes, a.best), (b.nodes, b.best));
}

/// A search of `pos` to `depth` rolls on `threads` threads.
fn search_on(pos: &Position, depth: u32, threads: usize) -> Iteration<crate::cantstop::Event> {
    let stop = AtomicBool::new(false);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    ChanceSearch::run_among(pos, &[], limits, &Helpers::new(threads), &stop, &mut |_| {}).unwrap()
}

/// Decision positions of every kind: the first choice and the first roll-or-stop of games of
/// 1 to 4 players, and choices and roll-or-stop decisions of games played on by seeded random
/// events (dice and decisions), early, mid and late.
fn decision_positions() -> Vec<Position> {
    use crate::cantstop::Phase;
    use crate::tools::rng::SplitMix64;
    let mut rng = SplitMix64(2026);
    let roll = |pos: &Position, rng: &mut SplitMix64| {
        let index = rng.below(pos.chance_total() as usize) as u32;
        pos.play(pos.chance_step(index).unwrap())
    };
    let mut positions = Vec::new();
    for players in 1..=4 {
        let choose = roll(&Position::start(players), &mut rng);
        let decide = choose.play(choose.decisions()[0]);
        positions.extend([choose, decide]);
    }
    for (players, events) in [(2, 30), (2, 90), (3, 60), (4, 120), (2, 200)] {
        let mut pos = Position::start(players);
        let mut played = 0;
        // On until both kinds of decision have been met after `events` events.
        let (mut chose, mut decided) = (false, false);
        while pos.node() != Node::Over && !(chose && decided) {
            if played >= events && pos.node() == Node::Decision {
                match pos.phase() {
                    Phase::Choose(_) if !chose => (chose, _) = (true, positions.push(pos)),
                    Phase::Decide if !decided => (decided, _) = (true, positions.push(pos)),
                    _ => {}
                }
            }
            pos = match pos.node() {
                Node::Chance => roll(&pos, &mut rng),
                _ => {
                    let decisions = pos.decisions();
                    pos.play(decisions[rng.below(decisions.len())])
                }
            };
            played += 1;
        }
    }
    let phases = |want: fn(&Phase) -> bool| positions.iter().filter(|p| want(&p.phase())).count();
    assert!(phases(|p| matches!(p, Phase::Choose(_))) >= 8 && phases(|p| *p == Phase::Decide) >= 8);
    positions
}

#[test]
fn values_at_a_fixed_depth_are_the_plain_expectimax_at_that_depth() {
    // The memo reuses a value only at its own depth (an exact one from its depth on): a
    // search to depth d is exactly the expectimax with d rolls, whatever it searched first.
    for pos in decision_positions().into_iter().take(12) {
        let mut memo = std::collections::HashMap::new();
        for depth in 1..=3 {
            let result = search_on(&pos, depth, 1);
            for &(event, value) in &result.values {
                let want = plain(&pos.play(event), pos.to_move(), depth, false, &mut memo)
                    .unwrap_or(f64::NEG_INFINITY);
                assert!(
                    value == want || (value - want).abs() < 1e-12,
                    "{} {event} depth {depth}: {value} vs {want}",
                    pos.fen()
                );
            }
        }
    }
}

#[test]
fn two_and_three_threads_find_the_values_and_the_move_of_one() {
    for pos in decision_positions() {
        for depth in 1..=3 {
            let one = search_on(&pos, depth, 1);
            for threads in [2, 3] {
                let many = search_on(&pos, depth, threads);
                let fen = pos.fen();
                assert_eq!(
                    (&many.values, many.best, many.value.to_bits(), many.exact, many.depth),
                    (&one.values, one.best, one.value.to_bits(), one.exact, one.depth),
                    "{fen} depth {depth} on {threads} threads"
                );
                // Bit for bit, not just equal (the printed score and values follow).
                let bits = |it: &Iteration<_>| it.values.iter().map(|(_, v)| v.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&many), bits(&one), "{fen} depth {depth} on {threads} threads");
            }
        }
    }
}

#[test]
fn helpers_serve_search_after_search() {
    let helpers = Helpers::new(2);
    assert_eq!((helpers.threads(), Helpers::new(1).threads(), Helpers::none().threads()), (2, 1, 1));
    let stop = AtomicBool::new(false);
    let limits = Limits { depth: Some(2), ..Limits::default() };
    for pos in decision_positions().into_iter().take(6) {
        let kept = ChanceSearch::run_among(&pos, &[], limits, &helpers, &stop, &mut |_| {}).unwrap();
        assert_eq!(kept.values, search_on(&pos, 2, 1).values, "{}", pos.fen());
    }
}

#[test]
fn a_search_on_threads_ended_mid_depth_answers_its_last_completed_depth() {
    // A node limit ends the search inside a depth: the answer is the depth before, with the
    // values one thread finds at that depth.
    let pos = Position::parse_fen("p2 00000000000/00000000000 - 1 c2345").unwrap();
    let stop = AtomicBool::new(false);
    for threads in [1, 2, 3] {
        let helpers = Helpers::new(threads);
        let limits = Limits { nodes: Some(3000), ..Limits::default() };
        let mut reported = Vec::new();
        let it =
            ChanceSearch::run_among(&pos, &[], limits, &helpers, &stop, &mut |it| reported.push(it.depth))
                .expect("depth 1 takes fewer nodes");
        assert!(!it.exact && it.depth < 3, "{threads} threads: depth {}", it.depth);
        assert_eq!(reported.last(), Some(&it.depth));
        let fixed = search_on(&pos, it.depth, 1);
        assert_eq!((it.values, it.best), (fixed.values, fixed.best), "{threads} threads");
    }
    // Stopped from outside once depth 1 is reported: depth 1 is the answer.
    let stop = AtomicBool::new(false);
    let it = ChanceSearch::run_among(&pos, &[], Limits::default(), &Helpers::new(2), &stop, &mut |_| {
        stop.store(true, Ordering::Relaxed)
    });
    assert_eq!(it.map(|it| (it.depth, it.values)), Some((1, search_on(&pos, 1, 1).values)));
}

#[test]
fn the_first_outcomes_are_the_positions_after_the_first_roll() {
    // Roll-or-stop: the outcomes of the roll (busts end the turn: not shared out).
    let pos = Position::parse_fen("p2 00000000000/00000000000 6:1,10:1 1 s").unwrap();
    let outcomes = first_outcomes(&pos, &pos.decisions());
    let roll = pos.play(crate::cantstop::Event::Continue);
    let expected: Vec<Position> =
        roll.chance_outcomes().iter().map(|&(e, _)| roll.play(e)).filter(|p| !p.is_turn_start()).collect();
    assert_eq!(outcomes, expected);
    // A choice: the outcomes below every choice's roll, each once.
    let pos = Position::parse_fen("p2 00000000000/00000000000 - 1 c2345").unwrap();
    let outcomes = first_outcomes(&pos, &pos.decisions());
    let distinct: FxHashSet<Position> = outcomes.iter().copied().collect();
    assert_eq!(distinct.len(), outcomes.len());
    assert!(outcomes.iter().all(|p| matches!(p.phase(), crate::cantstop::Phase::Choose(_))));
}
