//! The games of the GUI: one per browser tab, each with its own engine processes.
//!
//! A game is its variant, its start position, the moves played (with what the engine said of
//! its own moves) and who plays each side: a person at the page, or an engine given on the
//! command line. Whenever an engine is to move, a thread lends it the game's engine process,
//! sends `position ... moves ...` and `go movetime T` (or, with a clock, `go wtime W btime B
//! winc I binc I`), checks the answer with the rules, and
//! plays it only if the game has not changed meanwhile (a take-back or a new game makes the
//! answer stale: it is dropped). An engine that crashes, hangs or answers with an illegal move
//! changes nothing: the game keeps its moves, the fault is shown, and engine play pauses until
//! the page asks to resume (the engine is restarted if needed).
//!
//! **Draws.** A game that can repeat a position (HexDame) is drawn at once by threefold
//! repetition ([`super::view`] replays the moves through the game's history), whoever plays it.
//! A game between two engines also ends by the match runner's draw cap for endless games
//! (50 reversible plies in a row or 400 plies in HexDame): two engines could otherwise shuffle
//! kings for ever. The cap is not a rule of the game, so a game with a person in it is drawn
//! only by repetition (the person can stop whenever he likes). Once a game is drawn no engine
//! is asked for a move and no move is accepted; its record says `1/2-1/2`.
//!
//! **Engine processes** stop when the game ends or is left (no page has shown it for a while),
//! and start again when needed ([`super::upkeep`]); a left game asked for again plays on.
//!
//! Beside this file: [`record`] saves and opens records, [`analysis`] runs an engine's
//! analysis, [`lifetime`] finds the engines finished and left games no longer need.

mod analysis;
mod lifetime;
mod record;

pub(super) use record::read_comment;

use super::changes::{self, lock};
use super::view::{PositionView, view, view_capped};
use crate::client::spec::EngineSpec;
use crate::client::{Engine, Fault};
use crate::tools::matches::record::Category;
use crate::variants;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How much longer than its move time an engine may take before it counts as hung.
const GRACE: Duration = Duration::from_secs(5);

/// One move of a game, with what its engine said of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Played {
    /// The move text.
    pub text: String,
    /// The engine's last depth, for an engine's move.
    pub depth: Option<u32>,
    /// The engine's last score (`cp 35`, `mate 3`), for an engine's move.
    pub score: Option<String>,
}

/// A new game as the page asks for it.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct NewGame {
    /// The variant's name.
    pub variant: String,
    /// The start position (`None` or empty: the variant's).
    pub fen: Option<String>,
    /// Who plays White (P1) and Black: `human` or an engine's name.
    pub players: [String; 2],
    /// The engines' time per move in milliseconds (without a clock).
    pub movetime: u64,
    /// A clock for both sides instead: `[base, increment]` in milliseconds.
    #[serde(default)]
    pub clock: Option<[u64; 2]>,
}

/// What the analysing engine says of a position of the game.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Analysis {
    /// The engine analysing.
    pub engine: String,
    /// The ply analysed (0: the start position).
    pub ply: usize,
    /// Its FEN.
    pub fen: String,
    /// The last depth reported.
    pub depth: Option<u32>,
    /// The last score reported: `cp X` or `mate N`, for the side to move.
    pub score: Option<String>,
    /// The last speed reported, nodes per second.
    pub nps: Option<u64>,
    /// The principal variation, cut at its first move the rules reject.
    pub pv: Vec<String>,
    /// True until the engine has stopped.
    pub running: bool,
    /// What went wrong, if the engine failed.
    pub error: Option<String>,
}

