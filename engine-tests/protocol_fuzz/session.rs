//! One engine under fuzz: sends the steps, keeps the model and the checker up to date, syncs
//! after each small batch (`query fen` and `isready`, answered within [`READY`]), and records
//! every broken promise in [`Defects`] with the seed, the line number, the batch and the end of
//! the transcript.
//!
//! A defect after which the engine's state is unknown (a hang, a crash, an illegal move, a wrong
//! answer) ends that engine: the session starts a fresh one and goes on, so that one run finds
//! every kind of defect rather than the first.

use super::checker::{Answer, Block, Checker, Search};
use super::common::Rng;
use super::games::Game;
use super::model::{Dialect, Model, Outcome};
use super::pipe::Engine;
use super::positions::Pool;
use super::step::{Effect, GoSpec, Step};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// How long `readyok` (and the answers before it) may take: a hang bound, not a speed test.
pub const READY: Duration = Duration::from_secs(10);

/// How long a search told to stop, or with small limits, may take to give its `bestmove`.
const BESTMOVE: Duration = Duration::from_secs(20);

/// Lines per batch between syncs.
const BATCH: usize = 8;

/// The defects found, by kind: how many, and the first one in full (what happened, where, and
/// the lines that led to it).
pub type Defects = BTreeMap<String, (usize, String)>;

