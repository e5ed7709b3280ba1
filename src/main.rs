//! `lg`: the lattice-games interpreter. With no argument it starts the REPL; `lg FILE.lg...` runs
//! scripts; `lg -e 'expr'` evaluates one entry; `lg --check FILE...` checks without running.
//! Exit codes: 0 success, 1 an error in the script, 2 a usage error.

use std::io::IsTerminal;
use std::process::ExitCode;

use lattice_games::eval::check::check_program;
use lattice_games::eval::{Interpreter, Outcome, Style, Value};
use lattice_games::repl;

const USAGE: &str = "usage: lg                 start the REPL
       lg FILE.lg...      run scripts
       lg -e 'entry'      evaluate one entry and print its value
       lg --check FILE... check names and arities without running
       lg --help | --version";

fn stderr_style() -> Style {
    if std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
        Style::Color
    } else {
        Style::Plain
    }
}

fn run(args: Vec<String>) -> u8 {
    match args.first().map(String::as_str) {
        None => {
            if std::io::stdin().is_terminal() {
                repl::run_terminal() as u8
            } else {
                let stdin = std::io::stdin();
                repl::run_piped(stdin.lock(), std::io::stdout()) as u8
            }
        }
        Some("-h" | "--help") => {
            println!("{USAGE}");
            0
        }
        Some("-V" | "--version") => {
            println!("lg {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Some("-e") => {
            let [_, entry] = args.as_slice() else {
                eprintln!("lg: -e takes exactly one entry\n{USAGE}");
                return 2;
            };
            let mut interp = Interpreter::new();
            match interp.run("<-e>", entry) {
                Ok(outcomes) => {
                    if let Some(Outcome::Value(v)) = outcomes.last() {
                        if !matches!(v, Value::Nothing) {
                            println!("{v}");
                        }
                    }
                    0
                }
                Err(e) => {
                    eprint!("{}", interp.render(&e, stderr_style()));
                    1
                }
            }
        }
        Some("--check") => {
            if args.len() < 2 {
                eprintln!("lg: --check needs at least one file\n{USAGE}");
                return 2;
            }
            let mut status = 0;
            for path in &args[1..] {
                let text = match std::fs::read_to_string(path) {
                    Ok(t) => t,
                    Err(e) => {
                        eprintln!("lg: cannot read `{path}`: {e}");
                        return 2;
                    }
                };
                let mut interp = Interpreter::new();
                match interp.parse(path, &text) {
                    Ok((_, program)) => {
                        let problems = check_program(&program, &interp.prelude_arities());
                        if problems.is_empty() {
                            println!("{path}: ok");
                        }
                        for p in &problems {
                            eprint!("{}", interp.render(p, stderr_style()));
                            status = 1;
                        }
                    }
                    Err(e) => {
                        eprint!("{}", interp.render(&e, stderr_style()));
                        status = 1;
                    }
                }
            }
            status
        }
        Some(flag) if flag.starts_with('-') => {
            eprintln!("lg: unknown option `{flag}`\n{USAGE}");
            2
        }
        Some(_) => {
            let mut interp = Interpreter::new();
            for path in &args {
                let text = match std::fs::read_to_string(path) {
                    Ok(t) => t,
                    Err(e) => {
                        eprintln!("lg: cannot read `{path}`: {e}");
                        return 2;
                    }
                };
                if let Err(e) = interp.run_script(path, &text) {
                    eprint!("{}", interp.render(&e, stderr_style()));
                    return 1;
                }
            }
            0
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Deeply nested input and recursive .lg functions need more stack than the main thread has.
    let worker = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || run(args));
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => ExitCode::from(code),
        _ => {
            eprintln!("lg: internal error (please report it with the input that caused it)");
            ExitCode::from(1)
        }
    }
}
