//! The generator of `positions/endgames-dipole.epd`, run by the ignored test
//! `regenerate_dipole_endgames` of engine-tests/dipole_suites.rs (the file's header gives the
//! exact command). Deterministic: fixed seed, one thread, no hash-map iteration order in the
//! output.
//!
//! Every value and move list written comes from the exhaustive [`Solver`] (the rules API of
//! `steere::dipole` only, no code shared with the search). The candidates are random placements
//! of a few small stacks, placements built around a blocked single (for passes), positions near
//! the end of uniformly random games and the final positions of such games; the features of
//! each position are read off a principal variation, so that the file covers passes, exits,
//! captures, merges and self-eliminations in best play, not merely among the legal moves.

use crate::dipole_solver::{Analysis, Exact, Solver};
use rustc_hash::FxHashSet;
use std::fmt::Write;
use steere::dipole::{Color, Move, MoveKind, Position, Variant};
use steere::tools::rng::SplitMix64 as Rng;

/// The seed of the candidates.
pub const SEED: u64 = 2007;
/// Random placements examined.
const PLACEMENTS: usize = 360;
/// Placements around a blocked single examined (see [`blocked_placement`]).
const BLOCKED: usize = 120;
/// Random games from the start position whose late positions are examined.
const GAMES: usize = 300;
/// Random games whose final positions are examined (for `loss 0`).
const FINAL_GAMES: usize = 100;
/// Most stacks per colour in a random placement.
pub const MAX_STACKS: usize = 3;
/// Tallest stack in a random placement.
pub const MAX_HEIGHT: u32 = 3;
/// Most checkers per side in a candidate, placed or from a game (final positions aside).
pub const MAX_CHECKERS: u32 = 5;
/// Most checkers on the board in a candidate: with 8 or more, most candidates need more than
/// the [`BUDGET`], and trying them took most of the generator's time.
pub const MAX_TOTAL: u32 = 7;
/// The deepest value kept, in own moves.
pub const MAX_MOVES: u32 = 20;
/// Positions the solver may store (about 24 bytes each, plus the hash map's overhead); a
/// candidate that needs more is dropped. Its table is shared by the candidates (values are facts
/// about positions) and emptied when half full, so that every candidate has at least half.
pub const BUDGET: usize = 1_000_000;

/// How many positions to keep per value in plies, winner or loser, and side to move: more of the
/// short ones, which are cheap to check, fewer of the deep ones, which are expensive to prove,
/// and one finished game per side to move, which exercises nothing but the end test.
fn quota(plies: u32) -> usize {
    match plies {
        0 => 1,
        1..=12 => 3,
        _ => 2,
    }
}

/// A solved candidate position, with where it came from and what its best play exercises.
struct Candidate {
    /// The position.
    pos: Position,
    /// Where it came from, as written first in `c0`.
    origin: String,
    /// The solver's value and moves.
    analysis: Analysis,
    /// What its principal variation exercises ([`features`]).
    features: Vec<&'static str>,
}

/// A random valid placement: 1 to [`MAX_STACKS`] stacks per colour of height 1 to
/// [`MAX_HEIGHT`] on distinct random dark squares, with a random side to move, drawn again
/// until it has few enough checkers ([`few_checkers`]). Any such placement is a legal unfinished Dipole position (the rules
/// allow a stack of any height on any dark square, its owner's rows included).
fn placement(rng: &mut Rng) -> Position {
    'draw: loop {
        let mut board: [Option<(Color, u32)>; 32] = [None; 32];
        for color in [Color::White, Color::Black] {
            for _ in 0..1 + rng.below(MAX_STACKS) {
                if !put_random_stack(&mut board, rng, color, MAX_HEIGHT) {
                    continue 'draw;
                }
            }
        }
        if let Some(pos) = finish_placement(&board, rng) {
            return pos;
        }
    }
}

