//! Lowering pest's parse tree into the spanned AST of [`super::ast`], and translating pest's errors
//! into [`ParseError`]s that name what was expected in words rather than grammar rule names.

use std::rc::Rc;
use std::sync::OnceLock;

use num_bigint::BigInt;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser;

use super::ast::*;
use super::{LgParser, ParseError, ParseErrorKind, Rule, SourceId, Span};

/// Deepest bracket nesting accepted; deeper input gets a diagnostic instead of exhausting the stack.
const MAX_NESTING: usize = 96;
/// Deepest expression tree accepted (long operator chains, long prefix chains).
const MAX_DEPTH: usize = 2000;

/// Parse a whole program (a script, or one REPL entry) from `text`, which belongs to `source`.
pub fn parse_program(text: &str, source: SourceId) -> Result<Program, ParseError> {
    check_nesting(text, source)?;
    let mut pairs =
        LgParser::parse(Rule::program, text).map_err(|e| translate_error(e, text, source))?;
    let program = pairs
        .next()
        .expect("the grammar always yields a program pair");
    let lower = Lower { source };
    let mut stmts = Vec::new();
    for pair in program.into_inner() {
        if pair.as_rule() == Rule::EOI {
            break;
        }
        stmts.push(lower.stmt(pair)?);
    }
    Ok(Program { stmts })
}

/// Checks what is best seen in the text itself, before the grammar: brackets nested too deep, a
/// closing bracket that does not match the one open (named with its line and column), and
/// numbers written in forms the language does not have (decimals, exponents, digit separators),
/// each with what to write instead.
fn check_nesting(text: &str, source: SourceId) -> Result<(), ParseError> {
    let mut stack: Vec<(char, usize)> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    let mut in_comment = false;
    let mut prev: Option<char> = None;
    let mut skip_to = 0usize;
    for (i, c) in text.char_indices() {
        if i < skip_to {
            continue;
        }
        if in_comment {
            in_comment = c != '\n';
            prev = Some(c);
            continue;
        }
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                '\n' => in_string = false,
                _ => {}
            }
            prev = Some(c);
            continue;
        }
        match c {
            '"' => in_string = true,
            '#' => in_comment = true,
            '(' | '[' | '{' => {
                stack.push((c, i));
                if stack.len() > MAX_NESTING {
                    return Err(ParseError {
                        kind: ParseErrorKind::TooDeep,
                        span: Span::new(source, i, i + 1),
                        message: format!("brackets are nested more than {MAX_NESTING} deep"),
                        label: "too deep".into(),
                        help: Some("split the expression with `let` bindings".into()),
                    });
                }
            }
            ')' | ']' | '}' => match stack.pop() {
                Some((open, at)) if closing(open) != c => {
                    let (line, col) = line_column(text, at);
                    return Err(ParseError {
                        kind: ParseErrorKind::Unexpected,
                        span: Span::new(source, i, i + 1),
                        message: format!(
                            "`{c}` does not close the `{open}` opened at line {line}, column {col}"
                        ),
                        label: format!("expected `{}` here", closing(open)),
                        help: Some(format!(
                            "close the `{open}` with `{}`, or open this one with `{}`",
                            closing(open),
                            opening(c)
                        )),
                    });
                }
                _ => {}
            },
            '0'..='9' if !prev.is_some_and(|p| p.is_alphanumeric() || p == '_') => {
                if let Some((end, err)) = foreign_number(text, i, source) {
                    if let Some(e) = err {
                        return Err(e);
                    }
                    skip_to = end;
                }
            }
            _ => {}
        }
        prev = Some(c);
    }
    Ok(())
}

fn line_column(text: &str, at: usize) -> (usize, usize) {
    let line = text[..at].matches('\n').count() + 1;
    let line_start = text[..at].rfind('\n').map_or(0, |nl| nl + 1);
    (line, text[line_start..at].chars().count() + 1)
}

fn opening(close: char) -> char {
    match close {
        ')' => '(',
        ']' => '[',
        _ => '{',
    }
}

