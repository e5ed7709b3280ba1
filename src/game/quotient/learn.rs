//! The last route to a quotient: learning it from exact misère outcomes (canonical forms), as
//! an automaton is learned from membership queries (Angluin's L*, with Rivest and Schapire's use
//! of counterexamples). Positions are told apart by their outcomes against a set of test
//! positions that grows by the counterexamples failed proofs name.

use std::collections::HashMap;

use super::proof::{prove, Witness};
use super::{
    finish, option_positions, Candidate, MisereQuotient, QuotientError, QuotientSolver, Trial,
};
use crate::algebra::monoid::Element;

/// Misère outcomes of positions (count vectors indexed by heap size): a position is a misère
/// P-position exactly when the misère nim value of its canonical form is 0, and its canonical
/// form is the sum of its heaps' forms (`MisereForms::sum`, memoized on pairs of forms, which
/// collapse far more than positions do).
pub(super) struct Outcomes<'a> {
    pub(super) heaps: crate::game::misere::HeapPositions<'a>,
    pub(super) n: usize,
    /// A quotient proved for heaps 1..=k: positions of those heaps are read off it.
    pub(super) known: Option<MisereQuotient>,
    pub(super) max_bytes: usize,
    pub(super) memo: HashMap<Vec<u16>, bool>,
}

impl Outcomes<'_> {
    pub(super) fn is_p(&mut self, g: &[u16]) -> Result<bool, QuotientError> {
        if let Some(&p) = self.memo.get(g) {
            return Ok(p);
        }
        if let Some(q) = &self.known {
            if g[q.n + 1..].iter().all(|&c| c == 0) {
                let x = g.iter().enumerate().skip(1).fold(0, |x, (h, &c)| {
                    (0..c).fold(x, |x, _| q.monoid.mul(x, q.heaps[h]))
                });
                return Ok(q.p_portion[x as usize]);
            }
        }
        let stop = |e: crate::game::misere::MisereError| match e {
            crate::game::misere::MisereError::Interrupted { .. } => {
                QuotientError::Interrupted { heap: 0 }
            }
            crate::game::misere::MisereError::TooLarge { max_bytes, .. } => {
                QuotientError::TooLarge {
                    heap: 0,
                    what: "bytes of misère canonical forms",
                    limit: max_bytes,
                }
            }
        };
        let mut form = 0;
        for (h, &c) in g.iter().enumerate().skip(1) {
            if c == 0 {
                continue;
            }
            let f = self.heaps.heap(h).map_err(stop)?;
            for _ in 0..c {
                form = self
                    .heaps
                    .forms()
                    .sum(form, f, self.max_bytes)
                    .map_err(|e| match e {
                        crate::game::misere::SumStop::Interrupted => {
                            QuotientError::Interrupted { heap: self.n }
                        }
                        crate::game::misere::SumStop::TooLarge => QuotientError::TooLarge {
                            heap: self.n,
                            what: "bytes of misère canonical forms",
                            limit: self.max_bytes,
                        },
                    })?;
            }
        }
        let p = self.heaps.forms().misere_value(form) == 0;
        self.memo.insert(g.to_vec(), p);
        Ok(p)
    }
}

