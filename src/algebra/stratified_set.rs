//! Sets with affine stratifications, as exact values: finite disjoint unions of basic sets
//! {x ∈ c + L : Ax ≥ b} ([GM11] Definition 4.1; these are the semilinear sets). The class is closed
//! under intersection, union, difference and complement ([GM11] Theorem 4.2), and every operation
//! here is exact, including emptiness and equality (with a witness point when they fail).
//!
//! Conversions in: polyhedra and cones (their lattice points), finite sets, affine semigroups and
//! modules F + A, and declared stratifications (whose pieces are checked to be disjoint). A normal
//! semigroup is one basic set, R_+A ∩ ZA. A non-normal one N{a_1..a_n} is split into linear sets
//! b + N{independent periods}: while the periods P are dependent, an integer relation
//! Σ_{i∈I} α_i p_i = Σ_{j∈J} β_j p_j (disjoint supports, α, β > 0, both sides nonempty since A is
//! pointed) shows that a point with every n_i ≥ α_i (i ∈ I) can trade those for the p_j, so
//! b + NP = ⋃_{i∈I} ⋃_{0≤k<α_i} (b + k p_i + N(P ∖ p_i)) (Ginsburg–Spanier; Eilenberg–Schützenberger).
//!
//! Conversion out: each basic set is decomposed into disjoint pieces p + N{a} with independent a,
//! and pieces with the same generators are grouped into modules F + N{a}: a printed affine
//! stratification in the papers' notation, and the terms of the rational generating function.

use std::collections::BTreeMap;

use super::basic_set::{BasicSet, SimplicialPiece};
use super::coset::{residue, Coset};
use super::lattice::{kernel_lattice, Lattice};
use super::polyhedral::{integer_inequalities, ConeData};
use super::{
    AffineModule, AffineSemigroup, AlgebraError, Integer, Matrix, Polyhedron, Stratification,
    Vector,
};

mod coalesce;
mod membership;
pub use membership::MembershipTest;

/// A finite disjoint union of nonempty basic sets in Z^d.
///
/// It may also carry a *cover*: fewer basic sets, not necessarily disjoint, with the same union
/// (the sets a union was built from, as isl keeps its unions). Subtracting the set cuts by the
/// cover, so a union's disjoint fragments never fragment what is cut by it.
///
/// The pieces of a union are C ∖ ⋃{C' : C' before C} for the cover sets C in [`Priority`] order
/// (higher dimension first, then denser lattice first), each piece remembering the priority of
/// its C. A union of two such sets cuts each piece only by the other side's cover sets that come
/// before its own: a ray is cut by the cones it meets, never a cone by a ray, and a dense lattice
/// is never split into the cosets of a sparse one it contains.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct StratifiedSet {
    dim: usize,
    pieces: Vec<BasicSet>,
    cover: Option<Cover>,
}

/// Basic sets whose union is the set's, and the priority of the one each piece was cut from.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Cover {
    sets: Vec<BasicSet>,
    origins: Vec<Priority>,
}

/// The order in which cover sets claim their points: the greater first. Higher-dimensional
/// cosets first, then (at one dimension) the denser lattice (smaller Gram determinant).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
struct Priority {
    rank: usize,
    sparsity: std::cmp::Reverse<Integer>,
}

impl Priority {
    fn of(b: &BasicSet) -> Priority {
        let basis = b.coset().basis();
        let gram = Matrix::from_rows(
            basis
                .iter()
                .map(|u| basis.iter().map(|v| u.dot(v)).collect())
                .collect(),
        )
        .map_or(Integer::ONE, |g| crate::algebra::linalg::determinant(&g));
        Priority {
            rank: basis.len(),
            sparsity: std::cmp::Reverse(gram),
        }
    }
}

/// Two pieces of a declared union W_1 ⊎ ... ⊎ W_r share a point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overlap {
    /// The 0-based indices i < j of the overlapping pieces.
    pub pieces: (usize, usize),
    /// A point of W_i ∩ W_j.
    pub point: Vector,
}

