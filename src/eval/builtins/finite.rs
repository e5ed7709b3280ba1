//! Finite impartial games as lattice games ([GM09] Theorem 5.1): `finite_game` reads a game from
//! nested lists or from named nodes and returns its lattice game with the game's position.

use std::collections::HashMap;
use std::rc::Rc;

use super::{Args, Builtin};
use crate::eval::error::article;
use crate::eval::value::Value;
use crate::eval::{EvalError, Interpreter};
use crate::game::finite_game::{FiniteGame, FiniteGameError, Play};
use crate::syntax::Span;

type R = Result<Value, EvalError>;

/// The most nodes a game may have here: the encoding has one coordinate per distinct game.
const MAX_NODES: usize = 1000;

const FORMS: &str =
    "write a game as the list of its options, `[[], [[]]]` (the zero game is `[]`), \
                     or as pairs `(\"name\", [\"option\", ...])`, the game itself first";

pub(super) fn register(r: &mut Vec<Builtin>) {
    r.push(Builtin {
        name: "finite_game",
        signature: "finite_game(spec, play: \"normal\" | \"misere\") -> (game, position)",
        doc: "An arbitrary finite impartial game as a lattice game on N^d ([GM09] Theorem 5.1).\n\
              spec is nested lists (a game is the list of its options, [] the zero game) or a list of\n\
              pairs (\"name\", [\"option\", ...]) whose first pair is the game itself. Each distinct\n\
              nonzero game among the followers gets an axis (the game itself the first), sums of games\n\
              are sums of unit vectors, the rule set is {e_i − e_j : G_j an option of G_i}, the zero\n\
              game is the origin (so moving to it is e_i), and the board is N^d for normal play or\n\
              N^d ∖ {0} for misère play (the default is normal). Returns the game and the position of\n\
              the game itself; in misère play the zero game's position is the defeated origin.",
        example: "let r = finite_game([[], [[]]], play: \"misere\")   # *2 = {0, *}\n\
                  print(r[1], r[2])\n\
                  finite_game([(\"g\", [\"a\", \"z\"]), (\"a\", [\"z\"]), (\"z\", [])])",
        min_args: 1,
        max_args: Some(2),
        named: &["play"],
        func: finite_game,
    });
}

fn finite_game(_: &mut Interpreter, a: &mut Args) -> R {
    let play = play(a)?;
    let span = a.span(0);
    let game = match a.value(0) {
        Value::List(items) if matches!(items.first(), Some(Value::Tuple(_))) => named(items, span)?,
        v @ (Value::List(_) | Value::Set(_)) => nested(v, span)?,
        _ => {
            return Err(a
                .wrong(
                    0,
                    "a list of options such as [[], [[]]], or a list of pairs (\"name\", [\"option\", ...])",
                )
                .with_help(FORMS))
        }
    };
    if game.len() > MAX_NODES {
        return Err(EvalError::new(
            "lg::eval::value",
            format!(
                "this game has {} different followers; `finite_game` takes at most {MAX_NODES}",
                game.len()
            ),
            span,
            "too large",
        )
        .with_help(
            "the encoding of Theorem 5.1 has one coordinate per follower: try a smaller game",
        ));
    }
    let enc = game.encode(play).map_err(|e| finite_error(e, span))?;
    let root = enc.positions[game.root()].clone();
    Ok(Value::tuple(vec![
        Value::Game(Rc::new(enc.game)),
        Value::vector(root),
    ]))
}

fn play(a: &Args) -> Result<Play, EvalError> {
    let (value, span) = match (a.named("play"), a.len()) {
        (Some(_), 2) => {
            return Err(EvalError::new(
                "lg::eval::argument",
                "the play is given twice, as the second argument and as `play:`",
                a.span(1),
                "given again",
            )
            .with_help("keep one of them: `play: \"misere\"`"))
        }
        (Some((v, s)), _) => (v, s),
        (None, 2) => (a.value(1), a.span(1)),
        (None, _) => return Ok(Play::Normal),
    };
    match value {
        Value::Str(s) if &**s == "normal" => Ok(Play::Normal),
        Value::Str(s) if &**s == "misere" || &**s == "misère" => Ok(Play::Misere),
        Value::Str(s) => Err(EvalError::new(
            "lg::eval::value",
            format!("the play is \"normal\" or \"misere\", not {:?}", &**s),
            span,
            "unknown play",
        )
        .with_help("normal play: the player who cannot move loses; misère play: that player wins")),
        other => Err(EvalError::type_error(
            "the play of `finite_game`",
            "the string \"normal\" or \"misere\"",
            other.type_name(),
            span,
        )
        .with_help("write `play: \"misere\"`")),
    }
}

