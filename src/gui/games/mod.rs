//! The games of the GUI, whatever the game: one per browser tab, each with its own engine
//! processes. Nothing here names a game: the rules are the referee, reached through
//! [`super::view`].
//!
//! A game is its variant, its start position, the steps played (with what the engines said of
//! their own) and its seats, 2 to 4 (as many as the game has players), each a person at the
//! page or an engine given on the command line (a dice game's engine seat may be given one of
//! the game's fixed players as its strategy). At a chance node the server rolls the dice: a
//! game has a seed (the page's, or one drawn from the clock) whose SplitMix64 generator gives
//! one number per roll, and the roll is the rules' `chance_step(number % chance_total)`, so
//! the same seed and the same decisions give the same dice. A board game has no chance node.
//! A person rolls with the page's Roll button (`roll`: at the start of his turn, or as his
//! decision to roll again, when the dice follow at once); an engine seat's dice are rolled for
//! it as soon as they are due. A roll that busts is applied with the roll, by the rules.
//!
//! **Engine play** ([`engines`]): whenever a decision is up to an engine, a thread lends it
//! the seat's engine process, checks its answer with the rules, and plays it only if the game
//! has not changed meanwhile (a take-back makes the answer stale: it is dropped). A fault
//! (a crash, a hang, an illegal answer) changes nothing: the fault is shown, and engine play
//! pauses until the page asks to resume (the engine is restarted if needed). Its settings,
//! per game: the engines' time per move or a clock for both sides (`go wtime ...`); the match
//! runner's draw cap, which ends a game between two engines that could shuffle kings for ever
//! (not a rule, so a game with a person in it is drawn only by repetition); and the pace of a
//! dice game, whose engine decisions and first rolls wait the time per move, so that a person
//! can follow the engines' turns.
//!
//! **Engine processes** stop when the game ends or is left (no page has shown it for a while),
//! and start again when needed ([`lifetime`], [`super::upkeep`]); a left game asked for again
//! plays on. [`analysis`] runs an engine's analysis of a position, where the variant can be
//! analysed ([`super::view::Capabilities::analysable`]), and [`review`] an engine's review of
//! every move of a game there. Records are written and read by [`super::records`]; this file
//! opens them as games.

mod analysis;
mod endings;
mod engines;
mod lifetime;
mod pace;
mod review;

use super::changes::{self, lock};
use super::limits::Limits;
use super::records::{self, Ending, Opened, Played, Saved, Seat};
use super::view::{
    Capabilities, EventInfo, RuleSettings, SEARCH, View, capabilities, rule_settings, start_fen, view,
    view_capped,
};
use crate::client::Engine;
use crate::client::spec::EngineSpec;
use crate::game::Node;
use crate::tools::matches::record::Category;
use crate::tools::rng::SplitMix64;
use crate::variants::Family;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The largest seed the page may give: the protocol's `Seed` option takes 32 bits, and a fixed
/// player's seed is derived from the game's (a record keeps any 64-bit seed it has).
pub const MAX_SEED: u64 = u32::MAX as u64;

/// Why a game with dice cannot go back (take back, play from here).
const NO_REWIND: &str = "going back is for board games: a dice game's rolls cannot be taken back";

/// A new game as the page asks for it: a board game's page gives `players` (and perhaps a
/// clock), a dice game's `seats` (and perhaps a seed).
#[derive(Clone, Debug, Deserialize)]
pub struct NewGame {
    /// The variant's name.
    pub variant: String,
    /// The rule options, by name (`{"ColumnsToWin": "4"}`); an option not given has its
    /// default.
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    /// The start position (`None` or empty: the variant's, for the seats given).
    pub fen: Option<String>,
    /// Who plays each seat, `human` or an engine's name (board games: White, then Black).
    #[serde(default)]
    pub players: Option<Vec<String>>,
    /// The seats with their strategies, player 1 first (dice games).
    #[serde(default)]
    pub seats: Option<Vec<Seat>>,
    /// The engines' time per move in milliseconds (without a clock).
    pub movetime: u64,
    /// A clock for every seat instead: `[base, increment]` in milliseconds.
    #[serde(default)]
    pub clock: Option<[u64; 2]>,
    /// The seed of the dice (`None`: drawn from the clock).
    #[serde(default)]
    pub seed: Option<u64>,
    /// A dice game's pause between an engine's steps, in milliseconds (`None`: the time per
    /// move; 0: none): see [`pace`].
    #[serde(default)]
    pub pace: Option<u64>,
    /// A board game's engine seats' strength levels, White's first (`Skill Level` 0 to 8;
    /// `None` or 9: full strength). A dice game's seats carry their own.
    #[serde(default)]
    pub levels: Option<Vec<Option<u32>>>,
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
    /// The number of lines asked for (`MultiPV`).
    pub multipv: usize,
    /// The best lines of the last depth, best first: line 1 is `depth`, `score` and `pv`.
    pub lines: Vec<AnalysisLine>,
    /// True until the engine has stopped.
    pub running: bool,
    /// What went wrong, if the engine failed.
    pub error: Option<String>,
    /// The endgame tables' verdict (`--tables`): `value win N` for the position, then
    /// `move M loss N` for each move, as `steere tb probe` prints them; empty when the tables
    /// do not hold the position.
    pub tablebase: Vec<String>,
}

