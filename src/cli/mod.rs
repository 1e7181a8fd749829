//! The command line's arguments, in one place: the command tree of `steere` (every subcommand
//! and its flags, with the help they print) and the argument sets the tools take. The tools
//! read these structures; none of them declares a flag of its own.
//!
//! [`usage`] turns clap's usage errors into the one-line errors the README promises.

pub mod book;
pub mod calibrate;
pub mod gui;
pub mod matches;
pub mod solve;
pub mod tablebase;
pub mod tuning;
pub mod usage;

pub use book::BookArgs;
pub use calibrate::CalibrateArgs;
pub use solve::{Prover, SolveArgs};
pub use tablebase::TbCommand;
pub use tuning::{SelfplayArgs, TuneArgs};

use crate::search::MAX_HASH_MIB;
use crate::tools::perft::MAX_PERFT_DEPTH;
use crate::variants;
use clap::{Parser, Subcommand};

/// steere: an engine for a family of abstract games: Impasse, Dipole, HexDame and the dice game
/// Can't Stop.
///
/// Every command plays Impasse unless given `--variant NAME` (`steere variants` lists them).
/// Positions are given as FEN and moves in each game's notation: see docs/rules/.
#[derive(Parser)]
#[command(
    name = "steere",
    version,
    about,
    long_about = None,
    after_help = "Every command but codingame takes --variant NAME (default impasse; `steere variants` lists the games).\n\
                  With no command, steere speaks the UCI/UGI text protocol on stdin/stdout (docs/protocol.md);\n\
                  there `setoption name UCI_Variant value NAME` chooses the game."
)]
pub struct Cli {
    /// With no subcommand, steere speaks the UCI/UGI text protocol on stdin and stdout (see
    /// docs/protocol.md): the way GUIs and match runners drive it.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands of `steere`, each with its flags.
#[derive(Subcommand)]
pub enum Command {
    /// Count the move sequences of a given length (move generator test and speed benchmark).
    ///
    /// The last ply is bulk-counted. Ends with `nodes N time MS nps X`.
    /// Example: steere perft --depth 6
    Perft {
        /// Number of plies (moves) to look ahead (at most 64).
        #[arg(short, long, value_parser = clap::value_parser!(u32).range(0..=MAX_PERFT_DEPTH as i64))]
        depth: u32,
        /// Position to start from (default: the variant's start position).
        #[arg(short, long)]
        fen: Option<String>,
        /// The game.
        #[command(flatten)]
        variant: VariantArg,
        /// Threads sharing the root moves.
        #[arg(short, long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
    },
    /// Perft below each legal move: one `MOVE COUNT` line per move (board games: sorted by move
    /// text; dice games: rolls and decisions in the rules' order).
    ///
    /// Compare with another generator to find where two perft counts differ.
    /// Example: steere divide --depth 3 --fen "1W1b1W1b/b1W1b1W1/8/8/8/8/1B1w1B1w/w1B1w1B1 w"
    Divide {
        /// Number of plies below the position (1 to 64).
        #[arg(short, long, value_parser = clap::value_parser!(u32).range(1..=MAX_PERFT_DEPTH as i64))]
        depth: u32,
        /// Position to start from (default: the variant's start position).
        #[arg(short, long)]
        fen: Option<String>,
        /// The game.
        #[command(flatten)]
        variant: VariantArg,
    },
    /// List the legal moves: one `MOVE FEN-AFTER` line per move (board games: sorted by move
    /// text; dice games: rolls and decisions in the rules' order).
    Moves {
        /// Position to list (default: the variant's start position).
        #[arg(short, long)]
        fen: Option<String>,
        /// The game.
        #[command(flatten)]
        variant: VariantArg,
    },
    /// Search a position and print the best move.
    ///
    /// Iterative deepening prints one line per completed depth:
    /// `depth D seldepth S score SCORE nodes N nps X time MS hashfull H pv MOVES...`,
    /// then `bestmove M ponder R`. SCORE is `cp X` for an estimate in hundredths of a checker
    /// (positive: good for the side to move; Impasse and Dipole count checkers), or an exact
    /// result counted in plies (moves of
    /// either side): `win 5` means the side to move wins by its third move, `loss 4` that the
    /// opponent wins by his second move whatever the side to move does.
    /// At most one of --depth, --movetime, --nodes; with none, the search thinks 3 seconds.
    /// With --multipv N each depth prints the N best moves, one line each with `multipv K`
    /// after `seldepth` (a dice game: the N best decisions by value).
    /// Example: steere analyse --depth 10 --threads 2; steere analyse --depth 8 --multipv 3
    #[command(group(clap::ArgGroup::new("limit").args(["depth", "movetime", "nodes"])))]
    Analyse {
        /// Position to search (default: the variant's start position).
        #[arg(short, long)]
        fen: Option<String>,
        /// The game.
        #[command(flatten)]
        variant: VariantArg,
        /// Search this many plies deep (1 to 120).
        #[arg(short, long, value_parser = clap::value_parser!(u32).range(1..=120))]
        depth: Option<u32>,
        /// Search for this many milliseconds.
        #[arg(short, long)]
        movetime: Option<u64>,
        /// Search about this many nodes (positions visited).
        #[arg(short, long)]
        nodes: Option<u64>,
        /// Search threads (Lazy SMP: all search the same tree and share the hash table; a dice
        /// game: they share each depth's first rolls' outcomes, and find one thread's values).
        #[arg(short, long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Size of the transposition (hash) table in MiB.
        #[arg(long = "hash", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=MAX_HASH_MIB as i64))]
        hash: u32,
        /// Lines to search and print: the best N moves, each with its own exact score.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        multipv: u32,
        /// The directory of endgame tables to probe (built by `steere tb build`): a position
        /// they hold, and every line that reaches one, gets its exact result at once.
        #[arg(long)]
        tables: Option<std::path::PathBuf>,
    },
    /// Search the bench positions to a fixed depth: the search's signature and speed test.
    ///
    /// Searches every position of positions/bench-VARIANT.fen (built into the binary) with a
    /// fresh 16 MiB table, prints one line per position, and ends with `nodes N time MS nps X`.
    /// With one thread (the default) N is the variant's search signature: identical on every
    /// run and machine, it changes exactly when the search's behaviour changes. With --threads T
    /// the time to reach the same depth measures the parallel speed-up (N then varies; a dice
    /// game's moves and values stay those of one thread).
    /// Example: steere bench --depth 9; steere bench --variant dipole
    Bench {
        /// Depth of each search (default: the variant's, a few seconds in release; Impasse 14).
        #[arg(short, long, value_parser = clap::value_parser!(u32).range(1..=120))]
        depth: Option<u32>,
        /// The game.
        #[command(flatten)]
        variant: VariantArg,
        /// Search threads.
        #[arg(short, long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Size of the transposition (hash) table in MiB.
        #[arg(long = "hash", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=MAX_HASH_MIB as i64))]
        hash: u32,
    },
    /// Solve a file of test positions and check the answers (exits non-zero on any failure).
    ///
    /// The file has one position per line: a FEN, then `;`-separated operations: `bm M...` (the
    /// move found must be one of these), `am M...` (must be none of these), `win N` / `loss N`
    /// (the side to move wins / loses in exactly N of its own moves with best play), `id "name"`,
    /// `c0 "comment"`. Blank lines and `#` comments are skipped; a malformed line is reported on
    /// stderr as `FILE:LINE: message` and skipped, never stopping the run.
    ///
    /// Each position prints one line, in file order:
    /// `id "NAME" pass|fail move M score S depth D nodes N time MS [proof N] [reason "..."]`,
    /// where S is `win N` / `loss N` (proven, in own moves as in the file) or `cp X` (an
    /// estimate, hundredths of a checker). The run ends with
    /// `solved PASSED/TOTAL malformed M nodes N time MS` and `failed "ID"...`.
    ///
    /// With no limit, each position is proved: selective pruning off, deepening until the score
    /// is a proven win or loss searched beyond its length, so that the distance is exact;
    /// `proof N` is the number of nodes it took (give a limit for positions far from their end).
    /// With --movetime, --depth or --nodes the engine's usual search runs within that limit (it
    /// still stops early on an exact result); add --prove to prove within it.
    ///
    /// Example: steere solve positions/endgames-impasse.epd --jobs 2
    ///
    /// Example: steere solve positions/tactics-impasse.epd --movetime 1000
    Solve(SolveArgs),
    /// Endgame tables: build them, probe them (exact values; see docs/tablebases.md).
    ///
    /// Example: steere tb build --max 5, then steere solve positions/endgames-impasse.epd
    /// --tables tables, or `setoption name TablebasePath value tables` in the protocol.
    #[command(subcommand)]
    Tb(TbCommand),
    /// Play a match between engines, with the rules code as referee, and judge it.
    ///
    /// Each engine is a command plus KEY=VALUE settings (name=, option.NAME=VALUE, tc=10+0.1,
    /// st=, movetime=, depth=, nodes=; see below). Every opening of the book is played twice
    /// with the colours swapped; every move is checked against the rules, and an illegal move,
    /// garbage, a loss on time or a crash loses the game with the reason recorded. Prints a
    /// progress line on stderr and a table (or --json) at the end: wins per engine and colour,
    /// the Elo difference with its 95% interval, LOS, and with --sprt the log-likelihood ratio
    /// of a pentanomial SPRT on game pairs, which stops the match when it decides.
    /// Dice games (--variant cantstop) take 2 to 4 players (--players, --engine3, --engine4)
    /// and play each seeded dice stream once per seat rotation (duplicate play); see DICE GAMES
    /// below. --shard K/N plays one slice of the match, `steere match merge FILE...` adds the
    /// shards' --json; Ctrl-C or SIGTERM stops a match with the report of its games so far, and
    /// --resume FILE continues it from its record file. See docs/matches.md.
    /// Example: steere match --engine1 steere name=d4 depth=4 --engine2 steere name=d1 depth=1
    Match(Box<matches::MatchArgs>),
    /// Generate an opening book for `steere match` (positions/openings-VARIANT.fen), reproducibly.
    ///
    /// Samples distinct positions a few random plies from the start (seeded), keeps those that
    /// a one-thread fixed-depth search scores as roughly balanced, and writes one FEN per line
    /// after a header holding the exact command. Same arguments, same book.
    /// Example: steere book --plies 6 --count 200 --seed 1 --depth 8 --max-score 50 --out positions/openings-impasse.fen
    Book(BookArgs),
    /// Play the engine against itself and write the positions with their results: the
    /// training data of `steere tune` (docs/tuning.md).
    ///
    /// Game k starts from opening k of the book (--openings, default the variant's book of
    /// `steere match`), plays --random-plies random moves (seeded), then searches every move with
    /// one thread to --depth or --nodes from a cleared table: the same arguments give the same
    /// file for any --jobs. A game ends by the rules, by the match runner's draw cap, or when a
    /// search proves its result. Written: each searched position with an estimated score whose
    /// evaluation the game trusts (no capture pending), as `FEN;RESULT;SCORE;GAME` (RESULT for
    /// the side to move: 1, 0.5, 0). Progress on stderr.
    /// Example: steere selfplay --variant impasse --games 2000 --nodes 5000 --jobs 2 --out impasse.data
    Selfplay(SelfplayArgs),
    /// Fit the evaluation's weights to the results of self-play games (Texel's method) and
    /// write them as the game's weights file.
    ///
    /// Fits the scale of the logistic model to the current weights, then the weights by
    /// gradient descent (Adam) on the cross-entropy of the predicted results, and prints the
    /// training and held-out loss of the current and the tuned weights and every weight. With
    /// --write the weights file of the game (src/GAME/weights*.rs) is rewritten: rebuild, then
    /// test the new evaluation with `steere match --sprt elo0=0 elo1=5` (docs/tuning.md).
    /// Example: steere tune --variant impasse --data impasse.data --epochs 1000 --write
    Tune(TuneArgs),
    /// Measure the strength levels: play a ladder of matches and fit an Elo to every level.
    ///
    /// The ladder, bottom to top: a uniformly random mover (`Strategy random`, Elo 0 by
    /// definition), `Skill Level` 0, 1, ... and full strength, every move searched within
    /// --top. Each neighbouring pair plays --games games with `steere match` (the variant's
    /// book, colours swapped; dice games: duplicate dice), and so do level 0 and a plain
    /// depth-2 search, the check that a beginner can beat the lowest level. Prints each pair's
    /// score and Elo difference with its 95% interval, and the table of levels (each level's
    /// Elo is the sum of the differences below it; its interval adds their variances).
    /// docs/levels.md holds the measured tables.
    /// Example: steere calibrate --variant dipole --games 200 --write positions/levels-dipole.txt
    Calibrate(CalibrateArgs),
    /// Serve the GUI: a local web page to play, watch and analyse games with engines.
    ///
    /// The server drives each engine as a separate process over the text protocol, as any GUI
    /// does, so any UCI/UGI engine can play (by default, this steere). It listens on 127.0.0.1
    /// only and prints the URL to open. A game's engines stop when it ends or is left (no page
    /// has shown it for --idle-timeout); at most --max-games games are in progress at once;
    /// request bodies over 1 MiB are refused (docs/gui.md, "Limits").
    /// Example: steere gui --open; steere gui --engine fast="steere" --engine other="./my-engine --uci"
    Gui(gui::GuiArgs),
    /// The exact odds of a dice game's position: the chance of busting on the next roll, and
    /// what each decision of the player to move leads to.
    ///
    /// Probabilities are counts of the 1296 outcomes of four dice, enumerated, never sampled.
    /// Example: steere odds --variant cantstop --fen "p2 00000000000/00000000000 6:1,10:1 1 s"
    Odds {
        /// Position (default: the variant's start position).
        #[arg(short, long)]
        fen: Option<String>,
        /// The dice game.
        #[command(flatten)]
        variant: DiceVariantArg,
    },
    /// Play a dice game alone many times and report the mean number of turns to win: the
    /// yardstick of a strategy (Can't Stop's Rule of 28 needs 10.74 turns on average).
    ///
    /// Dice of game k come from --seed and k, so a run is reproducible; games are shared among
    /// --jobs threads. With no limit the search goes 2 rolls deep (about 2 ms a decision; solving every turn
    /// exactly would take seconds a decision). Ends with
    /// `games N strategy S mean M sd D ci95 [LO, HI] unfinished U time MS`.
    /// Example: steere solitaire --variant cantstop --games 1000 --strategy rule28
    Solitaire {
        /// The dice game.
        #[command(flatten)]
        variant: DiceVariantArg,
        /// Number of games.
        #[arg(short, long, default_value_t = 1000)]
        games: usize,
        /// `search` (the engine) or a fixed player of the game (Can't Stop: rule28, glenn, greedy, random).
        #[arg(short, long, default_value = "search")]
        strategy: String,
        /// Seed of the dice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Search limit per decision: this many rolls deep (default 2 when no limit is given).
        #[arg(short, long)]
        depth: Option<u32>,
        /// Search limit per decision in milliseconds.
        #[arg(short, long)]
        movetime: Option<u64>,
        /// Search limit per decision in nodes.
        #[arg(short, long)]
        nodes: Option<u64>,
        /// Games played at once.
        #[arg(short, long, default_value_t = 1)]
        jobs: usize,
    },
    /// List the games (variants) steere plays, one per line: NAME, a summary, its rules document.
    ///
    /// Every command takes `--variant NAME`; the protocol takes `setoption name UCI_Variant value NAME`.
    Variants,
    /// Play one game of the CodinGame "Impasse" arena over its referee protocol on stdin/stdout
    /// (Impasse only).
    ///
    /// Reads the colour line on the first turn, then each turn the 8 board lines (rank 8
    /// first), the opponent's last action, the number of legal actions and the actions; answers
    /// one action per turn within the arena's limits (1000 ms first turn, 100 ms after). A local
    /// sparring partner for bot authors; see docs/protocol.md.
    /// Example: steere codingame --turn-ms 80
    Codingame {
        /// Thinking time of the first turn in milliseconds (the arena allows 1000).
        #[arg(long, default_value_t = 900)]
        first_ms: u64,
        /// Thinking time of every later turn in milliseconds (the arena allows 100).
        #[arg(long, default_value_t = 80)]
        turn_ms: u64,
        /// Search threads.
        #[arg(short, long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Size of the transposition (hash) table in MiB.
        #[arg(long = "hash", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=MAX_HASH_MIB as i64))]
        hash: u32,
        /// Log one line per turn (move, time, depth, score) on stderr.
        #[arg(short, long)]
        verbose: bool,
    },
}

/// The game of a command.
#[derive(clap::Args, Clone, Debug)]
pub struct VariantArg {
    /// The game (`steere variants` lists them).
    #[arg(long = "variant", default_value = variants::DEFAULT_VARIANT)]
    pub name: String,
    /// A rule option of the game, NAME=VALUE (repeatable; Can't Stop: ColumnsToWin=3..5,
    /// CantStopVariant=none|skip|mustroll). Positions are checked under the options in force.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// The game of a command for dice games only (odds, solitaire): Can't Stop unless told.
#[derive(clap::Args, Clone, Debug)]
pub struct DiceVariantArg {
    /// The dice game (`steere variants` lists the games).
    #[arg(long = "variant", default_value = variants::DEFAULT_DICE_VARIANT)]
    pub name: String,
    /// A rule option of the game, NAME=VALUE (repeatable; Can't Stop: ColumnsToWin=3..5,
    /// CantStopVariant=none|skip|mustroll). Positions are checked under the options in force.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}
