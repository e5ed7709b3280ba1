//! The `lg` binary: exit codes and streams, as scripts and CI jobs rely on them.

use std::io::Write;
use std::process::{Command, Stdio};

fn lg(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lg"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lg starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("lg finishes");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_script(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lg-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write script");
    path
}

#[test]
fn a_script_that_holds_exits_0() {
    let (code, out, err) = lg(&["examples/tour.lg"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("all assertions hold\n"), "{out}");
}

#[test]
fn a_failed_assertion_exits_1_with_the_span() {
    let path = temp_script(
        "conjecture.lg",
        "let Γ = nim(2)\nassert len(Γ) == 4, \"Γ should have 4 moves\"\n",
    );
    let (code, _, err) = lg(&[path.to_str().unwrap()], "");
    assert_eq!(code, 1);
    assert!(
        err.contains("Γ should have 4 moves") && err.contains("len(Γ) == 4"),
        "{err}"
    );
}

#[test]
fn evaluate_one_entry() {
    let (code, out, _) = lg(&["-e", "let Γ = nim(2); game(Γ, misere(Γ))"], "");
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "game(ruleset([(1, 0), (0, 1), (-1, 1)]), board(orthant(2), defeated: [(0, 0)]))\n"
    );
    let (code, _, err) = lg(&["-e", "1 +"], "");
    assert_eq!(code, 1);
    assert!(err.contains("the input ends"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(lg(&["--frobnicate"], "").0, 2);
    assert_eq!(lg(&["-e"], "").0, 2);
    assert_eq!(lg(&["--check"], "").0, 2);
    assert_eq!(lg(&["no/such/file.lg"], "").0, 2);
}

#[test]
fn check_finds_unknown_names_and_arities_without_running() {
    let path = temp_script(
        "check.lg",
        "fn f(a, b) = a + b\nprint(\"this is not run\")\nlet x = f(1)\nlet y = rulset({(1, 0)})\nlet z = orthant(1, 2)\n",
    );
    let (code, out, err) = lg(&["--check", path.to_str().unwrap()], "");
    assert_eq!(code, 1);
    assert!(!out.contains("this is not run"));
    assert!(err.contains("`f` takes 2 arguments"), "{err}");
    assert!(err.contains("did you mean `ruleset`?"), "{err}");
    assert!(err.contains("`orthant` takes 1 argument"), "{err}");
    let (code, out, _) = lg(
        &["--check", "examples/gm09_example_8_12_stratification.lg"],
        "",
    );
    assert_eq!(code, 0);
    assert!(out.ends_with(": ok\n"));
}

/// Functions of the prelude (written in the language) have their arities checked too, and the
/// help of an arity error is a whole sentence.
#[test]
fn check_knows_prelude_arities_and_says_whole_sentences() {
    let path = temp_script(
        "check_prelude.lg",
        "print(nim(2, 3))\nprint(grundy(\"0.77\"))\nprint(misere(nim(2)))\n",
    );
    let (code, _, err) = lg(&["--check", path.to_str().unwrap()], "");
    assert_eq!(code, 1);
    assert!(
        err.contains("`nim` takes 1 argument, but this call gives 2"),
        "{err}"
    );
    assert!(err.contains("`nim` is defined with 1 parameter"), "{err}");
    assert!(
        err.contains("`grundy` takes 2 arguments, but this call gives 1"),
        "{err}"
    );
    assert!(err.contains("(`:help grundy` says more)"), "{err}");
    assert!(!err.contains("takes\n"), "a help line cut short: {err}");
    assert_eq!(
        err.matches("lg::check::arity").count(),
        2,
        "the correct call of `misere` is not reported: {err}"
    );
}

#[test]
fn piped_repl_prints_results_without_prompts_and_keeps_going_after_errors() {
    let (code, out, _) = lg(
        &[],
        "let Γ = ruleset([1 0 -1\n 0 1 1])\nlen(Γ)\nundefined_name\nΓ == nim(2)\n",
    );
    assert_eq!(code, 1, "an entry failed, so the exit code says so");
    assert!(out.starts_with("3\n"), "{out}");
    assert!(out.contains("`undefined_name` is not defined"), "{out}");
    assert!(out.ends_with("true\n"), "{out}");
    assert!(!out.contains("lg>"));
}

#[test]
fn hostile_input_gets_a_diagnostic_not_a_crash() {
    let deep = "(".repeat(100_000);
    let (code, _, err) = lg(&["-e", &deep], "");
    assert_eq!(code, 1);
    assert!(err.contains("nested"), "{err}");
    let (code, _, err) = lg(&["-e", "fn f(n) = f(n + 1); f(0)"], "");
    assert_eq!(code, 1);
    assert!(err.contains("nested more than"), "{err}");
    let (code, _, err) = lg(&["-e", "10^(10^9)"], "");
    assert_eq!(code, 1);
    assert!(err.contains("bits"), "{err}");
}

/// `latex` of rule sets (moves as columns), games (Γ and the board) and solutions (a table in two
/// dimensions, the set of P-positions otherwise), checked against the papers' notation and the
/// solution's own outcomes.
#[test]
fn latex_of_rule_sets_games_and_solutions() {
    let path = temp_script(
        "latex.lg",
        "let Γ = nim(2)\nprint(latex(Γ))\nprint(latex(game(Γ, misere(Γ))))\nprint(latex(solve(game(Γ, misere(Γ)), 2)))\nprint(latex(solve(game(nim(3), misere(nim(3))), 2)))\n",
    );
    let (code, out, err) = lg(&[path.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        r"\begin{pmatrix} 1 & 0 & -1 \\ 0 & 1 & 1 \end{pmatrix}"
    );
    assert_eq!(
        lines[1],
        r"\Gamma = \begin{pmatrix} 1 & 0 & -1 \\ 0 & 1 & 1 \end{pmatrix}, \quad B = \mathbb{N}^{2} \setminus \{0\}"
    );
    // Weight ≤ 2 under ℓ = (1, 2): (0, 0) defeated, (1, 0) P, (2, 0) N, (0, 1) N.
    assert_eq!(
        lines[2],
        r"\begin{array}{r|ccc} 1 & \cdot &  &  \\ 0 & \times & \bullet & \cdot \\ \hline x_2 / x_1 & 0 & 1 & 2 \end{array}"
    );
    assert_eq!(lines[3], r"\{(1, 0, 0)\}");
}

/// `plot` writes SVG and PNG files of a slice and of a strip (a game in Z^1): the SVG is a
/// document with one square per drawn cell, the PNG starts with the PNG signature.
#[test]
fn plots_are_written_as_svg_and_png() {
    let dir = std::env::temp_dir().join(format!("lg-cli-plots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let script = format!(
        "let Γ = nim(2)\n\
         let S = solve(game(Γ, misere(Γ)), 6)\n\
         plot(S, svg: \"{}\", png: \"{}\", title: \"misère Nim\")\n\
         let one = nim(1)\n\
         plot(solve(game(one, misere(one)), 9), svg: \"{}\", labels: \"heap size\")\n",
        file("nim.svg"),
        file("nim.png"),
        file("strip.svg")
    );
    let path = temp_script("plots.lg", &script);
    let (code, out, err) = lg(&[path.to_str().expect("utf-8 path")], "");
    if err.contains("no system font") {
        return; // a machine without fonts refuses PNG with a diagnostic; nothing else to check
    }
    assert_eq!(code, 0, "{out}{err}");
    let svg = std::fs::read_to_string(file("nim.svg")).expect("nim.svg written");
    // The files are written while `plot` runs, and the picture it returns is shown after: the
    // first picture's text follows the line saying nim.png was written.
    let first = out
        .split("wrote")
        .find(|part| part.contains("nim.png"))
        .unwrap_or("");
    let cells: usize = first
        .lines()
        .filter(|l| l.contains(['│', '┤']))
        .map(|l| l.matches(['●', '·', '×', '?']).count())
        .sum();
    assert_eq!(svg.matches("<rect").count(), cells, "{first}\n{svg}");
    let png = std::fs::read(file("nim.png")).expect("nim.png written");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    let strip = std::fs::read_to_string(file("strip.svg")).expect("strip.svg written");
    assert_eq!(strip.matches("<rect").count(), 10, "{strip}");
    assert!(strip.contains(">heap size</text>"), "{strip}");
    assert!(out.contains("heap size"), "{out}");
}

/// The memory budget: `--max-memory` and `LG_MAX_MEMORY` set it for any mode, bad sizes are usage
/// errors, and work past it (Barvinok's kept terms of a 7-dimensional knapsack simplex) is refused
/// with an estimate while `count`, which keeps no terms, still answers.
#[test]
fn the_memory_budget_is_set_from_the_command_line_and_refuses_with_an_estimate() {
    let (code, out, err) = lg(&["--max-memory", "2G", "-e", "set_limits()"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("a limit of 2.0 GiB"), "{out}");
    let (code, out, _) = lg(&["--max-memory=512M", "-e", "set_limits()"], "");
    assert_eq!(code, 0);
    assert!(out.contains("a limit of 512 MiB"), "{out}");
    for bad in ["--max-memory", "--max-memory=4X", "--max-memory=0"] {
        let (code, _, err) = lg(&[bad, "-e", "1"], "");
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("--max-memory"), "{bad}: {err}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_lg"))
        .args(["-e", "set_limits()"])
        .env("LG_MAX_MEMORY", "3G")
        .output()
        .expect("lg runs");
    assert!(String::from_utf8_lossy(&out.stdout).contains("a limit of 3.0 GiB"));
    let simplex = "polyhedron([1 0 0 0 0 0 0; 0 1 0 0 0 0 0; 0 0 1 0 0 0 0; 0 0 0 1 0 0 0; \
                   0 0 0 0 1 0 0; 0 0 0 0 0 1 0; 0 0 0 0 0 0 1; -737 -361 -859 -467 -914 -807 -961], \
                   (0, 0, 0, 0, 0, 0, 0, -1000000))";
    let (code, _, err) = lg(
        &["--max-memory", "30M", "-e", &format!("genfunc({simplex})")],
        "",
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("lg::eval::memory"), "{err}");
    assert!(
        err.contains("terms after") && err.contains("in all"),
        "{err}"
    );
    assert!(err.contains("set_limits"), "{err}");
    // The same budget counts its points (checked against the kept form's exact evaluation).
    let (code, out, err) = lg(
        &["--max-memory", "30M", "-e", &format!("count({simplex})")],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "2669878260448897368");
}

/// A value longer than a screenful is a one-line summary in `-e` and in `print` (games, rule
/// sets), saying what it is and how to see it all; `print(.., full: true)` and `str` stay whole.
#[test]
fn big_values_are_summarized_and_available_whole() {
    let (code, out, err) = lg(&["-e", "octal(\"0.77\", 30, play: \"misere\")"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("465 moves, misère play on N^30"), "{out}");
    assert!(out.contains("print(G, full: true)"), "{out}");
    let script = temp_script(
        "big_values.lg",
        "let G = octal(\"0.77\", 30, play: \"misere\")\n\
         print(G)\nprint(rules(G))\nprint(G, full: true)\nprint(len(str(G)) > 8000)\n\
         print(len(str([i for i in range(5000)])) > 8000)\n",
    );
    let (code, out, err) = lg(&[script.to_str().expect("utf-8 path")], "");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("<a lattice game of 465 moves"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("<a rule set of 465 moves in Z^30"),
        "{out}"
    );
    assert!(
        lines[2].starts_with("game(ruleset([") && lines[2].len() > 8000,
        "{out}"
    );
    assert_eq!(&lines[3..], ["true", "true"]);
    // A long list in the REPL: the summary and its beginning.
    let (_, out, _) = lg(&[], "[i for i in range(5000)]\n");
    assert!(
        out.starts_with("<a list of 5000 elements, beginning [0, 1, 2,"),
        "{out}"
    );
}
