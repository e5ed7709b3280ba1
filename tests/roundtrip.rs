//! Printing a value and reading the printed text back gives the same value: the canonical form
//! is valid `.lg`, for every kind of value except functions.

use std::rc::Rc;

use num_bigint::BigInt;
use num_rational::BigRational;
use proptest::prelude::*;

use lattice_games::algebra::{
    AffineModule, AffineSemigroup, Cone, Integer, Matrix, Polyhedron, Stratification, Vector,
};
use lattice_games::eval::{Interpreter, Outcome, Value};
use lattice_games::game::{GameBoard, LatticeGame, RuleSet};

fn int() -> impl Strategy<Value = Integer> {
    prop_oneof![
        4 => (-5i64..=5).prop_map(Integer::from),
        1 => any::<i64>().prop_map(Integer::from),
        1 => (any::<i64>(), any::<i64>()).prop_map(|(a, b)| Integer::from(BigInt::from(a) * BigInt::from(b) * 7)),
    ]
}

fn vector(d: usize) -> impl Strategy<Value = Vector> {
    proptest::collection::vec((-3i64..=3).prop_map(Integer::from), d).prop_map(Vector)
}

fn vectors(d: usize, n: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Vector>> {
    proptest::collection::vec(vector(d), n)
}

fn semigroup(d: usize) -> impl Strategy<Value = AffineSemigroup> {
    prop_oneof![
        vectors(d, 0..4).prop_map(move |g| AffineSemigroup::with_dim(d, g).unwrap()),
        (1i64..4).prop_map(move |k| AffineSemigroup::orthant(d)
            .unwrap()
            .scale(&Integer::from(k))),
    ]
}

fn module(d: usize) -> impl Strategy<Value = AffineModule> {
    (vectors(d, 1..4), semigroup(d)).prop_map(|(f, a)| AffineModule::new(f, a).unwrap())
}

fn matrix(rows: usize, cols: usize) -> impl Strategy<Value = Matrix> {
    proptest::collection::vec(vector(cols), rows)
        .prop_map(|r| Matrix::from_rows(r.into_iter().map(|v| v.0).collect()).unwrap())
}

fn rational() -> impl Strategy<Value = BigRational> {
    (-20i64..20, 1i64..7).prop_map(|(n, d)| BigRational::new(n.into(), d.into()))
}

fn polyhedron(d: usize) -> impl Strategy<Value = Polyhedron> {
    prop_oneof![
        Just(Polyhedron::Cone(Cone::orthant(d).unwrap())),
        vectors(d, 1..3).prop_map(|g| Polyhedron::Cone(Cone::generated(g).unwrap())),
        matrix(2, d).prop_map(|a| Polyhedron::Cone(Cone::halfspaces(a))),
        (1usize..4)
            .prop_flat_map(move |r| (matrix(r, d), proptest::collection::vec(rational(), r)))
            .prop_map(|(a, b)| Polyhedron::from_inequalities(a, b).unwrap()),
    ]
}

fn ruleset(d: usize) -> impl Strategy<Value = RuleSet> {
    vectors(d, 1..5).prop_filter_map("no zero move", |m| RuleSet::new(m).ok())
}

fn board(d: usize) -> impl Strategy<Value = GameBoard> {
    (polyhedron(d), vectors(d, 0..3)).prop_filter_map("defeated on the board", |(p, dd)| {
        GameBoard::new(p, dd).ok()
    })
}

/// Games on N^d whose rule sets contain the unit vectors and moves of positive weight under
/// (1, ..., 1), so that both axioms hold; the constructor checks them again.
fn game(d: usize) -> impl Strategy<Value = LatticeGame> {
    (
        vectors(d, 0..4),
        proptest::collection::vec(proptest::collection::vec(0i64..3, d), 0..3),
    )
        .prop_filter_map("a rule set", move |(extra, defeated)| {
            let mut moves: Vec<Vector> = (0..d).map(|i| Vector::unit(d, i)).collect();
            moves.extend(
                extra
                    .into_iter()
                    .filter(|m| m.0.iter().fold(Integer::ZERO, |a, x| a + x).signum() > 0),
            );
            let board = GameBoard::new(
                Polyhedron::Cone(Cone::orthant(d).unwrap()),
                defeated.iter().map(|p| Vector::from_i64s(p)).collect(),
            )
            .ok()?;
            LatticeGame::new(RuleSet::new(moves).ok()?, board).ok()
        })
}

fn object() -> impl Strategy<Value = Value> {
    (1usize..4).prop_flat_map(|d| {
        prop_oneof![
            vector(d).prop_map(Value::vector),
            semigroup(d).prop_map(|a| Value::Semigroup(Rc::new(a))),
            module(d).prop_map(|m| Value::Module(Rc::new(m))),
            // `⊎` only reads back when its pieces are disjoint, which it decides exactly.
            proptest::collection::vec(module(d), 1..4)
                .prop_map(|p| Stratification::new(p).unwrap())
                .prop_filter("disjoint pieces", |s| matches!(
                    lattice_games::algebra::StratifiedSet::from_stratification(s),
                    Ok(Ok(_))
                ))
                .prop_map(|s| Value::Stratification(Rc::new(s))),
            (1usize..4)
                .prop_flat_map(move |r| matrix(r, d))
                .prop_map(|m| Value::Matrix(Rc::new(m))),
            polyhedron(d).prop_map(|p| match p {
                Polyhedron::Cone(c) => Value::Cone(Rc::new(c)),
                other => Value::Polyhedron(Rc::new(other)),
            }),
            ruleset(d).prop_map(|r| Value::RuleSet(Rc::new(r))),
            board(d).prop_map(|b| Value::Board(Rc::new(b))),
            game(d).prop_map(|g| Value::Game(Rc::new(g))),
        ]
    })
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        int().prop_map(Value::Int),
        rational().prop_map(Value::rational),
        any::<bool>().prop_map(Value::Bool),
        "[a-zA-Z0-9 ΓℓΠ⊎,()\\[\\]{}\"\\\\]{0,8}".prop_map(|s| Value::str(&s)),
        Just(Value::Nothing),
        object(),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::list),
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::set),
            proptest::collection::vec(inner, 1..4).prop_map(Value::tuple),
        ]
    })
}

fn read_back(text: &str) -> Result<Value, String> {
    let mut interp = Interpreter::with_output(Box::new(std::io::sink()));
    let outcomes = interp
        .run("<roundtrip>", text)
        .map_err(|e| interp.render(&e, lattice_games::eval::Style::Plain))?;
    match outcomes.into_iter().last() {
        Some(Outcome::Value(v)) => Ok(v),
        other => Err(format!("no value: {other:?}")),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn printing_then_reading_gives_the_value_back(v in value()) {
        let text = v.to_string();
        let back = read_back(&text);
        prop_assert!(back.is_ok(), "{} did not read back:\n{}", text, back.unwrap_err());
        prop_assert_eq!(back.unwrap(), v, "printed as {}", text);
    }
}

#[test]
fn the_papers_objects_read_back() {
    for text in [
        "2ℕ^2",
        "ℕ",
        "((1, 0) + ℕ{(2, 0)}) ⊎ ((0, 2) + 2ℕ^2)",
        "game(ruleset([(1, 0), (0, 1), (-1, 1)]), board(orthant(2), defeated: [(0, 0)]))",
        "board(polyhedron([1 0; 0 1; 1 1], (0, 0, 1/2)), defeated: [(1, 0)])",
        "matrix([[5]])",
        "(1/2,)",
        "(5,)",
    ] {
        let v = read_back(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(v.to_string(), text);
    }
}
