//! `steere gui` in a real browser: headless Chromium driven over WebDriver (chromedriver), as a
//! person uses the page. It plays whole games of Impasse and Dipole against the engine by
//! clicking squares (after every move the board drawn must be the position the server holds,
//! which the rules computed), crowns with a choice of single, exits Dipole checkers with a
//! chosen count, tries a bad and a good FEN, and takes a move back; a screenshot of each step
//! goes to `target/gui-screenshots/`. HexDame's hexagonal board has its own test
//! (`gui_browser/hexdame.rs`): moves and multi-jump captures by clicking cells, kings, a draw by
//! repetition, analysis. So has Can't Stop (`gui_browser/cantstop.rs`): a person's turns by
//! buttons against engine seats, busts, won columns, a four-player game. The analysis with
//! endgame tables (`gui_browser/tables.rs`): the tables' verdict against the exhaustive solver.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them when missing). Run
//! it alone with `cargo test --test gui_browser -- --nocapture` (it prints the time from a click
//! to the engine's reply being drawn).

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const STEERE: &str = env!("CARGO_BIN_EXE_steere");
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

/// A child process killed when dropped, with its whole process group when it leads one (so
/// that a failing test leaves no browser behind: chromedriver's Chromium processes are in its
/// group).
struct Process(Child, bool);

impl Drop for Process {
    fn drop(&mut self) {
        if self.1 {
            let group = format!("-{}", self.0.id());
            let _ = Command::new("kill").args(["-KILL", "--", &group]).stderr(Stdio::null()).status();
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind(("127.0.0.1", 0)).unwrap().local_addr().unwrap().port()
}

/// Starts `steere gui` on a free port with this steere as the engine `steere`.
fn start_gui() -> (Process, u16) {
    start_gui_with(&[])
}

/// Starts `steere gui` on a free port with this steere as the engine `steere` and `more`
/// arguments.
fn start_gui_with(more: &[&str]) -> (Process, u16) {
    let mut child = Command::new(STEERE)
        .args(["gui", "--port", "0", "--engine", &format!("steere={STEERE}")])
        .args(more)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let port = line.split("127.0.0.1:").nth(1).and_then(|r| r.split('/').next()).and_then(|p| p.parse().ok());
    (Process(child, false), port.unwrap_or_else(|| panic!("no URL in {line:?}")))
}

/// Starts chromedriver on a free port and waits until it listens.
fn start_chromedriver() -> (Process, u16) {
    assert!(
        std::path::Path::new(CHROMEDRIVER).exists() && std::path::Path::new(CHROMIUM).exists(),
        "the browser suite needs Debian's chromium and chromium-driver: apt-get install chromium chromium-driver \
         (.ci/run installs them)"
    );
    let port = free_port();
    let child = std::os::unix::process::CommandExt::process_group(
        Command::new(CHROMEDRIVER).arg(format!("--port={port}")).stdout(Stdio::null()).stderr(Stdio::null()),
        0,
    )
    .spawn()
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    (Process(child, true), port)
}

/// The game `id` as the server holds it (a plain HTTP request, not through the page).
fn server_game(port: u16, id: u64) -> Value {
    serde_json::from_str(&server_get(port, &format!("/api/game?id={id}"))).unwrap()
}

/// The body of the server's answer to `GET path` (a plain HTTP request, not through the page).
fn server_get(port: u16, path: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    // tiny_http sends a body over 32 KiB in chunks (a long dice game's state): each is its
    // size in hex, a line end, the data and a line end; size 0 ends the body.
    if !head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        return body.to_string();
    }
    let (mut rest, mut data) = (body, String::new());
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16).unwrap();
        if size == 0 {
            break;
        }
        data.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
    data
}

#[path = "gui_browser/hexdame.rs"]
mod hexdame;

#[path = "gui_browser/cantstop.rs"]
mod cantstop;

#[path = "gui_browser/play.rs"]
mod play;

#[path = "gui_browser/tables.rs"]
mod tables;

mod common;
#[path = "impasse_solver/mod.rs"]
mod solver;

/// The browser tests, one at a time: each drives its own Chromium, server and engines, and
/// two at once on a small machine would only slow each other (and the timings printed).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs a browser test on its own runtime once no other browser test runs.
fn run_alone(test: impl std::future::Future<Output = ()>) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(test);
}

