//! Hilbert bases: the unique minimal generating set of the monoid C ∩ L, for a pointed rational cone
//! C and a lattice L (Miller–Sturmfels, Combinatorial Commutative Algebra, Ch. 7; the papers'
//! affine semigroups are such monoids when normal).
//!
//! The algorithm is the primal one of Normaliz, in exact arithmetic:
//! 1. replace C by C ∩ span(L) (when L is not of full rank), and change coordinates so that
//!    L ∩ span(C) becomes Z^k and C is full-dimensional in R^k;
//! 2. triangulate C (a pulling triangulation: cone a first ray over a triangulation of each facet
//!    that does not contain it, recursively; all that is needed below is that the simplicial cones
//!    are spanned by extremal rays and cover C);
//! 3. for each simplicial cone σ = R_+{v_1..v_k}, list the lattice points of its half-open
//!    fundamental parallelepiped {Σ λ_i v_i : 0 ≤ λ_i < 1} through the Smith normal form of the
//!    matrix V (its group Z^k / VZ^k has |det V| elements, each reduced into the parallelepiped);
//! 4. keep the irreducible candidates.
//!
//! When the entries are small (the usual case), step 3 keeps each point as n·λ only and reduces
//! the points of one simplicial cone among themselves before anything else (`machine`, the way
//! libnormaliz does): a tenth of them or fewer survive to step 4. Otherwise everything runs on
//! exact integers, all candidates at once.
//!
//! Why the candidates suffice: let x ∈ C ∩ L be irreducible. It lies in some simplicial cone
//! σ = R_+{v_1..v_k} of the triangulation, x = Σ λ_i v_i with λ_i ≥ 0. If some λ_i ≥ 1, then
//! x − v_i = Σ λ'_j v_j (λ'_i = λ_i − 1) is again a lattice point of σ ⊂ C, so x = v_i + (x − v_i)
//! is reducible unless x − v_i = 0, i.e. x = v_i is a ray. Otherwise every λ_i < 1 and x is a point
//! of the parallelepiped of σ. So the Hilbert basis is contained in the rays and the parallelepiped
//! points.
//!
//! Why the reduction is right: sort the candidates by a positive grading ℓ (an integer functional
//! with ℓ ≥ 1 on every nonzero point of C ∩ L). If x = y + z with y, z ∈ C ∩ L nonzero, some
//! Hilbert basis element h ≤ y (h = y or y − h ∈ C) has ℓ(h) < ℓ(x), is already kept, and
//! x − h = (y − h) + z ∈ C; conversely x − h ∈ C ∖ {0} with h ≠ 0 makes x reducible. So x is
//! reducible exactly when x − h ∈ C for a kept h of smaller degree (x − h ∈ L holds automatically).

mod machine;

use num_rational::BigRational;

use super::index_set::{maximal, IndexSet};
use super::lattice::{kernel_lattice, smith_normal_form, Lattice};
use super::linalg::{primitive, solve};
use super::polyhedral::ConeData;
use super::{AlgebraError, Integer, Matrix, Vector};

/// The most candidates a simplicial cone may contribute (its |det| in lattice coordinates).
const MAX_PARALLELEPIPED: i64 = 5_000_000;

