//! The axioms of a rule set ([GM09] Definition 2.3) and the squarefree conditions.
//!
//! A finite Γ ⊂ Z^d ∖ {0} is a rule set for the board's recession cone C when
//! 1. some linear function is positive on C ∖ {0} and on Γ, and
//! 2. for each extremal ray ρ of C, some γ ∈ Γ lies in the negative tangent cone −T_ρC
//!    ([GM09] Definition 2.2).
//!
//! [`check_axioms`] decides both exactly and returns a certificate either way: the functional and
//! a move for each ray, or what fails (a lineality direction of C, a nonnegative combination of
//! moves and rays summing to 0, or the ray whose negative tangent cone holds no move; [GM09]
//! Example 3.1 fails this last way along the third axis).
//!
//! Squarefree rule sets are those of the Erratum (Proposition 1): every move has at most one
//! positive entry, and it is 1. The original definition ([GM09] Proposition 6.2, Definition 6.3),
//! now called weakly squarefree, asks only that the largest entry of each move be 1.

use std::fmt;

use super::{GameBoard, RuleSet};
use crate::algebra::lp::positive_functional;
use crate::algebra::polyhedral::{polyhedron_data, ConeData};
use crate::algebra::{AlgebraError, Integer, Vector};

/// Evidence that Γ is a rule set for C.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSetCertificate {
    /// ℓ, positive on Γ and on C ∖ {0} (axiom 1).
    pub functional: Vector,
    /// For each extremal ray ρ of C, a move γ_ρ ∈ Γ ∩ −T_ρC (axiom 2).
    pub tangent_moves: Vec<(Vector, Vector)>,
}

/// Why Γ is not a rule set for C.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AxiomViolation {
    /// C contains a line, so no linear function is positive on C ∖ {0} (axiom 1).
    ConeNotPointed {
        /// A direction v with v and −v in C.
        lineality: Vector,
    },
    /// Axiom 1 fails: a nonnegative combination of moves and rays of C, not all zero, sums to 0.
    NoPositiveFunctional {
        /// The terms λ·v with λ > 0; `true` marks a move of Γ, `false` a ray of C.
        combination: Vec<(Integer, Vector, bool)>,
    },
    /// Axiom 2 fails along the ray ρ: no move lies in −T_ρC.
    NoMoveInTangentCone {
        /// The ray ρ of C.
        ray: Vector,
        /// The inequalities f·x ≤ 0 describing −T_ρC (one per facet of C containing ρ).
        tangent_inequalities: Vec<Vector>,
        /// The equations e·x = 0 of the span of C (when C is not full-dimensional).
        tangent_equations: Vec<Vector>,
    },
}

impl fmt::Display for AxiomViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AxiomViolation::ConeNotPointed { lineality } => write!(
                f,
                "axiom 1 fails: the cone contains the line through {lineality}, so no linear function is positive on C ∖ {{0}}"
            ),
            AxiomViolation::NoPositiveFunctional { combination } => {
                write!(f, "axiom 1 fails: no linear function is positive on Γ and C ∖ {{0}}, because ")?;
                for (i, (l, v, is_move)) in combination.iter().enumerate() {
                    if i > 0 {
                        write!(f, " + ")?;
                    }
                    if *l != Integer::ONE {
                        write!(f, "{l}·")?;
                    }
                    write!(f, "{v}")?;
                    write!(f, "{}", if *is_move { " (a move)" } else { " (a ray of C)" })?;
                }
                write!(f, " = 0")
            }
            AxiomViolation::NoMoveInTangentCone { ray, tangent_inequalities, tangent_equations } => {
                write!(f, "axiom 2 fails along the ray {ray} of C: no move lies in the negative tangent cone −T_ρC = ")?;
                let conditions: Vec<String> = tangent_inequalities
                    .iter()
                    .map(|a| format!("{a}·x ≤ 0"))
                    .chain(tangent_equations.iter().map(|e| format!("{e}·x = 0")))
                    .collect();
                if conditions.is_empty() {
                    write!(f, "R^d")
                } else {
                    write!(f, "{{x : {}}}", conditions.join(", "))
                }
            }
        }
    }
}

/// The recession cone C of a board's polyhedron.
pub fn recession_cone(board: &GameBoard) -> Result<ConeData, AlgebraError> {
    Ok(polyhedron_data(board.polyhedron())?
        .recession_cone()
        .clone())
}

/// Axiom 1 alone: a small integer ℓ positive on Γ and on C ∖ {0}, or why none exists.
pub fn positive_on_moves_and_cone(
    rules: &RuleSet,
    cone: &ConeData,
) -> Result<Vector, AxiomViolation> {
    if let Some(l) = cone.lineality().first() {
        return Err(AxiomViolation::ConeNotPointed {
            lineality: l.clone(),
        });
    }
    let moves = rules.moves();
    let mut all: Vec<Vector> = moves.to_vec();
    all.extend(cone.rays().iter().cloned());
    positive_functional(rules.dim(), &all).map_err(|lambda| {
        let combination = lambda
            .into_iter()
            .zip(all)
            .enumerate()
            .filter(|(_, (l, _))| !l.is_zero())
            .map(|(i, (l, v))| (l, v, i < moves.len()))
            .collect();
        AxiomViolation::NoPositiveFunctional { combination }
    })
}

