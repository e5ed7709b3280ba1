//! No input makes the interpreter panic: arbitrary text, and text assembled from the language's own
//! tokens (which reaches much deeper into the evaluator), gets a value or a diagnostic. A step
//! limit keeps every generated program short-running.

use proptest::prelude::*;

use lattice_games::eval::{Interpreter, Style};

const TOKENS: &[&str] = &[
    "let ",
    "fn ",
    "if ",
    "else ",
    "for ",
    " in ",
    "assert ",
    "and ",
    "or ",
    "not ",
    "true",
    "false",
    "x",
    "y",
    "Γ",
    "ℓ",
    "p",
    "f",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "^",
    "⊎",
    "|+|",
    "∪",
    "∩",
    "∖",
    "|",
    "&",
    "\\",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ";",
    "\n",
    " ",
    ":",
    "0",
    "1",
    "2",
    "-1",
    "3/4",
    "1/0",
    "\"s\"",
    "N",
    "ℕ",
    "N{",
    "2N^2",
    "N^",
    "(1, 0)",
    "(0, 1, 0)",
    "[1 0 -1; 0 1 1]",
    "{(1, 0), (0, 1)}",
    "ruleset",
    "nim",
    "orthant",
    "board",
    "game",
    "misere",
    "normal_play",
    "range",
    "len",
    "print",
    "cone",
    "halfspaces",
    "polyhedron",
    "stratification",
    "pieces",
    "offsets",
    "map",
    "filter",
    "sum",
    "sort",
    "defeated:",
    "solve",
    "contains",
    "members",
    "unit",
    "zero",
    "vector",
    "matrix",
    "columns",
    "transpose",
    "#",
    "p[1]",
    "fn(x) = x",
    "10^",
    "(1, 0) + N{(2, 0)}",
];

fn run(text: &str) {
    let mut interp = Interpreter::with_output(Box::new(std::io::sink()));
    interp.set_step_limit(Some(20_000));
    if let Err(e) = interp.run("<fuzz>", text) {
        let rendered = interp.render(&e, Style::Plain);
        assert!(!rendered.is_empty());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn arbitrary_text(s in "\\PC{0,60}") {
        run(&s);
    }

    #[test]
    fn text_made_of_the_languages_tokens(tokens in proptest::collection::vec(proptest::sample::select(TOKENS), 0..30)) {
        run(&tokens.concat());
    }
}

#[test]
fn known_hard_inputs() {
    for text in [
        "",
        "\n\n;;",
        "(((((((((((",
        ")))",
        "let x = x",
        "fn f(x) = f(x)\nf(1)",
        "[x for x in range(100000) for y in range(100000) if false]",
        "2^2^2^2^2^2",
        "(-2)^(-3)",
        "0^(-1)",
        "1/0",
        "5 % 0",
        "N^0",
        "N^100000",
        "0N",
        "-1 * N",
        "ruleset([])",
        "vector([])",
        "zero(0)",
        "orthant(0)",
        "orthant(99999999999999999999999)",
        "range(10^30)",
        "matrix([])",
        "matrix([[]])",
        "{} + N",
        "[] ⊎ N",
        "nim(0)",
        "\"\\",
        "print(\"\\u{0}\")",
        "let p = (1,0); p[18446744073709551617]",
        "board(orthant(2), defeated: 5)",
        "unit(2, 3)",
        "sum([(1, 0), 1])",
        "min([])",
        "N{}",
        "N{(1, 0), [1 2]}",
        "stratification([])",
        "let f = fn(x, x) = x",
    ] {
        eprintln!("INPUT {text:?}");
        run(text);
    }
}
