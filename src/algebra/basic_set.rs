//! Basic sets {x ∈ c + L : Ax ≥ b}: the lattice points of a rational polyhedron inside a coset of
//! a lattice. Finite disjoint unions of them are exactly the sets with affine stratifications
//! ([GM11] Definition 4.1; the semilinear sets), and they are closed under the operations
//! [GM11] Section 4 needs: intersection (direct), difference (negate one inequality at a time, split
//! cosets as in [GM11] Lemma 4.3), with exact emptiness tests.
//!
//! Everything reduces to *local coordinates*: x = c + Σ z_i b_i with z ∈ Z^k for a basis b of L,
//! where the set is {z ∈ Z^k : Mz ≥ β}, an integer program in k variables.
//!
//! - Emptiness: a change of lattice basis (Hermite form of Mᵀ) splits off the lineality space, after
//!   which the polyhedron Q is pointed. If Q has vertices V and primitive integer rays R, any
//!   integer point x = Σμ_v v + Σλ_r r can be moved to x − Σ⌊λ_r⌋r, still an integer point of Q,
//!   inside conv(V) + Σ[0,1)r: so searching the box around that region decides emptiness (by
//!   enumeration when the box is small, else by branch and bound with exact linear programs).
//! - Decomposition ([GM11] Lemmas 5.4–5.5, done as Normaliz and LattE do rather than by Barvinok's
//!   projection): cut Q down to its affine hull, homogenise it to the cone over Q × {1}, triangulate
//!   that cone, make the simplicial cones half-open with respect to a generic interior point so
//!   that they partition it, and enumerate each fundamental parallelepiped with the Smith normal
//!   form. The level-1 points of a half-open simplicial cone are then finitely many translates of
//!   the free monoid on its rays of level 0: disjoint pieces p + N{a_1..a_k}, a_j independent.

use std::fmt;

use num_rational::BigRational;
use num_traits::Signed;

use super::coset::{Coset, CosetSplit};
use super::hilbert::parallelepiped_group;
use super::lattice::{hermite_normal_form, Lattice};
use super::linalg::solve;
use super::polyhedral::ConeData;
use super::{AlgebraError, Integer, Matrix, Vector};

type Q = BigRational;

/// The most points a fundamental parallelepiped may have.
const MAX_PARALLELEPIPED: i64 = 2_000_000;

/// {x ∈ c + L : a·x ≥ b for each inequality (a, b)}.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct BasicSet {
    coset: Coset,
    inequalities: Vec<(Vector, Integer)>,
}

/// One disjoint piece p + N{a_1, ..., a_k} of a decomposition, with independent a_j.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct SimplicialPiece {
    /// The apex p.
    pub offset: Vector,
    /// The generators a_j (linearly independent), sorted.
    pub generators: Vec<Vector>,
}

