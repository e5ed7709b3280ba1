//! What `stratify` saw when it found nothing: a line p + N·v of the solved region on which the
//! P-positions show no eventual period. Every set with an affine stratification ([GM11]
//! Definition 4.1) meets every such line in an eventually periodic set, so a line that stays
//! aperiodic as the region grows is the shape of a counterexample to [GM09] Conjecture 8.9 (as in
//! Fink's game, whose P-positions (6i, 6j, 1) are those with i AND j = 0). On a finite region it
//! is only evidence: the line may turn periodic further out.

use super::region::WeightRegion;
use crate::algebra::Vector;

/// A line of a solved region whose P-positions show no period repeated twice after a preperiod,
/// neither on the whole line nor on its first half or first three quarters (so a line that turns
/// periodic after a change of phase somewhere along it is not taken for one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AperiodicLine {
    /// Its first point p (p − v lies outside N^d).
    pub start: Vec<i64>,
    /// Its direction v.
    pub direction: Vec<i64>,
    /// Whether p + k·v is a P-position, for k = 0, 1, .. while p + k·v lies in the region.
    pub pattern: Vec<bool>,
    /// The weight bound of the region it was read from.
    pub bound: i64,
}

impl std::fmt::Display for AperiodicLine {
    /// The pattern in full when it is short; otherwise its beginning and its end, each with
    /// its range of k, so that a change of period along the line shows.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const HEAD: usize = 48;
        const TAIL: usize = 24;
        let marks = |range: std::ops::Range<usize>| -> String {
            self.pattern[range]
                .iter()
                .map(|&p| if p { 'P' } else { '.' })
                .collect()
        };
        let len = self.pattern.len();
        let shown = if len <= HEAD + TAIL {
            format!("from k = 0: {}", marks(0..len))
        } else {
            format!(
                "k = 0..{}: {} … k = {}..{}: {}",
                HEAD - 1,
                marks(0..HEAD),
                len - TAIL,
                len - 1,
                marks(len - TAIL..len)
            )
        };
        write!(
            f,
            "the line {} + N{} shows no period that repeats twice after a preperiod, on its {len} points within weight {} nor on their first half or three quarters (P marks a P-position, {shown})",
            Vector::from_i64s(&self.start),
            Vector::from_i64s(&self.direction),
            self.bound,
        )
    }
}

/// The least t + p (then the least p) such that s[k] = s[k + p] for t ≤ k < |s| − p, the
/// preperiod t is at most half of s and the period p repeats at least twice after it
/// (t + 2p ≤ |s|), or None.
pub(super) fn eventual_period(s: &[bool]) -> Option<(usize, usize)> {
    let len = s.len();
    let mut best: Option<(usize, usize)> = None;
    for p in 1..=len / 2 {
        // The preperiod p asks for: one past the last mismatch at distance p.
        let t = (0..len - p)
            .rev()
            .find(|&k| s[k] != s[k + p])
            .map_or(0, |k| k + 1);
        if 2 * t <= len && t + 2 * p <= len && best.is_none_or(|(bt, bp)| t + p < bt + bp) {
            best = Some((t, p));
        }
    }
    best
}

/// The least number of points a line must have to count as evidence.
const MIN_POINTS: usize = 48;

/// The most line points read in all, so the search stays a small share of a round.
const MAX_POINTS: usize = 8_000_000;

