//! Where a fit of the layered guess applies: a part of N^d with some coordinates pinned, the
//! others bounded below, and cut by half-spaces (or hyperplanes) h·x ≥ t on the way to it; its
//! positions walked, counted and sampled from the solved region, its faces and interior below a
//! threshold, and the candidate normals h of its layers h·x = c.

use std::cell::Cell;

use super::super::region::WeightRegion;
use crate::algebra::{Integer, Vector};

/// The layer h·x of x.
pub(super) fn level(h: &[i64], x: &[i64]) -> i64 {
    x.iter().zip(h).map(|(a, b)| a * b).sum()
}

/// Candidate normals: nonzero vectors with entries in −m..=m whose first nonzero entry is
/// positive (h and −h give the same layers), fewest nonzero entries and smallest first; `wide`
/// (on the side of a cut, where a staircase's slope is often a ratio such as 3 : 6 : 4) takes
/// m = 6 in d ≤ 3.
fn normals(d: usize, wide: bool) -> Vec<Vec<i64>> {
    let m = match d {
        0..=3 if wide => 6,
        0..=3 => 4,
        4 => 3,
        5 => 2,
        _ => 1,
    };
    let mut out: Vec<Vec<i64>> = vec![Vec::new()];
    for _ in 0..d {
        out = out
            .into_iter()
            .flat_map(|v| {
                (-m..=m).map(move |x| {
                    let mut w = v.clone();
                    w.push(x);
                    w
                })
            })
            .collect();
    }
    out.retain(|h| h.iter().find(|&&x| x != 0).is_some_and(|&x| x > 0));
    out.sort_by_key(|h| {
        (
            h.iter().filter(|&&x| x != 0).count(),
            h.iter().map(|x| x.abs()).sum::<i64>(),
        )
    });
    out
}

/// Where a fit applies: each coordinate pinned to a value or bounded below, and the half-spaces
/// (or hyperplanes) of the cuts taken on the way to it.
#[derive(Clone, Debug)]
pub(super) struct Domain {
    pub(super) pinned: Vec<Option<i64>>,
    pub(super) lower: Vec<i64>,
    pub(super) cuts: Vec<Cut>,
}

/// A cut of a domain: a·x ≥ b, or a·x = b when pinned (a layer next to a cut, fitted on its own).
#[derive(Clone, Debug)]
pub(super) struct Cut {
    pub(super) normal: Vec<i64>,
    pub(super) lower: i64,
    pub(super) pinned: bool,
}

/// The greatest common divisor of two nonnegative integers.
pub(in crate::game::stratify) fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// ⌊p / q⌋ for q ≠ 0.
fn floor_div(p: i64, q: i64) -> i64 {
    let d = p / q;
    if p % q != 0 && ((p < 0) != (q < 0)) {
        d - 1
    } else {
        d
    }
}

impl Domain {
    /// All of N^d.
    pub(super) fn orthant(d: usize) -> Domain {
        Domain {
            pinned: vec![None; d],
            lower: vec![0; d],
            cuts: Vec::new(),
        }
    }

    /// The coordinates not pinned.
    pub(super) fn free(&self) -> Vec<usize> {
        (0..self.lower.len())
            .filter(|&i| self.pinned[i].is_none())
            .collect()
    }

    /// The weight halfway between the corner's and the region's bound, where a fit's heavier
    /// half begins; None when the corner lies past the region.
    pub(super) fn half(&self, region: &WeightRegion) -> Option<i64> {
        let light = region.weight(&self.corner());
        (light <= region.bound()).then(|| light + (region.bound() - light) / 2)
    }

    /// The candidate normals ([`normals`]) over the free coordinates, 0 on the pinned ones, then
    /// the suggested normals not among them, restricted to the free coordinates (made primitive,
    /// the first nonzero entry positive, those left nonzero). Last, so that where both would
    /// do, the fit is the one it was without suggestions.
    pub(super) fn normals_with(&self, suggested: &[Vec<i64>], wide: bool) -> Vec<Vec<i64>> {
        let mut out = self.normals(wide);
        for h in self.suggested(suggested) {
            // The candidates are few hundred, the suggestions one or two.
            if !out.contains(&h) {
                out.push(h);
            }
        }
        out
    }

