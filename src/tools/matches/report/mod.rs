//! What a match tells its user: the running tally, the live progress line, the final table
//! and its JSON form, for every game. One [`Tally`] counts the games of every match; two
//! reports read it:
//! - [`pairs`]: two engines without chance, by colour, with draws: the pentanomial of opening
//!   pairs, Elo, LOS and the SPRT;
//! - [`seats`]: dice games of 2 to 4 seats, per seat, with Wilson intervals; with two players
//!   also the pentanomial of dice streams, Elo, LOS and the SPRT.
//!
//! The lines both reports share (Elo, SPRT, timing, reasons, the JSON pieces) are here, once.
//! Games are counted as they finish; a deal (pair, stream) enters the pentanomial, the Elo
//! estimate and the SPRT only when all its games are in ([`stats`]). The JSON is written by
//! hand: one flat object does not justify a serialisation crate.

pub mod pairs;
pub mod seats;
pub mod stats;
pub mod tally;

use super::record::Category;
use super::referee::timing::Lateness;
use stats::{EloEstimate, Pentanomial, SprtState, Verdict, elo_estimate, one_sided_bound};
use std::fmt::Write as _;
use std::time::Duration;
pub use tally::Tally;

/// What the reports name a match by beside its engines: the variant and the seed.
#[derive(Clone, Copy, Debug)]
pub struct Heading<'a> {
    /// The variant's name.
    pub variant: &'a str,
    /// The seed (of the openings' order or of the dice).
    pub seed: u64,
}

// The report of the tally's kind: the pairs' for two players without chance, per seat for
// dice games.
impl Tally {
    /// The live progress line: games (of `planned_games`, for a match of fixed length), the
    /// score and, with a test, its LLR.
    pub fn progress_line(&self, planned_games: Option<u64>, sprt: Option<&SprtState>) -> String {
        let line = if self.dice { seats::progress_line } else { pairs::progress_line };
        line(self, planned_games, sprt)
    }

    /// The final table, for people; `note` ends its first line.
    pub fn table(
        &self,
        heading: Heading<'_>,
        sprt: Option<&SprtState>,
        elapsed: Duration,
        note: &str,
    ) -> String {
        let table = if self.dice { seats::table } else { pairs::table };
        table(self, heading, sprt, elapsed, note)
    }

    /// The summary as one JSON object (the same facts as the table).
    pub fn json(&self, heading: Heading<'_>, sprt: Option<&SprtState>, elapsed: Duration) -> String {
        let json = if self.dice { seats::json } else { pairs::json };
        json(self, heading, sprt, elapsed)
    }
}

/// `+12.3` style: a signed number with one decimal.
pub fn signed(x: f64) -> String {
    // Adding +0.0 turns a negative zero (elo of an even score: -400 * 0) into +0.0.
    format!("{:+.1}", x + 0.0)
}

/// The start of a progress line: `games N`, or `games N/PLANNED` for a match of fixed length.
pub fn progress_games(games: u64, planned_games: Option<u64>) -> String {
    let mut line = format!("games {games}");
    if let Some(planned) = planned_games {
        let _ = write!(line, "/{planned}");
    }
    line
}

/// The end of a progress line: the Elo estimate of the complete units of `penta`, if any (a
/// one-sided bound after a clean sweep), and the SPRT's LLR with its bounds.
pub fn progress_tests(line: &mut String, penta: Option<&Pentanomial>, sprt: Option<&SprtState>) {
    match (penta.and_then(one_sided_bound), penta.and_then(elo_estimate)) {
        (Some(b), _) => {
            let _ = write!(line, "  elo {} {}", if b.won { ">=" } else { "<=" }, signed(b.elo));
        }
        (None, Some(e)) => {
            let _ = write!(line, "  elo {} +- {:.1}", signed(e.elo), e.error95);
        }
        (None, None) => {}
    }
    if let Some(s) = sprt {
        let (lower, upper) = s.sprt.bounds();
        let _ = write!(line, "  llr {:.2} ({lower:.2}, {upper:.2})", s.llr);
    }
}

/// The Elo line of a table: engine 1 minus engine 2 from the completed units (`pair`, `dice
/// stream`) of `penta`, or that there is none yet. When engine 1 won or lost every game, a
/// one-sided bound ([`one_sided_bound`]): an interval of width zero would claim a precision
/// the data does not have.
pub fn elo_line(out: &mut String, names: [&str; 2], penta: &Pentanomial, unit: &str) {
    if let Some(bound) = one_sided_bound(penta) {
        let (side, games) = if bound.won { ("at least", "won") } else { ("at most", "lost") };
        let _ = writeln!(
            out,
            "Elo difference ({} - {}): {side} {} (95%, one-sided: every game {games})",
            names[0],
            names[1],
            signed(bound.elo)
        );
        return;
    }
    match elo_estimate(penta) {
        Some(EloEstimate { elo, error95, los, .. }) => {
            let _ = writeln!(
                out,
                "Elo difference ({} - {}): {} +- {error95:.1} (95%), LOS {:.1}%",
                names[0],
                names[1],
                signed(elo),
                100.0 * los
            );
        }
        None => {
            let _ = writeln!(out, "Elo difference: no complete {unit} yet.");
        }
    }
}

