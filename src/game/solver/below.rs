//! Single positions: options, winning moves and outcomes computed from the definition
//! P = {p ∈ B : no legal option in P} ([GM09] Theorem 4.6), exploring only the positions that
//! can be reached from p. A far position costs what the game below it costs, not a box around it.
//!
//! [`MemoSolver`] memoizes outcomes in a hash map and walks with an explicit stack, so deep games
//! cannot overflow the call stack. It is also the straightforward baseline the benchmarks compare
//! the row solver with.

use super::defeated::{defeated_ideal, satisfies, Defeated};
use super::layout::{to_machine, Inequality};
use super::position_hash::PositionMap;
use super::{functional, machine, Outcome, SolveError};
use crate::algebra::polyhedral::integer_inequalities;
use crate::algebra::{Cone, Polyhedron, SparseVector, Vector};
use crate::game::LatticeGame;

/// The most positions a single-position query explores before giving up.
pub const MAX_EXPLORED: usize = 50_000_000;

/// Outcomes of positions of one game, memoized.
pub struct MemoSolver {
    /// The inequalities of Π; `None` for the orthant (every coordinate ≥ 0).
    system: Option<Vec<Inequality>>,
    dim: usize,
    /// The moves by their nonzero entries (heap games in high dimension have a few each).
    moves: Vec<Vec<(usize, i64)>>,
    defeated: Defeated,
    memo: PositionMap<bool>,
    values: PositionMap<u64>,
    /// The moves tried from a position ([`MemoSolver::next_move`]): group 0, then group i + 1
    /// when q_i > 0.
    groups: Vec<Vec<usize>>,
    limit: usize,
    progress: Option<Box<dyn FnMut(usize)>>,
}

impl MemoSolver {
    /// A solver for `game` (computes the defeated ideal once).
    pub fn new(game: &LatticeGame) -> Result<MemoSolver, SolveError> {
        let on_orthant = matches!(
            game.board().polyhedron(),
            Polyhedron::Cone(Cone::Orthant(_))
        );
        // Any ℓ positive on Γ and C bounds the walk that finds D, and D does not depend on it:
        // on the orthant the linear-time certificate of the axioms gives one without an LP.
        let ell = match on_orthant
            .then(|| crate::game::axioms::orthant_certificate_functional(game.rules()))
            .flatten()
        {
            Some(l) => machine(&l)?,
            None => functional(game, None)?,
        };
        let system = if on_orthant {
            None
        } else {
            Some(to_machine(&integer_inequalities(
                game.board().polyhedron(),
            )?)?)
        };
        let moves: Vec<Vec<(usize, i64)>> = game
            .rules()
            .sparse_moves()
            .iter()
            .map(machine_entries)
            .collect::<Result<_, _>>()?;
        let groups = if on_orthant {
            let mut groups = vec![Vec::new(); game.dim() + 1];
            for (k, m) in moves.iter().enumerate() {
                let first_positive = m.iter().find(|e| e.1 > 0).map_or(0, |e| e.0 + 1);
                groups[first_positive].push(k);
            }
            groups
        } else {
            vec![(0..moves.len()).collect()]
        };
        Ok(MemoSolver {
            system,
            dim: game.dim(),
            moves,
            groups,
            defeated: defeated_ideal(game, &ell)?,
            memo: PositionMap::default(),
            values: PositionMap::default(),
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
        let in_polyhedron = match &self.system {
            Some(system) => satisfies(system, p),
            None => p.iter().all(|&x| x >= 0),
        };
        if !in_polyhedron {
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
                let mut dense = vec![0; self.dim];
                for &(i, x) in m {
                    dense[i] = x;
                }
                (dense, minus(p, m))
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
        table: &mut PositionMap<V>,
        value: impl Fn(&mut dyn Iterator<Item = Option<V>>) -> V,
    ) -> Result<(), SolveError> {
        if table.contains_key(p) {
            return Ok(());
        }
        // A frame is a position and where its walk through the moves stands; every position on
        // the stack is missing from the table (a child is pushed only when it is missing, and
        // the stack is a chain of strictly decreasing weight).
        let mut stack: Vec<(Vec<i64>, MoveCursor)> = vec![(p.to_vec(), MoveCursor::default())];
        let mut steps = 0u64;
        while let Some((q, mut cursor)) = stack.pop() {
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
            let mut child = None;
            while let Some(k) = self.next_move(&q, &mut cursor) {
                let r = minus(&q, &self.moves[k]);
                if self.on_board(&r) && !table.contains_key(&r) {
                    child = Some(r);
                    break;
                }
            }
            if let Some(r) = child {
                stack.push((q, cursor));
                stack.push((r, MoveCursor::default()));
                continue;
            }
            // Every option on the board is in the table; moves never tried lead off the orthant.
            let mut all = MoveCursor::default();
            let mut options = std::iter::from_fn(|| {
                let k = self.next_move(&q, &mut all)?;
                Some(table.get(&minus(&q, &self.moves[k])).copied())
            });
            let v = value(&mut options);
            table.insert(q, v);
        }
        Ok(())
    }

    /// The next move to try from q: every move off the orthant; on it, the moves without a
    /// positive entry and then, for each coordinate i with q_i > 0, the moves whose first
    /// positive entry is at i (no other move can stay on the orthant).
    fn next_move(&self, q: &[i64], cursor: &mut MoveCursor) -> Option<usize> {
        loop {
            let group = self.groups.get(cursor.group)?;
            let active = cursor.group == 0 || q[cursor.group - 1] > 0;
            if active && cursor.index < group.len() {
                cursor.index += 1;
                return Some(group[cursor.index - 1]);
            }
            cursor.group += 1;
            cursor.index = 0;
        }
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
        let d = self.dim as u64;
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

/// Where the walk through the moves from one position stands ([`MemoSolver::next_move`]).
#[derive(Clone, Copy, Debug, Default)]
struct MoveCursor {
    group: usize,
    index: usize,
}

/// p − γ for a move γ given by its nonzero entries.
fn minus(p: &[i64], m: &[(usize, i64)]) -> Vec<i64> {
    let mut q = p.to_vec();
    for &(i, x) in m {
        q[i] -= x;
    }
    q
}

/// A move's nonzero entries in machine integers within the solver's coordinate range.
fn machine_entries(m: &SparseVector) -> Result<Vec<(usize, i64)>, SolveError> {
    let values = machine(&Vector(
        m.entries().iter().map(|(_, x)| x.clone()).collect(),
    ))?;
    Ok(m.entries().iter().map(|(i, _)| *i).zip(values).collect())
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
