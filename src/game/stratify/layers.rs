//! A guess of `stratify` for P-positions that follow a pattern modulo 2 which changes across a
//! family of parallel hyperplanes h·x = c, and is the same on every layer below some c = lo and
//! on every layer above some c = hi: P = ⋃ {x ∈ N^d : h·x in a range, x ≡ r mod 2} up to a finite
//! set of exceptions near the origin. Each piece is the lattice points of a polyhedron in a coset
//! of 2Z^d (or of {x : w·x even}), an affine stratification by [GM11] Theorem 4.2's argument, and
//! the exceptions are added or cut off as points.
//!
//! Random games in generalized misère play often look like this: every move changes some parity
//! w·x by an odd amount, so P is locally a parity class, and which class it is flips across a
//! slanted hyperplane (through the defeated positions' influence). The axis periods cannot
//! describe it (a line's preperiod grows with its distance from the flip), and covers by small
//! cones need many pieces per parity class.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use super::region::WeightRegion;
use crate::algebra::basic_set::BasicSet;
use crate::algebra::coset::Coset;
use crate::algebra::lattice::Lattice;
use crate::algebra::{AlgebraError, Integer, StratifiedSet, Vector};

/// What each residue class modulo 2 (indexed by the bits x_i mod 2) is on one layer or range:
/// bit 2c says "seen", bit 2c + 1 says "P".
type Classes = u64;

/// The guess: the normal h, the layer range [lo, hi] with its own patterns, the P-positions it
/// gets wrong on the region (all lighter than half the region), and the set.
pub(super) struct Layered {
    pub(super) normal: Vec<i64>,
    pub(super) lo: i64,
    pub(super) hi: i64,
    pub(super) exceptions: usize,
    pub(super) set: StratifiedSet,
}

/// The most sampled positions each candidate normal is tested on.
const SAMPLE: usize = 30_000;

/// The most layers with their own pattern between lo and hi.
const MAX_LAYERS: i64 = 48;

/// The most exceptions taken as points.
const MAX_EXCEPTIONS: usize = 4096;

/// h·x written out, as "x_1 − 2x_3".
pub(super) fn hyperplane(h: &[i64]) -> String {
    let mut out = String::new();
    for (i, &a) in h.iter().enumerate().filter(|(_, &a)| a != 0) {
        let sign = if a < 0 { "−" } else { "+" };
        if out.is_empty() {
            if a < 0 {
                out.push('−');
            }
        } else {
            out.push_str(&format!(" {sign} "));
        }
        if a.abs() != 1 {
            out.push_str(&a.abs().to_string());
        }
        out.push_str(&format!("x_{}", i + 1));
    }
    out
}

/// Whether two class patterns agree wherever both have seen a class.
fn compatible(a: Classes, b: Classes) -> bool {
    let seen = a & b & 0x5555_5555_5555_5555;
    ((a ^ b) >> 1) & seen == 0
}

fn class_of(x: &[i64]) -> usize {
    x.iter()
        .enumerate()
        .fold(0, |c, (i, &xi)| c | (((xi & 1) as usize) << i))
}

/// The layer h·x of x.
fn level(h: &[i64], x: &[i64]) -> i64 {
    x.iter().zip(h).map(|(a, b)| a * b).sum()
}

/// Whether the class is in P under the pattern, or None when the pattern has not seen it.
fn lookup(pattern: Classes, class: usize) -> Option<bool> {
    (pattern & (1 << (2 * class)) != 0).then_some(pattern & (1 << (2 * class + 1)) != 0)
}

/// Records that the class is (or is not) in P; false when the pattern said otherwise.
fn record(pattern: &mut Classes, class: usize, p: bool) -> bool {
    let seen = 1u64 << (2 * class);
    let is_p = 1u64 << (2 * class + 1);
    if *pattern & seen != 0 {
        return (*pattern & is_p != 0) == p;
    }
    *pattern |= seen | if p { is_p } else { 0 };
    true
}

/// The layer patterns of the positions `points` (flat, d per point, with their outcomes) under
/// the normal h, or None when some layer sees a class both ways.
fn layer_patterns(h: &[i64], points: &[i64], outcomes: &[bool]) -> Option<BTreeMap<i64, Classes>> {
    let d = h.len();
    let mut layers: FxHashMap<i64, Classes> = FxHashMap::default();
    for (x, &p) in points.chunks_exact(d).zip(outcomes) {
        if !record(layers.entry(level(h, x)).or_insert(0), class_of(x), p) {
            return None;
        }
    }
    Some(layers.into_iter().collect())
}

