//! Cuts of a layered guess: where no normal's layers fit a domain, it is cut along a hyperplane
//! h·x = t chosen where the sample's layers under h change pattern, each side fitted on its own
//! ([`fit_cut`], [`fit_sides`]); where three patterns meet along a line, the cut goes through the
//! line, a fan's ([`fit_fan`]).

use rustc_hash::FxHashMap;

use super::domain::{level, Domain};
use super::rule::Rule;
use super::{
    classed, ends, fit_faces, hyperplane, ways_at, Budget, ClassedSample, Fit, Interior, Layers,
    MAX_LAYERS, QUICK_SAMPLE, SAMPLE, THRESHOLDS,
};
use crate::game::stratify::classes::Moduli;
use crate::game::stratify::region::{every_nth, WeightRegion};

/// The least fraction (1/20) of a sample each side of a cut must hold.
const CUT_SIDE: usize = 20;

/// How many normals, best on the quick sample, are scored again on the whole sample.
const CUT_FINALISTS: usize = 6;

/// A layer as a sample shows it: (layer, positions, mixed, classes with their outcomes).
type SeenLayer = (i64, usize, bool, Vec<(u32, bool)>);

/// Where the layers of h stop being uniform: the positions (flat, with outcomes) grouped by
/// layer h·x and class; a layer is mixed when it shows a class both ways. The side below the
/// first mixed layer, or above the last, is a candidate for one side of a cut when its own
/// layers ([`ends`]) number at most [`MAX_LAYERS`]: returns (positions on it, the cut's layer t,
/// whether the uniform side is h·x ≤ t), the side holding more; None when no layer is mixed or
/// neither side qualifies.
fn cut_of(h: &[i64], moduli: &Moduli, sample: &ClassedSample) -> Option<(usize, i64, bool)> {
    let (points, classes, outcomes) = sample;
    // (layer, class, outcome) packed into one key, sorted: levels are far below 2^40 in size
    // (coordinates of a solved region, entries of h at most 6), classes below 2^13.
    const OFFSET: i64 = 1 << 40;
    let mut seen: Vec<u64> = points
        .chunks_exact(h.len())
        .zip(classes.iter().zip(outcomes))
        .map(|(x, (&class, &p))| {
            (((level(h, x) + OFFSET) as u64) << 14) | (u64::from(class) << 1) | u64::from(p)
        })
        .collect();
    seen.sort_unstable();
    let unpack = |key: u64| {
        (
            (key >> 14) as i64 - OFFSET,
            ((key >> 1) & 0x1fff) as u32,
            key & 1 == 1,
        )
    };
    let mut layers: Vec<SeenLayer> = Vec::new();
    for (c, class, p) in seen.into_iter().map(unpack) {
        if layers.last().is_none_or(|l| l.0 != c) {
            layers.push((c, 0, false, Vec::new()));
        }
        let layer = layers.last_mut()?;
        layer.1 += 1;
        match layer.3.last() {
            Some(&(k, q)) if k == class => layer.2 |= q != p,
            _ => layer.3.push((class, p)),
        }
    }
    let first = layers.iter().position(|l| l.2)?;
    let last = layers.iter().rposition(|l| l.2)?;
    let total = outcomes.len();
    let uniform = |side: &[SeenLayer]| -> Option<usize> {
        let plain: Layers = side.iter().map(|l| (l.0, l.3.clone())).collect();
        let (lo, _, hi, _) = ends(&plain, moduli.count())?;
        let covered: usize = side.iter().map(|l| l.1).sum();
        (hi - lo - 1 <= MAX_LAYERS
            && covered * CUT_SIDE >= total
            && (total - covered) * CUT_SIDE >= total)
            .then_some(covered)
    };
    let below = uniform(&layers[..first]).map(|n| (n, layers[first].0 - 1, true));
    let above = uniform(&layers[last + 1..]).map(|n| (n, layers[last].0, false));
    match (below, above) {
        (Some(b), Some(a)) => Some(if a.0 > b.0 { a } else { b }),
        (b, a) => b.or(a),
    }
}

