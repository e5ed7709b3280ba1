//! The lattice points of a polytope {x : a·x ≥ b}, laid out as *rows* along one coordinate (the
//! row axis): for each lattice point x' of the projection that forgets the row axis, the integers
//! x_r with (x', x_r) in the polytope form an interval. The solver stores one bit per lattice point,
//! row after row, and evaluates whole rows at once.
//!
//! Rows are enumerated lexicographically in x' (by `rows`) by bounding each coordinate with the
//! facets of the polytope's projection to the coordinates up to it (computed exactly from the
//! vertices here).

use super::SolveError;
use crate::algebra::polyhedral::{polyhedron_data, ConeData, PolyhedronData};
use crate::algebra::{AlgebraError, Integer, Matrix, Polyhedron, Vector};

/// An integer inequality a·x ≥ b.
pub(crate) type Inequality = (Vec<i64>, i64);

/// The largest coordinate or coefficient the solver handles with machine integers.
pub(crate) const COORD_LIMIT: i64 = 1 << 30;

fn small(x: &Integer, what: &str) -> Result<i64, SolveError> {
    x.to_i64()
        .filter(|v| v.abs() <= COORD_LIMIT)
        .ok_or_else(|| SolveError::TooLarge {
            detail: format!("{what} {x} is beyond the solver's coordinate range (±2^30)"),
        })
}

/// Integer inequalities with machine-integer entries.
pub(crate) fn to_machine(rows: &[(Vector, Integer)]) -> Result<Vec<Inequality>, SolveError> {
    rows.iter()
        .map(|(a, b)| {
            let a =
                a.0.iter()
                    .map(|x| small(x, "a coefficient"))
                    .collect::<Result<Vec<_>, _>>()?;
            Ok((a, small(b, "a bound")?))
        })
        .collect()
}

fn floor_div(a: i128, b: i128) -> i128 {
    a.div_euclid(b) - if b < 0 && a.rem_euclid(b) != 0 { 1 } else { 0 }
}

fn ceil_div(a: i128, b: i128) -> i128 {
    -floor_div(-a, b)
}

/// The interval of z_k allowed by inequalities over z_0..=z_k, given z_0..z_{k-1}
/// (`None` for an unbounded side; empty when lo > hi).
pub(crate) fn interval(
    system: &[Inequality],
    prefix: &[i64],
    k: usize,
) -> (Option<i128>, Option<i128>) {
    let (mut lo, mut hi): (Option<i128>, Option<i128>) = (None, None);
    for (a, b) in system {
        let rest: i128 = a[..k]
            .iter()
            .zip(prefix)
            .map(|(&x, &z)| i128::from(x) * i128::from(z))
            .sum();
        let c = i128::from(a[k]);
        let rhs = i128::from(*b) - rest;
        // Machine division when the right-hand side fits (it nearly always does).
        let (l, h) = match i64::try_from(rhs) {
            Ok(r) if c != 0 => {
                let c = c as i64;
                let q = r.div_euclid(c);
                let exact = r.rem_euclid(c) == 0;
                // div_euclid rounds toward −∞ for c > 0 and toward +∞ for c < 0.
                if c > 0 {
                    (i128::from(if exact { q } else { q + 1 }), 0)
                } else {
                    (0, i128::from(if exact { q } else { q - 1 }))
                }
            }
            _ if c > 0 => (ceil_div(rhs, c), 0),
            _ if c < 0 => (0, floor_div(rhs, c)),
            _ => (0, 0),
        };
        if c > 0 {
            lo = Some(lo.map_or(l, |v| v.max(l)));
        } else if c < 0 {
            hi = Some(hi.map_or(h, |v| v.min(h)));
        } else if rhs > 0 {
            return (Some(1), Some(0));
        }
    }
    (lo, hi)
}

/// The vertices of the polytope {x : system} (`None` when it is empty; an error when unbounded).
pub(crate) fn bounded_polytope(
    system: &[Inequality],
) -> Result<Option<PolyhedronData>, SolveError> {
    let a = Matrix::from_rows(
        system
            .iter()
            .map(|(a, _)| a.iter().map(|&x| Integer::from(x)).collect())
            .collect(),
    )?;
    let b = system
        .iter()
        .map(|(_, b)| num_rational::BigRational::from_integer((*b).into()))
        .collect();
    let data = polyhedron_data(&Polyhedron::from_inequalities(a, b)?)?;
    if data.is_empty() {
        return Ok(None);
    }
    if !data.is_bounded() {
        return Err(SolveError::Unbounded);
    }
    Ok(Some(data))
}

