//! Residue classes of Z^d modulo a lattice M of full rank, for the layered guess of `stratify`:
//! the group G = Z^d / M numbered in mixed radix, patterns saying which classes are in P, the
//! moduli and period lattices a solved region suggests, and the few cosets a set of classes makes.
//!
//! M is mZ^d for moduli m = (m_1, ..., m_d) (the residues x_i mod m_i), or any lattice of periods
//! (as ⟨(4, 1), (0, 9)⟩, where a pattern repeats along (4, 1) but along no axis before 36): its
//! Hermite basis is triangular, row i starting at column i with its pivot m_i, so each x reduces
//! to the one representative with 0 ≤ x_i < m_i, and |G| = m_1 ⋯ m_d.
//!
//! A set S of classes is a union of cosets of its stabilizer H = {t ∈ G : S + t = S}; lifted to
//! Z^d these are cosets of the lattice L = H + M, so S is written with |S|/|H| cosets of L
//! rather than |S| cosets of M (one coset of {x : w·x even} for a parity, one of
//! Z × 3Z for "x_2 ≡ 1 mod 3").

use super::region::WeightRegion;
use crate::algebra::coset::Coset;
use crate::algebra::lattice::{kernel_lattice, Lattice};
use crate::algebra::linalg::rank;
use crate::algebra::{Integer, Vector};
use crate::random::SplitMix64;

/// The largest modulus suggested along one axis.
const MAX_MODULUS: i64 = 24;

/// The most classes a pattern may have.
pub(super) const MAX_CLASSES: usize = 4096;

/// The most positions sampled for suggesting moduli.
const SAMPLE: usize = 50_000;

/// The lattice M: its triangular basis (row i zero before column i, with the pivot m_i there),
/// whether it is mZ^d, and the residues of every class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Moduli {
    m: Vec<i64>,
    /// The rows of M's Hermite basis, d per row; only read when M is not mZ^d.
    basis: Vec<i64>,
    diagonal: bool,
    /// The residues of class c, at d·c .. d·(c + 1).
    residues: Vec<i64>,
}

/// The largest dimension a lattice M that is not mZ^d may have (its reduction keeps the
/// quotients on the stack).
const MAX_LATTICE_DIM: usize = 8;

/// What a pattern knows of one class.
pub(super) const UNSEEN: u8 = 0;
const NOT_P: u8 = 1;
const IN_P: u8 = 2;

/// Which classes are in P (one byte per class: unseen, not in P, in P).
pub(super) type Pattern = Vec<u8>;

/// The state byte for an outcome.
pub(super) fn state(p: bool) -> u8 {
    if p {
        IN_P
    } else {
        NOT_P
    }
}

/// Whether the class is in P under the pattern, or None when the pattern has not seen it.
pub(super) fn lookup(pattern: &[u8], class: u32) -> Option<bool> {
    match pattern[class as usize] {
        UNSEEN => None,
        s => Some(s == IN_P),
    }
}

impl Moduli {
    /// The moduli m (each at least 1, with at most [`MAX_CLASSES`] classes).
    pub(super) fn new(m: Vec<i64>) -> Option<Moduli> {
        let d = m.len();
        let mut basis = vec![0; d * d];
        for (i, &mi) in m.iter().enumerate() {
            basis[i * d + i] = mi;
        }
        Moduli::with_basis(m, basis, true)
    }

    /// Residues modulo a lattice of full rank (at most [`MAX_CLASSES`] classes, d at most
    /// [`MAX_LATTICE_DIM`]); mZ^d when that is what it is.
    pub(super) fn of_lattice(lattice: &Lattice) -> Option<Moduli> {
        let d = lattice.ambient_dim();
        if lattice.rank() != d || d > MAX_LATTICE_DIM {
            return None;
        }
        let mut basis = Vec::with_capacity(d * d);
        for (i, row) in lattice.basis().iter().enumerate() {
            let row: Vec<i64> = row.0.iter().map(Integer::to_i64).collect::<Option<_>>()?;
            // Hermite rows of a lattice of rank d: row i starts at column i.
            if row[..i].iter().any(|&a| a != 0) || row[i] == 0 {
                return None;
            }
            let sign = row[i].signum();
            basis.extend(row.iter().map(|&a| a * sign));
        }
        let m: Vec<i64> = (0..d).map(|i| basis[i * d + i]).collect();
        let diagonal = (0..d).all(|i| (0..d).all(|j| i == j || basis[i * d + j] == 0));
        Moduli::with_basis(m, basis, diagonal)
    }

    fn with_basis(m: Vec<i64>, basis: Vec<i64>, diagonal: bool) -> Option<Moduli> {
        let mut count: usize = 1;
        for &mi in &m {
            if mi < 1 {
                return None;
            }
            count = count.checked_mul(mi as usize)?;
            if count > MAX_CLASSES {
                return None;
            }
        }
        let d = m.len();
        let mut residues = vec![0; count * d];
        for c in 0..count {
            let mut rest = c as i64;
            for i in (0..d).rev() {
                residues[c * d + i] = rest % m[i];
                rest /= m[i];
            }
        }
        Some(Moduli {
            m,
            basis,
            diagonal,
            residues,
        })
    }

    pub(super) fn dim(&self) -> usize {
        self.m.len()
    }

    /// The number of classes.
    pub(super) fn count(&self) -> usize {
        self.residues.len() / self.m.len().max(1)
    }

    /// Whether the lattice of `other` lies in M (so every pattern modulo M is one modulo it).
    pub(super) fn contains_lattice_of(&self, other: &Moduli) -> bool {
        let d = self.dim();
        other.dim() == d
            && other
                .basis
                .chunks_exact(d.max(1))
                .all(|row| self.class_of(row) == 0)
    }

    /// Whether M is mZ^d.
    pub(super) fn is_box(&self) -> bool {
        self.diagonal
    }

    /// The class of x.
    #[inline]
    pub(super) fn class_of(&self, x: &[i64]) -> u32 {
        if self.diagonal {
            return x
                .iter()
                .zip(&self.m)
                .fold(0i64, |c, (&xi, &mi)| c * mi + xi.rem_euclid(mi)) as u32;
        }
        // x − Σ q_i b_i, row by row: coordinate i is changed only by the rows before it.
        let d = self.m.len();
        let mut q = [0i64; MAX_LATTICE_DIM];
        let mut c = 0i64;
        for i in 0..d {
            let xi = x[i] - (0..i).map(|j| q[j] * self.basis[j * d + i]).sum::<i64>();
            q[i] = xi.div_euclid(self.m[i]);
            c = c * self.m[i] + xi.rem_euclid(self.m[i]);
        }
        c as u32
    }

