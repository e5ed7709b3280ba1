//! The solver's speed, each against a baseline run in the same process.
//!
//! - [GM09] Example 8.12 in misère play, all positions of weight ≤ L under ℓ = (1, 2, 3, 4, 5):
//!   the row solver, and the straightforward memoized (hash map) solver on the same region.
//!   Criterion reports time per iteration; the position counts are printed first, so positions
//!   per second is count / time.
//! - Peak memory per position, measured around one solve (the resident high-water mark, reset
//!   before it): [GM09] Example 8.12 at weight 300 (long rows) and misère Kayles as a lattice game
//!   on N^9 (short rows, 15 positions each), the second also timed.
//! - Squarefree normal play on N^24 (2^24 positions of {0,1}^24) by the Erratum's algorithm,
//!   against the same positions solved one at a time by the memoized solver on a smaller d.

use criterion::{black_box, criterion_group, criterion_main, Criterion};

mod common;

use lattice_games::algebra::{Integer, Vector};
use lattice_games::game::solver::{squarefree_p0, MemoSolver, Region, Solution, SolveOptions};
use lattice_games::game::{GameBoard, LatticeGame, RuleSet};

fn options() -> SolveOptions<'static> {
    SolveOptions {
        functional: Some(Vector::from_i64s(&[1, 2, 3, 4, 5])),
        ..SolveOptions::default()
    }
}

/// Every position of weight ≤ L, solved one at a time by the memoized solver.
fn memo_solve(game: &LatticeGame, l: i64) -> usize {
    let mut memo = MemoSolver::new(game).unwrap();
    let mut p_count = 0;
    let mut p = [0i64; 5];
    // All x with x1 + 2x2 + 3x3 + 4x4 + 5x5 ≤ L.
    for x5 in 0..=l / 5 {
        for x4 in 0..=(l - 5 * x5) / 4 {
            for x3 in 0..=(l - 5 * x5 - 4 * x4) / 3 {
                for x2 in 0..=(l - 5 * x5 - 4 * x4 - 3 * x3) / 2 {
                    for x1 in 0..=(l - 5 * x5 - 4 * x4 - 3 * x3 - 2 * x2) {
                        p = [x1, x2, x3, x4, x5];
                        if memo.outcome(&p).unwrap() == lattice_games::game::solver::Outcome::P {
                            p_count += 1;
                        }
                    }
                }
            }
        }
    }
    black_box(p);
    p_count
}

/// Kayles (octal 0.77) with heaps up to 9 as a misère lattice game on N^9.
fn kayles_lattice_game() -> LatticeGame {
    let code = lattice_games::game::take_break::HeapCode::parse("0.77").unwrap();
    lattice_games::game::heap::HeapGame::from_code(&code, 9)
        .lattice_game(true)
        .unwrap()
}

fn bench(c: &mut Criterion) {
    let game = lattice_games::game::papers::gm09_example_8_12();
    let kayles = kayles_lattice_game();
    for (name, g, l, ell) in [
        ("Example 8.12", &game, 100i64, Some(options())),
        ("Example 8.12", &game, 300, Some(options())),
        ("misère Kayles on N^9", &kayles, 100, None),
    ] {
        let (sol, peak) = common::peak_rss_during(|| {
            Solution::solve(
                g,
                &Region::Weight(Integer::from(l)),
                ell.unwrap_or_default(),
            )
            .unwrap()
        });
        let (p, all) = sol.counts();
        let peak = match peak {
            Some(b) => format!(
                "peak RSS {:.1} MiB ({:.2} bits per position)",
                b as f64 / (1 << 20) as f64,
                b as f64 * 8.0 / all as f64
            ),
            None => "peak RSS not measured (no /proc/self/clear_refs)".into(),
        };
        eprintln!(
            "{name}, weight ≤ {l}: {all} positions, {p} P-positions, table {} bytes ({:.3} bits per position), {peak}",
            sol.memory(),
            sol.memory() as f64 * 8.0 / all as f64
        );
    }
    let mut group = c.benchmark_group("Example 8.12 misère, weight ≤ 100");
    group.sample_size(10);
    group.bench_function("row solver", |b| {
        b.iter(|| Solution::solve(&game, &Region::Weight(100.into()), options()).unwrap())
    });
    group.bench_function("memoized hash-map solver", |b| {
        b.iter(|| memo_solve(&game, 100))
    });
    group.finish();

    let mut group = c.benchmark_group("Example 8.12 misère, weight ≤ 300");
    group.sample_size(10);
    group.bench_function("row solver", |b| {
        b.iter(|| Solution::solve(&game, &Region::Weight(300.into()), options()).unwrap())
    });
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    group.bench_function("row solver, one thread", |b| {
        b.iter(|| {
            one.install(|| Solution::solve(&game, &Region::Weight(300.into()), options()).unwrap())
        })
    });
    group.finish();

    let mut group = c.benchmark_group("misère Kayles on N^9 (short rows), weight ≤ 100");
    group.sample_size(10);
    group.bench_function("row solver", |b| {
        b.iter(|| {
            Solution::solve(
                &kayles,
                &Region::Weight(100.into()),
                SolveOptions::default(),
            )
            .unwrap()
        })
    });
    group.finish();

    // Squarefree: a heap-like rule set on N^24 (take one heap of size i, leave one of size i - 1
    // or i - 2, or nothing).
    let d = 24;
    let mut moves = Vec::new();
    for i in 0..d {
        moves.push(Vector::unit(d, i));
        for back in 1..=2 {
            if i >= back {
                let mut m = vec![0i64; d];
                m[i] = 1;
                m[i - back] = -1;
                moves.push(Vector::from_i64s(&m));
            }
        }
    }
    let game = LatticeGame::new(
        RuleSet::new(moves).unwrap(),
        GameBoard::normal_play(d).unwrap(),
    )
    .unwrap();
    let mut group = c.benchmark_group("squarefree normal play, d = 24");
    group.sample_size(10);
    group.bench_function("Erratum algorithm (2^24 positions)", |b| {
        b.iter(|| squarefree_p0(&game).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