impl BasicSet {
    /// {x ∈ coset : inequalities}, with each inequality tightened to the values a·x takes on the
    /// coset (so a·x ≥ b becomes a·x ≥ the least such value ≥ b), trivial ones dropped and
    /// duplicates merged.
    pub fn new(coset: Coset, inequalities: Vec<(Vector, Integer)>) -> BasicSet {
        let mut out: Vec<(Vector, Integer)> = Vec::new();
        let mut infeasible = false;
        for (a, b) in inequalities {
            let g = coset
                .basis()
                .iter()
                .fold(Integer::ZERO, |acc, v| acc.gcd(&a.dot(v)));
            let base = a.dot(coset.offset());
            if g.is_zero() {
                infeasible |= base < b;
                continue;
            }
            // a·x = base + g·k for integers k: a·x ≥ b ⟺ k ≥ ⌈(b − base)/g⌉.
            let k = ceil_div(&(&b - &base), &g);
            let bound = &base + &(&g * &k);
            // Divide a by the gcd h of its entries: a·x ≥ bound ⟺ (a/h)·x ≥ bound/h (h divides g).
            let h = a.0.iter().fold(Integer::ZERO, |acc, x| acc.gcd(x));
            let a = Vector(
                a.0.iter()
                    .map(|x| x.div_floor(&h).expect("h ≠ 0"))
                    .collect(),
            );
            let bound = ceil_div(&bound, &h);
            out.push((a, bound));
        }
        if infeasible {
            let d = coset.ambient_dim();
            return BasicSet {
                coset,
                inequalities: vec![(Vector::zero(d), Integer::ONE)],
            };
        }
        out.sort();
        // Keep the strongest bound for each direction.
        let mut merged: Vec<(Vector, Integer)> = Vec::new();
        for (a, b) in out {
            match merged.last_mut() {
                Some((a0, b0)) if *a0 == a => {
                    if b > *b0 {
                        *b0 = b;
                    }
                }
                _ => merged.push((a, b)),
            }
        }
        // A cheap certificate of emptiness: a·x ≥ b and −a·x ≥ b' with b + b' > 0.
        if merged.iter().any(|(a, b)| opposed(&merged, a, b)) {
            let d = coset.ambient_dim();
            return BasicSet {
                coset,
                inequalities: vec![(Vector::zero(d), Integer::ONE)],
            };
        }
        BasicSet {
            coset,
            inequalities: merged,
        }
    }

    /// All of Z^d.
    pub fn whole(d: usize) -> BasicSet {
        BasicSet::new(Coset::full(d), Vec::new())
    }

    /// The lattice points of {x : a·x ≥ b}.
    pub fn from_inequalities(d: usize, inequalities: Vec<(Vector, Integer)>) -> BasicSet {
        BasicSet::new(Coset::full(d), inequalities)
    }

    /// p + N{a_1, ..., a_k} for linearly independent a_j: the coset p + Z{a} cut by a_j-coordinate
    /// ≥ 0 (each coordinate functional scaled to an integer vector).
    pub fn simplicial(offset: &Vector, generators: &[Vector]) -> BasicSet {
        let d = offset.dim();
        let coset = Coset::new(offset.clone(), &Lattice::generated_by(d, generators));
        let inequalities = dual_functionals(d, generators)
            .into_iter()
            .map(|u| {
                let b = u.dot(offset);
                (u, b)
            })
            .collect();
        BasicSet::new(coset, inequalities)
    }

    /// The ambient dimension d.
    pub fn dim(&self) -> usize {
        self.coset.ambient_dim()
    }

    /// The coset c + L.
    pub fn coset(&self) -> &Coset {
        &self.coset
    }

    /// About how many bytes the set holds (its coset's offset and basis, its inequalities, and
    /// the boxes around them), for the memory budget.
    pub fn footprint(&self) -> u64 {
        let d = self.dim();
        let entries = d + self.coset.basis().len() * d + self.inequalities.len() * (d + 1);
        (entries * std::mem::size_of::<Integer>() + 64 * (3 + self.inequalities.len())) as u64
    }

    /// The inequalities (a, b), meaning a·x ≥ b.
    pub fn inequalities(&self) -> &[(Vector, Integer)] {
        &self.inequalities
    }

    /// Whether the description is visibly infeasible (an inequality 0 ≥ 1).
    fn trivially_empty(&self) -> bool {
        self.inequalities
            .iter()
            .any(|(a, b)| a.is_zero() && b.signum() > 0)
    }

    /// Whether x lies in the set.
    pub fn contains(&self, x: &Vector) -> bool {
        x.dim() == self.dim()
            && self.inequalities.iter().all(|(a, b)| a.dot(x) >= *b)
            && self.coset.contains(x)
    }

    /// Whether the two sets visibly share no point, with no emptiness test: one bounds a·x from
    /// below and the other from above, with no value between (a·x ≥ b and −a·x ≥ b' with
    /// b + b' > 0), or one's coset fixes a·x at a value the other's inequality a·x ≥ b rules
    /// out. False says nothing. (Inequalities are kept primitive and sorted, see
    /// [`BasicSet::new`].)
    pub(crate) fn visibly_disjoint(&self, other: &BasicSet) -> bool {
        self.inequalities
            .iter()
            .any(|(a, b)| opposed(&other.inequalities, a, b))
            || self.fixes_against(other)
            || other.fixes_against(self)
    }

