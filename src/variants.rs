//! The variant registry: the one list of the games `steere` plays, and the one place that
//! turns a variant's name into code monomorphised for its rules.
//!
//! Tools and the protocol are written once, generically over [`Rules`]. [`crate::with_variant`]
//! is the one dispatch: it runs an expression with the named variant's game type and the
//! search that plays it ([`AlphaBeta`] or [`Expectimax`]: which search plays a variant is a
//! capability of its entry); `with_variant!(board ...)` and `with_variant!(dice ...)` are the
//! same for a tool that only one family has. Adding a game is adding a line to [`VARIANTS`] and an arm to
//! [`crate::with_variant`]: nothing else names a game.

use crate::game::{ChanceRules, Params, RuleOption, Rules, rules};

/// The two families of games: each has its own search and its own traits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Two players, alternating moves, no chance: the `Rules` trait and the alpha-beta search.
    Board,
    /// Dice and 2 to 4 players: the `ChanceRules` trait and the chance-node search.
    Dice,
}

/// What the tools know about a variant besides its rules.
#[derive(Debug)]
pub struct VariantInfo {
    /// The name of `--variant` and `UCI_Variant`: lower case, no spaces.
    pub name: &'static str,
    /// One line for `steere variants`.
    pub summary: &'static str,
    /// The rules document of the repository.
    pub rules_doc: &'static str,
    /// The bench positions (`positions/bench-NAME.fen`, compiled in): one position per line.
    pub bench_fens: &'static str,
    /// The default depth of `steere bench` (a few seconds in release on one core).
    pub bench_depth: u32,
    /// The opening book of `steere match` (`positions/openings-NAME.fen`, compiled in); empty
    /// for a dice game, whose matches start from the start and vary by their dice.
    pub openings: &'static str,
    /// The strength levels' parameters and measured Elos (`positions/levels-NAME.txt`,
    /// compiled in; see [`crate::levels`]).
    pub levels: &'static str,
    /// The family: which traits, search and tools the game uses.
    pub family: Family,
}

/// The variant of the commands when none is named.
pub const DEFAULT_VARIANT: &str = "impasse";

/// The variant of the commands for dice games only (`odds`, `solitaire`) when none is named.
pub const DEFAULT_DICE_VARIANT: &str = "cantstop";

/// Every variant, the default first.
pub const VARIANTS: [VariantInfo; 5] = [
    VariantInfo {
        name: "impasse",
        summary: "Impasse (Mark Steere, 2010): 8x8, singles and doubles race to get rid of their checkers",
        rules_doc: "docs/rules/impasse.md",
        bench_fens: include_str!("../positions/bench-impasse.fen"),
        levels: include_str!("../positions/levels-impasse.txt"),
        bench_depth: 14,
        openings: include_str!("../positions/openings-impasse.fen"),
        family: Family::Board,
    },
    VariantInfo {
        name: "dipole",
        summary: "Dipole (Mark Steere, 2007): 8x8, one stack of 12 per side; move k checkers k squares, capture, exit",
        rules_doc: "docs/rules/dipole.md",
        bench_fens: include_str!("../positions/bench-dipole.fen"),
        levels: include_str!("../positions/levels-dipole.txt"),
        bench_depth: 12,
        openings: include_str!("../positions/openings-dipole.fen"),
        family: Family::Board,
    },
    VariantInfo {
        name: "dipole10",
        summary: "Dipole on 10x10 with one stack of 20 per side",
        rules_doc: "docs/rules/dipole.md",
        bench_fens: include_str!("../positions/bench-dipole10.fen"),
        levels: include_str!("../positions/levels-dipole10.txt"),
        bench_depth: 10,
        openings: include_str!("../positions/openings-dipole10.fen"),
        family: Family::Board,
    },
    VariantInfo {
        name: "hexdame",
        summary: "HexDame (Christian Freeling, 1979): international draughts on 61 hexagons; majority capture, flying kings, draws",
        rules_doc: "docs/rules/hexdame.md",
        bench_fens: include_str!("../positions/bench-hexdame.fen"),
        levels: include_str!("../positions/levels-hexdame.txt"),
        bench_depth: 12,
        openings: include_str!("../positions/openings-hexdame.fen"),
        family: Family::Board,
    },
    VariantInfo {
        name: "cantstop",
        summary: "Can't Stop (Sid Sackson, 1980): dice, 2-4 players push their luck up eleven columns",
        rules_doc: "docs/rules/cantstop.md",
        bench_fens: include_str!("../positions/bench-cantstop.fen"),
        levels: include_str!("../positions/levels-cantstop.txt"),
        bench_depth: 3,
        openings: "",
        family: Family::Dice,
    },
];