/// Decides the two axioms of [GM09] Definition 2.3 for Γ and the cone C.
pub fn check_axioms(
    rules: &RuleSet,
    cone: &ConeData,
) -> Result<RuleSetCertificate, AxiomViolation> {
    let functional = positive_on_moves_and_cone(rules, cone)?;
    let (moves, rays) = (rules.moves(), cone.rays());
    let mut tangent_moves = Vec::with_capacity(rays.len());
    for ray in rays {
        let tangent = cone.negative_tangent_cone(ray);
        match moves.iter().find(|g| tangent.contains(g)) {
            Some(g) => tangent_moves.push((ray.clone(), g.clone())),
            None => {
                return Err(AxiomViolation::NoMoveInTangentCone {
                    ray: ray.clone(),
                    tangent_inequalities: cone.facets_containing(ray),
                    tangent_equations: cone.equations().to_vec(),
                });
            }
        }
    }
    Ok(RuleSetCertificate {
        functional,
        tangent_moves,
    })
}

/// The Erratum's squarefree condition (its Proposition 1, part 3): every move has at most one
/// positive entry, and that entry is 1.
pub fn is_squarefree(rules: &RuleSet) -> bool {
    rules.moves().iter().all(|g| {
        let positive: Vec<&Integer> = g.0.iter().filter(|x| x.signum() > 0).collect();
        positive.len() <= 1 && positive.iter().all(|x| **x == Integer::ONE)
    })
}

/// [GM09] Proposition 6.2, part 3 (weakly squarefree in the Erratum's terms): the largest entry of
/// every move is 1.
pub fn is_weakly_squarefree(rules: &RuleSet) -> bool {
    rules
        .moves()
        .iter()
        .all(|g| g.0.iter().max() == Some(&Integer::ONE))
}

/// [GM09] Example 2.5: a heap rule set has every nonzero entry negative except the last nonzero
/// entry of each move, which is 1.
pub fn is_heap_ruleset(rules: &RuleSet) -> bool {
    rules.moves().iter().all(|g| {
        let nonzero: Vec<&Integer> = g.0.iter().filter(|x| !x.is_zero()).collect();
        match nonzero.split_last() {
            Some((last, rest)) => **last == Integer::ONE && rest.iter().all(|x| x.signum() < 0),
            None => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(xs: &[i64]) -> Vector {
        Vector::from_i64s(xs)
    }

    fn rules(vs: &[&[i64]]) -> RuleSet {
        RuleSet::new(vs.iter().map(|x| v(x)).collect()).unwrap()
    }

    fn orthant(d: usize) -> ConeData {
        ConeData::from_generators(d, &(0..d).map(|i| Vector::unit(d, i)).collect::<Vec<_>>())
            .unwrap()
    }

    #[test]
    fn example_2_4_is_a_rule_set() {
        let g = rules(&[&[1, 0], &[0, 1], &[-1, 1]]);
        let cert = check_axioms(&g, &orthant(2)).unwrap();
        for m in g.moves() {
            assert!(cert.functional.dot(m).signum() > 0);
        }
        for (ray, m) in &cert.tangent_moves {
            assert!(g.moves().contains(m), "{ray}");
        }
        assert_eq!(cert.tangent_moves.len(), 2);
    }

    #[test]
    fn example_3_1_fails_the_tangent_cone_axiom_along_the_third_axis() {
        let g = rules(&[&[1, 0, 0], &[0, 1, 0], &[1, -1, 1], &[-1, 1, 1]]);
        match check_axioms(&g, &orthant(3)) {
            Err(AxiomViolation::NoMoveInTangentCone {
                ray,
                tangent_inequalities,
                ..
            }) => {
                assert_eq!(ray, v(&[0, 0, 1]));
                let mut t = tangent_inequalities;
                t.sort();
                assert_eq!(t, vec![v(&[0, 1, 0]), v(&[1, 0, 0])]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn opposite_moves_fail_axiom_one() {
        let g = rules(&[&[1, 0], &[0, 1], &[-1, 0]]);
        assert!(matches!(
            check_axioms(&g, &orthant(2)),
            Err(AxiomViolation::NoPositiveFunctional { .. })
        ));
    }

    #[test]
    fn a_cone_with_a_line_is_rejected() {
        let half_plane = ConeData::from_inequalities(2, &[v(&[1, 0])]).unwrap();
        let g = rules(&[&[1, 0]]);
        assert!(matches!(
            check_axioms(&g, &half_plane),
            Err(AxiomViolation::ConeNotPointed { .. })
        ));
    }

    #[test]
    fn the_erratum_rule_set_is_weakly_squarefree_but_not_squarefree() {
        let g = rules(&[&[1, 0, 0], &[0, 1, 0], &[0, 0, 1], &[1, 1, 0]]);
        assert!(is_weakly_squarefree(&g));
        assert!(!is_squarefree(&g));
        let nim = rules(&[&[1, 0], &[0, 1], &[-1, 1]]);
        assert!(is_squarefree(&nim) && is_weakly_squarefree(&nim) && is_heap_ruleset(&nim));
        assert!(!is_weakly_squarefree(&rules(&[&[2, 0], &[0, 1]])));
    }
}