/// The domain cut in two along the hyperplane h·x = t that leaves the most of its heavier half
/// on a side whose layers are uniform (see [`cut_of`]), the layer t then moved to where the
/// domain's own positions (not a sample's) first mix; each side fitted by [`fit_faces`].
pub(super) fn fit_cut(
    region: &WeightRegion,
    moduli: &Moduli,
    domain: &Domain,
    budget: &mut Budget,
    depth: usize,
) -> Option<Fit> {
    if !budget.take_fit() {
        return None;
    }
    let d = domain.lower.len();
    let half = domain.half(region)?;
    let (points, outcomes, heavy) = domain.sample(region, half, 3 * SAMPLE / 2);
    if heavy < 64 {
        return None;
    }
    let quick = classed(
        moduli,
        d,
        every_nth(d, &points, &outcomes, outcomes.len() / QUICK_SAMPLE),
    );
    let sample = classed(moduli, d, (points, outcomes));
    let mut ranked: Vec<(usize, Vec<i64>)> = Vec::new();
    for h in domain.normals_with(&budget.normals, false) {
        if crate::interrupt::requested() {
            return None;
        }
        if let Some((covered, _, _)) = cut_of(&h, moduli, &quick) {
            ranked.push((covered, h));
        }
    }
    // Normals of mixed signs first: a side h·x ≤ t of a normal h ≥ 0 is a slab along the faces,
    // which the faces' thresholds take better. Then the most covered; among equals, the normal
    // listed first (fewest and smallest entries).
    let slab = |h: &[i64]| h.iter().all(|&a| a >= 0) || h.iter().all(|&a| a <= 0);
    ranked.sort_by(|a, b| slab(&a.1).cmp(&slab(&b.1)).then(b.0.cmp(&a.0)));
    let mut best: Option<(usize, Vec<i64>, bool)> = None;
    for (_, h) in ranked.into_iter().take(CUT_FINALISTS) {
        if let Some((covered, _, below)) = cut_of(&h, moduli, &sample) {
            let better = |b: &(usize, Vec<i64>, bool)| (slab(&h), b.0) < (slab(&b.1), covered);
            if best.as_ref().is_none_or(better) {
                best = Some((covered, h, below));
            }
        }
    }
    let Some((_, h, below)) = best else {
        drop(quick);
        return fit_fan(region, moduli, domain, budget, depth, &sample);
    };
    drop((sample, quick));
    // The first mixed layer (from the uniform side) over the whole heavier half.
    let mut states: FxHashMap<(i64, u32), u8> = FxHashMap::default();
    domain.for_each(region, &mut |x, p| {
        if region.weight(x) > half {
            *states
                .entry((level(&h, x), moduli.class_of(x)))
                .or_default() |= 1 << u8::from(p);
        }
    });
    if crate::interrupt::requested() {
        return None;
    }
    let mixed = states.iter().filter(|(_, &s)| s == 3).map(|(&(c, _), _)| c);
    let at = if below {
        mixed.min()? - 1
    } else {
        mixed.max()?
    };
    drop(states);
    // The uniform side by layers alone, first; the other as any domain, cut again while it may
    // be.
    let uniform = Side {
        hint: Some(&h),
        ways: &[Interior::Layers],
    };
    let other = Side {
        hint: None,
        ways: ways_at(depth + 1),
    };
    let (below_side, above_side) = if below {
        (uniform, other)
    } else {
        (other, uniform)
    };
    fit_sides(
        region, moduli, domain, budget, depth, &h, at, below_side, above_side, below,
    )
}

/// How one side of a cut is fitted by [`fit_faces`]: the normal hinted and the ways its
/// interior may be fitted.
struct Side<'a> {
    hint: Option<&'a [i64]>,
    ways: &'static [Interior],
}

