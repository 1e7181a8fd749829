//! The latency probe: how long the engine takes, over its protocol, from the moment `go` is
//! written to the moment `bestmove` is read, for a fixed move time. `benches/load-test.sh`
//! runs it while busy processes load the machine, which is where a deadline is really tested.
//!
//!     cargo bench --bench latency -- [--engine PATH] [--count N] [--movetime MS]
//!         [--threads T] [--variant NAME] [--over MS] [--option NAME=VALUE]... [--explain]
//!
//! Prints one line: `latency threads T movetime MS count N p50 X p99 X max X over-LIMIT K`
//! (milliseconds; `over` counts the answers later than `--over`, by default the move time plus
//! 50 ms, the match runner's default margin). Positions are the variant's opening book, taken in
//! turn. Exit status 1 when an answer was missing or not a move. `--explain` turns the engine's
//! `debug` on and prints, for each late answer, the engine's own account of its timing (its
//! `info string debug:` lines), which tells a late engine from a late pipe or probe.
//!
//! Both stamps are taken where the probe's own scheduling cannot inflate them: the `go` stamp
//! right after the write returns, the `bestmove` stamp on a reader thread that is blocked in
//! `read` until the line arrives, at real-time priority where the system grants it, as the
//! match runner's readers (`src/realtime.rs`); the engine runs in a session of its own, as the
//! match runner starts it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// The probe's settings.
struct Settings {
    engine: String,
    count: usize,
    movetime: u64,
    threads: usize,
    variant: String,
    over: Option<u64>,
    options: Vec<(String, String)>,
    explain: bool,
}

fn usage(problem: &str) -> ! {
    eprintln!("latency: {problem}");
    eprintln!(
        "usage: cargo bench --bench latency -- [--engine PATH] [--count N] [--movetime MS] [--threads T] [--variant NAME] [--over MS] [--option NAME=VALUE]..."
    );
    std::process::exit(2)
}

fn settings() -> Settings {
    let mut s = Settings {
        // The binary cargo built beside this bench.
        engine: env!("CARGO_BIN_EXE_steere").into(),
        count: 200,
        movetime: 100,
        threads: 1,
        variant: "impasse".into(),
        over: None,
        options: Vec::new(),
        explain: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--bench" {
            continue; // cargo bench passes it
        }
        if flag == "--explain" {
            s.explain = true;
            continue;
        }
        let mut value = || args.next().unwrap_or_else(|| usage(&format!("{flag} needs a value")));
        let number = |v: String| v.parse::<u64>().unwrap_or_else(|_| usage(&format!("{flag}: not a number")));
        match flag.as_str() {
            "--engine" => s.engine = value(),
            "--count" => s.count = number(value()) as usize,
            "--movetime" => s.movetime = number(value()),
            "--threads" => s.threads = number(value()) as usize,
            "--variant" => s.variant = value(),
            "--over" => s.over = Some(number(value())),
            "--option" => {
                let v = value();
                let (name, val) = v.split_once('=').unwrap_or_else(|| usage("--option wants NAME=VALUE"));
                s.options.push((name.into(), val.into()));
            }
            other => usage(&format!("unknown argument '{other}'")),
        }
    }
    s
}

/// The book's positions of `variant` (comment lines skipped).
fn openings(variant: &str) -> Vec<String> {
    let path = format!("{}/positions/openings-{variant}.fen", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| usage(&format!("{path}: {e}")));
    let fens: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect();
    if fens.is_empty() {
        usage(&format!("{path} has no positions"));
    }
    fens
}

/// Reads the engine's lines on a thread of its own, each stamped as it is read.
fn reader(stdout: std::process::ChildStdout) -> Receiver<(Instant, String)> {
    let (sender, receiver) = channel();
    std::thread::spawn(move || {
        // Real-time priority where granted, as the match runner's readers (src/realtime.rs).
        let _guard = steere::realtime::FloodGuard::start();
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            if sender.send((Instant::now(), line)).is_err() {
                return;
            }
        }
    });
    receiver
}

/// Waits for a line starting with `word`; returns when it was read, the line, and the engine's
/// `info string debug:` lines read before it.
fn wait_for(
    lines: &Receiver<(Instant, String)>,
    word: &str,
    timeout: Duration,
) -> Option<(Instant, String, Vec<String>)> {
    let deadline = Instant::now() + timeout;
    let mut account = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let (at, line) = lines.recv_timeout(left).ok()?;
        if line.split_whitespace().next() == Some(word) {
            return Some((at, line, account));
        }
        if let Some(text) = line.strip_prefix("info string debug: ") {
            account.push(text.to_string());
        }
    }
}

