//! The stall probe of benches/load-test.sh: on each processor, a thread at real-time priority 2
//! (above every thread steere runs at real time, which use 1) sleeps 1 ms in a loop and logs
//! every oversleep over a threshold. Such a thread is late only when nothing in this system
//! could have run it: the machine itself was not running (a virtual machine's host, a
//! hypervisor pause) or the kernel held the processor. A thread sleeping to a deadline is woken
//! by a timer of the processor it slept on, so a stall of that one processor is enough to make
//! its answer late: a time loss that comes with a stall is not the engine's, on one processor
//! or on all.
//!
//!   cargo bench --bench stalls -- [--seconds N] [--over MS]
//! Prints `HH:MM:SS cpuK late X ms` per stall, then a summary line. Needs the right to
//! real-time priority (root or CAP_SYS_NICE); without it, it says so and measures anyway.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The usage line, for `--help` and for errors.
const USAGE: &str = "usage: stalls [--seconds N] [--over MS] (log each oversleep over MS ms, default 10, for N seconds, default until killed)";

/// Says what is wrong with the arguments and exits with status 2.
fn usage_error(message: &str) -> ! {
    eprintln!("stalls: error: {message}\n{USAGE}");
    std::process::exit(2);
}

fn main() {
    let mut seconds = u64::MAX;
    let mut over_ms = 10.0;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => {
                seconds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| usage_error("--seconds needs a whole number"))
            }
            "--over" => {
                over_ms = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| usage_error("--over needs a number of ms"))
            }
            "--bench" => {}
            "--help" | "-h" => {
                println!("{USAGE}");
                return;
            }
            other => usage_error(&format!("unknown argument '{other}'")),
        }
    }
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let end = Instant::now().checked_add(Duration::from_secs(seconds));
    let probes: Vec<_> = (0..cpus).map(|cpu| std::thread::spawn(move || probe(cpu, over_ms, end))).collect();
    let mut total = (0usize, 0.0f64);
    for probe in probes {
        let (count, worst) = probe.join().unwrap_or_default();
        total = (total.0 + count, total.1.max(worst));
    }
    println!("stalls over {over_ms} ms: {} on {cpus} processors, worst {:.1} ms", total.0, total.1);
}

/// One processor's probe: the stalls counted and the worst, in ms.
fn probe(cpu: usize, over_ms: f64, end: Option<Instant>) -> (usize, f64) {
    if !pin_and_raise(cpu) {
        eprintln!("stalls: cpu{cpu}: no real-time priority granted; the figures include scheduling delays");
    }
    let (mut count, mut worst) = (0, 0.0f64);
    let mut last = Instant::now();
    while end.is_none_or(|end| last < end) {
        std::thread::sleep(Duration::from_millis(1));
        let now = Instant::now();
        let late = (now - last).as_secs_f64() * 1000.0 - 1.0;
        if late > over_ms {
            count += 1;
            worst = worst.max(late);
            println!("{} cpu{cpu} late {late:.1} ms", clock());
        }
        last = now;
    }
    (count, worst)
}

/// Pins the calling thread to `cpu` and asks for SCHED_FIFO priority 2; true if granted.
fn pin_and_raise(cpu: usize) -> bool {
    // SAFETY: plain system calls on the calling thread (0) with valid, initialised arguments.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
        let param = libc::sched_param { sched_priority: 2 };
        libc::sched_setscheduler(0, libc::SCHED_FIFO, &param) == 0
    }
}

/// The time of day, UTC, as HH:MM:SS.
fn clock() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) % 86_400;
    format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}
