//! The outcomes of a solved weight region {x ∈ N^d : ℓ·x ≤ W} (ℓ > 0 coordinatewise), one bit
//! per position in lexicographic order, for the guessers of `stratify`: a lookup costs d
//! additions (no search, no allocation), so periods and pieces can be tested on millions of
//! positions.
//!
//! The index of x is Σ_i (the number of points of the region agreeing with x before coordinate i
//! and smaller at i), read from a table of counts per coordinate and remaining weight (d(W + 1)
//! numbers).

use super::super::solver::{bits, Solution};
use crate::random::SplitMix64;

/// P-positions of a weight region of N^d, indexed densely.
pub(super) struct WeightRegion {
    ell: Vec<i64>,
    bound: i64,
    /// `count[i][r]`: how many points (x_i, .., x_{d-1}) ≥ 0 have weight ≤ r. The points with
    /// x_i < k among them number count[i][r] − count[i][r − ℓ_i k].
    count: Vec<Vec<u64>>,
    len: u64,
    p: Vec<u64>,
}

impl WeightRegion {
    /// The region ℓ·x ≤ `bound` of N^d, with no P-positions yet.
    pub(super) fn empty(ell: &[i64], bound: i64) -> WeightRegion {
        let mut region = WeightRegion::counting(ell, bound);
        region.p = vec![0; bits::words_for(region.len as usize)];
        region
    }

    /// The region with its counts only (no bit per position), for indexing and sampling.
    fn counting(ell: &[i64], bound: i64) -> WeightRegion {
        let d = ell.len();
        let size = (bound.max(0) + 1) as usize;
        let mut count = vec![Vec::new(); d + 1];
        count[d] = vec![1u64; size];
        for i in (0..d).rev() {
            let w = ell[i].max(1) as usize;
            let mut here = vec![0u64; size];
            for r in 0..size {
                here[r] = count[i + 1][r] + if r >= w { here[r - w] } else { 0 };
            }
            count[i] = here;
        }
        let len = if bound < 0 {
            0
        } else {
            count[0][bound as usize]
        };
        WeightRegion {
            ell: ell.to_vec(),
            bound,
            count,
            len,
            p: Vec::new(),
        }
    }