/// The endgame tables an analysis uses (`steere gui --tables DIR`).
#[derive(Clone, Debug)]
pub struct AnalysisTables {
    /// Their directory.
    pub dir: std::path::PathBuf,
    /// The engines given them as `TablebasePath` (those that are this steere).
    pub engines: Vec<String>,
}

/// One line of an analysis with several (`info ... multipv K ...`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct AnalysisLine {
    /// Its rank, from 1 (the best).
    pub multipv: usize,
    /// The depth it was searched to.
    pub depth: Option<u32>,
    /// Its score, `cp X` or `mate N`, for the side to move.
    pub score: Option<String>,
    /// Its moves, cut at the first the rules reject.
    pub pv: Vec<String>,
}

/// One game.
struct Game {
    id: u64,
    variant: &'static str,
    /// The rule options that differ from the variant's defaults (canonical names and values).
    options: RuleSettings,
    caps: Capabilities,
    start: String,
    steps: Vec<Played>,
    seats: Vec<Seat>,
    movetime: u64,
    /// Each seat's time left in milliseconds when its turn began (with a clock).
    clocks: Option<Vec<i64>>,
    increment: u64,
    /// When the turn of the seat to move began.
    turn_started: Instant,
    /// The seat that lost on time.
    time_loss: Option<usize>,
    seed: u64,
    /// The generator of the dice, after the rolls so far.
    dice: SplitMix64,
    /// The engine process of each seat, started at its first decision.
    engines: Vec<Option<Engine>>,
    thinking: bool,
    /// Set once an engine's turn has waited its pace before its first roll.
    paced: bool,
    /// The pause between a paced game's engine steps, in milliseconds ([`pace`]).
    pace: u64,
    /// The seat whose engine turn is being skipped (played without pauses).
    skipping: Option<usize>,
    error: Option<String>,
    /// Counts the changes shown to the page (steps, faults, analysis).
    version: u64,
    /// Counts the changes of the steps: an engine's answer for an older one is stale.
    generation: u64,
    analysis: Option<Analysis>,
    /// Raised to stop the running analysis.
    analysis_stop: Arc<AtomicBool>,
    /// The analysing engine's process, between analyses.
    analyser: Option<Engine>,
    /// The review of the game's moves, running or ended ([`review`]).
    review: Option<review::Review>,
    /// Raised to stop the running review.
    review_stop: Arc<AtomicBool>,
    /// True when every seat is an engine: the match runner's draw cap applies.
    cap: bool,
    /// How the game ended beside its moves (a resignation, a draw agreed, a record's draw by
    /// the runner's cap): see [`Opened::ending`].
    ending: Option<Ending>,
    /// The seat whose offer of a draw stands (until the other side answers or a move is made).
    draw_offer: Option<usize>,
    /// Set when a take-back in a game of engines only paused their play, until resumed.
    paused: bool,
    /// When a request last named the game (an open page does every second).
    last_seen: Instant,
    /// Set once no page has shown the game for the idle timeout: its engines are stopped and
    /// none is asked to move, until the game is asked for again.
    left: bool,
}

impl Game {
    fn texts(&self) -> Vec<String> {
        self.steps.iter().map(|m| m.text.clone()).collect()
    }