/// A number starting at byte `i`: its end, and an error when it is written as a decimal
/// (`3.5`), with an exponent (`1e5`) or with digit separators (`1_000`).
fn foreign_number(text: &str, i: usize, source: SourceId) -> Option<(usize, Option<ParseError>)> {
    let bytes = text.as_bytes();
    let digits_end = |mut j: usize| {
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let int_end = digits_end(i);
    let whole = &text[i..int_end];
    let at = |j: usize| bytes.get(j).copied();
    let error = |end: usize, message: String, help: String| ParseError {
        kind: ParseErrorKind::BadLiteral,
        span: Span::new(source, i, end),
        message,
        label: "not a number of the language".into(),
        help: Some(help),
    };
    match at(int_end) {
        Some(b'.') if at(int_end + 1).is_some_and(|b| b.is_ascii_digit()) => {
            let end = digits_end(int_end + 1);
            let frac = &text[int_end + 1..end];
            let num: BigInt = format!("{whole}{frac}").parse().ok()?;
            let den = BigInt::from(10).pow(frac.len() as u32);
            let g = num_integer::Integer::gcd(&num, &den);
            let (n, d) = (&num / &g, &den / &g);
            let exact = if d == BigInt::from(1) {
                n.to_string()
            } else {
                format!("{n}/{d}")
            };
            let literal = &text[i..end];
            Some((
                end,
                Some(error(
                    end,
                    format!("`{literal}` is a decimal, and numbers in lg are exact"),
                    format!(
                        "write the fraction `{exact}`; a take-and-break code is a string: `\"{literal}\"`, as in `octal(\"{literal}\", 10)`"
                    ),
                )),
            ))
        }
        Some(b'e' | b'E') => {
            let (sign, start) = match at(int_end + 1) {
                Some(b'-') => ("-", int_end + 2),
                Some(b'+') => ("", int_end + 2),
                _ => ("", int_end + 1),
            };
            if !at(start).is_some_and(|b| b.is_ascii_digit()) {
                return Some((int_end, None));
            }
            let end = digits_end(start);
            let exp = &text[start..end];
            let power = format!("10^{exp}");
            let exact = match (whole, sign) {
                ("1", "") => power,
                (_, "") => format!("{whole} * {power}"),
                (_, _) => format!("{whole} / {power}"),
            };
            Some((
                end,
                Some(error(
                    end,
                    format!(
                        "`{}` is not a number of the language: it has no exponent notation",
                        &text[i..end]
                    ),
                    format!("write `{exact}` (numbers are exact integers and fractions)"),
                )),
            ))
        }
        Some(b'_') if at(int_end + 1).is_some_and(|b| b.is_ascii_digit()) => {
            let mut end = int_end;
            while at(end) == Some(b'_') && at(end + 1).is_some_and(|b| b.is_ascii_digit()) {
                end = digits_end(end + 1);
            }
            let plain: String = text[i..end].chars().filter(|&c| c != '_').collect();
            Some((
                end,
                Some(error(
                    end,
                    format!(
                        "`{}` uses `_` between digits, which the language does not",
                        &text[i..end]
                    ),
                    format!("write `{plain}`, or `10^k` for a power of ten"),
                )),
            ))
        }
        _ => Some((int_end, None)),
    }
}

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::op_or, Assoc::Left))
            .op(Op::infix(Rule::op_and, Assoc::Left))
            .op(Op::prefix(Rule::op_not))
            .op(Op::infix(Rule::op_cmp, Assoc::Left) | Op::infix(Rule::op_in, Assoc::Left))
            .op(Op::infix(Rule::op_disjoint, Assoc::Left)
                | Op::infix(Rule::op_union, Assoc::Left)
                | Op::infix(Rule::op_setminus, Assoc::Left))
            .op(Op::infix(Rule::op_inter, Assoc::Left))
            .op(Op::infix(Rule::op_add, Assoc::Left) | Op::infix(Rule::op_sub, Assoc::Left))
            .op(Op::infix(Rule::op_mul, Assoc::Left)
                | Op::infix(Rule::op_div, Assoc::Left)
                | Op::infix(Rule::op_mod, Assoc::Left))
            .op(Op::prefix(Rule::op_neg))
            .op(Op::infix(Rule::op_pow, Assoc::Right))
    })
}

struct Lower {
    source: SourceId,
}

type PResult<T> = Result<T, ParseError>;

fn depth_of(e: &Expr) -> usize {
    // A cheap estimate: only the spine of nested binary/unary nodes matters for stack use.
    let mut d = 0;
    let mut cur = e;
    loop {
        match &cur.kind {
            ExprKind::Unary(_, x) => cur = x,
            ExprKind::Binary(_, l, r) => {
                cur = if depth_of_shallow(l) >= depth_of_shallow(r) {
                    l
                } else {
                    r
                }
            }
            _ => return d,
        }
        d += 1;
        if d > MAX_DEPTH {
            return d;
        }
    }
}

