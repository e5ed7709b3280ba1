//! Errors of the algebra library (turned into diagnostics only at the language boundary).

/// What can go wrong when building algebraic objects.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AlgebraError {
    /// Two objects that must live in the same Z^d do not.
    #[error("{what}: expected dimension {expected}, found {found}")]
    DimensionMismatch {
        /// What was being combined.
        what: String,
        /// The dimension required.
        expected: usize,
        /// The dimension given.
        found: usize,
    },
    /// A construction needs at least one element.
    #[error("{0} needs at least one element")]
    Empty(String),
    /// Matrix rows of different lengths.
    #[error("row {row} of the matrix has {found} entries, but row 1 has {expected}")]
    RaggedMatrix {
        /// The 1-based row index.
        row: usize,
        /// Entries of the first row.
        expected: usize,
        /// Entries of this row.
        found: usize,
    },
    /// Vectors of dimension 0 are not points of any Z^d used here.
    #[error("vectors must have at least one coordinate")]
    ZeroDimension,
    /// A set that must be bounded is not; `ray` is a direction it contains.
    #[error("the polyhedron is unbounded: it contains the ray {ray}")]
    Unbounded {
        /// A recession direction.
        ray: super::Vector,
    },
    /// The computation would be too large to finish.
    #[error("too large to compute: {0}")]
    TooLarge(String),
    /// A cone or semigroup that must be pointed contains a line.
    #[error("not pointed: it contains the line through {line}")]
    NotPointed {
        /// A direction v with v and −v in the set.
        line: super::Vector,
    },
    /// The user interrupted the computation (Ctrl-C).
    #[error("interrupted")]
    Interrupted,
    /// The computation would not fit in the memory budget ([`crate::memory`]).
    #[error("{0}")]
    OutOfMemory(#[from] crate::memory::TooMuchMemory),
}

impl AlgebraError {
    /// Checks that every vector has dimension `d`, naming `what` in the error.
    pub fn check_vectors(what: &str, d: usize, vs: &[super::Vector]) -> Result<(), AlgebraError> {
        super::vector::check_dims(what, d, vs)
    }
}
