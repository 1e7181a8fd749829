//! `steere solve`: run the engine on a file of test positions and check its answers.
//!
//! The file is EPD-style (see [`super::epd`]): a FEN and the expectations `bm`, `am`,
//! `win N` / `loss N` (exact values in the side to move's own moves), `id` and comments. Its
//! lines are Impasse unless `--variant`, a `# variant: NAME` line or a `variant NAME` operation
//! says otherwise; one file may mix games.
//! Every line is parsed first; a malformed line is reported on stderr as `FILE:LINE: message`
//! and skipped, so a long run never dies on a typo. Each position is then searched with a
//! fresh table, and one line is printed per position, in file order:
//!
//! ```text
//! id "eg-001" pass move d2f4 score win 3 depth 9 nodes 12345 time 12
//! id "tac-07" fail move e3g5 score cp 40 depth 14 nodes 2345678 time 1000 reason "bm d4c5 expected"
//! ```
//!
//! `score` is `win N` / `loss N` in the side to move's own moves (as in the file) when the
//! search proved the result, `cp X` (the game's evaluation unit) otherwise; `time` is in
//! milliseconds; positions without an `id` are named `line L`. With `--prove` a field
//! `proof NODES` (or `proof none`) follows `time`. The run ends with a summary line
//! `solved S/T malformed M nodes N time MS`, then `failed ID...` when some position failed.
//! The result is an error (non-zero exit code) when any position failed or any line was
//! malformed, so that the command can gate CI; malformed lines never stop the run.
//!
//! **Pass or fail.** A position passes when every expectation holds: the move found is in
//! `bm` (if given) and not in `am`; with `win N` / `loss N` the search's score is a proven
//! result of exactly that length (a heuristic score is "not proven"). A position with no
//! expectation passes.
//!
//! **Draws** are matched, not proven: a search cannot prove that a game with cycles never ends
//! in a win. A `draw` line passes when the search, to its limit, proves no win or loss for
//! either side and its move keeps the draw (`bm`, `am`). In proving mode without a limit, a draw
//! line is searched [`DRAW_DEPTH`] plies deep (a full-width search: no forced result of up to
//! that length exists for either side), since deepening until a proof would never stop.
//! With endgame tables (`--tables`) that hold the position, the tables prove its value: the
//! search stops, proven, as soon as it reports the tables' result, a draw (score 0) included.
//!
//! **Stopping.** Every search stops as soon as its score is proven and the iteration that
//! found it is deeper than the result's length in plies: a full-width search of that depth sees
//! every shorter result, so nothing is left to learn. Otherwise the limit given applies
//! (`--movetime`, `--depth` or `--nodes`).
//!
//! **Proving** (`--prove`, and the default when no limit is given: to solve is to prove): the
//! selective techniques that could hide a shorter win (late-move reductions and reverse
//! futility pruning) are switched off, and the search deepens until the stopping rule above
//! holds, or until the limit if one is given (a cap). The result is then exact: the alpha-beta
//! search with exact win/loss scores is full width, so at a depth beyond the result's length
//! every shorter win (or longer resistance) would have been seen. The proof size is the number
//! of nodes searched until then. A position whose value cannot be proven within the cap (or
//! [`crate::search::MAX_DEPTH`] plies, which may take very long: give a cap for positions far
//! from their end) is reported `proof none`, and it fails when it expects `win N` / `loss N`.
//! Without proving mode the engine's usual search runs; its proven scores are true, but a
//! pruned line could hide a shorter win, which the check against `win N` then reports.
//!
//! With `--prover dfpn`, proof-number search ([`crate::search::dfpn`]) decides the outcome
//! first and this alpha-beta prover then finds the exact length ([`solve_position_dfpn`]).
//!
//! **Parallel runs** (`--jobs J`): J workers of a rayon pool each own a searcher and take the
//! next position in file order; results are buffered and printed in file order, so the output
//! does not depend on J (times aside). A progress line is drawn on stderr when it is a terminal.

