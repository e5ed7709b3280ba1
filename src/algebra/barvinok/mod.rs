//! Short rational generating functions of rational polyhedra (Barvinok's algorithm, in the dual
//! form LattE uses; [GM11] §3 and §5 rely on it for their polynomial-time claims).
//!
//! For a full-dimensional rational polytope P = {x : Ax ≥ b}, Brion's theorem gives
//! [P] = Σ_v [v + T_v] modulo polyhedra containing lines, over the vertices v and their tangent
//! cones T_v = {x : a_i·x ≥ 0, i active at v}. The dual cone T_v* = cone(a_i : i active) is
//! triangulated and each simplex decomposed by Barvinok's signed decomposition into unimodular
//! cones modulo lower-dimensional cones (`decompose`); dualizing turns lower-dimensional cones
//! into cones with lines, whose generating functions vanish, so
//! Σ_{x∈P∩Z^d} t^x = Σ_v Σ_j ε_j t^{p_vj} / Π_k (1 − t^{g_jk})
//! exactly as rational functions, with (g_jk)_k a basis of Z^d (the generators of the dual of a
//! unimodular cone) and p_vj the one lattice point of v's fundamental parallelepiped in it. The
//! number of terms is polynomial in the input's bit size for fixed d.
//!
//! **A signed short form is an identity of rational functions, not a set.** Its terms converge
//! in different cones (a vertex cone of a polytope points inwards, the opposite vertex's the other
//! way), so no term is the generating function of part of P. [`ShortForm`] is therefore its own
//! type: it is evaluated (`count`, at t = 1 through a generic direction and the Laurent expansion,
//! as LattE does) but never read as a union of pieces.

mod decompose;
pub mod ehrhart;
mod identity;
pub mod lll;
mod modular;
mod series;
mod todd;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

pub use decompose::SignedCone;

use super::polyhedral::{
    homogenised_cone, integer_inequalities, polyhedron_data, ConeData, PolyhedronData,
};
use super::{AlgebraError, Polyhedron, Vector};

/// One term c t^p / Π_k (1 − t^{g_k}) with linearly independent g_k. Barvinok's decomposition
/// makes c = ±1 and the g_k a basis of the lattice of the polyhedron's affine hull (of Z^d for a
/// full-dimensional one); sums and multiples of short forms have other rational c.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortTerm {
    /// The coefficient c.
    pub coefficient: BigRational,
    /// The numerator exponent p.
    pub apex: Vec<BigInt>,
    /// The denominator exponents g_k.
    pub rays: Vec<Vec<BigInt>>,
}

/// A signed sum of cone terms, equal as a rational function to the generating function of a
/// polyhedron's lattice points (or to a sum of such functions).
///
/// `recession` lists the directions in which the function's series must converge: the rays of
/// the polyhedra's recession cones (empty for polytopes and polynomials). The series read off the
/// function (`expansion`, `coefficient`) is the Laurent expansion in a generic direction positive
/// on them, the one in which Σ_{x∈P} t^x converges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortForm {
    dim: usize,
    terms: Vec<ShortTerm>,
    recession: Vec<Vector>,
}

/// How far a decomposition has come: vertex cones done out of all, unimodular cones so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Vertex cones decomposed.
    pub vertex: usize,
    /// Vertices of the polyhedron.
    pub vertices: usize,
    /// Unimodular cones produced so far.
    pub cones: usize,
}

impl ShortForm {
    /// The zero function in d variables.
    pub fn zero(dim: usize) -> ShortForm {
        ShortForm {
            dim,
            terms: Vec::new(),
            recession: Vec::new(),
        }
    }

    /// The short generating function of the lattice points of a bounded polyhedron (a
    /// lower-dimensional one through the coordinates of its affine hull's lattice). An unbounded
    /// one is refused with a direction it contains.
    pub fn of_polytope(p: &Polyhedron) -> Result<ShortForm, AlgebraError> {
        ShortForm::build(p, true, &mut |_| {})
    }

