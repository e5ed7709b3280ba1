//! Heap games: `octal`, `heap_game`, `heap_sizes`, `grundy` over `crate::game::heap`.

use std::rc::Rc;

use super::objects::game_error;
use super::{Args, Builtin};
use crate::eval::value::Value;
use crate::eval::{EvalError, Interpreter};

use crate::game::grundy::{octal_values, GrundyError};
use crate::game::heap::{CodeError, HeapCode, HeapError, HeapGame};
use crate::syntax::Span;

type R = Result<Value, EvalError>;

/// The largest heap size the builtins accept.
const MAX_HEAP: i64 = 100_000;

pub(super) fn heap_error(e: HeapError, span: Span) -> EvalError {
    match e {
        HeapError::Game(e) => game_error(e, span),
        HeapError::BadCode(_) => EvalError::new("lg::eval::heap_code", e.to_string(), span, "not a heap code"),
        HeapError::BadRule { .. } => EvalError::new("lg::eval::heap", e.to_string(), span, "not a heap move")
            .with_help("a rule (h, [a, b]) replaces a heap of size h by heaps a and b with a + b < h"),
        HeapError::TooManyOptions { .. } => EvalError::new("lg::eval::too_large", e.to_string(), span, "too many options")
            .with_help("ask for fewer heap sizes; `grundy(code, n)` computes values without listing the options"),
        HeapError::TooLarge { .. } => EvalError::new("lg::eval::too_large", e.to_string(), span, "too large")
            .with_help("ask for fewer heap sizes; `grundy(code, n)` computes the values of much larger heaps without the lattice game"),
        HeapError::Interrupted => EvalError::new("lg::eval::interrupted", e.to_string(), span, "stopped here"),
        HeapError::NoMoves(_) => EvalError::new("lg::eval::heap", e.to_string(), span, "no moves")
            .with_help("allow larger heaps, or a code with moves for small heaps"),
    }
}

pub(super) fn code_arg(interp: &Interpreter, a: &Args, i: usize) -> Result<HeapCode, EvalError> {
    match a.value(i) {
        Value::Str(s) => HeapCode::parse(s).map_err(|e| code_error(interp, e, s, a.span(i))),
        _ => Err(a.wrong(i, "a heap code as a string, such as \"0.77\" or \"4!.0\"")),
    }
}

/// A malformed code, pointed at its offending character when the argument is the string literal
/// itself (with no escapes), else at the whole argument.
fn code_error(interp: &Interpreter, e: CodeError, code: &str, span: Span) -> EvalError {
    let literal = interp
        .sources
        .get(span.source)
        .and_then(|(_, text)| text.get(span.start..span.end))
        .is_some_and(|t| t.len() == code.len() + 2 && &t[1..t.len() - 1] == code);
    let at = if literal {
        let byte = code
            .char_indices()
            .nth(e.position - 1)
            .map_or(code.len(), |(b, _)| b);
        let end = code[byte..]
            .chars()
            .next()
            .map_or(byte, |c| byte + c.len_utf8());
        Span::new(
            span.source,
            span.start + 1 + byte,
            (span.start + 1 + end).max(span.start + 2 + byte),
        )
    } else {
        span
    };
    EvalError::new("lg::eval::heap_code", format!("the heap code \"{code}\" has {} here", e.what), at, e.what.clone())
        .with_help(format!("{}; codes are written as CGSuite does: \"0.77\" (Kayles), \"0.07\" (Dawson's Kayles), \"4!.0\" (Grundy's game), \"0.[3]\" (Nim), \"0.{{2,3}}\"", e.expected))
}

fn play_arg(a: &Args) -> Result<bool, EvalError> {
    match a.named("play") {
        None => Ok(false),
        Some((Value::Str(s), _)) if &**s == "normal" => Ok(false),
        Some((Value::Str(s), _)) if &**s == "misere" || &**s == "misère" => Ok(true),
        Some((_, span)) => Err(EvalError::new(
            "lg::eval::value",
            "play is \"normal\" or \"misere\"",
            span,
            "unknown play",
        )),
    }
}

