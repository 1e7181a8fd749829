//! The generators of `positions/endgames-impasse.epd` and `positions/tactics-impasse.epd`, run by the ignored
//! tests `regenerate_endgames` and `regenerate_tactics` of engine-tests/impasse_suites.rs (the files'
//! headers give the exact commands). Both are deterministic: fixed seeds, one thread.
//!
//! Every value written comes from the exhaustive [`Solver`] (rules API only, no code shared
//! with the search). The engine's search appears in one place only: it plays the self-play games
//! from which the tactics are taken, as a source of realistic positions; it decides nothing
//! about them.

use crate::common::{Rng, random_game, random_small_position};
use crate::solver::{Analysis, Exact, Solver};
use rustc_hash::FxHashSet;
use std::fmt::Write;
use steere::impasse::{Color, Move, MoveKind, Position};
use steere::search::{Limits, SearchControl, Searcher};

/// The seed of the endgame candidates.
pub const ENDGAMES_SEED: u64 = 2005;
/// Candidate positions examined for the endgame suite.
const ENDGAME_CANDIDATES: usize = 2_400;
/// Most checkers per side in an endgame position.
pub const ENDGAME_MAX_CHECKERS: u32 = 5;
/// Most checkers per side in a position taken from a random game: game positions with more are
/// mostly beyond the solver's budget (their pieces are spread over the whole board).
pub const ENDGAME_MAX_GAME_CHECKERS: u32 = 4;
/// The deepest value kept, in own moves.
pub const ENDGAME_MAX_MOVES: u32 = 20;
/// Positions the endgame solver may store (about 24 bytes each); a candidate that needs more is
/// dropped.
const ENDGAME_BUDGET: usize = 4_000_000;

/// How many positions to keep per value (`win N` or `loss N`) and side to move: more of the
/// short ones, which are cheap to check, fewer of the deep ones, which are expensive to prove.
fn endgame_quota(moves: u32) -> usize {
    match moves {
        0 => 1,
        1..=10 => 4,
        _ => 2,
    }
}

/// A solved candidate position, with where it came from.
struct Candidate {
    pos: Position,
    origin: String,
    analysis: Analysis,
}

/// A random position of [`random_small_position`] with 1 to 3 pieces per colour and at most
/// [`ENDGAME_MAX_CHECKERS`] checkers per side.
fn constructed(rng: &mut Rng) -> Position {
    loop {
        let pos = random_small_position(rng, 3);
        if few_checkers(&pos) {
            return pos;
        }
    }
}

/// True when neither side has more than [`ENDGAME_MAX_CHECKERS`] checkers.
fn few_checkers(pos: &Position) -> bool {
    pos.checkers(Color::White) <= ENDGAME_MAX_CHECKERS && pos.checkers(Color::Black) <= ENDGAME_MAX_CHECKERS
}

/// The features a suite should cover, named as in the `c0` comments (none for a finished game,
/// where nothing is left to exercise).
fn features(pos: &Position) -> Vec<&'static str> {
    let mut f = Vec::new();
    if pos.is_game_over() {
        return f;
    }
    let moves = pos.legal_moves();
    if pos.waiting_single(pos.side_to_move()).is_some() {
        f.push("waiting single (mover)");
    }
    if pos.waiting_single(pos.side_to_move().opponent()).is_some() {
        f.push("waiting single (opponent)");
    }
    if !moves.is_empty() && moves.iter().all(|m| m.kind() == MoveKind::Removal) {
        f.push("impasse");
    }
    if moves.iter().any(|m| m.crown().is_some()) {
        f.push("crown");
    }
    if moves.iter().any(|m| m.kind() == MoveKind::Transpose) {
        f.push("transpose");
    }
    f
}

/// The checker counts, as written in the `c0` comments.
fn checkers_text(pos: &Position) -> String {
    format!("checkers: white {}, black {}", pos.checkers(Color::White), pos.checkers(Color::Black))
}

/// The moves' names, sorted and separated by spaces.
fn move_list(moves: &[Move]) -> String {
    let mut names: Vec<String> = moves.iter().map(Move::to_string).collect();
    names.sort();
    names.join(" ")
}

/// The value in own moves, for bucketing.
fn own_moves(value: Exact) -> (bool, u32) {
    match value {
        Exact::Win(p) => (true, p.div_ceil(2)),
        Exact::Loss(p) => (false, p / 2),
    }
}

