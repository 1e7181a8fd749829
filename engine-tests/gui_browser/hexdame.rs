//! HexDame in the browser: the hexagonal board drawn from the server's FEN (cells, men and
//! kings), moves entered by clicking the start cell and then every landing cell (a man's step,
//! a king's two-piece capture chosen among five, a man's capture round a triangle back to its
//! own cell), the engine's compulsory reply, a draw by threefold repetition, the analysis's
//! best move and the flipped board. Screenshots: `target/gui-screenshots/hexdame-NN-*.png`.

use super::*;

/// The pieces of a HexDame FEN (`W:Wa1,Kc3:Bf6`): each cell with whether a king stands there.
pub fn pieces(fen: &str) -> Vec<(String, bool)> {
    let mut pieces = Vec::new();
    for list in fen.trim().split(':').skip(1) {
        for item in list[1..].split(',').filter(|item| !item.is_empty()) {
            let king = item.starts_with('K');
            pieces.push((item.trim_start_matches('K').to_string(), king));
        }
    }
    pieces
}

impl Page {
    /// The cells with a class, as the page draws them (`target`, `selected`, `lastmove`).
    async fn cells(&self, class: &str) -> Value {
        self.js(&format!(
            "return [...document.querySelectorAll('polygon.hex.{class}')].map(p => p.dataset.square).sort();"
        ))
        .await
    }

    /// Checks the board drawn against the server's position: pieces and kings.
    async fn check_hex_board(&self, game: &Value) {
        self.check_board(game).await;
        let fen = game["position"]["fen"].as_str().unwrap();
        let kings: BTreeSet<String> =
            pieces(fen).into_iter().filter(|(_, king)| *king).map(|(cell, _)| cell).collect();
        let drawn =
            self.js("return [...document.querySelectorAll('circle.king')].map(c => c.dataset.square);").await;
        let drawn: BTreeSet<String> =
            drawn.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
        assert_eq!(drawn, kings, "the kings drawn for {fen}");
    }

    /// Waits until the server's game has `count` moves, then until the page shows it.
    async fn moves_reach(&self, id: u64, count: usize) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        while server_game(self.gui, id)["moves"].as_array().unwrap().len() < count {
            assert!(Instant::now() < deadline, "the game never had {count} moves");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        self.settled(id).await
    }

    async fn status(&self) -> String {
        self.client.find(Locator::Id("status")).await.unwrap().text().await.unwrap()
    }
}

fn texts(game: &Value) -> Vec<String> {
    game["moves"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap().to_string()).collect()
}

#[test]
fn a_person_plays_hexdame_in_the_browser() {
    run_alone(play());
}

