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
use crate::algebra::{AlgebraError, Integer, SparseVector, Vector};

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

/// The largest entry of a move, in bits, for which the axioms are decided by exact linear
/// programming: the rational arithmetic of the simplex method takes a gcd per operation, which
/// is quadratic in the bits (about a second per operation at 10^5 digits).
pub const MAX_AXIOM_ENTRY_BITS: u64 = 4096;

/// Refuses a rule set with an entry past [`MAX_AXIOM_ENTRY_BITS`] bits, naming the move.
pub fn entries_small_enough(rules: &RuleSet) -> Result<(), AlgebraError> {
    for (i, g) in rules.moves().iter().enumerate() {
        if let Some(x) = g.0.iter().find(|x| x.bits() > MAX_AXIOM_ENTRY_BITS) {
            return Err(AlgebraError::TooLarge(format!(
                "move {} has an entry of {} bits; the axioms of a rule set are decided by exact \
                 linear programming on entries of at most {MAX_AXIOM_ENTRY_BITS} bits",
                i + 1,
                x.bits()
            )));
        }
    }
    Ok(())
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

/// What would repair Γ, checked: for a failure of axiom 2, the moves to add (the primitive vector
/// of each ray ρ without a move: ρ lies in −T_ρC, and every functional positive on C is positive
/// on it, so axiom 1 is kept); for a failure of axiom 1, a move of the offending combination whose
/// removal makes both axioms hold. `None` when no such simple repair works (or the cone is not
/// pointed). The repaired rule set is checked with [`check_axioms`] before it is returned.
pub fn repair(rules: &RuleSet, cone: &ConeData) -> Option<Repair> {
    match check_axioms(rules, cone) {
        Ok(_) | Err(AxiomViolation::ConeNotPointed { .. }) => None,
        Err(AxiomViolation::NoMoveInTangentCone { .. }) => {
            let mut moves = rules.moves().to_vec();
            let mut added = Vec::new();
            for _ in 0..=cone.rays().len() {
                let candidate = RuleSet::new(moves.clone()).ok()?;
                match check_axioms(&candidate, cone) {
                    Ok(_) => return (!added.is_empty()).then_some(Repair::Add(added)),
                    Err(AxiomViolation::NoMoveInTangentCone { ray, .. }) => {
                        let m = crate::algebra::linalg::primitive(&ray);
                        if moves.contains(&m) {
                            return None;
                        }
                        moves.push(m.clone());
                        added.push(m);
                    }
                    Err(_) => return None,
                }
            }
            None
        }
        Err(AxiomViolation::NoPositiveFunctional { combination }) => combination
            .iter()
            .filter(|(_, _, is_move)| *is_move)
            .find_map(|(_, m, _)| {
                let rest: Vec<Vector> = rules.moves().iter().filter(|g| *g != m).cloned().collect();
                let candidate = RuleSet::new(rest).ok()?;
                check_axioms(&candidate, cone)
                    .is_ok()
                    .then(|| Repair::Remove(m.clone()))
            }),
    }
}

/// A checked repair of a rule set (see [`repair`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Repair {
    /// Adding these moves makes both axioms hold.
    Add(Vec<Vector>),
    /// Removing this move makes both axioms hold.
    Remove(Vector),
}

/// Both axioms on the orthant C = R^d_+ without double description or linear programming, when
/// a cheap certificate exists; `None` means "not shown this way" (decide with [`check_axioms`]).
///
/// - Axiom 2: the rays are the unit vectors e_i, and −T_{e_i}C = {x : x_j ≤ 0 for j ≠ i}, so some
///   move must have no positive entry outside coordinate i.
/// - Axiom 1: ℓ ≥ 1 entrywise is positive on C ∖ {0}; it is found greedily when every move's last
///   nonzero entry is positive (or every move's first): coordinates in that order, ℓ_i the least
///   value ≥ 1 making ℓ·γ ≥ 1 for every move γ ending at i (heap rule sets are of this kind, [GM09]
///   Example 2.5, with a heap's size squared as a valid bound).
pub fn orthant_certificate(rules: &RuleSet) -> Option<RuleSetCertificate> {
    let d = rules.dim();
    let (serving, functional) = orthant_witness(rules)?;
    let moves = rules.sparse_moves();
    let tangent_moves = serving
        .into_iter()
        .enumerate()
        .map(|(i, k)| (Vector::unit(d, i), moves[k].to_dense(d)))
        .collect();
    Some(RuleSetCertificate {
        functional,
        tangent_moves,
    })
}

