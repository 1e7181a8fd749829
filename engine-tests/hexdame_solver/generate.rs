//! The generator of `positions/endgames-hexdame.epd`, run by the ignored test
//! `regenerate_hexdame_endgames` of engine-tests/hexdame_suites.rs (the file's header gives the
//! exact command). Deterministic: a fixed seed, tables indexed the same way on every run, no
//! hash-map iteration order in the output (the solver's parallel first pass writes each slot's
//! result to its own place, so the thread count does not matter).
//!
//! Every value and move list written comes from the retrograde [`Solver`] over the reference
//! generator. The generator solves every material set of 2 to [`MAX_PIECES`] pieces (each side
//! at least one), and from each picks a few positions: wins and losses at a few distances
//! spread over the set's range (the longest up to [`MAX_PLIES`] among them), draws, and a
//! position without a move when the set has one. Within each such bucket the candidates are a
//! seeded random sample of the table; the one kept is the most instructive (a wrong move exists,
//! features the file has covered least), read off a line of best play.

use crate::common::thousands;
use crate::hexdame_reference::{Color, Kind, Position, capture_sequences_before_majority, generate};
use crate::hexdame_solver::{Analysis, Exact, Material, Solver, Value, flip};
use std::collections::BTreeMap;
use std::fmt::Write;
use steere::tools::rng::SplitMix64 as Rng;

/// The seed of the samples and of the orientation of each position kept.
pub const SEED: u64 = 61;
/// The largest material sets solved, in pieces on the board.
pub const MAX_PIECES: u8 = 4;
/// The deepest value kept, in plies.
pub const MAX_PLIES: u32 = 40;
/// Candidates sampled per bucket (material set and value).
const SAMPLE: usize = 60;
/// Drawn positions kept per material set that has draws.
const DRAWS: usize = 2;

/// Every material set of 2 to [`MAX_PIECES`] pieces with pieces on both sides, one of each
/// colour-swapped pair (the solver's tabled one), in solving order.
pub fn materials(max_pieces: u8) -> Vec<Material> {
    let mut out: Vec<Material> = Vec::new();
    let top = Material { counts: [max_pieces; 4] };
    for m in top.below() {
        let m = m.canonical();
        let sides = m.pieces(Color::White) > 0 && m.pieces(Color::Black) > 0;
        if (2..=max_pieces).contains(&m.total()) && sides && !out.contains(&m) {
            out.push(m);
        }
    }
    out.sort_by_key(|m| m.solve_order());
    out
}

/// What a line of best play (the solver's principal variation) exercises, in a fixed order:
/// `promotion` (a man ends a move on his far edge), `multi-capture` (a move takes two or more
/// pieces), `majority` (in some position of the line the majority rule forbids a complete
/// capture sequence, one that no further jump extends, because another takes more) and
/// `blocked` (the loser ends with pieces but no move, rather than with no pieces). Every
/// decided line ends in a capture or a block, so a plain capture is not named.
pub fn features(solver: &Solver, pos: &Position) -> Vec<&'static str> {
    let mut seen = [false; 4];
    let line = solver.principal_variation(pos);
    for (before, text) in &line {
        let (mv, after) =
            generate(before).into_iter().find(|(mv, _)| mv.text() == *text).expect("a legal best move");
        let was_man = before.get(mv.from).map(|p| p.1) == Some(Kind::Man);
        seen[0] |= was_man && after.get(mv.to).map(|p| p.1) == Some(Kind::King);
        seen[1] |= mv.captured.len() >= 2;
        seen[2] |= majority_matters(before);
    }
    // The final position: the line's last move played, or the position itself for `loss 0`.
    let end = match line.last() {
        Some((before, text)) => {
            generate(before).into_iter().find(|(mv, _)| mv.text() == *text).expect("a legal best move").1
        }
        None => pos.clone(),
    };
    seen[3] = solver.known(pos).is_some() && end.count(end.to_move) > 0;
    let names = ["promotion", "multi-capture", "majority", "blocked"];
    names.into_iter().zip(seen).filter(|(_, s)| *s).map(|(f, _)| f).collect()
}

