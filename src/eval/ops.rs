//! Operators on values: exact arithmetic on numbers, vectors and matrices; set operations on finite
//! sets; and the papers' constructions `F + A` (a module), `k·A`, `N^d` and `W1 ⊎ W2`.

use std::cmp::Ordering;
use std::rc::Rc;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

use super::error::{article, reserve};
use super::value::{compare_numbers, Value};
use super::EvalError;
use crate::algebra::barvinok::ShortForm;
use crate::algebra::{AffineModule, Integer, Matrix, Stratification, Vector};
use crate::syntax::ast::{BinaryOp, UnaryOp};
use crate::syntax::Span;

/// The largest integer result, in bits, that arithmetic will build (beyond it: a diagnostic).
const MAX_BITS: u64 = 1 << 20;

fn to_rational(v: &Value) -> Option<BigRational> {
    match v {
        Value::Int(i) => Some(BigRational::from(i.to_bigint())),
        Value::Rational(r) => Some((**r).clone()),
        _ => None,
    }
}

fn is_number(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::Rational(_))
}

/// `-x` and `not x`.
pub fn unary(op: UnaryOp, v: Value, span: Span, operand: Span) -> Result<Value, EvalError> {
    match (op, v) {
        (UnaryOp::Not, Value::Bool(b)) => Ok(Value::Bool(!b)),
        (UnaryOp::Neg, Value::Int(i)) => Ok(Value::Int(-i)),
        (UnaryOp::Neg, Value::Rational(r)) => Ok(Value::rational(-(*r).clone())),
        (UnaryOp::Neg, Value::Vector(v)) => Ok(Value::vector(v.scale(&Integer::from(-1)))),
        (UnaryOp::Neg, Value::Matrix(m)) => {
            Ok(Value::Matrix(Rc::new(scale_matrix(&m, &Integer::from(-1)))))
        }
        (UnaryOp::Not, other) => Err(EvalError::type_error(
            "the operand of `not`",
            "true or false",
            other.type_name(),
            operand,
        )),
        (UnaryOp::Neg, other) => {
            let _ = span;
            Err(EvalError::type_error(
                "the operand of `-`",
                "a number, vector or matrix",
                other.type_name(),
                operand,
            ))
        }
    }
}

/// Semigroups, modules, stratifications and stratified sets: the values `==`, `∪`, `∩` and `∖`
/// treat as sets of lattice points (a finite set joins them when the other side is one).
fn set_like(v: &Value) -> bool {
    super::builtins::sets::is_set_like(v) || matches!(v, Value::Cone(_) | Value::Polyhedron(_))
}

fn scale_matrix(m: &Matrix, k: &Integer) -> Matrix {
    Matrix::from_rows(m.rows().into_iter().map(|r| r.scale(k).0).collect())
        .expect("scaling keeps the shape")
}

fn mismatch(op: BinaryOp, l: &Value, r: &Value, ls: Span, rs: Span) -> EvalError {
    let help = match (op, l, r) {
        (BinaryOp::Add, Value::Vector(_), Value::Int(_)) | (BinaryOp::Add, Value::Int(_), Value::Vector(_)) => {
            "a number cannot be added to a vector; multiply a vector by a number with `*`".to_string()
        }
        (BinaryOp::Union | BinaryOp::Intersect | BinaryOp::SetMinus, _, _) => {
            "∪, ∩ and ∖ work on finite sets `{...}`; for semigroups, modules and stratifications they need the set algebra of stratified sets".to_string()
        }
        (BinaryOp::DisjointUnion, _, _) => "⊎ joins modules `F + A`, semigroups `N{...}` and stratifications".to_string(),
        (BinaryOp::Mul, Value::Vector(_), Value::Vector(_)) => "for the dot product of two vectors, write `dot(u, v)`".to_string(),
        _ => format!("`{}` is not defined between {} and {}", op.symbol(), article(l.type_name()), article(r.type_name())),
    };
    EvalError::new(
        "lg::eval::type",
        format!(
            "cannot apply `{}` to {} and {}",
            op.symbol(),
            article(l.type_name()),
            article(r.type_name())
        ),
        ls.to(rs),
        format!("{} {} {}", l.type_name(), op.symbol(), r.type_name()),
    )
    .with_help(help)
}

