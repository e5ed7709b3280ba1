//! Reading a signed short form as a series, and the conversions to and from the one-cone form.
//!
//! A short form's terms converge in different cones, so it is read as a set only through a
//! Laurent expansion: in a direction c with c·g ≠ 0 for every denominator exponent g and c
//! positive on the recession rays, each term is rewritten with c-positive denominators,
//! 1/(1 − t^g) = −t^{−g}/(1 − t^{−g}) when c·g < 0, and then every term is the series of a
//! shifted cone p + N{g_1..g_k} and all the cones lie in the pointed half-space c > 0. That
//! expansion is unique (it is the image of the rational function in the field of series whose
//! supports are well ordered by c) and, for a polyhedron, it is Σ_{x∈P} t^x: the one-cone form
//! ([`RationalFunction`]) whose terms are sets.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::{dot, ShortForm, ShortTerm};
use crate::algebra::genfunc::{RationalFunction, Term};
use crate::algebra::lp::positive_functional;
use crate::algebra::{AlgebraError, Integer, Vector};

fn to_vector(x: &[BigInt]) -> Vector {
    Vector(x.iter().cloned().map(Integer::from).collect())
}

fn to_big(v: &Vector) -> Vec<BigInt> {
    v.0.iter().map(Integer::to_bigint).collect()
}

impl ShortForm {
    /// The function of a one-cone form, whose series converges in the cone of its denominators
    /// (they become the recession directions).
    pub fn from_rational_function(f: &RationalFunction) -> ShortForm {
        let mut recession: Vec<Vector> = Vec::new();
        let terms = f
            .terms()
            .iter()
            .map(|t| {
                for a in &t.denominators {
                    if !recession.contains(a) {
                        recession.push(a.clone());
                    }
                }
                ShortTerm {
                    coefficient: t.coefficient.clone(),
                    apex: to_big(&t.exponent),
                    rays: t.denominators.iter().map(to_big).collect(),
                }
            })
            .collect();
        ShortForm {
            dim: f.dim(),
            terms,
            recession,
        }
    }

    /// The function of an expansion h (a one-cone form) whose series is known to converge along
    /// `recession` (a Hadamard product of functions with these recessions): a function of a
    /// finite set when `recession` is empty, so that it can be counted.
    pub fn from_expansion(h: &RationalFunction, recession: &[Vector]) -> ShortForm {
        ShortForm {
            recession: recession.to_vec(),
            ..ShortForm::from_rational_function(h)
        }
    }

    /// The same terms as a [`RationalFunction`], for printing only (equal terms merged; the
    /// result is the same rational function, but its terms are not sets).
    pub fn written(&self) -> RationalFunction {
        RationalFunction::from_terms(
            self.dim,
            self.terms
                .iter()
                .map(|t| Term {
                    denominators: t.rays.iter().map(|g| to_vector(g)).collect(),
                    exponent: to_vector(&t.apex),
                    coefficient: t.coefficient.clone(),
                })
                .collect(),
        )
    }

    /// A direction c, positive on the recession rays and with c·g ≠ 0 for every denominator
    /// exponent g, when the recession rays lie in an open half-space (else `NotPointed`).
    pub fn direction(&self) -> Result<Vector, AlgebraError> {
        let c = positive_functional(self.dim, &self.recession).map_err(|lambda| {
            // λ ≥ 0, not all zero, with Σ λ_i r_i = 0: the first ray used spans a line of the
            // cone the series would need.
            let i = lambda.iter().position(|l| !l.is_zero()).unwrap_or(0);
            AlgebraError::NotPointed {
                line: self.recession.get(i).cloned().unwrap_or_default(),
            }
        })?;
        let c = to_big(&c);
        let rays: Vec<&Vec<BigInt>> = self.terms.iter().flat_map(|t| &t.rays).collect();
        // λ = (1, m, m², …) with λ·g ≠ 0 wherever c·g = 0.
        let mut m = BigInt::from(2);
        let lambda = loop {
            let mut lambda = Vec::with_capacity(self.dim);
            let mut x = BigInt::one();
            for _ in 0..self.dim {
                lambda.push(x.clone());
                x *= &m;
            }
            if rays
                .iter()
                .all(|g| !dot(&c, g).is_zero() || !dot(&lambda, g).is_zero())
            {
                break lambda;
            }
            m += 1;
        };
        // c' = K·c + λ: for K large enough c' has c's sign on every vector c is not zero on.
        let recession: Vec<Vec<BigInt>> = self.recession.iter().map(to_big).collect();
        let mut k = BigInt::one();
        loop {
            let candidate: Vec<BigInt> = c.iter().zip(&lambda).map(|(a, l)| &k * a + l).collect();
            if recession.iter().all(|r| dot(&candidate, r).is_positive())
                && rays.iter().all(|g| !dot(&candidate, g).is_zero())
            {
                return Ok(to_vector(&candidate));
            }
            k *= 2;
        }
    }

