//! `go` for the board games: the limits of its parameters, the answerer with its fallback, and
//! the search job; in a finished game, the job that answers `bestmove (none)` when the GUI says.

use super::answer::{Answerer, Deadline, Reporter};
use super::board::BoardSession;
use super::command::{Dialect, GoParams};
use super::job::{
    AnswerStyle, FALLBACK_HASH_MIB, Job, bestmove_text, board_search, fallback_move, wait_for_the_gui,
};
use crate::game::{BoardRules, Player, rules};
use crate::quote::move_error_text;
use crate::search::{Clock, Limits, MAX_DEPTH, SearchControl, Searcher, time};
use std::sync::Arc;
use std::sync::atomic::Ordering::SeqCst;
use std::time::Instant;

/// The answer when there is no move to play.
const NO_MOVE: &str = "bestmove (none)";

impl<G: BoardRules> BoardSession<G> {
    /// `go`, read at `read_at`: every time budget counts from that moment.
    pub(super) fn go(&mut self, line: u64, params: &GoParams, read_at: Instant) {
        if !self.is_idle("go") {
            return;
        }
        if self.game.is_over() {
            return self.go_without_a_move(line, params);
        }
        let limits = Limits { start: Some(read_at), ..self.limits(params) };
        let pos = *self.game.position();
        if self.common.debug {
            self.common.out.info_string(&format!("debug: searching {} with {limits:?}", pos.fen()));
        }
        let control = Arc::new(SearchControl::new());
        control.pondering.store(params.ponder, SeqCst);
        let style = AnswerStyle { ponder_move: self.ponder_move_shown(), debug: self.common.debug };
        // The answerer starts first, before the previous search's threads are joined (which on
        // a busy machine may wait for a processor): the deadline holds from here whatever happens.
        let spare = self.spare.get_or_insert_with(|| Searcher::new(FALLBACK_HASH_MIB, 1));
        let fallback_best = fallback_move(spare, &pos, self.game.hashes_before(), &limits.search_moves);
        let fallback = bestmove_text(&pos, fallback_best, None, style).0;
        let deadline = Deadline { start: read_at, hard: time::budget(&limits).hard };
        let Some(answerer) = self.answerer(&control, deadline, fallback) else { return };
        let job_control = control.clone();
        self.launch(line, control, answerer, move |searcher, reporter| {
            board_search(searcher, pos, limits, job_control, style, reporter)
        });
    }

    /// `go` in a finished game (an outcome, or a draw by threefold repetition, whose position
    /// still has moves): no move may be played, so no search runs. `bestmove (none)` at once, as
    /// Stockfish answers in a mated position, unless the GUI decides when the search ends
    /// (`infinite`, `ponder`): then it waits for `stop` or `ponderhit` like any search.
    fn go_without_a_move(&mut self, line: u64, params: &GoParams) {
        let why = if self.game.is_drawn() { "game over: draw by threefold repetition" } else { "game over" };
        self.common.out.info_string(why);
        if !params.infinite && !params.ponder {
            return self.common.out.line(NO_MOVE);
        }
        let control = Arc::new(SearchControl::new());
        control.pondering.store(params.ponder, SeqCst);
        let deadline = Deadline { start: Instant::now(), hard: None };
        let Some(answerer) = self.answerer(&control, deadline, NO_MOVE.to_string()) else { return };
        let (job_control, infinite) = (control.clone(), params.infinite);
        self.launch(line, control, answerer, move |searcher, reporter| {
            wait_for_the_gui(&job_control, infinite);
            reporter.done(NO_MOVE.to_string(), Vec::new());
            Some(searcher)
        });
    }

    /// Hands a search to the session's answerers, or (when the system refuses their threads)
    /// says so and gives `fallback` at once: still exactly one `bestmove`.
    fn answerer(
        &mut self,
        control: &Arc<SearchControl>,
        deadline: Deadline,
        fallback: String,
    ) -> Option<Answerer> {
        let out = self.common.out.clone();
        let debug = self.common.debug;
        super::answerers_for(&mut self.common.workers, control, out, deadline, fallback, debug)
    }

    /// Starts the job of the `go` of `line`: publishes its flags (a `stop` already read for it
    /// stops it at once), joins the previous search, and runs `work` with the searcher (which
    /// it hands back) on the search thread.
    fn launch(
        &mut self,
        line: u64,
        control: Arc<SearchControl>,
        answerer: Answerer,
        work: impl FnOnce(Searcher<G>, Reporter) -> Option<Searcher<G>> + Send + 'static,
    ) {
        // The deadline is guarded: the rest is ordinary work (joining, starting threads).
        crate::realtime::release();
        self.common.shared.publish(&control, line);
        self.join_job();
        let mut searcher = self.take_searcher();
        searcher.set_history(self.game.hashes_before());
        let (job, started) =
            Job::start(&mut self.common.workers, control, answerer, move |reporter| work(searcher, reporter));
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
        let to_move = self.game.position().player_to_move();
        let (time, increment, other_time) =
            if to_move == Player::P1 { (go.wtime, go.winc, go.btime) } else { (go.btime, go.binc, go.wtime) };
        if time.is_none() && other_time.is_some() {
            let side = rules::player_name::<G>(to_move);
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
    /// one is reported (quoted briefly) and left out; when none is left, every move is searched
    /// (and said so).
    fn search_moves(&self, texts: &[String]) -> Vec<u16> {
        let mut codes = Vec::new();
        for text in texts {
            match self.game.position().parse_step(text) {
                Ok(mv) => codes.push(G::move_code(mv)),
                Err(e) => self.common.out.info_string(&format!(
                    "error: go searchmoves: {}; the move is left out",
                    move_error_text(&e)
                )),
            }
        }
        if codes.is_empty() && !texts.is_empty() {
            self.common.out.info_string("go searchmoves: no legal move given; every move is searched");
        }
        codes
    }
}
