//! The judge of the engine's output: every line it prints is matched against what the fuzz
//! expects, in order.
//!
//! Two streams share stdout. The engine loop answers commands in order, so the answers the fuzz
//! awaits form a queue of [`Block`]s (`readyok`, a `response`, the lines of `d`, `perft`, `bench`
//! or the handshake): a line that is neither `info ...` nor `bestmove ...` must belong to the
//! block at the head of the queue. Searches answer on their own schedule, so `bestmove` lines are
//! matched against the queue of [`Search`]es that the fuzz started, oldest first: each accepted
//! `go` gets exactly one, none comes without a `go`, and each is checked against the
//! reference's legal moves of the position the `go` searched.
//!
//! A broken promise is either returned as an `Err` (the engine's state is no longer known, the
//! session restarts it) or, where the fuzz can go on, recorded as a soft [`Finding`].

use super::games::Game;
use std::collections::VecDeque;

/// An answer the engine loop owes, in order.
#[derive(Debug)]
pub enum Block {
    /// `readyok`; `after_stops`: every search told to stop was told so before this `isready`,
    /// and must have printed its `bestmove` before the `readyok` (docs/protocol.md, "Lines").
    Ready { after_stops: bool },
    /// `id ...` and `option ...` lines, then this line (`uciok` or `ugiok`).
    Hello(&'static str),
    /// One `response X` line, the answer to `asked`.
    Response { expected: Answer, asked: String },
    /// The board of `d`: a `Fen: F` line, and the legal moves line (compared as a set when
    /// `moves` is known).
    Display { fen: String, moves: Option<Vec<String>> },
    /// `perft`: one `M COUNT` line per legal move, then `nodes N ...`; a stopped one may end with
    /// `info string perft stopped` instead.
    /// (`rows` and `total` are the reference's; `None`: not predicted, for a perft told to stop.)
    Perft { rows: Option<Vec<(String, u64)>>, total: u64, stoppable: bool, seen: Vec<String> },
    /// `bench`: `position ...` lines, then `nodes ...` (or `info string bench stopped`).
    Bench,
}

/// What a `response` must say.
#[derive(Debug)]
pub enum Answer {
    /// Exactly this. A wrong answer to a question about the position (`fen`) means the engine
    /// is elsewhere than the model (`drift`); a wrong answer to another question is a defect
    /// the fuzz can go on after.
    Exact { text: String, drift: bool },
    /// Anything (not predicted).
    Any,
    /// Anything, kept in [`Checker::captured`] for the session.
    Capture,
}

/// A search the fuzz started and whose `bestmove` it awaits.
#[derive(Clone, Debug)]
pub struct Search {
    /// The `go` line, for messages.
    pub go: String,
    /// The position searched.
    pub fen: String,
    /// The legal moves there; empty: the answer must be `bestmove (none)`.
    pub legal: Vec<String>,
    /// The legal `searchmoves`, if any: the move must be one of them.
    pub only: Vec<String>,
    /// Under `infinite` (or pondering): a `bestmove` before `stop` breaks the UCI rule.
    pub waits: bool,
    /// `ponder` and no `ponderhit` yet.
    pub pondering: bool,
    /// `infinite` was given (after `ponderhit` the search still waits for `stop`).
    pub infinite: bool,
    /// The search has limits that end it by itself (after `ponderhit`, for a ponder search).
    pub ends: bool,
    /// `stop` has been sent.
    pub stopped: bool,
    /// `bestmove` may carry `ponder R`.
    pub ponder_allowed: bool,
    /// `bestmove (none)` is also accepted (a drawn HexDame game analysed under `infinite`).
    pub none_allowed: bool,
    /// A dice game's fixed player decides (`Strategy` is not `search`).
    pub fixed_player: bool,
}

/// Something the engine did wrong that the fuzz can go on after.
#[derive(Clone, Debug)]
pub struct Finding {
    /// A short name of the kind of defect, the key of the summary.
    pub kind: &'static str,
    /// What happened.
    pub detail: String,
}

/// What the checker has counted, for the summary.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    /// `bestmove` lines checked against the reference.
    pub bestmoves: usize,
    /// Of them, `bestmove (none)`.
    pub nones: usize,
    /// `response` lines checked.
    pub responses: usize,
    /// `d` boards checked.
    pub displays: usize,
    /// `perft` results checked against the reference.
    pub perfts: usize,
}

