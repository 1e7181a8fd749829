//! `steere match` for dice games: 2 to 4 players, duplicate play, the rules of
//! [`ChanceRules`] as referee. Written once over that trait; no game is named here.
//!
//! The rooms: [`schedule`] who sits where and which dice fall (streams, rotations);
//! [`referee`] one game; [`record`] the JSON-lines game record and its replay; [`tally`] and
//! [`report`] the counts, the table and the JSON. The loop of game slots and main thread,
//! engine processes, specs, clocks, timing and the Elo/SPRT statistics are the board runner's
//! ([`super::driver`], [`super::engine`], [`super::spec`], [`super::clock`], [`super::timing`],
//! [`super::stats`]).
//!
//! **Scheduling** is the board runner's with streams for opening pairs: games are numbered
//! from 0, game `g` is dice stream `g / N` in seat rotation `g % N` ([`schedule`]).
//! `--concurrency` game slots each own one engine process per entrant (N in all), take game
//! numbers from a shared counter and send finished games to the main thread, which writes the
//! record, keeps the tally and, with two players and `--sprt`, runs the test after each
//! complete stream; a verdict stops the match (games in progress are dropped).

pub mod record;
pub mod referee;
pub mod report;
pub mod schedule;
pub mod tally;

use super::MatchArgs;
use super::ask::Deadlines;
use super::driver::Driver;
use super::fingerprint::Fingerprint;
use super::game::Player;
use super::resume;
use super::shards::{self, Kind, ShardInfo};
use super::slice::Slice;
use super::stats::Sprt;
use crate::client::Engine;
use crate::client::spec::EngineSpec;
use crate::game::ChanceRules;
use crate::variants::{self, ChanceJob, Variant};
use record::DiceRecord;
use referee::{DiceGameId, DiceReferee};
use std::sync::atomic::AtomicBool;
use tally::DiceTally;

/// The turn limit when `--max-turns` is not given: far beyond a real game (two players of the
/// built-in strategies finish in well under a hundred turns), so only endless play reaches it.
pub const DEFAULT_MAX_TURNS: u32 = 1000;
/// The dice streams of a match when neither `--games` nor `--rounds` nor `--sprt` says.
pub const DEFAULT_STREAMS: u64 = 100;

/// Everything a worker needs to play games, shared by reference.
struct Shared<G: ChanceRules> {
    variant: Variant<G>,
    /// The spec of each entrant (the last engine's repeated for the seats it fills).
    specs: Vec<EngineSpec>,
    /// The name of each entrant.
    names: Vec<String>,
    players: usize,
    seed: u64,
    referee: DiceReferee,
}

/// Runs a dice-game match; progress goes to stderr, the summary to stdout.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    variants::dispatch_chance(&args.variant, DiceMatchJob(args)).map_err(|e| format!("--variant: {e}"))?
}

/// A match with the rules of the dice game.
struct DiceMatchJob<'a>(&'a MatchArgs);

impl ChanceJob for DiceMatchJob<'_> {
    type Output = Result<(), String>;
    fn run<G: ChanceRules>(self, variant: Variant<G>) -> Result<(), String> {
        run_match(variant, self.0)
    }
}

/// The engines given, in order: each flag (`--engine1`) with its words.
type EngineWords<'a> = Vec<(&'static str, &'a [String])>;

/// Refuses the flags that mean nothing for dice games, and checks the players and engines.
/// Returns the number of players and the engines' words (`--engine1` first).
fn check_args<G: ChanceRules>(args: &MatchArgs) -> Result<(usize, EngineWords<'_>), String> {
    let name = &args.variant;
    if args.openings.is_some() {
        return Err(format!("--openings: {name} games start from the start position and vary by their dice"));
    }
    if args.draw_max_plies.is_some() || args.draw_reversible_plies.is_some() {
        return Err(format!(
            "--draw-max-plies/--draw-reversible-plies: {name} games are capped by --max-turns"
        ));
    }
    let players = args.dice.players.unwrap_or(2);
    if !G::PLAYERS.contains(&players) {
        return Err(format!(
            "--players {players}: {name} is played by {} to {} players",
            G::PLAYERS.start(),
            G::PLAYERS.end()
        ));
    }
    if args.dice.engine3.is_empty() && !args.dice.engine4.is_empty() {
        return Err("--engine4 without --engine3: give the engines in order".to_string());
    }
    let engines: Vec<(&'static str, &[String])> = [
        ("--engine1", &args.engine1),
        ("--engine2", &args.engine2),
        ("--engine3", &args.dice.engine3),
        ("--engine4", &args.dice.engine4),
    ]
    .into_iter()
    .filter(|(_, words)| !words.is_empty())
    .map(|(label, words)| (label, words.as_slice()))
    .collect();
    if engines.len() > players {
        return Err(format!(
            "{}: {} engines for {players} players (give --players {} or fewer engines)",
            engines[players].0,
            engines.len(),
            engines.len()
        ));
    }
    if args.sprt.is_some() && players != 2 {
        return Err(format!("--sprt: the test compares two engines, and needs --players 2, not {players}"));
    }
    Ok((players, engines))
}

