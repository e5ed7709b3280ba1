//! The Hilbert basis of a full-dimensional pointed cone in machine integers, reducing candidates
//! first inside their own simplicial cone (as libnormaliz does; our own code).
//!
//! For each simplicial cone σ = R_+{v_1..v_k} of the triangulation, the lattice points of its
//! half-open parallelepiped are listed as n·λ (n = |det V|, 0 ≤ n·λ_j < n), which the odometer of
//! [`super::parallelepiped_group`] produces with one vector addition mod n per point, and nothing
//! else is computed for them at first. They are reduced among themselves in these coordinates:
//! if x = y + z with y, z nonzero lattice points of σ, then λ(y), λ(z) ≤ λ(x) < 1, so y and z are
//! parallelepiped points too, one of them has norm Σλ_j at most half of x's, and the irreducible
//! element below it is one found earlier in the order of norms. So x is reducible in σ exactly
//! when n·λ(h) ≤ n·λ(x) coordinatewise for a kept h with 2·norm(h) ≤ norm(x). What survives is
//! the Hilbert basis of σ ∩ Z^k without its rays, and the Hilbert basis of C lies in the rays of
//! C and these survivors (an element irreducible in C is irreducible in σ ⊂ C): typically a tenth
//! of the points or less. Only the survivors are mapped to Z^k, with their degree and facet
//! values, and reduced globally as in [`super`].
//!
//! Bounds (checked by the caller): k ≤ 32, entries of rays, facets and grading below 2^24, and
//! n ≤ 2^24 (see `max_points`). Then n·λ_j fits in u32, norms and indices in 32 bits each,
//! Σ n·λ_j v_j in i64 (< 2^53), points have entries below 2^29 and degrees and facet values stay
//! below 2^58.

use super::parallelepiped_group;
use crate::algebra::{AlgebraError, Integer, Vector};

/// The most points a simplicial cone in R^k may have: its points take 4k + 8 bytes each while it
/// is reduced, at most 1 GiB in all, and at most 2^24 points.
fn max_points(k: usize) -> i64 {
    ((1i64 << 30) / (4 * k as i64 + 8)).min(1 << 24)
}

/// Candidates stored flat: per candidate its degree, its F facet values and its k coordinates.
struct Candidates {
    stride: usize,
    f: usize,
    data: Vec<i64>,
}

impl Candidates {
    fn new(f: usize, k: usize) -> Candidates {
        Candidates {
            stride: 1 + f + k,
            f,
            data: Vec::new(),
        }
    }

    fn len(&self) -> usize {
        self.data.len() / self.stride
    }

    fn get(&self, i: usize) -> &[i64] {
        &self.data[i * self.stride..(i + 1) * self.stride]
    }

    fn degree(&self, i: usize) -> i64 {
        self.data[i * self.stride]
    }

    fn values(&self, i: usize) -> &[i64] {
        &self.data[i * self.stride + 1..i * self.stride + 1 + self.f]
    }

    fn point(&self, i: usize) -> &[i64] {
        &self.data[i * self.stride + 1 + self.f..(i + 1) * self.stride]
    }

    /// Appends the point x with its degree and facet values.
    fn push(&mut self, x: &[i64], grading: &[i64], facets: &[Vec<i64>]) {
        self.data.push(dot(grading, x));
        self.data.extend(facets.iter().map(|f| dot(f, x)));
        self.data.extend_from_slice(x);
    }
}

fn dot(a: &[i64], b: &[i64]) -> i64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn machine(v: &Vector) -> Vec<i64> {
    v.0.iter()
        .map(|x| x.to_i64().expect("checked to fit by the caller"))
        .collect()
}

/// The Hilbert basis of the cone with these rays and facets, from its triangulation.
pub(super) fn hilbert_basis(
    rays: &[Vector],
    facets: &[Vector],
    grading: &Vector,
    simplices: &[Vec<Vector>],
) -> Result<Vec<Vector>, AlgebraError> {
    let k = grading.dim();
    let facets: Vec<Vec<i64>> = facets.iter().map(machine).collect();
    let grading = machine(grading);
    let mut candidates = Candidates::new(facets.len(), k);
    for r in rays {
        candidates.push(&machine(r), &grading, &facets);
    }
    for s in simplices {
        simplex_survivors(s, &grading, &facets, &mut candidates)?;
    }
    let kept = reduce_globally(&candidates)?;
    Ok(kept
        .into_iter()
        .map(|i| {
            Vector(
                candidates
                    .point(i)
                    .iter()
                    .map(|&x| Integer::from(x))
                    .collect(),
            )
        })
        .collect())
}

