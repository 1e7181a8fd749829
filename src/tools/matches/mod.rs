//! `steere match`: engine-vs-engine matches with the rules code as referee, Elo and SPRT.
//!
//! The scheme, room by room:
//! - [`spec`]: the engine-spec grammar (`--engine1 CMD name=X option.Hash=16 tc=10+0.1`);
//! - [`engine`]: one engine process over pipes, with a reader thread so that every wait has a
//!   deadline;
//! - [`clock`]: time controls and the clocks the runner keeps (loss on time past a margin);
//! - [`ask`]: one move asked of an engine under its clock, and the faults before its text is
//!   read (for the board and the dice referee);
//! - [`game`]: one game, every move validated by the rules of the match's variant
//!   ([`crate::game::Rules::parse_step`]);
//! - [`record`]: the PGN-like game record, written and read back;
//! - [`stats`]: Elo, LOS and the pentanomial SPRT; [`report`]: tally, progress, table, JSON;
//! - [`driver`]: the loop of game slots and main thread below, for board and dice games;
//! - [`slice`]: the games of a shard (`--shard K/N`) less those already played (`--resume`);
//! - [`interrupt`]: SIGINT and SIGTERM stop a match cleanly; [`resume`]: `--resume FILE`;
//! - [`fingerprint`]: the settings shards must share; [`shards`]: a shard's JSON and
//!   `steere match merge`.
//!
//! **Scheduling.** The match is a list of games numbered from 0: game `2k` and `2k + 1` form
//! pair `k`, played from opening `k mod B` of the book (in file order, or shuffled by `--seed`),
//! engine 1 White in the first game and Black in the second. `--concurrency N` worker threads
//! (game slots) each own one process of each engine, restarted when it crashed or hung, and take
//! the next game number from a shared counter; finished games come back on a channel to the
//! main thread, which alone writes the record file, keeps the tally and runs the SPRT after each
//! completed pair. When the SPRT decides, a stop flag makes the workers abandon the games in
//! progress (they are neither counted nor recorded) and the match ends.
//!
//! Dice games (`steere::variants::is_dice_game`) go to [`dice`] instead: 2 to 4 players,
//! duplicate play on seeded dice streams, the rules of [`crate::game::ChanceRules`] as referee.
//! It shares this module's arguments, driver, engine processes, specs, clocks and statistics.

pub mod ask;
pub mod counts;
pub mod dice;
pub mod driver;
pub mod fingerprint;
pub mod game;
pub mod interrupt;
pub mod output;
pub mod record;
pub mod report;
pub mod resume;
pub mod shards;
pub mod slice;
pub mod stats;
pub mod timing;

use crate::client::Engine;
use crate::client::spec::EngineSpec;
use crate::game::BoardRules;
use crate::tools::book;
use crate::tools::rng::SplitMix64;
use crate::variants::{self, BoardJob, Variant};
use ask::Deadlines;
use driver::Driver;
use fingerprint::{Fingerprint, fnv1a};
use game::{DrawCap, GameId, Player, Referee};
use record::GameRecord;
use report::Tally;
use shards::{Kind, MergeArgs, ShardInfo};
use slice::{Shard, Slice};
use stats::Sprt;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The most pairs a match with `--sprt` and no `--games`/`--rounds` plays before giving up.
pub const MAX_SPRT_PAIRS: u64 = 1_000_000;

