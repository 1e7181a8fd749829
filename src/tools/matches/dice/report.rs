//! What a dice match tells its user: the progress line, the final table and its JSON form,
//! from a [`DiceTally`]. Elo, LOS and the SPRT (two players) are those of the board runner
//! ([`crate::tools::matches::stats`]), on dice streams instead of opening pairs.

use super::tally::{DiceTally, FAULTS, wilson};
use crate::tools::matches::report::{SprtState, json_number, json_string, signed};
use crate::tools::matches::stats::{EloEstimate, Verdict, elo_estimate};
use std::fmt::Write as _;
use std::time::Duration;

/// A share in percent with one decimal.
fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// An engine's name with its number of seats when it fills more than one: `b (x3)`.
fn label(tally: &DiceTally, e: usize) -> String {
    match tally.copies(e) {
        1 => tally.names[e].clone(),
        n => format!("{} (x{n})", tally.names[e]),
    }
}

/// The live progress line: games (of `planned_games`), wins per engine, Elo and LLR.
pub fn progress_line(tally: &DiceTally, planned_games: Option<u64>, sprt: Option<&SprtState>) -> String {
    let mut line = format!("games {}", tally.games);
    if let Some(planned) = planned_games {
        let _ = write!(line, "/{planned}");
    }
    for e in 0..tally.names.len() {
        let _ = write!(line, "  {} {} ({})", tally.names[e], tally.wins[e], percent(tally.win_rate(e)));
    }
    if tally.unfinished > 0 {
        let _ = write!(line, "  unfinished {}", tally.unfinished);
    }
    if let Some(e) = elo_estimate(&tally.penta).filter(|_| tally.players == 2) {
        let _ = write!(line, "  elo {} +- {:.1}", signed(e.elo), e.error95);
    }
    if let Some(s) = sprt {
        let (lower, upper) = s.sprt.bounds();
        let _ = write!(line, "  llr {:.2} ({lower:.2}, {upper:.2})", s.llr);
    }
    line
}

/// The final table, for people. `header` describes the match (its variant, seed).
pub fn table(
    tally: &DiceTally,
    header: &str,
    sprt: Option<&SprtState>,
    elapsed: Duration,
    note: &str,
) -> String {
    let mut out = String::new();
    let n = tally.players;
    let _ = writeln!(
        out,
        "Match {} ({header}, {n} players): {} games, {} complete dice streams, {:.1} s{note}",
        tally.names.join(" vs "),
        tally.games,
        tally.streams,
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
        per_game(tally.events)
    );
    if n == 2 {
        match elo_estimate(&tally.penta) {
            Some(EloEstimate { elo, error95, los, .. }) => {
                let _ = writeln!(
                    out,
                    "Elo difference ({} - {}): {} +- {error95:.1} (95%), LOS {:.1}%",
                    tally.names[0],
                    tally.names[1],
                    signed(elo),
                    100.0 * los
                );
            }
            None => out.push_str("Elo difference: no complete dice stream yet.\n"),
        }
        let _ = writeln!(out, "Streams for {} [LL, LD, LW+DD, WD, WW]: {:?}", tally.names[0], tally.penta);
    }
    for e in 0..tally.names.len() {
        let reasons: Vec<String> = FAULTS
            .iter()
            .zip(tally.forfeits[e])
            .filter(|&(_, count)| count > 0)
            .map(|(c, count)| format!("{} {count}", c.label()))
            .collect();
        let list = if reasons.is_empty() { "none".to_string() } else { reasons.join(", ") };
        let _ = writeln!(out, "Forfeits of {}: {list}", tally.names[e]);
    }
    for e in 0..tally.names.len() {
        if let Some(l) = tally.lateness[e].summary() {
            let _ = writeln!(
                out,
                "Timing of {}: {} timed decisions, answer - allowed: p50 {} ms, p99 {} ms, max {} ms",
                tally.names[e],
                l.moves,
                signed(l.p50),
                signed(l.p99),
                signed(l.max)
            );
        }
    }
    if let Some(s) = sprt {
        let (lower, upper) = s.sprt.bounds();
        let verdict = match s.verdict {
            Verdict::H1 => {
                format!("H1 accepted: {} is stronger (by about {} Elo or more)", tally.names[0], s.sprt.elo1)
            }
            Verdict::H0 => format!("H0 accepted: {} is not {} Elo stronger", tally.names[0], s.sprt.elo1),
            Verdict::Continue => "no verdict yet".to_string(),
        };
        let _ = writeln!(
            out,
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} (bounds {lower:.2}, {upper:.2}): {verdict}",
            s.sprt.elo0, s.sprt.elo1, s.sprt.alpha, s.sprt.beta, s.llr
        );
    }
    out
}

