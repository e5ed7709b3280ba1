//! Inputs built to hurt (issue 32): deep nesting, a million elements, numbers of 10^5 digits,
//! dimension 1000, regions of 10^12 positions, codes with exponentially many options, recursion
//! without end, huge strings, bytes that are not UTF-8, results written where nothing can be
//! written. Each runs as a script under `ulimit -v 4000000` (what a cluster node's limits look
//! like to a sweep) and must end within its time limit with its answer or a diagnostic (exit
//! code 1), never an abort, a signal or a hang; then the same text is typed into the REPL, which
//! must answer the entry after it. The peak memory of each run is printed (`--nocapture`).

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a hostile input must end with.
enum Expect {
    /// Exit code 1 and a diagnostic with this code.
    Diagnostic(&'static str),
    /// Exit code 0 and this in what it prints.
    Prints(&'static str),
}

struct Case {
    name: &'static str,
    text: Vec<u8>,
    expect: Expect,
}

fn case(name: &'static str, text: impl Into<Vec<u8>>, expect: Expect) -> Case {
    Case {
        name,
        text: text.into(),
        expect,
    }
}

fn cases() -> Vec<Case> {
    use Expect::*;
    let digits = format!("1{}", "0".repeat(100_000));
    vec![
        case("open brackets", "(".repeat(100_000), Diagnostic("lg::parse::too_deep")),
        case(
            "closed brackets",
            format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000)),
            Diagnostic("lg::parse::too_deep"),
        ),
        case(
            "a chain of 300 000 operators",
            format!("print(1{})", "+1".repeat(300_000)),
            Diagnostic("lg::parse::too_deep"),
        ),
        case(
            "a million elements",
            "let xs = [i for i in range(1000000)]\nprint(len(xs), sum(xs))\n\
             print(len({(i, i) for i in range(1000000)}))",
            Prints("1000000 499999500000\n1000000"),
        ),
        case(
            "a list doubled 64 times",
            "let xs = [1]\nfor i in range(64) { xs = xs + xs }",
            Diagnostic("lg::eval::memory"),
        ),
        case(
            "a comprehension of 10^10 elements",
            "let xs = [(i, j) for i in range(100000) for j in range(100000)]",
            Diagnostic("lg::eval::memory"),
        ),
        case(
            "range(10^12)",
            "for i in range(10^12) { print(i) }",
            Diagnostic("lg::eval::memory"),
        ),
        case(
            "a number of 10^5 digits",
            format!("let x = {digits}\nprint(x % 7, len(str(x)), (x * x * x) % 7)"),
            Prints("4 100001 1"),
        ),
        case(
            "a number of 10^5 digits raised to itself",
            format!("let x = {digits}\nprint(x^x)"),
            Diagnostic("lg::eval::too_large"),
        ),
        case(
            "a position with 10^5 digits",
            format!("print(outcome(game(nim(2), misere(nim(2))), ({digits}, 3)))"),
            Prints("N"),
        ),
        case(
            "a move with 10^5 digits",
            format!("let R = ruleset([({digits}, 1), (0, 1)])\nlet G = game(R, normal_play(R))"),
            Diagnostic("lg::eval::value"),
        ),
        case(
            "a box with 10^5-digit corners",
            format!("print(solve(game(nim(2), normal_play(nim(2))), ((0, 0), ({digits}, {digits}))))"),
            Diagnostic("lg::eval::too_large"),
        ),
        case(
            "Nim in dimension 1000",
            "let G = game(nim(1000), normal_play(nim(1000)))\n\
             print(len(nim(1000)), outcome(G, vector([1 for i in range(1000)])))",
            Prints("500500 N"),
        ),
        case(
            "stratify in dimension 1000",
            "print(stratify(game(nim(1000), normal_play(nim(1000)))))",
            Diagnostic("lg::eval::too_large"),
        ),
        case(
            "a region of 10^12 positions",
            "print(solve(game(nim(2), normal_play(nim(2))), ((0, 0), (10^6, 10^6))))",
            Diagnostic("lg::eval::too_large"),
        ),
        case(
            "a misère region of 10^12 positions",
            "print(solve(game(nim(2), misere(nim(2))), ((0, 0), (10^6, 10^6))))",
            Diagnostic("lg::eval::too_large"),
        ),
        case(
            "Grundy values of a code with exponentially many options",
            "print(grundy(\"{2+}.0\", 200))",
            Diagnostic("lg::eval::too_large"),
        ),
        case(
            "misère forms of a code with exponentially many options",
            "print(genus(\"{2+}.0\", 200))",
            Diagnostic("lg::eval::too_large"),
        ),
        case(
            "the lattice game of a code with exponentially many options",
            "let G = octal(\"{2+}.0\", 200)",
            Diagnostic("lg::eval::too_large"),
        ),
        case(
            "recursion without end",
            "fn f(n) = g(n + 1)\nfn g(n) = f(n)\nf(0)",
            Diagnostic("lg::eval::recursion"),
        ),
        case(
            "a string literal of 10^7 bytes",
            format!("let s = \"{}\"\nprint(len(s))", "a".repeat(10_000_000)),
            Prints("10000000"),
        ),
        case(
            "a string doubled 64 times",
            "let s = \"ab\"\nfor i in range(64) { s = s + s }",
            Diagnostic("lg::eval::memory"),
        ),
        case(
            "bytes that are not UTF-8",
            b"let x = 1\nprint(\"\xff\xfe(\")\n".to_vec(),
            Diagnostic("lg::parse::encoding"),
        ),
        case(
            "a picture written where no directory is",
            "plot(solve(game(nim(2), normal_play(nim(2))), ((0, 0), (5, 5))), svg: \"/nonexistent/dir/x.svg\")",
            Diagnostic("lg::eval::io"),
        ),
    ]
}