/// The expectations and what has been seen.
pub struct Checker {
    game: Game,
    /// The answers owed by the loop, in order.
    pub blocks: VecDeque<Block>,
    /// The searches without a `bestmove` yet, oldest first.
    pub searches: VecDeque<Search>,
    /// The searches neither stopped nor waited for by the fuzz, as it sent them: changed only
    /// by what the fuzz sends, never by what the engine answers, so that the generator (which
    /// decides from these) draws the same lines from a seed however fast the engine answers.
    pub sent: Vec<Search>,
    /// `info string error:` lines since the last [`Checker::take_errors`].
    errors: usize,
    /// The text of the last [`Answer::Capture`].
    pub captured: Option<String>,
    /// Soft findings since the last [`Checker::take_findings`].
    findings: Vec<Finding>,
    /// The lines of the `d` board being read, for its check.
    display_lines: Vec<String>,
    /// What was checked.
    pub counts: Counts,
}

impl Checker {
    /// A checker for an engine playing `game` that owes nothing yet.
    pub fn new(game: Game) -> Checker {
        Checker {
            game,
            blocks: VecDeque::new(),
            searches: VecDeque::new(),
            sent: Vec::new(),
            errors: 0,
            captured: None,
            findings: Vec::new(),
            display_lines: Vec::new(),
            counts: Counts::default(),
        }
    }

    /// The game whose moves the checker judges (it changes with `UCI_Variant`).
    pub fn set_game(&mut self, game: Game) {
        self.game = game;
    }

    /// The error lines counted since the last call.
    pub fn take_errors(&mut self) -> usize {
        std::mem::take(&mut self.errors)
    }

    /// The soft findings since the last call.
    pub fn take_findings(&mut self) -> Vec<Finding> {
        std::mem::take(&mut self.findings)
    }

    fn find(&mut self, kind: &'static str, detail: String) {
        self.findings.push(Finding { kind, detail });
    }

    /// Judges one output line; `Err` says why the engine can no longer be trusted.
    pub fn handle(&mut self, line: &str) -> Result<(), String> {
        if line.contains("panicked") || line.contains("RUST_BACKTRACE") {
            return Err(format!("a panic on stdout: {line}"));
        }
        if line.starts_with("bestmove") {
            return self.bestmove(line);
        }
        if let Some(message) = line.strip_prefix("info string ") {
            if message.starts_with("error") {
                self.errors += 1;
            }
            return self.stopped_job(message);
        }
        if line.starts_with("info ") {
            return Ok(());
        }
        let Some(block) = self.blocks.front_mut() else {
            return Err(format!("output nobody asked for: {line:?}"));
        };
        let done = match block {
            Block::Ready { after_stops } => {
                let stopped = self.searches.iter().find(|s| s.stopped);
                if let (true, true, Some(search)) = (line == "readyok", *after_stops, stopped) {
                    let detail = format!(
                        "readyok before the bestmove of '{}', told to stop before isready",
                        search.go
                    );
                    self.find("readyok before the bestmove of a search told to stop", detail);
                }
                expect(line == "readyok", line, "readyok")?
            }
            Block::Hello(ok) => {
                let known = line.starts_with("id ") || line.starts_with("option ");
                expect(known || line == *ok, line, "id, option or the end of the handshake")?;
                line == *ok
            }
            Block::Response { expected, asked } => {
                let text =
                    line.strip_prefix("response ").ok_or_else(|| format!("expected a response: {line:?}"))?;
                match expected {
                    Answer::Exact { text: want, drift: true } if want != text => {
                        return Err(format!(
                            "the engine is elsewhere: '{asked}' answers response {text}, expected response {want}"
                        ));
                    }
                    Answer::Exact { text: want, .. } if want != text => {
                        let detail =
                            format!("'{asked}' answers response {text}, the reference says response {want}");
                        self.find("a wrong query answer", detail);
                    }
                    Answer::Exact { .. } | Answer::Any => {}
                    Answer::Capture => self.captured = Some(text.to_string()),
                }
                self.counts.responses += 1;
                true
            }
            Block::Display { .. } => {
                self.display_lines.push(line.to_string());
                let end = line.starts_with("Legal moves (");
                if end {
                    self.check_display()?;
                }
                end
            }
            Block::Perft { seen, .. } => {
                if !line.starts_with("nodes ") {
                    seen.push(line.to_string());
                    return Ok(());
                }
                let seen = std::mem::take(seen);
                self.check_perft(&seen, line)?;
                true
            }
            Block::Bench => {
                expect(line.starts_with("position ") || line.starts_with("nodes "), line, "a bench line")?;
                line.starts_with("nodes ")
            }
        };
        if done {
            self.blocks.pop_front();
        }
        Ok(())
    }

