//! Integer vectors: points of Z^d, moves, generators. Printed as in the papers, `(1, 0, -1)`.

use std::fmt;

use super::Integer;

/// A vector in Z^d.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Vector(pub Vec<Integer>);

impl Vector {
    /// The zero vector of Z^d.
    pub fn zero(d: usize) -> Vector {
        Vector(vec![Integer::ZERO; d])
    }

    /// The `i`-th unit vector e_i of Z^d (0-based `i`).
    pub fn unit(d: usize, i: usize) -> Vector {
        let mut v = Vector::zero(d);
        v.0[i] = Integer::ONE;
        v
    }

    /// From machine integers.
    pub fn from_i64s(xs: &[i64]) -> Vector {
        Vector(xs.iter().map(|&x| Integer::from(x)).collect())
    }

    /// As machine integers, when every entry fits.
    pub fn to_i64s(&self) -> Option<Vec<i64>> {
        self.0.iter().map(Integer::to_i64).collect()
    }

    /// The dimension d.
    pub fn dim(&self) -> usize {
        self.0.len()
    }

    /// Whether every coordinate is 0.
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(Integer::is_zero)
    }

    /// Coordinatewise sum (dimensions must agree).
    pub fn add(&self, other: &Vector) -> Vector {
        Vector(self.0.iter().zip(&other.0).map(|(a, b)| a + b).collect())
    }

    /// Coordinatewise difference (dimensions must agree).
    pub fn sub(&self, other: &Vector) -> Vector {
        Vector(self.0.iter().zip(&other.0).map(|(a, b)| a - b).collect())
    }

    /// `k * v`.
    pub fn scale(&self, k: &Integer) -> Vector {
        Vector(self.0.iter().map(|a| a * k).collect())
    }

    /// The dot product (dimensions must agree).
    pub fn dot(&self, other: &Vector) -> Integer {
        self.0
            .iter()
            .zip(&other.0)
            .filter(|(a, b)| !a.is_zero() && !b.is_zero())
            .fold(Integer::ZERO, |acc, (a, b)| acc + a * b)
    }

    /// Whether every coordinate is nonnegative.
    pub fn is_nonnegative(&self) -> bool {
        self.0.iter().all(|x| x.signum() >= 0)
    }
}

impl fmt::Display for Vector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(")?;
        for (i, x) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{x}")?;
        }
        if self.0.len() == 1 {
            write!(f, ",")?;
        }
        write!(f, ")")
    }
}

/// Checks that all vectors have dimension `d`, naming `what` in the error.
pub(crate) fn check_dims<'a>(
    what: &str,
    d: usize,
    vs: impl IntoIterator<Item = &'a Vector>,
) -> Result<(), super::AlgebraError> {
    for v in vs {
        if v.dim() != d {
            return Err(super::AlgebraError::DimensionMismatch {
                what: format!("{what}: the vector {v}"),
                expected: d,
                found: v.dim(),
            });
        }
    }
    Ok(())
}

/// Sorts and removes duplicates, giving a canonical order for sets of vectors.
pub(crate) fn canonical(mut vs: Vec<Vector>) -> Vec<Vector> {
    vs.sort();
    vs.dedup();
    vs
}

/// Writes `{v1, v2, ...}`.
pub(crate) fn fmt_set(f: &mut fmt::Formatter<'_>, vs: &[Vector]) -> fmt::Result {
    write!(f, "{{")?;
    for (i, v) in vs.iter().enumerate() {
        if i > 0 {
            write!(f, ", ")?;
        }
        write!(f, "{v}")?;
    }
    write!(f, "}}")
}
