use num_bigint::BigInt;
use num_rational::BigRational;
use proptest::prelude::*;

use super::ShortForm;
use crate::algebra::polyhedral::lattice_points;
use crate::algebra::{AlgebraError, Integer, Matrix, Polyhedron};

fn polytope(rows: &[Vec<i64>], rhs: &[BigRational]) -> Polyhedron {
    let a = Matrix::from_rows(
        rows.iter()
            .map(|r| r.iter().map(|&x| Integer::from(x)).collect())
            .collect(),
    )
    .unwrap();
    Polyhedron::from_inequalities(a, rhs.to_vec()).unwrap()
}

fn int(n: &str) -> BigRational {
    BigRational::from(n.parse::<BigInt>().unwrap())
}

/// The box x_i ≥ lo (and x_i ≤ hi when given) in R^d, as rows a·x ≥ b.
fn box_rows(d: usize, lo: i64, hi: Option<i64>) -> (Vec<Vec<i64>>, Vec<BigRational>) {
    let mut a: Vec<Vec<i64>> = Vec::new();
    let mut b: Vec<BigRational> = Vec::new();
    for i in 0..d {
        let mut e = vec![0; d];
        e[i] = 1;
        a.push(e.clone());
        b.push(BigRational::from(BigInt::from(lo)));
        if let Some(hi) = hi {
            e[i] = -1;
            a.push(e);
            b.push(BigRational::from(BigInt::from(-hi)));
        }
    }
    (a, b)
}

/// Random cuts r·x ≥ num/den from proptest's rows (their first d entries) and right-hand sides,
/// with their positions; zero rows are left out.
fn cuts(d: usize, rows: &[Vec<i64>], rhs: &[(i64, i64)]) -> Vec<(usize, Vec<i64>, BigRational)> {
    rows.iter()
        .zip(rhs)
        .enumerate()
        .filter(|(_, (r, _))| r[..d].iter().any(|&x| x != 0))
        .map(|(i, (r, &(num, den)))| (i, r[..d].to_vec(), BigRational::new(num.into(), den.into())))
        .collect()
}

/// The triangle x, y ≥ 0, x + y ≤ n: three unimodular vertex cones, (n + 1)(n + 2)/2 points.
#[test]
fn triangle_of_any_side() {
    for n in [
        "1",
        "7",
        "3000",
        "1000000000",
        "1000000000000000000000000000000",
    ] {
        let p = polytope(
            &[vec![1, 0], vec![0, 1], vec![-1, -1]],
            &[int("0"), int("0"), -int(n)],
        );
        let f = ShortForm::of_polytope(&p).unwrap();
        // Side 0 is a point: one term without denominators.
        assert_eq!(f.terms().len(), if n == "0" { 1 } else { 3 });
        let n: BigInt = n.parse().unwrap();
        assert_eq!(f.count().unwrap(), (&n + 1) * (&n + 2) / 2);
        assert_eq!(count_polytope(&p), (&n + 1) * (&n + 2) / 2);
    }
}

/// The streaming count, which keeps no term.
fn count_polytope(p: &Polyhedron) -> BigInt {
    super::count_polytope(p, &mut |_| {}).unwrap()
}

/// {x ∈ Z^6 : x ≥ 0, a·x ≤ N} for a with entries in the hundreds (thousands of unimodular
/// cones per vertex): the streaming count, the kept short form's exact count and a dynamic
/// programme over the knapsack's sums agree.
#[test]
fn knapsack_counts_match_dynamic_programming() {
    let a: [i64; 6] = [737, 361, 859, 467, 914, 807];
    let n = 6000usize;
    let mut rows: Vec<Vec<i64>> = (0..6)
        .map(|i| (0..6).map(|j| i64::from(i == j)).collect())
        .collect();
    rows.push(a.iter().map(|x| -x).collect());
    let mut rhs = vec![int("0"); 6];
    rhs.push(-int(&n.to_string()));
    let p = polytope(&rows, &rhs);
    // ways[s]: the x ≥ 0 with a·x = s.
    let mut ways = vec![0u64; n + 1];
    ways[0] = 1;
    for &c in &a {
        for s in c as usize..=n {
            ways[s] += ways[s - c as usize];
        }
    }
    let brute: u64 = ways.iter().sum();
    assert_eq!(count_polytope(&p), BigInt::from(brute));
    assert_eq!(
        ShortForm::of_polytope(&p).unwrap().count().unwrap(),
        BigInt::from(brute)
    );
}

