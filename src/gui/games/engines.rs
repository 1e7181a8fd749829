//! The engine threads: the one loop that plays a game's engine seats, whatever the game.
//!
//! Whenever play is up to an engine seat, [`Games::kick`] rolls the dice if they are due and
//! otherwise asks the seat's engine for a decision, over the protocol: the spec's options, the
//! variant (`UCI_Variant`), for a game of a varying number of players `Players` (and `Strategy`
//! and `Seed` for a seat given a fixed player; none for `search`, the engines' default, so
//! that an engine without these options can play too); then `position fen START moves ...`
//! (every step, rolls included) and `go movetime T` or, with a clock, `go wtime W btime B winc
//! I binc I`. The answer is taken by [`Games::answer`] on the engine's thread.
//!
//! In a paced game (a dice game: [`super::super::view::Capabilities::paced`]) an engine's
//! decision is played no sooner than the game's pace after it was asked, and an engine's
//! turn starts (its first roll) after that pause too, so that a person can follow the engines'
//! turns (a fixed player answers at once) and see how the turn before ended; a skipped turn
//! has no pauses ([`super::pace`]).

use super::*;
use crate::client::Fault;
use std::sync::MutexGuard;
use std::time::Duration;

/// How much longer than its move time an engine may take before it counts as hung.
const GRACE: Duration = Duration::from_secs(5);

impl Games {
    /// Rolls the dice of engine seats and starts an engine's decision, as long as play is up
    /// to an engine.
    pub(super) fn kick(self: &Arc<Games>, game: &Arc<Mutex<Game>>) {
        self.kick_locked(lock(game), game);
    }