/// Whether the majority rule forbids a complete capture sequence in `pos`: one that no further
/// jump extends but that takes fewer pieces than the best.
pub fn majority_matters(pos: &Position) -> bool {
    let sequences = capture_sequences_before_majority(pos);
    let best = sequences.iter().map(|(_, captured)| captured.len()).max().unwrap_or(0);
    sequences.iter().any(|(path, captured)| {
        captured.len() < best
            && !sequences.iter().any(|(longer, _)| longer.len() == path.len() + 1 && longer.starts_with(path))
    })
}

/// A position kept for the file.
struct Kept {
    pos: Position,
    material: Material,
    analysis: Analysis,
    features: Vec<&'static str>,
}

/// The distances (plies) of the wins and losses to keep from a set whose decided values are
/// `present`: for wins the longest, and the ones at about a third and two thirds of it; for
/// losses the longest and the one at about half of it, and 0 when the set has a position
/// without a move; and [`DRAWS`] draws when it has any.
fn targets(present: &BTreeMap<(u8, u32), u64>) -> Vec<Value> {
    let mut out = Vec::new();
    for win in [true, false] {
        let class = if win { 2 } else { 0 };
        let plies: Vec<u32> = present
            .keys()
            .filter(|(c, p)| *c == class && *p <= MAX_PLIES && *p > 0)
            .map(|(_, p)| *p)
            .collect();
        let Some(&longest) = plies.last() else { continue };
        let fractions: &[u32] = if win { &[3, 2, 1] } else { &[2, 1] };
        let mut chosen: Vec<u32> = Vec::new();
        for &f in fractions {
            // The present distance nearest to `longest * f / 3` (or `/ 2` for losses).
            let goal = longest * f / if win { 3 } else { 2 };
            let near = *plies.iter().min_by_key(|&&p| (p.abs_diff(goal), p)).expect("non-empty");
            if !chosen.contains(&near) {
                chosen.push(near);
            }
        }
        if !win && present.contains_key(&(0, 0)) {
            chosen.push(0);
        }
        out.extend(chosen.into_iter().map(|p| Some(if win { Exact::Win(p) } else { Exact::Loss(p) })));
    }
    if present.contains_key(&(1, 0)) {
        out.extend(std::iter::repeat_n(None, DRAWS));
    }
    out
}

/// The bucket key of a value: class (2 win, 1 draw, 0 loss) and plies.
fn key(value: Value) -> (u8, u32) {
    match value {
        Some(Exact::Win(p)) => (2, p),
        None => (1, 0),
        Some(Exact::Loss(p)) => (0, p),
    }
}

/// How instructive a candidate is, larger first: whether some move would spoil the result (a
/// move that does not win, that loses sooner, or that loses a draw); then a score for features
/// the file covers least so far plus a bonus when a win or a draw hangs on one move (or on
/// very few), which is what tests a search; then the fewer good moves the better.
fn interest(a: &Analysis, features: &[&str], covered: &[&str]) -> (bool, usize, usize) {
    // The good moves: those that win, that draw, or that resist longest.
    let good = match a.value {
        Some(Exact::Win(_)) => a.winning().len(),
        None => a.drawing().len(),
        Some(Exact::Loss(_)) => a.moves.len(),
    };
    let novelty: usize =
        features.iter().map(|f| 100 / (1 + covered.iter().filter(|g| *g == f).count())).sum();
    let few = match good {
        1 => 100,
        2 | 3 => 50,
        _ => 0,
    };
    let spoil = match a.value {
        Some(Exact::Loss(_)) => a.best().len() < a.moves.len(),
        _ => good < a.moves.len(),
    };
    (spoil, novelty + few, usize::MAX - good)
}

