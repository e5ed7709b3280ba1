//! Builtins on numbers, collections, strings and functions.

use std::rc::Rc;

use super::{Args, Builtin};
use crate::algebra::{Integer, Matrix, Vector};
use crate::eval::error::reserve;
use crate::eval::ops;
use crate::eval::value::Value;
use crate::eval::{EvalError, Interpreter};
use crate::syntax::ast::BinaryOp;

type R = Result<Value, EvalError>;

pub(super) fn register(r: &mut Vec<Builtin>) {
    r.push(Builtin {
        name: "print",
        signature: "print(values..., full: false)",
        doc: "Writes the values on one line, separated by spaces. Strings are written without quotes,\n\
              everything else in the canonical form that reads back as the same value. A set whose\n\
              printed form is longer than a screenful is summarized in one line; `full: true` writes\n\
              it whole (and `str(S)` is always whole).",
        example: "print(\"Γ =\", ruleset([1 0 -1; 0 1 1]))",
        min_args: 0,
        max_args: None,
        named: &["full"],
        func: print,
    });
    r.push(Builtin {
        name: "str",
        signature: "str(value) -> string",
        doc: "The printed form of a value, as a string.",
        example: "str((1, 0)) + \" is a position\"",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: |_, a| Ok(Value::str(&a.value(0).to_print_string())),
    });
    r.push(Builtin {
        name: "type_of",
        signature: "type_of(value) -> string",
        doc: "The type of a value: \"integer\", \"vector\", \"rule set\", \"module\", ...",
        example: "type_of(N{(2, 0)})",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: |_, a| Ok(Value::str(a.value(0).type_name())),
    });
    r.push(Builtin {
        name: "len",
        signature: "len(x) -> integer",
        doc: "The number of elements of a list, set or tuple; coordinates of a vector; characters of a\n\
              string; moves of a rule set; pieces of a stratification; columns of a matrix.",
        example: "len({(1, 0), (0, 1)})",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: len,
    });
    r.push(Builtin {
        name: "range",
        signature: "range(n) or range(a, b) -> list",
        doc: "The integers 0, 1, ..., n-1, or a, a+1, ..., b-1.",
        example: "[2 * i for i in range(1, 4)]",
        min_args: 1,
        max_args: Some(2),
        named: &[],
        func: range,
    });
    r.push(Builtin {
        name: "vector",
        signature: "vector(entries) -> vector",
        doc: "The integer vector with the given entries (a list or tuple of integers).",
        example: "vector([i * i for i in range(1, 4)])",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: vector,
    });
    r.push(Builtin {
        name: "list",
        signature: "list(collection) -> list",
        doc: "The elements of a collection as a list: a set in its canonical order, the entries of a\n\
              vector, the columns of a matrix, the moves of a rule set.",
        example: "list({(0, 1), (1, 0)})",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: |_, a| Ok(Value::list(a.elements(0)?)),
    });
    r.push(Builtin {
        name: "set",
        signature: "set(collection) -> set",
        doc: "The elements of a collection as a finite set (repetitions removed).",
        example: "set([1, 2, 2, 3])",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: |_, a| Ok(Value::set(a.elements(0)?)),
    });
    r.push(Builtin {
        name: "matrix",
        signature: "matrix(rows) -> matrix",
        doc:
            "The integer matrix with the given rows (a list of vectors or of lists of integers).\n\
              The literal `[1 0 -1; 0 1 1]` is the same as `matrix([(1, 0, -1), (0, 1, 1)])`.",
        example: "matrix([(1, 0, -1), (0, 1, 1)])",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: matrix,
    });
    r.push(Builtin {
        name: "rows",
        signature: "rows(m) -> list",
        doc: "The rows of a matrix, as vectors.",
        example: "rows([1 0 -1; 0 1 1])",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: |_, a| match a.value(0) {
            Value::Matrix(m) => Ok(Value::list(
                m.rows().into_iter().map(Value::vector).collect(),
            )),
            _ => Err(a.wrong(0, "a matrix")),
        },
    });
    r.push(Builtin {
        name: "columns",
        signature: "columns(m) -> list",
        doc: "The columns of a matrix, as vectors: the vectors a matrix stands for in the papers.",
        example: "columns([1 0 -1; 0 1 1])",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: |_, a| match a.value(0) {
            Value::Matrix(m) => Ok(Value::list(
                m.columns().into_iter().map(Value::vector).collect(),
            )),
            _ => Err(a.wrong(0, "a matrix")),
        },
    });
    r.push(Builtin {
        name: "transpose",
        signature: "transpose(m) -> matrix",
        doc: "The transpose of a matrix.",
        example: "transpose([1 0 -1; 0 1 1])",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: |_, a| match a.value(0) {
            Value::Matrix(m) => Ok(Value::Matrix(Rc::new(m.transpose()))),
            _ => Err(a.wrong(0, "a matrix")),
        },
    });
    r.push(Builtin {
        name: "dot",
        signature: "dot(u, v) -> integer",
        doc: "The dot product of two integer vectors of one dimension; with a functional ℓ,\n\
              `dot(ℓ, p)` is the weight of the position p.",
        example: "dot((1, 2), (3, 1))",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: dot,
    });
    r.push(Builtin {
        name: "sum",
        signature: "sum(collection) -> number or vector",
        doc: "The sum of the numbers, or of the vectors, in a collection (0 when it is empty).",
        example: "sum(columns([1 0 -1; 0 1 1]))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: sum,
    });
    r.push(Builtin {
        name: "min",
        signature: "min(collection) or min(a, b, ...)",
        doc: "The smallest of the values (numbers compare by size; other values by their canonical order).",
        example: "min(3, 1/2, 2)",
        min_args: 1,
        max_args: None,
        named: &[],
        func: |_, a| extremum(a, false),
    });
    r.push(Builtin {
        name: "max",
        signature: "max(collection) or max(a, b, ...)",
        doc: "The largest of the values.",
        example: "max([3, 1, 2])",
        min_args: 1,
        max_args: None,
        named: &[],
        func: |_, a| extremum(a, true),
    });
    r.push(Builtin {
        name: "abs",
        signature: "abs(x) -> number",
        doc: "The absolute value of an integer or rational.",
        example: "abs(-3/4)",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: |_, a| match a.value(0) {
            Value::Int(i) => Ok(Value::Int(i.abs())),
            Value::Rational(r) => Ok(Value::rational(num_traits::Signed::abs(&**r))),
            _ => Err(a.wrong(0, "a number")),
        },
    });
    r.push(Builtin {
        name: "gcd",
        signature: "gcd(a, b) -> integer",
        doc: "The greatest common divisor of two integers (nonnegative).",
        example: "gcd(12, 18)",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: |_, a| Ok(Value::Int(a.int(0)?.gcd(&a.int(1)?))),
    });
    r.push(Builtin {
        name: "sort",
        signature: "sort(collection) -> list",
        doc: "The elements in increasing order (numbers by size, vectors lexicographically).",
        example: "sort([(1, 0), (0, 2), (0, 1)])",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: |_, a| {
            let mut v = a.elements(0)?;
            v.sort();
            Ok(Value::list(v))
        },
    });
    r.push(Builtin {
        name: "map",
        signature: "map(f, collection) -> list",
        doc: "The list of f(x) for each element x.",
        example: "map(fn(p) = 2 * p, [(1, 0), (0, 1)])",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: map,
    });
    r.push(Builtin {
        name: "filter",
        signature: "filter(f, collection) -> list",
        doc: "The elements x for which f(x) is true.",
        example: "filter(fn(p) = p[1] > 0, [(1, 0), (0, 1)])",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: filter,
    });
    r.push(Builtin {
        name: "all",
        signature: "all(collection) -> boolean",
        doc: "Whether every element (a boolean) is true; true for an empty collection.",
        example: "all([p[1] >= 0 for p in [(1, 0), (0, 1)]])",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: |_, a| bools(a, true),
    });
    r.push(Builtin {
        name: "any",
        signature: "any(collection) -> boolean",
        doc: "Whether some element (a boolean) is true; false for an empty collection.",
        example: "any([p == (0, 0) for p in [(1, 0), (0, 1)]])",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: |_, a| bools(a, false),
    });
}

