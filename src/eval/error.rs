//! Evaluation errors. Each carries the span it is about, a short label shown at that span, and a
//! hint of what would be right; the call sites it passed through are kept for the report.

use crate::memory::TooMuchMemory;
use crate::syntax::{ParseError, Span};

/// An error raised while evaluating, or while reading, `.lg` source. The details are boxed so
/// that `Result<Value, EvalError>` stays small on the path where nothing goes wrong.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{}", .0.message)]
pub struct EvalError(Box<ErrorDetails>);

/// What an [`EvalError`] says and where.
#[derive(Clone, Debug)]
pub struct ErrorDetails {
    /// A stable code, such as `lg::eval::unknown_name`.
    pub code: &'static str,
    /// The main message.
    pub message: String,
    /// The span the error is about.
    pub span: Span,
    /// A short lowercase label at the span.
    pub label: String,
    /// What would be right.
    pub help: Option<String>,
    /// Call sites the error passed through, innermost first.
    pub trace: Vec<Span>,
    /// Whether this error means "the input is not finished yet" (the REPL reads more).
    pub incomplete: bool,
}

impl EvalError {
    /// An error with a code, message, span and label.
    pub fn new(
        code: &'static str,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> EvalError {
        EvalError(Box::new(ErrorDetails {
            code,
            message: message.into(),
            span,
            label: label.into(),
            help: None,
            trace: Vec::new(),
            incomplete: false,
        }))
    }

    /// Adds the hint of what would be right.
    pub fn with_help(mut self, help: impl Into<String>) -> EvalError {
        self.help = Some(help.into());
        self
    }

    /// A type error: `what` needed `expected` but got a value of type `found`.
    pub fn type_error(what: &str, expected: &str, found: &str, span: Span) -> EvalError {
        EvalError::new(
            "lg::eval::type",
            format!("{what} must be {expected}, but this is {}", article(found)),
            span,
            format!("this is {}", article(found)),
        )
    }

    /// The computation was interrupted by the user.
    pub fn interrupted(span: Span) -> EvalError {
        EvalError::new("lg::eval::interrupted", "interrupted", span, "stopped here")
    }

    /// Work refused by the memory budget before it allocated.
    pub fn out_of_memory(e: TooMuchMemory, span: Span) -> EvalError {
        EvalError::new("lg::eval::memory", e.to_string(), span, "here").with_help(MEMORY_HELP)
    }
}

/// What to do about work refused by the memory budget.
pub(crate) const MEMORY_HELP: &str =
    "ask for less (for the number of points, `count` keeps no terms), or raise the \
     budget with `set_limits(max_memory: \"8G\")` or `lg --max-memory 8G`";

/// Below this many bytes a new value is built without asking the budget (asking reads /proc).
const UNCHECKED_BYTES: u64 = 1 << 20;

/// Refuses to build a value of about `need` bytes when it would not fit in the memory budget;
/// `what` names it ("a list of 10^9 elements"). Values under a mebibyte are not checked.
pub(crate) fn reserve(
    need: u64,
    what: impl FnOnce() -> String,
    span: Span,
) -> Result<(), EvalError> {
    if need < UNCHECKED_BYTES {
        return Ok(());
    }
    crate::memory::check(need, what).map_err(|e| EvalError::out_of_memory(e, span))
}

/// "1 entry", "2 entries": a count with its noun in the right number.
pub fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// "an integer", "a vector".
pub fn article(noun: &str) -> String {
    let first = noun.chars().next().unwrap_or('x');
    if "aeiou".contains(first) {
        format!("an {noun}")
    } else {
        format!("a {noun}")
    }
}

impl From<ParseError> for EvalError {
    fn from(e: ParseError) -> Self {
        let code = match e.kind {
            crate::syntax::ParseErrorKind::Incomplete => "lg::parse::incomplete",
            crate::syntax::ParseErrorKind::TooDeep => "lg::parse::too_deep",
            crate::syntax::ParseErrorKind::BadLiteral => "lg::parse::literal",
            crate::syntax::ParseErrorKind::Unexpected => "lg::parse::syntax",
        };
        EvalError(Box::new(ErrorDetails {
            code,
            incomplete: e.is_incomplete(),
            message: e.message,
            span: e.span,
            label: e.label,
            help: e.help,
            trace: Vec::new(),
        }))
    }
}

impl std::ops::Deref for EvalError {
    type Target = ErrorDetails;
    fn deref(&self) -> &ErrorDetails {
        &self.0
    }
}

impl std::ops::DerefMut for EvalError {
    fn deref_mut(&mut self) -> &mut ErrorDetails {
        &mut self.0
    }
}
