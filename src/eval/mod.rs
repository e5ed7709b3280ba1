//! Evaluation of `.lg`: values, environments, the builtin registry, and diagnostics.
//!
//! This is the language boundary: the mathematical library (`crate::algebra`, `crate::game`)
//! reports errors as plain types, and they become miette diagnostics with source spans here.

pub mod builtins;
pub mod check;
pub mod diagnostic;
mod env;
mod error;
mod interp;
pub mod latex;
mod ops;
pub(crate) mod progress;
pub mod set_value;
mod summary;
pub mod value;

pub use diagnostic::{SourceMap, Style};
pub use error::EvalError;
pub use interp::{closest, Interpreter, Outcome};
pub use value::Value;