/// The reasons with a count, `illegal move 2, crash 1`, or `none`.
pub fn reason_list(reasons: &[Category], counts: &[u64]) -> String {
    let listed: Vec<String> = reasons
        .iter()
        .zip(counts)
        .filter(|&(_, &n)| n > 0)
        .map(|(c, n)| format!("{} {n}", c.label()))
        .collect();
    if listed.is_empty() { "none".to_string() } else { listed.join(", ") }
}

/// A table's timing line for each engine with timed `moves` (or `decisions`).
pub fn timing_lines(out: &mut String, names: &[String], lateness: &[Lateness], moves: &str) {
    for (name, lateness) in names.iter().zip(lateness) {
        if let Some(l) = lateness.summary() {
            let _ = writeln!(
                out,
                "Timing of {name}: {} timed {moves}, answer - allowed: p50 {} ms, p99 {} ms, max {} ms",
                l.moves,
                signed(l.p50),
                signed(l.p99),
                signed(l.max)
            );
        }
    }
}

/// A table's SPRT line: the test, its LLR and bounds, and its verdict on `engine1`.
pub fn sprt_line(out: &mut String, engine1: &str, s: &SprtState) {
    let (lower, upper) = s.sprt.bounds();
    let verdict = match s.verdict {
        Verdict::H1 => format!("H1 accepted: {engine1} is stronger (by about {} Elo or more)", s.sprt.elo1),
        Verdict::H0 => format!("H0 accepted: {engine1} is not {} Elo stronger", s.sprt.elo1),
        Verdict::Continue => "no verdict yet".to_string(),
    };
    let _ = writeln!(
        out,
        "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} (bounds {lower:.2}, {upper:.2}): {verdict}",
        s.sprt.elo0, s.sprt.elo1, s.sprt.alpha, s.sprt.beta, s.llr
    );
}

/// A JSON string literal.
pub fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON number (`null` for NaN or infinity, which JSON cannot express).
pub fn json_number(x: f64) -> String {
    if x.is_finite() { format!("{}", (x * 1e4).round() / 1e4 + 0.0) } else { "null".to_string() }
}

/// Counts by reason as the members of a JSON object: `"illegal move":2,"crash":0`.
pub fn reasons_json(reasons: &[Category], counts: &[u64]) -> String {
    let members: Vec<String> =
        reasons.iter().zip(counts).map(|(c, n)| format!("{}:{n}", json_string(c.label()))).collect();
    members.join(",")
}

/// An engine's lateness as JSON (`null` without timed moves).
pub fn lateness_json(lateness: &Lateness) -> String {
    match lateness.summary() {
        Some(l) => format!(
            "{{\"moves\":{},\"p50_ms\":{},\"p99_ms\":{},\"max_ms\":{}}}",
            l.moves,
            json_number(l.p50),
            json_number(l.p99),
            json_number(l.max)
        ),
        None => "null".to_string(),
    }
}

/// The Elo estimate of the complete units of `penta` as JSON (`null` without one, or when
/// `penta` is `None`). When engine 1 won or lost every game, `elo`, `error95` and `los` are
/// `null` and `one_sided` holds the bound (`{bound: "lower"|"upper", elo, units}`); otherwise
/// `one_sided` is `null`.
pub fn elo_json(penta: Option<&Pentanomial>) -> String {
    let Some(e) = penta.and_then(elo_estimate) else {
        return "null".to_string();
    };
    match penta.and_then(one_sided_bound) {
        Some(b) => format!(
            "{{\"elo\":null,\"error95\":null,\"los\":null,\"score\":{},\"one_sided\":{{\"bound\":\"{}\",\"elo\":{},\"units\":{}}}}}",
            json_number(e.score),
            if b.won { "lower" } else { "upper" },
            json_number(b.elo),
            b.units
        ),
        None => format!(
            "{{\"elo\":{},\"error95\":{},\"los\":{},\"score\":{},\"one_sided\":null}}",
            json_number(e.elo),
            json_number(e.error95),
            json_number(e.los),
            json_number(e.score)
        ),
    }
}

/// The SPRT's state as JSON (`null` without a test).
pub fn sprt_json(sprt: Option<&SprtState>) -> String {
    let Some(s) = sprt else {
        return "null".to_string();
    };
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
