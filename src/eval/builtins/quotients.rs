//! Builtins of misère quotients of heap games: `misere_quotient` (proved, see
//! `game::quotient`) and what a quotient answers about positions.

use std::rc::Rc;

use super::heap::code_arg;
use super::{Args, Builtin};
use crate::eval::{EvalError, Interpreter, Value};
use crate::game::quotient::{misere_quotient, MisereQuotient, QuotientError, QuotientLimits};

type R = Result<Value, EvalError>;

/// The largest heap bound `misere_quotient` takes.
const MAX_QUOTIENT_HEAP: i64 = 200;

fn quotient_of(interp: &mut Interpreter, a: &mut Args) -> R {
    let code = code_arg(interp, a, 0)?;
    let n = a.int_in(1, 1, MAX_QUOTIENT_HEAP, "the largest heap size")? as usize;
    let mut limits = QuotientLimits::default();
    if let Some((v, span)) = a.named("max_elements") {
        limits.max_elements = match v {
            Value::Int(k) => k.to_i64().filter(|k| (1..=1 << 20).contains(k)),
            _ => None,
        }
        .ok_or_else(|| {
            EvalError::new(
                "lg::eval::type",
                format!("max_elements must be an integer from 1 to 2^20, but this is {v}"),
                span,
                "not a size",
            )
        })? as usize;
    }
    let timeout = match a.named("timeout") {
        None => None,
        Some((v, span)) => Some(
            match v {
                Value::Int(k) => k.to_i64().filter(|k| *k > 0),
                _ => None,
            }
            .ok_or_else(|| {
                EvalError::new(
                    "lg::eval::type",
                    format!("timeout must be a positive whole number of seconds, but this is {v}"),
                    span,
                    "not a timeout",
                )
            })?,
        ),
    };
    let run = || misere_quotient(&code, n, limits);
    let result = match timeout {
        Some(secs) => crate::interrupt::with_deadline(
            std::time::Instant::now() + std::time::Duration::from_secs(secs as u64),
            run,
        ),
        None => run(),
    };
    result
        .map(|q| Value::Quotient(Rc::new(q)))
        .map_err(|e| {
            let (code_name, label, help) = match &e {
                QuotientError::Interrupted { .. } if !crate::interrupt::user_requested() => (
                    "lg::eval::timeout",
                    "out of time",
                    "give it more time (`timeout:`) or fewer heap sizes".to_string(),
                ),
                QuotientError::Interrupted { .. } => (
                    "lg::eval::interrupted",
                    "stopped here",
                    "ask for fewer heap sizes".to_string(),
                ),
                QuotientError::TooLarge { .. } => (
                    "lg::eval::too_large",
                    "too large",
                    "raise `max_elements:` or ask for fewer heap sizes; wild games have quotients that grow fast".to_string(),
                ),
                QuotientError::NotProved { .. } => (
                    "lg::eval::not_proved",
                    "not proved",
                    "no quotient is printed without a proof; ask for fewer heap sizes".to_string(),
                ),
            };
            EvalError::new(code_name, e.to_string(), a.span, label).with_help(help)
        })
}

fn quotient_arg(a: &Args, i: usize) -> Result<Rc<MisereQuotient>, EvalError> {
    match a.value(i) {
        Value::Quotient(q) => Ok(q.clone()),
        _ => Err(a.wrong(i, "a misère quotient (from `misere_quotient(code, n)`)")),
    }
}

/// The element of a position: a list of heap sizes, or a lattice point of
/// `octal(code, n, play: "misere")` (counts of the heaps of the sizes `heap_sizes(code, n)`).
pub(super) fn element_of(q: &MisereQuotient, a: &Args, i: usize) -> Result<u32, EvalError> {
    let bad = |what: String| {
        EvalError::new("lg::eval::position", what, a.span(i), "not a position of this game")
            .with_help(format!(
                "write a position as a list of heap sizes from 1 to {} (such as [3, 5, 5]) or as a lattice point of octal(\"{}\", {}, play: \"misere\") with {} coordinates",
                q.n,
                q.code,
                q.n,
                q.live.len()
            ))
    };
    match a.value(i) {
        Value::List(items) | Value::Tuple(items) | Value::Set(items) => {
            let mut heaps = Vec::with_capacity(items.len());
            for x in items.iter() {
                match x {
                    Value::Int(k) => match k.to_i64().filter(|k| (0..=q.n as i64).contains(k)) {
                        Some(k) => heaps.push(k as usize),
                        None => {
                            return Err(bad(format!("{k} is not a heap size from 0 to {}", q.n)))
                        }
                    },
                    other => {
                        return Err(bad(format!(
                            "a heap size must be an integer, but this list holds {other}"
                        )))
                    }
                }
            }
            q.image(&heaps)
                .ok_or_else(|| bad("a heap is larger than the quotient's bound".into()))
        }
        Value::Vector(v) => {
            let counts: Option<Vec<i64>> = v.0.iter().map(|x| x.to_i64()).collect();
            counts.and_then(|c| q.image_of_counts(&c)).ok_or_else(|| {
                bad(format!(
                    "{v} is not a point of N^{} (counts of the heap sizes with a move)",
                    q.live.len()
                ))
            })
        }
        other => Err(bad(format!(
            "a position is a list of heap sizes or a lattice point, but this is {other}"
        ))),
    }
}

fn element(_: &mut Interpreter, a: &mut Args) -> R {
    let q = quotient_arg(a, 0)?;
    let x = element_of(&q, a, 1)?;
    Ok(Value::str(&q.word(x)))
}

