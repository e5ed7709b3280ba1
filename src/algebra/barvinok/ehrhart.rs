//! Ehrhart quasi-polynomials of rational polytopes: L(P, n) = #(nP ∩ Z^d) for integers n ≥ 1 is a
//! quasi-polynomial of degree dim P whose period divides q, the least common denominator of the
//! vertices (Ehrhart's theorem for rational polytopes). Each constituent (n ≡ r mod q) is the
//! polynomial through dim P + 1 of its values, each counted by Barvinok's short form
//! ([`super::ShortForm::count`]), so the time does not grow with the size of the numbers.

use num_bigint::BigInt;
use num_integer::Integer as _;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use crate::algebra::linalg::solve;
use crate::algebra::polyhedral::{integer_inequalities, polyhedron_data};
use crate::algebra::quasi_polynomial::QuasiPolynomial;
use crate::algebra::{AlgebraError, Integer, Matrix, Polyhedron};

/// The most constituents (the period q) computed before the polytope is refused.
pub const MAX_PERIOD: usize = 1 << 12;

/// The Ehrhart quasi-polynomial L(P, n) (n ≥ 1) of a bounded polyhedron {x : Ax ≥ b}.
pub fn ehrhart(p: &Polyhedron) -> Result<QuasiPolynomial, AlgebraError> {
    let data = polyhedron_data(p)?;
    if let Some(ray) = data.unbounded_direction() {
        return Err(AlgebraError::Unbounded { ray: ray.clone() });
    }
    if data.is_empty() {
        return Ok(QuasiPolynomial {
            period: 1,
            constituents: vec![vec![BigRational::zero()]],
        });
    }
    let q = data
        .vertices()
        .iter()
        .flatten()
        .fold(BigInt::one(), |q, x| q.lcm(x.denom()));
    let period = match q.to_usize() {
        Some(q) if q <= MAX_PERIOD => q,
        _ => {
            return Err(AlgebraError::TooLarge(format!(
                "the Ehrhart quasi-polynomial has period up to {q} (the vertices' common \
                     denominator); at most {MAX_PERIOD} constituents are computed"
            )))
        }
    };
    let rows = integer_inequalities(p)?;
    let a = Matrix::from_rows(rows.iter().map(|(a, _)| a.0.clone()).collect())?;
    let degree = data.dim();
    let dilate = |n: usize| -> Result<BigInt, AlgebraError> {
        let b: Vec<BigRational> = rows
            .iter()
            .map(|(_, b)| BigRational::from(b.to_bigint() * BigInt::from(n)))
            .collect();
        super::count_polytope(&Polyhedron::from_inequalities(a.clone(), b)?, &mut |_| {})
    };
    let mut constituents = Vec::with_capacity(period);
    for r in 0..period {
        // n = r + kq ≥ 1 for degree + 1 values of k.
        let first = if r == 0 { 1 } else { 0 };
        let ns: Vec<usize> = (first..first + degree + 1)
            .map(|k| r + k * period)
            .collect();
        let vandermonde = Matrix::from_rows(
            ns.iter()
                .map(|&n| {
                    (0..=degree)
                        .map(|j| Integer::from(BigInt::from(n).pow(j as u32)))
                        .collect()
                })
                .collect(),
        )?;
        let values = ns
            .iter()
            .map(|&n| dilate(n).map(BigRational::from))
            .collect::<Result<Vec<_>, _>>()?;
        let coefficients = solve(&vandermonde, &values).ok_or_else(|| {
            AlgebraError::TooLarge("internal error: no interpolating polynomial".into())
        })?;
        constituents.push(coefficients);
    }
    // Constituents that agree for every residue: one polynomial.
    Ok(QuasiPolynomial {
        period,
        constituents,
    }
    .merged())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algebra::polyhedral::lattice_points;

    fn polytope(rows: &[Vec<i64>], rhs: &[(i64, i64)]) -> Polyhedron {
        Polyhedron::from_inequalities(
            Matrix::from_rows(
                rows.iter()
                    .map(|r| r.iter().map(|&x| Integer::from(x)).collect())
                    .collect(),
            )
            .unwrap(),
            rhs.iter()
                .map(|&(n, d)| BigRational::new(n.into(), d.into()))
                .collect(),
        )
        .unwrap()
    }

    /// Checks L(P, n) against enumeration of nP for n = 1..=12.
    fn check(rows: &[Vec<i64>], rhs: &[(i64, i64)]) -> QuasiPolynomial {
        let e = ehrhart(&polytope(rows, rhs)).unwrap();
        for n in 1..=12i64 {
            let dilated: Vec<(i64, i64)> = rhs.iter().map(|&(a, d)| (a * n, d)).collect();
            let brute = lattice_points(&polytope(rows, &dilated)).unwrap().len();
            assert_eq!(
                e.value(&BigInt::from(n)),
                BigRational::from(BigInt::from(brute)),
                "n = {n}"
            );
        }
        e
    }

    #[test]
    fn lattice_triangle_is_a_polynomial() {
        // x, y ≥ 0, x + y ≤ 1: (n + 1)(n + 2)/2.
        let e = check(
            &[vec![1, 0], vec![0, 1], vec![-1, -1]],
            &[(0, 1), (0, 1), (-1, 1)],
        );
        assert_eq!(e.to_string(), "1/2 n^2 + 3/2 n + 1");
    }

    #[test]
    fn rational_segment_and_simplex_have_periods() {
        // [0, 1/2]: ⌊n/2⌋ + 1.
        let e = check(&[vec![1], vec![-1]], &[(0, 1), (-1, 2)]);
        assert_eq!(
            e.to_string(),
            "n ≡ 0 mod 2: 1/2 n + 1; n ≡ 1 mod 2: 1/2 n + 1/2"
        );
        // {x ≥ 0, 3x + 5y + 7z ≤ 1}: vertices with denominators 3, 5, 7, period 105.
        let e = check(
            &[
                vec![1, 0, 0],
                vec![0, 1, 0],
                vec![0, 0, 1],
                vec![-3, -5, -7],
            ],
            &[(0, 1), (0, 1), (0, 1), (-1, 1)],
        );
        assert_eq!(e.period, 105);
        // Normaliz's count at n = 1000 and the at 10^5.
        assert_eq!(
            e.value(&BigInt::from(1000)),
            BigRational::from(BigInt::from(1_625_669))
        );
        assert_eq!(
            e.value(&BigInt::from(100_000)),
            BigRational::from(BigInt::from(1_587_682_566_826i64))
        );
    }
}