/// Runs a match of `variant`.
fn run_match<G: ChanceRules>(variant: Variant<G>, args: &MatchArgs) -> Result<(), String> {
    let (players, engine_words) = check_args::<G>(args)?;
    let mut specs = Vec::new();
    for (label, words) in &engine_words {
        let mut spec = EngineSpec::parse(label, &args.each, words)?;
        // UCI_Variant first (it resets an engine's game), then the number of players.
        spec.set_variant(variant.name());
        spec.options.retain(|(n, _)| !n.eq_ignore_ascii_case("Players"));
        spec.options.insert(1, ("Players".to_string(), players.to_string()));
        specs.push(spec);
    }
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let streams = match (args.rounds, args.games) {
        (Some(r), _) => r,
        (None, Some(g)) => schedule::streams_for_games(g, players),
        (None, None) if sprt.is_some() => super::MAX_SPRT_PAIRS,
        (None, None) => DEFAULT_STREAMS,
    };
    let entrant_engine = schedule::entrant_engines(players, specs.len());
    let seed = args.seed.unwrap_or(0);
    let max_turns = args.dice.max_turns.unwrap_or(DEFAULT_MAX_TURNS);
    let fingerprint =
        dice_fingerprint(args, variant.name(), &specs, players, streams, max_turns, sprt.as_ref());
    let entrant_specs: Vec<EngineSpec> = entrant_engine.iter().map(|&e| specs[e].clone()).collect();
    let mut slice = Slice::new(streams, players as u64, args.shard_or_whole());
    let planned_games = slice.planned_games();
    let mut tally = DiceTally::new(vec![String::new(); specs.len()], players);
    if let Some(path) = &args.resume {
        let check = |r: &DiceRecord| resume_check(r, variant.name(), seed, &entrant_specs);
        let number = |r: &DiceRecord| r.game.checked_sub(1);
        resume::load(
            path,
            record::RECORD_START,
            record::parse_dice_records,
            number,
            check,
            &mut slice,
            &mut tally,
        )?;
    }
    let driver = Driver::new(args, sprt)?;

    // Start every process once before the first game, so that a bad command, a failing
    // handshake or an unknown option stops the match at once with a clear message.
    let mut slots: Vec<Vec<Option<Engine>>> = Vec::new();
    for _ in 0..args.concurrency {
        let mut slot = Vec::new();
        for &e in &entrant_engine {
            let engine = Engine::start(&specs[e]).map_err(|err| format!("{}: {err}", engine_words[e].0))?;
            slot.push(Some(engine));
        }
        slots.push(slot);
    }
    let engine_names = engine_names(&specs, &entrant_engine, &slots[0]);
    let entrant_names = entrant_names(&engine_names, &entrant_engine);
    tally.names = engine_names;
    let shared = Shared {
        variant,
        specs: entrant_specs,
        names: entrant_names,
        players,
        seed,
        referee: DiceReferee { deadlines: Deadlines::of(args), max_turns },
    };
    let play =
        |slot: &mut Vec<Option<Engine>>, index: u64, stop: &AtomicBool| play_game(&shared, slot, index, stop);
    let end = driver.run(slice, slots, tally, play)?;
    let (tally, sprt_state) = (&end.tally, end.sprt.as_ref());
    let elapsed = end.elapsed + super::earlier_elapsed(args, &fingerprint);
    let text = if args.json {
        let mut info = ShardInfo::new(args.shard_or_whole(), &fingerprint, Kind::Dice, variant.name(), seed);
        info.sprt = sprt;
        info.planned_games = planned_games;
        info.complete = !end.interrupted && tally.games == planned_games;
        info.elapsed_s = elapsed.as_secs_f64();
        let json = report::json(tally, variant.name(), seed, sprt_state, elapsed);
        shards::with_shard(&json, &info, tally) + "\n"
    } else {
        let header = format!("{}, seed {seed}", variant.name());
        report::table(tally, &header, sprt_state, elapsed, end.stop_note())
    };
    super::output::emit(args.output.as_deref(), &text)?;
    if end.interrupted {
        return Err(super::interrupted_error(args, tally.games));
    }
    Ok(())
}

