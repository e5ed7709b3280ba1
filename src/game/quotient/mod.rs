//! Misère quotients of heap games (Plambeck–Siegel, "Misère quotients for impartial games",
//! JCTA 2008; [Guo11] §8), computed as a candidate and then proved.
//!
//! Positions of a heap game with heaps of size at most n are count vectors G ∈ N^n; two are
//! indistinguishable when G + Z and H + Z have the same misère outcome for every Z. The quotient
//! is the monoid Q = N^n/~ with its P-portion P (the classes of P-positions) and the map Φ
//! sending heap h to its class.
//!
//! **Candidates.** Heap by heap (`QuotientSolver`), cheapest first: heap n sent to an element of
//! the last quotient; a new generator whose powers are interpolated; Plambeck–Siegel's
//! recalibration when classes of the last quotient split (`recalibrate.rs`: mex interpolation
//! on a trial monoid, refined at the least failing position); last, learning from exact
//! outcomes (misère canonical forms): positions explored from the empty one by adding heaps,
//! told apart by their outcomes against a set of test positions that grows by counterexamples.
//! Each gives classes with the action of adding a heap: a candidate (Q, P, Φ).
//!
//! **Proof.** The candidate is accepted only when
//! - (C0) adding heaps commutes on the classes (so Q is a commutative monoid and Φ a
//!   homomorphism: Φ(G) is the identity's class moved by the heaps of G, in any order), and the
//!   identity is not in P;
//! - (C1) for every y ∈ Q, heap h and option π of h (a multiset of heaps): y·Φ(h) ∈ P implies
//!   y·Φ(π) ∉ P (every y is Φ(G − h) for some G, as Φ is onto);
//! - (C2) no position G with a heap that has a move has Φ(G) ∉ P and, for every heap h of G,
//!   Φ(G − h)·Φ(π) ∉ P for every option π of h. This ranges over infinitely many G, but
//!   Φ(G − h) = Φ(G without its h-heaps)·Φ(h)^(c_h − 1) depends on each count c_h only through
//!   where c_h falls in the eventually periodic powers of Φ(h); a sweep over h = 1..n keeps, per
//!   partial position, its value A and the set W ⊆ Q of values the rest may still take with every
//!   heap so far keeping its requirement, so finitely many states decide it.
//!
//! Then Φ⁻¹(P) is exactly the set of misère P-positions, by induction on positions: if Φ(G) ∈ P
//! every option lands outside P (C1), so is an N-position, and G has a move (C0: G is not empty;
//! heaps without moves are mapped to the identity); if Φ(G) ∉ P, either G has no move (an
//! N-position in misère play) or some option lands in P (C2). Finally (Q, P) is reduced
//! (`FiniteMonoid::reduce`), which makes it the quotient: equal images are indistinguishable as Φ
//! is a homomorphism, and reduced elements are told apart by some z = Φ(Z).

mod by_heap;
mod heaps;
mod lattice;
mod recalibrate;
#[cfg(test)]
mod tests;

pub use by_heap::{final_period, quotients_by_heap, HeapStep, QuotientRun};
pub use heaps::HeapSystem;
pub use lattice::{lattice_quotient, normal_semigroup_relations, ConeBoard, LatticeQuotientError};

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::algebra::monoid::{generator_names, Element, FiniteMonoid};

/// Why no quotient was proved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QuotientError {
    /// Ctrl-C or a deadline.
    #[error("interrupted while computing the quotient of heaps up to {heap}")]
    Interrupted {
        /// The heap bound being worked on.
        heap: usize,
    },
    /// The candidate grew past the limit on elements or proof states.
    #[error("the quotient of heaps up to {heap} has more than {limit} {what}")]
    TooLarge {
        /// The heap bound being worked on.
        heap: usize,
        /// What overflowed.
        what: &'static str,
        /// The limit.
        limit: usize,
    },
    /// No candidate passed the proof within the limit on refinements.
    #[error("no candidate for the quotient of heaps up to {heap} passed the proof ({tests} test positions; last failure: {reason})")]
    NotProved {
        /// The heap bound.
        heap: usize,
        /// The number of test positions the last candidate was built from.
        tests: usize,
        /// The last check that failed.
        reason: String,
    },
}

impl QuotientError {
    /// The same error, naming the heap bound it happened at.
    pub fn at_heap(self, k: usize) -> QuotientError {
        match self {
            QuotientError::Interrupted { .. } => QuotientError::Interrupted { heap: k },
            QuotientError::TooLarge { what, limit, .. } => QuotientError::TooLarge {
                heap: k,
                what,
                limit,
            },
            QuotientError::NotProved { tests, reason, .. } => QuotientError::NotProved {
                heap: k,
                tests,
                reason,
            },
        }
    }
}

/// Limits of a quotient computation.
#[derive(Clone, Copy, Debug)]
pub struct QuotientLimits {
    /// The most elements a candidate may have.
    pub max_elements: usize,
    /// The most states of the (C2) sweep.
    pub max_states: usize,
    /// The most candidates refined by counterexamples for one heap bound.
    pub max_refinements: usize,
    /// The memory misère canonical forms (for outcomes) may take.
    pub max_form_bytes: usize,
}

impl Default for QuotientLimits {
    fn default() -> Self {
        QuotientLimits {
            max_elements: 4096,
            max_states: 2_000_000,
            max_refinements: 10_000,
            max_form_bytes: 1 << 30,
        }
    }
}

/// A proved misère quotient of a heap game restricted to heaps of size at most n.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MisereQuotient {
    /// The game's name (its code, or a description).
    pub game: String,
    /// The heap bound n.
    pub n: usize,
    /// Q, generated by the images of the heaps that are not products of smaller heaps' images.
    pub monoid: FiniteMonoid,
    /// Whether each element is in P.
    pub p_portion: Vec<bool>,
    /// Φ(h) for h = 0..=n (Φ(0) is the identity).
    pub heaps: Vec<Element>,
    /// The heap of each coordinate of the lattice game: for a code, the heap sizes with a move
    /// (the coordinates of `octal(code, n)`); for a lattice game that is a sum of heaps, the
    /// heap type of each coordinate.
    pub live: Vec<usize>,
    /// (n0, p) when Φ is proved periodic from heap n0 with period p, so that this is the quotient
    /// for every heap size (see [`final_period`]).
    pub final_period: Option<(usize, usize)>,
    /// The options of each heap 0..=n, and the code for larger heaps (winning moves).
    pub options: Vec<Vec<Vec<usize>>>,
    /// The code, when the game is one.
    pub code: Option<crate::game::heap::HeapCode>,
    /// Whether this is the quotient of a lattice game, printed by coordinates rather than heaps.
    pub lattice: bool,
    /// For a lattice game on a board other than N^d: its lattice points' monoid, whose Hilbert
    /// basis plays the part of the heaps.
    pub board: Option<lattice::ConeBoard>,
    /// Why a run asked to go further stopped at n (`misere_quotient(code, max_heap: N)`).
    pub stopped: Option<String>,
}

impl MisereQuotient {
    /// |Q|.
    pub fn order(&self) -> usize {
        self.monoid.len()
    }

    /// |P|.
    pub fn p_count(&self) -> usize {
        self.p_portion.iter().filter(|&&b| b).count()
    }