    /// Whether this set's coset fixes a·x, for an inequality a·x ≥ b of `other`, below b.
    fn fixes_against(&self, other: &BasicSet) -> bool {
        let basis = self.coset.basis();
        other.inequalities.iter().any(|(a, b)| {
            basis.iter().all(|v| a.dot(v).is_zero()) && a.dot(self.coset.offset()) < *b
        })
    }

    /// The one point of the set, when its coset is a point it contains (a set of one point).
    pub(crate) fn single_point(&self) -> Option<&Vector> {
        let x = self.coset.offset();
        (self.coset.rank() == 0 && self.contains(x)).then_some(x)
    }

    /// The set translated by p.
    pub fn translate(&self, p: &Vector) -> BasicSet {
        BasicSet::new(
            self.coset.translate(p),
            self.inequalities
                .iter()
                .map(|(a, b)| (a.clone(), b + &a.dot(p)))
                .collect(),
        )
    }

    /// The set with more inequalities.
    pub fn with(&self, extra: impl IntoIterator<Item = (Vector, Integer)>) -> BasicSet {
        let mut ineqs = self.inequalities.clone();
        ineqs.extend(extra);
        BasicSet::new(self.coset.clone(), ineqs)
    }

    /// S ∩ T, or `None` when the cosets do not meet (it may still be empty otherwise).
    pub fn intersect(&self, other: &BasicSet) -> Option<BasicSet> {
        let coset = self.coset.intersect(&other.coset)?;
        let mut ineqs = self.inequalities.clone();
        ineqs.extend(other.inequalities.iter().cloned());
        Some(BasicSet::new(coset, ineqs))
    }

    /// Whether S ⊆ T: S's coset lies in T's and no point of S fails an inequality of T (one
    /// emptiness test per inequality).
    pub fn is_subset_of(&self, other: &BasicSet) -> Result<bool, AlgebraError> {
        self.is_subset_meeting(other, self.coset.intersect(&other.coset).as_ref())
    }

