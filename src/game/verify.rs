//! Certifying a candidate set S of P-positions on the whole, infinite board.
//!
//! By [GM09] Theorem 4.6 the P-positions are the unique set P ⊆ B with no move from P into P and
//! a move into P from every position of B ∖ P (uniqueness follows by induction along a linear
//! functional ℓ positive on Γ and on the recession cone: every move lowers ℓ, and ℓ is bounded
//! below on the board). So S = P exactly when
//!
//! 1. S ⊆ B;
//! 2. no move leads from S into S: S ∩ (S + γ) = ∅ for every γ ∈ Γ (p ∈ S with p − γ ∈ S);
//! 3. every position of B ∖ S has a move into S: (B ∖ S) ∖ ⋃_γ (S + γ) = ∅.
//!
//! Each condition is an emptiness test in the exact set algebra, so a certificate covers every
//! position of the board, not a sample. When S is wrong, the smallest failing position under ℓ is
//! found by exact emptiness tests of the failing sets cut by ℓ·x ≤ k (a search over k), and its
//! true outcome is computed by the solver.

use std::fmt;

use crate::algebra::basic_set::BasicSet;
use crate::algebra::{AlgebraError, Integer, StratifiedSet, Vector};

use super::solver::{self, Outcome, SolveError};
use super::{strategy, LatticeGame};

/// Which condition a position breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// p ∈ S is not a lattice point of the game's polyhedron.
    OffLattice,
    /// p ∈ S is a defeated position (in Λ but not on the board).
    Defeated,
    /// p ∈ S has the option p − γ in S: two P-positions one move apart.
    MoveInsideS {
        /// The move γ.
        step: Vector,
        /// The option p − γ, also in S.
        option: Vector,
    },
    /// p ∈ B ∖ S has no option in S, so it would be a P-position missing from S.
    NoMoveIntoS {
        /// How many legal options p has (none of them in S).
        options: usize,
    },
}

/// A position where S and the P-positions differ, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// The position p.
    pub position: Vector,
    /// The condition it breaks.
    pub failure: Failure,
    /// Its weight ℓ·p under the functional the search ordered positions by.
    pub weight: Integer,
    /// Its true outcome, from the solver.
    pub outcome: Outcome,
}

/// The result of [`verify`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verification {
    /// S is exactly the set of P-positions (all three conditions hold on the whole board).
    Certified {
        /// The number of basic sets S was decomposed into.
        pieces: usize,
    },
    /// S is not: the smallest counterexample under `functional`.
    Refuted {
        /// The counterexample.
        counterexample: Counterexample,
        /// The functional ℓ positions were ordered by.
        functional: Vector,
    },
}

impl Verification {
    /// Whether S was certified.
    pub fn is_certified(&self) -> bool {
        matches!(self, Verification::Certified { .. })
    }

    /// The counterexample, when S was refuted.
    pub fn counterexample(&self) -> Option<&Counterexample> {
        match self {
            Verification::Certified { .. } => None,
            Verification::Refuted { counterexample, .. } => Some(counterexample),
        }
    }
}

/// {x : ℓ·x ≤ k}.
fn at_most(ell: &Vector, k: &Integer) -> Result<StratifiedSet, AlgebraError> {
    StratifiedSet::from_basic(BasicSet::from_inequalities(
        ell.dim(),
        vec![(ell.scale(&Integer::from(-1)), -k)],
    ))
}

