//! Strategies as exact sets: the board B = Λ ∖ D and the cone C as stratified sets, the known
//! strategy of a game (squarefree normal play: P = P0 + 2N^d, [Erratum] Theorem 3), deciding
//! positions and winning moves from a rational strategy alone ([GM11] Theorem 3.6), and misère
//! congruence ([GM11] Definition 6.1, Theorem 6.2; [GM09] Definition 6.6).

use crate::algebra::genfunc::RationalFunction;
use crate::algebra::polyhedral::polyhedron_data;
use crate::algebra::{AlgebraError, Integer, StratifiedSet, Vector};

use super::solver::{self, SolveError};
use super::LatticeGame;

/// Λ = Π ∩ Z^d, the lattice points of the game's polyhedron.
pub fn lattice_points(game: &LatticeGame) -> Result<StratifiedSet, AlgebraError> {
    StratifiedSet::from_polyhedron(game.board().polyhedron())
}

/// The board B = Λ ∖ D, with the defeated positions D computed from the rule set.
pub fn board(game: &LatticeGame) -> Result<StratifiedSet, SolveError> {
    let lambda = lattice_points(game)?;
    if game.board().defeated().is_empty() {
        return Ok(lambda);
    }
    let ell = solver::functional(game, None)?;
    let defeated = solver::defeated_ideal(game, &ell)?;
    let points: Vec<Vector> = defeated
        .sorted()
        .iter()
        .map(|p| Vector::from_i64s(p))
        .collect();
    Ok(lambda.difference(&StratifiedSet::from_points(game.dim(), &points))?)
}

/// C ∩ Z^d for the recession cone C of the game's polyhedron.
pub fn cone_points(game: &LatticeGame) -> Result<StratifiedSet, AlgebraError> {
    let data = polyhedron_data(game.board().polyhedron())?;
    let cone = data.recession_cone();
    let d = game.dim();
    let mut ineqs: Vec<(Vector, Integer)> = cone
        .facets()
        .iter()
        .map(|f| (f.clone(), Integer::ZERO))
        .collect();
    for e in cone.equations() {
        ineqs.push((e.clone(), Integer::ZERO));
        ineqs.push((e.scale(&Integer::from(-1)), Integer::ZERO));
    }
    StratifiedSet::from_basic(crate::algebra::basic_set::BasicSet::from_inequalities(
        d, ineqs,
    ))
}

