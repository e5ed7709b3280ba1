use super::*;
use crate::algebra::testing::{box_points as window, v};
use proptest::prelude::*;

/// A random basic set in Z^d: a coset and up to 4 inequalities.
fn arb_set(d: usize) -> impl Strategy<Value = BasicSet> {
    (
        proptest::collection::vec(-2i64..=2, d),
        proptest::collection::vec(proptest::collection::vec(-2i64..=2, d), 0..=d),
        proptest::collection::vec((proptest::collection::vec(-2i64..=2, d), -3i64..=3), 0..=4),
    )
        .prop_map(move |(c, gens, ineqs)| {
            let gens: Vec<Vector> = gens.iter().map(|g| v(g)).collect();
            let coset = Coset::new(v(&c), &Lattice::generated_by(d, &gens));
            BasicSet::new(
                coset,
                ineqs
                    .into_iter()
                    .map(|(a, b)| (v(&a), Integer::from(b)))
                    .collect(),
            )
        })
}

/// The same with x ≥ 0 added (so it is pointed).
fn arb_pointed(d: usize) -> impl Strategy<Value = BasicSet> {
    arb_set(d).prop_map(move |s| s.with((0..d).map(|i| (Vector::unit(d, i), Integer::ZERO))))
}

#[test]
fn tightening_reads_inequalities_on_the_coset() {
    // x ∈ 2Z with x ≥ 1 is x ≥ 2.
    let s = BasicSet::new(
        Coset::new(v(&[0]), &Lattice::generated_by(1, &[v(&[2])])),
        vec![(v(&[1]), Integer::from(1))],
    );
    assert_eq!(s.inequalities(), &[(v(&[1]), Integer::from(2))]);
}

#[test]
fn a_hidden_empty_set_is_found_empty() {
    // 1 ≤ 3x − 3y ≤ 2 has no integer point though the polyhedron is unbounded.
    let s = BasicSet::from_inequalities(
        2,
        vec![
            (v(&[3, -3]), Integer::from(1)),
            (v(&[-3, 3]), Integer::from(-2)),
        ],
    );
    assert_eq!(s.find_point().unwrap(), None);
    // 1 ≤ 3x − 2y ≤ 1 with x, y ≥ 100 has points far out.
    let s = BasicSet::from_inequalities(
        2,
        vec![
            (v(&[3, -2]), Integer::from(1)),
            (v(&[-3, 2]), Integer::from(-1)),
            (v(&[1, 0]), Integer::from(100)),
            (v(&[0, 1]), Integer::from(100)),
        ],
    );
    let p = s.find_point().unwrap().expect("a point");
    assert!(s.contains(&p));
}