/// A placement built around a pass: a single of a random colour away from the side edges and
/// the far edge, whose two diagonally forward neighbours hold enemy stacks of 2 or 3. With one
/// checker it can neither capture them nor exit (its smallest exit is 2 or more), so it has no
/// move of its own (unless the extra enemy single below lands diagonally behind it); a random
/// extra stack of its colour (height 1 to [`MAX_HEIGHT`]) and a random extra enemy single may
/// join, each with probability one half, and either side may move. Best play from such
/// positions often passes, which random placements seldom do.
fn blocked_placement(rng: &mut Rng) -> Position {
    'draw: loop {
        let mut board: [Option<(Color, u32)>; 32] = [None; 32];
        let us = [Color::White, Color::Black][rng.below(2)];
        let them = us.opponent();
        let (file, ahead) = (1 + rng.below(6), 1 + rng.below(6));
        let rank = if us == Color::White { 7 - ahead } else { ahead };
        if (file + rank) % 2 != 0 {
            continue;
        }
        let front = if us == Color::White { rank + 1 } else { rank - 1 };
        board[rank * 4 + file / 2] = Some((us, 1));
        for side_file in [file - 1, file + 1] {
            let height = 2 + rng.below(2) as u32;
            board[front * 4 + side_file / 2] = Some((them, height));
        }
        for (color, tallest) in [(us, MAX_HEIGHT), (them, 1)] {
            if rng.below(2) == 0 && !put_random_stack(&mut board, rng, color, tallest) {
                continue 'draw;
            }
        }
        if let Some(pos) = finish_placement(&board, rng) {
            return pos;
        }
    }
}

/// Puts a stack of `color` with a random height from 1 to `tallest` on a random dark square;
/// false (and nothing put) when the square is taken, for the caller to draw again.
fn put_random_stack(
    board: &mut [Option<(Color, u32)>; 32],
    rng: &mut Rng,
    color: Color,
    tallest: u32,
) -> bool {
    let square = rng.below(32);
    let height = 1 + rng.below(tallest as usize) as u32;
    if board[square].is_some() {
        return false;
    }
    board[square] = Some((color, height));
    true
}

/// The position of a placement with a random side to move, if it has few enough checkers
/// ([`few_checkers`]).
fn finish_placement(board: &[Option<(Color, u32)>; 32], rng: &mut Rng) -> Option<Position> {
    let side = [Color::White, Color::Black][rng.below(2)];
    let fen = board_fen(board, side);
    let pos = Position::from_fen(Variant::Dipole, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    few_checkers(&pos).then_some(pos)
}

/// The canonical FEN of a board given as the 32 dark squares in the engine's order (a1, c1,
/// e1, g1, b2, ...: `rank * 4 + file / 2`), written here from the rules' FEN grammar so that
/// the generator builds its positions as text, the one form every reader must accept.
fn board_fen(board: &[Option<(Color, u32)>; 32], side: Color) -> String {
    let mut ranks = Vec::new();
    for rank in (0..8).rev() {
        let (mut tokens, mut empty) = (Vec::new(), 0);
        for file in 0..8 {
            let stack = if (file + rank) % 2 == 0 { board[rank * 4 + file / 2] } else { None };
            match stack {
                None => empty += 1,
                Some((color, height)) => {
                    if empty > 0 {
                        tokens.push(empty.to_string());
                        empty = 0;
                    }
                    tokens.push(format!("{}{height}", color.fen_char()));
                }
            }
        }
        if empty > 0 {
            tokens.push(empty.to_string());
        }
        ranks.push(tokens.join(","));
    }
    format!("{} {}", ranks.join("/"), side.fen_char())
}

/// Plays uniformly random moves from the start position until the game ends; returns every
/// position of the game, the start first and the finished position last.
fn random_game(rng: &mut Rng) -> Vec<Position> {
    let mut game = vec![Position::startpos(Variant::Dipole)];
    let mut pos = game[0];
    while !pos.is_game_over() {
        let moves = pos.legal_moves();
        pos = pos.make_move(moves[rng.below(moves.len())]);
        game.push(pos);
        assert!(game.len() <= 4_246 + 1, "a game longer than the rules' bound: {}", pos.to_fen());
    }
    game
}

/// True when neither side has more than [`MAX_CHECKERS`] checkers and both together no more
/// than [`MAX_TOTAL`].
fn few_checkers(pos: &Position) -> bool {
    let (white, black) = (pos.checkers(Color::White), pos.checkers(Color::Black));
    white <= MAX_CHECKERS && black <= MAX_CHECKERS && white + black <= MAX_TOTAL
}

/// What a move does in `pos`, named as in the `c0` comments: `pass`, `exit`, `capture`,
/// `merge` or `plain`. The landing square of a step decides (empty, own or enemy stack).
pub fn move_kind(pos: &Position, mv: Move) -> &'static str {
    match mv.kind() {
        MoveKind::Pass => "pass",
        MoveKind::Exit => "exit",
        MoveKind::Step => {
            let (file, rank) = mv.to();
            let square = Variant::Dipole.square(file, rank).expect("a step lands on a dark square");
            match pos.stack_at(square) {
                None => "plain",
                Some((color, _)) if color == pos.side_to_move() => "merge",
                Some(_) => "capture",
            }
        }
    }
}