    /// `info string perft stopped` / `bench stopped` ends the block of a job told to stop.
    fn stopped_job(&mut self, message: &str) -> Result<(), String> {
        let ends = match self.blocks.front() {
            Some(Block::Perft { stoppable: true, .. }) => message == "perft stopped",
            Some(Block::Bench) => message == "bench stopped",
            _ => false,
        };
        if ends {
            self.blocks.pop_front();
        } else if message == "perft stopped" || message == "bench stopped" {
            return Err(format!("'{message}' for no job told to stop"));
        }
        Ok(())
    }

    fn check_display(&mut self) -> Result<(), String> {
        let lines = std::mem::take(&mut self.display_lines);
        let Some(Block::Display { fen, moves }) = self.blocks.front() else { unreachable!() };
        let want = format!("Fen: {fen}");
        if !lines.contains(&want) {
            return Err(format!("d shows another position: expected '{want}' in {lines:?}"));
        }
        if let Some(moves) = moves {
            let last = lines.last().unwrap();
            let listed = last.split_once(": ").map_or("", |(_, list)| list);
            let mut shown: Vec<&str> = listed.split_whitespace().collect();
            let mut want: Vec<&str> = moves.iter().map(String::as_str).collect();
            shown.sort_unstable();
            want.sort_unstable();
            if shown != want {
                self.find("d lists other moves than the reference", format!("{last:?}, expected {want:?}"));
            }
        }
        self.counts.displays += 1;
        Ok(())
    }

    fn check_perft(&mut self, seen: &[String], summary: &str) -> Result<(), String> {
        let Some(Block::Perft { rows, total, .. }) = self.blocks.front() else { unreachable!() };
        let Some(rows) = rows.clone() else { return Ok(()) };
        let total = *total;
        let nodes = summary.split(' ').nth(1).and_then(|n| n.parse::<u64>().ok());
        if rows.is_empty() && total == 1 && (nodes != Some(1) || !seen.is_empty()) {
            let detail =
                format!("perft 0 prints {} rows and '{summary}', the reference counts 1", seen.len());
            self.find("perft 0 differs from the reference", detail);
            return Ok(());
        }
        if nodes != Some(total) {
            self.find(
                "a perft count differs from the reference",
                format!("'{summary}', the reference counts {total}"),
            );
        }
        let mut got = Vec::new();
        let mut colon = None;
        for row in seen {
            let (mv, count) = match row.split_once(' ') {
                Some((mv, count)) => (mv, count),
                None => return Err(format!("perft: a malformed row {row:?}")),
            };
            let mv = match mv.strip_suffix(':') {
                Some(bare) => {
                    colon.get_or_insert_with(|| row.clone());
                    bare
                }
                None => mv,
            };
            let count = count.parse::<u64>().map_err(|_| format!("perft: a malformed row {row:?}"))?;
            got.push((mv.to_string(), count));
        }
        if let Some(row) = colon {
            let detail =
                format!("perft prints {row:?}: docs/protocol.md says `M COUNT`, as the board games print");
            self.find("perft row is 'M: COUNT', not 'M COUNT'", detail);
        }
        got.sort();
        if got != rows {
            let shown = |rows: &[(String, u64)]| {
                rows.iter().take(8).map(|(m, n)| format!("{m} {n}")).collect::<Vec<_>>()
            };
            let detail = format!(
                "{} rows {:?}..., the reference's divide: {} rows {:?}...",
                got.len(),
                shown(&got),
                rows.len(),
                shown(&rows)
            );
            self.find("perft rows differ from the reference", detail);
        }
        self.counts.perfts += 1;
        Ok(())
    }

