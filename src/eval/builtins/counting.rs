//! Counting lattice points: `count(x)` for polytopes (through Barvinok's short generating
//! functions, polynomial time in fixed dimension), finite sets and rational functions that are
//! polynomials.

use num_traits::Zero;

use super::objects::algebra_error;
use super::sets::to_set;
use super::{Args, Builtin};
use crate::algebra::barvinok::ehrhart::EhrhartQuasiPolynomial;
use crate::algebra::barvinok::ShortForm;
use crate::algebra::genfunc::RationalFunction;
use crate::algebra::{AlgebraError, Integer};
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
        signature: "ehrhart(P) -> string",
        doc: "The Ehrhart quasi-polynomial L(P, n) = #(nP ∩ Z^d) of a bounded rational polyhedron, for n ≥ 1: a\n\
              polynomial in n of degree dim P, or one per residue of n modulo the period (a divisor of the\n\
              vertices' common denominator), written `n ≡ r mod q: ...`. Each constituent is interpolated from\n\
              counts by Barvinok's short generating functions.",
        example: "ehrhart(polyhedron([1 0; 0 1; -1 -1], (0, 0, -1)))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: ehrhart,
    });
}

fn ehrhart(_: &mut Interpreter, a: &mut Args) -> R {
    let span = a.span(0);
    match a.value(0) {
        Value::Polyhedron(p) => {
            let e = EhrhartQuasiPolynomial::of(p).map_err(|e| algebra_error(e, span))?;
            Ok(Value::Str(e.to_string().into()))
        }
        _ => Err(a.wrong(0, "a polyhedron (from `polyhedron(A, b)`)")),
    }
}

fn int(n: num_bigint::BigInt) -> Value {
    Value::Int(Integer::from(n))
}

/// The sum of the coefficients of the terms (the count, for a function with no denominators).
fn polynomial_sum(f: &RationalFunction) -> num_rational::BigRational {
    f.terms().iter().map(|t| t.coefficient.clone()).sum()
}

fn count(_: &mut Interpreter, a: &mut Args) -> R {
    let span = a.span(0);
    match a.value(0) {
        Value::Polyhedron(p) => {
            let f = ShortForm::of_polytope(p).map_err(|e| algebra_error(e, span))?;
            Ok(int(f.count().map_err(|e| algebra_error(e, span))?))
        }
        Value::ShortGenfunc(g) => Ok(int(g.f.count().map_err(|e| algebra_error(e, span))?)),
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
            // The one-cone form's terms are disjoint pieces p + N{a_1..a_k}: a term with a
            // denominator is a direction the set contains.
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