    /// The Laurent expansion in the direction c (see the module comment) as a one-cone form:
    /// every denominator exponent a has c·a > 0, every term is the series of its set. `c` must
    /// satisfy c·g ≠ 0 for every denominator exponent g; a g with c·g = 0 is the error.
    pub fn expansion_along(&self, c: &Vector) -> Result<RationalFunction, Vector> {
        let c = to_big(c);
        let mut terms = Vec::with_capacity(self.terms.len());
        for t in &self.terms {
            let mut coefficient = t.coefficient.clone();
            let mut apex = t.apex.clone();
            let mut denominators = Vec::with_capacity(t.rays.len());
            for g in &t.rays {
                let s = dot(&c, g);
                if s.is_zero() {
                    return Err(to_vector(g));
                }
                if s.is_negative() {
                    coefficient = -coefficient;
                    for (a, x) in apex.iter_mut().zip(g) {
                        *a -= x;
                    }
                    denominators.push(Vector(g.iter().map(|x| Integer::from(-x)).collect()));
                } else {
                    denominators.push(to_vector(g));
                }
            }
            terms.push(Term {
                denominators,
                exponent: to_vector(&apex),
                coefficient,
            });
        }
        Ok(RationalFunction::from_terms(self.dim, terms))
    }

    /// The Laurent expansion in the direction of [`ShortForm::direction`]: for a polyhedron,
    /// the one-cone form of its lattice points.
    pub fn expansion(&self) -> Result<RationalFunction, AlgebraError> {
        let c = self.direction()?;
        self.expansion_along(&c).map_err(|_| {
            AlgebraError::TooLarge("internal error: a direction orthogonal to a denominator".into())
        })
    }

    /// f at a point of Q^d, `None` at a pole of a term (0 to a negative power, or a
    /// denominator 1 − x^g vanishing) where the value is not known to exist. For a function of a
    /// finite set (no recession: a Laurent polynomial) the terms' poles cancel and the constant
    /// term of the Laurent expansion along a generic curve through x is the value; at
    /// (1, …, 1) that is its count. Refused as too large when a power would have more than
    /// `MAX_BITS` bits.
    pub fn evaluate(&self, x: &[BigRational]) -> Result<Option<BigRational>, AlgebraError> {
        if self.recession.is_empty() && x.iter().all(One::is_one) {
            return self.value_at_one().map(Some);
        }
        let bits: Vec<u64> = x
            .iter()
            .map(|q| q.numer().bits().max(q.denom().bits()))
            .collect();
        let power = |e: &[BigInt]| -> Result<Option<BigRational>, AlgebraError> {
            let mut acc = BigRational::one();
            for ((xi, k), b) in x.iter().zip(e).zip(&bits) {
                if k.is_zero() {
                    continue;
                }
                if k.is_negative() && xi.is_zero() {
                    return Ok(None);
                }
                let size = k.magnitude() * BigInt::from(*b).magnitude();
                if size > num_bigint::BigUint::from(MAX_BITS) {
                    return Err(AlgebraError::TooLarge(format!(
                        "the power with exponent {k} would have about {size} bits"
                    )));
                }
                let n = usize::try_from(k.magnitude()).unwrap_or(usize::MAX);
                let base = if k.is_negative() {
                    xi.recip()
                } else {
                    xi.clone()
                };
                acc *= num_traits::pow::pow(base, n);
            }
            Ok(Some(acc))
        };
        let mut sum = BigRational::zero();
        let mut term_pole = false;
        for t in &self.terms {
            let mut den = BigRational::one();
            for g in &t.rays {
                let Some(p) = power(g)? else { return Ok(None) };
                den *= BigRational::one() - p;
            }
            let Some(p) = power(&t.apex)? else {
                return Ok(None);
            };
            if den.is_zero() {
                term_pole = true;
            } else {
                sum += &t.coefficient * p / den;
            }
        }
        if !term_pole {
            return Ok(Some(sum));
        }
        if !self.recession.is_empty() {
            // Not known to be a Laurent polynomial: the sum may have a pole here whose value
            // along one curve would be meaningless.
            return Ok(None);
        }
        // A function of a finite set (a Laurent polynomial, defined wherever no coordinate is
        // 0) whose terms have poles here: the constant term of the Laurent expansion along any
        // curve is the value (every power was computed above, so none fails now).
        let exact = |e: &[BigInt]| power(e).ok().flatten().unwrap_or_else(BigRational::zero);
        super::todd::value_at(self.dim, &self.terms, &exact)
    }
}

