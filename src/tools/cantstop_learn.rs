//! The learner of Can't Stop's value (positions/cantstop-value.txt, read by
//! `cantstop/eval.rs`): policy iteration over self-play, then the race's spread by maximum
//! likelihood. Run by `cargo run --release --example cantstop_learn` (docs/rules/cantstop.md);
//! the same configuration and seed give the same file (games are played on several threads but
//! each from its own seed, and the fits run on one).
//!
//! 1. **Alone.** Solitaire games (3, 4 and 5 columns to win) are played by the engine's search
//!    (the exact within-turn expectimax, [`Config::depth`] rolls deep) with the current value at
//!    the turn ends. Every turn's start `s` is a sample whose target is the number of turns the
//!    game still took from there: an unbiased estimate of V(s) = 1 + E[V(s')] under that play.
//!    The model (the column table, the combination weights and biases: [`Model`]) is fitted to
//!    the samples by least squares (Adam, full batch, the table kept non-decreasing and the
//!    weights non-negative by projection), then plays the next round's games. The first round
//!    is played with the previous hand-written model ([`eval::hand`]).
//! 2. **The race.** Two-player games of the learned value against itself; at every turn's
//!    start both players' learned turns to go and the order of play are kept with the winner,
//!    and the spread is the one of a grid that gives the winners the highest likelihood.

use crate::cantstop::board::{COLUMNS, HEIGHTS};
use crate::cantstop::eval::{self, Model, SLOTS, Value, W_RANGE, WIDTH};
use crate::cantstop::{Options, Position, Variant};
use crate::chance::player::{SEARCH, decide};
use crate::chance::{Helpers, Limits};
use crate::game::{Node, Rules};
use crate::tools::rng::SplitMix64;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// What a regeneration does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// The seed of every game's dice.
    pub seed: u64,
    /// Solitaire games per round with 3 columns to win (half as many with 4 and with 5).
    pub games: usize,
    /// Rounds of play and fit.
    pub rounds: usize,
    /// The search's depth in rolls.
    pub depth: u32,
    /// Threads playing games.
    pub jobs: usize,
    /// Steps of each fit.
    pub steps: usize,
    /// Two-player games for the spread.
    pub race_games: usize,
}

impl Config {
    /// The configuration of the shipped file.
    pub const SHIPPED: Config =
        Config { seed: 2026, games: 400, rounds: 2, depth: 2, jobs: 2, steps: 1500, race_games: 100 };
}

/// A turn's start of a solitaire game and the turns the game still took from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Spaces left per column (0: won).
    pub left: [u8; COLUMNS],
    /// Columns to win.
    pub w: u8,
    /// Turns still taken, this one included.
    pub target: f64,
}

/// One position of a two-player game for the spread: both players' turns to go, the player to
/// move first, and whether the player to move won.
#[derive(Clone, Copy, Debug, PartialEq)]
struct RaceSample {
    means: [Option<f64>; 2],
    mover_won: bool,
}

/// The starting model: the hand model's column means (r / (2.7 p) turns), the slowest of the
/// W columns weighing 1, the others 0.2.
#[allow(clippy::needless_range_loop)] // Columns, spaces and kinds index several arrays at once.
pub fn initial_model() -> Model {
    let chances = eval::hand::sum_chances();
    let mut table = [[0.0; WIDTH]; COLUMNS];
    for c in 0..COLUMNS {
        for r in 0..=HEIGHTS[c] as usize {
            table[c][r] = r as f64 / (eval::hand::SPEED * chances[c]);
        }
    }
    let mut weights = [[0.0; SLOTS]; 3];
    for (k, row) in weights.iter_mut().enumerate() {
        let w = k + 3;
        for (j, a) in row.iter_mut().enumerate() {
            *a = if j + 1 == w {
                1.0
            } else if j < w {
                0.2
            } else {
                0.0
            };
        }
    }
    Model { table, bias: [1.0; 3], weights, spread: eval::hand::SPREAD }
}

