//! `steere book`: the opening books of `steere match` (`positions/openings-VARIANT.fen`).
//!
//! Engine matches start from varied, roughly balanced positions, each played twice with the
//! colours swapped, so that the result measures the engines rather than one opening. The book
//! is generated reproducibly:
//! 1. **Sample**: random walks of `--plies` uniformly chosen legal moves from the start position,
//!    driven by a SplitMix64 generator seeded with `--seed`; positions already seen are skipped
//!    (an exact `FxHashSet<Position>`), until `--count` x [`CANDIDATES_PER_POSITION`] distinct
//!    candidates or [`ATTEMPTS_PER_POSITION`] x `--count` walks.
//! 2. **Filter**: each candidate, in order, is searched by `steere`'s own search with one thread
//!    to `--depth` from a cleared table, which is deterministic (the same nodes in the same
//!    order on every machine and run); it is kept when the score is heuristic (no proven win)
//!    and at most `--max-score` hundredths of a checker from zero.
//! 3. **Write**: the first `--count` positions kept, one FEN per line, in order, after a `#`
//!    header that names the exact command. `--threads` searches candidates in parallel without
//!    changing the output: each search is independent and the order is kept.
//!
//! The output depends on the search and evaluation: regenerate the book after changing them.
//! The books of the repository are compiled into the binary (the variant registry's
//! `openings`) as the defaults of `steere match`, so the runner works from any directory.

use crate::cli::BookArgs;
use crate::game::BoardRules;
use crate::search::{Limits, Score, SearchControl, Searcher};
use crate::tools::rng::SplitMix64;
use crate::variants::Variant;
use rayon::prelude::*;
use rustc_hash::FxHashSet;
use std::io::IsTerminal;

/// Candidates sampled per position wanted (the balance filter rejects some).
pub const CANDIDATES_PER_POSITION: usize = 4;
/// Random walks tried per position wanted before giving up on finding new candidates.
pub const ATTEMPTS_PER_POSITION: usize = 50;
/// The hash table of each balance search, in MiB.
const HASH_MIB: usize = 16;

/// Distinct positions `plies` random moves from the start (step 1 of the module docs).
pub fn candidates<G: BoardRules>(variant: Variant<G>, args: &BookArgs) -> Vec<G> {
    let wanted = args.count as usize * CANDIDATES_PER_POSITION;
    let mut rng = SplitMix64(args.seed);
    let mut seen = FxHashSet::default();
    let mut out = Vec::new();
    let start = variant.start();
    for _ in 0..args.count as usize * ATTEMPTS_PER_POSITION {
        if out.len() >= wanted {
            break;
        }
        let mut pos = start;
        for _ in 0..args.plies {
            let moves = pos.legal_moves();
            let moves = moves.as_ref();
            if moves.is_empty() {
                break;
            }
            pos = pos.make_move(moves[rng.below(moves.len())]);
        }
        if pos.outcome().is_none() && seen.insert(pos) {
            out.push(pos);
        }
    }
    out
}

/// Generates the book: the kept positions with their search scores, in order.
pub fn generate<G: BoardRules>(
    variant: Variant<G>,
    args: &BookArgs,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<(G, i32)>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads as usize)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", args.threads))?;
    let limits = Limits { depth: Some(args.depth), ..Limits::default() };
    let candidates = candidates(variant, args);
    let mut kept = Vec::new();
    // Batches keep the candidates' order while letting threads share the work.
    for (done, batch) in candidates.chunks(64).enumerate() {
        let scores: Vec<Score> = pool.install(|| {
            batch
                .par_iter()
                .map_init(
                    || Searcher::<G>::new(HASH_MIB, 1),
                    |searcher, pos| {
                        searcher.new_game();
                        searcher.search(pos, &limits, &SearchControl::new(), &mut |_| {}).score
                    },
                )
                .collect()
        });
        for (pos, score) in batch.iter().zip(scores) {
            if let Score::Heuristic(cp) = score
                && cp.unsigned_abs() <= args.max_score
                && (kept.len() as u64) < args.count
            {
                kept.push((*pos, cp));
            }
        }
        progress(((done + 1) * 64).min(candidates.len()), kept.len());
        if kept.len() as u64 >= args.count {
            break;
        }
    }
    Ok(kept)
}

/// The book text: the header (with the exact command) and one FEN per line.
pub fn render<G: BoardRules>(variant: Variant<G>, args: &BookArgs, kept: &[(G, i32)]) -> String {
    let mut out = format!(
        "# Opening book of `steere match` for {}: distinct positions {} plies from the start\n\
         # position, reached by uniformly random legal moves (SplitMix64, seed {}), kept when a\n\
         # one-thread depth-{} search of steere {} scores them within +-{} {}.\n\
         # Each opening is played twice with the colours swapped. One FEN per line; see\n\
         # docs/matches.md. The same command with the same engine version gives the same file.\n\
         # Generated by: {}\n",
        variant.name(),
        args.plies,
        args.seed,
        args.depth,
        env!("CARGO_PKG_VERSION"),
        args.max_score,
        G::EVAL_UNIT,
        args.command_line()
    );
    if (kept.len() as u64) < args.count {
        out.push_str(&format!("# Only {} positions passed the filter.\n", kept.len()));
    }
    for (pos, _) in kept {
        out.push_str(&pos.fen());
        out.push('\n');
    }
    out
}

/// `steere book`: generates the book of `--variant` and writes it to `--out` or stdout;
/// progress on stderr.
pub fn run(args: &BookArgs) -> Result<(), String> {
    crate::with_variant!(board & args.variant, |variant| run_book(variant, args))?
}

/// `steere book` with the rules of the variant.
fn run_book<G: BoardRules>(variant: Variant<G>, args: &BookArgs) -> Result<(), String> {
    let terminal = std::io::stderr().is_terminal();
    let kept = generate(variant, args, &mut |searched, kept| {
        if terminal {
            eprint!("\rsearched {searched} candidates, kept {kept}");
        }
    })?;
    if terminal {
        eprintln!();
    }
    eprintln!("book: kept {} positions", kept.len());
    let text = render(variant, args, &kept);
    match &args.out {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("--out {}: {e}", path.display())),
        None => {
            crate::out!("{text}");
            Ok(())
        }
    }
}

/// Reads a book of `variant`: one FEN per line; blank lines, `#` comments and anything after
/// a `;` on a line are ignored (so EPD-style annotations are accepted). Errors name the line.
pub fn parse_book<G: BoardRules>(variant: Variant<G>, text: &str) -> Result<Vec<G>, String> {
    let positions = variant.positions(text)?;
    if let Some(over) = positions.iter().find(|pos| pos.outcome().is_some()) {
        return Err(format!("the game is already over in '{}'", over.fen()));
    }
    if positions.is_empty() {
        return Err("the book has no positions".to_string());
    }
    Ok(positions)
}
