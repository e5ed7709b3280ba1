//! The fourth guess of `stratify`: a translation that keeps the P-positions from a corner on,
//! which takes one free coordinate away at a time ([GM11] Definition 4.1's modules, built by
//! induction on the dimension).
//!
//! Let D be a domain of N^d: some coordinates fixed, the others (free) at least a corner lo. If
//! P(x) = P(x + v) for every x of D with x ≥ t (v ≥ 0 on the free coordinates, t ≥ lo), then
//! - D less t + N^k is the slabs {x_j = c, x_i ≥ t_i for the free i before j}, c < t_j;
//! - the corner {x ≥ t} is the slabs of its points not in v + {x ≥ t}, {x_j = c, x_i ≥ t_i + v_i
//!   for the i before j}, t_j ≤ c < t_j + v_j, each swept by N·v (every point of the corner is
//!   one of them plus a unique multiple of v).
//!
//! Each slab has one free coordinate fewer and is described alike, or, where every free axis of
//! it shows an eventual period, as the box modules of [`super::periods`] (b + N{p_i e_i : b_i ≥
//! t_i} over its base box). The modules found are disjoint and cover D, those in P and those
//! not, so the guess comes with N^d less it. Their generators are independent: a translation
//! swept at one level has a nonzero coordinate that every deeper generator leaves fixed.
//!
//! This finds games where P is invariant under a translation that is not along an axis, so that
//! no axis has a period (random rules in misère play, seed 8888, item 85: P(x) = P(x + (6, 4, 6,
//! 6)) on all of N^4, and each slab with one coordinate fixed is periodic along its axes), and
//! those periodic along one axis only, whose slabs across it are described one dimension lower.
//! It is a guess, read on the solved region, with evidence asked for at each step (a translation
//! is taken only where the corner plus twice it lies in the region); `verify` decides.

use std::collections::BTreeMap;
use std::time::Instant;

use crate::algebra::{AffineModule, AffineSemigroup, Vector};

use super::region::WeightRegion;

/// The largest coordinate of a translation tried.
const LARGEST_STEP: i64 = 8;

/// The most translations tried in one domain (the step is lowered in higher dimension).
const MOST_TRANSLATIONS: usize = 10_000;

/// How many of a domain's best translations are tried, one after the other, until the slabs of
/// one are all described. (Three, measured on 91 games that resisted a sweep, found fewer in
/// 10 s than one: the time a round may spend went to slabs tried again.)
const ALTERNATIVES: usize = 1;

/// Whether v = k·u for some k ≥ 2.
fn multiple_of(v: &[i64], u: &[i64]) -> bool {
    let Some(at) = u.iter().position(|&x| x != 0) else {
        return false;
    };
    let k = v[at] / u[at];
    k >= 2 && v.iter().zip(u).all(|(a, b)| *a == k * b)
}

/// The guess: the modules in P and those outside it, each grouped by their generators.
pub(super) struct Shifted {
    pub(super) in_p: Vec<AffineModule>,
    pub(super) outside: Vec<AffineModule>,
    /// The translation of the whole board and the corner t from which it holds.
    pub(super) translation: Vec<i64>,
    pub(super) from: Vec<i64>,
    /// How many modules (offsets) it has, in P and outside.
    pub(super) offsets: usize,
}

/// Why no guess was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum NoShift {
    /// No translation of the board (with evidence) keeps P from any corner.
    NoTranslation,
    /// A slab, its fixed coordinates given, has neither periods nor a translation.
    Slab(Vec<Option<i64>>),
    /// More than the allowed number of modules.
    TooMany(usize),
    /// The time given ran out, or the user interrupted.
    Stopped,
}

/// A domain: the fixed coordinates, and the least values of the free ones.
#[derive(Clone, Debug)]
struct Domain {
    fixed: Vec<Option<i64>>,
    lo: Vec<i64>,
}

impl Domain {
    fn free(&self) -> Vec<usize> {
        (0..self.lo.len())
            .filter(|&i| self.fixed[i].is_none())
            .collect()
    }

    /// Its least point.
    fn corner(&self) -> Vec<i64> {
        self.fixed
            .iter()
            .zip(&self.lo)
            .map(|(f, l)| f.unwrap_or(*l))
            .collect()
    }

    /// The slab with coordinate j fixed at c and the free ones from `lo`.
    fn slab(&self, j: usize, c: i64, lo: &[i64]) -> Domain {
        let mut fixed = self.fixed.clone();
        fixed[j] = Some(c);
        Domain {
            fixed,
            lo: lo.to_vec(),
        }
    }
}