/// The settings the shards of a dice match must share (see [`super::fingerprint`]).
fn dice_fingerprint(
    args: &MatchArgs,
    variant: &str,
    specs: &[EngineSpec],
    players: usize,
    streams: u64,
    max_turns: u32,
    sprt: Option<&Sprt>,
) -> Fingerprint {
    let mut f = Fingerprint::default();
    f.push("runner", "dice");
    f.push("variant", variant);
    f.push("players", players);
    for (e, spec) in specs.iter().enumerate() {
        f.push_engine(&format!("engine{}", e + 1), spec);
    }
    f.push("seed", args.seed.unwrap_or(0));
    f.push("streams", streams);
    f.push("max-turns", max_turns);
    f.push("timemargin", args.timemargin);
    f.push("move-timeout", args.move_timeout);
    f.push_sprt(sprt);
    f
}

/// Checks that a resumed game is the one this match plays under its number: the variant, the
/// players, its place (stream, rotation), its dice and the settings of every seat.
fn resume_check(
    record: &DiceRecord,
    variant: &str,
    seed: u64,
    entrant_specs: &[EngineSpec],
) -> Result<(), String> {
    let players = entrant_specs.len();
    if record.variant != variant || record.players != players {
        return Err(format!("a {}-player game of {}", record.players, record.variant));
    }
    let index = record.game - 1;
    let (stream, rotation) = (schedule::stream_of(index, players), schedule::rotation_of(index, players));
    if (record.stream, record.rotation) != (stream, rotation) {
        return Err(format!(
            "stream {} rotation {}, where this match has stream {stream} rotation {rotation}",
            record.stream, record.rotation
        ));
    }
    let dice = format!("{:016x}", schedule::stream_seed(seed, stream));
    if record.dice != dice {
        return Err(format!("dice {}, this match's are {dice} (another --seed?)", record.dice));
    }
    let seating = schedule::seating(players, rotation);
    for (seat, settings) in record.settings.iter().enumerate() {
        let spec = &entrant_specs[seating[seat]];
        if *settings != spec.settings_text() {
            return Err(format!(
                "player {} played with '{settings}', this match gives '{}'",
                seat + 1,
                spec.settings_text()
            ));
        }
    }
    Ok(())
}

/// The engines' names: `name=` or the `id name` of its first process, made distinct by the
/// engine's flag when two coincide.
fn engine_names(
    specs: &[EngineSpec],
    entrant_engine: &[usize],
    first_slot: &[Option<Engine>],
) -> Vec<String> {
    let mut names: Vec<String> = (0..specs.len())
        .map(|e| {
            let first = entrant_engine.iter().position(|&x| x == e).and_then(|i| first_slot[i].as_ref());
            specs[e].name.clone().unwrap_or_else(|| first.map_or("?", |p| p.id_name()).to_string())
        })
        .collect();
    let original = names.clone();
    for (e, name) in names.iter_mut().enumerate() {
        if original.iter().filter(|&n| n == name).count() > 1 {
            *name = format!("{name} (engine{})", e + 1);
        }
    }
    names
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

/// Plays game `index` of the match (from 0) in a game slot; `None` when the match stopped.
fn play_game<G: ChanceRules>(
    shared: &Shared<G>,
    slot: &mut [Option<Engine>],
    index: u64,
    stop: &AtomicBool,
) -> Option<DiceRecord> {
    let stream = schedule::stream_of(index, shared.players);
    let rotation = schedule::rotation_of(index, shared.players);
    // Each entrant's process, handed to the seat it takes in this rotation.
    let mut processes: Vec<Option<&mut Option<Engine>>> = slot.iter_mut().map(Some).collect();
    let seats: Vec<Player<'_>> = schedule::seating(shared.players, rotation)
        .into_iter()
        .map(|entrant| Player {
            engine: processes[entrant].take().expect("each entrant sits once"),
            spec: &shared.specs[entrant],
            name: &shared.names[entrant],
        })
        .collect();
    let id = DiceGameId {
        number: index + 1,
        stream,
        rotation,
        dice_seed: schedule::stream_seed(shared.seed, stream),
    };
    referee::play(shared.variant, seats, shared.referee, id, stop)
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
