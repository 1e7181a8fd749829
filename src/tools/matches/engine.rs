//! An engine process driven over pipes with the UCI/UGI protocol (docs/protocol.md).
//!
//! The scheme: the process is spawned with piped stdin and stdout, in a session of its own. A
//! reader thread (at real-time priority where granted, see `src/realtime.rs`) turns its stdout
//! into lines, each stamped with the [`Instant`] it was read, and sends them on a channel; the end of the output is sent as [`Event::Eof`]. The runner only ever waits on that
//! channel with a deadline (`recv_timeout`), so an engine that hangs, floods or dies can never
//! hang the runner: it just misses its deadline or closes the channel. Lines are capped at
//! [`MAX_LINE`] bytes, so an engine that prints without newlines cannot exhaust memory.
//!
//! A conversation: `uci` → `id name ...`, `option name ...`, `uciok`; `setoption name N value
//! V` for each option; `isready` → `readyok`. Each game: `ucinewgame`, `isready` → `readyok`.
//! Each move: `position fen FEN moves M...`, `go ...` → `info ...` lines, `bestmove M`. At the
//! end: `quit`, then the process is killed if it has not exited within half a second. The
//! `ugi` dialect swaps the words `uci`/`ucinewgame`/`uciok` for `ugi`/`uginewgame`/`ugiok`.
//!
//! Faults are reported as [`Fault`] values, never as panics: the game code turns them into a
//! lost game with a recorded reason, and the match code restarts a dead engine for the next
//! game.

use super::spec::{EngineSpec, Proto};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long the `uci`/`uciok` handshake may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an `isready` may take to be answered (an engine may allocate its tables then).
pub const READY_TIMEOUT: Duration = Duration::from_secs(30);
/// The longest line kept whole; the rest of a longer line is dropped.
pub const MAX_LINE: usize = 64 * 1024;
/// How long an engine that missed its deadline may take to answer `stop` with its `bestmove`
/// before it is considered hung (and killed before its next game).
pub const STOP_GRACE: Duration = Duration::from_secs(1);
/// How long an engine told to `quit` may take to exit before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);

/// What the reader thread reports.
#[derive(Debug)]
pub enum Event {
    /// A line of output (without its line end) and when it was read.
    Line(Instant, String),
    /// The engine closed its output (it exited or crashed).
    Eof,
}

/// Why an engine failed to answer as it should.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process exited, closed its output or could not be written to.
    Crash(String),
    /// No answer before the deadline.
    NoAnswer {
        /// What was awaited (`bestmove`, `readyok`, ...).
        awaited: &'static str,
        /// How long the runner waited.
        waited: Duration,
    },
}

/// The engine's answer to `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The move text after `bestmove` (empty if the line had none).
    pub bestmove: String,
    /// From writing `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// The depth of the last `info` line that had one.
    pub depth: Option<u32>,
    /// The score of the last `info` line that had one: `cp X` or `mate N`.
    pub score: Option<String>,
}

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    proto: Proto,
    /// The `id name` the engine gave.
    id_name: String,
    /// Set once the engine is known to be dead or out of step (it must be restarted).
    broken: bool,
}

