//! The dice games' chance-node search as the protocol's session sees it ([`SearchSide`]): it
//! keeps only its helper threads between searches (`Threads` > 1: each depth's first rolls'
//! outcomes are shared among them, with the values and moves of one thread); `go` is the
//! decision of the player to move, by the search or, with the `Strategy` option, one of the
//! game's fixed players (which decide at once, on the loop); the time is a share of the mover's
//! clock (`wtime` for odd players, `btime` for even ones); where a roll is due or the game is
//! over nobody decides (docs/protocol.md, "Dice games").

use super::Common;
use super::answer::{Deadline, Reporter};
use super::command::{GoParams, quote};
use super::job::wait_for_the_gui;
use super::options::Change;
use super::output::Output;
use super::played::PlayedGame;
use super::side::{Plan, SearchSide};
use crate::chance::player::{SEARCH, decide_among};
use crate::chance::{Helpers, Limits, MAX_DEPTH};
use crate::game::{ChanceRules, Node, rules};
use crate::levels;
use crate::quote::move_error_reason;
use crate::search::SearchControl;
use crate::variants::{Expectimax, Variant};
use std::time::{Duration, Instant};

/// The chance-node search's side: the helper threads, kept from search to search (started at
/// the first `isready` or `go`, and again when `Threads` has changed); `None` also while they
/// are lent to the running search.
pub(super) struct DiceSide {
    helpers: Option<Helpers>,
}

impl<G: ChanceRules> SearchSide<G> for DiceSide {
    type Lent = Helpers;
    const KEEPS_TABLE: bool = false;

    fn new() -> Self {
        DiceSide { helpers: None }
    }

    fn ready(&mut self, common: &Common) {
        let helpers = self.take_helpers(common);
        self.helpers = Some(helpers);
    }

    fn new_game(&mut self) {}

    /// A dice game has no table, but the size is kept for the board games: the same rule.
    fn resize(&mut self, mib: usize) -> Result<(), String> {
        crate::search::hash_size::check(mib, 0)
    }

    fn applied(&mut self, _: Change) {}

    fn no_decision(game: &PlayedGame<G>) -> Option<String> {
        let pos = game.position();
        match pos.node() {
            Node::Decision => None,
            Node::Chance => {
                Some("no decision: the next event is a roll of the dice, which no player chooses".to_string())
            }
            Node::Over => Some(format!("game over: player {} won", rules::winner(pos).map_or(0, |w| w + 1))),
        }
    }

    fn plan(
        &mut self,
        common: &Common,
        game: &PlayedGame<G>,
        params: &GoParams,
        read_at: Instant,
    ) -> Plan<Helpers> {
        let pos = *game.position();
        let (strategy, seed) = (common.options.strategy, common.options.seed);
        let only = search_events(&common.out, &pos, &params.searchmoves);
        if strategy != SEARCH {
            // A fixed player decides at once: no search, no deadline to keep.
            let never = std::sync::atomic::AtomicBool::new(false);
            let limits = (Limits::default(), &Helpers::none());
            let decision = decide_among(&pos, &only, strategy, seed, limits, &never, &mut |_| {});
            return Plan::Answer(format!(
                "bestmove {}",
                decision.map_or("(none)".to_string(), |d| d.event.to_string())
            ));
        }
        let budget = budget(common, &pos, params);
        let level = level(common);
        // A weakened level looks fewer rolls ahead, and misjudges its decisions' values.
        let depth = match (params.depth, level) {
            (Some(d), Some(l)) => Some(d.min(l.depth)),
            (d, l) => d.or(l.map(|l| l.depth)),
        };
        let skill = level.map(|l| (l.error, seed));
        let multipv = common.options.multipv;
        let limits = Limits {
            depth: depth.map(|d| d.clamp(1, MAX_DEPTH)),
            nodes: params.nodes,
            // While pondering the search has no clock: the answerer stops it at the deadline,
            // which runs from the ponder hit.
            movetime: budget
                .filter(|_| !params.ponder)
                .map(|t| t.saturating_sub(read_at.elapsed()).max(Duration::from_millis(1))),
        };
        let fallback = format!("bestmove {}", fallback_event(&pos, &only, seed));
        let deadline = Deadline { start: read_at, hard: budget };
        let infinite = params.infinite;
        let work =
            Box::new(move |helpers: Helpers, control: std::sync::Arc<SearchControl>, reporter: Reporter| {
                dice_search(&pos, &only, (limits, &helpers), &control, (infinite, multipv, skill), &reporter);
                Some(helpers)
            });
        Plan::Search { deadline, fallback, work }
    }

    fn lend(&mut self, common: &Common, _: &PlayedGame<G>) -> Helpers {
        self.take_helpers(common)
    }

    /// Helpers lost with a failed search are started again at the next `go`.
    fn take_back(&mut self, lent: Option<Helpers>, _: &Output) {
        self.helpers = lent;
    }

    fn bench(variant: Variant<G>, depth: u32, control: &SearchControl, out: &Output) {
        super::terminal::bench(Expectimax, variant, depth, control, out);
    }
}

