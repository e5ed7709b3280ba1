//! `lg --check`: reads a script and checks, without running it, that every name it uses is
//! defined (by the script before use, a function parameter, the prelude or a builtin) and that
//! calls of builtins and of functions defined in the script have a possible number of arguments.

use std::collections::HashMap;

use super::builtins;
use super::EvalError;
use crate::syntax::ast::*;

enum Known {
    Function(usize),
    Value,
}

struct Checker {
    scopes: Vec<HashMap<String, Known>>,
    errors: Vec<EvalError>,
}

/// Checks a parsed program against the prelude's names (with the number of parameters of its
/// functions); returns every problem found.
pub fn check_program(program: &Program, prelude: &[(String, Option<usize>)]) -> Vec<EvalError> {
    let mut globals = HashMap::new();
    for (n, arity) in prelude {
        let known = match arity {
            Some(k) => Known::Function(*k),
            None => Known::Value,
        };
        globals.insert(n.clone(), known);
    }
    let mut c = Checker {
        scopes: vec![globals],
        errors: Vec::new(),
    };
    // Functions may call functions defined later in the same scope (they run after definition).
    c.predeclare(&program.stmts);
    for s in &program.stmts {
        c.stmt(s);
    }
    c.errors
}

impl Checker {
    fn lookup(&self, name: &str) -> Option<&Known> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn bind(&mut self, name: &str, k: Known) {
        self.scopes
            .last_mut()
            .expect("a scope")
            .insert(name.to_string(), k);
    }

    fn predeclare(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            if let StmtKind::Fn { name, params, .. } = &s.kind {
                self.bind(&name.name, Known::Function(params.len()));
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Let { name, value } => {
                self.expr(value);
                let k = match &value.kind {
                    ExprKind::Lambda { params, .. } => Known::Function(params.len()),
                    _ => Known::Value,
                };
                self.bind(&name.name, k);
            }
            StmtKind::Assign { name, value } => {
                self.expr(value);
                self.name(&name.name, name.span);
            }
            StmtKind::Fn { name, params, body } => {
                self.bind(&name.name, Known::Function(params.len()));
                self.function(params, body);
            }
            StmtKind::Assert { cond, message } => {
                self.expr(cond);
                if let Some(m) = message {
                    self.expr(m);
                }
            }
            StmtKind::Expr(e) => self.expr(e),
        }
    }

    fn function(&mut self, params: &[Ident], body: &Expr) {
        self.scopes.push(
            params
                .iter()
                .map(|p| (p.name.clone(), Known::Value))
                .collect(),
        );
        self.expr(body);
        self.scopes.pop();
    }

    fn name(&mut self, name: &str, span: crate::syntax::Span) {
        if self.lookup(name).is_some() || builtins::find(name).is_some() {
            return;
        }
        let mut candidates: Vec<String> =
            self.scopes.iter().flat_map(|s| s.keys().cloned()).collect();
        candidates.extend(builtins::all().iter().map(|b| b.name.to_string()));
        let mut e = EvalError::new(
            "lg::check::unknown_name",
            format!("`{name}` is not defined"),
            span,
            "unknown name",
        );
        e = match super::closest(name, &candidates) {
            Some(s) => e.with_help(format!("did you mean `{s}`?")),
            None => e.with_help(format!(
                "define it before this line, e.g. `let {name} = ...`"
            )),
        };
        self.errors.push(e);
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Rational(..) | ExprKind::Str(_) | ExprKind::Bool(_) => {}
            ExprKind::Name(n) => self.name(n, e.span),
            ExprKind::Tuple(items)
            | ExprKind::List(items)
            | ExprKind::Set(items)
            | ExprKind::Semigroup(items) => items.iter().for_each(|x| self.expr(x)),
            ExprKind::Matrix(rows) => rows.iter().flatten().for_each(|x| self.expr(x)),
            ExprKind::Comprehension { body, clauses, .. } => {
                self.scopes.push(HashMap::new());
                for c in clauses {
                    match c {
                        Clause::For { var, iter } => {
                            self.expr(iter);
                            self.bind(&var.name, Known::Value);
                        }
                        Clause::If(cond) => self.expr(cond),
                    }
                }
                self.expr(body);
                self.scopes.pop();
            }
            ExprKind::Unary(_, x) => self.expr(x),
            ExprKind::Binary(_, l, r) => {
                self.expr(l);
                self.expr(r);
            }
            ExprKind::Call { callee, args } => {
                self.expr(callee);
                args.iter().for_each(|a| self.expr(&a.value));
                if let ExprKind::Name(n) = &callee.kind {
                    self.arity(n, args, e.span);
                }
            }
            ExprKind::Index { base, index } => {
                self.expr(base);
                self.expr(index);
            }
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond);
                self.expr(then);
                if let Some(o) = otherwise {
                    self.expr(o);
                }
            }
            ExprKind::For { var, iter, body } => {
                self.expr(iter);
                self.scopes.push(HashMap::new());
                self.bind(&var.name, Known::Value);
                self.expr(body);
                self.scopes.pop();
            }
            ExprKind::Lambda { params, body } => self.function(params, body),
            ExprKind::Block(stmts) => {
                self.scopes.push(HashMap::new());
                self.predeclare(stmts);
                for s in stmts {
                    self.stmt(s);
                }
                self.scopes.pop();
            }
        }
    }

    fn arity(&mut self, name: &str, args: &[Arg], span: crate::syntax::Span) {
        let positional = args.iter().filter(|a| a.name.is_none()).count();
        let (min, max, what) = match self.lookup(name) {
            Some(Known::Function(n)) => (
                *n,
                Some(*n),
                format!(
                    "`{name}` is defined with {n} parameter{}",
                    if *n == 1 { "" } else { "s" }
                ),
            ),
            Some(Known::Value) => return,
            None => match builtins::find(name) {
                Some(b) => (
                    b.min_args,
                    b.max_args,
                    format!(
                        "its signature is `{}` (`:help {name}` says more)",
                        b.signature
                    ),
                ),
                None => return,
            },
        };
        if positional < min || max.is_some_and(|m| positional > m) {
            let expected = match max {
                Some(m) if m == min => format!("{m}"),
                Some(m) => format!("{min} to {m}"),
                None => format!("at least {min}"),
            };
            self.errors.push(
                EvalError::new(
                    "lg::check::arity",
                    format!(
                        "`{name}` takes {expected} argument{}, but this call gives {positional}",
                        if expected == "1" || expected == "at least 1" {
                            ""
                        } else {
                            "s"
                        }
                    ),
                    span,
                    format!("{positional} given"),
                )
                .with_help(what),
            );
        }
    }
}
