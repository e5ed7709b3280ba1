//! Whether a short form is the zero rational function, in time polynomial in its size (the
//! identity test of [GM11] §3 without a common denominator's expansion).
//!
//! f = Σ_i c_i t^{p_i} / Π_k (1 − t^{g_ik}) is zero exactly when the Laurent polynomial
//! N = f · Π_{g ∈ G} (1 − t^g) is, G being the distinct denominator exponents. N is never
//! written out (it can have 2^|G| monomials); instead f is evaluated at random points of F_q^d
//! for a random prime q, with exponents by repeated squaring. If f = 0 then f(x) = 0 at every
//! point where no denominator vanishes. If f ≠ 0 then x^s·N (s shifting N to a polynomial) is a
//! nonzero polynomial of total degree at most D = Σ_coordinates (spread of the p_i + Σ_G |g|),
//! nonzero modulo q unless q divides all its coefficients, and by Schwartz–Zippel it vanishes at
//! a uniform point with probability at most D/(q − 1). With q above D·2^64 and two points, a
//! nonzero f is taken for zero with probability below 2^-128; a "nonzero" answer is always
//! right (f(x) ≠ 0 at a point is a proof).
//!
//! The points and primes come from a fixed-seed generator mixed with the input, so answers are
//! reproducible.

use std::collections::HashMap;

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer as _;
use num_traits::{One, Zero};

use super::ShortForm;
use crate::algebra::AlgebraError;
use crate::random::SplitMix64;

/// A uniform integer of `bits` bits (the top bit set).
fn random_bits(rng: &mut SplitMix64, bits: u64) -> BigUint {
    let words = bits.div_ceil(64) as usize;
    let mut digits: Vec<u64> = (0..words).map(|_| rng.next_u64()).collect();
    let excess = words as u64 * 64 - bits;
    if let Some(top) = digits.last_mut() {
        *top >>= excess;
        *top |= 1 << (63 - excess);
    }
    BigUint::from_slice(
        &digits
            .iter()
            .flat_map(|w| [*w as u32, (*w >> 32) as u32])
            .collect::<Vec<_>>(),
    )
}

/// A uniform integer in [1, q − 1] (up to a bias below 2^-64).
fn random_below(rng: &mut SplitMix64, q: &BigUint) -> BigUint {
    let bits = q.bits() + 64;
    let words = bits.div_ceil(64) as usize;
    let digits: Vec<u32> = (0..words)
        .flat_map(|_| {
            let w = rng.next_u64();
            [w as u32, (w >> 32) as u32]
        })
        .collect();
    BigUint::from_slice(&digits) % (q - 1u32) + 1u32
}

