//! Search tests: exact win/loss scores checked against an exhaustive solver, legality of the
//! best move in every situation (finished game, stop, time and node limits, several threads),
//! and the reproducibility of the bench signature.
//!
//! The expected values come from the rules and from `solver::solve` (engine-tests/impasse_solver, shared
//! with the solve suites), a plain depth-limited minimax over the rules API with no pruning and no
//! table, which shares no code with the search. Slow measurements (self-play matches) are
//! `#[ignore]`d.

mod common;
#[path = "impasse_solver/mod.rs"]
mod solver;

use common::{Rng, random_small_position};
use solver::{Value, solve, solve_upto};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use steere::game::Game;
use steere::impasse::{Move, Position};
use steere::search::{Clock, Limits, Score, SearchControl, SearchInfo, SearchParams, SearchResult, Searcher};

/// A fresh searcher's result at a fixed depth.
fn search_depth(pos: &Position, depth: u32, threads: usize) -> SearchResult<Move> {
    search_depth_with(pos, depth, threads, SearchParams::default())
}

/// A fresh searcher's result at a fixed depth with the switches `params`.
fn search_depth_with(pos: &Position, depth: u32, threads: usize, params: SearchParams) -> SearchResult<Move> {
    let mut searcher = Searcher::<Position>::new(16, threads);
    searcher.set_params(params);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    searcher.search(pos, &limits, &SearchControl::new(), &mut |_| {})
}

fn assert_legal(pos: &Position, mv: Option<Move>) -> Move {
    let mv = mv.unwrap_or_else(|| panic!("no move in the unfinished position {pos}"));
    assert!(pos.legal_moves().contains(&mv), "illegal best move {mv} in {pos}");
    mv
}

/// Constructed positions with few checkers, and the solver's exact value of each.
const EXACT: [(&str, Value); 12] = [
    // A lone waiting single: no basic move, so the impasse removal wins at once.
    ("1w6/8/8/8/8/8/8/b7 w", Value::Win(1)),
    ("7W/8/8/8/8/b7/8/8 b", Value::Win(3)),
    ("8/8/8/8/1w1B4/8/8/8 w", Value::Win(3)),
    ("8/8/5B2/8/8/8/8/2w5 w", Value::Win(5)),
    ("8/8/5b2/8/8/8/3w4/B7 w", Value::Win(5)),
    ("8/8/5W2/6B1/8/8/8/8 w", Value::Win(7)),
    ("8/8/8/8/8/4w3/1B6/8 b", Value::Win(7)),
    ("8/8/3W4/2B5/1B6/8/8/8 w", Value::Win(9)),
    ("8/8/8/2B5/5w2/8/8/2w5 b", Value::Win(9)),
    ("8/8/8/2W5/5w2/b7/8/8 w", Value::Loss(4)),
    ("8/4W3/8/4b3/1W6/8/8/8 w", Value::Loss(6)),
    ("8/8/8/w7/7b/8/7B/8 b", Value::Loss(8)),
];

#[test]
fn the_solver_confirms_the_constructed_values() {
    for (fen, expected) in EXACT {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(solve_upto(&pos, 9), expected, "{fen}");
    }
}

#[test]
fn finds_every_constructed_win_and_loss_with_its_exact_length() {
    for (fen, expected) in EXACT {
        let pos = Position::from_fen(fen).unwrap();
        for depth in [12, 16] {
            let result = search_depth(&pos, depth, 1);
            let mv = assert_legal(&pos, result.best_move);
            match expected {
                Value::Win(p) => {
                    assert_eq!(result.score, Score::Win(p), "{fen} at depth {depth}");
                    // The move must keep the shortest win: the opponent then loses in p - 1.
                    assert_eq!(solve(&pos.make_move(mv), p - 1), Value::Loss(p - 1), "{fen}: {mv}");
                }
                Value::Loss(p) => assert_eq!(result.score, Score::Loss(p), "{fen} at depth {depth}"),
                Value::Unknown => unreachable!(),
            }
            // The principal variation is a legal line that ends the game on time.
            let mut line = pos;
            for &m in &result.pv {
                line = line.make_move(assert_legal(&line, Some(m)));
            }
            if let Value::Win(p) | Value::Loss(p) = expected {
                assert_eq!(result.pv.len(), p as usize, "{fen}: pv {:?}", result.pv);
                assert!(line.is_game_over(), "{fen}: the pv does not end the game");
            }
        }
    }
}

