//! The rows of a polytope, generated instead of stored.
//!
//! The solver's table holds one bit per lattice point of a polytope Q ⊂ R^d, in lexicographic
//! order of the points z = (z_0, …, z_{d−1}). A *row* is a line of points that differ only in the
//! last coordinate: for each key (z_0, …, z_{d−2}) the last coordinates of the points of Q form an
//! interval. Where each row starts in the table follows from the rows before it, so nothing per
//! row needs to be stored: a [`RowWalk`] generates the rows in order from the inequalities of the
//! projections of Q to its first coordinates (an odometer over the key, each coordinate bounded
//! by the projection to the coordinates up to it), keeping the bit offset as it goes.
//!
//! Random access uses [`Checkpoints`]: every so many rows (and the first row of every level, the
//! value of z_0) the key and bit offset are kept, so a row is found by a binary search and a short
//! walk. They are thinned as the table grows, so that they never take more than an eighth of the
//! table's bits (about 0.13 bits per position at most; far less when rows are long).

use super::layout::{interval, Inequality};

/// The projections of a polytope, ready to generate its rows.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// The length of a key, d − 1.
    k: usize,
    /// For each key coordinate j: the inequalities of the projection to z_0..=z_j that involve z_j.
    depth: Vec<Vec<Inequality>>,
    /// The polytope's inequalities that involve the last coordinate: (a, a_last, b).
    row: Vec<(Vec<i64>, i64, i64)>,
}

impl Layout {
    /// `projections[j]` describes the projection of the polytope to z_0..=z_j; the last is the
    /// polytope itself (see `layout::projections`).
    pub(crate) fn new(projections: &[Vec<Inequality>]) -> Layout {
        let d = projections.len();
        let k = d.saturating_sub(1);
        let depth: Vec<Vec<Inequality>> = (0..k)
            .map(|j| {
                projections[j]
                    .iter()
                    .filter(|(a, _)| a[j] != 0)
                    .cloned()
                    .collect()
            })
            .collect();
        let row: Vec<(Vec<i64>, i64, i64)> = projections
            .last()
            .map(|sys| {
                sys.iter()
                    .filter(|(a, _)| a[k] != 0)
                    .map(|(a, b)| (a[..k].to_vec(), a[k], *b))
                    .collect()
            })
            .unwrap_or_default();
        Layout { k, depth, row }
    }

    /// The length of a key.
    pub(crate) fn key_len(&self) -> usize {
        self.k
    }

    /// A walk standing on the first row (done at once when there is none).
    pub(crate) fn first(&self) -> RowWalk<'_> {
        let mut w = self.empty_walk();
        w.settle(0);
        w
    }

    /// A walk standing on the row with this key, which must be a nonempty row, at `offset`.
    pub(crate) fn at(&self, key: &[i64], offset: u64) -> RowWalk<'_> {
        let mut w = self.empty_walk();
        w.key.copy_from_slice(key);
        for j in 0..self.k {
            w.hi[j] = self.range(j, &w.key[..j]).1;
        }
        w.offset = offset;
        w.recompute_sums();
        if !w.row_interval() {
            // Not a row of the table: callers only pass checkpoints, which are rows.
            debug_assert!(false, "a checkpoint that is not a row");
            w.settle_after(self.k);
        }
        w
    }

    fn empty_walk(&self) -> RowWalk<'_> {
        RowWalk {
            layout: self,
            key: vec![0; self.k],
            hi: vec![0; self.k],
            sums: vec![0; self.row.len()],
            lo: 0,
            len: 0,
            offset: 0,
            done: false,
        }
    }

    /// The interval of key coordinate j given the coordinates before it (empty when lo > hi).
    #[inline]
    fn range(&self, j: usize, prefix: &[i64]) -> (i64, i64) {
        let (mut lo, mut hi) = (i64::MIN, i64::MAX);
        for (a, b) in &self.depth[j] {
            // a[j]·z_j ≥ b − a[..j]·prefix, in machine integers when nothing overflows.
            let Some(rhs) = a[..j]
                .iter()
                .zip(prefix)
                .try_fold(*b, |acc, (&x, &z)| acc.checked_sub(x.checked_mul(z)?))
            else {
                return self.range_wide(j, prefix);
            };
            tighten(&mut lo, &mut hi, a[j], rhs);
        }
        if lo == i64::MIN || hi == i64::MAX {
            // A bounded polytope bounds every coordinate of a point of a projection.
            return (1, 0);
        }
        (lo, hi)
    }

    /// The same in 128-bit arithmetic.
    #[cold]
    fn range_wide(&self, j: usize, prefix: &[i64]) -> (i64, i64) {
        match interval(&self.depth[j], prefix, j) {
            (Some(lo), Some(hi)) => (clamp(lo), clamp(hi)),
            _ => (1, 0),
        }
    }
}

