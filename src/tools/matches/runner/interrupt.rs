//! SIGINT (Ctrl-C) and SIGTERM during a match: the handler only raises a flag, which the
//! driver turns into its stop flag, so that games in progress are abandoned, the finished ones
//! are already in the record file, and the report of the games played so far is printed. A
//! match stopped so exits with [`INTERRUPTED_STATUS`]: "interrupted, resumable with --resume".
//!
//! The signals are not alike, and neither are their repeats:
//! - a second SIGINT ends the process at once (status 130), as a user pressing Ctrl-C twice
//!   expects;
//! - a repeated SIGTERM changes nothing: batch systems send it more than once (Slurm signals
//!   every process of a job step, and again at the time limit), and the report being written
//!   must not be lost to it; SIGKILL follows if the runner takes too long.
//!
//! The handlers are installed once per process and only by a match, so that the other commands
//! keep the default behaviour of the signals. They use only atomics and `_exit`, which are
//! async-signal-safe.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit status of a match stopped by a signal: its games so far are in the record file
/// and its report is written; the same command with `--resume` continues it. 75 is
/// `EX_TEMPFAIL` of BSD's sysexits.h, "a temporary failure; the user is invited to retry",
/// which batch scripts can tell from a failure (status 1).
pub const INTERRUPTED_STATUS: u8 = 75;

/// Raised by the first SIGINT or SIGTERM.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// Raised by the first SIGINT: a second one ends the process.
static INTERRUPTED_BY_USER: AtomicBool = AtomicBool::new(false);

/// Installs the handlers (once; later calls do nothing).
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if let Err(e) = install_handlers() {
            // Not fatal: the match runs, it just cannot be stopped gracefully.
            eprintln!("steere: warning: cannot handle SIGINT/SIGTERM ({e}); an interrupt loses the report");
        }
    });
}

/// True once a signal has asked the match to stop.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// What the handlers do with `signal`, given the two flags: raises them, and returns true when
/// the process must end at once (a second SIGINT), which only the real handler does.
fn note(signal: i32, interrupted: &AtomicBool, by_user: &AtomicBool) -> bool {
    interrupted.store(true, Ordering::SeqCst);
    signal == SIGINT && by_user.swap(true, Ordering::SeqCst)
}

#[cfg(unix)]
const SIGINT: i32 = libc::SIGINT;
#[cfg(not(unix))]
const SIGINT: i32 = 2;

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    if note(signal, &INTERRUPTED, &INTERRUPTED_BY_USER) {
        // SAFETY: _exit is async-signal-safe and ends the process at once.
        unsafe { libc::_exit(130) };
    }
}

#[cfg(unix)]
fn install_handlers() -> std::io::Result<()> {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: a zeroed sigaction is valid; the handler only touches atomics (see above);
        // SA_RESTART keeps the runner's blocking reads and writes from failing with EINTR.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(signal, &action, std::ptr::null_mut()) != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn install_handlers() -> std::io::Result<()> {
    Err(std::io::Error::new(std::io::ErrorKind::Unsupported, "no signal handling on this system"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flag logic alone (a real signal would stop the test binary's other tests): the
    /// first signal interrupts, repeated SIGTERMs never end the process, a second SIGINT does.
    #[test]
    fn repeats_of_sigterm_are_ignored_and_a_second_sigint_ends() {
        let (interrupted, by_user) = (AtomicBool::new(false), AtomicBool::new(false));
        let note = |signal| note(signal, &interrupted, &by_user);
        assert!(!note(libc::SIGTERM));
        assert!(!note(libc::SIGTERM), "a repeated SIGTERM is ignored");
        assert!(!note(SIGINT), "the first SIGINT after a SIGTERM only interrupts");
        assert!(note(SIGINT), "a second SIGINT ends the process");
        assert!(interrupted.load(Ordering::SeqCst));
    }
}
