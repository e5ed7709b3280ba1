//! Rational generating functions Σ_i α_i t^{p_i} / ((1 − t^{a_i1})⋯(1 − t^{a_ik})) ([GM11]
//! Definitions 3.1–3.3; [GM09] Definition 8.1), kept in the form the decompositions produce: every
//! term has linearly independent a_ij, so each term is the generating function of the set
//! p_i + N{a_i1..a_ik} times α_i.
//!
//! - `of_set`: a stratified set's generating function, one term per disjoint piece ([GM11] Lemmas
//!   5.4, 5.5 and Theorem 5.1, by triangulation and parallelepipeds rather than Barvinok–Woods).
//! - `hadamard` ([GM11] Definition 3.4, Lemma 3.5): bilinear, and on two terms it is the
//!   generating function of the intersection of their sets, which is a basic set and is decomposed
//!   again. As in Lemma 3.5 all denominators must lie in a common pointed cone.
//! - `coefficient`: the coefficient of t^p, that is f ⋆ t^p read off term by term ([GM11] Theorem
//!   3.6).
//! - `is_zero`: when the denominators lie in a common pointed cone, the series expansion in that
//!   cone determines the function, so f = 0 exactly when every point has coefficient 0; the
//!   supports are refined into disjoint atoms with the set algebra to decide that. Otherwise the
//!   terms are put over a common denominator and the numerator polynomial is tested.

use std::collections::BTreeMap;
use std::fmt::{self, Write};

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::basic_set::BasicSet;
use super::linalg::solve;
use super::lp::positive_functional;
use super::{AlgebraError, Integer, Matrix, StratifiedSet, Vector};

type Q = BigRational;

/// One term α t^p / Π_j (1 − t^{a_j}), with independent a_j (sorted).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Term {
    /// The denominator exponents a_j.
    pub denominators: Vec<Vector>,
    /// The numerator exponent p.
    pub exponent: Vector,
    /// The coefficient α (nonzero).
    pub coefficient: Q,
}

/// A rational generating function in d variables, as a sum of terms.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RationalFunction {
    dim: usize,
    terms: Vec<Term>,
    /// The terms' membership tests, built at the first coefficient asked.
    tests: MembershipCache,
}

/// A cache that takes no part in equality or hashing; clones share it (they have the same
/// terms, which never change after construction).
#[derive(Default, Clone)]
struct MembershipCache(std::sync::Arc<std::sync::OnceLock<Option<Vec<membership::TermTest>>>>);

impl PartialEq for MembershipCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for MembershipCache {}

impl std::hash::Hash for MembershipCache {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl fmt::Debug for MembershipCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MembershipCache")
    }
}

fn q_int(x: &Integer) -> Q {
    Q::from(x.to_bigint())
}

fn q(x: i64) -> Q {
    Q::from(BigInt::from(x))
}

impl Term {
    /// The set p + N{a} this term counts.
    pub fn support(&self) -> BasicSet {
        BasicSet::simplicial(&self.exponent, &self.denominators)
    }

    /// Whether x ∈ p + N{a}: x − p = Σ n_j a_j with n_j nonnegative integers.
    fn counts(&self, x: &Vector) -> bool {
        let diff = x.sub(&self.exponent);
        if self.denominators.is_empty() {
            return diff.is_zero();
        }
        let m = Matrix::from_columns(&self.denominators).expect("nonempty");
        let rhs: Vec<Q> = diff.0.iter().map(q_int).collect();
        solve(&m, &rhs).is_some_and(|n| n.iter().all(|c| c.is_integer() && !c.is_negative()))
    }
}

impl RationalFunction {
    /// The zero function in d variables.
    pub fn zero(dim: usize) -> RationalFunction {
        RationalFunction {
            dim,
            terms: Vec::new(),
            tests: MembershipCache::default(),
        }
    }

