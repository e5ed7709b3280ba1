//! Replays the fuzzers' minimized corpus (`fuzz/corpus-min/TARGET/`, kept in the repository) on
//! stable Rust: every input runs through the same check as its fuzz target
//! (`lattice_games::fuzzing`), which panics on a crash or a wrong answer, within a time limit.
//! So CI guards every past finding without cargo-fuzz or nightly.

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

/// The most one input may take (the fuzzers ran with a 20 s per-input limit).
const LIMIT: Duration = Duration::from_secs(60);

fn replay(target: &str, check: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus-min")
        .join(target);
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no corpus in {}", dir.display());
    for path in inputs {
        let data = std::fs::read(&path).expect("a corpus file");
        let (done, finished) = mpsc::channel();
        let name = path.display().to_string();
        // A big stack, as the `lg` binary has: deeply nested input recurses.
        let worker = std::thread::Builder::new()
            .stack_size(512 << 20)
            .spawn(move || {
                let outcome = std::panic::catch_unwind(|| check(&data));
                let _ = done.send(outcome.is_ok());
            })
            .expect("a thread");
        match finished.recv_timeout(LIMIT) {
            Ok(true) => {
                let _ = worker.join();
            }
            Ok(false) => panic!("{target}: {name} fails its check"),
            Err(_) => panic!("{target}: {name} runs past {} s", LIMIT.as_secs()),
        }
    }
}

#[test]
fn parse_eval_corpus() {
    replay("parse_eval", lattice_games::fuzzing::parse_eval);
}

#[test]
fn take_break_corpus() {
    replay("take_break", lattice_games::fuzzing::take_break);
}

#[test]
fn set_algebra_corpus() {
    replay("set_algebra", lattice_games::fuzzing::set_algebra);
}

#[test]
fn stratify_verify_corpus() {
    replay("stratify_verify", lattice_games::fuzzing::stratify_verify);
}
