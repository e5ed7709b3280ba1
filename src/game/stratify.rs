//! Finding affine stratifications of the P-positions ([GM11] Definition 4.1, Conjecture 4.5) and
//! certifying them with [`super::verify`]: search, then certify.
//!
//! 1. Squarefree normal play: the theorem gives P = P0 + 2N^d ([Erratum] Theorem 3), verified
//!    anyway.
//! 2. Otherwise, on the board N^d: the P-positions are solved on a weight region ℓ·x ≤ W (closed
//!    under taking options, unlike a box when moves have negative entries) and three guesses are
//!    made from them: eventual periods along the axes ([`periods`]); a cover by pieces
//!    b + N{g_1..g_k} along small lattice directions ([`cover`]), whose pieces follow the
//!    polyhedral regions where a pattern holds; and a pattern modulo 2 that changes across
//!    parallel hyperplanes, the faces near N^d's boundary fitted alike ([`layers`]). The cover
//!    is found on one core while the other fits the third guess's attempts ([`fitting`]). A fourth, a translation that
//!    keeps P from a corner on with its slabs described one dimension lower ([`shift`]), is
//!    checked after the first and the third, before the second.
//!
//! A guess is checked on the whole solved region first (cheap) and only then verified on the
//! whole board (exact, and costly). A position where it fails, of weight w, raises W past 3w/2
//! and the search goes on until the time limit (or the user's weight limit, or the memory
//! budget). When nothing is found, the report says what was tried, what stopped the search, and
//! what the last region showed: a line on which the P-positions have no period ([`evidence`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::algebra::basic_set::BasicSet;
use crate::algebra::{AlgebraError, Cone, Integer, Polyhedron};
use crate::algebra::{Stratification, StratifiedSet, Vector};

use super::solver::{self, Region, Solution, SolveError, SolveOptions};
use super::verify::{first_failure, first_failure_given_outside, verify};
use super::{strategy, LatticeGame};

mod boundaries;
mod classes;
mod cover;
mod evidence;
mod fitting;
mod layers;
mod lookahead;
mod periods;
mod region;
mod shift;

pub use evidence::{AperiodicLine, LateLine};

use cover::Piece;
use fitting::{fit_all, Fitting};
use region::WeightRegion;

/// The user's limits.
#[derive(Clone, Debug)]
pub struct StratifyOptions {
    /// The largest weight ℓ·x of the regions solved while guessing; without it the regions grow
    /// until the time limit (or the memory budget) stops them.
    pub max_weight: Option<i64>,
    /// Stop searching after this long (default [`DEFAULT_TIMEOUT`]; None: no limit). A deadline
    /// the caller runs under (`attempt(.., timeout:)`) holds too; either way the search ends
    /// with what it saw, not with an error.
    pub timeout: Option<Duration>,
    /// Verify the guess (when false, the first guess is returned as a candidate).
    pub certify: bool,
    /// Try a sum of heaps in misère play through its misère quotient first.
    pub quotients: bool,
    /// Guess a translation that keeps P from a corner on ([`shift`]) where the other guesses
    /// of a round fail. Its answers have more pieces than a tree of cuts finds a round or two
    /// later, where one does.
    pub translations: bool,
}

impl Default for StratifyOptions {
    fn default() -> Self {
        StratifyOptions {
            max_weight: None,
            timeout: Some(DEFAULT_TIMEOUT),
            certify: true,
            quotients: true,
            translations: true,
        }
    }
}

/// How long `stratify` searches when no time limit is given.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// What `stratify` found.
#[derive(Clone, Debug)]
pub enum Stratified {
    /// A stratification of P, certified by `verify` (or, with `certify: false`, a candidate).
    Found {
        /// P = W_1 ⊎ ... ⊎ W_r.
        stratification: Stratification,
        /// Whether it was verified on the whole board.
        certified: bool,
        /// How it was found, in words.
        method: String,
    },
    /// Nothing within the limits: what was tried, in words, and what was seen.
    NotFound {
        /// One line per attempt, the limit that stopped the search last.
        tried: Vec<String>,
        /// The longest line of the last solved region on which the P-positions showed no
        /// eventual period, if any.
        line: Option<AperiodicLine>,
        /// Where every line read showed one: the line of the last solved region that turned
        /// periodic latest, when that was past a quarter of its points.
        late: Option<LateLine>,
    },
}

/// What the routes tried so far, and the evidence they saw.
#[derive(Clone, Debug, Default)]
struct Attempts {
    tried: Vec<String>,
    line: Option<AperiodicLine>,
    late: Option<LateLine>,
}

impl Attempts {
    fn push(&mut self, what: String) {
        self.tried.push(what);
    }

    fn extend(&mut self, other: Attempts) {
        self.tried.extend(other.tried);
        if other.line.is_some() || other.late.is_some() {
            self.line = other.line;
            self.late = other.late;
        }
    }

    /// The "not found" they amount to; the evidence line, if any (an aperiodic one, else one
    /// that turned periodic late), is also named last but one.
    fn not_found(&self) -> Stratified {
        let mut tried = self.tried.clone();
        let evidence = self
            .line
            .as_ref()
            .map(ToString::to_string)
            .or_else(|| self.late.as_ref().map(ToString::to_string));
        if let Some(evidence) = evidence {
            let at = tried.len().saturating_sub(1);
            tried.insert(at, format!("evidence: {evidence}"));
        }
        Stratified::NotFound {
            tried,
            line: self.line.clone(),
            late: self.late.clone(),
        }
    }
}

