//! Sparse integer vectors: a vector of Z^d kept as its nonzero entries. Moves of heap games
//! ([GM09] Example 2.5) have at most three nonzero entries in a dimension that is the largest heap
//! size, so a rule set of a thousand heap sizes is kept in megabytes instead of gigabytes.

use super::{Integer, Vector};

/// A vector of Z^d by its nonzero entries `(coordinate, value)`, coordinates increasing. The
/// dimension is kept by whoever holds the vector (a rule set keeps one for all its moves).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct SparseVector(Box<[(usize, Integer)]>);

impl SparseVector {
    /// From entries in any order; zero values are dropped and repeated coordinates added up.
    pub fn from_entries(mut entries: Vec<(usize, Integer)>) -> SparseVector {
        entries.sort_by_key(|e| e.0);
        let mut kept: Vec<(usize, Integer)> = Vec::with_capacity(entries.len());
        for (i, x) in entries {
            match kept.last_mut() {
                Some((j, y)) if *j == i => *y = &*y + &x,
                _ => kept.push((i, x)),
            }
        }
        kept.retain(|(_, x)| !x.is_zero());
        SparseVector(kept.into_boxed_slice())
    }

    /// The nonzero entries of a dense vector.
    pub fn from_dense(v: &Vector) -> SparseVector {
        SparseVector(
            v.0.iter()
                .enumerate()
                .filter(|(_, x)| !x.is_zero())
                .map(|(i, x)| (i, x.clone()))
                .collect(),
        )
    }

    /// The dense vector of Z^d (`d` larger than every coordinate).
    pub fn to_dense(&self, d: usize) -> Vector {
        let mut v = Vector::zero(d);
        for (i, x) in self.0.iter() {
            v.0[*i] = x.clone();
        }
        v
    }

    /// The nonzero entries, coordinates increasing.
    pub fn entries(&self) -> &[(usize, Integer)] {
        &self.0
    }

    /// Entry `i` (zero when not kept).
    pub fn get(&self, i: usize) -> Integer {
        match self.0.binary_search_by_key(&i, |e| e.0) {
            Ok(k) => self.0[k].1.clone(),
            Err(_) => Integer::ZERO,
        }
    }

    /// Whether every entry is 0.
    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    /// The largest coordinate with a nonzero entry.
    pub fn last_coordinate(&self) -> Option<usize> {
        self.0.last().map(|e| e.0)
    }

    /// The dot product with a dense vector (whose dimension covers every coordinate).
    pub fn dot(&self, v: &Vector) -> Integer {
        self.0
            .iter()
            .fold(Integer::ZERO, |acc, (i, x)| &acc + &(x * &v.0[*i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn dense_and_sparse_agree(xs in proptest::collection::vec(-3i64..=3, 1..8)) {
            let v = Vector::from_i64s(&xs);
            let s = SparseVector::from_dense(&v);
            prop_assert_eq!(s.to_dense(xs.len()), v.clone());
            prop_assert_eq!(s.is_zero(), v.is_zero());
            for (i, x) in xs.iter().enumerate() {
                prop_assert_eq!(s.get(i), Integer::from(*x));
            }
            prop_assert_eq!(s.dot(&v), v.dot(&v));
            let mut shuffled: Vec<(usize, Integer)> = s.entries().iter().rev().cloned().collect();
            shuffled.push((0, Integer::ZERO));
            prop_assert_eq!(SparseVector::from_entries(shuffled), s);
        }
    }

    #[test]
    fn repeated_coordinates_add_up() {
        let s = SparseVector::from_entries(vec![
            (2, Integer::from(1)),
            (0, Integer::from(-1)),
            (2, Integer::from(-1)),
        ]);
        assert_eq!(s.to_dense(3), Vector::from_i64s(&[-1, 0, 0]));
        assert_eq!(s.last_coordinate(), Some(0));
    }
}
