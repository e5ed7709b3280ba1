//! Lattices in Z^d: Hermite and Smith normal forms with their unimodular transforms, bases of
//! sublattices, membership, the index |Z^d / L| and saturation, and Z-bases of integer kernels.
//!
//! [GM09] Definition 3.7 calls a rule set Γ *saturated* when ZΓ = Z^d, that is when the lattice it
//! generates has index 1. All arithmetic is exact ([`Integer`]: machine words with overflow checks,
//! big integers beyond).

use super::{Integer, Matrix, Vector};

/// U·A = H with H in row-style Hermite normal form and U unimodular.
///
/// H's nonzero rows come first; each has a positive pivot strictly right of the pivot above it,
/// and the entries above a pivot lie in `0..pivot`; zero rows come last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HermiteForm {
    /// The Hermite normal form H.
    pub h: Matrix,
    /// The unimodular transform U with U·A = H.
    pub u: Matrix,
    /// The number of nonzero rows of H (the rank of A).
    pub rank: usize,
}

/// U·A·V = D with D diagonal (`diagonal` holds its min(m, n) entries), each entry dividing the
/// next, the nonzero ones first and positive; U and V unimodular.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmithForm {
    /// The diagonal of D.
    pub diagonal: Vec<Integer>,
    /// The unimodular row transform U.
    pub u: Matrix,
    /// The unimodular column transform V.
    pub v: Matrix,
}

type Rows = Vec<Vec<Integer>>;

fn identity(n: usize) -> Rows {
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| if i == j { Integer::ONE } else { Integer::ZERO })
                .collect()
        })
        .collect()
}

fn to_rows(a: &Matrix) -> Rows {
    a.rows().into_iter().map(|r| r.0).collect()
}

fn to_matrix(rows: Rows) -> Matrix {
    Matrix::from_rows(rows).expect("transforms keep a nonempty shape")
}

/// Extended gcd: (g, x, y) with x·a + y·b = g = gcd(a, b) ≥ 0.
fn extended_gcd(a: &Integer, b: &Integer) -> (Integer, Integer, Integer) {
    let (mut r0, mut r1) = (a.clone(), b.clone());
    let (mut s0, mut s1) = (Integer::ONE, Integer::ZERO);
    let (mut t0, mut t1) = (Integer::ZERO, Integer::ONE);
    while !r1.is_zero() {
        let q = r0.div_floor(&r1).expect("r1 is not zero");
        let r2 = &r0 - &(&q * &r1);
        r0 = std::mem::replace(&mut r1, r2);
        let s2 = &s0 - &(&q * &s1);
        s0 = std::mem::replace(&mut s1, s2);
        let t2 = &t0 - &(&q * &t1);
        t0 = std::mem::replace(&mut t1, t2);
    }
    if r0.signum() < 0 {
        (-r0, -s0, -t0)
    } else {
        (r0, s0, t0)
    }
}

/// Replaces rows i and j of every matrix in `ms` by (p·row_i + q·row_j, r·row_i + s·row_j).
fn combine_rows(
    ms: &mut [&mut Rows],
    i: usize,
    j: usize,
    p: &Integer,
    q: &Integer,
    r: &Integer,
    s: &Integer,
) {
    for m in ms.iter_mut() {
        let (ri, rj) = (m[i].clone(), m[j].clone());
        m[i] = ri
            .iter()
            .zip(&rj)
            .map(|(x, y)| &(p * x) + &(q * y))
            .collect();
        m[j] = ri
            .iter()
            .zip(&rj)
            .map(|(x, y)| &(r * x) + &(s * y))
            .collect();
    }
}

/// row_i ← row_i − k·row_j in every matrix of `ms`.
fn subtract_row(ms: &mut [&mut Rows], i: usize, j: usize, k: &Integer) {
    for m in ms.iter_mut() {
        let rj = m[j].clone();
        for (x, y) in m[i].iter_mut().zip(&rj) {
            *x = &*x - &(k * y);
        }
    }
}

