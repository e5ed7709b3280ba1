//! A small deterministic pseudo-random generator shared by the library and the builtins:
//! reproducible streams (sweeps' random games, the random points of identity tests), not
//! cryptographic ones.

/// SplitMix64 (Steele, Lea and Flood, 2014): the generator behind `random_ints` and the random
/// points of the identity test. Its output for a seed is fixed forever, so a sweep's games are the
/// same on every machine and version.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in 0..span (span ≥ 1), without bias: draws above the largest multiple of span
    /// are drawn again.
    pub fn below(&mut self, span: u64) -> u64 {
        let zone = u64::MAX - (u64::MAX % span);
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % span;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published first outputs of SplitMix64 from seed 1234567 (the reference C code's
    /// example), so that the stream is the standard one and never changes.
    #[test]
    fn splitmix64_is_the_standard_generator() {
        let mut g = SplitMix64(1234567);
        let first: Vec<u64> = (0..5).map(|_| g.next_u64()).collect();
        assert_eq!(
            first,
            vec![
                6457827717110365317,
                3203168211198807973,
                9817491932198370423,
                4593380528125082431,
                16408922859458223821
            ]
        );
    }
}
