//! Sets of small indices (of rows, rays or facets) as bitsets: the incidence sets that the double
//! description method, face lattices and triangulations compare by inclusion.

/// A set of small indices (of rows, rays or facets), as a bitset: the incidence sets that the
/// double description method and the face computations compare by inclusion.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct IndexSet(Vec<u64>);

impl IndexSet {
    /// The empty set, able to hold indices below `n`.
    pub(crate) fn empty(n: usize) -> IndexSet {
        IndexSet(vec![0; n.div_ceil(64)])
    }

    /// The indices i < n with `member(i)`.
    pub(crate) fn from_fn(n: usize, member: impl Fn(usize) -> bool) -> IndexSet {
        let mut s = IndexSet::empty(n);
        for i in (0..n).filter(|&i| member(i)) {
            s.insert(i);
        }
        s
    }

    pub(crate) fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    pub(crate) fn contains(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    pub(crate) fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub(crate) fn intersection(&self, other: &IndexSet) -> IndexSet {
        IndexSet(self.0.iter().zip(&other.0).map(|(a, b)| a & b).collect())
    }

    pub(crate) fn is_subset(&self, other: &IndexSet) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & !b == 0)
    }

    /// The members, in increasing order.
    pub(crate) fn members(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.0.len() * 64).filter(move |&i| self.contains(i))
    }
}

/// The indices of the sets that are maximal by inclusion (for equal sets, only the first).
pub(crate) fn maximal(sets: &[IndexSet]) -> Vec<usize> {
    (0..sets.len())
        .filter(|&i| {
            sets.iter()
                .enumerate()
                .all(|(j, s)| j == i || !sets[i].is_subset(s) || (*s == sets[i] && j > i))
        })
        .collect()
}
