//! The contract's worked examples and edge cases, by hand.

use super::notation::event_text;
use super::*;

fn pos(fen: &str) -> Position {
    Position::parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The position after the events of `events` (space-separated) from `fen`.
fn after(fen: &str, events: &str) -> Position {
    events.split_whitespace().fold(pos(fen), |p, text| {
        let event = p.parse_event(text).unwrap_or_else(|e| panic!("{text} in {}: {e}", p.fen()));
        p.play(event)
    })
}

/// The legal events of a position as text, space-separated.
fn events(p: &Position) -> String {
    p.legal_events().iter().map(|&e| event_text(e)).collect::<Vec<_>>().join(" ")
}

const START: &str = "p2 00000000000/00000000000 - 1 r";

#[test]
fn example_1_a_normal_turn() {
    assert_eq!(events(&after(START, "r1546")), "5.11 6.10 7.9");
    assert_eq!(after(START, "r1546 6.10").fen(), "p2 00000000000/00000000000 6:1,10:1 1 s");
    assert_eq!(events(&after(START, "r1546 6.10 roll r2435")), "5 6.8 7.7 9");
    assert_eq!(
        after(START, "r1546 6.10 roll r2435 6.8").fen(),
        "p2 00000000000/00000000000 6:2,8:1,10:1 1 s"
    );
    assert_eq!(
        after(START, "r1546 6.10 roll r2435 7.7").fen(),
        "p2 00000000000/00000000000 6:1,7:2,10:1 1 s"
    );
    assert_eq!(after(START, "r1546 6.10 roll r2435 6.8 stop").fen(), "p2 00002010100/00000000000 - 2 r");
}

#[test]
fn example_2_a_bust_and_a_blocked_top() {
    let fen = "p2 01002030000/00000000000 3:2,6:11,8:4 1 r";
    assert_eq!(after(fen, "r2455").fen(), "p2 01002030000/00000000000 - 2 r");
    assert_eq!(events(&after(fen, "r1526")), "3 8");
}

#[test]
fn example_3_one_marker_left_for_two_new_columns() {
    assert_eq!(events(&after("p2 00000000000/00000000000 3:1,6:1 1 r", "r2455")), "6.10 7 9");
}

#[test]
fn example_4_closed_columns_bust() {
    let fen = "p2 0000b000700/000000b0000 - 1 r";
    assert_eq!(after(fen, "r2446").fen(), "p2 0000b000700/000000b0000 - 2 r");
}

#[test]
fn example_5_winning_on_stop() {
    let won = after("p3 30000500003/00000500000/00000000000 7:13 1 s", "stop");
    assert_eq!(won.fen(), "p3 30000d00003/00000000000/00000000000 - 2 r");
    assert_eq!((won.winner(), won.legal_events().len()), (Some(0), 0));
    let four = after("p2 30000000003/00000000000 3:5,11:5 1 s", "stop");
    assert_eq!(four.fen(), "p2 35000000053/00000000000 - 2 r");
    assert_eq!((four.winner(), four.won_count(0)), (Some(0), 4));
}

#[test]
fn example_6_the_same_sum_twice_with_one_space_left() {
    let fen = "p2 00000000000/00000000000 4:2,7:12,9:3 1 r";
    assert_eq!(events(&after(fen, "r1634")), "4 7 9");
    assert_eq!(after(fen, "r1634 7").fen(), "p2 00000000000/00000000000 4:2,7:13,9:3 1 s");
}

#[test]
fn example_7_placing_above_ones_own_marker_on_a_shared_space() {
    let fen = "p2 00003000000/00002000000 - 2 r";
    assert_eq!(events(&after(fen, "r1515")), "2.10 6.6");
    assert_eq!(after(fen, "r1515 6.6").fen(), "p2 00003000000/00002000000 6:4 2 s");
}

#[test]
fn edge_cases() {
    // 5: a doubled sum whose first advance places a new marker on the top.
    let fen = "p2 00000c00000/00000000000 - 1 r";
    assert_eq!(events(&after(fen, "r3434")), "6.8 7");
    // 6: a doubled sum with one marker left places it and moves it up once more.
    let fen = "p2 00000000000/00000000000 2:1,3:1 1 r";
    assert_eq!(after(fen, "r3434 7.7").fen(), "p2 00000000000/00000000000 2:1,3:1,7:2 1 s");
    // 8: rolling again is allowed with every neutral marker on a top, and then busts.
    let fen = "p2 00000000000/00000000000 2:3,3:5,12:3 1 s";
    let again = after(fen, "roll");
    assert_eq!(odds::bust_outcomes(&again), 1296);
    assert_eq!(
        again.play(Event::Roll(Dice::new([6, 6, 6, 6]).unwrap())).fen(),
        "p2 00000000000/00000000000 - 2 r"
    );
    // 9: dice in any order; readers accept a choice written high column first.
    assert_eq!(after(START, "r6451 10.6").fen(), "p2 00000000000/00000000000 6:1,10:1 1 s");
}

#[test]
fn the_start_positions_and_a_finished_game() {
    for players in 2..=4 {
        let fen = Position::start(players).fen();
        assert_eq!(pos(&fen), Position::start(players));
        assert_eq!(fen.matches("00000000000").count(), players);
    }
    assert_eq!(Position::start(2).fen(), START);
    let done = pos("p2 35000000053/00000600000 - 2 r");
    assert_eq!((done.winner(), done.perft(1), done.perft(3)), (Some(0), 0, 0));
}

#[test]
fn non_canonical_input_is_read_and_written_canonically() {
    assert_eq!(
        pos("p2 00000000000/00000000000 10:1,6:1 1 c6541").fen(),
        "p2 00000000000/00000000000 6:1,10:1 1 c1456"
    );
}

#[test]
fn every_kind_of_unreachable_position_is_rejected() {
    let cases = [
        ("p2 00000000000/00000000000 - 1", 1),
        ("p5 00000000000/00000000000 - 1 r", 1),
        ("p3 00000000000/00000000000 - 1 r", 1),
        ("p2 0000000000/00000000000 - 1 r", 1),
        ("p2 0000000000e/00000000000 - 1 r", 1),
        ("p2 0000A000000/00000000000 - 1 r", 1),
        ("p2 40000000000/00000000000 - 1 r", 2),
        ("p2 30000000000/10000000000 - 1 r", 3),
        ("p2 00000000000/00000000000 - 3 r", 4),
        ("p2 00000000000/00000000000 - 1 x", 4),
        ("p2 00000000000/00000000000 - 1 c1237", 4),
        ("p2 00000000000/00000000000 2:1,3:1,4:1,5:1 1 r", 5),
        ("p2 00000000000/00000000000 7:1,7:2 1 r", 5),
        ("p2 00000000000/00000000000 13:1 1 r", 5),
        ("p2 30000000000/00000000000 2:1 2 r", 5),
        ("p2 00000300000/00000000000 7:3 1 r", 5),
        ("p2 00000000000/00000000000 2:4 1 r", 5),
        ("p2 00000000000/00000000000 - 1 s", 6),
        ("p2 0000b000700/000000b0000 - 1 c2446", 7),
        ("p2 35700000000/00000000753 - 1 r", 8),
        ("p2 3579bd00000/00000000000 - 2 r", 8),
        ("p2 35700000000/00000000000 - 1 r", 9),
        ("p2 35700000000/00000000000 7:1 2 r", 9),
        ("p2 35700000000/00000000000 - 2 c1166", 9),
    ];
    for (fen, rule) in cases {
        match Position::parse_fen(fen) {
            Ok(p) => panic!("{fen} accepted as {}", p.fen()),
            Err(e) => assert_eq!(e.rule, rule, "{fen}: {e}"),
        }
    }
}

#[test]
fn malformed_and_illegal_events_are_told_apart() {
    let start = pos(START);
    for text in ["r0123", "r12345", "1", "13", "7.8.9", "07", "rol", ""] {
        assert!(matches!(start.parse_event(text), Err(EventError::Malformed(_))), "{text}");
    }
    for text in ["7", "stop", "roll"] {
        assert!(matches!(start.parse_event(text), Err(EventError::Illegal(_))), "{text}");
    }
    let chosen = after(START, "r1546");
    assert!(matches!(chosen.parse_event("7.11"), Err(EventError::Illegal(_))));
    assert!(chosen.parse_event("9.7").is_ok());
}

#[test]
fn the_contract_perft_counts_from_the_start() {
    let start = pos(START);
    let counts: Vec<u64> = (1..=5).map(|d| start.perft(d)).collect();
    assert_eq!(counts, [126, 231, 462, 58212, 130356]);
}

#[test]
fn the_sum_table_and_the_worst_and_best_triples() {
    let sums: Vec<u32> = (2..=12).map(|c| odds::hit_outcomes(&[c])).collect();
    assert_eq!(sums, [171, 302, 461, 580, 727, 834, 727, 580, 461, 302, 171]);
    assert_eq!(odds::hit_outcomes(&[6, 7, 8]), 1192);
    assert_eq!(odds::hit_outcomes(&[2, 3, 12]), 568);
    assert_eq!(odds::hit_outcomes(&[4, 7, 10]), 1136);
}

/// R13: a message repeats at most 40 characters of a bad field or token, control characters
/// escaped.
#[test]
fn errors_repeat_bad_input_briefly() {
    let long = format!("\u{7}{}", "x".repeat(1 << 20));
    for fen in [
        format!("p2 {long}/00000000000 - 1 r"),
        format!("p2 00000000000/00000000000 {long} 1 r"),
        format!("p2 00000000000/00000000000 - 1 {long}"),
        format!("p2 00000000000/00000000000 - {long} r"),
        format!("{long} 00000000000/00000000000 - 1 r"),
    ] {
        let error = Position::parse_fen(&fen).unwrap_err().to_string();
        assert!(
            error.len() < 200 && error.contains("'\\u{7}xxx") && error.contains("...'"),
            "{}",
            &error[..200.min(error.len())]
        );
    }
    let start = Position::start(2);
    let error = start.parse_event(&long).unwrap_err().to_string();
    assert!(error.len() < 200, "{}", &error[..200]);
}

/// The options of the contract's "Optional variants", on positions worked out by hand.
#[test]
fn the_options_change_landing_stopping_and_winning() {
    let skip = Options::new(2, 3, Variant::Skip).unwrap();
    // Player 2 has 7 on space 1 and 2: player 1's marker placed in 7 skips to space 3.
    let p = Position::parse_fen_with("p2 00000000000/00000000000 - 1 r", skip).unwrap();
    assert_eq!(p.landing(5), 1);
    let q = Position::parse_fen_with("p2 00000000000/00000100000 - 1 c1166", skip).unwrap();
    assert_eq!(q.landing(5), 2);
    let after = q.play(Event::Choose(Choice::two(7, 7)));
    assert_eq!(after.fen(), "p2 00000000000/00000100000 7:3 1 s");
    // Under must roll, a neutral marker on player 2's marker forbids the stop.
    let must = Options::new(2, 3, Variant::MustRoll).unwrap();
    let r = Position::parse_fen_with("p2 00000000000/00000100000 7:1 1 s", must).unwrap();
    assert_eq!(r.legal_events(), vec![Event::Continue]);
    assert!(Position::parse_fen_with("p2 00000000000/00000100000 7:1 1 s", skip).is_err());
    // Four columns to win: three won columns do not end the game.
    let four = Options::new(2, 4, Variant::None).unwrap();
    let s = Position::parse_fen_with("p2 35700000000/00000000000 - 2 r", four).unwrap();
    assert_eq!(s.winner(), None);
    assert_eq!(Position::parse_fen("p2 35700000000/00000000000 - 2 r").unwrap().winner(), Some(0));
    assert_eq!(
        Position::parse_fen_with(
            "p3 00000000000/00000000000/00000000000 - 1 r",
            Options::new(2, 5, Variant::None).unwrap()
        )
        .unwrap_err()
        .rule,
        10
    );
}
