//! Driving the real `steere` binary over pipes, for the protocol and CodinGame suites.
//!
//! [`Engine`] starts the binary with piped stdin, stdout and stderr. A reader thread turns
//! stdout into timestamped lines on a channel, so every read has a timeout (`recv_timeout`): a
//! bug makes a test fail with the transcript, never hang the test run. Another thread collects
//! stderr, which [`Engine::finish`] checks for panics after the engine has exited.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long an answer the engine owes may take before the test fails. Generous, because the
/// machine running the tests may be loaded; it bounds hangs, not speed.
pub const ANSWER: Duration = Duration::from_secs(30);

/// A running engine and the transcript of the conversation.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// The thread collecting stderr: it ends when the engine has exited and its stderr is read.
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    /// Every line sent (`> ...`) and received (`< ...`), for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts `steere` with `args` (none: the protocol loop).
    pub fn start(args: &[&str]) -> Engine {
        Engine::spawn(args, true)
    }

    /// Starts `steere` and closes the read end of its stdout at once (a GUI that has gone).
    pub fn start_deaf(args: &[&str]) -> Engine {
        Engine::spawn(args, false)
    }

    fn spawn(args: &[&str], listen: bool) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_steere"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the steere binary starts");
        let stdout: ChildStdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        if listen {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buffer = Vec::new();
                loop {
                    buffer.clear();
                    match reader.read_until(b'\n', &mut buffer) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {
                            let line =
                                String::from_utf8_lossy(&buffer).trim_end_matches(['\n', '\r']).to_string();
                            if sender.send((Instant::now(), line)).is_err() {
                                return;
                            }
                        }
                    }
                }
            });
        } else {
            drop(stdout);
        }
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut child_stderr = child.stderr.take().unwrap();
        let sink = stderr.clone();
        let stderr_reader = std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = child_stderr.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buffer[..n]);
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, lines, stderr, stderr_reader: Some(stderr_reader), transcript: Vec::new() }
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {}", shorten(line)));
        self.write(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes, as they are.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.transcript.push(format!("> ({} raw bytes)", bytes.len()));
        self.write(bytes);
    }

    fn write(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin
            .write_all(bytes)
            .and_then(|()| stdin.flush())
            .unwrap_or_else(|e| self.fail(&format!("write: {e}")));
    }

    /// Closes the engine's input (end of input).
    pub fn close_input(&mut self) {
        self.transcript.push("> (end of input)".to_string());
        self.stdin = None;
    }

    /// The next line within `timeout`, with the instant it was read.
    pub fn recv(&mut self, timeout: Duration) -> Option<(Instant, String)> {
        match self.lines.recv_timeout(timeout) {
            Ok((at, line)) => {
                self.transcript.push(format!("< {}", shorten(&line)));
                Some((at, line))
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `done`; returns them all (the matching one last).
    pub fn until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + ANSWER;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some((_, line)) => {
                    let finished = done(&line);
                    lines.push(line);
                    if finished {
                        return lines;
                    }
                }
                None => self.fail(&format!("no {what} within {ANSWER:?}")),
            }
        }
    }

    /// Reads lines until one satisfies `done` and returns it with its arrival time.
    pub fn wait_for(&mut self, what: &str, done: impl Fn(&str) -> bool) -> (Instant, String) {
        let deadline = Instant::now() + ANSWER;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some((at, line)) if done(&line) => return (at, line),
                Some(_) => {}
                None => self.fail(&format!("no {what} within {ANSWER:?}")),
            }
        }
    }

    /// Sends `isready` and returns the lines printed before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok", |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends `isready` and checks that nothing else was printed since the last read.
    pub fn sync_quiet(&mut self) {
        let lines = self.sync();
        if !lines.is_empty() {
            self.fail(&format!("unexpected output: {lines:?}"));
        }
    }

    /// Sends `isready` and returns the `info string` messages printed before `readyok`, which
    /// must all be errors (and at least one).
    pub fn sync_errors(&mut self) -> Vec<String> {
        let lines = self.sync();
        if lines.is_empty() || !lines.iter().all(|l| l.starts_with("info string error: ")) {
            self.fail(&format!("expected error messages, got {lines:?}"));
        }
        lines
    }

    /// `query Q` → the text after `response `.
    pub fn query(&mut self, question: &str) -> String {
        self.send(&format!("query {question}"));
        let (_, line) = self.wait_for("response", |l| l.starts_with("response "));
        line["response ".len()..].to_string()
    }

    /// Checks that no line satisfying `bad` arrives within `time` (other lines are skipped).
    pub fn none_within(&mut self, time: Duration, what: &str, bad: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + time;
        while let Some((_, line)) = self.recv(deadline.saturating_duration_since(Instant::now())) {
            if bad(&line) {
                self.fail(&format!("unexpected {what}: {line}"));
            }
        }
    }

    /// Waits for the process to end within `timeout`, and for its stderr to be collected (so
    /// that [`Engine::stderr`] then holds everything it wrote, however loaded the machine).
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                // The pipe's write end closed with the process (steere starts no children), so
                // the reader reaches the end of its input and stops.
                if let Some(reader) = self.stderr_reader.take() {
                    let _ = reader.join();
                }
                return status;
            }
            if Instant::now() > deadline {
                self.fail(&format!("the engine did not exit within {timeout:?}"));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Drains the remaining output (after the engine has exited).
    pub fn rest(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Some((_, line)) = self.recv(Duration::from_millis(200)) {
            lines.push(line);
        }
        lines
    }

    /// What the engine wrote on stderr.
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Checks that the engine exits cleanly after `quit` and never panicked.
    pub fn finish(mut self) {
        self.send("quit");
        let status = self.wait_exit(ANSWER);
        self.check_exit(status);
    }

    /// Checks a clean exit (status 0, nothing alarming on stderr).
    pub fn check_exit(&mut self, status: ExitStatus) {
        let stderr = self.stderr();
        if !status.success() || stderr.contains("panicked") {
            self.fail(&format!("unclean exit: {status}; stderr: {stderr}"));
        }
    }

    /// Fails the test with the transcript.
    pub fn fail(&self, message: &str) -> ! {
        let start = self.transcript.len().saturating_sub(60);
        panic!("{message}\n--- transcript (last 60 lines) ---\n{}", self.transcript[start..].join("\n"));
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A line shortened for the transcript.
fn shorten(line: &str) -> String {
    if line.len() <= 200 {
        return line.to_string();
    }
    let cut = (0..=200).rev().find(|&i| line.is_char_boundary(i)).unwrap_or(0);
    format!("{}... ({} bytes)", &line[..cut], line.len())
}
