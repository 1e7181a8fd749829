//! `steere tune`: fits a board game's evaluation weights to the results of self-play games
//! (`steere selfplay`), and writes them as the game's weights file (docs/tuning.md).
//!
//! The data's positions are split by game: [`TuneArgs::holdout`] percent of the games (by their
//! number) are held out, so that positions of one game never sit on both sides. Each position's
//! features come from the game's [`LinearEval`]; the target is its game's result for the side
//! to move, mixed with the search score's win probability when `--lambda` is below 1. The fit
//! itself (the scale first, then the weights) is [`fit`]. The report gives the loss of the
//! current and of the tuned (rounded) weights on the training and the held-out positions, and
//! every weight before and after.

pub mod fit;

use crate::cli::tuning::TuneArgs;
use crate::game::LinearEval;
use crate::variants::Variant;
use fit::{Samples, Schedule};
use std::path::Path;

/// One position of a data file.
#[derive(Clone, Debug, PartialEq)]
pub struct DataLine {
    /// The position's text.
    pub fen: String,
    /// The game's result for the side to move: 1, 0.5 or 0.
    pub result: f64,
    /// The search's estimate for the side to move, in the game's unit.
    pub score: i32,
    /// The game's number in its file.
    pub game: u64,
}

/// Reads one data line (`FEN;RESULT;SCORE;GAME`), or says what is wrong with it.
pub fn parse_line(line: &str) -> Result<DataLine, String> {
    let fields: Vec<&str> = line.split(';').map(str::trim).collect();
    let [fen, result, score, game] = fields[..] else {
        return Err(format!("expected FEN;RESULT;SCORE;GAME, found {} fields", fields.len()));
    };
    let result = match result {
        "1" => 1.0,
        "0.5" => 0.5,
        "0" => 0.0,
        other => return Err(format!("result {other:?} is not 1, 0.5 or 0")),
    };
    let score = score.parse().map_err(|_| format!("score {score:?} is not an integer"))?;
    let game = game.parse().map_err(|_| format!("game {game:?} is not a number"))?;
    Ok(DataLine { fen: fen.to_string(), result, score, game })
}

/// The training and held-out positions of the data files, with the search scores kept for the
/// targets, the games the positions come from, and the number of games of each side.
struct Data {
    train: (Samples, Vec<i32>),
    held_out: (Samples, Vec<i32>),
    game_of: (Vec<u64>, Vec<u64>),
    games: (usize, usize),
}

/// Reads the data files of `variant`; errors name the file and line.
fn read_data<G: LinearEval>(variant: Variant<G>, args: &TuneArgs) -> Result<Data, String> {
    let width = G::feature_names(variant.params).len();
    let mut data = Data {
        train: (Samples::new(width), Vec::new()),
        held_out: (Samples::new(width), Vec::new()),
        game_of: (Vec::new(), Vec::new()),
        games: (0, 0),
    };
    let mut features = Vec::with_capacity(width);
    for path in &args.data {
        let text = std::fs::read_to_string(path).map_err(|e| format!("--data {}: {e}", path.display()))?;
        let mut last_game = None;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |e: String| format!("{}:{}: {e}", path.display(), i + 1);
            let entry = parse_line(line).map_err(at)?;
            let pos = variant.parse_fen(&entry.fen).map_err(at)?;
            pos.features(&mut features);
            // The last `holdout` of every hundred games: a small file trains on its first games.
            let held = entry.game % 100 >= 100 - args.holdout as u64;
            let (samples, scores) = if held { &mut data.held_out } else { &mut data.train };
            samples.push(&features, entry.result);
            scores.push(entry.score);
            if held {
                data.game_of.1.push(entry.game)
            } else {
                data.game_of.0.push(entry.game)
            }
            if last_game != Some(entry.game) {
                last_game = Some(entry.game);
                if held { data.games.1 += 1 } else { data.games.0 += 1 }
            }
        }
    }
    if data.train.0.is_empty() {
        return Err("no training positions in the data".to_string());
    }
    Ok(data)
}

/// Discounts the results by their positions' distance from their game's end (`--discount`):
/// a position `k` positions before its game's last recorded one keeps `0.5^(k / half_life)` of
/// its result's distance from a draw. The positions of a game are consecutive in the data, in
/// the order played, as `steere selfplay` writes them.
fn discount_targets(samples: &mut Samples, game_of: &[u64], half_life: f64) {
    if half_life <= 0.0 {
        return;
    }
    let mut to_end = 0;
    for i in (0..samples.targets.len()).rev() {
        let last_of_game = i + 1 == game_of.len() || game_of[i + 1] != game_of[i];
        to_end = if last_of_game { 0 } else { to_end + 1 };
        let keep = 0.5f64.powf(to_end as f64 / half_life);
        samples.targets[i] = 0.5 + (samples.targets[i] - 0.5) * keep;
    }
}

