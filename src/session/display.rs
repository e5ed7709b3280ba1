//! The displays of a value, written once for every front end: the plain text a terminal shows
//! (a value beyond a screenful summarized in one line), and where it helps the richer forms a
//! notebook shows beside it, LaTeX in the papers' notation (rule sets, games, 2-D solutions as
//! tables, stratifications, generating functions, misère quotients) and SVG for pictures.

use crate::eval::latex::latex_form;
use crate::eval::Value;

/// The longest LaTeX form offered (beyond it MathJax is slow and the text summary is better).
const MAX_LATEX_CHARS: usize = 20_000;

/// The forms of one value, by MIME type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Display {
    /// `text/plain`: what the REPL prints.
    pub text: String,
    /// `text/latex`, delimited as display math (`$$ … $$`).
    pub latex: Option<String>,
    /// `image/svg+xml`.
    pub svg: Option<String>,
}

impl Display {
    /// The forms as (MIME type, content) pairs, plain text first.
    pub fn bundle(&self) -> Vec<(&'static str, &str)> {
        let mut forms = vec![("text/plain", self.text.as_str())];
        if let Some(l) = &self.latex {
            forms.push(("text/latex", l));
        }
        if let Some(s) = &self.svg {
            forms.push(("image/svg+xml", s));
        }
        forms
    }
}

/// The displays of `v`. A LaTeX form longer than [`MAX_LATEX_CHARS`] is left out (the text
/// then summarizes the value).
pub fn display(v: &Value) -> Display {
    let text = v.display_text();
    let svg = match v {
        Value::Picture(p) => Some(p.slice().to_svg()),
        _ => None,
    };
    let latex = latex_form(v)
        .ok()
        .flatten()
        .filter(|l| l.len() <= MAX_LATEX_CHARS)
        .map(|l| format!("$$ {l} $$"));
    Display { text, latex, svg }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{Interpreter, Outcome};

    fn value_of(entry: &str) -> Value {
        let mut interp = Interpreter::with_output(Box::new(std::io::sink()));
        match interp.run("<test>", entry).expect("runs").pop() {
            Some(Outcome::Value(v)) => v,
            other => panic!("no value: {other:?}"),
        }
    }

    #[test]
    fn a_rule_set_has_its_matrix_and_a_picture_its_svg() {
        let d = display(&value_of("ruleset([1 0 -1; 0 1 1])"));
        assert_eq!(
            d.latex.as_deref(),
            Some("$$ \\begin{pmatrix} 1 & 0 & -1 \\\\ 0 & 1 & 1 \\end{pmatrix} $$")
        );
        assert!(d.svg.is_none());
        let p = display(&value_of("plot(solve(game(nim(2), misere(nim(2))), 4))"));
        assert!(p.svg.as_deref().is_some_and(|s| s.starts_with("<svg")));
        assert!(p.text.contains('●'), "{}", p.text);
        assert_eq!(p.bundle().len(), 2);
    }

    #[test]
    fn a_quotient_has_its_presentation_in_latex() {
        let d = display(&value_of("misere_quotient(\"0.75\", 12)"));
        let latex = d.latex.expect("a LaTeX form");
        assert!(
            latex.contains(
                "\\langle a, b, c \\mid a^{2} = 1, bc = ab, c^{2} = b^{2}, b^{3} = b \\rangle"
            ),
            "{latex}"
        );
        assert!(latex.contains("\\mathcal{P} = \\{a, b^{2}\\}"), "{latex}");
        assert!(!latex.contains("final"), "{latex}");
        let d = display(&value_of("misere_quotient(\"0.75\", 40)"));
        let latex = d.latex.expect("a LaTeX form");
        assert!(
            latex.contains("\\text{final: } \\Phi(h + 2) = \\Phi(h) \\text{ for every } h \\ge 8"),
            "{latex}"
        );
    }

    #[test]
    fn a_summarized_value_has_no_latex() {
        let d = display(&value_of("octal(\"0.77\", 30, play: \"misere\")"));
        assert!(d.text.starts_with('<'), "{}", d.text);
        assert!(d.latex.is_none());
    }
}