/// What went wrong, before the context is added.
pub struct Broken(&'static str, String);

/// The figures of a run.
#[derive(Clone, Debug, Default)]
pub struct Figures {
    /// Fuzzed lines sent (the session's own syncs excluded).
    pub lines: usize,
    /// Syncs (`query fen` + `isready`).
    pub syncs: usize,
    /// Accepted `go` commands.
    pub gos: usize,
    /// Engines started (1 + restarts after defects).
    pub engines: usize,
    /// Accepted `position` lines that end the game (a win or, in HexDame, a draw).
    pub finished: usize,
    /// Of them, draws by repetition.
    pub drawn: usize,
}

/// The engine, the model of what it was told, and the judge of what it says.
pub struct Session {
    engine: Engine,
    /// The tracked state.
    pub model: Model,
    checker: Checker,
    /// The fuzz's random source.
    pub rng: Rng,
    /// Positions reached, for `position fen`.
    pub pool: Pool,
    seed: u64,
    home: Game,
    /// The lines since the last sync, for messages.
    batch: Vec<String>,
    /// The error lines the batch must cause, if predicted.
    errors: Option<usize>,
    /// The kind a wrong error count of the batch is reported as (see [`Step::label`]).
    label: Option<&'static str>,
    /// Every defect found.
    pub defects: Defects,
    /// The figures.
    pub figures: Figures,
    /// A deep `perft` has hung: no more are sent.
    deep_perft_hangs: bool,
}

impl Session {
    /// Starts an engine playing `game`, with seed `seed` for everything random.
    pub fn start(game: Game, seed: u64) -> Session {
        let mut rng = Rng(seed);
        let dialect = if rng.below(2) == 0 { Dialect::Uci } else { Dialect::Ugi };
        let mut session = Session {
            engine: Engine::start(&[]),
            model: Model::new(game, dialect),
            checker: Checker::new(game),
            rng,
            pool: Pool::default(),
            seed,
            home: game,
            batch: Vec::new(),
            errors: Some(0),
            label: None,
            defects: Defects::new(),
            figures: Figures { engines: 1, ..Figures::default() },
            deep_perft_hangs: false,
        };
        session.boot();
        session
    }

    /// The next lines of the fuzz, drawn from the model and the searches under way.
    pub fn next_steps(&mut self) -> Vec<Step> {
        super::commands::next(&self.model, &self.checker, &self.pool, &mut self.rng)
    }

    /// The handshake and the variant, on a fresh engine.
    fn boot(&mut self) {
        let hello = if self.model.dialect == Dialect::Uci { "uci" } else { "ugi" };
        let variant = format!("setoption name UCI_Variant value {}", self.home.name());
        let steps = [
            Step::new(hello, 0, Effect::Hello(self.model.dialect)),
            Step::new(variant, 0, Effect::Variant(self.home)),
        ];
        for step in steps {
            if let Err(broken) = self.send(step) {
                panic!("seed {}: the engine does not start: {}: {}", self.seed, broken.0, broken.1);
            }
        }
        if let Err(broken) = self.sync() {
            panic!("seed {}: the engine does not start: {}: {}", self.seed, broken.0, broken.1);
        }
    }

    /// Sends `steps`; a defect that leaves the engine's state unknown restarts it.
    pub fn run(&mut self, steps: Vec<Step>) {
        // The steps go together: a sync between them could wait for ever (a `perft 30` and the
        // `stop` meant for it).
        let mut result = Ok(());
        for step in steps {
            if self.deep_perft_hangs && matches!(step.effect, Effect::Perft { stoppable: true, .. }) {
                continue;
            }
            let sync_now = step.sync_after;
            result = self.send(step).and_then(|()| if sync_now { self.sync() } else { Ok(()) });
            if result.is_err() {
                break;
            }
        }
        if result.is_ok() && self.batch.len() >= BATCH {
            result = self.sync();
        }
        if let Err(Broken(kind, detail)) = result {
            // A `perft` too deep to finish that hung once (its `stop` was lost) would hang again
            // and cost the bound each time: the defect is recorded, and such perfts are no
            // longer sent.
            let deep = |b: &Block| matches!(b, Block::Perft { rows: None, .. });
            if kind == "a hang" && self.checker.blocks.iter().any(deep) {
                self.deep_perft_hangs = true;
            }
            self.record(kind, detail);
            self.restart();
        }
    }

    /// Adds the context to a defect and keeps it.
    fn record(&mut self, kind: &str, detail: String) {
        let verbose = std::env::var_os("STEERE_FUZZ_VERBOSE").is_some();
        if let Some((count, _)) = self.defects.get_mut(kind) {
            *count += 1;
            if !verbose {
                return;
            }
        }
        let transcript = &self.engine.transcript;
        let tail = transcript[transcript.len().saturating_sub(40)..].join("\n");
        let detail = format!(
            "{detail}\n  variant {}, seed {} (STEERE_FUZZ_SEED={}), at fuzzed line {}\n  lines since the last sync:\n    {}\n  transcript (last 40 lines):\n{tail}",
            self.home.name(),
            self.seed,
            self.seed,
            self.figures.lines,
            self.batch.join("\n    "),
        );
        if verbose {
            // STEERE_FUZZ_VERBOSE: every occurrence, as it is found.
            println!("defect: {kind}: {detail}\n");
        }
        self.defects.entry(kind.to_string()).or_insert((1, detail));
    }

    /// A fresh engine and model after a defect.
    fn restart(&mut self) {
        self.figures.engines += 1;
        self.engine = Engine::start(&[]);
        let counts = self.checker.counts.clone();
        self.checker = Checker::new(self.home);
        self.checker.counts = counts;
        self.model = Model::new(self.home, self.model.dialect);
        self.batch.clear();
        self.errors = Some(0);
        self.label = None;
        self.boot();
    }

    /// Writes one line (a newline is added), counting it as fuzzed or not.
    fn write(&mut self, bytes: &[u8], fuzzed: bool) {
        let mut line = bytes.to_vec();
        line.push(b'\n');
        if fuzzed {
            self.figures.lines += 1;
            let text = String::from_utf8_lossy(bytes);
            let shown: String = text.chars().take(160).collect();
            self.batch.push(format!("{:?}{}", shown, if text.len() > 160 { "..." } else { "" }));
        }
        if bytes.len() > 200 || std::str::from_utf8(bytes).is_err() {
            self.engine.send_bytes(&line);
        } else {
            self.engine.send(&String::from_utf8_lossy(bytes));
        }
    }

    /// Sends one step: first makes the engine idle if it must be, then the line, then the
    /// step's effect on the model and the expectations.
    fn send(&mut self, step: Step) -> Result<(), Broken> {
        if step.needs_idle {
            self.make_idle()?;
        }
        self.write(&step.bytes, true);
        self.errors = self.errors.zip(step.errors).map(|(a, b)| a + b);
        self.label = step.label.or(self.label);
        let text = step.text();
        match step.effect {
            Effect::Nothing => {}
            Effect::Ready => self.checker.blocks.push_back(Block::Ready { after_stops: false }),
            Effect::Hello(dialect) => {
                let ok = if dialect == Dialect::Uci { "uciok" } else { "ugiok" };
                self.checker.blocks.push_back(Block::Hello(ok));
                self.model.dialect = dialect;
                self.checker.ponder_rule_changed();
            }
            Effect::Query { answer, position } => {
                let expected = match answer {
                    Some(text) => Answer::Exact { text, drift: position },
                    None => Answer::Any,
                };
                let block = Block::Response { expected, asked: text.clone() };
                self.checker.blocks.push_back(block);
            }
            Effect::Display => {
                let fen = self.model.fen().to_string();
                let moves = (self.model.outcome() != Outcome::Drawn)
                    .then(|| self.model.game.moves(&fen).into_iter().map(|(m, _)| m).collect());
                self.checker.blocks.push_back(Block::Display { fen, moves });
            }
            Effect::Perft { depth, stoppable } => self.expect_perft(depth, stoppable),
            Effect::Bench => self.checker.blocks.push_back(Block::Bench),
            Effect::Position { line, check } => {
                let before = self.model.clone();
                let accepted = line.is_some();
                if let Some(line) = line {
                    self.model.set_line(line.from_startpos, line.moves, line.fens);
                    let outcome = self.model.outcome();
                    self.figures.finished += usize::from(outcome != Outcome::Ongoing);
                    self.figures.drawn += usize::from(outcome == Outcome::Drawn);
                    let fen = self.model.fen().to_string();
                    self.pool.add(self.model.game, &fen, &mut self.rng);
                }
                if check {
                    self.check_position(before, accepted, &text)?;
                }
            }
            Effect::Go(spec) => self.expect_search(text, spec),
            Effect::Stop => self.checker.stop_sent(),
            Effect::PonderHit => self.checker.ponderhit_sent(),
            Effect::Ponder(on) => {
                self.model.ponder = on;
                self.checker.ponder_rule_changed();
            }
            Effect::Players(players) => {
                self.model.players = players;
                if self.model.game.is_dice() {
                    self.model.reset_to_start();
                }
            }
            Effect::Strategy(fixed) => self.model.fixed_strategy = fixed,
            Effect::Variant(game) => {
                if game != self.model.game {
                    self.model.game = game;
                    self.model.reset_to_start();
                    self.checker.set_game(game);
                }
            }
        }
        Ok(())
    }

    /// The perft block the reference predicts (any rows for one that will be stopped).
    fn expect_perft(&mut self, depth: u32, stoppable: bool) {
        let (rows, total) = if stoppable {
            (None, 0)
        } else if depth == 0 {
            (Some(Vec::new()), 1)
        } else {
            let rows = self.model.game.divide(self.model.fen(), depth);
            let total = rows.iter().map(|(_, n)| n).sum();
            (Some(rows), total)
        };
        self.checker.blocks.push_back(Block::Perft { rows, total, stoppable, seen: Vec::new() });
    }

    /// The search an accepted `go` starts, with the reference's legal moves.
    fn expect_search(&mut self, go: String, spec: GoSpec) {
        let (game, fen, outcome) = (self.model.game, self.model.fen().to_string(), self.model.outcome());
        let waits = spec.infinite || spec.ponder;
        let board: Vec<String> = if game.is_roll(&fen) {
            Vec::new()
        } else {
            game.moves(&fen).into_iter().map(|(m, _)| m).collect()
        };
        // A drawn HexDame game is analysed under `infinite` (docs/protocol.md): a move or
        // `(none)` may come.
        let legal = match outcome {
            Outcome::Ongoing => board,
            Outcome::Drawn if waits => board,
            _ => Vec::new(),
        };
        self.figures.gos += 1;
        self.checker.started(Search {
            go,
            fen,
            legal,
            only: spec.only,
            waits,
            pondering: spec.ponder,
            infinite: spec.infinite,
            ends: spec.ends,
            stopped: false,
            ponder_allowed: self.model.ponder_allowed(),
            fixed_player: game.is_dice() && self.model.fixed_strategy,
            none_allowed: outcome == Outcome::Drawn,
        });
    }

    /// After a `position` line the reference judged: asks `query fen` and compares. A
    /// disagreement with the reference is recorded and the engine put back on the model's line.
    fn check_position(&mut self, before: Model, accepted: bool, text: &str) -> Result<(), Broken> {
        let answer = self.ask("fen")?;
        if answer == self.model.fen() {
            return Ok(());
        }
        let detail = format!("'{text}': the engine is at {answer}, the reference says {}", self.model.fen());
        if accepted && answer == before.fen() {
            self.errors = None;
            self.model = before;
            self.record("a position line the reference accepts is refused", detail);
            return Ok(());
        }
        if !accepted {
            self.errors = None;
            self.record("a position line the reference refuses is accepted", detail);
            return self.put_back();
        }
        Err(Broken("position after a position line", detail))
    }

    /// Sends the model's line again, so that the engine is where the model is.
    fn put_back(&mut self) -> Result<(), Broken> {
        let start = if self.model.from_startpos {
            "startpos".to_string()
        } else {
            format!("fen {}", self.model.fens[0])
        };
        let mut line = format!("position {start}");
        if !self.model.moves.is_empty() {
            line = format!("{line} moves {}", self.model.moves.join(" "));
        }
        self.write(line.as_bytes(), false);
        let answer = self.ask("fen")?;
        if answer != self.model.fen() {
            return Err(Broken(
                "position after a position line",
                format!("'{line}' leaves the engine at {answer}"),
            ));
        }
        Ok(())
    }

    /// `query Q` now, with the answer.
    fn ask(&mut self, question: &str) -> Result<String, Broken> {
        self.checker.captured = None;
        let asked = format!("query {question}");
        self.checker.blocks.push_back(Block::Response { expected: Answer::Capture, asked });
        self.write(format!("query {question}").as_bytes(), false);
        self.pump("response", READY, |c| c.captured.is_some())?;
        Ok(self.checker.captured.take().unwrap())
    }

    /// Makes sure no search runs: waits for searches that end by themselves, or sends `stop`
    /// (decided from what was sent alone, see [`Checker::sent`]).
    fn make_idle(&mut self) -> Result<(), Broken> {
        if self.checker.sent.is_empty() {
            return Ok(());
        }
        let all_end = self.checker.sent.iter().all(|s| s.ends && !s.waits && !s.pondering);
        if all_end && self.rng.below(2) == 0 {
            self.pump("bestmove", BESTMOVE, |c| !c.running())?;
            self.checker.waited();
        } else {
            self.write(b"stop", true);
            self.checker.stop_sent();
        }
        Ok(())
    }

    /// Reads and judges output until `done`, within `bound`.
    fn pump(&mut self, what: &str, bound: Duration, done: impl Fn(&Checker) -> bool) -> Result<(), Broken> {
        let deadline = Instant::now() + bound;
        while !done(&self.checker) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Broken("a hang", format!("no {what} within {bound:?}")));
            }
            let asked = Instant::now();
            match self.engine.recv(left) {
                Some((_, line)) => self.checker.handle(&line).map_err(|e| Broken("wrong output", e))?,
                None if asked.elapsed() + Duration::from_millis(100) < left => return Err(self.died()),
                None => {}
            }
        }
        for finding in self.checker.take_findings() {
            self.record(finding.kind, finding.detail);
        }
        Ok(())
    }

    /// The engine's output has ended: how it exited.
    fn died(&mut self) -> Broken {
        let status = self.engine.wait_exit(READY);
        Broken(
            "the engine died",
            format!("its output ended; exit {status}; stderr: {}", self.engine.stderr()),
        )
    }

    /// `query fen` and `isready`: the answers of the batch, checked; the error lines counted;
    /// stderr free of panics.
    pub fn sync(&mut self) -> Result<(), Broken> {
        self.figures.syncs += 1;
        let fen = self.model.fen().to_string();
        let asked = "query fen (the sync)".to_string();
        let expected = Answer::Exact { text: fen, drift: true };
        self.checker.blocks.push_back(Block::Response { expected, asked });
        self.write(b"query fen", false);
        self.checker.blocks.push_back(Block::Ready { after_stops: true });
        self.write(b"isready", false);
        self.pump("readyok", READY, |c| c.blocks.is_empty())?;
        let seen = self.checker.take_errors();
        if let Some(expected) = self.errors
            && seen != expected
        {
            let kind = self.label.unwrap_or("error lines differ from the protocol's");
            self.record(kind, format!("{seen} error lines, expected {expected}"));
        }
        self.label = None;
        let stderr = self.engine.stderr();
        if stderr.contains("panicked") || stderr.contains("backtrace") {
            return Err(Broken("a panic", format!("stderr: {stderr}")));
        }
        self.batch.clear();
        self.errors = Some(0);
        let keep = self.engine.transcript.len().saturating_sub(400);
        if keep > 4000 {
            self.engine.transcript.drain(..keep);
        }
        Ok(())
    }

    /// Ends the session: every search answered, `quit`, a clean exit.
    pub fn finish(mut self) -> (Figures, Defects, super::checker::Counts) {
        let result = self
            .make_idle()
            .and_then(|()| self.sync())
            .and_then(|()| self.pump("last bestmove", BESTMOVE, |c| c.searches.is_empty()));
        if let Err(Broken(kind, detail)) = result {
            self.record(kind, detail);
        }
        self.write(b"quit", false);
        let status = self.engine.wait_exit(READY);
        let stderr = self.engine.stderr();
        if !status.success() || stderr.contains("panicked") {
            self.record("an unclean exit", format!("exit {status}; stderr: {stderr}"));
        }
        (self.figures, self.defects, self.checker.counts)
    }
}
