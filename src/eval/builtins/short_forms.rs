//! Signed short rational functions (Barvinok's form, `genfunc` of a polyhedron) in the
//! builtins that take rational functions: each of them states how it reads one. `evaluate`,
//! `count`, `latex`, `complexity` and `==` work on the rational function itself; `series`,
//! `hadamard`, `p in f` and `members` read the Laurent expansion in a direction positive on the
//! recession cone (for a polyhedron, its lattice points), never a term as a set.

use std::rc::Rc;

use num_rational::BigRational;

use super::objects::algebra_error;
use crate::algebra::barvinok::ShortForm;
use crate::algebra::genfunc::RationalFunction;
use crate::algebra::{AlgebraError, Integer, Vector};
use crate::eval::value::{ShortGenfunc, Value};
use crate::eval::EvalError;
use crate::syntax::Span;

/// The value as a short form with its names: a short function as it is, a one-cone function
/// through its terms (which converge in the cone of its denominators).
pub(crate) fn as_short(v: &Value) -> Option<(ShortForm, Vec<String>)> {
    match v {
        Value::ShortGenfunc(g) => Some((g.f.clone(), g.names.clone())),
        Value::Genfunc(g) => Some((ShortForm::from_rational_function(&g.f), g.names.clone())),
        _ => None,
    }
}

/// A short function value.
pub(crate) fn short_value(f: ShortForm, names: Vec<String>) -> Value {
    Value::ShortGenfunc(Rc::new(ShortGenfunc::new(f, names)))
}

/// The diagnostic for an algebra error met while reading a short function as a series.
pub(crate) fn series_error(e: AlgebraError, span: Span) -> EvalError {
    match e {
        AlgebraError::NotPointed { line } => EvalError::new(
            "lg::eval::value",
            format!("this function has no series: the directions in which it must converge span the line through {line}"),
            span,
            "no convergent expansion",
        )
        .with_help("a sum of functions of polyhedra is a series only when their recession cones lie in one pointed cone"),
        e => algebra_error(e, span),
    }
}

/// `p in f`: the coefficient of t^p in the expansion is 1.
pub(crate) fn contains(f: &ShortGenfunc, p: &Vector, span: Span) -> Result<bool, EvalError> {
    let e = f.expansion().map_err(|e| series_error(e, span))?;
    Ok(crate::game::strategy::is_p_position(e, p))
}

/// `evaluate(f, x)` for a short function.
pub(crate) fn evaluate(
    f: &ShortGenfunc,
    xs: &[BigRational],
    span: Span,
) -> Result<Value, EvalError> {
    match f.f.evaluate(xs).map_err(|e| algebra_error(e, span))? {
        Some(v) => Ok(Value::rational(v)),
        None => Err(EvalError::new(
            "lg::eval::value",
            "a term of this short function has a pole at this point (a denominator 1 - t^g vanishes, or 0 is raised to a negative power)",
            span,
            "a pole",
        )
        .with_help("the terms of a short form have poles where the sum may not; evaluate at another point, or use `count` for the value at (1, ..., 1)")),
    }
}

/// The expansion of f along the functional ℓ, which `series` cuts at ℓ-levels: ℓ must be
/// positive on the recession and nonzero on every denominator exponent (else each term's cut
/// would be infinite).
pub(crate) fn expansion_for(
    f: &ShortForm,
    ell: &Vector,
    span: Span,
) -> Result<RationalFunction, EvalError> {
    let bad = f
        .recession()
        .iter()
        .find(|r| ell.dot(r) <= Integer::ZERO)
        .cloned();
    let result = match bad {
        Some(r) => Err(format!("is not positive on the recession direction {r}")),
        None => f
            .expansion_along(ell)
            .map_err(|g| format!("is orthogonal to the denominator exponent {g}")),
    };
    result.map_err(|why| {
        let hint = f
            .direction()
            .map(|c| format!("for example `functional: {c}`"))
            .unwrap_or_else(|_| "this function has no convergent series".into());
        EvalError::new(
            "lg::eval::value",
            format!("the functional {ell} {why}, so the expansion of this short function cannot be cut at its levels"),
            span,
            "this function",
        )
        .with_help(format!("give a functional positive on the recession cone and nonzero on every denominator exponent: {hint}"))
    })
}

/// `hadamard(f, g)` when one side is short: Barvinok–Woods on the expansions
/// ([`ShortForm::hadamard`]); a short function that `count` evaluates when either is finite.
pub(crate) fn hadamard(f: &ShortForm, g: &ShortForm, span: Span) -> Result<ShortForm, EvalError> {
    f.hadamard(g).map_err(|e| series_error(e, span))
}
