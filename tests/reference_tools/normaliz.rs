//! Running Normaliz on a cone and reading the matrices of its `.out` file.
//!
//! Usage: `run(d, input_type, rows, extra_input_lines, flags)` writes the input file
//!
//! ```text
//! amb_space d
//! <input_type> <number of rows>
//! <rows, one a line>
//! <extra input lines, verbatim (e.g. a second matrix, or `grading`)>
//! ```
//!
//! and runs `normaliz <flags> -x=1 cone.in` (one thread: the test machines are shared). Useful
//! flags: `-s` (support hyperplanes and extreme rays, the default computation), `-N` (Hilbert
//! basis). Input types are Normaliz's: `cone` (generators), `inequalities`, `equations`,
//! `cone_and_lattice`, ...
//!
//! The `.out` file lists scalar facts first (`embedding dimension = 4`, `rank = 3`, or
//! `rank = 4 (maximal)`), then, after a line of stars, each result matrix as a header
//! `N <name>:` followed by N rows of integers, for example `4 extreme rays:`,
//! `2 support hyperplanes:`, `1 equations:`, `1 basis elements of maximal subspace:`,
//! `5 Hilbert basis elements:`. Header names are kept with their whitespace collapsed (Normaliz
//! writes `basis elements of generated  lattice` with two spaces).
//!
//! Normaliz's conventions, which a comparison must respect:
//! - for a cone with lineality ("maximal subspace"), the extreme rays are those of the cone modulo
//!   that subspace, each given by *some* representative (not necessarily orthogonal to it);
//! - for a cone that is not full-dimensional, the support hyperplanes are linear forms on the
//!   span, each given by *some* representative modulo the equations (not necessarily in the span);
//! - the equations and the maximal subspace are bases of their spaces in Normaliz's own choice.

use std::collections::HashMap;
use std::process::Command;

/// The matrices and the scalar facts Normaliz reported.
#[derive(Debug, Default)]
pub struct NormalizOutput {
    /// Matrices by their header name (whitespace collapsed), e.g. "extreme rays".
    pub matrices: HashMap<String, Vec<Vec<i64>>>,
    /// The rank of the cone (the dimension of its span).
    pub rank: usize,
    /// The embedding dimension (the ambient space's dimension, `amb_space`).
    pub embedding_dim: usize,
    /// The whole `.out` file.
    pub text: String,
}

impl NormalizOutput {
    /// The matrix with this name, or an empty one.
    pub fn matrix(&self, name: &str) -> Vec<Vec<i64>> {
        self.matrices.get(name).cloned().unwrap_or_default()
    }

    /// The extreme rays (modulo the maximal subspace, when there is one).
    pub fn extreme_rays(&self) -> Vec<Vec<i64>> {
        self.matrix("extreme rays")
    }

    /// The support hyperplanes (inner normals; modulo the equations, when there are some).
    pub fn support_hyperplanes(&self) -> Vec<Vec<i64>> {
        self.matrix("support hyperplanes")
    }

    /// A basis of the linear forms vanishing on the cone.
    pub fn equations(&self) -> Vec<Vec<i64>> {
        self.matrix("equations")
    }

    /// A basis of the maximal subspace (the lineality space) of the cone.
    pub fn maximal_subspace(&self) -> Vec<Vec<i64>> {
        self.matrix("basis elements of maximal subspace")
    }

