//! Quasi-polynomials in n: one polynomial per residue of n modulo a period, as Ehrhart's theorem
//! gives for the lattice points of dilated rational polytopes and as the coefficients of a
//! rational function in one variable with cyclotomic denominators are for large n (the counting
//! function of a set by weight).

use std::fmt;

use num_bigint::BigInt;
use num_integer::Integer as _;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// One polynomial per residue of n modulo the period, coefficients from the constant term up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuasiPolynomial {
    /// The period q (a multiple of the minimal period).
    pub period: usize,
    /// Constituent r (n ≡ r mod q): its coefficients c_0, c_1, ….
    pub constituents: Vec<Vec<BigRational>>,
}

impl QuasiPolynomial {
    /// The value at n.
    pub fn value(&self, n: &BigInt) -> BigRational {
        // A residue in 0..period, so it fits.
        let r = n
            .mod_floor(&BigInt::from(self.period))
            .to_usize()
            .unwrap_or_default();
        let x = BigRational::from(n.clone());
        self.constituents[r]
            .iter()
            .rev()
            .fold(BigRational::zero(), |acc, c| acc * &x + c)
    }

    /// The constituents merged into one polynomial when they all agree (period 1).
    pub fn merged(mut self) -> QuasiPolynomial {
        if self.constituents.iter().all(|c| c == &self.constituents[0]) {
            self.constituents.truncate(1);
            self.period = 1;
        }
        self
    }

    /// The same in LaTeX: a polynomial, or a `cases` environment with one line per residue.
    pub fn latex(&self) -> String {
        let text = |c: &[BigRational]| Shown(c, true).to_string();
        if self.period == 1 {
            return text(&self.constituents[0]);
        }
        let lines: Vec<String> = self
            .constituents
            .iter()
            .enumerate()
            .map(|(r, c)| format!("{} & n \\equiv {r} \\pmod{{{}}}", text(c), self.period))
            .collect();
        format!("\\begin{{cases}} {} \\end{{cases}}", lines.join(" \\\\ "))
    }
}

/// A polynomial in n, as text or LaTeX.
struct Shown<'a>(&'a [BigRational], bool);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (coefficients, latex) = (self.0, self.1);
        let mut first = true;
        for (j, c) in coefficients.iter().enumerate().rev() {
            if c.is_zero() {
                continue;
            }
            let sign = if c.is_negative() { "-" } else { "+" };
            if first {
                if c.is_negative() {
                    write!(f, "-")?;
                }
            } else {
                write!(f, " {sign} ")?;
            }
            first = false;
            let a = c.abs();
            let coefficient = if latex && !a.is_integer() {
                format!("\\frac{{{}}}{{{}}}", a.numer(), a.denom())
            } else {
                a.to_string()
            };
            let power = match (j, latex) {
                (1, _) => "n".to_string(),
                (_, true) => format!("n^{{{j}}}"),
                (_, false) => format!("n^{j}"),
            };
            match (j, a.is_one()) {
                (0, _) => write!(f, "{coefficient}")?,
                (_, true) => write!(f, "{power}")?,
                (_, false) => write!(f, "{coefficient} {power}")?,
            }
        }
        if first {
            write!(f, "0")?;
        }
        Ok(())
    }
}

impl fmt::Display for QuasiPolynomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.period == 1 {
            return write!(f, "{}", Shown(&self.constituents[0], false));
        }
        for (r, c) in self.constituents.iter().enumerate() {
            if r > 0 {
                write!(f, "; ")?;
            }
            write!(f, "n ≡ {r} mod {}: {}", self.period, Shown(c, false))?;
        }
        Ok(())
    }
}
