//! Cosets c + L of sublattices L ⊂ Z^d, and integer linear systems: the lattice part of the
//! *basic sets* {x ∈ c + L : Ax ≥ b} out of which stratified sets are built ([GM11] Definition 4.1:
//! affine stratifications live on such cosets; [GM11] Lemma 4.3 splits a lattice into cosets of a
//! sublattice).
//!
//! A coset keeps its lattice in Hermite normal form and its offset reduced modulo that basis, so
//! equal cosets are equal values.

use std::fmt;

use super::lattice::{smith_normal_form, Lattice};
use super::{Integer, Matrix, Vector};

/// The integer solutions of A x = b, for A given by `rows` (m rows of n entries, m, n ≥ 1): a
/// particular solution and a Z-basis of the integer kernel, or `None` when there is no integer
/// solution.
///
/// With the Smith form U·A·V = D, x = V y turns the system into D y = U b: it is solvable exactly
/// when d_i divides (Ub)_i for the nonzero d_i and (Ub)_i = 0 elsewhere; the y_j with d_j = 0 are
/// free, and their columns of V span the kernel.
pub fn solve_integer(rows: &[Vec<Integer>], b: &[Integer]) -> Option<(Vector, Vec<Vector>)> {
    let small = |xs: &[Integer]| xs.iter().map(Integer::to_i64).collect::<Option<Vec<i64>>>();
    if let (Some(rows64), Some(b64)) = (
        rows.iter().map(|r| small(r)).collect::<Option<Vec<_>>>(),
        small(b),
    ) {
        if let Some(answer) = solve_integer_i64(&rows64, &b64) {
            return answer.map(|(x, kernel)| {
                (
                    Vector::from_i64s(&x),
                    kernel.iter().map(|k| Vector::from_i64s(k)).collect(),
                )
            });
        }
    }
    solve_integer_exact(rows, b)
}

/// [`solve_integer`] in machine integers, by a column echelon form: unimodular column operations
/// U (Euclid's algorithm on pairs of columns) bring A to A·U = [H | 0] with H in column echelon form; then A x = b has the
/// solutions x = U (z, w) with H z = b solved by forward substitution (`None` inside when some
/// step does not divide or a row is inconsistent) and w free, so the last columns of U span the
/// kernel. The outer `None` means an intermediate value left i64 (the caller then works exactly).
#[allow(clippy::type_complexity)]
fn solve_integer_i64(rows: &[Vec<i64>], b: &[i64]) -> Option<Option<(Vec<i64>, Vec<Vec<i64>>)>> {
    let m = rows.len();
    let n = rows.first().map_or(0, Vec::len);
    // Columns of A and of U, as vectors (column j of A is cols[j], of U is us[j]).
    let mut cols: Vec<Vec<i64>> = (0..n)
        .map(|j| rows.iter().map(|r| r[j]).collect())
        .collect();
    let mut us: Vec<Vec<i64>> = (0..n)
        .map(|j| (0..n).map(|i| i64::from(i == j)).collect())
        .collect();
    // s·a + t·c, entrywise.
    fn combine(a: &[i64], c: &[i64], s: i64, t: i64) -> Option<Vec<i64>> {
        a.iter()
            .zip(c)
            .map(|(x, y)| x.checked_mul(s)?.checked_add(y.checked_mul(t)?))
            .collect()
    }
    let mut pivots: Vec<usize> = Vec::new(); // the row of each pivot column 0..r
    let mut r = 0;
    for i in 0..m {
        if r == n {
            break;
        }
        for j in (r + 1)..n {
            // Euclid on the two columns (subtract a multiple, swap), so entries stay small.
            while cols[j][i] != 0 {
                let q = cols[r][i].div_euclid(cols[j][i]);
                let new_r = combine(&cols[r], &cols[j], 1, q.checked_neg()?)?;
                let new_ur = combine(&us[r], &us[j], 1, q.checked_neg()?)?;
                cols[r] = new_r;
                us[r] = new_ur;
                cols.swap(r, j);
                us.swap(r, j);
            }
        }
        if cols[r][i] != 0 {
            pivots.push(i);
            r += 1;
        }
    }
    // Forward substitution on the pivot rows: H z = b.
    let mut z = vec![0i64; r];
    for k in 0..r {
        let i = pivots[k];
        let mut rest = i128::from(b[i]);
        for (l, zl) in z.iter().enumerate().take(k) {
            rest -= i128::from(cols[l][i]) * i128::from(*zl);
        }
        let h = i128::from(cols[k][i]);
        if rest % h != 0 {
            return Some(None);
        }
        z[k] = i64::try_from(rest / h).ok()?;
    }
    // Every row, pivot or not, must hold.
    for (i, bi) in b.iter().enumerate() {
        let lhs: i128 = (0..r)
            .map(|l| i128::from(cols[l][i]) * i128::from(z[l]))
            .sum();
        if lhs != i128::from(*bi) {
            return Some(None);
        }
    }
    let mut x = vec![0i64; n];
    for (l, zl) in z.iter().enumerate() {
        for (xi, ui) in x.iter_mut().zip(&us[l]) {
            *xi = xi.checked_add(ui.checked_mul(*zl)?)?;
        }
    }
    Some(Some((x, us[r..].to_vec())))
}

