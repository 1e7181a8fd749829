//! The chance search against a plain expectimax written here without memo or horizon tricks.

use super::*;
use crate::cantstop::Position;

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
