//! Reading take-and-break codes: every malformed code is refused at its offending character with
//! what was expected there.

use super::{Digit, HeapCode, Modifier, MAX_COUNT};

/// A code that cannot be read, at a 1-based character position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the heap code {code:?} has {what} at character {position}: {expected}")]
pub struct CodeError {
    /// The code as given.
    pub code: String,
    /// What is wrong.
    pub what: String,
    /// What would be right there.
    pub expected: String,
    /// 1-based character position (one past the end for a code cut short).
    pub position: usize,
}

struct Reader<'a> {
    code: &'a str,
    chars: Vec<char>,
    at: usize,
}

impl Reader<'_> {
    fn error(&self, at: usize, what: impl Into<String>, expected: impl Into<String>) -> CodeError {
        CodeError {
            code: self.code.to_string(),
            what: what.into(),
            expected: expected.into(),
            position: at + 1,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("{c:?}"),
            None => "the end of the code".into(),
        }
    }

    /// One digit with its modifier, or `None` when the next character starts no digit.
    fn digit(&mut self) -> Result<Option<Digit>, CodeError> {
        let start = self.at;
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        let (counts, from) = match c {
            '0'..='9' | 'A'..='Z' | 'a'..='z' => {
                self.at += 1;
                (u64::from(c.to_digit(36).expect("a base-36 digit")), None)
            }
            '{' => {
                self.at += 1;
                self.braces()?
            }
            _ => return Ok(None),
        };
        let modifier = match self.peek() {
            Some('!') => Modifier::Distinct,
            Some('?') => Modifier::NotAllEqual,
            Some('=') => Modifier::AllEqual,
            _ => Modifier::Plain,
        };
        if modifier != Modifier::Plain {
            self.at += 1;
        }
        Ok(Some(Digit {
            counts,
            from,
            modifier,
            text: self.chars[start..self.at].iter().collect(),
        }))
    }

    /// The inside of `{…}` after the brace: counts separated by commas, the last possibly `k+`.
    fn braces(&mut self) -> Result<(u64, Option<u32>), CodeError> {
        let mut counts = 0u64;
        let mut from = None;
        loop {
            let start = self.at;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.at += 1;
            }
            if self.at == start {
                return Err(self.error(
                    start,
                    self.found(),
                    "a heap count (a number) inside `{…}`, as in {2,3} or {2+}",
                ));
            }
            let text: String = self.chars[start..self.at].iter().collect();
            let count: u32 = text
                .parse()
                .ok()
                .filter(|&k| k <= MAX_COUNT)
                .ok_or_else(|| {
                    self.error(
                        start,
                        format!("the heap count {text}"),
                        format!("counts up to {MAX_COUNT} can be listed; write {{k+}} for every count from k on"),
                    )
                })?;
            if self.peek() == Some('+') {
                self.at += 1;
                from = Some(from.map_or(count, |f: u32| f.min(count)));
            } else {
                counts |= 1 << count;
            }
            match self.peek() {
                Some(',') => self.at += 1,
                Some('}') => {
                    self.at += 1;
                    return Ok((counts, from));
                }
                _ => {
                    return Err(self.error(
                        self.at,
                        self.found(),
                        "`,` before another count or `}` to close the digit",
                    ))
                }
            }
        }
    }
}

pub(super) fn parse(code: &str) -> Result<HeapCode, CodeError> {
    let text = code.trim();
    let offset = code.chars().take_while(|c| c.is_whitespace()).count();
    let mut r = Reader {
        code,
        chars: text.chars().collect(),
        at: 0,
    };
    let shift = |mut e: CodeError| {
        e.position += offset;
        e
    };
    // Digits before the point: the last is d0, any earlier one adds tokens.
    let mut before = Vec::new();
    while let Some(d) = r.digit().map_err(shift)? {
        before.push((r.at, d));
    }
    if r.peek() != Some('.') {
        let what = if before.is_empty() && r.peek().is_none() {
            "nothing".to_string()
        } else {
            r.found()
        };
        return Err(shift(r.error(
            r.at,
            what,
            "a point after the digit d0, as in \"0.77\" (Kayles) or \"4!.0\" (Grundy's game)",
        )));
    }
    let Some((d0_end, d0)) = before.pop() else {
        return Err(shift(r.error(
            r.at,
            "a point with no digit before it".to_string(),
            "the digit d0 (usually 0) before the point, as in \"0.77\"",
        )));
    };
    // Any nonzero digit before d0 would add tokens.
    let mut start = 0;
    for (end, d) in &before {
        if !d.is_zero() {
            return Err(shift(r.error(
                start,
                format!("the digit {:?} before d0, which adds tokens", d.text),
                "a heap game that adds tokens is not a lattice game: a move must lower a heap's size or split it, so that the positions below a start position are finitely many heap sizes; remove the digits before d0",
            )));
        }
        start = *end;
    }
    let d0_start = d0_end - d0.text.chars().count();
    if d0.allows(0) || d0.allows(1) {
        return Err(shift(r.error(
            d0_start,
            format!("d0 = {:?}, which takes no token and leaves no heap (bit 1) or leaves a heap as it is (bit 2)", d0.text),
            "d0 may only split a heap into two or more heaps: 0, 4 (two heaps), 8 (three), C (two or three), or {2+}",
        )));
    }
    r.at += 1;
    if r.peek().is_none() {
        return Err(shift(r.error(
            r.at,
            "no digits after the point".to_string(),
            "the digits d1 d2 … for taking 1, 2, … tokens, as in \"0.77\" (or \"4.0\" for splitting only)",
        )));
    }
    let mut digits = vec![d0];
    let mut repeat = None;
    loop {
        match r.peek() {
            None => break,
            Some('[') if repeat.is_none() => {
                let open = r.at;
                r.at += 1;
                repeat = Some(digits.len());
                while let Some(d) = r.digit().map_err(shift)? {
                    digits.push(d);
                }
                if r.peek() != Some(']') {
                    return Err(shift(r.error(
                        r.at,
                        r.found(),
                        "a digit or `]` to close the repeating digits",
                    )));
                }
                if digits.len() == repeat.expect("set") {
                    return Err(shift(r.error(
                        open,
                        "`[]` with no digits inside".to_string(),
                        "the digits to repeat forever inside `[…]`, as in \"0.[3]\" (Nim)",
                    )));
                }
                r.at += 1;
                if r.peek().is_some() {
                    return Err(shift(r.error(
                        r.at,
                        r.found(),
                        "the end of the code: `[…]` repeats the final digits, so nothing may follow it",
                    )));
                }
            }
            Some(_) => match r.digit().map_err(shift)? {
                Some(d) => digits.push(d),
                None => {
                    let what = r.found();
                    let expected = if r.peek() == Some(']') {
                        "a digit: `]` closes nothing that is open"
                    } else if matches!(r.peek(), Some('!' | '?' | '=')) {
                        "a digit: a modifier `!`, `?` or `=` follows the digit it restricts"
                    } else {
                        "a digit 0-9 or A-Z, a digit `{…}` of heap counts, or `[…]` to repeat the final digits"
                    };
                    return Err(shift(r.error(r.at, what, expected)));
                }
            },
        }
    }
    Ok(HeapCode {
        digits,
        repeat,
        text: text.to_string(),
    })
}