/// The names of every variant, the default first.
pub fn names() -> Vec<&'static str> {
    VARIANTS.iter().map(|v| v.name).collect()
}

/// The variant called `name` (ignoring case), or an error listing the known ones.
pub fn find(name: &str) -> Result<&'static VariantInfo, String> {
    VARIANTS
        .iter()
        .find(|v| v.name.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| format!("unknown variant '{}' (variants: {})", name.trim(), names().join(", ")))
}

/// A variant with its rules: the registry entry and the parameters its game type needs.
#[derive(Debug)]
pub struct Variant<G: Rules> {
    /// The registry entry.
    pub info: &'static VariantInfo,
    /// What the game type needs to play this variant (the board size of Dipole, the players of
    /// Can't Stop).
    pub params: G::Params,
}

// Not derived: a derive would ask `G` to be `Clone` besides `G::Params`, which it is anyway;
// written out so that `Variant<G>` is `Copy` for every game.
impl<G: Rules> Clone for Variant<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Rules> Copy for Variant<G> {}

impl<G: Rules> Variant<G> {
    /// The variant's name.
    pub fn name(&self) -> &'static str {
        self.info.name
    }

    /// The same variant with the rule options `settings` (`NAME=VALUE` texts, as the command
    /// line gives them) applied in order; the error names the setting that failed.
    pub fn with_options(self, settings: &[String]) -> Result<Variant<G>, String> {
        let pairs = settings.iter().map(|text| rules::parse_setting(text)).collect::<Result<Vec<_>, _>>()?;
        let params = rules::with_settings(self.params, &pairs)?;
        Ok(Variant { params, ..self })
    }

    /// The start position.
    pub fn start(&self) -> G {
        G::start(self.params)
    }

    /// The position written as `text`.
    pub fn parse_fen(&self, text: &str) -> Result<G, String> {
        G::parse_fen(self.params, text)
    }

    /// The bench positions.
    pub fn bench_positions(&self) -> Vec<G> {
        self.positions(self.info.bench_fens).unwrap_or_else(|e| panic!("bench of {}: {e}", self.name()))
    }

    /// The positions of a file with one per line (anything after a `;` ignored), blank lines
    /// and `#` comments skipped; errors name the line.
    pub fn positions(&self, text: &str) -> Result<Vec<G>, String> {
        let mut positions = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let fen = line.split(';').next().unwrap_or("").trim();
            if !fen.is_empty() && !fen.starts_with('#') {
                positions.push(self.parse_fen(fen).map_err(|e| format!("line {}: {e}", i + 1))?);
            }
        }
        Ok(positions)
    }
}

/// The search that plays a board game: alpha-beta over [`BoardRules`](crate::game::BoardRules) (two players, no
/// chance). A marker: each layer that needs a search implements its own trait for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AlphaBeta;

/// The search that plays a dice game: the chance-node search over [`ChanceRules`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Expectimax;

/// The one list of the variants' game types, parameters and searches, as a dispatch.
///
/// `with_variant!(name, |variant, search| body)` evaluates `body` with `variant` bound to the
/// [`Variant`] called `name` (ignoring case) and `search` to the search that plays it
/// ([`AlphaBeta`] or [`Expectimax`]), each arm compiled with the entry's own types, and gives
/// `Ok(body)`, or `Err` naming the known variants. Because each arm is concrete code, `body`
/// may call any trait a layer implements for the searches (`search.analyse(...)`): no struct
/// per call site, and a search that lacks the capability fails to compile rather than at run
/// time.
///
/// `with_variant!(board name, |variant| body)` is the same for a tool that only board games
/// have (`solve`, `book`): `body` is compiled for the board games' entries only (it may ask
/// for [`BoardRules`](crate::game::BoardRules)), and a dice game's name gives `Err` saying so; `with_variant!(dice name,
/// |variant| body)` likewise for the dice games ([`ChanceRules`]).
#[macro_export]
macro_rules! with_variant {
    (board $name:expr, |$v:ident| $body:expr) => {
        $crate::__variant_arms!(board, $name, $v, _search, $body)
    };
    (dice $name:expr, |$v:ident| $body:expr) => {
        $crate::__variant_arms!(dice, $name, $v, _search, $body)
    };
    ($name:expr, |$v:ident, $s:ident| $body:expr) => {
        $crate::__variant_arms!(all, $name, $v, $s, $body)
    };
}