use super::epd::{self, EpdEntry, Expectation};
use super::epd_file::{self, Section};
use crate::cli::{Prover, SolveArgs};
use crate::game::{BoardRules, Outcome, TableValue};
use crate::quote::shorten;
use crate::search::dfpn::{Dfpn, DfpnLimits, Verdict};
use crate::search::{Limits, Score, SearchControl, SearchParams, Searcher};
use crate::variants::{self, Variant};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Stack size of the workers: the search recurses with a move list per ply.
const WORKER_STACK: usize = 16 << 20;

/// How each position is searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The limits of each search (the default: until stopped, for `--prove`).
    pub limits: Limits,
    /// Proving mode: no selective pruning, search until the result is exact.
    pub prove: bool,
}

impl Settings {
    /// The settings the arguments ask for: proving mode when asked for or when no limit is
    /// given.
    pub fn from_args(args: &SolveArgs) -> Settings {
        let limits = Limits {
            depth: args.depth,
            nodes: args.nodes,
            movetime: args.movetime.map(Duration::from_millis),
            ..Limits::default()
        };
        let unlimited = limits == Limits::default();
        Settings { limits, prove: args.prove || unlimited }
    }

    /// The settings of one line: a `draw` line in proving mode without a limit is searched
    /// [`DRAW_DEPTH`] plies deep.
    pub fn for_entry<G: BoardRules>(&self, entry: &EpdEntry<G>) -> Settings {
        let mut settings = self.clone();
        if entry.value == Some(Expectation::Draw) && settings.limits == Limits::default() {
            settings.limits.depth = Some(DRAW_DEPTH);
        }
        settings
    }
}

/// The switches of proving mode: every selective technique that could hide a shorter win off.
pub const PROVE_PARAMS: SearchParams =
    SearchParams { lmr: false, rfp: false, aspiration: true, quiescence: false, extensions: true };

/// The depth of a `draw` line's search in proving mode without a limit (see the module docs).
pub const DRAW_DEPTH: u32 = 14;

/// What the search found for one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// The move found (`None` for a finished game).
    pub best_move: Option<M>,
    /// Its score.
    pub score: Score,
    /// The last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// True when the score is proven and the search went deeper than its length, so that the
    /// length is exact (always true for a finished game).
    pub exact: bool,
}

/// True when `score`, the result of a completed iteration of `depth` plies, is proven and no
/// shorter result can hide below that depth.
pub fn is_exact(score: Score, depth: u32) -> bool {
    match score {
        Score::Win(plies) | Score::Loss(plies) => depth > plies,
        Score::Heuristic(_) => false,
    }
}

/// True when `score` is the endgame tables' `value`: the same result at the same distance.
pub fn is_table_value(value: TableValue, score: Score) -> bool {
    match (value.outcome, score) {
        (Outcome::Draw, Score::Heuristic(s)) => s == 0,
        (Outcome::Win, Score::Win(plies)) | (Outcome::Loss, Score::Loss(plies)) => plies == value.plies,
        _ => false,
    }
}

/// Searches `pos` with a fresh table and stops as soon as the result is exact (see the module
/// docs).
pub fn solve_position<G: BoardRules>(
    searcher: &mut Searcher<G>,
    pos: &G,
    settings: &Settings,
) -> Solution<G::Move> {
    searcher.new_game();
    searcher.set_params(if settings.prove { PROVE_PARAMS } else { SearchParams::default() });
    let control = SearchControl::new();
    let start = Instant::now();
    let mut exact = pos.outcome().is_some();
    // A position the endgame tables hold is proven by them: its search is exact as soon as it
    // reports the tables' value (a draw too, which a search alone never proves).
    let table = pos.probe_tables();
    let result = searcher.search(pos, &settings.limits, &control, &mut |info| {
        if is_exact(info.score, info.depth) || table.is_some_and(|v| is_table_value(v, info.score)) {
            exact = true;
            // Read by the search before it starts the next iteration.
            control.stop.store(true, Relaxed);
        }
    });
    Solution {
        best_move: result.best_move,
        score: result.score,
        depth: result.depth,
        nodes: result.nodes,
        time: start.elapsed(),
        exact,
    }
}

