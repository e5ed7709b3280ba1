//! The solver's builtins: `solve`, `outcome`, `options`, `winning_moves`, `restrict` and
//! `positions`, over the library in `crate::game::solver`.

use std::rc::Rc;

use super::objects::{algebra_error, game_error};
use super::{Args, Builtin};
use crate::algebra::{AffineModule, AffineSemigroup, Integer, Stratification, Vector};
use crate::eval::value::Value;
use crate::eval::{EvalError, Interpreter};
use crate::game::solver::{
    outcome_below, squarefree_p0, MemoSolver, Outcome, Region, Solution, SolveError, SolveOptions,
};
use crate::game::LatticeGame;
use crate::syntax::Span;

type R = Result<Value, EvalError>;

/// A diagnostic for a solver error at `span`.
pub(super) fn solve_error(e: SolveError, span: Span) -> EvalError {
    match e {
        SolveError::Algebra(e) => algebra_error(e, span),
        SolveError::Game(e) => game_error(e, span),
        SolveError::TooLarge { .. } => EvalError::new("lg::eval::too_large", e.to_string(), span, "too large")
            .with_help("solve a smaller region (a lower weight bound or a smaller box), or ask `outcome` about single positions"),
        SolveError::Unbounded => EvalError::new("lg::eval::region", e.to_string(), span, "unbounded")
            .with_help("give a weight bound (`solve(G, 20)`), a box (`solve(G, ((0, 0), (9, 9)))`) or a bounded polyhedron"),
        SolveError::NotPositive { .. } => EvalError::new("lg::eval::functional", e.to_string(), span, "not positive here")
            .with_help("the functional must be positive on every move and every ray of the board's recession cone; `positive_functional(Γ, C)` finds one"),
        SolveError::NotSquarefree(_) => EvalError::new("lg::eval::squarefree", e.to_string(), span, "not a squarefree game in normal play")
            .with_help("solve a region instead: `solve(G, 20)` solves every position of weight at most 20"),
        SolveError::Interrupted => EvalError::new("lg::eval::interrupted", "interrupted", span, "stopped here")
            .with_help("the computation was stopped with Ctrl-C; the session goes on"),
    }
}

/// [`solve_error`] for a single-position query (`outcome`, `winning_moves`, `grundy(G, p)`):
/// when the positions below p are too many, say what would work instead.
fn position_error(e: SolveError, span: Span) -> EvalError {
    match e {
        SolveError::TooLarge { .. } => EvalError::new("lg::eval::too_large", e.to_string(), span, "too large")
            .with_help("the positions below this one do not fit in memory: solve a region around the positions of interest (`solve(G, 20)`) and ask the solution, or stratify the game and test membership"),
        e => solve_error(e, span),
    }
}

pub(super) fn game_arg(a: &Args, i: usize) -> Result<Rc<LatticeGame>, EvalError> {
    match a.value(i) {
        Value::Game(g) => Ok(g.clone()),
        _ => Err(a
            .wrong(i, "a game")
            .with_help("make one with `game(Γ, normal_play(Γ))`")),
    }
}

fn position_arg(a: &Args, i: usize, d: usize) -> Result<Vector, EvalError> {
    let p = a.vector(i)?;
    if p.dim() != d {
        return Err(EvalError::new(
            "lg::eval::dimension",
            format!(
                "the game lives in Z^{d}, but the position {p} has {} coordinates",
                p.dim()
            ),
            a.span(i),
            format!("dimension {}", p.dim()),
        )
        .with_help(format!("give a position with {d} coordinates")));
    }
    Ok(p)
}

/// A region from a value: an integer weight bound, a box (lo, hi), or a bounded polyhedron.
fn region_of(v: &Value, span: Span) -> Result<Region, EvalError> {
    match v {
        Value::Int(l) => Ok(Region::Weight(l.clone())),
        Value::Polyhedron(p) => Ok(Region::Polytope((**p).clone())),
        Value::Tuple(items) | Value::List(items) if items.len() == 2 => {
            match (&items[0], &items[1]) {
                (Value::Vector(lo), Value::Vector(hi)) => Ok(Region::Box {
                    lo: (**lo).clone(),
                    hi: (**hi).clone(),
                }),
                _ => Err(bad_region(v, span)),
            }
        }
        _ => Err(bad_region(v, span)),
    }
}