    /// The Hilbert series (flag `-q`, input with a `grading`): the block
    ///
    /// ```text
    /// Hilbert series:
    /// 1 1 1 -1
    /// denominator with 2 factors:
    /// 1:1  3:1
    ///
    /// shift = 1
    /// ```
    ///
    /// read as t^shift (1 + t + t^2 − t^3) / ((1 − t)(1 − t^3)); the shift line is absent when
    /// it is 0. Run with `NoGradingDenom` in the input, or Normaliz divides the degrees by the
    /// gcd of the grading on the lattice.
    pub fn hilbert_series(&self) -> Option<NormalizSeries> {
        let lines: Vec<&str> = self.text.lines().map(str::trim).collect();
        let at = lines.iter().position(|l| *l == "Hilbert series:")?;
        let numerator = lines
            .get(at + 1)?
            .split_whitespace()
            .map(|x| x.parse().ok())
            .collect::<Option<Vec<i64>>>()?;
        if !lines.get(at + 2)?.starts_with("denominator with") {
            return None;
        }
        let denominator = lines
            .get(at + 3)?
            .split_whitespace()
            .map(|f| {
                let (k, m) = f.split_once(':')?;
                Some((k.parse().ok()?, m.parse().ok()?))
            })
            .collect::<Option<Vec<(i64, u32)>>>()?;
        let shift = lines
            .iter()
            .skip(at)
            .take_while(|l| !l.starts_with("degree of Hilbert Series"))
            .find_map(|l| l.strip_prefix("shift = ")?.trim().parse().ok())
            .unwrap_or(0);
        Some(NormalizSeries {
            numerator,
            denominator,
            shift,
        })
    }

    /// The Hilbert basis. Normaliz lists it whole ("Hilbert basis elements"), or, when it found a
    /// grading, split into the degree-1 elements ("lattice points in polytope (Hilbert basis
    /// elements of degree 1)") and the "further Hilbert basis elements of higher degree".
    pub fn hilbert_basis(&self) -> Vec<Vec<i64>> {
        let mut all = self.matrix("Hilbert basis elements");
        all.extend(self.matrix("lattice points in polytope (Hilbert basis elements of degree 1)"));
        all.extend(self.matrix("further Hilbert basis elements of higher degree"));
        all
    }
}

/// Normaliz's Hilbert series t^shift N(t) / Π (1 − t^k)^m, N's coefficients from t^0 up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NormalizSeries {
    /// N's coefficients.
    pub numerator: Vec<i64>,
    /// The factors (k, m) of the denominator.
    pub denominator: Vec<(i64, u32)>,
    /// The power of t in front.
    pub shift: i64,
}

/// The text of a Normaliz input file (see the module documentation).
pub fn input_file(
    amb_space: usize,
    input_type: &str,
    rows: &[Vec<i64>],
    extra_input_lines: &[&str],
) -> String {
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
    text
}

/// Runs `normaliz FLAGS -x=1` on the input `amb_space d`, `<input_type> <rows>` and the extra
/// lines, and parses its `.out` file; `None` when Normaliz cannot be run or fails (the failure is
/// printed with the input). The scratch directory is removed after a successful run.
pub fn run(
    amb_space: usize,
    input_type: &str,
    rows: &[Vec<i64>],
    extra_input_lines: &[&str],
    flags: &[&str],
) -> Option<NormalizOutput> {
    let dir = super::scratch("normaliz");
    let text = input_file(amb_space, input_type, rows, extra_input_lines);
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
    parse(&report)
}

/// The first number after `key = ` on a line starting with `key`.
fn scalar(line: &str, key: &str) -> Option<usize> {
    line.strip_prefix(key)?
        .trim_start()
        .strip_prefix('=')?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Parses a Normaliz `.out` file; `None` when a matrix is cut short or has a non-integer entry
/// (or one beyond i64).
pub fn parse(report: &str) -> Option<NormalizOutput> {
    let mut out = NormalizOutput {
        text: report.to_string(),
        ..NormalizOutput::default()
    };
    let lines: Vec<&str> = report.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        if let Some(r) = scalar(line, "rank") {
            out.rank = r;
        }
        if let Some(e) = scalar(line, "embedding dimension") {
            out.embedding_dim = e;
        }
        let header = line
            .strip_suffix(':')
            .and_then(|h| h.split_once(' '))
            .and_then(|(count, name)| Some((count.parse::<usize>().ok()?, name)));
        if let Some((n, name)) = header {
            let rows = lines
                .get(i + 1..i + 1 + n)?
                .iter()
                .map(|l| {
                    l.split_whitespace()
                        .map(|x| x.parse::<i64>().ok())
                        .collect::<Option<Vec<i64>>>()
                })
                .collect::<Option<Vec<Vec<i64>>>>()?;
            out.matrices
                .insert(name.split_whitespace().collect::<Vec<_>>().join(" "), rows);
            i += n;
        }
        i += 1;
    }
    Some(out)
}
