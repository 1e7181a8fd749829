//! An engine's output as the runner reads it: a reader thread that cuts it into stamped lines
//! and queues them, within bounds, and the meter that tells a flood from talk.
//!
//! Bounds, so that no output can exhaust the runner's memory or its attention:
//! - a line is kept up to [`MAX_LINE`] bytes (the rest of a longer one is read and dropped, so
//!   output without line ends is no line at all: the engine then loses on time);
//! - at most [`QUEUE_LINES`] lines wait for the runner: when they are not taken, the reader
//!   stops reading, the pipe fills and the engine blocks in its write. What is held for an
//!   engine is thus at most `QUEUE_LINES` × `MAX_LINE` bytes (16 MiB; a few kilobytes for an
//!   engine that talks as engines do), whatever it prints;
//! - an engine that prints more than [`FLOOD_BYTES`] bytes or [`FLOOD_LINES`] lines within one
//!   [`FLOOD_WINDOW`] floods ([`FloodMeter`]): it loses (`protocol`) and is killed at once
//!   (src/client/mod.rs). Engines print a few kilobytes a move; `yes` passes the limit in milliseconds.
//!   It is the rate at which the reader gives its real-time priority back (src/realtime.rs),
//!   counted again on the runner's side because a reader that lost its priority still reads.

use super::witness::{self, Counted, Witness};
use std::io::{BufRead, BufReader, Read};
use std::os::fd::AsFd;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::{Duration, Instant};

/// The longest line kept whole; the rest of a longer line is dropped.
pub const MAX_LINE: usize = 64 * 1024;
/// How many lines may wait for the runner before the reader stops reading.
pub const QUEUE_LINES: usize = 256;
// What may wait for the runner, at the very worst (every line as long as it may be): the bound
// the module documents.
const _: () = assert!(QUEUE_LINES * MAX_LINE <= 16 << 20);
/// Most bytes an engine may print within one [`FLOOD_WINDOW`].
pub const FLOOD_BYTES: usize = crate::realtime::FLOOD_BYTES;
/// Most lines an engine may print within one [`FLOOD_WINDOW`] (short lines cost the runner
/// per line: an average of 64 bytes a line at the byte limit).
pub const FLOOD_LINES: usize = FLOOD_BYTES / 64;
/// The window of [`FLOOD_BYTES`] and [`FLOOD_LINES`].
pub const FLOOD_WINDOW: Duration = crate::realtime::FLOOD_WINDOW;

/// A line of output.
#[derive(Debug)]
pub struct Line {
    /// When the reader read it.
    pub at: Instant,
    /// The text, without its line end (cut at [`MAX_LINE`] bytes).
    pub text: String,
    /// The bytes it took in the output, line end and dropped part included.
    pub bytes: usize,
}

/// What the reader thread reports.
#[derive(Debug)]
pub enum Event {
    /// A line of output.
    Line(Line),
    /// The engine closed its output (it exited or crashed).
    Eof,
}

/// Starts the reader thread of `output` and returns the queue it fills. Where the process may
/// use two processors, the reader is pinned to the first and a witness of the pipe
/// (`witness.rs`) to the second, so that one processor held by the host does not delay the
/// stamps.
pub fn spawn_reader(output: impl Read + AsFd + Send + 'static) -> Receiver<Event> {
    let cpus = crate::realtime::allowed_cpus();
    let witness = match cpus[..] {
        [_, second, ..] => witness::start(output.as_fd(), second),
        _ => None,
    };
    let cpu = cpus.first().copied().filter(|_| witness.is_some());
    spawn_reader_with(output, witness, cpu)
}