/// The whole of `positions/endgames-hexdame.epd`, and a summary of the work for the test's
/// output (each material set with its solving time).
pub fn file_text() -> (String, String) {
    let (body, solver) = endgames(MAX_PIECES);
    let lines: Vec<&str> = body.lines().collect();
    let count = |word: &str| lines.iter().filter(|l| l.contains(word)).count();
    let white = lines.iter().filter(|l| l.starts_with("W:")).count();
    let mut sets = String::new();
    let mut summary = String::new();
    for (material, stats) in solver.stats() {
        writeln!(
            sets,
            "#   {}: {} positions, {} won, {} lost, {} drawn, longest {} {}",
            material.name(),
            thousands(stats.positions),
            thousands(stats.wins),
            thousands(stats.losses),
            thousands(stats.draws),
            stats.longest,
            if stats.longest == 1 { "ply" } else { "plies" }
        )
        .expect("writing to a string");
        writeln!(summary, "{}: {:.1} s", material.name(), stats.seconds).expect("writing to a string");
    }
    let header = format!(
        "\
# HexDame endgames with their exact values (wins, losses and draws), for `steere solve`.
#
# Format, one position per line:
#   won:   FEN bm MOVES; win N; id \"hd-eg-NNN\"; c0 \"MATERIAL; plies P; FEATURES\"; c1 \"fastest MOVES\";
#   lost:  FEN loss N; id ...; c0 \"MATERIAL; plies P; FEATURES\"; c1 \"longest MOVES\";
#   drawn: FEN bm MOVES; am MOVES; draw; id ...; c0 \"MATERIAL; draw\";
# The FEN is the rules' SIDE:WLIST:BLIST and moves are written in their canonical text
# (docs/rules/hexdame.md). P is the exact distance in plies with best play, the winner
# hurrying and the loser resisting; N = ceil(P / 2) counts the side to move's own moves (as
# UCI `mate N`). A game is lost only on the loser's own turn, so P is odd in a win and even in
# a loss; `loss 0` means the side to move has no legal move (and no c1). For a win, bm lists
# every winning move at any distance and c1 the fastest; for a loss, c1 lists the moves that
# resist longest. A draw is a position from which neither side can force a win: with best play
# the game goes on until threefold repetition draws it. For a draw, bm lists every move that
# keeps the draw and am (left out when empty) every move that loses. MATERIAL names White's
# pieces, then Black's, a K per king and an M per man: `KM v K` is a White king and man against
# a Black king. FEATURES name what one line of best play exercises (at every ply the first, in
# text order, of the fastest wins or longest losses): promotion (a man ends a move on his far
# edge), multi-capture (a move takes two or more pieces), majority (the majority rule forbids a
# complete capture sequence that takes fewer pieces) and blocked (the loser is left with pieces
# but no move).
#
# Origin: every value and move list comes from the retrograde solver of
# engine-tests/hexdame_solver, which solves every position of a material set over the
# independent reference generator engine-tests/hexdame_reference (no code shared with the
# engine). Every set of 2 to {max_pieces} pieces with pieces on both sides was solved; the
# colour-swapped sets have the same counts. Positions (either side to move):
{sets}#
# Kept (seed {seed}): from each set, a random sample of {sample} positions for each of the win
# distances nearest the longest up to {max_plies} plies, two thirds and one third of it, the
# loss distances nearest the longest and half of it, 0 when the set has a position without a
# move, and the draws ({draws_kept} positions). Each taken from its sample preferring a position where a
# wrong move exists, then features the file covers least and a result that hangs on one move or
# very few; about half of them turned round, colours swapped, so that either colour may be the
# stronger. Sorted: wins, losses, then draws, by distance. {total} positions: {wins} won,
# {losses} lost, {draws} drawn; {white} with White to move, {black} with Black.
#
# Regenerate (deterministic, about 5 minutes on two idle cores and 2 GB of memory; without the
# variable the test checks that this file is reproduced):
# STEERE_REGENERATE=1 cargo test --test hexdame_suites -- --ignored regenerate_hexdame_endgames

# variant: hexdame
",
        max_pieces = MAX_PIECES,
        seed = SEED,
        sample = SAMPLE,
        max_plies = MAX_PLIES,
        draws_kept = DRAWS,
        total = lines.len(),
        wins = count("; win "),
        losses = lines
            .iter()
            .filter(|l| l.split_once(' ').is_some_and(|(_, rest)| rest.starts_with("loss ")))
            .count(),
        draws = count("; draw; "),
        black = lines.len() - white,
    );
    (header + &body, summary)
}