fn print(interp: &mut Interpreter, a: &mut Args) -> R {
    let full = a.named_bool("full", false)?;
    let mut line: Vec<String> = Vec::with_capacity(a.len());
    for (v, span) in a.values() {
        line.push(match v {
            Value::StratifiedSet(s) if full => s
                .full_text()
                .map_err(|e| super::objects::algebra_error(e, *span))?,
            Value::StratifiedSet(s) => s.display_text(),
            // Games and rule sets past a screenful are summarized as in the REPL; lists and
            // strings are a script's data, written whole.
            Value::Game(_) | Value::RuleSet(_) if !full => v.display_text(),
            v => v.to_print_string(),
        });
    }
    interp.write_line(&line.join(" "));
    Ok(Value::Nothing)
}

fn len(_: &mut Interpreter, a: &mut Args) -> R {
    let n = match a.value(0) {
        Value::List(v) | Value::Set(v) | Value::Tuple(v) => v.len(),
        Value::Vector(v) => v.dim(),
        Value::Str(s) => s.chars().count(),
        Value::Matrix(m) => m.ncols(),
        Value::RuleSet(r) => r.len(),
        Value::Stratification(s) => s.pieces().len(),
        Value::StratifiedSet(s) if s.is_empty() => 0,
        v @ Value::StratifiedSet(_) => {
            super::sets::stratification_of(v, a.span(0))?.map_or(0, |s| s.pieces().len())
        }
        Value::Solution(s) => return Ok(Value::int(s.counts().0 as i64)),
        _ => return Err(a.wrong(0, "a collection")),
    };
    Ok(Value::int(n))
}

