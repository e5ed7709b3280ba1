//! Residue classes of Z^d modulo m = (m_1, ..., m_d), for the layered guess of `stratify`: the
//! group G = Z/m_1 × ... × Z/m_d numbered in mixed radix, patterns saying which classes are in P,
//! the moduli a solved region suggests, and the few cosets a set of classes makes.
//!
//! A set S of classes is a union of cosets of its stabilizer H = {t ∈ G : S + t = S}; lifted to
//! Z^d these are cosets of the lattice L = H + mZ^d, so S is written with |S|/|H| cosets of L
//! rather than |S| cosets of mZ^d (one coset of {x : w·x even} for a parity, one of
//! Z × 3Z for "x_2 ≡ 1 mod 3").

use super::region::WeightRegion;
use crate::algebra::coset::Coset;
use crate::algebra::lattice::Lattice;
use crate::algebra::{Integer, Vector};

/// The largest modulus suggested along one axis.
const MAX_MODULUS: i64 = 24;

/// The most classes a pattern may have.
pub(super) const MAX_CLASSES: usize = 4096;

/// The most positions sampled for suggesting moduli.
const SAMPLE: usize = 50_000;

/// The moduli m_i (each at least 1) and the residues of every class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Moduli {
    m: Vec<i64>,
    /// The residues of class c, at d·c .. d·(c + 1).
    residues: Vec<i64>,
}

/// What a pattern knows of one class.
pub(super) const UNSEEN: u8 = 0;
const NOT_P: u8 = 1;
const IN_P: u8 = 2;

/// Which classes are in P (one byte per class: unseen, not in P, in P).
pub(super) type Pattern = Vec<u8>;

/// The state byte for an outcome.
pub(super) fn state(p: bool) -> u8 {
    if p {
        IN_P
    } else {
        NOT_P
    }
}

/// Whether the class is in P under the pattern, or None when the pattern has not seen it.
pub(super) fn lookup(pattern: &[u8], class: u32) -> Option<bool> {
    match pattern[class as usize] {
        UNSEEN => None,
        s => Some(s == IN_P),
    }
}

impl Moduli {
    /// The moduli m (each at least 1, with at most [`MAX_CLASSES`] classes).
    pub(super) fn new(m: Vec<i64>) -> Option<Moduli> {
        let mut count: usize = 1;
        for &mi in &m {
            if mi < 1 {
                return None;
            }
            count = count.checked_mul(mi as usize)?;
            if count > MAX_CLASSES {
                return None;
            }
        }
        let d = m.len();
        let mut residues = vec![0; count * d];
        for c in 0..count {
            let mut rest = c as i64;
            for i in (0..d).rev() {
                residues[c * d + i] = rest % m[i];
                rest /= m[i];
            }
        }
        Some(Moduli { m, residues })
    }

    pub(super) fn dim(&self) -> usize {
        self.m.len()
    }

    /// The number of classes.
    pub(super) fn count(&self) -> usize {
        self.residues.len() / self.m.len().max(1)
    }

    /// The class of x.
    #[inline]
    pub(super) fn class_of(&self, x: &[i64]) -> u32 {
        x.iter()
            .zip(&self.m)
            .fold(0i64, |c, (&xi, &mi)| c * mi + xi.rem_euclid(mi)) as u32
    }

    /// The residues of a class, each in 0..m_i.
    pub(super) fn residue(&self, class: u32) -> &[i64] {
        let d = self.m.len();
        &self.residues[class as usize * d..(class as usize + 1) * d]
    }

    /// a + b in G.
    fn add(&self, a: u32, b: u32) -> u32 {
        let (ra, rb) = (self.residue(a), self.residue(b));
        let mut c = 0i64;
        for i in 0..self.m.len() {
            c = c * self.m[i] + (ra[i] + rb[i]) % self.m[i];
        }
        c as u32
    }

