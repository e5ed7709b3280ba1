//! Every script in `examples/` runs without error, and its whole output is a reviewed snapshot.

mod common;

#[test]
fn example_scripts() {
    insta::glob!("../examples", "*.lg", |path| {
        let text = std::fs::read_to_string(path).expect("readable example");
        let name = format!(
            "examples/{}",
            path.file_name().expect("a file").to_string_lossy()
        );
        let (out, err) = common::run_script(&name, &text);
        assert!(err.is_none(), "{name} failed:\n{}", err.unwrap_or_default());
        insta::assert_snapshot!(out);
    });
}
