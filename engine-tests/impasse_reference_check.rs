//! Tests of the independent reference move generator (engine-tests/impasse_reference) itself.
//!
//! Every expected value here comes from the rules contract (docs/rules/impasse.md and
//! impasse-perft.txt) or was worked out by hand from the rules; the reasoning is in the comments.
//! Squares are named as in the contract: a1 is dark, White moves up (its singles toward rank 8,
//! its doubles toward rank 1), Black moves down.

#[path = "impasse_reference/mod.rs"]
mod reference;

use reference::{Position, START_FEN, legal_moves, parse_perft_suite, perft};

/// The move texts of a position, sorted.
fn texts(fen: &str) -> Vec<String> {
    legal_moves(fen).unwrap().into_iter().map(|(text, _)| text).collect()
}

/// The canonical FEN after the move `text`.
fn after(fen: &str, text: &str) -> String {
    let moves = legal_moves(fen).unwrap();
    let found: Vec<&(String, String)> = moves.iter().filter(|(t, _)| t == text).collect();
    assert_eq!(found.len(), 1, "move {text} in {fen}: {moves:?}");
    found[0].1.clone()
}

// ---------------------------------------------------------------------------------------------
// Start position and reference counts
// ---------------------------------------------------------------------------------------------

#[test]
fn start_position_has_22_moves() {
    // White: singles a1, e1, d2, h2; doubles b8, f8, c7, g7. Black: singles d8, h8, a7, e7;
    // doubles c1, g1, b2, f2.
    // Singles slide up: a1 -> b2 is Black (blocked); e1 -> d2 own, f2 Black (blocked);
    //   d2 -> c3 b4 a5 and e3 f4 g5 h6 (7); h2 -> g3 f4 e5 d6, then c7 is own (4).
    // Doubles slide down: b8 -> a7 Black, c7 own (blocked); f8 -> e7 Black, g7 own (blocked);
    //   c7 -> b6 a5 and d6 e5 f4 g3, then h2 is own (6); g7 -> f6 e5 d4 c3, then b2 is Black,
    //   and h6 (5). No transpose: no double has an own single diagonally below it.
    // 7 + 4 + 6 + 5 = 22, as the contract's depth 1.
    let expected = [
        "c7a5", "c7b6", "c7d6", "c7e5", "c7f4", "c7g3", "d2a5", "d2b4", "d2c3", "d2e3", "d2f4", "d2g5",
        "d2h6", "g7c3", "g7d4", "g7e5", "g7f6", "g7h6", "h2d6", "h2e5", "h2f4", "h2g3",
    ];
    assert_eq!(texts(START_FEN), expected);
    // d2c3 moves the single: rank 3 gets a w on c3, rank 2 keeps b2 B, f2 B, h2 w.
    assert_eq!(after(START_FEN, "d2c3"), "1W1b1W1b/b1W1b1W1/8/8/8/2w5/1B3B1w/w1B1w1B1 b");
    // g7h6 moves the double down to h6.
    assert_eq!(after(START_FEN, "g7h6"), "1W1b1W1b/b1W1b3/7W/8/8/8/1B1w1B1w/w1B1w1B1 b");
}

#[test]
fn start_perft_depths_1_to_4_match_contract() {
    // the perft table of docs/rules/impasse.md
    for (depth, nodes) in [(1, 22), (2, 492), (3, 9692), (4, 193139)] {
        assert_eq!(perft(START_FEN, depth).unwrap(), nodes, "depth {depth}");
    }
    assert_eq!(perft(START_FEN, 0).unwrap(), 1);
}

#[test]
#[ignore = "slow: 3.5 million nodes"]
fn start_perft_depth_5_matches_contract() {
    assert_eq!(perft(START_FEN, 5).unwrap(), 3_489_530);
}

#[test]
#[ignore = "slow: 63 million nodes"]
fn start_perft_depth_6_matches_contract() {
    assert_eq!(perft(START_FEN, 6).unwrap(), 62_805_389);
}

// ---------------------------------------------------------------------------------------------
// The numbered "Decided edge cases" of the contract
// ---------------------------------------------------------------------------------------------

#[test]
fn edge_case_1_transpose_onto_nearest_row_bears_off() {
    // White: double b2, single a1. Black: single h8.
    // a1 cannot slide (b2 is its own double). The double b2 slides down: a1 is own (blocked),
    // c1 is free (then off the board) and b2c1 bears off on rank 1, leaving a single on c1.
    // Transpose b2a1: b2 becomes a single, a1 a double on White's nearest row, which bears off
    // at once: both are singles, and White has lost one checker.
    let fen = "7b/8/8/8/8/8/1W6/w7 w";
    assert_eq!(texts(fen), ["b2a1", "b2c1"]);
    assert_eq!(after(fen, "b2a1"), "7b/8/8/8/8/8/1w6/w7 b");
    assert_eq!(after(fen, "b2c1"), "7b/8/8/8/8/8/8/w1w5 b");
}