    /// a − b in G.
    fn sub(&self, a: u32, b: u32) -> u32 {
        let (ra, rb) = (self.residue(a), self.residue(b));
        let mut c = 0i64;
        for i in 0..self.m.len() {
            c = c * self.m[i] + (ra[i] - rb[i]).rem_euclid(self.m[i]);
        }
        c as u32
    }

    /// "2" when every modulus is 2, else the vector, as "(12, 24, 2)".
    pub(super) fn describe(&self) -> String {
        if self.m.iter().all(|&x| x == 2) {
            "2".into()
        } else {
            Vector::from_i64s(&self.m).to_string()
        }
    }

    /// The cosets of a lattice L ⊇ mZ^d whose union is the classes in P of the pattern (the
    /// unseen ones are not in P): L = H + mZ^d for the stabilizer H of that set, one coset per
    /// orbit.
    pub(super) fn cosets_in_p(&self, pattern: &[u8]) -> Vec<Coset> {
        let (generators, representatives) = self.orbits(pattern);
        if representatives.is_empty() {
            return Vec::new();
        }
        let lattice = Lattice::generated_by(self.dim(), &generators);
        representatives
            .into_iter()
            .map(|s| Coset::new(Vector::from_i64s(self.residue(s)), &lattice))
            .collect()
    }

    /// How many cosets [`Moduli::cosets_in_p`] makes of the pattern.
    pub(super) fn coset_count(&self, pattern: &[u8]) -> usize {
        self.orbits(pattern).1.len()
    }

    /// Generators of L = H + mZ^d for the stabilizer H of the classes S in P, and one class of
    /// each orbit S/H.
    fn orbits(&self, pattern: &[u8]) -> (Vec<Vector>, Vec<u32>) {
        let d = self.dim();
        let n = self.count();
        let in_s: Vec<bool> = (0..n as u32)
            .map(|c| lookup(pattern, c) == Some(true))
            .collect();
        let members: Vec<u32> = (0..n as u32).filter(|&c| in_s[c as usize]).collect();
        let Some(&first) = members.first() else {
            return (Vec::new(), Vec::new());
        };
        // H ⊆ S − s0: the t there with S + t ⊆ S (so = S, G being finite).
        let stabilizer: Vec<u32> = members
            .iter()
            .map(|&s| self.sub(s, first))
            .filter(|&t| members.iter().all(|&x| in_s[self.add(x, t) as usize]))
            .collect();
        // Generators of H, greedily: each one not in the group the earlier ones generate.
        let mut in_group = vec![false; n];
        in_group[0] = true;
        let mut group = vec![0u32];
        let mut generators: Vec<Vector> = (0..d)
            .map(|i| Vector::unit(d, i).scale(&Integer::from(self.m[i])))
            .collect();
        for &t in &stabilizer {
            if in_group[t as usize] {
                continue;
            }
            generators.push(Vector::from_i64s(self.residue(t)));
            // The group plus the multiples of t: add t until it closes.
            let mut layer = group.clone();
            loop {
                layer = layer
                    .iter()
                    .map(|&g| self.add(g, t))
                    .filter(|&g| !in_group[g as usize])
                    .collect();
                if layer.is_empty() {
                    break;
                }
                for &g in &layer {
                    in_group[g as usize] = true;
                }
                group.extend_from_slice(&layer);
            }
        }
        let mut covered = vec![false; n];
        let mut representatives = Vec::new();
        for &s in &members {
            if covered[s as usize] {
                continue;
            }
            for &h in &group {
                covered[self.add(s, h) as usize] = true;
            }
            representatives.push(s);
        }
        (generators, representatives)
    }
}

