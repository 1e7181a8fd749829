//! Can't Stop in the browser: a person plays against engine seats (fixed players, for speed)
//! by pressing the page's buttons: Roll at the start of a turn, a choice of the roll (focusing
//! it highlights the columns it advances), then Roll or Stop. After every event the markers
//! drawn must be the server's position (its FEN, which the rules computed); a bust of the
//! person's is announced, a won column is drawn in its winner's colour, and the game is played
//! to its end. Then a four-player game, mid-way. Screenshots:
//! `target/gui-screenshots/cantstop-NN-*.png`.

use super::*;

/// Coloured markers as (player from 1, column, space).
type Coloured = BTreeSet<(u64, u64, u64)>;
/// Neutral markers as (column, space).
type Neutral = BTreeSet<(u64, u64)>;

/// The markers of a Can't Stop FEN, coloured and neutral.
fn markers(fen: &str) -> (Coloured, Neutral) {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let mut coloured = BTreeSet::new();
    for (p, row) in fields[1].split('/').enumerate() {
        for (i, ch) in row.chars().enumerate() {
            let space = ch.to_digit(16).unwrap() as u64;
            if space > 0 {
                coloured.insert((p as u64 + 1, i as u64 + 2, space));
            }
        }
    }
    let neutral = fields[2]
        .split(',')
        .filter(|item| *item != "-")
        .map(|item| {
            let (c, s) = item.split_once(':').unwrap();
            (c.parse().unwrap(), s.parse().unwrap())
        })
        .collect();
    (coloured, neutral)
}

/// The columns (2..12) a player has won in a FEN.
fn won(fen: &str) -> Vec<u64> {
    const HEIGHTS: [u64; 11] = [3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3];
    let (coloured, _) = markers(fen);
    coloured.iter().filter(|(_, c, s)| HEIGHTS[*c as usize - 2] == *s).map(|(_, c, _)| *c).collect()
}