/// The Hilbert basis of the pointed cone R_+G intersected with the lattice L (Z^d when `None`),
/// sorted: the unique minimal generating set of the monoid R_+G ∩ L. When L does not span R^d the
/// cone is first cut down to R_+G ∩ span(L). Errors: a generator or L of another dimension, a cone
/// that is not pointed (naming a line in it), an interrupt, or a simplicial cone too large to
/// enumerate.
pub fn hilbert_basis(
    ambient: usize,
    generators: &[Vector],
    lattice: Option<&Lattice>,
) -> Result<Vec<Vector>, AlgebraError> {
    AlgebraError::check_vectors("a generator of a cone", ambient, generators)?;
    if let Some(l) = lattice {
        if l.ambient_dim() != ambient {
            return Err(AlgebraError::DimensionMismatch {
                what: "the lattice of a Hilbert basis".into(),
                expected: ambient,
                found: l.ambient_dim(),
            });
        }
    }
    let Some(cone) = pointed_cone(ambient, generators, lattice)? else {
        return Ok(Vec::new());
    };
    // Coordinates: a basis B of L ∩ span(C) (L = Z^d by default).
    let span_lattice = Lattice::generated_by(ambient, cone.rays()).saturation();
    let basis: Vec<Vector> = match lattice {
        None => span_lattice.basis().to_vec(),
        Some(l) => intersect_with_span(l, &span_lattice),
    };
    // Rays of C in local coordinates are rational multiples of lattice points: take the primitive
    // lattice point on each ray.
    let standard = basis.len() == ambient
        && basis
            .iter()
            .enumerate()
            .all(|(i, b)| *b == Vector::unit(ambient, i));
    if standard {
        // The local coordinates are the ambient ones (a full-dimensional cone in Z^d).
        let mut out = hilbert_basis_full_dimensional(&cone)?;
        out.sort();
        return Ok(out);
    }
    let local_rays: Vec<Vector> = cone
        .rays()
        .iter()
        .map(|r| local_ray(r, &basis))
        .collect::<Result<_, _>>()?;
    let local_cone = ConeData::from_generators(basis.len(), &local_rays)?;
    let local_basis = hilbert_basis_full_dimensional(&local_cone)?;
    let mut out: Vec<Vector> = local_basis
        .iter()
        .map(|y| combine(ambient, &basis, y))
        .collect();
    out.sort();
    Ok(out)
}

/// R_+G ∩ span(L) (R_+G when L is absent) as a pointed cone, or `None` when it is {0}.
fn pointed_cone(
    ambient: usize,
    generators: &[Vector],
    lattice: Option<&Lattice>,
) -> Result<Option<ConeData>, AlgebraError> {
    let gens: Vec<Vector> = generators
        .iter()
        .filter(|g| !g.is_zero())
        .cloned()
        .collect();
    if gens.is_empty() {
        return Ok(None);
    }
    let mut cone = ConeData::from_generators(ambient, &gens)?;
    if let Some(line) = cone.lineality().first() {
        return Err(AlgebraError::NotPointed { line: line.clone() });
    }
    let normals = lattice.map_or_else(Vec::new, |l| kernel_lattice(l.basis(), ambient));
    if normals
        .iter()
        .any(|n| gens.iter().any(|g| !n.dot(g).is_zero()))
    {
        // Cut C down to span(L): its facets, and both signs of its and L's equations.
        let mut rows = cone.facets().to_vec();
        for e in cone.equations().iter().chain(&normals) {
            rows.push(e.clone());
            rows.push(e.scale(&Integer::from(-1)));
        }
        cone = ConeData::from_inequalities(ambient, &rows)?;
    }
    Ok((!cone.rays().is_empty()).then_some(cone))
}

/// Σ c_i b_i in Z^d.
fn combine(d: usize, basis: &[Vector], c: &Vector) -> Vector {
    basis
        .iter()
        .zip(&c.0)
        .fold(Vector::zero(d), |acc, (b, k)| acc.add(&b.scale(k)))
}

/// The Hilbert basis of C ∩ Z^k for a pointed full-dimensional cone C ⊂ R^k given by primitive
/// rays: the irreducible elements among the rays and parallelepiped points of a triangulation.
fn hilbert_basis_full_dimensional(cone: &ConeData) -> Result<Vec<Vector>, AlgebraError> {
    let k = cone.ambient_dim();
    // A grading: the sum of the facet normals is positive on C ∖ {0} (a point on every facet of a
    // pointed cone is 0), so it is ≥ 1 on the nonzero lattice points of C.
    let sum = cone
        .facets()
        .iter()
        .fold(Vector::zero(k), |acc, f| acc.add(f));
    let grading = primitive(&sum);
    let simplices = triangulate(cone)?;
    // Every quantity below is a combination of the rays, the facet normals and the grading with
    // coefficients under MAX_PARALLELEPIPED: when their entries are small, machine words suffice
    // (with 128-bit accumulators), and otherwise the same computation runs on exact `Integer`s.
    let small = |v: &Vector| {
        v.0.iter()
            .all(|x| x.to_i64().is_some_and(|x| x.abs() < 1 << 24))
    };
    if k <= 32 && small(&grading) && cone.rays().iter().chain(cone.facets()).all(small) {
        machine::hilbert_basis(cone.rays(), cone.facets(), &grading, &simplices)
    } else {
        reduce_candidates(cone, &grading, &simplices)
    }
}

/// A candidate for the Hilbert basis: its degree, its values on the facet normals, the point.
struct Candidate {
    degree: Integer,
    values: Vec<Integer>,
    point: Vec<Integer>,
}