/// The axis periods whose preperiod is at most a quarter of the axis' reach in the region: they
/// cut the region into slabs (and only with all of them is the periodic guess tried).
fn short_preperiods(
    axis: &[Option<(i64, i64)>],
    ell: &[i64],
    bound: i64,
) -> Vec<Option<(i64, i64)>> {
    axis.iter()
        .zip(ell)
        .map(|(a, l)| a.filter(|(t, _)| 4 * t <= bound / l.max(&1)))
        .collect()
}

/// The union of the pieces, as a set.
fn cover_set(d: usize, pieces: &[Piece]) -> Result<StratifiedSet, AlgebraError> {
    let mut out = StratifiedSet::empty(d);
    for piece in pieces {
        let gens: Vec<Vector> = piece
            .generators
            .iter()
            .map(|g| Vector::from_i64s(g))
            .collect();
        let basic = BasicSet::simplicial(&Vector::from_i64s(&piece.offset), &gens);
        out = out.union(&StratifiedSet::from_basic(basic)?)?;
    }
    Ok(out)
}

/// Searches for a stratification of the P-positions and certifies it (see the module
/// documentation). `progress` is told what is being tried. The search ends at the earlier of
/// its own time limit and the deadline the caller runs under, with a "not found" that says what
/// it saw.
pub fn stratify(
    game: &LatticeGame,
    options: &StratifyOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Stratified, SolveError> {
    let start = Instant::now();
    let mut tried = Attempts::default();
    let own = options.timeout.map(|t| start + t);
    let end = match (own, crate::interrupt::deadline()) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    // The time limit interrupts a running solve or verification too, through the interrupt poll.
    let result = match own {
        Some(deadline) => crate::interrupt::with_deadline(deadline, || {
            search(game, options, progress, &mut tried, start, end)
        }),
        None => search(game, options, progress, &mut tried, start, end),
    };
    match result {
        Err(SolveError::Interrupted) | Err(SolveError::Algebra(AlgebraError::Interrupted))
            if !crate::interrupt::user_requested() && end.is_some_and(|e| Instant::now() >= e) =>
        {
            tried.push(format!(
                "stopped at the time limit, after {:.1} s",
                start.elapsed().as_secs_f64()
            ));
            Ok(tried.not_found())
        }
        other => other,
    }
}

/// The most pieces a cover guess may have before it is given up (patterns such as parities
/// switched across slanted hyperplanes need a piece per offset; the layered guess takes them).
const MAX_COVER_PIECES: usize = 400;

/// The most points of the base box of a guess of periods along the axes (its offsets, in P and
/// outside): a guess of 487,000 spent the 4 s left of a 10-s game in building its set (generalized
/// misère play in d = 5, seed 6061, item 36 at weight 361, preperiods (6, 31, 15, 29, 3)), which
/// `verify` would then check piece by piece.
const MAX_PERIODIC_BOX: u64 = 100_000;

/// The most modules (offsets, in P and outside) of a translation's guess ([`shift`]), and the
/// longest a round spends finding it.
const MAX_SHIFT_MODULES: usize = 20_000;
const SHIFT_TIME: Duration = Duration::from_secs(2);

/// The most positions a translation's guess reads ([`shift`]).
const SHIFT_POSITIONS: u64 = 2_000_000;

/// The most type vectors (counts up to their heap's index and period) a stratification read off a
/// misère quotient may have.
const MAX_QUOTIENT_TYPES: usize = 2_000_000;

/// The largest order of a misère quotient the stratify route looks for.
const QUOTIENT_ROUTE_ELEMENTS: usize = 1024;

/// How long `verify` may check a stratification read off a proved misère quotient.
const QUOTIENT_VERIFY_BUDGET: Duration = Duration::from_secs(10);

/// A sum of heaps in misère play: the P-positions are Φ⁻¹(P) for its misère quotient, read off
/// as a stratification (Miller, arXiv 1009.2199) and verified. `None` for other games, or when no
/// quotient is proved within the quotient's own limits (the region search goes on).
fn quotient_route(
    game: &LatticeGame,
    certify: bool,
    progress: &mut dyn FnMut(&str),
    tried: &mut Vec<String>,
) -> Result<Option<Stratified>, SolveError> {
    use super::quotient::{quotients_by_heap, HeapSystem, QuotientError, QuotientLimits};
    let Some(system) = HeapSystem::from_lattice_game(game) else {
        return Ok(None);
    };
    // It runs beside the region search (`race`), which cancels it when it answers first: an
    // infinite quotient (as [GM09] Example 8.12's) does not hold the search up.
    let limits = QuotientLimits {
        max_elements: QUOTIENT_ROUTE_ELEMENTS,
        ..QuotientLimits::default()
    };
    let started = Instant::now();
    let run = quotients_by_heap(&system, system.max_heap(), limits, false, &mut |step| {
        progress(&format!(
            "heaps up to {} of {} proved (|Q| = {})",
            step.heap,
            system.max_heap(),
            step.order
        ))
    });
    let q = match (run.quotient, run.stopped) {
        (Some(q), None) => q,
        (_, Some(QuotientError::Interrupted { .. })) if crate::interrupt::user_requested() => {
            return Err(SolveError::Interrupted)
        }
        (_, Some(QuotientError::Interrupted { heap })) => {
            tried.push(format!(
                "the misère quotient: heap type {heap} not proved when it was stopped after {:.1} s",
                started.elapsed().as_secs_f64()
            ));
            return Ok(None);
        }
        (_, Some(e)) => {
            tried.push(format!("the misère quotient: {e}"));
            return Ok(None);
        }
        (None, None) => return Ok(None),
    };
    let Some(stratification) = q.stratification(MAX_QUOTIENT_TYPES) else {
        tried.push(format!(
            "the misère quotient (|Q| = {}): its counts fall into more than {MAX_QUOTIENT_TYPES} types",
            q.order()
        ));
        return Ok(None);
    };
    let stratification = match stratification {
        Err(crate::algebra::AlgebraError::OutOfMemory(e)) => {
            tried.push(format!("the misère quotient (|Q| = {}): {e}", q.order()));
            return Ok(None);
        }
        other => other?,
    };
    let Ok(set) = StratifiedSet::from_stratification(&stratification)? else {
        tried.push("the stratification read off the misère quotient has overlapping pieces".into());
        return Ok(None);
    };
    let method = format!(
        "misère quotient of {} heap types (|Q| = {}, |P| = {}): Φ⁻¹(P) along the periodic powers of each heap",
        system.max_heap(),
        q.order(),
        q.p_count()
    );
    if !certify {
        return Ok(Some(Stratified::Found {
            stratification,
            certified: false,
            method: format!("{method}; proved by the quotient's checks, not run through verify"),
        }));
    }
    // The quotient's proof already decides every position; `verify` checks the stratification
    // independently, on the whole board, within a share of the time (it grows fast with d).
    progress("verifying the stratification read off the misère quotient");
    let budget = Instant::now() + QUOTIENT_VERIFY_BUDGET;
    let verdict = crate::interrupt::with_deadline(budget, || verify(game, &set));
    let method = match verdict {
        Ok(v) if v.is_certified() => format!("{method}; verified on the whole board"),
        Ok(_) => {
            tried.push(format!("{method}: did not verify"));
            return Ok(None);
        }
        Err(SolveError::Interrupted) | Err(SolveError::Algebra(AlgebraError::Interrupted))
            if !crate::interrupt::user_requested() =>
        {
            format!(
                "{method}; proved by the quotient's checks (verify did not finish in {} s)",
                QUOTIENT_VERIFY_BUDGET.as_secs()
            )
        }
        Err(e) => return Err(e),
    };
    Ok(Some(Stratified::Found {
        stratification,
        certified: true,
        method,
    }))
}

fn search(
    game: &LatticeGame,
    options: &StratifyOptions,
    progress: &mut dyn FnMut(&str),
    tried: &mut Attempts,
    start: Instant,
    end: Option<Instant>,
) -> Result<Stratified, SolveError> {
    if let Some(known) = strategy::known_strategy(game)? {
        if let Some(stratification) = known.to_stratification()? {
            progress("squarefree normal play: P = P0 + 2N^d; verifying");
            let certified = !options.certify || verify(game, &known)?.is_certified();
            if certified {
                return Ok(Stratified::Found {
                    stratification,
                    certified: options.certify,
                    method: "squarefree normal play: P = P0 + 2N^d ([Erratum] Theorem 3)".into(),
                });
            }
            tried.push("P0 + 2N^d from the squarefree theorem did not verify".into());
        }
    }
    if options.quotients && super::quotient::HeapSystem::from_lattice_game(game).is_some() {
        return race(game, options, progress, tried, start, end);
    }
    region_search(game, options, progress, tried, start, end)
}

/// How long the region search waits for the quotient route before it starts: small quotients
/// are proved within it, so their (deterministic) answer comes first.
const QUOTIENT_HEAD_START: Duration = Duration::from_millis(250);

/// The least time the quotient route is given after the region search stops without an answer
/// (at its weight limit or the memory budget); it is otherwise given as long again as the search
/// has run, within the time limit.
const QUOTIENT_GRACE: Duration = Duration::from_secs(2);

/// A sum of heaps in misère play: the quotient route on a thread of its own, side by side with the
/// region search, and the first certified answer wins (the other is cancelled). Neither has a
/// budget of its own: both run under the time limit. When the region search gives up before it,
/// the quotient route goes on for as long again as the search has run, at least
/// [`QUOTIENT_GRACE`], and never past the time limit.
fn race(
    game: &LatticeGame,
    options: &StratifyOptions,
    progress: &mut dyn FnMut(&str),
    tried: &mut Attempts,
    start: Instant,
    end: Option<Instant>,
) -> Result<Stratified, SolveError> {
    use std::sync::Mutex;
    let stop_quotient = Arc::new(AtomicBool::new(false));
    let stop_region = Arc::new(AtomicBool::new(false));
    let status = Mutex::new(String::from("starting"));
    let inherited = crate::interrupt::inherited();
    let certify = options.certify;
    std::thread::scope(|scope| {
        let quotient = scope.spawn(|| {
            let mut tried = Vec::new();
            let result = crate::interrupt::with_inherited(&inherited, || {
                crate::interrupt::with_cancel(stop_quotient.clone(), || {
                    quotient_route(
                        game,
                        certify,
                        &mut |msg| {
                            if let Ok(mut s) = status.lock() {
                                *s = msg.to_string();
                            }
                        },
                        &mut tried,
                    )
                })
            });
            if matches!(result, Ok(Some(_))) {
                stop_region.store(true, Ordering::SeqCst);
            }
            (result, tried)
        });
        let join = |handle: std::thread::ScopedJoinHandle<'_, _>| -> (Result<Option<Stratified>, SolveError>, Vec<String>) {
            handle.join().unwrap_or_else(|_| {
                (Ok(None), vec!["the misère quotient: its thread failed".into()])
            })
        };
        progress("a sum of heaps in misère play: proving its misère quotient heap by heap");
        let head_start = Instant::now() + QUOTIENT_HEAD_START;
        while !quotient.is_finished()
            && Instant::now() < head_start
            && !crate::interrupt::requested()
        {
            std::thread::sleep(Duration::from_millis(2));
        }
        if quotient.is_finished() {
            let (result, quotient_tried) = join(quotient);
            tried.tried.extend(quotient_tried);
            if let Some(found) = result? {
                return Ok(found);
            }
            return region_search(game, options, progress, tried, start, end);
        }
        let mut region_tried = Attempts::default();
        let region = crate::interrupt::with_cancel(stop_region.clone(), || {
            region_search(
                game,
                options,
                &mut |msg| {
                    let heaps = status.lock().map(|s| s.clone()).unwrap_or_default();
                    progress(&format!("{msg}; beside it, the misère quotient: {heaps}"))
                },
                &mut region_tried,
                start,
                end,
            )
        });
        let cancelled_by_quotient = stop_region.load(Ordering::SeqCst);
        match region {
            Ok(found @ Stratified::Found { .. }) => {
                stop_quotient.store(true, Ordering::SeqCst);
                let _ = join(quotient);
                Ok(found)
            }
            Err(SolveError::Interrupted) | Err(SolveError::Algebra(AlgebraError::Interrupted))
                if cancelled_by_quotient =>
            {
                let (result, quotient_tried) = join(quotient);
                tried.tried.extend(quotient_tried);
                match result? {
                    Some(found) => Ok(found),
                    None => Ok(tried.not_found()),
                }
            }
            Err(e) => {
                // A time limit or Ctrl-C: what the quotient route reached goes into the report.
                stop_quotient.store(true, Ordering::SeqCst);
                tried.tried.extend(join(quotient).1);
                tried.extend(region_tried);
                Err(e)
            }
            Ok(Stratified::NotFound { .. }) => {
                // The quotient route may still answer: for as long again as the search has
                // run (the time limit interrupts the wait).
                let grace = start.elapsed().max(QUOTIENT_GRACE);
                let until = Instant::now() + grace;
                progress("the region search stopped; waiting for the misère quotient");
                while !quotient.is_finished()
                    && Instant::now() < until
                    && !crate::interrupt::requested()
                {
                    std::thread::sleep(Duration::from_millis(5));
                }
                let waited = !quotient.is_finished();
                stop_quotient.store(true, Ordering::SeqCst);
                let (result, quotient_tried) = join(quotient);
                if crate::interrupt::user_requested() {
                    return Err(SolveError::Interrupted);
                }
                tried.tried.extend(quotient_tried);
                if waited {
                    tried.push(format!(
                        "the misère quotient was stopped {:.1} s after the region search ended",
                        grace.as_secs_f64()
                    ));
                }
                tried.extend(region_tried);
                match result? {
                    Some(found) => Ok(found),
                    None => Ok(tried.not_found()),
                }
            }
        }
    })
}

