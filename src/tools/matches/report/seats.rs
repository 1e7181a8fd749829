//! The running tally of a dice match: wins per engine and seat, forfeits, unfinished games,
//! and for two players the pentanomial of [`super::stats`] (the table is [`super::seats_text`]'s).
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
//!
//! **Pairs.** With two players a dice stream is a pair of games with the seats swapped, and is
//! counted like a board game's opening pair: engine 1's half points (a win 2, an unfinished
//! game 1 as a draw, a loss 0) over the two games give its pentanomial cell, from which Elo,
//! LOS and the SPRT come as for board games.

use super::stats::{Pentanomial, pair_index};
use crate::tools::matches::record::Category;
use crate::tools::matches::record::jsonl::DiceRecord;
use crate::tools::matches::referee::timing::Lateness;
use crate::tools::matches::runner::schedule;
use rustc_hash::FxHashMap;

/// The faults that forfeit a game, in the order of the tables.
pub const FAULTS: [Category; 6] = [
    Category::IllegalMove,
    Category::Garbage,
    Category::TimeForfeit,
    Category::Timeout,
    Category::Crash,
    Category::Protocol,
];

/// The 97.5% quantile of the standard normal distribution.
const Z_975: f64 = 1.959_963_984_540_054;

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

/// The tally. Engine indices are those of `--engine1` ... `--engine4`; seats are 0-based.
/// Serialised whole into a shard's JSON, from which `steere match merge` adds the shards up
/// ([`DiceTally::merge`]).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct DiceTally {
    /// Players per game.
    pub players: usize,
    /// The engines' names.
    pub names: Vec<String>,
    /// The engine of each entrant.
    pub entrant_engine: Vec<usize>,
    /// Games finished.
    pub games: u64,
    /// Dice streams with all their games finished.
    pub streams: u64,
    /// Seats taken by each engine.
    pub seats: Vec<u64>,
    /// Games won by each engine.
    pub wins: Vec<u64>,
    /// Seats taken by each engine, by seat (`[engine][seat]`).
    pub seat_games: Vec<Vec<u64>>,
    /// Games won by each engine, by seat.
    pub seat_wins: Vec<Vec<u64>>,
    /// Games won from each seat, whoever sat there.
    pub wins_by_seat: Vec<u64>,
    /// Forfeits of each engine, by fault (indexed like [`FAULTS`]; an older build's shard, with
    /// fewer faults, reads with the missing ones zero).
    #[serde(deserialize_with = "super::counts::each")]
    pub forfeits: Vec<[u64; 6]>,
    /// Games adjudicated unfinished at the turn limit.
    pub unfinished: u64,
    /// Forfeited games with no winner (three or four players).
    pub forfeits_without_winner: u64,
    /// Turns played in all games.
    pub turns: u64,
    /// Events (rolls and decisions) in all games.
    pub events: u64,
    /// Two players: completed streams by engine 1's half points.
    pub penta: Pentanomial,
    /// Each engine's timed decisions: answer time minus allowed time.
    pub lateness: Vec<Lateness>,
    /// Finished games per stream still incomplete, and (two players) engine 1's half points.
    open_streams: FxHashMap<u64, (usize, u32)>,
}

impl DiceTally {
    /// An empty tally for `names.len()` engines filling `players` seats.
    pub fn new(names: Vec<String>, players: usize) -> DiceTally {
        let engines = names.len();
        DiceTally {
            players,
            entrant_engine: schedule::entrant_engines(players, engines),
            seats: vec![0; engines],
            wins: vec![0; engines],
            seat_games: vec![vec![0; players]; engines],
            seat_wins: vec![vec![0; players]; engines],
            wins_by_seat: vec![0; players],
            forfeits: vec![[0; 6]; engines],
            lateness: vec![Lateness::default(); engines],
            names,
            ..DiceTally::default()
        }
    }

    /// How many seats engine `e` takes in every game.
    pub fn copies(&self, e: usize) -> usize {
        self.entrant_engine.iter().filter(|&&x| x == e).count()
    }

    /// Counts a finished game; returns true when it completes its dice stream.
    pub fn add(&mut self, record: &DiceRecord) -> bool {
        let seating = schedule::seating(self.players, record.rotation);
        let engine_at = |seat: usize| self.entrant_engine[seating[seat]];
        self.games += 1;
        self.turns += u64::from(record.turns);
        self.events += record.events.split_whitespace().count() as u64;
        for seat in 0..self.players {
            let e = engine_at(seat);
            self.seats[e] += 1;
            self.seat_games[e][seat] += 1;
        }
        for &(seat, timing) in &record.timings {
            let e = engine_at(seat);
            self.lateness[e].add(timing);
        }
        let winner = record.winner();
        if let Some(w) = winner {
            let e = engine_at(w);
            self.wins[e] += 1;
            self.seat_wins[e][w] += 1;
            self.wins_by_seat[w] += 1;
        }
        match record.category() {
            Some(Category::Unfinished) => self.unfinished += 1,
            Some(fault) if FAULTS.contains(&fault) => {
                let reason = FAULTS.iter().position(|&c| c == fault).expect("a fault");
                if let Some(seat) = record.forfeit.filter(|&s| (1..=self.players).contains(&s)) {
                    let e = engine_at(seat - 1);
                    self.forfeits[e][reason] += 1;
                }
                if winner.is_none() {
                    self.forfeits_without_winner += 1;
                }
            }
            _ => {}
        }
        // Engine 1 is entrant 0 (it never has copies: a second engine is always given).
        let half_points = match winner {
            Some(w) if seating[w] == 0 => 2,
            Some(_) => 0,
            None => 1,
        };
        let entry = self.open_streams.entry(record.stream).or_insert((0, 0));
        entry.0 += 1;
        entry.1 += half_points;
        let (finished, points) = *entry;
        if finished < self.players {
            return false;
        }
        self.open_streams.remove(&record.stream);
        self.streams += 1;
        if self.players == 2 {
            self.penta[pair_index(points)] += 1;
        }
        true
    }