impl Engine {
    /// Starts the engine of `spec`, completes the handshake, sends the options and waits for
    /// `readyok`. An option the engine does not declare, or an `info string error` answer to a
    /// `setoption`, is an error (a typo would otherwise silently void a test).
    pub fn start(spec: &EngineSpec) -> Result<Engine, String> {
        let mut command = Command::new(&spec.command[0]);
        command.args(&spec.command[1..]).stdin(Stdio::piped()).stdout(Stdio::piped());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        match &spec.stderr {
            Some(path) => {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("stderr file '{}': {e}", path.display()))?;
                command.stderr(file);
            }
            None => {
                command.stderr(Stdio::null());
            }
        }
        own_session(&mut command);
        let mut child =
            command.spawn().map_err(|e| format!("cannot start '{}': {e}", spec.command.join(" ")))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, events) = channel();
        // Detached on purpose: it ends when the engine's output closes, and the runner never
        // waits for it (an engine's grandchild could keep the pipe open).
        std::thread::spawn(move || {
            // It stamps the engine's answers: it must not wait for a processor when a line
            // comes, so it asks for real-time priority (src/realtime.rs), and gives it back if
            // the engine floods it.
            let mut guard = crate::realtime::FloodGuard::start();
            let mut reader = BufReader::new(stdout);
            let mut line = Vec::new();
            loop {
                line.clear();
                match read_capped_line(&mut reader, &mut line) {
                    Ok(0) | Err(_) => {
                        let _ = sender.send(Event::Eof);
                        return;
                    }
                    Ok(n) => {
                        guard.count(n);
                        let text = String::from_utf8_lossy(&line).trim_end_matches(['\n', '\r']).to_string();
                        if sender.send(Event::Line(Instant::now(), text)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut engine =
            Engine { child, stdin, events, proto: spec.proto, id_name: String::new(), broken: false };
        engine.handshake(spec).inspect_err(|_| engine.kill())?;
        Ok(engine)
    }

    fn handshake(&mut self, spec: &EngineSpec) -> Result<(), String> {
        let (hello, done) = match self.proto {
            Proto::Uci => ("uci", "uciok"),
            Proto::Ugi => ("ugi", "ugiok"),
        };
        let describe = |f: Fault| match f {
            Fault::Crash(why) => why,
            Fault::NoAnswer { awaited, waited } => {
                format!("no '{awaited}' within {:.1} s", waited.as_secs_f64())
            }
        };
        self.send(hello).map_err(describe)?;
        let mut declared = Vec::new();
        let lines = self.wait_for(done, HANDSHAKE_TIMEOUT).map_err(describe)?;
        for (_, line) in lines {
            if let Some(name) = line.strip_prefix("id name ") {
                self.id_name = name.trim().to_string();
            } else if let Some(rest) = line.strip_prefix("option name ") {
                // The name runs up to the ` type ` keyword.
                let name = rest.split(" type ").next().unwrap_or(rest);
                declared.push(normalise(name));
            }
        }
        for (name, value) in &spec.options {
            if !declared.contains(&normalise(name)) {
                return Err(format!("the engine has no option '{name}'"));
            }
            self.send(&format!("setoption name {name} value {value}")).map_err(describe)?;
        }
        self.send("isready").map_err(describe)?;
        let lines = self.wait_for("readyok", READY_TIMEOUT).map_err(describe)?;
        if let Some((_, error)) = lines.iter().find(|(_, l)| l.starts_with("info string error")) {
            return Err(format!("the engine refused an option: {error}"));
        }
        if self.id_name.is_empty() {
            self.id_name = spec.command[0].rsplit('/').next().unwrap_or("engine").to_string();
        }
        Ok(())
    }

    /// The engine's `id name` (or its program name when it gave none).
    pub fn id_name(&self) -> &str {
        &self.id_name
    }

    /// False once the engine has crashed, missed a deadline or been killed.
    pub fn is_usable(&self) -> bool {
        !self.broken
    }

    /// Prepares a new game: `ucinewgame` then `isready`, answered within [`READY_TIMEOUT`].
    pub fn new_game(&mut self) -> Result<(), Fault> {
        let word = match self.proto {
            Proto::Uci => "ucinewgame",
            Proto::Ugi => "uginewgame",
        };
        self.send(word)?;
        self.send("isready")?;
        self.wait_for("readyok", READY_TIMEOUT).map(|_| ())
    }

    /// Sends `position` and `go` and waits for `bestmove` until `timeout` after the `go`.
    ///
    /// An engine that misses the deadline is sent `stop` and given [`STOP_GRACE`] to answer
    /// with its `bestmove`: one that does stays usable, so a single slow move (say, a table
    /// allocated at the first `go` on a loaded machine) does not cost a restart, whose fresh
    /// process would be slow again; one that does not is broken. If that `bestmove` turns out
    /// to have been read in time (the runner, not the engine, was late: its thread was not
    /// scheduled), it is the answer after all.
    ///
    /// The clock starts when the write of `go` has returned, not before it: a runner thread
    /// that waits for a processor between the stamp and the write would charge the engine for
    /// its own delay. (The answer is stamped by the reader thread, which sleeps in `read` until
    /// the line comes and so is woken promptly whatever the load.)
    pub fn think(&mut self, position: &str, go: &str, timeout: Duration) -> Result<Reply, Fault> {
        self.send(position)?;
        self.send(go)?;
        let sent = Instant::now();
        let result = self.read_reply(sent, sent + timeout);
        if let Err(Fault::NoAnswer { .. }) = result
            && self.send("stop").is_ok()
        {
            match self.read_reply(sent, Instant::now() + STOP_GRACE) {
                Ok(reply) => {
                    self.broken = false;
                    if reply.elapsed <= timeout {
                        return Ok(reply);
                    }
                }
                Err(_) => self.broken = true,
            }
        }
        result
    }

    /// Analyses `position` with `go infinite`, passing each `info` line to `each` as it comes,
    /// until `stop()` says so (it is asked every 50 ms); then sends `stop` and waits
    /// [`STOP_GRACE`] for the `bestmove`, whose move it returns.
    pub fn analyse(
        &mut self,
        position: &str,
        stop: &dyn Fn() -> bool,
        each: &mut dyn FnMut(&str),
    ) -> Result<String, Fault> {
        self.send(position)?;
        self.send("go infinite")?;
        let started = Instant::now();
        loop {
            match self.events.recv_timeout(Duration::from_millis(50)) {
                Ok(Event::Line(_, line)) if line.starts_with("info ") => each(&line),
                Ok(Event::Line(_, line)) if line.starts_with("bestmove") => {
                    return Ok(line.split_whitespace().nth(1).unwrap_or("").to_string());
                }
                Ok(Event::Line(..)) => {}
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.broken = true;
                    return Err(Fault::Crash(self.exit_description("the engine closed its output")));
                }
                Err(RecvTimeoutError::Timeout) if stop() => break,
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
        self.send("stop")?;
        let deadline = Instant::now() + STOP_GRACE;
        loop {
            let (_, line) = self.next_line(deadline, "bestmove", started)?;
            if line.starts_with("bestmove") {
                return Ok(line.split_whitespace().nth(1).unwrap_or("").to_string());
            }
        }
    }

    /// Reads `info` lines until `bestmove` or the deadline.
    fn read_reply(&mut self, sent: Instant, deadline: Instant) -> Result<Reply, Fault> {
        let mut reply = Reply::default();
        loop {
            let (at, line) = self.next_line(deadline, "bestmove", sent)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => {
                    reply.bestmove = words.next().unwrap_or("").to_string();
                    reply.elapsed = at.saturating_duration_since(sent);
                    return Ok(reply);
                }
                Some("info") => read_info(&line, &mut reply),
                _ => {}
            }
        }
    }

    /// Translates the clock parameters of `go` into this engine's dialect.
    pub fn clock_words(&self) -> [&'static str; 4] {
        match self.proto {
            Proto::Uci => ["wtime", "btime", "winc", "binc"],
            Proto::Ugi => ["p1time", "p2time", "p1inc", "p2inc"],
        }
    }

    /// Writes one line. A failure means the engine is gone.
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        let result = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(format!("{line}\n").as_bytes()).and_then(|()| stdin.flush()),
            None => Err(std::io::Error::other("engine input closed")),
        };
        result.map_err(|e| {
            self.broken = true;
            Fault::Crash(self.exit_description(&format!("cannot write to the engine ({e})")))
        })
    }

    /// Reads lines until one whose first word is `word`; returns every line read, the last one
    /// included.
    fn wait_for(&mut self, word: &'static str, timeout: Duration) -> Result<Vec<(Instant, String)>, Fault> {
        let start = Instant::now();
        let mut lines = Vec::new();
        loop {
            let (at, line) = self.next_line(start + timeout, word, start)?;
            let done = line.split_whitespace().next() == Some(word);
            lines.push((at, line));
            if done {
                return Ok(lines);
            }
        }
    }

    /// The next line, or a fault at the deadline or the end of the output. A missed deadline
    /// marks the engine broken: it may answer later and would then be out of step.
    fn next_line(
        &mut self,
        deadline: Instant,
        awaited: &'static str,
        since: Instant,
    ) -> Result<(Instant, String), Fault> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(wait) {
            Ok(Event::Line(at, line)) => Ok((at, line)),
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.broken = true;
                Err(Fault::Crash(self.exit_description("the engine closed its output")))
            }
            Err(RecvTimeoutError::Timeout) => {
                self.broken = true;
                Err(Fault::NoAnswer { awaited, waited: since.elapsed() })
            }
        }
    }

    /// Describes how the engine ended: its exit status if it has exited (waiting briefly for
    /// it), else `fallback`.
    fn exit_description(&mut self, fallback: &str) -> String {
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return describe_status(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => return fallback.to_string(),
            }
        }
    }

    /// Kills the process at once (and reaps it).
    pub fn kill(&mut self) {
        self.broken = true;
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends `quit` and gives the engine [`QUIT_GRACE`] to exit before killing it; a broken
    /// engine (dead, or hung past a deadline) is killed at once.
    pub fn quit(&mut self) {
        if self.broken {
            self.kill();
            return;
        }
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + QUIT_GRACE;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                self.broken = true;
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.quit();
    }
}

