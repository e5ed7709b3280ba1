//! Differential test of the exact cone engine against Normaliz: extreme rays, facets (support
//! hyperplanes), lineality and dimension of 64 seeded random cones of dimension 2 to 5, half given by
//! generators and half by inequalities.
//!
//! What is compared, exactly:
//! - the rank (dimension of the span) and the dimension of the lineality space;
//! - pointed cones: the extreme rays, as sets of primitive vectors;
//! - full-dimensional cones: the support hyperplanes, as sets of primitive vectors;
//! - always: the facets as sets of *tight rays* (which of our rays each hyperplane vanishes on),
//!   a comparison that does not depend on how a non-full-dimensional cone's hyperplanes or a
//!   non-pointed cone's rays are represented.

mod reference_tools;

use std::collections::BTreeSet;

use lattice_games::algebra::polyhedral::ConeData;
use lattice_games::algebra::Vector;
use reference_tools::Rng;

fn to_vectors(rows: &[Vec<i64>]) -> Vec<Vector> {
    rows.iter().map(|r| Vector::from_i64s(r)).collect()
}

fn set(vs: &[Vector]) -> BTreeSet<Vector> {
    vs.iter().cloned().collect()
}

fn tight_sets(hyperplanes: &[Vector], rays: &[Vector]) -> BTreeSet<Vec<bool>> {
    hyperplanes
        .iter()
        .map(|h| rays.iter().map(|r| h.dot(r).is_zero()).collect())
        .collect()
}

fn compare(d: usize, input_type: &str, rows: &[Vec<i64>]) -> bool {
    let ours = match input_type {
        "cone" => ConeData::from_generators(d, &to_vectors(rows)),
        _ => ConeData::from_inequalities(d, &to_vectors(rows)),
    }
    .expect("a cone");
    let Some(theirs) = reference_tools::normaliz::run(d, input_type, rows, &[], &["-s"]) else {
        panic!("normaliz failed on {input_type} {rows:?}");
    };
    let context =
        format!("{input_type} in dimension {d}: {rows:?}\nours: {ours:?}\nnormaliz: {theirs:?}");
    assert_eq!(ours.dim(), theirs.rank, "rank differs for {context}");
    let their_lineality = theirs.matrix("basis elements of maximal subspace");
    assert_eq!(
        ours.lineality().len(),
        their_lineality.len(),
        "lineality differs for {context}"
    );
    let their_rays = to_vectors(&theirs.matrix("extreme rays"));
    let their_facets = to_vectors(&theirs.matrix("support hyperplanes"));
    if ours.is_pointed() {
        assert_eq!(
            set(ours.rays()),
            set(&their_rays),
            "extreme rays differ for {context}"
        );
    } else {
        assert_eq!(
            ours.rays().len(),
            their_rays.len(),
            "number of extreme rays differs for {context}"
        );
    }
    if ours.is_full_dimensional() {
        assert_eq!(
            set(ours.facets()),
            set(&their_facets),
            "facets differ for {context}"
        );
    }
    assert_eq!(
        tight_sets(ours.facets(), ours.rays()),
        tight_sets(&their_facets, ours.rays()),
        "facets differ as faces for {context}"
    );
    ours.is_pointed() && ours.is_full_dimensional()
}

#[test]
fn cones_agree_with_normaliz() {
    if !reference_tools::require("normaliz") {
        return;
    }
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut compared = 0;
    let mut pointed_full = 0;
    for case in 0..64 {
        let d = 2 + case % 4;
        let (input_type, rows) = if case % 2 == 0 {
            let n = rng.next(d as i64 - 1, d as i64 + 4) as usize;
            // Generators leaning into the positive orthant, so most cones are pointed.
            let rows = (0..n)
                .map(|_| (0..d).map(|_| rng.next(-1, 3)).collect())
                .collect::<Vec<Vec<i64>>>();
            ("cone", rows)
        } else {
            let n = rng.next(1, d as i64 + 3) as usize;
            let rows = (0..n)
                .map(|_| (0..d).map(|_| rng.next(-2, 2)).collect())
                .collect::<Vec<Vec<i64>>>();
            ("inequalities", rows)
        };
        if rows.iter().all(|r: &Vec<i64>| r.iter().all(|x| *x == 0)) {
            continue;
        }
        if compare(d, input_type, &rows) {
            pointed_full += 1;
        }
        compared += 1;
    }
    eprintln!(
        "compared {compared} cones with Normaliz ({pointed_full} pointed and full-dimensional)"
    );
    assert!(compared >= 60);
}

#[test]
fn the_papers_cones_agree_with_normaliz() {
    if !reference_tools::require("normaliz") {
        return;
    }
    // [GM09] Example 3.1's Γ, Example 8.12's rule set (the columns of its 5×8 matrix), and the
    // Erratum's rule set, as cones R_+Γ.
    compare(
        3,
        "cone",
        &[vec![1, 0, 0], vec![0, 1, 0], vec![1, -1, 1], vec![-1, 1, 1]],
    );
    compare(
        5,
        "cone",
        &[
            vec![1, 0, 0, 0, 0],
            vec![0, 1, 0, 0, 0],
            vec![0, 0, 0, 1, 0],
            vec![0, 0, 0, 0, 1],
            vec![-1, 1, 0, 0, 0],
            vec![0, -1, 1, 0, 0],
            vec![0, 0, -1, 1, 0],
            vec![0, 0, 0, -1, 1],
        ],
    );
    compare(
        3,
        "cone",
        &[vec![1, 0, 0], vec![0, 1, 0], vec![0, 0, 1], vec![1, 1, 0]],
    );
}
