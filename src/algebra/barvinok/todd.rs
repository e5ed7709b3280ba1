//! The value at t = (1, …, 1) of a sum of terms ε t^p / Π_k (1 − t^{g_k}), each of which has a
//! pole there: along a direction λ with λ·g_k ≠ 0 for every denominator, t = e^{sλ} turns each
//! term into a Laurent series in s, and the sum's value is the sum of the constant terms (the
//! poles cancel). With a = λ·p and c_k = λ·g_k,
//! 1/(1 − e^{cs}) = −(1/(cs))·Td(cs), Td(x) = x/(e^x − 1) = Σ_j B_j x^j/j! (B_1 = −1/2),
//! so the constant term is ε (−1)^d / Π_k c_k times the coefficient of s^d in
//! e^{as} Π_k Td(c_k s): exact rational arithmetic, O(d³) per term.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::{dot, ShortTerm};
use crate::algebra::AlgebraError;

/// B_0, …, B_n (with B_1 = −1/2), from Σ_{k=0}^{m} C(m+1, k) B_k = 0.
pub(super) fn bernoulli(n: usize) -> Vec<BigRational> {
    let mut b: Vec<BigRational> = vec![BigRational::one()];
    for m in 1..=n {
        let mut binom = BigInt::one(); // C(m+1, k)
        let mut sum = BigRational::zero();
        for (k, bk) in b.iter().enumerate() {
            sum += BigRational::from(binom.clone()) * bk;
            binom = binom * BigInt::from(m + 1 - k) / BigInt::from(k + 1);
        }
        // C(m+1, m) = m + 1.
        b.push(-sum / BigRational::from(BigInt::from(m + 1)));
    }
    b
}

/// A direction λ = (1, m, m², …) with λ·g ≠ 0 for every denominator g of the terms.
fn generic_direction(d: usize, terms: &[ShortTerm]) -> Result<Vec<BigInt>, AlgebraError> {
    let mut m = BigInt::one();
    loop {
        if crate::interrupt::requested() {
            return Err(AlgebraError::Interrupted);
        }
        let mut lambda = Vec::with_capacity(d);
        let mut x = BigInt::one();
        for _ in 0..d {
            lambda.push(x.clone());
            x *= &m;
        }
        if terms
            .iter()
            .all(|t| t.rays.iter().all(|g| !dot(&lambda, g).is_zero()))
        {
            return Ok(lambda);
        }
        m += 1;
    }
}

/// What both evaluations expand with: a generic direction λ, the most denominators r_max of a
/// term (the highest pole order), B_0..B_{r_max} and 0!..r_max!.
struct Expansion {
    lambda: Vec<BigInt>,
    r_max: usize,
    bernoulli: Vec<BigRational>,
    factorial: Vec<BigInt>,
}

impl Expansion {
    fn of(d: usize, terms: &[ShortTerm]) -> Result<Expansion, AlgebraError> {
        let lambda = generic_direction(d, terms)?;
        let r_max = terms.iter().map(|t| t.rays.len()).max().unwrap_or(0);
        let mut factorial = vec![BigInt::one()];
        for j in 1..=r_max {
            let f = &factorial[j - 1] * BigInt::from(j);
            factorial.push(f);
        }
        Ok(Expansion {
            lambda,
            r_max,
            bernoulli: bernoulli(r_max),
            factorial,
        })
    }
}

