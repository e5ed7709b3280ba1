//! Sprague–Grundy values of octal and hexadecimal heap games, straight from the code's digits
//! (Berlekamp–Conway–Guy, *Winning Ways*, ch. 4; [GM09] Example 2.5 is the same game as a lattice
//! game). g(h) is the mex of the values of the options of a heap of size h, and the value of an
//! option that leaves heaps a, b, … is g(a) ⊕ g(b) ⊕ … .
//!
//! Digit d_k of d0.d1d2… lets k beans be taken leaving no heap (bit 1, only when k = h), one
//! nonempty heap (bit 2), two (bit 4) or three (bit 8) nonempty heaps. Heap h therefore costs, per
//! digit with bit 4, one pass over the splits a + b = h − k (a ≤ b), and per digit with bit 8 one
//! pass over the smallest part a ≤ (h − k)/3 against the set X(s) of values g(b) ⊕ g(c) of the
//! splits b + c = s, kept as a bitset per s: O(n²) for heaps 0..n in all (O(n²·V/64) with bit 8,
//! V the largest value), with no list of options ever built. The mex uses a stamped table, so no
//! per-heap clearing. When few heaps have *rare* values (see [`RareCommon`]), the two-heap splits
//! are read through those heaps first, which is near-linear on games such as 0.16.

use super::heap::HeapCode;

mod general;

/// Below one heap in this many with a rare value, the two-heap splits are read through the rare
/// heaps first (more rare heaps and the scattered reads, with the walks when the mex is rare, cost
/// more than reading every split in order: measured on 0.07, 0.137, 0.16 and 0.77).
const RARE_SHARE: usize = 64;

/// Why the values were not computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GrundyError {
    /// The user pressed Ctrl-C, or a time limit passed.
    #[error("interrupted after heap size {done}")]
    Interrupted {
        /// The values of heaps 0..done were computed.
        done: usize,
    },
    /// The tables would not fit in the memory allowed.
    #[error("the Grundy values of heaps up to {n} need about {needed} MiB, more than the {allowed} MiB allowed")]
    TooLarge {
        /// The largest heap asked for.
        n: usize,
        /// The estimate, in MiB.
        needed: u64,
        /// The budget, in MiB.
        allowed: u64,
    },
    /// The options of the heaps would take too long to enumerate (codes such as `{2+}.0`, whose
    /// options are the partitions of the heap).
    #[error("the heaps up to size {heap} may already have more than {limit} options in all, too many to enumerate")]
    TooManyOptions {
        /// The heap at which the bound on the options passes the limit.
        heap: usize,
        /// The limit on the options enumerated.
        limit: u128,
    },
}