    /// The position after `texts` from the game's start, with the game's draw cap.
    fn view_of(&self, texts: &[String]) -> Result<View, String> {
        view_capped(self.variant, &self.options, Some(&self.start), texts, self.cap)
    }

    fn view(&self) -> View {
        let mut position = self.view_of(&self.texts()).expect("a game holds only legal steps");
        if position.result.is_none() {
            endings::apply(self.ending.as_ref(), &mut position);
        }
        position
    }

    /// The game's state as the page reads it: what every game has, and its family's own
    /// fields (a board game's moves, clocks and analysis; a dice game's seed, seats and
    /// events, each told who made it and whether it bust).
    fn snapshot(&self) -> Value {
        let position = self.view();
        let mut state = json!({
            "id": self.id,
            "variant": self.variant,
            "options": self.options.iter().cloned().collect::<BTreeMap<String, String>>(),
            "start": self.start,
            "movetime": self.movetime,
            "thinking": self.thinking,
            "paused": self.paused,
            "error": self.error,
            "version": self.version,
        });
        let own = match self.caps.family {
            Family::Board => json!({
                "moves": self.steps,
                "players": self.seats.iter().map(|s| s.player.as_str()).collect::<Vec<_>>(),
                "levels": self.seats.iter().map(|s| s.level).collect::<Vec<_>>(),
                "draw_offer": self.draw_offer.map(|seat| position.seat_name(seat)),
                "draws": self.caps.draws,
                "clocks": self.clocks_now(),
                "increment": self.increment,
                "time_loss": self.time_loss.map(|seat| position.seat_name(seat)),
                "analysis": self.analysis,
                "review": self.review,
            }),
            Family::Dice => json!({
                "family": "dice",
                // As text: a record's seed may exceed what a JavaScript number holds exactly.
                "seed": self.seed.to_string(),
                "seats": self.seats,
                "pace": self.pace,
                "skipping": self.skipping.map(|seat| seat + 1),
                "events": self.steps.iter().zip(&position.events).map(logged).collect::<Vec<_>>(),
            }),
        };
        if let (Value::Object(state), Value::Object(own)) = (&mut state, own) {
            state.extend(own);
        }
        state["position"] = json!(position);
        state
    }

    /// The clocks counted to now: the seat to move's running time is taken off.
    fn clocks_now(&self) -> Option<Vec<i64>> {
        let mut clocks = self.clocks.clone()?;
        let view = self.view();
        if self.time_loss.is_none() && !view.is_over() {
            clocks[view.to_move] -= self.turn_started.elapsed().as_millis() as i64;
        }
        Some(clocks)
    }

    /// Charges the step just made by `seat` to its clock (and adds the increment), or records
    /// its loss on time; the next turn starts now.
    fn charge(&mut self, seat: usize) {
        if let Some(clocks) = self.clocks.as_mut() {
            clocks[seat] -= self.turn_started.elapsed().as_millis() as i64;
            if clocks[seat] < 0 {
                // A flag shows 0:00, not the time the turn began with.
                clocks[seat] = 0;
                self.time_loss = Some(seat);
            } else {
                clocks[seat] += self.increment as i64;
            }
        }
        self.turn_started = Instant::now();
    }

    /// Records a loss on time of the seat to move if its clock has run out (checked whenever
    /// the game is looked at).
    fn check_flag(&mut self) {
        if let Some(clocks) = self.clocks_now() {
            let view = self.view();
            if self.time_loss.is_none() && !view.is_over() && clocks[view.to_move] < 0 {
                self.time_loss = Some(view.to_move);
                if let Some(stored) = self.clocks.as_mut() {
                    stored[view.to_move] = 0;
                }
                self.changed();
            }
        }
    }

    /// Whether the game has ended (by the rules, a draw or a loss on time).
    fn is_over(&self) -> bool {
        self.time_loss.is_some() || self.view().is_over()
    }

    /// Rolls the dice in the position `fen` (where a roll is due) and records the roll.
    fn roll(&mut self, fen: &str) -> Result<(), String> {
        let text = super::view::roll(self.variant, &self.options, fen, self.dice.next_u64())?;
        self.steps.push(Played::bare(&text));
        self.generation += 1;
        Ok(())
    }

