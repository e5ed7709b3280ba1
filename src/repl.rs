//! The REPL. [`Session`] holds the interpreter and the text of an unfinished entry, and turns each
//! line typed into the text to show; it needs no terminal, so transcripts are tested directly.
//! [`run_terminal`] wraps it in rustyline (history, multi-line input, tab completion, Ctrl-C), and
//! [`run_piped`] drives it from a pipe without prompts.

use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::rc::Rc;

use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Editor, Helper};

use crate::eval::builtins;
use crate::eval::{EvalError, Interpreter, Outcome, Style, Value};
use crate::syntax::{parse_program, SourceId};

/// The REPL's commands, for `:help` and completion.
const COMMANDS: &[(&str, &str)] = &[
    (
        ":help",
        "`:help` lists the builtins; `:help name` explains one (also `:?`)",
    ),
    (":type", "`:type expr` shows the type of a value"),
    (":load", "`:load FILE` runs a script in this session"),
    (":quit", "`:quit` (or `:q`, or Ctrl-D) leaves"),
];

/// A buffer the interpreter prints into, drained after every entry.
#[derive(Clone, Default)]
struct SharedBuffer(Rc<RefCell<Vec<u8>>>);

impl Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What the session answers to one line.
#[derive(Debug, PartialEq, Eq)]
pub enum Reply {
    /// The entry is not complete yet (an open bracket, an operator at the end of the line).
    More,
    /// Text to show (may be empty).
    Output(String),
    /// The user asked to leave.
    Quit,
}

/// A REPL session: an interpreter plus the lines of an unfinished entry.
pub struct Session {
    interp: Interpreter,
    printed: SharedBuffer,
    pending: String,
    entries: usize,
    errors: usize,
    style: Style,
}

impl Default for Session {
    fn default() -> Self {
        Session::new(Style::Plain)
    }
}

impl Session {
    /// A new session; diagnostics are rendered in `style`.
    pub fn new(style: Style) -> Session {
        let printed = SharedBuffer::default();
        let interp = Interpreter::with_output(Box::new(printed.clone()));
        Session {
            interp,
            printed,
            pending: String::new(),
            entries: 0,
            errors: 0,
            style,
        }
    }

    /// How many entries ended in an error so far.
    pub fn errors(&self) -> usize {
        self.errors
    }

