//! Helpers shared by the benchmarks.

use std::process::Command;

/// Whether `normaliz` can be run (when it cannot, benchmarks time only our side).
#[allow(dead_code)]
pub fn normaliz_installed() -> bool {
    Command::new("normaliz")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Runs `f` and returns its value with the peak resident memory during it, in bytes, above the
/// memory resident when it started (Linux: the high-water mark is reset through
/// /proc/self/clear_refs; `None` elsewhere).
#[allow(dead_code)]
pub fn peak_rss_during<T>(f: impl FnOnce() -> T) -> (T, Option<u64>) {
    fn status(field: &str) -> Option<u64> {
        let text = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = text.lines().find(|l| l.starts_with(field))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    }
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let before = status("VmRSS:");
    let value = f();
    let peak = status("VmHWM:");
    let delta = match (reset, before, peak) {
        (true, Some(b), Some(p)) => Some(p.saturating_sub(b)),
        _ => None,
    };
    (value, delta)
}
