//! The input thread: reads stdin line by line, parses each line, and forwards the commands to
//! the engine loop in order, acting on `stop`, `ponderhit` and `quit` at once.
//!
//! Why a thread of its own: the engine loop may be busy (a `perft`, a table resize, waiting for
//! a search to wind down), but `stop` must reach a running job within milliseconds. So the
//! reader, besides forwarding every command, applies the urgent ones directly to the control
//! flags of the current job (the *fast path*, `Shared::current`). The forwarded copy keeps
//! the order of events exact for everything else.
//!
//! **Which job a `stop` is meant for.** `go infinite` and `stop` (or `perft 9` and `stop`) may
//! arrive together, so that the reader reads `stop` before the loop has started the job it is
//! meant for, or while an earlier job still runs. Each line is therefore numbered; a `stop`
//! is meant for the last job-starting command (`go`, `perft`, `bench`) read before it. The
//! forwarded copy acts in the order of the input: the loop stops whatever job runs when it
//! gets to the `stop` (the job started by that command, or, when the loop refused it because
//! an earlier search still ran, that earlier search: the GUI wants the engine to stop). The fast
//! path must agree with it, only sooner, so it stops the current job only if that job was
//! started by the very command the `stop` is meant for; otherwise it records the command's
//! line ([`Shared`]'s pending stops), and the loop, publishing a job, stops it at once if a
//! `stop` meant for it is pending ([`Shared::publish`]). The record and the current job share
//! one lock: either the reader sees the new job, or the loop sees the stop. Several stops may be
//! pending at once (`perft 12`, `stop`, `go depth 1`, `stop` in one write, read before the loop
//! has started the perft): each reaches its own job. So the same input gives the same answers
//! however the threads are scheduled. `quit` and the end of input are meant for every job: they
//! stop the current one and every one published after.
//!
//! The reader runs at a real-time priority where the system grants one ([`crate::realtime`]):
//! the moment it reads a `go` is the moment the search's time starts, and on a busy machine an
//! ordinary thread may wait tens of milliseconds to be scheduled after the GUI has written.
//!
//! Lines are read as raw bytes (`read_until`), so invalid UTF-8 is decoded lossily rather than
//! ending the input; a line longer than [`MAX_LINE_BYTES`] is skipped (and reported) instead of
//! growing a buffer without bound. End of input, or a read error, is treated as `quit`.

use super::command::{Command, ParseError, Parsed, parse_bytes};
use crate::search::SearchControl;
use std::collections::BTreeSet;
use std::io::BufRead;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The longest line read, in bytes; longer lines are skipped whole. Far above any real
/// command (a `position` with the longest possible game is about 13 kB).
pub const MAX_LINE_BYTES: usize = 8 << 20;

/// What the reader sends to the engine loop.
#[derive(Debug)]
pub enum Input {
    /// A parsed line (or why it could not be parsed), with its line number (from 1) and the
    /// moment it was read: a `go`'s time budget starts then, not when the loop gets to it.
    Line(u64, Result<Parsed, ParseError>, Instant),
    /// A line over [`MAX_LINE_BYTES`] was skipped.
    TooLong(u64, usize),
    /// End of input (or a read error): the engine should end.
    End,
}

/// What the reader and the engine loop share.
#[derive(Default)]
pub struct Shared {
    jobs: Mutex<Jobs>,
}

/// The jobs as the reader sees them, under one lock.
#[derive(Default)]
struct Jobs {
    /// The control flags of the job that is running (search, perft or bench), if any, and the
    /// line of the command that started it.
    current: Option<(Arc<SearchControl>, u64)>,
    /// The lines of job-starting commands that a `stop` read so far is meant for, and that the
    /// loop has not yet reached ([`Shared::passed`] forgets them).
    pending: BTreeSet<u64>,
    /// `quit` or the end of input was read: every job is stopped.
    ending: bool,
}

impl Shared {
    fn jobs(&self) -> std::sync::MutexGuard<'_, Jobs> {
        self.jobs.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Makes `control` the current job's flags. `line` is the number of the command that started
    /// the job: if a `stop` meant for it, or `quit`, has already been read, the job is stopped
    /// at once.
    pub fn publish(&self, control: &Arc<SearchControl>, line: u64) {
        let mut jobs = self.jobs();
        jobs.current = Some((control.clone(), line));
        if jobs.ending || jobs.pending.remove(&line) {
            control.request_stop();
        }
    }

    /// The loop has executed the job-starting command of `line` (started its job or refused
    /// it): a `stop` pending for it or an earlier one has nothing left to reach.
    pub fn passed(&self, line: u64) {
        let mut jobs = self.jobs();
        let later = jobs.pending.split_off(&(line + 1));
        jobs.pending = later;
    }

