//! The one match runner: the plan of a match (what its family sets up, [`family`]), the game
//! slots that play it by number through the [`schedule`], and the report at the end.
//!
//! **Scheduling.** The match is a list of games numbered from 0: game `g` plays deal `g / N`
//! in seat rotation `g % N` ([`schedule`]; N = 2 for a board game, whose deal is an opening
//! pair). `--concurrency` worker threads (game slots) each own one engine process per entrant,
//! restarted when it crashed or hung, and take the next game number from a shared counter;
//! finished games come back on a channel to the main thread ([`driver`]), which alone writes
//! the record file, keeps the tally and runs the SPRT after each complete deal. When the SPRT
//! decides, a stop flag makes the workers abandon the games in progress (they are neither
//! counted nor recorded) and the match ends.
//!
//! The rest of the room: [`slice`] the games of a shard (`--shard K/N`) less those already
//! played; [`resume`] `--resume FILE`; [`fingerprint`] the settings shards must share;
//! [`shards`] a shard's JSON and `steere match merge`; [`interrupt`] SIGINT and SIGTERM;
//! [`output`] the report file, whole or not at all.

pub mod driver;
pub mod family;
pub mod fingerprint;
pub mod interrupt;
pub mod output;
pub mod resume;
pub mod schedule;
pub mod shards;
pub mod slice;

use super::MatchArgs;
use super::record::{Expected, MatchRecord};
use super::referee::{self, GameId, Player, dice};
use super::report::{Heading, Tally};
use crate::client::Engine;
use crate::game::{Params, Rules};
use crate::variants::Variant;
use driver::Driver;
use family::{Family, Plan};
use fingerprint::Fingerprint;
use shards::ShardInfo;
use slice::Slice;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Runs a match of `variant`, played by engines of the search `family` names.
pub fn run_match<G: Rules, F: Family<G>>(
    variant: Variant<G>,
    _family: F,
    args: &MatchArgs,
) -> Result<(), String> {
    let plan = F::plan(variant, args)?;
    let players = plan.entrants.len();
    let mut slice = Slice::new(plan.units, players as u64, args.shard_or_whole());
    let planned_games = slice.planned_games();
    let mut tally = Tally::new(vec![String::new(); plan.specs.len()], players, F::DICE);
    if let Some(path) = &args.resume {
        let check = |record: &F::Record| match record.number() {
            Some(number) => record.check(&expected(&plan, variant, number)),
            None => Ok(()),
        };
        resume::load(path, variant.name(), check, &mut slice, &mut tally)?;
    }
    let driver = Driver::new(args, plan.sprt)?;

    // Start every process once before the first game, so that a bad command, a failing
    // handshake or an unknown option stops the match at once with a clear message.
    let mut slots: Vec<Vec<Option<Engine>>> = Vec::new();
    for _ in 0..args.concurrency {
        let mut slot = Vec::new();
        for &e in &plan.entrants {
            let engine = Engine::start(&plan.specs[e]).map_err(|err| format!("{}: {err}", plan.labels[e]))?;
            slot.push(Some(engine));
        }
        slots.push(slot);
    }
    let engine_names = F::distinct(first_names(&plan, &slots[0]));
    let entrant_names = entrant_names(&engine_names, &plan.entrants);
    tally.names = engine_names;
    let play = |slot: &mut Vec<Option<Engine>>, index: u64, stop: &AtomicBool| {
        play_game::<G, F::Record>(&plan, variant, &entrant_names, slot, index, stop)
    };
    let end = driver.run(slice, slots, tally, play)?;
    let (tally, sprt_state) = (&end.tally, end.sprt.as_ref());
    let elapsed = end.elapsed + earlier_elapsed(args, &plan.fingerprint);
    let seed = args.seed.unwrap_or(0);
    let heading = Heading { variant: variant.name(), seed };
    let text = if args.json {
        let mut info =
            ShardInfo::new(args.shard_or_whole(), &plan.fingerprint, F::DICE, variant.name(), seed);
        info.sprt = plan.sprt;
        info.planned_games = planned_games;
        info.complete = !end.interrupted && tally.games == planned_games;
        info.elapsed_s = elapsed.as_secs_f64();
        shards::with_shard(&tally.json(heading, sprt_state, elapsed), &info, &tally.shard_form()) + "\n"
    } else {
        tally.table(heading, sprt_state, elapsed, end.stop_note())
    };
    output::emit(args.output.as_deref(), &text)?;
    if end.interrupted {
        return Err(interrupted_error(args, tally.games));
    }
    Ok(())
}

