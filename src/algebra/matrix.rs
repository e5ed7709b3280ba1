//! Integer matrices. As in the papers, a matrix used as a set of vectors stands for its *columns*.

use std::fmt;

use super::{AlgebraError, Integer, Vector};

/// A dense integer matrix with at least one row and one column.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    entries: Vec<Integer>,
}

impl Matrix {
    /// Builds a matrix from its rows; all rows must have the same length, and there must be at
    /// least one row and one column.
    pub fn from_rows(rows: Vec<Vec<Integer>>) -> Result<Matrix, AlgebraError> {
        let cols = rows
            .first()
            .map(Vec::len)
            .ok_or_else(|| AlgebraError::Empty("a matrix".into()))?;
        if cols == 0 {
            return Err(AlgebraError::Empty("a matrix row".into()));
        }
        for (i, r) in rows.iter().enumerate() {
            if r.len() != cols {
                return Err(AlgebraError::RaggedMatrix {
                    row: i + 1,
                    expected: cols,
                    found: r.len(),
                });
            }
        }
        let n = rows.len();
        Ok(Matrix {
            rows: n,
            cols,
            entries: rows.into_iter().flatten().collect(),
        })
    }

    /// The matrix whose columns are the given vectors (all of the same, positive dimension).
    pub fn from_columns(cols: &[Vector]) -> Result<Matrix, AlgebraError> {
        let d = cols
            .first()
            .map(Vector::dim)
            .ok_or_else(|| AlgebraError::Empty("a matrix".into()))?;
        super::vector::check_dims("a matrix column", d, cols)?;
        let rows = (0..d)
            .map(|i| cols.iter().map(|c| c.0[i].clone()).collect())
            .collect();
        Matrix::from_rows(rows)
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.cols
    }

    /// The entry in row `i`, column `j` (0-based).
    pub fn get(&self, i: usize, j: usize) -> &Integer {
        &self.entries[i * self.cols + j]
    }

    /// Row `i` as a vector.
    pub fn row(&self, i: usize) -> Vector {
        Vector(self.entries[i * self.cols..(i + 1) * self.cols].to_vec())
    }

    /// All rows.
    pub fn rows(&self) -> Vec<Vector> {
        (0..self.rows).map(|i| self.row(i)).collect()
    }

    /// Column `j` as a vector.
    pub fn column(&self, j: usize) -> Vector {
        Vector((0..self.rows).map(|i| self.get(i, j).clone()).collect())
    }

    /// All columns: the vectors the matrix stands for.
    pub fn columns(&self) -> Vec<Vector> {
        (0..self.cols).map(|j| self.column(j)).collect()
    }

    /// The transpose.
    pub fn transpose(&self) -> Matrix {
        Matrix::from_rows(self.columns().into_iter().map(|v| v.0).collect())
            .expect("a transpose is never empty")
    }

    /// The product `A v` (the length of `v` must be the number of columns).
    pub fn apply(&self, v: &Vector) -> Vector {
        Vector((0..self.rows).map(|i| self.row(i).dot(v)).collect())
    }
}

impl fmt::Display for Matrix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rows == 1 && self.cols == 1 {
            // `[5]` would read back as a list.
            return write!(f, "matrix([[{}]])", self.entries[0]);
        }
        write!(f, "[")?;
        for i in 0..self.rows {
            if i > 0 {
                write!(f, "; ")?;
            }
            for j in 0..self.cols {
                if j > 0 {
                    write!(f, " ")?;
                }
                write!(f, "{}", self.get(i, j))?;
            }
        }
        write!(f, "]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_the_vectors() {
        let m = Matrix::from_rows(vec![
            vec![1.into(), 0.into(), (-1).into()],
            vec![0.into(), 1.into(), 1.into()],
        ])
        .unwrap();
        assert_eq!(
            m.columns(),
            vec![
                Vector::from_i64s(&[1, 0]),
                Vector::from_i64s(&[0, 1]),
                Vector::from_i64s(&[-1, 1])
            ]
        );
        assert_eq!(Matrix::from_columns(&m.columns()).unwrap(), m);
        assert_eq!(m.to_string(), "[1 0 -1; 0 1 1]");
        assert_eq!(m.transpose().transpose(), m);
    }

    #[test]
    fn ragged_rows_are_rejected() {
        let e = Matrix::from_rows(vec![vec![1.into(), 2.into()], vec![3.into()]]).unwrap_err();
        assert_eq!(
            e,
            AlgebraError::RaggedMatrix {
                row: 2,
                expected: 2,
                found: 1
            }
        );
    }
}
