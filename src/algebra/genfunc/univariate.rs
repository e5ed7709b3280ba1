//! Hilbert series: the specialisation t_i ↦ t^{g_i} of a rational generating function under a
//! Z-grading g, which counts the points of a set by degree. For a set S with generating function
//! f, `f.hilbert_series(g)` is H(t) = Σ_{x ∈ S} t^{g·x}, written as Normaliz writes it,
//! N(t) / Π_k (1 − t^k)^{m_k}, with N a Laurent polynomial and no factor 1 − t^k that divides
//! N left in the denominator.
//!
//! Every denominator exponent a of f must have positive degree g·a, so that each term
//! t^{g·p} / Π_j (1 − t^{g·a_j}) is a power series in t and the sum makes sense.

use std::collections::BTreeMap;
use std::fmt;

use num_traits::{One, Signed, Zero};

use super::{RationalFunction, Q};
use crate::algebra::{AlgebraError, Vector};

/// The largest numerator degree written out (the numerator is stored densely).
const MAX_NUMERATOR: i64 = 1_000_000;

/// N(t) / Π_k (1 − t^k)^{m_k}, exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HilbertSeries {
    /// The lowest exponent of N (possibly negative).
    shift: i64,
    /// The coefficients of N from t^shift up; the first and last are nonzero unless N = 0.
    numerator: Vec<Q>,
    /// k ↦ m_k for the factors (1 − t^k)^{m_k}, k > 0.
    denominator: BTreeMap<i64, u32>,
}

/// Why a function has no Hilbert series under a grading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecializationError {
    /// A denominator exponent a with g·a ≤ 0: the term is no power series in t.
    NotPositive(Vector),
    /// A degree beyond 64-bit integers.
    TooLarge(String),
}

impl From<SpecializationError> for AlgebraError {
    fn from(e: SpecializationError) -> AlgebraError {
        match e {
            SpecializationError::NotPositive(a) => AlgebraError::TooLarge(format!(
                "the grading is not positive on the denominator exponent {a}"
            )),
            SpecializationError::TooLarge(s) => AlgebraError::TooLarge(s),
        }
    }
}

/// The polynomial Σ c_i t^{shift + i}, with zero coefficients trimmed at both ends.
fn trimmed(mut shift: i64, mut coeffs: Vec<Q>) -> (i64, Vec<Q>) {
    while coeffs.last().is_some_and(Zero::is_zero) {
        coeffs.pop();
    }
    let lead = coeffs.iter().take_while(|c| c.is_zero()).count();
    coeffs.drain(..lead);
    shift += lead as i64;
    if coeffs.is_empty() {
        shift = 0;
    }
    (shift, coeffs)
}

/// p · (1 − t^k).
fn times_one_minus(p: &[Q], k: usize) -> Vec<Q> {
    let mut out = vec![Q::zero(); p.len() + k];
    for (i, c) in p.iter().enumerate() {
        out[i] += c;
        out[i + k] -= c;
    }
    out
}

/// p / (1 − t^k) when it divides exactly.
fn divided_by_one_minus(p: &[Q], k: usize) -> Option<Vec<Q>> {
    if p.len() < k {
        return if p.iter().all(Zero::is_zero) {
            Some(Vec::new())
        } else {
            None
        };
    }
    // p = (1 − t^k) q: q_i = p_i + q_{i−k}, for i < len − k; the top k coefficients must then
    // match −q_{i−k}.
    let n = p.len() - k;
    let mut q: Vec<Q> = Vec::with_capacity(n);
    for i in 0..n {
        let prev = if i >= k { q[i - k].clone() } else { Q::zero() };
        q.push(&p[i] + prev);
    }
    for i in n..p.len() {
        let prev = if i >= k { q[i - k].clone() } else { Q::zero() };
        if !(&p[i] + prev).is_zero() {
            return None;
        }
    }
    Some(q)
}

fn degree(g: &Vector, x: &Vector) -> Result<i64, SpecializationError> {
    g.dot(x)
        .to_i64()
        .ok_or_else(|| SpecializationError::TooLarge(format!("the degree of {x}")))
}