/// Σ of the terms' values at t = 1 (their sum has no pole there when it is a polynomial).
///
/// The series are kept integral: with L the least common multiple of the denominators of
/// B_j/j! (j up to the most denominators of any term), Td(cs)·L has integer coefficients
/// T_j c^j, and for a term with r denominators e^{as}·r! has a^j·r!/j!; the coefficient of s^r
/// of their product is then divided by r!·L^r·Π c_k once per term.
pub(super) fn value_at_one(d: usize, terms: &[ShortTerm]) -> Result<BigRational, AlgebraError> {
    use num_integer::Integer as _;
    // A term with r denominators has a pole of order r: the coefficient of s^r is taken.
    let Expansion {
        lambda,
        r_max,
        bernoulli: b,
        factorial,
    } = Expansion::of(d, terms)?;
    let scaled: Vec<BigRational> = (0..=r_max)
        .map(|j| &b[j] / BigRational::from(factorial[j].clone()))
        .collect();
    let l = scaled.iter().fold(BigInt::one(), |l, x| l.lcm(x.denom()));
    let todd: Vec<BigInt> = scaled
        .iter()
        .map(|x| (x * BigRational::from(l.clone())).to_integer())
        .collect();
    let mut fractions: Vec<(BigInt, BigInt)> = Vec::with_capacity(terms.len());
    for (i, term) in terms.iter().enumerate() {
        if i % 256 == 255 && crate::interrupt::requested() {
            return Err(AlgebraError::Interrupted);
        }
        let r = term.rays.len();
        let a = dot(&lambda, &term.apex);
        // e^{as}·r! to degree r.
        let mut series: Vec<BigInt> = Vec::with_capacity(r + 1);
        let mut power = BigInt::one();
        for f in factorial.iter().take(r + 1) {
            series.push(&power * (&factorial[r] / f));
            power *= &a;
        }
        let mut denominator = &factorial[r] * num_traits::pow(l.clone(), r);
        for g in &term.rays {
            let c = dot(&lambda, g);
            // Td(cs)·L to degree r.
            let mut td: Vec<BigInt> = Vec::with_capacity(r + 1);
            let mut power = BigInt::one();
            for t in todd.iter().take(r + 1) {
                td.push(t * &power);
                power *= &c;
            }
            let mut product = vec![BigInt::zero(); r + 1];
            for (j, x) in series.iter().enumerate() {
                if x.is_zero() {
                    continue;
                }
                for (k, y) in td.iter().enumerate().take(r + 1 - j) {
                    product[j + k] += x * y;
                }
            }
            series = product;
            denominator *= c;
        }
        let mut numerator = series.swap_remove(r) * term.coefficient.numer();
        if r % 2 == 1 {
            numerator = -numerator;
        }
        fractions.push((numerator, denominator * term.coefficient.denom()));
    }
    Ok(sum_of_fractions(fractions))
}

/// Σ n_i/d_i, added pairwise in a balanced tree without reducing (so no gcd of large numbers
/// per term) and reduced once at the end.
fn sum_of_fractions(mut fractions: Vec<(BigInt, BigInt)>) -> BigRational {
    if fractions.is_empty() {
        return BigRational::zero();
    }
    while fractions.len() > 1 {
        let mut next = Vec::with_capacity(fractions.len().div_ceil(2));
        let mut it = fractions.into_iter();
        while let Some((a, b)) = it.next() {
            match it.next() {
                Some((c, d)) => next.push((a * &d + c * &b, b * d)),
                None => next.push((a, b)),
            }
        }
        fractions = next;
    }
    let (n, d) = fractions.pop().unwrap_or((BigInt::zero(), BigInt::one()));
    BigRational::new(n, d)
}

/// Power series in s with rational coefficients, truncated after s^n.
type Series = Vec<BigRational>;

fn series_mul(a: &Series, b: &Series) -> Series {
    let n = a.len();
    let mut out = vec![BigRational::zero(); n];
    for (i, x) in a.iter().enumerate() {
        if x.is_zero() {
            continue;
        }
        for (j, y) in b.iter().enumerate().take(n - i) {
            out[i + j] += x * y;
        }
    }
    out
}

/// e^{cs} to n + 1 coefficients.
fn exp_series(c: &BigRational, n: usize) -> Series {
    let mut out = Vec::with_capacity(n + 1);
    let mut term = BigRational::one();
    for k in 0..=n {
        out.push(term.clone());
        term = term * c / BigRational::from(BigInt::from(k + 1));
    }
    out
}

