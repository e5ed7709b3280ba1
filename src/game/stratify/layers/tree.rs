//! A guess of `stratify` by a tree of cuts: N^d is cut along a hyperplane h·x = t, each side
//! again, until every cell shows one periodic pattern (x modulo the lattice of periods, see
//! [`super::super::classes`]). Each cut is chosen greedily, as classification trees are grown
//! (Breiman, Friedman, Olshen and Stone): among the candidate normals and levels, the one leaving
//! fewest sampled positions at odds with the outcome most of their class shows on their side.
//!
//! Where four patterns meet in sectors around a line, with boundaries on four different planes
//! through it (misère play of Γ = {(−1, 2, 0), (0, −1, 2), 2e_3, e_1, (1, 1, 2), 2e_1} around
//! the line along (2, 1, 2)), no layers of one normal fit, and no fan's cut leaves a side that
//! layers fit: a tree does, with the bands along the faces of N^d as cells of their own. Each
//! cell is the lattice points of a rational polyhedron; with its classes in P, a union of
//! basic sets, as the layered guess's pieces are ([GM11] Theorem 4.2's argument).
//!
//! The tree is grown on a sample of the region's heavier half; the cells' patterns are then read
//! from every position of that half (or from four million of them, at random), and where a cell
//! shows a class both ways those positions, and the one that showed it the other way first, join
//! the sample and the tree is grown again (the same tree again ends the search: it would miss the
//! same positions). The lighter half's misses are exceptions.
//!
//! A row of the lattice of periods that every sampled position keeps (P(x + v) = P(x) wherever
//! both lie in the region) holds across the cells too, so the cuts run along it: their normals
//! are those orthogonal to it. Misère play of Γ = {(−1, 2, 0, 0), (−1, 2, 2, 1), 2e_4, e_3, 2e_1}
//! (item 99 of a random-rules sweep, seed 31337) keeps (2, 4, 3, 3) and (0, 8, 6, 6) on the region
//! of weight 57: with cuts along them a tree is certified there, with all normals none was in 60 s.
//!
//! Each cell may take its own lattice among several (the lattices the parts of the region show,
//! [`super::super::classes::Periods::parts`]): a cell is then pure when one of them leaves no
//! sampled position at odds, and a cut is scored by the fewest each side leaves under any of
//! them. Where the patterns' lattices meet in one with more classes than any pattern's sample
//! shows, as in misère play of Γ = {2e_4, e_3, 2e_2, e_1, (2, 2, 2, 1)} (nested L-shaped bands
//! in each plane (x_1, x_3), more of them as x_2 and x_4 grow), each cell's own is read.
//!
//! In d = 4 the candidates include the normals on two coordinates with entries up to 4: a
//! staircase whose steps move along a sum of moves, such as (3, 0, 4, 4) in misère play of
//! Γ = {2e_4, 2e_3, 2e_2, e_1, (2, 0, 2, 2)}, has its sides on 4x_1 − 3x_3 = c and
//! 4x_1 − 3x_4 = c.

use std::time::Instant;

use rustc_hash::FxHashMap;

use super::domain::gcd;
use super::{level, state, Domain, Layered, Moduli, Pattern, Rule, UNSEEN};
use super::{lighter_misses, MAX_PIECES};
use crate::game::stratify::region::WeightRegion;
use crate::random::SplitMix64;

/// The most sampled positions a tree is grown on (and the most misses added per regrowth).
const TREE_SAMPLE: usize = 60_000;

/// The deepest a cell may lie (cuts on the way to it).
const MAX_DEPTH: usize = 12;

/// The most positions of the region whose cells' patterns are read: past it, one in k chosen at
/// random on a walk of the region, and past sixteen times it as many drawn at random (a region of
/// weight 216 in d = 4 holds 95 million, a 2 s walk; draws cost the same however large the
/// region).
const WALK_CAP: u64 = 4_000_000;

/// The most cells a tree may have.
const MAX_CELLS: usize = 64;

/// The most positions of a cell its cut's normal is chosen on (the level is then chosen on all).
const CHOICE: usize = 6_000;

/// The most positions of a cell all candidate normals are ranked on ...
const QUICK: usize = 1_500;

/// ... and how many of the best are then tried on more (at most [`CHOICE`]).
const SHORTLIST: usize = 12;

