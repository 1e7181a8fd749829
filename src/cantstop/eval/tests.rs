use super::*;
use crate::cantstop::{Options, Variant};

fn pos(fen: &str) -> Position {
    Position::parse_fen(fen).unwrap()
}

/// A solitaire position to `w` columns with `player`'s markers `markers`.
fn alone(w: u8, markers: [u8; COLUMNS]) -> Position {
    let mut p = Position::start_with(1, Options::new(1, w, Variant::None).unwrap());
    p.markers[0] = markers;
    p.update_won();
    p
}

/// Random markers (a fixed generator): each column empty, part way or won, at most `won` won.
fn random_markers(state: &mut u64, won: usize) -> [u8; COLUMNS] {
    let mut next = || {
        *state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (*state >> 33) as usize
    };
    let mut markers = [0; COLUMNS];
    let mut n_won = 0;
    for c in 0..COLUMNS {
        let h = usize::from(HEIGHTS[c]);
        let mut m = next() % (h + 1);
        if m == h {
            if n_won >= won {
                m = h - 1;
            } else {
                n_won += 1;
            }
        }
        markers[c] = m as u8;
    }
    markers
}

#[test]
fn the_shipped_file_parses_and_covers_every_column_and_space() {
    let model = Model::parse(SHIPPED).unwrap();
    assert_eq!(&model, shipped());
    for c in 0..COLUMNS {
        let row = &model.table[c][..=usize::from(HEIGHTS[c])];
        assert_eq!(row[0], 0.0);
        assert!(row.windows(2).all(|p| p[1] >= p[0]), "column {}: {row:?}", c + 2);
        assert!(row[usize::from(HEIGHTS[c])] > 0.0, "column {}", c + 2);
    }
    assert!(model.spread > 0.0);
    // The text round-trips (to its four decimals), and a missing entry is refused.
    let text = model.to_text(&["a comment".into()]);
    let again = Model::parse(&text).unwrap();
    assert_eq!(again.to_text(&[]), Model::parse(&again.to_text(&[])).unwrap().to_text(&[]));
    let short = text.replace("column 2 0.0000 ", "column 2 ");
    assert!(Model::parse(&short).is_err());
    let missing: String =
        text.lines().filter(|l| !l.starts_with("column 7 ")).map(|l| format!("{l}\n")).collect();
    assert!(Model::parse(&missing).is_err());
    assert!(Model::parse(&text.replace("spread", "spread -")).is_err());
}

#[test]
fn a_won_game_needs_no_turn_and_an_unwon_one_at_least_one() {
    let model = shipped();
    let mut markers = [0; COLUMNS];
    markers[0] = 3;
    markers[1] = 5;
    markers[10] = 3;
    let won = alone(3, markers);
    assert_eq!(won.winner(), Some(0));
    assert_eq!(model.turns_to_go(&won, 0), Some(0.0));
    assert_eq!(value(&won, 0), 0.0);
    let start = alone(3, [0; COLUMNS]);
    let t = model.turns_to_go(&start, 0).unwrap();
    assert!((5.0..12.0).contains(&t), "from the start: {t}");
    assert_eq!(value(&start, 0), -t);
    markers[10] = 2;
    assert!(model.turns_to_go(&alone(3, markers), 0).unwrap() >= 1.0);
}

#[test]
fn more_progress_never_needs_more_turns() {
    let model = shipped();
    let mut state = 7;
    for _ in 0..3000 {
        for w in 3..=5u8 {
            let markers = random_markers(&mut state, usize::from(w) - 1);
            let before = alone(w, markers);
            let t = model.turns_to_go(&before, 0).unwrap();
            for c in 0..COLUMNS {
                if markers[c] < HEIGHTS[c] {
                    let mut more = markers;
                    more[c] += 1;
                    let after = model.turns_to_go(&alone(w, more), 0).unwrap();
                    assert!(after <= t + 1e-12, "W={w} {markers:?} column {}: {t} -> {after}", c + 2);
                }
            }
        }
    }
}