impl QuotientSolver<'_> {
    /// The quotient of heaps 1..=n learned from outcomes, as an automaton is learned from
    /// membership queries (Angluin's L*, with Rivest and Schapire's use of counterexamples):
    /// positions are told apart by their outcomes against a set T of test positions (at first
    /// the empty position and each single heap), a candidate is built and proved, and a failed
    /// proof names a position the candidate predicts wrongly (a P-position with an option in P:
    /// one of the two is wrong; a position outside P without an option into P: either it, or one
    /// of its options, is wrong). Walking that position's heaps from the empty class finds two
    /// positions the candidate merged and a test that tells them apart; T grows by it, and the
    /// next candidate has more classes. Classes of T never outnumber the true quotient's
    /// elements, so this ends with the quotient (or at a limit).
    pub(super) fn learn(
        &mut self,
        n: usize,
        watch: &mut dyn FnMut(&Trial),
    ) -> Result<MisereQuotient, QuotientError> {
        self.outcomes.known = self.last.take().filter(|q| q.n + 1 == n);
        let width = self.system.max_heap() + 1;
        let options = &self.system.options[..=n];
        let live: Vec<usize> = (1..=n).filter(|&h| !options[h].is_empty()).collect();
        let mut slot = vec![None; width];
        for (i, &h) in live.iter().enumerate() {
            slot[h] = Some(i);
        }
        self.outcomes.n = n;
        let limits = self.limits;
        let mut tests: Vec<Vec<u16>> = window_tests(&live, width, 1);
        tests.extend(
            self.extra
                .iter()
                .filter(|t| t[n + 1..].iter().all(|&c| c == 0))
                .cloned(),
        );
        tests.sort();
        tests.dedup();
        let mut reason = String::from("no candidate tried");
        let mut classes = None;
        for _ in 0..limits.max_refinements {
            // Reported before the candidate is built: with many tests, building it is what
            // takes long (the outcomes of its positions against every test).
            watch(&Trial::Learning {
                heap: n,
                classes,
                tests: tests.len(),
            });
            let candidate = candidate(
                &mut self.outcomes,
                &live,
                width,
                &tests,
                limits.max_elements,
            )?;
            classes = Some(candidate.reps.len());
            let new_tests: Vec<Vec<u16>> = if let Some((x, i, j)) = non_commuting(&candidate) {
                // Adding heaps i and j does not commute on a class: the two results are told
                // apart by a test, which moved back by heap j (or i) separates what was merged.
                let mut p1 = candidate.reps[candidate.act[x][i] as usize].clone();
                p1[live[j]] += 1;
                let mut p2 = candidate.reps[candidate.act[x][j] as usize].clone();
                p2[live[i]] += 1;
                let mut split = None;
                for t in &tests {
                    let plus =
                        |g: &[u16]| -> Vec<u16> { g.iter().zip(t).map(|(a, b)| a + b).collect() };
                    if self.outcomes.is_p(&plus(&p1))? != self.outcomes.is_p(&plus(&p2))? {
                        split = Some(t.clone());
                        break;
                    }
                }
                reason = format!(
                    "adding heaps {} and {} does not commute on a class",
                    live[i], live[j]
                );
                match split {
                    Some(t) => [live[i], live[j]]
                        .iter()
                        .map(|&h| {
                            let mut u = t.clone();
                            u[h] += 1;
                            u
                        })
                        .collect(),
                    None => Vec::new(),
                }
            } else {
                match prove(&candidate, options, &live, n, limits.max_states)? {
                    Ok(_) => return Ok(finish(self.system, n, &candidate, &live)),
                    Err(failure) => {
                        reason = failure.reason;
                        match failure.witness {
                            Some(witness) => {
                                let wrong = self.mispredicted(&candidate, &slot, witness)?;
                                match wrong {
                                    Some(g) => self.separating_tests(&candidate, &slot, &g)?,
                                    None => Vec::new(),
                                }
                            }
                            None => Vec::new(),
                        }
                    }
                }
            };
            let before = tests.len();
            tests.extend(new_tests.iter().cloned());
            tests.sort();
            tests.dedup();
            if tests.len() == before {
                break;
            }
            self.extra.extend(new_tests);
            if crate::interrupt::requested() {
                return Err(QuotientError::Interrupted { heap: n });
            }
        }
        Err(QuotientError::NotProved {
            heap: n,
            tests: tests.len(),
            reason,
        })
    }

    /// A position of the witness whose outcome the candidate predicts wrongly.
    fn mispredicted(
        &mut self,
        c: &Candidate,
        slot: &[Option<usize>],
        witness: Witness,
    ) -> Result<Option<Vec<u16>>, QuotientError> {
        let wrong = |me: &mut Self, g: &[u16]| -> Result<bool, QuotientError> {
            Ok(me.outcomes.is_p(g)? != c.in_p[c.element(slot, g) as usize])
        };
        match witness {
            Witness::OptionInP { position, option } => {
                if wrong(self, &position)? {
                    Ok(Some(position))
                } else if wrong(self, &option)? {
                    Ok(Some(option))
                } else {
                    Ok(None)
                }
            }
            Witness::NoOptionIntoP { position } => {
                if wrong(self, &position)? {
                    return Ok(Some(position));
                }
                // G is truly outside P, so some option of it is a P-position the candidate
                // does not predict.
                let n = self.outcomes.n;
                for g in option_positions(&self.system.options[..=n], &position) {
                    if self.outcomes.is_p(&g)? {
                        return Ok(wrong(self, &g)?.then_some(g));
                    }
                }
                Ok(None)
            }
        }
    }

    /// Tests that split a class of the candidate, from a position g it predicts wrongly: along
    /// g's heaps h_1, …, h_m, with x_i the class after the first i, the outcome of
    /// rep(x_i) + h_(i+1) + … + h_m is g's own at i = 0 and the prediction at i = m, so it
    /// changes at some i; there rep(x_i) + h_(i+1) and rep(x_(i+1)), merged by the candidate,
    /// differ by the rest s = h_(i+2) + … + h_m. Returns s and what it leaves when its heaps
    /// are taken away one by one (so the tests stay closed under such suffixes).
    fn separating_tests(
        &mut self,
        c: &Candidate,
        slot: &[Option<usize>],
        g: &[u16],
    ) -> Result<Vec<Vec<u16>>, QuotientError> {
        let heaps: Vec<usize> = g
            .iter()
            .enumerate()
            .filter(|(h, _)| slot[*h].is_some())
            .flat_map(|(h, &count)| std::iter::repeat_n(h, count as usize))
            .collect();
        // Dead heaps change nothing: the walk starts from g without them.
        let mut rest = vec![0u16; g.len()];
        for &h in &heaps {
            rest[h] += 1;
        }
        let value = |me: &mut Self, x: Element, rest: &[u16]| -> Result<bool, QuotientError> {
            let g: Vec<u16> = c.reps[x as usize]
                .iter()
                .zip(rest)
                .map(|(a, b)| a + b)
                .collect();
            me.outcomes.is_p(&g)
        };
        let mut x: Element = 0;
        let mut here = value(self, x, &rest)?;
        for &h in &heaps {
            let next = c.act[x as usize][slot[h].unwrap_or(0)];
            rest[h] -= 1;
            let there = value(self, next, &rest)?;
            if there != here {
                let mut tests = vec![rest.clone()];
                let mut s = rest.clone();
                for &k in heaps.iter().rev() {
                    if s[k] > 0 && s.iter().any(|&c| c > 0) {
                        s[k] -= 1;
                        tests.push(s.clone());
                    }
                }
                return Ok(tests);
            }
            x = next;
            here = there;
        }
        Ok(Vec::new())
    }
}

