//! Builtins about the values of heap games: `periodicity` (proved by the octal periodicity
//! theorem where it applies) and its parts, the nim-sum and the mex, and subtraction-game codes.

use std::rc::Rc;

use super::heap::{code_arg, code_values, MAX_GRUNDY_HEAP};
use super::{Args, Builtin};
use crate::algebra::Integer;
use crate::eval::{EvalError, Interpreter, Value};
use crate::game::periodicity::{periodicity, Periodicity};

type R = Result<Value, EvalError>;

fn periodicity_of(interp: &mut Interpreter, a: &mut Args) -> R {
    let code = code_arg(interp, a, 0)?;
    let n = a.int_in(1, 1, MAX_GRUNDY_HEAP, "the largest heap size")? as usize;
    let g = code_values(&code, n, a.span)?;
    Ok(Value::Periodicity(Rc::new(periodicity(&code, &g))))
}

fn periodicity_arg(a: &Args) -> Result<Rc<Periodicity>, EvalError> {
    match a.value(0) {
        Value::Periodicity(p) => Ok(p.clone()),
        _ => Err(a.wrong(0, "what `periodicity(code, n)` returned")),
    }
}

/// (preperiod, period, saltus) of a found period; `None` when none was found.
fn parts(p: &Periodicity) -> Option<(usize, usize, i64)> {
    match *p {
        Periodicity::Proved {
            preperiod, period, ..
        } => Some((preperiod, period, 0)),
        Periodicity::ProvedArithmetic {
            preperiod,
            period,
            saltus,
            ..
        }
        | Periodicity::Apparent {
            preperiod,
            period,
            saltus,
            ..
        } => Some((preperiod, period, saltus)),
        Periodicity::NotFound { .. } => None,
    }
}

fn part(a: &Args, pick: fn((usize, usize, i64)) -> i64) -> R {
    let p = periodicity_arg(a)?;
    parts(&p).map(|x| Value::int(pick(x))).ok_or_else(|| {
        EvalError::new(
            "lg::eval::value",
            format!("no period was found: {p}"),
            a.span(0),
            "no period",
        )
        .with_help(
            "compute more values, e.g. `periodicity(code, 10 * n)`, or test `is_periodic(x)` first",
        )
    })
}

fn preperiod(_: &mut Interpreter, a: &mut Args) -> R {
    part(a, |(n0, _, _)| n0 as i64)
}

fn period(_: &mut Interpreter, a: &mut Args) -> R {
    part(a, |(_, p, _)| p as i64)
}

fn saltus(_: &mut Interpreter, a: &mut Args) -> R {
    part(a, |(_, _, s)| s)
}

fn is_proved(_: &mut Interpreter, a: &mut Args) -> R {
    Ok(Value::Bool(periodicity_arg(a)?.is_proved()))
}

fn is_periodic(_: &mut Interpreter, a: &mut Args) -> R {
    let p = periodicity_arg(a)?;
    Ok(Value::Bool(parts(&p).is_some()))
}

/// The nonnegative integers of the arguments, or of one list argument.
fn naturals(a: &Args, what: &str) -> Result<Vec<Integer>, EvalError> {
    let items: Vec<(Value, crate::syntax::Span)> = match (a.len(), a.value(0)) {
        (1, Value::List(xs) | Value::Set(xs) | Value::Tuple(xs)) => {
            xs.iter().map(|x| (x.clone(), a.span(0))).collect()
        }
        _ => a.values().cloned().collect(),
    };
    items
        .into_iter()
        .map(|(v, span)| match v {
            Value::Int(k) if k.signum() >= 0 => Ok(k),
            other => Err(EvalError::type_error(
                what,
                "a nonnegative integer (a nim value)",
                other.type_name(),
                span,
            )),
        })
        .collect()
}

fn nim_sum(_: &mut Interpreter, a: &mut Args) -> R {
    let xs = naturals(a, "each term of a nim-sum")?;
    let sum = xs
        .iter()
        .fold(num_bigint::BigInt::from(0), |acc, x| acc ^ x.to_bigint());
    Ok(Value::Int(Integer::from(sum)))
}

fn mex(_: &mut Interpreter, a: &mut Args) -> R {
    let mut xs: Vec<Integer> = naturals(a, "each value of a mex")?;
    xs.sort();
    xs.dedup();
    let mut m = Integer::ZERO;
    for x in xs {
        if x != m {
            break;
        }
        m = &m + &Integer::ONE;
    }
    Ok(Value::Int(m))
}

