//! `steere selfplay`: the engine plays itself and writes the positions of its games with the
//! result, the training data of `steere tune` (docs/tuning.md).
//!
//! Game k (from 0) starts from opening k modulo the book's size, plays `--random-plies`
//! uniformly random moves (SplitMix64 seeded by `--seed` and k), then every move is the best
//! move of a one-thread search to `--depth` or `--nodes` with the game's own cleared table: so a
//! game depends on nothing but its number and the arguments, and the file is the same for any
//! `--jobs`. The game ends by the rules (a win, a loss, a threefold repetition), by the match
//! runner's draw cap ([`DrawCap::default_for`]), or as soon as a search proves the result, which
//! is then the game's result (it is exact).
//!
//! Written: every searched position whose score is an estimate and whose evaluation the game
//! trusts ([`crate::game::Game::is_quiet`]: not a HexDame position with a capture pending). Skipped: the book
//! opening and the random plies (not the engine's play), positions with a proven score (they
//! need no evaluation), and the others. A game cut by the draw cap counts as a draw.
//!
//! The format, one position per line after `#` header lines: `FEN;RESULT;SCORE;GAME`, where
//! RESULT is the game's result for the side to move of the position (`1`, `0.5`, `0`), SCORE
//! the search's estimate for the side to move in the game's unit, GAME the game's number.

use crate::cli::tuning::SelfplayArgs;
use crate::game::{BoardRules, GameHistory, Outcome, Rules};
use crate::search::{Limits, Score, SearchControl, Searcher};
use crate::tools::matches::game::DrawCap;
use crate::tools::rng::SplitMix64;
use crate::variants::Variant;
use rayon::prelude::*;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// One written position: its text, its search score, and the side to move's seat.
struct Sample {
    fen: String,
    score: i32,
    seat: usize,
}

/// One game: its written positions and its result (the winner's seat, `None` for a draw).
pub struct GameRecord {
    samples: Vec<Sample>,
    winner: Option<usize>,
}

impl GameRecord {
    /// The number of positions written for this game.
    pub fn positions(&self) -> usize {
        self.samples.len()
    }

    /// The game's lines of the data file.
    fn render(&self, game: u64, out: &mut String) {
        for s in &self.samples {
            let result = match self.winner {
                None => "0.5",
                Some(w) if w == s.seat => "1",
                Some(_) => "0",
            };
            out.push_str(&format!("{};{result};{};{game}\n", s.fen, s.score));
        }
    }
}

/// The seed of game `k`'s random plies.
fn game_seed(seed: u64, k: u64) -> u64 {
    SplitMix64(seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64()
}

/// Plays game `k` from `opening` (see the module docs).
pub fn play_game<G: BoardRules>(
    searcher: &mut Searcher<G>,
    opening: G,
    k: u64,
    args: &SelfplayArgs,
) -> GameRecord {
    let mut rng = SplitMix64(game_seed(args.seed, k));
    let mut history = GameHistory::new(opening);
    for _ in 0..args.random_plies {
        let moves = history.current().legal_moves();
        let moves = moves.as_ref();
        if moves.is_empty() {
            break;
        }
        history.play(moves[rng.below(moves.len())]);
    }
    let limits = Limits { depth: args.depth, nodes: args.nodes, ..Limits::default() };
    let cap = DrawCap::default_for::<G>();
    searcher.new_game();
    let (mut plies, mut reversible) = (0u32, 0u32);
    let mut samples = Vec::new();
    let winner = loop {
        let pos = *history.current();
        let seat = Rules::to_move(&pos);
        if let Some(outcome) = pos.outcome() {
            break winner_of(outcome, seat);
        }
        if history.is_threefold() || cap.reached(plies, reversible).is_some() {
            break None;
        }
        searcher.set_history(history.hashes_before());
        let result = searcher.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
        let Some(mv) = result.best_move else { break None };
        match result.score {
            Score::Win(_) => break Some(seat),
            Score::Loss(_) => break Some(1 - seat),
            Score::Heuristic(cp) => {
                if pos.is_quiet() {
                    samples.push(Sample { fen: pos.fen(), score: cp, seat });
                }
            }
        }
        reversible = if pos.is_reversible(mv) { reversible + 1 } else { 0 };
        plies += 1;
        history.play(mv);
    };
    GameRecord { samples, winner }
}

/// The winner's seat of a finished game whose side to move (seat `seat`) has `outcome`.
fn winner_of(outcome: Outcome, seat: usize) -> Option<usize> {
    match outcome {
        Outcome::Win => Some(seat),
        Outcome::Loss => Some(1 - seat),
        Outcome::Draw => None,
    }
}

/// Plays every game, `--jobs` at once, and returns them in order; `progress` is called (under
/// a lock) after each game with the games and positions done so far.
pub fn play_all<G: BoardRules>(
    openings: &[G],
    args: &SelfplayArgs,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Vec<GameRecord>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs as usize)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", args.jobs))?;
    let (done, positions) = (AtomicU64::new(0), AtomicU64::new(0));
    let lock = Mutex::new(());
    let games = pool.install(|| {
        (0..args.games as usize)
            .into_par_iter()
            .with_max_len(1)
            .map_init(
                || Searcher::<G>::new(args.hash as usize, 1),
                |searcher, k| {
                    let k = k as u64;
                    let opening = openings[(k % openings.len() as u64) as usize];
                    let record = play_game(searcher, opening, k, args);
                    let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    let p = positions.fetch_add(record.positions() as u64, Ordering::Relaxed)
                        + record.positions() as u64;
                    progress(d, p);
                    record
                },
            )
            .collect()
    });
    Ok(games)
}

