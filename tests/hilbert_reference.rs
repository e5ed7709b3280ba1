//! Differential test of Hilbert bases against Normaliz (every cone) and 4ti2 (every third cone,
//! given by the facets and equations our cone engine computed): 56 seeded random pointed cones of
//! dimension 2 to 5 with small entries, full-dimensional or not, compared as sets.

mod reference_tools;

use std::collections::BTreeSet;

use lattice_games::algebra::hilbert::hilbert_basis;
use lattice_games::algebra::polyhedral::ConeData;
use lattice_games::algebra::Vector;
use reference_tools::fourti2::Relation;

struct Rng(u64);

impl Rng {
    fn next(&mut self, lo: i64, hi: i64) -> i64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        lo + (self.0 % (hi - lo + 1) as u64) as i64
    }
}

fn as_i64(v: &Vector) -> Vec<i64> {
    v.0.iter()
        .map(|x| x.to_i64().expect("small entries"))
        .collect()
}

fn set(rows: Vec<Vec<i64>>) -> BTreeSet<Vec<i64>> {
    rows.into_iter().collect()
}

#[test]
fn hilbert_bases_agree_with_normaliz_and_4ti2() {
    if !reference_tools::require("normaliz") || !reference_tools::require("4ti2-hilbert") {
        return;
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut with_normaliz, mut with_4ti2, mut sizes) = (0, 0, Vec::new());
    let mut case = 0;
    while with_normaliz < 56 {
        case += 1;
        let d = 2 + case % 4;
        let n = rng.next(2, d as i64 + 2) as usize;
        // Mostly nonnegative entries (pointed cones); a few negative ones for variety.
        let gens: Vec<Vec<i64>> = (0..n)
            .map(|_| {
                (0..d)
                    .map(|_| rng.next(-1, 3).max(if case % 3 == 0 { -1 } else { 0 }))
                    .collect()
            })
            .collect();
        let vs: Vec<Vector> = gens
            .iter()
            .map(|g| Vector::from_i64s(g))
            .filter(|g| !g.is_zero())
            .collect();
        if vs.is_empty() {
            continue;
        }
        let cone = ConeData::from_generators(d, &vs).expect("a cone");
        if !cone.is_pointed() {
            continue;
        }
        let ours: BTreeSet<Vec<i64>> = hilbert_basis(d, &vs, None)
            .expect("pointed")
            .iter()
            .map(as_i64)
            .collect();
        let rows: Vec<Vec<i64>> = vs.iter().map(as_i64).collect();
        let nmz =
            reference_tools::normaliz::run(d, "cone", &rows, &[], &["-N"]).expect("normaliz runs");
        let theirs = set(nmz.hilbert_basis());
        assert_eq!(
            ours, theirs,
            "Hilbert basis of cone {rows:?} differs from Normaliz"
        );
        with_normaliz += 1;
        sizes.push(ours.len());
        if case % 3 == 0 {
            let mut system: Vec<(Vec<i64>, Relation)> = cone
                .facets()
                .iter()
                .map(|f| (as_i64(f), Relation::AtLeast))
                .collect();
            system.extend(
                cone.equations()
                    .iter()
                    .map(|e| (as_i64(e), Relation::Equal)),
            );
            let hil = reference_tools::fourti2::hilbert(d, &system).expect("4ti2 runs");
            assert_eq!(
                ours,
                set(hil),
                "Hilbert basis of cone {rows:?} differs from 4ti2"
            );
            with_4ti2 += 1;
        }
    }
    eprintln!(
        "compared {with_normaliz} Hilbert bases with Normaliz and {with_4ti2} with 4ti2 (largest has {} elements)",
        sizes.iter().max().unwrap_or(&0)
    );
    assert!(with_4ti2 >= 15);
}
