//! A set of lattice points as the language holds it: the exact, compact form of the set algebra
//! (a cover by basic sets {x ∈ c + L : Ax ≥ b}, [GM11] Definition 4.1, which every operation works
//! on, cut into disjoint pieces only when they are needed), with its printed form in the papers'
//! notation (an affine stratification F_1 + A_1 ⊎ ..., [GM09] Definition 8.6) computed only when
//! the value is printed or its pieces are asked for.
//!
//! Results of `∪`, `∩`, `∖` and `complement` stay in this form, so a chain of operations never
//! expands a set into explicit offset lists and reads them back. Every set value knows its
//! dimension, the empty one included.

use std::cell::OnceCell;
use std::fmt;
use std::rc::Rc;

use crate::algebra::{AlgebraError, Stratification, StratifiedSet};

/// How many parallelepiped points printing may enumerate before it shows the basic sets instead.
pub const PRINT_BUDGET: i64 = 200_000;

/// A stratified set with its printed stratification, computed at most once.
pub struct SetValue {
    set: StratifiedSet,
    printed: OnceCell<Printed>,
}

/// The papers' form of a set, or why it has none that is worth printing.
#[derive(Clone)]
pub enum Printed {
    /// An affine stratification (the set is nonempty and contains no line).
    Stratification(Rc<Stratification>),
    /// The empty set.
    Empty,
    /// The set contains a line, or its stratification would be too long to print: the basic sets.
    Basic,
}

impl SetValue {
    /// The set, its printed form still to be computed.
    pub fn new(set: StratifiedSet) -> SetValue {
        SetValue {
            set,
            printed: OnceCell::new(),
        }
    }

    /// A set whose stratification is already known (a certified result of `stratify`, say).
    pub fn with_stratification(set: StratifiedSet, strat: Stratification) -> SetValue {
        let printed = OnceCell::new();
        let _ = printed.set(Printed::Stratification(Rc::new(strat)));
        SetValue { set, printed }
    }

    /// The exact set.
    pub fn set(&self) -> &StratifiedSet {
        &self.set
    }

    /// The printed form, computed within [`PRINT_BUDGET`] on first use and kept, unless the
    /// computation was interrupted (then the basic sets are shown this time, and the next
    /// printing tries again).
    pub fn printed(&self) -> &Printed {
        const INTERRUPTED: &Printed = &Printed::Basic;
        if let Some(p) = self.printed.get() {
            return p;
        }
        let printed = if self.set.is_empty() {
            Printed::Empty
        } else {
            let cut = make_disjoint(&self.set).and_then(|()| {
                let _spinner = stratification_spinner(&self.set);
                self.set.to_stratification_within(PRINT_BUDGET)
            });
            match cut {
                Ok(Some(s)) => Printed::Stratification(Rc::new(s)),
                Ok(None) => Printed::Empty,
                Err(AlgebraError::Interrupted) => return INTERRUPTED,
                Err(_) => Printed::Basic,
            }
        };
        self.printed.get_or_init(|| printed)
    }

    /// The affine stratification of the set, computed without a budget (for `pieces`, `latex`,
    /// `complexity`): `Ok(None)` for the empty set, `NotPointed` when it contains a line.
    pub fn stratification(&self) -> Result<Option<Rc<Stratification>>, AlgebraError> {
        match self.printed() {
            Printed::Stratification(s) => Ok(Some(s.clone())),
            Printed::Empty => Ok(None),
            Printed::Basic => {
                make_disjoint(&self.set)?;
                let _spinner = stratification_spinner(&self.set);
                self.set.to_stratification().map(|s| s.map(Rc::new))
            }
        }
    }
}

impl std::ops::Deref for SetValue {
    type Target = StratifiedSet;
    fn deref(&self) -> &StratifiedSet {
        &self.set
    }
}

impl PartialEq for SetValue {
    fn eq(&self, other: &SetValue) -> bool {
        self.set == other.set
    }
}

impl fmt::Debug for SetValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.set)
    }
}

/// Computes the disjoint pieces of a set (kept in it) under a spinner once that takes a second:
/// what printing, `genfunc`, `count` and `pieces` read, while `∪`, `∩` and `∖` work on covers.
pub fn make_disjoint(set: &StratifiedSet) -> Result<(), AlgebraError> {
    if set.pieces_known() {
        return Ok(());
    }
    let mut spinner = crate::eval::progress::Spinner::new();
    let n = set.cover().len();
    let message =
        spinner.shared(|| format!("cutting {n} overlapping basic sets into disjoint pieces"));
    set.pieces_reporting(&|done, all| {
        message.set(|| {
            format!("cutting {all} overlapping basic sets into disjoint pieces: {done} done")
        })
    })?;
    Ok(())
}

/// A spinner for writing a set's disjoint pieces as modules F + N{a} (shown after a second).
fn stratification_spinner(set: &StratifiedSet) -> crate::eval::progress::Spinner {
    let mut spinner = crate::eval::progress::Spinner::new();
    let n = set.pieces().map_or(0, <[_]>::len);
    spinner.update(|| format!("writing {n} disjoint basic sets as an affine stratification"));
    spinner
}

/// Writes a stratification, one piece per line when it is long (a line ending in ⊎ continues, so
/// the text reads back).
pub fn write_stratification(f: &mut fmt::Formatter<'_>, s: &Stratification) -> fmt::Result {
    let one_line = s.to_string();
    if one_line.chars().count() <= 100 || s.pieces().len() < 2 {
        return write!(f, "{one_line}");
    }
    for (i, w) in s.pieces().iter().enumerate() {
        if i > 0 {
            writeln!(f, " ⊎")?;
        }
        write!(f, "({w})")?;
    }
    Ok(())
}

impl fmt::Display for SetValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.printed() {
            Printed::Empty => write!(f, "{{}}"),
            // One piece prints as its module (a set value needs no `stratification([...])`).
            Printed::Stratification(s) if s.pieces().len() == 1 => write!(f, "{}", s.pieces()[0]),
            Printed::Stratification(s) => write_stratification(f, s),
            // The disjoint pieces when they are known, else the cover (sets that may overlap).
            Printed::Basic => {
                let (sets, join) = match self.set.pieces_known().then(|| self.set.pieces()) {
                    Some(Ok(pieces)) => (pieces, " ⊎ "),
                    _ => (self.set.cover(), " ∪ "),
                };
                for (i, b) in sets.iter().enumerate() {
                    if i > 0 {
                        write!(f, "{join}")?;
                    }
                    write!(f, "{b}")?;
                }
                Ok(())
            }
        }
    }
}
