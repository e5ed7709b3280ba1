//! Finding affine stratifications of the P-positions ([GM11] Definition 4.1, Conjecture 4.5) and
//! certifying them with [`super::verify`]: search, then certify.
//!
//! 1. Squarefree normal play: the theorem gives P = P0 + 2N^d ([Erratum] Theorem 3), verified
//!    anyway.
//! 2. Otherwise, on the board N^d: the P-positions are solved on a weight region ℓ·x ≤ W (closed
//!    under taking options, unlike a box when moves have negative entries), and for each coordinate
//!    i the least preperiod t_i and period p_i are sought with P(x) = P(x + p_i e_i) whenever
//!    x_i ≥ t_i, on every solved pair. If every coordinate has one, the guess is
//!    P = ⊎_b (b + N{p_i e_i : b_i ≥ t_i}) over the P-positions b of the box 0 ≤ b_i < t_i + p_i
//!    (the pieces are disjoint: each point reduces to a single b).
//! 3. A second guess covers the P-positions of the lighter half of the region, lightest first, by
//!    pieces b + N{g_1..g_k} with independent g_j from small vectors of N^d, chosen greedily
//!    (sparsest first, so that the pieces' cones reach the edges of the regions where a pattern
//!    holds) among those with the whole piece inside P on the region.
//!
//! Each guess is verified on the whole board; a counterexample of weight w raises W past w and
//! the search goes on, up to the user's weight limit and time. What was tried is reported when
//! nothing is found.
//!
//! Known limits: the greedy cover takes the first generators that fit; on [Guo11] Remark 4.12's
//! second game {(1, 0), (0, 1), (2, 2)} its guesses are refuted at growing weights (on the
//! diagonal) without converging. [GM09] Example 8.12 (d = 5, a pool of 242 vectors that holds its
//! direction (0, 0, 0, 2, 2)) has not been tried.

use std::time::{Duration, Instant};

use crate::algebra::basic_set::BasicSet;
use crate::algebra::lattice::Lattice;
use crate::algebra::{AffineModule, AffineSemigroup, AlgebraError, Cone, Integer, Polyhedron};
use crate::algebra::{Stratification, StratifiedSet, Vector};

use super::solver::{self, Outcome, Region, Solution, SolveError, SolveOptions};
use super::verify::{verify, Verification};
use super::{strategy, LatticeGame};

/// The user's limits.
#[derive(Clone, Debug)]
pub struct StratifyOptions {
    /// The largest weight ℓ·x of the regions solved while guessing.
    pub max_weight: i64,
    /// Stop searching after this long (a running verification is finished first).
    pub timeout: Option<Duration>,
    /// Verify the guess (when false, the first guess is returned as a candidate).
    pub certify: bool,
}

impl Default for StratifyOptions {
    fn default() -> Self {
        StratifyOptions {
            max_weight: 64,
            timeout: None,
            certify: true,
        }
    }
}

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
    /// Nothing within the limits: what was tried, in words.
    NotFound {
        /// One line per attempt.
        tried: Vec<String>,
    },
}

/// The smallest (preperiod, period) along coordinate i consistent with the solved region, with
/// enough evidence: the region must hold x with x_i ≥ t + 2p along the axis.
fn period_along(
    sol: &Solution,
    positions: &[Vec<i64>],
    i: usize,
    ell: &[i64],
    bound: i64,
) -> Option<(i64, i64)> {
    let reach = bound / ell[i].max(1);
    let is_p = |x: &[i64]| sol.outcome(x) == Some(Outcome::P);
    for total in 1..=reach / 2 {
        for p in 1..=total {
            if crate::interrupt::requested() {
                return None;
            }
            let t = total - p;
            if t + 2 * p > reach {
                continue;
            }
            let consistent = positions.iter().all(|x| {
                if x[i] < t {
                    return true;
                }
                let mut y = x.clone();
                y[i] += p;
                match sol.outcome(&y) {
                    None => true,
                    Some(_) => is_p(x) == is_p(&y),
                }
            });
            if consistent {
                return Some((t, p));
            }
        }
    }
    None
}

