//! A search running on the session's search thread, from `go` to `bestmove`, with its answerers.
//!
//! [`Job`] is game-agnostic: a search thread doing some work (the board games lend it their
//! [`Searcher`] with its transposition table, which it hands back when joined; the dice games'
//! search keeps nothing) and the [`Answerer`] that writes the search's lines and gives its one
//! `bestmove`, at the deadline if the search cannot (see `answer.rs`). The engine loop keeps
//! serving commands meanwhile; it talks to the search only through the shared
//! [`SearchControl`] flags (`stop`, `pondering`).
//!
//! A job is *answered* once its `bestmove` is given (or about to be); its threads may still be
//! winding down then. The loop treats an answered job as over: a command sent after reading
//! `bestmove` is never mistaken for one sent during the search, and only a command that needs
//! the searcher waits for the threads to end (they have been told to stop, or have finished).
//!
//! The move given is checked against the rules before it leaves ([`bestmove_text`]): a best
//! move that is not legal in the searched position (a bug, never expected) is replaced by the
//! first legal move with an `info string`, and a ponder move that is not legal after it is
//! dropped. The engine may play badly; it never prints an illegal move.

use super::answer::{Answerer, Reporter};
use super::output::{bestmove_line, info_line};
use super::workers::{Work, Workers};
use crate::game::{BoardRules, Game};
use crate::search::{Limits, SearchControl, SearchResult, Searcher};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::mpsc::{Receiver, sync_channel};
use std::time::Instant;

/// How a search answers: what its `bestmove` line carries and whether it explains its timing.
#[derive(Clone, Copy, Debug)]
pub struct AnswerStyle {
    /// Append `ponder R` to `bestmove` when the search has an expected reply.
    pub ponder_move: bool,
    /// `debug on`: report where the time of the move went (see [`timing_report`]).
    pub debug: bool,
}

/// A running (or answered, not yet joined) search.
pub struct Job<T> {
    control: Arc<SearchControl>,
    answerer: Answerer,
    /// What the work returns, once it has (none if it never ran).
    result: Option<Receiver<T>>,
    /// Raised when the work has ended (returned, failed, or never ran).
    ended: Arc<AtomicBool>,
}

/// Raises its flag when dropped: when the work ends, however it ends.
struct RaiseOnDrop(Arc<AtomicBool>);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.store(true, SeqCst);
    }
}

