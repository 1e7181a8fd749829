//! Strength levels and MultiPV over the protocol, in every variant: a level's game is legal
//! and the same again with the same `Seed`; `UCI_LimitStrength` with `UCI_Elo` plays the level
//! the variant's measured table gives; `MultiPV N` prints N lines per depth, numbered, of
//! distinct legal first moves with legal lines and ordered scores. The dice are the test's own
//! (`common::Rng`), every step is checked by the rules.

use super::common::Rng;
use super::pipe::Engine;
use super::shared;
use steere::game::{Node, Rules};
use steere::variants::{Family, VARIANTS, Variant};

/// An engine playing `variant` with `options` set.
fn engine_with(variant: &str, options: &[(&str, String)]) -> Engine {
    let mut engine = Engine::start(&[]);
    engine.send("uci");
    engine.until("uciok", |l| l == "uciok");
    engine.send(&format!("setoption name UCI_Variant value {variant}"));
    for (name, value) in options {
        engine.send(&format!("setoption name {name} value {value}"));
    }
    engine.send("ucinewgame");
    engine.sync_quiet();
    engine
}

/// The command that sets up the game after `steps`.
fn position_command(steps: &[String]) -> String {
    if steps.is_empty() {
        "position startpos".to_string()
    } else {
        format!("position startpos moves {}", steps.join(" "))
    }
}

/// Plays up to `plies` steps of `variant` from its start: the engine decides with `go`, the
/// test rolls the dice; every `bestmove` must be a legal step. Returns the steps.
fn protocol_game<G: Rules>(
    variant: &Variant<G>,
    options: &[(&str, String)],
    go: &str,
    plies: usize,
) -> Vec<String> {
    let mut engine = engine_with(variant.name(), options);
    let mut rng = Rng(99);
    let mut pos = variant.start();
    let mut steps: Vec<String> = Vec::new();
    while steps.len() < plies {
        let step = match pos.node() {
            Node::Over => break,
            Node::Chance => pos.chance_step(rng.below(pos.chance_total() as usize) as u32).unwrap(),
            Node::Decision => {
                engine.send(&position_command(&steps));
                engine.send(go);
                let lines = engine.until("bestmove", |l| l.starts_with("bestmove "));
                let text = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
                let step =
                    pos.parse_step(&text).unwrap_or_else(|e| engine.fail(&format!("{e} after {steps:?}")));
                assert!(
                    pos.legal_steps().contains(&step),
                    "{}: illegal {text} after {steps:?}",
                    variant.name()
                );
                step
            }
        };
        pos = pos.play(step);
        steps.push(step.to_string());
    }
    engine.finish();
    steps
}

/// The `go` of a level's games: full strength at a small budget (a dice game: a shallow one).
fn go_of<G: Rules>(variant: &Variant<G>) -> &'static str {
    if variant.info.family == Family::Dice { "go depth 2" } else { "go nodes 20000" }
}

fn levels_reproduce<G: Rules>(variant: Variant<G>) {
    let go = go_of(&variant);
    let level = |level: u32, seed: u64| vec![("Skill Level", level.to_string()), ("Seed", seed.to_string())];
    for skill in [0, 4] {
        let first = protocol_game(&variant, &level(skill, 7), go, 30);
        assert_eq!(
            first,
            protocol_game(&variant, &level(skill, 7), go, 30),
            "{} level {skill}",
            variant.name()
        );
        if skill == 0 {
            // The weakest level errs by its whole candidates' spread: another seed, another game.
            assert_ne!(
                first,
                protocol_game(&variant, &level(0, 8), go, 30),
                "{}: seed ignored",
                variant.name()
            );
        }
    }
    let full = protocol_game(&variant, &[], go, 30);
    let weakest = protocol_game(&variant, &level(0, 7), go, 30);
    assert_ne!(full, weakest, "{}: level 0 plays as full strength", variant.name());
    // UCI_Elo plays the level of the variant's table: its weakest level at the bottom.
    let table = steere::levels::elo_table(variant.info.levels);
    if let Some(&(level, elo)) = table.iter().find(|&&(level, _)| level == 0) {
        let limited = vec![
            ("UCI_LimitStrength", "true".to_string()),
            ("UCI_Elo", elo.to_string()),
            ("Seed", "7".to_string()),
        ];
        assert_eq!(
            protocol_game(&variant, &limited, go, 30),
            weakest,
            "{}: UCI_Elo {elo} is level {level}",
            variant.name()
        );
    }
}

