//! Rule sets Γ ⊂ Z^d ∖ {0} ([GM09] Definition 2.3). A move goes from p to p − γ for γ ∈ Γ.
//! The moves keep the order in which they were given (papers list them as matrix columns);
//! two rule sets are equal when they hold the same moves.

use std::fmt;
use std::hash::{Hash, Hasher};

use super::GameError;
use crate::algebra::{Matrix, Vector};

/// A finite set of nonzero moves in one Z^d.
#[derive(Clone, Debug)]
pub struct RuleSet {
    dim: usize,
    moves: Vec<Vector>,
}

impl RuleSet {
    /// Γ from a list of vectors: nonempty, one dimension, no zero vector; repeated moves are kept once.
    pub fn new(moves: Vec<Vector>) -> Result<RuleSet, GameError> {
        let dim = moves.first().map(Vector::dim).ok_or(GameError::NoMoves)?;
        if dim == 0 {
            return Err(crate::algebra::AlgebraError::ZeroDimension.into());
        }
        let mut kept: Vec<Vector> = Vec::with_capacity(moves.len());
        // Repeats are found by hash (indices of kept moves per hash), without cloning moves.
        let mut seen: std::collections::HashMap<u64, Vec<usize>> = std::collections::HashMap::new();
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
            let hash = sparse_hash(&m);
            let same = seen.entry(hash).or_default();
            if !same.iter().any(|&k| kept[k] == m) {
                same.push(kept.len());
                kept.push(m);
            }
        }
        Ok(RuleSet { dim, moves: kept })
    }

    /// Γ from the columns of a matrix, as the papers write rule sets.
    pub fn from_columns(m: &Matrix) -> Result<RuleSet, GameError> {
        RuleSet::new(m.columns())
    }

    /// The dimension d.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The moves, in the order given.
    pub fn moves(&self) -> &[Vector] {
        &self.moves
    }

    fn sorted(&self) -> Vec<&Vector> {
        let mut v: Vec<&Vector> = self.moves.iter().collect();
        v.sort();
        v
    }
}

impl PartialEq for RuleSet {
    fn eq(&self, other: &Self) -> bool {
        self.dim == other.dim && self.sorted() == other.sorted()
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
        // A list keeps the order the moves were given in when the text is read back.
        write!(f, "ruleset([")?;
        for (i, m) in self.moves.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{m}")?;
        }
        write!(f, "])")
    }
}

/// A quick hash of a move from its nonzero entries (moves of heap games in high dimension are
/// mostly zeros); repeats are then confirmed by comparing the moves.
fn sparse_hash(m: &Vector) -> u64 {
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
    for (i, x) in m.0.iter().enumerate() {
        if x.is_zero() {
            continue;
        }
        let v = x.to_i64().unwrap_or(i64::MIN) as u64;
        h = (h ^ (i as u64)).wrapping_mul(0x1000_0000_01b3);
        h = (h ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
    h
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
