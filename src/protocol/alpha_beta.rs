//! The board games' alpha-beta as the protocol's session sees it ([`SearchSide`]): the
//! searcher with its transposition table, kept between searches and lent to each; the limits
//! of `go`; the fallback move (a depth-1 search, ready before the answerer starts); and the
//! search thread's work, whose best move is checked against the rules before it leaves.
//!
//! The engine may play badly; it never prints an illegal move ([`bestmove_text`]): a best move
//! that is not legal in the searched position (a bug, never expected) is replaced by the first
//! legal move with an `info string`, and a ponder move that is not legal after it is dropped.

use super::Common;
use super::answer::{Deadline, Reporter};
use super::command::{Dialect, GoParams};
use super::options::Change;
use super::output::{Output, bestmove_line, info_line, info_lines};
use super::played::{DRAWN, PlayedGame};
use super::side::{Plan, SearchSide};
use crate::game::{BoardRules, Game, Player, rules};
use crate::levels;
use crate::quote::move_error_text;
use crate::search::{Clock, Limits, MAX_DEPTH, SearchControl, SearchResult, Searcher, hash_size, time};
use crate::variants::{AlphaBeta, Variant};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Instant;

/// The table of a searcher made when the one the options ask for cannot be had (the memory
/// has gone since the option was set): small, so that the engine keeps playing.
const STOPGAP_HASH_MIB: usize = 1;

/// What alpha-beta keeps between the searches of a session.
pub(super) struct BoardSide<G: BoardRules> {
    /// The searcher, created on first use (so that `uci` allocates nothing); `None` also while
    /// it is lent to the running search.
    searcher: Option<Searcher<G>>,
    /// The small searcher of the fallback move ([`fallback_search`]), created on first use.
    spare: Option<Searcher<G>>,
}

impl<G: BoardRules> SearchSide<G> for BoardSide<G> {
    type Lent = Searcher<G>;
    const KEEPS_TABLE: bool = true;

    fn new() -> Self {
        BoardSide { searcher: None, spare: None }
    }

    fn ready(&mut self, common: &Common) {
        if self.searcher.is_none() {
            self.searcher = Some(self.take_searcher(common));
        }
    }

    fn new_game(&mut self) {
        if let Some(searcher) = &mut self.searcher {
            searcher.new_game();
        }
    }

    /// The rule of [`hash_size`], the current table's memory counted as given back. Without a
    /// searcher yet, only checks, so that the error comes now rather than at the first `isready`.
    fn resize(&mut self, mib: usize) -> Result<(), String> {
        match &mut self.searcher {
            Some(searcher) => searcher.try_set_hash(mib),
            None => hash_size::check(mib, 0),
        }
    }

    fn applied(&mut self, change: Change) {
        // A searcher not created yet will be created with the new values.
        if let Some(searcher) = &mut self.searcher {
            match change {
                Change::Threads(n) => searcher.set_threads(n),
                Change::ClearHash => searcher.new_game(),
                Change::Hash(_)
                | Change::MoveOverhead(_)
                | Change::Ponder(_)
                | Change::Variant(_)
                | Change::Players(_)
                | Change::RuleOption(..)
                | Change::Strategy(_)
                | Change::Seed(_)
                | Change::MultiPv(_)
                | Change::SkillLevel(_)
                | Change::LimitStrength(_)
                | Change::Elo(_)
                | Change::Debug(_)
                | Change::NoOwnBook => {}
            }
        }
    }

    /// A finished game (an outcome, or a draw by threefold repetition, whose position still has
    /// moves): no move may be played, so no search runs.
    fn no_decision(game: &PlayedGame<G>) -> Option<String> {
        match game.is_over() {
            true if game.is_drawn() => Some(format!("game over: {DRAWN}")),
            true => Some("game over".to_string()),
            false => None,
        }
    }