/// The functional ℓ of [`orthant_certificate`] alone.
pub fn orthant_certificate_functional(rules: &RuleSet) -> Option<Vector> {
    orthant_witness(rules).map(|(_, l)| l)
}

/// Whether [`orthant_certificate`] finds a certificate, without writing its d dense tangent moves
/// (what declaring a game needs: time and memory linear in the nonzero entries of the moves).
pub fn orthant_axioms_hold(rules: &RuleSet) -> bool {
    orthant_witness(rules).is_some()
}

/// The index of a move serving each ray e_i, and the functional ℓ, of [`orthant_certificate`].
fn orthant_witness(rules: &RuleSet) -> Option<(Vec<usize>, Vector)> {
    let d = rules.dim();
    let moves = rules.sparse_moves();
    // One pass: a move with its only positive entry at i serves the ray e_i (one with none
    // would serve every ray).
    let mut serving: Vec<Option<usize>> = vec![None; d];
    let mut serves_all: Option<usize> = None;
    for (k, g) in moves.iter().enumerate() {
        let mut positive = g.entries().iter().filter(|(_, x)| x.signum() > 0);
        match (positive.next(), positive.next()) {
            (None, _) => serves_all = serves_all.or(Some(k)),
            (Some((i, _)), None) => serving[*i] = serving[*i].or(Some(k)),
            _ => {}
        }
    }
    let serving = serving
        .into_iter()
        .map(|s| s.or(serves_all))
        .collect::<Option<Vec<usize>>>()?;
    let functional = [false, true]
        .into_iter()
        .find_map(|reversed| triangular_functional(moves, d, reversed))?;
    Some((serving, functional))
}

/// The greedy functional of [`orthant_certificate`], coordinates taken from the first
/// (or, `reversed`, from the last); `None` when some move's leading entry is not positive.
fn triangular_functional(moves: &[SparseVector], d: usize, reversed: bool) -> Option<Vector> {
    // Position of a coordinate in the order the functional is built in.
    let rank = |i: usize| if reversed { d - 1 - i } else { i };
    // The moves whose last nonzero entry, in this order, is at coordinate i.
    let mut ending: Vec<Vec<&SparseVector>> = vec![Vec::new(); d];
    for g in moves {
        let (top, x) = g.entries().iter().max_by_key(|(i, _)| rank(*i))?;
        if x.signum() <= 0 {
            return None;
        }
        ending[*top].push(g);
    }
    let mut ell = vec![Integer::ZERO; d];
    for r in 0..d {
        let i = if reversed { d - 1 - r } else { r };
        let mut value = Integer::ONE;
        for g in &ending[i] {
            // ℓ_i·γ_i + Σ_{j before i} ℓ_j γ_j ≥ 1: ℓ_i ≥ ⌈(1 − rest)/γ_i⌉. (Every other
            // nonzero entry of γ comes before i in this order, so it is the sum over them.)
            let mut rest = Integer::ZERO;
            let mut top = Integer::ZERO;
            for (j, x) in g.entries() {
                if *j == i {
                    top = x.clone();
                } else {
                    rest = &rest + &(&ell[*j] * x);
                }
            }
            let need = &Integer::ONE - &rest;
            let q = need.div_floor(&top).expect("γ_i > 0");
            let need_i = if &q * &top == need {
                q
            } else {
                &q + &Integer::ONE
            };
            if need_i > value {
                value = need_i;
            }
        }
        ell[i] = value;
    }
    Some(Vector(ell))
}