/// The Sprague–Grundy values g(0), …, g(n) of a take-and-break code in normal play.
/// `progress(h, n)` is called now and then; `max_bytes` bounds the tables (the three-heap bitsets
/// grow with the values, so they are checked as they grow). Plain octal and hexadecimal codes
/// (repeating ones included) take the fast path below; codes with modifiers or more than three
/// parts enumerate their options (see [`general`]).
pub fn octal_values(
    code: &HeapCode,
    n: usize,
    max_bytes: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<u32>, GrundyError> {
    if code.octal_digits(n).is_none() {
        return general::values(code, n, max_bytes, progress);
    }
    values_with(code, n, max_bytes, progress, true).map(|(g, _)| g)
}

/// [`octal_values`], reading the rare heaps first only when `allow_sparse`; also returns how many
/// heaps were computed that way.
fn values_with(
    code: &HeapCode,
    n: usize,
    max_bytes: u64,
    progress: &mut dyn FnMut(usize, usize),
    allow_sparse: bool,
) -> Result<(Vec<u32>, usize), GrundyError> {
    let mut sparse_heaps = 0usize;
    let digits = code
        .octal_digits(n)
        .expect("a plain octal or hexadecimal code");
    let three = digits.iter().any(|d| d & 8 != 0);
    let base = (n as u64 + 1) * 4;
    if base > max_bytes {
        return Err(too_large(n, base, max_bytes));
    }
    let mut g: Vec<u32> = Vec::with_capacity(n + 1);
    // seen[v] == stamp: value v is the value of some option of the current heap.
    let mut seen: Vec<u32> = vec![0; 64];
    let mut stamp = 0u32;
    // pairs[s]: the values g(b) ⊕ g(c), b + c = s, b, c ≥ 1, as bitsets of `words` words.
    let mut pairs: Vec<Vec<u64>> = Vec::new();
    let mut words = 1usize;
    let mut largest = 0u32;
    let mut split = RareCommon::default();
    for h in 0..=n {
        // Every heap (a heap of the three-heap games can take a good fraction of a second).
        if (three || h % 64 == 0) && crate::interrupt::requested() {
            return Err(GrundyError::Interrupted { done: h });
        }
        if h % 4096 == 0 || (three && h % 64 == 0) {
            progress(h, n);
        }
        stamp += 1;
        let mark = |v: u32, seen: &mut Vec<u32>| {
            let v = v as usize;
            if v >= seen.len() {
                seen.resize((v + 1).next_power_of_two(), 0);
            }
            seen[v] = stamp;
        };
        // Every XOR of values so far lies below cap (a power of two).
        let cap = (largest as usize + 1).next_power_of_two();
        if seen.len() < cap {
            seen.resize(cap, 0);
        }
        // When rare values are not rare, the split saves nothing: every two-heap split is read.
        let sparse = allow_sparse && split.rare_positions.len() * RARE_SHARE < h;
        sparse_heaps += usize::from(sparse);
        // Taking moves, three-heap splits, and the two-heap splits with a rare part.
        for (k, &d) in digits.iter().enumerate().take(h + 1) {
            if d == 0 {
                continue;
            }
            let rest = h - k;
            if d & 1 != 0 && rest == 0 && k > 0 {
                mark(0, &mut seen);
            }
            if d & 2 != 0 && rest > 0 && k > 0 {
                mark(g[rest], &mut seen);
            }
            if d & 4 != 0 && rest >= 2 {
                if sparse {
                    for &i in split.rare_positions.iter().take_while(|&&i| i < rest) {
                        mark(g[i] ^ g[rest - i], &mut seen);
                    }
                } else {
                    // Every split a + b = rest, a ≤ b: g[1..] against g[..rest] backwards. The
                    // values all lie below `cap`, which `seen` covers (no check per split).
                    mark_all_splits(&mut seen[..cap], &g, rest, stamp);
                }
            }
            if d & 8 != 0 && rest >= 3 {
                for a in 1..=rest / 3 {
                    let ga = g[a];
                    for (w, &bits) in pairs[rest - a].iter().enumerate() {
                        let mut bits = bits;
                        while bits != 0 {
                            let x = (w * 64) as u32 + bits.trailing_zeros();
                            mark(ga ^ x, &mut seen);
                            bits &= bits - 1;
                        }
                    }
                }
            }
        }
        let mex = |seen: &Vec<u32>, from: u32| {
            (from..)
                .find(|&v| seen.get(v as usize).is_none_or(|&s| s != stamp))
                .expect("a mex exists")
        };
        let mut value = mex(&seen, 0);
        // A common value cannot come from two common parts, so it is the mex already; otherwise
        // walk all two-heap splits until the mex is common or every split has been seen.
        if sparse && !split.is_common(value) {
            'splits: for (k, &d) in digits.iter().enumerate().take(h + 1) {
                let rest = h - k;
                if d & 4 == 0 || rest < 2 {
                    continue;
                }
                let half = rest / 2;
                for (x, y) in g[1..=half].iter().zip(g[rest - half..rest].iter().rev()) {
                    let x = x ^ y;
                    seen[(x as usize) & (cap - 1)] = stamp;
                    if x == value {
                        value = mex(&seen, value);
                        if split.is_common(value) {
                            break 'splits;
                        }
                    }
                }
            }
        }
        g.push(value);
        largest = largest.max(value);
        split.record(&g);
        if three {
            // X(h) from g(1..h−1), for the three-heap options of larger heaps.
            let needed_words = (((largest as usize + 1).next_power_of_two()).max(64)) / 64;
            if needed_words > words {
                for p in &mut pairs {
                    p.resize(needed_words, 0);
                }
                words = needed_words;
            }
            let bytes = base + (h as u64 + 1) * words as u64 * 8;
            if bytes > max_bytes {
                return Err(too_large(
                    n,
                    base + (n as u64 + 1) * words as u64 * 8,
                    max_bytes,
                ));
            }
            let mut set = vec![0u64; words];
            for b in 1..=h / 2 {
                let x = (g[b] ^ g[h - b]) as usize;
                set[x / 64] |= 1 << (x % 64);
            }
            pairs.push(set);
        }
    }
    progress(n, n);
    Ok((g, sparse_heaps))
}