/// The text of `positions/endgames-impasse.epd` after its header.
pub fn endgames() -> String {
    let mut rng = Rng(ENDGAMES_SEED);
    let mut solver = Solver::new(ENDGAME_BUDGET);
    let mut seen = FxHashSet::default();
    let mut candidates = Vec::new();
    // Finished games (loss 0): eight candidates, of which the quota keeps one per side to move.
    for _ in 0..8 {
        let game = random_game(Position::startpos(), &mut rng);
        let end = *game.last().expect("a game has a position");
        candidates.push((end, format!("end of a random game, ply {}", game.len() - 1)));
    }
    for i in 0..ENDGAME_CANDIDATES {
        if i % 2 == 0 {
            candidates.push((constructed(&mut rng), "random placement".to_string()));
        } else {
            let game = random_game(Position::startpos(), &mut rng);
            let max = ENDGAME_MAX_GAME_CHECKERS;
            let tail: Vec<usize> = (0..game.len())
                .filter(|&p| {
                    let pos = &game[p];
                    !pos.is_game_over()
                        && pos.checkers(Color::White) <= max
                        && pos.checkers(Color::Black) <= max
                })
                .collect();
            if !tail.is_empty() {
                let ply = tail[rng.below(tail.len())];
                candidates.push((game[ply], format!("random game, ply {ply}")));
            }
        }
    }
    let mut solved = Vec::new();
    for (pos, origin) in candidates {
        if !seen.insert(pos) {
            continue;
        }
        // Values are facts about positions, so the table serves many candidates; it is emptied
        // when half full, so that every candidate has at least half the budget.
        if solver.len() > ENDGAME_BUDGET / 2 {
            solver.clear();
        }
        let analysis = solver.analyse(&pos);
        if let Some(analysis) = analysis
            && own_moves(analysis.value).1 <= ENDGAME_MAX_MOVES
        {
            solved.push(Candidate { pos, origin, analysis });
        }
    }
    let chosen = select(solved, &endgame_quota, &endgame_traits);
    write_lines(&chosen, "eg", &endgame_traits)
}

/// The features of [`features`], as the traits [`select`] balances.
fn endgame_traits(c: &Candidate) -> Vec<String> {
    features(&c.pos).into_iter().map(str::to_string).collect()
}

/// The EPD lines of `chosen`, with ids `PREFIX-NNN` and `c0` comments of the origin, the
/// checker counts and `traits`.
fn write_lines(chosen: &[Candidate], prefix: &str, traits: &dyn Fn(&Candidate) -> Vec<String>) -> String {
    let mut out = String::new();
    for (i, c) in chosen.iter().enumerate() {
        let mut comment = format!("{}; {}", c.origin, checkers_text(&c.pos));
        for f in traits(c) {
            comment.push_str("; ");
            comment.push_str(&f);
        }
        let id = format!("{prefix}-{:03}", i + 1);
        writeln!(out, "{}", epd_line(c, &id, &comment)).expect("writing to a string");
    }
    out
}

/// One EPD line: the FEN, `bm` and the value, the id, the comment and the fastest (or longest)
/// moves.
fn epd_line(c: &Candidate, id: &str, comment: &str) -> String {
    let a = &c.analysis;
    match a.value {
        Exact::Win(_) => format!(
            "{} bm {}; {}; id \"{id}\"; c0 \"{comment}\"; c1 \"fastest {}\";",
            c.pos.to_fen(),
            move_list(&a.winning),
            a.value.epd(),
            move_list(&a.fastest)
        ),
        Exact::Loss(0) => format!("{} loss 0; id \"{id}\"; c0 \"{comment}\";", c.pos.to_fen()),
        Exact::Loss(_) => format!(
            "{} {}; id \"{id}\"; c0 \"{comment}\"; c1 \"longest {}\";",
            c.pos.to_fen(),
            a.value.epd(),
            move_list(&a.fastest)
        ),
    }
}

/// Picks a varied set: up to `quota(N)` positions per value and side to move, preferring
/// `traits` the suite has covered least so far; sorted by distance, wins before losses.
fn select(
    mut solved: Vec<Candidate>,
    quota: &dyn Fn(u32) -> usize,
    traits: &dyn Fn(&Candidate) -> Vec<String>,
) -> Vec<Candidate> {
    solved.sort_by_key(|c| (own_moves(c.analysis.value).1, !own_moves(c.analysis.value).0));
    let mut chosen: Vec<Candidate> = Vec::new();
    let mut covered: Vec<String> = Vec::new();
    let mut rest = solved;
    while !rest.is_empty() {
        let key = |c: &Candidate| (own_moves(c.analysis.value), c.pos.side_to_move());
        let bucket_key = key(&rest[0]);
        let (mut bucket, others): (Vec<Candidate>, Vec<Candidate>) =
            rest.into_iter().partition(|c| key(c) == bucket_key);
        rest = others;
        for _ in 0..quota(bucket_key.0.1).min(bucket.len()) {
            // The candidate whose features are rarest in the suite so far (first on ties).
            let novelty = |c: &Candidate| -> usize {
                traits(c).iter().map(|f| 100 / (1 + covered.iter().filter(|g| *g == f).count())).sum()
            };
            let best =
                (0..bucket.len()).max_by_key(|&i| (novelty(&bucket[i]), usize::MAX - i)).expect("non-empty");
            let c = bucket.remove(best);
            covered.extend(traits(&c));
            chosen.push(c);
        }
    }
    chosen
}

