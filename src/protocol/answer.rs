//! The answerer: the thread that writes a search's output and its one `bestmove`, on time
//! whatever the load on the machine.
//!
//! Why a thread of its own: a search thread looks at its clock between nodes, so when the
//! operating system leaves it waiting for a processor (a busy machine: a compiler, another match,
//! a browser), it cannot see its deadline, and the moment it runs again may be tens or hundreds
//! of milliseconds late. A thread that *sleeps* until a deadline is woken promptly instead: the
//! scheduler favours a sleeper that wakes over a thread that has been computing. So every `go`
//! gets an answerer that sleeps until the hard deadline and then gives the answer itself, while
//! the search unwinds whenever it next runs.
//!
//! The search thread never writes to the output. It sends its lines here ([`Reporter`]) over a
//! channel, which holds no lock that a descheduled thread could keep (a search preempted while
//! holding the output's lock would delay the answer by as long as it waits). The answerer writes
//! the `info` lines in order and gives exactly one answer, whichever comes first:
//! - the search's own answer ([`Reporter::done`]);
//! - the hard deadline plus [`GRACE`]: the move last offered ([`Reporter::offer`], the best
//!   move of the last completed iteration, or the fallback chosen at `go`), and the search is
//!   told to stop;
//! - `stop` (or `quit`, or the end of input): the same move, at once;
//! - a search thread that ended without answering (it could not start, or failed): the same.
//!
//! While pondering there is no deadline; it runs from the ponder hit. After the answer nothing
//! more of this search is written, so a `bestmove` is always the search's last line.

use super::output::Output;
use crate::search::SearchControl;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long after its own hard deadline a search may still answer itself before the answerer
/// does: the search stops at the deadline and answers within a fraction of a millisecond when
/// it is running, so on a machine with processors to spare the answer is the search's own.
pub const GRACE: Duration = Duration::from_millis(1);

/// When a search must have answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    /// When the budget started: the moment `go` was read.
    pub start: Instant,
    /// The hard budget from `start` (or from the ponder hit); `None`: no deadline (`infinite`,
    /// or only a depth or node limit).
    pub hard: Option<Duration>,
}

impl Deadline {
    /// The moment the answerer gives the answer itself, if any: none while pondering.
    fn due(&self, control: &SearchControl) -> Option<Instant> {
        if control.pondering.load(SeqCst) {
            return None;
        }
        let start = control.ponderhit_time().unwrap_or(self.start);
        self.hard.map(|hard| start + hard + GRACE)
    }
}

/// What a search sends its answerer.
#[derive(Debug)]
enum Report {
    /// A line to write (an `info` line).
    Info(String),
    /// The answer to give if the deadline or `stop` comes first (a `bestmove` line).
    Offer(String),
    /// The search's own answer, and lines to write after it (`debug` timing).
    Done { answer: String, after: Vec<String> },
    /// `stop` or ponderhit was raised: look at the flags again.
    Wake,
    /// The search's side is gone (its thread ended, answered or not, or never started).
    Ended,
}

/// The search's side of its answerer: never blocks. Dropping it (the search thread ends, or
/// panics, or never starts) tells the answerer that no answer will come from the search.
pub struct Reporter {
    sender: Sender<Report>,
}

impl Drop for Reporter {
    fn drop(&mut self) {
        let _ = self.sender.send(Report::Ended);
    }
}

impl Reporter {
    /// Writes `line` (unless the answer has been given already).
    pub fn info(&self, line: String) {
        let _ = self.sender.send(Report::Info(line));
    }

    /// Makes `line` the answer to give if the deadline or `stop` comes first.
    pub fn offer(&self, line: String) {
        let _ = self.sender.send(Report::Offer(line));
    }

    /// Gives `answer` (unless an answer has been given already), then writes `after`.
    pub fn done(&self, answer: String, after: Vec<String>) {
        let _ = self.sender.send(Report::Done { answer, after });
    }
}

