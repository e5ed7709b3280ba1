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
        insta::assert_snapshot!(shown);
    });
}
