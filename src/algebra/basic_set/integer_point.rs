//! Integer feasibility of {w ∈ Z^r : Mw ≥ β} for a pointed rational polyhedron in small dimension:
//! the exact emptiness test behind every basic-set operation.
//!
//! An integer point may be moved along the primitive rays R of the recession cone into
//! conv(V) + Σ_{ρ∈R} [0, 1)ρ, so the box around that region holds one if the polyhedron does. A
//! small box is enumerated. A large one is searched by *branching on lattice hyperplanes* (as in
//! Lenstra's algorithm): for a primitive integer direction a, the polytope meets only the
//! hyperplanes a·w = k with k between ⌈min a·w⌉ and ⌊max a·w⌋, each of which is a polytope of one
//! dimension less after a unimodular change of coordinates. The direction taken is the one with the
//! fewest such k among the constraint normals and the unit vectors, read off the vertices, so a thin
//! slab between nearly parallel facets costs its few slices rather than a branch-and-bound over
//! its length; slices are tried from the middle outward, where a fat polytope has its points.

use num_rational::BigRational;

use crate::algebra::lattice::hermite_normal_form;
use crate::algebra::linalg::primitive;
use crate::algebra::polyhedral::homogenised_rays;
use crate::algebra::{AlgebraError, Integer, Matrix, Vector};

type Q = BigRational;

/// An integer point and, per row, whether the row is needed (see [`point_and_facets`]).
pub(super) type PointAndFacets = (Vec<Integer>, Vec<bool>);

/// Boxes with at most this many points are searched by enumeration.
const ENUMERATE_BOX: u64 = 50_000;

/// An integer point w ∈ Z^r with a·w ≥ b for the given rows, whose matrix has rank r (so the
/// polyhedron is pointed), or `None`; with the point, which rows are needed: the implicit
/// equations and one row per facet of the rational polyhedron. The others can be dropped without
/// changing the polyhedron, hence its lattice points.
pub(super) fn point_and_facets(
    r: usize,
    rows: &[(Vector, Integer)],
) -> Result<Option<PointAndFacets>, AlgebraError> {
    let (vertices, rays, homogenised) = vertices_and_rays_of(r, rows)?;
    if vertices.is_empty() {
        return Ok(None);
    }
    let needed = facet_rows(rows, &homogenised);
    Ok(search(r, rows, vertices, rays)?.map(|w| (w, needed)))
}

/// For each row, whether it is an implicit equation or the first row cutting out its facet of the
/// homogenised cone: a row whose set of tight extreme rays lies strictly inside another row's
/// cuts out a lower face, and so is implied by the others.
fn facet_rows(rows: &[(Vector, Integer)], homogenised: &[Vector]) -> Vec<bool> {
    use crate::algebra::index_set::IndexSet;
    let tight: Vec<IndexSet> = rows
        .iter()
        .map(|(a, b)| {
            IndexSet::from_fn(homogenised.len(), |i| {
                let x = &homogenised[i];
                let n = x.0.len() - 1;
                (&dot(&a.0, &x.0[..n]) - &(b * &x.0[n])).is_zero()
            })
        })
        .collect();
    let all = IndexSet::from_fn(homogenised.len(), |_| true);
    (0..rows.len())
        .map(|i| {
            if tight[i] == all {
                return true;
            }
            !(0..rows.len()).any(|j| {
                j != i
                    && tight[j] != all
                    && tight[i].is_subset(&tight[j])
                    && (tight[i] != tight[j] || j < i)
            })
        })
        .collect()
}