/// Mixes the results with the search scores' win probabilities (`--lambda`).
fn mix_targets(samples: &mut Samples, scores: &[i32], lambda: f64, scale: f64) {
    for (target, &score) in samples.targets.iter_mut().zip(scores) {
        *target = lambda * *target + (1.0 - lambda) * fit::sigmoid(score as f64 / scale);
    }
}

/// What a run of the tuner found.
pub struct Tuned {
    /// The feature names.
    pub names: Vec<String>,
    /// The weights before.
    pub before: Vec<i32>,
    /// The tuned weights, rounded.
    pub after: Vec<i32>,
    /// The scale used.
    pub scale: f64,
    /// Losses (training, held-out) of the weights before and after.
    pub losses: [(f64, f64); 2],
    /// Positions (training, held-out) and games (training, held-out).
    pub counts: [(usize, usize); 2],
}

/// Runs the tuner on the data of `args` for `variant`.
pub fn tune<G: LinearEval>(variant: Variant<G>, args: &TuneArgs) -> Result<Tuned, String> {
    let names = G::feature_names(variant.params);
    let before: Vec<i32> = G::weights(variant.params).to_vec();
    let mut frozen = vec![false; names.len()];
    for name in &args.freeze {
        let i = names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| format!("--freeze {name}: no such feature (features: {})", names.join(", ")))?;
        frozen[i] = true;
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda {}: must be between 0 and 1", args.lambda));
    }
    if !(args.rate > 0.0 && args.rate.is_finite()) {
        return Err(format!("--rate {}: must be positive", args.rate));
    }
    if !(args.discount >= 0.0 && args.discount.is_finite()) {
        return Err(format!(
            "--discount {}: must be 0 (none) or a positive number of positions",
            args.discount
        ));
    }
    let mut data = read_data(variant, args)?;
    discount_targets(&mut data.train.0, &data.game_of.0, args.discount);
    discount_targets(&mut data.held_out.0, &data.game_of.1, args.discount);
    let start: Vec<f64> = before.iter().map(|&w| w as f64).collect();
    let scale = match args.scale {
        Some(s) if s > 0.0 && s.is_finite() => s,
        Some(s) => return Err(format!("--scale {s}: must be positive")),
        None => fit::fit_scale(&data.train.0, &start),
    };
    mix_targets(&mut data.train.0, &data.train.1, args.lambda, scale);
    mix_targets(&mut data.held_out.0, &data.held_out.1, args.lambda, scale);
    let (train, held) = (&data.train.0, &data.held_out.0);
    let losses_of = |w: &[f64]| (fit::loss(train, w, scale), fit::loss(held, w, scale));
    let loss_before = losses_of(&start);
    let schedule = Schedule { epochs: args.epochs, rate: args.rate };
    let fitted = fit::fit_weights(train, &start, &frozen, scale, schedule, &mut |epoch, w| {
        eprintln!("tune: epoch {epoch}/{} training loss {:.6}", args.epochs, fit::loss(train, w, scale));
    });
    let after: Vec<i32> = fitted.iter().map(|w| w.round() as i32).collect();
    let rounded: Vec<f64> = after.iter().map(|&w| w as f64).collect();
    Ok(Tuned {
        names,
        before,
        after,
        scale,
        losses: [loss_before, losses_of(&rounded)],
        counts: [(train.len(), held.len()), data.games],
    })
}

/// The report of a run, for stdout.
pub fn report(variant: &str, t: &Tuned, scale_given: bool) -> String {
    let [(train, held), (train_games, held_games)] = t.counts;
    let how = if scale_given { "given" } else { "fitted to the current weights" };
    let mut out = format!(
        "tune: {variant}: {train} training positions ({train_games} games), {held} held out ({held_games} games), {} features\n\
         scale {:.2} ({how})\n\
         loss (cross-entropy)   training   held-out\n\
         \x20 current weights      {:.6}   {:.6}\n\
         \x20 tuned weights        {:.6}   {:.6}\n\
         feature                  current    tuned\n",
        t.names.len(),
        t.scale,
        t.losses[0].0,
        t.losses[0].1,
        t.losses[1].0,
        t.losses[1].1,
    );
    for ((name, b), a) in t.names.iter().zip(&t.before).zip(&t.after) {
        out.push_str(&format!("  {name:<22} {b:>7} {a:>8}\n"));
    }
    out
}