    /// The same, calling `report` after each vertex cone is decomposed (for live progress).
    pub fn of_polytope_reporting(
        p: &Polyhedron,
        report: &mut dyn FnMut(Progress),
    ) -> Result<ShortForm, AlgebraError> {
        ShortForm::build(p, true, report)
    }

    /// The short generating function of the lattice points of a rational polyhedron. For a
    /// pointed unbounded one Brion's theorem holds as well (the vertex cones' terms add up to the
    /// rational function whose series, in a direction positive on the recession cone, is
    /// Σ_{x∈P} t^x); a polyhedron containing a line has the zero function, as every cone with a
    /// line does (Lawrence–Varchenko), so it is refused as `NotPointed`: its points have no
    /// convergent series.
    pub fn of_polyhedron(p: &Polyhedron) -> Result<ShortForm, AlgebraError> {
        ShortForm::build(p, false, &mut |_| {})
    }

    /// The same, calling `report` after each vertex cone is decomposed (for live progress).
    pub fn of_polyhedron_reporting(
        p: &Polyhedron,
        report: &mut dyn FnMut(Progress),
    ) -> Result<ShortForm, AlgebraError> {
        ShortForm::build(p, false, report)
    }

    /// Brion and Barvinok on one computation of P's vertices and recession cone; with
    /// `bounded_only`, an unbounded P is refused with a direction it contains. The terms are
    /// kept, so the decomposition draws from the memory budget: once the terms so far,
    /// extrapolated over the vertex cones still to come, would not fit, it is refused as
    /// `OutOfMemory` with that estimate.
    fn build(
        p: &Polyhedron,
        bounded_only: bool,
        report: &mut dyn FnMut(Progress),
    ) -> Result<ShortForm, AlgebraError> {
        let d = p.dim();
        let data = polyhedron_data(p)?;
        if bounded_only {
            if let Some(ray) = data.unbounded_direction() {
                return Err(AlgebraError::Unbounded { ray: ray.clone() });
            }
        }
        if data.is_empty() {
            return Ok(ShortForm::zero(d));
        }
        if let Some(line) = data.recession_cone().lineality().first() {
            return Err(AlgebraError::NotPointed { line: line.clone() });
        }
        let recession = data.recession_cone().rays().to_vec();
        let rows = integer_inequalities(p)?;
        if data.dim() != d {
            return ShortForm::in_affine_hull(d, &rows, report);
        }
        let vertices = data.vertices().len();
        let vertex = std::cell::Cell::new(0usize);
        let mut terms = Vec::new();
        let mut bytes: u64 = 0;
        each_vertex_term(
            &data,
            &rows,
            &mut |step| {
                vertex.set(step.vertex);
                report(step)
            },
            &mut |term| {
                bytes += term_bytes(&term);
                terms.push(term);
                if terms.len() % 256 == 1 {
                    // Extrapolated from the vertex cones done (the current one counts as done,
                    // so the estimate is never below what is kept).
                    let done = vertex.get().max(1) as u64;
                    let estimate = bytes.saturating_mul(vertices as u64) / done;
                    let per_term = bytes / terms.len() as u64;
                    crate::memory::check(estimate, || {
                        format!(
                            "the short generating function ({} terms after {} of {} vertex cones, \
                             about {} in all at {} each)",
                            terms.len(),
                            vertex.get(),
                            vertices,
                            estimate / per_term.max(1),
                            crate::memory::human(per_term)
                        )
                    })?;
                }
                Ok(())
            },
        )?;
        Ok(ShortForm {
            dim: d,
            terms,
            recession,
        })
    }