fn dim_error(what: &str, d1: usize, d2: usize, ls: Span, rs: Span) -> EvalError {
    EvalError::new(
        "lg::eval::dimension",
        format!("{what}: the left side lives in dimension {d1}, the right side in dimension {d2}"),
        ls.to(rs),
        format!("dimension {d1} against {d2}"),
    )
    .with_help("both sides need the same number of coordinates")
}

fn too_big(span: Span) -> EvalError {
    EvalError::new(
        "lg::eval::too_large",
        format!("this number would have more than {MAX_BITS} bits"),
        span,
        "too large",
    )
}

fn checked(v: Integer, span: Span) -> Result<Value, EvalError> {
    if v.bits() > MAX_BITS {
        Err(too_big(span))
    } else {
        Ok(Value::Int(v))
    }
}

/// Binary operators other than `and` / `or` (which short-circuit in the evaluator).
pub fn binary(op: BinaryOp, l: Value, r: Value, ls: Span, rs: Span) -> Result<Value, EvalError> {
    use BinaryOp::*;
    let span = ls.to(rs);
    match op {
        Eq | Ne
            if l != r
                && (set_like(&l) || super::builtins::sets::is_point_set(&l))
                && (set_like(&r) || super::builtins::sets::is_point_set(&r))
                && (super::builtins::sets::is_set_like(&l)
                    || super::builtins::sets::is_set_like(&r)) =>
        {
            let same = super::builtins::sets::set_equal(&l, &r, ls, rs)?;
            return Ok(Value::Bool(same == (op == Eq)));
        }
        Eq | Ne
            if l != r
                && (matches!(l, Value::ShortGenfunc(_)) || matches!(r, Value::ShortGenfunc(_))) =>
        {
            // A short form on either side: the randomized identity test on f − g.
            if let Some((f, _, g)) = short_pair(&l, &r, ls, rs)? {
                return Ok(Value::Bool(functions_equal(&f, &g, span)? == (op == Eq)));
            }
            return Ok(Value::Bool(op == Ne));
        }
        Eq | Ne if l != r => {
            if let (Value::Genfunc(f), Value::Genfunc(g)) = (&l, &r) {
                // The same identity test as for short forms: no common denominator, no atoms.
                let short = crate::algebra::barvinok::ShortForm::from_rational_function;
                let equal = functions_equal(&short(&f.f), &short(&g.f), span)?;
                return Ok(Value::Bool(equal == (op == Eq)));
            }
            return Ok(Value::Bool(op == Ne));
        }
        Eq => return Ok(Value::Bool(true)),
        Ne => return Ok(Value::Bool(false)),
        Lt | Le | Gt | Ge => {
            let ord = match (&l, &r) {
                (Value::Str(a), Value::Str(b)) => Some(a.cmp(b)),
                _ => compare_numbers(&l, &r),
            };
            let Some(ord) = ord else {
                return Err(mismatch(op, &l, &r, ls, rs)
                    .with_help("`<`, `<=`, `>` and `>=` compare numbers (or strings); compare vectors coordinate by coordinate"));
            };
            return Ok(Value::Bool(match op {
                Lt => ord == Ordering::Less,
                Le => ord != Ordering::Greater,
                Gt => ord == Ordering::Greater,
                _ => ord != Ordering::Less,
            }));
        }
        In => return super::builtins::contains(&r, &l, rs, ls).map(Value::Bool),
        _ => {}
    }
    // Numbers.
    if is_number(&l) && is_number(&r) {
        return arithmetic(op, &l, &r, ls, rs);
    }
    match (op, &l, &r) {
        // Vectors.
        (Add | Sub, Value::Vector(a), Value::Vector(b)) => {
            if a.dim() != b.dim() {
                return Err(dim_error(
                    &format!("`{}` of two vectors", op.symbol()),
                    a.dim(),
                    b.dim(),
                    ls,
                    rs,
                ));
            }
            Ok(Value::vector(if op == Add { a.add(b) } else { a.sub(b) }))
        }
        (Mul, Value::Int(k), Value::Vector(v)) | (Mul, Value::Vector(v), Value::Int(k)) => {
            Ok(Value::vector(v.scale(k)))
        }
        // Matrices.
        (Mul, Value::Int(k), Value::Matrix(m)) | (Mul, Value::Matrix(m), Value::Int(k)) => {
            Ok(Value::Matrix(Rc::new(scale_matrix(m, k))))
        }
        (Mul, Value::Matrix(m), Value::Vector(v)) => {
            if m.ncols() != v.dim() {
                return Err(dim_error("a matrix times a vector (columns of the matrix against coordinates of the vector)", m.ncols(), v.dim(), ls, rs));
            }
            Ok(Value::vector(m.apply(v)))
        }
        (Mul, Value::Matrix(a), Value::Matrix(b)) => {
            if a.ncols() != b.nrows() {
                return Err(dim_error(
                    "a matrix product (columns of the left against rows of the right)",
                    a.ncols(),
                    b.nrows(),
                    ls,
                    rs,
                ));
            }
            let cols: Vec<Vector> = b.columns().iter().map(|c| a.apply(c)).collect();
            Ok(Value::Matrix(Rc::new(
                Matrix::from_columns(&cols).expect("a product is never empty"),
            )))
        }
        (Add | Sub, Value::Matrix(a), Value::Matrix(b)) => {
            if a.nrows() != b.nrows() || a.ncols() != b.ncols() {
                return Err(EvalError::new(
                    "lg::eval::dimension",
                    format!(
                        "cannot {} a {}×{} matrix and a {}×{} matrix",
                        if op == Add { "add" } else { "subtract" },
                        a.nrows(),
                        a.ncols(),
                        b.nrows(),
                        b.ncols()
                    ),
                    span,
                    "shapes differ",
                ));
            }
            let rows = a
                .rows()
                .iter()
                .zip(b.rows())
                .map(|(x, y)| if op == Add { x.add(&y).0 } else { x.sub(&y).0 })
                .collect();
            Ok(Value::Matrix(Rc::new(
                Matrix::from_rows(rows).expect("same shape"),
            )))
        }
        // Lists and strings.
        (Add, Value::List(a), Value::List(b)) => {
            let n = a.len() + b.len();
            reserve(
                (n * std::mem::size_of::<Value>()) as u64,
                || format!("a list of {n} elements"),
                span,
            )?;
            let mut v = a.to_vec();
            v.extend(b.iter().cloned());
            Ok(Value::list(v))
        }
        (Add, Value::Str(a), Value::Str(b)) => {
            let n = a.len() + b.len();
            reserve(n as u64, || format!("a string of {n} bytes"), span)?;
            Ok(Value::str(&format!("{a}{b}")))
        }
        // Finite sets.
        (Union | Intersect | SetMinus, _, _)
            if (set_like(&l) || set_like(&r))
                && !matches!(l, Value::Set(_) if matches!(r, Value::Set(_))) =>
        {
            let c = match op {
                Union => '∪',
                Intersect => '∩',
                _ => '∖',
            };
            super::builtins::sets::set_operation(c, &l, &r, ls, rs)
        }
        // Short rational functions: sums and differences (with one-cone ones too), multiples.
        (Add | Sub, Value::ShortGenfunc(_), Value::ShortGenfunc(_) | Value::Genfunc(_))
        | (Add | Sub, Value::Genfunc(_), Value::ShortGenfunc(_)) => {
            let Some((f, names, g)) = short_pair(&l, &r, ls, rs)? else {
                unreachable!("matched rational functions")
            };
            let h = if op == Add { f.add(&g) } else { f.sub(&g) };
            Ok(super::builtins::short_forms::short_value(h, names))
        }
        (Mul, Value::ShortGenfunc(f), k) | (Mul, k, Value::ShortGenfunc(f)) if is_number(k) => {
            let c = to_rational(k).expect("a number");
            Ok(super::builtins::short_forms::short_value(
                f.f.scale(&c),
                f.names.clone(),
            ))
        }
        // Rational functions: sums, differences, rational multiples, and t^p·f for `monomial`s.
        (Add | Sub, Value::Genfunc(f), Value::Genfunc(g)) => {
            same_dims(f, g, ls, rs)?;
            let h = if op == Add {
                f.f.add(&g.f)
            } else {
                f.f.sub(&g.f)
            };
            Ok(Value::Genfunc(Rc::new(super::value::Genfunc {
                f: h,
                names: f.names.clone(),
            })))
        }
        (Mul, Value::Genfunc(f), k) | (Mul, k, Value::Genfunc(f)) if is_number(k) => {
            let c = to_rational(k).expect("a number");
            Ok(Value::Genfunc(Rc::new(super::value::Genfunc {
                f: f.f.scale(&c),
                names: f.names.clone(),
            })))
        }
        (Mul, Value::Genfunc(f), Value::Genfunc(g))
            if g.f.terms().len() == 1 && g.f.is_polynomial()
                || f.f.terms().len() == 1 && f.f.is_polynomial() =>
        {
            let (mono, other) = if g.f.terms().len() == 1 && g.f.is_polynomial() {
                (g, f)
            } else {
                (f, g)
            };
            same_dims(f, g, ls, rs)?;
            let t = &mono.f.terms()[0];
            let h = other.f.shift(&t.exponent).scale(&t.coefficient);
            Ok(Value::Genfunc(Rc::new(super::value::Genfunc {
                f: h,
                names: other.names.clone(),
            })))
        }
        (Mul, Value::Genfunc(f), Value::Genfunc(g)) => {
            same_dims(f, g, ls, rs)?;
            let h = f.f.mul(&g.f).map_err(|e| match e {
                crate::algebra::AlgebraError::NotPointed { line } => EvalError::new(
                    "lg::eval::value",
                    format!(
                        "these series have no common region of convergence: the exponents of their denominators span the line through {line}"
                    ),
                    ls.to(rs),
                    "the product of these",
                )
                .with_help("the denominators' exponents of both must lie in one pointed cone"),
                e => EvalError::new("lg::eval::value", e.to_string(), ls.to(rs), "the product of these"),
            })?;
            Ok(Value::Genfunc(Rc::new(super::value::Genfunc {
                f: h,
                names: f.names.clone(),
            })))
        }
        // f / (c·t^p): dividing by one monomial.
        (Div, Value::Genfunc(f), Value::Genfunc(g))
            if g.f.terms().len() == 1 && g.f.is_polynomial() =>
        {
            same_dims(f, g, ls, rs)?;
            let t = &g.f.terms()[0];
            let h = f
                .f
                .shift(&t.exponent.scale(&crate::algebra::Integer::from(-1)))
                .scale(&(num_rational::BigRational::from_integer(1.into()) / &t.coefficient));
            Ok(Value::Genfunc(Rc::new(super::value::Genfunc {
                f: h,
                names: f.names.clone(),
            })))
        }
        (Div, Value::Genfunc(_), Value::Genfunc(_)) => Err(EvalError::new(
            "lg::eval::value",
            "a rational function can be divided by a monomial c·t^p only",
            rs,
            "not a single monomial",
        )
        .with_help("divide by `monomial(p)` (or a rational multiple of one); a quotient of series in general is not a series of the kind lg keeps")),
        (Add, Value::StratifiedSet(s), Value::Vector(p))
        | (Add, Value::Vector(p), Value::StratifiedSet(s)) => {
            if s.dim() != p.dim() {
                return Err(dim_error(
                    "a translation of a set",
                    s.dim(),
                    p.dim(),
                    ls,
                    rs,
                ));
            }
            Ok(Value::StratifiedSet(Rc::new(
                super::set_value::SetValue::new(s.translate(p)),
            )))
        }
        (Union, Value::Set(a), Value::Set(b)) => {
            Ok(Value::set(a.iter().chain(b.iter()).cloned().collect()))
        }
        (Intersect, Value::Set(a), Value::Set(b)) => Ok(Value::set(
            a.iter().filter(|x| b.contains(x)).cloned().collect(),
        )),
        (SetMinus, Value::Set(a), Value::Set(b)) => Ok(Value::set(
            a.iter().filter(|x| !b.contains(x)).cloned().collect(),
        )),
        // Semigroups: k·A, A^d (= A × ... × A), and modules F + A.
        (Mul, Value::Int(k), Value::Semigroup(a)) | (Mul, Value::Semigroup(a), Value::Int(k)) => {
            if k.signum() <= 0 {
                return Err(EvalError::new(
                    "lg::eval::value",
                    format!("a semigroup can be scaled by a positive integer, not by {k}"),
                    span,
                    "not positive",
                ));
            }
            Ok(Value::Semigroup(Rc::new(a.scale(k))))
        }
        (Pow, Value::Semigroup(a), Value::Int(k)) => {
            let n = k.to_i64().filter(|n| (1..=64).contains(n)).ok_or_else(|| {
                EvalError::new(
                    "lg::eval::value",
                    format!("the power A^d needs 1 ≤ d ≤ 64, not {k}"),
                    rs,
                    "exponent",
                )
                .with_help("`N^3` is the semigroup N^3 of the positive orthant of Z^3")
            })?;
            let mut p = (**a).clone();
            for _ in 1..n {
                p = p.product(a);
            }
            Ok(Value::Semigroup(Rc::new(p)))
        }
        (Add, _, Value::Semigroup(_) | Value::Module(_))
        | (Add, Value::Semigroup(_) | Value::Module(_), _) => module_sum(&l, &r, ls, rs),
        // An empty set value is disjoint from anything: S ⊎ ∅ = S (dimensions must still agree).
        (DisjointUnion, Value::StratifiedSet(e), other)
        | (DisjointUnion, other, Value::StratifiedSet(e))
            if e.is_empty() && super::builtins::sets::set_dim(other).is_some() =>
        {
            let dims = (
                super::builtins::sets::set_dim(&l).expect("a set"),
                super::builtins::sets::set_dim(&r).expect("a set"),
            );
            if dims.0 != dims.1 {
                return Err(dim_error("the pieces of `⊎`", dims.0, dims.1, ls, rs));
            }
            Ok(other.clone())
        }
        (DisjointUnion, _, _) => {
            let a = as_stratification(&l, ls)?;
            let b = as_stratification(&r, rs)?;
            if a.dim() != b.dim() {
                return Err(dim_error("the pieces of `⊎`", a.dim(), b.dim(), ls, rs));
            }
            let union = a.disjoint_union(&b).expect("dimensions checked");
            // The pieces must be disjoint: decide it exactly, and show a shared point if not. A
            // side that is already a stratification (checked when it was made) or a set value is
            // disjoint within itself: only pairs across the two sides, or within a side of loose
            // pieces, are tested.
            let known = |v: &Value| matches!(v, Value::Stratification(_) | Value::StratifiedSet(_));
            let groups: Vec<usize> = (0..a.pieces().len())
                .map(|i| if known(&l) { 0 } else { 2 + i })
                .chain((0..b.pieces().len()).map(|j| {
                    if known(&r) {
                        1
                    } else {
                        2 + a.pieces().len() + j
                    }
                }))
                .collect();
            let span = ls.to(rs);
            match crate::algebra::StratifiedSet::from_stratification_grouped(&union, &groups) {
                Ok(Ok(_)) => {}
                Ok(Err(overlap)) => {
                    return Err(super::builtins::sets::overlap_error(&union, &overlap, span))
                }
                Err(e) => {
                    return Err(EvalError::new(
                        "lg::eval::value",
                        e.to_string(),
                        span,
                        "these pieces",
                    )
                    .with_help(
                        "disjointness is decided exactly for pointed semigroups and their modules",
                    ))
                }
            }
            Ok(Value::Stratification(Rc::new(union)))
        }
        _ => Err(mismatch(op, &l, &r, ls, rs)),
    }
}

