//! Boundaries between patterns read from where the lines of a solved region turn periodic, for
//! `stratify`'s guesses on the cells of cuts ([`super::layers`]).
//!
//! A boundary whose normal has large entries is among no guess's candidates (they stop at
//! entries 2 to 4), and boxes across it do not show it when its direction is a period of neither
//! side. In misère play of Γ = {(−1, 1, 2), e_3, 2e_2, e_1, (2, −2, 2)} a pattern of period 7
//! along x_3 meets one of period 2 on 3x_1 + 7x_2 − 6x_3 = c (up to a few points, by class),
//! along (0, 6, 7), which neither pattern repeats along. But a line along an axis e_i that
//! crosses such a plane last turns periodic where it crosses it, and when the line moves by Δ
//! along another axis e_j, Δ a multiple of the patterns' periods along e_j, that point moves by
//! exactly Δt_j along e_i (there by 6 for Δ = 12 along e_1, by 14 along e_2). The boundary's
//! normal is then Δ at i and −Δt_j at each j, made primitive. Lines of one region whose last
//! boundaries differ give different steps; a step that enough lines agree on is kept.
//!
//! The same lines show the patterns they pass through before their last (the stretches of
//! [`super::evidence::stretches`]). The middle of such a stretch is where a box can read the
//! lattice of a pattern that holds only a thin wedge near a face (there the period-7 pattern,
//! between x_3 = 4x_1 and that plane), which the boxes spread over the region away from its
//! faces ([`super::classes::suggested_periods`]) miss.

use rustc_hash::FxHashMap;

use super::evidence::{preperiod_for, stretches};
use super::layers::gcd;
use super::region::WeightRegion;

/// What the lines of a region show: the normals of the boundaries where they turn periodic,
/// and points inside the patterns they pass through before.
#[derive(Default)]
pub(super) struct LineBoundaries {
    pub(super) normals: Vec<Vec<i64>>,
    pub(super) centers: Vec<Vec<i64>>,
}

/// The steps Δ between the lines compared: multiples of the periods 1, 2, 3, 4, 6, 8 and 12
/// (a pattern's period along e_j, where the point a line turns periodic at moves by the same
/// amount each step).
const STEPS: [i64; 2] = [12, 24];

/// How far from the faces x_j = 0 (j ≠ i) the lines along e_i start: the patterns on and next
/// to a face often differ from those inside, and move its lines' changes.
const OFF_FACE: i64 = 2;

/// The longest period a line is read for, and the fewest points a line must have.
const MAX_PERIOD: usize = 48;
const MIN_LINE: usize = 48;

/// The fewest points a line must show past where it turns periodic (a change near its end is
/// more often the region's edge than a boundary).
const MIN_TAIL: usize = 12;

/// At most how many lines are read along each axis (their first points on a grid), and about
/// how many points all lines together (fewer lines where they are long).
const LINES_PER_AXIS: usize = 1500;
const MAX_POINTS: i64 = 4_000_000;

/// The fewest lines that must agree on a step, and the least share of the steps read along an
/// axis it must have (1 in `SHARE`): the boundary of a thin wedge along a face is met by few
/// lines (1 in 20 left out the plane above until weight 406, 1 in 40 finds it at 179).
const MIN_AGREE: usize = 8;
const SHARE: usize = 40;

/// The largest entry of a normal reported, and the most normals reported.
const MAX_ENTRY: i64 = 24;
const MAX_NORMALS: usize = 8;

/// The most lines whose stretches are read, the longest such a line may be, and the most
/// points inside stretches reported.
const STRETCH_LINES: usize = 100;
const STRETCH_LINE_LEN: usize = 480;
const MAX_CENTERS: usize = 48;

/// The fewest points of a stretch whose middle is reported.
const MIN_STRETCH: usize = 24;

