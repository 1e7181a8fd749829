//! The answerers: the threads that write a search's output and its one `bestmove`, on time
//! whatever the load on the machine.
//!
//! Why threads of their own: a search thread looks at its clock between nodes, so when the
//! operating system leaves it waiting for a processor (a busy machine: a compiler, another match,
//! a browser), it cannot see its deadline, and the moment it runs again may be tens or hundreds
//! of milliseconds late. A thread that *sleeps* until a deadline is woken promptly instead: the
//! scheduler favours a sleeper that wakes over a thread that has been computing. So every `go`
//! has an answerer that sleeps until the hard deadline and then gives the answer itself, while
//! the search unwinds whenever it next runs.
//!
//! Two of them, on two processors. A sleeping thread is woken by a timer of the processor it
//! slept on, and on a virtual machine one processor alone can be held by the host for 100 ms
//! (measured by `benches/stalls.rs`; docs/matches.md): no thread woken there runs meanwhile. So
//! the *first answerer* (pinned to the first processor the process may use) does the work,
//! writing the search's lines and giving its answer, and the *second waker* (pinned to the
//! second) only watches the same deadline, [`SECOND_WAKER_DELAY`] later, and gives the answer
//! offered last if the first has not. Whichever gives it first gives it alone ([`Ticket`]).
//!
//! The threads live as long as the session ([`AnswerDesk`]): a thread started for each `go`
//! would map and unmap its stack every move, and a thread that changes the process's memory map
//! can be held by one that was preempted while changing it.
//!
//! The search thread never writes to the output. It sends its lines to the first answerer
//! ([`Reporter`]) over a channel, which holds no lock that a descheduled thread could keep (a
//! search preempted while holding the output's lock would delay the answer by as long as it
//! waits). The first answerer writes the `info` lines in order and gives exactly one answer,
//! whichever comes first:
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
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long after its own hard deadline a search may still answer itself before the answerer
/// does: the search stops at the deadline and answers within a fraction of a millisecond when
/// it is running, so on a machine with processors to spare the answer is the search's own.
pub const GRACE: Duration = Duration::from_millis(1);

/// How long after the first answerer's moment (the deadline plus [`GRACE`], or `stop`) the
/// second waker gives the answer in its place: long enough that a first answerer that runs
/// always answers first (it takes microseconds), short against the margin of any runner.
pub const SECOND_WAKER_DELAY: Duration = Duration::from_millis(2);

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
    /// The moment the first answerer gives the answer itself, if any: none while pondering.
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
    /// `stop`, ponderhit or the other answerer's answer: look at the flags again.
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

/// The session's answering threads: the first answerer and, where the process may use two
/// processors, the second waker. They end when the desk is dropped.
pub struct AnswerDesk {
    /// The first answerer's work: each search's [`Task::run`] (a test may hold the thread).
    first: Sender<Box<dyn FnOnce() + Send>>,
    second: Option<Sender<Watch>>,
}

impl AnswerDesk {
    /// Starts the threads, each pinned to its processor and at a real-time priority where the
    /// system grants them. A second waker that cannot be started is left out.
    pub fn start() -> std::io::Result<AnswerDesk> {
        let cpus = crate::realtime::allowed_cpus();
        let (first, tasks) = channel::<Box<dyn FnOnce() + Send>>();
        start_thread("answerer", cpus.first().copied(), move || tasks.iter().for_each(|run| run()))?;
        let second = (cpus.len() >= 2)
            .then(|| {
                let (second, watches) = channel::<Watch>();
                start_thread("second waker", Some(cpus[1]), move || watches.iter().for_each(Watch::run))
                    .ok()
                    .map(|()| second)
            })
            .flatten();
        Ok(AnswerDesk { first, second })
    }

    /// Whether a second waker watches every deadline.
    pub fn has_second_waker(&self) -> bool {
        self.second.is_some()
    }

