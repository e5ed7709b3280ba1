//! A guess of `stratify` for P-positions that follow a periodic pattern (x mod m, with moduli
//! m = (m_1, ..., m_d)) which changes across a family of parallel hyperplanes h·x = c, and is the
//! same on every layer below some c = lo and on every layer above some c = hi:
//! P = ⋃ {x ∈ N^d : h·x in a range, x ≡ r mod m} up to a finite set of exceptions near the origin.
//! Each piece is the lattice points of a polyhedron in a coset of a lattice L ⊇ mZ^d (see
//! [`super::classes`]), an affine stratification by [GM11] Theorem 4.2's argument, and the
//! exceptions are added or cut off as points.
//!
//! Random games in generalized misère play often look like this modulo 2: every move changes
//! some parity w·x by an odd amount, so P is locally a parity class, and which class it is flips
//! across a slanted hyperplane (through the defeated positions' influence). In misère play of
//! rule sets with larger steps the period itself changes across the hyperplane (period 3 along an
//! axis on one side, 8 on the other): the moduli are then the lcm, read off the region; where the
//! pattern repeats along vectors that are no multiples of the axes (along (4, 1) and (0, 9)), x is
//! taken modulo the lattice of the periods instead (see [`super::classes`]). The axis
//! periods cannot describe either (a line's preperiod grows with its distance from the flip), and
//! covers by small cones need many pieces per class.
//!
//! Where the pattern changes across hyperplanes of two directions (a staircase of one slope
//! within the part of N^d beyond a plane of another, as in misère play of random rule sets that
//! are not squarefree), no normal's layers fit. The guess then cuts N^d along a hyperplane
//! h·x = t, leaving on one side layers of h that fit, and fits the other side alike, cutting it
//! again if need be (at most [`MAX_CUTS`] deep); the layers next to a cut are faces, fitted on
//! their own as those of N^d are. Every side is the lattice points of a rational polyhedron, so
//! the pieces stay basic sets. Cuts are tried in d = 2, and in d = 3 on regions of at most
//! [`MAX_CUT_POSITIONS`] positions ([`cuts_tried`]); past that, trees of cuts ([`tree`]) take
//! their place.
//!
//! Where three patterns meet along a line, no side of any boundary holds one pattern; a cut
//! through the line (a fan's, in [`cut`]) leaves on each side two patterns across one boundary,
//! the layers of another normal, chosen among the normals the region's periods suggest.

use std::collections::hash_map::Entry;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};

use super::boundaries::line_boundaries;
use super::classes::{
    lattices_around, state, suggested_moduli, suggested_periods, Moduli, Pattern, UNSEEN,
};
use super::region::{every_nth, WeightRegion};
use cut::fit_cut;
use domain::{level, CutFace, Domain};
use rule::{LayerRule, Rule};

mod cut;
mod domain;
mod rule;
mod tree;
use crate::algebra::basic_set::BasicSet;
use crate::algebra::coset::Coset;
use crate::algebra::{AlgebraError, StratifiedSet, Vector};
pub(super) use domain::gcd;
pub(super) use tree::{tree_guess, MAX_CELLS as TREE_CELLS};

/// The guess: the moduli, the normal h, the layer range [lo, hi] with its own patterns, and the
/// rule deciding each position, with the P-positions it gets wrong on the region (all lighter
/// than half the region) as exceptions. Membership is decided by the rule directly (a lookup per
/// position), so a wrong guess is refuted before its set is built.
pub(super) struct Layered {
    pub(super) moduli: Moduli,
    pub(super) normal: Vec<i64>,
    pub(super) lo: i64,
    pub(super) hi: i64,
    /// The cuts taken, as "h·x = t" (a tree's as "h·x ≤ t"), outermost first.
    pub(super) cuts: Vec<String>,
    /// The cells, for a tree of cuts ([`tree_guess`]).
    cells: Option<usize>,
    /// How many lattices a tree's cells each took theirs from (1: every cell's is `moduli`).
    cell_lattices: usize,
    rule: Rule,
    /// Positions in P outside the pieces, and positions outside P inside them.
    extra: FxHashSet<Vec<i64>>,
    missing: FxHashSet<Vec<i64>>,
    /// The basic sets the pieces make.
    pieces: usize,
}

/// The most sampled positions each candidate normal is tested on.
const SAMPLE: usize = 30_000;

/// The most positions a candidate normal is first tested on.
const QUICK_SAMPLE: usize = 3_000;

/// The most layers with their own pattern between lo and hi.
const MAX_LAYERS: i64 = 48;

/// The most exceptions taken as points.
const MAX_EXCEPTIONS: usize = 4096;

/// h·x written out, as "x_1 − 2x_3".
pub(super) fn hyperplane(h: &[i64]) -> String {
    let mut out = String::new();
    for (i, &a) in h.iter().enumerate().filter(|(_, &a)| a != 0) {
        let sign = if a < 0 { "−" } else { "+" };
        if out.is_empty() {
            if a < 0 {
                out.push('−');
            }
        } else {
            out.push_str(&format!(" {sign} "));
        }
        if a.abs() != 1 {
            out.push_str(&a.abs().to_string());
        }
        out.push_str(&format!("x_{}", i + 1));
    }
    out
}

/// The classes each layer shows, in order of the layer: (layer, [(class, in P)]).
type Layers = Vec<(i64, Vec<(u32, bool)>)>;

