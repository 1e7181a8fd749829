//! All output of the protocol: one shared, locked writer, and the text of `info` and
//! `bestmove` lines.
//!
//! The engine loop and the search thread both write, so every write goes through one
//! [`Output`]: a mutex around the writer, whole lines only (a group of lines, such as the board
//! of `d`, is written under one lock so that an `info` line cannot land in the middle), each
//! flushed at once because a GUI waits for it. A failed write (typically `EPIPE`: the GUI has
//! gone and closed the pipe) is not an error to report, since there is no one to report it to:
//! the output marks itself closed, later writes are skipped, and the engine loop, which checks
//! [`Output::is_closed`], ends quietly. (`println!` would panic instead, which is why the
//! protocol never uses it.)

use crate::game::Rules;
use crate::search::{Score, SearchInfo};
use std::fmt::Display;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The shared output; cheap to clone (all clones write to the same writer).
#[derive(Clone)]
pub struct Output {
    shared: Arc<Shared>,
}

struct Shared {
    writer: Mutex<Box<dyn Write + Send>>,
    closed: AtomicBool,
}

impl Output {
    /// An output writing to `writer` (stdout, or a buffer in tests).
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output {
            shared: Arc::new(Shared { writer: Mutex::new(Box::new(writer)), closed: AtomicBool::new(false) }),
        }
    }

    /// Writes one line and flushes it.
    pub fn line(&self, text: &str) {
        self.lines(std::slice::from_ref(&text));
    }

    /// Writes several lines at once (no other output between them) and flushes them.
    pub fn lines<S: AsRef<str>>(&self, lines: &[S]) {
        self.lines_unless(&AtomicBool::new(false), lines);
    }

    /// Writes `lines` as [`Output::lines`] does, unless `closed` is raised; the flag is read
    /// under the writer's lock, so a thread that raises it and then writes is sure to write
    /// after these lines, or that they are not written.
    pub fn lines_unless<S: AsRef<str>>(&self, closed: &AtomicBool, lines: &[S]) {
        if self.is_closed() {
            return;
        }
        // A writer poisoned by a panicking thread is still a writer: keep using it.
        let mut writer = self.shared.writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if closed.load(Ordering::SeqCst) {
            return;
        }
        let mut result = Ok(());
        for line in lines {
            result = result.and_then(|()| writer.write_all(line.as_ref().as_bytes()));
            result = result.and_then(|()| writer.write_all(b"\n"));
        }
        if result.and_then(|()| writer.flush()).is_err() {
            self.shared.closed.store(true, Ordering::SeqCst);
        }
    }

    /// `info string MESSAGE`: the protocol's way to tell the user something. Control
    /// characters are escaped, so that a message quoting the input stays one line.
    pub fn info_string(&self, message: &str) {
        let mut line = String::from("info string ");
        for c in message.chars() {
            if c.is_control() { line.extend(c.escape_default()) } else { line.push(c) }
        }
        self.line(&line);
    }

    /// True once a write has failed: nobody reads the output any more.
    pub fn is_closed(&self) -> bool {
        self.shared.closed.load(Ordering::SeqCst)
    }
}

/// The UCI form of a score: `cp X` for a heuristic score, `mate N` for a proven one, with N
/// the engine's own moves to the win, negative when it loses ([`Score::uci_mate`]).
pub fn score_text(score: Score) -> String {
    match score.uci_mate() {
        Some(moves) => format!("mate {moves}"),
        None => match score {
            Score::Heuristic(cp) => format!("cp {cp}"),
            // uci_mate is None only for heuristic scores.
            Score::Win(_) | Score::Loss(_) => unreachable!("proven scores have a mate count"),
        },
    }
}

/// One `info` line for a completed iteration:
/// `info depth D seldepth S score cp X|mate N nodes N nps N time MS hashfull H pv M...`.
pub fn info_line<M: Display>(info: &SearchInfo<M>) -> String {
    iteration_line(info, None, info.score, &info.pv)
}

