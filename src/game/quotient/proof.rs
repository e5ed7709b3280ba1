//! The proof every candidate passes before it is printed: checks (C0)–(C2) of the module header
//! of `quotient`, with the (C2) sweep over the heaps; a failed check names a concrete position.

use rustc_hash::FxHashMap;

use super::{generator_names, Candidate, Powers, Products, QuotientError};
use crate::algebra::monoid::{Element, FiniteMonoid};

/// A candidate that failed its proof: the check that failed and, when the candidate has
/// representatives, positions that show it.
pub(super) struct Failure {
    pub(super) reason: String,
    pub(super) witness: Option<Witness>,
}

/// Positions (count vectors) a failed check names; at least one of them is predicted wrongly.
pub(super) enum Witness {
    /// (C1): G is predicted to be a P-position, and so is its option.
    OptionInP {
        position: Vec<u16>,
        option: Vec<u16>,
    },
    /// (C2): G is predicted outside P, and none of its options in P.
    NoOptionIntoP { position: Vec<u16> },
}

/// Checks (C0)–(C2) of the module header; `Ok(Err(failure))` when a check fails.
pub(super) fn prove(
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
    let mut slot = vec![None; n + 1];
    for (i, &h) in live.iter().enumerate() {
        slot[h] = Some(i);
    }
    let heap = |h: usize| -> Element {
        match slot[h] {
            Some(i) => c.act[0][i],
            None => 0,
        }
    };
    // Words of elements are only needed to say why a check failed.
    let word = |x: Element| {
        let q = FiniteMonoid::from_action(c.act.clone());
        FiniteMonoid::word(q.normal_form(x), &generator_names(k))
    };
    let products = Products::of_action(&c.act);
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
                        word(y)
                    ),
                    witness,
                }));
            }
        };
        sweep.add_heap(&products, heap(h), &bad, max_states, n)?;
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
                word(a)
            ),
            witness: plus(0, &heaps).map(|position| Witness::NoOptionIntoP { position }),
        }));
    }
    Ok(Ok(sweep))
}

/// Φ of an option (a list of heaps).
pub(super) fn of_parts(
    mul: &dyn Fn(Element, Element) -> Element,
    heap: &dyn Fn(usize) -> Element,
    parts: &[usize],
) -> Element {
    parts.iter().fold(0, |x, &p| mul(x, heap(p)))
}

/// (C1) for one heap h of image `qh` whose options have the images `images`: `Err(y)` when a
/// position G with Φ(G − h) = y is in P while an option of h lands in P; otherwise the row
/// bad[y]: no option of h from such a G lands in P.
pub(super) fn bad_row(
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

/// {r < size : image(r) ∈ set} into `out` (bitsets of 64 elements a word), a word at a time
/// without branches: the sweeps and the recalibration walk spend most of their time here.
pub(super) fn preimage_bits(
    size: usize,
    image: impl Fn(usize) -> usize,
    set: &[u64],
    out: &mut [u64],
) {
    for (i, word) in out.iter_mut().enumerate() {
        let base = i * 64;
        let mut bits = 0u64;
        for r in base..size.min(base + 64) {
            let y = image(r);
            bits |= (set[y >> 6] >> (y & 63) & 1) << (r - base);
        }
        *word = bits;
    }
}

/// A state of the (C2) sweep: the value A of the heaps so far, the set W ⊆ Q (a bitset) of
/// values the rest may still take with every heap so far keeping its requirement, and whether
/// some heap was taken.
pub(super) type State = (Element, Vec<u64>, bool);

/// The (C2) sweep over the heaps, one heap at a time (see the module header). Each state keeps
/// the counts of the heaps taken so far (in the order they were added) of the first position
/// that reached it, so a failure names a concrete position.
#[derive(Clone, Debug)]
pub(super) struct Sweep {
    size: usize,
    states: FxHashMap<State, Vec<u32>>,
}

impl Sweep {
    pub(super) fn new(size: usize) -> Sweep {
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
            states: FxHashMap::from_iter([((0, full, false), Vec::new())]),
        }
    }

    /// Takes in a heap of image `qh` whose requirement is `bad` (from [`bad_row`]).
    ///
    /// For a state (A, W) and a count c of the heap, the new state is (A·q^c, W') with
    /// W' = {r : q^c·r ∈ W} ∩ {r : A·q^(c−1)·r is bad} (the second set only for c ≥ 1). The
    /// second set depends on y = A·q^(c−1) alone and is kept per y as a bitset, so each new
    /// state costs one pass over Q for the first set and a word-wise AND.
    pub(super) fn add_heap(
        &mut self,
        products: &Products,
        qh: Element,
        bad: &[bool],
        max_states: usize,
        n: usize,
    ) -> Result<(), QuotientError> {
        let size = self.size;
        let words = size.div_ceil(64);
        let mul = |x: Element, y: Element| products.mul(x, y);
        // Counts 0..=t+p cover every type of (q^c, q^(c−1)).
        let powers = Powers::of(&mul, qh);
        let (t, period) = (powers.index, powers.period());
        let power = |c: usize| powers.get(c as u64);
        // The rows q^c·Q, c = 0..=t+p, serve every state.
        let rows: Vec<std::borrow::Cow<'_, [Element]>> =
            (0..=t + period).map(|c| products.row(power(c))).collect();
        let mut bad_bits = vec![0u64; words];
        for (r, _) in bad.iter().enumerate().filter(|(_, &b)| b) {
            bad_bits[r / 64] |= 1 << (r % 64);
        }
        let mut bad_from: FxHashMap<Element, Vec<u64>> = FxHashMap::default();
        // {r : q^c·r ∈ W} for the (c, W) met so far: many states share their W.
        let mut preimages: FxHashMap<(Element, &[u64]), Vec<u64>> = FxHashMap::default();
        let mut next_states: FxHashMap<State, Vec<u32>> = FxHashMap::default();
        let mut w2 = vec![0u64; words];
        for (polled, ((a, w, nonempty), counts)) in self.states.iter().enumerate() {
            if polled % 1024 == 1023 && crate::interrupt::requested() {
                return Err(QuotientError::Interrupted { heap: n });
            }
            for (count, row) in rows.iter().enumerate() {
                let qc = power(count);
                // {r : q^c·r ∈ W}.
                let pre = preimages.entry((qc, w.as_slice())).or_insert_with(|| {
                    let mut bits = vec![0u64; words];
                    preimage_bits(size, |r| row[r] as usize, w, &mut bits);
                    bits
                });
                w2.copy_from_slice(pre);
                if count >= 1 {
                    let y = mul(*a, power(count - 1));
                    let allowed = bad_from.entry(y).or_insert_with(|| {
                        let mut bits = vec![0u64; words];
                        let row = products.row(y);
                        preimage_bits(size, |r| row[r] as usize, &bad_bits, &mut bits);
                        bits
                    });
                    for (x, b) in w2.iter_mut().zip(allowed.iter()) {
                        *x &= b;
                    }
                }
                if w2.iter().all(|&x| x == 0) {
                    continue;
                }
                let a2 = mul(*a, qc);
                let key = (a2, w2.clone(), *nonempty || count >= 1);
                next_states.entry(key).or_insert_with(|| {
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
    pub(super) fn failure(&self, in_p: &[bool]) -> Option<&[u32]> {
        self.states
            .iter()
            .find(|((a, w, nonempty), _)| *nonempty && !in_p[*a as usize] && w[0] & 1 == 1)
            .map(|(_, counts)| counts.as_slice())
    }
}
