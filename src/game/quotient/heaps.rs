//! The heap games a misère quotient is computed for: a table of options per heap, from a
//! take-and-break code, a heap game given by its rules, or a lattice game that is a sum of heaps.
//!
//! A lattice game on N^d in misère play (D = {0}) whose every move has exactly one positive
//! entry, equal to 1, is a heap game: coordinate i counts heaps of type i, and the move
//! e_i − Σ c_j e_j replaces a heap of type i by c_j heaps of each type j. A position is then a
//! disjoint sum of single heaps, each moved independently, which is the setting of
//! Plambeck–Siegel's quotients. [GM09] Example 8.12 is such a game (type 3 moves only to type 2,
//! and so on). Axiom 1 (a functional ℓ positive on Γ and on the orthant) orders the types:
//! ℓ(e_i) > Σ c_j ℓ(e_j), so every part of an option is smaller in that order.

use crate::algebra::{Cone, Polyhedron, StratifiedSet};
use crate::game::heap::{HeapCode, HeapGame};
use crate::game::LatticeGame;

/// A heap game as the quotient algorithm takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapSystem {
    /// How the game prints ("0.77", or a description).
    pub name: String,
    /// `options[h]` for h = 0..=n (`options[0]` is empty): each option lists the heaps it
    /// leaves, all earlier in the table.
    pub options: Vec<Vec<Vec<usize>>>,
    /// The code, when the game is a take-and-break code (for the periodicity criterion).
    pub code: Option<HeapCode>,
    /// For a lattice game: the heap type of each coordinate.
    pub lattice_heaps: Option<Vec<usize>>,
}

impl HeapSystem {
    /// The heaps 1..=n of a code.
    pub fn from_code(code: &HeapCode, n: usize) -> HeapSystem {
        HeapSystem {
            name: code.to_string(),
            options: (0..=n)
                .map(|h| if h == 0 { Vec::new() } else { code.options(h) })
                .collect(),
            code: Some(code.clone()),
            lattice_heaps: None,
        }
    }

    /// [`HeapSystem::from_code`], refused before the options are listed when the heaps up to n
    /// could have more than `max_options` options in all.
    pub fn from_code_within(
        code: &HeapCode,
        n: usize,
        max_options: u128,
    ) -> Result<HeapSystem, crate::game::heap::HeapError> {
        let game = HeapGame::from_code_within(code, n, max_options)?;
        Ok(HeapSystem {
            code: Some(code.clone()),
            ..HeapSystem::from_heap_game(&game, code.to_string())
        })
    }

    /// The heaps of a heap game given by its rules.
    pub fn from_heap_game(game: &HeapGame, name: impl Into<String>) -> HeapSystem {
        HeapSystem {
            name: name.into(),
            options: (0..=game.max_heap())
                .map(|h| game.heap_options(h).to_vec())
                .collect(),
            code: None,
            lattice_heaps: None,
        }
    }

    /// The largest heap.
    pub fn max_heap(&self) -> usize {
        self.options.len() - 1
    }

    /// A lattice game that is a sum of heaps (see the module header), with its heap types
    /// numbered 1..=d in an order where options come first; `None` for any other game.
    pub fn from_lattice_game(game: &LatticeGame) -> Option<HeapSystem> {
        let d = game.dim();
        if !game.board().is_misere() || d == 0 {
            return None;
        }
        let orthant =
            StratifiedSet::from_polyhedron(&Polyhedron::Cone(Cone::orthant(d).ok()?)).ok()?;
        let points = crate::game::strategy::lattice_points(game).ok()?;
        if !points.set_eq(&orthant).ok()? {
            return None;
        }
        // Each move: the type it takes from and the parts it leaves (types with multiplicity).
        let mut moves_of: Vec<Vec<Vec<usize>>> = vec![Vec::new(); d];
        for m in game.rules().sparse_moves() {
            let mut from = None;
            let mut parts = Vec::new();
            for (i, x) in m.entries() {
                let x = x.to_i64()?;
                if x > 0 {
                    if x != 1 || from.is_some() {
                        return None;
                    }
                    from = Some(*i);
                } else {
                    let c = usize::try_from(-x).ok()?;
                    if c > 64 {
                        return None;
                    }
                    parts.extend(std::iter::repeat_n(*i, c));
                }
            }
            moves_of[from?].push(parts);
        }
        // Types in an order where every part comes before the heap it is left by (Kahn's
        // algorithm; axiom 1 rules out cycles).
        let mut waiting: Vec<usize> = vec![0; d];
        let mut users: Vec<Vec<usize>> = vec![Vec::new(); d];
        for (i, moves) in moves_of.iter().enumerate() {
            let mut parts: Vec<usize> = moves.iter().flatten().copied().collect();
            parts.sort_unstable();
            parts.dedup();
            waiting[i] = parts.len();
            for p in parts {
                users[p].push(i);
            }
        }
        let mut order: Vec<usize> = (0..d).filter(|&i| waiting[i] == 0).collect();
        let mut next = 0;
        while next < order.len() {
            let i = order[next];
            next += 1;
            for &u in &users[i] {
                waiting[u] -= 1;
                if waiting[u] == 0 {
                    order.push(u);
                }
            }
        }
        // A type without a move would be a P-position alone (it cannot move and is not
        // defeated), which no heap is: such games are not sums of heaps.
        if order.len() < d || moves_of.iter().any(Vec::is_empty) {
            return None;
        }
        let mut heap_of = vec![0usize; d];
        for (k, &i) in order.iter().enumerate() {
            heap_of[i] = k + 1;
        }
        let mut options = vec![Vec::new(); d + 1];
        for (i, moves) in moves_of.into_iter().enumerate() {
            options[heap_of[i]] = moves
                .into_iter()
                .map(|parts| {
                    let mut p: Vec<usize> = parts.into_iter().map(|j| heap_of[j]).collect();
                    p.sort_unstable();
                    p
                })
                .collect();
        }
        Some(HeapSystem {
            name: "the lattice game".into(),
            options,
            code: None,
            lattice_heaps: Some(heap_of),
        })
    }
}
