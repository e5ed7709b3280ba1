//! How a layered guess decides each position of its domain, and the basic sets it writes: the
//! rule of a fit (layers of one normal, a pattern, a point, faces around an interior, or a cut in
//! two), its membership test, its pieces, and the pieces of the positions it leaves out, which
//! are N^d less its set (see [`Rule::others_pieces`]).

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
        let mut range = ranges_on(&self.normal, moduli, domain, out);
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

    /// The pieces of the positions on the domain the rule leaves out of P, as
    /// [`LayerRule::pieces`] writes those it puts in (see [`Rule::others_pieces`]).
    fn others_pieces(&self, moduli: &Moduli, domain: &Domain, out: &mut Vec<BasicSet>) {
        let mut range = ranges_on(&self.normal, moduli, domain, out);
        if self.one_pattern(moduli) {
            range(None, None, &others_of(moduli, &self.low));
            return;
        }
        range(None, Some(self.lo), &others_of(moduli, &self.low));
        for_each_range_with_empty(self.lo, self.hi, &self.own, |from, to, pattern| {
            range(Some(from), Some(to), &others_of(moduli, pattern))
        });
        range(Some(self.hi), None, &others_of(moduli, &self.high));
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
        self.write(moduli, domain, false, out);
    }

    /// The pieces of the positions of the domain the rule leaves out of P: with those of
    /// [`Rule::pieces`], a partition of the domain's lattice points, so that N^d less a guess's
    /// set is written from its rule as the set is (each pattern's other classes, unseen ones
    /// among them; the whole of a domain, layer or face the rule puts nothing of in P).
    pub(super) fn others_pieces(&self, moduli: &Moduli, domain: &Domain, out: &mut Vec<BasicSet>) {
        self.write(moduli, domain, true, out);
    }

    /// The pieces of the positions the rule puts in P, or of those it leaves out.
    fn write(&self, moduli: &Moduli, domain: &Domain, left_out: bool, out: &mut Vec<BasicSet>) {
        let whole = |domain: &Domain, out: &mut Vec<BasicSet>| {
            if left_out {
                out.push(BasicSet::new(
                    Coset::full(domain.corner().len()),
                    domain.inequalities(),
                ))
            }
        };
        match self {
            Rule::Empty => whole(domain, out),
            Rule::Point(true) if !left_out => out.push(BasicSet::new(
                Coset::point(Vector::from_i64s(&domain.corner())),
                Vec::new(),
            )),
            Rule::Point(false) if left_out => whole(domain, out),
            Rule::Point(_) => {}
            Rule::Layers(layers) if left_out => layers.others_pieces(moduli, domain, out),
            Rule::Layers(layers) => layers.pieces(moduli, domain, out),
            Rule::Pattern(own, pattern) => {
                let bounds = domain.inequalities();
                let classes = if left_out {
                    others_of(own, pattern)
                } else {
                    pattern.clone()
                };
                for coset in own.cosets_in_p(&classes) {
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
                interior.write(moduli, &inside, left_out, out);
                domain.for_each_face(free, cut_faces, t, &mut |key, face| {
                    match faces.get(&key) {
                        Some(rule) => rule.write(moduli, face, left_out, out),
                        None => whole(face, out),
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
                below.write(moduli, &domain.cut(&minus, -at), left_out, out);
                above.write(moduli, &domain.cut(normal, at + 1), left_out, out);
            }
        }
    }
}

/// The classes a pattern leaves out of P (those it has not seen among them), as a pattern.
fn others_of(moduli: &Moduli, pattern: &[u8]) -> Pattern {
    (0..moduli.count() as u32)
        .map(|c| state(pattern.get(c as usize).is_none() || lookup(pattern, c) != Some(true)))
        .collect()
}

/// Writes the classes in P of a pattern on the layers from ≤ h·x ≤ to of the domain (either end
/// open when None), as the cosets of [`Moduli::cosets_in_p`] cut to the domain.
fn ranges_on<'a>(
    normal: &[i64],
    moduli: &'a Moduli,
    domain: &Domain,
    out: &'a mut Vec<BasicSet>,
) -> impl FnMut(Option<i64>, Option<i64>, &[u8]) + 'a {
    let hv = Vector::from_i64s(normal);
    let bounds = domain.inequalities();
    move |from, to, pattern| {
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
    for_each_range_with_empty(lo, hi, own, |from, to, pattern| {
        // Nothing seen: nothing in P.
        if !pattern.is_empty() {
            f(from, to, pattern)
        }
    })
}

/// [`for_each_range`], the ranges of layers that showed nothing included.
fn for_each_range_with_empty(
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
        f(c, end, pattern);
        c = end + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algebra::StratifiedSet;
    use crate::game::stratify::classes::UNSEEN;

    /// A pattern from one letter per class: P in P, N not, ? unseen.
    fn pattern(s: &str) -> Pattern {
        s.chars()
            .map(|c| match c {
                'P' => state(true),
                'N' => state(false),
                _ => UNSEEN,
            })
            .collect()
    }

    #[test]
    fn the_pieces_of_a_rule_and_of_the_positions_it_leaves_out_partition_the_domain() {
        // Every kind of rule, with what each leaves out of P: an empty domain (a face with
        // nothing solved), faces the rule has no fit for, layers between the ends that showed
        // nothing, unseen classes, points in P and not, and a cut, nested in faces and an
        // interior.
        let halves = Moduli::new(vec![2, 2]).expect("moduli");
        let thirds = Moduli::new(vec![3, 1]).expect("moduli");
        let layers = Rule::Layers(LayerRule {
            normal: vec![1, 1],
            lo: 8,
            hi: 13,
            low: pattern("PNNP"),
            own: BTreeMap::from([
                (9, pattern("P?NN")),
                (11, pattern("NPPN")),
                (12, pattern("NPPN")),
            ]),
            high: pattern("NNPP"),
        });
        let interior = Rule::Cut {
            normal: vec![1, -1],
            at: 2,
            below: Box::new(layers),
            above: Box::new(Rule::Pattern(thirds, pattern("P?N"))),
        };
        // The face x_1 = 0 is fitted as its own interior above x_2 = 2 and two points below.
        let on_the_axis = Rule::Split {
            threshold: 2,
            free: vec![1],
            cut_faces: Vec::new(),
            interior: Box::new(Rule::Pattern(halves.clone(), pattern("NPPN"))),
            faces: FxHashMap::from_iter([
                ((1, 0), Rule::Point(true)),
                ((1, 1), Rule::Point(false)),
            ]),
        };
        let rule = Rule::Split {
            threshold: 3,
            free: vec![0, 1],
            cut_faces: Vec::new(),
            interior: Box::new(interior),
            faces: FxHashMap::from_iter([
                ((0, 0), on_the_axis),
                ((0, 1), Rule::Empty),
                ((1, 0), Rule::Pattern(halves.clone(), pattern("PPNN"))),
                (
                    (1, 2),
                    Rule::Layers(LayerRule {
                        normal: vec![1, 0],
                        lo: 4,
                        hi: 7,
                        low: pattern("PNPN"),
                        own: BTreeMap::from([(6, pattern("NNNP"))]),
                        high: pattern("NPNP"),
                    }),
                ),
            ]),
        };
        let domain = Domain::orthant(2);
        let (mut inside, mut outside) = (Vec::new(), Vec::new());
        rule.pieces(&halves, &domain, &mut inside);
        rule.others_pieces(&halves, &domain, &mut outside);
        let inside = StratifiedSet::from_disjoint(2, inside).expect("the set");
        let outside = StratifiedSet::from_disjoint(2, outside).expect("its complement");
        let (mut in_p, mut left_out) = (0, 0);
        for x0 in 0..40 {
            for x1 in 0..40 {
                let x = [x0, x1];
                let p = rule.contains(&halves, &x);
                let v = Vector::from_i64s(&x);
                assert_eq!(inside.contains(&v), p, "{x:?}");
                assert_eq!(outside.contains(&v), !p, "{x:?}");
                if p {
                    in_p += 1;
                } else {
                    left_out += 1;
                }
            }
        }
        assert!(in_p > 300 && left_out > 300, "{in_p} {left_out}");
        // The two are disjoint everywhere, not only on the box.
        assert!(inside.intersect(&outside).expect("met").is_empty());
    }
}