    /// The generator names a, b, c, ….
    pub fn names(&self) -> Vec<String> {
        generator_names(self.monoid.generators())
    }

    /// An element as a word in the generators.
    pub fn word(&self, x: Element) -> String {
        FiniteMonoid::word(self.monoid.normal_form(x), &self.names())
    }

    /// Φ of a position given by its heap sizes (0 and sizes above n are not heaps of this game:
    /// `None`).
    pub fn image(&self, heaps: &[usize]) -> Option<Element> {
        let mut x = 0;
        for &h in heaps {
            x = self.monoid.mul(x, self.heap_image(h)?);
        }
        Some(x)
    }

    /// Φ(h): up to n from the table, beyond n only when Φ is proved periodic.
    pub fn heap_image(&self, h: usize) -> Option<Element> {
        if h <= self.n {
            return Some(self.heaps[h]);
        }
        let (n0, p) = self.final_period?;
        Some(self.heaps[n0 + (h - n0) % p])
    }

    /// Φ of a lattice point: on N^d (and for `octal(code, n)`) its coordinates are counts of
    /// the heaps of the live sizes; on another cone it is written as a sum of the Hilbert basis
    /// first. `None` for a point of another dimension or outside the board.
    pub fn image_of_point(&self, point: &[i64]) -> Option<Element> {
        match &self.board {
            Some(board) => self.image_of_counts(&board.counts(point)?),
            None => self.image_of_counts(point),
        }
    }

    /// Φ of the position with `counts[i]` heaps of the i-th live size (or Hilbert basis
    /// element); `None` for a point of another dimension or with a negative count.
    pub fn image_of_counts(&self, counts: &[i64]) -> Option<Element> {
        if counts.len() != self.live.len() || counts.iter().any(|&c| c < 0) {
            return None;
        }
        let mut x = 0;
        let mul = |x: Element, y: Element| self.monoid.mul(x, y);
        for (&h, &c) in self.live.iter().zip(counts) {
            // Powers repeat, so a huge count costs at most |Q| steps.
            let power = Powers::of(&mul, self.heaps[h]).get(c as u64);
            x = self.monoid.mul(x, power);
        }
        Some(x)
    }

    /// The options of heap h (from the code past n); `None` when unknown.
    pub fn heap_options(&self, h: usize) -> Option<Vec<Vec<usize>>> {
        if h < self.options.len() {
            return Some(self.options[h].clone());
        }
        self.final_period?;
        Some(self.code.as_ref()?.options(h))
    }

    /// The winning moves of a position given by its heaps: each (heap, option) whose result is
    /// in P, for a position outside P, sorted. `None` when some heap is past the quotient's reach.
    pub fn winning_moves(&self, heaps: &[usize]) -> Option<Vec<(usize, Vec<usize>)>> {
        let x = self.image(heaps)?;
        let mut moves = Vec::new();
        if self.p_portion[x as usize] {
            return Some(moves);
        }
        let mut distinct: Vec<usize> = heaps.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        for h in distinct {
            let mut rest = heaps.to_vec();
            let i = rest.iter().position(|&k| k == h).expect("present");
            rest.swap_remove(i);
            let y = self.image(&rest)?;
            for parts in self.heap_options(h)? {
                let t = self.image(&parts)?;
                if self.p_portion[self.monoid.mul(y, t) as usize] {
                    moves.push((h, parts));
                }
            }
        }
        moves.sort();
        Some(moves)
    }

    /// Whether (Q, P) is tame: isomorphic to a quotient T_k of misère Nim. T_0 is trivial with P
    /// empty; T_1 = ⟨a | a² = 1⟩ with P = {a}; for k ≥ 2, T_k is {1, a} ⊔ G with a² = 1, G an
    /// elementary abelian group of order 2^k (every g² the same idempotent z, the identity of G),
    /// a·z ≠ z in G, and P = {a, z}. (MisereSolver tests only the sizes: |Q| ≤ 2, or |P| = 2 and
    /// |Q| − 2 a power of 2.)
    pub fn tame_index(&self) -> Option<u32> {
        let q = &self.monoid;
        let size = q.len() as Element;
        let p: Vec<Element> = (0..size).filter(|&x| self.p_portion[x as usize]).collect();
        if size == 1 {
            return p.is_empty().then_some(0);
        }
        // The units other than 1: exactly one, a, with a² = 1 and a in P.
        let units: Vec<Element> = (1..size)
            .filter(|&x| (0..size).any(|y| q.mul(x, y) == 0))
            .collect();
        let [a] = units[..] else {
            return None;
        };
        if q.mul(a, a) != 0 || !self.p_portion[a as usize] || self.p_portion[0] {
            return None;
        }
        if size == 2 {
            return Some(1);
        }
        let group: Vec<Element> = (1..size).filter(|&x| x != a).collect();
        let z = q.mul(group[0], group[0]);
        let is_group = group.iter().all(|&g| {
            q.mul(g, g) == z
                && q.mul(z, g) == g
                && q.mul(a, g) != 0
                && q.mul(a, g) != a
                && group.iter().all(|&h| {
                    let gh = q.mul(g, h);
                    gh != 0 && gh != a
                })
        });
        let k = (group.len() as u64).trailing_zeros();
        (is_group
            && z != 0
            && z != a
            && q.mul(a, z) != z
            && group.len().is_power_of_two()
            && k >= 2
            && p.len() == 2
            && self.p_portion[z as usize])
            .then_some(k)
    }

    /// The P-portion's words, sorted as the elements are numbered.
    pub fn p_words(&self) -> Vec<String> {
        (0..self.order() as Element)
            .filter(|&x| self.p_portion[x as usize])
            .map(|x| self.word(x))
            .collect()
    }
}

impl fmt::Display for MisereQuotient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = self.names();
        if self.lattice {
            writeln!(
                f,
                "misère quotient of the lattice game in Z^{}",
                self.board.as_ref().map_or(self.live.len(), ConeBoard::dim)
            )?;
        } else {
            writeln!(f, "misère quotient of {}, heaps 1..{}", self.game, self.n)?;
        }
        writeln!(
            f,
            "  Q = {}, |Q| = {}",
            self.monoid.presentation(&names),
            self.order()
        )?;
        if let Some(k) = self.tame_index() {
            writeln!(f, "  tame: (Q, P) ≅ T{k}, a quotient of misère Nim")?;
        }
        writeln!(
            f,
            "  P = {{{}}}, |P| = {}",
            self.p_words().join(", "),
            self.p_count()
        )?;
        if self.lattice {
            let words: Vec<String> = self
                .live
                .iter()
                .map(|&h| self.word(self.heaps[h]))
                .collect();
            if let Some(board) = &self.board {
                let pairs: Vec<String> = board
                    .generators
                    .iter()
                    .zip(&words)
                    .map(|(g, w)| {
                        let g: Vec<String> = g.iter().map(i64::to_string).collect();
                        format!("({}) ↦ {w}", g.join(", "))
                    })
                    .collect();
                return write!(
                    f,
                    "  Φ on the Hilbert basis of the board: {}",
                    pairs.join(", ")
                );
            }
            return write!(f, "  Φ(e_1..e_{}) = {}", self.live.len(), words.join(" "));
        }
        write!(
            f,
            "  Φ(0..{}) = {}",
            self.n,
            (0..=self.n)
                .map(|h| self.word(self.heaps[h]))
                .collect::<Vec<_>>()
                .join(" ")
        )?;
        if let Some((n0, p)) = self.final_period {
            write!(
                f,
                "\n  final: Φ(h + {p}) = Φ(h) for every h ≥ {n0}, and this is the quotient for every heap size"
            )?;
        }
        if let Some(why) = &self.stopped {
            write!(f, "\n  proved for heaps up to {} only: {why}", self.n)?;
        }
        Ok(())
    }
}

