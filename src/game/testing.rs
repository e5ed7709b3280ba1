//! Helpers shared by the game modules' tests.

use crate::algebra::{Cone, Integer, Matrix, Polyhedron, Vector};
use crate::game::{GameBoard, LatticeGame, RuleSet};

/// The game on N^d with these moves, in normal or misère play.
pub(crate) fn game(moves: &[&[i64]], misere: bool) -> LatticeGame {
    let d = moves[0].len();
    let rules = RuleSet::new(moves.iter().map(|m| Vector::from_i64s(m)).collect()).unwrap();
    let board = if misere {
        GameBoard::misere(d)
    } else {
        GameBoard::normal_play(d)
    }
    .unwrap();
    LatticeGame::new(rules, board).unwrap()
}

/// The game on N^d with these moves, whose defeated positions are the Γ-order ideal the
/// `defeated` generate (generalized misère play).
pub(crate) fn generalized(moves: &[&[i64]], defeated: &[&[i64]]) -> LatticeGame {
    let d = moves[0].len();
    let rules = RuleSet::new(moves.iter().map(|m| Vector::from_i64s(m)).collect()).unwrap();
    let board = GameBoard::new(
        Polyhedron::Cone(Cone::Orthant(d)),
        defeated.iter().map(|x| Vector::from_i64s(x)).collect(),
    )
    .unwrap();
    LatticeGame::new(rules, board).unwrap()
}

/// Π = {x : a·x ≥ b}, one (a, b) a row.
pub(crate) fn polyhedron(rows: &[(&[i64], i64)]) -> Polyhedron {
    let a = Matrix::from_rows(
        rows.iter()
            .map(|(a, _)| a.iter().map(|&x| Integer::from(x)).collect())
            .collect(),
    )
    .unwrap();
    let b = rows
        .iter()
        .map(|(_, b)| num_rational::BigRational::from_integer((*b).into()))
        .collect();
    Polyhedron::from_inequalities(a, b).unwrap()
}
