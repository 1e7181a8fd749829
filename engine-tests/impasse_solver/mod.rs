//! The independent solvers: exact game values computed from the rules alone.
//!
//! Nothing here shares code with the engine's search (`src/search`): both solvers walk the game
//! through the rules API only (`Position::legal_moves`, `make_move`, `is_game_over`), with no
//! evaluation, no ordering and no pruning other than the obvious "a win in one move cannot be
//! beaten". They are the yardstick the search is tested against (engine-tests/search.rs,
//! engine-tests/impasse_suites.rs) and the source of `positions/endgames-impasse.epd`.
//!
//! Values follow the rules: Impasse has no draws and every game ends, so every position is a
//! win or a loss for the side to move, at an exact distance with best play: the winner takes the
//! **shortest** win, the loser the **longest** resistance. Distances are in plies here (moves of
//! either side); [`Exact::epd`] converts to the side to move's own moves of the EPD files
//! (`win N` = `2N - 1` plies, `loss N` = `2N` plies).
//!
//! - [`solve`] / [`solve_upto`]: a depth-limited minimax with no table, for values within a few
//!   plies of any position (also deep in the middle game).
//! - [`Solver`]: a full-depth minimax memoised in a hash map keyed by the position, computing
//!   the exact value of every position reachable from the one asked about. The game graph has no
//!   cycles (every move brings the game closer to its end), so a plain depth-first traversal
//!   that stores each value once is exact. Feasible for endgames with few checkers; a budget on
//!   the number of stored positions makes it give up cleanly on larger ones.
//! - [`Solver::analyse`]: the value and, for a won position, the **winning moves** (every move
//!   that wins, whatever its distance) and the **fastest moves** (those that win in the
//!   shortest distance); for a lost position, the moves that resist longest; and every move
//!   with the value it leads to. It finds and checks the positions of `positions/endgames-impasse.epd`
//!   and `positions/tactics-impasse.epd` (see `generate.rs`).
#![allow(dead_code)]

use rustc_hash::FxHashMap;
use steere::impasse::{Color, Move, MoveList, Position};

/// A game-theoretic value within a depth limit, as the depth-limited solver knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The side to move wins in this many plies at the earliest (the loser resisting).
    Win(u32),
    /// The side to move loses in this many plies at the latest (the winner hurrying).
    Loss(u32),
    /// No result within the depth searched.
    Unknown,
}

/// Exhaustive minimax to `depth` plies: a win is the shortest forced win, a loss the longest
/// resistance. Both are exact once found: a shorter win would have been found at this depth,
/// and a loss is only claimed when every move leads to such exact wins of the opponent.
pub fn solve(pos: &Position, depth: u32) -> Value {
    if pos.is_game_over() {
        return Value::Loss(0);
    }
    if depth == 0 {
        return Value::Unknown;
    }
    let (mut win, mut all_lose, mut longest) = (None::<u32>, true, 0);
    for &mv in &pos.legal_moves() {
        match solve(&pos.make_move(mv), depth - 1) {
            Value::Loss(k) => {
                win = Some(win.map_or(k + 1, |w| w.min(k + 1)));
                all_lose = false;
            }
            Value::Win(k) => longest = longest.max(k + 1),
            Value::Unknown => all_lose = false,
        }
    }
    match win {
        Some(w) => Value::Win(w),
        None if all_lose => Value::Loss(longest),
        None => Value::Unknown,
    }
}

/// The depth-limited solver's value with the least depth that decides it (iterative deepening,
/// so that short results are cheap), or `Unknown` up to `max_depth`.
pub fn solve_upto(pos: &Position, max_depth: u32) -> Value {
    (0..=max_depth).map(|d| solve(pos, d)).find(|v| *v != Value::Unknown).unwrap_or(Value::Unknown)
}

pub use crate::common::exact::Exact;

/// A position's value and its best moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The exact value.
    pub value: Exact,
    /// For a win: every move that wins, at any distance (empty for a loss).
    pub winning: Vec<Move>,
    /// For a win: the moves that win in the shortest distance; for a loss: the moves that resist
    /// longest.
    pub fastest: Vec<Move>,
    /// Every legal move with the value it leads to, for the side to move (`Win(p)`: this move
    /// wins in `p` plies counted from before it).
    pub moves: Vec<(Move, Exact)>,
}

