//! Fast exact membership in the set a term counts, p + N{a_1, …, a_k} with independent a_j, for
//! coefficients of rational generating functions queried many times (`x in f`).
//!
//! x lies in p + N{a_j} when x − p = A·n for the d × k matrix A = (a_1 … a_k) and some n ∈ N^k.
//! As A has independent columns, k of its rows form an invertible k × k matrix B; then n is
//! forced, n = adj(B)·(x − p)_B / det B, and x counts exactly when that n is a nonnegative
//! integer vector and the other d − k rows agree, A·n = x − p. Everything is precomputed once
//! per term in exact arithmetic; a query is a few dozen i128 multiply-adds. Terms whose data do
//! not fit i64 make the whole function fall back to the exact rational solve.

use num_rational::BigRational;
use num_traits::Zero;

use super::Term;
use crate::algebra::linalg::{determinant, rank, solve};
use crate::algebra::{Integer, Matrix, Vector};

/// One term's precomputed test.
#[derive(Clone, Debug)]
pub(super) struct TermTest {
    exponent: Vec<i64>,
    /// The rows of B in A.
    rows: Vec<usize>,
    /// adj(B)·sign(det B), k × k, so that n·|det B| = adj·(x − p)_B.
    adjugate: Vec<Vec<i64>>,
    /// |det B|.
    det: i64,
    /// The other rows of A (index and entries), to check.
    others: Vec<(usize, Vec<i64>)>,
}

impl TermTest {
    /// The test for one term; `None` when a number does not fit i64.
    pub(super) fn new(t: &Term) -> Option<TermTest> {
        let ints = |v: &Vector| -> Option<Vec<i64>> { v.0.iter().map(Integer::to_i64).collect() };
        let exponent = ints(&t.exponent)?;
        let d = exponent.len();
        let k = t.denominators.len();
        let columns: Vec<Vec<i64>> = t.denominators.iter().map(ints).collect::<Option<_>>()?;
        let row_of = |i: usize| -> Vector {
            Vector::from_i64s(&columns.iter().map(|c| c[i]).collect::<Vec<_>>())
        };
        // Rows of A that raise the rank, until it is k.
        let mut rows: Vec<usize> = Vec::with_capacity(k);
        let mut chosen: Vec<Vector> = Vec::with_capacity(k);
        for i in 0..d {
            if rows.len() == k {
                break;
            }
            chosen.push(row_of(i));
            if rank(&chosen, k) == chosen.len() {
                rows.push(i);
            } else {
                chosen.pop();
            }
        }
        if rows.len() != k {
            return None;
        }
        let others = (0..d)
            .filter(|i| !rows.contains(i))
            .map(|i| (i, columns.iter().map(|c| c[i]).collect()))
            .collect();
        if k == 0 {
            return Some(TermTest {
                exponent,
                rows,
                adjugate: Vec::new(),
                det: 1,
                others,
            });
        }
        let b = Matrix::from_rows(
            rows.iter()
                .map(|&i| columns.iter().map(|c| Integer::from(c[i])).collect())
                .collect(),
        )
        .ok()?;
        let det = determinant(&b);
        if det.is_zero() {
            return None;
        }
        let det_q = BigRational::from_integer(det.to_bigint());
        let sign = if det.signum() < 0 { -1 } else { 1 };
        // adj(B) = det B · B⁻¹, column by column.
        let mut adjugate = vec![vec![0i64; k]; k];
        for r in 0..k {
            let mut e = vec![BigRational::zero(); k];
            e[r] = BigRational::from_integer(1.into());
            let column = solve(&b, &e)?;
            for (j, x) in column.iter().enumerate() {
                let a = x * &det_q;
                if !a.is_integer() {
                    return None;
                }
                adjugate[j][r] = Integer::from(a.to_integer()).to_i64()? * sign;
            }
        }
        Some(TermTest {
            exponent,
            rows,
            adjugate,
            det: det.abs().to_i64()?,
            others,
        })
    }

    /// Whether x lies in the term's set; `None` when x does not fit i64.
    pub(super) fn counts(&self, x: &Vector) -> Option<bool> {
        let mut diff = [0i128; 16];
        let d = self.exponent.len();
        if d > diff.len() || x.dim() != d {
            return None;
        }
        for (i, (xi, &p)) in x.0.iter().zip(&self.exponent).enumerate() {
            diff[i] = i128::from(xi.to_i64()?) - i128::from(p);
        }
        let mut n = [0i128; 16];
        for (nj, adjugate_row) in n.iter_mut().zip(&self.adjugate) {
            let mut s: i128 = 0;
            for (&a, &row) in adjugate_row.iter().zip(&self.rows) {
                s = s.checked_add(i128::from(a).checked_mul(diff[row])?)?;
            }
            if s < 0 || s % i128::from(self.det) != 0 {
                return Some(false);
            }
            *nj = s / i128::from(self.det);
        }
        for (i, row) in &self.others {
            let mut s: i128 = 0;
            for (&a, &nj) in row.iter().zip(&n) {
                s = s.checked_add(i128::from(a).checked_mul(nj)?)?;
            }
            if s != diff[*i] {
                return Some(false);
            }
        }
        Some(true)
    }
}
