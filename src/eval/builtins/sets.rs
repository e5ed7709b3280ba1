//! Builtins of the set algebra and rational generating functions ([GM11] Sections 3–6):
//! complement, is_empty, members of infinite sets, genfunc, hadamard, series, evaluate, monomial,
//! latex, complexity, congruent and congruence_witness; and the conversions the operators `∪`,
//! `∩`, `∖`, `==`, `in` and `⊎` use on semigroups, modules and stratifications.

use std::rc::Rc;

use num_rational::BigRational;

use super::objects::algebra_error;
use super::short_forms;
use super::solve::solve_error;
use super::{Args, Builtin};
use crate::algebra::barvinok::ShortForm;
use crate::algebra::genfunc::{default_names, RationalFunction, SpecializationError};
use crate::algebra::{AlgebraError, Cone, Integer, Polyhedron, StratifiedSet, Vector};
use crate::eval::set_value::{make_disjoint, SetValue};
use crate::eval::value::{Genfunc, ShortGenfunc, Value};
use crate::eval::{EvalError, Interpreter};
use crate::game::strategy;
use crate::syntax::Span;

type R = Result<Value, EvalError>;

/// Whether the value is one of the infinite sets the set algebra works on.
pub(crate) fn is_set_like(v: &Value) -> bool {
    matches!(
        v,
        Value::Semigroup(_) | Value::Module(_) | Value::Stratification(_) | Value::StratifiedSet(_)
    )
}

/// Whether the value is a finite set `{...}` whose elements are all integer vectors (or none).
pub(crate) fn is_point_set(v: &Value) -> bool {
    matches!(v, Value::Set(items) if items.iter().all(|x| matches!(x, Value::Vector(_))))
}

/// The dimension of a set-valued value, read off without converting it (`None` for the empty
/// literal `{}` and for values that are no sets).
pub(crate) fn set_dim(v: &Value) -> Option<usize> {
    match v {
        Value::Semigroup(a) => Some(a.dim()),
        Value::Module(m) => Some(m.dim()),
        Value::Stratification(s) => Some(s.dim()),
        Value::StratifiedSet(s) => Some(s.dim()),
        Value::Cone(c) => Some(c.dim()),
        Value::Polyhedron(p) => Some(p.dim()),
        Value::Solution(s) => Some(s.game().dim()),
        Value::Set(items) => match items.first() {
            Some(Value::Vector(x)) => Some(x.dim()),
            _ => None,
        },
        _ => None,
    }
}

/// The value as an exact stratified set: semigroups, modules, stratifications (checked disjoint),
/// cones and polyhedra (their lattice points), finite sets of vectors, and solutions (their
/// P-positions).
pub(crate) fn to_set(v: &Value, span: Span) -> Result<StratifiedSet, EvalError> {
    to_set_in(v, span, None)
}

/// [`to_set`], where the empty literal `{}` is the empty subset of Z^dim when the context gives
/// a dimension (the other operand of `∪`, the game of `verify`, ...).
pub(crate) fn to_set_in(
    v: &Value,
    span: Span,
    dim: Option<usize>,
) -> Result<StratifiedSet, EvalError> {
    let err = |e: AlgebraError| algebra_error(e, span);
    match v {
        Value::Semigroup(a) => StratifiedSet::from_semigroup(a).map_err(err),
        Value::Module(m) => StratifiedSet::from_module(m).map_err(err),
        Value::Stratification(s) => match StratifiedSet::from_stratification(s).map_err(err)? {
            Ok(set) => Ok(set),
            Err(overlap) => Err(overlap_error(s, &overlap, span)),
        },
        Value::StratifiedSet(s) => Ok(s.set().clone()),
        Value::Cone(c) => {
            StratifiedSet::from_polyhedron(&Polyhedron::Cone((**c).clone())).map_err(err)
        }
        Value::Polyhedron(p) => StratifiedSet::from_polyhedron(p).map_err(err),
        Value::Set(items) => {
            let vs = super::as_vectors(v, "a point of the set", span)?;
            let Some(d) = vs.first().map(Vector::dim).or(dim) else {
                return Err(EvalError::new(
                    "lg::eval::value",
                    format!(
                        "the empty set {{}} has no dimension here ({} elements, and nothing beside it gives one)",
                        items.len()
                    ),
                    span,
                    "empty",
                )
                .with_help("write the empty subset of Z^d as a difference, e.g. `N^2 ∖ N^2`, or give at least one point"));
            };
            if let Some(bad) = vs.iter().find(|x| x.dim() != d) {
                same_dim(format!("the point {bad}"), d, bad.dim(), span)?;
            }
            Ok(StratifiedSet::from_points(d, &vs))
        }
        Value::Solution(s) => {
            let pts: Vec<Vector> = super::solution_p_positions(s)
                .into_iter()
                .filter_map(|p| match p {
                    Value::Vector(v) => Some((*v).clone()),
                    _ => None,
                })
                .collect();
            Ok(StratifiedSet::from_points(s.game().dim(), &pts))
        }
        other => Err(EvalError::type_error(
            "a set",
            "a semigroup, module, stratification, cone, polyhedron or finite set of vectors",
            other.type_name(),
            span,
        )),
    }
}