fn range(_: &mut Interpreter, a: &mut Args) -> R {
    let (lo, hi) = if a.len() == 1 {
        (Integer::ZERO, a.int(0)?)
    } else {
        (a.int(0)?, a.int(1)?)
    };
    let n = (&hi - &lo).to_i64().unwrap_or(i64::MAX).max(0);
    reserve(
        (n as u64).saturating_mul(std::mem::size_of::<Value>() as u64),
        || format!("`range` of {} integers", &hi - &lo),
        a.span,
    )?;
    let mut out = Vec::with_capacity(n as usize);
    let mut x = lo;
    while x < hi {
        out.push(Value::Int(x.clone()));
        x = x + Integer::ONE;
    }
    Ok(Value::list(out))
}

fn vector(_: &mut Interpreter, a: &mut Args) -> R {
    let items = a.elements(0)?;
    if items.is_empty() {
        return Err(EvalError::new(
            "lg::eval::value",
            "a vector needs at least one coordinate",
            a.span(0),
            "empty",
        )
        .with_help("vectors live in Z^d with d ≥ 1"));
    }
    let mut v = Vec::with_capacity(items.len());
    for x in items {
        match x {
            Value::Int(i) => v.push(i),
            other => {
                return Err(EvalError::type_error(
                    "each entry of a vector",
                    "an integer",
                    other.type_name(),
                    a.span(0),
                )
                .with_help("vectors have integer coordinates; rationals may appear in tuples"))
            }
        }
    }
    Ok(Value::vector(Vector(v)))
}

fn matrix(_: &mut Interpreter, a: &mut Args) -> R {
    let rows = a.elements(0)?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let entries = match &r {
            Value::Vector(v) => v.0.clone(),
            Value::List(items) | Value::Tuple(items) => {
                let mut e = Vec::new();
                for x in items.iter() {
                    match x {
                        Value::Int(i) => e.push(i.clone()),
                        other => {
                            return Err(EvalError::type_error(
                                "a matrix entry",
                                "an integer",
                                other.type_name(),
                                a.span(0),
                            ))
                        }
                    }
                }
                e
            }
            other => {
                return Err(EvalError::type_error(
                    "a row of a matrix",
                    "a vector or a list of integers",
                    other.type_name(),
                    a.span(0),
                ))
            }
        };
        out.push(entries);
    }
    Matrix::from_rows(out)
        .map(|m| Value::Matrix(Rc::new(m)))
        .map_err(|e| {
            EvalError::new(
                "lg::eval::dimension",
                e.to_string(),
                a.span(0),
                "these rows",
            )
            .with_help("give every row the same number of entries")
        })
}

fn dot(_: &mut Interpreter, a: &mut Args) -> R {
    let (u, v) = (a.vector(0)?, a.vector(1)?);
    if u.dim() != v.dim() {
        return Err(EvalError::new(
            "lg::eval::dimension",
            format!(
                "`dot` needs two vectors of one dimension, but these have {} and {} coordinates",
                u.dim(),
                v.dim()
            ),
            a.span(0).to(a.span(1)),
            format!("dimension {} against {}", u.dim(), v.dim()),
        ));
    }
    Ok(Value::Int(u.dot(&v)))
}

fn sum(_: &mut Interpreter, a: &mut Args) -> R {
    let items = a.elements(0)?;
    let mut iter = items.into_iter();
    let Some(mut acc) = iter.next() else {
        return Ok(Value::int(0));
    };
    let span = a.span(0);
    for x in iter {
        acc = ops::binary(BinaryOp::Add, acc, x, span, span)?;
    }
    Ok(acc)
}

fn extremum(a: &mut Args, largest: bool) -> R {
    let items = if a.len() == 1 {
        a.elements(0)?
    } else {
        a.values().map(|(v, _)| v.clone()).collect()
    };
    let best = if largest {
        items.into_iter().max()
    } else {
        items.into_iter().min()
    };
    best.ok_or_else(|| {
        EvalError::new(
            "lg::eval::value",
            format!("`{}` of an empty collection", a.builtin.name),
            a.span,
            "empty",
        )
    })
}

fn map(interp: &mut Interpreter, a: &mut Args) -> R {
    let f = a.function(0)?;
    let span = a.span(1);
    let mut out = Vec::new();
    for x in a.elements(1)? {
        out.push(interp.call(&f, vec![(x, span)], a.span)?);
    }
    Ok(Value::list(out))
}

fn filter(interp: &mut Interpreter, a: &mut Args) -> R {
    let f = a.function(0)?;
    let span = a.span(1);
    let mut out = Vec::new();
    for x in a.elements(1)? {
        match interp.call(&f, vec![(x.clone(), span)], a.span)? {
            Value::Bool(true) => out.push(x),
            Value::Bool(false) => {}
            other => {
                return Err(EvalError::type_error(
                    "the result of the function given to `filter`",
                    "true or false",
                    other.type_name(),
                    a.span(0),
                ))
            }
        }
    }
    Ok(Value::list(out))
}

fn bools(a: &mut Args, all: bool) -> R {
    for x in a.elements(0)? {
        match x {
            Value::Bool(b) if b != all => return Ok(Value::Bool(!all)),
            Value::Bool(_) => {}
            other => {
                return Err(EvalError::type_error(
                    "each element",
                    "true or false",
                    other.type_name(),
                    a.span(0),
                ))
            }
        }
    }
    Ok(Value::Bool(all))
}
