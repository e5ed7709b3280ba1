//! The tree-walking evaluator: statements, expressions, calls, loops and comprehensions.

use std::io::Write;
use std::rc::Rc;

use num_rational::BigRational;

use super::builtins::{self, Args};
use super::env::{new_frame, Env};
use super::error::{article, reserve};
use super::ops;
use super::value::{Closure, Function, Value};
use super::{diagnostic, EvalError, SourceMap};
use crate::algebra::{AffineSemigroup, Integer, Matrix, Vector};
use crate::syntax::ast::*;
use crate::syntax::{parse_program, SourceId, Span};

/// The deepest chain of function calls accepted before reporting runaway recursion.
const MAX_CALL_DEPTH: usize = 2000;

/// The standard library written in `.lg`, loaded in this order before every script and session.
const STDLIB: &[(&str, &str)] = &[
    ("<prelude>", include_str!("../../stdlib/prelude.lg")),
    ("<stdlib/sweeps.lg>", include_str!("../../stdlib/sweeps.lg")),
];

/// What running one statement produced, for the REPL to echo.
#[derive(Debug)]
pub enum Outcome {
    /// An expression statement's value.
    Value(Value),
    /// A binding or definition (nothing to echo).
    Bound(String),
    /// An assertion that held, or a statement with no value.
    Done,
}

/// An interpreter: sources, the prelude, the global environment and the output sink.
pub struct Interpreter {
    /// Every source text read so far (for diagnostics).
    pub sources: SourceMap,
    globals: Env,
    prelude: Env,
    out: Box<dyn Write>,
    depth: usize,
    steps_left: Option<u64>,
    /// Single-position solvers of the games asked about most recently, with their memos.
    pub(crate) solvers: Vec<(crate::game::LatticeGame, crate::game::solver::MemoSolver)>,
    /// The misère quotients proved for games asked about (`None`: not a sum of heaps in misère
    /// play), which answer their positions.
    pub(crate) heap_sums: Vec<(
        crate::game::LatticeGame,
        Option<crate::game::quotient::HeapSumAnswers>,
    )>,
    /// The sweep this process runs a shard of (`lg --shard`, `--results`, `--set`).
    pub sweep: crate::sweep::SweepContext,
    /// How a picture whose value would be dropped is shown (a notebook draws it); by default its
    /// text form is printed.
    display: Option<DisplayHook>,
    /// Whether the statements run now are a script's, whose values are dropped.
    in_script: bool,
}

/// A front end's way of showing a value at once (see [`Interpreter::set_display`]).
pub type DisplayHook = Box<dyn FnMut(&Value)>;

impl Drop for Interpreter {
    /// Breaks the cycles between the global and prelude frames and the functions bound in them.
    fn drop(&mut self) {
        self.globals.clear();
        self.prelude.clear();
    }
}

impl Interpreter {
    /// A fresh interpreter printing to standard output, with the prelude loaded.
    pub fn new() -> Interpreter {
        Interpreter::with_output(Box::new(std::io::stdout()))
    }

    /// A fresh interpreter printing to `out`, with the prelude loaded.
    pub fn with_output(out: Box<dyn Write>) -> Interpreter {
        let prelude = new_frame(None);
        // ℕ (also spelled N): the semigroup of natural numbers, so that `N^2`, `2N^2` read as in the papers.
        let naturals = Value::Semigroup(Rc::new(AffineSemigroup::orthant(1).expect("dimension 1")));
        prelude.set("N", naturals.clone());
        prelude.set("ℕ", naturals);
        let mut interp = Interpreter {
            sources: SourceMap::default(),
            globals: new_frame(None),
            prelude: prelude.clone(),
            out,
            depth: 0,
            steps_left: None,
            display: None,
            in_script: false,
            solvers: Vec::new(),
            heap_sums: Vec::new(),
            sweep: crate::sweep::SweepContext::default(),
        };
        let saved = std::mem::replace(&mut interp.globals, prelude);
        for (name, text) in STDLIB {
            let id = interp.sources.add(name, text);
            let program = parse_program(text, id).expect("the standard library parses");
            for stmt in &program.stmts {
                let env = interp.globals.clone();
                interp.exec(stmt, &env).expect("the standard library runs");
            }
        }
        let prelude = std::mem::replace(&mut interp.globals, saved);
        interp.prelude = prelude.clone();
        interp.globals = new_frame(Some(prelude));
        interp
    }