/// The row-style Hermite normal form of A with its transform.
pub fn hermite_normal_form(a: &Matrix) -> HermiteForm {
    let (m, n) = (a.nrows(), a.ncols());
    let mut h = to_rows(a);
    let mut u = identity(m);
    let mut r = 0;
    for c in 0..n {
        if r == m {
            break;
        }
        // Clear column c below row r by gcd steps.
        for i in r + 1..m {
            if h[i][c].is_zero() {
                continue;
            }
            let (a_rc, a_ic) = (h[r][c].clone(), h[i][c].clone());
            let (g, x, y) = extended_gcd(&a_rc, &a_ic);
            let p = a_rc.div_floor(&g).expect("g divides a");
            let q = a_ic.div_floor(&g).expect("g divides b");
            // [x y; −q p] has determinant x·p + y·q = 1.
            combine_rows(&mut [&mut h, &mut u], r, i, &x, &y, &-&q, &p);
        }
        if h[r][c].is_zero() {
            continue;
        }
        if h[r][c].signum() < 0 {
            for m_ in [&mut h, &mut u] {
                m_[r] = m_[r].iter().map(|x| -x).collect();
            }
        }
        // Reduce the entries above the pivot into 0..pivot.
        let pivot = h[r][c].clone();
        for i in 0..r {
            let k = h[i][c].div_floor(&pivot).expect("the pivot is positive");
            if !k.is_zero() {
                subtract_row(&mut [&mut h, &mut u], i, r, &k);
            }
        }
        r += 1;
    }
    HermiteForm {
        h: to_matrix(h),
        u: to_matrix(u),
        rank: r,
    }
}

/// The Smith normal form of A with its transforms.
pub fn smith_normal_form(a: &Matrix) -> SmithForm {
    let (m, n) = (a.nrows(), a.ncols());
    let mut d = to_rows(a);
    let mut u = identity(m);
    // Column operations are row operations on the transpose: keep Dᵀ in sync through V.
    let mut v = identity(n);
    let swap_cols = |d: &mut Rows, v: &mut Rows, i: usize, j: usize| {
        for row in d.iter_mut() {
            row.swap(i, j);
        }
        for row in v.iter_mut() {
            row.swap(i, j);
        }
    };
    let sub_col = |d: &mut Rows, v: &mut Rows, i: usize, j: usize, k: &Integer| {
        // column_i ← column_i − k·column_j
        for row in d.iter_mut().chain(v.iter_mut()) {
            let y = row[j].clone();
            row[i] = &row[i] - &(k * &y);
        }
    };
    for t in 0..m.min(n) {
        loop {
            // The nonzero entry of least absolute value in the remaining block goes to (t, t).
            let best = (t..m)
                .flat_map(|i| (t..n).map(move |j| (i, j)))
                .filter(|&(i, j)| !d[i][j].is_zero())
                .min_by(|&(i, j), &(k, l)| d[i][j].abs().cmp(&d[k][l].abs()));
            let Some((bi, bj)) = best else {
                return finish(d, u, v, m, n);
            };
            d.swap(t, bi);
            u.swap(t, bi);
            swap_cols(&mut d, &mut v, t, bj);
            let pivot = d[t][t].clone();
            let mut clean = true;
            for i in t + 1..m {
                let k = d[i][t].div_floor(&pivot).expect("pivot is not zero");
                if !k.is_zero() {
                    subtract_row(&mut [&mut d, &mut u], i, t, &k);
                }
                clean &= d[i][t].is_zero();
            }
            for j in t + 1..n {
                let k = d[t][j].div_floor(&pivot).expect("pivot is not zero");
                if !k.is_zero() {
                    sub_col(&mut d, &mut v, j, t, &k);
                }
                clean &= d[t][j].is_zero();
            }
            if !clean {
                continue;
            }
            // Divisibility: an entry the pivot does not divide is brought into row t.
            let bad = (t + 1..m).find(|&i| (t + 1..n).any(|j| !d[i][j].is_multiple_of(&pivot)));
            match bad {
                Some(i) => subtract_row(&mut [&mut d, &mut u], t, i, &Integer::from(-1)),
                None => break,
            }
        }
    }
    finish(d, u, v, m, n)
}