/// How long after `sent` the engine read `go`, from its `debug: searching ...` line, which
/// shows the moment it read `go` as a monotonic clock reading (`Instant { tv_sec: S, tv_nsec:
/// N }`, the clock every process shares on Linux); `None` where the line does not show it.
fn read_delay(line: &str, sent: Instant) -> Option<f64> {
    let number = |key: &str| -> Option<i128> {
        let rest = &line[line.find(key)? + key.len()..];
        rest[..rest.find(|c: char| !c.is_ascii_digit())?].parse().ok()
    };
    let read = number("tv_sec: ")? * 1_000_000_000 + number("tv_nsec: ")?;
    let own = format!("{sent:?}");
    let sent_ns = {
        let key = |k: &str| -> Option<i128> {
            let rest = &own[own.find(k)? + k.len()..];
            rest[..rest.find(|c: char| !c.is_ascii_digit())?].parse().ok()
        };
        key("tv_sec: ")? * 1_000_000_000 + key("tv_nsec: ")?
    };
    Some((read - sent_ns) as f64 / 1e6)
}

/// The `info string debug:` lines read before `readyok`.
fn until_ready(lines: &Receiver<(Instant, String)>) -> Vec<String> {
    let mut account = Vec::new();
    while let Ok((_, line)) = lines.recv_timeout(Duration::from_secs(30)) {
        if line == "readyok" {
            break;
        }
        if let Some(text) = line.strip_prefix("info string debug: ") {
            account.push(text.to_string());
        }
    }
    account
}

/// The `q` quantile of sorted `values` (nearest rank).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn main() {
    let s = settings();
    let fens = openings(&s.variant);
    let mut command = Command::new(&s.engine);
    // As `steere match` does (src/client/mod.rs, `own_session`): the engine in a
    // session of its own, so that its computing does not delay this probe's reader thread.
    // SAFETY: setsid is async-signal-safe; it touches no memory.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut command, || {
            libc::setsid();
            Ok(())
        });
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| usage(&format!("cannot start '{}': {e}", s.engine)));
    let mut stdin = child.stdin.take().expect("piped");
    let lines = reader(child.stdout.take().expect("piped"));
    let mut send = |text: &str| {
        stdin.write_all(text.as_bytes()).and_then(|()| stdin.write_all(b"\n")).and_then(|()| stdin.flush())
    };
    let mut setup = vec![
        "uci".to_string(),
        format!("setoption name UCI_Variant value {}", s.variant),
        format!("setoption name Threads value {}", s.threads),
    ];
    setup.extend(s.options.iter().map(|(n, v)| format!("setoption name {n} value {v}")));
    if s.explain {
        setup.push("debug on".into());
    }
    setup.push("isready".into());
    for line in &setup {
        send(line).unwrap_or_else(|e| usage(&format!("cannot write to the engine: {e}")));
    }
    if wait_for(&lines, "readyok", Duration::from_secs(30)).is_none() {
        usage("no readyok from the engine");
    }
    let mut latencies = Vec::with_capacity(s.count);
    let mut failures = 0;
    for i in 0..s.count {
        let position = format!("position fen {}", fens[i % fens.len()]);
        if send(&position).is_err() || send(&format!("go movetime {}", s.movetime)).is_err() {
            eprintln!("latency: the engine closed its input");
            failures += 1;
            break;
        }
        let sent = Instant::now();
        match wait_for(&lines, "bestmove", Duration::from_millis(s.movetime + 10_000)) {
            Some((at, line, mut account)) => {
                let ms = at.saturating_duration_since(sent).as_secs_f64() * 1000.0;
                latencies.push(ms);
                if line.split_whitespace().nth(1).is_none_or(|m| m == "(none)") {
                    eprintln!("latency: no move in '{line}'");
                    failures += 1;
                }
                if s.explain {
                    // The engine's account follows its bestmove; isready collects it.
                    let _ = send("isready");
                    account.extend(until_ready(&lines));
                    if ms > s.over.unwrap_or(s.movetime + 50) as f64 {
                        let input = account.iter().find_map(|l| read_delay(l, sent));
                        let input = input.map_or("unknown".to_string(), |d| format!("{d:.1} ms"));
                        eprintln!(
                            "latency: probe {} answered after {ms:.1} ms (the engine read go {input} after it was written): {}",
                            i + 1,
                            account.join(" | ")
                        );
                    }
                }
            }
            None => {
                eprintln!("latency: no bestmove for probe {}", i + 1);
                failures += 1;
                break;
            }
        }
    }
    let _ = send("quit");
    let _ = child.wait();
    latencies.sort_by(f64::total_cmp);
    let limit = s.over.unwrap_or(s.movetime + 50);
    let over = latencies.iter().filter(|&&l| l > limit as f64).count();
    if latencies.is_empty() {
        usage("no answer at all");
    }
    println!(
        "latency threads {} movetime {} count {} p50 {:.1} p99 {:.1} max {:.1} over-{limit} {over}",
        s.threads,
        s.movetime,
        latencies.len(),
        quantile(&latencies, 0.5),
        quantile(&latencies, 0.99),
        latencies[latencies.len() - 1]
    );
    if failures > 0 {
        std::process::exit(1);
    }
}
