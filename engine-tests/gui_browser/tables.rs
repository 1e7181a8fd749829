//! The analysis with endgame tables (`steere gui --tables DIR`), as an analyst sees it: the
//! panel's verdict on the position and on every move is the exhaustive solver's
//! (engine-tests/impasse_solver), the fastest win is listed first, and the engine, given the
//! tables, reports the exact result at once. Screenshot: `target/gui-screenshots/tables-*.png`.

use super::solver::{Exact, Solver};
use super::*;
use steere::impasse::Position;

#[test]
fn the_analysis_shows_the_tables_verdict_with_the_solvers_values() {
    run_alone(tables_verdict());
}

/// `win in N` / `loss in N` as the page writes an exact value.
fn words(value: Exact) -> String {
    value.epd().replacen(' ', " in ", 1)
}

async fn tables_verdict() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gui-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let built = Command::new(STEERE)
        .args(["tb", "build", "--max-stacks", "4", "--threads", "2", "--dir", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));

    // White to move wins; some moves win slower and some lose (the solver says which).
    let fen = "8/8/8/6b1/7w/6B1/7w/8 w";
    let analysis = Solver::new(1 << 20).analyse(&Position::from_fen(fen).unwrap()).unwrap();
    assert!(analysis.winning.len() > analysis.fastest.len(), "the position must have slower wins");

    let (_gui, gui_port) = start_gui_with(&["--tables", dir.to_str().unwrap()]);
    let (_driver, driver_port) = start_chromedriver();
    let mut page = open_page(driver_port, gui_port, "tables-").await;
    page.new_game("impasse", "human", "human", 100, fen).await;
    let id = page.game_id().await;
    page.settled(id).await;
    page.js("document.getElementById('analyser').value = 'steere'; document.getElementById('multipv').value = '1';")
        .await;
    page.click("#analyse").await;
    page.until("!document.getElementById('analysis-tables').hidden", "the tables' verdict is shown").await;
    let shown = page.js("return document.getElementById('analysis-tables').textContent;").await;
    let shown = shown.as_str().unwrap().to_string();

    let (head, moves) = shown.split_once(" | ").unwrap_or_else(|| panic!("{shown}"));
    assert_eq!(head, format!("Tablebase: {}", words(analysis.value)), "{shown}");
    let listed: Vec<&str> = moves.split(", ").collect();
    assert_eq!(listed.len(), analysis.moves.len(), "one entry per legal move: {shown}");
    for (mv, value) in &analysis.moves {
        let entry = format!("{mv} {}", words(*value));
        assert!(listed.contains(&entry.as_str()), "{entry} missing from {shown}");
    }
    let first = listed[0].split(' ').next().unwrap();
    assert!(analysis.fastest.iter().any(|m| m.to_string() == first), "{first} is not a fastest win: {shown}");

    // The engine analyses with the tables: the exact result, not an estimate.
    let Exact::Win(plies) = analysis.value else { panic!("a won position") };
    let mate = format!("mate {}", plies.div_ceil(2));
    page.until(&format!("state.game.analysis && state.game.analysis.score === '{mate}'"), "the exact score")
        .await;
    page.shot("verdict").await;
    page.click("#analyse").await;
    page.until("document.getElementById('analysis-tables').hidden", "the verdict goes with the analysis")
        .await;
    let _ = std::fs::remove_dir_all(&dir);
}
