//! Running 4ti2's `hilbert` on {x ∈ Z^n : Ax ≥ 0 (or = 0) row by row, x free} and reading its
//! `.hil` file (a header `rows columns`, then the Hilbert basis, one vector a line).

use std::process::Command;

/// A row of the system and its relation.
pub enum Relation {
    /// a·x ≥ 0
    AtLeast,
    /// a·x = 0
    Equal,
}

/// The Hilbert basis of {x ∈ Z^n : rows with their relations, x free}, or `None` when 4ti2 fails.
pub fn hilbert(n: usize, rows: &[(Vec<i64>, Relation)]) -> Option<Vec<Vec<i64>>> {
    let dir = super::scratch("4ti2");
    let project = dir.join("cone");
    let mut mat = format!("{} {n}\n", rows.len());
    let mut rel = format!("1 {}\n", rows.len());
    for (r, relation) in rows {
        mat.push_str(&r.iter().map(i64::to_string).collect::<Vec<_>>().join(" "));
        mat.push('\n');
        rel.push_str(match relation {
            Relation::AtLeast => "> ",
            Relation::Equal => "= ",
        });
    }
    rel.push('\n');
    let sign = format!("1 {n}\n{}\n", vec!["0"; n].join(" "));
    std::fs::write(project.with_extension("mat"), mat).ok()?;
    std::fs::write(project.with_extension("rel"), rel).ok()?;
    std::fs::write(project.with_extension("sign"), sign).ok()?;
    run("4ti2-hilbert", &dir, &project, "hil")
}

/// 4ti2's `groebner` on the d × n matrix whose columns are `columns`: a Gröbner basis of the
/// toric ideal I_A = ⟨x^u − x^v : Au = Av⟩, each binomial x^{w+} − x^{w−} given as w = w+ − w−
/// with leading term x^{w+}. `None` when 4ti2 fails.
pub fn groebner(columns: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
    let d = columns.first()?.len();
    let n = columns.len();
    let dir = super::scratch("4ti2");
    let project = dir.join("toric");
    let mut mat = format!("{d} {n}\n");
    for i in 0..d {
        let row: Vec<String> = columns.iter().map(|c| c[i].to_string()).collect();
        mat.push_str(&row.join(" "));
        mat.push('\n');
    }
    std::fs::write(project.with_extension("mat"), mat).ok()?;
    run("4ti2-groebner", &dir, &project, "gro")
}

/// Runs `program -q project` and reads the matrix file `project.<output>` (a header `rows
/// columns`, then one row a line; `None` for a non-integer entry); the scratch directory is
/// removed after a successful run.
fn run(
    program: &str,
    dir: &std::path::Path,
    project: &std::path::Path,
    output: &str,
) -> Option<Vec<Vec<i64>>> {
    let out = Command::new(program).arg("-q").arg(project).output().ok()?;
    if !out.status.success() {
        eprintln!("{program} failed: {}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    let text = std::fs::read_to_string(project.with_extension(output)).ok()?;
    let _ = std::fs::remove_dir_all(dir);
    let mut lines = text.lines();
    let count: usize = lines.next()?.split_whitespace().next()?.parse().ok()?;
    lines
        .take(count)
        .map(|l| l.split_whitespace().map(|x| x.parse().ok()).collect())
        .collect()
}