/// The irreducible elements among the rays and the parallelepiped points of the simplices, in
/// exact integers (the path taken when the bounds in `hilbert_basis_full_dimensional` do not rule
/// out overflow; otherwise `machine` runs, which also reduces inside each simplex first).
fn reduce_candidates(
    cone: &ConeData,
    grading: &Vector,
    simplices: &[Vec<Vector>],
) -> Result<Vec<Vector>, AlgebraError> {
    let mut candidates: Vec<Candidate> = cone
        .rays()
        .iter()
        .map(|r| Candidate {
            degree: grading.dot(r),
            values: cone.facets().iter().map(|f| f.dot(r)).collect(),
            point: r.0.clone(),
        })
        .collect();
    for s in simplices {
        parallelepiped_points(s, cone.facets(), grading, &mut candidates)?;
    }
    candidates.sort_by(|a, b| (&a.degree, &a.point).cmp(&(&b.degree, &b.point)));
    candidates.dedup_by(|a, b| a.point == b.point);
    // The cone is full-dimensional here, so x − h ∈ C exactly when f·x ≥ f·h for every facet
    // normal f: compare facet values instead of forming x − h (as Normaliz does). If x = y + z is
    // reducible, one summand has degree at most deg(x)/2 and so has a kept h below it: only those
    // need to be tried. Kept elements come in order of degree, so they are a prefix.
    let mut kept: Vec<Candidate> = Vec::new();
    for (i, x) in candidates.into_iter().enumerate() {
        if i % 4096 == 0 && crate::interrupt::requested() {
            return Err(AlgebraError::Interrupted);
        }
        let limit = kept.partition_point(|h| &h.degree + &h.degree <= x.degree);
        let reducible = kept[..limit]
            .iter()
            .any(|h| x.values.iter().zip(&h.values).all(|(a, b)| a >= b));
        if !reducible {
            kept.push(x);
        }
    }
    Ok(kept.into_iter().map(|c| Vector(c.point)).collect())
}

/// A basis of L ∩ S for a lattice L and a saturated lattice S (the integer points of a subspace).
fn intersect_with_span(l: &Lattice, s: &Lattice) -> Vec<Vector> {
    // L ∩ span(S) = the integer vectors of L orthogonal to span(S)^⊥: solve in L's coordinates.
    let d = l.ambient_dim();
    let normals = kernel_lattice(s.basis(), d);
    if normals.is_empty() {
        return l.basis().to_vec();
    }
    // x = Σ c_i b_i with n·x = 0 for every normal n: c in the integer kernel of (n·b_i).
    let rows: Vec<Vector> = normals
        .iter()
        .map(|n| Vector(l.basis().iter().map(|b| n.dot(b)).collect()))
        .collect();
    let vs: Vec<Vector> = kernel_lattice(&rows, l.rank())
        .iter()
        .map(|c| combine(d, l.basis(), c))
        .collect();
    Lattice::generated_by(d, &vs).basis().to_vec()
}

/// The primitive lattice point (in the coordinates of `basis`) on the ray through r.
fn local_ray(r: &Vector, basis: &[Vector]) -> Result<Vector, AlgebraError> {
    let m =
        Matrix::from_columns(basis).map_err(|_| AlgebraError::Empty("a lattice basis".into()))?;
    let rhs: Vec<BigRational> =
        r.0.iter()
            .map(|x| BigRational::from(x.to_bigint()))
            .collect();
    let c = solve(&m, &rhs)
        .ok_or_else(|| AlgebraError::TooLarge(format!("the ray {r} leaves the lattice's span")))?;
    Ok(super::linalg::primitive_from_rational(&c))
}

/// A pulling triangulation of a pointed full-dimensional cone: lists of dim(C) rays each.
///
/// It is computed on the face lattice alone, with faces as sets of rays: the facets of a face G
/// are the maximal sets among G ∩ F for the facets F of C that do not contain G (every face of C
/// is an intersection of facets), a face of dimension m is simplicial when it has m rays, and
/// otherwise G is triangulated by coning its first ray over a triangulation of each facet of G
/// that does not contain it.
pub(crate) fn triangulate(cone: &ConeData) -> Result<Vec<Vec<Vector>>, AlgebraError> {
    let rays = cone.rays();
    let incidences: Vec<IndexSet> = cone
        .facets()
        .iter()
        .map(|f| IndexSet::from_fn(rays.len(), |i| f.dot(&rays[i]).is_zero()))
        .collect();
    let mut simplices = Vec::new();
    let mut apexes = Vec::new();
    let all = IndexSet::from_fn(rays.len(), |_| true);
    pull(&all, cone.dim(), &incidences, &mut apexes, &mut simplices)?;
    Ok(simplices
        .into_iter()
        .map(|s: Vec<usize>| s.into_iter().map(|i| rays[i].clone()).collect())
        .collect())
}