/// `--prover dfpn`: df-pn decides the outcome within the limits, then the alpha-beta prover of
/// [`solve_position`] finds the exact length with what is left of them. The result claimed is
/// alpha-beta's, and it counts as exact only when both agree, so df-pn alone never makes a
/// claim. The nodes (and the proof size) are the two searches' together.
pub fn solve_position_dfpn<G: BoardRules>(
    searcher: &mut Searcher<G>,
    dfpn: &mut Dfpn<G>,
    pos: &G,
    settings: &Settings,
) -> Solution<G::Move> {
    let start = Instant::now();
    dfpn.reset_nodes();
    let deadline = settings.limits.movetime.map(|t| start + t);
    let verdict = dfpn.solve(pos, DfpnLimits { nodes: settings.limits.nodes, deadline });
    let mut rest = settings.clone();
    if let Some(t) = rest.limits.movetime.as_mut() {
        *t = t.saturating_sub(start.elapsed());
    }
    if let Some(n) = rest.limits.nodes.as_mut() {
        *n = n.saturating_sub(dfpn.nodes).max(1);
    }
    let mut solution = solve_position(searcher, pos, &rest);
    let agrees = match (verdict, solution.score) {
        (Verdict::Win, Score::Win(_)) | (Verdict::Loss, Score::Loss(_)) => true,
        (Verdict::Win | Verdict::Loss, _) => false,
        // Without a proof by df-pn the result is alpha-beta's alone (draw lines, caps).
        (Verdict::NoWin | Verdict::Unknown, _) => true,
    };
    solution.exact &= agrees;
    solution.nodes += dfpn.nodes;
    solution.time = start.elapsed();
    solution
}

/// The expectations of `entry` that `solution` misses, in words (empty: the position passes).
pub fn failures<G: BoardRules>(
    entry: &EpdEntry<G>,
    solution: &Solution<G::Move>,
    prove: bool,
) -> Vec<String> {
    let mut why = Vec::new();
    let moves = |list: &[G::Move]| list.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
    if !entry.best_moves.is_empty() && !solution.best_move.is_some_and(|m| entry.best_moves.contains(&m)) {
        why.push(format!("bm {} expected", moves(&entry.best_moves)));
    }
    if let Some(mv) = solution.best_move.filter(|m| entry.avoid_moves.contains(m)) {
        why.push(format!("{mv} is to be avoided (am)"));
    }
    if entry.value == Some(Expectation::Draw) {
        if let Some(found) = Expectation::from_score(solution.score) {
            why.push(format!("draw expected, the search proved {found}"));
        }
    } else if let Some(expected) = entry.value {
        match Expectation::from_score(solution.score) {
            None => why.push(format!("{expected} expected, not proven")),
            Some(found) if found != expected => why.push(format!("{expected} expected")),
            Some(_) if prove && !solution.exact => {
                why.push(format!("{expected} not proven exact (search stopped at depth {})", solution.depth))
            }
            Some(_) => {}
        }
    }
    why
}

/// The score as printed: `win N` / `loss N` in own moves when proven, `cp X` otherwise.
pub fn score_text(score: Score) -> String {
    match Expectation::from_score(score) {
        Some(value) => value.to_string(),
        None => score.to_string(),
    }
}

/// The name of a position in the output: its `id`, or `line L`.
fn name<G: BoardRules>(entry: &EpdEntry<G>, line: usize) -> String {
    entry.id.clone().unwrap_or_else(|| format!("line {line}"))
}

/// The result line of one position (see the module docs for the format).
pub fn result_line<G: BoardRules>(
    entry: &EpdEntry<G>,
    line: usize,
    solution: &Solution<G::Move>,
    failed: &[String],
    prove: bool,
) -> String {
    let mv = solution.best_move.map_or("(none)".to_string(), |m| m.to_string());
    let mut text = format!(
        "id \"{}\" {} move {mv} score {} depth {} nodes {} time {}",
        name(entry, line),
        if failed.is_empty() { "pass" } else { "fail" },
        score_text(solution.score),
        solution.depth,
        solution.nodes,
        solution.time.as_millis()
    );
    if prove {
        match solution.exact {
            true => text.push_str(&format!(" proof {}", solution.nodes)),
            false => text.push_str(" proof none"),
        }
    }
    if !failed.is_empty() {
        text.push_str(&format!(" reason \"{}\"", failed.join("; ")));
    }
    text
}