/// The longest line of the region, along a coordinate axis or a direction e_i + e_j, whose
/// P-positions show no eventual period (see [`eventual_period`]); None when every line read shows
/// one, or when interrupted. Lines are read longest first, up to [`MAX_POINTS`] points.
pub(super) fn aperiodic_line(region: &WeightRegion, ell: &[i64]) -> Option<AperiodicLine> {
    let d = ell.len();
    let mut directions: Vec<Vec<i64>> = (0..d)
        .map(|i| {
            let mut v = vec![0; d];
            v[i] = 1;
            v
        })
        .collect();
    for i in 0..d {
        for j in i + 1..d {
            let mut v = vec![0; d];
            v[i] = 1;
            v[j] = 1;
            directions.push(v);
        }
    }
    let mut read = 0usize;
    let mut best: Option<AperiodicLine> = None;
    for v in &directions {
        let step = region.weight(v);
        // Lines of fewer than MIN_POINTS points start above this weight.
        let cap = region.bound() - step * (MIN_POINTS as i64 - 1);
        if cap < 0 {
            continue;
        }
        // The first points of the lines (some coordinate in v's support is 0), lightest first
        // so longest first: a line no longer than the best ends the direction.
        let support: Vec<usize> = (0..d).filter(|&i| v[i] != 0).collect();
        let mut stopped = false;
        for w in 0..=cap {
            let go = region.for_each_of_weight(w, &support, &mut |p| {
                if read > MAX_POINTS || crate::interrupt::requested() {
                    stopped = true;
                    return false;
                }
                let points = ((region.bound() - w) / step + 1) as usize;
                if best.as_ref().is_some_and(|b| b.pattern.len() >= points) {
                    return false;
                }
                let mut pattern = Vec::with_capacity(points);
                let mut x = p.to_vec();
                while let Some(at) = region.index(&x) {
                    pattern.push(region.get(at));
                    for (a, b) in x.iter_mut().zip(v) {
                        *a += b;
                    }
                }
                read += pattern.len();
                let len = pattern.len();
                if [len / 2, 3 * len / 4, len]
                    .iter()
                    .all(|&k| eventual_period(&pattern[..k]).is_none())
                {
                    best = Some(AperiodicLine {
                        start: p.to_vec(),
                        direction: v.clone(),
                        pattern,
                        bound: region.bound(),
                    });
                }
                true
            });
            if stopped {
                return best;
            }
            if !go {
                break;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_repeat_twice_after_the_preperiod() {
        let s = |t: &str| t.chars().map(|c| c == 'P').collect::<Vec<bool>>();
        assert_eq!(eventual_period(&s("......")), Some((0, 1)));
        assert_eq!(eventual_period(&s("P.P.P.")), Some((0, 2)));
        assert_eq!(eventual_period(&s("PP..P..P..P.")), Some((1, 3)));
        // The powers of two: constant after 32, but that is past half the line.
        let powers: String = (0..80)
            .map(|k: u32| if k.is_power_of_two() { 'P' } else { '.' })
            .collect();
        assert_eq!(eventual_period(&s(&powers[..40])), None);
        let few: String = (0..40)
            .map(|k: u32| {
                if k.is_power_of_two() && k < 9 {
                    'P'
                } else {
                    '.'
                }
            })
            .collect();
        assert_eq!(eventual_period(&s(&few)), Some((9, 1)));
        // A pattern whose only period is its length.
        assert_eq!(eventual_period(&s("P..P.PP...P.PPP.")), None);
    }

    #[test]
    fn an_aperiodic_line_is_found_and_a_periodic_region_has_none() {
        // Members: (i, j) with i AND j = 0 (a Sierpiński pattern): the line (i, 7) is periodic
        // with period 8, but lines (i, j) with j = 2^m − 1 large show no repeated period.
        let ell = [1, 1];
        let mut region = WeightRegion::empty(&ell, 200);
        let mut periodic = WeightRegion::empty(&ell, 200);
        let mut members = Vec::new();
        region.for_each(|x| members.push(x.to_vec()));
        for x in &members {
            if x[0] & x[1] == 0 {
                region.insert(x);
            }
            if (x[0] + 2 * x[1]) % 5 == 1 {
                periodic.insert(x);
            }
        }
        let line = aperiodic_line(&region, &ell).expect("an aperiodic line");
        let mut x = line.start.clone();
        for &p in &line.pattern {
            assert_eq!(p, x[0] & x[1] == 0, "{x:?}");
            x[0] += line.direction[0];
            x[1] += line.direction[1];
        }
        assert!(line.pattern.len() >= MIN_POINTS);
        assert!(line.to_string().contains("no period"), "{line}");
        assert_eq!(aperiodic_line(&periodic, &ell), None);
    }
}
