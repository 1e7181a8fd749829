//! The per-seat report (dice games, 2 to 4 players), from the [`Tally`]: the progress line,
//! the final table and its JSON form, wins per engine and seat, forfeits, unfinished games, and
//! with two players Elo, LOS and the SPRT of the pairs' report ([`super::stats`]) on dice
//! streams instead of opening pairs.
//!
//! **Engines, entrants, seats.** The table is per engine given. An engine that fills several
//! seats (the last one, when there are fewer engines than players) takes that many seats in
//! every game, so its figures are per seat: wins out of seats taken, against the share of equal
//! play, 1/N. **Win rate interval**: the Wilson score interval at 95% ([`wilson`]), which stays
//! inside [0, 1] and behaves at 0 or N wins and on few games, where the normal approximation
//! does not. It treats seats as independent trials; the seats of one game are not (at most one
//! wins), nor are the rotations of one dice stream (the same dice tend to favour the same seat,
//! hence different entrants), and both correlations are negative for an engine's total, so the
//! interval errs on the wide side.

use super::stats::{SprtState, Z_975};
use super::tally::Tally;
use super::{
    Heading, elo_json, elo_line, json_number, json_string, lateness_json, progress_games, progress_tests,
    reason_list, reasons_json, sprt_json, sprt_line, timing_lines,
};
use crate::tools::matches::record::Category;
use std::fmt::Write as _;
use std::time::Duration;

/// The faults that forfeit a game, in the order of the tables (the tally's [`Tally::forfeits`]).
const FAULTS: &[Category] = Category::ALL.split_at(1).1;