/// The powers x^0, x^1, … of an element of a finite monoid until they repeat: x^(t+p) = x^t
/// with the index t and the period p least.
struct Powers {
    list: Vec<Element>,
    index: usize,
}

impl Powers {
    fn of(mul: &dyn Fn(Element, Element) -> Element, x: Element) -> Powers {
        let mut list = vec![0 as Element];
        let mut seen = HashMap::from([(0 as Element, 0usize)]);
        let mut last = 0;
        loop {
            last = mul(last, x);
            if let Some(&index) = seen.get(&last) {
                return Powers { list, index };
            }
            seen.insert(last, list.len());
            list.push(last);
        }
    }

    /// The period p.
    fn period(&self) -> usize {
        self.list.len() - self.index
    }

    /// x^c, for any count.
    fn get(&self, c: u64) -> Element {
        let len = self.list.len() as u64;
        if c < len {
            self.list[c as usize]
        } else {
            let t = self.index as u64;
            self.list[(t + (c - t) % self.period() as u64) as usize]
        }
    }
}

/// Products in Q, from a multiplication table (x·y at x·|Q| + y) when it takes at most 16 MiB:
/// the sweeps multiply millions of times, and a product from normal forms costs a word's length.
struct Products<'a> {
    q: &'a FiniteMonoid,
    table: Option<Vec<Element>>,
}

impl<'a> Products<'a> {
    fn new(q: &'a FiniteMonoid) -> Products<'a> {
        let size = q.len();
        let table = (size * size <= 1 << 22).then(|| {
            (0..size as Element)
                .flat_map(|x| (0..size as Element).map(move |y| q.mul(x, y)))
                .collect()
        });
        Products { q, table }
    }

    fn mul(&self, x: Element, y: Element) -> Element {
        match &self.table {
            Some(t) => t[x as usize * self.q.len() + y as usize],
            None => self.q.mul(x, y),
        }
    }
}

impl MisereQuotient {
    /// The affine stratification of the P-positions Φ⁻¹(P) of `octal(code, n, play: "misere")`
    /// (Miller, "Affine stratifications from finite misère quotients", arXiv 1009.2199): along
    /// each axis h the count c_h matters only through its *type*, a value below the index t_h of
    /// Φ(h) or a class t_h + r + p_h·N modulo its period; each type vector with image in P gives
    /// the point of its fixed counts plus N{p_h e_h} over its periodic axes. Types with the same
    /// periodic axes share one module. `None` when there are more than `max_types` type vectors.
    pub fn stratification(
        &self,
        max_types: usize,
    ) -> Option<Result<crate::algebra::Stratification, crate::algebra::AlgebraError>> {
        use crate::algebra::{AffineModule, AffineSemigroup, Vector};
        let d = self.live.len();
        let mul = |x: Element, y: Element| self.monoid.mul(x, y);
        let cycles: Vec<(usize, usize)> = self
            .live
            .iter()
            .map(|&h| {
                let powers = Powers::of(&mul, self.heaps[h]);
                (powers.index, powers.period())
            })
            .collect();
        let types: u128 = cycles.iter().map(|&(t, p)| (t + p) as u128).product();
        if types > max_types as u128 {
            return None;
        }
        // Offsets grouped by the set of periodic axes.
        let mut groups: std::collections::BTreeMap<Vec<bool>, Vec<Vector>> = Default::default();
        let mut counts = vec![0i64; d];
        let mut periodic = vec![false; d];
        fn walk(
            q: &MisereQuotient,
            cycles: &[(usize, usize)],
            i: usize,
            x: Element,
            counts: &mut Vec<i64>,
            periodic: &mut Vec<bool>,
            groups: &mut std::collections::BTreeMap<Vec<bool>, Vec<Vector>>,
        ) {
            if i == cycles.len() {
                if q.p_portion[x as usize] {
                    groups
                        .entry(periodic.clone())
                        .or_default()
                        .push(Vector::from_i64s(counts));
                }
                return;
            }
            let (t, p) = cycles[i];
            let mut power = 0;
            for c in 0..t + p {
                counts[i] = c as i64;
                periodic[i] = c >= t;
                walk(
                    q,
                    cycles,
                    i + 1,
                    q.monoid.mul(x, power),
                    counts,
                    periodic,
                    groups,
                );
                power = q.monoid.mul(power, q.heaps[q.live[i]]);
            }
            periodic[i] = false;
        }
        walk(self, &cycles, 0, 0, &mut counts, &mut periodic, &mut groups);
        let mut pieces = Vec::with_capacity(groups.len());
        for (axes, offsets) in groups {
            let generators: Vec<Vector> = axes
                .iter()
                .enumerate()
                .filter(|(_, &on)| on)
                .map(|(i, _)| {
                    let mut v = vec![0i64; d];
                    v[i] = cycles[i].1 as i64;
                    Vector::from_i64s(&v)
                })
                .collect();
            let module = AffineSemigroup::with_dim(d, generators)
                .and_then(|a| AffineModule::new(offsets, a));
            match module {
                Ok(m) => pieces.push(m),
                Err(e) => return Some(Err(e)),
            }
        }
        if pieces.is_empty() {
            return Some(Err(crate::algebra::AlgebraError::Empty(
                "the P-positions (no position is a P-position)".into(),
            )));
        }
        Some(crate::algebra::Stratification::new(pieces))
    }
}

/// Misère outcomes of positions (count vectors indexed by heap size): a position is a misère
/// P-position exactly when the misère nim value of its canonical form is 0, and its canonical
/// form is the sum of its heaps' forms (`MisereForms::sum`, memoized on pairs of forms, which
/// collapse far more than positions do).
struct Outcomes<'a> {
    heaps: crate::game::misere::HeapPositions<'a>,
    n: usize,
    /// A quotient proved for heaps 1..=k: positions of those heaps are read off it.
    known: Option<MisereQuotient>,
    max_bytes: usize,
    memo: HashMap<Vec<u16>, bool>,
}

