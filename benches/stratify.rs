//! `stratify` (search and certification) and `verify` alone on the papers' games, beside a
//! baseline in the same process: the table solver on the positions of weight ≤ 32, which is what a
//! user would run to look at the P-positions by hand (and which proves nothing beyond them).

use criterion::{black_box, criterion_group, criterion_main, Criterion};

use lattice_games::algebra::{Integer, StratifiedSet, Vector};
use lattice_games::game::solver::{Region, Solution, SolveOptions};
use lattice_games::game::stratify::{stratify, Stratified, StratifyOptions};
use lattice_games::game::verify::verify;
use lattice_games::game::{GameBoard, LatticeGame, RuleSet};

fn game(moves: &[&[i64]], misere: bool) -> LatticeGame {
    let d = moves[0].len();
    let rules = RuleSet::new(moves.iter().map(|m| Vector::from_i64s(m)).collect()).expect("moves");
    let board = if misere {
        GameBoard::misere(d)
    } else {
        GameBoard::normal_play(d)
    }
    .expect("a board");
    LatticeGame::new(rules, board).expect("a game")
}

fn bench(c: &mut Criterion) {
    let games: Vec<(&str, LatticeGame)> = vec![
        (
            "Nim(2), normal play",
            game(&[&[1, 0], &[0, 1], &[-1, 1]], false),
        ),
        (
            "Nim(2), misère play",
            game(&[&[1, 0], &[0, 1], &[-1, 1]], true),
        ),
        (
            "[Guo11] Remark 4.12, {(1,0),(0,2)}",
            game(&[&[1, 0], &[0, 2]], false),
        ),
        (
            "the Erratum's {e1,e2,e3,(1,1,0)}, normal play",
            game(&[&[1, 0, 0], &[0, 1, 0], &[0, 0, 1], &[1, 1, 0]], false),
        ),
        (
            "[Guo11] Remark 4.12, {(1,0),(0,1),(2,2)}",
            game(&[&[1, 0], &[0, 1], &[2, 2]], false),
        ),
        (
            "[GM09] Example 8.12, misère play",
            lattice_games::game::papers::gm09_example_8_12(),
        ),
    ];
    for (name, g) in games {
        let found = match stratify(&g, &StratifyOptions::default(), &mut |_| {}).expect("runs") {
            Stratified::Found { stratification, .. } => stratification,
            Stratified::NotFound { tried, .. } => panic!("{name}: nothing found: {tried:?}"),
        };
        let set = StratifiedSet::from_stratification(&found)
            .expect("a set")
            .expect("disjoint");
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        if g.dim() == 5 {
            // About ten seconds an iteration: the fewest samples criterion takes, without warm-up.
            group.warm_up_time(std::time::Duration::from_millis(1));
            group.measurement_time(std::time::Duration::from_secs(60));
        }
        group.bench_function("stratify (search and certify)", |b| {
            b.iter(|| black_box(stratify(&g, &StratifyOptions::default(), &mut |_| {})))
        });
        group.bench_function("verify the stratification found", |b| {
            b.iter(|| black_box(verify(&g, &set).expect("runs")))
        });
        group.bench_function("baseline: solve the positions of weight ≤ 32", |b| {
            b.iter(|| {
                black_box(
                    Solution::solve(
                        &g,
                        &Region::Weight(Integer::from(32)),
                        SolveOptions::default(),
                    )
                    .expect("solves"),
                )
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