fn search(
    r: usize,
    rows: &[(Vector, Integer)],
    vertices: Vec<Vec<Q>>,
    rays: Vec<Vector>,
) -> Result<Option<Vec<Integer>>, AlgebraError> {
    if let Some(v) = integral_vertex(&vertices) {
        return Ok(Some(v));
    }
    let mut lo = Vec::with_capacity(r);
    let mut hi = Vec::with_capacity(r);
    for j in 0..r {
        let (vmin, vmax) = range(&vertices, |v| v[j].clone());
        let (mut neg, mut pos) = (Integer::ZERO, Integer::ZERO);
        for ray in &rays {
            match ray.0[j].signum() {
                s if s < 0 => neg = &neg + &ray.0[j],
                s if s > 0 => pos = &pos + &ray.0[j],
                _ => {}
            }
        }
        lo.push(&Integer::from(vmin.floor().to_integer()) + &neg);
        hi.push(&Integer::from(vmax.ceil().to_integer()) + &pos);
    }
    let size = lo.iter().zip(&hi).try_fold(1u64, |acc, (l, h)| {
        (h - l)
            .to_i64()
            .and_then(|w| acc.checked_mul(u64::try_from(w + 1).ok()?))
    });
    if size.is_some_and(|s| s <= ENUMERATE_BOX) {
        return Ok(enumerate_box(rows, &lo, &hi));
    }
    // The polytope: the polyhedron within the box.
    let mut bounded = rows.to_vec();
    for j in 0..r {
        bounded.push((Vector::unit(r, j), lo[j].clone()));
        bounded.push((Vector::unit(r, j).scale(&Integer::from(-1)), -&hi[j]));
    }
    by_slices(r, &bounded)
}

/// Whether w satisfies every row.
fn holds(rows: &[(Vector, Integer)], w: &[Integer]) -> bool {
    rows.iter().all(|(a, b)| dot(&a.0, w) >= *b)
}

fn dot(a: &[Integer], w: &[Integer]) -> Integer {
    a.iter()
        .zip(w)
        .fold(Integer::ZERO, |acc, (x, y)| &acc + &(x * y))
}

/// The first point of the box lo ≤ w ≤ hi (in lexicographic order) satisfying the rows.
fn enumerate_box(
    rows: &[(Vector, Integer)],
    lo: &[Integer],
    hi: &[Integer],
) -> Option<Vec<Integer>> {
    let r = lo.len();
    let mut w = lo.to_vec();
    loop {
        if holds(rows, &w) {
            return Some(w);
        }
        let mut i = r;
        loop {
            if i == 0 {
                return None;
            }
            i -= 1;
            if w[i] < hi[i] {
                w[i] = &w[i] + &Integer::ONE;
                w[(i + 1)..].clone_from_slice(&lo[(i + 1)..]);
                break;
            }
        }
    }
}

/// The vertices and the primitive extreme rays of {w : Mw ≥ β} (rank r), with the extreme rays
/// (w, t) of the homogenised cone they come from.
#[allow(clippy::type_complexity)]
fn vertices_and_rays_of(
    r: usize,
    rows: &[(Vector, Integer)],
) -> Result<(Vec<Vec<Q>>, Vec<Vector>, Vec<Vector>), AlgebraError> {
    let extreme = homogenised_rays(r, rows)?;
    let mut vertices = Vec::new();
    let mut rays = Vec::new();
    for ray in &extreme {
        if ray.0[r].is_zero() {
            rays.push(ray.clone());
        } else {
            let t = Q::from(ray.0[r].to_bigint());
            vertices.push(
                ray.0[..r]
                    .iter()
                    .map(|x| Q::from(x.to_bigint()) / &t)
                    .collect(),
            );
        }
    }
    Ok((vertices, rays, extreme))
}

fn integral_vertex(vertices: &[Vec<Q>]) -> Option<Vec<Integer>> {
    vertices
        .iter()
        .find(|v| v.iter().all(|x| x.is_integer()))
        .map(|v| v.iter().map(|x| Integer::from(x.to_integer())).collect())
}

/// The least and greatest value of f over the (nonempty) vertices.
fn range(vertices: &[Vec<Q>], f: impl Fn(&[Q]) -> Q) -> (Q, Q) {
    let mut values = vertices.iter().map(|v| f(v));
    let first = values.next().expect("a vertex");
    values.fold((first.clone(), first), |(lo, hi), x| {
        if x < lo {
            (x, hi)
        } else if x > hi {
            (lo, x)
        } else {
            (lo, hi)
        }
    })
}

