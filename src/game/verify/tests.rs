//! `verify` against the solver: a certified set agrees with the P-positions found by the memo
//! solver on a window, and a refuted set's counterexample is the lightest position of the window
//! where the set and the solver's P-positions differ (the first difference along ℓ is always a
//! failure of condition 2 or 3, and no failure comes earlier). `first_failure` finds the same
//! position, and so does `first_failure_given_outside` given N^d ∖ S.

use proptest::prelude::*;

use super::*;
use crate::algebra::testing::{box_coordinates, v};
use crate::algebra::{AffineModule, AffineSemigroup, Stratification};
use crate::game::testing::{game, polyhedron};
use crate::game::{GameBoard, RuleSet};

fn module(offset: &[i64], gens: &[&[i64]]) -> AffineModule {
    AffineModule::new(
        vec![v(offset)],
        AffineSemigroup::new(gens.iter().map(|g| v(g)).collect()).unwrap(),
    )
    .unwrap()
}

fn set_of(pieces: Vec<AffineModule>) -> StratifiedSet {
    StratifiedSet::from_stratification(&Stratification::new(pieces).unwrap())
        .unwrap()
        .expect("disjoint pieces")
}

/// The lightest positions (under the solver's functional) of the box [0, n]^d where membership in
/// S and the solver's outcome differ, with their weight.
fn first_differences(g: &LatticeGame, s: &StratifiedSet, n: i64) -> Option<(i64, Vec<Vector>)> {
    let ell = solver::functional(g, None).unwrap();
    let mut memo = solver::MemoSolver::new(g).unwrap();
    let mut best: Option<(i64, Vec<Vector>)> = None;
    for p in box_coordinates(g.dim(), 0, n) {
        let is_p = memo.outcome(&p).unwrap() == Outcome::P;
        if is_p != s.contains(&v(&p)) {
            let w: i64 = p.iter().zip(&ell).map(|(a, b)| a * b).sum();
            match &mut best {
                Some((bw, ps)) if *bw == w => ps.push(v(&p)),
                Some((bw, _)) if *bw < w => {}
                _ => best = Some((w, vec![v(&p)])),
            }
        }
    }
    best
}

/// Checks `verify` against the solver on the box [0, n]^d (which must hold every position of
/// weight up to the counterexample's).
fn check(g: &LatticeGame, s: &StratifiedSet, n: i64) -> Verification {
    let verdict = verify(g, s).unwrap();
    let truth = first_differences(g, s, n);
    match (&verdict, &truth) {
        (Verification::Certified { .. }, None) => {}
        (
            Verification::Refuted {
                counterexample: c, ..
            },
            Some((w, ps)),
        ) => {
            assert_eq!(c.weight, Integer::from(*w), "{verdict}");
            assert!(
                ps.contains(&c.position),
                "{verdict}; the differences are {ps:?}"
            );
            let really_p = c.outcome == Outcome::P;
            assert_eq!(really_p, !s.contains(&c.position), "{verdict}");
            match &c.failure {
                Failure::MoveInsideS { step, option } => {
                    assert!(s.contains(&c.position) && s.contains(option));
                    assert_eq!(&c.position.sub(step), option);
                }
                Failure::NoMoveIntoS { .. } => assert!(!s.contains(&c.position)),
                other => panic!("unexpected failure {other:?}"),
            }
        }
        _ => panic!("verify says {verdict}, the solver's first differences are {truth:?}"),
    }
    // The search's shortcut finds the same position, without the solver's outcome.
    let first = first_failure(g, s).unwrap();
    let expected = verdict
        .counterexample()
        .map(|c| (c.position.clone(), c.weight.clone()));
    assert_eq!(first, expected, "{verdict}");
    // And so does the search given N^d ∖ S.
    let outside = orthant(g.dim()).unwrap().difference(s).unwrap();
    let given = first_failure_given_outside(g, s, &outside).unwrap();
    assert_eq!(given, expected, "{verdict}, given N^d ∖ S");
    verdict
}

#[test]
fn nim_with_heaps_up_to_two_normal_and_misere() {
    // [GM09] Examples 8.2 and 8.7.
    let nim = [&[1, 0][..], &[0, 1], &[-1, 1]];
    let normal = game(&nim, false);
    let p = set_of(vec![module(&[0, 0], &[&[2, 0], &[0, 2]])]);
    assert!(check(&normal, &p, 8).is_certified());
    let misere = game(&nim, true);
    let p = set_of(vec![
        module(&[1, 0], &[&[2, 0]]),
        module(&[0, 2], &[&[2, 0], &[0, 2]]),
    ]);
    assert!(check(&misere, &p, 8).is_certified());
    // The normal-play strategy in misère play: 0 is defeated, not a position.
    let wrong = set_of(vec![module(&[0, 0], &[&[2, 0], &[0, 2]])]);
    let verdict = verify(&misere, &wrong).unwrap();
    assert_eq!(
        verdict.counterexample().map(|c| (&c.position, &c.failure)),
        Some((&v(&[0, 0]), &Failure::Defeated))
    );
    // Forgetting the piece (0, 2) + 2N^2 leaves (0, 2) without a move into the set.
    let short = set_of(vec![module(&[1, 0], &[&[2, 0]])]);
    let c = check(&misere, &short, 8);
    assert!(matches!(
        c.counterexample().unwrap().failure,
        Failure::NoMoveIntoS { .. }
    ));
    assert!(c.to_string().contains("would be a P-position"), "{c}");
}

