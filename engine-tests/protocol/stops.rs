//! Which job a `stop` ends (docs/protocol.md, "Limits" and `stop`): a `stop` is meant for the
//! last `go`, `perft` or `bench` before it, and acts in the order of the input, so that the
//! same input always gives the same answers however the engine's threads are scheduled.

use super::pipe::Engine;
use super::shared;
use std::time::Duration;

/// Starts an engine playing `variant`.
fn engine_playing(variant: &str) -> Engine {
    let mut engine = Engine::start(&[]);
    engine.send("uci");
    engine.until("uciok", |l| l == "uciok");
    engine.send(&format!("setoption name UCI_Variant value {variant}"));
    engine.sync_quiet();
    engine
}

/// A Can't Stop position where the player to move decides (a roll has come).
const DICE_DECISION: &str = "position startpos moves r1546";

/// R5: a Can't Stop `perft` is stopped by `stop` (and `isready` then answered), by `quit` and
/// by the end of input, as a board game's is.
#[test]
fn a_dice_perft_stops_on_stop_quit_and_end_of_input() {
    let _guard = shared();
    let mut engine = engine_playing("cantstop");
    engine.send("perft 12");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("stop");
    assert_eq!(engine.sync(), ["info string perft stopped"]);
    engine.sync_quiet();
    engine.finish();
    for ending in ["quit", "end of input"] {
        let mut engine = engine_playing("cantstop");
        engine.send("perft 12");
        std::thread::sleep(Duration::from_millis(200));
        match ending {
            "quit" => engine.send("quit"),
            _ => engine.close_input(),
        }
        // Generous against a loaded machine: before, the perft ran on for minutes.
        let status = engine.wait_exit(Duration::from_secs(5));
        engine.check_exit(status);
    }
}

/// A `bench` too deep to finish is stopped by `stop` in every family of game, the same way:
/// no summary line, `info string bench stopped`, and the engine answers on.
#[test]
fn a_bench_stops_on_stop_in_every_game() {
    let _guard = shared();
    for (variant, depth) in [("cantstop", 12), ("impasse", 60)] {
        let mut engine = engine_playing(variant);
        engine.send(&format!("bench {depth}"));
        std::thread::sleep(Duration::from_millis(200));
        engine.send("stop");
        let lines = engine.sync();
        assert_eq!(
            lines.last().map(String::as_str),
            Some("info string bench stopped"),
            "{variant}: {lines:?}"
        );
        assert!(
            !lines.iter().any(|l| l.starts_with("nodes ")),
            "{variant}: no summary once stopped: {lines:?}"
        );
        engine.send("bench 1");
        let lines = engine.until("bench summary", |l| l.starts_with("nodes "));
        assert!(lines.iter().any(|l| l.starts_with("position 1/")), "{variant}: {lines:?}");
        engine.finish();
    }
}

/// R6: in one write, `perft 12`, `stop`, `go depth 1`, `stop`, `isready`: each `stop` reaches
/// the job it is meant for: the perft is stopped, the `go` answered once, `readyok` follows.
#[test]
fn pipelined_stops_reach_the_jobs_they_are_meant_for() {
    let _guard = shared();
    for (variant, position) in [("cantstop", DICE_DECISION), ("impasse", "position startpos")] {
        let mut engine = engine_playing(variant);
        engine.send(position);
        for run in 0..5 {
            engine.send_bytes(b"perft 12\nstop\ngo depth 1\nstop\nisready\n");
            let lines = engine.until("readyok", |l| l == "readyok");
            let answers: Vec<&String> =
                lines.iter().filter(|l| l.starts_with("bestmove") || l.starts_with("info string")).collect();
            assert_eq!(answers.len(), 2, "{variant}, run {run}: {lines:?}");
            assert_eq!(answers[0], "info string perft stopped", "{variant}, run {run}: {lines:?}");
            assert!(answers[1].starts_with("bestmove ") && answers[1] != "bestmove (none)", "{lines:?}");
            engine.none_within(Duration::from_millis(100), "output after readyok", |_| true);
        }
        engine.finish();
    }
}

/// R16: `go infinite`, 3,000 `position` lines, `setoption name Hash`, `go depth 1` and `stop`
/// in one write. The `stop` is meant for `go depth 1`, which is refused (a search runs), as is
/// the `setoption`; the `stop` then ends the running search in the order of the input. So:
/// two refusals, exactly one `bestmove`, then `readyok`, on every run.
#[test]
fn a_stop_behind_refused_commands_ends_the_search_in_input_order() {
    let _guard = shared();
    let mut script = String::from("go infinite\n");
    script.push_str(&"position startpos moves d2e3\n".repeat(3000));
    script.push_str("setoption name Hash value 32\ngo depth 1\nstop\nisready\n");
    for run in 0..6 {
        let mut engine = engine_playing("impasse");
        engine.send_bytes(script.as_bytes());
        let lines = engine.until("readyok", |l| l == "readyok");
        let events: Vec<&str> = lines
            .iter()
            .filter(|l| !l.starts_with("info depth"))
            .map(|l| if l.starts_with("bestmove ") { "bestmove" } else { l.as_str() })
            .collect();
        assert_eq!(
            events,
            [
                "info string error: setoption ignored: a search is running (send stop first)",
                "info string error: go ignored: a search is running (send stop first)",
                "bestmove",
                "readyok"
            ],
            "run {run}"
        );
        engine.none_within(Duration::from_millis(200), "a second bestmove", |l| l.starts_with("bestmove"));
        assert_eq!(engine.query("fen"), super::position_after("d2e3").to_fen(), "run {run}");
        engine.finish();
    }
}
