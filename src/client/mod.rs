//! The engine client: an engine process driven over pipes with the UCI/UGI protocol
//! (docs/protocol.md), as the match runner and the GUI both drive theirs. Its files: this one
//! (the process and the conversation), `output.rs` (the reader of its output), `witness.rs` (the
//! witness of its pipe, on another processor), [`spec`] (an engine as the user writes it:
//! command and settings) and [`clock`] (time controls and the clock of a game).
//!
//! The scheme: the process is spawned with piped stdin and stdout, in a session of its own. A
//! reader thread (at real-time priority where granted, see `src/realtime.rs`) turns its stdout
//! into lines, each stamped with the [`Instant`] it was read, and queues them; the end of the
//! output is sent as [`Event::Eof`] (`client/output.rs`). The runner only ever waits on that
//! queue with a deadline, and a line stamped after the deadline ends the wait as surely as
//! silence, so an engine that hangs, floods or dies can never hang the runner: it misses its
//! deadline, floods (more output in a second than engines print: it loses and is killed at
//! once) or closes the queue. What is queued is bounded (at most `QUEUE_LINES` lines of at most
//! [`MAX_LINE`] bytes), so no output can exhaust the runner's memory.
//!
//! Only an answer to the current `go` counts: a `bestmove` stamped before the `go` was written
//! (a second `bestmove` after an answer, or one printed unasked) is a [`Fault::Protocol`], not
//! the answer to the next move. The one exception is a `bestmove` that may answer the `stop`
//! the runner sent to an engine late by its clock (the `stop` may have crossed its answer).
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

pub mod clock;
mod output;
pub mod spec;
#[cfg(test)]
mod tests;
mod witness;

pub use output::{Event, Line, MAX_LINE};

use output::FloodMeter;
use spec::{EngineSpec, Proto};
use std::io::Write;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long the `uci`/`uciok` handshake may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an `isready` may take to be answered (an engine may allocate its tables then).
pub const READY_TIMEOUT: Duration = Duration::from_secs(30);
/// How long an engine that missed its deadline may take to answer `stop` with its `bestmove`
/// before it is considered hung (and killed before its next game).
pub const STOP_GRACE: Duration = Duration::from_secs(1);
/// How long an engine told to `quit` may take to exit before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);

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
    /// The engine broke the conversation: a `bestmove` that answers no `go`, or a flood of
    /// output (then it has been killed). The text says which.
    Protocol(String),
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