    fn changed(&mut self) {
        self.version += 1;
        changes::notify();
    }
}

/// Every game of the server, the engines the command line offers, and the limits on games.
pub struct Games {
    games: Mutex<HashMap<u64, Arc<Mutex<Game>>>>,
    engines: Vec<(String, EngineSpec)>,
    /// The endgame tables of the analysis (`--tables`), if any.
    tables: Option<AnalysisTables>,
    /// The idle timeout and the cap on games in progress.
    pub limits: Limits,
    /// Held while a new game is admitted and made, so that two at once cannot pass the cap.
    pub(super) admission: Mutex<()>,
}

impl Games {
    /// A store offering `engines` (name and spec), within `limits`, analysing with `tables`.
    pub fn new(
        engines: Vec<(String, EngineSpec)>,
        limits: Limits,
        tables: Option<AnalysisTables>,
    ) -> Arc<Games> {
        Arc::new(Games {
            games: Mutex::new(HashMap::new()),
            engines,
            tables,
            limits,
            admission: Mutex::new(()),
        })
    }

    /// The engines' names.
    pub fn engine_names(&self) -> Vec<String> {
        self.engines.iter().map(|(name, _)| name.clone()).collect()
    }

    /// The seats checked: known engines, and in a game with strategies known strategies
    /// (`search` by default); none for a person.
    fn checked_seats(&self, caps: &Capabilities, seats: Vec<Seat>) -> Result<Vec<Seat>, String> {
        let names = || self.engine_names().join(", ");
        let checked = |(i, seat): (usize, Seat)| {
            if seat.is_human() {
                return Ok(Seat::human());
            }
            if !self.engines.iter().any(|(name, _)| *name == seat.player) {
                return Err(format!(
                    "seat {}: unknown player '{}' (human or one of: {})",
                    i + 1,
                    seat.player,
                    names()
                ));
            }
            // Level 9 is full strength, the engine's default: no level is sent for it.
            let level = match seat.level {
                Some(level) if level > crate::levels::FULL => {
                    let full = crate::levels::FULL;
                    return Err(format!(
                        "seat {}: level {level}: expected 0 to {full} ({full}: full strength)",
                        i + 1
                    ));
                }
                level => level.filter(|&level| level < crate::levels::FULL),
            };
            if caps.strategies.is_empty() {
                return Ok(Seat { strategy: None, level, ..seat });
            }
            let strategy =
                seat.strategy.as_deref().map(str::trim).filter(|s| !s.is_empty()).unwrap_or(SEARCH);
            if !caps.strategies.contains(&strategy) {
                let known = caps.strategies.join(", ");
                return Err(format!("seat {}: unknown strategy '{strategy}' (one of: {known})", i + 1));
            }
            // A fixed player has no levels: it plays as it is.
            let level = level.filter(|_| strategy == SEARCH);
            Ok(Seat { strategy: Some(strategy.to_string()), level, ..seat })
        };
        seats.into_iter().enumerate().map(checked).collect()
    }

