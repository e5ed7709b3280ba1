//! Barvinok's signed decomposition of a simplicial cone into unimodular cones, modulo
//! lower-dimensional cones (Barvinok 1994; De Loera, Hemmecke, Tauzer, Yoshida 2004, §3).
//!
//! For K = cone(w_1, …, w_d) of index N = |det W| > 1, a short integer vector z = Σ α_i w_i of
//! the lattice {Wα : α} ∩ Z^d, with max |α_i| < 1, gives [K] = Σ_i sgn(α_i) [K_i] modulo
//! lower-dimensional cones, where K_i replaces w_i by z and has index |α_i|·N < N. The identity
//! needs some α_i > 0 (for z in −K it fails: K and the K_i tile all of R^d), so z is negated when
//! none is. The short vector comes from an LLL-reduced basis of the coefficient lattice W^{-1}Z^d
//! (scaled by N to be integral), the shortest in the maximum norm among the basis vectors and
//! their sums and differences; by Minkowski's theorem some lattice vector has max |α_i| ≤ N^{−1/d},
//! and in practice one of these does, so the depth of the recursion is about log log N.

use num_bigint::BigInt;
use num_integer::Integer as _;
use num_traits::{One, Signed, Zero};

use super::lll;
#[cfg(test)]
use crate::algebra::linalg::determinant_of_rows;
use crate::algebra::AlgebraError;

/// A cone given by d integer generators (as columns of W), with a sign ±1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedCone {
    /// +1 or −1.
    pub sign: i8,
    /// The generators.
    pub rays: Vec<Vec<BigInt>>,
    /// W^{-1} (rows indexed like the columns of W), which the decomposition computed anyway to
    /// see that the cone is unimodular.
    pub inverse: Vec<Vec<BigInt>>,
}

/// det W and N·W^{-1} with N = |det W| (that is, ±adj W), for the matrix W with the given
/// columns, in integer arithmetic only: one fraction-free Gauss–Jordan elimination (Bareiss) of
/// [W | I], O(d³) exact divisions, ending at [D·I | D·W^{-1}] with D = ±det W; rows of the
/// result are indexed like the columns of W. An empty inverse when W is singular.
pub(super) fn det_and_scaled_inverse(cols: &[Vec<BigInt>]) -> (BigInt, Vec<Vec<BigInt>>) {
    if let Some(small) = det_and_scaled_inverse_small(cols) {
        return small;
    }
    det_and_scaled_inverse_big(cols)
}

/// The same elimination in i128 when Hadamard's bound keeps every minor of [W | I] below 2^62
/// (Π_c ‖w_c‖² < 2^124), so that each product of two minors fits: the cones of a decomposition
/// mostly have small entries. `None` when the bound does not hold.
fn det_and_scaled_inverse_small(cols: &[Vec<BigInt>]) -> Option<(BigInt, Vec<Vec<BigInt>>)> {
    use num_traits::ToPrimitive;
    let d = cols.len();
    let mut bound: u128 = 1;
    for c in cols {
        let mut norm: u128 = 0;
        for x in c {
            let x = x.to_i64()?.unsigned_abs() as u128;
            norm = norm.checked_add(x.checked_mul(x)?)?;
        }
        bound = bound.checked_mul(norm.max(1))?;
    }
    if bound >= 1 << 124 {
        return None;
    }
    let mut m: Vec<Vec<i128>> = (0..d)
        .map(|r| {
            let mut row: Vec<i128> = (0..d)
                .map(|c| i128::from(cols[c][r].to_i64().unwrap_or(0)))
                .collect();
            row.extend((0..d).map(|c| i128::from(c == r)));
            row
        })
        .collect();
    let mut previous: i128 = 1;
    let mut swaps = 0usize;
    for k in 0..d {
        let Some(pivot) = (k..d).find(|&r| m[r][k] != 0) else {
            return Some((BigInt::zero(), Vec::new()));
        };
        if pivot != k {
            m.swap(pivot, k);
            swaps += 1;
        }
        let pivot_row = m[k].clone();
        for (i, row) in m.iter_mut().enumerate() {
            if i == k {
                continue;
            }
            let factor = row[k];
            if factor == 0 {
                // (p·x − 0)/previous: still a minor, so the division is exact.
                for (j, x) in row.iter_mut().enumerate() {
                    if j != k && *x != 0 {
                        *x = pivot_row[k] * *x / previous;
                    }
                }
                continue;
            }
            for (j, x) in row.iter_mut().enumerate() {
                if j == k {
                    continue;
                }
                *x = (pivot_row[k] * *x - factor * pivot_row[j]) / previous;
            }
            row[k] = 0;
        }
        previous = pivot_row[k];
    }
    let rows = m
        .into_iter()
        .map(|row| row[d..].iter().map(|&x| BigInt::from(x)).collect())
        .collect();
    Some(signed_result(BigInt::from(previous), swaps, rows))
}