fn bad_region(v: &Value, span: Span) -> EvalError {
    EvalError::type_error(
        "a region to solve",
        "a weight bound (an integer), a box given by two corners ((0, 0), (9, 9)), or a bounded polyhedron",
        v.type_name(),
        span,
    )
}

fn solve(_: &mut Interpreter, a: &mut Args) -> R {
    let timeout = a.timeout()?;
    super::within_timeout(timeout, a.span, || solve_region(a))
}

fn solve_region(a: &Args) -> R {
    let game = game_arg(a, 0)?;
    let functional_span = a.named("functional").map(|(_, s)| s);
    let functional = match a.named("functional") {
        Some((Value::Vector(l), _)) => Some((**l).clone()),
        Some((other, span)) => {
            return Err(EvalError::type_error(
                "the functional",
                "an integer vector",
                other.type_name(),
                span,
            ))
        }
        None => None,
    };
    let (region, span) = match (a.len(), a.named("max_weight")) {
        (2, _) => (region_of(a.value(1), a.span(1))?, a.span(1)),
        (_, Some((Value::Int(l), span))) => (Region::Weight(l.clone()), span),
        (_, Some((other, span))) => {
            return Err(EvalError::type_error(
                "max_weight",
                "an integer",
                other.type_name(),
                span,
            ))
        }
        _ => return squarefree(&game, a.span),
    };
    // Progress once a solve has taken a second.
    // While the region is laid out (total 0), the shared spinner counts its positions.
    let mut counting = Some(crate::eval::progress::Spinner::new());
    let mut bar = crate::eval::progress::Bar::new(
        "solving: position",
        "  solving {bar:30} {percent:>3}% of {human_len} positions, {elapsed} (Ctrl-C stops)",
    );
    let mut report = |done: u64, total: u64| {
        if total == 0 {
            if let Some(c) = counting.as_mut() {
                c.update(|| format!("laying out the region: {done} positions so far"));
            }
            return;
        }
        counting = None;
        bar.set(done, total);
    };
    let options = SolveOptions {
        functional,
        max_bytes: crate::memory::budget(),
        progress: Some(&mut report),
    };
    let result = Solution::solve(&game, &region, options);
    result
        .map(|s| Value::Solution(Rc::new(s)))
        .map_err(|e| match e {
            SolveError::NotPositive { .. } => solve_error(e, functional_span.unwrap_or(span)),
            e => solve_error(e, span),
        })
}

/// `solve(G)`: squarefree normal play, as the stratification P0 + 2N^d.
fn squarefree(game: &LatticeGame, span: Span) -> R {
    let sf = squarefree_p0(game).map_err(|e| solve_error(e, span))?;
    let d = sf.dim();
    let a = AffineSemigroup::orthant(d)
        .map_err(|e| algebra_error(e, span))?
        .scale(&Integer::from(2));
    let module = AffineModule::new(sf.p0(), a).map_err(|e| algebra_error(e, span))?;
    let s = Stratification::new(vec![module]).map_err(|e| algebra_error(e, span))?;
    Ok(Value::Stratification(Rc::new(s)))
}

/// The most games whose single-position memos the session keeps.
const KEPT_SOLVERS: usize = 4;

/// The session's single-position solver for `game` (kept between calls, so that asking about
/// many positions of one game explores each position once).
fn memo_for<'a>(
    interp: &'a mut Interpreter,
    game: &LatticeGame,
    span: Span,
) -> Result<&'a mut MemoSolver, EvalError> {
    let i = match interp.solvers.iter().position(|(g, _)| g == game) {
        Some(i) => i,
        None => {
            let solver = MemoSolver::new(game).map_err(|e| solve_error(e, span))?;
            // As many positions as fit in the memory budget (the stack of a long descent counts).
            let fit = (crate::memory::budget() / solver.bytes_per_position()).max(1) as usize;
            let solver = solver.with_limit(fit.min(crate::game::solver::MAX_EXPLORED));
            if interp.solvers.len() >= KEPT_SOLVERS {
                interp.solvers.remove(0);
            }
            interp.solvers.push((game.clone(), solver));
            interp.solvers.len() - 1
        }
    };
    Ok(&mut interp.solvers[i].1)
}

