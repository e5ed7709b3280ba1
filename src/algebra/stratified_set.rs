//! Sets with affine stratifications, as exact values: finite unions of basic sets
//! {x ∈ c + L : Ax ≥ b} ([GM11] Definition 4.1; these are the semilinear sets), kept as a cover
//! (the sets need not be disjoint) and cut into disjoint pieces when those are asked for. The
//! class is closed under intersection, union, difference and complement ([GM11] Theorem 4.2), and
//! every operation here is exact, including emptiness and equality (with a witness point when
//! they fail).
//!
//! Conversions in: polyhedra and cones (their lattice points), finite sets, affine semigroups and
//! modules F + A, and declared stratifications (whose pieces are checked to be disjoint). A normal
//! semigroup is one basic set, R_+A ∩ ZA. A non-normal one N{a_1..a_n} is split into linear sets
//! b + N{independent periods}: while the periods P are dependent, an integer relation
//! Σ_{i∈I} α_i p_i = Σ_{j∈J} β_j p_j (disjoint supports, α, β > 0, both sides nonempty since A is
//! pointed) shows that a point with every n_i ≥ α_i (i ∈ I) can trade those for the p_j, so
//! b + NP = ⋃_{i∈I} ⋃_{0≤k<α_i} (b + k p_i + N(P ∖ p_i)) (Ginsburg–Spanier; Eilenberg–Schützenberger).
//!
//! Conversion out: each disjoint piece is decomposed into disjoint sets p + N{a} with independent
//! a, and those with the same generators are grouped into modules F + N{a}: a printed affine
//! stratification in the papers' notation, and the terms of the rational generating function.

use std::collections::BTreeMap;

use super::basic_set::{BasicSet, SimplicialPiece};
use super::coset::{residue, Coset, CosetSplit};
use super::lattice::{kernel_lattice, Lattice};
use super::polyhedral::{integer_inequalities, ConeData};
use super::{
    AffineModule, AffineSemigroup, AlgebraError, Integer, Matrix, Polyhedron, Stratification,
    Vector,
};

mod coalesce;
mod membership;
pub use membership::MembershipTest;

/// A finite union of nonempty basic sets in Z^d, with its disjoint pieces.
///
/// The set is kept as a *cover*: basic sets whose union it is, not necessarily disjoint, as isl
/// keeps its unions. `∪` joins covers, `∩` meets them pairwise and `∖` cuts each cover set by the
/// other's cover, so a union of many overlapping modules stays as small as its description.
/// Membership, emptiness, finiteness and box queries read the cover.
///
/// The disjoint pieces (for printing a stratification, generating functions and counts) are
/// computed once, when first asked for: C ∖ ⋃{C' : C' before C} for the cover sets C in
/// [`Priority`] order (higher dimension first, then denser lattice first, then the order of the
/// cover). A ray is cut by the cones it meets, never a cone by a ray, and a dense lattice is never
/// split into the cosets of a sparse one it contains.
#[derive(Clone, Debug)]
pub struct StratifiedSet {
    dim: usize,
    cover: Vec<BasicSet>,
    /// Whether the cover sets are already pairwise disjoint (then they are the pieces).
    cover_is_disjoint: bool,
    /// The disjoint pieces, once computed (only when the cover is not disjoint).
    pieces: std::sync::OnceLock<Vec<BasicSet>>,
}

/// Two values are equal when their covers are (the disjoint pieces are a function of the cover).
impl PartialEq for StratifiedSet {
    fn eq(&self, other: &StratifiedSet) -> bool {
        self.dim == other.dim
            && self.cover == other.cover
            && self.cover_is_disjoint == other.cover_is_disjoint
    }
}

impl Eq for StratifiedSet {}

