//! Builtins of the exact algebra engine: cones (rays, facets, dimension, tangent cones), polyhedra
//! (vertices, recession cones, lattice points), lattices (index, saturation), affine semigroups
//! (membership, normality, Hilbert bases) and the rule-set axioms of [GM09] Definition 2.3.

use std::rc::Rc;

use num_rational::BigRational;

use super::{Args, Builtin};
use crate::algebra::lattice::Lattice;
use crate::algebra::polyhedral::{
    lattice_points, lattice_points_within, polyhedron_data, ConeData,
};
use crate::algebra::{AlgebraError, Cone, Integer, Matrix, Polyhedron, Vector};
use crate::eval::value::Value;
use crate::eval::{EvalError, Interpreter};
use crate::game::axioms::{self, AxiomViolation};
use crate::game::RuleSet;
use crate::syntax::Span;

type R = Result<Value, EvalError>;

fn b(
    name: &'static str,
    signature: &'static str,
    doc: &'static str,
    example: &'static str,
    args: (usize, usize),
    func: super::BuiltinFn,
) -> Builtin {
    Builtin {
        name,
        signature,
        doc,
        example,
        min_args: args.0,
        max_args: Some(args.1),
        named: &[],
        func,
    }
}

pub(super) fn register(r: &mut Vec<Builtin>) {
    r.push(b(
        "rank",
        "rank(m) -> integer",
        "The rank of a matrix (or of a set of vectors), exactly.",
        "rank([1 2 3; 2 4 6])",
        (1, 1),
        |_, a| {
            let (d, vs) = rows_of(a, 0)?;
            Ok(Value::int(crate::algebra::linalg::rank(&vs, d)))
        },
    ));
    r.push(b(
        "det",
        "det(m) -> integer",
        "The determinant of a square integer matrix (fraction-free elimination).",
        "det([2 1; 1 2])",
        (1, 1),
        |_, a| {
            let m = matrix_arg(a, 0)?;
            if m.nrows() != m.ncols() {
                return Err(EvalError::new(
                    "lg::eval::dimension",
                    format!(
                        "the determinant needs a square matrix, but this one is {}×{}",
                        m.nrows(),
                        m.ncols()
                    ),
                    a.span(0),
                    "not square",
                ));
            }
            Ok(Value::Int(crate::algebra::linalg::determinant(&m)))
        },
    ));
    r.push(b("kernel", "kernel(m) -> list", "A Z-basis of the integer kernel {x ∈ Z^n : m x = 0} of a matrix (a lattice basis, from the\nHermite normal form).", "kernel([1 1 1])", (1, 1), |_, a| {
        let (d, vs) = rows_of(a, 0)?;
        Ok(Value::list(crate::algebra::lattice::kernel_lattice(&vs, d).into_iter().map(Value::vector).collect()))
    }));
    r.push(b("hermite", "hermite(m) -> matrix", "The row-style Hermite normal form H = U·m (U unimodular): the canonical basis of the lattice\nspanned by the rows, pivots positive, entries above a pivot reduced modulo it.", "hermite([2 1; 1 2])", (1, 1), |_, a| {
        Ok(Value::Matrix(Rc::new(crate::algebra::lattice::hermite_normal_form(&matrix_arg(a, 0)?).h)))
    }));
    r.push(b("smith", "smith(m) -> list", "The invariant factors of a matrix: the diagonal of its Smith normal form U·m·V (each divides\nthe next).", "smith([2 4 4; -6 6 12; 10 -4 -16])", (1, 1), |_, a| {
        let sf = crate::algebra::lattice::smith_normal_form(&matrix_arg(a, 0)?);
        Ok(Value::list(sf.diagonal.into_iter().map(Value::Int).collect()))
    }));
    r.push(b("rays", "rays(C) -> set", "The primitive extremal rays of a cone (of the recession cone of a polyhedron, of the cone\nR_+A of a semigroup). For a cone with lineality, the rays of its pointed part.", "rays(halfspaces([1 0; -1 2]))", (1, 1), rays));
    r.push(b(
        "facets",
        "facets(C) -> set",
        "The primitive inner normals f of the facets of a cone (f·x ≥ 0 on C).",
        "facets(cone({(1, 0), (1, 2)}))",
        (1, 1),
        facets,
    ));
    r.push(b(
        "lineality",
        "lineality(C) -> set",
        "A basis of the lineality space C ∩ −C of a cone (empty when C is pointed).",
        "lineality(halfspaces([1 0]))",
        (1, 1),
        lineality,
    ));
    r.push(b("dim", "dim(x) -> integer", "The dimension of a cone (of its linear span), of a polyhedron, or the rank of an affine\nsemigroup; for a vector, its number of coordinates.", "dim(cone({(1, 1, 0), (1, 0, 0)}))", (1, 1), dim));
    r.push(b(
        "is_pointed",
        "is_pointed(x) -> boolean",
        "Whether a cone, polyhedron or affine semigroup contains no line.",
        "is_pointed(halfspaces([1 0; 0 1]))",
        (1, 1),
        is_pointed,
    ));
    r.push(b("tangent_cone", "tangent_cone(C, ρ) -> cone", "The negative tangent cone −T_ρC of C along its extremal ray ρ ([GM09] Definition 2.2):\n{x : f·x ≤ 0 for every facet normal f of C with f·ρ = 0}.", "tangent_cone(orthant(3), (0, 0, 1))", (2, 2), tangent_cone));
    r.push(b(
        "vertices",
        "vertices(P) -> list",
        "The vertices of a polyhedron (rational points), in canonical order.",
        "vertices(polyhedron([1 0; 0 1; -1 -1], (0, 0, -2)))",
        (1, 1),
        vertices,
    ));
    r.push(b(
        "recession_cone",
        "recession_cone(P) -> cone",
        "The recession cone C of a polyhedron Π (for a board: the cone of [GM09] Definition 2.3).",
        "recession_cone(polyhedron([1 0; 0 1; 1 1], (0, 0, 1)))",
        (1, 1),
        recession,
    ));
    r.push(b("lattice_points", "lattice_points(P) or lattice_points(P, bound) -> list", "The lattice points of a bounded polyhedron, or of any polyhedron or cone inside the box\n|x_i| ≤ bound, in canonical order.", "lattice_points(polyhedron([1 0; 0 1; -1 -1], (0, 0, -2)))", (1, 2), points));
    r.push(b("positive_functional", "positive_functional(Γ) or positive_functional(Γ, C) -> vector", "A small integer linear function ℓ positive on the moves of Γ and on C ∖ {0} (axiom 1 of\n[GM09] Definition 2.3), found by exact linear programming; C is a cone, polyhedron or board\n(its recession cone is used). When none exists, the diagnostic shows the nonnegative\ncombination of moves and rays that sums to 0.", "positive_functional(ruleset([1 0 -1; 0 1 1]), orthant(2))", (1, 2), functional));
    r.push(b("is_ruleset", "is_ruleset(Γ, C) -> boolean", "Whether Γ satisfies both axioms of [GM09] Definition 2.3 for the cone C (or the recession cone\nof a polyhedron or board). `check_ruleset` says why not.", "is_ruleset(ruleset([1 0 -1; 0 1 1]), orthant(2))", (2, 2), is_ruleset));
    r.push(b("check_ruleset", "check_ruleset(Γ, C) -> string", "Checks both axioms of [GM09] Definition 2.3: returns the evidence (the functional, and a move in\n−T_ρC for each ray ρ), or fails with a diagnostic naming the failing axiom and the vector or ray.", "check_ruleset(ruleset([1 0 -1; 0 1 1]), orthant(2))", (2, 2), check_ruleset));
    r.push(b("is_squarefree", "is_squarefree(Γ) -> boolean", "The Erratum's squarefree condition (Proposition 1): each move has at most one positive entry,\nand it is 1.", "is_squarefree(ruleset({(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0)}))", (1, 1), |_, a| Ok(Value::Bool(axioms::is_squarefree(&rules(a, 0)?)))));
    r.push(b("is_weakly_squarefree", "is_weakly_squarefree(Γ) -> boolean", "[GM09] Proposition 6.2 (weakly squarefree in the Erratum's terms): the largest entry of each\nmove is 1.", "is_weakly_squarefree(ruleset({(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0)}))", (1, 1), |_, a| Ok(Value::Bool(axioms::is_weakly_squarefree(&rules(a, 0)?)))));
    r.push(b("is_heap", "is_heap(Γ) -> boolean", "Whether Γ is a heap rule set ([GM09] Example 2.5): the nonzero entries of each move are\nnegative except the last, which is 1.", "is_heap(nim(3))", (1, 1), |_, a| Ok(Value::Bool(axioms::is_heap_ruleset(&rules(a, 0)?)))));
    r.push(b("index", "index(Γ) -> integer", "The index |Z^d / ZΓ| of the lattice generated by the moves (or by vectors, or a semigroup's\ngenerators); an error when ZΓ has rank < d (infinite index).", "index(ruleset({(2, 1), (1, 2)}))", (1, 1), index));
    r.push(b(
        "is_saturated",
        "is_saturated(Γ) -> boolean",
        "Whether ZΓ = Z^d ([GM09] Definition 3.7).",
        "is_saturated(ruleset([1 0 -1; 0 1 1]))",
        (1, 1),
        |_, a| {
            let (d, gens) = vectors_of(a, 0)?;
            Ok(Value::Bool(
                Lattice::generated_by(d, &gens).index() == Some(Integer::ONE),
            ))
        },
    ));
}

