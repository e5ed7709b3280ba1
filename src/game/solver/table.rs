//! The row solver: the outcome of every position of a weight region {p ∈ Λ : ℓ·p ≤ L}, one bit
//! per position (1 for P), evaluated a row at a time.
//!
//! The table is kept in coordinates z = T x (see `coordinates`): positions in lexicographic
//! order, a *row* being a line of positions along the last coordinate, whose first coordinate
//! z_0 is the row's *level*. Moves split in two: those with a nonzero component off the row axis
//! lead to rows of lower levels, and those along it stay in the row. Levels are evaluated in
//! increasing order, so every row a move leads to is finished first; then for each such move a
//! whole shifted range of its row is ORed into the row's "has a P-option" bits, 64 positions per
//! word operation. Moves along the axis are resolved by one scan of the row with a shift
//! register of the last 64 outcomes. The row a move leads to is found by a walk over the rows
//! (`rows`) that only moves forward, so no row is stored: the table is its bits plus a few
//! checkpoints, and its memory at every moment of the solve is about one bit per position.
//!
//! Boxes and polytopes are solved through the weight region below them (which contains all their
//! options, recursively), and then viewed through their inequalities.

use std::sync::Arc;

use super::bits;
use super::coordinates::{table_coordinates, Unimodular};
use super::defeated::{defeated_ideal, satisfies};
use super::layout::{
    bounded_polytope, interval, projections, to_machine, vertex_weights, Inequality,
};
use super::rows::{Checkpoints, Layout, RowWalk};
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
    /// Called now and then with (positions done, positions in all); while the region is still
    /// being laid out, with (positions counted so far, 0).
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
    bound: i64,
    /// The computed region Π ∩ {ℓ·x ≤ L}, in table coordinates.
    system: Vec<Inequality>,
    /// The board Π alone, in table coordinates.
    board: Vec<Inequality>,
    /// Table coordinates z = T x (see `coordinates`); `None` when z = x.
    transform: Option<Unimodular>,
    /// The rows of the region, generated from its projections.
    layout: Layout,
    checkpoints: Checkpoints,
    bits: Vec<u64>,
    /// The defeated positions in the region (in table coordinates), sorted.
    defeated: Vec<Vec<i64>>,
    /// Positions in the table.
    total: u64,
}

