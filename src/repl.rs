//! The REPL in a terminal and in a pipe. [`Session`] (the shared session layer) holds the
//! interpreter and the text of an unfinished entry, and turns each line typed into the text to
//! show; [`run_terminal`] wraps it in rustyline (history, multi-line input, tab completion,
//! Ctrl-C), and [`run_piped`] drives it from a pipe without prompts.

use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::rc::Rc;

use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Editor, Helper};

use crate::eval::Style;
pub use crate::session::{Reply, Session};

/// The prompt for a new entry.
const PROMPT: &str = "lg> ";

/// The prompt while an entry is still open (an unclosed bracket, a trailing operator); Ctrl-C
/// abandons the entry.
const CONTINUATION_PROMPT: &str = "..> ";

/// Runs the REPL on standard input when it is not a terminal: no prompts, one result per entry.
/// Returns the process exit code (1 if any entry failed).
pub fn run_piped(input: impl BufRead, mut out: impl Write) -> i32 {
    let mut session = Session::new(Style::Plain);
    for line in input.split(b'\n') {
        let Ok(mut line) = line else { break };
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        match session.feed_bytes(line) {
            Reply::More => {}
            Reply::Output(s) => {
                let _ = out.write_all(s.as_bytes());
            }
            Reply::Quit => break,
        }
    }
    if let Some(s) = session.finish() {
        let _ = out.write_all(s.as_bytes());
    }
    i32::from(session.errors() > 0)
}

struct LgHelper {
    names: Rc<RefCell<Vec<String>>>,
    files: rustyline::completion::FilenameCompleter,
}

impl Completer for LgHelper {
    type Candidate = Pair;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        // `:load FILE` completes file names.
        let command = before.trim_start();
        if let Some(rest) = [":load ", ":l "]
            .iter()
            .find_map(|c| command.strip_prefix(c))
        {
            if !rest.contains('\n') {
                return self.files.complete_path(line, pos);
            }
        }
        let (start, words) = crate::session::complete_word(&self.names.borrow(), line, pos);
        let hits: Vec<Pair> = words
            .into_iter()
            .map(|n| Pair {
                display: n.clone(),
                replacement: n,
            })
            .collect();
        Ok((start, hits))
    }
}

/// Entries are accepted line by line (the session keeps an open entry and the prompt becomes
/// [`CONTINUATION_PROMPT`]), so the editor itself validates nothing.
impl Validator for LgHelper {}

impl Hinter for LgHelper {
    type Hint = String;
}

impl Highlighter for LgHelper {}

impl Helper for LgHelper {}

fn history_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local").join("share"))
        })?;
    let dir = base.join("lattice-games");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("history.txt"))
}

/// Runs the interactive REPL on a terminal. Returns the process exit code.
pub fn run_terminal() -> i32 {
    let color = std::env::var_os("NO_COLOR").is_none();
    let mut session = Session::new(if color { Style::Color } else { Style::Plain });
    let names = Rc::new(RefCell::new(session.completions()));
    // Tab lists all candidates (and completes their common prefix) instead of cycling.
    let config = rustyline::Config::builder()
        .completion_type(rustyline::CompletionType::List)
        .build();
    let mut editor: Editor<LgHelper, rustyline::history::DefaultHistory> =
        match Editor::with_config(config) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("lg: cannot start the line editor ({e}); reading plain input instead");
                let stdin = std::io::stdin();
                return run_piped(stdin.lock(), std::io::stdout());
            }
        };
    editor.set_helper(Some(LgHelper {
        names: names.clone(),
        files: rustyline::completion::FilenameCompleter::new(),
    }));
    let history = history_path();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    let _ = ctrlc::set_handler(crate::interrupt::request);
    println!(
        "lattice-games {} — `:help` for help, Ctrl-D to leave",
        env!("CARGO_PKG_VERSION")
    );
    // The lines of an entry still open (an unclosed bracket, a trailing operator), shown with
    // the continuation prompt and remembered as one entry once it is complete.
    let mut open: Vec<String> = Vec::new();
    loop {
        let prompt = if session.is_continuing() {
            CONTINUATION_PROMPT
        } else {
            PROMPT
        };
        match editor.readline(prompt) {
            Ok(input) => {
                // A pasted or recalled entry may hold several lines: feed them one by one.
                let reply = if !session.is_continuing() && input.trim_start().starts_with(':') {
                    session.feed(input.trim())
                } else {
                    let mut shown = String::new();
                    let mut quit = false;
                    for line in input.split('\n') {
                        match session.feed(line) {
                            Reply::Output(s) => shown.push_str(&s),
                            Reply::Quit => {
                                quit = true;
                                break;
                            }
                            Reply::More => {}
                        }
                    }
                    if quit {
                        Reply::Quit
                    } else if session.is_continuing() {
                        if !shown.is_empty() {
                            print!("{shown}");
                        }
                        Reply::More
                    } else {
                        Reply::Output(shown)
                    }
                };
                open.push(input);
                if reply != Reply::More {
                    remember(&mut editor, history.as_deref(), &open.join("\n"));
                    open.clear();
                }
                match reply {
                    Reply::Output(s) => {
                        // The terminal echoed `^C` without a newline: start the message below it.
                        if crate::interrupt::requested() {
                            println!();
                        }
                        print!("{s}");
                        let _ = std::io::stdout().flush();
                    }
                    Reply::Quit => break,
                    Reply::More => {}
                }
                *names.borrow_mut() = session.completions();
            }
            Err(ReadlineError::Interrupted) => {
                session.cancel();
                open.clear();
                continue;
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("lg: {e}");
                break;
            }
        }
    }
    0
}

