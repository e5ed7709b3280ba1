//! Finitely generated modules F + A over an affine semigroup A, with F ⊂ Z^d finite: the pieces W_i
//! of an affine stratification ([GM09] Definition 8.6, [GM11] Definition 4.1).

use std::fmt;

use super::vector::{canonical, check_dims, fmt_set};
use super::{AffineSemigroup, AlgebraError, Vector};

/// The module F + A = {f + a : f ∈ F, a ∈ A}.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct AffineModule {
    offsets: Vec<Vector>,
    semigroup: AffineSemigroup,
}

impl AffineModule {
    /// F + A; F must be nonempty and live in the semigroup's Z^d.
    pub fn new(
        offsets: Vec<Vector>,
        semigroup: AffineSemigroup,
    ) -> Result<AffineModule, AlgebraError> {
        if offsets.is_empty() {
            return Err(AlgebraError::Empty(
                "the finite set F of a module F + A".into(),
            ));
        }
        check_dims("a module offset", semigroup.dim(), &offsets)?;
        Ok(AffineModule {
            offsets: canonical(offsets),
            semigroup,
        })
    }

    /// The semigroup itself as a module over itself, 0 + A.
    pub fn from_semigroup(semigroup: AffineSemigroup) -> AffineModule {
        AffineModule {
            offsets: vec![Vector::zero(semigroup.dim())],
            semigroup,
        }
    }

    /// The finite set F, canonically ordered.
    pub fn offsets(&self) -> &[Vector] {
        &self.offsets
    }

    /// The semigroup A.
    pub fn semigroup(&self) -> &AffineSemigroup {
        &self.semigroup
    }

    /// The ambient dimension d.
    pub fn dim(&self) -> usize {
        self.semigroup.dim()
    }

    /// p + (F + A) = (p + F) + A.
    pub fn translate(&self, p: &Vector) -> Result<AffineModule, AlgebraError> {
        check_dims("a translation", self.dim(), [p])?;
        Ok(AffineModule {
            offsets: canonical(self.offsets.iter().map(|f| f.add(p)).collect()),
            semigroup: self.semigroup.clone(),
        })
    }

    /// (F + A) + G for a finite set G: (F + G) + A.
    pub fn add_offsets(&self, g: &[Vector]) -> Result<AffineModule, AlgebraError> {
        check_dims("a module offset", self.dim(), g)?;
        let offsets = self
            .offsets
            .iter()
            .flat_map(|f| g.iter().map(move |x| f.add(x)))
            .collect();
        AffineModule::new(offsets, self.semigroup.clone())
    }
}

impl fmt::Display for AffineModule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.offsets.len() == 1 {
            write!(f, "{}", self.offsets[0])?;
        } else {
            fmt_set(f, &self.offsets)?;
        }
        write!(f, " + {}", self.semigroup)
    }
}
