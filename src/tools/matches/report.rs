//! What a match tells its user: the running tally, the live progress line, the final table
//! and its JSON form.
//!
//! Games are counted as they finish (wins and losses per engine, per colour and per reason);
//! a pair enters the pentanomial, the Elo estimate and the SPRT only when both its games are in
//! (see [`super::stats`]). The JSON is written by hand: one flat object does not justify a
//! serialisation crate.

use super::driver::MatchTally;
use super::record::{Category, GameRecord};
use super::stats::{EloEstimate, Pentanomial, SprtState, Verdict, elo_estimate, one_sided_bound, pair_index};
use super::timing::Lateness;
use crate::game::Player;
use rustc_hash::FxHashMap;
use std::fmt::Write as _;
use std::time::Duration;

/// The running tally of a match. Engine index 0 is `--engine1`, 1 is `--engine2`; in every
/// pair engine 1 plays White in game 1 and Black in game 2. Serialised whole into a shard's
/// JSON, from which `steere match merge` adds the shards up ([`Tally::merge`]).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    /// The engines' names.
    pub names: [String; 2],
    /// Games finished.
    pub games: u64,
    /// Games won by each engine.
    pub wins: [u64; 2],
    /// Games played by each engine with each colour (`[engine][colour]`).
    pub games_as: [[u64; 2]; 2],
    /// Games won by each engine with each colour.
    pub wins_as: [[u64; 2]; 2],
    /// Games drawn.
    pub draws: u64,
    /// Games drawn by each engine with each colour.
    pub draws_as: [[u64; 2]; 2],
    /// Games drawn, by reason (indexed like [`Category::DRAWS`]).
    pub draws_by: [u64; 2],
    /// Games lost by each engine, by reason (indexed like [`Category::ALL`]; an older build's
    /// shard, with fewer reasons, reads with the missing ones zero).
    #[serde(deserialize_with = "super::counts::pair")]
    pub losses_by: [[u64; 7]; 2],
    /// Moves played in all games.
    pub plies: u64,
    /// Completed pairs by engine 1's pair score.
    pub penta: Pentanomial,
    /// Engine 1's half points (2 a win, 1 a draw) in the pairs with one game finished.
    half_pairs: FxHashMap<u64, u32>,
    /// Each engine's timed moves: answer time minus allowed time.
    pub lateness: [Lateness; 2],
}

impl Tally {
    /// An empty tally for two engines.
    pub fn new(names: [String; 2]) -> Tally {
        Tally { names, ..Tally::default() }
    }

    /// Counts a finished game; returns true when it completes its pair.
    pub fn add(&mut self, record: &GameRecord) -> bool {
        let engine1_color = if record.game_in_pair == 1 { Player::P1 } else { Player::P2 };
        let color_of = |engine: usize| if engine == 0 { engine1_color } else { engine1_color.opponent() };
        self.games += 1;
        self.plies += record.moves.len() as u64;
        for engine in 0..2 {
            self.games_as[engine][color_of(engine).index()] += 1;
        }
        for &(color, timing) in &record.timings {
            let engine = usize::from(color != engine1_color);
            self.lateness[engine].add(timing);
        }
        let engine1_half_points = match record.winner {
            Some(winner_color) => {
                let winner = usize::from(winner_color != engine1_color);
                self.wins[winner] += 1;
                self.wins_as[winner][color_of(winner).index()] += 1;
                let reason = Category::ALL
                    .iter()
                    .position(|&c| c == record.category)
                    .expect("a loss has a loss reason");
                self.losses_by[1 - winner][reason] += 1;
                if winner == 0 { 2 } else { 0 }
            }
            None => {
                self.draws += 1;
                for engine in 0..2 {
                    self.draws_as[engine][color_of(engine).index()] += 1;
                }
                let reason = Category::DRAWS
                    .iter()
                    .position(|&c| c == record.category)
                    .expect("a draw has a draw reason");
                self.draws_by[reason] += 1;
                1
            }
        };
        match self.half_pairs.remove(&record.pair) {
            Some(first) => {
                self.penta[pair_index(first + engine1_half_points)] += 1;
                true
            }
            None => {
                self.half_pairs.insert(record.pair, engine1_half_points);
                false
            }
        }
    }