fn arithmetic(op: BinaryOp, l: &Value, r: &Value, ls: Span, rs: Span) -> Result<Value, EvalError> {
    use BinaryOp::*;
    let span = ls.to(rs);
    if let (Value::Int(a), Value::Int(b)) = (l, r) {
        match op {
            Add => return checked(a + b, span),
            Sub => return checked(a - b, span),
            Mul => {
                if a.bits() + b.bits() > MAX_BITS {
                    return Err(too_big(span));
                }
                return Ok(Value::Int(a * b));
            }
            Mod => {
                return a.mod_floor(b).map(Value::Int).ok_or_else(|| {
                    EvalError::new(
                        "lg::eval::division_by_zero",
                        "remainder of a division by zero",
                        rs,
                        "this is 0",
                    )
                })
            }
            Pow => return int_pow(a, b, ls, rs),
            _ => {}
        }
    }
    let (a, b) = (
        to_rational(l).expect("a number"),
        to_rational(r).expect("a number"),
    );
    match op {
        Add => Ok(Value::rational(a + b)),
        Sub => Ok(Value::rational(a - b)),
        Mul => Ok(Value::rational(a * b)),
        Div => {
            if b.is_zero() {
                return Err(EvalError::new(
                    "lg::eval::division_by_zero",
                    "division by zero",
                    rs,
                    "this is 0",
                ));
            }
            Ok(Value::rational(a / b))
        }
        Pow => {
            let Value::Int(e) = r else {
                return Err(EvalError::type_error(
                    "an exponent",
                    "an integer",
                    r.type_name(),
                    rs,
                ));
            };
            let n = e
                .to_i64()
                .filter(|n| n.unsigned_abs() <= 1 << 16)
                .ok_or_else(|| too_big(span))?;
            if n < 0 && a.is_zero() {
                return Err(EvalError::new(
                    "lg::eval::division_by_zero",
                    "0 to a negative power",
                    span,
                    "division by zero",
                ));
            }
            let p = num_traits::pow(a.clone(), n.unsigned_abs() as usize);
            let p = if n < 0 {
                BigRational::from(BigInt::from(1)) / p
            } else {
                p
            };
            if p.numer().bits() + p.denom().bits() > MAX_BITS {
                return Err(too_big(span));
            }
            Ok(Value::rational(p))
        }
        Mod => Err(EvalError::type_error(
            "the operands of `%`",
            "integers",
            "rational",
            span,
        )),
        _ => Err(mismatch(op, l, r, ls, rs)),
    }
}

