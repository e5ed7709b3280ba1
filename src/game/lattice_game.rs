//! Lattice games ([GM09] Definition 2.9): a game board together with a rule set of the same
//! dimension, satisfying the axioms of [GM09] Definition 2.3 for the board's recession cone.
//! Positions are the points of the board; p has a move to p − γ for γ ∈ Γ, legal when p − γ lies
//! on the board.

use std::fmt;

use super::{GameBoard, GameError, RuleSet};
use crate::algebra::AlgebraError;

/// A rule set and a board of one dimension.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct LatticeGame {
    rules: RuleSet,
    board: GameBoard,
}

impl LatticeGame {
    /// The game with rule set Γ on board B: dimensions must agree, and Γ must be a rule set for
    /// the recession cone of B (both axioms are decided exactly).
    pub fn new(rules: RuleSet, board: GameBoard) -> Result<LatticeGame, GameError> {
        if rules.dim() != board.dim() {
            return Err(AlgebraError::DimensionMismatch {
                what: "the rule set and the board of a game".into(),
                expected: board.dim(),
                found: rules.dim(),
            }
            .into());
        }
        // On the orthant a cheap certificate usually exists (heap games, Nim in any dimension);
        // without one, or to explain a failure, decide the axioms in general.
        let on_orthant = matches!(
            board.polyhedron(),
            crate::algebra::Polyhedron::Cone(crate::algebra::Cone::Orthant(_))
        );
        if !(on_orthant && super::axioms::orthant_axioms_hold(&rules)) {
            let cone = super::axioms::recession_cone(&board)?;
            super::axioms::check_axioms(&rules, &cone).map_err(GameError::NotARuleSet)?;
        }
        Ok(LatticeGame { rules, board })
    }

    /// The rule set Γ.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The board B.
    pub fn board(&self) -> &GameBoard {
        &self.board
    }

    /// The dimension d.
    pub fn dim(&self) -> usize {
        self.rules.dim()
    }
}

impl fmt::Display for LatticeGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game({}, {})", self.rules, self.board)
    }
}