/// Runs `steere solve`: prints a line per position and the summary on stdout, malformed lines
/// and progress on stderr. An error when the file cannot be read, when a line is malformed or
/// when a position fails.
pub fn run(args: &SolveArgs) -> Result<(), String> {
    let path = args.file.display().to_string();
    let text = epd_file::read(&args.file).map_err(|e| format!("{path}: {e}"))?;
    let default = variants::find(args.variant.as_deref().unwrap_or(variants::DEFAULT_VARIANT))
        .map_err(|e| format!("--variant: {e}"))?;
    if let Some(dir) = &args.tables {
        super::tablebase::install_for_command(dir);
    }
    let (sections, unknown) = epd_file::sections(&text, default);
    let lines = sections.iter().map(|s| s.lines.len()).sum();
    let mut totals = Totals {
        path,
        settings: Settings::from_args(args),
        passed: 0,
        total: 0,
        malformed: 0,
        nodes: 0,
        failed_names: Vec::new(),
        progress: Progress::new(lines),
    };
    for (line, message) in unknown {
        totals.malformed_line(line, &message);
    }
    let start = Instant::now();
    for section in &sections {
        crate::with_variant!(board section.variant.name, |variant| solve_section(variant, section, args, &mut totals))??;
    }
    totals.progress.clear();
    let Totals { passed, total, malformed, nodes, failed_names, .. } = totals;
    crate::outln!(
        "solved {passed}/{total} malformed {malformed} nodes {nodes} time {}",
        start.elapsed().as_millis()
    );
    if !failed_names.is_empty() {
        crate::outln!("failed {}", failed_names.join(" "));
    }
    let _ = std::io::stdout().flush();
    match (total - passed, malformed) {
        (0, 0) => Ok(()),
        (failed, malformed) => Err(format!(
            "{failed} of {total} position{} failed, {malformed} malformed line{}",
            plural(total),
            plural(malformed)
        )),
    }
}

/// The running account of a `steere solve` run, over every section of the file.
struct Totals {
    path: String,
    settings: Settings,
    passed: usize,
    total: usize,
    malformed: usize,
    nodes: u64,
    failed_names: Vec<String>,
    progress: Progress,
}

impl Totals {
    /// Reports a malformed line on stderr as `FILE:LINE: message` (the message cut short if
    /// some rule quoted much of the line: one short line per malformed line, whatever it held).
    fn malformed_line(&mut self, line: usize, message: &str) {
        self.progress.clear();
        eprintln!("{}:{line}: {}", self.path, shorten(message, MAX_MESSAGE_CHARS));
        self.malformed += 1;
        self.progress.total = self.progress.total.saturating_sub(1);
    }

    /// Prints and counts the result of one position.
    fn report<G: BoardRules>(&mut self, line: usize, entry: &EpdEntry<G>, solution: &Solution<G::Move>) {
        let failed = failures(entry, solution, self.settings.prove);
        self.progress.clear();
        crate::outln!("{}", result_line(entry, line, solution, &failed, self.settings.prove));
        self.total += 1;
        self.nodes += solution.nodes;
        if failed.is_empty() {
            self.passed += 1;
        } else {
            self.failed_names.push(format!("\"{}\"", name(entry, line)));
        }
        self.progress.advance(failed.is_empty());
    }
}

/// Parses and solves the lines of one section with the rules of its game.
fn solve_section<G: BoardRules>(
    variant: Variant<G>,
    section: &Section<'_>,
    args: &SolveArgs,
    totals: &mut Totals,
) -> Result<(), String> {
    let mut entries = Vec::new();
    for &(line, text) in &section.lines {
        match epd::parse_line(variant, text) {
            Ok(Some(entry)) => entries.push((line, entry)),
            Ok(None) => {}
            Err(message) => totals.malformed_line(line, &message),
        }
    }
    let positions: Vec<(G, Settings)> =
        entries.iter().map(|(_, e)| (e.position, totals.settings.for_entry(e))).collect();
    solve_all(&positions, args, &mut |index, solution| {
        let (line, entry) = &entries[index];
        totals.report(*line, entry, solution);
    })
}

/// The most characters of a malformed line's message printed.
const MAX_MESSAGE_CHARS: usize = 240;