    /// A polyhedron {x : a·x ≥ b} of lower dimension: its affine hull's integer points are
    /// x0 + U·Z^k (U a basis of the integer kernel of the equations), the polyhedron in the
    /// coordinates y is full-dimensional in R^k, and its terms map back by y ↦ x0 + U·y (the
    /// denominators become U·g, a basis of the hull's lattice). No integer point on the hull:
    /// no terms.
    fn in_affine_hull(
        d: usize,
        rows: &[(Vector, super::Integer)],
        report: &mut dyn FnMut(Progress),
    ) -> Result<ShortForm, AlgebraError> {
        let (x0, basis, inner) = match AffineHull::of(d, rows)? {
            AffineHull::NoPoint => return Ok(ShortForm::zero(d)),
            AffineHull::Point(x0) => {
                return Ok(ShortForm {
                    dim: d,
                    terms: vec![ShortTerm {
                        coefficient: BigRational::one(),
                        apex: x0.0.iter().map(|x| x.to_bigint()).collect(),
                        rays: Vec::new(),
                    }],
                    recession: Vec::new(),
                })
            }
            AffineHull::Lattice { x0, basis, inner } => (x0, basis, inner),
        };
        let lifted = ShortForm::of_polyhedron_reporting(&inner, report).map_err(|e| match e {
            AlgebraError::NotPointed { line } => AlgebraError::NotPointed {
                line: lift_vector(&basis, &line),
            },
            e => e,
        })?;
        let u: Vec<Vec<BigInt>> = basis
            .iter()
            .map(|v| v.0.iter().map(|x| x.to_bigint()).collect())
            .collect();
        let lift = |y: &[BigInt], offset: bool| -> Vec<BigInt> {
            (0..d)
                .map(|i| {
                    let start = if offset {
                        x0.0[i].to_bigint()
                    } else {
                        BigInt::zero()
                    };
                    y.iter()
                        .zip(&u)
                        .fold(start, |acc, (c, col)| acc + c * &col[i])
                })
                .collect()
        };
        Ok(ShortForm {
            dim: d,
            terms: lifted
                .terms
                .iter()
                .map(|t| ShortTerm {
                    coefficient: t.coefficient.clone(),
                    apex: lift(&t.apex, true),
                    rays: t.rays.iter().map(|g| lift(g, false)).collect(),
                })
                .collect(),
            recession: lifted
                .recession
                .iter()
                .map(|r| lift_vector(&basis, r))
                .collect(),
        })
    }

    /// The dimension d.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The terms.
    pub fn terms(&self) -> &[ShortTerm] {
        &self.terms
    }

    /// The directions in which the series must converge (the recession cones' rays).
    pub fn recession(&self) -> &[Vector] {
        &self.recession
    }

    /// The sum f + g (terms side by side; the series must converge along both recessions).
    pub fn add(&self, other: &ShortForm) -> ShortForm {
        let mut recession = self.recession.clone();
        for r in &other.recession {
            if !recession.contains(r) {
                recession.push(r.clone());
            }
        }
        ShortForm {
            dim: self.dim,
            terms: self.terms.iter().chain(&other.terms).cloned().collect(),
            recession,
        }
    }

    /// c·f.
    pub fn scale(&self, c: &BigRational) -> ShortForm {
        if c.is_zero() {
            return ShortForm::zero(self.dim);
        }
        ShortForm {
            dim: self.dim,
            terms: self
                .terms
                .iter()
                .map(|t| ShortTerm {
                    coefficient: &t.coefficient * c,
                    ..t.clone()
                })
                .collect(),
            recession: self.recession.clone(),
        }
    }

    /// f − g.
    pub fn sub(&self, other: &ShortForm) -> ShortForm {
        self.add(&other.scale(&-BigRational::one()))
    }

    /// The value at t = (1, …, 1), exactly, of a function of a finite set (a rational multiple
    /// of a count when the function was scaled); `Unbounded` with a recession ray otherwise.
    pub fn value_at_one(&self) -> Result<BigRational, AlgebraError> {
        if let Some(ray) = self.recession.first() {
            return Err(AlgebraError::Unbounded { ray: ray.clone() });
        }
        todd::value_at_one(self.dim, &self.terms)
    }