#[test]
fn a_set_off_the_lattice_is_refuted_without_search() {
    let g = game(&[&[1, 0], &[0, 1]], false);
    let s = set_of(vec![module(&[-1, 0], &[&[2, 0], &[0, 2]])]);
    let verdict = verify(&g, &s).unwrap();
    let c = verdict.counterexample().unwrap();
    assert_eq!(c.failure, Failure::OffLattice);
    assert!(!strategy::lattice_points(&g).unwrap().contains(&c.position));
}

/// A random squarefree-or-not rule set in d = 2, 3 with moves in {−1, 0, 1, 2}^d that satisfies the
/// axioms on N^d (every move has a positive coordinate sum and the unit vectors are moves).
fn arb_game() -> impl Strategy<Value = (LatticeGame, bool)> {
    (2usize..=3).prop_flat_map(|d| {
        (
            proptest::collection::vec(proptest::collection::vec(-1i64..=2, d), 0..3),
            any::<bool>(),
        )
            .prop_map(move |(extra, misere)| {
                let mut moves: Vec<Vec<i64>> = (0..d)
                    .map(|i| (0..d).map(|j| i64::from(i == j)).collect())
                    .collect();
                for m in extra {
                    if m.iter().sum::<i64>() > 0 && !moves.contains(&m) {
                        moves.push(m);
                    }
                }
                let refs: Vec<&[i64]> = moves.iter().map(Vec::as_slice).collect();
                (game(&refs, misere), misere)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Candidates built from the solver's own P-positions in a small window (the finite set of
    /// P-positions of weight ≤ 4, which is never all of P) and from squarefree strategies
    /// with a point added or removed: verify's verdicts and counterexamples agree with the solver.
    #[test]
    fn counterexamples_are_the_first_differences((g, misere) in arb_game(), pick in 0usize..8) {
        let d = g.dim();
        let known = if misere { None } else { strategy::known_strategy(&g).unwrap() };
        let candidate = match known {
            Some(p) => {
                let pts = p.members_in_box(&vec![0; d], &vec![3; d]).unwrap();
                let q = &pts[pick % pts.len()];
                let extra = v(&box_coordinates(d, 0, 2)[pick % 3usize.pow(d as u32)]);
                if pick % 3 == 0 {
                    p
                } else if pick % 3 == 1 {
                    p.difference(&StratifiedSet::from_points(d, std::slice::from_ref(q))).unwrap()
                } else {
                    p.union(&StratifiedSet::from_points(d, &[extra])).unwrap()
                }
            }
            None => {
                let ell = solver::functional(&g, None).unwrap();
                let mut memo = solver::MemoSolver::new(&g).unwrap();
                let pts: Vec<Vector> = box_coordinates(d, 0, 4)
                    .into_iter()
                    .filter(|p| p.iter().zip(&ell).map(|(a, b)| a * b).sum::<i64>() <= 4)
                    .filter(|p| memo.outcome(p).unwrap() == Outcome::P)
                    .map(|p| v(&p))
                    .collect();
                StratifiedSet::from_points(d, &pts)
            }
        };
        let n = if d == 2 { 10 } else { 6 };
        check(&g, &candidate, n);
    }
}

#[test]
fn boards_other_than_the_orthant() {
    // The strip 0 ≤ y ≤ 2, x ≥ 0 with the moves (1, 0), (0, 1): every move lowers x + y by one,
    // so P = {x + y even} = ((0, 0), (1, 1), (0, 2)) + N{(2, 0)}.
    let rules = RuleSet::new(vec![v(&[1, 0]), v(&[0, 1])]).unwrap();
    let strip = polyhedron(&[(&[1, 0], 0), (&[0, 1], 0), (&[0, -1], -2)]);
    let g = LatticeGame::new(rules, GameBoard::new(strip, vec![]).unwrap()).unwrap();
    let along = |o: &[i64]| module(o, &[&[2, 0]]);
    let p = set_of(vec![along(&[0, 0]), along(&[1, 1]), along(&[0, 2])]);
    assert!(verify(&g, &p).unwrap().is_certified());
    let short = set_of(vec![along(&[0, 0]), along(&[1, 1])]);
    let c = verify(&g, &short).unwrap();
    let c = c.counterexample().unwrap();
    assert_eq!(c.position, v(&[0, 2]));
    // Given N^2 ∖ S, which holds points off the strip: B ∖ S is cut from it alike.
    let outside = orthant(2).unwrap().difference(&short).unwrap();
    assert_eq!(
        first_failure_given_outside(&g, &short, &outside).unwrap(),
        Some((v(&[0, 2]), Integer::from(2)))
    );
    assert!(matches!(c.failure, Failure::NoMoveIntoS { .. }));
    assert_eq!(c.outcome, Outcome::P);
    let wide = set_of(vec![
        along(&[0, 0]),
        along(&[1, 1]),
        along(&[0, 2]),
        along(&[1, 3]),
    ]);
    let c = verify(&g, &wide).unwrap();
    assert_eq!(c.counterexample().unwrap().failure, Failure::OffLattice);
    assert_eq!(c.counterexample().unwrap().position.0[1], Integer::from(3));
}
