//! Parse errors, phrased for people: what was found, and what was expected in words.

use super::Span;

/// What went wrong while reading source text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The text does not fit the grammar at `span`.
    Unexpected,
    /// The text ended while something was still open (a bracket, an operator waiting for its
    /// right side). The REPL keeps reading more lines when it sees this.
    Incomplete,
    /// Brackets or operators are nested deeper than the parser allows.
    TooDeep,
    /// A literal is malformed (for example a zero denominator).
    BadLiteral,
}

/// A parse error at a span, with a message and a hint of what would be right.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    /// The kind of error.
    pub kind: ParseErrorKind,
    /// Where it is.
    pub span: Span,
    /// The main message, e.g. "unexpected `)`".
    pub message: String,
    /// A short label at the span.
    pub label: String,
    /// What would be right.
    pub help: Option<String>,
}

impl ParseError {
    /// Whether more input could complete the text (used by the REPL for multi-line input).
    pub fn is_incomplete(&self) -> bool {
        self.kind == ParseErrorKind::Incomplete
    }
}
