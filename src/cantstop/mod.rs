//! The rules of Can't Stop (Sid Sackson, 1980): eleven columns, four dice, three neutral
//! markers, 2 to 4 players (and one, for the solitaire studies of the game).
//!
//! This module is docs/rules/cantstop.md turned into code, and depends on nothing else in the
//! crate. A game is a sequence of [`Event`]s: rolls of the dice (chance events), the mover's
//! choices of columns, and his decisions to roll again or stop. A [`Position`] is small and
//! `Copy`: each player's coloured marker per column, the neutral markers, the player to move
//! and the [`Phase`] that says which kind of event comes next.
//!
//! The rooms: [`board`] the columns, [`dice`] the 126 rolls with their weights and pairings,
//! [`choice`] the choice set of a roll and the advance of the markers, [`notation`] the FEN and
//! the event tokens, [`odds`] exact probabilities by enumeration, [`eval`] the value of a
//! position for each player, [`baseline`] the fixed players (`rule28`, `greedy`, `random`),
//! [`glenn`] the fixed player `glenn` (Glenn and Aloi's tuned Rule of 28).
//! The one-player study of strategies (`steere solitaire`) is a tool: `tools/searches/expectimax.rs`.

pub mod baseline;
pub mod board;
pub mod choice;
pub mod dice;
pub mod eval;
pub mod game;
pub mod glenn;
pub mod notation;
pub mod odds;
pub mod options;

pub use choice::{Choice, ChoiceSet};
pub use dice::Dice;
pub use notation::{EventError, FenError};
pub use options::{Options, Variant};

use board::{COLUMNS, HEIGHTS, MAX_PLAYERS};

/// What comes next in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The dice are to be rolled (`r`): a chance event.
    Roll,
    /// The player to move chooses what these dice advance (`c`).
    Choose(Dice),
    /// The player to move rolls again or stops (`s`).
    Decide,
}

/// One event of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Event {
    /// The dice fall (`rABCD`); a bust is applied with the roll.
    Roll(Dice),
    /// The player advances in these columns (`7.11`).
    Choose(Choice),
    /// The player rolls again (`roll`).
    Continue,
    /// The player stops and banks his progress (`stop`).
    Stop,
}

/// A position: the markers on the board, the player to move and the phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The number of players, 1 to 4 (1 only for solitaire; the FEN knows 2 to 4).
    players: u8,
    /// The player to move, 0-based.
    to_move: u8,
    /// The space of each player's coloured marker per column (0: none).
    markers: [[u8; COLUMNS]; MAX_PLAYERS],
    /// The space of the neutral marker per column (0: none).
    neutral: [u8; COLUMNS],
    /// What comes next.
    phase: Phase,
    /// The columns won so far (bit i: column index i), derived from `markers`.
    closed: u16,
    /// The winner (0-based), derived from `markers`.
    winner: Option<u8>,
    /// The rule options the game is played under.
    options: Options,
}

impl Position {
    /// The start of a game of `players` players (1 to 4) of the base game: no marker, player 1
    /// to roll.
    pub fn start(players: usize) -> Position {
        Position::start_with(players, Options::BASE)
    }

    /// The start of a game of `players` players (1 to 4) under `options`, which the caller has
    /// checked are offered for that many ([`Options::new`]).
    pub fn start_with(players: usize, options: Options) -> Position {
        assert!((1..=MAX_PLAYERS).contains(&players), "1 to 4 players");
        debug_assert!(options.for_players(players).is_ok(), "{options} for {players} players");
        Position {
            players: players as u8,
            to_move: 0,
            markers: [[0; COLUMNS]; MAX_PLAYERS],
            neutral: [0; COLUMNS],
            phase: Phase::Roll,
            closed: 0,
            winner: None,
            options,
        }
    }