/// [`solve_integer`] exactly, by the Smith normal form.
fn solve_integer_exact(rows: &[Vec<Integer>], b: &[Integer]) -> Option<(Vector, Vec<Vector>)> {
    let n = rows.first().map_or(0, Vec::len);
    let a = Matrix::from_rows(rows.to_vec()).ok()?;
    let sf = smith_normal_form(&a);
    let m = rows.len();
    let ub: Vec<Integer> = (0..m)
        .map(|i| (0..m).fold(Integer::ZERO, |acc, j| &acc + &(sf.u.get(i, j) * &b[j])))
        .collect();
    let mut y = vec![Integer::ZERO; n];
    for (i, ubi) in ub.iter().enumerate() {
        let d = sf.diagonal.get(i).cloned().unwrap_or(Integer::ZERO);
        if d.is_zero() {
            if !ubi.is_zero() {
                return None;
            }
        } else {
            if !ubi.is_multiple_of(&d) {
                return None;
            }
            y[i] = ubi.div_floor(&d).expect("d ≠ 0");
        }
    }
    // The free y_j (d_j = 0, or j beyond the diagonal) stay 0 in the particular solution.
    let free = (0..n).filter(|&j| sf.diagonal.get(j).is_none_or(Integer::is_zero));
    let column = |j: usize| Vector((0..n).map(|i| sf.v.get(i, j).clone()).collect());
    let x = (0..n).fold(Vector::zero(n), |acc, j| acc.add(&column(j).scale(&y[j])));
    Some((x, free.map(column).collect()))
}

/// A coset c + L split by another, c' + L': their meet (empty or a coset of L ∩ L') and the rest
/// of c + L as disjoint pieces, cosets with at most one extra inequality n·x ≥ v each.
#[derive(Clone, Debug)]
pub struct CosetSplit {
    /// (c + L) ∩ (c' + L').
    pub meet: Option<Coset>,
    /// (c + L) ∖ (c' + L').
    pub rest: Vec<(Coset, Option<(Vector, Integer)>)>,
}

/// A coset c + L of a sublattice L ⊂ Z^d (L may have any rank, including 0).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Coset {
    offset: Vector,
    basis: Vec<Vector>,
    ambient: usize,
}

impl Coset {
    /// c + L, with the offset reduced modulo L's Hermite basis.
    pub fn new(offset: Vector, lattice: &Lattice) -> Coset {
        let basis = lattice.basis().to_vec();
        let offset = reduce(offset, &basis);
        Coset {
            offset,
            basis,
            ambient: lattice.ambient_dim(),
        }
    }

