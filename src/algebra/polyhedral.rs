//! Exact conversion between the two descriptions of a rational polyhedral cone, and the
//! polyhedral facts built on it: extremal rays, facets, lineality, dimension, membership, negative
//! tangent cones ([GM09] Definition 2.2), and polyhedra {x : Ax ≥ b} as vertices plus a recession
//! cone (by homogenisation), with their lattice points.
//!
//! The engine is the double description method (Motzkin et al.; Fukuda and Prodon's
//! formulation) in exact integer arithmetic: rays are primitive integer vectors, new rays are the
//! positive integer combinations (a·r⁺)r⁻ − (a·r⁻)r⁺ of adjacent pairs, and adjacency is decided
//! combinatorially (no third ray is tight on every inequality tight on both). Lineality and
//! equations are split off first by exact linear algebra, so the iteration always runs on a pointed,
//! full-dimensional cone. Generators → facets is the same computation on the dual cone.

use num_rational::BigRational;

use super::linalg::{kernel, primitive, primitive_from_rational, rank, rref, solve};
use super::{AlgebraError, Cone, Integer, Matrix, Polyhedron, Vector};

/// A cone C ⊂ R^d with both descriptions, computed exactly.
///
/// `rays` are the extremal rays of the pointed part C ∩ L^⊥ (L the lineality space), so that
/// C = R_+(rays) + L. `facets` are primitive inner normals, one per facet, each the orthogonal
/// projection onto span(C) of an inequality defining that facet (so they are canonical even when C
/// is not full-dimensional); `equations` span the orthogonal complement of span(C).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConeData {
    ambient: usize,
    rays: Vec<Vector>,
    facets: Vec<Vector>,
    lineality: Vec<Vector>,
    equations: Vec<Vector>,
}

fn check(ambient: usize, what: &str, vs: &[Vector]) -> Result<(), AlgebraError> {
    if ambient == 0 {
        return Err(AlgebraError::ZeroDimension);
    }
    AlgebraError::check_vectors(what, ambient, vs)
}

fn sorted(mut vs: Vec<Vector>) -> Vec<Vector> {
    vs.sort();
    vs.dedup();
    vs
}

/// Projects `a` orthogonally onto the row space of `basis` (rows spanning a subspace S), returning
/// the primitive integer vector on that projection (0 if `a` ⊥ S).
fn project(a: &Vector, basis: &[Vector]) -> Vector {
    if basis.is_empty() {
        return Vector::zero(a.dim());
    }
    // Solve (B Bᵀ) c = B a, then p = Bᵀ c.
    let q = |x: &Integer| BigRational::from(x.to_bigint());
    let gram = Matrix::from_rows(
        basis
            .iter()
            .map(|b| basis.iter().map(|c| b.dot(c)).collect())
            .collect(),
    )
    .expect("a nonempty basis");
    let rhs: Vec<BigRational> = basis.iter().map(|b| q(&b.dot(a))).collect();
    let coeffs = solve(&gram, &rhs).expect("a basis has an invertible Gram matrix");
    let p: Vec<BigRational> = (0..a.dim())
        .map(|j| coeffs.iter().zip(basis).map(|(c, b)| c * q(&b.0[j])).sum())
        .collect();
    primitive_from_rational(&p)
}

/// A basis of the row space of `rows` (as primitive integer vectors).
fn row_space(rows: &[Vector], d: usize) -> Vec<Vector> {
    rref(rows, d)
        .0
        .iter()
        .map(|r| primitive_from_rational(r))
        .collect()
}

