//! Values longer than a screenful: what the REPL, `lg -e` and `print` show instead of thousands of
//! lines (a game on N^30 has hundreds of moves), and how to see all of it.
//!
//! The printed form is rendered into a buffer that stops at the limit, so deciding costs at most a
//! screenful of formatting whatever the value's size. Sets have their own summary (their cover,
//! or what their pieces are made of; see `set_value`).

use std::fmt::{self, Write};

use super::value::Value;

/// A printed form longer than this many characters is summarized.
pub(crate) const SUMMARY_CHARS: usize = 8_000;
/// A printed form of more than this many lines is summarized.
pub(crate) const SUMMARY_LINES: usize = 60;

/// A `fmt::Write` keeping the first `max` bytes and refusing the rest (so that formatting stops).
struct Bounded {
    text: String,
    max: usize,
}

impl Write for Bounded {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.text.len() + s.len() > self.max {
            return Err(fmt::Error);
        }
        self.text.push_str(s);
        Ok(())
    }
}

/// The printed form of `v` when it fits on a screen, `None` when it runs past it.
pub(crate) fn short_text(v: &impl fmt::Display) -> Option<String> {
    let mut w = Bounded {
        text: String::new(),
        max: SUMMARY_CHARS,
    };
    write!(w, "{v}").ok()?;
    (w.text.lines().count() <= SUMMARY_LINES).then_some(w.text)
}

/// The one-line summary of a value too long to show: what it is, its size, how to see it all.
pub(crate) fn summary(v: &Value) -> String {
    let full = "`print(x)` writes it in full";
    match v {
        Value::RuleSet(r) => format!(
            "<a rule set of {} moves in Z^{}: `print(Γ, full: true)` writes them all, `list(Γ)` lists them>",
            r.len(),
            r.dim()
        ),
        Value::Game(g) => {
            let board = g.board();
            let play = if board.is_normal_play() {
                format!("normal play on N^{}", g.dim())
            } else if board.is_misere() {
                format!("misère play on N^{}", g.dim())
            } else {
                format!(
                    "a board in Z^{} with {} defeated positions",
                    g.dim(),
                    board.defeated().len()
                )
            };
            format!(
                "<a lattice game of {} moves, {play}: `rules(G)` is its rule set, \
                 `print(G, full: true)` writes it in full>",
                g.rules().len()
            )
        }
        Value::List(items) | Value::Tuple(items) | Value::Set(items) => {
            let kind = match v {
                Value::List(_) => "list",
                Value::Tuple(_) => "tuple",
                _ => "set",
            };
            format!(
                "<a {kind} of {} elements, beginning {}: {full}, `x[i]` is one>",
                items.len(),
                beginning(v)
            )
        }
        Value::Str(s) => format!(
            "<a string of {} characters, beginning {}: {full}>",
            s.chars().count(),
            beginning(v)
        ),
        other => format!(
            "<{} longer than a screenful: `print(x, full: true)` writes it in full>",
            super::error::article(other.type_name())
        ),
    }
}

/// The first line of the printed form, cut at 60 characters.
fn beginning(v: &Value) -> String {
    let mut w = Bounded {
        text: String::new(),
        max: 240,
    };
    let _ = write!(w, "{v}");
    let first: String = w
        .text
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(60)
        .collect();
    format!("{first}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_print_whole_and_long_ones_are_summarized() {
        let short = Value::list((0..10i64).map(Value::int).collect());
        assert_eq!(
            short_text(&short).as_deref(),
            Some("[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]")
        );
        let long = Value::list((0..100_000i64).map(Value::int).collect());
        assert_eq!(short_text(&long), None);
        let s = summary(&long);
        assert!(
            s.starts_with("<a list of 100000 elements, beginning [0, 1, 2,"),
            "{s}"
        );
        assert!(s.contains("`print(x)` writes it in full"), "{s}");
    }
}