    /// The monomial t^p.
    pub fn monomial(p: &Vector) -> RationalFunction {
        RationalFunction::from_terms(
            p.dim(),
            vec![Term {
                denominators: Vec::new(),
                exponent: p.clone(),
                coefficient: Q::one(),
            }],
        )
    }

    /// Terms merged (equal exponent and denominators add up) and sorted; zero terms dropped.
    pub fn from_terms(dim: usize, terms: Vec<Term>) -> RationalFunction {
        let mut map: BTreeMap<(Vec<Vector>, Vector), Q> = BTreeMap::new();
        for t in terms {
            let mut dens = t.denominators;
            dens.sort();
            *map.entry((dens, t.exponent)).or_insert_with(Q::zero) += t.coefficient;
        }
        RationalFunction {
            dim,
            terms: map
                .into_iter()
                .filter(|(_, c)| !c.is_zero())
                .map(|((denominators, exponent), coefficient)| Term {
                    denominators,
                    exponent,
                    coefficient,
                })
                .collect(),
            tests: MembershipCache::default(),
        }
    }

    /// The generating function of a stratified set: one term per disjoint piece.
    pub fn of_set(s: &StratifiedSet) -> Result<RationalFunction, AlgebraError> {
        let terms = s
            .simplicial_pieces()?
            .into_iter()
            .map(|p| Term {
                denominators: p.generators,
                exponent: p.offset,
                coefficient: Q::one(),
            })
            .collect();
        Ok(RationalFunction::from_terms(s.dim(), terms))
    }

    /// The number of variables d.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The terms, sorted by denominators then exponent.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// f + g.
    pub fn add(&self, other: &RationalFunction) -> RationalFunction {
        let mut terms = self.terms.clone();
        terms.extend(other.terms.iter().cloned());
        RationalFunction::from_terms(self.dim, terms)
    }

    /// c·f.
    pub fn scale(&self, c: &Q) -> RationalFunction {
        RationalFunction::from_terms(
            self.dim,
            self.terms
                .iter()
                .map(|t| Term {
                    coefficient: &t.coefficient * c,
                    ..t.clone()
                })
                .collect(),
        )
    }

    /// f − g.
    pub fn sub(&self, other: &RationalFunction) -> RationalFunction {
        self.add(&other.scale(&q(-1)))
    }

    /// f·g, the generating function of the sums x + y counted with multiplicity: term by term,
    /// c·t^a/Π(1 − t^b) · c'·t^a'/Π(1 − t^b') = cc'·t^(a+a')/(Π(1 − t^b)Π(1 − t^b')). The series
    /// are multiplied in a common region of convergence, so some functional must be positive on
    /// every denominator exponent of both (else `NotPointed`, naming a line the exponents span).
    /// Terms here stand for sets (their denominators are linearly independent), so a product term
    /// whose denominators are dependent (f·f for an infinite set) is refused (`TooLarge`, saying
    /// why): it would count points with multiplicity.
    pub fn mul(&self, other: &RationalFunction) -> Result<RationalFunction, AlgebraError> {
        if self.common_functional(Some(other)).is_none() {
            let mut dens = self.denominators();
            dens.extend(other.denominators());
            let cone = super::polyhedral::ConeData::from_generators(self.dim, &dens)?;
            let line = cone
                .lineality()
                .first()
                .cloned()
                .unwrap_or_else(|| Vector::zero(self.dim));
            return Err(AlgebraError::NotPointed { line });
        }
        let mut terms = Vec::with_capacity(self.terms.len() * other.terms.len());
        for a in &self.terms {
            for b in &other.terms {
                let mut denominators = a.denominators.clone();
                denominators.extend(b.denominators.iter().cloned());
                if super::linalg::rank(&denominators, self.dim) < denominators.len() {
                    return Err(AlgebraError::TooLarge(format!(
                        "the product of the terms with denominators {} and {} has linearly dependent denominators: it counts points with multiplicity, which a sum of terms of sets cannot express",
                        list(&a.denominators),
                        list(&b.denominators)
                    )));
                }
                terms.push(Term {
                    denominators,
                    exponent: a.exponent.add(&b.exponent),
                    coefficient: &a.coefficient * &b.coefficient,
                });
            }
        }
        Ok(RationalFunction::from_terms(self.dim, terms))
    }

