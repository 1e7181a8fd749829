//! `steere gui`: a local web server whose page plays, watches and analyses games with engines
//! driven over the text protocol, as separate processes, exactly as any GUI drives a UCI/UGI
//! engine (so any engine that speaks the protocol can play, not only `steere`).
//!
//! The scheme, room by room:
//! - [`guard`]: which requests are answered (only those of the server's own page);
//! - [`games`]: the games, one per tab, whatever the game (board games and dice games alike,
//!   the dice rolled by the server), and the engine threads that play their engine seats;
//! - [`view`]: a position as the page sees it, computed with the variant's rules, and what
//!   each variant offers (its capabilities: analysis, take-backs, seats, strategies);
//! - [`records`]: the records saved and opened, one file per format;
//! - [`changes`]: what all games share: their ids and the signal of change;
//! - [`upkeep`]: the lifetime of the engine processes (stopped when their game ends or is
//!   left) and the cap on games in progress;
//! - [`limits`]: what a request may carry (the size of its body, the text of a move), and how
//!   many games may be in progress;
//! - this file: the command's arguments, the HTTP server and its routes; the page itself
//!   (`assets/`: HTML, CSS, JavaScript) is compiled into the binary, so nothing is fetched from
//!   the network.
//!
//! **The HTTP crate.** `tiny_http`: a small synchronous HTTP/1.1 server (a handful of
//! dependencies, no async runtime), which fits an engine whose every other part is plain
//! threads. Each request is answered on a thread of its own, so that a slow client (an upload
//! that stalls, a long event stream) keeps no other request waiting. Live state reaches the
//! page as server-sent events (`/api/events`; see [`events`] for how a stream gets an
//! unbuffered connection).
//!
//! **Routes.** `GET /` (the page), `/app.js` (with `assets/panel.js` before it: what stands
//! around a board, the players, scores, the graph, the game's end), `/hexboard.js` (the HexDame board),
//! `/cantstop.js` (the Can't Stop board and controls), `/style.css`; `GET /api/setup` (variants,
//! with a dice game's numbers of players and engine strategies, and engines); `GET /api/game?id=N`; `GET /api/events?id=N` (server-sent events: the game's
//! state at every change); `GET /api/record?id=N` (the game as a record, text); `POST` with a JSON body: `/api/new` (a [`games::NewGame`]: a board game's `players`, a dice game's `seats`),
//! `/api/move` (`{"id": N, "move": "d2f4"}`), `/api/truncate` (`{"id": N, "ply": K}`),
//! `/api/takeback`, `/api/resume`, `/api/resign` and `/api/skip` (a dice game's engine turn
//! played to its end without pauses) (`{"id": N}`), `/api/draw` (`{"id": N}`
//! offers a draw, `"accept": true|false` answers the other side's offer), `/api/load` (`{"text": RECORD, "index": K}`:
//! game K of a record file, as a new game; answers `{"game": ..., "games": [titles]}`), `/api/analyse` (`{"id": N, "engine": NAME,
//! "ply": K, "multipv": L}` analyses the position after K moves, showing L lines; without
//! `engine` it stops), `/api/review`
//! (`{"id": N, "engine": NAME, "depth": D}` or `{"id": N, "engine": NAME, "movetime": T}`
//! reviews every position of the game, depth 6 by default; `{"id": N}` stops the review: see
//! [`games`]' `review.rs`). Answers are JSON: a game's
//! state (its family's fields: see [`games`]), or `{"error": "..."}` with status 400 (404 for an unknown route, 403
//! for a refused origin, 413 for a body over [`limits::MAX_BODY`]).
//!
//! A dice game's `/api/move` takes an event token (`roll` rolls the dice); `/api/load` opens
//! the GUI's dice record or `steere match`'s JSON lines too. Take back and play from here need
//! a game that can go back ([`view::Capabilities::rewinds`]: a dice game cannot be rolled
//! again), analysis one that can be analysed; the others say so.

pub mod changes;
pub mod games;
pub mod guard;
pub mod limits;
pub mod records;
pub mod upkeep;
pub mod view;

use games::{Games, NewGame};
use guard::Guard;
use limits::Limits;
use serde::Deserialize;
use serde_json::json;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;
use tiny_http::{Header, Method, Request, Response, Server};

/// The page, compiled in.
const INDEX_HTML: &str = include_str!("assets/index.html");
/// The page's script: what stands around a board (`panel.js`), then the page itself. One
/// file: each script more is one more connection the page's load waits for.
const APP_JS: &str = concat!(include_str!("assets/panel.js"), include_str!("assets/app.js"));
const HEXBOARD_JS: &str = include_str!("assets/hexboard.js");
const CANTSTOP_JS: &str = include_str!("assets/cantstop.js");
const STYLE_CSS: &str = include_str!("assets/style.css");