/// `steere match`: play games between engines and judge them.
#[derive(clap::Args, Clone, Debug)]
#[command(after_long_help = ENGINE_HELP, subcommand_negates_reqs = true, args_conflicts_with_subcommands = true)]
pub struct MatchArgs {
    /// `steere match merge FILE...` instead of a match.
    #[command(subcommand)]
    pub action: Option<MatchAction>,
    /// The game (see `steere variants`): sent to both engines as `UCI_Variant` when it is not
    /// the default, and the rules that referee every move.
    #[arg(long, default_value = variants::DEFAULT_VARIANT)]
    pub variant: String,
    /// The first engine: its command and KEY=VALUE settings (see below). Its results are the
    /// ones reported (score, Elo, SPRT are engine1 relative to engine2).
    #[arg(long, required = true, num_args = 1.., value_name = "CMD|KEY=VALUE")]
    pub engine1: Vec<String>,
    /// The second engine, in the same form.
    #[arg(long, required = true, num_args = 1.., value_name = "CMD|KEY=VALUE")]
    pub engine2: Vec<String>,
    /// Settings for both engines (an engine's own settings override them), e.g.
    /// `--each tc=10+0.1 option.Hash=16`.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// Games played at once, each with its own pair of engine processes.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
    /// Opening book: one FEN per line, `#` comments (default: the variant's book,
    /// positions/openings-VARIANT.fen, as built in).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Opening pairs to play (each opening twice, colours swapped). Default: each opening of the
    /// book once; with --sprt, until the test decides. Dice games: dice streams to play (each
    /// once per seat rotation, N games for N players; default 100).
    #[arg(long, conflicts_with = "games", value_parser = clap::value_parser!(u64).range(1..))]
    pub rounds: Option<u64>,
    /// Games to play (an even number: games come in pairs). An alternative to --rounds. Dice
    /// games: rounded up to whole dice streams (a multiple of the number of players).
    #[arg(long, value_parser = clap::value_parser!(u64).range(2..))]
    pub games: Option<u64>,
    /// Shuffle the openings with this seed (default: the book's order). Dice games: the seed of
    /// the dice streams (default 0: the same dice on every run).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Run a sequential probability ratio test on game pairs and stop when it decides:
    /// `--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05` (these are the defaults; logistic Elo).
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Append every game to this record file (PGN-like; see docs/matches.md). Dice games: one
    /// JSON line per game (seats, dice stream, events, result), which replays the game.
    #[arg(long, visible_alias = "record", value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Print the final summary as one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Write the report (the table, or the JSON of --json) to FILE instead of standard output,
    /// whole or not at all: written beside it and renamed over it, so that a run refused,
    /// stopped or killed at any moment never leaves FILE empty or cut. With --resume and
    /// --json, the time of the earlier runs that FILE records is counted in.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Milliseconds a move may exceed its clock or fixed move time before it loses on time.
    #[arg(long, default_value_t = 50, value_name = "MS")]
    pub timemargin: u64,
    /// Milliseconds to wait for a move bounded only by depth or nodes before it is a timeout.
    #[arg(long, default_value_t = 60_000, value_name = "MS")]
    pub move_timeout: u64,
    /// Draw cap for endless games (a rule of the runner, not of the game): a draw after N plies
    /// in a row of reversible moves (in HexDame: no man moved, nothing captured); 0 turns it
    /// off. Default: 50 for games that can repeat a position (HexDame), off for the others.
    #[arg(long, value_name = "N")]
    pub draw_reversible_plies: Option<u32>,
    /// Draw cap: a draw after N plies from the opening; 0 turns it off. Default: 400 for games
    /// that can repeat a position, off for the others. Threefold repetition is always a draw.
    #[arg(long, value_name = "N")]
    pub draw_max_plies: Option<u32>,
    /// When stderr is not a terminal, print a progress line every N games (0: never).
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub progress: u64,
    /// Play only the K-th of N slices of the schedule (whole opening pairs or dice streams,
    /// dealt round-robin), e.g. `--shard 3/8`; merge the shards' --json with `steere match
    /// merge`. With --sprt the test is computed but stops nothing: the merge decides.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Continue the match whose record file is FILE (same settings): its games are counted and
    /// not replayed, new games are appended to it. A missing FILE starts the match.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// The options of dice games only, last so that their help heading covers nothing else
    /// (boxed: they would make the command line's enum of commands large).
    #[command(flatten)]
    pub dice: Box<DiceArgs>,
}

/// What `steere match` does instead of playing a match.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum MatchAction {
    /// Add the --json results of the shards of one match (`--shard K/N`) and print the report
    /// of the whole match: Elo, LOS and the SPRT's verdict at the merged counts. Refuses shards
    /// of different matches, the same shard twice and interrupted shards.
    /// Example: steere match merge shard-*.json
    Merge(Box<MergeArgs>),
}

impl MatchArgs {
    /// The record file: `--resume FILE` or `--pgn FILE`.
    pub fn record_path(&self) -> Option<&Path> {
        self.resume.as_deref().or(self.pgn.as_deref())
    }

    /// The shard played (the whole match without `--shard`).
    pub fn shard_or_whole(&self) -> Shard {
        self.shard.unwrap_or(Shard::WHOLE)
    }
}

/// The time of the earlier runs of a resumed match, as its `--output` report records it (see
/// [`shards::earlier_elapsed`]); zero for a match not resumed or without a JSON report.
pub(crate) fn earlier_elapsed(args: &MatchArgs, fingerprint: &Fingerprint) -> Duration {
    match (&args.resume, &args.output) {
        (Some(_), Some(path)) if args.json => {
            let shard = args.shard_or_whole();
            shards::earlier_elapsed(path, &fingerprint.hash(), shard.index, shard.count)
        }
        _ => Duration::ZERO,
    }
}