    /// Forgets `control` if it is the current job's (the job has ended; a newer job, started
    /// before the old one was joined, stays current).
    pub fn retire(&self, control: &Arc<SearchControl>) {
        let mut jobs = self.jobs();
        if jobs.current.as_ref().is_some_and(|(c, _)| Arc::ptr_eq(c, control)) {
            jobs.current = None;
        }
    }

    /// The fast path of `stop`, meant for the job started on line `job_line` (0: none): stops
    /// the current job if that is the one, else records the stop for the loop.
    fn stop(&self, job_line: u64) {
        let mut jobs = self.jobs();
        match &jobs.current {
            Some((control, line)) if *line == job_line => control.request_stop(),
            _ if job_line > 0 => {
                jobs.pending.insert(job_line);
            }
            _ => {}
        }
    }

    /// The fast path of `quit` and the end of input: every job, current or to come, is stopped.
    fn stop_all(&self) {
        let mut jobs = self.jobs();
        jobs.ending = true;
        if let Some((control, _)) = &jobs.current {
            control.request_stop();
        }
    }

    /// The fast path of `ponderhit`, meant for the job started on line `job_line`: the current
    /// search stops pondering if it is that job (otherwise the forwarded copy acts in order).
    fn ponderhit(&self, job_line: u64) {
        if let Some((control, line)) = &self.jobs().current
            && *line == job_line
        {
            control.ponderhit();
        }
    }
}

/// Reads `input` until its end or `quit`, forwarding every line to `sender`; ends with
/// [`Input::End`] (unless the line was `quit`, which is forwarded as such). Meant to run on its
/// own thread; returns when the input ends or the engine loop has gone.
pub fn read_loop(mut input: impl BufRead, shared: &Shared, sender: &Sender<Input>) {
    // Real-time where granted, so that a line is read (and a `go` stamped) as soon as it is
    // written, whatever else the machine runs; given back on a flood and when reading ends.
    let mut flood_guard = crate::realtime::FloodGuard::start();
    let mut line_number = 0u64;
    // The line of the last command that starts a job: the one a `stop` is meant for.
    let mut job_line = 0u64;
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        // A read error ends the input like its end does: (0 bytes, not too long).
        let (read, too_long) = read_line(&mut input, &mut buffer).unwrap_or_default();
        flood_guard.count(read);
        if read == 0 {
            // End of input: as `quit`.
            shared.stop_all();
            let _ = sender.send(Input::End);
            return;
        }
        line_number += 1;
        if too_long {
            if sender.send(Input::TooLong(line_number, read)).is_err() {
                return;
            }
            continue;
        }
        let read_at = Instant::now();
        let parsed = parse_bytes(&buffer);
        let quit = match parsed.as_ref().map(|p| &p.command) {
            Ok(Command::Go(_) | Command::Perft(_) | Command::Bench(_)) => {
                job_line = line_number;
                false
            }
            Ok(Command::Stop) => {
                shared.stop(job_line);
                false
            }
            Ok(Command::Quit) => {
                shared.stop_all();
                true
            }
            Ok(Command::PonderHit) => {
                shared.ponderhit(job_line);
                false
            }
            _ => false,
        };
        if sender.send(Input::Line(line_number, parsed, read_at)).is_err() || quit {
            return;
        }
    }
}

