//! `verify(G, S)`: certifying a candidate set of P-positions on the whole board ([GM09] Theorem
//! 4.6, decided with the set algebra by `game::verify`), and reading its verdict; `stratify(G)`:
//! searching for a stratification of the P-positions and certifying it (`game::stratify`).

use std::rc::Rc;

use num_traits::One;

use super::sets::{same_dim, to_set_in};
use super::solve::{game_arg, solve_error};
use super::{Args, Builtin};
use crate::algebra::StratifiedSet;
use crate::eval::value::Value;
use crate::eval::{EvalError, Interpreter};
use crate::game::stratify::{self, Stratified, StratifyOptions};
use crate::game::verify::{self, Verification};

type R = Result<Value, EvalError>;

/// The set a rational strategy counts: the union of its atoms, which must all have coefficient 1.
fn genfunc_set(a: &Args, i: usize, dim: usize) -> Result<StratifiedSet, EvalError> {
    let Value::Genfunc(g) = a.value(i) else {
        return to_set_in(a.value(i), a.span(i), Some(dim));
    };
    let atoms =
        g.f.atoms()
            .map_err(|e| super::objects::algebra_error(e, a.span(i)))?;
    let mut pieces = Vec::new();
    for (set, c) in &atoms {
        if !c.is_one() {
            let p = set.find_point().ok().flatten();
            return Err(EvalError::new(
                "lg::eval::value",
                format!(
                    "this rational function is not the generating function of a set: the coefficient of t^{} is {c}",
                    p.map_or("p".to_string(), |p| p.to_string())
                ),
                a.span(i),
                "not a set's generating function",
            )
            .with_help("a strategy's generating function has every coefficient 0 or 1"));
        }
        let set_pieces = set
            .pieces()
            .map_err(|e| super::objects::algebra_error(e, a.span(i)))?;
        pieces.extend(set_pieces.iter().cloned());
    }
    // The atoms are disjoint.
    StratifiedSet::from_disjoint(g.f.dim(), pieces)
        .map_err(|e| super::objects::algebra_error(e, a.span(i)))
}

fn verify_builtin(_: &mut Interpreter, a: &mut Args) -> R {
    let g = game_arg(a, 0)?;
    let s = genfunc_set(a, 1, g.dim())?;
    same_dim(
        "the candidate set and the game",
        g.dim(),
        s.dim(),
        a.span(1),
    )?;
    let timeout = a.timeout()?;
    super::within_timeout(timeout, a.span, || {
        let mut spinner = crate::eval::progress::Spinner::new();
        let v =
            verify::verify_reporting(&g, &s, &mut |m| spinner.update(|| format!("verify: {m}")))
                .map_err(|e| solve_error(e, a.span))?;
        Ok(Value::Verification(Rc::new(v)))
    })
}

fn stratify_builtin(_: &mut Interpreter, a: &mut Args) -> R {
    let g = game_arg(a, 0)?;
    let mut options = StratifyOptions::default();
    if let Some(w) = a.named_int_in("max_weight", 1, 1 << 20, "an integer from 1 to 2^20")? {
        options.max_weight = Some(w);
    }
    if let Some(secs) = a.timeout()? {
        options.timeout = Some(std::time::Duration::from_secs(secs));
    }
    if let Some((v, span)) = a.named("certify") {
        options.certify = match v {
            Value::Bool(b) => *b,
            _ => {
                return Err(EvalError::type_error(
                    "certify",
                    "true or false",
                    v.type_name(),
                    span,
                ))
            }
        };
    }
    // Live progress on a terminal (after the first second): one redrawn line with the phase,
    // the solve's percentage and the time elapsed, whose clock runs through long phases.
    let mut spinner = crate::eval::progress::Spinner::new();
    let mut progress = |m: &str| spinner.update(|| format!("stratify: {m}"));
    let result = stratify::stratify(&g, &options, &mut progress);
    drop(spinner);
    match result.map_err(|e| solve_error(e, a.span))? {
        Stratified::Found {
            stratification,
            certified: true,
            ..
        } => Ok(Value::Stratification(Rc::new(stratification))),
        // A candidate is never shown as certified: it comes labelled.
        Stratified::Found {
            stratification,
            method,
            ..
        } => Ok(Value::Tuple(Rc::new(vec![
            Value::Stratification(Rc::new(stratification)),
            Value::Str(format!("candidate, not verified: {method}").into()),
        ]))),
        Stratified::NotFound { .. } if a.named("otherwise").is_some() => {
            Ok(a.named("otherwise").map(|(v, _)| v.clone()).unwrap_or(Value::Nothing))
        }
        Stratified::NotFound { tried, .. } => Err(EvalError::new(
            "lg::eval::stratify",
            "no certified stratification was found within the limits",
            a.span,
            "nothing found",
        )
        .with_help(format!(
            "tried:\n  {}\nraise `max_weight:` or `timeout:`, declare a stratification and check it with `verify`, or give `otherwise: ()` to go on without one",
            tried.join("\n  ")
        ))),
    }
}