fn finish(mut d: Rows, mut u: Rows, v: Rows, m: usize, n: usize) -> SmithForm {
    for t in 0..m.min(n) {
        if d[t][t].signum() < 0 {
            d[t] = d[t].iter().map(|x| -x).collect();
            u[t] = u[t].iter().map(|x| -x).collect();
        }
    }
    let diagonal = (0..m.min(n)).map(|t| d[t][t].clone()).collect();
    SmithForm {
        diagonal,
        u: to_matrix(u),
        v: to_matrix(v),
    }
}

/// A Z-basis of the integer kernel {x ∈ Z^d : r·x = 0 for every row r}.
pub fn kernel_lattice(rows: &[Vector], d: usize) -> Vec<Vector> {
    let rows: Vec<&Vector> = rows.iter().filter(|r| !r.is_zero()).collect();
    if rows.is_empty() {
        return (0..d).map(|i| Vector::unit(d, i)).collect();
    }
    // U·Aᵀ = H: the rows of U beyond the rank satisfy A·uᵀ = 0, and U is unimodular, so they are
    // a basis of the kernel lattice.
    let columns: Vec<Vector> = rows.into_iter().cloned().collect();
    let at = Matrix::from_columns(&columns).expect("rows of one dimension");
    let hnf = hermite_normal_form(&at);
    (hnf.rank..d).map(|i| hnf.u.row(i)).collect()
}

/// A sublattice L ⊂ Z^d, kept as the nonzero rows of a Hermite normal form (canonical: equal
/// lattices have equal bases).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lattice {
    ambient: usize,
    basis: Vec<Vector>,
}

impl Lattice {
    /// The lattice generated by the vectors (zero or no vectors give {0}).
    pub fn generated_by(ambient: usize, generators: &[Vector]) -> Lattice {
        let nonzero: Vec<Vector> = generators
            .iter()
            .filter(|g| !g.is_zero())
            .cloned()
            .collect();
        if nonzero.is_empty() {
            return Lattice {
                ambient,
                basis: Vec::new(),
            };
        }
        let a = Matrix::from_rows(nonzero.into_iter().map(|g| g.0).collect()).expect("nonempty");
        let hnf = hermite_normal_form(&a);
        Lattice {
            ambient,
            basis: (0..hnf.rank).map(|i| hnf.h.row(i)).collect(),
        }
    }

    /// Z^d itself.
    pub fn full(ambient: usize) -> Lattice {
        Lattice::generated_by(
            ambient,
            &(0..ambient)
                .map(|i| Vector::unit(ambient, i))
                .collect::<Vec<_>>(),
        )
    }

    /// The ambient dimension d.
    pub fn ambient_dim(&self) -> usize {
        self.ambient
    }

    /// The rank of L.
    pub fn rank(&self) -> usize {
        self.basis.len()
    }

    /// The canonical (Hermite) basis.
    pub fn basis(&self) -> &[Vector] {
        &self.basis
    }

    /// Coordinates c with v = Σ c_i basis_i, when v ∈ L.
    pub fn coordinates(&self, v: &Vector) -> Option<Vec<Integer>> {
        if v.dim() != self.ambient {
            return None;
        }
        let mut rest = v.clone();
        let mut coords = Vec::with_capacity(self.basis.len());
        for b in &self.basis {
            let c =
                b.0.iter()
                    .position(|x| !x.is_zero())
                    .expect("basis rows are nonzero");
            let pivot = &b.0[c];
            if !rest.0[c].is_multiple_of(pivot) {
                return None;
            }
            let k = rest.0[c].div_floor(pivot).expect("the pivot is not zero");
            rest = rest.sub(&b.scale(&k));
            coords.push(k);
        }
        rest.is_zero().then_some(coords)
    }

    /// Whether v ∈ L.
    pub fn contains(&self, v: &Vector) -> bool {
        self.coordinates(v).is_some()
    }