/// A game's state as the page sees it.
#[derive(Clone, Debug, Serialize)]
pub struct Snapshot {
    /// The game's id.
    pub id: u64,
    /// The variant.
    pub variant: &'static str,
    /// The start position.
    pub start: String,
    /// The moves played.
    pub moves: Vec<Played>,
    /// The current position.
    pub position: PositionView,
    /// Who plays each side.
    pub players: [String; 2],
    /// The engines' time per move.
    pub movetime: u64,
    /// The time left on each side's clock in milliseconds, counted to now (with a clock).
    pub clocks: Option<[i64; 2]>,
    /// The increment of the clock.
    pub increment: u64,
    /// The side that lost on time, if one did: the game is over.
    pub time_loss: Option<&'static str>,
    /// True while an engine thinks.
    pub thinking: bool,
    /// The last engine fault, while engine play is paused.
    pub error: Option<String>,
    /// Changes with every change of the game, so that the page redraws only when needed.
    pub version: u64,
    /// The analysis of a position, while one is asked for.
    pub analysis: Option<Analysis>,
}

/// One game.
struct Game {
    id: u64,
    variant: &'static str,
    start: String,
    moves: Vec<Played>,
    players: [String; 2],
    movetime: u64,
    /// Each side's time left in milliseconds when its turn began (with a clock).
    clocks: Option<[i64; 2]>,
    increment: u64,
    /// When the turn of the side to move began.
    turn_started: Instant,
    /// The side that lost on time.
    time_loss: Option<usize>,
    /// The engine process of each side, started on its first move.
    engines: [Option<Engine>; 2],
    thinking: bool,
    error: Option<String>,
    /// Counts the changes shown to the page (moves, faults, analysis).
    version: u64,
    /// Counts the changes of the moves: an engine's answer for an older one is stale.
    generation: u64,
    analysis: Option<Analysis>,
    /// Raised to stop the running analysis.
    analysis_stop: Arc<AtomicBool>,
    /// The analysing engine's process, between analyses.
    analyser: Option<Engine>,
    /// True when both sides are engines: the match runner's draw cap applies.
    cap: bool,
    /// The detail of a record opened with a draw by the draw cap (`draw cap: DETAIL`): the
    /// game stays drawn after its last move, whatever cap the runner used, until the moves
    /// change.
    adjudicated: Option<String>,
    /// When a request last named the game (an open page does every second).
    last_seen: Instant,
    /// Set once no page has shown the game for the idle timeout: its engines are stopped and
    /// none is asked to move, until the game is asked for again.
    left: bool,
}

impl Game {
    fn texts(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.text.clone()).collect()
    }

    /// The position after `texts` from the game's start, with the game's draw cap.
    fn view_of(&self, texts: &[String]) -> Result<PositionView, String> {
        view_capped(self.variant, Some(&self.start), texts, self.cap)
    }

    fn view(&self) -> PositionView {
        let mut position = self.view_of(&self.texts()).expect("a game holds only legal moves");
        if let Some(detail) = self.adjudicated.as_ref().filter(|_| position.result.is_none()) {
            position.result = Some(format!("draw by the draw cap: {detail}"));
            position.draw = Some(Category::DrawCap.label());
            position.legal.clear();
        }
        position
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            id: self.id,
            variant: self.variant,
            start: self.start.clone(),
            moves: self.moves.clone(),
            position: self.view(),
            players: self.players.clone(),
            movetime: self.movetime,
            clocks: self.clocks_now(),
            increment: self.increment,
            time_loss: self.time_loss.map(|side| ["white", "black"][side]),
            thinking: self.thinking,
            error: self.error.clone(),
            version: self.version,
            analysis: self.analysis.clone(),
        }
    }

    /// The clocks counted to now: the side to move's running time is taken off.
    fn clocks_now(&self) -> Option<[i64; 2]> {
        let mut clocks = self.clocks?;
        if self.time_loss.is_none() && self.view().result.is_none() {
            let side = usize::from(self.view().to_move != "white");
            clocks[side] -= self.turn_started.elapsed().as_millis() as i64;
        }
        Some(clocks)
    }

    /// Charges the move just made by `side` to its clock (and adds the increment), or records
    /// its loss on time; the other side's turn starts now.
    fn charge(&mut self, side: usize) {
        if let Some(clocks) = self.clocks.as_mut() {
            clocks[side] -= self.turn_started.elapsed().as_millis() as i64;
            if clocks[side] < 0 {
                self.time_loss = Some(side);
            } else {
                clocks[side] += self.increment as i64;
            }
        }
        self.turn_started = Instant::now();
    }

    /// Records a loss on time of the side to move if its clock has run out (checked whenever
    /// the game is looked at).
    fn check_flag(&mut self) {
        if let Some(clocks) = self.clocks_now() {
            let view = self.view();
            let side = usize::from(view.to_move != "white");
            if self.time_loss.is_none() && view.result.is_none() && clocks[side] < 0 {
                self.time_loss = Some(side);
                self.changed();
            }
        }
    }

    /// Whether the game has ended (by the rules, a draw or a loss on time).
    fn is_over(&self) -> bool {
        self.time_loss.is_some() || self.view().result.is_some()
    }

    /// The side (0 = White) to move when an engine is to move and may.
    fn engine_to_move(&self, view: &PositionView) -> Option<usize> {
        let side = usize::from(view.to_move != "white");
        let may = !self.thinking
            && !self.left
            && self.error.is_none()
            && view.result.is_none()
            && self.time_loss.is_none();
        (may && self.players[side] != "human").then_some(side)
    }

    fn changed(&mut self) {
        self.version += 1;
        changes::notify();
    }
}