/// The features of a principal variation, in a fixed order: which kinds of move it contains
/// (`pass`, `exit`, `capture`, `merge`) and `self-elimination` when it ends with a player
/// moving his own last checkers off the board. Plain moves are everywhere and not named.
pub fn features(line: &[(Position, Move)]) -> Vec<&'static str> {
    let kinds: Vec<&str> = line.iter().map(|(pos, mv)| move_kind(pos, *mv)).collect();
    let mut out: Vec<&'static str> =
        ["pass", "exit", "capture", "merge"].into_iter().filter(|k| kinds.contains(k)).collect();
    // The last move ends the game: a capture wins it for the mover, an exit loses it.
    if let Some((pos, mv)) = line.last()
        && pos.make_move(*mv).winner() == Some(pos.side_to_move().opponent())
    {
        out.push("self-elimination");
    }
    out
}

/// The checker counts, as written in the `c0` comments.
pub fn checkers_text(pos: &Position) -> String {
    format!("checkers: white {}, black {}", pos.checkers(Color::White), pos.checkers(Color::Black))
}

/// The moves' names, sorted by their bytes and separated by spaces.
pub fn move_list(moves: &[Move]) -> String {
    let mut names: Vec<String> = moves.iter().map(Move::to_string).collect();
    names.sort();
    names.join(" ")
}

/// The candidates, in a fixed order: final positions of random games (lost by the side to
/// move), then random placements, blocked placements and late positions of random games in
/// turn.
fn candidates(rng: &mut Rng) -> Vec<(Position, String)> {
    let mut out = Vec::new();
    for _ in 0..FINAL_GAMES {
        let game = random_game(rng);
        let end = *game.last().expect("a game has a position");
        // A game ended by the loser's own exit leaves the winner to move (`Win(0)`): a value
        // that is no test of a solver, so only captures of the last stack are kept.
        if end.winner() != Some(end.side_to_move()) {
            out.push((end, format!("end of a random game, ply {}", game.len() - 1)));
        }
    }
    for i in 0..PLACEMENTS.max(GAMES).max(BLOCKED) {
        if i < PLACEMENTS {
            out.push((placement(rng), "random placement".to_string()));
        }
        if i < BLOCKED {
            out.push((blocked_placement(rng), "blocked placement".to_string()));
        }
        if i < GAMES {
            let game = random_game(rng);
            let late: Vec<usize> =
                (0..game.len()).filter(|&p| !game[p].is_game_over() && few_checkers(&game[p])).collect();
            if !late.is_empty() {
                let ply = late[rng.below(late.len())];
                out.push((game[ply], format!("random game, ply {ply}")));
            }
        }
    }
    out
}