/// The `info` lines of a completed iteration with `MultiPV` set to `multipv`: with 1, the one
/// line of [`info_line`]; with more, one line per search line (at most `multipv`), each with
/// `multipv K` after `seldepth`, as UCI specifies:
/// `info depth D seldepth S multipv K score ... pv M...`.
pub fn info_lines<M: Display>(info: &SearchInfo<M>, multipv: usize) -> Vec<String> {
    if multipv <= 1 || info.lines.is_empty() {
        return vec![info_line(info)];
    }
    let shown = info.lines.iter().take(multipv).enumerate();
    shown.map(|(k, line)| iteration_line(info, Some(k + 1), line.score, &line.pv)).collect()
}

/// An `info` line of `info`'s iteration with the line `pv` of score `score`.
fn iteration_line<M: Display>(
    info: &SearchInfo<M>,
    multipv: Option<usize>,
    score: Score,
    pv: &[M],
) -> String {
    let mut line = format!("info depth {} seldepth {}", info.depth, info.seldepth);
    if let Some(k) = multipv {
        line.push_str(&format!(" multipv {k}"));
    }
    line.push_str(&format!(
        " score {} nodes {} nps {} time {} hashfull {}",
        score_text(score),
        info.nodes,
        info.nps,
        info.time.as_millis(),
        info.hashfull
    ));
    if !pv.is_empty() {
        line.push_str(" pv");
        for mv in pv {
            line.push(' ');
            line.push_str(&mv.to_string());
        }
    }
    line
}

/// The closing line of a search: `bestmove M [ponder R]`, or `bestmove (none)` when there is
/// no move to play (a finished game), as Stockfish does.
pub fn bestmove_line<M: Display>(best: Option<M>, ponder: Option<M>) -> String {
    match (best, ponder) {
        (Some(best), Some(ponder)) => format!("bestmove {best} ponder {ponder}"),
        (Some(best), None) => format!("bestmove {best}"),
        (None, _) => "bestmove (none)".to_string(),
    }
}

/// The board for `d`: the game's diagram, then the FEN, the side to move `side` (or how the
/// game ended, `ending`) and the legal moves `moves`, sorted (see `played.rs`, which decides
/// them: a drawn game has none).
pub fn board_lines<G: Rules>(pos: &G, ending: Option<String>, side: &str, moves: &[String]) -> Vec<String> {
    let mut lines = pos.diagram();
    lines.push(format!("Fen: {}", pos.fen()));
    match ending {
        Some(result) => lines.push(format!("Game over: {result}")),
        None => lines.push(format!("Side to move: {side}")),
    }
    lines.push(format!("Legal moves ({}): {}", moves.len(), moves.join(" ")));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io;

    /// A writer into a shared buffer, to look at what was written.
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().write(buf)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A writer whose reader has gone.
    struct BrokenPipe;

    impl Write for BrokenPipe {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(io::ErrorKind::BrokenPipe))
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::Error::from(io::ErrorKind::BrokenPipe))
        }
    }

    #[test]
    fn lines_are_written_whole() {
        let buffer = Buffer::default();
        let out = Output::new(buffer.clone());
        out.line("readyok");
        out.lines(&["a", "b"]);
        out.info_string("hello");
        assert_eq!(
            String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap(),
            "readyok\na\nb\ninfo string hello\n"
        );
    }

    #[test]
    fn a_broken_pipe_closes_the_output_quietly() {
        let out = Output::new(BrokenPipe);
        assert!(!out.is_closed());
        out.line("bestmove d2f4");
        assert!(out.is_closed());
        out.line("ignored");
    }

    #[test]
    fn scores_in_uci_form() {
        assert_eq!(score_text(Score::Heuristic(-35)), "cp -35");
        assert_eq!(score_text(Score::Win(1)), "mate 1");
        assert_eq!(score_text(Score::Win(5)), "mate 3");
        assert_eq!(score_text(Score::Loss(4)), "mate -2");
        assert_eq!(score_text(Score::Loss(0)), "mate 0");
    }

    #[test]
    fn the_board_of_the_start_position() {
        use crate::impasse::Position;
        let pos = Position::startpos();
        let lines = board_lines(&pos, None, "white", &crate::game::rules::sorted_step_texts(&pos));
        assert_eq!(lines[1], " 8 |   W   b   W   b |");
        assert_eq!(lines[8], " 1 | w   B   w   B   |");
        assert_eq!(lines[11], format!("Fen: {}", crate::impasse::START_FEN));
        assert_eq!(lines[12], "Side to move: white");
        assert!(lines[13].starts_with("Legal moves (22): "));
    }
}