/// The elimination in big integers.
fn det_and_scaled_inverse_big(cols: &[Vec<BigInt>]) -> (BigInt, Vec<Vec<BigInt>>) {
    let d = cols.len();
    // [W | I], W[r][c] = cols[c][r].
    let mut m: Vec<Vec<BigInt>> = (0..d)
        .map(|r| {
            let mut row: Vec<BigInt> = (0..d).map(|c| cols[c][r].clone()).collect();
            row.extend((0..d).map(|c| BigInt::from(i32::from(c == r))));
            row
        })
        .collect();
    let mut previous = BigInt::from(1);
    let mut swaps = 0usize;
    for k in 0..d {
        let Some(pivot) = (k..d).find(|&r| !m[r][k].is_zero()) else {
            return (BigInt::zero(), Vec::new());
        };
        if pivot != k {
            m.swap(pivot, k);
            swaps += 1;
        }
        let pivot_row = m[k].clone();
        for (i, row) in m.iter_mut().enumerate() {
            if i == k {
                continue;
            }
            let factor = row[k].clone();
            for (j, x) in row.iter_mut().enumerate() {
                if j == k {
                    continue;
                }
                *x = (&pivot_row[k] * &*x - &factor * &pivot_row[j]) / &previous;
            }
            row[k] = BigInt::zero();
        }
        previous = pivot_row[k].clone();
    }
    let rows = m.into_iter().map(|row| row[d..].to_vec()).collect();
    signed_result(previous, swaps, rows)
}

/// det W and N·W^{-1} from the end of the elimination, [D·I | D·W^{-1}] with
/// D = (−1)^swaps · det W (`rows` is its right half).
fn signed_result(
    previous: BigInt,
    swaps: usize,
    rows: Vec<Vec<BigInt>>,
) -> (BigInt, Vec<Vec<BigInt>>) {
    let det = if swaps.is_multiple_of(2) {
        previous.clone()
    } else {
        -previous.clone()
    };
    if !previous.is_negative() {
        return (det, rows);
    }
    let inverse = rows
        .into_iter()
        .map(|row| row.into_iter().map(|x| -x).collect())
        .collect();
    (det, inverse)
}

/// The same by cofactors (d² minors by Bareiss), kept to test the elimination against.
#[cfg(test)]
fn det_and_scaled_inverse_by_minors(cols: &[Vec<BigInt>]) -> (BigInt, Vec<Vec<BigInt>>) {
    let d = cols.len();
    // W[r][c] = cols[c][r].
    let w: Vec<Vec<BigInt>> = (0..d)
        .map(|r| (0..d).map(|c| cols[c][r].clone()).collect())
        .collect();
    let det = determinant_of_rows(w.clone());
    if det.is_zero() {
        return (det, Vec::new());
    }
    // adj(W)[i][j] = (−1)^(i+j) · minor of W without row j and column i.
    let mut adj = vec![vec![BigInt::zero(); d]; d];
    for (i, row) in adj.iter_mut().enumerate() {
        for (j, entry) in row.iter_mut().enumerate() {
            let minor: Vec<Vec<BigInt>> = (0..d)
                .filter(|&r| r != j)
                .map(|r| {
                    (0..d)
                        .filter(|&c| c != i)
                        .map(|c| w[r][c].clone())
                        .collect()
                })
                .collect();
            let m = determinant_of_rows(minor);
            *entry = if (i + j) % 2 == 0 { m } else { -m };
        }
    }
    if det.is_negative() {
        for row in adj.iter_mut() {
            for x in row.iter_mut() {
                *x = -x.clone();
            }
        }
    }
    (det, adj)
}

fn max_abs(v: &[BigInt]) -> BigInt {
    v.iter().map(|x| x.abs()).max().unwrap_or_default()
}

