//! Live progress of long builtins on a terminal: a spinner that appears once a computation has
//! run for a second (so quick answers print nothing extra), shows a phase and counts, and is
//! cleared when the computation ends. Nothing is drawn when stderr is not a terminal.

use std::time::{Duration, Instant};

/// A spinner line on stderr, shown after the first second.
pub struct Spinner {
    start: Instant,
    tty: bool,
    bar: Option<indicatif::ProgressBar>,
}

impl Spinner {
    /// Starts the clock (nothing is drawn yet).
    pub fn new() -> Spinner {
        Spinner {
            start: Instant::now(),
            tty: std::io::IsTerminal::is_terminal(&std::io::stderr()),
            bar: None,
        }
    }

    /// Shows `message` (after the first second, on a terminal).
    pub fn update(&mut self, message: impl FnOnce() -> String) {
        if !self.tty || self.start.elapsed() < Duration::from_secs(1) {
            return;
        }
        let bar = self.bar.get_or_insert_with(|| {
            let b = indicatif::ProgressBar::new_spinner();
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "  {spinner} {msg}, {elapsed} (Ctrl-C stops)",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            b
        });
        bar.set_message(message());
        bar.tick();
    }
}

impl Default for Spinner {
    fn default() -> Self {
        Spinner::new()
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}