/// Adds an entry to the history and appends it to the history file at once, so that a session
/// ended by a closed terminal (SIGHUP) or a crash keeps what was typed.
fn remember<H: Helper>(
    editor: &mut Editor<H, rustyline::history::DefaultHistory>,
    file: Option<&std::path::Path>,
    entry: &str,
) {
    if entry.trim().is_empty() {
        return;
    }
    if let Ok(true) = editor.add_history_entry(entry) {
        if let Some(f) = file {
            let _ = editor.append_history(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transcript(lines: &[&str]) -> String {
        let mut s = Session::default();
        let mut out = String::new();
        for l in lines {
            match s.feed(l) {
                Reply::More => out.push_str("...\n"),
                Reply::Output(o) => out.push_str(&o),
                Reply::Quit => out.push_str("<quit>\n"),
            }
        }
        out
    }

    #[test]
    fn values_are_echoed_and_bindings_are_not() {
        assert_eq!(
            transcript(&["let x = 2", "x + 1", "print(\"hi\")"]),
            "3\nhi\n"
        );
    }

    #[test]
    fn open_brackets_continue_the_entry() {
        assert_eq!(
            transcript(&["ruleset([1 0 -1", "         0 1 1])"]),
            "...\nruleset([(1, 0), (0, 1), (-1, 1)])\n"
        );
    }

    #[test]
    fn errors_keep_the_session() {
        let out = transcript(&["let x = 1", "y + 1", "x"]);
        assert!(out.contains("`y` is not defined"), "{out}");
        assert!(out.ends_with("1\n"), "{out}");
    }

    #[test]
    fn commands() {
        let out = transcript(&[":type (1, 2)", ":help ruleset", ":quit"]);
        assert!(out.starts_with("vector in Z^2\n"), "{out}");
        assert!(out.contains("ruleset(moves) -> rule set"), "{out}");
        assert!(out.ends_with("<quit>\n"), "{out}");
    }

    #[test]
    fn each_entry_reaches_the_history_file_when_it_is_accepted() {
        let dir = std::env::temp_dir().join(format!("lg-history-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("history.txt");
        let _ = std::fs::remove_file(&file);
        let mut editor: Editor<LgHelper, rustyline::history::DefaultHistory> =
            Editor::new().unwrap();
        remember(&mut editor, Some(&file), "let x = 1");
        // No clean exit: the file already holds the entry.
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains("let x = 1"), "{text}");
        remember(&mut editor, Some(&file), "x + 1");
        remember(&mut editor, Some(&file), "   ");
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            text.contains("let x = 1") && text.contains("x + 1"),
            "{text}"
        );
        assert_eq!(text.matches("let x = 1").count(), 1, "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn help_knows_operators_keywords_and_typos() {
        let out = transcript(&[
            ":help slove",
            ":help ⊎",
            ":help |+|",
            ":help for",
            ":help ^",
        ]);
        assert!(out.contains("did you mean `solve`?"), "{out}");
        assert!(out.contains("disjoint union"), "{out}");
        assert!(out.contains("comprehension"), "{out}");
        assert!(out.contains("no decimals"), "{out}");
        assert!(!out.contains("no help for `⊎`"), "{out}");
    }

    /// `:load` completes file names (the tests run in the crate's directory), other entries
    /// complete names.
    #[test]
    fn load_completes_paths() {
        let helper = LgHelper {
            names: Rc::new(RefCell::new(vec!["solve".to_string()])),
            files: rustyline::completion::FilenameCompleter::new(),
        };
        let history = rustyline::history::DefaultHistory::new();
        let ctx = rustyline::Context::new(&history);
        let line = ":load examples/tou";
        let (start, hits) = helper.complete(line, line.len(), &ctx).unwrap();
        assert_eq!(start, ":load ".len());
        let shown: Vec<&str> = hits.iter().map(|p| p.replacement.as_str()).collect();
        assert_eq!(shown, vec!["examples/tour.lg"]);
        let (_, hits) = helper.complete(":l exa", 6, &ctx).unwrap();
        let shown: Vec<&str> = hits.iter().map(|p| p.replacement.as_str()).collect();
        assert!(shown.contains(&"examples/"), "{shown:?}");
        let (start, hits) = helper.complete("sol", 3, &ctx).unwrap();
        assert_eq!((start, hits.len()), (0, 1));
    }

    #[test]
    fn named_arguments_complete_with_their_colon() {
        let session = Session::new(Style::Plain);
        let names = session.completions();
        assert!(names.iter().any(|n| n == "max_weight:"), "{names:?}");
        assert!(names.iter().any(|n| n == "timeout:"), "{names:?}");
    }
}