/// Runs a single-position query with a spinner once it has taken a second.
fn with_progress<T>(
    solver: &mut MemoSolver,
    what: &'static str,
    query: impl FnOnce(&mut MemoSolver) -> T,
) -> T {
    let mut spinner = crate::eval::progress::Spinner::new();
    solver.set_progress(Some(Box::new(move |explored| {
        spinner.update(|| format!("{what}: {explored} positions explored"));
    })));
    let out = query(solver);
    // Dropping the closure drops the spinner, which clears its line.
    solver.set_progress(None);
    out
}

/// The heap-type values of a heap game in normal play on N^d, and p when it is a position of it
/// (nonnegative entries): outcomes and winning moves then come from Grundy values.
fn heap_values_at(game: &LatticeGame, p: &Vector) -> Option<Vec<u64>> {
    if p.0.iter().any(|x| x.signum() < 0) {
        return None;
    }
    crate::game::sprague_grundy::heap_type_values(game)
}

fn outcome_name(o: Outcome) -> Value {
    Value::str(match o {
        Outcome::P => "P",
        Outcome::N => "N",
        Outcome::Defeated => "defeated",
        Outcome::OffBoard => "off board",
    })
}

fn outcome(interp: &mut Interpreter, a: &mut Args) -> R {
    match a.value(0) {
        Value::Quotient(q) => super::quotients::outcome_in_quotient(&q.clone(), a),
        Value::Solution(s) => {
            let p = position_arg(a, 1, s.game().dim())?;
            let q = crate::game::solver::machine_or_none(&p);
            match q.and_then(|q| s.outcome(&q)) {
                Some(o) => Ok(outcome_name(o)),
                None => Err(EvalError::new(
                    "lg::eval::region",
                    format!("{p} lies outside the solved region ({})", s.description()),
                    a.span(1),
                    "not solved",
                )
                .with_help("ask the game itself, `outcome(G, p)`, or solve a larger region")),
            }
        }
        _ => {
            let game = game_arg(a, 0)?;
            let p = position_arg(a, 1, game.dim())?;
            if let Some(values) = heap_values_at(&game, &p) {
                let v = crate::game::sprague_grundy::position_value(&values, &p);
                return Ok(outcome_name(if v == 0 { Outcome::P } else { Outcome::N }));
            }
            // A sum of heaps in misère play: through its proved quotient.
            let mut why_not = None;
            if let Some(o) = super::quotients::through_quotient(
                interp,
                &game,
                &p,
                a.span,
                &mut why_not,
                |oracle| oracle.outcome_of_point(&p),
            )? {
                return Ok(outcome_name(o));
            }
            let Some(q) = crate::game::solver::machine_or_none(&p) else {
                return outcome_below(&game, &p)
                    .map(outcome_name)
                    .map_err(|e| with_quotient_note(solve_error(e, a.span), &why_not));
            };
            let solver = memo_for(interp, &game, a.span)?;
            let result = with_progress(solver, "outcome", |s| s.outcome(&q));
            if solver.explored() > 20_000_000 {
                interp.solvers.retain(|(g, _)| g != &*game);
            }
            result
                .map(outcome_name)
                .map_err(|e| with_quotient_note(position_error(e, a.span), &why_not))
        }
    }
}

fn options(_: &mut Interpreter, a: &mut Args) -> R {
    let game = game_arg(a, 0)?;
    let p = position_arg(a, 1, game.dim())?;
    crate::game::solver::options(&game, &p)
        .map(|v| Value::set(v.into_iter().map(Value::vector).collect()))
        .map_err(|e| solve_error(e, a.span))
}

