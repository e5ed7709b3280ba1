//! Differential test of the exact cone engine (`lattice_games::algebra::polyhedral`) against
//! Normaliz: 128 seeded random cones of dimension 2 to 5, half given by generators (Normaliz input
//! type `cone`) and half by inequalities (`inequalities`), plus the cones of the papers' rule sets.
//! A quarter of the cones are built to lie in a proper subspace (generators in a random subspace,
//! or inequalities containing an equation ±r), and many of the inequality cones have lineality.
//!
//! What is compared, exactly, for every cone:
//! - the rank (dimension of the span) and the embedding dimension;
//! - the lineality space (ours) and the "maximal subspace" (Normaliz's), as linear subspaces;
//! - the equations, as linear subspaces (the orthogonal complement of the span);
//! - the extreme rays, as sets of primitive vectors. Ours lie in the orthogonal complement of the
//!   lineality space; Normaliz gives each ray modulo its maximal subspace by some representative.
//!   So Normaliz's rays are projected orthogonally onto that complement and made primitive, which
//!   maps a representative to the unique primitive vector of its class there. For a pointed cone
//!   the projection is the identity and the raw rays are compared.
//! - the facets, as sets of primitive vectors. Ours are primitive inner normals lying in the span
//!   of the cone; Normaliz gives each support hyperplane modulo the equations. So Normaliz's are
//!   projected orthogonally onto the span and made primitive; for a full-dimensional cone this is
//!   the identity and the raw support hyperplanes are compared.
//!
//! Both normalisations are exact (rational arithmetic) and independent of the library's own
//! projection code.

mod reference_tools;

use std::collections::BTreeSet;

use lattice_games::algebra::linalg::{kernel, primitive_from_rational, solve};
use lattice_games::algebra::polyhedral::ConeData;
use lattice_games::algebra::{Integer, Matrix, Vector};
use num_bigint::BigInt;
use num_rational::BigRational;
use reference_tools::normaliz::NormalizOutput;
use reference_tools::Rng;

fn to_vectors(rows: &[Vec<i64>]) -> Vec<Vector> {
    rows.iter().map(|r| Vector::from_i64s(r)).collect()
}

fn set(vs: &[Vector]) -> BTreeSet<Vector> {
    vs.iter().cloned().collect()
}

/// A canonical basis of the span of `vs` in Q^d: the kernel of the kernel (each `kernel` is read off
/// a reduced row echelon form, so it depends only on the row space).
fn span(vs: &[Vector], d: usize) -> Vec<Vector> {
    kernel(&kernel(vs, d), d)
}

fn q(x: &Integer) -> BigRational {
    BigRational::from(BigInt::from(x.to_i64().expect("small test entries")))
}

/// The primitive vector on the orthogonal projection of `x` onto the orthogonal complement of
/// span(`basis`): x − Bᵀ(BBᵀ)⁻¹Bx, computed over Q.
fn project_off(x: &Vector, basis: &[Vector]) -> Vector {
    let d = x.dim();
    let b = span(basis, d);
    if b.is_empty() {
        return primitive_from_rational(&x.0.iter().map(q).collect::<Vec<_>>());
    }
    let gram = Matrix::from_rows(
        b.iter()
            .map(|u| b.iter().map(|w| u.dot(w)).collect())
            .collect(),
    )
    .expect("a Gram matrix");
    let rhs: Vec<BigRational> = b.iter().map(|u| q(&u.dot(x))).collect();
    let c = solve(&gram, &rhs).expect("an invertible Gram matrix");
    let p: Vec<BigRational> = (0..d)
        .map(|j| {
            let along: BigRational = c.iter().zip(&b).map(|(ci, u)| ci * q(&u.0[j])).sum();
            q(&x.0[j]) - along
        })
        .collect();
    primitive_from_rational(&p)
}

/// What kind of cone was compared.
#[derive(Default)]
struct Tally {
    compared: usize,
    pointed_full: usize,
    not_pointed: usize,
    not_full: usize,
    by_generators: usize,
}

fn ours(d: usize, input_type: &str, rows: &[Vec<i64>]) -> ConeData {
    match input_type {
        "cone" => ConeData::from_generators(d, &to_vectors(rows)),
        _ => ConeData::from_inequalities(d, &to_vectors(rows)),
    }
    .expect("a cone")
}

/// Compares our description of the cone with Normaliz's (see the module documentation).
fn compare(d: usize, input_type: &str, rows: &[Vec<i64>], tally: &mut Tally) {
    let ours = ours(d, input_type, rows);
    let Some(theirs): Option<NormalizOutput> =
        reference_tools::normaliz::run(d, input_type, rows, &[], &["-s"])
    else {
        panic!("normaliz failed on {input_type} {rows:?}");
    };
    let context =
        format!("{input_type} in dimension {d}: {rows:?}\nours: {ours:?}\nnormaliz: {theirs:?}");
    assert_eq!(theirs.embedding_dim, d, "embedding dimension for {context}");
    assert_eq!(ours.dim(), theirs.rank, "rank differs for {context}");
    let their_lineality = to_vectors(&theirs.maximal_subspace());
    assert_eq!(
        span(ours.lineality(), d),
        span(&their_lineality, d),
        "lineality differs for {context}"
    );
    assert_eq!(
        span(ours.equations(), d),
        span(&to_vectors(&theirs.equations()), d),
        "equations differ for {context}"
    );
    let their_rays = to_vectors(&theirs.extreme_rays());
    let their_facets = to_vectors(&theirs.support_hyperplanes());
    assert_eq!(
        ours.rays().len(),
        their_rays.len(),
        "ray count for {context}"
    );
    assert_eq!(
        ours.facets().len(),
        their_facets.len(),
        "facet count for {context}"
    );
    let rays: Vec<Vector> = their_rays
        .iter()
        .map(|r| project_off(r, &their_lineality))
        .collect();
    let facets: Vec<Vector> = their_facets
        .iter()
        .map(|f| project_off(f, ours.equations()))
        .collect();
    if ours.is_pointed() {
        assert_eq!(rays, their_rays, "a pointed cone's rays are not projected");
    }
    if ours.is_full_dimensional() {
        assert_eq!(
            facets, their_facets,
            "a full cone's facets are not projected"
        );
    }
    assert_eq!(
        set(ours.rays()),
        set(&rays),
        "extreme rays differ for {context}"
    );
    assert_eq!(
        set(ours.facets()),
        set(&facets),
        "facets differ for {context}"
    );
    tally.compared += 1;
    tally.pointed_full += usize::from(ours.is_pointed() && ours.is_full_dimensional());
    tally.not_pointed += usize::from(!ours.is_pointed());
    tally.not_full += usize::from(!ours.is_full_dimensional());
    tally.by_generators += usize::from(input_type == "cone");
}

