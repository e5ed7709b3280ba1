//! Builtins for conjecture sweeps: reproducible random integers, this process's shard of a
//! sweep, the items still to do, one JSON Lines record per item, per-item time limits that turn
//! failures into results, and settings from the command line (`lg --set name=value`).

use std::time::Instant;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;

use super::{Args, Builtin};
use crate::eval::value::Value;
use crate::eval::{EvalError, Interpreter};
use crate::random::SplitMix64;

type R = Result<Value, EvalError>;

/// The seed as 64 bits: an integer reduced modulo 2^64 (negative ones too), so that any
/// integer, however large, names a stream.
fn seed_bits(seed: &BigInt) -> u64 {
    let m = BigInt::from(1u8) << 64;
    let r: BigInt = ((seed % &m) + &m) % &m;
    r.to_u64().unwrap_or(0)
}

/// The most numbers one call of `random_ints` returns.
const MAX_RANDOM: i64 = 1 << 24;

/// The stream a seed names: an integer, or a vector of integers (a seed and an item's number,
/// say), mixed one component after the other.
fn stream_of(a: &Args) -> Result<u64, EvalError> {
    match a.value(0) {
        Value::Int(k) => Ok(seed_bits(&k.to_bigint())),
        v => {
            let mut parts = Vec::new();
            if !flatten_seed(v, &mut parts) {
                return Err(a.wrong(
                    0,
                    "a seed: an integer, or a tuple of integers such as (seed, k)",
                ));
            }
            Ok(parts.iter().fold(0x6C67_5F73_7765_6570, |state, x| {
                SplitMix64(state ^ x).next_u64()
            }))
        }
    }
}

/// The integers of a seed tuple, nested tuples read left to right; false if something else.
fn flatten_seed(v: &Value, out: &mut Vec<u64>) -> bool {
    match v {
        Value::Int(k) => {
            out.push(seed_bits(&k.to_bigint()));
            true
        }
        Value::Vector(xs) => {
            out.extend(xs.0.iter().map(|x| seed_bits(&x.to_bigint())));
            true
        }
        Value::Tuple(items) => items.iter().all(|x| flatten_seed(x, out)),
        _ => false,
    }
}

fn random_ints(_: &mut Interpreter, a: &mut Args) -> R {
    let stream = stream_of(a)?;
    let count = a.int_in(1, 0, MAX_RANDOM, "the count")?;
    let (lo, hi) = (a.int(2)?, a.int(3)?);
    let (Some(lo64), Some(hi64)) = (lo.to_i64(), hi.to_i64()) else {
        return Err(EvalError::new(
            "lg::eval::value",
            "the bounds of random integers must lie within ±2^63",
            a.span,
            "too large",
        ));
    };
    if lo64 > hi64 {
        return Err(EvalError::new(
            "lg::eval::value",
            format!("the range {lo64} to {hi64} is empty"),
            a.span(2),
            "lower bound above the upper",
        )
        .with_help(format!("write `random_ints(seed, n, {hi64}, {lo64})`")));
    }
    let span = (hi64 as i128 - lo64 as i128 + 1) as u128;
    let mut g = SplitMix64(stream);
    let values = (0..count)
        .map(|_| {
            let x = if span > u64::MAX as u128 {
                g.next_u64() as i128
            } else {
                g.below(span as u64) as i128
            };
            Value::int((lo64 as i128 + x) as i64)
        })
        .collect();
    Ok(Value::list(values))
}

/// The items of a list, set or range as values.
fn items(a: &Args, i: usize) -> Result<Vec<Value>, EvalError> {
    match a.value(i) {
        Value::List(v) | Value::Set(v) => Ok(v.to_vec()),
        _ => Err(a.wrong(i, "a list of the sweep's items, such as `range(1000)`")),
    }
}

/// The items of this shard, without those already recorded when `unrecorded`.
fn shard_items(interp: &Interpreter, a: &Args, unrecorded: bool) -> R {
    Ok(Value::list(
        items(a, 0)?
            .into_iter()
            .enumerate()
            .filter(|(k, v)| {
                interp.sweep.owns(*k) && !(unrecorded && interp.sweep.is_recorded(&item_json(v)))
            })
            .map(|(_, v)| v)
            .collect(),
    ))
}

fn shard(interp: &mut Interpreter, a: &mut Args) -> R {
    shard_items(interp, a, false)
}

fn pending(interp: &mut Interpreter, a: &mut Args) -> R {
    shard_items(interp, a, true)
}

/// An item as JSON: integers that fit as numbers, strings as strings, anything else as its
/// printed form.
fn item_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Int(k) => match k.to_i64() {
            Some(x) => serde_json::Value::from(x),
            None => serde_json::Value::from(k.to_string()),
        },
        Value::Str(s) => serde_json::Value::from(s.to_string()),
        other => serde_json::Value::from(other.to_string()),
    }
}

/// The fields `record` writes besides `item` and `shard`, in the order of the docs: a game's
/// stratification sweep, then a quotient census (the heap reached, |Q|, |P|, the presentation,
/// whether final).
const FIELDS: [&str; 12] = [
    "game",
    "outcome",
    "stratification",
    "reason",
    "pieces",
    "seconds",
    "note",
    "heap",
    "order",
    "p_count",
    "presentation",
    "final",
];