/// The most bits a power x^k may have in `evaluate`.
const MAX_BITS: u64 = 1 << 24;

impl ShortForm {
    /// The Hadamard product f ⋆ g ([GM11] Definition 3.4), in time polynomial in the input for
    /// fixed d. Both are expanded in one direction positive on both recessions, so every term is
    /// the series of a shifted cone a + N{b_1..b_k}; the product of two terms is the series of
    /// their intersection. When both cones are unimodular and full-dimensional that
    /// intersection is the set of lattice points of the polyhedron {x : B^{-1}(x − a) ≥ 0,
    /// E^{-1}(x − c) ≥ 0}, whose short form Barvinok's algorithm gives (Barvinok–Woods);
    /// other pairs go through the one-cone product (intersection of basic sets). The product's
    /// series converges along either recession, so it keeps the one with fewer rays.
    pub fn hadamard(&self, other: &ShortForm) -> Result<ShortForm, AlgebraError> {
        use crate::algebra::{Matrix, Polyhedron};
        let c = self.add(other).direction()?;
        let orthogonal = |g: Vector| {
            AlgebraError::TooLarge(format!("internal error: direction {c} orthogonal to {g}"))
        };
        let ef = self.expansion_along(&c).map_err(orthogonal)?;
        let eg = other.expansion_along(&c).map_err(orthogonal)?;
        let d = self.dim;
        // B^{-1} as rows when B (columns: the denominators) is unimodular and square.
        let inverse = |t: &Term| -> Option<Vec<Vec<BigInt>>> {
            if t.denominators.len() != d || d == 0 {
                return None;
            }
            let cols: Vec<Vec<BigInt>> = t.denominators.iter().map(to_big).collect();
            let (det, adj) = super::decompose::det_and_scaled_inverse(&cols);
            (det.magnitude() == &num_bigint::BigUint::one()).then_some(adj)
        };
        let fi: Vec<Option<Vec<Vec<BigInt>>>> = ef.terms().iter().map(inverse).collect();
        let gi: Vec<Option<Vec<Vec<BigInt>>>> = eg.terms().iter().map(inverse).collect();
        let mut out = ShortForm::zero(d);
        for (s, si) in ef.terms().iter().zip(&fi) {
            for (t, ti) in eg.terms().iter().zip(&gi) {
                if crate::interrupt::requested() {
                    return Err(AlgebraError::Interrupted);
                }
                let coefficient = &s.coefficient * &t.coefficient;
                let part = match (si, ti) {
                    (Some(u), Some(v)) => {
                        let mut rows = Vec::with_capacity(2 * d);
                        let mut rhs = Vec::with_capacity(2 * d);
                        for (inv, apex) in [(u, &s.exponent), (v, &t.exponent)] {
                            let apex = to_big(apex);
                            for row in inv {
                                rhs.push(BigRational::from(dot(row, &apex)));
                                rows.push(row.iter().cloned().map(Integer::from).collect());
                            }
                        }
                        let p = Polyhedron::from_inequalities(Matrix::from_rows(rows)?, rhs)?;
                        ShortForm::of_polyhedron(&p)?
                    }
                    _ => {
                        let one = |x: &Term| RationalFunction::from_terms(d, vec![x.clone()]);
                        let mut h = one(s).hadamard(&one(t))?;
                        h = h.scale(&(BigRational::one() / &coefficient));
                        ShortForm::from_rational_function(&h)
                    }
                };
                out.terms.extend(part.scale(&coefficient).terms);
            }
        }
        out.recession = common_recession(d, &self.recession, &other.recession)?;
        Ok(out)
    }
}

/// The rays of cone(R) ∩ cone(S): the product of two functions has its points in both
/// supports, so its series converges along their common directions only (none when either is
/// finite).
fn common_recession(d: usize, r: &[Vector], s: &[Vector]) -> Result<Vec<Vector>, AlgebraError> {
    use crate::algebra::polyhedral::ConeData;
    if r.is_empty() || s.is_empty() {
        return Ok(Vec::new());
    }
    let mut rows: Vec<Vector> = Vec::new();
    for gens in [r, s] {
        let cone = ConeData::from_generators(d, gens)?;
        rows.extend(cone.facets().iter().cloned());
        for e in cone.equations() {
            rows.push(e.clone());
            rows.push(e.scale(&Integer::from(-1)));
        }
    }
    Ok(ConeData::from_inequalities(d, &rows)?.rays().to_vec())
}