/// Narrows [lo, hi] by c·x ≥ rhs (c ≠ 0).
#[inline]
fn tighten(lo: &mut i64, hi: &mut i64, c: i64, rhs: i64) {
    if c == 1 {
        *lo = (*lo).max(rhs);
    } else if c == -1 {
        *hi = (*hi).min(rhs.saturating_neg());
    } else if c > 0 {
        *lo = (*lo).max(rhs.div_euclid(c) + i64::from(rhs.rem_euclid(c) != 0));
    } else {
        // x ≤ rhs / c, rounded down.
        let q = rhs.div_euclid(c);
        *hi = (*hi).min(if rhs.rem_euclid(c) != 0 { q - 1 } else { q });
    }
}

fn clamp(x: i128) -> i64 {
    x.clamp(i128::from(i64::MIN / 4), i128::from(i64::MAX / 4)) as i64
}

/// The rows of a [`Layout`] in lexicographic order of their keys, with their bit offsets.
#[derive(Clone, Debug)]
pub(crate) struct RowWalk<'a> {
    layout: &'a Layout,
    /// The key of the current row.
    pub key: Vec<i64>,
    /// The upper end of each key coordinate's interval.
    hi: Vec<i64>,
    /// a·key for each row inequality (a restricted to the key).
    sums: Vec<i128>,
    /// The current row's first last-coordinate value and length.
    pub lo: i64,
    pub len: u64,
    /// The bit offset of the current row's first point.
    pub offset: u64,
    /// Past the last row.
    pub done: bool,
}

impl RowWalk<'_> {
    fn recompute_sums(&mut self) {
        for (s, (a, _, _)) in self.sums.iter_mut().zip(&self.layout.row) {
            *s = a
                .iter()
                .zip(&self.key)
                .map(|(&x, &z)| i128::from(x) * i128::from(z))
                .sum();
        }
    }

    /// The interval of the last coordinate for the current key; false when it is empty.
    #[inline]
    fn row_interval(&mut self) -> bool {
        let (mut lo, mut hi) = (i64::MIN, i64::MAX);
        for (s, &(_, c, b)) in self.sums.iter().zip(&self.layout.row) {
            // c·x ≥ b − a·key.
            let rhs = i128::from(b) - s;
            let Ok(r) = i64::try_from(rhs) else {
                // Far outside the coordinate range: no point of this row fits.
                if (rhs > 0) == (c > 0) {
                    return false;
                }
                continue;
            };
            tighten(&mut lo, &mut hi, c, r);
        }
        if lo > hi || lo == i64::MIN || hi == i64::MAX {
            return false;
        }
        self.lo = lo;
        self.len = (hi - lo + 1) as u64;
        true
    }

    /// Fills key coordinates from depth m on with their least values, backtracking over empty
    /// intervals, until a nonempty row is reached (or the end).
    fn settle(&mut self, mut m: usize) {
        let k = self.layout.k;
        loop {
            if m < k {
                let (lo, hi) = self.layout.range(m, &self.key[..m]);
                if lo <= hi {
                    self.key[m] = lo;
                    self.hi[m] = hi;
                    m += 1;
                    continue;
                }
            } else {
                self.recompute_sums();
                if self.row_interval() {
                    return;
                }
            }
            if !self.increment_below(&mut m) {
                return;
            }
        }
    }

    /// Increments the deepest key coordinate before depth m that can grow, setting m just past
    /// it; false (and done) when none can.
    fn increment_below(&mut self, m: &mut usize) -> bool {
        loop {
            if *m == 0 {
                self.done = true;
                self.len = 0;
                return false;
            }
            *m -= 1;
            if self.key[*m] < self.hi[*m] {
                self.key[*m] += 1;
                *m += 1;
                return true;
            }
        }
    }

    /// Moves on from a state at depth m that is not a row.
    fn settle_after(&mut self, m: usize) {
        let mut m = m;
        if self.increment_below(&mut m) {
            self.settle(m);
        }
    }

    /// Moves to the next row.
    #[inline]
    pub(crate) fn advance(&mut self) {
        self.offset += self.len;
        let k = self.layout.k;
        // The common step: the last key coordinate grows by one within its interval.
        if k > 0 && self.key[k - 1] < self.hi[k - 1] {
            self.key[k - 1] += 1;
            for (s, (a, _, _)) in self.sums.iter_mut().zip(&self.layout.row) {
                *s += i128::from(a[k - 1]);
            }
            if self.row_interval() {
                return;
            }
        }
        self.settle_after(k);
    }

    /// Moves forward to the first row whose key is not below `target`.
    #[inline]
    pub(crate) fn advance_to(&mut self, target: &[i64]) {
        while !self.done && self.key.as_slice() < target {
            self.advance();
        }
    }

    /// Moves forward to the first row whose key is not below `target − shift`; whether it is that
    /// row.
    #[inline]
    pub(crate) fn advance_to_shifted(&mut self, target: &[i64], shift: &[i64]) -> bool {
        loop {
            if self.done {
                return false;
            }
            let mut order = std::cmp::Ordering::Equal;
            for ((&x, &t), &g) in self.key.iter().zip(target).zip(shift) {
                order = x.cmp(&(t - g));
                if order.is_ne() {
                    break;
                }
            }
            match order {
                std::cmp::Ordering::Less => self.advance(),
                std::cmp::Ordering::Equal => return true,
                std::cmp::Ordering::Greater => return false,
            }
        }
    }

    /// Whether the walk stands on the row with this key.
    #[inline]
    pub(crate) fn is_at(&self, key: &[i64]) -> bool {
        !self.done && self.key == key
    }
}

