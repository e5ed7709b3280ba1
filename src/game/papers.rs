//! Games printed in the papers, for tests, benchmarks and Rust users who want to start from them.

use super::{GameBoard, LatticeGame, RuleSet};
use crate::algebra::Vector;

/// [GM09] Example 8.12: the misère game on N^5 whose rule set is the columns of
/// [1 0 0 0 −1 0 0 0; 0 1 0 0 1 −1 0 0; 0 0 0 0 0 1 −1 0; 0 0 1 0 0 0 1 −1; 0 0 0 1 0 0 0 1]
/// (an infinite misère quotient of Plambeck and Siegel).
pub fn gm09_example_8_12() -> LatticeGame {
    let columns: [[i64; 5]; 8] = [
        [1, 0, 0, 0, 0],
        [0, 1, 0, 0, 0],
        [0, 0, 0, 1, 0],
        [0, 0, 0, 0, 1],
        [-1, 1, 0, 0, 0],
        [0, -1, 1, 0, 0],
        [0, 0, -1, 1, 0],
        [0, 0, 0, -1, 1],
    ];
    let rules = RuleSet::new(columns.iter().map(|c| Vector::from_i64s(c)).collect())
        .expect("eight nonzero moves of one dimension");
    LatticeGame::new(rules, GameBoard::misere(5).expect("d = 5"))
        .expect("the paper's rule set satisfies both axioms")
}