fn depth_of_shallow(e: &Expr) -> usize {
    match &e.kind {
        ExprKind::Unary(..) | ExprKind::Binary(..) => 1,
        _ => 0,
    }
}

impl Lower {
    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        Span::new(self.source, s.start(), s.end())
    }

    fn ident(&self, pair: Pair<Rule>) -> Ident {
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }

    fn stmt(&self, pair: Pair<Rule>) -> PResult<Stmt> {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::let_stmt => {
                let mut inner = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_let);
                let name = self.ident(inner.next().expect("let has a name"));
                let value = self.expr(inner.next().expect("let has a value"))?;
                StmtKind::Let { name, value }
            }
            Rule::assign_stmt => {
                let mut inner = pair.into_inner();
                let name = self.ident(inner.next().expect("assignment has a name"));
                let value = self.expr(inner.next().expect("assignment has a value"))?;
                StmtKind::Assign { name, value }
            }
            Rule::fn_stmt => {
                let mut inner = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_fn);
                let name = self.ident(inner.next().expect("fn has a name"));
                let params = self.params(inner.next().expect("fn has parameters"));
                let body = self.body(inner.next().expect("fn has a body"))?;
                StmtKind::Fn {
                    name,
                    params,
                    body: Rc::new(body),
                }
            }
            Rule::assert_stmt => {
                let mut inner = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_assert);
                let cond = self.expr(inner.next().expect("assert has a condition"))?;
                let message = inner.next().map(|p| self.expr(p)).transpose()?;
                StmtKind::Assert { cond, message }
            }
            Rule::expr => StmtKind::Expr(self.expr(pair)?),
            r => unreachable!("unexpected statement rule {r:?}"),
        };
        Ok(Stmt { kind, span })
    }

    fn params(&self, pair: Pair<Rule>) -> Vec<Ident> {
        pair.into_inner().map(|p| self.ident(p)).collect()
    }

    fn body(&self, pair: Pair<Rule>) -> PResult<Expr> {
        match pair.as_rule() {
            Rule::block => self.block(pair),
            _ => self.expr(pair),
        }
    }

    fn block(&self, pair: Pair<Rule>) -> PResult<Expr> {
        let span = self.span(&pair);
        let stmts = pair
            .into_inner()
            .map(|p| self.stmt(p))
            .collect::<PResult<Vec<_>>>()?;
        Ok(Expr {
            kind: ExprKind::Block(stmts),
            span,
        })
    }

    fn expr(&self, pair: Pair<Rule>) -> PResult<Expr> {
        debug_assert_eq!(pair.as_rule(), Rule::expr);
        let span = self.span(&pair);
        let e = self.pratt_expr(pair.into_inner())?;
        if depth_of(&e) > MAX_DEPTH {
            return Err(ParseError {
                kind: ParseErrorKind::TooDeep,
                span,
                message: format!("this expression chains more than {MAX_DEPTH} operators"),
                label: "too long".into(),
                help: Some("split it with `let` bindings, or use `sum` over a list".into()),
            });
        }
        Ok(e)
    }

    fn pratt_expr(&self, pairs: Pairs<Rule>) -> PResult<Expr> {
        pratt()
            .map_primary(|p| self.postfix_expr(p))
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let op_span = self.span(&op);
                let kind = match op.as_rule() {
                    Rule::op_neg => UnaryOp::Neg,
                    _ => UnaryOp::Not,
                };
                Ok(Expr {
                    span: op_span.to(rhs.span),
                    kind: ExprKind::Unary(kind, Box::new(rhs)),
                })
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let text = op.as_str();
                let kind = match op.as_rule() {
                    Rule::op_or => BinaryOp::Or,
                    Rule::op_and => BinaryOp::And,
                    Rule::op_cmp => match text {
                        "==" => BinaryOp::Eq,
                        "!=" | "≠" => BinaryOp::Ne,
                        "<=" | "≤" => BinaryOp::Le,
                        ">=" | "≥" => BinaryOp::Ge,
                        "<" => BinaryOp::Lt,
                        _ => BinaryOp::Gt,
                    },
                    Rule::op_in => BinaryOp::In,
                    Rule::op_disjoint => BinaryOp::DisjointUnion,
                    Rule::op_union => BinaryOp::Union,
                    Rule::op_setminus => BinaryOp::SetMinus,
                    Rule::op_inter => BinaryOp::Intersect,
                    Rule::op_add => BinaryOp::Add,
                    Rule::op_sub => BinaryOp::Sub,
                    Rule::op_mul => BinaryOp::Mul,
                    Rule::op_div => BinaryOp::Div,
                    Rule::op_mod => BinaryOp::Mod,
                    _ => BinaryOp::Pow,
                };
                Ok(Expr {
                    span: lhs.span.to(rhs.span),
                    kind: ExprKind::Binary(kind, Box::new(lhs), Box::new(rhs)),
                })
            })
            .parse(pairs)
    }

    fn postfix_expr(&self, pair: Pair<Rule>) -> PResult<Expr> {
        let mut inner = pair.into_inner();
        let mut e = self.primary(inner.next().expect("postfix has a primary"))?;
        for post in inner {
            let span = e.span.to(self.span(&post));
            e = match post.as_rule() {
                Rule::call_args => {
                    let args = post
                        .into_inner()
                        .map(|a| self.arg(a))
                        .collect::<PResult<Vec<_>>>()?;
                    Expr {
                        kind: ExprKind::Call {
                            callee: Box::new(e),
                            args,
                        },
                        span,
                    }
                }
                _ => {
                    let index =
                        self.expr(post.into_inner().next().expect("index has an expression"))?;
                    Expr {
                        kind: ExprKind::Index {
                            base: Box::new(e),
                            index: Box::new(index),
                        },
                        span,
                    }
                }
            };
        }
        Ok(e)
    }

    fn arg(&self, pair: Pair<Rule>) -> PResult<Arg> {
        let mut inner = pair.into_inner().peekable();
        let name = if inner.peek().map(|p| p.as_rule()) == Some(Rule::ident) {
            Some(self.ident(inner.next().expect("peeked")))
        } else {
            None
        };
        let value = self.expr(inner.next().expect("argument has a value"))?;
        Ok(Arg { name, value })
    }

    fn exprs(&self, pairs: Pairs<Rule>) -> PResult<Vec<Expr>> {
        pairs
            .filter(|p| p.as_rule() == Rule::expr)
            .map(|p| self.expr(p))
            .collect()
    }

    fn integer(&self, pair: &Pair<Rule>) -> BigInt {
        pair.as_str()
            .parse()
            .expect("the grammar only admits digits")
    }

    fn primary(&self, pair: Pair<Rule>) -> PResult<Expr> {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::integer => ExprKind::Int(self.integer(&pair)),
            Rule::rational => {
                let (n, d) = pair
                    .as_str()
                    .split_once('/')
                    .expect("a rational literal has a slash");
                let d: BigInt = d.parse().expect("digits");
                if d == BigInt::from(0) {
                    return Err(ParseError {
                        kind: ParseErrorKind::BadLiteral,
                        span,
                        message: "a rational number cannot have denominator 0".into(),
                        label: "zero denominator".into(),
                        help: Some("write a nonzero denominator, as in `3/4`".into()),
                    });
                }
                ExprKind::Rational(n.parse().expect("digits"), d)
            }
            Rule::string => ExprKind::Str(unescape(
                pair.into_inner().next().map(|p| p.as_str()).unwrap_or(""),
            )),
            Rule::boolean => ExprKind::Bool(pair.as_str() == "true"),
            Rule::ident => ExprKind::Name(pair.as_str().to_string()),
            Rule::tuple => {
                let trailing = pair
                    .clone()
                    .into_inner()
                    .any(|p| p.as_rule() == Rule::trailing_comma);
                let mut items = self.exprs(pair.into_inner())?;
                if items.len() == 1 && !trailing {
                    // A parenthesised expression: keep its inner value but widen the span.
                    let mut e = items.pop().expect("one item");
                    e.span = span;
                    return Ok(e);
                }
                ExprKind::Tuple(items)
            }
            Rule::semigroup => ExprKind::Semigroup(self.exprs(pair.into_inner())?),
            Rule::brackets | Rule::braces => return self.collection(pair),
            Rule::if_expr => return self.if_expr(pair),
            Rule::for_expr => {
                let mut inner = pair.into_inner();
                let (var, iter) = self.for_head(&mut inner)?;
                let body = self.block(inner.next().expect("for has a body"))?;
                ExprKind::For {
                    var,
                    iter: Box::new(iter),
                    body: Box::new(body),
                }
            }
            Rule::fn_expr => {
                let mut inner = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_fn);
                let params = self.params(inner.next().expect("fn has parameters"));
                let body = self.body(inner.next().expect("fn has a body"))?;
                ExprKind::Lambda {
                    params,
                    body: Rc::new(body),
                }
            }
            Rule::scaled => {
                let mut inner = pair.into_inner();
                let coef = inner.next().expect("coefficient");
                let coef_e = Expr {
                    kind: ExprKind::Int(self.integer(&coef)),
                    span: self.span(&coef),
                };
                let body = inner.next().expect("scaled body");
                let mut bi = body.into_inner();
                let base_pair = bi.next().expect("scaled base");
                let mut base = self.primary(base_pair)?;
                if let Some(_op) = bi.next() {
                    let exp_pair = bi.next().expect("exponent");
                    let exp = self.primary(exp_pair)?;
                    base = Expr {
                        span: base.span.to(exp.span),
                        kind: ExprKind::Binary(BinaryOp::Pow, Box::new(base), Box::new(exp)),
                    };
                }
                ExprKind::Binary(BinaryOp::Mul, Box::new(coef_e), Box::new(base))
            }
            r => unreachable!("unexpected primary rule {r:?}"),
        };
        Ok(Expr { kind, span })
    }

    /// `for x in xs`: the variable and the collection, consuming the keywords.
    fn for_head(&self, pairs: &mut Pairs<Rule>) -> PResult<(Ident, Expr)> {
        let mut parts = pairs.filter(|p| !matches!(p.as_rule(), Rule::kw_for | Rule::kw_in));
        let var = self.ident(parts.next().expect("for has a variable"));
        let iter = self.expr(parts.next().expect("for has a collection"))?;
        Ok((var, iter))
    }

    /// `[...]` and `{...}`: a matrix, a list or set, or a comprehension.
    fn collection(&self, pair: Pair<Rule>) -> PResult<Expr> {
        let span = self.span(&pair);
        let is_list = pair.as_rule() == Rule::brackets;
        let mut inner = pair.into_inner();
        let Some(first) = inner.next() else {
            let kind = if is_list {
                ExprKind::List(Vec::new())
            } else {
                ExprKind::Set(Vec::new())
            };
            return Ok(Expr { kind, span });
        };
        if first.as_rule() == Rule::matrix_rows {
            let mut rows = Vec::new();
            for row in first.into_inner() {
                let entries = row
                    .into_inner()
                    .map(|e| self.matrix_entry(e))
                    .collect::<PResult<Vec<_>>>()?;
                rows.push(entries);
            }
            let kind = if rows.len() == 1 && rows[0].len() == 1 {
                ExprKind::List(rows.pop().expect("one row"))
            } else {
                ExprKind::Matrix(rows)
            };
            return Ok(Expr { kind, span });
        }
        let head = self.expr(first)?;
        let rest = inner
            .next()
            .expect("items or clauses follow the first expression");
        let kind = if rest.as_rule() == Rule::clauses {
            let mut clauses = Vec::new();
            for c in rest.into_inner() {
                match c.as_rule() {
                    Rule::for_clause => {
                        let (var, iter) = self.for_head(&mut c.into_inner())?;
                        clauses.push(Clause::For { var, iter });
                    }
                    _ => {
                        let cond = c
                            .into_inner()
                            .find(|p| p.as_rule() == Rule::expr)
                            .expect("if clause");
                        clauses.push(Clause::If(self.expr(cond)?));
                    }
                }
            }
            let kind = if is_list {
                CollectionKind::List
            } else {
                CollectionKind::Set
            };
            ExprKind::Comprehension {
                kind,
                body: Box::new(head),
                clauses,
            }
        } else {
            let mut items = vec![head];
            items.extend(self.exprs(rest.into_inner())?);
            if is_list {
                ExprKind::List(items)
            } else {
                ExprKind::Set(items)
            }
        };
        Ok(Expr { kind, span })
    }

    fn matrix_entry(&self, pair: Pair<Rule>) -> PResult<Expr> {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let first = inner.next().expect("entry has content");
        if first.as_rule() == Rule::neg_sign {
            let value = self.primary(inner.next().expect("entry after sign"))?;
            return Ok(Expr {
                kind: ExprKind::Unary(UnaryOp::Neg, Box::new(value)),
                span,
            });
        }
        self.primary(first)
    }

    fn if_expr(&self, pair: Pair<Rule>) -> PResult<Expr> {
        let span = self.span(&pair);
        let mut inner = pair
            .into_inner()
            .filter(|p| !matches!(p.as_rule(), Rule::kw_if | Rule::kw_else));
        let cond = self.expr(inner.next().expect("if has a condition"))?;
        let then = self.block(inner.next().expect("if has a body"))?;
        let otherwise = match inner.next() {
            None => None,
            Some(p) if p.as_rule() == Rule::if_expr => Some(Box::new(self.if_expr(p)?)),
            Some(p) => Some(Box::new(self.block(p)?)),
        };
        Ok(Expr {
            kind: ExprKind::If {
                cond: Box::new(cond),
                then: Box::new(then),
                otherwise,
            },
            span,
        })
    }
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Words for the grammar rules a user can be told were expected.
fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::expr | Rule::postfix_expr => "an expression",
        Rule::ident => "a name",
        Rule::integer | Rule::coefficient => "an integer",
        Rule::rational => "a rational number",
        Rule::string => "a string",
        Rule::boolean => "`true` or `false`",
        Rule::tuple => "a vector `(..)`",
        Rule::brackets => "a list `[..]`",
        Rule::matrix_rows => "a matrix",
        Rule::braces => "a set `{..}`",
        Rule::more_items => "`,`",
        Rule::clauses => "`for`",
        Rule::semigroup => "a semigroup `N{..}`",
        Rule::block => "a block `{ .. }`",
        Rule::call_args => "arguments `(..)`",
        Rule::index => "an index `[..]`",
        Rule::params => "parameter names",
        Rule::entry | Rule::row => "a matrix entry",
        Rule::op_or
        | Rule::op_and
        | Rule::op_cmp
        | Rule::op_in
        | Rule::op_disjoint
        | Rule::op_union
        | Rule::op_setminus
        | Rule::op_inter
        | Rule::op_add
        | Rule::op_sub
        | Rule::op_mul
        | Rule::op_div
        | Rule::op_mod
        | Rule::op_pow => "an operator",
        Rule::op_not | Rule::op_neg => "an expression",
        Rule::let_stmt | Rule::fn_stmt | Rule::assert_stmt | Rule::assign_stmt => "a statement",
        Rule::kw_else => "`else`",
        Rule::kw_in => "`in`",
        Rule::kw_for => "`for`",
        Rule::kw_if => "`if`",
        Rule::if_expr | Rule::for_expr | Rule::fn_expr => "an expression",
        Rule::EOI => "the end of the input",
        Rule::arg => "an argument",
        Rule::for_clause => "`for`",
        Rule::if_clause => "`if`",
        Rule::trailing_comma => "`,`",
        _ => return None,
    })
}

