//! The analysis of a position, where the variant can be analysed (board games: see
//! [`Capabilities::analysable`]): an engine thinking with `go infinite` on a thread of its
//! own, its `info` lines read into the game's [`Analysis`] as they come, until the page stops
//! it or asks for another position.

use super::*;
use crate::client::Fault;
use std::sync::atomic::Ordering;

impl Games {
    /// Has `engine` analyse the position after `ply` moves showing its `multipv` best lines
    /// (1 when `None`; at most [`MAX_LINES`]), or stops the analysis (`engine` `None`).
    pub fn analyse(
        self: &Arc<Games>,
        id: u64,
        engine: Option<&str>,
        ply: usize,
        multipv: Option<usize>,
    ) -> Result<Value, String> {
        let game = self.game(id)?;
        let mut g = lock(&game);
        if !g.caps.analysable {
            return Err(format!("{} cannot be analysed: analysis is for board games", g.variant));
        }
        g.analysis_stop.store(true, Ordering::SeqCst);
        let Some(name) = engine else {
            // Stopped: the page shows no analysis, at once (a new version, for its stream).
            g.analysis = None;
            g.changed();
            return Ok(g.snapshot());
        };
        let (_, spec) =
            self.engines.iter().find(|(n, _)| n == name).ok_or_else(|| format!("no engine '{name}'"))?;
        let mut spec = spec.clone();
        if g.variant != crate::variants::DEFAULT_VARIANT {
            spec.set_variant(g.variant);
        }
        let lines = multipv.unwrap_or(1).clamp(1, MAX_LINES);
        // Sent every time: the kept process may have analysed with another number of lines.
        spec.options.retain(|(n, _)| !n.eq_ignore_ascii_case("MultiPV"));
        spec.options.push(("MultiPV".to_string(), lines.to_string()));
        let tables = self.tables.clone();
        if let Some(t) = tables.as_ref().filter(|t| t.engines.iter().any(|e| e == name)) {
            spec.options.retain(|(n, _)| !n.eq_ignore_ascii_case("TablebasePath"));
            spec.options.push(("TablebasePath".to_string(), t.dir.display().to_string()));
        }
        let fen = g.view().history.get(ply).cloned().ok_or_else(|| format!("the game has no ply {ply}"))?;
        let stop = Arc::new(AtomicBool::new(false));
        g.analysis_stop = stop.clone();
        g.analysis = Some(Analysis {
            engine: name.to_string(),
            ply,
            fen: fen.clone(),
            multipv: lines,
            running: true,
            ..Analysis::default()
        });
        let engine = g.analyser.take().filter(Engine::is_usable);
        let variant = g.variant;
        let game_ref = game.clone();
        let dir = tables.map(|t| t.dir);
        std::thread::spawn(move || {
            verdict(&game_ref, dir.as_deref(), variant, &fen, &stop);
            analyse(game_ref, engine, spec, variant, fen, stop)
        });
        Ok(g.snapshot())
    }
}

/// Puts the tables' verdict on `fen` into the game's analysis (while it is the one asked for):
/// read on the analysis's thread, since opening a table checks its whole file.
fn verdict(game: &Mutex<Game>, dir: Option<&std::path::Path>, variant: &str, fen: &str, stop: &AtomicBool) {
    let Some(dir) = dir else { return };
    let Ok(family) = crate::variants::table_family(variant) else { return };
    // A position the tables do not hold (or a faulty file, said at start) shows no verdict.
    let Ok(lines) = (family.probe)(dir, fen) else { return };
    let mut g = lock(game);
    if !stop.load(Ordering::SeqCst)
        && let Some(analysis) = g.analysis.as_mut()
    {
        analysis.tablebase = lines;
        g.changed();
    }
}

/// Runs one analysis on its own thread, updating the game's [`Analysis`] while it is the one
/// asked for (`stop` not raised).
fn analyse(
    game: Arc<Mutex<Game>>,
    engine: Option<Engine>,
    spec: EngineSpec,
    variant: &'static str,
    fen: String,
    stop: Arc<AtomicBool>,
) {
    let name = spec.name.clone().unwrap_or_default();
    let started = match engine {
        Some(engine) => Ok(engine),
        None => Engine::start(&spec).map_err(|e| format!("{name} could not start: {e}")),
    };
    let mut engine = match started {
        Ok(engine) => engine,
        Err(e) => return finish_analysis(&game, &stop, None, Some(e)),
    };
    let result =
        engine.analyse(&format!("position fen {fen}"), &|| stop.load(Ordering::SeqCst), &mut |line| {
            let mut g = lock(&game);
            if stop.load(Ordering::SeqCst) {
                return;
            }
            if let Some(analysis) = g.analysis.as_mut() {
                read_info(line, analysis, variant);
                g.changed();
            }
        });
    let error = result.err().map(|fault| match fault {
        Fault::Crash(detail) => format!("{name} crashed: {detail}"),
        Fault::NoAnswer { .. } => format!("{name} did not stop"),
        Fault::Protocol(detail) => format!("{name} broke the protocol: {detail}"),
    });
    let keep = engine.is_usable().then_some(engine);
    finish_analysis(&game, &stop, keep, error);
}