    /// t^p · f.
    pub fn shift(&self, p: &Vector) -> RationalFunction {
        RationalFunction::from_terms(
            self.dim,
            self.terms
                .iter()
                .map(|t| Term {
                    exponent: t.exponent.add(p),
                    ..t.clone()
                })
                .collect(),
        )
    }

    /// Whether f is a polynomial (no denominators).
    pub fn is_polynomial(&self) -> bool {
        self.terms.iter().all(|t| t.denominators.is_empty())
    }

    /// The coefficient of t^x in the expansion of f (each term expanded as the series of its set).
    /// Each term's set is tested in i64 arithmetic when its data fit (`membership.rs`), else by
    /// an exact rational solve.
    pub fn coefficient(&self, x: &Vector) -> Q {
        let tests = self.tests.0.get_or_init(|| {
            self.terms
                .iter()
                .map(membership::TermTest::new)
                .collect::<Option<Vec<_>>>()
        });
        if let Some(tests) = tests {
            let mut sum = Q::zero();
            let mut fast = true;
            for (t, test) in self.terms.iter().zip(tests) {
                match test.counts(x) {
                    Some(true) => sum += &t.coefficient,
                    Some(false) => {}
                    None => {
                        fast = false;
                        break;
                    }
                }
            }
            if fast {
                return sum;
            }
        }
        self.terms
            .iter()
            .filter(|t| t.counts(x))
            .map(|t| t.coefficient.clone())
            .sum()
    }

    /// Every denominator exponent.
    fn denominators(&self) -> Vec<Vector> {
        let mut all: Vec<Vector> = self
            .terms
            .iter()
            .flat_map(|t| t.denominators.iter().cloned())
            .collect();
        all.sort();
        all.dedup();
        all
    }

    /// A linear functional positive on every denominator exponent, when one exists.
    pub fn common_functional(&self, other: Option<&RationalFunction>) -> Option<Vector> {
        let mut dens = self.denominators();
        if let Some(g) = other {
            dens.extend(g.denominators());
        }
        positive_functional(self.dim, &dens).ok()
    }

    /// The truncated expansion: all terms c·t^x with ℓ·x ≤ degree, as a polynomial. Every
    /// denominator exponent a must have ℓ·a > 0 (else the error names one).
    pub fn series(
        &self,
        functional: &Vector,
        degree: &Integer,
    ) -> Result<RationalFunction, Vector> {
        let mut out = Vec::new();
        for t in &self.terms {
            if let Some(a) = t
                .denominators
                .iter()
                .find(|a| functional.dot(a).signum() <= 0)
            {
                return Err(a.clone());
            }
            let steps: Vec<Integer> = t.denominators.iter().map(|a| functional.dot(a)).collect();
            let base = functional.dot(&t.exponent);
            expand(
                &t.denominators,
                &steps,
                0,
                t.exponent.clone(),
                base,
                degree,
                &mut |x| {
                    out.push(Term {
                        denominators: Vec::new(),
                        exponent: x,
                        coefficient: t.coefficient.clone(),
                    })
                },
            );
        }
        Ok(RationalFunction::from_terms(self.dim, out))
    }