    /// The suggested normals restricted to the free coordinates (made primitive, the first
    /// nonzero entry positive, those left nonzero, each once).
    pub(super) fn suggested(&self, suggested: &[Vec<i64>]) -> Vec<Vec<i64>> {
        let mut out: Vec<Vec<i64>> = Vec::new();
        for h in suggested {
            let mut h: Vec<i64> = h
                .iter()
                .zip(&self.pinned)
                .map(|(&a, p)| if p.is_some() { 0 } else { a })
                .collect();
            let g = h.iter().fold(0i64, |g, &a| gcd(g, a.abs()));
            if g == 0 {
                continue;
            }
            let sign = h.iter().find(|&&a| a != 0).map_or(1, |a| a.signum());
            h.iter_mut().for_each(|a| *a = *a / g * sign);
            if !out.contains(&h) {
                out.push(h);
            }
        }
        out
    }

    /// The candidate normals ([`normals`]) over the free coordinates, 0 on the pinned ones.
    pub(super) fn normals(&self, wide: bool) -> Vec<Vec<i64>> {
        let free = self.free();
        normals(free.len(), wide)
            .into_iter()
            .map(|small| {
                let mut h = vec![0; self.lower.len()];
                for (&i, &a) in free.iter().zip(&small) {
                    h[i] = a;
                }
                h
            })
            .collect()
    }

    /// The domain cut to a·x ≥ b.
    pub(super) fn cut(&self, normal: &[i64], lower: i64) -> Domain {
        let mut out = self.clone();
        out.cuts.push(Cut {
            normal: normal.to_vec(),
            lower,
            pinned: false,
        });
        out
    }

    /// The inequalities of the domain (x_i = c and a·x = b as two).
    pub(super) fn inequalities(&self) -> Vec<(Vector, Integer)> {
        let d = self.lower.len();
        let mut out = Vec::new();
        for i in 0..d {
            let e = Vector::unit(d, i);
            match self.pinned[i] {
                Some(c) => {
                    out.push((e.clone(), Integer::from(c)));
                    out.push((e.scale(&Integer::from(-1)), Integer::from(-c)));
                }
                None => out.push((e, Integer::from(self.lower[i]))),
            }
        }
        for cut in &self.cuts {
            let a = Vector::from_i64s(&cut.normal);
            if cut.pinned {
                out.push((a.scale(&Integer::from(-1)), Integer::from(-cut.lower)));
            }
            out.push((a, Integer::from(cut.lower)));
        }
        out
    }

    /// The domain's interior at threshold t: the free coordinates at least t, and the cuts
    /// a·x ≥ b among `cut_faces` raised to a·x ≥ b + t.
    pub(super) fn interior(&self, free: &[usize], cut_faces: &[CutFace], t: i64) -> Domain {
        let mut inside = self.clone();
        for &i in free {
            inside.lower[i] = inside.lower[i].max(t);
        }
        for face in cut_faces {
            inside.cuts[face.index].lower = face.lower + t;
        }
        inside
    }

    /// Calls `f(key, face)` on the faces at threshold t, in order, each point of the domain
    /// outside the interior on exactly one: x_i = c < t for the free coordinates (with x_j ≥ t
    /// for the free j before i), then a·x = c < b + t for the cuts among `cut_faces` (with every
    /// free coordinate at least t and the cuts before raised); a face's key is (i, c), or
    /// (d + the cut's index, c). Stops when `f` returns false; false then.
    pub(super) fn for_each_face(
        &self,
        free: &[usize],
        cut_faces: &[CutFace],
        t: i64,
        f: &mut dyn FnMut((usize, i64), &Domain) -> bool,
    ) -> bool {
        let d = self.lower.len();
        let mut face = self.clone();
        for &i in free {
            for c in self.lower[i]..t {
                let mut pinned = face.clone();
                pinned.pinned[i] = Some(c);
                if !f((i, c), &pinned) {
                    return false;
                }
            }
            face.lower[i] = face.lower[i].max(t);
        }
        for cut in cut_faces {
            for c in cut.lower..cut.lower + t {
                let mut pinned = face.clone();
                pinned.cuts[cut.index].lower = c;
                pinned.cuts[cut.index].pinned = true;
                if !f((d + cut.index, c), &pinned) {
                    return false;
                }
            }
            face.cuts[cut.index].lower = cut.lower + t;
        }
        true
    }

    /// Its least point, were it not cut (a lower bound of its weights).
    pub(super) fn corner(&self) -> Vec<i64> {
        self.pinned
            .iter()
            .zip(&self.lower)
            .map(|(p, &l)| p.unwrap_or(l))
            .collect()
    }

    /// Whether x, a point of the uncut domain, satisfies the cuts.
    pub(super) fn admits(&self, x: &[i64]) -> bool {
        self.cuts.iter().all(|cut| {
            let v = level(&cut.normal, x);
            v >= cut.lower && (!cut.pinned || v == cut.lower)
        })
    }