/// {x ≥ 0, 3x + 5y + 7z ≤ N}: the counts Normaliz prints for N = 1000 (NumberLatticePoints,
/// quoted in issue 29) and for N = 10^5, and brute force for small N.
#[test]
fn simplex_3_5_7() {
    let p = |n: &str| {
        polytope(
            &[
                vec![1, 0, 0],
                vec![0, 1, 0],
                vec![0, 0, 1],
                vec![-3, -5, -7],
            ],
            &[int("0"), int("0"), int("0"), -int(n)],
        )
    };
    let count = |n: &str| {
        let kept = ShortForm::of_polytope(&p(n)).unwrap().count().unwrap();
        assert_eq!(count_polytope(&p(n)), kept, "N = {n}");
        kept
    };
    assert_eq!(count("1000"), BigInt::from(1_625_669));
    assert_eq!(count("100000"), BigInt::from(1_587_682_566_826i64));
    for n in 0..40 {
        let brute = lattice_points(&p(&n.to_string())).unwrap().len();
        assert_eq!(count(&n.to_string()), BigInt::from(brute), "N = {n}");
    }
    // Large N: the count agrees with the cubic-plus-periodic Ehrhart quasi-polynomial's
    // leading behaviour N³/(6·105) to within the lower-order terms.
    let big = count("1000000000000000000000000000000");
    let n: BigInt = "1000000000000000000000000000000".parse().unwrap();
    let lead = &n * &n * &n / BigInt::from(630);
    assert!((&big - &lead) * BigInt::from(1000) < lead);
}

