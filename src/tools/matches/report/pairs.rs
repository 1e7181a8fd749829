//! The report of two engines over opening pairs (board games), from the [`Tally`]: by colour
//! (seat 0 White), with draws and the reasons of losses and draws; its progress line, table and
//! JSON. A pair enters the pentanomial, the Elo estimate and the SPRT only when both its games
//! are in (see [`super::stats`]).

use super::stats::SprtState;
use super::tally::Tally;
use super::{
    Heading, elo_json, elo_line, json_number, json_string, lateness_json, progress_games, progress_tests,
    reason_list, reasons_json, sprt_json, sprt_line, timing_lines,
};
use crate::tools::matches::record::Category;
use std::fmt::Write as _;
use std::time::Duration;

/// Engine `e`'s score in percent: a win is a point, a draw half a point.
fn score_percent(tally: &Tally, e: usize) -> f64 {
    if tally.games == 0 {
        0.0
    } else {
        100.0 * (tally.wins[e] as f64 + tally.draws() as f64 / 2.0) / tally.games as f64
    }
}

/// The live progress line: games (of `planned_games`, if the match has a fixed length),
/// engine 1's score, Elo and LLR.
pub fn progress_line(tally: &Tally, planned_games: Option<u64>, sprt: Option<&SprtState>) -> String {
    let mut line = progress_games(tally.games, planned_games);
    let score = score_percent(tally, 0);
    if tally.draws() == 0 {
        let _ = write!(line, "  {} {}-{} ({score:.1}%)", tally.names[0], tally.wins[0], tally.wins[1]);
    } else {
        let (w, d, l) = (tally.wins[0], tally.draws(), tally.wins[1]);
        let _ = write!(line, "  {} +{w} ={d} -{l} ({score:.1}%)", tally.names[0]);
    }
    progress_tests(&mut line, Some(&tally.penta), sprt);
    line
}

/// The final table, for people.
// A board match's heading is its engines alone.
pub fn table(
    tally: &Tally,
    _: Heading<'_>,
    sprt: Option<&SprtState>,
    elapsed: Duration,
    stop_note: &str,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Match {} vs {}: {} games, {} complete pairs, {:.1} s{stop_note}",
        tally.names[0],
        tally.names[1],
        tally.games,
        tally.deals,
        elapsed.as_secs_f64()
    );
    let width = tally.names.iter().map(|n| n.len()).max().unwrap_or(0).max(6);
    let _ = writeln!(
        out,
        "{:<width$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}  {:>13}  {:>13}",
        "Engine", "Games", "Wins", "Draws", "Losses", "Score", "White (W-D-L)", "Black (W-D-L)"
    );
    let draws = tally.draws();
    for e in 0..2 {
        let wdl = |c: usize| {
            let (w, d) = (tally.seat_wins[e][c], tally.seat_draws[e][c]);
            format!("{w}-{d}-{}", tally.seat_games[e][c] - w - d)
        };
        let _ = writeln!(
            out,
            "{:<width$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>5.1}%  {:>13}  {:>13}",
            tally.names[e],
            tally.games,
            tally.wins[e],
            draws,
            tally.games - tally.wins[e] - draws,
            score_percent(tally, e),
            wdl(0),
            wdl(1)
        );
    }
    let [white, black] = [tally.wins_by_seat[0], tally.wins_by_seat[1]];
    let plies = if tally.games == 0 { 0.0 } else { tally.steps as f64 / tally.games as f64 };
    let _ = writeln!(
        out,
        "White won {white}, Black won {black}, drawn {draws}; {plies:.1} plies per game on average."
    );
    if draws > 0 {
        let reasons: Vec<String> =
            Category::DRAWS.iter().zip(tally.draws_by).map(|(c, n)| format!("{} {n}", c.label())).collect();
        let _ = writeln!(out, "Draws: {}", reasons.join(", "));
    }
    elo_line(&mut out, [&tally.names[0], &tally.names[1]], &tally.penta, "pair");
    let _ = writeln!(out, "Pairs for {} [LL, LD, LW+DD, WD, WW]: {:?}", tally.names[0], tally.penta);
    for e in 0..2 {
        let _ = writeln!(
            out,
            "Losses of {}: {}",
            tally.names[e],
            reason_list(&Category::ALL, &tally.losses_by(e))
        );
    }
    timing_lines(&mut out, &tally.names, &tally.lateness, "moves");
    if let Some(s) = sprt {
        sprt_line(&mut out, &tally.names[0], s);
    }
    out
}

/// The summary as one JSON object (the same facts as [`table`]).
pub fn json(tally: &Tally, _: Heading<'_>, sprt: Option<&SprtState>, elapsed: Duration) -> String {
    let mut engines = Vec::new();
    let draws = tally.draws();
    for e in 0..2 {
        let side = |c: usize| {
            let (games, wins, draws) =
                (tally.seat_games[e][c], tally.seat_wins[e][c], tally.seat_draws[e][c]);
            format!("{{\"games\":{games},\"wins\":{wins},\"draws\":{draws}}}")
        };
        engines.push(format!(
            "{{\"name\":{},\"games\":{},\"wins\":{},\"draws\":{},\"losses\":{},\"as_white\":{},\"as_black\":{},\"losses_by_reason\":{{{}}},\"lateness\":{}}}",
            json_string(&tally.names[e]),
            tally.games,
            tally.wins[e],
            draws,
            tally.games - tally.wins[e] - draws,
            side(0),
            side(1),
            reasons_json(&Category::ALL, &tally.losses_by(e)),
            lateness_json(&tally.lateness[e])
        ));
    }
    let [white, black] = [tally.wins_by_seat[0], tally.wins_by_seat[1]];
    let elo = elo_json(Some(&tally.penta));
    let sprt = sprt_json(sprt);
    let penta: Vec<String> = tally.penta.iter().map(u64::to_string).collect();
    format!(
        "{{\"engines\":[{}],\"games\":{},\"draws\":{},\"draws_by_reason\":{{{}}},\"pairs\":{},\"pentanomial\":[{}],\"white_wins\":{white},\"black_wins\":{black},\"plies\":{},\"elo\":{elo},\"sprt\":{sprt},\"elapsed_s\":{}}}",
        engines.join(","),
        tally.games,
        draws,
        reasons_json(&Category::DRAWS, &tally.draws_by),
        tally.deals,
        penta.join(","),
        tally.steps,
        json_number(elapsed.as_secs_f64())
    )
}
