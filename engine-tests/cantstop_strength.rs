//! Strength experiments for Can't Stop, in-process (no engine processes): ignored by default,
//! run by hand when the search or the value model changes, e.g.
//! `STREAMS=500 DEPTH=2 cargo test --release --test cantstop_strength -- --ignored --nocapture`.
//! They print win rates; they assert only that the games were played.

use steere::cantstop::Position;
use steere::chance::Limits;
use steere::tools::searches::expectimax::duel;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn report(players: usize, strategies: &[&str]) {
    let streams = setting("STREAMS", 200) as usize;
    let limits = Limits { depth: Some(setting("DEPTH", 2) as u32), ..Limits::default() };
    let (wins, games) = duel::<Position>(players, strategies, streams, setting("SEED", 1), limits, 2);
    let p = wins[0] as f64 / games as f64;
    let half = 1.96 * (p * (1.0 - p) / games as f64).sqrt();
    println!(
        "{players} players {strategies:?}: {wins:?} of {games}: first {:.1}% +- {:.1}%",
        100.0 * p,
        100.0 * half
    );
    assert!(wins.iter().sum::<u64>() > 0);
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
