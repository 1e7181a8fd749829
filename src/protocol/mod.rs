//! The text protocol: a UCI-style engine loop on stdin/stdout that is a superset of UGI (the
//! Universal Game Interface of the cutegames runner), plus the CodinGame arena adapter.
//!
//! The grammar is documented in `docs/protocol.md`. The scheme, room by room:
//! - [`command`]: one line of text to a [`command::Command`], a pure and fuzzed function;
//! - [`input`]: the input thread, which reads and parses lines, forwards them in order, and
//!   raises `stop` (and clears `pondering`) on the running job itself when that job is the one
//!   the `stop` is meant for, so that a search stops within milliseconds even when the loop is
//!   busy, in agreement with the order of the input; end of input is `quit`;
//! - this file: the engine loop, which holds the current variant's engine as a [`Session`]
//!   trait object and replaces it when `UCI_Variant` changes;
//! - `session.rs`: the session, one for every game, generic over the game's [`Rules`] and the
//!   side of the search that plays it (`side.rs`: what a search keeps and how `go` becomes a
//!   search; `alpha_beta.rs` for the board games, `expectimax.rs` for the dice games, chosen by
//!   the variant's registry entry); `played.rs` the game it plays (position and history: when
//!   it is over);
//! - [`job`]: a search on its own thread, from `go` to exactly one `bestmove`;
//! - [`answer`]: the answerer thread of each search, which writes its lines and gives its
//!   `bestmove` at the deadline when the search thread cannot (a busy machine);
//! - [`options`]: the option table and `setoption` validation;
//! - [`output`]: the one locked writer all output goes through, and the text of `info`,
//!   `bestmove` and the `d` board;
//! - [`terminal`]: `perft` and `bench`;
//! - [`codingame`]: the CodinGame "Impasse" referee protocol (`steere codingame`).
//!
//! Data flows one way: input thread → channel → `Session::execute` → rules / search → output.
//! The protocol contains no search logic: it turns `go` parameters into [`Limits`] and search
//! results into text (the habit of carp's `uci.rs` and tantabus's `SearchHandler`).
//!
//! Invariants kept here: every error leaves the state as it was and is reported with
//! `info string error: ...`; every accepted `go` gets exactly one `bestmove`; a command that
//! needs the searcher while a search runs is refused (or, when the search is already stopping,
//! waits for it), so nothing ever blocks on a search that nobody will stop.

mod alpha_beta;
pub mod answer;
pub mod codingame;
pub mod command;
mod expectimax;
pub mod input;
pub mod job;
pub mod options;
pub mod output;
mod played;
mod session;
mod side;
pub mod terminal;
pub mod workers;

use command::{Command, Dialect, ParseError};
use input::{Input, Shared};
use options::{Change, Options};
use output::Output;
use workers::Workers;

use crate::game::{BoardRules, ChanceRules, Rules};
use crate::search;
use crate::variants::{self, AlphaBeta, Expectimax, Variant};
use session::GameSession;
use side::SearchSide;
use std::io::{BufRead, Write};
use std::sync::Arc;
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
    let shared_jobs = shared.clone();
    let common = Common {
        out: out.clone(),
        shared,
        options: Options::default(),
        debug: false,
        dialect: Dialect::Uci,
        workers: Workers::default(),
    };
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
                let starts_a_job = starts_a_job(&parsed.command);
                let outcome = session.execute(line, parsed.command, read_at);
                if starts_a_job {
                    // Started or refused: a `stop` still pending for it has nothing to reach.
                    shared_jobs.passed(line);
                }
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

/// Whether `command` starts a job (a search, a perft or a bench): a `stop` after it is meant for
/// that job (see `input.rs`).
fn starts_a_job(command: &Command) -> bool {
    matches!(command, Command::Go(_) | Command::Perft(_) | Command::Bench(_))
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
    fn open<G: Rules, S: SessionOf<G>>(_: S, common: Common, variant: Variant<G>) -> Box<dyn Session> {
        Box::new(GameSession::<G, S::Side>::new(common, variant))
    }
    crate::with_variant!(name, |variant, search| open(search, common, variant))
        .unwrap_or_else(|e| panic!("{e}: the option checked it"))
}

/// The side ([`SearchSide`]) of the search that plays a variant, in the protocol's session.
trait SessionOf<G: Rules> {
    /// What the search keeps and does for the session.
    type Side: SearchSide<G>;
}

impl<G: BoardRules> SessionOf<G> for AlphaBeta {
    type Side = alpha_beta::BoardSide<G>;
}

impl<G: ChanceRules> SessionOf<G> for Expectimax {
    type Side = expectimax::DiceSide;
}

/// The state of the engine loop that does not depend on the game.
struct Common {
    out: Output,
    shared: Arc<Shared>,
    options: Options,
    debug: bool,
    /// The dialect of the last handshake (UCI until one is seen): `bestmove` follows it.
    dialect: Dialect,
    /// The session's search and answering threads.
    workers: Workers,
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

/// Hands the search controlled by `control` to the session's answerers (see `answer.rs`), or,
/// when the system refuses their threads, says so and gives `fallback` at once: still exactly
/// one `bestmove`. The next `go` tries to start the threads again.
fn answerers_for(
    workers: &mut Workers,
    control: &Arc<search::SearchControl>,
    out: Output,
    deadline: answer::Deadline,
    fallback: String,
    debug: bool,
) -> Option<answer::Answerer> {
    let answered = workers
        .desk()
        .and_then(|desk| desk.answer(control.clone(), out.clone(), deadline, fallback.clone(), debug));
    match answered {
        Ok(answerer) => Some(answerer),
        Err(e) => {
            workers.drop_desk();
            out.info_string(&format!("error: cannot start the answerer threads: {e}"));
            out.line(&fallback);
            None
        }
    }
}