/// An integer point of the polytope {w ∈ R^r : Mw ≥ β} (bounded), or `None`, by branching on the
/// lattice hyperplanes of the direction with the fewest of them (see the module documentation).
fn by_slices(r: usize, rows: &[(Vector, Integer)]) -> Result<Option<Vec<Integer>>, AlgebraError> {
    if crate::interrupt::requested() {
        return Err(AlgebraError::Interrupted);
    }
    if r == 0 {
        return Ok(rows.iter().all(|(_, b)| b.signum() <= 0).then(Vec::new));
    }
    if r == 1 {
        return Ok(interval_point(rows).map(|x| vec![x]));
    }
    let (vertices, ..) = vertices_and_rays_of(r, rows)?;
    if vertices.is_empty() {
        return Ok(None);
    }
    if let Some(v) = integral_vertex(&vertices) {
        return Ok(Some(v));
    }
    // The rounded centroid of the vertices, which a fat polytope contains.
    let n = Q::from_integer(num_bigint::BigInt::from(vertices.len()));
    let centroid: Vec<Integer> = (0..r)
        .map(|j| {
            let s: Q = vertices.iter().map(|v| v[j].clone()).sum();
            Integer::from((s / &n).round().to_integer())
        })
        .collect();
    if holds(rows, &centroid) {
        return Ok(Some(centroid));
    }
    // The direction with the fewest lattice hyperplanes meeting the polytope.
    let mut best: Option<(Integer, Vector, Integer, Integer)> = None;
    let candidates = rows
        .iter()
        .map(|(a, _)| primitive(a))
        .chain((0..r).map(|j| Vector::unit(r, j)));
    for a in candidates {
        if a.is_zero() {
            continue;
        }
        let (min, max) = range(&vertices, |v| {
            a.0.iter()
                .zip(v)
                .map(|(x, y)| Q::from(x.to_bigint()) * y)
                .sum()
        });
        let lo = Integer::from(min.ceil().to_integer());
        let hi = Integer::from(max.floor().to_integer());
        let count = &(&hi - &lo) + &Integer::ONE;
        if count.signum() <= 0 {
            return Ok(None);
        }
        if best.as_ref().is_none_or(|(c, ..)| count < *c) {
            best = Some((count, a, lo, hi));
        }
    }
    let (_, a, lo, hi) = best.expect("the unit vectors are candidates");
    // w = Uᵀt with a·Uᵀ = (g, 0, ..., 0), g = ±1 since a is primitive: a·w = k fixes t_1 = g·k.
    let hf = hermite_normal_form(&Matrix::from_rows(
        a.0.iter().map(|x| vec![x.clone()]).collect(),
    )?);
    let g = hf.h.get(0, 0).clone();
    let u = hf.u;
    let transformed: Vec<Vec<Integer>> = rows
        .iter()
        .map(|(c, _)| (0..r).map(|i| dot(&u.row(i).0, &c.0)).collect())
        .collect();
    let middle = (&lo + &hi).div_floor(&Integer::from(2)).expect("2 ≠ 0");
    let mut step = Integer::ZERO;
    loop {
        // middle, middle + 1, middle − 1, middle + 2, ...
        let mut tried = false;
        for k in [&middle + &step, &middle - &step] {
            if k < lo || k > hi || (step.is_zero() && tried) {
                continue;
            }
            tried = true;
            let t1 = &g * &k;
            let mut slice = Vec::with_capacity(rows.len());
            let mut empty = false;
            for (c, (_, b)) in transformed.iter().zip(rows) {
                let rest = Vector(c[1..].to_vec());
                let bound = b - &(&c[0] * &t1);
                if rest.is_zero() {
                    empty |= bound.signum() > 0;
                } else {
                    slice.push((rest, bound));
                }
            }
            if empty {
                continue;
            }
            if let Some(t) = by_slices(r - 1, &slice)? {
                let full: Vec<Integer> = std::iter::once(t1.clone()).chain(t).collect();
                let w = (0..r)
                    .map(|i| (0..r).fold(Integer::ZERO, |acc, j| &acc + &(u.get(j, i) * &full[j])))
                    .collect::<Vec<_>>();
                debug_assert!(holds(rows, &w));
                return Ok(Some(w));
            }
        }
        if !tried && step > Integer::ZERO {
            return Ok(None);
        }
        step = &step + &Integer::ONE;
    }
}