impl ConeData {
    /// {x ∈ R^d : r·x ≥ 0 for every row r}.
    pub fn from_inequalities(ambient: usize, rows: &[Vector]) -> Result<ConeData, AlgebraError> {
        check(ambient, "an inequality of a cone", rows)?;
        let d = ambient;
        let rows: Vec<Vector> = rows.iter().filter(|r| !r.is_zero()).cloned().collect();
        // L = {x : Ax = 0}; the pointed part lives in L^⊥.
        let lineality = kernel(&rows, d);
        // Coordinates on L^⊥: x = B y with B's columns a basis of the row space of A.
        let basis = row_space(&rows, d);
        let k = basis.len();
        let reduced: Vec<Vector> = rows
            .iter()
            .map(|r| Vector(basis.iter().map(|b| r.dot(b)).collect()))
            .collect();
        let rays_y = if k == 0 {
            Vec::new()
        } else {
            pointed_rays(k, &reduced)?
        };
        let rays: Vec<Vector> = rays_y
            .iter()
            .map(|y| {
                primitive(
                    &basis
                        .iter()
                        .zip(&y.0)
                        .fold(Vector::zero(d), |acc, (b, c)| acc.add(&b.scale(c))),
                )
            })
            .collect();
        Ok(Self::assemble(d, rays, lineality, &rows))
    }

    /// R_+{generators}; generators may be dependent, repeated, zero, or absent (C = {0}).
    pub fn from_generators(
        ambient: usize,
        generators: &[Vector],
    ) -> Result<ConeData, AlgebraError> {
        check(ambient, "a generator of a cone", generators)?;
        // The facets of C are the rays of the dual cone {f : f·g ≥ 0 for all g}, taken in span(C)
        // (the dual's lineality is span(C)^⊥, its pointed part lies in span(C)).
        let dual = ConeData::from_inequalities(ambient, generators)?;
        if dual.equations.is_empty() {
            // C is pointed (its dual is full-dimensional): its extremal rays are the generators
            // on which the facets that vanish span a space of dimension dim(C) − 1.
            let facets = dual.rays.clone();
            let equations = dual.lineality.clone();
            let dim = ambient - equations.len();
            let rays: Vec<Vector> = generators
                .iter()
                .filter(|g| !g.is_zero())
                .filter(|g| {
                    let tight: Vec<Vector> = facets
                        .iter()
                        .filter(|f| f.dot(g).is_zero())
                        .cloned()
                        .collect();
                    rank(&tight, ambient) + 1 == dim
                })
                .map(primitive)
                .collect();
            return Ok(ConeData {
                ambient,
                rays: sorted(rays),
                facets: sorted(facets),
                lineality: Vec::new(),
                equations: sorted(equations),
            });
        }
        let mut inequalities: Vec<Vector> = dual.rays.clone();
        for e in &dual.lineality {
            inequalities.push(e.clone());
            inequalities.push(e.scale(&Integer::from(-1)));
        }
        ConeData::from_inequalities(ambient, &inequalities)
    }

    /// The cone of a declared [`Cone`].
    pub fn of(cone: &Cone) -> Result<ConeData, AlgebraError> {
        match cone {
            Cone::Orthant(d) => ConeData::from_inequalities(
                *d,
                &(0..*d).map(|i| Vector::unit(*d, i)).collect::<Vec<_>>(),
            ),
            Cone::Generated { dim, generators } => ConeData::from_generators(*dim, generators),
            Cone::Halfspaces(a) => ConeData::from_inequalities(a.ncols(), &a.rows()),
        }
    }