/// A split of the values into *common* ones C, no two of which XOR to a third (so C ⊕ C misses
/// C; 0 is never common), and *rare* ones R, with the heaps whose values are rare. A two-heap
/// option has a common value only when one of its parts has a rare value, so those options, from
/// the short list of rare heaps, decide every common value; only when the mex so found is rare
/// must all splits be walked (the "rare and common values" idea behind fast octal solvers, as in
/// Flammenkamp's and Gangolli–Plambeck's sparse-space computations). The split is rebuilt from
/// the values' frequencies, most frequent first, whenever the number of heaps doubles.
#[derive(Default)]
struct RareCommon {
    /// 0 unclassified, 1 common, 2 rare, by value.
    class: Vec<u8>,
    common: Vec<u32>,
    counts: Vec<u64>,
    /// The heaps h ≥ 1 with rare values, increasing.
    rare_positions: Vec<usize>,
}

impl RareCommon {
    /// Whether v is common, classifying it now (as common when C stays XOR-free) if it is new.
    fn is_common(&mut self, v: u32) -> bool {
        let i = v as usize;
        if i >= self.class.len() {
            self.class.resize(i + 1, 0);
        }
        if self.class[i] == 0 {
            let free = v != 0
                && self
                    .common
                    .iter()
                    .all(|&c| self.class.get((v ^ c) as usize).is_none_or(|&k| k != 1));
            self.class[i] = if free { 1 } else { 2 };
            if free {
                self.common.push(v);
            }
        }
        self.class[i] == 1
    }

    /// Takes in the value of the newest heap g[h]; rebuilds the split when h is a power of two.
    fn record(&mut self, g: &[u32]) {
        let h = g.len() - 1;
        let v = g[h];
        if v as usize >= self.counts.len() {
            self.counts.resize(v as usize + 1, 0);
        }
        self.counts[v as usize] += 1;
        if h >= 64 && h.is_power_of_two() {
            let mut order: Vec<u32> = (0..self.counts.len() as u32).collect();
            order.sort_by_key(|&x| (std::cmp::Reverse(self.counts[x as usize]), x));
            self.class.clear();
            self.common.clear();
            for x in order {
                self.is_common(x);
            }
            self.rare_positions = (1..=h).filter(|&i| !self.is_common(g[i])).collect();
        } else if h >= 1 && !self.is_common(v) {
            self.rare_positions.push(h);
        }
    }
}

/// Marks g(a) ⊕ g(b) for every split a + b = rest (1 ≤ a ≤ b) in `table`, whose length is a power
/// of two above every value: g[1..] against g[..rest] backwards, one store per split. Kept apart
/// so that it compiles to a tight loop whatever surrounds it.
#[inline(never)]
fn mark_all_splits(table: &mut [u32], g: &[u32], rest: usize, stamp: u32) {
    let mask = table.len() - 1;
    let half = rest / 2;
    for (x, y) in g[1..=half].iter().zip(g[rest - half..rest].iter().rev()) {
        table[((x ^ y) as usize) & mask] = stamp;
    }
}

/// The minimal excludant: the least value ≥ 0 not among `values`.
pub fn mex(values: impl IntoIterator<Item = u64>) -> u64 {
    let mut v: Vec<u64> = values.into_iter().collect();
    v.sort_unstable();
    v.dedup();
    v.iter()
        .enumerate()
        .find(|(k, x)| *k as u64 != **x)
        .map_or(v.len() as u64, |(k, _)| k as u64)
}

fn too_large(n: usize, needed: u64, allowed: u64) -> GrundyError {
    GrundyError::TooLarge {
        n,
        needed: needed.div_ceil(1 << 20),
        allowed: allowed >> 20,
    }
}

#[cfg(test)]
mod tests;