/// The error for overlapping pieces of a declared `⊎`.
pub(crate) fn overlap_error(
    s: &crate::algebra::Stratification,
    o: &crate::algebra::stratified_set::Overlap,
    span: Span,
) -> EvalError {
    let (i, j) = o.pieces;
    EvalError::new(
        "lg::eval::overlap",
        format!(
            "the pieces W{} = {} and W{} = {} of `⊎` overlap: both contain {}",
            i + 1,
            s.pieces()[i],
            j + 1,
            s.pieces()[j],
            o.point
        ),
        span,
        "not a disjoint union",
    )
    .with_help("an affine stratification is a disjoint union; remove the shared points from one piece (`∖`), or use `∪` for a union that may overlap")
}

/// The affine stratification of a stratification or of a set value in compact form (expanded now
/// if it was not yet); `None` for any other value.
pub(crate) fn stratification_of(
    v: &Value,
    span: Span,
) -> Result<Option<Rc<crate::algebra::Stratification>>, EvalError> {
    match v {
        Value::Stratification(s) => Ok(Some(s.clone())),
        Value::StratifiedSet(s) => match s.stratification() {
            Ok(Some(strat)) => Ok(Some(strat)),
            Ok(None) => Err(EvalError::new(
                "lg::eval::value",
                format!(
                    "this is the empty subset of Z^{}, which has no pieces",
                    s.dim()
                ),
                span,
                "empty",
            )
            .with_help("test for it with `is_empty(S)`")),
            Err(e) => Err(algebra_error(e, span)),
        },
        _ => Ok(None),
    }
}

/// The most points a finite result may have to be shown as a finite set `{...}`.
const FINITE_LIMIT: i64 = 100_000;

/// A stratified set as a value: a finite set `{...}` when it is finite and nonempty (and not
/// huge), else the set in its compact form, which knows its dimension even when empty and prints
/// as an affine stratification.
pub(crate) fn set_value(s: StratifiedSet, span: Span) -> R {
    if !s.is_empty() && s.is_finite().map_err(|e| algebra_error(e, span))? {
        make_disjoint(&s).map_err(|e| algebra_error(e, span))?;
        match s.simplicial_pieces_within(FINITE_LIMIT) {
            Ok(pieces) => {
                let points = pieces
                    .into_iter()
                    .map(|p| Value::vector(p.offset))
                    .collect();
                return Ok(Value::set(points));
            }
            Err(AlgebraError::TooLarge(_)) => {}
            Err(e) => return Err(algebra_error(e, span)),
        }
    }
    Ok(Value::StratifiedSet(Rc::new(SetValue::new(s))))
}

/// Exact equality of two set-like values (`==`); an empty `{}` takes the other side's dimension.
pub(crate) fn set_equal(l: &Value, r: &Value, ls: Span, rs: Span) -> Result<bool, EvalError> {
    let a = to_set_in(l, ls, set_dim(r))?;
    let b = to_set_in(r, rs, set_dim(l))?;
    if a.dim() != b.dim() {
        return Ok(false);
    }
    a.set_eq(&b).map_err(|e| algebra_error(e, ls.to(rs)))
}

/// An error naming `what` unless `found` = `expected` dimensions.
pub(super) fn same_dim(
    what: impl Into<String>,
    expected: usize,
    found: usize,
    span: Span,
) -> Result<(), EvalError> {
    if expected == found {
        return Ok(());
    }
    Err(algebra_error(
        AlgebraError::DimensionMismatch {
            what: what.into(),
            expected,
            found,
        },
        span,
    ))
}