/// The largest lo such that every layer ≤ lo is compatible with every other (one pattern below),
/// the least such hi above, and those two patterns.
fn ends(layers: &BTreeMap<i64, Classes>) -> Option<(i64, Classes, i64, Classes)> {
    let (&first, _) = layers.iter().next()?;
    let (&last, _) = layers.iter().next_back()?;
    let mut low = 0;
    let mut lo = first;
    for (&c, &pattern) in layers {
        if !compatible(low, pattern) {
            break;
        }
        low |= pattern;
        lo = c;
    }
    let mut high = 0;
    let mut hi = last;
    for (&c, &pattern) in layers.iter().rev() {
        if !compatible(high, pattern) {
            break;
        }
        high |= pattern;
        hi = c;
    }
    Some((lo, low, hi, high))
}

/// Candidate normals: nonzero vectors with entries in −m..=m whose first nonzero entry is
/// positive (h and −h give the same layers), fewest nonzero entries and smallest first.
fn normals(d: usize) -> Vec<Vec<i64>> {
    let m = match d {
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

/// Where a fit applies: each coordinate pinned to a value or bounded below.
#[derive(Clone, Debug)]
struct Domain {
    pinned: Vec<Option<i64>>,
    lower: Vec<i64>,
}

impl Domain {
    /// The inequalities of the domain (x_i = c as two).
    fn inequalities(&self) -> Vec<(Vector, Integer)> {
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
        out
    }

    /// Its least point.
    fn corner(&self) -> Vec<i64> {
        self.pinned
            .iter()
            .zip(&self.lower)
            .map(|(p, &l)| p.unwrap_or(l))
            .collect()
    }

    /// Calls `f` on the domain's points of the region.
    fn for_each(&self, region: &WeightRegion, f: &mut dyn FnMut(&[i64], bool)) {
        struct Walk<'a> {
            domain: &'a Domain,
            region: &'a WeightRegion,
            /// The weight of the corner's coordinates from i on.
            rest: Vec<i64>,
        }
        impl Walk<'_> {
            fn go(&self, x: &mut Vec<i64>, used: i64, f: &mut dyn FnMut(&[i64], bool)) {
                let i = x.len();
                if i == self.domain.lower.len() {
                    if let Some(at) = self.region.index(x) {
                        f(x, self.region.get(at));
                    }
                    return;
                }
                let (from, to) = match self.domain.pinned[i] {
                    Some(c) => (c, c),
                    None => (self.domain.lower[i], i64::MAX),
                };
                let step = self.region.ell()[i].max(1);
                for v in from..=to {
                    // The rest at their least: past the region, so is every larger v.
                    let used = used + v * step;
                    if used + self.rest[i + 1] > self.region.bound() {
                        break;
                    }
                    x.push(v);
                    self.go(x, used, f);
                    x.pop();
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
            rest,
        };
        walk.go(&mut Vec::new(), 0, f);
    }
}

/// What a fit found: the pieces in P and the exceptions (positions in P outside the pieces, and
/// positions outside P inside them).
#[derive(Default)]
struct Fit {
    pieces: Vec<BasicSet>,
    extra: Vec<Vector>,
    missing: Vec<Vector>,
    normal: Option<Vec<i64>>,
    lo: i64,
    hi: i64,
}

/// The thresholds tried for the faces: below it a coordinate is pinned, value by value.
const THRESHOLDS: [i64; 5] = [0, 2, 4, 8, 12];

/// The most basic sets a layered guess may have.
const MAX_PIECES: usize = 4096;

/// The most domains (the interior and the faces, for each threshold tried) a guess may fit.
const MAX_FITS: usize = 400;

/// What a guess may still spend.
struct Budget {
    pieces: usize,
    fits: usize,
}

/// The layered guess from the solved region (see the module documentation); None when none fits,
/// or when interrupted. Near the faces of N^d the pattern may differ: a coordinate below a
/// threshold T is pinned, value by value, and each such face gets a fit of its own (recursively).
pub(super) fn guess(region: &WeightRegion) -> Result<Option<Layered>, AlgebraError> {
    // In d = 5 the faces' fits and the set they make cost minutes ([GM09] Example 8.12): not yet.
    let d = region.dim();
    if d > 4 {
        return Ok(None);
    }
    let domain = Domain {
        pinned: vec![None; d],
        lower: vec![0; d],
    };
    let mut budget = Budget {
        pieces: MAX_PIECES,
        fits: MAX_FITS,
    };
    let Some(fit) = fit_faces(region, &domain, None, &mut budget) else {
        return Ok(None);
    };
    let Some(normal) = fit.normal else {
        return Ok(None);
    };
    // The pieces are disjoint (the faces partition N^d, the ranges of layers each face, the
    // cosets each range), and the extra points lie outside them.
    let mut disjoint = fit.pieces;
    disjoint.extend(
        fit.extra
            .iter()
            .map(|x| BasicSet::new(Coset::point(x.clone()), Vec::new())),
    );
    let mut set = StratifiedSet::from_disjoint(d, disjoint)?;
    if !fit.missing.is_empty() {
        set = set.difference(&StratifiedSet::from_points(d, &fit.missing))?;
    }
    Ok(Some(Layered {
        normal,
        lo: fit.lo,
        hi: fit.hi,
        exceptions: fit.extra.len() + fit.missing.len(),
        set,
    }))
}

/// A fit on the domain with the least threshold that works: the interior (free coordinates at
/// least T) by [`fit_layers`], each face below T by a fit of its own.
fn fit_faces(
    region: &WeightRegion,
    domain: &Domain,
    hint: Option<&[i64]>,
    budget: &mut Budget,
) -> Option<Fit> {
    let d = domain.lower.len();
    let free: Vec<usize> = (0..d).filter(|&i| domain.pinned[i].is_none()).collect();
    if free.is_empty() {
        // One point.
        let x = domain.corner();
        let mut fit = Fit::default();
        if region.is_p(&x) == Some(true) {
            fit.extra.push(Vector::from_i64s(&x));
        }
        return Some(fit);
    }
    'thresholds: for t in THRESHOLDS {
        if crate::interrupt::requested() {
            return None;
        }
        let mut interior = domain.clone();
        for &i in &free {
            interior.lower[i] = interior.lower[i].max(t);
        }
        let Some(mut fit) = fit_layers(region, &interior, hint, budget) else {
            continue;
        };
        let normal = fit.normal.clone();
        // The faces x_i = c < T, each point in exactly one: x_j ≥ T for the free j before i.
        let mut face = domain.clone();
        for &i in &free {
            for c in domain.lower[i]..t {
                let mut pinned = face.clone();
                pinned.pinned[i] = Some(c);
                if region.weight(&pinned.corner()) > region.bound() {
                    continue;
                }
                let hint = normal.as_ref().map(|h| {
                    let mut h = h.clone();
                    h[i] = 0;
                    h
                });
                let Some(sub) = fit_faces(region, &pinned, hint.as_deref(), budget) else {
                    continue 'thresholds;
                };
                fit.pieces.extend(sub.pieces);
                fit.extra.extend(sub.extra);
                fit.missing.extend(sub.missing);
            }
            face.lower[i] = face.lower[i].max(t);
        }
        return Some(fit);
    }
    None
}

/// The layered pattern on the domain: fitted exactly on its heavier half (by weight between its
/// corner and the region's bound), with the lighter half's misses as exceptions; None when no
/// normal fits or the pieces would pass the budget. The `hint` (the enclosing domain's normal) is
/// tried first, and kept when no layer between its ends has a pattern of its own.
fn fit_layers(
    region: &WeightRegion,
    domain: &Domain,
    hint: Option<&[i64]>,
    budget: &mut Budget,
) -> Option<Fit> {
    if budget.fits == 0 {
        return None;
    }
    budget.fits -= 1;
    let d = domain.lower.len();
    let free: Vec<usize> = (0..d).filter(|&i| domain.pinned[i].is_none()).collect();
    let light = region.weight(&domain.corner());
    if light > region.bound() {
        return Some(Fit::default());
    }
    let half = light + (region.bound() - light) / 2;
    let mut heavy_points = Vec::new();
    let mut heavy_outcomes = Vec::new();
    domain.for_each(region, &mut |x, p| {
        if region.weight(x) > half {
            heavy_points.extend_from_slice(x);
            heavy_outcomes.push(p);
        }
    });
    if heavy_outcomes.len() < 8 {
        return None;
    }
    // A sample for choosing the normal.
    let stride = (heavy_outcomes.len() / SAMPLE).max(1);
    let mut points = Vec::new();
    let mut outcomes = Vec::new();
    for (k, x) in heavy_points.chunks_exact(d).enumerate().step_by(stride) {
        points.extend_from_slice(x);
        outcomes.push(heavy_outcomes[k]);
    }
    let mut best: Option<(i64, Vec<i64>)> = None;
    let hinted = hint
        .filter(|h| h.iter().any(|&a| a != 0))
        .map(<[i64]>::to_vec);
    let candidates = hinted
        .into_iter()
        .chain(normals(free.len()).into_iter().map(|small| {
            let mut h = vec![0; d];
            for (&i, &a) in free.iter().zip(&small) {
                h[i] = a;
            }
            h
        }));
    for h in candidates {
        if crate::interrupt::requested() {
            return None;
        }
        let Some(layers) = layer_patterns(&h, &points, &outcomes) else {
            continue;
        };
        let Some((lo, _, hi, _)) = ends(&layers) else {
            continue;
        };
        let own = (hi - lo - 1).max(0);
        if own <= MAX_LAYERS && best.as_ref().is_none_or(|(b, _)| own < *b) {
            best = Some((own, h));
            if own == 0 {
                break;
            }
        }
    }
    let (_, h) = best?;
    let layers = layer_patterns(&h, &heavy_points, &heavy_outcomes)?;
    drop((heavy_points, heavy_outcomes, points, outcomes));
    let (lo, low, hi, high) = ends(&layers)?;
    let (lo, hi) = if hi <= lo { (lo, lo + 1) } else { (lo, hi) };
    let pattern_at = |c: i64| -> Classes {
        if c <= lo {
            low
        } else if c >= hi {
            high
        } else {
            layers.get(&c).copied().unwrap_or(0)
        }
    };
    let mut fit = Fit {
        normal: Some(h.clone()),
        lo,
        hi,
        ..Fit::default()
    };
    // The heavier half must be predicted exactly (every class it shows was seen); the lighter
    // half's misses are exceptions.
    let mut failed = false;
    domain.for_each(region, &mut |x, truth| {
        if failed {
            return;
        }
        let pattern = pattern_at(level(&h, x));
        let class = class_of(x);
        let predicted = lookup(pattern, class);
        if predicted == Some(truth) {
            return;
        }
        if region.weight(x) > half {
            failed = true;
            return;
        }
        // A class no heavier position showed is not in the guessed set.
        if predicted.unwrap_or(false) == truth {
            return;
        }
        if fit.extra.len() + fit.missing.len() >= MAX_EXCEPTIONS {
            failed = true;
        } else if truth {
            fit.extra.push(Vector::from_i64s(x));
        } else {
            fit.missing.push(Vector::from_i64s(x));
        }
    });
    if failed {
        return None;
    }
    // The pieces: the two ends and each range of layers between, each class (or parity) in P.
    let hv = Vector::from_i64s(&h);
    let bounds = domain.inequalities();
    let mut pieces = Vec::new();
    let mut range = |from: Option<i64>, to: Option<i64>, pattern: Classes| {
        let mut inequalities = bounds.clone();
        if let Some(a) = from {
            inequalities.push((hv.clone(), Integer::from(a)));
        }
        if let Some(b) = to {
            inequalities.push((hv.scale(&Integer::from(-1)), Integer::from(-b)));
        }
        for coset in cosets_in_p(d, pattern) {
            pieces.push(BasicSet::new(coset, inequalities.clone()));
        }
    };
    range(None, Some(lo), low);
    let mut c = lo + 1;
    while c < hi {
        // Consecutive layers with one pattern make one range.
        let pattern = pattern_at(c);
        let mut end = c;
        while end + 1 < hi && pattern_at(end + 1) == pattern {
            end += 1;
        }
        range(Some(c), Some(end), pattern);
        c = end + 1;
    }
    range(Some(hi), None, high);
    if pieces.len() > budget.pieces {
        return None;
    }
    budget.pieces -= pieces.len();
    fit.pieces = pieces;
    Some(fit)
}

/// The cosets making up the classes in P of a pattern: one coset of {x : w·x even} when the
/// classes in P are those where w·x is even (or odd), else one coset of 2Z^d per class.
fn cosets_in_p(d: usize, pattern: Classes) -> Vec<Coset> {
    let classes = 1usize << d;
    let in_p = |c: usize| lookup(pattern, c) == Some(true);
    let members: Vec<usize> = (0..classes).filter(|&c| in_p(c)).collect();
    if members.is_empty() {
        return Vec::new();
    }
    let point = |c: usize| -> Vector {
        Vector::from_i64s(&(0..d).map(|i| ((c >> i) & 1) as i64).collect::<Vec<_>>())
    };
    if members.len() == classes {
        return vec![Coset::full(d)];
    }
    // A parity w·x ≡ r: half the classes.
    if members.len() * 2 == classes {
        for w in 1..classes {
            let parity = |c: usize| (c & w).count_ones() % 2;
            let r = parity(members[0]);
            if members.iter().all(|&c| parity(c) == r) {
                let mut generators = Vec::new();
                let support: Vec<usize> = (0..d).filter(|&i| (w >> i) & 1 == 1).collect();
                for i in 0..d {
                    let mut g = vec![0; d];
                    if (w >> i) & 1 == 1 {
                        g[i] = 2;
                    } else {
                        g[i] = 1;
                    }
                    generators.push(Vector::from_i64s(&g));
                }
                for pair in support.windows(2) {
                    let mut g = vec![0; d];
                    g[pair[0]] = 1;
                    g[pair[1]] = 1;
                    generators.push(Vector::from_i64s(&g));
                }
                let lattice = Lattice::generated_by(d, &generators);
                return vec![Coset::new(point(members[0]), &lattice)];
            }
        }
    }
    let even = Lattice::generated_by(
        d,
        &(0..d)
            .map(|i| Vector::unit(d, i).scale(&Integer::from(2)))
            .collect::<Vec<_>>(),
    );
    members
        .into_iter()
        .map(|c| Coset::new(point(c), &even))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parity_switched_across_a_slanted_line_is_found_with_its_exceptions() {
        // P: x + y even on or above the line y = x + 3, odd below it; plus two exceptions near 0.
        let ell = [1, 1];
        let mut region = WeightRegion::empty(&ell, 80);
        let rule = |x: &[i64]| -> bool {
            if x == [0, 1] || x == [2, 2] {
                return x == [0, 1];
            }
            ((x[0] + x[1]) % 2 == 0) == (x[1] - x[0] >= 3)
        };
        let mut all = Vec::new();
        region.for_each(|x| all.push(x.to_vec()));
        for x in &all {
            if rule(x) {
                region.insert(x);
            }
        }
        let found = guess(&region).unwrap().expect("a layered guess");
        // The two exceptions lie on faces near the origin, which get fits of their own.
        assert!(found.exceptions <= 2, "{}", found.exceptions);
        for x in &all {
            assert_eq!(found.set.contains(&Vector::from_i64s(x)), rule(x), "{x:?}");
        }
        // Beyond the region too.
        for x in [
            [500, 504],
            [500, 502],
            [1000, 3],
            [1000, 4],
            [3, 1000],
            [4, 1000],
        ] {
            assert_eq!(
                found.set.contains(&Vector::from_i64s(&x)),
                rule(&x),
                "{x:?}"
            );
        }
    }

    #[test]
    fn parities_make_one_coset() {
        // x_0 + x_2 odd in d = 3.
        let mut pattern: Classes = 0;
        for c in 0..8usize {
            let odd = ((c & 1) ^ ((c >> 2) & 1)) == 1;
            record(&mut pattern, c, odd);
        }
        let cosets = cosets_in_p(3, pattern);
        assert_eq!(cosets.len(), 1);
        for x in [[1, 0, 0], [0, 5, 1], [2, 3, 3], [4, 4, 1]] {
            assert_eq!(
                cosets[0].contains(&Vector::from_i64s(&x)),
                (x[0] + x[2]) % 2 == 1,
                "{x:?}"
            );
        }
    }
}