    /// Adds the games of another part of the same match (a shard: disjoint pairs).
    pub fn merge(&mut self, other: &Tally) {
        let add = |a: &mut [u64], b: &[u64]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        self.games += other.games;
        add(&mut self.wins, &other.wins);
        for e in 0..2 {
            add(&mut self.games_as[e], &other.games_as[e]);
            add(&mut self.wins_as[e], &other.wins_as[e]);
            add(&mut self.draws_as[e], &other.draws_as[e]);
            add(&mut self.losses_by[e], &other.losses_by[e]);
            self.lateness[e].merge(&other.lateness[e]);
        }
        self.draws += other.draws;
        add(&mut self.draws_by, &other.draws_by);
        self.plies += other.plies;
        add(&mut self.penta, &other.penta);
        for (&pair, &half_points) in &other.half_pairs {
            // A pair split between two parts (not so with shards, whose pairs stay whole).
            match self.half_pairs.remove(&pair) {
                Some(first) => self.penta[pair_index(first + half_points)] += 1,
                None => {
                    self.half_pairs.insert(pair, half_points);
                }
            }
        }
    }

    /// Games lost by engine `e`.
    pub fn losses(&self, e: usize) -> u64 {
        self.games - self.wins[e] - self.draws
    }

    /// Engine `e`'s score in percent: a win is a point, a draw half a point.
    pub fn score_percent(&self, e: usize) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            100.0 * (self.wins[e] as f64 + self.draws as f64 / 2.0) / self.games as f64
        }
    }

    /// Completed pairs.
    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }

    /// Games won by White, by Black.
    pub fn color_wins(&self) -> [u64; 2] {
        [self.wins_as[0][0] + self.wins_as[1][0], self.wins_as[0][1] + self.wins_as[1][1]]
    }
}

impl MatchTally for Tally {
    type Record = GameRecord;

    fn ends_in_crash(record: &GameRecord) -> bool {
        record.category == Category::Crash
    }

    fn record_text(record: &GameRecord) -> String {
        record.to_text()
    }

    fn add(&mut self, record: &GameRecord) -> bool {
        Tally::add(self, record)
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
}

/// `+12.3` style: a signed number with one decimal.
pub(super) fn signed(x: f64) -> String {
    // Adding +0.0 turns a negative zero (elo of an even score: -400 * 0) into +0.0.
    format!("{:+.1}", x + 0.0)
}

/// The live progress line: games (of `planned_games`, if the match has a fixed length),
/// engine 1's score, Elo and LLR.
pub fn progress_line(tally: &Tally, planned_games: Option<u64>, sprt: Option<&SprtState>) -> String {
    let mut line = progress_games(tally.games, planned_games);
    let score = tally.score_percent(0);
    if tally.draws == 0 {
        let _ = write!(line, "  {} {}-{} ({score:.1}%)", tally.names[0], tally.wins[0], tally.wins[1]);
    } else {
        let (w, d, l) = (tally.wins[0], tally.draws, tally.wins[1]);
        let _ = write!(line, "  {} +{w} ={d} -{l} ({score:.1}%)", tally.names[0]);
    }
    progress_tests(&mut line, Some(&tally.penta), sprt);
    line
}

/// The start of a progress line: `games N`, or `games N/PLANNED` for a match of fixed length.
pub(super) fn progress_games(games: u64, planned_games: Option<u64>) -> String {
    let mut line = format!("games {games}");
    if let Some(planned) = planned_games {
        let _ = write!(line, "/{planned}");
    }
    line
}

/// The end of a progress line: the Elo estimate of the complete units of `penta`, if any (a
/// one-sided bound after a clean sweep), and the SPRT's LLR with its bounds.
pub(super) fn progress_tests(line: &mut String, penta: Option<&Pentanomial>, sprt: Option<&SprtState>) {
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

/// The final table, for people.
pub fn table(tally: &Tally, sprt: Option<&SprtState>, elapsed: Duration, stop_note: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Match {} vs {}: {} games, {} complete pairs, {:.1} s{stop_note}",
        tally.names[0],
        tally.names[1],
        tally.games,
        tally.pairs(),
        elapsed.as_secs_f64()
    );
    let width = tally.names.iter().map(|n| n.len()).max().unwrap_or(0).max(6);
    let _ = writeln!(
        out,
        "{:<width$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}  {:>13}  {:>13}",
        "Engine", "Games", "Wins", "Draws", "Losses", "Score", "White (W-D-L)", "Black (W-D-L)"
    );
    for e in 0..2 {
        let wdl = |c: usize| {
            let (w, d) = (tally.wins_as[e][c], tally.draws_as[e][c]);
            format!("{w}-{d}-{}", tally.games_as[e][c] - w - d)
        };
        let _ = writeln!(
            out,
            "{:<width$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>5.1}%  {:>13}  {:>13}",
            tally.names[e],
            tally.games,
            tally.wins[e],
            tally.draws,
            tally.losses(e),
            tally.score_percent(e),
            wdl(0),
            wdl(1)
        );
    }
    let [white, black] = tally.color_wins();
    let plies = if tally.games == 0 { 0.0 } else { tally.plies as f64 / tally.games as f64 };
    let _ = writeln!(
        out,
        "White won {white}, Black won {black}, drawn {}; {plies:.1} plies per game on average.",
        tally.draws
    );
    if tally.draws > 0 {
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
            reason_list(&Category::ALL, &tally.losses_by[e])
        );
    }
    timing_lines(&mut out, &tally.names, &tally.lateness, "moves");
    if let Some(s) = sprt {
        sprt_line(&mut out, &tally.names[0], s);
    }
    out
}

