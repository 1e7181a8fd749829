//! A laptop's window (1366x768) and a phone's (390x844), as a player meets the page beyond the
//! moves: a choice of move inside the window and in order, an analysis of several lines that
//! stops visibly, a take-back between engines that keeps the game, a flagged clock at 0:00,
//! the move list following the game and the keys, the form and the players' strip matching a
//! reloaded game (a person playing Black sees the board from Black's side), a resignation and
//! a HexDame draw by agreement with the end announced and recorded, a game review marking a
//! known blunder of a prepared record (positions/review-dipole-blunder.pgn). Screenshots:
//! `target/gui-screenshots/play-NN-*.png`.

use super::*;

impl Page {
    /// Whether the element of `css` lies wholly inside the window.
    async fn in_window(&self, css: &str) -> bool {
        let script = format!(
            "const r = document.querySelector(\"{css}\").getBoundingClientRect(); \
             return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && r.height > 0;"
        );
        self.js(&script).await == json!(true)
    }
}

#[test]
fn a_player_meets_the_page_on_a_laptop_and_a_phone() {
    run_alone(laptop_and_phone());
}

async fn laptop_and_phone() {
    let (_gui, gui_port) = start_gui();
    let (_driver, driver_port) = start_chromedriver();
    let mut page = open_page(driver_port, gui_port, "play-").await;
    page.client.set_window_size(1366, 768).await.unwrap();

    // Dipole's exits: the buttons stand inside the window, in numeric order.
    page.new_game("dipole", "human", "human", 30, "").await;
    let id = page.game_id().await;
    page.settled(id).await;
    page.click_square("e1").await;
    assert!(page.in_window("#choice").await, "the exit buttons are where the eye is");
    let exits = page.js("return [...document.querySelectorAll('#choice button')].map(b => Number(b.dataset.move.split('off')[1]));").await;
    let exits: Vec<u64> = exits.as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(exits, (4..=12).collect::<Vec<u64>>(), "one button per exit, in order");
    page.shot("laptop-exit-choice").await;
    page.click("#choice button[data-move='e1off12']").await;

    // Analysis of three lines; Stop stops it visibly.
    page.new_game("impasse", "human", "human", 30, "").await;
    let id = page.game_id().await;
    page.settled(id).await;
    page.js("document.getElementById('multipv').value = '3';").await;
    page.click("#analyse").await;
    assert_eq!(page.text_of("analyse").await, "Stop");
    page.until("document.querySelectorAll('#analysis-lines li').length === 3", "three analysis lines").await;
    page.until("document.querySelector('#board .best[marker-end]')", "the best move's arrow has its head")
        .await;
    page.shot("laptop-analysis-lines").await;
    page.click("#analyse").await;
    assert_eq!(page.text_of("analyse").await, "Analyse", "the button says what it does now");
    page.until("document.getElementById('analysis-line').textContent === ''", "the old line goes").await;
    page.until("document.querySelectorAll('#analysis-lines li').length === 0", "the old lines go").await;

    // Engines against each other: a take-back drops one move and pauses them.
    page.new_game("dipole", "steere", "steere", 20, "").await;
    let id = page.game_id().await;
    let deadline = Instant::now() + Duration::from_secs(30);
    while server_game(page.gui, id)["moves"].as_array().unwrap().len() < 8 {
        assert!(Instant::now() < deadline, "the engines did not play");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    page.click("#takeback").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while server_game(page.gui, id)["paused"] != json!(true) {
        assert!(Instant::now() < deadline, "the take-back was not sent");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let kept = server_game(page.gui, id)["moves"].as_array().unwrap().len();
    assert!(kept >= 7, "the game is kept, less one move: {kept}");
    page.until("document.getElementById('status').textContent.includes('paused')", "paused shown").await;
    // The move list follows the game: the last move in sight, Home goes to the start.
    page.until("document.querySelector('#moves span.current')", "the current move marked").await;
    let body = page.client.find(Locator::Css("body")).await.unwrap();
    body.send_keys("\u{E011}").await.unwrap(); // Home
    assert_eq!(
        page.js("return document.getElementById('fen').value;").await,
        server_game(page.gui, id)["position"]["history"][0]
    );
    body.send_keys("\u{E010}").await.unwrap(); // End
    let last = page.js("const s = document.querySelectorAll('#moves span'); return s[s.length - 1].classList.contains('current');").await;
    assert_eq!(last, json!(true), "End shows the last move");
    page.shot("laptop-engines-paused").await;
    page.click("#resume").await;

    // A flag: the clock reads 0:00.0 and the game is lost on time.
    page.js("document.getElementById('clock').value = '0.01+0';").await;
    page.new_game("dipole", "human", "human", 100, "").await;
    page.js("document.getElementById('clock').value = '';").await;
    page.until("document.getElementById('status').textContent.includes('lost on time')", "the flag").await;
    page.until(
        "document.getElementById('clock-white').textContent === '0:00.0'",
        "a flagged clock at 0:00.0",
    )
    .await;
    page.shot("laptop-flag").await;
    page.click("#gameover-close").await;

    // A person playing Black against a level-3 engine: the strip says so, the board is seen
    // from Black's side, and after a reload the form and strip still match the game.
    page.js("document.getElementById('white-level').value = '3';").await;
    page.new_game("impasse", "steere", "human", 50, "").await;
    let id = page.game_id().await;
    page.settled(id).await;
    let flipped = "Number(document.querySelector(\"rect[data-square='a1']\").getAttribute('y')) < Number(document.querySelector(\"rect[data-square='a8']\").getAttribute('y'))";
    page.until(flipped, "Black's side at the bottom").await;
    page.until(
        "document.getElementById('strip').textContent.includes('steere, level 3')",
        "the level in the strip",
    )
    .await;
    page.client.refresh().await.unwrap();
    page.client.wait().for_element(Locator::Css("rect[data-square='a1']")).await.unwrap();
    page.until(
        "document.getElementById('strip').textContent.includes('steere, level 3')",
        "the strip after a reload",
    )
    .await;
    let form = page.js("return ['variant', 'white', 'black', 'white-level'].map(id => document.getElementById(id).value);").await;
    assert_eq!(form, json!(["impasse", "steere", "human", "3"]), "the form shows the game shown");
    assert_eq!(page.game_id().await, id);
    page.until(flipped, "still from Black's side").await;
    page.shot("laptop-reloaded-level").await;

    // Resigning ends the game, announced and recorded.
    page.click("#resign").await;
    page.client.accept_alert().await.unwrap();
    page.until("!document.getElementById('gameover').hidden", "the end announced").await;
    assert_eq!(page.text_of("gameover-text").await, "Game over: black resigns: white has won");
    let record = server_get(page.gui, &format!("/api/record?id={id}"));
    assert!(
        record.contains("[Result \"1-0\"]") && record.contains("resignation: black resigned"),
        "{record}"
    );
    page.shot("laptop-resigned").await;
    page.click("#gameover-close").await;

    // HexDame: a dead king ending is drawn by agreement with the engine.
    page.new_game("hexdame", "human", "steere", 50, "W:WKa1:BKi9").await;
    let id = page.game_id().await;
    let game = page.settled(id).await;
    let first = game["position"]["legal"][0].as_str().unwrap().to_string();
    page.play_by_clicks(&first).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while server_game(page.gui, id)["moves"].as_array().unwrap().len() < 2 {
        assert!(Instant::now() < deadline, "no reply");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    page.settled(id).await;
    page.click("#offer-draw").await;
    page.until(
        "document.getElementById('status').textContent === 'Game over: draw by agreement'",
        "the draw",
    )
    .await;
    assert!(server_get(page.gui, &format!("/api/record?id={id}")).contains("[Result \"1/2-1/2\"]"));
    page.shot("laptop-draw-agreed").await;

    // Game review of a record with a known blunder (the one gui_server's review test proves
    // with the rules): marked in the move list, listed, and a click on it shows it.
    let record = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("positions/review-dipole-blunder.pgn");
    let id = page.open_record(&record).await;
    page.js("document.getElementById('review-depth').value = '6';").await;
    page.click("#review").await;
    page.until("document.getElementById('review').textContent === 'Stop review' || document.querySelector('#review-summary .mark-link')", "the review runs").await;
    page.until(
        "document.querySelector(\"#moves span[data-ply='74'][data-mark='blunder']\")",
        "the blunder marked in the list",
    )
    .await;
    page.until("document.getElementById('review').textContent === 'Review game'", "the review ends").await;
    assert!(page.text_of("review-summary").await.contains("blunder"), "listed");
    page.shot("laptop-review").await;
    page.click("#review-summary button.mark-blunder[data-ply='74']").await;
    let history = server_game(page.gui, id)["position"]["history"][74].clone();
    assert_eq!(
        page.js("return document.getElementById('fen').value;").await,
        history,
        "the blunder's position shown"
    );
    assert_eq!(
        page.js("return document.querySelectorAll('#graph circle.mark-blunder').length > 0;").await,
        json!(true)
    );

    // A phone: the choice of move stays inside the window, over the page's foot.
    page.client.set_window_size(390, 844).await.unwrap();
    page.new_game("dipole", "human", "steere", 30, "").await;
    let id = page.game_id().await;
    page.settled(id).await;
    page.click_square("e1").await;
    assert!(page.in_window("#choice").await, "the exit buttons on a phone");
    page.shot("phone-exit-choice").await;
    page.client.close().await.unwrap();
}
