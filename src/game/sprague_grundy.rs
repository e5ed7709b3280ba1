//! Sprague–Grundy values of heap games given as lattice games, without exploring positions.
//!
//! A heap rule set ([GM09] Example 2.5) has, in every move, a single positive entry +1 at its last
//! nonzero coordinate i and nonpositive entries before it: the move removes one heap of *type* i
//! and adds c_j heaps of each type j < i. In normal play on N^d a position p is then the
//! disjunctive sum of p_i heaps of each type i, so by Sprague–Grundy its value is
//! ⊕_{i : p_i odd} g(i), where g(i) = mex over the moves γ of top i of ⊕_{j : γ_j odd} g(j).
//! Outcomes and winning moves of positions with heaps of any size are then a few XORs.

use super::axioms::is_heap_ruleset;
use super::LatticeGame;
use crate::algebra::{Cone, Integer, Polyhedron, SparseVector, Vector};

/// The values g(i) of the heap types of a heap game in normal play on the orthant; `None` when
/// the game is not one (another board, defeated positions, or not a heap rule set).
pub fn heap_type_values(game: &LatticeGame) -> Option<Vec<u64>> {
    let on_orthant = matches!(
        game.board().polyhedron(),
        Polyhedron::Cone(Cone::Orthant(_))
    );
    if !on_orthant || !game.board().is_normal_play() || !is_heap_ruleset(game.rules()) {
        return None;
    }
    let d = game.dim();
    let mut by_top: Vec<Vec<&SparseVector>> = vec![Vec::new(); d];
    for g in game.rules().sparse_moves() {
        by_top[g.last_coordinate()?].push(g);
    }
    let mut values: Vec<u64> = Vec::with_capacity(d);
    for moves in &by_top {
        let mut seen: Vec<u64> = moves
            .iter()
            .map(|g| {
                // Entries before the top, whose values are known by now.
                g.entries()
                    .iter()
                    .filter(|(j, c)| *j < values.len() && c.is_odd())
                    .fold(0, |x, (j, _)| x ^ values[*j])
            })
            .collect();
        values.push(crate::game::grundy::mex(seen.drain(..)));
    }
    Some(values)
}

/// ⊕_{i : p_i odd} g(i): the value of a position from the values of its heap types.
pub fn position_value(values: &[u64], p: &Vector) -> u64 {
    values
        .iter()
        .zip(&p.0)
        .filter(|(_, c)| c.is_odd())
        .fold(0, |x, (v, _)| x ^ v)
}

/// The moves γ of a heap game from p to a position of value 0 (legal when p_i ≥ 1 at γ's top i;
/// the other entries only add heaps).
pub fn winning_heap_moves(game: &LatticeGame, values: &[u64], p: &Vector) -> Vec<Vector> {
    let total = position_value(values, p);
    if total == 0 {
        return Vec::new();
    }
    let d = game.dim();
    game.rules()
        .sparse_moves()
        .iter()
        .filter(|g| {
            let Some(top) = g.last_coordinate() else {
                return false;
            };
            if p.0[top] < Integer::ONE {
                return false;
            }
            // The move flips the parity of every coordinate where γ is odd.
            let change = g
                .entries()
                .iter()
                .filter(|(_, c)| c.is_odd())
                .fold(0, |x, (j, _)| x ^ values[*j]);
            total ^ change == 0
        })
        .map(|g| g.to_dense(d))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::heap::{HeapCode, HeapGame};
    use crate::game::solver::{MemoSolver, Outcome};

    #[test]
    fn heap_types_are_the_grundy_values_of_the_heap_sizes() {
        for code in ["0.77", "0.07", "0.137", "4!.0", "0.3F"] {
            let heap = HeapGame::from_code(&HeapCode::parse(code).unwrap(), 9);
            let game = heap.lattice_game(false).unwrap();
            let values = heap_type_values(&game).expect("a heap game");
            let g = heap.grundy();
            for (i, h) in heap.kept_sizes().into_iter().enumerate() {
                assert_eq!(values[i], g[h], "{code} heap {h}");
            }
            // Every position with up to 2 heaps of each of the first 5 kept types:
            // the outcome, the value and the winning moves against the exploring solver.
            let mut memo = MemoSolver::new(&game).unwrap();
            let d = game.dim().min(5);
            let mut p = vec![0i64; game.dim()];
            for code_point in 0..3usize.pow(d as u32) {
                let mut c = code_point;
                for x in p.iter_mut().take(d) {
                    *x = (c % 3) as i64;
                    c /= 3;
                }
                let v = Vector::from_i64s(&p);
                let value = position_value(&values, &v);
                assert_eq!(memo.grundy(&p).unwrap(), Some(value), "{code} at {p:?}");
                let want = if value == 0 { Outcome::P } else { Outcome::N };
                assert_eq!(memo.outcome(&p).unwrap(), want, "{code} at {p:?}");
                let mut brute: Vec<Vector> = Vec::new();
                for (m, q) in memo.options(&p) {
                    if memo.outcome(&q).unwrap() == Outcome::P {
                        brute.push(Vector::from_i64s(&m));
                    }
                }
                let mut fast = winning_heap_moves(&game, &values, &v);
                brute.sort();
                fast.sort();
                assert_eq!(fast, brute, "{code} at {p:?}");
            }
        }
    }

    #[test]
    fn misere_and_other_boards_are_not_heap_games_here() {
        let heap = HeapGame::from_code(&HeapCode::parse("0.77").unwrap(), 5);
        assert!(heap_type_values(&heap.lattice_game(true).unwrap()).is_none());
    }
}