    /// Starts a game; an engine to move starts playing.
    pub fn create(self: &Arc<Games>, new: &NewGame) -> Result<Value, String> {
        let info = crate::variants::find(&new.variant)?;
        let caps = capabilities(info.name)?;
        // Each family's page names its seats its own way.
        let seats = match (caps.family, &new.players, &new.seats) {
            (Family::Board, Some(players), _) => {
                let levels = new.levels.clone().unwrap_or_default();
                let level = |i: usize| levels.get(i).copied().flatten();
                players
                    .iter()
                    .enumerate()
                    .map(|(i, player)| Seat { player: player.clone(), strategy: None, level: level(i) })
                    .collect()
            }
            (Family::Dice, _, Some(seats)) => seats.clone(),
            (Family::Board, None, _) => return Err("a board game needs its players (`players`)".to_string()),
            (Family::Dice, _, None) => return Err("a dice game needs its seats (`seats`)".to_string()),
        };
        let seats = self.checked_seats(&caps, seats)?;
        let fen = new.fen.as_deref().map(str::trim).filter(|f| !f.is_empty());
        let given: Vec<(String, String)> = new.options.clone().into_iter().collect();
        let options = rule_settings(info.name, &given)?;
        let start = start_fen(info.name, &options, seats.len(), fen)?;
        let seed = match new.seed {
            Some(seed) if seed > MAX_SEED => return Err(format!("seed {seed}: expected 0 to {MAX_SEED}")),
            Some(seed) => seed,
            None => clock_seed(),
        };
        let id = changes::new_id();
        let game = Game {
            id,
            variant: info.name,
            options,
            start,
            steps: Vec::new(),
            movetime: new.movetime.clamp(10, 600_000),
            clocks: new.clock.map(|[base, _]| vec![base.clamp(100, 36_000_000) as i64; seats.len()]),
            increment: new.clock.map_or(0, |[_, inc]| inc.min(600_000)),
            turn_started: Instant::now(),
            time_loss: None,
            seed,
            dice: SplitMix64(seed),
            engines: seats.iter().map(|_| None).collect(),
            cap: seats.iter().all(|seat| !seat.is_human()),
            seats,
            caps,
            thinking: false,
            paced: false,
            pace: new.pace.unwrap_or(new.movetime).min(10_000),
            skipping: None,
            error: None,
            version: 1,
            generation: 0,
            analysis: None,
            analysis_stop: Arc::new(AtomicBool::new(false)),
            analyser: None,
            ending: None,
            draw_offer: None,
            paused: false,
            review: None,
            review_stop: Arc::new(AtomicBool::new(false)),
            last_seen: Instant::now(),
            left: false,
        };
        let game = Arc::new(Mutex::new(game));
        lock(&self.games).insert(id, game.clone());
        self.kick(&game);
        Ok(lock(&game).snapshot())
    }

    /// The game `id`, seen now: a left game is no longer, and engine play goes on.
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
    pub fn snapshot(self: &Arc<Games>, id: u64) -> Result<Value, String> {
        let game = self.game(id)?;
        let mut g = lock(&game);
        g.check_flag();
        Ok(g.snapshot())
    }

    /// Plays a person's step (its text trimmed): `roll` rolls the dice where they are due
    /// (and, where it is the decision to roll again, rolls them at once). Refused on an
    /// engine's turn, after the end, for a roll of the player's own making, for text that
    /// cannot be a step ([`super::limits::move_text`]) and for anything the rules refuse.
    pub fn play(self: &Arc<Games>, id: u64, text: &str) -> Result<Value, String> {
        let text = super::limits::move_text(text)?;
        let game = self.game(id)?;
        let mut g = lock(&game);
        g.check_flag();
        let view = g.view();
        if let Some(seat) = g.time_loss {
            return Err(format!("{} has lost on time", view.seat_name(seat)));
        }
        if let Some(result) = &view.result {
            return Err(format!("the game is over: {result}"));
        }
        let (seat, to_move) = (&g.seats[view.to_move], view.seat_name(view.to_move));
        if !seat.is_human() {
            return Err(format!("it is {to_move}'s turn, played by {}", seat.label()));
        }
        g.declined_by(view.to_move);
        if view.node == Node::Chance {
            if text != "roll" {
                return Err(format!("'{text}': the dice are due, and the server rolls them: send 'roll'"));
            }
            g.roll(&view.fen)?;
        } else {
            let mut texts = g.texts();
            texts.push(text.to_string());
            let after = g.view_of(&texts)?;
            // The person's time over the move, for the record.
            let millis = Some(g.turn_started.elapsed().as_millis() as u64);
            g.charge(view.to_move);
            g.steps.push(Played { millis, ..Played::bare(text) });
            g.generation += 1;
            // The player chose to roll again: the dice follow at once.
            if after.node == Node::Chance && after.to_move == view.to_move {
                g.roll(&after.fen)?;
            }
        }
        g.changed();
        self.kick_locked(g, &game);
        Ok(lock(&game).snapshot())
    }

