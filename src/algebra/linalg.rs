//! Exact linear algebra over Q with integer inputs: reduced row echelon form, rank, a basis of the
//! kernel made of primitive integer vectors, solving linear systems, and determinants by
//! fraction-free (Bareiss) elimination. The lattice algorithms (Hermite and Smith normal forms)
//! build on these.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::{Integer, Matrix, Vector};

fn to_q(x: &Integer) -> BigRational {
    BigRational::from(x.to_bigint())
}

/// Gauss–Jordan elimination in place, choosing pivots only among the first `pivot_cols` columns;
/// returns the pivot columns. Rows below the last pivot row are left as they end up (zero in the
/// pivot columns).
fn eliminate(m: &mut [Vec<BigRational>], pivot_cols: usize) -> Vec<usize> {
    match eliminate_small(m, pivot_cols) {
        Some(pivots) => pivots,
        None => eliminate_exact(m, pivot_cols),
    }
}

/// [`eliminate`] for a matrix of integers of at most 64 bits, in machine integers: fraction-free
/// Gauss–Jordan elimination (each row replaced by p·row − f·pivot row, then divided by the gcd of
/// its entries), with every step checked for overflow (`None` then, and `m` untouched). The
/// reduced row echelon form is unique, so dividing each pivot row by its pivot at the end gives
/// exactly the rows [`eliminate_exact`] computes; the rows below the pivots are zero in the pivot
/// columns and are only returned up to a factor (callers test them for zero).
fn eliminate_small(m: &mut [Vec<BigRational>], pivot_cols: usize) -> Option<Vec<usize>> {
    use num_traits::ToPrimitive;
    let mut a: Vec<Vec<i128>> = m
        .iter()
        .map(|row| {
            row.iter()
                .map(|x| {
                    x.is_integer()
                        .then(|| x.numer().to_i64().map(i128::from))
                        .flatten()
                })
                .collect::<Option<Vec<i128>>>()
        })
        .collect::<Option<_>>()?;
    fn gcd(mut x: i128, mut y: i128) -> i128 {
        x = x.abs();
        y = y.abs();
        while y != 0 {
            (x, y) = (y, x % y);
        }
        x
    }
    let mut pivots = Vec::new();
    let mut r = 0;
    for c in 0..pivot_cols {
        if r == a.len() {
            break;
        }
        let Some(p) = (r..a.len()).find(|&i| a[i][c] != 0) else {
            continue;
        };
        a.swap(r, p);
        let pivot_row = a[r].clone();
        let pv = pivot_row[c];
        for (i, row) in a.iter_mut().enumerate() {
            if i == r || row[c] == 0 {
                continue;
            }
            let g = gcd(pv, row[c]);
            let (scale, f) = (pv / g, row[c] / g);
            let mut content = 0i128;
            for (x, q) in row.iter_mut().zip(&pivot_row) {
                *x = x.checked_mul(scale)?.checked_sub(q.checked_mul(f)?)?;
                // Far from i128::MIN, so that absolute values never overflow.
                if x.unsigned_abs() >= 1 << 126 {
                    return None;
                }
                content = gcd(content, *x);
            }
            if content > 1 {
                for x in row.iter_mut() {
                    *x /= content;
                }
            }
        }
        pivots.push(c);
        r += 1;
    }
    for (i, (row, out)) in a.iter().zip(m.iter_mut()).enumerate() {
        let divisor = pivots.get(i).map_or(1, |&c| row[c]);
        for (x, o) in row.iter().zip(out.iter_mut()) {
            *o = BigRational::new(BigInt::from(*x), BigInt::from(divisor));
        }
    }
    Some(pivots)
}

