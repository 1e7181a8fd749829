//! The one tally of a match, for every game: results counted per engine and seat, by reason,
//! and per deal (an opening pair, a dice stream) for the pentanomial of two players.
//!
//! A game comes in as the [`Outcome`](crate::tools::matches::record::Outcome) its record gives, whatever its encoding: the seat that
//! won (if any), how it ended, the seat that forfeited, its length and timings. Seat `s` of a
//! game in rotation `r` is entrant `(s + r) mod N` ([`schedule::seating`]), and an entrant is
//! an engine; an engine that fills several seats (the last one given, with fewer engines than
//! players) takes that many seats in every game, so the figures are per seat taken.
//!
//! **Deals.** Engine 1 (entrant 0) scores half points in each game: a win 2, a draw or a game
//! without a winner 1, a loss 0. A deal whose N games are all in is complete; with two players
//! its half points give its pentanomial cell ([`pair_index`]), from which Elo, LOS and the SPRT
//! come, so that a dice stream is paired exactly as a board game's opening pair.
//!
//! **The shard's form.** A shard's JSON holds the tally whole (`steere match merge` adds the
//! shards up), in one of two forms that shard files of earlier builds share byte for byte: the
//! pairs' form for board games, the per-seat form for dice games ([`Tally::dice`]). Counts by
//! category are read leniently: new categories are added at the end (`protocol` came after
//! `crash`), so an older build's shorter arrays read with the missing counts zero, and still
//! merge; a longer array (a newer build's) is an error, not a silent loss of counts.

use super::stats::{Pentanomial, pair_index};
use crate::tools::matches::record::{Category, MatchRecord};
use crate::tools::matches::referee::timing::Lateness;
use crate::tools::matches::runner::schedule;
use rustc_hash::FxHashMap;
use serde::de::{Deserialize, Deserializer, Error as _};
use serde::{Serialize, Serializer};

/// The tally. Engine indices are those of `--engine1` ... `--engine4`; seats are 0-based.
/// Its fields are in the order of the per-seat form, which serde writes and reads as it is
/// (the pairs' form is [`PairsForm`]).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    /// Players per game.
    pub players: usize,
    /// The engines' names.
    pub names: Vec<String>,
    /// The engine of each entrant.
    pub entrant_engine: Vec<usize>,
    /// Games finished.
    pub games: u64,
    /// Deals (opening pairs, dice streams) with all their games finished.
    #[serde(rename = "streams")]
    pub deals: u64,
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
    /// Forfeits of each engine, by fault (indexed like [`Category::ALL`] without `normal`).
    #[serde(deserialize_with = "each")]
    pub forfeits: Vec<[u64; 6]>,
    /// Games adjudicated unfinished at the turn limit.
    pub unfinished: u64,
    /// Forfeited games with no winner (three or four players).
    pub forfeits_without_winner: u64,
    /// Turns played in all games.
    pub turns: u64,
    /// Steps (moves; dice games: rolls and decisions too) in all games.
    #[serde(rename = "events")]
    pub steps: u64,
    /// Two players: completed deals by engine 1's half points.
    pub penta: Pentanomial,
    /// Each engine's timed decisions: answer time minus allowed time.
    pub lateness: Vec<Lateness>,
    /// The deals still incomplete: their games finished and engine 1's half points in them,
    /// keyed as the shard files have always keyed them (see [`Tally::open_key`]).
    #[serde(rename = "open_streams")]
    open: FxHashMap<u64, (usize, u32)>,
    /// Whether the games have chance (dice): the per-seat report and shard form, else the
    /// pairs' (two players without chance).
    #[serde(skip)]
    pub dice: bool,
    /// Games drawn by each engine, by seat (not in the per-seat form: dice games have none).
    #[serde(skip)]
    pub seat_draws: Vec<Vec<u64>>,
    /// Seats of each engine that lost a game another seat won by the rules (`normal`; not in
    /// the per-seat form, whose report shows forfeits only).
    #[serde(skip)]
    pub normal_losses: Vec<u64>,
    /// Games drawn, by reason (indexed like [`Category::DRAWS`]).
    #[serde(skip)]
    pub draws_by: [u64; 2],
}

/// A tally as its shard writes it: in its runner's form (see the module docs).
#[derive(serde::Serialize)]
#[serde(untagged)]
pub enum ShardForm<'a> {
    /// A board game's.
    Pairs(Box<PairsForm>),
    /// A dice game's: the tally itself.
    Seats(&'a Tally),
}

