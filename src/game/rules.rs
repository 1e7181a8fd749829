//! The [`Rules`] trait: the one face every game shows the tools, the protocol, the match
//! runner and the GUI, whichever search plays it.
//!
//! The model is OpenSpiel's `State`: a game is a sequence of *steps*, and every position says
//! what kind of node it is ([`Node`]): a decision of the player to move, a chance event with
//! integer weights, or the end, with a [`GameResult`]. A board game is the case without chance
//! nodes and with two seats; a dice game has both kinds and 2 to 4 seats. Everything written over
//! this trait (perft, random play, the referee, records, the conformance suite) is written once.
//!
//! The searches do not see this trait: alpha-beta reads [`crate::game::Game`] and expectimax
//! [`crate::game::ChanceGame`], both lean and fast. A game implements this trait beside its
//! search's, in its own room (`src/NAME/game.rs`), and which search plays a variant is a capability
//! of its registry entry (`crate::variants`).
//!
//! What tells apart the variants one game type plays (a board size, a number of players, rule
//! options) is its [`Params`], handed to the constructors.

use std::fmt::{self, Debug, Display};
use std::hash::Hash;
use std::ops::RangeInclusive;

/// What comes next in a position: the kind of node it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// A chance event: one of the outcomes, by their weights.
    Chance,
    /// A decision of the player to move.
    Decision,
    /// Nothing: the game is over.
    Over,
}

/// A player of a two-player board game, by the order of play: `P1` moves first (White in
/// Impasse, Dipole and HexDame). Seat 0 is `P1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who moves first from the start position.
    P1,
    /// The other player.
    P2,
}

impl Player {
    /// Both players, in the order of play.
    pub const BOTH: [Player; 2] = [Player::P1, Player::P2];

    /// The other player.
    pub const fn opponent(self) -> Player {
        match self {
            Player::P1 => Player::P2,
            Player::P2 => Player::P1,
        }
    }

    /// 0 for `P1`, 1 for `P2`: the player's seat.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The player in `seat` (0 or 1) of a two-player game; any other seat is `P2`'s, which a
    /// two-player game never asks for.
    pub const fn of_seat(seat: usize) -> Player {
        if seat == 0 { Player::P1 } else { Player::P2 }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The player in this seat (0-based) has won; every other has lost.
    Win(usize),
    /// Nobody has won (HexDame: by the rules or by threefold repetition).
    Draw,
}

impl GameResult {
    /// What the result gives the player in `seat` of `players`: 1 for a win, 0 for a loss, and
    /// an equal share of 1 for a draw (OpenSpiel's returns, on a 0..1 scale).
    pub fn score(self, seat: usize, players: usize) -> f64 {
        match self {
            GameResult::Win(winner) => f64::from(u8::from(winner == seat)),
            GameResult::Draw => 1.0 / players.max(1) as f64,
        }
    }

    /// The winner's seat, `None` after a draw.
    pub fn winner(self) -> Option<usize> {
        match self {
            GameResult::Win(winner) => Some(winner),
            GameResult::Draw => None,
        }
    }
}

/// Why a step text was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextError {
    /// Not a step of the game's notation at all; `reason` says what is wrong.
    Malformed {
        /// The text.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Well formed, but no legal step of the position has this text; `hint` is empty or starts
    /// with a space or a colon and says what would have been legal (`" (the game is over)"`).
    Illegal {
        /// The text.
        text: String,
        /// Empty, or what would have been legal, starting with a space or a colon.
        hint: String,
    },
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveTextError::Malformed { text, reason } => write!(f, "malformed move '{text}': {reason}"),
            MoveTextError::Illegal { text, hint } => {
                write!(f, "illegal move '{text}' in this position{hint}")
            }
        }
    }
}

impl std::error::Error for MoveTextError {}

