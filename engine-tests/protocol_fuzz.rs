//! A protocol fuzzer in the style of fastchess's compliance checks, against the real binary
//! over pipes (`pipe.rs`): for every variant of `UCI_Variant`, at least 10,000 lines from a
//! seeded generator mix valid commands (handshakes, `isready`, `ucinewgame`, every option with
//! valid and invalid values, `position` with random legal and broken move sequences and FENs,
//! `go` with small limits, `infinite` and `ponder` released by `stop` and `ponderhit`, `perft`,
//! `d`, every `query`) with garbage (random bytes, invalid UTF-8, control characters, very long
//! tokens and lines, blank lines, unknown commands, numbers out of range).
//!
//! After every batch of a few lines the engine must still run, answer `query fen` with the
//! position the fuzz told it (tracked independently: `protocol_fuzz/model.rs`) and `isready`
//! with `readyok` within 10 s, print no panic, and have printed exactly the error lines the
//! protocol asks for. Every accepted `go` must get exactly one `bestmove`, none may come without
//! a `go`, and each must be legal in the position searched; legality, positions, perft counts
//! and the moves `d` lists are decided by the independent reference generators
//! (engine-tests/impasse_reference, dipole_reference, hexdame_reference, cantstop_reference), never by
//! the engine's own rules or its `query islegal`.
//!
//! The tests are ignored (slow): `cargo test --test protocol_fuzz -- --ignored --nocapture`.
//! `STEERE_FUZZ_SEED` and `STEERE_FUZZ_LINES` change the seed and the number of lines; every
//! defect is reported with its seed, its line number and the lines that led to it.

#[path = "cantstop_reference/mod.rs"]
mod cantstop_reference;
/// The output judge.
#[path = "protocol_fuzz/checker.rs"]
mod checker;
/// The mix of lines.
#[path = "protocol_fuzz/commands.rs"]
mod commands;
mod common;
mod dipole_reference;
/// The games and their references.
#[path = "protocol_fuzz/games.rs"]
mod games;
/// Garbage and misspellings.
#[path = "protocol_fuzz/garbage.rs"]
mod garbage;
#[path = "hexdame_reference/mod.rs"]
mod hexdame_reference;
/// The tracked engine state.
#[path = "protocol_fuzz/model.rs"]
mod model;
mod pipe;
/// `position` lines.
#[path = "protocol_fuzz/positions.rs"]
mod positions;
#[path = "impasse_reference/mod.rs"]
mod reference;
/// `go` lines.
#[path = "protocol_fuzz/searches.rs"]
mod searches;
/// The engine under fuzz.
#[path = "protocol_fuzz/session.rs"]
mod session;
/// A line and its effect.
#[path = "protocol_fuzz/step.rs"]
mod step;

use games::Game;
use session::Session;
use std::time::Instant;
use step::{Effect, Step};

/// Lines per variant unless `STEERE_FUZZ_LINES` says otherwise.
const LINES: usize = 10_000;

/// A number from the environment, or `default`.
fn setting(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(text) => text.trim().parse().unwrap_or_else(|_| panic!("{name}={text:?} is not a number")),
        Err(_) => default,
    }
}

/// Fuzzes `game` with the seed of `STEERE_FUZZ_SEED` (else `default_seed`); prints the figures
/// and fails with every defect found.
fn fuzz(game: Game, default_seed: u64) {
    let seed = setting("STEERE_FUZZ_SEED", default_seed);
    let lines = setting("STEERE_FUZZ_LINES", LINES as u64) as usize;
    println!(
        "protocol fuzz: {}, seed {seed} (rerun with STEERE_FUZZ_SEED={seed}), {lines} lines",
        game.name()
    );
    let started = Instant::now();
    let mut session = Session::start(game, seed);
    if game.is_dice() {
        // Start with a random number of players; the fuzz changes it again now and then.
        let players = 2 + session.rng.below(3);
        let line = format!("setoption name Players value {players}");
        session.run(vec![Step::new(line, 0, Effect::Players(players))]);
    }
    // One line over the reader's 8 MiB limit, somewhere: skipped whole with one error.
    let long_at = session.rng.below(lines);
    while session.figures.lines < lines {
        let steps = if session.figures.lines == long_at {
            vec![Step::inert(vec![b'x'; (8 << 20) + 100], 1)]
        } else {
            session.next_steps()
        };
        session.run(steps);
        // An engine that must be restarted again and again has one defect everywhere.
        if session.figures.engines > 30 {
            break;
        }
    }
    let (figures, defects, counts) = session.finish();
    println!(
        "protocol fuzz: {}: {} lines ({} syncs), {} go, {} bestmoves checked ({} of them (none)), {} responses, \
         {} boards, {} perfts, {} finished games ({} drawn), {} engine(s), {:.1} s",
        game.name(),
        figures.lines,
        figures.syncs,
        figures.gos,
        counts.bestmoves,
        counts.nones,
        counts.responses,
        counts.displays,
        counts.perfts,
        figures.finished,
        figures.drawn,
        figures.engines,
        started.elapsed().as_secs_f64()
    );
    if !defects.is_empty() {
        let report: Vec<String> = defects
            .iter()
            .map(|(kind, (n, first))| format!("- {kind} ({n}x); the first:\n  {first}"))
            .collect();
        panic!("{} kind(s) of defect in {}:\n{}", defects.len(), game.name(), report.join("\n\n"));
    }
}

#[test]
#[ignore = "slow: run with --ignored"]
fn fuzz_impasse() {
    fuzz(Game::Impasse, 2201);
}

#[test]
#[ignore = "slow: run with --ignored"]
fn fuzz_dipole() {
    fuzz(Game::Dipole, 2202);
}

#[test]
#[ignore = "slow: run with --ignored"]
fn fuzz_dipole10() {
    fuzz(Game::Dipole10, 2203);
}

#[test]
#[ignore = "slow: run with --ignored"]
fn fuzz_hexdame() {
    fuzz(Game::HexDame, 2204);
}

#[test]
#[ignore = "slow: run with --ignored"]
fn fuzz_cantstop() {
    fuzz(Game::CantStop, 2205);
}
