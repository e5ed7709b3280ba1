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
