//! Values of `.lg`: numbers, booleans, strings, vectors, tuples, lists, finite sets, matrices,
//! functions, and the mathematical objects of the papers. Every value has structural equality (sets
//! compare as sets), a total order (so sets of any values are canonical), and a canonical printed
//! form that reads back as the same value (functions excepted).

use std::cmp::Ordering;
use std::fmt;
use std::rc::Rc;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed};

use super::builtins::Builtin;
use super::env::Env;
use super::set_value::{write_stratification, SetValue};
use crate::algebra::barvinok::ShortForm;
use crate::algebra::genfunc::RationalFunction;
use crate::algebra::{
    AffineModule, AffineSemigroup, Cone, Integer, Matrix, Polyhedron, Stratification, Vector,
};
use crate::game::solver::Solution;
use crate::game::verify::Verification;
use crate::game::{GameBoard, LatticeGame, RuleSet};
use crate::syntax::ast::{Expr, Ident};

/// A user-defined function: parameters, body and the environment it closes over.
pub struct Closure {
    /// The name it was defined with (`fn name(...)`), if any.
    pub name: Option<String>,
    /// Parameter names.
    pub params: Vec<Ident>,
    /// The body.
    pub body: Rc<Expr>,
    /// The environment of the definition.
    pub env: Env,
}

/// A callable value.
#[derive(Clone)]
pub enum Function {
    /// Defined in `.lg`.
    Closure(Rc<Closure>),
    /// Built into the interpreter.
    Builtin(&'static Builtin),
}

impl Function {
    fn id(&self) -> usize {
        match self {
            Function::Closure(c) => Rc::as_ptr(c) as *const u8 as usize,
            Function::Builtin(b) => *b as *const Builtin as usize,
        }
    }
}

/// A value of the language.
#[derive(Clone)]
pub enum Value {
    /// The value of statements and loops, written `()`.
    Nothing,
    /// `true`, `false`.
    Bool(bool),
    /// An exact integer.
    Int(Integer),
    /// An exact rational that is not an integer (always in lowest terms).
    Rational(Rc<BigRational>),
    /// A string.
    Str(Rc<str>),
    /// An integer vector `(1, 0, -1)`.
    Vector(Rc<Vector>),
    /// A tuple with some non-integer entry `(1/2, "a")`.
    Tuple(Rc<Vec<Value>>),
    /// A list `[a, b, c]`.
    List(Rc<Vec<Value>>),
    /// A finite set `{a, b}`, stored sorted and without repetition.
    Set(Rc<Vec<Value>>),
    /// An integer matrix.
    Matrix(Rc<Matrix>),
    /// A function.
    Function(Function),
    /// A polyhedral cone.
    Cone(Rc<Cone>),
    /// A polyhedron.
    Polyhedron(Rc<Polyhedron>),
    /// A rule set Γ.
    RuleSet(Rc<RuleSet>),
    /// A game board.
    Board(Rc<GameBoard>),
    /// A lattice game.
    Game(Rc<LatticeGame>),
    /// An affine semigroup N{...}.
    Semigroup(Rc<AffineSemigroup>),
    /// A module F + A.
    Module(Rc<AffineModule>),
    /// An affine stratification W1 ⊎ ... ⊎ Wr.
    Stratification(Rc<Stratification>),
    /// The solved positions of a region of a game.
    Solution(Rc<Solution>),
    /// A set of lattice points in the set algebra's compact form (the results of `∪`, `∩`, `∖`,
    /// `complement`), printed as an affine stratification when it has one worth printing.
    StratifiedSet(Rc<SetValue>),
    /// A rational generating function, with the names of its variables.
    Genfunc(Rc<Genfunc>),
    /// A signed short rational generating function (Barvinok's form of a polyhedron's points),
    /// with the names of its variables: a rational function, read as a set only through its
    /// Laurent expansion.
    ShortGenfunc(Rc<ShortGenfunc>),
    /// The verdict of `verify`: certified, or refuted with a counterexample.
    Verification(Rc<Verification>),
    /// What `periodicity` found: a proof, an apparent period, or none.
    Periodicity(Rc<crate::game::periodicity::Periodicity>),
    /// A proved misère quotient of a heap game (`misere_quotient`).
    Quotient(Rc<crate::game::quotient::MisereQuotient>),
    /// A picture drawn by `plot`: text in a terminal, SVG in a notebook.
    Picture(Rc<crate::game::plot::Picture>),
}

/// A rational generating function as the language holds it: the function and its variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genfunc {
    /// The function.
    pub f: RationalFunction,
    /// One name per variable.
    pub names: Vec<String>,
}

