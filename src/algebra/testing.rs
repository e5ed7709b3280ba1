//! Helpers shared by the algebra's test modules: short vectors, every point of a box, and random
//! modules F + A with small nonnegative entries.

use proptest::prelude::*;

use super::{AffineModule, AffineSemigroup, Vector};

/// The vector with these coordinates.
pub(crate) fn v(xs: &[i64]) -> Vector {
    Vector::from_i64s(xs)
}

/// Every point of the box [lo, hi]^d as machine integers, in lexicographic order.
pub(crate) fn box_coordinates(d: usize, lo: i64, hi: i64) -> Vec<Vec<i64>> {
    let mut points = vec![Vec::new()];
    for _ in 0..d {
        points = points
            .into_iter()
            .flat_map(|p: Vec<i64>| {
                (lo..=hi).map(move |x| {
                    let mut q = p.clone();
                    q.push(x);
                    q
                })
            })
            .collect();
    }
    points
}

/// Every point of the box [lo, hi]^d, in lexicographic order.
pub(crate) fn box_points(d: usize, lo: i64, hi: i64) -> Vec<Vector> {
    box_coordinates(d, lo, hi).iter().map(|p| v(p)).collect()
}

/// A random module F + A in Z^d: 1–3 offsets and 1–4 nonzero generators with entries in 0..=3.
pub(crate) fn arb_module(d: usize) -> impl Strategy<Value = AffineModule> {
    (
        proptest::collection::vec(proptest::collection::vec(0i64..=3, d), 1..=3),
        proptest::collection::vec(proptest::collection::vec(0i64..=3, d), 1..=4),
    )
        .prop_filter_map("a nonzero generator", move |(offsets, gens)| {
            let gens: Vec<Vector> = gens.iter().map(|g| v(g)).filter(|g| !g.is_zero()).collect();
            if gens.is_empty() {
                return None;
            }
            let a = AffineSemigroup::new(gens).ok()?;
            AffineModule::new(offsets.iter().map(|f| v(f)).collect(), a).ok()
        })
}
