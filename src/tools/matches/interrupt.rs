//! SIGINT (Ctrl-C) and SIGTERM during a match: the handler only raises a flag, which the
//! driver turns into its stop flag, so that games in progress are abandoned, the finished ones
//! are already in the record file, and the report of the games played so far is printed.
//!
//! The handler is installed once per process (the `ctrlc` crate allows one) and only by a
//! match, so that the other commands keep the default behaviour of the signals.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

/// Raised by the first SIGINT or SIGTERM.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Installs the handler (once; later calls do nothing). A second signal while the match winds
/// down ends the process at once, as a user pressing Ctrl-C twice expects.
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let result = ctrlc::set_handler(|| {
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
        if let Err(e) = result {
            // Not fatal: the match runs, it just cannot be stopped gracefully.
            eprintln!("steere: warning: cannot handle SIGINT/SIGTERM ({e}); an interrupt loses the report");
        }
    });
}

/// True once a signal has asked the match to stop.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
