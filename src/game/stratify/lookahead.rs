//! A cheap refutation of a guess before its symbolic check: the positions a little heavier than
//! the solved region are solved exactly, and the lightest one where the guess and the solver
//! disagree refutes the guess at once. A wrong guess usually fails just past the region it was
//! read from, where `verify` would find the same counterexample only after cutting the whole
//! board by every translate of the guess (seconds for a few hundred pieces). It never certifies:
//! a guess that agrees goes on to `verify`.
//!
//! The positions past the region are solved from it, weight by weight: every option of a
//! position is lighter (ℓ is positive on the moves), so a shell of weights (W, W'] needs only the
//! region and the shell's lighter part, and costs its own size, not the whole region's again.
//! Before, the whole region was solved again, so regions past two million positions (weight
//! about 70 in d = 4) had no look-ahead at all: a tree of cuts on a region of weight 127 in
//! misère play of Γ = {2e_4, 2e_3, 2e_2, (2, −1, 1, 1), 2e_1}, wrong at weight 131, cost a 10 s
//! `verify`. Past such regions the look-ahead is held to a level or two (a level of weight 127
//! in d = 4 holds about 340,000 positions), which a right guess pays before its `verify`.

use crate::algebra::{Integer, StratifiedSet, Vector};
use crate::game::solver::{defeated_ideal, Defeated, Region, Solution, SolveError, SolveOptions};
use crate::game::LatticeGame;

use super::region::WeightRegion;

/// The work of a look-ahead, in lookups of a guess's rule (a layered guess's class and pattern,
/// about 50 ns): at most this much where the whole region is solved again ...
const WORK: u64 = 160_000_000;

/// ... and at most this much past a larger region (with solving them, about a tenth of a
/// second: at two million, the look-ahead of a right guess past a region of weight 95 in d = 4
/// took a third of a second, and the sweeps certified nothing more).
const SHELL_WORK: u64 = 500_000;

/// A membership test of one piece of a stratified set, in lookups of a rule: in machine integers
/// ([`StratifiedSet::membership_test`]) 23–28 ns a piece, measured on covers of 178 and 261
/// pieces (the exact test took 120–130 ns).
const PIECE_TEST: u64 = 1;

/// At most this many positions are solved ahead.
const MAX_POSITIONS: u64 = 2_000_000;

/// The positions past a solved region of weight ≤ `bound`, solved once per round on first use.
pub(super) struct LookAhead<'a> {
    game: &'a LatticeGame,
    ell: &'a [i64],
    region: &'a WeightRegion,
    bound: i64,
    /// The positions of the solved region (to estimate how many lie ahead).
    solved_len: u64,
    /// The positions of weight in (bound, `solved`], once looked at (those of weight ≤ bound are
    /// read from `region`; solved by [`Solution::solve`] instead, all of them).
    ahead: Option<WeightRegion>,
    /// The heaviest weight solved ahead.
    solved: i64,
    /// What solving past the region needs, once read (None inside when it cannot be).
    shell: Option<Option<Shell>>,
    /// Set once solving ahead failed or was refused: no more look-ahead this round.
    off: bool,
}

/// What solving a shell past the region needs: the moves as machine integers, each of positive
/// weight, and the defeated positions.
struct Shell {
    moves: Vec<Vec<i64>>,
    /// ℓ of each move.
    steps: Vec<i64>,
    defeated: Defeated,
    /// The heaviest ℓ on D (no position heavier is defeated, and D's lookup is a hash).
    heaviest_defeated: i64,
}

impl<'a> LookAhead<'a> {
    /// The weight up to which the region it looks past is solved.
    pub(super) fn bound(&self) -> i64 {
        self.region.bound()
    }

    pub(super) fn new(game: &'a LatticeGame, ell: &'a [i64], region: &'a WeightRegion) -> Self {
        LookAhead {
            game,
            ell,
            region,
            bound: region.bound(),
            solved_len: region.len().max(1),
            ahead: None,
            solved: region.bound(),
            shell: None,
            off: false,
        }
    }