#[test]
fn edge_case_2_far_row_transpose_is_crowned() {
    // White: double b8, singles c7 and e3. Black: single h4.
    // c7 slides up: b8 own (blocked), d8 (furthest row): crowned by the other single e3 -> c7d8e3.
    // e3 slides up: d4 c5 b6 a7 and f4 g5 h6 (7 moves).
    // b8 slides down: a7 (then off the board); c7 is own (blocked) -> b8a7.
    // Transpose b8c7: b8 is left a single on the furthest row; it must be crowned with another
    // single, and c7 has just become a double, so only e3 -> b8c7e3.
    // 1 + 7 + 1 + 1 = 10 moves.
    let fen = "1W6/2w5/8/8/7b/4w3/8/8 w";
    assert_eq!(
        texts(fen),
        ["b8a7", "b8c7e3", "c7d8e3", "e3a7", "e3b6", "e3c5", "e3d4", "e3f4", "e3g5", "e3h6"]
    );
    assert_eq!(after(fen, "b8c7e3"), "1W6/2W5/8/8/7b/8/8/8 b");
    assert_eq!(after(fen, "b8a7"), "8/W1w5/8/8/7b/4w3/8/8 b");
}

#[test]
fn edge_case_3_slide_to_far_row_gives_one_move_per_other_single() {
    // White singles a7, c7, e3, g3; Black single h2.
    // a7 -> b8: 3 other singles (c7, e3, g3) -> 3 moves.
    // c7 -> b8 and c7 -> d8: 3 crown choices each (a7, e3, g3) -> 6 moves.
    // e3 -> d4 c5 b6 (a7 is own) and f4 g5 h6 -> 6 moves.
    // g3 -> f4 e5 d6 (c7 is own) and h4 -> 4 moves.
    // 3 + 6 + 6 + 4 = 19.
    let fen = "8/w1w5/8/8/8/4w1w1/7b/8 w";
    let moves = texts(fen);
    assert_eq!(moves.len(), 19);
    for text in ["a7b8c7", "a7b8e3", "a7b8g3", "c7b8a7", "c7b8e3", "c7b8g3", "c7d8a7", "c7d8e3", "c7d8g3"] {
        assert!(moves.contains(&text.to_string()), "{text} missing from {moves:?}");
    }
    // a7b8c7 and c7b8a7 are different moves reaching the same position: a double on b8.
    assert_eq!(after(fen, "a7b8c7"), "1W6/8/8/8/8/4w1w1/7b/8 b");
    assert_eq!(after(fen, "c7b8a7"), "1W6/8/8/8/8/4w1w1/7b/8 b");
}

#[test]
fn edge_case_4_impasse_may_remove_any_checker() {
    // White: single h6, doubles h4 and a3. Black: g7, b2 singles, g3 double.
    // h6 can only go to g7 (Black); h4 only to g3 (Black); a3 only to b2 (Black); no double has
    // an own single diagonally below it. No basic move: impasse. Any own checker may go: the
    // single h6, or the top of either double (which then becomes a single, with no crown as
    // nothing stands on the furthest row and there is no waiting single).
    let fen = "8/6b1/7w/8/7W/W5B1/1b6/8 w";
    assert_eq!(texts(fen), ["a3", "h4", "h6"]);
    assert_eq!(after(fen, "a3"), "8/6b1/7w/8/7W/w5B1/1b6/8 b");
    assert_eq!(after(fen, "h4"), "8/6b1/7w/8/7w/W5B1/1b6/8 b");
    assert_eq!(after(fen, "h6"), "8/6b1/8/8/7W/W5B1/1b6/8 b");
}

#[test]
fn edge_case_5_removing_a_whole_single_never_crowns() {
    // White: waiting single d8 (its only single), doubles h4 and a3, blocked by Black's g3 and
    // b2 as above. No basic move (d8 cannot move from the furthest row): impasse.
    // - d8: removes the whole single; no crown (nothing is left to crown), the doubles stay.
    // - a3 / h4: the top goes, the new single must be stacked onto the waiting d8: a3a3, h4h4.
    let fen = "3w4/8/8/8/7W/W5B1/1b6/8 w";
    assert_eq!(texts(fen), ["a3a3", "d8", "h4h4"]);
    assert_eq!(after(fen, "d8"), "8/8/8/8/7W/W5B1/1b6/8 b");
    assert_eq!(after(fen, "a3a3"), "3W4/8/8/8/7W/6B1/1b6/8 b");
    assert_eq!(after(fen, "h4h4"), "3W4/8/8/8/8/W5B1/1b6/8 b");
}

