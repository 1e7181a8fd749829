//! `steere tb`: build and probe endgame tables, for any game of the variant registry that has
//! some (the tables themselves live in the games' rooms; see docs/tablebases.md).

use crate::cli::TbCommand;
use crate::tablebase::BuildRequest;
use crate::variants;
use std::io::{IsTerminal, Write};

/// Runs `steere tb ...`.
pub fn run(command: &TbCommand) -> Result<(), String> {
    match command {
        TbCommand::Build(args) => {
            let family = variants::table_family(&args.variant).map_err(|e| format!("--variant: {e}"))?;
            let threads = args
                .threads
                .map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |t| t as usize);
            let terminal = std::io::stderr().is_terminal();
            let progress = move |table: u32, done: u64, total: u64| {
                if terminal {
                    let percent = 100.0 * done as f64 / total.max(1) as f64;
                    let filled = (percent / 2.5) as usize;
                    eprint!("\rtable {table}: [{:<40}] {percent:5.1}%", "#".repeat(filled));
                    if done == total {
                        eprintln!();
                    }
                    let _ = std::io::stderr().flush();
                }
            };
            let started = std::time::Instant::now();
            let request = BuildRequest { dir: &args.dir, max: args.max, threads, progress: &progress };
            (family.build)(&request, &mut |line| crate::outln!("{line}"))?;
            crate::outln!(
                "{} tables 2 to {} in {}: {:.1} s on {threads} threads, peak memory {}",
                args.variant,
                args.max,
                args.dir.display(),
                started.elapsed().as_secs_f64(),
                peak_memory().unwrap_or_else(|| "unknown".into())
            );
            Ok(())
        }
        TbCommand::Probe(args) => {
            let family = variants::table_family(&args.variant).map_err(|e| format!("--variant: {e}"))?;
            for line in (family.probe)(&args.dir, &args.fen)? {
                crate::outln!("{line}");
            }
            Ok(())
        }
    }
}

/// Loads the tables of `dir` for a command's searches (`--tables` of `solve`, `analyse`,
/// `gui`): one line on stderr per game with tables, `tablebases: ...` for what was found or
/// `steere: warning: --tables: ...` for a missing directory or a faulty file. A warning does
/// not stop the command: it goes on with the tables that checked out, as the protocol does.
pub fn install_for_command(dir: &std::path::Path) {
    for result in variants::install_tables(Some(dir)) {
        match result {
            Ok(found) => eprintln!("tablebases: {found}"),
            Err(warning) => eprintln!("steere: warning: --tables: {warning}"),
        }
    }
}

/// The process's peak resident memory (Linux: `VmHWM` of /proc/self/status).
fn peak_memory() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(format!("{:.1} MiB", kib as f64 / 1024.0))
}
