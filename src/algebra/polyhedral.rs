//! Exact conversion between the two descriptions of a rational polyhedral cone, and the
//! polyhedral facts built on it: extremal rays, facets, lineality, dimension, membership, negative
//! tangent cones (\[GM09\] Definition 2.2), and polyhedra {x : Ax ≥ b} as vertices plus a recession
//! cone (by homogenisation), with their lattice points.
//!
//! The engine is the double description method (Motzkin et al.; Fukuda and Prodon's
//! formulation) in exact integer arithmetic: rays are primitive integer vectors, new rays are the
//! positive integer combinations (a·r⁺)r⁻ − (a·r⁻)r⁺ of adjacent pairs, and adjacency is decided
//! combinatorially on bitsets of tight inequalities (the pair shares at least k − 2 of them in
//! R^k, and no third ray is tight on all of those). The lineality space {x : Ax = 0} is split off
//! first by exact linear algebra, so the iteration always runs on a pointed cone (in coordinates on
//! the row space of A). Facets are then the inequalities cutting out faces maximal by inclusion,
//! and the equations are spanned by the implicit ones. Generators → facets is the same computation
//! on the dual cone {f : f·g ≥ 0}; when the cone is pointed its extremal rays are then read off the
//! generators' incidences with the facets, otherwise a second double description gives them.
//! [`crate::interrupt::requested`] is polled once per inequality (and per point when enumerating
//! lattice points), giving [`AlgebraError::Interrupted`].

use num_rational::BigRational;

use super::index_set::{maximal, IndexSet};
use super::linalg::{
    inverse_columns, kernel, primitive, primitive_from_rational, rank, rref, solve,
};
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