/// The classes each layer shows, gathered position by position; None at the end when some layer
/// saw a class both ways.
#[derive(Default)]
struct LayerBuilder {
    seen: FxHashMap<(i64, u32), bool>,
    clash: bool,
}

impl LayerBuilder {
    /// Records that the class on the layer is (or is not) in P; false once some layer saw a class
    /// both ways.
    fn add(&mut self, layer: i64, class: u32, p: bool) -> bool {
        if self.clash {
            return false;
        }
        match self.seen.entry((layer, class)) {
            Entry::Occupied(e) => self.clash = *e.get() != p,
            Entry::Vacant(e) => {
                e.insert(p);
            }
        }
        !self.clash
    }

    fn finish(self) -> Option<Layers> {
        if self.clash {
            return None;
        }
        let mut entries: Vec<((i64, u32), bool)> = self.seen.into_iter().collect();
        entries.sort_unstable_by_key(|&(key, _)| key);
        let mut layers: Layers = Vec::new();
        for ((c, class), p) in entries {
            match layers.last_mut() {
                Some((last, classes)) if *last == c => classes.push((class, p)),
                _ => layers.push((c, vec![(class, p)])),
            }
        }
        Some(layers)
    }
}

/// The layer patterns of the positions of a sample (flat, d per point, with their classes and
/// outcomes) under the normal h, or None when some layer sees a class both ways.
fn layer_patterns(h: &[i64], (points, classes, outcomes): &ClassedSample) -> Option<Layers> {
    // Sized for the whole sample at once: growing the table cost a tenth of a 4-D round.
    let mut builder = LayerBuilder {
        seen: FxHashMap::with_capacity_and_hasher(outcomes.len(), Default::default()),
        clash: false,
    };
    for ((x, &class), &p) in points.chunks_exact(h.len()).zip(classes).zip(outcomes) {
        if !builder.add(level(h, x), class, p) {
            return None;
        }
    }
    builder.finish()
}

/// Adds a layer to a pattern; false (the pattern unchanged) when they disagree on a class.
fn merge(pattern: &mut [u8], layer: &[(u32, bool)]) -> bool {
    let clash = layer.iter().any(|&(class, p)| {
        let s = pattern[class as usize];
        s != UNSEEN && s != state(p)
    });
    if !clash {
        for &(class, p) in layer {
            pattern[class as usize] = state(p);
        }
    }
    !clash
}

/// The largest lo such that every layer ≤ lo is compatible with every other (one pattern below),
/// the least such hi above, and those two patterns.
fn ends(layers: &Layers, classes: usize) -> Option<(i64, Pattern, i64, Pattern)> {
    let (first, _) = layers.first()?;
    let (last, _) = layers.last()?;
    let mut low = vec![UNSEEN; classes];
    let mut lo = *first;
    for (c, layer) in layers {
        if !merge(&mut low, layer) {
            break;
        }
        lo = *c;
    }
    let mut high = vec![UNSEEN; classes];
    let mut hi = *last;
    for (c, layer) in layers.iter().rev() {
        if !merge(&mut high, layer) {
            break;
        }
        hi = *c;
    }
    Some((lo, low, hi, high))
}

/// How many layers have their own pattern between the two ends under the normal h, on the
/// points; None when a layer sees a class both ways.
fn layers_between(h: &[i64], moduli: &Moduli, sample: &ClassedSample) -> Option<i64> {
    let layers = layer_patterns(h, sample)?;
    let (lo, _, hi, _) = ends(&layers, moduli.count())?;
    Some((hi - lo - 1).max(0))
}

/// A lower bound for [`layers_between`] on any superset of the points; None when a layer sees a
/// class both ways (so on every superset too). If the layers up to b are incompatible here, they
/// are on a superset, whose lo is then below b; likewise its hi is above the first layer t that
/// breaks from the top, so at least t − b + 1 layers lie strictly between.
fn layers_between_at_least(h: &[i64], moduli: &Moduli, sample: &ClassedSample) -> Option<i64> {
    let layers = layer_patterns(h, sample)?;
    let classes = moduli.count();
    let (Some(b), Some(t)) = (
        breaking(layers.iter(), classes),
        breaking(layers.iter().rev(), classes),
    ) else {
        return Some(0);
    };
    Some((t - b + 1).max(0))
}

/// The first layer, in the given order, that disagrees with the ones before it on some class.
fn breaking<'a>(
    mut order: impl Iterator<Item = &'a (i64, Vec<(u32, bool)>)>,
    classes: usize,
) -> Option<i64> {
    let mut merged = vec![UNSEEN; classes];
    order
        .find(|(_, layer)| !merge(&mut merged, layer))
        .map(|(c, _)| *c)
}

/// What a fit found: its rule, the exceptions (positions in P it leaves out, and positions outside
/// P it takes in), the basic sets its pieces make, the normal and layer range of its interior,
/// and the cuts it took (described).
struct Fit {
    rule: Rule,
    extra: Vec<Vec<i64>>,
    missing: Vec<Vec<i64>>,
    pieces: usize,
    normal: Option<Vec<i64>>,
    lo: i64,
    hi: i64,
    cuts: Vec<String>,
}

