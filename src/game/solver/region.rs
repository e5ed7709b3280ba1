//! Regions of positions to solve: a weight bound ℓ·p ≤ L under a functional positive on the moves
//! and the recession cone (closed under taking options, since every move lowers the weight), a box,
//! or a polytope. Boxes and polytopes need not be closed under options; the solver computes the
//! weight region below them.

use std::fmt;

use super::layout::{to_machine, Inequality};
use super::SolveError;
use crate::algebra::polyhedral::integer_inequalities;
use crate::algebra::{Integer, Polyhedron, Vector};

/// A finite set of positions to solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Region {
    /// The positions p with ℓ·p ≤ L.
    Weight(Integer),
    /// The positions p with lo ≤ p ≤ hi coordinatewise.
    Box {
        /// The lower corner.
        lo: Vector,
        /// The upper corner.
        hi: Vector,
    },
    /// The positions in a polytope.
    Polytope(Polyhedron),
}

impl Region {
    /// The region as inequalities, except for a weight bound (`None`), which depends on ℓ.
    pub(crate) fn inequalities(&self, d: usize) -> Result<Option<Vec<Inequality>>, SolveError> {
        match self {
            Region::Weight(_) => Ok(None),
            Region::Box { lo, hi } => {
                crate::algebra::AlgebraError::check_vectors(
                    "a corner of the box",
                    d,
                    &[lo.clone(), hi.clone()],
                )?;
                let mut rows = Vec::new();
                for i in 0..d {
                    let e = Vector::unit(d, i);
                    rows.push((e.clone(), lo.0[i].clone()));
                    rows.push((e.scale(&Integer::from(-1)), -hi.0[i].clone()));
                }
                Ok(Some(to_machine(&rows)?))
            }
            Region::Polytope(p) => {
                if p.dim() != d {
                    return Err(SolveError::Algebra(
                        crate::algebra::AlgebraError::DimensionMismatch {
                            what: "the region and the game".into(),
                            expected: d,
                            found: p.dim(),
                        },
                    ));
                }
                Ok(Some(to_machine(&integer_inequalities(p)?)?))
            }
        }
    }
}

impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Region::Weight(l) => write!(f, "weight ≤ {l}"),
            Region::Box { lo, hi } => write!(f, "the box {lo} ≤ p ≤ {hi}"),
            Region::Polytope(p) => write!(f, "the polytope {p}"),
        }
    }
}
