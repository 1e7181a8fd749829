//! Can't Stop as the tools' [`Rules`] and the chance-node search's [`ChanceGame`].

use crate::cantstop::dice::{self, Dice, OUTCOMES};
use crate::cantstop::options::{self, Options};
use crate::cantstop::{ChoiceSet, Event, EventError, Phase, Position, baseline, eval, glenn, notation, odds};
use crate::game::{ChanceGame, ChanceRules};
use crate::game::{GameResult, MoveTextError, Node, Params, RuleOption, Rules};

/// Can't Stop's parameters: the number of players and the rulebook's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CantStopParams {
    /// 2 to 4 (1 for the solitaire studies, which no FEN writes).
    pub players: usize,
    /// The columns to win and the variant, offered for `players` ([`Options::new`]).
    pub options: Options,
}

/// The option of the columns a player must win.
pub const COLUMNS_TO_WIN: RuleOption = RuleOption {
    name: "ColumnsToWin",
    label: "Columns to win",
    values: &["3", "4", "5"],
    spin: true,
    help: "columns a player must win: 3, or 4 or 5 with two players, 4 with three",
};

/// The option of the rulebook's variants A (skip) and B (must roll).
pub const VARIANT: RuleOption = RuleOption {
    name: "CantStopVariant",
    label: "Rules",
    values: &["none", "skip", "mustroll"],
    spin: false,
    help: "none; skip: a neutral marker skips spaces held by other players; mustroll: no stop while a neutral marker shares a space with another player",
};

impl Default for CantStopParams {
    /// Two players, the base game.
    fn default() -> CantStopParams {
        CantStopParams::with_options(Options::BASE)
    }
}

impl CantStopParams {
    /// Two players under `options`: the parameters of a variant whose players are still to be
    /// set.
    pub const fn with_options(options: Options) -> CantStopParams {
        CantStopParams { players: 2, options }
    }
}

impl Params for CantStopParams {
    const RULE_OPTIONS: &'static [RuleOption] = &[COLUMNS_TO_WIN, VARIANT];

    fn players(&self) -> usize {
        self.players
    }

    fn with_players(self, players: usize) -> Result<CantStopParams, String> {
        if !<Position as Rules>::PLAYERS.contains(&players) {
            return Err(format!("Can't Stop has 2 to 4 players, not {players}"));
        }
        Ok(CantStopParams { players, options: self.options.for_players(players)? })
    }

    fn with_option(self, option: &'static RuleOption, value: &'static str) -> Result<CantStopParams, String> {
        let (mut w, mut variant) = (self.options.columns_to_win(), self.options.variant());
        if *option == COLUMNS_TO_WIN {
            w = value.parse().map_err(|_| format!("ColumnsToWin: '{value}' is not a number"))?;
        } else if *option == VARIANT {
            variant = options::Variant::parse(value)?;
        } else {
            return Err(format!("Can't Stop has no option {}", option.name));
        }
        let options = Options::new(self.players, w, variant).map_err(|e| format!("{}: {e}", option.name))?;
        Ok(CantStopParams { options, ..self })
    }

    fn option_values(&self) -> Vec<(&'static str, &'static str)> {
        let w = usize::from(self.options.columns_to_win() - options::BASE_COLUMNS_TO_WIN);
        vec![(COLUMNS_TO_WIN.name, COLUMNS_TO_WIN.values[w]), (VARIANT.name, self.options.variant().name())]
    }
}

impl Rules for Position {
    type Step = Event;
    type Steps = Vec<Event>;
    type Params = CantStopParams;