/// The error of a match stopped by a signal, after its report was printed.
pub(crate) fn interrupted_error(args: &MatchArgs, games: u64) -> String {
    match args.record_path() {
        Some(path) => format!(
            "interrupted after {games} games; continue with the same command and --resume {}",
            path.display()
        ),
        None => format!("interrupted after {games} games (no --pgn record file, so it cannot be resumed)"),
    }
}

/// Refuses combinations of sharding and resuming that cannot work.
fn check_shard_resume(args: &MatchArgs) -> Result<(), String> {
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

/// The options of `steere match` for dice games only (`--variant cantstop`).
#[derive(clap::Args, Clone, Debug, Default)]
#[command(next_help_heading = "Dice games")]
pub struct DiceArgs {
    /// The third engine, in the same form.
    #[arg(long, num_args = 1.., value_name = "CMD|KEY=VALUE")]
    pub engine3: Vec<String>,
    /// The fourth engine, in the same form.
    #[arg(long, num_args = 1.., value_name = "CMD|KEY=VALUE")]
    pub engine4: Vec<String>,
    /// Players per game: 2 for board games; 2 to 4 for dice games (default 2), each seat an
    /// engine process. With fewer engines than players, the last engine given fills the
    /// remaining seats.
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// A game still running after T turns in all (a turn is a run of events of one
    /// player) is adjudicated unfinished, with no winner (default 1000). The rules set no limit.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_turns: Option<u32>,
}

/// The engine-spec grammar, appended to `steere match --help`.
const ENGINE_HELP: &str = "\
ENGINES: --engine1 and --engine2 each take one command and KEY=VALUE settings, in any order:
  cmd=COMMAND         the command (only needed when it looks like a setting; may come from --each)
  name=NAME           the name in tables and records (default: the engine's `id name`)
  dir=PATH            working directory       stderr=FILE   append the engine's stderr to FILE
  proto=uci|ugi       handshake dialect (default uci)
  option.NAME=VALUE   sent as `setoption name NAME value VALUE` (the engine must declare NAME)
  tc=[MOVES/]BASE[+INC]  clock in seconds: 10+0.1, 60, 40/120+1 (tc=none removes one from --each)
  st=SECONDS | movetime=MS   fixed time per move
  depth=N | nodes=N   fixed depth or node count (combine freely: all limits apply)
The command is split like a shell splits words (quotes, backslashes) and run without a shell.

DICE GAMES (--variant cantstop): --players N (2-4) seats, --engine1 ... --engine4; the last engine
given fills the remaining seats (one process per seat). Duplicate play: dice stream k (from --seed
and k) is played once per seat rotation, so N games per stream share their i-th roll; --games is
rounded up to whole streams, --rounds counts streams. A forfeit (illegal event, garbage, time,
crash) loses: with 2 players the opponent wins, with 3 or 4 nobody wins. A game past --max-turns
turns (default 1000) is unfinished, no winner. Win rates per seat with a 95% Wilson interval;
with 2 players also Elo, LOS and --sprt, pairing the two rotations of each stream.

EXAMPLES:
  steere match --engine1 ./target/release/steere name=d4 depth=4 --engine2 ./target/release/steere name=d1 depth=1
  steere match --engine1 ./new name=new --engine2 ./old name=old --each tc=10+0.1 option.Hash=16 \\
      --concurrency 2 --sprt elo0=0 elo1=10 --pgn games.txt
  steere match --engine1 \"./steere\" movetime=100 --engine2 \"./steere\" movetime=100 depth=2 --games 200 --json
  steere match --variant cantstop --players 4 --engine1 ./steere name=search movetime=50 \\
      --engine2 ./steere name=rule28 movetime=50 option.Strategy=rule28 --games 400 --seed 7";

/// Everything a worker needs to play games, shared by reference.
struct Shared<G: BoardRules> {
    variant: Variant<G>,
    specs: [EngineSpec; 2],
    names: [String; 2],
    openings: Vec<G>,
    referee: Referee,
}

/// Runs a match; progress goes to stderr, the summary to stdout.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    if let Some(MatchAction::Merge(merge)) = &args.action {
        return shards::run_merge(merge).map_err(|e| format!("match merge: {e}"));
    }
    check_shard_resume(args)?;
    variants::find(&args.variant).map_err(|e| format!("--variant: {e}"))?;
    if variants::is_dice_game(&args.variant) {
        return dice::run(args);
    }
    board_only(args)?;
    variants::dispatch_board(&args.variant, MatchJob(args)).map_err(|e| format!("--variant: {e}"))?
}

