//! Pointed rational polyhedra Π ⊂ R^d, whose lattice points Λ = Π ∩ Z^d are the positions of a
//! lattice game ([GM09] Section 2). A polyhedron is either a cone (Π = C) or given by inequalities
//! {x : Ax ≥ b} with A an integer matrix and b rational.

use std::fmt;

use num_rational::BigRational;

use super::{AlgebraError, Cone, Matrix, Vector};

/// A rational polyhedron, as it was described.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Polyhedron {
    /// The polyhedron is a cone C (so Λ = C ∩ Z^d).
    Cone(Cone),
    /// {x ∈ R^d : Ax ≥ b}.
    Inequalities {
        /// One inequality per row.
        a: Matrix,
        /// The right-hand sides, one per row of `a`.
        b: Vec<BigRational>,
    },
}

impl Polyhedron {
    /// {x : Ax ≥ b}; `b` needs one entry per row of `A`.
    pub fn from_inequalities(a: Matrix, b: Vec<BigRational>) -> Result<Polyhedron, AlgebraError> {
        if b.len() != a.nrows() {
            return Err(AlgebraError::DimensionMismatch {
                what: "the right-hand side b of Ax ≥ b (one entry per row of A)".into(),
                expected: a.nrows(),
                found: b.len(),
            });
        }
        Ok(Polyhedron::Inequalities { a, b })
    }

    /// The ambient dimension d.
    pub fn dim(&self) -> usize {
        match self {
            Polyhedron::Cone(c) => c.dim(),
            Polyhedron::Inequalities { a, .. } => a.ncols(),
        }
    }

    /// Whether the lattice point `p` lies in Π, when decidable from the description without linear
    /// programming; `None` for a cone given by generators.
    pub fn contains_directly(&self, p: &Vector) -> Option<bool> {
        match self {
            Polyhedron::Cone(c) => c.contains_directly(p),
            Polyhedron::Inequalities { a, b } => {
                if p.dim() != a.ncols() {
                    return Some(false);
                }
                let ap = a.apply(p);
                Some(
                    ap.0.iter()
                        .zip(b)
                        .all(|(lhs, rhs)| BigRational::from(lhs.to_bigint()) >= *rhs),
                )
            }
        }
    }
}

impl fmt::Display for Polyhedron {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Polyhedron::Cone(c) => write!(f, "{c}"),
            Polyhedron::Inequalities { a, b } => {
                write!(f, "polyhedron({a}, (")?;
                for (i, x) in b.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{x}")?;
                }
                if b.len() == 1 {
                    write!(f, ",")?;
                }
                write!(f, "))")
            }
        }
    }
}