/// The outcomes of all positions of a region.
#[derive(Clone, Debug)]
pub struct Solution {
    table: Arc<Table>,
    /// Extra inequalities cutting the view out of the table (boxes, polytopes, restrictions), in
    /// table coordinates.
    view: Vec<Inequality>,
    description: String,
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

/// The bytes checkpoints may take in a table of this many positions: an eighth of its bits, and
/// a few KiB.
fn checkpoint_budget(positions: u64) -> u64 {
    positions / 64 + 4096
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
        let moves: Vec<Vec<i64>> = game
            .rules()
            .moves()
            .iter()
            .map(machine)
            .collect::<Result<_, _>>()?;
        let t = table_coordinates(&moves, &ell)?;
        let to_z = |q: &Inequality| t.inequality(q);
        let board: Vec<Inequality> = board.iter().map(to_z).collect();
        let mut system = board.clone();
        system.push(to_z(&(ell.iter().map(|x| -x).collect(), -bound)));
        let view: Vec<Inequality> = view.iter().map(to_z).collect();
        let moves: Vec<Vec<i64>> = moves.iter().map(|m| t.to_y(m)).collect();
        let ell_z = to_z(&(ell.clone(), 0)).0;
        let description = region.to_string();

        // One walk over the rows: count the positions, keep checkpoints, and check the memory.
        let order: Vec<usize> = (0..d).collect();
        let layout = match projections(&system, &order)? {
            Some(p) => Layout::new(&p),
            None => Layout::new(&[]),
        };
        let k = layout.key_len();
        let mut checkpoints = Checkpoints::new(k);
        let mut positions: u64 = 0;
        if d > 0 && !system.is_empty() && bounded_polytope(&system)?.is_some() {
            let mut walk = layout.first();
            let mut rows: u64 = 0;
            let mut level = None;
            while !walk.done {
                let limit = super::layout::COORD_LIMIT;
                if walk.key.iter().any(|x| x.abs() > limit)
                    || walk.lo.abs() > limit
                    || walk.len > 2 * limit as u64
                {
                    return Err(SolveError::TooLarge {
                        detail: "the region reaches beyond the solver's coordinate range (±2^30)"
                            .into(),
                    });
                }
                let here = walk.key.first().copied();
                checkpoints.offer(rows, &walk.key, walk.offset, rows == 0 || level != here);
                level = here;
                rows += 1;
                positions += walk.len;
                if rows.is_multiple_of(4096) {
                    if crate::interrupt::requested() {
                        return Err(SolveError::Interrupted);
                    }
                    if let Some(p) = options.progress.as_mut() {
                        p(positions, 0);
                    }
                    checkpoints.thin_to(checkpoint_budget(positions));
                    let bytes = positions / 8 + checkpoints.bytes();
                    if bytes > options.max_bytes {
                        return Err(too_large(walk, rows, positions, options.max_bytes));
                    }
                }
                walk.advance();
            }
            checkpoints.thin_to(checkpoint_budget(positions));
            let bytes = positions / 8 + checkpoints.bytes();
            if bytes > options.max_bytes {
                return Err(SolveError::TooLarge {
                    detail: format!(
                        "it holds {positions} positions in {rows} rows, which needs {} (the limit is {})",
                        human_bytes(bytes),
                        human_bytes(options.max_bytes)
                    ),
                });
            }
            checkpoints.shrink();
        }

        let defeated_all = defeated_ideal(game, &ell)?;
        let mut defeated: Vec<Vec<i64>> = defeated_all
            .sorted()
            .into_iter()
            .map(|q| t.to_y(&q))
            .filter(|q| satisfies(&system, q))
            .collect();
        defeated.sort();

        let mut table = Table {
            game: game.clone(),
            d,
            ell,
            bound,
            system,
            board,
            transform: (!t.is_identity()).then_some(t),
            layout,
            checkpoints,
            bits: vec![0u64; bits::words_for(positions as usize) + 1],
            defeated,
            total: positions,
        };
        table.evaluate(&moves, &ell_z, &mut options.progress)?;
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
        let z;
        let p = match &t.transform {
            Some(u) => {
                z = u.to_y_checked(p)?;
                &z[..]
            }
            None => p,
        };
        if !satisfies(&self.view, p) {
            return None;
        }
        if !satisfies(&t.system, p) {
            // Beyond the weight bound is unknown; off Π is off the board.
            return if satisfies(&t.board, p) {
                None
            } else {
                Some(Outcome::OffBoard)
            };
        }
        if t.defeated.binary_search_by(|q| q.as_slice().cmp(p)).is_ok() {
            return Some(Outcome::Defeated);
        }
        let k = t.d - 1;
        let (lo, len, offset) = t.checkpoints.find(&t.layout, &p[..k])?;
        let x = p[k] - lo;
        if x < 0 || x as u64 >= len {
            return None;
        }
        Some(if bits::get(&t.bits, (offset + x as u64) as usize) {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    /// Calls `f(row key, lo, hi, bit offset of lo)` for each nonempty part of a row inside the view
    /// (in table coordinates).
    fn for_each_view_row(&self, mut f: impl FnMut(&[i64], i64, i64, u64)) {
        let t = &self.table;
        if t.total == 0 {
            return;
        }
        let k = t.d - 1;
        let mut walk = t.layout.first();
        while !walk.done {
            let (mut a, mut b) = (walk.lo, walk.lo + walk.len as i64 - 1);
            if !self.view.is_empty() {
                let (l, h) = interval(&self.view, &walk.key, k);
                if let Some(l) = l {
                    a = a.max(l.clamp(i64::MIN as i128, i64::MAX as i128) as i64);
                }
                if let Some(h) = h {
                    b = b.min(h.clamp(i64::MIN as i128, i64::MAX as i128) as i64);
                }
            }
            if a <= b {
                f(&walk.key, a, b, walk.offset + (a - walk.lo) as u64);
            }
            walk.advance();
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
        let mut x = vec![0i64; self.table.d];
        self.for_each_p_row_while(|start, direction, bits, offset, len| {
            bits::for_each_one(bits, offset as usize, len as usize, |j| {
                for ((xi, s), v) in x.iter_mut().zip(start).zip(direction) {
                    *xi = s + j as i64 * v;
                }
                f(&x);
                true
            });
            true
        });
    }

    /// Calls `f(start, direction, bits, offset, len)` on each part of a row inside the view,
    /// while it returns true: the positions start + k·direction for k = 0, .., len − 1 are
    /// P-positions where the `len` bits of `bits` from `offset` are 1. Whole rows are handed
    /// over, for copying 64 positions per word; the direction is a unit vector unless the table
    /// is kept in other coordinates than the positions' own (see `coordinates`).
    pub fn for_each_p_row_while(
        &self,
        mut f: impl FnMut(&[i64], &[i64], &[u64], u64, u64) -> bool,
    ) {
        let t = &self.table;
        let k = t.d - 1;
        let mut unit = vec![0i64; t.d];
        unit[k] = 1;
        let direction = match &t.transform {
            Some(u) => u.to_x(&unit),
            None => unit,
        };
        let mut z = vec![0i64; t.d];
        let mut go = true;
        self.for_each_view_row(|key, a, b, off| {
            if go {
                z[..k].copy_from_slice(key);
                z[k] = a;
                let len = (b - a + 1) as u64;
                go = match &t.transform {
                    Some(u) => f(&u.to_x(&z), &direction, &t.bits, off, len),
                    None => f(&z, &direction, &t.bits, off, len),
                };
            }
        });
    }

    /// The smallest box holding every position of the view (`None` when it is empty).
    pub fn bounding_box(&self) -> Option<(Vec<i64>, Vec<i64>)> {
        let t = &self.table;
        let mut bounds: Option<(Vec<i64>, Vec<i64>)> = None;
        self.for_each_view_row(|key, a, b, _| {
            for x in [a, b] {
                let mut p = key.to_vec();
                p.push(x);
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

    /// Bytes used by the table (bits and checkpoints).
    pub fn memory(&self) -> u64 {
        let t = &self.table;
        t.bits.len() as u64 * 8 + t.checkpoints.bytes()
    }

    /// Positions in the computed table (the weight region below the view).
    pub fn table_positions(&self) -> u64 {
        self.table.total
    }
}

impl Table {
    /// Fills `bits` level by level (z_0). Rows of one level depend only on lower levels, so a
    /// level's rows are split at its checkpoints into chunks evaluated in parallel (rayon), each
    /// into its own buffer, and the buffers are then ORed into the table.
    fn evaluate(
        &mut self,
        moves: &[Vec<i64>],
        ell_z: &[i64],
        progress: &mut Option<&mut dyn FnMut(u64, u64)>,
    ) -> Result<(), SolveError> {
        use rayon::prelude::*;
        let plan = MovePlan::new(self.d, moves, ell_z);
        let total = self.total;
        let threads = rayon::current_num_threads().max(1);
        let cps = &self.checkpoints;
        let starts: Vec<usize> = (0..cps.len()).filter(|&i| cps.starts_level(i)).collect();
        let mut last_report = 0u64;
        for (li, &c0) in starts.iter().enumerate() {
            if crate::interrupt::requested() {
                return Err(SolveError::Interrupted);
            }
            let c1 = starts.get(li + 1).copied().unwrap_or(cps.len());
            let end = if c1 < cps.len() {
                cps.offset(c1)
            } else {
                total
            };
            let bits_in_level = (end - cps.offset(c0)) as usize;
            let min_bits = PARALLEL_MIN_BITS.load(std::sync::atomic::Ordering::Relaxed);
            // Chunks: runs of checkpoints [c, next) within the level, about equal in bits and
            // at most MAX_CHUNK_BITS when checkpoints allow, evaluated `threads` at a time so
            // that the buffers in flight stay small beside the table.
            let parallel = threads > 1 && bits_in_level >= min_bits && c1 - c0 >= 2;
            let want = if parallel {
                (threads * 4).min(c1 - c0)
            } else {
                1
            };
            let per = (bits_in_level.div_ceil(want) as u64).min(MAX_CHUNK_BITS);
            let mut chunks: Vec<(usize, u64)> = Vec::new();
            let mut c = c0;
            while c < c1 {
                let mut e = c + 1;
                while e < c1 && cps.offset(e) - cps.offset(c) < per {
                    e += 1;
                }
                chunks.push((c, if e < c1 { cps.offset(e) } else { end }));
                c = e;
            }
            for round in chunks.chunks(if parallel { threads } else { 1 }) {
                let this: &Table = self;
                let buffers: Vec<(usize, Vec<u64>)> = if round.len() > 1 {
                    round
                        .par_iter()
                        .map(|&(c, e)| this.eval_rows(&plan, c, e))
                        .collect()
                } else {
                    round
                        .iter()
                        .map(|&(c, e)| this.eval_rows(&plan, c, e))
                        .collect()
                };
                for (word, buffer) in buffers {
                    for (dst, src) in self.bits[word..].iter_mut().zip(&buffer) {
                        *dst |= src;
                    }
                }
            }
            if end - last_report >= 1 << 22 {
                last_report = end;
                if let Some(p) = progress.as_mut() {
                    p(end, total);
                }
            }
        }
        if let Some(p) = progress.as_mut() {
            p(total, total);
        }
        Ok(())
    }

    /// Evaluates the rows from checkpoint `first` up to bit offset `end` into a buffer whose word
    /// 0 is word `w` of the table; returns (w, buffer).
    fn eval_rows(&self, plan: &MovePlan, first: usize, end: u64) -> (usize, Vec<u64>) {
        let k = self.d - 1;
        let start = self.checkpoints.offset(first);
        let base_word = (start / 64) as usize;
        let base_bit = base_word * 64;
        let mut buffer = vec![0u64; bits::words_for(end as usize - base_bit) + 1];
        let mut target = self.checkpoints.walk(&self.layout, first);
        // Per off-axis move γ: a walk over the rows of the table, kept at the row key − γ'.
        let mut source_key = vec![0i64; k];
        let mut sources: Vec<_> = plan
            .cross
            .iter()
            .map(|(g, _)| {
                for j in 0..k {
                    source_key[j] = target.key[j] - g[j];
                }
                self.checkpoints
                    .walk_before(&self.layout, &source_key)
                    .expect("the table has rows")
            })
            .collect();
        let mut ext: Vec<u64> = Vec::new();
        let mut out: Vec<u64> = Vec::new();
        let mut next_defeated = self.defeated.partition_point(|q| q[..k] < target.key[..]);
        while !target.done && target.offset < end {
            let (lo, len) = (target.lo, target.len as usize);
            let words = bits::words_for(len);
            ext.clear();
            ext.resize(words + 1, 0);
            for ((g, gr), source) in plan.cross.iter().zip(sources.iter_mut()) {
                if !source.advance_to_shifted(&target.key, g) {
                    continue;
                }
                let (s_lo, s_len) = (source.lo, source.len as i64);
                // x − γ_r ∈ [s_lo, s_lo + s_len − 1] and x ∈ [lo, lo + len − 1].
                let a = (s_lo + gr).max(lo);
                let b = (s_lo + s_len - 1 + gr).min(lo + len as i64 - 1);
                if a > b {
                    continue;
                }
                let src = source.offset as usize + (a - gr - s_lo) as usize;
                bits::or_range(
                    &mut ext,
                    (a - lo) as usize,
                    &self.bits,
                    src,
                    (b - a + 1) as usize,
                );
            }
            // Defeated positions are not on the board: never P, never an option.
            while let Some(q) = self.defeated.get(next_defeated) {
                match q[..k].cmp(&target.key[..]) {
                    std::cmp::Ordering::Less => {}
                    std::cmp::Ordering::Equal => {
                        let x = q[k] - lo;
                        if x >= 0 && (x as usize) < len {
                            bits::set(&mut ext, x as usize);
                        }
                    }
                    std::cmp::Ordering::Greater => break,
                }
                next_defeated += 1;
            }
            let offset = target.offset as usize - base_bit;
            if plan.along.is_empty() {
                let mut i = 0;
                while i < len {
                    let n = (len - i).min(64);
                    bits::or_write(&mut buffer, offset + i, !bits::read(&ext, i, n), n);
                    i += n;
                }
            } else {
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
            target.advance();
        }
        (base_word, buffer)
    }
}

/// The most positions a chunk of rows evaluated into one buffer holds, where checkpoints allow.
const MAX_CHUNK_BITS: u64 = 1 << 22;

/// Levels with fewer positions than this are evaluated on one thread (tests lower it).
pub(crate) static PARALLEL_MIN_BITS: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(1 << 16);

/// The moves sorted for the row evaluation (in table coordinates).
struct MovePlan {
    /// Off-axis moves: (key component γ', row component γ_r).
    cross: Vec<(Vec<i64>, i64)>,
    /// Whether options along the axis lie below (ℓ grows along the row) or above.
    ascending: bool,
    /// Along the axis: bit g − 1 set for each distance g ≤ 64 to an option.
    history_mask: u64,
    /// Distances beyond 64.
    far: Vec<u64>,
    along: Vec<u64>,
}

impl MovePlan {
    fn new(d: usize, moves: &[Vec<i64>], ell_z: &[i64]) -> MovePlan {
        let k = d - 1;
        let mut cross = Vec::new();
        let mut along: Vec<u64> = Vec::new();
        for m in moves {
            if m[..k].iter().all(|&x| x == 0) {
                along.push(m[k].unsigned_abs());
            } else {
                cross.push((m[..k].to_vec(), m[k]));
            }
        }
        along.sort_unstable();
        let history_mask = along
            .iter()
            .filter(|&&g| g <= 64)
            .fold(0, |acc, &g| acc | (1u64 << (g - 1)));
        let far = along.iter().copied().filter(|&g| g > 64).collect();
        MovePlan {
            cross,
            ascending: ell_z[k] >= 0,
            history_mask,
            far,
            along,
        }
    }
}

/// The refusal of a region too large for `max_bytes`, counting on for a while to say how large.
fn too_large(
    mut walk: RowWalk<'_>,
    mut rows: u64,
    mut positions: u64,
    max_bytes: u64,
) -> SolveError {
    let stop = rows + (1 << 22);
    walk.advance();
    while !walk.done && rows < stop {
        rows += 1;
        positions += walk.len;
        walk.advance();
    }
    let bytes = positions / 8;
    let (more, than) = if walk.done {
        ("", "")
    } else {
        ("more than ", "more than ")
    };
    SolveError::TooLarge {
        detail: format!(
            "it holds {more}{positions} positions, which needs {than}{} (the limit is {})",
            human_bytes(bytes),
            human_bytes(max_bytes)
        ),
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
