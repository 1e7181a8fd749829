//! `steere codingame`: plays one game of the CodinGame "Impasse" arena over its referee
//! protocol, so that bot authors can use the engine as a local sparring partner.
//!
//! **The format**, as the arena's referee implements it (Jakub Kowalski's referee,
//! <https://github.com/acatai/CG_Impasse>: `Referee.java` `sendInputs`, `config/stub.txt` and
//! the statement `config/statement_en.html`; the arena page is
//! <https://www.codingame.com/multiplayer/bot-programming/impasse>):
//! - on the player's first turn only, one line with its colour: `w` (White, moves first) or `b`;
//! - every turn, 8 lines for the ranks 8 down to 1, 8 characters each for the files a..h:
//!   `.` empty (light squares too), `w`/`b` a white/black single, `W`/`B` a double (the FEN
//!   piece letters of the rules contract);
//! - one line with the opponent's last action, `null` on the first turn of the game;
//! - one line with the number of legal actions, then that many lines, one action each (sorted by
//!   text), in the notation of the rules contract (`d2f4`, `f8g7c5`, `b6`);
//! - the player answers with one line: an action (optionally followed by a space and a comment
//!   for the viewer), or `random`. Time limits: 1000 ms for the first turn, 100 ms after.
//!
//! **Tolerance.** Board lines may also use FEN digits for runs of empty squares (`1W1b1W1b`),
//! and surrounding blank space is ignored; a `w`/`b` line before any turn's board is taken as
//! the colour, so a referee that repeats it each turn works too. The position is rebuilt from
//! the board every turn (the side to move is the player's colour), so the last-action line is
//! only logged. If the board cannot be read as a valid position, or the engine's move is not in
//! the referee's list (the two would disagree on the rules: never seen), the engine plays the
//! first listed action its rules accept, else the first listed action, and says so on stderr.
//!
//! **Time.** Each turn's clock starts when its first line is read; the search gets the turn's
//! budget ([`Settings::first_turn`], [`Settings::turn`]: 900 ms and 80 ms by default, leaving
//! room for the process and pipe delays the referee also counts) minus the time already spent,
//! which on the first turn includes creating the transposition table. The table is kept from
//! turn to turn. A turn with one legal action is answered at once.

use crate::impasse::{Color, Position};
use crate::search::{Limits, SearchControl, Searcher};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// How the engine plays in the arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Thinking time of the first turn (the arena allows 1000 ms).
    pub first_turn: Duration,
    /// Thinking time of every later turn (the arena allows 100 ms).
    pub turn: Duration,
    /// Search threads (the arena's bots usually get one core).
    pub threads: usize,
    /// Transposition-table size in MiB (the arena allows 768 MB in all).
    pub hash_mib: usize,
    /// Log one line per turn on stderr.
    pub verbose: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            first_turn: Duration::from_millis(900),
            turn: Duration::from_millis(80),
            threads: 1,
            hash_mib: 64,
            verbose: false,
        }
    }
}

/// One turn's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The player's colour (from the colour line of this or an earlier turn).
    pub color: Color,
    /// The 8 board lines, rank 8 first.
    pub board: Vec<String>,
    /// The opponent's last action (`null` on the first turn).
    pub last_action: String,
    /// The legal actions as the referee lists them.
    pub actions: Vec<String>,
}

impl Turn {
    /// The position of the turn: the board, with the player to move.
    pub fn position(&self) -> Result<Position, String> {
        let fen = format!("{} {}", self.board.join("/"), self.color.fen_char());
        Position::from_fen(&fen).map_err(|e| format!("board '{fen}': {e}"))
    }
}

/// Reads the referee's lines: lossy UTF-8, trimmed, blank lines skipped.
struct Lines<R> {
    input: R,
    buffer: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    /// The next non-blank line, or `None` at the end of input.
    fn next(&mut self) -> Result<Option<String>, String> {
        loop {
            self.buffer.clear();
            let read =
                self.input.read_until(b'\n', &mut self.buffer).map_err(|e| format!("reading input: {e}"))?;
            if read == 0 {
                return Ok(None);
            }
            let line = String::from_utf8_lossy(&self.buffer).trim().to_string();
            if !line.is_empty() {
                return Ok(Some(line));
            }
        }
    }