#[test]
fn edge_case_6_every_crown_choice_is_one_move_in_perft() {
    // White singles a7, c7; Black single h2.
    // Depth 1: a7b8c7, c7b8a7 (same position), c7d8a7 = 3 moves, 2 distinct positions.
    // Depth 2: Black's only move each time is h2g1 (i1 is off the board); g1 is Black's furthest
    // row and Black has no other single, so it waits (no crown): 3 x 1 = 3.
    // Depth 3: White has a single double. From b8: a7 (then off the board), and c7 d6 e5 f4 g3
    // h2 (h2 is free now, then off the board) = 7. From d8: c7 b6 a5 and e7 f6 g5 h4 = 7.
    // 3 x 7 = 21 (counting the b8 position twice, as two moves led to it).
    let fen = "8/w1w5/8/8/8/8/7b/8 w";
    assert_eq!(texts(fen), ["a7b8c7", "c7b8a7", "c7d8a7"]);
    assert_eq!(texts(&after(fen, "c7d8a7")), ["h2g1"]);
    assert_eq!(perft(fen, 1).unwrap(), 3);
    assert_eq!(perft(fen, 2).unwrap(), 3);
    assert_eq!(perft(fen, 3).unwrap(), 21);
}

// ---------------------------------------------------------------------------------------------
// Other cases named by the contract
// ---------------------------------------------------------------------------------------------

#[test]
fn waiting_single_is_created_then_cannot_move() {
    // White: single c7, double g5. Black: single e3.
    // c7 -> b8 or d8: the furthest row, and White has no other single, so no crown: it waits.
    // g5 slides down: f4, then e3 is Black; h4, then off the board. 4 moves.
    let fen = "8/2w5/8/6W1/8/4b3/8/8 w";
    assert_eq!(texts(fen), ["c7b8", "c7d8", "g5f4", "g5h4"]);
    assert_eq!(after(fen, "c7d8"), "3w4/8/8/6W1/8/4b3/8/8 b");
    // Same position with White to move again: the waiting d8 cannot move, g5 has its 2 slides,
    // neither bears off (no new single), so d8 stays uncrowned.
    let waiting = "3w4/8/8/6W1/8/4b3/8/8 w";
    assert_eq!(texts(waiting), ["g5f4", "g5h4"]);
    assert_eq!(after(waiting, "g5f4"), "3w4/8/8/8/5W2/4b3/8/8 b");
}

#[test]
fn waiting_single_crowned_by_bear_off_single() {
    // White: waiting single d8, double b2. Black: single e5.
    // b2 slides down to a1 or c1 (then off the board) and bears off there; the resulting single
    // is White's new single and must be stacked onto the waiting d8: b2a1a1 and b2c1c1 (the
    // contract's `b2a1a1`). Both leave one double on d8.
    let fen = "3w4/8/8/4b3/8/8/1W6/8 w";
    assert_eq!(texts(fen), ["b2a1a1", "b2c1c1"]);
    assert_eq!(after(fen, "b2a1a1"), "3W4/8/8/4b3/8/8/8/8 b");
    assert_eq!(after(fen, "b2c1c1"), "3W4/8/8/4b3/8/8/8/8 b");
}

#[test]
fn two_singles_on_far_row_after_impasse_removal() {
    // White: waiting single d8, double f8. Black: single e7, double g7 block f8's way down.
    // No basic move: impasse. d8: the whole single goes (no crown). f8: its top goes, leaving a
    // second single on the furthest row; one is stacked onto the other, two moves (the
    // contract's example): f8d8 = d8 onto f8, f8f8 = f8 onto d8.
    let fen = "3w1W2/4b1B1/8/8/8/8/8/8 w";
    assert_eq!(texts(fen), ["d8", "f8d8", "f8f8"]);
    assert_eq!(after(fen, "d8"), "5W2/4b1B1/8/8/8/8/8/8 b");
    assert_eq!(after(fen, "f8d8"), "5W2/4b1B1/8/8/8/8/8/8 b");
    assert_eq!(after(fen, "f8f8"), "3W4/4b1B1/8/8/8/8/8/8 b");
}

