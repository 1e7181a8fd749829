//! The protocol for dice games: the engine loop's session when `UCI_Variant` names a game of
//! the dice family (Can't Stop), generic over [`ChanceRules`].
//!
//! The commands are those of the board games, read the same way, with these differences
//! (docs/protocol.md, "Dice games"):
//! - `position startpos|fen F [moves E...]`: the events include the rolls (`r1546`), sent by
//!   whoever rolls the dice; `startpos` is the start for the `Players` option's number;
//! - `go` answers the decision of the player to move with `bestmove TOKEN`; where a roll is due
//!   or the game is over nobody decides: an `info string` says why, then `bestmove (none)`;
//! - the `Strategy` option picks the search or one of the game's fixed players;
//! - `query turn` answers `p1`..`p4`, `query result` `p1win`..`p4win` or `none`.
//!
//! The search runs on the loop's thread: it is short (a turn is a small graph), and `stop` and
//! `quit` still end it at once, through the flag the input thread raises.

use super::command::{Command, GoParams, Query, StartPosition};
use super::options::Change;
use super::{Common, Flow, Session, hello_lines};
use crate::chance::player::{SEARCH, decide};
use crate::chance::{Iteration, Limits, MAX_DEPTH};
use crate::game::{ChanceRules, Node};
use crate::search::SearchControl;
use crate::variants::ChanceVariant;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The engine of one dice game.
pub(super) struct DiceSession<G: ChanceRules> {
    common: Common,
    variant: ChanceVariant<G>,
    position: G,
}

impl<G: ChanceRules> DiceSession<G> {
    /// The engine at the start of a game with the `Players` option's number of players.
    pub(super) fn new(common: Common, variant: ChanceVariant<G>) -> DiceSession<G> {
        let position = start::<G>(common.options.players);
        DiceSession { common, variant, position }
    }
}

/// The start for `players`, or for the nearest number the game allows.
fn start<G: ChanceRules>(players: usize) -> G {
    G::start(players.clamp(*G::PLAYERS.start(), *G::PLAYERS.end()))
}

