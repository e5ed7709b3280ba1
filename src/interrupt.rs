//! A cooperative interrupt flag. The REPL's Ctrl-C handler raises it; long loops (the evaluator's
//! loops and calls, and long computations in the library) poll [`requested`] and stop cleanly.

use std::sync::atomic::{AtomicBool, Ordering};

static FLAG: AtomicBool = AtomicBool::new(false);

/// Ask the running computation to stop.
pub fn request() {
    FLAG.store(true, Ordering::SeqCst);
}

/// Whether a stop was requested since the last [`clear`].
pub fn requested() -> bool {
    FLAG.load(Ordering::Relaxed)
}

/// Forget any pending request (done before each new REPL entry).
pub fn clear() {
    FLAG.store(false, Ordering::SeqCst);
}