    /// Hands the search controlled by `control` to the answerers: it must answer by
    /// `deadline`; `fallback` is the answer given if the search offers none in time. With
    /// `debug`, an answer given for the search says so after the `bestmove`. An error means
    /// the first answerer's thread is gone (start a new desk).
    pub fn answer(
        &self,
        control: Arc<SearchControl>,
        out: Output,
        deadline: Deadline,
        fallback: String,
        debug: bool,
    ) -> std::io::Result<Answerer> {
        let (sender, receiver) = channel();
        let (second_sender, second_receiver) = channel();
        let ticket = Arc::new(Ticket {
            out,
            answered: AtomicBool::new(false),
            finished: AtomicBool::new(false),
            offered: Mutex::new(fallback),
            wake_first: sender.clone(),
            wake_second: second_sender.clone(),
            deadline,
            debug,
        });
        let waker = sender.clone();
        control.set_waker(move || {
            let _ = waker.send(Report::Wake);
            let _ = second_sender.send(());
        });
        let task = Task { control: control.clone(), ticket: ticket.clone(), receiver };
        if self.first.send(Box::new(move || task.run())).is_err() {
            return Err(std::io::Error::other("the answerer thread has ended"));
        }
        if let Some(second) = &self.second {
            let _ = second.send(Watch { control, ticket: ticket.clone(), wake: second_receiver });
        }
        Ok(Answerer { reporter: Some(Reporter { sender }), ticket })
    }
}

/// Starts a session-long answering thread named `name`, pinned to `cpu`, running `body`.
fn start_thread(name: &str, cpu: Option<usize>, body: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    std::thread::Builder::new().name(name.into()).spawn(move || {
        if let Some(cpu) = cpu {
            crate::realtime::pin_to(cpu);
        }
        crate::realtime::request();
        body();
    })?;
    Ok(())
}

/// One search's answering, as the loop sees it.
pub struct Answerer {
    reporter: Option<Reporter>,
    ticket: Arc<Ticket>,
}

impl Answerer {
    /// The search's side, for the search thread (once; `None` after).
    pub fn take_reporter(&mut self) -> Option<Reporter> {
        self.reporter.take()
    }

    /// True once the answer is given (or about to be: the flag is raised just before the
    /// `bestmove` is written, so that a command sent after it finds the search answered).
    pub fn is_answered(&self) -> bool {
        self.ticket.answered.load(SeqCst)
    }

    /// True once the first answerer is done with this search: nothing more of it is written.
    pub fn is_finished(&self) -> bool {
        self.ticket.finished.load(SeqCst)
    }

    /// Waits until the first answerer is done with this search: at once after the answer, or
    /// once the search's [`Reporter`] is dropped (a reporter never taken is dropped here, and
    /// the fallback given).
    pub fn join(mut self) {
        self.reporter = None;
        while !self.is_finished() {
            std::thread::sleep(Duration::from_micros(200));
        }
    }
}

/// What the answerers of one search share: the output, and the one answer.
struct Ticket {
    out: Output,
    /// Raised by whichever answerer gives the answer, before it writes it.
    answered: AtomicBool,
    /// Raised when the first answerer is done with the search.
    finished: AtomicBool,
    /// The answer to give if the search gives none (kept by the first answerer).
    offered: Mutex<String>,
    /// Wakes the first answerer (when the second has answered).
    wake_first: Sender<Report>,
    /// Wakes the second waker (when the first has answered).
    wake_second: Sender<()>,
    deadline: Deadline,
    debug: bool,
}

impl Ticket {
    fn is_answered(&self) -> bool {
        self.answered.load(SeqCst)
    }

    /// Writes `lines` unless the answer is given. The flag is read under the output's lock, so
    /// a line written here always comes before the `bestmove`.
    fn write(&self, lines: &[String]) {
        self.out.lines_unless(&self.answered, lines);
    }

    /// Gives `answer` and then the lines `after` it, in one write (so that no reply of the
    /// engine loop comes between them), unless an answer is given already; true if this call
    /// gave it.
    fn answer(&self, answer: &str, after: &[String]) -> bool {
        if self.answered.swap(true, SeqCst) {
            return false;
        }
        let mut lines = Vec::with_capacity(1 + after.len());
        lines.push(answer.to_string());
        lines.extend_from_slice(after);
        self.out.lines(&lines);
        let _ = self.wake_first.send(Report::Wake);
        let _ = self.wake_second.send(());
        true
    }

    fn offer(&self, line: String) {
        *self.offered.lock().unwrap_or_else(|p| p.into_inner()) = line;
    }

    /// Gives the answer offered last, then `after` (see [`Ticket::answer`]).
    fn answer_offered(&self, after: &[String]) -> bool {
        let offered = self.offered.lock().unwrap_or_else(|p| p.into_inner()).clone();
        self.answer(&offered, after)
    }