fn translate_error(err: pest::error::Error<Rule>, text: &str, source: SourceId) -> ParseError {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let mut expected: Vec<&'static str> = Vec::new();
    if let ErrorVariant::ParsingError { positives, .. } = &err.variant {
        for r in positives {
            if let Some(d) = describe(*r) {
                if !expected.contains(&d) {
                    expected.push(d);
                }
            }
        }
    }
    // Where is the parse stuck? At the end of the text (only blanks and comments remain), more
    // input could complete it: the REPL keeps reading.
    let rest = &text[pos.min(text.len())..];
    let at_end = rest.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#')
    });
    let open = unclosed_bracket(&text[..pos.min(text.len())]);
    let found: Option<char> = rest.chars().next();
    let end = pos + found.map(|c| c.len_utf8()).unwrap_or(0);
    let span = Span::new(source, pos, end.min(text.len()));
    let wanted = match expected.len() {
        0 => String::new(),
        1 => expected[0].to_string(),
        _ => {
            let (last, init) = expected.split_last().expect("nonempty");
            format!("{} or {}", init.join(", "), last)
        }
    };
    if at_end && (open.is_some() || !expected.is_empty()) {
        let message = match open {
            Some(b) => format!("the input ends before this `{b}` is closed"),
            None if wanted.is_empty() => "the input ends too early".to_string(),
            None => format!("the input ends where {wanted} was expected"),
        };
        let (span, label) = match open {
            Some(_) => {
                let at = open_position(&text[..pos.min(text.len())]).unwrap_or(pos);
                (Span::new(source, at, at + 1), "opened here".to_string())
            }
            None => (Span::new(source, pos, pos), "input ends here".to_string()),
        };
        return ParseError {
            kind: ParseErrorKind::Incomplete,
            span,
            message,
            label,
            help: Some(match open {
                Some(b) => format!("close it with `{}`", closing(b)),
                None => format!(
                    "add {}",
                    if wanted.is_empty() {
                        "the missing part"
                    } else {
                        &wanted
                    }
                ),
            }),
        };
    }
    if found == Some('"') {
        return ParseError {
            kind: ParseErrorKind::Unexpected,
            span,
            message: "this string is not closed on its line".into(),
            label: "string starts here".into(),
            help: Some(
                "end it with `\"` before the end of the line (write `\\\"` for a quote inside)"
                    .into(),
            ),
        };
    }
    let found_text = match found {
        Some('\n') => "the end of the line".to_string(),
        Some(c) => format!("`{c}`"),
        None => "the end of the input".to_string(),
    };
    let message = if wanted.is_empty() {
        format!("unexpected {found_text}")
    } else {
        format!("expected {wanted}, found {found_text}")
    };
    let mut help = hint_for(found, &wanted, rest);
    if matches!(found, Some('\n') | None) {
        // The line ended inside a bracket: say which one is still open.
        if let (Some(b), Some(at)) = (open, open_position(&text[..pos.min(text.len())])) {
            let line = text[..at].matches('\n').count() + 1;
            let line_start = text[..at].rfind('\n').map_or(0, |nl| nl + 1);
            let col = text[line_start..at].chars().count() + 1;
            help = Some(format!(
                "the `{b}` at line {line}, column {col} is still open: close it with `{}`",
                closing(b)
            ));
        }
    }
    ParseError {
        kind: ParseErrorKind::Unexpected,
        span,
        message,
        label: "unexpected here".into(),
        help,
    }
}