impl Outcomes<'_> {
    fn is_p(&mut self, g: &[u16]) -> Result<bool, QuotientError> {
        if let Some(&p) = self.memo.get(g) {
            return Ok(p);
        }
        if let Some(q) = &self.known {
            if g[q.n + 1..].iter().all(|&c| c == 0) {
                let x = g.iter().enumerate().skip(1).fold(0, |x, (h, &c)| {
                    (0..c).fold(x, |x, _| q.monoid.mul(x, q.heaps[h]))
                });
                return Ok(q.p_portion[x as usize]);
            }
        }
        let stop = |e: crate::game::misere::MisereError| match e {
            crate::game::misere::MisereError::Interrupted { .. } => {
                QuotientError::Interrupted { heap: 0 }
            }
            crate::game::misere::MisereError::TooLarge { max_bytes, .. } => {
                QuotientError::TooLarge {
                    heap: 0,
                    what: "bytes of misère canonical forms",
                    limit: max_bytes,
                }
            }
        };
        let mut form = 0;
        for (h, &c) in g.iter().enumerate().skip(1) {
            if c == 0 {
                continue;
            }
            let f = self.heaps.heap(h).map_err(stop)?;
            for _ in 0..c {
                form = self
                    .heaps
                    .forms()
                    .sum(form, f, self.max_bytes)
                    .map_err(|e| match e {
                        crate::game::misere::SumStop::Interrupted => {
                            QuotientError::Interrupted { heap: self.n }
                        }
                        crate::game::misere::SumStop::TooLarge => QuotientError::TooLarge {
                            heap: self.n,
                            what: "bytes of misère canonical forms",
                            limit: self.max_bytes,
                        },
                    })?;
            }
        }
        let p = self.heaps.forms().misere_value(form) == 0;
        self.memo.insert(g.to_vec(), p);
        Ok(p)
    }
}

/// Finds and proves quotients of one heap game for growing heap bounds, keeping what it learned
/// (the outcomes of positions, the tests that split classes, the last quotient and sweep) from one
/// bound to the next.
pub struct QuotientSolver<'a> {
    system: &'a HeapSystem,
    limits: QuotientLimits,
    outcomes: Outcomes<'a>,
    extra: Vec<Vec<u16>>,
    /// The last quotient proved, for heaps 1..=k − 1 when heaps 1..=k are asked next.
    last: Option<MisereQuotient>,
    /// The (C2) sweep over the live heaps up to k, in the elements of `last` (for heaps up to k).
    sweep: Option<(usize, Sweep)>,
}