/// Rows kept whole every so often, for random access and for starting walks in parallel.
#[derive(Clone, Debug, Default)]
pub(crate) struct Checkpoints {
    k: usize,
    /// Keys, k coordinates each.
    keys: Vec<i32>,
    offsets: Vec<u64>,
    /// The number of the row, counting from 0.
    rows: Vec<u64>,
    /// Whether the row is the first of its level (z_0); such checkpoints are never thinned.
    level_start: Vec<bool>,
    /// Rows between checkpoints (a power of two).
    spacing: u64,
}

/// Bytes one checkpoint takes with keys of length k.
fn checkpoint_bytes(k: usize) -> u64 {
    4 * k as u64 + 8 + 8 + 1
}

impl Checkpoints {
    pub(crate) fn new(k: usize) -> Checkpoints {
        Checkpoints {
            k,
            spacing: 64,
            ..Checkpoints::default()
        }
    }

    /// Offers the row numbered `row`; kept when it starts a level or falls on the spacing.
    pub(crate) fn offer(&mut self, row: u64, key: &[i64], offset: u64, level_start: bool) {
        if !(level_start || row.is_multiple_of(self.spacing)) {
            return;
        }
        self.keys.extend(key.iter().map(|&x| x as i32));
        self.offsets.push(offset);
        self.rows.push(row);
        self.level_start.push(level_start);
    }

    /// Doubles the spacing while the checkpoints take more than `budget` bytes (level starts are
    /// kept whatever they cost).
    pub(crate) fn thin_to(&mut self, budget: u64) {
        while self.bytes() > budget && self.offsets.len() > self.level_starts() {
            self.spacing *= 2;
            let k = self.k;
            let mut w = 0;
            for i in 0..self.offsets.len() {
                if self.level_start[i] || self.rows[i].is_multiple_of(self.spacing) {
                    self.keys.copy_within(i * k..(i + 1) * k, w * k);
                    self.offsets[w] = self.offsets[i];
                    self.rows[w] = self.rows[i];
                    self.level_start[w] = self.level_start[i];
                    w += 1;
                }
            }
            self.keys.truncate(w * k);
            self.offsets.truncate(w);
            self.rows.truncate(w);
            self.level_start.truncate(w);
        }
    }

    fn level_starts(&self) -> usize {
        self.level_start.iter().filter(|&&b| b).count()
    }

    /// Bytes used.
    pub(crate) fn bytes(&self) -> u64 {
        self.offsets.len() as u64 * checkpoint_bytes(self.k)
    }

    /// Frees spare capacity.
    pub(crate) fn shrink(&mut self) {
        self.keys.shrink_to_fit();
        self.offsets.shrink_to_fit();
        self.rows.shrink_to_fit();
        self.level_start.shrink_to_fit();
    }

    /// The number of checkpoints.
    pub(crate) fn len(&self) -> usize {
        self.offsets.len()
    }

    /// The key of checkpoint i.
    pub(crate) fn key(&self, i: usize) -> Vec<i64> {
        self.keys[i * self.k..(i + 1) * self.k]
            .iter()
            .map(|&x| i64::from(x))
            .collect()
    }

    /// The bit offset of checkpoint i.
    pub(crate) fn offset(&self, i: usize) -> u64 {
        self.offsets[i]
    }

    /// Whether checkpoint i starts a level.
    pub(crate) fn starts_level(&self, i: usize) -> bool {
        self.level_start[i]
    }