/// The domain cut in two along h·x = at, the side h·x ≤ at fitted as `below` says and the side
/// h·x ≥ at + 1 as `above` says, the side below first when `below_first` (the first fitted
/// spends the budget first).
#[allow(clippy::too_many_arguments)]
fn fit_sides(
    region: &WeightRegion,
    moduli: &Moduli,
    domain: &Domain,
    budget: &mut Budget,
    depth: usize,
    h: &[i64],
    at: i64,
    below: Side,
    above: Side,
    below_first: bool,
) -> Option<Fit> {
    let minus: Vec<i64> = h.iter().map(|a| -a).collect();
    let (low, high) = (domain.cut(&minus, -at), domain.cut(h, at + 1));
    let mut fit = Fit::of(Rule::Empty);
    fit.normal = Some(h.to_vec());
    fit.lo = at;
    fit.hi = at + 1;
    fit.cuts.push(format!("{} = {at}", hyperplane(h)));
    let side = |fit: &mut Fit, budget: &mut Budget, on: &Domain, how: &Side| -> Option<Rule> {
        let sub = fit_faces(region, moduli, on, how.hint, budget, depth + 1, how.ways)?;
        Some(fit.absorb(sub))
    };
    let (below_rule, above_rule) = if below_first {
        let b = side(&mut fit, budget, &low, &below)?;
        (b, side(&mut fit, budget, &high, &above)?)
    } else {
        let a = side(&mut fit, budget, &high, &above)?;
        (side(&mut fit, budget, &low, &below)?, a)
    };
    fit.rule = Rule::Cut {
        normal: h.to_vec(),
        at,
        below: Box::new(below_rule),
        above: Box::new(above_rule),
    };
    Some(fit)
}

/// A fan's normals: the cut's h, the side below's n_1 and the side above's n_2.
type FanNormals<'a> = [&'a Vec<i64>; 3];

/// How far from a fan's cut a position must be to count in the choice of the cut: the cut's
/// own boundary (the layers next to it) is fitted as faces, up to the largest threshold.
const FAN_BAND: i64 = 12;

/// The share of the counted positions a fan's sides may leave mixed (1 in this many).
const FAN_MIXED: usize = 200;

/// How many levels of the cut's normal a fan tries (at these quantiles of the sample).
const FAN_LEVELS: usize = 19;