    /// A position from its parts, its derived fields computed; the caller has checked them.
    fn from_parts(
        players: usize,
        to_move: usize,
        markers: [[u8; COLUMNS]; MAX_PLAYERS],
        neutral: [u8; COLUMNS],
        phase: Phase,
        options: Options,
    ) -> Position {
        let mut pos = Position {
            players: players as u8,
            to_move: to_move as u8,
            markers,
            neutral,
            phase,
            closed: 0,
            winner: None,
            options,
        };
        pos.update_won();
        pos
    }

    /// Recomputes the closed columns and the winner from the markers.
    fn update_won(&mut self) {
        self.closed = (0..self.players()).fold(0, |closed, p| closed | self.won_columns(p));
        self.winner =
            (0..self.players()).find(|&p| self.won_count(p) >= self.columns_to_win()).map(|p| p as u8);
    }

    /// The rule options the game is played under.
    pub fn options(&self) -> Options {
        self.options
    }

    /// The columns a player must win to win the game.
    pub fn columns_to_win(&self) -> u32 {
        u32::from(self.options.columns_to_win())
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// The player to move, 0-based.
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The winner (0-based) once the game is over.
    pub fn winner(&self) -> Option<usize> {
        self.winner.map(usize::from)
    }

    /// The space of `player`'s coloured marker in the column of index `column` (0: none).
    pub fn marker(&self, player: usize, column: usize) -> u8 {
        self.markers[player][column]
    }

    /// The space of the neutral marker in the column of index `column` (0: none).
    pub fn neutral(&self, column: usize) -> u8 {
        self.neutral[column]
    }

    /// The neutral markers as a whole (space per column index, 0: none).
    pub fn neutral_markers(&self) -> [u8; COLUMNS] {
        self.neutral
    }

    /// The number of neutral markers on the board.
    pub fn neutral_count(&self) -> usize {
        self.neutral.iter().filter(|&&s| s != 0).count()
    }

    /// The columns `player` has won, as a mask of column indices.
    pub fn won_columns(&self, player: usize) -> u16 {
        (0..COLUMNS).filter(|&c| self.markers[player][c] == HEIGHTS[c]).fold(0, |m, c| m | 1 << c)
    }

    /// The number of columns `player` has won.
    pub fn won_count(&self, player: usize) -> u32 {
        self.won_columns(player).count_ones()
    }

    /// The columns won by anybody (closed to everybody), as a mask of column indices.
    pub fn closed_columns(&self) -> u16 {
        self.closed
    }

    /// The player after `player`.
    pub fn next_player(&self, player: usize) -> usize {
        (player + 1) % self.players()
    }

    /// The choice set of `dice` for the player to move with the neutral markers as they stand
    /// (empty: the roll busts).
    pub fn choices(&self, dice: Dice) -> ChoiceSet {
        choice::choice_set(self, dice)
    }

    /// Every legal event, in the contract's order: the 126 rolls, the choices, or `roll` and
    /// `stop`; none once the game is over.
    pub fn legal_events(&self) -> Vec<Event> {
        if self.winner.is_some() {
            return Vec::new();
        }
        match self.phase {
            Phase::Roll => dice::all_rolls().iter().map(|&d| Event::Roll(d)).collect(),
            Phase::Choose(dice) => self.choices(dice).iter().map(|&c| Event::Choose(c)).collect(),
            Phase::Decide if self.may_stop() => vec![Event::Continue, Event::Stop],
            Phase::Decide => vec![Event::Continue],
        }
    }

    /// Whether the player to move may stop: always, but under variant B (must roll) not while
    /// a neutral marker stands on another player's coloured marker.
    pub fn may_stop(&self) -> bool {
        self.options.variant() != Variant::MustRoll
            || (0..COLUMNS).all(|c| self.neutral[c] == 0 || !self.others_marker_on(c, self.neutral[c]))
    }

    /// Whether a player other than the one to move has his coloured marker on `space` of the
    /// column of index `column`.
    fn others_marker_on(&self, column: usize, space: u8) -> bool {
        (0..self.players()).any(|p| p != self.to_move() && self.markers[p][column] == space)
    }

    /// The space a neutral marker moving up in the column of index `column` lands on: the next
    /// one, or under variant A (skip) the next that holds no other player's coloured marker (the
    /// top of an open column holds none, so it always lands).
    pub fn landing(&self, column: usize) -> u8 {
        let from = if self.neutral[column] != 0 {
            self.neutral[column]
        } else {
            self.markers[self.to_move()][column]
        };
        let mut space = from + 1;
        if self.options.variant() == Variant::Skip {
            while space < HEIGHTS[column] && self.others_marker_on(column, space) {
                space += 1;
            }
        }
        space
    }

    /// Whether `event` is legal here.
    pub fn is_legal(&self, event: Event) -> bool {
        if self.winner.is_some() {
            return false;
        }
        match (self.phase, event) {
            (Phase::Roll, Event::Roll(_)) | (Phase::Decide, Event::Continue) => true,
            (Phase::Decide, Event::Stop) => self.may_stop(),
            (Phase::Choose(dice), Event::Choose(choice)) => self.choices(dice).contains(&choice),
            _ => false,
        }
    }

    /// The position after the legal `event` (checked only in debug builds: see
    /// [`Position::is_legal`]).
    pub fn play(&self, event: Event) -> Position {
        debug_assert!(self.is_legal(event), "illegal event {event:?} in {self:?}");
        let mut next = *self;
        match event {
            Event::Roll(dice) => {
                if self.choices(dice).is_empty() {
                    next.bust();
                } else {
                    next.phase = Phase::Choose(dice);
                }
            }
            Event::Choose(choice) => {
                for &column in choice.columns() {
                    next.advance(board::index(column));
                }
                next.phase = Phase::Decide;
            }
            Event::Continue => next.phase = Phase::Roll,
            Event::Stop => next.bank(),
        }
        next
    }

    /// Advances in the column of index `column`: moves its neutral marker up, or places one
    /// above the mover's coloured marker, on the space [`Position::landing`] names.
    fn advance(&mut self, column: usize) {
        self.neutral[column] = self.landing(column);
    }

    /// A bust: the neutral markers come off and the turn passes.
    fn bust(&mut self) {
        self.neutral = [0; COLUMNS];
        self.pass_turn();
    }

    /// A stop: the neutral markers become the mover's coloured markers, columns reaching their
    /// top are won (other players' markers there removed), and the turn passes.
    fn bank(&mut self) {
        let mover = self.to_move();
        for (c, &height) in HEIGHTS.iter().enumerate() {
            if self.neutral[c] != 0 {
                self.markers[mover][c] = self.neutral[c];
                if self.neutral[c] == height {
                    for p in (0..self.players()).filter(|&p| p != mover) {
                        self.markers[p][c] = 0;
                    }
                }
            }
        }
        self.neutral = [0; COLUMNS];
        self.update_won();
        self.pass_turn();
    }

    /// The next player's turn starts: dice to roll.
    fn pass_turn(&mut self) {
        self.to_move = self.next_player(self.to_move()) as u8;
        self.phase = Phase::Roll;
    }

    /// Whether a turn starts here (dice to roll, no neutral marker placed) or the game is over.
    pub fn is_turn_start(&self) -> bool {
        self.winner.is_some() || (self.phase == Phase::Roll && self.neutral == [0; COLUMNS])
    }

    /// The position the mover would bank by stopping now (the neutral markers made his), with
    /// the same player still to move: what his turn has gained so far.
    pub fn banked(&self) -> Position {
        let mut next = *self;
        next.bank();
        next.to_move = self.to_move;
        next
    }

    /// The number of event sequences of length `depth` (perft): a roll phase has 126 rolls, a
    /// bust is part of its roll, a finished game has no events.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let events = self.legal_events();
        if depth == 1 {
            return events.len() as u64;
        }
        events.iter().map(|&e| self.play(e).perft(depth - 1)).sum()
    }
}

#[cfg(test)]
mod tests;