    /// f evaluated at a point of Q^d; `None` when a denominator vanishes there or a negative
    /// power of 0 appears.
    pub fn evaluate(&self, x: &[Q]) -> Option<Q> {
        let power = |e: &Vector| -> Option<Q> {
            let mut acc = Q::one();
            for (xi, k) in x.iter().zip(&e.0) {
                let k = k.to_i64()?;
                if k < 0 && xi.is_zero() {
                    return None;
                }
                let p = num_traits::pow::pow(
                    if k < 0 { xi.recip() } else { xi.clone() },
                    usize::try_from(k.unsigned_abs()).ok()?,
                );
                acc *= p;
            }
            Some(acc)
        };
        let mut sum = Q::zero();
        for t in &self.terms {
            let mut den = Q::one();
            for a in &t.denominators {
                den *= Q::one() - power(a)?;
            }
            if den.is_zero() {
                return None;
            }
            sum += &t.coefficient * power(&t.exponent)? / den;
        }
        Some(sum)
    }

    /// The Hadamard product f ⋆ g ([GM11] Definition 3.4, Lemma 3.5). Both must have their
    /// denominators in a common pointed cone; otherwise the error is `NotPointed`.
    pub fn hadamard(&self, other: &RationalFunction) -> Result<RationalFunction, AlgebraError> {
        if self.common_functional(Some(other)).is_none() {
            let line = self.denominators().first().cloned().unwrap_or_default();
            return Err(AlgebraError::NotPointed { line });
        }
        let mut terms = Vec::new();
        for s in &self.terms {
            let ss = s.support();
            for t in &other.terms {
                if crate::interrupt::requested() {
                    return Err(AlgebraError::Interrupted);
                }
                let Some(meet) = ss.intersect(&t.support()) else {
                    continue;
                };
                let c = &s.coefficient * &t.coefficient;
                for p in meet.simplicial_pieces()? {
                    terms.push(Term {
                        denominators: p.generators,
                        exponent: p.offset,
                        coefficient: c.clone(),
                    });
                }
            }
        }
        Ok(RationalFunction::from_terms(self.dim, terms))
    }

    /// The coefficient function as disjoint sets with nonzero constant coefficients.
    pub fn atoms(&self) -> Result<Vec<(StratifiedSet, Q)>, AlgebraError> {
        let mut atoms: Vec<(StratifiedSet, Q)> = Vec::new();
        for t in &self.terms {
            let mut rest = StratifiedSet::from_basic(t.support())?;
            let mut next = Vec::with_capacity(atoms.len() + 1);
            for (set, c) in atoms {
                let inside = set.intersect(&rest)?;
                let outside = set.difference(&rest)?;
                rest = rest.difference(&set)?;
                if !inside.is_empty() {
                    next.push((inside, &c + &t.coefficient));
                }
                if !outside.is_empty() {
                    next.push((outside, c));
                }
            }
            if !rest.is_empty() {
                next.push((rest, t.coefficient.clone()));
            }
            atoms = next.into_iter().filter(|(_, c)| !c.is_zero()).collect();
        }
        Ok(atoms)
    }

    /// A point whose coefficient is nonzero, or `None` when f = 0 (denominators in a common
    /// pointed cone are required; else `NotPointed`).
    pub fn nonzero_point(&self) -> Result<Option<Vector>, AlgebraError> {
        if self.common_functional(None).is_none() {
            let line = self.denominators().first().cloned().unwrap_or_default();
            return Err(AlgebraError::NotPointed { line });
        }
        for (set, _) in self.atoms()? {
            if let Some(p) = set.find_point()? {
                return Ok(Some(p));
            }
        }
        Ok(None)
    }

    /// Whether f is the zero rational function, exactly.
    pub fn is_zero(&self) -> Result<bool, AlgebraError> {
        if self.terms.is_empty() {
            return Ok(true);
        }
        if self.common_functional(None).is_some() {
            return Ok(self.nonzero_point()?.is_none());
        }
        self.numerator_is_zero()
    }

    /// Over the common denominator Π_a (1 − t^a) (a running over all denominator exponents), the
    /// numerator Σ_i α_i t^{p_i} Π_{a ∉ term i} (1 − t^a) is the zero polynomial.
    fn numerator_is_zero(&self) -> Result<bool, AlgebraError> {
        Ok(self.over_common_denominator()?.numerator.is_empty())
    }

