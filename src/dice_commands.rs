//! The commands of `steere` on a dice game's positions, run with its rules.

use crate::Command;
use std::time::Duration;
use steere::chance::Limits;
use steere::game::ChanceRules;
use steere::tools::dice;
use steere::variants::{ChanceJob, Variant};

/// A command that searches or studies a dice game (analyse, bench, odds, solitaire).
pub struct DiceCommand(pub Command);

impl ChanceJob for DiceCommand {
    type Output = Result<(), String>;
    fn run<G: ChanceRules>(self, variant: Variant<G>) -> Result<(), String> {
        match self.0 {
            Command::Analyse { fen, depth, movetime, nodes, .. } => {
                let pos = crate::position(variant, fen.as_deref())?;
                let movetime = match (depth, movetime, nodes) {
                    (None, None, None) => Some(crate::DEFAULT_ANALYSE_MS),
                    _ => movetime,
                };
                let limits = Limits { depth, nodes, movetime: movetime.map(Duration::from_millis) };
                dice::analyse(&pos, "search", 0, limits, &mut |line| steere::outln!("{line}"));
            }
            Command::Bench { depth, .. } => {
                let stop = std::sync::atomic::AtomicBool::new(false);
                let depth = depth.unwrap_or(variant.info.bench_depth);
                let summary = dice::bench(variant, depth, &stop, &mut |line| steere::outln!("{line}"));
                steere::outln!("{summary}");
            }
            Command::Odds { fen, .. } => {
                for line in crate::position(variant, fen.as_deref())?.odds() {
                    steere::outln!("{line}");
                }
            }
            Command::Solitaire { games, strategy, seed, depth, movetime, nodes, jobs, .. } => {
                // Unlimited, every decision would solve its turn exactly: seconds each.
                let depth = depth.or((nodes.is_none() && movetime.is_none()).then_some(SOLITAIRE_DEPTH));
                let limits = Limits { depth, nodes, movetime: movetime.map(Duration::from_millis) };
                solitaire::<G>(games, &strategy, seed, limits, jobs)?;
            }
            _ => unreachable!("only search commands are dispatched"),
        }
        Ok(())
    }
}

/// The search depth of `steere solitaire` when no limit is given, in rolls.
const SOLITAIRE_DEPTH: u32 = 2;

/// `steere solitaire`: the study and its summary.
fn solitaire<G: ChanceRules>(
    games: usize,
    strategy: &str,
    seed: u64,
    limits: Limits,
    jobs: usize,
) -> Result<(), String> {
    if games == 0 {
        return Err("--games: at least one game".into());
    }
    if strategy != "search" && !G::FIXED_PLAYERS.contains(&strategy) {
        return Err(format!(
            "--strategy: '{strategy}' is not search or one of {}",
            G::FIXED_PLAYERS.join(", ")
        ));
    }
    let started = std::time::Instant::now();
    let step = (games / 20).max(1);
    let study = dice::solitaire::<G>(games, strategy, seed, limits, jobs, &|done| {
        if done % step == 0 || done == games {
            eprintln!("solitaire: {done}/{games} games");
        }
    })?;
    let (mean, sd) = (study.mean(), study.deviation());
    let half = 1.96 * sd / (games as f64).sqrt();
    let unfinished = study.turns.iter().filter(|&&t| t >= dice::SOLITAIRE_TURN_LIMIT).count();
    steere::outln!(
        "games {games} strategy {strategy} mean {mean:.3} sd {sd:.3} ci95 [{:.3}, {:.3}] unfinished {unfinished} time {}",
        mean - half,
        mean + half,
        started.elapsed().as_millis()
    );
    Ok(())
}
