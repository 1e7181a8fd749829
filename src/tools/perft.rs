//! Perft: the number of step sequences of a given length (moves in a board game; rolls and
//! decisions alike in a dice game), the standard correctness and speed test of a move
//! generator, written once over [`Rules`] for every game. The last ply is bulk-counted with
//! [`Rules::count_steps`] instead of generating and making each step.

use crate::game::Rules;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// The deepest perft and divide the command line and the protocol accept, in plies (in a dice
/// game, in events). Perft recurses once per ply on the caller's stack, and a game may go on
/// for thousands of plies (HexDame's kings, Can't Stop's rolls), so an unbounded depth would
/// overflow the stack; at 64 it stays small, and a perft that deep never ends anyway (Impasse
/// perft 12 takes hours). Documented in docs/protocol.md, "Limits".
pub const MAX_PERFT_DEPTH: u32 = 64;

/// `depth` if a perft that deep is accepted ([`MAX_PERFT_DEPTH`]), else the one-line reason.
pub fn check_depth(depth: u32) -> Result<u32, String> {
    if depth <= MAX_PERFT_DEPTH {
        Ok(depth)
    } else {
        Err(format!("depth {depth} is too deep: at most {MAX_PERFT_DEPTH}"))
    }
}

/// The number of step sequences of length `depth` from `pos` (1 at depth 0; a finished game
/// has no steps).
pub fn perft<G: Rules>(pos: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_steps(),
        _ => pos.steps().as_ref().iter().map(|&step| perft(&pos.play(step), depth - 1)).sum(),
    }
}

/// [`perft`] with the root steps shared among the threads of the current rayon pool.
pub fn perft_parallel<G: Rules>(pos: &G, depth: u32) -> u64 {
    if depth <= 1 {
        return perft(pos, depth);
    }
    pos.steps().as_ref().par_iter().map(|&step| perft(&pos.play(step), depth - 1)).sum()
}

/// Below this depth a perft is counted in one go (milliseconds at most); above it,
/// [`stoppable_perft`] polls its stop flag between subtrees.
const UNINTERRUPTED_PERFT_DEPTH: u32 = 3;

/// [`perft`] that gives up (`None`) once `stop` is raised (the protocol's `perft`).
pub fn stoppable_perft<G: Rules>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Relaxed) {
        return None;
    }
    if depth <= UNINTERRUPTED_PERFT_DEPTH {
        return Some(perft(pos, depth));
    }
    let mut total = 0;
    for &step in pos.steps().as_ref() {
        total += stoppable_perft(&pos.play(step), depth - 1, stop)?;
    }
    Some(total)
}

/// Perft below each legal step, in the game's listing order ([`Rules::legal_steps`]: board
/// games by move text); `None` once `stop` is raised.
pub fn divide<G: Rules>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<Vec<(G::Step, u64)>> {
    let mut rows = Vec::new();
    for step in pos.legal_steps() {
        rows.push((step, stoppable_perft(&pos.play(step), depth.saturating_sub(1), stop)?));
    }
    Some(rows)
}

/// One `STEP FEN-AFTER` line per legal step, in the game's listing order (`steere moves`).
pub fn moves_lines<G: Rules>(pos: &G) -> Vec<String> {
    pos.legal_steps().into_iter().map(|step| format!("{step} {}", pos.play(step).fen())).collect()
}

/// The summary line shared by `perft`, `divide` and `bench`: `nodes N time MS nps X`.
pub fn summary_line(nodes: u64, elapsed: Duration) -> String {
    let ms = elapsed.as_millis();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    format!("nodes {nodes} time {ms} nps {nps}")
}

/// Runs perft on `threads` threads (1 = the calling thread) and returns (nodes, elapsed).
pub fn timed_perft<G: Rules>(pos: &G, depth: u32, threads: usize) -> Result<(u64, Duration), String> {
    let start = Instant::now();
    let nodes = if threads <= 1 {
        perft(pos, depth)
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
        pool.install(|| perft_parallel(pos, depth))
    };
    Ok((nodes, start.elapsed()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depths_up_to_the_maximum_are_accepted() {
        assert_eq!(check_depth(0), Ok(0));
        assert_eq!(check_depth(MAX_PERFT_DEPTH), Ok(MAX_PERFT_DEPTH));
        assert_eq!(check_depth(3000), Err("depth 3000 is too deep: at most 64".to_string()));
    }
}