fn int_pow(a: &Integer, b: &Integer, ls: Span, rs: Span) -> Result<Value, EvalError> {
    let span = ls.to(rs);
    if b.signum() < 0 {
        if a.is_zero() {
            return Err(EvalError::new(
                "lg::eval::division_by_zero",
                "0 to a negative power",
                span,
                "division by zero",
            ));
        }
        // a^(-n) = 1 / a^n, computed exactly.
        let positive = match int_pow(a, &-b, ls, rs)? {
            Value::Int(p) => p,
            _ => unreachable!("a nonnegative power of an integer is an integer"),
        };
        return Ok(Value::rational(BigRational::new(
            BigInt::from(1),
            positive.to_bigint(),
        )));
    }
    let small_base = a.bits() <= 1; // 0, 1, -1
    if small_base && !b.is_zero() {
        // 0^b = 0, 1^b = 1, (-1)^b = ±1 by the parity of b, however large b is.
        let odd = !b.is_multiple_of(&Integer::from(2));
        return Ok(Value::Int(if odd { a.clone() } else { a.pow(2) }));
    }
    let e = match b.to_i64() {
        Some(e) if (e as u64).saturating_mul(a.bits()) <= MAX_BITS => e as u32,
        _ => return Err(too_big(span)),
    };
    Ok(Value::Int(a.pow(e)))
}

