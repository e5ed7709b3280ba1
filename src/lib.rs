//! lattice-games: an interpreter for `.lg`, a small language for the lattice games of Guo and
//! Miller, and the exact mathematics behind it.
//!
//! ```text
//! grammar/lg.pest ──► syntax (spanned AST) ──► eval (values, builtins, diagnostics)
//!                                                 │
//!                                                 ▼
//!                                   algebra (Z^d, cones, semigroups, modules)
//!                                   game    (rule sets, boards, lattice games)
//! ```
//!
//! `algebra` and `game` know nothing of the language: they are a library of their own.
//!
//! ```
//! use lattice_games::eval::{Interpreter, Outcome};
//! let mut lg = Interpreter::with_output(Box::new(std::io::sink()));
//! let out = lg.run("<doc>", "let Γ = ruleset([1 0 -1; 0 1 1])\nlen(Γ)").unwrap();
//! assert!(matches!(&out[1], Outcome::Value(v) if v.to_string() == "3"));
//! ```

#![forbid(unsafe_code)]

pub mod algebra;
pub mod eval;
#[doc(hidden)]
pub mod fuzzing;
pub mod game;
pub mod interrupt;
pub mod kernel;
pub mod memory;
pub mod random;
pub mod repl;
pub mod session;
pub mod sweep;
pub mod syntax;
