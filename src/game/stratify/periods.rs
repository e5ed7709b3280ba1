//! The first guess of `stratify`: eventual periods along the coordinate axes. For each axis i the
//! least preperiod t_i and period p_i are sought with P(x) = P(x + p_i e_i) whenever x_i ≥ t_i,
//! on every solved pair; if every axis has one, the guess is
//! P = ⊎_b (b + N{p_i e_i : b_i ≥ t_i}) over the P-positions b of the box 0 ≤ b_i < t_i + p_i
//! (disjoint: each point reduces to a single b).

use std::collections::BTreeMap;

use crate::algebra::{
    AffineModule, AffineSemigroup, AlgebraError, Integer, Stratification, StratifiedSet, Vector,
};

use super::region::WeightRegion;

/// The least (preperiod, period) along axis i consistent with the region, with enough evidence:
/// t + 2p must fit on the axis, and t + p ≤ half of it.
pub(super) fn period_along(region: &WeightRegion, i: usize, ell: &[i64]) -> Option<(i64, i64)> {
    let reach = region.bound() / ell[i].max(1);
    let most = reach / 2;
    if most < 1 {
        return None;
    }
    // last[p]: 1 + the largest x_i with P(x) ≠ P(x + p e_i) (0 when none).
    let last = region.last_mismatches(i, most as usize)?;
    (1..=most)
        .map(|p| (last[p as usize], p))
        .filter(|&(t, p)| t + p <= most && t + 2 * p <= reach)
        .min_by_key(|&(t, p)| (t + p, p))
}

/// The guess ⊎_b (b + N{p_i e_i : b_i ≥ t_i}) as a stratification, grouping the offsets by their
/// generators; `None` when part of the base box lies outside the region.
pub(super) fn periodic_guess(
    region: &WeightRegion,
    t: &[i64],
    p: &[i64],
) -> Option<Stratification> {
    let modules = box_modules(region, t, p, true)?;
    if modules.is_empty() {
        return None;
    }
    Stratification::new(modules).ok()
}

/// N^d less the guess: the same modules over the points b of the box outside P, since those of
/// all its points partition N^d (each point of N^d reduces to a single b). Verifying the guess
/// with it spares `verify` the guess's complement in the set algebra, which cuts N^d by each of
/// hundreds of pieces (4 of the 9 seconds of a random-rules game with periods (4, 4, 8, 32)).
/// `None` when part of the base box lies outside the region.
pub(super) fn periodic_outside(
    region: &WeightRegion,
    t: &[i64],
    p: &[i64],
) -> Option<Result<StratifiedSet, AlgebraError>> {
    let modules = box_modules(region, t, p, false)?;
    Some(StratifiedSet::from_disjoint_modules(t.len(), &modules))
}

/// The modules b + N{p_i e_i : b_i ≥ t_i} over the points b of the box 0 ≤ b_i < t_i + p_i that
/// are in P (`in_p`) or not, grouped by their generators; `None` when part of the box lies
/// outside the region.
fn box_modules(
    region: &WeightRegion,
    t: &[i64],
    p: &[i64],
    in_p: bool,
) -> Option<Vec<AffineModule>> {
    let d = t.len();
    let hi: Vec<i64> = t.iter().zip(p).map(|(a, b)| a + b - 1).collect();
    // The base box must lie in the region: its far corner does.
    region.index(&hi)?;
    let mut groups: BTreeMap<Vec<usize>, Vec<Vector>> = BTreeMap::new();
    let mut b = vec![0i64; d];
    loop {
        if region.is_p(&b)? == in_p {
            let free: Vec<usize> = (0..d).filter(|&i| b[i] >= t[i]).collect();
            groups.entry(free).or_default().push(Vector::from_i64s(&b));
        }
        // The next point of the box, as an odometer.
        let Some(i) = (0..d).rev().find(|&i| b[i] < hi[i]) else {
            break;
        };
        b[i] += 1;
        for x in &mut b[i + 1..] {
            *x = 0;
        }
    }
    groups
        .into_iter()
        .map(|(free, offsets)| {
            let gens: Vec<Vector> = free
                .iter()
                .map(|&i| Vector::unit(d, i).scale(&Integer::from(p[i])))
                .collect();
            let a = AffineSemigroup::with_dim(d, gens).ok()?;
            AffineModule::new(offsets, a).ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_of_a_pattern_with_a_preperiod() {
        // Members: x_1 even or x_1 = 1, and x_2 ≥ 3 odd.
        let mut region = WeightRegion::empty(&[1, 1], 40);
        let mut members = Vec::new();
        region.for_each(|x| {
            if (x[0] % 2 == 0 || x[0] == 1) && x[1] >= 3 && x[1] % 2 == 1 {
                members.push(x.to_vec());
            }
        });
        for x in &members {
            region.insert(x);
        }
        assert_eq!(period_along(&region, 0, &[1, 1]), Some((2, 2)));
        assert_eq!(period_along(&region, 1, &[1, 1]), Some((2, 2)));
        let guess = periodic_guess(&region, &[2, 2], &[2, 2]).unwrap();
        assert!(
            guess.to_string().contains("{(0, 3), (1, 3)} + ℕ{(0, 2)}"),
            "{guess}"
        );
        // N^2 less the guess, from the box points outside P, is the set algebra's complement.
        let set = StratifiedSet::from_stratification(&guess).unwrap().unwrap();
        let outside = periodic_outside(&region, &[2, 2], &[2, 2])
            .unwrap()
            .unwrap();
        let orthant =
            StratifiedSet::from_basic(crate::algebra::basic_set::BasicSet::from_inequalities(
                2,
                vec![
                    (Vector::unit(2, 0), Integer::ZERO),
                    (Vector::unit(2, 1), Integer::ZERO),
                ],
            ))
            .unwrap();
        assert!(outside.set_eq(&orthant.difference(&set).unwrap()).unwrap());
        assert!(outside.intersect(&set).unwrap().is_empty());
    }

    #[test]
    fn a_guess_with_every_box_point_in_p_has_nothing_outside() {
        let mut region = WeightRegion::empty(&[1, 1], 20);
        let mut all = Vec::new();
        region.for_each(|x| all.push(x.to_vec()));
        for x in &all {
            region.insert(x);
        }
        let outside = periodic_outside(&region, &[0, 0], &[1, 1])
            .unwrap()
            .unwrap();
        assert!(outside.is_empty());
    }
}
