//! What a match sets up before its games, which is what differs between the two families of
//! games: the flags each accepts, the engines and their seats, the deals (an opening book, or
//! the start and its dice), the schedule's length, the referee's limits and the fingerprint.
//! Written as [`Family`], implemented for the two searches of the registry: a board game
//! ([`AlphaBeta`]) and a dice game ([`Expectimax`]). Everything after the plan is
//! [`super::run_match`]'s, once.

use super::fingerprint::{Fingerprint, fnv1a};
use super::schedule;
use crate::client::spec::EngineSpec;
use crate::game::{BoardRules, ChanceRules, Rules, rules};
use crate::tools::book;
use crate::tools::matches::record::{GameRecord, MatchRecord, jsonl::DiceRecord};
use crate::tools::matches::referee::ask::Deadlines;
use crate::tools::matches::referee::{DrawCap, Referee, Refereed, Words};
use crate::tools::matches::report::stats::Sprt;
use crate::tools::matches::{MAX_SPRT_PAIRS, MatchArgs};
use crate::tools::rng::SplitMix64;
use crate::variants::{self, AlphaBeta, Expectimax, Variant};

/// The turn limit when `--max-turns` is not given: far beyond a real game (two players of the
/// built-in strategies finish in well under a hundred turns), so only endless play reaches it.
pub const DEFAULT_MAX_TURNS: u32 = 1000;
/// The dice streams of a match when neither `--games` nor `--rounds` nor `--sprt` says.
pub const DEFAULT_STREAMS: u64 = 100;

/// A match as its family sets it up.
pub struct Plan<G> {
    /// The engines given, `--engine1` first.
    pub specs: Vec<EngineSpec>,
    /// Their flags, for errors.
    pub labels: Vec<&'static str>,
    /// The engine of each entrant (see [`schedule`]); one entrant per seat.
    pub entrants: Vec<usize>,
    /// The start positions: deal `k` starts from `deals[k mod len]`.
    pub deals: Vec<G>,
    /// The seed of the dice streams.
    pub seed: u64,
    /// Deals in the whole schedule.
    pub units: u64,
    /// The test, if any.
    pub sprt: Option<Sprt>,
    /// The referee's settings.
    pub referee: Referee<G>,
    /// The settings shards must share.
    pub fingerprint: Fingerprint,
}

impl<G> Plan<G> {
    /// The start of deal `deal`.
    pub fn deal(&self, deal: u64) -> &G {
        &self.deals[(deal % self.deals.len() as u64) as usize]
    }
}

/// What a family of games sets up for a match, and the encoding of its records.
pub trait Family<G: Rules>: Refereed<G> {
    /// The record of its games.
    type Record: MatchRecord;

    /// Checks the flags and sets the match up.
    fn plan(variant: Variant<G>, args: &MatchArgs) -> Result<Plan<G>, String>;

    /// The engines' names made distinct where two coincide.
    fn distinct(names: Vec<String>) -> Vec<String>;
}

/// The draw cap of a board match: the game's default, overridden by the flags (0: off).
fn draw_cap<G: Rules>(args: &MatchArgs) -> DrawCap {
    let default = DrawCap::default_for::<G>();
    let choose = |flag: Option<u32>, default: Option<u32>| match flag {
        Some(0) => None,
        Some(n) => Some(n),
        None => default,
    };
    DrawCap {
        reversible_plies: choose(args.draw_reversible_plies, default.reversible_plies),
        max_plies: choose(args.draw_max_plies, default.max_plies),
    }
}

/// How a board game's referee words its faults.
const BOARD_WORDS: Words = Words {
    answer: "move",
    empty: "'bestmove' without a move",
    none: "'bestmove (none)' in a position with legal moves",
    as_given: true,
};

/// How a dice game's referee words its faults.
const DICE_WORDS: Words = Words {
    answer: "decision",
    empty: "'bestmove' without an event",
    none: "'bestmove (none)' at a decision",
    as_given: false,
};

impl<G: BoardRules> Family<G> for AlphaBeta {
    type Record = GameRecord;