    /// The point at this position of the order (below `len`).
    fn decode(&self, mut index: u64, x: &mut [i64]) {
        let mut left = self.bound;
        for (i, xi) in x.iter_mut().enumerate() {
            let w = self.ell[i].max(1);
            // The points before x_i = k number count[i][left] − count[i][left − w k], growing
            // with k: the largest k with at most `index` of them.
            let before =
                |k: i64| self.count[i][left as usize] - self.count[i][(left - w * k) as usize];
            let (mut lo, mut hi) = (0i64, left / w);
            while lo < hi {
                let mid = (lo + hi + 1) / 2;
                if before(mid) <= index {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            index -= before(lo);
            left -= w * lo;
            *xi = lo;
        }
    }

    /// Calls `f` on `count` positions drawn uniformly at random (by index, so repeats are
    /// possible), with their outcomes, while it returns true; false when stopped. Each is found
    /// from its index (d binary searches), so four million of them cost the same on a region of
    /// ten million positions as on one of a billion, which a walk of every position does not.
    pub(super) fn for_each_drawn(
        &self,
        count: u64,
        random: &mut SplitMix64,
        f: &mut dyn FnMut(&[i64], bool) -> bool,
    ) -> bool {
        if self.len == 0 {
            return true;
        }
        let mut x = vec![0i64; self.ell.len()];
        for _ in 0..count {
            let at = random.below(self.len);
            self.decode(at, &mut x);
            if !f(&x, self.get(at)) {
                return false;
            }
        }
        true
    }

    /// Points spread evenly, in the order of the index, over the points x of the region with
    /// x_i = `fixed[i]` where given and x_i ≥ `lower[i]` elsewhere, of weight above `above`:
    /// about `most` of them (all when there are no more), flat with d coordinates each, with
    /// their outcomes; and how many such points there are. Each is found from its index, so a
    /// sample of tens of millions of positions costs its own size, not a walk of them all.
    pub(super) fn sample_above(
        &self,
        fixed: &[Option<i64>],
        lower: &[i64],
        above: i64,
        most: usize,
    ) -> (Vec<i64>, Vec<bool>, u64) {
        let d = self.ell.len();
        let corner: Vec<i64> = fixed
            .iter()
            .zip(lower)
            .map(|(f, &l)| f.unwrap_or(l))
            .collect();
        let (mut points, mut outcomes) = (Vec::new(), Vec::new());
        let spare = self.bound - self.weight(&corner);
        if spare < 0 || corner.iter().any(|&c| c < 0) {
            return (points, outcomes, 0);
        }
        // The free coordinates y = x − corner range over a weight region of their own.
        let free: Vec<usize> = (0..d).filter(|&i| fixed[i].is_none()).collect();
        let ell_free: Vec<i64> = free.iter().map(|&i| self.ell[i]).collect();
        let sub = WeightRegion::counting(&ell_free, spare);
        let light_bound = above - self.weight(&corner);
        let light = if light_bound < 0 {
            0
        } else if free.is_empty() {
            1
        } else {
            sub.count[0][light_bound.min(spare) as usize]
        };
        let total = sub.len;
        let heavy = total.saturating_sub(light);
        if heavy == 0 {
            return (points, outcomes, 0);
        }
        let picks = if heavy <= most as u64 {
            total
        } else {
            ((most as u128 * total as u128).div_ceil(heavy as u128)) as u64
        };
        let mut y = vec![0i64; free.len()];
        let mut x = corner.clone();
        for j in 0..picks {
            let index = (j as u128 * total as u128 / picks as u128) as u64;
            sub.decode(index, &mut y);
            for (&i, &v) in free.iter().zip(&y) {
                x[i] = corner[i] + v;
            }
            if self.weight(&x) > above {
                points.extend_from_slice(&x);
                outcomes.push(self.is_p(&x) == Some(true));
            }
        }
        (points, outcomes, heavy)
    }

    /// The P-positions of `sol` on the region (solved on at least this region); None when
    /// interrupted (millions of positions take seconds: the request is read every 4096 rows).
    /// The solver hands over its rows; one along the last axis is a run of this region's bits
    /// (both orders are lexicographic) and is copied a word at a time, and any other is read
    /// 64 positions at a time and only its P-positions are placed.
    pub(super) fn from_solution(sol: &Solution, ell: &[i64], bound: i64) -> Option<WeightRegion> {
        let mut region = WeightRegion::empty(ell, bound);
        let d = ell.len();
        let mut rows = 0u64;
        let mut stopped = false;
        let mut x = vec![0i64; d];
        sol.for_each_p_row_while(|start, direction, bits, offset, len| {
            rows += 1;
            if rows.is_multiple_of(1 << 12) && crate::interrupt::requested() {
                stopped = true;
                return false;
            }
            let along_last =
                d > 0 && direction[d - 1] == 1 && direction[..d - 1].iter().all(|&c| c == 0);
            if along_last {
                // The part of the row inside the region: 0 ≤ x_{d−1} ≤ what the rest leaves.
                x.copy_from_slice(start);
                let lo = x[d - 1];
                x[d - 1] = 0;
                let Some(first) = region.index(&x) else {
                    return true;
                };
                let top = (bound - region.weight(&x)) / ell[d - 1].max(1);
                let (a, b) = (lo.max(0), (lo + len as i64 - 1).min(top));
                if a <= b {
                    bits::or_range(
                        &mut region.p,
                        (first + a as u64) as usize,
                        bits,
                        (offset + (a - lo) as u64) as usize,
                        (b - a + 1) as usize,
                    );
                }
                return true;
            }
            bits::for_each_one(bits, offset as usize, len as usize, |j| {
                for ((xi, s), v) in x.iter_mut().zip(start).zip(direction) {
                    *xi = s + j as i64 * v;
                }
                region.insert(&x);
                true
            });
            true
        });
        (!stopped).then_some(region)
    }

    /// ℓ·x.
    pub(super) fn weight(&self, x: &[i64]) -> i64 {
        x.iter().zip(&self.ell).map(|(a, b)| a * b).sum()
    }

    /// The dimension d.
    pub(super) fn dim(&self) -> usize {
        self.ell.len()
    }

    /// The functional ℓ.
    pub(super) fn ell(&self) -> &[i64] {
        &self.ell
    }

    /// The weight bound W.
    pub(super) fn bound(&self) -> i64 {
        self.bound
    }

    /// The number of positions of the region.
    pub(super) fn len(&self) -> u64 {
        self.len
    }

    /// The number of positions of weight ≤ w (at most the region's).
    pub(super) fn len_up_to(&self, w: i64) -> u64 {
        if w < 0 {
            return 0;
        }
        self.count[0][w.min(self.bound) as usize]
    }

    /// The position of x in the order, or `None` outside the region.
    #[inline]
    pub(super) fn index(&self, x: &[i64]) -> Option<u64> {
        let mut left = self.bound;
        let mut at = 0u64;
        for (i, &xi) in x.iter().enumerate() {
            if xi < 0 {
                return None;
            }
            let w = self.ell[i].max(1);
            let cost = xi.checked_mul(w)?;
            if cost > left {
                return None;
            }
            at += self.count[i][left as usize] - self.count[i][(left - cost) as usize];
            left -= cost;
        }
        Some(at)
    }

    /// Whether x is a P-position; `None` outside the region.
    #[inline]
    pub(super) fn is_p(&self, x: &[i64]) -> Option<bool> {
        self.index(x).map(|i| bits::get(&self.p, i as usize))
    }

    /// Marks x (in the region) as a member.
    pub(super) fn insert(&mut self, x: &[i64]) {
        if let Some(i) = self.index(x) {
            bits::set(&mut self.p, i as usize);
        }
    }

    /// Whether the member at this index is set.
    pub(super) fn get(&self, index: u64) -> bool {
        bits::get(&self.p, index as usize)
    }

    /// Calls `f` on every position of the region, in the order of the index (the tests' walk;
    /// the search reads regions weight by weight or by index).
    #[cfg(test)]
    pub(super) fn for_each(&self, mut f: impl FnMut(&[i64])) {
        fn walk(ell: &[i64], left: i64, x: &mut Vec<i64>, f: &mut dyn FnMut(&[i64])) {
            if x.len() == ell.len() {
                f(x);
                return;
            }
            let w = ell[x.len()].max(1);
            for k in 0..=left / w {
                x.push(k);
                walk(ell, left - k * w, x, f);
                x.pop();
            }
        }
        if self.bound >= 0 {
            walk(&self.ell, self.bound, &mut Vec::new(), &mut f);
        }
    }

    /// The members of weight exactly w, lexicographically, as one flat list of coordinates (d
    /// per member). Read weight by weight, the members come lightest first without a walk of the
    /// whole region: a search that stops at a light member costs only the lighter slices.
    pub(super) fn members_of_weight(&self, w: i64) -> Vec<i64> {
        let mut out = Vec::new();
        self.for_each_of_weight(w, &[], &mut |x| {
            if self.is_p(x) == Some(true) {
                out.extend_from_slice(x);
            }
            true
        });
        out
    }

    /// Calls `f` on the points of N^d of weight exactly w (at most the bound), lexicographically,
    /// while it returns true; false when stopped. With `zero_among` nonempty, only the points with
    /// some of those coordinates 0 (the first points of lines along a direction with that
    /// support), walked without the others.
    pub(super) fn for_each_of_weight(
        &self,
        w: i64,
        zero_among: &[usize],
        f: &mut dyn FnMut(&[i64]) -> bool,
    ) -> bool {
        struct Walk<'a> {
            ell: &'a [i64],
            zero_among: &'a [usize],
        }
        impl Walk<'_> {
            fn go(&self, left: i64, x: &mut Vec<i64>, f: &mut dyn FnMut(&[i64]) -> bool) -> bool {
                let k = x.len();
                let step = self.ell[k].max(1);
                // The last coordinate that may be 0 must be, when none before it is.
                let forced = self.zero_among.last() == Some(&k)
                    && self.zero_among[..self.zero_among.len() - 1]
                        .iter()
                        .all(|&j| x[j] != 0);
                if k + 1 == self.ell.len() {
                    // The last coordinate takes what is left, when ℓ_{d−1} divides it.
                    if left % step != 0 || (forced && left != 0) {
                        return true;
                    }
                    x.push(left / step);
                    let go = f(x);
                    x.pop();
                    return go;
                }
                let top = if forced { 0 } else { left / step };
                for v in 0..=top {
                    x.push(v);
                    let go = self.go(left - v * step, x, f);
                    x.pop();
                    if !go {
                        return false;
                    }
                }
                true
            }
        }
        if !(0..=self.bound).contains(&w) || self.ell.is_empty() {
            return true;
        }
        let mut zero_among = zero_among.to_vec();
        zero_among.sort_unstable();
        zero_among.dedup();
        let walk = Walk {
            ell: &self.ell,
            zero_among: &zero_among,
        };
        walk.go(w, &mut Vec::new(), f)
    }

