//! What the engine has been told, tracked independently of it: the game, the position with the
//! history of its `position ... moves` line (HexDame's draws count repetitions in it), and the
//! options that change what the engine must answer (`Players`, `Ponder`, the dialect).
//!
//! The fuzz decides every expected answer from this model and the references
//! ([`super::games`]); the engine's own output is only ever compared with it.

use super::games::Game;

/// How the game stands in the tracked position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// Player N (1-based) has won.
    Won(usize),
    /// HexDame: the position has occurred for the third time in the game.
    Drawn,
}

/// The handshake the GUI sent last: it decides whether `bestmove` may carry `ponder`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `uci`.
    Uci,
    /// `ugi`: `bestmove M` only, never `ponder`.
    Ugi,
}

/// The tracked engine state.
#[derive(Clone, Debug)]
pub struct Model {
    /// The variant the engine plays.
    pub game: Game,
    /// The `Players` option (Can't Stop's `startpos`; kept while another game is played).
    pub players: usize,
    /// The `Ponder` option.
    pub ponder: bool,
    /// The `Strategy` option names a fixed player (not `search`): dice games answer at once.
    pub fixed_strategy: bool,
    /// The last handshake.
    pub dialect: Dialect,
    /// Whether the position's line started from `startpos` (else from a FEN).
    pub from_startpos: bool,
    /// The moves of the position's line.
    pub moves: Vec<String>,
    /// The FEN before the first move and after each: `fens[0]` is the line's start, the last
    /// is the current position.
    pub fens: Vec<String>,
}

impl Model {
    /// The state of a fresh engine switched to `game` after handshake `dialect`.
    pub fn new(game: Game, dialect: Dialect) -> Model {
        let start = game.start_fen(2);
        Model {
            game,
            players: 2,
            ponder: false,
            fixed_strategy: false,
            dialect,
            from_startpos: true,
            moves: Vec::new(),
            fens: vec![start],
        }
    }

    /// The current position.
    pub fn fen(&self) -> &str {
        self.fens.last().expect("a line has a start")
    }

    /// The start position of `position startpos` now.
    pub fn start_fen(&self) -> String {
        self.game.start_fen(self.players)
    }

    /// Resets the position to the start (a new variant, Can't Stop's `Players`).
    pub fn reset_to_start(&mut self) {
        self.from_startpos = true;
        self.moves.clear();
        self.fens = vec![self.start_fen()];
    }

    /// Replaces the position by a line (after the engine accepted it).
    pub fn set_line(&mut self, from_startpos: bool, moves: Vec<String>, fens: Vec<String>) {
        assert_eq!(moves.len() + 1, fens.len(), "a FEN before and after each move");
        self.from_startpos = from_startpos;
        self.moves = moves;
        self.fens = fens;
    }

    /// How the game stands at the end of the tracked line.
    pub fn outcome(&self) -> Outcome {
        outcome_of(self.game, &self.fens)
    }

    /// Whether `bestmove` may carry `ponder R` now.
    pub fn ponder_allowed(&self) -> bool {
        self.dialect == Dialect::Uci && self.ponder
    }
}

/// How the game stands after the line `fens` (start first): a win as the reference says, else
/// for HexDame a draw once the last position has occurred three times in the line (the start
/// counting as an occurrence, as the rules and `hexdame_reference::game_outcome` count).
pub fn outcome_of(game: Game, fens: &[String]) -> Outcome {
    let last = fens.last().expect("a line has a start");
    if let Some(winner) = game.winner(last) {
        return Outcome::Won(winner);
    }
    if game == Game::HexDame && fens.iter().filter(|f| *f == last).count() >= 3 {
        return Outcome::Drawn;
    }
    Outcome::Ongoing
}

/// Plays `moves` after the known line `fens` as the reference judges them: the FENs after each
/// move, or `None` if one is illegal or comes after the end of the game (a win or a draw by
/// repetition), in which case the engine must refuse the whole `position` command.
pub fn extend(game: Game, fens: &[String], moves: &[String]) -> Option<Vec<String>> {
    let mut line = fens.to_vec();
    for mv in moves {
        if outcome_of(game, &line) != Outcome::Ongoing {
            return None;
        }
        let after = game.play(line.last().unwrap(), mv)?;
        line.push(after);
    }
    Some(line)
}