    /// The heaviest weight w ≤ 3·bound/2 to look ahead to for a guess whose membership test costs
    /// `cost` lookups of a rule: where the whole region of weight w fits [`WORK`] (and at most
    /// [`MAX_POSITIONS`] positions), that w, as when the region was solved again whole; on larger
    /// regions, the w whose positions past the region fit [`SHELL_WORK`]. `None` when not even
    /// bound + 1 fits.
    /// At the whole work, looking past a region of eighty thousand positions took 0.4 s for a
    /// cover of 306 pieces that was right, where `verify` took 0.3 s (misère play of
    /// Γ = {(−2, 0, 0, 1), (−2, 0, 1, 0), (−2, 1, −2, 0), e_4, e_1} with two defeated positions).
    fn reach(&self, cost: u64) -> Option<i64> {
        let d = self.ell.len() as u32;
        let bound = self.bound.max(1) as u128;
        let estimate = |w: i64| -> u128 {
            let ratio_num = (w as u128).checked_pow(d).unwrap_or(u128::MAX);
            let ratio_den = bound.checked_pow(d).unwrap_or(u128::MAX).max(1);
            (self.solved_len as u128)
                .saturating_mul(ratio_num)
                .checked_div(ratio_den)
                .unwrap_or(u128::MAX)
        };
        let most = self.bound + (self.bound / 2).max(2);
        let heaviest = |fits: &dyn Fn(u128) -> bool| {
            let mut w = self.bound;
            while w < most && fits(estimate(w + 1)) {
                w += 1;
            }
            (w > self.bound).then_some(w)
        };
        let whole = u128::from((WORK / cost.max(1)).min(MAX_POSITIONS));
        let shell = u128::from((SHELL_WORK / cost.max(1)).min(MAX_POSITIONS));
        let solved = u128::from(self.solved_len);
        heaviest(&|n| n <= whole).or_else(|| heaviest(&|n| n.saturating_sub(solved) <= shell))
    }

    /// The moves and the defeated positions, when every move has positive weight, its entries
    /// fit machine integers and D can be listed; None otherwise (the shell is then solved with
    /// the whole region again).
    fn shell(&self) -> Option<Shell> {
        let moves = super::moves_of(self.game)?;
        let weight = |m: &Vec<i64>| -> Option<i64> {
            m.iter()
                .zip(self.ell)
                .try_fold(0i64, |w, (a, b)| w.checked_add(a.checked_mul(*b)?))
        };
        let steps: Vec<i64> = moves.iter().map(weight).collect::<Option<_>>()?;
        if steps.iter().any(|&w| w <= 0) {
            return None;
        }
        let defeated = defeated_ideal(self.game, self.ell).ok()?;
        let heaviest_defeated = defeated
            .sorted()
            .iter()
            .map(weight)
            .try_fold(i64::MIN, |most, w| Some(most.max(w?)))?;
        Some(Shell {
            moves,
            steps,
            defeated,
            heaviest_defeated,
        })
    }

    /// Solves the positions of weight w (just past those solved) from the region and those
    /// solved ahead; false when interrupted.
    fn solve_level(region: &WeightRegion, shell: &Shell, ahead: &mut WeightRegion, w: i64) -> bool {
        let d = region.dim();
        let mut y = vec![0i64; d];
        let mut seen = 0u64;
        let mut found: Vec<i64> = Vec::new();
        let walked = ahead.for_each_of_weight(w, &[], &mut |x| {
            seen += 1;
            if seen.is_multiple_of(4096) && crate::interrupt::requested() {
                return false;
            }
            if w <= shell.heaviest_defeated && shell.defeated.contains(x) {
                return true;
            }
            // In P when no option is: an option off N^d or in D is no move.
            let p = !shell.moves.iter().zip(&shell.steps).any(|(m, step)| {
                for ((yi, &xi), &mi) in y.iter_mut().zip(x).zip(m) {
                    *yi = xi - mi;
                }
                if y.iter().any(|&a| a < 0) {
                    return false;
                }
                let lighter = match region.is_p(&y) {
                    Some(p) => p,
                    None => ahead.is_p(&y) == Some(true),
                };
                lighter && (w - step > shell.heaviest_defeated || !shell.defeated.contains(&y))
            });
            if p {
                found.extend_from_slice(x);
            }
            true
        });
        for x in found.chunks_exact(d) {
            ahead.insert(x);
        }
        walked
    }

    /// The positions ahead, solved up to weight w at least (at most the largest reach, that of
    /// a guess costing one lookup); where they cannot be solved from the region, the whole
    /// region solved again up to `reach` (when small enough; None when not).
    fn solved_to(&mut self, w: i64, reach: i64) -> Result<Option<&WeightRegion>, SolveError> {
        if self.shell.is_none() {
            self.shell = Some(self.shell());
        }
        let Some(Some(shell)) = &self.shell else {
            if !self.off && self.ahead.as_ref().is_none_or(|a| a.bound() < w) {
                self.solve_whole(reach)?;
            }
            return Ok(self.ahead.as_ref());
        };
        if self.ahead.is_none() {
            let top = self.reach(1).unwrap_or(w).max(w);
            self.ahead = Some(WeightRegion::empty(self.ell, top));
        }
        let Some(ahead) = self.ahead.as_mut() else {
            return Ok(None);
        };
        while self.solved < w.min(ahead.bound()) {
            if !LookAhead::solve_level(self.region, shell, ahead, self.solved + 1) {
                return Err(SolveError::Interrupted);
            }
            self.solved += 1;
        }
        Ok(self.ahead.as_ref())
    }

