//! Lenstra–Lenstra–Lovász reduction of an integer lattice basis, exactly (rational Gram–Schmidt
//! coefficients, δ = 3/4). Barvinok's decomposition uses it to find short vectors of the lattice
//! of a simplicial cone's coefficients; the dimensions are small, so clarity wins over the
//! integral variants that avoid rationals.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

fn dot(x: &[BigInt], y: &[BigInt]) -> BigInt {
    x.iter().zip(y).map(|(a, b)| a * b).sum()
}

/// Gram–Schmidt: the squared lengths ‖b*_i‖² and the coefficients μ_ij (j < i).
fn gram_schmidt(b: &[Vec<BigInt>]) -> (Vec<BigRational>, Vec<Vec<BigRational>>) {
    let n = b.len();
    let mut star: Vec<Vec<BigRational>> = Vec::with_capacity(n);
    let mut norms: Vec<BigRational> = Vec::with_capacity(n);
    let mut mu = vec![vec![BigRational::zero(); n]; n];
    for i in 0..n {
        let mut v: Vec<BigRational> = b[i].iter().map(|x| BigRational::from(x.clone())).collect();
        for j in 0..i {
            if norms[j].is_zero() {
                continue;
            }
            let num: BigRational = b[i]
                .iter()
                .zip(&star[j])
                .map(|(x, y)| BigRational::from(x.clone()) * y)
                .sum();
            let m = num / &norms[j];
            for (vk, sk) in v.iter_mut().zip(&star[j]) {
                *vk -= &m * sk;
            }
            mu[i][j] = m;
        }
        norms.push(v.iter().map(|x| x * x).sum());
        star.push(v);
    }
    (norms, mu)
}

/// The nearest integer to q (halves rounded up).
fn round(q: &BigRational) -> BigInt {
    (q + BigRational::new(BigInt::one(), BigInt::from(2)))
        .floor()
        .to_integer()
}

/// An LLL-reduced basis of the lattice spanned by the rows of `basis` (linearly independent).
pub fn reduce(mut b: Vec<Vec<BigInt>>) -> Vec<Vec<BigInt>> {
    let n = b.len();
    if n < 2 {
        return b;
    }
    let delta = BigRational::new(BigInt::from(3), BigInt::from(4));
    let mut k = 1;
    while k < n {
        // Size reduction of b_k against b_{k−1}, …, b_0.
        let (_, mut mu) = gram_schmidt(&b);
        for j in (0..k).rev() {
            let q = round(&mu[k][j]);
            if !q.is_zero() {
                let bj = b[j].clone();
                for (x, y) in b[k].iter_mut().zip(&bj) {
                    *x -= &q * y;
                }
                let qr = BigRational::from(q);
                let row_j = mu[j].clone();
                for (m, mj) in mu[k].iter_mut().zip(&row_j).take(j) {
                    *m -= &qr * mj;
                }
                mu[k][j] -= qr;
            }
        }
        let (norms, mu) = gram_schmidt(&b);
        let lovasz = (&delta - &mu[k][k - 1] * &mu[k][k - 1]) * &norms[k - 1];
        if norms[k] >= lovasz {
            k += 1;
        } else {
            b.swap(k, k - 1);
            k = (k - 1).max(1);
        }
    }
    b
}

/// The squared Euclidean length of an integer vector.
pub fn norm2(x: &[BigInt]) -> BigInt {
    dot(x, x)
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)] // matrix indices read as in the textbook
mod tests {
    use super::*;
    use num_traits::Signed;
    use proptest::prelude::*;

    fn det(m: &[Vec<BigInt>]) -> BigRational {
        let n = m.len();
        let mut a: Vec<Vec<BigRational>> = m
            .iter()
            .map(|r| r.iter().map(|x| BigRational::from(x.clone())).collect())
            .collect();
        let mut d = BigRational::one();
        for c in 0..n {
            let Some(p) = (c..n).find(|&r| !a[r][c].is_zero()) else {
                return BigRational::zero();
            };
            if p != c {
                a.swap(p, c);
                d = -d;
            }
            d *= a[c][c].clone();
            for r in c + 1..n {
                let f = &a[r][c] / &a[c][c];
                for k in c..n {
                    let v = &f * &a[c][k];
                    a[r][k] -= v;
                }
            }
        }
        d
    }

    proptest! {
        /// The reduced basis spans the same lattice (same |det|, and the old basis is an integer
        /// combination of the new: unimodular change), is size-reduced and meets Lovász's condition.
        #[test]
        fn reduced_bases_are_equivalent_and_reduced(
            rows in proptest::collection::vec(proptest::collection::vec(-50i64..50, 3), 3)
        ) {
            let b: Vec<Vec<BigInt>> = rows.iter().map(|r| r.iter().map(|&x| BigInt::from(x)).collect()).collect();
            let d = det(&b);
            prop_assume!(!d.is_zero());
            let r = reduce(b.clone());
            prop_assert_eq!(det(&r).abs(), d.abs());
            let (norms, mu) = gram_schmidt(&r);
            let half = BigRational::new(BigInt::one(), BigInt::from(2));
            for i in 0..3 {
                for j in 0..i {
                    prop_assert!(mu[i][j].abs() <= half);
                }
            }
            let delta = BigRational::new(BigInt::from(3), BigInt::from(4));
            for k in 1..3 {
                prop_assert!(norms[k] >= (&delta - &mu[k][k - 1] * &mu[k][k - 1]) * &norms[k - 1]);
            }
            // The first vector is no longer than the shortest input vector times 2^((n-1)/2).
            let shortest = b.iter().map(|v| norm2(v)).min().unwrap();
            prop_assert!(norm2(&r[0]) <= shortest * 4);
        }
    }
}
