//! The engine loop's session, one for every game, generic over the game's [`Rules`] and the
//! side of the search that plays it ([`SearchSide`]): the game played ([`PlayedGame`]), the
//! options, and the job of the search running.
//!
//! Every command is read and answered here the same way in every game (docs/protocol.md); only
//! what a search keeps and how `go` becomes a search differ, and those are the side's. A dice
//! game's steps include the rolls (`r1546`), sent by whoever rolls the dice; `startpos` is the
//! start for the `Players` option's number of players in a game that seats several numbers.

use super::answer::Answerer;
use super::command::{Command, GoParams, Query, StartPosition};
use super::job::{Job, wait_for_the_gui};
use super::options::{Change, Options};
use super::played::{self, PlayedGame};
use super::side::{Plan, SearchSide, SearchWork};
use super::{Common, Flow, Session, hello_lines};
use crate::game::{Params, Rules, rules};
use crate::quote::shorten;
use crate::search::SearchControl;
use crate::variants::Variant;
use std::sync::Arc;
use std::sync::atomic::Ordering::SeqCst;
use std::time::Instant;

/// The answer when there is no move to play.
const NO_MOVE: &str = "bestmove (none)";

/// The engine of one variant: the common state, the game, the search's side and its job.
pub(super) struct GameSession<G: Rules, S: SearchSide<G>> {
    common: Common,
    /// The variant as the registry has it: the base of the parameters in force, and the
    /// rules of `bench` (whose positions are the base game's).
    registry: Variant<G>,
    /// The variant under the options in force: `Players` and the game's rule options.
    variant: Variant<G>,
    /// The game whose position the next `go` searches.
    game: PlayedGame<G>,
    /// What the search keeps between searches.
    side: S,
    /// The search running, or answered but not yet joined; it hands back what it was lent.
    job: Option<Job<Option<S::Lent>>>,
}

impl<G: Rules, S: SearchSide<G>> Session for GameSession<G, S> {
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

/// `registry` under the options in force: their number of players (the nearest the game
/// seats: a board game seats two whatever the option says) and the rule options the game has.
fn in_force<G: Rules>(registry: Variant<G>, options: &Options) -> Result<Variant<G>, String> {
    let params = rules::params_under::<G>(registry.params, options.players, &options.rule_options)?;
    Ok(Variant { params, ..registry })
}

impl<G: Rules, S: SearchSide<G>> GameSession<G, S> {
    /// The engine of `variant` at its start position, under the options in force (`Players`,
    /// the rule options); options that this game refuses (never expected: `setoption` checks
    /// them against every game) leave the registry's parameters, said in one line.
    pub(super) fn new(common: Common, registry: Variant<G>) -> GameSession<G, S> {
        let variant = in_force(registry, &common.options).unwrap_or_else(|e| {
            common.out.info_string(&format!("error: {}: {e}; playing its default rules", registry.name()));
            registry
        });
        let game = PlayedGame::new(variant.start());
        GameSession { common, registry, variant, game, side: S::new(), job: None }
    }

