mod common;
mod solver;

use common::{Rng, random_game};
use solver::Solver;
use std::time::Instant;
use steere::impasse::{Color, Position};

#[test]
#[ignore]
fn explore() {
    let mut rng = Rng(1);
    for total in [6u32, 8, 10, 12, 14, 16, 18] {
        for g in 0..6 {
            let game = random_game(Position::startpos(), &mut rng);
            let Some(pos) = game.iter().find(|p| p.checkers(Color::White) + p.checkers(Color::Black) <= total) else { continue };
            let mut solver = Solver::new(30_000_000);
            let t = Instant::now();
            let a = solver.analyse(pos);
            println!("total {total} game {g} {} -> {:?} stored {} in {:?}", pos.to_fen(), a.map(|a| (a.value, a.winning.len(), a.fastest.len())), solver.len(), t.elapsed());
        }
    }
}