/// Triangulates the face with ray set `face` and dimension `dim`, coning each simplex over the
/// rays in `apexes`.
fn pull(
    face: &IndexSet,
    dim: usize,
    incidences: &[IndexSet],
    apexes: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) -> Result<(), AlgebraError> {
    if face.len() == dim {
        out.push(face.members().chain(apexes.iter().copied()).collect());
        return Ok(());
    }
    if crate::interrupt::requested() {
        return Err(AlgebraError::Interrupted);
    }
    let apex = face
        .members()
        .next()
        .expect("a face of positive dimension has a ray");
    let cuts: Vec<IndexSet> = incidences
        .iter()
        .map(|f| face.intersection(f))
        .filter(|g| g != face)
        .collect();
    apexes.push(apex);
    for i in maximal(&cuts) {
        if !cuts[i].contains(apex) {
            pull(&cuts[i], dim - 1, incidences, apexes, out)?;
        }
    }
    apexes.pop();
    Ok(())
}

/// The group Z^k / VZ^k of k linearly independent vectors v_j of Z^k (the columns of V), as the
/// lattice points of their half-open parallelepiped are enumerated (see [`parallelepiped_points`]):
/// the order n = |det V| and, for each Smith factor d_i > 1, the step (n/d_i)·W_i mod n.
pub(crate) struct ParallelepipedGroup {
    /// n = |det V|, the number of points.
    pub order: Integer,
    /// (d_i, step_i) for the cyclic factors Z/d_i with d_i > 1.
    pub factors: Vec<(Integer, Vec<Integer>)>,
}

impl ParallelepipedGroup {
    /// Calls `f(n·λ)` for every element of the group, 0 first, as n·λ with 0 ≤ n·λ_j < n: the
    /// odometer over the digits a_i of the Smith factors adds one fixed vector modulo n per step
    /// (d_i steps of a factor add up to 0 mod n, so a digit that wraps around needs no
    /// correction). Checks for Ctrl-C every 4096 points.
    pub(crate) fn for_each_point(
        &self,
        k: usize,
        mut f: impl FnMut(&[Integer]),
    ) -> Result<(), AlgebraError> {
        let n = &self.order;
        let mut lambda = vec![Integer::ZERO; k];
        let mut digits = vec![Integer::ZERO; self.factors.len()];
        let mut count = 0u64;
        loop {
            f(&lambda);
            count += 1;
            let mut i = self.factors.len();
            loop {
                if i == 0 {
                    return Ok(());
                }
                i -= 1;
                let (d, step) = &self.factors[i];
                for (l, s) in lambda.iter_mut().zip(step) {
                    let sum = &*l + s;
                    *l = if &sum >= n { &sum - n } else { sum };
                }
                digits[i] = &digits[i] + &Integer::ONE;
                if digits[i] < *d {
                    break;
                }
                digits[i] = Integer::ZERO;
            }
            if count.is_multiple_of(4096) && crate::interrupt::requested() {
                return Err(AlgebraError::Interrupted);
            }
        }
    }
}

