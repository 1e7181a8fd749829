//! The dice games of the GUI (Can't Stop): one per browser tab like the board games, with 2 to
//! 4 seats, each a person at the page or an engine given on the command line. The rules are
//! the referee, reached through the generic dice-game traits ([`super::dice_view`]): nothing
//! here names a game.
//!
//! **The dice.** The server rolls them. A game has a seed (the page's, or one drawn from the
//! clock; the page shows it) whose SplitMix64 generator gives one number per roll, and the roll
//! is the game's `chance_event(number % chance_total)`: the same seed and the same decisions
//! give the same dice. A person rolls with the page's Roll button: at the start of his turn
//! (the dice alone), or in the middle of it (the decision `roll`, and the dice at once, as he
//! asked for them). An engine seat's dice are rolled for it as soon as they are due. A roll
//! that busts is applied with the roll, by the rules; the view marks it.
//!
//! **Engines** are asked only when a decision is due, over the protocol: `setoption name
//! UCI_Variant value NAME`, `Players` (the seats), `Strategy` and `Seed` for a seat given a
//! fixed player (none for `search`, the engines' default, so that an engine without these
//! options can play too); then `position fen START moves E1 E2 ...` (every event, rolls
//! included) and `go movetime T`. The answer is checked with the rules; a fault pauses engine
//! play until the page resumes it, as in board games. An engine's decision is played no sooner
//! than the time per move after it was asked, and an engine's turn starts (its first roll)
//! after that time too, so that a person can follow the engines' turns (a fixed player answers
//! at once) and see how the turn before ended.
//!
//! **Engine processes** stop when the game ends or is left, as in board games
//! ([`super::upkeep`]).
//!
//! Beside this file: [`records`] saves a game and opens the GUI's records and `steere match`'s;
//! [`lifetime`] finds the engines finished and left games no longer need.

mod lifetime;
mod records;

pub use records::is_dice_record;

use super::changes::{self, lock};
use super::dice_record::{self, DiceRecord};
use super::dice_view::{self, DiceView, EventInfo, SEARCH};
use super::games::{Played, moves_suffix, read_comment, think};
use crate::client::Engine;
use crate::client::spec::EngineSpec;
use crate::tools::rng::SplitMix64;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The largest seed: the protocol's `Seed` option takes 32 bits, and a fixed player's seed is
/// derived from the game's.
pub const MAX_SEED: u64 = u32::MAX as u64;

/// One seat of a dice game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// `human` or an engine's name.
    pub player: String,
    /// An engine seat's strategy (`search`, the default, or one of the game's fixed players);
    /// always `None` for a person.
    #[serde(default)]
    pub strategy: Option<String>,
}

impl Seat {
    fn is_human(&self) -> bool {
        self.player == "human"
    }

    /// `steere` or `steere (greedy)`, for messages.
    fn label(&self) -> String {
        match self.strategy.as_deref() {
            Some(strategy) if strategy != SEARCH => format!("{} ({strategy})", self.player),
            _ => self.player.clone(),
        }
    }
}

/// A new dice game as the page asks for it.
#[derive(Clone, Debug, Deserialize)]
pub struct NewDiceGame {
    /// The variant's name.
    pub variant: String,
    /// The start position (`None` or empty: the start for the seats given).
    pub fen: Option<String>,
    /// The seats, player 1 first: as many as the game has players.
    pub seats: Vec<Seat>,
    /// The engines' time per decision in milliseconds.
    pub movetime: u64,
    /// The seed of the dice (`None`: drawn from the clock).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// One event as the page shows it in the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoggedEvent {
    /// The event's token (`r2455`, `6.10`, `roll`, `stop`).
    pub text: String,
    /// The player (from 1) whose turn it was.
    pub player: usize,
    /// Whether it was a roll of the dice.
    pub roll: bool,
    /// Whether it was a roll that bust.
    pub bust: bool,
    /// The engine's last depth, for an engine's decision (left out when there is none: a
    /// long game's state is sent on every change).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The engine's last score (`cp 35`), for an engine's decision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
}