impl Page {
    /// Starts a dice game from the form: the seats as (player, strategy), the engines' time
    /// per decision and the seed, the engines' turns shown without pauses (`no pause`; a test
    /// that wants a pace sets it after); waits until the page has it.
    async fn new_dice_game(&self, seats: &[(&str, &str)], movetime: u32, seed: u64) -> u64 {
        let before = self.js("return sessionStorage.getItem('steere-game');").await;
        let mut script = format!(
            "const v = document.getElementById('variant'); v.value = 'cantstop'; v.dispatchEvent(new Event('change'));\
             const n = document.getElementById('players'); n.value = '{}'; n.dispatchEvent(new Event('change'));\
             document.getElementById('movetime').value = '{movetime}';\
             document.getElementById('pace').value = '0';\
             document.getElementById('seed').value = '{seed}';\
             document.getElementById('setup-fen').value = '';\
             document.querySelectorAll('#rule-options .rule-option').forEach(s => {{ s.value = s.options[0].value; }});\
             const seats = document.querySelectorAll('#dice-seats .seat');",
            seats.len()
        );
        for (k, (player, strategy)) in seats.iter().enumerate() {
            script.push_str(&format!(
                "seats[{k}].querySelector('.seat-player').value = '{player}';\
                 seats[{k}].querySelector('.seat-player').dispatchEvent(new Event('change'));\
                 seats[{k}].querySelector('.seat-strategy').value = '{strategy}';"
            ));
        }
        self.js(&script).await;
        // The form shows the seats chosen, an engine's with its strategy.
        let shown = self
            .js("return [...document.querySelectorAll('#dice-seats .seat')].map(s => !s.hidden && s.offsetParent !== null);")
            .await;
        let expected: Vec<bool> = (0..4).map(|k| k < seats.len()).collect();
        assert_eq!(shown, json!(expected), "the seats of the form");
        self.click("#start").await;
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let now = self.js("return sessionStorage.getItem('steere-game');").await;
            if now != before {
                return self.game_id().await;
            }
            let error = self.js("return document.getElementById('error').textContent;").await;
            assert!(error.as_str().is_none_or(str::is_empty), "{error}");
            assert!(Instant::now() < deadline, "no new game");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Checks that the board drawn is the server's position: 83 spaces, every coloured and
    /// neutral marker where the FEN has it, the won columns marked with their winner.
    async fn check_cantstop(&self, game: &Value) {
        let fen = game["position"]["fen"].as_str().unwrap();
        assert_eq!(self.js("return document.querySelectorAll('rect.cs-space').length;").await, json!(83));
        let (coloured, neutral) = markers(fen);
        let drawn = self
            .js("return [...document.querySelectorAll('circle.cs-marker')].map(c => [c.dataset.player, c.dataset.column, c.dataset.space].map(Number));")
            .await;
        let drawn: Coloured = drawn
            .as_array()
            .unwrap()
            .iter()
            .map(|t| (t[0].as_u64().unwrap(), t[1].as_u64().unwrap(), t[2].as_u64().unwrap()))
            .collect();
        assert_eq!(drawn, coloured, "the coloured markers drawn for {fen}");
        let cones = self
            .js("return [...document.querySelectorAll('polygon.cs-neutral')].map(c => [c.dataset.column, c.dataset.space].map(Number));")
            .await;
        let cones: Neutral = cones
            .as_array()
            .unwrap()
            .iter()
            .map(|t| (t[0].as_u64().unwrap(), t[1].as_u64().unwrap()))
            .collect();
        assert_eq!(cones, neutral, "the neutral markers drawn for {fen}");
        let marked = self
            .js("return [...document.querySelectorAll('g.cs-column[data-won]')].map(g => Number(g.dataset.column)).sort((a, b) => a - b);")
            .await;
        let mut columns = won(fen);
        columns.sort();
        assert_eq!(marked, json!(columns), "the won columns drawn for {fen}");
    }

    /// The buttons below the board, by their events.
    async fn dice_buttons(&self) -> Vec<String> {
        let events = self
            .js("const box = document.getElementById('dice-actions'); return box.hidden ? [] : [...box.querySelectorAll('button')].map(b => b.dataset.event);")
            .await;
        events.as_array().unwrap().iter().map(|e| e.as_str().unwrap().to_string()).collect()
    }

    /// The id of the game the page shows once it is another than `before`.
    async fn next_game(&self, before: u64) -> u64 {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let now = self.game_id().await;
            if now != before {
                return now;
            }
            assert!(Instant::now() < deadline, "no new game");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub async fn text_of(&self, id: &str) -> String {
        self.client.find(Locator::Id(id)).await.unwrap().text().await.unwrap()
    }
}

/// What happened in the person's game that the test wants to have seen (and the screenshot
/// taken of it, named with `label`).
#[derive(Default)]
struct Seen {
    label: &'static str,
    highlight: bool,
    bust: bool,
    won_column: bool,
    turns: usize,
}

/// Plays the person's turns (player 1) of game `id` by clicking, until the game ends or
/// `turns` turns have been played; the person rolls again until he has chosen `push` times in
/// the turn. Returns the final state.
async fn play_turns(page: &mut Page, id: u64, turns: usize, push: usize, seen: &mut Seen) -> Value {
    for _ in 0..4000 {
        let game = page.settled(id).await;
        page.check_cantstop(&game).await;
        let position = &game["position"];
        // Enough turns: stop once the person has advanced, his cones on the board.
        let advanced = position["decisions"][0] == "roll";
        if position["winner"].is_u64() || (seen.turns >= turns && advanced && position["to_move"] == 1) {
            return game;
        }
        if position["to_move"] != 1 {
            // An engine's turn: it plays at its pace.
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        }
        let events = game["events"].as_array().unwrap();
        let buttons = page.dice_buttons().await;
        let before = events.len();
        if position["next"] == "dice" {
            assert_eq!(buttons, ["roll"], "a turn starts with a roll: {game}");
            seen.turns += 1;
            page.click("#dice-actions button[data-event='roll']").await;
        } else {
            let decisions: Vec<String> = position["decisions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.as_str().unwrap().to_string())
                .collect();
            assert_eq!(buttons, decisions, "one button per legal decision");
            if decisions[0] == "roll" {
                // Roll again until the person has chosen `push` times this turn.
                let chosen = events.iter().rev().take_while(|e| e["player"] == 1).filter(|e| {
                    let text = e["text"].as_str().unwrap();
                    text.starts_with(|c: char| c.is_ascii_digit())
                });
                let decision = if chosen.count() >= push { "stop" } else { "roll" };
                page.click(&format!("#dice-actions button[data-event='{decision}']")).await;
            } else {
                // A choice: prefer one of two columns; focusing it highlights them.
                let choice = decisions.iter().find(|d| d.contains('.')).unwrap_or(&decisions[0]).clone();
                let columns: Vec<u64> = choice.split('.').map(|c| c.parse().unwrap()).collect();
                page.js(&format!(
                    "document.querySelector(\"#dice-actions button[data-event='{choice}']\").focus();"
                ))
                .await;
                let lit = page
                    .js("return [...document.querySelectorAll('g.cs-column.cs-hl')].map(g => Number(g.dataset.column));")
                    .await;
                let mut distinct = columns.clone();
                distinct.dedup();
                assert_eq!(lit, json!(distinct), "{choice} highlights its columns");
                let ghosts = page.js("return document.querySelectorAll('polygon.cs-ghost').length;").await;
                assert_eq!(ghosts, json!(distinct.len()), "{choice}: where each cone would go");
                if !seen.highlight && columns.len() == 2 {
                    seen.highlight = true;
                    page.shot(&format!("{}choice-highlighted", seen.label)).await;
                }
                page.click(&format!("#dice-actions button[data-event='{choice}']")).await;
            }
        }
        // The click sends the event asynchronously: wait for the server to have it.
        let deadline = Instant::now() + Duration::from_secs(10);
        let after = loop {
            let now = server_game(page.gui, id);
            if now["events"].as_array().unwrap().len() > before {
                break now;
            }
            assert!(Instant::now() < deadline, "the click was never sent: {game}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        // The person's own bust: announced below the board, the dice drawn red.
        let bust = after["events"].as_array().unwrap()[before..]
            .iter()
            .find(|e| e["bust"] == true && e["player"] == 1)
            .cloned();
        if let Some(bust) = bust.filter(|_| !seen.bust) {
            page.settled(id).await;
            let dice: Vec<String> = bust["text"].as_str().unwrap()[1..].chars().map(String::from).collect();
            let expected = format!("Player 1 busts with {}", dice.join("-"));
            let deadline = Instant::now() + Duration::from_secs(10);
            loop {
                // The engines may play on meanwhile: the bust stays among the last round's
                // turn ends until the person's next turn is over.
                let note = page.text_of("turn-end").await;
                if note.lines().any(|line| line == expected) {
                    let red = page.js("return [...document.querySelectorAll('#turn-end .bust')].map(d => d.textContent);").await;
                    assert!(red.as_array().unwrap().iter().any(|t| t == expected.as_str()), "{red}");
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "the bust is not announced: {note:?}, expected {expected:?}"
                );
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            seen.bust = true;
            page.shot(&format!("{}bust", seen.label)).await;
        }
        if !seen.won_column && !won(after["position"]["fen"].as_str().unwrap()).is_empty() {
            let shown = page.settled(id).await;
            page.check_cantstop(&shown).await;
            seen.won_column = true;
            page.shot(&format!("{}column-won", seen.label)).await;
        }
    }
    panic!("the game did not end");
}

#[test]
fn a_person_plays_cantstop_in_the_browser() {
    run_alone(play());
}

async fn play() {
    let (_driver, driver_port) = start_chromedriver();
    let (_gui, gui_port) = start_gui();
    let mut page = open_page(driver_port, gui_port, "cantstop-").await;

    // Two players: the person, and steere's greedy player at 30 ms a decision; seed 7.
    let id = page.new_dice_game(&[("human", "search"), ("steere", "greedy")], 30, 7).await;
    let start = page.settled(id).await;
    assert_eq!(start["position"]["fen"], "p2 00000000000/00000000000 - 1 r");
    assert_eq!(start["seed"], "7");
    assert_eq!(start["seats"][1], json!({"player": "steere", "strategy": "greedy"}));
    page.check_cantstop(&start).await;
    assert_eq!(page.dice_buttons().await, ["roll"]);
    assert!(page.text_of("seed-line").await.contains("Seed 7"));
    let seats = page.text_of("seats").await;
    assert!(seats.contains("Player 1: human") && seats.contains("Player 2: steere (greedy)"), "{seats}");
    // Board-game controls are hidden.
    let flip = page.js("return document.getElementById('flip').offsetParent === null;").await;
    assert_eq!(flip, json!(true), "no Flip for a dice game");
    page.shot("start").await;

    let mut seen = Seen::default();
    let game = play_turns(&mut page, id, usize::MAX, 3, &mut seen).await;
    let winner = game["position"]["winner"].as_u64().unwrap();
    assert!(seen.highlight && seen.bust && seen.won_column, "highlight, bust, won column: {game}");
    let status = page.text_of("status").await;
    assert_eq!(status, format!("Game over: player {winner} has won"));
    let marked = page.js("return document.querySelector('#seats li.winner').textContent;").await;
    assert!(marked.as_str().unwrap().contains(&format!("Player {winner}")), "{marked}");
    assert!(page.dice_buttons().await.is_empty(), "nothing to press after the end");
    let boxed = page.js("return document.getElementById('dice-actions').offsetParent === null;").await;
    assert_eq!(boxed, json!(true), "no empty box of buttons after the end");
    eprintln!(
        "cantstop: player {winner} won after {} events ({} turns of the person)",
        game["events"].as_array().unwrap().len(),
        seen.turns
    );
    page.shot("end").await;

    // The log: one line per turn; clicking an event shows the position after it.
    page.click("#moves li:first-child span[data-ply='1']").await;
    let shown = page.js("return document.getElementById('fen').value;").await;
    assert_eq!(shown, game["position"]["history"][1]);
    assert!(page.text_of("status").await.starts_with("Viewing event 1 of "));
    page.click("#to-latest").await;
    assert_eq!(page.js("return document.getElementById('fen').value;").await, game["position"]["fen"]);

    // Two people: the first always rolls again, until he busts; the dice of the bust stay on
    // the board, drawn red, until the next player rolls.
    let id = page.new_dice_game(&[("human", "search"), ("human", "search")], 30, 11).await;
    let bust = loop {
        let game = page.settled(id).await;
        page.check_cantstop(&game).await;
        let events = game["events"].as_array().unwrap();
        if let Some(bust) = events.iter().find(|e| e["bust"] == true) {
            break bust.clone();
        }
        assert!(events.len() < 200, "nobody bust: {game}");
        let buttons = page.dice_buttons().await;
        let press = if buttons.iter().any(|b| b == "roll") { "roll".to_string() } else { buttons[0].clone() };
        page.click(&format!("#dice-actions button[data-event='{press}']")).await;
        let deadline = Instant::now() + Duration::from_secs(10);
        while server_game(page.gui, id)["events"].as_array().unwrap().len() == events.len() {
            assert!(Instant::now() < deadline, "{press} was never sent");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    let game = page.settled(id).await;
    let dice: Vec<String> = bust["text"].as_str().unwrap()[1..].chars().map(String::from).collect();
    let red = page
        .js("return [...document.querySelectorAll('rect.cs-die-bust')].map(d => d.dataset.value).join('');")
        .await;
    assert_eq!(red, json!(dice.concat()), "the bust's dice, red: {game}");
    let note = page.text_of("turn-end").await;
    assert_eq!(note, format!("Player {} busts with {}", bust["player"], dice.join("-")));
    assert_eq!(page.dice_buttons().await, ["roll"], "the next player's turn");
    page.shot("bust-dice").await;

    // Four players: the person and three fixed players, a few turns in.
    let seats = [("human", "search"), ("steere", "random"), ("steere", "greedy"), ("steere", "rule28")];
    let id = page.new_dice_game(&seats, 30, 2024).await;
    let start = page.settled(id).await;
    assert_eq!(start["position"]["fen"], "p4 00000000000/00000000000/00000000000/00000000000 - 1 r");
    let mut seen = Seen { label: "four-players-", ..Seen::default() };
    let game = play_turns(&mut page, id, 6, 2, &mut seen).await;
    let cones = page.js("return document.querySelectorAll('polygon.cs-neutral').length;").await;
    assert!(cones.as_u64().unwrap() >= 1, "the person's cones are drawn mid-turn");
    let players: BTreeSet<u64> =
        game["events"].as_array().unwrap().iter().map(|e| e["player"].as_u64().unwrap()).collect();
    assert_eq!(players.len(), 4, "every seat has played: {game}");
    assert!(game["error"].is_null(), "{game}");
    page.shot("four-players-mid-way").await;

    touch_preview_skip_and_levels(&mut page).await;
    page.client.close().await.unwrap();
}

/// Taps a button as a finger does (a WebDriver touch pointer: no hover, no mouse).
async fn tap(page: &Page, css: &str) {
    use fantoccini::actions::{InputSource, PointerAction, TouchActions};
    let element = page.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("{css}: {e}"));
    let finger = TouchActions::new("finger".to_string())
        .then(PointerAction::MoveToElement { element, duration: None, x: 0.0, y: 0.0 })
        .then(PointerAction::Down { button: 0 })
        .then(PointerAction::Up { button: 0 });
    page.client.perform_actions(finger).await.unwrap();
    page.client.release_actions().await.unwrap();
}

/// On a phone: the first tap on a choice previews it (its columns lit, nothing played), the
/// second plays it. Then an engine's turn at a pace of 1 s a step, skipped to its end with the
/// page's button; and an engine seat's level, chosen in the form, in the seats list.
async fn touch_preview_skip_and_levels(page: &mut Page) {
    page.client.set_window_size(390, 844).await.unwrap();
    let id = page.new_dice_game(&[("human", "search"), ("steere", "greedy")], 30, 7).await;
    page.click("#dice-actions button[data-event='roll']").await;
    let game = page.settled_after(id, |g| g["position"]["next"] != "dice").await;
    let decisions: Vec<String> = game["position"]["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap().to_string())
        .collect();
    let choice = decisions.iter().find(|d| d.contains('.')).unwrap_or(&decisions[0]).clone();
    let button = format!("#dice-actions button[data-event='{choice}']");
    tap(page, &button).await;
    let mut columns: Vec<u64> = choice.split('.').map(|c| c.parse().unwrap()).collect();
    columns.dedup();
    let lit = page
        .js("return [...document.querySelectorAll('g.cs-column.cs-hl')].map(g => Number(g.dataset.column));")
        .await;
    assert_eq!(lit, json!(columns), "the first tap on {choice} shows its columns");
    let armed = page
        .js(&format!("return document.querySelector(\"{button}\").classList.contains('cs-armed');"))
        .await;
    assert_eq!(armed, json!(true), "the tapped choice is marked");
    assert!(page.text_of("dice-hint").await.contains("tap again"), "the page says how to play it");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(server_game(page.gui, id)["events"].as_array().unwrap().len(), 1, "a first tap plays nothing");
    page.shot("phone-choice-previewed").await;
    tap(page, &button).await;
    let played = page.settled_after(id, |g| g["events"].as_array().unwrap().len() == 2).await;
    assert_eq!(played["events"][1]["text"], json!(choice), "the second tap plays it");
    page.client.set_window_size(1366, 768).await.unwrap();

    // An engine opens at 1 s a step: the page offers to skip its turn, and the skip plays the
    // rest of it at once, until the person's roll.
    let before = page.new_dice_game(&[("steere", "rule28"), ("human", "search")], 30, 7).await;
    // The pace is the form's: the same game again at 1 s a step.
    page.js("document.getElementById('pace').value = '1000';").await;
    page.click("#start").await;
    let id = page.next_game(before).await;
    assert_eq!(server_game(page.gui, id)["pace"], json!(1000));
    let visible = "return document.getElementById('skip-turn').offsetParent !== null;";
    assert_eq!(page.js(visible).await, json!(true), "an engine's turn can be skipped");
    page.shot("engine-turn-skip-offered").await;
    page.click("#skip-turn").await;
    let started = Instant::now();
    let game =
        page.settled_after(id, |g| g["position"]["to_move"] == 2 || g["position"]["winner"].is_u64()).await;
    assert!(started.elapsed() < Duration::from_secs(20), "the skip was slow: {game}");
    assert_eq!(page.js(visible).await, json!(false), "no skip on the person's turn");
    assert!(page.text_of("status").await.starts_with("Player 2 (human)"), "{}", page.text_of("status").await);
    page.shot("engine-turn-skipped").await;

    // A level for an engine seat that searches: chosen in the form, sent, and shown.
    let script = "const v = document.getElementById('variant'); v.value = 'cantstop'; v.dispatchEvent(new Event('change'));\
         const n = document.getElementById('players'); n.value = '2'; n.dispatchEvent(new Event('change'));\
         document.getElementById('pace').value = '0';\
         const seats = document.querySelectorAll('#dice-seats .seat');\
         seats[1].querySelector('.seat-player').value = 'steere'; seats[1].querySelector('.seat-player').dispatchEvent(new Event('change'));\
         seats[1].querySelector('.seat-strategy').value = 'search'; seats[1].querySelector('.seat-strategy').dispatchEvent(new Event('change'));\
         return seats[1].querySelector('.seat-level').offsetParent !== null;";
    assert_eq!(page.js(script).await, json!(true), "a searching engine seat has a level");
    page.js("document.querySelectorAll('#dice-seats .seat')[1].querySelector('.seat-level').value = '3';")
        .await;
    page.click("#start").await;
    let game = server_game(page.gui, page.next_game(id).await);
    assert_eq!(game["seats"][1]["level"], json!(3), "{game}");
    let seats = page.text_of("seats").await;
    assert!(seats.contains("Player 2: steere (level 3)"), "{seats}");
    page.shot("engine-level-in-seats").await;

    // The rulebook's options: a select each in the form (none for a board game), sent with
    // the game, shown beside the seed; refused for seats the contract does not offer them to.
    let names = "return [...document.querySelectorAll('#rule-options .rule-option')].filter(s => s.offsetParent !== null).map(s => s.dataset.option);";
    assert_eq!(page.js(names).await, json!(["ColumnsToWin", "CantStopVariant"]));
    page.js("document.querySelector('[data-option=ColumnsToWin]').value = '4'; document.querySelector('[data-option=CantStopVariant]').value = 'skip';")
        .await;
    page.click("#start").await;
    let before = page.next_game(game["id"].as_u64().unwrap()).await;
    let game = server_game(page.gui, before);
    assert_eq!(game["options"], json!({"ColumnsToWin": "4", "CantStopVariant": "skip"}), "{game}");
    let line = page.text_of("seed-line").await;
    assert!(line.contains("rules: ColumnsToWin 4, CantStopVariant skip"), "{line}");
    let seats = page.text_of("seats").await;
    assert!(seats.contains(" of 4 won") && !seats.contains(" of 3 won"), "{seats}");
    page.shot("rule-options-chosen").await;
    page.js(
        "const n = document.getElementById('players'); n.value = '4'; n.dispatchEvent(new Event('change'));",
    )
    .await;
    page.click("#start").await;
    page.until("!document.getElementById('error').hidden", "the refusal").await;
    let error = page.text_of("error").await;
    assert!(error.contains("4 columns to win is not offered for 4 players"), "{error}");
    page.shot("rule-options-refused").await;
    let impasse = "const v = document.getElementById('variant'); v.value = 'impasse'; v.dispatchEvent(new Event('change'));";
    page.js(impasse).await;
    assert_eq!(page.js(names).await, json!([]), "Impasse has no rule options");
}
