//! REPL transcripts: each file in `tests/repl/` is a sequence of lines typed into a session; the
//! snapshot shows each line after its prompt (`lg> `, or `... ` while an entry continues) and what
//! the session answered.

use lattice_games::repl::{Reply, Session};

fn transcript(input: &str) -> String {
    let mut session = Session::default();
    let mut out = String::new();
    for line in input.lines() {
        let prompt = if session.is_continuing() {
            "... "
        } else {
            "lg> "
        };
        out.push_str(prompt);
        out.push_str(line);
        out.push('\n');
        match session.feed(line) {
            Reply::More => {}
            Reply::Output(text) => out.push_str(&text),
            Reply::Quit => {
                out.push_str("(session ends)\n");
                return out;
            }
        }
    }
    if let Some(rest) = session.finish() {
        out.push_str("(end of input)\n");
        out.push_str(&rest);
    }
    out
}

#[test]
fn repl_transcripts() {
    insta::glob!("repl", "*.txt", |path| {
        let input = std::fs::read_to_string(path).expect("readable transcript");
        insta::assert_snapshot!(transcript(&input));
    });
}

#[test]
fn completion_offers_builtins_prelude_and_bound_names() {
    let mut session = Session::default();
    session.feed("let Γ_misère = 1");
    let names = session.completions();
    for expected in ["ruleset", "normal_play", "nim", "Γ_misère", ":help", "N"] {
        assert!(
            names.iter().any(|n| n == expected),
            "completion lacks {expected}"
        );
    }
}
