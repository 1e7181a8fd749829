//! The engine driven against scripted `sh` engines (which `bestmove` answers which `go`, floods),
//! and the reading of `info` lines.

use super::*;

/// Starts a `sh` engine that answers the handshake and runs `on_go` and `on_stop` (with `$n`
/// the number of `go` lines so far), written to a file named after the test.
fn scripted(name: &str, on_go: &str, on_stop: &str) -> Engine {
    let path = std::env::temp_dir().join(format!("steere-engine-{}-{name}.sh", std::process::id()));
    let script = format!(
        "n=0\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo uciok ;;\n    \
         isready) echo readyok ;;\n    go*) n=$((n+1)); {on_go} ;;\n    stop) {on_stop} ;;\n    \
         quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    let words = [format!("sh {}", path.display()), "depth=1".to_string()];
    let engine = Engine::start(&EngineSpec::parse("engine1", &[], &words).unwrap()).unwrap();
    let _ = std::fs::remove_file(path);
    engine
}

const POSITION: &str = "position startpos";
const LONG: Duration = Duration::from_secs(10);

/// Time for the reader thread to read and stamp what the engine has printed (not a timing
/// bound: lines printed at once are read at once).
fn settle() {
    std::thread::sleep(Duration::from_millis(200));
}

#[test]
fn a_second_bestmove_is_a_fault_not_the_next_answer() {
    let mut engine =
        scripted("second", "echo 'info depth 3'; echo 'bestmove a1b2'; echo 'bestmove c3d4'", ":");
    let reply = engine.think(POSITION, "go depth 3", LONG).unwrap();
    assert_eq!((reply.bestmove.as_str(), reply.depth), ("a1b2", Some(3)));
    settle();
    let fault = engine.think(POSITION, "go depth 3", LONG).unwrap_err();
    assert_eq!(fault, Fault::Protocol("a second bestmove 'c3d4' after its answer 'a1b2'".into()));
    assert!(!engine.is_usable(), "out of step: restarted before its next game");
}

#[test]
fn a_new_game_passes_over_the_last_one_but_not_an_unasked_bestmove() {
    // A second bestmove at the end of a game is passed over by the next game's `isready`.
    let on_go =
        "if [ $n = 1 ]; then echo 'bestmove a1b2'; echo 'bestmove c3d4'; else echo 'bestmove e5f6'; fi";
    let mut engine = scripted("new-game", on_go, "echo 'bestmove g7h8'");
    assert_eq!(engine.think(POSITION, "go depth 1", LONG).unwrap().bestmove, "a1b2");
    settle();
    engine.new_game().unwrap();
    assert_eq!(engine.think(POSITION, "go depth 1", LONG).unwrap().bestmove, "e5f6");
    // A `stop` in between (the GUI's, say) answered with a `bestmove` that answers no `go`.
    engine.new_game().unwrap();
    engine.send("stop").unwrap();
    settle();
    let fault = engine.think(POSITION, "go depth 1", LONG).unwrap_err();
    assert_eq!(fault, Fault::Protocol("a bestmove 'g7h8' before its go".into()));
}

#[test]
fn a_bestmove_answering_a_late_stop_is_excused_once() {
    // The first `go` is answered only when stopped, twice (as an answer to the `go` that
    // crossed the `stop`, then to the `stop`), with an `info` line between that belongs to no
    // later search; every later `go` is answered at once.
    let on_go = "if [ $n -gt 1 ]; then echo 'bestmove e5f6'; fi";
    let on_stop = "echo 'bestmove a1b2'; echo 'info depth 9'; echo 'bestmove a1b2'";
    let mut engine = scripted("crossed", on_go, on_stop);
    let late = engine.think(POSITION, "go movetime 1", Duration::from_millis(1)).unwrap_err();
    assert!(matches!(late, Fault::NoAnswer { awaited: "bestmove", .. }), "{late:?}");
    assert!(engine.is_usable(), "it answered the stop");
    settle();
    let reply = engine.think(POSITION, "go depth 1", LONG).unwrap();
    assert_eq!((reply.bestmove.as_str(), reply.depth), ("e5f6", None));
    // Excused once only.
    engine.send("stop").unwrap();
    settle();
    let fault = engine.think(POSITION, "go depth 1", LONG).unwrap_err();
    assert!(matches!(fault, Fault::Protocol(_)), "{fault:?}");
}

#[test]
fn a_flood_is_a_fault_and_the_flooder_is_killed() {
    let mut engine = scripted("flood", "exec yes 'info string flood'", ":");
    let fault = engine.think(POSITION, "go infinite", LONG).unwrap_err();
    let Fault::Protocol(detail) = fault else { panic!("{fault:?}") };
    assert!(detail.starts_with("flooded its output: more than"), "{detail}");
    assert!(detail.ends_with("in 1 s while thinking"), "{detail}");
    assert!(!engine.is_usable());
    assert!(engine.child.try_wait().unwrap().is_some(), "killed and reaped");
}

#[test]
fn reads_info_lines() {
    let mut reply = Reply::default();
    read_info("info depth 7 seldepth 9 score cp -35 nodes 100 pv a1b2 depth 99", &mut reply);
    assert_eq!((reply.depth, reply.score.as_deref()), (Some(7), Some("cp -35")));
    read_info("info string depth 3", &mut reply);
    assert_eq!(reply.depth, Some(7));
    read_info("info depth 12 score mate 3", &mut reply);
    assert_eq!((reply.depth, reply.score.as_deref()), (Some(12), Some("mate 3")));
    assert_eq!(normalise("Move_Overhead"), "moveoverhead");
}
