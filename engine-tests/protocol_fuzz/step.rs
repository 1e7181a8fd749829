//! One fuzzed input line and what it must do: the vocabulary between the generators (which
//! decide, from the model and the references, what a line means) and the session (which sends
//! it, updates the model and tells the checker what to expect).

use super::games::Game;
use super::model::Dialect;

/// A line to send and its expected effect.
#[derive(Clone, Debug)]
pub struct Step {
    /// The line without its final `\n` (any bytes but `\n`).
    pub bytes: Vec<u8>,
    /// How many `info string error:` lines it must cause; `None` when the fuzz does not predict
    /// it (the batch's count is then not checked).
    pub errors: Option<usize>,
    /// The engine must not be searching when it reads the line (the session sends `stop` or
    /// waits for the `bestmove` first), because the line would be refused during a search.
    pub needs_idle: bool,
    /// The session syncs right after the line (so that a later `stop` cannot overtake it).
    pub sync_after: bool,
    /// What the line does.
    pub effect: Effect,
    /// The kind of defect a wrong error count in its batch most likely is (the session names
    /// it so, rather than with the generic kind).
    pub label: Option<&'static str>,
}

impl Step {
    /// A line with `effect` and an exact error count.
    pub fn new(line: impl Into<Vec<u8>>, errors: usize, effect: Effect) -> Step {
        Step {
            bytes: line.into(),
            errors: Some(errors),
            needs_idle: false,
            sync_after: false,
            effect,
            label: None,
        }
    }

    /// A line that changes nothing and is answered by `errors` error lines only.
    pub fn inert(line: impl Into<Vec<u8>>, errors: usize) -> Step {
        Step::new(line, errors, Effect::Nothing)
    }

    /// The same step, to be sent only to an idle engine.
    pub fn idle(mut self) -> Step {
        self.needs_idle = true;
        self
    }

    /// The same step, followed by a sync.
    pub fn synced(mut self) -> Step {
        self.sync_after = true;
        self
    }

    /// The same step, naming the defect a wrong error count would be.
    pub fn labelled(mut self, label: &'static str) -> Step {
        self.label = Some(label);
        self
    }

    /// The line as text, for messages.
    pub fn text(&self) -> String {
        let text = String::from_utf8_lossy(&self.bytes);
        let shown: String = text.chars().take(160).collect::<String>().escape_debug().to_string();
        if text.chars().count() > 160 { format!("{shown}... ({} bytes)", self.bytes.len()) } else { shown }
    }
}

/// A `position` line the engine must accept, as the model will then hold it.
#[derive(Clone, Debug)]
pub struct Line {
    /// From `startpos` (else from a FEN).
    pub from_startpos: bool,
    /// The moves.
    pub moves: Vec<String>,
    /// The FEN before the first move and after each.
    pub fens: Vec<String>,
}

/// How a `go` must be answered, as far as the line alone says.
#[derive(Clone, Debug, Default)]
pub struct GoSpec {
    /// `infinite`.
    pub infinite: bool,
    /// `ponder`.
    pub ponder: bool,
    /// The limits end the search by itself (depth, nodes, time).
    pub ends: bool,
    /// The legal `searchmoves`.
    pub only: Vec<String>,
}

/// What a line does to the engine's state and output.
#[derive(Clone, Debug)]
pub enum Effect {
    /// Nothing but the error lines counted in [`Step::errors`].
    Nothing,
    /// `isready`: `readyok`.
    Ready,
    /// `uci` / `ugi`: the handshake, and the dialect of `bestmove` from now on.
    Hello(Dialect),
    /// A query: one `response` line, with this text when known; `position`: the question is
    /// where the engine is (`fen`), so that a wrong answer means the model has lost track.
    Query { answer: Option<String>, position: bool },
    /// `d`: the board of the current position.
    Display,
    /// `perft N` (told to `stop` at once when `stoppable`).
    Perft { depth: u32, stoppable: bool },
    /// `bench` (told to stop at once).
    Bench,
    /// `position`: the new line if the engine must accept it (else the position stays);
    /// `check`: the session asks `query fen` right after, to tell a disagreement with the
    /// reference from a later drift.
    Position { line: Option<Line>, check: bool },
    /// An accepted `go`.
    Go(GoSpec),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `setoption name Ponder value V`.
    Ponder(bool),
    /// `setoption name Players value N`.
    Players(usize),
    /// `setoption name Strategy value V`: whether V is a fixed player (not `search`).
    Strategy(bool),
    /// `setoption name UCI_Variant value V` with a valid V.
    Variant(Game),
}