/// Miller–Rabin with 40 random bases: a composite passes with probability below 4^-40.
fn probably_prime(n: &BigUint, rng: &mut SplitMix64) -> bool {
    let small = [2u32, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    for p in small {
        if *n == BigUint::from(p) {
            return true;
        }
        if (n % p).is_zero() {
            return false;
        }
    }
    let one = BigUint::one();
    let minus_one = n - 1u32;
    let s = minus_one.trailing_zeros().unwrap_or(0);
    let d = &minus_one >> s;
    'bases: for _ in 0..40 {
        let a = random_below(rng, &minus_one) + 1u32; // in [2, n − 1]
        let mut x = a.modpow(&d, n);
        if x == one || x == minus_one {
            continue;
        }
        for _ in 1..s {
            x = x.modpow(&BigUint::from(2u32), n);
            if x == minus_one {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// A random prime of `bits` bits.
fn random_prime(bits: u64, rng: &mut SplitMix64) -> BigUint {
    loop {
        let candidate = random_bits(rng, bits) | BigUint::one();
        if probably_prime(&candidate, rng) {
            return candidate;
        }
    }
}

/// x mod q for a signed integer.
fn reduce(x: &BigInt, q: &BigUint) -> BigUint {
    let q = BigInt::from_biguint(Sign::Plus, q.clone());
    x.mod_floor(&q).magnitude().clone()
}

/// a^{-1} mod q for q prime and a ≠ 0 mod q.
fn inverse(a: &BigUint, q: &BigUint) -> BigUint {
    a.modpow(&(q - 2u32), q)
}

/// The most random points tried when denominators keep vanishing.
const ATTEMPTS: usize = 64;

impl ShortForm {
    /// Whether f is the zero rational function: a certain "no", and a "yes" that is wrong with
    /// probability below 2^-128 (see the module comment).
    pub fn is_zero(&self) -> Result<bool, AlgebraError> {
        if self.terms.is_empty() {
            return Ok(true);
        }
        let d = self.dim;
        // The degree bound D.
        let mut rays: Vec<&Vec<BigInt>> = self.terms.iter().flat_map(|t| &t.rays).collect();
        rays.sort();
        rays.dedup();
        let mut degree = BigUint::one();
        for k in 0..d {
            let lo = self.terms.iter().map(|t| &t.apex[k]).min();
            let hi = self.terms.iter().map(|t| &t.apex[k]).max();
            if let (Some(lo), Some(hi)) = (lo, hi) {
                degree += (hi - lo).magnitude();
            }
            for g in &rays {
                degree += g[k].magnitude();
            }
        }
        // q ≥ 2^(bits − 1) ≥ D·2^64.
        let bits = (degree.bits() + 65).max(128);
        let mut seed = 0x6c61_7474_6963_6521u64 ^ (self.terms.len() as u64).rotate_left(17);
        for t in self.terms.iter().take(8) {
            for x in &t.apex {
                seed = seed.rotate_left(5) ^ x.iter_u64_digits().next().unwrap_or(0);
            }
        }
        let mut rng = SplitMix64(seed);
        let mut q = random_prime(bits, &mut rng);
        // Coefficients must have denominators prime to q.
        while self
            .terms
            .iter()
            .any(|t| (t.coefficient.denom().magnitude() % &q).is_zero())
        {
            q = random_prime(bits, &mut rng);
        }
        let mut points_checked = 0;
        let mut attempts = 0;
        while points_checked < 2 {
            if crate::interrupt::requested() {
                return Err(AlgebraError::Interrupted);
            }
            attempts += 1;
            if attempts > ATTEMPTS {
                return Err(AlgebraError::TooLarge(format!(
                    "no point of F_q^{d} (q of {bits} bits) avoided the poles in {ATTEMPTS} tries"
                )));
            }
            let x: Vec<BigUint> = (0..d).map(|_| random_below(&mut rng, &q)).collect();
            let x_inv: Vec<BigUint> = x.iter().map(|a| inverse(a, &q)).collect();
            let power = |e: &[BigInt]| -> BigUint {
                let mut acc = BigUint::one();
                for ((xi, yi), k) in x.iter().zip(&x_inv).zip(e) {
                    if k.is_zero() {
                        continue;
                    }
                    let base = if k.sign() == Sign::Minus { yi } else { xi };
                    acc = acc * base.modpow(k.magnitude(), &q) % &q;
                }
                acc
            };
            // 1 − x^g per distinct g, computed once.
            let mut factors: HashMap<&[BigInt], BigUint> = HashMap::new();
            // The sum as a fraction numerator/denominator mod q: no inversions per term.
            let (mut numerator, mut denominator) = (BigUint::zero(), BigUint::one());
            let mut pole = false;
            for t in &self.terms {
                let mut den = reduce(t.coefficient.denom(), &q);
                for g in &t.rays {
                    let one_minus = factors
                        .entry(g.as_slice())
                        .or_insert_with(|| (&q + 1u32 - power(g)) % &q);
                    den = den * &*one_minus % &q;
                }
                if den.is_zero() {
                    pole = true;
                    break;
                }
                let num = reduce(t.coefficient.numer(), &q) * power(&t.apex) % &q;
                numerator = (numerator * &den + num * &denominator) % &q;
                denominator = denominator * den % &q;
            }
            let sum = numerator;
            if pole {
                continue;
            }
            if !sum.is_zero() {
                return Ok(false);
            }
            points_checked += 1;
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes_are_recognised() {
        let mut rng = SplitMix64(1);
        assert!(probably_prime(&BigUint::from(1_000_000_007u64), &mut rng));
        assert!(!probably_prime(
            &(BigUint::from(1_000_000_007u64) * BigUint::from(998_244_353u64)),
            &mut rng
        ));
        // 2^127 − 1 is prime, 2^128 + 1 is not.
        let m127 = (BigUint::one() << 127u32) - 1u32;
        assert!(probably_prime(&m127, &mut rng));
        assert!(!probably_prime(
            &((BigUint::one() << 128u32) + 1u32),
            &mut rng
        ));
        let p = random_prime(200, &mut rng);
        assert_eq!(p.bits(), 200);
    }
}