/// The time control an engine spec needs; the GUI sends each game's own `go movetime` instead.
const GUI_CONTROL: &str = "movetime=1000";

pub use crate::cli::gui::GuiArgs;

/// The name of this steere among the engines when no `--engine` is given.
const BUILT_IN: &str = "steere";

/// Runs the server until it is killed.
pub fn run(args: &GuiArgs) -> Result<(), String> {
    let engines = engine_specs(&args.engines)?;
    let server = Server::http((args.bind.as_str(), args.port))
        .map_err(|e| format!("cannot listen on {}:{}: {e}", args.bind, args.port))?;
    let port = server.server_addr().to_ip().map(|a| a.port()).ok_or("the server has no IP address")?;
    if args.bind != "127.0.0.1" && args.bind != "::1" && args.bind != "localhost" {
        eprintln!(
            "steere gui: warning: listening on {}: other machines can reach this server and play with its engines",
            args.bind
        );
    }
    let url = format!("http://127.0.0.1:{port}/");
    crate::outln!(
        "steere gui: open {url} (engines: {}); Ctrl-C to stop",
        engines.iter().map(|e| e.0.as_str()).collect::<Vec<_>>().join(", ")
    );
    if args.open {
        open_browser(&url);
    }
    let limits = Limits {
        idle: Duration::from_secs(args.idle_timeout),
        max_games: usize::try_from(args.max_games).unwrap_or(usize::MAX),
    };
    let tables = args.tables.clone().map(|dir| {
        crate::tools::tablebase::install_for_command(&dir);
        games::AnalysisTables { dir, engines: this_steere(&engines) }
    });
    serve(server, Guard::new(&args.bind, port), Games::new(engines, limits, tables));
    Ok(())
}

/// The engines of `--engine NAME=COMMAND`, or this steere when none is given.
pub fn engine_specs(words: &[String]) -> Result<Vec<(String, crate::client::spec::EngineSpec)>, String> {
    use crate::client::spec::EngineSpec;
    let mut engines = Vec::new();
    if words.is_empty() {
        let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
        let own = [exe.display().to_string(), format!("name={BUILT_IN}")];
        let spec = EngineSpec::parse("--engine", &[GUI_CONTROL.to_string()], &own)?;
        engines.push((BUILT_IN.to_string(), spec));
    }
    for word in words {
        let (name, command) = word
            .split_once('=')
            .filter(|(n, c)| !n.trim().is_empty() && !c.trim().is_empty())
            .ok_or_else(|| format!("--engine '{word}': expected NAME=COMMAND"))?;
        if name == "human" || engines.iter().any(|(n, _)| n == name) {
            return Err(format!("--engine '{word}': the name '{name}' is taken"));
        }
        // The spec splits the command into words itself, as a shell would.
        let own = [command.to_string(), format!("name={name}")];
        let spec = EngineSpec::parse("--engine", &[GUI_CONTROL.to_string()], &own)
            .map_err(|e| format!("--engine '{word}': {e}"))?;
        engines.push((name.to_string(), spec));
    }
    Ok(engines)
}

/// The names of the engines that are this program (the default engine, or `--engine
/// NAME=PATH` to it): only those are known to take `TablebasePath`; other engines analyse
/// without the tables, whose verdict the page shows beside them.
fn this_steere(engines: &[(String, crate::client::spec::EngineSpec)]) -> Vec<String> {
    let canonical = |path: &std::path::Path| std::fs::canonicalize(path).ok();
    let Some(exe) = std::env::current_exe().ok().and_then(|e| canonical(&e)) else { return Vec::new() };
    engines
        .iter()
        .filter(|(_, spec)| canonical(std::path::Path::new(&spec.command[0])).as_ref() == Some(&exe))
        .map(|(name, _)| name.clone())
        .collect()
}

/// Answers requests forever, each on a thread of its own: this loop only hands them over, so
/// a client that is slow to send its body (or never does) holds its own thread alone. Also
/// starts the upkeep of the engines ([`upkeep::start`]).
pub fn serve(server: Server, guard: Guard, games: Arc<Games>) {
    upkeep::start(games.clone());
    while let Ok(request) = server.recv() {
        let (guard, games) = (guard.clone(), games.clone());
        // Without a thread (the system has none left) the request is dropped: tiny_http
        // answers it with status 500.
        let _ = std::thread::Builder::new()
            .name("gui request".into())
            .spawn(move || handle(request, &guard, &games));
    }
}