    /// For each shift p = 1..=`most` along axis i: one more than the largest x_i such that x and
    /// x + p e_i are both in the region and differ (0 when none); None when interrupted.
    ///
    /// The region's rows along the last axis are runs of its bits, and the row of x + p e_i is
    /// a prefix of the row of x (it leaves less weight), so for i < d − 1 the comparisons go a row
    /// and 64 positions at a time. The rows are taken by x_i from the top down, so a shift is
    /// settled by its first difference; only the shifts under which every row agrees so far
    /// (the candidate periods) are compared on the lower rows.
    pub(super) fn last_mismatches(&self, i: usize, most: usize) -> Option<Vec<i64>> {
        let d = self.ell.len();
        let mut last = vec![0i64; most + 1];
        if self.bound < 0 || most == 0 {
            return Some(last);
        }
        if i + 1 == d {
            // Along the last axis each line is a row: copied whole, each shift compared on it.
            let step = self.ell[i].max(1);
            let mut stop = false;
            let mut line: Vec<u64> = Vec::new();
            self.for_each_row(None, &mut |start, left| {
                if crate::interrupt::requested() {
                    stop = true;
                    return false;
                }
                let Some(at) = self.index(start) else {
                    return true;
                };
                let len = (left / step + 1) as usize;
                line.clear();
                line.resize(bits::words_for(len), 0);
                bits::or_range(&mut line, 0, &self.p, at as usize, len);
                let shifts = most.min(len.saturating_sub(1));
                for (p, known) in last.iter_mut().enumerate().take(shifts + 1).skip(1) {
                    // Only a larger last[p] can change it; the callers rule out shifts with
                    // last[p] + p > most anyway.
                    let from = *known as usize;
                    if from + p > most {
                        continue;
                    }
                    if let Some(k) = last_mismatch(&line, len, p, from) {
                        *known = k as i64 + 1;
                    }
                }
                true
            });
            return (!stop).then_some(last);
        }
        let step = self.ell[i].max(1);
        let reach = self.bound / step;
        let mut settled = vec![false; most + 1];
        let mut shifted = vec![0i64; d];
        for k in (0..reach).rev() {
            // A shift p0 that no row has refuted from this level up makes its multiples agree
            // there too (x, x + p0 e_i, .., x + m p0 e_i lie on one line of the region), so only
            // the shifts with no open divisor are compared; one settled at this level opens its
            // multiples, which are then compared at this level too.
            let mut checked = vec![false; most + 1];
            loop {
                if crate::interrupt::requested() {
                    return None;
                }
                let mut open: Vec<usize> = (1..=most)
                    .filter(|&p| {
                        !settled[p]
                            && !checked[p]
                            && k + (p as i64) <= reach
                            && !(1..p).any(|q| p % q == 0 && !settled[q] && k + (q as i64) <= reach)
                    })
                    .collect();
                if open.is_empty() {
                    break;
                }
                for &p in &open {
                    checked[p] = true;
                }
                // The rows with x_i = k, each with the rows p above it.
                self.for_each_row(Some((i, k)), &mut |key, _| {
                    let Some(start) = self.index(key) else {
                        return true;
                    };
                    shifted.copy_from_slice(key);
                    open.retain(|&p| {
                        shifted[i] = k + p as i64;
                        let Some(above) = self.index(&shifted) else {
                            return true;
                        };
                        // The shifted row's length: the last coordinate's reach from it.
                        let left = self.bound - self.weight(&shifted);
                        let len = (left / self.ell[d - 1].max(1) + 1) as usize;
                        if runs_differ(&self.p, start as usize, above as usize, len) {
                            last[p] = k + 1;
                            settled[p] = true;
                            false
                        } else {
                            true
                        }
                    });
                    !open.is_empty()
                });
            }
        }
        Some(last)
    }