fn winning_moves(interp: &mut Interpreter, a: &mut Args) -> R {
    if let Value::Quotient(q) = a.value(0) {
        return super::quotients::winning_moves_in_quotient(&q.clone(), a);
    }
    if matches!(a.value(0), Value::Genfunc(_)) {
        return super::sets::winning_moves_from(a);
    }
    if a.len() > 2 {
        return Err(a.wrong(0, "a rational strategy f, for `winning_moves(f, game, p)`"));
    }
    let game = game_arg(a, 0)?;
    let p = position_arg(a, 1, game.dim())?;
    let span = a.span;
    let not_on_board = || off_board(&p, a.span(1));
    if let Some(values) = heap_values_at(&game, &p) {
        let moves = crate::game::sprague_grundy::winning_heap_moves(&game, &values, &p);
        return Ok(Value::set(moves.into_iter().map(Value::vector).collect()));
    }
    let mut why_not = None;
    let through = super::quotients::through_quotient(interp, &game, &p, span, &mut why_not, |o| {
        match o.outcome_of_point(&p)? {
            Outcome::P | Outcome::N => o.winning_moves_at_point(game.rules().moves(), &p),
            // Not a position: the search's path says so.
            Outcome::Defeated | Outcome::OffBoard => None,
        }
    })?;
    if let Some(moves) = through {
        return Ok(Value::set(moves.into_iter().map(Value::vector).collect()));
    }
    let q = crate::game::solver::machine_or_none(&p).ok_or_else(not_on_board)?;
    let solver = memo_for(interp, &game, span)?;
    if !solver.on_board(&q) {
        return Err(not_on_board());
    }
    let mut moves = Vec::new();
    for (m, r) in solver.options(&q) {
        let o = with_progress(solver, "winning moves", |s| s.outcome(&r));
        if o.map_err(|e| position_error(e, span))? == Outcome::P {
            moves.push(Value::vector(Vector::from_i64s(&m)));
        }
    }
    Ok(Value::set(moves))
}

/// A search's error, with why no misère quotient answered instead (when one was tried).
fn with_quotient_note(e: EvalError, why_not: &Option<String>) -> EvalError {
    match why_not {
        Some(why) => {
            let help = match &e.help {
                Some(h) => format!("{why}, so the search was asked instead.\n{h}"),
                None => format!("{why}, so the search was asked instead"),
            };
            e.with_help(help)
        }
        None => e,
    }
}

/// "p is not a position on the board".
fn off_board(p: &Vector, span: Span) -> EvalError {
    EvalError::new(
        "lg::eval::board",
        format!("{p} is not a position on the board of this game"),
        span,
        "not on the board",
    )
    .with_help("positions are the lattice points of the board's polyhedron that are not defeated")
}

/// `grundy(G, p)`: the Sprague–Grundy value of a position in normal play on G's board.
pub(super) fn grundy_of_position(interp: &mut Interpreter, a: &mut Args) -> R {
    let game = game_arg(a, 0)?;
    let p = position_arg(a, 1, game.dim())?;
    if let Some(values) = heap_values_at(&game, &p) {
        let v = crate::game::sprague_grundy::position_value(&values, &p);
        return Ok(Value::int(v as i64));
    }
    let not_on_board = || off_board(&p, a.span(1));
    let q = crate::game::solver::machine_or_none(&p).ok_or_else(not_on_board)?;
    let span = a.span;
    let solver = memo_for(interp, &game, span)?;
    match with_progress(solver, "grundy", |s| s.grundy(&q)) {
        Ok(Some(v)) => Ok(Value::int(v as i64)),
        Ok(None) => Err(not_on_board()),
        Err(e) => Err(position_error(e, span)),
    }
}

fn restrict(_: &mut Interpreter, a: &mut Args) -> R {
    let Value::Solution(s) = a.value(0) else {
        return Err(a.wrong(0, "a solution (from `solve`)"));
    };
    let region = region_of(a.value(1), a.span(1))?;
    s.restrict(&region)
        .map(|s| Value::Solution(Rc::new(s)))
        .map_err(|e| solve_error(e, a.span(1)))
}

fn positions(_: &mut Interpreter, a: &mut Args) -> R {
    let Value::Solution(s) = a.value(0) else {
        return Err(a.wrong(0, "a solution (from `solve`)"));
    };
    let (p, all) = s.counts();
    Ok(Value::vector(Vector::from_i64s(&[
        p as i64,
        (all - p) as i64,
    ])))
}

/// The P-positions of a solution as vectors (for `for p in S` and `members`).
pub(super) fn p_positions(s: &Solution) -> Vec<Value> {
    s.p_positions()
        .into_iter()
        .map(|p| Value::vector(Vector::from_i64s(&p)))
        .collect()
}