    /// The residues of a class, each in 0..m_i.
    pub(super) fn residue(&self, class: u32) -> &[i64] {
        let d = self.m.len();
        &self.residues[class as usize * d..(class as usize + 1) * d]
    }

    /// a + b in G.
    fn add(&self, a: u32, b: u32) -> u32 {
        let (ra, rb) = (self.residue(a), self.residue(b));
        let sum: Vec<i64> = ra.iter().zip(rb).map(|(x, y)| x + y).collect();
        self.class_of(&sum)
    }

    /// a − b in G.
    fn sub(&self, a: u32, b: u32) -> u32 {
        let (ra, rb) = (self.residue(a), self.residue(b));
        let difference: Vec<i64> = ra.iter().zip(rb).map(|(x, y)| x - y).collect();
        self.class_of(&difference)
    }

    /// The rows of M's basis (m_i e_i when M is mZ^d).
    pub(super) fn basis_rows(&self) -> Vec<Vector> {
        let d = self.m.len();
        self.basis
            .chunks_exact(d.max(1))
            .map(Vector::from_i64s)
            .collect()
    }

    /// "2" when every modulus is 2, the moduli as "(12, 24, 2)", or a lattice that is not mZ^d
    /// by its basis, as "the lattice ⟨(4, 1), (0, 9)⟩".
    pub(super) fn describe(&self) -> String {
        if !self.diagonal {
            let rows: Vec<String> = self.basis_rows().iter().map(|r| r.to_string()).collect();
            format!("the lattice ⟨{}⟩", rows.join(", "))
        } else if self.m.iter().all(|&x| x == 2) {
            "2".into()
        } else {
            Vector::from_i64s(&self.m).to_string()
        }
    }

    /// The cosets of a lattice L ⊇ mZ^d whose union is the classes in P of the pattern (the
    /// unseen ones are not in P): L = H + mZ^d for the stabilizer H of that set, one coset per
    /// orbit.
    pub(super) fn cosets_in_p(&self, pattern: &[u8]) -> Vec<Coset> {
        let (generators, representatives) = self.orbits(pattern);
        if representatives.is_empty() {
            return Vec::new();
        }
        let lattice = Lattice::generated_by(self.dim(), &generators);
        representatives
            .into_iter()
            .map(|s| Coset::new(Vector::from_i64s(self.residue(s)), &lattice))
            .collect()
    }

    /// How many cosets [`Moduli::cosets_in_p`] makes of the pattern.
    pub(super) fn coset_count(&self, pattern: &[u8]) -> usize {
        self.orbits(pattern).1.len()
    }

    /// Generators of L = H + M for the stabilizer H of the classes S in P, and one class of
    /// each orbit S/H.
    fn orbits(&self, pattern: &[u8]) -> (Vec<Vector>, Vec<u32>) {
        let n = self.count();
        let in_s: Vec<bool> = (0..n as u32)
            .map(|c| lookup(pattern, c) == Some(true))
            .collect();
        let members: Vec<u32> = (0..n as u32).filter(|&c| in_s[c as usize]).collect();
        let Some(&first) = members.first() else {
            return (Vec::new(), Vec::new());
        };
        // H ⊆ S − s0: the t there with S + t ⊆ S (so = S, G being finite).
        let stabilizer: Vec<u32> = members
            .iter()
            .map(|&s| self.sub(s, first))
            .filter(|&t| members.iter().all(|&x| in_s[self.add(x, t) as usize]))
            .collect();
        // Generators of H, greedily: each one not in the group the earlier ones generate.
        let mut in_group = vec![false; n];
        in_group[0] = true;
        let mut group = vec![0u32];
        let mut generators: Vec<Vector> = self.basis_rows();
        for &t in &stabilizer {
            if in_group[t as usize] {
                continue;
            }
            generators.push(Vector::from_i64s(self.residue(t)));
            // The group plus the multiples of t: add t until it closes.
            let mut layer = group.clone();
            loop {
                layer = layer
                    .iter()
                    .map(|&g| self.add(g, t))
                    .filter(|&g| !in_group[g as usize])
                    .collect();
                if layer.is_empty() {
                    break;
                }
                for &g in &layer {
                    in_group[g as usize] = true;
                }
                group.extend_from_slice(&layer);
            }
        }
        let mut covered = vec![false; n];
        let mut representatives = Vec::new();
        for &s in &members {
            if covered[s as usize] {
                continue;
            }
            for &h in &group {
                covered[self.add(s, h) as usize] = true;
            }
            representatives.push(s);
        }
        (generators, representatives)
    }
}

/// The moduli the region suggests: on each axis i the least p ≤ 24 whose rate of disagreement
/// P(x) ≠ P(x + p e_i) is within 1/100 of the least rate, over the heavier half of the region
/// (positions of weight above half the bound with every coordinate at least 4, sampled). A
/// pattern whose period changes across a slanted boundary disagrees only near it under the lcm
/// of the periods on either side, which the least rate picks. None when too few positions, when
/// interrupted, or when the classes would be more than [`MAX_CLASSES`].
pub(super) fn suggested_moduli(region: &WeightRegion) -> Option<Moduli> {
    let d = region.dim();
    let half = region.bound() / 2;
    let (points, outcomes, heavy) =
        region.sample_above(&vec![None; d], &vec![4; d], half, 3 * SAMPLE / 2);
    if heavy < 64 {
        return None;
    }
    let sample: Vec<(&[i64], bool)> = points.chunks_exact(d).zip(outcomes).collect();
    let mut m = Vec::with_capacity(d);
    let mut y = vec![0i64; d];
    for i in 0..d {
        // (disagreements, pairs) for p = 1..=MAX_MODULUS.
        let mut rates: Vec<(u64, u64)> = Vec::new();
        for p in 1..=MAX_MODULUS {
            if crate::interrupt::requested() {
                return None;
            }
            let (mut differ, mut pairs) = (0u64, 0u64);
            for &(x, px) in &sample {
                y.copy_from_slice(x);
                y[i] += p;
                if let Some(at) = region.index(&y) {
                    pairs += 1;
                    differ += u64::from(region.get(at) != px);
                }
            }
            rates.push((differ, pairs));
        }
        // Rates compared exactly: a/b ≤ c/e + 1/100 ⇔ 100·a·e ≤ 100·c·b + b·e.
        let counted: Vec<(usize, (u64, u64))> = rates
            .into_iter()
            .enumerate()
            .filter(|(_, (_, pairs))| *pairs >= 32)
            .collect();
        let least = counted.iter().map(|&(_, r)| r).min_by(|a, b| {
            (u128::from(a.0) * u128::from(b.1)).cmp(&(u128::from(b.0) * u128::from(a.1)))
        })?;
        let (c, e) = (u128::from(least.0), u128::from(least.1));
        let (k, _) = counted.iter().find(|&&(_, (a, b))| {
            let (a, b) = (u128::from(a), u128::from(b));
            100 * a * e <= 100 * c * b + b * e
        })?;
        m.push(*k as i64 + 1);
    }
    Moduli::new(m)
}