/// 1/a for a series with a_0 ≠ 0.
fn series_inverse(a: &Series) -> Series {
    let n = a.len();
    let mut out: Series = Vec::with_capacity(n);
    let inv0 = a[0].recip();
    out.push(inv0.clone());
    for k in 1..n {
        let mut sum = BigRational::zero();
        for j in 1..=k {
            sum += &a[j] * &out[k - j];
        }
        out.push(-sum * &inv0);
    }
    out
}

/// The value of Σ of the terms at a point x of (Q∖0)^d where some terms have poles (a factor
/// 1 − x^g = 0) but the sum may not: along t = x·e^{sλ} (λ·g ≠ 0 for every denominator), each
/// term is s^{−k} times a power series (k its vanishing factors, each −Td(cs)/(cs)); the sum's
/// coefficients of s^{−j}, j ≥ 1, must cancel (else `None`: a pole of the sum), and its constant
/// term is the value. `power(e)` is x^e.
pub(super) fn value_at(
    d: usize,
    terms: &[ShortTerm],
    power: &dyn Fn(&[BigInt]) -> BigRational,
) -> Result<Option<BigRational>, AlgebraError> {
    let Expansion {
        lambda,
        r_max,
        bernoulli: b,
        factorial,
    } = Expansion::of(d, terms)?;
    // laurent[j] is the coefficient of s^{j − r_max}.
    let mut laurent = vec![BigRational::zero(); r_max + 1];
    for (i, term) in terms.iter().enumerate() {
        if i % 64 == 63 && crate::interrupt::requested() {
            return Err(AlgebraError::Interrupted);
        }
        let a = BigRational::from(dot(&lambda, &term.apex));
        let mut series = exp_series(&a, r_max);
        let start = power(&term.apex) * &term.coefficient;
        for x in &mut series {
            *x *= &start;
        }
        let mut poles = 0;
        for g in &term.rays {
            let c = BigRational::from(dot(&lambda, g));
            let u = power(g);
            let factor: Series = if u.is_one() {
                // 1/(1 − e^{cs}) = −Td(cs)/(cs): the s^{-1} goes into `poles`.
                poles += 1;
                let mut c_power = BigRational::one();
                (0..=r_max)
                    .map(|n| {
                        let v = -(&b[n] * &c_power) / BigRational::from(factorial[n].clone()) / &c;
                        c_power *= &c;
                        v
                    })
                    .collect()
            } else {
                let mut e = exp_series(&c, r_max);
                for x in &mut e {
                    *x *= -&u;
                }
                e[0] += BigRational::one();
                series_inverse(&e)
            };
            series = series_mul(&series, &factor);
        }
        // s^{−poles}·series: coefficient of s^{m} is series[m + poles].
        for (j, slot) in laurent.iter_mut().enumerate() {
            let m = j as i64 - r_max as i64 + poles as i64;
            if m >= 0 && (m as usize) < series.len() {
                *slot += &series[m as usize];
            }
        }
    }
    let value = laurent.pop().unwrap_or_else(BigRational::zero);
    Ok(laurent.iter().all(Zero::is_zero).then_some(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bernoulli_numbers() {
        let b = bernoulli(6);
        let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        assert_eq!(
            b,
            vec![
                q(1, 1),
                q(-1, 2),
                q(1, 6),
                q(0, 1),
                q(-1, 30),
                q(0, 1),
                q(1, 42)
            ]
        );
    }

    #[test]
    fn one_dimensional_segment() {
        // [0, 5] ∩ Z: 1/(1 − t) + t^5/(1 − t^{-1}) has value 6 at t = 1.
        let terms = vec![
            ShortTerm {
                coefficient: BigRational::one(),
                apex: vec![0.into()],
                rays: vec![vec![1.into()]],
            },
            ShortTerm {
                coefficient: BigRational::one(),
                apex: vec![5.into()],
                rays: vec![vec![(-1).into()]],
            },
        ];
        assert_eq!(
            value_at_one(1, &terms).unwrap(),
            BigRational::from(BigInt::from(6))
        );
    }
}
