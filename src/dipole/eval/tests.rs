//! Tests of the Dipole evaluation: the first evaluation recovered by the start weights, the dot
//! product promised by `LinearEval`, the colour symmetry, and what single features count.

use super::*;
use crate::game::tuning::dot;

/// The weights at the start of issue 28 over the features of `variant`: 100 per checker plus 15
/// per rank to go, 8 per move of reach, 60 per checker of threat.
fn start_weights(variant: Variant) -> Vec<i32> {
    let mut w: Vec<i32> = (1..=variant.size() as i32).map(|k| 100 + 15 * k).collect();
    w.extend([0, 0, 0, 0, 8, 60, 0]);
    w
}

/// The first evaluation, written as it was: material, reserve and reach of each colour, White's
/// minus Black's, seen from the side to move, plus the threat.
fn old_evaluate(pos: &Position) -> i32 {
    let size = pos.variant().size() as i32;
    let mut white_minus_black = 0;
    for color in [Color::White, Color::Black] {
        let sign = if color == Color::White { 1 } else { -1 };
        let (mut reserve, mut reach) = (0, 0);
        let mut bits = pos.stacks(color);
        while bits != 0 {
            let square = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let height = pos.heights[square as usize] as i32;
            let (file, rank) = pos.variant().coordinates(square);
            let ranks_left = if color == Color::White { size - rank } else { rank + 1 };
            reserve += height * ranks_left;
            reach += stack_reach(height, file, ranks_left - 1, size);
        }
        let material = pos.checkers(color) as i32;
        white_minus_black += sign * (100 * material + 15 * reserve + 8 * reach);
    }
    let us = pos.side_to_move();
    let own_view = if us == Color::White { white_minus_black } else { -white_minus_black };
    own_view + 60 * tallest_capture(pos, us) as i32
}

/// Rotates the board by 180 degrees and swaps the colours and the side to move: the same
/// position seen from the other side. A FEN's ranks and the runs within each rank, read
/// backwards, are the rotated board.
fn mirror_fen(fen: &str) -> String {
    let (board, side) = fen.split_once(' ').unwrap();
    let swap = |run: &str| match run.as_bytes()[0] {
        b'w' => format!("b{}", &run[1..]),
        b'b' => format!("w{}", &run[1..]),
        _ => run.to_string(),
    };
    let ranks: Vec<String> = board
        .split('/')
        .rev()
        .map(|rank| rank.split(',').rev().map(swap).collect::<Vec<_>>().join(","))
        .collect();
    format!("{} {}", ranks.join("/"), if side == "w" { "b" } else { "w" })
}

/// Positions from reproducible pseudo-random walks from the start of `variant`.
fn sample_positions(variant: Variant) -> Vec<Position> {
    let mut state = 0x1234_5678_9ABC_DEF0u64;
    let mut out = Vec::new();
    for _ in 0..40 {
        let mut pos = Position::startpos(variant);
        while !pos.is_game_over() && out.len() < 100_000 {
            out.push(pos);
            let moves = pos.legal_moves();
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            pos = pos.make_move(moves[(state >> 33) as usize % moves.len()]);
        }
    }
    out
}

#[test]
fn the_start_weights_give_the_first_evaluation() {
    for variant in Variant::ALL {
        let start = start_weights(variant);
        let positions = sample_positions(variant);
        assert!(positions.len() > 500, "{}", positions.len());
        for pos in positions {
            assert_eq!(evaluate_with(&pos, &start), old_evaluate(&pos), "{}", pos.to_fen());
        }
    }
}

#[test]
fn the_evaluation_is_the_dot_product_of_weights_and_features() {
    for variant in Variant::ALL {
        let names = feature_names(variant);
        assert_eq!(names.len(), feature_count(variant));
        assert_eq!(weights(variant).len(), names.len());
        assert_eq!(start_weights(variant).len(), names.len());
        for pos in sample_positions(variant) {
            let mut f = Vec::new();
            LinearEval::features(&pos, &mut f);
            assert_eq!(f.len(), names.len());
            assert_eq!(evaluate(&pos), dot(weights(variant), &f), "{}", pos.to_fen());
            // Any weights, so that no feature hides behind a zero weight.
            let any: Vec<i32> = (0..names.len() as i32).map(|i| 3 * i * i - 17 * i + 5).collect();
            assert_eq!(evaluate_with(&pos, &any), dot(&any, &f), "{}", pos.to_fen());
            assert!(features(&pos)[names.len()..].iter().all(|&x| x == 0));
        }
    }
}

#[test]
fn features_are_colour_symmetric() {
    for variant in Variant::ALL {
        for pos in sample_positions(variant) {
            let fen = pos.to_fen();
            let mirrored = Position::from_fen(variant, &mirror_fen(&fen)).unwrap();
            assert_eq!(features(&pos), features(&mirrored), "{fen} / {}", mirrored.to_fen());
        }
    }
}

#[test]
fn the_start_position_is_even() {
    for variant in Variant::ALL {
        let pos = Position::startpos(variant);
        let f = features(&pos);
        let n = variant.size();
        assert!(f[..index(n, Other::Threat)].iter().all(|&x| x == 0), "{f:?}");
        assert_eq!(f[index(n, Other::Threat)], 0);
        assert_eq!(f[index(n, Other::Tempo)], 1);
    }
}

#[test]
fn reach_counts_the_forward_moves_on_the_board() {
    // The start stack of 12 on e1 (file 4): 4 left to a5, 3 right to h4, straight e3 e5 e7.
    assert_eq!(stack_reach(12, 4, 7, 8), 4 + 3 + 3);
    // A single on the last rank has no forward move on the board; on a side edge it has one.
    assert_eq!(stack_reach(1, 3, 0, 8), 0);
    assert_eq!(stack_reach(1, 0, 5, 8), 1);
    // A stack of 2 in mid-board: one or two squares along each diagonal, two straight ahead.
    assert_eq!(stack_reach(2, 3, 4, 8), 2 + 2 + 1);
}

#[test]
fn features_count_what_they_say() {
    // Example 2 of the rules, White to move: White d4 (2); Black b4 (2), d2 (3), f2 (1).
    let pos = Position::from_fen(Variant::Dipole, "8/8/8/8/1,b2,1,w2,4/8/3,b3,1,b1,2/8 w").unwrap();
    let f = features(&pos);
    // White's 2 checkers on rank 4 have 5 ranks to go; Black's b4 pair 4, d2 and f2 2 each.
    assert_eq!((f[4], f[3], f[1]), (2, -2, -4));
    assert_eq!(f[..8].iter().sum::<i32>(), 2 - 6);
    assert_eq!(
        [Other::Stacks1, Other::Stacks2, Other::Stacks3To4, Other::Stacks5Up].map(|o| f[index(8, o)]),
        [-1, 1 - 1, -1, 0]
    );
    // d4 can take b4 (2) or f2 (1), not d2 (3); b4 (2) could take d4 (2) back.
    assert_eq!(f[index(8, Other::Threat)], 2);
    assert_eq!(tallest_capture(&pos, Color::Black), 2);
    assert!(evaluate(&pos) < 0, "Black has 6 checkers to White's 2");
    // Example 6: White can capture Black's last single.
    let pos = Position::from_fen(Variant::Dipole, "8/8/8/8/3,b1,4/2,w1,5/8/8 w").unwrap();
    assert_eq!(tallest_capture(&pos, Color::White), 1);
}