/// A `go` as written: the moments before and after the write.
struct Asked {
    /// Just before the write: a line read before it does not answer this `go`.
    before: Instant,
    /// Just after the write: the engine's time starts.
    sent: Instant,
    /// One `bestmove` read before the `go` is excused (see `Engine::stop_crossed`).
    excused: bool,
}

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    /// A line read past the deadline of the wait that read it, kept for the next wait.
    pending: Option<Line>,
    /// Tells a flood of output from talk.
    meter: FloodMeter,
    /// The last answer to a `go` (`None` in a new game), to tell a second `bestmove` by.
    answered: Option<String>,
    /// True after a `stop` sent past a deadline was answered: the engine's answer to the `go`
    /// may have crossed the `stop`, which it may answer too (a `bestmove` answering nothing),
    /// so one early `bestmove` at the next `go` is excused.
    stop_crossed: bool,
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
        let events = output::spawn_reader(child.stdout.take().expect("stdout is piped"));
        let mut engine = Engine {
            child,
            stdin,
            events,
            pending: None,
            meter: FloodMeter::new(),
            answered: None,
            stop_crossed: false,
            proto: spec.proto,
            id_name: String::new(),
            broken: false,
        };
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
            Fault::Protocol(why) => why,
        };
        self.send(hello).map_err(describe)?;
        let (mut declared, mut id_name) = (Vec::new(), None);
        let mut read = |line: &str| {
            if let Some(name) = line.strip_prefix("id name ") {
                id_name = Some(name.trim().to_string());
            } else if let Some(rest) = line.strip_prefix("option name ") {
                // The name runs up to the ` type ` keyword.
                let name = rest.split(" type ").next().unwrap_or(rest);
                declared.push(normalise(name));
            }
        };
        self.wait_for(done, HANDSHAKE_TIMEOUT, &mut read).map_err(describe)?;
        self.id_name = id_name.unwrap_or_default();
        for (name, value) in &spec.options {
            if !declared.contains(&normalise(name)) {
                return Err(format!("the engine has no option '{name}'"));
            }
            self.send(&format!("setoption name {name} value {value}")).map_err(describe)?;
        }
        self.send("isready").map_err(describe)?;
        let mut error = None;
        let mut read = |line: &str| {
            if error.is_none() && line.starts_with("info string error") {
                error = Some(line.to_string());
            }
        };
        self.wait_for("readyok", READY_TIMEOUT, &mut read).map_err(describe)?;
        if let Some(error) = error {
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
    /// What the engine printed since its last answer is passed over (a `bestmove` too: it can
    /// no longer be taken for an answer).
    pub fn new_game(&mut self) -> Result<(), Fault> {
        let word = match self.proto {
            Proto::Uci => "ucinewgame",
            Proto::Ugi => "uginewgame",
        };
        (self.answered, self.stop_crossed) = (None, false);
        self.send(word)?;
        self.send("isready")?;
        self.wait_for("readyok", READY_TIMEOUT, &mut |_| {})
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
    ///
    /// Only a `bestmove` read after the `go` was written answers it: one read before (a second
    /// `bestmove` after the last answer, or one printed unasked) is a [`Fault::Protocol`].
    pub fn think(&mut self, position: &str, go: &str, timeout: Duration) -> Result<Reply, Fault> {
        self.send(position)?;
        let mut asked = self.ask(go)?;
        let deadline = asked.sent + timeout;
        let mut result = self.read_reply(&mut asked, deadline);
        if let Err(Fault::NoAnswer { .. }) = result
            && self.send("stop").is_ok()
        {
            match self.read_reply(&mut asked, Instant::now() + STOP_GRACE) {
                Ok(reply) => {
                    self.broken = false;
                    self.stop_crossed = true;
                    if reply.elapsed <= timeout {
                        result = Ok(reply);
                    }
                }
                // A flood or an unasked `bestmove` is the fault, rather than the lateness.
                Err(fault @ Fault::Protocol(_)) => result = Err(fault),
                Err(_) => self.broken = true,
            }
        }
        if let Ok(reply) = &result {
            self.answered = Some(reply.bestmove.clone());
        }
        result
    }

    /// Analyses `position` with `go infinite`, passing each `info` line to `each` as it comes,
    /// until `stop()` says so (it is asked after every line, and every 50 ms without one);
    /// then sends `stop` and waits [`STOP_GRACE`] for the `bestmove`, whose move it returns.
    /// Lines printed before the `go` are passed over as by [`Engine::think`].
    pub fn analyse(
        &mut self,
        position: &str,
        stop: &dyn Fn() -> bool,
        each: &mut dyn FnMut(&str),
    ) -> Result<String, Fault> {
        self.send(position)?;
        let mut asked = self.ask("go infinite")?;
        while !stop() {
            let Some(line) = self.receive(Duration::from_millis(50), "bestmove")? else { continue };
            if self.passed_over(&line, &mut asked)? {
                continue;
            }
            if line.text.starts_with("info ") {
                each(&line.text);
            } else if line.text.starts_with("bestmove") {
                return Ok(self.answer(&line.text));
            }
        }
        self.send("stop")?;
        let deadline = Instant::now() + STOP_GRACE;
        loop {
            let line = self.next_line(deadline, "bestmove", asked.sent)?;
            if !self.passed_over(&line, &mut asked)? && line.text.starts_with("bestmove") {
                return Ok(self.answer(&line.text));
            }
        }
    }

    /// Writes `go`, stamping the moments before and after the write.
    fn ask(&mut self, go: &str) -> Result<Asked, Fault> {
        // The stamp before the write tells what cannot answer this `go`: the line of a prompt
        // answer could be stamped before the stamp after the write (the runner's thread may
        // wait for a processor between the write and that stamp), never before this one.
        let before = Instant::now();
        self.send(go)?;
        Ok(Asked { before, sent: Instant::now(), excused: std::mem::take(&mut self.stop_crossed) })
    }

    /// Reads `info` lines until the `bestmove` that answers `asked`, or the deadline.
    fn read_reply(&mut self, asked: &mut Asked, deadline: Instant) -> Result<Reply, Fault> {
        let mut reply = Reply::default();
        loop {
            let line = self.next_line(deadline, "bestmove", asked.sent)?;
            if self.passed_over(&line, asked)? {
                continue;
            }
            let mut words = line.text.split_whitespace();
            match words.next() {
                Some("bestmove") => {
                    reply.bestmove = words.next().unwrap_or("").to_string();
                    reply.elapsed = line.at.saturating_duration_since(asked.sent);
                    return Ok(reply);
                }
                Some("info") => read_info(&line.text, &mut reply),
                _ => {}
            }
        }
    }

    /// True for a line read before `asked` was written, which answers nothing and is passed
    /// over, unless it is a `bestmove`: that is a fault (bar one excused by a crossed `stop`).
    fn passed_over(&mut self, line: &Line, asked: &mut Asked) -> Result<bool, Fault> {
        if line.at >= asked.before {
            return Ok(false);
        }
        let mut words = line.text.split_whitespace();
        if words.next() != Some("bestmove") || std::mem::take(&mut asked.excused) {
            return Ok(true);
        }
        let unasked = words.next().unwrap_or("");
        self.broken = true;
        Err(Fault::Protocol(match &self.answered {
            Some(answer) => format!("a second bestmove '{unasked}' after its answer '{answer}'"),
            None => format!("a bestmove '{unasked}' before its go"),
        }))
    }

    /// The move of a `bestmove` line, remembered as the last answer.
    fn answer(&mut self, line: &str) -> String {
        let answer = line.split_whitespace().nth(1).unwrap_or("").to_string();
        self.answered = Some(answer.clone());
        answer
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

    /// Reads lines until one whose first word is `word`, passing each line before it to `each`.
    fn wait_for(
        &mut self,
        word: &'static str,
        timeout: Duration,
        each: &mut dyn FnMut(&str),
    ) -> Result<(), Fault> {
        let start = Instant::now();
        loop {
            let line = self.next_line(start + timeout, word, start)?;
            if line.text.split_whitespace().next() == Some(word) {
                return Ok(());
            }
            each(&line.text);
        }
    }

    /// The next line, or a fault at the deadline, the end of the output or a flood. A missed
    /// deadline marks the engine broken: it may answer later and would then be out of step.
    /// A line stamped after the deadline misses it as silence would (the runner may read it
    /// late, behind a flood or its own delay), and is kept for the next wait.
    fn next_line(&mut self, deadline: Instant, awaited: &'static str, since: Instant) -> Result<Line, Fault> {
        match self.receive(deadline.saturating_duration_since(Instant::now()), awaited)? {
            Some(line) if line.at <= deadline => Ok(line),
            late => {
                self.pending = late;
                self.broken = true;
                Err(Fault::NoAnswer { awaited, waited: since.elapsed() })
            }
        }
    }

    /// The next line within `wait` (`None` if none came), or a fault at the end of the output
    /// or at a flood, while `awaited` was awaited. A flooding engine is killed at once: it
    /// would keep its reader busy, and out of step.
    fn receive(&mut self, wait: Duration, awaited: &str) -> Result<Option<Line>, Fault> {
        if let Some(line) = self.pending.take() {
            return Ok(Some(line));
        }
        match self.events.recv_timeout(wait) {
            Ok(Event::Line(line)) => match self.meter.count(&line) {
                None => Ok(Some(line)),
                Some(passed) => {
                    self.kill();
                    let doing = if awaited == "bestmove" {
                        "thinking".to_string()
                    } else {
                        format!("awaiting '{awaited}'")
                    };
                    Err(Fault::Protocol(format!("flooded its output: {passed} while {doing}")))
                }
            },
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.broken = true;
                Err(Fault::Crash(self.exit_description("the engine closed its output")))
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
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
///   (src/tools/matches/runner/interrupt.rs) and ends the engines itself, instead of every engine
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