    /// Limits the number of evaluation steps (expressions evaluated) from now on; `None` removes the
    /// limit. Fuzzing and property tests use this so that no generated input runs for long.
    pub fn set_step_limit(&mut self, steps: Option<u64>) {
        self.steps_left = steps;
    }

    /// Registers a source text under `name` and parses it.
    pub fn parse(&mut self, name: &str, text: &str) -> Result<(SourceId, Program), EvalError> {
        let id = self.sources.add(name, text);
        let program = parse_program(text, id)?;
        Ok((id, program))
    }

    /// The text of a script read as bytes, or a diagnostic at its first byte that is not UTF-8
    /// (the source is kept, with that byte shown as U+FFFD, so the diagnostic can point at it).
    pub fn script_text(&mut self, name: &str, bytes: Vec<u8>) -> Result<String, EvalError> {
        let e = match String::from_utf8(bytes) {
            Ok(text) => return Ok(text),
            Err(e) => e,
        };
        let at = e.utf8_error().valid_up_to();
        let bad = e.as_bytes()[at];
        let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
        let id = self.sources.add(name, &text);
        let line = text[..at].matches('\n').count() + 1;
        let span = Span::new(id, at, at + '\u{FFFD}'.len_utf8());
        Err(EvalError::new(
            "lg::parse::encoding",
            format!("this text is not UTF-8: byte 0x{bad:02x} on line {line} starts no character"),
            span,
            "not UTF-8 (shown as �)",
        )
        .with_help(
            "scripts are read as UTF-8: convert the file, for example with \
             `iconv -f LATIN1 -t UTF-8 FILE`, or write the character as its ASCII spelling",
        ))
    }

    /// Parses and runs `text`; returns the outcome of each statement.
    pub fn run(&mut self, name: &str, text: &str) -> Result<Vec<Outcome>, EvalError> {
        let (_, program) = self.parse(name, text)?;
        self.run_program(&program)
    }

    /// Parses and runs `text` as a script, where the value of an expression statement is dropped:
    /// a statement that begins with `-` (after `let z = 1` on the line before, `  - 2` looks like
    /// a continuation but is a statement of its own) is refused before anything runs, with the
    /// ways to continue a line.
    pub fn run_script(&mut self, name: &str, text: &str) -> Result<Vec<Outcome>, EvalError> {
        let (_, program) = self.parse(name, text)?;
        for (i, stmt) in program.stmts.iter().enumerate() {
            if let StmtKind::Expr(e) = &stmt.kind {
                if let ExprKind::Unary(UnaryOp::Neg, _) = &e.kind {
                    let after = if i > 0 {
                        " after the statement before it"
                    } else {
                        ""
                    };
                    return Err(EvalError::new(
                        "lg::eval::dropped_continuation",
                        format!("this line starts with `-` and its value would be dropped{after}: a line ends a statement, so it does not continue the line above"),
                        e.span,
                        "a statement of its own",
                    )
                    .with_help("to continue an expression on the next line, end the line above with the operator (e.g. `let z = 1 -`, then `2` below) or wrap the expression in parentheses; to print a value, use `print(...)`"));
                }
            }
        }
        self.in_script = true;
        let result = self.run_program(&program);
        self.in_script = false;
        result
    }

    /// Shows a picture whose value is dropped (a statement of a script, a loop's body, a
    /// statement in a block before its last): through the display hook when a front end set
    /// one, otherwise as text. Other values are dropped silently.
    fn show_dropped(&mut self, v: &Value) {
        if !matches!(v, Value::Picture(_)) {
            return;
        }
        match self.display.as_mut() {
            Some(hook) => {
                let _ = self.out.flush();
                hook(v);
            }
            None => {
                let text = v.to_string();
                self.write_line(&text);
            }
        }
    }

    /// Flushes the output sink (a front end streaming it sends what is left).
    pub fn flush_output(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }

    /// Sets how pictures are shown when their value would be dropped (a notebook kernel sends
    /// them as rich displays).
    pub fn set_display(&mut self, hook: DisplayHook) {
        self.display = Some(hook);
    }

    /// Runs parsed statements in the global environment, stopping at the first error.
    pub fn run_program(&mut self, program: &Program) -> Result<Vec<Outcome>, EvalError> {
        let mut outcomes = Vec::new();
        let env = self.globals.clone();
        for stmt in &program.stmts {
            let outcome = self.exec(stmt, &env)?;
            if let (true, Outcome::Value(v)) = (self.in_script, &outcome) {
                self.show_dropped(v);
            }
            outcomes.push(outcome);
        }
        let _ = self.out.flush();
        Ok(outcomes)
    }

