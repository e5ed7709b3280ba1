//! How a layered guess decides each position of its domain, and the basic sets it writes: the
//! rule of a fit (layers of one normal, a pattern, a point, faces around an interior, or a cut in
//! two), its membership test, its pieces, and the rule of the positions it leaves out, whose
//! pieces are N^d less its set (see [`Rule::others`]).

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use super::domain::{level, CutFace, Domain};
use crate::algebra::basic_set::BasicSet;
use crate::algebra::coset::Coset;
use crate::algebra::{Integer, Vector};
use crate::game::stratify::classes::{lookup, state, Moduli, Pattern};

/// How a fit decides the positions of its domain.
pub(super) enum Rule {
    /// None is in P (no position of the domain was solved).
    Empty,
    /// One position (every coordinate pinned): in P or not.
    Point(bool),
    /// The classes in P by layer.
    Layers(LayerRule),
    /// The classes in P modulo the moduli given, the same on the whole domain (a cell of
    /// [`tree_guess`], whose cells may each take moduli of their own).
    Pattern(Moduli, Pattern),
    /// The interior (the free coordinates at least `threshold`, and a·x ≥ b + threshold for
    /// each cut a·x ≥ b of the domain in `cut_faces`) by its rule, the faces x_i = c < threshold
    /// and a·x = c < b + threshold by theirs: a position lies on the face of the first free
    /// coordinate below the threshold, else of the first such cut (a face left out has no
    /// solved position and nothing in P). A cut's faces are keyed d + its index.
    Split {
        threshold: i64,
        free: Vec<usize>,
        cut_faces: Vec<CutFace>,
        interior: Box<Rule>,
        faces: FxHashMap<(usize, i64), Rule>,
    },
    /// The domain cut by a hyperplane where the pattern changes in a way no layers of one normal
    /// describe: h·x ≤ at by one rule, h·x > at by the other (each fitted on its side).
    Cut {
        normal: Vec<i64>,
        at: i64,
        below: Box<Rule>,
        above: Box<Rule>,
    },
}

/// The classes in P by layer h·x = c: `low` on the layers ≤ lo, `high` on those ≥ hi, each layer
/// between by its own (none when it showed nothing).
pub(super) struct LayerRule {
    pub(super) normal: Vec<i64>,
    pub(super) lo: i64,
    pub(super) hi: i64,
    pub(super) low: Pattern,
    pub(super) own: BTreeMap<i64, Pattern>,
    pub(super) high: Pattern,
}

impl LayerRule {
    /// The pattern on the layer c.
    fn pattern_at(&self, c: i64) -> Option<&Pattern> {
        if c <= self.lo {
            Some(&self.low)
        } else if c >= self.hi {
            Some(&self.high)
        } else {
            self.own.get(&c)
        }
    }

    /// What the rule says of x: in P, not, or a class its layer has not seen.
    pub(super) fn predict(&self, moduli: &Moduli, x: &[i64]) -> Option<bool> {
        self.pattern_at(level(&self.normal, x))
            .and_then(|pattern| lookup(pattern, moduli.class_of(x)))
    }

    /// The pieces on the domain: the two ends and each range of layers between with one
    /// pattern, each class set as the cosets of [`Moduli::cosets_in_p`], cut to the domain.
    pub(super) fn pieces(&self, moduli: &Moduli, domain: &Domain, out: &mut Vec<BasicSet>) {
        let hv = Vector::from_i64s(&self.normal);
        let bounds = domain.inequalities();
        let mut range = |from: Option<i64>, to: Option<i64>, pattern: &[u8]| {
            let mut inequalities = bounds.clone();
            if let Some(a) = from {
                inequalities.push((hv.clone(), Integer::from(a)));
            }
            if let Some(b) = to {
                inequalities.push((hv.scale(&Integer::from(-1)), Integer::from(-b)));
            }
            for coset in moduli.cosets_in_p(pattern) {
                out.push(BasicSet::new(coset, inequalities.clone()));
            }
        };
        if self.one_pattern(moduli) {
            range(None, None, &self.low);
            return;
        }
        range(None, Some(self.lo), &self.low);
        for_each_range(self.lo, self.hi, &self.own, |from, to, pattern| {
            range(Some(from), Some(to), pattern)
        });
        range(Some(self.hi), None, &self.high);
    }

    /// Whether the rule puts the same classes in P on every layer: no layer between the ends,
    /// and the ends alike (a class unseen on one is not in P there either). Where every layer
    /// of the region fitted one pattern, `ends` splits them at the last one; written as two
    /// ranges, the layers below it made a bounded piece of the region's size, and writing its
    /// points out took seconds.
    fn one_pattern(&self, moduli: &Moduli) -> bool {
        let in_p = |pattern: &[u8], c| lookup(pattern, c) == Some(true);
        self.hi <= self.lo + 1
            && (0..moduli.count() as u32).all(|c| in_p(&self.low, c) == in_p(&self.high, c))
    }