/// The [`ParallelepipedGroup`] of the vectors, or `TooLarge` (naming `of`, the decomposition the
/// simplicial cone belongs to) when it has more than `max` points.
pub(crate) fn parallelepiped_group(
    vs: &[Vector],
    max: i64,
    of: &str,
) -> Result<ParallelepipedGroup, AlgebraError> {
    let k = vs.len();
    let v = Matrix::from_columns(vs).map_err(|_| AlgebraError::Empty("a simplex".into()))?;
    let sf = smith_normal_form(&v);
    let order = sf.diagonal.iter().fold(Integer::ONE, |acc, x| &acc * x);
    if order.to_i64().is_none_or(|n| n > max) {
        return Err(AlgebraError::TooLarge(format!(
            "a simplicial cone of {of} has determinant {order}"
        )));
    }
    // Callers keep every point with a few values per coordinate (λ, the point, its facet values).
    let per_point = (3 * k * std::mem::size_of::<Integer>() + 96) as u64;
    let points = order.to_i64().unwrap_or(i64::MAX) as u64;
    crate::memory::check(points.saturating_mul(per_point), || {
        format!("the {points} lattice points of a fundamental parallelepiped of {of}")
    })?;
    let factors = sf
        .diagonal
        .iter()
        .enumerate()
        .filter(|(_, d)| **d > Integer::ONE)
        .map(|(i, d)| {
            let scale = order.div_floor(d).expect("d > 0");
            let step = (0..k)
                .map(|j| (&scale * sf.v.get(j, i)).mod_floor(&order).expect("n > 0"))
                .collect();
            (d.clone(), step)
        })
        .collect();
    Ok(ParallelepipedGroup { order, factors })
}