impl<G: ChanceRules> Session for DiceSession<G> {
    fn execute(&mut self, line: u64, command: Command, read_at: Instant) -> Flow {
        match command {
            Command::Hello(dialect) => {
                self.common.dialect = dialect;
                self.common.out.lines(&hello_lines(dialect));
            }
            Command::IsReady => self.common.out.line("readyok"),
            Command::Debug(on) => self.common.debug = on,
            Command::SetOption { name, value } => return self.set_option(&name, value.as_deref()),
            Command::NewGame | Command::Stop | Command::PonderHit => {}
            Command::Position { start, moves } => self.set_position(&start, &moves),
            Command::Go(params) => self.go(line, &params, read_at),
            Command::Query(query) => self.query(&query),
            Command::Display => self.display(),
            Command::Perft(depth) => self.perft(depth),
            Command::Bench(depth) => self.bench(line, depth.unwrap_or(self.variant.info.bench_depth)),
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    fn reap_finished(&mut self) {}

    fn shutdown(&mut self) {}

    fn into_common(self: Box<Self>) -> Common {
        self.common
    }
}

impl<G: ChanceRules> DiceSession<G> {
    /// `setoption`: `Players` also sets the position to the start of that many players.
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Flow {
        let Some(change) = self.common.check_option(name, value) else {
            return Flow::Continue;
        };
        self.common.options.apply(change);
        match change {
            Change::Debug(on) => self.common.debug = on,
            Change::Players(n) => self.position = start::<G>(n),
            Change::Variant(name) if name != self.variant.name() => return Flow::SwitchVariant(name),
            _ => {}
        }
        Flow::Continue
    }

    /// `position`: replaced only if the FEN and every event are valid.
    fn set_position(&mut self, start_position: &StartPosition, events: &[String]) {
        match self.build_position(start_position, events) {
            Ok(pos) => self.position = pos,
            Err(message) => {
                self.common.out.info_string(&format!("error: position: {message}; the position is unchanged"))
            }
        }
    }

    fn build_position(&self, start_position: &StartPosition, events: &[String]) -> Result<G, String> {
        let mut pos = match start_position {
            StartPosition::StartPos => start::<G>(self.common.options.players),
            StartPosition::Fen(fen) => G::parse_fen(fen)?,
        };
        for (i, text) in events.iter().enumerate() {
            let event = pos.parse_event(text).map_err(|e| format!("event {} ({text}): {e}", i + 1))?;
            pos = pos.play(event);
        }
        Ok(pos)
    }

    /// `go`: the decision of the player to move, or `bestmove (none)` where nobody decides.
    fn go(&mut self, line: u64, params: &GoParams, read_at: Instant) {
        match self.position.node() {
            Node::Decision => {}
            Node::Chance => {
                self.common.out.info_string(
                    "no decision: the next event is a roll of the dice, which no player chooses",
                );
                self.common.out.line("bestmove (none)");
                return;
            }
            Node::Over => {
                let winner = self.position.winner().map_or(0, |w| w + 1);
                self.common.out.info_string(&format!("game over: player {winner} won"));
                self.common.out.line("bestmove (none)");
                return;
            }
        }
        let limits = self.limits(params, read_at);
        let control = Arc::new(SearchControl::new());
        self.common.shared.publish(&control, line);
        let strategy = self.common.options.strategy;
        let players = self.position.players();
        let out = self.common.out.clone();
        let decision =
            decide(&self.position, strategy, self.common.options.seed, limits, &control.stop, &mut |it| {
                out.line(&info_line(it, players));
            });
        self.common.shared.retire();
        match decision {
            Some(decision) => {
                if let Some(it) = decision.search.as_ref().filter(|_| strategy == SEARCH) {
                    let values: Vec<String> = it.values.iter().map(|(e, v)| format!("{e} {v:.4}")).collect();
                    self.common.out.info_string(&format!("values {}", values.join(" ")));
                }
                self.common.out.line(&format!("bestmove {}", decision.event));
            }
            None => self.common.out.line("bestmove (none)"),
        }
    }

    /// The search limits of `go`: `depth` in rolls, `nodes`, `movetime`, or a share of the
    /// mover's clock (`wtime` for odd players, `btime` for even ones); none for `infinite` or a
    /// bare `go` (the turn is then solved exactly, or until `stop`). Times count from `read_at`
    /// less the move overhead.
    fn limits(&self, go: &GoParams, read_at: Instant) -> Limits {
        let overhead = self.common.options.move_overhead;
        let spent = read_at.elapsed() + overhead;
        let odd_player = self.position.to_move().is_multiple_of(2);
        let clock = if odd_player { go.wtime } else { go.btime };
        let increment = if odd_player { go.winc } else { go.binc };
        let from_clock = clock.map(|t| t / 30 + increment.unwrap_or_default() / 2);
        let movetime = if go.infinite { None } else { go.movetime.or(from_clock) };
        Limits {
            depth: go.depth.map(|d| d.clamp(1, MAX_DEPTH)),
            nodes: go.nodes,
            movetime: movetime.map(|t| t.saturating_sub(spent).max(Duration::from_millis(1))),
        }
    }

    fn query(&self, query: &Query) {
        let pos = &self.position;
        let answer = match query {
            Query::GameOver => (pos.node() == Node::Over).to_string(),
            Query::P1Turn => (pos.node() != Node::Over && pos.to_move() == 0).to_string(),
            Query::Turn => format!("p{}", pos.to_move() + 1),
            Query::Result => pos.winner().map_or("none".to_string(), |w| format!("p{}win", w + 1)),
            Query::Fen => pos.fen(),
            Query::IsLegal(text) => pos.parse_event(text).is_ok().to_string(),
        };
        self.common.out.line(&format!("response {answer}"));
    }

    /// `d`: the diagram, the FEN, the player to move and the legal events.
    fn display(&self) {
        let pos = &self.position;
        let mut lines = pos.diagram();
        lines.push(format!("Fen: {}", pos.fen()));
        let events: Vec<String> = pos.legal_events().iter().map(|e| e.to_string()).collect();
        match pos.winner() {
            Some(w) => lines.push(format!("Game over: player {} won", w + 1)),
            None => lines.push(format!("To move: player {}", pos.to_move() + 1)),
        }
        lines.push(format!("Events ({}): {}", events.len(), events.join(" ")));
        self.common.out.lines(&lines);
    }

    /// `perft N`: the event sequences of length N below each event, then the total.
    fn perft(&self, depth: u32) {
        let started = Instant::now();
        let rows = crate::tools::dice::divide(&self.position, depth);
        let mut lines: Vec<String> = rows.iter().map(|(e, n)| format!("{e}: {n}")).collect();
        let total: u64 = rows.iter().map(|(_, n)| n).sum();
        lines.push(crate::tools::perft::summary_line(total, started.elapsed()));
        self.common.out.lines(&lines);
    }

    /// `bench [D]`: the dice bench, to D rolls.
    fn bench(&self, line: u64, depth: u32) {
        let control = Arc::new(SearchControl::new());
        self.common.shared.publish(&control, line);
        let out = self.common.out.clone();
        let summary = crate::tools::dice::bench(self.variant, depth, &control.stop, &mut |l| out.line(&l));
        self.common.out.line(&summary);
        self.common.shared.retire();
    }
}

/// The `info` line of a completed depth: the value as a centipawn-like score (the winning
/// chance on the logistic scale of Elo) and as `wdl` (per mille, no draws), for the player to
/// move.
pub fn info_line<E: std::fmt::Display>(it: &Iteration<E>, players: usize) -> String {
    let ms = it.elapsed.as_millis();
    let nps = (it.nodes as u128 * 1000).checked_div(ms).unwrap_or(0);
    let score = if players >= 2 {
        let p = it.value.clamp(1e-4, 1.0 - 1e-4);
        let cp = (400.0 * (p / (1.0 - p)).log10()).round() as i64;
        let win = (p * 1000.0).round() as i64;
        format!(" score cp {cp} wdl {win} 0 {}", 1000 - win)
    } else {
        String::new()
    };
    format!("info depth {} nodes {} nps {nps} time {ms}{score} pv {}", it.depth, it.nodes, it.best)
}