    /// Executes one command from line `line` of the input, read at `read_at`.
    fn run_command(&mut self, line: u64, command: Command, read_at: Instant) -> Flow {
        // A search told to stop ends within milliseconds: let it print its bestmove first, so
        // that every command after `stop` (even `isready`) answers after that bestmove.
        self.settle();
        match command {
            Command::Hello(dialect) => {
                self.common.dialect = dialect;
                self.common.out.lines(&hello_lines(dialect));
            }
            Command::IsReady => {
                if self.job.is_none() {
                    self.side.ready(&self.common);
                }
                self.common.out.line("readyok")
            }
            Command::Debug(on) => self.common.debug = on,
            Command::SetOption { name, value } => return self.set_option(&name, value.as_deref()),
            Command::NewGame => {
                if S::KEEPS_TABLE && self.wait_idle("ucinewgame") {
                    self.side.new_game();
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
            Command::Display => self.common.out.lines(&self.game.board_lines()),
            Command::Perft(depth) => self.perft(line, depth),
            Command::Bench(depth) => self.bench(line, depth.unwrap_or(self.variant.info.bench_depth)),
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    /// `setoption`; a new `UCI_Variant` replaces the engine by one of that variant at its start
    /// position (the variant already played is no change: position and table stay), and a new
    /// `Players` sets a game that seats several numbers to the start for that many.
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Flow {
        if Options::is_tablebase_path(name) {
            self.set_tablebase_path(value);
            return Flow::Continue;
        }
        let Some(change) = self.common.check_option(name, value) else {
            return Flow::Continue;
        };
        if let Err(e) = self.check_rules_change(change) {
            self.common.out.info_string(&format!("error: setoption: {e}; the option is unchanged"));
            return Flow::Continue;
        }
        let needs_idle =
            if S::KEEPS_TABLE { change.needs_searcher() } else { matches!(change, Change::Variant(_)) };
        if needs_idle && !self.wait_idle("setoption") {
            return Flow::Continue;
        }
        if let Change::Hash(mib) = change
            && let Err(e) = self.side.resize(mib)
        {
            self.common.out.info_string(&format!("error: setoption: Hash: {e}"));
            return Flow::Continue;
        }
        self.common.options.apply(change);
        self.side.applied(change);
        if let Change::Debug(on) = change {
            // cutegames sends its `debug` setting as an option: the same as `debug on|off`.
            self.common.debug = on;
        }
        if self.common.debug {
            self.common.out.info_string(&format!("debug: options now {:?}", self.common.options));
        }
        match change {
            // A game that seats several numbers, or has the option, starts again under it.
            Change::Players(_) if G::PLAYERS.start() != G::PLAYERS.end() => self.restart_in_force(),
            Change::RuleOption(option, _) if G::Params::RULE_OPTIONS.contains(option) => {
                self.restart_in_force()
            }
            Change::Variant(name) if name != self.variant.name() => return Flow::SwitchVariant(name),
            _ => {}
        }
        Flow::Continue
    }

    /// `setoption name TablebasePath value DIR`: the tables of DIR become the ones every game's
    /// search probes (`<empty>` or no value: none). What was found is said in one line per game
    /// with tables; a missing directory or a faulty file is a one-line warning, and the engine
    /// plays on with the valid tables (or none). Tables are read-only and swapped whole, so a
    /// search running meanwhile sees the old or the new ones, never a mixture.
    fn set_tablebase_path(&mut self, value: Option<&str>) {
        let dir = value.map(str::trim).filter(|v| !v.is_empty() && *v != "<empty>").map(std::path::Path::new);
        for result in crate::variants::install_tables(dir) {
            match result {
                Ok(found) => self.common.out.info_string(&format!("tablebases: {found}")),
                Err(e) => {
                    self.common.out.info_string(&format!("warning: TablebasePath: {}", shorten(&e, 240)))
                }
            }
        }
    }

    /// The start of the variant under the options in force replaces the game.
    fn restart_in_force(&mut self) {
        self.variant = in_force(self.registry, &self.common.options).unwrap_or(self.variant);
        self.game = PlayedGame::new(self.variant.start());
    }

    /// Whether a change of `Players` or of a rule option leaves a combination that every game
    /// having those options offers; the error names the option (`Players: 4 columns to win is
    /// not offered for 4 players (3 only)`).
    fn check_rules_change(&self, change: Change) -> Result<(), String> {
        let name = match change {
            Change::Players(_) => "Players",
            Change::RuleOption(option, _) => option.name,
            _ => return Ok(()),
        };
        let mut trial = self.common.options.clone();
        trial.apply(change);
        crate::variants::check_rule_settings(trial.players, &trial.rule_options)
            .map_err(|e| format!("{name}: {e}"))
    }

    /// `position`: the new game replaces the current one only if the FEN and every step are
    /// valid.
    fn set_position(&mut self, start: &StartPosition, moves: &[String]) {
        let start = match start {
            StartPosition::StartPos => Ok(self.variant.start()),
            StartPosition::Fen(fen) => self.variant.parse_fen(fen),
        };
        match start.and_then(|start| PlayedGame::build(start, moves)) {
            Ok(game) => self.game = game,
            Err(message) => {
                self.common.out.info_string(&format!("error: position: {message}; the position is unchanged"))
            }
        }
    }

    fn query(&self, query: &Query) {
        let (game, pos) = (&self.game, self.game.position());
        let answer = played::query_answer(pos, game.is_drawn(), query, |text| game.legal_move(text).is_ok());
        self.common.out.line(&format!("response {answer}"));
    }

    /// `perft N` on the loop's thread, stopped by `stop`, `quit` or the end of input.
    fn perft(&mut self, line: u64, depth: u32) {
        if let Err(e) = crate::tools::perft::check_depth(depth) {
            return self.common.out.info_string(&format!("error: perft: {e}"));
        }
        if !self.wait_idle("perft") {
            return;
        }
        let control = Arc::new(SearchControl::new());
        self.common.shared.publish(&control, line);
        match super::terminal::perft_lines(self.game.position(), depth, &control.stop) {
            Some(lines) => self.common.out.lines(&lines),
            None => self.common.out.info_string("perft stopped"),
        }
        self.common.shared.retire(&control);
    }

    /// `bench [D]`: the search's bench, stopped by `stop`.
    fn bench(&mut self, line: u64, depth: u32) {
        if !self.wait_idle("bench") {
            return;
        }
        let control = Arc::new(SearchControl::new());
        self.common.shared.publish(&control, line);
        S::bench(self.registry, depth, &control, &self.common.out);
        self.common.shared.retire(&control);
    }

    /// `go`, read at `read_at`: every time budget counts from that moment. Where nobody decides
    /// (the game is over, a roll is due) the side says why and the answer is `bestmove (none)`.
    fn go(&mut self, line: u64, params: &GoParams, read_at: Instant) {
        if !self.is_idle("go") {
            return;
        }
        if let Some(why) = S::no_decision(&self.game) {
            self.common.out.info_string(&why);
            return self.answer_when_released(line, params, NO_MOVE.to_string());
        }
        match self.side.plan(&self.common, &self.game, params, read_at) {
            Plan::Answer(answer) => self.answer_when_released(line, params, answer),
            Plan::Search { deadline, fallback, work } => {
                let control = Self::control_of(params);
                // The answerer starts first, before the previous search's threads are joined
                // (which on a busy machine may wait for a processor): the deadline holds from here.
                if let Some(answerer) = self.answerer(&control, deadline, fallback) {
                    self.launch(line, control, answerer, work);
                }
            }
        }
    }

    /// Gives `answer`, known without a search: at once, or, under `go infinite` or `go ponder`,
    /// once the GUI sends `stop` or `ponderhit` (UCI: the engine must not answer before, "even
    /// if it's mate"), on a job like a search's, so that the loop serves commands meanwhile.
    fn answer_when_released(&mut self, line: u64, params: &GoParams, answer: String) {
        if !params.infinite && !params.ponder {
            return self.common.out.line(&answer);
        }
        let control = Self::control_of(params);
        let deadline = super::answer::Deadline { start: Instant::now(), hard: None };
        let Some(answerer) = self.answerer(&control, deadline, answer.clone()) else { return };
        let infinite = params.infinite;
        self.launch(
            line,
            control,
            answerer,
            Box::new(move |lent, control, reporter| {
                wait_for_the_gui(&control, infinite);
                reporter.done(answer, Vec::new());
                Some(lent)
            }),
        );
    }

    /// The control flags of a new search of `go` with `params`.
    fn control_of(params: &GoParams) -> Arc<SearchControl> {
        let control = Arc::new(SearchControl::new());
        control.pondering.store(params.ponder, SeqCst);
        control
    }

    /// Hands a search to the session's answerers, or (when the system refuses their threads)
    /// says so and gives `fallback` at once: still exactly one `bestmove`.
    fn answerer(
        &mut self,
        control: &Arc<SearchControl>,
        deadline: super::answer::Deadline,
        fallback: String,
    ) -> Option<Answerer> {
        let out = self.common.out.clone();
        let debug = self.common.debug;
        super::answerers_for(&mut self.common.workers, control, out, deadline, fallback, debug)
    }

    /// Starts the job of the `go` of `line`: publishes its flags (a `stop` already read for it
    /// stops it at once), joins the previous search, and runs `work` with what the side lends
    /// (which it hands back) on the search thread.
    fn launch(
        &mut self,
        line: u64,
        control: Arc<SearchControl>,
        answerer: Answerer,
        work: SearchWork<S::Lent>,
    ) {
        // The deadline is guarded: the rest is ordinary work (joining, starting threads).
        crate::realtime::release();
        self.common.shared.publish(&control, line);
        self.join_job();
        let lent = self.side.lend(&self.common, &self.game);
        let job_control = control.clone();
        let (job, started) = Job::start(&mut self.common.workers, control, answerer, move |reporter| {
            work(lent, job_control, reporter)
        });
        if let Err(e) = started {
            self.common.out.info_string(&format!("error: cannot start the search thread: {e}"));
        }
        self.job = Some(job);
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

    /// Waits for the search's threads and gives the side back what the search was lent.
    fn join_job(&mut self) {
        if let Some(job) = self.job.take() {
            let control = job.control().clone();
            let lent = job.join().flatten();
            self.side.take_back(lent, &self.common.out);
            self.common.shared.retire(&control);
        }
    }
}