/// The unimodular cones (with signs) whose signed sum is cone(rays) modulo lower-dimensional
/// cones, handed to `emit` one at a time as the recursion finds them (a decomposition may have
/// millions; the caller decides what to keep). An error of `emit` stops the decomposition.
pub fn unimodular(
    rays: Vec<Vec<BigInt>>,
    sign: i8,
    emit: &mut dyn FnMut(SignedCone) -> Result<(), AlgebraError>,
) -> Result<(), AlgebraError> {
    if crate::interrupt::requested() {
        return Err(AlgebraError::Interrupted);
    }
    let d = rays.len();
    let (det, scaled) = det_and_scaled_inverse(&rays);
    let n = det.abs();
    if n.is_zero() {
        return Ok(());
    }
    if n.is_one() {
        return emit(SignedCone {
            sign,
            rays,
            inverse: scaled,
        });
    }
    // The coefficient lattice W^{-1} Z^d scaled by N: its basis is the columns of N·W^{-1},
    // that is the rows of its transpose.
    let basis: Vec<Vec<BigInt>> = (0..d)
        .map(|c| (0..d).map(|r| scaled[r][c].clone()).collect())
        .collect();
    let reduced = lll::reduce(basis);
    let mut candidates = reduced.clone();
    for i in 0..d {
        for j in i + 1..d {
            candidates.push(
                reduced[i]
                    .iter()
                    .zip(&reduced[j])
                    .map(|(a, b)| a + b)
                    .collect(),
            );
            candidates.push(
                reduced[i]
                    .iter()
                    .zip(&reduced[j])
                    .map(|(a, b)| a - b)
                    .collect(),
            );
        }
    }
    let shortest = candidates
        .into_iter()
        .filter(|v| v.iter().any(|x| !x.is_zero()))
        .min_by_key(|v| max_abs(v));
    let Some(mut alpha) = shortest.filter(|v| max_abs(v) < n) else {
        return Err(AlgebraError::TooLarge(
            "Barvinok's decomposition found no short vector (a cone of index ".to_string()
                + &n.to_string()
                + ")",
        ));
    };
    if !alpha.iter().any(|x| x.is_positive()) {
        for x in alpha.iter_mut() {
            *x = -x.clone();
        }
    }
    // z = W α / N, made primitive (α with it).
    let mut z: Vec<BigInt> = (0..d)
        .map(|r| (0..d).map(|c| &rays[c][r] * &alpha[c]).sum::<BigInt>() / &n)
        .collect();
    let g = z.iter().fold(BigInt::zero(), |g, x| g.gcd(x));
    if g > BigInt::one() {
        for x in z.iter_mut() {
            *x = &*x / &g;
        }
        for x in alpha.iter_mut() {
            *x = &*x / &g;
        }
    }
    for i in 0..d {
        if alpha[i].is_zero() {
            continue;
        }
        let mut next = rays.clone();
        next[i] = z.clone();
        let s = if alpha[i].is_positive() { sign } else { -sign };
        unimodular(next, s, emit)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The elimination gives the determinant and ±adjugate that cofactors give.
        #[test]
        fn elimination_matches_cofactors(
            d in 1usize..6,
            entries in proptest::collection::vec(-6i64..7, 36),
        ) {
            let cols: Vec<Vec<BigInt>> = (0..d)
                .map(|c| (0..d).map(|r| BigInt::from(entries[c * 6 + r])).collect())
                .collect();
            prop_assert_eq!(det_and_scaled_inverse(&cols), det_and_scaled_inverse_by_minors(&cols));
            prop_assert_eq!(det_and_scaled_inverse_big(&cols), det_and_scaled_inverse_by_minors(&cols));
        }
    }

    /// Whether x lies in the interior of cone(rays), or None on a boundary hyperplane.
    fn inside(rays: &[Vec<BigInt>], x: &[i64]) -> Option<bool> {
        // N·W^{-1}x with N = |det W| > 0: the coefficients of x, scaled.
        let (_, scaled) = det_and_scaled_inverse(rays);
        let mut all = true;
        for row in &scaled {
            let c: BigInt = row
                .iter()
                .zip(x)
                .map(|(s, &xk)| s * BigInt::from(xk))
                .sum::<BigInt>();
            if c.is_zero() {
                return None;
            }
            all &= c.is_positive();
        }
        Some(all)
    }

    proptest! {
        /// Every cone of the decomposition is unimodular, and at points on no cone's boundary
        /// (lower-dimensional cones do not count) the signed indicators add up to the cone's.
        #[test]
        fn decomposition_is_unimodular_and_signed_sum_is_the_cone(
            rows in proptest::collection::vec(proptest::collection::vec(-6i64..7, 3), 3),
            points in proptest::collection::vec(proptest::collection::vec(-40i64..41, 3), 60),
        ) {
            let rays: Vec<Vec<BigInt>> = rows.iter().map(|r| r.iter().map(|&x| BigInt::from(x)).collect()).collect();
            let (det, _) = det_and_scaled_inverse(&rays);
            prop_assume!(!det.is_zero());
            let mut out = Vec::new();
            unimodular(rays.clone(), 1, &mut |c| {
                out.push(c);
                Ok(())
            })
            .unwrap();
            for c in &out {
                prop_assert!(det_and_scaled_inverse(&c.rays).0.abs().is_one());
            }
            // Points on no cone's boundary hyperplanes (those on one are skipped).
            for q in &points {
                let Some(lhs) = inside(&rays, q) else { continue };
                let Some(rhs) = out
                    .iter()
                    .map(|c| inside(&c.rays, q).map(|b| i64::from(c.sign) * i64::from(b)))
                    .sum::<Option<i64>>()
                else {
                    continue;
                };
                prop_assert_eq!(i64::from(lhs), rhs);
            }
        }
    }
}