    /// All of Z^d.
    pub fn full(d: usize) -> Coset {
        Coset::new(Vector::zero(d), &Lattice::full(d))
    }

    /// The single point {p}.
    pub fn point(p: Vector) -> Coset {
        let d = p.dim();
        Coset::new(p, &Lattice::generated_by(d, &[]))
    }

    /// The ambient dimension d.
    pub fn ambient_dim(&self) -> usize {
        self.ambient
    }

    /// The canonical offset c.
    pub fn offset(&self) -> &Vector {
        &self.offset
    }

    /// The Hermite basis of L.
    pub fn basis(&self) -> &[Vector] {
        &self.basis
    }

    /// The lattice L.
    pub fn lattice(&self) -> Lattice {
        Lattice::generated_by(self.ambient, &self.basis)
    }

    /// The rank of L.
    pub fn rank(&self) -> usize {
        self.basis.len()
    }

    /// The point c + Σ z_i b_i.
    pub fn at(&self, z: &[Integer]) -> Vector {
        self.basis
            .iter()
            .zip(z)
            .fold(self.offset.clone(), |acc, (b, k)| acc.add(&b.scale(k)))
    }

    /// Whether x ∈ c + L.
    pub fn contains(&self, x: &Vector) -> bool {
        x.dim() == self.ambient && reduce(x.sub(&self.offset), &self.basis).is_zero()
    }

    /// c + L translated by p.
    pub fn translate(&self, p: &Vector) -> Coset {
        Coset {
            offset: reduce(self.offset.add(p), &self.basis),
            basis: self.basis.clone(),
            ambient: self.ambient,
        }
    }

    /// (c + L) ∩ (c' + L'), empty or a coset of L ∩ L'.
    pub fn intersect(&self, other: &Coset) -> Option<Coset> {
        let d = self.ambient;
        if self.basis.is_empty() {
            return other.contains(&self.offset).then(|| self.clone());
        }
        if other.basis.is_empty() {
            return self.contains(&other.offset).then(|| other.clone());
        }
        // Equal lattices (Hermite bases are canonical): the cosets are equal or disjoint.
        if self.basis == other.basis {
            return (self.offset == other.offset).then(|| self.clone());
        }
        // Nested lattices (a piece's lattice inside the board's Z^d, say): the coset of the
        // smaller one, or nothing, without solving a system.
        let inside = |small: &Coset, large: &Coset| {
            small
                .basis
                .iter()
                .all(|b| reduce(b.clone(), &large.basis).is_zero())
        };
        if inside(self, other) {
            return other.contains(&self.offset).then(|| self.clone());
        }
        if inside(other, self) {
            return self.contains(&other.offset).then(|| other.clone());
        }
        // c + B y = c' + B' z: solve [B | −B'] (y, z) = c' − c.
        let r = self.basis.len();
        let rows: Vec<Vec<Integer>> = (0..d)
            .map(|i| {
                self.basis
                    .iter()
                    .map(|b| b.0[i].clone())
                    .chain(other.basis.iter().map(|b| -&b.0[i]))
                    .collect()
            })
            .collect();
        let rhs = other.offset.sub(&self.offset).0;
        let (yz, kernel) = solve_integer(&rows, &rhs)?;
        let image = |v: &Vector| -> Vector {
            self.basis
                .iter()
                .zip(&v.0[..r])
                .fold(Vector::zero(d), |acc, (b, k)| acc.add(&b.scale(k)))
        };
        let point = self.offset.add(&image(&yz));
        let gens: Vec<Vector> = kernel.iter().map(image).collect();
        Some(Coset::new(point, &Lattice::generated_by(d, &gens)))
    }