    /// The number of lattice points counted: the value at t = (1, …, 1), exactly. A function
    /// whose series converges along a recession ray counts infinitely many points: refused as
    /// `Unbounded` with that ray.
    pub fn count(&self) -> Result<BigInt, AlgebraError> {
        let value = self.value_at_one()?;
        if !value.is_integer() {
            return Err(AlgebraError::TooLarge(format!(
                "internal error: the count came out as {value}, not an integer"
            )));
        }
        Ok(value.to_integer())
    }
}

/// The number of lattice points of a polytope, by Barvinok's decomposition evaluated term by
/// term as LattE counts (see `modular`): no term is kept, so the memory stays that of one
/// simplicial cone's recursion however many terms there are, and only time grows (with
/// `report` and Ctrl-C as for [`ShortForm::of_polytope_reporting`]). A lower-dimensional
/// polytope is counted in the coordinates of its affine hull's lattice; an unbounded one is
/// refused with a direction it contains.
pub fn count_polytope(
    p: &Polyhedron,
    report: &mut dyn FnMut(Progress),
) -> Result<BigInt, AlgebraError> {
    let d = p.dim();
    let data = polyhedron_data(p)?;
    if let Some(ray) = data.unbounded_direction() {
        return Err(AlgebraError::Unbounded { ray: ray.clone() });
    }
    if data.is_empty() {
        return Ok(BigInt::zero());
    }
    let rows = integer_inequalities(p)?;
    if data.dim() != d {
        return match AffineHull::of(d, &rows)? {
            AffineHull::NoPoint => Ok(BigInt::zero()),
            AffineHull::Point(_) => Ok(BigInt::one()),
            AffineHull::Lattice { inner, .. } => count_polytope(&inner, report),
        };
    }
    let bound = bounding_box_points(data.vertices());
    if bound.is_zero() {
        return Ok(bound);
    }
    let mut attempt = 0;
    loop {
        let mut counter = modular::ModularCount::new(d, &bound, attempt);
        each_vertex_term(&data, &rows, report, &mut |term| {
            counter.add(&term);
            Ok(())
        })?;
        if let Some(n) = counter.finish()? {
            return Ok(n);
        }
        attempt += 1;
    }
}

/// The number of integer points of the bounding box of the vertices (an upper bound on the
/// polytope's lattice points).
fn bounding_box_points(vertices: &[Vec<BigRational>]) -> BigInt {
    let d = vertices.first().map_or(0, Vec::len);
    let mut product = BigInt::one();
    for i in 0..d {
        let lo = vertices.iter().map(|v| v[i].ceil().to_integer()).min();
        let hi = vertices.iter().map(|v| v[i].floor().to_integer()).max();
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return BigInt::zero();
        };
        if hi < lo {
            return BigInt::zero();
        }
        product *= hi - lo + 1;
    }
    product
}

/// The integer points of the affine hull of a lower-dimensional polyhedron {x : a·x ≥ b}.
enum AffineHull {
    /// The hull has no integer point (so neither has the polyhedron).
    NoPoint,
    /// The hull is one integer point, which lies in the polyhedron.
    Point(Vector),
    /// The hull's integer points are x0 + U·Z^k (the columns of U are `basis`), and the
    /// polyhedron's points among them are those whose coordinates y lie in `inner`, a
    /// full-dimensional polyhedron in R^k (its lattice points correspond one to one).
    Lattice {
        x0: Vector,
        basis: Vec<Vector>,
        inner: Polyhedron,
    },
}