/// Where the line from `start` along e_i turns periodic for good, with its pattern: for the
/// least period p ≤ [`MAX_PERIOD`] its last max(3p, [`MIN_TAIL`]) points repeat, one past the
/// last k with `s[k] ≠ s[k + p]`, when p then repeats three times and [`MIN_TAIL`] points after
/// it; None for a line shorter than [`MIN_LINE`] or with no such period. One pass back over the
/// line (the least t over every period would take one per period).
fn turns_periodic(region: &WeightRegion, start: &[i64], i: usize) -> Option<(usize, Vec<bool>)> {
    let mut s = Vec::new();
    let mut y = start.to_vec();
    while let Some(p) = region.is_p(&y) {
        s.push(p);
        y[i] += 1;
    }
    let len = s.len();
    if len < MIN_LINE {
        return None;
    }
    let repeats = |p: usize, from: usize| (from..len - p).all(|k| s[k] == s[k + p]);
    let p = (1..=MAX_PERIOD.min(len / 3))
        .find(|&p| repeats(p, len.saturating_sub((3 * p).max(MIN_TAIL) + p)))?;
    let t = preperiod_for(&s, p);
    (t + 3 * p <= len && len - t >= MIN_TAIL).then_some((t, s))
}

/// The first points of the lines along e_i read: a grid over the other coordinates, its step
/// chosen so that about [`LINES_PER_AXIS`] lines of at least [`MIN_LINE`] points fit.
fn line_starts(region: &WeightRegion, i: usize) -> Vec<Vec<i64>> {
    let d = region.dim();
    let ell = region.ell();
    let room = region.bound() - MIN_LINE as i64 * ell[i];
    if room < 0 {
        return Vec::new();
    }
    // The grid points of the simplex Σ_{j≠i} ℓ_j x_j ≤ room: about room^(d−1) / ((d−1)! Π ℓ_j)
    // at step 1, so step g leaves that over g^(d−1).
    let others: Vec<usize> = (0..d).filter(|&j| j != i).collect();
    let mut volume: i128 = 1;
    let mut below: i128 = 1;
    for (k, &j) in others.iter().enumerate() {
        volume = volume.saturating_mul(i128::from(room) + 1);
        below = below.saturating_mul(i128::from(ell[j]) * (k as i128 + 1));
    }
    // Each line read with its 2(d − 1) neighbours, of about half the longest line's points.
    let longest = region.bound() / ell[i] + 1;
    let per_axis = MAX_POINTS / d as i64 / (1 + 2 * (d as i64 - 1)) / (longest / 2).max(1);
    let lines = (per_axis as i128).clamp(100, LINES_PER_AXIS as i128);
    let mut step: i64 = 1;
    while volume / below / i128::from(step).pow(others.len() as u32) > lines {
        step += 1;
    }
    let mut out = Vec::new();
    let mut x = vec![0i64; d];
    grid(&others, ell, room, step, 0, &mut x, &mut out);
    out
}

fn grid(
    others: &[usize],
    ell: &[i64],
    room: i64,
    step: i64,
    k: usize,
    x: &mut Vec<i64>,
    out: &mut Vec<Vec<i64>>,
) {
    if k == others.len() {
        out.push(x.clone());
        return;
    }
    let j = others[k];
    let mut v = OFF_FACE;
    while v * ell[j] <= room {
        x[j] = v;
        grid(others, ell, room - v * ell[j], step, k + 1, x, out);
        v += step;
    }
    x[j] = 0;
}

