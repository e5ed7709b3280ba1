//! Counting lattice points: `count(x)` for polytopes (through Barvinok's short generating
//! functions, polynomial time in fixed dimension), finite sets and rational functions that are
//! polynomials.

use num_traits::Zero;

use super::objects::algebra_error;
use super::sets::to_set;
use super::{Args, Builtin};
use crate::algebra::barvinok::ehrhart::ehrhart as ehrhart_of;
use crate::algebra::barvinok::ShortForm;
use std::fmt::Write as _;

use crate::algebra::genfunc::{RationalFunction, SpecializationError};
use crate::algebra::{AlgebraError, Integer};
use crate::eval::set_value::make_disjoint;
use crate::eval::value::Value;
use crate::eval::{EvalError, Interpreter};

type R = Result<Value, EvalError>;

pub(super) fn register(r: &mut Vec<Builtin>) {
    r.push(Builtin {
        name: "count",
        signature: "count(x) -> integer",
        doc: "The number of lattice points of x: a bounded polyhedron, of any dimension (by Barvinok's short\n\
              rational generating function, its vertex cones decomposed into signed unimodular cones and the sum\n\
              evaluated at t = 1 exactly, so the time does not grow with the size of the numbers), a finite set\n\
              (stratified set, module, solution's P-positions, ...), or a rational function that is a polynomial\n\
              (the sum of its coefficients). An unbounded set is refused, naming a direction it contains.",
        example: "count(polyhedron([1 0 0; 0 1 0; 0 0 1; -3 -5 -7], (0, 0, 0, -1000)))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: count,
    });
    r.push(Builtin {
        name: "ehrhart",
        signature: "ehrhart(P, [n], latex: false) -> string or integer",
        doc: "The Ehrhart quasi-polynomial L(P, n) = #(nP ∩ Z^d) of a bounded rational polyhedron, for n ≥ 1: a\n\
              polynomial in n of degree dim P, or one per residue of n modulo the period (a divisor of the\n\
              vertices' common denominator), written `n ≡ r mod q: ...`. Each constituent is interpolated from\n\
              counts by Barvinok's short generating functions. `latex: true` writes it in LaTeX (a `cases`\n\
              environment when the period is above 1). `ehrhart(P, n)` is the value L(P, n) for an integer n ≥ 1.",
        example: "ehrhart(polyhedron([1 0; 0 1; -1 -1], (0, 0, -1)))",
        min_args: 1,
        max_args: Some(2),
        named: &["latex"],
        func: ehrhart,
    });
    r.push(Builtin {
        name: "count_by_weight",
        signature: "count_by_weight(S, grading, latex: false) -> string",
        doc: "The number of points of weight n of a set S (a stratified set, module, P-positions, ... or its\n\
              rational function) under a Z-grading g (weight g·x), as a quasi-polynomial in n: read off the\n\
              Hilbert series N(t)/Π(1 - t^k)^m, it has period lcm{k} and degree below Σ m, and holds from the\n\
              `n ≥` shown on (the counts below that are listed). g must be positive on every direction of S.\n\
              `latex: true` writes it in LaTeX.",
        example: "count_by_weight(2N^2, (1, 1))",
        min_args: 2,
        max_args: Some(2),
        named: &["latex"],
        func: count_by_weight,
    });
}

/// The `latex:` flag (false unless given).
fn latex_flag(a: &Args) -> Result<bool, EvalError> {
    a.named_bool("latex", false)
}

fn ehrhart(_: &mut Interpreter, a: &mut Args) -> R {
    let span = a.span(0);
    let latex = latex_flag(a)?;
    match a.value(0) {
        Value::Polyhedron(p) => {
            let e = ehrhart_of(p).map_err(|e| algebra_error(e, span))?;
            if a.len() > 1 {
                // L(P, n) at the given n ≥ 1.
                let n = a.int(1)?;
                if n < Integer::ONE {
                    return Err(a.wrong(1, "a dilation factor n ≥ 1"));
                }
                return Ok(Value::rational(e.value(&n.to_bigint())));
            }
            Ok(Value::Str(
                if latex { e.latex() } else { e.to_string() }.into(),
            ))
        }
        _ => Err(a.wrong(0, "a polyhedron (from `polyhedron(A, b)`)")),
    }
}

