//! Every script in `tests/errors/` fails, and the diagnostic it gets (with what it printed
//! before failing) is a reviewed snapshot: the words users read when they make that mistake.

mod common;

#[test]
fn error_scripts() {
    insta::glob!("errors", "*.lg", |path| {
        let text = std::fs::read_to_string(path).expect("readable script");
        let name = format!(
            "tests/errors/{}",
            path.file_name().expect("a file").to_string_lossy()
        );
        let (out, err) = common::run_script(&name, &text);
        let err = err.unwrap_or_else(|| panic!("{name} was expected to fail, but it ran:\n{out}"));
        let shown = if out.is_empty() {
            err
        } else {
            format!("{out}---\n{err}")
        };
        // The memory budget depends on the machine (what it has free); the need does not.
        insta::with_settings!({filters => vec![
            // (greedy wrapping makes the lines before it independent of it; it ends the message).
            (r"more than\s+(│\s+)?the\s+(│\s+)?memory[\s\S]*?process\)", "more than the memory budget [of this machine]"),
        ]}, {
            insta::assert_snapshot!(shown);
        });
    });
}