impl Fit {
    fn of(rule: Rule) -> Fit {
        Fit {
            rule,
            extra: Vec::new(),
            missing: Vec::new(),
            pieces: 0,
            normal: None,
            lo: 0,
            hi: 0,
            cuts: Vec::new(),
        }
    }

    /// Takes in a sub-fit's exceptions, pieces and cuts.
    fn absorb(&mut self, sub: Fit) -> Rule {
        self.pieces += sub.pieces;
        self.extra.extend(sub.extra);
        self.missing.extend(sub.missing);
        self.cuts.extend(sub.cuts);
        sub.rule
    }
}

/// The thresholds tried for the faces: below it a coordinate is pinned, value by value.
const THRESHOLDS: [i64; 5] = [0, 2, 4, 8, 12];

/// The most basic sets a layered guess may have.
const MAX_PIECES: usize = 4096;

/// The most domains (the interior and the faces, for each threshold tried) a guess may fit.
const MAX_FITS: usize = 400;

/// The most cuts on the way from N^d to a domain.
pub(super) const MAX_CUTS: usize = 2;

/// The most classes of moduli a guess with cuts is tried with: with more, each side's layers see
/// too few positions of each class to tell where the pattern mixes.
const MAX_CUT_CLASSES: usize = 1024;

/// The most domains a guess with cuts may fit (each cut's choice and both its sides count).
const MAX_CUT_FITS: usize = 200;

/// The longest a guess with cuts may search: the ones certified took well under a second, and
/// a search that fails costs its whole budget, round after round.
pub(super) const CUT_TIME: Duration = Duration::from_secs(2);

/// What a guess may still spend.
struct Budget {
    pieces: usize,
    fits: usize,
    /// When a guess with cuts gives up.
    until: Option<Instant>,
    /// The normals of the boundaries the region's periods show, tried by every fit after its
    /// candidates.
    normals: Vec<Vec<i64>>,
}

impl Budget {
    /// Takes one fit; false when none is left (or the time is up).
    fn take_fit(&mut self) -> bool {
        if self.fits == 0 || self.until.is_some_and(|t| Instant::now() >= t) {
            return false;
        }
        self.fits -= 1;
        true
    }
}

/// Whether a guess with cuts is tried on the region modulo `moduli`: with at most
/// [`MAX_CUT_CLASSES`] classes, in d = 2, and in d = 3 on at most [`MAX_CUT_POSITIONS`]
/// positions. In d = 4 one such guess cost 3–4 s at weight 64 on sweeps of random rule sets and
/// certified nothing the other guesses missed (seeds 31337, 2718, 4242).
pub(super) fn cuts_tried(region: &WeightRegion, moduli: &Moduli) -> bool {
    let d = region.dim();
    moduli.count() <= MAX_CUT_CLASSES && (d <= 2 || (d == 3 && region.len() <= MAX_CUT_POSITIONS))
}

/// The most positions of a 3-D region a guess with cuts is tried on. The 3-D games of sweeps of
/// random rule sets profiled with a guess with cuts as their answer (seed 2718 item 15, seed
/// 31337 items 17, 32 and 83; without cuts in d = 3, 2718/15 and 31337/32 were lost) were found
/// on regions of 82,000 to 310,000 positions, in 0.2–1.2 s; past that, trees of cuts find what
/// they find, and the two guesses with cuts of a round cost 1.5–4 s for nothing. Item 48 of a
/// generalized misère sweep, seed 7777 (Γ = {(−2, 0, 1), (−1, −2, 1), e_2, e_1}), spent 7 of its
/// 15 s on them at weights 224 to 766 (490,000 to 19 million positions) before a tree was
/// certified.
const MAX_CUT_POSITIONS: u64 = 400_000;

/// What the layered guess tries on a region (see [`moduli_to_try`]).
pub(super) struct ToTry {
    /// The moduli of the guesses of one normal, in order.
    pub(super) moduli: Vec<Moduli>,
    /// The lattice of periods the region suggests, when it is not mZ^d: the guess with cuts
    /// tries it even where it contains moduli tried already (the lattice ⟨(2, 3, 3), (0, 12, 0),
    /// (0, 0, 12)⟩ has 288 classes, the moduli (8, 12, 12) it contains 1,152, past what a guess
    /// with cuts takes).
    pub(super) lattice: Option<Moduli>,
    /// The normals of the boundaries the region's periods show.
    pub(super) normals: Vec<Vec<i64>>,
    /// The normals of the boundaries where its lines turn periodic ([`super::boundaries`]), not
    /// among those: candidates of the trees of cuts only (each fit of layers or of a fan per
    /// normal cost a guess with cuts seconds on a random-rules game it found before).
    pub(super) line_normals: Vec<Vec<i64>>,
    /// The lattice of the sides of one boundary past a zone along it ([`super::classes::Periods`]).
    pub(super) deeper: Option<Moduli>,
    /// The lattices the parts of the region show ([`super::classes::Periods::parts`]), then
    /// those of the patterns its lines pass through ([`super::boundaries`]) not among them.
    pub(super) parts: Vec<Moduli>,
    /// How many of `parts` only the lines showed.
    pub(super) parts_from_lines: usize,
}