/// The reach of the period vectors [`suggested_periods`] tries, by dimension: every v with
/// |v_i| ≤ the reach.
fn period_reach(d: usize) -> i64 {
    match d {
        2 => 24,
        3 => 8,
        _ => 3,
    }
}

/// The vectors read as periods in dimension d: entries at most [`period_reach`], one of each ±v
/// (the first nonzero entry positive), shortest first (by largest entry, then sum of entries),
/// so that a box's lattice is found from its shortest periods.
fn period_vectors(d: usize) -> Vec<Vec<i64>> {
    let reach = period_reach(d);
    let side = 2 * reach + 1;
    let mut vectors: Vec<Vec<i64>> = (0..side.pow(d as u32))
        .map(|mut k| {
            let mut v = vec![0i64; d];
            for vi in v.iter_mut().rev() {
                *vi = k % side - reach;
                k /= side;
            }
            v
        })
        .filter(|v| v.iter().find(|&&a| a != 0).is_some_and(|&a| a > 0))
        .collect();
    vectors.sort_by_key(|v| {
        (
            v.iter().map(|a| a.abs()).max(),
            v.iter().map(|a| a.abs()).sum::<i64>(),
        )
    });
    vectors
}

/// The largest entry of a sum of moves [`move_sums`] offers as a period.
const MOVE_SUM_ENTRY: i64 = 12;

/// The sums of the moves as periods to try, past the reach of the vectors [`period_vectors`]
/// lists: each nonempty subset's sum and twice it, those with entries at most
/// [`MOVE_SUM_ENTRY`] (before doubling), for at most 8 moves. A staircase whose steps are one
/// round of several moves repeats along their sum. In misère play of Γ = {2e_4, 2e_3, 2e_2, e_1,
/// (2, 0, 2, 2)} the boundaries between its patterns move along e_1 + 2e_3 + 2e_4 + (2, 0, 2, 2)
/// = (3, 0, 4, 4); in misère play of Γ = {2e_4, 2e_3, e_2, (0, 1, 1, 2), (0, 2, 1, 2),
/// (2, −2, −1, 0)} its patterns repeat along (0, 1, 1, 2) + (0, 2, 1, 2). Entries 4 are past
/// the 3 the scan reaches in d = 4.
pub(super) fn move_sums(moves: &[Vec<i64>]) -> Vec<Vec<i64>> {
    if moves.is_empty() || moves.len() > 8 {
        return Vec::new();
    }
    let d = moves[0].len();
    let mut out = Vec::new();
    for subset in 1u32..(1 << moves.len()) {
        let mut sum = vec![0i64; d];
        for (k, m) in moves.iter().enumerate() {
            if subset >> k & 1 == 1 {
                sum.iter_mut().zip(m).for_each(|(a, b)| *a += b);
            }
        }
        if sum.iter().all(|a| a.abs() <= MOVE_SUM_ENTRY) {
            out.push(sum.iter().map(|a| 2 * a).collect());
            out.push(sum);
        }
    }
    out
}

/// The most positions sampled for a period lattice.
const PERIOD_SAMPLE: usize = 4_000;

