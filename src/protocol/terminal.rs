//! The extensions for people at a terminal: `perft N` and `bench [D]` (`d` is
//! [`super::output::board_lines`]).
//!
//! Both run on the engine loop's thread, in the board games and the dice games alike, but can
//! be interrupted: they poll the `stop` flag of
//! their [`SearchControl`], which the input thread raises on `stop`, `quit` or end of input, so
//! that a `perft 20` typed by mistake never makes the engine deaf. They reuse the tools of
//! `steere perft` and `steere bench` and print the same lines, so the protocol's `bench` gives
//! the same search signature (total node count) as the command line.

use super::output::Output;
use crate::game::Rules;
use crate::search::SearchControl;
use crate::tools::perft;
use crate::tools::searches::{Request, Searches};
use crate::variants::Variant;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// `perft N`: one `STEP COUNT` line per legal step (in the game's listing order: board games
/// by move text), then `nodes N time MS nps X`. Returns `None` if stopped.
pub fn perft_lines<G: Rules>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<Vec<String>> {
    perft_report(depth, || {
        let rows = perft::divide(pos, depth, stop)?;
        Some(rows.into_iter().map(|(step, count)| (step.to_string(), count)).collect())
    })
}

/// The lines of a perft of `depth` whose rows (a move and its count) `rows` computes (`None`:
/// stopped): the rows, then the summary. At depth 0 there are no rows and the count is 1 (the
/// empty sequence), in every game.
fn perft_report(depth: u32, rows: impl FnOnce() -> Option<Vec<(String, u64)>>) -> Option<Vec<String>> {
    let start = Instant::now();
    let (rows, total) = match depth {
        0 => (Vec::new(), 1),
        _ => {
            let rows = rows()?;
            let total = rows.iter().map(|(_, count)| count).sum();
            (rows, total)
        }
    };
    let mut lines: Vec<String> = rows.into_iter().map(|(mv, count)| format!("{mv} {count}")).collect();
    lines.push(perft::summary_line(total, start.elapsed()));
    Some(lines)
}

/// The table size of `bench`, as `steere bench` (it is part of the signature).
const BENCH_HASH_MIB: usize = 16;

/// `bench [D]`: the bench of `variant` by the search that plays it, to depth `depth` on one
/// thread (with a fresh 16 MiB table in a board game), printing one line per position and the
/// summary at the end, as `steere bench` does, or `info string bench stopped` if stopped.
pub fn bench<G: Rules, S: Searches<G>>(
    search: S,
    variant: Variant<G>,
    depth: u32,
    control: &SearchControl,
    out: &Output,
) {
    let request = Request { depth: Some(depth), threads: 1, hash_mib: BENCH_HASH_MIB, ..Request::default() };
    match search.bench(variant, &request, control, &mut |line| out.line(line)) {
        Ok(true) => {}
        Ok(false) => out.info_string("bench stopped"),
        Err(e) => out.info_string(&format!("error: bench: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impasse::Position;

    #[test]
    fn perft_divides_and_sums() {
        let stop = AtomicBool::new(false);
        let lines = perft_lines(&Position::startpos(), 2, &stop).unwrap();
        assert_eq!(lines.len(), 23);
        assert!(lines[22].starts_with("nodes 492 "));
        let lines = perft_lines(&Position::startpos(), 0, &stop).unwrap();
        assert!(lines[0].starts_with("nodes 1 "));
    }

    #[test]
    fn a_stopped_perft_gives_up() {
        let stop = AtomicBool::new(true);
        assert_eq!(perft_lines(&Position::startpos(), 9, &stop), None);
        assert_eq!(perft_lines(&crate::cantstop::Position::start(2), 12, &stop), None);
    }

    /// R15: perft 0 is 1 in a dice game too; deeper, the rows add up to the command line's count.
    #[test]
    fn a_dice_perft_counts_as_the_command_line() {
        let stop = AtomicBool::new(false);
        let start = crate::cantstop::Position::start(2);
        let lines = perft_lines(&start, 0, &stop).unwrap();
        assert_eq!(lines.len(), 1);
        assert!(lines[0].starts_with("nodes 1 "), "{lines:?}");
        let lines = perft_lines(&start, 6, &stop).unwrap();
        let total = perft::perft(&start, 6);
        assert!(lines.last().unwrap().starts_with(&format!("nodes {total} ")), "{lines:?}");
        assert_eq!(lines.len(), start.legal_events().len() + 1);
    }
}
