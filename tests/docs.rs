//! The documentation stays true: every ```lg block in README.md and docs/language.md runs as a
//! script without error, and every ```lg-error block fails with a diagnostic.

mod common;

fn blocks(doc: &str, tag: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in doc.lines().enumerate() {
        match &mut current {
            None if line.trim_start() == format!("```{tag}") => {
                current = Some((i + 1, String::new()))
            }
            Some((start, text)) if line.trim_start().starts_with("```") => {
                out.push((*start, std::mem::take(text)));
                current = None;
            }
            Some((_, text)) => {
                text.push_str(line);
                text.push('\n');
            }
            None => {}
        }
    }
    out
}

fn check(path: &str) {
    let doc = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    for (line, text) in blocks(&doc, "lg") {
        let (_, err) = common::run_script(&format!("{path}:{line}"), &text);
        assert!(
            err.is_none(),
            "the block at {path}:{line} fails:\n{}",
            err.unwrap_or_default()
        );
    }
    for (line, text) in blocks(&doc, "lg-error") {
        let (_, err) = common::run_script(&format!("{path}:{line}"), &text);
        assert!(
            err.is_some(),
            "the block at {path}:{line} was meant to fail, but it runs"
        );
    }
}

#[test]
fn readme_examples_run() {
    check("README.md");
}

#[test]
fn language_reference_examples_run() {
    check("docs/language.md");
}

/// The paragraphs (blank-line separated, and each list item on its own) of a document.
fn paragraphs(doc: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    for line in doc.lines() {
        if line.trim().is_empty() || line.starts_with("- ") || line.starts_with("```") {
            out.push(String::new());
        }
        let last = out.last_mut().expect("one paragraph at least");
        last.push_str(line);
        last.push('\n');
    }
    out
}

/// Every named argument of every builtin is described in docs/language.md, in a paragraph that
/// names the builtin (or in the builtin's own help, for the few the reference leaves to `:help`).
#[test]
fn every_named_argument_is_documented() {
    let doc = std::fs::read_to_string("docs/language.md").unwrap();
    let paragraphs = paragraphs(&doc);
    let mut missing = Vec::new();
    for b in lattice_games::eval::builtins::all() {
        let call = format!("`{}(", b.name);
        let about: Vec<&String> = paragraphs.iter().filter(|p| p.contains(&call)).collect();
        for name in b.named {
            let shown = format!("{name}:");
            if !about.iter().any(|p| p.contains(&shown)) && !b.doc.contains(&shown) {
                missing.push(format!("{}({shown} …)", b.name));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "named arguments no paragraph about their builtin describes: {missing:?}"
    );
}

/// Every default the documents state for a named argument is the one the code uses.
#[test]
fn documented_defaults_are_the_code_defaults() {
    let defaults = lattice_games::eval::builtins::named_defaults();
    for path in ["README.md", "docs/language.md"] {
        let doc = std::fs::read_to_string(path).unwrap();
        for p in paragraphs(&doc) {
            // "`name:` (default V" or "`name:` (…, default V".
            let mut rest = p.as_str();
            while let Some(at) = rest.find(":` (") {
                let before = &rest[..at];
                let name = before.rsplit('`').next().unwrap_or("");
                let after = &rest[at + 4..];
                let inside = &after[..after.find(')').unwrap_or(after.len())];
                if let Some(d) = inside.find("default ") {
                    let value: String = inside[d + 8..]
                        .chars()
                        .take_while(|c| c.is_ascii_digit() || *c == '^')
                        .collect();
                    let known: Vec<&String> = defaults
                        .iter()
                        .filter(|(_, n, _)| *n == name)
                        .map(|(_, _, v)| v)
                        .collect();
                    assert!(
                        known.iter().any(|v| **v == value),
                        "{path}: `{name}:` is said to default to {value}, but the code's defaults for it are {known:?}\n{p}"
                    );
                }
                rest = after;
            }
        }
    }
    // And each default is stated somewhere.
    let all = std::fs::read_to_string("docs/language.md").unwrap();
    for (builtin, name, value) in defaults {
        assert!(
            all.contains(&format!("`{name}:` (default {value}")),
            "docs/language.md does not state that {builtin}'s `{name}:` defaults to {value}"
        );
    }
}