/// `∪`, `∩`, `∖` on sets.
pub(crate) fn set_operation(op: char, l: &Value, r: &Value, ls: Span, rs: Span) -> R {
    let a = to_set_in(l, ls, set_dim(r))?;
    let b = to_set_in(r, rs, set_dim(l))?;
    let span = ls.to(rs);
    same_dim(format!("the sets of `{op}`"), a.dim(), b.dim(), span)?;
    let mut spinner = crate::eval::progress::Spinner::new();
    spinner.update(|| {
        format!(
            "`{op}` of sets of {} and {} basic sets",
            a.cover().len(),
            b.cover().len()
        )
    });
    let out = match op {
        '∪' => a.union(&b),
        '∩' => a.intersect(&b),
        _ => a.difference(&b),
    }
    .map_err(|e| algebra_error(e, span))?;
    set_value(out, span)
}

fn genfunc_value(f: RationalFunction, names: Vec<String>) -> Value {
    Value::Genfunc(Rc::new(Genfunc { f, names }))
}

fn as_genfunc(a: &Args, i: usize) -> Result<Rc<Genfunc>, EvalError> {
    match a.value(i) {
        Value::Genfunc(g) => Ok(g.clone()),
        _ => Err(a.wrong(i, "a rational function (from `genfunc`)")),
    }
}

/// The P-positions of a game whose strategy is known (squarefree normal play), as a set.
fn game_strategy(g: &crate::game::LatticeGame, span: Span) -> Result<StratifiedSet, EvalError> {
    strategy::known_strategy(g)
        .map_err(|e| solve_error(e, span))?
        .ok_or_else(|| {
            EvalError::new("lg::eval::strategy", "no strategy is known for this game", span, "this game")
                .with_help("only squarefree games in normal play have one built in (P = P0 + 2N^d); pass a stratification of the P-positions instead")
        })
}

fn genfunc(_: &mut Interpreter, a: &mut Args) -> R {
    let span = a.span(0);
    if let Value::Polyhedron(p) = a.value(0) {
        // Barvinok's signed short form: polynomial size in the input's bits.
        let mut spinner = crate::eval::progress::Spinner::new();
        let f = super::counting::short_form_with_progress(
            &mut spinner,
            p,
            "genfunc",
            ShortForm::of_polyhedron_reporting,
        ).map_err(|e| match e {
            AlgebraError::NotPointed { line } => EvalError::new(
                "lg::eval::value",
                format!("this polyhedron contains the line through {line}: its lattice points have no generating function that converges"),
                span,
                "not pointed",
            )
            .with_help("a polyhedron with a line has the zero rational function (every cone with a line does); intersect it with a pointed one"),
            e => algebra_error(e, span),
        })?;
        let names = variable_names(a, f.dim())?;
        return Ok(Value::ShortGenfunc(Rc::new(ShortGenfunc::new(f, names))));
    }
    let set = match a.value(0) {
        Value::Game(g) => game_strategy(g, span)?,
        v => to_set(v, span)?,
    };
    let names = variable_names(a, set.dim())?;
    make_disjoint(&set).map_err(|e| algebra_error(e, span))?;
    let f = RationalFunction::of_set(&set).map_err(|e| algebra_error(e, span))?;
    Ok(genfunc_value(f, names))
}

/// The `vars:` names for a function of d variables, or the default a, b, c, ...
fn variable_names(a: &Args, d: usize) -> Result<Vec<String>, EvalError> {
    Ok(match a.named("vars") {
        None => default_names(d),
        Some((v, vs)) => {
            let items = match v {
                Value::List(items) | Value::Tuple(items) => items.to_vec(),
                _ => {
                    return Err(EvalError::type_error(
                        "the variable names",
                        "a list of strings",
                        v.type_name(),
                        vs,
                    ))
                }
            };
            let names: Vec<String> = items
                .iter()
                .filter_map(|x| match x {
                    Value::Str(s) => Some(s.to_string()),
                    _ => None,
                })
                .collect();
            if names.len() != items.len() || names.len() != d {
                return Err(EvalError::new(
                    "lg::eval::value",
                    format!("give {d} variable names as strings"),
                    vs,
                    "variable names",
                )
                .with_help("for example `vars: [\"x\", \"y\"]`"));
            }
            names
        }
    })
}

