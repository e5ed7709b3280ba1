//! Single positions: options, winning moves and outcomes computed from the definition
//! P = {p ∈ B : no legal option in P} ([GM09] Theorem 4.6), exploring only the positions that
//! can be reached from p. A far position costs what the game below it costs, not a box around it.
//!
//! [`MemoSolver`] memoizes outcomes in a hash map and walks with an explicit stack, so deep games
//! cannot overflow the call stack. It is also the straightforward baseline the benchmarks compare
//! the row solver with.

use std::collections::HashMap;

use super::defeated::{defeated_ideal, satisfies, Defeated};
use super::layout::{to_machine, Inequality};
use super::{functional, machine, Outcome, SolveError};
use crate::algebra::polyhedral::integer_inequalities;
use crate::algebra::Vector;
use crate::game::LatticeGame;

/// The most positions a single-position query explores before giving up.
pub const MAX_EXPLORED: usize = 50_000_000;

/// Outcomes of positions of one game, memoized.
pub struct MemoSolver {
    system: Vec<Inequality>,
    moves: Vec<Vec<i64>>,
    defeated: Defeated,
    memo: HashMap<Vec<i64>, bool>,
    values: HashMap<Vec<i64>, u64>,
    limit: usize,
    progress: Option<Box<dyn FnMut(usize)>>,
}

impl MemoSolver {
    /// A solver for `game` (computes the defeated ideal once).
    pub fn new(game: &LatticeGame) -> Result<MemoSolver, SolveError> {
        let ell = functional(game, None)?;
        Ok(MemoSolver {
            system: to_machine(&integer_inequalities(game.board().polyhedron())?)?,
            moves: game
                .rules()
                .moves()
                .iter()
                .map(machine)
                .collect::<Result<_, _>>()?,
            defeated: defeated_ideal(game, &ell)?,
            memo: HashMap::new(),
            values: HashMap::new(),
            limit: MAX_EXPLORED,
            progress: None,
        })
    }

    /// Limits the number of positions explored.
    pub fn with_limit(mut self, limit: usize) -> MemoSolver {
        self.limit = limit;
        self
    }

    /// What kind of lattice point p is, ignoring P/N.
    fn classify(&self, p: &[i64]) -> Option<Outcome> {
        if !satisfies(&self.system, p) {
            Some(Outcome::OffBoard)
        } else if self.defeated.contains(p) {
            Some(Outcome::Defeated)
        } else {
            None
        }
    }

    /// Whether p lies on the board B = Λ ∖ D.
    pub fn on_board(&self, p: &[i64]) -> bool {
        self.classify(p).is_none()
    }

    /// The legal options p − γ of p, with their moves γ.
    pub fn options(&self, p: &[i64]) -> Vec<(Vec<i64>, Vec<i64>)> {
        self.moves
            .iter()
            .map(|m| {
                (
                    m.clone(),
                    p.iter().zip(m).map(|(a, b)| a - b).collect::<Vec<i64>>(),
                )
            })
            .filter(|(_, q)| self.on_board(q))
            .collect()
    }

    /// The outcome of p.
    pub fn outcome(&mut self, p: &[i64]) -> Result<Outcome, SolveError> {
        if let Some(o) = self.classify(p) {
            return Ok(o);
        }
        // P exactly when no option is P.
        let mut memo = std::mem::take(&mut self.memo);
        let walked = self.explore(p, &mut memo, |mut options| {
            !Iterator::any(&mut options, |v| v == Some(true))
        });
        self.memo = memo;
        walked?;
        Ok(if self.memo[p] { Outcome::P } else { Outcome::N })
    }

    /// The Sprague–Grundy value of p in normal play on the board (positions with no option on
    /// the board have value 0): the mex of the values of its options, explored as `outcome`
    /// explores, with the same limit, progress and Ctrl-C. `None` when p is not on the board.
    pub fn grundy(&mut self, p: &[i64]) -> Result<Option<u64>, SolveError> {
        if self.classify(p).is_some() {
            return Ok(None);
        }
        let mut values = std::mem::take(&mut self.values);
        let walked = self.explore(p, &mut values, |options| {
            crate::game::grundy::mex(Iterator::flatten(options))
        });
        self.values = values;
        walked?;
        Ok(Some(self.values[p]))
    }