/// The search by solved regions on N^d (see the module documentation).
fn region_search(
    game: &LatticeGame,
    options: &StratifyOptions,
    progress: &mut dyn FnMut(&str),
    tried: &mut Attempts,
    start: Instant,
    end: Option<Instant>,
) -> Result<Stratified, SolveError> {
    let d = game.dim();
    let orthant = StratifiedSet::from_polyhedron(&Polyhedron::Cone(Cone::orthant(d)?))?;
    if !strategy::lattice_points(game)?.set_eq(&orthant)? {
        tried.push("periodic guesses are searched on the board N^d only".into());
        return Ok(tried.not_found());
    }
    let ell = solver::functional(game, None)?;
    let mut bound = (4 * ell.iter().sum::<i64>()).max(8);
    let mut solved = 0;
    // Covers given up past their piece limit, not run again where they cannot do better.
    let mut covers = cover::GivenUpCovers::default();
    loop {
        // The weight limit, when one is given, is solved itself as the last region.
        if let Some(cap) = options.max_weight {
            if bound > cap && solved < cap {
                bound = cap;
            }
            if bound > cap || bound <= solved {
                tried.push(format!("stopped at the weight limit {cap} (max_weight)"));
                return Ok(tried.not_found());
            }
        }
        if end.is_some_and(|e| Instant::now() >= e) {
            tried.push(format!(
                "stopped at the time limit, after {:.1} s",
                start.elapsed().as_secs_f64()
            ));
            return Ok(tried.not_found());
        }
        progress(&format!(
            "solving the positions of weight ≤ {bound} under {}",
            Vector::from_i64s(&ell)
        ));
        let mut last_percent = u64::MAX;
        let mut report = |done: u64, total: u64| {
            if total == 0 {
                progress(&format!(
                    "laying out the positions of weight ≤ {bound}: {done} so far"
                ));
                return;
            }
            let percent = (done * 100).checked_div(total).unwrap_or(100);
            if percent != last_percent {
                last_percent = percent;
                progress(&format!(
                    "solving the positions of weight ≤ {bound} under {}: {percent}%",
                    Vector::from_i64s(&ell)
                ));
            }
        };
        let solution = Solution::solve(
            game,
            &Region::Weight(Integer::from(bound)),
            SolveOptions {
                functional: Some(Vector::from_i64s(&ell)),
                progress: Some(&mut report),
                ..SolveOptions::default()
            },
        );
        // The memory budget ends the search as a limit would, with what it saw.
        let sol = match solution {
            Err(SolveError::TooLarge { detail }) => {
                tried.push(format!(
                    "stopped: the positions of weight ≤ {bound} would not fit ({detail})"
                ));
                return Ok(tried.not_found());
            }
            Err(SolveError::Algebra(AlgebraError::OutOfMemory(e))) => {
                tried.push(format!(
                    "stopped: the positions of weight ≤ {bound} would not fit ({e})"
                ));
                return Ok(tried.not_found());
            }
            other => other?,
        };
        solved = bound;
        let Some(region) = WeightRegion::from_solution(&sol, &ell, bound) else {
            return Err(SolveError::Interrupted);
        };
        drop(sol);
        progress(&format!(
            "weight ≤ {bound}: periods along the axes, and lines without one"
        ));
        // What the region shows, kept for the report should nothing be found, and the periods
        // along the odd axes are read on the other core while this one reads the even axes.
        let inherited = crate::interrupt::inherited();
        // The lines the last region named are read again first.
        let again: Vec<(Vec<i64>, Vec<i64>)> = tried
            .line
            .iter()
            .map(|l| (l.start.clone(), l.direction.clone()))
            .chain(
                tried
                    .late
                    .iter()
                    .map(|l| (l.start.clone(), l.direction.clone())),
            )
            .collect();
        let (lines, axis) = std::thread::scope(|scope| {
            let other = scope.spawn(|| {
                crate::interrupt::with_inherited(&inherited, || {
                    let line = evidence::lines(&region, &ell, &again);
                    let odd: Vec<Option<(i64, i64)>> = (1..d)
                        .step_by(2)
                        .map(|i| periods::period_along(&region, i, &ell))
                        .collect();
                    (line, odd)
                })
            });
            let even: Vec<Option<(i64, i64)>> = (0..d)
                .step_by(2)
                .map(|i| periods::period_along(&region, i, &ell))
                .collect();
            let (line, odd) = other
                .join()
                .unwrap_or((evidence::Lines::default(), vec![None; d / 2]));
            let axis: Vec<Option<(i64, i64)>> = (0..d)
                .map(|i| if i % 2 == 0 { even[i / 2] } else { odd[i / 2] })
                .collect();
            (line, axis)
        });
        if crate::interrupt::requested() {
            return Err(SolveError::Interrupted);
        }
        tried.line = lines.aperiodic;
        tried.late = lines.late;
        // Raised past the lightest failure of the guesses (`raise_past`).
        let mut next = bound + bound / 2;
        // The positions just past the region, solved on first use to refute guesses cheaply.
        let mut ahead = lookahead::LookAhead::new(game, &ell, &region);
        // First guess: eventual periods along the axes. It agrees with the region by
        // construction (each reduction by a period stays in the region and keeps the outcome).
        // Each with its printed form and N^d less it, where the guess gives them.
        let mut periodic = None;
        // Only with some evidence: every preperiod at most a quarter of its axis' reach.
        if short_preperiods(&axis, &ell, bound)
            .iter()
            .all(Option::is_some)
        {
            let (t, p): (Vec<i64>, Vec<i64>) = axis.iter().map(|a| a.expect("some")).unzip();
            let describe = format!(
                "preperiods {} and periods {} along the axes, from the positions of weight ≤ {bound}",
                Vector::from_i64s(&t),
                Vector::from_i64s(&p)
            );
            // Its offsets are the points of the base box, each a module of the set built next.
            let box_points = t
                .iter()
                .zip(&p)
                .try_fold(1u64, |n, (a, b)| n.checked_mul(u64::try_from(a + b).ok()?));
            match box_points.filter(|&n| n <= MAX_PERIODIC_BOX) {
                None => tried.push(format!(
                    "{describe}: not tried, its base box has {} points, past {MAX_PERIODIC_BOX}",
                    box_points.map_or("too many".into(), |n| n.to_string())
                )),
                Some(_) => match periods::periodic_guess(&region, &t, &p) {
                    Some(guess) => match StratifiedSet::from_stratification(&guess)? {
                        Ok(set) => {
                            let outside = match periods::periodic_outside(&region, &t, &p) {
                                Some(Ok(outside)) => Some(outside),
                                Some(Err(AlgebraError::TooLarge(_))) | None => None,
                                Some(Err(e)) => return Err(e.into()),
                            };
                            periodic = Some((describe, set, guess, outside))
                        }
                        Err(_) => tried.push(format!("{describe}: the pieces overlap")),
                    },
                    None => tried.push(format!("{describe}: the base box was not solved")),
                },
            }
        } else {
            tried.push(format!(
                "weight ≤ {bound}: no short preperiod and period along every coordinate axis"
            ));
        }
        // Second guess: a cover by pieces along small lattice directions, with offsets from the
        // lighter two thirds of the region (given up past MAX_COVER_PIECES pieces).
        let describe = format!(
            "a cover of the P-positions of weight ≤ {bound} by pieces b + N{{small independent periods}}"
        );
        let pool = cover::period_pool(&ell, &axis);
        let slabs = short_preperiods(&axis, &ell, bound);
        progress(&format!(
            "weight ≤ {bound}: a cover by small periods, and periodic patterns across parallel hyperplanes"
        ));
        let sums = classes::move_sums(&moves_of(game).unwrap_or_default());
        // The cover is found on one thread and the third guess's attempts are fitted, in order,
        // on another, while this one checks the guesses in one order: the periodic guess at once,
        // then each fit as it comes ([`fit_all`]), then the cover. The fits come before the
        // cover, which they do not need: a cover of hundreds of pieces takes seconds to find on
        // a large region and is then refuted, while the fit certified next waited for it
        // (generalized misère play, seed 7777, item 58: 9.7 → 5.3 s), and where both are
        // certified the fit is mostly the shorter answer (item 12: 5 pieces against 31; the
        // Erratum's rule set in normal play: 2 against 3). Both stop once this round has
        // its answer.
        let stop = Arc::new(AtomicBool::new(false));
        let worker = inherited.and_cancel(stop.clone());
        let answer = std::thread::scope(|scope| {
            // A fit is handed over only when it is asked for: the fits run at most one attempt
            // ahead of the checks, which they would slow down (a guess's look-ahead, generalized
            // misère play, seed 7777, item 14 at weight 224: 1.2 s alone, 3 s beside the cover
            // and fits further on).
            let (send, fits) = std::sync::mpsc::sync_channel(0);
            let covering = scope.spawn(|| {
                crate::interrupt::with_inherited(&worker, || {
                    // The axes' preperiods are global: a line that turns periodic earlier than
                    // its axis (in generalized misère play, say) is then cut into many pieces.
                    // Without them the guess is bolder; it is verified all the same.
                    let strict =
                        covers.cover(&region, &pool, 2 * bound / 3, &slabs, MAX_COVER_PIECES)?;
                    let mut found = strict;
                    let strict_failed = found.as_ref().map_or(true, |c| c.uncovered.is_some());
                    if strict_failed && slabs.iter().any(Option::is_some) {
                        let free = vec![None; d];
                        let bold =
                            covers.cover(&region, &pool, 2 * bound / 3, &free, MAX_COVER_PIECES)?;
                        if bold.as_ref().is_ok_and(|c| c.uncovered.is_none()) || found.is_err() {
                            found = bold;
                        }
                    }
                    Some(found)
                })
            });
            let fitting = scope.spawn(|| {
                crate::interrupt::with_inherited(&worker, || fit_all(&region, &sums, send))
            });
            let answer = (|| {
                if let Some((describe, set, printed, outside)) = periodic {
                    let guess = Guess {
                        describe,
                        stratification: Some(printed),
                        set: &set,
                        outside: outside.as_ref(),
                        looked_ahead: false,
                    };
                    if let Some(found) =
                        certify_guess(game, options, guess, &mut ahead, tried, progress, &mut next)?
                    {
                        return Ok(Some(found));
                    }
                }
                // Third guess, checked before the second: a periodic pattern that changes
                // across parallel hyperplanes (fitted on the heavier half of the region, with the
                // lighter half's misses as exceptions).
                progress(&format!(
                    "weight ≤ {bound}: periodic patterns across parallel hyperplanes"
                ));
                if let Some(found) =
                    layered_guess(game, options, &fits, &mut ahead, tried, progress, &mut next)?
                {
                    return Ok(Some(found));
                }
                // Fourth guess, checked after the third: a translation that keeps P from a
                // corner on, its slabs described one dimension lower. Its answers have many
                // pieces, and comparing those with the positions past the region costs seconds:
                // checked before the third, it answered first where the third finds fewer
                // pieces sooner (generalized misère play, seed 1234, item 25: 0.8 → 3.3 s).
                let until = end.map_or(Instant::now() + SHIFT_TIME, |e| {
                    e.min(Instant::now() + SHIFT_TIME)
                });
                if options.translations {
                    if let Some(found) = shift_attempt(
                        game, options, &region, until, &mut ahead, tried, progress, &mut next,
                    )? {
                        return Ok(Some(found));
                    }
                }
                let Some(found) = covering.join().unwrap_or(None) else {
                    return Err(SolveError::Interrupted);
                };
                match found {
                    Err(before) => tried.push(format!(
                        "{describe}: not run again: on the region of weight ≤ {} it was given up past {MAX_COVER_PIECES} pieces at the P-position {}, and a larger region can only take rays away from the lighter offsets",
                        before.bound,
                        Vector::from_i64s(&before.at),
                    )),
                    Ok(found) => match &found.uncovered {
                        Some(x) if found.too_many => tried.push(format!(
                            "{describe}: given up past {MAX_COVER_PIECES} pieces, at the P-position {} (weight {})",
                            Vector::from_i64s(x),
                            region.weight(x)
                        )),
                        Some(x) => {
                            let w = region.weight(x);
                            tried.push(format!(
                                "{describe}: the P-position {} (weight {w}) is left uncovered",
                                Vector::from_i64s(x)
                            ));
                            raise_past(&mut next, w);
                        }
                        None => {
                            let set = cover_set(d, &found.pieces)?;
                            let guess = Guess {
                                describe,
                                stratification: None,
                                set: &set,
                                outside: None,
                                looked_ahead: false,
                            };
                            if let Some(found) = certify_guess(
                                game, options, guess, &mut ahead, tried, progress, &mut next,
                            )? {
                                return Ok(Some(found));
                            }
                        }
                    },
                }
                Ok(None)
            })();
            stop.store(true, Ordering::SeqCst);
            // A fitting thread waiting to send finds no one to send to.
            drop(fits);
            // A fitting thread lost (a panic) leaves the round unfinished, as a lost cover does.
            match (answer, fitting.join()) {
                (Ok(None), Err(_)) => Err(SolveError::Interrupted),
                (answer, _) => answer,
            }
        })?;
        if let Some(found) = answer {
            return Ok(found);
        }
        bound = next;
    }
}

