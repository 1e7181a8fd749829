//! The text protocol: a UCI-style engine loop on stdin/stdout that is a superset of UGI (the
//! Universal Game Interface of the cutegames runner), plus the CodinGame arena adapter.
//!
//! The grammar is documented in `docs/protocol.md`. The scheme, room by room:
//! - [`command`]: one line of text to a [`command::Command`], a pure and fuzzed function;
//! - [`input`]: the input thread, which reads and parses lines, forwards them in order, and
//!   raises `stop` (and clears `pondering`) on the running job itself, so that a search stops
//!   within milliseconds even when the loop is busy; end of input is `quit`;
//! - this file: the engine loop and its state (current position, options, the searcher),
//!   generic over the game's [`Rules`]; the loop holds the current variant's engine as a
//!   [`Session`] trait object and replaces it when `UCI_Variant` changes;
//! - [`job`]: a search on its own thread, from `go` to exactly one `bestmove`;
//! - [`answer`]: the answerer thread of each search, which writes its lines and gives its
//!   `bestmove` at the deadline when the search thread cannot (a busy machine);
//! - [`options`]: the option table and `setoption` validation;
//! - [`output`]: the one locked writer all output goes through, and the text of `info`,
//!   `bestmove` and the `d` board;
//! - [`terminal`]: `perft` and `bench`;
//! - [`codingame`]: the CodinGame "Impasse" referee protocol (`steere codingame`).
//!
//! Data flows one way: input thread → channel → `Engine::execute` → rules / search → output.
//! The protocol contains no search logic: it turns `go` parameters into [`Limits`] and search
//! results into text (the habit of carp's `uci.rs` and tantabus's `SearchHandler`).
//!
//! Invariants kept here: every error leaves the state as it was and is reported with
//! `info string error: ...`; every accepted `go` gets exactly one `bestmove`; a command that
//! needs the searcher while a search runs is refused (or, when the search is already stopping,
//! waits for it), so nothing ever blocks on a search that nobody will stop.

pub mod answer;
pub mod codingame;
pub mod command;
pub mod dice;
pub mod input;
pub mod job;
pub mod options;
pub mod output;
pub mod terminal;

use answer::{Answerer, Deadline};
use command::{Command, Dialect, GoParams, ParseError, Query, StartPosition, quote};
use input::{Input, Shared};
use job::{AnswerStyle, FALLBACK_HASH_MIB, Job, bestmove_text, board_search, fallback_move};
use options::{Change, Options};
use output::Output;

use crate::game::{GameHistory, MoveTextError, Player, Rules, rules};
use crate::search::{Clock, Limits, MAX_DEPTH, SearchControl, Searcher, time};
use crate::variants::{self, Variant};
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::Ordering::SeqCst;
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The engine's name in `id name`.
pub const ENGINE_NAME: &str = concat!("steere ", env!("CARGO_PKG_VERSION"));
/// The engine's author in `id author`.
pub const ENGINE_AUTHOR: &str = "the steere developers";

/// How often the loop wakes up without input, to notice a closed output and reap a finished
/// search.
const IDLE_POLL: Duration = Duration::from_millis(100);