/// ℓ·x.
fn weight(ell: &[i64], x: &[i64]) -> i64 {
    x.iter().zip(ell).map(|(a, b)| a * b).sum()
}

/// Every x ≥ 0 with ℓ·x ≤ bound (ℓ > 0 coordinatewise, as on N^d).
fn weight_points(ell: &[i64], bound: i64) -> Vec<Vec<i64>> {
    fn walk(ell: &[i64], left: i64, x: &mut Vec<i64>, out: &mut Vec<Vec<i64>>) {
        if x.len() == ell.len() {
            out.push(x.clone());
            return;
        }
        let w = ell[x.len()].max(1);
        for k in 0..=left / w {
            x.push(k);
            walk(ell, left - k * w, x, out);
            x.pop();
        }
    }
    let mut out = Vec::new();
    walk(ell, bound, &mut Vec::new(), &mut out);
    out
}

/// Every point of the box 0 ≤ b < hi.
fn box_points(hi: &[i64]) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new()];
    for &h in hi {
        out = out
            .into_iter()
            .flat_map(|p: Vec<i64>| {
                (0..h).map(move |x| {
                    let mut q = p.clone();
                    q.push(x);
                    q
                })
            })
            .collect();
    }
    out
}

/// The guess ⊎_b (b + N{p_i e_i : b_i ≥ t_i}) as a stratification, grouping the offsets by
/// their generators; `None` when part of the base box was not solved.
fn periodic_guess(sol: &Solution, t: &[i64], p: &[i64]) -> Option<Stratification> {
    let d = t.len();
    let hi: Vec<i64> = t.iter().zip(p).map(|(a, b)| a + b).collect();
    // The base box must lie in the solved region, so it has at most as many points.
    let size = hi
        .iter()
        .try_fold(1u64, |acc, &h| acc.checked_mul(h as u64))?;
    if size > sol.table_positions() {
        return None;
    }
    let mut groups: std::collections::BTreeMap<Vec<usize>, Vec<Vector>> = Default::default();
    for b in box_points(&hi) {
        match sol.outcome(&b)? {
            Outcome::P => {
                let free: Vec<usize> = (0..d).filter(|&i| b[i] >= t[i]).collect();
                groups.entry(free).or_default().push(Vector::from_i64s(&b));
            }
            _ => continue,
        }
    }
    let modules: Vec<AffineModule> = groups
        .into_iter()
        .map(|(free, offsets)| {
            let gens: Vec<Vector> = free
                .iter()
                .map(|&i| Vector::unit(d, i).scale(&Integer::from(p[i])))
                .collect();
            let a = AffineSemigroup::with_dim(d, gens).ok()?;
            AffineModule::new(offsets, a).ok()
        })
        .collect::<Option<_>>()?;
    if modules.is_empty() {
        return None;
    }
    Stratification::new(modules).ok()
}

/// Whether every point b + Σ n_j g_j (n ≥ 0) of the solved region is a P-position.
fn cone_in_p(sol: &Solution, b: &[i64], gens: &[Vec<i64>], ell: &[i64], bound: i64) -> bool {
    fn walk(
        sol: &Solution,
        x: &mut Vec<i64>,
        gens: &[Vec<i64>],
        j: usize,
        ell: &[i64],
        bound: i64,
    ) -> bool {
        let w = weight(ell, x);
        if w > bound {
            return true;
        }
        if j == gens.len() {
            return sol.outcome(x) == Some(Outcome::P);
        }
        let start = x.clone();
        let mut ok = true;
        loop {
            let w = weight(ell, x);
            if w > bound {
                break;
            }
            if !walk(sol, x, gens, j + 1, ell, bound) {
                ok = false;
                break;
            }
            for (xi, gi) in x.iter_mut().zip(&gens[j]) {
                *xi += gi;
            }
        }
        *x = start;
        ok
    }
    walk(sol, &mut b.to_vec(), gens, 0, ell, bound)
}