impl std::hash::Hash for StratifiedSet {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.dim.hash(state);
        self.cover.hash(state);
        self.cover_is_disjoint.hash(state);
    }
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
    /// Nonempty basic sets, pairwise disjoint or not.
    fn from_cover(dim: usize, cover: Vec<BasicSet>, cover_is_disjoint: bool) -> StratifiedSet {
        StratifiedSet {
            dim,
            cover_is_disjoint: cover_is_disjoint || cover.len() < 2,
            cover,
            pieces: std::sync::OnceLock::new(),
        }
    }

    /// The empty subset of Z^d.
    pub fn empty(dim: usize) -> StratifiedSet {
        StratifiedSet::from_cover(dim, Vec::new(), true)
    }

    /// All of Z^d.
    pub fn whole(dim: usize) -> StratifiedSet {
        StratifiedSet::from_cover(dim, vec![BasicSet::whole(dim)], true)
    }

    /// One basic set (dropped when empty).
    pub fn from_basic(set: BasicSet) -> Result<StratifiedSet, AlgebraError> {
        let dim = set.dim();
        let cover = if set.is_empty()? {
            Vec::new()
        } else {
            vec![set]
        };
        Ok(StratifiedSet::from_cover(dim, cover, true))
    }

    /// Pieces known to be disjoint (empty ones are dropped, the others keep only the
    /// inequalities that cut out facets).
    pub(crate) fn from_disjoint(
        dim: usize,
        pieces: Vec<BasicSet>,
    ) -> Result<StratifiedSet, AlgebraError> {
        StratifiedSet::from_pruned(dim, pieces, true)
    }

    /// Basic sets (empty ones dropped, the others pruned to their facet inequalities).
    fn from_pruned(
        dim: usize,
        sets: Vec<BasicSet>,
        disjoint: bool,
    ) -> Result<StratifiedSet, AlgebraError> {
        let mut kept = Vec::with_capacity(sets.len());
        for p in sets {
            if crate::interrupt::requested() {
                return Err(AlgebraError::Interrupted);
            }
            if let Some(p) = p.pruned()? {
                kept.push(p);
            }
        }
        Ok(StratifiedSet::from_cover(dim, kept, disjoint))
    }

    /// A finite set of points of Z^d.
    pub fn from_points(dim: usize, points: &[Vector]) -> StratifiedSet {
        let mut pts = points.to_vec();
        pts.sort();
        pts.dedup();
        let cover = pts
            .into_iter()
            .map(|p| BasicSet::new(Coset::point(p), Vec::new()))
            .collect();
        StratifiedSet::from_cover(dim, cover, true)
    }

    /// Sets with pairwise disjoint points, as one.
    fn disjoint_union(dim: usize, parts: Vec<StratifiedSet>) -> StratifiedSet {
        let cover_is_disjoint = parts.iter().all(|p| p.cover_is_disjoint);
        let cover = parts.into_iter().flat_map(|p| p.cover).collect();
        StratifiedSet::from_cover(dim, cover, cover_is_disjoint)
    }

    /// Basic sets whose union is the set, not necessarily disjoint.
    pub fn cover(&self) -> &[BasicSet] {
        &self.cover
    }

    /// Whether the disjoint pieces are known without further work.
    pub fn pieces_known(&self) -> bool {
        self.cover_is_disjoint || self.pieces.get().is_some()
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
        let mut cover = Vec::with_capacity(linear.len());
        for (b, periods) in linear {
            cover.push(BasicSet::simplicial(&b, &periods));
        }
        Ok(StratifiedSet::from_cover(d, cover, false))
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
            let translates: Vec<StratifiedSet> = offsets.iter().map(|f| a.translate(f)).collect();
            parts.push(StratifiedSet::union_of_all(w.dim(), &translates)?);
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

    /// The union of modules known to be pairwise disjoint (a stratification's pieces, or modules
    /// built so), with no pair tested.
    pub fn from_disjoint_modules(
        dim: usize,
        modules: &[AffineModule],
    ) -> Result<StratifiedSet, AlgebraError> {
        let sets = modules
            .iter()
            .map(StratifiedSet::from_module)
            .collect::<Result<_, _>>()?;
        Ok(StratifiedSet::disjoint_union(dim, sets))
    }

    /// [`StratifiedSet::from_stratification`] when some pieces are already known to be pairwise
    /// disjoint: pieces W_i, W_j with `groups[i] == groups[j]` are not tested against each other
    /// (a chain W ⊎ V ⊎ U ... then tests each new piece only against the earlier ones).
    pub fn from_stratification_grouped(
        s: &Stratification,
        groups: &[usize],
    ) -> Result<Result<StratifiedSet, Overlap>, AlgebraError> {
        assert_eq!(groups.len(), s.pieces().len(), "one group per piece");
        // One group: nothing to test (and the pairs of a large cover cost seconds to list).
        if groups.windows(2).all(|g| g[0] == g[1]) {
            return StratifiedSet::from_disjoint_modules(s.dim(), s.pieces()).map(Ok);
        }
        let sets: Vec<StratifiedSet> = s
            .pieces()
            .iter()
            .map(StratifiedSet::from_module)
            .collect::<Result<_, _>>()?;
        // Only pieces whose cosets meet can overlap: test those pairs, in the order (j, i).
        let owners: Vec<usize> = sets
            .iter()
            .enumerate()
            .flat_map(|(k, s)| std::iter::repeat_n(k, s.cover.len()))
            .collect();
        let all: Vec<BasicSet> = sets.iter().flat_map(|s| s.cover.iter().cloned()).collect();
        let mut candidates: Vec<(usize, usize, usize, usize)> = coset_meeting_pairs(&all, &all)?
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

    /// Whether the cover's basic sets are known to be pairwise disjoint (so that they are the
    /// set's pieces without cutting).
    pub fn cover_is_disjoint(&self) -> bool {
        self.cover_is_disjoint
    }

    /// The disjoint basic sets (computed from the cover the first time they are asked for; see
    /// the type's documentation).
    pub fn pieces(&self) -> Result<&[BasicSet], AlgebraError> {
        self.pieces_reporting(&|_, _| {})
    }

    /// [`StratifiedSet::pieces`], calling `report(done, all)` as cover sets are cut (from the
    /// worker threads).
    pub fn pieces_reporting(
        &self,
        report: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<&[BasicSet], AlgebraError> {
        match self.pieces_within(usize::MAX, report)? {
            Some(pieces) => Ok(pieces),
            None => Err(AlgebraError::TooLarge(
                "the disjoint pieces of the set".to_string(),
            )),
        }
    }

    /// [`StratifiedSet::pieces_reporting`] when there are at most `max` pieces (and no cover
    /// set is cut into more than `max` fragments on the way); `None`, keeping nothing, when
    /// there would be more. Which of the two it is does not depend on the threads' timing.
    pub fn pieces_within(
        &self,
        max: usize,
        report: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Option<&[BasicSet]>, AlgebraError> {
        if self.cover_is_disjoint {
            return Ok(Some(&self.cover));
        }
        if let Some(p) = self.pieces.get() {
            return Ok(Some(p));
        }
        let order = self.priority_ranks();
        let parts = match cut_within(
            &self.cover,
            &self.cover,
            |i, j| order[j] < order[i],
            max,
            report,
        ) {
            Err(AlgebraError::TooLarge(_)) if max != usize::MAX => return Ok(None),
            parts => parts?,
        };
        let pieces: Vec<BasicSet> = parts.into_iter().flatten().collect();
        Ok(Some(self.pieces.get_or_init(|| pieces)))
    }

    /// The rank of each cover set in the order in which the sets claim their points: by
    /// [`Priority`], greatest first, ties in the cover's order.
    fn priority_ranks(&self) -> Vec<usize> {
        let priorities: Vec<Priority> = self.cover.iter().map(Priority::of).collect();
        let mut order: Vec<usize> = (0..self.cover.len()).collect();
        order.sort_by(|&a, &b| priorities[b].cmp(&priorities[a]).then(a.cmp(&b)));
        let mut rank = vec![0; order.len()];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        rank
    }

    /// Whether x lies in the set.
    pub fn contains(&self, x: &Vector) -> bool {
        self.cover.iter().any(|p| p.contains(x))
    }

    /// Some point of the set, or `None` when it is empty.
    pub fn find_point(&self) -> Result<Option<Vector>, AlgebraError> {
        match self.cover.first() {
            Some(p) => p.find_point(),
            None => Ok(None),
        }
    }

    /// Whether the set is finite (every basic set bounded).
    pub fn is_finite(&self) -> Result<bool, AlgebraError> {
        for p in &self.cover {
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
        for p in self.pieces()? {
            if crate::interrupt::requested() {
                return Err(AlgebraError::Interrupted);
            }
            total += p.count_points()?;
        }
        Ok(Some(total))
    }

    /// Whether the set is empty (cover sets are kept nonempty, so this is immediate).
    pub fn is_empty(&self) -> bool {
        self.cover.is_empty()
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

    /// S ∩ T: the cover sets met pairwise (only the pairs whose cosets meet), disjoint when both
    /// covers are.
    pub fn intersect(&self, other: &StratifiedSet) -> Result<StratifiedSet, AlgebraError> {
        self.check_dim(other, "the second set of an intersection")?;
        let mut meets = Vec::new();
        for (i, j) in coset_meeting_pairs(&self.cover, &other.cover)? {
            if crate::interrupt::requested() {
                return Err(AlgebraError::Interrupted);
            }
            let (a, b) = (&self.cover[i], &other.cover[j]);
            if a.visibly_disjoint(b) {
                continue;
            }
            if let Some(m) = a.intersect(b) {
                meets.push(m);
            }
        }
        let disjoint = self.cover_is_disjoint && other.cover_is_disjoint;
        StratifiedSet::from_pruned(self.dim, meets, disjoint)
    }

    /// S ∖ T: each cover set of S cut down by the cover sets of T whose cosets meet it, in
    /// parallel (see [`cut`]); disjoint when the cover of S is.
    pub fn difference(&self, other: &StratifiedSet) -> Result<StratifiedSet, AlgebraError> {
        self.check_dim(other, "the second set of a difference")?;
        self.difference_of_all(std::slice::from_ref(other))
    }

    /// [`StratifiedSet::difference`], refused as `TooLarge` once it would take more than `max`
    /// basic sets, in the end or on the way (for a caller with another way to the same set, to
    /// take the smaller).
    pub fn difference_within(
        &self,
        other: &StratifiedSet,
        max: usize,
    ) -> Result<StratifiedSet, AlgebraError> {
        self.check_dim(other, "the second set of a difference")?;
        let parts = cut_within(&self.cover, &other.cover, |_, _| true, max, &|_, _| {})?;
        Ok(StratifiedSet::from_cover(
            self.dim,
            parts.into_iter().flatten().collect(),
            self.cover_is_disjoint,
        ))
    }

    /// S ∖ (T_1 ∪ ... ∪ T_n): each cover set of S cut by the covers of all T_i at once.
    pub fn difference_of_all(
        &self,
        others: &[StratifiedSet],
    ) -> Result<StratifiedSet, AlgebraError> {
        for t in others {
            self.check_dim(t, "a set subtracted")?;
        }
        let cutters: Vec<BasicSet> = others
            .iter()
            .flat_map(|t| t.cover.iter().cloned())
            .collect();
        let parts = cut(&self.cover, &cutters, |_, _| true)?;
        Ok(StratifiedSet::from_cover(
            self.dim,
            parts.into_iter().flatten().collect(),
            self.cover_is_disjoint,
        ))
    }

    /// S ∪ T: the covers joined (see [`StratifiedSet::union_of_all`]).
    pub fn union(&self, other: &StratifiedSet) -> Result<StratifiedSet, AlgebraError> {
        self.check_dim(other, "the second set of a union")?;
        StratifiedSet::union_of_all(self.dim, &[self.clone(), other.clone()])
    }

    /// S_1 ∪ ... ∪ S_n in Z^d: the covers joined, coalesced as isl coalesces a union's basic
    /// sets by its first rule: a set of one cover contained in a set of another is dropped
    /// (repeated sets are kept once).
    pub fn union_of_all(dim: usize, sets: &[StratifiedSet]) -> Result<StratifiedSet, AlgebraError> {
        let mut seen = std::collections::HashSet::new();
        let mut cover = Vec::new();
        let mut operand = Vec::new();
        for (k, s) in sets.iter().enumerate() {
            for b in &s.cover {
                if seen.insert(b) {
                    cover.push(b.clone());
                    operand.push(k);
                }
            }
        }
        let mut dropped = vec![false; cover.len()];
        for (i, j) in coset_meeting_pairs(&cover, &cover)? {
            if crate::interrupt::requested() {
                return Err(AlgebraError::Interrupted);
            }
            if operand[i] != operand[j]
                && !dropped[i]
                && !dropped[j]
                && !cover[i].visibly_disjoint(&cover[j])
                && cover[i].is_subset_of(&cover[j])?
            {
                dropped[i] = true;
            }
        }
        let mut kept = Vec::with_capacity(cover.len());
        let mut from = std::collections::BTreeSet::new();
        for ((b, gone), k) in cover.into_iter().zip(dropped).zip(operand) {
            if !gone {
                kept.push(b);
                from.insert(k);
            }
        }
        let disjoint = match from.iter().collect::<Vec<_>>()[..] {
            [] => true,
            [&k] => sets[k].cover_is_disjoint,
            _ => false,
        };
        Ok(StratifiedSet::from_cover(dim, kept, disjoint))
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
        if let Some(p) = self.point_outside(other)? {
            return Ok(Some(p));
        }
        other.point_outside(self)
    }

    /// A point of S ∖ T, or `None` when S ⊆ T, without building S ∖ T: each cover set of S is
    /// dropped when it lies in one cover set of T, and otherwise cut by T's cover sets (those
    /// whose cosets meet it) depth first, stopping at the first fragment that is left over. Two
    /// sets that share most of their cover (a union and the same union with one more point)
    /// are compared without cutting anything.
    pub fn point_outside(&self, other: &StratifiedSet) -> Result<Option<Vector>, AlgebraError> {
        if self.dim != other.dim {
            return self.find_point();
        }
        let mut cutters: Vec<Vec<&BasicSet>> = vec![Vec::new(); self.cover.len()];
        for (i, j) in coset_meeting_pairs(&self.cover, &other.cover)? {
            cutters[i].push(&other.cover[j]);
        }
        for (a, ts) in self.cover.iter().zip(&cutters) {
            if let Some(p) = uncovered_point(a, ts)? {
                return Ok(Some(p));
            }
        }
        Ok(None)
    }

    /// Whether S = T.
    pub fn set_eq(&self, other: &StratifiedSet) -> Result<bool, AlgebraError> {
        Ok(self.dim == other.dim && self.difference_witness(other)?.is_none())
    }

    /// S + p.
    pub fn translate(&self, p: &Vector) -> StratifiedSet {
        let out = StratifiedSet::from_cover(
            self.dim,
            self.cover.iter().map(|b| b.translate(p)).collect(),
            self.cover_is_disjoint,
        );
        if let Some(pieces) = self.pieces.get() {
            let _ = out
                .pieces
                .set(pieces.iter().map(|b| b.translate(p)).collect());
        }
        out
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
        if lo.iter().zip(hi).any(|(l, h)| l > h) || self.cover.is_empty() {
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
        let meeting = if count > 8 * self.cover.len() as u64 {
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
            for p in &self.cover {
                if !p.with(walls.iter().cloned()).is_empty()? {
                    kept.push(p.clone());
                }
            }
            StratifiedSet::from_cover(self.dim, kept, self.cover_is_disjoint)
        } else {
            self.clone()
        };
        let mut out = Vec::new();
        if meeting.cover.is_empty() {
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
        for p in self.pieces()? {
            if crate::interrupt::requested() {
                return Err(AlgebraError::Interrupted);
            }
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
        if crate::interrupt::requested() {
            return Err(AlgebraError::Interrupted);
        }
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

/// A point of A outside the union of the sets `ts`, or `None` when they cover A: A is covered
/// when it lies in one of them; otherwise A ∖ T_1 is cut into fragments, and each is looked at
/// the same way against T_2, T_3, ... (depth first, so a point left over is found before the
/// other fragments are cut).
fn uncovered_point(a: &BasicSet, ts: &[&BasicSet]) -> Result<Option<Vector>, AlgebraError> {
    if crate::interrupt::requested() {
        return Err(AlgebraError::Interrupted);
    }
    // A set visibly apart from A covers none of it (nor of its fragments).
    let ts: Vec<&BasicSet> = ts
        .iter()
        .copied()
        .filter(|t| !a.visibly_disjoint(t))
        .collect();
    for t in &ts {
        if a.is_subset_of(t)? {
            return Ok(None);
        }
    }
    let Some((t, rest)) = ts.split_first() else {
        return a.find_point();
    };
    for fragment in a.difference(t)? {
        if let Some(p) = uncovered_point(&fragment, rest)? {
            return Ok(Some(p));
        }
    }
    Ok(None)
}

/// Each set A_i cut down by the basic sets T_j (not necessarily disjoint) with `cuts(i, j)` whose
/// cosets meet it: A_i ∖ ⋃ T_j as disjoint pieces, one list per set. The sets are independent and
/// run in parallel (the time limit and cancel tokens of the calling thread hold in the workers).
fn cut(
    sets: &[BasicSet],
    cutters_sets: &[BasicSet],
    cuts: impl Fn(usize, usize) -> bool,
) -> Result<Vec<Vec<BasicSet>>, AlgebraError> {
    cut_within(sets, cutters_sets, cuts, usize::MAX, &|_, _| {})
}

/// [`cut`], calling `report(done, all)` after each set, refused as `TooLarge` once the pieces
/// would number more than `max` (or one set's fragments do on the way).
fn cut_within(
    sets: &[BasicSet],
    cutters_sets: &[BasicSet],
    cuts: impl Fn(usize, usize) -> bool,
    max: usize,
    report: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<Vec<BasicSet>>, AlgebraError> {
    use rayon::prelude::*;
    use std::sync::atomic::Ordering;
    let done = std::sync::atomic::AtomicUsize::new(0);
    let total = std::sync::atomic::AtomicUsize::new(0);
    let too_many = || AlgebraError::TooLarge(format!("more than {max} disjoint pieces"));
    let mut cutters: Vec<Vec<usize>> = vec![Vec::new(); sets.len()];
    for (i, j) in coset_meeting_pairs(sets, cutters_sets)? {
        if cuts(i, j) {
            cutters[i].push(j);
        }
    }
    let inherited = crate::interrupt::inherited();
    let cut_one = |(a, js): (&BasicSet, &Vec<usize>)| -> Result<Vec<BasicSet>, AlgebraError> {
        crate::interrupt::with_inherited(&inherited, || {
            // Most cutters whose cosets meet A's miss A itself, and visibly so (a bound of one
            // against a bound of the other): they are passed over before anything is computed
            // for them, as an emptiness test for each fragment of A would pass them over.
            let js: Vec<usize> = js
                .iter()
                .copied()
                .filter(|&j| !a.visibly_disjoint(&cutters_sets[j]))
                .collect();
            // How A's coset splits by each cutter's: most fragments of A keep A's coset, and
            // are cut by the same split.
            let mut meets: Vec<Option<Coset>> = Vec::with_capacity(js.len());
            // A set inside one of its cutters is gone without cutting it by the others first.
            for &j in &js {
                let meet = a.coset().intersect(cutters_sets[j].coset());
                if a.is_subset_meeting(&cutters_sets[j], meet.as_ref())? {
                    let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                    report(finished, sets.len());
                    return Ok(Vec::new());
                }
                meets.push(meet);
            }
            let mut rest = vec![a.clone()];
            for (&j, meet) in js.iter().zip(meets) {
                let cutter = &cutters_sets[j];
                if crate::interrupt::requested() {
                    return Err(AlgebraError::Interrupted);
                }
                let mut split: Option<CosetSplit> = None;
                let mut next = Vec::with_capacity(rest.len());
                // A cutter of one point cuts only the fragment holding it: the others are kept
                // after a membership test, not an emptiness test each (a layered guess's
                // hundreds of missing points cut its thousand pieces in seconds so).
                let point = cutter.single_point();
                for p in std::mem::take(&mut rest) {
                    let missed = match point {
                        Some(x) => !p.contains(x),
                        None => p.visibly_disjoint(cutter),
                    };
                    if missed {
                        next.push(p);
                        continue;
                    }
                    next.extend(if p.coset() == a.coset() {
                        let split = split.get_or_insert_with(|| a.coset().split_at(meet.clone()));
                        p.difference_split(cutter, split)?
                    } else {
                        p.difference(cutter)?
                    });
                }
                rest = next;
                if rest.len() > max {
                    return Err(too_many());
                }
                crate::memory::check_doubling(rest.len(), a.footprint(), || {
                    format!("cutting a set into disjoint pieces, past {},", rest.len())
                })?;
                if rest.is_empty() {
                    break;
                }
            }
            let before = total.fetch_add(rest.len(), Ordering::Relaxed);
            let after = before + rest.len();
            if after > max {
                return Err(too_many());
            }
            // Each time the pieces pass a power of two (from 4096), the budget is asked for
            // twice as many, sized like these.
            if after >= 1 << 12 && after.ilog2() > before.max(1).ilog2() {
                let each = rest.first().map_or(a.footprint(), BasicSet::footprint);
                crate::memory::check(2 * after as u64 * each, || {
                    format!("the disjoint pieces of the set, past {after},")
                })?;
            }
            let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
            report(finished, sets.len());
            Ok(rest)
        })
    };
    if cutters.iter().filter(|js| !js.is_empty()).count() > 1 {
        sets.par_iter()
            .zip(cutters.par_iter())
            .map(cut_one)
            .collect()
    } else {
        sets.iter().zip(cutters.iter()).map(cut_one).collect()
    }
}

/// The pairs (i, j) of pieces a[i], b[j] whose cosets meet, sorted: a cheap certificate that
/// every other pair is disjoint. Pieces are grouped by lattice (Hermite bases are canonical); for
/// each pair of lattices L, L', the cosets c + L and c' + L' meet exactly when c ≡ c' modulo
/// L + L', so the offsets are bucketed by their residue modulo L + L' (one Hermite form per pair of
/// lattices, one reduction per piece). Stops on an interrupt.
pub(crate) fn coset_meeting_pairs(
    a: &[BasicSet],
    b: &[BasicSet],
) -> Result<Vec<(usize, usize)>, AlgebraError> {
    fn groups(sets: &[BasicSet]) -> BTreeMap<&[Vector], Vec<usize>> {
        let mut out: BTreeMap<&[Vector], Vec<usize>> = BTreeMap::new();
        for (i, s) in sets.iter().enumerate() {
            out.entry(s.coset().basis()).or_default().push(i);
        }
        out
    }
    let mut pairs = Vec::new();
    let Some(d) = a.first().or(b.first()).map(BasicSet::dim) else {
        return Ok(pairs);
    };
    let (ga, gb) = (groups(a), groups(b));
    for (la, ia) in &ga {
        for (lb, ib) in &gb {
            if crate::interrupt::requested() {
                return Err(AlgebraError::Interrupted);
            }
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
    Ok(pairs)
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
