//! Helpers shared by the test targets: a seeded generator, random games and random small
//! positions.
//!
//! Each test target includes this module with `mod common;` and uses part of it, so unused-item
//! warnings are silenced here rather than in every target.
#![allow(dead_code)]

pub mod exact;

use steere::impasse::Position;

/// The seeded generator of the tools (SplitMix64), enough to pick random moves reproducibly.
pub use steere::tools::rng::SplitMix64 as Rng;

/// Plays uniformly random moves from `start` until the game ends; returns every position of the
/// game, `start` first and the finished position last.
pub fn random_game(start: Position, rng: &mut Rng) -> Vec<Position> {
    let mut game = vec![start];
    let mut pos = start;
    while !pos.is_game_over() {
        let moves = pos.legal_moves();
        pos = pos.make_move(moves[rng.below(moves.len())]);
        game.push(pos);
        assert!(game.len() <= 2_000, "a game that does not end: {}", pos.to_fen());
    }
    game
}

/// A random valid unfinished position with 1 to `per_side` pieces (singles or doubles) of each
/// colour on random dark squares and a random side to move. The FEN reader is the judge of
/// validity: a placement it rejects (a double on its owner's nearest row, say) is drawn again.
pub fn random_small_position(rng: &mut Rng, per_side: usize) -> Position {
    loop {
        let mut board = [['1'; 8]; 8];
        for colour in ['w', 'b'] {
            for _ in 0..1 + rng.below(per_side) {
                let square = rng.below(32);
                let (rank, file) = (square / 4, 2 * (square % 4) + (square / 4) % 2);
                board[rank][file] = if rng.below(2) == 0 { colour } else { colour.to_ascii_uppercase() };
            }
        }
        let ranks: Vec<String> = (0..8).rev().map(|r| board[r].iter().collect()).collect();
        let side = ["w", "b"][rng.below(2)];
        if let Ok(pos) = Position::from_fen(&format!("{} {side}", ranks.join("/")))
            && !pos.is_game_over()
        {
            return pos;
        }
    }
}

/// The path of a file in the project, for tests that read `positions/`.
pub fn project_file(relative: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// One line of `positions/impasse-perft.epd`: the FEN and the (depth, nodes) pairs.
pub struct PerftEntry {
    /// The position.
    pub fen: String,
    /// Expected perft counts, by depth.
    pub counts: Vec<(u32, u64)>,
}

/// Reads `positions/impasse-perft.epd` (`FEN ;D1 n ;D2 n ...`, `#` comments and blank lines skipped).
pub fn perft_suite() -> Vec<PerftEntry> {
    perft_suite_file("positions/impasse-perft.epd")
}

/// Reads a perft suite of the same form from the project file `name`.
pub fn perft_suite_file(name: &str) -> Vec<PerftEntry> {
    let path = project_file(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut fields = line.split(';');
            let fen = fields.next().unwrap().trim().to_string();
            let counts = fields
                .map(|op| {
                    let (depth, nodes) = op.trim().split_once(' ').expect("`Dn count`");
                    let depth = depth.strip_prefix('D').expect("depth as Dn").parse().unwrap();
                    (depth, nodes.trim().parse().unwrap())
                })
                .collect();
            PerftEntry { fen, counts }
        })
        .collect()
}

/// The environment variable that lets the suite generators rewrite their files.
pub const REGENERATE: &str = "STEERE_REGENERATE";

/// Writes `text` to the project file `name` when [`REGENERATE`] is set; otherwise checks that
/// the file holds exactly `text`, so that `cargo test -- --ignored` checks that a suite is
/// reproducible and never rewrites it by surprise.
pub fn reproduce_or_write(name: &str, text: String) {
    let path = project_file(name);
    if std::env::var_os(REGENERATE).is_some() {
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(current == text, "{name} is not reproduced; rewrite it with {REGENERATE}=1 if that is intended");
}

/// Splits the operations of an EPD line at the semicolons outside double quotes (a `c0`
/// comment may hold semicolons of its own); panics on an unterminated string.
pub fn operations(text: &str) -> Vec<&str> {
    let (mut out, mut start, mut quoted) = (Vec::new(), 0, false);
    for (i, ch) in text.char_indices() {
        match ch {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    assert!(!quoted, "an unterminated string in {text:?}");
    out.push(text[start..].trim());
    out.into_iter().filter(|op| !op.is_empty()).collect()
}

/// `n` with commas between groups of three digits, as the suite files' headers write counts.
pub fn thousands(n: impl Into<u64>) -> String {
    let digits = n.into().to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// The position lines of a suite file (`positions/NAME`), with their line numbers; checks that
/// a `# variant: VARIANT` comment comes before the first one.
pub fn suite_lines(name: &str, variant: &str) -> Vec<(usize, String)> {
    let path = project_file(&format!("positions/{name}"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let marker = format!("# variant: {variant}");
    let mut variant_seen = false;
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            variant_seen |= line.trim() == marker;
            continue;
        }
        assert!(variant_seen, "{name} line {}: a position before `{marker}`", i + 1);
        lines.push((i + 1, line.to_string()));
    }
    lines
}
