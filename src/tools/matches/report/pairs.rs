//! The report of two engines over opening pairs (board games): the tally by colour, with draws
//! and the reasons of losses and draws, its progress line, table and JSON.
//!
//! Games are counted as they finish (wins and losses per engine, per colour and per reason);
//! a pair enters the pentanomial, the Elo estimate and the SPRT only when both its games are in
//! (see [`super::stats`]).

use super::stats::{Pentanomial, SprtState, pair_index};
use super::{
    Heading, MatchTally, elo_json, elo_line, json_number, json_string, lateness_json, progress_games,
    progress_tests, reason_list, reasons_json, sprt_json, sprt_line, timing_lines,
};
use crate::game::Player;
use crate::tools::matches::record::{Category, GameRecord};
use crate::tools::matches::referee::timing::Lateness;
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

    fn add(&mut self, record: &GameRecord) -> bool {
        Tally::add(self, record)
    }

    fn merge(&mut self, other: &Tally) -> Result<(), String> {
        Tally::merge(self, other);
        Ok(())
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

    // A board match's heading is its engines alone.
    fn table(&self, _: Heading<'_>, sprt: Option<&SprtState>, elapsed: Duration, note: &str) -> String {
        table(self, sprt, elapsed, note)
    }

    fn json(&self, _: Heading<'_>, sprt: Option<&SprtState>, elapsed: Duration) -> String {
        json(self, sprt, elapsed)
    }
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