/// Every game of the server, and the engines the command line offers.
pub struct Games {
    games: Mutex<HashMap<u64, Arc<Mutex<Game>>>>,
    engines: Vec<(String, EngineSpec)>,
}

impl Games {
    /// A store offering `engines` (name and spec).
    pub fn new(engines: Vec<(String, EngineSpec)>) -> Arc<Games> {
        Arc::new(Games { games: Mutex::new(HashMap::new()), engines })
    }

    /// The engines' names.
    pub fn engine_names(&self) -> Vec<String> {
        self.engines.iter().map(|(name, _)| name.clone()).collect()
    }

    /// Starts a game; an engine to move starts thinking.
    pub fn create(self: &Arc<Games>, new: &NewGame) -> Result<Snapshot, String> {
        let info = variants::find(&new.variant)?;
        for player in &new.players {
            if player != "human" && !self.engines.iter().any(|(name, _)| name == player) {
                return Err(format!(
                    "unknown player '{player}' (human or one of: {})",
                    self.engine_names().join(", ")
                ));
            }
        }
        let fen = new.fen.as_deref().map(str::trim).filter(|f| !f.is_empty());
        let start = view(info.name, fen, &[])?.fen;
        let id = changes::new_id();
        let game = Game {
            id,
            variant: info.name,
            start,
            moves: Vec::new(),
            players: new.players.clone(),
            movetime: new.movetime.clamp(10, 600_000),
            clocks: new.clock.map(|[base, _]| [base.clamp(100, 36_000_000) as i64; 2]),
            increment: new.clock.map_or(0, |[_, inc]| inc.min(600_000)),
            turn_started: Instant::now(),
            time_loss: None,
            engines: [None, None],
            thinking: false,
            error: None,
            version: 1,
            generation: 0,
            analysis: None,
            analysis_stop: Arc::new(AtomicBool::new(false)),
            analyser: None,
            cap: new.players.iter().all(|player| player != "human"),
            adjudicated: None,
            last_seen: Instant::now(),
            left: false,
        };
        let game = Arc::new(Mutex::new(game));
        lock(&self.games).insert(id, game.clone());
        self.kick(&game);
        Ok(lock(&game).snapshot())
    }

