//! The second guess of `stratify`: a cover of the P-positions of a solved region by pieces
//! b + N{g_1..g_k} ([GM11] Definition 4.1's affine modules with one offset), independent g_j
//! from a pool of small lattice vectors.
//!
//! The P-positions are taken lightest first; each one not yet covered becomes the offset b of
//! pieces whose generators are rays of P at b (b + N g ⊆ P on the region, with some evidence:
//! b + 2g must lie in the region), chosen greedily (sparsest first, so that a piece's cone
//! reaches the edges of the region where its pattern holds) among those keeping the whole piece
//! inside P on the region. The rays at b may span a cone that is not simplicial: a ray that the
//! pieces so far leave wholly uncovered starts another piece at b. Offsets are
//! taken from the lighter part of the region only, so that each period is tested on a long
//! stretch; the heavier P-positions must then be covered by the pieces, which is checked on the
//! region before anything is verified on the whole board.

use super::region::WeightRegion;
use crate::algebra::linalg::rank;
use crate::algebra::Vector;

/// One piece b + N{g_1..g_k}.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Piece {
    pub(super) offset: Vec<i64>,
    pub(super) generators: Vec<Vec<i64>>,
}

/// A cover of the light P-positions of a region.
pub(super) struct Cover {
    pub(super) pieces: Vec<Piece>,
    /// The lightest P-position of the region that no piece covers, if any: the guess is wrong.
    pub(super) uncovered: Option<Vec<i64>>,
    /// Whether the cover was given up past its piece limit (at `uncovered`).
    pub(super) too_many: bool,
}

/// Covers given up past their piece limit in earlier rounds, so that a round does not spend
/// seconds on one that cannot do better. A cover given up at the P-position x of weight w on the
/// region of weight ≤ W, where every ray from the offsets up to w was checked as far as it needs
/// (w + 2 max ℓ·g ≤ W), is not run again with axis slabs that allow no more and no new
/// directions: on a larger region the rays and cones at those offsets can only be refuted,
/// never added, so it would need as many pieces before reaching x again.
#[derive(Default)]
pub(super) struct GivenUpCovers {
    given_up: Vec<GivenUp>,
}

/// A cover given up past its piece limit (see [`GivenUpCovers`]).
#[derive(Clone, Debug)]
pub(super) struct GivenUp {
    pool: Vec<Vec<i64>>,
    slabs: Vec<Option<(i64, i64)>>,
    /// The region's weight bound W.
    pub(super) bound: i64,
    /// The P-position at which it was given up.
    pub(super) at: Vec<i64>,
}

impl GivenUpCovers {
    /// The cover of [`cover`], or the cover given up before that rules it out (`Err`); `None`
    /// when interrupted.
    pub(super) fn cover(
        &mut self,
        region: &WeightRegion,
        pool: &[Vec<i64>],
        offsets_up_to: i64,
        slabs: &[Option<(i64, i64)>],
        max_pieces: usize,
    ) -> Option<Result<Cover, GivenUp>> {
        if let Some(before) = self.given_up.iter().find(|before| {
            let reach = before
                .pool
                .iter()
                .map(|g| region.weight(g))
                .max()
                .unwrap_or(0);
            restricts_as_much(slabs, &before.slabs)
                && pool.iter().all(|g| before.pool.contains(g))
                && region.weight(&before.at) + 2 * reach <= before.bound
        }) {
            return Some(Err(before.clone()));
        }
        let found = cover(region, pool, region.ell(), offsets_up_to, slabs, max_pieces)?;
        if let (true, Some(at)) = (found.too_many, &found.uncovered) {
            self.given_up.push(GivenUp {
                pool: pool.to_vec(),
                slabs: slabs.to_vec(),
                bound: region.bound(),
                at: at.clone(),
            });
        }
        Some(Ok(found))
    }
}

/// Whether the slabs allow a generator at an offset only where `than` does too: on each axis
/// `than` is free, or the slab starts no lower with a period that is a multiple of its period.
fn restricts_as_much(slabs: &[Option<(i64, i64)>], than: &[Option<(i64, i64)>]) -> bool {
    slabs
        .iter()
        .zip(than)
        .all(|(now, before)| match (now, before) {
            (_, None) => true,
            (Some((t, p)), Some((t0, p0))) => t >= t0 && p % p0 == 0,
            (None, Some(_)) => false,
        })
}

