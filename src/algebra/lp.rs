//! Exact linear programming over Q, and the positive linear functional of a rule set.
//!
//! [`minimize`] is a two-phase dense-tableau simplex method with Bland's rule (so it terminates),
//! in exact rational arithmetic. [`positive_functional`] uses it to find an integer ℓ with ℓ·v > 0
//! for given vectors (axiom 1 of [GM09] Definition 2.3, for the moves and the rays of the board's
//! cone), choosing one of least L1 norm; when none exists it returns the certificate of Gordan's
//! theorem instead: nonnegative integers λ, not all 0, with Σ λ_i v_i = 0.

use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::linalg::primitive_from_rational;
use super::{Integer, Vector};

type Q = BigRational;

/// The outcome of a linear program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LpOutcome {
    /// An optimal solution and its value.
    Optimal {
        /// The optimal point.
        x: Vec<Q>,
        /// The objective value at `x`.
        value: Q,
    },
    /// No point satisfies the constraints.
    Infeasible,
    /// The objective is unbounded below.
    Unbounded,
    /// The user interrupted the computation.
    Interrupted,
}

struct Tableau {
    /// m rows of n + 1 entries: coefficients, then the right-hand side.
    rows: Vec<Vec<Q>>,
    /// The basic variable of each row.
    basis: Vec<usize>,
    /// Number of variables.
    n: usize,
}

impl Tableau {
    fn pivot(&mut self, r: usize, c: usize) {
        let inv = self.rows[r][c].recip();
        for x in self.rows[r].iter_mut() {
            *x *= &inv;
        }
        let pivot_row = self.rows[r].clone();
        for (i, row) in self.rows.iter_mut().enumerate() {
            if i != r && !row[c].is_zero() {
                let f = row[c].clone();
                for (x, p) in row.iter_mut().zip(&pivot_row) {
                    if !p.is_zero() {
                        *x -= p * &f;
                    }
                }
            }
        }
        self.basis[r] = c;
    }

    /// Minimises `cost` over the current basic feasible solution, among the allowed columns.
    /// Returns false when unbounded.
    fn optimise(
        &mut self,
        cost: &[Q],
        allowed: &dyn Fn(usize) -> bool,
        poll: bool,
    ) -> Option<bool> {
        loop {
            if poll && crate::interrupt::requested() {
                return None;
            }
            // Reduced costs c_j − c_B · column_j; Bland: the smallest j with a negative one enters.
            let entering = (0..self.n)
                .filter(|&j| allowed(j) && !self.basis.contains(&j))
                .find(|&j| {
                    let mut reduced = cost[j].clone();
                    for (row, &b) in self.rows.iter().zip(&self.basis) {
                        if !row[j].is_zero() && !cost[b].is_zero() {
                            reduced -= &cost[b] * &row[j];
                        }
                    }
                    reduced.is_negative()
                });
            let Some(c) = entering else { return Some(true) };
            // Ratio test; ties broken by the smallest basic variable (Bland).
            let mut best: Option<(usize, Q)> = None;
            for (i, row) in self.rows.iter().enumerate() {
                if row[c].is_positive() {
                    let ratio = &row[self.n] / &row[c];
                    let better = match &best {
                        None => true,
                        Some((bi, br)) => {
                            ratio < *br || (ratio == *br && self.basis[i] < self.basis[*bi])
                        }
                    };
                    if better {
                        best = Some((i, ratio));
                    }
                }
            }
            let Some((r, _)) = best else {
                return Some(false);
            };
            self.pivot(r, c);
        }
    }

    fn value(&self, cost: &[Q]) -> Q {
        self.basis
            .iter()
            .zip(&self.rows)
            .map(|(&b, row)| &cost[b] * &row[self.n])
            .sum()
    }

    fn point(&self) -> Vec<Q> {
        let mut x = vec![Q::zero(); self.n];
        for (&b, row) in self.basis.iter().zip(&self.rows) {
            if b < self.n {
                x[b] = row[self.n].clone();
            }
        }
        x
    }
}

/// Minimises c·x subject to A x = b and x ≥ 0 (A given by rows), exactly; Ctrl-C interrupts it.
pub fn minimize(a: &[Vec<Q>], b: &[Q], c: &[Q]) -> LpOutcome {
    simplex(a, b, c, true)
}

