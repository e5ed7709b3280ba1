//! Every script in `examples/` runs, and its whole output is a reviewed snapshot. A script whose
//! first line is `# expect: error` demonstrates a rejection: it must end in a diagnostic, which is
//! part of its snapshot.

mod common;

#[test]
fn example_scripts() {
    insta::glob!("../examples", "**/*.lg", |path| {
        let text = std::fs::read_to_string(path).expect("readable example");
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        let name = format!(
            "examples/{}",
            path.strip_prefix(&root).unwrap_or(path).to_string_lossy()
        );
        let expects_error = text
            .lines()
            .next()
            .is_some_and(|l| l.trim() == "# expect: error");
        let (out, err) = common::run_script(&name, &text);
        let shown = match (err, expects_error) {
            (None, false) => out,
            (Some(e), true) => format!("{out}---\n{e}"),
            (Some(e), false) => panic!("{name} failed:\n{e}"),
            (None, true) => panic!("{name} says `# expect: error`, but it ran without one:\n{out}"),
        };
        insta::assert_snapshot!(shown);
    });
}
