//! A cheap refutation of a guess before its symbolic check: the positions a little heavier than
//! the solved region are solved exactly, and the lightest one where the guess and the solver
//! disagree refutes the guess at once. A wrong guess usually fails just past the region it was
//! read from, where `verify` would find the same counterexample only after cutting the whole
//! board by every translate of the guess (seconds for a few hundred pieces). It never certifies:
//! a guess that agrees goes on to `verify`.

use crate::algebra::{Integer, StratifiedSet, Vector};
use crate::game::solver::{Region, Solution, SolveError, SolveOptions};
use crate::game::LatticeGame;

use super::region::WeightRegion;

/// At most this many membership tests of a guess's pieces per look-ahead (points × pieces).
const WORK: u64 = 20_000_000;

/// At most this many positions are solved ahead.
const MAX_POSITIONS: u64 = 2_000_000;

/// The positions past a solved region of weight ≤ `bound`, solved once per round on first use.
pub(super) struct LookAhead<'a> {
    game: &'a LatticeGame,
    ell: &'a [i64],
    bound: i64,
    /// The positions of the solved region (to estimate how many lie ahead).
    solved_len: u64,
    ahead: Option<WeightRegion>,
    /// Set once solving ahead failed or was refused: no more look-ahead this round.
    off: bool,
}

impl<'a> LookAhead<'a> {
    pub(super) fn new(game: &'a LatticeGame, ell: &'a [i64], region: &WeightRegion) -> Self {
        LookAhead {
            game,
            ell,
            bound: region.bound(),
            solved_len: region.len().max(1),
            ahead: None,
            off: false,
        }
    }

    /// The heaviest weight w ≤ 3·bound/2 whose region holds at most `positions` points, by the
    /// estimate len · (w / bound)^d; `None` when not even bound + 1 fits.
    fn reach(&self, positions: u64) -> Option<i64> {
        let d = self.ell.len() as u32;
        let bound = self.bound.max(1) as u128;
        let estimate = |w: i64| -> u128 {
            let ratio_num = (w as u128).checked_pow(d).unwrap_or(u128::MAX);
            let ratio_den = bound.checked_pow(d).unwrap_or(u128::MAX).max(1);
            (self.solved_len as u128).saturating_mul(ratio_num) / ratio_den
        };
        let most = self.bound + (self.bound / 2).max(2);
        let mut w = self.bound;
        while w < most && estimate(w + 1) <= positions as u128 {
            w += 1;
        }
        (w > self.bound).then_some(w)
    }

    /// The lightest position of weight in (bound, reach] where `set` and the P-positions differ,
    /// with its weight; `None` when they agree there (or nothing could be looked at).
    pub(super) fn refute(
        &mut self,
        set: &StratifiedSet,
    ) -> Result<Option<(Vec<i64>, i64)>, SolveError> {
        let pieces = set.cover().len().max(1) as u64;
        self.refute_by(pieces, &|x| set.contains(&Vector::from_i64s(x)))
    }

    /// As [`LookAhead::refute`], for a guess decided by `contains`, which costs about as much as
    /// `cost` membership tests of a piece.
    pub(super) fn refute_by(
        &mut self,
        cost: u64,
        contains: &dyn Fn(&[i64]) -> bool,
    ) -> Result<Option<(Vec<i64>, i64)>, SolveError> {
        if self.off {
            return Ok(None);
        }
        let Some(reach) = self.reach((WORK / cost.max(1)).min(MAX_POSITIONS)) else {
            return Ok(None);
        };
        if self.ahead.as_ref().is_none_or(|a| a.bound() < reach) {
            let solution = Solution::solve(
                self.game,
                &Region::Weight(Integer::from(reach)),
                SolveOptions {
                    functional: Some(Vector::from_i64s(self.ell)),
                    ..SolveOptions::default()
                },
            );
            match solution {
                Ok(sol) => match WeightRegion::from_solution(&sol, self.ell, reach) {
                    Some(region) => self.ahead = Some(region),
                    None => return Err(SolveError::Interrupted),
                },
                Err(SolveError::Interrupted) => return Err(SolveError::Interrupted),
                // Too large, or anything else: leave it to `verify`.
                Err(_) => {
                    self.off = true;
                    return Ok(None);
                }
            }
        }
        let Some(ahead) = self.ahead.as_ref() else {
            return Ok(None);
        };
        let mut best: Option<(Vec<i64>, i64)> = None;
        let mut seen = 0u64;
        let mut stopped = false;
        ahead.for_each(|x| {
            if stopped {
                return;
            }
            let w = ahead.weight(x);
            if w <= self.bound || w > reach || best.as_ref().is_some_and(|(_, bw)| w >= *bw) {
                return;
            }
            seen += 1;
            if seen.is_multiple_of(4096) && crate::interrupt::requested() {
                stopped = true;
                return;
            }
            let p = ahead.is_p(x).unwrap_or(false);
            if contains(x) != p {
                best = Some((x.to_vec(), w));
            }
        });
        if stopped {
            return Err(SolveError::Interrupted);
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algebra::basic_set::BasicSet;
    use crate::game::{GameBoard, RuleSet};

    fn v(x: &[i64]) -> Vector {
        Vector::from_i64s(x)
    }

    /// Misère Nim with heaps of size ≤ 2 ([GM09] Example 8.2), solved to weight 10 under
    /// ℓ = (1, 2) (positive on the moves).
    fn misere_nim() -> (LatticeGame, WeightRegion) {
        let rules = RuleSet::new(vec![v(&[1, 0]), v(&[0, 1]), v(&[-1, 1])]).expect("moves");
        let game = LatticeGame::new(rules, GameBoard::misere(2).expect("d = 2")).expect("a game");
        let sol = Solution::solve(
            &game,
            &Region::Weight(Integer::from(10)),
            SolveOptions {
                functional: Some(v(&[1, 2])),
                ..SolveOptions::default()
            },
        )
        .expect("solved");
        let region = WeightRegion::from_solution(&sol, &[1, 2], 10).expect("not interrupted");
        (game, region)
    }

    #[test]
    fn a_guess_wrong_past_the_region_is_refuted_at_its_lightest_failure_and_a_right_one_is_not() {
        let (game, region) = misere_nim();
        let ell = [1, 2];
        let mut ahead = LookAhead::new(&game, &ell, &region);
        // [GM09] Example 8.2: P = ((1, 0) + N{(2, 0)}) ⊎ ((0, 2) + 2N^2).
        let right = StratifiedSet::from_disjoint(
            2,
            vec![
                BasicSet::simplicial(&v(&[1, 0]), &[v(&[2, 0])]),
                BasicSet::simplicial(&v(&[0, 2]), &[v(&[2, 0]), v(&[0, 2])]),
            ],
        )
        .expect("disjoint");
        assert_eq!(ahead.refute(&right).expect("runs"), None);
        // The P-positions of the region alone: right on it, wrong at the lightest P-position
        // past it, (11, 0) (the second piece has even weights only, the first lies on y = 0).
        let mut points = Vec::new();
        region.for_each(|x| {
            if region.is_p(x) == Some(true) {
                points.push(v(x));
            }
        });
        let finite = StratifiedSet::from_points(2, &points);
        assert_eq!(
            ahead.refute(&finite).expect("runs"),
            Some((vec![11, 0], 11))
        );
        // An N-position past the region added to the right set: (12, 0) (even heaps of size 1
        // only) is refuted there.
        let extra = right
            .union(&StratifiedSet::from_points(2, &[v(&[12, 0])]))
            .expect("a union");
        assert_eq!(ahead.refute(&extra).expect("runs"), Some((vec![12, 0], 12)));
    }
}
