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
            super::axioms::entries_small_enough(&rules)?;
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

impl LatticeGame {
    /// A short name for titles and summaries, e.g. "misère play on N^2, 3 moves" (the whole game
    /// is what `Display` prints).
    pub fn brief(&self) -> String {
        use crate::algebra::{Cone, Polyhedron};
        let b = self.board();
        let play = if b.is_normal_play() {
            "normal play".to_string()
        } else if b.is_misere() {
            "misère play".to_string()
        } else {
            let k = b.defeated().len();
            format!(
                "play with {k} defeated position{}",
                if k == 1 { "" } else { "s" }
            )
        };
        let d = self.dim();
        let on = match b.polyhedron() {
            Polyhedron::Cone(Cone::Orthant(_)) => format!("N^{d}"),
            Polyhedron::Cone(_) => format!("a cone in Z^{d}"),
            _ => format!("a polyhedron in Z^{d}"),
        };
        let n = self.rules().moves().len();
        format!("{play} on {on}, {n} move{}", if n == 1 { "" } else { "s" })
    }
}

impl fmt::Display for LatticeGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game({}, {})", self.rules, self.board)
    }
}