/// The moduli the layered guess tries on a region, in order: 2 on every axis, then the moduli
/// the region suggests ([`suggested_moduli`]) when they differ, then the lattice of periods it
/// suggests when that is not mZ^d and contains neither; and the normals of the boundaries its
/// periods show, which every fit tries after its candidates ([`suggested_periods`], which tries
/// the `further` vectors as periods too). In d = 5 only 2 on every axis: there each fit of
/// other moduli, and a tree of cuts, cost a second a round on [GM09] Example 8.12, and they
/// found no game more than the parity alone (on 20 games of generalized misère play in d = 5,
/// seed 4242, 15 either way where no guess of this kind found 7; a tree, none of the 15 of 50
/// that the parity leaves, seed 6061); none past d = 5.
pub(super) fn moduli_to_try(region: &WeightRegion, further: &[Vec<i64>]) -> ToTry {
    let d = region.dim();
    let nothing = || ToTry {
        moduli: Vec::new(),
        lattice: None,
        normals: Vec::new(),
        line_normals: Vec::new(),
        deeper: None,
        parts: Vec::new(),
        parts_from_lines: 0,
    };
    if d > 5 {
        return nothing();
    }
    let Some(two) = Moduli::new(vec![2; d]) else {
        return nothing();
    };
    if d == 5 {
        return ToTry {
            moduli: vec![two],
            ..nothing()
        };
    }
    let mut moduli = vec![two];
    if let Some(m) = suggested_moduli(region) {
        if m != moduli[0] {
            moduli.push(m);
        }
    }
    let periods = suggested_periods(region, further).unwrap_or_default();
    // A lattice containing mZ^d for moduli m tried already adds nothing to the guesses of one
    // normal: its patterns are patterns modulo m.
    if let Some(l) = &periods.lattice {
        if !moduli.iter().any(|m| l.contains_lattice_of(m)) {
            moduli.push(l.clone());
        }
    }
    // Boundaries and patterns the lines of the region show, which the periods may miss.
    let mut line_normals = Vec::new();
    let mut parts = periods.parts;
    let mut parts_from_lines = 0;
    if let Some(lines) = line_boundaries(region) {
        line_normals = lines
            .normals
            .into_iter()
            .filter(|h| !periods.normals.contains(h))
            .collect();
        if let Some(more) = lattices_around(region, &lines.centers, &parts) {
            parts_from_lines = more.len();
            parts.extend(more);
        }
    }
    ToTry {
        moduli,
        lattice: periods.lattice,
        normals: periods.normals,
        line_normals,
        deeper: periods.deeper,
        parts,
        parts_from_lines,
    }
}

/// The layered guess modulo `moduli` from the solved region (see the module documentation);
/// None when none fits, or when interrupted. Near the faces of N^d the pattern may differ: a
/// coordinate below a threshold T is pinned, value by value, and each such face gets a fit of its
/// own (recursively). Where no normal's layers fit, the domain is cut in two along a hyperplane
/// (at most [`MAX_CUTS`] deep), each side fitted alike.
pub(super) fn guess(
    region: &WeightRegion,
    moduli: &Moduli,
    cut: bool,
    normals: &[Vec<i64>],
) -> Option<Layered> {
    let d = region.dim();
    let domain = Domain::orthant(d);
    let mut budget = Budget {
        pieces: MAX_PIECES,
        fits: if cut { MAX_CUT_FITS } else { MAX_FITS },
        until: cut.then(|| Instant::now() + CUT_TIME),
        normals: normals.to_vec(),
    };
    let ways: &[Interior] = if cut {
        &[Interior::Cut]
    } else {
        &[Interior::Layers]
    };
    let fit = fit_faces(region, moduli, &domain, None, &mut budget, 0, ways)?;
    // A walk cut short by a stop leaves a fit of part of the region.
    if crate::interrupt::requested() {
        return None;
    }
    let normal = fit.normal?;
    Some(Layered {
        moduli: moduli.clone(),
        normal,
        lo: fit.lo,
        hi: fit.hi,
        cuts: fit.cuts,
        cells: None,
        cell_lattices: 1,
        rule: fit.rule,
        pieces: fit.pieces + fit.extra.len(),
        extra: fit.extra.into_iter().collect(),
        missing: fit.missing.into_iter().collect(),
    })
}

impl Layered {
    /// What the guess is, from the positions of weight ≤ `bound`: layers of one normal, layers
    /// on the sides of cuts, or the cells of a tree.
    pub(super) fn describe(&self, bound: i64) -> String {
        let moduli = self.moduli.describe();
        let exceptions = self.exceptions();
        match self.cells {
            Some(cells) if self.cell_lattices > 1 => format!(
                "patterns on the {cells} cells of the cuts {}, each cell's modulo one of the {} lattices of periods parts of the region show, with {exceptions} exceptions, from the positions of weight ≤ {bound}",
                self.cuts.join(", "),
                self.cell_lattices
            ),
            Some(cells) => format!(
                "patterns modulo {moduli} on the {cells} cells of the cuts {}, with {exceptions} exceptions, from the positions of weight ≤ {bound}",
                self.cuts.join(", ")
            ),
            None if self.cuts.is_empty() => format!(
                "a pattern modulo {moduli} on the layers {} = c, one below c = {} and one above c = {} (the faces near the boundary fitted alike), with {exceptions} exceptions, from the positions of weight ≤ {bound}",
                hyperplane(&self.normal),
                self.lo,
                self.hi
            ),
            None => format!(
                "patterns modulo {moduli} on the sides of the cuts {} (each side's layers and faces fitted alike), with {exceptions} exceptions, from the positions of weight ≤ {bound}",
                self.cuts.join(", ")
            ),
        }
    }

