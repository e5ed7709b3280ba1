//! Packed bits: one bit per position, 64 to a word, with reads and writes of up to 64 bits at any
//! bit offset. The solver moves whole runs of positions at once with these.

/// The number of words holding `n` bits.
pub(crate) fn words_for(n: usize) -> usize {
    n.div_ceil(64)
}

/// The bit at `pos`.
#[inline]
pub(crate) fn get(bits: &[u64], pos: usize) -> bool {
    (bits[pos >> 6] >> (pos & 63)) & 1 == 1
}

/// Sets the bit at `pos`.
#[inline]
pub(crate) fn set(bits: &mut [u64], pos: usize) {
    bits[pos >> 6] |= 1 << (pos & 63);
}

/// The mask of the low `k` bits (k ≤ 64).
#[inline]
fn low_mask(k: usize) -> u64 {
    if k >= 64 {
        u64::MAX
    } else {
        (1u64 << k) - 1
    }
}

/// `k` ≤ 64 bits starting at bit `pos`, in the low bits of the result.
#[inline]
pub(crate) fn read(bits: &[u64], pos: usize, k: usize) -> u64 {
    if k == 0 {
        return 0;
    }
    let (w, sh) = (pos >> 6, pos & 63);
    let mut v = bits[w] >> sh;
    if sh != 0 && sh + k > 64 {
        v |= bits[w + 1] << (64 - sh);
    }
    v & low_mask(k)
}

/// ORs the low `k` ≤ 64 bits of `v` into the bits starting at `pos`.
#[inline]
pub(crate) fn or_write(bits: &mut [u64], pos: usize, v: u64, k: usize) {
    if k == 0 {
        return;
    }
    let v = v & low_mask(k);
    let (w, sh) = (pos >> 6, pos & 63);
    bits[w] |= v << sh;
    if sh != 0 && sh + k > 64 {
        bits[w + 1] |= v >> (64 - sh);
    }
}

/// ORs the `n` bits of `src` starting at `src_pos` into `dst` starting at `dst_pos`.
pub(crate) fn or_range(dst: &mut [u64], dst_pos: usize, src: &[u64], src_pos: usize, n: usize) {
    let mut i = 0;
    while i < n {
        let k = (n - i).min(64);
        or_write(dst, dst_pos + i, read(src, src_pos + i, k), k);
        i += k;
    }
}

/// Calls `f(k)` for each set bit among the `n` bits starting at `pos` (k counted from `pos`),
/// in increasing order and 64 bits per read, while it returns true; false when stopped.
pub(crate) fn for_each_one(
    bits: &[u64],
    pos: usize,
    n: usize,
    mut f: impl FnMut(usize) -> bool,
) -> bool {
    let mut i = 0;
    while i < n {
        let k = (n - i).min(64);
        let mut word = read(bits, pos + i, k);
        while word != 0 {
            if !f(i + word.trailing_zeros() as usize) {
                return false;
            }
            word &= word - 1;
        }
        i += k;
    }
    true
}

/// The number of set bits among the `n` bits starting at `pos`.
pub(crate) fn count_ones(bits: &[u64], pos: usize, n: usize) -> u64 {
    let mut total = 0u64;
    let mut i = 0;
    while i < n {
        let k = (n - i).min(64);
        total += u64::from(read(bits, pos + i, k).count_ones());
        i += k;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Range operations agree with bit-by-bit copies.
        #[test]
        fn ranges_agree_with_single_bits(
            src in proptest::collection::vec(any::<u64>(), 1..6),
            src_pos in 0usize..200,
            dst_pos in 0usize..200,
            n in 0usize..180,
        ) {
            let src_bits = src.len() * 64;
            prop_assume!(src_pos + n <= src_bits);
            let mut fast = vec![0u64; words_for(dst_pos + n) + 1];
            fast[0] = 0b1011;
            let mut slow = fast.clone();
            or_range(&mut fast, dst_pos, &src, src_pos, n);
            for i in 0..n {
                if get(&src, src_pos + i) {
                    set(&mut slow, dst_pos + i);
                }
            }
            prop_assert_eq!(&fast, &slow);
            let ones = (0..n).filter(|&i| get(&src, src_pos + i)).count() as u64;
            prop_assert_eq!(count_ones(&src, src_pos, n), ones);
        }
    }
}