/// A guess by covering: the P-positions of the region in order of weight, each one not yet
/// covered becoming the offset b of a piece b + N{g_1..g_k} with independent g_j from `pool`,
/// chosen greedily (lightest first) among those with b + N{g..} ⊆ P on the region and with
/// b + 2g inside it (some evidence). Offsets are taken from the lighter half of the region. The
/// pieces may overlap; their union is the guess.
fn cover_guess(
    sol: &Solution,
    pool: &[Vec<i64>],
    ell: &[i64],
    bound: i64,
) -> Result<StratifiedSet, SolveError> {
    let d = ell.len();
    let mut ps = sol.p_positions();
    ps.sort_by_key(|p| (weight(ell, p), p.clone()));
    let vectors =
        |gs: &[Vec<i64>]| -> Vec<Vector> { gs.iter().map(|g| Vector::from_i64s(g)).collect() };
    let mut pieces: Vec<BasicSet> = Vec::new();
    for b in ps {
        // Offsets from the lighter half only, so that every period is tested on a long stretch;
        // the heavier P-positions must be covered by their pieces.
        if 2 * weight(ell, &b) > bound {
            break;
        }
        let point = Vector::from_i64s(&b);
        if pieces.iter().any(|piece| piece.contains(&point)) {
            continue;
        }
        if crate::interrupt::requested() {
            return Err(SolveError::Interrupted);
        }
        let mut gens: Vec<Vec<i64>> = Vec::new();
        for g in pool {
            if crate::interrupt::requested() {
                return Err(SolveError::Interrupted);
            }
            let far: Vec<i64> = b.iter().zip(g).map(|(a, c)| a + 2 * c).collect();
            if weight(ell, &far) > bound {
                continue;
            }
            let mut trial = gens.clone();
            trial.push(g.clone());
            if Lattice::generated_by(d, &vectors(&trial)).rank() < trial.len() {
                continue;
            }
            if cone_in_p(sol, &b, &trial, ell, bound) {
                gens = trial;
            }
        }
        pieces.push(BasicSet::simplicial(&point, &vectors(&gens)));
    }
    let mut out = StratifiedSet::empty(d);
    for piece in pieces {
        out = out.union(&StratifiedSet::from_basic(piece)?)?;
    }
    Ok(out)
}

/// Candidate period vectors on N^d: the nonzero vectors with entries in 0..=m (m = 4 in d ≤ 2,
/// 2 beyond) and the axis periods found, sparsest first, then lightest.
fn period_pool(ell: &[i64], axis: &[Option<(i64, i64)>]) -> Vec<Vec<i64>> {
    let d = ell.len();
    let m = if d <= 2 { 4 } else { 2 };
    let mut pool: Vec<Vec<i64>> = box_points(&vec![m + 1; d])
        .into_iter()
        .filter(|g| g.iter().any(|&x| x != 0))
        .collect();
    for (i, a) in axis.iter().enumerate() {
        if let Some((_, p)) = a {
            let mut g = vec![0; d];
            g[i] = *p;
            if !pool.contains(&g) {
                pool.push(g);
            }
        }
    }
    // Sparse vectors first (the edges of N^d, then of its faces), so that a piece's cone spans
    // the region's cone instead of a thin part of it; then the lightest.
    pool.sort_by_key(|g| {
        (
            g.iter().filter(|&&x| x != 0).count(),
            weight(ell, g),
            g.clone(),
        )
    });
    pool
}

