//! Periodicity of Grundy sequences of heap games, proved where a theorem applies.
//!
//! *The octal periodicity theorem* (Guy–Smith 1956; *Winning Ways* ch. 4; Siegel, *Combinatorial
//! Game Theory*, ch. IV), in the form proved here for a finite take-and-break code with no
//! modifiers whose moves leave at most R heaps and whose last nonzero digit is d_k: if
//! G(n + p) = G(n) for every n with n0 ≤ n < R·n0 + (R − 1)·p + k, and n0 ≥ 1, then
//! G(n + p) = G(n) for every n ≥ n0.
//!
//! Proof sketch (by induction on n past the checked range): an option of a heap n + p takes
//! j ≤ k tokens and leaves r ≤ R heaps of total n + p − j, so its largest heap a has
//! a ≥ (n + p − k)/R ≥ n0 + p, and replacing a by a − p ≥ n0 ≥ 1 (still a nonempty heap, the same
//! digit and count) gives an option of n with the same value, since G(a − p) = G(a). Conversely
//! the largest heap a of an option of n has a ≥ (n − k)/R ≥ n0, and a + p gives an option of n + p
//! with the same value. Taking every token (count 0) needs n + p ≤ k, which the range excludes.
//! With n0 = 0 the theorem is applied from n0 = 1 and G(p) = G(0) is checked as well.
//!
//! Repeating codes whose digits take without splitting up to some d_m and are 0 or 3 after it
//! (subtraction games with infinite subtraction sets), and codes whose every digit allows 0 and 1
//! heaps (Nim), are proved arithmetic-periodic, G(n + p) = G(n) + s, by the arguments of module
//! `arithmetic`. Other codes (modifiers `!`, `?`, `=` as in Grundy's game, `{k+}`, other
//! repeating codes, and finite codes with a saltus) are only reported as *apparently* periodic,
//! never proved.

mod arithmetic;
#[cfg(test)]
mod tests;

pub use arithmetic::ArithmeticArgument;

use std::fmt;

use super::heap::HeapCode;

/// What the values say about periodicity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Periodicity {
    /// G(n + period) = G(n) for every n ≥ preperiod, proved by the octal periodicity theorem
    /// from the values of heaps below `checked`.
    Proved {
        /// The least n0 for this period.
        preperiod: usize,
        /// The least period the values allow a proof with.
        period: usize,
        /// The theorem's range: heaps n0 ≤ n < this bound were compared with n + period.
        bound: usize,
        /// The number of leaving heaps R and the last nonzero digit k the bound used.
        parts: usize,
        /// k.
        last_digit: usize,
    },
    /// G(n + period) = G(n) + saltus for every n ≥ preperiod, proved for a repeating code by one
    /// of the arguments of [`ArithmeticArgument`] (module `arithmetic`).
    ProvedArithmetic {
        /// The least n0 for this period and saltus.
        preperiod: usize,
        /// The period.
        period: usize,
        /// The saltus s (0 for plain periodicity).
        saltus: i64,
        /// The argument and where it was checked.
        argument: ArithmeticArgument,
    },
    /// G(n + period) = G(n) + saltus on every heap computed from preperiod on, with at least two
    /// whole periods and a quarter of the values in that tail, but not proved (no theorem
    /// applies, or too few values).
    Apparent {
        /// The least n0 for this period and saltus.
        preperiod: usize,
        /// The least such period.
        period: usize,
        /// The saltus s (0 for plain periodicity).
        saltus: i64,
        /// Why it is not proved.
        reason: String,
    },
    /// No period repeating twice over at least a quarter of the values.
    NotFound {
        /// The largest heap computed.
        n: usize,
    },
}

impl Periodicity {
    /// Whether this is a proof.
    pub fn is_proved(&self) -> bool {
        matches!(
            self,
            Periodicity::Proved { .. } | Periodicity::ProvedArithmetic { .. }
        )
    }
}

/// The theorem's data (R, k) for a code it covers, or why it does not apply.
pub fn theorem_data(code: &HeapCode) -> Result<(usize, usize), String> {
    if code.is_repeating() {
        return Err("the code repeats forever, and the octal periodicity theorem needs a last nonzero digit".into());
    }
    let k = code
        .last_nonzero()
        .ok_or_else(|| "the code has no nonzero digit".to_string())?;
    let mut parts = 1usize;
    for j in 0..=k {
        let d = code.digit(j).expect("within the code");
        if d.modifier() != crate::game::take_break::Modifier::Plain && !d.is_zero() {
            return Err(format!("digit d{j} has a modifier (`!`, `?` or `=`), which the octal periodicity theorem does not cover"));
        }
        let top = d
            .largest_count()
            .ok_or_else(|| format!("digit d{j} allows every count from some k on"))?;
        parts = parts.max(top);
    }
    Ok((parts, k))
}

/// The least n0 with G(i + p) = G(i) + s for every n0 ≤ i with i + p in the values.
fn tail_start(g: &[u32], p: usize, s: i64) -> usize {
    let mut i = g.len() - p;
    while i > 0 && i64::from(g[i - 1 + p]) - i64::from(g[i - 1]) == s {
        i -= 1;
    }
    i
}