/// The fourth guess ([`shift`]) on the region, found by `until` and checked as the others are;
/// None when it was not made (the reason is in `tried`) or not certified.
#[allow(clippy::too_many_arguments)]
fn shift_attempt(
    game: &LatticeGame,
    options: &StratifyOptions,
    region: &WeightRegion,
    until: Instant,
    ahead: &mut lookahead::LookAhead<'_>,
    tried: &mut Attempts,
    progress: &mut dyn FnMut(&str),
    next: &mut i64,
) -> Result<Option<Stratified>, SolveError> {
    let d = region.dim();
    if d < 2 {
        return Ok(None);
    }
    let bound = region.bound();
    progress(&format!(
        "weight ≤ {bound}: a translation that keeps the P-positions from a corner on"
    ));
    let what = "a translation keeping the P-positions from a corner on";
    // Read on the lighter part of a large region: a translation that holds shows on a few
    // million positions, and each one read costs every translation tried.
    let mut fit = bound;
    while fit > 0 && region.len_up_to(fit) > SHIFT_POSITIONS {
        fit -= 1 + fit / 64;
    }
    let started = Instant::now();
    let shifted = match shift::shift_guess(region, fit, MAX_SHIFT_MODULES, until) {
        Ok(shifted) => shifted,
        Err(shift::NoShift::Stopped) if crate::interrupt::requested() => {
            return Err(SolveError::Interrupted)
        }
        Err(why) => {
            let why = match why {
                shift::NoShift::NoTranslation => {
                    "none with evidence (the corner plus twice it in the region)".to_string()
                }
                shift::NoShift::Slab(fixed) => format!(
                    "the slab {} has neither periods along its axes nor a translation",
                    slab_name(&fixed)
                ),
                shift::NoShift::TooMany(n) => format!("given up past {n} modules"),
                shift::NoShift::Stopped => {
                    format!("stopped after {:.1} s", started.elapsed().as_secs_f64())
                }
            };
            tried.push(format!("weight ≤ {fit}: {what}: {why}"));
            return Ok(None);
        }
    };
    let describe = format!(
        "the translation {} keeping the P-positions from {} on, its slabs periodic along their axes or translated in turn ({} modules), from the positions of weight ≤ {fit}",
        Vector::from_i64s(&shifted.translation),
        Vector::from_i64s(&shifted.from),
        shifted.offsets
    );
    let Ok(printed) = Stratification::new(shifted.in_p.clone()) else {
        tried.push(format!("{describe}: no P-position"));
        return Ok(None);
    };
    let set = StratifiedSet::from_disjoint_modules(d, &shifted.in_p)?;
    let outside = StratifiedSet::from_disjoint_modules(d, &shifted.outside)?;
    let guess = Guess {
        describe,
        stratification: Some(printed),
        set: &set,
        outside: Some(&outside),
        looked_ahead: false,
    };
    certify_guess(game, options, guess, ahead, tried, progress, next)
}

