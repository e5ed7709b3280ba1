//! Coalescing printed pieces: the disjoint pieces f + N{a} (a independent) that a decomposition
//! produces, grouped by generators into modules F + N{a}, rewritten with fewer offsets where the
//! set allows it. Two exact rewrites, applied until neither changes anything:
//!
//! - *Coarser generator.* If a = p·b (p prime) and F + N{a} is closed under adding b, the set is
//!   F' + N{b, a_2, ...} with F' = {f ∈ F : f − b ∉ F + N{a}}, about p times fewer offsets. (Along
//!   each line x + Zb the set is then an upward ray, so it is its lowest points plus N b; the
//!   rewrite is accepted only after checking that every old offset lies in the new module and
//!   that the new offsets lie in distinct classes modulo Z{b, a_2, ...}, i.e. stay disjoint.)
//! - *Absorbed face.* f + N{G} ⊎ (f + g + N{G ∪ {g}}) = f + N{G ∪ {g}}: an offset f of the module
//!   on generators G whose translate f + g is an offset of the module on G ∪ {g} moves there,
//!   replacing f + g (the inverse of the split of a half-open cone along one ray).
//!
//! Both keep the set and the disjointness of the pieces, so the printed stratification, and the
//! rational generating function built from it, describe the same set with fewer terms.

use std::collections::{BTreeMap, HashMap, HashSet};

use num_rational::BigRational;

use crate::algebra::coset::residue;
use crate::algebra::lattice::Lattice;
use crate::algebra::linalg::{is_nonnegative, solve};
use crate::algebra::{Integer, Matrix, Vector};

/// The modules of a stratification: generators (independent, sorted) → offsets.
pub(super) type Modules = BTreeMap<Vec<Vector>, Vec<Vector>>;

/// At most this many offsets per module are examined for the coarser-generator rewrite (its
/// checks cost a few membership tests per offset).
const MAX_OFFSETS: usize = 20_000;

/// Rewrites the modules with fewer offsets where the set allows it (see the module header).
pub(super) fn coalesce(mut modules: Modules, dim: usize) -> Modules {
    loop {
        let mut changed = absorb_faces(&mut modules);
        let keys: Vec<Vec<Vector>> = modules.keys().cloned().collect();
        for gens in keys {
            // Interrupted: the modules as they are (the caller reports the interruption).
            if crate::interrupt::requested() {
                return modules;
            }
            let Some(offsets) = modules.get(&gens) else {
                continue;
            };
            if offsets.len() > MAX_OFFSETS {
                continue;
            }
            if let Some((new_gens, new_offsets)) = coarser_generator(&gens, offsets, dim) {
                modules.remove(&gens);
                modules.entry(new_gens).or_default().extend(new_offsets);
                changed = true;
            }
        }
        if !changed {
            return modules;
        }
        for offsets in modules.values_mut() {
            offsets.sort();
            offsets.dedup();
        }
    }
}

/// Membership in a disjoint module F + N{a} with independent a: each class of Z^d modulo Z{a}
/// holds at most one offset, so x is a member exactly when the offset of its class exists and
/// x − f has nonnegative coordinates in a.
struct FreeModule {
    lattice: Lattice,
    columns: Matrix,
    by_class: HashMap<Vector, Vector>,
}

impl FreeModule {
    /// `None` when two offsets share a class (the module is not disjoint as given).
    fn new(gens: &[Vector], offsets: &[Vector], dim: usize) -> Option<FreeModule> {
        let lattice = Lattice::generated_by(dim, gens);
        let columns = Matrix::from_columns(gens).ok()?;
        let mut by_class = HashMap::with_capacity(offsets.len());
        for f in offsets {
            let class = residue(f, &lattice);
            if by_class.insert(class, f.clone()).is_some() {
                return None;
            }
        }
        Some(FreeModule {
            lattice,
            columns,
            by_class,
        })
    }

    fn contains(&self, x: &Vector) -> bool {
        let class = residue(x, &self.lattice);
        let Some(f) = self.by_class.get(&class) else {
            return false;
        };
        let diff: Vec<BigRational> = x
            .sub(f)
            .0
            .iter()
            .map(|c| BigRational::from_integer(c.to_bigint()))
            .collect();
        solve(&self.columns, &diff).is_some_and(|z| is_nonnegative(&z))
    }
}

/// The coarser-generator rewrite of one module, if some generator allows it.
fn coarser_generator(
    gens: &[Vector],
    offsets: &[Vector],
    dim: usize,
) -> Option<(Vec<Vector>, Vec<Vector>)> {
    if gens.is_empty() || offsets.is_empty() {
        return None;
    }
    let module = FreeModule::new(gens, offsets, dim)?;
    for (i, a) in gens.iter().enumerate() {
        let content = a.0.iter().fold(Integer::ZERO, |g, c| g.gcd(c));
        for p in prime_factors(&content) {
            let p = Integer::from(p);
            let b = Vector(
                a.0.iter()
                    .map(|c| c.div_floor(&p).expect("p ≠ 0"))
                    .collect(),
            );
            // Each test solves a linear system: thousands of offsets take a second, so a stop
            // is read at every one (an interrupted test fails, and the module stays as it is).
            let stop = crate::interrupt::requested;
            if !offsets
                .iter()
                .all(|f| !stop() && module.contains(&f.add(&b)))
            {
                continue;
            }
            let lowest: Vec<Vector> = offsets
                .iter()
                .filter(|f| !module.contains(&f.sub(&b)))
                .cloned()
                .collect();
            let mut new_gens = gens.to_vec();
            new_gens[i] = b;
            let Some(coarse) = FreeModule::new(&new_gens, &lowest, dim) else {
                continue;
            };
            // Every old offset is reached, so F + N{a} ⊆ F' + N{b, ...}; the other inclusion
            // holds because the set is closed under b and under a_2, ....
            if offsets.iter().all(|f| !stop() && coarse.contains(f)) {
                new_gens.sort();
                return Some((new_gens, lowest));
            }
        }
    }
    None
}