#[test]
fn transpose_that_bears_off_black() {
    // Black (moving down; nearest row rank 8): double c7, single b8. White: single h2.
    // b8 slides down: a7 (then off the board); c7 is own (blocked).
    // c7 slides up: b8 own (blocked); d8, Black's nearest row: bears off -> c7d8, single on d8.
    // Transpose c7b8: b8 becomes a double on rank 8 and bears off; c7 is a single. Black has
    // lost one checker and has two singles.
    let fen = "1b6/2B5/8/8/8/8/7w/8 b";
    assert_eq!(texts(fen), ["b8a7", "c7b8", "c7d8"]);
    assert_eq!(after(fen, "c7b8"), "1b6/2b5/8/8/8/8/7w/8 w");
    assert_eq!(after(fen, "c7d8"), "1b1b4/8/8/8/8/8/7w/8 w");
}

#[test]
fn transpose_that_leaves_single_on_far_row_black() {
    // Black: double c1 (on its furthest row), singles d2 and h6. White: single a7.
    // d2 slides down: c1 own (blocked); e1 (furthest row), crowned by h6 -> d2e1h6.
    // h6 slides down: g5 f4 e3, then d2 is own (3 moves).
    // c1 slides up: b2 a3 (then off the board); d2 own (blocked) (2 moves).
    // Transpose c1d2: c1 is left a single on the furthest row, crowned by h6 (d2 is now the
    // double) -> c1d2h6. 1 + 3 + 2 + 1 = 7.
    let fen = "8/w7/7b/8/8/8/3b4/2B5 b";
    assert_eq!(texts(fen), ["c1a3", "c1b2", "c1d2h6", "d2e1h6", "h6e3", "h6f4", "h6g5"]);
    assert_eq!(after(fen, "c1d2h6"), "8/w7/8/8/8/8/3B4/2B5 w");
    assert_eq!(after(fen, "d2e1h6"), "8/w7/8/8/8/8/8/2B1B3 w");
}

#[test]
fn impasse_removal_on_far_row_is_crowned() {
    // Black: double c1 (its furthest row), single h4. White: singles b2 and g3, double d2.
    // h4 can only go to g3 (White); c1 can only go up to b2 or d2 (both White); no transpose.
    // Impasse: c1 -> its top goes and the single left on the furthest row must be crowned by
    // the other single h4 -> c1h4; h4 -> the whole single goes, no crown. Both moves happen to
    // give the same position (a double on c1, nothing on h4).
    let fen = "8/8/8/8/7b/6w1/1w1W4/2B5 b";
    assert_eq!(texts(fen), ["c1h4", "h4"]);
    assert_eq!(after(fen, "c1h4"), "8/8/8/8/8/6w1/1w1W4/2B5 w");
    assert_eq!(after(fen, "h4"), "8/8/8/8/8/6w1/1w1W4/2B5 w");
}

#[test]
fn finished_game_has_no_moves() {
    // Black has no checkers: Black has won, White (to move) has no moves.
    let fen = "8/8/8/8/8/8/1w6/8 w";
    assert!(legal_moves(fen).unwrap().is_empty());
    assert_eq!(perft(fen, 0).unwrap(), 1);
    assert_eq!(perft(fen, 1).unwrap(), 0);
    assert_eq!(perft(fen, 3).unwrap(), 0);
}

#[test]
fn impasse_removal_of_last_checker_wins() {
    // White's only checker h6 can only go to g7 (Black): impasse, the one move is h6. White has
    // then no checkers: White has won, and Black has no moves.
    let fen = "8/6b1/7w/8/8/8/8/8 w";
    assert_eq!(texts(fen), ["h6"]);
    assert_eq!(after(fen, "h6"), "8/6b1/8/8/8/8/8/8 b");
    assert!(legal_moves("8/6b1/8/8/8/8/8/8 b").unwrap().is_empty());
    assert_eq!(perft(fen, 1).unwrap(), 1);
    assert_eq!(perft(fen, 2).unwrap(), 0);
}

// ---------------------------------------------------------------------------------------------
// FEN reading and writing
// ---------------------------------------------------------------------------------------------

#[test]
fn fen_accepts_dots_and_writes_canonical_form() {
    let dotted = ".W.b.W.b/b.W.b.W./......../8/4..../8/.B.w.B.w/w.B.w.B. w";
    assert_eq!(Position::from_fen(dotted).unwrap().to_fen(), START_FEN);
    assert_eq!(Position::from_fen(START_FEN).unwrap().to_fen(), START_FEN);
    assert_eq!(Position::start().to_fen(), START_FEN);
    // Runs of empty squares are merged into one digit.
    assert_eq!(Position::from_fen("1W6/8/8/8/8/8/8/111111b1 b").unwrap().to_fen(), "1W6/8/8/8/8/8/8/6b1 b");
}