    /// Goes back to the position after `ply` steps (0: the start), dropping the later ones; an
    /// engine thinking on a later position is ignored when it answers.
    pub fn truncate(self: &Arc<Games>, id: u64, ply: usize) -> Result<Value, String> {
        let game = self.game(id)?;
        {
            let mut g = lock(&game);
            if !g.caps.rewinds {
                return Err(NO_REWIND.to_string());
            }
            if ply > g.steps.len() {
                return Err(format!("the game has only {} moves", g.steps.len()));
            }
            if ply < g.steps.len() {
                g.ending = None; // an end beside the moves is gone with them
            }
            g.draw_offer = None;
            g.steps.truncate(ply);
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

    /// Takes back the last step, and the engines' steps before it, back to a person's turn. In
    /// a game of engines only it takes back one move and pauses their play (until resumed):
    /// there is no person's turn to go back to, and they would play the move again at once.
    pub fn take_back(self: &Arc<Games>, id: u64) -> Result<Value, String> {
        let game = self.game(id)?;
        let ply = {
            let mut g = lock(&game);
            if !g.caps.rewinds {
                return Err(NO_REWIND.to_string());
            }
            if g.steps.is_empty() {
                return Err("no move to take back".to_string());
            }
            let mut texts = g.texts();
            texts.pop();
            if g.seats.iter().all(|seat| !seat.is_human()) {
                g.paused = true;
                drop(g);
                return self.truncate(id, texts.len());
            }
            while !texts.is_empty() && !g.seats[g.view_of(&texts)?.to_move].is_human() {
                texts.pop();
            }
            texts.len()
        };
        self.truncate(id, ply)
    }

    /// Clears an engine fault and lets engine play go on (restarting a broken engine).
    pub fn resume(self: &Arc<Games>, id: u64) -> Result<Value, String> {
        let game = self.game(id)?;
        let mut g = lock(&game);
        g.error = None;
        g.paused = false;
        g.changed();
        self.kick_locked(g, &game);
        Ok(lock(&game).snapshot())
    }

    /// The record of game `id` in its family's format ([`records::write`]).
    pub fn record_text(self: &Arc<Games>, id: u64) -> Result<String, String> {
        let game = self.game(id)?;
        let g = lock(&game);
        Ok(records::write(&Saved {
            variant: g.variant,
            options: &g.options,
            start: &g.start,
            seed: g.seed,
            seats: &g.seats,
            movetime: g.movetime,
            steps: &g.steps,
            time_loss: g.time_loss,
            ending: g.ending.as_ref(),
            view: g.view(),
        }))
    }

    /// Opens game `index` (from 0) of a record file ([`records::open`]) as a new game between
    /// people, with the recorded depths, scores and seed (the dice moved on past the recorded
    /// rolls). Returns it and a title for every game of the file.
    pub fn load(self: &Arc<Games>, text: &str, index: usize) -> Result<(Value, Vec<String>), String> {
        let (opened, titles) = records::open(text, index)?;
        let Opened { variant, options, fen, seed, steps, ending } = opened;
        let texts: Vec<String> = steps.iter().map(|s| s.text.clone()).collect();
        let position = view(&variant, &options, fen.as_deref(), &texts)?;
        let new = NewGame {
            variant,
            options: options.into_iter().collect(),
            fen,
            players: Some(vec!["human".to_string(); position.players]),
            seats: Some(vec![Seat::human(); position.players]),
            movetime: 1000,
            clock: None,
            seed: Some(0),
            pace: None,
            levels: None,
        };
        let id = self.create(&new)?["id"].as_u64().expect("a game has an id");
        let game = self.game(id)?;
        let mut g = lock(&game);
        // A record may come with any 64-bit seed (the match runner's are): kept as it is.
        g.seed = seed.unwrap_or_else(clock_seed);
        g.dice = SplitMix64(g.seed);
        for _ in position.events.iter().filter(|e| e.roll) {
            g.dice.next_u64();
        }
        g.steps = steps;
        g.ending = ending;
        g.generation += 1;
        g.changed();
        Ok((g.snapshot(), titles))
    }
}

/// A dice game's step as the page's log shows it: who made it, whether it was a roll and
/// whether it bust; the engine's depth and score are left out when there are none (a long
/// game's state is sent on every change).
fn logged((played, info): (&Played, &EventInfo)) -> Value {
    let mut event =
        json!({ "text": played.text, "player": info.player, "roll": info.roll, "bust": info.bust });
    if let Some(depth) = played.depth {
        event["depth"] = json!(depth);
    }
    if let Some(score) = &played.score {
        event["score"] = json!(score);
    }
    event
}

/// A seed from the clock, for a game that gave none.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    (now.as_secs() ^ u64::from(now.subsec_nanos()).rotate_left(16)) % (MAX_SEED + 1)
}