impl AffineHull {
    /// The hull of {x : a·x ≥ b} (given by `rows`, of dimension less than d). A polyhedron that
    /// is its whole hull contains a line: refused as `NotPointed` with it.
    fn of(d: usize, rows: &[(Vector, super::Integer)]) -> Result<AffineHull, AlgebraError> {
        use super::Integer;
        // The affine hull's equations, from the homogenisation's.
        let cone = homogenised_cone(d, rows)?;
        let equations: Vec<Vec<Integer>> =
            cone.equations().iter().map(|e| e.0[..d].to_vec()).collect();
        let rhs: Vec<Integer> = cone.equations().iter().map(|e| -&e.0[d]).collect();
        let Some((x0, basis)) = super::coset::solve_integer(&equations, &rhs) else {
            return Ok(AffineHull::NoPoint);
        };
        if basis.is_empty() {
            // A single point, which is x0 if it satisfies every inequality.
            let inside = rows.iter().all(|(a, b)| &a.dot(&x0) >= b);
            return Ok(if inside {
                AffineHull::Point(x0)
            } else {
                AffineHull::NoPoint
            });
        }
        // a·(x0 + U y) ≥ b  ⇔  (a·U) y ≥ b − a·x0; rows with a·U = 0 are constants.
        let mut reduced_rows: Vec<Vec<Integer>> = Vec::new();
        let mut reduced_rhs: Vec<BigRational> = Vec::new();
        for (a, b) in rows {
            let coefficients: Vec<Integer> = basis.iter().map(|u| a.dot(u)).collect();
            let bound = b - &a.dot(&x0);
            if coefficients.iter().all(|c| c.is_zero()) {
                if bound > Integer::ZERO {
                    return Ok(AffineHull::NoPoint);
                }
                continue;
            }
            reduced_rows.push(coefficients);
            reduced_rhs.push(BigRational::from(bound.to_bigint()));
        }
        if reduced_rows.is_empty() {
            // The whole affine hull: it contains the line through U's first column.
            return Err(AlgebraError::NotPointed {
                line: basis[0].clone(),
            });
        }
        let inner =
            Polyhedron::from_inequalities(super::Matrix::from_rows(reduced_rows)?, reduced_rhs)?;
        Ok(AffineHull::Lattice { x0, basis, inner })
    }
}

/// Brion's vertex cones of a full-dimensional pointed polyhedron (its vertices and integer
/// inequalities), each triangulated and decomposed by Barvinok's signed decomposition: the
/// terms are handed to `emit` one at a time, and `report` hears of each vertex cone and of
/// every 256th term. Stops on Ctrl-C and on an error of `emit`.
fn each_vertex_term(
    data: &PolyhedronData,
    rows: &[(Vector, super::Integer)],
    report: &mut dyn FnMut(Progress),
    emit: &mut dyn FnMut(ShortTerm) -> Result<(), AlgebraError>,
) -> Result<(), AlgebraError> {
    let vertices = data.vertices().len();
    let mut cones = 0usize;
    for (i, v) in data.vertices().iter().enumerate() {
        report(Progress {
            vertex: i,
            vertices,
            cones,
        });
        if crate::interrupt::requested() {
            return Err(AlgebraError::Interrupted);
        }
        let d = v.len();
        let vertex = ScaledVertex::of(v);
        // Inner normals of the inequalities tight at v.
        let active: Vec<Vector> = rows
            .iter()
            .filter(|(a, b)| vertex.dot(a) == &b.to_bigint() * &vertex.denominator)
            .map(|(a, _)| a.clone())
            .collect();
        for simplex in dual_simplices(d, &active)? {
            decompose::unimodular(simplex, 1, &mut |cone| {
                // Each term inverts its cone: thousands of them take seconds.
                if cones.is_multiple_of(256) {
                    if crate::interrupt::requested() {
                        return Err(AlgebraError::Interrupted);
                    }
                    report(Progress {
                        vertex: i,
                        vertices,
                        cones,
                    });
                }
                cones += 1;
                emit(term_at(&vertex, cone))
            })?;
        }
    }
    Ok(())
}

/// A rational vertex v as integers V and a common denominator q > 0 (v = V/q).
struct ScaledVertex {
    numerators: Vec<BigInt>,
    denominator: BigInt,
}

