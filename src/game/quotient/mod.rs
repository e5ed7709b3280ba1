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

mod answers;
mod by_heap;
mod heaps;
mod lattice;
mod learn;
mod proof;
mod recalibrate;
#[cfg(test)]
mod tests;

pub use answers::{HeapSumAnswers, QuotientOracle};
pub use by_heap::{
    final_period, quotients_by_heap, quotients_by_heap_watched, HeapStep, QuotientRun,
};
pub use heaps::HeapSystem;
pub use lattice::{lattice_quotient, normal_semigroup_relations, ConeBoard, LatticeQuotientError};

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::algebra::monoid::{generator_names, Element, FiniteMonoid};
use learn::Outcomes;
use proof::{bad_row, of_parts, prove, Sweep};

/// A candidate tried for a heap bound not yet proved, as reported while the bound is worked on
/// (for a progress display: at the frontier one bound can take minutes, and what MisereSolver
/// prints there, each trial's order and least failure, says whether the search is closing in).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trial {
    /// A round of recalibration: the trial quotient, reduced, and the least position it
    /// predicts wrongly (none for the trial whose proof passed).
    Recalibrated {
        /// The heap bound worked on.
        heap: usize,
        /// The round, from 1.
        round: usize,
        /// |Q| of the reduced trial.
        order: usize,
        /// The least position predicted wrongly (colexicographically: the largest heap most
        /// significant), as its heap sizes in increasing order with repetition, and whether it
        /// is truly a P-position.
        failure: Option<(Vec<usize>, bool)>,
    },
    /// Learning from exact outcomes: a candidate being built from the test positions so far,
    /// which tell its classes apart.
    Learning {
        /// The heap bound worked on.
        heap: usize,
        /// The classes of the last candidate, which the proof refuted (none before the first).
        classes: Option<usize>,
        /// The test positions so far.
        tests: usize,
    },
}

