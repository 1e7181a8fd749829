//! The protocol for dice games: the engine loop's session when `UCI_Variant` names a game of
//! the dice family (Can't Stop), generic over [`ChanceRules`].
//!
//! The commands are those of the board games, read the same way, with these differences
//! (docs/protocol.md, "Dice games"):
//! - `position startpos|fen F [moves E...]`: the events include the rolls (`r1546`), sent by
//!   whoever rolls the dice; `startpos` is the start for the `Players` option's number;
//! - `go` answers the decision of the player to move with `bestmove TOKEN`; where a roll is due
//!   or the game is over nobody decides: an `info string` says why, then `bestmove (none)`;
//! - the `Strategy` option picks the search or one of the game's fixed players;
//! - `query turn` answers `p1`..`p4`, `query result` `p1win`..`p4win` or `none`.
//!
//! The search runs on a thread of its own with an answerer, as the board games' does
//! (`job.rs`, `answer.rs`): the loop keeps answering (`isready` during a search), `stop` and
//! the deadline are answered at once whatever the load, and `go infinite` and `go ponder` wait
//! for `stop` or `ponderhit` before answering. The fixed players decide at once, on the loop.

use super::answer::{Deadline, Reporter};
use super::command::{Command, GoParams, Query, StartPosition, quote};
use super::job::{Job, wait_for_the_gui};
use super::options::Change;
use super::{Common, Flow, Session, hello_lines};
use crate::chance::player::{SEARCH, decide_among};
use crate::chance::{Limits, MAX_DEPTH};
use crate::game::{ChanceRules, Node, rules};
use crate::quote::move_error_reason;
use crate::search::SearchControl;
use crate::variants::{Expectimax, Variant};
use std::sync::Arc;
use std::sync::atomic::Ordering::SeqCst;
use std::time::{Duration, Instant};

/// The engine of one dice game.
pub(super) struct DiceSession<G: ChanceRules> {
    common: Common,
    variant: Variant<G>,
    position: G,
    /// The search running, or answered but not yet joined.
    job: Option<Job<()>>,
}

impl<G: ChanceRules> DiceSession<G> {
    /// The engine at the start of a game with the `Players` option's number of players.
    pub(super) fn new(common: Common, variant: Variant<G>) -> DiceSession<G> {
        let position = start::<G>(common.options.players);
        DiceSession { common, variant, position, job: None }
    }
}

/// The start for `players`, or for the nearest number the game allows.
fn start<G: ChanceRules>(players: usize) -> G {
    let players = players.clamp(*G::PLAYERS.start(), *G::PLAYERS.end());
    rules::start_for_players(players).unwrap_or_else(|_| G::start(Default::default()))
}

