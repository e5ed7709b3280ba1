//! Membership queries x ∈ S answered in machine integers: the question a strategy is asked most
//! ("is this position a P-position?", [GM11] Definition 4.1 read as a decision procedure).
//!
//! Each basic set {x ∈ c + L : Ax ≥ b} is compiled once into i64 rows: the inequalities (checked
//! first, they reject most points) and the Hermite basis of L in echelon form, so that x − c ∈ L
//! is decided by eliminating pivot by pivot (each pivot entry must be divisible by the pivot). All
//! arithmetic is overflow-checked; a set whose data does not fit in i64, or a query whose
//! arithmetic overflows, is answered by the exact test instead.

use super::StratifiedSet;
use crate::algebra::basic_set::BasicSet;
use crate::algebra::{Integer, Vector};

/// A stratified set compiled for fast membership queries (see the module documentation).
#[derive(Clone, Debug)]
pub struct MembershipTest<'a> {
    set: &'a StratifiedSet,
    /// Each basic set, with its machine form when its data fits in i64.
    pieces: Vec<(&'a BasicSet, Option<MachinePiece>)>,
}

#[derive(Clone, Debug)]
struct MachinePiece {
    d: usize,
    /// The rows a of the inequalities a·x ≥ b, concatenated.
    rows: Vec<i64>,
    rhs: Vec<i64>,
    offset: Vec<i64>,
    /// The basis of L in echelon form: (pivot column, basis vector).
    basis: Vec<(usize, Vec<i64>)>,
}

fn small(xs: &[Integer]) -> Option<Vec<i64>> {
    xs.iter().map(Integer::to_i64).collect()
}

impl MachinePiece {
    fn new(b: &BasicSet) -> Option<MachinePiece> {
        let d = b.dim();
        let mut rows = Vec::with_capacity(d * b.inequalities().len());
        let mut rhs = Vec::with_capacity(b.inequalities().len());
        for (a, c) in b.inequalities() {
            rows.extend(small(&a.0)?);
            rhs.push(c.to_i64()?);
        }
        let basis = b
            .coset()
            .basis()
            .iter()
            .map(|v| {
                let row = small(&v.0)?;
                let pivot = row.iter().position(|&x| x != 0)?;
                Some((pivot, row))
            })
            .collect::<Option<Vec<_>>>()?;
        Some(MachinePiece {
            d,
            rows,
            rhs,
            offset: small(&b.coset().offset().0)?,
            basis,
        })
    }

    /// Whether x is in the piece; `None` when the arithmetic overflows.
    fn contains(&self, x: &[i64]) -> Option<bool> {
        for (row, &b) in self.rows.chunks_exact(self.d).zip(&self.rhs) {
            let mut s: i64 = 0;
            for (a, xi) in row.iter().zip(x) {
                s = s.checked_add(a.checked_mul(*xi)?)?;
            }
            if s < b {
                return Some(false);
            }
        }
        let mut y: Vec<i64> = Vec::with_capacity(self.d);
        for (xi, ci) in x.iter().zip(&self.offset) {
            y.push(xi.checked_sub(*ci)?);
        }
        for (p, b) in &self.basis {
            let h = b[*p];
            if y[*p] % h != 0 {
                return Some(false);
            }
            let q = y[*p] / h;
            if q != 0 {
                for (yi, bi) in y.iter_mut().zip(b).skip(*p) {
                    *yi = yi.checked_sub(q.checked_mul(*bi)?)?;
                }
            }
        }
        Some(y.iter().all(|&v| v == 0))
    }
}

impl<'a> MembershipTest<'a> {
    /// The set compiled.
    pub fn new(set: &'a StratifiedSet) -> MembershipTest<'a> {
        let pieces = set
            .cover()
            .iter()
            .map(|b| (b, MachinePiece::new(b)))
            .collect();
        MembershipTest { set, pieces }
    }

    /// Whether x ∈ S, for a point given by machine integers (false for another dimension).
    pub fn contains_i64(&self, x: &[i64]) -> bool {
        if x.len() != self.set.dim() {
            return false;
        }
        self.pieces.iter().any(|(exact, machine)| {
            machine
                .as_ref()
                .and_then(|m| m.contains(x))
                .unwrap_or_else(|| exact.contains(&Vector::from_i64s(x)))
        })
    }

    /// Whether x ∈ S.
    pub fn contains(&self, x: &Vector) -> bool {
        match small(&x.0) {
            Some(x) => self.contains_i64(&x),
            None => self.set.contains(x),
        }
    }
}

impl StratifiedSet {
    /// The set compiled for fast membership queries in machine integers.
    pub fn membership_test(&self) -> MembershipTest<'_> {
        MembershipTest::new(self)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use crate::algebra::testing::{arb_module, box_coordinates, v};
    use crate::algebra::{Integer, StratifiedSet};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// The compiled test agrees with the exact one on a box around random modules, and on their
        /// translates far out, where the arithmetic overflows and the exact test takes over.
        #[test]
        fn agrees_with_the_exact_test(w in arb_module(3), shift in -3i64..=3) {
            let s = StratifiedSet::from_module(&w).unwrap();
            let fast = s.membership_test();
            for p in box_coordinates(3, -1, 6) {
                let x = v(&p);
                prop_assert_eq!(fast.contains_i64(&p), s.contains(&x), "at {}", x);
            }
            let far = s.translate(&v(&[i64::MAX - 2 + shift, 0, 0]));
            let fast = far.membership_test();
            for p in box_coordinates(3, 0, 3) {
                let x = v(&p).add(&v(&[i64::MAX - 4, 0, 0]));
                prop_assert_eq!(fast.contains(&x), far.contains(&x));
            }
        }
    }

    #[test]
    fn huge_offsets_use_the_exact_test() {
        let big = &Integer::from(i64::MAX) * &Integer::from(4);
        let p = crate::algebra::Vector(vec![big, Integer::ZERO]);
        let s = StratifiedSet::from_points(2, std::slice::from_ref(&p));
        assert!(s.membership_test().contains(&p));
        assert!(!s.membership_test().contains_i64(&[1, 0]));
    }
}
