//! The builtin registry. Every builtin is registered once, here, with its signature, a doc string
//! and an example; the REPL's `:help`, tab completion and `lg --check` read the same table.
//!
//! Builtins are grouped by what they work on: [`core`] (numbers, collections, functions),
//! [`objects`] (constructors and accessors of the papers' objects), [`geometry`], [`solve`],
//! [`finite`] and [`heap`] games, [`sets`] (the set algebra and rational generating functions),
//! [`members`] (membership and members of any set) and [`certify`] (`verify` and `stratify`).

mod certify;
mod core;
mod counting;
mod finite;
mod geometry;
mod heap;
mod heap_values;
mod limits;
mod members;
pub(crate) mod objects;
mod quotients;
pub(crate) mod sets;
pub(crate) mod short_forms;
mod solve;
mod sweeps;

use std::sync::OnceLock;

use indexmap::IndexMap;

use super::error::article;
use super::interp::iterate;
use super::value::{Function, Value};
use super::{EvalError, Interpreter};
use crate::algebra::{Integer, Vector};
use crate::syntax::Span;

/// The Rust function behind a builtin.
pub type BuiltinFn = fn(&mut Interpreter, &mut Args) -> Result<Value, EvalError>;

/// One builtin function: its name, signature, documentation and implementation.
pub struct Builtin {
    /// The name scripts call it by.
    pub name: &'static str,
    /// The signature as users read it, e.g. `ruleset(moves) -> rule set`.
    pub signature: &'static str,
    /// What it does (a paragraph; may name the paper definition it implements).
    pub doc: &'static str,
    /// A short example that runs.
    pub example: &'static str,
    /// Fewest positional arguments.
    pub min_args: usize,
    /// Most positional arguments (`None`: any number).
    pub max_args: Option<usize>,
    /// Named arguments it accepts.
    pub named: &'static [&'static str],
    /// The implementation.
    pub func: BuiltinFn,
}

fn table() -> &'static IndexMap<&'static str, Builtin> {
    static TABLE: OnceLock<IndexMap<&'static str, Builtin>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut all = Vec::new();
        core::register(&mut all);
        objects::register(&mut all);
        geometry::register(&mut all);
        solve::register(&mut all);
        finite::register(&mut all);
        heap::register(&mut all);
        heap_values::register(&mut all);
        quotients::register(&mut all);
        sets::register(&mut all);
        counting::register(&mut all);
        certify::register(&mut all);
        members::register(&mut all);
        sweeps::register(&mut all);
        limits::register(&mut all);
        let mut map = IndexMap::new();
        for b in all {
            let name = b.name;
            assert!(
                map.insert(name, b).is_none(),
                "builtin `{name}` registered twice"
            );
        }
        map
    })
}

/// The P-positions of a solution, as vectors.
pub(crate) fn solution_p_positions(s: &crate::game::solver::Solution) -> Vec<Value> {
    solve::p_positions(s)
}

/// An integer as people write it: 2^k for large powers of two.
fn readable(x: i64) -> String {
    if x >= 1024 && x.count_ones() == 1 {
        format!("2^{}", x.trailing_zeros())
    } else {
        x.to_string()
    }
}

/// The defaults of named arguments, as (builtin, argument, value as written in the docs), taken
/// from the code that applies them (the docs test checks the documents against these).
pub fn named_defaults() -> Vec<(&'static str, &'static str, String)> {
    let stratify = crate::game::stratify::StratifyOptions::default();
    let limits = crate::game::quotient::QuotientLimits::default();
    vec![
        (
            "stratify",
            "timeout",
            stratify.timeout.map_or(0, |t| t.as_secs()).to_string(),
        ),
        (
            "misere_quotient",
            "max_elements",
            limits.max_elements.to_string(),
        ),
        (
            "misere_quotient",
            "max_heap",
            quotients::DEFAULT_MAX_HEAP.to_string(),
        ),
        (
            "misere_quotient",
            "max_elements",
            quotients::DEFAULT_LATTICE_CLASSES.to_string(),
        ),
    ]
}

/// Every builtin, in registration order.
pub fn all() -> Vec<&'static Builtin> {
    table().values().collect()
}

/// The builtin called `name`.
pub fn find(name: &str) -> Option<&'static Builtin> {
    table().get(name)
}

