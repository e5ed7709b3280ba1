//! Running the field's reference tools (Normaliz, 4ti2) side by side with ours in differential
//! tests. When a tool is missing, a test is skipped with a visible message, except in CI
//! (`CI=true`), where `.ci/run` installs the tools and a missing one is a failure.

#![allow(dead_code)]

pub mod fourti2;
pub mod normaliz;

/// Whether `program` can be run; when it cannot, fails in CI and prints a skip message locally.
pub fn require(program: &str) -> bool {
    let found = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {program}"))
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if found {
        return true;
    }
    if std::env::var("CI").map(|v| v == "true").unwrap_or(false) {
        panic!("`{program}` is not installed, but CI must run the differential tests (.ci/run installs it)");
    }
    eprintln!("SKIPPED: `{program}` is not installed; install it (apt-get install normaliz 4ti2) to run this differential test");
    false
}

/// A small deterministic generator (xorshift64), so differential tests use the same inputs on
/// every run.
pub struct Rng(pub u64);

impl Rng {
    /// An integer in lo..=hi.
    pub fn next(&mut self, lo: i64, hi: i64) -> i64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        lo + (self.0 % (hi - lo + 1) as u64) as i64
    }
}

/// A fresh scratch directory for one run of a tool.
pub fn scratch(name: &str) -> std::path::PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "lg-ref-{}-{}-{}",
        std::process::id(),
        name,
        N.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}
