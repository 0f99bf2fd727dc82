//! criterion benches: one group per backend over fixed samples of the project's own
//! datasets, so `cargo bench` works on a fresh clone and regressions show in its reports.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sudoku_bench::Grid;
use sudoku_bench::{Backend, Limits};

/// The first `n` puzzles of a shipped `puzzle:count:solution` file.
fn sample(path: &str, n: usize) -> Vec<Grid> {
    let full = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
        .take(n)
        .map(|l| l[..81].parse().expect("dataset puzzles parse"))
        .collect()
}

fn backends(c: &mut Criterion) {
    let samples = [
        ("generated-100", sample("datasets/generated-3000.txt", 100)),
        ("poj3074-sample", sample("datasets/poj3074-sample.in", 2)),
    ];
    let limits = Limits::default();
    for backend in Backend::ALL {
        let mut group = c.benchmark_group(backend.name());
        for (name, puzzles) in &samples {
            // Naive backtracking is slow: fewer samples keep `cargo bench` short.
            if backend == Backend::Dfs {
                group.sample_size(10);
            }
            group.throughput(Throughput::Elements(puzzles.len() as u64));
            let mut solver = backend.new_solver();
            group.bench_with_input(BenchmarkId::from_parameter(name), puzzles, |b, puzzles| {
                b.iter(|| {
                    for p in puzzles {
                        black_box(solver.solve(black_box(p), &limits));
                    }
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, backends);
criterion_main!(benches);