    /// The complexity of [GM11] Definition 3.3: Σ_i (1 + d + k_i d) plus the binary lengths of
    /// the coefficients' numerators and denominators and of every entry of p_i and a_ij (a term
    /// with k_i denominators; the binary length of 0 is 0).
    pub fn complexity(&self) -> Integer {
        let d = self.dim as u64;
        let mut total: u64 = 0;
        for t in &self.terms {
            total += 1 + d + t.denominators.len() as u64 * d;
            total += t.coefficient.numer().abs().bits() + t.coefficient.denom().bits();
            total += t.exponent.0.iter().map(Integer::bits).sum::<u64>();
            total += t
                .denominators
                .iter()
                .flat_map(|a| a.0.iter().map(Integer::bits))
                .sum::<u64>();
        }
        Integer::from(total as i64)
    }

    /// The function written with the given variable names, in the papers' notation:
    /// terms with equal denominators share one numerator, e.g. `(a + b^2)/((1 - a^2)(1 - b^2))`.
    pub fn display<'a>(&'a self, names: &'a [String]) -> impl fmt::Display + 'a {
        Shown {
            f: self,
            names,
            latex: false,
        }
    }

    /// The same in LaTeX.
    pub fn latex(&self, names: &[String]) -> String {
        Shown {
            f: self,
            names,
            latex: true,
        }
        .to_string()
    }
}

/// Calls `emit` on p + Σ n_j a_j for every n ≥ 0 (from index `j` on) with level ≤ degree, the
/// level growing by steps[j] > 0 per a_j.
fn expand(
    gens: &[Vector],
    steps: &[Integer],
    j: usize,
    point: Vector,
    level: Integer,
    degree: &Integer,
    emit: &mut dyn FnMut(Vector),
) {
    if level > *degree {
        return;
    }
    if j == gens.len() {
        emit(point);
        return;
    }
    let (mut point, mut level) = (point, level);
    while level <= *degree {
        expand(
            gens,
            steps,
            j + 1,
            point.clone(),
            level.clone(),
            degree,
            emit,
        );
        point = point.add(&gens[j]);
        level = &level + &steps[j];
    }
}

/// "{(1, 0), (0, 2)}".
fn list(vs: &[Vector]) -> String {
    let items: Vec<String> = vs.iter().map(|v| v.to_string()).collect();
    format!("{{{}}}", items.join(", "))
}

/// The default variable names: a, b, c, ... for d ≤ 26, else t1, ..., td.
pub fn default_names(d: usize) -> Vec<String> {
    if d <= 26 {
        (0..d)
            .map(|i| ((b'a' + i as u8) as char).to_string())
            .collect()
    } else {
        (1..=d).map(|i| format!("t{i}")).collect()
    }
}

struct Shown<'a> {
    f: &'a RationalFunction,
    names: &'a [String],
    latex: bool,
}

/// How monomials and polynomials are written: the variables' names, and whether in LaTeX.
pub(super) struct Notation<'a> {
    pub(super) names: &'a [String],
    pub(super) latex: bool,
}