fn hadamard(_: &mut Interpreter, a: &mut Args) -> R {
    if matches!(a.value(0), Value::ShortGenfunc(_)) || matches!(a.value(1), Value::ShortGenfunc(_))
    {
        let Some((f, names)) = short_forms::as_short(a.value(0)) else {
            return Err(a.wrong(0, "a rational function (from `genfunc`)"));
        };
        let g = match a.value(1) {
            Value::Vector(p) => ShortForm::from_rational_function(&RationalFunction::monomial(p)),
            v => match short_forms::as_short(v) {
                Some((g, _)) => g,
                None => return Err(a.wrong(1, "a rational function or a vector p (for t^p)")),
            },
        };
        same_dim("the second factor", f.dim(), g.dim(), a.span(1))?;
        let h = short_forms::hadamard(&f, &g, a.span)?;
        return Ok(short_forms::short_value(h, names));
    }
    let f = as_genfunc(a, 0)?;
    let g = match a.value(1) {
        Value::Vector(p) => RationalFunction::monomial(p),
        Value::Genfunc(g) => g.f.clone(),
        _ => return Err(a.wrong(1, "a rational function or a vector p (for t^p)")),
    };
    same_dim("the second factor", f.f.dim(), g.dim(), a.span(1))?;
    let h = f.f.hadamard(&g).map_err(|e| match e {
        AlgebraError::NotPointed { .. } => EvalError::new(
            "lg::eval::value",
            "the denominators do not lie in a common pointed cone",
            a.span,
            "here",
        )
        .with_help("[GM11] Lemma 3.5 needs both series to live in one pointed cone"),
        e => algebra_error(e, a.span),
    })?;
    Ok(genfunc_value(h, f.names.clone()))
}

fn monomial(_: &mut Interpreter, a: &mut Args) -> R {
    let p = a.vector(0)?;
    Ok(genfunc_value(
        RationalFunction::monomial(&p),
        default_names(p.dim()),
    ))
}

fn series(_: &mut Interpreter, a: &mut Args) -> R {
    let f = match a.value(0) {
        Value::ShortGenfunc(g) => {
            // Cut the expansion along the functional (or f's own direction).
            let ell = match a.named("functional") {
                Some((Value::Vector(l), ls)) => {
                    same_dim("the functional", g.f.dim(), l.dim(), ls)?;
                    (**l).clone()
                }
                _ => Vector(vec![Integer::ONE; g.f.dim()]),
            };
            let e = short_forms::expansion_for(&g.f, &ell, a.span(0))?;
            Rc::new(Genfunc {
                f: e,
                names: g.names.clone(),
            })
        }
        _ => as_genfunc(a, 0)?,
    };
    let degree = a.int(1)?;
    let ell = match a.named("functional") {
        Some((Value::Vector(l), ls)) => {
            same_dim("the functional", f.f.dim(), l.dim(), ls)?;
            (**l).clone()
        }
        Some((v, vs)) => {
            return Err(EvalError::type_error(
                "the functional",
                "an integer vector",
                v.type_name(),
                vs,
            ))
        }
        None => Vector(vec![Integer::ONE; f.f.dim()]),
    };
    let s = f.f.series(&ell, &degree).map_err(|bad| {
        EvalError::new("lg::eval::value", format!("the series does not truncate: the functional {ell} is not positive on the denominator exponent {bad}"), a.span(0), "this function")
            .with_help("give a functional positive on every denominator: `series(f, 10, functional: (1, 2))`")
    })?;
    Ok(genfunc_value(s, f.names.clone()))
}

fn hilbert_series(_: &mut Interpreter, a: &mut Args) -> R {
    let f = as_genfunc(a, 0)?;
    let grading = match a.value(1) {
        Value::Vector(g) => (**g).clone(),
        _ => return Err(a.wrong(1, "a grading (an integer vector)")),
    };
    same_dim("the grading", f.f.dim(), grading.dim(), a.span(1))?;
    match f.f.hilbert_series(&grading) {
        Ok(h) => Ok(Value::str(&h.to_string())),
        Err(SpecializationError::NotPositive(bad)) => Err(EvalError::new(
            "lg::eval::value",
            format!("the grading {grading} is not positive on the denominator exponent {bad}, so the Hilbert series is no power series"),
            a.span(1),
            "this grading",
        )
        .with_help("give a grading positive on every denominator exponent (on the set's recession cone)")),
        Err(SpecializationError::TooLarge(what)) => Err(algebra_error(
            AlgebraError::TooLarge(what),
            a.span(1),
        )),
    }
}

