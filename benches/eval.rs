//! Evaluation benchmark (criterion): Impasse's static evaluation over the bench positions and
//! every position one move from them (openings to bare endings).
//!
//! `cargo bench --bench eval`. The search's nodes per second (`steere bench`) depend on this
//! cost, and on a shared machine a nodes-per-second figure moves by 15% from run to run; this
//! isolates the evaluation so that a change to it can be compared with criterion's baselines
//! (`-- --save-baseline before`, then `-- --baseline before`).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use steere::game::Game;
use steere::impasse::Position;
use steere::variants::{self, Variant};

/// The bench positions of `steere bench --variant impasse` and their children.
fn positions() -> Vec<Position> {
    let impasse = Variant::<Position> { info: variants::find("impasse").unwrap(), params: () };
    let roots = impasse.bench_positions();
    let mut all = roots.clone();
    for pos in &roots {
        all.extend(pos.legal_moves().iter().map(|&mv| pos.make_move(mv)));
    }
    all
}

fn evaluation(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("eval");
    group.bench_function(format!("impasse/{}_positions", positions.len()), |b| {
        b.iter(|| black_box(&positions).iter().map(|p| p.evaluate()).fold(0i32, |a, v| a.wrapping_add(v)))
    });
    group.finish();
}

criterion_group!(benches, evaluation);
criterion_main!(benches);