impl RationalFunction {
    /// The Hilbert series of f under the grading g (see the module documentation).
    pub fn hilbert_series(&self, grading: &Vector) -> Result<HilbertSeries, SpecializationError> {
        // Each term: (coefficient, degree of p, degrees of the a_j).
        let mut terms = Vec::with_capacity(self.terms.len());
        let mut common: BTreeMap<i64, u32> = BTreeMap::new();
        for t in &self.terms {
            let mut dens: BTreeMap<i64, u32> = BTreeMap::new();
            for a in &t.denominators {
                let k = degree(grading, a)?;
                if k <= 0 {
                    return Err(SpecializationError::NotPositive(a.clone()));
                }
                *dens.entry(k).or_default() += 1;
            }
            for (&k, &m) in &dens {
                let slot = common.entry(k).or_default();
                *slot = (*slot).max(m);
            }
            terms.push((&t.coefficient, degree(grading, &t.exponent)?, dens));
        }
        let shift = terms.iter().map(|(_, e, _)| *e).min().unwrap_or(0);
        // Each term's numerator t^(e − shift) Π (1 − t^k)^(missing factors) is written out
        // densely: its degree must stay within bounds.
        for (_, e, dens) in &terms {
            let mut degree = e.checked_sub(shift);
            for (&k, &m) in &common {
                let missing = i64::from(m - dens.get(&k).copied().unwrap_or(0));
                degree = degree.and_then(|n| n.checked_add(k.checked_mul(missing)?));
            }
            if degree.is_none_or(|n| n > MAX_NUMERATOR) {
                return Err(SpecializationError::TooLarge(format!(
                    "a Hilbert series numerator of degree above {MAX_NUMERATOR}"
                )));
            }
        }
        let mut numerator: Vec<Q> = Vec::new();
        for (c, e, dens) in terms {
            let offset = usize::try_from(e - shift)
                .map_err(|_| SpecializationError::TooLarge("a degree".into()))?;
            let mut p = vec![Q::zero(); offset];
            p.push(c.clone());
            for (&k, &m) in &common {
                for _ in dens.get(&k).copied().unwrap_or(0)..m {
                    p = times_one_minus(&p, k as usize);
                }
            }
            if numerator.len() < p.len() {
                numerator.resize(p.len(), Q::zero());
            }
            for (slot, x) in numerator.iter_mut().zip(p) {
                *slot += x;
            }
        }
        Ok(HilbertSeries::new(shift, numerator, common))
    }
}

impl HilbertSeries {
    /// N / Π (1 − t^k)^{m_k} with N = Σ c_i t^{shift + i}, reduced: factors 1 − t^k that divide
    /// N are cancelled.
    pub fn new(shift: i64, numerator: Vec<Q>, denominator: BTreeMap<i64, u32>) -> HilbertSeries {
        let (shift, mut numerator) = trimmed(shift, numerator);
        let mut denominator: BTreeMap<i64, u32> =
            denominator.into_iter().filter(|&(_, m)| m > 0).collect();
        if numerator.is_empty() {
            denominator.clear();
        }
        let ks: Vec<i64> = denominator.keys().copied().collect();
        for k in ks {
            while denominator[&k] > 0 {
                match divided_by_one_minus(&numerator, k as usize) {
                    Some(q) => {
                        numerator = q;
                        *denominator.get_mut(&k).expect("a key") -= 1;
                    }
                    None => break,
                }
            }
        }
        denominator.retain(|_, m| *m > 0);
        let (shift, numerator) = trimmed(shift, numerator);
        HilbertSeries {
            shift,
            numerator,
            denominator,
        }
    }

    /// The lowest exponent of the numerator.
    pub fn shift(&self) -> i64 {
        self.shift
    }

    /// The numerator's coefficients from t^shift up.
    pub fn numerator(&self) -> &[Q] {
        &self.numerator
    }

    /// The factors (1 − t^k)^{m_k} as k ↦ m_k.
    pub fn denominator(&self) -> &BTreeMap<i64, u32> {
        &self.denominator
    }

    /// The numerator times the given denominator factors, as (shift, coefficients).
    fn numerator_times(&self, den: &BTreeMap<i64, u32>) -> (i64, Vec<Q>) {
        let mut p = self.numerator.clone();
        for (&k, &m) in den {
            for _ in 0..m {
                p = times_one_minus(&p, k as usize);
            }
        }
        trimmed(self.shift, p)
    }

