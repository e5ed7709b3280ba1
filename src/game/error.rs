//! Errors of the game library.

use crate::algebra::{AlgebraError, Vector};

/// What can go wrong when declaring a lattice game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A rule set must not contain 0 ([GM09] Definition 2.3: Γ ⊂ Z^d ∖ {0}).
    #[error("the zero vector {vector} is not a move (a rule set lies in Z^d ∖ {{0}}); it is move number {index}")]
    ZeroMove {
        /// The offending vector.
        vector: Vector,
        /// Its 1-based position in the input.
        index: usize,
    },
    /// A rule set needs at least one move.
    #[error("a rule set needs at least one move")]
    NoMoves,
    /// A defeated position does not lie on the polyhedron.
    #[error("the defeated position {0} does not lie in the polyhedron of the board")]
    DefeatedOffBoard(Vector),
    /// Γ does not satisfy the axioms of [GM09] Definition 2.3 for the board's recession cone.
    #[error("not a rule set for this board: {0}")]
    NotARuleSet(super::axioms::AxiomViolation),
    /// Dimensions or shapes disagree.
    #[error(transparent)]
    Algebra(#[from] AlgebraError),
}