    /// A walk standing on checkpoint i.
    pub(crate) fn walk<'a>(&self, layout: &'a Layout, i: usize) -> RowWalk<'a> {
        layout.at(&self.key(i), self.offsets[i])
    }

    /// A walk standing on the last checkpoint whose key is at most `key` (on the first row when
    /// none is; `None` when there are no rows).
    pub(crate) fn walk_before<'a>(&self, layout: &'a Layout, key: &[i64]) -> Option<RowWalk<'a>> {
        if self.offsets.is_empty() {
            return None;
        }
        let k = self.k;
        let (mut a, mut b) = (0, self.offsets.len());
        // The first checkpoint whose key exceeds `key`.
        while a < b {
            let mid = (a + b) / 2;
            let c = &self.keys[mid * k..(mid + 1) * k];
            let le = c
                .iter()
                .zip(key)
                .map(|(&x, &y)| i64::from(x).cmp(&y))
                .find(|o| o.is_ne())
                .is_none_or(|o| o.is_lt());
            if le {
                a = mid + 1;
            } else {
                b = mid;
            }
        }
        Some(self.walk(layout, a.saturating_sub(1)))
    }

    /// The row with this key: (first last-coordinate value, length, bit offset).
    pub(crate) fn find(&self, layout: &Layout, key: &[i64]) -> Option<(i64, u64, u64)> {
        let mut w = self.walk_before(layout, key)?;
        w.advance_to(key);
        w.is_at(key).then_some((w.lo, w.len, w.offset))
    }
}

#[cfg(test)]
mod tests {
    use super::super::layout::projections;
    use super::*;

    /// The rows of a polytope by brute force: every lattice point of a box around it.
    fn brute_rows(system: &[Inequality], d: usize, r: i64) -> Vec<(Vec<i64>, i64, u64)> {
        let mut points: Vec<Vec<i64>> = vec![vec![]];
        for _ in 0..d {
            points = points
                .into_iter()
                .flat_map(|p| {
                    (-r..=r).map(move |x| {
                        let mut q = p.clone();
                        q.push(x);
                        q
                    })
                })
                .collect();
        }
        let mut rows: Vec<(Vec<i64>, i64, u64)> = Vec::new();
        for p in points {
            if !super::super::defeated::satisfies(system, &p) {
                continue;
            }
            let key = p[..d - 1].to_vec();
            match rows.last_mut() {
                Some((k, _, len)) if *k == key => *len += 1,
                _ => rows.push((key, p[d - 1], 1)),
            }
        }
        rows
    }

    fn walked(layout: &Layout) -> Vec<(Vec<i64>, i64, u64)> {
        let mut w = layout.first();
        let mut out = Vec::new();
        let mut offset = 0;
        while !w.done {
            assert_eq!(w.offset, offset);
            offset += w.len;
            out.push((w.key.clone(), w.lo, w.len));
            w.advance();
        }
        out
    }

    #[test]
    fn rows_of_skew_polytopes_agree_with_brute_force() {
        // A skew simplex in R^3, a thin slab, and a rational polygon.
        let systems: Vec<(usize, Vec<Inequality>)> = vec![
            (
                3,
                vec![
                    (vec![1, 0, 0], -2),
                    (vec![-1, 2, 0], -3),
                    (vec![1, -1, 3], 0),
                    (vec![-1, -1, -1], -6),
                ],
            ),
            (
                3,
                vec![
                    (vec![2, 3, -1], 0),
                    (vec![-2, -3, 1], -1),
                    (vec![1, 0, 0], -4),
                    (vec![-1, 0, 0], -4),
                    (vec![0, 1, 0], -4),
                    (vec![0, -1, 0], -4),
                ],
            ),
            (
                2,
                vec![(vec![2, 0], 1), (vec![0, 3], 1), (vec![-1, -1], -3)],
            ),
        ];
        for (d, system) in systems {
            let order: Vec<usize> = (0..d).collect();
            let levels = projections(&system, &order).unwrap().unwrap();
            let layout = Layout::new(&levels);
            let want = brute_rows(&system, d, 30);
            assert_eq!(walked(&layout), want, "{system:?}");
            // Random access through checkpoints, thinned hard.
            let mut cps = Checkpoints::new(d - 1);
            let mut w = layout.first();
            let mut row = 0;
            while !w.done {
                cps.offer(row, &w.key, w.offset, row == 0 || row % 5 == 0);
                row += 1;
                w.advance();
            }
            cps.thin_to(0);
            let mut offset = 0;
            for (key, lo, len) in &want {
                assert_eq!(cps.find(&layout, key), Some((*lo, *len, offset)));
                offset += len;
                let mut beyond = key.clone();
                beyond[d - 2] += 1000;
                assert_eq!(cps.find(&layout, &beyond), None);
            }
        }
    }
}
