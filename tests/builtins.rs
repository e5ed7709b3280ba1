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
