//! Quotients heap by heap, as MisereSolver extends them: the quotient of the heaps 1..=k is
//! proved for k = 1, 2, … with what was learned at k − 1 kept, until the bound asked, the
//! limits, or a proof that Φ is periodic, after which the quotient is the same for every heap
//! size.
//!
//! **Periodicity.** For a finite code without modifiers whose moves take at most k tokens and
//! leave at most R heaps, suppose the quotient of heaps 1..=N has Φ(h + p) = Φ(h) for
//! n0 ≤ h ≤ N − p, with n0 + 2p ≤ N + 1 and R(n0 + p) + k + R ≤ N + 1 (the test of
//! Siegel's MisereSolver, which counts R as the bit length of the largest digit, so 3 for a digit
//! 7, where this is 2; with n0 replaced by 1 when it is 0). Take m = N + 1. An option of heap m
//! takes j ≤ k tokens and leaves at most R heaps summing to m − j, so its largest heap is at
//! least (m − k)/R ≥ max(n0, 1) + p; lowering that heap by p leaves a heap, of the same image,
//! so gives an option of heap m − p with the same image, and raising the
//! largest heap of an option of m − p by p gives one of m. So heaps m and m − p have the same
//! set of option images, and the candidate Φ(m) = Φ(m − p) passes every check of the proof
//! (positions with a heap m are checked exactly as those with a heap m − p instead). The
//! quotient does not grow, Φ stays periodic, and the argument repeats for m + 1, ….

use std::time::Instant;

use super::{HeapSystem, MisereQuotient, QuotientError, QuotientLimits, QuotientSolver, Trial};

/// One heap bound done.
#[derive(Clone, Debug)]
pub struct HeapStep {
    /// The heap bound k.
    pub heap: usize,
    /// |Q| and |P| of the quotient of heaps 1..=k.
    pub order: usize,
    /// |P|.
    pub p_count: usize,
    /// Seconds spent on this bound.
    pub seconds: f64,
}

/// How a heap-by-heap run ended.
#[derive(Debug)]
pub struct QuotientRun {
    /// The quotient of the largest bound proved (`None` when not even heap 1 was).
    pub quotient: Option<MisereQuotient>,
    /// Each bound proved, in order.
    pub steps: Vec<HeapStep>,
    /// Why the run stopped before the bound asked, if it did (the bound it failed at is in the
    /// error).
    pub stopped: Option<QuotientError>,
}

/// (R, k) of the periodicity test: the most heaps a move leaves and the most tokens it takes;
/// `None` for codes it does not cover.
fn periodicity_data(system: &HeapSystem) -> Option<(usize, usize)> {
    crate::game::periodicity::theorem_data(system.code.as_ref()?).ok()
}

/// The least (n0, p), by p then n0, passing the periodicity test on Φ(0..=n).
pub fn final_period(phi: &[super::Element], parts: usize, taken: usize) -> Option<(usize, usize)> {
    let n = phi.len() - 1;
    for p in 1..=n {
        for n0 in 0..=n {
            // A part lowered by p must stay a heap (≥ 1) in the periodic range.
            let low = n0.max(1);
            if n0 + 2 * p > n + 1 || parts * (low + p) + taken + parts > n + 1 {
                break;
            }
            if (n0..=n - p).all(|h| phi[h] == phi[h + p]) {
                return Some((n0, p));
            }
        }
    }
    None
}

/// Proves the quotients of heaps 1..=k for k = 1..=n (n at most the system's largest heap),
/// calling `on_step` after each. With `stop_when_final`, a proof that Φ is periodic ends the run
/// early, with `final_period` set (see [`MisereQuotient::extend_to`] for larger bounds).
pub fn quotients_by_heap(
    system: &HeapSystem,
    n: usize,
    limits: QuotientLimits,
    stop_when_final: bool,
    on_step: &mut dyn FnMut(&HeapStep),
) -> QuotientRun {
    quotients_by_heap_watched(system, n, limits, stop_when_final, on_step, &mut |_| {})
}

/// [`quotients_by_heap`], calling `on_trial` with each candidate tried for a bound before its
/// quotient is proved (recalibration rounds and candidates learned from outcomes; see [`Trial`]).
pub fn quotients_by_heap_watched(
    system: &HeapSystem,
    n: usize,
    limits: QuotientLimits,
    stop_when_final: bool,
    on_step: &mut dyn FnMut(&HeapStep),
    on_trial: &mut dyn FnMut(&Trial),
) -> QuotientRun {
    let mut solver = QuotientSolver::new(system, limits);
    let periodic = periodicity_data(system);
    let mut run = QuotientRun {
        quotient: None,
        steps: Vec::new(),
        stopped: None,
    };
    for k in 1..=n {
        let start = Instant::now();
        let mut q = match solver.quotient_watched(k, on_trial) {
            Ok(q) => q,
            Err(e) => {
                run.stopped = Some(e.at_heap(k));
                return run;
            }
        };
        let step = HeapStep {
            heap: k,
            order: q.order(),
            p_count: q.p_count(),
            seconds: start.elapsed().as_secs_f64(),
        };
        on_step(&step);
        run.steps.push(step);
        if let Some((parts, taken)) = periodic {
            q.final_period = final_period(&q.heaps, parts, taken);
        }
        if stop_when_final && k < n && q.final_period.is_some() {
            run.quotient = Some(q);
            return run;
        }
        run.quotient = Some(q);
    }
    run
}

impl MisereQuotient {
    /// Extends a final quotient's table of Φ periodically to heaps up to n (the heaps of
    /// `system`); nothing to do for a quotient not proved final.
    pub fn extend_to(&mut self, system: &HeapSystem, n: usize) {
        let Some((n0, p)) = self.final_period else {
            return;
        };
        for h in self.n + 1..=n {
            let image = self.heaps[n0 + (h - n0) % p];
            self.heaps.push(image);
            if !system.options[h].is_empty() {
                self.live.push(h);
            }
            self.options.push(system.options[h].clone());
        }
        self.n = n;
    }
}