fn module_sum(l: &Value, r: &Value, ls: Span, rs: Span) -> Result<Value, EvalError> {
    let (offsets_side, module_side, os, ms) = match (l, r) {
        (_, Value::Semigroup(_) | Value::Module(_)) if !matches!(l, Value::Semigroup(_) | Value::Module(_)) => (l, r, ls, rs),
        (Value::Semigroup(_) | Value::Module(_), _) if !matches!(r, Value::Semigroup(_) | Value::Module(_)) => (r, l, rs, ls),
        _ => {
            return Err(mismatch(BinaryOp::Add, l, r, ls, rs).with_help(
                "F + A needs a finite set F (or one vector) and a semigroup A; the sum of two semigroups is not supported",
            ))
        }
    };
    let offsets = match offsets_side {
        Value::Vector(v) => vec![(**v).clone()],
        Value::Set(items) | Value::List(items) => {
            let mut out = Vec::new();
            for x in items.iter() {
                match x {
                    Value::Vector(v) => out.push((**v).clone()),
                    other => {
                        return Err(EvalError::type_error(
                            "an element of F in F + A",
                            "a vector",
                            other.type_name(),
                            os,
                        ))
                    }
                }
            }
            out
        }
        Value::Matrix(m) => m.columns(),
        other => {
            return Err(EvalError::type_error(
                "F in F + A",
                "a vector or a finite set of vectors",
                other.type_name(),
                os,
            )
            .with_help("write `(1, 0) + N{(2, 0)}` or `{(0, 0), (1, 1)} + 2N^2`"))
        }
    };
    let module = match module_side {
        Value::Semigroup(a) => AffineModule::from_semigroup((**a).clone()),
        Value::Module(m) => (**m).clone(),
        _ => unreachable!("checked above"),
    };
    if let Some(bad) = offsets.iter().find(|v| v.dim() != module.dim()) {
        return Err(EvalError::new(
            "lg::eval::dimension",
            format!(
                "F + A: the vector {bad} lives in dimension {}, the semigroup {} in dimension {}",
                bad.dim(),
                module.semigroup(),
                module.dim()
            ),
            ls.to(rs),
            format!("dimension {} against {}", bad.dim(), module.dim()),
        )
        .with_help("F and A must live in one Z^d; for example 2N along the first axis of Z^2 is written N{(2, 0)}"));
    }
    if offsets.is_empty() {
        return Err(EvalError::new(
            "lg::eval::value",
            "F + A needs a nonempty set F",
            os,
            "empty set",
        )
        .with_help("the empty module has no points; leave it out of the stratification"));
    }
    let result = module.add_offsets(&offsets).expect("dimensions checked");
    let _ = ms;
    Ok(Value::Module(Rc::new(result)))
}