/// Where three patterns meet along a line (misère play of Γ = {e_3, 2e_2, e_1, (1, 1, 2)}:
/// regions bounded by x_3 = x_2 + 3, 2x_2 = 3x_1 − 2 and 2x_3 = 3x_1 + c around the line through
/// (2, 3, 3)), every plane cuts two of the boundaries and no side of a cut has layers of the cut's
/// own normal ([`cut_of`]); but a plane through the line leaves on each side two patterns across
/// one boundary, layers of another normal. Among the normals the region's periods suggest, the
/// cut h·x = t and the sides' normals n_1 (below) and n_2 (above) are those for which the
/// fewest positions of the sample share a layer of their side's normal and a class with a
/// position of the other outcome (away from the faces and the cut); t is the middle of the
/// run of levels where that is fewest. Each side is then fitted by [`fit_faces`] (layers only).
fn fit_fan(
    region: &WeightRegion,
    moduli: &Moduli,
    domain: &Domain,
    budget: &mut Budget,
    depth: usize,
    sample: &ClassedSample,
) -> Option<Fit> {
    let suggested = domain.suggested(&budget.normals);
    if suggested.len() < 2 {
        return None;
    }
    let d = domain.lower.len();
    let free = domain.free();
    let (points, classes, outcomes) = sample;
    // Away from the faces, which are fitted on their own below the largest threshold.
    let far = THRESHOLDS[THRESHOLDS.len() - 1];
    let kept: Vec<(&[i64], u32, bool)> = points
        .chunks_exact(d)
        .zip(classes.iter().zip(outcomes))
        .filter(|(x, _)| free.iter().all(|&i| x[i] >= domain.lower[i] + far))
        .map(|(x, (&c, &p))| (x, c, p))
        .collect();
    let quick: Vec<(&[i64], u32, bool)> = kept
        .iter()
        .copied()
        .step_by((kept.len() / QUICK_SAMPLE).max(1))
        .collect();
    if quick.len() < 64 {
        return None;
    }
    // The levels tried for a cut of normal h.
    let levels = |h: &[i64], on: &[(&[i64], u32, bool)]| -> Vec<i64> {
        let mut all: Vec<i64> = on.iter().map(|(x, _, _)| level(h, x)).collect();
        all.sort_unstable();
        let mut out: Vec<i64> = (1..=FAN_LEVELS)
            .map(|k| all[all.len() * k / (FAN_LEVELS + 1)])
            .collect();
        out.dedup();
        out
    };
    // The mixed positions at each level tried, with the positions counted.
    let scores =
        |h: &[i64], n: [&[i64]; 2], on: &[(&[i64], u32, bool)]| -> Vec<(usize, usize, i64)> {
            let mut out = Vec::new();
            for t in levels(h, on) {
                let side = |x: &[i64]| -> Option<usize> {
                    let l = level(h, x);
                    ((l - t).abs() >= FAN_BAND).then_some(usize::from(l > t))
                };
                let mut states: FxHashMap<(usize, i64, u32), u8> = FxHashMap::default();
                for &(x, c, p) in on {
                    if let Some(s) = side(x) {
                        *states.entry((s, level(n[s], x), c)).or_default() |= 1 << u8::from(p);
                    }
                }
                let (mut mixed, mut counted) = (0, 0);
                for &(x, c, _) in on {
                    if let Some(s) = side(x) {
                        counted += 1;
                        mixed += usize::from(states.get(&(s, level(n[s], x), c)) == Some(&3));
                    }
                }
                out.push((mixed, counted, t));
            }
            out
        };
    // The fewest mixed positions at a level, as a share (mixed, counted) of those counted.
    let least = |scored: &[(usize, usize, i64)]| {
        scored
            .iter()
            .filter(|s| s.1 > 0)
            .map(|s| (s.0, s.1))
            .min_by(|a, b| (a.0 as u128 * b.1 as u128).cmp(&(b.0 as u128 * a.1 as u128)))
            .unwrap_or((1, 1))
    };
    let mut ranked: Vec<((usize, usize), FanNormals)> = Vec::new();
    for h in &suggested {
        for n1 in suggested.iter().filter(|n| *n != h) {
            for n2 in suggested.iter().filter(|n| *n != h) {
                if crate::interrupt::requested() {
                    return None;
                }
                let share = least(&scores(h, [n1, n2], &quick));
                ranked.push((share, [h, n1, n2]));
            }
        }
    }
    ranked.sort_by(|(a, _), (b, _)| (a.0 as u128 * b.1 as u128).cmp(&(b.0 as u128 * a.1 as u128)));
    let mut best: Option<(usize, i64, FanNormals)> = None;
    for &(_, [h, n1, n2]) in ranked.iter().take(3) {
        let scored = scores(h, [n1, n2], &kept);
        let Some(&(fewest, counted, _)) = scored.iter().min_by_key(|s| s.0) else {
            continue;
        };
        if fewest * FAN_MIXED > counted {
            continue;
        }
        // The middle of the longest run of levels with the fewest mixed positions.
        let (mut run, mut longest, mut at) = (0, 0, 0);
        for (k, s) in scored.iter().enumerate() {
            run = if s.0 == fewest { run + 1 } else { 0 };
            if run > longest {
                longest = run;
                at = scored[k + 1 - run + (run - 1) / 2].2;
            }
        }
        if best.as_ref().is_none_or(|b| fewest < b.0) {
            best = Some((fewest, at, [h, n1, n2]));
        }
    }
    let (_, at, [h, n1, n2]) = best?;
    let below = Side {
        hint: Some(n1),
        ways: &[Interior::Layers],
    };
    let above = Side {
        hint: Some(n2),
        ways: &[Interior::Layers],
    };
    fit_sides(
        region, moduli, domain, budget, depth, h, at, below, above, true,
    )
}