fn record(interp: &mut Interpreter, a: &mut Args) -> R {
    let mut fields = serde_json::Map::new();
    fields.insert("item".into(), item_json(a.value(0)));
    fields.insert(
        "shard".into(),
        interp
            .sweep
            .shard()
            .map_or(serde_json::Value::Null, |s| s.to_string().into()),
    );
    for name in FIELDS {
        let Some((v, span)) = a.named(name) else {
            continue;
        };
        let json = match (name, v) {
            (_, Value::Nothing) => serde_json::Value::Null,
            ("pieces", Value::Int(k)) => k
                .to_i64()
                .map_or_else(|| k.to_string().into(), serde_json::Value::from),
            ("pieces", other) => {
                return Err(EvalError::type_error(
                    "pieces",
                    "an integer",
                    other.type_name(),
                    span,
                ))
            }
            ("seconds", Value::Int(k)) => serde_json::Value::from(k.to_i64().unwrap_or(0)),
            ("seconds", Value::Rational(r)) => {
                // Seconds are a measurement, written as a decimal to the millisecond.
                let ms = (&**r * BigRational::from_integer(1000.into())).round();
                serde_json::Value::from(ms.to_integer().to_i64().unwrap_or(0) as f64 / 1000.0)
            }
            ("seconds", other) => {
                return Err(EvalError::type_error(
                    "seconds",
                    "a number of seconds",
                    other.type_name(),
                    span,
                ))
            }
            (_, Value::Str(s)) => serde_json::Value::from(s.to_string()),
            (_, Value::Bool(b)) => serde_json::Value::from(*b),
            ("heap" | "order" | "p_count", Value::Int(k)) => k
                .to_i64()
                .map_or_else(|| k.to_string().into(), serde_json::Value::from),
            (_, other) => serde_json::Value::from(other.to_string()),
        };
        fields.insert(name.into(), json);
    }
    interp
        .sweep
        .record(&serde_json::Value::Object(fields))
        .map_err(|e| {
            EvalError::new("lg::eval::io", e.to_string(), a.span, "not recorded")
                .with_help("check that the results file (`--results FILE`) is writable")
        })?;
    Ok(Value::Nothing)
}

fn attempt(interp: &mut Interpreter, a: &mut Args) -> R {
    let Value::Function(f) = a.value(0).clone() else {
        return Err(a
            .wrong(0, "a function of no arguments")
            .with_help("wrap the work in `fn() = …`: `attempt(fn() = stratify(G), timeout: 60)`"));
    };
    let limit = a.timeout()?;
    let start = Instant::now();
    let span = a.span;
    let result = super::within_timeout(limit, span, || interp.call(&f, Vec::new(), span));
    let elapsed = start.elapsed().as_millis();
    let seconds = Value::rational(BigRational::new(BigInt::from(elapsed), BigInt::from(1000)));
    let (status, value) = match result {
        Ok(v) => ("ok", v),
        // Ctrl-C stops the whole sweep, not just this item.
        Err(e) if crate::interrupt::user_requested() => return Err(e),
        Err(e) => {
            let status = match e.code {
                "lg::eval::timeout" => "timeout",
                "lg::eval::too_large" => "too large",
                "lg::eval::stratify" => "not found",
                _ => "error",
            };
            let reason = match &e.help {
                Some(h) if status != "timeout" => format!("{} ({h})", e.message),
                _ => e.message.clone(),
            };
            (status, Value::str(&reason))
        }
    };
    Ok(Value::tuple(vec![Value::str(status), value, seconds]))
}

fn setting(interp: &mut Interpreter, a: &mut Args) -> R {
    let Value::Str(name) = a.value(0) else {
        return Err(a.wrong(0, "the setting's name as a string"));
    };
    let default = a.value(1).clone();
    let Some(text) = interp.sweep.setting(name) else {
        return Ok(default);
    };
    match &default {
        Value::Int(_) => integer(text).ok_or_else(|| {
                EvalError::new(
                    "lg::eval::value",
                    format!("the setting `{name}` must be an integer (as its default {default} is), but it is `{text}`"),
                    a.span(1),
                    "an integer setting",
                )
                .with_help(format!("run with `--set {name}=<integer>`"))
            }),
        Value::List(_) => integer_list(text)
            .map(Value::list)
            .ok_or_else(|| {
                EvalError::new(
                    "lg::eval::value",
                    format!("the setting `{name}` must be a list of integers separated by commas (as its default {default} is a list), but it is `{text}`"),
                    a.span(1),
                    "a list setting",
                )
                .with_help(format!("run with `--set {name}=25,29,34` (or `[25, 29, 34]`)"))
            }),
        _ => Ok(Value::str(text)),
    }
}