    /// Gives the answer offered last for the search, by `who` at `cause`; with `debug`,
    /// followed by a line that says so.
    fn answer_for_the_search(&self, who: &str, cause: &str, began: Instant) {
        let note: Vec<String> = self.debug.then(|| self.note(who, cause, began)).into_iter().collect();
        self.answer_offered(&note);
    }

    /// The line that says that `who` answered for the search at `cause` (`debug`).
    fn note(&self, who: &str, cause: &str, began: Instant) -> String {
        let ms = |at: Instant| at.saturating_duration_since(self.deadline.start).as_secs_f64() * 1000.0;
        let priority = if crate::realtime::is_current() { "real-time" } else { "normal" };
        format!(
            "info string debug: {who} answered for the search at {cause}, {:.1} ms after go was read (it took the search at {:.1} ms, at {priority} priority)",
            ms(Instant::now()),
            ms(began)
        )
    }
}

/// One search, for the first answerer.
struct Task {
    control: Arc<SearchControl>,
    ticket: Arc<Ticket>,
    receiver: Receiver<Report>,
}

impl Drop for Task {
    /// The first answerer is done with the search (also if it failed).
    fn drop(&mut self) {
        self.ticket.finished.store(true, SeqCst);
    }
}

impl Task {
    /// Writes the search's lines until the answer is given.
    fn run(self) {
        let began = Instant::now();
        loop {
            if self.ticket.is_answered() {
                // The second waker answered (this thread's processor was held).
                return;
            }
            if self.control.stop.load(SeqCst) {
                return self.give_offered("stop", began);
            }
            let report = match self.ticket.deadline.due(&self.control) {
                None => self.receiver.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(due) => match due.checked_duration_since(Instant::now()) {
                    Some(left) if !left.is_zero() => self.receiver.recv_timeout(left),
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
                    return self.give_offered("the deadline", began);
                }
                // The ticket keeps a sender, so this is only a safeguard.
                Err(RecvTimeoutError::Disconnected) => return self.give_offered("the search's end", began),
            }
        }
    }

    /// Acts on one report; true once the answer is given.
    fn handle(&self, report: Report) -> bool {
        match report {
            Report::Ended => {
                self.ticket.answer_offered(&[]);
                return true;
            }
            Report::Info(line) => self.ticket.write(&[line]),
            Report::Offer(line) => self.ticket.offer(line),
            Report::Done { answer, after } => {
                self.ticket.answer(&answer, &after);
                return true;
            }
            Report::Wake => {}
        }
        false
    }

    /// Gives the answer offered last, after writing what the search has sent meanwhile (its
    /// own answer, if it is already there, is given instead).
    fn give_offered(&self, cause: &str, began: Instant) {
        while let Ok(report) = self.receiver.try_recv() {
            if self.handle(report) {
                return;
            }
        }
        self.ticket.answer_for_the_search("the answerer", cause, began);
    }
}

/// One search, for the second waker.
struct Watch {
    control: Arc<SearchControl>,
    ticket: Arc<Ticket>,
    wake: Receiver<()>,
}

impl Watch {
    /// Sleeps until the first answerer's moment plus [`SECOND_WAKER_DELAY`], and answers then
    /// if the first has not; returns as soon as the answer is given.
    fn run(self) {
        let began = Instant::now();
        let mut stop_seen = None;
        while !self.ticket.is_answered() {
            if stop_seen.is_none() && self.control.stop.load(SeqCst) {
                stop_seen = Some(Instant::now());
            }
            let due = self.ticket.deadline.due(&self.control).into_iter().chain(stop_seen).min();
            let woke = match due.map(|due| due + SECOND_WAKER_DELAY) {
                None => self.wake.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(due) => self.wake.recv_timeout(due.saturating_duration_since(Instant::now())),
            };
            match woke {
                Ok(()) => {}
                Err(RecvTimeoutError::Timeout) => {
                    let cause = if stop_seen.is_some() { "stop" } else { "the deadline" };
                    self.control.stop.store(true, SeqCst);
                    self.ticket.answer_for_the_search("the second waker", cause, began);
                    return;
                }
                // The ticket keeps a sender, so this is only a safeguard.
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests;
