//! Exact mathematics over Z^d, independent of the `.lg` language: integers, vectors and matrices,
//! cones and polyhedra, affine semigroups, their modules and affine stratifications.
//!
//! Everything is exact: [`Integer`] has a machine-word fast path with overflow checks falling back
//! to big integers, and rationals are `num_rational::BigRational`. Nothing here uses floating point.

pub mod barvinok;
pub mod basic_set;
mod cone;
pub mod coset;
mod error;
pub mod genfunc;
pub mod hilbert;
mod index_set;
mod integer;
pub mod lattice;
pub mod linalg;
pub mod lp;
mod machine_cone;
mod matrix;
mod module;
pub mod monoid;
pub mod polyhedral;
mod polyhedron;
pub mod quasi_polynomial;
mod semigroup;
pub mod sparse_vector;
mod stratification;
pub mod stratified_set;
#[cfg(test)]
pub(crate) mod testing;
mod vector;

pub use cone::Cone;
pub use error::AlgebraError;
pub use integer::Integer;
pub use matrix::Matrix;
pub use module::AffineModule;
pub use polyhedron::Polyhedron;
pub use semigroup::AffineSemigroup;
pub use sparse_vector::SparseVector;
pub use stratification::Stratification;
pub use stratified_set::StratifiedSet;
pub use vector::Vector;
