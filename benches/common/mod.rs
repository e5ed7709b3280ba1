//! Helpers shared by the benchmarks.

use std::process::Command;

/// Whether `normaliz` can be run (when it cannot, benchmarks time only our side).
pub fn normaliz_installed() -> bool {
    Command::new("normaliz")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}