fn common_denominator(_: &mut Interpreter, a: &mut Args) -> R {
    let f = as_genfunc(a, 0)?;
    let latex = match a.named("latex") {
        None | Some((Value::Bool(false), _)) => false,
        Some((Value::Bool(true), _)) => true,
        Some((v, span)) => {
            return Err(EvalError::type_error(
                "latex",
                "true or false",
                v.type_name(),
                span,
            ))
        }
    };
    let c =
        f.f.over_common_denominator()
            .map_err(|e| algebra_error(e, a.span(0)))?;
    Ok(Value::str(&c.show(&f.names, latex)))
}

fn evaluate(_: &mut Interpreter, a: &mut Args) -> R {
    let dim = match a.value(0) {
        Value::ShortGenfunc(g) => g.f.dim(),
        _ => as_genfunc(a, 0)?.f.dim(),
    };
    let items: Vec<Value> = match a.value(1) {
        Value::Vector(v) => v.0.iter().map(|x| Value::Int(x.clone())).collect(),
        Value::Tuple(t) => t.to_vec(),
        _ => return Err(a.wrong(1, "a point (a tuple of numbers)")),
    };
    let xs: Option<Vec<BigRational>> = items
        .iter()
        .map(|x| match x {
            Value::Int(i) => Some(BigRational::from(i.to_bigint())),
            Value::Rational(r) => Some((**r).clone()),
            _ => None,
        })
        .collect();
    let Some(xs) = xs.filter(|x| x.len() == dim) else {
        return Err(a.wrong(1, &format!("a point of {dim} numbers")));
    };
    if let Value::ShortGenfunc(g) = a.value(0) {
        return short_forms::evaluate(g, &xs, a.span(1));
    }
    let f = as_genfunc(a, 0)?;
    match f.f.evaluate(&xs) {
        Some(v) => Ok(Value::rational(v)),
        None => Err(EvalError::new("lg::eval::value", "the function has a pole at this point (a denominator 1 - t^a vanishes, or 0 is raised to a negative power)", a.span(1), "a pole")
            .with_help("evaluate at another point")),
    }
}

fn latex(_: &mut Interpreter, a: &mut Args) -> R {
    use crate::eval::latex::{latex_form, LatexError};
    match latex_form(a.value(0)) {
        Ok(Some(text)) => Ok(Value::str(&text)),
        Ok(None) => Err(a.wrong(
            0,
            "a rational function, a stratification, a rule set, a game, a solution or a misère quotient",
        )),
        Err(LatexError::TooLarge(n)) => Err(EvalError::new(
            "lg::eval::value",
            format!(
                "the solution has {n} cells or P-positions to write, more than a table should hold ({})",
                crate::eval::latex::MAX_CELLS
            ),
            a.span(0),
            "too large for a table",
        )
        .with_help("restrict it first: `latex(restrict(S, ((0, 0), (20, 20))))`")),
        Err(LatexError::Empty(d)) => Err(EvalError::new(
            "lg::eval::value",
            format!("this is the empty subset of Z^{d}, which has no pieces"),
            a.span(0),
            "empty",
        )
        .with_help("test for it with `is_empty(S)`")),
        Err(LatexError::Algebra(e)) => Err(algebra_error(e, a.span(0))),
    }
}

/// Σ binary lengths of the entries.
fn bits(vs: &[Vector]) -> u64 {
    vs.iter().flat_map(|v| v.0.iter().map(Integer::bits)).sum()
}

/// [GM11] Definition 4.9: d(Σ n_i + Σ m_i) + the entries of every F_i and A_i.
fn modules_complexity(pieces: &[crate::algebra::AffineModule]) -> u64 {
    pieces
        .iter()
        .map(|w| {
            let gens = w.semigroup().generators();
            (w.dim() * (gens.len() + w.offsets().len())) as u64 + bits(gens) + bits(w.offsets())
        })
        .sum()
}

