//! `lg`: the lattice-games interpreter. With no argument it starts the REPL; `lg FILE.lg...` runs
//! scripts (as one shard of a sweep with `--shard`, recording to `--results`); `lg -e 'expr'`
//! evaluates one entry; `lg --check FILE...` checks without running; `lg --summary FILE...`
//! summarizes sweep results; `lg kernel -f FILE` is the Jupyter kernel, `lg kernel install`
//! writes its kernelspec. Exit codes: 0 success, 1 an error in the script, 2 a usage error.

use std::io::IsTerminal;
use std::process::ExitCode;

use lattice_games::eval::check::check_program;
use lattice_games::eval::{Interpreter, Outcome, Style, Value};
use lattice_games::repl;
use lattice_games::sweep::{ResultsFile, Shard, SweepContext};

/// The set algebra behind `stratify` and `verify` allocates many small vectors on two threads;
/// mimalloc serves them faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "usage: lg                 start the REPL
       lg [OPTIONS] FILE.lg...  run scripts
       lg -e 'entry'      evaluate one entry and print its value
       lg --check FILE... check names and arities without running
       lg --summary FILE.jsonl...  summarize the records of a sweep's shards
       lg kernel install [--user | --prefix DIR]  install the Jupyter kernel (name `lg`)
       lg kernel -f CONNECTION_FILE  run the Jupyter kernel (Jupyter starts it so)
       lg --help | --version
options for scripts (sweeps):
       --shard i/n        run shard i of n (default: LG_SHARD, or a Slurm array job's
                          SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT)
       --results FILE     append one JSON line per `record` to FILE; items already in it are
                          skipped by `pending` (resume)
       --set name=value   a value for `setting(\"name\", default)` (repeatable)
options for every mode:
       --max-memory SIZE  the memory budget of the whole session (4G, 512M, ...; default:
                          LG_MAX_MEMORY, else 3/4 of what the machine, the cgroup and
                          `ulimit -v` leave); work that would not fit is refused before it runs";

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
                            println!("{}", v.display_text());
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
                let bytes = match std::fs::read(path) {
                    Ok(b) => b,
                    Err(e) => {
                        eprintln!("lg: cannot read `{path}`: {e}");
                        return 2;
                    }
                };
                let mut interp = Interpreter::new();
                let text = match interp.script_text(path, bytes) {
                    Ok(t) => t,
                    Err(e) => {
                        eprint!("{}", interp.render(&e, stderr_style()));
                        status = 1;
                        continue;
                    }
                };
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
        Some("kernel") => kernel(&args[1..]),
        Some("--summary") => {
            if args.len() < 2 {
                eprintln!("lg: --summary needs at least one results file\n{USAGE}");
                return 2;
            }
            match lattice_games::sweep::summary::summary(&args[1..]) {
                Ok(text) => {
                    print!("{text}");
                    0
                }
                Err(e) => {
                    eprintln!("lg: {e}");
                    2
                }
            }
        }
        Some(_) => {
            let mut interp = Interpreter::new();
            let scripts = match sweep_options(&args) {
                Ok((context, scripts)) => {
                    interp.sweep = context;
                    scripts
                }
                Err(OptionError::Usage(e)) => {
                    eprintln!("lg: {e}\n{USAGE}");
                    return 2;
                }
                Err(OptionError::Io(e)) => {
                    eprintln!("lg: {e}");
                    return 1;
                }
            };
            if scripts.is_empty() {
                eprintln!("lg: no script to run\n{USAGE}");
                return 2;
            }
            for path in &scripts {
                let bytes = match std::fs::read(path) {
                    Ok(b) => b,
                    Err(e) => {
                        eprintln!("lg: cannot read `{path}`: {e}");
                        return 2;
                    }
                };
                let run = interp
                    .script_text(path, bytes)
                    .and_then(|text| interp.run_script(path, &text));
                if let Err(e) = run {
                    eprint!("{}", interp.render(&e, stderr_style()));
                    return 1;
                }
            }
            0
        }
    }
}