    /// Whether an entry is waiting for more lines.
    pub fn is_continuing(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Every name that completion offers: bound names, prelude functions, builtins, commands.
    pub fn completions(&self) -> Vec<String> {
        let mut names = self.interp.names();
        names.extend(COMMANDS.iter().map(|(c, _)| c.to_string()));
        names
    }

    /// Takes one line of input.
    pub fn feed(&mut self, line: &str) -> Reply {
        if self.pending.is_empty() {
            let trimmed = line.trim();
            if trimmed.starts_with(':') {
                return self.command(trimmed);
            }
            if trimmed.is_empty() {
                return Reply::Output(String::new());
            }
        }
        self.pending.push_str(line);
        self.pending.push('\n');
        if let Err(e) = parse_program(&self.pending, SourceId(u32::MAX)) {
            if e.is_incomplete() {
                return Reply::More;
            }
        }
        let text = std::mem::take(&mut self.pending);
        Reply::Output(self.evaluate(&text))
    }

    /// Abandons an unfinished entry (Ctrl-C at the prompt).
    pub fn cancel(&mut self) {
        self.pending.clear();
    }

    /// Ends the input: an unfinished entry is reported, not lost silently.
    pub fn finish(&mut self) -> Option<String> {
        if self.pending.is_empty() {
            return None;
        }
        let text = std::mem::take(&mut self.pending);
        Some(self.evaluate(&text))
    }

    fn evaluate(&mut self, text: &str) -> String {
        crate::interrupt::clear();
        self.entries += 1;
        let name = format!("<repl:{}>", self.entries);
        let result = self.interp.run(&name, text);
        let mut out = self.take_printed();
        match result {
            Ok(outcomes) => {
                for o in outcomes {
                    if let Outcome::Value(v) = o {
                        if !matches!(v, Value::Nothing) {
                            out.push_str(&v.to_string());
                            out.push('\n');
                        }
                    }
                }
            }
            Err(e) => {
                self.errors += 1;
                out.push_str(&self.render(&e));
            }
        }
        out
    }

    fn take_printed(&mut self) -> String {
        let bytes = std::mem::take(&mut *self.printed.0.borrow_mut());
        String::from_utf8_lossy(&bytes).into_owned()
    }

    fn render(&self, e: &EvalError) -> String {
        self.interp.render(e, self.style)
    }

    fn command(&mut self, line: &str) -> Reply {
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        let out = match cmd {
            ":q" | ":quit" | ":exit" => return Reply::Quit,
            ":help" | ":?" | ":h" => self.help(rest),
            ":type" | ":t" => self.type_of(rest),
            ":load" | ":l" => self.load(rest),
            other => {
                let known: Vec<String> = COMMANDS.iter().map(|(c, _)| c.to_string()).collect();
                let hint = match crate::eval::closest(other, &known) {
                    Some(c) => format!(" (did you mean `{c}`?)"),
                    None => String::new(),
                };
                format!("unknown command `{other}`{hint}; `:help` lists the commands\n")
            }
        };
        Reply::Output(out)
    }

    fn help(&self, topic: &str) -> String {
        if topic.is_empty() {
            let mut s = String::from(
                "lattice-games: type a statement or expression, e.g. `let Γ = ruleset([1 0 -1; 0 1 1])`.\n\
                 An entry goes on over several lines while a bracket is open.\n\nCommands:\n",
            );
            for (c, d) in COMMANDS {
                s.push_str(&format!("  {c:<8} {d}\n"));
            }
            s.push_str("\nBuiltins (`:help name` for details):\n");
            let mut line = String::from(" ");
            for b in builtins::all() {
                if line.len() + b.name.len() > 78 {
                    s.push_str(&line);
                    s.push('\n');
                    line = String::from(" ");
                }
                line.push(' ');
                line.push_str(b.name);
            }
            s.push_str(&line);
            s.push_str("\n\nPrelude functions (written in .lg): ");
            s.push_str(&self.interp.prelude_names().join(", "));
            s.push('\n');
            return s;
        }
        if let Some(b) = builtins::find(topic) {
            return builtins::help_text(b);
        }
        if let Some(doc) = self.interp.prelude_doc(topic) {
            return doc;
        }
        if let Some((c, d)) = COMMANDS
            .iter()
            .find(|(c, _)| c.trim_start_matches(':') == topic.trim_start_matches(':'))
        {
            return format!("{c}: {d}\n");
        }
        match self.interp.lookup(topic) {
            Some(v) => format!("{topic}: {}\n  {}\n", v.describe_type(), v),
            None => {
                let hint = match crate::eval::closest(topic, &self.completions()) {
                    Some(c) => format!("; did you mean `{c}`?"),
                    None => String::new(),
                };
                format!(
                    "no help for `{topic}`: it is not a builtin, a command or a bound name{hint}\n"
                )
            }
        }
    }

    fn type_of(&mut self, text: &str) -> String {
        if text.is_empty() {
            return "usage: `:type expr`\n".to_string();
        }
        self.entries += 1;
        let name = format!("<repl:{}>", self.entries);
        let result = self.interp.parse(&name, text).and_then(|(_, program)| {
            match program.stmts.as_slice() {
                [crate::syntax::ast::Stmt {
                    kind: crate::syntax::ast::StmtKind::Expr(e),
                    ..
                }] => {
                    let e = e.clone();
                    self.interp.eval_global(&e)
                }
                _ => Err(EvalError::new(
                    "lg::repl::type",
                    "`:type` takes one expression",
                    crate::syntax::Span::new(
                        SourceId(self.interp.sources_len() - 1),
                        0,
                        text.len(),
                    ),
                    "not a single expression",
                )),
            }
        });
        let mut out = self.take_printed();
        match result {
            Ok(v) => out.push_str(&format!("{}\n", v.describe_type())),
            Err(e) => out.push_str(&self.render(&e)),
        }
        out
    }

    fn load(&mut self, path: &str) -> String {
        if path.is_empty() {
            return "usage: `:load FILE`\n".to_string();
        }
        let path = path.trim_matches('"');
        match std::fs::read_to_string(path) {
            Ok(text) => {
                crate::interrupt::clear();
                let result = self.interp.run_script(path, &text);
                let mut out = self.take_printed();
                match result {
                    Ok(_) => out.push_str(&format!("loaded {path}\n")),
                    Err(e) => out.push_str(&self.render(&e)),
                }
                out
            }
            Err(e) => format!("cannot read `{path}`: {e}\n"),
        }
    }
}

/// Runs the REPL on standard input when it is not a terminal: no prompts, one result per entry.
/// Returns the process exit code (1 if any entry failed).
pub fn run_piped(input: impl BufRead, mut out: impl Write) -> i32 {
    let mut session = Session::new(Style::Plain);
    for line in input.lines() {
        let Ok(line) = line else { break };
        match session.feed(&line) {
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
        let start = before
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_alphanumeric() || *c == '_' || *c == ':' || *c == '\'')
            .last()
            .map(|(i, _)| i)
            .unwrap_or(pos);
        let word = &before[start..];
        if word.is_empty() {
            return Ok((pos, Vec::new()));
        }
        let mut hits: Vec<Pair> = self
            .names
            .borrow()
            .iter()
            .filter(|n| n.starts_with(word))
            .map(|n| Pair {
                display: n.clone(),
                replacement: n.clone(),
            })
            .collect();
        hits.sort_by(|a, b| a.display.cmp(&b.display));
        hits.dedup_by(|a, b| a.display == b.display);
        Ok((start, hits))
    }
}

impl Validator for LgHelper {
    fn validate(&self, ctx: &mut ValidationContext<'_>) -> rustyline::Result<ValidationResult> {
        let input = ctx.input();
        if input.trim_start().starts_with(':') {
            return Ok(ValidationResult::Valid(None));
        }
        match parse_program(input, SourceId(u32::MAX)) {
            Err(e) if e.is_incomplete() => Ok(ValidationResult::Incomplete),
            _ => Ok(ValidationResult::Valid(None)),
        }
    }
}

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
    let mut editor: Editor<LgHelper, rustyline::history::DefaultHistory> = match Editor::new() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("lg: cannot start the line editor ({e}); reading plain input instead");
            let stdin = std::io::stdin();
            return run_piped(stdin.lock(), std::io::stdout());
        }
    };
    editor.set_helper(Some(LgHelper {
        names: names.clone(),
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
    loop {
        match editor.readline("lg> ") {
            Ok(entry) => {
                remember(&mut editor, history.as_deref(), &entry);
                // The validator has already waited for a complete entry; feed it whole.
                let reply = if entry.trim_start().starts_with(':') {
                    session.feed(entry.trim())
                } else {
                    let mut last = Reply::More;
                    for line in entry.lines() {
                        last = session.feed(line);
                    }
                    if last == Reply::More {
                        Reply::Output(session.finish().unwrap_or_default())
                    } else {
                        last
                    }
                };
                match reply {
                    Reply::Output(s) => {
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
}
