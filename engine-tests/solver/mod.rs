//! The independent solvers: exact game values computed from the rules alone.
//!
//! Nothing here shares code with the engine's search (`src/search`): both solvers walk the game
//! through the rules API only (`Position::legal_moves`, `make_move`, `is_game_over`), with no
//! evaluation, no ordering and no pruning other than the obvious "a win in one move cannot be
//! beaten". They are the yardstick the search is tested against (engine-tests/search.rs,
//! engine-tests/suites.rs) and the source of `positions/endgames.epd`.
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
//!   shortest distance); for a lost position, the moves that resist longest.
//! - [`Bounded`]: "can the side to move force a win within d plies?" answered exactly by an
//!   AND/OR search (one winning move suffices, every defence must fail) memoised by position and
//!   depth: cheap for short wins even in the middle game, where the full solver is out of reach.
//!   It finds and checks the positions of `positions/tactics.epd`.
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

/// The exact value of a position, in plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Exact {
    /// The side to move wins in this many plies with best play (odd, at least 1).
    Win(u32),
    /// The side to move loses in this many plies with best play (even; 0: the game is over).
    Loss(u32),
}

impl Exact {
    /// The value in the side to move's own moves, as written in EPD: `win N` / `loss N`.
    pub fn epd(self) -> String {
        match self {
            Exact::Win(p) => format!("win {}", p.div_ceil(2)),
            Exact::Loss(p) => format!("loss {}", p / 2),
        }
    }

    /// The distance in plies.
    pub fn plies(self) -> u32 {
        match self {
            Exact::Win(p) | Exact::Loss(p) => p,
        }
    }

    /// The value of the position before a move that led to `self` (one ply further).
    fn parent(self) -> Exact {
        match self {
            Exact::Win(p) => Exact::Loss(p + 1),
            Exact::Loss(p) => Exact::Win(p + 1),
        }
    }

    /// Packs the value into 32 bits for the table: the plies and a win bit.
    fn pack(self) -> u32 {
        match self {
            Exact::Win(p) => p << 1 | 1,
            Exact::Loss(p) => p << 1,
        }
    }

    fn unpack(bits: u32) -> Exact {
        if bits & 1 == 1 { Exact::Win(bits >> 1) } else { Exact::Loss(bits >> 1) }
    }
}

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
        let mut children = Vec::new();
        for &mv in &pos.legal_moves() {
            children.push((mv, self.value(&pos.make_move(mv))?.parent()));
        }
        let winning = children.iter().filter(|(_, v)| matches!(v, Exact::Win(_))).map(|(m, _)| *m).collect();
        let fastest = children.iter().filter(|(_, v)| *v == value).map(|(m, _)| *m).collect();
        Some(Analysis { value, winning, fastest })
    }
}

/// What the bounded solver knows of a position: the depths at which "wins within d" and "loses
/// within d" are known true (the least) and known false (the greatest).
#[derive(Clone, Copy, Default)]
struct Bounds {
    win_true: Option<u8>,
    win_false: Option<u8>,
    loss_true: Option<u8>,
    loss_false: Option<u8>,
}

/// The bounded AND/OR solver (see the module docs).
#[derive(Default)]
pub struct Bounded {
    table: FxHashMap<(usize, [u32; 4]), Bounds>,
    /// Positions visited (a measure of the work done).
    pub nodes: u64,
}

impl Bounded {
    /// A solver with an empty table.
    pub fn new() -> Bounded {
        Bounded::default()
    }

    /// Forgets every stored result.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The moves of `pos`, those that leave the mover fewer checkers first (a rule of thumb
    /// from the rules alone, so that a short win is usually tried early).
    fn children(pos: &Position) -> Vec<Position> {
        let mover = pos.side_to_move();
        let mut children: Vec<Position> = pos.legal_moves().iter().map(|&m| pos.make_move(m)).collect();
        children.sort_by_key(|c| c.checkers(mover));
        children
    }

    /// True when the side to move can force a win within `depth` plies.
    pub fn wins_within(&mut self, pos: &Position, depth: u32) -> bool {
        self.nodes += 1;
        if pos.is_game_over() || depth == 0 {
            return false;
        }
        let key = Solver::key(pos);
        let d = depth.min(255) as u8;
        let known = self.table.get(&key).copied().unwrap_or_default();
        if known.win_true.is_some_and(|t| t <= d) {
            return true;
        }
        if known.win_false.is_some_and(|f| f >= d) {
            return false;
        }
        let children = Bounded::children(pos);
        let win = children.iter().any(|c| c.is_game_over())
            || (depth >= 3 && children.iter().any(|c| self.loses_within(c, depth - 1)));
        let entry = self.table.entry(key).or_default();
        if win {
            entry.win_true = Some(entry.win_true.map_or(d, |t| t.min(d)));
        } else {
            entry.win_false = Some(entry.win_false.map_or(d, |f| f.max(d)));
        }
        win
    }

    /// True when the side to move loses within `depth` plies whatever it plays.
    pub fn loses_within(&mut self, pos: &Position, depth: u32) -> bool {
        self.nodes += 1;
        if pos.is_game_over() {
            return true;
        }
        if depth < 2 {
            return false;
        }
        let key = Solver::key(pos);
        let d = depth.min(255) as u8;
        let known = self.table.get(&key).copied().unwrap_or_default();
        if known.loss_true.is_some_and(|t| t <= d) {
            return true;
        }
        if known.loss_false.is_some_and(|f| f >= d) {
            return false;
        }
        let loss = Bounded::children(pos).iter().all(|c| self.wins_within(c, depth - 1));
        let entry = self.table.entry(key).or_default();
        if loss {
            entry.loss_true = Some(entry.loss_true.map_or(d, |t| t.min(d)));
        } else {
            entry.loss_false = Some(entry.loss_false.map_or(d, |f| f.max(d)));
        }
        loss
    }

    /// The shortest forced win of the side to move in plies, if there is one within
    /// `max_plies`.
    pub fn shortest_win(&mut self, pos: &Position, max_plies: u32) -> Option<u32> {
        (1..=max_plies).step_by(2).find(|&d| self.wins_within(pos, d))
    }

    /// The moves of `pos` that win within `plies`.
    pub fn moves_winning_within(&mut self, pos: &Position, plies: u32) -> Vec<Move> {
        pos.legal_moves()
            .iter()
            .copied()
            .filter(|&m| self.loses_within(&pos.make_move(m), plies.saturating_sub(1)))
            .collect()
    }
}
