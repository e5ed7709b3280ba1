//! The extreme rays of a pointed polyhedral cone {y ∈ R^k : a·y ≥ 0} in machine integers: the
//! double description method of [`super::polyhedral`], with every product checked for overflow.
//!
//! It serves the small cones of the exact emptiness test behind basic sets (the homogenisation of
//! {w : Mw ≥ β}, a handful of rows with entries in the tens), which the exact method builds with
//! rational elimination and big integers. The answer is the same set of primitive extreme rays,
//! sorted; `None` when a value would leave i64, when the rows do not span R^k (the cone is not
//! pointed) or when there are more than 128 rows, and the caller then computes exactly.

/// The primitive extreme rays of the pointed cone {y : a·y ≥ 0 for every row a} ⊂ R^k, sorted,
/// or `None` (see the module documentation).
pub(crate) fn pointed_rays(k: usize, rows: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
    let rows: Vec<&[i64]> = rows
        .iter()
        .filter(|r| r.iter().any(|&x| x != 0))
        .map(Vec::as_slice)
        .collect();
    if k == 0 || rows.len() > 128 || rows.iter().any(|r| r.len() != k) {
        return None;
    }
    let start = independent_rows(k, &rows)?;
    // The cone of the k starting rows B is simplicial: its rays are the columns of B⁻¹ (ray i on
    // every starting hyperplane but the i-th, on its positive side), read from D·B⁻¹.
    let starting: Vec<&[i64]> = start.iter().map(|&i| rows[i]).collect();
    let (det, scaled_inverse) = adjugate(&starting)?;
    let mut rays: Vec<Ray> = Vec::with_capacity(k);
    for (i, &row) in start.iter().enumerate() {
        let y = scaled_inverse
            .iter()
            .map(|r| i64::try_from(if det > 0 { r[i] } else { r[i].checked_neg()? }).ok())
            .collect::<Option<Vec<i64>>>()?;
        let zeros = start
            .iter()
            .filter(|&&j| j != row)
            .fold(0u128, |z, &j| z | 1 << j);
        rays.push(Ray {
            ray: primitive(y),
            zeros,
        });
    }
    for (idx, a) in rows.iter().enumerate() {
        if !start.contains(&idx) {
            rays = add_inequality(k, rays, idx, a)?;
        }
    }
    let mut out: Vec<Vec<i64>> = rays.into_iter().map(|r| r.ray).collect();
    out.sort_unstable();
    out.dedup();
    Some(out)
}

/// A ray of the double description, with the rows it is tight on (bit j for row j).
struct Ray {
    ray: Vec<i64>,
    zeros: u128,
}

/// One step of the double description (as in [`super::polyhedral`]): the cone cut by a·y ≥ 0.
/// Rays on the positive side and on the hyperplane stay; each adjacent pair (r⁺, r⁻) across it
/// gives (a·r⁺)r⁻ − (a·r⁻)r⁺, two rays being adjacent when they share at least k − 2 tight rows
/// and no third ray is tight on all of those.
fn add_inequality(k: usize, rays: Vec<Ray>, idx: usize, a: &[i64]) -> Option<Vec<Ray>> {
    let values: Vec<i64> = rays.iter().map(|r| dot(a, &r.ray)).collect::<Option<_>>()?;
    let mut new_rays = Vec::new();
    for (p, rp) in rays.iter().enumerate().filter(|&(p, _)| values[p] > 0) {
        for (q, rq) in rays.iter().enumerate().filter(|&(q, _)| values[q] < 0) {
            let common = rp.zeros & rq.zeros;
            if (common.count_ones() as usize) + 2 < k {
                continue;
            }
            let adjacent = rays
                .iter()
                .enumerate()
                .all(|(t, rt)| t == p || t == q || common & !rt.zeros != 0);
            if adjacent {
                let ray = rq
                    .ray
                    .iter()
                    .zip(&rp.ray)
                    .map(|(&x, &y)| {
                        x.checked_mul(values[p])?
                            .checked_sub(y.checked_mul(values[q])?)
                    })
                    .collect::<Option<Vec<i64>>>()?;
                new_rays.push(Ray {
                    ray: primitive(ray),
                    zeros: common | 1 << idx,
                });
            }
        }
    }
    let mut kept: Vec<Ray> = rays
        .into_iter()
        .zip(&values)
        .filter(|(_, &v)| v >= 0)
        .map(|(mut r, &v)| {
            if v == 0 {
                r.zeros |= 1 << idx;
            }
            r
        })
        .collect();
    kept.extend(new_rays);
    Some(kept)
}

fn dot(a: &[i64], y: &[i64]) -> Option<i64> {
    a.iter()
        .zip(y)
        .try_fold(0i64, |s, (x, z)| s.checked_add(x.checked_mul(*z)?))
}

/// y divided by the gcd of its entries.
fn primitive(y: Vec<i64>) -> Vec<i64> {
    let g = y
        .iter()
        .fold(0u128, |g, &x| gcd(g, u128::from(x.unsigned_abs())));
    if g <= 1 {
        return y;
    }
    // g divides every entry, so each quotient fits.
    y.into_iter().map(|x| x / g as i64).collect()
}