/// The registry's entries, one arm each: name, search, game type and parameters. The one place
/// that names each variant's types (see [`crate::with_variant`]).
#[doc(hidden)]
#[macro_export]
macro_rules! __variant_arms {
    ($family:ident, $name:expr, $v:ident, $s:ident, $body:expr) => {
        match $crate::variants::find($name) {
            Err(error) => Err(error),
            Ok(info) => match info.name {
                // name => search, game type, parameters
                "impasse" => $crate::__variant_arm! { $family, $body, $v, $s, info, AlphaBeta, $crate::impasse::Position, () },
                "dipole" => $crate::__variant_arm! { $family, $body, $v, $s, info, AlphaBeta, $crate::dipole::Position, $crate::dipole::Variant::Dipole },
                "dipole10" => $crate::__variant_arm! { $family, $body, $v, $s, info, AlphaBeta, $crate::dipole::Position, $crate::dipole::Variant::Dipole10 },
                "hexdame" => $crate::__variant_arm! { $family, $body, $v, $s, info, AlphaBeta, $crate::hexdame::Position, () },
                "cantstop" => $crate::__variant_arm! { $family, $body, $v, $s, info, Expectimax, $crate::cantstop::Position, Default::default() },
                other => unreachable!("variant {other} is listed but not dispatched"),
            },
        }
    };
}

/// One arm of [`crate::with_variant`]: `body` with the entry's variant and search, or, for a
/// family-restricted dispatch and an entry of the other family, the error that says so.
#[doc(hidden)]
#[macro_export]
macro_rules! __variant_arm {
    (board, $body:expr, $v:ident, $s:ident, $info:ident, Expectimax, $ty:ty, $params:expr) => {
        Err(format!("{} is a dice game, and this works with board games only", $info.name))
    };
    (dice, $body:expr, $v:ident, $s:ident, $info:ident, AlphaBeta, $ty:ty, $params:expr) => {
        Err(format!("{} is a board game, and this works with dice games only", $info.name))
    };
    ($family:ident, $body:expr, $v:ident, $s:ident, $info:ident, $search:ident, $ty:ty, $params:expr) => {{
        let $v = $crate::variants::Variant::<$ty> { info: $info, params: $params };
        let $s = $crate::variants::$search;
        Ok($body)
    }};
}

/// Whether the variant called `name` is a dice game (false for unknown names).
pub fn is_dice_game(name: &str) -> bool {
    find(name).is_ok_and(|info| info.family == Family::Dice)
}

/// The names of the fixed players of every dice game (`rule28`, ...), each once.
pub fn fixed_players() -> Vec<&'static str> {
    fn names_of<G: ChanceRules>(_: Variant<G>) -> &'static [&'static str] {
        G::FIXED_PLAYERS
    }
    let mut names = Vec::new();
    for info in VARIANTS.iter().filter(|v| v.family == Family::Dice) {
        for &name in crate::with_variant!(dice info.name, |variant| names_of(variant)).unwrap_or(&[]) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// The rule options of every variant, each once, in the registry's order (the protocol
/// declares them all: `setoption` may come before `UCI_Variant`).
pub fn rule_options() -> Vec<&'static RuleOption> {
    fn options_of<G: Rules>(_: Variant<G>) -> &'static [RuleOption] {
        G::Params::RULE_OPTIONS
    }
    let mut options: Vec<&'static RuleOption> = Vec::new();
    for info in &VARIANTS {
        for option in crate::with_variant!(info.name, |variant, _search| options_of(variant)).unwrap_or(&[]) {
            if !options.iter().any(|o| o.name == option.name) {
                options.push(option);
            }
        }
    }
    options
}

/// Whether every variant that has any of the rule option `settings` offers them for `players`
/// players; the first refusal says why (`4 columns to win is not offered for 4 players`).
pub fn check_rule_settings(
    players: usize,
    settings: &[(&'static RuleOption, &'static str)],
) -> Result<(), String> {
    fn check<G: Rules>(
        variant: Variant<G>,
        players: usize,
        settings: &[(&'static RuleOption, &'static str)],
    ) -> Result<(), String> {
        rules::params_under::<G>(variant.params, players, settings).map(|_| ())
    }
    for info in &VARIANTS {
        crate::with_variant!(info.name, |variant, _search| check(variant, players, settings))??;
    }
    Ok(())
}