impl StratifiedSet {
    /// The empty subset of Z^d.
    pub fn empty(dim: usize) -> StratifiedSet {
        StratifiedSet {
            dim,
            pieces: Vec::new(),
            cover: None,
        }
    }

    /// All of Z^d.
    pub fn whole(dim: usize) -> StratifiedSet {
        StratifiedSet {
            dim,
            pieces: vec![BasicSet::whole(dim)],
            cover: None,
        }
    }

    /// One basic set (dropped when empty).
    pub fn from_basic(set: BasicSet) -> Result<StratifiedSet, AlgebraError> {
        let dim = set.dim();
        let pieces = if set.is_empty()? {
            Vec::new()
        } else {
            vec![set]
        };
        Ok(StratifiedSet {
            dim,
            pieces,
            cover: None,
        })
    }

    /// Pieces known to be disjoint (empty ones are dropped, the others keep only the
    /// inequalities that cut out facets).
    pub(crate) fn from_disjoint(
        dim: usize,
        pieces: Vec<BasicSet>,
    ) -> Result<StratifiedSet, AlgebraError> {
        let mut kept = Vec::with_capacity(pieces.len());
        for p in pieces {
            if let Some(p) = p.pruned()? {
                kept.push(p);
            }
        }
        Ok(StratifiedSet {
            dim,
            pieces: kept,
            cover: None,
        })
    }

    /// A finite set of points of Z^d.
    pub fn from_points(dim: usize, points: &[Vector]) -> StratifiedSet {
        let mut pts = points.to_vec();
        pts.sort();
        pts.dedup();
        StratifiedSet {
            dim,
            pieces: pts
                .into_iter()
                .map(|p| BasicSet::new(Coset::point(p), Vec::new()))
                .collect(),
            cover: None,
        }
    }

    /// Disjoint pieces (with the priorities of their origins) and a cover of the same union, kept
    /// only when it is smaller.
    fn with_cover(
        dim: usize,
        pieces: Vec<BasicSet>,
        origins: Vec<Priority>,
        sets: Vec<BasicSet>,
    ) -> StratifiedSet {
        let cover = (sets.len() < pieces.len()).then_some(Cover { sets, origins });
        StratifiedSet { dim, pieces, cover }
    }

    /// Sets with pairwise disjoint points, as one.
    fn disjoint_union(dim: usize, parts: Vec<StratifiedSet>) -> StratifiedSet {
        let mut sets = Vec::new();
        let mut origins = Vec::new();
        let mut pieces = Vec::new();
        for part in parts {
            sets.extend_from_slice(part.cover());
            origins.extend(part.origins());
            pieces.extend(part.pieces);
        }
        StratifiedSet::with_cover(dim, pieces, origins, sets)
    }

    /// Basic sets whose union is the set: the cover when there is one, else the pieces.
    pub fn cover(&self) -> &[BasicSet] {
        self.cover.as_ref().map_or(&self.pieces, |c| &c.sets)
    }

    /// The priority of the cover set each piece was cut from (its own when the pieces are the
    /// cover).
    fn origins(&self) -> Vec<Priority> {
        match &self.cover {
            Some(c) => c.origins.clone(),
            None => self.pieces.iter().map(Priority::of).collect(),
        }
    }

    /// The lattice points Π ∩ Z^d of a polyhedron or cone.
    pub fn from_polyhedron(p: &Polyhedron) -> Result<StratifiedSet, AlgebraError> {
        let d = p.dim();
        StratifiedSet::from_basic(BasicSet::from_inequalities(d, integer_inequalities(p)?))
    }