/// The data file: the header (with the exact command) and every game's lines.
pub fn render<G: BoardRules>(variant: Variant<G>, args: &SelfplayArgs, games: &[GameRecord]) -> String {
    let positions: usize = games.iter().map(GameRecord::positions).sum();
    let mut out = format!(
        "# steere selfplay data for {}: {} games, {positions} positions (steere {}).\n\
         # One position per line: FEN;RESULT;SCORE;GAME. RESULT is the game's result for the side\n\
         # to move (1, 0.5, 0), SCORE the search's estimate for the side to move, in {},\n\
         # GAME the game's number. See docs/tuning.md. The same command gives the same file.\n\
         # Generated by: {}\n",
        variant.name(),
        games.len(),
        env!("CARGO_PKG_VERSION"),
        G::EVAL_UNIT,
        args.command_line()
    );
    for (k, game) in games.iter().enumerate() {
        game.render(k as u64, &mut out);
    }
    out
}

/// `steere selfplay`: plays the games of `--variant` and writes `--out`; progress on stderr.
pub fn run(args: &SelfplayArgs) -> Result<(), String> {
    crate::with_variant!(board & args.variant, |variant| run_selfplay(variant, args))?
}

/// `steere selfplay` with the rules of the variant.
fn run_selfplay<G: BoardRules>(variant: Variant<G>, args: &SelfplayArgs) -> Result<(), String> {
    let openings = match &args.openings {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("--openings {}: {e}", path.display()))?;
            crate::tools::book::parse_book(variant, &text)
                .map_err(|e| format!("--openings {}: {e}", path.display()))?
        }
        None => crate::tools::book::parse_book(variant, variant.info.openings)?,
    };
    // Fail before hours of games, not after: the output file must be writable.
    std::fs::write(&args.out, "").map_err(|e| format!("--out {}: {e}", args.out.display()))?;
    let start = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let total = args.games;
    let progress = |done: u64, positions: u64| {
        let secs = start.elapsed().as_secs_f64();
        let eta = secs / done as f64 * (total - done) as f64;
        let line = format!(
            "selfplay: games {done}/{total} {} positions {positions} elapsed {secs:.0}s eta {eta:.0}s",
            bar(done, total)
        );
        if terminal {
            eprint!("\r{line}");
        } else if done * 10 / total != (done - 1) * 10 / total || done == total {
            eprintln!("{line}");
        }
    };
    let games = play_all(&openings, args, &progress)?;
    if terminal {
        eprintln!();
    }
    let text = render(variant, args, &games);
    std::fs::write(&args.out, text).map_err(|e| format!("--out {}: {e}", args.out.display()))?;
    let positions: usize = games.iter().map(GameRecord::positions).sum();
    let (wins, draws) = games.iter().fold((0, 0), |(w, d), g| match g.winner {
        Some(0) => (w + 1, d),
        None => (w, d + 1),
        _ => (w, d),
    });
    eprintln!(
        "selfplay: wrote {positions} positions of {} games to {} ({wins} won by the first player, {draws} drawn) in {:.1}s",
        games.len(),
        args.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// A 20-character progress bar.
fn bar(done: u64, total: u64) -> String {
    let filled = (done * 20 / total.max(1)) as usize;
    format!("[{}{}]", "#".repeat(filled), ".".repeat(20 - filled))
}
