//! Property tests (proptest) over positions from random games: FEN and move-text round trips,
//! the incremental hash against the hash from scratch, bulk counting against generation, and the
//! invariants of the rules along whole games.

mod common;

use common::{Rng, random_game};
use proptest::prelude::*;
use steere::impasse::zobrist::hash_from_scratch;
use steere::impasse::{Color, MoveKind, Position};

/// The contract's bound on the length of a game.
const MAX_PLIES: usize = 1_740;

/// A random game from the start position, chosen by its seed.
fn game(seed: u64) -> Vec<Position> {
    random_game(Position::startpos(), &mut Rng(seed))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn fen_round_trips(seed: u64) {
        for pos in game(seed) {
            let fen = pos.to_fen();
            let back = Position::from_fen(&fen).unwrap();
            prop_assert_eq!(back, pos, "{}", fen);
            prop_assert_eq!(back.to_fen(), fen);
        }
    }

    #[test]
    fn move_text_round_trips_and_is_unique(seed: u64) {
        for pos in game(seed) {
            let moves = pos.legal_moves();
            let mut texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            for (&mv, text) in moves.iter().zip(&texts) {
                prop_assert_eq!(pos.parse_move(text), Ok(mv));
            }
            texts.sort();
            texts.dedup();
            prop_assert_eq!(texts.len(), moves.len(), "two moves share a text in {}", pos);
        }
    }

    #[test]
    fn incremental_hash_equals_hash_from_scratch(seed: u64) {
        let positions = game(seed);
        let mut seen = std::collections::HashMap::new();
        for pos in &positions {
            prop_assert_eq!(pos.hash(), hash_from_scratch(pos), "{}", pos);
            // Different positions of one game should not share a 64-bit hash.
            if let Some(other) = seen.insert(pos.hash(), *pos) {
                prop_assert_eq!(other, *pos);
            }
        }
    }

    #[test]
    fn bulk_count_equals_generated_moves(seed: u64) {
        for pos in game(seed) {
            prop_assert_eq!(pos.count_moves(), pos.legal_moves().len() as u64, "{}", pos);
        }
    }

    #[test]
    fn games_keep_the_rules_invariants(seed: u64) {
        let mut rng = Rng(seed);
        let mut pos = Position::startpos();
        let mut plies = 0;
        while !pos.is_game_over() {
            let moves = pos.legal_moves();
            prop_assert!(!moves.is_empty(), "no move and no winner in {}", pos);
            let mv = moves[rng.below(moves.len())];
            let us = pos.side_to_move();
            let next = pos.make_move(mv);
            check_move_direction(us, mv)?;
            for c in [Color::White, Color::Black] {
                prop_assert!(next.checkers(c) <= pos.checkers(c), "{c} gained checkers: {} {}", pos, mv);
                prop_assert_eq!(next.doubles(c) & c.nearest_row(), 0, "double on nearest row: {}", next);
                let far_singles = next.singles(c) & c.furthest_row();
                prop_assert!(far_singles == 0 || next.singles(c).count_ones() == 1, "uncrowned: {}", next);
            }
            // The opponent's checkers never change on the mover's turn.
            prop_assert_eq!(next.checkers(us.opponent()), pos.checkers(us.opponent()));
            pos = next;
            plies += 1;
            prop_assert!(plies <= MAX_PLIES, "game longer than {} plies", MAX_PLIES);
        }
        prop_assert!(pos.winner().is_some());
        prop_assert_eq!(pos.checkers(pos.winner().unwrap()), 0);
    }
}

/// Singles move forward, doubles backward, transposes go one row toward the owner.
fn check_move_direction(us: Color, mv: steere::impasse::Move) -> Result<(), TestCaseError> {
    let forward = |from: u8, to: u8| if us == Color::White { to > from } else { to < from };
    let (from, to) = (mv.from().rank(), mv.to().rank());
    match mv.kind() {
        MoveKind::SingleSlide => prop_assert!(forward(from, to), "single moved backward: {mv}"),
        MoveKind::DoubleSlide => prop_assert!(forward(to, from), "double moved forward: {mv}"),
        MoveKind::Transpose => {
            prop_assert!(forward(to, from) && from.abs_diff(to) == 1, "bad transpose {mv}")
        }
        MoveKind::Removal => prop_assert_eq!(from, to),
    }
    Ok(())
}
