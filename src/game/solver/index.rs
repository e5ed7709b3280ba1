//! The row index of a solved table, stored compactly: rows in their order (by μ-level, then
//! lexicographically by key), each as a few variable-length integers saying what changed from
//! the row before (the level, some key coordinates, the lower end) and its length. Every 64th row
//! is also kept whole as a checkpoint (every 128th), so a row is found by a binary search over the checkpoints
//! and a short walk. Rows of the weight regions the solver meets differ from their predecessor in
//! one or two coordinates, so a row costs about four bytes instead of the 30 or so of the index
//! used while solving, and the whole solution stays near one bit per position.

/// Rows between checkpoints.
const CHECKPOINT: usize = 128;

/// One row: its μ-level, key, first row coordinate, bit offset and length.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Row {
    pub level: i64,
    pub key: Vec<i64>,
    pub lo: i64,
    pub offset: u64,
    pub len: u64,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct CompactIndex {
    k: usize,
    /// The level functional μ: when its last entry is nonzero, the last key coordinate follows
    /// from the level and the others and is not stored.
    mu: Vec<i64>,
    rows: usize,
    stream: Vec<u8>,
    /// Checkpoint c holds row c·64 whole, and where the stream continues after it.
    checkpoints: Vec<(Row, usize)>,
}

fn put(stream: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            stream.push(byte);
            return;
        }
        stream.push(byte | 0x80);
    }
}

fn get(stream: &[u8], pos: &mut usize) -> u64 {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let byte = stream[*pos];
        *pos += 1;
        v |= u64::from(byte & 0x7F) << shift;
        if byte & 0x80 == 0 {
            return v;
        }
        shift += 7;
    }
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

impl CompactIndex {
    /// Whether the last key coordinate is derived from the level.
    fn derived_last(&self) -> bool {
        self.k > 0 && self.mu[self.k - 1] != 0
    }

    /// The last key coordinate from the level and the others.
    fn last_coordinate(&self, level: i64, key: &[i64]) -> i64 {
        let k = self.k;
        let rest: i64 = key[..k - 1].iter().zip(&self.mu).map(|(x, m)| x * m).sum();
        (level - rest) / self.mu[k - 1]
    }

    /// The index of rows given in order, with level μ·key.
    #[cfg(test)]
    pub(crate) fn build(k: usize, mu: &[i64], rows: impl Iterator<Item = Row>) -> CompactIndex {
        let mut rows = rows;
        Self::build_with(k, mu, |row| match rows.next() {
            Some(r) => {
                *row = r;
                true
            }
            None => false,
        })
    }

    /// The same, with `next(row)` filling in each row in turn until it returns false.
    pub(crate) fn build_with(
        k: usize,
        mu: &[i64],
        mut next: impl FnMut(&mut Row) -> bool,
    ) -> CompactIndex {
        let mut index = CompactIndex {
            k,
            mu: mu.to_vec(),
            ..CompactIndex::default()
        };
        let stored = if index.derived_last() { k - 1 } else { k };
        let mut prev = Row {
            key: vec![0; k],
            ..Row::default()
        };
        let mut row = prev.clone();
        let mut values = Vec::with_capacity(k + 3);
        while next(&mut row) {
            let mut flags = 0u64;
            values.clear();
            if row.level != prev.level {
                flags |= 1;
                values.push(zigzag(row.level - prev.level));
            }
            for j in 0..stored {
                if row.key[j] != prev.key[j] {
                    flags |= 1 << (j + 1);
                    values.push(zigzag(row.key[j] - prev.key[j]));
                }
            }
            if row.lo != prev.lo {
                flags |= 1 << (k + 1);
                values.push(zigzag(row.lo - prev.lo));
            }
            if row.len != prev.len {
                flags |= 1 << (k + 2);
                values.push(zigzag(row.len as i64 - prev.len as i64));
            }
            put(&mut index.stream, flags);
            for &v in &values {
                put(&mut index.stream, v);
            }
            if index.rows.is_multiple_of(CHECKPOINT) {
                index.checkpoints.push((row.clone(), index.stream.len()));
            }
            index.rows += 1;
            std::mem::swap(&mut prev, &mut row);
        }
        index.stream.shrink_to_fit();
        index
    }

