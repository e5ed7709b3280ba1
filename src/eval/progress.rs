//! Live progress of long builtins on a terminal: a spinner that appears once a computation has
//! run for a second (so quick answers print nothing extra), shows a phase and counts, and is
//! cleared when the computation ends. It is drawn from a thread of its own, so its clock runs
//! even through a long step that reports nothing new. Nothing is drawn when stderr is not a
//! terminal, unless a front end set a [`ProgressSink`] (a notebook kernel shows the line as one
//! display it updates in place).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Where progress lines go instead of a terminal: called with each new line (about twice a
/// second, after the first second) and with `None` when the computation ends.
pub type ProgressSink = Arc<dyn Fn(Option<&str>) + Send + Sync>;

static SINK: OnceLock<ProgressSink> = OnceLock::new();

/// Sends the progress of every long computation of this process to `sink` (once per process;
/// a later call is ignored).
pub fn set_sink(sink: ProgressSink) {
    let _ = SINK.set(sink);
}

/// A spinner line on stderr, shown after the first second.
pub struct Spinner {
    tty: bool,
    message: Arc<Mutex<Option<String>>>,
    done: Arc<AtomicBool>,
    drawer: Option<JoinHandle<()>>,
}

impl Spinner {
    /// Starts the clock (nothing is drawn yet).
    pub fn new() -> Spinner {
        let tty = SINK.get().is_some() || std::io::IsTerminal::is_terminal(&std::io::stderr());
        Spinner {
            tty,
            message: Arc::new(Mutex::new(None)),
            done: Arc::new(AtomicBool::new(false)),
            drawer: None,
        }
    }

    /// Shows `message` (after the first second, on a terminal).
    pub fn update(&mut self, message: impl FnOnce() -> String) {
        if !self.tty {
            return;
        }
        if let Ok(mut m) = self.message.lock() {
            *m = Some(message());
        }
        if self.drawer.is_none() {
            let message = Arc::clone(&self.message);
            let done = Arc::clone(&self.done);
            let start = Instant::now();
            self.drawer = Some(std::thread::spawn(move || draw(start, &message, &done)));
        }
    }
}

/// A handle that sets a spinner's message from any thread (for work spread over a thread pool).
#[derive(Clone)]
pub struct SharedMessage(Option<Arc<Mutex<Option<String>>>>);

impl SharedMessage {
    /// Shows `message` in place of the last one (computed only when a spinner is drawn).
    pub fn set(&self, message: impl FnOnce() -> String) {
        if let Some(m) = &self.0 {
            if let Ok(mut m) = m.lock() {
                *m = Some(message());
            }
        }
    }
}

impl Spinner {
    /// Shows `first`, and returns a handle through which other threads update the message.
    pub fn shared(&mut self, first: impl FnOnce() -> String) -> SharedMessage {
        self.update(first);
        SharedMessage(self.tty.then(|| Arc::clone(&self.message)))
    }
}

/// The latest message set (empty before the first).
fn latest(message: &Mutex<Option<String>>) -> String {
    message
        .lock()
        .ok()
        .and_then(|m| m.clone())
        .unwrap_or_default()
}

/// The drawing thread: waits a second, then shows the latest message until told to stop.
fn draw(start: Instant, message: &Mutex<Option<String>>, done: &AtomicBool) {
    if let Some(sink) = SINK.get() {
        return draw_to(sink, start, message, done);
    }
    let mut bar: Option<indicatif::ProgressBar> = None;
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(100));
        if start.elapsed() < Duration::from_secs(1) {
            continue;
        }
        let text = latest(message);
        let b = bar.get_or_insert_with(|| {
            let b = indicatif::ProgressBar::new_spinner().with_elapsed(start.elapsed());
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "  {spinner} {msg}, {elapsed} (Ctrl-C stops)",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            b
        });
        b.set_message(text);
        b.tick();
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

/// The drawing thread with a [`ProgressSink`]: after the first second, the latest message with
/// the time elapsed every half second, and `None` at the end if anything was shown.
fn draw_to(
    sink: &ProgressSink,
    start: Instant,
    message: &Mutex<Option<String>>,
    done: &AtomicBool,
) {
    let mut shown = false;
    let mut last = Instant::now();
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        if start.elapsed() < Duration::from_secs(1)
            || (shown && last.elapsed() < Duration::from_millis(500))
        {
            continue;
        }
        let text = latest(message);
        sink(Some(&format!(
            "{text}, {}s (interrupt stops)",
            start.elapsed().as_secs()
        )));
        shown = true;
        last = Instant::now();
    }
    if shown {
        sink(None);
    }
}

/// A bar for work of known size (`done` of `total`): drawn with indicatif on a terminal after
/// the first second, from `template` (whose `{bar}`, `{pos}`, `{len}`… indicatif fills), or sent
/// to the [`ProgressSink`] as a line `label done/total (p%)`. Cleared when dropped.
pub struct Bar {
    start: Instant,
    tty: bool,
    label: &'static str,
    template: &'static str,
    bar: Option<indicatif::ProgressBar>,
    line: Option<Spinner>,
}

impl Bar {
    /// Starts the clock (nothing is drawn yet).
    pub fn new(label: &'static str, template: &'static str) -> Bar {
        let sink = SINK.get().is_some();
        Bar {
            start: Instant::now(),
            tty: !sink && std::io::IsTerminal::is_terminal(&std::io::stderr()),
            label,
            template,
            bar: None,
            line: sink.then(Spinner::new),
        }
    }

    /// Reports `done` of `total`.
    pub fn set(&mut self, done: u64, total: u64) {
        if let Some(line) = self.line.as_mut() {
            let label = self.label;
            line.update(|| {
                let percent = (done as u128 * 100) / (total.max(1) as u128);
                format!("{label} {done}/{total} ({percent}%)")
            });
            return;
        }
        if !self.tty || self.start.elapsed().as_secs() < 1 {
            return;
        }
        let template = self.template;
        let b = self.bar.get_or_insert_with(|| {
            let b = indicatif::ProgressBar::new(total);
            b.set_style(
                indicatif::ProgressStyle::with_template(template)
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            b
        });
        b.set_length(total);
        b.set_position(done);
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

impl Default for Spinner {
    fn default() -> Self {
        Spinner::new()
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(h) = self.drawer.take() {
            let _ = h.join();
        }
    }
}