/// Starts the engine in a session of its own (and so a process group of its own), for two
/// reasons:
/// - the Ctrl-C of a terminal reaches the runner alone, which then stops the match cleanly
///   (src/tools/matches/interrupt.rs) and ends the engines itself, instead of every engine
///   dying mid-game of the same signal;
/// - the scheduler groups processes by session (Linux's autogroup, on by default on desktops):
///   an engine thinking in the runner's group would keep that group busy, and the runner's
///   reader thread, which stamps the engine's answer as it arrives, would then wait for the
///   group's turn behind loads in other sessions, tens of milliseconds charged to the engine
///   (measured: docs/matches.md, "Time losses under load"). In a session of its own the
///   engine's computing does not delay the runner's stamps.
///
/// A session protects nothing from a batch system, which signals every process of a job
/// (Slurm's SIGTERM on preemption, `scancel` or the time limit reaches the engines a few
/// milliseconds before the runner): so the engine also starts with SIGTERM and SIGINT ignored.
/// The runner alone decides when an engine ends (`quit`, then SIGKILL); an engine dying of
/// the runner's own interruption would otherwise be recorded as a crash, a game result that
/// never happened. (An engine that installs handlers of its own may still die of the signal:
/// the driver does not count a crash that comes with an interruption, see driver.rs.)
fn own_session(command: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: setsid and signal are async-signal-safe, as a pre_exec hook must be; they
        // touch no memory. An ignored disposition survives exec; handlers would not.
        unsafe {
            command.pre_exec(|| {
                if libc::setsid() == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                for signal in [libc::SIGTERM, libc::SIGINT] {
                    if libc::signal(signal, libc::SIG_IGN) == libc::SIG_ERR {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
    }
}

/// Option names compare ignoring case, blanks and underscores (as `steere` itself does).
fn normalise(name: &str) -> String {
    name.chars().filter(|c| !c.is_whitespace() && *c != '_').flat_map(char::to_lowercase).collect()
}

/// `exited with status 3`, `killed by signal 9`.
fn describe_status(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("the engine was killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("the engine exited with status {code}"),
        None => "the engine exited".to_string(),
    }
}

/// Picks `depth N` and `score cp X` / `score mate N` out of an `info` line.
fn read_info(line: &str, reply: &mut Reply) {
    let words: Vec<&str> = line.split_whitespace().collect();
    for (i, word) in words.iter().enumerate() {
        match *word {
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                    reply.depth = Some(d);
                }
            }
            "score" => {
                if let (Some(kind @ ("cp" | "mate")), Some(value)) =
                    (words.get(i + 1).copied(), words.get(i + 2))
                    && value.parse::<i64>().is_ok()
                {
                    reply.score = Some(format!("{kind} {value}"));
                }
            }
            "string" | "pv" => return,
            _ => {}
        }
    }
}

/// Reads one line into `line`, keeping at most [`MAX_LINE`] bytes of it; returns the number of
/// bytes consumed (0 at the end of the input).
fn read_capped_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut consumed = 0;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(consumed);
        }
        let (chunk, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (&buffer[..=i], true),
            None => (buffer, false),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let n = chunk.len();
        reader.consume(n);
        consumed += n;
        if done {
            return Ok(consumed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_long_lines() {
        let mut text = vec![b'x'; MAX_LINE + 10];
        text.extend_from_slice(b"\nnext\n");
        let mut reader = std::io::BufReader::with_capacity(1000, &text[..]);
        let mut line = Vec::new();
        assert_eq!(read_capped_line(&mut reader, &mut line).unwrap(), MAX_LINE + 11);
        assert_eq!(line.len(), MAX_LINE);
        line.clear();
        assert_eq!(read_capped_line(&mut reader, &mut line).unwrap(), 5);
        assert_eq!(line, b"next\n");
        line.clear();
        assert_eq!(read_capped_line(&mut reader, &mut line).unwrap(), 0);
    }

    #[test]
    fn reads_info_lines() {
        let mut reply = Reply::default();
        read_info("info depth 7 seldepth 9 score cp -35 nodes 100 pv a1b2 depth 99", &mut reply);
        assert_eq!((reply.depth, reply.score.as_deref()), (Some(7), Some("cp -35")));
        read_info("info string depth 3", &mut reply);
        assert_eq!(reply.depth, Some(7));
        read_info("info depth 12 score mate 3", &mut reply);
        assert_eq!((reply.depth, reply.score.as_deref()), (Some(12), Some("mate 3")));
        assert_eq!(normalise("Move_Overhead"), "moveoverhead");
    }
}