    /// Whether the guess puts x ∈ N^d in P.
    pub(super) fn contains(&self, x: &[i64]) -> bool {
        if self.extra.contains(x) {
            return true;
        }
        if self.missing.contains(x) {
            return false;
        }
        self.rule.contains(&self.moduli, x)
    }

    /// The exceptions taken as points.
    pub(super) fn exceptions(&self) -> usize {
        self.extra.len() + self.missing.len()
    }

    /// The guess as a set: the rule's pieces (disjoint: the faces partition N^d, the ranges of
    /// layers each face, the cosets each range, the cuts each domain), the extra points outside
    /// them, less the missing ones.
    pub(super) fn set(&self) -> Result<StratifiedSet, AlgebraError> {
        let d = self.normal.len();
        let domain = Domain::orthant(d);
        let mut disjoint = Vec::with_capacity(self.pieces);
        self.rule.pieces(&self.moduli, &domain, &mut disjoint);
        disjoint.extend(
            self.extra
                .iter()
                .map(|x| BasicSet::new(Coset::point(Vector::from_i64s(x)), Vec::new())),
        );
        let mut set = StratifiedSet::from_disjoint(d, disjoint)?;
        if !self.missing.is_empty() {
            let missing: Vec<Vector> = self.missing.iter().map(|x| Vector::from_i64s(x)).collect();
            set = set.difference(&StratifiedSet::from_points(d, &missing))?;
        }
        Ok(set)
    }

    /// N^d less the guess's set: the positions its rule leaves out of P (see
    /// [`Rule::others_pieces`]) and the missing points, less the extra ones. Verifying the set
    /// with it need not take the set's complement in the set algebra, which cuts N^d by every
    /// piece: misère play of Γ = {2e_4, e_3, 2e_2, e_1, (2, 2, 2, 1)} (item 0 of a random-rules
    /// sweep, seed 31337) has a tree of 14 cells, 74 pieces, whose complement so took 20,415
    /// basic sets and 4 s, and then 13 s to cut by the moves; generalized misère play of
    /// Γ = {(−1, −2, −2, 1), e_3, e_2, (1, −1, −2, 0)} (item 14 of a sweep, seed 7777) has layers
    /// modulo 2 of 1,112 pieces, whose complement took 2,773 basic sets and 3 s.
    pub(super) fn outside(&self) -> Result<StratifiedSet, AlgebraError> {
        let d = self.normal.len();
        let mut disjoint = Vec::new();
        self.rule
            .others_pieces(&self.moduli, &Domain::orthant(d), &mut disjoint);
        // The missing points lie in the pieces, so apart from the other classes; the extra
        // points lie among those, and are taken out of them.
        disjoint.extend(
            self.missing
                .iter()
                .map(|x| BasicSet::new(Coset::point(Vector::from_i64s(x)), Vec::new())),
        );
        let set = StratifiedSet::from_disjoint(d, disjoint)?;
        if self.extra.is_empty() {
            return Ok(set);
        }
        let extra: Vec<Vector> = self.extra.iter().map(|x| Vector::from_i64s(x)).collect();
        set.difference(&StratifiedSet::from_points(d, &extra))
    }
}

/// How the interior of a domain is fitted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Interior {
    /// By the layers of one normal.
    Layers,
    /// Cut in two along a hyperplane, each side fitted on its own.
    Cut,
}

/// How a domain below `depth` cuts may be fitted: by layers, else cut again while fewer than
/// [`MAX_CUTS`].
fn ways_at(depth: usize) -> &'static [Interior] {
    if depth < MAX_CUTS {
        &[Interior::Layers, Interior::Cut]
    } else {
        &[Interior::Layers]
    }
}