    /// The next line, which must exist (mid-turn).
    fn expect(&mut self, what: &str) -> Result<String, String> {
        self.next()?.ok_or_else(|| format!("the input ended before {what}"))
    }
}

/// Reads one turn; `None` when the input ends between turns (the game is over). `color` is the
/// colour read so far, updated by a colour line. The returned instant is when the turn's
/// first line arrived.
fn read_turn<R: BufRead>(
    lines: &mut Lines<R>,
    color: &mut Option<Color>,
) -> Result<Option<(Turn, Instant)>, String> {
    let Some(mut line) = lines.next()? else {
        return Ok(None);
    };
    let start = Instant::now();
    while let Some(c) = parse_color(&line) {
        *color = Some(c);
        line = lines.expect("the board")?;
    }
    let Some(color) = *color else {
        return Err(format!("expected the colour line ('w' or 'b') first, found '{line}'"));
    };
    let mut board = vec![line];
    for rank in (1..=7).rev() {
        board.push(lines.expect(&format!("board rank {rank}"))?);
    }
    let last_action = lines.expect("the last action")?;
    let count_line = lines.expect("the number of actions")?;
    let count: usize = count_line
        .parse()
        .map_err(|_| format!("expected the number of legal actions, found '{count_line}'"))?;
    let mut actions = Vec::with_capacity(count.min(1024));
    for i in 0..count {
        let line = lines.expect(&format!("action {} of {count}", i + 1))?;
        // An action is its first word (the same way the referee reads our answer).
        actions.push(line.split_whitespace().next().unwrap_or_default().to_string());
    }
    Ok(Some((Turn { color, board, last_action, actions }, start)))
}

/// `w` or `b` alone on a line.
fn parse_color(line: &str) -> Option<Color> {
    match line {
        "w" => Some(Color::White),
        "b" => Some(Color::Black),
        _ => None,
    }
}

/// Plays a game: reads turns from `input` until it ends, answers each on `output`, logs to
/// `log`. Returns an error for input that does not follow the referee's format.
pub fn play(
    input: impl BufRead,
    mut output: impl Write,
    mut log: impl Write,
    settings: &Settings,
) -> Result<(), String> {
    let mut lines = Lines { input, buffer: Vec::new() };
    // Created on the first turn, inside its clock: the referee's clock runs from its first
    // line, and filling the table takes tens of milliseconds on a loaded machine.
    let mut searcher: Option<Searcher<Position>> = None;
    let mut color = None;
    let mut turn_number = 0u32;
    while let Some((turn, start)) = read_turn(&mut lines, &mut color)? {
        turn_number += 1;
        let budget = if turn_number == 1 { settings.first_turn } else { settings.turn };
        let searcher = match &mut searcher {
            Some(made) => made,
            slot => slot.insert(
                Searcher::try_new(settings.hash_mib, settings.threads)
                    .map_err(|e| format!("the hash table: {e}"))?,
            ),
        };
        let (action, note) = choose(&turn, searcher, budget.saturating_sub(start.elapsed()));
        // A closed output means the referee has gone: the game is over for us.
        if writeln!(output, "{action}").and_then(|()| output.flush()).is_err() {
            return Ok(());
        }
        if settings.verbose || note.starts_with("warning") {
            let ms = start.elapsed().as_millis();
            let _ =
                writeln!(log, "turn {turn_number}: {action} in {ms} ms (last {}): {note}", turn.last_action);
        }
    }
    Ok(())
}

/// The action to play this turn, and a note for the log.
fn choose(turn: &Turn, searcher: &mut Searcher<Position>, time: Duration) -> (String, String) {
    let fallback = |reason: String| {
        let pos = turn.position().ok();
        let action = turn
            .actions
            .iter()
            .find(|a| pos.is_some_and(|p| p.parse_move(a).is_ok()))
            .or(turn.actions.first())
            .cloned()
            .unwrap_or_else(|| "random".to_string());
        (action, format!("warning: {reason}; playing a listed action"))
    };
    let pos = match turn.position() {
        Ok(pos) => pos,
        Err(e) => return fallback(e),
    };
    let legal = pos.legal_moves();
    if legal.len() == 1 {
        return check_listed(turn, legal[0].to_string(), "the only legal move".to_string(), fallback);
    }
    let limits = Limits { movetime: Some(time), ..Limits::default() };
    let result = searcher.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
    match result.best_move {
        Some(mv) => {
            let note = format!("depth {} score {} nodes {}", result.depth, result.score, result.nodes);
            check_listed(turn, mv.to_string(), note, fallback)
        }
        None => fallback(format!("no move in {}", pos.to_fen())),
    }
}