fn order(_: &mut Interpreter, a: &mut Args) -> R {
    Ok(Value::int(quotient_arg(a, 0)?.order() as i64))
}

fn p_portion(_: &mut Interpreter, a: &mut Args) -> R {
    let q = quotient_arg(a, 0)?;
    Ok(Value::list(
        q.p_words().iter().map(|w| Value::str(w)).collect(),
    ))
}

fn presentation(_: &mut Interpreter, a: &mut Args) -> R {
    let q = quotient_arg(a, 0)?;
    Ok(Value::str(&q.monoid.presentation(&q.names())))
}

fn heap_images(_: &mut Interpreter, a: &mut Args) -> R {
    let q = quotient_arg(a, 0)?;
    Ok(Value::list(
        (0..=q.n).map(|h| Value::str(&q.word(q.heaps[h]))).collect(),
    ))
}

/// `outcome(Q, position)`: P exactly when the position's element lies in the P-portion.
pub(super) fn outcome_in_quotient(q: &MisereQuotient, a: &Args) -> R {
    let x = element_of(q, a, 1)?;
    Ok(Value::str(if q.p_portion[x as usize] { "P" } else { "N" }))
}

fn stratification(_: &mut Interpreter, a: &mut Args) -> R {
    let q = quotient_arg(a, 0)?;
    const MAX_TYPES: usize = 2_000_000;
    match q.stratification(MAX_TYPES) {
        Some(Ok(s)) => Ok(Value::Stratification(Rc::new(s))),
        Some(Err(e)) => Err(EvalError::new("lg::eval::algebra", e.to_string(), a.span, "no stratification")),
        None => Err(EvalError::new(
            "lg::eval::too_large",
            format!("the counts of the {} heap sizes fall into more than {MAX_TYPES} types, one module offset each at most", q.live.len()),
            a.span,
            "too many types",
        )
        .with_help("ask for the quotient of fewer heap sizes")),
    }
}

fn congruent_in(_: &mut Interpreter, a: &mut Args) -> R {
    let q = quotient_arg(a, 0)?;
    Ok(Value::Bool(element_of(&q, a, 1)? == element_of(&q, a, 2)?))
}

pub(super) fn register(r: &mut Vec<Builtin>) {
    r.push(Builtin {
        name: "misere_quotient",
        signature: "misere_quotient(code, n, timeout: seconds, max_elements: k) -> quotient",
        doc: "The misère quotient of a take-and-break code with heaps of size at most n (Plambeck–Siegel):\n\
              the monoid of positions up to indistinguishability, its P-portion and the image of each heap.\n\
              A candidate is found from outcomes against small positions and printed only after its proof\n\
              (the finite checks that P-positions have no option in P and the others have one).",
        example: "misere_quotient(\"0.[3]\", 3)",
        min_args: 2,
        max_args: Some(2),
        named: &["timeout", "max_elements"],
        func: quotient_of,
    });
    r.push(Builtin {
        name: "quotient_element",
        signature: "quotient_element(Q, position) -> string",
        doc: "The element of a position (a list of heap sizes, or a lattice point of octal(code, n, play: \"misere\"))\n\
              in the quotient, as a word in its generators.",
        example: "quotient_element(misere_quotient(\"0.[3]\", 3), [1, 2, 3])",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: element,
    });
    r.push(Builtin {
        name: "quotient_order",
        signature: "quotient_order(Q) -> integer",
        doc: "|Q|, the number of elements of a misère quotient.",
        example: "quotient_order(misere_quotient(\"0.[3]\", 3))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: order,
    });
    r.push(Builtin {
        name: "p_portion",
        signature: "p_portion(Q) -> list",
        doc: "The P-portion of a misère quotient, as words in its generators.",
        example: "p_portion(misere_quotient(\"0.[3]\", 3))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: p_portion,
    });
    r.push(Builtin {
        name: "presentation",
        signature: "presentation(Q) -> string",
        doc: "The presentation ⟨generators | relations⟩ of a misère quotient.",
        example: "presentation(misere_quotient(\"0.[3]\", 3))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: presentation,
    });
    r.push(Builtin {
        name: "heap_images",
        signature: "heap_images(Q) -> list",
        doc: "Φ(0), Φ(1), …, Φ(n): the element of each single heap, as words in the generators.",
        example: "heap_images(misere_quotient(\"0.[3]\", 3))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: heap_images,
    });
    r.push(Builtin {
        name: "quotient_stratification",
        signature: "quotient_stratification(Q) -> stratification",
        doc: "The affine stratification of the P-positions of octal(code, n, play: \"misere\") read off a finite\n\
              quotient (Miller, arXiv 1009.2199): each count matters only through where it falls in the\n\
              eventually periodic powers of its heap's element, so the P-positions are points plus\n\
              multiples of the periods along the periodic axes. `verify` certifies it on the game.",
        example: "quotient_stratification(misere_quotient(\"0.[3]\", 2))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: stratification,
    });
    r.push(Builtin {
        name: "quotient_congruent",
        signature: "quotient_congruent(Q, p, q) -> boolean",
        doc: "Whether two positions are indistinguishable in misère play (equal elements of the quotient).",
        example: "quotient_congruent(misere_quotient(\"0.[3]\", 3), [1, 1], [])",
        min_args: 3,
        max_args: Some(3),
        named: &[],
        func: congruent_in,
    });
}
