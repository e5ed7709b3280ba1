//! Counting the lattice points of a polytope without keeping its short generating function, as
//! LattE counts: each term of Barvinok's decomposition is evaluated at t = 1 as soon as it is
//! made, and forgotten.
//!
//! The value at t = 1 of Σ ε t^p / Π_k (1 − t^{g_k}) is, along t = e^{sλ} for a direction λ with
//! λ·g ≠ 0 for every denominator, Σ ε (−1)^d / Π_k c_k · [s^d] e^{as} Π_k Td(c_k s) with a = λ·p,
//! c_k = λ·g_k (see `todd`). Here that sum is taken modulo a few primes below 2^62 at once, in
//! machine words: the count is an integer between 0 and the number B of integer points of the
//! polytope's bounding box, so its residues modulo primes whose product exceeds 2B + 1 give it by
//! the Chinese remainder theorem, and one more prime checks the result.
//!
//! λ is drawn at random (fixed seed) before the terms are known. A term with c_k ≡ 0 modulo some
//! prime (λ·g_k = 0, or a multiple of that prime) cannot be evaluated there: the count is then
//! redone with the next λ, which happens with probability about |terms|·d·2^−61.

use num_bigint::BigInt;
use num_integer::Integer as _;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::{todd, ShortTerm};
use crate::algebra::AlgebraError;
use crate::random::SplitMix64;

/// a·b mod p.
fn mul(a: u64, b: u64, p: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) % u128::from(p)) as u64
}

fn add(a: u64, b: u64, p: u64) -> u64 {
    let s = a + b;
    if s >= p {
        s - p
    } else {
        s
    }
}

fn power(mut a: u64, mut e: u64, p: u64) -> u64 {
    let mut r = 1;
    while e > 0 {
        if e & 1 == 1 {
            r = mul(r, a, p);
        }
        a = mul(a, a, p);
        e >>= 1;
    }
    r
}

/// a^{-1} mod p (p prime, a ≢ 0).
fn inverse(a: u64, p: u64) -> u64 {
    power(a, p - 2, p)
}

/// x mod p in 0..p.
fn residue(x: &BigInt, p: u64) -> u64 {
    match x.to_i64() {
        Some(s) => s.rem_euclid(p as i64) as u64,
        None => x.mod_floor(&BigInt::from(p)).to_u64().unwrap_or_default(),
    }
}