/// What tells apart the variants one game type plays: the board size, the number of players,
/// the rule options. A game with a single form uses `()`; the default is the game's standard
/// form (Dipole on 8x8, Can't Stop for two).
pub trait Params: Copy + Eq + Debug + Default + Send + Sync + 'static {
    /// The rule options of the game (the rulebook's variants), each once; none for most games.
    const RULE_OPTIONS: &'static [RuleOption] = &[];

    /// The number of players these parameters seat.
    fn players(&self) -> usize;
    /// The same parameters for `players` players, or why the game cannot seat that many (with
    /// the rule options in force).
    fn with_players(self, players: usize) -> Result<Self, String>;
    /// The same parameters with the rule option `option` (one of [`Params::RULE_OPTIONS`]) set
    /// to `value` (one of its values), or why the rules do not offer that combination.
    fn with_option(self, option: &'static RuleOption, value: &'static str) -> Result<Self, String> {
        let _ = value;
        Err(format!("this game has no option {}", option.name))
    }
    /// The value of every rule option, in the order of [`Params::RULE_OPTIONS`].
    fn option_values(&self) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }
}

/// A rule option of a game: a variant of its rules that an engine offers and a player chooses
/// before the game (Can't Stop's columns to win). One declaration serves the protocol
/// (`setoption name NAME value VALUE`, declared in `uci`), the command line (`--option
/// NAME=VALUE`), the match runner's records and the GUI's new-game form.
#[derive(Debug, PartialEq, Eq)]
pub struct RuleOption {
    /// The name, as the protocol and the records spell it (`ColumnsToWin`).
    pub name: &'static str,
    /// The name as a person reads it (`Columns to win`), for the GUI's form.
    pub label: &'static str,
    /// Every value, the default first, as the protocol spells them.
    pub values: &'static [&'static str],
    /// True when the values are consecutive whole numbers: declared as a `spin`, else a `combo`.
    pub spin: bool,
    /// One line on what the option does (for `--help` texts and the GUI).
    pub help: &'static str,
}

impl RuleOption {
    /// The default value.
    pub fn default_value(&self) -> &'static str {
        self.values[0]
    }

    /// The protocol's `option name ...` line declaring it.
    pub fn declaration(&self) -> String {
        if self.spin {
            let (min, max) = (self.values[0], self.values[self.values.len() - 1]);
            format!(
                "option name {} type spin default {} min {min} max {max}",
                self.name,
                self.default_value()
            )
        } else {
            format!(
                "option name {} type combo default {} var {}",
                self.name,
                self.default_value(),
                self.values.join(" var ")
            )
        }
    }

    /// True when `name` names this option: case, spaces and underscores aside (as UCI options
    /// are matched).
    pub fn is_named(&self, name: &str) -> bool {
        let key = |text: &str| -> String {
            text.chars().filter(|c| *c != ' ' && *c != '_').flat_map(char::to_lowercase).collect()
        };
        key(self.name) == key(name)
    }

    /// The value written `text` (any case), or the one-line error that lists the values.
    pub fn value(&self, text: &str) -> Result<&'static str, String> {
        let text = text.trim();
        self.values.iter().copied().find(|v| v.eq_ignore_ascii_case(text)).ok_or_else(|| {
            if self.spin {
                let (min, max) = (self.values[0], self.values[self.values.len() - 1]);
                format!("{}: value '{text}' is not a whole number from {min} to {max}", self.name)
            } else {
                format!("{}: value '{text}' is not one of {}", self.name, self.values.join(", "))
            }
        })
    }

    /// `NAME VALUES` for a list of options: `ColumnsToWin 3..5` or `CantStopVariant none|skip`.
    pub fn summary(&self) -> String {
        if self.spin {
            format!("{} {}..{}", self.name, self.values[0], self.values[self.values.len() - 1])
        } else {
            format!("{} {}", self.name, self.values.join("|"))
        }
    }
}

/// The rule option of `P` called `name`, or why there is none (the error lists the game's).
pub fn rule_option<P: Params>(name: &str) -> Result<&'static RuleOption, String> {
    P::RULE_OPTIONS.iter().find(|o| o.is_named(name)).ok_or_else(|| {
        if P::RULE_OPTIONS.is_empty() {
            format!("unknown option '{}': this game has no rule options", name.trim())
        } else {
            let known: Vec<String> = P::RULE_OPTIONS.iter().map(RuleOption::summary).collect();
            format!("unknown option '{}' (this game's options: {})", name.trim(), known.join(", "))
        }
    })
}

/// `params` with the rule options `settings` (name and value texts, as given) applied in
/// order, each checked; the first error says which setting failed and why.
pub fn with_settings<P: Params>(params: P, settings: &[(String, String)]) -> Result<P, String> {
    settings.iter().try_fold(params, |params, (name, value)| {
        let option = rule_option::<P>(name)?;
        params.with_option(option, option.value(value)?)
    })
}