    /// Calls `f(start, left)` on the first point of each row of the region (a line along the
    /// last axis: x_{d−1} = 0), with x_i = k where `fixed` is Some((i, k)) (i < d − 1), and the
    /// weight left to its row (which holds left / ℓ_{d−1} + 1 points), while f returns true.
    fn for_each_row(&self, fixed: Option<(usize, i64)>, f: &mut dyn FnMut(&[i64], i64) -> bool) {
        fn walk(
            region: &WeightRegion,
            fixed: Option<(usize, i64)>,
            left: i64,
            key: &mut [i64],
            j: usize,
            f: &mut dyn FnMut(&[i64], i64) -> bool,
        ) -> bool {
            if j + 1 >= key.len() {
                return f(key, left);
            }
            let w = region.ell[j].max(1);
            let (from, to) = match fixed {
                Some((i, k)) if i == j => (k, k),
                _ => (0, left / w),
            };
            for v in from..=to.min(left / w) {
                key[j] = v;
                if !walk(region, fixed, left - v * w, key, j + 1, f) {
                    return false;
                }
            }
            true
        }
        if self.bound < 0 || self.ell.is_empty() {
            return;
        }
        let mut key = vec![0i64; self.ell.len()];
        walk(self, fixed, self.bound, &mut key, 0, f);
    }

