//! The engine's options: their table (printed by `uci`/`ugi`), their current values, and the
//! validation of `setoption`.
//!
//! Validation is pure: [`Options::check`] turns a `setoption` name and value into a
//! [`Change`] or a one-line error, and [`Options::apply`] records it. The engine loop then does
//! what a change needs (resize the table, restart the threads); this module knows nothing of
//! the search. Names are matched ignoring case (the UCI specification asks for it), spaces and
//! underscores, so `hash` (as the cutegames runner sends it), `Move Overhead` (Stockfish's
//! spelling) and `MoveOverhead` all work.

use super::command::quote;
use crate::game::RuleOption;
use crate::levels;
use std::time::Duration;

/// The default transposition-table size in MiB.
pub const DEFAULT_HASH_MIB: usize = 64;
/// The largest table the option accepts, in MiB: the search's one maximum (the memory
/// available is checked when the table is made, see [`crate::search::hash_size`]).
pub use crate::search::MAX_HASH_MIB;
/// The most search threads the option accepts.
pub const MAX_THREADS: usize = 256;
/// The default move overhead in milliseconds: the longest delay measured between the budget's
/// end and the runner reading `bestmove`, 23.8 ms over 12,900 moves at 100 ms per move with two
/// busy processes on two cores (1 and 2 threads, `benches/load-test.sh`), rounded up. A runner
/// that grants no margin on the clock (cutegames) then still gets every move in time.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 25;
/// The largest move overhead the option accepts, in milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;

/// The current value of every option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `Hash`: the transposition-table size in MiB.
    pub hash_mib: usize,
    /// `Threads`: search threads.
    pub threads: usize,
    /// `MoveOverhead`: subtracted from every time budget.
    pub move_overhead: Duration,
    /// `Ponder`: whether the GUI may send `go ponder`; after `uci`, `bestmove` carries `ponder R`
    /// only when it is on (pondering itself works either way).
    pub ponder: bool,
    /// `UCI_Variant`: the game, a name of the variant registry.
    pub variant: &'static str,
    /// `Players`: the number of players of `position startpos` in a dice game.
    pub players: usize,
    /// The rule options set (`ColumnsToWin`, ...), each with its value, in the order first set;
    /// an option not listed has its default. Each applies to the games that have it.
    pub rule_options: Vec<(&'static RuleOption, &'static str)>,
    /// `Strategy`: how a dice game's decisions are taken: `search` or a built-in fixed player.
    pub strategy: &'static str,
    /// `Seed`: the seed of the `random` strategy and of a weakened level's choices.
    pub seed: u64,
    /// `MultiPV`: the best lines the search reports (board games), or decisions (dice games).
    pub multipv: usize,
    /// `Skill Level`: 0 (weakest) to [`levels::FULL`] (full strength, the default).
    pub skill_level: u32,
    /// `UCI_LimitStrength`: play at the level `UCI_Elo` stands for instead of `Skill Level`.
    pub limit_strength: bool,
    /// `UCI_Elo`: the strength asked for when `UCI_LimitStrength` is on.
    pub elo: u32,
}

/// The most lines `MultiPV` accepts.
pub const MAX_MULTIPV: u64 = 256;
/// The range of `UCI_Elo`: the scale of docs/levels.md, on which the uniformly random mover is
/// 0; a value beyond a variant's levels plays its nearest level.
pub const MIN_ELO: u64 = 0;
/// The top of the `UCI_Elo` range.
pub const MAX_ELO: u64 = 4000;

/// The strategy that searches; the others are the dice games' fixed players.
pub const SEARCH_STRATEGY: &str = "search";
/// The most players the `Players` option accepts.
pub const MAX_PLAYERS: u64 = 4;
/// The largest `Seed`.
pub const MAX_SEED: u64 = u32::MAX as u64;

/// The values of `Strategy`: `search`, then every dice game's fixed players.
pub fn strategies() -> Vec<&'static str> {
    let mut names = vec![SEARCH_STRATEGY];
    for name in crate::variants::fixed_players() {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mib: DEFAULT_HASH_MIB,
            threads: 1,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            ponder: false,
            variant: crate::variants::DEFAULT_VARIANT,
            players: 2,
            rule_options: Vec::new(),
            strategy: SEARCH_STRATEGY,
            seed: 0,
            multipv: 1,
            skill_level: levels::FULL,
            limit_strength: false,
            elo: MAX_ELO as u32,
        }
    }
}