/// How a run ended: exit code (`None` for a signal), stdout, stderr, seconds, peak resident KiB.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    seconds: f64,
    peak_kib: i64,
}

/// The limit on one run; the slowest case takes about 10 s on a loaded 2-core machine.
const LIMIT: Duration = Duration::from_secs(90);

/// Runs `lg ARGS` under `ulimit -v 4000000` with `stdin` as its input, killed after [`LIMIT`].
/// The child is reaped by `wait4` (for its peak memory), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run_limited(args: &[&str], stdin: &[u8]) -> Run {
    let start = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 4000000 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_lg"))
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("LG_MAX_MEMORY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh starts");
    let pid = child.id() as libc::pid_t;
    let mut input = child.stdin.take().expect("stdin");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watchdog = {
        let done = done.clone();
        std::thread::spawn(move || {
            while start.elapsed() < LIMIT {
                if done.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            // SAFETY: pid is our child, not yet reaped (the main thread reaps it below).
            unsafe { libc::kill(pid, libc::SIGKILL) };
        })
    };
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to overwrite.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child with valid pointers; std's Child is not waited on after.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(reaped, pid, "wait4");
    let seconds = start.elapsed().as_secs_f64();
    let _ = watchdog.join();
    let _ = writer.join();
    let stdout = String::from_utf8_lossy(&reader.join().expect("stdout")).into_owned();
    let stderr = String::from_utf8_lossy(&err_reader.join().expect("stderr")).into_owned();
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    if !libc::WIFEXITED(status) {
        assert!(
            libc::WIFSIGNALED(status),
            "neither exited nor signalled: {status}"
        );
    }
    Run {
        code,
        stdout,
        stderr,
        seconds,
        peak_kib: usage.ru_maxrss,
    }
}

fn script_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lg-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(format!("{}.lg", name.replace(' ', "_")))
}

fn check(name: &str, how: &str, run: &Run, expect: &Expect) {
    eprintln!(
        "{how:6} {name:60} exit {:?} in {:5.2} s, peak {:5} MiB",
        run.code,
        run.seconds,
        run.peak_kib / 1024
    );
    let context = || {
        format!(
            "{how} `{name}`: exit {:?} after {:.1} s\nstdout: {}\nstderr: {}",
            run.code,
            run.seconds,
            &run.stdout.chars().take(2000).collect::<String>(),
            &run.stderr.chars().take(2000).collect::<String>()
        )
    };
    assert!(run.code.is_some(), "killed by a signal: {}", context());
    assert!(
        !run.stderr.contains("panicked") && !run.stderr.contains("memory allocation of"),
        "{}",
        context()
    );
    match expect {
        Expect::Diagnostic(code) => {
            let text = format!("{}{}", run.stdout, run.stderr);
            assert!(text.contains(code), "no `{code}`: {}", context());
        }
        Expect::Prints(s) => assert!(run.stdout.contains(s), "no `{s}`: {}", context()),
    }
}

#[test]
fn hostile_scripts_end_with_their_answer_or_a_diagnostic() {
    for c in cases() {
        let path = script_path(c.name);
        std::fs::write(&path, &c.text).expect("write script");
        let run = run_limited(&[path.to_str().expect("a UTF-8 temp path")], b"");
        check(c.name, "script", &run, &c.expect);
        let wanted = match c.expect {
            Expect::Diagnostic(_) => 1,
            Expect::Prints(_) => 0,
        };
        assert_eq!(
            run.code,
            Some(wanted),
            "script `{}`: {}",
            c.name,
            run.stderr
        );
    }
}

#[test]
fn the_repl_survives_hostile_entries() {
    for c in cases() {
        // The entry, then one that must still be answered. An entry left open (the unclosed
        // brackets) is refused as too deep before the next line is read.
        let mut input = c.text.clone();
        input.extend_from_slice(b"\nprint(\"the session goes on\")\n");
        let run = run_limited(&[], &input);
        check(c.name, "repl", &run, &c.expect);
        assert!(
            run.stdout.contains("the session goes on"),
            "repl `{}` did not answer the next entry: {}",
            c.name,
            run.stderr.chars().take(2000).collect::<String>()
        );
    }
}