/// The summary as one JSON object (the same facts as [`table`]).
pub fn json(
    tally: &DiceTally,
    variant: &str,
    seed: u64,
    sprt: Option<&SprtState>,
    elapsed: Duration,
) -> String {
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
        let reasons: Vec<String> = FAULTS
            .iter()
            .zip(tally.forfeits[e])
            .map(|(c, count)| format!("{}:{count}", json_string(c.label())))
            .collect();
        let timing = match tally.lateness[e].summary() {
            Some(l) => format!(
                "{{\"moves\":{},\"p50_ms\":{},\"p99_ms\":{},\"max_ms\":{}}}",
                l.moves,
                json_number(l.p50),
                json_number(l.p99),
                json_number(l.max)
            ),
            None => "null".to_string(),
        };
        engines.push(format!(
            "{{\"name\":{},\"entrants\":{},\"games\":{},\"seats\":{},\"wins\":{},\"win_rate\":{},\"interval95\":{interval},\"equal_share\":{},\"by_seat\":[{}],\"forfeits_by_reason\":{{{}}},\"lateness\":{timing}}}",
            json_string(&tally.names[e]),
            tally.copies(e),
            tally.games,
            tally.seats[e],
            tally.wins[e],
            json_number(tally.win_rate(e)),
            json_number(1.0 / n as f64),
            by_seat.join(","),
            reasons.join(",")
        ));
    }
    let (elo, penta) = match elo_estimate(&tally.penta).filter(|_| n == 2) {
        Some(e) => (
            format!(
                "{{\"elo\":{},\"error95\":{},\"los\":{},\"score\":{}}}",
                json_number(e.elo),
                json_number(e.error95),
                json_number(e.los),
                json_number(e.score)
            ),
            format!("[{}]", tally.penta.map(|c| c.to_string()).join(",")),
        ),
        None if n == 2 => ("null".to_string(), "[0,0,0,0,0]".to_string()),
        None => ("null".to_string(), "null".to_string()),
    };
    let sprt = match sprt {
        Some(s) => {
            let (lower, upper) = s.sprt.bounds();
            let verdict = match s.verdict {
                Verdict::H0 => "H0",
                Verdict::H1 => "H1",
                Verdict::Continue => "continue",
            };
            format!(
                "{{\"elo0\":{},\"elo1\":{},\"alpha\":{},\"beta\":{},\"llr\":{},\"lower\":{},\"upper\":{},\"verdict\":\"{verdict}\"}}",
                json_number(s.sprt.elo0),
                json_number(s.sprt.elo1),
                json_number(s.sprt.alpha),
                json_number(s.sprt.beta),
                json_number(s.llr),
                json_number(lower),
                json_number(upper)
            )
        }
        None => "null".to_string(),
    };
    let seat_wins: Vec<String> = tally.wins_by_seat.iter().map(u64::to_string).collect();
    format!(
        "{{\"variant\":{},\"players\":{n},\"seed\":{seed},\"engines\":[{}],\"games\":{},\"streams\":{},\"seat_wins\":[{}],\"unfinished\":{},\"forfeits_without_winner\":{},\"turns\":{},\"events\":{},\"pentanomial\":{penta},\"elo\":{elo},\"sprt\":{sprt},\"elapsed_s\":{}}}",
        json_string(variant),
        engines.join(","),
        tally.games,
        tally.streams,
        seat_wins.join(","),
        tally.unfinished,
        tally.forfeits_without_winner,
        tally.turns,
        tally.events,
        json_number(elapsed.as_secs_f64())
    )
}
