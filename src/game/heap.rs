//! Heap games as lattice games ([GM09] Examples 2.1, 2.5 and 6.4): a position counts the heaps of
//! each size, and a move replaces one heap of size h by heaps a, b, … of smaller total, the vector
//! e_h − e_a − e_b − …. Octal and hexadecimal codes d0.d1d2… describe the classical ones: digit
//! d_k has bit 1 when k beans may be taken leaving no heap, bit 2 leaving one nonempty heap, bit 4
//! leaving two, bit 8 leaving three (hexadecimal). Heap sizes from which no move exists are ignored
//! ([GM09] Example 6.4): they get no coordinate, as if they were empty, which is what keeps the
//! tangent cone axiom true. Such games are squarefree (the Erratum's Proposition 1).
//!
//! Sprague–Grundy values are computed directly from the heap rules by the mex rule, independently
//! of the lattice game.

use std::collections::BTreeSet;

pub use super::take_break::{CodeError, HeapCode};

use super::{GameBoard, GameError, LatticeGame, RuleSet};
use crate::algebra::{Integer, SparseVector};

/// What can go wrong with a heap game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeapError {
    /// A code that cannot be read.
    #[error(transparent)]
    BadCode(#[from] CodeError),
    /// A rule replacing a heap by parts that are not smaller.
    #[error("a heap of size {heap} cannot become heaps {parts:?}: the parts must be nonempty and add up to less than {heap} (or to {heap} with at least two parts)")]
    BadRule {
        /// The heap size.
        heap: usize,
        /// The parts.
        parts: Vec<usize>,
    },
    /// The lattice game would not fit in memory.
    #[error("the lattice game of heaps up to {n} has {moves} moves in dimension {dim}, which need about {need_mib} MiB, more than the {budget_mib} MiB available")]
    TooLarge {
        /// The largest heap size.
        n: usize,
        /// The number of moves.
        moves: usize,
        /// The dimension (heap sizes with a move).
        dim: usize,
        /// The estimated memory in MiB.
        need_mib: u64,
        /// The memory budget in MiB.
        budget_mib: u64,
    },
    /// The heaps up to n may have too many options to list.
    #[error("the heaps up to size {heap} may already have more than {limit} options in all, too many to list")]
    TooManyOptions {
        /// The heap at which the bound passed the limit.
        heap: usize,
        /// The limit.
        limit: u128,
    },
    /// Stopped with Ctrl-C.
    #[error("the computation was stopped with Ctrl-C")]
    Interrupted,
    /// No heap size up to n has a move.
    #[error("no heap of size at most {0} has a move, so the game has no positions with moves")]
    NoMoves(usize),
    /// The lattice game could not be built.
    #[error(transparent)]
    Game(#[from] GameError),
}

/// A heap game with heaps of size at most n: for each size, what a heap may become.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapGame {
    n: usize,
    /// options[h] for h in 0..=n (options[0] is empty).
    options: Vec<Vec<Vec<usize>>>,
}

impl HeapGame {
    /// The game of a code, heaps ≤ n.
    pub fn from_code(code: &HeapCode, n: usize) -> HeapGame {
        HeapGame {
            n,
            options: (0..=n)
                .map(|h| if h == 0 { vec![] } else { code.options(h) })
                .collect(),
        }
    }

    /// [`HeapGame::from_code`], refused with [`HeapError::TooManyOptions`] before listing them
    /// when the heaps up to n could have more than `max_options` options in all (codes such as
    /// `{2+}.0` have exponentially many).
    pub fn from_code_within(
        code: &HeapCode,
        n: usize,
        max_options: u128,
    ) -> Result<HeapGame, HeapError> {
        HeapGame::from_code_reporting(code, n, max_options, &mut |_| {})
    }

    /// [`HeapGame::from_code_within`], calling `report(h)` after the options of each heap h are
    /// listed and stopping with [`HeapError::Interrupted`] on Ctrl-C.
    pub fn from_code_reporting(
        code: &HeapCode,
        n: usize,
        max_options: u128,
        report: &mut dyn FnMut(usize),
    ) -> Result<HeapGame, HeapError> {
        code.option_bound(n, max_options)
            .map_err(|heap| HeapError::TooManyOptions {
                heap,
                limit: max_options,
            })?;
        let mut options = Vec::with_capacity(n + 1);
        options.push(vec![]);
        for h in 1..=n {
            if crate::interrupt::requested() {
                return Err(HeapError::Interrupted);
            }
            options.push(code.options(h));
            report(h);
        }
        Ok(HeapGame { n, options })
    }

