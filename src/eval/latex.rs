//! LaTeX forms of values in the papers' notation, written once for the `latex` builtin and for the
//! notebook's `text/latex` displays: a rule set as the matrix of its moves ([GM09] Example 2.5),
//! a game as Γ and the board Λ ∖ D, a 2-D solution as a table of its region, a stratification as
//! ⊎ (F_i + A_i) ([GM11] Definition 4.1), rational functions, and a misère quotient's
//! presentation with its P-portion ([Guo11] §8).

use crate::algebra::{AlgebraError, Cone, Polyhedron, Vector};
use crate::game::solver::{Outcome, Solution};
use crate::game::LatticeGame;

use super::value::Value;

/// The most cells (or P-positions) a solution's LaTeX form writes.
pub const MAX_CELLS: usize = 4096;

/// Why a value has no LaTeX form although its kind has one.
#[derive(Debug)]
pub enum LatexError {
    /// A solution with this many cells or P-positions to write (more than [`MAX_CELLS`]).
    TooLarge(usize),
    /// The empty set of Z^d, which has no pieces to write.
    Empty(usize),
    /// The set's stratification could not be computed.
    Algebra(AlgebraError),
}

/// The LaTeX form of `v`, or `None` when its kind has none.
pub fn latex_form(v: &Value) -> Result<Option<String>, LatexError> {
    Ok(Some(match v {
        Value::RuleSet(r) => columns(r.moves()),
        Value::Game(g) => game(g),
        Value::Solution(s) => solution(s)?,
        Value::ShortGenfunc(g) => g.f.written().latex(&g.names),
        Value::Genfunc(g) => g.f.latex(&g.names),
        Value::Quotient(q) => q.latex(),
        Value::Stratification(s) => stratification(&s.to_string()),
        Value::StratifiedSet(s) => match s.stratification() {
            Ok(Some(strat)) => stratification(&strat.to_string()),
            Ok(None) => return Err(LatexError::Empty(s.dim())),
            Err(e) => return Err(LatexError::Algebra(e)),
        },
        _ => return Ok(None),
    }))
}

/// A stratification's printed form with the papers' symbols.
fn stratification(text: &str) -> String {
    text.replace('{', "\\{")
        .replace('}', "\\}")
        .replace('ℕ', "\\mathbb{N}")
        .replace('⊎', "\\uplus")
}

/// The moves as the columns of a LaTeX matrix, as the papers print rule sets.
fn columns(columns: &[Vector]) -> String {
    let d = columns.first().map_or(0, |c| c.dim());
    let rows: Vec<String> = (0..d)
        .map(|i| {
            columns
                .iter()
                .map(|c| c.0[i].to_string())
                .collect::<Vec<_>>()
                .join(" & ")
        })
        .collect();
    format!(
        "\\begin{{pmatrix}} {} \\end{{pmatrix}}",
        rows.join(" \\\\ ")
    )
}

fn point(p: &[i64]) -> String {
    let xs: Vec<String> = p.iter().map(|x| x.to_string()).collect();
    format!("({})", xs.join(", "))
}

/// A game as [GM09] writes one: Γ as a matrix and the board Λ ∖ D.
fn game(g: &LatticeGame) -> String {
    let d = g.dim();
    let b = g.board();
    let lattice = match b.polyhedron() {
        Polyhedron::Cone(Cone::Orthant(_)) => format!("\\mathbb{{N}}^{{{d}}}"),
        _ => format!("\\Pi \\cap \\mathbb{{Z}}^{{{d}}}"),
    };
    let board = if b.is_normal_play() {
        lattice
    } else if b.is_misere() {
        format!("{lattice} \\setminus \\{{0\\}}")
    } else {
        let gens: Vec<String> = b.defeated().iter().map(|v| v.to_string()).collect();
        format!(
            "{lattice} \\setminus D, \\quad D = \\text{{the }}\\Gamma\\text{{-order ideal of }} \\{{{}\\}}",
            gens.join(", ")
        )
    };
    format!(
        "\\Gamma = {}, \\quad B = {board}",
        columns(g.rules().moves())
    )
}

/// A solution: in two dimensions a table of its region (● for P, · for N, × defeated), as the
/// figures of the papers; otherwise the set of its P-positions.
fn solution(s: &Solution) -> Result<String, LatexError> {
    if s.game().dim() == 2 {
        let Some((lo, hi)) = s.bounding_box() else {
            return Ok("\\emptyset".to_string());
        };
        let (w, h) = ((hi[0] - lo[0] + 1) as usize, (hi[1] - lo[1] + 1) as usize);
        if w.saturating_mul(h) > MAX_CELLS {
            return Err(LatexError::TooLarge(w.saturating_mul(h)));
        }
        let mut rows = Vec::new();
        for y in (lo[1]..=hi[1]).rev() {
            let mut cells = vec![y.to_string()];
            for x in lo[0]..=hi[0] {
                cells.push(
                    match s.outcome(&[x, y]) {
                        Some(Outcome::P) => "\\bullet",
                        Some(Outcome::N) => "\\cdot",
                        Some(Outcome::Defeated) => "\\times",
                        _ => "",
                    }
                    .to_string(),
                );
            }
            rows.push(cells.join(" & "));
        }
        let xs: Vec<String> = (lo[0]..=hi[0]).map(|x| x.to_string()).collect();
        return Ok(format!(
            "\\begin{{array}}{{r|{}}} {} \\\\ \\hline x_2 / x_1 & {} \\end{{array}}",
            "c".repeat(w),
            rows.join(" \\\\ "),
            xs.join(" & ")
        ));
    }
    let mut points = Vec::new();
    s.for_each_p_position(|p| points.push(p.to_vec()));
    if points.len() > MAX_CELLS {
        return Err(LatexError::TooLarge(points.len()));
    }
    points.sort();
    let items: Vec<String> = points.iter().map(|p| point(p)).collect();
    Ok(format!("\\{{{}\\}}", items.join(", ")))
}