fn as_stratification(v: &Value, span: Span) -> Result<Stratification, EvalError> {
    match v {
        Value::Stratification(s) => Ok((**s).clone()),
        Value::StratifiedSet(_) => {
            Ok((*super::builtins::sets::stratification_of(v, span)?.expect("a set value")).clone())
        }
        Value::Module(m) => Ok(Stratification::new(vec![(**m).clone()]).expect("one piece")),
        Value::Semigroup(a) => Ok(Stratification::new(vec![AffineModule::from_semigroup(
            (**a).clone(),
        )])
        .expect("one piece")),
        // A finite set of points F is the module F + {0}.
        Value::Set(items)
            if !items.is_empty() && items.iter().all(|x| matches!(x, Value::Vector(_))) =>
        {
            let points: Vec<crate::algebra::Vector> = items
                .iter()
                .filter_map(|x| match x {
                    Value::Vector(p) => Some((**p).clone()),
                    _ => None,
                })
                .collect();
            let d = points[0].dim();
            if points.iter().any(|p| p.dim() != d) {
                return Err(EvalError::new(
                    "lg::eval::dimension",
                    "the points of a finite piece of `⊎` must live in one Z^d",
                    span,
                    "mixed dimensions",
                ));
            }
            let zero = crate::algebra::AffineSemigroup::with_dim(d, Vec::new())
                .map_err(|e| super::builtins::objects::algebra_error(e, span))?;
            let module = AffineModule::new(points, zero)
                .map_err(|e| super::builtins::objects::algebra_error(e, span))?;
            Ok(Stratification::new(vec![module]).expect("one piece"))
        }
        other => Err(EvalError::type_error(
            "each side of `⊎`",
            "a module F + A, a semigroup, a stratification or a finite set of points",
            other.type_name(),
            span,
        )
        .with_help(
            "write the pieces as modules, e.g. `((1, 0) + N{(2, 0)}) ⊎ ((0, 2) + 2N^2) ⊎ {(1, 1)}`",
        )),
    }
}