/// Nested lists, read without recursion; a list shared by several parents (the same value used
/// twice) is read once.
fn nested(v: &Value, span: Span) -> Result<FiniteGame, EvalError> {
    fn items(v: &Value) -> Option<&Rc<Vec<Value>>> {
        match v {
            Value::List(x) | Value::Set(x) => Some(x),
            _ => None,
        }
    }
    let mut ids: HashMap<*const Vec<Value>, usize> = HashMap::new();
    let mut nodes: Vec<(String, Vec<String>)> = Vec::new();
    let mut stack: Vec<(&Value, usize)> = vec![(v, 0)];
    while let Some((value, next)) = stack.pop() {
        let list = items(value).expect("only lists are pushed");
        if ids.contains_key(&Rc::as_ptr(list)) {
            continue;
        }
        if let Some(child) = list.get(next) {
            stack.push((value, next + 1));
            match items(child) {
                Some(c) if !ids.contains_key(&Rc::as_ptr(c)) => stack.push((child, 0)),
                Some(_) => {}
                None => {
                    return Err(EvalError::new(
                        "lg::eval::type",
                        format!(
                            "in the nested form every game is a list of its options, but one holds {} ({child})",
                            article(child.type_name())
                        ),
                        span,
                        format!("holds {}", article(child.type_name())),
                    )
                    .with_help(FORMS));
                }
            }
            continue;
        }
        let id = nodes.len();
        if id >= MAX_NODES * 4 {
            return Err(EvalError::new(
                "lg::eval::value",
                format!("this game has more than {} nodes", MAX_NODES * 4),
                span,
                "too large",
            )
            .with_help("try a smaller game"));
        }
        let opts = list
            .iter()
            .map(|c| {
                let c = items(c).expect("checked above");
                format!("#{}", ids[&Rc::as_ptr(c)])
            })
            .collect();
        ids.insert(Rc::as_ptr(list), id);
        nodes.push((format!("#{id}"), opts));
    }
    // The game itself was read last; it goes first.
    nodes.rotate_right(1);
    FiniteGame::from_named(&nodes).map_err(|e| finite_error(e, span))
}

/// Pairs ("name", ["option", ...]), the first the game itself.
fn named(items: &[Value], span: Span) -> Result<FiniteGame, EvalError> {
    let bad = |k: usize, what: String| {
        EvalError::new(
            "lg::eval::type",
            format!("pair {} of the named form {what}", k + 1),
            span,
            format!("pair {}", k + 1),
        )
        .with_help("each entry is a pair (\"name\", [\"option\", ...]): a name and the names of its options")
    };
    let mut nodes = Vec::with_capacity(items.len());
    for (k, item) in items.iter().enumerate() {
        let Value::Tuple(pair) = item else {
            return Err(bad(
                k,
                format!("is {} ({item}), not a pair", article(item.type_name())),
            ));
        };
        let [name, opts] = &pair[..] else {
            return Err(bad(
                k,
                format!(
                    "has {}, not 2",
                    crate::eval::error::count(pair.len(), "entry", "entries")
                ),
            ));
        };
        let Value::Str(name) = name else {
            return Err(bad(
                k,
                format!(
                    "starts with {} ({name}), not a name (a string)",
                    article(name.type_name())
                ),
            ));
        };
        let (Value::List(opts) | Value::Set(opts)) = opts else {
            return Err(bad(
                k,
                format!(
                    "ends with {} ({opts}), not a list of option names",
                    article(opts.type_name())
                ),
            ));
        };
        let mut names = Vec::with_capacity(opts.len());
        for o in opts.iter() {
            let Value::Str(o) = o else {
                return Err(bad(
                    k,
                    format!("has the option {o}, which is not a name (a string)"),
                ));
            };
            names.push(o.to_string());
        }
        nodes.push((name.to_string(), names));
    }
    FiniteGame::from_named(&nodes).map_err(|e| finite_error(e, span))
}

fn finite_error(e: FiniteGameError, span: Span) -> EvalError {
    let (label, help) = match &e {
        FiniteGameError::NoNodes => (
            "no games",
            "give at least the game itself: `[(\"g\", [])]`".to_string(),
        ),
        FiniteGameError::DuplicateName(n) => (
            "a name used twice",
            format!("give each game one pair; rename one of the {n:?}"),
        ),
        FiniteGameError::UnknownOption { option, .. } => (
            "an option that is not defined",
            format!(
                "add a pair (\"{option}\", [...]) listing its options, or `[]` for the zero game"
            ),
        ),
        FiniteGameError::Cycle(_) => (
            "a cycle of options",
            "every chain of options must end: a finite game is not its own follower".to_string(),
        ),
        FiniteGameError::Game(_) => (
            "here",
            "this contradicts [GM09] Theorem 5.1; please report it".to_string(),
        ),
    };
    EvalError::new("lg::eval::value", e.to_string(), span, label).with_help(help)
}