fn hint_for(found: Option<char>, wanted: &str, rest: &str) -> Option<String> {
    match found {
        Some('=') if wanted == "a name" => Some("write the name to bind, as in `let Γ = ruleset(...)`".into()),
        Some('=') if rest.starts_with("==") => None,
        Some('=') => Some("compare with `==`; bind a name with `let x = ...`".into()),
        Some('\n') => Some("statements end at the end of a line; inside brackets an expression may go on".into()),
        Some(')' | ']' | '}') => Some("this bracket closes nothing that is open here".into()),
        _ if wanted.contains("operator") => Some(
            "two expressions stand side by side: join them with an operator or separate statements with `;`".into(),
        ),
        _ => None,
    }
}

fn unclosed_bracket(text: &str) -> Option<char> {
    open_stack(text).last().map(|&(c, _)| c)
}

fn open_position(text: &str) -> Option<usize> {
    open_stack(text).last().map(|&(_, i)| i)
}

fn open_stack(text: &str) -> Vec<(char, usize)> {
    let mut stack = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    let mut in_comment = false;
    for (i, c) in text.char_indices() {
        if in_comment {
            in_comment = c != '\n';
            continue;
        }
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '#' => in_comment = true,
            '(' | '[' | '{' => stack.push((c, i)),
            ')' | ']' | '}' => {
                stack.pop();
            }
            _ => {}
        }
    }
    if in_string {
        stack.push(('"', text.rfind('"').unwrap_or(0)));
    }
    stack
}