/// The lattice of periods the region suggests, when its pattern repeats along vectors that are
/// not multiples of the axes (as in misère play of Γ = {(−1, 2), (2, 0), (2, 1)}: P repeats along
/// (4, 1) and (0, 9) on one side of a line x_1 − x_2 = c and along (4, 0) and (6, 6) on the
/// other, so along no axis before 36), and the normals of the boundaries between patterns. On a
/// sample of the heavier half, away from the faces, a vector v is a period when P(x + v) = P(x)
/// for all but 1 in 500 pairs.
/// - When the periods span R^d, they generate the lattice.
/// - When they span a hyperplane (the boundary between two patterns, which every period along
///   it keeps), its normal h is a boundary's, and it splits the sample: the periods of the part
///   below h·x = c and of the part above, c the 30th and 70th percentiles of h·x, give a
///   lattice each, and the lattice is their intersection (the periods of both patterns). Where
///   a side shows none there, the sides past deeper percentiles give a second lattice
///   ([`Periods::deeper`]). The
///   normal may have any entries up to 12, where the layered guess's own candidates stop at 3
///   or 4 (a parity flipping across 2x_1 + x_2 − x_3 + 4x_4 = 13).
/// - When they span less (boundaries of several directions), the parts are the cells the
///   tertiles of the coordinates make (3^d; the medians' 2^d in d = 4), and [`WINDOWS`] small
///   boxes around positions spread over the sample ([`window_periods`]: a pattern in a wedge
///   holding a twentieth of the region has no cell inside it, but boxes); those whose periods
///   span R^d (at least two) are intersected alike, and those whose periods span a hyperplane
///   give a boundary's normal.
///
/// A part's periods are those that never change an outcome on it when they span R^d: a vector
/// crossing a boundary changes a share of the outcomes that shrinks as the region grows.
///
/// The vectors tried are those with entries up to [`period_reach`], then the `further` ones past
/// it (the moves' sums, [`move_sums`]).
///
/// No lattice when M would have more than [`MAX_CLASSES`] classes or is mZ^d (the moduli of
/// [`suggested_moduli`] cover those); None when the region is too small or interrupted.
pub(super) fn suggested_periods(region: &WeightRegion, further: &[Vec<i64>]) -> Option<Periods> {
    let d = region.dim();
    if !(2..=4).contains(&d) {
        return None;
    }
    let bound = region.bound();
    // Away from the faces: a quarter of the weight spent on the margins, at least 2 each.
    let margins: Vec<i64> = region
        .ell()
        .iter()
        .map(|&l| (bound / (4 * d as i64 * l)).max(2))
        .collect();
    let (points, outcomes, heavy) =
        region.sample_above(&vec![None; d], &margins, bound / 2, PERIOD_SAMPLE);
    if heavy < 256 {
        return None;
    }
    let sample: Vec<(&[i64], bool)> = points.chunks_exact(d).zip(outcomes).collect();
    if sample.is_empty() {
        return None;
    }
    let mut vectors = period_vectors(d);
    let reach = period_reach(d);
    for v in further {
        let Some(&first) = v.iter().find(|&&a| a != 0) else {
            continue;
        };
        let v: Vec<i64> = v.iter().map(|&a| a * first.signum()).collect();
        // Those within reach are among the vectors already, shortest first.
        if v.len() == d && v.iter().any(|a| a.abs() > reach) && !vectors.contains(&v) {
            vectors.push(v);
        }
    }
    // The periods among `vectors` on the part of the sample `inside` keeps (both ends of each
    // pair in it); None when interrupted.
    let mut y = vec![0i64; d];
    let mut periods = |inside: &dyn Fn(&[i64]) -> bool| -> Option<Lattice> {
        let mut exact = Vec::new();
        let part: Vec<(&[i64], bool)> = sample.iter().copied().filter(|(x, _)| inside(x)).collect();
        let most = part.len() as u64;
        let mut out = Vec::new();
        for v in &vectors {
            if crate::interrupt::requested() {
                return None;
            }
            let (mut differ, mut pairs) = (0u64, 0u64);
            for &(x, px) in &part {
                for ((yi, &xi), &vi) in y.iter_mut().zip(x).zip(v) {
                    *yi = xi + vi;
                }
                if !inside(&y) {
                    continue;
                }
                if let Some(at) = region.index(&y) {
                    pairs += 1;
                    if region.get(at) != px {
                        differ += 1;
                        // Past 1 in 500 of every pair there could be: not a period.
                        if differ * 500 > most {
                            break;
                        }
                    }
                }
            }
            if pairs >= 64 && differ * 500 <= pairs {
                out.push(Vector::from_i64s(v));
                if differ == 0 {
                    exact.push(Vector::from_i64s(v));
                }
            }
        }
        // The exact periods, where they span R^d: a vector crossing a boundary differs on a
        // share of the pairs that shrinks as the region grows, and passes 1 in 500 on large
        // regions (misère play of Γ = {e_3, 2e_2, e_1, (1, 1, 2)}: (2, 0, 0) is a period of
        // each of its three patterns, not of their boundaries, which move along (2, 3, 3)).
        let exactly = Lattice::generated_by(d, &exact);
        Some(if exactly.rank() == d {
            exactly
        } else {
            Lattice::generated_by(d, &out)
        })
    };
    let spanned = periods(&|_| true)?;
    let mut found = Periods::default();
    if spanned.rank() == d {
        found.lattice = Moduli::of_lattice(&spanned).filter(|m| !m.is_box());
        return Some(found);
    }
    // The pattern changes across the region: the periods of parts of it, each part's where
    // they span R^d, intersected (the vectors that are periods of every part).
    let mut parts: Vec<Lattice> = Vec::new();
    if spanned.rank() + 1 == d {
        // One boundary, along the periods found: the parts below and above it.
        let Some(h) = normal_of(&spanned) else {
            return Some(found);
        };
        let level = |x: &[i64]| -> i64 { x.iter().zip(&h).map(|(a, b)| a * b).sum() };
        let mut levels: Vec<i64> = sample.iter().map(|(x, _)| level(x)).collect();
        levels.sort_unstable();
        let n = levels.len();
        let (low, high) = (levels[n * 3 / 10], levels[n * 7 / 10]);
        parts.push(periods(&|x| level(x) < low)?);
        parts.push(periods(&|x| level(x) > high)?);
        // Where a side shows no lattice, it may show one past a zone along the boundary that
        // differs from both patterns (misère play of Γ = {(−1, 2), 2e_2, 2e_1, (2, 1)}: up to
        // 10 levels of 2x_1 − x_2 past it, and a vector from the part into the zone changes
        // outcomes): each side past the 15% and the 5% of the levels nearest the other, the
        // part whose periods span R^d with the fewest classes kept.
        if parts.iter().any(|l| l.rank() < d) {
            let mut sides = Vec::new();
            for below in [true, false] {
                let mut kept: Option<Lattice> = None;
                for share in [15, 5] {
                    let part = if below {
                        let low = levels[n * share / 100];
                        periods(&|x| level(x) < low)?
                    } else {
                        let high = levels[n * (100 - share) / 100];
                        periods(&|x| level(x) > high)?
                    };
                    let Some(classes) = part.index() else {
                        continue;
                    };
                    if kept
                        .as_ref()
                        .and_then(Lattice::index)
                        .is_none_or(|k| classes < k)
                    {
                        kept = Some(part);
                    }
                }
                sides.extend(kept);
            }
            found.deeper = common_lattice(&sides);
        }
        found.normals.push(h);
    } else {
        // Boundaries of several directions: the cells the quantiles of the coordinates make
        // (tertiles in d ≤ 3, where a pattern may hold a tenth of the sample only; medians in
        // d = 4, whose cells would be too small), those within one pattern showing its periods,
        // and those across one boundary its direction.
        let k = if d <= 3 { 3 } else { 2 };
        let cuts: Vec<Vec<i64>> = (0..d)
            .map(|i| {
                let mut xs: Vec<i64> = sample.iter().map(|(x, _)| x[i]).collect();
                xs.sort_unstable();
                (1..k).map(|j| xs[xs.len() * j / k]).collect()
            })
            .collect();
        for cell in 0..k.pow(d as u32) {
            let inside = |x: &[i64]| {
                (0..d).all(|i| {
                    let at = cuts[i].iter().filter(|&&c| x[i] >= c).count();
                    at == cell / k.pow(i as u32) % k
                })
            };
            let part = periods(&inside)?;
            if part.rank() + 1 == d {
                if let Some(h) = normal_of(&part).filter(|h| !found.normals.contains(h)) {
                    found.normals.push(h);
                }
            }
            parts.push(part);
        }
        // And small boxes, which see patterns no cell lies inside (see [`window_periods`]).
        let step = (sample.len() / WINDOWS).max(1);
        for (center, _) in sample.iter().step_by(step).take(WINDOWS) {
            let part = window_periods(region, center, &margins, &vectors)?;
            if part.rank() + 1 == d {
                if let Some(h) = normal_of(&part).filter(|h| !found.normals.contains(h)) {
                    found.normals.push(h);
                }
            }
            parts.push(part);
        }
    }
    found.lattice = common_lattice(&parts);
    found.parts = distinct_lattices(&parts);
    Some(found)
}

/// The periods every part whose periods span R^d shares (their intersection), as moduli; None
/// when fewer than two parts span R^d, or the intersection is mZ^d or has too many classes.
fn common_lattice(parts: &[Lattice]) -> Option<Moduli> {
    let d = parts.first()?.ambient_dim();
    let zero = Vector::zero(d);
    let mut common: Option<Coset> = None;
    let mut full = 0;
    for part in parts.iter().filter(|l| l.rank() == d) {
        full += 1;
        let coset = Coset::new(zero.clone(), part);
        common = match common {
            None => Some(coset),
            Some(c) => c.intersect(&coset),
        };
        common.as_ref()?;
    }
    if full < 2 {
        return None;
    }
    common
        .and_then(|c| Moduli::of_lattice(&c.lattice()))
        .filter(|m| !m.is_box())
}

