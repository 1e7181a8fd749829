//! The chance-node search's answers to the command line, written once over [`ChanceRules`]:
//! analysis, the bench, the solitaire study and in-process duels (perft, divide and the legal
//! steps are every game's, in `tools/perft.rs`).

use super::{DEFAULT_ANALYSE_MS, Request, SOLITAIRE_DEPTH, Searches, SolitaireRequest};
use crate::chance::player::{SEARCH, decide};
use crate::chance::{ChanceSearch, Helpers, Iteration, Limits};
use crate::game::{ChanceRules, Node, rules};
use crate::search::SearchControl;
use crate::tools::rng::SplitMix64;
use crate::variants::{Expectimax, Variant};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The bench: every bench position searched to `depth` rolls on the calling thread and
/// `helpers`; one line per position through `out`, and the summary line returned (`nodes N
/// time MS nps X`: with no helper, N is the dice search's signature; with helpers the values
/// and moves are the same, and N varies from run to run).
pub fn bench<G: ChanceRules>(
    variant: Variant<G>,
    (depth, helpers): (u32, &Helpers),
    stop: &AtomicBool,
    out: &mut dyn FnMut(String),
) -> String {
    let started = Instant::now();
    let positions = variant.bench_positions();
    let mut nodes = 0;
    for (i, pos) in positions.iter().enumerate() {
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let Some(it) = ChanceSearch::run_among(pos, &[], limits, helpers, stop, &mut |_| {}) else {
            continue;
        };
        nodes += it.nodes;
        out(format!(
            "position {}/{}: bestmove {} value {:.4} depth {} nodes {} time {}",
            i + 1,
            positions.len(),
            it.best,
            it.value,
            it.depth,
            it.nodes,
            it.elapsed.as_millis()
        ));
    }
    crate::tools::perft::summary_line(nodes, started.elapsed())
}

/// `steere analyse` for a dice game: one line per completed depth, the value of every
/// decision, then `bestmove` (or why there is none). The search runs on the calling thread
/// and `helpers`.
pub fn analyse<G: ChanceRules>(
    pos: &G,
    strategy: &str,
    seed: u64,
    (limits, helpers, multipv): (Limits, &Helpers, usize),
    out: &mut dyn FnMut(String),
) {
    match pos.node() {
        Node::Chance => {
            out("info string no decision: the next event is a roll of the dice, which no player chooses"
                .into());
            out("bestmove (none)".into());
            return;
        }
        Node::Over => {
            let winner = rules::winner(pos).map_or(0, |w| w + 1);
            out(format!("info string game over: player {winner} won"));
            out("bestmove (none)".into());
            return;
        }
        Node::Decision => {}
    }
    let stop = AtomicBool::new(false);
    let players = pos.players();
    let mut report =
        |it: &Iteration<G::Step>| info_lines(it, players, multipv).into_iter().for_each(&mut *out);
    let decision = decide(pos, strategy, seed, (limits, helpers), &stop, &mut report);
    if let Some(decision) = decision {
        if let Some(it) = decision.search.as_ref().filter(|_| strategy == SEARCH) {
            for (event, value) in &it.values {
                out(format!("value {event} {value:.4}"));
            }
        }
        out(format!("bestmove {}", decision.event));
    }
}

/// The result of a solitaire study.
#[derive(Clone, Debug, PartialEq)]
pub struct SolitaireStudy {
    /// Turns taken by each game, in game order.
    pub turns: Vec<u32>,
}

impl SolitaireStudy {
    /// The mean number of turns.
    pub fn mean(&self) -> f64 {
        self.turns.iter().map(|&t| f64::from(t)).sum::<f64>() / self.turns.len().max(1) as f64
    }

    /// The sample standard deviation of the turns.
    pub fn deviation(&self) -> f64 {
        let mean = self.mean();
        let n = self.turns.len() as f64;
        (self.turns.iter().map(|&t| (f64::from(t) - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt()
    }
}

/// Plays `games` one-player games with `strategy` under the rule options of `params` (dice of
/// game k from `seed` and k) on `jobs` threads, and counts the turns each needs to win.
/// `progress` is called after every game with the number finished.
pub fn solitaire<G: ChanceRules>(
    params: G::Params,
    games: usize,
    strategy: &str,
    seed: u64,
    limits: Limits,
    jobs: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<SolitaireStudy, String> {
    let start = G::solitaire(params).ok_or("this game has no solitaire form")?;
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let mut turns = vec![0u32; games];
    let results = std::sync::Mutex::new(&mut turns);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if k >= games {
                        break;
                    }
                    let t = play_solitaire(start, strategy, seed, k as u64, limits);
                    results.lock().unwrap_or_else(|p| p.into_inner())[k] = t;
                    progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
                }
            });
        }
    });
    Ok(SolitaireStudy { turns })
}