    /// How many basic sets [`LayerRule::pieces`] makes.
    pub(super) fn piece_count(&self, moduli: &Moduli) -> usize {
        if self.one_pattern(moduli) {
            return moduli.coset_count(&self.low);
        }
        let mut count = moduli.coset_count(&self.low) + moduli.coset_count(&self.high);
        for_each_range(self.lo, self.hi, &self.own, |_, _, pattern| {
            count += moduli.coset_count(pattern)
        });
        count
    }
}

impl Rule {
    /// Whether the rule puts x (a position of its domain) in P.
    pub(super) fn contains(&self, moduli: &Moduli, x: &[i64]) -> bool {
        match self {
            Rule::Empty => false,
            Rule::Point(p) => *p,
            Rule::Layers(layers) => layers.predict(moduli, x) == Some(true),
            Rule::Pattern(own, pattern) => lookup(pattern, own.class_of(x)) == Some(true),
            Rule::Split {
                threshold,
                free,
                cut_faces,
                interior,
                faces,
            } => {
                let key = match free.iter().find(|&&i| x[i] < *threshold) {
                    Some(&i) => Some((i, x[i])),
                    None => cut_faces.iter().find_map(|face| {
                        let v = level(&face.normal, x);
                        (v < face.lower + threshold).then_some((x.len() + face.index, v))
                    }),
                };
                match key {
                    Some(key) => faces.get(&key).is_some_and(|face| face.contains(moduli, x)),
                    None => interior.contains(moduli, x),
                }
            }
            Rule::Cut {
                normal,
                at,
                below,
                above,
            } => {
                if level(normal, x) <= *at {
                    below.contains(moduli, x)
                } else {
                    above.contains(moduli, x)
                }
            }
        }
    }

    /// The pieces of the rule on its domain.
    pub(super) fn pieces(&self, moduli: &Moduli, domain: &Domain, out: &mut Vec<BasicSet>) {
        match self {
            Rule::Empty => {}
            Rule::Point(p) => {
                if *p {
                    out.push(BasicSet::new(
                        Coset::point(Vector::from_i64s(&domain.corner())),
                        Vec::new(),
                    ));
                }
            }
            Rule::Layers(layers) => layers.pieces(moduli, domain, out),
            Rule::Pattern(own, pattern) => {
                let bounds = domain.inequalities();
                for coset in own.cosets_in_p(pattern) {
                    out.push(BasicSet::new(coset, bounds.clone()));
                }
            }
            Rule::Split {
                threshold,
                free,
                cut_faces,
                interior,
                faces,
            } => {
                let t = *threshold;
                let inside = domain.interior(free, cut_faces, t);
                interior.pieces(moduli, &inside, out);
                domain.for_each_face(free, cut_faces, t, &mut |key, face| {
                    if let Some(rule) = faces.get(&key) {
                        rule.pieces(moduli, face, out);
                    }
                    true
                });
            }
            Rule::Cut {
                normal,
                at,
                below,
                above,
            } => {
                let minus: Vec<i64> = normal.iter().map(|a| -a).collect();
                below.pieces(moduli, &domain.cut(&minus, -at), out);
                above.pieces(moduli, &domain.cut(normal, at + 1), out);
            }
        }
    }

    /// A tree's rule with each cell's pattern replaced by its other classes (those it leaves
    /// out of P, unseen ones among them): its pieces are the positions the rule leaves out of
    /// P, since the cuts h·x ≤ t and h·x ≥ t + 1 partition each domain's lattice points and a
    /// pattern's classes and its other classes partition Z^d. None for any other rule.
    pub(super) fn others(&self) -> Option<Rule> {
        match self {
            Rule::Pattern(moduli, pattern) => {
                let others = (0..moduli.count() as u32)
                    .map(|c| {
                        state(pattern.get(c as usize).is_none() || lookup(pattern, c) != Some(true))
                    })
                    .collect();
                Some(Rule::Pattern(moduli.clone(), others))
            }
            Rule::Cut {
                normal,
                at,
                below,
                above,
            } => Some(Rule::Cut {
                normal: normal.clone(),
                at: *at,
                below: Box::new(below.others()?),
                above: Box::new(above.others()?),
            }),
            _ => None,
        }
    }
}

/// Calls `f(from, to, pattern)` on each maximal range of consecutive layers strictly between lo
/// and hi with one pattern (a layer that showed nothing has the empty pattern).
fn for_each_range(
    lo: i64,
    hi: i64,
    own: &BTreeMap<i64, Pattern>,
    mut f: impl FnMut(i64, i64, &[u8]),
) {
    let mut c = lo + 1;
    while c < hi {
        let pattern = own.get(&c).map(Vec::as_slice).unwrap_or(&[]);
        let same = |k: i64| own.get(&k).map(Vec::as_slice).unwrap_or(&[]) == pattern;
        let mut end = c;
        while end + 1 < hi && same(end + 1) {
            end += 1;
        }
        if pattern.is_empty() {
            // Nothing seen: nothing in P.
        } else {
            f(c, end, pattern);
        }
        c = end + 1;
    }
}
