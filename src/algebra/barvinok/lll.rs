//! Lenstra–Lenstra–Lovász reduction of an integer lattice basis, exactly (rational Gram–Schmidt
//! coefficients, δ = 3/4). Barvinok's decomposition uses it to find short vectors of the lattice
//! of a simplicial cone's coefficients; the dimensions are small, so clarity wins over the
//! integral variants that avoid rationals.

use num_bigint::BigInt;
#[cfg(test)]
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::dot;

#[cfg(test)]
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

/// An LLL-reduced basis (δ = 3/4) of the lattice spanned by the rows of `basis` (linearly
/// independent), by the integral version of the algorithm (Cohen, *A Course in Computational
/// Algebraic Number Theory*, Algorithm 2.6.7): the Gram determinants d_i and λ_ij = d_j μ_ij are
/// integers, so no rational is ever reduced.
#[allow(clippy::needless_range_loop)] // indices as in the book
pub fn reduce(mut b: Vec<Vec<BigInt>>) -> Vec<Vec<BigInt>> {
    use num_integer::Integer as _;
    let n = b.len();
    if n < 2 {
        return b;
    }
    // 1-based as in the book: d[0] = 1, b_i = b[i − 1], lambda[k][j] for j < k.
    let mut d = vec![BigInt::zero(); n + 1];
    d[0] = BigInt::one();
    d[1] = dot(&b[0], &b[0]);
    let mut lambda = vec![vec![BigInt::zero(); n + 1]; n + 1];
    let mut k = 2;
    let mut kmax = 1;
    // b_k −= q b_l with the λ's updated (size reduction of λ_kl).
    let red = |b: &mut Vec<Vec<BigInt>>,
               lambda: &mut Vec<Vec<BigInt>>,
               d: &[BigInt],
               k: usize,
               l: usize| {
        let two = BigInt::from(2);
        if (&lambda[k][l] * &two).abs() > d[l] {
            let q = (&lambda[k][l] * &two + &d[l]).div_floor(&(&d[l] * &two));
            let bl = b[l - 1].clone();
            for (x, y) in b[k - 1].iter_mut().zip(&bl) {
                *x -= &q * y;
            }
            lambda[k][l] -= &q * &d[l];
            for i in 1..l {
                let v = &q * &lambda[l][i];
                lambda[k][i] -= v;
            }
        }
    };
    while k <= n {
        if k > kmax {
            kmax = k;
            for j in 1..=k {
                let mut u = dot(&b[k - 1], &b[j - 1]);
                for i in 1..j {
                    u = (&d[i] * &u - &lambda[k][i] * &lambda[j][i]) / &d[i - 1];
                }
                if j < k {
                    lambda[k][j] = u;
                } else {
                    d[k] = u;
                }
            }
        }
        loop {
            red(&mut b, &mut lambda, &d, k, k - 1);
            let lhs = BigInt::from(4) * &d[k] * &d[k - 2];
            let rhs = BigInt::from(3) * &d[k - 1] * &d[k - 1]
                - BigInt::from(4) * &lambda[k][k - 1] * &lambda[k][k - 1];
            if lhs >= rhs {
                break;
            }
            // Swap b_k and b_{k−1}.
            b.swap(k - 1, k - 2);
            for j in 1..k - 1 {
                let t = lambda[k][j].clone();
                lambda[k][j] = std::mem::replace(&mut lambda[k - 1][j], t);
            }
            let lam = lambda[k][k - 1].clone();
            let big_b = (&d[k - 2] * &d[k] + &lam * &lam) / &d[k - 1];
            for i in k + 1..=kmax {
                let t = lambda[i][k].clone();
                lambda[i][k] = (&d[k] * &lambda[i][k - 1] - &lam * &t) / &d[k - 1];
                lambda[i][k - 1] = (&big_b * &t + &lam * &lambda[i][k]) / &d[k];
            }
            d[k - 1] = big_b;
            if k > 2 {
                k -= 1;
            }
        }
        for l in (1..k - 1).rev() {
            red(&mut b, &mut lambda, &d, k, l);
        }
        k += 1;
    }
    b
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)] // matrix indices read as in the textbook
mod tests {
    use super::*;
    use num_traits::Signed;

    /// The squared Euclidean length of an integer vector.
    fn norm2(x: &[BigInt]) -> BigInt {
        dot(x, x)
    }
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