/// One module b + N{gens}, in P or not.
struct Module {
    offset: Vec<i64>,
    gens: Vec<Vec<i64>>,
    in_p: bool,
}

struct Search<'a> {
    region: &'a WeightRegion,
    ell: &'a [i64],
    /// The weight up to which the region is read.
    fit: i64,
    most: usize,
    until: Instant,
    modules: Vec<Module>,
}

/// The guess on the solved region, from the positions of weight ≤ `fit`, with at most `most`
/// modules, stopping at `until`.
pub(super) fn shift_guess(
    region: &WeightRegion,
    fit: i64,
    most: usize,
    until: Instant,
) -> Result<Shifted, NoShift> {
    let d = region.dim();
    let mut search = Search {
        region,
        ell: region.ell(),
        fit: fit.min(region.bound()),
        most,
        until,
        modules: Vec::new(),
    };
    let whole = Domain {
        fixed: vec![None; d],
        lo: vec![0; d],
    };
    // The whole board is periodic along no axis (else the first guess is tried), or along some
    // only: a translation first.
    let (v, t) = search.translated(&whole, &[]).map_err(|e| match e {
        NoShift::Slab(fixed) if fixed.iter().all(Option::is_none) => NoShift::NoTranslation,
        e => e,
    })?;
    let offsets = search.modules.len();
    let (in_p, outside) = search.grouped(d);
    Ok(Shifted {
        in_p,
        outside,
        translation: v,
        from: t,
        offsets,
    })
}