/// The squares holding pieces in a FEN of any game (Impasse: letters and digits; Dipole:
/// comma-separated runs; HexDame: `SIDE:WLIST:BLIST`), as square names.
fn occupied(fen: &str) -> BTreeSet<String> {
    if fen.contains(':') {
        return hexdame::pieces(fen).into_iter().map(|(cell, _)| cell).collect();
    }
    let board = fen.split(' ').next().unwrap();
    let rows: Vec<&str> = board.split('/').collect();
    let size = rows.len();
    let mut squares = BTreeSet::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = size - i;
        let mut file = 0u8;
        // Dipole's runs are comma-separated (a row of only a number is one run in either game);
        // Impasse's pieces and digits are single characters.
        let tokens: Vec<String> = if row.contains(',') || row.chars().all(|c| c.is_ascii_digit()) {
            row.split(',').map(str::to_string).collect()
        } else {
            row.chars().map(|c| c.to_string()).collect()
        };
        for token in tokens {
            if let Ok(n) = token.parse::<u8>() {
                file += n;
            } else if token == "." {
                file += 1;
            } else {
                squares.insert(format!("{}{rank}", (b'a' + file) as char));
                file += 1;
            }
        }
    }
    squares
}

/// The square names of a move text, in order (`a7b8d2`; `e1off5` has one; HexDame's
/// `c3-c4` and `c3xe5xg5` are split at their separators).
fn squares_of(text: &str) -> Vec<String> {
    if text.contains(['-', 'x']) {
        return text.split(['-', 'x']).map(str::to_string).collect();
    }
    let text = text.split("off").next().unwrap();
    let mut squares = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let digits = bytes[i + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
        squares.push(text[i..i + 1 + digits].to_string());
        i += 1 + digits;
    }
    squares
}

/// Keys pressed one after another, as a person types `text` (`\u{E007}` is Enter).
fn typing(text: &str) -> fantoccini::actions::KeyActions {
    use fantoccini::actions::{InputSource, KeyAction, KeyActions};
    text.chars().fold(KeyActions::new("keyboard".to_string()), |keys, key| {
        keys.then(KeyAction::Down { value: key }).then(KeyAction::Up { value: key })
    })
}

/// The browser session and where its screenshots go.
struct Page {
    client: Client,
    gui: u16,
    shots: PathBuf,
    /// Put before every screenshot's name (`hexdame-`), so that the tests' shots never clash.
    prefix: &'static str,
    count: usize,
}

impl Page {
    async fn shot(&mut self, name: &str) {
        self.count += 1;
        let png = self.client.screenshot().await.unwrap();
        let file = format!("{}{:02}-{name}.png", self.prefix, self.count);
        std::fs::write(self.shots.join(file), png).unwrap();
    }