    /// Completes the description from the rays and lineality of C and the inequalities defining it.
    fn assemble(d: usize, rays: Vec<Vector>, lineality: Vec<Vector>, rows: &[Vector]) -> ConeData {
        let rays = sorted(rays);
        let mut spanning: Vec<Vector> = rays.clone();
        spanning.extend(lineality.iter().cloned());
        let span = row_space(&spanning, d);
        let equations = kernel(&span, d);
        let dim = span.len();
        let pointed_dim = dim - lineality.len();
        // Facets: inequalities tight on exactly a (dim − 1)-dimensional face; one per tight set.
        let mut facets = Vec::new();
        let mut seen: Vec<Vec<bool>> = Vec::new();
        for r in rows {
            let tight: Vec<bool> = rays.iter().map(|x| r.dot(x).is_zero()).collect();
            if tight.iter().all(|t| *t) {
                continue; // an implicit equation, not a facet
            }
            let tight_rays: Vec<Vector> = rays
                .iter()
                .zip(&tight)
                .filter(|(_, t)| **t)
                .map(|(x, _)| x.clone())
                .collect();
            if pointed_dim == 0 || rank(&tight_rays, d) + 1 != pointed_dim || seen.contains(&tight)
            {
                continue;
            }
            seen.push(tight);
            facets.push(project(r, &span));
        }
        ConeData {
            ambient: d,
            rays,
            facets: sorted(facets),
            lineality: sorted(lineality),
            equations: sorted(equations),
        }
    }

    /// The ambient dimension d.
    pub fn ambient_dim(&self) -> usize {
        self.ambient
    }

    /// The dimension of the linear span of C.
    pub fn dim(&self) -> usize {
        self.ambient - self.equations.len()
    }

    /// The primitive extremal rays of the pointed part C ∩ L^⊥, sorted.
    pub fn rays(&self) -> &[Vector] {
        &self.rays
    }

    /// The primitive inner facet normals (in span(C)), sorted.
    pub fn facets(&self) -> &[Vector] {
        &self.facets
    }

    /// A basis of the lineality space C ∩ −C.
    pub fn lineality(&self) -> &[Vector] {
        &self.lineality
    }

    /// A basis of span(C)^⊥.
    pub fn equations(&self) -> &[Vector] {
        &self.equations
    }

    /// Whether C contains no line.
    pub fn is_pointed(&self) -> bool {
        self.lineality.is_empty()
    }

    /// Whether C spans R^d.
    pub fn is_full_dimensional(&self) -> bool {
        self.equations.is_empty()
    }

    /// Whether `p` lies in C.
    pub fn contains(&self, p: &Vector) -> bool {
        p.dim() == self.ambient
            && self.equations.iter().all(|e| e.dot(p).is_zero())
            && self.facets.iter().all(|f| f.dot(p).signum() >= 0)
    }

    /// An integer point in the relative interior of C.
    pub fn relative_interior_point(&self) -> Vector {
        self.rays
            .iter()
            .fold(Vector::zero(self.ambient), |acc, r| acc.add(r))
    }

    /// The faces of C, by dimension: `faces()[k]` lists the k-dimensional faces, each given by the
    /// extremal rays it contains (sorted). The faces are the intersections of facets, found from
    /// the ray–facet incidences; the smallest face is the lineality space (no rays).
    pub fn faces(&self) -> Vec<Vec<Vec<Vector>>> {
        let all: Vec<usize> = (0..self.rays.len()).collect();
        let tight: Vec<Vec<usize>> = self
            .facets
            .iter()
            .map(|f| {
                (0..self.rays.len())
                    .filter(|&i| f.dot(&self.rays[i]).is_zero())
                    .collect()
            })
            .collect();
        let mut seen: std::collections::BTreeSet<Vec<usize>> = std::collections::BTreeSet::new();
        let mut queue = vec![all];
        while let Some(face) = queue.pop() {
            if !seen.insert(face.clone()) {
                continue;
            }
            for t in &tight {
                let smaller: Vec<usize> = face.iter().copied().filter(|i| t.contains(i)).collect();
                if smaller.len() < face.len() && !seen.contains(&smaller) {
                    queue.push(smaller);
                }
            }
        }
        let mut by_dim: Vec<Vec<Vec<Vector>>> = vec![Vec::new(); self.dim() + 1];
        for face in seen {
            let mut span: Vec<Vector> = face.iter().map(|&i| self.rays[i].clone()).collect();
            let rays = span.clone();
            span.extend(self.lineality.iter().cloned());
            by_dim[rank(&span, self.ambient)].push(rays);
        }
        for faces in by_dim.iter_mut() {
            faces.sort();
        }
        by_dim
    }

