//! Answers about positions of a misère sum of heaps through its proved quotient (Plambeck–Siegel;
//! [Guo11] §8): a position G is a P-position exactly when Φ(G) lies in the P-portion, and
//! Φ(G) = Π Φ(h)^(count of h), each power read off the eventually periodic powers of Φ(h). So a
//! position with 10^9 heaps, or 10^6 heaps of many sizes, costs a few lookups per heap size,
//! where a search would explore every position below it.
//!
//! A quotient of the heaps 1..=k decides every position whose heaps are all at most k (the
//! options of a heap are smaller heaps), so a quotient proved only part of the way still answers
//! the positions it covers; a final one (Φ proved periodic) answers every heap size.

use super::{quotients_by_heap, HeapSystem, MisereQuotient, Powers, QuotientError, QuotientLimits};
use crate::algebra::monoid::Element;
use crate::algebra::{Integer, Vector};
use crate::game::solver::Outcome;
use crate::game::LatticeGame;

/// A proved quotient read as an oracle for the positions of a lattice game that is a sum of heaps
/// in misère play (coordinates are counts of heaps of a type), or of a code (positions given as
/// heap sizes).
#[derive(Clone, Debug)]
pub struct QuotientOracle {
    quotient: MisereQuotient,
    /// For a lattice game, the heap type of each coordinate (1-based, as the quotient numbers
    /// them); for a code, None.
    heap_of: Option<Vec<usize>>,
    /// The powers of Φ(h) for each heap h = 0..=n of the quotient, until they repeat.
    powers: Vec<Powers>,
}

impl QuotientOracle {
    /// The oracle of a quotient; `heap_of` gives the heap type of each coordinate of a lattice
    /// game (as [`super::HeapSystem::lattice_heaps`]).
    pub fn new(quotient: MisereQuotient, heap_of: Option<Vec<usize>>) -> QuotientOracle {
        let mul = |x: Element, y: Element| quotient.monoid.mul(x, y);
        let powers = quotient
            .heaps
            .iter()
            .map(|&x| Powers::of(&mul, x))
            .collect();
        QuotientOracle {
            quotient,
            heap_of,
            powers,
        }
    }

    /// The quotient.
    pub fn quotient(&self) -> &MisereQuotient {
        &self.quotient
    }

    /// The largest heap the quotient decides (`None`: every heap, Φ being final).
    pub fn reach(&self) -> Option<usize> {
        match self.quotient.final_period {
            Some(_) => None,
            None => Some(self.quotient.n),
        }
    }

    /// Φ(h)^c for a heap h it covers and any count c ≥ 0.
    fn power(&self, h: usize, c: &Integer) -> Option<Element> {
        let h = if h <= self.quotient.n {
            h
        } else {
            let (n0, p) = self.quotient.final_period?;
            n0 + (h - n0) % p
        };
        let powers = &self.powers[h];
        let c = match c.to_i64() {
            Some(c) if c >= 0 => c as u64,
            Some(_) => return None,
            None if c.signum() > 0 => {
                // A count past 2^63: only its residue beyond the index matters.
                let t = powers.index as i64;
                let p = Integer::from(powers.period() as i64);
                let r = (c - &Integer::from(t)).mod_floor(&p)?.to_i64()?;
                (t + r) as u64
            }
            None => return None,
        };
        Some(powers.get(c))
    }

    /// Φ of a lattice point (counts per coordinate); `None` when a coordinate with a heap is
    /// of a type past the quotient's reach, or the point has another dimension or a negative
    /// coordinate.
    pub fn image_of_point(&self, point: &Vector) -> Option<Element> {
        let heap_of = self.heap_of.as_ref()?;
        if point.dim() != heap_of.len() {
            return None;
        }
        let mut x = 0;
        for (c, &h) in point.0.iter().zip(heap_of) {
            if c.is_zero() {
                continue;
            }
            x = self.quotient.monoid.mul(x, self.power(h, c)?);
        }
        Some(x)
    }

    /// Φ of a position given by its heap sizes (any number of heaps: counted first, then one
    /// power per distinct size); `None` when a heap is past the quotient's reach.
    pub fn image_of_heaps(&self, heaps: &[usize]) -> Option<Element> {
        let mut sorted = heaps.to_vec();
        sorted.sort_unstable();
        let mut x = 0;
        let mut i = 0;
        while i < sorted.len() {
            let h = sorted[i];
            let j = i + sorted[i..].iter().take_while(|&&k| k == h).count();
            if h > 0 {
                let c = Integer::from((j - i) as i64);
                x = self.quotient.monoid.mul(x, self.power(h, &c)?);
            }
            i = j;
        }
        Some(x)
    }

