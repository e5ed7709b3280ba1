//! The exact algebra engine against Normaliz, on the same inputs, in the same process.
//!
//! For each input cone we time our rays → facets and facets → rays conversions and the Hilbert
//! basis, and Normaliz computing the same (`normaliz -s`: support hyperplanes and extreme rays;
//! `normaliz -N`: Hilbert basis) as a child process. Normaliz's time includes starting a process, so
//! a trivial input is timed too: subtract it to compare the computations alone. When `normaliz` is
//! not installed, only our side runs. The last inputs are the shapes of issue 17 (random cones in
//! d = 6–8 with 10 generators and entries up to 8), where the comparison is the Hilbert basis
//! against `normaliz -N -x=1` (one thread, as ours).

mod common;

use std::process::Command;

use criterion::{black_box, criterion_group, criterion_main, Criterion};

use lattice_games::algebra::hilbert::hilbert_basis;
use lattice_games::algebra::polyhedral::ConeData;
use lattice_games::algebra::Vector;

struct Input {
    name: &'static str,
    d: usize,
    generators: Vec<Vector>,
}

fn inputs() -> Vec<Input> {
    let v = |xs: &[i64]| Vector::from_i64s(xs);
    // A deterministic pseudo-random generator (xorshift), so the inputs are the same every run.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |m: i64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % (2 * m as u64 + 1)) as i64 - m
    };
    let mut random_pointed = |d: usize, n: usize| -> Vec<Vector> {
        // Shift into the positive orthant's neighbourhood so the cone is pointed.
        (0..n)
            .map(|_| {
                Vector::from_i64s(
                    &(0..d)
                        .map(|_| next(3) + 2)
                        .map(|x| x.max(0))
                        .collect::<Vec<_>>(),
                )
            })
            .filter(|g| !g.is_zero())
            .collect()
    };
    vec![
        Input {
            name: "[GM09] Example 2.4 rule set, d=2",
            d: 2,
            generators: vec![v(&[1, 0]), v(&[0, 1]), v(&[-1, 1])],
        },
        Input {
            name: "[GM09] Example 8.12 rule set, d=5",
            d: 5,
            generators: vec![
                v(&[1, 0, 0, 0, 0]),
                v(&[0, 1, 0, 0, 0]),
                v(&[0, 0, 0, 1, 0]),
                v(&[0, 0, 0, 0, 1]),
                v(&[-1, 1, 0, 0, 0]),
                v(&[0, -1, 1, 0, 0]),
                v(&[0, 0, -1, 1, 0]),
                v(&[0, 0, 0, -1, 1]),
            ],
        },
        Input {
            name: "random pointed, d=4, 8 generators",
            d: 4,
            generators: random_pointed(4, 8),
        },
        Input {
            name: "random pointed, d=5, 10 generators",
            d: 5,
            generators: random_pointed(5, 10),
        },
        Input {
            name: "random pointed, d=6, 12 generators",
            d: 6,
            generators: random_pointed(6, 12),
        },
        // The shapes of issue 17: 10 generators with entries 0..=m (so the cone is pointed).
        Input {
            name: "random, d=6, 10 generators, entries ≤ 8 (a)",
            d: 6,
            generators: random_nonnegative(6, 10, 8, 1),
        },
        Input {
            name: "random, d=6, 10 generators, entries ≤ 8 (b)",
            d: 6,
            generators: random_nonnegative(6, 10, 8, 2),
        },
        Input {
            name: "random, d=7, 10 generators, entries ≤ 8",
            d: 7,
            generators: random_nonnegative(7, 10, 8, 3),
        },
        Input {
            name: "random, d=8, 10 generators, entries ≤ 6",
            d: 8,
            generators: random_nonnegative(8, 10, 6, 4),
        },
    ]
}

/// n generators in Z^d with entries 0..=m, from a seeded xorshift generator (full-dimensional
/// with these seeds).
fn random_nonnegative(d: usize, n: usize, m: u64, seed: u64) -> Vec<Vector> {
    let mut state: u64 = 0x2545_F491_4F6C_DD1D ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % (m + 1)) as i64
    };
    (0..n)
        .map(|_| Vector::from_i64s(&(0..d).map(|_| next()).collect::<Vec<_>>()))
        .filter(|g| !g.is_zero())
        .collect()
}

fn run_normaliz(dir: &std::path::Path, d: usize, gens: &[Vector], flag: &str) {
    let mut text = format!("amb_space {d}\ncone {}\n", gens.len());
    for g in gens {
        let row: Vec<String> = g.0.iter().map(|x| x.to_string()).collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    let file = dir.join("bench.in");
    std::fs::write(&file, text).expect("write normaliz input");
    let status = Command::new("normaliz")
        .arg(flag)
        .arg("-x=1")
        .arg(&file)
        .output()
        .expect("normaliz runs");
    assert!(
        status.status.success(),
        "normaliz failed: {}",
        String::from_utf8_lossy(&status.stderr)
    );
}

fn bench(c: &mut Criterion) {
    let with_normaliz = common::normaliz_installed();
    if !with_normaliz {
        eprintln!("normaliz is not installed: timing only lattice-games");
    }
    let dir = std::env::temp_dir().join(format!("lg-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    if with_normaliz {
        let mut group = c.benchmark_group("normaliz process start-up");
        group.sample_size(20);
        group.bench_function("normaliz on a trivial cone (d=1)", |b| {
            b.iter(|| run_normaliz(&dir, 1, &[Vector::from_i64s(&[1])], "-s"))
        });
        group.finish();
    }
    for input in inputs() {
        let mut group = c.benchmark_group(input.name);
        group.sample_size(if input.d >= 6 { 10 } else { 20 });
        let data = ConeData::from_generators(input.d, &input.generators).expect("a cone");
        group.bench_function("lattice-games: rays → facets", |b| {
            b.iter(|| {
                black_box(ConeData::from_generators(input.d, &input.generators).expect("a cone"))
            })
        });
        group.bench_function("lattice-games: facets → rays", |b| {
            b.iter(|| {
                black_box(ConeData::from_inequalities(input.d, data.facets()).expect("a cone"))
            })
        });
        if data.is_pointed() {
            group.bench_function("lattice-games: Hilbert basis", |b| {
                b.iter(|| {
                    black_box(hilbert_basis(input.d, &input.generators, None).expect("pointed"))
                })
            });
        }
        if with_normaliz {
            group.bench_function("normaliz: support hyperplanes and extreme rays (-s)", |b| {
                b.iter(|| run_normaliz(&dir, input.d, &input.generators, "-s"))
            });
            if data.is_pointed() {
                group.bench_function("normaliz: Hilbert basis (-N)", |b| {
                    b.iter(|| run_normaliz(&dir, input.d, &input.generators, "-N"))
                });
            }
        }
        group.finish();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
