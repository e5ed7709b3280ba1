//! Benchmarks of the language layer, each against a baseline run in the same process:
//! - exact integer dot products with the machine-word fast path of `Integer`, against plain `BigInt`
//!   (the ratio is what the fast path buys the solver and the algebra);
//! - reading the largest paper example ([GM09] Example 8.12, 89 module generators), against
//!   reading the tour, and running the brute-force solver script of Examples 8.2/8.7.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use num_bigint::BigInt;

use lattice_games::algebra::{Integer, Vector};
use lattice_games::eval::Interpreter;
use lattice_games::syntax::{parse_program, SourceId};

fn dot_products(c: &mut Criterion) {
    let n = 1000;
    let ours: Vec<(Vector, Vector)> = (0..n)
        .map(|i| {
            let a: Vec<i64> = (0..8).map(|j| (i * 7 + j * 13) % 41 - 20).collect();
            let b: Vec<i64> = (0..8).map(|j| (i * 11 + j * 5) % 37 - 18).collect();
            (Vector::from_i64s(&a), Vector::from_i64s(&b))
        })
        .collect();
    let baseline: Vec<(Vec<BigInt>, Vec<BigInt>)> = ours
        .iter()
        .map(|(a, b)| {
            (
                a.0.iter().map(Integer::to_bigint).collect(),
                b.0.iter().map(Integer::to_bigint).collect(),
            )
        })
        .collect();
    let mut group = c.benchmark_group("dot products of 1000 pairs in Z^8");
    group.bench_function("Integer (i64 fast path)", |bench| {
        bench.iter(|| {
            let mut acc = Integer::ZERO;
            for (a, b) in &ours {
                acc = acc + a.dot(b);
            }
            black_box(acc)
        })
    });
    group.bench_function("BigInt baseline", |bench| {
        bench.iter(|| {
            let mut acc = BigInt::from(0);
            for (a, b) in &baseline {
                for (x, y) in a.iter().zip(b) {
                    acc += x * y;
                }
            }
            black_box(acc)
        })
    });
    group.finish();
}

fn scripts(c: &mut Criterion) {
    let example_8_12 = include_str!("../examples/gm09_example_8_12_stratification.lg");
    let tour = include_str!("../examples/tour.lg");
    let example_8_7 = include_str!("../examples/gm09_example_8_7_nim_strategies.lg");
    let mut group = c.benchmark_group("scripts");
    group.bench_function("parse [GM09] Example 8.12", |b| {
        b.iter(|| black_box(parse_program(example_8_12, SourceId(0))))
    });
    group.bench_function("parse the tour (baseline)", |b| {
        b.iter(|| black_box(parse_program(tour, SourceId(0))))
    });
    group.bench_function("run [GM09] Example 8.12", |b| {
        b.iter(|| {
            let mut interp = Interpreter::with_output(Box::new(std::io::sink()));
            black_box(interp.run("8.12", example_8_12).is_ok())
        })
    });
    group.bench_function(
        "run Examples 8.2/8.7 with the brute-force solver in .lg",
        |b| {
            b.iter(|| {
                let mut interp = Interpreter::with_output(Box::new(std::io::sink()));
                black_box(interp.run("8.7", example_8_7).is_ok())
            })
        },
    );
    group.finish();
}

criterion_group!(benches, dot_products, scripts);
criterion_main!(benches);