    /// The game given by explicit rules (h, parts): a heap of size h may become the heaps `parts`.
    pub fn from_rules(n: usize, rules: &[(usize, Vec<usize>)]) -> Result<HeapGame, HeapError> {
        let mut options = vec![BTreeSet::new(); n + 1];
        for (h, parts) in rules {
            let total: usize = parts.iter().sum();
            let ok = *h >= 1
                && parts.iter().all(|&p| p >= 1)
                && (total < *h || (total == *h && parts.len() >= 2));
            if !ok {
                return Err(HeapError::BadRule {
                    heap: *h,
                    parts: parts.clone(),
                });
            }
            if *h <= n {
                let mut p = parts.clone();
                p.sort_unstable();
                options[*h].insert(p);
            }
        }
        Ok(HeapGame {
            n,
            options: options
                .into_iter()
                .map(|s| s.into_iter().collect())
                .collect(),
        })
    }

    /// The largest heap size n.
    pub fn max_heap(&self) -> usize {
        self.n
    }

    /// The options of heap h (each the list of heaps it leaves); none past n.
    pub fn heap_options(&self, h: usize) -> &[Vec<usize>] {
        self.options.get(h).map_or(&[], |o| &o[..])
    }

    /// The heap sizes that have a move, in increasing order: coordinate i stands for the i-th.
    pub fn kept_sizes(&self) -> Vec<usize> {
        (1..=self.n)
            .filter(|&h| !self.options[h].is_empty())
            .collect()
    }

    /// The lattice game on N^k (k kept sizes), in normal or misère play.
    pub fn lattice_game(&self, misere: bool) -> Result<LatticeGame, HeapError> {
        self.lattice_game_within(misere, u64::MAX)
    }

    /// [`HeapGame::lattice_game`], refused with [`HeapError::TooLarge`] before anything is
    /// allocated when its moves, as dense vectors, would need more than `max_bytes`. The axioms
    /// hold by [GM09] Example 2.5 and are certified in time linear in the moves (a heap's size
    /// squared bounds a positive functional; every move from a heap lies in its negative tangent
    /// cone), with no double description.
    pub fn lattice_game_within(
        &self,
        misere: bool,
        max_bytes: u64,
    ) -> Result<LatticeGame, HeapError> {
        self.lattice_game_reporting(misere, max_bytes, &mut |_, _| {})
    }

    /// [`HeapGame::lattice_game_within`], calling `report(built, moves)` as the moves are built
    /// and stopping with [`HeapError::Interrupted`] on Ctrl-C.
    pub fn lattice_game_reporting(
        &self,
        misere: bool,
        max_bytes: u64,
        report: &mut dyn FnMut(usize, usize),
    ) -> Result<LatticeGame, HeapError> {
        let kept = self.kept_sizes();
        let d = kept.len();
        if d == 0 {
            return Err(HeapError::NoMoves(self.n));
        }
        let moves: usize = kept.iter().map(|&h| self.options[h].len()).sum();
        // Each move is kept by its nonzero entries (at most one per heap plus the one taken from),
        // with the rule set's table of seen moves beside it.
        let entry = std::mem::size_of::<(usize, crate::algebra::Integer)>() as u64;
        let need: u64 = kept
            .iter()
            .flat_map(|&h| self.options[h].iter())
            .map(|parts| (parts.len() as u64 + 1) * entry + 64)
            .sum::<u64>()
            .saturating_mul(2);
        if need > max_bytes {
            return Err(HeapError::TooLarge {
                n: self.n,
                moves,
                dim: d,
                need_mib: need >> 20,
                budget_mib: max_bytes >> 20,
            });
        }
        let mut coordinate: Vec<Option<usize>> = vec![None; self.n + 1];
        for (i, &h) in kept.iter().enumerate() {
            coordinate[h] = Some(i);
        }
        let total = moves;
        let mut moves = Vec::with_capacity(moves);
        for &h in &kept {
            if crate::interrupt::requested() {
                return Err(HeapError::Interrupted);
            }
            report(moves.len(), total);
            for parts in &self.options[h] {
                let mut entries = vec![(coordinate[h].expect("kept"), Integer::ONE)];
                entries.extend(
                    parts
                        .iter()
                        .filter_map(|&p| coordinate[p])
                        .map(|i| (i, Integer::from(-1))),
                );
                let m = SparseVector::from_entries(entries);
                if !m.is_zero() {
                    moves.push(m);
                }
            }
        }
        report(total, total);
        let rules = RuleSet::from_sparse(d, moves)?;
        let board = if misere {
            GameBoard::misere(d)?
        } else {
            GameBoard::normal_play(d)?
        };
        Ok(LatticeGame::new(rules, board)?)
    }

