//! Lattices in Z^d: Hermite and Smith normal forms with their unimodular transforms, canonical
//! bases of sublattices, membership and coordinates, the index |Z^d / L|, saturation, and Z-bases of
//! integer kernels.
//!
//! A rule set Γ generates the lattice ZΓ ⊂ Z^d, and [GM09] Definition 3.7 calls Γ *saturated* when
//! ZΓ = Z^d, that is when [`Lattice::index`] is 1; the paper notes that a lattice game breaks up
//! into |Z^d / ZΓ| lattice games. [`Lattice::saturation`] is the different, standard notion
//! (L ⊗ Q) ∩ Z^d: the integer points of the span of L, which L fills exactly when
//! [`Lattice::index_in_saturation`] is 1.
//!
//! Everything rests on one routine, `HermiteBasis`: it adds vectors one at a time to a basis kept
//! in row-style Hermite normal form (HNF), so every intermediate basis is the canonical one of the
//! lattice seen so far and entries cannot pile up. The transform of [`hermite_normal_form`] comes
//! from the HNF of the augmented matrix [A | I] (each row y·[A | I] = [y·A | y] carries its own
//! multiplier y), which makes U canonical too; integer kernels are read off the same way. All
//! arithmetic is exact ([`Integer`]: machine words with overflow checks, big integers beyond).

use super::{Integer, Matrix, Vector};

/// U·A = H with H in row-style Hermite normal form and U unimodular.
///
/// H's nonzero rows come first; each has a positive pivot (its first nonzero entry) strictly right
/// of the pivot above it, and the entries above a pivot lie in `0..pivot`; zero rows come last.
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
/// next, all nonnegative, the nonzero ones first; U and V unimodular.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmithForm {
    /// The diagonal of D: the invariant factors of A, then zeros.
    pub diagonal: Vec<Integer>,
    /// The unimodular row transform U.
    pub u: Matrix,
    /// The unimodular column transform V.
    pub v: Matrix,
}

// ---------------------------------------------------------------------------------------------
// Small helpers on rows (`Vec<Integer>`).

/// The column of the first nonzero entry.
fn pivot_of(row: &[Integer]) -> Option<usize> {
    row.iter().position(|x| !x.is_zero())
}

/// `row ← row − k·other` (same lengths).
fn sub_multiple(row: &mut [Integer], k: &Integer, other: &[Integer]) {
    for (x, y) in row.iter_mut().zip(other) {
        if !y.is_zero() {
            *x = &*x - &(k * y);
        }
    }
}

/// `p·a + q·b`, entrywise.
fn combination(p: &Integer, a: &[Integer], q: &Integer, b: &[Integer]) -> Vec<Integer> {
    a.iter().zip(b).map(|(x, y)| &(p * x) + &(q * y)).collect()
}

/// Negates every entry.
fn negate(row: &mut [Integer]) {
    for x in row.iter_mut() {
        *x = -&*x;
    }
}

/// The `i`-th unit row of length `n`.
fn unit_row(n: usize, i: usize) -> Vec<Integer> {
    Vector::unit(n, i).0
}

/// The n×n identity, as rows.
fn identity_rows(n: usize) -> Vec<Vec<Integer>> {
    (0..n).map(|i| unit_row(n, i)).collect()
}

/// A matrix from rows known to be rectangular and nonempty.
fn to_matrix(rows: Vec<Vec<Integer>>) -> Matrix {
    Matrix::from_rows(rows).expect("the rows of a transform form a nonempty rectangle")
}