/// The Erratum's squarefree condition (its Proposition 1, part 3): every move has at most one
/// positive entry, and that entry is 1.
pub fn is_squarefree(rules: &RuleSet) -> bool {
    rules.sparse_moves().iter().all(|g| {
        let mut positive = g.entries().iter().filter(|(_, x)| x.signum() > 0);
        match (positive.next(), positive.next()) {
            (None, _) => true,
            (Some((_, x)), None) => *x == Integer::ONE,
            _ => false,
        }
    })
}

/// [GM09] Proposition 6.2, part 3 (weakly squarefree in the Erratum's terms): the largest entry of
/// every move is 1.
pub fn is_weakly_squarefree(rules: &RuleSet) -> bool {
    rules
        .sparse_moves()
        .iter()
        .all(|g| g.entries().iter().map(|(_, x)| x).max() == Some(&Integer::ONE))
}

/// [GM09] Example 2.5: a heap rule set has every nonzero entry negative except the last nonzero
/// entry of each move, which is 1.
pub fn is_heap_ruleset(rules: &RuleSet) -> bool {
    rules
        .sparse_moves()
        .iter()
        .all(|g| match g.entries().split_last() {
            Some(((_, last), rest)) => {
                *last == Integer::ONE && rest.iter().all(|(_, x)| x.signum() < 0)
            }
            None => false,
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

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// The orthant certificate is only ever given for real rule sets (checked with the
        /// general decision), it certifies what it claims, and heap-like rule sets get one.
        #[test]
        fn orthant_certificates_agree_with_the_general_check(
            moves in proptest::collection::vec(proptest::collection::vec(-3i64..=3, 3), 1..6),
        ) {
            let moves: Vec<Vector> = moves.iter().filter(|m| m.iter().any(|&x| x != 0)).map(|m| v(m)).collect();
            proptest::prop_assume!(!moves.is_empty());
            let g = RuleSet::new(moves).unwrap();
            let general = check_axioms(&g, &orthant(3));
            if let Some(cert) = orthant_certificate(&g) {
                proptest::prop_assert!(general.is_ok(), "{} certified but {:?}", g, general);
                proptest::prop_assert!(cert.functional.0.iter().all(|x| x.signum() > 0));
                for m in g.moves() {
                    proptest::prop_assert!(cert.functional.dot(m).signum() > 0);
                }
                for (ray, m) in &cert.tangent_moves {
                    proptest::prop_assert!(orthant(3).negative_tangent_cone(ray).contains(m));
                }
            }
        }
    }

    #[test]
    fn heap_rule_sets_and_nim_get_orthant_certificates() {
        // Kayles with heaps ≤ 4 (coordinates are heap sizes 1..4) and Nim(4).
        let kayles = rules(&[
            &[1, 0, 0, 0],
            &[0, 1, 0, 0],
            &[-1, 1, 0, 0],
            &[0, 0, 1, 0],
            &[-1, 0, 1, 0],
            &[-2, 0, 1, 0],
            &[0, -1, 1, 0],
            &[0, 0, 0, 1],
            &[-1, 0, 0, 1],
            &[0, -1, 0, 1],
            &[-1, -1, 0, 1],
            &[0, 0, -1, 1],
            &[-2, 0, 0, 1],
        ]);
        assert!(orthant_certificate(&kayles).is_some());
        let nim: Vec<Vector> = (0..4)
            .flat_map(|k| {
                (0..=k).map(move |j| {
                    let mut x = vec![0i64; 4];
                    x[k] += 1;
                    if j < k {
                        x[j] -= 1;
                    }
                    v(&x)
                })
            })
            .collect();
        let cert = orthant_certificate(&RuleSet::new(nim).unwrap()).unwrap();
        assert_eq!(cert.functional, v(&[1, 2, 3, 4]));
        // Example 3.1's kind of failure is left to the general check.
        assert!(orthant_certificate(&rules(&[&[1, 0], &[0, 1], &[-1, 0]])).is_none());
    }
}