/// The axes of a picture: `axes: (i, j)` for a slice in the plane of x_i and x_j, `axes: i` for
/// a strip along x_i (then the second is `None`).
fn plot_axes(v: &Value, span: Span, d: usize) -> Result<(usize, Option<usize>), EvalError> {
    let bad = || {
        EvalError::new(
            "lg::eval::plot",
            format!(
                "the axes of a slice are two different coordinates between 1 and {d}, or one for a strip"
            ),
            span,
            "not axes",
        )
        .with_help("write `axes: (1, 2)` for x_1 across and x_2 up, or `axes: 1` for a strip along x_1")
    };
    if let Value::Int(i) = v {
        return match i.to_i64().and_then(|i| usize::try_from(i).ok()) {
            Some(i) if (1..=d).contains(&i) => Ok((i, None)),
            _ => Err(bad()),
        };
    }
    let Value::Vector(v) = v else {
        return Err(bad());
    };
    let ij: Vec<usize> =
        v.0.iter()
            .filter_map(|x| x.to_i64().and_then(|x| usize::try_from(x).ok()))
            .collect();
    match ij[..] {
        [i, j] if v.dim() == 2 && i != j && (1..=d).contains(&i) && (1..=d).contains(&j) => {
            Ok((i, Some(j)))
        }
        _ => Err(bad()),
    }
}

fn plot(interp: &mut Interpreter, a: &mut Args) -> R {
    let Value::Solution(s) = a.value(0) else {
        return Err(a
            .wrong(0, "a solution (from `solve`)")
            .with_help("solve a region first: `plot(solve(G, 20))`"));
    };
    let d = s.game().dim();
    let (i, j) = match a.named("axes") {
        Some((v, span)) => plot_axes(v, span, d)?,
        None if d >= 2 => (1, Some(2)),
        None => (1, None),
    };
    let Some((lo, hi)) = s.bounding_box() else {
        return Err(EvalError::new(
            "lg::eval::plot",
            "the solved region has no positions",
            a.span(0),
            "empty",
        )
        .with_help("solve a larger region"));
    };
    let fix = match a.named("fix") {
        Some((Value::Vector(p), span)) => {
            if p.dim() != d {
                return Err(EvalError::new(
                    "lg::eval::dimension",
                    format!(
                        "`fix` needs a point of Z^{d}; its coordinates on the two axes are ignored"
                    ),
                    span,
                    format!("dimension {}", p.dim()),
                ));
            }
            crate::game::solver::machine_or_none(p).ok_or_else(|| {
                EvalError::new(
                    "lg::eval::plot",
                    "the point is beyond the solver's range",
                    span,
                    "too large",
                )
            })?
        }
        Some((other, span)) => {
            return Err(EvalError::type_error(
                "fix",
                "an integer vector",
                other.type_name(),
                span,
            ))
        }
        None => lo.clone(),
    };
    let title = match a.named("title") {
        Some((Value::Str(t), _)) => t.to_string(),
        Some((v, span)) => {
            return Err(EvalError::type_error(
                "title",
                "a string",
                v.type_name(),
                span,
            ))
        }
        None => format!("P-positions, {}, {}", s.game().brief(), s.description()),
    };
    let labels = match a.named("labels") {
        None => None,
        Some((Value::Str(t), _)) if j.is_none() => Some((t.to_string(), String::new())),
        Some((Value::Tuple(items), _))
            if items.len() == 2 && items.iter().all(|v| matches!(v, Value::Str(_))) =>
        {
            let name = |v: &Value| match v {
                Value::Str(t) => t.to_string(),
                _ => String::new(),
            };
            Some((name(&items[0]), name(&items[1])))
        }
        Some((_, span)) => {
            return Err(EvalError::new(
                "lg::eval::plot",
                "`labels:` takes two strings, the names of the axes across and up",
                span,
                "not two strings",
            )
            .with_help("e.g. `labels: (\"heaps of size 1\", \"heaps of size 2\")`"))
        }
    };
    let size = a
        .named_int_in("size", 2, 64, "a cell size in pixels from 2 to 64")?
        .unwrap_or(crate::game::plot::DEFAULT_CELL_SIZE);
    let svg_path = picture_file(a, "svg")?;
    let png_path = picture_file(a, "png")?;
    let cell = |p: &[i64]| match s.outcome(p) {
        Some(Outcome::P) => crate::game::plot::Cell::P,
        Some(Outcome::N) => crate::game::plot::Cell::N,
        Some(Outcome::Defeated) => crate::game::plot::Cell::Defeated,
        Some(Outcome::OffBoard) => crate::game::plot::Cell::OffBoard,
        None => crate::game::plot::Cell::Unknown,
    };
    let slice = match j {
        Some(j) => crate::game::plot::Slice::new(
            &fix,
            (i, j),
            lo[i - 1]..=hi[i - 1],
            lo[j - 1]..=hi[j - 1],
            title,
            cell,
        ),
        None => crate::game::plot::Slice::strip(&fix, i, lo[i - 1]..=hi[i - 1], title, cell),
    }
    .map_err(|e| {
        EvalError::new("lg::eval::plot", e.to_string(), a.span, "cannot draw this")
            .with_help("choose a smaller region or other axes")
    })?
    .with_cell_size(size);
    let slice = match labels {
        Some((across, up)) => slice.with_labels(across, up),
        None => slice,
    };
    let ascii = matches!(a.named("ascii"), Some((Value::Bool(true), _)));
    if let Some((path, span)) = svg_path {
        write_picture(interp, &path, span, slice.to_svg().as_bytes())?;
    }
    if let Some((path, span)) = png_path {
        let png = slice.to_png().map_err(|e| {
            let help = match e {
                crate::game::plot::PlotError::NoFonts => {
                    "install a font (e.g. Debian's fonts-dejavu-core), or write `svg:` instead"
                }
                _ => "choose a smaller region, or write `svg:` instead",
            };
            EvalError::new("lg::eval::plot", e.to_string(), span, "cannot draw this")
                .with_help(help)
        })?;
        write_picture(interp, &path, span, &png)?;
    }
    Ok(Value::Picture(Rc::new(crate::game::plot::Picture::new(
        slice, ascii,
    ))))
}

