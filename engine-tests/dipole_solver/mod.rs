//! The independent Dipole solver: exact game values of small Dipole endgames computed from the
//! rules alone.
//!
//! Nothing here shares code with the engine's search (`src/search`) or its game adapters
//! (`src/game`): the solver walks the game through the rules API of `steere::dipole` only
//! (`Position::legal_moves`, `make_move`, `winner`), with no evaluation, no move ordering and no
//! pruning other than the obvious "a win in one ply cannot be beaten". It is the yardstick the
//! search is tested against and the source of `positions/endgames-dipole.epd` (see
//! `generate.rs`); the rules API itself is checked against the independent reference generator
//! of `engine-tests/dipole_reference` (engine-tests/dipole_differential.rs, and a sample of the
//! solver's own positions in engine-tests/dipole_suites.rs).
//!
//! Values follow docs/rules/dipole.md: Dipole has no draws and every game ends, so every
//! position is a win or a loss for the side to move, at an exact distance in plies with best
//! play: the winner takes the **shortest** win, the loser the **longest** resistance. Unlike
//! Impasse, the parity of the distance does not tell the winner: a player who moves his own
//! last checkers off the board loses at once, so a loss can come on the loser's own move (an
//! odd number of plies) and a win on the opponent's (an even number). A finished position is
//! `Loss(0)` when the side to move is the one without checkers (after a capture of his last
//! stack), and `Win(0)` when the side to move still has checkers (the opponent has just moved
//! his own last checkers off).
//!
//! - [`Solver`]: a full-depth minimax memoised in a hash map keyed by the position, computing
//!   the exact value of every position reachable from the one asked about. The game graph has
//!   no cycles: a capture or an exit removes checkers, a plain move or a merge keeps them and
//!   lowers the rules' measure D (the checkers' distances to their far edges), and a pass is
//!   always followed by one of those. So a depth-first traversal that stores each value once is
//!   exact. Feasible for endgames with few checkers; a budget on the number of stored positions
//!   makes it give up cleanly on larger ones.
//! - [`Solver::analyse`]: the value and, for a won position, the **winning moves** (every move
//!   that wins, whatever its distance) and the **fastest moves** (those that win in the
//!   shortest distance); for a lost position, the moves that resist longest; and every move
//!   with the value it leads to.
//! - [`Solver::principal_variation`]: one line of best play to the end of the game, from which
//!   the generator reads what a position exercises.
#![allow(dead_code)]

use rustc_hash::FxHashMap;
use steere::dipole::{Color, Move, MoveKind, MoveList, Position, Variant};

pub use crate::common::exact::Exact;

/// The value of a finished position: whoever still has checkers has won (a win in 0 plies
/// when the opponent has just moved his own last checkers off).
pub fn finished_value(pos: &Position) -> Option<Exact> {
    let winner = pos.winner()?;
    Some(if winner == pos.side_to_move() { Exact::Win(0) } else { Exact::Loss(0) })
}

/// A position's value and its best moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The exact value.
    pub value: Exact,
    /// For a win: every move that wins, at any distance (empty for a loss).
    pub winning: Vec<Move>,
    /// For a win: the moves that win in the shortest distance; for a loss: the moves that resist
    /// longest (empty for a finished position, which has no moves).
    pub fastest: Vec<Move>,
    /// Every legal move with the value it leads to, for the side to move (`Win(p)`: this move
    /// wins in `p` plies counted from before it).
    pub moves: Vec<(Move, Exact)>,
}

/// The most stacks a table key can describe (4 bits of height each in a `u64`). A position
/// with more stacks has more than 16 checkers on the board, far beyond what the solver can
/// finish anyway; [`Solver::value`] gives up on it as on a position over the budget.
pub const MAX_KEY_STACKS: u32 = 16;

/// A position on the solver's stack: its moves, the next one to try, and the best values seen.
struct Frame {
    /// The position (never a finished one: those are valued without a frame).
    pos: Position,
    /// Its legal moves, in the generator's order.
    moves: MoveList,
    /// The index of the next move to try; `moves.len()` once the value is decided.
    next: usize,
    /// The shortest win found so far (in plies from this position).
    win: Option<u32>,
    /// The longest loss found so far.
    loss: u32,
}

impl Frame {
    /// A frame for an unfinished position, with no move tried yet; or, when a move captures
    /// the opponent's last stack, a frame already decided as a win in one ply, since nothing
    /// can be faster (this only saves the walk through the moves listed before that capture).
    fn new(pos: Position) -> Frame {
        let moves = pos.legal_moves();
        let mut frame = Frame { moves, pos, next: 0, win: None, loss: 0 };
        if frame.moves.iter().any(|&mv| captures_last_stack(&pos, mv)) {
            frame.win = Some(1);
            frame.next = frame.moves.len();
        }
        frame
    }