/// The value of header `name`.
fn header<'a>(request: &'a Request, name: &'static str) -> Option<&'a str> {
    request.headers().iter().find(|h| h.field.equiv(name)).map(|h| h.value.as_str())
}

/// Answers one request.
fn handle(mut request: Request, guard: &Guard, games: &Arc<Games>) {
    if let Err(why) = guard.check(header(&request, "Host"), header(&request, "Origin")) {
        let _ = request.respond(json_response(403, &json!({ "error": why })));
        return;
    }
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let method = request.method().clone();
    if method == Method::Get && path == "/api/events" {
        // A stream that lasts as long as the page (on this request's own thread).
        match query_id(query).and_then(|id| games.snapshot(id).map(|_| id)) {
            Ok(id) => events(request, id, games),
            Err(e) => {
                let _ = request.respond(answer::<()>(Err(e)));
            }
        }
        return;
    }
    let response = match (&method, path) {
        (Method::Get, "/") => asset(INDEX_HTML, "text/html; charset=utf-8"),
        (Method::Get, "/app.js") => asset(APP_JS, "text/javascript; charset=utf-8"),
        (Method::Get, "/hexboard.js") => asset(HEXBOARD_JS, "text/javascript; charset=utf-8"),
        (Method::Get, "/cantstop.js") => asset(CANTSTOP_JS, "text/javascript; charset=utf-8"),
        (Method::Get, "/style.css") => asset(STYLE_CSS, "text/css; charset=utf-8"),
        (Method::Get, "/api/setup") => json_response(200, &setup(games)),
        (Method::Get, "/api/game") => answer(query_id(query).and_then(|id| games.snapshot(id))),
        (Method::Get, "/api/record") => match query_id(query).and_then(|id| games.record_text(id)) {
            Ok(text) => with_type(Response::from_string(text), "text/plain; charset=utf-8"),
            Err(e) => answer::<()>(Err(e)),
        },
        (Method::Post, "/api/load") => match limits::read_body(&mut request) {
            Ok(body) => answer(load(&body, games)),
            Err((status, e)) => json_response(status, &json!({ "error": e })),
        },
        (Method::Post, route) if route.starts_with("/api/") => match limits::read_body(&mut request) {
            Ok(body) => answer(post(route, &body, games)),
            Err((status, e)) => json_response(status, &json!({ "error": e })),
        },
        _ => json_response(404, &json!({ "error": format!("no such page: {method} {path}") })),
    };
    let _ = request.respond(response);
}

/// How often an event stream sends the state even without a change: it keeps the connection
/// alive and lets a running clock reach its flag.
const EVENT_HEARTBEAT: Duration = Duration::from_secs(1);

/// `/api/events?id=N`: server-sent events, one `data: SNAPSHOT` line each time game `id`
/// changes (and at least every [`EVENT_HEARTBEAT`]), until the page goes away.
///
/// The body is written to the connection itself, flushed after every event: `tiny_http`'s own
/// chunked bodies are sent 8 KiB at a time, too late for live output. The response is headed
/// as an upgrade (`Connection: upgrade`) only so that `tiny_http` hands over the connection;
/// with status 200 browsers read it as an ordinary response whose body ends when the
/// connection closes, which is what an event stream is.
fn events(request: Request, id: u64, games: &Arc<Games>) {
    let content_type = Header::from_bytes("Content-Type", "text/event-stream").expect("a valid header");
    let no_store = Header::from_bytes("Cache-Control", "no-store").expect("a valid header");
    let response = Response::empty(200).with_header(content_type).with_header(no_store);
    let mut stream = request.upgrade("steere-events", response);
    let mut seen = changes::changes();
    loop {
        let Ok(snapshot) = games.snapshot(id) else { return };
        let Ok(json) = serde_json::to_string(&snapshot) else { return };
        if stream.write_all(format!("data: {json}\n\n").as_bytes()).and_then(|()| stream.flush()).is_err() {
            return; // the page has gone
        }
        seen = changes::wait_for_change(seen, EVENT_HEARTBEAT);
    }
}