/// `action` if the referee lists it, else the fallback.
fn check_listed(
    turn: &Turn,
    action: String,
    note: String,
    fallback: impl Fn(String) -> (String, String),
) -> (String, String) {
    if turn.actions.contains(&action) {
        (action, note)
    } else {
        fallback(format!("the engine's move {action} is not among the referee's actions"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    const START_BOARD: &str =
        ".W.b.W.b\nb.W.b.W.\n........\n........\n........\n........\n.B.w.B.w\nw.B.w.B.\n";

    fn turn_text(color: &str, board: &str, last: &str, actions: &[&str]) -> String {
        format!(
            "{color}{board}{last}\n{}\n{}",
            actions.len(),
            actions.iter().map(|a| format!("{a}\n")).collect::<String>()
        )
    }

    #[test]
    fn reads_a_turn_and_rebuilds_the_position() {
        let text = turn_text("w\n", START_BOARD, "null", &["a1b2", "d2e3"]);
        let mut lines = Lines { input: Cursor::new(text), buffer: Vec::new() };
        let mut color = None;
        let (turn, _) = read_turn(&mut lines, &mut color).unwrap().unwrap();
        assert_eq!(turn.color, Color::White);
        assert_eq!(turn.last_action, "null");
        assert_eq!(turn.actions, ["a1b2", "d2e3"]);
        assert_eq!(turn.position().unwrap(), Position::startpos());
        assert_eq!(read_turn(&mut lines, &mut color).unwrap(), None);
    }

    #[test]
    fn digits_in_board_lines_are_accepted() {
        let board = "1W1b1W1b\nb1W1b1W1\n8\n8\n8\n8\n1B1w1B1w\nw1B1w1B1\n";
        let text = turn_text("b\n", board, "d2e3", &[]);
        let mut lines = Lines { input: Cursor::new(text), buffer: Vec::new() };
        let (turn, _) = read_turn(&mut lines, &mut None).unwrap().unwrap();
        assert_eq!(turn.position().unwrap().side_to_move(), Color::Black);
    }

    #[test]
    fn malformed_turns_are_errors() {
        let no_color = turn_text("", START_BOARD, "null", &["a1b2"]);
        let mut lines = Lines { input: Cursor::new(no_color), buffer: Vec::new() };
        assert!(read_turn(&mut lines, &mut None).unwrap_err().contains("colour"));
        let bad_count = format!("w\n{START_BOARD}null\nmany\n");
        let mut lines = Lines { input: Cursor::new(bad_count), buffer: Vec::new() };
        assert!(read_turn(&mut lines, &mut None).unwrap_err().contains("number of legal actions"));
        let cut = format!("w\n{START_BOARD}null\n3\na1b2\n");
        let mut lines = Lines { input: Cursor::new(cut), buffer: Vec::new() };
        assert!(read_turn(&mut lines, &mut None).unwrap_err().contains("ended"));
    }

    #[test]
    fn plays_a_listed_move_or_falls_back() {
        let pos = Position::startpos();
        let mut actions: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        actions.sort();
        let listed: Vec<&str> = actions.iter().map(String::as_str).collect();
        let text = turn_text("w\n", START_BOARD, "null", &listed);
        let mut out = Vec::new();
        let settings = Settings { first_turn: Duration::from_millis(20), ..Settings::default() };
        play(Cursor::new(text), &mut out, std::io::sink(), &settings).unwrap();
        let answer = String::from_utf8(out).unwrap();
        assert!(actions.contains(&answer.trim_end().to_string()), "{answer}");
        // A board that is not a position: the first listed action.
        let text = turn_text("w\n", &START_BOARD.replace(".W.b", "WWWW"), "null", &["zzz", "a1b2"]);
        let mut out = Vec::new();
        play(Cursor::new(text), &mut out, std::io::sink(), &settings).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "zzz\n");
    }
}