    /// Whether every point of b + N{g_1..g_k} inside the region is a member. The generators must
    /// have positive weight.
    pub(super) fn cone_inside(&self, b: &[i64], gens: &[Vec<i64>]) -> bool {
        let mut ok = true;
        self.cone_walk(b, gens, &mut |at| {
            ok = self.get(at);
            ok
        });
        ok
    }

    /// Calls `f(index)` on every point of b + N{g_1..g_k} inside the region while it returns
    /// true (points may repeat when the g_j are dependent). A walk may meet millions of points:
    /// it also stops on an interrupt (Ctrl-C or a deadline), and its callers check for one before
    /// they use what it saw.
    pub(super) fn cone_walk(&self, b: &[i64], gens: &[Vec<i64>], f: &mut dyn FnMut(u64) -> bool) {
        fn walk(
            region: &WeightRegion,
            x: &mut [i64],
            gens: &[Vec<i64>],
            f: &mut dyn FnMut(u64) -> bool,
        ) -> bool {
            let Some((g, rest)) = gens.split_last() else {
                return match region.index(x) {
                    Some(at) => f(at),
                    None => true,
                };
            };
            let mut steps = 0;
            let mut go = true;
            while region.weight(x) <= region.bound && go {
                go = walk(region, x, rest, f);
                for (xi, gi) in x.iter_mut().zip(g) {
                    *xi += gi;
                }
                steps += 1;
            }
            // Back to where this generator's walk started, without a copy.
            for (xi, gi) in x.iter_mut().zip(g) {
                *xi -= gi * steps;
            }
            go
        }
        let mut visits = 0u32;
        let mut checked = |at: u64| -> bool {
            visits = visits.wrapping_add(1);
            if visits.is_multiple_of(1 << 16) && crate::interrupt::requested() {
                return false;
            }
            f(at)
        };
        walk(self, &mut b.to_vec(), gens, &mut checked);
    }

    /// Marks every point of b + N{g_1..g_k} inside the region.
    pub(super) fn insert_cone(&mut self, b: &[i64], gens: &[Vec<i64>]) {
        let mut hits = Vec::new();
        self.cone_walk(b, gens, &mut |at| {
            hits.push(at);
            true
        });
        for at in hits {
            bits::set(&mut self.p, at as usize);
        }
    }
}