/// The half side of the boxes whose exact periods [`window_periods`] reads.
const WINDOW_HALF: i64 = 8;

/// How many boxes a region's scan reads (around positions spread over its sample), and about
/// how many positions of each.
const WINDOWS: usize = 64;
const WINDOW_POINTS: usize = 400;

/// The fewest pairs of a box's positions a vector must keep to count as one of its periods.
const WINDOW_PAIRS: usize = 32;

/// The exact periods among `vectors` (shortest first) of the positions in the box of half side
/// [`WINDOW_HALF`] around `center`, away from the faces (at least `margins`): a box inside one
/// pattern shows its lattice however little of the region the pattern holds (a twentieth of it,
/// in a wedge no cell of the quantiles fits in), a box across one boundary the periods along it.
/// Once the periods found span R^d, a vector of the lattice they generate is not read again.
/// None when interrupted.
fn window_periods(
    region: &WeightRegion,
    center: &[i64],
    margins: &[i64],
    vectors: &[Vec<i64>],
) -> Option<Lattice> {
    let d = center.len();
    let lower: Vec<i64> = center
        .iter()
        .zip(margins)
        .map(|(&c, &m)| (c - WINDOW_HALF).max(m))
        .collect();
    let upper: Vec<i64> = center.iter().map(|&c| c + WINDOW_HALF).collect();
    let inside = |y: &[i64]| -> Option<u64> {
        if y.iter()
            .zip(&lower)
            .zip(&upper)
            .any(|((&a, &l), &u)| a < l || a > u)
        {
            return None;
        }
        region.index(y)
    };
    // Positions of the box drawn at random (a fixed seed): every k-th in the order of the box
    // could keep one residue of a coordinate only.
    let mut points: Vec<(Vec<i64>, bool)> = Vec::new();
    let mut x = lower.clone();
    let mut random = SplitMix64(0x5eed);
    for _ in 0..WINDOW_POINTS {
        for ((xi, &l), &u) in x.iter_mut().zip(&lower).zip(&upper) {
            *xi = l + random.below((u - l + 1) as u64) as i64;
        }
        if let Some(at) = region.index(&x) {
            points.push((x.clone(), region.get(at)));
        }
    }
    let mut generators: Vec<Vector> = Vec::new();
    if points.len() < WINDOW_POINTS / 4 {
        return Some(Lattice::generated_by(d, &generators));
    }
    // Until the periods found span R^d every vector is tried on the positions (a vector that
    // is not a period is ruled out by the first few); from then on, those of the lattice they
    // generate are skipped, by residue when it has few classes (a Hermite form per vector cost
    // more than the whole box).
    let mut lattice: Option<(Lattice, Option<Moduli>)> = None;
    let mut y = vec![0i64; d];
    for v in vectors {
        if crate::interrupt::requested() {
            return None;
        }
        let known = match &lattice {
            Some((_, Some(moduli))) => moduli.class_of(v) == 0,
            Some((l, None)) => l.contains(&Vector::from_i64s(v)),
            None => false,
        };
        if known {
            continue;
        }
        let mut pairs = 0usize;
        let mut differ = false;
        for (x, px) in &points {
            for ((yi, &xi), &vi) in y.iter_mut().zip(x).zip(v) {
                *yi = xi + vi;
            }
            if let Some(at) = inside(&y) {
                pairs += 1;
                if region.get(at) != *px {
                    differ = true;
                    break;
                }
            }
        }
        if differ || pairs < WINDOW_PAIRS {
            continue;
        }
        generators.push(Vector::from_i64s(v));
        if lattice.is_some() || rank(&generators, d) == d {
            let l = Lattice::generated_by(d, &generators);
            let moduli = Moduli::of_lattice(&l);
            lattice = Some((l, moduli));
        }
    }
    Some(match lattice {
        Some((l, _)) => l,
        None => Lattice::generated_by(d, &generators),
    })
}

/// The normal of a lattice of rank d − 1 (primitive, its first nonzero entry positive), when
/// its entries are at most [`MAX_NORMAL_ENTRY`].
fn normal_of(lattice: &Lattice) -> Option<Vec<i64>> {
    let normal = kernel_lattice(lattice.basis(), lattice.ambient_dim()).pop()?;
    let mut h: Vec<i64> = normal
        .0
        .iter()
        .map(Integer::to_i64)
        .collect::<Option<_>>()?;
    if h.iter().any(|a| a.abs() > MAX_NORMAL_ENTRY) {
        return None;
    }
    if h.iter().find(|&&a| a != 0).is_some_and(|&a| a < 0) {
        h.iter_mut().for_each(|a| *a = -*a);
    }
    Some(h)
}

/// The largest entry of a boundary normal [`suggested_periods`] reports.
const MAX_NORMAL_ENTRY: i64 = 12;

/// What the periods of a region suggest: the lattice of periods of its patterns when it is not
/// mZ^d, and the normals of the boundaries between them.
#[derive(Default)]
pub(super) struct Periods {
    pub(super) lattice: Option<Moduli>,
    pub(super) normals: Vec<Vec<i64>>,
    /// With one boundary, where a side showed no lattice past the 30% of the levels nearest
    /// the other: the lattice of the sides past deeper percentiles, for a tree of cuts to try
    /// after the one it would grow without it.
    pub(super) deeper: Option<Moduli>,
    /// The lattices the parts of the region show, where the pattern changes across it: each
    /// cell of a tree of cuts may take its own among them (where their intersection has too
    /// many classes for one pattern, or is refuted). At most [`MOST_PARTS`], fewest classes
    /// first.
    pub(super) parts: Vec<Moduli>,
}

/// The lattices of the boxes around `centers` whose periods span R^d, as moduli, those not
/// among `known` and with more than one class: the patterns the lines of the region pass
/// through before their last ([`super::boundaries`]), read from boxes kept off the faces by 2
/// only (such a pattern may hold a wedge along a face that the boxes of [`suggested_periods`],
/// off the faces by a quarter of the weight, never reach). None when interrupted.
pub(super) fn lattices_around(
    region: &WeightRegion,
    centers: &[Vec<i64>],
    known: &[Moduli],
) -> Option<Vec<Moduli>> {
    let d = region.dim();
    let vectors = period_vectors(d);
    let margins = vec![2; d];
    let mut out: Vec<Moduli> = Vec::new();
    for center in centers {
        let part = window_periods(region, center, &margins, &vectors)?;
        if part.rank() < d {
            continue;
        }
        if let Some(m) = Moduli::of_lattice(&part).filter(|m| m.count() > 1) {
            if !known.contains(&m) && !out.contains(&m) {
                out.push(m);
            }
        }
    }
    out.sort_by_key(Moduli::count);
    out.truncate(MOST_PARTS);
    Some(out)
}