    fn plan(
        &mut self,
        common: &Common,
        game: &PlayedGame<G>,
        params: &GoParams,
        read_at: Instant,
    ) -> Plan<Searcher<G>> {
        let pos = *game.position();
        if let Some(answer) = fixed_player(common, &pos) {
            return Plan::Answer(answer);
        }
        let level = level(common);
        let mut limits = Limits { start: Some(read_at), ..limits(common, game, params) };
        if let Some(level) = level {
            // A weakened level looks less far and chooses among its best few moves.
            if level.nodes < u64::MAX {
                limits.nodes = Some(limits.nodes.map_or(level.nodes, |n| n.min(level.nodes)));
            }
            if let Some(depth) = level.depth {
                limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
            }
            limits.multipv = limits.multipv.max(level.lines);
        }
        if common.debug {
            common.out.info_string(&format!("debug: searching {} with {limits:?}", pos.fen()));
        }
        let style = AnswerStyle {
            ponder_move: ponder_move_shown(common),
            debug: common.debug,
            multipv: common.options.multipv,
            skill: level.map(|level| Skill { level, seed: common.options.seed }),
        };
        let spare = self.spare.get_or_insert_with(|| Searcher::new(FALLBACK_HASH_MIB, 1));
        let fallback = fallback_answer(spare, &pos, game.hashes_before(), &limits.search_moves, style);
        let deadline = Deadline { start: read_at, hard: time::budget(&limits).hard };
        let work = Box::new(move |searcher, control, reporter| {
            board_search(searcher, pos, limits, control, style, reporter)
        });
        Plan::Search { deadline, fallback, work }
    }

    fn lend(&mut self, common: &Common, game: &PlayedGame<G>) -> Searcher<G> {
        let mut searcher = self.take_searcher(common);
        searcher.set_history(game.hashes_before());
        // A weakened level searches on one thread, so that its node-limited play is the same
        // on every run (docs/levels.md).
        searcher.set_threads(if level(common).is_some() { 1 } else { common.options.threads });
        searcher
    }

    fn take_back(&mut self, lent: Option<Searcher<G>>, out: &Output) {
        self.searcher = lent;
        if self.searcher.is_none() {
            out.info_string("error: the searcher was lost; a new one will be created");
        }
    }

    fn bench(variant: Variant<G>, depth: u32, control: &SearchControl, out: &Output) {
        super::terminal::bench(AlphaBeta, variant, depth.clamp(1, MAX_DEPTH), control, out);
    }
}

impl<G: BoardRules> BoardSide<G> {
    /// The searcher, created with the current options if needed, taken out of the side (to
    /// lend it to a search). If the table the options ask for cannot be had now (the memory has
    /// gone since `setoption`), says so and makes do with a small one.
    fn take_searcher(&mut self, common: &Common) -> Searcher<G> {
        if let Some(searcher) = self.searcher.take() {
            return searcher;
        }
        let options = &common.options;
        Searcher::try_new(options.hash_mib, options.threads).unwrap_or_else(|e| {
            common.out.info_string(&format!(
                "error: Hash: {e}; searching with a {STOPGAP_HASH_MIB} MiB table instead"
            ));
            Searcher::new(STOPGAP_HASH_MIB, options.threads)
        })
    }
}

/// Whether `bestmove` may carry `ponder R`: never after `ugi` (UGI's grammar is
/// `bestmove MOVE`, and its runners accept exactly two words), and after `uci` only when the
/// GUI has turned the `Ponder` option on (a GUI that never ponders has no use for the
/// word, and strict readers, such as cutegames' UCI side, reject it).
fn ponder_move_shown(common: &Common) -> bool {
    common.dialect == Dialect::Uci && common.options.ponder
}

/// The board game parameters of the level the options ask for; `None` at full strength.
fn level(common: &Common) -> Option<levels::BoardLevel> {
    let info = crate::variants::find(common.options.variant).ok()?;
    common.options.level(info).and_then(|level| levels::board(levels::played(info), level))
}