impl Tally {
    /// An empty tally for `names.len()` engines filling `players` seats, of a game with dice
    /// or without.
    pub fn new(names: Vec<String>, players: usize, dice: bool) -> Tally {
        let engines = names.len();
        Tally {
            dice,
            players,
            entrant_engine: schedule::entrant_engines(players, engines),
            seats: vec![0; engines],
            wins: vec![0; engines],
            seat_games: vec![vec![0; players]; engines],
            seat_wins: vec![vec![0; players]; engines],
            seat_draws: vec![vec![0; players]; engines],
            wins_by_seat: vec![0; players],
            normal_losses: vec![0; engines],
            forfeits: vec![[0; 6]; engines],
            lateness: vec![Lateness::default(); engines],
            names,
            ..Tally::default()
        }
    }

    /// The key of deal `deal` among the open ones: a board game's shard names its pair from 1,
    /// a dice game's its stream from 0 (the same keys keep the same order in the file).
    fn open_key(&self, deal: u64) -> u64 {
        if self.dice { deal } else { deal + 1 }
    }

    /// How many seats engine `e` takes in every game.
    pub fn copies(&self, e: usize) -> usize {
        self.entrant_engine.iter().filter(|&&x| x == e).count()
    }

    /// Counts a finished game; returns true when it completes its deal.
    pub fn add(&mut self, record: &impl MatchRecord) -> bool {
        let game = record.outcome();
        let seating = schedule::seating(self.players, game.rotation);
        let engine_at = |seat: usize| self.entrant_engine[seating[seat]];
        self.games += 1;
        self.turns += game.turns;
        self.steps += game.steps;
        for seat in 0..self.players {
            let e = engine_at(seat);
            self.seats[e] += 1;
            self.seat_games[e][seat] += 1;
        }
        for &(seat, timing) in game.timings {
            self.lateness[engine_at(seat)].add(timing);
        }
        if let Some(w) = game.winner {
            let e = engine_at(w);
            self.wins[e] += 1;
            self.seat_wins[e][w] += 1;
            self.wins_by_seat[w] += 1;
        }
        match game.category {
            None => {}
            Some(Category::Unfinished) => self.unfinished += 1,
            // A resignation (a GUI record's) counts as a loss over the board.
            Some(Category::Normal | Category::Resignation) => {
                for seat in (0..self.players).filter(|&s| game.winner.is_some_and(|w| w != s)) {
                    self.normal_losses[engine_at(seat)] += 1;
                }
            }
            Some(draw) if draw.is_draw() => {
                // The runner's own draws are told apart; one agreed (a GUI record's) is not.
                if let Some(reason) = Category::DRAWS.iter().position(|&c| c == draw) {
                    self.draws_by[reason] += 1;
                }
                for seat in 0..self.players {
                    self.seat_draws[engine_at(seat)][seat] += 1;
                }
            }
            Some(fault) => {
                let reason = Category::ALL[1..].iter().position(|&c| c == fault).expect("a fault");
                if let Some(seat) = game.forfeit {
                    self.forfeits[engine_at(seat)][reason] += 1;
                }
                if game.winner.is_none() {
                    self.forfeits_without_winner += 1;
                }
            }
        }
        let half_points = match game.winner {
            Some(w) if seating[w] == 0 => 2,
            Some(_) => 0,
            None => 1,
        };
        let key = self.open_key(game.deal);
        self.open_deal(key, 1, half_points)
    }

    /// Adds `games` finished games of the open deal `key` with engine 1's `half_points` in
    /// them; returns true when that completes the deal, which then leaves the open ones.
    fn open_deal(&mut self, key: u64, games: usize, half_points: u32) -> bool {
        let entry = self.open.entry(key).or_insert((0, 0));
        entry.0 += games;
        entry.1 += half_points;
        let (finished, points) = *entry;
        if finished < self.players {
            return false;
        }
        self.open.remove(&key);
        self.deals += 1;
        if self.players == 2 {
            self.penta[pair_index(points)] += 1;
        }
        true
    }

    /// Adds the games of another part of the same match (a shard: disjoint deals). Refuses a
    /// tally of another shape (game, engines, players).
    pub fn merge(&mut self, other: &Tally) -> Result<(), String> {
        if (other.dice, other.players, other.names.len()) != (self.dice, self.players, self.names.len()) {
            return Err("the shards have different players or engines".to_string());
        }
        let add = |a: &mut [u64], b: &[u64]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        self.games += other.games;
        self.deals += other.deals;
        add(&mut self.seats, &other.seats);
        add(&mut self.wins, &other.wins);
        add(&mut self.normal_losses, &other.normal_losses);
        for e in 0..self.names.len() {
            add(&mut self.seat_games[e], &other.seat_games[e]);
            add(&mut self.seat_wins[e], &other.seat_wins[e]);
            add(&mut self.seat_draws[e], &other.seat_draws[e]);
            add(&mut self.forfeits[e], &other.forfeits[e]);
            self.lateness[e].merge(&other.lateness[e]);
        }
        add(&mut self.wins_by_seat, &other.wins_by_seat);
        add(&mut self.draws_by, &other.draws_by);
        self.unfinished += other.unfinished;
        self.forfeits_without_winner += other.forfeits_without_winner;
        self.turns += other.turns;
        self.steps += other.steps;
        add(&mut self.penta, &other.penta);
        // A deal split between two parts completes here (never so with shards, whose deals
        // stay whole).
        for (&key, &(games, points)) in &other.open {
            self.open_deal(key, games, points);
        }
        Ok(())
    }