    /// The affine semigroup A (see the module documentation).
    pub fn from_semigroup(a: &AffineSemigroup) -> Result<StratifiedSet, AlgebraError> {
        let d = a.dim();
        let gens: Vec<Vector> = a
            .generators()
            .iter()
            .filter(|g| !g.is_zero())
            .cloned()
            .collect();
        if gens.is_empty() {
            return Ok(StratifiedSet::from_points(d, &[Vector::zero(d)]));
        }
        if crate::algebra::linalg::rank(&gens, d) == gens.len() {
            // Independent generators: N{a} is the simplicial piece itself.
            return StratifiedSet::from_basic(BasicSet::simplicial(&Vector::zero(d), &gens));
        }
        if a.is_normal()? {
            // R_+A ∩ ZA: the cone's facet inequalities on the lattice ZA.
            let cone = ConeData::from_generators(d, &gens)?;
            let coset = Coset::new(Vector::zero(d), &Lattice::generated_by(d, &gens));
            let ineqs = cone
                .facets()
                .iter()
                .map(|f| (f.clone(), Integer::ZERO))
                .collect();
            return StratifiedSet::from_basic(BasicSet::new(coset, ineqs));
        }
        if !a.is_pointed() {
            let cone = ConeData::from_generators(d, &gens)?;
            let line = cone.lineality().first().cloned().unwrap_or_default();
            return Err(AlgebraError::NotPointed { line });
        }
        let mut linear = Vec::new();
        independent_periods(Vector::zero(d), gens, &mut linear)?;
        // Joining overlapping linear sets multiplies disjoint pieces (hundreds of linear sets
        // give thousands of pieces and minutes of work): past these bounds the conversion is
        // refused rather than left to run.
        const MAX_PIECES: usize = 2048;
        let mut out = StratifiedSet::empty(d);
        for (b, periods) in linear {
            let piece = StratifiedSet::from_basic(BasicSet::simplicial(&b, &periods))?;
            out = out.union(&piece)?;
            if out.pieces().len() > MAX_PIECES {
                return Err(AlgebraError::TooLarge(format!(
                    "joining the linear sets of this non-normal semigroup passed {MAX_PIECES} disjoint pieces"
                )));
            }
        }
        Ok(out)
    }

    /// The module F + A = ⋃_{f ∈ F} (f + A).
    ///
    /// Translates f + A and f' + A with f ≢ f' modulo ZA are disjoint (they lie in different
    /// cosets of ZA), so the offsets are grouped by their class and only translates within one
    /// class are joined with `∪`.
    pub fn from_module(w: &AffineModule) -> Result<StratifiedSet, AlgebraError> {
        let a = StratifiedSet::from_semigroup(w.semigroup())?;
        let group = Lattice::generated_by(w.dim(), w.semigroup().generators());
        let mut classes: BTreeMap<Vector, Vec<&Vector>> = BTreeMap::new();
        for f in w.offsets() {
            classes.entry(residue(f, &group)).or_default().push(f);
        }
        let mut parts = Vec::new();
        for offsets in classes.values() {
            if crate::interrupt::requested() {
                return Err(AlgebraError::Interrupted);
            }
            let mut class = StratifiedSet::empty(w.dim());
            for f in offsets {
                class = class.union(&a.translate(f))?;
            }
            parts.push(class);
        }
        Ok(StratifiedSet::disjoint_union(w.dim(), parts))
    }

    /// A declared stratification W_1 ⊎ ... ⊎ W_r: the union, or the first two pieces that overlap
    /// with a shared point.
    pub fn from_stratification(
        s: &Stratification,
    ) -> Result<Result<StratifiedSet, Overlap>, AlgebraError> {
        let groups: Vec<usize> = (0..s.pieces().len()).collect();
        StratifiedSet::from_stratification_grouped(s, &groups)
    }