impl<'a> QuotientSolver<'a> {
    /// A solver for the heaps of `system` (up to its largest heap).
    pub fn new(system: &'a HeapSystem, limits: QuotientLimits) -> QuotientSolver<'a> {
        QuotientSolver {
            system,
            limits,
            outcomes: Outcomes {
                heaps: crate::game::misere::HeapPositions::from_table(
                    &system.options,
                    limits.max_form_bytes,
                ),
                n: 0,
                known: None,
                max_bytes: limits.max_form_bytes,
                memo: HashMap::new(),
            },
            extra: Vec::new(),
            last: None,
            sweep: None,
        }
    }

    /// The quotient of heaps 1..=n when it is the quotient of heaps 1..=n − 1 with heap n sent to
    /// one of its elements (a conservative extension, as most heaps are once a quotient has
    /// settled): each element x is tried as Φ(n) and the proof decides. At most one x can pass,
    /// as the quotient of heaps up to n − 1 is reduced and every element is the image of some
    /// position. Candidates most likely to pass come first: Φ(n − 1), Φ(n − 2), ….
    fn conservative(&mut self, n: usize) -> Result<Option<MisereQuotient>, QuotientError> {
        let Some(last) = self.last.as_ref().filter(|q| q.n + 1 == n) else {
            return Ok(None);
        };
        let options = &self.system.options[..=n];
        let live: Vec<usize> = (1..=n).filter(|&h| !options[h].is_empty()).collect();
        let q = &last.monoid;
        let products = Products::new(q);
        let mul = |x: Element, y: Element| products.mul(x, y);
        let size = q.len() as Element;
        // The sweep over the heaps below n is the last proof's (same elements, same images),
        // kept from one heap to the next while the quotient does not change.
        let base = match self.sweep.take() {
            Some((k, sweep)) if k + 1 == n => sweep,
            _ => {
                let old = |h: usize| last.heaps[h];
                let mut sweep = Sweep::new(q.len());
                for &h in live.iter().filter(|&&h| h < n) {
                    let images: Vec<Element> =
                        options[h].iter().map(|p| of_parts(&mul, &old, p)).collect();
                    // The last quotient passed (C1); should it not, this route is skipped.
                    let Ok(bad) = bad_row(&mul, &last.p_portion, old(h), &images) else {
                        return Ok(None);
                    };
                    sweep.add_heap(&mul, old(h), &bad, self.limits.max_states, n)?;
                }
                sweep
            }
        };
        // Heap n's options are smaller heaps, so whether an option from Φ(G − n) = y lands in P
        // does not depend on the candidate Φ(n).
        let old = |h: usize| last.heaps[h];
        let option_images: Vec<Element> =
            options[n].iter().map(|p| of_parts(&mul, &old, p)).collect();
        let into_p: Vec<bool> = (0..size)
            .map(|y| {
                option_images
                    .iter()
                    .any(|&t| last.p_portion[q.mul(y, t) as usize])
            })
            .collect();
        // A heap without a move is the empty position's element.
        let mut order: Vec<Element> = if options[n].is_empty() {
            vec![0]
        } else {
            (1..n).rev().map(|h| last.heaps[h]).collect()
        };
        if !options[n].is_empty() {
            order.extend(0..size);
        }
        let mut tried = vec![false; size as usize];
        for x in order {
            if std::mem::replace(&mut tried[x as usize], true) {
                continue;
            }
            // (C1) for heap n; the smaller heaps passed it in the last proof.
            if (0..size).any(|y| into_p[y as usize] && last.p_portion[q.mul(y, x) as usize]) {
                continue;
            }
            let bad: Vec<bool> = into_p.iter().map(|&b| !b).collect();
            let mut sweep = base.clone();
            if !options[n].is_empty() {
                sweep.add_heap(&mul, x, &bad, self.limits.max_states, n)?;
            }
            if sweep.failure(&last.p_portion).is_some() {
                continue;
            }
            // The monoid, its P-portion and generators stay: heap n's image is already
            // generated, and Q was reduced under multiplication by all of its elements.
            let mut found = last.clone();
            found.n = n;
            found.heaps.push(x);
            found.options.push(options[n].clone());
            if !options[n].is_empty() {
                found.live.push(n);
            }
            if let Some(heaps) = &self.system.lattice_heaps {
                if n == self.system.max_heap() {
                    found.live = heaps.clone();
                    found.lattice = true;
                }
            }
            found.final_period = None;
            self.sweep = Some((n, sweep));
            return Ok(Some(found));
        }
        Ok(None)
    }

    /// The quotient of the heaps 1..=n (n at most the system's largest heap), proved.
    pub fn quotient(&mut self, n: usize) -> Result<MisereQuotient, QuotientError> {
        let q = match self.conservative(n)? {
            Some(q) => q,
            None => match self.new_generator(n)? {
                Some(q) => q,
                None => match self.recalibrated(n)? {
                    Some(q) => q,
                    None => self.learn(n)?,
                },
            },
        };
        self.last = Some(q.clone());
        Ok(q)
    }

    /// The quotient of heaps 1..=n when heap n brings a new generator g and the old elements do
    /// not split: the candidate is Q × {1, g, g², …} with g's powers cycling from an index t
    /// with a period p, and y·g^c in P exactly when a representative position G of y (the
    /// shortest word in the heaps that generate Q) plus c heaps n is a P-position, computed on
    /// the assumption that positions of smaller heaps plus c − 1 heaps n are decided by their
    /// element y' alone, through the column of c − 1:
    /// G + c·n is P iff no option of heap n lands in P at (Φ(G)·Φ(π), c − 1) and no option of
    /// G is P with the same c. The columns c ↦ (y ↦ [y·g^c ∈ P]) follow each other
    /// deterministically, so t and p are where a column repeats. This is the mex-style
    /// interpolation MisereSolver starts a new generator with; the proof decides whether the
    /// assumption held (when old elements split, it fails and the quotient is learned instead).
    fn new_generator(&self, n: usize) -> Result<Option<MisereQuotient>, QuotientError> {
        const MAX_POWERS: usize = 64;
        let Some(last) = self.last.as_ref().filter(|q| q.n + 1 == n) else {
            return Ok(None);
        };
        let options = &self.system.options[..=n];
        if options[n].is_empty() {
            return Ok(None);
        }
        let q = &last.monoid;
        let size = q.len();
        if size * 2 > self.limits.max_elements {
            return Ok(None);
        }
        // A heap for each generator: the least heap sent to it (generators are heap images;
        // should one not be, this route is skipped).
        let Some(gens) = (0..q.generators())
            .map(|g| {
                let x = q.times_generator(0, g);
                (1..n).find(|&h| last.heaps[h] == x)
            })
            .collect::<Option<Vec<usize>>>()
        else {
            return Ok(None);
        };
        let reps: Vec<Vec<usize>> = (0..size as Element)
            .map(|y| {
                q.normal_form(y)
                    .iter()
                    .zip(&gens)
                    .flat_map(|(&e, &h)| std::iter::repeat_n(h, e as usize))
                    .collect()
            })
            .collect();
        let products = Products::new(q);
        let mul = |x: Element, y: Element| products.mul(x, y);
        let image = |g: &[usize]| g.iter().fold(0, |x, &h| mul(x, last.heaps[h]));
        let heap_n: Vec<Element> = options[n].iter().map(|pi| image(pi)).collect();
        let mut columns: Vec<Vec<bool>> = vec![last.p_portion.clone()];
        let mut seen: HashMap<Vec<bool>, usize> = HashMap::from([(last.p_portion.clone(), 0)]);
        let (t, period) = loop {
            let c = columns.len();
            if c > MAX_POWERS || c * size > self.limits.max_elements {
                return Ok(None);
            }
            let before = &columns[c - 1];
            let mut memo: HashMap<Vec<usize>, bool> = HashMap::new();
            let mut column = Vec::with_capacity(size);
            for rep in &reps {
                let p = p_with_heaps_n(rep, &mut memo, options, &|g: &[usize]| {
                    let y = image(g);
                    heap_n.iter().any(|&t| before[mul(y, t) as usize])
                });
                match p {
                    Ok(p) => column.push(p),
                    // Representatives with many heaps make the recursion explode: this route
                    // gives way to the next.
                    Err(QuotientError::TooLarge { .. }) => return Ok(None),
                    Err(e) => return Err(e),
                }
            }
            if let Some(&t) = seen.get(&column) {
                break (t, c - t);
            }
            seen.insert(column.clone(), c);
            columns.push(column);
        };
        // Elements (y, c) numbered c·|Q| + y for c < t + p.
        let powers = t + period;
        let live: Vec<usize> = (1..=n).filter(|&h| !options[h].is_empty()).collect();
        let mut act = Vec::with_capacity(size * powers);
        let mut in_p = Vec::with_capacity(size * powers);
        for (c, column) in columns.iter().enumerate() {
            for (y, &in_column) in column.iter().enumerate() {
                act.push(
                    live.iter()
                        .map(|&h| {
                            if h == n {
                                let next = if c + 1 < powers { c + 1 } else { t };
                                (next * size + y) as Element
                            } else {
                                (c * size) as Element + q.mul(y as Element, last.heaps[h])
                            }
                        })
                        .collect(),
                );
                in_p.push(in_column);
            }
        }
        let candidate = Candidate {
            reps: Vec::new(),
            act,
            in_p,
        };
        if prove(&candidate, options, &live, n, self.limits.max_states)?.is_ok() {
            return Ok(Some(finish(self.system, n, &candidate, &live)));
        }
        Ok(None)
    }

    /// The quotient of heaps 1..=n by interpolation and recalibration (`recalibrate.rs`).
    fn recalibrated(&self, n: usize) -> Result<Option<MisereQuotient>, QuotientError> {
        let Some(last) = self.last.as_ref().filter(|q| q.n + 1 == n) else {
            return Ok(None);
        };
        recalibrate::recalibrated(
            self.system,
            last,
            n,
            self.limits.max_elements,
            self.limits.max_states,
            64,
        )
    }

    /// The quotient of heaps 1..=n learned from outcomes, as an automaton is learned from
    /// membership queries (Angluin's L*, with Rivest and Schapire's use of counterexamples):
    /// positions are told apart by their outcomes against a set T of test positions (at first
    /// the empty position and each single heap), a candidate is built and proved, and a failed
    /// proof names a position the candidate predicts wrongly (a P-position with an option in P:
    /// one of the two is wrong; a position outside P without an option into P: either it, or one
    /// of its options, is wrong). Walking that position's heaps from the empty class finds two
    /// positions the candidate merged and a test that tells them apart; T grows by it, and the
    /// next candidate has more classes. Classes of T never outnumber the true quotient's
    /// elements, so this ends with the quotient (or at a limit).
    fn learn(&mut self, n: usize) -> Result<MisereQuotient, QuotientError> {
        self.outcomes.known = self.last.take().filter(|q| q.n + 1 == n);
        let width = self.system.max_heap() + 1;
        let options = &self.system.options[..=n];
        let live: Vec<usize> = (1..=n).filter(|&h| !options[h].is_empty()).collect();
        let mut slot = vec![None; width];
        for (i, &h) in live.iter().enumerate() {
            slot[h] = Some(i);
        }
        self.outcomes.n = n;
        let limits = self.limits;
        let mut tests: Vec<Vec<u16>> = window_tests(&live, width, 1);
        tests.extend(
            self.extra
                .iter()
                .filter(|t| t[n + 1..].iter().all(|&c| c == 0))
                .cloned(),
        );
        tests.sort();
        tests.dedup();
        let mut reason = String::from("no candidate tried");
        for _ in 0..limits.max_refinements {
            let candidate = candidate(
                &mut self.outcomes,
                &live,
                width,
                &tests,
                limits.max_elements,
            )?;
            let new_tests: Vec<Vec<u16>> = if let Some((x, i, j)) = non_commuting(&candidate) {
                // Adding heaps i and j does not commute on a class: the two results are told
                // apart by a test, which moved back by heap j (or i) separates what was merged.
                let mut p1 = candidate.reps[candidate.act[x][i] as usize].clone();
                p1[live[j]] += 1;
                let mut p2 = candidate.reps[candidate.act[x][j] as usize].clone();
                p2[live[i]] += 1;
                let mut split = None;
                for t in &tests {
                    let plus =
                        |g: &[u16]| -> Vec<u16> { g.iter().zip(t).map(|(a, b)| a + b).collect() };
                    if self.outcomes.is_p(&plus(&p1))? != self.outcomes.is_p(&plus(&p2))? {
                        split = Some(t.clone());
                        break;
                    }
                }
                reason = format!(
                    "adding heaps {} and {} does not commute on a class",
                    live[i], live[j]
                );
                match split {
                    Some(t) => [live[i], live[j]]
                        .iter()
                        .map(|&h| {
                            let mut u = t.clone();
                            u[h] += 1;
                            u
                        })
                        .collect(),
                    None => Vec::new(),
                }
            } else {
                match prove(&candidate, options, &live, n, limits.max_states)? {
                    Ok(_) => return Ok(finish(self.system, n, &candidate, &live)),
                    Err(failure) => {
                        reason = failure.reason;
                        match failure.witness {
                            Some(witness) => {
                                let wrong = self.mispredicted(&candidate, &slot, witness)?;
                                match wrong {
                                    Some(g) => self.separating_tests(&candidate, &slot, &g)?,
                                    None => Vec::new(),
                                }
                            }
                            None => Vec::new(),
                        }
                    }
                }
            };
            let before = tests.len();
            tests.extend(new_tests.iter().cloned());
            tests.sort();
            tests.dedup();
            if tests.len() == before {
                break;
            }
            self.extra.extend(new_tests);
            if crate::interrupt::requested() {
                return Err(QuotientError::Interrupted { heap: n });
            }
        }
        Err(QuotientError::NotProved {
            heap: n,
            tests: tests.len(),
            reason,
        })
    }

    /// The candidate's element of a position: the empty class moved by its live heaps.
    fn predicted(c: &Candidate, slot: &[Option<usize>], g: &[u16]) -> Element {
        g.iter()
            .enumerate()
            .fold(0, |x, (h, &count)| match slot[h] {
                Some(i) => (0..count).fold(x, |x, _| c.act[x as usize][i]),
                None => x,
            })
    }

    /// A position of the witness whose outcome the candidate predicts wrongly.
    fn mispredicted(
        &mut self,
        c: &Candidate,
        slot: &[Option<usize>],
        witness: Witness,
    ) -> Result<Option<Vec<u16>>, QuotientError> {
        let wrong = |me: &mut Self, g: &[u16]| -> Result<bool, QuotientError> {
            Ok(me.outcomes.is_p(g)? != c.in_p[Self::predicted(c, slot, g) as usize])
        };
        match witness {
            Witness::OptionInP { position, option } => {
                if wrong(self, &position)? {
                    Ok(Some(position))
                } else if wrong(self, &option)? {
                    Ok(Some(option))
                } else {
                    Ok(None)
                }
            }
            Witness::NoOptionIntoP { position } => {
                if wrong(self, &position)? {
                    return Ok(Some(position));
                }
                // G is truly outside P, so some option of it is a P-position the candidate
                // does not predict.
                let n = self.outcomes.n;
                for h in 1..position.len().min(n + 1) {
                    if position[h] == 0 {
                        continue;
                    }
                    for pi in &self.system.options[h] {
                        let mut g = position.clone();
                        g[h] -= 1;
                        for &part in pi {
                            g[part] += 1;
                        }
                        if self.outcomes.is_p(&g)? {
                            return Ok(wrong(self, &g)?.then_some(g));
                        }
                    }
                }
                Ok(None)
            }
        }
    }

    /// Tests that split a class of the candidate, from a position g it predicts wrongly: along
    /// g's heaps h_1, …, h_m, with x_i the class after the first i, the outcome of
    /// rep(x_i) + h_(i+1) + … + h_m is g's own at i = 0 and the prediction at i = m, so it
    /// changes at some i; there rep(x_i) + h_(i+1) and rep(x_(i+1)), merged by the candidate,
    /// differ by the rest s = h_(i+2) + … + h_m. Returns s and what it leaves when its heaps
    /// are taken away one by one (so the tests stay closed under such suffixes).
    fn separating_tests(
        &mut self,
        c: &Candidate,
        slot: &[Option<usize>],
        g: &[u16],
    ) -> Result<Vec<Vec<u16>>, QuotientError> {
        let heaps: Vec<usize> = g
            .iter()
            .enumerate()
            .filter(|(h, _)| slot[*h].is_some())
            .flat_map(|(h, &count)| std::iter::repeat_n(h, count as usize))
            .collect();
        // Dead heaps change nothing: the walk starts from g without them.
        let mut rest = vec![0u16; g.len()];
        for &h in &heaps {
            rest[h] += 1;
        }
        let value = |me: &mut Self, x: Element, rest: &[u16]| -> Result<bool, QuotientError> {
            let g: Vec<u16> = c.reps[x as usize]
                .iter()
                .zip(rest)
                .map(|(a, b)| a + b)
                .collect();
            me.outcomes.is_p(&g)
        };
        let mut x: Element = 0;
        let mut here = value(self, x, &rest)?;
        for &h in &heaps {
            let next = c.act[x as usize][slot[h].unwrap_or(0)];
            rest[h] -= 1;
            let there = value(self, next, &rest)?;
            if there != here {
                let mut tests = vec![rest.clone()];
                let mut s = rest.clone();
                for &k in heaps.iter().rev() {
                    if s[k] > 0 && s.iter().any(|&c| c > 0) {
                        s[k] -= 1;
                        tests.push(s.clone());
                    }
                }
                return Ok(tests);
            }
            x = next;
            here = there;
        }
        Ok(Vec::new())
    }
}

/// The quotient of the heaps 1..=n of `system`, proved.
pub fn misere_quotient(
    system: &HeapSystem,
    n: usize,
    limits: QuotientLimits,
) -> Result<MisereQuotient, QuotientError> {
    QuotientSolver::new(system, limits).quotient(n)
}

/// A candidate: classes with the action of adding each live heap (`act[x][i]` for live heap
/// `live[i]`), a representative of each and whether it is a P-position.
struct Candidate {
    reps: Vec<Vec<u16>>,
    act: Vec<Vec<Element>>,
    in_p: Vec<bool>,
}

/// The first class x and live heaps i < j with x·i·j ≠ x·j·i.
fn non_commuting(c: &Candidate) -> Option<(usize, usize, usize)> {
    let k = c.act.first().map_or(0, Vec::len);
    for x in 0..c.act.len() {
        for i in 0..k {
            for j in i + 1..k {
                if c.act[c.act[x][i] as usize][j] != c.act[c.act[x][j] as usize][i] {
                    return Some((x, i, j));
                }
            }
        }
    }
    None
}

/// Every multiset of at most `window` live heaps, as count vectors (the first tests).
fn window_tests(live: &[usize], width: usize, window: usize) -> Vec<Vec<u16>> {
    let mut tests: Vec<Vec<u16>> = vec![vec![0; width]];
    let mut layer = tests.clone();
    for _ in 0..window {
        let mut next = Vec::new();
        for t in &layer {
            // Nondecreasing heaps: add only heaps ≥ the largest present.
            let top = (1..width).rev().find(|&h| t[h] > 0).unwrap_or(0);
            for &h in live.iter().filter(|&&h| h >= top) {
                let mut u = t.clone();
                u[h] += 1;
                next.push(u);
            }
        }
        tests.extend(next.iter().cloned());
        layer = next;
    }
    tests
}

fn candidate(
    outcomes: &mut Outcomes<'_>,
    live: &[usize],
    width: usize,
    tests: &[Vec<u16>],
    max_elements: usize,
) -> Result<Candidate, QuotientError> {
    let signature = |outcomes: &mut Outcomes<'_>, g: &[u16]| -> Result<Vec<bool>, QuotientError> {
        tests
            .iter()
            .map(|t| {
                let sum: Vec<u16> = g.iter().zip(t).map(|(a, b)| a + b).collect();
                outcomes.is_p(&sum)
            })
            .collect()
    };
    let empty = vec![0u16; width];
    let mut reps: Vec<Vec<u16>> = vec![empty.clone()];
    let mut index: HashMap<Vec<bool>, Element> = HashMap::from([(signature(outcomes, &empty)?, 0)]);
    let mut act: Vec<Vec<Element>> = Vec::new();
    let mut next = 0;
    while next < reps.len() {
        let mut row = Vec::with_capacity(live.len());
        for &h in live {
            let mut g = reps[next].clone();
            g[h] += 1;
            let s = signature(outcomes, &g)?;
            let id = match index.get(&s) {
                Some(&id) => id,
                None => {
                    if reps.len() >= max_elements {
                        return Err(QuotientError::TooLarge {
                            heap: outcomes.n,
                            what: "elements",
                            limit: max_elements,
                        });
                    }
                    let id = reps.len() as Element;
                    index.insert(s, id);
                    reps.push(g);
                    id
                }
            };
            row.push(id);
        }
        act.push(row);
        next += 1;
    }
    let in_p = reps
        .iter()
        .map(|g| outcomes.is_p(g))
        .collect::<Result<_, _>>()?;
    Ok(Candidate { reps, act, in_p })
}