    /// (c + L) ∩ {x : n·x = v}, empty or a coset.
    pub fn restrict(&self, n: &Vector, v: &Integer) -> Option<Coset> {
        let rhs = v - &n.dot(&self.offset);
        if self.basis.is_empty() {
            return rhs.is_zero().then(|| self.clone());
        }
        let row: Vec<Integer> = self.basis.iter().map(|b| n.dot(b)).collect();
        let (y, kernel) = solve_integer(&[row], &[rhs])?;
        let point = self.at(&y.0);
        let gens: Vec<Vector> = kernel
            .iter()
            .map(|k| {
                self.basis
                    .iter()
                    .zip(&k.0)
                    .fold(Vector::zero(self.ambient), |acc, (b, c)| {
                        acc.add(&b.scale(c))
                    })
            })
            .collect();
        Some(Coset::new(
            point,
            &Lattice::generated_by(self.ambient, &gens),
        ))
    }

    /// The cosets of `sub` that make up c + L, when `sub` ⊂ L has the same rank (so finite index):
    /// with sub's coordinates in L's basis in Hermite form H (upper triangular), the vectors with
    /// coordinates 0 ≤ a_i < H_ii are one representative of each coset.
    pub fn split(&self, sub: &Lattice) -> Vec<Coset> {
        let r = self.basis.len();
        debug_assert_eq!(sub.rank(), r);
        let own = self.lattice();
        let coords: Vec<Vector> = sub
            .basis()
            .iter()
            .map(|b| Vector(own.coordinates(b).expect("sub ⊂ L")))
            .collect();
        let local = Lattice::generated_by(r, &coords);
        let diagonal: Vec<Integer> = (0..r).map(|i| local.basis()[i].0[i].clone()).collect();
        let mut out = Vec::new();
        let mut a = vec![Integer::ZERO; r];
        loop {
            out.push(Coset::new(self.at(&a), sub));
            let mut i = r;
            loop {
                if i == 0 {
                    return out;
                }
                i -= 1;
                a[i] = &a[i] + &Integer::ONE;
                if a[i] < diagonal[i] {
                    break;
                }
                a[i] = Integer::ZERO;
            }
        }
    }

    /// (c + L) ∖ (c' + L') as disjoint pieces: cosets of L off the affine hull of the
    /// intersection are cut out by hyperplanes (returned as cosets with one extra inequality
    /// n·x ≥ v each), and within the hull by the finitely many other cosets of L ∩ L'.
    pub fn difference(&self, other: &Coset) -> Vec<(Coset, Option<(Vector, Integer)>)> {
        self.split_by(other).rest
    }

    /// (c + L) ∩ (c' + L') and (c + L) ∖ (c' + L') at once (see [`Coset::intersect`] and
    /// [`Coset::difference`]): the meet is computed once.
    pub fn split_by(&self, other: &Coset) -> CosetSplit {
        self.split_at(self.intersect(other))
    }

    /// [`Coset::split_by`] given the meet, `self.intersect(other)`.
    pub fn split_at(&self, meet: Option<Coset>) -> CosetSplit {
        let Some(meet) = meet else {
            return CosetSplit {
                meet: None,
                rest: vec![(self.clone(), None)],
            };
        };
        let rest = self.difference_from_meet(&meet);
        CosetSplit {
            meet: Some(meet),
            rest,
        }
    }