/// The principal-variation extension (crowns and bear-offs, `search/negamax.rs`): a search to
/// a fixed depth below a win's length still proves that win, at its exact length, when the
/// winning line is a race of bear-offs. Without the extension no line reaches past the
/// iteration's depth, and a 6-ply search cannot see a 7-ply win.
/// The search runs with proving mode's switches (no late-move reductions): with the playing
/// defaults, the same 6-ply search scores this position heuristically (+191).
#[test]
fn a_win_one_ply_past_the_horizon_is_proven_along_its_bear_offs() {
    // positions/endgames-impasse.epd, eg-052: White bears off and wins in 4 own moves.
    let pos = Position::from_fen("8/2B5/8/8/8/8/3W4/6b1 w").unwrap();
    assert_eq!(solve_upto(&pos, 7), Value::Win(7));
    // Without reductions, as in proving mode (`steere solve --prove`).
    let result = search_depth_with(&pos, 6, 1, SearchParams { lmr: false, ..SearchParams::default() });
    assert_eq!(result.score, Score::Win(7));
    let mv = assert_legal(&pos, result.best_move);
    assert_eq!(solve(&pos.make_move(mv), 6), Value::Loss(6), "{mv} does not keep the fastest win");
    // The switch: without the extension the same search cannot reach the win.
    let plain = SearchParams { lmr: false, extensions: false, ..SearchParams::default() };
    let result = search_depth_with(&pos, 6, 1, plain);
    assert!(matches!(result.score, Score::Heuristic(_)), "{:?} without the extension", result.score);
}

/// `searchmoves`: a search restricted to one root move returns that move with that move's own
/// exact value, which the solver gives independently, for every move of every constructed
/// position (including the moves that throw the win away).
#[test]
fn a_search_restricted_to_one_move_returns_that_moves_value() {
    let mut checked = 0;
    for (fen, _) in EXACT {
        let pos = Position::from_fen(fen).unwrap();
        for &mv in &pos.legal_moves() {
            let mut searcher = Searcher::<Position>::new(16, 1);
            let limits =
                Limits { depth: Some(12), search_moves: vec![Position::move_code(mv)], ..Limits::default() };
            let result = searcher.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
            assert_eq!(result.best_move, Some(mv), "{fen}");
            let expected = match solve_upto(&pos.make_move(mv), 9) {
                Value::Loss(k) => Score::Win(k + 1),
                Value::Win(k) => Score::Loss(k + 1),
                Value::Unknown => continue,
            };
            assert_eq!(result.score, expected, "{fen}: {mv}");
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} moves with a known value");
}

/// Codes of no legal move are ignored: the search then considers every move.
#[test]
fn searchmoves_with_no_legal_move_searches_every_move() {
    let pos = Position::from_fen(EXACT[1].0).unwrap();
    let mut searcher = Searcher::<Position>::new(16, 1);
    let limits = Limits { depth: Some(8), search_moves: vec![u16::MAX], ..Limits::default() };
    let result = searcher.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
    assert_legal(&pos, result.best_move);
    assert_eq!(result.score, Score::Win(3));
}

/// `go mate N`: with no other limit the search ends once a win within N own moves is proven;
/// a bound below the true distance does not end a depth-limited search early.
#[test]
fn a_mate_limit_ends_the_search_at_a_short_enough_win() {
    // A win in 9 plies, 5 own moves (EXACT, confirmed by the solver above).
    let pos = Position::from_fen("8/8/3W4/2B5/1B6/8/8/8 w").unwrap();
    let mut searcher = Searcher::<Position>::new(16, 1);
    let mut depths = Vec::new();
    let mate = Limits { mate: Some(5), ..Limits::default() };
    let result = searcher.search(&pos, &mate, &SearchControl::new(), &mut |i| depths.push(i.depth));
    assert_eq!(result.score, Score::Win(9));
    // It stopped at the first iteration that proved the win, far below the maximum depth.
    assert_eq!(depths.last(), Some(&result.depth));
    assert!(result.depth >= 9 && result.depth <= 12, "stopped at depth {}", result.depth);
    searcher.new_game();
    let too_short = Limits { mate: Some(4), depth: Some(16), ..Limits::default() };
    let result = searcher.search(&pos, &too_short, &SearchControl::new(), &mut |_| {});
    assert_eq!((result.score, result.depth), (Score::Win(9), 16));
}

#[test]
fn a_finished_game_has_no_move_and_is_lost() {
    let pos = Position::from_fen("8/8/8/8/8/8/8/b7 b").unwrap();
    let mut infos = 0;
    let mut searcher = Searcher::<Position>::new(1, 2);
    let result = searcher.search(&pos, &Limits::default(), &SearchControl::new(), &mut |_| infos += 1);
    assert_eq!(result.best_move, None);
    assert_eq!(result.score, Score::Loss(0));
    assert_eq!((result.depth, infos), (0, 0));
}

/// On random endgames the engine's proven scores are exactly the solver's, both ways: every
/// result the solver finds within 7 plies is reported with its length, and every short result
/// the engine reports is true.
#[test]
fn proven_scores_agree_with_the_solver_on_random_endgames() {
    let mut rng = Rng(2024);
    let mut decided = 0;
    for i in 0..150 {
        let pos = random_small_position(&mut rng, 2 + i % 2);
        let truth = solve_upto(&pos, 7);
        let result = search_depth(&pos, 12, 1);
        let mv = assert_legal(&pos, result.best_move);
        match (truth, result.score) {
            (Value::Win(p), score) => {
                assert_eq!(score, Score::Win(p), "{pos}");
                assert_eq!(solve(&pos.make_move(mv), p - 1), Value::Loss(p - 1), "{pos}: {mv}");
            }
            (Value::Loss(p), score) => assert_eq!(score, Score::Loss(p), "{pos}"),
            (Value::Unknown, Score::Win(p) | Score::Loss(p)) => assert!(p > 7, "{pos}: {:?}", result.score),
            (Value::Unknown, Score::Heuristic(_)) => {}
        }
        decided += usize::from(truth != Value::Unknown);
    }
    println!("{decided} of 150 positions decided within 7 plies");
    assert!(decided >= 50, "too few decided positions to be a test: {decided}");
}

/// Positions from a reproducible random walk (every stage of a game).
fn game_positions(seed: u64, games: usize, every: usize) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        let mut ply = 0;
        while !pos.is_game_over() {
            if ply % every == 0 {
                out.push(pos);
            }
            let moves = pos.legal_moves();
            pos = pos.make_move(moves[rng.below(moves.len())]);
            ply += 1;
        }
    }
    out
}

