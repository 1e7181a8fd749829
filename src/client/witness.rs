//! The second stamper of an engine's output: a thread on another processor than the reader's
//! that notes when the engine's bytes reach the pipe, so that a reader held up is not charged to
//! the engine.
//!
//! Why: the reader stamps each line when it reads it (src/client/output.rs), and a
//! thread is woken on the processor it slept on. On a virtual machine the host now and then holds
//! one processor for up to 100 ms (`benches/stalls.rs` measures it): a `bestmove` written on time
//! is then read, and stamped, that much later, and the engine loses on time for the runner's
//! pause. The witness sleeps in `poll` on its own copy of the pipe's descriptor, pinned to
//! another processor, and each time it finds bytes waiting it notes the moment and how many
//! bytes had arrived by then (bytes taken by the reader plus bytes waiting). A line is stamped
//! with the earlier of the reader's moment and the first moment the witness saw its last byte.
//!
//! The counts only ever err towards the engine's cost: the reader adds what it took after its
//! read returns, and the witness reads that count before asking how much waits, so a moment is
//! never paired with more bytes than had arrived by then.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::SeqCst};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Longest sleep of the witness while bytes wait unread (the reader is held, or the runner
/// takes no lines): it looks again at once while more keeps arriving, backing off to this.
const MOST_WAITING_SLEEP: Duration = Duration::from_millis(4);
/// How often a witness with nothing to see wakes to notice that the reader has ended.
const IDLE_WAKE_MS: i32 = 1000;
/// Most moments kept (oldest dropped): the reader takes them as it reads.
const MOST_MOMENTS: usize = 4096;

/// What the reader and its witness share.
#[derive(Default)]
pub struct Witness {
    /// Bytes the reader has taken from the pipe.
    taken: AtomicU64,
    /// Moments the witness saw bytes waiting, with how many had arrived by then (increasing).
    moments: Mutex<VecDeque<(Instant, u64)>>,
    /// Raised when the reader has ended: the witness ends too.
    ended: AtomicBool,
}

impl Witness {
    /// Counts `bytes` taken from the pipe by the reader (after its read returned).
    pub fn taken(&self, bytes: usize) {
        self.taken.fetch_add(bytes as u64, SeqCst);
    }

    /// The first moment the witness saw the byte that ends at stream offset `end` waiting (the
    /// stream's first `end` bytes had all arrived), if it saw it; forgets the moments that only
    /// earlier bytes need. Offsets must be asked in increasing order.
    pub fn seen(&self, end: u64) -> Option<Instant> {
        let mut moments = self.moments.lock().unwrap_or_else(|p| p.into_inner());
        while moments.front().is_some_and(|&(_, arrived)| arrived < end) {
            moments.pop_front();
        }
        moments.front().map(|&(at, _)| at)
    }

    /// Tells the witness that the reader has ended.
    pub fn end(&self) {
        self.ended.store(true, SeqCst);
    }

    fn note(&self, at: Instant, arrived: u64) {
        let mut moments = self.moments.lock().unwrap_or_else(|p| p.into_inner());
        if moments.back().is_none_or(|&(_, last)| arrived > last) {
            if moments.len() == MOST_MOMENTS {
                moments.pop_front();
            }
            moments.push_back((at, arrived));
        }
    }
}

/// Starts the witness of the pipe `fd` on processor `cpu` (the reader runs on another), with
/// a copy of the descriptor of its own (closed when it ends, so the number cannot be reused
/// under it). `None` where it cannot be had: the reader's stamps alone are used then.
#[cfg(target_os = "linux")]
pub fn start(fd: std::os::fd::BorrowedFd<'_>, cpu: usize) -> Option<Arc<Witness>> {
    let own = fd.try_clone_to_owned().ok()?;
    let witness = Arc::new(Witness::default());
    let shared = witness.clone();
    std::thread::Builder::new()
        .name("output witness".into())
        .spawn(move || {
            crate::realtime::pin_to(cpu);
            crate::realtime::request();
            watch(&own, &shared);
        })
        .ok()?;
    Some(witness)
}

/// No witness off Linux.
#[cfg(not(target_os = "linux"))]
pub fn start(_fd: std::os::fd::BorrowedFd<'_>, _cpu: usize) -> Option<Arc<Witness>> {
    None
}

/// Notes the moments bytes wait in `fd` until the reader ends or the pipe's writer closes it.
#[cfg(target_os = "linux")]
fn watch(fd: &std::os::fd::OwnedFd, witness: &Witness) {
    use std::os::fd::AsRawFd;
    let mut sleep = Duration::ZERO;
    let mut last_arrived = 0;
    while !witness.ended.load(SeqCst) {
        let mut poll = libc::pollfd { fd: fd.as_raw_fd(), events: libc::POLLIN, revents: 0 };
        // SAFETY: one valid pollfd, its count, and a timeout.
        let ready = unsafe { libc::poll(&mut poll, 1, IDLE_WAKE_MS) };
        let at = Instant::now();
        if ready < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return;
        }
        if ready == 0 {
            continue;
        }
        // The reader's count first: see the module's note on erring towards the engine.
        let taken = witness.taken.load(SeqCst);
        let mut waiting: libc::c_int = 0;
        // SAFETY: FIONREAD writes one int through the pointer.
        if unsafe { libc::ioctl(fd.as_raw_fd(), libc::FIONREAD, &mut waiting) } != 0 {
            return;
        }
        if waiting <= 0 {
            if poll.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
                // The writer has closed the pipe and all is read.
                return;
            }
            // The reader took the bytes between poll and the count.
            sleep = Duration::ZERO;
            continue;
        }
        let arrived = taken + waiting as u64;
        witness.note(at, arrived);
        // Bytes wait until the reader takes them: poll would return at once, so look again
        // after a pause, short while more arrives.
        sleep = if arrived > last_arrived {
            Duration::from_micros(250)
        } else {
            (sleep * 2).min(MOST_WAITING_SLEEP)
        };
        last_arrived = arrived;
        std::thread::sleep(sleep);
    }
}

/// A reader that counts what it takes for its witness.
pub struct Counted<R> {
    /// The pipe.
    pub inner: R,
    /// Told every byte taken.
    pub witness: Option<Arc<Witness>>,
}

impl<R: std::io::Read> std::io::Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Some(witness) = &self.witness {
            witness.taken(n);
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_seen_when_its_last_byte_had_arrived() {
        let witness = Witness::default();
        let t0 = Instant::now();
        let at = |ms| t0 + Duration::from_millis(ms);
        witness.note(at(1), 10);
        witness.note(at(2), 10); // nothing new: not kept
        witness.note(at(3), 25);
        witness.note(at(5), 40);
        assert_eq!(witness.seen(4), Some(at(1)));
        assert_eq!(witness.seen(10), Some(at(1)));
        assert_eq!(witness.seen(11), Some(at(3)), "bytes 11-25 were first seen at 3 ms");
        assert_eq!(witness.seen(40), Some(at(5)));
        assert_eq!(witness.seen(41), None, "not seen yet: the reader's own stamp counts");
    }
}