/// "s" unless `n` is 1.
fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Solves `positions`, each with its settings, on `args.jobs` workers and hands each solution
/// to `report` in the order of `positions`, as soon as it and all before it are done.
fn solve_all<G: BoardRules>(
    positions: &[(G, Settings)],
    args: &SolveArgs,
    report: &mut dyn FnMut(usize, &Solution<G::Move>),
) -> Result<(), String> {
    let jobs = (args.jobs as usize).clamp(1, positions.len().max(1));
    // Each worker's table, made here one after the other, so that each is checked against the
    // memory the ones before it have left (and a size that cannot be had is an error, not an
    // abort).
    let searchers = (0..jobs)
        .map(|_| Searcher::<G>::try_new(args.hash as usize, args.threads as usize))
        .collect::<Result<Vec<_>, String>>()
        .map_err(|e| format!("--hash: {e}"))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .stack_size(WORKER_STACK)
        .thread_name(|i| format!("solve-{i}"))
        .build()
        .map_err(|e| format!("cannot start {jobs} workers: {e}"))?;
    // Workers take positions in file order, so that the in-order printing below never waits
    // long for an early position while later ones pile up.
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<(usize, Solution<G::Move>)>();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            pool.scope(|workers| {
                let (prover, hash) = (args.prover, args.hash as usize);
                for mut searcher in searchers {
                    let (sender, next) = (sender.clone(), &next);
                    workers.spawn(move |_| {
                        let mut dfpn = None;
                        loop {
                            let i = next.fetch_add(1, Relaxed);
                            let Some((pos, settings)) = positions.get(i) else { break };
                            let solution = match prover {
                                Prover::Dfpn if settings.prove => {
                                    let dfpn = dfpn.get_or_insert_with(|| Dfpn::new(hash));
                                    solve_position_dfpn(&mut searcher, dfpn, pos, settings)
                                }
                                _ => solve_position(&mut searcher, pos, settings),
                            };
                            if sender.send((i, solution)).is_err() {
                                break;
                            }
                        }
                    });
                }
            });
            drop(sender);
        });
        let mut pending = BTreeMap::new();
        let mut printed = 0;
        for (i, solution) in receiver {
            pending.insert(i, solution);
            while let Some(solution) = pending.remove(&printed) {
                report(printed, &solution);
                printed += 1;
            }
        }
    });
    Ok(())
}

/// A one-line progress display on stderr, redrawn after each position; silent when stderr is
/// not a terminal (a log file or a CI run).
struct Progress {
    enabled: bool,
    total: usize,
    done: usize,
    failed: usize,
    start: Instant,
}

impl Progress {
    /// A display of `total` positions, drawn at once (before the first, possibly long, search).
    fn new(total: usize) -> Progress {
        let progress = Progress {
            enabled: std::io::stderr().is_terminal(),
            total,
            done: 0,
            failed: 0,
            start: Instant::now(),
        };
        progress.draw();
        progress
    }

    /// Counts one more position and redraws the line.
    fn advance(&mut self, passed: bool) {
        self.done += 1;
        self.failed += usize::from(!passed);
        self.draw();
    }

    /// Draws the line `[DONE/TOTAL] F failed, S s` (while positions remain).
    fn draw(&self) {
        if self.enabled && self.done < self.total {
            // The result lines on stdout must reach the terminal before the line is drawn.
            let _ = std::io::stdout().flush();
            let elapsed = self.start.elapsed().as_secs_f64();
            eprint!("\r[{}/{}] {} failed, {elapsed:.1} s", self.done, self.total, self.failed);
        }
    }