    /// The facet normals f with f·ρ = 0.
    pub fn facets_containing(&self, ray: &Vector) -> Vec<Vector> {
        self.facets
            .iter()
            .filter(|f| f.dot(ray).is_zero())
            .cloned()
            .collect()
    }

    /// −T_ρC = {x : f·x ≤ 0 for every facet normal f with f·ρ = 0, e·x = 0 for the equations}
    /// ([GM09] Definition 2.2), for an extremal ray ρ of C.
    pub fn negative_tangent_cone(&self, ray: &Vector) -> ConeData {
        let mut rows: Vec<Vector> = self
            .facets_containing(ray)
            .iter()
            .map(|f| f.scale(&Integer::from(-1)))
            .collect();
        for e in &self.equations {
            rows.push(e.clone());
            rows.push(e.scale(&Integer::from(-1)));
        }
        ConeData::from_inequalities(self.ambient, &rows)
            .expect("the tangent cone lives in the same R^d")
    }
}

/// The extremal rays of the pointed cone {y ∈ R^k : a·y ≥ 0}, where the rows `a` span R^k
/// (so the cone is pointed), by the double description method.
fn pointed_rays(k: usize, rows: &[Vector]) -> Result<Vec<Vector>, AlgebraError> {
    // Start from k independent rows: their cone is simplicial, with rays the columns of the
    // inverse (made integral and primitive).
    let start = independent_rows(rows, k);
    let mut rays: Vec<Vector> = Vec::with_capacity(k);
    for i in 0..k {
        // The ray tight on every starting row but row i, on its positive side.
        let others: Vec<Vector> = start
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, &r)| rows[r].clone())
            .collect();
        let mut r = kernel(&others, k)
            .pop()
            .expect("k − 1 independent rows leave a line");
        if rows[start[i]].dot(&r).signum() < 0 {
            r = r.scale(&Integer::from(-1));
        }
        rays.push(r);
    }
    // Tight sets over the inequalities processed so far.
    let mut processed: Vec<usize> = start.clone();
    for (idx, a) in rows.iter().enumerate() {
        if start.contains(&idx) {
            continue;
        }
        if crate::interrupt::requested() {
            return Err(AlgebraError::Interrupted);
        }
        let values: Vec<Integer> = rays.iter().map(|r| a.dot(r)).collect();
        let (pos, neg): (Vec<usize>, Vec<usize>) = {
            let pos = (0..rays.len())
                .filter(|&i| values[i].signum() > 0)
                .collect();
            let neg = (0..rays.len())
                .filter(|&i| values[i].signum() < 0)
                .collect();
            (pos, neg)
        };
        if neg.is_empty() {
            processed.push(idx);
            continue;
        }
        let zero_sets: Vec<Vec<usize>> = rays
            .iter()
            .map(|r| {
                processed
                    .iter()
                    .copied()
                    .filter(|&j| rows[j].dot(r).is_zero())
                    .collect()
            })
            .collect();
        let mut new_rays = Vec::new();
        for &p in &pos {
            for &n in &neg {
                let common: Vec<usize> = zero_sets[p]
                    .iter()
                    .copied()
                    .filter(|j| zero_sets[n].contains(j))
                    .collect();
                if common.len() + 2 < k {
                    continue;
                }
                let adjacent = (0..rays.len())
                    .filter(|&t| t != p && t != n)
                    .all(|t| !common.iter().all(|j| zero_sets[t].contains(j)));
                if adjacent {
                    let r = rays[n].scale(&values[p]).sub(&rays[p].scale(&values[n]));
                    new_rays.push(primitive(&r));
                }
            }
        }
        let mut kept: Vec<Vector> = (0..rays.len())
            .filter(|i| values[*i].signum() >= 0)
            .map(|i| rays[i].clone())
            .collect();
        kept.extend(new_rays);
        rays = sorted(kept);
        processed.push(idx);
    }
    Ok(rays)
}

