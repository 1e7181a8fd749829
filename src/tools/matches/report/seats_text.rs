//! The per-seat report (dice games): the progress line, the final table and its JSON form,
//! from a [`DiceTally`]. With two players, Elo, LOS and the SPRT are those of the pairs'
//! report ([`super::stats`]), on dice streams instead of opening pairs.

use super::seats::{DiceTally, FAULTS, wilson};
use super::stats::{Pentanomial, SprtState};
use super::{
    Heading, elo_json, elo_line, json_number, json_string, lateness_json, progress_games, progress_tests,
    reason_list, reasons_json, sprt_json, sprt_line, timing_lines,
};
use crate::tools::matches::record::jsonl::DiceRecord;
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
        elo_line(&mut out, [&tally.names[0], &tally.names[1]], &tally.penta, "dice stream");
        let _ = writeln!(out, "Streams for {} [LL, LD, LW+DD, WD, WW]: {:?}", tally.names[0], tally.penta);
    }
    for e in 0..tally.names.len() {
        let _ = writeln!(out, "Forfeits of {}: {}", tally.names[e], reason_list(&FAULTS, &tally.forfeits[e]));
    }
    timing_lines(&mut out, &tally.names, &tally.lateness, "decisions");
    if let Some(s) = sprt {
        sprt_line(&mut out, &tally.names[0], s);
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
            reasons_json(&FAULTS, &tally.forfeits[e]),
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
// The tally as the match driver sees it; here, beside the lines it gives.
impl super::MatchTally for DiceTally {
    type Record = DiceRecord;

    fn add(&mut self, record: &DiceRecord) -> bool {
        DiceTally::add(self, record)
    }

    fn merge(&mut self, other: &DiceTally) -> Result<(), String> {
        DiceTally::merge(self, other)
    }

    fn games(&self) -> u64 {
        self.games
    }

    fn penta(&self) -> &Pentanomial {
        &self.penta
    }

    fn progress_line(&self, planned_games: Option<u64>, sprt: Option<&SprtState>) -> String {
        progress_line(self, planned_games, sprt)
    }

    fn table(&self, heading: Heading<'_>, sprt: Option<&SprtState>, elapsed: Duration, note: &str) -> String {
        let header = format!("{}, seed {}", heading.variant, heading.seed);
        table(self, &header, sprt, elapsed, note)
    }

    fn json(&self, heading: Heading<'_>, sprt: Option<&SprtState>, elapsed: Duration) -> String {
        json(self, heading.variant, heading.seed, sprt, elapsed)
    }
}