impl fmt::Display for Trial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Trial::Recalibrated {
                round,
                order,
                failure,
                ..
            } => {
                write!(f, "trial {round}, |Q| = {order}")?;
                if let Some((heaps, is_p)) = failure {
                    let sum: Vec<String> = heaps.iter().map(|h| h.to_string()).collect();
                    let truth = if *is_p { "a P" } else { "an N" };
                    write!(f, ", wrong at {} ({truth}-position)", sum.join(" + "))?;
                }
                Ok(())
            }
            Trial::Learning { classes, tests, .. } => {
                write!(f, "learning from exact outcomes, {tests} test positions")?;
                match classes {
                    Some(c) => write!(f, "; the last candidate, {c} classes, was refuted"),
                    None => Ok(()),
                }
            }
        }
    }
}

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
        // Counted first, so a million heaps cost one power per distinct size.
        let mut counts: std::collections::BTreeMap<usize, u64> = Default::default();
        for &h in heaps {
            *counts.entry(h).or_default() += 1;
        }
        let mul = |x: Element, y: Element| self.monoid.mul(x, y);
        let mut x = 0;
        for (h, c) in counts {
            if c == 1 {
                x = self.monoid.mul(x, self.heap_image(h)?);
            } else {
                x = self
                    .monoid
                    .mul(x, Powers::of(&mul, self.heap_image(h)?).get(c));
            }
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
            let i = rest.iter().position(|&k| k == h)?;
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

impl MisereQuotient {
    /// The presentation, the P-portion and Φ in LaTeX, as [Guo11] §8 and Plambeck–Siegel write
    /// them: `\mathcal{Q} = ⟨generators | relations⟩` and `\mathcal{P} = {…}`.
    pub fn latex(&self) -> String {
        let names = self.names();
        let presentation = latex_words(&self.monoid.presentation(&names));
        let p = latex_words(&self.p_words().join(", "));
        let mut lines = vec![
            format!(
                "\\mathcal{{Q}} = {presentation}, \\quad |\\mathcal{{Q}}| = {}",
                self.order()
            ),
            format!(
                "\\mathcal{{P}} = \\{{{p}\\}}, \\quad |\\mathcal{{P}}| = {}",
                self.p_count()
            ),
        ];
        if !self.lattice {
            let phi: Vec<String> = (0..=self.n)
                .map(|h| latex_words(&self.word(self.heaps[h])))
                .collect();
            lines.push(format!(
                "\\Phi(0), \\ldots, \\Phi({}) = {}",
                self.n,
                phi.join(",\\ ")
            ));
            if let Some((n0, p)) = self.final_period {
                lines.push(format!(
                    "\\text{{final: }} \\Phi(h + {p}) = \\Phi(h) \\text{{ for every }} h \\ge {n0}"
                ));
            }
        }
        if self.stopped.is_some() {
            lines.push(format!("\\text{{proved for heaps up to {} only}}", self.n));
        }
        format!(
            "\\begin{{gathered}} {} \\end{{gathered}}",
            lines.join(" \\\\ ")
        )
    }
}

/// Words and presentations as printed (`⟨a, b | a² = 1⟩`) in LaTeX: exponents as superscripts,
/// the angle brackets and the bar as LaTeX symbols.
fn latex_words(text: &str) -> String {
    const SUPERSCRIPTS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let mut out = String::new();
    let mut exponent = String::new();
    for c in text.chars() {
        if let Some(d) = SUPERSCRIPTS.iter().position(|&s| s == c) {
            exponent.push(char::from(b'0' + d as u8));
            continue;
        }
        if !exponent.is_empty() {
            out.push_str(&format!("^{{{exponent}}}"));
            exponent.clear();
        }
        match c {
            '⟨' => out.push_str("\\langle "),
            '⟩' => out.push_str(" \\rangle"),
            '|' => out.push_str("\\mid"),
            _ => out.push(c),
        }
    }
    if !exponent.is_empty() {
        out.push_str(&format!("^{{{exponent}}}"));
    }
    out
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
#[derive(Clone, Debug)]
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

/// The most entries a multiplication table of the quotient search may have: 64 MiB of elements,
/// a monoid of 4096.
pub(super) const MAX_TABLE_ENTRIES: usize = 1 << 24;

/// Products in Q, from a multiplication table (x·y at x·|Q| + y) when it takes at most 64 MiB
/// (|Q| up to 4096): the sweeps multiply millions of times, and a product from normal forms
/// costs a word's length. The table costs one lookup per entry (`multiplication_table`).
struct Products<'a> {
    act: &'a [Vec<Element>],
    table: Option<Vec<Element>>,
    /// Breadth first from the identity (y, y', g) with y = y'·g: a whole row x·Q in one lookup
    /// per entry, and past the table's size a product along the parents.
    order: Vec<(Element, Element, usize)>,
    /// The position of each element in `order` (the identity: none).
    place: Vec<u32>,
}

impl<'a> Products<'a> {
    fn new(q: &'a FiniteMonoid) -> Products<'a> {
        Products::of_action(q.action())
    }

    /// The products of the monoid of an action table (every element reachable from 0), without
    /// its normal forms.
    fn of_action(act: &'a [Vec<Element>]) -> Products<'a> {
        let size = act.len();
        let order = crate::algebra::monoid::breadth_first(act);
        let mut place = vec![u32::MAX; size];
        for (i, &(y, _, _)) in order.iter().enumerate() {
            place[y as usize] = i as u32;
        }
        let mut products = Products {
            act,
            table: None,
            order,
            place,
        };
        if size * size <= MAX_TABLE_ENTRIES {
            let mut table = vec![0 as Element; size * size];
            for (x, row) in table.chunks_mut(size.max(1)).enumerate().take(size) {
                crate::algebra::monoid::row_into(act, x as Element, &products.order, row);
            }
            products.table = Some(table);
        }
        products
    }

    fn mul(&self, x: Element, y: Element) -> Element {
        match &self.table {
            Some(t) => t[x as usize * self.act.len() + y as usize],
            None => {
                // x·y along y's parents: y = g_1 g_2 … g_m, applied from the identity out.
                let mut path = Vec::new();
                let mut z = y;
                while z != 0 {
                    let (_, before, g) = self.order[self.place[z as usize] as usize];
                    path.push(g);
                    z = before;
                }
                path.iter().rev().fold(x, |x, &g| self.act[x as usize][g])
            }
        }
    }

    /// The row x·y for y = 0..|Q|: a slice of the table, or computed (one lookup an entry).
    fn row(&self, x: Element) -> std::borrow::Cow<'_, [Element]> {
        let n = self.act.len();
        match &self.table {
            Some(t) => std::borrow::Cow::Borrowed(&t[x as usize * n..(x as usize + 1) * n]),
            None => {
                let mut row = vec![0; n];
                crate::algebra::monoid::row_into(self.act, x, &self.order, &mut row);
                std::borrow::Cow::Owned(row)
            }
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
        // Every type vector may be an offset of d coordinates.
        let per_type = (d * std::mem::size_of::<crate::algebra::Integer>() + 96) as u128;
        if let Err(e) = crate::memory::check((types * per_type) as u64, || {
            format!("the {types} type vectors of the stratification")
        }) {
            return Some(Err(e.into()));
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
                    sweep.add_heap(&products, old(h), &bad, self.limits.max_states, n)?;
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
                    .any(|&t| last.p_portion[mul(y, t) as usize])
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
            if (0..size).any(|y| into_p[y as usize] && last.p_portion[mul(y, x) as usize]) {
                continue;
            }
            let bad: Vec<bool> = into_p.iter().map(|&b| !b).collect();
            let mut sweep = base.clone();
            if !options[n].is_empty() {
                sweep.add_heap(&products, x, &bad, self.limits.max_states, n)?;
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
        self.quotient_watched(n, &mut |_| {})
    }

    /// [`QuotientSolver::quotient`], calling `watch` with each candidate tried by
    /// recalibration or learning before the proved one.
    pub fn quotient_watched(
        &mut self,
        n: usize,
        watch: &mut dyn FnMut(&Trial),
    ) -> Result<MisereQuotient, QuotientError> {
        let q = match self.conservative(n)? {
            Some(q) => q,
            None => match self.new_generator(n)? {
                Some(q) => q,
                None => match self.recalibrated(n, watch)? {
                    Some(q) => q,
                    None => self.learn(n, watch)?,
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
            let mut memo: rustc_hash::FxHashMap<Vec<usize>, bool> = Default::default();
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
                                (c * size) as Element + mul(y as Element, last.heaps[h])
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
    fn recalibrated(
        &self,
        n: usize,
        watch: &mut dyn FnMut(&Trial),
    ) -> Result<Option<MisereQuotient>, QuotientError> {
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
            watch,
        )
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

impl Candidate {
    /// The element of a position (a count vector): the empty class moved by its live heaps,
    /// `slot[h]` being heap h's index among the live heaps.
    fn element(&self, slot: &[Option<usize>], g: &[u16]) -> Element {
        g.iter()
            .enumerate()
            .fold(0, |x, (h, &count)| match slot.get(h).copied().flatten() {
                Some(i) => (0..count).fold(x, |x, _| self.act[x as usize][i]),
                None => x,
            })
    }
}

/// The options of a position (count vectors), heap by heap in increasing order.
fn option_positions(options: &[Vec<Vec<usize>>], g: &[u16]) -> Vec<Vec<u16>> {
    let mut out = Vec::new();
    for (h, &count) in g.iter().enumerate() {
        if count == 0 || h >= options.len() {
            continue;
        }
        for pi in &options[h] {
            let mut o = g.to_vec();
            o[h] -= 1;
            for &part in pi {
                o[part] += 1;
            }
            out.push(o);
        }
    }
    out
}

/// Whether G + c heaps n is a P-position, for G a sorted list of heaps below n: none of G's
/// options is (recursively), and `heap_n_into_p(G)` says no option of a heap n lands in P
/// (c ≥ 1, so there is a move). `TooLarge` past 2^20 positions.
fn p_with_heaps_n(
    g: &[usize],
    memo: &mut rustc_hash::FxHashMap<Vec<usize>, bool>,
    options: &[Vec<Vec<usize>>],
    heap_n_into_p: &dyn Fn(&[usize]) -> bool,
) -> Result<bool, QuotientError> {
    if let Some(&p) = memo.get(g) {
        return Ok(p);
    }
    if memo.len() % 4096 == 4095 && crate::interrupt::requested() {
        return Err(QuotientError::Interrupted { heap: 0 });
    }
    const MAX_POSITIONS: usize = 1 << 16;
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

/// The reduced quotient, with generators the images of the heaps that are not products of the
/// images of smaller heaps.
fn finish(system: &HeapSystem, n: usize, c: &Candidate, live: &[usize]) -> MisereQuotient {
    let (reduced, class) = crate::algebra::monoid::reduce_action(&c.act, &c.in_p);
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
        image[h] = class[c.act[0][i] as usize];
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