/// The most lattices of parts [`Periods::parts`] keeps.
const MOST_PARTS: usize = 8;

/// The distinct lattices of the parts whose periods span R^d, as moduli (those with at most
/// [`MAX_CLASSES`] classes, other than Z^d itself), fewest classes first, at most [`MOST_PARTS`].
fn distinct_lattices(parts: &[Lattice]) -> Vec<Moduli> {
    let mut out: Vec<Moduli> = Vec::new();
    for part in parts.iter().filter(|l| l.rank() == l.ambient_dim()) {
        if let Some(m) = Moduli::of_lattice(part).filter(|m| m.count() > 1) {
            if !out.contains(&m) {
                out.push(m);
            }
        }
    }
    out.sort_by_key(Moduli::count);
    out.truncate(MOST_PARTS);
    out
}

#[cfg(test)]
pub(super) mod tests {
    use proptest::prelude::*;

    use super::*;

    fn pattern_of(moduli: &Moduli, rule: impl Fn(&[i64]) -> bool) -> Pattern {
        (0..moduli.count() as u32)
            .map(|c| state(rule(moduli.residue(c))))
            .collect()
    }

    /// Each point of the box lies in exactly one of the cosets when the rule holds there, and in
    /// none otherwise.
    fn partition_exactly(
        cosets: &[Coset],
        rule: &dyn Fn(&[i64]) -> bool,
        xs: std::ops::Range<i64>,
        ys: std::ops::Range<i64>,
    ) {
        for x0 in xs {
            for x1 in ys.clone() {
                let x = [x0, x1];
                let inside = cosets
                    .iter()
                    .filter(|c| c.contains(&Vector::from_i64s(&x)))
                    .count();
                assert_eq!(inside, usize::from(rule(&x)), "{x:?}");
            }
        }
    }

    #[test]
    fn classes_number_residues_in_mixed_radix() {
        let moduli = Moduli::new(vec![3, 4]).unwrap();
        assert_eq!(moduli.count(), 12);
        for x in [[0, 0], [2, 3], [5, 7], [7, 1]] {
            let c = moduli.class_of(&x);
            assert_eq!(moduli.residue(c), [x[0] % 3, x[1] % 4]);
        }
        assert!(Moduli::new(vec![64, 65]).is_none());
        assert!(Moduli::new(vec![0, 2]).is_none());
    }

    #[test]
    fn a_parity_makes_one_coset() {
        // x_0 + x_2 odd in d = 3, modulo 2.
        let moduli = Moduli::new(vec![2; 3]).unwrap();
        let pattern = pattern_of(&moduli, |r| (r[0] + r[2]) % 2 == 1);
        let cosets = moduli.cosets_in_p(&pattern);
        assert_eq!(cosets.len(), 1);
        for x in [[1, 0, 0], [0, 5, 1], [2, 3, 3], [4, 4, 1]] {
            assert_eq!(
                cosets[0].contains(&Vector::from_i64s(&x)),
                (x[0] + x[2]) % 2 == 1,
                "{x:?}"
            );
        }
    }

    #[test]
    fn classes_are_written_with_the_fewest_cosets_of_their_stabilizer() {
        // Modulo (6, 24): x_2 ≡ 1 mod 3 is one coset of Z × 3Z; adding the class (0, 0) leaves
        // no symmetry but mZ^2, one coset per class.
        let moduli = Moduli::new(vec![6, 24]).unwrap();
        let rule = |x: &[i64]| x[1].rem_euclid(3) == 1;
        let cosets = moduli.cosets_in_p(&pattern_of(&moduli, rule));
        assert_eq!(cosets.len(), 1);
        // x_1 ≡ x_2 mod 3, or x_1 even: cosets of a lattice that is not a product.
        let slanted = |x: &[i64]| (x[0] - x[1]).rem_euclid(3) == 0 || x[0] % 2 == 0;
        let cosets2 = moduli.cosets_in_p(&pattern_of(&moduli, slanted));
        for (rule, cosets) in [
            (&rule as &dyn Fn(&[i64]) -> bool, &cosets),
            (&slanted, &cosets2),
        ] {
            partition_exactly(cosets, rule, -7..30, -30..50);
        }
        let with_origin = |x: &[i64]| rule(x) || (x[0] % 6 == 0 && x[1] % 24 == 0);
        let cosets = moduli.cosets_in_p(&pattern_of(&moduli, with_origin));
        assert_eq!(cosets.len(), 6 * 8 + 1);
    }

    #[test]
    fn the_sums_of_the_moves_and_their_doubles_are_offered_as_periods() {
        let moves = [
            vec![0, 0, 0, 2],
            vec![0, 0, 2, 0],
            vec![0, 2, 0, 0],
            vec![1, 0, 0, 0],
            vec![2, 0, 2, 2],
        ];
        let sums = move_sums(&moves);
        // Every nonempty subset's sum and twice it: no entry is past 12.
        assert_eq!(sums.len(), 2 * 31);
        for v in [
            [3, 0, 4, 4],
            [6, 0, 8, 8],
            [3, 2, 4, 4],
            [2, 0, 2, 2],
            [4, 0, 4, 4],
        ] {
            assert!(sums.contains(&v.to_vec()), "{v:?}");
        }
        let long = [vec![7, 0], vec![0, 1], vec![6, -1]];
        let sums = move_sums(&long);
        // All three sum to (13, 0), past 12: neither it nor twice it.
        assert_eq!(sums.len(), 2 * 5, "{sums:?}");
        assert!(sums.contains(&vec![6, 0]) && sums.contains(&vec![14, 2]));
        assert!(!sums.iter().any(|v| v[0] == 13 || v[0] == 26), "{sums:?}");
        assert!(move_sums(&vec![vec![1, 0]; 9]).is_empty());
    }

    #[test]
    fn moduli_are_read_off_a_period_that_changes_across_a_slanted_line() {
        // P: x_2 ≡ 0 mod 3 above the line x_2 = 2x_1, x_2 ≡ 0 mod 8 below it: the lcm 24 along
        // the second axis; along the first only the boundary moves, 1 is best.
        let ell = [1, 1];
        let mut region = WeightRegion::empty(&ell, 200);
        let mut members = Vec::new();
        region.for_each(|x| {
            let p = if x[1] > 2 * x[0] {
                x[1] % 3 == 0
            } else {
                x[1] % 8 == 0
            };
            if p {
                members.push(x.to_vec());
            }
        });
        for x in &members {
            region.insert(x);
        }
        let moduli = suggested_moduli(&region).unwrap();
        assert_eq!(moduli.residue((moduli.count() - 1) as u32), [0, 23]);
    }