/// How often the tree is grown again with the positions its cells got wrong.
const REGROWTHS: usize = 4;

/// The largest entry of a generic candidate normal, by dimension (the region's suggested normals
/// are tried as they are).
fn largest_entry(d: usize) -> i64 {
    if d <= 3 {
        4
    } else {
        2
    }
}

/// A tree: a cell (its pattern read afterwards, modulo the moduli numbered), or a cut h·x ≤ at
/// (h an index into the normals).
#[derive(PartialEq, Eq)]
enum Node {
    Cell(usize),
    Cut {
        normal: usize,
        at: i64,
        below: Box<Node>,
        above: Box<Node>,
    },
}

impl Node {
    /// The index of the cell holding x (cells numbered depth first, below before above).
    fn cell_of(&self, normals: &[Vec<i64>], x: &[i64]) -> usize {
        let mut node = self;
        let mut skipped = 0;
        loop {
            match node {
                Node::Cell(_) => return skipped,
                Node::Cut {
                    normal,
                    at,
                    below,
                    above,
                } => {
                    if level(&normals[*normal], x) <= *at {
                        node = below;
                    } else {
                        skipped += below.cells();
                        node = above;
                    }
                }
            }
        }
    }

    fn cells(&self) -> usize {
        match self {
            Node::Cell(_) => 1,
            Node::Cut { below, above, .. } => below.cells() + above.cells(),
        }
    }

    /// The moduli each cell's pattern is read modulo (their numbers), in the cells' order.
    fn cell_moduli(&self, out: &mut Vec<usize>) {
        match self {
            Node::Cell(k) => out.push(*k),
            Node::Cut { below, above, .. } => {
                below.cell_moduli(out);
                above.cell_moduli(out);
            }
        }
    }

    /// The tree with the cells' patterns replaced, in order.
    fn into_rule(
        self,
        normals: &[Vec<i64>],
        moduli: &[Moduli],
        patterns: &mut std::vec::IntoIter<Pattern>,
    ) -> Rule {
        match self {
            Node::Cell(k) => Rule::Pattern(moduli[k].clone(), patterns.next().unwrap_or_default()),
            Node::Cut {
                normal,
                at,
                below,
                above,
            } => Rule::Cut {
                normal: normals[normal].clone(),
                at,
                below: Box::new(below.into_rule(normals, moduli, patterns)),
                above: Box::new(above.into_rule(normals, moduli, patterns)),
            },
        }
    }

    /// The cuts, depth first, as "h·x ≤ t".
    fn describe_cuts(&self, normals: &[Vec<i64>], out: &mut Vec<String>) {
        if let Node::Cut {
            normal,
            at,
            below,
            above,
        } = self
        {
            out.push(format!("{} ≤ {at}", super::hyperplane(&normals[*normal])));
            below.describe_cuts(normals, out);
            above.describe_cuts(normals, out);
        }
    }
}

/// The positions a tree is grown on: flat, d per position, with outcomes and their classes
/// modulo each of the moduli the cells may take (moduli by moduli).
struct Sample {
    d: usize,
    points: Vec<i64>,
    classes: Vec<Vec<u32>>,
    outcomes: Vec<bool>,
}

impl Sample {
    fn push(&mut self, moduli: &[Moduli], x: &[i64], p: bool) {
        self.points.extend_from_slice(x);
        for (classes, m) in self.classes.iter_mut().zip(moduli) {
            classes.push(m.class_of(x));
        }
        self.outcomes.push(p);
    }

    fn point(&self, i: u32) -> &[i64] {
        let i = i as usize;
        &self.points[i * self.d..(i + 1) * self.d]
    }
}

/// Counts of a class's positions out of P and in P.
type Tally = [u32; 2];

/// The positions of a class at odds with its majority.
fn at_odds(t: &Tally) -> u64 {
    u64::from(t[0].min(t[1]))
}

/// Grows trees on a sample.
struct Grower<'a> {
    sample: &'a Sample,
    /// How many classes each of the moduli has.
    classes: Vec<usize>,
    normals: &'a [Vec<i64>],
    cells: usize,
    until: Instant,
    /// Buffers reused across cells: each position's level, the positions by level, and the
    /// tallies of the side below (modulo each of the moduli).
    levels: Vec<i64>,
    order: Vec<u32>,
    starts: Vec<u32>,
    below: Vec<Vec<Tally>>,
}