/// The most turns a solitaire game may take before the study gives up on it (a strategy that
/// never stops would never win).
pub const SOLITAIRE_TURN_LIMIT: u32 = 500;

/// One solitaire game: the number of turns to win (at most [`SOLITAIRE_TURN_LIMIT`]).
fn play_solitaire<G: ChanceRules>(start: G, strategy: &str, seed: u64, game: u64, limits: Limits) -> u32 {
    let mut rng = SplitMix64(seed ^ game.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let stop = AtomicBool::new(false);
    let mut pos = start;
    let mut turns = 0;
    while pos.node() != Node::Over && turns < SOLITAIRE_TURN_LIMIT {
        if pos.is_turn_start() {
            turns += 1;
        }
        pos = match pos.node() {
            Node::Chance => pos.play(random_chance_step(pos, &mut rng)),
            _ => {
                let decision =
                    decide(&pos, strategy, seed ^ game, (limits, &Helpers::none()), &stop, &mut |_| {});
                pos.play(decision.expect("a decision node has decisions").event)
            }
        };
    }
    turns
}

/// In-process games of a dice game between strategies (one per seat, `strategies[i]` in seat
/// i of rotation 0), for tuning and quick comparisons: stream k of the dice is played once per
/// rotation of the seats (duplicate play). Returns, per strategy index, the games it won, and
/// the number of games. `steere match` is the tool for engines; this plays without processes.
pub fn duel<G: ChanceRules>(
    players: usize,
    strategies: &[&str],
    streams: usize,
    seed: u64,
    limits: Limits,
    jobs: usize,
) -> Duel {
    duel_under::<G>(G::Params::default(), players, strategies, streams, seed, limits, jobs)
}

/// What a [`duel`] gave: the games won by each strategy (by index), also seat by seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duel {
    /// The games each strategy won.
    pub wins: Vec<u64>,
    /// `seat_wins[i][s]`: the games strategy i won from seat s (player s + 1).
    pub seat_wins: Vec<Vec<u64>>,
    /// The games played (streams times players).
    pub games: u64,
}

/// [`duel`] under the rule options of `params`.
pub fn duel_under<G: ChanceRules>(
    params: G::Params,
    players: usize,
    strategies: &[&str],
    streams: usize,
    seed: u64,
    limits: Limits,
    jobs: usize,
) -> Duel {
    let Ok(start) = rules::start_for_players::<G>(params, players) else {
        return Duel {
            wins: vec![0; strategies.len()],
            seat_wins: vec![vec![0; players]; strategies.len()],
            games: 0,
        };
    };
    let wins = std::sync::Mutex::new(vec![vec![0u64; players]; strategies.len()]);
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if k >= streams * players {
                        break;
                    }
                    let (stream, rotation) = (k / players, k % players);
                    let seats: Vec<usize> =
                        (0..players).map(|s| (s + rotation) % players % strategies.len()).collect();
                    let seat_strategies: Vec<&str> = seats.iter().map(|&i| strategies[i]).collect();
                    if let Some(winner) = play_duel(start, &seat_strategies, seed, stream as u64, limits) {
                        wins.lock().unwrap_or_else(|p| p.into_inner())[seats[winner]][winner] += 1;
                    }
                }
            });
        }
    });
    let seat_wins = wins.into_inner().unwrap_or_else(|p| p.into_inner());
    let wins = seat_wins.iter().map(|by_seat| by_seat.iter().sum()).collect();
    Duel { wins, seat_wins, games: (streams * players) as u64 }
}