/// The boundaries the lines of the region show (see the module documentation), in d = 3 and 4;
/// None when interrupted.
pub(super) fn line_boundaries(region: &WeightRegion) -> Option<LineBoundaries> {
    let d = region.dim();
    let mut found = LineBoundaries::default();
    if !(3..=4).contains(&d) {
        return Some(found);
    }
    let mut centers: Vec<Vec<i64>> = Vec::new();
    // Each normal with the most lines that agreed on it along one axis.
    let mut supported: Vec<(Vec<i64>, usize)> = Vec::new();
    for i in 0..d {
        let starts = line_starts(region, i);
        let mut settled: FxHashMap<Vec<i64>, Option<usize>> = FxHashMap::default();
        // Where the line from p turns periodic, read once; with `middles`, the line is read
        // (again) and the middles of its earlier stretches are kept too.
        let mut settle = |p: &Vec<i64>, middles: Option<&mut Vec<Vec<i64>>>| -> Option<usize> {
            if middles.is_none() {
                if let Some(&t) = settled.get(p) {
                    return t;
                }
            }
            let line = turns_periodic(region, p, i);
            if let (Some(out), Some((_, s))) = (middles, &line) {
                if s.len() <= STRETCH_LINE_LEN {
                    out.extend(stretch_middles(s, p, i));
                }
            }
            let t = line.map(|(t, _)| t);
            settled.insert(p.clone(), t);
            t
        };
        // (Δ, the steps Δt_j) → how many lines show them.
        let mut steps: FxHashMap<(i64, Vec<i64>), usize> = FxHashMap::default();
        let mut read = [0usize; STEPS.len()];
        let every = (starts.len() / STRETCH_LINES).max(1);
        for (n, p) in starts.iter().enumerate() {
            if crate::interrupt::requested() {
                return None;
            }
            let Some(t) = settle(p, (n % every == 0).then_some(&mut centers)) else {
                continue;
            };
            for (k, &delta) in STEPS.iter().enumerate() {
                let mut moved = Vec::with_capacity(d - 1);
                for j in (0..d).filter(|&j| j != i) {
                    let mut q = p.clone();
                    q[j] += delta;
                    match settle(&q, None) {
                        Some(u) => moved.push(u as i64 - t as i64),
                        None => break,
                    }
                }
                if moved.len() == d - 1 && moved.iter().any(|&m| m != 0) {
                    read[k] += 1;
                    *steps.entry((delta, moved)).or_default() += 1;
                }
            }
        }
        let agreed: Vec<((i64, Vec<i64>), usize)> = steps
            .iter()
            .filter(|((delta, moved), &count)| {
                let k = STEPS.iter().position(|s| s == delta).unwrap_or(0);
                count >= MIN_AGREE
                    && count * SHARE >= read[k]
                    && !blurred(&steps, *delta, moved, count)
            })
            .map(|(key, &count)| (key.clone(), count))
            .collect();
        for ((delta, moved), count) in agreed {
            let mut h = Vec::with_capacity(d);
            let mut rest = moved.iter();
            for j in 0..d {
                h.push(if j == i {
                    delta
                } else {
                    -rest.next().copied().unwrap_or(0)
                });
            }
            if let Some(h) = primitive(h).filter(|h| h.iter().all(|a| a.abs() <= MAX_ENTRY)) {
                match supported.iter_mut().find(|(g, _)| *g == h) {
                    Some((_, c)) => *c = (*c).max(count),
                    None => supported.push((h, count)),
                }
            }
        }
    }
    // The best supported first (ties in a fixed order).
    supported.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    found.normals = supported
        .into_iter()
        .take(MAX_NORMALS)
        .map(|(h, _)| h)
        .collect();
    let every = (centers.len() / MAX_CENTERS).max(1);
    found.centers = centers
        .into_iter()
        .step_by(every)
        .take(MAX_CENTERS)
        .collect();
    Some(found)
}

/// Whether the lines that moved by `moved` for the step `delta` are one of two neighbouring
/// amounts many lines moved by (one differing by 1 in one entry, with at least a third as many
/// lines): Δ is then no multiple of the period of the boundary's points along that axis, and
/// neither amount is its slope (a plane along (0, 6, 7) moves by 10 or 11 when x_3 moves by 12,
/// as 72/7 rounds by class).
fn blurred(
    steps: &FxHashMap<(i64, Vec<i64>), usize>,
    delta: i64,
    moved: &[i64],
    count: usize,
) -> bool {
    let mut near = moved.to_vec();
    for j in 0..moved.len() {
        for by in [-1, 1] {
            near[j] = moved[j] + by;
            if steps
                .get(&(delta, near.clone()))
                .is_some_and(|&c| 3 * c >= count)
            {
                return true;
            }
        }
        near[j] = moved[j];
    }
    false
}

/// The middles of the stretches of the line from `start` along e_i before its last (at least
/// [`MIN_STRETCH`] points each).
fn stretch_middles(s: &[bool], start: &[i64], i: usize) -> Vec<Vec<i64>> {
    let Some(parts) = stretches(s) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for pair in parts.windows(2) {
        let ((from, _), (to, _)) = (pair[0], pair[1]);
        if to - from >= MIN_STRETCH {
            let mut x = start.to_vec();
            x[i] += ((from + to) / 2) as i64;
            out.push(x);
        }
    }
    out
}

