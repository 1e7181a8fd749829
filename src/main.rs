//! The `steere` command line: each subcommand hands over to one function of the library.

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use steere::impasse::{Position, START_FEN};
use steere::tools::perft;

/// steere: an engine for Mark Steere's Impasse.
///
/// Positions are given as FEN (see README.md), moves in CodinGame notation (d2f4, b6, a7b8d2).
#[derive(Parser)]
#[command(name = "steere", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the move sequences of a given length (move generator test and speed benchmark).
    ///
    /// The last ply is bulk-counted. Ends with `nodes N time MS nps X`.
    /// Example: steere perft --depth 6
    Perft {
        /// Number of plies (moves) to look ahead.
        #[arg(short, long)]
        depth: u32,
        /// Position to start from (default: the start position).
        #[arg(short, long, default_value = START_FEN)]
        fen: String,
        /// Threads sharing the root moves.
        #[arg(short, long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
    },
    /// Perft below each legal move: one `MOVE COUNT` line per move, sorted by move text.
    ///
    /// Compare with another generator to find where two perft counts differ.
    /// Example: steere divide --depth 3 --fen "1W1b1W1b/b1W1b1W1/8/8/8/8/1B1w1B1w/w1B1w1B1 w"
    Divide {
        /// Number of plies below the position (at least 1).
        #[arg(short, long, value_parser = clap::value_parser!(u32).range(1..))]
        depth: u32,
        /// Position to start from (default: the start position).
        #[arg(short, long, default_value = START_FEN)]
        fen: String,
    },
    /// List the legal moves: one `MOVE FEN-AFTER` line per move, sorted by move text.
    Moves {
        /// Position to list (default: the start position).
        #[arg(short, long, default_value = START_FEN)]
        fen: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft { depth, fen, threads } => run_perft(&fen, depth, threads as usize),
        Command::Divide { depth, fen } => run_divide(&fen, depth),
        Command::Moves { fen } => run_moves(&fen),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("steere: error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Parses a FEN given on the command line, with the option name in the error.
fn parse_position(fen: &str) -> Result<Position, String> {
    Position::from_fen(fen).map_err(|e| format!("--fen: {e}"))
}

fn run_perft(fen: &str, depth: u32, threads: usize) -> Result<(), String> {
    let pos = parse_position(fen)?;
    let (nodes, elapsed) = perft::timed_perft(&pos, depth, threads)?;
    println!("{}", perft::summary_line(nodes, elapsed));
    Ok(())
}

fn run_divide(fen: &str, depth: u32) -> Result<(), String> {
    let pos = parse_position(fen)?;
    let start = std::time::Instant::now();
    let rows = perft::divide(&pos, depth);
    let mut out = String::new();
    for (mv, count) in &rows {
        out.push_str(&format!("{mv} {count}\n"));
    }
    let nodes = rows.iter().map(|(_, n)| n).sum();
    out.push_str(&perft::summary_line(nodes, start.elapsed()));
    println!("{out}");
    Ok(())
}

fn run_moves(fen: &str) -> Result<(), String> {
    let pos = parse_position(fen)?;
    let mut rows: Vec<(String, String)> =
        pos.legal_moves().iter().map(|&mv| (mv.to_string(), pos.make_move(mv).to_fen())).collect();
    rows.sort();
    for (mv, after) in rows {
        println!("{mv} {after}");
    }
    Ok(())
}
