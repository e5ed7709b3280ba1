//! Builtins on the session's limits: the one memory budget every growing computation draws from
//! (see [`crate::memory`]).

use super::{Args, Builtin};
use crate::eval::value::Value;
use crate::eval::{EvalError, Interpreter};
use crate::memory;

type R = Result<Value, EvalError>;

pub(super) fn register(r: &mut Vec<Builtin>) {
    r.push(Builtin {
        name: "set_limits",
        signature: "set_limits(max_memory: size) -> string",
        doc: "Sets the session's memory budget and describes it. `max_memory:` is a size as a string\n\
              (\"4G\", \"512M\", \"1.5G\") or a number of bytes; \"default\" lifts the limit. Work that\n\
              would not fit in the budget (solving, outcomes, heap games, generating functions, ...)\n\
              is refused before it allocates, with what it would need. Without arguments it only\n\
              describes the budget. The default is three quarters of what the machine, the process's\n\
              cgroup and `ulimit -v` leave; `lg --max-memory SIZE` and `LG_MAX_MEMORY` set it too.",
        example: "set_limits(max_memory: \"2G\")",
        min_args: 0,
        max_args: Some(0),
        named: &["max_memory"],
        func: set_limits,
    });
}

fn set_limits(_: &mut Interpreter, a: &mut Args) -> R {
    if let Some((v, span)) = a.named("max_memory") {
        let limit = match v {
            Value::Str(s) if s.trim() == "default" => None,
            Value::Str(s) => Some(memory::parse_size(s).map_err(|e| {
                EvalError::new("lg::eval::bad_size", e, span, "not a size").with_help(
                    "write a size such as \"4G\", \"512M\" or 2000000000, or \"default\"",
                )
            })?),
            Value::Int(n) => match n.to_i64() {
                Some(b) if b > 0 => Some(b as u64),
                _ => {
                    return Err(EvalError::new(
                        "lg::eval::bad_size",
                        format!("{n} bytes is not a memory budget"),
                        span,
                        "not a positive number of bytes",
                    )
                    .with_help("give a positive number of bytes, or a size such as \"4G\""))
                }
            },
            other => {
                return Err(EvalError::type_error(
                    "max_memory",
                    "a size such as \"4G\", a number of bytes, or \"default\"",
                    other.type_name(),
                    span,
                ))
            }
        };
        memory::set_limit(limit);
    }
    Ok(Value::str(&describe()))
}

/// One line on the budget: what it is now, and where it comes from.
fn describe() -> String {
    let (machine, cgroup, address_space) = memory::sources();
    let mut from = vec![format!(
        "the machine has {} available",
        memory::human(machine)
    )];
    if let Some(c) = cgroup {
        from.push(format!("the cgroup leaves {}", memory::human(c)));
    }
    if let Some(a) = address_space {
        from.push(format!("ulimit -v leaves {}", memory::human(a)));
    }
    let limit = match memory::limit() {
        Some(l) => format!(
            "a limit of {} (the session holds {})",
            memory::human(l),
            memory::human(memory::resident())
        ),
        None => "no limit set: 3/4 of what is available".to_string(),
    };
    format!(
        "memory budget {}: {limit}; {}",
        memory::human(memory::budget()),
        from.join(", ")
    )
}
