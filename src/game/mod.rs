//! What the engine knows of a game: the tool-facing [`Rules`] (every game), and the two search
//! traits, [`Game`] for the alpha-beta search (Impasse, Dipole, HexDame) and [`ChanceGame`] for
//! the chance-node search (Can't Stop). Each game implements them in its own room (its
//! `game.rs`: `src/impasse/game.rs`, ...); this room names no game.
//!
//! [`Game`] is everything the alpha-beta search may know about a game, and no more: the search
//! is written against it only, so that a new game is a new implementation of it, not a change
//! to the search. A game provides its
//! positions as small `Copy` values (copy-make), its moves as small `Copy` values, a hash, the
//! end of the game, a static evaluation and a few hints for move ordering.
//!
//! Repetition: a game whose positions can recur (HexDame's kings) says so with
//! [`Game::CAN_REPEAT`] and tells which moves could be undone ([`Game::is_reversible`]); the
//! search then keeps the hashes of the line and scores a repetition as a draw. The defaults say
//! "never repeats", and the search's repetition code sits behind the constant, so it compiles
//! away for Impasse and Dipole. Tactical instability: a game that can say where its static
//! evaluation is not to be trusted (a capture is pending) answers [`Game::is_quiet`], and the
//! search extends such leaves. There is no other notion of captures or checks (the search also
//! asks whether a move is *forcing*, a game-defined ordering hint).

pub mod chance;
pub mod history;
pub mod rules;
pub mod tuning;

pub use chance::{ChanceGame, ChanceRules};
pub use history::GameHistory;
pub use rules::{GameResult, MoveTextError, Node, Params, Player, RuleOption, Rules};
pub use tuning::LinearEval;

use std::fmt::{Debug, Display};

/// The result of a finished game from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move has won.
    Win,
    /// The side to move has lost.
    Loss,
    /// Neither side has won (not possible in Impasse; kept for games that can draw).
    Draw,
}

/// The exact value of a position read from an endgame table, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableValue {
    /// Win, loss or draw with best play.
    pub outcome: Outcome,
    /// For a win or a loss: the plies to the end with best play (the winner hurrying, the
    /// loser resisting); 0 for a draw.
    pub plies: u32,
}

impl TableValue {
    /// The value of a position one move before this one, for its side to move, when that move
    /// is the best: a loss here is a win there one ply further from the end, and so on.
    pub fn one_move_before(self) -> TableValue {
        let outcome = match self.outcome {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => return self,
        };
        TableValue { outcome, plies: self.plies + 1 }
    }
}

/// A two-player, perfect-information, turn-based game as the search sees it.
pub trait Game: Copy + Send + Sync + Debug + 'static {
    /// One move; `Display` writes the game's move notation.
    type Move: Copy + Eq + Send + Sync + Debug + Display + 'static;
    /// A list of moves, usually a fixed-capacity array on the stack.
    type MoveList: AsRef<[Self::Move]> + AsMut<[Self::Move]>;

    /// The number of slots of a history table: [`Game::history_index`] is always below it.
    const HISTORY_SIZE: usize;

    /// Every legal move; empty exactly when [`Game::outcome`] is `Some`.
    fn legal_moves(&self) -> Self::MoveList;
    /// The position after the legal move `mv`.
    fn make_move(&self, mv: Self::Move) -> Self;
    /// A 64-bit hash (Zobrist or similar) that includes the side to move.
    fn hash(&self) -> u64;
    /// `Some` when the game is over, from the point of view of the side to move.
    fn outcome(&self) -> Option<Outcome>;
    /// A static evaluation from the point of view of the side to move, in the game's own unit
    /// (Impasse: hundredths of a checker). It must stay within +-20,000, far inside the search's
    /// win/loss scores; the search clamps it there anyway.
    fn evaluate(&self) -> i32;
    /// A 16-bit code for a move, unique among the legal moves of any one position. The
    /// transposition table stores it, and the search recognises the stored move by comparing
    /// codes with the legal moves, so a stale or colliding code can never produce an illegal
    /// move.
    fn move_code(mv: Self::Move) -> u16;
    /// The slot of `mv` (played in this position) in a history table, below
    /// [`Game::HISTORY_SIZE`]. Moves that are "the same idea" should share a slot (in Impasse:
    /// the mover's colour and the from and to squares, ignoring the crown choice).
    fn history_index(&self, mv: Self::Move) -> usize;
    /// True for moves worth trying early in ordering, such as crowns and bear-offs in Impasse.
    fn is_forcing(&self, mv: Self::Move) -> bool;
    /// True when `mv` (played in this position) is to be searched one ply deeper where the
    /// search extends (on the principal variation, see `search/negamax.rs`): a move that brings
    /// the game's end nearer at once, so that the line which proves a fast win is followed
    /// past the horizon. The default: no move is extended.
    #[inline(always)]
    fn is_extended(&self, _mv: Self::Move) -> bool {
        false
    }

    /// True for a game in which a position can occur twice in one game. The search then keeps
    /// the hashes of the game and of its line and scores a repetition as a draw (see
    /// `search/negamax.rs`); when false, none of that code is compiled in.
    const CAN_REPEAT: bool = false;

    /// True when `mv` (played in this position) can be followed, later, by the position before
    /// it: no position before an irreversible move (a man's step, a capture) can recur after it,
    /// so the search looks for repetitions only back to the last irreversible move. Only asked
    /// when [`Game::CAN_REPEAT`] holds.
    #[inline(always)]
    fn is_reversible(&self, _mv: Self::Move) -> bool {
        false
    }

    /// The exact value of this (unfinished) position from the endgame tables the game has
    /// loaded, if one holds it. The search then scores the node at once. The default: no tables.
    #[inline(always)]
    fn probe_tables(&self) -> Option<TableValue> {
        None
    }

    /// False when the static evaluation of this position is not to be trusted because a forced
    /// tactical sequence is pending (in HexDame: a capture must be made). The search extends
    /// such leaves instead of evaluating them. The default: always quiet.
    #[inline(always)]
    fn is_quiet(&self) -> bool {
        true
    }
}

