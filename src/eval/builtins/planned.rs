//! Builtins whose names are fixed now so that scripts stay stable, for capabilities that grow
//! with the algebra engine, the solver, the set algebra and stratify/verify. Where a case is already
//! decidable (finite sets, cones given by inequalities) it works; otherwise the call is a clear
//! diagnostic saying what is not available yet, never a wrong answer.

use super::{Args, Builtin};
use crate::eval::value::Value;
use crate::eval::{EvalError, Interpreter};

type R = Result<Value, EvalError>;

/// What each planned builtin will do, and which part of the project brings it.
const PLANNED: &[(&str, &str, &str, &str, &str)] = &[
    ("stratify", "stratify(game) -> stratification", "Finds an affine stratification of the P-positions and certifies it.", "stratify(G)", "stratify and verify"),
    ("verify", "verify(game, S) -> report", "Decides whether S is exactly the set of P-positions, with a counterexample when not.", "verify(G, 2N^2)", "stratify and verify"),
    ("genfunc", "genfunc(x) -> rational function", "The rational generating function of a semigroup, module, stratification or solved game ([GM11] Theorem 5.1).", "genfunc(2N^2)", "the set algebra and generating functions"),
    ("hadamard", "hadamard(f, g) -> rational function", "The Hadamard product of two rational generating functions ([GM11] Lemma 3.5).", "hadamard(genfunc(2N^2), genfunc(N^2))", "the set algebra and generating functions"),
    ("congruent", "congruent(x, p, q) -> boolean or witness", "Misère congruence of two positions ([GM11] Definition 6.1).", "congruent(G, (1, 0), (3, 0))", "the set algebra and generating functions"),
    ("complement", "complement(S) -> set", "The complement of a stratified set within the board or within Λ ([GM11] Theorem 4.2).", "complement(2N^2)", "the set algebra and generating functions"),
    ("series", "series(f, degree) -> polynomial", "The truncated expansion of a rational generating function.", "series(genfunc(2N^2), 6)", "the set algebra and generating functions"),
    ("latex", "latex(x) -> string", "LaTeX for a rational function or a stratification, in the papers' notation.", "latex(genfunc(2N^2))", "the set algebra and generating functions"),
    ("complexity", "complexity(x) -> integer", "The input complexity of a game, rational function, semigroup or stratification ([GM11] Definitions 2.4, 3.3, 4.8, 4.9).", "complexity(2N^2)", "the set algebra and generating functions"),
];

fn not_yet(_: &mut Interpreter, a: &mut Args) -> R {
    let (_, _, _, _, part) = PLANNED
        .iter()
        .find(|p| p.0 == a.builtin.name)
        .expect("registered from the table");
    Err(EvalError::new(
        "lg::eval::not_available",
        format!(
            "`{}` is not available in this version of lattice-games",
            a.builtin.name
        ),
        a.span,
        "not available yet",
    )
    .with_help(format!(
        "`{}` is part of {part}, which is still being built; `:help {}` says what it will do",
        a.builtin.name, a.builtin.name
    )))
}

pub(super) fn register(r: &mut Vec<Builtin>) {
    r.push(Builtin {
        name: "contains",
        signature: "contains(S, p) -> boolean",
        doc: "Whether p lies in S (the same as `p in S`). Works now for finite sets, lists, tuples,\n\
              strings, matrices (their columns), rule sets (their moves), cones given as orthants or by\n\
              inequalities, and polyhedra {x : Ax ≥ b}. Semigroups, modules and stratifications need\n\
              exact lattice-point algebra, which is not available in this version.",
        example: "contains(halfspaces([1 0; -1 2]), (2, 1))",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: |_, a| super::contains(a.value(0), a.value(1), a.span(0), a.span(1)).map(Value::Bool),
    });
    r.push(Builtin {
        name: "members",
        signature: "members(S, region) -> list",
        doc: "The elements of S lying in a region, in canonical order. Works now for finite sets and\n\
              lists, with the region a finite set or a cone or polyhedron tested point by point; infinite\n\
              sets (semigroups, modules, stratifications) need the set algebra.",
        example: "members({(0, 0), (1, 2), (3, -1)}, orthant(2))",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: members,
    });
    r.push(Builtin {
        name: "intersect",
        signature: "intersect(S, T) -> set",
        doc: "The intersection S ∩ T (the same as `S ∩ T`). Works now for finite sets; for stratified\n\
              sets it needs the set algebra.",
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
    for (name, signature, doc, example, _) in PLANNED {
        r.push(Builtin {
            name,
            signature,
            doc,
            example,
            min_args: 0,
            max_args: None,
            named: &[
                "region",
                "axes",
                "fix",
                "certify",
                "max_weight",
                "timeout",
                "within",
                "variables",
            ],
            func: not_yet,
        });
    }
}

fn members(_: &mut Interpreter, a: &mut Args) -> R {
    let items = match a.value(0) {
        Value::Set(v) | Value::List(v) => v.to_vec(),
        Value::Semigroup(_) | Value::Module(_) | Value::Stratification(_) => {
            return Err(EvalError::new(
                "lg::eval::not_available",
                "listing the members of an infinite set needs the set algebra of stratified sets, which this version does not have yet",
                a.span(0),
                "an infinite set",
            ))
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