    /// [`StratifiedSet::from_stratification`] when some pieces are already known to be pairwise
    /// disjoint: pieces W_i, W_j with `groups[i] == groups[j]` are not tested against each other
    /// (a chain W ⊎ V ⊎ U ... then tests each new piece only against the earlier ones).
    pub fn from_stratification_grouped(
        s: &Stratification,
        groups: &[usize],
    ) -> Result<Result<StratifiedSet, Overlap>, AlgebraError> {
        assert_eq!(groups.len(), s.pieces().len(), "one group per piece");
        let sets: Vec<StratifiedSet> = s
            .pieces()
            .iter()
            .map(StratifiedSet::from_module)
            .collect::<Result<_, _>>()?;
        // Only pieces whose cosets meet can overlap: test those pairs, in the order (j, i).
        let owners: Vec<usize> = sets
            .iter()
            .enumerate()
            .flat_map(|(k, s)| std::iter::repeat_n(k, s.pieces.len()))
            .collect();
        let all: Vec<BasicSet> = sets.iter().flat_map(|s| s.pieces.iter().cloned()).collect();
        let mut candidates: Vec<(usize, usize, usize, usize)> = coset_meeting_pairs(&all, &all)
            .into_iter()
            .filter(|&(x, y)| owners[x] < owners[y] && groups[owners[x]] != groups[owners[y]])
            .map(|(x, y)| (owners[y], owners[x], x, y))
            .collect();
        candidates.sort_unstable();
        for (j, i, x, y) in candidates {
            if crate::interrupt::requested() {
                return Err(AlgebraError::Interrupted);
            }
            if let Some(m) = all[x].intersect(&all[y]) {
                if let Some(point) = m.find_point()? {
                    return Ok(Err(Overlap {
                        pieces: (i, j),
                        point,
                    }));
                }
            }
        }
        Ok(Ok(StratifiedSet::disjoint_union(s.dim(), sets)))
    }

    /// The ambient dimension d.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The disjoint basic sets.
    pub fn pieces(&self) -> &[BasicSet] {
        &self.pieces
    }

    /// Whether x lies in the set.
    pub fn contains(&self, x: &Vector) -> bool {
        self.pieces.iter().any(|p| p.contains(x))
    }

    /// Some point of the set, or `None` when it is empty.
    pub fn find_point(&self) -> Result<Option<Vector>, AlgebraError> {
        match self.pieces.first() {
            Some(p) => p.find_point(),
            None => Ok(None),
        }
    }

