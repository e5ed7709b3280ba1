//! Builtins of misère quotients of heap games: `misere_quotient` (proved, see
//! `game::quotient`) and what a quotient answers about positions.

use std::rc::Rc;

use super::heap::code_arg;
use super::{Args, Builtin};
use crate::algebra::Vector;
use crate::eval::{EvalError, Interpreter, Value};
use crate::game::quotient::{
    quotients_by_heap_watched, HeapSumAnswers, HeapSystem, MisereQuotient, QuotientError,
    QuotientLimits, QuotientOracle, Trial,
};
use crate::game::LatticeGame;

type R = Result<Value, EvalError>;

/// The largest heap bound `misere_quotient` takes.
const MAX_QUOTIENT_HEAP: i64 = 1000;

/// How far `misere_quotient(code)` goes without a bound when Φ is not proved periodic first.
pub(crate) const DEFAULT_MAX_HEAP: i64 = 1000;
/// The classes a congruence quotient of a lattice game explores by default.
pub(crate) const DEFAULT_LATTICE_CLASSES: i64 = 256;

/// The heap game of `misere_quotient`'s first argument, with heaps up to `n`.
fn heap_system(
    interp: &mut Interpreter,
    a: &Args,
    n: Option<usize>,
    max_heap: usize,
) -> Result<HeapSystem, EvalError> {
    if let Value::Game(g) = a.value(0) {
        if let Some((_, span)) = a.named("max_heap") {
            return Err(EvalError::new(
                "lg::eval::argument",
                "`max_heap:` is for take-and-break codes; a lattice game has its own heaps",
                span,
                "not for a game",
            ));
        }
        let system = HeapSystem::from_lattice_game(g).ok_or_else(|| {
            EvalError::new(
                "lg::eval::not_heaps",
                "this game is not a sum of heaps in misère play, which misère quotients are computed for",
                a.span(0),
                "not a heap game",
            )
            .with_help(
                "give a take-and-break code (\"0.77\") or a game on N^d with board misere(..) whose every move has one entry 1 \
                 (the heap it takes from) and the others ≤ 0 (the heaps it leaves), such as octal(\"0.77\", 6, play: \"misere\")",
            )
        })?;
        if let Some(k) = n {
            if k != system.max_heap() {
                return Err(EvalError::new(
                    "lg::eval::argument",
                    format!("a lattice game's quotient covers all its {} heap types; leave out the bound {k}", system.max_heap()),
                    a.span(1),
                    "leave this out",
                ));
            }
        }
        return Ok(system);
    }
    let code = code_arg(interp, a, 0)?;
    let bound = n.unwrap_or(max_heap);
    HeapSystem::from_code_within(&code, bound, super::heap::MAX_OPTIONS)
        .map_err(|e| super::heap::heap_error(e, a.span))
}

fn positive(a: &Args, name: &str, hi: i64) -> Result<Option<i64>, EvalError> {
    a.named_int_in(name, 1, hi, &format!("a whole number from 1 to {hi}"))
}