/// A random integer matrix with `n` rows of `d` entries in lo..=hi.
fn matrix(rng: &mut Rng, n: usize, d: usize, lo: i64, hi: i64) -> Vec<Vec<i64>> {
    (0..n)
        .map(|_| (0..d).map(|_| rng.next(lo, hi)).collect())
        .collect()
}

/// `n` random combinations (coefficients in −1..=2) of the rows of `basis`.
fn in_subspace(rng: &mut Rng, n: usize, basis: &[Vec<i64>]) -> Vec<Vec<i64>> {
    let d = basis[0].len();
    (0..n)
        .map(|_| {
            let c: Vec<i64> = basis.iter().map(|_| rng.next(-1, 2)).collect();
            (0..d)
                .map(|j| c.iter().zip(basis).map(|(ci, b)| ci * b[j]).sum())
                .collect()
        })
        .collect()
}

/// The `case`-th random cone: its dimension, Normaliz input type and rows.
fn random_cone(rng: &mut Rng, case: usize) -> (usize, &'static str, Vec<Vec<i64>>) {
    let d = 2 + (case / 4) % 4;
    let di = d as i64;
    match case % 4 {
        // Generators leaning into the positive orthant, so most cones are pointed.
        0 => {
            let n = rng.next(di - 1, di + 4) as usize;
            (d, "cone", matrix(rng, n, d, -1, 3))
        }
        // Random inequalities; with fewer than d of them the cone has lineality.
        1 => {
            let n = rng.next(1, di + 3) as usize;
            (d, "inequalities", matrix(rng, n, d, -2, 2))
        }
        // Generators in a random proper subspace.
        2 => {
            let m = rng.next(1, di - 1) as usize;
            let basis = matrix(rng, m, d, -2, 2);
            let n = rng.next(1, di + 3) as usize;
            (d, "cone", in_subspace(rng, n, &basis))
        }
        // Inequalities including an equation r·x = 0, given as r ≥ 0 and −r ≥ 0.
        _ => {
            let n = rng.next(1, di + 2) as usize;
            let mut rows = matrix(rng, n, d, -2, 2);
            let r: Vec<i64> = (0..d).map(|_| rng.next(-2, 2)).collect();
            rows.push(r.iter().map(|x| -x).collect());
            rows.push(r);
            (d, "inequalities", rows)
        }
    }
}

#[test]
fn cones_agree_with_normaliz() {
    if !reference_tools::require("normaliz") {
        return;
    }
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut tally = Tally::default();
    let mut skipped = 0;
    for case in 0..128 {
        let (d, input_type, rows) = random_cone(&mut rng, case);
        // Normaliz rejects an input whose rows are all zero (the cone {0} or the whole space).
        if rows.iter().all(|r| r.iter().all(|x| *x == 0)) {
            skipped += 1;
            continue;
        }
        compare(d, input_type, &rows, &mut tally);
    }
    eprintln!(
        "compared {} cones with Normaliz ({} given by generators; {} pointed and \
         full-dimensional, {} with lineality, {} not full-dimensional; {skipped} all-zero inputs \
         skipped)",
        tally.compared, tally.by_generators, tally.pointed_full, tally.not_pointed, tally.not_full
    );
    assert!(tally.compared >= 120);
    assert!(tally.pointed_full >= 30 && tally.not_pointed >= 10 && tally.not_full >= 30);
}

#[test]
fn the_papers_cones_agree_with_normaliz() {
    if !reference_tools::require("normaliz") {
        return;
    }
    let mut tally = Tally::default();
    // [GM09] Example 3.1's Γ, Example 8.12's rule set (the columns of its 5×8 matrix), and the
    // Erratum's rule set, as cones R_+Γ.
    compare(
        3,
        "cone",
        &[vec![1, 0, 0], vec![0, 1, 0], vec![1, -1, 1], vec![-1, 1, 1]],
        &mut tally,
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
        &mut tally,
    );
    compare(
        3,
        "cone",
        &[vec![1, 0, 0], vec![0, 1, 0], vec![0, 0, 1], vec![1, 1, 0]],
        &mut tally,
    );
    // [GM09] Example 3.1's negative tangent cone of R^3_+ along e3, {x1 ≤ 0, x2 ≤ 0}.
    compare(
        3,
        "inequalities",
        &[vec![-1, 0, 0], vec![0, -1, 0]],
        &mut tally,
    );
    assert_eq!(tally.compared, 4);
}