/// Whether G + c heaps n is a P-position, for G a sorted list of heaps below n: none of G's
/// options is (recursively), and `heap_n_into_p(G)` says no option of a heap n lands in P
/// (c ≥ 1, so there is a move). `TooLarge` past 2^20 positions.
fn p_with_heaps_n(
    g: &[usize],
    memo: &mut HashMap<Vec<usize>, bool>,
    options: &[Vec<Vec<usize>>],
    heap_n_into_p: &dyn Fn(&[usize]) -> bool,
) -> Result<bool, QuotientError> {
    if let Some(&p) = memo.get(g) {
        return Ok(p);
    }
    if memo.len() % 4096 == 4095 && crate::interrupt::requested() {
        return Err(QuotientError::Interrupted { heap: 0 });
    }
    const MAX_POSITIONS: usize = 1 << 20;
    if memo.len() > MAX_POSITIONS {
        return Err(QuotientError::TooLarge {
            heap: 0,
            what: "positions in the interpolation",
            limit: MAX_POSITIONS,
        });
    }
    let mut p = !heap_n_into_p(g);
    let mut i = 0;
    while p && i < g.len() {
        let h = g[i];
        for pi in &options[h] {
            let mut next: Vec<usize> = g[..i]
                .iter()
                .chain(&g[i + 1..])
                .chain(pi)
                .copied()
                .collect();
            next.sort_unstable();
            if p_with_heaps_n(&next, memo, options, heap_n_into_p)? {
                p = false;
                break;
            }
        }
        // Equal heaps have the same options.
        while i < g.len() && g[i] == h {
            i += 1;
        }
    }
    memo.insert(g.to_vec(), p);
    Ok(p)
}

