//! Criterion benchmarks of the search: fixed-depth searches of a few bench positions on one
//! thread (nodes per second is `steere bench`'s business; this tracks time per search).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use steere::impasse::Position;
use steere::search::{Limits, SearchControl, Searcher};
use steere::variants::{self, Variant};

fn search_benches(c: &mut Criterion) {
    let impasse = Variant::<Position> { info: variants::find("impasse").unwrap(), params: () };
    let positions = impasse.bench_positions();
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, index, depth) in [("start_d9", 0, 9), ("middlegame_d9", 10, 9), ("endgame_d11", 30, 11)] {
        let pos = positions[index];
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let mut searcher = Searcher::<Position>::new(16, 1);
        group.bench_function(name, |b| {
            b.iter(|| {
                searcher.new_game();
                black_box(searcher.search(&pos, &limits, &SearchControl::new(), &mut |_| {}))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, search_benches);
criterion_main!(benches);