/// Each class's counts, modulo each of the moduli.
type Tallies = Vec<Vec<Tally>>;

/// The positions at odds modulo the moduli that leave fewest, with the first such moduli.
fn fewest_at_odds(tallies: &Tallies) -> (u64, usize) {
    tallies
        .iter()
        .enumerate()
        .map(|(k, t)| (t.iter().map(at_odds).sum::<u64>(), k))
        .min()
        .unwrap_or((0, 0))
}

impl Grower<'_> {
    /// A tree whose cells each show one pattern on the positions `at`, or None past the depth,
    /// the cells or the time allowed, or where no cut lowers the positions at odds.
    fn grow(&mut self, at: Vec<u32>, depth: usize) -> Option<Node> {
        let tally = self.tally(&at);
        let (odd, fewest) = fewest_at_odds(&tally);
        if odd == 0 {
            self.cells += 1;
            return (self.cells <= MAX_CELLS).then_some(Node::Cell(fewest));
        }
        if depth >= MAX_DEPTH
            || self.cells >= MAX_CELLS
            || crate::interrupt::requested()
            || Instant::now() >= self.until
        {
            return None;
        }
        // Only the positions of classes seen both ways bear on a cut (a class seen one way is so
        // on either side of it): the normal chosen on at most CHOICE of them (every k-th), its
        // level on all of them. Chosen on every k-th position of the cell instead, a few
        // hundred positions at odds among fifty thousand may all be missed, and no cut found.
        let every: Vec<usize> = (0..self.normals.len()).collect();
        let mixed: Vec<u32> = at
            .iter()
            .copied()
            .filter(|&i| {
                tally
                    .iter()
                    .zip(&self.sample.classes)
                    .any(|(t, classes)| at_odds(&t[classes[i as usize] as usize]) > 0)
            })
            .collect();
        // Past QUICK positions, the normals are first ranked on QUICK of them, and only the
        // SHORTLIST best are tried on more: ranking them all on CHOICE positions took a fifth
        // of a 4-D game's time.
        let among = if mixed.len() > QUICK {
            let quick = every_kth(&mixed, QUICK);
            let quick_tally = self.tally(&quick);
            let (quick_odd, _) = fewest_at_odds(&quick_tally);
            let mut ranked = self.cuts_by_normal(&quick, &quick_tally, &every);
            ranked.retain(|&(left, _, _)| left < quick_odd);
            ranked.sort_by_key(|&(left, k, _)| (left, k));
            let short: Vec<usize> = ranked.iter().take(SHORTLIST).map(|&(_, k, _)| k).collect();
            if short.is_empty() {
                every
            } else {
                short
            }
        } else {
            every
        };
        let (normal, cut) = if mixed.len() > CHOICE {
            let few = every_kth(&mixed, CHOICE);
            let few_tally = self.tally(&few);
            let (few_odd, _) = fewest_at_odds(&few_tally);
            let (normal, _) = self.best_cut(&few, &few_tally, few_odd, &among)?;
            self.best_cut(&mixed, &tally, odd, &[normal])?
        } else {
            self.best_cut(&mixed, &tally, odd, &among)?
        };
        let h = &self.normals[normal];
        let (below, above): (Vec<u32>, Vec<u32>) = at
            .into_iter()
            .partition(|&i| level(h, self.sample.point(i)) <= cut);
        let below = self.grow(below, depth + 1)?;
        let above = self.grow(above, depth + 1)?;
        Some(Node::Cut {
            normal,
            at: cut,
            below: Box::new(below),
            above: Box::new(above),
        })
    }

    /// Each class's positions among `at`, out of P and in P, modulo each of the moduli.
    fn tally(&self, at: &[u32]) -> Tallies {
        self.classes
            .iter()
            .zip(&self.sample.classes)
            .map(|(&count, classes)| {
                let mut tally = vec![[0u32; 2]; count];
                for &i in at {
                    let i = i as usize;
                    tally[classes[i] as usize][usize::from(self.sample.outcomes[i])] += 1;
                }
                tally
            })
            .collect()
    }

    /// The cut h·x ≤ t, h among the normals numbered `among`, leaving fewest positions at odds
    /// with their class's majority on their side (each side modulo the moduli that leave it
    /// fewest; the first normal and the lowest level among equals), when it leaves fewer than
    /// `odd`.
    fn best_cut(
        &mut self,
        at: &[u32],
        tally: &Tallies,
        odd: u64,
        among: &[usize],
    ) -> Option<(usize, i64)> {
        let mut best: Option<(u64, usize, i64)> = None;
        for (left, k, t) in self.cuts_by_normal(at, tally, among) {
            if best.is_none_or(|(b, _, _)| left < b) {
                best = Some((left, k, t));
            }
        }
        best.filter(|&(left, _, _)| left < odd)
            .map(|(_, k, t)| (k, t))
    }

    /// For each normal numbered in `among` (in that order) that cuts the positions `at` at all:
    /// the fewest positions at odds a cut h·x ≤ t leaves, with h and the lowest such t.
    fn cuts_by_normal(
        &mut self,
        at: &[u32],
        tally: &Tallies,
        among: &[usize],
    ) -> Vec<(u64, usize, i64)> {
        let odd: Vec<u64> = tally.iter().map(|t| t.iter().map(at_odds).sum()).collect();
        let mut out = Vec::with_capacity(among.len());
        self.levels.resize(at.len(), 0);
        self.order.resize(at.len(), 0);
        for &k in among {
            let h = &self.normals[k];
            let (mut lo, mut hi) = (i64::MAX, i64::MIN);
            for (slot, &i) in self.levels.iter_mut().zip(at) {
                let v = level(h, self.sample.point(i));
                *slot = v;
                lo = lo.min(v);
                hi = hi.max(v);
            }
            if lo >= hi {
                continue;
            }
            // The positions sorted by level (counting: the levels span at most |h|_1 times the
            // region's bound).
            let span = (hi - lo + 1) as usize;
            self.starts.clear();
            self.starts.resize(span + 1, 0);
            for &v in &self.levels {
                self.starts[(v - lo) as usize + 1] += 1;
            }
            for j in 1..=span {
                self.starts[j] += self.starts[j - 1];
            }
            for (&v, &i) in self.levels.iter().zip(at) {
                let slot = &mut self.starts[(v - lo) as usize];
                self.order[*slot as usize] = i;
                *slot += 1;
            }
            // starts[j] is now the end of level lo + j.
            let mut best: Option<(u64, usize, i64)> = None;
            self.below.resize(self.classes.len(), Vec::new());
            for (below, &count) in self.below.iter_mut().zip(&self.classes) {
                below.clear();
                below.resize(count, [0, 0]);
            }
            // The positions at odds below and above the cut, modulo each of the moduli: a
            // position moving below can only add to those below and take from those above.
            let mut left_below = vec![0u64; odd.len()];
            let mut left_above = odd.clone();
            let mut from = 0usize;
            for j in 0..span - 1 {
                let end = self.starts[j] as usize;
                for &i in &self.order[from..end] {
                    let o = usize::from(self.sample.outcomes[i as usize]);
                    for (m, classes) in self.sample.classes.iter().enumerate() {
                        let c = classes[i as usize] as usize;
                        let b = &mut self.below[m][c];
                        let total = &tally[m][c];
                        let above = |b: &Tally| [total[0] - b[0], total[1] - b[1]];
                        let (was_below, was_above) = (at_odds(b), at_odds(&above(b)));
                        b[o] += 1;
                        left_below[m] += at_odds(b) - was_below;
                        left_above[m] -= was_above - at_odds(&above(b));
                    }
                }
                from = end;
                let left = left_below.iter().min().copied().unwrap_or(0)
                    + left_above.iter().min().copied().unwrap_or(0);
                if end > 0 && end < at.len() && best.is_none_or(|(b, _, _)| left < b) {
                    best = Some((left, k, lo + j as i64));
                }
            }
            out.extend(best);
        }
        out
    }
}

