//! A fast hash for positions (vectors of machine integers) in the solver's memo tables. The
//! standard SipHash resists adversarial keys, which positions are not; here each 8-byte word is
//! folded in with one multiply, so hashing a position in dimension 1000 costs a thousand
//! multiplies instead of several thousand rounds.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-and-rotate hashing of whole words (the constant is the odd 64-bit golden ratio).
#[derive(Clone, Copy, Debug, Default)]
pub struct PositionHasher(u64);

const K: u64 = 0x9e37_79b9_7f4a_7c15;

impl PositionHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for PositionHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 56));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn write_i64(&mut self, n: i64) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        // A final mix so that the low bits (which pick the bucket) depend on every word.
        let x = self.0;
        (x ^ (x >> 29)).wrapping_mul(K) ^ (x >> 32)
    }
}

/// A hash map keyed by positions.
pub type PositionMap<V> = HashMap<Vec<i64>, V, BuildHasherDefault<PositionHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_that_differ_in_one_entry_hash_apart() {
        let hash = |p: &Vec<i64>| {
            use std::hash::BuildHasher;
            BuildHasherDefault::<PositionHasher>::default().hash_one(p)
        };
        let mut seen = std::collections::HashSet::new();
        for i in 0..50 {
            for x in -3..=3 {
                let mut p = vec![0i64; 50];
                p[i] = x;
                seen.insert(hash(&p));
            }
        }
        // 50 · 6 nonzero variants plus the zero vector.
        assert_eq!(seen.len(), 50 * 6 + 1);
        let mut m: PositionMap<u8> = PositionMap::default();
        m.insert(vec![1, 2], 3);
        assert_eq!(m.get(&vec![1, 2]), Some(&3));
        assert_eq!(m.get(&vec![2, 1]), None);
    }
}