fn quotient_of(interp: &mut Interpreter, a: &mut Args) -> R {
    if let Value::Game(g) = a.value(0) {
        let given = a.len() > 1 && !matches!(a.value(1), Value::Int(_));
        if given || HeapSystem::from_lattice_game(g).is_none() {
            let g = g.clone();
            return congruence_quotient(&g, a);
        }
    }
    let n = if a.len() > 1 {
        Some(a.int_in(1, 1, MAX_QUOTIENT_HEAP, "the largest heap size")? as usize)
    } else {
        None
    };
    if let (Some(_), Some((_, span))) = (n, a.named("max_heap")) {
        return Err(EvalError::new(
            "lg::eval::argument",
            "give either the heap bound n (the quotient of exactly heaps 1..n) or `max_heap:` (as far as it gets), not both",
            span,
            "one or the other",
        ));
    }
    let max_heap = positive(a, "max_heap", MAX_QUOTIENT_HEAP)?.unwrap_or(DEFAULT_MAX_HEAP) as usize;
    let system = heap_system(interp, a, n, max_heap)?;
    let mut limits = QuotientLimits::default();
    if let Some(k) = positive(a, "max_elements", 1 << 20)? {
        limits.max_elements = k as usize;
    }
    let timeout = positive(a, "timeout", 1 << 30)?;
    // A lattice game or an exact bound must be reached; `max_heap:` goes as far as it gets.
    let exact = n.is_some() || matches!(a.value(0), Value::Game(_));
    let bound = system.max_heap();
    // The line shows the last bound proved and, while the next takes long, its latest trial.
    let mut spinner = crate::eval::progress::Spinner::new();
    let message = spinner.shared(|| "misere_quotient: on heap 1".to_string());
    let proved: std::cell::Cell<Option<(usize, usize, usize)>> = std::cell::Cell::new(None);
    let line = |trial: Option<&Trial>| {
        let (heap, order, p_count) = proved.get().unwrap_or((0, 1, 0));
        let trying = trial.map(|t| format!(" ({t})")).unwrap_or_default();
        let done = if heap == 0 {
            String::new()
        } else {
            format!("; heaps up to {heap} proved, |Q| = {order}, |P| = {p_count}")
        };
        format!("misere_quotient: on heap {}{trying}{done}", heap + 1)
    };
    let run = || {
        quotients_by_heap_watched(
            &system,
            bound,
            limits,
            true,
            &mut |step| {
                proved.set(Some((step.heap, step.order, step.p_count)));
                message.set(|| line(None));
            },
            &mut |trial| message.set(|| line(Some(trial))),
        )
    };
    let run = match timeout {
        Some(secs) => crate::interrupt::with_deadline(
            std::time::Instant::now() + std::time::Duration::from_secs(secs as u64),
            run,
        ),
        None => run(),
    };
    let (quotient, stopped) = (run.quotient, run.stopped);
    match (quotient, stopped) {
        (Some(mut q), None) => {
            if exact {
                q.extend_to(&system, bound);
            }
            Ok(Value::Quotient(Rc::new(q)))
        }
        (Some(mut q), Some(e)) if !exact => {
            q.stopped = Some(stop_reason(&e));
            Ok(Value::Quotient(Rc::new(q)))
        }
        (q, Some(e)) => {
            let (code_name, label, help) = match &e {
                QuotientError::Interrupted { .. } if !crate::interrupt::user_requested() => (
                    "lg::eval::timeout",
                    "out of time",
                    "give it more time (`timeout:`), ask for fewer heap sizes, or use `max_heap:` to get the quotient as far as it is proved",
                ),
                QuotientError::Interrupted { .. } => (
                    "lg::eval::interrupted",
                    "stopped here",
                    "ask for fewer heap sizes, or use `max_heap:` to get the quotient as far as it is proved",
                ),
                QuotientError::TooLarge { .. } => (
                    "lg::eval::too_large",
                    "too large",
                    "raise `max_elements:` or ask for fewer heap sizes; wild games have quotients that grow fast",
                ),
                QuotientError::NotProved { .. } => (
                    "lg::eval::not_proved",
                    "not proved",
                    "no quotient is printed without a proof; ask for fewer heap sizes",
                ),
            };
            let so_far = match &q {
                Some(q) => format!(
                    " (proved for heaps up to {}: |Q| = {}, |P| = {})",
                    q.n,
                    q.order(),
                    q.p_count()
                ),
                None => String::new(),
            };
            Err(EvalError::new(code_name, format!("{e}{so_far}"), a.span, label).with_help(help))
        }
        (None, None) => unreachable!("a run proves heap 1 or says why not"),
    }
}