/// What the schedule gives game `number` (from 0): its deal, rotation, start and seats.
fn expected<G: Rules>(plan: &Plan<G>, variant: Variant<G>, number: u64) -> Expected {
    let players = plan.entrants.len();
    let (deal, rotation) = (schedule::stream_of(number, players), schedule::rotation_of(number, players));
    let settings = schedule::seating(players, rotation)
        .into_iter()
        .map(|entrant| plan.specs[plan.entrants[entrant]].settings_text())
        .collect();
    Expected {
        variant: variant.name(),
        players,
        deal,
        rotation,
        dice_seed: dice::stream_seed(plan.seed, deal),
        start: plan.deal(deal).fen(),
        settings,
        options: G::Params::RULE_OPTIONS
            .iter()
            .zip(variant.params.option_values())
            .map(|(o, (_, v))| (o, v))
            .collect(),
    }
}

/// Plays game `index` of the match (from 0) in a game slot; `None` when the match stopped.
fn play_game<G: Rules, R: MatchRecord>(
    plan: &Plan<G>,
    variant: Variant<G>,
    names: &[String],
    slot: &mut [Option<Engine>],
    index: u64,
    stop: &AtomicBool,
) -> Option<R> {
    let players = plan.entrants.len();
    let (deal, rotation) = (schedule::stream_of(index, players), schedule::rotation_of(index, players));
    // Each entrant's process, handed to the seat it takes in this rotation.
    let mut processes: Vec<Option<&mut Option<Engine>>> = slot.iter_mut().map(Some).collect();
    let seats: Vec<Player<'_>> = schedule::seating(players, rotation)
        .into_iter()
        .map(|entrant| Player {
            engine: processes[entrant].take().expect("each entrant sits once"),
            spec: &plan.specs[plan.entrants[entrant]],
            name: &names[entrant],
        })
        .collect();
    let id = GameId { number: index + 1, deal, rotation, dice_seed: dice::stream_seed(plan.seed, deal) };
    let log = referee::play(seats, *plan.deal(deal), plan.referee, id, stop)?;
    Some(R::from_log::<G>(variant, log))
}

/// Each engine's name before they are told apart: `name=` or the `id name` of its first
/// process.
fn first_names<G: Rules>(plan: &Plan<G>, first_slot: &[Option<Engine>]) -> Vec<String> {
    (0..plan.specs.len())
        .map(|e| {
            let first = plan.entrants.iter().position(|&x| x == e).and_then(|i| first_slot[i].as_ref());
            plan.specs[e].name.clone().unwrap_or_else(|| first.map_or("?", |p| p.id_name()).to_string())
        })
        .collect()
}

/// The entrants' names: the engine's, numbered `#1`, `#2`, ... when it fills several seats.
fn entrant_names(engine_names: &[String], entrant_engine: &[usize]) -> Vec<String> {
    let mut copy = vec![0; engine_names.len()];
    entrant_engine
        .iter()
        .map(|&e| {
            copy[e] += 1;
            let copies = entrant_engine.iter().filter(|&&x| x == e).count();
            if copies == 1 { engine_names[e].clone() } else { format!("{} #{}", engine_names[e], copy[e]) }
        })
        .collect()
}

/// The time of the earlier runs of a resumed match, as its `--output` report records it (see
/// [`shards::earlier_elapsed`]); zero for a match not resumed or without a JSON report.
fn earlier_elapsed(args: &MatchArgs, fingerprint: &Fingerprint) -> Duration {
    match (&args.resume, &args.output) {
        (Some(_), Some(path)) if args.json => {
            let shard = args.shard_or_whole();
            shards::earlier_elapsed(path, &fingerprint.hash(), shard.index, shard.count)
        }
        _ => Duration::ZERO,
    }
}

/// The error of a match stopped by a signal, after its report was printed.
fn interrupted_error(args: &MatchArgs, games: u64) -> String {
    match args.record_path() {
        Some(path) => format!(
            "interrupted after {games} games; continue with the same command and --resume {}",
            path.display()
        ),
        None => format!("interrupted after {games} games (no --pgn record file, so it cannot be resumed)"),
    }
}

/// Refuses combinations of sharding and resuming that cannot work.
pub(super) fn check_shard_resume(args: &MatchArgs) -> Result<(), String> {
    if args.shard.is_some() && args.sprt.is_some() && args.games.is_none() && args.rounds.is_none() {
        return Err(
            "--shard with --sprt needs --games or --rounds: a shard plays its whole slice, and the test decides at the merge"
                .to_string(),
        );
    }
    if let (Some(resume), Some(pgn)) = (&args.resume, &args.pgn)
        && resume != pgn
    {
        return Err(format!(
            "--resume {} and --pgn {}: a resumed match appends to the file it resumes",
            resume.display(),
            pgn.display()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_tell_engines_and_copies_apart() {
        let engines = vec!["a".to_string(), "b".to_string()];
        assert_eq!(entrant_names(&engines, &[0, 1, 1, 1]), vec!["a", "b #1", "b #2", "b #3"]);
        assert_eq!(entrant_names(&engines, &[0, 1]), vec!["a", "b"]);
    }
}