async fn play() {
    let (_driver, driver_port) = start_chromedriver();
    let (_gui, gui_port) = start_gui();
    let mut page = open_page(driver_port, gui_port, "hexdame-").await;

    // The start position against the engine: 61 cells, 16 men a side.
    page.new_game("hexdame", "human", "steere", 100, "").await;
    let id = page.game_id().await;
    let start = page.settled(id).await;
    page.check_hex_board(&start).await;
    assert_eq!(page.js("return document.querySelectorAll('polygon.hex').length;").await, json!(61));
    assert_eq!(page.js("return document.querySelectorAll('circle[data-square]').length;").await, json!(32));
    page.shot("start").await;

    // A man's step: d4 offers its three forward cells, e5 plays d4-e5; the engine's only reply
    // is the capture f6xd4 (docs/rules/hexdame.md, example 1).
    page.click_square("d4").await;
    assert_eq!(page.cells("target").await, json!(["d5", "e4", "e5"]));
    assert_eq!(page.cells("selected").await, json!(["d4"]));
    page.shot("step-targets").await;
    page.click_square("e5").await;
    let replied = page.moves_reach(id, 2).await;
    assert_eq!(texts(&replied), ["d4-e5", "f6xd4"]);
    page.check_hex_board(&replied).await;
    assert_eq!(page.cells("lastmove").await, json!(["d4", "f6"]), "the engine's capture is marked");
    page.shot("engine-captured").await;

    // A king's capture of two among five (example 6): a1 offers e5, f6 and h8 (never d4 or
    // g7); after h8, the cells beyond h6; the page lists the five paths too.
    page.new_game("hexdame", "human", "steere", 100, "W:WKa1,d2:Bc3,e3,h6,i9").await;
    let id = page.game_id().await;
    let set = page.settled(id).await;
    page.check_hex_board(&set).await;
    // The page says why only captures are offered: the rules' majority capture, two here.
    let note = page.js("return document.getElementById('explain').textContent;").await;
    let note = note.as_str().unwrap();
    assert!(note.contains("compulsory") && note.contains("the most pieces (2 here)"), "{note}");
    page.click_square("a1").await;
    assert_eq!(page.cells("target").await, json!(["e5", "f6", "h8"]));
    let paths =
        page.js("return [...document.querySelectorAll('#choice button')].map(b => b.dataset.move);").await;
    assert_eq!(paths, set["position"]["legal"], "one button per capture");
    page.click_square("h8").await;
    assert_eq!(page.cells("target").await, json!(["h4", "h5"]));
    assert_eq!(page.cells("selected").await, json!(["a1", "h8"]));
    page.shot("king-capture-path").await;
    // The paths still possible, as buttons below the board.
    let paths =
        page.js("return [...document.querySelectorAll('#choice button')].map(b => b.dataset.move);").await;
    assert_eq!(paths, json!(["a1xh8xh4", "a1xh8xh5"]));
    page.js("document.getElementById('choice').scrollIntoView();").await;
    page.shot("king-capture-choices").await;
    page.js("window.scrollTo(0, 0);").await;
    page.click_square("h5").await;
    let replied = page.moves_reach(id, 2).await;
    assert_eq!(texts(&replied)[0], "a1xh8xh5");
    page.check_hex_board(&replied).await;
    page.shot("king-captured").await;

    // A man round a triangle, landing back on his own cell (example 5): c3, e3, e5, c3.
    page.new_game("hexdame", "human", "steere", 100, "W:Wc3:Bd3,d4,e4,i9").await;
    let id = page.game_id().await;
    page.settled(id).await;
    for cell in ["c3", "e3", "e5"] {
        page.click_square(cell).await;
    }
    assert_eq!(page.cells("target").await, json!(["c3"]));
    page.click_square("c3").await;
    let replied = page.moves_reach(id, 1).await;
    assert_eq!(texts(&replied)[0], "c3xe3xe5xc3");
    page.check_hex_board(&replied).await;

    // Kings and men of both colours, and the same board flipped.
    page.new_game("hexdame", "human", "human", 100, "W:WKb2,c3,d4,Ke6:BKd7,f7,g6,Kh8").await;
    let id = page.game_id().await;
    let kings = page.settled(id).await;
    page.check_hex_board(&kings).await;
    page.shot("kings").await;
    let y = |cell: &str| {
        format!("document.querySelector(\"polygon.hex[data-square='{cell}']\").getBoundingClientRect().y")
    };
    let below = page.js(&format!("return {} > {};", y("a1"), y("i9"))).await;
    assert_eq!(below, json!(true), "a1 at the bottom");
    page.click("#flip").await;
    let above = page.js(&format!("return {} < {};", y("a1"), y("i9"))).await;
    assert_eq!(above, json!(true), "a1 at the top once flipped");
    page.check_hex_board(&kings).await;
    page.shot("kings-flipped").await;
    page.click("#flip").await;

    // The analysis's best move, drawn along its path.
    page.new_game("hexdame", "human", "human", 100, "W:WKa1,d2:Bc3,e3,h6,i9").await;
    let id = page.game_id().await;
    page.settled(id).await;
    page.js("document.getElementById('analyser').value = 'steere';").await;
    page.click("#analyse").await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let game = server_game(page.gui, id);
        // The line the page drew from, read with the drawing (the analysis deepens meanwhile).
        let seen = page
            .js("return [state.game.analysis && state.game.analysis.pv[0], [...document.querySelectorAll('polyline.best')].map(l => l.dataset.move)];")
            .await;
        if let (Some(first), Some([drawn])) = (seen[0].as_str(), seen[1].as_array().map(Vec::as_slice)) {
            assert!(game["position"]["legal"].as_array().unwrap().iter().any(|m| m == first), "{first}");
            assert_eq!(drawn.as_str().unwrap(), squares_of(first).concat(), "the path drawn");
            break;
        }
        assert!(Instant::now() < deadline, "no best move drawn: {game}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    page.shot("analysis").await;
    page.click("#analyse").await;

    // Threefold repetition by clicks (example 13): drawn after the eighth move, nothing more to
    // click, the status says so.
    page.new_game("hexdame", "human", "human", 100, "W:WKa1:BKi9").await;
    let id = page.game_id().await;
    page.settled(id).await;
    let shuffle = ["a1-a2", "i9-i8", "a2-a1", "i8-i9", "a1-a2", "i9-i8", "a2-a1", "i8-i9"];
    for (ply, text) in shuffle.iter().enumerate() {
        let (from, to) = text.split_once('-').unwrap();
        page.click_square(from).await;
        page.click_square(to).await;
        page.moves_reach(id, ply + 1).await;
    }
    let drawn = page.settled(id).await;
    assert_eq!(drawn["position"]["draw"], "repetition", "{drawn}");
    assert_eq!(page.status().await, "Game over: draw by threefold repetition");
    page.click_square("a1").await;
    assert_eq!(page.cells("selected").await, json!([]), "nothing to select after the draw");
    page.shot("repetition-draw").await;

    page.client.close().await.unwrap();
}