    /// The number of rows.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.rows
    }

    /// Bytes used.
    pub(crate) fn bytes(&self) -> usize {
        self.stream.len()
            + self.checkpoints.len() * (std::mem::size_of::<(Row, usize)>() + 8 * self.k)
    }

    /// A walk over the rows from the first.
    pub(crate) fn walk(&self) -> Walk<'_> {
        Walk {
            index: self,
            next: 0,
            pos: 0,
            row: Row {
                key: vec![0; self.k],
                ..Row::default()
            },
        }
    }

    /// The row with this level and key.
    pub(crate) fn find(&self, level: i64, key: &[i64]) -> Option<Row> {
        let target = (level, key);
        // The last checkpoint at or before the target.
        let c = self
            .checkpoints
            .partition_point(|(r, _)| (r.level, r.key.as_slice()) <= target);
        if c == 0 {
            return None;
        }
        let (row, pos) = &self.checkpoints[c - 1];
        let mut walk = Walk {
            index: self,
            next: (c - 1) * CHECKPOINT + 1,
            pos: *pos,
            row: row.clone(),
        };
        loop {
            match (walk.row.level, walk.row.key.as_slice()).cmp(&target) {
                std::cmp::Ordering::Equal => return Some(walk.row),
                std::cmp::Ordering::Greater => return None,
                std::cmp::Ordering::Less => {
                    if !walk.advance() {
                        return None;
                    }
                }
            }
        }
    }
}

/// Rows in order, decoded one at a time.
pub(crate) struct Walk<'a> {
    index: &'a CompactIndex,
    /// The number of the row `advance` decodes next.
    next: usize,
    pos: usize,
    row: Row,
}

impl Walk<'_> {
    /// Decodes the next row into `self.row`; false at the end.
    fn advance(&mut self) -> bool {
        if self.next >= self.index.rows {
            return false;
        }
        let s = &self.index.stream;
        let k = self.index.k;
        let offset = self.row.offset + self.row.len;
        let flags = get(s, &mut self.pos);
        if flags & 1 != 0 {
            self.row.level += unzigzag(get(s, &mut self.pos));
        }
        let derived = self.index.derived_last();
        let stored = if derived { k - 1 } else { k };
        for j in 0..stored {
            if flags >> (j + 1) & 1 != 0 {
                self.row.key[j] += unzigzag(get(s, &mut self.pos));
            }
        }
        if derived {
            self.row.key[k - 1] = self.index.last_coordinate(self.row.level, &self.row.key);
        }
        if flags >> (k + 1) & 1 != 0 {
            self.row.lo += unzigzag(get(s, &mut self.pos));
        }
        if flags >> (k + 2) & 1 != 0 {
            self.row.len = (self.row.len as i64 + unzigzag(get(s, &mut self.pos))) as u64;
        }
        self.row.offset = if self.next == 0 { 0 } else { offset };
        self.next += 1;
        true
    }

    /// The next row, if any.
    pub(crate) fn next_row(&mut self) -> Option<&Row> {
        if self.advance() {
            Some(&self.row)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Walking and finding give back every row.
        #[test]
        fn rows_come_back(
            raw in proptest::collection::vec((0i64..3, proptest::collection::vec(-3i64..4, 3), -2i64..3, 1u64..90), 0..300),
            derive in any::<bool>(),
        ) {
            // Levels are μ·key for μ = (1, 0, 2) (the last coordinate derived) or μ = (1, 1, 0).
            let mu: &[i64] = if derive { &[1, 0, 2] } else { &[1, 1, 0] };
            let mut rows: Vec<Row> = raw
                .into_iter()
                .map(|(_, key, lo, len)| {
                    let level = key.iter().zip(mu).map(|(x, m)| x * m).sum();
                    Row { level, key, lo, offset: 0, len }
                })
                .collect();
            rows.sort_by(|a, b| (a.level, &a.key).cmp(&(b.level, &b.key)));
            rows.dedup_by(|a, b| (a.level, &a.key) == (b.level, &b.key));
            let mut offset = 0;
            for r in rows.iter_mut() {
                r.offset = offset;
                offset += r.len;
            }
            let index = CompactIndex::build(3, mu, rows.iter().cloned());
            prop_assert_eq!(index.len(), rows.len());
            let mut walk = index.walk();
            for r in &rows {
                prop_assert_eq!(walk.next_row(), Some(r));
            }
            prop_assert!(walk.next_row().is_none());
            for r in &rows {
                prop_assert_eq!(index.find(r.level, &r.key), Some(r.clone()));
            }
            prop_assert_eq!(index.find(100, &[0, 0, 0]), None);
            prop_assert_eq!(index.find(-100, &[0, 0, 0]), None);
        }
    }
}