/// `base` for `players` players (clamped to what `G` seats) under those of the rule option
/// `settings` that `G` has (the others are another game's): the options first, since two
/// players are offered every combination, then the players, which the rules check against
/// them.
pub fn params_under<G: Rules>(
    base: G::Params,
    players: usize,
    settings: &[(&'static RuleOption, &'static str)],
) -> Result<G::Params, String> {
    let mut params = base;
    for &(option, value) in settings.iter().filter(|(o, _)| G::Params::RULE_OPTIONS.contains(o)) {
        params = params.with_option(option, value)?;
    }
    let seated = players.clamp(*G::PLAYERS.start(), *G::PLAYERS.end());
    if seated == params.players() { Ok(params) } else { params.with_players(seated) }
}

/// A `NAME=VALUE` setting of the command line, split at its first `=`, both sides trimmed.
pub fn parse_setting(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() && !value.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("'{text}' is not NAME=VALUE (for example ColumnsToWin=4)")),
    }
}

/// The parameters of a two-player game with one form.
impl Params for () {
    fn players(&self) -> usize {
        2
    }

    fn with_players(self, players: usize) -> Result<(), String> {
        two_players_only(self, players)
    }
}

/// `params` itself when `players` is 2; the error of a two-player game otherwise.
pub fn two_players_only<P>(params: P, players: usize) -> Result<P, String> {
    if players == 2 { Ok(params) } else { Err(format!("this game has 2 players, not {players}")) }
}

/// A game as every tool sees it: nodes of three kinds, steps with one text form, a result per
/// player. The searches see the game through their own traits; see the module header.
pub trait Rules: Copy + Send + Sync + Debug + Eq + Hash + 'static {
    /// One step: a player's move or decision, or a chance outcome. `Display` writes the game's
    /// notation, which [`Rules::parse_step`] reads back.
    type Step: Copy + Eq + Hash + Send + Sync + Debug + Display + 'static;
    /// A list of steps, usually a fixed-capacity array on the stack.
    type Steps: AsRef<[Self::Step]>;
    /// What tells apart the variants this type plays.
    type Params: Params;

    /// The fewest and the most players of the game (`2..=2` for a board game).
    const PLAYERS: RangeInclusive<usize>;
    /// The names of the seats as the game calls them, seat 0 first (`["white", "black"]`);
    /// at least as many as [`Rules::PLAYERS`] allows.
    const SEAT_NAMES: &'static [&'static str];
    /// The number of space-separated fields of a position text, so that an EPD line can tell
    /// where the position ends and its operations begin.
    const FEN_FIELDS: usize;
    /// What the game's static evaluation counts, for help texts and reports ("hundredths of a
    /// checker").
    const EVAL_UNIT: &'static str;
    /// True for a game that is drawn when a position occurs for the third time (HexDame). A
    /// position cannot tell; the game's history ([`crate::game::GameHistory`]) can.
    const DRAWS_BY_REPETITION: bool = false;

    /// The start position.
    fn start(params: Self::Params) -> Self;
    /// The position written as `text`, or a one-line reason why it is not one.
    fn parse_fen(params: Self::Params, text: &str) -> Result<Self, String>;
    /// The position's text, canonical: [`Rules::parse_fen`] reads it back to the same position.
    fn fen(&self) -> String;
    /// The parameters of the variant this position belongs to.
    fn params(&self) -> Self::Params;

    /// The number of players of this game.
    fn players(&self) -> usize;
    /// The seat (0-based) whose turn it is: the player to decide, the player whose turn a chance
    /// event belongs to, or in a finished game the one who would move next.
    fn to_move(&self) -> usize;
    /// What kind of node this is.
    fn node(&self) -> Node;
    /// How the game ended, or `None` while it goes on (a draw by repetition excepted: see
    /// [`Rules::DRAWS_BY_REPETITION`]).
    fn result(&self) -> Option<GameResult>;

    /// Every legal step, in the generator's order, as fast as the game can list them (perft
    /// walks the tree with it); empty exactly when the node is [`Node::Over`].
    fn steps(&self) -> Self::Steps;
    /// Every legal step in the game's listing order (board games: sorted by their text), as
    /// `d`, `moves` and `divide` show them.
    fn legal_steps(&self) -> Vec<Self::Step> {
        self.steps().as_ref().to_vec()
    }
    /// The number of legal steps, counted without making them where the game can (perft's last
    /// ply).
    fn count_steps(&self) -> u64 {
        self.steps().as_ref().len() as u64
    }
    /// The position after the legal step `step`.
    fn play(&self, step: Self::Step) -> Self;
    /// The legal step written as `text`; the error tells text that is no step of the notation
    /// ([`MoveTextError::Malformed`]) from a step not legal here.
    fn parse_step(&self, text: &str) -> Result<Self::Step, MoveTextError>;

    /// At a chance node, the distinct outcomes with their integer weights (which sum to
    /// [`Rules::chance_total`]); empty elsewhere. Outcomes that lead to the same choices may be
    /// merged into one, as long as the weights still sum to the total.
    fn chance_outcomes(&self) -> Vec<(Self::Step, u32)> {
        Vec::new()
    }
    /// The number of equally likely elementary outcomes of a chance node (1296 for four dice);
    /// 0 where the game has no chance.
    fn chance_total(&self) -> u32 {
        0
    }
    /// The chance step of the `index`-th of the [`Rules::chance_total`] equally likely elementary
    /// outcomes: how a referee draws the dice from a random number. `None` at a node that is no
    /// chance node.
    fn chance_step(&self, _index: u32) -> Option<Self::Step> {
        None
    }

    /// A 64-bit key of the position (its Zobrist hash where it has one): equal positions have
    /// equal keys. Repetitions are found by it.
    fn key(&self) -> u64;
    /// True when the position before `step` can occur again after it (HexDame: a king's move
    /// that captures nothing). Only asked when [`Rules::DRAWS_BY_REPETITION`] holds.
    fn may_recur_after(&self, _step: Self::Step) -> bool {
        false
    }

    /// The board as text, one line per row, with coordinates (the protocol's `d`).
    fn diagram(&self) -> Vec<String>;
    /// One line on how a finished game ended (`white has won: black has no checkers left`);
    /// `None` while it goes on.
    fn ending(&self) -> Option<String> {
        result_text(self)
    }
}