/// The help text of a builtin, as `:help name` prints it.
pub fn help_text(b: &Builtin) -> String {
    let mut s = format!("{}\n\n", b.signature);
    for line in b.doc.lines() {
        s.push_str("  ");
        s.push_str(line.trim());
        s.push('\n');
    }
    s.push_str("\n  Example:\n");
    for line in b.example.lines() {
        s.push_str("    ");
        s.push_str(line);
        s.push('\n');
    }
    s
}

/// The arguments of one builtin call, with the span each came from.
pub struct Args {
    /// The builtin being called.
    pub builtin: &'static Builtin,
    /// The span of the whole call.
    pub span: Span,
    positional: Vec<(Value, Span)>,
    named: Vec<(String, Value, Span)>,
}

fn ordinal(i: usize) -> &'static str {
    [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    ]
    .get(i)
    .copied()
    .unwrap_or("next")
}

impl Args {
    /// Checks the number of arguments and the named ones against the builtin's signature.
    pub fn new(
        builtin: &'static Builtin,
        positional: Vec<(Value, Span)>,
        named: Vec<(String, Value, Span)>,
        span: Span,
    ) -> Result<Args, EvalError> {
        let n = positional.len();
        let too_few = n < builtin.min_args;
        let too_many = builtin.max_args.is_some_and(|m| n > m);
        if too_few || too_many {
            let expected = match builtin.max_args {
                Some(m) if m == builtin.min_args => format!("{m}"),
                Some(m) => format!("{} to {m}", builtin.min_args),
                None => format!("at least {}", builtin.min_args),
            };
            let span = if too_many {
                positional[builtin.max_args.unwrap_or(0)]
                    .1
                    .to(positional[n - 1].1)
            } else {
                span
            };
            return Err(EvalError::new(
                "lg::eval::arity",
                format!(
                    "`{}` takes {expected} argument{}, but {n} {} given",
                    builtin.name,
                    if expected == "1" || expected == "at least 1" {
                        ""
                    } else {
                        "s"
                    },
                    if n == 1 { "was" } else { "were" }
                ),
                span,
                if too_many {
                    "extra arguments".to_string()
                } else {
                    format!("{n} given")
                },
            )
            .with_help(format!(
                "the signature is `{}`; for example `{}`",
                builtin.signature,
                first_line(builtin.example)
            )));
        }
        for (name, _, s) in &named {
            if !builtin.named.contains(&name.as_str()) {
                let help = if builtin.named.is_empty() {
                    format!("`{}` takes no named arguments", builtin.name)
                } else {
                    format!(
                        "it accepts {}",
                        builtin
                            .named
                            .iter()
                            .map(|n| format!("`{n}:`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                return Err(EvalError::new(
                    "lg::eval::argument",
                    format!("`{}` has no argument named `{name}`", builtin.name),
                    *s,
                    "unknown argument name",
                )
                .with_help(help));
            }
        }
        Ok(Args {
            builtin,
            span,
            positional,
            named,
        })
    }

    /// Number of positional arguments.
    pub fn len(&self) -> usize {
        self.positional.len()
    }

    /// Whether there are no positional arguments.
    pub fn is_empty(&self) -> bool {
        self.positional.is_empty()
    }

    /// The `i`-th positional argument.
    pub fn value(&self, i: usize) -> &Value {
        &self.positional[i].0
    }

    /// The span of the `i`-th positional argument.
    pub fn span(&self, i: usize) -> Span {
        self.positional[i].1
    }

    /// All positional arguments.
    pub fn values(&self) -> impl Iterator<Item = &(Value, Span)> {
        self.positional.iter()
    }

    /// A named argument, if given.
    pub fn named(&self, name: &str) -> Option<(&Value, Span)> {
        self.named
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, v, s)| (v, *s))
    }

    /// The `timeout:` argument in seconds (1 to 2^30), if given.
    pub fn timeout(&self) -> Result<Option<u64>, EvalError> {
        Ok(self
            .named_int_in("timeout", 1, 1 << 30, "a positive number of seconds")?
            .map(|s| s as u64))
    }