/// The first class x and live heaps i < j with x·i·j ≠ x·j·i.
pub(super) fn non_commuting(c: &Candidate) -> Option<(usize, usize, usize)> {
    let k = c.act.first().map_or(0, Vec::len);
    for x in 0..c.act.len() {
        for i in 0..k {
            for j in i + 1..k {
                if c.act[c.act[x][i] as usize][j] != c.act[c.act[x][j] as usize][i] {
                    return Some((x, i, j));
                }
            }
        }
    }
    None
}

/// Every multiset of at most `window` live heaps, as count vectors (the first tests).
pub(super) fn window_tests(live: &[usize], width: usize, window: usize) -> Vec<Vec<u16>> {
    let mut tests: Vec<Vec<u16>> = vec![vec![0; width]];
    let mut layer = tests.clone();
    for _ in 0..window {
        let mut next = Vec::new();
        for t in &layer {
            // Nondecreasing heaps: add only heaps ≥ the largest present.
            let top = (1..width).rev().find(|&h| t[h] > 0).unwrap_or(0);
            for &h in live.iter().filter(|&&h| h >= top) {
                let mut u = t.clone();
                u[h] += 1;
                next.push(u);
            }
        }
        tests.extend(next.iter().cloned());
        layer = next;
    }
    tests
}

pub(super) fn candidate(
    outcomes: &mut Outcomes<'_>,
    live: &[usize],
    width: usize,
    tests: &[Vec<u16>],
    max_elements: usize,
) -> Result<Candidate, QuotientError> {
    let signature = |outcomes: &mut Outcomes<'_>, g: &[u16]| -> Result<Vec<bool>, QuotientError> {
        tests
            .iter()
            .map(|t| {
                let sum: Vec<u16> = g.iter().zip(t).map(|(a, b)| a + b).collect();
                outcomes.is_p(&sum)
            })
            .collect()
    };
    let empty = vec![0u16; width];
    let mut reps: Vec<Vec<u16>> = vec![empty.clone()];
    let mut index: HashMap<Vec<bool>, Element> = HashMap::from([(signature(outcomes, &empty)?, 0)]);
    let mut act: Vec<Vec<Element>> = Vec::new();
    let mut next = 0;
    while next < reps.len() {
        let mut row = Vec::with_capacity(live.len());
        for &h in live {
            let mut g = reps[next].clone();
            g[h] += 1;
            let s = signature(outcomes, &g)?;
            let id = match index.get(&s) {
                Some(&id) => id,
                None => {
                    if reps.len() >= max_elements {
                        return Err(QuotientError::TooLarge {
                            heap: outcomes.n,
                            what: "elements",
                            limit: max_elements,
                        });
                    }
                    let id = reps.len() as Element;
                    index.insert(s, id);
                    reps.push(g);
                    id
                }
            };
            row.push(id);
        }
        act.push(row);
        next += 1;
    }
    let in_p = reps
        .iter()
        .map(|g| outcomes.is_p(g))
        .collect::<Result<_, _>>()?;
    Ok(Candidate { reps, act, in_p })
}
