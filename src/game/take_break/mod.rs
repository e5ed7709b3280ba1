//! Take-and-break codes as CGSuite writes them (Berlekamp–Conway–Guy, *Winning Ways*, ch. 4;
//! CGSuite's `TakeAndBreak`): d0.d1d2…, where digit d_j says in how many nonempty heaps the rest
//! of a heap may be left after j tokens are taken. A digit of value v = Σ e_i 2^i allows exactly
//! the counts i with e_i = 1 (count 0 only when no tokens are left).
//!
//! - Digits 0–9 and A–Z (or a–z) stand for 0–35; `{2,3}` lists counts, `{2+}` means every count ≥ 2.
//! - A modifier after a digit restricts the parts of moves that leave two or more heaps: `!`
//!   pairwise unequal, `?` not all equal, `=` all equal (`4!.0` is Grundy's game). Moves leaving
//!   no heap or one heap are not restricted (so `3!` is `3`, as in CGSuite).
//! - `[..]` around the final digits repeats them forever (`0.[3]` is Nim).
//! - d0 (the digit just before the point) splits a heap without taking tokens: it may only allow
//!   counts ≥ 2. Digits before d0 would *add* tokens, so heap sizes would not be bounded by the
//!   start position and the game is not a lattice game on finitely many heap sizes: refused.
//!
//! Heap games are lattice games ([GM09] Examples 2.1, 2.5): a move replaces a heap of size h by
//! heaps a_1, …, a_r with Σ a_i ≤ h (and r ≥ 2 when nothing is taken), the vector
//! e_h − Σ e_{a_i}; h² is then a positive functional, which is why every such code gives a rule set.

mod parse;
#[cfg(test)]
mod tests;

use std::fmt;

pub use parse::CodeError;

/// The largest heap count a digit may list explicitly (`{..}` entries and the bits of A–Z).
pub const MAX_COUNT: u32 = 63;

/// How the parts of one move must compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Modifier {
    /// No restriction.
    Plain,
    /// `!`: pairwise unequal.
    Distinct,
    /// `?`: not all equal.
    NotAllEqual,
    /// `=`: all equal.
    AllEqual,
}

/// One digit: the heap counts allowed after taking j tokens, and how the parts compare.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Digit {
    /// Bit i: leaving exactly i nonempty heaps is allowed (i ≤ 63).
    counts: u64,
    /// Every count ≥ this one is allowed too (`{k+}`), if any.
    from: Option<u32>,
    modifier: Modifier,
    /// How the digit was written, for printing the code back.
    text: String,
}

impl Digit {
    /// Whether leaving `r` nonempty heaps is allowed.
    pub fn allows(&self, r: usize) -> bool {
        (r < 64 && self.counts >> r & 1 == 1) || self.from.is_some_and(|k| r >= k as usize)
    }

    /// The largest count allowed (0 when none), `None` with `{k+}`.
    pub fn largest_count(&self) -> Option<usize> {
        if self.from.is_some() {
            return None;
        }
        Some(64 - self.counts.leading_zeros() as usize).map(|b| b.saturating_sub(1))
    }

    /// Whether no count is allowed.
    pub fn is_zero(&self) -> bool {
        self.counts == 0 && self.from.is_none()
    }

    /// The modifier.
    pub fn modifier(&self) -> Modifier {
        self.modifier
    }

    /// The digit as an octal/hexadecimal bit mask (bit i: i heaps), when it is plain and allows
    /// no count above 3.
    pub fn plain_mask(&self) -> Option<u8> {
        (self.modifier == Modifier::Plain && self.from.is_none() && self.counts < 16)
            .then_some(self.counts as u8)
    }
}

/// A take-and-break code d0.d1d2…, possibly with a repeating tail.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HeapCode {
    /// d0, d1, …, then the repeating digits (from index `repeat`) if any.
    digits: Vec<Digit>,
    /// The index of the first repeating digit.
    repeat: Option<usize>,
    /// The code as written (trimmed).
    text: String,
}

impl HeapCode {
    /// Parses a code; errors name the offending character (1-based) and say what would be right.
    pub fn parse(code: &str) -> Result<HeapCode, CodeError> {
        parse::parse(code)
    }

    /// The digit for taking j tokens (d_j), repeating the bracketed tail.
    pub fn digit(&self, j: usize) -> Option<&Digit> {
        if j < self.digits.len() {
            return Some(&self.digits[j]);
        }
        let r = self.repeat?;
        let period = self.digits.len() - r;
        Some(&self.digits[r + (j - self.digits.len()) % period])
    }

    /// Whether the code repeats forever.
    pub fn is_repeating(&self) -> bool {
        self.repeat.is_some()
    }

    /// (m, q) for a repeating code: d_{j+q} = d_j for every j > m (the digits after d_m are the
    /// bracketed ones, repeated); `None` for a finite code.
    pub fn repeating_tail(&self) -> Option<(usize, usize)> {
        let r = self.repeat?;
        Some((r - 1, self.digits.len() - r))
    }

    /// The number of digits written (d0 included), the repeating ones once.
    pub fn written_len(&self) -> usize {
        self.digits.len()
    }

    /// The position of the last nonzero digit when the code does not repeat (t in the octal
    /// periodicity theorem); `None` for repeating codes.
    pub fn last_nonzero(&self) -> Option<usize> {
        if self.repeat.is_some() {
            return None;
        }
        self.digits.iter().rposition(|d| !d.is_zero())
    }