#[test]
fn a_level_plays_legal_games_that_its_seed_reproduces_in_every_variant() {
    let _suite = shared();
    for info in &VARIANTS {
        steere::with_variant!(info.name, |variant, _search| levels_reproduce(variant)).unwrap();
    }
}

/// A score word pair (`cp X` / `mate N`) as a number that orders them: mates beyond every cp.
fn score_order(kind: &str, value: i64) -> i64 {
    match kind {
        "mate" if value > 0 => 1_000_000 - value,
        "mate" => -1_000_000 - value,
        _ => value,
    }
}

fn multipv_lines<G: Rules>(variant: Variant<G>) {
    let mut engine = engine_with(variant.name(), &[("MultiPV", "3".to_string())]);
    // A dice game starts with a roll: the first decision comes after it.
    let (mut pos, mut steps) = (variant.start(), Vec::new());
    while pos.node() == Node::Chance {
        let roll = pos.chance_step(0).unwrap();
        steps.push(roll.to_string());
        pos = pos.play(roll);
    }
    engine.send(&position_command(&steps));
    let go = if variant.info.family == Family::Dice { "go depth 2" } else { "go depth 4" };
    engine.send(go);
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove "));
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
    let mut by_depth: std::collections::BTreeMap<u32, Vec<(usize, i64, String)>> = Default::default();
    for info in &infos {
        let words: Vec<&str> = info.split(' ').collect();
        let at = |key: &str| words.iter().position(|w| *w == key).map(|i| words[i + 1]);
        let depth: u32 = at("depth").unwrap().parse().unwrap();
        let k: usize =
            at("multipv").unwrap_or_else(|| engine.fail(&format!("no multipv: {info}"))).parse().unwrap();
        let score_at = words.iter().position(|w| *w == "score").unwrap();
        let score = score_order(words[score_at + 1], words[score_at + 2].parse().unwrap());
        let pv_at = words.iter().position(|w| *w == "pv").unwrap();
        // Each line is legal from the root.
        let mut walk = pos;
        for text in &words[pv_at + 1..] {
            let step = walk.parse_step(text).unwrap_or_else(|e| engine.fail(&format!("{e} in {info}")));
            walk = walk.play(step);
        }
        by_depth.entry(depth).or_default().push((k, score, words[pv_at + 1].to_string()));
    }
    assert!(!by_depth.is_empty(), "{}: no info lines: {lines:?}", variant.name());
    let legal = pos.legal_steps().len();
    for (depth, rows) in &by_depth {
        let numbers: Vec<usize> = rows.iter().map(|r| r.0).collect();
        assert_eq!(numbers, (1..=3.min(legal)).collect::<Vec<_>>(), "{} depth {depth}", variant.name());
        let mut firsts: Vec<&String> = rows.iter().map(|r| &r.2).collect();
        firsts.sort();
        firsts.dedup();
        assert_eq!(firsts.len(), rows.len(), "{} depth {depth}: a move twice", variant.name());
        assert!(rows.windows(2).all(|w| w[0].1 >= w[1].1), "{} depth {depth}: {rows:?}", variant.name());
    }
    let best = lines.last().unwrap().split(' ').nth(1).unwrap();
    let last_depth = by_depth.values().last().unwrap();
    assert_eq!(best, last_depth[0].2, "{}: bestmove is not line 1", variant.name());
    engine.finish();
}

#[test]
fn multipv_prints_numbered_ordered_legal_lines_in_every_variant() {
    let _suite = shared();
    for info in &VARIANTS {
        steere::with_variant!(info.name, |variant, _search| multipv_lines(variant)).unwrap();
    }
}