/// The quotient of any lattice game on N^d from its P-positions, given or found by `stratify`, by
/// exact congruence of positions (`game::quotient::lattice_quotient`).
fn congruence_quotient(g: &crate::game::LatticeGame, a: &Args) -> R {
    use crate::game::quotient::{lattice_quotient, LatticeQuotientError};
    use crate::game::stratify::{stratify, Stratified, StratifyOptions};
    let timeout = positive(a, "timeout", 1 << 30)?;
    let max = positive(a, "max_elements", 1 << 20)?.unwrap_or(DEFAULT_LATTICE_CLASSES) as usize;
    let work = || -> R {
        let p_set = if a.len() > 1 {
            super::sets::to_set_in(a.value(1), a.span(1), Some(g.dim()))?
        } else {
            match stratify(g, &StratifyOptions::default(), &mut |_| {})
                .map_err(|e| super::solve::solve_error(e, a.span(0)))?
            {
                Stratified::Found {
                    stratification,
                    certified: true,
                    ..
                } => crate::algebra::StratifiedSet::from_stratification(&stratification)
                    .map_err(|e| super::objects::algebra_error(e, a.span(0)))?
                    .map_err(|_| {
                        EvalError::new("lg::eval::overlap", "the stratification found has overlapping pieces", a.span(0), "here")
                    })?,
                _ => {
                    return Err(EvalError::new(
                        "lg::eval::stratify",
                        "the quotient of this game is computed from its P-positions, and `stratify` certified none",
                        a.span(0),
                        "no P-positions known",
                    )
                    .with_help("give the P-positions as a second argument (a stratification or set that `verify` certifies): misere_quotient(G, S)"))
                }
            }
        };
        let mut spinner = crate::eval::progress::Spinner::new();
        lattice_quotient(g, &p_set, max, &mut |k| {
            spinner.update(|| format!("misere_quotient: {k} congruence classes"))
        })
            .map(|q| Value::Quotient(Rc::new(q)))
            .map_err(|e| {
                let (code, label, help) = match &e {
                    LatticeQuotientError::NotACone(_) => ("lg::eval::board", "not a cone", "quotients are computed for boards whose lattice points form a monoid: a polyhedron that is its own recession cone"),
                    LatticeQuotientError::TooLarge { .. } => ("lg::eval::too_large", "not closed", "the quotient may be infinite ([GM09] Example 8.12's is); raise `max_elements:` to look further"),
                    LatticeQuotientError::Interrupted { .. }
                    | LatticeQuotientError::Algebra(crate::algebra::AlgebraError::Interrupted) => {
                        if crate::interrupt::user_requested() {
                            ("lg::eval::interrupted", "stopped here", "ask for fewer classes (`max_elements:`)")
                        } else {
                            ("lg::eval::timeout", "out of time", "give it more time (`timeout:`) or ask for fewer classes (`max_elements:`)")
                        }
                    }
                    LatticeQuotientError::Algebra(_) => ("lg::eval::algebra", "here", "this is a limit of the exact set operations"),
                };
                EvalError::new(code, e.to_string(), a.span, label).with_help(help)
            })
    };
    match timeout {
        Some(secs) => crate::interrupt::with_deadline(
            std::time::Instant::now() + std::time::Duration::from_secs(secs as u64),
            work,
        ),
        None => work(),
    }
}