/// Extended gcd: (g, x, y) with x·a + y·b = g = gcd(a, b) ≥ 0.
fn extended_gcd(a: &Integer, b: &Integer) -> (Integer, Integer, Integer) {
    let (mut r0, mut r1) = (a.clone(), b.clone());
    let (mut s0, mut s1) = (Integer::ONE, Integer::ZERO);
    let (mut t0, mut t1) = (Integer::ZERO, Integer::ONE);
    while !r1.is_zero() {
        let q = r0
            .div_floor(&r1)
            .expect("the loop runs while r1 is not zero");
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

/// `a / b` for a nonzero `b` that divides `a`.
fn exact_div(a: &Integer, b: &Integer) -> Integer {
    a.div_floor(b)
        .expect("the divisor is a nonzero gcd or pivot")
}

/// The quotient q of `x` by a nonzero `p` that makes |x − q·p| ≤ |p|/2 (rounding to nearest).
fn nearest_quotient(x: &Integer, p: &Integer) -> Integer {
    let r = x.mod_floor(p).expect("pivots are not zero");
    let q = exact_div(&(x - &r), p);
    // r has the sign of p; past half of p, the other neighbour is nearer.
    if (&r + &r).abs() > p.abs() {
        q + Integer::ONE
    } else {
        q
    }
}

// ---------------------------------------------------------------------------------------------
// Hermite normal form, one vector at a time.

/// A basis of the lattice spanned by the vectors added so far, kept in row-style Hermite normal
/// form after every addition: rows sorted by strictly increasing pivot column, pivots positive,
/// entries above each pivot in `0..pivot`. Since that form is unique, it never holds more than the
/// canonical basis of the current lattice, whatever order the vectors come in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct HermiteBasis {
    rows: Vec<Vector>,
    /// The pivot column of each row (determined by the rows; kept to avoid searching).
    pivots: Vec<usize>,
}

impl HermiteBasis {
    /// The basis of the lattice generated by `vectors` (all of one length).
    fn of(vectors: impl IntoIterator<Item = Vec<Integer>>) -> HermiteBasis {
        let mut basis = HermiteBasis::default();
        for v in vectors {
            basis.insert(v);
        }
        basis
    }

    /// Adds `v` to the lattice.
    fn insert(&mut self, mut v: Vec<Integer>) {
        let mut changed = None;
        while let Some(c) = pivot_of(&v) {
            let k = self.pivots.partition_point(|&p| p < c);
            changed = Some(changed.map_or(k, |j: usize| j.max(k)));
            if self.pivots.get(k) != Some(&c) {
                // A new pivot column: v becomes a basis row.
                if v[c].signum() < 0 {
                    negate(&mut v);
                }
                self.reduce_tail(&mut v, k);
                self.rows.insert(k, Vector(v));
                self.pivots.insert(k, c);
                break;
            }
            self.merge_at(k, &mut v);
            // v is now zero in column c; keep it small before it meets the next pivot.
            self.reduce_tail(&mut v, k + 1);
        }
        if let Some(last) = changed {
            self.reduce_above_pivots(last);
        }
    }

    /// Row k and v share the pivot column c: replaces row k by a row with pivot gcd(row_k[c],
    /// v[c]) and v by a vector zero in column c, through a unimodular 2×2 step.
    fn merge_at(&mut self, k: usize, v: &mut Vec<Integer>) {
        let c = self.pivots[k];
        let row = &mut self.rows[k].0;
        let (a, b) = (row[c].clone(), v[c].clone());
        if b.is_multiple_of(&a) {
            sub_multiple(v, &exact_div(&b, &a), row);
            return;
        }
        // x·a + y·b = g, and [x y; −b/g a/g] has determinant 1.
        let (g, x, y) = extended_gcd(&a, &b);
        let (a_g, b_g) = (exact_div(&a, &g), exact_div(&b, &g));
        let new_row = combination(&x, row, &y, v);
        *v = combination(&a_g, v, &-&b_g, row);
        *row = new_row;
    }

    /// Reduces the entries of `v` at the pivots of rows `from..` into `0..pivot`.
    fn reduce_tail(&self, v: &mut [Integer], from: usize) {
        for (row, &p) in self.rows[from..].iter().zip(&self.pivots[from..]) {
            let q = v[p]
                .div_floor(&row.0[p])
                .expect("basis pivots are positive");
            if !q.is_zero() {
                sub_multiple(v, &q, &row.0);
            }
        }
    }

    /// Brings rows `..=last` into range above the pivots below them (the rows after `last` are
    /// already reduced and did not change). Reducing row i only uses rows below it, in increasing
    /// order, and only changes row i right of each pivot it uses, so one pass suffices.
    fn reduce_above_pivots(&mut self, last: usize) {
        for i in 0..=last.min(self.rows.len().saturating_sub(1)) {
            let (head, tail) = self.rows.split_at_mut(i + 1);
            let row = &mut head[i].0;
            for (below, &p) in tail.iter().zip(&self.pivots[i + 1..]) {
                let q = row[p]
                    .div_floor(&below.0[p])
                    .expect("basis pivots are positive");
                if !q.is_zero() {
                    sub_multiple(row, &q, &below.0);
                }
            }
        }
    }

    /// The coordinates of `v` in the basis, when it lies in the lattice.
    fn coordinates(&self, v: &[Integer]) -> Option<Vec<Integer>> {
        let mut rest = v.to_vec();
        let mut coords = Vec::with_capacity(self.rows.len());
        for (row, &p) in self.rows.iter().zip(&self.pivots) {
            // Columns left of p are final: this row and the later ones vanish there.
            if rest[..p].iter().any(|x| !x.is_zero()) || !rest[p].is_multiple_of(&row.0[p]) {
                return None;
            }
            let k = exact_div(&rest[p], &row.0[p]);
            sub_multiple(&mut rest, &k, &row.0);
            coords.push(k);
        }
        rest.iter().all(Integer::is_zero).then_some(coords)
    }

    /// The product of the pivots.
    fn pivot_product(&self) -> Integer {
        self.rows
            .iter()
            .zip(&self.pivots)
            .fold(Integer::ONE, |acc, (row, &p)| &acc * &row.0[p])
    }
}

/// The row-style Hermite normal form of A with its transform: U·A = H.
///
/// U is canonical too: the rows of [H | U] are the Hermite normal form of [A | I], so the rows of U
/// beyond the rank are the canonical basis of the left kernel {y : y·A = 0}, and the rows above
/// are reduced modulo it.
pub fn hermite_normal_form(a: &Matrix) -> HermiteForm {
    let (m, n) = (a.nrows(), a.ncols());
    let augmented = (0..m).map(|i| {
        let mut row = a.row(i).0;
        row.extend(unit_row(m, i));
        row
    });
    let basis = HermiteBasis::of(augmented);
    // [A | I] has independent rows, so its Hermite basis has m rows.
    assert_eq!(basis.rows.len(), m, "the rows of [A | I] are independent");
    let rank = basis.pivots.iter().filter(|&&p| p < n).count();
    let (h, u): (Vec<_>, Vec<_>) = basis
        .rows
        .into_iter()
        .map(|Vector(mut row)| {
            let u = row.split_off(n);
            (row, u)
        })
        .unzip();
    HermiteForm {
        h: to_matrix(h),
        u: to_matrix(u),
        rank,
    }
}

// ---------------------------------------------------------------------------------------------
// Integer kernels.

/// A Z-basis of {x ∈ Z^d : r·x = 0 for every row r}: every integer solution is an integer
/// combination of these, not merely a rational one. The basis is the canonical (Hermite) one of the
/// kernel lattice; there are d − rank vectors. No rows give the unit vectors of Z^d.
///
/// # Panics
///
/// When a row does not have `d` coordinates.
pub fn kernel_lattice(rows: &[Vector], d: usize) -> Vec<Vector> {
    assert!(
        rows.iter().all(|r| r.dim() == d),
        "kernel_lattice: every row needs {d} coordinates"
    );
    // Row j of [Aᵀ | I] is (A e_j, e_j); combinations y·[Aᵀ | I] = (A y, y), so the Hermite rows
    // whose pivot lies in the I block are (0, y) with A y = 0, and they form the canonical basis of
    // the kernel lattice.
    let k = rows.len();
    let augmented = (0..d).map(|j| {
        let mut row: Vec<Integer> = rows.iter().map(|r| r.0[j].clone()).collect();
        row.extend(unit_row(d, j));
        row
    });
    let basis = HermiteBasis::of(augmented);
    basis
        .rows
        .into_iter()
        .zip(basis.pivots)
        .filter(|&(_, p)| p >= k)
        .map(|(Vector(mut row), _)| Vector(row.split_off(k)))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Smith normal form.

/// The state of a Smith normal form computation: U·A·V = `d` throughout.
struct SmithWork {
    d: Vec<Vec<Integer>>,
    u: Vec<Vec<Integer>>,
    /// V, stored by rows; column operations act on the columns of `d` and of `v` alike.
    v: Vec<Vec<Integer>>,
}

impl SmithWork {
    fn new(a: &Matrix) -> SmithWork {
        SmithWork {
            d: a.rows().into_iter().map(|r| r.0).collect(),
            u: identity_rows(a.nrows()),
            v: identity_rows(a.ncols()),
        }
    }

    fn swap_rows(&mut self, i: usize, j: usize) {
        self.d.swap(i, j);
        self.u.swap(i, j);
    }

    fn swap_cols(&mut self, i: usize, j: usize) {
        for row in self.d.iter_mut().chain(self.v.iter_mut()) {
            row.swap(i, j);
        }
    }

    /// row_i ← row_i − k·row_j.
    fn sub_row(&mut self, i: usize, j: usize, k: &Integer) {
        for m in [&mut self.d, &mut self.u] {
            let (ri, rj) = pair_mut(m, i, j);
            sub_multiple(ri, k, rj);
        }
    }

    /// column_i ← column_i − k·column_j.
    fn sub_col(&mut self, i: usize, j: usize, k: &Integer) {
        for row in self.d.iter_mut().chain(self.v.iter_mut()) {
            if !row[j].is_zero() {
                row[i] = &row[i] - &(k * &row[j]);
            }
        }
    }

    /// Moves the nonzero entry of least absolute value among `cells` to (t, t); false if all are 0.
    fn take_smallest(&mut self, t: usize, cells: impl Iterator<Item = (usize, usize)>) -> bool {
        let best = cells
            .filter(|&(i, j)| !self.d[i][j].is_zero())
            .min_by_key(|&(i, j)| self.d[i][j].abs());
        let Some((i, j)) = best else {
            return false;
        };
        self.swap_rows(t, i);
        self.swap_cols(t, j);
        true
    }

    /// With d[t][t] ≠ 0, clears the rest of row t and column t by Euclidean steps (each round
    /// leaves remainders at most half the pivot, and the smallest becomes the next pivot).
    fn clear_cross(&mut self, t: usize) {
        let (m, n) = (self.d.len(), self.v.len());
        loop {
            let pivot = self.d[t][t].clone();
            for i in t + 1..m {
                if !self.d[i][t].is_zero() {
                    let q = nearest_quotient(&self.d[i][t], &pivot);
                    self.sub_row(i, t, &q);
                }
            }
            for j in t + 1..n {
                if !self.d[t][j].is_zero() {
                    let q = nearest_quotient(&self.d[t][j], &pivot);
                    self.sub_col(j, t, &q);
                }
            }
            let cross: Vec<(usize, usize)> = (t + 1..m)
                .map(|i| (i, t))
                .chain((t + 1..n).map(|j| (t, j)))
                .collect();
            if cross.iter().all(|&(i, j)| self.d[i][j].is_zero()) {
                return;
            }
            let smaller = cross.into_iter().chain(std::iter::once((t, t)));
            self.take_smallest(t, smaller);
        }
    }

    /// A row below t holding an entry that d[t][t] does not divide.
    fn non_multiple_row(&self, t: usize) -> Option<usize> {
        let pivot = &self.d[t][t];
        (t + 1..self.d.len()).find(|&i| self.d[i][t + 1..].iter().any(|x| !x.is_multiple_of(pivot)))
    }

    /// Diagonalises with the divisibility chain; returns the rank.
    fn diagonalise(&mut self) -> usize {
        let (m, n) = (self.d.len(), self.v.len());
        for t in 0..m.min(n) {
            let block = (t..m).flat_map(|i| (t..n).map(move |j| (i, j)));
            if !self.take_smallest(t, block) {
                return t;
            }
            loop {
                self.clear_cross(t);
                // Adding a row with a non-multiple to row t makes the next pivot smaller.
                match self.non_multiple_row(t) {
                    Some(i) => self.sub_row(t, i, &Integer::from(-1)),
                    None => break,
                }
            }
            if self.d[t][t].signum() < 0 {
                negate(&mut self.d[t]);
                negate(&mut self.u[t]);
            }
        }
        m.min(n)
    }

    /// Replaces the rows of U beyond the rank (a basis of the left kernel of A) by their Hermite
    /// basis, and reduces the rows above modulo it; likewise for the columns of V. Neither changes
    /// U·A·V, and both keep U and V unimodular.
    fn reduce_kernel_parts(&mut self, rank: usize) {
        reduce_modulo_kernel(&mut self.u, rank);
        let mut vt = transpose_rows(&self.v);
        reduce_modulo_kernel(&mut vt, rank);
        self.v = transpose_rows(&vt);
    }
}

/// Mutable row i and shared row j (i ≠ j) of a matrix stored by rows.
fn pair_mut(m: &mut [Vec<Integer>], i: usize, j: usize) -> (&mut Vec<Integer>, &Vec<Integer>) {
    assert_ne!(i, j, "a row operation needs two different rows");
    if i < j {
        let (head, tail) = m.split_at_mut(j);
        (&mut head[i], &tail[0])
    } else {
        let (head, tail) = m.split_at_mut(i);
        (&mut tail[0], &head[j])
    }
}

/// The transpose of a nonempty rectangle of rows.
fn transpose_rows(rows: &[Vec<Integer>]) -> Vec<Vec<Integer>> {
    let n = rows.first().map_or(0, Vec::len);
    (0..n)
        .map(|j| rows.iter().map(|r| r[j].clone()).collect())
        .collect()
}

/// Rows `rank..` of `rows` are independent; replaces them by their Hermite basis and reduces rows
/// `..rank` at its pivots.
fn reduce_modulo_kernel(rows: &mut Vec<Vec<Integer>>, rank: usize) {
    let count = rows.len();
    let kernel = HermiteBasis::of(rows.drain(rank..));
    for row in rows.iter_mut() {
        kernel.reduce_tail(row, 0);
    }
    rows.extend(kernel.rows.into_iter().map(|r| r.0));
    assert_eq!(
        rows.len(),
        count,
        "the rows of a unimodular matrix are independent"
    );
}

/// The Smith normal form of A with its transforms: U·A·V = D.
///
/// The rows of U and the columns of V beyond the rank are canonical bases of the left and right
/// kernels of A, and the rest is reduced modulo them, which keeps the transforms small.
pub fn smith_normal_form(a: &Matrix) -> SmithForm {
    let mut work = SmithWork::new(a);
    let rank = work.diagonalise();
    work.reduce_kernel_parts(rank);
    let diagonal = (0..a.nrows().min(a.ncols()))
        .map(|t| work.d[t][t].clone())
        .collect();
    SmithForm {
        diagonal,
        u: to_matrix(work.u),
        v: to_matrix(work.v),
    }
}

// ---------------------------------------------------------------------------------------------
// Lattices.

/// A sublattice L = ZΓ ⊂ Z^d, kept as the nonzero rows of its Hermite normal form. That basis is
/// canonical, so equal lattices are equal values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lattice {
    ambient: usize,
    hermite: HermiteBasis,
}

impl Lattice {
    /// The lattice generated by the vectors; zero vectors or none at all give {0}, of rank 0.
    ///
    /// # Panics
    ///
    /// When a generator does not have `ambient` coordinates.
    pub fn generated_by(ambient: usize, generators: &[Vector]) -> Lattice {
        assert!(
            generators.iter().all(|g| g.dim() == ambient),
            "Lattice::generated_by: every generator needs {ambient} coordinates"
        );
        Lattice {
            ambient,
            hermite: HermiteBasis::of(generators.iter().map(|g| g.0.clone())),
        }
    }

    /// Z^d itself.
    pub fn full(ambient: usize) -> Lattice {
        Lattice {
            ambient,
            hermite: HermiteBasis {
                rows: (0..ambient).map(|i| Vector::unit(ambient, i)).collect(),
                pivots: (0..ambient).collect(),
            },
        }
    }

    /// The ambient dimension d.
    pub fn ambient_dim(&self) -> usize {
        self.ambient
    }

    /// The rank of L (the dimension of its span).
    pub fn rank(&self) -> usize {
        self.hermite.rows.len()
    }

    /// The canonical basis: the nonzero rows of the Hermite normal form.
    pub fn basis(&self) -> &[Vector] {
        &self.hermite.rows
    }

    /// Whether v ∈ L (false for a vector of another dimension).
    pub fn contains(&self, v: &Vector) -> bool {
        self.coordinates(v).is_some()
    }

    /// The integers c with v = Σ c_i basis_i, when v ∈ L (`None` otherwise, and for a vector of
    /// another dimension). They are unique, the basis being independent.
    pub fn coordinates(&self, v: &Vector) -> Option<Vec<Integer>> {
        if v.dim() != self.ambient {
            return None;
        }
        self.hermite.coordinates(&v.0)
    }

    /// |Z^d / L| when L has rank d: the product of the Hermite pivots (the basis is triangular).
    /// `None` when the rank is smaller, the index being infinite. Γ is saturated in the sense of
    /// [GM09] Definition 3.7 exactly when ZΓ has index 1.
    pub fn index(&self) -> Option<Integer> {
        (self.rank() == self.ambient).then(|| self.hermite.pivot_product())
    }

    /// The saturation (L ⊗ Q) ∩ Z^d: the integer points of the span of L, computed as the integer
    /// kernel of the integer kernel of L.
    pub fn saturation(&self) -> Lattice {
        let normals = kernel_lattice(self.basis(), self.ambient);
        let basis = kernel_lattice(&normals, self.ambient);
        Lattice::generated_by(self.ambient, &basis)
    }

    /// The index of L in its saturation (1 when L is saturated in this sense). L and its
    /// saturation have their pivots in the same columns (those depend only on the span), and
    /// projecting to those columns preserves indices, so this is the quotient of the pivot
    /// products.
    pub fn index_in_saturation(&self) -> Integer {
        let saturation = self.saturation();
        exact_div(
            &self.hermite.pivot_product(),
            &saturation.hermite.pivot_product(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algebra::linalg::{determinant, rank};
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn v(xs: &[i64]) -> Vector {
        Vector::from_i64s(xs)
    }

    fn int(x: i64) -> Integer {
        Integer::from(x)
    }

    fn ints(xs: &[i64]) -> Vec<Integer> {
        xs.iter().map(|&x| int(x)).collect()
    }

    fn mat(rows: &[Vec<i64>]) -> Matrix {
        Matrix::from_rows(rows.iter().map(|r| ints(r)).collect()).unwrap()
    }

    fn mul(a: &Matrix, b: &Matrix) -> Matrix {
        let cols: Vec<Vector> = b.columns().iter().map(|c| a.apply(c)).collect();
        Matrix::from_columns(&cols).unwrap()
    }

    fn is_unimodular(u: &Matrix) -> bool {
        u.nrows() == u.ncols() && determinant(u).abs() == Integer::ONE
    }

    fn product(xs: &[Integer]) -> Integer {
        xs.iter().fold(Integer::ONE, |acc, x| &acc * x)
    }

    fn combine(gens: &[Vector], coeffs: &[Integer], d: usize) -> Vector {
        gens.iter()
            .zip(coeffs)
            .fold(Vector::zero(d), |acc, (g, c)| acc.add(&g.scale(c)))
    }

    /// All k-tuples with entries in lo..=hi.
    fn tuples(k: usize, lo: i64, hi: i64) -> Vec<Vec<i64>> {
        (0..k).fold(vec![Vec::new()], |acc, _| {
            acc.into_iter()
                .flat_map(|t| {
                    (lo..=hi).map(move |x| {
                        let mut longer = t.clone();
                        longer.push(x);
                        longer
                    })
                })
                .collect()
        })
    }

    /// The points of [-b, b]^d.
    fn box_points(d: usize, b: i64) -> Vec<Vector> {
        tuples(d, -b, b).iter().map(|p| v(p)).collect()
    }

    /// Whether the vectors are the Hermite basis of the lattice they generate.
    fn is_hermite_basis(d: usize, vs: &[Vector]) -> bool {
        Lattice::generated_by(d, vs).basis() == vs
    }

    /// What breaks the row-style Hermite normal form with `rank` nonzero rows, if anything.
    fn hermite_violation(h: &Matrix, rank: usize) -> Option<String> {
        let mut last_pivot: Option<usize> = None;
        for i in 0..h.nrows() {
            let row = h.row(i);
            let pivot = row.0.iter().position(|x| !x.is_zero());
            match (pivot, i < rank) {
                (None, true) => return Some(format!("row {i} is zero but the rank is {rank}")),
                (Some(_), false) => return Some(format!("row {i} is beyond the rank but nonzero")),
                (None, false) => {}
                (Some(c), true) => {
                    if row.0[c].signum() <= 0 {
                        return Some(format!("the pivot of row {i} is not positive"));
                    }
                    if last_pivot.is_some_and(|p| c <= p) {
                        return Some(format!(
                            "the pivot of row {i} is not right of the one above"
                        ));
                    }
                    for k in 0..i {
                        let above = h.get(k, c);
                        if above.signum() < 0 || *above >= row.0[c] {
                            return Some(format!(
                                "entry ({k}, {c}) is not reduced modulo its pivot"
                            ));
                        }
                    }
                    last_pivot = Some(c);
                }
            }
        }
        None
    }

    /// The gcd of the maximal minors of the generators: an independent way to the index.
    fn minors_gcd(d: usize, gens: &[Vector]) -> Option<Integer> {
        if rank(gens, d) < d {
            return None;
        }
        let n = gens.len();
        let mut g = Integer::ZERO;
        let mut idx: Vec<usize> = (0..d).collect();
        loop {
            let cols: Vec<Vector> = idx.iter().map(|&i| gens[i].clone()).collect();
            g = g.gcd(&determinant(&Matrix::from_columns(&cols).unwrap()));
            // The next d-subset in lexicographic order.
            let Some(i) = (0..d).rev().find(|&i| idx[i] < n - d + i) else {
                return Some(g);
            };
            idx[i] += 1;
            for j in i + 1..d {
                idx[j] = idx[j - 1] + 1;
            }
        }
    }

    /// Matrices of shape up to 5×5 with entries in -6..=6, and rank-deficient ones built as
    /// products of an m×k and a k×n factor (k ≤ 3).
    fn matrix_strategy() -> impl Strategy<Value = Vec<Vec<i64>>> {
        (1usize..=5, 1usize..=5, 1usize..=3).prop_flat_map(|(m, n, k)| {
            prop_oneof![
                proptest::collection::vec(proptest::collection::vec(-6i64..=6, n), m),
                (
                    proptest::collection::vec(proptest::collection::vec(-3i64..=3, k), m),
                    proptest::collection::vec(proptest::collection::vec(-3i64..=3, n), k)
                )
                    .prop_map(move |(l, r)| {
                        l.iter()
                            .map(|li| {
                                (0..n)
                                    .map(|j| (0..k).map(|t| li[t] * r[t][j]).sum())
                                    .collect()
                            })
                            .collect()
                    }),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn hermite_form_is_correct(rows in matrix_strategy()) {
            let a = mat(&rows);
            let hf = hermite_normal_form(&a);
            prop_assert_eq!(mul(&hf.u, &a), hf.h.clone());
            prop_assert!(is_unimodular(&hf.u), "U = {} is not unimodular", hf.u);
            prop_assert_eq!(hermite_violation(&hf.h, hf.rank), None, "H = {}", hf.h);
            prop_assert_eq!(hf.rank, rank(&a.rows(), a.ncols()));
            // The nonzero rows are the canonical basis of the row lattice.
            let l = Lattice::generated_by(a.ncols(), &a.rows());
            prop_assert_eq!(&hf.h.rows()[..hf.rank], l.basis());
            // The rows of U beyond the rank are the canonical basis of the left kernel.
            let u_rows = hf.u.rows();
            let kernel_rows = &u_rows[hf.rank..];
            prop_assert!(is_hermite_basis(a.nrows(), kernel_rows));
        }

        #[test]
        fn hermite_form_is_canonical(rows in matrix_strategy(), k in -3i64..=3) {
            // Reversing the rows and adding k times one row to another keeps the row lattice.
            let mut other: Vec<Vec<i64>> = rows.iter().rev().cloned().collect();
            if other.len() > 1 {
                let first = other[0].clone();
                for (x, y) in other[1].iter_mut().zip(&first) {
                    *x += k * y;
                }
            }
            prop_assert_eq!(hermite_normal_form(&mat(&rows)).h, hermite_normal_form(&mat(&other)).h);
        }

        #[test]
        fn smith_form_is_correct(rows in matrix_strategy()) {
            let a = mat(&rows);
            let sf = smith_normal_form(&a);
            let d = mul(&mul(&sf.u, &a), &sf.v);
            prop_assert_eq!(sf.diagonal.len(), a.nrows().min(a.ncols()));
            for i in 0..d.nrows() {
                for j in 0..d.ncols() {
                    let want = if i == j { sf.diagonal[i].clone() } else { Integer::ZERO };
                    prop_assert_eq!(d.get(i, j), &want, "U·A·V = {}", d);
                }
            }
            prop_assert!(is_unimodular(&sf.u), "U = {} is not unimodular", sf.u);
            prop_assert!(is_unimodular(&sf.v), "V = {} is not unimodular", sf.v);
            prop_assert!(sf.diagonal.iter().all(|x| x.signum() >= 0));
            let nonzero = sf.diagonal.iter().take_while(|x| !x.is_zero()).count();
            prop_assert!(sf.diagonal[nonzero..].iter().all(Integer::is_zero), "zeros come last");
            prop_assert_eq!(nonzero, rank(&a.rows(), a.ncols()));
            for w in sf.diagonal[..nonzero].windows(2) {
                prop_assert!(w[1].is_multiple_of(&w[0]), "{} does not divide {}", w[0], w[1]);
            }
            // The rows of U and the columns of V beyond the rank are canonical kernel bases.
            let u_rows = sf.u.rows();
            let left = &u_rows[nonzero..];
            prop_assert!(is_hermite_basis(a.nrows(), left));
            let v_columns = sf.v.columns();
            let right = &v_columns[nonzero..];
            prop_assert!(is_hermite_basis(a.ncols(), right));
            // The first invariant factor is the gcd of the entries.
            let g = rows.iter().flatten().fold(Integer::ZERO, |acc, &x| acc.gcd(&int(x)));
            prop_assert_eq!(&sf.diagonal[0], &g);
        }

        #[test]
        fn kernels_are_lattice_bases(rows in matrix_strategy()) {
            let d = rows[0].len();
            let rows: Vec<Vector> = rows.iter().map(|r| v(r)).collect();
            let k = kernel_lattice(&rows, d);
            let r = rank(&rows, d);
            prop_assert_eq!(k.len(), d - r);
            prop_assert_eq!(rank(&k, d), k.len(), "the kernel basis is independent");
            for x in &k {
                prop_assert!(rows.iter().all(|row| row.dot(x).is_zero()), "{} is not in the kernel", x);
            }
            let lk = Lattice::generated_by(d, &k);
            prop_assert_eq!(lk.basis(), &k[..], "the kernel basis is the Hermite one");
            prop_assert_eq!(lk.saturation(), lk.clone());
            // Every integer kernel vector in a small box is an integer combination of the basis.
            let b = if d <= 4 { 3 } else { 2 };
            for x in box_points(d, b) {
                if rows.iter().all(|row| row.dot(&x).is_zero()) {
                    prop_assert!(lk.contains(&x), "{} is in the kernel but not in the lattice of {:?}", x, k);
                }
            }
        }

        #[test]
        fn index_is_the_determinant_and_the_smith_product(rows in matrix_strategy()) {
            let d = rows[0].len();
            let gens: Vec<Vector> = rows.iter().map(|r| v(r)).collect();
            let l = Lattice::generated_by(d, &gens);
            let a = mat(&rows);
            let sf = smith_normal_form(&a);
            let nonzero: Vec<Integer> = sf.diagonal.iter().filter(|x| !x.is_zero()).cloned().collect();
            prop_assert_eq!(l.rank(), nonzero.len());
            if l.rank() == d {
                prop_assert_eq!(l.index(), Some(product(&nonzero)));
            } else {
                prop_assert_eq!(l.index(), None);
            }
            if a.nrows() == a.ncols() && l.rank() == d {
                prop_assert_eq!(l.index(), Some(determinant(&a).abs()));
            }
            prop_assert_eq!(l.index(), minors_gcd(d, &gens));
            prop_assert_eq!(l.index_in_saturation(), product(&nonzero));
            for g in &gens {
                let c = l.coordinates(g);
                prop_assert!(c.is_some(), "the generator {} is not in L", g);
                prop_assert_eq!(&combine(l.basis(), &c.unwrap(), d), g);
            }
        }

        #[test]
        fn saturation_is_saturated_and_contains_the_lattice(rows in matrix_strategy()) {
            let d = rows[0].len();
            let gens: Vec<Vector> = rows.iter().map(|r| v(r)).collect();
            let l = Lattice::generated_by(d, &gens);
            let sat = l.saturation();
            prop_assert_eq!(sat.rank(), l.rank());
            prop_assert_eq!(sat.index_in_saturation(), Integer::ONE);
            prop_assert_eq!(sat.saturation(), sat.clone());
            prop_assert!(l.basis().iter().all(|b| sat.contains(b)));
            if d <= 3 {
                // Every integer point of span(L) in a small box is in the saturation.
                for x in box_points(d, 3) {
                    let mut with_x = l.basis().to_vec();
                    with_x.push(x.clone());
                    prop_assert_eq!(sat.contains(&x), rank(&with_x, d) == l.rank(), "{}", x);
                }
            }
        }

        #[test]
        fn membership_agrees_with_small_combinations(gens in proptest::collection::vec(proptest::collection::vec(-3i64..=3, 2), 1..=3)) {
            let gens: Vec<Vector> = gens.iter().map(|g| v(g)).collect();
            let l = Lattice::generated_by(2, &gens);
            let reachable: BTreeSet<Vector> = tuples(gens.len(), -8, 8)
                .iter()
                .map(|c| combine(&gens, &ints(c), 2))
                .collect();
            // With index N, N·Z^2 ⊂ L, so membership is decided by the residues mod N of the
            // combinations with coefficients in 0..N.
            let modulo = |p: &Vector, n: &Integer| Vector(p.0.iter().map(|x| x.mod_floor(n).unwrap()).collect());
            let residues: Option<(Integer, BTreeSet<Vector>)> = l.index().map(|n| {
                let top = n.to_i64().unwrap() - 1;
                let set = tuples(gens.len(), 0, top)
                    .iter()
                    .map(|c| modulo(&combine(&gens, &ints(c), 2), &n))
                    .collect();
                (n, set)
            });
            for p in box_points(2, 3) {
                let inside = l.contains(&p);
                if reachable.contains(&p) {
                    prop_assert!(inside, "{} is a combination but not in L", p);
                }
                if let Some((n, set)) = &residues {
                    prop_assert_eq!(inside, set.contains(&modulo(&p, n)), "{}", p);
                }
                if inside {
                    let c = l.coordinates(&p).unwrap();
                    prop_assert_eq!(combine(l.basis(), &c, 2), p);
                }
            }
        }
    }

    #[test]
    fn hand_computed_indices() {
        let index = |d: usize, gens: &[&[i64]]| {
            Lattice::generated_by(d, &gens.iter().map(|g| v(g)).collect::<Vec<_>>()).index()
        };
        assert_eq!(index(2, &[&[2, 0], &[0, 2]]), Some(int(4)));
        assert_eq!(index(2, &[&[1, 0], &[0, 1], &[-1, 1]]), Some(int(1)));
        assert_eq!(index(2, &[&[2, 1], &[1, 2]]), Some(int(3)));
        assert_eq!(index(2, &[&[2, 4], &[3, 6]]), None);
        assert_eq!(
            index(3, &[&[1, 0, -1], &[0, 1, 1], &[0, 0, 2]]),
            Some(int(2))
        );
        assert_eq!(index(1, &[&[4], &[6]]), Some(int(2)));
        assert_eq!(Lattice::full(3).index(), Some(Integer::ONE));
        assert_eq!(
            Lattice::full(3),
            Lattice::generated_by(3, &[v(&[1, 1, 1]), v(&[0, 1, 1]), v(&[0, 0, 1])])
        );
    }

    #[test]
    fn hand_computed_hermite_forms() {
        let hf = hermite_normal_form(&mat(&[vec![2, 1], vec![1, 2]]));
        assert_eq!(hf.h, mat(&[vec![1, 2], vec![0, 3]]));
        assert_eq!(hf.rank, 2);
        let hf = hermite_normal_form(&mat(&[vec![2, 4, 6], vec![3, 6, 9], vec![0, 0, 0]]));
        assert_eq!(hf.h, mat(&[vec![1, 2, 3], vec![0, 0, 0], vec![0, 0, 0]]));
        assert_eq!(hf.rank, 1);
        // The left kernel {y : y·A = 0} is spanned by (3, −2, 0) and (0, 0, 1).
        assert_eq!(hf.u.row(1), v(&[3, -2, 0]));
        assert_eq!(hf.u.row(2), v(&[0, 0, 1]));
        let hf = hermite_normal_form(&mat(&[vec![-4]]));
        assert_eq!((hf.h, hf.u), (mat(&[vec![4]]), mat(&[vec![-1]])));
    }

    #[test]
    fn hand_computed_smith_forms() {
        let diagonal = |rows: &[Vec<i64>]| smith_normal_form(&mat(rows)).diagonal;
        assert_eq!(
            diagonal(&[vec![2, 4, 4], vec![-6, 6, 12], vec![10, -4, -16]]),
            ints(&[2, 6, 12])
        );
        assert_eq!(diagonal(&[vec![2, 0], vec![0, 3]]), ints(&[1, 6]));
        assert_eq!(diagonal(&[vec![2, 4, 6]]), ints(&[2]));
        assert_eq!(
            diagonal(&[vec![0, 0], vec![0, 0], vec![0, 0]]),
            ints(&[0, 0])
        );
        assert_eq!(diagonal(&[vec![0, 0], vec![0, -5]]), ints(&[5, 0]));
    }

    #[test]
    fn hand_computed_kernels() {
        assert_eq!(
            kernel_lattice(&[v(&[1, 1, 1])], 3),
            vec![v(&[1, 0, -1]), v(&[0, 1, -1])]
        );
        assert_eq!(
            kernel_lattice(&[v(&[2, 4, 6])], 3),
            vec![v(&[1, 1, -1]), v(&[0, 3, -2])]
        );
        assert_eq!(kernel_lattice(&[], 2), vec![v(&[1, 0]), v(&[0, 1])]);
        assert_eq!(
            kernel_lattice(&[v(&[0, 0])], 2),
            vec![v(&[1, 0]), v(&[0, 1])]
        );
        assert_eq!(
            kernel_lattice(&[v(&[1, 0]), v(&[0, 3])], 2),
            Vec::<Vector>::new()
        );
        assert_eq!(kernel_lattice(&[], 0), Vec::<Vector>::new());
    }

    #[test]
    fn lattices_of_low_rank() {
        let zero = Lattice::generated_by(3, &[]);
        assert_eq!(zero, Lattice::generated_by(3, &[Vector::zero(3)]));
        assert_eq!((zero.rank(), zero.index()), (0, None));
        assert_eq!(zero.saturation(), zero);
        assert_eq!(zero.index_in_saturation(), Integer::ONE);
        assert!(zero.contains(&Vector::zero(3)));
        assert!(!zero.contains(&v(&[1, 0, 0])));
        assert!(!zero.contains(&v(&[0, 0])), "another dimension");
        assert_eq!(Lattice::generated_by(0, &[]).index(), Some(Integer::ONE));

        let l = Lattice::generated_by(2, &[v(&[2, 4])]);
        assert_eq!(l.saturation(), Lattice::generated_by(2, &[v(&[1, 2])]));
        assert_eq!(l.index_in_saturation(), int(2));
        assert_eq!(l.coordinates(&v(&[-6, -12])), Some(ints(&[-3])));
        assert_eq!(l.coordinates(&v(&[1, 2])), None);

        let l = Lattice::generated_by(3, &[v(&[2, 0, 0]), v(&[0, 3, 3]), v(&[4, 3, 3])]);
        assert_eq!(l.basis(), &[v(&[2, 0, 0]), v(&[0, 3, 3])]);
        assert_eq!(l.saturation().basis(), &[v(&[1, 0, 0]), v(&[0, 1, 1])]);
        assert_eq!(l.index_in_saturation(), int(6));
    }

    #[test]
    fn equal_lattices_are_equal_values() {
        let a = Lattice::generated_by(2, &[v(&[2, 1]), v(&[1, 2])]);
        let b = Lattice::generated_by(2, &[v(&[1, 2]), v(&[3, 3]), v(&[0, 0])]);
        assert_eq!(a, b);
        assert_eq!(a.basis(), &[v(&[1, 2]), v(&[0, 3])]);
        assert_ne!(a, Lattice::full(2));
    }

    /// Deterministic pseudo-random matrices of a given shape and rank (entries of the factors in
    /// -5..=5).
    fn low_rank_matrix(seed: u64, m: usize, n: usize, r: usize) -> Vec<Vec<i64>> {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % 11) as i64 - 5
        };
        let left: Vec<Vec<i64>> = (0..m).map(|_| (0..r).map(|_| next()).collect()).collect();
        let right: Vec<Vec<i64>> = (0..r).map(|_| (0..n).map(|_| next()).collect()).collect();
        left.iter()
            .map(|l| {
                (0..n)
                    .map(|j| (0..r).map(|t| l[t] * right[t][j]).sum())
                    .collect()
            })
            .collect()
    }

    fn max_bits(rows: impl IntoIterator<Item = Vector>) -> u64 {
        rows.into_iter()
            .flat_map(|r| r.0)
            .map(|x| x.bits())
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn entries_stay_small_on_larger_inputs() {
        // Without reduction, the transforms and kernels of such matrices reach hundreds of bits.
        for (seed, m, n, r) in [(1, 30, 8, 8), (2, 30, 8, 4), (3, 8, 30, 8), (4, 50, 10, 5)] {
            let rows = low_rank_matrix(seed, m, n, r);
            let a = mat(&rows);
            let hf = hermite_normal_form(&a);
            assert_eq!(mul(&hf.u, &a), hf.h);
            assert!(
                max_bits(hf.u.rows()) < 100,
                "U of a {m}×{n} matrix: {} bits",
                max_bits(hf.u.rows())
            );
            let k = kernel_lattice(&a.rows(), n);
            assert!(
                max_bits(k.clone()) < 100,
                "kernel of a {m}×{n} matrix: {} bits",
                max_bits(k)
            );
            let l = Lattice::generated_by(n, &a.rows());
            let sat = l.saturation();
            assert!(max_bits(sat.basis().to_vec()) < 100);
            assert_eq!(sat.rank(), r);
            let sf = smith_normal_form(&a);
            assert_eq!(
                mul(&mul(&sf.u, &a), &sf.v)
                    .rows()
                    .iter()
                    .filter(|x| !x.is_zero())
                    .count(),
                r
            );
        }
    }

    proptest! {
        #[test]
        fn the_index_counts_cosets(gens in proptest::collection::vec(proptest::collection::vec(-3i64..=3, 2), 2..4)) {
            // In d = 2 with index N, N·Z^2 ⊂ L, so |Z^2 / L| = N^2 / |L mod N|: count the residues
            // mod N of the combinations with coefficients in 0..N.
            let gens: Vec<Vector> = gens.iter().map(|g| v(g)).collect();
            if let Some(index) = Lattice::generated_by(2, &gens).index() {
                let n = index.to_i64().unwrap();
                let mut seen = BTreeSet::new();
                let thirds = if gens.len() > 2 { n } else { 1 };
                for a in 0..n {
                    for b in 0..n {
                        for c in 0..thirds {
                            let coeffs = ints(&[a, b, c]);
                            let p = combine(&gens, &coeffs, 2);
                            seen.insert((p.0[0].mod_floor(&index).unwrap(), p.0[1].mod_floor(&index).unwrap()));
                        }
                    }
                }
                prop_assert_eq!(seen.len() as i64 * n, n * n, "index {} for {:?}", n, gens);
            }
        }
    }
}