fn algebra(e: AlgebraError, span: Span) -> EvalError {
    EvalError::new("lg::eval::algebra", e.to_string(), span, "here")
}

fn rules(a: &Args, i: usize) -> Result<RuleSet, EvalError> {
    match a.value(i) {
        Value::RuleSet(r) => Ok((**r).clone()),
        Value::Game(g) => Ok(g.rules().clone()),
        _ => Err(a.wrong(i, "a rule set")),
    }
}

fn matrix_arg(a: &Args, i: usize) -> Result<Matrix, EvalError> {
    match a.value(i) {
        Value::Matrix(m) => Ok((**m).clone()),
        _ => Err(a.wrong(i, "an integer matrix")),
    }
}

/// The rows of a matrix, or a collection of vectors as rows, with their common length.
fn rows_of(a: &Args, i: usize) -> Result<(usize, Vec<Vector>), EvalError> {
    match a.value(i) {
        Value::Matrix(m) => Ok((m.ncols(), m.rows())),
        _ => vectors_of(a, i),
    }
}

fn vectors_of(a: &Args, i: usize) -> Result<(usize, Vec<Vector>), EvalError> {
    let gens = match a.value(i) {
        Value::Semigroup(s) => return Ok((s.dim(), s.generators().to_vec())),
        _ => a.vectors(i, "a generator")?,
    };
    let d = gens.first().map(Vector::dim).ok_or_else(|| {
        EvalError::new(
            "lg::eval::value",
            "no vectors were given",
            a.span(i),
            "empty",
        )
        .with_help("give at least one vector")
    })?;
    if let Some(bad) = gens.iter().find(|g| g.dim() != d) {
        return Err(EvalError::new(
            "lg::eval::dimension",
            format!(
                "the vectors must share one dimension: {bad} has {} coordinates, the first has {d}",
                bad.dim()
            ),
            a.span(i),
            "mixed dimensions",
        ));
    }
    Ok((d, gens))
}