    /// A type error about argument `i`.
    pub fn wrong(&self, i: usize, expected: &str) -> EvalError {
        let v = self.value(i);
        EvalError::type_error(
            &format!("the {} argument of `{}`", ordinal(i), self.builtin.name),
            expected,
            v.type_name(),
            self.span(i),
        )
        .with_help(format!(
            "the signature is `{}`; for example `{}`",
            self.builtin.signature,
            first_line(self.builtin.example)
        ))
    }

    /// Argument `i` as an integer.
    pub fn int(&self, i: usize) -> Result<Integer, EvalError> {
        match self.value(i) {
            Value::Int(k) => Ok(k.clone()),
            _ => Err(self.wrong(i, "an integer")),
        }
    }

    /// Argument `i` as an integer in `lo..=hi`.
    pub fn int_in(&self, i: usize, lo: i64, hi: i64, what: &str) -> Result<i64, EvalError> {
        let k = self.int(i)?;
        match k.to_i64() {
            Some(v) if (lo..=hi).contains(&v) => Ok(v),
            _ => Err(EvalError::new(
                "lg::eval::value",
                format!("{what} must lie between {lo} and {hi}, not {k}"),
                self.span(i),
                "out of range",
            )),
        }
    }

    /// The named flag `name` (`default` when it is not given); anything but `true` or `false` is
    /// a type error.
    pub fn named_bool(&self, name: &str, default: bool) -> Result<bool, EvalError> {
        match self.named(name) {
            None => Ok(default),
            Some((Value::Bool(b), _)) => Ok(*b),
            Some((v, span)) => Err(EvalError::type_error(
                name,
                "true or false",
                v.type_name(),
                span,
            )),
        }
    }

    /// The named argument `name` as an integer from lo to hi (`None` when it is not given). A value
    /// of another type and an integer out of range get different messages, each saying what the
    /// value is and what would be right (`expected`, e.g. "a positive number of seconds").
    pub fn named_int_in(
        &self,
        name: &str,
        lo: i64,
        hi: i64,
        expected: &str,
    ) -> Result<Option<i64>, EvalError> {
        let Some((v, span)) = self.named(name) else {
            return Ok(None);
        };
        let Value::Int(k) = v else {
            return Err(EvalError::type_error(name, expected, v.type_name(), span));
        };
        match k.to_i64() {
            Some(x) if (lo..=hi).contains(&x) => Ok(Some(x)),
            _ => Err(EvalError::new(
                "lg::eval::value",
                format!("{name} must be {expected}, but it is {k}"),
                span,
                format!("{k} is out of range"),
            )
            .with_help(format!(
                "give {name}: an integer from {} to {}",
                readable(lo),
                readable(hi)
            ))),
        }
    }

    /// Argument `i` as an integer vector.
    pub fn vector(&self, i: usize) -> Result<Vector, EvalError> {
        match self.value(i) {
            Value::Vector(v) => Ok((**v).clone()),
            _ => Err(self.wrong(i, "an integer vector such as (1, 0)")),
        }
    }

    /// Argument `i` as a collection of vectors (a set, list, matrix columns, rule set or one vector).
    pub fn vectors(&self, i: usize, what: &str) -> Result<Vec<Vector>, EvalError> {
        as_vectors(self.value(i), what, self.span(i))
    }

    /// Argument `i` as a function.
    pub fn function(&self, i: usize) -> Result<Function, EvalError> {
        match self.value(i) {
            Value::Function(f) => Ok(f.clone()),
            _ => Err(self.wrong(i, "a function")),
        }
    }