    const PLAYERS: std::ops::RangeInclusive<usize> = 2..=4;
    const SEAT_NAMES: &'static [&'static str] = &["player 1", "player 2", "player 3", "player 4"];
    const FEN_FIELDS: usize = 5;
    const EVAL_UNIT: &'static str = "chances of winning";

    fn start(params: CantStopParams) -> Position {
        Position::start_with(params.players, params.options)
    }

    /// The FEN says the players; the options in force are the parameters' (checked for that
    /// many players: rule 10).
    fn parse_fen(params: CantStopParams, text: &str) -> Result<Position, String> {
        Position::parse_fen_with(text, params.options).map_err(|e| e.to_string())
    }

    fn fen(&self) -> String {
        Position::fen(self)
    }

    fn params(&self) -> CantStopParams {
        CantStopParams { players: Position::players(self), options: self.options() }
    }

    fn players(&self) -> usize {
        Position::players(self)
    }

    fn to_move(&self) -> usize {
        Position::to_move(self)
    }

    fn node(&self) -> Node {
        match (self.winner(), self.phase()) {
            (Some(_), _) => Node::Over,
            (None, Phase::Roll) => Node::Chance,
            (None, _) => Node::Decision,
        }
    }

    fn result(&self) -> Option<GameResult> {
        self.winner().map(GameResult::Win)
    }

    fn steps(&self) -> Vec<Event> {
        Position::legal_events(self)
    }

    fn play(&self, event: Event) -> Position {
        Position::play(self, event)
    }

    fn parse_step(&self, text: &str) -> Result<Event, MoveTextError> {
        Position::parse_event(self, text).map_err(|e| match e {
            EventError::Malformed(reason) => MoveTextError::Malformed { text: text.to_string(), reason },
            EventError::Illegal(reason) => {
                MoveTextError::Illegal { text: text.to_string(), hint: format!(": {reason}") }
            }
        })
    }

    /// Rolls that offer the same choices lead to the same positions once chosen, so they are
    /// merged into one outcome (the first such roll, with their weights summed): every bust is
    /// one outcome, and with three markers placed a dozen outcomes remain of 126. The search
    /// then solves each distinct situation once.
    fn chance_outcomes(&self) -> Vec<(Event, u32)> {
        if Rules::node(self) != Node::Chance {
            return Vec::new();
        }
        let mut outcomes: Vec<(u64, Event, u32)> = Vec::with_capacity(64);
        for &dice in dice::all_rolls() {
            let key = choice_set_key(&self.choices(dice));
            match outcomes.iter_mut().find(|(k, _, _)| *k == key) {
                Some((_, _, weight)) => *weight += dice.weight(),
                None => outcomes.push((key, Event::Roll(dice), dice.weight())),
            }
        }
        outcomes.into_iter().map(|(_, event, weight)| (event, weight)).collect()
    }

    fn chance_total(&self) -> u32 {
        OUTCOMES
    }

    fn chance_step(&self, index: u32) -> Option<Event> {
        if Rules::node(self) != Node::Chance {
            return None;
        }
        // The index's four base-6 digits are the four dice, each equally likely.
        let die = |k: u32| (index % OUTCOMES / 6u32.pow(k) % 6) as u8 + 1;
        Some(Event::Roll(Dice::new([die(0), die(1), die(2), die(3)]).expect("dice are 1 to 6")))
    }

    /// Can't Stop has no Zobrist keys (its search keys positions by themselves): a hash of the
    /// position's fields, equal for equal positions.
    fn key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = rustc_hash::FxHasher::default();
        self.hash(&mut hasher);
        hasher.finish()
    }

    fn diagram(&self) -> Vec<String> {
        notation::diagram(self)
    }
}

impl ChanceGame for Position {
    fn decisions(&self) -> Vec<Event> {
        match Rules::node(self) {
            Node::Decision => self.legal_events(),
            _ => Vec::new(),
        }
    }

    fn is_turn_start(&self) -> bool {
        Position::is_turn_start(self)
    }

    fn value(&self, player: usize) -> f64 {
        eval::value(self, player)
    }
}

impl ChanceRules for Position {
    fn solitaire(params: CantStopParams) -> Option<Position> {
        Some(Position::start_with(1, params.options))
    }

    fn odds(&self) -> Vec<String> {
        odds::report(self)
    }

    const FIXED_PLAYERS: &'static [&'static str] = &["rule28", "glenn", "greedy", "random"];

    fn fixed_player(&self, name: &str, seed: u64) -> Option<Event> {
        match name {
            "rule28" => baseline::rule28(self),
            "glenn" => glenn::glenn(self),
            "greedy" => baseline::greedy(self),
            "random" => baseline::random(self, seed),
            _ => None,
        }
    }
}

/// A number that identifies a choice set (sorted, at most six choices of two columns 2-12).
fn choice_set_key(set: &ChoiceSet) -> u64 {
    set.iter().fold(1, |key, choice| {
        let columns = choice.columns();
        let code = u64::from(columns[0]) << 4 | columns.get(1).map_or(0, |&c| u64::from(c));
        key << 8 | code
    })
}