/// h divided by the gcd of its entries, its first nonzero entry positive; None for 0.
fn primitive(mut h: Vec<i64>) -> Option<Vec<i64>> {
    let g = h.iter().fold(0i64, |g, &a| gcd(g, a.abs()));
    if g == 0 {
        return None;
    }
    let sign = h.iter().find(|&&a| a != 0).map_or(1, |a| a.signum());
    h.iter_mut().for_each(|a| *a = *a / g * sign);
    Some(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two patterns across the plane 3x_1 + 7x_2 − 6x_3 = 12 (up to a point, by class): period
    /// 7 along x_3 below it, period 2 above, as the period-7 and period-2 patterns of misère play
    /// of Γ = {(−1, 1, 2), e_3, 2e_2, e_1, (2, −2, 2)} meet.
    fn across_a_steep_plane(x: &[i64]) -> bool {
        let level = 3 * x[0] + 7 * x[1] - 6 * x[2];
        let wobble = (x[0] + x[1]).rem_euclid(2);
        if level + 6 * wobble >= 12 {
            (x[2] + x[1]).rem_euclid(7) == 2
        } else {
            (x[2] + x[0]).rem_euclid(2) == 0
        }
    }

    #[test]
    fn a_steep_boundary_is_read_from_where_lines_turn_periodic() {
        let (region, _) = WeightRegion::of_rule(&[1, 1, 1], 150, &across_a_steep_plane);
        let found = line_boundaries(&region).expect("not interrupted");
        assert!(
            found.normals.contains(&vec![3, 7, -6]),
            "{:?}",
            found.normals
        );
        // Points inside the period-7 pattern, where lines along x_3 pass before the plane.
        assert!(
            found
                .centers
                .iter()
                .any(|x| 3 * x[0] + 7 * x[1] - 6 * x[2] > 40),
            "{:?}",
            found.centers
        );
    }

    /// Misère play of Γ = {(−1, 1, 2), e_3, 2e_2, e_1, (2, −2, 2)} (item 79 of a random-rules
    /// sweep, seed 9090): patterns of periods 16, 7 and 2 along x_3 in a fan, the period-7 one in
    /// a wedge along the face x_1 = 0 up to 3x_1 + 7x_2 − 6x_3 = c, where it meets the period-2
    /// one. The lines along x_3 show that plane, and the middles of their period-7 stretches its
    /// lattice, which the boxes of the periods' scan miss.
    #[test]
    fn a_fans_steep_plane_and_its_wedges_lattice_are_read_from_a_solved_game() {
        let g = crate::game::testing::game(
            &[&[-1, 1, 2], &[0, 0, 1], &[0, 2, 0], &[1, 0, 0], &[2, -2, 2]],
            true,
        );
        let region = WeightRegion::solved(&g, &[1, 1, 1], 406);
        let found = line_boundaries(&region).expect("not interrupted");
        assert!(
            found.normals.contains(&vec![3, 7, -6]),
            "{:?}",
            found.normals
        );
        let wedge = super::super::classes::lattices_around(&region, &found.centers, &[])
            .expect("not interrupted");
        // The period-7 pattern's lattice ⟨(1, −1, 4), (0, 4, 0), (0, 0, 7)⟩.
        assert!(
            wedge.iter().any(|m| m.count() == 28
                && m.class_of(&[1, -1, 4]) == 0
                && m.class_of(&[0, 4, 0]) == 0
                && m.class_of(&[0, 0, 7]) == 0),
            "{:?}",
            wedge.iter().map(|m| m.describe()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn one_pattern_everywhere_shows_no_boundary() {
        let rule = |x: &[i64]| (x[0] + 2 * x[1] + x[2]).rem_euclid(3) == 0;
        let (region, _) = WeightRegion::of_rule(&[1, 1, 1], 120, &rule);
        let found = line_boundaries(&region).expect("not interrupted");
        assert!(found.normals.is_empty(), "{:?}", found.normals);
        assert!(found.centers.is_empty(), "{:?}", found.centers);
    }

    #[test]
    fn a_line_turns_periodic_past_its_last_change() {
        // Period 3 up to 30, then period 2.
        let rule = |x: &[i64]| {
            if x[2] < 30 {
                x[2] % 3 == 0
            } else {
                x[2] % 2 == 0
            }
        };
        let (region, _) = WeightRegion::of_rule(&[1, 1, 1], 100, &rule);
        let (t, s) = turns_periodic(&region, &[0, 0, 0], 2).expect("periodic");
        assert_eq!(s.len(), 101);
        // The last k with s[k] ≠ s[k + 2] is 28 (28 is no multiple of 3, 30 is even), and every
        // other period breaks there too.
        assert_eq!(t, 29);
    }
}
