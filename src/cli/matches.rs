//! The arguments of `steere match` and `steere match merge` (the runner is
//! `crate::tools::matches`).

use crate::tools::matches::runner::slice::Shard;
use crate::variants;
use std::path::{Path, PathBuf};

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
    /// A rule option of the game, NAME=VALUE (repeatable; Can't Stop: ColumnsToWin=3..5,
    /// CantStopVariant=none|skip|mustroll): the referee's rules, sent to every engine as
    /// `setoption` after UCI_Variant and Players, and written in every record.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub option: Vec<String>,
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

/// `steere match merge`: add the `--json` results of shards and report the whole match.
#[derive(clap::Args, Clone, Debug)]
pub struct MergeArgs {
    /// The `--json` output of each shard (`steere match ... --shard K/N --json > FILE`).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print the merged summary as one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Merge only if every shard of the match is given and complete; otherwise say which are
    /// missing and write nothing (a batch job's last shard can then merge the match itself).
    #[arg(long)]
    pub require_all: bool,
    /// Write the merged report to FILE instead of standard output, whole or not at all
    /// (written beside it and renamed over it).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}