impl Search<'_> {
    fn weight(&self, x: &[i64]) -> i64 {
        x.iter().zip(self.ell).map(|(a, b)| a * b).sum()
    }

    fn is_p(&self, x: &[i64]) -> bool {
        self.region.is_p(x).unwrap_or(false)
    }

    fn stopped(&self) -> bool {
        Instant::now() >= self.until || crate::interrupt::requested()
    }

    /// Calls `f` on the points x of the domain with x_i ≥ lo_i + m on its free coordinates and
    /// weight ≤ `limit`, while it returns true; false when stopped early.
    fn walk(&self, domain: &Domain, m: i64, limit: i64, f: &mut dyn FnMut(&[i64]) -> bool) -> bool {
        fn go(
            s: &Search<'_>,
            domain: &Domain,
            m: i64,
            i: usize,
            left: i64,
            x: &mut Vec<i64>,
            f: &mut dyn FnMut(&[i64]) -> bool,
        ) -> bool {
            if i == x.len() {
                return f(x);
            }
            if domain.fixed[i].is_some() {
                return go(s, domain, m, i + 1, left, x, f);
            }
            let w = s.ell[i].max(1);
            let start = domain.lo[i] + m;
            // The corner's weight is already counted in `left`.
            let mut k = 0;
            while k * w <= left {
                x[i] = start + k;
                if !go(s, domain, m, i + 1, left - k * w, x, f) {
                    x[i] = start;
                    return false;
                }
                k += 1;
            }
            x[i] = start;
            true
        }
        let mut x = domain.corner();
        for i in domain.free() {
            x[i] += m;
        }
        let left = limit - self.weight(&x);
        if left < 0 {
            return true;
        }
        go(self, domain, m, 0, left, &mut x, f)
    }

    /// The least (preperiod, period) along the free axis j of the domain, with evidence as for
    /// the board's axes ([`super::periods::period_along`]): t + 2p within the axis' reach from
    /// the corner, t + p within half of it (t counted from the corner).
    fn period_along(&self, domain: &Domain, j: usize) -> Option<(i64, i64)> {
        let corner = domain.corner();
        let reach = (self.fit - self.weight(&corner)) / self.ell[j].max(1);
        let most = reach / 2;
        let mut best: Option<(i64, i64)> = None;
        for p in 1..=most {
            let lo = domain.lo[j];
            let mut t = lo;
            let step = p * self.ell[j].max(1);
            let mut y = corner.clone();
            self.walk(domain, 0, self.fit - step, &mut |x| {
                if x[j] >= t {
                    y.copy_from_slice(x);
                    y[j] += p;
                    if self.is_p(x) != self.is_p(&y) {
                        t = x[j] + 1;
                    }
                }
                true
            });
            let rel = t - lo;
            if rel + p <= most
                && rel + 2 * p <= reach
                && best.is_none_or(|(bt, bp)| (rel + p, p) < (bt - lo + bp, bp))
            {
                best = Some((t, p));
            }
        }
        best
    }

    /// The translations v of the domain (on its free coordinates), each with the least corner
    /// t = lo + (s, ..., s) such that P(x) = P(x + v) for the x ≥ t of the domain, with evidence
    /// (t + 2v in the region): the `most` that cut the domain into the fewest slabs
    /// (k·s + Σ v), then the lightest, leaving out multiples of those kept. The shells
    /// x ≥ lo + m are read from the outermost in: most translations fail on the first few.
    ///
    /// (Measured and not kept: a corner moved out along one coordinate and in along the others
    /// where that cuts fewer slabs. It took translations along one axis from a far corner,
    /// whose slabs below it are staircases of thousands of modules, over the diagonal one with
    /// s = 0: random rules, seed 31337, item 0 was lost.)
    fn translations(&self, domain: &Domain, most: usize) -> Vec<(Vec<i64>, Vec<i64>)> {
        let free = domain.free();
        let k = free.len();
        if k < 2 {
            return Vec::new();
        }
        let corner = domain.corner();
        let room = self.fit - self.weight(&corner);
        let mut step = LARGEST_STEP;
        while step > 1 && ((step + 1) as usize).pow(k as u32) > MOST_TRANSLATIONS {
            step -= 1;
        }
        // The candidates, fewest slabs first.
        let mut candidates: Vec<Vec<i64>> = Vec::new();
        let mut v = vec![0i64; corner.len()];
        while let Some(at) = free.iter().position(|&i| v[i] < step) {
            v[free[at]] += 1;
            for &i in &free[..at] {
                v[i] = 0;
            }
            if 2 * self.weight(&v) <= room {
                candidates.push(v.clone());
            }
        }
        candidates.sort_by_key(|v| (v.iter().sum::<i64>(), self.weight(v)));
        // (slabs, v, s), fewest first.
        let mut kept: Vec<(i64, Vec<i64>, i64)> = Vec::new();
        // The largest m with lo + m (on the free coordinates) in the region.
        let top = room / free.iter().map(|&i| self.ell[i].max(1)).sum::<i64>();
        for v in candidates {
            if self.stopped() {
                return Vec::new();
            }
            let size: i64 = v.iter().sum();
            if kept.len() == most && kept.last().is_some_and(|(cost, _, _)| size >= *cost) {
                break;
            }
            let wv = self.weight(&v);
            // The shells min_i (x_i − lo_i) = m, from the outermost in: the first mismatch sets s.
            let mut s = 0;
            let mut y = corner.clone();
            for m in (0..=top).rev() {
                let mut clash = false;
                self.walk(domain, m, self.fit - wv, &mut |x| {
                    if free.iter().all(|&i| x[i] > domain.lo[i] + m) {
                        return true;
                    }
                    for (yi, (xi, vi)) in y.iter_mut().zip(x.iter().zip(&v)) {
                        *yi = xi + vi;
                    }
                    clash = self.is_p(x) != self.is_p(&y);
                    !clash
                });
                if clash {
                    s = m + 1;
                    break;
                }
            }
            let mut far = corner.clone();
            for &i in &free {
                far[i] += s + 2 * v[i];
            }
            if self.weight(&far) > self.fit
                || kept.iter().any(|(_, u, su)| s >= *su && multiple_of(&v, u))
            {
                continue;
            }
            let cost = k as i64 * s + size;
            let at = kept.partition_point(|(c, _, _)| *c <= cost);
            kept.insert(at, (cost, v, s));
            kept.truncate(most);
        }
        kept.into_iter()
            .map(|(_, v, s)| {
                let mut t = corner.clone();
                for &i in &free {
                    t[i] += s;
                }
                (v, t)
            })
            .collect()
    }

    /// The domain split by the first of its best translations whose slabs are all described in
    /// turn: that translation and its corner.
    fn translated(
        &mut self,
        domain: &Domain,
        sweep: &[Vec<i64>],
    ) -> Result<(Vec<i64>, Vec<i64>), NoShift> {
        let options = self.translations(domain, ALTERNATIVES);
        if self.stopped() {
            return Err(NoShift::Stopped);
        }
        let mut failed = NoShift::Slab(domain.fixed.clone());
        for (v, t) in options {
            let mark = self.modules.len();
            match self.split(domain, &v, &t, sweep) {
                Ok(()) => return Ok((v, t)),
                Err(NoShift::Slab(fixed)) => {
                    self.modules.truncate(mark);
                    failed = NoShift::Slab(fixed);
                }
                Err(e) => return Err(e),
            }
        }
        Err(failed)
    }

    /// Describes the domain: by periods along its free axes where each has one, else by a
    /// translation; each module gets the generators `sweep` too.
    fn describe(&mut self, domain: &Domain, sweep: &[Vec<i64>]) -> Result<(), NoShift> {
        if self.stopped() {
            return Err(NoShift::Stopped);
        }
        let corner = domain.corner();
        if self.weight(&corner) > self.fit {
            return Err(NoShift::Slab(domain.fixed.clone()));
        }
        let free = domain.free();
        let periods: Vec<Option<(i64, i64)>> =
            free.iter().map(|&j| self.period_along(domain, j)).collect();
        if periods.iter().all(Option::is_some) {
            let tp: Vec<(i64, i64)> = periods.into_iter().flatten().collect();
            if self.boxed(domain, &free, &tp, sweep)? {
                return Ok(());
            }
        }
        self.translated(domain, sweep).map(|_| ())
    }

    /// The box modules b + N{p_j e_j : b_j ≥ t_j} over the base box of the domain, when it lies
    /// in the region.
    fn boxed(
        &mut self,
        domain: &Domain,
        free: &[usize],
        tp: &[(i64, i64)],
        sweep: &[Vec<i64>],
    ) -> Result<bool, NoShift> {
        let d = domain.lo.len();
        let mut far = domain.corner();
        for (&j, &(t, p)) in free.iter().zip(tp) {
            far[j] = t + p - 1;
        }
        if self.weight(&far) > self.fit {
            return Ok(false);
        }
        let mut b = domain.corner();
        loop {
            let mut gens: Vec<Vec<i64>> = free
                .iter()
                .zip(tp)
                .filter(|&(&j, &(t, _))| b[j] >= t)
                .map(|(&j, &(_, p))| {
                    let mut g = vec![0; d];
                    g[j] = p;
                    g
                })
                .collect();
            gens.extend(sweep.iter().cloned());
            let in_p = self.is_p(&b);
            self.push(Module {
                offset: b.clone(),
                gens,
                in_p,
            })?;
            // The next point of the box, as an odometer.
            let Some(at) = (0..free.len())
                .rev()
                .find(|&a| b[free[a]] < tp[a].0 + tp[a].1 - 1)
            else {
                break;
            };
            b[free[at]] += 1;
            for &j in &free[at + 1..] {
                b[j] = domain.lo[j];
            }
        }
        Ok(true)
    }

    /// The domain as its slabs below the corner t and the slabs of t + N^k swept by N·v.
    fn split(
        &mut self,
        domain: &Domain,
        v: &[i64],
        t: &[i64],
        sweep: &[Vec<i64>],
    ) -> Result<(), NoShift> {
        let free = domain.free();
        let mut lo = domain.lo.clone();
        for &j in &free {
            for c in domain.lo[j]..t[j] {
                self.describe(&domain.slab(j, c, &lo), sweep)?;
            }
            lo[j] = t[j];
        }
        let mut swept = sweep.to_vec();
        swept.push(v.to_vec());
        for &j in &free {
            for c in t[j]..t[j] + v[j] {
                self.describe(&domain.slab(j, c, &lo), &swept)?;
            }
            lo[j] = t[j] + v[j];
        }
        Ok(())
    }

    fn push(&mut self, module: Module) -> Result<(), NoShift> {
        if self.modules.len() >= self.most {
            return Err(NoShift::TooMany(self.most));
        }
        self.modules.push(module);
        Ok(())
    }

    /// The modules in P and those outside, grouped by their generators.
    fn grouped(&self, d: usize) -> (Vec<AffineModule>, Vec<AffineModule>) {
        let mut groups: [BTreeMap<&[Vec<i64>], Vec<Vector>>; 2] = Default::default();
        for m in &self.modules {
            groups[usize::from(m.in_p)]
                .entry(&m.gens)
                .or_default()
                .push(Vector::from_i64s(&m.offset));
        }
        let [outside, in_p] = groups.map(|g| {
            g.into_iter()
                .filter_map(|(gens, offsets)| {
                    let gens = gens.iter().map(|g| Vector::from_i64s(g)).collect();
                    let a = AffineSemigroup::with_dim(d, gens).ok()?;
                    AffineModule::new(offsets, a).ok()
                })
                .collect()
        });
        (in_p, outside)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn later() -> Instant {
        Instant::now() + Duration::from_secs(60)
    }

    /// The points of weight ≤ `bound` of the modules b + N{gens}, each sum b + Σ k_i g_i once
    /// (a point twice means two modules, or two sums, reach it).
    fn members(modules: &[AffineModule], ell: &[i64], bound: i64) -> Vec<Vec<i64>> {
        let mut out = Vec::new();
        for m in modules {
            let gens: Vec<Vec<i64>> = m
                .semigroup()
                .generators()
                .iter()
                .map(|g| g.to_i64s().unwrap())
                .collect();
            for b in m.offsets() {
                let b = b.to_i64s().unwrap();
                let mut stack = vec![(b, 0usize)];
                while let Some((x, from)) = stack.pop() {
                    let w: i64 = x.iter().zip(ell).map(|(a, b)| a * b).sum();
                    if w > bound {
                        continue;
                    }
                    out.push(x.clone());
                    for (k, g) in gens.iter().enumerate().skip(from) {
                        let y: Vec<i64> = x.iter().zip(g).map(|(a, b)| a + b).collect();
                        stack.push((y, k));
                    }
                }
            }
        }
        out
    }

    /// The region of the given weight with the members of `p`.
    fn region_of(ell: &[i64], bound: i64, p: impl Fn(&[i64]) -> bool) -> WeightRegion {
        let mut region = WeightRegion::empty(ell, bound);
        let mut all = Vec::new();
        region.for_each(|x| {
            if p(x) {
                all.push(x.to_vec())
            }
        });
        for x in &all {
            region.insert(x);
        }
        region
    }

    /// The guess's modules, in P and outside, partition the region and agree with it.
    fn partitions(region: &WeightRegion, shifted: &Shifted) {
        let ell = region.ell().to_vec();
        let bound = region.bound();
        let inside = members(&shifted.in_p, &ell, bound);
        let outside = members(&shifted.outside, &ell, bound);
        let mut seen = std::collections::HashSet::new();
        for x in inside.iter().chain(&outside) {
            assert!(seen.insert(x.clone()), "{x:?} is in two modules");
        }
        assert_eq!(
            seen.len() as u64,
            region.len(),
            "every point is in a module"
        );
        for x in &inside {
            assert_eq!(region.is_p(x), Some(true), "{x:?}");
        }
        for x in &outside {
            assert_eq!(region.is_p(x), Some(false), "{x:?}");
        }
    }

    #[test]
    fn a_diagonal_translation_with_slabs_periodic_along_their_axes() {
        // A staircase: the level min(⌊x_1/3⌋, ⌊x_2/2⌋) and x_1 + x_2 taken mod 2.
        let p = |x: &[i64]| ((x[0] / 3).min(x[1] / 2) + x[0] + x[1]) % 2 == 0;
        let region = region_of(&[1, 1], 60, p);
        let shifted = shift_guess(&region, 60, 1000, later()).ok().unwrap();
        // (3, 2) raises the level by one and x_1 + x_2 by 5.
        assert_eq!(shifted.translation, vec![3, 2]);
        assert_eq!(shifted.from, vec![0, 0]);
        partitions(&region, &shifted);
    }

    #[test]
    fn nested_translations_in_three_dimensions() {
        // Periodic along x_3 only; each slab x_3 = c a staircase in (x_1, x_2) from a corner.
        let p = |x: &[i64]| {
            let level = ((x[0] + x[2] % 2) / 3).min(x[1] / 2);
            (level + x[0] + x[1] + x[2] / 2) % 2 == 0 || x[0] + x[1] < 2
        };
        let region = region_of(&[1, 1, 1], 40, p);
        let shifted = shift_guess(&region, 40, 5000, later()).ok().unwrap();
        partitions(&region, &shifted);
    }

    #[test]
    fn no_translation_of_an_aperiodic_set() {
        // The powers of 2 along the diagonal: no translation keeps it.
        let p = |x: &[i64]| {
            let n = x[0] + x[1];
            n > 0 && n & (n - 1) == 0
        };
        let region = region_of(&[1, 1], 60, p);
        assert!(shift_guess(&region, 60, 1000, later()).is_err());
    }

    #[test]
    fn the_module_limit_and_the_deadline_stop_it() {
        let p = |x: &[i64]| ((x[0] / 3).min(x[1] / 2) + x[0] + x[1]) % 2 == 0;
        let region = region_of(&[1, 1], 60, p);
        assert_eq!(
            shift_guess(&region, 60, 3, later()).err(),
            Some(NoShift::TooMany(3))
        );
        assert_eq!(
            shift_guess(&region, 60, 1000, Instant::now()).err(),
            Some(NoShift::Stopped)
        );
    }
}