    fn plan(variant: Variant<G>, args: &MatchArgs) -> Result<Plan<G>, String> {
        let dice = &args.dice;
        if let Some(n) = dice.players.filter(|&n| n != 2) {
            return Err(format!("--players {n}: {} is played by 2 players", args.variant));
        }
        if !dice.engine3.is_empty() || !dice.engine4.is_empty() {
            return Err(format!("--engine3/--engine4: {} is played by 2 engines", args.variant));
        }
        if dice.max_turns.is_some() {
            return Err("--max-turns is for dice games (board games have --draw-max-plies)".to_string());
        }
        let mut specs = vec![
            EngineSpec::parse("--engine1", &args.each, &args.engine1)?,
            EngineSpec::parse("--engine2", &args.each, &args.engine2)?,
        ];
        if variant.name() != variants::DEFAULT_VARIANT {
            for spec in &mut specs {
                spec.set_variant(variant.name());
            }
        }
        let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
        let (mut openings, book_hash) = match &args.openings {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("--openings {}: {e}", path.display()))?;
                let book = book::parse_book(variant, &text)
                    .map_err(|e| format!("--openings {}: {e}", path.display()))?;
                (book, fnv1a(text.as_bytes()))
            }
            None => {
                let book = book::parse_book(variant, variant.info.openings)
                    .map_err(|e| format!("built-in book of {}: {e}", variant.name()))?;
                (book, fnv1a(variant.info.openings.as_bytes()))
            }
        };
        if let Some(seed) = args.seed {
            SplitMix64(seed).shuffle(&mut openings);
        }
        let pairs = match (args.rounds, args.games) {
            (Some(r), _) => r,
            (None, Some(g)) if g % 2 == 1 => {
                return Err(format!("--games {g}: games come in pairs; give an even number"));
            }
            (None, Some(g)) => g / 2,
            (None, None) if sprt.is_some() => MAX_SPRT_PAIRS,
            (None, None) => openings.len() as u64,
        };
        let cap = draw_cap::<G>(args);
        let mut f = Fingerprint::default();
        f.push("runner", "board");
        f.push("variant", variant.name());
        f.push_engine("engine1", &specs[0]);
        f.push_engine("engine2", &specs[1]);
        f.push("openings", format!("{book_hash:016x}"));
        f.push("seed", args.seed.map_or("none".to_string(), |s| s.to_string()));
        f.push("pairs", pairs);
        let limit = |n: Option<u32>| n.map_or("off".to_string(), |n| n.to_string());
        f.push("draw-reversible-plies", limit(cap.reversible_plies));
        f.push("draw-max-plies", limit(cap.max_plies));
        f.push("timemargin", args.timemargin);
        f.push("move-timeout", args.move_timeout);
        f.push_sprt(sprt.as_ref());
        Ok(Plan {
            specs,
            labels: vec!["--engine1", "--engine2"],
            entrants: vec![0, 1],
            deals: openings,
            seed: args.seed.unwrap_or(0),
            units: pairs,
            sprt,
            referee: Referee {
                deadlines: Deadlines::of(args),
                cap,
                max_turns: None,
                turn_start: <AlphaBeta as Refereed<G>>::turn_start,
                words: BOARD_WORDS,
            },
            fingerprint: f,
        })
    }

    fn distinct(names: Vec<String>) -> Vec<String> {
        if names[0] == names[1] {
            vec![format!("{} #1", names[0]), format!("{} #2", names[1])]
        } else {
            names
        }
    }
}

impl<G: ChanceRules> Family<G> for Expectimax {
    type Record = DiceRecord;