/// At most `most` of the positions, every k-th.
fn every_kth(positions: &[u32], most: usize) -> Vec<u32> {
    positions
        .iter()
        .copied()
        .step_by(positions.len().div_ceil(most.max(1)).max(1))
        .collect()
}

/// The candidate normals of a tree's cuts: the primitive ones among the domain's with entries
/// at most [`largest_entry`], in d = 4 those on two coordinates with entries up to 4 too
/// ([`two_coordinate_normals`]), then the region's suggested normals not among them.
fn candidates(domain: &Domain, suggested: &[Vec<i64>]) -> Vec<Vec<i64>> {
    let d = domain.lower.len();
    let m = largest_entry(d);
    let primitive = |h: &Vec<i64>| h.iter().fold(0i64, |g, &a| gcd(g, a.abs())) == 1;
    let mut out: Vec<Vec<i64>> = domain
        .normals(false)
        .into_iter()
        .filter(|h| h.iter().all(|a| a.abs() <= m) && primitive(h))
        .collect();
    if d == 4 {
        out.extend(two_coordinate_normals(d, m, TWO_COORDINATE_ENTRY));
    }
    for h in domain.suggested(suggested) {
        if !out.contains(&h) {
            out.push(h);
        }
    }
    out
}

/// The largest entry of the normals on two coordinates a tree tries in d = 4.
const TWO_COORDINATE_ENTRY: i64 = 4;