/// The answer of a fixed player, when the `Strategy` option names one: `random` plays a legal
/// move drawn uniformly from `Seed` and the position (the calibration's bottom anchor). The
/// dice games' other players do not play board games: the search answers, and says so.
fn fixed_player<G: BoardRules>(common: &Common, pos: &G) -> Option<String> {
    match common.options.strategy {
        super::options::SEARCH_STRATEGY => None,
        "random" => {
            let legal = pos.legal_moves();
            let legal = legal.as_ref();
            let index = levels::uniform(legal.len(), common.options.seed, Game::hash(pos));
            Some(bestmove_line(legal.get(index).copied(), None))
        }
        other => {
            common.out.info_string(&format!(
                "Strategy {other} is a dice game's player; the search plays this board game"
            ));
            None
        }
    }
}

/// The search limits of `go`: the clock of the side to move (p1 = White), the fixed limits,
/// and the move overhead.
fn limits<G: BoardRules>(common: &Common, game: &PlayedGame<G>, go: &GoParams) -> Limits {
    let to_move = game.position().player_to_move();
    let (time, increment, other_time) =
        if to_move == Player::P1 { (go.wtime, go.winc, go.btime) } else { (go.btime, go.binc, go.wtime) };
    if time.is_none() && other_time.is_some() {
        let side = rules::player_name::<G>(to_move);
        common.out.info_string(&format!("go: no time given for the side to move ({side}); no clock is used"));
    }
    Limits {
        depth: go.depth.map(|d| d.clamp(1, MAX_DEPTH)),
        nodes: go.nodes,
        movetime: go.movetime,
        clock: time.map(|time| Clock {
            time,
            increment: increment.unwrap_or_default(),
            moves_to_go: go.movestogo.filter(|&n| n > 0),
        }),
        infinite: go.infinite,
        move_overhead: common.options.move_overhead,
        mate: go.mate,
        search_moves: search_moves(&common.out, game.position(), &go.searchmoves),
        multipv: common.options.multipv,
        start: None,
    }
}

/// The codes of the `searchmoves` moves in `pos`. An illegal or malformed one is reported
/// (quoted briefly) and left out; when none is left, every move is searched (and said so).
fn search_moves<G: BoardRules>(out: &Output, pos: &G, texts: &[String]) -> Vec<u16> {
    let mut codes = Vec::new();
    for text in texts {
        match pos.parse_step(text) {
            Ok(mv) => codes.push(G::move_code(mv)),
            Err(e) => out.info_string(&format!(
                "error: go searchmoves: {}; the move is left out",
                move_error_text(&e)
            )),
        }
    }
    if codes.is_empty() && !texts.is_empty() {
        out.info_string("go searchmoves: no legal move given; every move is searched");
    }
    codes
}

/// How a search answers: what its `bestmove` line carries and whether it explains its timing.
#[derive(Clone, Copy, Debug)]
pub struct AnswerStyle {
    /// Append `ponder R` to `bestmove` when the search has an expected reply.
    pub ponder_move: bool,
    /// `debug on`: report where the time of the move went (see [`timing_report`]).
    pub debug: bool,
    /// The `MultiPV` option: the lines each iteration's `info` shows (the search may compute
    /// more, for a level's choice).
    pub multipv: usize,
    /// A weakened level's choice among the search's lines; `None` at full strength.
    pub skill: Option<Skill>,
}

/// How a weakened level chooses its move among the search's lines ([`levels::choose`]).
#[derive(Clone, Copy, Debug)]
pub struct Skill {
    /// The level.
    pub level: levels::BoardLevel,
    /// The `Seed` option.
    pub seed: u64,
}

/// The move and expected reply a search's `result` plays: its best line, or with a level the
/// line the level chooses.
fn played_line<G: Game>(
    pos: &G,
    result: &SearchResult<G::Move>,
    style: AnswerStyle,
) -> (Option<G::Move>, Option<G::Move>) {
    match style.skill {
        Some(skill) if result.lines.len() > 1 => {
            let values: Vec<f64> = result.lines.iter().map(|l| levels::board_value(l.score)).collect();
            let error = levels::board_error(skill.level, &values);
            let line = &result.lines[levels::choose(&values, error, skill.seed, Game::hash(pos))].pv;
            (line.first().copied(), line.get(1).copied())
        }
        _ => (result.best_move, result.ponder),
    }
}

