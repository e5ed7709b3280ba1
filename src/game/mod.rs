//! Lattice games ([GM09] Definitions 2.3 and 2.9), independent of the `.lg` language: rule sets,
//! game boards with their defeated positions, and games.
//!
//! Construction checks what is cheap (dimensions agree, 0 is not a move). The rule-set axioms,
//! which need linear programming over the board's cone, are decided by the algebra engine.

pub mod axioms;
mod board;
mod error;
pub mod finite_game;
pub mod grundy;
pub mod heap;
mod lattice_game;
pub mod misere;
pub mod papers;
pub mod periodicity;
pub mod plot;
pub mod quotient;
mod ruleset;
pub mod solver;
pub mod sprague_grundy;
pub mod strategy;
pub mod stratify;
pub mod take_break;
#[cfg(test)]
pub(crate) mod testing;
pub mod verify;

pub use board::GameBoard;
pub use error::GameError;
pub use finite_game::{FiniteGame, GameTree, Play};
pub use lattice_game::LatticeGame;
pub use ruleset::RuleSet;
