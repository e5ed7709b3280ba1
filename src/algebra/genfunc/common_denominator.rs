//! The common-denominator form of a rational generating function: f = N(t) / Π_{a ∈ D} (1 − t^a)
//! with N a Laurent polynomial and D the distinct denominator exponents of f's terms ([GM11]
//! Definition 3.1 writes rational strategies this way, one fraction). Factors (1 − t^a) that
//! divide the numerator exactly are cancelled, so a set written as several pieces over one
//! denominator comes out reduced where a factor is redundant.
//!
//! Exact division by 1 − t^a works class by class: the exponents e ≡ e' modulo Z·a form chains
//! e_0 + k·a, on which N restricts to a Laurent polynomial in s = t^a; it is divisible by 1 − s
//! exactly when its coefficients sum to zero, and the quotient's coefficients are the partial
//! sums.

use std::collections::BTreeMap;

use num_traits::Zero;

use super::{Notation, RationalFunction, Q};
use crate::algebra::{AlgebraError, Integer, Vector};

/// The most monomials the numerator may have while it is multiplied out.
pub const MAX_NUMERATOR_TERMS: u128 = 1 << 20;

/// f = numerator / Π_{a ∈ denominators} (1 − t^a).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommonDenominator {
    /// N, as exponent ↦ nonzero coefficient.
    pub numerator: BTreeMap<Vector, Q>,
    /// The exponents a of the factors 1 − t^a, sorted, distinct.
    pub denominators: Vec<Vector>,
}

impl RationalFunction {
    /// f over the common denominator of its terms, with the factors that divide the numerator
    /// cancelled. Refused when the numerator would have more than [`MAX_NUMERATOR_TERMS`]
    /// monomials before cancelling.
    pub fn over_common_denominator(&self) -> Result<CommonDenominator, AlgebraError> {
        let all = self.denominators();
        let estimate: u128 = self
            .terms
            .iter()
            .map(|t| 1u128 << (all.len() - t.denominators.len()).min(100))
            .sum();
        if estimate > MAX_NUMERATOR_TERMS {
            return Err(AlgebraError::TooLarge(format!(
                "a numerator over {} denominator factors (up to {estimate} monomials, at most {MAX_NUMERATOR_TERMS})",
                all.len()
            )));
        }
        let mut numerator: BTreeMap<Vector, Q> = BTreeMap::new();
        for t in &self.terms {
            let mut poly: BTreeMap<Vector, Q> =
                BTreeMap::from([(t.exponent.clone(), t.coefficient.clone())]);
            for a in all.iter().filter(|a| !t.denominators.contains(a)) {
                poly = times_one_minus(&poly, a);
            }
            for (e, c) in poly {
                *numerator.entry(e).or_insert_with(Q::zero) += c;
            }
        }
        numerator.retain(|_, c| !c.is_zero());
        let mut denominators = Vec::new();
        for a in all {
            match divide_by_one_minus(&numerator, &a) {
                Some(q) => numerator = q,
                None => denominators.push(a),
            }
        }
        Ok(CommonDenominator {
            numerator,
            denominators,
        })
    }
}

impl CommonDenominator {
    /// The fraction written with the given variable names (in LaTeX if `latex`), e.g.
    /// `(a - a*b^2 + b^2)/((1 - a^2)(1 - b^2))`.
    pub fn show(&self, names: &[String], latex: bool) -> String {
        let notation = Notation { names, latex };
        let mut nums: Vec<(&Vector, &Q)> = self.numerator.iter().collect();
        Notation::sort_numerator(&mut nums);
        let numerator = if nums.is_empty() {
            "0".to_string()
        } else {
            notation.polynomial(&nums)
        };
        if self.denominators.is_empty() {
            return numerator;
        }
        let factors = notation.factors(&self.denominators);
        if latex {
            format!("\\frac{{{numerator}}}{{{factors}}}")
        } else {
            let numerator = if nums.len() > 1 {
                format!("({numerator})")
            } else {
                numerator
            };
            if self.denominators.len() > 1 {
                format!("{numerator}/({factors})")
            } else {
                format!("{numerator}/{factors}")
            }
        }
    }
}

/// p · (1 − t^a).
fn times_one_minus(p: &BTreeMap<Vector, Q>, a: &Vector) -> BTreeMap<Vector, Q> {
    let mut out = p.clone();
    for (e, c) in p {
        *out.entry(e.add(a)).or_insert_with(Q::zero) -= c;
    }
    out.retain(|_, c| !c.is_zero());
    out
}