#[test]
fn more_columns_to_win_need_more_turns() {
    let model = shipped();
    let mut state = 11;
    for _ in 0..3000 {
        let markers = random_markers(&mut state, 2);
        let t: Vec<f64> = (3..=5).map(|w| model.turns_to_go(&alone(w, markers), 0).unwrap()).collect();
        assert!(t[0] <= t[1] && t[1] <= t[2], "{markers:?}: {t:?}");
    }
    let from_start: Vec<f64> =
        (3..=5).map(|w| model.turns_to_go(&alone(w, [0; COLUMNS]), 0).unwrap()).collect();
    assert!(from_start[0] + 1.0 < from_start[1] && from_start[1] + 1.0 < from_start[2], "{from_start:?}");
}

#[test]
fn chances_add_up_to_one_and_favour_the_player_who_needs_fewer_turns() {
    for players in 2..=4 {
        let start = Position::start(players);
        let total: f64 = (0..players).map(|p| value(&start, p)).sum();
        assert!((total - 1.0).abs() < 1e-3, "{players} players: {total}");
        assert!(value(&start, 0) > value(&start, players - 1), "the first to move is ahead");
    }
    let behind = value(&pos("p2 00000000000/00005550000 - 1 r"), 0);
    let even = value(&pos("p2 00005550000/00005550000 - 1 r"), 0);
    let ahead = value(&pos("p2 00005550000/00000000000 - 1 r"), 0);
    assert!(behind < even && even < ahead, "{behind} {even} {ahead}");
    for fen in [
        "p3 00005550000/00000000000/00003300000 - 2 r",
        "p4 00000000000/00005550000/00000000000/00000000020 - 3 r",
    ] {
        let p = pos(fen);
        let chances: Vec<f64> = (0..p.players()).map(|i| value(&p, i)).collect();
        assert!((chances.iter().sum::<f64>() - 1.0).abs() < 1e-3, "{fen}: {chances:?}");
        let turns: Vec<f64> = (0..p.players()).map(|i| shipped().turns_to_go(&p, i).unwrap()).collect();
        let fastest = (0..p.players()).min_by(|&a, &b| turns[a].total_cmp(&turns[b])).unwrap();
        let likeliest = (0..p.players()).max_by(|&a, &b| chances[a].total_cmp(&chances[b])).unwrap();
        assert_eq!(fastest, likeliest, "{fen}: {turns:?} {chances:?}");
    }
    assert_eq!(value(&pos("p2 35000000053/00000600000 - 2 r"), 0), 1.0);
    assert_eq!(value(&pos("p2 35000000053/00000600000 - 2 r"), 1), 0.0);
}

#[test]
fn a_space_in_column_2_is_worth_more_than_one_in_7() {
    let model = shipped();
    assert!(model.table[0][1] - model.table[0][0] > model.table[5][13] - model.table[5][12]);
    let two = value(&pos("p2 10000000000/00000000000 - 2 r"), 0);
    let seven = value(&pos("p2 00000100000/00000000000 - 2 r"), 0);
    assert!(two >= seven - 1e-12, "{two} {seven}");
}

#[test]
fn the_hand_model_stays_selectable_on_one_thread() {
    let p = pos("p2 00005550000/00000000000 - 1 r");
    let hand = with_value(Value::Hand, || value(&p, 0));
    assert_eq!(hand, hand::value(&p, 0));
    assert_eq!(value(&p, 0), shipped().value(&p, 0));
    let other = Model { spread: 0.5, ..shipped().clone() };
    assert_eq!(with_value(Value::Learned(&other), || value(&p, 0)), other.value(&p, 0));
}

#[test]
fn the_normal_distribution_function() {
    assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
    assert!((normal_cdf(1.96) - 0.975).abs() < 1e-4);
    assert!((normal_cdf(-1.0) - 0.158_655).abs() < 1e-5);
}