/// The code of the subtraction game with set S: digit 3 at each j ∈ S (or, with `all_but`, at
/// each j ∉ S, the tail repeating), as CGSuite's `FromSubtractionSet` writes it.
fn subtraction(_: &mut Interpreter, a: &mut Args) -> R {
    let all_but = match a.named("all_but") {
        None => false,
        Some((Value::Bool(b), _)) => *b,
        Some((_, span)) => {
            return Err(EvalError::new(
                "lg::eval::value",
                "all_but is true or false",
                span,
                "not true or false",
            ))
        }
    };
    let set = naturals(a, "each element of a subtraction set")?;
    let mut js: Vec<usize> = Vec::with_capacity(set.len());
    for x in &set {
        match x.to_i64().filter(|&j| (1..=10_000).contains(&j)) {
            Some(j) => js.push(j as usize),
            None => {
                return Err(EvalError::new(
                    "lg::eval::value",
                    format!("{x} tokens cannot be a subtraction: elements are from 1 to 10000"),
                    a.span(0),
                    "out of range",
                ))
            }
        }
    }
    if js.is_empty() && !all_but {
        return Err(EvalError::new(
            "lg::eval::value",
            "the empty subtraction set has no moves",
            a.span(0),
            "empty",
        ));
    }
    let top = js.iter().copied().max().unwrap_or(0);
    let mut code = String::from("0.");
    for j in 1..=top {
        code.push(if js.contains(&j) != all_but { '3' } else { '0' });
    }
    if all_but {
        code.push_str("[3]");
    }
    Ok(Value::Str(code.into()))
}

/// The memory `misere_grundy` and `genus` may fill with canonical forms and sums: a quarter of
/// the solver's budget, at most 4 GiB.
fn misere_forms_budget() -> usize {
    (crate::memory::budget() / 4).min(4 << 30) as usize
}

/// The largest heap `misere_grundy` and `genus` accept: the positions below a heap are sums of
/// smaller heaps, whose number grows like the partitions of n.
const MAX_MISERE_HEAP: i64 = 200;

fn misere_forms(
    interp: &mut Interpreter,
    a: &mut Args,
    each: &mut dyn FnMut(
        &mut crate::game::misere::MisereForms,
        crate::game::misere::GameId,
    ) -> Value,
) -> R {
    let code = code_arg(interp, a, 0)?;
    let n = a.int_in(1, 0, MAX_MISERE_HEAP, "the largest heap size")? as usize;
    // Every option of every heap is summed from the heaps' forms: refuse up front what would
    // list too many (codes such as `{2+}.0` whose options are the partitions of the heap).
    if let Err(h) = code.option_bound(n, super::heap::MAX_OPTIONS) {
        return Err(EvalError::new(
            "lg::eval::too_large",
            format!(
                "the heaps 1..{n} of this code have more than {} options together (the total passes it at heap {h})",
                super::heap::MAX_OPTIONS
            ),
            a.span,
            "too many options",
        )
        .with_help(format!("ask for heaps up to {}", h.saturating_sub(1))));
    }
    let mut heaps = crate::game::misere::HeapPositions::new(&code, misere_forms_budget());
    let mut spinner = crate::eval::progress::Spinner::new();
    heaps.set_progress(Some(Box::new(move |heap, forms, sums| {
        spinner.update(|| {
            format!("misère forms: heap {heap} of {n}, {forms} canonical forms, {sums} sums")
        })
    })));
    let mut out = Vec::with_capacity(n + 1);
    for h in 0..=n {
        let id = heaps.heap(h).map_err(|e| {
            let (code_name, label) = match e {
                crate::game::misere::MisereError::Interrupted { .. } => {
                    ("lg::eval::interrupted", "stopped here")
                }
                crate::game::misere::MisereError::TooLarge { .. } => {
                    ("lg::eval::too_large", "too large")
                }
            };
            EvalError::new(code_name, e.to_string(), a.span, label).with_help(format!(
                "the values of heaps 0..{} were computed; ask for fewer heap sizes",
                h.saturating_sub(1)
            ))
        })?;
        out.push(each(heaps.forms(), id));
    }
    Ok(Value::list(out))
}

fn misere_grundy(interp: &mut Interpreter, a: &mut Args) -> R {
    misere_forms(interp, a, &mut |f, id| {
        Value::int(i64::from(f.misere_value(id)))
    })
}