    /// Takes in the value of one child.
    fn absorb(&mut self, child: Exact) {
        match child.parent() {
            Exact::Win(p) => {
                self.win = Some(self.win.map_or(p, |w| w.min(p)));
                if p == 1 {
                    // Nothing wins faster than at once (a win in 0 plies is a finished game,
                    // never the value of a move): the other moves cannot change the value.
                    self.next = self.moves.len();
                }
            }
            Exact::Loss(p) => self.loss = self.loss.max(p),
        }
    }

    /// The value once every move has been absorbed. An unfinished position always has a move
    /// (a pass at least), so a frame with no win has at least one loss and `loss >= 1`.
    fn value(&self) -> Exact {
        self.win.map_or(Exact::Loss(self.loss), Exact::Win)
    }
}

/// True when `mv` lands on an enemy stack holding all the opponent's checkers: a capture of
/// his last stack, which wins at once. (Only a capture can end the game in the mover's favour:
/// an exit removes the mover's own checkers.)
fn captures_last_stack(pos: &Position, mv: Move) -> bool {
    if mv.kind() != MoveKind::Step {
        return false;
    }
    let (file, rank) = mv.to();
    let square = pos.variant().square(file, rank).expect("a step lands on a dark square");
    let them = pos.side_to_move().opponent();
    pos.stack_at(square) == Some((them, pos.checkers(them)))
}

/// The memoised exhaustive solver (see the module docs).
pub struct Solver {
    /// Values by board, one table per side to move.
    table: [FxHashMap<[u64; 2], u32>; 2],
    /// Give up when the tables would hold more positions than this.
    budget: usize,
}

impl Solver {
    /// A solver that stores at most `budget` positions (about 24 bytes each, plus the hash
    /// map's overhead).
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

    /// The table key of an 8x8 position: which dark squares hold White and Black stacks (32
    /// bits each), and the heights of the stacks in square order, 4 bits each (a height is at
    /// most 12). Together with the side to move (the table index) that is the whole position,
    /// so equal keys mean equal positions: no hash collision can corrupt a value. `None` when
    /// the position has more than [`MAX_KEY_STACKS`] stacks.
    fn key(pos: &Position) -> Option<(usize, [u64; 2])> {
        let (white, black) = (pos.stacks(Color::White), pos.stacks(Color::Black));
        let occupied = white | black;
        if occupied.count_ones() > MAX_KEY_STACKS {
            return None;
        }
        let mut heights = 0u64;
        let mut rest = occupied;
        while rest != 0 {
            let square = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let (_, height) = pos.stack_at(square).expect("an occupied square has a stack");
            heights = heights << 4 | u64::from(height);
        }
        Some((pos.side_to_move().index(), [white | black << 32, heights]))
    }

    /// The stored or immediate value of `pos`, if known.
    fn lookup(&self, pos: &Position) -> Option<Exact> {
        if let Some(value) = finished_value(pos) {
            return Some(value);
        }
        let (side, key) = Solver::key(pos)?;
        self.table[side].get(&key).copied().map(Exact::unpack)
    }

    /// The exact value of `pos`, or `None` when it would take more positions than the budget
    /// (or the position has too many stacks for a key). `pos` must be of the 8x8 variant.
    pub fn value(&mut self, pos: &Position) -> Option<Exact> {
        assert_eq!(pos.variant(), Variant::Dipole, "the solver's keys cover the 8x8 board only");
        if let Some(v) = self.lookup(pos) {
            return Some(v);
        }
        // An explicit stack instead of recursion: with a dozen checkers a game can run to
        // hundreds of plies (the rules bound it by 4,246), far deeper than a thread's stack.
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
            let (side, key) = Solver::key(&done.pos)?;
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

    /// A principal variation from `pos`: at every ply the fastest win (or the longest
    /// resistance) whose move text sorts first, until the game is over. Deterministic, so that
    /// the features read from it are reproducible; `None` over the budget.
    pub fn principal_variation(&mut self, pos: &Position) -> Option<Vec<(Position, Move)>> {
        let mut line = Vec::new();
        let mut current = *pos;
        while !current.is_game_over() {
            let analysis = self.analyse(&current)?;
            let best = *analysis
                .fastest
                .iter()
                .min_by_key(|m| m.to_string())
                .expect("an unfinished position has a best move");
            line.push((current, best));
            current = current.make_move(best);
        }
        Some(line)
    }
}
