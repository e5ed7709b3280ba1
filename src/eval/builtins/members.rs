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

/// The region of `members(S, region)` for a set of points in Z^d.
enum Region {
    /// The box lo ≤ x ≤ hi, cut by x_1 + ... + x_d ≤ n when `weight` is n.
    Box {
        lo: Vec<i64>,
        hi: Vec<i64>,
        weight: Option<i64>,
    },
    /// Finitely many candidate points.
    Points(Vec<Value>),
}

/// Reads a region for points of Z^d: a box `(lo, hi)`, a weight bound n, or a finite set or list.
fn region(a: &Args, d: usize) -> Result<Region, EvalError> {
    match a.value(1) {
        Value::Int(n) => {
            let n = n
                .to_i64()
                .filter(|n| (0..=1_000_000).contains(n))
                .ok_or_else(|| a.wrong(1, "a weight bound between 0 and 10^6"))?;
            Ok(Region::Box {
                lo: vec![0; d],
                hi: vec![n; d],
                weight: Some(n),
            })
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
            if let Some(i) = (0..d).find(|&i| ends[0][i] > ends[1][i]) {
                let (lo, hi): (Vec<i64>, Vec<i64>) = (0..d)
                    .map(|j| (ends[0][j].min(ends[1][j]), ends[0][j].max(ends[1][j])))
                    .unzip();
                return Err(EvalError::new(
                    "lg::eval::value",
                    format!(
                        "the box's corners are reversed in coordinate {}: {} > {}, so it holds no point",
                        i + 1,
                        ends[0][i],
                        ends[1][i]
                    ),
                    a.span(1),
                    "lower corner first",
                )
                .with_help(format!(
                    "give the lower corner first: ({}, {})",
                    Vector::from_i64s(&lo),
                    Vector::from_i64s(&hi)
                )));
            }
            Ok(Region::Box {
                lo: ends[0].clone(),
                hi: ends[1].clone(),
                weight: None,
            })
        }
        Value::Set(items) | Value::List(items) => Ok(Region::Points(items.to_vec())),
        _ => Err(a.wrong(1, "a box (lo, hi), a weight bound n, or a finite set")),
    }
}

/// Whether x lies in the box region (always true for a list of points).
fn in_box(region: &Region, x: &Vector) -> bool {
    match region {
        Region::Box { lo, hi, weight } => {
            let Some(xs) =
                x.0.iter()
                    .map(Integer::to_i64)
                    .collect::<Option<Vec<i64>>>()
            else {
                return false;
            };
            xs.len() == lo.len()
                && xs
                    .iter()
                    .zip(lo)
                    .zip(hi)
                    .all(|((x, l), h)| l <= x && x <= h)
                && weight.is_none_or(|n| xs.iter().sum::<i64>() <= n)
        }
        Region::Points(_) => true,
    }
}

fn members(_: &mut Interpreter, a: &mut Args) -> R {
    let items = match a.value(0) {
        Value::Set(v) | Value::List(v) => v.to_vec(),
        v if super::sets::is_set_like(v)
            || matches!(
                v,
                Value::Genfunc(_) | Value::ShortGenfunc(_) | Value::Cone(_) | Value::Polyhedron(_)
            ) =>
        {
            return infinite_members(a);
        }
        _ => return Err(a.wrong(0, "a finite set or list, or a set of lattice points")),
    };
    // A finite collection of points in a box or under a weight bound: filter its points.
    let dim = items.iter().find_map(|x| match x {
        Value::Vector(v) => Some(v.dim()),
        _ => None,
    });
    let boxed = matches!(a.value(1), Value::Int(_))
        || matches!(a.value(1), Value::Tuple(t) if t.len() == 2 && t.iter().all(|e| matches!(e, Value::Vector(_))));
    let mut out = Vec::new();
    if boxed {
        let Some(d) = dim else {
            return Ok(Value::list(Vec::new()));
        };
        let region = region(a, d)?;
        for x in items {
            if let Value::Vector(v) = &x {
                if in_box(&region, v) {
                    out.push(x);
                }
            }
        }
    } else {
        for x in items {
            if super::contains(a.value(1), &x, a.span(1), a.span(0))? {
                out.push(x);
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(Value::list(out))
}

/// `members(S, region)` for an infinite set: its points in a box, a weight bound or a finite set.
/// Only the box is walked, and only the pieces of S that meet it are tested.
fn infinite_members(a: &Args) -> R {
    let set = match a.value(0) {
        Value::Genfunc(_) | Value::ShortGenfunc(_) => None,
        v => Some(super::sets::to_set(v, a.span(0))?),
    };
    let d = match (a.value(0), &set) {
        (Value::Genfunc(g), _) => g.f.dim(),
        (Value::ShortGenfunc(g), _) => g.f.dim(),
        (_, Some(s)) => s.dim(),
        _ => unreachable!("a set unless a rational function"),
    };
    let test = |x: &Vector| -> Result<bool, EvalError> {
        super::contains(a.value(0), &Value::vector(x.clone()), a.span(0), a.span(1))
    };
    let region = region(a, d)?;
    let Region::Box { lo, hi, .. } = &region else {
        let Region::Points(items) = region else {
            unreachable!("not a box")
        };
        let mut out = Vec::new();
        for x in items {
            if let Value::Vector(v) = &x {
                let inside = match &set {
                    Some(s) => v.dim() == d && s.contains(v),
                    None => v.dim() == d && test(v)?,
                };
                if inside {
                    out.push(x);
                }
            }
        }
        out.sort();
        out.dedup();
        return Ok(Value::list(out));
    };
    if let Region::Box {
        weight: Some(n), ..
    } = &region
    {
        // The points of N^d of weight ≤ n number C(n + d, d).
        let count = (1..=d as u64).try_fold(1u128, |acc, k| {
            acc.checked_mul(u128::from(*n as u64) + u128::from(k))
                .map(|x| x / u128::from(k))
        });
        // Each point is listed twice on the way (a vector, then a value holding it), with the
        // box walk's own tables: about 500 bytes a point in N^3, as measured.
        let per_point = (2 * d * std::mem::size_of::<crate::algebra::Integer>() + 416) as u128;
        let need = count.map_or(u64::MAX, |c| {
            u64::try_from(c.saturating_mul(per_point)).unwrap_or(u64::MAX)
        });
        let shown = count.map_or_else(|| "more than 2^128".to_string(), |c| c.to_string());
        crate::memory::check(need, || {
            format!("the {shown} points of N^{d} of weight at most {n}")
        })
        .map_err(|e| {
            let mut e = EvalError::out_of_memory(e, a.span(1));
            e.label = "this weight bound".into();
            e.with_help("give a smaller weight bound, a box `(lo, hi)`, or raise the budget with `set_limits(max_memory: \"8G\")`")
        })?;
    }
    let err = |e| super::objects::algebra_error(e, a.span(1));
    let points = match &set {
        Some(s) => s.members_in_box(lo, hi).map_err(err)?,
        None => {
            let mut out = Vec::new();
            for x in crate::algebra::StratifiedSet::whole(d)
                .members_in_box(lo, hi)
                .map_err(err)?
            {
                if test(&x)? {
                    out.push(x);
                }
            }
            out
        }
    };
    Ok(Value::list(
        points
            .into_iter()
            .filter(|x| in_box(&region, x))
            .map(Value::vector)
            .collect(),
    ))
}
