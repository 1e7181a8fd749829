//! The engine loop's session for the board games (Impasse, Dipole, HexDame), generic over
//! [`Rules`]: the game played ([`PlayedGame`]), the options, and the searcher lent to each
//! search's [`Job`]. The dice games have theirs in `dice.rs`; `go` is in `board_go.rs`.

use super::command::{Command, Dialect, Query, StartPosition};
use super::job::Job;
use super::options::Change;
use super::played::{self, PlayedGame};
use super::{Common, Flow, Session, hello_lines, terminal};
use crate::game::BoardRules;
use crate::search::{MAX_DEPTH, SearchControl, Searcher, hash_size};
use crate::variants::{AlphaBeta, Variant};
use std::sync::Arc;
use std::time::Instant;

/// The table of a searcher made when the one the options ask for cannot be had (the memory
/// has gone since the option was set): small, so that the engine keeps playing.
const STOPGAP_HASH_MIB: usize = 1;

/// The engine of one board game: the common state, the game and the searcher.
pub(super) struct BoardSession<G: BoardRules> {
    pub(super) common: Common,
    pub(super) variant: Variant<G>,
    /// The game whose position the next `go` searches.
    pub(super) game: PlayedGame<G>,
    /// The searcher, created on first use (so that `uci` allocates nothing); `None` also while
    /// it is lent to the running search.
    pub(super) searcher: Option<Searcher<G>>,
    /// The search running, or answered but not yet joined.
    pub(super) job: Option<Job<Option<Searcher<G>>>>,
    /// The small searcher of the fallback move ([`super::job::fallback_move`]), created on
    /// first use.
    pub(super) spare: Option<Searcher<G>>,
}

impl<G: BoardRules> Session for BoardSession<G> {
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

impl<G: BoardRules> BoardSession<G> {
    /// The engine of `variant` at its start position.
    pub(super) fn new(common: Common, variant: Variant<G>) -> BoardSession<G> {
        BoardSession {
            common,
            variant,
            game: PlayedGame::new(variant.start()),
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
            Command::Display => self.common.out.lines(&self.game.board_lines()),
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
        if let Change::Hash(mib) = change
            && let Err(e) = self.resize(mib)
        {
            self.common.out.info_string(&format!("error: setoption: Hash: {e}"));
            return Flow::Continue;
        }
        self.common.options.apply(change);
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

    /// Resizes the table to `mib` MiB, or says why not (the table is then as before): the rule
    /// of [`hash_size`], the current table's memory counted as given back. Without a searcher
    /// yet, only checks, so that the error comes now rather than at the first `isready`.
    fn resize(&mut self, mib: usize) -> Result<(), String> {
        match &mut self.searcher {
            Some(searcher) => searcher.try_set_hash(mib),
            None => hash_size::check(mib, 0),
        }
    }

    /// `position`: the new game replaces the current one only if the FEN and every move are
    /// valid.
    fn set_position(&mut self, start: &StartPosition, moves: &[String]) {
        match PlayedGame::build(self.variant, start, moves) {
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
        match terminal::perft_lines(self.game.position(), depth, &control.stop) {
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
        terminal::bench(AlphaBeta, self.variant, depth.clamp(1, MAX_DEPTH), &control, &self.common.out);
        self.common.shared.retire(&control);
    }

    /// The searcher, created with the current options if needed, taken out of the state (to
    /// lend it to a search). If the table the options ask for cannot be had now (the memory has
    /// gone since `setoption`), says so and makes do with a small one.
    pub(super) fn take_searcher(&mut self) -> Searcher<G> {
        if let Some(searcher) = self.searcher.take() {
            return searcher;
        }
        let options = &self.common.options;
        Searcher::try_new(options.hash_mib, options.threads).unwrap_or_else(|e| {
            self.common.out.info_string(&format!(
                "error: Hash: {e}; searching with a {STOPGAP_HASH_MIB} MiB table instead"
            ));
            Searcher::new(STOPGAP_HASH_MIB, options.threads)
        })
    }

    /// Makes sure no search runs, for a command that needs the searcher or the processor: an
    /// answered search is joined (its threads end within milliseconds); a search that nobody has
    /// stopped is left alone and the command refused (false), because waiting for it could take
    /// forever.
    pub(super) fn wait_idle(&mut self, what: &str) -> bool {
        if !self.is_idle(what) {
            return false;
        }
        self.join_job();
        true
    }

    /// True when no search is running unanswered (an answered one may still be winding down);
    /// otherwise the command `what` is refused with an error.
    pub(super) fn is_idle(&mut self, what: &str) -> bool {
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
    pub(super) fn join_job(&mut self) {
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