    /// [`BasicSet::is_subset_of`] given the meet of the two cosets.
    pub(crate) fn is_subset_meeting(
        &self,
        other: &BasicSet,
        meet: Option<&Coset>,
    ) -> Result<bool, AlgebraError> {
        if meet != Some(&self.coset) {
            return Ok(false);
        }
        for (a, b) in &other.inequalities {
            if !self.with([failing(a, b)]).is_empty()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// S ∖ T as disjoint nonempty basic sets.
    pub fn difference(&self, other: &BasicSet) -> Result<Vec<BasicSet>, AlgebraError> {
        self.difference_split(other, &self.coset.split_by(&other.coset))
    }

    /// [`BasicSet::difference`] given how this set's coset splits by the other's
    /// ([`Coset::split_by`]), for a caller that cuts many sets on one coset by the same set.
    pub(crate) fn difference_split(
        &self,
        other: &BasicSet,
        split: &CosetSplit,
    ) -> Result<Vec<BasicSet>, AlgebraError> {
        let mut out = Vec::new();
        // When S and T do not meet, S ∖ T = S: one emptiness test instead of splitting S.
        let Some(meet) = &split.meet else {
            return Ok(vec![self.clone()]);
        };
        let mut ineqs = self.inequalities.clone();
        ineqs.extend(other.inequalities.iter().cloned());
        let both = BasicSet::new(meet.clone(), ineqs);
        if both.is_empty()? {
            return Ok(vec![self.clone()]);
        }
        let meet = both.coset;
        for (coset, extra) in &split.rest {
            let mut ineqs = self.inequalities.clone();
            ineqs.extend(extra.iter().cloned());
            out.push(BasicSet::new(coset.clone(), ineqs));
        }
        // On T's coset: fail T's first inequality, or pass it and fail the next, and so on.
        let mut current = self.inequalities.clone();
        for (a, b) in &other.inequalities {
            let mut ineqs = current.clone();
            ineqs.push(failing(a, b));
            out.push(BasicSet::new(meet.clone(), ineqs));
            current.push((a.clone(), b.clone()));
        }
        let mut kept = Vec::with_capacity(out.len());
        for s in out {
            if let Some(s) = s.pruned()? {
                kept.push(s);
            }
        }
        Ok(kept)
    }

    /// Whether the polyhedron {x ∈ c + R L : Ax ≥ b} is bounded, so that the set is finite: its
    /// recession cone {z : Mz ≥ 0} in local coordinates is {0}.
    pub fn is_bounded(&self) -> Result<bool, AlgebraError> {
        let k = self.coset.rank();
        if k == 0 || self.trivially_empty() {
            return Ok(true);
        }
        let rows: Vec<Vector> = self.local().into_iter().map(|(r, _)| Vector(r)).collect();
        if rows.is_empty() {
            return Ok(false);
        }
        let cone = ConeData::from_inequalities(k, &rows)?;
        Ok(cone.rays().is_empty() && cone.lineality().is_empty())
    }

    /// Whether the set has no point.
    pub fn is_empty(&self) -> Result<bool, AlgebraError> {
        Ok(self.find_point()?.is_none())
    }

    /// The number of points of a bounded basic set: the lattice points of its polytope
    /// {z : Mz ≥ β} in local coordinates (x = c + Σ z_i b_i is a bijection onto the set), counted
    /// through Barvinok's short generating function, in time polynomial in the input for fixed k.
    pub fn count_points(&self) -> Result<num_bigint::BigInt, AlgebraError> {
        if self.trivially_empty() {
            return Ok(0.into());
        }
        let k = self.coset.rank();
        if k == 0 {
            return Ok(1.into());
        }
        let local = self.local();
        let a = Matrix::from_rows(local.iter().map(|(row, _)| row.clone()).collect())?;
        let b = local
            .iter()
            .map(|(_, beta)| Q::from(beta.to_bigint()))
            .collect();
        let polytope = super::Polyhedron::from_inequalities(a, b)?;
        super::barvinok::count_polytope(&polytope, &mut |_| {})
    }

    /// The local description {z ∈ Z^k : Mz ≥ β} (rows of M with β).
    fn local(&self) -> Vec<(Vec<Integer>, Integer)> {
        let c = self.coset.offset();
        self.inequalities
            .iter()
            .map(|(a, b)| {
                let row = self.coset.basis().iter().map(|v| a.dot(v)).collect();
                (row, b - &a.dot(c))
            })
            .collect()
    }

    /// Some point of the set, or `None` when it is empty (exactly).
    pub fn find_point(&self) -> Result<Option<Vector>, AlgebraError> {
        Ok(self.point_and_facets()?.map(|(x, _)| x))
    }

    /// The set with the inequalities that cut out no facet dropped (the same points), or `None`
    /// when it is empty: the emptiness test's double description tells which they are.
    pub fn pruned(&self) -> Result<Option<BasicSet>, AlgebraError> {
        let Some((_, needed)) = self.point_and_facets()? else {
            return Ok(None);
        };
        if needed.iter().all(|&n| n) {
            return Ok(Some(self.clone()));
        }
        let inequalities = self
            .inequalities
            .iter()
            .zip(&needed)
            .filter(|(_, &n)| n)
            .map(|(row, _)| row.clone())
            .collect();
        Ok(Some(BasicSet {
            coset: self.coset.clone(),
            inequalities,
        }))
    }

    /// Some point, and for each inequality whether it cuts out a facet (see [`BasicSet::pruned`]).
    fn point_and_facets(&self) -> Result<Option<(Vector, Vec<bool>)>, AlgebraError> {
        if self.trivially_empty() {
            return Ok(None);
        }
        let k = self.coset.rank();
        let local = self.local();
        if local.is_empty() {
            return Ok(Some((self.coset.offset().clone(), Vec::new())));
        }
        // Split off the lineality space: U·Mᵀ = H gives z = Uᵀw with Mz = Hᵀw, and only the first
        // r = rank(M) coordinates of w matter.
        let mt = Matrix::from_rows(
            (0..k)
                .map(|j| local.iter().map(|(row, _)| row[j].clone()).collect())
                .collect(),
        )?;
        let hf = hermite_normal_form(&mt);
        let r = hf.rank;
        let reduced: Vec<(Vector, Integer)> = local
            .iter()
            .enumerate()
            .map(|(i, (_, beta))| {
                (
                    Vector((0..r).map(|j| hf.h.get(j, i).clone()).collect()),
                    beta.clone(),
                )
            })
            .collect();
        let Some((w, needed)) = point_and_facets(r, &reduced)? else {
            return Ok(None);
        };
        let z: Vec<Integer> = (0..k)
            .map(|i| (0..r).fold(Integer::ZERO, |acc, j| &acc + &(hf.u.get(j, i) * &w[j])))
            .collect();
        let x = self.coset.at(&z);
        debug_assert!(self.contains(&x), "{x} should lie in {self}");
        Ok(Some((x, needed)))
    }

    /// A decomposition into disjoint pieces p + N{a_1..a_k} with independent a_j (see the module
    /// documentation). The set must not contain a line (`NotPointed` names one otherwise).
    pub fn simplicial_pieces(&self) -> Result<Vec<SimplicialPiece>, AlgebraError> {
        let mut unlimited = i64::MAX;
        self.simplicial_pieces_within(&mut unlimited)
    }

    /// [`BasicSet::simplicial_pieces`], enumerating at most `budget` parallelepiped points in all
    /// (the budget is decreased by what is used; `TooLarge` when it would run out).
    pub fn simplicial_pieces_within(
        &self,
        budget: &mut i64,
    ) -> Result<Vec<SimplicialPiece>, AlgebraError> {
        if self.find_point()?.is_none() {
            return Ok(Vec::new());
        }
        let k = self.coset.rank();
        let local = self.local();
        if k == 0 {
            return Ok(vec![SimplicialPiece {
                offset: self.coset.offset().clone(),
                generators: Vec::new(),
            }]);
        }
        // The homogenisation {(z, t) : Mz − βt ≥ 0, t ≥ 0}.
        let mut rows: Vec<Vector> = local
            .iter()
            .map(|(row, beta)| Vector(row.iter().cloned().chain([-beta]).collect()))
            .collect();
        rows.push(Vector::unit(k + 1, k));
        let cone = ConeData::from_inequalities(k + 1, &rows)?;
        if let Some(line) = cone.lineality().first() {
            let z = &line.0[..k];
            let x = self.coset.at(z).sub(self.coset.offset());
            return Err(AlgebraError::NotPointed { line: x });
        }
        if !cone.is_full_dimensional() {
            // Cut down to the affine hull: an equation e·(z, t) = 0 of the homogenisation is
            // e_z·z = −e_t on Q, so restrict the coset to it and start again.
            let e = &cone.equations()[0];
            let n_z = &e.0[..k];
            let value = -&e.0[k];
            // Back in x: e_z·z = Σ e_z,i z_i; with x = c + Bᵀz this is a condition on the coset's
            // local coordinates, imposed by solving it there.
            let restricted = self.restrict_local(n_z, &value);
            return match restricted {
                None => Ok(Vec::new()),
                Some(s) => s.simplicial_pieces_within(budget),
            };
        }
        let simplices = super::hilbert::triangulate(&cone)?;
        let q = generic_interior_point(&cone, &simplices)?;
        let mut pieces = Vec::new();
        for gens in &simplices {
            let g = Matrix::from_columns(gens)?;
            let lam_q = solve(
                &g,
                &q.0.iter()
                    .map(|x| Q::from(x.to_bigint()))
                    .collect::<Vec<_>>(),
            )
            .expect("the generators of a simplex are independent");
            let excluded: Vec<bool> = lam_q.iter().map(|l| l.is_negative()).collect();
            let rays: Vec<Vector> = gens
                .iter()
                .filter(|g| g.0[k].is_zero())
                .map(|g| Vector(g.0[..k].to_vec()))
                .collect();
            let (n, lambdas) = parallelepiped(gens, (*budget).min(MAX_PARALLELEPIPED))?;
            *budget -= lambdas.len() as i64;
            for mut lam in lambdas {
                for (l, &ex) in lam.iter_mut().zip(&excluded) {
                    if ex && l.is_zero() {
                        *l = n.clone();
                    }
                }
                let p = combine(gens, &lam, &n);
                let level = &p.0[k];
                let apexes: Vec<Vector> = if *level == Integer::ONE {
                    vec![p.clone()]
                } else if level.is_zero() {
                    gens.iter()
                        .filter(|g| g.0[k] == Integer::ONE)
                        .map(|g| p.add(g))
                        .collect()
                } else {
                    Vec::new()
                };
                for apex in apexes {
                    pieces.push(SimplicialPiece {
                        offset: self.coset.at(&apex.0[..k]),
                        generators: {
                            let mut v: Vec<Vector> = rays
                                .iter()
                                .map(|r| self.coset.at(&r.0).sub(self.coset.offset()))
                                .collect();
                            v.sort();
                            v
                        },
                    });
                }
            }
        }
        pieces.sort();
        Ok(pieces)
    }

    /// The set with the local-coordinate equation n·z = v imposed.
    fn restrict_local(&self, n: &[Integer], v: &Integer) -> Option<BasicSet> {
        let (z0, kernel) = super::coset::solve_integer(&[n.to_vec()], std::slice::from_ref(v))?;
        let d = self.dim();
        let point = self.coset.at(&z0.0);
        let gens: Vec<Vector> = kernel
            .iter()
            .map(|kv| self.coset.at(&kv.0).sub(self.coset.offset()))
            .collect();
        let coset = Coset::new(point, &Lattice::generated_by(d, &gens));
        Some(BasicSet::new(coset, self.inequalities.clone()))
    }
}

/// ⌈a / b⌉ for b ≠ 0.
/// Whether the primitive, sorted inequalities `sorted` hold −a·x ≥ b' with b + b' > 0, so that
/// no x meets both it and a·x ≥ b (a binary search for −a, negated entry by entry).
fn opposed(sorted: &[(Vector, Integer)], a: &Vector, b: &Integer) -> bool {
    sorted
        .binary_search_by(|(x, _)| {
            x.0.iter()
                .zip(&a.0)
                .map(|(xi, ai)| xi.cmp(&-ai))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .is_ok_and(|j| (b + &sorted[j].1).signum() > 0)
}

fn ceil_div(a: &Integer, b: &Integer) -> Integer {
    let q = a.div_floor(b).expect("b ≠ 0");
    if (&q * b) == *a {
        q
    } else {
        &q + &Integer::ONE
    }
}

/// For independent a_1..a_k in Z^d, integer vectors u_i with u_i·a_j = 0 (j ≠ i) and u_i·a_i > 0,
/// chosen in span(a) (so they only see the coordinates along the a_j).
pub(crate) fn dual_functionals(d: usize, generators: &[Vector]) -> Vec<Vector> {
    if generators.is_empty() {
        return Vec::new();
    }
    let g = Matrix::from_columns(generators).expect("nonempty");
    // u_i = Σ_j c_ij a_j with (AᵀA) c_i = e_i.
    let k = generators.len();
    let gram = Matrix::from_rows(
        (0..k)
            .map(|i| (0..k).map(|j| generators[i].dot(&generators[j])).collect())
            .collect(),
    )
    .expect("k ≥ 1");
    (0..k)
        .map(|i| {
            let e: Vec<Q> = (0..k)
                .map(|j| Q::from(num_bigint::BigInt::from(i64::from(i == j))))
                .collect();
            let c =
                solve(&gram, &e).expect("independent generators have an invertible Gram matrix");
            let u: Vec<Q> = (0..d)
                .map(|r| {
                    (0..k).fold(Q::from(num_bigint::BigInt::from(0)), |acc, j| {
                        acc + &c[j] * Q::from(g.get(r, j).to_bigint())
                    })
                })
                .collect();
            super::linalg::primitive_from_rational(&u)
        })
        .collect()
}

/// Σ λ_j g_j / n.
fn combine(gens: &[Vector], lam: &[Integer], n: &Integer) -> Vector {
    let dim = gens[0].dim();
    let sum = gens
        .iter()
        .zip(lam)
        .fold(Vector::zero(dim), |acc, (g, l)| acc.add(&g.scale(l)));
    Vector(
        sum.0
            .iter()
            .map(|x| x.div_floor(n).expect("n ≠ 0"))
            .collect(),
    )
}

/// The lattice points of the half-open parallelepiped {Σ λ_j v_j : 0 ≤ λ_j < 1} of k independent
/// vectors of Z^k, as n·λ with n = |det V| (the Smith-form odometer of [`super::hilbert`]).
pub(crate) fn parallelepiped(
    vs: &[Vector],
    max: i64,
) -> Result<(Integer, Vec<Vec<Integer>>), AlgebraError> {
    let group = parallelepiped_group(vs, max, "the decomposition")?;
    let mut out = Vec::new();
    group.for_each_point(vs.len(), |lambda| out.push(lambda.to_vec()))?;
    Ok((group.order, out))
}

/// An interior point of the full-dimensional cone off every facet hyperplane of every simplex, so
/// that the half-open simplices {x : x + εq ∈ σ for small ε > 0} partition the cone.
fn generic_interior_point(
    cone: &ConeData,
    simplices: &[Vec<Vector>],
) -> Result<Vector, AlgebraError> {
    let centre = cone.relative_interior_point();
    let inverses: Vec<Matrix> = simplices
        .iter()
        .map(|s| Matrix::from_columns(s))
        .collect::<Result<_, _>>()?;
    for attempt in 1i64.. {
        let scale = Integer::from(attempt * 97 + 1000);
        let mut q = centre.scale(&scale);
        // A small pseudo-random perturbation (a linear congruential sequence).
        let mut state = (attempt as u64)
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        for x in q.0.iter_mut() {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *x = &*x + &Integer::from(((state >> 33) % 61) as i64 + 1);
        }
        if !cone.facets().iter().all(|f| f.dot(&q).signum() > 0) {
            continue;
        }
        let rhs: Vec<Q> = q.0.iter().map(|x| Q::from(x.to_bigint())).collect();
        let generic = inverses.iter().all(|g| {
            solve(g, &rhs)
                .expect("independent")
                .iter()
                .all(|l| !num_traits::Zero::is_zero(l))
        });
        if generic {
            return Ok(q);
        }
        if attempt > 1000 {
            break;
        }
    }
    Err(AlgebraError::TooLarge(
        "no generic point for the half-open decomposition was found".into(),
    ))
}

impl fmt::Display for BasicSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{x ∈ {}", self.coset)?;
        for (i, (a, b)) in self.inequalities.iter().enumerate() {
            write!(f, "{}", if i == 0 { " : " } else { ", " })?;
            write!(f, "{a}·x ≥ {b}")?;
        }
        write!(f, "}}")
    }
}

mod integer_point;
use integer_point::point_and_facets;

/// The inequality a·x ≤ b − 1 (as −a·x ≥ 1 − b) of the integer points failing a·x ≥ b.
fn failing(a: &Vector, b: &Integer) -> (Vector, Integer) {
    (a.scale(&Integer::from(-1)), &(-b) + &Integer::ONE)
}

#[cfg(test)]
mod tests;