    /// Adds the games of another part of the same match (a shard: disjoint dice streams).
    /// Refuses a tally of another shape (engines, players).
    pub fn merge(&mut self, other: &DiceTally) -> Result<(), String> {
        if other.players != self.players || other.names.len() != self.names.len() {
            return Err("the shards have different players or engines".to_string());
        }
        let add = |a: &mut [u64], b: &[u64]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        self.games += other.games;
        self.streams += other.streams;
        add(&mut self.seats, &other.seats);
        add(&mut self.wins, &other.wins);
        for e in 0..self.names.len() {
            add(&mut self.seat_games[e], &other.seat_games[e]);
            add(&mut self.seat_wins[e], &other.seat_wins[e]);
            add(&mut self.forfeits[e], &other.forfeits[e]);
            self.lateness[e].merge(&other.lateness[e]);
        }
        add(&mut self.wins_by_seat, &other.wins_by_seat);
        self.unfinished += other.unfinished;
        self.forfeits_without_winner += other.forfeits_without_winner;
        self.turns += other.turns;
        self.events += other.events;
        add(&mut self.penta, &other.penta);
        for (&stream, &(finished, points)) in &other.open_streams {
            let entry = self.open_streams.entry(stream).or_insert((0, 0));
            entry.0 += finished;
            entry.1 += points;
        }
        Ok(())
    }

    /// Engine `e`'s wins per seat taken, 0..1 (0 before any game).
    pub fn win_rate(&self, e: usize) -> f64 {
        if self.seats[e] == 0 { 0.0 } else { self.wins[e] as f64 / self.seats[e] as f64 }
    }
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

    /// A finished game of the tally's tests (only its placing and result matter).
    fn game(
        stream: u64,
        rotation: usize,
        players: usize,
        result: &str,
        reason: &str,
        forfeit: Option<usize>,
    ) -> DiceRecord {
        DiceRecord {
            variant: "cantstop".into(),
            game: 1,
            stream,
            rotation,
            dice: "0".into(),
            players,
            seats: vec![String::new(); players],
            settings: vec![String::new(); players],
            start: String::new(),
            events: "r1111 2.2 stop".into(),
            turns: 1,
            max_turns: 1000,
            result: result.into(),
            reason: reason.into(),
            forfeit,
            detail: String::new(),
            timings: Vec::new(),
        }
    }

    #[test]
    fn two_players_pair_the_rotations_of_a_stream() {
        let mut tally = DiceTally::new(vec!["a".into(), "b".into()], 2);
        // Stream 0: player 1 wins both games; rotation 0 seats a there, rotation 1 seats b:
        // each engine won once, a split pair (LW).
        assert!(!tally.add(&game(0, 0, 2, "p1win", "normal", None)));
        assert!(tally.add(&game(0, 1, 2, "p1win", "normal", None)));
        // Stream 1: a wins from seat 1, then from seat 2 (rotation 1): a won both.
        tally.add(&game(1, 0, 2, "p1win", "normal", None));
        tally.add(&game(1, 1, 2, "p2win", "normal", None));
        // Stream 2: unfinished (a draw), then b forfeits from seat 1 in rotation 1, a wins:
        // 1 + 2 = 3 half points, the WD cell.
        tally.add(&game(2, 0, 2, "none", "unfinished", None));
        tally.add(&game(2, 1, 2, "p2win", "illegal move", Some(1)));
        assert_eq!(tally.penta, [0, 0, 1, 1, 1]);
        assert_eq!((tally.games, tally.streams, tally.unfinished), (6, 3, 1));
        assert_eq!((tally.wins.clone(), tally.seats.clone()), (vec![4, 1], vec![6, 6]));
        assert_eq!(tally.seat_wins, vec![vec![2, 2], vec![1, 0]]);
        assert_eq!(tally.wins_by_seat, vec![3, 2]);
        assert_eq!(tally.forfeits[1], [1, 0, 0, 0, 0, 0]);
        assert_eq!(tally.forfeits_without_winner, 0);
    }

    #[test]
    fn four_players_with_one_engine_in_three_seats() {
        let mut tally = DiceTally::new(vec!["a".into(), "b".into()], 4);
        assert_eq!((tally.copies(0), tally.copies(1)), (1, 3));
        // Rotation 2: seats are entrants 2, 3, 0, 1, so a (entrant 0) is player 3.
        tally.add(&game(0, 2, 4, "p3win", "normal", None));
        // Rotation 3: entrants 3, 0, 1, 2; a is player 2 and forfeits: nobody wins.
        tally.add(&game(0, 3, 4, "none", "crash", Some(2)));
        assert_eq!((tally.wins.clone(), tally.seats.clone()), (vec![1, 0], vec![2, 6]));
        assert_eq!(tally.seat_games[0], vec![0, 1, 1, 0]);
        assert_eq!(tally.forfeits[0], [0, 0, 0, 0, 1, 0]);
        assert_eq!((tally.forfeits_without_winner, tally.streams), (1, 0));
        assert_eq!(tally.penta, [0; 5], "no pairs with four players");
        assert!((tally.win_rate(0) - 0.5).abs() < 1e-12);
    }
}