/// A candidate that failed its proof: the check that failed and, when the candidate has
/// representatives, positions that show it.
struct Failure {
    reason: String,
    witness: Option<Witness>,
}

/// Positions (count vectors) a failed check names; at least one of them is predicted wrongly.
enum Witness {
    /// (C1): G is predicted to be a P-position, and so is its option.
    OptionInP {
        position: Vec<u16>,
        option: Vec<u16>,
    },
    /// (C2): G is predicted outside P, and none of its options in P.
    NoOptionIntoP { position: Vec<u16> },
}

/// Checks (C0)–(C2) of the module header; `Ok(Err(failure))` when a check fails.
fn prove(
    c: &Candidate,
    options: &[Vec<Vec<usize>>],
    live: &[usize],
    n: usize,
    max_states: usize,
) -> Result<Result<Sweep, Failure>, QuotientError> {
    let size = c.act.len();
    let k = live.len();
    let failed = |reason: String| Failure {
        reason,
        witness: None,
    };
    // (C0) The actions of the heaps commute, and the identity (the empty position) is not in P.
    for x in 0..size {
        for i in 0..k {
            for j in i + 1..k {
                let a = c.act[c.act[x][i] as usize][j];
                let b = c.act[c.act[x][j] as usize][i];
                if a != b {
                    return Ok(Err(failed(format!(
                        "adding heaps {} and {} does not commute on a class",
                        live[i], live[j]
                    ))));
                }
            }
        }
    }
    if c.in_p[0] {
        return Ok(Err(failed("the empty position is in P".into())));
    }
    let q = FiniteMonoid::from_action(c.act.clone());
    let mut slot = vec![None; n + 1];
    for (i, &h) in live.iter().enumerate() {
        slot[h] = Some(i);
    }
    let heap = |h: usize| -> Element {
        match slot[h] {
            Some(i) => q.times_generator(0, i),
            None => 0,
        }
    };
    let products = Products::new(&q);
    let mul = |x: Element, y: Element| products.mul(x, y);
    // A representative plus some heaps, when the candidate has representatives.
    let plus = |y: Element, heaps: &[usize]| -> Option<Vec<u16>> {
        let mut g = c.reps.get(y as usize)?.clone();
        for &h in heaps {
            *g.get_mut(h)? += 1;
        }
        Some(g)
    };
    let mut sweep = Sweep::new(size);
    for &h in live {
        let images: Vec<Element> = options[h]
            .iter()
            .map(|p| of_parts(&mul, &heap, p))
            .collect();
        let bad = match bad_row(&mul, &c.in_p, heap(h), &images) {
            Ok(bad) => bad,
            Err(y) => {
                let into_p = options[h]
                    .iter()
                    .zip(&images)
                    .find(|(_, &t)| c.in_p[mul(y, t) as usize]);
                let witness = into_p.and_then(|(pi, _)| {
                    Some(Witness::OptionInP {
                        position: plus(y, &[h])?,
                        option: plus(y, pi)?,
                    })
                });
                return Ok(Err(Failure {
                    reason: format!(
                        "a P-position with a heap {h} has an option in P (class {})",
                        FiniteMonoid::word(q.normal_form(y), &generator_names(k))
                    ),
                    witness,
                }));
            }
        };
        sweep.add_heap(&mul, heap(h), &bad, max_states, n)?;
    }
    if let Some(counts) = sweep.failure(&c.in_p) {
        let heaps: Vec<usize> = counts
            .iter()
            .zip(live)
            .flat_map(|(&count, &h)| std::iter::repeat_n(h, count as usize))
            .collect();
        let a = counts.iter().zip(live).fold(0, |x, (&count, &h)| {
            (0..count).fold(x, |x, _| mul(x, heap(h)))
        });
        return Ok(Err(Failure {
            reason: format!(
                "a position of class {} outside P has no option into P",
                FiniteMonoid::word(q.normal_form(a), &generator_names(k))
            ),
            witness: plus(0, &heaps).map(|position| Witness::NoOptionIntoP { position }),
        }));
    }
    Ok(Ok(sweep))
}