/// A position on the solver's stack: its moves, the next one to try, and the best values seen.
struct Frame {
    pos: Position,
    moves: MoveList,
    next: usize,
    /// The shortest win found so far (in plies from this position).
    win: Option<u32>,
    /// The longest loss found so far.
    loss: u32,
}

impl Frame {
    fn new(pos: Position) -> Frame {
        Frame { moves: pos.legal_moves(), pos, next: 0, win: None, loss: 0 }
    }

    /// Takes in the value of one child.
    fn absorb(&mut self, child: Exact) {
        match child.parent() {
            Exact::Win(p) => {
                self.win = Some(self.win.map_or(p, |w| w.min(p)));
                if p == 1 {
                    // Nothing wins faster than at once: the other moves cannot change the value.
                    self.next = self.moves.len();
                }
            }
            Exact::Loss(p) => self.loss = self.loss.max(p),
        }
    }

    fn value(&self) -> Exact {
        self.win.map_or(Exact::Loss(self.loss), Exact::Win)
    }
}

/// The memoised exhaustive solver (see the module docs).
pub struct Solver {
    /// Values by board, one table per side to move.
    table: [FxHashMap<[u32; 4], u32>; 2],
    /// Give up when the tables would hold more positions than this.
    budget: usize,
}

impl Solver {
    /// A solver that stores at most `budget` positions (about 24 bytes each).
    pub fn new(budget: usize) -> Solver {
        Solver { table: [FxHashMap::default(), FxHashMap::default()], budget }
    }

    /// Positions stored so far.
    pub fn len(&self) -> usize {
        self.table[0].len() + self.table[1].len()
    }

    /// Forgets every stored value.
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(FxHashMap::clear);
    }

    fn key(pos: &Position) -> (usize, [u32; 4]) {
        let (w, b) = (Color::White, Color::Black);
        (pos.side_to_move().index(), [pos.singles(w), pos.singles(b), pos.doubles(w), pos.doubles(b)])
    }

    fn lookup(&self, pos: &Position) -> Option<Exact> {
        if pos.is_game_over() {
            return Some(Exact::Loss(0));
        }
        let (side, key) = Solver::key(pos);
        self.table[side].get(&key).copied().map(Exact::unpack)
    }

    /// The exact value of `pos`, or `None` when it would take more positions than the budget.
    pub fn value(&mut self, pos: &Position) -> Option<Exact> {
        if let Some(v) = self.lookup(pos) {
            return Some(v);
        }
        // An explicit stack instead of recursion: endgames can last a hundred plies and more.
        let mut stack = vec![Frame::new(*pos)];
        loop {
            let frame = stack.last_mut().expect("the root is popped last");
            if frame.next < frame.moves.len() {
                let child = frame.pos.make_move(frame.moves[frame.next]);
                frame.next += 1;
                match self.lookup(&child) {
                    Some(v) => frame.absorb(v),
                    None => stack.push(Frame::new(child)),
                }
                continue;
            }
            let done = stack.pop().expect("non-empty");
            let value = done.value();
            if self.len() >= self.budget {
                return None;
            }
            let (side, key) = Solver::key(&done.pos);
            self.table[side].insert(key, value.pack());
            match stack.last_mut() {
                Some(parent) => parent.absorb(value),
                None => return Some(value),
            }
        }
    }

    /// The value of `pos` with its winning and fastest moves, or `None` over the budget.
    pub fn analyse(&mut self, pos: &Position) -> Option<Analysis> {
        let value = self.value(pos)?;
        let mut moves = Vec::new();
        for &mv in &pos.legal_moves() {
            moves.push((mv, self.value(&pos.make_move(mv))?.parent()));
        }
        let winning = moves.iter().filter(|(_, v)| matches!(v, Exact::Win(_))).map(|(m, _)| *m).collect();
        let fastest = moves.iter().filter(|(_, v)| *v == value).map(|(m, _)| *m).collect();
        Some(Analysis { value, winning, fastest, moves })
    }
}