/// [`eliminate`] over Q in big rationals.
fn eliminate_exact(m: &mut [Vec<BigRational>], pivot_cols: usize) -> Vec<usize> {
    let mut pivots = Vec::new();
    let mut r = 0;
    for c in 0..pivot_cols {
        if r == m.len() {
            break;
        }
        let Some(p) = (r..m.len()).find(|&i| !m[i][c].is_zero()) else {
            continue;
        };
        m.swap(r, p);
        let inv = m[r][c].recip();
        for x in m[r].iter_mut() {
            *x *= &inv;
        }
        let pivot_row = m[r].clone();
        for (i, row) in m.iter_mut().enumerate() {
            if i != r && !row[c].is_zero() {
                let f = row[c].clone();
                for (x, p) in row.iter_mut().zip(&pivot_row) {
                    *x -= p * &f;
                }
            }
        }
        pivots.push(c);
        r += 1;
    }
    pivots
}

/// The reduced row echelon form of the rows (over Q), with the pivot column of each nonzero row.
pub fn rref(rows: &[Vector], ncols: usize) -> (Vec<Vec<BigRational>>, Vec<usize>) {
    let mut m: Vec<Vec<BigRational>> = rows
        .iter()
        .map(|r| r.0.iter().map(to_q).collect())
        .collect();
    let pivots = eliminate(&mut m, ncols);
    m.truncate(pivots.len());
    (m, pivots)
}

/// The rank of a set of vectors of dimension `ncols` (the dimension of their span).
pub fn rank(rows: &[Vector], ncols: usize) -> usize {
    rref(rows, ncols).1.len()
}

/// Clears denominators and common factors: the primitive integer vector on the ray of `v`.
pub fn primitive_from_rational(v: &[BigRational]) -> Vector {
    let lcm = v.iter().fold(BigInt::one(), |acc, x| {
        num_integer::Integer::lcm(&acc, x.denom())
    });
    let ints: Vec<BigInt> = v
        .iter()
        .map(|x| (x * BigRational::from(lcm.clone())).to_integer())
        .collect();
    primitive(&Vector(ints.into_iter().map(Integer::from).collect()))
}

/// `v` divided by the gcd of its entries (0 stays 0).
pub fn primitive(v: &Vector) -> Vector {
    let g = v.0.iter().fold(Integer::ZERO, |acc, x| acc.gcd(x));
    if g.is_zero() || g == Integer::ONE {
        return v.clone();
    }
    Vector(
        v.0.iter()
            .map(|x| x.div_floor(&g).expect("g is not zero"))
            .collect(),
    )
}

/// A basis of {x ∈ Q^d : r·x = 0 for every row r}, as primitive integer vectors.
pub fn kernel(rows: &[Vector], ncols: usize) -> Vec<Vector> {
    let (m, pivots) = rref(rows, ncols);
    let free: Vec<usize> = (0..ncols).filter(|c| !pivots.contains(c)).collect();
    free.iter()
        .map(|&f| {
            let mut x = vec![BigRational::zero(); ncols];
            x[f] = BigRational::one();
            for (row, &p) in m.iter().zip(&pivots) {
                x[p] = -row[f].clone();
            }
            primitive_from_rational(&x)
        })
        .collect()
}

/// The columns of A^{-1} for an invertible square matrix A given by its rows, each made a
/// primitive integer vector: column i is the ray on which every row but row i vanishes and row i
/// is positive. One elimination of [A | I] (rather than a kernel per column).
pub fn inverse_columns(rows: &[Vector]) -> Vec<Vector> {
    let k = rows.len();
    let augmented: Vec<Vector> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row = r.0.clone();
            row.extend((0..k).map(|j| if i == j { Integer::ONE } else { Integer::ZERO }));
            Vector(row)
        })
        .collect();
    let mut m: Vec<Vec<BigRational>> = augmented
        .iter()
        .map(|r| r.0.iter().map(to_q).collect())
        .collect();
    let pivots = eliminate(&mut m, k);
    assert_eq!(
        pivots.len(),
        k,
        "inverse_columns needs an invertible matrix"
    );
    // m is now [I | A^{-1}].
    (0..k)
        .map(|i| {
            let column: Vec<BigRational> = m.iter().map(|row| row[k + i].clone()).collect();
            primitive_from_rational(&column)
        })
        .collect()
}

