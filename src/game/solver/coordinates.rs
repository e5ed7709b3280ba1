//! The solver's table coordinates z = T x, a unimodular change of the lattice Z^d.
//!
//! The table is kept in lexicographic order of z, rows running along the last coordinate. For the
//! order to be one in which every option of a position comes first, T is chosen so that:
//! - the last coordinate z_{d−1} is a *row axis*: a move γ with no other nonzero coordinate stays
//!   in its row, and is resolved by scanning the row in the direction ℓ grows;
//! - the first coordinate z_0 = μ·(key of x) is a *level*: μ is positive on the key part of every
//!   other move, so such a move leads to a row of a strictly lower level, evaluated before.
//!
//! The row axis is a coordinate of x where possible (the one of least |ℓ_r|, giving the longest
//! rows, and the last of those); when no coordinate works, the rows run inside the weight layers
//! of ℓ (first y = U x with y_0 = ℓ·x / gcd(ℓ)). The remaining key coordinates complete μ to a
//! basis of Z^{d−1}, keeping the coordinates of x where μ has an entry ±1.

use super::defeated::dot;
use super::layout::Inequality;
use super::{machine, SolveError};
use crate::algebra::Vector;

/// A unimodular change of coordinates y = U x (U and U^{-1}, integer, determinant ±1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unimodular {
    u: Vec<Vec<i64>>,
    inv: Vec<Vec<i64>>,
}

fn identity(d: usize) -> Vec<Vec<i64>> {
    (0..d)
        .map(|i| (0..d).map(|j| i64::from(i == j)).collect())
        .collect()
}

/// The product a·b of square matrices, `None` on overflow.
fn product(a: &[Vec<i64>], b: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
    let d = b.len();
    a.iter()
        .map(|row| {
            (0..d)
                .map(|j| {
                    let s: i128 = row
                        .iter()
                        .zip(b)
                        .map(|(&x, r)| i128::from(x) * i128::from(r[j]))
                        .sum();
                    i64::try_from(s).ok()
                })
                .collect()
        })
        .collect()
}

impl Unimodular {
    /// The identity of Z^d.
    pub(crate) fn identity(d: usize) -> Unimodular {
        Unimodular {
            u: identity(d),
            inv: identity(d),
        }
    }

    pub(crate) fn is_identity(&self) -> bool {
        self.u == identity(self.u.len())
    }

    /// U with first row the primitive vector v/gcd(v): column operations reduce v to e_1
    /// (vV = e_1), and U = V^{-1} is kept by the inverse row operations. `None` when v = 0 or on
    /// overflow.
    pub(crate) fn with_first_row(v: &[i64]) -> Option<Unimodular> {
        let d = v.len();
        if let Some(i) = v.iter().position(|x| x.abs() == 1) {
            let rest: Vec<usize> = (0..d).filter(|&j| j != i).collect();
            return Self::with_unit_first_row(v, i, &rest);
        }
        let (mut v, mut cols, mut rows) = (v.to_vec(), identity(d), identity(d));
        loop {
            let nonzero: Vec<usize> = (0..d).filter(|&i| v[i] != 0).collect();
            let &i = nonzero.iter().min_by_key(|&&i| v[i].unsigned_abs())?;
            if nonzero.len() == 1 {
                if v[i].abs() != 1 {
                    // Not primitive: divide by the gcd first.
                    let g = v[i].abs();
                    v[i] /= g;
                }
                v.swap(0, i);
                for row in cols.iter_mut() {
                    row.swap(0, i);
                }
                rows.swap(0, i);
                if v[0] < 0 {
                    v[0] = 1;
                    for row in cols.iter_mut() {
                        row[0] = -row[0];
                    }
                    for x in rows[0].iter_mut() {
                        *x = -*x;
                    }
                }
                return Some(Unimodular { u: rows, inv: cols });
            }
            for &j in &nonzero {
                if j == i {
                    continue;
                }
                let q = v[j].div_euclid(v[i]);
                v[j] -= q * v[i];
                for row in cols.iter_mut() {
                    row[j] = row[j].checked_sub(q.checked_mul(row[i])?)?;
                }
                let rj = rows[j].clone();
                for (x, y) in rows[i].iter_mut().zip(rj) {
                    *x = x.checked_add(q.checked_mul(y)?)?;
                }
            }
        }
    }