    /// (c + L) ∖ M for a coset M ⊆ c + L (the meet of [`Coset::difference`]).
    fn difference_from_meet(&self, meet: &Coset) -> Vec<(Coset, Option<(Vector, Integer)>)> {
        let mut out = Vec::new();
        let mut current = self.clone();
        // Hyperplanes through the meet that are not constant on c + L.
        let normals = super::lattice::kernel_lattice(meet.basis(), self.ambient);
        for n in normals {
            if current.basis.iter().all(|b| n.dot(b).is_zero()) {
                continue;
            }
            let v = n.dot(&meet.offset);
            // n·x ≥ v + 1 and −n·x ≥ −v + 1, on the current coset.
            out.push((current.clone(), Some((n.clone(), &v + &Integer::ONE))));
            out.push((
                current.clone(),
                Some((n.scale(&Integer::from(-1)), &(-&v) + &Integer::ONE)),
            ));
            current = current.restrict(&n, &v).expect("the meet lies on it");
        }
        // Now current ⊇ meet with finite index n. Up to n = 8 (2Z^3 in Z^3, the papers' P0 + 2N^d)
        // the n − 1 other cosets of the meet's lattice are the pieces, as the papers write such
        // complements. Past it, one prime step p | n is peeled off at a time, the p − 1 cosets of
        // an intermediate lattice of index p that miss the meet, so the pieces number Σ (p − 1)
        // over the prime factors of n rather than n − 1.
        let target = meet.lattice();
        while current.lattice() != target {
            let rows = current.local_rows(&target);
            let index = index_of(&rows);
            let step = if index <= Integer::from(8) {
                target.clone()
            } else {
                current.prime_step(&target, &rows, &index)
            };
            let mut next = None;
            for piece in current.split(&step) {
                if piece.contains(&meet.offset) {
                    next = Some(piece);
                } else {
                    out.push((piece, None));
                }
            }
            current = next.expect("one coset of the step holds the meet");
        }
        out
    }

    /// The coordinates of the basis of a sublattice M ⊆ L in this coset's basis of L.
    fn local_rows(&self, sub: &Lattice) -> Vec<Vec<Integer>> {
        let own = self.lattice();
        sub.basis()
            .iter()
            .map(|b| own.coordinates(b).expect("sub ⊂ L"))
            .collect()
    }

    /// A lattice L' with M ⊆ L' ⊂ L of prime index p in L = this coset's lattice, for a sublattice
    /// M of finite index n > 1: the kernel of a functional f: L → Z/p vanishing on M, for the
    /// least prime p dividing n (M itself when n has no prime factor below 10^6 and is larger
    /// than 10^12, which is then split in one step).
    /// `rows` are M's basis in local coordinates and `index` their determinant's absolute value.
    fn prime_step(&self, sub: &Lattice, rows: &[Vec<Integer>], index: &Integer) -> Lattice {
        let r = self.basis.len();
        let Some(p) = least_prime_factor(index) else {
            return sub.clone();
        };
        // Residues below p ≤ 10^12, so products fit in i128.
        let p = i128::from(p);
        // f with rows·f ≡ 0 (mod p), f ≢ 0: Gaussian elimination over F_p.
        let modp = |x: &Integer| {
            i128::from(
                x.mod_floor(&Integer::from(p as i64))
                    .and_then(|v| v.to_i64())
                    .expect("a residue mod p fits"),
            )
        };
        let mut m: Vec<Vec<i128>> = rows
            .iter()
            .map(|row| row.iter().map(modp).collect())
            .collect();
        let mut pivots: Vec<usize> = Vec::new();
        let mut row = 0;
        for col in 0..r {
            let Some(k) = (row..m.len()).find(|&k| m[k][col] != 0) else {
                continue;
            };
            m.swap(row, k);
            let inv = inverse_mod(m[row][col], p);
            for x in m[row].iter_mut() {
                *x = (*x * inv).rem_euclid(p);
            }
            for k in 0..m.len() {
                if k != row && m[k][col] != 0 {
                    let c = m[k][col];
                    let pivot_row = m[row].clone();
                    for (x, y) in m[k].iter_mut().zip(&pivot_row) {
                        *x = (*x - c * y).rem_euclid(p);
                    }
                }
            }
            pivots.push(col);
            row += 1;
        }
        let free = (0..r)
            .find(|c| !pivots.contains(c))
            .expect("p divides the index, so the rows are dependent mod p");
        let mut f = vec![0i128; r];
        f[free] = 1;
        for (i, &c) in pivots.iter().enumerate() {
            f[c] = (-m[i][free]).rem_euclid(p);
        }
        // ker f = Z{p e_k} + Z{e_j − (f_j / f_k) e_k : j ≠ k} for some f_k ≠ 0.
        let k = free;
        let fk_inv = inverse_mod(f[k], p);
        let local_to_ambient = |z: &[i128]| {
            let z: Vec<Integer> = z
                .iter()
                .map(|&x| Integer::from(i64::try_from(x).expect("|x| ≤ p")))
                .collect();
            self.at(&z).sub(&self.offset)
        };
        let mut gens = Vec::with_capacity(r);
        for j in 0..r {
            let mut z = vec![0i128; r];
            if j == k {
                z[k] = p;
            } else {
                z[j] = 1;
                z[k] = -((f[j] * fk_inv).rem_euclid(p));
            }
            gens.push(local_to_ambient(&z));
        }
        Lattice::generated_by(self.ambient, &gens)
    }
}