impl DiceSide {
    /// The helpers for the next search, taken out of the side: those kept if there are as
    /// many as the options ask for, else new ones. A weakened level searches on one thread,
    /// as in the board games (docs/protocol.md, "Strength levels").
    fn take_helpers(&mut self, common: &Common) -> Helpers {
        let threads = if level(common).is_some() { 1 } else { common.options.threads };
        match self.helpers.take() {
            Some(helpers) if helpers.threads() == threads => helpers,
            _ => Helpers::new(threads),
        }
    }
}

/// The parameters of the level the options ask for; `None` at full strength.
fn level(common: &Common) -> Option<levels::DiceLevel> {
    let info = crate::variants::find(common.options.variant).ok()?;
    levels::dice(levels::played(info), common.options.level(info)?)
}

/// The events of `go searchmoves` that are legal decisions in `pos`. An illegal or malformed
/// one is reported (quoted briefly) and left out; when none is left, every decision is
/// searched (and said so), as in the board games.
fn search_events<G: ChanceRules>(out: &Output, pos: &G, texts: &[String]) -> Vec<G::Step> {
    let decisions = pos.decisions();
    let mut events = Vec::new();
    for text in texts {
        match pos.parse_step(text) {
            Ok(event) if decisions.contains(&event) => events.push(event),
            Ok(_) => out.info_string(&format!(
                "error: go searchmoves: {} is not a decision of the player to move; the move is left out",
                quote(text)
            )),
            Err(e) => out.info_string(&format!(
                "error: go searchmoves: {}: {}; the move is left out",
                quote(text),
                move_error_reason(&e)
            )),
        }
    }
    if events.is_empty() && !texts.is_empty() {
        out.info_string("go searchmoves: no legal move given; every move is searched");
    }
    events
}

/// The time the search may take from the moment `go` was read, less the move overhead:
/// `movetime`, or a share of the mover's clock (`wtime` for odd players, `btime` for even
/// ones); none for `infinite` or a `go` without a time (the turn is then solved exactly, or
/// until `stop`).
fn budget<G: ChanceRules>(common: &Common, pos: &G, go: &GoParams) -> Option<Duration> {
    let odd_player = pos.to_move().is_multiple_of(2);
    let clock = if odd_player { go.wtime } else { go.btime };
    let increment = if odd_player { go.winc } else { go.binc };
    let from_clock = clock.map(|t| t / 30 + increment.unwrap_or_default() / 2);
    let time = if go.infinite { None } else { go.movetime.or(from_clock) };
    time.map(|t| t.saturating_sub(common.options.move_overhead))
}

/// How a dice search reports and answers: whether it waits for the GUI (`infinite`), the
/// `MultiPV` lines shown, and a weakened level's error and seed ([`levels::choose`]).
type Answering = (bool, usize, Option<(f64, u64)>);

/// The work of a dice game's search thread: the search's decision in `pos`, each completed
/// depth reported and offered, the decisions' values and the answer at the end (a weakened
/// level's choice among them). An infinite or pondering search waits for `stop` or
/// `ponderhit` before answering, as UCI requires.
fn dice_search<G: ChanceRules>(
    pos: &G,
    only: &[G::Step],
    search: (Limits, &Helpers),
    control: &SearchControl,
    (infinite, multipv, skill): Answering,
    reporter: &Reporter,
) {
    let players = pos.players();
    let decision = decide_among(pos, only, SEARCH, 0, search, &control.stop, &mut |it| {
        for line in crate::tools::searches::expectimax::info_lines(it, players, multipv) {
            reporter.info(line);
        }
        reporter.offer(format!("bestmove {}", it.best));
    });
    wait_for_the_gui(control, infinite);
    let Some(decision) = decision else {
        return reporter.done("bestmove (none)".into(), Vec::new());
    };
    let mut event = decision.event;
    if let Some(it) = &decision.search {
        let values: Vec<String> = it.values.iter().map(|(e, v)| format!("{e} {v:.4}")).collect();
        reporter.info(format!("info string values {}", values.join(" ")));
        if let Some((error, seed)) = skill {
            let values: Vec<f64> = it.values.iter().map(|v| v.1).collect();
            event = it.values[levels::choose(&values, error, seed, pos.key())].0;
        }
    }
    reporter.done(format!("bestmove {event}"), Vec::new());
}

/// The decision given if the search offers none before its deadline: the game's first fixed
/// player's (a sound rule of thumb, decided in microseconds), else its first decision.
fn fallback_event<G: ChanceRules>(pos: &G, only: &[G::Step], seed: u64) -> String {
    let never = std::sync::atomic::AtomicBool::new(false);
    let first_fixed = G::FIXED_PLAYERS.first().copied().unwrap_or(SEARCH);
    let limits = Limits { depth: Some(1), ..Limits::default() };
    let fixed = decide_among(pos, only, first_fixed, seed, (limits, &Helpers::none()), &never, &mut |_| {});
    fixed
        .map(|d| d.event)
        .or_else(|| pos.decisions().first().copied())
        .map_or("(none)".to_string(), |e| e.to_string())
}