#[test]
fn multi_threaded_search_returns_legal_moves_and_sane_scores() {
    let mut searcher = Searcher::<Position>::new(8, 3);
    let limits = Limits { depth: Some(7), ..Limits::default() };
    for pos in game_positions(7, 3, 15) {
        let result = searcher.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
        assert_legal(&pos, result.best_move);
        assert_eq!(result.depth, 7);
        match result.score {
            Score::Heuristic(s) => assert!(s.abs() <= steere::search::EVAL_LIMIT, "{pos}: {s}"),
            // A proven result with several threads must still be true where the solver can tell.
            Score::Win(p) | Score::Loss(p) if p <= 5 => {
                let truth = solve_upto(&pos, p);
                let expected =
                    if matches!(result.score, Score::Win(_)) { Value::Win(p) } else { Value::Loss(p) };
                assert_eq!(truth, expected, "{pos}");
            }
            Score::Win(_) | Score::Loss(_) => {}
        }
    }
    // Constructed wins are found with several threads too.
    for (fen, expected) in EXACT {
        let pos = Position::from_fen(fen).unwrap();
        let result = search_depth(&pos, 14, 2);
        let mv = assert_legal(&pos, result.best_move);
        if let Value::Win(p) = expected {
            assert_eq!(result.score, Score::Win(p), "{fen}");
            assert_eq!(solve(&pos.make_move(mv), p - 1), Value::Loss(p - 1), "{fen}: {mv}");
        }
    }
}

#[test]
fn one_thread_fixed_depth_and_node_searches_are_reproducible() {
    let pos = game_positions(11, 1, 40)[1];
    for limits in
        [Limits { depth: Some(8), ..Limits::default() }, Limits { nodes: Some(30_000), ..Limits::default() }]
    {
        let run = || {
            let mut searcher = Searcher::<Position>::new(4, 1);
            let mut infos = Vec::new();
            let result = searcher.search(&pos, &limits, &SearchControl::new(), &mut |i| {
                infos.push((i.depth, i.score, i.nodes, i.pv.clone()))
            });
            (result.best_move, result.score, result.nodes, result.pv, infos)
        };
        assert_eq!(run(), run(), "{limits:?}");
    }
}

