//! Source positions. Every AST node owns a [`Span`] naming the source it came from, so that a
//! diagnostic raised while running a function defined in another file (the prelude, a `:load`ed
//! script) still points into the right text.

/// Which registered source text a span belongs to (an index into the evaluator's source map).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SourceId(pub u32);

/// A byte range `start..end` in the source `source`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The source text the offsets refer to.
    pub source: SourceId,
    /// Byte offset of the first character.
    pub start: usize,
    /// Byte offset one past the last character.
    pub end: usize,
}

impl Span {
    /// A span of `start..end` in `source`.
    pub fn new(source: SourceId, start: usize, end: usize) -> Self {
        Span { source, start, end }
    }

    /// The smallest span covering both (they must belong to the same source).
    pub fn to(self, other: Span) -> Span {
        Span {
            source: self.source,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// Whether the span covers no text.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