    #[test]
    fn a_lattice_that_is_not_a_box_numbers_its_classes_by_reduced_representatives() {
        // ⟨(4, 1), (0, 9)⟩: 36 classes; (36, 0) and (4, 1) are periods, (4, 0) and (1, 0) not.
        let lattice =
            Lattice::generated_by(2, &[Vector::from_i64s(&[4, 1]), Vector::from_i64s(&[0, 9])]);
        let moduli = Moduli::of_lattice(&lattice).unwrap();
        assert!(!moduli.is_box());
        assert_eq!(moduli.count(), 36);
        assert_eq!(moduli.describe(), "the lattice ⟨(4, 1), (0, 9)⟩");
        let x = [7, -3];
        for (v, same) in [
            ([36, 0], true),
            ([4, 1], true),
            ([4, 0], false),
            ([1, 0], false),
        ] {
            let y = [x[0] + v[0], x[1] + v[1]];
            assert_eq!(moduli.class_of(&x) == moduli.class_of(&y), same, "{v:?}");
        }
        // Classes 1, 6, 11, ... in P: cosets of a lattice containing M, partitioning them.
        let rule = |x: &[i64]| moduli.class_of(x) % 5 == 1;
        let cosets = moduli.cosets_in_p(&pattern_of(&moduli, rule));
        assert_eq!(cosets.len(), moduli.coset_count(&pattern_of(&moduli, rule)));
        partition_exactly(&cosets, &rule, -20..40, -20..40);
        // It contains 36Z^2 and 36Z × 9Z, not 12Z × 36Z ((12, 0) is not in it) nor 2Z^2.
        for (m, inside) in [
            (vec![36, 36], true),
            (vec![36, 9], true),
            (vec![12, 36], false),
            (vec![2, 2], false),
        ] {
            let boxed = Moduli::new(m.clone()).unwrap();
            assert_eq!(moduli.contains_lattice_of(&boxed), inside, "{m:?}");
        }
        // mZ^d given as a lattice is a box.
        let boxed =
            Lattice::generated_by(2, &[Vector::from_i64s(&[3, 0]), Vector::from_i64s(&[0, 5])]);
        assert!(Moduli::of_lattice(&boxed).unwrap().is_box());
    }

    /// Three patterns meeting along the line through (2, 3, 3), as in misère play of
    /// Γ = {e_3, 2e_2, e_1, (1, 1, 2)}: (3x_1 − 2x_2) mod 3 = 0 where x_3 ≥ x_2 + 3 (A),
    /// (3x_1 − 2x_3) mod 4 = 1 beyond 2x_2 ≥ 3x_1 − 2 and 2x_3 ≥ 3x_1 + 4 (B), (x_2 − x_3) mod 4
    /// = 0 elsewhere (W). (2, 0, 0) is a period of A and W and moves every boundary; (2, 3, 3)
    /// keeps them all.
    pub(in crate::game::stratify) fn three_patterns_around_a_line(x: &[i64]) -> bool {
        if 2 * x[1] - 3 * x[0] >= -2 && 2 * x[2] - 3 * x[0] >= 4 {
            (3 * x[0] - 2 * x[2]).rem_euclid(4) == 1
        } else if x[2] - x[1] >= 3 {
            (3 * x[0] - 2 * x[1]).rem_euclid(3) == 0
        } else {
            (x[1] - x[2]).rem_euclid(4) == 0
        }
    }

    #[test]
    fn periods_of_each_pattern_that_move_their_boundaries_are_not_suggested() {
        let (region, _) = WeightRegion::of_rule(&[1, 1, 1], 150, &three_patterns_around_a_line);
        let periods = suggested_periods(&region, &[]).expect("periods");
        let lattice = periods.lattice.expect("a lattice");
        assert_eq!(lattice.class_of(&[2, 3, 3]), 0, "{}", lattice.describe());
        assert_ne!(lattice.class_of(&[2, 0, 0]), 0, "{}", lattice.describe());
        // Every vector of the lattice is a period of each pattern.
        for b in lattice.basis.chunks_exact(3) {
            assert_eq!((b[1] - b[2]).rem_euclid(4), 0, "{b:?}");
            assert_eq!((3 * b[0] - 2 * b[1]).rem_euclid(3), 0, "{b:?}");
            assert_eq!((3 * b[0] - 2 * b[2]).rem_euclid(4), 0, "{b:?}");
        }
        // The boundaries' normals.
        for h in [[0, 1, -1], [3, -2, 0], [3, 0, -2]] {
            assert!(
                periods.normals.contains(&h.to_vec()),
                "{:?}",
                periods.normals
            );
        }
    }

    /// A lattice's basis, row by row.
    type Bases = Vec<[i64; 3]>;

    /// The lattice a basis generates.
    fn lattice_of(basis: &[[i64; 3]]) -> Lattice {
        let rows: Vec<Vector> = basis.iter().map(|v| Vector::from_i64s(v)).collect();
        Lattice::generated_by(3, &rows)
    }

    /// Four patterns around the line along (2, 1, 2) (as in misère play of Γ = {(−1, 2, 0),
    /// (0, −1, 2), 2e_3, e_1, (1, 1, 2), 2e_1}), bounded by planes of the normals (1, 0, −1),
    /// (0, 2, −1), (4, −2, −3) and (1, −2, 0); two of them are wedges holding about a twentieth
    /// of the heavier half each. Each pattern is a set of classes modulo its own lattice, given
    /// by its basis.
    pub(in crate::game::stratify) fn four_patterns_around_a_line(
    ) -> (impl Fn(&[i64]) -> bool, [Bases; 4]) {
        let bases = [
            vec![[1, 0, 1], [0, 1, 0], [0, 0, 3]],
            vec![[1, 2, 0], [0, 3, 2], [0, 0, 4]],
            vec![[1, 2, 0], [0, 3, -2], [0, 0, 8]],
            vec![[0, 1, 0], [2, 0, 2], [0, 0, 4]],
        ];
        let moduli: Vec<Moduli> = bases
            .iter()
            .map(|b| Moduli::of_lattice(&lattice_of(b)).unwrap())
            .collect();
        let rule = move |x: &[i64]| {
            let part = if x[2] < x[0] && x[2] < 2 * x[1] {
                0
            } else if x[2] > 2 * x[1] && 4 * x[0] - 2 * x[1] - 3 * x[2] > 0 {
                1
            } else if x[0] > 2 * x[1] {
                2
            } else {
                3
            };
            // Classes 0, 1 and 3: a set whose only periods are the lattice's.
            matches!(moduli[part].class_of(x), 0 | 1 | 3)
        };
        (rule, bases)
    }

