//! Differential test: the bitboard generator against the independent reference generator of
//! `engine-tests/impasse_reference` (a plain 8x8 array written from the rules text), on every position
//! of many random games and on the perft suite. Both sides are compared as text (move notation
//! and FEN after the move), so the comparison also covers notation and FEN writing.

mod common;
#[path = "impasse_reference/mod.rs"]
mod reference;

use common::{Rng, random_game};
use steere::impasse::Position;

/// The engine's (move text, FEN after) pairs, sorted by move text like the reference's.
fn engine_moves(pos: &Position) -> Vec<(String, String)> {
    let mut moves: Vec<_> =
        pos.legal_moves().iter().map(|&mv| (mv.to_string(), pos.make_move(mv).to_fen())).collect();
    moves.sort();
    moves
}

/// Compares both generators on one position; on a mismatch, names the position and the moves
/// only one of them has.
fn assert_agree(pos: &Position) {
    let fen = pos.to_fen();
    let ours = engine_moves(pos);
    let theirs = reference::legal_moves(&fen).unwrap_or_else(|e| panic!("reference rejects {fen}: {e}"));
    if ours != theirs {
        let only_ours: Vec<_> = ours.iter().filter(|m| !theirs.contains(m)).collect();
        let only_theirs: Vec<_> = theirs.iter().filter(|m| !ours.contains(m)).collect();
        panic!("generators disagree on {fen}\n engine only: {only_ours:?}\n reference only: {only_theirs:?}");
    }
    assert_eq!(pos.count_moves(), ours.len() as u64, "bulk count of {fen}");
}

#[test]
fn generators_agree_on_random_games() {
    let mut rng = Rng(0x1234_5678);
    let mut positions = 0;
    let mut games = 0;
    while positions < 12_000 {
        for pos in random_game(Position::startpos(), &mut rng) {
            assert_agree(&pos);
            positions += 1;
        }
        games += 1;
    }
    assert!(games >= 20, "only {games} games");
}

#[test]
fn generators_agree_on_games_from_the_perft_suite() {
    // The suite's positions sit next to the edge cases; random games from each of them reach
    // waiting singles, impasses and crowns more often than games from the start.
    let mut rng = Rng(42);
    for entry in common::perft_suite() {
        let start = Position::from_fen(&entry.fen).unwrap();
        for _ in 0..5 {
            random_game(start, &mut rng).iter().for_each(assert_agree);
        }
    }
}

#[test]
fn reference_perft_agrees_at_depth_3_along_a_game() {
    // Deeper than one ply: every third position of a random game, perft 3 by both.
    let mut rng = Rng(7);
    for pos in random_game(Position::startpos(), &mut rng).iter().step_by(3) {
        let fen = pos.to_fen();
        assert_eq!(steere::tools::perft::perft(pos, 3), reference::perft(&fen, 3).unwrap(), "{fen}");
    }
}