/// Indices of k linearly independent rows (they exist: the rows span R^k).
fn independent_rows(rows: &[Vector], k: usize) -> Vec<usize> {
    let mut chosen: Vec<usize> = Vec::with_capacity(k);
    let mut current: Vec<Vector> = Vec::with_capacity(k);
    for (i, r) in rows.iter().enumerate() {
        current.push(r.clone());
        if rank(&current, k) == current.len() {
            chosen.push(i);
            if chosen.len() == k {
                break;
            }
        } else {
            current.pop();
        }
    }
    chosen
}

/// A polyhedron as vertices (of its minimal faces) plus its recession cone, computed from the
/// homogenisation {(x, t) : Ax − bt ≥ 0, t ≥ 0}.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolyhedronData {
    vertices: Vec<Vec<BigRational>>,
    recession: ConeData,
    dim: Option<usize>,
}

/// The rows (a, −b·denominators) of the homogenised inequalities of Π, and t ≥ 0.
fn homogenised_rows(p: &Polyhedron) -> (usize, Vec<Vector>) {
    match p {
        Polyhedron::Cone(c) => {
            let d = c.dim();
            let data_rows: Vec<Vector> = match c {
                Cone::Orthant(d) => (0..*d).map(|i| Vector::unit(*d, i)).collect(),
                Cone::Halfspaces(a) => a.rows(),
                Cone::Generated { .. } => {
                    let data = ConeData::of(c).expect("a declared cone has consistent dimensions");
                    let mut rows = data.facets.clone();
                    for e in &data.equations {
                        rows.push(e.clone());
                        rows.push(e.scale(&Integer::from(-1)));
                    }
                    rows
                }
            };
            let mut rows: Vec<Vector> = data_rows
                .iter()
                .map(|r| Vector(r.0.iter().cloned().chain([Integer::ZERO]).collect()))
                .collect();
            rows.push(Vector::unit(d + 1, d));
            (d, rows)
        }
        Polyhedron::Inequalities { a, b } => {
            let d = a.ncols();
            let mut rows = Vec::with_capacity(a.nrows() + 1);
            for (i, rhs) in b.iter().enumerate() {
                let den = Integer::from(rhs.denom().clone());
                let num = Integer::from(rhs.numer().clone());
                let mut r: Vec<Integer> = a.row(i).0.iter().map(|x| x * &den).collect();
                r.push(-num);
                rows.push(Vector(r));
            }
            rows.push(Vector::unit(d + 1, d));
            (d, rows)
        }
    }
}

/// Vertices and recession cone of a polyhedron.
pub fn polyhedron_data(p: &Polyhedron) -> Result<PolyhedronData, AlgebraError> {
    let (d, rows) = homogenised_rows(p);
    let hom = ConeData::from_inequalities(d + 1, &rows)?;
    let mut vertices = Vec::new();
    let mut recession_rays = Vec::new();
    for r in hom.rays() {
        let t = &r.0[d];
        if t.is_zero() {
            recession_rays.push(Vector(r.0[..d].to_vec()));
        } else {
            let t = BigRational::from(t.to_bigint());
            vertices.push(
                r.0[..d]
                    .iter()
                    .map(|x| BigRational::from(x.to_bigint()) / &t)
                    .collect::<Vec<_>>(),
            );
        }
    }
    vertices.sort();
    let empty = vertices.is_empty();
    // The recession cone is {x : Ax ≥ 0}: the t = 0 slice of the homogenisation.
    let rec_rows: Vec<Vector> = rows[..rows.len() - 1]
        .iter()
        .map(|r| Vector(r.0[..d].to_vec()))
        .collect();
    let recession = ConeData::from_inequalities(d, &rec_rows)?;
    debug_assert_eq!(
        sorted(recession_rays.iter().map(primitive).collect()),
        recession.rays().to_vec()
    );
    let dim = if empty { None } else { Some(hom.dim() - 1) };
    Ok(PolyhedronData {
        vertices,
        recession,
        dim,
    })
}