/// Solves every material set of up to `max_pieces` pieces and returns the position lines of
/// the file, with the solver (for its statistics).
pub fn endgames(max_pieces: u8) -> (String, Solver) {
    let mut solver = Solver::new();
    solver.verbose = true; // progress on stderr: the whole run takes minutes
    let mut rng = Rng(SEED);
    let mut kept: Vec<Kept> = Vec::new();
    let mut covered: Vec<&'static str> = Vec::new();
    for material in materials(max_pieces) {
        solver.ensure(material);
        let mut present: BTreeMap<(u8, u32), u64> = BTreeMap::new();
        for (_, value) in solver.slots(material) {
            *present.entry(key(value)).or_insert(0) += 1;
        }
        let wanted = targets(&present);
        // A seeded reservoir sample of each wanted bucket, in slot order.
        let mut samples: BTreeMap<(u8, u32), (u64, Vec<u64>)> = BTreeMap::new();
        for v in &wanted {
            samples.insert(key(*v), (0, Vec::new()));
        }
        for (slot, value) in solver.slots(material) {
            if let Some((seen, sample)) = samples.get_mut(&key(value)) {
                *seen += 1;
                if sample.len() < SAMPLE {
                    sample.push(slot);
                } else {
                    let j = rng.below(*seen as usize);
                    if j < SAMPLE {
                        sample[j] = slot;
                    }
                }
            }
        }
        for (bucket, (_, sample)) in samples {
            let count = wanted.iter().filter(|v| key(**v) == bucket).count();
            let mut candidates: Vec<(Position, Analysis, Vec<&'static str>)> = sample
                .iter()
                .map(|&slot| {
                    let pos = solver.slot_position(material, slot);
                    let analysis = solver.analyse(&pos);
                    let features = features(&solver, &pos);
                    (pos, analysis, features)
                })
                .collect();
            for _ in 0..count.min(candidates.len()) {
                let best = (0..candidates.len())
                    .max_by_key(|&i| (interest(&candidates[i].1, &candidates[i].2, &covered), usize::MAX - i))
                    .expect("non-empty");
                let (pos, analysis, features) = candidates.remove(best);
                covered.extend(features.iter().copied());
                // Either colour may be the stronger one: turn about half the positions round
                // (the moves' names change with the board, so they are analysed again).
                let (pos, material, analysis) = if rng.below(2) == 1 {
                    let turned = flip(&pos);
                    let analysis = solver.analyse(&turned);
                    (turned, material.swapped(), analysis)
                } else {
                    (pos, material, analysis)
                };
                kept.push(Kept { pos, material, analysis, features });
            }
        }
    }
    kept.sort_by_key(|k| {
        let (class, plies) = key(k.analysis.value);
        (std::cmp::Reverse(class), plies, k.material.solve_order(), k.pos.to_fen())
    });
    let mut body = String::new();
    for (i, k) in kept.iter().enumerate() {
        writeln!(body, "{}", epd_line(k, i + 1)).expect("writing to a string");
    }
    (body, solver)
}

/// One line of the file for the `number`-th position kept.
fn epd_line(k: &Kept, number: usize) -> String {
    let a = &k.analysis;
    let (fen, id, material) = (k.pos.to_fen(), format!("hd-eg-{number:03}"), k.material.name());
    let mut comment = material.clone();
    if let Some(value) = a.value {
        write!(comment, "; plies {}", value.plies()).expect("writing to a string");
        for f in &k.features {
            write!(comment, "; {f}").expect("writing to a string");
        }
    }
    match a.value {
        Some(value @ Exact::Win(_)) => format!(
            "{fen} bm {}; {}; id \"{id}\"; c0 \"{comment}\"; c1 \"fastest {}\";",
            a.winning().join(" "),
            value.epd(),
            a.best().join(" ")
        ),
        Some(Exact::Loss(0)) => format!("{fen} loss 0; id \"{id}\"; c0 \"{comment}\";"),
        Some(value @ Exact::Loss(_)) => format!(
            "{fen} {}; id \"{id}\"; c0 \"{comment}\"; c1 \"longest {}\";",
            value.epd(),
            a.best().join(" ")
        ),
        None => {
            let am = a.losing();
            let am = if am.is_empty() { String::new() } else { format!(" am {};", am.join(" ")) };
            format!("{fen} bm {};{am} draw; id \"{id}\"; c0 \"{material}; draw\";", a.drawing().join(" "))
        }
    }
}