/// The primitive normals a e_i + b e_j (i < j, a > 0, b ≠ 0) with entries at most `reach` and
/// one past `within` (those within it are among the candidates already). A staircase whose
/// steps move along (3, 0, 4, 4) has its sides on 4x_1 − 3x_3 = c and 4x_1 − 3x_4 = c (misère
/// play of Γ = {2e_4, 2e_3, 2e_2, e_1, (2, 0, 2, 2)}); all normals with entries up to 4 in d = 4
/// would be ten times as many as those up to 2, these a third more.
fn two_coordinate_normals(d: usize, within: i64, reach: i64) -> Vec<Vec<i64>> {
    let mut out = Vec::new();
    for i in 0..d {
        for j in i + 1..d {
            for a in 1..=reach {
                for b in (-reach..=reach).filter(|&b| b != 0) {
                    if gcd(a, b.abs()) != 1 || (a <= within && b.abs() <= within) {
                        continue;
                    }
                    let mut h = vec![0; d];
                    h[i] = a;
                    h[j] = b;
                    out.push(h);
                }
            }
        }
    }
    out
}

/// The rows of the moduli's basis that are periods of every sampled position: P(x + v) = P(x)
/// whenever x + v lies in the region, on at least [`EXACT_EVIDENCE`] pairs. A cut across such a
/// period would separate positions the period says are alike, so the tree's cuts run along it.
fn exact_periods(
    region: &WeightRegion,
    moduli: &Moduli,
    points: &[i64],
    outcomes: &[bool],
) -> Vec<Vec<i64>> {
    let d = region.dim();
    let mut y = vec![0; d];
    moduli
        .basis_rows()
        .iter()
        .filter_map(|v| v.to_i64s())
        .filter(|v| {
            let mut pairs = 0;
            for (x, &p) in points.chunks_exact(d).zip(outcomes) {
                for ((yi, xi), vi) in y.iter_mut().zip(x).zip(v.iter()) {
                    *yi = xi + vi;
                }
                match region.is_p(&y) {
                    Some(q) if q != p => return false,
                    Some(_) => pairs += 1,
                    None => {}
                }
            }
            pairs >= EXACT_EVIDENCE
        })
        .collect()
}

/// The fewest pairs of sampled positions a period is checked on before the cuts must run along it.
const EXACT_EVIDENCE: usize = 1_000;