fn closing(c: char) -> char {
    match c {
        '(' => ')',
        '[' => ']',
        '{' => '}',
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Program {
        parse_program(s, SourceId(0)).unwrap_or_else(|e| panic!("{s:?}: {e:?}"))
    }

    fn only_expr(s: &str) -> ExprKind {
        let p = parse(s);
        assert_eq!(p.stmts.len(), 1, "{s}");
        match p.stmts.into_iter().next().unwrap().kind {
            StmtKind::Expr(e) => e.kind,
            k => panic!("not an expression: {k:?}"),
        }
    }

    #[test]
    fn matrix_versus_list() {
        assert!(
            matches!(only_expr("[1 0 -1; 0 1 1]"), ExprKind::Matrix(r) if r.len() == 2 && r[0].len() == 3)
        );
        assert!(matches!(only_expr("[1 -1]"), ExprKind::Matrix(r) if r[0].len() == 2));
        assert!(matches!(only_expr("[1 - 1]"), ExprKind::List(v) if v.len() == 1));
        assert!(matches!(only_expr("[1, -1]"), ExprKind::List(v) if v.len() == 2));
        assert!(matches!(only_expr("[x]"), ExprKind::List(v) if v.len() == 1));
        assert!(matches!(only_expr("[f(x)]"), ExprKind::List(v) if v.len() == 1));
        assert!(matches!(only_expr("[1 0\n 0 1]"), ExprKind::Matrix(r) if r.len() == 2));
        assert!(matches!(only_expr("[]"), ExprKind::List(v) if v.is_empty()));
    }

    #[test]
    fn tuples_and_parentheses() {
        assert!(matches!(only_expr("(1, 0, -1)"), ExprKind::Tuple(v) if v.len() == 3));
        assert!(matches!(only_expr("(1)"), ExprKind::Int(_)));
        assert!(matches!(only_expr("(1,)"), ExprKind::Tuple(v) if v.len() == 1));
    }

    #[test]
    fn paper_notation() {
        assert!(
            matches!(only_expr("2N^2"), ExprKind::Binary(BinaryOp::Mul, _, r) if matches!(r.kind, ExprKind::Binary(BinaryOp::Pow, ..)))
        );
        assert!(matches!(only_expr("ℕ{(2, 0), (0, 2)}"), ExprKind::Semigroup(v) if v.len() == 2));
        assert!(matches!(only_expr("N {(1)}"), ExprKind::Semigroup(_)));
        assert!(matches!(
            only_expr("a ⊎ b |+| c"),
            ExprKind::Binary(BinaryOp::DisjointUnion, ..)
        ));
        assert!(matches!(
            only_expr("(1,0) + 2N ⊎ (0,2) + 2N^2"),
            ExprKind::Binary(BinaryOp::DisjointUnion, ..)
        ));
        assert!(matches!(
            only_expr("-2^2"),
            ExprKind::Unary(UnaryOp::Neg, _)
        ));
        assert!(matches!(
            only_expr("p in S and q ∈ S"),
            ExprKind::Binary(BinaryOp::And, ..)
        ));
    }

    #[test]
    fn statements_and_newlines() {
        let p = parse("let a = 1\nlet b = a +\n  2; print(b)\n\n# comment\nfn f(x) = x\nfn g(x) {\n let y = x\n y\n}\n");
        assert_eq!(p.stmts.len(), 5);
        let p = parse("f(\n 1,\n 2,\n)");
        assert_eq!(p.stmts.len(), 1);
        let p = parse("x\n(1, 2)");
        assert_eq!(p.stmts.len(), 2);
    }

    #[test]
    fn incomplete_input_is_recognised() {
        for s in ["f(1,", "[1 0", "let x =", "fn f(x) {", "1 +", "{(1,0),"] {
            let e = parse_program(s, SourceId(0)).unwrap_err();
            assert!(e.is_incomplete(), "{s:?} should be incomplete: {e:?}");
        }
        for s in ["f(1))", "let = 3", "1 2", "\"abc"] {
            let e = parse_program(s, SourceId(0)).unwrap_err();
            assert!(!e.is_incomplete(), "{s:?} should be an error: {e:?}");
        }
    }

    #[test]
    fn nesting_up_to_the_limit_parses() {
        // Each bracket reads its first expression once; backtracking here once made this exponential.
        for (open, close) in [("[", "]"), ("{", "}"), ("(", ")"), ("[{(", ")}]")] {
            let depth = 90 / open.len();
            let s = open.repeat(depth) + "1" + &close.repeat(depth);
            parse(&s);
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let s = "(".repeat(10_000) + "1" + &")".repeat(10_000);
        assert_eq!(
            parse_program(&s, SourceId(0)).unwrap_err().kind,
            ParseErrorKind::TooDeep
        );
        let s = "1".to_string() + &"+1".repeat(5000);
        assert_eq!(
            parse_program(&s, SourceId(0)).unwrap_err().kind,
            ParseErrorKind::TooDeep
        );
    }
}
