//! Membership, members and intersection for every kind of set the language holds: finite sets,
//! lists and the like directly, infinite sets (semigroups, modules, stratifications, cones,
//! polyhedra) exactly through the set algebra.

use super::{Args, Builtin};
use crate::algebra::{Integer, Vector};
use crate::eval::value::Value;
use crate::eval::{EvalError, Interpreter};

type R = Result<Value, EvalError>;

pub(super) fn register(r: &mut Vec<Builtin>) {
    r.push(Builtin {
        name: "contains",
        signature: "contains(S, p) -> boolean",
        doc: "Whether p lies in S (the same as `p in S`): finite sets, lists, tuples, strings, matrices (their\n\
              columns), rule sets (their moves), cones, polyhedra, and, decided exactly, semigroups, modules,\n\
              stratifications and rational strategies (the coefficient of t^p is 1).",
        example: "contains(halfspaces([1 0; -1 2]), (2, 1))",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: |_, a| super::contains(a.value(0), a.value(1), a.span(0), a.span(1)).map(Value::Bool),
    });
    r.push(Builtin {
        name: "members",
        signature: "members(S, region) -> list",
        doc: "The elements of S lying in a region, in canonical order. For finite sets and lists the region is\n\
              a finite set or a cone or polyhedron tested point by point. For infinite sets (semigroups,\n\
              modules, stratifications, rational functions' supports) the region is a box `(lo, hi)`, an\n\
              integer n (the points x ≥ 0 with x_1 + ... + x_d ≤ n), or a finite set.",
        example: "members({(0, 0), (1, 2), (3, -1)}, orthant(2))",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: members,
    });
    r.push(Builtin {
        name: "intersect",
        signature: "intersect(S, T) -> set",
        doc: "The intersection S ∩ T (the same as `S ∩ T`), of finite sets or, exactly, of semigroups,\n\
              modules, stratifications, cones and polyhedra (their lattice points).",
        example: "intersect({(0, 0), (1, 2)}, {(1, 2), (2, 1)})",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: |_, a| {
            crate::eval::ops::binary(
                crate::syntax::ast::BinaryOp::Intersect,
                a.value(0).clone(),
                a.value(1).clone(),
                a.span(0),
                a.span(1),
            )
        },
    });
}

fn members(_: &mut Interpreter, a: &mut Args) -> R {
    let items = match a.value(0) {
        Value::Set(v) | Value::List(v) => v.to_vec(),
        v if super::sets::is_set_like(v) || matches!(v, Value::Genfunc(_)) => {
            return infinite_members(a);
        }
        _ => return Err(a.wrong(0, "a finite set or list")),
    };
    let mut out = Vec::new();
    for x in items {
        if super::contains(a.value(1), &x, a.span(1), a.span(0))? {
            out.push(x);
        }
    }
    out.sort();
    out.dedup();
    Ok(Value::list(out))
}

/// `members(S, region)` for an infinite set: its points in a box, a weight bound or a finite set.
fn infinite_members(a: &Args) -> R {
    let test = |x: &Vector| -> Result<bool, EvalError> {
        super::contains(a.value(0), &Value::vector(x.clone()), a.span(0), a.span(1))
    };
    let d = match a.value(0) {
        Value::Genfunc(g) => g.f.dim(),
        v => super::sets::to_set(v, a.span(0))?.dim(),
    };
    let (lo, hi, weight): (Vec<i64>, Vec<i64>, Option<i64>) = match a.value(1) {
        Value::Int(n) => {
            let n = n
                .to_i64()
                .filter(|n| (0..=1_000_000).contains(n))
                .ok_or_else(|| a.wrong(1, "a weight bound between 0 and 10^6"))?;
            (vec![0; d], vec![n; d], Some(n))
        }
        Value::Tuple(t) if t.len() == 2 => {
            let ends: Option<Vec<Vec<i64>>> = t
                .iter()
                .map(|e| match e {
                    Value::Vector(v) if v.dim() == d => v.0.iter().map(Integer::to_i64).collect(),
                    _ => None,
                })
                .collect();
            let ends =
                ends.ok_or_else(|| a.wrong(1, &format!("a box (lo, hi) of two vectors in Z^{d}")))?;
            (ends[0].clone(), ends[1].clone(), None)
        }
        Value::Set(items) | Value::List(items) => {
            let mut out = Vec::new();
            for x in items.iter() {
                if let Value::Vector(v) = x {
                    if v.dim() == d && test(v)? {
                        out.push(x.clone());
                    }
                }
            }
            out.sort();
            out.dedup();
            return Ok(Value::list(out));
        }
        _ => return Err(a.wrong(1, "a box (lo, hi), a weight bound n, or a finite set")),
    };
    let set = match a.value(0) {
        Value::Genfunc(_) => None,
        v => Some(super::sets::to_set(v, a.span(0))?),
    };
    let mut out = Vec::new();
    let points = match &set {
        Some(s) => s
            .members_in_box(&lo, &hi)
            .map_err(|e| super::objects::algebra_error(e, a.span(1)))?,
        None => crate::algebra::StratifiedSet::whole(d)
            .members_in_box(&lo, &hi)
            .map_err(|e| super::objects::algebra_error(e, a.span(1)))?,
    };
    for x in points {
        if weight.is_some_and(|n| x.0.iter().filter_map(Integer::to_i64).sum::<i64>() > n) {
            continue;
        }
        if set.is_none() && !test(&x)? {
            continue;
        }
        out.push(Value::vector(x));
    }
    Ok(Value::list(out))
}