    /// The game `id`, seen now: a left game is no longer, and an engine to move starts.
    fn game(self: &Arc<Games>, id: u64) -> Result<Arc<Mutex<Game>>, String> {
        let game =
            lock(&self.games).get(&id).cloned().ok_or_else(|| format!("no game {id} (start a new game)"))?;
        let was_left = {
            let mut g = lock(&game);
            g.last_seen = Instant::now();
            std::mem::replace(&mut g.left, false)
        };
        if was_left {
            self.kick(&game);
        }
        Ok(game)
    }

    /// The state of game `id`.
    pub fn snapshot(self: &Arc<Games>, id: u64) -> Result<Snapshot, String> {
        let game = self.game(id)?;
        let mut g = lock(&game);
        g.check_flag();
        Ok(g.snapshot())
    }

    /// Plays a person's move (its text trimmed); refused when it is an engine's turn, the move
    /// is illegal or its text cannot be a move ([`super::limits::move_text`]).
    pub fn play(self: &Arc<Games>, id: u64, text: &str) -> Result<Snapshot, String> {
        let text = super::limits::move_text(text)?;
        let game = self.game(id)?;
        {
            let mut g = lock(&game);
            g.check_flag();
            if let Some(side) = g.time_loss {
                return Err(format!("{} has lost on time", ["white", "black"][side]));
            }
            let position = g.view();
            if let Some(result) = position.result {
                return Err(format!("the game is over: {result}"));
            }
            let side = usize::from(position.to_move != "white");
            if g.players[side] != "human" {
                return Err(format!("it is {}'s turn", g.players[side]));
            }
            let mut texts = g.texts();
            texts.push(text.to_string());
            g.view_of(&texts)?;
            g.charge(side);
            g.moves.push(Played { text: text.to_string(), depth: None, score: None });
            g.generation += 1;
            g.changed();
        }
        self.kick(&game);
        Ok(lock(&game).snapshot())
    }

    /// Goes back to the position after `ply` moves (0: the start), dropping the later moves; an
    /// engine thinking on a later position is ignored when it answers.
    pub fn truncate(self: &Arc<Games>, id: u64, ply: usize) -> Result<Snapshot, String> {
        let game = self.game(id)?;
        {
            let mut g = lock(&game);
            if ply > g.moves.len() {
                return Err(format!("the game has only {} moves", g.moves.len()));
            }
            if ply < g.moves.len() {
                g.adjudicated = None; // the adjudicated end is gone with the moves
            }
            g.moves.truncate(ply);
            g.generation += 1;
            g.time_loss = None;
            g.turn_started = Instant::now();
            g.thinking = false;
            g.error = None;
            g.changed();
        }
        self.kick(&game);
        Ok(lock(&game).snapshot())
    }

    /// Takes back the last move, and the engine's moves before it, back to a person's turn.
    pub fn take_back(self: &Arc<Games>, id: u64) -> Result<Snapshot, String> {
        let game = self.game(id)?;
        let ply = {
            let g = lock(&game);
            let mut texts = g.texts();
            texts.pop();
            while !texts.is_empty() {
                let position = view(g.variant, Some(&g.start), &texts)?;
                let side = usize::from(position.to_move != "white");
                if g.players[side] == "human" {
                    break;
                }
                texts.pop();
            }
            texts.len()
        };
        self.truncate(id, ply)
    }

    /// Clears an engine fault and lets engine play go on (restarting a broken engine).
    pub fn resume(self: &Arc<Games>, id: u64) -> Result<Snapshot, String> {
        let game = self.game(id)?;
        {
            let mut g = lock(&game);
            g.error = None;
            g.changed();
        }
        self.kick(&game);
        Ok(lock(&game).snapshot())
    }