/// Ends an analysis: keeps the engine for the next one and marks the analysis stopped (if it
/// is still the one shown).
fn finish_analysis(game: &Mutex<Game>, stop: &AtomicBool, engine: Option<Engine>, error: Option<String>) {
    let mut g = lock(game);
    if g.analyser.is_none() {
        g.analyser = engine;
    }
    if !stop.load(Ordering::SeqCst)
        && let Some(analysis) = g.analysis.as_mut()
    {
        analysis.running = false;
        analysis.error = error;
        g.changed();
    }
}

/// Reads the depth, score, speed and principal variation of an `info` line into `analysis`:
/// into its line `multipv K` (1 without the word), and line 1 also into its own fields. The
/// variation is cut at its first move that is not legal; a line of a new depth drops the
/// deeper-numbered lines of the depth before, which the engine has not sent again yet.
fn read_info(line: &str, analysis: &mut Analysis, variant: &str) {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.contains(&"string") {
        return;
    }
    let after = |key: &str| words.iter().position(|&w| w == key).and_then(|i| words.get(i + 1));
    let number = |key: &str| after(key).and_then(|w| w.parse::<u64>().ok());
    if let Some(nps) = number("nps") {
        analysis.nps = Some(nps);
    }
    let Some(pv_at) = words.iter().position(|&w| w == "pv") else { return };
    let score = words
        .iter()
        .position(|&w| w == "score")
        .and_then(|i| Some(format!("{} {}", words.get(i + 1)?, words.get(i + 2)?)));
    let depth = number("depth").and_then(|d| u32::try_from(d).ok());
    let k = number("multipv").map_or(1, |k| k as usize).clamp(1, MAX_LINES);
    let moves: Vec<String> = words[pv_at + 1..].iter().map(|w| w.to_string()).collect();
    let pv = legal_prefix(variant, &analysis.fen, moves);
    if k == 1 {
        analysis.depth = depth.or(analysis.depth);
        analysis.score = score.clone().or(analysis.score.take());
        analysis.pv = pv.clone();
        analysis.lines.retain(|l| l.depth == depth);
    }
    let entry = AnalysisLine { multipv: k, depth, score, pv };
    match analysis.lines.iter_mut().find(|l| l.multipv == k) {
        Some(line) => *line = entry,
        None => analysis.lines.push(entry),
    }
    analysis.lines.sort_by_key(|l| l.multipv);
}

/// The longest start of `moves` that is legal from `fen`. A line legal up to its K-th move is
/// legal up to every earlier one, so a binary search finds where it breaks in a few replays
/// (replaying every start in turn would cost the square of a long line's length).
fn legal_prefix(variant: &str, fen: &str, mut moves: Vec<String>) -> Vec<String> {
    // Analysis is for board games, which have no rule options.
    let legal = |n: usize| view(variant, &[], Some(fen), &moves[..n]).is_ok();
    if legal(moves.len()) {
        return moves;
    }
    let (mut good, mut bad) = (0, moves.len()); // legal(good) holds; legal(bad) does not
    while bad - good > 1 {
        let middle = (good + bad) / 2;
        if legal(middle) { good = middle } else { bad = middle }
    }
    moves.truncate(good);
    moves
}

/// The most lines an analysis shows.
pub const MAX_LINES: usize = 5;

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine's line is kept up to its first move the rules reject, wherever that is.
    #[test]
    fn a_line_is_cut_at_its_first_illegal_move() {
        let fen = crate::gui::view::start_fen("impasse", &[], 2, None).unwrap();
        let legal = view("impasse", &[], Some(&fen), &[]).unwrap().legal;
        let first = legal[0].clone();
        let after = view("impasse", &[], Some(&fen), std::slice::from_ref(&first)).unwrap().legal;
        let reply = after[0].clone();
        let line = |moves: &[&str]| moves.iter().map(|m| m.to_string()).collect::<Vec<_>>();
        for (moves, kept) in [
            (line(&[&first, &reply]), 2),
            (line(&[&first, "zz9", &reply]), 1),
            (line(&[&first, &reply, &first]), 2), // the same move twice is not a move of the other side
            (line(&["zz9", &first]), 0),
            (line(&[]), 0),
        ] {
            let mut analysis = Analysis { fen: fen.clone(), ..Analysis::default() };
            read_info(&format!("info depth 3 score cp 5 pv {}", moves.join(" ")), &mut analysis, "impasse");
            assert_eq!(analysis.pv, moves[..kept].to_vec(), "{moves:?}");
            assert_eq!(analysis.lines.len(), 1);
        }
    }
}