/// A point of X with the least ℓ·x, and that value; `None` when X is empty. ℓ must be bounded
/// below on X (X lies in the board).
fn smallest(x: &StratifiedSet, ell: &Vector) -> Result<Option<(Integer, Vector)>, AlgebraError> {
    let Some(first) = x.find_point()? else {
        return Ok(None);
    };
    let nonempty_at = |k: &Integer| -> Result<bool, AlgebraError> {
        Ok(!x.intersect(&at_most(ell, k)?)?.is_empty())
    };
    // X ∩ {ℓ ≤ hi} is nonempty; find lo with X ∩ {ℓ ≤ lo} empty, then bisect.
    let mut hi = ell.dot(&first);
    let mut step = Integer::ONE;
    let mut lo = &hi - &step;
    while nonempty_at(&lo)? {
        hi = lo;
        step = &step + &step;
        lo = &hi - &step;
    }
    let two = Integer::from(2);
    while &hi - &lo > Integer::ONE {
        let mid = (&lo + &hi).div_floor(&two).expect("2 ≠ 0");
        if nonempty_at(&mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let point = x
        .intersect(&at_most(ell, &hi)?)?
        .find_point()?
        .expect("nonempty at the least weight");
    Ok(Some((hi, point)))
}

/// Decides whether S is exactly the set of P-positions of the game (see the module documentation).
pub fn verify(game: &LatticeGame, s: &StratifiedSet) -> Result<Verification, SolveError> {
    verify_reporting(game, s, &mut |_| {})
}

/// [`verify`], calling `report` with the condition being decided.
pub fn verify_reporting(
    game: &LatticeGame,
    s: &StratifiedSet,
    report: &mut dyn FnMut(&str),
) -> Result<Verification, SolveError> {
    Ok(match smallest_failure(game, s, None, report)? {
        Ok(pieces) => Verification::Certified { pieces },
        Err(failing) => {
            let outcome = match failing.failure {
                Failure::OffLattice => Outcome::OffBoard,
                _ => solver::outcome_below(game, &failing.position)?,
            };
            Verification::Refuted {
                counterexample: Counterexample {
                    position: failing.position,
                    failure: failing.failure,
                    weight: failing.weight,
                    outcome,
                },
                functional: failing.functional,
            }
        }
    })
}

/// Where S first differs from the P-positions: `None` when [`verify`] would certify S, else the
/// smallest counterexample under ℓ and its weight. The same search as `verify`, without the
/// solver's outcome of the counterexample, which explores every position below it: a search that
/// only moves on past the counterexample should not pay for that.
pub fn first_failure(
    game: &LatticeGame,
    s: &StratifiedSet,
) -> Result<Option<(Vector, Integer)>, SolveError> {
    Ok(smallest_failure(game, s, None, &mut |_| {})?
        .err()
        .map(|f| (f.position, f.weight)))
}

/// [`first_failure`], given N^d ∖ S too, exactly (a caller that built S from a partition of
/// N^d has it for free): condition 3 then cuts B ∩ (N^d ∖ S) by the moves, where the complement
/// of S in the set algebra cuts N^d by every piece of S first (tens of thousands of basic sets
/// from a hundred pieces). Where Λ leaves N^d, S's complement is taken as in [`first_failure`].
pub fn first_failure_given_outside(
    game: &LatticeGame,
    s: &StratifiedSet,
    outside: &StratifiedSet,
) -> Result<Option<(Vector, Integer)>, SolveError> {
    Ok(smallest_failure(game, s, Some(outside), &mut |_| {})?
        .err()
        .map(|f| (f.position, f.weight)))
}

/// A counterexample before the solver has given its outcome.
struct Failing {
    position: Vector,
    failure: Failure,
    weight: Integer,
    functional: Vector,
}

/// N^d, as a set.
fn orthant(d: usize) -> Result<StratifiedSet, AlgebraError> {
    let inequalities = (0..d)
        .map(|i| {
            let mut e = vec![0i64; d];
            e[i] = 1;
            (Vector::from_i64s(&e), Integer::ZERO)
        })
        .collect();
    StratifiedSet::from_basic(BasicSet::from_inequalities(d, inequalities))
}

/// The three conditions: `Ok(pieces)` when they hold, else the smallest failing position
/// (condition 3 from `outside`, N^d ∖ S, when given).
fn smallest_failure(
    game: &LatticeGame,
    s: &StratifiedSet,
    outside: Option<&StratifiedSet>,
    report: &mut dyn FnMut(&str),
) -> Result<Result<usize, Failing>, SolveError> {
    let d = game.dim();
    if s.dim() != d {
        return Err(SolveError::Algebra(AlgebraError::DimensionMismatch {
            what: "the candidate set and the game".into(),
            expected: d,
            found: s.dim(),
        }));
    }
    let ell = Vector::from_i64s(&solver::functional(game, None)?);
    let lattice = strategy::lattice_points(game)?;
    let refuted = |position: Vector, failure: Failure| Failing {
        weight: ell.dot(&position),
        position,
        failure,
        functional: ell.clone(),
    };
    // Off Λ, ℓ need not be bounded below: any such point will do.
    report("condition 1 of 3, the set lies on the board");
    if let Some(p) = s.difference(&lattice)?.find_point()? {
        return Ok(Err(refuted(p, Failure::OffLattice)));
    }
    let board = strategy::board(game)?;
    let moves = game.rules().moves();
    // Every failing set, with the smallest point of each; the least weight wins (earlier
    // conditions first on ties).
    let mut best: Option<(Integer, Vector, usize)> = None;
    let mut offer = |found: Option<(Integer, Vector)>, kind: usize| {
        if let Some((w, p)) = found {
            if best.as_ref().is_none_or(|(bw, _, _)| w < *bw) {
                best = Some((w, p, kind));
            }
        }
    };
    offer(smallest(&s.difference(&board)?, &ell)?, 0);
    if crate::interrupt::requested() {
        return Err(SolveError::Interrupted);
    }
    report(&format!(
        "condition 2 of 3, no move leads from the set into it ({} moves)",
        moves.len()
    ));
    let translates: Vec<StratifiedSet> = moves.iter().map(|g| s.translate(g)).collect();
    // Condition 2, one move at a time in parallel; the earliest move wins ties, as in sequence.
    let inherited = crate::interrupt::inherited();
    let inside: Vec<Option<(Integer, Vector)>> = {
        use rayon::prelude::*;
        translates
            .par_iter()
            .map(|t| {
                crate::interrupt::with_inherited(&inherited, || smallest(&s.intersect(t)?, &ell))
            })
            .collect::<Result<_, AlgebraError>>()?
    };
    for found in inside {
        offer(found, 1);
    }
    if crate::interrupt::requested() {
        return Err(SolveError::Interrupted);
    }
    // Condition 3: B ∖ S ∖ ⋃(S + γ), the pieces of B ∖ S cut in parallel.
    report("condition 3 of 3, every other position has a move into the set");
    // B ∖ S: from N^d ∖ S when the caller has it and Λ lies in N^d (then B ∖ S = B ∩ (N^d ∖ S)),
    // else the complement of S in the set algebra.
    let given = match outside {
        Some(outside) if lattice.difference(&orthant(d)?)?.is_empty() => {
            Some(board.intersect(outside)?)
        }
        _ => None,
    };
    // Given N^d ∖ S, the complement in the set algebra is still taken when it is much smaller:
    // given up once it passes a quarter of the basic sets of the one given. (Generalized misère
    // play, sweeps of seed 7777 and 8888: 154 basic sets in 0.08 s, cut by the moves in 0.22 s,
    // against 1,139 given, cut in 1.19 s; but 1,354 in 1.6 s, cut in 1.03 s, against 2,639
    // given, cut in 0.35 s.)
    let others = match given {
        Some(given) => match board.difference_within(s, given.cover().len() / 4) {
            Ok(smaller) => smaller,
            Err(AlgebraError::TooLarge(_)) => given,
            Err(e) => return Err(e.into()),
        },
        None => board.difference(s)?,
    };
    let stuck = others.difference_of_all(&translates)?;
    offer(smallest(&stuck, &ell)?, 2);
    let Some((_, p, kind)) = best else {
        return Ok(Ok(s.cover().len()));
    };
    let failure = match kind {
        0 => Failure::Defeated,
        1 => {
            let step = moves
                .iter()
                .find(|g| s.contains(&p.sub(g)))
                .expect("an option in S")
                .clone();
            Failure::MoveInsideS {
                option: p.sub(&step),
                step,
            }
        }
        _ => Failure::NoMoveIntoS {
            options: solver::options(game, &p)?.len(),
        },
    };
    Ok(Err(refuted(p, failure)))
}

impl fmt::Display for Verification {
    /// In words: which condition failed where, and what the position really is.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verification::Certified { pieces } => write!(
                f,
                "certified: the set is exactly the P-positions ({pieces} basic set{}): it lies on the board, \
                 no move leads from it into it, and every other position of the board has a move into it",
                if *pieces == 1 { "" } else { "s" }
            ),
            Verification::Refuted {
                counterexample: c,
                functional,
            } => {
                let p = &c.position;
                write!(f, "not the P-positions: ")?;
                match &c.failure {
                    Failure::OffLattice => write!(
                        f,
                        "{p} is in the set but is not a lattice point of the game's polyhedron"
                    ),
                    Failure::Defeated => write!(
                        f,
                        "{p} is in the set but is a defeated position, not on the board"
                    ),
                    Failure::MoveInsideS { step, option } => write!(
                        f,
                        "{p} is in the set and so is its option {option} (the move {step}), but no \
                         move may lead from a P-position to a P-position; the solver says {p} is {}",
                        outcome_words(c.outcome)
                    ),
                    Failure::NoMoveIntoS { options: 0 } => write!(
                        f,
                        "{p} is on the board and not in the set, but it has no move at all, so the \
                         player to move there loses; the solver says it is {}",
                        outcome_words(c.outcome)
                    ),
                    Failure::NoMoveIntoS { options } => write!(
                        f,
                        "{p} is on the board and not in the set, but none of its {options} option{} \
                         is in the set, so it would be a P-position; the solver says it is {}",
                        if *options == 1 { "" } else { "s" },
                        outcome_words(c.outcome)
                    ),
                }?;
                if !matches!(c.failure, Failure::OffLattice) {
                    write!(
                        f,
                        " (the smallest such position under the weight {functional}, weight {})",
                        c.weight
                    )?;
                }
                Ok(())
            }
        }
    }
}

fn outcome_words(o: Outcome) -> &'static str {
    match o {
        Outcome::P => "a P-position",
        Outcome::N => "an N-position",
        Outcome::Defeated => "defeated",
        Outcome::OffBoard => "off the board",
    }
}

#[cfg(test)]
mod tests;