#[test]
fn unbounded_is_refused_and_lower_dimensional_counted() {
    let p = polytope(&[vec![1, 0], vec![0, 1]], &[int("0"), int("0")]);
    assert!(matches!(
        ShortForm::of_polytope(&p),
        Err(AlgebraError::Unbounded { .. })
    ));
    let count = |rows: &[Vec<i64>], rhs: &[&str]| {
        let rhs: Vec<BigRational> = rhs.iter().map(|x| int(x)).collect();
        let kept = ShortForm::of_polytope(&polytope(rows, &rhs))
            .unwrap()
            .count()
            .unwrap();
        assert_eq!(count_polytope(&polytope(rows, &rhs)), kept);
        kept
    };
    // x = y, 0 ≤ x ≤ 3: a segment in R^2 with 4 lattice points.
    let segment = [vec![1, -1], vec![-1, 1], vec![1, 0], vec![-1, 0]];
    assert_eq!(count(&segment, &["0", "0", "0", "-3"]), BigInt::from(4));
    // 2x = 2y + 1 has no integer point: the hull's lattice is empty.
    let odd = [vec![2, -2], vec![-2, 2], vec![1, 0], vec![-1, 0]];
    assert_eq!(count(&odd, &["1", "-1", "0", "-3"]), BigInt::from(0));
    // x + y + z = 10^12, x, y, z ≥ 0 in R^3: a triangle of side 10^12 on a plane.
    let plane = [
        vec![1, 1, 1],
        vec![-1, -1, -1],
        vec![1, 0, 0],
        vec![0, 1, 0],
        vec![0, 0, 1],
    ];
    let n: BigInt = "1000000000000".parse().unwrap();
    assert_eq!(
        count(&plane, &["1000000000000", "-1000000000000", "0", "0", "0"]),
        (&n + 1) * (&n + 2) / 2
    );
    // 3x + 5y = 1000 with x, y ≥ 0, as a segment in R^2 (brute force: 67 points).
    let line = [vec![3, 5], vec![-3, -5], vec![1, 0], vec![0, 1]];
    let brute = (0..=333).filter(|x| (1000 - 3 * x) % 5 == 0).count();
    assert_eq!(
        count(&line, &["1000", "-1000", "0", "0"]),
        BigInt::from(brute)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Random rational polytopes in d = 2 and 3 (with degenerate vertices and rational
    /// right-hand sides): the short form's count equals the enumerated points.
    #[test]
    fn counts_match_enumeration(
        d in 2usize..4,
        rows in proptest::collection::vec(proptest::collection::vec(-4i64..5, 3), 2..7),
        rhs in proptest::collection::vec((-30i64..3, 1i64..4), 7),
    ) {
        // A box keeps it bounded; the random rows cut it.
        let (mut a, mut b) = box_rows(d, -3, Some(6));
        for (_, r, c) in cuts(d, &rows, &rhs) {
            a.push(r);
            b.push(c);
        }
        let p = polytope(&a, &b);
        let brute = lattice_points(&p).unwrap().len();
        let f = ShortForm::of_polytope(&p).unwrap();
        prop_assert_eq!(f.count().unwrap(), BigInt::from(brute));
        prop_assert_eq!(count_polytope(&p), BigInt::from(brute));
    }
}

/// Membership in the expansion against the inequalities, on the points of a box.
fn check_expansion(p: &Polyhedron, rows: &[Vec<i64>], rhs: &[BigRational], radius: i64) {
    let f = ShortForm::of_polyhedron(p).unwrap();
    let e = f.expansion().unwrap();
    let d = rows[0].len();
    let mut x = vec![-radius; d];
    loop {
        let inside = rows.iter().zip(rhs).all(|(r, b)| {
            BigRational::from(BigInt::from(
                r.iter().zip(&x).map(|(a, y)| a * y).sum::<i64>(),
            )) >= *b
        });
        let v = crate::algebra::Vector(x.iter().map(|&y| Integer::from(y)).collect());
        let c = e.coefficient(&v);
        assert_eq!(
            c,
            BigRational::from(BigInt::from(i64::from(inside))),
            "at {x:?}"
        );
        // Next point of the box.
        let mut i = 0;
        while i < d {
            x[i] += 1;
            if x[i] <= radius {
                break;
            }
            x[i] = -radius;
            i += 1;
        }
        if i == d {
            break;
        }
    }
}

/// An unbounded pointed polyhedron's Brion sum, expanded in a direction positive on its
/// recession cone, is the indicator of its lattice points; a polyhedron with a line is refused.
#[test]
fn unbounded_polyhedra_expand_to_their_points() {
    // x ≥ 0, 2y ≥ x, x + y ≥ 3 (recession cone spanned by (0, 1) and (2, 1)).
    let rows = vec![vec![1, 0], vec![-1, 2], vec![1, 1]];
    let rhs = vec![int("0"), int("0"), int("3")];
    check_expansion(&polytope(&rows, &rhs), &rows, &rhs, 6);
    let f = ShortForm::of_polyhedron(&polytope(&rows, &rhs)).unwrap();
    assert!(matches!(f.count(), Err(AlgebraError::Unbounded { .. })));
    // A lower-dimensional unbounded one: the ray x = y ≥ 2.
    let rows = vec![vec![1, -1], vec![-1, 1], vec![1, 0]];
    let rhs = vec![int("0"), int("0"), int("2")];
    check_expansion(&polytope(&rows, &rhs), &rows, &rhs, 5);
    let strip = polytope(&[vec![1, 0], vec![-1, 0]], &[int("0"), int("-2")]);
    assert!(matches!(
        ShortForm::of_polyhedron(&strip),
        Err(AlgebraError::NotPointed { .. })
    ));
}

/// The identity test: a short form against the one-cone form of the same points, and against
/// one point more or less.
#[test]
fn identities_of_short_forms() {
    use crate::algebra::genfunc::RationalFunction;
    let rows = vec![vec![1, 0], vec![0, 1], vec![-3, -5]];
    let p = polytope(&rows, &[int("0"), int("0"), int("-40")]);
    let f = ShortForm::of_polytope(&p).unwrap();
    let points = lattice_points(&p).unwrap();
    let g = RationalFunction::from_terms(
        2,
        points
            .iter()
            .map(|x| crate::algebra::genfunc::Term {
                denominators: Vec::new(),
                exponent: x.clone(),
                coefficient: BigRational::from(BigInt::from(1)),
            })
            .collect(),
    );
    let g = ShortForm::from_rational_function(&g);
    assert!(f.sub(&g).is_zero().unwrap());
    let h = g.add(&ShortForm::from_rational_function(
        &RationalFunction::monomial(&crate::algebra::Vector(vec![
            Integer::from(100),
            Integer::from(0),
        ])),
    ));
    assert!(!f.sub(&h).is_zero().unwrap());
    assert!(!f.is_zero().unwrap());
    assert!(f.sub(&f).is_zero().unwrap());
    // The triangle of side 10^9 against itself built from a different description (the same
    // triangle cut by a redundant inequality), and against the triangle of side 10^9 + 1.
    let tri = |n: &str, extra: bool| {
        let mut rows = vec![vec![1, 0], vec![0, 1], vec![-1, -1]];
        let mut rhs = vec![int("0"), int("0"), -int(n)];
        if extra {
            rows.push(vec![-1, 0]);
            rhs.push(-int(n) - int("5"));
        }
        ShortForm::of_polytope(&polytope(&rows, &rhs)).unwrap()
    };
    let a = tri("1000000000", false);
    assert!(a.sub(&tri("1000000000", true)).is_zero().unwrap());
    assert!(!a.sub(&tri("1000000001", false)).is_zero().unwrap());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Random pointed polyhedra (bounded or not) in d = 2 and 3: the expansion's coefficients
    /// are the indicator of the lattice points, point by point in a box; and the Brion sum of
    /// a polytope equals its enumerated points as rational functions.
    #[test]
    fn expansions_are_indicators(
        d in 2usize..4,
        rows in proptest::collection::vec(proptest::collection::vec(-3i64..4, 3), 1..5),
        rhs in proptest::collection::vec((-6i64..3, 1i64..3), 5),
        bounded in proptest::bool::ANY,
    ) {
        // x ≥ −2 keeps every polyhedron pointed; x ≤ 2 bounds it when asked.
        let (mut a, mut b) = box_rows(d, -2, bounded.then_some(2));
        for (_, r, c) in cuts(d, &rows, &rhs) {
            a.push(r);
            b.push(c);
        }
        let p = polytope(&a, &b);
        check_expansion(&p, &a, &b, 4);
        if bounded {
            use crate::algebra::genfunc::{RationalFunction, Term};
            let f = ShortForm::of_polytope(&p).unwrap();
            let points = RationalFunction::from_terms(d, lattice_points(&p).unwrap().into_iter().map(|x| Term {
                denominators: Vec::new(),
                exponent: x,
                coefficient: BigRational::from(BigInt::from(1)),
            }).collect());
            let g = ShortForm::from_rational_function(&points);
            prop_assert!(f.sub(&g).is_zero().unwrap());
            // One point removed is caught.
            if !points.terms().is_empty() {
                let fewer = RationalFunction::from_terms(d, points.terms()[1..].to_vec());
                prop_assert!(!f.sub(&ShortForm::from_rational_function(&fewer)).is_zero().unwrap());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    /// A polytope's short form evaluated at points where some of its terms have poles (a
    /// coordinate 1 or −1) equals Σ_{x∈P} t^x summed over the enumerated points.
    #[test]
    fn evaluation_through_poles(
        rows in proptest::collection::vec(proptest::collection::vec(-3i64..4, 2), 1..4),
        rhs in proptest::collection::vec((-6i64..3, 1i64..3), 4),
        point in proptest::collection::vec(prop_oneof![Just((1i64, 1i64)), Just((-1, 1)), Just((2, 1)), Just((1, 3)), Just((-2, 3))], 2),
    ) {
        let (mut a, mut b) = box_rows(2, -2, Some(3));
        for (_, r, c) in cuts(2, &rows, &rhs) {
            a.push(r);
            b.push(c);
        }
        let p = polytope(&a, &b);
        let x: Vec<BigRational> = point.iter().map(|&(n, d)| BigRational::new(n.into(), d.into())).collect();
        let brute: BigRational = lattice_points(&p).unwrap().iter().map(|v| {
            v.0.iter().zip(&x).map(|(k, xi)| {
                let k = k.to_i64().unwrap();
                let base = if k < 0 { xi.recip() } else { xi.clone() };
                num_traits::pow::pow(base, k.unsigned_abs() as usize)
            }).product::<BigRational>()
        }).sum();
        let f = ShortForm::of_polytope(&p).unwrap();
        prop_assert_eq!(f.evaluate(&x).unwrap(), Some(brute));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    /// The Hadamard product of two polytopes' short forms (one of them possibly unbounded)
    /// counts the points they share, and its expansion is their common points' indicator.
    #[test]
    fn hadamard_counts_common_points(
        d in 2usize..4,
        rows in proptest::collection::vec(proptest::collection::vec(-3i64..4, 3), 2..6),
        rhs in proptest::collection::vec((-6i64..3, 1i64..3), 6),
        bounded in proptest::bool::ANY,
    ) {
        let (mut a1, mut b1) = box_rows(d, -3, Some(3));
        let (mut a2, mut b2) = box_rows(d, -2, bounded.then_some(4));
        for (i, r, c) in cuts(d, &rows, &rhs) {
            let (a, b) = if i % 2 == 0 { (&mut a1, &mut b1) } else { (&mut a2, &mut b2) };
            a.push(r);
            b.push(c);
        }
        let (p1, p2) = (polytope(&a1, &b1), polytope(&a2, &b2));
        let mut both_rows = a1.clone();
        both_rows.extend(a2.iter().cloned());
        let mut both_rhs = b1.clone();
        both_rhs.extend(b2.iter().cloned());
        let common = lattice_points(&polytope(&both_rows, &both_rhs)).unwrap().len();
        let f = ShortForm::of_polytope(&p1).unwrap();
        let g = ShortForm::of_polyhedron(&p2).unwrap();
        let h = f.hadamard(&g).unwrap();
        prop_assert_eq!(h.count().unwrap(), BigInt::from(common));
        let h2 = g.hadamard(&f).unwrap();
        prop_assert!(h.sub(&h2).is_zero().unwrap());
    }
}

/// A scaled short form counts a rational multiple; a function that is not known to be a
/// Laurent polynomial is not evaluated through its terms' poles.
#[test]
fn scaled_counts_and_undefined_values() {
    let p = polytope(
        &[vec![1, 0], vec![0, 1], vec![-1, -1]],
        &[int("0"), int("0"), int("-1")],
    );
    let f = ShortForm::of_polytope(&p).unwrap();
    let half = BigRational::new(1.into(), 2.into());
    assert_eq!(
        f.scale(&half).value_at_one().unwrap(),
        BigRational::new(3.into(), 2.into())
    );
    // The half-strip 0 ≤ x ≤ 1, y ≥ 0: (1 + a)/(1 − b) has no value at (−1, 1).
    let strip = polytope(
        &[vec![1, 0], vec![-1, 0], vec![0, 1]],
        &[int("0"), int("-1"), int("0")],
    );
    let g = ShortForm::of_polyhedron(&strip).unwrap();
    let x = [
        BigRational::from(BigInt::from(-1)),
        BigRational::from(BigInt::from(1)),
    ];
    assert_eq!(g.evaluate(&x).unwrap(), None);
}

/// Two infinite sets with a finite intersection: the product keeps only the common recession
/// directions (none), so it counts.
#[test]
fn hadamard_of_two_infinite_sets_counts_a_finite_meet() {
    // 0 ≤ x ≤ y (directions (0, 1), (1, 1)) and 0 ≤ y ≤ 3, x ≥ 0 (direction (1, 0)).
    let wedge = polytope(
        &[vec![1, 0], vec![0, 1], vec![-1, 1]],
        &[int("0"), int("0"), int("0")],
    );
    let strip = polytope(
        &[vec![0, 1], vec![0, -1], vec![1, 0]],
        &[int("0"), int("-3"), int("0")],
    );
    let f = ShortForm::of_polyhedron(&wedge).unwrap();
    let g = ShortForm::of_polyhedron(&strip).unwrap();
    let h = f.hadamard(&g).unwrap();
    assert!(h.recession().is_empty());
    assert_eq!(h.count().unwrap(), BigInt::from(10));
}