/// `lg kernel install [--user | --prefix DIR]` and `lg kernel -f CONNECTION_FILE`.
fn kernel(args: &[String]) -> u8 {
    use lattice_games::kernel::{self, spec};
    let strs: Vec<&str> = args.iter().map(String::as_str).collect();
    match strs.as_slice() {
        ["-f", file] | ["--connection-file", file] => match kernel::run(std::path::Path::new(file))
        {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("lg kernel: {e}");
                1
            }
        },
        ["install", rest @ ..] => {
            let location = match rest {
                [] => spec::Location::System,
                ["--user"] => spec::Location::User,
                ["--prefix", dir] => spec::Location::Prefix(std::path::PathBuf::from(dir)),
                _ => {
                    eprintln!("lg: kernel install takes `--user` or `--prefix DIR`\n{USAGE}");
                    return 2;
                }
            };
            match spec::install(&location) {
                Ok(dir) => {
                    println!(
                        "installed the kernelspec `{}` (\"{}\") in {}",
                        spec::NAME,
                        spec::DISPLAY_NAME,
                        dir.display()
                    );
                    0
                }
                Err(e) => {
                    eprintln!("lg kernel install: {e}");
                    1
                }
            }
        }
        _ => {
            eprintln!("lg: `kernel` takes `-f CONNECTION_FILE` or `install [--user | --prefix DIR]`\n{USAGE}");
            2
        }
    }
}

/// Why the sweep options cannot be used: a mistake in them (exit 2, with the usage) or a results
/// file that cannot be opened (exit 1).
enum OptionError {
    Usage(String),
    Io(String),
}

impl From<String> for OptionError {
    fn from(e: String) -> Self {
        OptionError::Usage(e)
    }
}

/// The sweep options before the scripts (`--shard`, `--results`, `--set`), and the scripts.
fn sweep_options(args: &[String]) -> Result<(SweepContext, Vec<String>), OptionError> {
    let mut shard = None;
    let mut results = None;
    let mut settings = Vec::new();
    let mut rest = args.iter();
    let mut scripts = Vec::new();
    while let Some(a) = rest.next() {
        let mut value = |flag: &str| {
            rest.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match a.as_str() {
            "--shard" => shard = Some(Shard::parse(&value("--shard")?).map_err(|e| e.to_string())?),
            "--results" => results = Some(value("--results")?),
            "--set" => {
                let v = value("--set")?;
                let (name, val) = v
                    .split_once('=')
                    .ok_or_else(|| format!("--set takes name=value, not `{v}`"))?;
                settings.push((name.trim().to_string(), val.to_string()));
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option `{flag}`").into()),
            path => scripts.push(path.to_string()),
        }
    }
    let shard = match shard {
        Some(s) => Some(s),
        None => Shard::from_env(|k| std::env::var(k).ok()).map_err(|e| e.to_string())?,
    };
    let results = match results {
        Some(path) => Some(ResultsFile::open(std::path::Path::new(&path)).map_err(|e| {
            OptionError::Io(format!(
                "cannot open the results file to append to it: {e}; give a path in a \
                     directory that exists and can be written"
            ))
        })?),
        None => None,
    };
    Ok((SweepContext::new(shard, results, settings), scripts))
}

/// Takes `--max-memory SIZE` (or `--max-memory=SIZE`) out of the arguments, wherever it is, and
/// sets the session's memory budget from it (after `LG_MAX_MEMORY`, which it overrides).
fn memory_option(args: Vec<String>) -> Result<Vec<String>, String> {
    lattice_games::memory::limit_from_env()?;
    let mut rest = Vec::with_capacity(args.len());
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        let size = if a == "--max-memory" {
            args.next()
                .ok_or("--max-memory needs a size (4G, 512M, ...)")?
        } else if let Some(size) = a.strip_prefix("--max-memory=") {
            size.to_string()
        } else {
            rest.push(a);
            continue;
        };
        let bytes =
            lattice_games::memory::parse_size(&size).map_err(|e| format!("--max-memory: {e}"))?;
        lattice_games::memory::set_limit(Some(bytes));
    }
    Ok(rest)
}

fn main() -> ExitCode {
    let args: Vec<String> = match memory_option(
        // An argument that is not UTF-8 is read with U+FFFD in place of its bad bytes.
        std::env::args_os()
            .skip(1)
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
    ) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("lg: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
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