/// Runs the bench of a board game twice at a low depth and checks that both runs agree.
fn same_bench_twice<G: steere::game::BoardRules>(variant: steere::variants::Variant<G>) {
    let run = || {
        let control = SearchControl::new();
        let lines =
            steere::tools::searches::alpha_beta::bench(variant, 5, 1, 16, &control, &mut |_, _, _| {});
        lines.iter().map(|l| (l.best_move.map(|m| m.to_string()), l.score, l.nodes)).collect::<Vec<_>>()
    };
    let (a, b) = (run(), run());
    assert_eq!(a, b, "{}", variant.name());
    assert!(a.iter().map(|l| l.2).sum::<u64>() > 1000, "{}", variant.name());
}

/// The dice bench of a dice game, twice: the same decisions, values and node counts; and on
/// two threads the same decisions and values.
fn same_dice_bench_twice<G: steere::game::ChanceRules>(variant: steere::variants::Variant<G>) {
    let run = |helpers: &steere::chance::Helpers, cut: &str| {
        let mut lines = Vec::new();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let summary = steere::tools::searches::expectimax::bench(variant, (2, helpers), &stop, &mut |line| {
            lines.push(line.split(cut).next().unwrap_or("").to_string())
        });
        (lines, summary.split(cut).next().unwrap_or("").to_string())
    };
    let one = steere::chance::Helpers::none();
    let (a, b) = (run(&one, " time "), run(&one, " time "));
    assert_eq!(a, b, "{}", variant.name());
    assert!(a.0.len() >= 10, "{}: {:?}", variant.name(), a.0);
    let two = steere::chance::Helpers::new(2);
    assert_eq!(run(&two, " nodes ").0, run(&one, " nodes ").0, "{} on two threads", variant.name());
}

#[test]
fn the_bench_signature_is_the_same_on_two_runs() {
    for info in &steere::variants::VARIANTS {
        match info.family {
            steere::variants::Family::Board => {
                steere::with_variant!(board info.name, |variant| same_bench_twice(variant)).unwrap()
            }
            steere::variants::Family::Dice => {
                steere::with_variant!(dice info.name, |variant| same_dice_bench_twice(variant)).unwrap()
            }
        }
    }
}

#[test]
fn a_search_stopped_before_it_starts_still_returns_a_searched_legal_move() {
    let control = SearchControl::new();
    control.stop.store(true, Ordering::Relaxed);
    for pos in game_positions(3, 2, 20) {
        let mut searcher = Searcher::<Position>::new(1, 2);
        let start = Instant::now();
        let result = searcher.search(&pos, &Limits::default(), &control, &mut |_| {});
        assert!(start.elapsed() < Duration::from_millis(100));
        assert_legal(&pos, result.best_move);
        assert_eq!(result.depth, 1, "the first iteration always completes");
    }
}

/// Deadlines are measured with one thread: with more threads than free cores (a busy test
/// machine) the scheduler, not the search, decides when the helpers notice the stop flag.
#[test]
fn movetime_and_clock_deadlines_are_kept() {
    let pos = game_positions(5, 1, 30)[1];
    let mut searcher = Searcher::<Position>::new(16, 1);
    let control = SearchControl::new();
    let movetime = Limits { movetime: Some(Duration::from_millis(150)), ..Limits::default() };
    let start = Instant::now();
    let result = searcher.search(&pos, &movetime, &control, &mut |_| {});
    let elapsed = start.elapsed();
    // The deadline is checked every 1024 nodes (a fraction of a millisecond); the margin is for
    // a loaded test machine.
    assert!(elapsed >= Duration::from_millis(100) && elapsed < Duration::from_millis(220), "{elapsed:?}");
    assert_legal(&pos, result.best_move);
    // One second left and no increment: never more than a third of it.
    let clock = Clock { time: Duration::from_millis(1000), increment: Duration::ZERO, moves_to_go: None };
    let limits = Limits { clock: Some(clock), move_overhead: Duration::from_millis(10), ..Limits::default() };
    let start = Instant::now();
    let result = searcher.search(&pos, &limits, &control, &mut |_| {});
    assert!(start.elapsed() < Duration::from_millis(340), "{:?}", start.elapsed());
    assert_legal(&pos, result.best_move);
}

