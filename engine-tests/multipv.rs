//! MultiPV in every board game: the lines are distinct legal root moves with legal lines and
//! ordered scores; on solved Impasse positions every line's score is the exact value of its
//! move, which the independent solver (engine-tests/impasse_solver) gives; and each line agrees
//! with a single-line search of the same depth over the moves the better lines left.
//!
//! The last comparison is made without late-move reductions and without the principal-variation
//! extension, up to depth 4 (the shape is checked to depth 5 with both on). With them, a
//! move searched as a MultiPV line gets a full window where the single-line search only proved
//! it worse with a reduced null window, and a full window makes its nodes PV nodes, which the
//! extension searches deeper; so the two scores differ by design (as in every engine with
//! reductions or PV extensions: at depth 3 of an Impasse bench position, 65 against 70); and deeper, table entries that one search stored for its other lines cut
//! off parts of the next iteration that the other search has to search. At depth 5 that already
//! happens: with the tapered Impasse weights, line 2 of `8/8/3w1W2/4B3/8/4W3/3B3w/8 w` scores
//! -163 where the search without line 1's move gives -152.

mod common;
#[path = "impasse_solver/mod.rs"]
mod solver;

use solver::{Value, solve_upto};
use steere::game::{BoardRules, Game};
use steere::impasse::Position;
use steere::search::{Limits, Score, SearchControl, SearchParams, SearchResult, Searcher};
use steere::variants::{Family, VARIANTS, Variant};

/// A fresh one-thread search of `pos` to `depth` with `multipv` lines, among `only` (move
/// codes; empty: every move).
fn search<G: Game>(
    pos: &G,
    depth: u32,
    multipv: usize,
    params: SearchParams,
    only: Vec<u16>,
) -> SearchResult<G::Move> {
    let mut searcher = Searcher::<G>::new(16, 1);
    searcher.set_params(params);
    let limits = Limits { depth: Some(depth), multipv, search_moves: only, ..Limits::default() };
    searcher.search(pos, &limits, &SearchControl::new(), &mut |_| {})
}

/// The shape every MultiPV result must have: `min(wanted, legal moves)` lines of distinct legal
/// root moves, each line a legal sequence, scores never rising, the first line the result's.
fn assert_lines<G: Game + std::fmt::Debug>(pos: &G, result: &SearchResult<G::Move>, wanted: usize) {
    let legal = pos.legal_moves();
    let legal = legal.as_ref();
    assert_eq!(result.lines.len(), wanted.min(legal.len()), "lines of {pos:?}");
    let mut firsts = Vec::new();
    for line in &result.lines {
        let first = line.pv[0];
        assert!(legal.contains(&first), "{pos:?}: {first} is not legal");
        assert!(!firsts.contains(&first), "{pos:?}: {first} twice");
        firsts.push(first);
        let mut walk = *pos;
        for &mv in &line.pv {
            assert!(walk.legal_moves().as_ref().contains(&mv), "{pos:?}: line {:?} breaks at {mv}", line.pv);
            walk = walk.make_move(mv);
        }
    }
    let values: Vec<i32> = result.lines.iter().map(|l| l.score.to_internal()).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{pos:?}: scores not ordered: {values:?}");
    assert_eq!((result.lines[0].score, &result.lines[0].pv), (result.score, &result.pv), "{pos:?}");
}

/// Every board game's bench positions at depths 2 to 5, three lines: the shape, and to depth 4
/// each line against single-line searches (no reductions; see the module docs).
fn lines_agree_with_single_searches<G: BoardRules>(variant: Variant<G>) {
    let exact = SearchParams { lmr: false, extensions: false, ..SearchParams::default() };
    let mut compared = 0;
    for pos in variant.bench_positions() {
        for depth in 2..=5 {
            assert_lines(&pos, &search(&pos, depth, 3, SearchParams::default(), Vec::new()), 3);
            let multi = search(&pos, depth, 3, exact, Vec::new());
            assert_lines(&pos, &multi, 3);
            if depth > 4 {
                continue;
            }
            let single = search(&pos, depth, 1, exact, Vec::new());
            assert_eq!(multi.score, single.score, "{} at depth {depth}: the best line", pos.fen());
            // Line 2 is the best of the moves line 1 left: a search among those finds its score.
            if multi.lines.len() >= 2 {
                let first = multi.lines[0].pv[0];
                let rest: Vec<u16> = pos
                    .legal_moves()
                    .as_ref()
                    .iter()
                    .filter(|&&m| m != first)
                    .map(|&m| G::move_code(m))
                    .collect();
                let second = search(&pos, depth, 1, exact, rest);
                assert_eq!(multi.lines[1].score, second.score, "{} at depth {depth}: line 2", pos.fen());
            }
            compared += 1;
        }
    }
    assert!(compared >= 40, "{}: {compared} searches compared", variant.name());
}

#[test]
fn multipv_lines_agree_with_single_line_searches_in_every_board_game() {
    for info in VARIANTS.iter().filter(|v| v.family == Family::Board) {
        steere::with_variant!(board info.name, |variant| lines_agree_with_single_searches(variant)).unwrap();
    }
}

/// Solved positions: with as many lines as moves, every move gets its exact value, which the
/// solver gives (proven values do not depend on the path, so this holds with every technique
/// on); the best line is the MultiPV 1 search's.
#[test]
fn every_line_of_a_solved_position_has_its_moves_exact_value() {
    let fens = [
        "8/8/8/8/1w1B4/8/8/8 w",
        "8/8/5B2/8/8/8/8/2w5 w",
        "8/8/5W2/6B1/8/8/8/8 w",
        "8/8/3W4/2B5/1B6/8/8/8 w",
        "8/8/8/2W5/5w2/b7/8/8 w",
        "8/4W3/8/4b3/1W6/8/8/8 w",
    ];
    let mut checked = 0;
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        let all = pos.legal_moves().len();
        for threads in [1, 2] {
            let mut searcher = Searcher::<Position>::new(16, threads);
            let limits = Limits { depth: Some(12), multipv: all, ..Limits::default() };
            let multi = searcher.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
            assert_lines(&pos, &multi, all);
            let single = search(&pos, 12, 1, SearchParams::default(), Vec::new());
            assert_eq!(multi.score, single.score, "{fen}: the best line");
            for line in &multi.lines {
                let expected = match solve_upto(&pos.make_move(line.pv[0]), 9) {
                    Value::Loss(k) => Score::Win(k + 1),
                    Value::Win(k) => Score::Loss(k + 1),
                    Value::Unknown => continue,
                };
                assert_eq!(line.score, expected, "{fen}: {} with {threads} threads", line.pv[0]);
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "only {checked} lines with a known value");
}

/// Without MultiPV the result has its one line; a finished game has none.
#[test]
fn one_line_without_multipv_and_none_in_a_finished_game() {
    let pos = Position::startpos();
    let result = search(&pos, 4, 0, SearchParams::default(), Vec::new());
    assert_lines(&pos, &result, 1);
    // A lone waiting single is removed at once (an impasse), which wins: the game is over.
    let last = Position::from_fen("1w6/8/8/8/8/8/8/b7 w").unwrap();
    let over = last.make_move(last.legal_moves()[0]);
    assert!(over.outcome().is_some());
    assert!(search(&over, 4, 3, SearchParams::default(), Vec::new()).lines.is_empty());
}