fn count_by_weight(_: &mut Interpreter, a: &mut Args) -> R {
    let span = a.span(0);
    let latex = latex_flag(a)?;
    let f = match a.value(0) {
        Value::Genfunc(g) => g.f.clone(),
        v => {
            let set = to_set(v, span)?;
            make_disjoint(&set).map_err(|e| algebra_error(e, span))?;
            RationalFunction::of_set(&set).map_err(|e| algebra_error(e, span))?
        }
    };
    let grading = match a.value(1) {
        Value::Vector(g) if g.dim() == f.dim() => (**g).clone(),
        _ => {
            return Err(a.wrong(
                1,
                &format!("a grading: an integer vector of {} entries", f.dim()),
            ))
        }
    };
    let h = f.hilbert_series(&grading).map_err(|e| match e {
        SpecializationError::NotPositive(bad) => EvalError::new(
            "lg::eval::value",
            format!("the grading {grading} is not positive on the direction {bad} of this set, so infinitely many of its points may have one weight"),
            a.span(1),
            "this grading",
        )
        .with_help("give a grading positive on every direction the set extends in (its recession cone)"),
        SpecializationError::TooLarge(what) => algebra_error(AlgebraError::TooLarge(what), a.span(1)),
    })?;
    let (start, q, before) = h
        .counting_function()
        .map_err(|e| algebra_error(e, a.span(1)))?;
    let shift = h.shift();
    let text = if latex {
        let mut t = format!("{} \\quad (n \\geq {start})", q.latex());
        if !before.is_empty() {
            let values: Vec<String> = before.iter().map(|v| v.to_string()).collect();
            let _ = write!(
                t,
                ", \\quad {} \\text{{ for }} n = {shift}, \\dots, {}",
                values.join(", "),
                start - 1
            );
        }
        t
    } else {
        let mut t = format!("for n ≥ {start}: {q}");
        if !before.is_empty() {
            let values: Vec<String> = before.iter().map(|v| v.to_string()).collect();
            let _ = write!(t, " (n = {shift}..{}: {})", start - 1, values.join(", "));
        }
        t
    };
    Ok(Value::Str(text.into()))
}

fn int(n: num_bigint::BigInt) -> Value {
    Value::Int(Integer::from(n))
}

/// The sum of the coefficients of the terms (the count, for a function with no denominators).
fn polynomial_sum(f: &RationalFunction) -> num_rational::BigRational {
    f.terms().iter().map(|t| t.coefficient.clone()).sum()
}

/// A short-form constructor with progress: `ShortForm::of_polytope_reporting` (refuses an
/// unbounded polyhedron) or `ShortForm::of_polyhedron_reporting`.
pub(super) type Build = fn(
    &crate::algebra::Polyhedron,
    &mut dyn FnMut(crate::algebra::barvinok::Progress),
) -> Result<ShortForm, AlgebraError>;

/// Barvinok's short form of a polyhedron, shown on `spinner` after the first second (vertex
/// cones decomposed, unimodular cones so far).
pub(super) fn short_form_with_progress(
    spinner: &mut crate::eval::progress::Spinner,
    p: &crate::algebra::Polyhedron,
    what: &str,
    build: Build,
) -> Result<ShortForm, AlgebraError> {
    build(p, &mut |step| {
        spinner.update(|| {
            format!(
                "{what}: Barvinok decomposition, vertex cone {}/{}, {} unimodular cones",
                step.vertex + 1,
                step.vertices,
                step.cones
            )
        })
    })
}

fn count(_: &mut Interpreter, a: &mut Args) -> R {
    let span = a.span(0);
    match a.value(0) {
        Value::Polyhedron(p) => {
            let mut spinner = crate::eval::progress::Spinner::new();
            let n = crate::algebra::barvinok::count_polytope(p, &mut |step| {
                spinner.update(|| {
                    format!(
                        "count: Barvinok decomposition, vertex cone {}/{}, {} unimodular cones counted",
                        step.vertex + 1,
                        step.vertices,
                        step.cones
                    )
                })
            })
            .map_err(|e| algebra_error(e, span))?;
            Ok(int(n))
        }
        Value::ShortGenfunc(g) => Ok(Value::rational(
            g.f.value_at_one().map_err(|e| algebra_error(e, span))?,
        )),
        Value::Genfunc(g) => match g.f.is_polynomial().then(|| polynomial_sum(&g.f)) {
            Some(c) if c.is_integer() => Ok(int(c.to_integer())),
            Some(c) => Ok(Value::Rational(std::rc::Rc::new(c))),
            None => Err(EvalError::new(
                "lg::eval::value",
                "this rational function is not a polynomial: it counts infinitely many points",
                span,
                "here",
            )
            .with_help(
                "`count` of a rational function needs one with no denominators (a finite set's)",
            )),
        },
        Value::Set(items) if items.is_empty() => Ok(Value::Int(Integer::zero())),
        v => {
            let set = to_set(v, span)?;
            make_disjoint(&set).map_err(|e| algebra_error(e, span))?;
            if let Some(n) = set.count_points().map_err(|e| algebra_error(e, span))? {
                return Ok(int(n));
            }
            // Infinite: the one-cone form's terms are disjoint pieces p + N{a_1..a_k}, and a
            // term with a denominator is a direction the set contains.
            let f = RationalFunction::of_set(&set).map_err(|e| algebra_error(e, span))?;
            match f.terms().iter().find_map(|t| t.denominators.first()) {
                Some(ray) => Err(algebra_error(
                    AlgebraError::Unbounded { ray: ray.clone() },
                    span,
                )),
                None => Ok(int(polynomial_sum(&f).to_integer())),
            }
        }
    }
}