/// The moduli the region suggests: on each axis i the least p ≤ 24 whose rate of disagreement
/// P(x) ≠ P(x + p e_i) is within 1/100 of the least rate, over the heavier half of the region
/// (positions of weight above half the bound with every coordinate at least 4, sampled). A
/// pattern whose period changes across a slanted boundary disagrees only near it under the lcm
/// of the periods on either side, which the least rate picks. None when too few positions, when
/// interrupted, or when the classes would be more than [`MAX_CLASSES`].
pub(super) fn suggested_moduli(region: &WeightRegion) -> Option<Moduli> {
    let d = region.dim();
    let half = region.bound() / 2;
    let (points, outcomes, heavy) =
        region.sample_above(&vec![None; d], &vec![4; d], half, 3 * SAMPLE / 2);
    if heavy < 64 {
        return None;
    }
    let sample: Vec<(&[i64], bool)> = points.chunks_exact(d).zip(outcomes).collect();
    let mut m = Vec::with_capacity(d);
    let mut y = vec![0i64; d];
    for i in 0..d {
        // (disagreements, pairs) for p = 1..=MAX_MODULUS.
        let mut rates: Vec<(u64, u64)> = Vec::new();
        for p in 1..=MAX_MODULUS {
            if crate::interrupt::requested() {
                return None;
            }
            let (mut differ, mut pairs) = (0u64, 0u64);
            for &(x, px) in &sample {
                y.copy_from_slice(x);
                y[i] += p;
                if let Some(at) = region.index(&y) {
                    pairs += 1;
                    differ += u64::from(region.get(at) != px);
                }
            }
            rates.push((differ, pairs));
        }
        // Rates compared exactly: a/b ≤ c/e + 1/100 ⇔ 100·a·e ≤ 100·c·b + b·e.
        let counted: Vec<(usize, (u64, u64))> = rates
            .into_iter()
            .enumerate()
            .filter(|(_, (_, pairs))| *pairs >= 32)
            .collect();
        let least = counted.iter().map(|&(_, r)| r).min_by(|a, b| {
            (u128::from(a.0) * u128::from(b.1)).cmp(&(u128::from(b.0) * u128::from(a.1)))
        })?;
        let (c, e) = (u128::from(least.0), u128::from(least.1));
        let (k, _) = counted.iter().find(|&&(_, (a, b))| {
            let (a, b) = (u128::from(a), u128::from(b));
            100 * a * e <= 100 * c * b + b * e
        })?;
        m.push(*k as i64 + 1);
    }
    Moduli::new(m)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn pattern_of(moduli: &Moduli, rule: impl Fn(&[i64]) -> bool) -> Pattern {
        (0..moduli.count() as u32)
            .map(|c| state(rule(moduli.residue(c))))
            .collect()
    }

    #[test]
    fn classes_number_residues_in_mixed_radix() {
        let moduli = Moduli::new(vec![3, 4]).unwrap();
        assert_eq!(moduli.count(), 12);
        for x in [[0, 0], [2, 3], [5, 7], [7, 1]] {
            let c = moduli.class_of(&x);
            assert_eq!(moduli.residue(c), [x[0] % 3, x[1] % 4]);
        }
        assert!(Moduli::new(vec![64, 65]).is_none());
        assert!(Moduli::new(vec![0, 2]).is_none());
    }

    #[test]
    fn a_parity_makes_one_coset() {
        // x_0 + x_2 odd in d = 3, modulo 2.
        let moduli = Moduli::new(vec![2; 3]).unwrap();
        let pattern = pattern_of(&moduli, |r| (r[0] + r[2]) % 2 == 1);
        let cosets = moduli.cosets_in_p(&pattern);
        assert_eq!(cosets.len(), 1);
        for x in [[1, 0, 0], [0, 5, 1], [2, 3, 3], [4, 4, 1]] {
            assert_eq!(
                cosets[0].contains(&Vector::from_i64s(&x)),
                (x[0] + x[2]) % 2 == 1,
                "{x:?}"
            );
        }
    }

    #[test]
    fn classes_are_written_with_the_fewest_cosets_of_their_stabilizer() {
        // Modulo (6, 24): x_2 ≡ 1 mod 3 is one coset of Z × 3Z; adding the class (0, 0) leaves
        // no symmetry but mZ^2, one coset per class.
        let moduli = Moduli::new(vec![6, 24]).unwrap();
        let rule = |x: &[i64]| x[1].rem_euclid(3) == 1;
        let cosets = moduli.cosets_in_p(&pattern_of(&moduli, rule));
        assert_eq!(cosets.len(), 1);
        // x_1 ≡ x_2 mod 3, or x_1 even: cosets of a lattice that is not a product.
        let slanted = |x: &[i64]| (x[0] - x[1]).rem_euclid(3) == 0 || x[0] % 2 == 0;
        let cosets2 = moduli.cosets_in_p(&pattern_of(&moduli, slanted));
        for (rule, cosets) in [
            (&rule as &dyn Fn(&[i64]) -> bool, &cosets),
            (&slanted, &cosets2),
        ] {
            for x0 in -7..30 {
                for x1 in -30..50 {
                    let x = [x0, x1];
                    let inside = cosets
                        .iter()
                        .filter(|c| c.contains(&Vector::from_i64s(&x)))
                        .count();
                    assert_eq!(inside, usize::from(rule(&x)), "{x:?}");
                }
            }
        }
        let with_origin = |x: &[i64]| rule(x) || (x[0] % 6 == 0 && x[1] % 24 == 0);
        let cosets = moduli.cosets_in_p(&pattern_of(&moduli, with_origin));
        assert_eq!(cosets.len(), 6 * 8 + 1);
    }

    #[test]
    fn moduli_are_read_off_a_period_that_changes_across_a_slanted_line() {
        // P: x_2 ≡ 0 mod 3 above the line x_2 = 2x_1, x_2 ≡ 0 mod 8 below it: the lcm 24 along
        // the second axis; along the first only the boundary moves, 1 is best.
        let ell = [1, 1];
        let mut region = WeightRegion::empty(&ell, 200);
        let mut members = Vec::new();
        region.for_each(|x| {
            let p = if x[1] > 2 * x[0] {
                x[1] % 3 == 0
            } else {
                x[1] % 8 == 0
            };
            if p {
                members.push(x.to_vec());
            }
        });
        for x in &members {
            region.insert(x);
        }
        let moduli = suggested_moduli(&region).unwrap();
        assert_eq!(moduli.residue((moduli.count() - 1) as u32), [0, 23]);
    }

    proptest! {
        /// Any set of classes, written as cosets of its stabilizer's lattice: each point of a box
        /// lies in exactly one coset when its class is in the set and in none otherwise, and
        /// `coset_count` counts them.
        #[test]
        fn cosets_partition_exactly_the_classes_in_p(
            m in proptest::collection::vec(1i64..7, 2),
            bits in proptest::collection::vec(any::<bool>(), 36),
            symmetric in any::<bool>(),
        ) {
            let moduli = Moduli::new(m.clone()).unwrap();
            // Half the cases a function of x_1 + x_2 mod gcd(m), so that stabilizers are not
            // always trivial.
            let gcd = (1..=m[0].min(m[1])).rev().find(|k| m[0] % k == 0 && m[1] % k == 0).unwrap();
            let rule = |x: &[i64]| {
                let r = moduli.class_of(x) as usize;
                if symmetric {
                    bits[(x[0] + x[1]).rem_euclid(gcd) as usize]
                } else {
                    bits[r % bits.len()]
                }
            };
            let pattern = pattern_of(&moduli, rule);
            let cosets = moduli.cosets_in_p(&pattern);
            prop_assert_eq!(cosets.len(), moduli.coset_count(&pattern));
            for x0 in -8..14 {
                for x1 in -8..14 {
                    let x = [x0, x1];
                    let inside = cosets
                        .iter()
                        .filter(|c| c.contains(&Vector::from_i64s(&x)))
                        .count();
                    prop_assert_eq!(inside, usize::from(rule(&x)), "{:?}", x);
                }
            }
        }
    }
}