    /// U with rows (v, e_j for j in `rest`), where v_i = ±1 and `rest` lists the other
    /// coordinates in the order wanted: x_i = v_i (y_0 − Σ_{j≠i} v_j x_j).
    fn with_unit_first_row(v: &[i64], i: usize, rest: &[usize]) -> Option<Unimodular> {
        let d = v.len();
        let mut u = vec![v.to_vec()];
        u.extend(
            rest.iter()
                .map(|&j| (0..d).map(|c| i64::from(c == j)).collect()),
        );
        let s = v[i];
        let mut inv = vec![vec![0; d]; d];
        inv[i][0] = s;
        for (p, &j) in rest.iter().enumerate() {
            inv[j][p + 1] = 1;
            inv[i][p + 1] = (-s).checked_mul(v[j])?;
        }
        Some(Unimodular { u, inv })
    }

    /// First `self`, then `then`: y = then.U · self.U · x.
    fn then(&self, then: &Unimodular) -> Option<Unimodular> {
        Some(Unimodular {
            u: product(&then.u, &self.u)?,
            inv: product(&self.inv, &then.inv)?,
        })
    }

    /// The block-diagonal map acting by `self` on the first coordinates and fixing the last `extra`.
    fn extended(&self, extra: usize) -> Unimodular {
        let k = self.u.len();
        let grow = |m: &[Vec<i64>]| -> Vec<Vec<i64>> {
            (0..k + extra)
                .map(|i| {
                    (0..k + extra)
                        .map(|j| match (i < k, j < k) {
                            (true, true) => m[i][j],
                            (false, false) => i64::from(i == j),
                            _ => 0,
                        })
                        .collect()
                })
                .collect()
        };
        Unimodular {
            u: grow(&self.u),
            inv: grow(&self.inv),
        }
    }

    /// The permutation moving coordinate r last: (x_0, …, x̂_r, …, x_{d−1}, x_r).
    fn row_axis_last(d: usize, r: usize) -> Unimodular {
        let order: Vec<usize> = (0..d).filter(|&j| j != r).chain([r]).collect();
        let u: Vec<Vec<i64>> = order
            .iter()
            .map(|&j| (0..d).map(|c| i64::from(c == j)).collect())
            .collect();
        let mut inv = vec![vec![0; d]; d];
        for (i, &j) in order.iter().enumerate() {
            inv[j][i] = 1;
        }
        Unimodular { u, inv }
    }

    fn apply(m: &[Vec<i64>], p: &[i64]) -> Vec<i64> {
        m.iter().map(|row| dot(row, p) as i64).collect()
    }

    /// y = U x.
    pub(crate) fn to_y(&self, x: &[i64]) -> Vec<i64> {
        Self::apply(&self.u, x)
    }

    /// y = U x, `None` when a coordinate leaves the machine range.
    pub(crate) fn to_y_checked(&self, x: &[i64]) -> Option<Vec<i64>> {
        self.u
            .iter()
            .map(|row| i64::try_from(dot(row, x)).ok())
            .collect()
    }

    /// x = U^{-1} y.
    pub(crate) fn to_x(&self, y: &[i64]) -> Vec<i64> {
        Self::apply(&self.inv, y)
    }

    /// a·x ≥ b as (a U^{-1})·y ≥ b.
    pub(crate) fn inequality(&self, (a, b): &Inequality) -> Inequality {
        let d = a.len();
        (
            (0..d)
                .map(|k| (0..d).map(|i| a[i] * self.inv[i][k]).sum())
                .collect(),
            *b,
        )
    }
}