/// [`spawn_reader`] with the witness given (if any), the reader pinned to `cpu` (if any).
fn spawn_reader_with(
    output: impl Read + Send + 'static,
    witness: Option<Arc<Witness>>,
    cpu: Option<usize>,
) -> Receiver<Event> {
    let (sender, events) = sync_channel(QUEUE_LINES);
    // Detached on purpose: it ends when the engine's output closes or the queue is dropped,
    // and the runner never waits for it (an engine's grandchild could keep the pipe open).
    std::thread::spawn(move || {
        if let Some(cpu) = cpu {
            crate::realtime::pin_to(cpu);
        }
        // It stamps the engine's answers: it must not wait for a processor when a line comes,
        // so it asks for real-time priority (src/realtime.rs), and gives it back if the engine
        // floods it.
        let mut guard = crate::realtime::FloodGuard::start();
        let counted = Counted { inner: output, witness: witness.clone() };
        read_lines(counted, &sender, &mut |bytes| guard.count(bytes), witness.as_deref());
        if let Some(witness) = witness {
            witness.end();
        }
    });
    events
}

/// Reads `output` line by line, stamping each line as it is read (or when `witness` first saw
/// its last byte waiting, if earlier) and sending it; `count` is told the bytes as they are
/// read (output without line ends too). Returns at the end of the output (sent as
/// [`Event::Eof`]) or when nobody receives any more.
fn read_lines(
    output: impl Read,
    sender: &SyncSender<Event>,
    count: &mut dyn FnMut(usize),
    witness: Option<&Witness>,
) {
    let mut reader = BufReader::new(output);
    let mut line = Vec::new();
    let mut offset = 0u64;
    loop {
        line.clear();
        match read_capped_line(&mut reader, &mut line, count) {
            Ok(0) | Err(_) => {
                let _ = sender.send(Event::Eof);
                return;
            }
            Ok(bytes) => {
                offset += bytes as u64;
                let read_at = Instant::now();
                let at = witness.and_then(|w| w.seen(offset)).map_or(read_at, |seen| seen.min(read_at));
                let text = String::from_utf8_lossy(&line).trim_end_matches(['\n', '\r']).to_string();
                if sender.send(Event::Line(Line { at, text, bytes })).is_err() {
                    return;
                }
            }
        }
    }
}

/// Reads one line into `line`, keeping at most [`MAX_LINE`] bytes of it; returns the number of
/// bytes consumed (0 at the end of the input), each chunk of which is told to `count` as it is
/// consumed.
fn read_capped_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    count: &mut dyn FnMut(usize),
) -> std::io::Result<usize> {
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
        count(n);
        consumed += n;
        if done {
            return Ok(consumed);
        }
    }
}

/// Counts an engine's output in windows of [`FLOOD_WINDOW`], by the stamps of its lines.
#[derive(Debug)]
pub struct FloodMeter {
    window_start: Option<Instant>,
    bytes: usize,
    lines: usize,
}

impl FloodMeter {
    /// A meter that has counted nothing.
    pub fn new() -> FloodMeter {
        FloodMeter { window_start: None, bytes: 0, lines: 0 }
    }

    /// Counts `line`; returns the limit passed (`more than 16384 lines in 1 s`) once the output
    /// of one window passes one.
    pub fn count(&mut self, line: &Line) -> Option<String> {
        match self.window_start {
            Some(start) if line.at.saturating_duration_since(start) <= FLOOD_WINDOW => {}
            _ => *self = FloodMeter { window_start: Some(line.at), bytes: 0, lines: 0 },
        }
        self.bytes += line.bytes;
        self.lines += 1;
        let passed = if self.bytes > FLOOD_BYTES {
            format!("{FLOOD_BYTES} bytes")
        } else if self.lines > FLOOD_LINES {
            format!("{FLOOD_LINES} lines")
        } else {
            return None;
        };
        Some(format!("more than {passed} in {} s", FLOOD_WINDOW.as_secs_f64()))
    }
}

impl Default for FloodMeter {
    fn default() -> FloodMeter {
        FloodMeter::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A pipe whose reader is held 300 ms before each read (its processor is held by the host).
    struct Held(std::io::PipeReader);

    impl Read for Held {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            std::thread::sleep(Duration::from_millis(300));
            self.0.read(buf)
        }
    }

