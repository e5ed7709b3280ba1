//! The row solver: the outcome of every position of a weight region {p ∈ Λ : ℓ·p ≤ L}, one bit
//! per position (1 for P), evaluated a row at a time.
//!
//! A row is a line of positions along one coordinate axis r (see `layout`). Moves split in two:
//! those with a nonzero component off the axis lead to other rows, and those along the axis stay
//! in the row. Rows are evaluated in the order of a functional μ on the other coordinates that is
//! positive on every off-axis component (tried: ℓ itself, then linear programming), so every row a
//! move leads to is finished first; then for each such move a whole shifted range of its row is
//! ORed into the row's "has a P-option" bits, 64 positions per word operation. Moves along the
//! axis are resolved by one scan of the row with a shift register of the last 64 outcomes.
//! Rows of one μ-level are kept in lexicographic order, so the row a move leads to is found by a
//! cursor that only moves forward.
//!
//! Boxes and polytopes are solved through the weight region below them (which contains all their
//! options, recursively), and then viewed through their inequalities.

use std::sync::Arc;

use super::bits;
use super::defeated::{defeated_ideal, dot, satisfies};
use super::index::CompactIndex;
use super::layout::{
    bounded_polytope, for_each_row, interval, projections, to_machine, vertex_weights, Inequality,
};
use super::{functional, machine, Outcome, Region, SolveError};
use crate::algebra::polyhedral::integer_inequalities;
use crate::algebra::Vector;
use crate::game::LatticeGame;

/// Options for [`Solution::solve`].
pub struct SolveOptions<'a> {
    /// The functional ℓ of weight regions (default: the one found by linear programming).
    pub functional: Option<Vector>,
    /// The most memory the table may take, in bytes.
    pub max_bytes: u64,
    /// Called now and then with (positions done, positions in all).
    pub progress: Option<&'a mut dyn FnMut(u64, u64)>,
}

impl Default for SolveOptions<'_> {
    fn default() -> Self {
        SolveOptions {
            functional: None,
            max_bytes: 8 << 30,
            progress: None,
        }
    }
}

/// The computed table, shared by restrictions.
#[derive(Debug)]
struct Table {
    game: LatticeGame,
    d: usize,
    ell: Vec<i64>,
    /// ℓ in table coordinates.
    ell_y: Vec<i64>,
    bound: i64,
    /// The computed region Π ∩ {ℓ·x ≤ L}.
    system: Vec<Inequality>,
    row_axis: usize,
    /// The coordinates of a row's key, in key order.
    others: Vec<usize>,
    mu: Vec<i64>,
    /// d − 1 coordinates per row.
    keys: Vec<i32>,
    lo: Vec<i64>,
    /// Bit offsets of the rows, with one more at the end.
    offsets: Vec<u64>,
    /// (μ-level, first row), sorted, with a final (i64::MAX, number of rows).
    levels: Vec<(i64, usize)>,
    bits: Vec<u64>,
    /// The defeated positions in the region (in table coordinates), sorted.
    defeated: Vec<Vec<i64>>,
    /// Table coordinates y = U x, when the rows run inside weight layers.
    transform: Option<Unimodular>,
    /// The rows, compactly, once evaluated (the arrays above are then emptied).
    index: CompactIndex,
    /// Positions in the table.
    total: u64,
}

/// The outcomes of all positions of a region.
#[derive(Clone, Debug)]
pub struct Solution {
    table: Arc<Table>,
    /// Extra inequalities cutting the view out of the table (boxes, polytopes, restrictions).
    view: Vec<Inequality>,
    description: String,
}

fn key_cmp(a: &[i32], b: &[i64]) -> std::cmp::Ordering {
    for (x, y) in a.iter().zip(b) {
        match i64::from(*x).cmp(y) {
            std::cmp::Ordering::Equal => continue,
            o => return o,
        }
    }
    std::cmp::Ordering::Equal
}