    /// Waits until `script` (an expression) is true in the page.
    async fn until(&self, script: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.js(&format!("return Boolean({script});")).await != json!(true) {
            assert!(Instant::now() < deadline, "{what}: {script}");
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }

    async fn js(&self, script: &str) -> Value {
        self.client.execute(script, vec![]).await.unwrap()
    }

    /// The id of the page's game.
    async fn game_id(&self) -> u64 {
        let id = self.js("return sessionStorage.getItem('steere-game');").await;
        id.as_str().and_then(|s| s.parse().ok()).expect("the page has a game")
    }

    /// Opens the record file `path` with the page's `Open record`; waits for its game.
    async fn open_record(&self, path: &std::path::Path) -> u64 {
        let before = self.game_id().await;
        let input = self.client.find(Locator::Id("open-record")).await.unwrap();
        input.send_keys(path.to_str().unwrap()).await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.game_id().await == before {
            assert!(Instant::now() < deadline, "the record was not opened");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        self.game_id().await
    }

    async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"))
            .click()
            .await
            .unwrap();
    }

    /// Clicks a square of a square board or a cell of the hexagonal one.
    async fn click_square(&self, square: &str) {
        self.click(&format!("rect[data-square='{square}'], polygon.hex[data-square='{square}']")).await;
    }

    /// Starts a new game from the form; waits until the page has it (or shows an error).
    async fn new_game(&self, variant: &str, white: &str, black: &str, movetime: u32, fen: &str) {
        let before = self.js("return sessionStorage.getItem('steere-game');").await;
        self.js("document.getElementById('error').textContent = '';").await;
        self.js(&format!(
            "document.getElementById('variant').value = '{variant}';\
             document.getElementById('white').value = '{white}';\
             document.getElementById('black').value = '{black}';\
             document.getElementById('movetime').value = '{movetime}';\
             document.getElementById('setup-fen').value = '{fen}';"
        ))
        .await;
        self.click("#start").await;
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let now = self.js("return sessionStorage.getItem('steere-game');").await;
            let error = self.js("return document.getElementById('error').textContent;").await;
            if now != before || error.as_str().is_some_and(|e| !e.is_empty()) {
                return;
            }
            assert!(Instant::now() < deadline, "no new game");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits until the server's game has no engine thinking and the page shows its version.
    async fn settled(&self, id: u64) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let game = server_game(self.gui, id);
            if game["thinking"] == false {
                let shown = self.js("return document.getElementById('fen').value;").await;
                if shown == game["position"]["fen"] {
                    return game;
                }
            }
            assert!(Instant::now() < deadline, "the page did not settle: {game}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits until the server's game is `changed` (a click's request is sent asynchronously,
    /// so the game may still be as it was), then until the page settles on it.
    async fn settled_after(&self, id: u64, changed: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !changed(&server_game(self.gui, id)) {
            assert!(Instant::now() < deadline, "the click was never sent");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        self.settled(id).await
    }

    /// Checks that the board drawn is the server's position: the FEN shown and the squares
    /// with pieces.
    async fn check_board(&self, game: &Value) {
        let fen = game["position"]["fen"].as_str().unwrap();
        let drawn = self
            .js("return [...new Set([...document.querySelectorAll('circle[data-square]')].map(c => c.dataset.square))];")
            .await;
        let drawn: BTreeSet<String> =
            drawn.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
        assert_eq!(drawn, occupied(fen), "the board drawn for {fen}");
    }

    /// Plays `text` by clicking: its squares, then the exit button or the pass button.
    async fn play_by_clicks(&self, text: &str) {
        if text == "pass" {
            return self.click("#pass").await;
        }
        for square in squares_of(text) {
            self.click_square(&square).await;
        }
        if text.contains("off") {
            self.click(&format!("#choice button[data-move='{text}']")).await;
        }
    }

    /// Plays the first legal move at every turn of the person until the game ends, checking the
    /// board after each move; returns the final game and the click-to-reply times.
    async fn play_out(&self, id: u64) -> (Value, Vec<Duration>) {
        let mut times = Vec::new();
        for _ in 0..300 {
            let game = self.settled(id).await;
            self.check_board(&game).await;
            if game["position"]["result"].is_string() {
                return (game, times);
            }
            let first = game["position"]["legal"][0].as_str().unwrap().to_string();
            let before = game["moves"].as_array().unwrap().len();
            let clicked = Instant::now();
            self.play_by_clicks(&first).await;
            // The click sends the move asynchronously: wait for the server to have it.
            let deadline = Instant::now() + Duration::from_secs(10);
            while server_game(self.gui, id)["moves"].as_array().unwrap().len() == before {
                assert!(Instant::now() < deadline, "{first} was never sent");
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            let after = self.settled(id).await;
            assert!(after["moves"].as_array().unwrap().len() > before, "{first} was not played: {after}");
            if after["moves"].as_array().unwrap().len() == before + 2 {
                times.push(clicked.elapsed());
            }
        }
        panic!("the game did not end");
    }
}

/// A browser session on the page of the `steere gui` on `gui_port`, once its board is drawn;
/// screenshots are named `PREFIX-NN-STEP.png`.
async fn open_page(driver_port: u16, gui_port: u16, prefix: &'static str) -> Page {
    let shots = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/gui-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900"]
        }
    });
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps.as_object().unwrap().clone())
        .connect(&format!("http://127.0.0.1:{driver_port}"))
        .await
        .expect("a WebDriver session");
    let page = Page { client, gui: gui_port, shots, prefix, count: 0 };
    page.client.goto(&format!("http://127.0.0.1:{gui_port}/")).await.unwrap();
    page.client.wait().for_element(Locator::Css("rect[data-square='a1']")).await.unwrap();
    page
}

#[test]
fn a_person_plays_impasse_and_dipole_in_the_browser() {
    run_alone(impasse_and_dipole());
}

async fn impasse_and_dipole() {
    let (_driver, driver_port) = start_chromedriver();
    let (_gui, gui_port) = start_gui();
    let mut page = open_page(driver_port, gui_port, "").await;
    page.shot("start").await;

    // Impasse against the engine at 100 ms per move, to the end.
    page.new_game("impasse", "human", "steere", 100, "").await;
    let id = page.game_id().await;
    let (game, mut times) = page.play_out(id).await;
    assert!(game["position"]["result"].as_str().unwrap().contains("won"), "{game}");
    page.shot("impasse-game-over").await;
    let status = page.client.find(Locator::Id("status")).await.unwrap().text().await.unwrap();
    assert!(status.starts_with("Game over: "), "{status}");
    times.sort();
    eprintln!(
        "impasse at 100 ms per move: {} engine replies, click to reply drawn: median {:?}, p90 {:?}, max {:?}; slowest: {:?}",
        times.len(),
        times[times.len() / 2],
        times[times.len() * 9 / 10],
        times.last(),
        &times[times.len().saturating_sub(4)..]
    );

    // Take back: back to the person's turn, with fewer moves.
    page.click("#takeback").await;
    let played = game["moves"].as_array().unwrap().len();
    let back = page.settled_after(id, |g| g["moves"].as_array().unwrap().len() < played).await;
    assert!(back["moves"].as_array().unwrap().len() < game["moves"].as_array().unwrap().len());
    assert!(back["position"]["result"].is_null());
    page.check_board(&back).await;
    page.shot("impasse-take-back").await;

    // A crown with a choice of single: a7 to b8, then the page asks which single (a3 or d2).
    page.new_game("impasse", "human", "human", 30, "7b/w7/8/8/8/w7/3w4/8 w").await;
    let id = page.game_id().await;
    page.settled(id).await;
    page.click_square("a7").await;
    page.click_square("b8").await;
    let prompt = page.client.find(Locator::Id("choice")).await.unwrap().text().await.unwrap();
    assert!(prompt.contains("Crown"), "{prompt}");
    let targets = page
        .js("return [...document.querySelectorAll('rect.target')].map(r => r.dataset.square).sort();")
        .await;
    assert_eq!(targets, json!(["a3", "d2"]));
    page.shot("impasse-crown-choice").await;
    page.click_square("d2").await;
    let crowned = page.settled_after(id, |g| !g["moves"].as_array().unwrap().is_empty()).await;
    assert_eq!(crowned["moves"][0]["text"], "a7b8d2");
    page.check_board(&crowned).await;
    page.shot("impasse-crowned").await;

    // The keyboard: a letter on the page starts a typed move; a text that begins two moves
    // is refused and names them, the whole move is played; the board is then Black's turn.
    page.new_game("impasse", "human", "human", 30, "7b/w7/8/8/8/w7/3w4/8 w").await;
    let id = page.game_id().await;
    page.settled(id).await;
    page.js("document.activeElement.blur();").await;
    page.client.perform_actions(typing("a7b8\u{E007}")).await.unwrap();
    let error = page.client.find(Locator::Id("error")).await.unwrap().text().await.unwrap();
    assert!(error.contains("begins several moves") && error.contains("a7b8d2"), "{error}");
    assert!(server_game(gui_port, id)["moves"].as_array().unwrap().is_empty(), "nothing played");
    page.shot("impasse-typed-move-refused").await;
    page.client.perform_actions(typing("a3\u{E007}")).await.unwrap();
    let typed = page.settled_after(id, |g| !g["moves"].as_array().unwrap().is_empty()).await;
    assert_eq!(typed["moves"][0]["text"], "a7b8a3");
    page.check_board(&typed).await;
    let error = page.js("return document.getElementById('error').hidden;").await;
    assert_eq!(error, json!(true), "the refusal is gone once a move is played");
    page.client.release_actions().await.unwrap();

    // What the rules do by themselves is said on the page (docs/rules/impasse.md): a side
    // with no move is at an impasse and removes a checker; a double on its own back row bears
    // its top checker off; the strip counts the checkers each side has left to remove.
    page.new_game("impasse", "human", "human", 30, "8/8/8/8/8/b1b5/1w6/8 w").await;
    let id = page.game_id().await;
    let stuck = page.settled(id).await;
    assert_eq!(stuck["position"]["legal"], json!(["b2"]), "White is at an impasse: {stuck}");
    let note = page.text_of("explain").await;
    assert!(note.starts_with("You are at an impasse"), "{note}");
    page.shot("impasse-at-an-impasse").await;
    page.click_square("b2").await;
    let removed = page.settled_after(id, |g| !g["moves"].as_array().unwrap().is_empty()).await;
    assert!(removed["position"]["result"].as_str().unwrap().contains("white"), "{removed}");
    assert_eq!(page.text_of("explain").await, "White was at an impasse and removed a checker (b2).");
    page.new_game("impasse", "human", "human", 30, "7b/8/8/8/8/8/1W6/8 w").await;
    let id = page.game_id().await;
    page.settled(id).await;
    assert!(page.text_of("strip").await.contains("2 checkers to remove"), "{}", page.text_of("strip").await);
    page.click_square("b2").await;
    page.click_square("a1").await;
    let borne = page.settled_after(id, |g| !g["moves"].as_array().unwrap().is_empty()).await;
    assert_eq!(borne["moves"][0]["text"], "b2a1");
    page.check_board(&borne).await;
    let note = page.text_of("explain").await;
    assert_eq!(note, "White's double reached its own back row: its top checker was borne off.");
    let strip = page.text_of("strip").await;
    assert!(strip.contains("1 checker to remove"), "{strip}");
    page.shot("impasse-borne-off").await;

    // A bad FEN: the parser's message, and the game shown stays.
    page.new_game("impasse", "human", "human", 30, "9/9 w").await;
    let error = page.client.find(Locator::Id("error")).await.unwrap().text().await.unwrap();
    assert!(error.contains("rank"), "{error}");
    assert_eq!(page.game_id().await, id, "no new game");
    page.shot("bad-fen").await;

    // Dipole against the engine: the first move exits 5 checkers, chosen from the exit buttons.
    // Meanwhile a state of the game shown before comes late, once the new game is shown, as
    // the page's poll may (sent just before the new game, answered after it; under load this
    // took the tab back to the old game, its buttons gone): the tab stays with the new game.
    let shown_before = page.game_id().await;
    page.js("window.lateState = fetch(`/api/game?id=${state.game.id}`).then((r) => r.json())\
         .then((g) => new Promise((ok) => { const t = setInterval(() => {\
           if (state.game.id !== g.id) { clearInterval(t); ok(g); } }, 10); }))\
         .then(accept);")
        .await;
    page.new_game("dipole", "human", "steere", 30, "").await;
    let id = page.game_id().await;
    page.client.execute_async("window.lateState.then(() => arguments[0]());", vec![]).await.unwrap();
    assert_ne!(id, shown_before, "a new game");
    assert_eq!(page.game_id().await, id, "a late state of the game shown before took the tab back");
    page.settled(id).await;
    page.click_square("e1").await;
    let exits = page
        .js("return [...document.querySelectorAll('#choice button')].map(b => b.dataset.move).sort();")
        .await;
    let legal = server_game(page.gui, id)["position"]["legal"].clone();
    let legal_exits: Vec<&Value> =
        legal.as_array().unwrap().iter().filter(|m| m.as_str().unwrap().contains("off")).collect();
    assert_eq!(
        exits.as_array().unwrap().iter().collect::<Vec<_>>(),
        legal_exits,
        "one button per legal exit"
    );
    // The buttons are under the board, below the window's fold: scrolled to for the shot.
    page.js("document.getElementById('choice').scrollIntoView({ block: 'end' });").await;
    page.shot("dipole-exit-choice").await;
    page.click("#choice button[data-move='e1off5']").await;
    let after = page.settled_after(id, |g| !g["moves"].as_array().unwrap().is_empty()).await;
    assert_eq!(after["moves"][0]["text"], "e1off5");
    let (game, times) = page.play_out(id).await;
    assert!(game["position"]["result"].as_str().unwrap().contains("has won"), "{game}");
    page.shot("dipole-game-over").await;
    eprintln!("dipole: {} engine replies, click to reply drawn: max {:?}", times.len(), times.iter().max());

    // A good FEN sets up the position.
    page.new_game("dipole", "human", "human", 30, "8/8/8/8/1,b2,1,w2,4/8/3,b3,1,b1,2/8 w").await;
    let id = page.game_id().await;
    let set = page.settled(id).await;
    assert_eq!(set["start"], "8/8/8/8/1,b2,1,w2,4/8/3,b3,1,b1,2/8 w");
    page.check_board(&set).await;
    page.shot("dipole-setup").await;

    // Analysis of the position shown: depth, score and variation, the best move drawn.
    page.js("document.getElementById('analyser').value = 'steere';").await;
    page.click("#analyse").await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let game = server_game(page.gui, id);
        let depth = game["analysis"]["depth"].as_u64().unwrap_or(0);
        let line = page.client.find(Locator::Id("analysis-line")).await.unwrap().text().await.unwrap();
        let best = page.js("return document.querySelectorAll('.best').length;").await;
        let lines = page.js("return document.querySelectorAll('#analysis-lines li').length;").await;
        if depth >= 4 && line.contains("depth") && lines.as_u64() > Some(0) && best == json!(1) {
            let first = game["analysis"]["pv"][0].as_str().unwrap().to_string();
            let legal = game["position"]["legal"].as_array().unwrap();
            assert!(legal.iter().any(|m| m == first.as_str()), "the best move {first} is legal");
            break;
        }
        assert!(Instant::now() < deadline, "no analysis shown: {line} {game}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    page.shot("dipole-analysis").await;
    page.click("#analyse").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while !server_game(page.gui, id)["analysis"].is_null() {
        assert!(Instant::now() < deadline, "the analysis did not stop");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Engine against engine, watched to the end, with the evaluation graph drawn.
    page.new_game("impasse", "steere", "steere", 30, "").await;
    let id = page.game_id().await;
    let deadline = Instant::now() + Duration::from_secs(120);
    let watched = loop {
        let game = page.settled(id).await;
        if game["position"]["result"].is_string() {
            break game;
        }
        assert!(Instant::now() < deadline, "the engines did not finish: {game}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    page.check_board(&watched).await;
    let graph = page.js("return document.querySelectorAll('#graph polyline').length;").await;
    assert_eq!(graph, json!(1), "the evaluation graph is drawn");
    page.shot("impasse-engine-vs-engine").await;

    // A match record: opened from a file, stepped through with the arrow keys, the engines'
    // depths and scores shown with their moves.
    let dir = std::env::temp_dir().join(format!("steere-gui-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("match.pgn");
    let status = Command::new(STEERE)
        .args([
            "match",
            "--variant",
            "dipole",
            "--engine1",
            STEERE,
            "name=d3",
            "depth=3",
            "--engine2",
            STEERE,
        ])
        .args(["name=d1", "depth=1", "--games", "2", "--pgn", record.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(&record).unwrap();
    let games = steere::tools::matches::record::parse_records(&text).unwrap();
    let id = page.open_record(&record).await;
    // Opened at its first position, for replaying.
    let opened = server_game(page.gui, id);
    let first = page.js("return document.getElementById('fen').value;").await;
    assert_eq!(first, opened["position"]["history"][0]);
    let played: Vec<String> =
        opened["moves"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap().to_string()).collect();
    assert_eq!(played, games[0].moves, "the record's first game");
    assert!(opened["moves"][0]["depth"].is_u64(), "recorded depths: {}", opened["moves"][0]);
    let titles = page.js("return document.getElementById('record-games').options.length;").await;
    assert_eq!(titles, json!(2));
    let history = opened["position"]["history"].as_array().unwrap().clone();
    let body = page.client.find(Locator::Css("body")).await.unwrap();
    for (ply, expected) in history.iter().enumerate().skip(1).take(3) {
        body.send_keys("\u{E014}").await.unwrap(); // ArrowRight
        let shown = page.js("return document.getElementById('fen').value;").await;
        assert_eq!(&shown, expected, "ply {ply}");
    }
    page.shot("record-replay").await;
    let _ = std::fs::remove_dir_all(&dir);

    // A game with clocks: both shown, the side to move's running.
    page.js("document.getElementById('clock').value = '1+1';").await;
    page.new_game("dipole", "human", "steere", 100, "").await;
    page.js("document.getElementById('clock').value = '';").await;
    let clock_game = page.game_id().await;
    page.settled(clock_game).await;
    page.click_square("e1").await;
    page.click_square("f2").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while server_game(page.gui, clock_game)["moves"].as_array().unwrap().len() < 2 {
        assert!(Instant::now() < deadline, "no reply under the clock");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let white = page.client.find(Locator::Id("clock-white")).await.unwrap().text().await.unwrap();
    let black = page.client.find(Locator::Id("clock-black")).await.unwrap().text().await.unwrap();
    assert!(white.starts_with("0:5") || white.starts_with("1:0"), "{white}");
    assert!(black.contains(':'), "{black}");
    page.shot("dipole-clocks").await;
    // Back to the replayed record for the reload check.
    page.new_game("impasse", "human", "human", 100, "").await;
    let id = page.game_id().await;
    page.settled(id).await;
    page.click_square("d2").await;
    page.click_square("f4").await;

    // A reload finds the tab's game again.
    page.client.refresh().await.unwrap();
    page.client.wait().for_element(Locator::Css("rect[data-square='a1']")).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while page.js("return document.getElementById('moves').children.length;").await == json!(0) {
        assert!(Instant::now() < deadline, "the game was not found again after a reload");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(page.game_id().await, id, "the same game after a reload");

    // A second tab is a second game; the first keeps its own.
    let first_tab = page.client.window().await.unwrap();
    let first_moves = server_game(page.gui, id)["moves"].clone();
    let second_tab = page.client.new_window(true).await.unwrap().handle;
    page.client.switch_to_window(second_tab).await.unwrap();
    page.client.goto(&format!("http://127.0.0.1:{gui_port}/")).await.unwrap();
    page.client.wait().for_element(Locator::Css("rect[data-square='a1']")).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let other = loop {
        let other = page.js("return sessionStorage.getItem('steere-game');").await;
        if let Some(other) = other.as_str().and_then(|s| s.parse::<u64>().ok()) {
            break other;
        }
        assert!(Instant::now() < deadline, "the second tab has no game");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_ne!(other, id, "the second tab plays its own game");
    page.settled(other).await;
    page.click_square("d2").await;
    page.click_square("e3").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while server_game(page.gui, other)["moves"].as_array().unwrap().is_empty() {
        assert!(Instant::now() < deadline, "the second tab's move was not played");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    page.shot("second-tab").await;
    page.client.switch_to_window(first_tab.clone()).await.unwrap();
    assert_eq!(server_game(page.gui, id)["moves"], first_moves, "the first tab's game is untouched");
    assert_eq!(page.game_id().await, id);

    // The address names the game shown; opened in a new tab, the link shows that game.
    let url = page.client.current_url().await.unwrap();
    assert_eq!(url.fragment(), Some(format!("game={id}").as_str()), "{url}");
    let linked_tab = page.client.new_window(true).await.unwrap().handle;
    page.client.switch_to_window(linked_tab.clone()).await.unwrap();
    page.client.goto(url.as_str()).await.unwrap();
    page.client.wait().for_element(Locator::Css("rect[data-square='a1']")).await.unwrap();
    page.until(&format!("sessionStorage.getItem('steere-game') === '{id}'"), "the link's game").await;
    page.check_board(&server_game(page.gui, id)).await;
    page.shot("linked-tab").await;
    // A duplicated tab carries its tab's storage: while the first tab shows that game, the
    // copy starts a game of its own (the copy made here as a browser makes it: the storage
    // first, then the page loaded).
    page.client.switch_to_window(first_tab.clone()).await.unwrap();
    page.client.goto(&format!("http://127.0.0.1:{gui_port}/#game={other}")).await.unwrap();
    page.client.wait().for_element(Locator::Css("rect[data-square='a1']")).await.unwrap();
    page.until(
        &format!("sessionStorage.getItem('steere-game') === '{other}'"),
        "a link typed in shows its game",
    )
    .await;
    page.client.switch_to_window(linked_tab).await.unwrap();
    // The storage is set as the page unloads, then the page loads again: a live page rewrites
    // its storage with every state of its game it receives, which a copy made earlier races.
    page.js(&format!(
        "window.steereOld = true; addEventListener('pagehide', () => \
         sessionStorage.setItem('steere-game', '{other}')); location.reload();"
    ))
    .await;
    page.until("!window.steereOld && document.querySelector(\"rect[data-square='a1']\")", "the copy loaded")
        .await;
    page.until(
        &format!(
            "(g => g !== null && g !== '{other}' && g !== '{id}')(sessionStorage.getItem('steere-game'))"
        ),
        "a game of the duplicate's own",
    )
    .await;
    page.shot("duplicated-tab").await;

    page.client.close().await.unwrap();
}