/// A game the alpha-beta search plays, as the tools see it: the search's [`Game`] and the
/// tool-facing [`Rules`], whose steps are the game's moves. Every type that has both is one.
pub trait BoardRules: Game + Rules<Step = <Self as Game>::Move> {
    /// The player to move (in a finished game: the one who would move next).
    fn player_to_move(&self) -> Player {
        Player::of_seat(Rules::to_move(self))
    }
}

impl<G: Game + Rules<Step = <G as Game>::Move>> BoardRules for G {}

/// The items of [`Rules`] that every two-player board game answers alike from its [`Game`]
/// and its `side_to_move()` (a colour with `index()`: 0 for the first player): invoked inside
/// the game rooms' `impl Rules` (each room's `game.rs`), so that the three of them say it once.
/// `board_game_rules!(one board)` adds what a game with no parameters (one board, no options)
/// answers alike: its start is `startpos()`, its FEN is `from_fen`/`to_fen`.
macro_rules! board_game_rules {
    (one board) => {
        $crate::game::board_game_rules!();
        type Params = ();

        fn start((): ()) -> Self {
            Self::startpos()
        }

        fn parse_fen((): (), text: &str) -> Result<Self, String> {
            Self::from_fen(text).map_err(|e| e.to_string())
        }

        fn fen(&self) -> String {
            self.to_fen()
        }

        fn params(&self) {}
    };
    () => {
        type Steps = <Self as $crate::game::Game>::MoveList;

        const PLAYERS: std::ops::RangeInclusive<usize> = 2..=2;
        const SEAT_NAMES: &'static [&'static str] = &["white", "black"];
        const DRAWS_BY_REPETITION: bool = <Self as $crate::game::Game>::CAN_REPEAT;

        fn players(&self) -> usize {
            2
        }

        fn to_move(&self) -> usize {
            self.side_to_move().index()
        }

        fn node(&self) -> $crate::game::Node {
            $crate::game::node_of(self)
        }

        fn result(&self) -> Option<$crate::game::GameResult> {
            $crate::game::result_of(self)
        }

        #[inline(always)]
        fn steps(&self) -> <Self as $crate::game::Game>::MoveList {
            $crate::game::Game::legal_moves(self)
        }

        fn legal_steps(&self) -> Vec<Self::Step> {
            let moves = $crate::game::Game::legal_moves(self);
            $crate::game::rules::sorted_by_text(moves.as_ref().iter().copied())
        }

        #[inline(always)]
        fn play(&self, step: Self::Step) -> Self {
            $crate::game::Game::make_move(self, step)
        }

        fn key(&self) -> u64 {
            $crate::game::Game::hash(self)
        }

        fn may_recur_after(&self, step: Self::Step) -> bool {
            $crate::game::Game::is_reversible(self, step)
        }
    };
}

pub(crate) use board_game_rules;

/// The [`Rules::result`] of a game whose search's [`Game::outcome`] is told from the side to
/// move's point of view: for the board games' adapters.
pub fn result_of<G: Game + Rules>(pos: &G) -> Option<GameResult> {
    let to_move = Rules::to_move(pos);
    Some(match pos.outcome()? {
        Outcome::Win => GameResult::Win(to_move),
        Outcome::Loss => GameResult::Win(1 - to_move),
        Outcome::Draw => GameResult::Draw,
    })
}

/// The [`Rules::node`] of a game without chance: a decision until the game is over.
pub fn node_of<G: Game>(pos: &G) -> Node {
    if pos.outcome().is_some() { Node::Over } else { Node::Decision }
}

/// Test support shared by the games' adapters.
#[cfg(test)]
pub(crate) mod testing {
    use super::Game;

    /// Walks every line of `plies` moves from `start` and checks that, in each position, the
    /// move codes are unique and the history indices in range; returns the moves seen.
    pub fn check_codes_and_history<G: Game>(start: G, plies: usize) -> usize {
        let mut layer = vec![start];
        let mut seen = 0;
        for _ in 0..plies {
            let mut next = Vec::new();
            for pos in &layer {
                let moves = pos.legal_moves();
                let mut codes: Vec<u16> = moves.as_ref().iter().map(|&m| G::move_code(m)).collect();
                codes.sort_unstable();
                codes.dedup();
                assert_eq!(codes.len(), moves.as_ref().len(), "duplicate move code in {pos:?}");
                for &m in moves.as_ref() {
                    assert!(pos.history_index(m) < G::HISTORY_SIZE, "history index of {m} in {pos:?}");
                    next.push(pos.make_move(m));
                }
                seen += moves.as_ref().len();
            }
            layer = next;
        }
        seen
    }
}