fn rules_arg(
    interp: &mut Interpreter,
    a: &Args,
    i: usize,
    n: usize,
) -> Result<HeapGame, EvalError> {
    let span = a.span(i);
    let sizes = |v: &Value| -> Option<Vec<usize>> {
        match v {
            Value::Vector(v) => {
                v.0.iter()
                    .map(|x| x.to_i64().and_then(|x| usize::try_from(x).ok()))
                    .collect()
            }
            Value::List(items) | Value::Tuple(items) | Value::Set(items) => items
                .iter()
                .map(|x| match x {
                    Value::Int(k) => k.to_i64().and_then(|k| usize::try_from(k).ok()),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    };
    let bad = || {
        EvalError::new("lg::eval::heap", "heap rules are a function h ↦ list of lists of heap sizes, or a list of pairs (h, [sizes])", span, "not heap rules")
            .with_help("for example `heap_game(5, fn(h) = [[h - 1]])` or `heap_game(5, [(2, []), (3, [1, 1])])`")
    };
    let mut rules: Vec<(usize, Vec<usize>)> = Vec::new();
    match a.value(i) {
        Value::Function(f) => {
            let f = f.clone();
            for h in 1..=n {
                let out = interp.call(&f, vec![(Value::int(h as i64), span)], span)?;
                let items = match &out {
                    Value::List(v) | Value::Set(v) | Value::Tuple(v) => v.to_vec(),
                    Value::Vector(v) => v.0.iter().map(|_| out.clone()).take(1).collect(),
                    _ => return Err(bad()),
                };
                for item in items {
                    rules.push((h, sizes(&item).ok_or_else(bad)?));
                }
            }
        }
        Value::List(items) | Value::Set(items) => {
            for item in items.iter() {
                let (h, parts) = match item {
                    Value::Tuple(t) if t.len() == 2 => (&t[0], &t[1]),
                    Value::List(t) if t.len() == 2 => (&t[0], &t[1]),
                    _ => return Err(bad()),
                };
                let Value::Int(h) = h else { return Err(bad()) };
                let h = h
                    .to_i64()
                    .and_then(|h| usize::try_from(h).ok())
                    .ok_or_else(bad)?;
                rules.push((h, sizes(parts).ok_or_else(bad)?));
            }
        }
        _ => return Err(bad()),
    }
    HeapGame::from_rules(n, &rules).map_err(|e| heap_error(e, span))
}

fn octal(interp: &mut Interpreter, a: &mut Args) -> R {
    let code = code_arg(interp, a, 0)?;
    let n = a.int_in(1, 1, MAX_HEAP, "the largest heap size")? as usize;
    let misere = play_arg(a)?;
    // Live progress on a terminal after the first second: listing options, then building moves.
    let mut spinner = crate::eval::progress::Spinner::new();
    let heaps = HeapGame::from_code_reporting(&code, n, MAX_OPTIONS, &mut |h| {
        spinner.update(|| format!("octal: listing the options of heap {h} of {n}"))
    })
    .map_err(|e| heap_error(e, a.span))?;
    lattice_game_of(&heaps, misere, &mut spinner, a.span)
}

/// The lattice game of a heap game, with the moves' progress on `spinner`.
fn lattice_game_of(
    heaps: &HeapGame,
    misere: bool,
    spinner: &mut crate::eval::progress::Spinner,
    span: Span,
) -> R {
    let game = heaps
        .lattice_game_reporting(misere, crate::memory::budget(), &mut |built, all| {
            spinner.update(|| {
                if built < all {
                    format!("building the lattice game: {built} of {all} moves")
                } else {
                    format!("checking the rule set of {all} moves and its axioms")
                }
            })
        })
        .map_err(|e| heap_error(e, span))?;
    Ok(Value::Game(Rc::new(game)))
}

fn heap_sizes(interp: &mut Interpreter, a: &mut Args) -> R {
    let code = code_arg(interp, a, 0)?;
    let n = a.int_in(1, 1, MAX_HEAP, "the largest heap size")? as usize;
    let kept = HeapGame::from_code_within(&code, n, MAX_OPTIONS)
        .map_err(|e| heap_error(e, a.span))?
        .kept_sizes();
    Ok(Value::list(
        kept.into_iter().map(|h| Value::int(h as i64)).collect(),
    ))
}

fn heap_game(interp: &mut Interpreter, a: &mut Args) -> R {
    let n = a.int_in(0, 1, MAX_HEAP, "the largest heap size")? as usize;
    let game = rules_arg(interp, a, 1, n)?;
    let mut spinner = crate::eval::progress::Spinner::new();
    lattice_game_of(&game, play_arg(a)?, &mut spinner, a.span)
}

/// The largest heap size `grundy` accepts for a code (its values cost O(n²) time, O(n) memory).
/// The most options (lists of heaps) `octal` and `heap_sizes` list for a code.
pub(super) const MAX_OPTIONS: u128 = 20_000_000;

pub(super) const MAX_GRUNDY_HEAP: i64 = 1_000_000;

fn grundy(interp: &mut Interpreter, a: &mut Args) -> R {
    if let Value::Game(_) = a.value(0) {
        return super::solve::grundy_of_position(interp, a);
    }
    if let Value::Str(_) = a.value(0) {
        let n = a.int_in(1, 0, MAX_GRUNDY_HEAP, "the largest heap size")? as usize;
        return octal_grundy(&code_arg(interp, a, 0)?, n, a.span);
    }
    let n = a.int_in(1, 0, MAX_HEAP, "the largest heap size")? as usize;
    let game = rules_arg(interp, a, 0, n)?;
    Ok(Value::list(
        game.grundy()
            .into_iter()
            .map(|g| Value::int(g as i64))
            .collect(),
    ))
}

/// `grundy(code, n)`: the values as a list.
fn octal_grundy(code: &HeapCode, n: usize, span: Span) -> R {
    let g = code_values(code, n, span)?;
    Ok(Value::list(
        g.into_iter().map(|v| Value::int(i64::from(v))).collect(),
    ))
}

/// The Grundy values of a code through `game::grundy`, with progress on a terminal once it has
/// taken a second, Ctrl-C, and the memory budget `solve` uses.
pub(super) fn code_values(code: &HeapCode, n: usize, span: Span) -> Result<Vec<u32>, EvalError> {
    let mut bar = crate::eval::progress::Bar::new(
        "grundy: heap",
        "  grundy {bar:30} heap {pos}/{len}, {elapsed} (Ctrl-C stops)",
    );
    let mut report = |done: usize, total: usize| bar.set(done as u64, total as u64);
    let result = octal_values(code, n, crate::memory::budget(), &mut report);
    drop(bar);
    match result {
        Ok(g) => Ok(g),
        Err(e @ GrundyError::Interrupted { .. }) => {
            Err(
                EvalError::new("lg::eval::interrupted", e.to_string(), span, "stopped here")
                    .with_help("the computation was stopped with Ctrl-C; the session goes on"),
            )
        }
        Err(e @ GrundyError::TooLarge { .. }) => {
            Err(
                EvalError::new("lg::eval::too_large", e.to_string(), span, "too large")
                    .with_help("ask for fewer heap sizes"),
            )
        }
        Err(e @ GrundyError::TooManyOptions { heap, .. }) => Err(EvalError::new(
            "lg::eval::too_large",
            e.to_string(),
            span,
            "too many options",
        )
        .with_help(format!("ask for heaps up to {}", heap.saturating_sub(1)))),
    }
}

pub(super) fn register(r: &mut Vec<Builtin>) {
    r.push(Builtin {
        name: "octal",
        signature: "octal(code, n, play: \"normal\" | \"misere\") -> game",
        doc: "The lattice game of a take-and-break heap game with heaps of size at most n ([GM09]\n\
              Examples 2.1, 2.5 and 6.4). Digit d_k of the code d0.d1d2... has bit 1 when k tokens may be\n\
              taken leaving no heap, bit 2 leaving one nonempty heap, bit 4 two, bit 8 three, and so on\n\
              (digits 0-9, A-Z); codes are written as CGSuite does: `{2,3}` lists heap counts, `{2+}` any\n\
              count from 2, `!` `?` `=` after a digit ask for pairwise unequal, not all equal, all equal\n\
              heaps, `[..]` repeats the final digits (\"0.[3]\" is Nim, \"4!.0\" Grundy's game). A position\n\
              counts the heaps of each size; heap sizes with no move are ignored (Example 6.4), so\n\
              coordinate i counts the heaps of the i-th size of `heap_sizes(code, n)`. The axioms hold by\n\
              theorem and are certified in time linear in the moves.",
        example: "octal(\"0.07\", 6)",
        min_args: 2,
        max_args: Some(2),
        named: &["play"],
        func: octal,
    });
    r.push(Builtin {
        name: "heap_sizes",
        signature: "heap_sizes(code, n) -> list",
        doc: "The heap sizes the coordinates of `octal(code, n)` count, in order (sizes with a move).",
        example: "heap_sizes(\"0.07\", 6)",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: heap_sizes,
    });
    r.push(Builtin {
        name: "heap_game",
        signature: "heap_game(n, rules, play: \"normal\" | \"misere\") -> game",
        doc: "The lattice game of a heap game given by its rules: a function h ↦ list of the lists of\n\
              heap sizes a heap of size h may become, or a list of pairs (h, [sizes]). Each part is\n\
              nonempty and the parts add up to less than h (or to h, splitting without removing).",
        example: "heap_game(4, fn(h) = [[j] for j in range(1, h)] + [[]])",
        min_args: 2,
        max_args: Some(2),
        named: &["play"],
        func: heap_game,
    });
    r.push(Builtin {
        name: "grundy",
        signature: "grundy(code or rules, n) -> list, or grundy(G, p) -> integer",
        doc: "The Sprague–Grundy values of heaps of size 0..n in normal play, by the mex rule; the game\n\
              is a take-and-break code as for `octal` (n up to 10^6; plain octal and hexadecimal codes\n\
              in O(n²) time, others by listing their options; progress and Ctrl-C) or heap rules as for\n\
              `heap_game` (n up to 10^5). `grundy(G, p)` is the value of the position p of any lattice\n\
              game G in normal play on its board (a heap game's from the values of its heap sizes).",
        example: "grundy(\"0.137\", 20)",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: grundy,
    });
}