/// A tree of cuts whose cells each follow one pattern on the region's heavier half (see the
/// module documentation), each modulo one of the `moduli` (the first of those that leave fewest
/// sampled positions at odds), with the lighter half's misses as exceptions; None when no tree
/// within the limits fits, or when interrupted or past `until`.
pub(in crate::game::stratify) fn tree_guess(
    region: &WeightRegion,
    moduli: &[Moduli],
    suggested: &[Vec<i64>],
    until: Instant,
) -> Option<Layered> {
    let first_moduli = moduli.first()?;
    let d = region.dim();
    let domain = Domain::orthant(d);
    let half = domain.half(region)?;
    let mut normals = candidates(&domain, suggested);
    let (points, outcomes, _) = domain.sample(region, half, TREE_SAMPLE);
    // Cuts along the periods every sampled position keeps (when some candidate runs along them).
    let mut exact: Vec<Vec<i64>> = Vec::new();
    for m in moduli {
        for v in exact_periods(region, m, &points, &outcomes) {
            if !exact.contains(&v) {
                exact.push(v);
            }
        }
    }
    let along = |h: &Vec<i64>| exact.iter().all(|v| level(h, v) == 0);
    if normals.iter().any(along) {
        normals.retain(along);
    }
    let classes = moduli
        .iter()
        .map(|m| points.chunks_exact(d).map(|x| m.class_of(x)).collect())
        .collect();
    let mut sample = Sample {
        d,
        points,
        classes,
        outcomes,
    };
    let mut previous: Option<Node> = None;
    for _ in 0..=REGROWTHS {
        let mut grower = Grower {
            sample: &sample,
            classes: moduli.iter().map(Moduli::count).collect(),
            normals: &normals,
            cells: 0,
            until,
            levels: Vec::new(),
            order: Vec::new(),
            starts: Vec::new(),
            below: Vec::new(),
        };
        let all: Vec<u32> = (0..sample.outcomes.len() as u32).collect();
        let tree = grower.grow(all, 0)?;
        // The sample only grows, so the same tree again would miss the same positions again.
        if previous.as_ref() == Some(&tree) {
            return None;
        }
        // Each cell's pattern from the positions of the heavier half (all of them, or one in
        // k where they are more than [`WALK_CAP`]); the positions where a cell shows a class
        // both ways (or that the sample had not seen) are what the next tree is grown with too.
        let cells = tree.cells();
        let mut cell_moduli = Vec::with_capacity(cells);
        tree.cell_moduli(&mut cell_moduli);
        let mut patterns: Vec<Pattern> = cell_moduli
            .iter()
            .map(|&k| vec![UNSEEN; moduli[k].count()])
            .collect();
        let mut misses: Vec<(Vec<i64>, bool)> = Vec::new();
        // The position each cell first showed each class by, until the class shows the other
        // outcome there.
        let mut first: FxHashMap<(usize, usize), Vec<i64>> = FxHashMap::default();
        // Tens of millions of positions in d = 4: the time and a stop are read at every 2^16th.
        let (mut walked, mut late) = (0u32, false);
        let mut visit = |x: &[i64], p: bool| {
            walked = walked.wrapping_add(1);
            if walked.trailing_zeros() >= 16 {
                late = late || Instant::now() >= until || crate::interrupt::requested();
            }
            if late || region.weight(x) <= half {
                return !late;
            }
            let cell = tree.cell_of(&normals, x);
            let class = moduli[cell_moduli[cell]].class_of(x) as usize;
            let seen = &mut patterns[cell][class];
            if *seen == UNSEEN {
                *seen = state(p);
                first.insert((cell, class), x.to_vec());
            } else if *seen != state(p) && misses.len() < TREE_SAMPLE {
                misses.push((x.to_vec(), p));
                // The position that showed the class the other way, once: with this one alone,
                // the sample may hold no position of that other way, and the tree grown again be
                // the same.
                if let Some(y) = first.remove(&(cell, class)) {
                    misses.push((y, !p));
                }
            }
            true
        };
        // A draw costs about fifteen steps of a walk (d binary searches): past sixteen times
        // the cap, drawing is the cheaper.
        let one_in = region.len().div_ceil(WALK_CAP).max(1);
        if one_in > 16 {
            region.for_each_drawn(WALK_CAP, &mut SplitMix64(0x7ee5), &mut visit);
        } else {
            let mut random = SplitMix64(0x7ee5);
            domain.for_each(region, &mut |x, p| {
                if one_in == 1 || random.below(one_in) == 0 {
                    visit(x, p);
                }
            });
        }
        if late || crate::interrupt::requested() {
            return None;
        }
        if !misses.is_empty() {
            for (x, p) in &misses {
                sample.push(moduli, x, *p);
            }
            previous = Some(tree);
            continue;
        }
        let pieces: usize = patterns
            .iter()
            .zip(&cell_moduli)
            .map(|(p, &k)| moduli[k].coset_count(p))
            .sum();
        if pieces > MAX_PIECES {
            return None;
        }
        let mut cuts = Vec::new();
        tree.describe_cuts(&normals, &mut cuts);
        let first = match &tree {
            Node::Cut { normal, .. } => normals[*normal].clone(),
            Node::Cell(_) => return None,
        };
        let rule = tree.into_rule(&normals, moduli, &mut patterns.into_iter());
        // The lighter half's misses, as exceptions.
        let (extra, missing) =
            lighter_misses(&domain, region, half, &|x| rule.contains(first_moduli, x))?;
        return Some(Layered {
            moduli: first_moduli.clone(),
            normal: first,
            lo: 0,
            hi: 0,
            cuts,
            cells: Some(cells),
            cell_lattices: moduli.len(),
            rule,
            pieces: pieces + extra.len(),
            extra: extra.into_iter().collect(),
            missing: missing.into_iter().collect(),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::stratify::classes::tests::four_patterns_around_a_line;
    use crate::game::stratify::layers::moduli_to_try;
    use crate::game::stratify::layers::tests::agrees_far_beyond;
    use std::time::Duration;

    #[test]
    fn only_the_periods_every_position_keeps_are_exact() {
        // P = {x : x_1 even} where x_2 ≤ x_3, {x : x_1 odd} past it: (2, 0, 0) is a period
        // everywhere; (0, 2, 0) and (0, 0, 2) cross the plane x_2 = x_3 and change the pattern.
        let rule = |x: &[i64]| (x[0] % 2 == 0) == (x[1] <= x[2]);
        let (region, _) = WeightRegion::of_rule(&[1, 1, 1], 60, &rule);
        let domain = Domain::orthant(3);
        let half = domain.half(&region).expect("a heavier half");
        let (points, outcomes, _) = domain.sample(&region, half, TREE_SAMPLE);
        let moduli = Moduli::new(vec![2, 2, 2]).expect("moduli");
        assert_eq!(
            exact_periods(&region, &moduli, &points, &outcomes),
            vec![vec![2, 0, 0]]
        );
        // With one position of the heavier half changed, no period is exact.
        let changed = |x: &[i64]| rule(x) != (x == [40, 5, 10]);
        let (changed, _) = WeightRegion::of_rule(&[1, 1, 1], 60, &changed);
        let (points, outcomes, _) = domain.sample(&changed, half, TREE_SAMPLE);
        assert!(exact_periods(&changed, &moduli, &points, &outcomes).is_empty());
    }

    #[test]
    fn normals_on_two_coordinates_reach_past_the_candidates() {
        let normals = two_coordinate_normals(4, 2, 4);
        // On each of the 6 pairs: the 22 primitive (a, b), a in 1..=4, b in ±1..=4, less the
        // 6 within 2.
        assert_eq!(normals.len(), 6 * 16);
        for h in &normals {
            assert_eq!(h.iter().filter(|&&a| a != 0).count(), 2, "{h:?}");
            assert!(h.iter().any(|a| a.abs() > 2), "{h:?}");
            assert_eq!(h.iter().fold(0, |g, &a| gcd(g, a.abs())), 1, "{h:?}");
            assert!(h.iter().find(|&&a| a != 0).is_some_and(|&a| a > 0), "{h:?}");
        }
        assert!(normals.contains(&vec![4, 0, -3, 0]) && normals.contains(&vec![0, 3, 0, 4]));
        let candidates = candidates(&Domain::orthant(4), &[]);
        for h in &normals {
            assert_eq!(candidates.iter().filter(|&c| c == h).count(), 1, "{h:?}");
        }
    }

    fn moduli_of(basis: &[[i64; 3]]) -> Moduli {
        let rows: Vec<crate::algebra::Vector> = basis
            .iter()
            .map(|v| crate::algebra::Vector::from_i64s(v))
            .collect();
        Moduli::of_lattice(&crate::algebra::lattice::Lattice::generated_by(3, &rows))
            .expect("moduli")
    }

    #[test]
    fn each_cell_takes_the_lattice_its_own_pattern_repeats_along() {
        // P = {x : x_1 + 2x_3 ≡ 0 mod 5} where x_1 ≤ x_2, {x : x_2 ≡ 0 mod 7} past it. Neither
        // side's lattice of periods holds the other side's pattern.
        let rule = |x: &[i64]| {
            if x[0] <= x[1] {
                (x[0] + 2 * x[2]) % 5 == 0
            } else {
                x[1] % 7 == 0
            }
        };
        let (region, all) = WeightRegion::of_rule(&[1, 1, 1], 120, &rule);
        let fives = moduli_of(&[[5, 0, 0], [0, 1, 0], [3, 0, 1]]);
        let sevens = moduli_of(&[[1, 0, 0], [0, 7, 0], [0, 0, 1]]);
        assert_eq!((fives.count(), sevens.count()), (5, 7));
        let until = || Instant::now() + Duration::from_secs(60);
        let both = [fives.clone(), sevens.clone()];
        let found = tree_guess(&region, &both, &[], until()).expect("a tree");
        assert_eq!(found.cell_lattices, 2);
        let mut taken = Vec::new();
        collect_cell_moduli(&found.rule, &mut taken);
        assert!(
            taken.contains(&&fives) && taken.contains(&&sevens),
            "{taken:?}"
        );
        let far = [
            [300, 450, 452],
            [600, 300, 100],
            [5, 700, 300],
            [700, 5, 300],
            [1000, 999, 3],
        ];
        agrees_far_beyond(&found, &rule, &all, &far);
        assert_outside_is_the_complement(&found);
        // Modulo either lattice alone, the other side's pattern takes a cell per class.
        for one in both {
            assert!(tree_guess(&region, &[one], &[], until()).is_none());
        }
    }

    /// N^3 less the guess's set, built from its cells, is the complement the set algebra takes.
    fn assert_outside_is_the_complement(found: &Layered) {
        use crate::algebra::{Integer, StratifiedSet, Vector};
        let set = found.set().expect("a set");
        let outside = found.outside().expect("a tree").expect("built");
        let orthant =
            StratifiedSet::from_basic(crate::algebra::basic_set::BasicSet::from_inequalities(
                3,
                (0..3)
                    .map(|i| {
                        let mut e = [0i64; 3];
                        e[i] = 1;
                        (Vector::from_i64s(&e), Integer::ZERO)
                    })
                    .collect(),
            ))
            .expect("N^3");
        let complement = orthant.difference(&set).expect("a complement");
        assert!(outside.set_eq(&complement).expect("compared"));
    }

    #[test]
    fn a_trees_complement_holds_its_other_classes_and_its_exceptions() {
        // The four patterns around a line, with two positions of the lighter half flipped (each
        // an extra P-position or a missing one).
        let (rule, _) = four_patterns_around_a_line();
        let flipped = [[3, 4, 5], [10, 2, 7]];
        let changed = |x: &[i64]| rule(x) != flipped.iter().any(|f| x == f);
        let (found, _) = tree_modulo_the_suggested_lattice(&changed);
        for f in flipped {
            let f = f.to_vec();
            assert!(
                found.extra.contains(&f) || found.missing.contains(&f),
                "{f:?}"
            );
        }
        assert_outside_is_the_complement(&found);
    }

    /// The tree modulo the lattice and with the normals the region of weight ≤ 150 of `rule`
    /// suggests, and the region's points.
    fn tree_modulo_the_suggested_lattice(
        rule: &dyn Fn(&[i64]) -> bool,
    ) -> (Layered, Vec<Vec<i64>>) {
        let (region, all) = WeightRegion::of_rule(&[1, 1, 1], 150, rule);
        let tried = moduli_to_try(&region, &[]);
        let lattice = tried.lattice.expect("a lattice");
        let found = tree_guess(
            &region,
            std::slice::from_ref(&lattice),
            &tried.normals,
            Instant::now() + Duration::from_secs(60),
        )
        .expect("a tree");
        (found, all)
    }

    /// The moduli of the rule's cells, depth first.
    fn collect_cell_moduli<'a>(rule: &'a Rule, out: &mut Vec<&'a Moduli>) {
        match rule {
            Rule::Pattern(moduli, _) => out.push(moduli),
            Rule::Cut { below, above, .. } => {
                collect_cell_moduli(below, out);
                collect_cell_moduli(above, out);
            }
            _ => {}
        }
    }

    #[test]
    fn four_patterns_in_sectors_around_a_line_are_cells_of_a_tree() {
        // Boundaries on four different planes through the line: no plane through it separates
        // two patterns from the other two, and no layered guess fits.
        let (rule, _) = four_patterns_around_a_line();
        let (found, all) = tree_modulo_the_suggested_lattice(&rule);
        let cells = found.cells.expect("a tree's cells");
        assert!(cells <= 16, "{cells} cells: {:?}", found.cuts);
        let far = [
            [300, 450, 452],
            [300, 149, 600],
            [600, 300, 100],
            [5, 700, 300],
            [700, 5, 300],
        ];
        agrees_far_beyond(&found, &rule, &all, &far);
    }
}