fn complexity(_: &mut Interpreter, a: &mut Args) -> R {
    let n = match a.value(0) {
        Value::Genfunc(g) => return Ok(Value::Int(g.f.complexity())),
        Value::ShortGenfunc(g) => return Ok(Value::Int(g.f.written().complexity())),
        Value::Game(g) => {
            // [GM11] Definition 2.4: d(m + n) + the entries of Γ and of the defeated generators.
            // The entries of Γ from its nonzero ones (each zero entry counts as a zero's bits).
            let (rules, defeated) = (g.rules(), g.board().defeated());
            let nonzero: Vec<&Integer> = rules
                .sparse_moves()
                .iter()
                .flat_map(|m| m.entries().iter().map(|(_, x)| x))
                .collect();
            let zeros = (g.dim() * rules.len() - nonzero.len()) as u64;
            (g.dim() * (rules.len() + defeated.len())) as u64
                + nonzero.iter().map(|x| x.bits()).sum::<u64>()
                + zeros * Integer::ZERO.bits()
                + bits(defeated)
        }
        Value::Semigroup(s) => (s.dim() * s.generators().len()) as u64 + bits(s.generators()),
        Value::Module(m) => modules_complexity(std::slice::from_ref(&**m)),
        v @ (Value::Stratification(_) | Value::StratifiedSet(_)) => {
            let s = stratification_of(v, a.span(0))?.expect("a stratification or set value");
            modules_complexity(s.pieces())
        }
        _ => {
            return Err(a.wrong(
                0,
                "a game, rational function, semigroup, module or stratification",
            ))
        }
    };
    Ok(Value::int(Integer::from(n as i64)))
}

fn complement(_: &mut Interpreter, a: &mut Args) -> R {
    let s = to_set(a.value(0), a.span(0))?;
    let d = s.dim();
    let universe = if a.len() < 2 {
        StratifiedSet::from_polyhedron(&Polyhedron::Cone(Cone::Orthant(d)))
            .map_err(|e| algebra_error(e, a.span))?
    } else {
        match a.value(1) {
            Value::Game(g) => strategy::board(g).map_err(|e| solve_error(e, a.span(1)))?,
            Value::Board(b) => StratifiedSet::from_polyhedron(b.polyhedron())
                .map_err(|e| algebra_error(e, a.span(1)))?,
            v => to_set(v, a.span(1))?,
        }
    };
    if a.len() >= 2 {
        same_dim(
            "the universe of the complement",
            d,
            universe.dim(),
            a.span(1),
        )?;
    }
    let out = s
        .complement_in(&universe)
        .map_err(|e| algebra_error(e, a.span))?;
    set_value(out, a.span)
}

fn is_empty(_: &mut Interpreter, a: &mut Args) -> R {
    match a.value(0) {
        Value::Set(x) | Value::List(x) => Ok(Value::Bool(x.is_empty())),
        Value::Genfunc(g) => Ok(Value::Bool(
            g.f.is_zero().map_err(|e| algebra_error(e, a.span(0)))?,
        )),
        v => Ok(Value::Bool(to_set(v, a.span(0))?.is_empty())),
    }
}

/// The P-positions and cone of `congruent`'s first argument: a game (its known strategy and its
/// cone), or a set or rational function with the cone given by `cone:` (default N^d).
enum Strategy {
    Set(StratifiedSet),
    Function(RationalFunction),
}

fn congruence(a: &Args) -> Result<Option<Vector>, EvalError> {
    let p = a.vector(1)?;
    let q = a.vector(2)?;
    let span = a.span(0);
    let (strategy, dim) = match a.value(0) {
        Value::Game(g) => (Strategy::Set(game_strategy(g, span)?), g.dim()),
        Value::Genfunc(g) => (Strategy::Function(g.f.clone()), g.f.dim()),
        v => {
            let s = to_set(v, span)?;
            let d = s.dim();
            (Strategy::Set(s), d)
        }
    };
    for (x, i) in [(&p, 1), (&q, 2)] {
        same_dim(format!("the position {x}"), dim, x.dim(), a.span(i))?;
    }
    let cone = match (a.named("cone"), a.value(0)) {
        (Some((Value::Cone(c), cs)), _) => {
            same_dim("the cone C", dim, c.dim(), cs)?;
            StratifiedSet::from_polyhedron(&Polyhedron::Cone((**c).clone()))
                .map_err(|e| algebra_error(e, cs))?
        }
        (Some((v, vs)), _) => {
            return Err(EvalError::type_error(
                "the cone C",
                "a cone",
                v.type_name(),
                vs,
            ))
        }
        (None, Value::Game(g)) => strategy::cone_points(g).map_err(|e| algebra_error(e, span))?,
        (None, _) => StratifiedSet::from_polyhedron(&Polyhedron::Cone(Cone::Orthant(dim)))
            .map_err(|e| algebra_error(e, span))?,
    };
    let result = match strategy {
        Strategy::Set(s) => strategy::congruence_witness(&s, &cone, &p, &q),
        Strategy::Function(f) => strategy::congruence_witness_from(&f, &cone, &p, &q),
    };
    result.map_err(|e| algebra_error(e, a.span))
}