/// A thread that, after `ms` milliseconds, applies `signal` to `control` (a stop, a ponderhit)
/// and returns the moment it did.
fn after_ms(
    control: &Arc<SearchControl>,
    ms: u64,
    signal: fn(&SearchControl),
) -> std::thread::JoinHandle<Instant> {
    let control = Arc::clone(control);
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(ms));
        signal(&control);
        Instant::now()
    })
}

#[test]
fn stop_ends_an_infinite_search_and_ponderhit_starts_the_clock() {
    let pos = Position::startpos();
    let control = Arc::new(SearchControl::new());
    let mut searcher = Searcher::<Position>::new(16, 1);
    // Infinite: runs until stopped, then returns within a few milliseconds.
    let stopper = after_ms(&control, 120, |c| c.stop.store(true, Ordering::Relaxed));
    let limits = Limits { infinite: true, ..Limits::default() };
    let mut last_depth = 0;
    let result = searcher.search(&pos, &limits, &control, &mut |i: &SearchInfo<Move>| last_depth = i.depth);
    let stopped_at = stopper.join().unwrap();
    assert!(stopped_at.elapsed() < Duration::from_millis(50), "{:?}", stopped_at.elapsed());
    assert_legal(&pos, result.best_move);
    assert_eq!(result.depth, last_depth);

    // Pondering with a 20 ms move time: no deadline until ponderhit, then 20 ms.
    control.stop.store(false, Ordering::Relaxed);
    control.pondering.store(true, Ordering::Relaxed);
    let hitter = after_ms(&control, 100, |c| c.pondering.store(false, Ordering::Relaxed));
    let limits = Limits { movetime: Some(Duration::from_millis(20)), ..Limits::default() };
    let start = Instant::now();
    let result = searcher.search(&pos, &limits, &control, &mut |_| {});
    let hit_at = hitter.join().unwrap();
    assert!(start.elapsed() >= Duration::from_millis(100));
    assert!(hit_at.elapsed() < Duration::from_millis(70), "{:?}", hit_at.elapsed());
    assert_legal(&pos, result.best_move);
}

#[test]
fn helper_threads_stop_with_the_main_thread() {
    let control = Arc::new(SearchControl::new());
    let mut searcher = Searcher::<Position>::new(16, 4);
    let stopper = after_ms(&control, 100, |c| c.stop.store(true, Ordering::Relaxed));
    let limits = Limits { infinite: true, ..Limits::default() };
    let pos = Position::startpos();
    let result = searcher.search(&pos, &limits, &control, &mut |_| {});
    let stopped_at = stopper.join().unwrap();
    // Generous: four threads may share one core here; helpers that never stopped would hang.
    assert!(stopped_at.elapsed() < Duration::from_millis(1000), "{:?}", stopped_at.elapsed());
    assert_legal(&pos, result.best_move);
    // A movetime search with helpers returns too.
    let limits = Limits { movetime: Some(Duration::from_millis(50)), ..Limits::default() };
    let start = Instant::now();
    let result = searcher.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
    assert!(start.elapsed() < Duration::from_millis(1000), "{:?}", start.elapsed());
    assert_legal(&pos, result.best_move);
}

/// The protocol runs the search on its own thread and shares the control flags.
#[test]
fn the_searcher_can_move_to_another_thread() {
    fn send<T: Send>() {}
    fn sync<T: Sync + Send>() {}
    send::<Searcher<Position>>();
    sync::<SearchControl>();
    let handle = std::thread::spawn(|| {
        let mut searcher = Searcher::<Position>::new(1, 1);
        let limits = Limits { depth: Some(3), ..Limits::default() };
        searcher.search(&Position::startpos(), &limits, &SearchControl::new(), &mut |_| {}).best_move
    });
    assert_legal(&Position::startpos(), handle.join().unwrap());
}

#[test]
fn scores_display_and_convert_to_uci_mate() {
    assert_eq!(Score::Heuristic(35).to_string(), "cp 35");
    assert_eq!(Score::Win(7).to_string(), "win 7");
    assert_eq!(Score::Loss(6).to_string(), "loss 6");
    assert_eq!(Score::Win(1).uci_mate(), Some(1));
    assert_eq!(Score::Win(7).uci_mate(), Some(4));
    assert_eq!(Score::Loss(2).uci_mate(), Some(-1));
    assert_eq!(Score::Loss(0).uci_mate(), Some(0));
    assert_eq!(Score::Heuristic(-5).uci_mate(), None);
    for s in [Score::Win(3), Score::Loss(8), Score::Heuristic(-120)] {
        assert_eq!(Score::from_internal(s.to_internal()), s);
    }
}