#[test]
fn fen_rejects_malformed_and_unreachable_positions() {
    let cases = [
        // Malformed.
        ("1W6/8/8/8/8/8/8/6b1", "2 fields"),
        ("1W6/8/8/8/8/8/6b1 w", "8 ranks"),
        ("1W6/8/8/8/8/8/8/6b2 w", "more than 8 squares"),
        ("1W6/8/8/8/8/8/8/6b w", "instead of 8"),
        ("1W6/8/8/8/8/8/8/6x1 w", "unexpected character"),
        ("1W6/8/8/8/8/8/8/6b1 x", "side to move"),
        // b1 is light (file 1 + rank 0 is odd).
        ("1W6/8/8/8/8/8/8/1b6 w", "light square b1"),
        // White: 7 doubles = 14 checkers.
        ("1W1W1W1W/W1W1W3/8/8/8/8/8/b7 w", "more than 12"),
        // White double on a1, its nearest row; Black double on b8, its nearest row.
        ("8/8/8/8/8/8/8/W5b1 w", "nearest row"),
        ("1B6/8/8/8/8/8/8/w7 w", "nearest row"),
        // White single on b8 (its furthest row) while White has another single on a1.
        ("1w6/8/8/8/8/8/8/w5b1 w", "furthest row"),
        // Black single on a1 (its furthest row) with another Black single on h8.
        ("7b/8/8/8/8/8/8/b7 w", "furthest row"),
        ("8/8/8/8/8/8/8/8 w", "both players"),
        ("8/8/8/8/8/8/8/b7 w", "side to move"),
    ];
    for (fen, expected) in cases {
        let error = Position::from_fen(fen).expect_err(fen);
        assert!(error.contains(expected), "{fen}: error {error:?} should mention {expected:?}");
        assert!(legal_moves(fen).is_err());
        assert!(perft(fen, 1).is_err());
    }
}

/// Walks the tree below `fen` to `depth`, checking that every position reached is legal by the
/// FEN rules, that its FEN reads back to the same canonical text, and that its move texts are
/// unique. Returns the number of positions visited.
fn check_tree(fen: &str, depth: u32) -> u64 {
    let parsed = Position::from_fen(fen).unwrap();
    assert_eq!(parsed.to_fen(), fen, "canonical FEN");
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(fen).unwrap();
    for pair in moves.windows(2) {
        assert_ne!(pair[0].0, pair[1].0, "duplicate move text in {fen}");
    }
    1 + moves.iter().map(|(_, after)| check_tree(after, depth - 1)).sum::<u64>()
}

#[test]
fn positions_reached_are_legal_and_move_texts_unique() {
    check_tree(START_FEN, 3);
    let suite = std::fs::read_to_string(suite_path()).unwrap();
    for entry in parse_perft_suite(&suite).unwrap() {
        check_tree(&entry.fen, 3);
    }
}

// ---------------------------------------------------------------------------------------------
// The perft suite positions/impasse-perft.epd
// ---------------------------------------------------------------------------------------------

/// Entries with more nodes than this are checked only by the ignored test.
const QUICK_NODE_LIMIT: u64 = 2_000_000;

fn suite_path() -> String {
    format!("{}/positions/impasse-perft.epd", env!("CARGO_MANIFEST_DIR"))
}

/// Checks every count of the suite whose node count is within (or, with `large`, beyond)
/// the quick limit. Returns how many counts were checked.
fn check_suite(large: bool) -> usize {
    let text = std::fs::read_to_string(suite_path()).unwrap();
    let entries = parse_perft_suite(&text).unwrap();
    assert!(entries.len() >= 15, "the suite has {} positions", entries.len());
    let mut checked = 0;
    for entry in &entries {
        assert_eq!(
            Position::from_fen(&entry.fen).unwrap().to_fen(),
            entry.fen,
            "line {}: FEN is not canonical",
            entry.line
        );
        for &(depth, nodes) in &entry.counts {
            if (nodes > QUICK_NODE_LIMIT) != large {
                continue;
            }
            let got = perft(&entry.fen, depth).unwrap();
            assert_eq!(got, nodes, "line {}: {} depth {depth}", entry.line, entry.fen);
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_suite_matches_reference() {
    assert!(check_suite(false) > 100);
}

#[test]
#[ignore = "slow: includes depth 7 of the start position (about a billion nodes)"]
fn perft_suite_large_counts_match_reference() {
    assert!(check_suite(true) > 0);
}