    /// Erases the line, before something else is printed.
    fn clear(&self) {
        if self.enabled {
            eprint!("\r\x1b[2K");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impasse::{Move, Position};
    use crate::tools::epd::parse_line;
    use std::path::PathBuf;

    fn entry(line: &str) -> EpdEntry<Position> {
        let impasse = Variant { info: variants::find("impasse").unwrap(), params: () };
        parse_line(impasse, line).unwrap().unwrap()
    }

    fn solution(best: Option<Move>, score: Score, depth: u32) -> Solution<Move> {
        Solution {
            best_move: best,
            score,
            depth,
            nodes: 100,
            time: Duration::from_millis(3),
            exact: is_exact(score, depth),
        }
    }

    #[test]
    fn exactness_needs_a_proof_searched_beyond_its_length() {
        assert!(is_exact(Score::Win(5), 6));
        assert!(!is_exact(Score::Win(5), 5));
        assert!(is_exact(Score::Loss(4), 5));
        assert!(!is_exact(Score::Heuristic(300), 100));
    }

    #[test]
    fn judges_each_expectation() {
        let e = entry("8/8/5b2/8/8/8/3w4/B7 w bm d2e3 d2c3; am d2h6; win 3; id \"t\"");
        let good = e.position.parse_move("d2e3").unwrap();
        let other = e.position.parse_move("d2f4").unwrap();
        let avoid = e.position.parse_move("d2h6").unwrap();
        assert!(failures(&e, &solution(Some(good), Score::Win(5), 9), true).is_empty());
        let f = failures(&e, &solution(Some(other), Score::Win(5), 9), false);
        assert_eq!(f, ["bm d2e3 d2c3 expected"]);
        let f = failures(&e, &solution(Some(avoid), Score::Win(7), 9), false);
        assert_eq!(f.len(), 3, "{f:?}");
        let f = failures(&e, &solution(Some(good), Score::Heuristic(500), 9), false);
        assert_eq!(f, ["win 3 expected, not proven"]);
        // Right length, but the search stopped before it could rule out a shorter win.
        assert!(failures(&e, &solution(Some(good), Score::Win(5), 5), false).is_empty());
        assert_eq!(failures(&e, &solution(Some(good), Score::Win(5), 5), true).len(), 1);
        let lost = entry("8/8/8/8/8/8/8/b7 b loss 0");
        assert!(
            failures(&lost, &Solution { exact: true, ..solution(None, Score::Loss(0), 0) }, true).is_empty()
        );
    }

    #[test]
    fn result_lines_follow_the_documented_format() {
        let e = entry("8/8/5b2/8/8/8/3w4/B7 w win 3");
        let mv = e.position.parse_move("d2e3").unwrap();
        let s = solution(Some(mv), Score::Win(5), 9);
        assert_eq!(
            result_line(&e, 4, &s, &[], false),
            "id \"line 4\" pass move d2e3 score win 3 depth 9 nodes 100 time 3"
        );
        let why = ["win 3 expected".to_string()];
        assert_eq!(
            result_line(&e, 4, &solution(Some(mv), Score::Heuristic(-20), 2), &why, true),
            "id \"line 4\" fail move d2e3 score cp -20 depth 2 nodes 100 time 3 proof none reason \"win 3 expected\""
        );
    }

    #[test]
    fn proves_a_constructed_win_with_its_exact_length() {
        // Checked by the exhaustive solver in engine-tests: White wins in 3 own moves (5 plies).
        let pos = Position::from_fen("8/8/5b2/8/8/8/3w4/B7 w").unwrap();
        let mut searcher = Searcher::new(4, 1);
        let settings = Settings { limits: Limits::default(), prove: true };
        let s = solve_position(&mut searcher, &pos, &settings);
        assert_eq!((s.score, s.exact, s.depth), (Score::Win(5), true, 6));
        assert!(s.best_move.is_some());
    }

    #[test]
    fn no_limit_means_proving() {
        let args = SolveArgs {
            file: PathBuf::from("x"),
            variant: None,
            movetime: None,
            depth: None,
            nodes: None,
            prove: false,
            threads: 1,
            jobs: 1,
            hash: 1,
            tables: None,
            prover: crate::cli::Prover::Alphabeta,
        };
        assert_eq!(Settings::from_args(&args), Settings { limits: Limits::default(), prove: true });
        let timed = Settings::from_args(&SolveArgs { movetime: Some(1000), ..args.clone() });
        assert_eq!((timed.limits.movetime, timed.prove), (Some(Duration::from_millis(1000)), false));
        let capped = Settings::from_args(&SolveArgs { depth: Some(7), prove: true, ..args });
        assert_eq!((capped.limits.depth, capped.limits.movetime, capped.prove), (Some(7), None, true));
    }
}