impl<T: Send + 'static> Job<T> {
    /// Runs `work` on the session's search thread (see [`Workers`]), with `answerer` (started
    /// first, so that its deadline holds from the start) writing what the work reports. If no
    /// search thread can be had, the answerer gives its fallback at once and the job is
    /// answered and finished; the error is returned for the caller to report.
    pub fn start(
        workers: &mut Workers,
        control: Arc<SearchControl>,
        mut answerer: Answerer,
        work: impl FnOnce(Reporter) -> T + Send + 'static,
    ) -> (Job<T>, std::io::Result<()>) {
        let reporter = answerer.take_reporter().expect("a fresh answerer");
        let (sender, receiver) = sync_channel(1);
        let ended = Arc::new(AtomicBool::new(false));
        let raise = RaiseOnDrop(ended.clone());
        let task: Work = Box::new(move || {
            let _raise = raise;
            let _ = sender.send(work(reporter));
        });
        // On failure the task, with the reporter, is dropped: the answerer gives its fallback.
        let (result, started) = match workers.run_search(task) {
            Ok(()) => (Some(receiver), Ok(())),
            Err((task, e)) => {
                drop(task);
                (None, Err(e))
            }
        };
        (Job { control, answerer, result, ended }, started)
    }

    /// True once the `bestmove` is given (or about to be).
    pub fn is_answered(&self) -> bool {
        self.answerer.is_answered()
    }

    /// True once the search has been told to stop: it is answered within milliseconds.
    pub fn is_stopping(&self) -> bool {
        self.control.stop.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// True once both threads have ended (joining is then immediate).
    pub fn is_finished(&self) -> bool {
        self.answerer.is_finished() && self.ended.load(SeqCst)
    }

    /// Tells the search to stop: the answerer gives the best move so far at once.
    pub fn stop(&self) {
        self.control.request_stop();
    }

    /// Ends pondering: the search goes on as a normal one, its time budget starting now.
    pub fn ponderhit(&self) {
        self.control.ponderhit();
    }

    /// What the engine loop does with a running job before each command: lets a job that has
    /// been told to stop give its `bestmove` (within milliseconds), so that every command after
    /// `stop` answers after that `bestmove`. True once the job is answered and its threads have
    /// ended: joining it then costs nothing.
    pub fn settle(&self) -> bool {
        if self.is_stopping() {
            self.wait_answered();
        }
        self.is_answered() && self.is_finished()
    }

    /// The error for a command `what` that needs the engine idle while this job runs
    /// unanswered, or `None` if the job is answered (it may still be winding down).
    pub fn refusal(&self, what: &str) -> Option<String> {
        (!self.is_answered()).then(|| format!("error: {what} ignored: a search is running (send stop first)"))
    }

    /// Waits until the `bestmove` is given: for a stopping job, within milliseconds, since
    /// its answerer gives it as soon as it hears of the stop.
    pub fn wait_answered(&self) {
        while !self.is_answered() {
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
    }

    /// Stops the search if it still runs, waits for both threads and returns what the search
    /// thread returned (`None` if it failed or never started).
    pub fn join(self) -> Option<T> {
        if !self.is_answered() {
            self.stop();
        }
        let result = self.result.and_then(|receiver| receiver.recv().ok());
        self.answerer.join();
        result
    }

    /// The control flags of this job.
    pub fn control(&self) -> &Arc<SearchControl> {
        &self.control
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
                reporter.info(info_line(info));
                let (best, ponder) = (info.pv.first().copied(), info.pv.get(1).copied());
                reporter.offer(bestmove_text(&pos, best, ponder, style).0);
            },
            &mut |result| {
                let (answer, warning) = bestmove_text(&pos, result.best_move, result.ponder, style);
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

/// Waits, as UCI requires of `infinite` and `ponder` ("do not exit the search in ponder mode,
/// even if it's mate"), until the GUI ends a search that has nothing left to do: until `stop`,
/// or, unless `infinite`, the end of pondering (`ponderhit`).
pub fn wait_for_the_gui(control: &SearchControl, infinite: bool) {
    while !control.stop.load(SeqCst) && (infinite || control.pondering.load(SeqCst)) {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
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

/// The table of the fallback search ([`fallback_move`]): small, so that it costs nothing to keep.
pub const FALLBACK_HASH_MIB: usize = 1;

/// The move given if the search offers none before the deadline (its thread was never
/// scheduled, or the budget is nothing at all, as `movetime` below `MoveOverhead`): the result
/// of a depth-1 search (with its capture extension) by `spare`, a small searcher of its own, run
/// on the loop's thread before the answerer starts. It is the move the first iteration of the
/// real search would give, which the search always completes; it takes microseconds. `None` in
/// a finished game.
pub fn fallback_move<G: Game>(
    spare: &mut Searcher<G>,
    pos: &G,
    history: Vec<u64>,
    search_moves: &[u16],
) -> Option<G::Move> {
    spare.set_history(history);
    // The same root moves as the search (`go searchmoves`): the fallback is its first iteration.
    let limits = Limits { depth: Some(1), search_moves: search_moves.to_vec(), ..Limits::default() };
    spare.search(pos, &limits, &SearchControl::new(), &mut |_| {}).best_move
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
    use super::super::answer::Deadline;
    use super::super::answer::tests::Buffer;
    use super::super::output::Output;
    use super::*;
    use crate::impasse::Position;
    use std::time::Duration;

    /// The answerers of a test search, with `bestmove d2e3` as the fallback.
    fn answerer_of(
        workers: &mut Workers,
        control: &Arc<SearchControl>,
        out: Output,
        deadline: Deadline,
    ) -> super::super::answer::Answerer {
        let desk = workers.desk().unwrap();
        desk.answer(control.clone(), out, deadline, "bestmove d2e3".into(), false).unwrap()
    }

    /// A search thread that offers a move and then gets no processor for 400 ms (a busy
    /// machine) is answered for at its 40 ms deadline, with the move it offered; its own late
    /// answer is never written, and the job still joins with what the thread returned.
    #[test]
    fn the_deadline_holds_when_the_search_thread_does_not_run() {
        let buffer = Buffer::default();
        let control = Arc::new(SearchControl::new());
        let start = Instant::now();
        let deadline = Deadline { start, hard: Some(Duration::from_millis(40)) };
        let out = Output::new(buffer.clone());
        let mut workers = Workers::default();
        let answerer = answerer_of(&mut workers, &control, out, deadline);
        let (job, started) = Job::start(&mut workers, control, answerer, |reporter| {
            reporter.info("info depth 1".into());
            reporter.offer("bestmove d2f4".into());
            std::thread::sleep(Duration::from_millis(400));
            reporter.done("bestmove h2g3".into(), Vec::new());
            7
        });
        started.unwrap();
        job.wait_answered();
        let answered = start.elapsed();
        assert!(answered >= Duration::from_millis(40), "{answered:?}");
        // Generous bounds against a loaded test machine; the thread's own answer comes at 400 ms.
        assert!(answered < Duration::from_millis(300), "answered after {answered:?}");
        assert!(job.is_stopping(), "the deadline tells the search to stop");
        assert_eq!(job.join(), Some(7));
        assert_eq!(buffer.text(), "info depth 1\nbestmove d2f4\n");
    }

    /// Started from a thread at real-time priority (the engine loop waits at one), the search
    /// thread still runs at the ordinary one, and so do the threads it starts.
    #[test]
    fn the_search_never_runs_at_real_time_priority() {
        let handle = std::thread::spawn(|| {
            let granted = crate::realtime::request();
            let control = Arc::new(SearchControl::new());
            let deadline = Deadline { start: Instant::now(), hard: None };
            let out = Output::new(Buffer::default());
            let mut workers = Workers::default();
            let answerer = answerer_of(&mut workers, &control, out, deadline);
            let (job, started) = Job::start(&mut workers, control, answerer, |reporter| {
                let helper = std::thread::spawn(crate::realtime::is_current).join().unwrap();
                let search = crate::realtime::is_current();
                reporter.done("bestmove d2e3".into(), Vec::new());
                (search, helper)
            });
            started.unwrap();
            let policies = job.join();
            crate::realtime::release();
            (granted, policies)
        });
        let (granted, policies) = handle.join().unwrap();
        assert_eq!(policies, Some((false, false)), "real-time granted to the starter: {granted}");
    }

    /// Every search of a session runs on one thread, kept between them, and a search that
    /// fails (a panic, in a test build) leaves the thread to the next one; the failed one is
    /// answered with its offer and joins with nothing.
    #[test]
    fn the_search_thread_is_kept_between_searches_and_survives_a_failure() {
        let mut workers = Workers::default();
        let mut run = |fail: bool| {
            let buffer = Buffer::default();
            let control = Arc::new(SearchControl::new());
            let deadline = Deadline { start: Instant::now(), hard: None };
            let out = Output::new(buffer.clone());
            let answerer = answerer_of(&mut workers, &control, out, deadline);
            let (job, started) = Job::start(&mut workers, control, answerer, move |reporter| {
                reporter.offer("bestmove d2f4".into());
                assert!(!fail, "a failing search (expected by this test)");
                reporter.done("bestmove h2g3".into(), Vec::new());
                std::thread::current().id()
            });
            started.unwrap();
            job.wait_answered();
            (job.join(), buffer.text())
        };
        let (first, text) = run(false);
        assert_eq!(text, "bestmove h2g3\n");
        let (failed, text) = run(true);
        assert_eq!((failed, text.as_str()), (None, "bestmove d2f4\n"));
        let (third, _) = run(false);
        assert!(first.is_some());
        assert_eq!(first, third, "one search thread for the session");
        assert_ne!(first, Some(std::thread::current().id()));
    }

    #[test]
    fn answers_are_checked_and_the_fallback_is_the_first_iteration() {
        let pos = Position::startpos();
        let style = AnswerStyle { ponder_move: true, debug: false };
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
        let fallback = fallback_move(&mut spare, &pos, Vec::new(), &[]).unwrap();
        let mut searcher = Searcher::new(16, 1);
        let limits = Limits { depth: Some(1), ..Limits::default() };
        let first = searcher.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
        assert_eq!(Some(fallback), first.best_move, "the move of a depth-1 search");
        // With `go searchmoves`, the fallback is one of those moves (found by the fuzz: it was
        // the best move of the whole position).
        for &only in legal.as_ref().iter().filter(|&&m| Some(m) != first.best_move).take(3) {
            let fallback = fallback_move(&mut spare, &pos, Vec::new(), &[Position::move_code(only)]);
            assert_eq!(fallback, Some(only));
        }
    }
}