/// The variants (name, summary, family, start position; for a dice game also its numbers of
/// players and its engine strategies) and the engines' names.
fn setup(games: &Games) -> serde_json::Value {
    let variants: Vec<_> = crate::variants::VARIANTS
        .iter()
        .filter_map(|v| {
            let caps = view::capabilities(v.name).ok()?;
            // The measured Elo of each level (docs/levels.md), weakest first.
            let elos: Vec<i32> =
                crate::levels::elo_table(crate::levels::played(v)).iter().map(|e| e.1).collect();
            let mut entry = json!({
                "name": v.name, "summary": v.summary, "family": "board", "start": caps.start, "levels": elos,
            });
            if !caps.options.is_empty() {
                let options: Vec<_> = caps
                    .options
                    .iter()
                    .map(|o| json!({"name": o.name, "label": o.label, "values": o.values, "help": o.help}))
                    .collect();
                entry["options"] = json!(options);
            }
            if caps.family == crate::variants::Family::Dice {
                entry["family"] = json!("dice");
                entry["players"] = json!([caps.players.0, caps.players.1]);
                entry["strategies"] = json!(caps.strategies);
            }
            Some(entry)
        })
        .collect();
    json!({ "variants": variants, "engines": games.engine_names(), "version": env!("CARGO_PKG_VERSION") })
}

/// A game and what to do with it.
#[derive(Deserialize)]
struct GameRequest {
    id: u64,
    #[serde(rename = "move")]
    mv: Option<String>,
    ply: Option<usize>,
    engine: Option<String>,
    accept: Option<bool>,
    multipv: Option<usize>,
    /// A review's depth per position.
    depth: Option<u32>,
    /// A review's time per position, in milliseconds.
    movetime: Option<u64>,
}

/// Runs a `POST` route.
fn post(route: &str, body: &str, games: &Arc<Games>) -> Result<serde_json::Value, String> {
    let parse_error = |e: serde_json::Error| format!("bad request body: {e}");
    if route == "/api/new" {
        let new: NewGame = serde_json::from_str(body).map_err(parse_error)?;
        let _admitted = games.admit()?;
        return games.create(&new);
    }
    let request: GameRequest = serde_json::from_str(body).map_err(parse_error)?;
    let id = request.id;
    match route {
        "/api/move" => games.play(id, request.mv.as_deref().ok_or("no move given")?),
        "/api/truncate" => games.truncate(id, request.ply.ok_or("no ply given")?),
        "/api/takeback" => games.take_back(id),
        "/api/resume" => games.resume(id),
        "/api/resign" => games.resign(id),
        "/api/skip" => games.skip_turn(id),
        "/api/draw" => games.draw(id, request.accept),
        "/api/analyse" => {
            games.analyse(id, request.engine.as_deref(), request.ply.unwrap_or(0), request.multipv)
        }
        "/api/review" => games.review(id, request.engine.as_deref(), request.depth, request.movetime),
        _ => Err(format!("no such action: {route}")),
    }
}

/// A record file to open: its text and the game wanted.
#[derive(Deserialize)]
struct LoadRequest {
    text: String,
    index: Option<usize>,
}

/// `/api/load`: the game and the titles of every game of the file ([`records::open`] tells
/// the format).
fn load(body: &str, games: &Arc<Games>) -> Result<serde_json::Value, String> {
    let request: LoadRequest = serde_json::from_str(body).map_err(|e| format!("bad request body: {e}"))?;
    let _admitted = games.admit()?;
    let (game, titles) = games.load(&request.text, request.index.unwrap_or(0))?;
    Ok(json!({ "game": game, "games": titles }))
}

/// The `id=N` of a query string.
fn query_id(query: &str) -> Result<u64, String> {
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("id="))
        .and_then(|id| id.parse().ok())
        .ok_or_else(|| "expected ?id=N".to_string())
}

/// A JSON answer: the value, or `{"error": ...}` with status 400.
fn answer<T: serde::Serialize>(result: Result<T, String>) -> Response<std::io::Cursor<Vec<u8>>> {
    match result {
        Ok(value) => json_response(200, &value),
        Err(error) => json_response(400, &json!({ "error": error })),
    }
}

fn json_response<T: serde::Serialize>(status: u16, value: &T) -> Response<std::io::Cursor<Vec<u8>>> {
    let body = serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    with_type(Response::from_string(body).with_status_code(status), "application/json")
}

fn asset(text: &'static str, content_type: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    with_type(Response::from_string(text), content_type)
}

fn with_type(
    response: Response<std::io::Cursor<Vec<u8>>>,
    content_type: &str,
) -> Response<std::io::Cursor<Vec<u8>>> {
    let header = Header::from_bytes("Content-Type", content_type).expect("a valid header");
    let no_store = Header::from_bytes("Cache-Control", "no-store").expect("a valid header");
    response.with_header(header).with_header(no_store)
}

/// Opens `url` in the desktop's browser, if there is one (a failure is only reported).
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("steere gui: cannot open a browser ({opener}: {e}); open {url} yourself");
    }
}