/// Φ of an option (a list of heaps).
fn of_parts(
    mul: &dyn Fn(Element, Element) -> Element,
    heap: &dyn Fn(usize) -> Element,
    parts: &[usize],
) -> Element {
    parts.iter().fold(0, |x, &p| mul(x, heap(p)))
}

/// (C1) for one heap h of image `qh` whose options have the images `images`: `Err(y)` when a
/// position G with Φ(G − h) = y is in P while an option of h lands in P; otherwise the row
/// bad[y]: no option of h from such a G lands in P.
fn bad_row(
    mul: &dyn Fn(Element, Element) -> Element,
    in_p: &[bool],
    qh: Element,
    images: &[Element],
) -> Result<Vec<bool>, Element> {
    let mut row = Vec::with_capacity(in_p.len());
    for y in 0..in_p.len() as Element {
        let into_p = images.iter().any(|&t| in_p[mul(y, t) as usize]);
        if in_p[mul(y, qh) as usize] && into_p {
            return Err(y);
        }
        row.push(!into_p);
    }
    Ok(row)
}

/// A state of the (C2) sweep: the value A of the heaps so far, the set W ⊆ Q (a bitset) of
/// values the rest may still take with every heap so far keeping its requirement, and whether
/// some heap was taken.
type State = (Element, Vec<u64>, bool);

/// The (C2) sweep over the heaps, one heap at a time (see the module header). Each state keeps
/// the counts of the heaps taken so far (in the order they were added) of the first position
/// that reached it, so a failure names a concrete position.
#[derive(Clone, Debug)]
struct Sweep {
    size: usize,
    states: HashMap<State, Vec<u32>>,
}

impl Sweep {
    fn new(size: usize) -> Sweep {
        let words = size.div_ceil(64);
        let full: Vec<u64> = (0..words)
            .map(|w| {
                let bits = (size - 64 * w).min(64);
                if bits == 64 {
                    u64::MAX
                } else {
                    (1u64 << bits) - 1
                }
            })
            .collect();
        Sweep {
            size,
            states: HashMap::from([((0, full, false), Vec::new())]),
        }
    }

    /// Takes in a heap of image `qh` whose requirement is `bad` (from [`bad_row`]).
    fn add_heap(
        &mut self,
        mul: &dyn Fn(Element, Element) -> Element,
        qh: Element,
        bad: &[bool],
        max_states: usize,
        n: usize,
    ) -> Result<(), QuotientError> {
        let size = self.size;
        let words = size.div_ceil(64);
        // Counts 0..=t+p cover every type of (q^c, q^(c−1)).
        let powers = Powers::of(mul, qh);
        let (t, period) = (powers.index, powers.period());
        let power = |c: usize| powers.get(c as u64);
        let mut next_states: HashMap<State, Vec<u32>> = HashMap::new();
        for ((a, w, nonempty), counts) in &self.states {
            for count in 0..=t + period {
                let qc = power(count);
                let a2 = mul(*a, qc);
                let mut w2 = vec![0u64; words];
                for r in 0..size as Element {
                    // The rest R' is admissible when q^c·R' was, and (for c ≥ 1) heap h's
                    // requirement holds: Φ(G − h) = A·q^(c−1)·R' is bad for h.
                    let before = mul(qc, r) as usize;
                    let mut ok = w[before / 64] >> (before % 64) & 1 == 1;
                    if ok && count >= 1 {
                        let y = mul(mul(*a, power(count - 1)), r);
                        ok = bad[y as usize];
                    }
                    if ok {
                        w2[r as usize / 64] |= 1 << (r % 64);
                    }
                }
                if w2.iter().all(|&x| x == 0) {
                    continue;
                }
                next_states
                    .entry((a2, w2, *nonempty || count >= 1))
                    .or_insert_with(|| {
                        let mut c = counts.clone();
                        c.push(count as u32);
                        c
                    });
                if next_states.len() > max_states {
                    return Err(QuotientError::TooLarge {
                        heap: n,
                        what: "states in the proof's sweep",
                        limit: max_states,
                    });
                }
            }
        }
        self.states = next_states;
        if crate::interrupt::requested() {
            return Err(QuotientError::Interrupted { heap: n });
        }
        Ok(())
    }

    /// A position with a heap, of value outside P, with no option into P, if any: the counts
    /// of the heaps in the order they were added.
    fn failure(&self, in_p: &[bool]) -> Option<&[u32]> {
        self.states
            .iter()
            .find(|((a, w, nonempty), _)| *nonempty && !in_p[*a as usize] && w[0] & 1 == 1)
            .map(|(_, counts)| counts.as_slice())
    }
}

/// The reduced quotient, with generators the images of the heaps that are not products of the
/// images of smaller heaps.
fn finish(system: &HeapSystem, n: usize, c: &Candidate, live: &[usize]) -> MisereQuotient {
    let q = FiniteMonoid::from_action(c.act.clone());
    let (reduced, class) = q.reduce(&c.in_p);
    let p_reduced: Vec<bool> = {
        let mut v = vec![false; reduced.len()];
        for (x, &cl) in class.iter().enumerate() {
            if c.in_p[x] {
                v[cl as usize] = true;
            }
        }
        v
    };
    // Φ(h) in the reduced monoid, for live heaps (dead heaps: the identity).
    let mut image = vec![0 as Element; n + 1];
    for (i, &h) in live.iter().enumerate() {
        image[h] = class[q.times_generator(0, i) as usize];
    }
    // Generators: heap images not in the submonoid generated by the earlier ones.
    let mut generators: Vec<Element> = Vec::new();
    let mut reached: HashSet<Element> = HashSet::from([0]);
    for &h in live {
        if !reached.contains(&image[h]) {
            generators.push(image[h]);
            // Close the reached set under the generators.
            let mut stack: Vec<Element> = reached.iter().copied().collect();
            while let Some(x) = stack.pop() {
                for &g in &generators {
                    let y = reduced.mul(x, g);
                    if reached.insert(y) {
                        stack.push(y);
                    }
                }
            }
        }
    }
    let (monoid, keys) = FiniteMonoid::regenerate(0 as Element, generators.len(), |&x, g| {
        reduced.mul(x, generators[g])
    });
    let mut position = vec![0 as Element; reduced.len()];
    for (i, &x) in keys.iter().enumerate() {
        position[x as usize] = i as Element;
    }
    MisereQuotient {
        game: system.name.clone(),
        n,
        p_portion: keys.iter().map(|&x| p_reduced[x as usize]).collect(),
        heaps: image.iter().map(|&x| position[x as usize]).collect(),
        final_period: None,
        stopped: None,
        lattice: system.lattice_heaps.is_some() && n == system.max_heap(),
        board: None,
        options: system.options[..=n].to_vec(),
        code: system.code.clone(),
        live: match &system.lattice_heaps {
            Some(heaps) if n == system.max_heap() => heaps.clone(),
            _ => live.to_vec(),
        },
        monoid,
    }
}
