mod common;
mod solver;

use common::Rng;
use solver::Bounded;
use std::time::Instant;
use steere::impasse::{Color, Position};
use steere::search::{Limits, SearchControl, Searcher};

#[test]
#[ignore]
fn pilot_tactics() {
    let mut rng = Rng(11);
    let mut searcher = Searcher::<Position>::new(16, 1);
    let (mut found, mut tried) = (0, 0);
    let start = Instant::now();
    for g in 0..16 {
        let mut pos = Position::startpos();
        for _ in 0..4 { let m = pos.legal_moves(); pos = pos.make_move(m[rng.below(m.len())]); }
        searcher.new_game();
        let mut ply = 0;
        let strong = g % 2;
        while !pos.is_game_over() {
            let me = pos.side_to_move();
            let total = pos.checkers(Color::White) + pos.checkers(Color::Black);
            if pos.checkers(me) <= 5 && total >= 9 && pos.legal_moves().len() >= 4 {
                tried += 1;
                let mut b = Bounded::new();
                let t = Instant::now();
                let w = b.shortest_win(&pos, 13);
                if let Some(d) = w {
                    let win = b.moves_winning_within(&pos, d);
                    let slower = b.moves_winning_within(&pos, d + 4);
                    if win.len() == 1 { found += 1; }
                    println!("g{g} ply {ply} {} total {total} me {} moves {} -> {:?} nodes {} winning {} within+4 {} {:?}", pos.to_fen(), pos.checkers(me), pos.legal_moves().len(), w, b.nodes, win.len(), slower.len(), t.elapsed());
                }
            }
            let depth = if ply % 2 == strong { 5 } else { 1 };
            let limits = Limits { depth: Some(depth), ..Limits::default() };
            let r = searcher.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
            pos = pos.make_move(r.best_move.unwrap());
            ply += 1;
        }
    }
    println!("found {found} of {tried} in {:?}", start.elapsed());
}
