//! Strict clients: whole games against the real binary, played by a UGI runner and a UCI GUI
//! that accept nothing but the exact grammar of their specifications.
//!
//! Real clients are less forgiving than our own runner. The cutegames runner (whose `ugi.md`
//! is the UGI that `steere` speaks) takes a `bestmove` line only when it has exactly two
//! words, and a `response` only when it has exactly two, and waits forever otherwise; a UCI GUI
//! reads `info` lines field by field. So each client here checks **every line** the engine
//! prints against its grammar ([`check_line`]) and fails on anything else: an unknown line, a
//! `bestmove` with a word too many, an `info` field that its specification does not define, an
//! `info string error` (the client sent only valid commands, so an error means the engine
//! refused something a real client sends, such as cutegames' `setoption name ownbook`). Each
//! awaited answer has a deadline, which bounds hangs rather than measuring speed.
//!
//! - The UGI runner follows cutegames' sequence: `ugi`, its four options (`debug`, `threads`,
//!   `hash`, `ownbook`, in lower case), `isready`; per game `isready`, `uginewgame`,
//!   `query p1turn`; per move `isready`, `position fen F moves ...`, `query gameover`, `go` with
//!   p1/p2 clocks (a few moves with `movetime`, `depth` or `nodes`); at the end `query result`,
//!   which must agree with the rules.
//! - The UCI GUI plays games with `Ponder` off (then `bestmove` must be exactly two words) and
//!   with `Ponder` on, where it ponders on the engine's `ponder` move and sends `ponderhit` or
//!   `stop` as a GUI does.
//!
//! The referee is the rules API (`steere::impasse`), which the rules suites prove separately.

mod pipe;

use pipe::Engine;
use std::time::{Duration, Instant};
use steere::impasse::{Color, Position};

/// The dialect a client speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dialect {
    Ugi,
    Uci,
}

/// What the client is waiting for: it decides which lines are acceptable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Awaiting {
    /// The handshake: `id`, `option`, then `ugiok`/`uciok`.
    Handshake,
    /// `readyok`.
    Ready,
    /// `response X`.
    Response,
    /// `info ...` lines, then `bestmove`.
    BestMove,
}

/// The `info` fields UCI defines, with the number of words that follow each (`usize::MAX`: the
/// rest of the line). UGI's text defines `info` by example and uses the same fields (plus
/// `tthits` in its example), so both clients accept this set.
fn info_field_arity(field: &str) -> Option<usize> {
    Some(match field {
        "depth" | "seldepth" | "time" | "nodes" | "multipv" | "currmovenumber" | "hashfull" | "nps"
        | "tbhits" | "cpuload" | "currmove" | "tthits" => 1,
        "pv" | "string" | "refutation" | "currline" => usize::MAX,
        _ => return None,
    })
}

/// Checks one `info` line word by word against the UCI grammar; `None` when it conforms.
fn info_violation(line: &str, pos: &Position) -> Option<String> {
    let words: Vec<&str> = line.split(' ').collect();
    let mut i = 1;
    while i < words.len() {
        let field = words[i];
        if field == "score" {
            // score (cp X | mate Y) [lowerbound | upperbound]
            match (words.get(i + 1), words.get(i + 2)) {
                (Some(&("cp" | "mate")), Some(v)) if v.parse::<i64>().is_ok() => i += 3,
                _ => return Some(format!("malformed score in: {line}")),
            }
            if matches!(words.get(i), Some(&("lowerbound" | "upperbound"))) {
                i += 1;
            }
            continue;
        }
        let Some(arity) = info_field_arity(field) else {
            return Some(format!("info field '{field}' is not in the specification: {line}"));
        };
        if arity == usize::MAX {
            if field == "pv" {
                let mut p = *pos;
                for text in &words[i + 1..] {
                    match p.parse_move(text) {
                        Ok(mv) => p = p.make_move(mv),
                        Err(e) => return Some(format!("pv move {text}: {e}")),
                    }
                }
                if words.len() == i + 1 {
                    return Some(format!("empty pv: {line}"));
                }
            }
            return None;
        }
        match words.get(i + 1) {
            Some(v) if field == "currmove" || v.parse::<u64>().is_ok() => i += 2,
            _ => return Some(format!("info field '{field}' without a count: {line}")),
        }
    }
    None
}