/// `x[i]`: 1-based indexing of vectors, tuples, lists and strings, as coordinates are numbered in
/// the papers.
pub fn index(base: Value, i: Value, bs: Span, is: Span) -> Result<Value, EvalError> {
    let Value::Int(k) = &i else {
        return Err(EvalError::type_error(
            "an index",
            "an integer",
            i.type_name(),
            is,
        ));
    };
    let len = match &base {
        Value::Vector(v) => v.dim(),
        Value::Tuple(v) | Value::List(v) => v.len(),
        Value::Str(s) => s.chars().count(),
        Value::Matrix(_) => {
            return Err(EvalError::new("lg::eval::type", "a matrix is not indexed directly", bs, "a matrix")
                .with_help("use `rows(m)[i]` for a row or `columns(m)[j]` for a column (the vectors it stands for)"))
        }
        Value::Set(_) => {
            return Err(EvalError::new("lg::eval::type", "a set has no positions to index", bs, "a set")
                .with_help("use `list(S)[i]` for its elements in canonical order, or `x in S` for membership"))
        }
        other => {
            return Err(EvalError::new(
                "lg::eval::type",
                format!("{} cannot be indexed", article(other.type_name())),
                bs,
                format!("this is {}", article(other.type_name())),
            )
            .with_help("index vectors, tuples, lists and strings, as in `p[1]`"))
        }
    };
    let pos = k
        .to_i64()
        .filter(|&k| k >= 1 && (k as u64) <= len as u64)
        .ok_or_else(|| {
            EvalError::new(
                "lg::eval::index",
                format!(
                    "index {k} is out of range: this {} has {len} entr{}",
                    base.type_name(),
                    if len == 1 { "y" } else { "ies" }
                ),
                is,
                "out of range",
            )
            .with_help(if len == 0 {
                "it is empty".to_string()
            } else {
                format!("indices run from 1 to {len}, as coordinates in the papers")
            })
        })? as usize
        - 1;
    Ok(match base {
        Value::Vector(v) => Value::Int(v.0[pos].clone()),
        Value::Tuple(v) | Value::List(v) => v[pos].clone(),
        Value::Str(s) => Value::str(&s.chars().nth(pos).expect("in range").to_string()),
        _ => unreachable!("checked above"),
    })
}