/// The work of a board game's search thread: searches `pos` within `limits`, reporting each
/// iteration's `info` line and best move to `reporter`, and answering when done; returns the
/// searcher (`None` if the search failed).
pub fn board_search<G: BoardRules>(
    mut searcher: Searcher<G>,
    pos: G,
    limits: Limits,
    control: Arc<SearchControl>,
    style: AnswerStyle,
    reporter: Reporter,
) -> Option<Searcher<G>> {
    let thread_started = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        searcher.search_reporting(
            &pos,
            &limits,
            &control,
            &mut |info| {
                for line in info_lines(info, style.multipv) {
                    reporter.info(line);
                }
                let (best, ponder) = (info.pv.first().copied(), info.pv.get(1).copied());
                reporter.offer(bestmove_text(&pos, best, ponder, style).0);
            },
            &mut |result| {
                let (best, ponder) = played_line(&pos, result, style);
                let (answer, warning) = bestmove_text(&pos, best, ponder, style);
                let mut before = Vec::new();
                before.extend(warning);
                if style.debug {
                    before.push(format!(
                        "info string debug: search ended: depth {} nodes {} score {}",
                        result.depth, result.nodes, result.score
                    ));
                }
                for line in before {
                    reporter.info(line);
                }
                let mut after = Vec::new();
                if style.debug {
                    after.push(format!("info string {}", timing_report(&limits, thread_started, result)));
                }
                reporter.done(answer, after);
            },
        )
    }));
    // A panic in the search (a bug; impossible in release builds, which abort) drops the
    // reporter: the answerer gives the last offer, and the loop builds a fresh searcher.
    outcome.ok().map(|_| searcher)
}

/// The `bestmove` line for `best` and `ponder` in `pos`, checked against the rules, and the
/// `info string` that explains a replaced move, if one was.
pub fn bestmove_text<G: BoardRules>(
    pos: &G,
    best: Option<G::Move>,
    ponder: Option<G::Move>,
    style: AnswerStyle,
) -> (String, Option<String>) {
    let legal = pos.legal_moves();
    let legal = legal.as_ref();
    let (best, warning) = match best {
        Some(mv) if legal.contains(&mv) => (Some(mv), None),
        Some(mv) => (
            legal.first().copied(),
            Some(format!("info string error: the search returned an illegal move {mv}; replaced")),
        ),
        None if legal.is_empty() => (None, None),
        None => (
            legal.first().copied(),
            Some("info string error: the search returned no move; playing the first legal move".to_string()),
        ),
    };
    let ponder = match (best, ponder) {
        (Some(best), Some(reply))
            if style.ponder_move && pos.make_move(best).legal_moves().as_ref().contains(&reply) =>
        {
            Some(reply)
        }
        _ => None,
    };
    (bestmove_line(best, ponder), warning)
}

/// The table of the fallback search ([`fallback_search`]): small, so that it costs nothing to keep.
pub const FALLBACK_HASH_MIB: usize = 1;

/// The move given if the search offers none before the deadline (its thread was never
/// scheduled, or the budget is nothing at all, as `movetime` below `MoveOverhead`): the result
/// of a depth-1 search (with its capture extension) by `spare`, a small searcher of its own, run
/// on the loop's thread before the answerer starts, with the `info` line of its one iteration
/// (`None` in a finished game). It is the move the first iteration of the real search would
/// give, which the search always completes; it takes microseconds.
pub fn fallback_search<G: Game>(
    spare: &mut Searcher<G>,
    pos: &G,
    history: Vec<u64>,
    search_moves: &[u16],
) -> (Option<G::Move>, Option<String>) {
    spare.set_history(history);
    // The same root moves as the search (`go searchmoves`): the fallback is its first iteration.
    let limits = Limits { depth: Some(1), search_moves: search_moves.to_vec(), ..Limits::default() };
    let mut line = None;
    let result = spare.search(pos, &limits, &SearchControl::new(), &mut |info| line = Some(info_line(info)));
    (result.best_move, line)
}