    impl AsFd for Held {
        fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
            self.0.as_fd()
        }
    }

    /// A line read late by a held reader is stamped when it reached the pipe, by the witness
    /// on the other processor; the stream's lines and their order are the same.
    #[test]
    fn a_held_reader_is_not_charged_to_the_engine() {
        if crate::realtime::allowed_cpus().len() < 2 {
            eprintln!("one processor only: no witness to test");
            return;
        }
        let (pipe, mut writer) = std::io::pipe().unwrap();
        let events = spawn_reader(Held(pipe));
        std::thread::sleep(Duration::from_millis(50));
        let written = Instant::now();
        writer.write_all(b"info depth 1\nbestmove a1b2\n").unwrap();
        let mut lines = Vec::new();
        for _ in 0..2 {
            match events.recv().unwrap() {
                Event::Line(line) => lines.push(line),
                Event::Eof => panic!("early end"),
            }
        }
        assert!(written.elapsed() >= Duration::from_millis(200), "the reader was held");
        assert_eq!(lines[1].text, "bestmove a1b2");
        let stamp = lines[1].at.saturating_duration_since(written);
        // Generous against a loaded test machine; the reader itself read it 300 ms late.
        assert!(stamp < Duration::from_millis(150), "stamped {stamp:?} after the write");
        drop(writer);
        assert!(matches!(events.recv(), Ok(Event::Eof)));
    }

    #[test]
    fn caps_long_lines() {
        let mut text = vec![b'x'; MAX_LINE + 10];
        text.extend_from_slice(b"\nnext\n");
        let mut reader = std::io::BufReader::with_capacity(1000, &text[..]);
        let (mut line, mut counted) = (Vec::new(), 0);
        let mut count = |n| counted += n;
        assert_eq!(read_capped_line(&mut reader, &mut line, &mut count).unwrap(), MAX_LINE + 11);
        assert_eq!(line.len(), MAX_LINE);
        line.clear();
        assert_eq!(read_capped_line(&mut reader, &mut line, &mut count).unwrap(), 5);
        assert_eq!(line, b"next\n");
        line.clear();
        assert_eq!(read_capped_line(&mut reader, &mut line, &mut count).unwrap(), 0);
        assert_eq!(counted, MAX_LINE + 16, "every byte read is counted");
    }

    /// Endless output (`yes`), counting what has been read of it.
    struct Yes(Arc<AtomicUsize>);

    impl Read for Yes {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let text = b"info string flood\n";
            let n = buf.len().min(text.len());
            buf[..n].copy_from_slice(&text[..n]);
            self.0.fetch_add(n, Ordering::SeqCst);
            Ok(n)
        }
    }

    #[test]
    fn a_reader_stops_reading_when_its_lines_are_not_taken() {
        let read = Arc::new(AtomicUsize::new(0));
        let events = spawn_reader_with(Yes(read.clone()), None, None);
        std::thread::sleep(Duration::from_millis(300));
        // The queue, the line in hand and the reader's buffer (8 KiB), and nothing more.
        let bound = (QUEUE_LINES + 2) * 18 + 8 * 1024;
        assert!(read.load(Ordering::SeqCst) <= bound, "{} bytes read", read.load(Ordering::SeqCst));
        assert!(matches!(events.recv(), Ok(Event::Line(Line { bytes: 18, .. }))));
        drop(events);
    }

    fn line(at: Instant, bytes: usize) -> Line {
        Line { at, text: String::new(), bytes }
    }

    #[test]
    fn the_meter_tells_a_flood_from_talk() {
        let start = Instant::now();
        let mut meter = FloodMeter::new();
        // Long lines: the byte limit; a window later the count starts again.
        assert_eq!(meter.count(&line(start, FLOOD_BYTES)), None);
        assert_eq!(meter.count(&line(start + FLOOD_WINDOW * 2, FLOOD_BYTES)), None);
        let flooded = meter.count(&line(start + FLOOD_WINDOW * 2, 1));
        assert_eq!(flooded.as_deref(), Some("more than 1048576 bytes in 1 s"));
        // Short lines: the line limit.
        let mut meter = FloodMeter::new();
        let at = |i: usize| start + Duration::from_micros(i as u64);
        assert!((0..FLOOD_LINES).all(|i| meter.count(&line(at(i), 1)).is_none()));
        assert_eq!(meter.count(&line(at(FLOOD_LINES), 1)).as_deref(), Some("more than 16384 lines in 1 s"));
    }
}