/// Checks an option declaration: `option name N type T` with the parts its type allows.
fn option_violation(line: &str) -> Option<String> {
    let rest = line.strip_prefix("option name ")?;
    let Some((_, spec)) = rest.split_once(" type ") else {
        return Some(format!("option without a type: {line}"));
    };
    let words: Vec<&str> = spec.split(' ').collect();
    let ok = match words.as_slice() {
        ["check", "default", "true" | "false"] => true,
        ["spin", "default", d, "min", lo, "max", hi] => {
            let n = |s: &str| s.parse::<i64>().ok();
            matches!((n(d), n(lo), n(hi)), (Some(d), Some(lo), Some(hi)) if lo <= d && d <= hi)
        }
        ["combo", "default", default, vars @ ..] => {
            vars.len() % 2 == 0
                && vars.chunks(2).all(|c| c[0] == "var")
                && vars.chunks(2).any(|c| c[1] == *default)
        }
        ["button"] => true,
        ["string", "default", ..] => true,
        _ => false,
    };
    (!ok).then(|| format!("malformed option declaration: {line}"))
}

/// A strict client's view of one engine line; `Err` describes a violation. Returns true when
/// the line ends the wait (`ugiok`, `readyok`, `response`, `bestmove`).
fn check_line(
    dialect: Dialect,
    awaiting: Awaiting,
    line: &str,
    pos: &Position,
    ponder_on: bool,
) -> Result<bool, String> {
    let words: Vec<&str> = line.split(' ').collect();
    if line.is_empty() || words.iter().any(|w| w.is_empty()) {
        return Err(format!("empty line or doubled blank: '{line}'"));
    }
    if line.starts_with("info string error") {
        return Err(format!("the engine refused a valid command: {line}"));
    }
    let hello_ok = match dialect {
        Dialect::Ugi => "ugiok",
        Dialect::Uci => "uciok",
    };
    match (awaiting, words[0]) {
        (Awaiting::Handshake, "id")
            if matches!(words.get(1), Some(&("name" | "author"))) && words.len() > 2 =>
        {
            Ok(false)
        }
        (Awaiting::Handshake, "option") => option_violation(line).map_or(Ok(false), Err),
        (Awaiting::Handshake, w) if w == hello_ok && words.len() == 1 => Ok(true),
        (Awaiting::Ready, "readyok") if words.len() == 1 => Ok(true),
        (Awaiting::Response, "response") if words.len() == 2 => Ok(true),
        (Awaiting::BestMove, "info") => info_violation(line, pos).map_or(Ok(false), Err),
        (Awaiting::BestMove, "bestmove") => {
            let legal = |text: &str, p: &Position| p.parse_move(text).map_err(|e| format!("{e}: {line}"));
            match (dialect, words.as_slice()) {
                (_, ["bestmove", best]) => legal(best, pos).map(|_| true),
                (Dialect::Uci, ["bestmove", best, "ponder", reply]) if ponder_on => {
                    let mv = legal(best, pos)?;
                    legal(reply, &pos.make_move(mv)).map(|_| true)
                }
                _ => Err(format!("bestmove is not '{}': {line}", bestmove_grammar(dialect, ponder_on))),
            }
        }
        _ => Err(format!("unexpected line while awaiting {awaiting:?}: {line}")),
    }
}

fn bestmove_grammar(dialect: Dialect, ponder_on: bool) -> &'static str {
    match (dialect, ponder_on) {
        (Dialect::Uci, true) => "bestmove M [ponder R]",
        _ => "bestmove M",
    }
}

/// A strict client: the engine, its dialect and the `Ponder` setting.
struct Client {
    engine: Engine,
    dialect: Dialect,
    ponder_on: bool,
}

impl Client {
    /// Starts the engine and completes the handshake, checking every line.
    fn start(dialect: Dialect) -> Client {
        let mut client = Client { engine: Engine::start(&[]), dialect, ponder_on: false };
        client.engine.send(match dialect {
            Dialect::Ugi => "ugi",
            Dialect::Uci => "uci",
        });
        client.read(Awaiting::Handshake, &Position::startpos(), Duration::from_secs(10));
        client
    }