/// Every n-th position (flat, d per position, from the first) with its outcome.
pub(super) fn every_nth(
    d: usize,
    points: &[i64],
    outcomes: &[bool],
    n: usize,
) -> (Vec<i64>, Vec<bool>) {
    let mut kept = (Vec::new(), Vec::new());
    for (k, x) in points.chunks_exact(d).enumerate().step_by(n.max(1)) {
        kept.0.extend_from_slice(x);
        kept.1.push(outcomes[k]);
    }
    kept
}

/// The largest k in from..len − p with s[k] ≠ s[k + p], for bits s packed 64 to a word, read 64
/// positions at a time from the top.
pub(super) fn last_mismatch(s: &[u64], len: usize, p: usize, from: usize) -> Option<usize> {
    let mut hi = len.checked_sub(p)?;
    while hi > from {
        let lo = hi.saturating_sub(64).max(from);
        let n = hi - lo;
        let differ = bits::read(s, lo, n) ^ bits::read(s, lo + p, n);
        if differ != 0 {
            return Some(lo + 63 - differ.leading_zeros() as usize);
        }
        hi = lo;
    }
    None
}

/// Whether the `len` bits from `a` and from `b` differ anywhere.
fn runs_differ(s: &[u64], a: usize, b: usize, len: usize) -> bool {
    let mut at = 0;
    while at < len {
        let n = (len - at).min(64);
        if bits::read(s, a + at, n) != bits::read(s, b + at, n) {
            return true;
        }
        at += n;
    }
    false
}

/// Test regions drawn from a rule, or solved.
#[cfg(test)]
impl WeightRegion {
    /// The P-positions of weight ≤ `bound` of a game solved from scratch under ℓ.
    pub(super) fn solved(game: &crate::game::LatticeGame, ell: &[i64], bound: i64) -> WeightRegion {
        use super::super::solver::{Region, SolveOptions};
        let sol = Solution::solve(
            game,
            &Region::Weight(crate::algebra::Integer::from(bound)),
            SolveOptions {
                functional: Some(crate::algebra::Vector::from_i64s(ell)),
                ..SolveOptions::default()
            },
        )
        .expect("solved");
        WeightRegion::from_solution(&sol, ell, bound).expect("not interrupted")
    }