/// The games that have endgame tables, with their builders and probes.
pub const TABLE_FAMILIES: [crate::tablebase::TableFamily; 2] =
    [crate::impasse::tablebase::FAMILY, crate::hexdame::tablebase::FAMILY];

/// The tables of variant `name`, or an error naming the games that have some.
pub fn table_family(name: &str) -> Result<&'static crate::tablebase::TableFamily, String> {
    TABLE_FAMILIES.iter().find(|f| f.game == name).ok_or_else(|| {
        let games: Vec<&str> = TABLE_FAMILIES.iter().map(|f| f.game).collect();
        format!("no endgame tables for {name:?} (games with tables: {})", games.join(", "))
    })
}

/// Installs the tables of `dir` (`None`: none) for every game that has some, from the one
/// directory. The result is one summary line naming every game (`impasse: tables of 2 to 6
/// stacks; hexdame: tables of 2 to 4 pieces`) when all went well, else a warning per game
/// whose files are faulty (with what it installed) and the summary of the others; a missing
/// directory is a single warning, not one per game.
pub fn install_tables(dir: Option<&std::path::Path>) -> Vec<Result<String, String>> {
    if let Some(dir) = dir.filter(|d| !d.is_dir()) {
        for family in &TABLE_FAMILIES {
            let _ = (family.install)(None);
        }
        return vec![Err(format!("{}: no such directory", dir.display()))];
    }
    let (found, warnings): (Vec<_>, Vec<_>) =
        TABLE_FAMILIES.iter().map(|f| (f.install)(dir)).partition(Result::is_ok);
    let summary = found.into_iter().filter_map(Result::ok).collect::<Vec<_>>().join("; ");
    warnings.into_iter().chain((!summary.is_empty()).then_some(Ok(summary))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks that a variant's built-in files parse and that it round-trips its start position.
    fn check_files<G: Rules>(variant: Variant<G>) -> (String, usize, usize) {
        let start = variant.start();
        assert_eq!(variant.parse_fen(&start.fen()), Ok(start));
        let bench = variant.bench_positions().len();
        let openings = variant.positions(variant.info.openings).unwrap().len();
        (variant.name().to_string(), bench, openings)
    }

    #[test]
    fn every_listed_variant_dispatches_with_its_files() {
        for info in &VARIANTS {
            let (name, bench, openings) =
                crate::with_variant!(info.name, |variant, _search| check_files(variant)).unwrap();
            assert_eq!(name, info.name);
            match info.family {
                Family::Board => {
                    assert!(
                        bench >= 10 && openings >= 50,
                        "{name}: {bench} bench positions, {openings} openings"
                    )
                }
                Family::Dice => assert!(bench >= 5 && openings == 0, "{name}: {bench} bench positions"),
            }
        }
        assert_eq!(VARIANTS[0].name, DEFAULT_VARIANT);
    }

    /// An entry's family and the search its arm names agree: the family-restricted dispatch
    /// takes exactly the entries of its family, and refuses the others by name.
    #[test]
    fn the_family_restricted_dispatch_takes_its_family_only() {
        for info in &VARIANTS {
            let board = crate::with_variant!(board info.name, |variant| variant.name());
            let dice = crate::with_variant!(dice info.name, |variant| variant.name());
            match info.family {
                Family::Board => {
                    assert_eq!(board, Ok(info.name));
                    assert_eq!(
                        dice.unwrap_err(),
                        format!("{} is a board game, and this works with dice games only", info.name)
                    );
                }
                Family::Dice => {
                    assert_eq!(dice, Ok(info.name));
                    assert_eq!(
                        board.unwrap_err(),
                        format!("{} is a dice game, and this works with board games only", info.name)
                    );
                }
            }
        }
        assert!(
            crate::with_variant!(board "chess", |variant| variant.name())
                .unwrap_err()
                .starts_with("unknown variant")
        );
    }

    #[test]
    fn names_are_found_ignoring_case_and_unknown_ones_explained() {
        assert_eq!(find("Dipole10").unwrap().name, "dipole10");
        let error = find("chess").unwrap_err();
        assert_eq!(error, "unknown variant 'chess' (variants: impasse, dipole, dipole10, hexdame, cantstop)");
    }
}