    fn plan(variant: Variant<G>, args: &MatchArgs) -> Result<Plan<G>, String> {
        let (players, engine_words) = check_dice_args::<G>(args)?;
        let mut specs = Vec::new();
        for (label, words) in &engine_words {
            let mut spec = EngineSpec::parse(label, &args.each, words)?;
            // UCI_Variant first (it resets an engine's game), then the number of players.
            spec.set_variant(variant.name());
            spec.options.retain(|(n, _)| !n.eq_ignore_ascii_case("Players"));
            spec.options.insert(1, ("Players".to_string(), players.to_string()));
            spec.set_rule_options(&variant.params);
            specs.push(spec);
        }
        let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
        let streams = match (args.rounds, args.games) {
            (Some(r), _) => r,
            (None, Some(g)) => schedule::streams_for_games(g, players),
            (None, None) if sprt.is_some() => MAX_SPRT_PAIRS,
            (None, None) => DEFAULT_STREAMS,
        };
        let seed = args.seed.unwrap_or(0);
        let max_turns = args.dice.max_turns.unwrap_or(DEFAULT_MAX_TURNS);
        let mut f = Fingerprint::default();
        f.push("runner", "dice");
        f.push("variant", variant.name());
        f.push("players", players);
        for (e, spec) in specs.iter().enumerate() {
            f.push_engine(&format!("engine{}", e + 1), spec);
        }
        f.push("seed", seed);
        f.push("streams", streams);
        f.push("max-turns", max_turns);
        f.push("timemargin", args.timemargin);
        f.push("move-timeout", args.move_timeout);
        f.push_sprt(sprt.as_ref());
        Ok(Plan {
            entrants: schedule::entrant_engines(players, specs.len()),
            labels: engine_words.iter().map(|(label, _)| *label).collect(),
            specs,
            deals: vec![
                rules::start_for_players::<G>(variant.params, players)
                    .map_err(|e| format!("--option: {e}"))?,
            ],
            seed,
            units: streams,
            sprt,
            referee: Referee {
                deadlines: Deadlines::of(args),
                cap: DrawCap::default(),
                max_turns: Some(max_turns),
                turn_start: <Expectimax as Refereed<G>>::turn_start,
                words: DICE_WORDS,
            },
            fingerprint: f,
        })
    }

    fn distinct(mut names: Vec<String>) -> Vec<String> {
        let original = names.clone();
        for (e, name) in names.iter_mut().enumerate() {
            if original.iter().filter(|&n| n == name).count() > 1 {
                *name = format!("{name} (engine{})", e + 1);
            }
        }
        names
    }
}

/// The engines given, in order: each flag (`--engine1`) with its words.
type EngineWords<'a> = Vec<(&'static str, &'a [String])>;

/// Refuses the flags that mean nothing for dice games, and checks the players and engines.
/// Returns the number of players and the engines' words (`--engine1` first).
fn check_dice_args<G: ChanceRules>(args: &MatchArgs) -> Result<(usize, EngineWords<'_>), String> {
    let name = &args.variant;
    if args.openings.is_some() {
        return Err(format!("--openings: {name} games start from the start position and vary by their dice"));
    }
    if args.draw_max_plies.is_some() || args.draw_reversible_plies.is_some() {
        return Err(format!(
            "--draw-max-plies/--draw-reversible-plies: {name} games are capped by --max-turns"
        ));
    }
    let players = args.dice.players.unwrap_or(2);
    if !G::PLAYERS.contains(&players) {
        return Err(format!(
            "--players {players}: {name} is played by {} to {} players",
            G::PLAYERS.start(),
            G::PLAYERS.end()
        ));
    }
    if args.dice.engine3.is_empty() && !args.dice.engine4.is_empty() {
        return Err("--engine4 without --engine3: give the engines in order".to_string());
    }
    let engines: EngineWords<'_> = [
        ("--engine1", &args.engine1),
        ("--engine2", &args.engine2),
        ("--engine3", &args.dice.engine3),
        ("--engine4", &args.dice.engine4),
    ]
    .into_iter()
    .filter(|(_, words)| !words.is_empty())
    .map(|(label, words)| (label, words.as_slice()))
    .collect();
    if engines.len() > players {
        return Err(format!(
            "{}: {} engines for {players} players (give --players {} or fewer engines)",
            engines[players].0,
            engines.len(),
            engines.len()
        ));
    }
    if args.sprt.is_some() && players != 2 {
        return Err(format!("--sprt: the test compares two engines, and needs --players 2, not {players}"));
    }
    Ok((players, engines))
}