/// The body of `positions/endgames-dipole.epd` (after its header), and a one-line summary of
/// the work done for the test's output.
pub fn endgames() -> (String, String) {
    let mut rng = Rng(SEED);
    let mut solver = Solver::new(BUDGET);
    let mut seen = FxHashSet::default();
    let (mut examined, mut over_budget) = (0, 0);
    let mut solved = Vec::new();
    for (pos, origin) in candidates(&mut rng) {
        if !seen.insert(pos) {
            continue;
        }
        examined += 1;
        if solver.len() > BUDGET / 2 {
            solver.clear();
        }
        let Some(analysis) = solver.analyse(&pos) else {
            over_budget += 1;
            continue;
        };
        if analysis.value.own_moves().1 > MAX_MOVES {
            continue;
        }
        let Some(line) = solver.principal_variation(&pos) else {
            over_budget += 1;
            continue;
        };
        solved.push(Candidate { pos, origin, analysis, features: features(&line) });
    }
    let solved_count = solved.len();
    let chosen = select(solved);
    let mut out = String::new();
    for (i, c) in chosen.iter().enumerate() {
        writeln!(out, "{}", epd_line(c, i + 1)).expect("writing to a string");
    }
    let summary = format!(
        "{examined} distinct candidates, {over_budget} over the budget, {solved_count} solved, {} kept",
        chosen.len()
    );
    (out, summary)
}

/// One line of the file for the `number`-th position kept.
fn epd_line(c: &Candidate, number: usize) -> String {
    let a = &c.analysis;
    let mut comment = format!("{}; {}; plies {}", c.origin, checkers_text(&c.pos), a.value.plies());
    for f in &c.features {
        comment.push_str("; ");
        comment.push_str(f);
    }
    let (fen, id) = (c.pos.to_fen(), format!("dp-eg-{number:03}"));
    match a.value {
        Exact::Win(_) => format!(
            "{fen} bm {}; {}; id \"{id}\"; c0 \"{comment}\"; c1 \"fastest {}\";",
            move_list(&a.winning),
            a.value.epd(),
            move_list(&a.fastest)
        ),
        Exact::Loss(0) => format!("{fen} loss 0; id \"{id}\"; c0 \"{comment}\";"),
        Exact::Loss(_) => format!(
            "{fen} {}; id \"{id}\"; c0 \"{comment}\"; c1 \"longest {}\";",
            a.value.epd(),
            move_list(&a.fastest)
        ),
    }
}

/// Picks a varied set: up to [`quota`] positions per value in plies, winner or loser, and side
/// to move, preferring features the file has covered least so far (the first candidate on
/// ties); sorted by distance in own moves, wins before losses, then by plies.
fn select(mut solved: Vec<Candidate>) -> Vec<Candidate> {
    let order = |c: &Candidate| {
        let (win, moves) = c.analysis.value.own_moves();
        (moves, !win, c.analysis.value.plies())
    };
    // A stable sort: within a bucket the candidates keep their generation order.
    solved.sort_by_key(order);
    let mut chosen: Vec<Candidate> = Vec::new();
    let mut covered: Vec<&'static str> = Vec::new();
    let mut rest = solved;
    while !rest.is_empty() {
        let key = |c: &Candidate| (c.analysis.value, c.pos.side_to_move());
        let bucket_key = key(&rest[0]);
        let (mut bucket, others): (Vec<Candidate>, Vec<Candidate>) =
            rest.into_iter().partition(|c| key(c) == bucket_key);
        rest = others;
        for _ in 0..quota(bucket_key.0.plies()).min(bucket.len()) {
            // The candidate whose features are rarest in the file so far.
            let novelty = |c: &Candidate| -> usize {
                c.features.iter().map(|f| 100 / (1 + covered.iter().filter(|g| *g == f).count())).sum()
            };
            let best =
                (0..bucket.len()).max_by_key(|&i| (novelty(&bucket[i]), usize::MAX - i)).expect("non-empty");
            let c = bucket.remove(best);
            covered.extend(c.features.iter().copied());
            chosen.push(c);
        }
    }
    // Buckets come out in the sorted order already; sort again to interleave the two sides.
    chosen.sort_by_key(|c| (order(c), c.pos.side_to_move().index()));
    chosen
}