/// The seed of the self-play games of the tactics suite.
pub const TACTICS_SEED: u64 = 1_740;
/// Stop after this many tactics, or after [`TACTICS_GAMES`] games.
pub const TACTICS_TARGET: usize = 50;
/// Most self-play games played for the tactics suite.
const TACTICS_GAMES: usize = 150;
/// Positions the tactics solver may store (about 24 bytes each): it walks back from the end of
/// each game until a position needs more than this.
const TACTICS_BUDGET: usize = 12_000_000;
/// Most tactics taken from one game (its earliest ones: the most checkers).
const TACTICS_PER_GAME: usize = 2;
/// Fewest checkers on the board in a tactic.
pub const TACTICS_MIN_CHECKERS: u32 = 5;
/// Fewest legal moves in a tactic.
pub const TACTICS_MIN_MOVES: usize = 4;
/// How much slower, in own moves, every other winning move must be than the best one.
pub const TACTICS_MARGIN: u32 = 2;

/// Why `analysis` makes a tactic: `Some(text)` when exactly one move wins fastest and every
/// other move loses or wins at least [`TACTICS_MARGIN`] own moves later; the text says which.
pub fn tactic_reason(analysis: &Analysis) -> Option<String> {
    let Exact::Win(best) = analysis.value else { return None };
    let [bm] = analysis.fastest.as_slice() else { return None };
    let others: Vec<u32> = analysis
        .moves
        .iter()
        .filter(|(m, _)| m != bm)
        .filter_map(|(_, v)| match v {
            Exact::Win(p) => Some(p.div_ceil(2)),
            Exact::Loss(_) => None,
        })
        .collect();
    let best = best.div_ceil(2);
    match others.iter().min() {
        None => Some("every other move loses".to_string()),
        Some(&next) if next >= best + TACTICS_MARGIN => Some(format!(
            "every other move loses or wins in {next} own moves or more ({} of them win)",
            others.len()
        )),
        Some(_) => None,
    }
}

/// The text of `positions/tactics-impasse.epd` after its header: decisive positions of self-play games
/// where one move wins and every other move loses or is clearly slower, as the exhaustive
/// solver shows. `progress` sees each line as it is found.
pub fn tactics(progress: &mut dyn FnMut(&str)) -> String {
    let mut rng = Rng(TACTICS_SEED);
    let mut searcher = Searcher::<Position>::new(16, 1);
    let mut out = String::new();
    let mut count = 0;
    for game_index in 0..TACTICS_GAMES {
        if count >= TACTICS_TARGET {
            break;
        }
        // Four random plies for variety, then the engine plays both sides at a small depth.
        let depth = 3 + (game_index % 3) as u32;
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let mut pos = Position::startpos();
        let mut game = Vec::new();
        searcher.new_game();
        while !pos.is_game_over() {
            game.push(pos);
            let mv = if game.len() <= 4 {
                let moves = pos.legal_moves();
                moves[rng.below(moves.len())]
            } else {
                let result = searcher.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
                result.best_move.expect("an unfinished game has a move")
            };
            pos = pos.make_move(mv);
        }
        // Walk back from the end: each position's value reuses those of the later ones.
        let mut solver = Solver::new(TACTICS_BUDGET);
        let mut found = Vec::new();
        for (ply, pos) in game.iter().enumerate().rev() {
            let Some(analysis) = solver.analyse(pos) else { break };
            let total = pos.checkers(Color::White) + pos.checkers(Color::Black);
            if total >= TACTICS_MIN_CHECKERS
                && pos.legal_moves().len() >= TACTICS_MIN_MOVES
                && let Some(reason) = tactic_reason(&analysis)
            {
                found.push((ply, *pos, analysis, reason));
            }
        }
        // The earliest (most checkers) first.
        for (ply, pos, analysis, reason) in found.into_iter().rev().take(TACTICS_PER_GAME) {
            count += 1;
            let line = format!(
                "{} bm {}; id \"tac-{count:03}\"; c0 \"self-play game {} (depth {depth}), ply {ply}; {}; \
                 {} moves; {} by the exhaustive solver; {reason}\";",
                pos.to_fen(),
                analysis.fastest[0],
                game_index + 1,
                checkers_text(&pos),
                analysis.moves.len(),
                analysis.value.epd(),
            );
            progress(&line);
            writeln!(out, "{line}").expect("writing to a string");
        }
    }
    out
}