    /// Whether the two are the same rational function: N1·D2 = N2·D1.
    pub fn same_function(&self, other: &HilbertSeries) -> bool {
        self.numerator_times(&other.denominator) == other.numerator_times(&self.denominator)
    }

    /// The coefficient c(n) of t^n as a function of n: a quasi-polynomial Q of period
    /// lcm{k} and degree below Σ m_k for n ≥ n0 = deg N − deg D + 1 (and often earlier). Returns
    /// the least `start` ≥ shift from which c = Q, Q, and c(shift), …, c(start − 1); c(n) = 0
    /// for n < shift. Refused when more than `MAX_NUMERATOR` coefficients would be expanded.
    pub fn counting_function(
        &self,
    ) -> Result<
        (
            i64,
            crate::algebra::quasi_polynomial::QuasiPolynomial,
            Vec<Q>,
        ),
        AlgebraError,
    > {
        use crate::algebra::quasi_polynomial::QuasiPolynomial;
        use num_integer::Integer as _;
        // Everything in i128, refused before it could overflow or expand too much.
        let too_large = |what: String| {
            AlgebraError::TooLarge(format!(
                "the counting function {what}: too many coefficients to expand"
            ))
        };
        let mut period: i128 = 1;
        for &k in self.denominator.keys() {
            period = period.lcm(&i128::from(k));
            if period > i128::from(MAX_NUMERATOR) {
                return Err(too_large(format!("has a period above {MAX_NUMERATOR}")));
            }
        }
        let points: i128 = self.denominator.values().map(|&m| i128::from(m)).sum();
        let degree_d: i128 = self
            .denominator
            .iter()
            .map(|(&k, &m)| i128::from(k) * i128::from(m))
            .sum();
        let shift = i128::from(self.shift);
        let n0 = (shift + self.numerator.len() as i128 - degree_d).max(shift);
        let span = period * (points + 1);
        if span > i128::from(MAX_NUMERATOR) || n0 - shift > i128::from(MAX_NUMERATOR) {
            return Err(too_large(format!(
                "has period {period} and degree up to {}",
                (points - 1).max(0)
            )));
        }
        // Within 2·10^6 of the shift now, so back in i64.
        let (period, points, n0, span) = (period as i64, points as i64, n0 as i64, span as i64);
        let top = n0
            .checked_add(span)
            .ok_or_else(|| too_large("reaches past the largest exponent".into()))?;
        let c = self.coefficients(top);
        let at = |n: i64| c[(n - self.shift) as usize].clone();
        let mut constituents = Vec::with_capacity(period as usize);
        for r in 0..period {
            // `points` values n ≡ r (mod period), n ≥ n0, interpolated by a polynomial of
            // degree < points (just 0 when there is no denominator).
            let first = n0 + (r - n0).rem_euclid(period);
            let ns: Vec<i64> = (0..points).map(|j| first + j * period).collect();
            if ns.is_empty() {
                constituents.push(vec![Q::zero()]);
                continue;
            }
            let rows: Vec<Vec<crate::algebra::Integer>> = ns
                .iter()
                .map(|&n| {
                    (0..points)
                        .map(|j| {
                            crate::algebra::Integer::from(num_bigint::BigInt::from(n).pow(j as u32))
                        })
                        .collect()
                })
                .collect();
            let values: Vec<Q> = ns.iter().map(|&n| at(n)).collect();
            let coefficients =
                crate::algebra::linalg::solve(&crate::algebra::Matrix::from_rows(rows)?, &values)
                    .ok_or_else(|| {
                    AlgebraError::TooLarge("internal error: no interpolating polynomial".into())
                })?;
            constituents.push(coefficients);
        }
        let q = QuasiPolynomial {
            period: period as usize,
            constituents,
        }
        .merged();
        // Walk down from n0 while c agrees with Q.
        let mut start = n0;
        while start > self.shift && q.value(&num_bigint::BigInt::from(start - 1)) == at(start - 1) {
            start -= 1;
        }
        let before: Vec<Q> = (self.shift..start).map(at).collect();
        Ok((start, q, before))
    }