    /// Reads lines until the one that ends the wait, checking each; returns that line.
    fn read(&mut self, awaiting: Awaiting, pos: &Position, deadline: Duration) -> String {
        let until = Instant::now() + deadline;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let Some((_, line)) = self.engine.recv(left) else {
                self.engine.fail(&format!("no answer awaiting {awaiting:?} within {deadline:?}"));
            };
            match check_line(self.dialect, awaiting, &line, pos, self.ponder_on) {
                Ok(true) => return line,
                Ok(false) => {}
                Err(violation) => self.engine.fail(&format!("strict {:?} client: {violation}", self.dialect)),
            }
        }
    }

    fn ready(&mut self) {
        self.engine.send("isready");
        self.read(Awaiting::Ready, &Position::startpos(), Duration::from_secs(30));
    }

    fn query(&mut self, question: &str) -> String {
        self.engine.send(&format!("query {question}"));
        let line = self.read(Awaiting::Response, &Position::startpos(), Duration::from_secs(10));
        line["response ".len()..].to_string()
    }

    /// Sends `go` and returns the words of `bestmove`, within `deadline` of the `go`.
    fn go(&mut self, go: &str, pos: &Position, deadline: Duration) -> (Vec<String>, Duration) {
        let sent = Instant::now();
        self.engine.send(go);
        let line = self.read(Awaiting::BestMove, pos, deadline);
        (line.split(' ').skip(1).map(str::to_string).collect(), sent.elapsed())
    }
}

/// The openings the clients play: the first few of the match runner's book.
fn openings(count: usize) -> Vec<String> {
    let book = include_str!("../positions/openings-impasse.fen");
    book.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(count)
        .map(str::to_string)
        .collect()
}

/// The `go` of move number `ply` of the UGI runner: mostly a clock (cutegames' default control
/// type), sometimes another form its text lists. Both clocks run down as the runner keeps them.
fn ugi_go(ply: usize, clocks: &[u64; 2], side: usize) -> (String, Duration) {
    let hang = Duration::from_secs(10);
    match ply % 10 {
        3 => ("go movetime 30".to_string(), hang),
        6 => ("go depth 3".to_string(), hang),
        9 => ("go nodes 2000".to_string(), hang),
        _ => {
            let go = format!("go p1time {} p2time {} p1inc 20 p2inc 20", clocks[0], clocks[1]);
            (go, Duration::from_millis(clocks[side]) + hang)
        }
    }
}

#[test]
fn a_strict_ugi_runner_plays_whole_games() {
    let mut client = Client::start(Dialect::Ugi);
    // The options cutegames sends every engine (its settings.json), in its spelling.
    for (name, value) in [("debug", "false"), ("threads", "1"), ("hash", "16"), ("ownbook", "false")] {
        client.engine.send(&format!("setoption name {name} value {value}"));
    }
    client.ready();
    for (game, fen) in openings(2).iter().enumerate() {
        client.ready();
        client.engine.send("uginewgame");
        client.engine.send(&format!("position fen {fen}"));
        let mut pos = Position::from_fen(fen).unwrap();
        assert_eq!(client.query("p1turn"), (pos.side_to_move() == Color::White).to_string());
        let mut moves: Vec<String> = Vec::new();
        let mut clocks = [1000u64, 1000];
        loop {
            client.ready();
            let list = if moves.is_empty() { String::new() } else { format!(" moves {}", moves.join(" ")) };
            client.engine.send(&format!("position fen {fen}{list}"));
            let over = client.query("gameover");
            assert_eq!(over, pos.is_game_over().to_string(), "game {game}: gameover after {moves:?}");
            if pos.is_game_over() {
                break;
            }
            let side = pos.side_to_move().index();
            let (go, deadline) = ugi_go(moves.len(), &clocks, side);
            let (words, used) = client.go(&go, &pos, deadline);
            if go.contains("p1time") {
                let spent = used.as_millis() as u64;
                assert!(spent < clocks[side], "game {game}: flag fell ({spent} ms of {} ms)", clocks[side]);
                clocks[side] = clocks[side] - spent + 20;
            }
            pos = pos.make_move(pos.parse_move(&words[0]).unwrap());
            moves.push(words[0].clone());
        }
        let expected = match pos.winner() {
            Some(Color::White) => "p1win",
            Some(Color::Black) => "p2win",
            None => unreachable!("a finished game has a winner"),
        };
        assert_eq!(client.query("result"), expected, "game {game}");
        assert_eq!(client.query("p1turn"), (pos.side_to_move() == Color::White).to_string());
    }
    client.engine.finish();
}