/// The least integer x with a·x ≥ b for every row (one-dimensional rows), or `None`.
fn interval_point(rows: &[(Vector, Integer)]) -> Option<Integer> {
    let mut lo: Option<Integer> = None;
    let mut hi: Option<Integer> = None;
    for (a, b) in rows {
        let a = &a.0[0];
        match a.signum() {
            0 => {
                if b.signum() > 0 {
                    return None;
                }
            }
            s if s > 0 => {
                // x ≥ ⌈b / a⌉
                let v = super::ceil_div(b, a);
                if lo.as_ref().is_none_or(|l| v > *l) {
                    lo = Some(v);
                }
            }
            _ => {
                // a < 0: x ≤ ⌊b / a⌋
                let v = b.div_floor(a).expect("a ≠ 0");
                if hi.as_ref().is_none_or(|h| v < *h) {
                    hi = Some(v);
                }
            }
        }
    }
    match (lo, hi) {
        (Some(l), Some(h)) => (l <= h).then_some(l),
        (Some(l), None) => Some(l),
        (None, Some(h)) => Some(h),
        (None, None) => Some(Integer::ZERO),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algebra::testing::v;
    use proptest::prelude::*;

    /// Up to 5 rows with large coefficients (thin slabs between nearly parallel facets) inside
    /// the box [−8, 8]^r.
    fn arb_polytope(r: usize) -> impl Strategy<Value = Vec<(Vector, Integer)>> {
        proptest::collection::vec(
            (proptest::collection::vec(-40i64..=40, r), -60i64..=60),
            1..=5,
        )
        .prop_map(move |rows| {
            let mut rows: Vec<(Vector, Integer)> = rows
                .into_iter()
                .map(|(a, b)| (v(&a), Integer::from(b)))
                .collect();
            for j in 0..r {
                rows.push((Vector::unit(r, j), Integer::from(-8)));
                rows.push((
                    Vector::unit(r, j).scale(&Integer::from(-1)),
                    Integer::from(-8),
                ));
            }
            rows
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Branching on hyperplanes finds a point exactly when the box has one.
        #[test]
        fn slices_agree_with_enumeration(rows in (2usize..=3).prop_flat_map(arb_polytope)) {
            let r = rows[0].0.dim();
            let lo = vec![Integer::from(-8); r];
            let hi = vec![Integer::from(8); r];
            let expected = enumerate_box(&rows, &lo, &hi);
            let found = by_slices(r, &rows).unwrap();
            prop_assert_eq!(found.is_some(), expected.is_some(), "rows {:?}", rows);
            if let Some(w) = found {
                prop_assert!(holds(&rows, &w));
            }
        }
    }

    #[test]
    fn a_thin_slab_far_from_the_origin() {
        // The slab 10^6 ≤ 7x + 4y + 28z ≤ 10^6 + 1 in [0, 10^5]^3 has points; the plane
        // 14x + 8y + 56z = 10^6 + 1 has none (its left side is even). Branch-and-bound on the
        // coordinates walks such a slab for a long time; one direction settles both.
        let rows = |lo: i64, hi: i64, scale: i64| {
            let a = v(&[7 * scale, 4 * scale, 28 * scale]);
            let mut rows = vec![
                (a.clone(), Integer::from(lo)),
                (a.scale(&Integer::from(-1)), Integer::from(-hi)),
            ];
            for j in 0..3 {
                rows.push((Vector::unit(3, j), Integer::ZERO));
                rows.push((
                    Vector::unit(3, j).scale(&Integer::from(-1)),
                    Integer::from(-100_000),
                ));
            }
            rows
        };
        let (w, needed) = point_and_facets(3, &rows(1_000_000, 1_000_001, 1))
            .unwrap()
            .unwrap();
        assert!(holds(&rows(1_000_000, 1_000_001, 1), &w));
        // Every row cuts out a facet of the slab within the box but z ≤ 10^5 (28z ≤ 10^6 + 1
        // already bounds z).
        assert_eq!(needed, [true, true, true, true, true, true, true, false]);
        assert_eq!(
            point_and_facets(3, &rows(1_000_001, 1_000_001, 2)).unwrap(),
            None
        );
    }
}