    /// Evaluates one expression in the global environment (used by `:type`).
    pub fn eval_global(&mut self, expr: &Expr) -> Result<Value, EvalError> {
        let env = self.globals.clone();
        self.eval(expr, &env)
    }

    /// Renders an error as a plain or coloured report.
    pub fn render(&self, err: &EvalError, style: diagnostic::Style) -> String {
        diagnostic::render(err, &self.sources, style)
    }

    /// Every name bound in the user's environment and the prelude, and every builtin.
    pub fn names(&self) -> Vec<String> {
        let mut names = self.globals.names();
        for b in builtins::all() {
            if !names.iter().any(|n| n == b.name) {
                names.push(b.name.to_string());
            }
        }
        names
    }

    /// The value bound to `name`, if any (user, prelude or builtin).
    pub fn lookup(&self, name: &str) -> Option<Value> {
        self.globals
            .get(name)
            .or_else(|| builtins::find(name).map(|b| Value::Function(Function::Builtin(b))))
    }

    /// How many sources are registered (the newest has id `sources_len() - 1`).
    pub fn sources_len(&self) -> u32 {
        self.sources.len() as u32
    }

    /// The comment written above a prelude function, with its signature, for `:help`.
    pub fn prelude_doc(&self, name: &str) -> Option<String> {
        let mut comment: Vec<&str> = Vec::new();
        for line in STDLIB.iter().flat_map(|(_, text)| text.lines()) {
            let t = line.trim();
            if let Some(c) = t.strip_prefix('#') {
                comment.push(c.trim());
                continue;
            }
            if let Some(rest) = t.strip_prefix("fn ") {
                let sig = rest
                    .split_once(')')
                    .map(|(head, _)| format!("{head})"))
                    .unwrap_or_default();
                if sig.split('(').next() == Some(name) {
                    return Some(format!(
                        "{sig}   (prelude, written in .lg)\n\n  {}\n",
                        comment.join("\n  ")
                    ));
                }
            }
            comment.clear();
        }
        None
    }

    /// Names defined by the prelude.
    pub fn prelude_names(&self) -> Vec<String> {
        self.prelude.own_names()
    }

    /// The prelude's names with the number of parameters of those that are functions defined in
    /// the language (for `lg --check`).
    pub fn prelude_arities(&self) -> Vec<(String, Option<usize>)> {
        self.prelude
            .own_names()
            .into_iter()
            .map(|n| {
                let arity = match self.prelude.get(&n) {
                    Some(Value::Function(Function::Closure(c))) => Some(c.params.len()),
                    _ => None,
                };
                (n, arity)
            })
            .collect()
    }

    /// Writes a line to the output sink.
    pub fn write_line(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }

    fn exec(&mut self, stmt: &Stmt, env: &Env) -> Result<Outcome, EvalError> {
        match &stmt.kind {
            StmtKind::Let { name, value } => {
                let v = self.eval(value, env)?;
                let v = name_function(v, &name.name);
                env.set(&name.name, v);
                Ok(Outcome::Bound(name.name.clone()))
            }
            StmtKind::Assign { name, value } => {
                let v = self.eval(value, env)?;
                if env.get(&name.name).is_none() || !env.assign(&name.name, v) {
                    return Err(EvalError::new(
                        "lg::eval::unknown_name",
                        format!("`{}` cannot be assigned: it is not bound yet", name.name),
                        name.span,
                        "not bound",
                    )
                    .with_help(format!(
                        "bind it first with `let {} = ...`; `=` then changes its value",
                        name.name
                    )));
                }
                Ok(Outcome::Bound(name.name.clone()))
            }
            StmtKind::Fn { name, params, body } => {
                check_params(params)?;
                let closure = Closure {
                    name: Some(name.name.clone()),
                    params: params.clone(),
                    body: body.clone(),
                    env: env.clone(),
                };
                env.set(
                    &name.name,
                    Value::Function(Function::Closure(Rc::new(closure))),
                );
                Ok(Outcome::Bound(name.name.clone()))
            }
            StmtKind::Assert { cond, message } => {
                let c = self.eval(cond, env)?;
                // A false condition, or a verdict of `verify` that is not a certificate (whose
                // explanation is the default message).
                let (default, label) = match &c {
                    Value::Bool(true) => return Ok(Outcome::Done),
                    Value::Verification(v) if v.is_certified() => return Ok(Outcome::Done),
                    Value::Bool(false) => ("assertion failed".to_string(), "this is false"),
                    Value::Verification(v) => (v.to_string(), "not certified"),
                    other => {
                        return Err(EvalError::type_error(
                            "the condition of `assert`",
                            "true or false",
                            other.type_name(),
                            cond.span,
                        ))
                    }
                };
                let msg = match message {
                    Some(m) => self.eval(m, env)?.to_print_string(),
                    None => default,
                };
                Err(EvalError::new("lg::eval::assert", msg, cond.span, label))
            }
            StmtKind::Expr(e) => Ok(Outcome::Value(self.eval(e, env)?)),
        }
    }