/// The indices of the first k rows (in order) that are linearly independent, by fraction-free
/// elimination in i128; `None` when the rows do not span R^k or a value overflows.
fn independent_rows(k: usize, rows: &[&[i64]]) -> Option<Vec<usize>> {
    let mut echelon: Vec<(usize, Vec<i128>)> = Vec::with_capacity(k);
    let mut chosen = Vec::with_capacity(k);
    for (i, row) in rows.iter().enumerate() {
        let mut r: Vec<i128> = row.iter().map(|&x| i128::from(x)).collect();
        for (p, b) in &echelon {
            if r[*p] != 0 {
                let (s, t) = (b[*p], r[*p]);
                for (x, y) in r.iter_mut().zip(b) {
                    *x = x.checked_mul(s)?.checked_sub(y.checked_mul(t)?)?;
                }
                let g = r.iter().fold(0u128, |g, &x| gcd(g, x.unsigned_abs()));
                if g > 1 {
                    r.iter_mut().for_each(|x| *x /= g as i128);
                }
            }
        }
        if let Some(p) = r.iter().position(|&x| x != 0) {
            echelon.push((p, r));
            chosen.push(i);
            if chosen.len() == k {
                return Some(chosen);
            }
        }
    }
    None
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// D and D·B⁻¹ for a nonsingular square matrix B (rows given), D = ±det B, by fraction-free
/// Gauss–Jordan elimination (Bareiss: every division is exact, and entries stay minors of [B | I]);
/// `None` when B is singular or a value leaves i128.
fn adjugate(b: &[&[i64]]) -> Option<(i128, Vec<Vec<i128>>)> {
    let k = b.len();
    let mut m: Vec<Vec<i128>> = b
        .iter()
        .enumerate()
        .map(|(i, row)| {
            row.iter()
                .map(|&x| i128::from(x))
                .chain((0..k).map(|j| i128::from(i == j)))
                .collect()
        })
        .collect();
    let mut previous = 1i128;
    for c in 0..k {
        let p = (c..k).find(|&r| m[r][c] != 0)?;
        m.swap(p, c);
        let pivot_row = m[c].clone();
        let pivot = pivot_row[c];
        for (r, row) in m.iter_mut().enumerate() {
            if r == c {
                continue;
            }
            let factor = row[c];
            for (x, &y) in row.iter_mut().zip(&pivot_row) {
                *x = x.checked_mul(pivot)?.checked_sub(factor.checked_mul(y)?)? / previous;
            }
        }
        previous = pivot;
    }
    // Now m = [D·I | D·B⁻¹] (row operations E with E·B = D·I make E = D·B⁻¹); the swaps make
    // D = ±det B.
    let det = previous;
    Some((det, m.into_iter().map(|row| row[k..].to_vec()).collect()))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::algebra::polyhedral::ConeData;
    use crate::algebra::Vector;

    #[test]
    fn the_orthant_and_a_square_cone() {
        let units = vec![vec![1, 0, 0], vec![0, 1, 0], vec![0, 0, 1]];
        let sorted = vec![vec![0, 0, 1], vec![0, 1, 0], vec![1, 0, 0]];
        assert_eq!(pointed_rays(3, &units), Some(sorted));
        // x ± y ≥ 0, x ± z ≥ 0: the cone over a square, four rays.
        let square = vec![vec![1, 1, 0], vec![1, -1, 0], vec![1, 0, 1], vec![1, 0, -1]];
        assert_eq!(
            pointed_rays(3, &square),
            Some(vec![
                vec![1, -1, -1],
                vec![1, -1, 1],
                vec![1, 1, -1],
                vec![1, 1, 1]
            ])
        );
    }

    #[test]
    fn not_pointed_or_too_large_is_left_to_the_exact_method() {
        // y ≥ 0 in R^2 contains the line of x.
        assert_eq!(pointed_rays(2, &[vec![0, 1]]), None);
        let huge = vec![vec![i64::MAX, 1], vec![1, i64::MAX], vec![-1, i64::MAX]];
        assert_eq!(pointed_rays(2, &huge), None);
    }

    #[test]
    fn adjugates() {
        // One swap: D = −det B = 1.
        let (det, inverse) = adjugate(&[&[0, 1], &[1, 0]]).unwrap();
        assert_eq!((det, inverse), (1, vec![vec![0, 1], vec![1, 0]]));
        // The path matrix: det 4, and 4·B⁻¹ = [[3, 2, 1], [2, 4, 2], [1, 2, 3]].
        let (det, inverse) = adjugate(&[&[2, -1, 0], &[-1, 2, -1], &[0, -1, 2]]).unwrap();
        assert_eq!(det, 4);
        assert_eq!(inverse, vec![vec![3, 2, 1], vec![2, 4, 2], vec![1, 2, 3]]);
        assert_eq!(adjugate(&[&[1, 2], &[2, 4]]), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The same extreme rays as the exact double description, for random cones (`None` for
        /// those that contain a line).
        #[test]
        fn agrees_with_the_exact_method(
            k in 2usize..=5,
            extra in proptest::collection::vec(proptest::collection::vec(-4i64..=4, 5), 0..9),
            spanning in any::<bool>(),
        ) {
            // With a tilted orthant's rows the cone is pointed; without them it may not be.
            let mut rows: Vec<Vec<i64>> = Vec::new();
            if spanning {
                rows = (0..k)
                    .map(|i| (0..k).map(|j| i64::from(i == j)).collect())
                    .collect();
                rows[0][k - 1] = -1;
            }
            rows.extend(extra.iter().map(|r| r[..k].to_vec()));
            let exact = ConeData::from_inequalities(
                k,
                &rows.iter().map(|r| Vector::from_i64s(r)).collect::<Vec<_>>(),
            )
            .unwrap();
            let machine = pointed_rays(k, &rows);
            if exact.lineality().is_empty() {
                let expected: Vec<Vector> = exact.rays().to_vec();
                let got: Vec<Vector> = machine
                    .expect("small entries fit")
                    .iter()
                    .map(|r| Vector::from_i64s(r))
                    .collect();
                prop_assert_eq!(got, expected);
            } else {
                prop_assert_eq!(machine, None);
            }
        }
    }
}