    #[test]
    fn a_pattern_in_a_thin_wedge_shows_its_periods_in_a_window() {
        let (rule, bases) = four_patterns_around_a_line();
        let (region, all) = WeightRegion::of_rule(&[1, 1, 1], 150, &rule);
        let periods = suggested_periods(&region, &[]).expect("periods");
        let lattice = periods.lattice.expect("a lattice");
        // Every vector of the lattice is a period of each pattern (in its own lattice).
        for b in lattice.basis.chunks_exact(3) {
            for basis in &bases {
                let own = lattice_of(basis);
                assert!(
                    own.contains(&Vector::from_i64s(b)),
                    "{b:?} is not a period of the pattern modulo {basis:?}; suggested {}",
                    lattice.describe()
                );
            }
        }
        // The line's direction is in it.
        assert_eq!(lattice.class_of(&[2, 1, 2]), 0, "{}", lattice.describe());
        assert!(all.len() > 500_000);
    }

    #[test]
    fn a_window_inside_one_pattern_shows_its_lattice_and_one_across_a_boundary_its_normal() {
        let (rule, bases) = four_patterns_around_a_line();
        let (region, _) = WeightRegion::of_rule(&[1, 1, 1], 150, &rule);
        let vectors = period_vectors(3);
        let margins = [2, 2, 2];
        // Inside the first pattern (x_3 < x_1, x_3 < 2x_2, far from both).
        let inside = window_periods(&region, &[70, 40, 30], &margins, &vectors).unwrap();
        assert_eq!(inside, lattice_of(&bases[0]));
        // Across its boundary x_3 = x_1 with the fourth (x_1 < 2x_2 there).
        let across = window_periods(&region, &[40, 40, 40], &margins, &vectors).unwrap();
        assert_eq!(across.rank(), 2);
        assert_eq!(normal_of(&across), Some(vec![1, 0, -1]));
    }

    #[test]
    fn the_periods_of_two_patterns_across_a_line_suggest_their_common_lattice() {
        // Below the line x_1 − x_2 = 3: P repeats along (4, 1) and (0, 9); above it along
        // (4, 0) and (6, 6). No axis period below 36 fits both; the lattice of their common
        // periods is ⟨(4, 1), (0, 9)⟩ ∩ ⟨(4, 0), (6, 6)⟩.
        let below =
            Lattice::generated_by(2, &[Vector::from_i64s(&[4, 1]), Vector::from_i64s(&[0, 9])]);
        let above =
            Lattice::generated_by(2, &[Vector::from_i64s(&[4, 0]), Vector::from_i64s(&[6, 6])]);
        let (low, high) = (
            Moduli::of_lattice(&below).unwrap(),
            Moduli::of_lattice(&above).unwrap(),
        );
        // A pattern of each with no period but its lattice's: two classes in P.
        let rule = |x: &[i64]| {
            if x[0] - x[1] < 3 {
                low.class_of(x) <= 1
            } else {
                [0, 5].contains(&high.class_of(x))
            }
        };
        let (region, _) = WeightRegion::of_rule(&[1, 1], 240, &rule);
        let periods = suggested_periods(&region, &[]).expect("periods");
        // The boundary is the line x_1 − x_2 = 3, along the periods (12, 12) both sides share.
        assert_eq!(periods.normals, vec![vec![1, -1]]);
        let suggested = periods.lattice.expect("a lattice");
        let zero = Vector::zero(2);
        let common = Coset::new(zero.clone(), &below)
            .intersect(&Coset::new(zero, &above))
            .unwrap()
            .lattice();
        assert_eq!(suggested, Moduli::of_lattice(&common).unwrap());
        // And the rule is a function of the class and the side of the line.
        let mut seen = std::collections::HashMap::new();
        region.for_each(|x| {
            let key = (suggested.class_of(x), x[0] - x[1] < 3);
            assert_eq!(*seen.entry(key).or_insert(rule(x)), rule(x), "{x:?}");
        });
    }

    proptest! {
        /// Modulo any lattice of full rank, two points have the same class exactly when their
        /// difference lies in it, each class's residue is a representative, and there are
        /// |Z^d / M| classes.
        #[test]
        fn classes_modulo_a_lattice_are_its_cosets(
            rows in proptest::collection::vec(proptest::collection::vec(-6i64..7, 3), 3),
            points in proptest::collection::vec(proptest::collection::vec(-30i64..30, 3), 12),
        ) {
            let generators: Vec<Vector> = rows.iter().map(|r| Vector::from_i64s(r)).collect();
            let lattice = Lattice::generated_by(3, &generators);
            let Some(moduli) = Moduli::of_lattice(&lattice) else {
                // Rank below 3, or more classes than allowed.
                prop_assume!(false);
                unreachable!()
            };
            prop_assert_eq!(
                Integer::from(moduli.count() as i64),
                lattice.index().unwrap()
            );
            for x in &points {
                let r = moduli.residue(moduli.class_of(x));
                let difference: Vec<i64> = x.iter().zip(r).map(|(a, b)| a - b).collect();
                prop_assert!(lattice.contains(&Vector::from_i64s(&difference)));
                for y in &points {
                    let difference: Vec<i64> = x.iter().zip(y).map(|(a, b)| a - b).collect();
                    prop_assert_eq!(
                        moduli.class_of(x) == moduli.class_of(y),
                        lattice.contains(&Vector::from_i64s(&difference))
                    );
                }
            }
        }
    }

    proptest! {
        /// Any set of classes, written as cosets of its stabilizer's lattice: each point of a box
        /// lies in exactly one coset when its class is in the set and in none otherwise, and
        /// `coset_count` counts them.
        #[test]
        fn cosets_partition_exactly_the_classes_in_p(
            m in proptest::collection::vec(1i64..7, 2),
            bits in proptest::collection::vec(any::<bool>(), 36),
            symmetric in any::<bool>(),
        ) {
            let moduli = Moduli::new(m.clone()).unwrap();
            // Half the cases a function of x_1 + x_2 mod gcd(m), so that stabilizers are not
            // always trivial.
            let gcd = (1..=m[0].min(m[1])).rev().find(|k| m[0] % k == 0 && m[1] % k == 0).unwrap();
            let rule = |x: &[i64]| {
                let r = moduli.class_of(x) as usize;
                if symmetric {
                    bits[(x[0] + x[1]).rem_euclid(gcd) as usize]
                } else {
                    bits[r % bits.len()]
                }
            };
            let pattern = pattern_of(&moduli, rule);
            let cosets = moduli.cosets_in_p(&pattern);
            prop_assert_eq!(cosets.len(), moduli.coset_count(&pattern));
            for x0 in -8..14 {
                for x1 in -8..14 {
                    let x = [x0, x1];
                    let inside = cosets
                        .iter()
                        .filter(|c| c.contains(&Vector::from_i64s(&x)))
                        .count();
                    prop_assert_eq!(inside, usize::from(rule(&x)), "{:?}", x);
                }
            }
        }
    }
}