/// The cone an argument stands for: a cone, the recession cone of a polyhedron or board, or R_+A.
fn cone_of(a: &Args, i: usize) -> Result<ConeData, EvalError> {
    let span = a.span(i);
    match a.value(i) {
        Value::Cone(c) => ConeData::of(c).map_err(|e| algebra(e, span)),
        Value::Polyhedron(p) => Ok(polyhedron_data(p)
            .map_err(|e| algebra(e, span))?
            .recession_cone()
            .clone()),
        Value::Board(bd) => axioms::recession_cone(bd).map_err(|e| algebra(e, span)),
        Value::Game(g) => axioms::recession_cone(g.board()).map_err(|e| algebra(e, span)),
        Value::Semigroup(s) => {
            ConeData::from_generators(s.dim(), s.generators()).map_err(|e| algebra(e, span))
        }
        _ => Err(a.wrong(i, "a cone, a polyhedron, a board or an affine semigroup")),
    }
}

fn vector_set(vs: &[Vector]) -> Value {
    Value::set(vs.iter().cloned().map(Value::vector).collect())
}

fn rays(_: &mut Interpreter, a: &mut Args) -> R {
    Ok(vector_set(cone_of(a, 0)?.rays()))
}

fn facets(_: &mut Interpreter, a: &mut Args) -> R {
    Ok(vector_set(cone_of(a, 0)?.facets()))
}

fn lineality(_: &mut Interpreter, a: &mut Args) -> R {
    Ok(vector_set(cone_of(a, 0)?.lineality()))
}

fn dim(_: &mut Interpreter, a: &mut Args) -> R {
    let span = a.span(0);
    let d = match a.value(0) {
        Value::Vector(v) => v.dim(),
        Value::Semigroup(s) => crate::algebra::linalg::rank(s.generators(), s.dim()),
        Value::Polyhedron(p) => {
            let data = polyhedron_data(p).map_err(|e| algebra(e, span))?;
            if data.is_empty() {
                return Err(EvalError::new(
                    "lg::eval::value",
                    "the polyhedron is empty, so its dimension is −1",
                    span,
                    "empty",
                ));
            }
            data.dim()
        }
        _ => cone_of(a, 0)?.dim(),
    };
    Ok(Value::int(d))
}

