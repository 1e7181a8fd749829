//! Move generation and perft benchmarks (criterion).
//!
//! `cargo bench --bench movegen` measures, on a few typical positions: full generation of the
//! legal moves, bulk counting, making every move, and perft from the start position. The
//! headline perft speed (leaf moves per second) is also printed by `steere perft --depth 7`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use steere::impasse::Position;
use steere::tools::perft::perft;

/// Typical positions: the start, a middle game with crown choices, an endgame with a waiting
/// single, and an impasse.
const POSITIONS: [(&str, &str); 4] = [
    ("start", "1W1b1W1b/b1W1b1W1/8/8/8/8/1B1w1B1w/w1B1w1B1 w"),
    ("middlegame", "1W1b3b/2w1b1W1/1w6/2B1B3/1W6/2w1B3/3w1B1w/8 w"),
    ("waiting", "3w4/W3B1B1/1B1W1W2/4W1B1/3B4/W7/1B6/8 w"),
    ("impasse", "8/8/8/8/8/2W5/1B1b4/w7 w"),
];

fn movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    for (name, fen) in POSITIONS {
        let pos = Position::from_fen(fen).expect("benchmark FEN is valid");
        group.bench_function(format!("generate/{name}"), |b| b.iter(|| black_box(&pos).legal_moves()));
        group.bench_function(format!("count/{name}"), |b| b.iter(|| black_box(&pos).count_moves()));
        let moves = pos.legal_moves();
        group.bench_function(format!("make_all/{name}"), |b| {
            b.iter(|| moves.iter().map(|&mv| black_box(&pos).make_move(mv).hash()).fold(0, |a, h| a ^ h))
        });
    }
    group.finish();
}

fn perft_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let start = Position::startpos();
    for depth in [4, 5] {
        group.bench_function(format!("start/depth{depth}"), |b| b.iter(|| perft(black_box(&start), depth)));
    }
    group.finish();
}

criterion_group!(benches, movegen, perft_bench);
criterion_main!(benches);
