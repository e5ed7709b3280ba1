//! Helpers shared by the game modules' tests.

use crate::algebra::Vector;
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