/// Miller–Rabin with the first twelve prime bases, which decides primality for every n < 2^64.
fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    for &b in &BASES {
        if n.is_multiple_of(b) {
            return n == b;
        }
    }
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    'bases: for &b in &BASES {
        let mut x = power(b, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul(x, x, n);
            if x == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// The largest `count` primes below 2^62, in decreasing order.
fn primes_below_2_62(count: usize) -> Vec<u64> {
    let mut out = Vec::with_capacity(count);
    let mut n = (1u64 << 62) - 1;
    while out.len() < count {
        if is_prime(n) {
            out.push(n);
        }
        n -= 2;
    }
    out
}

/// The running sum of the terms' values at t = 1 modulo each prime.
pub(super) struct ModularCount {
    primes: Vec<u64>,
    /// λ modulo each prime.
    lambda: Vec<Vec<u64>>,
    /// B_j/j! modulo each prime, j = 0..=d (B_1 = −1/2).
    todd: Vec<Vec<u64>>,
    /// 1/j! modulo each prime, j = 0..=d.
    inverse_factorial: Vec<Vec<u64>>,
    sums: Vec<u64>,
    /// Set when a term could not be evaluated with this λ.
    degenerate: bool,
    /// The bound B on the count.
    bound: BigInt,
}

impl ModularCount {
    /// A count of at most `bound` points of Z^d, with the `attempt`-th random direction.
    pub(super) fn new(d: usize, bound: &BigInt, attempt: u64) -> ModularCount {
        // Primes whose product exceeds 2B + 1 (each is above 2^61), and one to check with.
        let needed = (bound * 2u32 + 1u32).bits().div_ceil(61) as usize + 1;
        let primes = primes_below_2_62(needed + 1);
        let mut rng = SplitMix64(0x6c61_7474_6963_6521 ^ attempt.wrapping_mul(0x9E37_79B9));
        let lambda_int: Vec<u64> = (0..d).map(|_| rng.next_u64() >> 2).collect();
        let bernoulli = todd::bernoulli(d);
        let mut lambda = Vec::new();
        let mut todd = Vec::new();
        let mut inverse_factorial = Vec::new();
        for &p in &primes {
            lambda.push(lambda_int.iter().map(|&x| x % p).collect());
            let mut inv_fact = vec![1u64];
            for j in 1..=d as u64 {
                let previous = inv_fact[inv_fact.len() - 1];
                inv_fact.push(mul(previous, inverse(j % p, p), p));
            }
            todd.push(
                bernoulli
                    .iter()
                    .zip(&inv_fact)
                    .map(|(b, f)| {
                        let numerator = residue(b.numer(), p);
                        let denominator = residue(b.denom(), p);
                        mul(mul(numerator, inverse(denominator, p), p), *f, p)
                    })
                    .collect(),
            );
            inverse_factorial.push(inv_fact);
        }
        ModularCount {
            sums: vec![0; primes.len()],
            primes,
            lambda,
            todd,
            inverse_factorial,
            degenerate: false,
            bound: bound.clone(),
        }
    }

    /// Adds the value at t = 1 of one term (with at most d denominators).
    pub(super) fn add(&mut self, term: &ShortTerm) {
        if self.degenerate {
            return;
        }
        let r = term.rays.len();
        for (i, &p) in self.primes.iter().enumerate() {
            let lambda = &self.lambda[i];
            let dot = |v: &[BigInt]| {
                v.iter()
                    .zip(lambda)
                    .fold(0u64, |acc, (x, &l)| add(acc, mul(residue(x, p), l, p), p))
            };
            let a = dot(&term.apex);
            // e^{as} to degree r.
            let mut series = Vec::with_capacity(r + 1);
            let mut a_power = 1u64;
            for j in 0..=r {
                series.push(mul(a_power, self.inverse_factorial[i][j], p));
                a_power = mul(a_power, a, p);
            }
            let mut denominator = 1u64;
            for g in &term.rays {
                let c = dot(g);
                if c == 0 {
                    self.degenerate = true;
                    return;
                }
                denominator = mul(denominator, c, p);
                // Multiply by Td(cs) = Σ_j (B_j/j!) c^j s^j, truncated after s^r.
                let mut td = Vec::with_capacity(r + 1);
                let mut c_power = 1u64;
                for j in 0..=r {
                    td.push(mul(self.todd[i][j], c_power, p));
                    c_power = mul(c_power, c, p);
                }
                for k in (0..=r).rev() {
                    let mut sum = 0u64;
                    for j in 0..=k {
                        if series[j] != 0 {
                            sum = add(sum, mul(series[j], td[k - j], p), p);
                        }
                    }
                    series[k] = sum;
                }
            }
            let coefficient = mul(
                residue(term.coefficient.numer(), p),
                inverse(residue(term.coefficient.denom(), p), p),
                p,
            );
            let mut value = mul(mul(series[r], inverse(denominator, p), p), coefficient, p);
            if r % 2 == 1 && value != 0 {
                value = p - value;
            }
            self.sums[i] = add(self.sums[i], value, p);
        }
    }

    /// The count, or `None` when a term was degenerate for this λ (count again with another).
    pub(super) fn finish(self) -> Result<Option<BigInt>, AlgebraError> {
        if self.degenerate {
            return Ok(None);
        }
        // `new` always takes one prime more than the bound needs: the last checks the others.
        let (Some((check_prime, primes)), Some((check_sum, sums))) =
            (self.primes.split_last(), self.sums.split_last())
        else {
            return Err(AlgebraError::TooLarge(
                "internal error: the count was taken modulo no prime".into(),
            ));
        };
        // Garner's mixed radix: x = Σ_i y_i Π_{j<i} p_j with 0 ≤ y_i < p_i.
        let mut x = BigInt::zero();
        let mut modulus = BigInt::one();
        for (&p, &s) in primes.iter().zip(sums) {
            let current = residue(&x, p);
            let step = mul(add(s, p - current, p), inverse(residue(&modulus, p), p), p);
            x += &modulus * BigInt::from(step);
            modulus *= BigInt::from(p);
        }
        if x > &modulus / 2u32 {
            x -= &modulus;
        }
        if residue(&x, *check_prime) != *check_sum || x.is_negative() || x > self.bound {
            return Err(AlgebraError::TooLarge(format!(
                "internal error: the count modulo {} primes came out as {x}, which the check \
                 prime or the bounding box ({} points) contradicts",
                primes.len(),
                self.bound
            )));
        }
        Ok(Some(x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes_are_recognised() {
        let small: Vec<u64> = (0..60).filter(|&n| is_prime(n)).collect();
        assert_eq!(
            small,
            [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59]
        );
        // 2^61 − 1 is a Mersenne prime; 2^62 − 57 is the largest prime below 2^62.
        assert!(is_prime((1 << 61) - 1));
        assert_eq!(primes_below_2_62(1), [(1u64 << 62) - 57]);
        // A Carmichael number and a strong pseudoprime to bases 2, 3, 5, 7.
        assert!(!is_prime(561));
        assert!(!is_prime(3_215_031_751));
    }

    #[test]
    fn residues_and_inverses() {
        let p = (1u64 << 61) - 1;
        assert_eq!(residue(&BigInt::from(-1), p), p - 1);
        let big = BigInt::from(p) * BigInt::from(p) + BigInt::from(5);
        assert_eq!(residue(&big, p), 5);
        assert_eq!(mul(inverse(12345, p), 12345, p), 1);
    }
}