/// Regenerates the model: the model and the lines of its log (also given to `log` as they come).
pub fn regenerate(config: Config, log: &mut dyn FnMut(&str)) -> (Model, Vec<String>) {
    let mut lines = Vec::new();
    let mut say = |line: String, lines: &mut Vec<String>| {
        log(&line);
        lines.push(line);
    };
    let mut model = initial_model();
    for round in 0..config.rounds {
        let value = if round == 0 { Value::Hand } else { Value::Learned(&model) };
        let mut samples = Vec::new();
        let mut means = Vec::new();
        for w in W_RANGE {
            let games = if w == 3 { config.games } else { config.games.div_ceil(2) };
            let seed = config.seed ^ (u64::from(w) << 48) ^ ((round as u64) << 40);
            let played =
                par_map(games, config.jobs, value, |k| solitaire_game(w, seed, k as u64, config.depth));
            let turns: Vec<f64> = played.iter().map(|g| g.first().map_or(0.0, |s| s.target)).collect();
            means.push(format!("W={w} {:.3}", turns.iter().sum::<f64>() / turns.len().max(1) as f64));
            samples.extend(played.into_iter().flatten());
        }
        let rms = fit(&mut model, &samples, config.steps);
        say(
            format!(
                "round {}: played by the {} value, mean turns {}; {} samples fitted, rms error {rms:.3} turns",
                round + 1,
                if round == 0 { "hand" } else { "learned" },
                means.join(", "),
                samples.len()
            ),
            &mut lines,
        );
    }
    if config.race_games > 0 {
        let seed = config.seed ^ 0x5eed_0000_0000;
        let games = par_map(config.race_games, config.jobs, Value::Learned(&model), |k| {
            race_game(&model, seed, k as u64, config.depth)
        });
        let samples: Vec<RaceSample> = games.into_iter().flatten().collect();
        let (spread, nll) = fit_spread(&samples);
        model.spread = spread;
        say(
            format!(
                "race: {} positions of {} two-player games, spread {spread:.3} (log loss {nll:.4} per position)",
                samples.len(),
                config.race_games
            ),
            &mut lines,
        );
    }
    (model, lines)
}

/// The text of the regenerated file: the model with its provenance.
pub fn file_text(config: Config, model: &Model, log: &[String]) -> String {
    let mut header = vec![
        "Can't Stop: the learned value (src/cantstop/eval.rs), made by".to_string(),
        format!(
            "cargo run --release --example cantstop_learn -- --seed {} --games {} --rounds {} --depth {} --steps {} --race-games {}",
            config.seed, config.games, config.rounds, config.depth, config.steps, config.race_games
        ),
        "column C: turns-equivalent of column C with 0, 1, ... spaces left".to_string(),
        "combine W: bias and weights of the sorted column values (smallest first) for W columns to win"
            .to_string(),
        "spread: variance of the turns to go per turn of their mean, in the 2-4 player race".to_string(),
    ];
    header.extend(log.iter().cloned());
    model.to_text(&header)
}

/// Runs `f(0..n)` on `jobs` threads with `value` as their value, the results in order.
fn par_map<T: Send>(n: usize, jobs: usize, value: Value<'_>, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let results = std::sync::Mutex::new((0..n).map(|_| None).collect::<Vec<Option<T>>>());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                eval::with_value(value, || {
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= n {
                            break;
                        }
                        let r = f(k);
                        results.lock().unwrap_or_else(|p| p.into_inner())[k] = Some(r);
                    }
                })
            });
        }
    });
    results.into_inner().unwrap_or_else(|p| p.into_inner()).into_iter().map(|r| r.expect("played")).collect()
}