/// The seed of the deep endgame candidates.
pub const DEEP_SEED: u64 = 2026;
/// The shortest value kept in the deep suite, in own moves.
pub const DEEP_MIN_MOVES: u32 = 20;
/// The longest value kept in the deep suite, in own moves.
pub const DEEP_MAX_MOVES: u32 = 50;
/// Random placements solved for the deep suite, by number of pieces (stacks) on the board:
/// positions of 4 stacks solve in about a second, of 5 in up to 15 seconds, and of 6 take
/// minutes or more than any budget (so none are tried).
const DEEP_ROOTS: [(usize, usize); 2] = [(4, 150), (5, 60)];
/// Positions the deep solver may store (about 40 bytes each with the table's slack).
const DEEP_BUDGET: usize = 12_000_000;
/// Most plies of the line of best play followed from each deep root (a random choice among the
/// fastest moves at each ply): its positions are solved by the root's search already, so they
/// cost nothing, and they add every shorter distance and the other side to move.
const DEEP_WALK: usize = 80;
/// Most positions kept per value and side to move.
const DEEP_QUOTA: usize = 4;

/// The pieces (stacks) on the board.
fn stacks(pos: &Position) -> u32 {
    (pos.singles(Color::White)
        | pos.singles(Color::Black)
        | pos.doubles(Color::White)
        | pos.doubles(Color::Black))
    .count_ones()
}

/// The material, as written in the `c0` comments and balanced by the selection.
fn material(pos: &Position) -> String {
    let side = |c: Color| format!("{}s{}d", pos.singles(c).count_ones(), pos.doubles(c).count_ones());
    format!("material: white {} v black {}", side(Color::White), side(Color::Black))
}

/// The traits the deep selection balances: the material and the features.
fn deep_traits(c: &Candidate) -> Vec<String> {
    let mut t = endgame_traits(c);
    t.push(material(&c.pos));
    t
}

/// The text of `positions/endgames-impasse-deep.epd` after its header: positions of random
/// placements of 4 and 5 stacks, and of lines of best play from them, whose exact value is
/// [`DEEP_MIN_MOVES`] to [`DEEP_MAX_MOVES`] own moves.
pub fn deep_endgames() -> String {
    let mut rng = Rng(DEEP_SEED);
    let mut solver = Solver::new(DEEP_BUDGET);
    let mut seen = FxHashSet::default();
    let mut solved = Vec::new();
    let deep = |a: &Analysis| (DEEP_MIN_MOVES..=DEEP_MAX_MOVES).contains(&own_moves(a.value).1);
    for (pieces, count) in DEEP_ROOTS {
        for root_index in 0..count {
            let root = loop {
                let pos = random_small_position(&mut rng, 3);
                // Doubles travel the whole board back and bear off one checker at a time: without
                // them distances of 20 own moves are rare.
                let doubles = (pos.doubles(Color::White) | pos.doubles(Color::Black)).count_ones() as usize;
                if stacks(&pos) as usize == pieces && 2 * doubles >= pieces {
                    break pos;
                }
            };
            // Each root gets the whole budget: its walk reuses the values just stored.
            solver.clear();
            let Some(analysis) = solver.analyse(&root) else { continue };
            if !deep(&analysis) {
                continue;
            }
            let origin = format!("random placement {pieces}-{}", root_index + 1);
            let mut pos = root;
            let mut current = analysis;
            for ply in 0..=DEEP_WALK {
                if deep(&current) && seen.insert(pos) {
                    let origin =
                        if ply == 0 { origin.clone() } else { format!("{origin}, best play ply {ply}") };
                    solved.push(Candidate { pos, origin, analysis: current.clone() });
                }
                let moves = &current.fastest;
                if moves.is_empty() || own_moves(current.value).1 < DEEP_MIN_MOVES {
                    break;
                }
                pos = pos.make_move(moves[rng.below(moves.len())]);
                match solver.analyse(&pos) {
                    Some(a) => current = a,
                    None => break,
                }
            }
        }
    }
    let chosen = select(solved, &|_| DEEP_QUOTA, &deep_traits);
    let with_material = |c: &Candidate| {
        let mut t = vec![material(&c.pos)];
        t.extend(endgame_traits(c));
        t
    };
    write_lines(&chosen, "deep", &with_material)
}