    /// The region of weight ≤ bound whose P-positions are those of `rule`, and all its points.
    pub(super) fn of_rule(
        ell: &[i64],
        bound: i64,
        rule: &dyn Fn(&[i64]) -> bool,
    ) -> (WeightRegion, Vec<Vec<i64>>) {
        let mut region = WeightRegion::empty(ell, bound);
        let mut all = Vec::new();
        region.for_each(|x| all.push(x.to_vec()));
        for x in &all {
            if rule(x) {
                region.insert(x);
            }
        }
        (region, all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix64;

    #[test]
    fn the_index_enumerates_the_region_in_order() {
        for ell in [&[1i64, 1][..], &[1, 2, 3], &[2, 1, 3, 1]] {
            for bound in [0, 1, 5, 11] {
                let region = WeightRegion::empty(ell, bound);
                let mut next = 0u64;
                region.for_each(|x| {
                    assert_eq!(region.index(x), Some(next), "{x:?} in {ell:?} ≤ {bound}");
                    next += 1;
                });
                assert_eq!(next, region.len());
                let mut beyond = vec![0; ell.len()];
                beyond[0] = bound / ell[0] + 1;
                assert_eq!(region.index(&beyond), None);
                assert_eq!(region.index(&vec![-1; ell.len()]), None);
            }
        }
    }

    #[test]
    fn draws_are_positions_of_the_region_with_their_outcomes_and_reach_all_of_them() {
        let mut random = SplitMix64(0x5eed);
        for ell in [&[1i64, 1][..], &[1, 2, 3], &[2, 1, 3, 1]] {
            let mut region = WeightRegion::empty(ell, 9);
            let mut members = Vec::new();
            region.for_each(|x| {
                if random.below(3) == 0 {
                    members.push(x.to_vec());
                }
            });
            for x in &members {
                region.insert(x);
            }
            let mut hits = vec![0u32; region.len() as usize];
            let draws = 40 * region.len();
            let mut drawn = 0u64;
            region.for_each_drawn(draws, &mut random, &mut |x, p| {
                let at = region.index(x).expect("drawn inside the region");
                assert_eq!(p, members.iter().any(|m| m == x), "{x:?}");
                hits[at as usize] += 1;
                drawn += 1;
                true
            });
            assert_eq!(drawn, draws);
            // Each position drawn about 40 times: none missed.
            assert!(hits.iter().all(|&h| h > 0), "{ell:?}");
            // A draw stopped by `f` stops.
            let mut calls = 0;
            assert!(!region.for_each_drawn(10, &mut random, &mut |_, _| {
                calls += 1;
                calls < 3
            }));
            assert_eq!(calls, 3);
        }
    }

    #[test]
    fn the_last_mismatch_is_read_64_at_a_time_as_one_by_one() {
        // Lines of up to 200 bits from a small generator: every shift and starting point.
        let mut random = SplitMix64(0x2545_f491_4f6c_dd1d);
        for len in 0..200usize {
            let line: Vec<bool> = (0..len)
                .map(|k| {
                    let state = random.next_u64();
                    // Long periodic stretches too, where the scan goes far.
                    if len % 3 == 0 {
                        k % 5 == 1 || k < 7 && state & 1 == 1
                    } else {
                        state & 3 == 0
                    }
                })
                .collect();
            let mut packed = vec![0u64; bits::words_for(len)];
            for (k, &b) in line.iter().enumerate() {
                if b {
                    bits::set(&mut packed, k);
                }
            }
            for p in 1..len {
                for from in [0, 1, 5, 63, 64, 65, 130].into_iter().filter(|&f| f <= len) {
                    let expected = (from..len - p).rev().find(|&k| line[k] != line[k + p]);
                    assert_eq!(
                        last_mismatch(&packed, len, p, from),
                        expected,
                        "{len} {p} {from}"
                    );
                }
            }
        }
    }

    #[test]
    fn shifts_along_every_axis_are_compared_as_point_by_point() {
        // Random members on regions of N^2 .. N^4 with unequal weights; the rows' comparison
        // against the definition, one pair of points at a time.
        let mut random = SplitMix64(0x9e37_79b9_7f4a_7c15);
        for (ell, bound) in [
            (vec![1, 1], 150),
            (vec![2, 1], 140),
            (vec![1, 2, 1], 40),
            (vec![1, 1, 3], 45),
            (vec![1, 1, 1, 1], 22),
            (vec![2, 1, 1, 3], 30),
        ] {
            let d = ell.len();
            let mut region = WeightRegion::empty(&ell, bound);
            let mut points = Vec::new();
            region.for_each(|x| points.push(x.to_vec()));
            // Eventually periodic along each axis with noise below a threshold, so that some
            // shifts survive long and some do not.
            for x in &points {
                let periodic = x.iter().sum::<i64>() % 3 == 0;
                let noisy = x.iter().any(|&c| c < 3) && random.below(4) == 0;
                if periodic != noisy {
                    region.insert(x);
                }
            }
            for i in 0..d {
                let most = (bound / ell[i] / 2) as usize;
                let mut expected = vec![0i64; most + 1];
                for x in &points {
                    for (p, e) in expected.iter_mut().enumerate().skip(1) {
                        let mut y = x.clone();
                        y[i] += p as i64;
                        if let Some(b) = region.is_p(&y) {
                            if b != region.is_p(x).unwrap() {
                                *e = (*e).max(x[i] + 1);
                            }
                        }
                    }
                }
                let got = region.last_mismatches(i, most).unwrap();
                if i + 1 == d {
                    // Along the last axis a shift ruled out (last[p] + p > most) stops early.
                    for p in 1..=most {
                        if expected[p] + p as i64 <= most as i64 || got[p] + p as i64 <= most as i64
                        {
                            assert_eq!(got[p], expected[p], "{ell:?} axis {i} shift {p}");
                        }
                    }
                } else {
                    assert_eq!(got, expected, "{ell:?} axis {i}");
                }
            }
        }
    }

    #[test]
    fn cones_are_walked_inside_the_region() {
        let mut region = WeightRegion::empty(&[1, 1], 6);
        region.insert_cone(&[1, 0], &[vec![2, 0], vec![0, 3]]);
        let members: Vec<i64> = (0..=7).flat_map(|w| region.members_of_weight(w)).collect();
        assert_eq!(members, vec![1, 0, 3, 0, 1, 3, 5, 0, 3, 3]);
        assert!(region.cone_inside(&[3, 0], &[vec![2, 0]]));
        assert!(!region.cone_inside(&[1, 0], &[vec![1, 0]]));
    }

    #[test]
    fn points_of_one_weight_come_in_order_with_or_without_a_zero() {
        for ell in [vec![1, 2, 1], vec![2, 1, 1, 3], vec![3]] {
            let region = WeightRegion::empty(&ell, 20);
            let mut all = Vec::new();
            region.for_each(|x| all.push(x.to_vec()));
            all.sort_by_key(|x| region.weight(x));
            let d = ell.len();
            for zero_among in [
                vec![],
                vec![0],
                vec![d - 1],
                vec![0, d - 1],
                (0..d).collect(),
            ] {
                let mut got = Vec::new();
                for w in 0..=20 {
                    region.for_each_of_weight(w, &zero_among, &mut |x| {
                        got.push(x.to_vec());
                        true
                    });
                }
                let expected: Vec<Vec<i64>> = all
                    .iter()
                    .filter(|x| zero_among.is_empty() || zero_among.iter().any(|&j| x[j] == 0))
                    .cloned()
                    .collect();
                assert_eq!(got, expected, "{ell:?} {zero_among:?}");
            }
        }
    }

    #[test]
    fn a_sample_from_the_index_is_the_walk_thinned_evenly() {
        let ell = [1, 2, 1];
        let mut region = WeightRegion::empty(&ell, 30);
        let mut points = Vec::new();
        region.for_each(|x| points.push(x.to_vec()));
        for x in &points {
            if (x[0] + 2 * x[2]) % 3 == 1 {
                region.insert(x);
            }
        }
        // Decoding inverts the index.
        let mut y = vec![0i64; 3];
        for (k, x) in points.iter().enumerate() {
            region.decode(k as u64, &mut y);
            assert_eq!(&y, x);
        }
        for (fixed, lower, above) in [
            (vec![None, None, None], vec![0, 0, 0], 15),
            (vec![None, Some(3), None], vec![2, 0, 1], 20),
            (vec![None, None, None], vec![4, 4, 4], 0),
            (vec![Some(1), Some(1), Some(1)], vec![0, 0, 0], 3),
        ] {
            let inside: Vec<&Vec<i64>> = points
                .iter()
                .filter(|x| {
                    (0..3).all(|i| fixed[i].map_or(x[i] >= lower[i], |c| x[i] == c))
                        && region.weight(x) > above
                })
                .collect();
            // All of them, in order, when at most `most`.
            let (all, outcomes, count) = region.sample_above(&fixed, &lower, above, 10_000);
            assert_eq!(count, inside.len() as u64, "{fixed:?} {lower:?}");
            let flat: Vec<i64> = inside.iter().flat_map(|x| x.iter().copied()).collect();
            assert_eq!(all, flat);
            for (x, p) in all.chunks_exact(3).zip(&outcomes) {
                assert_eq!(region.is_p(x), Some(*p));
            }
            // About `most` of them otherwise, in the order of the index, each one of them.
            let (some, _, count) = region.sample_above(&fixed, &lower, above, 40);
            assert_eq!(count, inside.len() as u64);
            let n = some.len() / 3;
            assert!(n <= inside.len().min(80), "{n}");
            assert!(inside.len() < 40 || n >= 20, "{n} of {}", inside.len());
            let at: Vec<u64> = some
                .chunks_exact(3)
                .map(|x| region.index(x).unwrap())
                .collect();
            assert!(at.windows(2).all(|w| w[0] < w[1]));
            assert!(some
                .chunks_exact(3)
                .all(|x| inside.iter().any(|y| y.as_slice() == x)));
        }
    }
}
