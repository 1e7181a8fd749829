//! Regenerates positions/cantstop-value.txt, Can't Stop's learned value (docs/rules/cantstop.md):
//! `cargo run --release --example cantstop_learn -- [--seed N] [--games N] [--rounds N]
//! [--depth N] [--jobs N] [--steps N] [--race-games N] [--out FILE]` (the defaults are the
//! shipped file's; `--out -` writes to stdout). The same options give the same file.
//!
//! `--duel rule28|greedy|hand --streams N [--model FILE]` instead plays 2N in-process duplicate
//! two-player games of the search with the model (default: the shipped one) against that
//! opponent (`hand`: the search with the previous hand model), `--depth` rolls deep.

use steere::cantstop::eval::{Model, Value, shipped};
use steere::tools::cantstop_learn::{Config, Seat, duel, file_text, regenerate};

fn main() {
    let mut config = Config::SHIPPED;
    let mut out = String::from("positions/cantstop-value.txt");
    let (mut opponent, mut streams, mut model_file) = (None, 500, None);
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let [flag, value] = pair else { fail(&format!("{} needs a value", pair[0])) };
        let number =
            || value.parse::<u64>().unwrap_or_else(|_| fail(&format!("{flag}: not a number: {value}")));
        match flag.as_str() {
            "--seed" => config.seed = number(),
            "--games" => config.games = number() as usize,
            "--rounds" => config.rounds = number() as usize,
            "--depth" => config.depth = number() as u32,
            "--jobs" => config.jobs = number() as usize,
            "--steps" => config.steps = number() as usize,
            "--race-games" => config.race_games = number() as usize,
            "--out" => out = value.clone(),
            "--duel" => opponent = Some(value.clone()),
            "--streams" => streams = number() as usize,
            "--model" => model_file = Some(value.clone()),
            _ => fail(&format!("unknown option {flag}")),
        }
    }
    if let Some(opponent) = opponent {
        let model: Model = match &model_file {
            Some(f) => {
                let text = std::fs::read_to_string(f).unwrap_or_else(|e| fail(&format!("{f}: {e}")));
                Model::parse(&text).unwrap_or_else(|e| fail(&format!("{f}: {e}")))
            }
            None => shipped().clone(),
        };
        let other = if opponent == "hand" { Seat::Search(Value::Hand) } else { Seat::Fixed(&opponent) };
        let (wins, first, games) = duel(
            [Seat::Search(Value::Learned(&model)), other],
            streams,
            config.seed,
            config.depth,
            config.jobs,
        );
        let p = wins[0] as f64 / games as f64;
        let half = 1.96 * (p * (1.0 - p) / games as f64).sqrt();
        println!(
            "learned against {opponent}: {} of {games} = {:.1}% +- {:.1}%; first {:.1}%, second {:.1}%",
            wins[0],
            100.0 * p,
            100.0 * half,
            200.0 * first[0] as f64 / games as f64,
            200.0 * (wins[0] - first[0]) as f64 / games as f64
        );
        return;
    }
    let (model, log) = regenerate(config, &mut |line| eprintln!("{line}"));
    let text = file_text(config, &model, &log);
    if out == "-" {
        print!("{text}");
    } else if let Err(e) = std::fs::write(&out, text) {
        fail(&format!("{out}: {e}"));
    }
}

fn fail(message: &str) -> ! {
    eprintln!("cantstop_learn: {message}");
    std::process::exit(2)
}