    /// Evaluates an expression in an environment. Deep recursion (nested calls of `.lg`
    /// functions) grows the stack on the heap as needed, so it is safe on any thread; the depth is
    /// bounded by the call-depth limit.
    pub fn eval(&mut self, expr: &Expr, env: &Env) -> Result<Value, EvalError> {
        stacker::maybe_grow(128 * 1024, 8 * 1024 * 1024, || self.eval_inner(expr, env))
    }

    fn eval_inner(&mut self, expr: &Expr, env: &Env) -> Result<Value, EvalError> {
        let span = expr.span;
        if let Some(left) = self.steps_left.as_mut() {
            if *left == 0 {
                return Err(EvalError::new(
                    "lg::eval::step_limit",
                    "the step limit of this interpreter was reached",
                    span,
                    "stopped here",
                ));
            }
            *left -= 1;
        }
        match &expr.kind {
            ExprKind::Int(i) => Ok(Value::Int(Integer::from(i))),
            ExprKind::Rational(n, d) => Ok(Value::rational(BigRational::new(n.clone(), d.clone()))),
            ExprKind::Str(s) => Ok(Value::str(s)),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Name(n) => self.lookup_name(n, span, env),
            ExprKind::Tuple(items) => Ok(Value::tuple(self.eval_all(items, env)?)),
            ExprKind::List(items) => Ok(Value::list(self.eval_all(items, env)?)),
            ExprKind::Set(items) => Ok(Value::set(self.eval_all(items, env)?)),
            ExprKind::Matrix(rows) => self.eval_matrix(rows, env),
            ExprKind::Semigroup(items) => self.eval_semigroup(items, span, env),
            ExprKind::Comprehension {
                kind,
                body,
                clauses,
            } => {
                let mut out = Vec::new();
                let frame = new_frame(Some(env.clone()));
                self.comprehend(body, clauses, &frame, &mut out)?;
                Ok(match kind {
                    CollectionKind::List => Value::list(out),
                    CollectionKind::Set => Value::set(out),
                })
            }
            ExprKind::Unary(op, x) => {
                let v = self.eval(x, env)?;
                ops::unary(*op, v, span, x.span)
            }
            ExprKind::Binary(BinaryOp::And, l, r) => {
                if self.eval_bool(l, env, "the left side of `and`")? {
                    Ok(Value::Bool(self.eval_bool(
                        r,
                        env,
                        "the right side of `and`",
                    )?))
                } else {
                    Ok(Value::Bool(false))
                }
            }
            ExprKind::Binary(BinaryOp::Or, l, r) => {
                if self.eval_bool(l, env, "the left side of `or`")? {
                    Ok(Value::Bool(true))
                } else {
                    Ok(Value::Bool(self.eval_bool(
                        r,
                        env,
                        "the right side of `or`",
                    )?))
                }
            }
            ExprKind::Binary(op, l, r) => {
                let lv = self.eval(l, env)?;
                let rv = self.eval(r, env)?;
                ops::binary(*op, lv, rv, l.span, r.span)
            }
            ExprKind::Call { callee, args } => self.eval_call(callee, args, span, env),
            ExprKind::Index { base, index } => {
                let b = self.eval(base, env)?;
                let i = self.eval(index, env)?;
                ops::index(b, i, base.span, index.span)
            }
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                if self.eval_bool(cond, env, "the condition of `if`")? {
                    self.eval(then, env)
                } else if let Some(o) = otherwise {
                    self.eval(o, env)
                } else {
                    Ok(Value::Nothing)
                }
            }
            ExprKind::For { var, iter, body } => {
                let coll = self.eval(iter, env)?;
                let items = iterate(&coll, iter.span)?;
                for item in items.iter().cloned() {
                    if crate::interrupt::requested() {
                        return Err(EvalError::interrupted(span));
                    }
                    let frame = new_frame(Some(env.clone()));
                    frame.set(&var.name, item);
                    let v = self.eval(body, &frame)?;
                    self.show_dropped(&v);
                }
                Ok(Value::Nothing)
            }
            ExprKind::Lambda { params, body } => {
                check_params(params)?;
                Ok(Value::Function(Function::Closure(Rc::new(Closure {
                    name: None,
                    params: params.clone(),
                    body: body.clone(),
                    env: env.clone(),
                }))))
            }
            ExprKind::Block(stmts) => {
                let frame = new_frame(Some(env.clone()));
                let mut last = Value::Nothing;
                for s in stmts {
                    self.show_dropped(&last);
                    last = match self.exec(s, &frame)? {
                        Outcome::Value(v) => v,
                        _ => Value::Nothing,
                    };
                }
                Ok(last)
            }
        }
    }

    fn eval_all(&mut self, items: &[Expr], env: &Env) -> Result<Vec<Value>, EvalError> {
        items.iter().map(|e| self.eval(e, env)).collect()
    }

    fn eval_bool(&mut self, e: &Expr, env: &Env, what: &str) -> Result<bool, EvalError> {
        match self.eval(e, env)? {
            Value::Bool(b) => Ok(b),
            other => Err(EvalError::type_error(
                what,
                "true or false",
                other.type_name(),
                e.span,
            )),
        }
    }

    fn lookup_name(&self, name: &str, span: Span, env: &Env) -> Result<Value, EvalError> {
        if let Some(v) = env.get(name) {
            return Ok(v);
        }
        if let Some(b) = builtins::find(name) {
            return Ok(Value::Function(Function::Builtin(b)));
        }
        let mut candidates = env.names();
        candidates.extend(builtins::all().iter().map(|b| b.name.to_string()));
        let mut err = EvalError::new(
            "lg::eval::unknown_name",
            format!("`{name}` is not defined"),
            span,
            "unknown name",
        );
        err = match closest(name, &candidates) {
            Some(s) => err.with_help(format!("did you mean `{s}`?")),
            None => err.with_help(format!("define it first, e.g. `let {name} = ...`")),
        };
        Err(err)
    }

    fn eval_matrix(&mut self, rows: &[Vec<Expr>], env: &Env) -> Result<Value, EvalError> {
        let mut out = Vec::with_capacity(rows.len());
        let first_len = rows.first().map(Vec::len).unwrap_or(0);
        for (i, row) in rows.iter().enumerate() {
            if row.len() != first_len {
                let span = row.first().map(|e| e.span).unwrap_or_default();
                let span = row.last().map(|e| span.to(e.span)).unwrap_or(span);
                return Err(EvalError::new(
                    "lg::eval::dimension",
                    format!(
                        "row {} of the matrix has {}, but row 1 has {first_len}",
                        i + 1,
                        super::error::count(row.len(), "entry", "entries")
                    ),
                    span,
                    super::error::count(row.len(), "entry", "entries"),
                )
                .with_help("every row of a matrix needs the same number of entries"));
            }
            let mut r = Vec::with_capacity(row.len());
            for e in row {
                match self.eval(e, env)? {
                    Value::Int(x) => r.push(x),
                    other => {
                        return Err(EvalError::type_error(
                            "a matrix entry",
                            "an integer",
                            other.type_name(),
                            e.span,
                        )
                        .with_help("matrices hold integers; use a list for other values"))
                    }
                }
            }
            out.push(r);
        }
        let m = Matrix::from_rows(out).map_err(|e| {
            EvalError::new("lg::eval::matrix", e.to_string(), Span::default(), "here")
        })?;
        Ok(Value::Matrix(Rc::new(m)))
    }

    fn eval_semigroup(
        &mut self,
        items: &[Expr],
        span: Span,
        env: &Env,
    ) -> Result<Value, EvalError> {
        let mut gens: Vec<Vector> = Vec::new();
        let mut dim: Option<(usize, Span)> = None;
        for e in items {
            let v = self.eval(e, env)?;
            for g in builtins::as_vectors(&v, "a generator of N{...}", e.span)? {
                match dim {
                    None => dim = Some((g.dim(), e.span)),
                    Some((d, first)) if d != g.dim() => {
                        let _ = first;
                        return Err(EvalError::new(
                            "lg::eval::dimension",
                            format!("the generators of N{{...}} must share one dimension: this one has {}, the first has {d}", g.dim()),
                            e.span,
                            format!("dimension {}", g.dim()),
                        )
                        .with_help(format!("give every generator {d} coordinates")));
                    }
                    _ => {}
                }
                gens.push(g);
            }
        }
        let a = AffineSemigroup::new(gens).map_err(|e| {
            EvalError::new("lg::eval::semigroup", format!("{e}"), span, "no generators")
                .with_help("list the generators, as in `N{(2, 0), (0, 2)}`")
        })?;
        Ok(Value::Semigroup(Rc::new(a)))
    }

    fn comprehend(
        &mut self,
        body: &Expr,
        clauses: &[Clause],
        env: &Env,
        out: &mut Vec<Value>,
    ) -> Result<(), EvalError> {
        match clauses.split_first() {
            None => {
                // The next doubling of the list, elements sized like the last one, while the
                // old buffer (half a slot per new element) is still held.
                let n = out.len();
                let each = out.last().map_or(0, Value::footprint)
                    + std::mem::size_of::<Value>() as u64 / 2;
                crate::memory::check_doubling(n, each, || {
                    format!("this comprehension, past {n} elements,")
                })
                .map_err(|e| EvalError::out_of_memory(e, body.span))?;
                out.push(self.eval(body, env)?);
                Ok(())
            }
            Some((Clause::If(cond), rest)) => {
                if self.eval_bool(cond, env, "the condition of a comprehension")? {
                    self.comprehend(body, rest, env, out)?;
                }
                Ok(())
            }
            Some((Clause::For { var, iter }, rest)) => {
                let coll = self.eval(iter, env)?;
                for item in iterate(&coll, iter.span)?.iter().cloned() {
                    if crate::interrupt::requested() {
                        return Err(EvalError::interrupted(iter.span));
                    }
                    let frame = new_frame(Some(env.clone()));
                    frame.set(&var.name, item);
                    self.comprehend(body, rest, &frame, out)?;
                }
                Ok(())
            }
        }
    }

    fn eval_call(
        &mut self,
        callee: &Expr,
        args: &[Arg],
        span: Span,
        env: &Env,
    ) -> Result<Value, EvalError> {
        let f = self.eval(callee, env)?;
        let func =
            match f {
                Value::Function(func) => func,
                other => return Err(EvalError::new(
                    "lg::eval::not_callable",
                    format!(
                        "{} cannot be called like a function",
                        article(other.type_name())
                    ),
                    callee.span,
                    format!("this is {}", article(other.type_name())),
                )
                .with_help(
                    "only functions take arguments `f(x)`; two values side by side need a comma or an operator between them; to index, write `p[1]`",
                )),
            };
        let mut positional = Vec::new();
        let mut named = Vec::new();
        for a in args {
            let v = self.eval(&a.value, env)?;
            match &a.name {
                Some(n) => named.push((n.name.clone(), v, n.span.to(a.value.span))),
                None => positional.push((v, a.value.span)),
            }
        }
        self.call_with(&func, positional, named, span)
    }

    /// Calls a function value with positional arguments (each with the span it came from).
    pub fn call(
        &mut self,
        func: &Function,
        args: Vec<(Value, Span)>,
        span: Span,
    ) -> Result<Value, EvalError> {
        self.call_with(func, args, Vec::new(), span)
    }

    fn call_with(
        &mut self,
        func: &Function,
        positional: Vec<(Value, Span)>,
        named: Vec<(String, Value, Span)>,
        span: Span,
    ) -> Result<Value, EvalError> {
        if crate::interrupt::requested() {
            return Err(EvalError::interrupted(span));
        }
        match func {
            Function::Builtin(b) => {
                let mut args = Args::new(b, positional, named, span)?;
                (b.func)(self, &mut args)
            }
            Function::Closure(c) => {
                if let Some((_, _, s)) = named.first() {
                    return Err(EvalError::new(
                        "lg::eval::arity",
                        "functions defined in .lg take only positional arguments",
                        *s,
                        "named argument",
                    )
                    .with_help("pass the value without its name"));
                }
                let fname = c.name.clone().unwrap_or_else(|| "this function".into());
                if positional.len() != c.params.len() {
                    let params: Vec<&str> = c.params.iter().map(|p| p.name.as_str()).collect();
                    return Err(EvalError::new(
                        "lg::eval::arity",
                        format!(
                            "`{fname}` takes {} argument{}, but {} {} given",
                            c.params.len(),
                            if c.params.len() == 1 { "" } else { "s" },
                            positional.len(),
                            if positional.len() == 1 { "was" } else { "were" }
                        ),
                        span,
                        format!("{} given", positional.len()),
                    )
                    .with_help(format!("call it as `{fname}({})`", params.join(", "))));
                }
                if self.depth >= MAX_CALL_DEPTH {
                    return Err(EvalError::new(
                        "lg::eval::recursion",
                        format!("calls are nested more than {MAX_CALL_DEPTH} deep"),
                        span,
                        "this call",
                    )
                    .with_help("a function probably calls itself without reaching a base case"));
                }
                let frame = new_frame(Some(c.env.clone()));
                for (p, (v, _)) in c.params.iter().zip(positional) {
                    frame.set(&p.name, v);
                }
                self.depth += 1;
                let result = self.eval(&c.body, &frame);
                self.depth -= 1;
                result.map_err(|mut e| {
                    if span != e.span && !e.trace.contains(&span) {
                        e.trace.push(span);
                    }
                    e
                })
            }
        }
    }
}