/// A row axis and an order μ on the other coordinates positive on every off-axis move component.
fn choose_axis(d: usize, moves: &[Vec<i64>], ell: &[i64]) -> Option<(usize, Vec<i64>)> {
    // Among equally long rows the last coordinate is preferred: the table's rows are then runs
    // of positions in the lexicographic order of x itself, which readers of a solved weight
    // region (`stratify`) copy a word at a time.
    let mut axes: Vec<usize> = (0..d).collect();
    axes.sort_by_key(|&r| (ell[r].unsigned_abs(), std::cmp::Reverse(r)));
    for r in axes {
        let project = |v: &[i64]| -> Vec<i64> {
            v.iter()
                .enumerate()
                .filter(|&(j, _)| j != r)
                .map(|(_, &x)| x)
                .collect()
        };
        let off: Vec<Vec<i64>> = moves
            .iter()
            .map(|m| project(m))
            .filter(|m| m.iter().any(|&x| x != 0))
            .collect();
        let ell_off = project(ell);
        if off.iter().all(|m| dot(&ell_off, m) > 0) {
            return Some((r, ell_off));
        }
        let vs: Vec<Vector> = off.iter().map(|m| Vector::from_i64s(m)).collect();
        if let Ok(mu) = crate::algebra::lp::positive_functional(d - 1, &vs) {
            if let Ok(mu) = machine(&mu) {
                return Some((r, mu));
            }
        }
    }
    None
}

/// Key coordinates (λ, w) with λ a level positive on every cross move's key part γ'.
///
/// The level is μ or, better, a functional like it with an entry ±1 at some coordinate i: then
/// the other coordinates stay coordinates of the key, ordered with the largest |ℓ_j| first so
/// that the last (innermost) one has the longest range, and x_i follows from the level. Rows are
/// then walked over nearly as in the original coordinates. Otherwise μ/gcd(μ) is completed to a
/// basis by Euclid's algorithm.
fn level_coordinates(mu: &[i64], cross: &[Vec<i64>], ell: &[i64]) -> Option<Unimodular> {
    let k = mu.len();
    let valid = |m: &[i64]| cross.iter().all(|g| dot(m, g) > 0);
    let mut candidates: Vec<Vec<i64>> = vec![mu.to_vec()];
    // μ shifted down so that one entry becomes 1 (heap games: ℓ_j = j, shifted by one).
    let mut by_size: Vec<usize> = (0..k).filter(|&j| mu[j] > 1).collect();
    by_size.sort_by_key(|&j| mu[j]);
    for j in by_size {
        let c = mu[j] - 1;
        candidates.push(mu.iter().map(|&m| m - c).collect());
    }
    for m in candidates {
        if !valid(&m) {
            continue;
        }
        // The unit coordinate whose ℓ is largest is the one derived (its range is shortest).
        let Some(i) = (0..k)
            .filter(|&j| m[j].abs() == 1)
            .max_by_key(|&j| (ell[j].unsigned_abs(), j))
        else {
            continue;
        };
        let mut rest: Vec<usize> = (0..k).filter(|&j| j != i).collect();
        rest.sort_by_key(|&j| (std::cmp::Reverse(ell[j].unsigned_abs()), j));
        return Unimodular::with_unit_first_row(&m, i, &rest);
    }
    Unimodular::with_first_row(mu)
}