/// Plays one game as a strict UCI GUI from `fen`; with `Ponder` on, ponders on the engine's
/// expected reply and answers with `ponderhit` when the opponent plays it, else `stop`.
fn uci_game(client: &mut Client, fen: &str, seed: u64) {
    client.engine.send("ucinewgame");
    client.ready();
    let mut pos = Position::from_fen(fen).unwrap();
    let mut moves: Vec<String> = Vec::new();
    let mut rng = steere::tools::rng::SplitMix64(seed);
    let hang = Duration::from_secs(10);
    let position = |moves: &[String]| {
        if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {}", moves.join(" "))
        }
    };
    let clock = "wtime 1500 btime 1500 winc 20 binc 20";
    // The engine plays both sides; the "opponent" move after a ponder is chosen by the GUI.
    while !pos.is_game_over() {
        client.engine.send(&position(&moves));
        let (words, _) = client.go(&format!("go {clock}"), &pos, hang);
        pos = pos.make_move(pos.parse_move(&words[0]).unwrap());
        moves.push(words[0].clone());
        if pos.is_game_over() || !client.ponder_on || words.len() < 3 {
            continue;
        }
        // Ponder on the expected reply (unless it ends the game: there is nothing to ponder
        // on then), then the opponent (the GUI) plays a move.
        let expected = words[2].clone();
        if pos.make_move(pos.parse_move(&expected).unwrap()).is_game_over() {
            continue;
        }
        let mut pondered = moves.clone();
        pondered.push(expected.clone());
        client.engine.send(&position(&pondered));
        client.engine.send(&format!("go ponder {clock}"));
        let legal = pos.legal_moves();
        let played =
            if rng.below(2) == 0 { expected.clone() } else { legal[rng.below(legal.len())].to_string() };
        std::thread::sleep(Duration::from_millis(20));
        let after = pos.make_move(pos.parse_move(&played).unwrap());
        if played == expected {
            client.engine.send("ponderhit");
            client.read(Awaiting::BestMove, &after, hang);
            // The engine's move after the ponder hit is not played here: the GUI goes on from
            // the opponent's move with a fresh `go`, which is as valid for the protocol.
        } else {
            client.engine.send("stop");
            client.read(Awaiting::BestMove, &pos.make_move(pos.parse_move(&expected).unwrap()), hang);
        }
        pos = after;
        moves.push(played);
    }
}

#[test]
fn a_strict_uci_gui_plays_whole_games_with_and_without_pondering() {
    let mut client = Client::start(Dialect::Uci);
    client.engine.send("setoption name Hash value 16");
    client.ready();
    let books = openings(3);
    uci_game(&mut client, &books[0], 1);
    client.engine.send("setoption name Ponder value true");
    client.ponder_on = true;
    uci_game(&mut client, &books[1], 2);
    uci_game(&mut client, &books[2], 3);
    client.engine.finish();
}

#[test]
fn the_strict_grammar_rejects_what_strict_clients_reject() {
    let pos = Position::startpos();
    let mv = pos.legal_moves()[0];
    let reply = pos.make_move(mv).legal_moves()[0];
    let with_ponder = format!("bestmove {mv} ponder {reply}");
    let check = |d, a, line: &str, ponder| check_line(d, a, line, &pos, ponder);
    // The defect of issue 10: cutegames hangs on a `ponder` it did not ask for.
    assert!(check(Dialect::Ugi, Awaiting::BestMove, &with_ponder, false).is_err());
    assert!(check(Dialect::Ugi, Awaiting::BestMove, &with_ponder, true).is_err());
    assert!(check(Dialect::Uci, Awaiting::BestMove, &with_ponder, false).is_err());
    assert_eq!(check(Dialect::Uci, Awaiting::BestMove, &with_ponder, true), Ok(true));
    assert_eq!(check(Dialect::Ugi, Awaiting::BestMove, &format!("bestmove {mv}"), false), Ok(true));
    assert!(check(Dialect::Ugi, Awaiting::BestMove, "bestmove a1a1", false).is_err());
    assert!(check(Dialect::Ugi, Awaiting::Response, "response true false", false).is_err());
    assert!(
        check(Dialect::Ugi, Awaiting::Ready, "info string error: unknown option 'ownbook'", false).is_err()
    );
    assert!(check(Dialect::Uci, Awaiting::BestMove, "info depth 3 score cp 1 bogus 4", false).is_err());
    assert!(check(Dialect::Uci, Awaiting::BestMove, "info depth 3 score cp x", false).is_err());
    assert_eq!(
        check(
            Dialect::Uci,
            Awaiting::BestMove,
            &format!("info depth 1 score cp -3 lowerbound pv {mv}"),
            false
        ),
        Ok(false)
    );
    assert!(
        check(Dialect::Uci, Awaiting::Handshake, "option name Hash type spin default 0 min 1 max 9", false)
            .is_err()
    );
    assert!(check(Dialect::Uci, Awaiting::Handshake, "ugiok", false).is_err());
    assert!(check(Dialect::Uci, Awaiting::Ready, "readyok ", false).is_err());
}