impl fmt::Display for Genfunc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.f.display(&self.names))
    }
}

/// A signed short rational generating function as the language holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortGenfunc {
    /// The function.
    pub f: ShortForm,
    /// One name per variable.
    pub names: Vec<String>,
    /// Its Laurent expansion, built at the first membership test (or why it has none).
    expansion: ExpansionCache,
}

impl ShortGenfunc {
    /// The function with these variable names.
    pub fn new(f: ShortForm, names: Vec<String>) -> ShortGenfunc {
        ShortGenfunc {
            f,
            names,
            expansion: ExpansionCache::default(),
        }
    }

    /// The Laurent expansion in the function's own direction (built once), or the reason there
    /// is none.
    pub fn expansion(&self) -> Result<&RationalFunction, crate::algebra::AlgebraError> {
        self.expansion
            .0
            .get_or_init(|| self.f.expansion())
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// A cache that takes no part in equality (it is a function of the value).
#[derive(Clone, Default)]
struct ExpansionCache(std::cell::OnceCell<Result<RationalFunction, crate::algebra::AlgebraError>>);

impl PartialEq for ExpansionCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for ExpansionCache {}

impl fmt::Debug for ExpansionCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ExpansionCache")
    }
}

impl fmt::Display for ShortGenfunc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.f.written().display(&self.names))
    }
}

impl Value {
    /// An integer value.
    pub fn int(i: impl Into<Integer>) -> Value {
        Value::Int(i.into())
    }

    /// A rational value, normalised: an integer when the denominator is 1.
    pub fn rational(r: BigRational) -> Value {
        if r.denom().is_one() {
            Value::Int(Integer::from(r.numer().clone()))
        } else {
            Value::Rational(Rc::new(r))
        }
    }