/// The answer given if the search offers none in time ([`fallback_search`]): the fallback's own
/// `info` line, then its `bestmove`. The `info` line is there because a GUI takes the score of
/// a move from the last one before `bestmove` (to judge a draw offer, to show an evaluation):
/// a `bestmove` with no scored line before it would leave the GUI without one.
fn fallback_answer<G: BoardRules>(
    spare: &mut Searcher<G>,
    pos: &G,
    history: Vec<u64>,
    search_moves: &[u16],
    style: AnswerStyle,
) -> String {
    let (best, info) = fallback_search(spare, pos, history, search_moves);
    let answer = bestmove_text(pos, best, None, style).0;
    match info {
        // One text of two lines: the answerer writes it in one piece.
        Some(info) if best.is_some() => format!("{info}\n{answer}"),
        _ => answer,
    }
}

/// The `debug on` account of where a move's time went, measured from the moment the input
/// thread read `go` (the origin of every budget):
/// `debug: timing go-read->thread 0.4 ms, ->search 0.5 ms, ->decided 969.8 ms, ->bestmove 970.0 ms`.
/// A large first step means the engine loop or the new thread waited for a processor; a large
/// gap between `decided` and `bestmove`, that the search thread did (the answer is handed to the answerer then).
fn timing_report<M>(limits: &Limits, thread_started: Instant, result: &SearchResult<M>) -> String {
    let Some(read) = limits.start else {
        return "debug: timing unknown (no read time)".to_string();
    };
    let ms = |at: Instant| at.saturating_duration_since(read).as_secs_f64() * 1000.0;
    let mut text = format!("debug: timing go-read->thread {:.1} ms", ms(thread_started));
    if let Some(timing) = result.timing {
        text.push_str(&format!(
            ", ->search {:.1} ms, ->decided {:.1} ms",
            ms(timing.started),
            ms(timing.decided)
        ));
    }
    text.push_str(&format!(", ->bestmove {:.1} ms", ms(Instant::now())));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impasse::Position;

    #[test]
    fn answers_are_checked_and_the_fallback_is_the_first_iteration() {
        let pos = Position::startpos();
        let style = AnswerStyle { ponder_move: true, debug: false, multipv: 1, skill: None };
        let legal = pos.legal_moves();
        let first = legal.as_ref()[0];
        let (line, warning) = bestmove_text(&pos, Some(first), None, style);
        assert_eq!((line, warning), (format!("bestmove {first}"), None));
        // A move of the other side is not legal here: replaced, and said so.
        let other = pos.make_move(first);
        let foreign = other.legal_moves().as_ref()[0];
        if !legal.as_ref().contains(&foreign) {
            let (line, warning) = bestmove_text(&pos, Some(foreign), None, style);
            assert_eq!(line, format!("bestmove {first}"));
            assert!(warning.unwrap().contains("illegal move"));
        }
        let mut spare = Searcher::new(FALLBACK_HASH_MIB, 1);
        let fallback = fallback_search(&mut spare, &pos, Vec::new(), &[]).0.unwrap();
        let mut searcher = Searcher::new(16, 1);
        let limits = Limits { depth: Some(1), ..Limits::default() };
        let first = searcher.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
        assert_eq!(Some(fallback), first.best_move, "the move of a depth-1 search");
        // With `go searchmoves`, the fallback is one of those moves (found by the fuzz: it was
        // the best move of the whole position).
        for &only in legal.as_ref().iter().filter(|&&m| Some(m) != first.best_move).take(3) {
            let fallback = fallback_search(&mut spare, &pos, Vec::new(), &[Position::move_code(only)]);
            assert_eq!(fallback.0, Some(only));
        }
    }
}