    /// The values of the last coordinate the cuts allow after the others, x_0..x_{d−2}, as
    /// `prefix`: an interval (empty when from > to).
    pub(super) fn last_range(&self, prefix: &[i64]) -> (i64, i64) {
        let last = prefix.len();
        let (mut from, mut to) = (i64::MIN, i64::MAX);
        for cut in &self.cuts {
            let s: i64 = prefix.iter().zip(&cut.normal).map(|(x, a)| x * a).sum();
            let a = cut.normal[last];
            let r = cut.lower - s;
            if a == 0 {
                if r > 0 || (cut.pinned && r != 0) {
                    return (1, 0);
                }
                continue;
            }
            // a·v ≥ r, and a·v ≤ r when pinned: v ≥ r/a for a > 0, v ≤ r/a for a < 0.
            let (up, down) = (-floor_div(-r, a), floor_div(r, a));
            if a > 0 {
                from = from.max(up);
                if cut.pinned {
                    to = to.min(down);
                }
            } else {
                to = to.min(down);
                if cut.pinned {
                    from = from.max(up);
                }
            }
        }
        (from, to)
    }

    /// Points spread evenly over the domain's points of the region heavier than `above`: about
    /// `most` of them (flat, with their outcomes), and how many there are (estimated from the
    /// share inside, for a cut domain sampled so). An uncut domain is sampled from the region's
    /// index; a cut one from twice as large a sample of the uncut domain when half as many as
    /// asked lie inside the cuts (or it took every point), else (a cut pinned to a layer, or a
    /// thin side) by walking it twice, counting and then taking every k-th.
    pub(super) fn sample(
        &self,
        region: &WeightRegion,
        above: i64,
        most: usize,
    ) -> (Vec<i64>, Vec<bool>, u64) {
        if self.cuts.is_empty() {
            return region.sample_above(&self.pinned, &self.lower, above, most);
        }
        let d = self.lower.len();
        if self.cuts.iter().all(|c| !c.pinned) {
            let (points, outcomes, heavy) =
                region.sample_above(&self.pinned, &self.lower, above, 2 * most);
            let drawn = outcomes.len();
            let (mut kept, mut kept_outcomes) = (Vec::new(), Vec::new());
            for (x, &p) in points.chunks_exact(d).zip(&outcomes) {
                if self.admits(x) {
                    kept.extend_from_slice(x);
                    kept_outcomes.push(p);
                }
            }
            if kept_outcomes.len() * 2 >= most || drawn as u64 >= heavy {
                let inside = if drawn == 0 {
                    0
                } else {
                    (heavy as u128 * kept_outcomes.len() as u128 / drawn as u128) as u64
                };
                return (kept, kept_outcomes, inside);
            }
        }
        let mut heavy = 0u64;
        self.for_each(region, &mut |x, _| {
            heavy += u64::from(region.weight(x) > above)
        });
        let stride = heavy.div_ceil(most.max(1) as u64).max(1);
        let (mut points, mut outcomes) = (Vec::new(), Vec::new());
        let mut seen = 0u64;
        self.for_each(region, &mut |x, p| {
            if region.weight(x) > above {
                if seen.is_multiple_of(stride) {
                    points.extend_from_slice(x);
                    outcomes.push(p);
                }
                seen += 1;
            }
        });
        (points, outcomes, heavy)
    }

    /// Calls `f` on the domain's points of the region.
    pub(super) fn for_each(&self, region: &WeightRegion, f: &mut dyn FnMut(&[i64], bool)) {
        self.for_each_up_to(region, region.bound(), f);
    }