impl PolyhedronData {
    /// The vertices (of the minimal faces, when Π has lineality), sorted.
    pub fn vertices(&self) -> &[Vec<BigRational>] {
        &self.vertices
    }

    /// The recession cone {x : Ax ≥ 0}.
    pub fn recession_cone(&self) -> &ConeData {
        &self.recession
    }

    /// Whether Π contains no line.
    pub fn is_pointed(&self) -> bool {
        self.recession.is_pointed()
    }

    /// Whether Π has no point.
    pub fn is_empty(&self) -> bool {
        self.dim.is_none()
    }

    /// Whether Π is bounded (a polytope, or empty).
    pub fn is_bounded(&self) -> bool {
        self.recession.rays().is_empty() && self.recession.lineality().is_empty()
    }

    /// The dimension of Π (of its affine hull); 0 for a point. Call only when not empty.
    pub fn dim(&self) -> usize {
        self.dim.unwrap_or(0)
    }
}

/// The most lattice points an enumeration will visit before giving up with an error.
const MAX_BOX: u64 = 20_000_000;

fn in_polyhedron(rows: &[Vector], x: &[Integer]) -> bool {
    let mut y = x.to_vec();
    y.push(Integer::ONE);
    let y = Vector(y);
    rows.iter().all(|r| r.dot(&y).signum() >= 0)
}

fn enumerate_box(
    p: &Polyhedron,
    lo: Vec<Integer>,
    hi: Vec<Integer>,
) -> Result<Vec<Vector>, AlgebraError> {
    let (d, rows) = homogenised_rows(p);
    let mut count: u64 = 1;
    for (l, h) in lo.iter().zip(&hi) {
        if h < l {
            return Ok(Vec::new());
        }
        let width = (h - l)
            .to_i64()
            .and_then(|w| u64::try_from(w + 1).ok())
            .unwrap_or(u64::MAX);
        count = count.saturating_mul(width);
    }
    if count > MAX_BOX {
        return Err(AlgebraError::TooLarge(format!(
            "enumerating lattice points would visit {count} points"
        )));
    }
    let mut out = Vec::new();
    let mut x = lo.clone();
    loop {
        if crate::interrupt::requested() {
            return Err(AlgebraError::Interrupted);
        }
        if in_polyhedron(&rows, &x) {
            out.push(Vector(x.clone()));
        }
        // Next point of the box, odometer style.
        let mut i = d;
        loop {
            if i == 0 {
                return Ok(out);
            }
            i -= 1;
            if x[i] < hi[i] {
                x[i] = &x[i] + &Integer::ONE;
                x[(i + 1)..d].clone_from_slice(&lo[(i + 1)..d]);
                break;
            }
        }
    }
}

fn floor(q: &BigRational) -> Integer {
    Integer::from(q.floor().to_integer())
}

fn ceil(q: &BigRational) -> Integer {
    Integer::from(q.ceil().to_integer())
}

/// The lattice points of a bounded polyhedron, sorted. An unbounded one is an error naming a
/// recession ray; an empty one has none.
pub fn lattice_points(p: &Polyhedron) -> Result<Vec<Vector>, AlgebraError> {
    let data = polyhedron_data(p)?;
    if data.is_empty() {
        return Ok(Vec::new());
    }
    if !data.is_bounded() {
        let ray = data
            .recession
            .rays()
            .first()
            .or(data.recession.lineality().first())
            .cloned()
            .expect("unbounded");
        return Err(AlgebraError::Unbounded { ray });
    }
    let d = p.dim();
    let lo = (0..d)
        .map(|i| {
            data.vertices
                .iter()
                .map(|v| ceil(&v[i]))
                .min()
                .expect("a vertex")
        })
        .collect();
    let hi = (0..d)
        .map(|i| {
            data.vertices
                .iter()
                .map(|v| floor(&v[i]))
                .max()
                .expect("a vertex")
        })
        .collect();
    enumerate_box(p, lo, hi)
}