/// One game of [`duel`]: the winning seat, or `None` past [`SOLITAIRE_TURN_LIMIT`] turns each.
fn play_duel<G: ChanceRules>(
    start: G,
    seats: &[&str],
    seed: u64,
    stream: u64,
    limits: Limits,
) -> Option<usize> {
    let mut rng = SplitMix64(seed ^ stream.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let stop = AtomicBool::new(false);
    let mut pos = start;
    for _ in 0..SOLITAIRE_TURN_LIMIT as usize * seats.len() * 64 {
        pos = match pos.node() {
            Node::Over => return rules::winner(&pos),
            Node::Chance => pos.play(random_chance_step(pos, &mut rng)),
            Node::Decision => {
                let strategy = seats[pos.to_move()];
                let decision =
                    decide(&pos, strategy, seed ^ stream, (limits, &Helpers::none()), &stop, &mut |_| {});
                pos.play(decision.expect("a decision node has decisions").event)
            }
        };
    }
    None
}

/// The chance step of a uniformly drawn elementary outcome (a chance node's).
fn random_chance_step<G: ChanceRules>(pos: G, rng: &mut SplitMix64) -> G::Step {
    let index = (rng.next_u64() % u64::from(pos.chance_total().max(1))) as u32;
    pos.chance_step(index).expect("a chance node has chance steps")
}

/// The `info` line of a completed depth (the protocol's and `steere analyse`'s): the value as a centipawn-like score (the winning
/// chance on the logistic scale of Elo) and as `wdl` (per mille, no draws), for the player to
/// move.
pub fn info_line<E: std::fmt::Display>(it: &Iteration<E>, players: usize) -> String {
    decision_line(it, players, None, &it.best, it.value)
}

/// The `info` lines of a completed depth with `MultiPV` set to `multipv`: with 1, the one line
/// of [`info_line`]; with more, the best `multipv` decisions by value (equal values in the
/// game's order), each `info depth D multipv K nodes N nps N time MS score cp X wdl W D L pv E`.
pub fn info_lines<E: std::fmt::Display + Copy>(
    it: &Iteration<E>,
    players: usize,
    multipv: usize,
) -> Vec<String> {
    if multipv <= 1 {
        return vec![info_line(it, players)];
    }
    let mut ranked = it.values.clone();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let shown = ranked.iter().take(multipv).enumerate();
    shown.map(|(k, (event, value))| decision_line(it, players, Some(k + 1), event, *value)).collect()
}

/// The `info` line of `it`'s depth for one decision `event` of value `value`.
fn decision_line<E: std::fmt::Display>(
    it: &Iteration<E>,
    players: usize,
    multipv: Option<usize>,
    event: &E,
    value: f64,
) -> String {
    let ms = it.elapsed.as_millis();
    let nps = (it.nodes as u128 * 1000).checked_div(ms).unwrap_or(0);
    let score = if players >= 2 {
        let p = value.clamp(1e-4, 1.0 - 1e-4);
        let cp = (400.0 * (p / (1.0 - p)).log10()).round() as i64;
        let win = (p * 1000.0).round() as i64;
        format!(" score cp {cp} wdl {win} 0 {}", 1000 - win)
    } else {
        String::new()
    };
    let multipv = multipv.map_or(String::new(), |k| format!(" multipv {k}"));
    format!("info depth {}{multipv} nodes {} nps {nps} time {ms}{score} pv {event}", it.depth, it.nodes)
}

impl<G: ChanceRules> Searches<G> for Expectimax {
    fn analyse(self, pos: &G, request: &Request, out: &mut dyn FnMut(&str)) -> Result<(), String> {
        let limits = Limits {
            depth: request.depth,
            nodes: request.nodes,
            movetime: request.movetime_or(DEFAULT_ANALYSE_MS),
        };
        let helpers = Helpers::new(request.threads);
        analyse(pos, "search", 0, (limits, &helpers, request.multipv), &mut |line| out(&line));
        Ok(())
    }

    fn bench(
        self,
        variant: Variant<G>,
        request: &Request,
        control: &SearchControl,
        out: &mut dyn FnMut(&str),
    ) -> Result<bool, String> {
        let depth = request.depth.unwrap_or(variant.info.bench_depth);
        let helpers = Helpers::new(request.threads);
        let summary = bench(variant, (depth, &helpers), &control.stop, &mut |line| out(&line));
        Ok(super::end_bench(control, summary, out))
    }

    fn odds(self, _: Variant<G>, pos: &G) -> Result<Vec<String>, String> {
        Ok(pos.odds())
    }

    fn solitaire(
        self,
        variant: Variant<G>,
        request: &SolitaireRequest,
        progress: &(dyn Fn(usize) + Sync),
    ) -> Result<String, String> {
        let (games, strategy) = (request.games, request.strategy.as_str());
        if games == 0 {
            return Err("--games: at least one game".into());
        }
        if strategy != "search" && !G::FIXED_PLAYERS.contains(&strategy) {
            return Err(format!(
                "--strategy: '{strategy}' is not search or one of {}",
                G::FIXED_PLAYERS.join(", ")
            ));
        }
        let l = request.limits;
        let depth = l.depth.or((l.nodes.is_none() && l.movetime.is_none()).then_some(SOLITAIRE_DEPTH));
        let limits = Limits { depth, nodes: l.nodes, movetime: l.movetime.map(Duration::from_millis) };
        let started = Instant::now();
        let study =
            solitaire::<G>(variant.params, games, strategy, request.seed, limits, request.jobs, progress)?;
        let (mean, sd) = (study.mean(), study.deviation());
        let half = 1.96 * sd / (games as f64).sqrt();
        let unfinished = study.turns.iter().filter(|&&t| t >= SOLITAIRE_TURN_LIMIT).count();
        Ok(format!(
            "games {games} strategy {strategy} mean {mean:.3} sd {sd:.3} ci95 [{:.3}, {:.3}] unfinished {unfinished} time {}",
            mean - half,
            mean + half,
            started.elapsed().as_millis()
        ))
    }
}