    /// The bit masks d_0, …, d_n of a plain octal/hexadecimal code (no modifiers, no count
    /// above 3), `None` otherwise: the input of the fast Grundy computation.
    pub fn octal_digits(&self, n: usize) -> Option<Vec<u8>> {
        let len = if self.repeat.is_some() {
            n + 1
        } else {
            self.digits.len().min(n + 1)
        };
        (0..len)
            .map(|j| self.digit(j).expect("within the code").plain_mask())
            .collect()
    }

    /// An upper bound on the number of options of the heaps 1..=n together, or the first heap
    /// at which the running total passes `limit` (so that listing them can be refused before it
    /// starts). A heap h has at most (number of nonzero digits d_j, j ≤ h) × (partitions of h
    /// into at most R parts) options, R the largest count allowed (h for `{k+}`); the partition
    /// numbers p(m, r) = p(m − 1, r − 1) + p(m − r, r) are built row by row up to where the bound
    /// stops.
    pub fn option_bound(&self, n: usize, limit: u128) -> Result<u128, usize> {
        let largest = (0..=n)
            .map_while(|j| self.digit(j))
            .try_fold(0usize, |acc, d| d.largest_count().map(|c| acc.max(c)));
        let mut rows: Vec<Vec<u128>> = vec![vec![1]]; // rows[m][r] = p(m, r), r ≤ min(m, R)
        let (mut nonzero, mut total) = (0u128, 0u128);
        for h in 0..=n {
            if self.digit(h).is_some_and(|d| !d.is_zero()) {
                nonzero += 1;
            }
            if h == 0 {
                continue;
            }
            let cap = largest.map_or(h, |r| r.min(h));
            let mut row = vec![0u128; cap + 1];
            for (r, slot) in row.iter_mut().enumerate().skip(1) {
                let a = rows[h - 1].get(r - 1).copied().unwrap_or(0);
                let b = rows[h - r].get(r).copied().unwrap_or(0);
                *slot = a.saturating_add(b);
            }
            let partitions = row.iter().fold(0u128, |x, y| x.saturating_add(*y));
            rows.push(row);
            total = total.saturating_add(nonzero.saturating_mul(partitions.saturating_add(1)));
            if total > limit {
                return Err(h);
            }
        }
        Ok(total)
    }

    /// Every option of a heap of size h, as the nondecreasing list of the heaps left (without
    /// repeats, and never the heap itself).
    pub fn options(&self, h: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        self.for_each_option(h, &mut |parts| {
            out.push(parts.to_vec());
            true
        });
        out.sort();
        out.dedup();
        out
    }

    /// Calls `f` with the parts of each option of a heap of size h (nondecreasing; an option
    /// reached by two digits is seen twice), until `f` returns false; whether it never did.
    pub fn for_each_option(&self, h: usize, f: &mut dyn FnMut(&[usize]) -> bool) -> bool {
        for j in 0..=h {
            let Some(d) = self.digit(j) else { break };
            if d.is_zero() {
                continue;
            }
            let rest = h - j;
            if rest == 0 {
                if j > 0 && d.allows(0) && !f(&[]) {
                    return false;
                }
                continue;
            }
            for r in 1..=rest {
                if !d.allows(r) || (j == 0 && r == 1) {
                    continue;
                }
                let mut acc = Vec::with_capacity(r);
                if !parts_into(rest, r, 1, d.modifier, &mut acc, f) {
                    return false;
                }
            }
        }
        true
    }
}

/// The partitions of `total` into exactly `r` parts ≥ `min`, nondecreasing, that satisfy the
/// modifier, each passed to `f` (with the parts already chosen in `acc`); false once `f` is.
fn parts_into(
    total: usize,
    r: usize,
    min: usize,
    modifier: Modifier,
    acc: &mut Vec<usize>,
    f: &mut dyn FnMut(&[usize]) -> bool,
) -> bool {
    if r == 0 {
        if total == 0 {
            let ok = match modifier {
                Modifier::Plain | Modifier::Distinct => true,
                Modifier::NotAllEqual => acc.len() < 2 || acc.windows(2).any(|w| w[0] != w[1]),
                Modifier::AllEqual => acc.windows(2).all(|w| w[0] == w[1]),
            };
            return !ok || f(acc);
        }
        return true;
    }
    if modifier == Modifier::AllEqual {
        // Only r equal parts: the next part is fixed.
        let first = acc.first().copied();
        let x = match first {
            Some(x) => x,
            None if total.is_multiple_of(r) => total / r,
            None => return true,
        };
        let mut go = true;
        if x >= min && x * r <= total {
            acc.push(x);
            go = parts_into(total - x, r - 1, x, modifier, acc, f);
            acc.pop();
        }
        return go;
    }
    if r == 1 {
        // The last part is what is left (the loop below would try every smaller one first).
        if total < min {
            return true;
        }
        acc.push(total);
        let go = parts_into(0, 0, total, modifier, acc, f);
        acc.pop();
        return go;
    }
    let mut x = min;
    while x * r <= total {
        acc.push(x);
        let next = if modifier == Modifier::Distinct {
            x + 1
        } else {
            x
        };
        let go = parts_into(total - x, r - 1, next, modifier, acc, f);
        acc.pop();
        if !go {
            return false;
        }
        x += 1;
    }
    true
}

impl fmt::Display for HeapCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}