/// Reads one line into `buffer` (at most [`MAX_LINE_BYTES`] of it; the rest of a longer line
/// is consumed and dropped). Returns the bytes read in all (0 at the end of input) and whether
/// the line was too long.
fn read_line(input: &mut impl BufRead, buffer: &mut Vec<u8>) -> std::io::Result<(usize, bool)> {
    let mut total = 0;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok((total, total > MAX_LINE_BYTES));
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if buffer.len() < MAX_LINE_BYTES {
            let room = MAX_LINE_BYTES - buffer.len();
            buffer.extend_from_slice(&chunk[..take.min(room)]);
        }
        total += take;
        input.consume(take);
        if done {
            return Ok((total, total > MAX_LINE_BYTES));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;
    use std::sync::atomic::Ordering::SeqCst;
    use std::sync::mpsc::channel;

    fn read_all(bytes: &[u8]) -> Vec<Input> {
        let (sender, receiver) = channel();
        read_loop(Cursor::new(bytes.to_vec()), &Shared::default(), &sender);
        drop(sender);
        receiver.iter().collect()
    }

    #[test]
    fn lines_are_numbered_and_end_with_end() {
        let inputs = read_all(b"uci\n\nisready\r\nbogus");
        assert_eq!(inputs.len(), 5);
        assert!(
            matches!(&inputs[0], Input::Line(1, Ok(p), _) if p.command == Command::Hello(super::super::command::Dialect::Uci))
        );
        assert!(matches!(&inputs[1], Input::Line(2, Err(ParseError::Empty), _)));
        assert!(matches!(&inputs[2], Input::Line(3, Ok(p), _) if p.command == Command::IsReady));
        assert!(matches!(&inputs[3], Input::Line(4, Err(ParseError::UnknownCommand(_)), _)));
        assert!(matches!(inputs[4], Input::End));
    }

    #[test]
    fn quit_ends_the_reading() {
        let inputs = read_all(b"quit\nisready\n");
        assert_eq!(inputs.len(), 1);
        assert!(matches!(&inputs[0], Input::Line(1, Ok(p), _) if p.command == Command::Quit));
    }

    #[test]
    fn overlong_lines_are_skipped() {
        let mut bytes = vec![b'x'; MAX_LINE_BYTES + 10];
        bytes.extend_from_slice(b"\nisready\n");
        let inputs = read_all(&bytes);
        assert!(matches!(inputs[0], Input::TooLong(1, n) if n == MAX_LINE_BYTES + 11));
        assert!(matches!(&inputs[1], Input::Line(2, Ok(p), _) if p.command == Command::IsReady));
    }

    #[test]
    fn a_stop_read_before_the_job_starts_still_stops_it() {
        let shared = Shared::default();
        shared.stop(5);
        let earlier = Arc::new(SearchControl::new());
        shared.publish(&earlier, 3);
        assert!(!earlier.stop.load(SeqCst), "the stop is meant for line 5");
        let control = Arc::new(SearchControl::new());
        shared.publish(&control, 5);
        assert!(control.stop.load(SeqCst));
        let later = Arc::new(SearchControl::new());
        shared.publish(&later, 6);
        assert!(!later.stop.load(SeqCst));
    }

    /// R6: two stops read before the loop starts either job each reach their own.
    #[test]
    fn pending_stops_each_reach_their_own_job() {
        let shared = Shared::default();
        let (sender, _receiver) = channel();
        let input = b"perft 12\nstop\ngo depth 1\nstop\nisready\n".to_vec();
        read_loop(Cursor::new(input), &shared, &sender);
        // The end of input came too: undo it, to look at the two stops alone.
        shared.jobs().ending = false;
        let perft = Arc::new(SearchControl::new());
        shared.publish(&perft, 1);
        assert!(perft.stop.load(SeqCst), "the perft's stop");
        shared.passed(1);
        let go = Arc::new(SearchControl::new());
        shared.publish(&go, 3);
        assert!(go.stop.load(SeqCst), "the go's stop");
        shared.passed(3);
        assert!(shared.jobs().pending.is_empty());
    }

    /// R16: a stop meant for a later job leaves the running one to the forwarded copy, which
    /// acts in the order of the input; a job the loop refused leaves nothing pending.
    #[test]
    fn a_stop_for_a_later_job_does_not_stop_the_current_one() {
        let shared = Shared::default();
        let running = Arc::new(SearchControl::new());
        shared.publish(&running, 1);
        shared.stop(3003);
        assert!(!running.stop.load(SeqCst));
        shared.passed(3003);
        assert!(shared.jobs().pending.is_empty());
        shared.stop(1);
        assert!(running.stop.load(SeqCst));
    }

    #[test]
    fn quit_and_the_end_of_input_stop_every_job() {
        let shared = Shared::default();
        let (sender, _receiver) = channel();
        read_loop(Cursor::new(b"go depth 5\nisready\ngo infinite\nstop\nd\n".to_vec()), &shared, &sender);
        assert!(shared.jobs().pending.contains(&3), "line 3 was stopped by line 4");
        for line in [1, 3, 9] {
            let control = Arc::new(SearchControl::new());
            shared.publish(&control, line);
            assert!(control.stop.load(SeqCst), "line {line}");
        }
    }

    /// An input that records the reading thread's priority at each read.
    struct Watched {
        bytes: Cursor<Vec<u8>>,
        realtime_seen: Arc<Mutex<Vec<bool>>>,
    }

    impl std::io::Read for Watched {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.realtime_seen.lock().unwrap().push(crate::realtime::is_current());
            std::io::Read::read(&mut self.bytes, buf)
        }
    }

    /// The reader reads at real-time priority where the system grants one, and gives it back
    /// when the reading ends (its thread may go on to other work).
    #[test]
    fn reading_is_real_time_where_granted_and_given_back_at_the_end() {
        let handle = std::thread::spawn(|| {
            let granted = crate::realtime::request();
            crate::realtime::release();
            let realtime_seen = Arc::new(Mutex::new(Vec::new()));
            let input =
                Watched { bytes: Cursor::new(b"isready\n".to_vec()), realtime_seen: realtime_seen.clone() };
            let (sender, _receiver) = channel();
            read_loop(std::io::BufReader::new(input), &Shared::default(), &sender);
            let seen = realtime_seen.lock().unwrap().clone();
            (granted, seen, crate::realtime::is_current())
        });
        let (granted, seen, after) = handle.join().unwrap();
        assert!(!seen.is_empty());
        assert!(seen.iter().all(|&rt| rt == granted), "granted {granted}, seen {seen:?}");
        assert!(!after, "the priority is given back");
    }
}
