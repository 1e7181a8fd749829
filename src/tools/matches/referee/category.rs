//! How a game ended, as the referee judges it and the records, tables and JSON name it.

/// How a game ended: the category of its reason, as the records and reports name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// The winner removed all of his checkers.
    Normal,
    /// The loser sent a well-formed move that is not legal (or `bestmove (none)`).
    IllegalMove,
    /// The loser sent a `bestmove` that is not a move at all.
    Garbage,
    /// The loser moved after its clock or move time (plus the margin) ran out, or not at all.
    TimeForfeit,
    /// The loser did not answer within the runner's timeout: a move bounded only by depth or
    /// nodes, or the `isready` before a game.
    Timeout,
    /// The loser's process exited, closed its output or could not be started.
    Crash,
    /// The loser broke the conversation: a `bestmove` that answers no `go` (one read before
    /// the `go` was written, such as a second `bestmove` after its answer), or output flooded
    /// faster than the runner may be asked to read it (src/client/output.rs).
    Protocol,
    /// Not a match ending: a game saved before its end (by `steere gui`), result `*`.
    Unfinished,
    /// A draw: the final position occurred for the third time (threefold repetition).
    Repetition,
    /// A draw by the runner's cap for endless games (not a rule of the game).
    DrawCap,
    /// Not a match ending: a person resigned (in `steere gui`); the other side wins.
    Resignation,
    /// Not a match ending: a draw agreed by the players (in `steere gui`, where the rules
    /// allow one: HexDame).
    Agreement,
}

impl Category {
    /// Every category, in the order of the tables.
    pub const ALL: [Category; 7] = [
        Category::Normal,
        Category::IllegalMove,
        Category::Garbage,
        Category::TimeForfeit,
        Category::Timeout,
        Category::Crash,
        Category::Protocol,
    ];

    /// The ways a game is drawn, in the order of the tables.
    pub const DRAWS: [Category; 2] = [Category::Repetition, Category::DrawCap];

    /// True for the faults that forfeit a game: every loss reason but `normal`.
    pub fn is_fault(self) -> bool {
        self != Category::Normal && Category::ALL.contains(&self)
    }

    /// True for the endings of a drawn game.
    pub fn is_draw(self) -> bool {
        Category::DRAWS.contains(&self) || self == Category::Agreement
    }

    /// The label used in records, tables and JSON.
    pub fn label(self) -> &'static str {
        match self {
            Category::Normal => "normal",
            Category::IllegalMove => "illegal move",
            Category::Garbage => "garbage",
            Category::TimeForfeit => "time forfeit",
            Category::Timeout => "timeout",
            Category::Crash => "crash",
            Category::Protocol => "protocol",
            Category::Unfinished => "unfinished",
            Category::Repetition => "repetition",
            Category::DrawCap => "draw cap",
            Category::Resignation => "resignation",
            Category::Agreement => "agreement",
        }
    }

    /// The category of a label.
    pub fn from_label(label: &str) -> Option<Category> {
        // The endings only a person makes (the GUI's records) are read too.
        let by_people = [Category::Unfinished, Category::Resignation, Category::Agreement];
        let other = by_people.into_iter().chain(Category::DRAWS).find(|c| c.label() == label);
        Category::ALL.into_iter().find(|c| c.label() == label).or(other)
    }
}
