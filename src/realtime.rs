//! Prompt wakeups for threads that only wait and then stamp or write: a real-time scheduling
//! priority where the system grants one.
//!
//! Why: the scheduler shares processors between groups of processes (a terminal session under
//! Linux's autogroup, a cgroup under systemd or a batch system), and a thread that wakes up in
//! a group kept busy by other work waits for its group's next turn, tens of milliseconds on a
//! loaded machine (measured: docs/matches.md, "Time losses under load"). A real-time thread is
//! scheduled before every ordinary one. Only threads that never compute ask for it: the
//! protocol's two answerers (they sleep until a deadline and write a line), the protocol's
//! input thread (it sleeps in `read`, stamps each line, the moment a `go`'s time starts, and
//! passes it on), the engine loop while it waits for a command and until a `go` is handed
//! to the answerers, and the match runner's readers of engine output (they sleep in `read`, stamp each
//! line and pass it on). Readers give it back when their input floods them ([`FloodGuard`]).
//!
//! A new thread inherits its creator's policy, so every thread that computes (a search and its
//! helpers) leaves real-time first thing, and the loop leaves it before any other command.
//!
//! The lowest real-time priority (`SCHED_FIFO` 1) is granted to root, to a process with
//! `CAP_SYS_NICE`, or within an `ulimit -r` limit; refused, the thread runs as before.

use std::time::{Duration, Instant};

/// Asks for the lowest real-time priority for the calling thread; true if granted.
pub fn request() -> bool {
    set_policy(true)
}

/// Gives the calling thread's real-time priority back (ordinary scheduling).
pub fn release() {
    set_policy(false);
}

/// Whether the calling thread runs at a real-time priority.
pub fn is_current() -> bool {
    current_policy()
}

#[cfg(target_os = "linux")]
fn current_policy() -> bool {
    // SAFETY: a plain system call on the calling thread (0).
    unsafe { libc::sched_getscheduler(0) == libc::SCHED_FIFO }
}

#[cfg(not(target_os = "linux"))]
fn current_policy() -> bool {
    false
}

#[cfg(target_os = "linux")]
fn set_policy(realtime: bool) -> bool {
    let (policy, priority) = if realtime { (libc::SCHED_FIFO, 1) } else { (libc::SCHED_OTHER, 0) };
    let param = libc::sched_param { sched_priority: priority };
    // SAFETY: a plain system call on the calling thread (0) with a valid parameter block.
    unsafe { libc::sched_setscheduler(0, policy, &param) == 0 }
}

#[cfg(not(target_os = "linux"))]
fn set_policy(_realtime: bool) -> bool {
    false
}

/// The processors this process may run on (its affinity mask: `taskset`, a cgroup's cpuset, a
/// batch system's allocation), in increasing order; empty where the system does not say.
pub fn allowed_cpus() -> Vec<usize> {
    allowed_cpu_list()
}

/// Keeps the calling thread on processor `cpu` from now on; false if refused. Why: a thread
/// that sleeps is woken by a timer of the processor it slept on, so two threads that must not
/// both be held by one stalled processor (the answerers of `src/protocol/answer.rs`) sleep on
/// two different ones.
pub fn pin_to(cpu: usize) -> bool {
    pin_thread(cpu)
}

#[cfg(target_os = "linux")]
fn allowed_cpu_list() -> Vec<usize> {
    // SAFETY: `set` is a plain bit set, zeroed, and its size is passed with it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize).filter(|&cpu| libc::CPU_ISSET(cpu, &set)).collect()
    }
}

#[cfg(not(target_os = "linux"))]
fn allowed_cpu_list() -> Vec<usize> {
    Vec::new()
}

#[cfg(target_os = "linux")]
fn pin_thread(cpu: usize) -> bool {
    if cpu >= libc::CPU_SETSIZE as usize {
        return false;
    }
    // SAFETY: `set` is a plain bit set, zeroed, with one bit in range; its size is passed with it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
    }
}

#[cfg(not(target_os = "linux"))]
fn pin_thread(_cpu: usize) -> bool {
    false
}

/// Most a real-time reader may read in one [`FLOOD_WINDOW`] before it gives its priority back.
/// Engines print a few kilobytes a move; a flooding one (`yes`) reaches this in microseconds.
pub const FLOOD_BYTES: usize = 1 << 20;
/// The window of [`FLOOD_BYTES`].
pub const FLOOD_WINDOW: Duration = Duration::from_secs(1);

/// Counts what a real-time reader reads, and gives its priority back for good once the rate
/// passes [`FLOOD_BYTES`] per [`FLOOD_WINDOW`]: a real-time thread that always has input would
/// otherwise keep a processor from every ordinary thread. Dropped, it gives the priority back.
pub struct FloodGuard {
    realtime: bool,
    window_start: Instant,
    window_bytes: usize,
}

impl FloodGuard {
    /// Asks for real-time priority for the calling thread and starts counting.
    pub fn start() -> FloodGuard {
        FloodGuard { realtime: request(), window_start: Instant::now(), window_bytes: 0 }
    }

    /// Counts `bytes` read; past the limit, the priority is released (once).
    pub fn count(&mut self, bytes: usize) {
        if !self.realtime {
            return;
        }
        if self.window_start.elapsed() > FLOOD_WINDOW {
            self.window_start = Instant::now();
            self.window_bytes = 0;
        }
        self.window_bytes += bytes;
        if self.window_bytes > FLOOD_BYTES {
            release();
            self.realtime = false;
        }
    }

    /// Whether the thread still runs at real-time priority.
    pub fn is_realtime(&self) -> bool {
        self.realtime
    }
}

impl Drop for FloodGuard {
    /// The reading is over: the thread goes back to ordinary scheduling (it may go on to
    /// other work, as a test's thread does).
    fn drop(&mut self) {
        if self.realtime {
            release();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_gives_the_priority_back() {
        let handle = std::thread::spawn(|| {
            let mut guard = FloodGuard::start();
            let granted = guard.is_realtime();
            guard.count(1000);
            let after_a_line = guard.is_realtime();
            guard.count(FLOOD_BYTES);
            (granted, after_a_line, guard.is_realtime())
        });
        let (granted, after_a_line, after_flood) = handle.join().unwrap();
        assert_eq!(after_a_line, granted, "a line changes nothing");
        assert!(!after_flood, "a flood always ends real-time priority");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_thread_pinned_to_an_allowed_processor_runs_there_only() {
        let cpus = allowed_cpus();
        assert!(!cpus.is_empty(), "Linux always says where a process may run");
        let last = *cpus.last().unwrap();
        let (pinned, now_allowed) =
            std::thread::spawn(move || (pin_to(last), allowed_cpus())).join().unwrap();
        assert!(pinned);
        assert_eq!(now_allowed, vec![last]);
        assert_eq!(allowed_cpus(), cpus, "pinning one thread leaves the others alone");
        assert!(!pin_to(usize::MAX), "a processor that cannot exist is refused");
    }
}