/// The absorbed-face rewrite, everywhere it applies; whether anything changed.
fn absorb_faces(modules: &mut Modules) -> bool {
    let mut changed = false;
    let keys: Vec<Vec<Vector>> = modules.keys().cloned().collect();
    for face in &keys {
        // Interrupted: the modules as they are so far (each rewrite keeps the set).
        if crate::interrupt::requested() {
            return changed;
        }
        for larger in &keys {
            if larger.len() != face.len() + 1 || !face.iter().all(|g| larger.contains(g)) {
                continue;
            }
            let g = larger
                .iter()
                .find(|g| !face.contains(g))
                .expect("one more generator")
                .clone();
            let (Some(small), Some(big)) = (modules.get(face), modules.get(larger)) else {
                continue;
            };
            // Each offset b of the larger module takes the lowest f = b − jg of the chain
            // b − g, b − 2g, ... of face offsets below it, which leave the face (the pieces are
            // disjoint, so no chain is shared): one pass over hashed offsets.
            let below: HashSet<&Vector> = small.iter().collect();
            let mut moved: HashSet<Vector> = HashSet::new();
            let mut lowered = Vec::with_capacity(big.len());
            for b in big {
                let mut low = b.clone();
                loop {
                    let next = low.sub(&g);
                    if !below.contains(&next) {
                        break;
                    }
                    moved.insert(next.clone());
                    low = next;
                }
                lowered.push(low);
            }
            if moved.is_empty() {
                continue;
            }
            changed = true;
            let kept: Vec<Vector> = small
                .iter()
                .filter(|f| !moved.contains(*f))
                .cloned()
                .collect();
            lowered.sort();
            modules.insert(larger.clone(), lowered);
            if kept.is_empty() {
                modules.remove(face);
            } else {
                modules.insert(face.clone(), kept);
            }
        }
    }
    changed
}

/// The distinct prime factors of |n| (none for 0 and ±1); trial division, as contents of
/// generators are small.
fn prime_factors(n: &Integer) -> Vec<i64> {
    let Some(mut n) = n.abs().to_i64() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut p = 2;
    while p * p <= n {
        if n % p == 0 {
            out.push(p);
            while n % p == 0 {
                n /= p;
            }
        }
        p += 1;
    }
    if n > 1 {
        out.push(n);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algebra::testing::v;

    type Listed<'a> = (&'a [&'a [i64]], &'a [&'a [i64]]);

    fn modules(list: &[Listed]) -> Modules {
        list.iter()
            .map(|(g, f)| {
                (
                    g.iter().map(|x| v(x)).collect(),
                    f.iter().map(|x| v(x)).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn two_residues_become_one_ray() {
        // {−1, 0} + 2N = −1 + N.
        let m = coalesce(modules(&[(&[&[2]], &[&[-1], &[0]])]), 1);
        assert_eq!(m, modules(&[(&[&[1]], &[&[-1]])]));
    }

    #[test]
    fn a_gap_keeps_the_coarse_generator() {
        // {0, 3} + 2N = {0, 2, 3, 4, ...} is not closed under +1 (1 is missing).
        let m = modules(&[(&[&[2]], &[&[0], &[3]])]);
        assert_eq!(coalesce(m.clone(), 1), m);
    }

    #[test]
    fn a_point_below_a_ray_is_absorbed() {
        // {0} ⊎ (1 + N) = N; and in d = 2, the face (0, 0) + N(1, 0) below (0, 1) + N^2.
        let m = coalesce(modules(&[(&[], &[&[0]]), (&[&[1]], &[&[1]])]), 1);
        assert_eq!(m, modules(&[(&[&[1]], &[&[0]])]));
        let m = coalesce(
            modules(&[(&[&[0, 1], &[1, 0]], &[&[0, 1]]), (&[&[1, 0]], &[&[0, 0]])]),
            2,
        );
        assert_eq!(m, modules(&[(&[&[0, 1], &[1, 0]], &[&[0, 0]])]));
    }

    #[test]
    fn a_stop_leaves_the_modules_as_they_are() {
        // Under a deadline already passed neither rewrite runs (each reads the stop before its
        // work: a coarser generator's tests over thousands of offsets took a second).
        let past = std::time::Instant::now();
        let rays = modules(&[(&[&[2]], &[&[-1], &[0]])]);
        let got = crate::interrupt::with_deadline(past, || coalesce(rays.clone(), 1));
        assert_eq!(got, rays);
        let face = modules(&[(&[], &[&[0]]), (&[&[1]], &[&[1]])]);
        let got = crate::interrupt::with_deadline(past, || coalesce(face.clone(), 1));
        assert_eq!(got, face);
        let got = crate::interrupt::with_deadline(past, || {
            coarser_generator(&[v(&[2])], &[v(&[-1]), v(&[0])], 1)
        });
        assert_eq!(got, None);
    }

    #[test]
    fn a_lower_boundary_that_is_not_parallel_stays() {
        // {(0, 0), (1, 1)} + N{(2, 0), (0, 1)}: closed under (1, 0)? (1, 0) is not a member.
        let m = modules(&[(&[&[0, 1], &[2, 0]], &[&[0, 0], &[1, 1]])]);
        assert_eq!(coalesce(m.clone(), 2), m);
    }
}