    /// Argument `i` as the elements of a collection.
    pub fn elements(&self, i: usize) -> Result<Vec<Value>, EvalError> {
        iterate(self.value(i), self.span(i)).map(std::rc::Rc::unwrap_or_clone)
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// The moves of a rule set as dense vectors, refused before they are written out when they (and
/// the values made of them) would not fit in memory: a heap game of a thousand heap sizes keeps
/// half a million moves by their nonzero entries, which as vectors take gigabytes.
pub(crate) fn dense_moves(r: &crate::game::RuleSet, span: Span) -> Result<&[Vector], EvalError> {
    let need = r.dense_bytes().saturating_mul(3);
    let budget = crate::memory::budget();
    if need > budget {
        return Err(EvalError::new(
            "lg::eval::too_large",
            format!(
                "the {} moves of this rule set, as vectors in Z^{}, would take about {} MiB, more than the {} MiB available",
                r.len(),
                r.dim(),
                need >> 20,
                budget >> 20
            ),
            span,
            "too many moves to list",
        )
        .with_help("ask about positions instead (`outcome`, `winning_moves`, `grundy`, `p in rules(G)`), or build the game with fewer heap sizes"));
    }
    Ok(r.moves())
}

/// Reads a value as a collection of integer vectors: a vector, a set or list of vectors, the
/// columns of a matrix (as in the papers), or the moves of a rule set.
pub fn as_vectors(v: &Value, what: &str, span: Span) -> Result<Vec<Vector>, EvalError> {
    match v {
        Value::Vector(x) => Ok(vec![(**x).clone()]),
        Value::Matrix(m) => Ok(m.columns()),
        Value::RuleSet(r) => Ok(dense_moves(r, span)?.to_vec()),
        Value::Set(items) | Value::List(items) => {
            let mut out = Vec::with_capacity(items.len());
            for x in items.iter() {
                match x {
                    Value::Vector(v) => out.push((**v).clone()),
                    other => {
                        return Err(EvalError::new(
                            "lg::eval::type",
                            format!("{what} must be an integer vector, but this collection holds {} ({other})", article(other.type_name())),
                            span,
                            format!("holds {}", article(other.type_name())),
                        )
                        .with_help("write vectors with integer coordinates, such as (1, 0, -1)"))
                    }
                }
            }
            Ok(out)
        }
        other => Err(EvalError::type_error(
            what,
            "an integer vector, a set or list of vectors, or a matrix",
            other.type_name(),
            span,
        )
        .with_help("a matrix stands for its columns, as in the papers: `[1 0 -1; 0 1 1]`")),
    }
}

/// Whether `element` lies in `collection` (`element in collection`, `contains(collection, element)`).
pub fn contains(
    collection: &Value,
    element: &Value,
    cspan: Span,
    espan: Span,
) -> Result<bool, EvalError> {
    match collection {
        Value::Set(items) => Ok(items.binary_search(element).is_ok()),
        Value::List(items) | Value::Tuple(items) => Ok(items.contains(element)),
        Value::Str(s) => match element {
            Value::Str(e) => Ok(s.contains(&**e)),
            other => Err(EvalError::type_error("what is looked for in a string", "a string", other.type_name(), espan)),
        },
        Value::Matrix(m) => Ok(matches!(element, Value::Vector(v) if m.columns().contains(v))),
        Value::RuleSet(r) => Ok(matches!(element, Value::Vector(v)
            if v.dim() == r.dim() && r.sparse_moves().contains(&crate::algebra::SparseVector::from_dense(v)))),
        Value::Cone(_) | Value::Polyhedron(_) => {
            let Value::Vector(p) = element else {
                return Err(EvalError::type_error("a point of a cone or polyhedron", "an integer vector", element.type_name(), espan));
            };
            let direct = match collection {
                Value::Cone(c) => check_dim(c.dim(), p, espan).map(|_| c.contains_directly(p))?,
                Value::Polyhedron(q) => check_dim(q.dim(), p, espan).map(|_| q.contains_directly(p))?,
                _ => unreachable!("matched above"),
            };
            match direct {
                Some(b) => Ok(b),
                None => {
                    let cone = match collection {
                        Value::Cone(c) => (**c).clone(),
                        Value::Polyhedron(q) => match &**q {
                            crate::algebra::Polyhedron::Cone(c) => c.clone(),
                            _ => unreachable!("inequalities are decided directly"),
                        },
                        _ => unreachable!("matched above"),
                    };
                    let data = crate::algebra::polyhedral::ConeData::of(&cone)
                        .map_err(|e| EvalError::new("lg::eval::algebra", e.to_string(), cspan, "this cone"))?;
                    Ok(data.contains(p))
                }
            }
        }
        Value::Genfunc(f) => {
            let Value::Vector(p) = element else {
                return Err(EvalError::type_error("a point", "an integer vector", element.type_name(), espan));
            };
            check_dim(f.f.dim(), p, espan)?;
            Ok(sets::genfunc_contains(f, p))
        }
        Value::ShortGenfunc(f) => {
            let Value::Vector(p) = element else {
                return Err(EvalError::type_error("a point", "an integer vector", element.type_name(), espan));
            };
            check_dim(f.f.dim(), p, espan)?;
            short_forms::contains(f, p, cspan)
        }
        Value::StratifiedSet(s) => {
            let Value::Vector(p) = element else {
                return Err(EvalError::type_error("a point", "an integer vector", element.type_name(), espan));
            };
            check_dim(s.dim(), p, espan)?;
            Ok(s.contains(p))
        }
        Value::Semigroup(_) | Value::Module(_) | Value::Stratification(_) => {
            let Value::Vector(p) = element else {
                return Err(EvalError::type_error("a point of a semigroup or module", "an integer vector", element.type_name(), espan));
            };
            let d = match collection {
                Value::Semigroup(s) => s.dim(),
                Value::Module(m) => m.dim(),
                Value::Stratification(s) => s.dim(),
                _ => unreachable!("matched above"),
            };
            check_dim(d, p, espan)?;
            let err = |e: crate::algebra::AlgebraError| {
                EvalError::new("lg::eval::algebra", e.to_string(), cspan, "this set")
                    .with_help("membership is decided exactly for pointed semigroups and their modules")
            };
            let in_module = |m: &crate::algebra::AffineModule| -> Result<bool, EvalError> {
                for f in m.offsets() {
                    if m.semigroup().contains(&p.sub(f)).map_err(err)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            };
            match collection {
                Value::Semigroup(s) => s.contains(p).map_err(err),
                Value::Module(m) => in_module(m),
                Value::Stratification(s) => {
                    for w in s.pieces() {
                        if in_module(w)? {
                            return Ok(true);
                        }
                    }
                    Ok(false)
                }
                _ => unreachable!("matched above"),
            }
        }
        Value::Solution(s) => {
            let Value::Vector(p) = element else {
                return Err(EvalError::type_error("a position", "an integer vector", element.type_name(), espan));
            };
            check_dim(s.game().dim(), p, espan)?;
            match crate::game::solver::machine_or_none(p).and_then(|q| s.outcome(&q)) {
                Some(o) => Ok(o == crate::game::solver::Outcome::P),
                None => Err(EvalError::new(
                    "lg::eval::region",
                    format!("{p} lies outside the solved region ({})", s.description()),
                    espan,
                    "not solved",
                )
                .with_help("ask `outcome(G, p)` of the game, or solve a larger region")),
            }
        }
        Value::Board(_) => Err(EvalError::new(
            "lg::eval::not_available",
            "membership in a board needs its defeated ideal, which depends on the rule set: ask the game instead, `outcome(G, p)`",
            cspan,
            "a board",
        )
        .with_help("test `p in polyhedron` for the lattice points Λ, and compare with the defeated positions")),
        other => Err(EvalError::type_error(
            "the right side of `in`",
            "a collection (set, list, tuple, string, matrix, rule set, cone or polyhedron)",
            other.type_name(),
            cspan,
        )),
    }
}

fn check_dim(d: usize, p: &Vector, span: Span) -> Result<(), EvalError> {
    if p.dim() != d {
        return Err(EvalError::new(
            "lg::eval::dimension",
            format!(
                "the point {p} has {} coordinates, but the set lives in dimension {d}",
                p.dim()
            ),
            span,
            format!("dimension {}", p.dim()),
        ));
    }
    Ok(())
}

/// Runs `f` within `timeout` seconds when given: past it, the computation stops as with Ctrl-C
/// and the error says the time ran out (Ctrl-C itself stays an interruption).
pub(crate) fn within_timeout(
    timeout: Option<u64>,
    span: crate::syntax::Span,
    f: impl FnOnce() -> Result<Value, EvalError>,
) -> Result<Value, EvalError> {
    let Some(secs) = timeout else {
        return f();
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    match crate::interrupt::with_deadline(deadline, f) {
        Err(e) if e.code == "lg::eval::interrupted" && !crate::interrupt::user_requested() => {
            Err(EvalError::new(
                "lg::eval::timeout",
                format!("the time limit of {secs} s passed"),
                span,
                "out of time",
            )
            .with_help("give it more time (`timeout:`), or ask for less"))
        }
        r => r,
    }
}
