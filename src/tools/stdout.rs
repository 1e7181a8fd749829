//! The tools' results on stdout, where a closed pipe ends the run quietly.
//!
//! `println!` panics when stdout is a pipe whose reader has gone (`steere solve ... | head`).
//! The tools print through [`outln!`](crate::outln) and [`out!`](crate::out) instead: when
//! the reader has gone, nobody wants the rest, so the process ends at once without a message,
//! with exit status 141 (128 + SIGPIPE) like a Unix filter killed by the signal, so that a
//! `set -o pipefail` script still sees that the run was cut short. Any other write error is a
//! one-line error and exit status 1. (The protocol has its own output, which stops the engine
//! cleanly when the GUI goes away: see `protocol::output`.)

use std::io::{ErrorKind, Write};

/// The exit status of a run whose stdout reader went away (128 + SIGPIPE).
pub const BROKEN_PIPE_STATUS: i32 = 141;

/// Writes `text` to stdout and flushes it, or ends the process as the module docs say.
pub fn write(text: std::fmt::Arguments) {
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = stdout.write_fmt(text).and_then(|()| stdout.flush()) {
        if error.kind() == ErrorKind::BrokenPipe {
            std::process::exit(BROKEN_PIPE_STATUS);
        }
        eprintln!("steere: error: cannot write to stdout: {error}");
        std::process::exit(1);
    }
}

/// `print!` for the tools: a closed stdout ends the run quietly (see [`crate::tools::stdout`]).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::tools::stdout::write(format_args!($($arg)*)) };
}

/// `println!` for the tools: a closed stdout ends the run quietly (see [`crate::tools::stdout`]).
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => { $crate::tools::stdout::write(format_args!("{}\n", format_args!($($arg)*))) };
}