    /// [`Games::kick`] with the game already locked: an engine's answer and the next engine's
    /// start are one change, so nobody sees the game idle between them.
    pub(super) fn kick_locked(self: &Arc<Games>, mut g: MutexGuard<'_, Game>, game: &Arc<Mutex<Game>>) {
        let view = loop {
            if g.thinking || g.error.is_some() || g.paused || g.left || g.time_loss.is_some() {
                return;
            }
            let view = g.view();
            g.end_skip(view.to_move);
            if view.is_over() || g.seats[view.to_move].is_human() {
                return;
            }
            if view.node != Node::Chance {
                break view;
            }
            // The first roll of an engine's turn waits the time per move: the person sees how
            // the turn before ended (his bust's dice, say) before the engine's dice replace them.
            let turn_start = view.events.last().is_none_or(|e| e.player != view.to_move + 1);
            let pause = g.pause(view.to_move);
            if let Some(pace) = pause.filter(|_| turn_start && !g.paced) {
                g.thinking = true;
                g.changed();
                let (games, game, generation) = (self.clone(), game.clone(), g.generation);
                drop(g);
                let seat = view.to_move;
                std::thread::spawn(move || {
                    pace::wait(&game, seat, pace);
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
        let seat = view.to_move;
        let name = g.seats[seat].player.clone();
        let Some((_, base)) = self.engines.iter().find(|(n, _)| *n == name) else {
            g.error = Some(format!("no engine '{name}'"));
            g.changed();
            return;
        };
        let spec = g.seat_spec(base, seat);
        let engine = g.engines[seat].take().filter(Engine::is_usable);
        let clocks = g.clocks_now();
        let go = match &clocks {
            Some(clocks) => format!(
                "go wtime {} btime {} winc {inc} binc {inc}",
                clocks[0].max(0),
                clocks[1].max(0),
                inc = g.increment
            ),
            None => format!("go movetime {}", g.movetime),
        };
        let budget = clocks.map_or(g.movetime, |clocks| clocks[seat].max(0) as u64);
        let position = format!("position fen {}{}", g.start, moves_suffix(&g.texts()));
        let (generation, label, pace) = (g.generation, g.seats[seat].label(), g.pause(seat));
        g.thinking = true;
        g.changed();
        drop(g);
        let (games, game) = (self.clone(), game.clone());
        std::thread::spawn(move || {
            let asked = Instant::now();
            let (engine, reply) = think(engine, &spec, &position, &go, budget);
            if let Some(pace) = pace.filter(|_| reply.is_ok()) {
                pace::wait(&game, seat, pace.saturating_sub(asked.elapsed()));
            }
            games.answer(&game, seat, &label, generation, engine, reply);
        });
    }

    /// Takes an engine's answer: plays it if the game is still where the engine was asked.
    fn answer(
        self: &Arc<Games>,
        game: &Arc<Mutex<Game>>,
        seat: usize,
        label: &str,
        generation: u64,
        engine: Option<Engine>,
        reply: Result<Played, String>,
    ) {
        let mut g = lock(game);
        g.engines[seat] = engine;
        if g.generation != generation {
            return; // the steps changed while the engine thought: the answer is stale
        }
        g.thinking = false;
        let noun = if g.caps.family == Family::Dice { "event" } else { "move" };
        let checked = reply.and_then(|played| {
            let mut texts = g.texts();
            texts.push(played.text.clone());
            g.view_of(&texts)
                .map(|_| played)
                .map_err(|e| format!("{label} answered with an illegal {noun}: {e}"))
        });
        match checked {
            Ok(played) => {
                g.declined_by(seat);
                g.charge(seat);
                if g.time_loss.is_none() {
                    g.steps.push(played);
                    g.generation += 1;
                }
            }
            Err(e) => g.error = Some(e),
        }
        g.changed();
        self.kick_locked(g, game);
    }
}

impl Game {
    /// The spec of seat `seat`'s engine: the command line's, told the variant, the number of
    /// players where it varies and, for a fixed player, the strategy and a seed of its own.
    fn seat_spec(&self, base: &EngineSpec, seat: usize) -> EngineSpec {
        let mut spec = base.clone();
        if self.variant != crate::variants::DEFAULT_VARIANT {
            spec.set_variant(self.variant);
        }
        let mut set = |name: &str, value: String| {
            spec.options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
            spec.options.push((name.to_string(), value));
        };
        if self.caps.players.0 != self.caps.players.1 {
            set("Players", self.seats.len().to_string());
        }
        // After the players: an engine checks a rule option against the players it seats.
        for (name, value) in &self.options {
            set(name, value.clone());
        }
        let seed = (self.seed.wrapping_add(seat as u64) % (MAX_SEED + 1)).to_string();
        if let Some(strategy) = self.seats[seat].strategy.as_deref().filter(|&s| s != SEARCH) {
            set("Strategy", strategy.to_string());
            set("Seed", seed.clone());
        }
        // A level's choices are drawn from the seed: the game's own, so that a new game is a
        // new one while a record's seed replays it.
        if let Some(level) = self.seats[seat].level {
            set("Skill Level", level.to_string());
            set("Seed", seed);
        }
        spec
    }
}

/// ` moves M1 M2 ...`, or nothing for no moves.
pub(super) fn moves_suffix(texts: &[String]) -> String {
    if texts.is_empty() { String::new() } else { format!(" moves {}", texts.join(" ")) }
}

/// Asks `engine` (started from `spec` if `None`) for a step with `go`, allowing it `budget`
/// milliseconds (plus a grace); returns the engine to keep (none when it failed) and the step
/// or what went wrong.
fn think(
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
    let asked = Instant::now();
    let answer = engine.think(position, go, limit);
    let millis = Some(asked.elapsed().as_millis() as u64);
    match answer {
        Ok(reply) if reply.bestmove.is_empty() || reply.bestmove == "(none)" => {
            (Some(engine), Err(format!("{name} answered 'bestmove {}' without a move", reply.bestmove)))
        }
        Ok(reply) => (
            Some(engine),
            Ok(Played { text: reply.bestmove, depth: reply.depth, score: reply.score, millis }),
        ),
        Err(Fault::Crash(detail)) => (None, Err(format!("{name} crashed: {detail}"))),
        Err(Fault::Protocol(detail)) => (None, Err(format!("{name} broke the protocol: {detail}"))),
        Err(Fault::NoAnswer { waited, .. }) => {
            engine.kill();
            (None, Err(format!("{name} gave no move within {:.1} s", waited.as_secs_f64())))
        }
    }
}