/// A dice game's state as the page sees it.
#[derive(Clone, Debug, Serialize)]
pub struct DiceSnapshot {
    /// The game's id.
    pub id: u64,
    /// The variant.
    pub variant: &'static str,
    /// Always `dice`: tells the page which kind of game it has.
    pub family: &'static str,
    /// The start position.
    pub start: String,
    /// The seed of the dice, as decimal text (a record's seed may exceed what a JavaScript
    /// number holds exactly).
    pub seed: String,
    /// The seats, player 1 first.
    pub seats: Vec<Seat>,
    /// The engines' time per decision.
    pub movetime: u64,
    /// The events so far.
    pub events: Vec<LoggedEvent>,
    /// The current position.
    pub position: DiceView,
    /// True while an engine thinks.
    pub thinking: bool,
    /// The last engine fault, while engine play is paused.
    pub error: Option<String>,
    /// Changes with every change of the game.
    pub version: u64,
}

/// One dice game.
struct DiceGame {
    id: u64,
    variant: &'static str,
    start: String,
    seed: u64,
    /// The generator of the dice, after the rolls so far.
    dice: SplitMix64,
    events: Vec<Played>,
    seats: Vec<Seat>,
    movetime: u64,
    /// The engine process of each seat, started at its first decision.
    engines: Vec<Option<Engine>>,
    thinking: bool,
    /// Set once an engine's turn has waited its pace before its first roll.
    paced: bool,
    error: Option<String>,
    version: u64,
    /// Counts the changes of the events: an engine's answer for an older one is stale.
    generation: u64,
    /// When a request last named the game (an open page does every second).
    last_seen: Instant,
    /// Set once no page has shown the game for the idle timeout: its engines are stopped and
    /// none is asked to play, until the game is asked for again.
    left: bool,
}

impl DiceGame {
    fn texts(&self) -> Vec<String> {
        self.events.iter().map(|e| e.text.clone()).collect()
    }

    fn view_of(&self, texts: &[String]) -> Result<DiceView, String> {
        dice_view::view(self.variant, &self.start, texts)
    }

    fn view(&self) -> DiceView {
        self.view_of(&self.texts()).expect("a game holds only events the rules accepted")
    }

    fn snapshot(&self) -> DiceSnapshot {
        let position = self.view();
        let events = self
            .events
            .iter()
            .zip(&position.events)
            .map(|(played, &EventInfo { player, roll, bust })| LoggedEvent {
                text: played.text.clone(),
                player,
                roll,
                bust,
                depth: played.depth,
                score: played.score.clone(),
            })
            .collect();
        DiceSnapshot {
            id: self.id,
            variant: self.variant,
            family: "dice",
            start: self.start.clone(),
            seed: self.seed.to_string(),
            seats: self.seats.clone(),
            movetime: self.movetime,
            events,
            position,
            thinking: self.thinking,
            error: self.error.clone(),
            version: self.version,
        }
    }

    /// Rolls the dice in the position `fen` (where a roll is due) and records the roll.
    fn roll(&mut self, fen: &str) -> Result<(), String> {
        let text = dice_view::roll(self.variant, fen, self.dice.next_u64())?;
        self.events.push(Played { text, depth: None, score: None });
        self.generation += 1;
        Ok(())
    }

    /// The spec of seat `seat`'s engine: the command line's, told the variant, the number of
    /// players and, for a fixed player, the strategy and a seed of its own.
    fn seat_spec(&self, base: &EngineSpec, seat: usize) -> EngineSpec {
        let mut spec = base.clone();
        spec.set_variant(self.variant);
        let mut set = |name: &str, value: String| {
            spec.options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
            spec.options.push((name.to_string(), value));
        };
        set("Players", self.seats.len().to_string());
        if let Some(strategy) = self.seats[seat].strategy.as_deref().filter(|&s| s != SEARCH) {
            set("Strategy", strategy.to_string());
            set("Seed", (self.seed.wrapping_add(seat as u64) % (MAX_SEED + 1)).to_string());
        }
        spec
    }

    fn changed(&mut self) {
        self.version += 1;
        changes::notify();
    }
}

/// Every dice game of the server, and the engines the command line offers.
pub struct DiceGames {
    games: Mutex<HashMap<u64, Arc<Mutex<DiceGame>>>>,
    engines: Vec<(String, EngineSpec)>,
}

impl DiceGames {
    /// A store offering `engines` (name and spec).
    pub fn new(engines: Vec<(String, EngineSpec)>) -> Arc<DiceGames> {
        Arc::new(DiceGames { games: Mutex::new(HashMap::new()), engines })
    }

    /// Whether `id` is one of these games.
    pub fn has(&self, id: u64) -> bool {
        lock(&self.games).contains_key(&id)
    }