/// A running answerer.
pub struct Answerer {
    reporter: Option<Reporter>,
    answered: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

impl Answerer {
    /// Starts the answerer of the search controlled by `control`, which must answer by
    /// `deadline`; `fallback` is the answer given if the search offers none in time. With
    /// `debug`, an answer given for the search says so after the `bestmove`.
    pub fn start(
        control: Arc<SearchControl>,
        out: Output,
        deadline: Deadline,
        fallback: String,
        debug: bool,
    ) -> std::io::Result<Answerer> {
        let (sender, receiver) = channel();
        let waker = sender.clone();
        control.set_waker(move || {
            let _ = waker.send(Report::Wake);
        });
        let answered = Arc::new(AtomicBool::new(false));
        let state = State {
            control,
            out,
            deadline,
            offered: fallback,
            debug,
            answered: answered.clone(),
            realtime: false,
            started: Instant::now(),
        };
        let handle = std::thread::Builder::new().name("answerer".into()).spawn(move || {
            let realtime = crate::realtime::request();
            state.run(&receiver, realtime, Instant::now())
        })?;
        Ok(Answerer { reporter: Some(Reporter { sender }), answered, handle })
    }

    /// The search's side, for the search thread (once; `None` after).
    pub fn take_reporter(&mut self) -> Option<Reporter> {
        self.reporter.take()
    }

    /// True once the answer is given (or about to be: the flag is raised just before the
    /// `bestmove` is written, so that a command sent after it finds the search answered).
    pub fn is_answered(&self) -> bool {
        self.answered.load(SeqCst)
    }