    /// The coefficients of t^shift, ..., t^top of the expansion (empty when top < shift).
    pub fn coefficients(&self, top: i64) -> Vec<Q> {
        if top < self.shift {
            return Vec::new();
        }
        let n = (top - self.shift + 1) as usize;
        let mut s: Vec<Q> = self.numerator.iter().take(n).cloned().collect();
        s.resize(n, Q::zero());
        for (&k, &m) in &self.denominator {
            let k = k as usize;
            for _ in 0..m {
                // Times 1/(1 − t^k) = 1 + t^k + t^2k + ...: running sums with stride k.
                for i in k..n {
                    let prev = s[i - k].clone();
                    s[i] += prev;
                }
            }
        }
        s
    }
}

fn power(t: &str, e: i64) -> String {
    match e {
        0 => "1".into(),
        1 => t.into(),
        _ => format!("{t}^{e}"),
    }
}

impl fmt::Display for HilbertSeries {
    /// In the variable t, e.g. `(1 + t)/(1 - t^2)^2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut num = String::new();
        let mut count = 0;
        for (i, c) in self.numerator.iter().enumerate() {
            if c.is_zero() {
                continue;
            }
            let e = self.shift + i as i64;
            let sign = if c.is_negative() { "-" } else { "+" };
            if count == 0 {
                if c.is_negative() {
                    num.push('-');
                }
            } else {
                num.push_str(&format!(" {sign} "));
            }
            let a = c.abs();
            if e == 0 {
                num.push_str(&a.to_string());
            } else if a.is_one() {
                num.push_str(&power("t", e));
            } else {
                num.push_str(&format!("{a}{}", power("t", e)));
            }
            count += 1;
        }
        if count == 0 {
            return write!(f, "0");
        }
        if self.denominator.is_empty() {
            return write!(f, "{num}");
        }
        let factors: Vec<String> = self
            .denominator
            .iter()
            .map(|(&k, &m)| {
                let base = format!("(1 - {})", power("t", k));
                if m == 1 {
                    base
                } else {
                    format!("{base}^{m}")
                }
            })
            .collect();
        // One factor stands alone, e.g. `(1 - t)^2`; several are grouped: `((1 - t)(1 - t^2))`.
        let den = if factors.len() == 1 {
            factors[0].clone()
        } else {
            format!("({})", factors.concat())
        };
        if count == 1 {
            write!(f, "{num}/{den}")
        } else {
            write!(f, "({num})/{den}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algebra::testing::v;
    use crate::algebra::{AffineSemigroup, StratifiedSet};
    use num_bigint::BigInt;

    fn q(x: i64) -> Q {
        Q::from(BigInt::from(x))
    }

    fn series_of(gens: &[&[i64]], g: &[i64]) -> HilbertSeries {
        let a = AffineSemigroup::new(gens.iter().map(|x| v(x)).collect()).unwrap();
        let s = StratifiedSet::from_semigroup(&a).unwrap();
        RationalFunction::of_set(&s)
            .unwrap()
            .hilbert_series(&v(g))
            .unwrap()
    }

    #[test]
    fn the_quadrant_counts_k_plus_one_points_of_degree_k() {
        let h = series_of(&[&[1, 0], &[0, 1]], &[1, 1]);
        assert_eq!(h.to_string(), "1/(1 - t)^2");
        assert_eq!(h.coefficients(4), [1, 2, 3, 4, 5].map(q));
    }

    #[test]
    fn veronese_and_numerical_semigroups() {
        // N{(2,0),(1,1),(0,2)} = {x + y even}: 2k + 1 points in every even degree 2k.
        let h = series_of(&[&[2, 0], &[1, 1], &[0, 2]], &[1, 1]);
        assert_eq!(h.coefficients(6), [1, 0, 3, 0, 5, 0, 7].map(q));
        // N{2, 3} = {0, 2, 3, 4, ...}: (1 − t + t^2)/(1 − t) reduced to 1/(1-t) − t.
        let h = series_of(&[&[2], &[3]], &[1]);
        assert_eq!(h.coefficients(5), [1, 0, 1, 1, 1, 1].map(q));
        assert!(h.same_function(&HilbertSeries::new(
            0,
            vec![q(1), q(-1), q(1)],
            BTreeMap::from([(1, 1)])
        )));
    }

    #[test]
    fn common_factors_cancel_and_zero_is_zero() {
        // (1 − t^2)/((1 − t)(1 − t^2)) cancels to a fraction with one factor, equal to 1/(1 − t).
        let h = HilbertSeries::new(0, vec![q(1), q(0), q(-1)], BTreeMap::from([(1, 1), (2, 1)]));
        assert_eq!(h.denominator().values().sum::<u32>(), 1);
        assert!(h.same_function(&HilbertSeries::new(0, vec![q(1)], BTreeMap::from([(1, 1)]))));
        assert_eq!(
            HilbertSeries::new(0, vec![q(1), q(-1), q(1)], BTreeMap::from([(1, 1), (2, 2)]))
                .to_string(),
            "(1 - t + t^2)/((1 - t)(1 - t^2)^2)"
        );
        let z = HilbertSeries::new(3, vec![q(0)], BTreeMap::from([(1, 2)]));
        assert_eq!(z.to_string(), "0");
        assert!(z.coefficients(5).iter().all(Zero::is_zero));
    }

    #[test]
    fn numerators_too_long_to_write_out_are_refused() {
        // {0, 5·10^12}: the numerator 1 + t^(5·10^12) would be written densely.
        let s = StratifiedSet::from_points(1, &[v(&[0]), v(&[5_000_000_000_000])]);
        let f = RationalFunction::of_set(&s).unwrap();
        assert!(matches!(
            f.hilbert_series(&v(&[1])),
            Err(SpecializationError::TooLarge(_))
        ));
        // A single huge denominator is fine: nothing is expanded.
        let a = AffineSemigroup::new(vec![v(&[1_000_000_000_000])]).unwrap();
        let f = RationalFunction::of_set(&StratifiedSet::from_semigroup(&a).unwrap()).unwrap();
        assert_eq!(
            f.hilbert_series(&v(&[1])).unwrap().to_string(),
            "1/(1 - t^1000000000000)"
        );
    }

    #[test]
    fn a_grading_not_positive_on_a_denominator_names_it() {
        let a = AffineSemigroup::new(vec![v(&[1, 0]), v(&[0, 1])]).unwrap();
        let f = RationalFunction::of_set(&StratifiedSet::from_semigroup(&a).unwrap()).unwrap();
        assert!(matches!(
            f.hilbert_series(&v(&[1, -1])),
            Err(SpecializationError::NotPositive(_))
        ));
    }

    /// Periods past what is expanded are refused, not overflowed (three coprime weights near
    /// 2^22 have an lcm near 2^66).
    #[test]
    fn huge_periods_are_refused() {
        let den: BTreeMap<i64, u32> = [(4194301, 1), (4194287, 1), (4194277, 1)].into();
        let h = HilbertSeries::new(0, vec![q(1)], den);
        assert!(matches!(
            h.counting_function(),
            Err(AlgebraError::TooLarge(_))
        ));
        let den: BTreeMap<i64, u32> = [(i64::MAX, 1)].into();
        let h = HilbertSeries::new(i64::MAX - 3, vec![q(1)], den);
        assert!(matches!(
            h.counting_function(),
            Err(AlgebraError::TooLarge(_))
        ));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// The counting function agrees with the expanded coefficients (running sums, an
        /// independent computation) from its start on, and lists them below.
        #[test]
        fn counting_function_matches_the_expansion(
            shift in -3i64..4,
            numerator in proptest::collection::vec(-3i64..4, 1..8),
            factors in proptest::collection::vec((1i64..5, 1u32..3), 0..3),
        ) {
            let mut den = BTreeMap::new();
            for (k, m) in factors {
                *den.entry(k).or_insert(0) += m;
            }
            let h = HilbertSeries::new(shift, numerator.into_iter().map(q).collect(), den);
            let (start, quasi, before) = h.counting_function().unwrap();
            let top = start + 60;
            let c = h.coefficients(top);
            for n in h.shift()..=top {
                let expected = c.get((n - h.shift()) as usize).cloned().unwrap_or_else(Q::zero);
                if n < start {
                    proptest::prop_assert_eq!(&before[(n - h.shift()) as usize], &expected);
                } else {
                    proptest::prop_assert_eq!(quasi.value(&num_bigint::BigInt::from(n)), expected, "n = {}", n);
                }
            }
        }
    }
}
