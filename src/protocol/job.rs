//! A search running on the session's search thread, from `go` to `bestmove`, with its answerers.
//!
//! [`Job`] is game-agnostic: a search thread doing some work (alpha-beta is lent its
//! searcher with its transposition table, which the work hands back when joined; the dice
//! games' search keeps nothing) and the [`Answerer`] that writes the search's lines and gives
//! its one `bestmove`, at the deadline if the search cannot (see `answer.rs`). The engine loop
//! keeps serving commands meanwhile; it talks to the search only through the shared
//! [`SearchControl`] flags (`stop`, `pondering`).
//!
//! A job is *answered* once its `bestmove` is given (or about to be); its threads may still be
//! winding down then. The loop treats an answered job as over: a command sent after reading
//! `bestmove` is never mistaken for one sent during the search, and only a command that needs
//! the searcher waits for the threads to end (they have been told to stop, or have finished).

use super::answer::{Answerer, Reporter};
use super::workers::{Work, Workers};
use crate::search::SearchControl;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::mpsc::{Receiver, sync_channel};

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

/// Waits, as UCI requires of `infinite` and `ponder` ("do not exit the search in ponder mode,
/// even if it's mate"), until the GUI ends a search that has nothing left to do: until `stop`,
/// or, unless `infinite`, the end of pondering (`ponderhit`).
pub fn wait_for_the_gui(control: &SearchControl, infinite: bool) {
    while !control.stop.load(SeqCst) && (infinite || control.pondering.load(SeqCst)) {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

#[cfg(test)]
mod tests {
    use super::super::answer::Deadline;
    use super::super::answer::tests::Buffer;
    use super::super::output::Output;
    use super::*;
    use std::time::{Duration, Instant};

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
}