/// Refuses the flags of dice games in a board-game match.
fn board_only(args: &MatchArgs) -> Result<(), String> {
    let dice = &args.dice;
    if let Some(n) = dice.players.filter(|&n| n != 2) {
        return Err(format!("--players {n}: {} is played by 2 players", args.variant));
    }
    if !dice.engine3.is_empty() || !dice.engine4.is_empty() {
        return Err(format!("--engine3/--engine4: {} is played by 2 engines", args.variant));
    }
    if dice.max_turns.is_some() {
        return Err("--max-turns is for dice games (board games have --draw-max-plies)".to_string());
    }
    Ok(())
}

/// A match with the rules of the variant.
struct MatchJob<'a>(&'a MatchArgs);

impl BoardJob for MatchJob<'_> {
    type Output = Result<(), String>;
    fn run<G: BoardRules>(self, variant: Variant<G>) -> Result<(), String> {
        run_match(variant, self.0)
    }
}

/// Runs a match of `variant`.
fn run_match<G: BoardRules>(variant: Variant<G>, args: &MatchArgs) -> Result<(), String> {
    let mut specs = [
        EngineSpec::parse("--engine1", &args.each, &args.engine1)?,
        EngineSpec::parse("--engine2", &args.each, &args.engine2)?,
    ];
    if variant.name() != variants::DEFAULT_VARIANT {
        for spec in &mut specs {
            spec.set_variant(variant.name());
        }
    }
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let (mut openings, book_hash) = match &args.openings {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("--openings {}: {e}", path.display()))?;
            let book = book::parse_book(variant, &text)
                .map_err(|e| format!("--openings {}: {e}", path.display()))?;
            (book, fnv1a(text.as_bytes()))
        }
        None => {
            let book = book::parse_book(variant, variant.info.openings)
                .map_err(|e| format!("built-in book of {}: {e}", variant.name()))?;
            (book, fnv1a(variant.info.openings.as_bytes()))
        }
    };
    if let Some(seed) = args.seed {
        SplitMix64(seed).shuffle(&mut openings);
    }
    let pairs = match (args.rounds, args.games) {
        (Some(r), _) => r,
        (None, Some(g)) if g % 2 == 1 => {
            return Err(format!("--games {g}: games come in pairs; give an even number"));
        }
        (None, Some(g)) => g / 2,
        (None, None) if sprt.is_some() => MAX_SPRT_PAIRS,
        (None, None) => openings.len() as u64,
    };
    let cap = draw_cap::<G>(args);
    let fingerprint = board_fingerprint(args, variant.name(), &specs, book_hash, pairs, cap, sprt.as_ref());
    let mut slice = Slice::new(pairs, 2, args.shard_or_whole());
    let planned_games = slice.planned_games();
    let mut tally = Tally::default();
    if let Some(path) = &args.resume {
        let check = |r: &GameRecord| resume_check(r, &openings, &specs);
        let parse = |text: &str| resume::parse_board_records(text, variant.name());
        let number = |r: &GameRecord| r.number.checked_sub(1);
        resume::load(path, record::RECORD_START, parse, number, check, &mut slice, &mut tally)?;
    }
    let driver = Driver::new(args, sprt)?;

    // Start every engine once before the first game, so that a bad command, a failing
    // handshake or an unknown option stops the match at once with a clear message.
    let slots = args.concurrency as usize;
    let mut engines: Vec<[Option<Engine>; 2]> = Vec::with_capacity(slots);
    for _ in 0..slots {
        let first = Engine::start(&specs[0]).map_err(|e| format!("--engine1: {e}"))?;
        let second = Engine::start(&specs[1]).map_err(|e| format!("--engine2: {e}"))?;
        engines.push([Some(first), Some(second)]);
    }
    let names = engine_names(&specs, &engines[0]);
    let shared = Shared {
        variant,
        specs,
        names: names.clone(),
        openings,
        referee: Referee { deadlines: Deadlines::of(args), cap },
    };
    tally.names = names;
    let play =
        |slot: &mut [Option<Engine>; 2], index: u64, stop: &AtomicBool| play_game(&shared, slot, index, stop);
    let end = driver.run(slice, engines, tally, play)?;
    let (tally, sprt_state) = (&end.tally, end.sprt.as_ref());
    let elapsed = end.elapsed + earlier_elapsed(args, &fingerprint);
    let text = if args.json {
        let seed = args.seed.unwrap_or(0);
        let mut info = ShardInfo::new(args.shard_or_whole(), &fingerprint, Kind::Board, variant.name(), seed);
        info.sprt = sprt;
        info.planned_games = planned_games;
        info.complete = !end.interrupted && tally.games == planned_games;
        info.elapsed_s = elapsed.as_secs_f64();
        shards::with_shard(&report::json(tally, sprt_state, elapsed), &info, tally) + "\n"
    } else {
        report::table(tally, sprt_state, elapsed, end.stop_note())
    };
    output::emit(args.output.as_deref(), &text)?;
    if end.interrupted {
        return Err(interrupted_error(args, tally.games));
    }
    Ok(())
}