fn minimize_uninterrupted(a: &[Vec<Q>], b: &[Q], c: &[Q]) -> LpOutcome {
    simplex(a, b, c, false)
}

fn simplex(a: &[Vec<Q>], b: &[Q], c: &[Q], poll: bool) -> LpOutcome {
    let m = a.len();
    let n = c.len();
    // Phase 1: artificial variables n..n+m, with b made nonnegative.
    let total = n + m;
    let mut rows = Vec::with_capacity(m);
    for (i, (row, rhs)) in a.iter().zip(b).enumerate() {
        let flip = rhs.is_negative();
        let mut r: Vec<Q> = row
            .iter()
            .map(|x| if flip { -x.clone() } else { x.clone() })
            .collect();
        r.extend((0..m).map(|k| if k == i { Q::one() } else { Q::zero() }));
        r.push(if flip { -rhs.clone() } else { rhs.clone() });
        rows.push(r);
    }
    let mut t = Tableau {
        rows,
        basis: (n..total).collect(),
        n: total,
    };
    let phase1: Vec<Q> = (0..total)
        .map(|j| if j >= n { Q::one() } else { Q::zero() })
        .collect();
    if t.optimise(&phase1, &|_| true, poll).is_none() {
        return LpOutcome::Interrupted;
    }
    if t.value(&phase1).is_positive() {
        return LpOutcome::Infeasible;
    }
    // Drive artificial variables out of the basis; drop rows that are redundant.
    let mut i = 0;
    while i < t.rows.len() {
        if t.basis[i] >= n {
            match (0..n).find(|&j| !t.rows[i][j].is_zero()) {
                Some(j) => t.pivot(i, j),
                None => {
                    t.rows.remove(i);
                    t.basis.remove(i);
                    continue;
                }
            }
        }
        i += 1;
    }
    // Phase 2 on the original variables only.
    let mut cost: Vec<Q> = c.to_vec();
    cost.extend((0..m).map(|_| Q::zero()));
    match t.optimise(&cost, &|j| j < n, poll) {
        None => LpOutcome::Interrupted,
        Some(false) => LpOutcome::Unbounded,
        Some(true) => {
            let mut x = t.point();
            x.truncate(n);
            let value = c.iter().zip(&x).map(|(ci, xi)| ci * xi).sum();
            LpOutcome::Optimal { x, value }
        }
    }
}

fn q(x: &Integer) -> Q {
    Q::from(x.to_bigint())
}

/// An integer linear functional ℓ with ℓ·v ≥ 1 for every given vector (primitive, from a rational
/// solution of least L1 norm), or Gordan's certificate that none exists: nonnegative integers λ,
/// not all 0, with Σ λ_i v_i = 0. With no vectors, the zero functional is returned.
///
/// The linear programs here have 2d + |vectors| variables, so they are not interruptible.
pub fn positive_functional(ambient: usize, vectors: &[Vector]) -> Result<Vector, Vec<Integer>> {
    if vectors.is_empty() {
        return Ok(Vector::zero(ambient));
    }
    if let Some(i) = vectors.iter().position(Vector::is_zero) {
        let mut lambda = vec![Integer::ZERO; vectors.len()];
        lambda[i] = Integer::ONE;
        return Err(lambda);
    }
    let (d, k) = (ambient, vectors.len());
    // Variables: u (d), w (d), s (k); ℓ = u − w; (u − w)·v_i − s_i = 1; minimise Σ u + Σ w.
    let nvars = 2 * d + k;
    let mut a = Vec::with_capacity(k);
    for (i, v) in vectors.iter().enumerate() {
        let mut row = vec![Q::zero(); nvars];
        for j in 0..d {
            row[j] = q(&v.0[j]);
            row[d + j] = -q(&v.0[j]);
        }
        row[2 * d + i] = -Q::one();
        a.push(row);
    }
    let b = vec![Q::one(); k];
    let c: Vec<Q> = (0..nvars)
        .map(|j| if j < 2 * d { Q::one() } else { Q::zero() })
        .collect();
    match minimize_uninterrupted(&a, &b, &c) {
        LpOutcome::Optimal { x, .. } => {
            let ell: Vec<Q> = (0..d).map(|j| &x[j] - &x[d + j]).collect();
            Ok(primitive_from_rational(&ell))
        }
        LpOutcome::Interrupted => unreachable!("positive_functional does not poll for interrupts"),
        LpOutcome::Unbounded => unreachable!("the objective is bounded below by 0"),
        LpOutcome::Infeasible => gordan_certificate(d, vectors),
    }
}