/// Periodicity of the values g = G(0), …, G(n) of `code`: the least period a proof works with,
/// else the apparent period (saltus allowed, two whole periods seen) with the least
/// preperiod + period, else none.
pub fn periodicity(code: &HeapCode, g: &[u32]) -> Periodicity {
    let n = g.len().saturating_sub(1);
    let theorem = theorem_data(code);
    if let Ok((parts, k)) = theorem {
        // Bound B = R·max(n0, 1) + (R − 1)·p + k needs G(i + p) for i < B, so B − 1 + p ≤ n.
        let mut p = 1;
        while p <= n && (parts.saturating_sub(1)) * p + p + k <= n + 1 {
            let n0 = tail_start(g, p, 0);
            let bound = parts * n0.max(1) + (parts - 1) * p + k;
            if n0 + p <= n && bound + p <= n + 1 {
                return Periodicity::Proved {
                    preperiod: n0,
                    period: p,
                    bound,
                    parts,
                    last_digit: k,
                };
            }
            p += 1;
        }
    }
    let mut reason = match theorem {
        Err(why) => why,
        Ok(_) => format!("the values up to heap {n} are too few for the theorem's range"),
    };
    if code.is_repeating() {
        reason = arithmetic::not_covered(code).unwrap_or_else(|| {
            format!("the values up to heap {n} are too few for the arithmetic-periodicity check")
        });
    }
    let finite_reason = |saltus: i64, reason: String| {
        if saltus != 0 && !code.is_repeating() {
            "the octal periodicity theorem proves only saltus 0, and no theorem here covers arithmetic periodicity of a finite code".to_string()
        } else {
            reason
        }
    };
    // The candidate that explains the most values: least n0 + p (then least p), with two whole
    // periods in the tail and the tail at least a quarter of the values (a pattern in the last
    // few values alone says nothing). A later p can only win while p < the best n0 + p so far.
    let least_tail = (n + 1).div_ceil(4);
    let mut best: Option<(usize, usize, i64)> = None;
    let mut p = 1;
    while p <= n.div_ceil(2) && best.is_none_or(|(n0, q, _)| p < n0 + q) {
        let s = i64::from(g[n]) - i64::from(g[n - p]);
        let n0 = tail_start(g, p, s);
        let tail = n + 1 - n0;
        if tail >= 2 * p && tail >= least_tail && best.is_none_or(|(b0, q, _)| n0 + p < b0 + q) {
            best = Some((n0, p, s));
        }
        p += 1;
    }
    if let Some((preperiod, period, saltus)) = best {
        if let Some(argument) = arithmetic::prove(code, g, preperiod, period, saltus) {
            return Periodicity::ProvedArithmetic {
                preperiod,
                period,
                saltus,
                argument,
            };
        }
    }
    match best {
        Some((preperiod, period, saltus)) => Periodicity::Apparent {
            preperiod,
            period,
            saltus,
            reason: finite_reason(saltus, reason),
        },
        None => Periodicity::NotFound { n },
    }
}

impl fmt::Display for Periodicity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Periodicity::Proved {
                preperiod,
                period,
                bound,
                parts,
                last_digit,
            } => write!(
                f,
                "periodic from heap {preperiod} with period {period}, proved for every heap size (octal periodicity theorem: G(n + {period}) = G(n) checked for {} ≤ n < {bound} = {parts}·{} + {}·{period} + {last_digit})",
                preperiod,
                (*preperiod).max(1),
                parts - 1
            ),
            Periodicity::ProvedArithmetic {
                preperiod,
                period,
                saltus,
                argument,
            } => {
                let what = if *saltus == 0 {
                    format!("periodic from heap {preperiod} with period {period}")
                } else {
                    format!("arithmetic-periodic from heap {preperiod} with period {period} and saltus {saltus} (G(n + {period}) = G(n) + {saltus})")
                };
                match argument {
                    ArithmeticArgument::EveryHeapBelow => write!(
                        f,
                        "{what}, proved for every heap size (every smaller heap is an option and no split reaches n, so G(n) = n)"
                    ),
                    ArithmeticArgument::Taking {
                        m,
                        q,
                        from,
                        checked_period,
                    } => write!(
                        f,
                        "{what}, proved for every heap size (digits after d{m} are 0 or 3 with period {q}: the options of heap n + {checked_period} are checked to be the options of n shifted by the saltus, from heap {from})"
                    ),
                }
            }
            Periodicity::Apparent {
                preperiod,
                period,
                saltus,
                reason,
            } => {
                if *saltus == 0 {
                    write!(f, "apparently periodic from heap {preperiod} with period {period}, not proved: {reason}")
                } else {
                    write!(f, "apparently arithmetic-periodic from heap {preperiod} with period {period} and saltus {saltus} (G(n + {period}) = G(n) + {saltus}), not proved: {reason}")
                }
            }
            Periodicity::NotFound { n } => write!(
                f,
                "no period found in the values up to heap {n} (none repeats twice over the last quarter of them)"
            ),
        }
    }
}