/// Writes a picture's bytes to `path` and says so.
fn write_picture(
    interp: &mut Interpreter,
    path: &str,
    span: Span,
    bytes: &[u8],
) -> Result<(), EvalError> {
    std::fs::write(path, bytes).map_err(|e| {
        EvalError::new(
            "lg::eval::io",
            format!("cannot write {path}: {e}"),
            span,
            "this file",
        )
    })?;
    interp.write_line(&format!("wrote {path}"));
    Ok(())
}

/// The file named by `svg:` or `png:` (`kind`), which must end in `.svg` or `.png`.
fn picture_file(a: &Args, kind: &str) -> Result<Option<(String, Span)>, EvalError> {
    match a.named(kind) {
        None => Ok(None),
        Some((Value::Str(path), span)) => {
            if !path.to_lowercase().ends_with(&format!(".{kind}")) {
                let (other, picture) = if kind == "svg" {
                    ("png", "a PNG picture")
                } else {
                    ("svg", "an SVG picture")
                };
                let hint = if path.to_lowercase().ends_with(&format!(".{other}")) {
                    format!("write `{other}: \"{path}\"` for {picture}")
                } else {
                    format!("name the file `….{kind}`, or use `{other}:` for {picture}")
                };
                return Err(EvalError::new(
                    "lg::eval::plot",
                    format!(
                        "`{path}` does not end in .{kind}, and `{kind}:` writes {} only",
                        kind.to_uppercase()
                    ),
                    span,
                    format!("not a .{kind} file"),
                )
                .with_help(hint));
            }
            Ok(Some((path.to_string(), span)))
        }
        Some((v, span)) => Err(EvalError::type_error(
            kind,
            "a file name (a string)",
            v.type_name(),
            span,
        )),
    }
}