/// The index [L : M] of a full-rank sublattice M, from its basis in coordinates of L (r ≥ 1).
fn index_of(rows: &[Vec<Integer>]) -> Integer {
    super::linalg::determinant(&super::Matrix::from_rows(rows.to_vec()).expect("r ≥ 1 rows")).abs()
}

/// The least prime factor of n > 1 when it is below 10^6 or n ≤ 10^12 (then n itself when
/// prime), else `None`.
fn least_prime_factor(n: &Integer) -> Option<i64> {
    let small = n.to_i64().filter(|&v| v <= 1_000_000_000_000);
    let mut d = 2i64;
    while d <= 1_000_000 && small.is_none_or(|v| d * d <= v) {
        if n.is_multiple_of(&Integer::from(d)) {
            return Some(d);
        }
        d += if d == 2 { 1 } else { 2 };
    }
    small
}

/// x⁻¹ mod a prime p ≤ 10^12, for x ≢ 0 (Fermat: x^(p−2)).
fn inverse_mod(x: i128, p: i128) -> i128 {
    let (mut base, mut exp, mut acc) = (x.rem_euclid(p), p - 2, 1i128);
    while exp > 0 {
        if exp & 1 == 1 {
            acc = acc * base % p;
        }
        base = base * base % p;
        exp >>= 1;
    }
    acc
}

/// The canonical representative of x modulo a lattice (the offset `Coset::new` would store),
/// without building the coset.
pub(crate) fn residue(x: &Vector, lattice: &Lattice) -> Vector {
    reduce(x.clone(), lattice.basis())
}

/// x reduced modulo a Hermite basis: each pivot coordinate brought into [0, pivot).
fn reduce(mut x: Vector, basis: &[Vector]) -> Vector {
    for b in basis {
        let (p, h) =
            b.0.iter()
                .enumerate()
                .find(|(_, v)| !v.is_zero())
                .expect("basis vectors are nonzero");
        let q = x.0[p].div_floor(h).expect("pivot ≠ 0");
        if !q.is_zero() {
            x = x.sub(&b.scale(&q));
        }
    }
    x
}