/// The Elo line of a table: engine 1 minus engine 2 from the completed units (`pair`, `dice
/// stream`) of `penta`, or that there is none yet. When engine 1 won or lost every game, a
/// one-sided bound ([`one_sided_bound`]): an interval of width zero would claim a precision
/// the data does not have.
pub(super) fn elo_line(out: &mut String, names: [&str; 2], penta: &Pentanomial, unit: &str) {
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
pub(super) fn reason_list(reasons: &[Category], counts: &[u64]) -> String {
    let listed: Vec<String> = reasons
        .iter()
        .zip(counts)
        .filter(|&(_, &n)| n > 0)
        .map(|(c, n)| format!("{} {n}", c.label()))
        .collect();
    if listed.is_empty() { "none".to_string() } else { listed.join(", ") }
}

/// A table's timing line for each engine with timed `moves` (or `decisions`).
pub(super) fn timing_lines(out: &mut String, names: &[String], lateness: &[Lateness], moves: &str) {
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
pub(super) fn sprt_line(out: &mut String, engine1: &str, s: &SprtState) {
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
pub(super) fn json_string(text: &str) -> String {
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
pub(super) fn json_number(x: f64) -> String {
    if x.is_finite() { format!("{}", (x * 1e4).round() / 1e4 + 0.0) } else { "null".to_string() }
}

/// The summary as one JSON object (the same facts as [`table`]).
pub fn json(tally: &Tally, sprt: Option<&SprtState>, elapsed: Duration) -> String {
    let mut engines = Vec::new();
    for e in 0..2 {
        let side = |c: usize| {
            let (games, wins, draws) = (tally.games_as[e][c], tally.wins_as[e][c], tally.draws_as[e][c]);
            format!("{{\"games\":{games},\"wins\":{wins},\"draws\":{draws}}}")
        };
        engines.push(format!(
            "{{\"name\":{},\"games\":{},\"wins\":{},\"draws\":{},\"losses\":{},\"as_white\":{},\"as_black\":{},\"losses_by_reason\":{{{}}},\"lateness\":{}}}",
            json_string(&tally.names[e]),
            tally.games,
            tally.wins[e],
            tally.draws,
            tally.losses(e),
            side(0),
            side(1),
            reasons_json(&Category::ALL, &tally.losses_by[e]),
            lateness_json(&tally.lateness[e])
        ));
    }
    let [white, black] = tally.color_wins();
    let elo = elo_json(Some(&tally.penta));
    let sprt = sprt_json(sprt);
    let penta: Vec<String> = tally.penta.iter().map(u64::to_string).collect();
    format!(
        "{{\"engines\":[{}],\"games\":{},\"draws\":{},\"draws_by_reason\":{{{}}},\"pairs\":{},\"pentanomial\":[{}],\"white_wins\":{white},\"black_wins\":{black},\"plies\":{},\"elo\":{elo},\"sprt\":{sprt},\"elapsed_s\":{}}}",
        engines.join(","),
        tally.games,
        tally.draws,
        reasons_json(&Category::DRAWS, &tally.draws_by),
        tally.pairs(),
        penta.join(","),
        tally.plies,
        json_number(elapsed.as_secs_f64())
    )
}

/// Counts by reason as the members of a JSON object: `"illegal move":2,"crash":0`.
pub(super) fn reasons_json(reasons: &[Category], counts: &[u64]) -> String {
    let members: Vec<String> =
        reasons.iter().zip(counts).map(|(c, n)| format!("{}:{n}", json_string(c.label()))).collect();
    members.join(",")
}

/// An engine's lateness as JSON (`null` without timed moves).
pub(super) fn lateness_json(lateness: &Lateness) -> String {
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
pub(super) fn elo_json(penta: Option<&Pentanomial>) -> String {
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
pub(super) fn sprt_json(sprt: Option<&SprtState>) -> String {
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