pub(super) fn register(r: &mut Vec<Builtin>) {
    r.push(Builtin {
        name: "plot",
        signature: "plot(solution, axes: (i, j) or i, fix: p, svg: \"file.svg\", png: \"file.png\", ascii: false, title: \"…\", labels: (\"…\", \"…\"), size: 16) -> picture",
        doc: "Draws the slice of a solution through p (default: the region's lowest corner) in the plane\n\
              of the axes x_i (across) and x_j (up): a picture, shown as text in a terminal (● P-position,\n\
              · N-position, × defeated) and as SVG in a notebook, also where a script or a loop drops it.\n\
              With `svg:` it is also written to an SVG file, the kind of figure Plambeck and Siegel draw. The\n\
              title is short unless `title:` gives one; `labels:` names the two axes; `size:` sets the\n\
              SVG cell size in pixels (2 to 64, default 16). `png:` writes the same picture as PNG, at\n\
              twice the SVG's size (text in a system font). `axes: i`\n\
              draws a strip along x_i alone (the default for a game in Z^1); `labels:` is then one\n\
              string.",
        example: "plot(solve(game(nim(2), misere(nim(2))), 12), axes: (1, 2))",
        min_args: 1,
        max_args: Some(1),
        named: &["axes", "fix", "svg", "png", "ascii", "title", "labels", "size"],
        func: plot,
    });
    r.push(Builtin {
        name: "solve",
        signature: "solve(game, region, timeout: seconds) -> solution, or solve(game) -> stratification",
        doc: "The P-positions of a game ([GM09] Theorem 4.6: P = {p ∈ B : no legal option in P}) in a\n\
              region: a weight bound L (the positions with ℓ·p ≤ L, ℓ the rule set's positive\n\
              functional, or `functional:`), a box ((lo...), (hi...)), or a bounded polyhedron. Boxes\n\
              and polytopes are solved through the weight region below them, so moves with negative\n\
              entries are handled. The solution keeps one bit per position; `len(S)` counts its\n\
              P-positions, `p in S` asks one, `for p in S` lists them, `positions(S)` gives (#P, #N),\n\
              `outcome(S, p)` and `restrict(S, region)` work on it.\n\
              With no region, a squarefree game in normal play on N^d is solved completely by the\n\
              Erratum's O(2^d |Γ|) algorithm: the result is the stratification P0 + 2N^d ([GM09]\n\
              Theorem 6.11). Rule sets that are only weakly squarefree are refused. With `timeout:`\n\
              (seconds) a solve stops with an out-of-time error when the time runs out.",
        example: "solve(game(nim(2), misere(nim(2))), 10)",
        min_args: 1,
        max_args: Some(2),
        named: &["functional", "max_weight", "timeout"],
        func: solve,
    });
    r.push(Builtin {
        name: "outcome",
        signature: "outcome(game, solution or quotient, p) -> \"P\" or \"N\"",
        doc: "Whether p is a P-position (the player to move loses) or an N-position. Asked of a game,\n\
              only the positions reachable from p are explored; asked of a solution, it is looked up.\n\
              A sum of heaps in misère play (such as octal(code, n, play: \"misere\")) is answered through\n\
              its misère quotient, proved on first use for the heap types p holds and kept: any counts,\n\
              (10^9, 0) or a million heaps, in microseconds. Where no quotient is proved within a few\n\
              seconds, the search is asked instead, and its errors say why.\n\
              Lattice points that are defeated or not on the board say \"defeated\" or \"off board\".",
        example: "outcome(game(nim(2), misere(nim(2))), (1, 0))",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: outcome,
    });
    r.push(Builtin {
        name: "options",
        signature: "options(game, p) -> set",
        doc: "The legal options of p: the positions p − γ (γ ∈ Γ) that lie on the board.",
        example: "options(game(nim(2), normal_play(nim(2))), (1, 1))",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: options,
    });
    r.push(Builtin {
        name: "winning_moves",
        signature: "winning_moves(game, p) -> set  |  winning_moves(f, game, p) -> set  |  winning_moves(Q, heaps) -> list",
        doc: "The moves γ from p to a P-position (empty exactly when p is a P-position). With a rational strategy f\n\
              first, the moves are decided from f alone: γ is winning when p − γ is on the board and\n\
              f ⋆ t^(p−γ) ≠ 0 ([GM11] Theorem 3.6). With a misère quotient Q of a heap game and a position as a\n\
              list of heaps, the moves (h, option) into the P-portion: replace a heap h by the heaps of option.",
        example: "winning_moves(game(nim(2), normal_play(nim(2))), (1, 1))",
        min_args: 2,
        max_args: Some(3),
        named: &[],
        func: winning_moves,
    });
    r.push(Builtin {
        name: "restrict",
        signature: "restrict(solution, region) -> solution",
        doc: "The same solution seen through a smaller region (a weight bound, a box or a polytope).",
        example: "restrict(solve(game(nim(2), normal_play(nim(2))), 10), ((0, 0), (3, 3)))",
        min_args: 2,
        max_args: Some(2),
        named: &[],
        func: restrict,
    });
    r.push(Builtin {
        name: "positions",
        signature: "positions(solution) -> (P count, N count)",
        doc: "How many P- and N-positions the solution's region holds (defeated positions are neither).",
        example: "positions(solve(game(nim(2), misere(nim(2))), 10))",
        min_args: 1,
        max_args: Some(1),
        named: &[],
        func: positions,
    });
}