#[test]
fn example_8_2_misere_pieces() {
    // (1,0) + 2N: one piece with apex (1,0) and generator (2,0).
    let s = BasicSet::simplicial(&v(&[1, 0]), &[v(&[2, 0])]);
    let pieces = s.simplicial_pieces().unwrap();
    assert_eq!(
        pieces,
        vec![SimplicialPiece {
            offset: v(&[1, 0]),
            generators: vec![v(&[2, 0])]
        }]
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn emptiness_is_exact_on_a_window(s in arb_set(2)) {
        let found = s.find_point().unwrap();
        if let Some(p) = &found {
            prop_assert!(s.contains(p), "{} is not in {}", p, s);
        }
        if let Some(x) = window(2, -8, 8).into_iter().find(|x| s.contains(x)) {
            prop_assert!(found.is_some(), "{} lies in {} but it was found empty", x, s);
        }
    }

    #[test]
    fn difference_and_intersection_agree_with_enumeration(a in arb_set(2), b in arb_set(2)) {
        let diff = a.difference(&b).unwrap();
        let meet = a.intersect(&b);
        for x in window(2, -6, 6) {
            let n = diff.iter().filter(|s| s.contains(&x)).count();
            prop_assert_eq!(n, usize::from(a.contains(&x) && !b.contains(&x)), "{} ∖ {} at {}", a, b, x);
            prop_assert_eq!(meet.as_ref().is_some_and(|m| m.contains(&x)), a.contains(&x) && b.contains(&x));
        }
    }

    #[test]
    fn pieces_partition_the_set(s in arb_pointed(3)) {
        let pieces = s.simplicial_pieces().unwrap();
        let sets: Vec<BasicSet> = pieces.iter().map(|p| BasicSet::simplicial(&p.offset, &p.generators)).collect();
        for x in window(3, -1, 6) {
            let n = sets.iter().filter(|t| t.contains(&x)).count();
            prop_assert_eq!(n, usize::from(s.contains(&x)), "{} at {}: pieces {:?}", s, x, pieces);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Dropping the inequalities that cut out no facet keeps every point (and only those).
    #[test]
    fn pruning_keeps_the_points(s in arb_pointed(3), extra in proptest::collection::vec((proptest::collection::vec(-2i64..=2, 3), -6i64..=1), 0..=4)) {
        let s = s.with(extra.into_iter().map(|(a, b)| (v(&a), Integer::from(b))));
        match s.pruned().unwrap() {
            None => prop_assert!(s.is_empty().unwrap()),
            Some(p) => {
                prop_assert!(p.inequalities().len() <= s.inequalities().len());
                for x in window(3, -1, 5) {
                    prop_assert_eq!(p.contains(&x), s.contains(&x), "{} vs {} at {}", p, s, x);
                }
            }
        }
    }
}

#[test]
fn opposed_bounds_and_a_fixed_coordinate_are_seen_disjoint() {
    // x ≥ 3 against −x ≥ −2 (x ≤ 2): opposed bounds with nothing between.
    let right = BasicSet::from_inequalities(2, vec![(v(&[1, 0]), Integer::from(3))]);
    let left = BasicSet::from_inequalities(2, vec![(v(&[-1, 0]), Integer::from(-2))]);
    assert!(right.visibly_disjoint(&left) && left.visibly_disjoint(&right));
    // x ≤ 3 meets x ≥ 3.
    let up_to_three = BasicSet::from_inequalities(2, vec![(v(&[-1, 0]), Integer::from(-3))]);
    assert!(!right.visibly_disjoint(&up_to_three));
    // The line x = 1 (a coset fixing x) against x ≥ 3, from either side.
    let line = BasicSet::new(
        Coset::new(v(&[1, 0]), &Lattice::generated_by(2, &[v(&[0, 1])])),
        Vec::new(),
    );
    assert!(line.visibly_disjoint(&right) && right.visibly_disjoint(&line));
    // One point, and a set of one point found as such.
    let point = BasicSet::new(Coset::point(v(&[5, 1])), Vec::new());
    assert_eq!(point.single_point(), Some(&v(&[5, 1])));
    assert!(point.visibly_disjoint(&left) && !point.visibly_disjoint(&right));
    assert_eq!(right.single_point(), None);
    // A point coset whose inequality fails is empty, not a point.
    let empty = BasicSet::new(
        Coset::point(v(&[0, 0])),
        vec![(v(&[1, 1]), Integer::from(1))],
    );
    assert_eq!(empty.single_point(), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Seen disjoint only when no point is shared: a certificate, never a guess.
    #[test]
    fn sets_seen_disjoint_share_no_point(a in arb_set(2), b in arb_set(2)) {
        if a.visibly_disjoint(&b) {
            prop_assert!(a.intersect(&b).map_or(Ok(true), |m| m.is_empty()).unwrap(), "{} and {} meet", a, b);
            for x in window(2, -6, 6) {
                prop_assert!(!(a.contains(&x) && b.contains(&x)), "{} and {} share {}", a, b, x);
            }
        }
        prop_assert_eq!(a.visibly_disjoint(&b), b.visibly_disjoint(&a));
    }
}
