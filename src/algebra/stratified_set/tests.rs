use super::*;
use crate::algebra::testing::{arb_module, box_points as window, v};
use proptest::prelude::*;

fn semigroup(gens: &[Vec<i64>]) -> AffineSemigroup {
    AffineSemigroup::new(gens.iter().map(|g| v(g)).collect()).unwrap()
}

/// Whether x lies in the module F + A, by the semigroup's own membership search.
fn in_module(w: &AffineModule, x: &Vector) -> bool {
    w.offsets()
        .iter()
        .any(|f| w.semigroup().contains(&x.sub(f)).unwrap())
}

#[test]
fn a_numerical_semigroup_is_split_exactly() {
    // N{2, 3} = N ∖ {1}, not normal.
    let a = semigroup(&[vec![2], vec![3]]);
    let s = StratifiedSet::from_semigroup(&a).unwrap();
    for x in -3..30 {
        assert_eq!(s.contains(&v(&[x])), x >= 0 && x != 1, "{x}");
    }
    let strat = s.to_stratification().unwrap().unwrap();
    let back = StratifiedSet::from_stratification(&strat).unwrap().unwrap();
    assert!(back.set_eq(&s).unwrap(), "{strat}");
}

#[test]
fn overlapping_pieces_are_reported_with_a_shared_point() {
    let w1 = AffineModule::from_semigroup(semigroup(&[vec![1, 0], vec![0, 1]]));
    let w2 = AffineModule::new(vec![v(&[2, 3])], semigroup(&[vec![1, 1]])).unwrap();
    let s = Stratification::new(vec![w1, w2]).unwrap();
    let overlap = StratifiedSet::from_stratification(&s).unwrap().unwrap_err();
    assert_eq!(overlap.pieces, (0, 1));
    assert!(overlap.point.0.iter().all(|x| x.signum() >= 0));
}

#[test]
fn example_8_7_complement_within_the_orthant() {
    // [GM09] Example 8.7: misère Nim with heaps ≤ 2 has P = ((1,0) + 2N) ⊎ ((0,2) + 2N^2); its
    // complement in N^2 is the N-positions.
    let p1 = AffineModule::new(vec![v(&[1, 0])], semigroup(&[vec![2, 0]])).unwrap();
    let p2 = AffineModule::new(vec![v(&[0, 2])], semigroup(&[vec![2, 0], vec![0, 2]])).unwrap();
    let p = StratifiedSet::from_stratification(&Stratification::new(vec![p1, p2]).unwrap())
        .unwrap()
        .unwrap();
    let orthant =
        StratifiedSet::from_polyhedron(&Polyhedron::Cone(super::super::Cone::Orthant(2))).unwrap();
    let n = p.complement_in(&orthant).unwrap();
    for x in window(2, -2, 12) {
        let inside = x.is_nonnegative();
        assert_eq!(n.contains(&x), inside && !p.contains(&x), "{x}");
    }
    assert!(n.union(&p).unwrap().set_eq(&orthant).unwrap());
    assert!(n.intersect(&p).unwrap().is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn modules_agree_with_membership_search(w in arb_module(2)) {
        let s = StratifiedSet::from_module(&w).unwrap();
        for x in window(2, -1, 9) {
            prop_assert_eq!(s.contains(&x), in_module(&w, &x), "{} at {}", w, x);
        }
        // Printed back as a stratification, the set is the same.
        let strat = s.to_stratification().unwrap().unwrap();
        let back = StratifiedSet::from_stratification(&strat).unwrap().unwrap();
        prop_assert!(back.set_eq(&s).unwrap(), "{} became {}", w, strat);
    }

    #[test]
    fn boolean_operations_agree_with_enumeration(a in arb_module(2), b in arb_module(2)) {
        let s = StratifiedSet::from_module(&a).unwrap();
        let t = StratifiedSet::from_module(&b).unwrap();
        let union = s.union(&t).unwrap();
        let meet = s.intersect(&t).unwrap();
        let diff = s.difference(&t).unwrap();
        for x in window(2, -1, 9) {
            let (p, q) = (s.contains(&x), t.contains(&x));
            prop_assert_eq!(union.contains(&x), p || q);
            prop_assert_eq!(meet.contains(&x), p && q);
            prop_assert_eq!(diff.contains(&x), p && !q);
            prop_assert!(union.pieces().iter().filter(|b| b.contains(&x)).count() <= 1);
        }
        if let Some(w) = s.difference_witness(&t).unwrap() {
            prop_assert_ne!(s.contains(&w), t.contains(&w));
        }
    }

    #[test]
    fn modules_in_three_dimensions(w in arb_module(3)) {
        let s = StratifiedSet::from_module(&w).unwrap();
        for x in window(3, 0, 6) {
            prop_assert_eq!(s.contains(&x), in_module(&w, &x), "{} at {}", w, x);
        }
    }
}