/// Some rational solution x of A x = b, or `None` when there is none.
pub fn solve(a: &Matrix, b: &[BigRational]) -> Option<Vec<BigRational>> {
    let n = a.ncols();
    let mut m: Vec<Vec<BigRational>> = (0..a.nrows())
        .map(|i| {
            (0..n)
                .map(|j| to_q(a.get(i, j)))
                .chain(std::iter::once(b[i].clone()))
                .collect()
        })
        .collect();
    // Eliminate on the augmented matrix, pivoting only in the first n columns.
    let pivots = eliminate(&mut m, n);
    if m[pivots.len()..].iter().any(|row| !row[n].is_zero()) {
        return None;
    }
    let mut x = vec![BigRational::zero(); n];
    for (row, &p) in m.iter().zip(&pivots) {
        x[p] = row[n].clone();
    }
    Some(x)
}

/// The determinant of a square matrix, by fraction-free elimination (exact, no fractions).
pub fn determinant(a: &Matrix) -> Integer {
    let n = a.nrows();
    assert_eq!(n, a.ncols(), "determinant of a non-square matrix");
    Integer::from(determinant_of_rows(
        (0..n)
            .map(|i| (0..n).map(|j| a.get(i, j).to_bigint()).collect())
            .collect(),
    ))
}

/// The determinant of a square matrix given by its rows of big integers, by Bareiss's
/// fraction-free elimination (1 for the empty matrix).
pub fn determinant_of_rows(mut m: Vec<Vec<BigInt>>) -> BigInt {
    let n = m.len();
    if n == 0 {
        return BigInt::one();
    }
    let mut sign = BigInt::one();
    let mut prev = BigInt::one();
    for k in 0..n {
        if m[k][k].is_zero() {
            let Some(p) = (k + 1..n).find(|&i| !m[i][k].is_zero()) else {
                return BigInt::zero();
            };
            m.swap(k, p);
            sign = -sign;
        }
        for i in k + 1..n {
            for j in k + 1..n {
                let v = (&m[i][j] * &m[k][k] - &m[i][k] * &m[k][j]) / &prev;
                m[i][j] = v;
            }
        }
        prev = m[k][k].clone();
    }
    sign * &m[n - 1][n - 1]
}