/// The search depends only on the `Game` trait: a second game plugs in without change. Here a
/// trivial take-away game (Nim with one heap, take 1-3, taking the last wins) whose exact values
/// are known in closed form: the side to move loses exactly when the heap is a multiple of 4.
#[derive(Clone, Copy, Debug)]
struct Nim(u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Take(u32);

impl std::fmt::Display for Take {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Game for Nim {
    type Move = Take;
    type MoveList = Vec<Take>;
    const HISTORY_SIZE: usize = 4;
    fn legal_moves(&self) -> Vec<Take> {
        (1..=self.0.min(3)).map(Take).collect()
    }
    fn make_move(&self, mv: Take) -> Nim {
        Nim(self.0 - mv.0)
    }
    fn hash(&self) -> u64 {
        u64::from(self.0).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x1234_5678
    }
    fn outcome(&self) -> Option<steere::game::Outcome> {
        (self.0 == 0).then_some(steere::game::Outcome::Loss)
    }
    fn evaluate(&self) -> i32 {
        0
    }
    fn move_code(mv: Take) -> u16 {
        mv.0 as u16
    }
    fn history_index(&self, mv: Take) -> usize {
        mv.0 as usize
    }
    fn is_forcing(&self, _: Take) -> bool {
        false
    }
}

#[test]
fn the_search_plays_another_game_through_the_trait() {
    let mut searcher = Searcher::<Nim>::new(1, 1);
    for heap in 1..=20u32 {
        searcher.new_game();
        let limits = Limits { depth: Some(30), ..Limits::default() };
        let result = searcher.search(&Nim(heap), &limits, &SearchControl::new(), &mut |_| {});
        // From a multiple of 4, each round of two plies removes exactly 4 (the winner answers
        // x with 4 - x): a loss in heap / 2 plies. Otherwise take heap % 4 first: one ply more.
        if heap % 4 == 0 {
            assert_eq!(result.score, Score::Loss(2 * (heap / 4)), "heap {heap}");
        } else {
            assert_eq!(result.score, Score::Win(2 * (heap / 4) + 1), "heap {heap}");
            assert_eq!(result.best_move, Some(Take(heap % 4)), "heap {heap}");
        }
    }
}

/// Plays `pairs` pairs of games (each opening with both colours) between two parameter sets
/// at `nodes` nodes per move; returns the first set's points.
fn match_params(a: SearchParams, b: SearchParams, nodes: u64, pairs: usize) -> (usize, usize) {
    let mut rng = Rng(777);
    let limits = Limits { nodes: Some(nodes), ..Limits::default() };
    let (mut sa, mut sb) = (Searcher::<Position>::new(16, 1), Searcher::<Position>::new(16, 1));
    sa.set_params(a);
    sb.set_params(b);
    let mut points = 0;
    for _ in 0..pairs {
        let mut start = Position::startpos();
        for _ in 0..4 {
            let moves = start.legal_moves();
            start = start.make_move(moves[rng.below(moves.len())]);
        }
        for a_moves_first in [true, false] {
            sa.new_game();
            sb.new_game();
            let (mut pos, mut a_to_move) = (start, a_moves_first);
            while !pos.is_game_over() {
                let searcher = if a_to_move { &mut sa } else { &mut sb };
                let result = searcher.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
                pos = pos.make_move(assert_legal(&pos, result.best_move));
                a_to_move = !a_to_move;
            }
            // The side to move in a finished game has lost.
            points += usize::from(!a_to_move);
        }
    }
    (points, 2 * pairs)
}

/// Measures late-move reductions against none, at equal nodes per move. Slow: run with
/// `cargo test --release --test search -- --ignored --nocapture lmr_match`.
#[test]
#[ignore]
fn lmr_match() {
    let with = SearchParams::default();
    let without = SearchParams { lmr: false, ..with };
    let (points, games) = match_params(with, without, 20_000, 100);
    println!("LMR vs no LMR: {points}/{games}");
}