/// Appends the irreducible parallelepiped points of the simplicial cone spanned by `vs`.
#[inline(never)]
fn simplex_survivors(
    vs: &[Vector],
    grading: &[i64],
    facets: &[Vec<i64>],
    out: &mut Candidates,
) -> Result<(), AlgebraError> {
    let k = vs.len();
    let group = parallelepiped_group(vs, max_points(k), "the triangulation")?;
    let n = group.order.to_i64().expect("bounded by max_points");
    if n == 1 {
        return Ok(());
    }
    let factors: Vec<(i64, Vec<i64>)> = group
        .factors
        .iter()
        .map(|(d, step)| {
            (
                d.to_i64().expect("divides n"),
                machine(&Vector(step.clone())),
            )
        })
        .collect();
    // Every nonzero point as n·λ (k values below n), and (norm, index) to sort by.
    let count = (n - 1) as usize;
    let mut lam: Vec<u32> = Vec::with_capacity(count * k);
    let mut order: Vec<u64> = Vec::with_capacity(count);
    let mut current = vec![0i64; k];
    let mut digits = vec![0i64; factors.len()];
    loop {
        // Next point, odometer style; d_i steps of a factor add up to 0 mod n.
        let mut i = factors.len();
        loop {
            if i == 0 {
                break;
            }
            i -= 1;
            let (d, step) = &factors[i];
            for (l, s) in current.iter_mut().zip(step) {
                *l += s;
                if *l >= n {
                    *l -= n;
                }
            }
            digits[i] += 1;
            if digits[i] < *d {
                break;
            }
            digits[i] = 0;
        }
        if current.iter().all(|&x| x == 0) {
            break;
        }
        let norm: i64 = current.iter().sum();
        order.push(((norm as u64) << 32) | (order.len() as u64));
        lam.extend(current.iter().map(|&x| x as u32));
        if order.len().is_multiple_of(1 << 16) && crate::interrupt::requested() {
            return Err(AlgebraError::Interrupted);
        }
    }
    order.sort_unstable();
    // Reduction inside the simplex, in order of norm.
    let mut kept: Vec<(u64, usize)> = Vec::new();
    let mut first_try = 0usize;
    for (done, &key) in order.iter().enumerate() {
        if done % 4096 == 0 && crate::interrupt::requested() {
            return Err(AlgebraError::Interrupted);
        }
        let (norm, i) = (key >> 32, (key & 0xFFFF_FFFF) as usize);
        let x = &lam[i * k..(i + 1) * k];
        let limit = kept.partition_point(|&(m, _)| 2 * m <= norm);
        let reducible = kept[..limit].iter().any(|&(_, h)| {
            let y = &lam[h * k..(h + 1) * k];
            // The coordinate that failed last is tried first.
            if y[first_try] > x[first_try] {
                return false;
            }
            match (0..k).find(|&j| y[j] > x[j]) {
                Some(j) => {
                    first_try = j;
                    false
                }
                None => true,
            }
        });
        if !reducible {
            kept.push((norm, i));
        }
    }
    // The survivors in Z^k: x = Σ (n·λ_j) v_j / n.
    let vs: Vec<Vec<i64>> = vs.iter().map(machine).collect();
    let mut x = vec![0i64; k];
    for &(_, i) in &kept {
        let l = &lam[i * k..(i + 1) * k];
        for (c, xc) in x.iter_mut().enumerate() {
            let s: i64 = l.iter().zip(&vs).map(|(&a, v)| i64::from(a) * v[c]).sum();
            debug_assert_eq!(s % n, 0);
            *xc = s / n;
        }
        out.push(&x, grading, facets);
    }
    Ok(())
}

/// The indices of the irreducible candidates: sorted by degree (and point, to drop repeats), each
/// reducible exactly when x − h ∈ C for a kept h of at most half its degree, that is when h's
/// facet values are all at most x's (the cone is full-dimensional). Most kept h fail on some
/// facet, and the facet that failed last is tried first. (Screening with a packed copy of a few
/// facets of largest spread was tried and was slower than this.)
#[inline(never)]
fn reduce_globally(c: &Candidates) -> Result<Vec<usize>, AlgebraError> {
    let mut order: Vec<usize> = (0..c.len()).collect();
    order.sort_unstable_by(|&a, &b| (c.degree(a), c.point(a)).cmp(&(c.degree(b), c.point(b))));
    order.dedup_by(|a, b| c.get(*a) == c.get(*b));
    let f = c.f;
    if f == 0 {
        return Ok(order);
    }
    let mut kept: Vec<usize> = Vec::new();
    let mut kept_degree: Vec<i64> = Vec::new();
    let mut kept_values: Vec<i64> = Vec::new();
    let mut first_try = 0usize;
    for (done, &i) in order.iter().enumerate() {
        if done % 4096 == 0 && crate::interrupt::requested() {
            return Err(AlgebraError::Interrupted);
        }
        let (deg, x) = (c.degree(i), c.values(i));
        let limit = kept_degree.partition_point(|&m| 2 * m <= deg);
        let reducible = kept_values[..limit * f].chunks_exact(f).any(|h| {
            if h[first_try] > x[first_try] {
                return false;
            }
            match (0..f).find(|&j| h[j] > x[j]) {
                Some(j) => {
                    first_try = j;
                    false
                }
                None => true,
            }
        });
        if !reducible {
            kept.push(i);
            kept_degree.push(deg);
            kept_values.extend_from_slice(x);
        }
    }
    Ok(kept)
}