fn is_pointed(_: &mut Interpreter, a: &mut Args) -> R {
    let span = a.span(0);
    Ok(Value::Bool(match a.value(0) {
        Value::Semigroup(s) => {
            crate::algebra::lp::positive_functional(s.dim(), s.generators()).is_ok()
        }
        Value::Polyhedron(p) => polyhedron_data(p)
            .map_err(|e| algebra(e, span))?
            .is_pointed(),
        _ => cone_of(a, 0)?.is_pointed(),
    }))
}

fn tangent_cone(_: &mut Interpreter, a: &mut Args) -> R {
    let c = cone_of(a, 0)?;
    let ray = a.vector(1)?;
    let ray = crate::algebra::linalg::primitive(&ray);
    if !c.rays().contains(&ray) {
        let rays: Vec<String> = c.rays().iter().map(Vector::to_string).collect();
        return Err(EvalError::new(
            "lg::eval::value",
            format!("{ray} is not an extremal ray of the cone"),
            a.span(1),
            "not a ray",
        )
        .with_help(format!("the extremal rays are {}", rays.join(", "))));
    }
    let t = c.negative_tangent_cone(&ray);
    let normals: Vec<Vector> = t
        .facets()
        .iter()
        .cloned()
        .chain(t.equations().iter().cloned())
        .chain(t.equations().iter().map(|e| e.scale(&Integer::from(-1))))
        .collect();
    if normals.is_empty() {
        // −T_ρC is all of R^d: 0·x ≥ 0.
        let zero = Matrix::from_rows(vec![vec![Integer::ZERO; c.ambient_dim()]]).expect("d ≥ 1");
        return Ok(Value::Cone(Rc::new(Cone::halfspaces(zero))));
    }
    let m = Matrix::from_rows(normals.into_iter().map(|f| f.0).collect()).expect("nonempty");
    Ok(Value::Cone(Rc::new(Cone::halfspaces(m))))
}

fn polyhedron_arg(a: &Args, i: usize) -> Result<Polyhedron, EvalError> {
    match a.value(i) {
        Value::Polyhedron(p) => Ok((**p).clone()),
        Value::Cone(c) => Ok(Polyhedron::Cone((**c).clone())),
        Value::Board(bd) => Ok(bd.polyhedron().clone()),
        _ => Err(a.wrong(i, "a polyhedron or a cone")),
    }
}

fn rational_point(p: &[BigRational]) -> Value {
    Value::tuple(p.iter().cloned().map(Value::rational).collect())
}

fn vertices(_: &mut Interpreter, a: &mut Args) -> R {
    let p = polyhedron_arg(a, 0)?;
    let data = polyhedron_data(&p).map_err(|e| algebra(e, a.span(0)))?;
    Ok(Value::list(
        data.vertices().iter().map(|v| rational_point(v)).collect(),
    ))
}

fn recession(_: &mut Interpreter, a: &mut Args) -> R {
    let c = cone_of(a, 0)?;
    if c.rays().is_empty() && c.lineality().is_empty() {
        let zero = Matrix::from_rows(
            (0..c.ambient_dim())
                .map(|i| Vector::unit(c.ambient_dim(), i).0)
                .chain(
                    (0..c.ambient_dim())
                        .map(|i| Vector::unit(c.ambient_dim(), i).scale(&Integer::from(-1)).0),
                )
                .collect(),
        )
        .expect("d ≥ 1");
        return Ok(Value::Cone(Rc::new(Cone::halfspaces(zero))));
    }
    let mut gens: Vec<Vector> = c.rays().to_vec();
    for l in c.lineality() {
        gens.push(l.clone());
        gens.push(l.scale(&Integer::from(-1)));
    }
    Cone::generated(gens)
        .map(|c| Value::Cone(Rc::new(c)))
        .map_err(|e| algebra(e, a.span(0)))
}