/// The weights file of `variant` holding `t.after` (the format of `src/impasse/weights.rs`).
pub fn render_weights(variant: &str, constant: &str, t: &Tuned, args: &TuneArgs) -> String {
    let [(train, held), (train_games, held_games)] = t.counts;
    let mut out = format!(
        "//! The evaluation weights of {variant}, generated by `steere tune` (docs/tuning.md): run\n\
         //! `steere tune --variant {variant} --data FILE --write` to regenerate this file.\n\
         //!\n\
         //! Generated by: {}\n\
         //! Data: {train} training positions of {train_games} games, {held} held-out positions of\n\
         //! {held_games} games; scale {:.2}.\n\
         //! Loss (cross-entropy, training / held-out): before {:.6} / {:.6}, after {:.6} / {:.6}.\n\
         \n\
         /// The evaluation weights of {variant}, one per feature of LinearEval::feature_names, in order.\n\
         pub const {constant}: [i32; {}] = [\n",
        args.command_line(),
        t.scale,
        t.losses[0].0,
        t.losses[0].1,
        t.losses[1].0,
        t.losses[1].1,
        t.after.len(),
    );
    // The comments line up one space after the longest `weight,`, as rustfmt aligns them, so
    // that a generated file passes `cargo fmt --check` as it is written.
    let items: Vec<String> = t.after.iter().map(|w| format!("{w},")).collect();
    let width = items.iter().map(String::len).max().unwrap_or(0);
    for (name, item) in t.names.iter().zip(&items) {
        out.push_str(&format!("    {item:<width$} // {name}\n"));
    }
    out.push_str("];\n");
    out
}

/// `steere tune`: fits the weights of `--variant`, prints the report, writes the file asked.
pub fn run(args: &TuneArgs) -> Result<(), String> {
    crate::with_variant!(board & args.variant, |variant| run_tune(variant, args))?
}

/// `steere tune` with the rules of the variant.
fn run_tune<G: LinearEval>(variant: Variant<G>, args: &TuneArgs) -> Result<(), String> {
    let tuned = tune(variant, args)?;
    crate::out!("{}", report(variant.name(), &tuned, args.scale.is_some()));
    let (own_file, constant) = G::weights_file(variant.params);
    let text = render_weights(variant.name(), constant, &tuned, args);
    let mut targets: Vec<&Path> = args.out.iter().map(|p| p.as_path()).collect();
    if args.write {
        if !Path::new(own_file).is_file() {
            return Err(format!("--write: {own_file} not found (run from the repository's root)"));
        }
        targets.push(Path::new(own_file));
    }
    for path in targets {
        std::fs::write(path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("tune: wrote {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_lines_parse_and_faults_are_named() {
        let line = parse_line("1W1b1W1b/b1W1b1W1/8/8/8/8/1B1w1B1w/w1B1w1B1 w;0.5;-12;7").unwrap();
        assert_eq!((line.result, line.score, line.game), (0.5, -12, 7));
        assert_eq!(line.fen, "1W1b1W1b/b1W1b1W1/8/8/8/8/1B1w1B1w/w1B1w1B1 w");
        assert!(parse_line("x;2;0;1").unwrap_err().contains("result"));
        assert!(parse_line("x;1;zz;1").unwrap_err().contains("score"));
        assert!(parse_line("x;1;0").unwrap_err().contains("3 fields"));
    }

    #[test]
    fn results_are_discounted_by_the_positions_left_in_their_game() {
        // Game 1: a win seen from both sides (1, 0, 1), game 2: one draw, game 3: a win.
        let mut samples = Samples::new(1);
        for target in [1.0, 0.0, 1.0, 0.5, 1.0] {
            samples.push(&[0], target);
        }
        discount_targets(&mut samples, &[1, 1, 1, 2, 3], 1.0);
        // With a half-life of one position: 2 positions from the end keep a quarter, 1 a half.
        assert_eq!(samples.targets, [0.625, 0.25, 1.0, 0.5, 1.0]);
        let mut untouched = samples.clone();
        discount_targets(&mut untouched, &[1, 1, 1, 2, 3], 0.0);
        assert_eq!(untouched.targets, samples.targets, "0 is no discount");
    }

    #[test]
    fn weight_comments_line_up_after_the_longest_weight() {
        let t = Tuned {
            names: vec!["a".into(), "b".into(), "c".into()],
            before: vec![0, 0, 0],
            after: vec![8, -150, 42],
            scale: 100.0,
            losses: [(0.5, 0.5), (0.4, 0.4)],
            counts: [(9, 1), (9, 1)],
        };
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            tune: TuneArgs,
        }
        let cli = <Cli as clap::Parser>::parse_from(["tune", "--variant", "impasse", "--data", "x"]);
        let text = render_weights("impasse", "W", &t, &cli.tune);
        assert!(text.contains("    8,    // a\n    -150, // b\n    42,   // c\n"), "{text}");
    }
}
