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

use num_rational::BigRational;

use super::lattice::{kernel_lattice, smith_normal_form, Lattice};
use super::linalg::solve;
use super::lp::positive_functional;
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
    let grading = positive_functional(k, cone.rays()).map_err(|lambda| {
        // Unreachable for a pointed cone; Σ λ_i r_i = 0 would be a line.
        AlgebraError::NotPointed {
            line: cone
                .rays()
                .iter()
                .zip(&lambda)
                .find(|(_, l)| !l.is_zero())
                .map_or_else(|| Vector::zero(k), |(r, _)| r.clone()),
        }
    })?;
    let mut candidates: Vec<Vector> = cone.rays().to_vec();
    for s in triangulate(cone)? {
        candidates.extend(parallelepiped_points(&s)?);
    }
    candidates.retain(|x| !x.is_zero());
    candidates.sort_by(|a, b| (grading.dot(a), a).cmp(&(grading.dot(b), b)));
    candidates.dedup();
    // The cone is full-dimensional here, so x − y ∈ C exactly when f·x ≥ f·y for every facet
    // normal f: compare precomputed facet values instead of forming x − y (as Normaliz does).
    let facet_values =
        |x: &Vector| -> Vec<Integer> { cone.facets().iter().map(|f| f.dot(x)).collect() };
    let mut kept: Vec<(Integer, Vec<Integer>, Vector)> = Vec::new();
    for x in candidates {
        if crate::interrupt::requested() {
            return Err(AlgebraError::Interrupted);
        }
        let dx = grading.dot(&x);
        let vx = facet_values(&x);
        let reducible = kept
            .iter()
            .any(|(dy, vy, _)| *dy < dx && vx.iter().zip(vy).all(|(a, b)| a >= b));
        if !reducible {
            kept.push((dx, vx, x));
        }
    }
    Ok(kept.into_iter().map(|(_, _, x)| x).collect())
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
fn triangulate(cone: &ConeData) -> Result<Vec<Vec<Vector>>, AlgebraError> {
    let k = cone.dim();
    let rays = cone.rays();
    if rays.len() == k {
        return Ok(vec![rays.to_vec()]);
    }
    if crate::interrupt::requested() {
        return Err(AlgebraError::Interrupted);
    }
    let apex = &rays[0];
    let mut simplices = Vec::new();
    for f in cone.facets() {
        if f.dot(apex).is_zero() {
            continue;
        }
        let face_rays: Vec<Vector> = rays
            .iter()
            .filter(|r| f.dot(r).is_zero())
            .cloned()
            .collect();
        let face = ConeData::from_generators(cone.ambient_dim(), &face_rays)?;
        for mut s in triangulate(&face)? {
            s.push(apex.clone());
            simplices.push(s);
        }
    }
    Ok(simplices)
}

/// The lattice points of the half-open parallelepiped {Σ λ_i v_i : 0 ≤ λ_i < 1} of k linearly
/// independent vectors of Z^k, through the Smith normal form U·V·W = D of V = (v_1 .. v_k).
fn parallelepiped_points(vs: &[Vector]) -> Result<Vec<Vector>, AlgebraError> {
    let k = vs.len();
    let v = Matrix::from_columns(vs).map_err(|_| AlgebraError::Empty("a simplex".into()))?;
    let sf = smith_normal_form(&v);
    let order = sf.diagonal.iter().fold(Integer::ONE, |acc, x| &acc * x);
    if order.to_i64().is_none_or(|n| n > MAX_PARALLELEPIPED) {
        return Err(AlgebraError::TooLarge(format!(
            "a simplicial cone of the triangulation has determinant {order}"
        )));
    }
    // Z^k / VZ^k ≅ ⊕ Z/d_i through U: its elements are U⁻¹·a for 0 ≤ a_i < d_i.
    let u_inv: Vec<Vector> = (0..k)
        .map(|j| {
            let e: Vec<BigRational> = (0..k)
                .map(|i| BigRational::from(num_bigint::BigInt::from(i64::from(i == j))))
                .collect();
            let col = solve(&sf.u, &e).expect("U is invertible");
            Vector(col.iter().map(|x| Integer::from(x.to_integer())).collect())
        })
        .collect();
    // λ = V⁻¹x = adj(V)·x / det(V): precompute the adjugate once (with a positive denominator).
    let det = super::linalg::determinant(&v);
    let adjugate: Vec<Vector> = (0..k)
        .map(|j| {
            let e: Vec<BigRational> = (0..k)
                .map(|i| BigRational::from(num_bigint::BigInt::from(i64::from(i == j))))
                .collect();
            let col = solve(&v, &e).expect("V is invertible");
            Vector(
                col.iter()
                    .map(|x| Integer::from((x * BigRational::from(det.to_bigint())).to_integer()))
                    .collect(),
            )
        })
        .collect();
    let adj_rows: Vec<Vector> = (0..k)
        .map(|i| Vector(adjugate.iter().map(|col| col.0[i].clone()).collect()))
        .collect();
    let (adj_rows, det) = if det.signum() < 0 {
        (
            adj_rows
                .iter()
                .map(|r| r.scale(&Integer::from(-1)))
                .collect::<Vec<_>>(),
            -det,
        )
    } else {
        (adj_rows, det)
    };
    let mut points = Vec::new();
    let mut a: Vec<Integer> = vec![Integer::ZERO; k];
    loop {
        if crate::interrupt::requested() {
            return Err(AlgebraError::Interrupted);
        }
        let x = u_inv
            .iter()
            .zip(&a)
            .fold(Vector::zero(k), |acc, (col, c)| acc.add(&col.scale(c)));
        // x − V·⌊V⁻¹x⌋: the representative of x + VZ^k in the half-open parallelepiped.
        let shift: Vec<Integer> = adj_rows
            .iter()
            .map(|r| r.dot(&x).div_floor(&det).expect("det is not zero"))
            .collect();
        points.push(x.sub(&v.apply(&Vector(shift))));
        // Next a, odometer style over 0 ≤ a_i < d_i.
        let mut i = k;
        loop {
            if i == 0 {
                return Ok(points);
            }
            i -= 1;
            let next = &a[i] + &Integer::ONE;
            if next < sf.diagonal[i] {
                a[i] = next;
                for t in a.iter_mut().skip(i + 1) {
                    *t = Integer::ZERO;
                }
                break;
            }
        }
    }
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