/// Appends the nonzero lattice points of the half-open parallelepiped {Σ λ_j v_j : 0 ≤ λ_j < 1} of
/// k linearly independent vectors of Z^k to `out`, with their degrees and facet values.
///
/// With the Smith normal form U·V·W = D = diag(d_1..d_k) of V = (v_1 .. v_k) and n = d_1⋯d_k =
/// |det V|, the group Z^k / VZ^k ≅ ⊕ Z/d_i has the elements x = U⁻¹a (0 ≤ a_i < d_i), whose
/// coordinates are λ = V⁻¹x = W·D⁻¹·a. So n·λ ≡ Σ a_i (n/d_i)·W_i (mod n) with W_i the columns of W:
/// walking through the a_i odometer-style adds one of k fixed vectors modulo n per step, and each
/// point, degree and facet value is the exact quotient Σ (n·λ_j) c_j / n of a combination of the
/// simplex's values c_j = c(v_j).
fn parallelepiped_points(
    vs: &[Vector],
    facets: &[Vector],
    grading: &Vector,
    out: &mut Vec<Candidate>,
) -> Result<(), AlgebraError> {
    let k = vs.len();
    let group = parallelepiped_group(vs, MAX_PARALLELEPIPED, "the triangulation")?;
    let n = &group.order;
    // The values c(v_j) of every coordinate, the grading and every facet normal.
    let coordinates: Vec<Vec<Integer>> = (0..k)
        .map(|i| vs.iter().map(|v| v.0[i].clone()).collect())
        .collect();
    let of = |c: &Vector| -> Vec<Integer> { vs.iter().map(|v| c.dot(v)).collect() };
    let degree = of(grading);
    let values: Vec<Vec<Integer>> = facets.iter().map(of).collect();
    // Σ λ_j c_j / n, exact.
    let combination = |lambda: &[Integer], c: &[Integer]| -> Integer {
        lambda
            .iter()
            .zip(c)
            .fold(Integer::ZERO, |acc, (l, x)| &acc + &(l * x))
            .div_floor(n)
            .expect("n > 0")
    };
    group.for_each_point(k, |lambda| {
        if lambda.iter().all(Integer::is_zero) {
            return;
        }
        out.push(Candidate {
            degree: combination(lambda, &degree),
            values: values.iter().map(|c| combination(lambda, c)).collect(),
            point: coordinates.iter().map(|c| combination(lambda, c)).collect(),
        });
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(xs: &[i64]) -> Vector {
        Vector::from_i64s(xs)
    }

    #[test]
    fn a_two_dimensional_cone() {
        // cone{(1,0),(1,2)}: Hilbert basis (1,0),(1,1),(1,2).
        assert_eq!(
            hilbert_basis(2, &[v(&[1, 0]), v(&[1, 2])], None).unwrap(),
            vec![v(&[1, 0]), v(&[1, 1]), v(&[1, 2])]
        );
        // cone{(1,0),(1,3)} ∩ Z^2: (1,0),(1,1),(1,2),(1,3).
        assert_eq!(
            hilbert_basis(2, &[v(&[1, 0]), v(&[1, 3])], None)
                .unwrap()
                .len(),
            4
        );
        // A cone of determinant 5 (Normaliz: (0,1), (1,1), (2,1), (5,2)).
        let hb = hilbert_basis(2, &[v(&[0, 1]), v(&[5, 2])], None).unwrap();
        assert_eq!(hb, vec![v(&[0, 1]), v(&[1, 1]), v(&[2, 1]), v(&[5, 2])]);
    }

    #[test]
    fn in_a_sublattice_and_lower_dimension() {
        let l = Lattice::generated_by(2, &[v(&[2, 0]), v(&[0, 2])]);
        assert_eq!(
            hilbert_basis(2, &[v(&[2, 0]), v(&[0, 2])], Some(&l)).unwrap(),
            vec![v(&[0, 2]), v(&[2, 0])]
        );
        let flat = hilbert_basis(3, &[v(&[1, 0, 0]), v(&[1, 2, 0])], None).unwrap();
        assert_eq!(flat, vec![v(&[1, 0, 0]), v(&[1, 1, 0]), v(&[1, 2, 0])]);
        assert!(matches!(
            hilbert_basis(2, &[v(&[1, 0]), v(&[-1, 0])], None),
            Err(AlgebraError::NotPointed { .. })
        ));
    }

    #[test]
    fn lattices_that_do_not_contain_the_generators() {
        // N^2 ∩ 2Z^2 = 2N^2.
        let two = Lattice::generated_by(2, &[v(&[2, 0]), v(&[0, 2])]);
        assert_eq!(
            hilbert_basis(2, &[v(&[1, 0]), v(&[0, 1])], Some(&two)).unwrap(),
            vec![v(&[0, 2]), v(&[2, 0])]
        );
        // A lattice of lower rank cuts the cone: cone{(1,0),(1,2)} ∩ Z(1,1) = N(1,1).
        let diagonal = Lattice::generated_by(2, &[v(&[1, 1])]);
        assert_eq!(
            hilbert_basis(2, &[v(&[1, 0]), v(&[1, 2])], Some(&diagonal)).unwrap(),
            vec![v(&[1, 1])]
        );
        // ... and can meet it only in 0.
        let anti = Lattice::generated_by(2, &[v(&[1, -1])]);
        assert!(hilbert_basis(2, &[v(&[1, 0]), v(&[1, 2])], Some(&anti))
            .unwrap()
            .is_empty());
        // The normalization of N{(2), (3)} is N, of N{(2, 0), (0, 2), (1, 1)} in its group itself.
        let g = Lattice::generated_by(1, &[v(&[2]), v(&[3])]);
        assert_eq!(
            hilbert_basis(1, &[v(&[2]), v(&[3])], Some(&g)).unwrap(),
            vec![v(&[1])]
        );
        let gens = [v(&[2, 0]), v(&[1, 1]), v(&[0, 2])];
        let g = Lattice::generated_by(2, &gens);
        assert_eq!(
            hilbert_basis(2, &gens, Some(&g)).unwrap(),
            vec![v(&[0, 2]), v(&[1, 1]), v(&[2, 0])]
        );
        assert!(matches!(
            hilbert_basis(2, &gens, Some(&Lattice::full(3))),
            Err(AlgebraError::DimensionMismatch { .. })
        ));
        assert!(hilbert_basis(2, &[Vector::zero(2)], None)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn a_three_dimensional_cone_with_an_interior_element() {
        // Reeve-like simplex: cone{e1, e2, (1, 1, 2)} has the extra element (1, 1, 1).
        let hb = hilbert_basis(3, &[v(&[1, 0, 0]), v(&[0, 1, 0]), v(&[1, 1, 2])], None).unwrap();
        assert_eq!(
            hb,
            vec![v(&[0, 1, 0]), v(&[1, 0, 0]), v(&[1, 1, 1]), v(&[1, 1, 2])]
        );
    }

    #[test]
    fn large_entries_take_the_exact_path() {
        // Entries beyond the machine-word bounds, with determinant 1 and 2.
        let big = 1i64 << 40;
        let hb = hilbert_basis(2, &[v(&[big, 1]), v(&[big + 1, 1])], None).unwrap();
        assert_eq!(hb, vec![v(&[big, 1]), v(&[big + 1, 1])]);
        let hb = hilbert_basis(2, &[v(&[big, 1]), v(&[big + 2, 1])], None).unwrap();
        assert_eq!(hb, vec![v(&[big, 1]), v(&[big + 1, 1]), v(&[big + 2, 1])]);
    }

    /// The lattice for a property test: Z^d, the group of the generators, or a random lattice.
    fn choose_lattice(d: usize, gens: &[Vector], which: u8, extra: &[Vec<i64>]) -> Option<Lattice> {
        match which {
            0 => None,
            1 => Some(Lattice::generated_by(d, gens)),
            _ => Some(Lattice::generated_by(
                d,
                &extra.iter().map(|e| v(&e[..d])).collect::<Vec<_>>(),
            )),
        }
    }

    /// Every point of the box [0, b]^d, in lexicographic order.
    fn box_points(d: usize, b: i64) -> Vec<Vector> {
        let mut points = vec![Vec::new()];
        for _ in 0..d {
            points = points
                .into_iter()
                .flat_map(|p: Vec<i64>| {
                    (0..=b).map(move |x| {
                        let mut q = p.clone();
                        q.push(x);
                        q
                    })
                })
                .collect();
        }
        points.iter().map(|p| v(p)).collect()
    }

    /// Every point of the box [0, x] (x ≥ 0 coordinatewise).
    fn below(x: &Vector) -> Vec<Vector> {
        let top = x.0.iter().map(|c| c.to_i64().unwrap()).max().unwrap_or(0);
        box_points(x.dim(), top)
            .into_iter()
            .filter(|y| x.sub(y).is_nonnegative())
            .collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(120))]
        /// The machine-word path (reducing inside each simplex first) and the exact one (all
        /// candidates at once) find the same Hilbert basis.
        #[test]
        fn both_arithmetics_agree(
            d in 2usize..=5,
            raw in proptest::collection::vec(proptest::collection::vec(-2i64..=5, 5), 2..=8),
        ) {
            let gens: Vec<Vector> = raw.iter().map(|g| v(&g[..d])).filter(|g| !g.is_zero()).collect();
            let Ok(cone) = ConeData::from_generators(d, &gens) else { return Ok(()) };
            if !cone.is_pointed() || !cone.is_full_dimensional() {
                return Ok(());
            }
            let grading = primitive(&cone.facets().iter().fold(Vector::zero(d), |a, f| a.add(f)));
            let simplices = triangulate(&cone).unwrap();
            let mut fast = machine::hilbert_basis(cone.rays(), cone.facets(), &grading, &simplices).unwrap();
            let mut exact = reduce_candidates(&cone, &grading, &simplices).unwrap();
            fast.sort();
            exact.sort();
            proptest::prop_assert_eq!(fast, exact);
        }

        /// For nonnegative generators (so C ⊂ R^d_+ and every decomposition stays in a box): each
        /// Hilbert basis element is a nonzero irreducible point of C ∩ L, and every point of C ∩ L
        /// in a box is a sum of Hilbert basis elements.
        #[test]
        fn irreducible_and_generating(
            d in 1usize..=3,
            raw in proptest::collection::vec(proptest::collection::vec(0i64..=3, 3), 1..=4),
            which in 0u8..3,
            extra in proptest::collection::vec(proptest::collection::vec(-2i64..=2, 3), 1..=3),
        ) {
            let gens: Vec<Vector> = raw.iter().map(|g| v(&g[..d])).collect();
            let lattice = choose_lattice(d, &gens, which, &extra);
            let hb = hilbert_basis(d, &gens, lattice.as_ref()).unwrap();
            let cone = ConeData::from_generators(d, &gens).unwrap();
            let in_monoid = |x: &Vector| {
                cone.contains(x) && lattice.as_ref().is_none_or(|l| l.contains(x))
            };
            for h in &hb {
                proptest::prop_assert!(!h.is_zero() && in_monoid(h), "{} is not in C ∩ L", h);
                for y in below(h) {
                    let split = !y.is_zero() && y != *h && in_monoid(&y) && in_monoid(&h.sub(&y));
                    proptest::prop_assert!(!split, "{} = {} + {}", h, y, h.sub(&y));
                }
            }
            let b = if d == 3 { 4 } else { 7 };
            let points: Vec<Vector> = box_points(d, b).into_iter().filter(|x| in_monoid(x)).collect();
            let mut sums = std::collections::BTreeSet::from([Vector::zero(d)]);
            for x in &points {
                // Lexicographic order: x − h comes before x.
                if hb.iter().any(|h| sums.contains(&x.sub(h))) {
                    sums.insert(x.clone());
                }
            }
            for x in &points {
                proptest::prop_assert!(sums.contains(x), "{} is not a sum of {:?}", x, hb);
            }
        }
    }
}