/// ⌊ℓ·v⌋ at each vertex v of a polyhedron.
pub(crate) fn vertex_weights(data: &PolyhedronData, ell: &[i64]) -> Vec<num_bigint::BigInt> {
    data.vertices()
        .iter()
        .map(|v| {
            v.iter()
                .zip(ell)
                .map(|(x, &l)| x * num_rational::BigRational::from_integer(l.into()))
                .sum::<num_rational::BigRational>()
                .floor()
                .to_integer()
        })
        .collect()
}

/// For each k, inequalities in the permuted coordinates z_0..=z_k (z_j = x_{order[j]}) describing
/// the projection of the polytope to those coordinates; the last is the polytope itself. `None`
/// when the polytope has no points.
pub(crate) fn projections(
    system: &[Inequality],
    order: &[usize],
) -> Result<Option<Vec<Vec<Inequality>>>, SolveError> {
    let d = order.len();
    let full: Vec<Inequality> = system
        .iter()
        .map(|(a, b)| (order.iter().map(|&j| a[j]).collect(), *b))
        .collect();
    let Some(data) = bounded_polytope(system)? else {
        return Ok(None);
    };
    // Homogenised vertices (den·v, den), permuted.
    let vertices: Vec<(Vec<num_bigint::BigInt>, num_bigint::BigInt)> = data
        .vertices()
        .iter()
        .map(|v| {
            let den = v.iter().fold(num_bigint::BigInt::from(1), |l, q| {
                num_integer::lcm(l, q.denom().clone())
            });
            let num = order
                .iter()
                .map(|&j| {
                    (&v[j] * num_rational::BigRational::from_integer(den.clone())).to_integer()
                })
                .collect();
            (num, den)
        })
        .collect();
    let mut out = Vec::with_capacity(d);
    for k in 0..d.saturating_sub(1) {
        let gens: Vec<Vector> = vertices
            .iter()
            .map(|(num, den)| {
                Vector(
                    num[..=k]
                        .iter()
                        .chain([den])
                        .map(|x| Integer::from(x.clone()))
                        .collect(),
                )
            })
            .collect();
        let cone = ConeData::from_generators(k + 2, &gens)?;
        let mut rows: Vec<(Vector, Integer)> = Vec::new();
        let split = |r: &Vector| (Vector(r.0[..=k].to_vec()), -r.0[k + 1].clone());
        for f in cone.facets() {
            rows.push(split(f));
        }
        for e in cone.equations() {
            rows.push(split(e));
            rows.push(split(&e.scale(&Integer::from(-1))));
        }
        out.push(to_machine(&rows)?);
    }
    out.push(full);
    Ok(Some(out))
}

impl From<AlgebraError> for SolveError {
    fn from(e: AlgebraError) -> SolveError {
        SolveError::Algebra(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (key, lo, hi) of every row, by the walk over them.
    fn rows_of(levels: &[Vec<Inequality>]) -> Vec<(Vec<i64>, i64, i64)> {
        let layout = super::super::rows::Layout::new(levels);
        let mut walk = layout.first();
        let mut rows = Vec::new();
        while !walk.done {
            rows.push((walk.key.clone(), walk.lo, walk.lo + walk.len as i64 - 1));
            walk.advance();
        }
        rows
    }

    #[test]
    fn rows_of_a_triangle() {
        // x ≥ 0, y ≥ 0, x + 2y ≤ 5, rows along x (order: y, then x).
        let system = vec![(vec![1, 0], 0), (vec![0, 1], 0), (vec![-1, -2], -5)];
        let levels = projections(&system, &[1, 0]).unwrap().unwrap();
        let rows = rows_of(&levels);
        assert_eq!(
            rows,
            vec![(vec![0], 0, 5), (vec![1], 0, 3), (vec![2], 0, 1)]
        );
    }

    #[test]
    fn rows_of_a_rational_polygon() {
        // 2x ≥ 1, 3y ≥ 1, x + y ≤ 3: lattice points with x ≥ 1, y ≥ 1, x + y ≤ 3.
        let system = vec![(vec![2, 0], 1), (vec![0, 3], 1), (vec![-1, -1], -3)];
        let levels = projections(&system, &[0, 1]).unwrap().unwrap();
        let rows = rows_of(&levels);
        assert_eq!(rows, vec![(vec![1], 1, 2), (vec![2], 1, 1)]);
    }
}
