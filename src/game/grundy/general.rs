//! Grundy values of any take-and-break code by enumerating the options of each heap: the codes
//! the fast path does not read (modifiers `!`, `?`, `=`, four or more parts, `{k+}`). A heap of
//! size h costs one step per option, so two-part codes are O(n²) in all and codes with r parts
//! O(n^r); Ctrl-C is polled every few thousand options.

use super::{too_large, GrundyError, HeapCode};

/// Options between two polls of Ctrl-C.
const POLL: u32 = 1 << 12;

/// The most options enumerated in one call (some seconds to a minute, by the number of parts),
/// refused up front from the code's bound on them.
pub const MAX_ENUMERATED_OPTIONS: u128 = 1_000_000_000;

/// g(0), …, g(n) by the mex rule over the enumerated options.
pub(super) fn values(
    code: &HeapCode,
    n: usize,
    max_bytes: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<u32>, GrundyError> {
    let base = (n as u64 + 1) * 4;
    if base > max_bytes {
        return Err(too_large(n, base, max_bytes));
    }
    code.option_bound(n, MAX_ENUMERATED_OPTIONS)
        .map_err(|heap| GrundyError::TooManyOptions {
            heap,
            limit: MAX_ENUMERATED_OPTIONS,
        })?;
    let mut g: Vec<u32> = Vec::with_capacity(n + 1);
    let mut seen: Vec<u32> = vec![0; 64];
    let mut calls = 0u32;
    let mut interrupted = false;
    for h in 0..=n {
        if h % 64 == 0 {
            progress(h, n);
        }
        let stamp = h as u32 + 1;
        code.for_each_option(h, &mut |parts| {
            let v = parts.iter().fold(0u32, |x, &p| x ^ g[p]) as usize;
            if v >= seen.len() {
                seen.resize((v + 1).next_power_of_two(), 0);
            }
            seen[v] = stamp;
            calls += 1;
            if calls.is_multiple_of(POLL) && crate::interrupt::requested() {
                interrupted = true;
                return false;
            }
            true
        });
        if interrupted || crate::interrupt::requested() {
            return Err(GrundyError::Interrupted { done: h });
        }
        let mex = seen.iter().position(|&s| s != stamp).unwrap_or(seen.len());
        g.push(mex as u32);
    }
    Ok(g)
}
