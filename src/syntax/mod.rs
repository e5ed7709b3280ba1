//! The syntax of `.lg`: the pest grammar (`grammar/lg.pest`), the spanned abstract syntax tree, and
//! parse diagnostics that say what was expected in words.
//!
//! Data flows one way: source text → [`parse_program`] → [`ast::Program`], which `crate::eval`
//! evaluates. Nothing here knows about values or mathematics.

pub mod ast;
mod error;
mod lower;
mod span;

pub use error::{ParseError, ParseErrorKind};
pub use lower::parse_program;
pub use span::{SourceId, Span};

/// The pest parser generated from `grammar/lg.pest`.
#[derive(pest_derive::Parser)]
#[grammar = "../grammar/lg.pest"]
pub(crate) struct LgParser;