/// λ ≥ 0 with Σ λ_i v_i = 0 and Σ λ_i = 1, made integral: exists exactly when no positive
/// functional does (Gordan's alternative).
fn gordan_certificate(d: usize, vectors: &[Vector]) -> Result<Vector, Vec<Integer>> {
    let k = vectors.len();
    let mut a: Vec<Vec<Q>> = (0..d)
        .map(|j| vectors.iter().map(|v| q(&v.0[j])).collect())
        .collect();
    a.push(vec![Q::one(); k]);
    let mut b = vec![Q::zero(); d];
    b.push(Q::one());
    let c = vec![Q::zero(); k];
    match minimize_uninterrupted(&a, &b, &c) {
        LpOutcome::Optimal { x, .. } => Err(primitive_from_rational(&x).0),
        _ => unreachable!("Gordan's alternative: one of the two systems is feasible"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;
    use proptest::prelude::*;

    fn v(xs: &[i64]) -> Vector {
        Vector::from_i64s(xs)
    }

    fn qi(x: i64) -> Q {
        Q::from(BigInt::from(x))
    }

    #[test]
    fn a_small_linear_program() {
        // minimise −x − y with x + 2y + s1 = 4, 3x + y + s2 = 6: optimum at (8/5, 6/5).
        let a = vec![
            vec![qi(1), qi(2), qi(1), qi(0)],
            vec![qi(3), qi(1), qi(0), qi(1)],
        ];
        let out = minimize(&a, &[qi(4), qi(6)], &[qi(-1), qi(-1), qi(0), qi(0)]);
        let LpOutcome::Optimal { x, value } = out else {
            panic!("{out:?}")
        };
        assert_eq!(x[0], Q::new(8.into(), 5.into()));
        assert_eq!(x[1], Q::new(6.into(), 5.into()));
        assert_eq!(value, Q::new((-14).into(), 5.into()));
        assert_eq!(
            minimize(&[vec![qi(1), qi(1)]], &[qi(-1)], &[qi(0), qi(0)]),
            LpOutcome::Infeasible
        );
        assert_eq!(
            minimize(&[vec![qi(1), qi(-1)]], &[qi(0)], &[qi(-1), qi(0)]),
            LpOutcome::Unbounded
        );
    }

    #[test]
    fn example_2_4_has_a_small_functional() {
        // Γ = {(1,0), (0,1), (−1,1)} and the rays of N^2: [GM09] uses ℓ = (1, 2); the least L1
        // norm solution is another small one, positive on everything.
        let vs = [v(&[1, 0]), v(&[0, 1]), v(&[-1, 1])];
        let ell = positive_functional(2, &vs).expect("a rule set");
        assert!(vs.iter().all(|x| ell.dot(x).signum() > 0), "{ell}");
        assert_eq!(ell, v(&[1, 2]));
    }

    #[test]
    fn opposite_vectors_have_a_certificate() {
        let vs = [v(&[1, 0]), v(&[0, 1]), v(&[-1, -1])];
        let lambda = positive_functional(2, &vs).expect_err("no functional");
        assert_eq!(lambda, vec![Integer::ONE, Integer::ONE, Integer::ONE]);
    }

    proptest! {
        #[test]
        fn functional_or_certificate(vs in proptest::collection::vec(proptest::collection::vec(-3i64..=3, 3), 1..6)) {
            let vs: Vec<Vector> = vs.iter().map(|x| v(x)).collect();
            match positive_functional(3, &vs) {
                Ok(ell) => {
                    for x in &vs {
                        prop_assert!(ell.dot(x).signum() > 0, "ℓ = {} on {}", ell, x);
                    }
                }
                Err(lambda) => {
                    prop_assert!(lambda.iter().all(|l| l.signum() >= 0));
                    prop_assert!(lambda.iter().any(|l| l.signum() > 0));
                    let mut sum = Vector::zero(3);
                    for (l, x) in lambda.iter().zip(&vs) {
                        sum = sum.add(&x.scale(l));
                    }
                    prop_assert!(sum.is_zero());
                }
            }
        }
    }
}