/// The dice generator of game `game`.
fn dice_rng(seed: u64, game: u64) -> SplitMix64 {
    SplitMix64(seed ^ game.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// The longest game a learner plays, in turns of one player.
const TURN_LIMIT: usize = 300;

/// Plays on from `pos` (searching at `depth` with this thread's value) until the game is over,
/// calling `turn` at every turn's start.
fn play_out(
    mut pos: Position,
    rng: &mut SplitMix64,
    seed: u64,
    depth: u32,
    turn: &mut dyn FnMut(&Position),
) -> Position {
    let stop = AtomicBool::new(false);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let mut turns = 0;
    while pos.node() != Node::Over && turns < TURN_LIMIT * pos.players() {
        if pos.is_turn_start() {
            turns += 1;
            turn(&pos);
        }
        pos = match pos.node() {
            Node::Chance => {
                let index = (rng.next_u64() % u64::from(pos.chance_total())) as u32;
                pos.play(pos.chance_step(index).expect("a roll"))
            }
            _ => {
                let decision = decide(&pos, SEARCH, seed, (limits, &Helpers::none()), &stop, &mut |_| {});
                pos.play(decision.expect("a decision node has decisions").event)
            }
        };
    }
    pos
}

/// One solitaire game to `w` columns: its turns' starts with the turns still taken.
fn solitaire_game(w: u32, seed: u64, game: u64, depth: u32) -> Vec<Sample> {
    let options = Options::new(1, w as u8, Variant::None).expect("solitaire takes 3 to 5 columns");
    let mut rng = dice_rng(seed, game);
    let mut starts = Vec::new();
    play_out(Position::start_with(1, options), &mut rng, seed ^ game, depth, &mut |pos| {
        starts.push(std::array::from_fn(|c| HEIGHTS[c] - pos.marker(0, c)));
    });
    let n = starts.len();
    starts
        .into_iter()
        .enumerate()
        .map(|(i, left)| Sample { left, w: w as u8, target: (n - i) as f64 })
        .collect()
}

/// One two-player game of `model` against itself: its turns' starts for the spread.
fn race_game(model: &Model, seed: u64, game: u64, depth: u32) -> Vec<RaceSample> {
    let mut rng = dice_rng(seed, game);
    let mut seen = Vec::new();
    let end = play_out(Position::start(2), &mut rng, seed ^ game, depth, &mut |pos| {
        let mover = pos.to_move();
        seen.push((mover, [model.turns_to_go(pos, mover), model.turns_to_go(pos, 1 - mover)]));
    });
    let Some(winner) = end.winner() else { return Vec::new() };
    seen.into_iter().map(|(mover, means)| RaceSample { means, mover_won: mover == winner }).collect()
}

/// A seat of [`duel`]: the search with a value, or a fixed player by name (`rule28`, ...).
#[derive(Clone, Copy, Debug)]
pub enum Seat<'a> {
    /// The search, `depth` rolls deep, with this value.
    Search(Value<'a>),
    /// A fixed player of the game.
    Fixed(&'a str),
}

/// Two-player duplicate games between `seats` (stream k of the dice played with the seats in
/// both orders), the search `depth` rolls deep, on `jobs` threads: the games each seat won,
/// the games won moving first by each, and the number of games. For quick comparisons of
/// values in one process (the hand model against the learned one, a candidate model against
/// the Rule of 28); `steere match` is the measurement.
pub fn duel(
    seats: [Seat<'_>; 2],
    streams: usize,
    seed: u64,
    depth: u32,
    jobs: usize,
) -> ([u64; 2], [u64; 2], u64) {
    let results = par_map(streams * 2, jobs, Value::Shipped, |k| {
        let (stream, swap) = ((k / 2) as u64, k % 2 == 1);
        let order = if swap { [seats[1], seats[0]] } else { seats };
        let mut rng = dice_rng(seed, stream);
        let stop = AtomicBool::new(false);
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let mut pos = Position::start(2);
        for _ in 0..TURN_LIMIT * 200 {
            pos = match pos.node() {
                Node::Over => break,
                Node::Chance => {
                    let index = (rng.next_u64() % u64::from(pos.chance_total())) as u32;
                    pos.play(pos.chance_step(index).expect("a roll"))
                }
                Node::Decision => {
                    let event = match order[pos.to_move()] {
                        Seat::Search(value) => eval::with_value(value, || {
                            decide(
                                &pos,
                                SEARCH,
                                seed ^ stream,
                                (limits, &Helpers::none()),
                                &stop,
                                &mut |_| {},
                            )
                        }),
                        Seat::Fixed(name) => {
                            decide(&pos, name, seed ^ stream, (limits, &Helpers::none()), &stop, &mut |_| {})
                        }
                    };
                    pos.play(event.expect("a decision node has decisions").event)
                }
            };
        }
        pos.winner().map(|w| (w, if swap { 1 - w } else { w }))
    });
    let (mut wins, mut first) = ([0; 2], [0; 2]);
    for (seat_winner, seat) in results.into_iter().flatten() {
        wins[seat] += 1;
        if seat_winner == 0 {
            first[seat] += 1;
        }
    }
    (wins, first, (streams * 2) as u64)
}

/// The spread of a grid (0.1 to 8, geometric) that gives the winners the highest likelihood,
/// and its mean log loss.
fn fit_spread(samples: &[RaceSample]) -> (f64, f64) {
    let loss = |spread: f64| {
        let total: f64 = samples
            .iter()
            .map(|s| {
                let chances = eval::race(&s.means, spread);
                let p = if s.mover_won { chances[0] } else { chances[1] };
                -p.clamp(1e-6, 1.0).ln()
            })
            .sum();
        total / samples.len().max(1) as f64
    };
    (0..=60)
        .map(|i| 0.1 * 80f64.powf(f64::from(i) / 60.0))
        .map(|s| (s, loss(s)))
        .fold((1.0, f64::INFINITY), |best, (s, l)| if l < best.1 { (s, l) } else { best })
}

/// The column kind of column index `c`: 2 and 12 share one (0), 7 is alone (5).
fn kind(c: usize) -> usize {
    c.min(COLUMNS - 1 - c)
}

/// The parameters of a fit, flat: per column kind 13 increments of the table (spaces 1 to 13),
/// then per W the bias and the weights.
const KINDS: usize = 6;
const INC: usize = KINDS * (WIDTH - 1);
const PARAMS: usize = INC + 3 * (1 + SLOTS);

/// The model's fitted parameters as a flat vector (the table by its first columns of each
/// kind, the columns of a kind averaged).
fn to_params(model: &Model) -> Vec<f64> {
    let mut p = vec![0.0; PARAMS];
    for c in 0..COLUMNS {
        for r in 1..=HEIGHTS[c] as usize {
            p[kind(c) * (WIDTH - 1) + r - 1] += 0.5 * (model.table[c][r] - model.table[c][r - 1]).max(0.0);
        }
    }
    for r in 1..=HEIGHTS[5] as usize {
        p[5 * (WIDTH - 1) + r - 1] *= 2.0; // Column 7 has no twin.
    }
    for k in 0..3 {
        p[INC + k * (1 + SLOTS)] = model.bias[k];
        p[INC + k * (1 + SLOTS) + 1..INC + (k + 1) * (1 + SLOTS)].copy_from_slice(&model.weights[k]);
    }
    p
}

/// The model of flat parameters `p` (the spread kept from `base`).
fn from_params(p: &[f64], base: &Model) -> Model {
    let mut model = base.clone();
    for c in 0..COLUMNS {
        model.table[c] = [0.0; WIDTH];
        for r in 1..=HEIGHTS[c] as usize {
            model.table[c][r] = model.table[c][r - 1] + p[kind(c) * (WIDTH - 1) + r - 1];
        }
    }
    for k in 0..3 {
        model.bias[k] = p[INC + k * (1 + SLOTS)];
        model.weights[k].copy_from_slice(&p[INC + k * (1 + SLOTS) + 1..INC + (k + 1) * (1 + SLOTS)]);
    }
    model
}

/// The weight of the smoothness penalty of a fit, per sample.
const SMOOTH: f64 = 0.2;

/// Fits `model`'s table, weights and biases to `samples` by least squares (`steps` of Adam from
/// the model as it is); returns the root mean square error.
#[allow(clippy::needless_range_loop)] // Columns, spaces and kinds index several arrays at once.
pub fn fit(model: &mut Model, samples: &[Sample], steps: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let mut p = to_params(model);
    let (mut m, mut v) = (vec![0.0; PARAMS], vec![0.0; PARAMS]);
    let (beta1, beta2, lr0) = (0.9, 0.999, 0.01);
    let mut rms = 0.0;
    for step in 0..=steps {
        let current = from_params(&p, model);
        let mut grad = vec![0.0; PARAMS];
        let mut grad_table = [[0.0; WIDTH]; KINDS];
        let mut squares = 0.0;
        for s in samples {
            let k = (u32::from(s.w) - W_RANGE.start()) as usize;
            let mut cols: [(f64, usize); COLUMNS] =
                std::array::from_fn(|c| (current.table[c][usize::from(s.left[c])], c));
            cols.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let weights = &current.weights[k];
            let pred = current.bias[k] + (0..SLOTS).map(|j| weights[j] * cols[j].0).sum::<f64>();
            let e = pred - s.target;
            squares += e * e;
            grad[INC + k * (1 + SLOTS)] += e;
            for j in 0..SLOTS {
                grad[INC + k * (1 + SLOTS) + 1 + j] += e * cols[j].0;
                let c = cols[j].1;
                grad_table[kind(c)][usize::from(s.left[c])] += e * weights[j];
            }
        }
        rms = (squares / samples.len() as f64).sqrt();
        if step == steps {
            break;
        }
        for (kd, row) in grad_table.iter().enumerate() {
            let mut suffix = 0.0;
            for r in (1..WIDTH).rev() {
                suffix += row[r];
                grad[kd * (WIDTH - 1) + r - 1] = suffix;
            }
        }
        // Smoothness: a penalty on the change of a column's increments from one space to the
        // next (SMOOTH per sample), so the table follows the data, not its noise.
        for kd in 0..KINDS {
            let base = kd * (WIDTH - 1);
            for r in 1..usize::from(HEIGHTS[kd]) {
                let d = p[base + r] - p[base + r - 1];
                grad[base + r] += 2.0 * SMOOTH * d * samples.len() as f64;
                grad[base + r - 1] -= 2.0 * SMOOTH * d * samples.len() as f64;
            }
        }
        let lr = lr0 * (1.0 - 0.9 * step as f64 / steps as f64);
        let t = (step + 1) as i32;
        for i in 0..PARAMS {
            let g = grad[i] / samples.len() as f64;
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let (mh, vh) = (m[i] / (1.0 - beta1.powi(t)), v[i] / (1.0 - beta2.powi(t)));
            p[i] -= lr * mh / (vh.sqrt() + 1e-8);
            let is_bias = i >= INC && (i - INC).is_multiple_of(1 + SLOTS);
            if !is_bias {
                p[i] = p[i].max(0.0);
            }
        }
    }
    *model = from_params(&p, model);
    rms
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tiny_cantstop_regeneration_runs_and_gives_a_file_that_parses() {
        let config = Config { seed: 5, games: 3, rounds: 2, depth: 1, jobs: 2, steps: 30, race_games: 2 };
        let (model, log) = regenerate(config, &mut |_| {});
        assert_eq!(log.len(), 3, "{log:?}");
        let text = file_text(config, &model, &log);
        let parsed = Model::parse(&text).unwrap();
        assert!(parsed.table[5][13] > 0.0 && parsed.spread > 0.0, "{text}");
        let (again, _) = regenerate(config, &mut |_| {});
        assert_eq!(file_text(config, &again, &log), text, "deterministic given its seed");
    }

    #[test]
    fn a_cantstop_fit_reduces_the_error() {
        let samples: Vec<Sample> = (0..200u8)
            .map(|i| {
                let left: [u8; COLUMNS] =
                    std::array::from_fn(|c| (i as usize * (c + 3) % (HEIGHTS[c] as usize + 1)) as u8);
                let target = 1.0 + left.iter().map(|&l| f64::from(l)).sum::<f64>() / 10.0;
                Sample { left, w: 3 + i % 3, target }
            })
            .collect();
        let mut model = initial_model();
        let before = fit(&mut model.clone(), &samples, 0);
        let after = fit(&mut model, &samples, 200);
        assert!(after < before, "{before} -> {after}");
    }
}