/// Searches for a stratification of the P-positions and certifies it (see the module
/// documentation). `progress` is told what is being tried.
pub fn stratify(
    game: &LatticeGame,
    options: &StratifyOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Stratified, SolveError> {
    let start = Instant::now();
    let mut tried = Vec::new();
    let Some(limit) = options.timeout else {
        return search(game, options, progress, &mut tried, start);
    };
    // The time limit interrupts a running solve or verification too, through the interrupt poll.
    let result = crate::interrupt::with_deadline(start + limit, || {
        search(game, options, progress, &mut tried, start)
    });
    match result {
        Err(SolveError::Interrupted) | Err(SolveError::Algebra(AlgebraError::Interrupted))
            if !crate::interrupt::user_requested() =>
        {
            tried.push(format!(
                "stopped after {:.1} s (timeout)",
                start.elapsed().as_secs_f64()
            ));
            Ok(Stratified::NotFound { tried })
        }
        other => other,
    }
}

fn search(
    game: &LatticeGame,
    options: &StratifyOptions,
    progress: &mut dyn FnMut(&str),
    tried: &mut Vec<String>,
    start: Instant,
) -> Result<Stratified, SolveError> {
    let d = game.dim();
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
    let orthant = StratifiedSet::from_polyhedron(&Polyhedron::Cone(Cone::orthant(d)?))?;
    if !strategy::lattice_points(game)?.set_eq(&orthant)? {
        tried.push("periodic guesses are searched on the board N^d only".into());
        return Ok(Stratified::NotFound {
            tried: tried.clone(),
        });
    }
    let ell = solver::functional(game, None)?;
    let mut bound = (4 * ell.iter().sum::<i64>()).max(8);
    loop {
        if bound > options.max_weight {
            tried.push(format!(
                "stopped at the weight limit {} (max_weight)",
                options.max_weight
            ));
            return Ok(Stratified::NotFound {
                tried: tried.clone(),
            });
        }
        if options.timeout.is_some_and(|t| start.elapsed() > t) {
            tried.push(format!(
                "stopped after {:.1} s (timeout)",
                start.elapsed().as_secs_f64()
            ));
            return Ok(Stratified::NotFound {
                tried: tried.clone(),
            });
        }
        progress(&format!(
            "solving the positions of weight ≤ {bound} under {}",
            Vector::from_i64s(&ell)
        ));
        let sol = Solution::solve(
            game,
            &Region::Weight(Integer::from(bound)),
            SolveOptions {
                functional: Some(Vector::from_i64s(&ell)),
                ..SolveOptions::default()
            },
        )?;
        let positions = weight_points(&ell, bound);
        let axis: Vec<Option<(i64, i64)>> = (0..d)
            .map(|i| period_along(&sol, &positions, i, &ell, bound))
            .collect();
        // First guess: eventual periods along the axes; second: a cover by pieces along any
        // small lattice directions.
        let mut guesses: Vec<(String, StratifiedSet, Option<Stratification>)> = Vec::new();
        if axis.iter().all(Option::is_some) {
            let (t, p): (Vec<i64>, Vec<i64>) = axis.iter().map(|a| a.expect("some")).unzip();
            let describe = format!(
                "preperiods {} and periods {} along the axes, from the positions of weight ≤ {bound}",
                Vector::from_i64s(&t),
                Vector::from_i64s(&p)
            );
            match periodic_guess(&sol, &t, &p) {
                Some(guess) => match StratifiedSet::from_stratification(&guess)? {
                    Ok(set) => guesses.push((describe, set, Some(guess))),
                    Err(_) => tried.push(format!("{describe}: the pieces overlap")),
                },
                None => tried.push(format!("{describe}: the base box was not solved")),
            }
        } else {
            tried.push(format!(
                "weight ≤ {bound}: no eventual period along every coordinate axis"
            ));
        }
        guesses.push((
            format!(
                "a cover of the P-positions of weight ≤ {bound} by pieces b + N{{small independent periods}}"
            ),
            cover_guess(&sol, &period_pool(&ell, &axis), &ell, bound)?,
            None,
        ));
        let mut next = 2 * bound;
        for (describe, set, printed) in guesses {
            let stratification = match printed {
                Some(s) => s,
                None => match set.to_stratification()? {
                    Some(s) => s,
                    None => {
                        tried.push(format!("{describe}: not printable as a stratification"));
                        continue;
                    }
                },
            };
            if !options.certify {
                return Ok(Stratified::Found {
                    stratification,
                    certified: false,
                    method: describe,
                });
            }
            progress(&format!("verifying a guess: {describe}"));
            match verify(game, &set)? {
                Verification::Certified { .. } => {
                    return Ok(Stratified::Found {
                        stratification,
                        certified: true,
                        method: describe,
                    })
                }
                Verification::Refuted { counterexample, .. } => {
                    tried.push(format!(
                        "{describe}: refuted at {} (weight {})",
                        counterexample.position, counterexample.weight
                    ));
                    let w = counterexample.weight.to_i64().unwrap_or(i64::MAX / 4);
                    next = next.max(2 * w);
                }
            }
        }
        bound = next;
    }
}

#[cfg(test)]
mod tests;