/// The settings the shards of a board-game match must share (see [`fingerprint`]).
fn board_fingerprint(
    args: &MatchArgs,
    variant: &str,
    specs: &[EngineSpec; 2],
    book_hash: u64,
    pairs: u64,
    cap: DrawCap,
    sprt: Option<&Sprt>,
) -> Fingerprint {
    let mut f = Fingerprint::default();
    f.push("runner", "board");
    f.push("variant", variant);
    f.push_engine("engine1", &specs[0]);
    f.push_engine("engine2", &specs[1]);
    f.push("openings", format!("{book_hash:016x}"));
    f.push("seed", args.seed.map_or("none".to_string(), |s| s.to_string()));
    f.push("pairs", pairs);
    let limit = |n: Option<u32>| n.map_or("off".to_string(), |n| n.to_string());
    f.push("draw-reversible-plies", limit(cap.reversible_plies));
    f.push("draw-max-plies", limit(cap.max_plies));
    f.push("timemargin", args.timemargin);
    f.push("move-timeout", args.move_timeout);
    f.push_sprt(sprt);
    f
}

/// Checks that a resumed game is the one this match plays under its number: its opening and
/// the settings of the engine on each side.
fn resume_check<G: BoardRules>(
    record: &GameRecord,
    openings: &[G],
    specs: &[EngineSpec; 2],
) -> Result<(), String> {
    let pair = record.pair - 1;
    let opening = openings[(pair % openings.len() as u64) as usize].fen();
    if record.fen != opening {
        return Err(format!("its opening is {}, this match's is {opening}", record.fen));
    }
    let (white, black) = if record.game_in_pair == 1 { (0, 1) } else { (1, 0) };
    for (side, settings, spec) in
        [("White", &record.white_settings, &specs[white]), ("Black", &record.black_settings, &specs[black])]
    {
        if *settings != spec.settings_text() {
            return Err(format!(
                "{side} played with '{settings}', this match gives '{}'",
                spec.settings_text()
            ));
        }
    }
    Ok(())
}

/// The draw cap of the match: the game's default, overridden by the flags (0: off).
fn draw_cap<G: BoardRules>(args: &MatchArgs) -> DrawCap {
    let default = DrawCap::default_for::<G>();
    let choose = |flag: Option<u32>, default: Option<u32>| match flag {
        Some(0) => None,
        Some(n) => Some(n),
        None => default,
    };
    DrawCap {
        reversible_plies: choose(args.draw_reversible_plies, default.reversible_plies),
        max_plies: choose(args.draw_max_plies, default.max_plies),
    }
}

/// The names of the engines: `name=` or the `id name`, made distinct when they coincide.
fn engine_names(specs: &[EngineSpec; 2], first_slot: &[Option<Engine>; 2]) -> [String; 2] {
    let mut names: [String; 2] = std::array::from_fn(|i| {
        specs[i]
            .name
            .clone()
            .unwrap_or_else(|| first_slot[i].as_ref().map_or("?", |e| e.id_name()).to_string())
    });
    if names[0] == names[1] {
        names = [format!("{} #1", names[0]), format!("{} #2", names[1])];
    }
    names
}

/// Plays game `index` of the match (from 0) in a game slot; `None` when the match stopped.
fn play_game<G: BoardRules>(
    shared: &Shared<G>,
    slot: &mut [Option<Engine>; 2],
    index: u64,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let pair = index / 2;
    let opening = &shared.openings[(pair % shared.openings.len() as u64) as usize];
    let game_in_pair = (index % 2) as u32 + 1;
    // Engine 1 is White in the first game of a pair, Black in the second.
    let (white, black) = if game_in_pair == 1 { (0, 1) } else { (1, 0) };
    let [first, second] = slot;
    let (white_engine, black_engine) = if white == 0 { (first, second) } else { (second, first) };
    let id = GameId { number: index + 1, pair: pair + 1, game_in_pair };
    game::play(
        shared.variant,
        Player { engine: white_engine, spec: &shared.specs[white], name: &shared.names[white] },
        Player { engine: black_engine, spec: &shared.specs[black], name: &shared.names[black] },
        opening,
        shared.referee,
        id,
        stop,
    )
}