    /// The lightest position of weight in (bound, reach] where `set` and the P-positions differ,
    /// with its weight; `None` when they agree there (or nothing could be looked at).
    pub(super) fn refute(
        &mut self,
        set: &StratifiedSet,
    ) -> Result<Option<(Vec<i64>, i64)>, SolveError> {
        let pieces = set.cover().len().max(1) as u64;
        let test = set.membership_test();
        self.refute_by(pieces * PIECE_TEST, &|x| test.contains_i64(x))
    }

    /// As [`LookAhead::refute`], for a guess decided by `contains`, which costs about as much as
    /// `cost` lookups of a rule.
    pub(super) fn refute_by(
        &mut self,
        cost: u64,
        contains: &dyn Fn(&[i64]) -> bool,
    ) -> Result<Option<(Vec<i64>, i64)>, SolveError> {
        if self.off {
            return Ok(None);
        }
        let Some(reach) = self.reach(cost) else {
            return Ok(None);
        };
        // Weight by weight, each solved when first needed, lexicographically within one: the
        // first difference is the lightest, and a guess wrong just past the region costs only
        // the lightest weights.
        let mut seen = 0u64;
        for w in self.bound + 1..=reach {
            let Some(ahead) = self.solved_to(w, reach)? else {
                return Ok(None);
            };
            if ahead.bound() < w {
                break;
            }
            let mut best: Option<(Vec<i64>, i64)> = None;
            let mut stopped = false;
            ahead.for_each_of_weight(w, &[], &mut |x| {
                seen += 1;
                if seen.is_multiple_of(4096) && crate::interrupt::requested() {
                    stopped = true;
                    return false;
                }
                if contains(x) != (ahead.is_p(x) == Some(true)) {
                    best = Some((x.to_vec(), w));
                    return false;
                }
                true
            });
            if stopped {
                return Err(SolveError::Interrupted);
            }
            if best.is_some() {
                return Ok(best);
            }
        }
        Ok(None)
    }

    /// Solves every position up to `reach` (when the shell cannot be solved from the region
    /// alone); leaves the look-ahead off when that is too large or fails.
    fn solve_whole(&mut self, reach: i64) -> Result<(), SolveError> {
        if self.solved_len >= MAX_POSITIONS {
            self.off = true;
            return Ok(());
        }
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
            Err(_) => self.off = true,
        }
        Ok(())
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

    #[test]
    fn the_positions_past_a_region_solved_from_it_are_those_solved_from_scratch() {
        // Generalized play whose defeated positions lie past the region (weights 6 and 7), so
        // the shell holds some of D, and a move that is not a unit vector.
        use crate::algebra::{Cone, Polyhedron};
        let rules = RuleSet::new(vec![
            v(&[1, 0, 0]),
            v(&[0, 2, 0]),
            v(&[0, 0, 1]),
            v(&[1, -1, 1]),
        ])
        .expect("moves");
        let board = GameBoard::new(
            Polyhedron::Cone(Cone::orthant(3).expect("d = 3")),
            vec![v(&[3, 2, 1]), v(&[0, 4, 3])],
        )
        .expect("a board");
        let game = LatticeGame::new(rules, board).expect("a game");
        let ell = [1, 1, 1];
        let region = WeightRegion::solved(&game, &ell, 4);
        let whole = WeightRegion::solved(&game, &ell, 9);
        let mut ahead = LookAhead::new(&game, &ell, &region);
        let shell = ahead.shell().expect("moves of positive weight");
        assert!(shell.defeated.contains(&[0, 4, 3]) && shell.defeated.contains(&[2, 2, 1]));
        let past = ahead
            .solved_to(9, 9)
            .expect("not interrupted")
            .expect("solved from the region");
        assert_eq!(past.bound(), 9);
        let (mut compared, mut in_p) = (0, 0);
        whole.for_each(|x| {
            if whole.weight(x) > 4 {
                compared += 1;
                let p = whole.is_p(x) == Some(true);
                in_p += usize::from(p);
                assert_eq!(past.is_p(x) == Some(true), p, "at {x:?}");
            }
        });
        assert_eq!(compared, 220 - 35);
        assert!(in_p > 10, "{in_p} P-positions past the region");
    }
}
