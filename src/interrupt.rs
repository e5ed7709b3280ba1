//! A cooperative interrupt flag. The REPL's Ctrl-C handler raises it; long loops (the evaluator's
//! loops and calls, and long computations in the library) poll [`requested`] and stop cleanly.
//! A computation may also run under a deadline ([`with_deadline`], for user time limits such as
//! `stratify(G, timeout: ...)`), which [`requested`] reports on the same thread only, or be
//! cancelled by another thread ([`with_cancel`], when two routes race for one answer).

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

static FLAG: AtomicBool = AtomicBool::new(false);

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    static CANCEL: RefCell<Vec<Arc<AtomicBool>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` so that [`requested`] is true on this thread once `flag` is raised (by any thread).
/// Tokens nest: any raised token stops `f`.
pub fn with_cancel<T>(flag: Arc<AtomicBool>, f: impl FnOnce() -> T) -> T {
    CANCEL.with(|c| c.borrow_mut().push(flag));
    let out = f();
    CANCEL.with(|c| c.borrow_mut().pop());
    out
}

/// Whether a token of [`with_cancel`] was raised on this thread.
pub fn cancelled() -> bool {
    CANCEL.with(|c| c.borrow().iter().any(|f| f.load(Ordering::Relaxed)))
}

/// Runs `f` with a deadline: after it, [`requested`] is true on this thread until `f` returns.
/// Deadlines nest (the earlier one holds).
pub fn with_deadline<T>(deadline: Instant, f: impl FnOnce() -> T) -> T {
    let previous = DEADLINE.with(|d| d.get());
    let effective = previous.map_or(deadline, |p| p.min(deadline));
    DEADLINE.with(|d| d.set(Some(effective)));
    let out = f();
    DEADLINE.with(|d| d.set(previous));
    out
}

/// This thread's deadline, if it runs under one (the earliest of those nested).
pub fn deadline() -> Option<Instant> {
    DEADLINE.with(|d| d.get())
}

/// What makes [`requested`] true on this thread besides Ctrl-C: its deadline and its cancel
/// tokens, to be passed on (with [`with_inherited`]) to worker threads that compute a part of this
/// thread's work, so that they stop when it would.
#[derive(Clone, Debug, Default)]
pub struct Inherited {
    deadline: Option<Instant>,
    tokens: Vec<Arc<AtomicBool>>,
}

/// This thread's deadline and cancel tokens (see [`Inherited`]).
pub fn inherited() -> Inherited {
    Inherited {
        deadline: DEADLINE.with(|d| d.get()),
        tokens: CANCEL.with(|c| c.borrow().clone()),
    }
}

impl Inherited {
    /// These, and one more token: a worker that stops when its thread would, or when `flag` is
    /// raised.
    pub fn and_cancel(&self, flag: Arc<AtomicBool>) -> Inherited {
        let mut tokens = self.tokens.clone();
        tokens.push(flag);
        Inherited {
            deadline: self.deadline,
            tokens,
        }
    }
}

/// Runs `f` under the deadline and cancel tokens of another thread (see [`inherited`]).
pub fn with_inherited<T>(from: &Inherited, f: impl FnOnce() -> T) -> T {
    let pushed = from.tokens.len();
    CANCEL.with(|c| c.borrow_mut().extend(from.tokens.iter().cloned()));
    let out = match from.deadline {
        Some(t) => with_deadline(t, f),
        None => f(),
    };
    CANCEL.with(|c| {
        let mut c = c.borrow_mut();
        let keep = c.len() - pushed;
        c.truncate(keep);
    });
    out
}

/// Whether the user asked to stop (Ctrl-C), as opposed to a deadline passing.
pub fn user_requested() -> bool {
    FLAG.load(Ordering::Relaxed)
}

/// Ask the running computation to stop.
pub fn request() {
    FLAG.store(true, Ordering::SeqCst);
}

/// Whether a stop was requested since the last [`clear`], or this thread's deadline has passed.
pub fn requested() -> bool {
    FLAG.load(Ordering::Relaxed)
        || DEADLINE.with(|d| d.get().is_some_and(|t| Instant::now() >= t))
        || cancelled()
}

/// Forget any pending request (done before each new REPL entry).
pub fn clear() {
    FLAG.store(false, Ordering::SeqCst);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancel_token_stops_its_own_thread_only() {
        let flag = Arc::new(AtomicBool::new(false));
        let seen = with_cancel(flag.clone(), || {
            let before = requested();
            let other = {
                let flag = flag.clone();
                std::thread::spawn(move || {
                    flag.store(true, Ordering::SeqCst);
                    requested()
                })
                .join()
                .unwrap()
            };
            (before, requested(), other)
        });
        assert_eq!(seen, (false, true, false));
        assert!(!requested(), "the token is dropped with its scope");
    }

    #[test]
    fn a_worker_stops_with_its_own_token_as_well() {
        let flag = Arc::new(AtomicBool::new(false));
        let worker = inherited().and_cancel(flag.clone());
        let before = std::thread::scope(|s| s.spawn(|| with_inherited(&worker, requested)).join());
        flag.store(true, Ordering::SeqCst);
        let after = std::thread::scope(|s| s.spawn(|| with_inherited(&worker, requested)).join());
        assert_eq!((before.ok(), after.ok()), (Some(false), Some(true)));
        assert!(!requested(), "the token stops the worker only");
    }
}