    /// The outcome of a lattice point of the game on N^d with the origin defeated (misère play):
    /// off the board with a negative coordinate, defeated at the origin, and otherwise P exactly
    /// when Φ(p) ∈ P. `None` when the quotient does not cover the point.
    pub fn outcome_of_point(&self, point: &Vector) -> Option<Outcome> {
        if point.0.iter().any(|c| c.signum() < 0) {
            return Some(Outcome::OffBoard);
        }
        if point.0.iter().all(Integer::is_zero) {
            return Some(Outcome::Defeated);
        }
        let x = self.image_of_point(point)?;
        Some(if self.quotient.p_portion[x as usize] {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    /// The outcome of a position given by its heap sizes (the empty position: N, as the player
    /// to move has no move in misère play and wins).
    pub fn outcome_of_heaps(&self, heaps: &[usize]) -> Option<Outcome> {
        let x = self.image_of_heaps(heaps)?;
        Some(if self.quotient.p_portion[x as usize] {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    /// The moves γ (of `moves`) from a lattice point p on the board to a P-position: p − γ on
    /// the board (no negative coordinate, not the origin) with Φ(p − γ) ∈ P. `None` when the
    /// quotient does not cover p (its options have smaller heaps, so are covered too).
    pub fn winning_moves_at_point(&self, moves: &[Vector], point: &Vector) -> Option<Vec<Vector>> {
        self.image_of_point(point)?;
        let mut out = Vec::new();
        for m in moves {
            let target = point.sub(m);
            if self.outcome_of_point(&target) == Some(Outcome::P) {
                out.push(m.clone());
            }
        }
        Some(out)
    }
}

/// What is known of a lattice game that is a sum of heaps in misère play, for answering its
/// positions: its heap system, the largest quotient proved so far (heap types 1..=k in the
/// system's order, where options come first) and why a larger one was not.
#[derive(Clone, Debug)]
pub struct HeapSumAnswers {
    system: HeapSystem,
    oracle: Option<QuotientOracle>,
    /// The bound a proof stopped at, and why.
    stopped: Option<(usize, QuotientError)>,
}

impl HeapSumAnswers {
    /// `None` for a game that is not a sum of heaps in misère play.
    pub fn of_game(game: &LatticeGame) -> Option<HeapSumAnswers> {
        Some(HeapSumAnswers {
            system: HeapSystem::from_lattice_game(game)?,
            oracle: None,
            stopped: None,
        })
    }

    /// The largest heap type (in the system's numbering) with a heap in the point; 0 for none.
    /// `None` for a point of another dimension or with a negative coordinate.
    pub fn bound_of(&self, point: &Vector) -> Option<usize> {
        let heap_of = self.system.lattice_heaps.as_ref()?;
        if point.dim() != heap_of.len() || point.0.iter().any(|c| c.signum() < 0) {
            return None;
        }
        Some(
            point
                .0
                .iter()
                .zip(heap_of)
                .filter(|(c, _)| !c.is_zero())
                .map(|(_, &h)| h)
                .max()
                .unwrap_or(0),
        )
    }

    /// The oracle, once a quotient reaching `bound` is proved: it is proved now if need be (heap
    /// by heap, `on_step` told of each), unless an earlier proof stopped at or below `bound`.
    /// `Err` only when the user interrupted; a deadline or a limit leaves `None` and the reason
    /// in [`HeapSumAnswers::why_not`].
    pub fn oracle_for(
        &mut self,
        bound: usize,
        limits: QuotientLimits,
        on_step: &mut dyn FnMut(&super::HeapStep),
    ) -> Result<Option<&QuotientOracle>, QuotientError> {
        let reached = |o: &QuotientOracle| o.reach().is_none_or(|n| n >= bound);
        if self.oracle.as_ref().is_some_and(reached) {
            return Ok(self.oracle.as_ref());
        }
        if self.stopped.as_ref().is_some_and(|(k, _)| *k <= bound) {
            return Ok(None);
        }
        let bound = bound.clamp(1, self.system.max_heap());
        let run = quotients_by_heap(&self.system, bound, limits, true, on_step);
        if let Some(q) = run.quotient {
            if self.oracle.as_ref().is_none_or(|o| o.quotient.n < q.n) {
                self.oracle = Some(QuotientOracle::new(q, self.system.lattice_heaps.clone()));
            }
        }
        if let Some(e) = run.stopped {
            if matches!(e, QuotientError::Interrupted { .. }) && crate::interrupt::user_requested()
            {
                return Err(e);
            }
            let at = match &e {
                QuotientError::Interrupted { heap }
                | QuotientError::TooLarge { heap, .. }
                | QuotientError::NotProved { heap, .. } => *heap,
            };
            self.stopped = Some((at.max(1), e));
            return Ok(None);
        }
        Ok(self.oracle.as_ref().filter(|o| reached(o)))
    }

    /// Why no quotient reaching further was proved, when one was tried.
    pub fn why_not(&self) -> Option<String> {
        let (_, e) = self.stopped.as_ref()?;
        let so_far = match &self.oracle {
            Some(o) => format!(
                "; proved for heap types up to {} (|Q| = {})",
                o.quotient.n,
                o.quotient.order()
            ),
            None => String::new(),
        };
        Some(match e {
            QuotientError::Interrupted { heap } => {
                format!("no misère quotient was proved for heap type {heap} within the time allowed{so_far}")
            }
            other => format!("no misère quotient: {other}{so_far}"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::solver::MemoSolver;

    fn oracle_of(game: &crate::game::LatticeGame) -> QuotientOracle {
        let system = HeapSystem::from_lattice_game(game).unwrap();
        let run = quotients_by_heap(
            &system,
            system.max_heap(),
            QuotientLimits::default(),
            true,
            &mut |_| {},
        );
        assert!(run.stopped.is_none(), "{:?}", run.stopped);
        let mut q = run.quotient.unwrap();
        q.extend_to(&system, system.max_heap());
        QuotientOracle::new(q, system.lattice_heaps.clone())
    }

    /// Outcomes and winning moves through the quotient agree with the memo solver on every
    /// position of a box, for misère Nim with heaps up to 3 and misère Kayles with heaps up to 5
    /// (lattice games from the code, coordinates the counts of each heap size).
    #[test]
    fn the_oracle_agrees_with_the_memo_solver() {
        for (code, n, side) in [("0.333", 3, 5), ("0.77", 5, 3), ("0.07", 6, 3)] {
            let code = crate::game::heap::HeapCode::parse(code).unwrap();
            let game = crate::game::heap::HeapGame::from_code(&code, n)
                .lattice_game(true)
                .unwrap();
            let oracle = oracle_of(&game);
            let mut memo = MemoSolver::new(&game).unwrap();
            let moves: Vec<Vector> = game.rules().moves().to_vec();
            let d = game.dim();
            for p in crate::algebra::testing::box_coordinates(d, 0, side) {
                let point = Vector::from_i64s(&p);
                let expected = memo.outcome(&p).unwrap();
                assert_eq!(oracle.outcome_of_point(&point), Some(expected), "at {p:?}");
                if expected == Outcome::N {
                    let winning = oracle.winning_moves_at_point(&moves, &point).unwrap();
                    assert!(!winning.is_empty(), "{p:?}");
                    for m in winning {
                        let q: Vec<i64> = point
                            .sub(&m)
                            .0
                            .iter()
                            .map(|c| c.to_i64().unwrap())
                            .collect();
                        assert_eq!(memo.outcome(&q).unwrap(), Outcome::P, "{p:?} − {m}");
                    }
                }
            }
        }
    }

    /// Misère Nim with heaps up to 2 (quotient T2): positions far beyond any search, and counts
    /// past 2^63, against the closed form (P exactly when the position is (odd, 0) or the Nim
    /// sum is 0 with some heap of 2: (a, b) with b ≥ 1 is P iff a and b are both even).
    #[test]
    fn huge_counts_in_misere_nim() {
        let game = crate::game::testing::game(&[&[1, 0][..], &[0, 1], &[-1, 1]], true);
        let oracle = oracle_of(&game);
        let closed = |a: &Integer, b: &Integer| -> Outcome {
            if b.is_zero() {
                if a.is_odd() {
                    Outcome::P
                } else {
                    Outcome::N
                }
            } else if !a.is_odd() && !b.is_odd() {
                Outcome::P
            } else {
                Outcome::N
            }
        };
        let big = Integer::from(2).pow(80);
        let samples = [
            (Integer::from(1_000_000_000), Integer::from(0)),
            (Integer::from(1_000_000_001), Integer::from(0)),
            (big.clone(), Integer::from(2)),
            (&big + &Integer::from(1), Integer::from(3)),
            (Integer::from(4), big.clone()),
        ];
        for (a, b) in samples {
            let p = Vector(vec![a.clone(), b.clone()]);
            assert_eq!(oracle.outcome_of_point(&p), Some(closed(&a, &b)), "at {p}");
        }
        // The closed form itself against the memo solver on a box.
        let mut memo = MemoSolver::new(&game).unwrap();
        for a in 0..8 {
            for b in 0..8 {
                if (a, b) == (0, 0) {
                    continue;
                }
                let expected = closed(&Integer::from(a), &Integer::from(b));
                assert_eq!(memo.outcome(&[a, b]).unwrap(), expected, "({a}, {b})");
            }
        }
    }

    /// Heaps given as sizes, in any number: a million heaps of misère Kayles against the same
    /// position given as counts.
    #[test]
    fn heap_lists_and_counts_agree() {
        let code = crate::game::heap::HeapCode::parse("0.77").unwrap();
        let game = crate::game::heap::HeapGame::from_code(&code, 6)
            .lattice_game(true)
            .unwrap();
        let lattice = oracle_of(&game);
        let system = HeapSystem::from_code(&code, 6);
        let run = quotients_by_heap(&system, 6, QuotientLimits::default(), true, &mut |_| {});
        let by_code = QuotientOracle::new(run.quotient.unwrap(), None);
        let sizes = [1usize, 2, 3, 4, 5, 6];
        let counts = [333_331i64, 166_667, 200_000, 100_001, 99_999, 100_002];
        let mut heaps = Vec::new();
        for (&h, &c) in sizes.iter().zip(&counts) {
            heaps.extend(std::iter::repeat_n(h, c as usize));
        }
        assert_eq!(heaps.len(), 1_000_000);
        // octal(code, 6) has one coordinate per heap size with a move, in size order.
        let point = Vector::from_i64s(&counts);
        assert_eq!(
            by_code.outcome_of_heaps(&heaps),
            lattice.outcome_of_point(&point)
        );
    }
}