/// A slab by its fixed coordinates: "x_1 = 3, x_4 = 0".
fn slab_name(fixed: &[Option<i64>]) -> String {
    let named: Vec<String> = fixed
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.map(|c| format!("x_{} = {c}", i + 1)))
        .collect();
    named.join(", ")
}

/// The third guess of a round (see [`layers`]), for each moduli it tries, and then with cuts
/// when no normal's layers fitted, as [`fit_all`] sends the fits: each first compared with the
/// positions just past the region by its rule (a lookup per position, however many pieces it
/// makes), and only then built as a set and verified; `next` is raised past a refutation.
fn layered_guess(
    game: &LatticeGame,
    options: &StratifyOptions,
    fits: &Receiver<Fitting>,
    ahead: &mut lookahead::LookAhead<'_>,
    tried: &mut Attempts,
    progress: &mut dyn FnMut(&str),
    next: &mut i64,
) -> Result<Option<Stratified>, SolveError> {
    let bound = ahead.bound();
    // The attempts that fitted nothing, and those waiting for a larger region, reported in one
    // line when the round goes on.
    let mut unfitted: Vec<(String, bool)> = Vec::new();
    let report = |tried: &mut Attempts, unfitted: &mut Vec<(String, bool)>| {
        if unfitted.is_empty() {
            return;
        }
        let (waiting, failed): (Vec<_>, Vec<_>) = unfitted.drain(..).partition(|u| u.1);
        let mut parts = Vec::new();
        if !failed.is_empty() {
            let names: Vec<String> = failed.into_iter().map(|u| u.0).collect();
            parts.push(format!("no fit by {}", names.join(", nor by ")));
        }
        if !waiting.is_empty() {
            let names: Vec<String> = waiting.into_iter().map(|u| u.0).collect();
            parts.push(format!(
                "{} left for a larger region, since one normal's layers fitted this one",
                names.join(" and ")
            ));
        }
        tried.push(format!(
            "weight ≤ {bound}: periodic patterns across parallel hyperplanes: {}",
            parts.join("; ")
        ));
    };
    // Until the fitting thread is done (its sender dropped).
    for message in fits.iter() {
        let (layered, describe) = match message {
            Fitting::Note(text) => {
                progress(&text);
                continue;
            }
            Fitting::Nothing(what, waits) => {
                unfitted.push((what, waits));
                continue;
            }
            Fitting::Fit(fit) => *fit,
        };
        report(tried, &mut unfitted);
        let checks = Checks {
            game,
            options,
            ahead: &mut *ahead,
            tried: &mut *tried,
            progress: &mut *progress,
            next: &mut *next,
        };
        if let Some(found) = checks.layered(&layered, describe)? {
            return Ok(Some(found));
        }
    }
    // A thread stopped by a limit fits no more.
    if crate::interrupt::requested() {
        return Err(SolveError::Interrupted);
    }
    report(tried, &mut unfitted);
    Ok(None)
}