    /// A string value.
    pub fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }

    /// A vector value.
    pub fn vector(v: Vector) -> Value {
        Value::Vector(Rc::new(v))
    }

    /// A list value.
    pub fn list(v: Vec<Value>) -> Value {
        Value::List(Rc::new(v))
    }

    /// A set value from any elements (sorted and deduplicated here).
    pub fn set(mut v: Vec<Value>) -> Value {
        v.sort();
        v.dedup();
        Value::Set(Rc::new(v))
    }

    /// A tuple of values: a vector when every entry is an integer (and there is at least one).
    pub fn tuple(items: Vec<Value>) -> Value {
        if !items.is_empty() && items.iter().all(|v| matches!(v, Value::Int(_))) {
            let v = items
                .into_iter()
                .map(|x| match x {
                    Value::Int(i) => i,
                    _ => unreachable!("checked above"),
                })
                .collect();
            Value::vector(Vector(v))
        } else if items.is_empty() {
            Value::Nothing
        } else {
            Value::Tuple(Rc::new(items))
        }
    }

    /// About how many bytes this value holds of its own: the value itself, and for a string,
    /// vector or collection its shared box and its buffer with the allocator's overhead (what
    /// the memory budget charges for a new value; shared parts and the insides of other objects
    /// are not counted).
    pub fn footprint(&self) -> u64 {
        // An Rc's counts, a Vec's header, and what malloc adds to each of the two blocks.
        const BOXED: usize = 16 + 24 + 2 * 16;
        let own = match self {
            Value::Str(s) => BOXED + s.len(),
            Value::Vector(v) => BOXED + v.dim() * std::mem::size_of::<Integer>(),
            Value::Tuple(v) | Value::List(v) | Value::Set(v) => {
                BOXED + v.len() * std::mem::size_of::<Value>()
            }
            _ => 0,
        };
        (std::mem::size_of::<Value>() + own) as u64
    }

    /// The name of the value's type, as users read it in `:type` and in diagnostics.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Nothing => "nothing",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "integer",
            Value::Rational(_) => "rational",
            Value::Str(_) => "string",
            Value::Vector(_) => "vector",
            Value::Tuple(_) => "tuple",
            Value::List(_) => "list",
            Value::Set(_) => "set",
            Value::Matrix(_) => "matrix",
            Value::Function(_) => "function",
            Value::Cone(_) => "cone",
            Value::Polyhedron(_) => "polyhedron",
            Value::RuleSet(_) => "rule set",
            Value::Board(_) => "board",
            Value::Game(_) => "game",
            Value::Semigroup(_) => "affine semigroup",
            Value::Module(_) => "module",
            Value::Stratification(_) => "stratification",
            Value::Solution(_) => "solution",
            Value::StratifiedSet(_) => "stratified set",
            Value::Genfunc(_) => "rational function",
            Value::ShortGenfunc(_) => "short rational function",
            Value::Verification(_) => "verification",
            Value::Periodicity(_) => "periodicity",
            Value::Quotient(_) => "misère quotient",
            Value::Picture(_) => "picture",
        }
    }

    /// A longer description for `:type`: the type with its dimension or size.
    pub fn describe_type(&self) -> String {
        match self {
            Value::Vector(v) => format!("vector in Z^{}", v.dim()),
            Value::List(v) => format!("list of {} element{}", v.len(), plural(v.len())),
            Value::Set(v) => format!("set of {} element{}", v.len(), plural(v.len())),
            Value::Tuple(v) => format!(
                "tuple of {}",
                super::error::count(v.len(), "entry", "entries")
            ),
            Value::Matrix(m) => format!("{}×{} matrix", m.nrows(), m.ncols()),
            Value::Cone(c) => format!("cone in R^{}", c.dim()),
            Value::Polyhedron(p) => format!("polyhedron in R^{}", p.dim()),
            Value::RuleSet(r) => format!(
                "rule set of {} move{} in Z^{}",
                r.len(),
                plural(r.len()),
                r.dim()
            ),
            Value::Board(b) => format!("board in Z^{}", b.dim()),
            Value::Game(g) => format!("game in Z^{}", g.dim()),
            Value::Semigroup(a) => format!("affine semigroup in Z^{}", a.dim()),
            Value::Module(m) => format!("module in Z^{}", m.dim()),
            Value::Stratification(s) => {
                format!(
                    "stratification of {} piece{} in Z^{}",
                    s.pieces().len(),
                    plural(s.pieces().len()),
                    s.dim()
                )
            }
            Value::Solution(s) => {
                let (p, all) = s.counts();
                format!(
                    "solution in Z^{}: {all} position{} of {}, {p} P-position{}",
                    s.game().dim(),
                    plural(all as usize),
                    s.description(),
                    plural(p as usize)
                )
            }
            Value::Function(Function::Closure(c)) => format!(
                "function of {} argument{}",
                c.params.len(),
                plural(c.params.len())
            ),
            Value::Function(Function::Builtin(b)) => format!("builtin function {}", b.signature),
            Value::StratifiedSet(s) => format!(
                "stratified set of {} basic set{} in Z^{}",
                s.cover().len(),
                plural(s.cover().len()),
                s.dim()
            ),
            Value::Genfunc(g) => format!(
                "rational function of {} term{} in {} variable{}",
                g.f.terms().len(),
                plural(g.f.terms().len()),
                g.f.dim(),
                plural(g.f.dim())
            ),
            Value::ShortGenfunc(g) => format!(
                "short rational function of {} term{} in {} variable{}",
                g.f.terms().len(),
                plural(g.f.terms().len()),
                g.f.dim(),
                plural(g.f.dim())
            ),
            other => other.type_name().to_string(),
        }
    }

    /// The text `print` writes: strings without quotes, everything else in canonical form.
    pub fn to_print_string(&self) -> String {
        match self {
            Value::Str(s) => s.to_string(),
            other => other.to_string(),
        }
    }

    /// The text the REPL shows for a value: its canonical form, except that a set longer than a
    /// screenful is summarized in one line (saying how to see all of it).
    pub fn display_text(&self) -> String {
        match self {
            Value::StratifiedSet(s) => s.display_text(),
            other => {
                super::summary::short_text(other).unwrap_or_else(|| super::summary::summary(other))
            }
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Value::Nothing => 0,
            Value::Bool(_) => 1,
            Value::Int(_) | Value::Rational(_) => 2,
            Value::Str(_) => 3,
            Value::Vector(_) => 4,
            Value::Tuple(_) => 5,
            Value::List(_) => 6,
            Value::Set(_) => 7,
            Value::Matrix(_) => 8,
            Value::Cone(_) => 9,
            Value::Polyhedron(_) => 10,
            Value::RuleSet(_) => 11,
            Value::Board(_) => 12,
            Value::Game(_) => 13,
            Value::Semigroup(_) => 14,
            Value::Module(_) => 15,
            Value::Stratification(_) => 16,
            Value::Solution(_) => 17,
            Value::StratifiedSet(_) => 18,
            Value::Genfunc(_) => 19,
            Value::ShortGenfunc(_) => 23,
            Value::Verification(_) => 20,
            Value::Periodicity(_) => 21,
            Value::Quotient(_) => 22,
            Value::Picture(_) => 24,
            Value::Function(_) => 18,
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Compares two numbers exactly (integers and rationals).
pub fn compare_numbers(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Int(x), Value::Rational(y)) => Some(BigRational::from(x.to_bigint()).cmp(y)),
        (Value::Rational(x), Value::Int(y)) => Some((**x).cmp(&BigRational::from(y.to_bigint()))),
        (Value::Rational(x), Value::Rational(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        let (r1, r2) = (self.rank(), other.rank());
        if r1 != r2 {
            return r1.cmp(&r2);
        }
        match (self, other) {
            (Value::Nothing, Value::Nothing) => Ordering::Equal,
            (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
            (Value::Str(a), Value::Str(b)) => a.cmp(b),
            (Value::Vector(a), Value::Vector(b)) => (a.dim(), a).cmp(&(b.dim(), b)),
            (Value::Tuple(a), Value::Tuple(b))
            | (Value::List(a), Value::List(b))
            | (Value::Set(a), Value::Set(b)) => a.cmp(b),
            (Value::Matrix(a), Value::Matrix(b)) => a.cmp(b),
            (Value::Cone(a), Value::Cone(b)) => a.cmp(b),
            (Value::Polyhedron(a), Value::Polyhedron(b)) => a.cmp(b),
            (Value::RuleSet(a), Value::RuleSet(b)) => a.cmp(b),
            (Value::Board(a), Value::Board(b)) => a.cmp(b),
            (Value::Game(a), Value::Game(b)) => a.cmp(b),
            (Value::Semigroup(a), Value::Semigroup(b)) => a.cmp(b),
            (Value::Module(a), Value::Module(b)) => a.cmp(b),
            (Value::Stratification(a), Value::Stratification(b)) => a.cmp(b),
            (Value::Solution(a), Value::Solution(b)) => Rc::as_ptr(a).cmp(&Rc::as_ptr(b)),
            (Value::StratifiedSet(a), Value::StratifiedSet(b)) => {
                if a == b {
                    Ordering::Equal
                } else {
                    Rc::as_ptr(a).cmp(&Rc::as_ptr(b))
                }
            }
            (Value::Genfunc(a), Value::Genfunc(b)) => {
                if a == b {
                    Ordering::Equal
                } else {
                    a.to_string().cmp(&b.to_string())
                }
            }
            (Value::ShortGenfunc(a), Value::ShortGenfunc(b)) => {
                if a == b {
                    Ordering::Equal
                } else {
                    a.to_string().cmp(&b.to_string())
                }
            }
            (Value::Verification(a), Value::Verification(b)) => {
                if a == b {
                    Ordering::Equal
                } else {
                    a.to_string().cmp(&b.to_string())
                }
            }
            (Value::Quotient(a), Value::Quotient(b)) => {
                if a == b {
                    Ordering::Equal
                } else {
                    a.to_string().cmp(&b.to_string())
                }
            }
            (Value::Picture(a), Value::Picture(b)) => {
                if a == b {
                    Ordering::Equal
                } else {
                    a.to_string().cmp(&b.to_string())
                }
            }
            (Value::Periodicity(a), Value::Periodicity(b)) => {
                if a == b {
                    Ordering::Equal
                } else {
                    a.to_string().cmp(&b.to_string())
                }
            }
            (Value::Function(a), Value::Function(b)) => a.id().cmp(&b.id()),
            (a, b) => compare_numbers(a, b).expect("same rank means both are numbers"),
        }
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Value {}

fn write_seq(f: &mut fmt::Formatter<'_>, open: &str, items: &[Value], close: &str) -> fmt::Result {
    write!(f, "{open}")?;
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            write!(f, ", ")?;
        }
        write!(f, "{x}")?;
    }
    write!(f, "{close}")
}

/// Prints a rational so that it reads back: `3/4`, `-3/4`.
fn fmt_rational(f: &mut fmt::Formatter<'_>, r: &BigRational) -> fmt::Result {
    let n: &BigInt = r.numer();
    if n.is_negative() {
        write!(f, "-{}/{}", -n, r.denom())
    } else {
        write!(f, "{}/{}", n, r.denom())
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Nothing => write!(f, "()"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Rational(r) => fmt_rational(f, r),
            Value::Str(s) => write!(f, "{:?}", &**s),
            Value::Vector(v) => write!(f, "{v}"),
            Value::Tuple(items) => {
                write_seq(f, "(", items, "")?;
                write!(f, "{})", if items.len() == 1 { "," } else { "" })
            }
            Value::List(items) => write_seq(f, "[", items, "]"),
            Value::Set(items) => write_seq(f, "{", items, "}"),
            Value::Matrix(m) if m.nrows() == 1 && m.ncols() == 1 => {
                write!(f, "matrix([[{}]])", m.get(0, 0))
            }
            Value::Matrix(m) => write!(f, "{m}"),
            Value::Function(Function::Closure(c)) => {
                let params: Vec<&str> = c.params.iter().map(|p| p.name.as_str()).collect();
                write!(
                    f,
                    "<fn {}({})>",
                    c.name.as_deref().unwrap_or(""),
                    params.join(", ")
                )
            }
            Value::Function(Function::Builtin(b)) => write!(f, "<builtin {}>", b.signature),
            Value::Cone(c) => write!(f, "{c}"),
            Value::Polyhedron(p) => write!(f, "{p}"),
            Value::RuleSet(r) => write!(f, "{r}"),
            Value::Board(b) => write!(f, "{b}"),
            Value::Game(g) => write!(f, "{g}"),
            Value::Semigroup(a) => write!(f, "{a}"),
            Value::Module(m) => write!(f, "{m}"),
            Value::Solution(s) => {
                let (p, all) = s.counts();
                write!(
                    f,
                    "solution of a game ({}) on {}: {all} positions, {p} P-positions",
                    s.game().brief(),
                    s.description()
                )
            }
            Value::StratifiedSet(s) => write!(f, "{s}"),
            Value::Genfunc(g) => write!(f, "{g}"),
            Value::ShortGenfunc(g) => write!(f, "{g}"),
            Value::Verification(v) => write!(f, "{v}"),
            Value::Periodicity(p) => write!(f, "{p}"),
            Value::Quotient(q) => write!(f, "{q}"),
            Value::Picture(p) => write!(f, "{p}"),
            Value::Stratification(s) => write_stratification(f, s),
        }
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_are_canonical() {
        let a = Value::set(vec![Value::int(2), Value::int(1), Value::int(2)]);
        let b = Value::set(vec![Value::int(1), Value::int(2)]);
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "{1, 2}");
    }

    #[test]
    fn integers_and_rationals_compare_exactly() {
        let half = Value::rational(BigRational::new(1.into(), 2.into()));
        assert!(Value::int(0) < half && half < Value::int(1));
        assert_eq!(
            Value::rational(BigRational::new(4.into(), 2.into())),
            Value::int(2)
        );
        assert_eq!(
            Value::rational(BigRational::new((-3).into(), 4.into())).to_string(),
            "-3/4"
        );
    }

    #[test]
    fn tuples_of_integers_are_vectors() {
        assert_eq!(
            Value::tuple(vec![Value::int(1), Value::int(0)]).type_name(),
            "vector"
        );
        assert_eq!(Value::tuple(vec![Value::int(1)]).to_string(), "(1,)");
        assert_eq!(
            Value::tuple(vec![Value::int(1), Value::str("a")]).type_name(),
            "tuple"
        );
    }
}