    fn bestmove(&mut self, line: &str) -> Result<(), String> {
        let Some(search) = self.searches.pop_front() else {
            return Err(format!("'{line}' without a go"));
        };
        if search.waits {
            let detail = format!("'{line}' for '{}' in {} before stop/ponderhit", search.go, search.fen);
            self.find("bestmove before stop under go infinite/ponder", detail);
        }
        let words: Vec<&str> = line.split(' ').collect();
        let context = || format!("'{line}' for '{}' in {}", search.go, search.fen);
        if words.len() < 2 || words[0] != "bestmove" {
            return Err(format!("a malformed bestmove: {}", context()));
        }
        self.counts.bestmoves += 1;
        if words[1] == "(none)" && (search.legal.is_empty() || search.none_allowed) {
            self.counts.nones += 1;
            return expect(words.len() == 2, line, "'bestmove (none)' alone").map(|_| ());
        }
        if !search.legal.iter().any(|m| m == words[1]) {
            return Err(format!(
                "an illegal bestmove (the reference's moves: {:?}): {}",
                search.legal,
                context()
            ));
        }
        if !search.only.is_empty() && !search.only.iter().any(|m| m == words[1]) {
            // Told apart because the answer given at `stop` comes from elsewhere (the answerer's
            // fallback, docs/protocol.md "Timing") than a search's own.
            let kind = if search.stopped {
                "bestmove outside go searchmoves (stop sent)"
            } else {
                "bestmove outside go searchmoves (no stop)"
            };
            self.find(kind, context());
        }
        match words.len() {
            2 => Ok(()),
            4 if words[2] == "ponder" => {
                if !search.ponder_allowed {
                    self.find("ponder in bestmove after ugi or with Ponder off", context());
                }
                let after = self.game.play(&search.fen, words[1]).expect("a legal move plays");
                if self.game.play(&after, words[3]).is_none() {
                    return Err(format!("an illegal ponder move: {}", context()));
                }
                Ok(())
            }
            _ => Err(format!("a malformed bestmove line: {}", context())),
        }
    }

    /// A `go` was sent: its search is awaited.
    pub fn started(&mut self, search: Search) {
        self.sent.push(search.clone());
        self.searches.push_back(search);
    }

    /// Whether a search may still be running in the engine (no `stop` sent, no `bestmove`).
    pub fn running(&self) -> bool {
        self.searches.iter().any(|s| !s.stopped)
    }

    /// The fuzz has waited for every `bestmove` of searches not told to stop.
    pub fn waited(&mut self) {
        self.sent.clear();
    }

    /// The search sent, not stopped, that waits for `stop` and whose position has a move to
    /// search: a command that needs an idle engine must be refused while it runs. (Not a dice
    /// game's fixed player: it answers `go infinite` at once, a defect the `bestmove` check
    /// reports, so that the engine may be idle already.)
    pub fn busy_waiting(&self) -> Option<&Search> {
        self.sent.iter().find(|s| s.waits && !s.legal.is_empty() && !s.fixed_player)
    }

    /// `stop` was sent: every search is told to end, and so is a `perft` not begun yet (the
    /// engine's reader may read the `stop` before its loop starts the job it is meant for).
    pub fn stop_sent(&mut self) {
        for block in &mut self.blocks {
            if let Block::Perft { stoppable, .. } = block {
                *stoppable = true;
            }
        }
        for search in &mut self.searches {
            search.stopped = true;
            search.waits = false;
            search.pondering = false;
            search.ends = true;
        }
        self.sent.clear();
    }

    /// `ponderhit` was sent: a pondering search becomes a normal one.
    pub fn ponderhit_sent(&mut self) {
        for search in self.searches.iter_mut().chain(self.sent.iter_mut()).filter(|s| s.pondering) {
            search.pondering = false;
            search.waits = search.infinite;
        }
    }

    /// The dialect or the `Ponder` option changed: a search under way may answer either way.
    pub fn ponder_rule_changed(&mut self) {
        for search in &mut self.searches {
            search.ponder_allowed = true;
        }
    }
}

/// `Ok(true)` when `ok`, else the error "expected WHAT".
fn expect(ok: bool, line: &str, what: &str) -> Result<bool, String> {
    if ok { Ok(true) } else { Err(format!("expected {what}, got {line:?}")) }
}