fn stop_reason(e: &QuotientError) -> String {
    match e {
        QuotientError::Interrupted { heap } if !crate::interrupt::user_requested() => {
            format!("out of time at heap {heap}")
        }
        QuotientError::Interrupted { heap } => format!("interrupted at heap {heap}"),
        other => other.to_string(),
    }
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
                "write a position as a list of heap sizes from 1 to {}{} (such as [3, 5, 5]) or as a lattice point of the game with {} coordinates (the counts of its heaps)",
                q.n,
                if q.final_period.is_some() { " or larger (Φ is periodic)" } else { "" },
                q.live.len()
            ))
    };
    match a.value(i) {
        Value::List(items) | Value::Tuple(items) | Value::Set(items) => {
            let mut heaps = Vec::with_capacity(items.len());
            for x in items.iter() {
                match x {
                    Value::Int(k) => match k
                        .to_i64()
                        .and_then(|k| usize::try_from(k).ok())
                        .filter(|&k| q.heap_image(k).is_some())
                    {
                        Some(k) => heaps.push(k),
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
            counts.and_then(|c| q.image_of_point(&c)).ok_or_else(|| {
                bad(match &q.board {
                    Some(b) => format!(
                        "{v} is not a lattice point of the board's cone (in Z^{})",
                        b.dim()
                    ),
                    None => format!(
                        "{v} is not a point of N^{} (counts of the heap sizes with a move)",
                        q.live.len()
                    ),
                })
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

/// `winning_moves(Q, heaps)`: the moves (h, option) into the P-portion.
pub(super) fn winning_moves_in_quotient(q: &MisereQuotient, a: &Args) -> R {
    if q.lattice {
        return Err(EvalError::new(
            "lg::eval::argument",
            "this quotient's elements are congruence classes of lattice points, with no heaps to move in",
            a.span(0),
            "a lattice game's quotient",
        )
        .with_help("use winning_moves(G, p) on the game"));
    }
    let Value::List(items) = a.value(1) else {
        return Err(a.wrong(1, "a list of heap sizes, such as [3, 5, 5]"));
    };
    element_of(q, a, 1)?;
    let heaps: Vec<usize> = items
        .iter()
        .filter_map(|x| match x {
            Value::Int(k) => k.to_i64().map(|k| k as usize),
            _ => None,
        })
        .collect();
    let moves = q.winning_moves(&heaps).ok_or_else(|| {
        EvalError::new(
            "lg::eval::position",
            format!(
                "the options of a heap past {} are not known to this quotient",
                q.n
            ),
            a.span(1),
            "heap too large",
        )
    })?;
    Ok(Value::list(
        moves
            .into_iter()
            .map(|(h, parts)| {
                Value::Tuple(Rc::new(vec![
                    Value::int(h as i64),
                    Value::list(parts.into_iter().map(|p| Value::int(p as i64)).collect()),
                ]))
            })
            .collect(),
    ))
}

fn is_final(_: &mut Interpreter, a: &mut Args) -> R {
    Ok(Value::Bool(quotient_arg(a, 0)?.final_period.is_some()))
}

fn quotient_heap(_: &mut Interpreter, a: &mut Args) -> R {
    Ok(Value::int(quotient_arg(a, 0)?.n as i64))
}

fn is_tame(_: &mut Interpreter, a: &mut Args) -> R {
    Ok(Value::Bool(quotient_arg(a, 0)?.tame_index().is_some()))
}

fn stratification(_: &mut Interpreter, a: &mut Args) -> R {
    let q = quotient_arg(a, 0)?;
    const MAX_TYPES: usize = 2_000_000;
    match q.stratification(MAX_TYPES) {
        Some(Ok(s)) => Ok(Value::Stratification(Rc::new(s))),
        Some(Err(e @ crate::algebra::AlgebraError::OutOfMemory(_))) => {
            Err(super::objects::algebra_error(e, a.span))
        }
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
        signature: "misere_quotient(code or game, n or P, max_heap: N, timeout: seconds, max_elements: k) -> quotient",
        doc: "The misère quotient of a heap game (Plambeck–Siegel): the monoid of positions up to\n\
              indistinguishability, its P-portion and the image Φ(h) of each heap. The game is a take-and-break\n\
              code with heaps 1..n, or a lattice game in misère play that is a sum of heaps (every move has one\n\
              entry 1, the heap it takes from, and the others ≤ 0), such as octal(code, n, play: \"misere\").\n\
              Quotients are proved heap by heap (each candidate printed only after the finite checks that\n\
              P-positions have no option in P and the others have one). Without n, a code's quotient is\n\
              extended until Φ is proved periodic (then it is final for every heap size) or up to max_heap:\n\
              (default 1000), and a run stopped by max_heap:, timeout: or Ctrl-C returns the quotient as far as\n\
              it is proved, saying so.\n\
              Any other lattice game on N^d (or one given with its P-positions P, a stratification or set taken\n\
              as the P-positions: check it with `verify`) gets the quotient of its congruence classes ([GM09]\n\
              Definition 4.7, decided exactly as in [Guo11] Theorem 8.1), explored from 0 by adding unit vectors;\n\
              P is found by `stratify` when not given. An exploration that does not close within max_elements:\n\
              (default 256) classes is reported as such, never as a finite quotient.",
        example: "misere_quotient(\"0.75\")",
        min_args: 1,
        max_args: Some(2),
        named: &["timeout", "max_elements", "max_heap"],
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
        name: "is_final",
        signature: "is_final(Q) -> boolean",
        doc: "Whether a misère quotient of a code is final: Φ proved periodic (the octal periodicity test on\n\
              the quotient's heap images), so that it is the quotient for every heap size.",
        example: "is_final(misere_quotient(\"0.75\"))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: is_final,
    });
    r.push(Builtin {
        name: "quotient_heap",
        signature: "quotient_heap(Q) -> integer",
        doc: "The largest heap size a misère quotient is proved for (with `max_heap:`, as far as it got;\n\
              for a final quotient, the heap where periodicity was proved).",
        example: "quotient_heap(misere_quotient(\"0.07\", max_heap: 12))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: quotient_heap,
    });
    r.push(Builtin {
        name: "is_tame",
        signature: "is_tame(Q) -> boolean",
        doc: "Whether a misère quotient is tame: isomorphic, with its P-portion, to a quotient T_k of misère Nim\n\
              (checked on the structure, not only on |Q| and |P|).",
        example: "is_tame(misere_quotient(\"0.[3]\", 3))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: is_tame,
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

/// Positions with at most this many positions below them (Π (p_i + 1)) are left to the search,
/// which answers them at once; larger ones of a sum of heaps in misère play go through its
/// quotient.
const SEARCH_IS_ENOUGH: f64 = 65536.0;

/// How long a first question about a game may spend proving its quotient (less under a time
/// limit of the caller's); what was proved is kept for the next question.
const QUOTIENT_ANSWER_BUDGET: std::time::Duration = std::time::Duration::from_secs(5);

/// How many games' quotients are kept.
const KEPT_QUOTIENTS: usize = 8;

/// The answer to a question about a lattice point of a sum of heaps in misère play, through the
/// game's misère quotient (proved on first use, heap types up to those in `p`, and kept):
/// `Ok(None)` when the game is not such a sum, the position is small enough for the search, or
/// no quotient reaching it was proved (then `why_not` says why, for the search's error).
pub(super) fn through_quotient<T>(
    interp: &mut crate::eval::Interpreter,
    game: &LatticeGame,
    p: &Vector,
    span: crate::syntax::Span,
    why_not: &mut Option<String>,
    answer: impl FnOnce(&QuotientOracle) -> Option<T>,
) -> Result<Option<T>, EvalError> {
    if !game.board().is_misere() || p.0.iter().any(|c| c.signum() < 0) {
        return Ok(None);
    }
    let below: f64 =
        p.0.iter()
            .map(|c| c.to_i64().map_or(f64::INFINITY, |c| c as f64 + 1.0))
            .product();
    if below <= SEARCH_IS_ENOUGH {
        return Ok(None);
    }
    let i = match interp.heap_sums.iter().position(|(g, _)| g == game) {
        Some(i) => i,
        None => {
            if interp.heap_sums.len() >= KEPT_QUOTIENTS {
                interp.heap_sums.remove(0);
            }
            interp
                .heap_sums
                .push((game.clone(), HeapSumAnswers::of_game(game)));
            interp.heap_sums.len() - 1
        }
    };
    let Some(answers) = interp.heap_sums[i].1.as_mut() else {
        return Ok(None);
    };
    let Some(bound) = answers.bound_of(p) else {
        return Ok(None);
    };
    let mut spinner = crate::eval::progress::Spinner::new();
    let deadline = std::time::Instant::now() + QUOTIENT_ANSWER_BUDGET;
    let oracle = crate::interrupt::with_deadline(deadline, || {
        answers.oracle_for(bound, QuotientLimits::default(), &mut |step| {
            spinner.update(|| {
                format!(
                    "proving the misère quotient: heap types up to {} of {bound} proved, |Q| = {}",
                    step.heap, step.order
                )
            })
        })
    });
    drop(spinner);
    match oracle {
        Ok(Some(oracle)) => Ok(answer(oracle)),
        Ok(None) => {
            *why_not = answers.why_not();
            Ok(None)
        }
        Err(_) => Err(EvalError::interrupted(span)),
    }
}