fn points(_: &mut Interpreter, a: &mut Args) -> R {
    let p = polyhedron_arg(a, 0)?;
    let span = a.span(0);
    let pts = if a.len() == 2 {
        let bound = a.int(1)?;
        if bound.signum() < 0 {
            return Err(EvalError::new(
                "lg::eval::value",
                "the bound must be nonnegative",
                a.span(1),
                "negative",
            ));
        }
        lattice_points_within(&p, &bound)
    } else {
        lattice_points(&p)
    }
    .map_err(|e| {
        algebra(e, span)
            .with_help("give a bound: `lattice_points(P, 10)` lists the points with |x_i| ≤ 10")
    })?;
    Ok(Value::list(pts.into_iter().map(Value::vector).collect()))
}

/// The diagnostic of a failed rule-set axiom.
pub(crate) fn violation(v: AxiomViolation, span: Span) -> EvalError {
    let label = match &v {
        AxiomViolation::ConeNotPointed { .. } => "the cone is not pointed".to_string(),
        AxiomViolation::NoPositiveFunctional { .. } => "no positive functional".to_string(),
        AxiomViolation::NoMoveInTangentCone { ray, .. } => format!("no move along the ray {ray}"),
    };
    let help = match &v {
        AxiomViolation::ConeNotPointed { .. } => "a board's polyhedron must be pointed ([GM09] Section 2)",
        AxiomViolation::NoPositiveFunctional { .. } => {
            "remove a move that undoes the others: moves must bring positions closer to 0 ([GM09] Remark 2.7)"
        }
        AxiomViolation::NoMoveInTangentCone { .. } => {
            "add a move pointing back along that ray, such as its negative: otherwise positions far out along it have no legal move ([GM09] Example 3.1)"
        }
    };
    EvalError::new("lg::eval::ruleset_axiom", v.to_string(), span, label).with_help(help)
}

/// Checks Γ against a cone, raising the diagnostic of the failing axiom (used by `game` too).
pub(crate) fn check(
    rules: &RuleSet,
    cone: &ConeData,
    span: Span,
) -> Result<axioms::RuleSetCertificate, EvalError> {
    axioms::check_axioms(rules, cone).map_err(|v| violation(v, span))
}

fn functional(_: &mut Interpreter, a: &mut Args) -> R {
    let g = rules(a, 0)?;
    let cone = if a.len() == 2 {
        cone_of(a, 1)?
    } else {
        ConeData::from_generators(g.dim(), &[]).map_err(|e| algebra(e, a.span(0)))?
    };
    let mut all: Vec<Vector> = g.moves().to_vec();
    all.extend(cone.rays().iter().cloned());
    if let Some(l) = cone.lineality().first() {
        return Err(violation(
            AxiomViolation::ConeNotPointed {
                lineality: l.clone(),
            },
            a.span(1),
        ));
    }
    match crate::algebra::lp::positive_functional(g.dim(), &all) {
        Ok(ell) => Ok(Value::vector(ell)),
        Err(lambda) => {
            let combination = lambda
                .into_iter()
                .zip(all)
                .enumerate()
                .filter(|(_, (l, _))| !l.is_zero())
                .map(|(i, (l, v))| (l, v, i < g.moves().len()))
                .collect();
            Err(violation(
                AxiomViolation::NoPositiveFunctional { combination },
                a.span,
            ))
        }
    }
}

fn is_ruleset(_: &mut Interpreter, a: &mut Args) -> R {
    let g = rules(a, 0)?;
    let c = cone_of(a, 1)?;
    Ok(Value::Bool(axioms::check_axioms(&g, &c).is_ok()))
}

fn check_ruleset(_: &mut Interpreter, a: &mut Args) -> R {
    let g = rules(a, 0)?;
    let c = cone_of(a, 1)?;
    let cert = check(&g, &c, a.span)?;
    let mut s = format!(
        "a rule set: ℓ = {} is positive on Γ and on C ∖ {{0}}",
        cert.functional
    );
    for (ray, m) in &cert.tangent_moves {
        s.push_str(&format!(
            "; along the ray {ray}, the move {m} lies in −T_ρC"
        ));
    }
    Ok(Value::str(&s))
}

fn index(_: &mut Interpreter, a: &mut Args) -> R {
    let (d, gens) = match a.value(0) {
        Value::RuleSet(r) => (r.dim(), r.moves().to_vec()),
        _ => vectors_of(a, 0)?,
    };
    Lattice::generated_by(d, &gens).index().map(Value::Int).ok_or_else(|| {
        EvalError::new(
            "lg::eval::value",
            format!(
                "the lattice generated by these vectors has rank {} < {d}, so its index in Z^{d} is infinite",
                crate::algebra::linalg::rank(&gens, d)
            ),
            a.span(0),
            "rank-deficient",
        )
    })
}
