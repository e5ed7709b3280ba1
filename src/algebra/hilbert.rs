//! Hilbert bases: the unique minimal generating set of the monoid C ∩ L, for a pointed rational cone
//! C and a lattice L (Miller–Sturmfels, Combinatorial Commutative Algebra, Ch. 7; the papers'
//! affine semigroups are such monoids when normal).
//!
//! The algorithm is the primal one of Normaliz, in exact arithmetic:
//! 1. change coordinates so that L ∩ span(C) becomes Z^k and C is full-dimensional in R^k;
//! 2. triangulate C (a pulling triangulation: cone a first ray over a triangulation of each facet
//!    that does not contain it, recursively);
//! 3. for each simplicial cone σ = R_+{v_1..v_k}, list the lattice points of its half-open
//!    fundamental parallelepiped {Σ λ_i v_i : 0 ≤ λ_i < 1} through the Smith normal form of the
//!    matrix V (its group Z^k / VZ^k has |det V| elements, each reduced into the parallelepiped);
//! 4. every Hilbert basis element is a ray or lies in some such parallelepiped (write it in a
//!    simplicial cone containing it; if some λ_i ≥ 1 it is v_i plus a lattice point of C), so the
//!    candidates suffice, and the irreducible ones are kept: x is reducible exactly when x − y ∈ C for
//!    an irreducible y of smaller degree under a positive grading.

use num_rational::BigRational;

use super::lattice::{smith_normal_form, Lattice};
use super::linalg::solve;
use super::lp::positive_functional;
use super::polyhedral::ConeData;
use super::{AlgebraError, Integer, Matrix, Vector};

/// The Hilbert basis of the pointed cone R_+G intersected with the lattice L (Z^d when `None`),
/// sorted. The generators must lie in the span of L ⊗ Q when a lattice is given.
pub fn hilbert_basis(
    ambient: usize,
    generators: &[Vector],
    lattice: Option<&Lattice>,
) -> Result<Vec<Vector>, AlgebraError> {
    AlgebraError::check_vectors("a generator of a cone", ambient, generators)?;
    let gens: Vec<Vector> = generators
        .iter()
        .filter(|g| !g.is_zero())
        .cloned()
        .collect();
    if gens.is_empty() {
        return Ok(Vec::new());
    }
    let cone = ConeData::from_generators(ambient, &gens)?;
    if let Some(l) = cone.lineality().first() {
        return Err(AlgebraError::NotPointed { line: l.clone() });
    }
    // Coordinates: a basis B of L ∩ span(C) (L = Z^d by default).
    let span_lattice = Lattice::generated_by(ambient, &gens).saturation();
    let basis: Vec<Vector> = match lattice {
        None => span_lattice.basis().to_vec(),
        Some(l) => intersect_with_span(l, &span_lattice)?,
    };
    let k = basis.len();
    // Rays of C in local coordinates are rational multiples of lattice points: take the primitive
    // lattice point on each ray.
    let local_rays: Vec<Vector> = cone
        .rays()
        .iter()
        .map(|r| local_ray(r, &basis))
        .collect::<Result<_, _>>()?;
    let local_cone = ConeData::from_generators(k, &local_rays)?;
    let simplices = triangulate(&local_cone)?;
    let grading =
        positive_functional(k, local_cone.rays()).map_err(|_| AlgebraError::NotPointed {
            line: Vector::zero(ambient),
        })?;
    let mut candidates: Vec<Vector> = local_cone.rays().to_vec();
    for s in &simplices {
        candidates.extend(parallelepiped_points(s)?);
    }
    candidates.sort_by(|a, b| (grading.dot(a), a).cmp(&(grading.dot(b), b)));
    candidates.dedup();
    let mut basis_local: Vec<Vector> = Vec::new();
    for x in candidates {
        if crate::interrupt::requested() {
            return Err(AlgebraError::Interrupted);
        }
        if x.is_zero() {
            continue;
        }
        let dx = grading.dot(&x);
        let reducible = basis_local
            .iter()
            .any(|y| grading.dot(y) < dx && local_cone.contains(&x.sub(y)));
        if !reducible {
            basis_local.push(x);
        }
    }
    let mut out: Vec<Vector> = basis_local
        .iter()
        .map(|y| {
            basis
                .iter()
                .zip(&y.0)
                .fold(Vector::zero(ambient), |acc, (b, c)| acc.add(&b.scale(c)))
        })
        .collect();
    out.sort();
    Ok(out)
}

/// A basis of L ∩ S for a lattice L and a saturated lattice S (the integer points of a subspace).
fn intersect_with_span(l: &Lattice, s: &Lattice) -> Result<Vec<Vector>, AlgebraError> {
    // L ∩ span(S) = the integer vectors of L orthogonal to span(S)^⊥: solve in L's coordinates.
    let d = l.ambient_dim();
    let normals = super::lattice::kernel_lattice(s.basis(), d);
    if normals.is_empty() {
        return Ok(l.basis().to_vec());
    }
    // x = Σ c_i b_i with n·x = 0 for every normal n: c in the integer kernel of (n·b_i).
    let rows: Vec<Vector> = normals
        .iter()
        .map(|n| Vector(l.basis().iter().map(|b| n.dot(b)).collect()))
        .collect();
    let kernel = super::lattice::kernel_lattice(&rows, l.rank());
    let vs: Vec<Vector> = kernel
        .iter()
        .map(|c| {
            l.basis()
                .iter()
                .zip(&c.0)
                .fold(Vector::zero(d), |acc, (b, k)| acc.add(&b.scale(k)))
        })
        .collect();
    Ok(Lattice::generated_by(d, &vs).basis().to_vec())
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
    if order.to_i64().is_none_or(|n| n > 5_000_000) {
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
        points.push(reduce_into_parallelepiped(&v, &x));
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

/// x − V·⌊V⁻¹x⌋: the representative of x + VZ^k in the half-open parallelepiped.
fn reduce_into_parallelepiped(v: &Matrix, x: &Vector) -> Vector {
    let rhs: Vec<BigRational> =
        x.0.iter()
            .map(|c| BigRational::from(c.to_bigint()))
            .collect();
    let lambda = solve(v, &rhs).expect("V is invertible");
    let shift: Vec<Integer> = lambda
        .iter()
        .map(|l| Integer::from(l.floor().to_integer()))
        .collect();
    x.sub(&v.apply(&Vector(shift)))
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
}