/// p / (1 − t^a) when it is a Laurent polynomial (and not too long to write out), else None.
fn divide_by_one_minus(p: &BTreeMap<Vector, Q>, a: &Vector) -> Option<BTreeMap<Vector, Q>> {
    if p.is_empty() {
        return Some(BTreeMap::new());
    }
    // Orient a so that its first nonzero entry a_i is positive: e = r + k·a with 0 ≤ r_i < a_i.
    let i = a.0.iter().position(|x| !x.is_zero())?;
    let (a, flipped) = if a.0[i].signum() < 0 {
        (Vector::zero(a.dim()).sub(a), true)
    } else {
        (a.clone(), false)
    };
    let mut chains: BTreeMap<Vector, BTreeMap<Integer, Q>> = BTreeMap::new();
    for (e, c) in p {
        let k = e.0[i].div_floor(&a.0[i])?;
        let r = e.sub(&a.scale(&k));
        chains.entry(r).or_default().insert(k, c.clone());
    }
    let mut out = BTreeMap::new();
    let mut written: u128 = 0;
    for (r, chain) in chains {
        if !chain.values().fold(Q::zero(), |s, c| s + c).is_zero() {
            return None;
        }
        // N(s) = (1 − s)Q(s) in s = t^a: Q_k = Σ_{j ≤ k} N_j; with s = t^{−a} (a flipped),
        // 1 − s^{−1} = −s^{−1}(1 − s), so Q_k = −Σ_{j ≤ k+1} N_j.
        let (lo, hi) = (chain.keys().next()?.clone(), chain.keys().last()?.clone());
        let span = (&hi - &lo).to_i64()?;
        written += span as u128;
        if written > MAX_NUMERATOR_TERMS {
            return None;
        }
        let mut sum = Q::zero();
        let mut k = lo.clone();
        while k < hi {
            if let Some(c) = chain.get(&k) {
                sum += c;
            }
            if !sum.is_zero() {
                let (at, coefficient) = if flipped {
                    (&k + &Integer::ONE, -sum.clone())
                } else {
                    (k.clone(), sum.clone())
                };
                out.insert(r.add(&a.scale(&at)), coefficient);
            }
            k = &k + &Integer::ONE;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::algebra::genfunc::Term;
    use crate::algebra::testing::arb_module;
    use crate::algebra::StratifiedSet;

    fn v(xs: &[i64]) -> Vector {
        Vector::from_i64s(xs)
    }

    fn q(x: i64) -> Q {
        Q::from_integer(x.into())
    }

    /// N · Π_{a ∈ D}(1 − t^a)^{−1} and f have the same coefficients at every point of the box
    /// [lo, hi]^d: compared through f · Π(1 − t^a), whose coefficient at e is the alternating sum
    /// of f's coefficients at e − Σ_{a ∈ S} a over subsets S of D (inclusion–exclusion).
    fn agrees(f: &RationalFunction, c: &CommonDenominator, lo: i64, hi: i64) -> Result<(), String> {
        let d = f.dim();
        let mut point = vec![lo; d];
        loop {
            let e = v(&point);
            let mut lhs = Q::zero();
            for mask in 0u32..(1 << c.denominators.len()) {
                let mut shifted = e.clone();
                for (j, a) in c.denominators.iter().enumerate() {
                    if mask >> j & 1 == 1 {
                        shifted = shifted.sub(a);
                    }
                }
                let sign = if mask.count_ones() % 2 == 0 {
                    q(1)
                } else {
                    q(-1)
                };
                lhs += sign * f.coefficient(&shifted);
            }
            let rhs = c.numerator.get(&e).cloned().unwrap_or_else(Q::zero);
            if lhs != rhs {
                return Err(format!("at {e}: f·Π(1 − t^a) has {lhs}, N has {rhs}"));
            }
            let mut k = 0;
            loop {
                if k == d {
                    return Ok(());
                }
                point[k] += 1;
                if point[k] <= hi {
                    break;
                }
                point[k] = lo;
                k += 1;
            }
        }
    }

    /// [GM09] Example 8.7: misère Nim with heaps of size ≤ 2 has
    /// P = ((1, 0) + N{(2, 0)}) ⊎ ((0, 2) + 2N^2), so
    /// P(a, b) = (a + b² − a b²) / ((1 − a²)(1 − b²)).
    #[test]
    fn misere_nim_over_one_denominator() {
        let f = RationalFunction::from_terms(
            2,
            vec![
                Term {
                    denominators: vec![v(&[2, 0])],
                    exponent: v(&[1, 0]),
                    coefficient: q(1),
                },
                Term {
                    denominators: vec![v(&[0, 2]), v(&[2, 0])],
                    exponent: v(&[0, 2]),
                    coefficient: q(1),
                },
            ],
        );
        let c = f.over_common_denominator().unwrap();
        assert_eq!(c.denominators, vec![v(&[0, 2]), v(&[2, 0])]);
        assert_eq!(
            c.numerator,
            BTreeMap::from([(v(&[1, 0]), q(1)), (v(&[1, 2]), q(-1)), (v(&[0, 2]), q(1))])
        );
        agrees(&f, &c, -1, 6).unwrap();
        let names = crate::algebra::genfunc::default_names(2);
        assert_eq!(
            c.show(&names, false),
            "(a + b^2 - a*b^2)/((1 - a^2)(1 - b^2))"
        );
        assert_eq!(
            c.show(&names, true),
            "\\frac{a + b^{2} - a b^{2}}{(1 - a^{2})(1 - b^{2})}"
        );
    }

    /// N = 2N ⊎ (1 + 2N): 1/(1 − t²) + t/(1 − t²) = (1 + t)/(1 − t²); the factor does not divide
    /// 1 + t, so it stays. N^1 written as {0} ⊎ (1 + N): 1 + t/(1 − t) = 1/(1 − t), where the
    /// factor (1 − t) does not cancel either. But t/(1 − t) − t²/(1 − t) = t: the factor cancels.
    #[test]
    fn factors_that_divide_the_numerator_cancel() {
        let term = |den: &[i64], e: i64, c: i64| Term {
            denominators: if den.is_empty() { vec![] } else { vec![v(den)] },
            exponent: v(&[e]),
            coefficient: q(c),
        };
        let f = RationalFunction::from_terms(1, vec![term(&[2], 0, 1), term(&[2], 1, 1)]);
        let c = f.over_common_denominator().unwrap();
        assert_eq!(c.denominators, vec![v(&[2])]);
        assert_eq!(c.numerator.len(), 2);
        let g = RationalFunction::from_terms(1, vec![term(&[1], 1, 1), term(&[1], 2, -1)]);
        let c = g.over_common_denominator().unwrap();
        assert!(c.denominators.is_empty());
        assert_eq!(c.numerator, BTreeMap::from([(v(&[1]), q(1))]));
        agrees(&g, &c, -2, 6).unwrap();
        // A negative exponent: t^{-1}/(1 − t^{-1}) − 1/(1 − t^{-1}) = −1.
        let h = RationalFunction::from_terms(1, vec![term(&[-1], -1, 1), term(&[-1], 0, -1)]);
        let c = h.over_common_denominator().unwrap();
        assert!(c.denominators.is_empty());
        assert_eq!(c.numerator, BTreeMap::from([(v(&[0]), q(-1))]));
    }

    #[test]
    fn too_many_factors_are_refused() {
        let terms: Vec<Term> = (1..=24)
            .map(|k| Term {
                denominators: vec![v(&[k, 1])],
                exponent: v(&[0, 0]),
                coefficient: q(1),
            })
            .collect();
        let f = RationalFunction::from_terms(2, terms);
        assert!(matches!(
            f.over_common_denominator(),
            Err(AlgebraError::TooLarge(_))
        ));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// For sums of the functions of random modules in Z^2 (one scaled by −2), the
        /// common-denominator form has f's coefficients.
        #[test]
        fn the_form_has_the_functions_coefficients(a in arb_module(2), b in arb_module(2)) {
            let of = |w| RationalFunction::of_set(&StratifiedSet::from_module(w).unwrap()).unwrap();
            let f = of(&a).add(&of(&b).scale(&q(-2)));
            let c = f.over_common_denominator().unwrap();
            prop_assert!(c.numerator.values().all(|x| !x.is_zero()));
            agrees(&f, &c, -1, 7).map_err(TestCaseError::fail)?;
        }
    }
}