    /// Fills `table` for p and every position below it on the board, children before parents:
    /// `value` gets, for each move, the value of that option (`None` when it is off the board).
    /// The stack grows too (a long descending chain is explored before anything is stored), so
    /// both count toward the limit, checked with Ctrl-C and progress every 4096 steps.
    fn explore<V: Copy>(
        &mut self,
        p: &[i64],
        table: &mut HashMap<Vec<i64>, V>,
        value: impl Fn(&mut dyn Iterator<Item = Option<V>>) -> V,
    ) -> Result<(), SolveError> {
        // A frame is (position, index of the next move).
        let mut stack: Vec<(Vec<i64>, usize)> = vec![(p.to_vec(), 0)];
        let mut steps = 0u64;
        while let Some((q, i)) = stack.pop() {
            steps += 1;
            if steps.is_multiple_of(4096) {
                if crate::interrupt::requested() {
                    return Err(SolveError::Interrupted);
                }
                if let Some(progress) = self.progress.as_mut() {
                    progress(table.len() + stack.len());
                }
                if table.len() + stack.len() > self.limit {
                    return Err(self.too_large());
                }
            }
            if table.contains_key(&q) {
                continue;
            }
            if i < self.moves.len() {
                let r: Vec<i64> = q.iter().zip(&self.moves[i]).map(|(a, b)| a - b).collect();
                let pending = self.on_board(&r) && !table.contains_key(&r);
                stack.push((q, i + 1));
                if pending {
                    stack.push((r, 0));
                }
                continue;
            }
            let v = value(&mut self.moves.iter().map(|m| {
                let r: Vec<i64> = q.iter().zip(m).map(|(a, b)| a - b).collect();
                table.get(&r).copied()
            }));
            table.insert(q, v);
        }
        Ok(())
    }

    fn too_large(&self) -> SolveError {
        SolveError::TooLarge {
            detail: format!(
                "more than {} positions lie below this position (about {} MiB to hold them)",
                self.limit,
                (self.limit as u64 * self.bytes_per_position()) >> 20
            ),
        }
    }

    /// Memory per explored position: the key, the map's entry and a stack frame.
    pub fn bytes_per_position(&self) -> u64 {
        let d = self.moves.first().map_or(1, Vec::len) as u64;
        2 * (8 * d + 24) + 16
    }

    /// Calls `progress(explored)` every few thousand steps of a query.
    pub fn set_progress(&mut self, progress: Option<Box<dyn FnMut(usize)>>) {
        self.progress = progress;
    }

    /// How many outcomes and values are memoized.
    pub fn explored(&self) -> usize {
        self.memo.len() + self.values.len()
    }
}

/// The outcome of one position of a game.
pub fn outcome_below(game: &LatticeGame, p: &Vector) -> Result<Outcome, SolveError> {
    MemoSolver::new(game)?.outcome(&machine(p)?)
}

/// The legal options of p (p − γ on the board), in the order of the moves.
pub fn options(game: &LatticeGame, p: &Vector) -> Result<Vec<Vector>, SolveError> {
    let solver = MemoSolver::new(game)?;
    Ok(solver
        .options(&machine(p)?)
        .into_iter()
        .map(|(_, q)| Vector::from_i64s(&q))
        .collect())
}

/// The moves γ from p to a P-position (empty when p is a P-position or not on the board).
pub fn winning_moves(game: &LatticeGame, p: &Vector) -> Result<Vec<Vector>, SolveError> {
    let mut solver = MemoSolver::new(game)?;
    let p = machine(p)?;
    if !solver.on_board(&p) {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for (m, q) in solver.options(&p) {
        if solver.outcome(&q)? == Outcome::P {
            out.push(Vector::from_i64s(&m));
        }
    }
    Ok(out)
}