pub(super) fn register(r: &mut Vec<Builtin>) {
    r.push(Builtin {
        name: "genfunc",
        signature: "genfunc(x, vars: names) -> rational function",
        doc: "The rational generating function Σ_{p∈S} t^p of a set with an affine stratification: a semigroup\n\
              ([GM11] Lemma 5.4), a module (Lemma 5.5), a stratification (Theorem 5.1), the lattice points of a\n\
              pointed cone, a finite set, a solution's P-positions, or a squarefree game's P-positions. Each term\n\
              t^p/((1-t^a1)...(1-t^ak)) has independent a_j and counts a disjoint piece p + N{a1..ak}. Of a pointed\n\
              polyhedron it is Barvinok's signed short form (a short rational function: Brion's vertex cones split\n\
              into signed unimodular cones, polynomial size in the input's bits), whose terms are not sets. Variables\n\
              print as a, b, c, ... unless `vars:` names them.",
        example: "genfunc((1, 0) + N{(2, 0)} ⊎ (0, 2) + 2N^2)",
        min_args: 1,
        max_args: Some(1),
        named: &["vars"],
        func: genfunc,
    });
    r.push(Builtin {
        name: "hadamard",
        signature: "hadamard(f, g) -> rational function",
        doc: "The Hadamard product f ⋆ g = Σ f_a g_a t^a ([GM11] Definition 3.4, Lemma 3.5), computed exactly term\n\
              by term (two terms multiply to the generating function of the intersection of their pieces).\n\
              `g` may be a vector p, standing for t^p: `hadamard(f, p)` is t^p when p is counted by f\n\
              ([GM11] Theorem 3.6).",
        example: "hadamard(genfunc(2N^2), genfunc(3N^2))",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: hadamard,
    });
    r.push(Builtin {
        name: "monomial",
        signature: "monomial(p) -> rational function",
        doc: "The monomial t^p, a rational function with one term and no denominator.",
        example: "monomial((2, 1))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: monomial,
    });
    r.push(Builtin {
        name: "series",
        signature: "series(f, degree, functional: l) -> polynomial",
        doc: "The expansion of f truncated to the terms t^p with l·p ≤ degree (l defaults to (1, ..., 1) and must\n\
              be positive on every denominator exponent), as a polynomial.",
        example: "series(genfunc(2N^2), 4)",
        min_args: 2,
        max_args: Some(2),
        named: &["functional"],
        func: series,
    });
    r.push(Builtin {
        name: "hilbert_series",
        signature: "hilbert_series(f, grading) -> string",
        doc: "The Hilbert series of f under a Z-grading g: f with t_i replaced by t^(g_i), that is Σ t^(g·x) over the\n\
              points x counted, as N(t)/Π(1 - t^k)^m in Normaliz's form (g must be positive on every denominator).",
        example: "hilbert_series(genfunc(N{(2, 0), (1, 1), (0, 2)}), (1, 1))",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: hilbert_series,
    });
    r.push(Builtin {
        name: "common_denominator",
        signature: "common_denominator(f, latex: false) -> string",
        doc: "f as one fraction N/Π(1 - t^a) over the distinct denominator factors of its terms, with the\n\
              factors that divide the numerator cancelled; `latex: true` writes it in LaTeX.",
        example: "common_denominator(genfunc(((1, 0) + N{(2, 0)}) ⊎ ((0, 2) + 2N^2)))",
        min_args: 1,
        max_args: Some(1),
        named: &["latex"],
        func: common_denominator,
    });
    r.push(Builtin {
        name: "evaluate",
        signature: "evaluate(f, point) -> number",
        doc: "The exact value of a rational function at a point with rational coordinates (an error at a pole).",
        example: "evaluate(genfunc(2N^2), (1/2, 1/3))",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: evaluate,
    });
    r.push(Builtin {
        name: "latex",
        signature: "latex(x) -> string",
        doc: "LaTeX in the papers' notation for a rational function, a stratification, a rule set (its\n\
              moves as the columns of a matrix), a game (Γ and the board Λ ∖ D) or a solution (in two\n\
              dimensions a table of its region, • P, · N, × defeated; otherwise its set of P-positions;\n\
              at most 4096 cells).",
        example: "latex(genfunc(2N^2))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: latex,
    });
    r.push(Builtin {
        name: "complexity",
        signature: "complexity(x) -> integer",
        doc: "The input complexity in bits of a game ([GM11] Definition 2.4), a rational function (Definition 3.3),\n\
              a semigroup (Definition 4.8), or a module or stratification (Definition 4.9). log2|x| is read as the\n\
              binary length of |x| (0 for 0), as [GM11] Section 4 explains.",
        example: "complexity(genfunc(2N^2))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: complexity,
    });
    r.push(Builtin {
        name: "complement",
        signature: "complement(S, within) -> set",
        doc: "The complement of S within a universe ([GM11] Theorem 4.2): a game's board B (its defeated\n\
              positions removed), a board's or polyhedron's lattice points Λ, or any set; N^d when omitted.",
        example: "complement(2N^2)",
        min_args: 1,
        max_args: Some(2),
        named: &[],
        func: complement,
    });
    r.push(Builtin {
        name: "is_empty",
        signature: "is_empty(S) -> boolean",
        doc: "Whether a set is empty (decided exactly for infinite sets), or whether a rational function is the\n\
              zero function.",
        example: "is_empty(2N^2 ∩ ((1, 0) + 2N^2))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: is_empty,
    });
    r.push(Builtin {
        name: "congruent",
        signature: "congruent(x, p, q, cone: C) -> boolean",
        doc: "Whether p and q are (misère) congruent: (p + C) ∩ P − p = (q + C) ∩ P − q ([GM11] Definition 6.1,\n\
              Theorem 6.2). x is a game with a known strategy (its cone is used), a set of P-positions, or a\n\
              rational strategy (decided through Hadamard products as in the proof of Theorem 6.2); C defaults\n\
              to the orthant. `congruence_witness` gives an r showing they are not.",
        example: "congruent((1, 0) + N{(2, 0)} ⊎ (0, 2) + 2N^2, (1, 0), (3, 0))",
        min_args: 3,
        max_args: Some(3),
        named: &["cone"],
        func: |_, a| Ok(Value::Bool(congruence(a)?.is_none())),
    });
    r.push(Builtin {
        name: "congruence_witness",
        signature: "congruence_witness(x, p, q, cone: C) -> vector or ()",
        doc: "A vector r of C with exactly one of p + r and q + r a P-position, or () when p and q are congruent\n\
              (see `congruent`).",
        example: "congruence_witness((1, 0) + N{(2, 0)} ⊎ (0, 2) + 2N^2, (0, 0), (1, 0))",
        min_args: 3,
        max_args: Some(3),
        named: &["cone"],
        func: |_, a| Ok(congruence(a)?.map_or(Value::Nothing, Value::vector)),
    });
}

/// `winning_moves(f, game, p)`: the moves to P-positions decided from a rational strategy alone
/// ([GM11] Theorem 3.6).
pub(crate) fn winning_moves_from(a: &Args) -> R {
    let f = as_genfunc(a, 0)?;
    let Value::Game(g) = a.value(1) else {
        return Err(a.wrong(1, "a game"));
    };
    let p = a.vector(2)?;
    for (d, what, i) in [(g.dim(), "the game", 1), (p.dim(), "the position", 2)] {
        same_dim(
            format!("{what} (the rational strategy has {} variables)", f.f.dim()),
            f.f.dim(),
            d,
            a.span(i),
        )?;
    }
    let moves = strategy::winning_moves_from(&f.f, g, &p).map_err(|e| solve_error(e, a.span(2)))?;
    Ok(Value::set(moves.into_iter().map(Value::vector).collect()))
}

/// `p in f`: whether the coefficient of t^p in f is 1 ([GM11] Theorem 3.6).
pub(crate) fn genfunc_contains(f: &Genfunc, p: &Vector) -> bool {
    strategy::is_p_position(&f.f, p)
}