/// A fit on the domain with the least threshold that works: the interior (free coordinates at
/// least T, and each cut of the domain raised by T) by [`fit_layers`], each face below T by a fit
/// of its own; when no threshold works so, the same with the interior cut ([`fit_cut`]), `depth`
/// being the cuts taken on the way here.
fn fit_faces(
    region: &WeightRegion,
    moduli: &Moduli,
    domain: &Domain,
    hint: Option<&[i64]>,
    budget: &mut Budget,
    depth: usize,
    ways: &[Interior],
) -> Option<Fit> {
    let d = domain.lower.len();
    let free = domain.free();
    if free.is_empty() {
        // One point.
        let corner = domain.corner();
        let p = domain.admits(&corner) && region.is_p(&corner) == Some(true);
        let mut fit = Fit::of(Rule::Point(p));
        fit.pieces = usize::from(p);
        return Some(fit);
    }
    let cut_faces: Vec<CutFace> = domain
        .cuts
        .iter()
        .enumerate()
        .filter(|(_, cut)| !cut.pinned)
        .map(|(index, cut)| CutFace {
            index,
            normal: cut.normal.clone(),
            lower: cut.lower,
        })
        .collect();
    // A face is fitted by layers, and cut too when this domain may be.
    let face_ways = if ways.contains(&Interior::Cut) {
        ways_at(depth)
    } else {
        &[Interior::Layers]
    };
    for &way in ways {
        'thresholds: for t in THRESHOLDS {
            if crate::interrupt::requested() {
                return None;
            }
            let interior = domain.interior(&free, &cut_faces, t);
            let inner = match way {
                Interior::Layers => fit_layers(region, moduli, &interior, hint, budget),
                Interior::Cut => fit_cut(region, moduli, &interior, budget, depth),
            };
            let Some(inner) = inner else {
                continue;
            };
            let normal = inner.normal.clone();
            let mut fit = Fit {
                rule: Rule::Empty,
                extra: inner.extra,
                missing: inner.missing,
                pieces: inner.pieces,
                normal: inner.normal,
                lo: inner.lo,
                hi: inner.hi,
                cuts: inner.cuts,
            };
            if t == 0 {
                fit.rule = inner.rule;
                return Some(fit);
            }
            let mut faces = FxHashMap::default();
            let whole = domain.for_each_face(&free, &cut_faces, t, &mut |key, face| {
                if key.0 < d && region.weight(&face.corner()) > region.bound() {
                    return true;
                }
                // On a coordinate's face the normal's entry there no longer matters.
                let hint = normal.as_ref().map(|h| {
                    let mut h = h.clone();
                    if key.0 < d {
                        h[key.0] = 0;
                    }
                    h
                });
                let Some(sub) = fit_faces(
                    region,
                    moduli,
                    face,
                    hint.as_deref(),
                    budget,
                    depth,
                    face_ways,
                ) else {
                    return false;
                };
                faces.insert(key, fit.absorb(sub));
                true
            });
            if !whole {
                continue 'thresholds;
            }
            fit.rule = Rule::Split {
                threshold: t,
                free: free.clone(),
                cut_faces: cut_faces.clone(),
                interior: Box::new(inner.rule),
                faces,
            };
            return Some(fit);
        }
    }
    None
}

/// Positions (flat), their classes and their outcomes.
type ClassedSample = (Vec<i64>, Vec<u32>, Vec<bool>);

/// The positions with their classes.
fn classed(moduli: &Moduli, d: usize, (points, outcomes): (Vec<i64>, Vec<bool>)) -> ClassedSample {
    let classes = points.chunks_exact(d).map(|x| moduli.class_of(x)).collect();
    (points, classes, outcomes)
}

/// The most P-positions of a cut domain with almost no heavy positions taken as exceptions.
const FEW: usize = 64;

/// A cut domain with almost no positions in the heavier half (a sliver next to a cut, often
/// finite): nothing in P but its P-positions on the region, taken as exceptions; None when
/// there are more than [`FEW`].
fn few_points(region: &WeightRegion, domain: &Domain) -> Option<Fit> {
    let mut extra = Vec::new();
    domain.for_each(region, &mut |x, p| {
        if p && extra.len() <= FEW {
            extra.push(x.to_vec());
        }
    });
    if extra.len() > FEW {
        return None;
    }
    let mut fit = Fit::of(Rule::Empty);
    fit.extra = extra;
    Some(fit)
}

/// The layered pattern on the domain: fitted exactly on its heavier half (by weight between its
/// corner and the region's bound), with the lighter half's misses as exceptions; None when no
/// normal fits or the pieces would pass the budget. The `hint` (the enclosing domain's normal) is
/// tried first, and kept when no layer between its ends has a pattern of its own.
fn fit_layers(
    region: &WeightRegion,
    moduli: &Moduli,
    domain: &Domain,
    hint: Option<&[i64]>,
    budget: &mut Budget,
) -> Option<Fit> {
    if !budget.take_fit() {
        return None;
    }
    let d = domain.lower.len();
    let Some(half) = domain.half(region) else {
        return Some(Fit::of(Rule::Empty));
    };
    // The heavier half can hold tens of millions of positions in d = 4: sampled from the index
    // (a walk of them all took most of a second per fit), and read again through walks rather
    // than kept. A smaller sample inside it rules normals out
    // first: what it shows bounds what the sample shows (`layers_between_at_least`).
    let (points, outcomes, heavy) = domain.sample(region, half, 3 * SAMPLE / 2);
    if heavy < 8 {
        return if domain.cuts.is_empty() {
            None
        } else {
            few_points(region, domain)
        };
    }
    // Each position's class once: the candidate normals number hundreds (over a thousand in
    // d = 4), and the class is the same under each.
    let quick = classed(
        moduli,
        d,
        every_nth(d, &points, &outcomes, outcomes.len() / QUICK_SAMPLE),
    );
    let sample = classed(moduli, d, (points, outcomes));
    let mut best: Option<(i64, Vec<i64>)> = None;
    let hinted = hint
        .filter(|h| h.iter().any(|&a| a != 0))
        .map(<[i64]>::to_vec);
    let candidates = hinted
        .into_iter()
        .chain(domain.normals_with(&budget.normals, !domain.cuts.is_empty()));
    for h in candidates {
        // A guess with cuts stops at its time (a fit with hundreds of candidates on a large
        // region took a second past it).
        if crate::interrupt::requested() || budget.until.is_some_and(|t| Instant::now() >= t) {
            return None;
        }
        let worse = |own: i64| own > MAX_LAYERS || best.as_ref().is_some_and(|(b, _)| own >= *b);
        if layers_between_at_least(&h, moduli, &quick).is_none_or(worse) {
            continue;
        }
        let Some(own) = layers_between(&h, moduli, &sample) else {
            continue;
        };
        if !worse(own) {
            best = Some((own, h));
            if own == 0 {
                break;
            }
        }
    }
    let (_, h) = best?;
    drop((sample, quick));
    let mut builder = LayerBuilder::default();
    domain.for_each(region, &mut |x, p| {
        if region.weight(x) > half {
            builder.add(level(&h, x), moduli.class_of(x), p);
        }
    });
    if crate::interrupt::requested() {
        return None;
    }
    let layers = builder.finish()?;
    let classes = moduli.count();
    let (lo, low, hi, high) = ends(&layers, classes)?;
    let (lo, hi) = if hi <= lo { (lo, lo + 1) } else { (lo, hi) };
    // The layers between with their own patterns (at most MAX_LAYERS: the sample's choice).
    let own: BTreeMap<i64, Pattern> = layers
        .iter()
        .filter(|(c, _)| lo < *c && *c < hi)
        .map(|(c, layer)| {
            let mut pattern = vec![UNSEEN; classes];
            merge(&mut pattern, layer);
            (*c, pattern)
        })
        .collect();
    drop(layers);
    let rule = LayerRule {
        normal: h.clone(),
        lo,
        hi,
        low,
        own,
        high,
    };
    // The heavier half is predicted exactly: each layer's classes went into its own pattern or
    // into an end's without a clash (`ends`). The lighter half's misses are exceptions (a class
    // no heavier position showed is not in the guessed set).
    let (extra, missing) = lighter_misses(domain, region, half, &|x| {
        rule.predict(moduli, x).unwrap_or(false)
    })?;
    let pieces = rule.piece_count(moduli);
    if pieces > budget.pieces {
        return None;
    }
    budget.pieces -= pieces;
    Some(Fit {
        rule: Rule::Layers(rule),
        extra,
        missing,
        pieces,
        normal: Some(h),
        lo,
        hi,
        cuts: Vec::new(),
    })
}