    /// |Z^d / L| when L has full rank (the product of the Hermite pivots); `None` otherwise.
    pub fn index(&self) -> Option<Integer> {
        if self.rank() < self.ambient {
            return None;
        }
        Some(self.basis.iter().fold(Integer::ONE, |acc, b| {
            let pivot =
                b.0.iter()
                    .find(|x| !x.is_zero())
                    .expect("basis rows are nonzero");
            &acc * pivot
        }))
    }

    /// The saturation (L ⊗ Q) ∩ Z^d: the integer points of the span of L.
    pub fn saturation(&self) -> Lattice {
        let normals = kernel_lattice(&self.basis, self.ambient);
        Lattice::generated_by(self.ambient, &kernel_lattice(&normals, self.ambient))
    }

    /// The index of L in its saturation.
    pub fn index_in_saturation(&self) -> Integer {
        if self.basis.is_empty() {
            return Integer::ONE;
        }
        // The product of the nonzero Smith invariants of the basis matrix.
        let a =
            Matrix::from_rows(self.basis.iter().map(|b| b.0.clone()).collect()).expect("nonempty");
        smith_normal_form(&a)
            .diagonal
            .iter()
            .filter(|x| !x.is_zero())
            .fold(Integer::ONE, |acc, x| &acc * x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algebra::linalg::{determinant, rank};
    use proptest::prelude::*;

    fn v(xs: &[i64]) -> Vector {
        Vector::from_i64s(xs)
    }

    fn mat(rows: &[Vec<i64>]) -> Matrix {
        Matrix::from_rows(
            rows.iter()
                .map(|r| r.iter().map(|&x| Integer::from(x)).collect())
                .collect(),
        )
        .unwrap()
    }

    fn mul(a: &Matrix, b: &Matrix) -> Matrix {
        let cols: Vec<Vector> = b.columns().iter().map(|c| a.apply(c)).collect();
        Matrix::from_columns(&cols).unwrap()
    }

    fn unimodular(u: &Matrix) -> bool {
        determinant(u).abs() == Integer::ONE
    }

    fn is_hermite(h: &Matrix, r: usize) -> bool {
        let mut last_pivot: Option<usize> = None;
        for i in 0..h.nrows() {
            let row = h.row(i);
            match row.0.iter().position(|x| !x.is_zero()) {
                None => {
                    if i < r {
                        return false;
                    }
                }
                Some(c) => {
                    if i >= r || row.0[c].signum() <= 0 || last_pivot.is_some_and(|p| c <= p) {
                        return false;
                    }
                    for k in 0..i {
                        let above = h.get(k, c);
                        if above.signum() < 0 || *above >= row.0[c] {
                            return false;
                        }
                    }
                    last_pivot = Some(c);
                }
            }
        }
        true
    }

    /// The gcd of the maximal minors: an independent way to compute the index.
    fn minors_gcd(d: usize, gens: &[Vector]) -> Option<Integer> {
        if rank(gens, d) < d {
            return None;
        }
        let mut g = Integer::ZERO;
        let n = gens.len();
        let mut idx: Vec<usize> = (0..d).collect();
        loop {
            let cols: Vec<Vector> = idx.iter().map(|&i| gens[i].clone()).collect();
            g = g.gcd(&determinant(&Matrix::from_columns(&cols).unwrap()));
            // next combination
            let mut i = d;
            loop {
                if i == 0 {
                    return Some(g);
                }
                i -= 1;
                if idx[i] < n - d + i {
                    idx[i] += 1;
                    for j in i + 1..d {
                        idx[j] = idx[j - 1] + 1;
                    }
                    break;
                }
            }
        }
    }

    fn matrix_strategy() -> impl Strategy<Value = Vec<Vec<i64>>> {
        (1usize..=5, 1usize..=5).prop_flat_map(|(m, n)| {
            prop_oneof![
                proptest::collection::vec(proptest::collection::vec(-6i64..=6, n), m),
                // Rank-deficient: a product of thin factors.
                (
                    proptest::collection::vec(proptest::collection::vec(-3i64..=3, 2), m),
                    proptest::collection::vec(proptest::collection::vec(-3i64..=3, n), 2)
                )
                    .prop_map(|(l, r)| l
                        .iter()
                        .map(|li| (0..r[0].len())
                            .map(|j| li[0] * r[0][j] + li[1] * r[1][j])
                            .collect())
                        .collect()),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn hermite_identities(rows in matrix_strategy()) {
            let a = mat(&rows);
            let hf = hermite_normal_form(&a);
            prop_assert_eq!(mul(&hf.u, &a), hf.h.clone());
            prop_assert!(unimodular(&hf.u));
            prop_assert!(is_hermite(&hf.h, hf.rank), "not in HNF: {}", hf.h);
            prop_assert_eq!(hf.rank, rank(&a.rows(), a.ncols()));
        }

        #[test]
        fn smith_identities(rows in matrix_strategy()) {
            let a = mat(&rows);
            let sf = smith_normal_form(&a);
            let d = mul(&mul(&sf.u, &a), &sf.v);
            for i in 0..d.nrows() {
                for j in 0..d.ncols() {
                    let want = if i == j { sf.diagonal[i].clone() } else { Integer::ZERO };
                    prop_assert_eq!(d.get(i, j), &want, "U·A·V = {}", d);
                }
            }
            prop_assert!(unimodular(&sf.u) && unimodular(&sf.v));
            for w in sf.diagonal.windows(2) {
                prop_assert!(w[0].signum() >= 0 && (w[1].is_zero() || (!w[0].is_zero() && w[1].is_multiple_of(&w[0]))));
            }
        }

        #[test]
        fn kernels_are_lattice_bases(rows in proptest::collection::vec(proptest::collection::vec(-4i64..=4, 3), 1..3)) {
            let rows: Vec<Vector> = rows.iter().map(|r| v(r)).collect();
            let k = kernel_lattice(&rows, 3);
            prop_assert_eq!(k.len(), 3 - rank(&rows, 3));
            for x in &k {
                prop_assert!(rows.iter().all(|r| r.dot(x).is_zero()));
            }
            let lk = Lattice::generated_by(3, &k);
            prop_assert_eq!(lk.rank(), k.len());
            // Every small integer kernel vector is an integer combination of the basis.
            for a in -3i64..=3 {
                for b in -3i64..=3 {
                    for c in -3i64..=3 {
                        let x = v(&[a, b, c]);
                        if rows.iter().all(|r| r.dot(&x).is_zero()) {
                            prop_assert!(lk.contains(&x), "{} is in the kernel but not in the lattice of {:?}", x, k);
                        }
                    }
                }
            }
        }

        #[test]
        fn index_is_the_gcd_of_maximal_minors(gens in proptest::collection::vec(proptest::collection::vec(-5i64..=5, 3), 1..6)) {
            let gens: Vec<Vector> = gens.iter().map(|g| v(g)).collect();
            let l = Lattice::generated_by(3, &gens);
            prop_assert_eq!(l.index(), minors_gcd(3, &gens));
            for g in &gens {
                prop_assert!(l.contains(g));
            }
            let sat = l.saturation();
            prop_assert_eq!(sat.rank(), l.rank());
            prop_assert_eq!(sat.saturation(), sat.clone());
            prop_assert!(l.basis().iter().all(|b| sat.contains(b)));
            if let Some(i) = l.index() {
                prop_assert_eq!(l.index_in_saturation(), i);
            }
        }

        #[test]
        fn membership_agrees_with_small_combinations(gens in proptest::collection::vec(proptest::collection::vec(-3i64..=3, 2), 1..3)) {
            let gens: Vec<Vector> = gens.iter().map(|g| v(g)).collect();
            let l = Lattice::generated_by(2, &gens);
            let mut reachable = std::collections::BTreeSet::new();
            let coeffs = -12i64..=12;
            for a in coeffs.clone() {
                for b in if gens.len() > 1 { coeffs.clone() } else { 0..=0 } {
                    let mut p = gens[0].scale(&Integer::from(a));
                    if gens.len() > 1 {
                        p = p.add(&gens[1].scale(&Integer::from(b)));
                    }
                    reachable.insert(p);
                }
            }
            for x in -2i64..=2 {
                for y in -2i64..=2 {
                    let p = v(&[x, y]);
                    if reachable.contains(&p) {
                        prop_assert!(l.contains(&p));
                    }
                    if l.contains(&p) {
                        let c = l.coordinates(&p).unwrap();
                        let back = l.basis().iter().zip(&c).fold(Vector::zero(2), |acc, (b, k)| acc.add(&b.scale(k)));
                        prop_assert_eq!(back, p);
                    }
                }
            }
        }
    }

    #[test]
    fn hand_computed_indices() {
        assert_eq!(
            Lattice::generated_by(2, &[v(&[2, 0]), v(&[0, 2])]).index(),
            Some(Integer::from(4))
        );
        assert_eq!(
            Lattice::generated_by(2, &[v(&[1, 0]), v(&[0, 1]), v(&[-1, 1])]).index(),
            Some(Integer::ONE)
        );
        assert_eq!(
            Lattice::generated_by(2, &[v(&[2, 1]), v(&[1, 2])]).index(),
            Some(Integer::from(3))
        );
        assert_eq!(
            Lattice::generated_by(2, &[v(&[2, 4]), v(&[3, 6])]).index(),
            None
        );
        let l = Lattice::generated_by(2, &[v(&[2, 4])]);
        assert_eq!(l.saturation(), Lattice::generated_by(2, &[v(&[1, 2])]));
        assert_eq!(l.index_in_saturation(), Integer::from(2));
        assert_eq!(Lattice::generated_by(3, &[]).rank(), 0);
        assert_eq!(Lattice::full(3).index(), Some(Integer::ONE));
        let sf = smith_normal_form(&mat(&[vec![2, 4, 4], vec![-6, 6, 12], vec![10, -4, -16]]));
        assert_eq!(
            sf.diagonal,
            vec![Integer::from(2), Integer::from(6), Integer::from(12)]
        );
    }

    proptest! {
        #[test]
        fn the_index_counts_cosets(gens in proptest::collection::vec(proptest::collection::vec(-3i64..=3, 2), 2..4)) {
            // Brute force in d = 2: the index is the number of points of [0, N)^2 (N a multiple of
            // every coordinate period) modulo the lattice, found by counting the lattice points of
            // ZG in a fundamental box: |Z^2/ZG| = N^2 / #(ZG ∩ [0, N)^2) when ZG ⊇ N·Z^2.
            let gens: Vec<Vector> = gens.iter().map(|g| v(g)).collect();
            if let Some(index) = Lattice::generated_by(2, &gens).index() {
                let n = index.to_i64().unwrap();
                prop_assume!(n <= 60);
                // ZG contains n·Z^2 (n annihilates Z^2/ZG); enumerate small combinations to find
                // all points of ZG in [0, n)^2.
                let mut seen = std::collections::BTreeSet::new();
                let bound = 2 * n + 3;
                let coeffs: Vec<i64> = (-bound..=bound).collect();
                let thirds: Vec<i64> = if gens.len() > 2 { coeffs.clone() } else { vec![0] };
                for &a in &coeffs {
                    for &b in &coeffs {
                        for &c in &thirds {
                            let mut p = gens[0].scale(&Integer::from(a)).add(&gens[1].scale(&Integer::from(b)));
                            if gens.len() > 2 {
                                p = p.add(&gens[2].scale(&Integer::from(c)));
                            }
                            let x = p.0[0].mod_floor(&Integer::from(n)).unwrap();
                            let y = p.0[1].mod_floor(&Integer::from(n)).unwrap();
                            seen.insert((x, y));
                        }
                    }
                }
                prop_assert_eq!(seen.len() as i64 * n, n * n, "index {} for {:?}", n, gens);
            }
        }
    }
}