/// A valid `setoption`, ready to apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Resize the transposition table (its contents are lost).
    Hash(usize),
    /// Change the number of search threads.
    Threads(usize),
    /// Change the move overhead.
    MoveOverhead(Duration),
    /// Set the `Ponder` flag.
    Ponder(bool),
    /// Select a variant.
    Variant(&'static str),
    /// The number of players of a dice game's start.
    Players(usize),
    /// A rule option of a game, with its value.
    RuleOption(&'static RuleOption, &'static str),
    /// How a dice game's decisions are taken.
    Strategy(&'static str),
    /// The seed of the `random` strategy and of the levels' choices.
    Seed(u64),
    /// The number of lines to report.
    MultiPv(usize),
    /// The level of `Skill Level`.
    SkillLevel(u32),
    /// `UCI_LimitStrength` on or off.
    LimitStrength(bool),
    /// The strength of `UCI_Elo`.
    Elo(u32),
    /// The `Clear Hash` button: forget the table and histories.
    ClearHash,
    /// `setoption name debug value true|false`: the `debug on|off` command in the form of an
    /// option, as the cutegames runner sends it (not declared: `debug` is a command).
    Debug(bool),
    /// `setoption name OwnBook value false`: the engine has no book of its own, so turning it
    /// off is accepted and changes nothing (runners such as cutegames send it to every engine);
    /// `true` is refused.
    NoOwnBook,
}

impl Change {
    /// True when applying the change needs the searcher (so it must wait for a search to end).
    pub fn needs_searcher(self) -> bool {
        matches!(self, Change::Hash(_) | Change::Threads(_) | Change::ClearHash | Change::Variant(_))
    }
}

impl Options {
    /// The `option ...` lines of the handshake, one per option.
    pub fn declarations() -> Vec<String> {
        let mut lines = vec![
            format!("option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"),
            format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
            format!(
                "option name MoveOverhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
            ),
            "option name Ponder type check default false".to_string(),
            format!(
                "option name UCI_Variant type combo default {} var {}",
                crate::variants::DEFAULT_VARIANT,
                crate::variants::names().join(" var ")
            ),
            "option name Clear Hash type button".to_string(),
            format!("option name Players type spin default 2 min 2 max {MAX_PLAYERS}"),
        ];
        lines.extend(crate::variants::rule_options().iter().map(|o| o.declaration()));
        lines.extend([
            format!(
                "option name Strategy type combo default {SEARCH_STRATEGY} var {}",
                strategies().join(" var ")
            ),
            format!("option name Seed type spin default 0 min 0 max {MAX_SEED}"),
            format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
            format!("option name Skill Level type spin default {0} min 0 max {0}", levels::FULL),
            "option name UCI_LimitStrength type check default false".to_string(),
            format!("option name UCI_Elo type spin default {MAX_ELO} min {MIN_ELO} max {MAX_ELO}"),
            "option name TablebasePath type string default <empty>".to_string(),
        ]);
        lines
    }

    /// True for `TablebasePath` (in any case and spacing): the directory of the endgame tables,
    /// which the session installs itself (a path is no [`Change`]).
    pub fn is_tablebase_path(name: &str) -> bool {
        option_key(name) == "tablebasepath"
    }

    /// Validates `setoption name NAME [value VALUE]`.
    pub fn check(name: &str, value: Option<&str>) -> Result<Change, String> {
        let key = option_key(name);
        let value = value.map(str::trim);
        match key.as_str() {
            "hash" => {
                // In range here; whether the memory is there is the session's to check, against
                // the table it would replace.
                Ok(Change::Hash(spin("Hash", value, 1, MAX_HASH_MIB as u64)? as usize))
            }
            "threads" => Ok(Change::Threads(spin("Threads", value, 1, MAX_THREADS as u64)? as usize)),
            "moveoverhead" => Ok(Change::MoveOverhead(Duration::from_millis(spin(
                "MoveOverhead",
                value,
                0,
                MAX_MOVE_OVERHEAD_MS,
            )?))),
            "ponder" => check_value("Ponder", value).map(Change::Ponder),
            "debug" => check_value("debug", value).map(Change::Debug),
            "ownbook" => match check_value("OwnBook", value)? {
                false => Ok(Change::NoOwnBook),
                true => Err("OwnBook: this engine has no opening book of its own".to_string()),
            },
            "ucivariant" => {
                let names = crate::variants::names().join(", ");
                let Some(value) = value else {
                    return Err(format!("UCI_Variant: a value is required ({names})"));
                };
                crate::variants::find(value).map(|v| Change::Variant(v.name)).map_err(|_| {
                    format!("UCI_Variant: unsupported variant {} (supported: {names})", quote(value))
                })
            }
            "clearhash" => Ok(Change::ClearHash),
            "players" => Ok(Change::Players(spin("Players", value, 2, MAX_PLAYERS)? as usize)),
            "seed" => Ok(Change::Seed(spin("Seed", value, 0, MAX_SEED)?)),
            "multipv" => Ok(Change::MultiPv(spin("MultiPV", value, 1, MAX_MULTIPV)? as usize)),
            "skilllevel" => {
                Ok(Change::SkillLevel(spin("Skill Level", value, 0, u64::from(levels::FULL))? as u32))
            }
            "ucilimitstrength" => check_value("UCI_LimitStrength", value).map(Change::LimitStrength),
            "ucielo" => Ok(Change::Elo(spin("UCI_Elo", value, MIN_ELO, MAX_ELO)? as u32)),
            "strategy" => {
                let names = strategies();
                let found = value.and_then(|v| names.iter().find(|n| n.eq_ignore_ascii_case(v)));
                found.map(|&n| Change::Strategy(n)).ok_or_else(|| {
                    format!(
                        "Strategy: value {} is not one of {}",
                        quote(value.unwrap_or("")),
                        names.join(", ")
                    )
                })
            }
            _ => match crate::variants::rule_options().into_iter().find(|o| o.is_named(name)) {
                Some(option) => {
                    let Some(value) = value.filter(|v| !v.is_empty()) else {
                        return Err(format!("{}: a value is required ({})", option.name, option.summary()));
                    };
                    Ok(Change::RuleOption(option, option.value(value)?))
                }
                None => Err(format!(
                    "unknown option {} (options: Hash, Threads, MoveOverhead, Ponder, UCI_Variant, Clear Hash, Players, {}Strategy, Seed, MultiPV, Skill Level, UCI_LimitStrength, UCI_Elo, TablebasePath)",
                    quote(name),
                    crate::variants::rule_options()
                        .iter()
                        .map(|o| format!("{}, ", o.name))
                        .collect::<String>()
                )),
            },
        }
    }

    /// The level the engine plays at in `variant` (`None`: full strength): `UCI_Elo`'s when
    /// `UCI_LimitStrength` is on, else `Skill Level`'s.
    pub fn level(&self, variant: &crate::variants::VariantInfo) -> Option<u32> {
        let level = if self.limit_strength {
            levels::level_for_elo(&levels::elo_table(levels::played(variant)), self.elo as i32)
        } else {
            self.skill_level
        };
        (level < levels::FULL).then_some(level)
    }

    /// Records a change (the caller does the work the change needs).
    pub fn apply(&mut self, change: Change) {
        match change {
            Change::Hash(mib) => self.hash_mib = mib,
            Change::Threads(n) => self.threads = n,
            Change::MoveOverhead(d) => self.move_overhead = d,
            Change::Ponder(on) => self.ponder = on,
            Change::Variant(v) => self.variant = v,
            Change::Players(n) => self.players = n,
            Change::RuleOption(option, value) => {
                self.rule_options.retain(|(o, _)| *o != option);
                if value != option.default_value() {
                    self.rule_options.push((option, value));
                }
            }
            Change::Strategy(name) => self.strategy = name,
            Change::Seed(seed) => self.seed = seed,
            Change::MultiPv(n) => self.multipv = n,
            Change::SkillLevel(level) => self.skill_level = level,
            Change::LimitStrength(on) => self.limit_strength = on,
            Change::Elo(elo) => self.elo = elo,
            Change::ClearHash | Change::Debug(_) | Change::NoOwnBook => {}
        }
    }
}

/// A check value: `true` or `false` (any case).
fn check_value(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        Some(other) => Err(format!("{name}: value {} is not 'true' or 'false'", quote(other))),
        None => Err(format!("{name}: a value is required ('true' or 'false')")),
    }
}