    /// Starts the engine's move if an engine is to move.
    fn kick(self: &Arc<Games>, game: &Arc<Mutex<Game>>) {
        let mut g = lock(game);
        let position = g.view();
        let Some(side) = g.engine_to_move(&position) else { return };
        let name = g.players[side].clone();
        let Some((_, spec)) = self.engines.iter().find(|(n, _)| *n == name) else { return };
        let mut spec = spec.clone();
        if g.variant != variants::DEFAULT_VARIANT {
            spec.set_variant(g.variant);
        }
        let engine = g.engines[side].take().filter(Engine::is_usable);
        let go = match g.clocks_now() {
            Some([white, black]) => format!(
                "go wtime {} btime {} winc {inc} binc {inc}",
                white.max(0),
                black.max(0),
                inc = g.increment
            ),
            None => format!("go movetime {}", g.movetime),
        };
        let budget = match g.clocks_now() {
            Some(clocks) => clocks[side].max(0) as u64,
            None => g.movetime,
        };
        let request =
            (g.generation, format!("position fen {}{}", g.start, moves_suffix(&g.texts())), go, budget);
        g.thinking = true;
        g.changed();
        let (games, game) = (self.clone(), game.clone());
        std::thread::spawn(move || {
            let (generation, position_line, go, budget) = request;
            let (engine, reply) = think(engine, &spec, &position_line, &go, budget);
            games.answer(&game, side, &name, generation, engine, reply);
        });
    }

    /// Takes an engine's answer: plays it if the game is still where the engine was asked.
    fn answer(
        self: &Arc<Games>,
        game: &Arc<Mutex<Game>>,
        side: usize,
        name: &str,
        generation: u64,
        engine: Option<Engine>,
        reply: Result<Played, String>,
    ) {
        {
            let mut g = lock(game);
            g.engines[side] = engine;
            if g.generation != generation {
                return; // the moves changed while the engine thought: the answer is stale
            }
            g.thinking = false;
            let checked = reply.and_then(|played| {
                let mut texts = g.texts();
                texts.push(played.text.clone());
                g.view_of(&texts)
                    .map(|_| played)
                    .map_err(|e| format!("{name} answered with an illegal move: {e}"))
            });
            match checked {
                Ok(played) => {
                    g.charge(side);
                    if g.time_loss.is_none() {
                        g.moves.push(played);
                        g.generation += 1;
                    }
                }
                Err(e) => g.error = Some(e),
            }
            g.changed();
        }
        self.kick(game);
    }
}

/// ` moves M1 M2 ...`, or nothing for no moves.
pub(super) fn moves_suffix(texts: &[String]) -> String {
    if texts.is_empty() { String::new() } else { format!(" moves {}", texts.join(" ")) }
}

/// Asks `engine` (started from `spec` if `None`) for a move with `go`, allowing it `budget`
/// milliseconds (plus a grace); returns the engine to keep (none when it failed) and the move
/// or what went wrong. Dice games ask their engines the same way.
pub(super) fn think(
    engine: Option<Engine>,
    spec: &EngineSpec,
    position: &str,
    go: &str,
    budget: u64,
) -> (Option<Engine>, Result<Played, String>) {
    let name = spec.name.clone().unwrap_or_else(|| spec.command.join(" "));
    let mut engine = match engine {
        Some(engine) => engine,
        None => match Engine::start(spec) {
            Ok(engine) => engine,
            Err(e) => return (None, Err(format!("{name} could not start: {e}"))),
        },
    };
    let limit = Duration::from_millis(budget) + GRACE;
    match engine.think(position, go, limit) {
        Ok(reply) if reply.bestmove.is_empty() || reply.bestmove == "(none)" => {
            (Some(engine), Err(format!("{name} answered 'bestmove {}' without a move", reply.bestmove)))
        }
        Ok(reply) => {
            (Some(engine), Ok(Played { text: reply.bestmove, depth: reply.depth, score: reply.score }))
        }
        Err(Fault::Crash(detail)) => (None, Err(format!("{name} crashed: {detail}"))),
        Err(Fault::Protocol(detail)) => (None, Err(format!("{name} broke the protocol: {detail}"))),
        Err(Fault::NoAnswer { waited, .. }) => {
            engine.kill();
            (None, Err(format!("{name} gave no move within {:.1} s", waited.as_secs_f64())))
        }
    }
}