impl ScaledVertex {
    fn of(v: &[BigRational]) -> ScaledVertex {
        use num_integer::Integer as _;
        let denominator = v.iter().fold(BigInt::one(), |l, x| l.lcm(x.denom()));
        let numerators = v
            .iter()
            .map(|x| x.numer() * (&denominator / x.denom()))
            .collect();
        ScaledVertex {
            numerators,
            denominator,
        }
    }

    /// a·V = q·(a·v).
    fn dot(&self, a: &Vector) -> BigInt {
        a.0.iter()
            .zip(&self.numerators)
            .map(|(x, y)| x.to_bigint() * y)
            .sum()
    }
}

/// The memory a term takes (its vectors' headers and big integers' digits, with the
/// allocator's overhead per allocation): what the memory budget is charged.
fn term_bytes(t: &ShortTerm) -> u64 {
    const ALLOCATION: u64 = 16;
    let int = |x: &BigInt| {
        let digits = x.bits().div_ceil(64);
        std::mem::size_of::<BigInt>() as u64
            + if digits > 0 {
                8 * digits + ALLOCATION
            } else {
                0
            }
    };
    let vector = |v: &[BigInt]| ALLOCATION + v.iter().map(int).sum::<u64>();
    std::mem::size_of::<ShortTerm>() as u64
        + int(t.coefficient.numer())
        + int(t.coefficient.denom())
        + vector(&t.apex)
        + t.rays.iter().map(|g| 24 + vector(g)).sum::<u64>()
}

/// A triangulation of cone(normals) into simplicial cones of d primitive rays each.
fn dual_simplices(d: usize, normals: &[Vector]) -> Result<Vec<Vec<Vec<BigInt>>>, AlgebraError> {
    let to_big = |v: &Vector| v.0.iter().map(|x| x.to_bigint()).collect::<Vec<_>>();
    if normals.len() == d {
        return Ok(vec![normals
            .iter()
            .map(|v| to_big(&super::linalg::primitive(v)))
            .collect()]);
    }
    let cone = ConeData::from_generators(d, normals)?;
    Ok(super::hilbert::triangulate(&cone)?
        .iter()
        .map(|s| s.iter().map(to_big).collect())
        .collect())
}

/// The term of v + C, C the dual of the unimodular cone with rays u_1..u_d: C is generated by
/// the columns g_k of U^{-1} (u_i·g_k = δ_ik), and its lattice points from v are
/// Σ_k c_k g_k with integers c_k ≥ u_k·v, the least being p = Σ_k ⌈u_k·v⌉ g_k.
fn term_at(v: &ScaledVertex, cone: SignedCone) -> ShortTerm {
    use num_integer::Integer as _;
    let d = v.numerators.len();
    // Rows u_i; g_k = column k of U^{-1}: with U's rows as W's columns, W = U^T and
    // W^{-1} = (U^{-1})^T, so g_k is row k of W^{-1} (the scale N is 1).
    let SignedCone {
        sign,
        rays,
        inverse: g,
    } = cone;
    let mut apex = vec![BigInt::zero(); d];
    for (u, gk) in rays.iter().zip(&g) {
        let c = dot(u, &v.numerators).div_ceil(&v.denominator);
        if c.is_zero() {
            continue;
        }
        for (a, x) in apex.iter_mut().zip(gk) {
            *a += &c * x;
        }
    }
    ShortTerm {
        coefficient: BigRational::from(BigInt::from(sign)),
        apex,
        rays: g,
    }
}

/// U·y for the columns u_j of U (given as the vectors `basis`).
fn lift_vector(basis: &[Vector], y: &Vector) -> Vector {
    let d = basis.first().map_or(0, Vector::dim);
    y.0.iter()
        .zip(basis)
        .fold(Vector::zero(d), |acc, (c, u)| acc.add(&u.scale(c)))
}

/// The dot product of two integer vectors.
fn dot(x: &[BigInt], y: &[BigInt]) -> BigInt {
    x.iter().zip(y).map(|(a, b)| a * b).sum()
}

#[cfg(test)]
mod tests;
