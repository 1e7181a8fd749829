mod common;
mod solver;

use common::{Rng, random_game};
use solver::Solver;
use std::fmt::Write;
use steere::impasse::{Color, Position};

fn constructed(rng: &mut Rng, max_pieces: usize) -> Position {
    loop {
        let mut board = [['1'; 8]; 8];
        for colour in ['w', 'b'] {
            for _ in 0..1 + rng.below(max_pieces) {
                let sq = rng.below(32);
                let (rank, file) = (sq / 4, 2 * (sq % 4) + (sq / 4) % 2);
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

#[test]
#[ignore]
fn pilot() {
    let mut rng = Rng(7);
    let mut out = String::new();
    let mut solver = Solver::new(4_000_000);
    for i in 0..1500 {
        let pos = if i % 2 == 0 {
            constructed(&mut rng, 2 + i % 3)
        } else {
            let game = random_game(Position::startpos(), &mut rng);
            let tail: Vec<_> = game.iter().filter(|p| !p.is_game_over() && p.checkers(Color::White) <= 4 && p.checkers(Color::Black) <= 4).collect();
            if tail.is_empty() { continue }
            *tail[rng.below(tail.len())]
        };
        solver.clear();
        if let Some(a) = solver.analyse(&pos) {
            writeln!(out, "{} {}; id \"p{i}\"", pos.to_fen(), a.value.epd()).unwrap();
        }
    }
    std::fs::write("/tmp/pilot.epd", out).unwrap();
}