/// The Wilson score interval at 95% of `successes` out of `trials` (`None` without trials):
/// `(p + z^2/2n +- z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)`, `z` = 1.959964.
pub fn wilson(successes: u64, trials: u64) -> Option<(f64, f64)> {
    if trials == 0 {
        return None;
    }
    let (n, p) = (trials as f64, successes as f64 / trials as f64);
    let z2 = Z_975 * Z_975;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z_975 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

/// A share in percent with one decimal.
fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// An engine's name with its number of seats when it fills more than one: `b (x3)`.
fn label(tally: &Tally, e: usize) -> String {
    match tally.copies(e) {
        1 => tally.names[e].clone(),
        n => format!("{} (x{n})", tally.names[e]),
    }
}

/// The live progress line: games (of `planned_games`), wins per engine, Elo and LLR.
pub fn progress_line(tally: &Tally, planned_games: Option<u64>, sprt: Option<&SprtState>) -> String {
    let mut line = progress_games(tally.games, planned_games);
    for e in 0..tally.names.len() {
        let _ = write!(line, "  {} {} ({})", tally.names[e], tally.wins[e], percent(tally.win_rate(e)));
    }
    if tally.unfinished > 0 {
        let _ = write!(line, "  unfinished {}", tally.unfinished);
    }
    progress_tests(&mut line, Some(&tally.penta).filter(|_| tally.players == 2), sprt);
    line
}

/// The final table, for people; `note` ends its first line.
pub fn table(
    tally: &Tally,
    heading: Heading<'_>,
    sprt: Option<&SprtState>,
    elapsed: Duration,
    note: &str,
) -> String {
    let mut out = String::new();
    let n = tally.players;
    let _ = writeln!(
        out,
        "Match {} ({}, seed {}, {n} players): {} games, {} complete dice streams, {:.1} s{note}",
        tally.names.join(" vs "),
        heading.variant,
        heading.seed,
        tally.games,
        tally.deals,
        elapsed.as_secs_f64()
    );
    let width = (0..tally.names.len()).map(|e| label(tally, e).len()).max().unwrap_or(0).max(6);
    let mut head = format!(
        "{:<width$}  {:>6}  {:>6}  {:>6}  {:>8}  {:>15}  {:>6}",
        "Engine", "Games", "Seats", "Wins", "Win/seat", "95% (Wilson)", "Equal"
    );
    for seat in 1..=n {
        let _ = write!(head, "  {:>9}", format!("P{seat} W/G"));
    }
    let _ = writeln!(out, "{head}");
    for e in 0..tally.names.len() {
        let interval = wilson(tally.wins[e], tally.seats[e])
            .map_or("-".to_string(), |(lo, hi)| format!("[{}, {}]", percent(lo), percent(hi)));
        let mut row = format!(
            "{:<width$}  {:>6}  {:>6}  {:>6}  {:>8}  {:>15}  {:>6}",
            label(tally, e),
            tally.games,
            tally.seats[e],
            tally.wins[e],
            percent(tally.win_rate(e)),
            interval,
            percent(1.0 / n as f64)
        );
        for seat in 0..n {
            let _ =
                write!(row, "  {:>9}", format!("{}/{}", tally.seat_wins[e][seat], tally.seat_games[e][seat]));
        }
        let _ = writeln!(out, "{row}");
    }
    let by_seat: Vec<String> = tally
        .wins_by_seat
        .iter()
        .enumerate()
        .map(|(seat, &w)| {
            let share = if tally.games == 0 { 0.0 } else { w as f64 / tally.games as f64 };
            format!("P{} {w} ({})", seat + 1, percent(share))
        })
        .collect();
    let per_game = |x: u64| if tally.games == 0 { 0.0 } else { x as f64 / tally.games as f64 };
    let _ = writeln!(
        out,
        "Wins by seat: {}; no winner: unfinished {}, forfeited {}; {:.1} turns and {:.1} events per game.",
        by_seat.join(", "),
        tally.unfinished,
        tally.forfeits_without_winner,
        per_game(tally.turns),
        per_game(tally.steps)
    );
    if n == 2 {
        elo_line(&mut out, [&tally.names[0], &tally.names[1]], &tally.penta, "dice stream");
        let _ = writeln!(out, "Streams for {} [LL, LD, LW+DD, WD, WW]: {:?}", tally.names[0], tally.penta);
    }
    for e in 0..tally.names.len() {
        let _ = writeln!(out, "Forfeits of {}: {}", tally.names[e], reason_list(FAULTS, &tally.forfeits[e]));
    }
    timing_lines(&mut out, &tally.names, &tally.lateness, "decisions");
    if let Some(s) = sprt {
        sprt_line(&mut out, &tally.names[0], s);
    }
    out
}

/// The summary as one JSON object (the same facts as [`table`]).
pub fn json(tally: &Tally, heading: Heading<'_>, sprt: Option<&SprtState>, elapsed: Duration) -> String {
    let n = tally.players;
    let mut engines = Vec::new();
    for e in 0..tally.names.len() {
        let interval = match wilson(tally.wins[e], tally.seats[e]) {
            Some((lo, hi)) => format!("[{},{}]", json_number(lo), json_number(hi)),
            None => "null".to_string(),
        };
        let by_seat: Vec<String> = (0..n)
            .map(|s| format!("{{\"games\":{},\"wins\":{}}}", tally.seat_games[e][s], tally.seat_wins[e][s]))
            .collect();
        engines.push(format!(
            "{{\"name\":{},\"entrants\":{},\"games\":{},\"seats\":{},\"wins\":{},\"win_rate\":{},\"interval95\":{interval},\"equal_share\":{},\"by_seat\":[{}],\"forfeits_by_reason\":{{{}}},\"lateness\":{}}}",
            json_string(&tally.names[e]),
            tally.copies(e),
            tally.games,
            tally.seats[e],
            tally.wins[e],
            json_number(tally.win_rate(e)),
            json_number(1.0 / n as f64),
            by_seat.join(","),
            reasons_json(FAULTS, &tally.forfeits[e]),
            lateness_json(&tally.lateness[e])
        ));
    }
    let elo = elo_json(Some(&tally.penta).filter(|_| n == 2));
    // Two players: the pentanomial, all zeros before the first complete stream.
    let penta = if n == 2 {
        format!("[{}]", tally.penta.map(|c| c.to_string()).join(","))
    } else {
        "null".to_string()
    };
    let sprt = sprt_json(sprt);
    let seat_wins: Vec<String> = tally.wins_by_seat.iter().map(u64::to_string).collect();
    format!(
        "{{\"variant\":{},\"players\":{n},\"seed\":{},\"engines\":[{}],\"games\":{},\"streams\":{},\"seat_wins\":[{}],\"unfinished\":{},\"forfeits_without_winner\":{},\"turns\":{},\"events\":{},\"pentanomial\":{penta},\"elo\":{elo},\"sprt\":{sprt},\"elapsed_s\":{}}}",
        json_string(heading.variant),
        heading.seed,
        engines.join(","),
        tally.games,
        tally.deals,
        seat_wins.join(","),
        tally.unfinished,
        tally.forfeits_without_winner,
        tally.turns,
        tally.steps,
        json_number(elapsed.as_secs_f64())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_published_values() {
        // 60 of 100: the Wilson interval is [0.5020, 0.6906] (Newcombe 1998, or any Wilson
        // calculator); 0 of 10: [0, 0.2775]; 10 of 10: [0.7225, 1].
        let (lo, hi) = wilson(60, 100).unwrap();
        assert!((lo - 0.5020).abs() < 5e-5 && (hi - 0.6906).abs() < 5e-5, "{lo} {hi}");
        let (lo, hi) = wilson(0, 10).unwrap();
        assert!(lo.abs() < 1e-12 && (hi - 0.2775).abs() < 5e-5, "{lo} {hi}");
        let (lo, hi) = wilson(10, 10).unwrap();
        assert!((lo - 0.7225).abs() < 5e-5 && (hi - 1.0).abs() < 1e-12, "{lo} {hi}");
        assert_eq!(wilson(0, 0), None);
    }
}