fn as_verification(a: &Args, i: usize) -> Result<Rc<Verification>, EvalError> {
    match a.value(i) {
        Value::Verification(v) => Ok(v.clone()),
        _ => Err(a.wrong(i, "the result of `verify`")),
    }
}

fn certified(_: &mut Interpreter, a: &mut Args) -> R {
    Ok(Value::Bool(as_verification(a, 0)?.is_certified()))
}

fn counterexample(_: &mut Interpreter, a: &mut Args) -> R {
    Ok(match as_verification(a, 0)?.counterexample() {
        Some(c) => Value::Vector(Rc::new(c.position.clone())),
        None => Value::Nothing,
    })
}

pub(super) fn register(r: &mut Vec<Builtin>) {
    r.push(Builtin {
        name: "verify",
        signature: "verify(game, S, timeout: seconds) -> verification",
        doc: "Decides whether S (a set, stratification or rational strategy) is exactly the set of P-positions of\n\
              the game, on the whole board: S lies on the board, no move leads from S into S, and every other\n\
              position has a move into S ([GM09] Theorem 4.6). When S is wrong, the verdict names the smallest\n\
              failing position under the game's weight, the condition it breaks and its true outcome.\n\
              `assert verify(G, S)` fails with that explanation; see also `certified` and `counterexample`.\n\
              With `timeout:` (seconds) it stops with an out-of-time error when the time runs out.",
        example: "verify(game(nim(2), normal_play(nim(2))), 2N^2)",
        min_args: 2,
        max_args: Some(2),
        named: &["timeout"],
        func: verify_builtin,
    });
    r.push(Builtin {
        name: "stratify",
        signature: "stratify(game, max_weight: n, timeout: seconds, otherwise: v, certify: b) -> stratification",
        doc: "Searches for an affine stratification of the P-positions and returns it only once `verify` has\n\
              certified it on the whole board: the squarefree theorem (P0 + 2N^d), eventual periods along the\n\
              axes, covers by pieces b + N{small periods}, and (d ≤ 4) periodic patterns (modulo 2, or the moduli\n\
              the region suggests) that change across parallel hyperplanes, guessed from the positions of growing weight\n\
              and refined by each counterexample. The regions grow until the time limit (`timeout:`, default 60 s,\n\
              or the enclosing `attempt`'s); `max_weight:` caps them only when given. When nothing is certified,\n\
              the error lists what was tried, the limit that stopped it and what the last region showed (a line\n\
              p + N·v whose P-positions have no period yet, or else the line that turned periodic latest: a\n\
              boundary between patterns moving out with the region); with `otherwise: v`, v is returned instead.\n\
              With `certify: false` the first guess consistent with the solved positions is returned unverified,\n\
              labelled: the tuple (S, \"candidate, not verified: how it was guessed\"); check it with `verify(G, S)`.",
        example: "stratify(game(nim(2), misere(nim(2))))",
        min_args: 1,
        max_args: Some(1),
        named: &["max_weight", "timeout", "otherwise", "certify"],
        func: stratify_builtin,
    });
    r.push(Builtin {
        name: "certified",
        signature: "certified(v) -> boolean",
        doc: "Whether a verdict of `verify` certified its set.",
        example: "certified(verify(game(nim(2), normal_play(nim(2))), 2N^2))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: certified,
    });
    r.push(Builtin {
        name: "counterexample",
        signature: "counterexample(v) -> vector or ()",
        doc: "The smallest failing position found by `verify`, or () when the set was certified.",
        example: "counterexample(verify(game(nim(2), normal_play(nim(2))), N^2))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: counterexample,
    });
}