impl<G: ChanceRules> Session for DiceSession<G> {
    fn execute(&mut self, line: u64, command: Command, read_at: Instant) -> Flow {
        self.settle();
        match command {
            Command::Hello(dialect) => {
                self.common.dialect = dialect;
                self.common.out.lines(&hello_lines(dialect));
            }
            Command::IsReady => self.common.out.line("readyok"),
            Command::Debug(on) => self.common.debug = on,
            Command::SetOption { name, value } => return self.set_option(&name, value.as_deref()),
            Command::NewGame => {}
            Command::Stop => {
                if let Some(job) = &self.job {
                    job.stop();
                }
            }
            Command::PonderHit => {
                if let Some(job) = &self.job {
                    job.ponderhit();
                }
            }
            Command::Position { start, moves } => self.set_position(&start, &moves),
            Command::Go(params) => self.go(line, &params, read_at),
            Command::Query(query) => self.query(&query),
            Command::Display => self.display(),
            Command::Perft(depth) => self.perft(line, depth),
            Command::Bench(depth) => self.bench(line, depth.unwrap_or(self.variant.info.bench_depth)),
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    fn reap_finished(&mut self) {
        if self.job.as_ref().is_some_and(|job| job.is_answered() && job.is_finished()) {
            self.join_job();
        }
    }

    fn shutdown(&mut self) {
        if let Some(job) = &self.job {
            job.stop();
            job.wait_answered();
        }
        self.join_job();
    }

    fn into_common(self: Box<Self>) -> Common {
        self.common
    }
}

impl<G: ChanceRules> DiceSession<G> {
    /// `setoption`: `Players` also sets the position to the start of that many players.
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Flow {
        let Some(change) = self.common.check_option(name, value) else {
            return Flow::Continue;
        };
        if matches!(change, Change::Variant(_)) && !self.is_idle("setoption") {
            return Flow::Continue;
        }
        // A dice game has no table, but the size is kept for the board games: the same rule.
        if let Change::Hash(mib) = change
            && let Err(e) = crate::search::hash_size::check(mib, 0)
        {
            self.common.out.info_string(&format!("error: setoption: Hash: {e}"));
            return Flow::Continue;
        }
        self.common.options.apply(change);
        match change {
            Change::Debug(on) => self.common.debug = on,
            Change::Players(n) => self.position = start::<G>(n),
            Change::Variant(name) if name != self.variant.name() => return Flow::SwitchVariant(name),
            _ => {}
        }
        Flow::Continue
    }

    /// `position`: replaced only if the FEN and every event are valid.
    fn set_position(&mut self, start_position: &StartPosition, events: &[String]) {
        match self.build_position(start_position, events) {
            Ok(pos) => self.position = pos,
            Err(message) => {
                self.common.out.info_string(&format!("error: position: {message}; the position is unchanged"))
            }
        }
    }

    fn build_position(&self, start_position: &StartPosition, events: &[String]) -> Result<G, String> {
        let mut pos = match start_position {
            StartPosition::StartPos => start::<G>(self.common.options.players),
            StartPosition::Fen(fen) => rules::parse_standard_fen(fen)?,
        };
        for (i, text) in events.iter().enumerate() {
            let event = pos
                .parse_step(text)
                .map_err(|e| format!("event {} {}: {}", i + 1, quote(text), move_error_reason(&e)))?;
            pos = pos.play(event);
        }
        Ok(pos)
    }

    /// `go`: the decision of the player to move, or `bestmove (none)` where nobody decides.
    fn go(&mut self, line: u64, params: &GoParams, read_at: Instant) {
        if !self.is_idle("go") {
            return;
        }
        match self.position.node() {
            Node::Decision => {}
            Node::Chance => {
                self.common.out.info_string(
                    "no decision: the next event is a roll of the dice, which no player chooses",
                );
                return self.answer_when_released(line, params, "bestmove (none)".to_string());
            }
            Node::Over => {
                let winner = rules::winner(&self.position).map_or(0, |w| w + 1);
                self.common.out.info_string(&format!("game over: player {winner} won"));
                return self.answer_when_released(line, params, "bestmove (none)".to_string());
            }
        }
        let strategy = self.common.options.strategy;
        let seed = self.common.options.seed;
        let only = self.search_events(&params.searchmoves);
        if strategy != SEARCH {
            // A fixed player decides at once: no search, no deadline to keep.
            let never = std::sync::atomic::AtomicBool::new(false);
            let decision =
                decide_among(&self.position, &only, strategy, seed, Limits::default(), &never, &mut |_| {});
            let event = decision.map_or("(none)".to_string(), |d| d.event.to_string());
            return self.answer_when_released(line, params, format!("bestmove {event}"));
        }
        let budget = self.budget(params);
        let ponder = params.ponder;
        let limits = Limits {
            depth: params.depth.map(|d| d.clamp(1, MAX_DEPTH)),
            nodes: params.nodes,
            // While pondering the search has no clock: the answerer stops it at the deadline,
            // which runs from the ponder hit.
            movetime: budget
                .filter(|_| !ponder)
                .map(|t| t.saturating_sub(read_at.elapsed()).max(Duration::from_millis(1))),
        };
        let control = Arc::new(SearchControl::new());
        control.pondering.store(ponder, SeqCst);
        let pos = self.position;
        let fallback = format!("bestmove {}", fallback_event(&pos, &only, seed));
        let deadline = Deadline { start: read_at, hard: budget };
        let (out, debug) = (self.common.out.clone(), self.common.debug);
        let Some(answerer) =
            super::answerers_for(&mut self.common.workers, &control, out, deadline, fallback, debug)
        else {
            return;
        };
        // The deadline is guarded: the rest is ordinary work (joining, starting threads).
        crate::realtime::release();
        self.common.shared.publish(&control, line);
        self.join_job();
        let infinite = params.infinite;
        let job_control = control.clone();
        let (job, started) = Job::start(&mut self.common.workers, control, answerer, move |reporter| {
            dice_search(&pos, &only, limits, &job_control, infinite, &reporter);
        });
        if let Err(e) = started {
            self.common.out.info_string(&format!("error: cannot start the search thread: {e}"));
        }
        self.job = Some(job);
    }

    /// The events of `go searchmoves` that are legal decisions here. An illegal or malformed
    /// one is reported (quoted briefly) and left out; when none is left, every decision is
    /// searched (and said so), as in the board games.
    fn search_events(&self, texts: &[String]) -> Vec<G::Step> {
        let decisions = self.position.decisions();
        let mut events = Vec::new();
        for text in texts {
            match self.position.parse_step(text) {
                Ok(event) if decisions.contains(&event) => events.push(event),
                Ok(_) => self.common.out.info_string(&format!(
                    "error: go searchmoves: {} is not a decision of the player to move; the move is left out",
                    quote(text)
                )),
                Err(e) => self.common.out.info_string(&format!(
                    "error: go searchmoves: {}: {}; the move is left out",
                    quote(text),
                    move_error_reason(&e)
                )),
            }
        }
        if events.is_empty() && !texts.is_empty() {
            self.common.out.info_string("go searchmoves: no legal move given; every move is searched");
        }
        events
    }

    /// Gives `answer`, known without a search: at once, or, under `go infinite` or `go ponder`,
    /// once the GUI sends `stop` or `ponderhit` (UCI: the engine must not answer before), on
    /// a job like a search's, so that the loop serves commands meanwhile.
    fn answer_when_released(&mut self, line: u64, params: &GoParams, answer: String) {
        if !params.infinite && !params.ponder {
            return self.common.out.line(&answer);
        }
        let control = Arc::new(SearchControl::new());
        control.pondering.store(params.ponder, SeqCst);
        let deadline = Deadline { start: Instant::now(), hard: None };
        let (out, debug) = (self.common.out.clone(), self.common.debug);
        let Some(answerer) =
            super::answerers_for(&mut self.common.workers, &control, out, deadline, answer.clone(), debug)
        else {
            return;
        };
        crate::realtime::release();
        self.common.shared.publish(&control, line);
        self.join_job();
        let (job_control, infinite) = (control.clone(), params.infinite);
        let (job, started) = Job::start(&mut self.common.workers, control, answerer, move |reporter| {
            super::job::wait_for_the_gui(&job_control, infinite);
            reporter.done(answer, Vec::new());
        });
        if let Err(e) = started {
            self.common.out.info_string(&format!("error: cannot start the search thread: {e}"));
        }
        self.job = Some(job);
    }

    /// The time the search may take from the moment `go` was read, less the move overhead:
    /// `movetime`, or a share of the mover's clock (`wtime` for odd players, `btime` for even
    /// ones); none for `infinite` or a `go` without a time (the turn is then solved exactly,
    /// or until `stop`).
    fn budget(&self, go: &GoParams) -> Option<Duration> {
        let odd_player = self.position.to_move().is_multiple_of(2);
        let clock = if odd_player { go.wtime } else { go.btime };
        let increment = if odd_player { go.winc } else { go.binc };
        let from_clock = clock.map(|t| t / 30 + increment.unwrap_or_default() / 2);
        let time = if go.infinite { None } else { go.movetime.or(from_clock) };
        time.map(|t| t.saturating_sub(self.common.options.move_overhead))
    }

    /// True when no search is running unanswered; otherwise the command `what` is refused.
    fn is_idle(&mut self, what: &str) -> bool {
        self.settle();
        match self.job.as_ref().and_then(|job| job.refusal(what)) {
            Some(error) => {
                self.common.out.info_string(&error);
                false
            }
            None => true,
        }
    }

    /// Lets a search that has been told to stop give its `bestmove`, and joins an answered
    /// search whose threads have ended ([`Job::settle`]); never waits for a search that nobody
    /// has stopped.
    fn settle(&mut self) {
        if self.job.as_ref().is_some_and(Job::settle) {
            self.join_job();
        }
    }

    /// Waits for the search's threads (they have answered, or been told to stop).
    fn join_job(&mut self) {
        if let Some(job) = self.job.take() {
            let control = job.control().clone();
            job.join();
            self.common.shared.retire(&control);
        }
    }

    fn query(&self, query: &Query) {
        let pos = &self.position;
        let answer = super::played::query_answer(pos, false, query, |text| pos.parse_step(text).is_ok());
        self.common.out.line(&format!("response {answer}"));
    }

    /// `d`: the diagram, the FEN, the player to move and the legal events.
    fn display(&self) {
        let pos = &self.position;
        let mut lines = pos.diagram();
        lines.push(format!("Fen: {}", pos.fen()));
        let events: Vec<String> = pos.legal_steps().iter().map(|e| e.to_string()).collect();
        match rules::winner(pos) {
            Some(w) => lines.push(format!("Game over: player {} won", w + 1)),
            None => lines.push(format!("To move: player {}", pos.to_move() + 1)),
        }
        lines.push(format!("Events ({}): {}", events.len(), events.join(" ")));
        self.common.out.lines(&lines);
    }

    /// `perft N`: the event sequences of length N below each event, then the total; on the
    /// loop's thread, stopped by `stop`, `quit` or the end of input (as a board game's).
    fn perft(&mut self, line: u64, depth: u32) {
        if let Err(e) = crate::tools::perft::check_depth(depth) {
            return self.common.out.info_string(&format!("error: perft: {e}"));
        }
        if !self.is_idle("perft") {
            return;
        }
        self.join_job();
        let control = Arc::new(SearchControl::new());
        self.common.shared.publish(&control, line);
        match super::terminal::perft_lines(&self.position, depth, &control.stop) {
            Some(lines) => self.common.out.lines(&lines),
            None => self.common.out.info_string("perft stopped"),
        }
        self.common.shared.retire(&control);
    }

    /// `bench [D]`: the dice bench, to D rolls (stopped by `stop`, as a board game's).
    fn bench(&mut self, line: u64, depth: u32) {
        if !self.is_idle("bench") {
            return;
        }
        self.join_job();
        let control = Arc::new(SearchControl::new());
        self.common.shared.publish(&control, line);
        super::terminal::bench(Expectimax, self.variant, depth, &control, &self.common.out);
        self.common.shared.retire(&control);
    }
}

/// The work of a dice game's search thread: the search's decision in `pos`, each completed
/// depth reported and offered, the decisions' values and the answer at the end. An infinite or
/// pondering search waits for `stop` or `ponderhit` before answering, as UCI requires.
fn dice_search<G: ChanceRules>(
    pos: &G,
    only: &[G::Step],
    limits: Limits,
    control: &SearchControl,
    infinite: bool,
    reporter: &Reporter,
) {
    let players = pos.players();
    let decision = decide_among(pos, only, SEARCH, 0, limits, &control.stop, &mut |it| {
        reporter.info(crate::tools::searches::expectimax::info_line(it, players));
        reporter.offer(format!("bestmove {}", it.best));
    });
    wait_for_the_gui(control, infinite);
    let Some(decision) = decision else {
        return reporter.done("bestmove (none)".into(), Vec::new());
    };
    if let Some(it) = &decision.search {
        let values: Vec<String> = it.values.iter().map(|(e, v)| format!("{e} {v:.4}")).collect();
        reporter.info(format!("info string values {}", values.join(" ")));
    }
    reporter.done(format!("bestmove {}", decision.event), Vec::new());
}

/// The decision given if the search offers none before its deadline: the game's first fixed
/// player's (a sound rule of thumb, decided in microseconds), else its first decision.
fn fallback_event<G: ChanceRules>(pos: &G, only: &[G::Step], seed: u64) -> String {
    let never = std::sync::atomic::AtomicBool::new(false);
    let first_fixed = G::FIXED_PLAYERS.first().copied().unwrap_or(SEARCH);
    let fixed = decide_among(
        pos,
        only,
        first_fixed,
        seed,
        Limits { depth: Some(1), ..Limits::default() },
        &never,
        &mut |_| {},
    );
    fixed
        .map(|d| d.event)
        .or_else(|| pos.decisions().first().copied())
        .map_or("(none)".to_string(), |e| e.to_string())
}