/// Both sides as short forms (the left's variable names kept) when both are rational
/// functions of either kind, which must have the same number of variables.
fn short_pair(
    l: &Value,
    r: &Value,
    ls: Span,
    rs: Span,
) -> Result<Option<(ShortForm, Vec<String>, ShortForm)>, EvalError> {
    let short = super::builtins::short_forms::as_short;
    let (Some((f, names)), Some((g, _))) = (short(l), short(r)) else {
        return Ok(None);
    };
    if f.dim() != g.dim() {
        return Err(dim_error(
            "the rational functions",
            f.dim(),
            g.dim(),
            ls,
            rs,
        ));
    }
    Ok(Some((f, names, g)))
}

/// f = g as rational functions, by the random-point identity test on f − g.
fn functions_equal(f: &ShortForm, g: &ShortForm, span: Span) -> Result<bool, EvalError> {
    f.sub(g).is_zero().map_err(|e| {
        EvalError::new(
            "lg::eval::value",
            e.to_string(),
            span,
            "comparing these functions",
        )
    })
}

/// Two rational functions combined must have the same number of variables.
fn same_dims(
    f: &super::value::Genfunc,
    g: &super::value::Genfunc,
    ls: Span,
    rs: Span,
) -> Result<(), EvalError> {
    if f.f.dim() == g.f.dim() {
        return Ok(());
    }
    Err(dim_error(
        "the rational functions",
        f.f.dim(),
        g.f.dim(),
        ls,
        rs,
    ))
}