/// The start of game `G` under `params` for `players` players, or why it has no such form.
pub fn start_for_players<G: Rules>(params: G::Params, players: usize) -> Result<G, String> {
    Ok(G::start(params.with_players(players)?))
}

/// The position `text` of game `G` read with its standard parameters (enough for a game whose
/// text says everything, as Can't Stop's does).
pub fn parse_standard_fen<G: Rules>(text: &str) -> Result<G, String> {
    G::parse_fen(G::Params::default(), text)
}

/// The name of the player in `seat` of game `G` (`a player` past the game's names, which a
/// game never asks for: its names cover every seat).
pub fn seat_name<G: Rules>(seat: usize) -> &'static str {
    G::SEAT_NAMES.get(seat).copied().unwrap_or("a player")
}

/// The name of `player` in the two-player game `G`.
pub fn player_name<G: Rules>(player: Player) -> &'static str {
    seat_name::<G>(player.index())
}

/// The winner of a finished game, `None` while it goes on or after a draw.
pub fn winner<G: Rules>(pos: &G) -> Option<usize> {
    pos.result()?.winner()
}

/// One line on a finished game, `None` while it goes on: `white has won` or `draw`.
pub fn result_text<G: Rules>(pos: &G) -> Option<String> {
    Some(match pos.result()? {
        GameResult::Win(seat) => format!("{} has won", seat_name::<G>(seat)),
        GameResult::Draw => "draw".to_string(),
    })
}

/// The texts of the legal steps, sorted.
pub fn sorted_step_texts<G: Rules>(pos: &G) -> Vec<String> {
    let mut steps: Vec<String> = pos.legal_steps().iter().map(ToString::to_string).collect();
    steps.sort();
    steps
}

/// The legal steps of a board game sorted by their text: the order [`Rules::legal_steps`]
/// promises, for the adapters of games whose generator has an order of its own.
pub fn sorted_by_text<S: Display>(steps: impl IntoIterator<Item = S>) -> Vec<S> {
    let mut keyed: Vec<(String, S)> = steps.into_iter().map(|s| (s.to_string(), s)).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, s)| s).collect()
}