/// The table coordinates for a game with these moves and functional ℓ (see the module header).
pub(crate) fn table_coordinates(moves: &[Vec<i64>], ell: &[i64]) -> Result<Unimodular, SolveError> {
    let d = ell.len();
    let overflow = || SolveError::TooLarge {
        detail: "the change of coordinates overflows machine integers".into(),
    };
    let (first, r, mu) = match choose_axis(d, moves, ell) {
        Some((r, mu)) => (Unimodular::identity(d), r, mu),
        None => {
            // Rows inside the weight layers: in y = U x with y_0 = ℓ·x / gcd, every move has a
            // positive first coordinate.
            let t = Unimodular::with_first_row(ell).ok_or_else(overflow)?;
            let moved: Vec<Vec<i64>> = moves.iter().map(|m| t.to_y(m)).collect();
            let ell_y = t.inequality(&(ell.to_vec(), 0)).0;
            let (r, mu) = choose_axis(d, &moved, &ell_y).ok_or_else(|| SolveError::TooLarge {
                detail: "no order of the rows was found".into(),
            })?;
            (t, r, mu)
        }
    };
    let mut t = first
        .then(&Unimodular::row_axis_last(d, r))
        .ok_or_else(overflow)?;
    if d >= 2 && mu.iter().any(|&m| m != 0) {
        // The key coordinates in the frame so far: moves' key parts and ℓ.
        let ell_t = t.inequality(&(ell.to_vec(), 0)).0;
        let cross: Vec<Vec<i64>> = moves
            .iter()
            .map(|m| t.to_y(m)[..d - 1].to_vec())
            .filter(|m| m.iter().any(|&x| x != 0))
            .collect();
        let level = level_coordinates(&mu, &cross, &ell_t[..d - 1]).ok_or_else(overflow)?;
        t = t.then(&level.extended(1)).ok_or_else(overflow)?;
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_rows_are_completed_to_unimodular_maps() {
        for v in [
            vec![2, 3, 4, 5],
            vec![0, 1, 3],
            vec![3, -1, 2, 7],
            vec![4, 6],
            vec![0, 0, -5],
            vec![1],
        ] {
            let t = Unimodular::with_first_row(&v).unwrap();
            let d = v.len();
            assert_eq!(product(&t.u, &t.inv), Some(identity(d)), "{v:?}");
            let g = v.iter().fold(0i64, |g, &x| num_integer::gcd(g, x));
            let first: Vec<i64> = v.iter().map(|x| x / g).collect();
            assert_eq!(t.u[0], first, "{v:?}");
        }
    }

    #[test]
    fn table_coordinates_put_every_cross_move_on_a_lower_level() {
        // [GM09] Example 8.12's moves, moves no coordinate axis orders, and moves whose rows
        // could run along any axis (all of ℓ equal). ℓ is positive on the moves, as the
        // solver's functional is.
        let example_8_12: Vec<Vec<i64>> = crate::game::papers::gm09_example_8_12()
            .rules()
            .moves()
            .iter()
            .map(|m| machine(m).unwrap())
            .collect();
        let cases: Vec<(Vec<Vec<i64>>, Vec<i64>)> = vec![
            (example_8_12, vec![1, 2, 3, 4, 5]),
            (
                vec![
                    vec![1, -1, 0],
                    vec![0, 1, -1],
                    vec![-1, 0, 2],
                    vec![1, 1, 1],
                ],
                vec![5, 4, 3],
            ),
            (
                vec![
                    vec![0, 0, 0, 2],
                    vec![0, 0, 1, 0],
                    vec![0, 2, 0, 0],
                    vec![1, 0, 0, 0],
                    vec![2, 2, 2, 1],
                ],
                vec![1, 1, 1, 1],
            ),
        ];
        for (moves, ell) in cases {
            assert!(moves.iter().all(|m| dot(&ell, m) > 0));
            let t = table_coordinates(&moves, &ell).unwrap();
            let d = ell.len();
            assert_eq!(product(&t.u, &t.inv), Some(identity(d)));
            let ell_z = t.inequality(&(ell.clone(), 0)).0;
            for m in &moves {
                let z = t.to_y(m);
                assert_eq!(t.to_x(&z), *m);
                if z[..d - 1].iter().any(|&x| x != 0) {
                    assert!(z[0] > 0, "{m:?} ↦ {z:?}");
                } else {
                    assert!(dot(&ell_z, &z) > 0);
                }
            }
        }
        // With all of ℓ equal, the rows run along the last coordinate of x.
        let t =
            table_coordinates(&[vec![1, 0, 0], vec![0, 1, 0], vec![0, 0, 1]], &[1, 1, 1]).unwrap();
        assert_eq!(t.to_x(&[0, 0, 1]), vec![0, 0, 1]);
    }
}