/// Whether the integer vectors are linearly independent.
pub(super) fn independent(vectors: &[Vec<i64>]) -> bool {
    let Some(first) = vectors.first() else {
        return true;
    };
    let rows: Vec<Vector> = vectors.iter().map(|v| Vector::from_i64s(v)).collect();
    rank(&rows, first.len()) == vectors.len()
}

/// Candidate generators on N^d: the nonzero vectors with entries in 0..=m (m = 8 in d ≤ 2, so
/// that periods along a diagonal such as (6, 6) are available; 2 beyond) and the
/// axis periods found, sparsest first, then lightest.
pub(super) fn period_pool(ell: &[i64], axis: &[Option<(i64, i64)>]) -> Vec<Vec<i64>> {
    let d = ell.len();
    let m = if d <= 2 { 8 } else { 2 };
    let mut pool: Vec<Vec<i64>> = vec![Vec::new()];
    for _ in 0..d {
        pool = pool
            .into_iter()
            .flat_map(|v| {
                (0..=m).map(move |x| {
                    let mut w = v.clone();
                    w.push(x);
                    w
                })
            })
            .collect();
    }
    pool.retain(|g| g.iter().any(|&x| x != 0));
    for (i, a) in axis.iter().enumerate() {
        if let Some((_, p)) = a {
            let mut g = vec![0; d];
            g[i] = *p;
            if !pool.contains(&g) {
                pool.push(g);
            }
        }
    }
    let weight = |g: &[i64]| -> i64 { g.iter().zip(ell).map(|(a, b)| a * b).sum() };
    pool.sort_by_key(|g| (g.iter().filter(|&&x| x != 0).count(), weight(g), g.clone()));
    pool
}

/// The cover of the P-positions of weight ≤ `offsets_up_to` (see the module documentation);
/// `None` when interrupted.
pub(super) fn cover(
    region: &WeightRegion,
    pool: &[Vec<i64>],
    ell: &[i64],
    offsets_up_to: i64,
    slabs: &[Option<(i64, i64)>],
    max_pieces: usize,
) -> Option<Cover> {
    // A generator may move along axis i only from the periodic part x_i ≥ t_i, by multiples
    // of p_i.
    let allowed = |b: &[i64], g: &[i64]| -> bool {
        slabs.iter().enumerate().all(|(i, s)| match s {
            Some((t, p)) => g[i] == 0 || (b[i] >= *t && g[i] % p == 0),
            None => true,
        })
    };
    let mut covered = WeightRegion::empty(ell, region.bound());
    let mut pieces = Vec::new();
    let d = ell.len();
    for w in 0..=offsets_up_to.min(region.bound()) {
        let slice = region.members_of_weight(w);
        for b in slice.chunks_exact(d) {
            if covered.is_p(b) == Some(true) {
                continue;
            }
            if pieces.len() >= max_pieces {
                return Some(Cover {
                    pieces,
                    uncovered: Some(b.to_vec()),
                    too_many: true,
                });
            }
            // The rays b + N g inside P on the region, with some evidence (b + 2g in the region).
            let mut rays: Vec<&Vec<i64>> = Vec::new();
            for g in pool {
                if crate::interrupt::requested() {
                    return None;
                }
                // b + 2g in the region (b and g are nonnegative).
                if allowed(b, g)
                    && region.weight(b) + 2 * region.weight(g) <= region.bound()
                    && region.cone_inside(b, std::slice::from_ref(g))
                {
                    rays.push(g);
                }
            }
            // One cone from the first ray, and another from each ray that the pieces so far leave
            // wholly uncovered (the local cone of P at b need not be simplicial).
            let mut first = true;
            for &start in &rays {
                if !first && {
                    // b + g, b + 2g, .. (b itself is covered by the first piece).
                    let next: Vec<i64> = b.iter().zip(start).map(|(a, c)| a + c).collect();
                    let mut touched = false;
                    covered.cone_walk(&next, std::slice::from_ref(start), &mut |at| {
                        touched = covered.get(at);
                        !touched
                    });
                    touched
                } {
                    continue;
                }
                first = false;
                let mut gens = vec![start.clone()];
                for &g in &rays {
                    if gens.len() == b.len() {
                        break;
                    }
                    if crate::interrupt::requested() {
                        return None;
                    }
                    if g == start {
                        continue;
                    }
                    gens.push(g.clone());
                    if !(independent(&gens) && region.cone_inside(b, &gens)) {
                        gens.pop();
                    }
                }
                covered.insert_cone(b, &gens);
                pieces.push(Piece {
                    offset: b.to_vec(),
                    generators: gens,
                });
            }
            if first {
                covered.insert(b);
                pieces.push(Piece {
                    offset: b.to_vec(),
                    generators: Vec::new(),
                });
            }
        }
    }
    let pieces = prune(&covered, pieces)?;
    // The lightest member left uncovered, weight by weight.
    let mut uncovered = None;
    for w in 0..=region.bound() {
        if crate::interrupt::requested() {
            return None;
        }
        let slice = region.members_of_weight(w);
        if let Some(b) = slice
            .chunks_exact(d)
            .find(|b| covered.is_p(b) != Some(true))
        {
            uncovered = Some(b.to_vec());
            break;
        }
    }
    Some(Cover {
        pieces,
        uncovered,
        too_many: false,
    })
}

