//! The `steere` command line: each subcommand hands over to one function of the library.

use clap::{CommandFactory, FromArgMatches};
use std::process::ExitCode;
use std::time::Duration;
use steere::cli::{Cli, Command, DiceVariantArg, VariantArg, usage};
use steere::game::Rules;
use steere::tools::perft;
use steere::tools::searches::{Request, Searches, SolitaireRequest};
use steere::variants::{self, Variant};

fn main() -> ExitCode {
    // A usage error is one line (src/usage.rs); help and version print as clap has them.
    let cli = Cli::from_arg_matches(&usage::parse(Cli::command())).unwrap_or_else(|e| e.exit());
    let Some(command) = cli.command else {
        steere::protocol::run_stdio();
        return ExitCode::SUCCESS;
    };
    let result = match command {
        Command::Perft { variant: VariantArg { ref name, ref options }, .. }
        | Command::Divide { variant: VariantArg { ref name, ref options }, .. }
        | Command::Moves { variant: VariantArg { ref name, ref options }, .. } => {
            let (name, options) = (name.clone(), options.clone());
            steere::with_variant!(&name, |variant, _search| {
                with_options(variant, &options).and_then(|variant| step_command(variant, command))
            })
            .map_err(|e| format!("--variant: {e}"))
            .flatten()
        }
        Command::Analyse { variant: VariantArg { ref name, ref options }, .. }
        | Command::Bench { variant: VariantArg { ref name, ref options }, .. }
        | Command::Odds { variant: DiceVariantArg { ref name, ref options }, .. }
        | Command::Solitaire { variant: DiceVariantArg { ref name, ref options }, .. } => {
            let (name, options) = (name.clone(), options.clone());
            steere::with_variant!(&name, |variant, search| {
                with_options(variant, &options).and_then(|variant| search_command(variant, search, command))
            })
            .map_err(|e| format!("--variant: {e}"))
            .flatten()
        }
        Command::Variants => {
            for info in &variants::VARIANTS {
                steere::outln!("{:<10} {} (rules: {})", info.name, info.summary, info.rules_doc);
            }
            Ok(())
        }
        Command::Solve(args) => steere::tools::solve::run(&args),
        Command::Tb(command) => steere::tools::tablebase::run(&command),
        Command::Match(args) => steere::tools::matches::run(&args),
        Command::Book(args) => steere::tools::book::run(&args),
        Command::Selfplay(args) => steere::tools::selfplay::run(&args),
        Command::Tune(args) => steere::tools::tune::run(&args),
        Command::Calibrate(args) => steere::tools::calibrate::run(&args),
        Command::Gui(args) => steere::gui::run(&args),
        Command::Codingame { first_ms, turn_ms, threads, hash, verbose } => {
            // The table is made at the first turn: refuse a size that cannot be had now.
            if let Err(e) = steere::search::hash_size::check(hash as usize, 0) {
                eprintln!("steere: error: --hash: {e}");
                return ExitCode::FAILURE;
            }
            let settings = steere::protocol::codingame::Settings {
                first_turn: Duration::from_millis(first_ms),
                turn: Duration::from_millis(turn_ms),
                threads: threads as usize,
                hash_mib: hash as usize,
                verbose,
            };
            let (input, output, log) = (std::io::stdin().lock(), std::io::stdout(), std::io::stderr());
            steere::protocol::codingame::play(input, output, log, &settings)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("steere: error: {message}");
            if steere::tools::matches::interrupt::interrupted() {
                // A match stopped by a signal: resumable, which a batch script can tell.
                ExitCode::from(steere::tools::matches::interrupt::INTERRUPTED_STATUS)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// `variant` under the `--option NAME=VALUE` settings of the command line.
fn with_options<G: Rules>(variant: Variant<G>, options: &[String]) -> Result<Variant<G>, String> {
    variant.with_options(options).map_err(|e| format!("--option: {e}"))
}

/// A command that walks the steps of one variant's positions (perft, divide, moves): the same
/// for every game.
fn step_command<G: Rules>(variant: Variant<G>, command: Command) -> Result<(), String> {
    match command {
        Command::Perft { depth, fen, threads, .. } => {
            let (nodes, elapsed) =
                perft::timed_perft(&position(variant, fen.as_deref())?, depth, threads as usize)?;
            steere::outln!("{}", perft::summary_line(nodes, elapsed));
        }
        Command::Divide { depth, fen, .. } => {
            // The protocol's `perft` lines: one `STEP COUNT` per legal step, then the summary.
            let pos = position(variant, fen.as_deref())?;
            let never = std::sync::atomic::AtomicBool::new(false);
            let lines = steere::protocol::terminal::perft_lines(&pos, depth, &never);
            steere::outln!("{}", lines.expect("a divide nobody stops ends").join("\n"));
        }
        Command::Moves { fen, .. } => {
            for line in perft::moves_lines(&position(variant, fen.as_deref())?) {
                steere::outln!("{line}");
            }
        }
        _ => unreachable!("only step commands are dispatched"),
    }
    Ok(())
}

/// A command that searches or studies one variant's positions (analyse, bench, odds,
/// solitaire), answered by the search that plays it.
fn search_command<G: Rules, S: Searches<G>>(
    variant: Variant<G>,
    search: S,
    command: Command,
) -> Result<(), String> {
    let mut print = |line: &str| steere::outln!("{line}");
    match command {
        Command::Analyse { fen, depth, movetime, nodes, threads, hash, multipv, tables, .. } => {
            if let Some(dir) = &tables {
                steere::tools::tablebase::install_for_command(dir);
            }
            let (threads, hash_mib, multipv) = (threads as usize, hash as usize, multipv as usize);
            let request = Request { depth, movetime, nodes, threads, hash_mib, multipv };
            search.analyse(&position(variant, fen.as_deref())?, &request, &mut print)
        }
        Command::Bench { depth, threads, hash, .. } => {
            let request =
                Request { depth, threads: threads as usize, hash_mib: hash as usize, ..Request::default() };
            search.bench(variant, &request, &steere::search::SearchControl::new(), &mut print).map(|_| ())
        }
        Command::Odds { fen, .. } => {
            for line in search.odds(variant, &position(variant, fen.as_deref())?)? {
                print(&line);
            }
            Ok(())
        }
        Command::Solitaire { games, strategy, seed, depth, movetime, nodes, jobs, .. } => {
            let limits = Request { depth, movetime, nodes, ..Request::default() };
            let request = SolitaireRequest { games, strategy, seed, limits, jobs };
            let step = (games / 20).max(1);
            let summary = search.solitaire(variant, &request, &|done| {
                if done % step == 0 || done == games {
                    eprintln!("solitaire: {done}/{games} games");
                }
            })?;
            print(&summary);
            Ok(())
        }
        _ => unreachable!("only search commands are dispatched"),
    }
}

/// The position of `--fen`, or the variant's start position without one.
pub(crate) fn position<G: Rules>(variant: Variant<G>, fen: Option<&str>) -> Result<G, String> {
    match fen {
        Some(fen) => variant.parse_fen(fen).map_err(|e| format!("--fen: {e}")),
        None => Ok(variant.start()),
    }
}
