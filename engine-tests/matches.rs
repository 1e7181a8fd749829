//! `steere match` and `steere book` end to end: the statistics against hand-computed values,
//! real matches between builds of `steere`, scripted faulty engines, record replays and the
//! book's reproducibility.
//!
//! Fake engines are tiny `#!/bin/sh` loops written to a temporary directory and run as
//! `sh FILE` (running the shell rather than the fresh file avoids "text file busy" races with
//! other tests that fork while the file is being written).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};
use steere::game::{BoardRules, Player};
use steere::impasse::{Position, START_FEN};
use steere::tools::matches::record::{Category, parse_records};
use steere::tools::matches::stats::{self, Sprt, Verdict};
use steere::variants::{self, Variant};

const STEERE: &str = env!("CARGO_BIN_EXE_steere");

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("steere-matches-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `steere ARGS` and returns its output.
fn steere(args: &[&str]) -> Output {
    Command::new(STEERE).args(args).output().expect("steere runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A whole number that follows `key` in `json` (a tiny reader for the flat summary).
fn json_number_after(json: &str, key: &str) -> u64 {
    let at = json.find(key).unwrap_or_else(|| panic!("'{key}' not in {json}")) + key.len();
    json[at..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().unwrap()
}

/// The first engine's `lateness` summary in a JSON report: (timed moves, max in ms), or `None`
/// when it made no timed move.
fn first_lateness(json: &str) -> Option<(u64, f64)> {
    let at = json.find("\"lateness\":").unwrap_or_else(|| panic!("no lateness in {json}")) + 11;
    let rest = &json[at..];
    if rest.starts_with("null") {
        return None;
    }
    let moves = json_number_after(rest, "\"moves\":");
    let max_at = rest.find("\"max_ms\":").unwrap() + 9;
    let max: String =
        rest[max_at..].chars().take_while(|c| c.is_ascii_digit() || *c == '-' || *c == '.').collect();
    Some((moves, max.parse().unwrap()))
}

/// Reads and replays every game of a record file with the rules code.
fn replay_all(path: &Path) -> Vec<steere::tools::matches::record::ParsedGame> {
    let games = parse_records(&std::fs::read_to_string(path).unwrap()).unwrap();
    for game in &games {
        game.replay().unwrap_or_else(|e| panic!("game {:?} does not replay: {e}", game.tag("Game")));
        assert_eq!(game.tag("Plies").unwrap().parse::<usize>().unwrap(), game.moves.len());
        assert!(game.times.iter().all(Option::is_some), "every move has its time");
    }
    games
}

#[test]
fn formulas_match_hand_computations() {
    // Wald's bounds for alpha = beta = 0.05: ln(0.05 / 0.95) = -ln 19 = -2.944439.
    let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
    let (lower, upper) = sprt.bounds();
    assert!((lower + 2.944_439).abs() < 1e-6 && (upper - 2.944_439).abs() < 1e-6);

    // Logistic Elo: 10 Elo is a score of 1 / (1 + 10^(-10/400)) = 1 / 1.944061 = 0.514387;
    // a score of 3/4 is -400 log10(1/3) = 190.849 Elo.
    assert!((stats::score_of_elo(10.0) - 0.514_387).abs() < 1e-6);
    assert!((stats::elo_of_score(0.75) - 190.849).abs() < 1e-3);

    // The GSPRT on a two-valued distribution is the classical SPRT: the maximum-likelihood
    // distribution with mean s on {0, 1} is (1 - s, s). With 40% zeros and 60% ones, s0 = 1/2
    // and s1 = 0.514387, per observation:
    //   0.6 ln(0.514387 / 0.5) + 0.4 ln(0.485613 / 0.5) = 0.6 * 0.028368 + 0.4 * (-0.029196)
    //   = 0.0053423, so 100 observations give LLR 0.53423.
    let llr = 100.0 * stats::llr_per_observation(&[(0.0, 0.4), (1.0, 0.6)], 0.5, stats::score_of_elo(10.0));
    assert!((llr - 0.534_23).abs() < 1e-4, "{llr}");

    // Symmetry: pairs [5, 10, 20, 10, 5] have mean 1/2, exactly between the scores of -10 and
    // +10 Elo, so the two hypotheses are equally likely: LLR 0.
    let symmetric = Sprt { elo0: -10.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
    assert!(symmetric.llr(&[5, 10, 20, 10, 5]).abs() < 1e-9);

    // Pairs [10, 0, 20, 0, 30] (no draws): 10 pairs lost twice, 20 split, 30 won twice.
    // Mean pair score mu = (0 * 10 + 0.5 * 20 + 1 * 30) / 60 = 2/3.
    // Variance = (10 (2/3)^2 + 20 (1/6)^2 + 30 (1/3)^2) / 60 = (40/9 + 5/9 + 30/9) / 60 = 5/36.
    // Standard error sqrt(5/36 / 60) = 0.0481125; Elo = -400 log10(1/(2/3) - 1) = 120.412;
    // 95% interval of the score 2/3 +- 1.959964 * 0.0481125 = [0.572368, 0.760965], Elo
    // [50.64, 201.16], half-width 75.26; LOS = Phi(0.166667 / 0.0481125) = Phi(3.4641)
    // = 0.999734.
    let estimate = stats::elo_estimate(&[10, 0, 20, 0, 30]).unwrap();
    assert!((estimate.score - 2.0 / 3.0).abs() < 1e-12);
    assert!((estimate.elo - 120.412).abs() < 1e-3, "{estimate:?}");
    assert!((estimate.error95 - 75.26).abs() < 1e-2, "{estimate:?}");
    assert!((estimate.los - 0.999_734).abs() < 1e-6, "{estimate:?}");

    // Draws: pairs [0, 2, 0, 0, 2] (two pairs of a loss and a draw, two won twice) have the mean
    // (2 * 1/4 + 2 * 1) / 4 = 0.625, Elo -400 log10(1/0.625 - 1) = -400 log10(0.6) = 88.739.
    let with_draws = stats::elo_estimate(&[0, 2, 0, 0, 2]).unwrap();
    assert!((with_draws.score - 0.625).abs() < 1e-12 && (with_draws.elo - 88.739).abs() < 1e-3);
    // Only drawn pairs: a score of exactly one half, no spread, LOS one half.
    let drawn = stats::elo_estimate(&[0, 0, 7, 0, 0]).unwrap();
    assert_eq!((drawn.score, drawn.elo.abs(), drawn.los), (0.5, 0.0, 0.5));

    // The full pentanomial LLR with fishtest's regularisation (the two empty cells count
    // 0.001): 0.829139, as computed independently (a separate implementation of fishtest's
    // LLRcalc.LLR_logistic, bisection on the secular equation, in Python). The
    // Brownian-motion approximation N (s1 - s0)(2 mu - s0 - s1) / (2 var) = 0.99 is of the
    // same size, as expected.
    let llr = sprt.llr(&[10, 0, 20, 0, 30]);
    assert!((llr - 0.829_139).abs() < 1e-5, "{llr}");
    assert_eq!(sprt.verdict(llr), Verdict::Continue);
    assert_eq!(sprt.verdict(3.0), Verdict::H1);
    assert_eq!(sprt.verdict(-3.0), Verdict::H0);
    // A larger sample, fishtest's own example [10789, 19328, 33806, 19402, 10543] with elo0 =
    // -3, elo1 = 1: 2.131068 by the same independent computation.
    let fishtest = Sprt { elo0: -3.0, elo1: 1.0, alpha: 0.05, beta: 0.05 };
    let llr = fishtest.llr(&[10789, 19328, 33806, 19402, 10543]);
    assert!((llr - 2.131_068).abs() < 1e-5, "{llr}");

    // Standard normal distribution: Phi(1.959964) = 0.975, Phi(0) = 0.5, Phi(-3) = 0.0013499.
    assert!((stats::phi(1.959_964) - 0.975).abs() < 1e-7);
    assert!((stats::phi(0.0) - 0.5).abs() < 1e-15);
    assert!((stats::phi(-3.0) - 0.001_349_898).abs() < 1e-9);
    assert!((stats::phi(4.0) - 0.999_968_329).abs() < 1e-9);
}

/// `steere match` of `steere` at depth 4 ("deep") against depth 1 ("shallow") with 8 MiB tables,
/// followed by `extra` arguments.
fn deep_vs_shallow(extra: &[&str]) -> Output {
    let mut args = vec!["match", "--engine1", STEERE, "name=deep", "depth=4"];
    args.extend(["--engine2", STEERE, "name=shallow", "depth=1", "--each", "option.Hash=8"]);
    args.extend_from_slice(extra);
    steere(&args)
}

#[test]
fn the_deeper_engine_wins_and_every_game_replays() {
    let dir = temp_dir("depth");
    let record = dir.join("games.txt");
    let out = deep_vs_shallow(&[
        "--rounds",
        "16",
        "--concurrency",
        "2",
        "--json",
        "--pgn",
        record.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json = text(&out.stdout);
    assert_eq!(json_number_after(&json, "\"games\":"), 32);
    // Three games in four at least: the evaluation is good enough that depth 1 wins some
    // (100 games of the release build: 88-12 with the tapered Impasse weights, 97-3 before).
    let deep_wins = json_number_after(&json, "{\"name\":\"deep\",\"games\":32,\"wins\":");
    assert!(deep_wins >= 24, "depth 4 should beat depth 1 clearly: {json}");
    let games = replay_all(&record);
    assert_eq!(games.len(), 32);
    for game in &games {
        assert!(game.tag("Reason").unwrap().starts_with("normal: "), "{:?}", game.tags);
    }
    // Each opening was played twice with the colours swapped.
    let mut rounds: Vec<(String, String, String)> = games
        .iter()
        .map(|g| {
            (g.tag("Round").unwrap().into(), g.tag("White").unwrap().into(), g.tag("FEN").unwrap().into())
        })
        .collect();
    rounds.sort();
    for pair in rounds.chunks(2) {
        assert_eq!(pair[0].2, pair[1].2, "both games of a pair start from the same opening");
        assert_eq!((pair[0].1.as_str(), pair[1].1.as_str()), ("deep", "shallow"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_sprt_stops_the_match_with_a_verdict() {
    let out = deep_vs_shallow(&["--sprt", "elo0=0", "elo1=300", "--rounds", "30"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert!(table.contains("H1 accepted"), "{table}");
    assert!(table.contains("(stopped by the SPRT)"), "{table}");
    // Six won pairs already give LLR 3.18 > 2.94: far fewer than the 60 games allowed.
    let games: u64 = table.split_whitespace().nth(4).unwrap().parse().unwrap();
    assert!(games < 40, "{table}");
}

/// A fake engine that answers the handshake, does `on_go` when asked to move and `on_stop` on
/// `stop`, and appends a line to `NAME.starts` each time it starts.
fn fake_engine(dir: &Path, name: &str, on_go: &str, on_stop: &str) -> String {
    let path = dir.join(format!("{name}.sh"));
    let starts = dir.join(format!("{name}.starts"));
    let script = format!(
        "#!/bin/sh\necho started >> '{}'\nwhile read -r line; do\n  case \"$line\" in\n    \
         uci) echo \"id name {name}\"; echo uciok ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    \
         stop) {on_stop} ;;\n    quit) exit 0 ;;\n  esac\ndone\n",
        starts.display()
    );
    std::fs::write(&path, script).unwrap();
    format!("sh {}", path.display())
}

/// Runs `steere ARGS` with its output in `dir`, and fails the test if it has not finished
/// within `limit` (a check for a hang, not for speed: the limit is generous).
fn steere_within(dir: &Path, args: &[&str], limit: Duration) -> Output {
    let (stdout, stderr) = (dir.join("steere.out"), dir.join("steere.err"));
    let mut child = Command::new(STEERE)
        .args(args)
        .stdout(std::fs::File::create(&stdout).unwrap())
        .stderr(std::fs::File::create(&stderr).unwrap())
        .spawn()
        .expect("steere runs");
    let until = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            panic!("steere {args:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output { status, stdout: std::fs::read(stdout).unwrap(), stderr: std::fs::read(stderr).unwrap() }
}

/// Plays 2 games of a fake engine against `steere` at depth 1 from the start position and
/// checks that the fake lost both for `category`, with `detail` in the reason, and that its
/// process was started `starts` times (1: kept for the second game; 2: restarted).
fn fake_loses(name: &str, (on_go, on_stop): (&str, &str), category: Category, detail: &str, starts: usize) {
    fake_loses_with(name, |dir| fake_engine(dir, name, on_go, on_stop), category, detail, starts);
}

/// [`fake_loses`] with the fake engine's command made by `engine` in the test's directory (it
/// must append a line to `NAME.starts` there each time it starts, as [`fake_engine`] does).
fn fake_loses_with(
    name: &str,
    engine: impl FnOnce(&Path) -> String,
    category: Category,
    detail: &str,
    starts: usize,
) {
    let dir = temp_dir(name);
    let openings = dir.join("openings.fen");
    std::fs::write(&openings, format!("# the start position only\n{START_FEN}\n")).unwrap();
    let record = dir.join("games.txt");
    let args = [
        "match",
        "--engine1",
        &engine(&dir),
        "movetime=100",
        "--engine2",
        STEERE,
        "name=steere",
        "depth=1",
        "--openings",
        openings.to_str().unwrap(),
        "--games",
        "2",
        "--timemargin",
        "50",
        "--json",
        "--pgn",
        record.to_str().unwrap(),
    ];
    let out = steere_within(&dir, &args, Duration::from_secs(60));
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Each loss on time is said on stderr with its wall-clock time, to lay beside other logs.
    let stderr = text(&out.stderr);
    let notes: Vec<&str> = stderr.lines().filter(|l| l.contains(" lost on time: ")).collect();
    let expected_notes = if category == Category::TimeForfeit { 2 } else { 0 };
    assert_eq!(notes.len(), expected_notes, "{stderr}");
    for note in notes {
        let clock = note.strip_prefix("match: ").and_then(|rest| rest.split(" UTC: ").next()).unwrap_or("");
        let digits: Vec<bool> = clock.chars().map(|c| c.is_ascii_digit()).collect();
        assert!(clock.len() == 12 && digits.iter().filter(|&&d| d).count() == 9, "{note}");
        assert!(note.contains(detail), "{note}");
    }
    let json = text(&out.stdout);
    assert_eq!(
        json_number_after(&json, &format!("{{\"name\":\"{name}\",\"games\":2,\"wins\":")),
        0,
        "{json}"
    );
    assert_eq!(json_number_after(&json, &format!("\"{}\":", category.label())), 2, "{json}");
    // The timing report: the fake made one timed move per game, its faulty one (none when it
    // crashed or flooded); one that lost on time was later than the 50 ms margin, an instant
    // one was early.
    match (category, first_lateness(&json)) {
        (Category::Crash, lateness) => assert_eq!(lateness, None, "{json}"),
        (Category::TimeForfeit, Some((2, max))) => assert!(max > 50.0, "{json}"),
        (_, Some((2, max))) => assert!(max < 0.0, "{json}"),
        (Category::Protocol, None) => {}
        (_, lateness) => panic!("unexpected lateness {lateness:?} in {json}"),
    }
    let games = replay_all(&record);
    assert_eq!(games.len(), 2, "the runner went on after the first fault (restarting the engine)");
    for game in &games {
        let reason = game.tag("Reason").unwrap();
        assert!(reason.starts_with(&format!("{}: ", category.label())), "{reason}");
        assert!(reason.contains(detail), "'{reason}' should mention '{detail}'");
        // The fake lost on its own turn: it was to move after the recorded moves.
        let end = game.replay().unwrap();
        let fake_is_white = game.tag("White") == Some(name);
        assert_eq!(end.to_move == Player::P1, fake_is_white, "{:?}", game.tags);
    }
    let started = std::fs::read_to_string(dir.join(format!("{name}.starts"))).unwrap().lines().count();
    assert_eq!(started, starts, "processes started for {name}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_illegal_move_loses() {
    // a1b2 is never legal from the start: b2 holds a black double, and a1 is White's.
    let fake = ("echo 'bestmove a1b2'", ":");
    fake_loses("illegal", fake, Category::IllegalMove, "illegal move 'a1b2'", 1);
}

#[test]
fn garbage_loses() {
    let fake = ("echo 'hello there'; echo 'bestmove zz9'", ":");
    fake_loses("garbage", fake, Category::Garbage, "malformed move 'zz9'", 1);
}

#[test]
fn silence_loses_on_time_and_the_hung_engine_is_restarted() {
    // Deaf to `stop` as well: hung, so it is killed and a new process plays the second game.
    fake_loses("silent", (":", ":"), Category::TimeForfeit, "no move after", 2);
}

#[test]
fn a_slow_engine_loses_on_time_but_is_kept() {
    // Answers only when told to stop: late, but in step, so the same process plays on.
    fake_loses("sluggish", (":", "echo 'bestmove a1b2'"), Category::TimeForfeit, "no move after", 1);
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    fake_loses("crashing", ("exit 3", ":"), Category::Crash, "exited with status 3", 2);
}

#[test]
fn a_flooding_engine_loses_and_is_killed() {
    // Floods at its first `go`; before flooding, it notes which flooder before it still lives
    // (the runner should have killed it).
    let dir = std::env::temp_dir().join(format!("steere-matches-{}-flooders", std::process::id()));
    let (pids, alive) = (dir.with_extension("pids"), dir.with_extension("alive"));
    let on_go = format!(
        "for p in $(cat '{pids}' 2>/dev/null); do kill -0 $p 2>/dev/null && echo $p >> '{alive}'; done; \
         echo $$ >> '{pids}'; exec yes 'info string flood'",
        pids = pids.display(),
        alive = alive.display()
    );
    fake_loses("flooding", (&on_go, ":"), Category::Protocol, "flooded its output", 2);
    assert_eq!(std::fs::read_to_string(&pids).unwrap().lines().count(), 2);
    assert!(!alive.exists(), "a flooder outlived its game: {:?}", std::fs::read_to_string(&alive));
    let _ = (std::fs::remove_file(pids), std::fs::remove_file(alive));
}

#[test]
fn a_second_bestmove_loses_and_is_not_played() {
    // `steere` at depth 1 behind `sed`, which adds `bestmove a1b2` after each answer (in the
    // same write): the runner must not take it for the answer to the next `go`.
    let name = "doubling";
    let engine = |dir: &Path| {
        let path = dir.join(format!("{name}.sh"));
        let script = format!(
            "#!/bin/sh\necho started >> '{starts}'\nsed -u 's/^go .*/go depth 1/' | '{STEERE}' | \
             sed -u -e 's/^id name .*/id name {name}/' -e 's/^bestmove .*/&\\nbestmove a1b2/'\n",
            starts = dir.join(format!("{name}.starts")).display()
        );
        std::fs::write(&path, script).unwrap();
        format!("sh {}", path.display())
    };
    fake_loses_with(name, engine, Category::Protocol, "a second bestmove 'a1b2' after its answer", 2);
}

#[test]
fn bad_input_is_a_one_line_error() {
    let dir = temp_dir("bad");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--engine1".into(), "/nonexistent/engine".into(), "depth=1".into()], "cannot start"),
        (vec!["--engine1".into(), STEERE.into(), "depth=0".into()], "depth"),
        (vec!["--engine1".into(), STEERE.into()], "no time control"),
        (
            vec!["--engine1".into(), STEERE.into(), "depth=1".into(), "option.NoSuch=1".into()],
            "no option 'NoSuch'",
        ),
        (
            vec!["--engine1".into(), STEERE.into(), "depth=1".into(), "option.Hash=0".into()],
            "refused an option",
        ),
        (
            vec![
                "--engine1".into(),
                STEERE.into(),
                "depth=1".into(),
                "--openings".into(),
                "/nonexistent.fen".into(),
            ],
            "--openings",
        ),
        (vec!["--engine1".into(), STEERE.into(), "depth=1".into(), "--games".into(), "3".into()], "even"),
        (
            vec![
                "--engine1".into(),
                STEERE.into(),
                "depth=1".into(),
                "--sprt".into(),
                "elo0=5".into(),
                "elo1=1".into(),
            ],
            "elo0",
        ),
    ];
    for (mut args, expected) in cases {
        let mut full = vec!["match".to_string()];
        full.append(&mut args);
        full.extend(["--engine2".to_string(), STEERE.to_string(), "depth=1".to_string()]);
        let refs: Vec<&str> = full.iter().map(String::as_str).collect();
        let out = steere(&refs);
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{full:?} should fail");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.contains(expected), "'{err}' should mention '{expected}'");
        assert!(!err.contains("panicked"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_book_is_reproducible() {
    let args = ["book", "--plies", "4", "--count", "12", "--seed", "7", "--depth", "3", "--max-score", "60"];
    let first = steere(&args);
    assert!(first.status.success(), "{}", text(&first.stderr));
    let again = steere(&args);
    let mut threaded: Vec<&str> = args.to_vec();
    threaded.extend(["--threads", "2"]);
    let threaded = steere(&threaded);
    assert_eq!(first.stdout, again.stdout, "same arguments, same book");
    assert_eq!(first.stdout, threaded.stdout, "threads do not change the book");
    let book = text(&first.stdout);
    assert!(
        book.contains(
            "# Generated by: steere book --variant impasse --plies 4 --count 12 --seed 7 --depth 3 --max-score 60\n"
        )
    );
    let impasse = Variant::<Position> { info: variants::find("impasse").unwrap(), params: () };
    let positions = steere::tools::book::parse_book(impasse, &book).unwrap();
    assert_eq!(positions.len(), 12);
    let other = steere(&[
        "book",
        "--plies",
        "4",
        "--count",
        "12",
        "--seed",
        "8",
        "--depth",
        "3",
        "--max-score",
        "60",
    ]);
    assert_ne!(first.stdout, other.stdout, "the seed matters");
}

/// Checks the repository's book of a variant: its header, size and soundness.
fn check_book<G: BoardRules>(variant: Variant<G>) {
    let name = variant.name();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("positions/openings-{name}.fen"));
    let book = std::fs::read_to_string(path).unwrap();
    assert_eq!(book, variant.info.openings, "{name}: the built-in book is the file");
    let header = format!("# Generated by: steere book --variant {name} ");
    assert!(book.contains(&header), "{name}: the header names its command");
    let positions = steere::tools::book::parse_book(variant, &book).unwrap();
    assert!((50..=500).contains(&positions.len()), "{name}: {} openings", positions.len());
    let distinct: std::collections::HashSet<G> = positions.iter().copied().collect();
    assert_eq!(distinct.len(), positions.len(), "{name}: no opening twice");
    assert!(positions.iter().all(|p| p.outcome().is_none() && !p.legal_moves().as_ref().is_empty()));
}

#[test]
fn the_repository_books_are_sound() {
    // Dice games have no book: their games start from the start and vary by their dice.
    for info in variants::VARIANTS.iter().filter(|v| v.family == variants::Family::Board) {
        steere::with_variant!(board info.name, |variant| check_book(variant)).unwrap();
    }
}

/// A fake HexDame engine for the opening `W:WKa1:BKi9` that shuttles its king: White plays
/// a1-a2, a2-a1, a1-a2, ..., Black i9-i8, i8-i9, ... (its side and turn read off the number of
/// moves in the last `position` line). Two of them repeat the opening position at plies 4 and 8.
fn shuttling_engine(dir: &Path, name: &str) -> String {
    let path = dir.join(format!("{name}.sh"));
    let script = format!(
        "#!/bin/sh\ncount=0\nwhile read -r line; do\n  case \"$line\" in\n    \
         uci) echo \"id name {name}\"; echo 'option name UCI_Variant type combo default impasse var impasse var hexdame'; echo uciok ;;\n    \
         isready) echo readyok ;;\n    \
         position*) set -- $line; if [ $# -gt 3 ]; then count=$(($# - 4)); else count=0; fi ;;\n    \
         go*) k=$((count / 2)); if [ $((count % 2)) = 0 ]; then \
         if [ $((k % 2)) = 0 ]; then echo 'bestmove a1-a2'; else echo 'bestmove a2-a1'; fi; \
         else if [ $((k % 2)) = 0 ]; then echo 'bestmove i9-i8'; else echo 'bestmove i8-i9'; fi; fi ;;\n    \
         quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    format!("sh {}", path.display())
}

/// Plays one pair of HexDame games between two shuttling engines with `extra` flags; returns
/// the JSON summary and the replayed records.
fn shuttling_match(name: &str, extra: &[&str]) -> (String, Vec<steere::tools::matches::record::ParsedGame>) {
    let dir = temp_dir(name);
    let openings = dir.join("openings.fen");
    std::fs::write(&openings, "W:WKa1:BKi9\n").unwrap();
    let record = dir.join("games.txt");
    let (one, two) = (shuttling_engine(&dir, "one"), shuttling_engine(&dir, "two"));
    let mut args = vec!["match", "--variant", "hexdame", "--engine1", &one, "--engine2", &two];
    let (openings, record_path) =
        (openings.to_str().unwrap().to_string(), record.to_str().unwrap().to_string());
    args.extend([
        "--each",
        "depth=1",
        "--openings",
        &openings,
        "--games",
        "2",
        "--json",
        "--pgn",
        &record_path,
    ]);
    args.extend(extra);
    let out = steere(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let games = replay_all(&record);
    let _ = std::fs::remove_dir_all(&dir);
    (text(&out.stdout), games)
}

#[test]
fn the_runner_adjudicates_a_threefold_repetition_as_a_draw() {
    let (json, games) = shuttling_match("repetition", &[]);
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(game.tag("Result"), Some("1/2-1/2"));
        assert_eq!(game.tag("Reason"), Some("repetition: W:WKa1:BKi9 occurred for the third time"));
        assert_eq!(game.moves.len(), 8, "the third occurrence comes after ply 8 (rules, example 13)");
    }
    assert_eq!(json_number_after(&json, "\"draws\":"), 2, "{json}");
    assert_eq!(json_number_after(&json, "\"repetition\":"), 2, "{json}");
    assert!(json.contains("\"pentanomial\":[0,0,1,0,0]"), "two draws make one DD pair: {json}");
    assert!(json.contains("\"score\":0.5"), "{json}");
}

#[test]
fn the_runner_draw_cap_is_configurable() {
    // Six plies in all, then a draw by the cap (before the repetition at ply 8), with the
    // reversible-plies cap turned off.
    let (json, games) = shuttling_match("cap", &["--draw-max-plies", "6", "--draw-reversible-plies", "0"]);
    for game in &games {
        assert_eq!(game.tag("Result"), Some("1/2-1/2"));
        assert_eq!(game.tag("Reason"), Some("draw cap: 6 plies played (--draw-max-plies 6)"));
        assert_eq!(game.moves.len(), 6);
    }
    assert_eq!(json_number_after(&json, "\"draw cap\":"), 2, "{json}");
    let (_, games) = shuttling_match("cap-reversible", &["--draw-reversible-plies", "5"]);
    assert!(games.iter().all(|g| g.tag("Reason").unwrap().starts_with("draw cap: 5 plies in a row")));
    // With every cap off, the repetition still ends the game.
    let (_, games) = shuttling_match("no-cap", &["--draw-max-plies", "0", "--draw-reversible-plies", "0"]);
    assert!(games.iter().all(|g| g.tag("Reason").unwrap().starts_with("repetition")));
}

/// Each engine runs in a session of its own (src/client/mod.rs, `own_session`), so
/// that a thinking engine does not share the runner's scheduling group: the fake records its
/// process id and its session id (field 6 of /proc/PID/stat) at each `go`.
#[test]
fn each_engine_runs_in_a_session_of_its_own() {
    let name = "session";
    let record = temp_dir("session-record").join("sessions.txt");
    let on_go =
        format!("echo \"$$ $(cut -d' ' -f6 /proc/$$/stat)\" >> '{}'; echo 'bestmove a1b2'", record.display());
    fake_loses(name, (&on_go, ":"), Category::IllegalMove, "illegal move 'a1b2'", 1);
    let lines = std::fs::read_to_string(&record).unwrap();
    assert_eq!(lines.lines().count(), 2, "{lines}");
    let own_session = std::fs::read_to_string("/proc/self/stat").unwrap();
    let own_session = own_session.rsplit(')').next().unwrap().split_whitespace().nth(3).unwrap().to_string();
    for line in lines.lines() {
        let (pid, sid) = line.split_once(' ').unwrap();
        assert_eq!(pid, sid, "the engine leads its own session: {line}");
        assert_ne!(sid, own_session, "not the test's session: {line}");
    }
}