/// The integers of "25,29,34" or "[25, 29, 34]" (an empty text or "[]": none), or None where a
/// part is no integer.
fn integer_list(text: &str) -> Option<Vec<Value>> {
    let text = text.trim();
    let inner = match text.strip_prefix('[') {
        Some(rest) => rest.strip_suffix(']')?,
        None => text,
    };
    if inner.trim().is_empty() {
        return Some(Vec::new());
    }
    inner.split(',').map(integer).collect()
}

/// The integer a setting's text (or a part of it) spells, spaces around it aside.
fn integer(text: &str) -> Option<Value> {
    let k = text.trim().parse::<BigInt>().ok()?;
    Some(Value::Int(k.into()))
}

pub(super) fn register(r: &mut Vec<Builtin>) {
    r.push(Builtin {
        name: "random_ints",
        signature: "random_ints(seed, n, lo, hi) -> list",
        doc: "n integers drawn uniformly from lo to hi by SplitMix64 seeded with `seed` (an integer taken\n\
              modulo 2^64, or a vector of them such as (seed, k, 2), mixed in turn): the same list for\n\
              the same arguments on every machine and version, so that a sweep's k-th game can be\n\
              drawn from `random_ints((seed, k), …)` alone, in any shard.",
        example: "random_ints(2026, 5, -2, 2)",
        min_args: 4,
        max_args: Some(4),
        named: &[],
        func: random_ints,
    });
    r.push(Builtin {
        name: "shard",
        signature: "shard(items) -> list",
        doc: "This process's share of a sweep: with `lg --shard i/n` (or LG_SHARD=i/n, or a Slurm array\n\
              job's SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT), the items at positions k with\n\
              k mod n = i − 1; without a shard, all of them.",
        example: "shard(range(10))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: shard,
    });
    r.push(Builtin {
        name: "pending",
        signature: "pending(items) -> list",
        doc: "This shard's items not yet recorded: those of `shard(items)` without a record in the results\n\
              file (`lg --results FILE`), so that re-running a killed shard resumes where it stopped.",
        example: "pending(range(10))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: pending,
    });
    r.push(Builtin {
        name: "record",
        signature: "record(item, game: G, outcome: s, stratification: P, reason: s, pieces: n, seconds: t, note: s, heap: n, order: n, p_count: n, presentation: s, final: b)",
        doc: "Writes one JSON Lines record for an item to the results file given by `lg --results FILE`,\n\
              appended and flushed at once: the item, the shard, and the named fields given (values print\n\
              in .lg syntax, so a game can be pasted back; `()` is null; numbers and booleans stay JSON's).\n\
              `heap`, `order`, `p_count`, `presentation` and `final` are for a census of misère quotients.\n\
              Without a results file the\n\
              item is only remembered, for `pending`. `lg --summary FILE...` reads the records back.",
        example: "record(0, outcome: \"stratified\", pieces: 2, seconds: 3/100)",
        min_args: 1,
        max_args: Some(1),
        named: &FIELDS,
        func: record,
    });
    r.push(Builtin {
        name: "attempt",
        signature: "attempt(f, timeout: seconds) -> (status, value or reason, seconds)",
        doc: "Calls f() (a function of no arguments), within `timeout:` seconds if given, and turns its\n\
              failure into a result: (\"ok\", value, seconds), or (status, the reason, seconds) with status\n\
              \"timeout\", \"too large\" (a memory refusal), \"not found\" (`stratify` found nothing within\n\
              its limits) or \"error\". One item's limits do not stop a sweep; Ctrl-C does.",
        example: "attempt(fn() = stratify(game(nim(2), misere(nim(2)))), timeout: 10)",
        min_args: 1,
        max_args: Some(1),
        named: &["timeout"],
        func: attempt,
    });
    r.push(Builtin {
        name: "setting",
        signature: "setting(name, default) -> value",
        doc: "The value given on the command line with `lg --set name=value` (an integer when the default\n\
              is one, a list of integers when it is a list: `--set items=25,29,34`; else a string), or\n\
              the default: a sweep's size, seed, limits or chosen items without editing it.",
        example: "setting(\"games\", 40)",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: setting,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_draws_are_in_range_and_cover_it() {
        let mut g = SplitMix64(7);
        let mut seen = [0usize; 5];
        for _ in 0..5000 {
            let x = g.below(5);
            seen[x as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
        assert_eq!(seed_bits(&BigInt::from(-1)), u64::MAX);
        assert_eq!(seed_bits(&(BigInt::from(1u8) << 64)), 0);
    }

    #[test]
    fn list_settings_read_integers_with_or_without_brackets() {
        let ints = |text: &str| {
            integer_list(text).map(|v| v.iter().map(|x| x.to_string()).collect::<Vec<_>>())
        };
        assert_eq!(ints("25,29, 34").unwrap(), ["25", "29", "34"]);
        assert_eq!(
            ints(" [ -1 , 100000000000000000000 ] ").unwrap(),
            ["-1", "100000000000000000000"]
        );
        assert_eq!(ints("").unwrap(), Vec::<String>::new());
        assert_eq!(ints("[]").unwrap(), Vec::<String>::new());
        for bad in ["25,,29", "25;29", "[25, 29", "a", "25,"] {
            assert!(ints(bad).is_none(), "{bad}");
        }
    }
}