/// Runs the protocol on stdin and stdout until `quit` or the end of input.
pub fn run_stdio() {
    // `StdinLock` cannot move to the input thread; a reader over `Stdin` can.
    run(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
}

/// Runs the protocol on `input` and `output` until `quit`, the end of input, or a closed
/// output. Any running search is stopped (and answered with its `bestmove`) before returning.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) {
    let out = Output::new(output);
    let shared = Arc::new(Shared::default());
    let (sender, receiver) = channel();
    let reader_shared = shared.clone();
    let reader = std::thread::Builder::new()
        .name("input".into())
        .spawn(move || input::read_loop(input, &reader_shared, &sender));
    if let Err(e) = reader {
        out.info_string(&format!("error: cannot start the input thread: {e}"));
        return;
    }
    let common =
        Common { out: out.clone(), shared, options: Options::default(), debug: false, dialect: Dialect::Uci };
    let mut session = new_session(common, variants::DEFAULT_VARIANT);
    while !out.is_closed() {
        // The loop waits at a real-time priority where granted, so that a `go` gets its answerer
        // (and its deadline a guard) promptly on a busy machine, and keeps it for the few
        // commands that come between a GUI's `go` and its answer; `go` leaves it as soon as its
        // answerer runs, every other command runs at the ordinary priority.
        crate::realtime::request();
        let input = receiver.recv_timeout(IDLE_POLL);
        if !matches!(&input, Ok(Input::Line(_, Ok(parsed), _)) if runs_at_real_time(&parsed.command)) {
            crate::realtime::release();
        }
        match input {
            Ok(Input::Line(line, Ok(parsed), read_at)) => {
                for warning in &parsed.warnings {
                    out.info_string(warning);
                }
                let outcome = session.execute(line, parsed.command, read_at);
                crate::realtime::release();
                match outcome {
                    Flow::Continue => {}
                    Flow::Quit => break,
                    Flow::SwitchVariant(name) => session = new_session(session.into_common(), name),
                }
            }
            Ok(Input::Line(_, Err(ParseError::Empty), _)) => {}
            Ok(Input::Line(_, Err(error), _)) => out.info_string(&format!("error: {error}")),
            Ok(Input::TooLong(line, bytes)) => {
                out.info_string(&format!("error: line {line} is too long ({bytes} bytes); ignored"))
            }
            Ok(Input::End) | Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => session.reap_finished(),
        }
    }
    crate::realtime::release();
    session.shutdown();
}

/// Whether the loop runs `command` at its waiting (real-time) priority: the commands a GUI
/// sends just before a `go` or during a search, which compute little and start no thread
/// before the answerer (a new thread inherits the policy: `go` leaves it as soon as its answerer
/// runs). A `position` is read before its `go`, whose time has started: at the ordinary
/// priority a busy machine could hold it for tens of milliseconds.
fn runs_at_real_time(command: &Command) -> bool {
    matches!(
        command,
        Command::Go(_) | Command::Position { .. } | Command::Stop | Command::PonderHit | Command::IsReady
    )
}