/// The maximum of ℓ over the polytope {x : system} (floored), or None when it is empty.
fn max_weight(system: &[Inequality], ell: &[i64]) -> Result<Option<i64>, SolveError> {
    let Some(data) = bounded_polytope(system)? else {
        return Ok(None);
    };
    let best = vertex_weights(&data, ell)
        .into_iter()
        .max()
        .expect("a nonempty polytope has a vertex");
    Ok(Some(num_traits::ToPrimitive::to_i64(&best).ok_or_else(
        || SolveError::TooLarge {
            detail: format!("the region reaches weight {best}"),
        },
    )?))
}

/// A row axis and an order μ on the other coordinates positive on every off-axis move component.
fn choose_axis(d: usize, moves: &[Vec<i64>], ell: &[i64]) -> Option<(usize, Vec<i64>)> {
    let mut axes: Vec<usize> = (0..d).collect();
    axes.sort_by_key(|&r| (ell[r].unsigned_abs(), r));
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

/// (level, row) pairs sorted by level, rows in their order within a level: a counting sort when
/// the levels span a range comparable to the number of rows (they do for weight regions).
fn sort_by_level(levels: &[i64]) -> Vec<(i64, u32)> {
    let (Some(&min), Some(&max)) = (levels.iter().min(), levels.iter().max()) else {
        return Vec::new();
    };
    let span = (max as i128 - min as i128) as u128;
    if span > 4 * levels.len() as u128 + 4096 {
        let mut perm: Vec<(i64, u32)> = levels
            .iter()
            .enumerate()
            .map(|(i, &l)| (l, i as u32))
            .collect();
        perm.sort_unstable();
        return perm;
    }
    let mut start = vec![0usize; span as usize + 2];
    for &l in levels {
        start[(l - min) as usize + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut perm = vec![(0i64, 0u32); levels.len()];
    for (i, &l) in levels.iter().enumerate() {
        let slot = &mut start[(l - min) as usize];
        perm[*slot] = (l, i as u32);
        *slot += 1;
    }
    perm
}

/// A unimodular change of coordinates y = U x (U and U^{-1}, integer, determinant ±1).
#[derive(Clone, Debug)]
struct Unimodular {
    u: Vec<Vec<i64>>,
    inv: Vec<Vec<i64>>,
}

impl Unimodular {
    /// U with first row the primitive vector ℓ/gcd(ℓ), so that y_1 is the weight (up to the gcd):
    /// column operations reduce ℓ to e_1 (ℓV = e_1), and U = V^{-1} is kept by the inverse row
    /// operations.
    fn with_first_row(ell: &[i64]) -> Option<Unimodular> {
        let d = ell.len();
        let eye = |d: usize| -> Vec<Vec<i64>> {
            (0..d)
                .map(|i| (0..d).map(|j| i64::from(i == j)).collect())
                .collect()
        };
        let (mut v, mut cols, mut rows) = (ell.to_vec(), eye(d), eye(d));
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

    fn apply(m: &[Vec<i64>], p: &[i64]) -> Vec<i64> {
        m.iter().map(|row| dot(row, p) as i64).collect()
    }

    /// y = U x.
    fn to_y(&self, x: &[i64]) -> Vec<i64> {
        Self::apply(&self.u, x)
    }

    /// x = U^{-1} y.
    fn to_x(&self, y: &[i64]) -> Vec<i64> {
        Self::apply(&self.inv, y)
    }

    /// a·x ≥ b as (a U^{-1})·y ≥ b.
    fn inequality(&self, (a, b): &Inequality) -> Inequality {
        let d = a.len();
        (
            (0..d)
                .map(|k| (0..d).map(|i| a[i] * self.inv[i][k]).sum())
                .collect(),
            *b,
        )
    }
}

impl Solution {
    /// Solves `game` on `region`.
    pub fn solve(
        game: &LatticeGame,
        region: &Region,
        mut options: SolveOptions<'_>,
    ) -> Result<Solution, SolveError> {
        let d = game.dim();
        let ell = functional(game, options.functional.as_ref())?;
        let board = to_machine(&integer_inequalities(game.board().polyhedron())?)?;
        let view = region.inequalities(d)?.unwrap_or_default();
        let bound = match region {
            Region::Weight(l) => num_traits::ToPrimitive::to_i64(&l.to_bigint())
                .filter(|l| l.abs() <= super::layout::COORD_LIMIT)
                .ok_or_else(|| SolveError::TooLarge {
                    detail: format!("the weight bound {l} is beyond the solver's range (2^30)"),
                })?,
            _ => {
                let mut both = board.clone();
                both.extend(view.iter().cloned());
                max_weight(&both, &ell)?.unwrap_or(i64::MIN / 4)
            }
        };
        let mut system = board;
        system.push((ell.iter().map(|x| -x).collect(), -bound));
        let moves: Vec<Vec<i64>> = game
            .rules()
            .moves()
            .iter()
            .map(machine)
            .collect::<Result<_, _>>()?;
        let mut moves = moves;
        let mut view = view;
        let mut ell_y = ell.clone();
        let (transform, row_axis, mu) = match choose_axis(d, &moves, &ell) {
            Some((r, mu)) => (None, r, mu),
            None => {
                // Rows inside the weight layers: in coordinates y = U x with y_1 = ℓ·x / gcd,
                // every move has a positive first component.
                let t = Unimodular::with_first_row(&ell).ok_or_else(|| SolveError::TooLarge {
                    detail: "the change of coordinates overflows machine integers".into(),
                })?;
                system = system.iter().map(|q| t.inequality(q)).collect();
                view = view.iter().map(|q| t.inequality(q)).collect();
                moves = moves.iter().map(|m| t.to_y(m)).collect();
                ell_y = t.inequality(&(ell.clone(), 0)).0;
                let (r, mu) =
                    choose_axis(d, &moves, &ell_y).ok_or_else(|| SolveError::TooLarge {
                        detail: "no order of the rows was found".into(),
                    })?;
                (Some(t), r, mu)
            }
        };
        let others: Vec<usize> = (0..d).filter(|&j| j != row_axis).collect();
        let mut order = others.clone();
        order.push(row_axis);
        let description = region.to_string();

        // The rows, lexicographic by key, with the memory they need checked as they come.
        let mut keys: Vec<i32> = Vec::new();
        let mut lo: Vec<i64> = Vec::new();
        let mut lens: Vec<u64> = Vec::new();
        let mut positions: u64 = 0;
        let per_row = 4 * (d as u64 - 1) + 8 + 8 + 4 + 16;
        let max_bytes = options.max_bytes;
        let levels_sys = projections(&system, &order)?;
        let mut over = false;
        let mut over_at: u64 = 0;
        if let Some(levels_sys) = &levels_sys {
            let mut rows: u64 = 0;
            let r = for_each_row(levels_sys, &mut |key, a, b| {
                rows += 1;
                positions += (b - a + 1) as u64;
                if rows.is_multiple_of(4096) && crate::interrupt::requested() {
                    return Err(SolveError::Interrupted);
                }
                let bytes = positions / 8 + rows * per_row;
                if bytes > max_bytes || over {
                    if !over {
                        over = true;
                        over_at = rows;
                        keys = Vec::new();
                        lo = Vec::new();
                        lens = Vec::new();
                    }
                    // Count on for a while (to report the size), but not forever.
                    if rows > over_at + (1 << 22) {
                        return Err(SolveError::TooLarge {
                            detail: format!(
                                "it holds more than {positions} positions, which needs more than {} (the limit is {})",
                                human_bytes(bytes),
                                human_bytes(max_bytes)
                            ),
                        });
                    }
                    return Ok(());
                }
                keys.extend(key.iter().map(|&x| x as i32));
                lo.push(a);
                lens.push((b - a + 1) as u64);
                Ok(())
            });
            r?;
            if over {
                let bytes = positions / 8 + rows * per_row;
                return Err(SolveError::TooLarge {
                    detail: format!(
                        "it holds {positions} positions in {rows} rows, which needs {} (the limit is {})",
                        human_bytes(bytes),
                        human_bytes(max_bytes)
                    ),
                });
            }
        }
        let nrows = lo.len();
        let k = d - 1;

        // Sort the rows by μ-level, keeping lexicographic order within a level.
        let level_of = |i: usize| -> i64 {
            keys[i * k..(i + 1) * k]
                .iter()
                .zip(&mu)
                .map(|(&x, &m)| i64::from(x) * m)
                .sum()
        };
        let levels_of: Vec<i64> = (0..nrows).map(level_of).collect();
        let perm = sort_by_level(&levels_of);
        let mut skeys = Vec::with_capacity(keys.len());
        let mut slo = Vec::with_capacity(nrows);
        let mut offsets = Vec::with_capacity(nrows + 1);
        let mut levels: Vec<(i64, usize)> = Vec::new();
        let mut offset = 0u64;
        for (row, &(level, i)) in perm.iter().enumerate() {
            let i = i as usize;
            if levels.last().is_none_or(|&(l, _)| l != level) {
                levels.push((level, row));
            }
            skeys.extend_from_slice(&keys[i * k..(i + 1) * k]);
            slo.push(lo[i]);
            offsets.push(offset);
            offset += lens[i];
        }
        offsets.push(offset);
        levels.push((i64::MAX, nrows));
        drop((keys, lo, lens, perm));

        let defeated_all = defeated_ideal(game, &ell)?;
        let mut defeated: Vec<Vec<i64>> = defeated_all
            .sorted()
            .into_iter()
            .map(|q| match &transform {
                Some(t) => t.to_y(&q),
                None => q,
            })
            .filter(|q| satisfies(&system, q))
            .collect();
        defeated.sort();

        let mut table = Table {
            game: game.clone(),
            d,
            ell,
            ell_y,
            bound,
            system,
            row_axis,
            others,
            mu,
            keys: skeys,
            lo: slo,
            offsets,
            levels,
            bits: vec![0u64; bits::words_for(offset as usize) + 1],
            defeated,
            transform,
            index: CompactIndex::default(),
            total: offset,
        };
        table.evaluate(&moves, &mut options.progress)?;
        table.compact();
        Ok(Solution {
            table: Arc::new(table),
            view,
            description,
        })
    }

    /// The game solved.
    pub fn game(&self) -> &LatticeGame {
        &self.table.game
    }

    /// The functional ℓ and the weight bound L of the computed region.
    pub fn weight_bound(&self) -> (Vector, i64) {
        (Vector::from_i64s(&self.table.ell), self.table.bound)
    }

    /// What region this is, in words.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The outcome of p, or `None` when p lies outside the region viewed.
    pub fn outcome(&self, p: &[i64]) -> Option<Outcome> {
        let t = &self.table;
        if p.len() != t.d {
            return None;
        }
        let y;
        let p = match &t.transform {
            Some(u) => {
                y = u.to_y(p);
                &y[..]
            }
            None => p,
        };
        if !satisfies(&self.view, p) {
            return None;
        }
        if !satisfies(&t.system, p) {
            // Beyond the weight bound is unknown; off Π is off the board.
            let mut board = t.system.clone();
            board.pop();
            return if satisfies(&board, p) {
                None
            } else {
                Some(Outcome::OffBoard)
            };
        }
        if t.defeated.binary_search_by(|q| q.as_slice().cmp(p)).is_ok() {
            return Some(Outcome::Defeated);
        }
        let key: Vec<i64> = t.others.iter().map(|&j| p[j]).collect();
        let level: i64 = key.iter().zip(&t.mu).map(|(x, m)| x * m).sum();
        let row = t.index.find(level, &key)?;
        let x = p[t.row_axis] - row.lo;
        if x < 0 || x as u64 >= row.len {
            return None;
        }
        Some(if bits::get(&t.bits, (row.offset + x as u64) as usize) {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    /// Calls `f(row key, lo, hi, bit offset of lo)` for each nonempty part of a row inside the view.
    fn for_each_view_row(&self, mut f: impl FnMut(&[i64], i64, i64, u64)) {
        let t = &self.table;
        let mut view = Vec::with_capacity(self.view.len());
        for (a, b) in &self.view {
            let mut perm: Vec<i64> = t.others.iter().map(|&j| a[j]).collect();
            perm.push(a[t.row_axis]);
            view.push((perm, *b));
        }
        let k = t.d - 1;
        let mut walk = t.index.walk();
        while let Some(row) = walk.next_row() {
            let (mut a, mut b) = (row.lo, row.lo + row.len as i64 - 1);
            if !view.is_empty() {
                let (l, h) = interval(&view, &row.key, k);
                if let Some(l) = l {
                    a = a.max(l.clamp(i64::MIN as i128, i64::MAX as i128) as i64);
                }
                if let Some(h) = h {
                    b = b.min(h.clamp(i64::MIN as i128, i64::MAX as i128) as i64);
                }
            }
            if a <= b {
                f(&row.key, a, b, row.offset + (a - row.lo) as u64);
            }
        }
    }

    /// (P-positions, positions on the board) in the view.
    pub fn counts(&self) -> (u64, u64) {
        let t = &self.table;
        let (mut p, mut all) = (0u64, 0u64);
        self.for_each_view_row(|_, a, b, off| {
            p += bits::count_ones(&t.bits, off as usize, (b - a + 1) as usize);
            all += (b - a + 1) as u64;
        });
        let defeated = t
            .defeated
            .iter()
            .filter(|q| satisfies(&self.view, q))
            .count() as u64;
        (p, all - defeated)
    }

    /// The P-positions in the view, sorted lexicographically.
    pub fn p_positions(&self) -> Vec<Vec<i64>> {
        let mut out = Vec::new();
        self.for_each_p_position(|p| out.push(p.to_vec()));
        out.sort();
        out
    }

    /// Calls `f` on each P-position in the view, in no particular order.
    pub fn for_each_p_position(&self, mut f: impl FnMut(&[i64])) {
        let t = &self.table;
        let mut p = vec![0i64; t.d];
        self.for_each_view_row(|key, a, b, off| {
            for (j, &c) in t.others.iter().enumerate() {
                p[c] = key[j];
            }
            for x in a..=b {
                if bits::get(&t.bits, (off + (x - a) as u64) as usize) {
                    p[t.row_axis] = x;
                    match &t.transform {
                        Some(u) => f(&u.to_x(&p)),
                        None => f(&p),
                    }
                }
            }
        });
    }

    /// The smallest box holding every position of the view (`None` when it is empty).
    pub fn bounding_box(&self) -> Option<(Vec<i64>, Vec<i64>)> {
        let t = &self.table;
        let mut bounds: Option<(Vec<i64>, Vec<i64>)> = None;
        self.for_each_view_row(|key, a, b, _| {
            for x in [a, b] {
                let mut p = vec![0i64; t.d];
                for (j, &c) in t.others.iter().enumerate() {
                    p[c] = key[j];
                }
                p[t.row_axis] = x;
                let p = match &t.transform {
                    Some(u) => u.to_x(&p),
                    None => p,
                };
                match &mut bounds {
                    None => bounds = Some((p.clone(), p)),
                    Some((lo, hi)) => {
                        for j in 0..t.d {
                            lo[j] = lo[j].min(p[j]);
                            hi[j] = hi[j].max(p[j]);
                        }
                    }
                }
            }
        });
        bounds
    }

    /// The same table viewed through a smaller region.
    pub fn restrict(&self, region: &Region) -> Result<Solution, SolveError> {
        let extra = match region {
            Region::Weight(l) => {
                let l = num_traits::ToPrimitive::to_i64(&l.to_bigint()).unwrap_or(i64::MAX / 2);
                vec![(self.table.ell.iter().map(|x| -x).collect(), -l)]
            }
            _ => region.inequalities(self.table.d)?.unwrap_or_default(),
        };
        let extra: Vec<Inequality> = match &self.table.transform {
            Some(u) => extra.iter().map(|q| u.inequality(q)).collect(),
            None => extra,
        };
        let mut view = self.view.clone();
        view.extend(extra);
        Ok(Solution {
            table: self.table.clone(),
            view,
            description: format!("{} within {}", region, self.description),
        })
    }

    /// Bytes used by the table (bits and row index).
    pub fn memory(&self) -> u64 {
        let t = &self.table;
        (t.bits.len() * 8 + t.index.bytes() + t.levels.len() * 16) as u64
    }

    /// Positions in the computed table (the weight region below the view).
    pub fn table_positions(&self) -> u64 {
        self.table.total
    }
}

impl Table {
    /// Replaces the row arrays used while solving by the compact index.
    fn compact(&mut self) {
        let k = self.d - 1;
        let mut li = 0;
        let mut i = 0;
        let (keys, lo, offsets, levels) = (&self.keys, &self.lo, &self.offsets, &self.levels);
        self.index = CompactIndex::build_with(k, &self.mu, |row| {
            if i >= lo.len() {
                return false;
            }
            while levels[li + 1].1 <= i {
                li += 1;
            }
            row.level = levels[li].0;
            for (x, &y) in row.key.iter_mut().zip(&keys[i * k..(i + 1) * k]) {
                *x = i64::from(y);
            }
            row.lo = lo[i];
            row.offset = offsets[i];
            row.len = offsets[i + 1] - offsets[i];
            i += 1;
            true
        });
        self.keys = Vec::new();
        self.lo = Vec::new();
        self.offsets = Vec::new();
    }

    /// The row with this key, if any (while solving).
    fn find_row(&self, key: &[i64]) -> Option<usize> {
        let k = self.d - 1;
        let level: i64 = key.iter().zip(&self.mu).map(|(x, m)| x * m).sum();
        let li = self.levels.binary_search_by_key(&level, |&(l, _)| l).ok()?;
        let (start, end) = (self.levels[li].1, self.levels[li + 1].1);
        let (mut a, mut b) = (start, end);
        while a < b {
            let mid = (a + b) / 2;
            match key_cmp(&self.keys[mid * k..(mid + 1) * k], key) {
                std::cmp::Ordering::Less => a = mid + 1,
                std::cmp::Ordering::Greater => b = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// Fills `bits` level by level. Rows of one μ-level depend only on lower levels, so a level's
    /// rows are split into chunks evaluated in parallel (rayon), each into its own buffer, and
    /// the buffers are then ORed into the table.
    fn evaluate(
        &mut self,
        moves: &[Vec<i64>],
        progress: &mut Option<&mut dyn FnMut(u64, u64)>,
    ) -> Result<(), SolveError> {
        use rayon::prelude::*;
        let plan = MovePlan::new(self, moves);
        let total = *self.offsets.last().unwrap_or(&0);
        let threads = rayon::current_num_threads().max(1);
        let mut last_report = 0usize;
        for li in 0..self.levels.len().saturating_sub(1) {
            if crate::interrupt::requested() {
                return Err(SolveError::Interrupted);
            }
            let (a, b) = (self.levels[li].1, self.levels[li + 1].1);
            let bits_in_level = (self.offsets[b] - self.offsets[a]) as usize;
            let min_bits = PARALLEL_MIN_BITS.load(std::sync::atomic::Ordering::Relaxed);
            let chunks: Vec<(usize, usize)> =
                if threads > 1 && bits_in_level >= min_bits && b - a >= 2 {
                    let n = threads * 4;
                    let step = (b - a).div_ceil(n);
                    (a..b)
                        .step_by(step)
                        .map(|c| (c, (c + step).min(b)))
                        .collect()
                } else {
                    vec![(a, b)]
                };
            let this: &Table = self;
            let buffers: Vec<(usize, Vec<u64>)> = if chunks.len() > 1 {
                chunks
                    .par_iter()
                    .map(|&(c, e)| this.eval_rows(&plan, li, c, e))
                    .collect()
            } else {
                chunks
                    .iter()
                    .map(|&(c, e)| this.eval_rows(&plan, li, c, e))
                    .collect()
            };
            for (word, buffer) in buffers {
                for (dst, src) in self.bits[word..].iter_mut().zip(&buffer) {
                    *dst |= src;
                }
            }
            if b - last_report >= 65536 {
                last_report = b;
                if let Some(p) = progress.as_mut() {
                    p(self.offsets[b], total);
                }
            }
        }
        if let Some(p) = progress.as_mut() {
            p(total, total);
        }
        Ok(())
    }

    /// Evaluates rows [first, end) of level `li` into a buffer whose word 0 is word `w` of the
    /// table; returns (w, buffer).
    fn eval_rows(&self, plan: &MovePlan, li: usize, first: usize, end: usize) -> (usize, Vec<u64>) {
        let k = self.d - 1;
        let base_word = (self.offsets[first] / 64) as usize;
        let base_bit = base_word * 64;
        let mut buffer = vec![0u64; bits::words_for((self.offsets[end] as usize) - base_bit) + 1];
        // Per off-axis move: the source level's row range, with a cursor moving forward.
        let level = self.levels[li].0;
        let mut cursors: Vec<(usize, usize)> = plan
            .cross
            .iter()
            .map(|(_, _, lvl)| {
                match self
                    .levels
                    .binary_search_by_key(&(level - lvl), |&(l, _)| l)
                {
                    Ok(s) => (self.levels[s].1, self.levels[s + 1].1),
                    Err(_) => (0, 0),
                }
            })
            .collect();
        let mut target = vec![0i64; k];
        let mut ext: Vec<u64> = Vec::new();
        let mut out: Vec<u64> = Vec::new();
        let mut next_defeated = plan.defeated.partition_point(|&(row, _)| row < first);
        for row in first..end {
            let lo = self.lo[row];
            let len = (self.offsets[row + 1] - self.offsets[row]) as usize;
            let words = bits::words_for(len);
            ext.clear();
            ext.resize(words + 1, 0);
            let key = &self.keys[row * k..(row + 1) * k];
            for ((gk, gr, _), cursor) in plan.cross.iter().zip(cursors.iter_mut()) {
                for j in 0..k {
                    target[j] = i64::from(key[j]) - gk[j];
                }
                let (ref mut c, end) = *cursor;
                while *c < end
                    && key_cmp(&self.keys[*c * k..(*c + 1) * k], &target)
                        == std::cmp::Ordering::Less
                {
                    *c += 1;
                }
                if *c >= end
                    || key_cmp(&self.keys[*c * k..(*c + 1) * k], &target)
                        != std::cmp::Ordering::Equal
                {
                    continue;
                }
                let s = *c;
                let s_lo = self.lo[s];
                let s_len = (self.offsets[s + 1] - self.offsets[s]) as i64;
                // x − γ_r ∈ [s_lo, s_lo + s_len − 1] and x ∈ [lo, lo + len − 1].
                let a = (s_lo + gr).max(lo);
                let b = (s_lo + s_len - 1 + gr).min(lo + len as i64 - 1);
                if a > b {
                    continue;
                }
                let src = self.offsets[s] as usize + (a - gr - s_lo) as usize;
                bits::or_range(
                    &mut ext,
                    (a - lo) as usize,
                    &self.bits,
                    src,
                    (b - a + 1) as usize,
                );
            }
            // Defeated positions are not on the board: never P, never an option.
            while next_defeated < plan.defeated.len() && plan.defeated[next_defeated].0 == row {
                bits::set(&mut ext, plan.defeated[next_defeated].1 as usize);
                next_defeated += 1;
            }
            let offset = self.offsets[row] as usize - base_bit;
            if plan.along.is_empty() {
                let mut i = 0;
                while i < len {
                    let n = (len - i).min(64);
                    bits::or_write(&mut buffer, offset + i, !bits::read(&ext, i, n), n);
                    i += n;
                }
                continue;
            }
            out.clear();
            out.resize(words + 1, 0);
            let mut history: u64 = 0;
            for step in 0..len {
                let x = if plan.ascending { step } else { len - 1 - step };
                let mut is_p = !bits::get(&ext, x) && history & plan.history_mask == 0;
                if is_p && !plan.far.is_empty() {
                    is_p = !plan.far.iter().any(|&g| {
                        (step as u64) >= g && {
                            let y = if plan.ascending {
                                x - g as usize
                            } else {
                                x + g as usize
                            };
                            bits::get(&out, y)
                        }
                    });
                }
                history = (history << 1) | u64::from(is_p);
                if is_p {
                    bits::set(&mut out, x);
                }
            }
            bits::or_range(&mut buffer, offset, &out, 0, len);
        }
        (base_word, buffer)
    }
}

/// Levels with fewer positions than this are evaluated on one thread (tests lower it).
pub(crate) static PARALLEL_MIN_BITS: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(1 << 16);

/// The moves sorted for the row evaluation.
struct MovePlan {
    /// Off-axis moves: (key component γ', axis component γ_r, μ·γ').
    cross: Vec<(Vec<i64>, i64, i64)>,
    /// Whether options along the axis lie below (ℓ_r > 0) or above.
    ascending: bool,
    /// Along the axis: bit g − 1 set for each distance g ≤ 64 to an option.
    history_mask: u64,
    /// Distances beyond 64.
    far: Vec<u64>,
    along: Vec<u64>,
    /// Defeated positions as (row, index in the row), sorted.
    defeated: Vec<(usize, u64)>,
}

impl MovePlan {
    fn new(t: &Table, moves: &[Vec<i64>]) -> MovePlan {
        let r = t.row_axis;
        let mut cross = Vec::new();
        let mut along: Vec<u64> = Vec::new();
        for m in moves {
            let key: Vec<i64> = t.others.iter().map(|&j| m[j]).collect();
            if key.iter().all(|&x| x == 0) {
                along.push(m[r].unsigned_abs());
            } else {
                let lvl = key.iter().zip(&t.mu).map(|(x, m)| x * m).sum();
                cross.push((key, m[r], lvl));
            }
        }
        along.sort_unstable();
        let history_mask = along
            .iter()
            .filter(|&&g| g <= 64)
            .fold(0, |acc, &g| acc | (1u64 << (g - 1)));
        let far = along.iter().copied().filter(|&g| g > 64).collect();
        let mut defeated: Vec<(usize, u64)> = t
            .defeated
            .iter()
            .filter_map(|q| {
                let key: Vec<i64> = t.others.iter().map(|&j| q[j]).collect();
                let row = t.find_row(&key)?;
                Some((row, (q[r] - t.lo[row]) as u64))
            })
            .collect();
        defeated.sort_unstable();
        MovePlan {
            cross,
            ascending: t.ell_y[r] >= 0,
            history_mask,
            far,
            along,
            defeated,
        }
    }
}

/// Bytes in words people read.
pub(crate) fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b;
    let mut u = 0;
    while v >= 10 * 1024 && u + 1 < UNITS.len() {
        v /= 1024;
        u += 1;
    }
    format!("{v} {}", UNITS[u])
}