    /// The game `id`, seen now: a left game is no longer, and engine play goes on.
    fn game(self: &Arc<DiceGames>, id: u64) -> Result<Arc<Mutex<DiceGame>>, String> {
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
    pub fn snapshot(self: &Arc<DiceGames>, id: u64) -> Result<DiceSnapshot, String> {
        let game = self.game(id)?;
        Ok(lock(&game).snapshot())
    }

    /// The seats checked: known engines, known strategies (`search` by default), none for a
    /// person.
    fn checked_seats(&self, variant: &str, seats: &[Seat]) -> Result<Vec<Seat>, String> {
        let strategies = dice_view::strategies(variant)?;
        seats
            .iter()
            .enumerate()
            .map(|(i, seat)| {
                if seat.is_human() {
                    return Ok(Seat { player: seat.player.clone(), strategy: None });
                }
                if !self.engines.iter().any(|(name, _)| *name == seat.player) {
                    let names: Vec<&str> = self.engines.iter().map(|(n, _)| n.as_str()).collect();
                    return Err(format!(
                        "seat {}: unknown player '{}' (human or one of: {})",
                        i + 1,
                        seat.player,
                        names.join(", ")
                    ));
                }
                let strategy =
                    seat.strategy.as_deref().map(str::trim).filter(|s| !s.is_empty()).unwrap_or(SEARCH);
                if !strategies.contains(&strategy) {
                    return Err(format!(
                        "seat {}: unknown strategy '{strategy}' (one of: {})",
                        i + 1,
                        strategies.join(", ")
                    ));
                }
                Ok(Seat { player: seat.player.clone(), strategy: Some(strategy.to_string()) })
            })
            .collect()
    }

    /// Starts a game; an engine seat to move starts playing.
    pub fn create(self: &Arc<DiceGames>, new: &NewDiceGame) -> Result<DiceSnapshot, String> {
        let info = crate::variants::find(&new.variant)?;
        let seats = self.checked_seats(info.name, &new.seats)?;
        let fen = new.fen.as_deref().map(str::trim).filter(|f| !f.is_empty());
        let start = dice_view::start_fen(info.name, seats.len(), fen)?;
        let seed = match new.seed {
            Some(seed) if seed > MAX_SEED => return Err(format!("seed {seed}: expected 0 to {MAX_SEED}")),
            Some(seed) => seed,
            None => clock_seed(),
        };
        let id = changes::new_id();
        let game = DiceGame {
            id,
            variant: info.name,
            start,
            seed,
            dice: SplitMix64(seed),
            events: Vec::new(),
            engines: seats.iter().map(|_| None).collect(),
            seats,
            movetime: new.movetime.clamp(10, 600_000),
            thinking: false,
            paced: false,
            error: None,
            version: 1,
            generation: 0,
            last_seen: Instant::now(),
            left: false,
        };
        let game = Arc::new(Mutex::new(game));
        lock(&self.games).insert(id, game.clone());
        self.kick(&game);
        Ok(lock(&game).snapshot())
    }

    /// Plays a person's event: `roll` rolls the dice where they are due (and, where it is the
    /// decision to roll again, rolls them at once); refused on an engine's turn, after the end,
    /// for a roll of the player's own making, for text that cannot be an event
    /// ([`super::limits::move_text`]), and for anything the rules refuse.
    pub fn play(self: &Arc<DiceGames>, id: u64, text: &str) -> Result<DiceSnapshot, String> {
        let text = super::limits::move_text(text)?;
        let game = self.game(id)?;
        let mut g = lock(&game);
        let view = g.view();
        if let Some(result) = &view.result {
            return Err(format!("the game is over: {result}"));
        }
        let seat = &g.seats[view.to_move - 1];
        if !seat.is_human() {
            return Err(format!("it is player {}'s turn, played by {}", view.to_move, seat.label()));
        }
        if view.next == "dice" {
            if text != "roll" {
                return Err(format!("'{text}': the dice are due, and the server rolls them: send 'roll'"));
            }
            g.roll(&view.fen)?;
        } else {
            let mut texts = g.texts();
            texts.push(text.to_string());
            let after = g.view_of(&texts)?;
            g.events.push(Played { text: text.to_string(), depth: None, score: None });
            g.generation += 1;
            // The player chose to roll again: the dice follow at once.
            if after.next == "dice" && after.to_move == view.to_move {
                g.roll(&after.fen)?;
            }
        }
        g.changed();
        self.kick_locked(g, &game);
        Ok(lock(&game).snapshot())
    }

    /// Clears an engine fault and lets engine play go on (restarting a broken engine).
    pub fn resume(self: &Arc<DiceGames>, id: u64) -> Result<DiceSnapshot, String> {
        let game = self.game(id)?;
        let mut g = lock(&game);
        g.error = None;
        g.changed();
        self.kick_locked(g, &game);
        Ok(lock(&game).snapshot())
    }

    /// Rolls the dice of engine seats and starts an engine's decision, as long as play is up
    /// to an engine.
    fn kick(self: &Arc<DiceGames>, game: &Arc<Mutex<DiceGame>>) {
        self.kick_locked(lock(game), game);
    }

    /// [`DiceGames::kick`] with the game already locked: an engine's answer and the next
    /// engine's start are one change, so nobody sees the game idle between them.
    fn kick_locked(self: &Arc<DiceGames>, mut g: MutexGuard<'_, DiceGame>, game: &Arc<Mutex<DiceGame>>) {
        let (seat, view) = loop {
            if g.thinking || g.error.is_some() || g.left {
                return;
            }
            let view = g.view();
            let seat = view.to_move - 1;
            if view.next == "over" || g.seats[seat].is_human() {
                return;
            }
            if view.next != "dice" {
                break (seat, view);
            }
            // The first roll of an engine's turn waits the time per move: the person sees how
            // the turn before ended (his bust's dice, say) before the engine's dice replace them.
            let turn_start = view.events.last().is_none_or(|e| e.player != view.to_move);
            if turn_start && !g.paced {
                g.thinking = true;
                g.changed();
                let (games, game, generation) = (self.clone(), game.clone(), g.generation);
                let pace = Duration::from_millis(g.movetime);
                drop(g);
                std::thread::spawn(move || {
                    std::thread::sleep(pace);
                    let mut g = lock(&game);
                    g.thinking = false;
                    g.paced = g.generation == generation;
                    games.kick_locked(g, &game);
                });
                return;
            }
            g.paced = false;
            if let Err(e) = g.roll(&view.fen) {
                g.error = Some(e);
            }
            g.changed();
        };
        let name = g.seats[seat].player.clone();
        let Some((_, base)) = self.engines.iter().find(|(n, _)| *n == name) else {
            g.error = Some(format!("no engine '{name}'"));
            g.changed();
            return;
        };
        let spec = g.seat_spec(base, seat);
        let engine = g.engines[seat].take().filter(Engine::is_usable);
        let position = format!("position fen {}{}", g.start, moves_suffix(&g.texts()));
        let go = format!("go movetime {}", g.movetime);
        let (generation, movetime, label) = (g.generation, g.movetime, g.seats[seat].label());
        debug_assert_eq!(view.next, "decision");
        g.thinking = true;
        g.changed();
        drop(g);
        let (games, game) = (self.clone(), game.clone());
        std::thread::spawn(move || {
            let asked = Instant::now();
            let (engine, reply) = think(engine, &spec, &position, &go, movetime);
            if reply.is_ok() {
                // The pace of engine play: a person can follow an engine's turn.
                let pace = Duration::from_millis(movetime);
                std::thread::sleep(pace.saturating_sub(asked.elapsed()));
            }
            games.answer(&game, seat, &label, generation, engine, reply);
        });
    }

    /// Takes an engine's answer: plays it if the game is still where the engine was asked.
    fn answer(
        self: &Arc<DiceGames>,
        game: &Arc<Mutex<DiceGame>>,
        seat: usize,
        label: &str,
        generation: u64,
        engine: Option<Engine>,
        reply: Result<Played, String>,
    ) {
        let mut g = lock(game);
        g.engines[seat] = engine;
        g.thinking = false;
        if g.generation != generation {
            g.changed();
            return; // the events changed while the engine thought: the answer is stale
        }
        let checked = reply.and_then(|played| {
            let mut texts = g.texts();
            texts.push(played.text.clone());
            g.view_of(&texts)
                .map(|_| played)
                .map_err(|e| format!("{label} answered with an illegal event: {e}"))
        });
        match checked {
            Ok(played) => {
                g.events.push(played);
                g.generation += 1;
            }
            Err(e) => g.error = Some(e),
        }
        g.changed();
        self.kick_locked(g, game);
    }
}

/// A seed from the clock, for a game that gave none.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    (now.as_secs() ^ u64::from(now.subsec_nanos()).rotate_left(16)) % (MAX_SEED + 1)
}