    /// Calls `f` on the domain's points of the region of weight at most `cap`; on only some of
    /// them when a stop is requested meanwhile (the caller then reads
    /// [`crate::interrupt::requested`] and gives up).
    pub(super) fn for_each_up_to(
        &self,
        region: &WeightRegion,
        cap: i64,
        f: &mut dyn FnMut(&[i64], bool),
    ) {
        struct Walk<'a> {
            domain: &'a Domain,
            region: &'a WeightRegion,
            /// The most weight walked (at most the region's bound).
            cap: i64,
            /// The weight of the corner's coordinates from i on.
            rest: Vec<i64>,
            /// Set when a stop was requested: the walk ends early (read once a row).
            stopped: Cell<bool>,
        }
        impl Walk<'_> {
            pub(super) fn go(&self, x: &mut Vec<i64>, used: i64, f: &mut dyn FnMut(&[i64], bool)) {
                let i = x.len();
                if self.stopped.get() {
                    return;
                }
                if i + 1 == self.domain.lower.len() && crate::interrupt::requested() {
                    self.stopped.set(true);
                    return;
                }
                if i == self.domain.lower.len() {
                    if self.domain.admits(x) {
                        if let Some(at) = self.region.index(x) {
                            f(x, self.region.get(at));
                        }
                    }
                    return;
                }
                let (mut from, mut to) = match self.domain.pinned[i] {
                    Some(c) => (c, c),
                    None => (self.domain.lower[i], i64::MAX),
                };
                let step = self.region.ell()[i].max(1);
                let last = i + 1 == self.domain.lower.len();
                if last && !self.domain.cuts.is_empty() {
                    let (a, b) = self.domain.last_range(x);
                    from = from.max(a);
                    to = to.min(b);
                }
                // On the last coordinate the positions are consecutive in the region's order.
                let mut at: Option<u64> = None;
                let mut v = from;
                while v <= to {
                    // The rest at their least: past the region, so is every larger v.
                    let used = used + v * step;
                    if used + self.rest[i + 1] > self.cap {
                        break;
                    }
                    x.push(v);
                    if last {
                        at = match at {
                            Some(a) => Some(a + 1),
                            None => self.region.index(x),
                        };
                        if let Some(a) = at {
                            f(x, self.region.get(a));
                        }
                    } else {
                        self.go(x, used, f);
                    }
                    x.pop();
                    v += 1;
                }
            }
        }
        let corner = self.corner();
        let mut rest = vec![0; corner.len() + 1];
        for i in (0..corner.len()).rev() {
            rest[i] = rest[i + 1] + corner[i] * region.ell()[i].max(1);
        }
        let walk = Walk {
            domain: self,
            region,
            cap: cap.min(region.bound()),
            rest,
            stopped: Cell::new(false),
        };
        walk.go(&mut Vec::new(), 0, f);
    }
}

/// A cut a·x ≥ b of a domain whose layers next to it are fitted as faces: its index among the
/// domain's cuts, a and b.
#[derive(Clone)]
pub(super) struct CutFace {
    pub(super) index: usize,
    pub(super) normal: Vec<i64>,
    pub(super) lower: i64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix64;

    #[test]
    fn a_cut_domain_walks_exactly_its_points() {
        // Random cuts (some pinned) of random faces of regions of N^2 .. N^4: the walk, its
        // bounded walk and its sample against the filter of the whole region, point by point.
        let mut random = SplitMix64(0x5851_f42d_4c95_7f2d);
        let mut entry = |span: u64, least: i64| random.below(span) as i64 + least;
        for (ell, bound) in [
            (vec![1, 1], 60),
            (vec![2, 1, 1], 30),
            (vec![1, 1, 1, 2], 16),
        ] {
            let d = ell.len();
            let mut region = WeightRegion::empty(&ell, bound);
            let mut all = Vec::new();
            region.for_each(|x| all.push(x.to_vec()));
            for (k, x) in all.iter().enumerate() {
                if k % 3 == 0 {
                    region.insert(x);
                }
            }
            for _ in 0..60 {
                let mut domain = Domain::orthant(d);
                for i in 0..d {
                    match entry(4, 0) {
                        0 => domain.pinned[i] = Some(entry(4, 0)),
                        1 => domain.lower[i] = entry(5, 0),
                        _ => {}
                    }
                }
                for _ in 0..entry(3, 0) {
                    domain.cuts.push(Cut {
                        normal: (0..d).map(|_| entry(7, -3)).collect(),
                        lower: entry(21, -10),
                        pinned: entry(3, 0) == 0,
                    });
                }
                let inside = |x: &[i64]| {
                    (0..d).all(|i| match domain.pinned[i] {
                        Some(c) => x[i] == c,
                        None => x[i] >= domain.lower[i],
                    }) && domain.admits(x)
                };
                let expected: Vec<&Vec<i64>> = all.iter().filter(|x| inside(x)).collect();
                let mut walked = Vec::new();
                domain.for_each(&region, &mut |x, p| {
                    assert_eq!(Some(p), region.is_p(x));
                    walked.push(x.to_vec());
                });
                assert_eq!(walked.len(), expected.len(), "{domain:?}");
                assert!(walked.iter().zip(&expected).all(|(a, b)| a == *b));
                let cap = bound / 2;
                let mut light = 0;
                domain.for_each_up_to(&region, cap, &mut |_, _| light += 1);
                let light_expected = expected.iter().filter(|x| region.weight(x) <= cap).count();
                assert_eq!(light, light_expected, "{domain:?}");
                let (points, outcomes, _) = domain.sample(&region, cap, 50);
                for (x, &p) in points.chunks_exact(d).zip(&outcomes) {
                    assert!(inside(x) && region.weight(x) > cap, "{x:?} {domain:?}");
                    assert_eq!(Some(p), region.is_p(x));
                }
            }
        }
    }
}