    /// Whether the set is finite (every basic set bounded).
    pub fn is_finite(&self) -> Result<bool, AlgebraError> {
        for p in &self.pieces {
            if !p.is_bounded()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The number of points of a finite set, the sum of its disjoint pieces' counts (each by
    /// Barvinok's algorithm, see [`BasicSet::count_points`]); `None` when the set is infinite.
    pub fn count_points(&self) -> Result<Option<num_bigint::BigInt>, AlgebraError> {
        if !self.is_finite()? {
            return Ok(None);
        }
        let mut total = num_bigint::BigInt::from(0);
        for p in &self.pieces {
            if crate::interrupt::requested() {
                return Err(AlgebraError::Interrupted);
            }
            total += p.count_points()?;
        }
        Ok(Some(total))
    }

    /// Whether the set is empty (pieces are kept nonempty, so this is immediate).
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    fn check_dim(&self, other: &StratifiedSet, what: &str) -> Result<(), AlgebraError> {
        if self.dim != other.dim {
            return Err(AlgebraError::DimensionMismatch {
                what: what.into(),
                expected: self.dim,
                found: other.dim,
            });
        }
        Ok(())
    }

    /// S ∩ T.
    pub fn intersect(&self, other: &StratifiedSet) -> Result<StratifiedSet, AlgebraError> {
        self.check_dim(other, "the second set of an intersection")?;
        let mut pieces = Vec::new();
        for (i, j) in coset_meeting_pairs(&self.pieces, &other.pieces) {
            if crate::interrupt::requested() {
                return Err(AlgebraError::Interrupted);
            }
            if let Some(m) = self.pieces[i].intersect(&other.pieces[j]) {
                pieces.push(m);
            }
        }
        StratifiedSet::from_disjoint(self.dim, pieces)
    }

    /// S ∖ T: each piece of S cut down by the pieces of T whose cosets meet it (found at once for
    /// all pairs), the pieces of S in parallel (they are independent; the time limit and cancel
    /// tokens of the calling thread hold in the workers too).
    pub fn difference(&self, other: &StratifiedSet) -> Result<StratifiedSet, AlgebraError> {
        self.check_dim(other, "the second set of a difference")?;
        let parts = self.cut_by(other.cover(), |_, _| true)?;
        Ok(StratifiedSet {
            dim: self.dim,
            pieces: parts.into_iter().flatten().collect(),
            cover: None,
        })
    }

    /// Each piece P_i of S cut down by the basic sets T_j (not necessarily disjoint) with
    /// `cuts(i, j)`: P_i ∖ ⋃ T_j as disjoint pieces, one list per piece.
    fn cut_by(
        &self,
        cutters_sets: &[BasicSet],
        cuts: impl Fn(usize, usize) -> bool,
    ) -> Result<Vec<Vec<BasicSet>>, AlgebraError> {
        use rayon::prelude::*;
        let mut cutters: Vec<Vec<usize>> = vec![Vec::new(); self.pieces.len()];
        for (i, j) in coset_meeting_pairs(&self.pieces, cutters_sets) {
            if cuts(i, j) {
                cutters[i].push(j);
            }
        }
        let inherited = crate::interrupt::inherited();
        let cut = |(a, js): (&BasicSet, &Vec<usize>)| -> Result<Vec<BasicSet>, AlgebraError> {
            crate::interrupt::with_inherited(&inherited, || {
                let mut rest = vec![a.clone()];
                for &j in js {
                    if crate::interrupt::requested() {
                        return Err(AlgebraError::Interrupted);
                    }
                    let mut next = Vec::with_capacity(rest.len());
                    for p in &rest {
                        next.extend(p.difference(&cutters_sets[j])?);
                    }
                    rest = next;
                    if rest.is_empty() {
                        break;
                    }
                }
                Ok(rest)
            })
        };
        let parts: Vec<Vec<BasicSet>> = if cutters.iter().filter(|js| !js.is_empty()).count() > 1 {
            self.pieces
                .par_iter()
                .zip(cutters.par_iter())
                .map(cut)
                .collect::<Result<_, _>>()?
        } else {
            self.pieces
                .iter()
                .zip(cutters.iter())
                .map(cut)
                .collect::<Result<_, _>>()?
        };
        Ok(parts)
    }

    /// S ∖ (T_1 ∪ ... ∪ T_n): each piece of S cut by the covers of all T_i at once (see
    /// [`StratifiedSet::difference`]).
    pub fn difference_of_all(
        &self,
        others: &[StratifiedSet],
    ) -> Result<StratifiedSet, AlgebraError> {
        for t in others {
            self.check_dim(t, "a set subtracted")?;
        }
        let cutters: Vec<BasicSet> = others
            .iter()
            .flat_map(|t| t.cover().iter().cloned())
            .collect();
        let parts = self.cut_by(&cutters, |_, _| true)?;
        Ok(StratifiedSet {
            dim: self.dim,
            pieces: parts.into_iter().flatten().collect(),
            cover: None,
        })
    }

    /// S ∪ T = S ⊎ (T ∖ S).
    pub fn union(&self, other: &StratifiedSet) -> Result<StratifiedSet, AlgebraError> {
        self.check_dim(other, "the second set of a union")?;
        // A piece of S yields to the cover sets of T before its origin, a piece of T to those of
        // S before or level with its origin (see the type's documentation).
        let (own, theirs) = (self.origins(), other.origins());
        let own_cover: Vec<Priority> = self.cover().iter().map(Priority::of).collect();
        let their_cover: Vec<Priority> = other.cover().iter().map(Priority::of).collect();
        let kept = self.cut_by(other.cover(), |i, j| their_cover[j] > own[i])?;
        let rest = other.cut_by(self.cover(), |i, j| own_cover[j] >= theirs[i])?;
        let mut pieces = Vec::new();
        let mut origins = Vec::new();
        for (parts, priorities) in [(kept, own), (rest, theirs)] {
            for (part, priority) in parts.into_iter().zip(priorities) {
                origins.extend(std::iter::repeat_n(priority, part.len()));
                pieces.extend(part);
            }
        }
        let mut sets = self.cover().to_vec();
        sets.extend_from_slice(other.cover());
        Ok(StratifiedSet::with_cover(self.dim, pieces, origins, sets))
    }

    /// The complement within a universe U (U ∖ S; [GM11] Theorem 4.2).
    pub fn complement_in(&self, universe: &StratifiedSet) -> Result<StratifiedSet, AlgebraError> {
        universe.difference(self)
    }

    /// A point of the symmetric difference of S and T, or `None` when they are equal.
    pub fn difference_witness(
        &self,
        other: &StratifiedSet,
    ) -> Result<Option<Vector>, AlgebraError> {
        if let Some(p) = self.difference(other)?.find_point()? {
            return Ok(Some(p));
        }
        other.difference(self)?.find_point()
    }

    /// Whether S = T.
    pub fn set_eq(&self, other: &StratifiedSet) -> Result<bool, AlgebraError> {
        Ok(self.dim == other.dim && self.difference_witness(other)?.is_none())
    }

    /// S + p.
    pub fn translate(&self, p: &Vector) -> StratifiedSet {
        StratifiedSet {
            dim: self.dim,
            pieces: self.pieces.iter().map(|b| b.translate(p)).collect(),
            cover: self.cover.as_ref().map(|c| Cover {
                sets: c.sets.iter().map(|b| b.translate(p)).collect(),
                origins: c.origins.clone(),
            }),
        }
    }

    /// The points of S in the box lo ≤ x ≤ hi, sorted. Only the box is walked (never the points
    /// of a whole piece), and only against the pieces that meet the box: when the box has many
    /// more points than S has pieces, each piece is first cut by the box and dropped when that is
    /// empty; the rest are tested with the compiled membership test.
    pub fn members_in_box(&self, lo: &[i64], hi: &[i64]) -> Result<Vec<Vector>, AlgebraError> {
        if lo.len() != self.dim || hi.len() != self.dim {
            return Err(AlgebraError::DimensionMismatch {
                what: "the box".into(),
                expected: self.dim,
                found: lo.len(),
            });
        }
        if lo.iter().zip(hi).any(|(l, h)| l > h) || self.pieces.is_empty() {
            return Ok(Vec::new());
        }
        let count = lo
            .iter()
            .zip(hi)
            .map(|(l, h)| u64::try_from(i128::from(*h) - i128::from(*l) + 1).ok())
            .try_fold(1u64, |acc, w| acc.checked_mul(w?));
        if count.is_none_or(|c| c > 50_000_000) {
            return Err(AlgebraError::TooLarge(
                "listing the points of a box this large".into(),
            ));
        }
        let count = count.expect("checked");
        let meeting = if count > 8 * self.pieces.len() as u64 {
            let d = self.dim;
            let walls: Vec<(Vector, Integer)> = (0..d)
                .flat_map(|i| {
                    [
                        (Vector::unit(d, i), Integer::from(lo[i])),
                        (
                            Vector::unit(d, i).scale(&Integer::from(-1)),
                            Integer::from(-hi[i]),
                        ),
                    ]
                })
                .collect();
            let mut kept = Vec::new();
            for p in &self.pieces {
                if !p.with(walls.iter().cloned()).is_empty()? {
                    kept.push(p.clone());
                }
            }
            StratifiedSet {
                dim: self.dim,
                pieces: kept,
                cover: None,
            }
        } else {
            self.clone()
        };
        let mut out = Vec::new();
        if meeting.pieces.is_empty() {
            return Ok(out);
        }
        let test = meeting.membership_test();
        let mut x: Vec<i64> = lo.to_vec();
        let mut visited = 0u64;
        loop {
            visited += 1;
            if visited.is_multiple_of(65536) && crate::interrupt::requested() {
                return Err(AlgebraError::Interrupted);
            }
            if test.contains_i64(&x) {
                out.push(Vector::from_i64s(&x));
            }
            let mut i = x.len();
            loop {
                if i == 0 {
                    return Ok(out);
                }
                i -= 1;
                if x[i] < hi[i] {
                    x[i] += 1;
                    x[(i + 1)..].copy_from_slice(&lo[(i + 1)..]);
                    break;
                }
            }
        }
    }

    /// The disjoint pieces p + N{a} (a independent) of every basic set, sorted. Fails with
    /// `NotPointed` when the set contains a line.
    pub fn simplicial_pieces(&self) -> Result<Vec<SimplicialPiece>, AlgebraError> {
        self.simplicial_pieces_within(i64::MAX)
    }

    /// [`StratifiedSet::simplicial_pieces`], enumerating at most `budget` parallelepiped points in
    /// all (`TooLarge` beyond).
    pub fn simplicial_pieces_within(
        &self,
        mut budget: i64,
    ) -> Result<Vec<SimplicialPiece>, AlgebraError> {
        let mut out = Vec::new();
        for p in &self.pieces {
            out.extend(p.simplicial_pieces_within(&mut budget)?);
        }
        out.sort();
        Ok(out)
    }

    /// An affine stratification F_1 + A_1 ⊎ ... ⊎ F_r + A_r of the set, pieces with the same
    /// generators grouped into one module and coalesced where fewer offsets describe the same set
    /// (see `coalesce`); `None` for the empty set.
    pub fn to_stratification(&self) -> Result<Option<Stratification>, AlgebraError> {
        self.to_stratification_within(i64::MAX)
    }

    /// [`StratifiedSet::to_stratification`] within a budget of parallelepiped points (`TooLarge`
    /// beyond), for printing.
    pub fn to_stratification_within(
        &self,
        budget: i64,
    ) -> Result<Option<Stratification>, AlgebraError> {
        let mut groups: BTreeMap<Vec<Vector>, Vec<Vector>> = BTreeMap::new();
        for p in self.simplicial_pieces_within(budget)? {
            groups.entry(p.generators).or_default().push(p.offset);
        }
        if groups.is_empty() {
            return Ok(None);
        }
        let groups = coalesce::coalesce(groups, self.dim);
        // Larger semigroups first (the papers list the infinite pieces first).
        let mut modules: Vec<(usize, AffineModule)> = Vec::new();
        for (gens, offsets) in groups {
            let a = AffineSemigroup::with_dim(self.dim, gens.clone())?;
            modules.push((gens.len(), AffineModule::new(offsets, a)?));
        }
        modules.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        Stratification::new(modules.into_iter().map(|m| m.1).collect()).map(Some)
    }
}

/// The pairs (i, j) of pieces a[i], b[j] whose cosets meet, sorted: a cheap certificate that
/// every other pair is disjoint. Pieces are grouped by lattice (Hermite bases are canonical); for
/// each pair of lattices L, L', the cosets c + L and c' + L' meet exactly when c ≡ c' modulo
/// L + L', so the offsets are bucketed by their residue modulo L + L' (one Hermite form per pair of
/// lattices, one reduction per piece).
pub(crate) fn coset_meeting_pairs(a: &[BasicSet], b: &[BasicSet]) -> Vec<(usize, usize)> {
    fn groups(sets: &[BasicSet]) -> BTreeMap<&[Vector], Vec<usize>> {
        let mut out: BTreeMap<&[Vector], Vec<usize>> = BTreeMap::new();
        for (i, s) in sets.iter().enumerate() {
            out.entry(s.coset().basis()).or_default().push(i);
        }
        out
    }
    let mut pairs = Vec::new();
    let Some(d) = a.first().or(b.first()).map(BasicSet::dim) else {
        return pairs;
    };
    let (ga, gb) = (groups(a), groups(b));
    for (la, ia) in &ga {
        for (lb, ib) in &gb {
            if la == lb {
                // Equal lattices: equal canonical offsets.
                let mut by_offset: BTreeMap<&Vector, Vec<usize>> = BTreeMap::new();
                for &i in ia {
                    by_offset.entry(a[i].coset().offset()).or_default().push(i);
                }
                for &j in ib {
                    for &i in by_offset.get(b[j].coset().offset()).into_iter().flatten() {
                        pairs.push((i, j));
                    }
                }
                continue;
            }
            let gens: Vec<Vector> = la.iter().chain(lb.iter()).cloned().collect();
            let sum = Lattice::generated_by(d, &gens);
            let residue = |s: &BasicSet| residue(s.coset().offset(), &sum);
            let mut by_residue: BTreeMap<Vector, Vec<usize>> = BTreeMap::new();
            for &i in ia {
                by_residue.entry(residue(&a[i])).or_default().push(i);
            }
            for &j in ib {
                for &i in by_residue.get(&residue(&b[j])).into_iter().flatten() {
                    pairs.push((i, j));
                }
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

/// The most linear sets a non-normal semigroup is split into before the conversion is refused.
const MAX_LINEAR: usize = 128;

/// Splits b + N{periods} into linear sets with independent periods (see the module docs).
fn independent_periods(
    b: Vector,
    periods: Vec<Vector>,
    out: &mut Vec<(Vector, Vec<Vector>)>,
) -> Result<(), AlgebraError> {
    let d = b.dim();
    // Integer relations among the periods: the kernel of the matrix with the periods as columns.
    let rows: Vec<Vector> = (0..d)
        .map(|i| Vector(periods.iter().map(|p| p.0[i].clone()).collect()))
        .collect();
    let relations = kernel_lattice(&rows, periods.len());
    if relations.is_empty() {
        out.push((b, periods));
        return Ok(());
    }
    if out.len() > MAX_LINEAR {
        return Err(AlgebraError::TooLarge(format!(
            "this non-normal semigroup splits into more than {MAX_LINEAR} linear sets to be joined into disjoint pieces"
        )));
    }
    // Choose the relation and sign with the fewest pieces Σ_{i∈I} α_i.
    let mut best: Option<(Integer, Vec<Integer>)> = None;
    for r in &relations {
        for sign in [1i64, -1] {
            let alpha: Vec<Integer> = r.0.iter().map(|x| x * &Integer::from(sign)).collect();
            if alpha.iter().all(|x| x.signum() >= 0) {
                // A nonnegative relation Σ α_i p_i = 0: the periods span a line.
                let line = periods
                    .iter()
                    .zip(&alpha)
                    .find(|(_, a)| a.signum() > 0)
                    .map(|(p, _)| p.clone())
                    .unwrap_or_default();
                return Err(AlgebraError::NotPointed { line });
            }
            let cost = alpha
                .iter()
                .filter(|x| x.signum() > 0)
                .fold(Integer::ZERO, |acc, x| &acc + x);
            if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                best = Some((cost, alpha));
            }
        }
    }
    let (_, alpha) = best.expect("a relation");
    for (i, a) in alpha.iter().enumerate() {
        if a.signum() <= 0 {
            continue;
        }
        let rest: Vec<Vector> = periods
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, p)| p.clone())
            .collect();
        let mut k = Integer::ZERO;
        while k < *a {
            independent_periods(b.add(&periods[i].scale(&k)), rest.clone(), out)?;
            k = &k + &Integer::ONE;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