impl Notation<'_> {
    /// t^e as a product of powers; "" for e = 0.
    fn monomial(&self, e: &Vector) -> String {
        let mut parts = Vec::new();
        for (x, name) in e.0.iter().zip(self.names) {
            if x.is_zero() {
                continue;
            }
            if *x == Integer::ONE {
                parts.push(name.clone());
            } else if self.latex {
                parts.push(format!("{name}^{{{x}}}"));
            } else {
                parts.push(format!("{name}^{x}"));
            }
        }
        parts.join(if self.latex { " " } else { "*" })
    }

    /// A polynomial Σ c t^e, highest-first by total degree then lexicographic, with its number
    /// of terms.
    fn polynomial(&self, terms: &[(&Vector, &Q)]) -> String {
        let mut s = String::new();
        for (i, (e, c)) in terms.iter().enumerate() {
            let m = self.monomial(e);
            let negative = c.is_negative();
            let abs = c.abs();
            if i == 0 {
                if negative {
                    s.push('-');
                }
            } else {
                s.push_str(if negative { " - " } else { " + " });
            }
            let coef = if abs.is_one() && !m.is_empty() {
                String::new()
            } else if self.latex && !abs.is_integer() {
                format!("\\frac{{{}}}{{{}}}", abs.numer(), abs.denom())
            } else {
                abs.to_string()
            };
            s.push_str(&coef);
            if !coef.is_empty() && !m.is_empty() {
                s.push_str(if self.latex { " " } else { "*" });
            }
            s.push_str(&m);
        }
        s
    }

    /// The product Π (1 − t^a), the exponents a listed highest first.
    pub(super) fn factors(&self, dens: &[Vector]) -> String {
        let mut shown: Vec<&Vector> = dens.iter().collect();
        shown.sort_by(|a, b| b.cmp(a));
        shown
            .iter()
            .map(|a| format!("(1 - {})", self.monomial(a)))
            .collect::<Vec<_>>()
            .join("")
    }

    /// Exponents ordered for a numerator: by total degree, then lexicographically highest first.
    pub(super) fn sort_numerator(nums: &mut [(&Vector, &Q)]) {
        nums.sort_by(|a, b| {
            let da: Integer = a.0 .0.iter().fold(Integer::ZERO, |acc, x| &acc + x);
            let db: Integer = b.0 .0.iter().fold(Integer::ZERO, |acc, x| &acc + x);
            da.cmp(&db).then(b.0.cmp(a.0))
        });
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.f.terms.is_empty() {
            return write!(out, "0");
        }
        let notation = Notation {
            names: self.names,
            latex: self.latex,
        };
        let mut groups: BTreeMap<&Vec<Vector>, Vec<(&Vector, &Q)>> = BTreeMap::new();
        for t in &self.f.terms {
            groups
                .entry(&t.denominators)
                .or_default()
                .push((&t.exponent, &t.coefficient));
        }
        // Polynomial part first, then by number of factors.
        let mut ordered: Vec<_> = groups.into_iter().collect();
        ordered.sort_by(|a, b| a.0.len().cmp(&b.0.len()).then(a.0.cmp(b.0)));
        let mut text = String::new();
        for (i, (dens, mut nums)) in ordered.into_iter().enumerate() {
            Notation::sort_numerator(&mut nums);
            let numerator = notation.polynomial(&nums);
            let negative_lead = numerator.starts_with('-');
            if i > 0 {
                text.push_str(if negative_lead && nums.len() == 1 {
                    " - "
                } else {
                    " + "
                });
            }
            let numerator = if i > 0 && negative_lead && nums.len() == 1 {
                numerator[1..].to_string()
            } else {
                numerator
            };
            if dens.is_empty() {
                if i > 0 && nums.len() > 1 {
                    let _ = write!(text, "({numerator})");
                } else {
                    text.push_str(&numerator);
                }
                continue;
            }
            let factors = notation.factors(dens);
            if self.latex {
                let _ = write!(text, "\\frac{{{numerator}}}{{{factors}}}");
            } else {
                let num = if nums.len() > 1 {
                    format!("({numerator})")
                } else {
                    numerator
                };
                if dens.len() > 1 {
                    let _ = write!(text, "{num}/({factors})");
                } else {
                    let _ = write!(text, "{num}/{factors}");
                }
            }
        }
        write!(out, "{text}")
    }
}

mod common_denominator;
mod membership;
#[cfg(test)]
mod tests;
mod univariate;

pub use common_denominator::{CommonDenominator, MAX_NUMERATOR_TERMS};
pub use univariate::{HilbertSeries, SpecializationError};