/// Whether `x` is a nonnegative rational vector.
pub fn is_nonnegative(x: &[BigRational]) -> bool {
    x.iter().all(|v| !v.is_negative())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn v(xs: &[i64]) -> Vector {
        Vector::from_i64s(xs)
    }

    fn brute_det(m: &[Vec<i64>]) -> BigInt {
        // Leibniz expansion along the first row.
        let n = m.len();
        if n == 1 {
            return BigInt::from(m[0][0]);
        }
        (0..n)
            .map(|j| {
                let minor: Vec<Vec<i64>> = m[1..]
                    .iter()
                    .map(|r| {
                        r.iter()
                            .enumerate()
                            .filter(|(c, _)| *c != j)
                            .map(|(_, x)| *x)
                            .collect()
                    })
                    .collect();
                let s = if j % 2 == 0 { 1 } else { -1 };
                BigInt::from(s * m[0][j]) * brute_det(&minor)
            })
            .sum()
    }

    proptest! {
        /// Column i of the inverse is a primitive vector on which row i is positive and every
        /// other row vanishes (checked by multiplying out; singular draws are skipped).
        #[test]
        fn inverse_columns_invert(
            rows in proptest::collection::vec(proptest::collection::vec(-9i64..=9, 4), 4),
        ) {
            let m: Vec<Vec<i64>> = rows.clone();
            prop_assume!(!brute_det(&m).is_zero());
            let rows: Vec<Vector> = rows.iter().map(|r| v(r)).collect();
            let columns = inverse_columns(&rows);
            prop_assert_eq!(columns.len(), 4);
            for (i, c) in columns.iter().enumerate() {
                prop_assert_eq!(&primitive(c), c);
                for (j, r) in rows.iter().enumerate() {
                    let x = r.dot(c);
                    if i == j {
                        prop_assert!(x.signum() > 0);
                    } else {
                        prop_assert!(x.is_zero());
                    }
                }
            }
        }

        /// The machine-integer elimination gives the same reduced rows and pivots as the one in
        /// big rationals, and the same zero pattern below them (also for an augmented column that
        /// is not pivoted on).
        #[test]
        fn small_elimination_agrees_with_exact(
            rows in proptest::collection::vec(proptest::collection::vec(-9i64..=9, 5), 0..6),
            huge in proptest::bool::ANY,
        ) {
            let mut m: Vec<Vec<BigRational>> = rows
                .iter()
                .map(|r| r.iter().map(|&x| BigRational::from(BigInt::from(x))).collect())
                .collect();
            if huge && !m.is_empty() {
                // Entries near 2^62 overflow the products and fall back to the exact path.
                m[0][0] = BigRational::from(BigInt::from(i64::MAX / 3));
            }
            let mut exact = m.clone();
            let exact_pivots = eliminate_exact(&mut exact, 4);
            let mut small = m.clone();
            let small_pivots = eliminate(&mut small, 4);
            prop_assert_eq!(&small_pivots, &exact_pivots);
            let k = exact_pivots.len();
            prop_assert_eq!(&small[..k], &exact[..k]);
            for (s, e) in small[k..].iter().zip(&exact[k..]) {
                prop_assert_eq!(s[4].is_zero(), e[4].is_zero());
            }
        }

        #[test]
        fn kernel_vectors_are_annihilated_and_independent(rows in proptest::collection::vec(proptest::collection::vec(-4i64..=4, 4), 0..4)) {
            let rows: Vec<Vector> = rows.iter().map(|r| v(r)).collect();
            let k = kernel(&rows, 4);
            prop_assert_eq!(k.len() + rank(&rows, 4), 4);
            for x in &k {
                for r in &rows {
                    prop_assert!(r.dot(x).is_zero());
                }
            }
            prop_assert_eq!(rank(&k, 4), k.len());
        }

        #[test]
        fn determinant_matches_the_leibniz_formula(entries in proptest::collection::vec(-6i64..=6, 16)) {
            let m: Vec<Vec<i64>> = entries.chunks(4).map(|c| c.to_vec()).collect();
            let a = Matrix::from_rows(m.iter().map(|r| r.iter().map(|&x| Integer::from(x)).collect()).collect()).unwrap();
            prop_assert_eq!(determinant(&a).to_bigint(), brute_det(&m));
        }

        #[test]
        fn solutions_solve(entries in proptest::collection::vec(-5i64..=5, 12), x in proptest::collection::vec(-5i64..=5, 4)) {
            let a = Matrix::from_rows(entries.chunks(4).map(|c| c.iter().map(|&e| Integer::from(e)).collect()).collect()).unwrap();
            let b: Vec<BigRational> = a.apply(&v(&x)).0.iter().map(to_q).collect();
            let y = solve(&a, &b).expect("b is in the image");
            for (i, bi) in b.iter().enumerate() {
                let lhs: BigRational = (0..4).map(|j| to_q(a.get(i, j)) * &y[j]).sum();
                prop_assert_eq!(&lhs, bi);
            }
        }
    }

    #[test]
    fn inconsistent_systems_have_no_solution() {
        let a =
            Matrix::from_rows(vec![vec![1.into(), 1.into()], vec![2.into(), 2.into()]]).unwrap();
        assert!(solve(
            &a,
            &[
                BigRational::from(BigInt::from(1)),
                BigRational::from(BigInt::from(3))
            ]
        )
        .is_none());
    }

    #[test]
    fn primitive_vectors() {
        assert_eq!(primitive(&v(&[4, -6, 0])), v(&[2, -3, 0]));
        assert_eq!(kernel(&[v(&[1, 1, 0])], 3).len(), 2);
    }
}