    /// Games drawn.
    pub fn draws(&self) -> u64 {
        self.draws_by.iter().sum()
    }

    /// Engine `e`'s wins per seat taken, 0..1 (0 before any game).
    pub fn win_rate(&self, e: usize) -> f64 {
        if self.seats[e] == 0 { 0.0 } else { self.wins[e] as f64 / self.seats[e] as f64 }
    }

    /// Engine `e`'s losses by reason, indexed like [`Category::ALL`]: `normal`, then faults.
    pub fn losses_by(&self, e: usize) -> [u64; 7] {
        let mut losses = [self.normal_losses[e]; 7];
        losses[1..].copy_from_slice(&self.forfeits[e]);
        losses
    }

    /// The tally as its shard writes it.
    pub fn shard_form(&self) -> ShardForm<'_> {
        if self.dice { ShardForm::Seats(self) } else { ShardForm::Pairs(Box::new(PairsForm::of(self))) }
    }

    /// The tally of a shard's JSON, in its runner's form.
    pub fn read(value: serde_json::Value, dice: bool) -> Result<Tally, serde_json::Error> {
        if !dice {
            return Ok(serde_json::from_value::<PairsForm>(value)?.into_tally());
        }
        let tally: Tally = serde_json::from_value(value)?;
        let (engines, players) = (tally.names.len(), tally.players);
        Ok(Tally {
            dice,
            seat_draws: vec![vec![0; players]; engines],
            normal_losses: vec![0; engines],
            ..tally
        })
    }
}

/// The tally as a board match's shard has always written it: two engines by colour.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct PairsForm {
    names: Vec<String>,
    games: u64,
    wins: Vec<u64>,
    games_as: Vec<Vec<u64>>,
    wins_as: Vec<Vec<u64>>,
    draws: u64,
    draws_as: Vec<Vec<u64>>,
    draws_by: [u64; 2],
    #[serde(deserialize_with = "each")]
    losses_by: Vec<[u64; 7]>,
    plies: u64,
    penta: Pentanomial,
    /// Engine 1's half points in each pair with one game finished.
    #[serde(serialize_with = "in_order", deserialize_with = "from_map")]
    half_pairs: Vec<(u64, u32)>,
    lateness: Vec<Lateness>,
}

impl PairsForm {
    fn of(t: &Tally) -> PairsForm {
        PairsForm {
            names: t.names.clone(),
            games: t.games,
            wins: t.wins.clone(),
            games_as: t.seat_games.clone(),
            wins_as: t.seat_wins.clone(),
            draws: t.draws(),
            draws_as: t.seat_draws.clone(),
            draws_by: t.draws_by,
            losses_by: (0..t.names.len()).map(|e| t.losses_by(e)).collect(),
            plies: t.steps,
            penta: t.penta,
            half_pairs: t.open.iter().map(|(&pair, &(_, points))| (pair, points)).collect(),
            lateness: t.lateness.clone(),
        }
    }

    fn into_tally(self) -> Tally {
        let engines = self.names.len();
        Tally {
            dice: false,
            players: 2,
            entrant_engine: schedule::entrant_engines(2, engines),
            games: self.games,
            deals: self.penta.iter().sum(),
            seats: vec![self.games; engines],
            wins_by_seat: (0..2)
                .map(|s| self.wins_as.iter().map(|row| row.get(s).unwrap_or(&0)).sum())
                .collect(),
            wins: self.wins,
            seat_games: self.games_as,
            seat_wins: self.wins_as,
            seat_draws: self.draws_as,
            normal_losses: self.losses_by.iter().map(|l| l[0]).collect(),
            forfeits: self.losses_by.iter().map(|l| l[1..].try_into().expect("six faults")).collect(),
            draws_by: self.draws_by,
            turns: self.plies,
            steps: self.plies,
            penta: self.penta,
            lateness: self.lateness,
            open: self.half_pairs.into_iter().map(|(pair, points)| (pair, (1, points))).collect(),
            names: self.names,
            ..Tally::default()
        }
    }
}

/// Writes `(key, value)` entries as a JSON object, in their order.
fn in_order<S: Serializer, V: Serialize>(entries: &[(u64, V)], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_map(entries.iter().map(|(k, v)| (k, v)))
}

