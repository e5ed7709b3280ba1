//! Running Normaliz on a cone and reading the matrices of its `.out` file.
//!
//! Normaliz writes each result as a header `N <name>:` followed by N rows of integers (for
//! example `4 extreme rays:`, `2 support hyperplanes:`, `1 equations:`, `1 basis elements of
//! maximal subspace:`, `5 Hilbert basis elements:`), and scalar facts such as `rank = 3` above them.

use std::collections::HashMap;
use std::process::Command;

/// The matrices and the rank Normaliz reported.
#[derive(Debug, Default)]
pub struct NormalizOutput {
    /// Matrices by their header name, e.g. "extreme rays"; absent ones are empty.
    pub matrices: HashMap<String, Vec<Vec<i64>>>,
    /// The rank of the cone (the dimension of its span).
    pub rank: usize,
}

impl NormalizOutput {
    /// The Hilbert basis. Normaliz lists it whole ("Hilbert basis elements"), or, when it found a
    /// grading, split into the degree-1 elements ("lattice points in polytope (Hilbert basis
    /// elements of degree 1)") and the "further Hilbert basis elements of higher degree".
    pub fn hilbert_basis(&self) -> Vec<Vec<i64>> {
        let mut all = self.matrix("Hilbert basis elements");
        all.extend(self.matrix("lattice points in polytope (Hilbert basis elements of degree 1)"));
        all.extend(self.matrix("further Hilbert basis elements of higher degree"));
        all
    }

    /// The matrix with this name, or an empty one.
    pub fn matrix(&self, name: &str) -> Vec<Vec<i64>> {
        self.matrices.get(name).cloned().unwrap_or_default()
    }
}

/// Runs `normaliz FLAGS` on the input `amb_space d`, `<input_type> <rows>` and extra lines;
/// `None` when Normaliz is not installed or fails.
pub fn run(
    amb_space: usize,
    input_type: &str,
    rows: &[Vec<i64>],
    extra_input_lines: &[&str],
    flags: &[&str],
) -> Option<NormalizOutput> {
    let dir = super::scratch("normaliz");
    let mut text = format!("amb_space {amb_space}\n{input_type} {}\n", rows.len());
    for r in rows {
        let row: Vec<String> = r.iter().map(i64::to_string).collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    for line in extra_input_lines {
        text.push_str(line);
        text.push('\n');
    }
    let input = dir.join("cone.in");
    std::fs::write(&input, &text).ok()?;
    let out = Command::new("normaliz")
        .args(flags)
        .arg("-x=1")
        .arg(&input)
        .output()
        .ok()?;
    if !out.status.success() {
        eprintln!(
            "normaliz failed on\n{text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        return None;
    }
    let report = std::fs::read_to_string(dir.join("cone.out")).ok()?;
    let _ = std::fs::remove_dir_all(&dir);
    Some(parse(&report))
}

/// Parses a Normaliz `.out` file.
pub fn parse(report: &str) -> NormalizOutput {
    let mut out = NormalizOutput::default();
    let lines: Vec<&str> = report.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        if let Some(rest) = line.strip_prefix("rank = ") {
            out.rank = rest
                .split_whitespace()
                .next()
                .and_then(|r| r.parse().ok())
                .unwrap_or(0);
        }
        if let Some(header) = line.strip_suffix(':') {
            if let Some((count, name)) = header.split_once(' ') {
                if let Ok(n) = count.parse::<usize>() {
                    let rows: Vec<Vec<i64>> = lines[i + 1..i + 1 + n]
                        .iter()
                        .map(|l| {
                            l.split_whitespace()
                                .map(|x| x.parse().expect("an integer entry"))
                                .collect()
                        })
                        .collect();
                    out.matrices
                        .insert(name.split_whitespace().collect::<Vec<_>>().join(" "), rows);
                    i += n;
                }
            }
        }
        i += 1;
    }
    out
}
