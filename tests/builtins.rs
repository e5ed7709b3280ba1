//! Every builtin's documented example runs (what `:help name` shows is true), except the names
//! declared for capabilities not built yet, whose examples must fail with the `not_available`
//! diagnostic rather than anything else.

use lattice_games::eval::builtins;
use lattice_games::eval::Interpreter;

const SETUP: &str = "let Γ = nim(2)\nlet G = game(Γ, misere(Γ))\n";

#[test]
fn every_builtin_example_runs() {
    let mut failures = Vec::new();
    for b in builtins::all() {
        let mut interp = Interpreter::with_output(Box::new(std::io::sink()));
        let result = interp.run(
            &format!("<example of {}>", b.name),
            &format!("{SETUP}{}", b.example),
        );
        match result {
            Ok(_) => {}
            Err(e) if e.code == "lg::eval::not_available" => {}
            Err(e) => failures.push(format!("{}: {}", b.name, e.message)),
        }
        assert!(
            !b.doc.is_empty() && b.signature.starts_with(b.name),
            "{} needs a doc and a signature",
            b.name
        );
    }
    assert!(
        failures.is_empty(),
        "examples that fail:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_fixed_names_are_all_registered() {
    for name in [
        "solve",
        "outcome",
        "options",
        "winning_moves",
        "stratify",
        "verify",
        "genfunc",
        "hadamard",
        "congruent",
        "complement",
        "intersect",
        "members",
        "contains",
        "series",
        "rays",
        "facets",
        "hilbert_basis",
        "is_ruleset",
        "is_squarefree",
        "is_weakly_squarefree",
        "is_saturated",
        "octal",
        "grundy",
        "plot",
        "latex",
        "complexity",
    ] {
        assert!(
            builtins::find(name).is_some(),
            "`{name}` must be registered"
        );
    }
}

/// Runs a script and returns what it printed, or the error's code, the source text under its
/// span, and its message.
fn run_finite(script: &str) -> Result<String, (String, String, String)> {
    let out = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    struct Sink(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut interp = Interpreter::with_output(Box::new(Sink(out.clone())));
    match interp.run("<finite_game>", script) {
        Ok(_) => Ok(String::from_utf8(out.borrow().clone()).unwrap()),
        Err(e) => Err((
            e.code.to_string(),
            script[e.span.start..e.span.end].to_string(),
            e.message.clone(),
        )),
    }
}

#[test]
fn finite_game_encodes_theorem_5_1() {
    let printed = run_finite(
        "let r = finite_game([[], [[]]])\nprint(r[1])\nprint(r[2])\n\
         let m = finite_game([(\"g\", [\"a\", \"z\"]), (\"a\", [\"z\"]), (\"z\", [])], play: \"misere\")\n\
         print(m[1])\nprint(m[2])\nprint(type_of(m))\n\
         print(finite_game([], \"misere\"))",
    )
    .unwrap();
    assert_eq!(
        printed,
        "game(ruleset([(1, 0), (1, -1), (0, 1)]), board(orthant(2)))\n(1, 0)\n\
         game(ruleset([(1, 0), (1, -1), (0, 1)]), board(orthant(2), defeated: [(0, 0)]))\n(1, 0)\n\
         tuple\n(game(ruleset([(1,)]), board(orthant(1), defeated: [(0,)])), (0,))\n"
    );
}

#[test]
fn finite_game_diagnostics_point_at_the_argument() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "finite_game([(\"a\", [\"b\"]), (\"b\", [\"a\"])])",
            "lg::eval::value",
            "[(\"a\", [\"b\"]), (\"b\", [\"a\"])]",
            "a → b → a",
        ),
        (
            "finite_game([(\"a\", [\"c\"])])",
            "lg::eval::value",
            "[(\"a\", [\"c\"])]",
            "\"c\"",
        ),
        (
            "finite_game([(\"a\", []), (\"a\", [])])",
            "lg::eval::value",
            "[(\"a\", []), (\"a\", [])]",
            "two nodes",
        ),
        (
            "finite_game([(\"a\", []), [[]]])",
            "lg::eval::type",
            "[(\"a\", []), [[]]]",
            "pair 2",
        ),
        (
            "finite_game([(\"a\", [1])])",
            "lg::eval::type",
            "[(\"a\", [1])]",
            "not a name",
        ),
        (
            "finite_game([(1, [])])",
            "lg::eval::type",
            "[(1, [])]",
            "not a name",
        ),
        (
            "finite_game([[], 3])",
            "lg::eval::type",
            "[[], 3]",
            "an integer",
        ),
        ("finite_game(3)", "lg::eval::type", "3", "integer"),
        (
            "finite_game([], play: \"loser\")",
            "lg::eval::value",
            "play: \"loser\"",
            "\"loser\"",
        ),
        (
            "finite_game([], play: 1)",
            "lg::eval::type",
            "play: 1",
            "string",
        ),
        (
            "finite_game([], \"normal\", play: \"normal\")",
            "lg::eval::argument",
            "\"normal\"",
            "twice",
        ),
    ];
    for (script, code, under, says) in cases {
        let (c, u, m) = run_finite(script).expect_err(script);
        assert_eq!((c.as_str(), u.as_str()), (*code, *under), "{script}: {m}");
        assert!(m.contains(says), "{script}: {m}");
    }
}

#[test]
fn finite_game_reads_shared_lists_once() {
    // 2^60 leaves as a tree, 61 games once equal lists are shared.
    let printed = run_finite(
        "let g = []\nfor k in range(60) { g = [g, g] }\nprint(ambient_dim(finite_game(g)[1]))",
    )
    .unwrap();
    assert_eq!(printed, "60\n");
}