impl fmt::Display for Coset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} + Z{{", self.offset)?;
        for (i, b) in self.basis.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{b}")?;
        }
        write!(f, "}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algebra::testing::box_points;
    use proptest::prelude::*;

    fn v(xs: &[i64]) -> Vector {
        Vector::from_i64s(xs)
    }

    fn coset(c: &[i64], gens: &[Vec<i64>]) -> Coset {
        let gens: Vec<Vector> = gens.iter().map(|g| v(g)).collect();
        Coset::new(v(c), &Lattice::generated_by(c.len(), &gens))
    }

    #[test]
    fn cosets_meet_by_the_chinese_remainder_theorem() {
        let a = coset(&[1], &[vec![2]]);
        let b = coset(&[0], &[vec![3]]);
        assert_eq!(a.intersect(&b), Some(coset(&[3], &[vec![6]])));
        let c = coset(&[0], &[vec![4]]);
        assert_eq!(a.intersect(&c), None);
    }

    #[test]
    fn a_sublattice_of_composite_index_is_cut_off_one_prime_at_a_time() {
        // Z^2 ∖ ((1, 2) + 12Z × 3Z): index 36 = 2·2·3·3 gives 1 + 1 + 2 + 2 = 6 cosets, not 35,
        // and they partition the complement; index 8 and below is split in one step.
        let whole = coset(&[0, 0], &[vec![1, 0], vec![0, 1]]);
        let sub = coset(&[1, 2], &[vec![12, 0], vec![0, 3]]);
        let pieces = whole.difference(&sub);
        assert_eq!(pieces.len(), 6);
        assert!(pieces.iter().all(|(_, h)| h.is_none()));
        for x in box_points(2, -13, 13) {
            let count = pieces.iter().filter(|(c, _)| c.contains(&x)).count();
            assert_eq!(count, usize::from(!sub.contains(&x)), "at {x}");
        }
        // A prime index is one step of p − 1 cosets; 2Z^2 leaves its three other cosets.
        let prime = coset(&[0, 0], &[vec![11, 0], vec![3, 1]]);
        assert_eq!(whole.difference(&prime).len(), 10);
        let even = coset(&[0, 0], &[vec![2, 0], vec![0, 2]]);
        assert_eq!(whole.difference(&even).len(), 3);
    }

    #[test]
    fn offsets_are_canonical() {
        assert_eq!(
            coset(&[5, 7], &[vec![2, 0], vec![0, 3]]),
            coset(&[1, 1], &[vec![2, 0], vec![0, 3]])
        );
    }

    fn arb_coset(d: usize) -> impl Strategy<Value = Coset> {
        (
            proptest::collection::vec(-3i64..=3, d),
            proptest::collection::vec(proptest::collection::vec(-3i64..=3, d), 0..=d),
        )
            .prop_map(|(c, gens)| coset(&c, &gens))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// The machine-integer solver agrees with the Smith-form one: the same solvability, a
        /// particular solution that solves, and a kernel basis of the same lattice.
        #[test]
        fn machine_and_exact_integer_solutions_agree(
            (m, n) in (1usize..=4, 1usize..=6),
            entries in proptest::collection::vec(-9i64..=9, 24),
            rhs in proptest::collection::vec(-20i64..=20, 4),
        ) {
            let rows: Vec<Vec<i64>> = (0..m).map(|i| entries[i * n..(i + 1) * n].to_vec()).collect();
            let b = &rhs[..m];
            let big = |xs: &[i64]| xs.iter().map(|x| Integer::from(*x)).collect::<Vec<_>>();
            let exact = solve_integer_exact(
                &rows.iter().map(|r| big(r)).collect::<Vec<_>>(),
                &big(b),
            );
            // An overflow hands the system to the exact solver; none is expected here.
            let fast = solve_integer_i64(&rows, b);
            prop_assume!(fast.is_some());
            let fast = fast.expect("assumed");
            prop_assert_eq!(exact.is_some(), fast.is_some());
            if let (Some((_, k1)), Some((x, k2))) = (exact, fast) {
                for (r, bi) in rows.iter().zip(b) {
                    prop_assert_eq!(r.iter().zip(&x).map(|(a, y)| a * y).sum::<i64>(), *bi);
                }
                let k2: Vec<Vector> = k2.iter().map(|k| v(k)).collect();
                prop_assert_eq!(Lattice::generated_by(n, &k1), Lattice::generated_by(n, &k2));
            }
        }

        #[test]
        fn intersection_and_difference_agree_with_enumeration(a in arb_coset(2), b in arb_coset(2)) {
            let meet = a.intersect(&b);
            let pieces = a.difference(&b);
            for x in box_points(2, -6, 6) {
                let inside = a.contains(&x) && b.contains(&x);
                prop_assert_eq!(meet.as_ref().is_some_and(|m| m.contains(&x)), inside, "{} ∩ {} at {}", a, b, x);
                let count = pieces.iter().filter(|(c, h)| c.contains(&x) && h.as_ref().is_none_or(|(n, v)| n.dot(&x) >= *v)).count();
                prop_assert_eq!(count, usize::from(a.contains(&x) && !b.contains(&x)), "{} ∖ {} at {}", a, b, x);
            }
        }
    }
}