/// Reads a JSON object with integer keys as `(key, value)` entries.
fn from_map<'de, D: Deserializer<'de>, V: Deserialize<'de>>(
    deserializer: D,
) -> Result<Vec<(u64, V)>, D::Error> {
    Ok(FxHashMap::<u64, V>::deserialize(deserializer)?.into_iter().collect())
}

/// Reads `Vec<[u64; N]>` (counts by category of each engine) from arrays of at most `N`
/// counts, the missing ones zero (see the module docs).
fn each<'de, D: Deserializer<'de>, const N: usize>(deserializer: D) -> Result<Vec<[u64; N]>, D::Error> {
    let padded = |counts: Vec<u64>| {
        if counts.len() > N {
            return Err(D::Error::invalid_length(counts.len(), &"no more counts than categories"));
        }
        let mut out = [0; N];
        out[..counts.len()].copy_from_slice(&counts);
        Ok(out)
    };
    Vec::<Vec<u64>>::deserialize(deserializer)?.into_iter().map(padded).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::matches::record::jsonl::DiceRecord;

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
            options: Default::default(),
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
        let mut tally = Tally::new(vec!["a".into(), "b".into()], 2, true);
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
        assert_eq!((tally.games, tally.deals, tally.unfinished), (6, 3, 1));
        assert_eq!((tally.wins.clone(), tally.seats.clone()), (vec![4, 1], vec![6, 6]));
        assert_eq!(tally.seat_wins, vec![vec![2, 2], vec![1, 0]]);
        assert_eq!(tally.wins_by_seat, vec![3, 2]);
        assert_eq!(tally.forfeits[1], [1, 0, 0, 0, 0, 0]);
        assert_eq!(tally.forfeits_without_winner, 0);
    }

    #[test]
    fn four_players_with_one_engine_in_three_seats() {
        let mut tally = Tally::new(vec!["a".into(), "b".into()], 4, true);
        assert_eq!((tally.copies(0), tally.copies(1)), (1, 3));
        // Rotation 2: seats are entrants 2, 3, 0, 1, so a (entrant 0) is player 3.
        tally.add(&game(0, 2, 4, "p3win", "normal", None));
        // Rotation 3: entrants 3, 0, 1, 2; a is player 2 and forfeits: nobody wins.
        tally.add(&game(0, 3, 4, "none", "crash", Some(2)));
        assert_eq!((tally.wins.clone(), tally.seats.clone()), (vec![1, 0], vec![2, 6]));
        assert_eq!(tally.seat_games[0], vec![0, 1, 1, 0]);
        assert_eq!(tally.forfeits[0], [0, 0, 0, 0, 1, 0]);
        assert_eq!((tally.forfeits_without_winner, tally.deals), (1, 0));
        assert_eq!(tally.penta, [0; 5], "no pairs with four players");
        assert!((tally.win_rate(0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn shorter_arrays_are_padded_and_longer_ones_refused() {
        #[derive(serde::Deserialize)]
        struct Counts {
            #[serde(deserialize_with = "super::each")]
            each: Vec<[u64; 3]>,
        }
        let counts: Counts = serde_json::from_str(r#"{"each":[[6],[],[1,2,3]]}"#).unwrap();
        assert_eq!(counts.each, vec![[6, 0, 0], [0, 0, 0], [1, 2, 3]]);
        assert!(serde_json::from_str::<Counts>(r#"{"each":[[1,2,3,4]]}"#).is_err());
    }

    #[test]
    fn both_forms_read_back_to_the_same_tally() {
        let mut dice = Tally::new(vec!["a".into(), "b".into()], 3, true);
        dice.add(&game(0, 1, 3, "p2win", "normal", None));
        dice.add(&game(1, 0, 3, "none", "garbage", Some(3)));
        let json = serde_json::to_value(dice.shard_form()).unwrap();
        assert!(json["open_streams"].is_object() && json.get("half_pairs").is_none(), "{json}");
        // The per-seat form keeps no normal losses: its report shows forfeits only.
        dice.normal_losses = vec![0, 0];
        assert_eq!(Tally::read(json, true).unwrap(), dice);
        let mut board = Tally::new(vec!["a".into(), "b".into()], 2, false);
        board.add(&game(0, 1, 2, "p2win", "normal", None));
        board.add(&game(3, 0, 2, "none", "repetition", None));
        let json = serde_json::to_value(board.shard_form()).unwrap();
        assert_eq!(json["half_pairs"], serde_json::json!({"1": 2, "4": 1}));
        assert_eq!((json["draws"].as_u64(), json["losses_by"][1][0].as_u64()), (Some(1), Some(1)));
        board.turns = board.steps; // a board game's turn is its move
        assert_eq!(Tally::read(json.clone(), false).unwrap(), board);
        assert!(Tally::read(json, true).is_err(), "a board shard is no dice shard");
    }
}