/// Positions in P a guess leaves out, and positions not in P it takes in.
type Misses = (Vec<Vec<i64>>, Vec<Vec<i64>>);

/// The positions of the domain up to weight `half` (a guess's lighter half) that the guess
/// `inside` gets wrong, the exceptions a guess takes as points; None past [`MAX_EXCEPTIONS`]
/// or when interrupted. Only the lighter half is walked.
fn lighter_misses(
    domain: &Domain,
    region: &WeightRegion,
    half: i64,
    inside: &dyn Fn(&[i64]) -> bool,
) -> Option<Misses> {
    let (mut extra, mut missing) = (Vec::new(), Vec::new());
    let mut failed = false;
    domain.for_each_up_to(region, half, &mut |x, truth| {
        if failed || inside(x) == truth {
            return;
        }
        if extra.len() + missing.len() >= MAX_EXCEPTIONS {
            failed = true;
        } else if truth {
            extra.push(x.to_vec());
        } else {
            missing.push(x.to_vec());
        }
    });
    if failed || crate::interrupt::requested() {
        return None;
    }
    Some((extra, missing))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_across_two_unparallel_lines_is_cut_in_two() {
        // P: x + y even above the line y = x + 4; below it x even above the line 3y = x, and y
        // even below that. No normal's layers fit (the layers of x − y see both lower patterns,
        // those of x − 3y both upper ones); cut along lines of these normals they do.
        let ell = [1, 1];
        let rule = |x: &[i64]| {
            if x[1] >= x[0] + 4 {
                (x[0] + x[1]) % 2 == 0
            } else if 3 * x[1] >= x[0] {
                x[0] % 2 == 0
            } else {
                x[1] % 2 == 0
            }
        };
        let (region, all) = WeightRegion::of_rule(&ell, 160, &rule);
        let moduli = Moduli::new(vec![2, 2]).unwrap();
        assert!(guess(&region, &moduli, false, &[]).is_none());
        let found = guess(&region, &moduli, true, &[]).expect("a guess with cuts");
        // One cut can do: x − y ≤ t meets the lowest part only in finitely many points.
        assert!(!found.cuts.is_empty());
        agrees_with(&found, &rule, &all);
    }

    #[test]
    fn a_parity_switched_across_a_slanted_line_is_found_with_its_exceptions() {
        // P: x + y even on or above the line y = x + 3, odd below it; plus two exceptions near 0.
        let ell = [1, 1];
        let rule = |x: &[i64]| -> bool {
            if x == [0, 1] || x == [2, 2] {
                return x == [0, 1];
            }
            ((x[0] + x[1]) % 2 == 0) == (x[1] - x[0] >= 3)
        };
        let (region, all) = WeightRegion::of_rule(&ell, 80, &rule);
        let found =
            guess(&region, &Moduli::new(vec![2, 2]).unwrap(), false, &[]).expect("a layered guess");
        // The two exceptions lie on faces near the origin, which get fits of their own.
        assert!(found.exceptions() <= 2, "{}", found.exceptions());
        agrees_with(&found, &rule, &all);
    }

    #[test]
    fn layers_that_all_fit_one_pattern_are_written_as_one_range() {
        // P: x_1 even except the point (1, 0). Every layer of any normal fits the one pattern,
        // so the rule's ends meet at the region's last layer; the set has no piece bounded there
        // (each was the region's size, and writing it out point by point took seconds in d = 4).
        let ell = [1, 1];
        let rule = |x: &[i64]| x == [1, 0] || (x != [2, 0] && x[0] % 2 == 0);
        let (region, all) = WeightRegion::of_rule(&ell, 120, &rule);
        let found =
            guess(&region, &Moduli::new(vec![2, 2]).unwrap(), false, &[]).expect("a layered guess");
        agrees_with(&found, &rule, &all);
        let pieces = found.set().unwrap().simplicial_pieces().unwrap();
        assert!(pieces.len() <= 8, "{} simplicial pieces", pieces.len());
    }

    /// The guess's rule and its set agree with `rule` on the points and far beyond the region.
    fn agrees_with(found: &Layered, rule: &dyn Fn(&[i64]) -> bool, points: &[Vec<i64>]) {
        let set = found.set().expect("a set");
        let far = [
            [500, 504],
            [500, 502],
            [1000, 3],
            [1000, 4],
            [3, 1000],
            [4, 1000],
            [777, 1001],
            [1001, 2003],
        ];
        for x in points
            .iter()
            .map(Vec::as_slice)
            .chain(far.iter().map(|x| &x[..]))
        {
            assert_eq!(found.contains(x), rule(x), "{x:?}");
            assert_eq!(set.contains(&Vector::from_i64s(x)), rule(x), "{x:?}");
        }
        assert_outside_is_the_complement(found);
    }

    /// N^d less the guess's set, written from its rule, is the complement the set algebra takes.
    pub(super) fn assert_outside_is_the_complement(found: &Layered) {
        use crate::algebra::{Integer, StratifiedSet};
        let d = found.normal.len();
        let set = found.set().expect("a set");
        let outside = found.outside().expect("built");
        let orthant = StratifiedSet::from_basic(BasicSet::from_inequalities(
            d,
            (0..d)
                .map(|i| (Vector::unit(d, i), Integer::ZERO))
                .collect(),
        ))
        .expect("N^d");
        let complement = orthant.difference(&set).expect("a complement");
        assert!(outside.set_eq(&complement).expect("compared"));
    }

    #[test]
    fn three_patterns_around_a_line_are_fitted_by_a_cut_through_it() {
        // The three patterns of `three_patterns_around_a_line` (classes.rs): no side of any
        // boundary plane holds layers of its normal, so the cut is a fan's, each side two
        // patterns across another boundary.
        let rule = super::super::classes::tests::three_patterns_around_a_line;
        let (region, all) = WeightRegion::of_rule(&[1, 1, 1], 150, &rule);
        let ToTry {
            lattice, normals, ..
        } = moduli_to_try(&region, &[]);
        let lattice = lattice.expect("a lattice");
        let found = guess(&region, &lattice, true, &normals).expect("a guess with cuts");
        assert_eq!(found.cuts.len(), 1, "{:?}", found.cuts);
        // At most a few points near the origin (a corner of the faces), taken as exceptions.
        assert!(
            found.exceptions() <= 4,
            "{:?} {:?}",
            found.extra,
            found.missing
        );
        let far = [
            [300, 450, 452],
            [300, 449, 460],
            [300, 460, 440],
            [300, 400, 900],
            [5, 700, 300],
        ];
        agrees_far_beyond(&found, &rule, &all, &far);
    }

    /// The guess's rule agrees with `rule` on the points and on the far ones, and its set on the
    /// far ones.
    pub(super) fn agrees_far_beyond(
        found: &Layered,
        rule: &dyn Fn(&[i64]) -> bool,
        points: &[Vec<i64>],
        far: &[[i64; 3]],
    ) {
        for x in points
            .iter()
            .map(Vec::as_slice)
            .chain(far.iter().map(|x| &x[..]))
        {
            assert_eq!(found.contains(x), rule(x), "{x:?}");
        }
        let set = found.set().expect("a set");
        for x in far {
            assert_eq!(set.contains(&Vector::from_i64s(x)), rule(x), "{x:?}");
        }
        assert_outside_is_the_complement(found);
    }

    #[test]
    fn a_period_that_changes_across_a_slanted_line_is_found_modulo_the_suggested_moduli() {
        // P: x_2 ≡ 1 mod 3 above the line x_2 = 2x_1 + 1, x_2 ≡ 5 mod 8 on and below it, as in
        // misère play of Γ = {e_3, e_2, 2e_2, e_1, (2, 2, −1)} (its slices with x_3 fixed).
        let ell = [1, 1];
        let rule = |x: &[i64]| {
            if x[1] > 2 * x[0] + 1 {
                x[1] % 3 == 1
            } else {
                x[1] % 8 == 5
            }
        };
        let (region, all) = WeightRegion::of_rule(&ell, 160, &rule);
        let ToTry {
            moduli, normals, ..
        } = moduli_to_try(&region, &[]);
        assert_eq!(moduli.len(), 2);
        // The boundary's normal, read off the periods along it.
        assert_eq!(normals, vec![vec![2, -1]]);
        assert_eq!(moduli[1].describe(), "(1, 24)");
        assert!(guess(&region, &moduli[0], false, &[]).is_none());
        let found = guess(&region, &moduli[1], false, &[]).expect("a layered guess");
        assert_eq!(found.exceptions(), 0);
        assert_eq!(found.normal, [2, -1]);
        agrees_with(&found, &rule, &all);
        // One coset of Z × 3Z above, one of Z × 8Z below (and the faces near the origin).
        let set = found.set().expect("a set");
        assert!(set.cover().len() <= 12, "{}", set.cover().len());
    }
}