/// The moves as machine integers; None when an entry does not fit.
pub(super) fn moves_of(game: &LatticeGame) -> Option<Vec<Vec<i64>>> {
    game.rules().moves().iter().map(Vector::to_i64s).collect()
}

/// What checking a guess reads and records.
struct Checks<'a, 'b> {
    game: &'a LatticeGame,
    options: &'a StratifyOptions,
    ahead: &'a mut lookahead::LookAhead<'b>,
    tried: &'a mut Attempts,
    progress: &'a mut dyn FnMut(&str),
    next: &'a mut i64,
}

impl Checks<'_, '_> {
    /// A layered guess compared with the positions just past the region (by its rule, before
    /// its set is built), then certified ([`certify_guess`]); None when refuted or not built.
    fn layered(
        self,
        layered: &layers::Layered,
        describe: String,
    ) -> Result<Option<Stratified>, SolveError> {
        let Checks {
            game,
            options,
            ahead,
            tried,
            progress,
            next,
        } = self;
        if options.certify {
            progress(&format!("checking a guess past the region: {describe}"));
            if let Some((x, w)) = ahead.refute_by(1, &|x| layered.contains(x))? {
                tried.push(format!(
                    "{describe}: refuted at {} (weight {w})",
                    Vector::from_i64s(&x)
                ));
                raise_past(next, w);
                return Ok(None);
            }
        }
        let set = match layered.set() {
            Ok(set) => set,
            Err(AlgebraError::TooLarge(e)) => {
                tried.push(format!("{describe}: not built as a set ({e})"));
                return Ok(None);
            }
            Err(e) => return Err(e.into()),
        };
        // The guess's rule gives N^d less the set as well, which spares `verify` the set's
        // complement; should building it fail, the complement is taken as for any set.
        let outside = match layered.outside() {
            Ok(outside) => Some(outside),
            Err(AlgebraError::TooLarge(_)) => None,
            Err(e) => return Err(e.into()),
        };
        let guess = Guess {
            describe,
            stratification: None,
            set: &set,
            outside: outside.as_ref(),
            looked_ahead: true,
        };
        certify_guess(game, options, guess, ahead, tried, progress, next)
    }
}