/// Projects `a` orthogonally onto the orthogonal complement of the row space of `complement`
/// (rows spanning a subspace E), returning the primitive integer vector on that projection
/// (0 if `a` ∈ E). With E = span(C)^⊥ this is the canonical representative, in span(C), of a linear
/// form on span(C).
fn project_off(a: &Vector, complement: &[Vector]) -> Vector {
    if complement.is_empty() {
        return primitive(a);
    }
    // Solve (E Eᵀ) c = E a; the projection is a − Eᵀ c.
    let q = |x: &Integer| BigRational::from(x.to_bigint());
    let gram = Matrix::from_rows(
        complement
            .iter()
            .map(|b| complement.iter().map(|c| b.dot(c)).collect())
            .collect(),
    )
    .expect("a nonempty basis");
    let rhs: Vec<BigRational> = complement.iter().map(|b| q(&b.dot(a))).collect();
    let coeffs = solve(&gram, &rhs).expect("a basis has an invertible Gram matrix");
    let p: Vec<BigRational> = (0..a.dim())
        .map(|j| {
            q(&a.0[j])
                - coeffs
                    .iter()
                    .zip(complement)
                    .map(|(c, b)| c * q(&b.0[j]))
                    .sum::<BigRational>()
        })
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
        if lineality.is_empty() {
            // Pointed: L^⊥ is R^d itself, in its own coordinates.
            let rays = pointed_rays(d, &rows)?;
            return Ok(Self::assemble(d, rays, lineality, &rows));
        }
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
            // C is pointed (its dual is full-dimensional): read its extremal rays off the facets.
            let facets = dual.rays;
            let rays = extremal_generators(generators, &facets);
            return Ok(ConeData {
                ambient,
                rays,
                facets,
                lineality: Vec::new(),
                equations: dual.lineality,
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
            // R^d_≥0 is its own dual: rays and facets are the unit vectors (no elimination, which
            // would be cubic in d at every step).
            Cone::Orthant(d) => {
                let units: Vec<Vector> = (0..*d).map(|i| Vector::unit(*d, i)).collect();
                Ok(ConeData {
                    ambient: *d,
                    rays: sorted(units.clone()),
                    facets: sorted(units),
                    lineality: Vec::new(),
                    equations: Vec::new(),
                })
            }
            Cone::Generated { dim, generators } => ConeData::from_generators(*dim, generators),
            Cone::Halfspaces(a) => ConeData::from_inequalities(a.ncols(), &a.rows()),
        }
    }

    /// Completes the description from the rays and lineality of C and the inequalities defining it.
    ///
    /// Every row r cuts out the face C ∩ r^⊥, known by the rays it contains. A row vanishing on
    /// every ray is an implicit equation, and these span span(C)^⊥; among the others, the facets are the faces maximal by
    /// inclusion (each facet of C is cut out by some row, and every proper face lies in a facet).
    fn assemble(d: usize, rays: Vec<Vector>, lineality: Vec<Vector>, rows: &[Vector]) -> ConeData {
        let rays = sorted(rays);
        let (candidates, implicit): (Vec<&Vector>, Vec<&Vector>) = rows
            .iter()
            .partition(|r| rays.iter().any(|x| !r.dot(x).is_zero()));
        // span(C) is cut out by the implicit equations; its complement gets the canonical basis
        // kernel(basis of span(C)), which depends only on the subspace.
        let implicit: Vec<Vector> = implicit.into_iter().cloned().collect();
        let equations = kernel(&kernel(&implicit, d), d);
        let tight: Vec<IndexSet> = candidates
            .iter()
            .map(|r| IndexSet::from_fn(rays.len(), |i| r.dot(&rays[i]).is_zero()))
            .collect();
        let facets = maximal(&tight)
            .into_iter()
            .map(|i| project_off(candidates[i], &equations))
            .collect();
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
        let n = self.rays.len();
        let tight: Vec<IndexSet> = self
            .facets
            .iter()
            .map(|f| IndexSet::from_fn(n, |i| f.dot(&self.rays[i]).is_zero()))
            .collect();
        let mut seen: std::collections::BTreeSet<IndexSet> = std::collections::BTreeSet::new();
        let mut queue = vec![IndexSet::from_fn(n, |_| true)];
        while let Some(face) = queue.pop() {
            if seen.contains(&face) {
                continue;
            }
            for t in &tight {
                let smaller = face.intersection(t);
                if smaller != face && !seen.contains(&smaller) {
                    queue.push(smaller);
                }
            }
            seen.insert(face);
        }
        let mut by_dim: Vec<Vec<Vec<Vector>>> = vec![Vec::new(); self.dim() + 1];
        for face in seen {
            let mut span: Vec<Vector> = face.members().map(|i| self.rays[i].clone()).collect();
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
    /// (\[GM09\] Definition 2.2), for an extremal ray ρ of C.
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

/// The extremal rays of the pointed cone R_+{generators} (sorted, primitive), given its facets:
/// a nonzero generator g spans an extremal ray iff the face cut out by the facets vanishing on g
/// (the smallest face containing g) holds no generator in another direction, that is, every
/// generator vanishing on all those facets is a positive multiple of g.
fn extremal_generators(generators: &[Vector], facets: &[Vector]) -> Vec<Vector> {
    let gens: Vec<Vector> = sorted(
        generators
            .iter()
            .filter(|g| !g.is_zero())
            .map(primitive)
            .collect(),
    );
    let tight: Vec<IndexSet> = gens
        .iter()
        .map(|g| IndexSet::from_fn(facets.len(), |i| facets[i].dot(g).is_zero()))
        .collect();
    (0..gens.len())
        .filter(|&i| (0..gens.len()).all(|j| j == i || !tight[i].is_subset(&tight[j])))
        .map(|i| gens[i].clone())
        .collect()
}

/// A ray of the double description, with the processed inequalities it is tight on.
struct DdRay {
    ray: Vector,
    zeros: IndexSet,
}

/// The extremal rays of the pointed cone {y ∈ R^k : a·y ≥ 0}, where the rows `a` span R^k
/// (so the cone is pointed), by the double description method.
fn pointed_rays(k: usize, rows: &[Vector]) -> Result<Vec<Vector>, AlgebraError> {
    let n = rows.len();
    // Start from k independent rows: their cone is simplicial, its rays are the columns of the
    // inverse (made integral and primitive), ray i tight on every starting row but row i.
    let start = independent_rows(rows, k);
    let starting: Vec<Vector> = start.iter().map(|&r| rows[r].clone()).collect();
    let mut rays: Vec<DdRay> = Vec::with_capacity(k);
    for (i, ray) in inverse_columns(&starting).into_iter().enumerate() {
        let mut zeros = IndexSet::empty(n);
        for (j, &r) in start.iter().enumerate() {
            if j != i {
                zeros.insert(r);
            }
        }
        rays.push(DdRay { ray, zeros });
    }
    for (idx, a) in rows.iter().enumerate() {
        if start.contains(&idx) {
            continue;
        }
        if crate::interrupt::requested() {
            return Err(AlgebraError::Interrupted);
        }
        rays = add_inequality(k, rays, idx, a);
    }
    Ok(rays.into_iter().map(|r| r.ray).collect())
}

/// One step of the double description: intersects the pointed cone with extremal `rays` (tight
/// sets over the rows processed so far) with the halfspace a·y ≥ 0 (row `idx`). The rays on the
/// positive side and on the hyperplane stay; each adjacent pair (r⁺, r⁻) across the hyperplane
/// gives the new ray (a·r⁺)r⁻ − (a·r⁻)r⁺. Two rays are adjacent iff they share at least k − 2
/// tight inequalities and no third ray is tight on all of those.
fn add_inequality(k: usize, rays: Vec<DdRay>, idx: usize, a: &Vector) -> Vec<DdRay> {
    let values: Vec<Integer> = rays.iter().map(|r| a.dot(&r.ray)).collect();
    let pos: Vec<usize> = (0..rays.len())
        .filter(|&i| values[i].signum() > 0)
        .collect();
    let neg: Vec<usize> = (0..rays.len())
        .filter(|&i| values[i].signum() < 0)
        .collect();
    let mut new_rays = Vec::new();
    if !neg.is_empty() {
        for &p in &pos {
            for &q in &neg {
                let common = rays[p].zeros.intersection(&rays[q].zeros);
                if common.len() + 2 < k {
                    continue;
                }
                let adjacent =
                    (0..rays.len()).all(|t| t == p || t == q || !common.is_subset(&rays[t].zeros));
                if adjacent {
                    let ray = rays[q]
                        .ray
                        .scale(&values[p])
                        .sub(&rays[p].ray.scale(&values[q]));
                    let mut zeros = common;
                    zeros.insert(idx);
                    new_rays.push(DdRay {
                        ray: primitive(&ray),
                        zeros,
                    });
                }
            }
        }
    }
    let mut kept: Vec<DdRay> = rays
        .into_iter()
        .zip(&values)
        .filter(|(_, v)| v.signum() >= 0)
        .map(|(mut r, v)| {
            if v.is_zero() {
                r.zeros.insert(idx);
            }
            r
        })
        .collect();
    kept.extend(new_rays);
    kept
}

/// Indices of k linearly independent rows (they exist: the rows span R^k).
fn independent_rows(rows: &[Vector], k: usize) -> Vec<usize> {
    // The first rows that are independent are the pivot columns of the matrix with these rows
    // as its columns (one elimination rather than one per row).
    let columns: Vec<Vector> = (0..k)
        .map(|j| Vector(rows.iter().map(|r| r.0[j].clone()).collect()))
        .collect();
    rref(&columns, rows.len()).1
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
fn homogenised_rows(p: &Polyhedron) -> Result<(usize, Vec<Vector>), AlgebraError> {
    match p {
        Polyhedron::Cone(c) => {
            let d = c.dim();
            let data_rows: Vec<Vector> = match c {
                Cone::Orthant(d) => (0..*d).map(|i| Vector::unit(*d, i)).collect(),
                Cone::Halfspaces(a) => a.rows(),
                Cone::Generated { .. } => {
                    let data = ConeData::of(c)?;
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
            Ok((d, rows))
        }
        Polyhedron::Inequalities { a, b } => {
            let d = a.ncols();
            let mut rows = Vec::with_capacity(a.nrows() + 1);
            for (row, rhs) in a.rows().iter().zip(b) {
                let den = Integer::from(rhs.denom().clone());
                let num = Integer::from(rhs.numer().clone());
                let mut r: Vec<Integer> = row.0.iter().map(|x| x * &den).collect();
                r.push(-num);
                rows.push(Vector(r));
            }
            rows.push(Vector::unit(d + 1, d));
            Ok((d, rows))
        }
    }
}

/// The homogenisation {(x, t) : a·x − b·t ≥ 0, t ≥ 0} of {x ∈ R^d : a·x ≥ b} (one row (a, b)
/// per inequality), as a cone in R^(d+1): its rays with t > 0 are the vertices, with t = 0 the
/// recession rays, and its equations with t = 1 those of the affine hull.
pub fn homogenised_cone(d: usize, rows: &[(Vector, Integer)]) -> Result<ConeData, AlgebraError> {
    ConeData::from_inequalities(d + 1, &homogenised(d, rows))
}

/// The rows (a, −b) and t ≥ 0 of [`homogenised_cone`].
fn homogenised(d: usize, rows: &[(Vector, Integer)]) -> Vec<Vector> {
    let mut hom: Vec<Vector> = rows
        .iter()
        .map(|(a, b)| Vector(a.0.iter().cloned().chain([-b]).collect()))
        .collect();
    hom.push(Vector::unit(d + 1, d));
    hom
}

/// The extreme rays of the cone of [`homogenised_cone`] (pointed when the rows a have rank d):
/// in machine integers when they fit, else exactly.
pub(crate) fn homogenised_rays(
    d: usize,
    rows: &[(Vector, Integer)],
) -> Result<Vec<Vector>, AlgebraError> {
    let hom = homogenised(d, rows);
    let small: Option<Vec<Vec<i64>>> = hom.iter().map(Vector::to_i64s).collect();
    if let Some(rays) = small.and_then(|h| super::machine_cone::pointed_rays(d + 1, &h)) {
        return Ok(rays.iter().map(|r| Vector::from_i64s(r)).collect());
    }
    Ok(ConeData::from_inequalities(d + 1, &hom)?.rays().to_vec())
}

/// Π as integer inequalities a·x ≥ b, one pair per row (an equation of a cone gives two rows).
pub fn integer_inequalities(p: &Polyhedron) -> Result<Vec<(Vector, Integer)>, AlgebraError> {
    let (d, rows) = homogenised_rows(p)?;
    Ok(rows[..rows.len() - 1]
        .iter()
        .map(|r| (Vector(r.0[..d].to_vec()), -r.0[d].clone()))
        .collect())
}

/// Vertices and recession cone of a polyhedron.
pub fn polyhedron_data(p: &Polyhedron) -> Result<PolyhedronData, AlgebraError> {
    if let Polyhedron::Cone(Cone::Orthant(d)) = p {
        // R^d_+: one vertex (the origin), rays and facets the unit vectors; no double
        // description needed, whatever d is.
        let units: Vec<Vector> = (0..*d).map(|i| Vector::unit(*d, i)).collect();
        return Ok(PolyhedronData {
            vertices: vec![vec![BigRational::from_integer(0.into()); *d]],
            recession: ConeData {
                ambient: *d,
                rays: sorted(units.clone()),
                facets: sorted(units),
                lineality: Vec::new(),
                equations: Vec::new(),
            },
            dim: Some(*d),
        });
    }
    let (d, rows) = homogenised_rows(p)?;
    data_from_rows(d, &rows)
}

/// Vertices and recession cone of the polyhedron whose homogenisation is {y : r·y ≥ 0 for the
/// rows r}, the last row being t ≥ 0.
fn data_from_rows(d: usize, rows: &[Vector]) -> Result<PolyhedronData, AlgebraError> {
    let hom = ConeData::from_inequalities(d + 1, rows)?;
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
    /// A direction Π contains (a recession ray, or a line), when it is unbounded.
    pub fn unbounded_direction(&self) -> Option<&Vector> {
        self.recession
            .rays()
            .first()
            .or(self.recession.lineality().first())
    }

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

/// The points x of the box lo ≤ x ≤ hi with (x, 1) in the homogenisation given by `rows`, in
/// lexicographic order.
fn enumerate_box(
    rows: &[Vector],
    lo: Vec<Integer>,
    hi: Vec<Integer>,
) -> Result<Vec<Vector>, AlgebraError> {
    let d = lo.len();
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
        if in_polyhedron(rows, &x) {
            // The next doubling of the points found, each of them also a value for the caller
            // (a vector box and its entries, twice over).
            let each = (2 * (d * std::mem::size_of::<Integer>() + 72)) as u64;
            let n = out.len();
            crate::memory::check_doubling(n, each, || {
                format!("the lattice points, past {n} of them,")
            })?;
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

/// The smallest integer box containing the vertices: per coordinate, ⌈min⌉ and ⌊max⌋.
fn vertex_box(d: usize, vertices: &[Vec<BigRational>]) -> (Vec<Integer>, Vec<Integer>) {
    let lo = (0..d)
        .map(|i| {
            vertices
                .iter()
                .map(|v| ceil(&v[i]))
                .min()
                .unwrap_or(Integer::ONE)
        })
        .collect();
    let hi = (0..d)
        .map(|i| {
            vertices
                .iter()
                .map(|v| floor(&v[i]))
                .max()
                .unwrap_or(Integer::ZERO)
        })
        .collect();
    (lo, hi)
}

/// The lattice points of a bounded polyhedron, sorted. An unbounded one is an error naming a
/// recession ray (or a line); an empty one has none.
pub fn lattice_points(p: &Polyhedron) -> Result<Vec<Vector>, AlgebraError> {
    let (d, rows) = homogenised_rows(p)?;
    let data = data_from_rows(d, &rows)?;
    if data.is_empty() {
        return Ok(Vec::new());
    }
    if let Some(ray) = data.unbounded_direction() {
        return Err(AlgebraError::Unbounded { ray: ray.clone() });
    }
    let (lo, hi) = vertex_box(d, &data.vertices);
    enumerate_box(&rows, lo, hi)
}

/// The lattice points of any polyhedron in the box |x_i| ≤ bound, sorted.
pub fn lattice_points_within(p: &Polyhedron, bound: &Integer) -> Result<Vec<Vector>, AlgebraError> {
    let (d, rows) = homogenised_rows(p)?;
    let data = data_from_rows(d, &rows)?;
    if data.is_empty() {
        return Ok(Vec::new());
    }
    let mut lo: Vec<Integer> = vec![-bound; d];
    let mut hi: Vec<Integer> = vec![bound.clone(); d];
    if data.is_bounded() {
        let (vlo, vhi) = vertex_box(d, &data.vertices);
        for i in 0..d {
            lo[i] = lo[i].clone().max(vlo[i].clone());
            hi[i] = hi[i].clone().min(vhi[i].clone());
        }
    }
    enumerate_box(&rows, lo, hi)
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

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    /// {x : Ax ≥ b} with integer A and b.
    fn polyhedron(a: &[&[i64]], b: &[i64]) -> Polyhedron {
        let a = Matrix::from_rows(
            a.iter()
                .map(|r| r.iter().map(|&x| Integer::from(x)).collect())
                .collect(),
        )
        .unwrap();
        Polyhedron::from_inequalities(a, b.iter().map(|&x| q(x, 1)).collect()).unwrap()
    }

    fn points(ps: &[&[i64]]) -> Vec<Vec<BigRational>> {
        ps.iter()
            .map(|p| p.iter().map(|&x| q(x, 1)).collect())
            .collect()
    }

    #[test]
    fn the_orthant() {
        let c = ConeData::of(&Cone::Orthant(3)).unwrap();
        assert_eq!(c.rays(), &[v(&[0, 0, 1]), v(&[0, 1, 0]), v(&[1, 0, 0])]);
        assert_eq!(c.facets(), c.rays());
        assert!(c.is_pointed() && c.is_full_dimensional() && c.dim() == 3);
        assert!(c.equations().is_empty() && c.lineality().is_empty());
        // The orthant's description is written down; the double description agrees with it.
        for d in 1..6 {
            let units: Vec<Vector> = (0..d).map(|i| Vector::unit(d, i)).collect();
            assert_eq!(
                ConeData::of(&Cone::Orthant(d)).unwrap(),
                ConeData::from_inequalities(d, &units).unwrap()
            );
        }
        assert_eq!(c.relative_interior_point(), v(&[1, 1, 1]));
        assert_eq!(
            c.facets_containing(&v(&[1, 0, 0])),
            vec![v(&[0, 0, 1]), v(&[0, 1, 0])]
        );
        assert_eq!(ConeData::from_generators(3, c.rays()).unwrap(), c);
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
        assert_eq!(f[1][0], vec![v(&[-1, 0, 1])]);
        assert_eq!(f[2][0], vec![v(&[-1, 0, 1]), v(&[0, -1, 1])]);
        assert_eq!(f[3][0].len(), 4);
        assert_eq!(
            c.facets(),
            &[
                v(&[-1, -1, 1]),
                v(&[-1, 1, 1]),
                v(&[1, -1, 1]),
                v(&[1, 1, 1])
            ]
        );
    }

    #[test]
    fn faces_with_lineality() {
        // {x1 ≥ 0, x2 ≥ 0} × R: the smallest face is the line, at dimension 1.
        let c = ConeData::from_inequalities(3, &[v(&[1, 0, 0]), v(&[0, 1, 0])]).unwrap();
        let f = c.faces();
        assert_eq!(f.iter().map(Vec::len).collect::<Vec<_>>(), vec![0, 1, 2, 1]);
        assert_eq!(c.relative_interior_point(), v(&[1, 1, 0]));
    }

    #[test]
    fn a_generated_cone() {
        let c = ConeData::from_generators(2, &[v(&[1, 0]), v(&[1, 2]), v(&[2, 1])]).unwrap();
        assert_eq!(c.rays(), &[v(&[1, 0]), v(&[1, 2])]);
        assert_eq!(c.facets(), &[v(&[0, 1]), v(&[2, -1])]);
        assert!(c.contains(&v(&[3, 1])) && !c.contains(&v(&[0, 1])));
        // The same cone from its inequalities, and from dependent, repeated and zero generators.
        let from_facets = ConeData::from_inequalities(2, &[v(&[2, -1]), v(&[0, 1])]).unwrap();
        assert_eq!(from_facets, c);
        let messy = [
            v(&[0, 0]),
            v(&[2, 4]),
            v(&[1, 2]),
            v(&[3, 0]),
            v(&[2, 1]),
            v(&[1, 2]),
        ];
        assert_eq!(ConeData::from_generators(2, &messy).unwrap(), c);
    }

    #[test]
    fn redundant_and_zero_inequalities() {
        let c = ConeData::from_inequalities(
            2,
            &[v(&[1, 0]), v(&[0, 0]), v(&[0, 1]), v(&[1, 1]), v(&[2, 0])],
        )
        .unwrap();
        assert_eq!(c, ConeData::of(&Cone::Orthant(2)).unwrap());
        let everything = ConeData::from_inequalities(2, &[v(&[0, 0])]).unwrap();
        assert_eq!(everything.lineality(), &[v(&[0, 1]), v(&[1, 0])]);
        assert!(everything.rays().is_empty() && everything.facets().is_empty());
        assert_eq!(everything.dim(), 2);
        assert_eq!(everything.faces(), vec![vec![], vec![], vec![vec![]]]);
    }

    #[test]
    fn lineality_and_lower_dimension() {
        let half = ConeData::from_inequalities(2, &[v(&[1, 0])]).unwrap();
        assert_eq!(half.lineality(), &[v(&[0, 1])]);
        assert_eq!(half.rays(), &[v(&[1, 0])]);
        assert_eq!(half.facets(), &[v(&[1, 0])]);
        assert!(!half.is_pointed() && half.is_full_dimensional());
        assert!(half.contains(&v(&[0, -7])) && !half.contains(&v(&[-1, 3])));
        assert_eq!(
            ConeData::from_generators(2, &[v(&[1, 5]), v(&[0, 1]), v(&[0, -1])]).unwrap(),
            half
        );
        let flat = ConeData::from_generators(3, &[v(&[1, 1, 0]), v(&[1, 0, 0])]).unwrap();
        assert_eq!(flat.dim(), 2);
        assert_eq!(flat.equations(), &[v(&[0, 0, 1])]);
        assert_eq!(flat.rays(), &[v(&[1, 0, 0]), v(&[1, 1, 0])]);
        assert_eq!(flat.facets(), &[v(&[0, 1, 0]), v(&[1, -1, 0])]);
        assert!(!flat.contains(&v(&[2, 1, 1])) && flat.contains(&v(&[2, 1, 0])));
        // The same flat cone from inequalities: its facets are reduced modulo x3 = 0.
        let flat2 = ConeData::from_inequalities(
            3,
            &[
                v(&[0, 1, 5]),
                v(&[1, -1, -2]),
                v(&[0, 0, 1]),
                v(&[0, 0, -1]),
            ],
        )
        .unwrap();
        assert_eq!(flat2, flat);
        // A tilted flat cone, whose facet normals are orthogonal projections into its span.
        let tilted = ConeData::from_generators(3, &[v(&[1, 0, 1]), v(&[0, 1, 1])]).unwrap();
        assert_eq!(tilted.equations(), &[v(&[-1, -1, 1])]);
        assert_eq!(tilted.facets(), &[v(&[-1, 2, 1]), v(&[2, -1, 1])]);
        let zero = ConeData::from_generators(2, &[]).unwrap();
        assert_eq!(zero.dim(), 0);
        assert!(zero.contains(&v(&[0, 0])) && !zero.contains(&v(&[1, 0])));
        assert_eq!(ConeData::from_generators(2, &[v(&[0, 0])]).unwrap(), zero);
        assert!(ConeData::from_generators(2, &[v(&[1, 0, 0])]).is_err());
        assert!(ConeData::from_inequalities(0, &[]).is_err());
    }

    #[test]
    fn example_3_1_tangent_cone_along_the_third_axis() {
        // [GM09] Example 3.1: R_+Γ ⊇ R^3_+, but −T_{e3}R^3_+ = {x1 ≤ 0, x2 ≤ 0} meets no move.
        let c = ConeData::of(&Cone::Orthant(3)).unwrap();
        let t = c.negative_tangent_cone(&v(&[0, 0, 1]));
        assert_eq!(t.facets(), &[v(&[-1, 0, 0]), v(&[0, -1, 0])]);
        assert_eq!(t.lineality(), &[v(&[0, 0, 1])]);
        assert_eq!(t.rays(), &[v(&[-1, 0, 0]), v(&[0, -1, 0])]);
        let gamma = [v(&[1, 0, 0]), v(&[0, 1, 0]), v(&[1, -1, 1]), v(&[-1, 1, 1])];
        assert!(gamma.iter().all(|g| !t.contains(g)));
        let cone_of_gamma = ConeData::from_generators(3, &gamma).unwrap();
        assert!(c.rays().iter().all(|r| cone_of_gamma.contains(r)));
        assert!(cone_of_gamma.is_pointed());
    }

    #[test]
    fn vertices_of_triangles_and_squares() {
        let triangle = polyhedron(&[&[1, 0], &[0, 1], &[-1, -1]], &[0, 0, -2]);
        let data = polyhedron_data(&triangle).unwrap();
        assert_eq!(
            data.vertices(),
            points(&[&[0, 0], &[0, 2], &[2, 0]]).as_slice()
        );
        assert!(data.is_bounded() && data.is_pointed() && !data.is_empty() && data.dim() == 2);
        // A triangle with rational vertices: x ≥ 0, y ≥ 0, 2x + 3y ≤ 1.
        let thin = polyhedron(&[&[1, 0], &[0, 1], &[-2, -3]], &[0, 0, -1]);
        let data = polyhedron_data(&thin).unwrap();
        assert_eq!(
            data.vertices(),
            &[
                vec![q(0, 1), q(0, 1)],
                vec![q(0, 1), q(1, 3)],
                vec![q(1, 2), q(0, 1)]
            ]
        );
        assert_eq!(lattice_points(&thin).unwrap(), vec![v(&[0, 0])]);
        // The square [−1, 1]^2 with a redundant inequality.
        let square = polyhedron(
            &[&[1, 0], &[-1, 0], &[0, 1], &[0, -1], &[1, 1]],
            &[-1, -1, -1, -1, -5],
        );
        let data = polyhedron_data(&square).unwrap();
        assert_eq!(
            data.vertices(),
            points(&[&[-1, -1], &[-1, 1], &[1, -1], &[1, 1]]).as_slice()
        );
        assert_eq!(lattice_points(&square).unwrap().len(), 9);
        // A segment (not full-dimensional) and a point.
        let segment = polyhedron(&[&[1, -1], &[-1, 1], &[1, 0], &[-1, 0]], &[0, 0, 0, -3]);
        let data = polyhedron_data(&segment).unwrap();
        assert_eq!(data.vertices(), points(&[&[0, 0], &[3, 3]]).as_slice());
        assert_eq!(data.dim(), 1);
        assert_eq!(
            lattice_points(&segment).unwrap(),
            vec![v(&[0, 0]), v(&[1, 1]), v(&[2, 2]), v(&[3, 3])]
        );
    }

    #[test]
    fn unbounded_and_empty_polyhedra() {
        // x + y ≥ 2 in the orthant: vertices (0, 2), (2, 0), recession cone the orthant.
        let p = polyhedron(&[&[1, 0], &[0, 1], &[1, 1]], &[0, 0, 2]);
        let data = polyhedron_data(&p).unwrap();
        assert_eq!(data.vertices(), points(&[&[0, 2], &[2, 0]]).as_slice());
        assert_eq!(
            data.recession_cone(),
            &ConeData::of(&Cone::Orthant(2)).unwrap()
        );
        assert!(!data.is_bounded() && data.is_pointed());
        assert_eq!(
            lattice_points(&p),
            Err(AlgebraError::Unbounded { ray: v(&[0, 1]) })
        );
        assert_eq!(
            lattice_points_within(&p, &Integer::from(2)).unwrap(),
            vec![
                v(&[0, 2]),
                v(&[1, 1]),
                v(&[1, 2]),
                v(&[2, 0]),
                v(&[2, 1]),
                v(&[2, 2])
            ]
        );
        // A strip 0 ≤ x ≤ 1: not pointed, its minimal face through the origin's projection.
        let strip = polyhedron(&[&[1, 0], &[-1, 0]], &[0, -1]);
        let data = polyhedron_data(&strip).unwrap();
        assert!(!data.is_pointed() && !data.is_bounded());
        assert_eq!(data.vertices(), points(&[&[0, 0], &[1, 0]]).as_slice());
        assert!(matches!(
            lattice_points(&strip),
            Err(AlgebraError::Unbounded { .. })
        ));
        // Empty: x ≥ 1 and x ≤ 0.
        let empty = polyhedron(&[&[1, 0], &[-1, 0]], &[1, 0]);
        let data = polyhedron_data(&empty).unwrap();
        assert!(data.is_empty() && data.vertices().is_empty());
        assert_eq!(lattice_points(&empty).unwrap(), Vec::<Vector>::new());
        // A rational polytope without lattice points: 1/3 ≤ x ≤ 2/3.
        let a = Matrix::from_rows(vec![vec![1.into()], vec![(-1).into()]]).unwrap();
        let gap = Polyhedron::from_inequalities(a, vec![q(1, 3), q(-2, 3)]).unwrap();
        assert!(!polyhedron_data(&gap).unwrap().is_empty());
        assert!(lattice_points(&gap).unwrap().is_empty());
        // The orthant as a polyhedron.
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

    /// The lattice points of {x : Ax ≥ b} in the box [−n, n]^d, by brute force.
    fn brute_points(p: &Polyhedron, d: usize, n: i64) -> Vec<Vector> {
        let mut out = Vec::new();
        let mut x = vec![-n; d];
        loop {
            let pt = v(&x);
            if p.contains_directly(&pt) == Some(true) {
                out.push(pt);
            }
            let Some(i) = (0..d).rev().find(|&i| x[i] < n) else {
                return out;
            };
            x[i] += 1;
            for y in x.iter_mut().skip(i + 1) {
                *y = -n;
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        #[test]
        fn generators_facets_generators(d in 2usize..=5, gens in proptest::collection::vec(proptest::collection::vec(-3i64..=3, 5), 1..8)) {
            let gens: Vec<Vector> = gens.iter().map(|g| v(&g[..d])).collect();
            let c = ConeData::from_generators(d, &gens).unwrap();
            for g in &gens {
                prop_assert!(c.contains(g), "{} not in its own cone", g);
                for f in c.facets() {
                    prop_assert!(f.dot(g).signum() >= 0, "{} violates facet {}", g, f);
                }
            }
            let mut rows: Vec<Vector> = c.facets().to_vec();
            for e in c.equations() {
                rows.push(e.clone());
                rows.push(e.scale(&Integer::from(-1)));
            }
            let back = ConeData::from_inequalities(d, &rows).unwrap();
            prop_assert_eq!(&back, &c);
            prop_assert_eq!(c.dim(), rank(&gens, d));
            // Each ray is tight on at least (pointed dimension − 1) facets, which span a space of
            // exactly that dimension, and is orthogonal to the lineality space.
            let pd = c.dim() - c.lineality().len();
            for r in c.rays() {
                let tight = c.facets_containing(r);
                prop_assert!(tight.len() + 1 >= pd);
                prop_assert_eq!(rank(&tight, d) + 1, pd);
                prop_assert!(c.lineality().iter().all(|l| l.dot(r).is_zero()));
            }
            // Each facet vanishes on the lineality and on rays spanning a facet.
            for f in c.facets() {
                prop_assert!(c.lineality().iter().all(|l| l.dot(f).is_zero()));
                let tight: Vec<Vector> = c.rays().iter().filter(|r| f.dot(r).is_zero()).cloned().collect();
                prop_assert_eq!(rank(&tight, d) + 1, pd);
            }
            prop_assert!(c.contains(&c.relative_interior_point()));
            prop_assert!(c.facets().iter().all(|f| f.dot(&c.relative_interior_point()).signum() > 0));
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

        #[test]
        fn inequalities_rays_inequalities(d in 2usize..=5, rows in proptest::collection::vec(proptest::collection::vec(-3i64..=3, 5), 1..8)) {
            let rows: Vec<Vector> = rows.iter().map(|r| v(&r[..d])).collect();
            let c = ConeData::from_inequalities(d, &rows).unwrap();
            let mut gens: Vec<Vector> = c.rays().to_vec();
            for l in c.lineality() {
                gens.push(l.clone());
                gens.push(l.scale(&Integer::from(-1)));
            }
            prop_assert_eq!(&ConeData::from_generators(d, &gens).unwrap(), &c);
            for x in -2i64..=2 {
                for y in -2i64..=2 {
                    let mut p = vec![x, y];
                    p.resize(d, -1);
                    let p = v(&p);
                    let direct = rows.iter().all(|r| r.dot(&p).signum() >= 0);
                    prop_assert_eq!(c.contains(&p), direct, "point {}", p);
                }
            }
        }

        #[test]
        fn lattice_points_of_polytopes(d in 1usize..=3, rows in proptest::collection::vec((proptest::collection::vec(-3i64..=3, 3), -4i64..=4), 0..5)) {
            // Random inequalities, cut down to the box [−3, 3]^d so the polyhedron is bounded.
            let mut a: Vec<Vec<i64>> = rows.iter().map(|(r, _)| r[..d].to_vec()).collect();
            let mut b: Vec<i64> = rows.iter().map(|(_, b)| *b).collect();
            for i in 0..d {
                let mut e = vec![0; d];
                e[i] = 1;
                a.push(e.clone());
                b.push(-3);
                e[i] = -1;
                a.push(e);
                b.push(-3);
            }
            let a: Vec<&[i64]> = a.iter().map(Vec::as_slice).collect();
            let p = polyhedron(&a, &b);
            let brute = brute_points(&p, d, 4);
            prop_assert_eq!(&lattice_points(&p).unwrap(), &brute);
            prop_assert_eq!(&lattice_points_within(&p, &Integer::from(2)).unwrap(),
                &brute.iter().filter(|x| x.0.iter().all(|c| c.abs() <= Integer::from(2))).cloned().collect::<Vec<_>>());
            let data = polyhedron_data(&p).unwrap();
            prop_assert!(brute.is_empty() || !data.is_empty());
            prop_assert!(data.is_bounded());
            // Every vertex satisfies every inequality.
            for vert in data.vertices() {
                for (row, rhs) in a.iter().zip(&b) {
                    let lhs: BigRational = row.iter().zip(vert).map(|(x, y)| q(*x, 1) * y).sum();
                    prop_assert!(lhs >= q(*rhs, 1));
                }
            }
        }
    }
}
