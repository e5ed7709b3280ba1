//! `count` of rational polytopes (Barvinok's short generating functions, `algebra::barvinok`)
//! against Normaliz's `NumberLatticePoints` on seeded random polytopes in d = 3, 4 and 5: a box
//! cut by random rational half-spaces, given to Normaliz as `inhom_inequalities` (rows (a, −b)
//! for a·x ≥ b, b cleared of denominators row by row).

mod reference_tools;

use lattice_games::algebra::barvinok::ShortForm;
use lattice_games::algebra::{Integer, Matrix, Polyhedron};
use num_bigint::BigInt;
use num_rational::BigRational;
use reference_tools::Rng;

/// Normaliz's count of lattice points, or None when it could not run.
fn normaliz_count(d: usize, rows: &[(Vec<i64>, i64, i64)]) -> Option<BigInt> {
    // a·x ≥ num/den  ⇔  den·a·x − num ≥ 0.
    let input: Vec<Vec<i64>> = rows
        .iter()
        .map(|(a, num, den)| a.iter().map(|x| x * den).chain([-num]).collect())
        .collect();
    let out = reference_tools::normaliz::run(
        d,
        "inhom_inequalities",
        &input,
        &[],
        &["--NumberLatticePoints"],
    )?;
    if out.text.contains("polyhedron is empty") || out.text.contains("empty polyhedron") {
        return Some(BigInt::from(0));
    }
    out.text.lines().find_map(|l| {
        l.trim()
            .strip_suffix("lattice points in polytope (module generators)")?
            .trim()
            .parse()
            .ok()
    })
}

#[test]
fn counts_agree_with_normaliz() {
    if !reference_tools::require("normaliz") {
        return;
    }
    let mut rng = Rng(0x5eed_2029);
    let mut compared = 0;
    for case in 0..40 {
        let d = 3 + case % 3;
        let mut rows: Vec<(Vec<i64>, i64, i64)> = Vec::new();
        // A box [−s, s]^d keeps it bounded; the cuts make vertices rational and cones deep.
        let s = rng.next(2, 6);
        for i in 0..d {
            let mut e = vec![0; d];
            e[i] = 1;
            rows.push((e.clone(), -s, 1));
            e[i] = -1;
            rows.push((e, -s, 1));
        }
        for _ in 0..rng.next(1, 4) {
            let a: Vec<i64> = (0..d).map(|_| rng.next(-5, 5)).collect();
            if a.iter().all(|&x| x == 0) {
                continue;
            }
            rows.push((a, rng.next(-40, 5), rng.next(1, 7)));
        }
        let p = Polyhedron::from_inequalities(
            Matrix::from_rows(
                rows.iter()
                    .map(|(a, _, _)| a.iter().map(|&x| Integer::from(x)).collect())
                    .collect(),
            )
            .unwrap(),
            rows.iter()
                .map(|&(_, n, den)| BigRational::new(n.into(), den.into()))
                .collect(),
        )
        .unwrap();
        let ours = match ShortForm::of_polytope(&p) {
            Ok(f) => f.count().unwrap(),
            Err(e) => panic!("case {case}: {e}"),
        };
        let Some(theirs) = normaliz_count(d, &rows) else {
            panic!("case {case}: Normaliz gave no count");
        };
        assert_eq!(ours, theirs, "case {case}: d = {d}, rows {rows:?}");
        compared += 1;
    }
    assert!(compared == 40, "only {compared} polytopes compared");
}