/// A spin value in `min..=max`.
fn spin(name: &str, value: Option<&str>, min: u64, max: u64) -> Result<u64, String> {
    let Some(text) = value.filter(|v| !v.is_empty()) else {
        return Err(format!("{name}: a value is required (a whole number from {min} to {max})"));
    };
    match text.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        Ok(_) => Err(format!("{name}: value {} is out of range {min}..{max}", quote(text))),
        Err(_)
            if text.starts_with('-') && text[1..].chars().all(|c| c.is_ascii_digit()) && text.len() > 1 =>
        {
            Err(format!("{name}: value {} is out of range {min}..{max}", quote(text)))
        }
        Err(_) => Err(format!("{name}: value {} is not a whole number from {min} to {max}", quote(text))),
    }
}

/// An option's name as options are matched: without spaces and underscores, in lower case
/// (`Clear Hash`, `clear_hash` and `ClearHash` are one option).
fn option_key(name: &str) -> String {
    name.chars().filter(|c| *c != ' ' && *c != '_').flat_map(char::to_lowercase).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_ignore_case_spaces_and_underscores() {
        assert_eq!(Options::check("hash", Some("16")), Ok(Change::Hash(16)));
        assert_eq!(Options::check("HASH", Some(" 16 ")), Ok(Change::Hash(16)));
        assert_eq!(Options::check("Threads", Some("2")), Ok(Change::Threads(2)));
        assert_eq!(Options::check("Move Overhead", Some("0")), Ok(Change::MoveOverhead(Duration::ZERO)));
        assert_eq!(Options::check("uci_variant", Some("Impasse")), Ok(Change::Variant("impasse")));
        assert_eq!(Options::check("Clear Hash", None), Ok(Change::ClearHash));
        assert_eq!(Options::check("Ponder", Some("TRUE")), Ok(Change::Ponder(true)));
        assert_eq!(Options::check("players", Some("4")), Ok(Change::Players(4)));
        assert_eq!(Options::check("Strategy", Some("Rule28")), Ok(Change::Strategy("rule28")));
        assert_eq!(Options::check("Seed", Some("7")), Ok(Change::Seed(7)));
        assert_eq!(Options::check("multipv", Some("3")), Ok(Change::MultiPv(3)));
        assert_eq!(Options::check("Skill Level", Some("0")), Ok(Change::SkillLevel(0)));
        assert_eq!(Options::check("UCI_LimitStrength", Some("true")), Ok(Change::LimitStrength(true)));
        assert_eq!(Options::check("UCI_Elo", Some("1200")), Ok(Change::Elo(1200)));
        // What cutegames sends every engine (lower case, undeclared debug and OwnBook).
        assert_eq!(Options::check("debug", Some("false")), Ok(Change::Debug(false)));
        assert_eq!(Options::check("ownbook", Some("false")), Ok(Change::NoOwnBook));
        assert!(Options::check("OwnBook", Some("true")).unwrap_err().contains("no opening book"));
    }

    #[test]
    fn bad_values_are_explained() {
        let error = |name: &str, value: Option<&str>| Options::check(name, value).unwrap_err();
        assert!(error("Hash", Some("0")).contains("out of range 1..65536"));
        assert!(error("Hash", Some("-5")).contains("out of range"));
        assert!(error("Hash", Some("lots")).contains("not a whole number"));
        assert!(error("Hash", None).contains("a value is required"));
        assert!(error("Threads", Some("257")).contains("out of range 1..256"));
        assert!(error("MoveOverhead", Some("5001")).contains("out of range 0..5000"));
        assert!(error("Ponder", Some("yes")).contains("not 'true' or 'false'"));
        assert!(error("UCI_Variant", Some("chess")).contains("unsupported variant 'chess'"));
        assert!(error("Players", Some("5")).contains("out of range 2..4"));
        assert!(
            error("Strategy", Some("clever")).contains("not one of search, rule28, glenn, greedy, random")
        );
        assert!(error("MultiPV", Some("0")).contains("out of range 1..256"));
        assert!(error("Skill Level", Some("10")).contains("out of range 0..9"));
        assert!(error("UCI_Elo", Some("4001")).contains("out of range 0..4000"));
        assert!(error("Contempt", Some("3")).starts_with("unknown option 'Contempt'"));
        assert!(error("ColumnsToWin", Some("6")).contains("not a whole number from 3 to 5"));
        assert!(error("CantStopVariant", Some("both")).contains("not one of none, skip, mustroll"));
        assert!(error("ColumnsToWin", None).contains("a value is required (ColumnsToWin 3..5)"));
    }

    #[test]
    fn rule_options_are_recorded_by_name_defaults_left_out() {
        let mut options = Options::default();
        let Ok(Change::RuleOption(w, four)) = Options::check("columns_to_win", Some("4")) else {
            panic!("ColumnsToWin 4 is an option");
        };
        assert_eq!((w.name, four), ("ColumnsToWin", "4"));
        options.apply(Change::RuleOption(w, four));
        let Ok(skip) = Options::check("CantStopVariant", Some("SKIP")) else { panic!("skip") };
        options.apply(skip);
        assert_eq!(
            options.rule_options.iter().map(|(o, v)| (o.name, *v)).collect::<Vec<_>>(),
            [("ColumnsToWin", "4"), ("CantStopVariant", "skip")]
        );
        // Setting a default again removes the entry: the list is what differs from the game's rules.
        options.apply(Change::RuleOption(w, "3"));
        assert_eq!(options.rule_options.len(), 1);
    }

    #[test]
    fn declarations_match_the_defaults() {
        let lines = Options::declarations();
        assert_eq!(lines.len(), 16);
        assert!(lines.iter().all(|l| l.starts_with("option name ")));
        assert_eq!(lines[15], "option name TablebasePath type string default <empty>");
        // The rule options come from the variant registry (Can't Stop's, after Players).
        assert_eq!(lines[7], "option name ColumnsToWin type spin default 3 min 3 max 5");
        assert_eq!(
            lines[8],
            "option name CantStopVariant type combo default none var none var skip var mustroll"
        );
        let options = Options::default();
        assert_eq!((options.hash_mib, options.threads, options.variant), (64, 1, "impasse"));
    }
}