fn genus(interp: &mut Interpreter, a: &mut Args) -> R {
    misere_forms(interp, a, &mut |f, id| Value::str(&f.genus_string(id)))
}

pub(super) fn register(r: &mut Vec<Builtin>) {
    r.push(Builtin {
        name: "misere_grundy",
        signature: "misere_grundy(code, n) -> list",
        doc: "The misère nim values of single heaps 0..n of a take-and-break code (a heap is a misère\n\
              P-position exactly when its value is 0; heap 0 has value 1), from misère canonical forms\n\
              of the sums of heaps below it (n up to 200, as far as memory allows; Ctrl-C stops).",
        example: "misere_grundy(\"0.77\", 12)",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: misere_grundy,
    });
    r.push(Builtin {
        name: "genus",
        signature: "genus(code, n) -> list",
        doc: "The genus of single heaps 0..n of a take-and-break code in CGSuite's notation: `g` for a\n\
              heap equal to the nim heap *g in misère play, `g^γ0` for tame and restive games, else\n\
              `g^γ0γ1…` cut once 2-periodic (γk is the misère value of the heap plus k copies of *2;\n\
              `(a,b,c)` when a digit exceeds 9).",
        example: "genus(\"0.77\", 8)",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: genus,
    });
    r.push(Builtin {
        name: "periodicity",
        signature: "periodicity(code, n) -> periodicity",
        doc: "Periodicity of the Grundy values of heaps 0..n of a take-and-break code. For a finite code\n\
              with no modifiers the octal periodicity theorem (Guy–Smith) turns enough values into a\n\
              proof that G(n + p) = G(n) for every heap n ≥ n0: a complete normal-play solution. Other\n\
              codes, or too few values, give an apparent period (with saltus s when G(n + p) = G(n) + s),\n\
              never called proved; `preperiod`, `period`, `saltus`, `is_proved` and `is_periodic` read it.",
        example: "periodicity(\"0.77\", 200)",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: periodicity_of,
    });
    for (name, signature, doc, func) in [
        (
            "preperiod",
            "preperiod(x) -> integer",
            "The least heap n0 from which the values found by `periodicity` repeat.",
            preperiod as super::BuiltinFn,
        ),
        (
            "period",
            "period(x) -> integer",
            "The least period p found by `periodicity`: G(n + p) = G(n) + saltus for n ≥ n0.",
            period,
        ),
        (
            "saltus",
            "saltus(x) -> integer",
            "The saltus s found by `periodicity` (0 unless the values are arithmetic-periodic).",
            saltus,
        ),
        (
            "is_proved",
            "is_proved(x) -> bool",
            "Whether `periodicity` proved the period for every heap size.",
            is_proved,
        ),
        (
            "is_periodic",
            "is_periodic(x) -> bool",
            "Whether `periodicity` found a period, proved or apparent.",
            is_periodic,
        ),
    ] {
        r.push(Builtin {
            name,
            signature,
            doc,
            example: "period(periodicity(\"0.07\", 200))",
            min_args: 1,
            max_args: Some(1),
            named: &[],
            func,
        });
    }
    r.push(Builtin {
        name: "nim_sum",
        signature: "nim_sum(a, b, ...) or nim_sum(list) -> integer",
        doc: "The nim-sum (bitwise exclusive or) of nonnegative integers: the Grundy value of a sum of\n\
              games with those values (Sprague–Grundy).",
        example: "nim_sum(3, 5, 6)",
        min_args: 1,
        max_args: None,
        named: &[],
        func: nim_sum,
    });
    r.push(Builtin {
        name: "mex",
        signature: "mex(a, b, ...) or mex(list) -> integer",
        doc: "The minimal excludant: the least nonnegative integer not among the values (the Grundy\n\
              value of a game whose options have these values).",
        example: "mex([0, 1, 3])",
        min_args: 1,
        max_args: None,
        named: &[],
        func: mex,
    });
    r.push(Builtin {
        name: "subtraction",
        signature: "subtraction(S, all_but: false) -> code",
        doc: "The take-and-break code of the subtraction game with set S (take j tokens, j ∈ S): digit 3\n\
              at each j ∈ S; with `all_but: true`, at each j ∉ S, repeating forever.",
        example: "subtraction([2, 3, 7])",
        min_args: 1,
        max_args: None,
        named: &["all_but"],
        func: subtraction,
    });
}