/// The lattice points of any polyhedron in the box |x_i| ≤ bound, sorted.
pub fn lattice_points_within(p: &Polyhedron, bound: &Integer) -> Result<Vec<Vector>, AlgebraError> {
    let d = p.dim();
    let data = polyhedron_data(p)?;
    if data.is_empty() {
        return Ok(Vec::new());
    }
    let mut lo: Vec<Integer> = vec![-bound; d];
    let mut hi: Vec<Integer> = vec![bound.clone(); d];
    if data.is_bounded() {
        for i in 0..d {
            let vmin = data
                .vertices
                .iter()
                .map(|v| ceil(&v[i]))
                .min()
                .expect("a vertex");
            let vmax = data
                .vertices
                .iter()
                .map(|v| floor(&v[i]))
                .max()
                .expect("a vertex");
            lo[i] = lo[i].clone().max(vmin);
            hi[i] = hi[i].clone().min(vmax);
        }
    }
    enumerate_box(p, lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;
    use num_traits::Zero;
    use proptest::prelude::*;

    fn v(xs: &[i64]) -> Vector {
        Vector::from_i64s(xs)
    }

    #[test]
    fn the_orthant() {
        let c = ConeData::of(&Cone::Orthant(3)).unwrap();
        assert_eq!(c.rays(), &[v(&[0, 0, 1]), v(&[0, 1, 0]), v(&[1, 0, 0])]);
        assert_eq!(c.facets(), c.rays());
        assert!(c.is_pointed() && c.is_full_dimensional() && c.dim() == 3);
    }

    #[test]
    fn faces_of_a_square_cone() {
        // The cone over a square: 4 rays, 4 two-dimensional faces, the apex.
        let c = ConeData::from_generators(
            3,
            &[v(&[1, 0, 1]), v(&[0, 1, 1]), v(&[-1, 0, 1]), v(&[0, -1, 1])],
        )
        .unwrap();
        let f = c.faces();
        assert_eq!(f.iter().map(Vec::len).collect::<Vec<_>>(), vec![1, 4, 4, 1]);
        assert_eq!(f[0], vec![Vec::<Vector>::new()]);
        assert_eq!(f[3][0].len(), 4);
    }

    #[test]
    fn a_generated_cone() {
        let c = ConeData::from_generators(2, &[v(&[1, 0]), v(&[1, 2]), v(&[2, 1])]).unwrap();
        assert_eq!(c.rays(), &[v(&[1, 0]), v(&[1, 2])]);
        assert_eq!(c.facets(), &[v(&[0, 1]), v(&[2, -1])]);
        assert!(c.contains(&v(&[3, 1])) && !c.contains(&v(&[0, 1])));
    }

    #[test]
    fn lineality_and_lower_dimension() {
        let half = ConeData::from_inequalities(2, &[v(&[1, 0])]).unwrap();
        assert_eq!(half.lineality(), &[v(&[0, 1])]);
        assert_eq!(half.rays(), &[v(&[1, 0])]);
        assert_eq!(half.facets(), &[v(&[1, 0])]);
        assert!(!half.is_pointed());
        let flat = ConeData::from_generators(3, &[v(&[1, 1, 0]), v(&[1, 0, 0])]).unwrap();
        assert_eq!(flat.dim(), 2);
        assert_eq!(flat.equations(), &[v(&[0, 0, 1])]);
        assert_eq!(flat.rays(), &[v(&[1, 0, 0]), v(&[1, 1, 0])]);
        assert_eq!(flat.facets(), &[v(&[0, 1, 0]), v(&[1, -1, 0])]);
        let zero = ConeData::from_generators(2, &[]).unwrap();
        assert_eq!(zero.dim(), 0);
        assert!(zero.contains(&v(&[0, 0])) && !zero.contains(&v(&[1, 0])));
    }

    #[test]
    fn example_3_1_tangent_cone_along_the_third_axis() {
        let c = ConeData::of(&Cone::Orthant(3)).unwrap();
        let t = c.negative_tangent_cone(&v(&[0, 0, 1]));
        assert!(t.contains(&v(&[-1, -1, 5])) && t.contains(&v(&[0, 0, -1])));
        assert!(!t.contains(&v(&[1, -1, 1])) && !t.contains(&v(&[-1, 1, 1])));
        assert_eq!(t.lineality(), &[v(&[0, 0, 1])]);
    }

    #[test]
    fn polytopes_and_their_lattice_points() {
        let a = crate::algebra::Matrix::from_rows(vec![
            vec![1.into(), 0.into()],
            vec![0.into(), 1.into()],
            vec![(-1).into(), (-1).into()],
        ])
        .unwrap();
        let q = |n: i64| BigRational::from(BigInt::from(n));
        let triangle = Polyhedron::from_inequalities(a, vec![q(0), q(0), q(-2)]).unwrap();
        let data = polyhedron_data(&triangle).unwrap();
        assert_eq!(data.vertices().len(), 3);
        assert!(data.is_bounded() && data.dim() == 2);
        let pts = lattice_points(&triangle).unwrap();
        assert_eq!(pts.len(), 6);
        let orthant = Polyhedron::Cone(Cone::Orthant(2));
        assert!(matches!(
            lattice_points(&orthant),
            Err(AlgebraError::Unbounded { .. })
        ));
        assert_eq!(
            lattice_points_within(&orthant, &Integer::from(2))
                .unwrap()
                .len(),
            9
        );
    }

    fn brute_in_cone(gens: &[Vector], p: &Vector) -> bool {
        // p ∈ R_+G iff the LP {λ ≥ 0 : Gλ = p} is feasible.
        let d = p.dim();
        let a: Vec<Vec<BigRational>> = (0..d)
            .map(|j| {
                gens.iter()
                    .map(|g| BigRational::from(g.0[j].to_bigint()))
                    .collect()
            })
            .collect();
        let b: Vec<BigRational> =
            p.0.iter()
                .map(|x| BigRational::from(x.to_bigint()))
                .collect();
        let c = vec![BigRational::zero(); gens.len()];
        !matches!(
            crate::algebra::lp::minimize(&a, &b, &c),
            crate::algebra::lp::LpOutcome::Infeasible
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        #[test]
        fn generators_facets_generators(d in 2usize..5, gens in proptest::collection::vec(proptest::collection::vec(-3i64..=3, 4), 1..7)) {
            let gens: Vec<Vector> = gens.iter().map(|g| v(&g[..d])).collect();
            let c = ConeData::from_generators(d, &gens).unwrap();
            for g in &gens {
                prop_assert!(c.contains(g), "{} not in its own cone", g);
            }
            let mut rows: Vec<Vector> = c.facets().to_vec();
            for e in c.equations() {
                rows.push(e.clone());
                rows.push(e.scale(&Integer::from(-1)));
            }
            let back = ConeData::from_inequalities(d, &rows).unwrap();
            prop_assert_eq!(&back, &c);
            // Each ray is tight on at least (pointed dimension − 1) facets.
            let pd = c.dim() - c.lineality().len();
            for r in c.rays() {
                let tight = c.facets().iter().filter(|f| f.dot(r).is_zero()).count();
                prop_assert!(tight + 1 >= pd);
            }
            // Membership agrees with an LP over the generators, on a small box.
            for x in -2i64..=2 {
                for y in -2i64..=2 {
                    let mut p = vec![x, y];
                    p.resize(d, 1);
                    let p = v(&p);
                    prop_assert_eq!(c.contains(&p), brute_in_cone(&gens, &p), "point {}", p);
                }
            }
        }
    }
}