    /// Sprague–Grundy values of heaps 0..=n in normal play: g(h) = mex over the options of the
    /// XOR of the values of their parts.
    pub fn grundy(&self) -> Vec<u64> {
        let mut g: Vec<u64> = Vec::with_capacity(self.n + 1);
        for h in 0..=self.n {
            let seen: BTreeSet<u64> = self.options[h]
                .iter()
                .map(|parts| parts.iter().fold(0, |x, &p| x ^ g[p]))
                .collect();
            g.push((0..).find(|v| !seen.contains(v)).expect("mex exists"));
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::solver::{squarefree_p0, MemoSolver, Outcome};

    /// Grundy values by brute force on multisets of heaps, from the raw octal digits.
    fn brute_grundy(code: &[u8], n: usize) -> Vec<u64> {
        fn value(h: usize, code: &[u8], memo: &mut Vec<Option<u64>>) -> u64 {
            if let Some(v) = memo[h] {
                return v;
            }
            let mut seen = Vec::new();
            for (k, &d) in code.iter().enumerate() {
                if k > h {
                    break;
                }
                let rest = h - k;
                if d & 1 == 1 && rest == 0 && k > 0 {
                    seen.push(0);
                }
                if d & 2 == 2 && rest > 0 && k > 0 {
                    seen.push(value(rest, code, memo));
                }
                if d & 4 == 4 {
                    for a in 1..rest {
                        let b = rest - a;
                        if a <= b && !(k == 0 && (a == h || b == h)) {
                            seen.push(value(a, code, memo) ^ value(b, code, memo));
                        }
                    }
                }
            }
            let v = (0..).find(|v| !seen.contains(v)).unwrap();
            memo[h] = Some(v);
            v
        }
        let mut memo = vec![None; n + 1];
        (0..=n).map(|h| value(h, code, &mut memo)).collect()
    }

    #[test]
    fn grundy_values_of_kayles_and_dawsons_chess() {
        // Kayles (0.77) and Dawson's chess (0.137), checked by brute force and against the first
        // values printed in the literature.
        for (code, digits, start) in [
            (
                "0.77",
                vec![0u8, 7, 7],
                vec![0u64, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6],
            ),
            (
                "0.137",
                vec![0, 1, 3, 7],
                vec![0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2],
            ),
        ] {
            let g = HeapGame::from_code(&HeapCode::parse(code).unwrap(), 40).grundy();
            assert_eq!(g, brute_grundy(&digits, 40), "{code}");
            assert_eq!(g[..12], start[..], "{code}");
        }
    }

    /// Positions of octal games are P-positions exactly when the XOR of their heaps' Grundy
    /// values is 0 (Sprague–Grundy), checked with the single-position solver and the squarefree
    /// algorithm on all positions with at most 3 heaps.
    #[test]
    fn p_positions_are_zero_xor() {
        for code in ["0.137", "0.77", "0.07", "0.6", "0.4", "4.07"] {
            let game = HeapGame::from_code(&HeapCode::parse(code).unwrap(), 12);
            let g = game.grundy();
            let kept = game.kept_sizes();
            let lattice = game.lattice_game(false).unwrap();
            assert!(
                crate::game::axioms::is_squarefree(lattice.rules()),
                "{code}"
            );
            let mut memo = MemoSolver::new(&lattice).unwrap();
            let sf = squarefree_p0(&lattice).unwrap();
            let d = kept.len();
            let mut positions = vec![vec![0i64; d]];
            for i in 0..d {
                for j in i..d {
                    for k in j..d {
                        let mut p = vec![0i64; d];
                        p[i] += 1;
                        p[j] += 1;
                        p[k] += 1;
                        positions.push(p.clone());
                        p[k] -= 1;
                        positions.push(p);
                    }
                }
            }
            for p in positions {
                let xor = p
                    .iter()
                    .zip(&kept)
                    .fold(0, |x, (&c, &h)| if c % 2 == 1 { x ^ g[h] } else { x });
                let want = if xor == 0 { Outcome::P } else { Outcome::N };
                assert_eq!(memo.outcome(&p).unwrap(), want, "{code} at {p:?}");
                let parity: Vec<bool> = p.iter().map(|x| x % 2 == 1).collect();
                assert_eq!(sf.is_p(&parity), xor == 0, "{code} at {p:?}");
            }
        }
    }

    #[test]
    fn a_game_too_large_for_memory_is_refused_before_it_is_built() {
        let game = HeapGame::from_code(&HeapCode::parse("0.77").unwrap(), 100);
        match game.lattice_game_within(false, 1 << 20) {
            Err(HeapError::TooLarge { moves, dim, .. }) => assert_eq!((moves, dim), (5050, 100)),
            other => panic!("{other:?}"),
        }
        assert!(game.lattice_game_within(false, 1 << 30).is_ok());
    }

    /// Kayles with heaps up to 400 (80,200 moves in dimension 400) is built from its moves'
    /// nonzero entries in a few megabytes (as dense vectors it would take 500 MB), and single
    /// positions of its misère game are solved in that dimension, as an independent recursion
    /// over multisets of heaps says.
    #[test]
    fn big_heap_games_are_kept_sparse_and_solved_in_misere_play() {
        let game = HeapGame::from_code(&HeapCode::parse("0.77").unwrap(), 400);
        let misere = game.lattice_game_within(true, 64 << 20).unwrap();
        assert_eq!((misere.dim(), misere.rules().len()), (400, 80_200));
        assert!(misere.rules().dense_bytes() > 480 << 20);
        // Misère Kayles by recursion: a position (sorted heaps) is P when it has options and
        // every option is N; with no option the player to move has won (N).
        fn brute(
            heaps: Vec<usize>,
            memo: &mut std::collections::HashMap<Vec<usize>, bool>,
        ) -> bool {
            if let Some(&p) = memo.get(&heaps) {
                return p;
            }
            let mut options = Vec::new();
            for (i, &h) in heaps.iter().enumerate() {
                for take in 1..=2.min(h) {
                    for left in 0..=h - take {
                        let right = h - take - left;
                        if left > right {
                            continue;
                        }
                        let mut q = heaps.clone();
                        q.remove(i);
                        q.extend([left, right].into_iter().filter(|&x| x > 0));
                        q.sort();
                        options.push(q);
                    }
                }
            }
            let p = !options.is_empty() && options.into_iter().all(|q| !brute(q, memo));
            memo.insert(heaps, p);
            p
        }
        let mut memo = std::collections::HashMap::new();
        let mut solver = MemoSolver::new(&misere).unwrap();
        for a in 1..=9usize {
            for b in a..=9 {
                for c in [0, 1, 2, 5] {
                    let mut heaps = vec![a, b];
                    let mut p = vec![0i64; 400];
                    p[a - 1] += 1;
                    p[b - 1] += 1;
                    if c > 0 {
                        heaps.push(c);
                        p[c - 1] += 1;
                    }
                    heaps.sort();
                    let want = if brute(heaps.clone(), &mut memo) {
                        Outcome::P
                    } else {
                        Outcome::N
                    };
                    assert_eq!(solver.outcome(&p).unwrap(), want, "{heaps:?}");
                }
            }
        }
    }

    #[test]
    fn dawsons_kayles_ignores_heaps_of_size_one() {
        let game = HeapGame::from_code(&HeapCode::parse("0.07").unwrap(), 5);
        assert_eq!(game.kept_sizes(), vec![2, 3, 4, 5]);
        assert!(game.lattice_game(true).is_ok());
    }

    #[test]
    fn explicit_rules() {
        // Nim with heaps ≤ 3 as explicit rules.
        let rules: Vec<(usize, Vec<usize>)> = (1..=3)
            .flat_map(|h| (0..h).map(move |j| (h, if j == 0 { vec![] } else { vec![j] })))
            .collect();
        let game = HeapGame::from_rules(3, &rules).unwrap();
        assert_eq!(game.grundy(), vec![0, 1, 2, 3]);
        assert!(HeapGame::from_rules(3, &[(2, vec![2])]).is_err());
    }
}
