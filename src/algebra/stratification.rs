//! Affine stratifications W_1 ⊎ ... ⊎ W_r: finite disjoint unions of modules F_i + A_i
//! ([GM09] Definition 8.6, [GM11] Definition 4.1).
//!
//! This type records the pieces as declared. Deciding that the pieces are really disjoint, and
//! computing with the union as a set, needs the set algebra of stratified sets.

use std::fmt;

use super::{AffineModule, AlgebraError};

/// A union W_1 ⊎ ... ⊎ W_r of modules, in the order given.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Stratification {
    pieces: Vec<AffineModule>,
}

impl Stratification {
    /// The union of the given modules, which must share one dimension and be at least one.
    pub fn new(pieces: Vec<AffineModule>) -> Result<Stratification, AlgebraError> {
        let d = pieces
            .first()
            .map(AffineModule::dim)
            .ok_or_else(|| AlgebraError::Empty("a stratification".into()))?;
        for (i, w) in pieces.iter().enumerate() {
            if w.dim() != d {
                return Err(AlgebraError::DimensionMismatch {
                    what: format!("piece W{} of the stratification", i + 1),
                    expected: d,
                    found: w.dim(),
                });
            }
        }
        Ok(Stratification { pieces })
    }

    /// The pieces W_1, ..., W_r.
    pub fn pieces(&self) -> &[AffineModule] {
        &self.pieces
    }

    /// The ambient dimension d.
    pub fn dim(&self) -> usize {
        self.pieces[0].dim()
    }

    /// W_1 ⊎ ... ⊎ W_r ⊎ V_1 ⊎ ... ⊎ V_s.
    pub fn disjoint_union(&self, other: &Stratification) -> Result<Stratification, AlgebraError> {
        let mut pieces = self.pieces.clone();
        pieces.extend(other.pieces.iter().cloned());
        Stratification::new(pieces)
    }
}

impl fmt::Display for Stratification {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pieces.len() == 1 {
            return write!(f, "stratification([{}])", self.pieces[0]);
        }
        for (i, w) in self.pieces.iter().enumerate() {
            if i > 0 {
                write!(f, " ⊎ ")?;
            }
            write!(f, "({w})")?;
        }
        Ok(())
    }
}
