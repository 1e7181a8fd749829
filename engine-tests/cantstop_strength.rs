//! Strength experiments for Can't Stop, in-process (no engine processes): ignored by default,
//! run by hand when the search or the value model changes, e.g.
//! `STREAMS=500 DEPTH=2 cargo test --release --test cantstop_strength -- --ignored --nocapture`
//! (one test by its name: `search_against_glenn`, `search_against_three_glenn`, ...).
//! They print win rates; they assert only that the games were played.

use steere::cantstop::game::CantStopParams;
use steere::cantstop::{Options, Position, Variant};
use steere::chance::Limits;
use steere::tools::searches::expectimax::duel_under;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn report(players: usize, strategies: &[&str]) {
    report_under(Options::BASE, players, strategies);
}

/// Plays `STREAMS` dice streams (each once per seat rotation) of `strategies` under `options`
/// and prints the first strategy's share of the wins, seat by seat, with 95% intervals.
fn report_under(options: Options, players: usize, strategies: &[&str]) {
    let streams = setting("STREAMS", 200) as usize;
    let limits = Limits { depth: Some(setting("DEPTH", 2) as u32), ..Limits::default() };
    let params = CantStopParams { players, options };
    let duel = duel_under::<Position>(params, players, strategies, streams, setting("SEED", 1), limits, 2);
    let share = |won: u64, games: u64| {
        let p = won as f64 / games.max(1) as f64;
        format!("{:.1}% +- {:.1}%", 100.0 * p, 100.0 * 1.96 * (p * (1.0 - p) / games.max(1) as f64).sqrt())
    };
    // Each seat is played by strategy 0 once per stream.
    let seats: Vec<String> = duel.seat_wins[0]
        .iter()
        .enumerate()
        .map(|(s, &w)| format!("P{} {}", s + 1, share(w, streams as u64)))
        .collect();
    println!(
        "{players} players {strategies:?} ({options}): {:?} of {}: first {} ({})",
        duel.wins,
        duel.games,
        share(duel.wins[0], duel.games),
        seats.join(", ")
    );
    assert!(duel.wins.iter().sum::<u64>() > 0);
}

#[test]
#[ignore]
fn search_against_rule28() {
    report(2, &["search", "rule28"]);
}

#[test]
#[ignore]
fn search_against_greedy() {
    report(2, &["search", "greedy"]);
}

#[test]
#[ignore]
fn search_against_three_rule28() {
    report(4, &["search", "rule28", "rule28", "rule28"]);
}

#[test]
#[ignore]
fn search_against_glenn() {
    report(2, &["search", "glenn"]);
}

#[test]
#[ignore]
fn search_against_two_glenn() {
    report(3, &["search", "glenn", "glenn"]);
}

#[test]
#[ignore]
fn search_against_three_glenn() {
    report(4, &["search", "glenn", "glenn", "glenn"]);
}

#[test]
#[ignore]
fn search_against_rule28_to_four_columns() {
    report_under(Options::new(2, 4, Variant::None).unwrap(), 2, &["search", "rule28"]);
}

#[test]
#[ignore]
fn search_against_rule28_under_skip() {
    report_under(Options::new(2, 3, Variant::Skip).unwrap(), 2, &["search", "rule28"]);
}