    /// True once the thread has ended.
    pub fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Waits for the thread to end: at once after the answer, or once the search's
    /// [`Reporter`] is dropped (a reporter never taken is dropped here, and the fallback given).
    pub fn join(mut self) {
        self.reporter = None;
        let _ = self.handle.join();
    }
}

/// The answerer thread's state.
struct State {
    control: Arc<SearchControl>,
    out: Output,
    deadline: Deadline,
    /// The answer to give if the search gives none.
    offered: String,
    debug: bool,
    answered: Arc<AtomicBool>,
    /// Whether the thread runs at a real-time priority ([`crate::realtime`]).
    realtime: bool,
    /// When the thread began to run.
    started: Instant,
}

impl State {
    /// Writes the search's lines until the answer is given.
    fn run(mut self, receiver: &Receiver<Report>, realtime: bool, started: Instant) {
        self.realtime = realtime;
        self.started = started;
        loop {
            if self.control.stop.load(SeqCst) {
                return self.give_offered(receiver, "stop");
            }
            let report = match self.deadline.due(&self.control) {
                None => receiver.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(due) => match due.checked_duration_since(Instant::now()) {
                    Some(left) if !left.is_zero() => receiver.recv_timeout(left),
                    _ => Err(RecvTimeoutError::Timeout),
                },
            };
            match report {
                Ok(report) => {
                    if self.handle(report) {
                        return;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    // The search is told to stop first, so that the engine loop, seeing the
                    // answer, knows the search is winding down.
                    self.control.stop.store(true, SeqCst);
                    return self.give_offered(receiver, "the deadline");
                }
                // The control's waker keeps a sender, so this is only a safeguard.
                Err(RecvTimeoutError::Disconnected) => {
                    return self.give_offered(receiver, "the search's end");
                }
            }
        }
    }

    /// Acts on one report; true once the answer is given.
    fn handle(&mut self, report: Report) -> bool {
        match report {
            Report::Ended => {
                let offered = std::mem::take(&mut self.offered);
                self.give(&offered);
                return true;
            }
            Report::Info(line) => self.out.line(&line),
            Report::Offer(line) => self.offered = line,
            Report::Done { answer, after } => {
                self.give(&answer);
                self.out.lines(&after);
                return true;
            }
            Report::Wake => {}
        }
        false
    }

    /// Gives the answer offered last, after writing what the search has sent meanwhile (its
    /// own answer, if it is already there, is given instead).
    fn give_offered(mut self, receiver: &Receiver<Report>, cause: &str) {
        while let Ok(report) = receiver.try_recv() {
            if self.handle(report) {
                return;
            }
        }
        let offered = std::mem::take(&mut self.offered);
        self.give(&offered);
        if self.debug {
            let ms = |at: Instant| at.saturating_duration_since(self.deadline.start).as_secs_f64() * 1000.0;
            let priority = if self.realtime { "real-time" } else { "normal" };
            self.out.info_string(&format!(
                "debug: answered for the search at {cause}, {:.1} ms after go was read (the answerer ran from {:.1} ms, at {priority} priority)",
                ms(Instant::now()),
                ms(self.started)
            ));
        }
    }

    fn give(&self, answer: &str) {
        self.answered.store(true, SeqCst);
        self.out.line(answer);
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::io::Write;
    use std::sync::Mutex;

    /// A writer into a shared buffer (for the protocol's tests).
    #[derive(Clone, Default)]
    pub(in crate::protocol) struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().write(buf)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Buffer {
        /// What was written.
        pub(in crate::protocol) fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    fn start(hard: Option<u64>, control: &Arc<SearchControl>) -> (Answerer, Buffer) {
        let buffer = Buffer::default();
        let deadline = Deadline { start: Instant::now(), hard: hard.map(Duration::from_millis) };
        let answerer = Answerer::start(
            control.clone(),
            Output::new(buffer.clone()),
            deadline,
            "bestmove a".into(),
            false,
        )
        .unwrap();
        (answerer, buffer)
    }

    fn wait_answered(answerer: &Answerer) {
        let until = Instant::now() + Duration::from_secs(10);
        while !answerer.is_answered() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn the_search_answers_itself_and_nothing_follows() {
        let control = Arc::new(SearchControl::new());
        let (mut answerer, buffer) = start(None, &control);
        let reporter = answerer.take_reporter().unwrap();
        reporter.info("info depth 1".into());
        reporter.offer("bestmove b".into());
        reporter.done("bestmove c".into(), vec!["info string after".into()]);
        reporter.info("info depth 2".into());
        answerer.join();
        assert_eq!(buffer.text(), "info depth 1\nbestmove c\ninfo string after\n");
        assert!(!control.stop.load(SeqCst), "a search that answered itself is not stopped");
    }

    #[test]
    fn the_deadline_gives_the_offer_and_stops_the_search() {
        let control = Arc::new(SearchControl::new());
        let started = Instant::now();
        let (mut answerer, buffer) = start(Some(30), &control);
        let reporter = answerer.take_reporter().unwrap();
        reporter.info("info depth 1".into());
        reporter.offer("bestmove b".into());
        wait_answered(&answerer);
        assert!(started.elapsed() >= Duration::from_millis(30));
        assert!(control.stop.load(SeqCst));
        // The search's late answer and lines are not written.
        reporter.info("info depth 9".into());
        reporter.done("bestmove z".into(), Vec::new());
        answerer.join();
        assert_eq!(buffer.text(), "info depth 1\nbestmove b\n");
    }

    #[test]
    fn stop_gives_the_offer_at_once_and_the_fallback_before_any_offer() {
        let control = Arc::new(SearchControl::new());
        let (answerer, buffer) = start(None, &control);
        control.request_stop();
        wait_answered(&answerer);
        answerer.join();
        assert_eq!(buffer.text(), "bestmove a\n");
    }

    #[test]
    fn a_search_that_ends_without_answering_gets_the_offer() {
        let control = Arc::new(SearchControl::new());
        let (mut answerer, buffer) = start(None, &control);
        let reporter = answerer.take_reporter().unwrap();
        reporter.offer("bestmove b".into());
        drop(reporter);
        answerer.join();
        assert_eq!(buffer.text(), "bestmove b\n");
    }

    #[test]
    fn pondering_has_no_deadline_until_the_ponder_hit() {
        let control = Arc::new(SearchControl::new());
        control.pondering.store(true, SeqCst);
        let (answerer, buffer) = start(Some(0), &control);
        std::thread::sleep(Duration::from_millis(50));
        assert!(!answerer.is_answered(), "a deadline while pondering");
        control.ponderhit();
        wait_answered(&answerer);
        answerer.join();
        assert_eq!(buffer.text(), "bestmove a\n");
    }
}