impl Default for Interpreter {
    fn default() -> Self {
        Interpreter::new()
    }
}

fn name_function(v: Value, name: &str) -> Value {
    match v {
        Value::Function(Function::Closure(c)) if c.name.is_none() => {
            Value::Function(Function::Closure(Rc::new(Closure {
                name: Some(name.to_string()),
                params: c.params.clone(),
                body: c.body.clone(),
                env: c.env.clone(),
            })))
        }
        other => other,
    }
}

fn check_params(params: &[Ident]) -> Result<(), EvalError> {
    for (i, p) in params.iter().enumerate() {
        if params[..i].iter().any(|q| q.name == p.name) {
            return Err(EvalError::new(
                "lg::eval::parameter",
                format!("the parameter `{}` is named twice", p.name),
                p.span,
                "repeated name",
            )
            .with_help("give each parameter its own name"));
        }
    }
    Ok(())
}

/// The elements a `for` loop or comprehension walks through.
pub(crate) fn iterate(v: &Value, span: Span) -> Result<Rc<Vec<Value>>, EvalError> {
    Ok(Rc::new(match v {
        Value::List(items) | Value::Set(items) | Value::Tuple(items) => return Ok(items.clone()),
        Value::Vector(v) => v.0.iter().cloned().map(Value::Int).collect(),
        Value::Matrix(m) => m.columns().into_iter().map(Value::vector).collect(),
        Value::RuleSet(r) => super::builtins::dense_moves(r, span)?
            .iter()
            .cloned()
            .map(Value::vector)
            .collect(),
        Value::Str(s) => {
            // Each character becomes a string of its own: a value and a small allocation.
            let each = std::mem::size_of::<Value>() as u64 + 32;
            reserve(
                s.len() as u64 * each,
                || format!("the {} characters of this string, one value each,", s.len()),
                span,
            )?;
            s.chars().map(|c| Value::str(&c.to_string())).collect()
        }
        Value::Solution(s) => super::builtins::solution_p_positions(s),
        other => return Err(EvalError::new(
            "lg::eval::type",
            format!("cannot loop over {}", article(other.type_name())),
            span,
            format!("this is {}", article(other.type_name())),
        )
        .with_help(
            "loop over a list, a set, a vector, a matrix (its columns) or a rule set (its moves)",
        )),
    }))
}

/// The candidate closest to `name` by edit distance, when close enough to be a likely typo.
pub fn closest(name: &str, candidates: &[String]) -> Option<String> {
    // Short names only get suggestions that differ in case; longer ones allow a typo per 3 letters.
    let n = name.chars().count();
    let limit = if n <= 2 { 0 } else { (n / 3).max(1) };
    candidates
        .iter()
        .filter(|c| !c.starts_with('_'))
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
        .map(|(_, c)| c.clone())
}

/// The edit distance counting an exchange of two neighbouring letters as one edit (`slove` is one
/// edit from `solve`), letters compared without case.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    // d[i][j]: the distance between a[..i] and b[..j].
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let sub = d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut best = sub.min(d[i - 1][j] + 1).min(d[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}
