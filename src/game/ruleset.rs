//! Rule sets Γ ⊂ Z^d ∖ {0} ([GM09] Definition 2.3). A move goes from p to p − γ for γ ∈ Γ.
//! The moves keep the order in which they were given (papers list them as matrix columns);
//! two rule sets are equal when they hold the same moves.

use std::collections::HashSet;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use super::GameError;
use crate::algebra::{Matrix, SparseVector, Vector};

/// A finite set of nonzero moves in one Z^d.
///
/// Moves are kept by their nonzero entries; the dense vectors are built the first time
/// [`RuleSet::moves`] is asked for (a heap game of a thousand heap sizes has half a million moves
/// with at most three nonzero entries each, which as dense vectors would need gigabytes).
#[derive(Clone, Debug)]
pub struct RuleSet {
    dim: usize,
    sparse: Vec<SparseVector>,
    dense: OnceLock<Vec<Vector>>,
}

impl RuleSet {
    /// Γ from a list of vectors: nonempty, one dimension, no zero vector; repeated moves are kept once.
    pub fn new(moves: Vec<Vector>) -> Result<RuleSet, GameError> {
        let dim = moves.first().map(Vector::dim).ok_or(GameError::NoMoves)?;
        if dim == 0 {
            return Err(crate::algebra::AlgebraError::ZeroDimension.into());
        }
        let mut kept: Vec<Vector> = Vec::with_capacity(moves.len());
        let mut sparse: Vec<SparseVector> = Vec::with_capacity(moves.len());
        let mut seen: HashSet<SparseVector> = HashSet::with_capacity(moves.len());
        for (i, m) in moves.into_iter().enumerate() {
            if m.dim() != dim {
                return Err(crate::algebra::AlgebraError::DimensionMismatch {
                    what: format!("move number {} of the rule set, {m}", i + 1),
                    expected: dim,
                    found: m.dim(),
                }
                .into());
            }
            if m.is_zero() {
                return Err(GameError::ZeroMove {
                    vector: m,
                    index: i + 1,
                });
            }
            let s = SparseVector::from_dense(&m);
            if seen.insert(s.clone()) {
                sparse.push(s);
                kept.push(m);
            }
        }
        Ok(RuleSet {
            dim,
            sparse,
            dense: OnceLock::from(kept),
        })
    }

    /// Γ ⊂ Z^d from moves given by their nonzero entries (every coordinate below `dim`): nonempty,
    /// no zero vector; repeated moves are kept once. Nothing of size d·|Γ| is allocated.
    pub fn from_sparse(dim: usize, moves: Vec<SparseVector>) -> Result<RuleSet, GameError> {
        if moves.is_empty() {
            return Err(GameError::NoMoves);
        }
        if dim == 0 {
            return Err(crate::algebra::AlgebraError::ZeroDimension.into());
        }
        let mut sparse: Vec<SparseVector> = Vec::with_capacity(moves.len());
        let mut seen: HashSet<&SparseVector> = HashSet::with_capacity(moves.len());
        for (i, m) in moves.iter().enumerate() {
            if i % 65536 == 65535 && crate::interrupt::requested() {
                return Err(crate::algebra::AlgebraError::Interrupted.into());
            }
            if let Some(last) = m.last_coordinate().filter(|&c| c >= dim) {
                return Err(crate::algebra::AlgebraError::DimensionMismatch {
                    what: format!("move number {} of the rule set", i + 1),
                    expected: dim,
                    found: last + 1,
                }
                .into());
            }
            if m.is_zero() {
                return Err(GameError::ZeroMove {
                    vector: Vector::zero(dim),
                    index: i + 1,
                });
            }
            if seen.insert(m) {
                sparse.push(m.clone());
            }
        }
        Ok(RuleSet {
            dim,
            sparse,
            dense: OnceLock::new(),
        })
    }

    /// Γ from the columns of a matrix, as the papers write rule sets.
    pub fn from_columns(m: &Matrix) -> Result<RuleSet, GameError> {
        RuleSet::new(m.columns())
    }

    /// The dimension d.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The number of moves |Γ|.
    pub fn len(&self) -> usize {
        self.sparse.len()
    }

    /// Whether Γ is empty (never, for a rule set that was built).
    pub fn is_empty(&self) -> bool {
        self.sparse.is_empty()
    }

    /// The moves as dense vectors, in the order given (built on first use: d·|Γ| integers).
    pub fn moves(&self) -> &[Vector] {
        self.dense
            .get_or_init(|| self.sparse.iter().map(|m| m.to_dense(self.dim)).collect())
    }

    /// The moves by their nonzero entries, in the order given.
    pub fn sparse_moves(&self) -> &[SparseVector] {
        &self.sparse
    }

    /// Bytes the dense vectors of [`RuleSet::moves`] take (to refuse what would not fit).
    pub fn dense_bytes(&self) -> u64 {
        (self.sparse.len() as u64)
            .saturating_mul(self.dim as u64)
            .saturating_mul(std::mem::size_of::<crate::algebra::Integer>() as u64)
    }

    fn sorted(&self) -> Vec<&SparseVector> {
        let mut v: Vec<&SparseVector> = self.sparse.iter().collect();
        v.sort();
        v
    }
}

impl PartialEq for RuleSet {
    fn eq(&self, other: &Self) -> bool {
        self.dim == other.dim && self.len() == other.len() && self.sorted() == other.sorted()
    }
}

impl Eq for RuleSet {}

impl PartialOrd for RuleSet {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for RuleSet {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.dim, self.sorted()).cmp(&(other.dim, other.sorted()))
    }
}

impl Hash for RuleSet {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.dim.hash(state);
        self.sorted().hash(state);
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A list keeps the order the moves were given in when the text is read back. Each move is
        // written from its entries, without building the dense vector.
        write!(f, "ruleset([")?;
        for (i, m) in self.sparse.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "(")?;
            let mut entries = m.entries().iter().peekable();
            for j in 0..self.dim {
                if j > 0 {
                    write!(f, ", ")?;
                }
                match entries.peek() {
                    Some((k, x)) if *k == j => {
                        write!(f, "{x}")?;
                        entries.next();
                    }
                    _ => write!(f, "0")?,
                }
            }
            if self.dim == 1 {
                write!(f, ",")?;
            }
            write!(f, ")")?;
        }
        write!(f, "])")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_2_4_nim_with_heaps_at_most_two() {
        let g = RuleSet::new(vec![
            Vector::from_i64s(&[1, 0]),
            Vector::from_i64s(&[0, 1]),
            Vector::from_i64s(&[-1, 1]),
        ])
        .unwrap();
        assert_eq!(g.dim(), 2);
        assert_eq!(g.to_string(), "ruleset([(1, 0), (0, 1), (-1, 1)])");
        let reordered = RuleSet::new(vec![
            Vector::from_i64s(&[-1, 1]),
            Vector::from_i64s(&[1, 0]),
            Vector::from_i64s(&[0, 1]),
        ])
        .unwrap();
        assert_eq!(g, reordered);
    }

    #[test]
    fn zero_is_not_a_move() {
        let e =
            RuleSet::new(vec![Vector::from_i64s(&[1, 0]), Vector::from_i64s(&[0, 0])]).unwrap_err();
        assert_eq!(
            e,
            GameError::ZeroMove {
                vector: Vector::from_i64s(&[0, 0]),
                index: 2
            }
        );
        assert_eq!(RuleSet::new(vec![]).unwrap_err(), GameError::NoMoves);
    }
}