/// Drops the pieces whose points in the region all lie in other pieces too, the latest first
/// (so the pieces of the lightest offsets stay). The generators of a piece are independent, so
/// its walk meets each point once; counts saturate (a saturated point is never uncovered).
/// `None` when interrupted.
fn prune(region: &WeightRegion, pieces: Vec<Piece>) -> Option<Vec<Piece>> {
    let mut count = vec![0u8; region.len() as usize];
    for piece in &pieces {
        if crate::interrupt::requested() {
            return None;
        }
        region.cone_walk(&piece.offset, &piece.generators, &mut |at| {
            let c = &mut count[at as usize];
            *c = c.saturating_add(1);
            true
        });
    }
    let mut keep = vec![true; pieces.len()];
    for j in (0..pieces.len()).rev() {
        if crate::interrupt::requested() {
            return None;
        }
        let piece = &pieces[j];
        let mut shared = true;
        region.cone_walk(&piece.offset, &piece.generators, &mut |at| {
            shared = count[at as usize] >= 2;
            shared
        });
        if shared {
            keep[j] = false;
            region.cone_walk(&piece.offset, &piece.generators, &mut |at| {
                let c = &mut count[at as usize];
                if *c < u8::MAX {
                    *c -= 1;
                }
                true
            });
        }
    }
    Some(
        pieces
            .into_iter()
            .zip(keep)
            .filter_map(|(p, k)| k.then_some(p))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn independence_is_exact() {
        assert!(independent(&[vec![2, 0, 0], vec![0, 2, 2]]));
        assert!(!independent(&[vec![2, 0, 0], vec![0, 2, 2], vec![2, 4, 4]]));
        assert!(!independent(&[vec![0, 0]]));
        assert!(independent(&[vec![3, 5], vec![5, 8]]));
        assert!(!independent(&[vec![1, 0], vec![0, 1], vec![1, 1]]));
    }

    #[test]
    fn a_union_of_two_cones_is_covered() {
        // Members: (0, 0) + N{(2, 0), (0, 3)} and (1, 1) + N{(1, 1)}.
        let ell = [1, 1];
        let mut region = WeightRegion::empty(&ell, 30);
        region.insert_cone(&[0, 0], &[vec![2, 0], vec![0, 3]]);
        region.insert_cone(&[1, 1], &[vec![1, 1]]);
        let pool = period_pool(&ell, &[None, None]);
        let found = cover(&region, &pool, &ell, 20, &[None, None], 100).unwrap();
        assert_eq!(found.uncovered, None);
        assert_eq!(
            found.pieces,
            vec![
                Piece {
                    offset: vec![0, 0],
                    generators: vec![vec![2, 0], vec![0, 3]]
                },
                Piece {
                    offset: vec![1, 1],
                    generators: vec![vec![1, 1]]
                }
            ]
        );
        // With offsets up to weight 1 only, (1, 1) is left uncovered.
        let found = cover(&region, &pool, &ell, 1, &[None, None], 100).unwrap();
        assert_eq!(found.uncovered, Some(vec![1, 1]));
    }
}
