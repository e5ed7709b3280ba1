//! The outcomes of a solved weight region {x ∈ N^d : ℓ·x ≤ W} (ℓ > 0 coordinatewise), one bit
//! per position in lexicographic order, for the guessers of `stratify`: a lookup costs d
//! additions (no search, no allocation), so periods and pieces can be tested on millions of
//! positions.
//!
//! The index of x is Σ_i (the number of points of the region agreeing with x before coordinate i
//! and smaller at i), read from a table of counts per coordinate and remaining weight (d(W + 1)
//! numbers).

use super::super::solver::{bits, Solution};

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
            p: vec![0; bits::words_for(len as usize)],
        }
    }

    /// The P-positions of `sol` on the region (solved on at least this region); None when
    /// interrupted (millions of positions take seconds: the request is read every 65 536).
    pub(super) fn from_solution(sol: &Solution, ell: &[i64], bound: i64) -> Option<WeightRegion> {
        let mut region = WeightRegion::empty(ell, bound);
        let mut seen = 0u64;
        let mut stopped = false;
        sol.for_each_p_position_while(|x| {
            seen += 1;
            if seen.is_multiple_of(1 << 16) && crate::interrupt::requested() {
                stopped = true;
                return false;
            }
            region.insert(x);
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

    /// Calls `f` on every position of the region, in the order of the index.
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

    /// The members, sorted by weight and then lexicographically (the order of the index is
    /// lexicographic and the sort is stable), as one flat list of coordinates (d per member):
    /// millions of members cost one allocation, not one each.
    pub(super) fn members_by_weight(&self) -> Vec<i64> {
        let d = self.ell.len();
        let mut flat = Vec::new();
        let mut weights = Vec::new();
        let mut at = 0u64;
        self.for_each(|x| {
            if self.get(at) {
                flat.extend_from_slice(x);
                weights.push(self.weight(x));
            }
            at += 1;
        });
        // A counting sort on the weights 0..=W (stable, so lexicographic within a weight): linear,
        // where a comparison sort of millions of members took most of a second that no
        // interrupt could cut short.
        let buckets = (self.bound.max(0) + 2) as usize;
        let mut start = vec![0usize; buckets];
        for &w in &weights {
            start[w as usize + 1] += 1;
        }
        for k in 1..buckets {
            start[k] += start[k - 1];
        }
        let mut out = vec![0i64; flat.len()];
        for (i, &w) in weights.iter().enumerate() {
            let slot = &mut start[w as usize];
            out[*slot * d..(*slot + 1) * d].copy_from_slice(&flat[i * d..(i + 1) * d]);
            *slot += 1;
        }
        out
    }

    /// Calls `f(line)` on the lines of the region parallel to axis i, while it returns true:
    /// the membership bits of y, y + e_i, y + 2e_i, .. for each y with y_i = 0.
    pub(super) fn for_each_line(&self, i: usize, mut f: impl FnMut(&[bool]) -> bool) {
        // Walk only the starting points (x_i = 0), not the whole region.
        fn walk(
            ell: &[i64],
            axis: usize,
            left: i64,
            x: &mut Vec<i64>,
            f: &mut dyn FnMut(&mut Vec<i64>) -> bool,
        ) -> bool {
            if x.len() == ell.len() {
                return f(x);
            }
            let w = ell[x.len()].max(1);
            let top = if x.len() == axis { 0 } else { left / w };
            for k in 0..=top {
                x.push(k);
                let go = walk(ell, axis, left - k * w, x, f);
                x.pop();
                if !go {
                    return false;
                }
            }
            true
        }
        if self.bound < 0 {
            return;
        }
        let mut line = Vec::new();
        walk(&self.ell, i, self.bound, &mut Vec::new(), &mut |y| {
            line.clear();
            while let Some(at) = self.index(y) {
                line.push(self.get(at));
                y[i] += 1;
            }
            y[i] = 0;
            f(&line)
        });
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
    /// true (points may repeat when the g_j are dependent).
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
        walk(self, &mut b.to_vec(), gens, f);
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

/// An evenly spread sample of positions offered one at a time, in one pass and bounded memory:
/// every stride-th is kept, and the stride doubles (every other kept one dropped) whenever the
/// sample reaches twice `most`; so between `most` and 2·`most` are kept once that many were
/// offered. The guessers read regions of tens of millions of positions this way.
pub(super) struct PositionSample {
    d: usize,
    most: usize,
    stride: usize,
    offered: usize,
    points: Vec<i64>,
    outcomes: Vec<bool>,
}

impl PositionSample {
    pub(super) fn new(d: usize, most: usize) -> PositionSample {
        PositionSample {
            d,
            most: most.max(1),
            stride: 1,
            offered: 0,
            points: Vec::new(),
            outcomes: Vec::new(),
        }
    }

    pub(super) fn offer(&mut self, x: &[i64], p: bool) {
        if self.offered.is_multiple_of(self.stride) {
            self.points.extend_from_slice(x);
            self.outcomes.push(p);
            if self.outcomes.len() >= 2 * self.most {
                let (points, outcomes) = every_nth(self.d, &self.points, &self.outcomes, 2);
                self.points = points;
                self.outcomes = outcomes;
                self.stride *= 2;
            }
        }
        self.offered += 1;
    }

    /// How many positions were offered.
    pub(super) fn offered(&self) -> usize {
        self.offered
    }

    /// The kept positions (flat, d per position) and their outcomes.
    pub(super) fn into_parts(self) -> (Vec<i64>, Vec<bool>) {
        (self.points, self.outcomes)
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn cones_are_walked_inside_the_region() {
        let mut region = WeightRegion::empty(&[1, 1], 6);
        region.insert_cone(&[1, 0], &[vec![2, 0], vec![0, 3]]);
        let members = region.members_by_weight();
        assert_eq!(members, vec![1, 0, 3, 0, 1, 3, 5, 0, 3, 3]);
        assert!(region.cone_inside(&[3, 0], &[vec![2, 0]]));
        assert!(!region.cone_inside(&[1, 0], &[vec![1, 0]]));
    }

    #[test]
    fn a_sample_is_evenly_spread_and_bounded() {
        let mut sample = PositionSample::new(2, 10);
        for k in 0..1000i64 {
            sample.offer(&[k, 2 * k], k % 3 == 0);
        }
        assert_eq!(sample.offered(), 1000);
        let (points, outcomes) = sample.into_parts();
        // Stride 64 after six doublings: positions 0, 64, .., 960.
        assert_eq!(outcomes.len(), 16);
        for (j, x) in points.chunks_exact(2).enumerate() {
            let k = 64 * j as i64;
            assert_eq!(x, [k, 2 * k]);
            assert_eq!(outcomes[j], k % 3 == 0);
        }
    }
}