/// The P-positions when a theorem gives them: squarefree normal play on N^d, P0 + 2N^d.
/// `Ok(None)` when no strategy is known for the game.
pub fn known_strategy(game: &LatticeGame) -> Result<Option<StratifiedSet>, SolveError> {
    let sf = match solver::squarefree_p0(game) {
        Ok(sf) => sf,
        Err(SolveError::NotSquarefree(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    let d = sf.dim();
    let lattice = crate::algebra::lattice::Lattice::generated_by(
        d,
        &(0..d)
            .map(|i| Vector::unit(d, i).scale(&Integer::from(2)))
            .collect::<Vec<_>>(),
    );
    // P0 ⊆ {0, 1}^d, so its points lie in distinct cosets of 2Z^d and the pieces are disjoint.
    let pieces = sf
        .p0()
        .iter()
        .map(|p| {
            crate::algebra::basic_set::BasicSet::new(
                crate::algebra::coset::Coset::new(p.clone(), &lattice),
                (0..d)
                    .map(|i| (Vector::unit(d, i), p.0[i].clone()))
                    .collect(),
            )
        })
        .collect();
    Ok(Some(StratifiedSet::from_disjoint(d, pieces)?))
}

/// Whether p is a P-position according to a rational strategy f: the coefficient of t^p in f, that
/// is f ⋆ t^p = t^p ([GM11] Theorem 3.6).
pub fn is_p_position(f: &RationalFunction, p: &Vector) -> bool {
    f.coefficient(p) == num_rational::BigRational::from(num_bigint::BigInt::from(1))
}

/// The moves γ from p to a P-position according to the rational strategy f: those with p − γ on
/// the board and f ⋆ t^{p−γ} ≠ 0 ([GM11] Theorem 3.6).
pub fn winning_moves_from(
    f: &RationalFunction,
    game: &LatticeGame,
    p: &Vector,
) -> Result<Vec<Vector>, SolveError> {
    let options = solver::options(game, p)?;
    Ok(game
        .rules()
        .moves()
        .iter()
        .filter(|g| {
            let q = p.sub(g);
            options.contains(&q) && is_p_position(f, &q)
        })
        .cloned()
        .collect())
}

/// ((x + C) ∩ P) − x.
fn future(
    p_set: &StratifiedSet,
    cone: &StratifiedSet,
    x: &Vector,
) -> Result<StratifiedSet, AlgebraError> {
    Ok(p_set
        .intersect(&cone.translate(x))?
        .translate(&x.scale(&Integer::from(-1))))
}

/// Misère congruence of p and q for the P-positions `p_set` and the cone C ∩ Z^d: `None` when
/// (p + C) ∩ P − p = (q + C) ∩ P − q, else a witness r ∈ C with exactly one of p + r, q + r in P.
pub fn congruence_witness(
    p_set: &StratifiedSet,
    cone: &StratifiedSet,
    p: &Vector,
    q: &Vector,
) -> Result<Option<Vector>, AlgebraError> {
    future(p_set, cone, p)?.difference_witness(&future(p_set, cone, q)?)
}

/// The same from a rational strategy alone, as in the proof of [GM11] Theorem 6.2:
/// f(S_p) = t^{−p}·(f ⋆ f(p + C)), and p, q are congruent exactly when f(S_p) − f(S_q) = 0.
pub fn congruence_witness_from(
    f: &RationalFunction,
    cone: &StratifiedSet,
    p: &Vector,
    q: &Vector,
) -> Result<Option<Vector>, AlgebraError> {
    let part = |x: &Vector| -> Result<RationalFunction, AlgebraError> {
        let shifted = RationalFunction::of_set(&cone.translate(x))?;
        Ok(f.hadamard(&shifted)?.shift(&x.scale(&Integer::from(-1))))
    };
    part(p)?.sub(&part(q)?).nonzero_point()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algebra::{Cone, Polyhedron};
    use crate::game::{GameBoard, RuleSet};

    fn v(xs: &[i64]) -> Vector {
        Vector::from_i64s(xs)
    }

    fn nim2(misere: bool) -> LatticeGame {
        let rules = RuleSet::new(vec![v(&[1, 0]), v(&[0, 1]), v(&[-1, 1])]).unwrap();
        let board = if misere {
            GameBoard::misere(2)
        } else {
            GameBoard::normal_play(2)
        }
        .unwrap();
        LatticeGame::new(rules, board).unwrap()
    }

    #[test]
    fn squarefree_normal_play_is_p0_plus_2n() {
        // {(1,0,0),(0,1,0),(0,0,1),(-1,1,0),(-1,0,1)} in normal play; the Erratum's weakly squarefree
        // {(1,0,0),(0,1,0),(0,0,1),(1,1,0)} has no such strategy.
        let rules = RuleSet::new(vec![
            v(&[1, 0, 0]),
            v(&[0, 1, 0]),
            v(&[0, 0, 1]),
            v(&[-1, 1, 0]),
            v(&[-1, 0, 1]),
        ])
        .unwrap();
        let g = LatticeGame::new(rules, GameBoard::normal_play(3).unwrap()).unwrap();
        let p_set = known_strategy(&g).unwrap().expect("squarefree");
        let mut memo = solver::MemoSolver::new(&g).unwrap();
        for x in 0..6 {
            for y in 0..6 {
                for z in 0..6 {
                    let is_p = memo.outcome(&[x, y, z]).unwrap() == solver::Outcome::P;
                    assert_eq!(p_set.contains(&v(&[x, y, z])), is_p, "({x}, {y}, {z})");
                }
            }
        }
        assert!(known_strategy(&nim2(true)).unwrap().is_none());
        let erratum = RuleSet::new(vec![
            v(&[1, 0, 0]),
            v(&[0, 1, 0]),
            v(&[0, 0, 1]),
            v(&[1, 1, 0]),
        ])
        .unwrap();
        let g = LatticeGame::new(erratum, GameBoard::normal_play(3).unwrap()).unwrap();
        assert!(known_strategy(&g).unwrap().is_none());
    }

    #[test]
    fn misere_board_and_cone() {
        let g = nim2(true);
        let b = board(&g).unwrap();
        assert!(!b.contains(&v(&[0, 0])));
        assert!(b.contains(&v(&[1, 0])));
        let c = cone_points(&g).unwrap();
        let orthant = StratifiedSet::from_polyhedron(&Polyhedron::Cone(Cone::Orthant(2))).unwrap();
        assert!(c.set_eq(&orthant).unwrap());
    }

    #[test]
    fn congruence_agrees_with_brute_force_on_nim() {
        // Misère Nim with heaps ≤ 2 ([GM09] Example 8.7): P = ((1,0) + 2N) ⊎ ((0,2) + 2N^2), from
        // the exact solver on a window, compared for congruence on a window.
        let g = nim2(true);
        let p1 = StratifiedSet::from_basic(crate::algebra::basic_set::BasicSet::simplicial(
            &v(&[1, 0]),
            &[v(&[2, 0])],
        ))
        .unwrap();
        let p2 = StratifiedSet::from_basic(crate::algebra::basic_set::BasicSet::simplicial(
            &v(&[0, 2]),
            &[v(&[2, 0]), v(&[0, 2])],
        ))
        .unwrap();
        let p_set = p1.union(&p2).unwrap();
        let mut memo = solver::MemoSolver::new(&g).unwrap();
        for x in 0..12 {
            for y in 0..12 {
                let is_p = memo.outcome(&[x, y]).unwrap() == solver::Outcome::P;
                assert_eq!(p_set.contains(&v(&[x, y])), is_p, "({x}, {y})");
            }
        }
        let cone = cone_points(&g).unwrap();
        let f = RationalFunction::of_set(&p_set).unwrap();
        for (p, q) in [
            ([1, 0], [3, 0]),
            ([0, 0], [2, 0]),
            ([1, 1], [3, 1]),
            ([0, 2], [2, 2]),
            ([0, 1], [0, 3]),
        ] {
            let (p, q) = (v(&p), v(&q));
            // Brute force on a window: compare p + r and q + r for r in [0, 8]^2.
            let mut brute = None;
            'outer: for a in 0..8 {
                for b in 0..8 {
                    let r = v(&[a, b]);
                    if p_set.contains(&p.add(&r)) != p_set.contains(&q.add(&r)) {
                        brute = Some(r);
                        break 'outer;
                    }
                }
            }
            let w = congruence_witness(&p_set, &cone, &p, &q).unwrap();
            let wf = congruence_witness_from(&f, &cone, &p, &q).unwrap();
            assert_eq!(w.is_some(), brute.is_some(), "{p} ~ {q}");
            assert_eq!(
                wf.is_some(),
                brute.is_some(),
                "{p} ~ {q} from the rational strategy"
            );
            for r in w.iter().chain(&wf) {
                assert_ne!(
                    p_set.contains(&p.add(r)),
                    p_set.contains(&q.add(r)),
                    "witness {r}"
                );
            }
        }
    }

    #[test]
    fn theorem_3_6_on_normal_play_nim() {
        // Normal-play Nim with heaps ≤ 2 ([GM09] Example 8.2): P = 2N^2, decided from the
        // generating function alone, agreeing with the solver.
        let g = nim2(false);
        let p_set = StratifiedSet::from_basic(crate::algebra::basic_set::BasicSet::simplicial(
            &v(&[0, 0]),
            &[v(&[2, 0]), v(&[0, 2])],
        ))
        .unwrap();
        let f = RationalFunction::of_set(&p_set).unwrap();
        let mut memo = solver::MemoSolver::new(&g).unwrap();
        for x in 0..10 {
            for y in 0..10 {
                let p = v(&[x, y]);
                let is_p = memo.outcome(&[x, y]).unwrap() == solver::Outcome::P;
                assert_eq!(is_p_position(&f, &p), is_p, "{p}");
                let moves = winning_moves_from(&f, &g, &p).unwrap();
                assert_eq!(moves.is_empty(), is_p, "{p}");
                for m in moves {
                    assert_eq!(
                        memo.outcome(&[x - m.0[0].to_i64().unwrap(), y - m.0[1].to_i64().unwrap()])
                            .unwrap(),
                        solver::Outcome::P
                    );
                }
            }
        }
    }
}