/// A guess's set written as a stratification, or why it is not: Ok(reason) for a set with no
/// printable form or one too large to decompose (the search goes on with other guesses), Err for
/// any other failure (an interrupt, memory).
fn written(
    result: Result<Option<Stratification>, AlgebraError>,
) -> Result<Stratification, Result<String, SolveError>> {
    match result {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err(Ok("not printable as a stratification".into())),
        Err(AlgebraError::TooLarge(e)) => Err(Ok(format!("not written as a stratification ({e})"))),
        Err(e) => Err(Err(e.into())),
    }
}

/// A guess of a round: how it was found, the set as decided, and as printed when it was found in
/// that form (else it is written from the set).
struct Guess<'a> {
    describe: String,
    stratification: Option<Stratification>,
    set: &'a StratifiedSet,
    /// N^d less the set, when the guess was built with it (see
    /// [`first_failure_given_outside`]).
    outside: Option<&'a StratifiedSet>,
    /// Already compared with the positions past the region.
    looked_ahead: bool,
}

/// The guess, written as a stratification (or passed over, with the reason, when it cannot be),
/// returned unverified under `certify: false`, else verified on the whole board: found
/// when certified; when refuted (first against the positions just past the region, see
/// [`lookahead`], then by `verify`), the counterexample is reported and the next region reaches
/// past it.
fn certify_guess(
    game: &LatticeGame,
    options: &StratifyOptions,
    guess: Guess<'_>,
    ahead: &mut lookahead::LookAhead<'_>,
    tried: &mut Attempts,
    progress: &mut dyn FnMut(&str),
    next: &mut i64,
) -> Result<Option<Stratified>, SolveError> {
    let Guess {
        describe,
        stratification,
        set,
        outside,
        looked_ahead,
    } = guess;
    // Compared with the positions past the region first: that needs only the set's membership,
    // while writing it needs its disjoint pieces (seconds for a cover of hundreds of pieces).
    if options.certify && !looked_ahead {
        progress(&format!("checking a guess past the region: {describe}"));
        if let Some((x, w)) = ahead.refute(set)? {
            tried.push(format!(
                "{describe}: refuted at {} (weight {w})",
                Vector::from_i64s(&x)
            ));
            raise_past(next, w);
            return Ok(None);
        }
    }
    // A cover of overlapping sets is verified as it is, and written only once certified: its
    // disjoint pieces, which writing needs, cost seconds past a few hundred sets.
    let verify_first = options.certify && stratification.is_none() && !set.cover_is_disjoint();
    if verify_first && !certified(game, set, outside, &describe, tried, progress, next)? {
        return Ok(None);
    }
    let stratification = match stratification.map_or_else(|| written(set.to_stratification()), Ok) {
        Ok(s) => s,
        Err(why) => {
            tried.push(format!("{describe}: {}", why?));
            return Ok(None);
        }
    };
    if !options.certify {
        return Ok(Some(Stratified::Found {
            stratification,
            certified: false,
            method: describe,
        }));
    }
    if !verify_first {
        // The stratification written from the guess is the same set, often in fewer basic sets
        // (a guess's exceptions, hundreds of points, merge into the modules' offsets): the one
        // with fewer is verified, and the verification of the written one certifies the answer
        // as printed. It is a shortcut only: should building it fail, the guess's own set is
        // verified. N^d less the set, when the guess gives it, is the same for either.
        let written_set =
            StratifiedSet::from_disjoint_modules(stratification.dim(), stratification.pieces())
                .ok();
        let checked = match &written_set {
            Some(w) if w.cover().len() < set.cover().len() => w,
            _ => set,
        };
        if !certified(game, checked, outside, &describe, tried, progress, next)? {
            return Ok(None);
        }
    }
    Ok(Some(Stratified::Found {
        stratification,
        certified: true,
        method: describe,
    }))
}

/// Whether `verify` certifies the guess's set; when it refutes it, the counterexample is
/// reported and the next region reaches past it.
fn certified(
    game: &LatticeGame,
    set: &StratifiedSet,
    outside: Option<&StratifiedSet>,
    describe: &str,
    tried: &mut Attempts,
    progress: &mut dyn FnMut(&str),
    next: &mut i64,
) -> Result<bool, SolveError> {
    progress(&format!("verifying a guess: {describe}"));
    let failure = match outside {
        Some(outside) => first_failure_given_outside(game, set, outside)?,
        None => first_failure(game, set)?,
    };
    match failure {
        None => Ok(true),
        Some((position, weight)) => {
            tried.push(format!(
                "{describe}: refuted at {position} (weight {weight})"
            ));
            raise_past(next, weight.to_i64().unwrap_or(i64::MAX / 4));
            Ok(false)
        }
    }
}

/// The lightest failure of a guess, of weight w (on the region or on the whole board), sets how
/// far the next region reaches: past 3w/2.
fn raise_past(next: &mut i64, w: i64) {
    *next = (*next).max(w + w / 2 + 1);
}

#[cfg(test)]
mod tests;