/// What the engine loop does after a command.
enum Flow {
    /// Read the next command.
    Continue,
    /// End (`quit`).
    Quit,
    /// Replace the session by one of the named variant, at its start position.
    SwitchVariant(&'static str),
}

/// The engine of one variant as the loop sees it: the game type is hidden behind this trait so
/// that the loop can switch games at run time.
trait Session {
    /// Executes one command from line `line` of the input, read at `read_at`.
    fn execute(&mut self, line: u64, command: Command, read_at: Instant) -> Flow;
    /// Joins the search if it has finished (when the loop is idle).
    fn reap_finished(&mut self);
    /// Ends the engine: stops any search and waits for its `bestmove`.
    fn shutdown(&mut self);
    /// The state that outlives a change of variant (only called when no search runs).
    fn into_common(self: Box<Self>) -> Common;
}

/// The answer to `uci`/`ugi`: identification, options, and `uciok`/`ugiok`.
fn hello_lines(dialect: Dialect) -> Vec<String> {
    let mut lines = vec![format!("id name {ENGINE_NAME}"), format!("id author {ENGINE_AUTHOR}")];
    lines.extend(Options::declarations());
    lines.push(match dialect {
        Dialect::Uci => "uciok".to_string(),
        Dialect::Ugi => "ugiok".to_string(),
    });
    lines
}

/// The engine of variant `name` (a registry name), at its start position.
fn new_session(common: Common, name: &str) -> Box<dyn Session> {
    /// Builds the engine of a dice game.
    struct NewDiceSession(Common);
    impl variants::ChanceJob for NewDiceSession {
        type Output = Box<dyn Session>;
        fn run<G: crate::game::ChanceRules>(self, variant: variants::ChanceVariant<G>) -> Box<dyn Session> {
            Box::new(dice::DiceSession::new(self.0, variant))
        }
    }
    if variants::is_dice_game(name) {
        return variants::dispatch_chance(name, NewDiceSession(common))
            .unwrap_or_else(|e| panic!("{e}: the option checked it"));
    }
    /// Builds the engine with the variant's game type.
    struct NewSession(Common);
    impl variants::Job for NewSession {
        type Output = Box<dyn Session>;
        fn run<G: Rules>(self, variant: Variant<G>) -> Box<dyn Session> {
            Box::new(Engine::new(self.0, variant))
        }
    }
    variants::dispatch(name, NewSession(common)).unwrap_or_else(|e| panic!("{e}: the option checked it"))
}

/// The state of the engine loop that does not depend on the game.
struct Common {
    out: Output,
    shared: Arc<Shared>,
    options: Options,
    debug: bool,
    /// The dialect of the last handshake (UCI until one is seen): `bestmove` follows it.
    dialect: Dialect,
}

impl Common {
    /// Checks a `setoption` of any session; one that does not check is reported and ignored.
    fn check_option(&self, name: &str, value: Option<&str>) -> Option<Change> {
        match Options::check(name, value) {
            Ok(change) => Some(change),
            Err(message) => {
                self.out.info_string(&format!("error: setoption: {message}"));
                None
            }
        }
    }
}

/// The engine of one variant: the common state, the position and the searcher.
struct Engine<G: Rules> {
    common: Common,
    variant: Variant<G>,
    /// The position the next `go` searches.
    position: G,
    /// The game that led to it (for threefold repetition: the draw, and the search's history).
    history: GameHistory<G>,
    /// The searcher, created on first use (so that `uci` allocates nothing); `None` also while
    /// it is lent to the running search.
    searcher: Option<Searcher<G>>,
    /// The search running, or answered but not yet joined.
    job: Option<Job<Option<Searcher<G>>>>,
    /// The small searcher of the fallback move ([`fallback_move`]), created on first use.
    spare: Option<Searcher<G>>,
}

impl<G: Rules> Session for Engine<G> {
    fn execute(&mut self, line: u64, command: Command, read_at: Instant) -> Flow {
        self.run_command(line, command, read_at)
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

impl<G: Rules> Engine<G> {
    fn new(common: Common, variant: Variant<G>) -> Engine<G> {
        let start = variant.start();
        Engine {
            common,
            variant,
            position: start,
            history: GameHistory::new(start),
            searcher: None,
            job: None,
            spare: None,
        }
    }

    /// Executes one command from line `line` of the input, read at `read_at`.
    fn run_command(&mut self, line: u64, command: Command, read_at: Instant) -> Flow {
        // A search told to stop ends within milliseconds: let it print its bestmove first, so
        // that every command after `stop` (even `isready`) answers after that bestmove.
        self.settle();
        match command {
            Command::Hello(dialect) => {
                self.common.dialect = dialect;
                self.hello(dialect)
            }
            Command::IsReady => {
                // Runners send `isready` before starting the clock: allocate the table now, not
                // inside the first `go`'s time budget.
                if self.job.is_none() && self.searcher.is_none() {
                    self.searcher = Some(self.take_searcher());
                }
                self.common.out.line("readyok")
            }
            Command::Debug(on) => self.common.debug = on,
            Command::SetOption { name, value } => return self.set_option(&name, value.as_deref()),
            Command::NewGame => {
                if self.wait_idle("ucinewgame")
                    && let Some(searcher) = &mut self.searcher
                {
                    searcher.new_game();
                }
            }
            Command::Position { start, moves } => self.set_position(&start, &moves),
            Command::Go(params) => self.go(line, &params, read_at),
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
            Command::Query(query) => self.query(&query),
            Command::Display => self.common.out.lines(&output::board_lines(&self.position)),
            Command::Perft(depth) => self.perft(line, depth),
            Command::Bench(depth) => self.bench(line, depth.unwrap_or(self.variant.info.bench_depth)),
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    /// `uci`/`ugi`: identification, options, and `uciok`/`ugiok`.
    fn hello(&self, dialect: Dialect) {
        self.common.out.lines(&hello_lines(dialect));
    }

    /// `setoption`; a new `UCI_Variant` replaces the engine by one of that variant at its start
    /// position (the variant already played is no change: position and table stay).
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Flow {
        let Some(change) = self.common.check_option(name, value) else {
            return Flow::Continue;
        };
        if change.needs_searcher() && !self.wait_idle("setoption") {
            return Flow::Continue;
        }
        self.common.options.apply(change);
        // A searcher not created yet will be created with the new values.
        if let Some(searcher) = &mut self.searcher {
            match change {
                Change::Hash(mib) => searcher.set_hash(mib),
                Change::Threads(n) => searcher.set_threads(n),
                Change::ClearHash => searcher.new_game(),
                Change::MoveOverhead(_)
                | Change::Ponder(_)
                | Change::Variant(_)
                | Change::Players(_)
                | Change::Strategy(_)
                | Change::Seed(_)
                | Change::Debug(_)
                | Change::NoOwnBook => {}
            }
        }
        if let Change::Debug(on) = change {
            // cutegames sends its `debug` setting as an option: the same as `debug on|off`.
            self.common.debug = on;
        }
        if self.common.debug {
            self.common.out.info_string(&format!("debug: options now {:?}", self.common.options));
        }
        match change {
            Change::Variant(name) if name != self.variant.name() => Flow::SwitchVariant(name),
            _ => Flow::Continue,
        }
    }

    /// `position`: the new position replaces the current one only if the FEN and every move
    /// are valid.
    fn set_position(&mut self, start: &StartPosition, moves: &[String]) {
        match build_position(self.variant, start, moves) {
            Ok(history) => {
                self.position = *history.current();
                self.history = history;
            }
            Err(message) => {
                self.common.out.info_string(&format!("error: position: {message}; the position is unchanged"))
            }
        }
    }

    /// `go`, read at `read_at`: every time budget counts from that moment.
    fn go(&mut self, line: u64, params: &GoParams, read_at: Instant) {
        if !self.is_idle("go") {
            return;
        }
        let drawn = self.history.is_threefold();
        if self.position.outcome().is_some() || drawn {
            // No move to play: `bestmove (none)`, as Stockfish answers in a mated position. At
            // once, unless the GUI decides when the search ends (`infinite`, `ponder`): then
            // the search below waits for `stop` or `ponderhit` like any other. A game drawn by
            // threefold repetition is over too (the rules draw it at once) although its
            // position has moves; analysed until `stop`, it still gets a search.
            self.common.out.info_string(if drawn {
                "game over: draw by threefold repetition"
            } else {
                "game over"
            });
            if !params.infinite && !params.ponder {
                self.common.out.line("bestmove (none)");
                return;
            }
        }
        let limits = Limits { start: Some(read_at), ..self.limits(params) };
        if self.common.debug {
            self.common.out.info_string(&format!("debug: searching {} with {limits:?}", self.position.fen()));
        }
        let control = Arc::new(SearchControl::new());
        control.pondering.store(params.ponder, SeqCst);
        let style = AnswerStyle { ponder_move: self.ponder_move_shown(), debug: self.common.debug };
        // The answerer starts first, before the previous search's threads are joined (which on
        // a busy machine may wait for a processor): the deadline holds from here whatever happens.
        let pos = self.position;
        let spare = self.spare.get_or_insert_with(|| Searcher::new(FALLBACK_HASH_MIB, 1));
        let fallback_best = fallback_move(spare, &pos, self.history.hashes_before());
        let fallback = bestmove_text(&pos, fallback_best, None, style).0;
        let deadline = Deadline { start: read_at, hard: time::budget(&limits).hard };
        let out = self.common.out.clone();
        let answerer = match Answerer::start(control.clone(), out, deadline, fallback.clone(), style.debug) {
            Ok(answerer) => answerer,
            Err(e) => {
                // Still exactly one bestmove.
                self.common.out.info_string(&format!("error: cannot start the answerer thread: {e}"));
                self.common.out.line(&fallback);
                return;
            }
        };
        // The deadline is guarded: the rest is ordinary work (joining, starting threads).
        crate::realtime::release();
        self.common.shared.publish(&control, line);
        self.join_job();
        let mut searcher = self.take_searcher();
        searcher.set_history(self.history.hashes_before());
        let job_control = control.clone();
        let (job, started) = Job::start(control, answerer, move |reporter| {
            board_search(searcher, pos, limits, job_control, style, reporter)
        });
        if let Err(e) = started {
            self.common.out.info_string(&format!("error: cannot start the search thread: {e}"));
        }
        self.job = Some(job);
    }

    /// Whether `bestmove` may carry `ponder R`: never after `ugi` (UGI's grammar is
    /// `bestmove MOVE`, and its runners accept exactly two words), and after `uci` only when the
    /// GUI has turned the `Ponder` option on (a GUI that never ponders has no use for the
    /// word, and strict readers, such as cutegames' UCI side, reject it).
    fn ponder_move_shown(&self) -> bool {
        self.common.dialect == Dialect::Uci && self.common.options.ponder
    }

    /// The search limits of `go`: the clock of the side to move (p1 = White), the fixed limits,
    /// and the move overhead.
    fn limits(&self, go: &GoParams) -> Limits {
        let white = self.position.to_move() == Player::P1;
        let (time, increment, other_time) =
            if white { (go.wtime, go.winc, go.btime) } else { (go.btime, go.binc, go.wtime) };
        if time.is_none() && other_time.is_some() {
            let side = rules::player_name::<G>(self.position.to_move());
            self.common
                .out
                .info_string(&format!("go: no time given for the side to move ({side}); no clock is used"));
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
            move_overhead: self.common.options.move_overhead,
            mate: go.mate,
            search_moves: self.search_moves(&go.searchmoves),
            start: None,
        }
    }

    /// The codes of the `searchmoves` moves in the current position. An illegal or malformed
    /// one is reported and left out; when none is left, every move is searched (and said so).
    fn search_moves(&self, texts: &[String]) -> Vec<u16> {
        let mut codes = Vec::new();
        for text in texts {
            match self.position.parse_move_text(text) {
                Ok(mv) => codes.push(G::move_code(mv)),
                Err(e) => {
                    self.common.out.info_string(&format!("error: go searchmoves: {e}; the move is left out"))
                }
            }
        }
        if codes.is_empty() && !texts.is_empty() {
            self.common.out.info_string("go searchmoves: no legal move given; every move is searched");
        }
        codes
    }

    fn query(&self, query: &Query) {
        let pos = &self.position;
        let drawn = self.history.is_threefold();
        let answer = match query {
            Query::GameOver => (pos.outcome().is_some() || drawn).to_string(),
            Query::P1Turn => (pos.to_move() == Player::P1).to_string(),
            Query::Turn => format!("p{}", pos.to_move().index() + 1),
            Query::Result => match (pos.outcome(), rules::winner(pos)) {
                (None, _) if drawn => "draw".to_string(),
                (None, _) => "none".to_string(),
                (Some(_), Some(Player::P1)) => "p1win".to_string(),
                (Some(_), Some(Player::P2)) => "p2win".to_string(),
                (Some(_), None) => "draw".to_string(),
            },
            Query::Fen => pos.fen(),
            Query::IsLegal(text) => pos.parse_move_text(text).is_ok().to_string(),
        };
        self.common.out.line(&format!("response {answer}"));
    }

    fn perft(&mut self, line: u64, depth: u32) {
        if !self.wait_idle("perft") {
            return;
        }
        let control = Arc::new(SearchControl::new());
        self.common.shared.publish(&control, line);
        match terminal::perft_lines(&self.position, depth, &control.stop) {
            Some(lines) => self.common.out.lines(&lines),
            None => self.common.out.info_string("perft stopped"),
        }
        self.common.shared.retire(&control);
    }

    fn bench(&mut self, line: u64, depth: u32) {
        if !self.wait_idle("bench") {
            return;
        }
        let control = Arc::new(SearchControl::new());
        self.common.shared.publish(&control, line);
        if !terminal::bench(self.variant, depth.clamp(1, MAX_DEPTH), &control, &self.common.out) {
            self.common.out.info_string("bench stopped");
        }
        self.common.shared.retire(&control);
    }

    /// The searcher, created with the current options if needed, taken out of the state (to
    /// lend it to a search).
    fn take_searcher(&mut self) -> Searcher<G> {
        self.searcher
            .take()
            .unwrap_or_else(|| Searcher::new(self.common.options.hash_mib, self.common.options.threads))
    }

    /// Makes sure no search runs, for a command that needs the searcher or the processor: an
    /// answered search is joined (its threads end within milliseconds); a search that nobody has
    /// stopped is left alone and the command refused (false), because waiting for it could take
    /// forever.
    fn wait_idle(&mut self, what: &str) -> bool {
        if !self.is_idle(what) {
            return false;
        }
        self.join_job();
        true
    }

    /// True when no search is running unanswered (an answered one may still be winding down);
    /// otherwise the command `what` is refused with an error.
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

    /// Waits for the search's threads and takes the searcher back.
    fn join_job(&mut self) {
        if let Some(job) = self.job.take() {
            let control = job.control().clone();
            self.searcher = job.join().flatten();
            self.common.shared.retire(&control);
            if self.searcher.is_none() {
                self.common.out.info_string("error: the searcher was lost; a new one will be created");
            }
        }
    }
}

/// The game of `variant` from `start` through `moves` (its position is the current one), or why
/// there is none. Moves after a threefold repetition are refused: the game is over.
fn build_position<G: Rules>(
    variant: Variant<G>,
    start: &StartPosition,
    moves: &[String],
) -> Result<GameHistory<G>, String> {
    let start = match start {
        StartPosition::StartPos => variant.start(),
        StartPosition::Fen(fen) => variant.parse_fen(fen)?,
    };
    let mut history = GameHistory::new(start);
    for (i, text) in moves.iter().enumerate() {
        let pos = *history.current();
        if history.is_threefold() {
            return Err(format!(
                "move {} {}: the game is over (draw by threefold repetition)",
                i + 1,
                quote(text)
            ));
        }
        let mv = pos.parse_move_text(text).map_err(|e| {
            let reason = match e {
                MoveTextError::Malformed { reason, .. } => format!("malformed: {reason}"),
                MoveTextError::Illegal { hint, .. } => format!("illegal in this position{hint}"),
            };
            format!("move {} {}: {reason}", i + 1, quote(text))
        })?;
        history.play(mv);
    }
    Ok(history)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_built_or_explained() {
        let impasse = Variant::<crate::impasse::Position> { info: &variants::VARIANTS[0], setup: () };
        let game = build_position(impasse, &StartPosition::StartPos, &["d2f4".into()]).unwrap();
        assert_eq!(game.current().to_move(), Player::P2);
        let error =
            build_position(impasse, &StartPosition::StartPos, &["d2f4".into(), "d2f4".into()]).unwrap_err();
        assert!(error.starts_with("move 2 'd2f4': illegal"), "{error}");
        let error = build_position(impasse, &StartPosition::StartPos, &["zz".into()]).unwrap_err();
        assert!(error.starts_with("move 1 'zz': malformed"), "{error}");
        let error = build_position(impasse, &StartPosition::Fen("8/8 w".into()), &[]).unwrap_err();
        assert!(error.contains("ranks"), "{error}");
    }
}
