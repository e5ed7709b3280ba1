//! The checks behind the fuzz targets (`fuzz/fuzz_targets/*.rs`, run with `cargo +nightly fuzz
//! run TARGET`) and behind the replay of their corpus in `cargo test` (`tests/fuzz_corpus.rs`):
//! one function per target, taking the fuzzer's bytes, that panics exactly when it finds a
//! crash or a wrong answer. Wrong answers are found differentially: the library's result against
//! a brute force written here from the definitions (points of a module by enumeration, Grundy
//! values by mex over the options a code's digits allow, P-positions by recursion).
//!
//! Not part of the library's interface (hidden from its documentation).

use std::collections::{BTreeSet, HashMap};

use crate::algebra::{AffineModule, AffineSemigroup, Polyhedron, StratifiedSet, Vector};
use crate::eval::{Interpreter, Style};
use crate::game::{GameBoard, LatticeGame, RuleSet};

/// Small numbers drawn from the fuzzer's bytes (zeros once they run out).
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    /// A number in 0..n.
    fn below(&mut self, n: u8) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                b % n.max(1)
            }
            None => 0,
        }
    }

    /// A number in lo..=hi.
    fn between(&mut self, lo: i64, hi: i64) -> i64 {
        lo + i64::from(self.below((hi - lo + 1) as u8))
    }

    fn vector(&mut self, d: usize, lo: i64, hi: i64) -> Vec<i64> {
        (0..d).map(|_| self.between(lo, hi)).collect()
    }
}

/// Parses and evaluates arbitrary text (with a step limit): nothing may panic, and every error
/// renders as a diagnostic.
pub fn parse_eval(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let mut interp = Interpreter::with_output(Box::new(std::io::sink()));
        interp.set_step_limit(Some(50_000));
        if let Err(e) = interp.run("<fuzz>", text) {
            let _ = interp.render(&e, Style::Plain);
        }
    }
}

/// A take-and-break code from arbitrary text: parsing never panics, and for an octal or
/// hexadecimal code with at most eight digits after the point the Grundy values of heaps up to
/// 24 equal the mex over the options its digits allow, computed here from the digits alone.
pub fn take_break(data: &[u8]) {
    use crate::game::take_break::HeapCode;
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(code) = HeapCode::parse(text) else {
        return;
    };
    let n = 24;
    let Some(digits) = code.octal_digits(n) else {
        return;
    };
    if digits.len() > 9 || digits.iter().any(|&x| x > 15) {
        return;
    }
    let values = crate::game::grundy::octal_values(&code, n, 1 << 26, &mut |_, _| {})
        .expect("octal values of small heaps");
    assert_eq!(values, octal_mex(&digits, n), "the Grundy values of {text}");
}

/// Grundy values of heaps 0..=n of the octal (or hexadecimal) game whose digit j is
/// `digits[j]`: taking j tokens may leave no heap (bit 1, only when the heap had exactly j), one
/// heap (bit 2), two nonempty heaps (bit 4) or three (bit 8); for j = 0 only the splits count.
fn octal_mex(digits: &[u8], n: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(n + 1);
    for h in 0..=n {
        let mut seen = BTreeSet::new();
        for (j, &digit) in digits.iter().enumerate() {
            if j > h {
                break;
            }
            let rest = h - j;
            // Taking nothing may only split the heap (bits 4 and 8 of digit 0, as in 4.07).
            if digit & 1 != 0 && rest == 0 && j > 0 {
                seen.insert(0);
            }
            if digit & 2 != 0 && rest > 0 && j > 0 {
                seen.insert(g[rest]);
            }
            if digit & 4 != 0 && rest >= 2 {
                for a in 1..rest {
                    seen.insert(g[a] ^ g[rest - a]);
                }
            }
            if digit & 8 != 0 && rest >= 3 {
                for a in 1..rest {
                    for b in 1..rest - a {
                        seen.insert(g[a] ^ g[b] ^ g[rest - a - b]);
                    }
                }
            }
        }
        g.push((0..).find(|v| !seen.contains(v)).expect("a missing value"));
    }
    g
}

/// The points of F + N{a} (nonnegative generators) in the box [0, hi]^d, by enumeration.
fn module_points(offsets: &[Vec<i64>], gens: &[Vec<i64>], hi: i64) -> BTreeSet<Vec<i64>> {
    let mut seen: BTreeSet<Vec<i64>> = BTreeSet::new();
    let mut stack: Vec<Vec<i64>> = offsets.to_vec();
    while let Some(p) = stack.pop() {
        if p.iter().any(|&x| x < 0 || x > hi) || !seen.insert(p.clone()) {
            continue;
        }
        for g in gens {
            stack.push(p.iter().zip(g).map(|(x, y)| x + y).collect());
        }
    }
    seen
}

/// Two random modules F + N{a} in d = 2 or 3 with offsets in [0, 4]^d and nonnegative
/// generators: their union, intersection and differences, membership against the enumerated
/// points in a box, the counts of each result within the box (Barvinok), and the printed
/// stratification read back as the same set.
pub fn set_algebra(data: &[u8]) {
    let mut b = Bytes(data);
    let d = b.between(2, 3) as usize;
    let module = |b: &mut Bytes| {
        let offsets: Vec<Vec<i64>> = (0..b.between(1, 3)).map(|_| b.vector(d, 0, 4)).collect();
        let gens: Vec<Vec<i64>> = (0..b.between(0, 3))
            .map(|_| b.vector(d, 0, 3))
            .filter(|g| g.iter().any(|&x| x != 0))
            .collect();
        (offsets, gens)
    };
    let (fs, gs) = module(&mut b);
    let (ft, gt) = module(&mut b);
    let build = |f: &[Vec<i64>], g: &[Vec<i64>]| {
        let vectors = |v: &[Vec<i64>]| v.iter().map(|x| Vector::from_i64s(x)).collect::<Vec<_>>();
        let a = AffineSemigroup::with_dim(d, vectors(g)).expect("a semigroup");
        let m = AffineModule::new(vectors(f), a).expect("a module");
        StratifiedSet::from_module(&m).expect("a set")
    };
    let (s, t) = (build(&fs, &gs), build(&ft, &gt));
    let hi = if d == 2 { 12 } else { 7 };
    let (ps, pt) = (module_points(&fs, &gs, hi), module_points(&ft, &gt, hi));
    type Rule = fn(bool, bool) -> bool;
    let results: [(&str, _, Rule); 3] = [
        ("∪", s.union(&t), |a, b| a || b),
        ("∩", s.intersect(&t), |a, b| a && b),
        ("∖", s.difference(&t), |a, b| a && !b),
    ];
    let box_set = StratifiedSet::from_polyhedron(&box_polyhedron(d, hi)).expect("a box");
    let all = module_points(&[vec![0; d]], &unit_vectors(d), hi);
    for (op, result, rule) in results {
        let Ok(result) = result else { continue };
        let expected: BTreeSet<Vec<i64>> = all
            .iter()
            .filter(|p| rule(ps.contains(*p), pt.contains(*p)))
            .cloned()
            .collect();
        for p in &all {
            assert_eq!(
                result.contains(&Vector::from_i64s(p)),
                expected.contains(p),
                "{p:?} in S {op} T for S = {fs:?} + N{gs:?}, T = {ft:?} + N{gt:?}"
            );
        }
        if let Ok(Some(n)) = result.intersect(&box_set).and_then(|r| r.count_points()) {
            assert_eq!(n, expected.len().into(), "#(S {op} T) in the box");
        }
        if let Ok(Some(strat)) = result.to_stratification_within(20_000) {
            let back = StratifiedSet::from_stratification(&strat)
                .expect("the printed form reads back")
                .expect("printed pieces are disjoint");
            assert!(
                back.set_eq(&result).expect("=="),
                "S {op} T printed as {strat}"
            );
        }
    }
}

fn unit_vectors(d: usize) -> Vec<Vec<i64>> {
    (0..d)
        .map(|i| (0..d).map(|j| i64::from(i == j)).collect())
        .collect()
}

/// [0, hi]^d as a polyhedron.
fn box_polyhedron(d: usize, hi: i64) -> Polyhedron {
    use num_rational::BigRational;
    let mut rows = Vec::new();
    let mut rhs = Vec::new();
    for i in 0..d {
        let e = Vector::unit(d, i);
        rows.push(e.0.clone());
        rhs.push(BigRational::from_integer(0.into()));
        rows.push(e.scale(&crate::algebra::Integer::from(-1)).0);
        rhs.push(BigRational::from_integer((-hi).into()));
    }
    Polyhedron::from_inequalities(crate::algebra::Matrix::from_rows(rows).expect("rows"), rhs)
        .expect("a box")
}

/// A random game on N^d (d = 2 or 3) with 1–4 moves, in normal or misère play: when `stratify`
/// certifies a stratification, it agrees with the P-positions computed here by recursion on
/// every position of a box.
pub fn stratify_verify(data: &[u8]) {
    use crate::game::stratify::{stratify, Stratified, StratifyOptions};
    let mut b = Bytes(data);
    let d = b.between(2, 3) as usize;
    let moves: Vec<Vec<i64>> = (0..b.between(1, 4))
        .map(|_| b.vector(d, -1, 2))
        .filter(|g| g.iter().any(|&x| x != 0))
        .collect();
    let misere = b.below(2) == 1;
    let Ok(rules) = RuleSet::new(moves.iter().map(|g| Vector::from_i64s(g)).collect()) else {
        return;
    };
    let board = if misere {
        GameBoard::misere(d)
    } else {
        GameBoard::normal_play(d)
    }
    .expect("a board");
    let Ok(game) = LatticeGame::new(rules, board) else {
        return;
    };
    let options = StratifyOptions {
        max_weight: Some(24),
        timeout: Some(std::time::Duration::from_secs(2)),
        ..StratifyOptions::default()
    };
    let Ok(Stratified::Found {
        stratification,
        certified: true,
        ..
    }) = stratify(&game, &options, &mut |_| {})
    else {
        return;
    };
    let set = StratifiedSet::from_stratification(&stratification)
        .expect("a set")
        .expect("a certified stratification has disjoint pieces");
    let mut memo: HashMap<Vec<i64>, bool> = HashMap::new();
    let hi = if d == 2 { 10 } else { 5 };
    for p in module_points(&[vec![0; d]], &unit_vectors(d), hi) {
        let expected = is_p(&p, &moves, misere, &mut memo);
        assert_eq!(
            set.contains(&Vector::from_i64s(&p)),
            expected,
            "{p:?} for moves {moves:?}, misère {misere}: stratify gave {stratification}"
        );
    }
}

/// Whether p is a P-position of the game on N^d with these moves, by the definition: p is on the
/// board (N^d, without the origin in misère play, whose defeated ideal is {0}) and none of its
/// options p − γ on the board is a P-position.
fn is_p(p: &[i64], moves: &[Vec<i64>], misere: bool, memo: &mut HashMap<Vec<i64>, bool>) -> bool {
    if let Some(&v) = memo.get(p) {
        return v;
    }
    let on_board = |q: &[i64]| q.iter().all(|&x| x >= 0) && !(misere && q.iter().all(|&x| x == 0));
    let mut answer = on_board(p);
    if answer {
        for g in moves {
            let q: Vec<i64> = p.iter().zip(g).map(|(x, y)| x - y).collect();
            if on_board(&q) && is_p(&q, moves, misere, memo) {
                answer = false;
                break;
            }
        }
    }
    memo.insert(p.to_vec(), answer);
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octal_mex_knows_kayles_and_nim() {
        // Kayles, 0.77: 0 1 2 3 1 4 3 2 1 4 2 6.
        assert_eq!(
            octal_mex(&[0, 7, 7], 11),
            [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
        );
        // Dawson's Kayles, 0.07: 0 0 1 1 2 0 3 1 1 0 3 3.
        assert_eq!(
            octal_mex(&[0, 0, 7], 11),
            [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3]
        );
        // 0.88 (the fuzzer's first finding was this brute force ignoring bit 8): take 1 or 2
        // and leave exactly three heaps, so g(h) = ⌊(h − 1)/3⌋ for h ≥ 1.
        let g = octal_mex(&[0, 8, 8], 24);
        assert!((1..=24).all(|h| g[h] as usize == (h - 1) / 3), "{g:?}");
        // 4.07 splits a heap without taking: 4.07 and 0.07 differ from heap 2 on.
        assert_eq!(&octal_mex(&[4, 0, 7], 6)[..3], [0, 0, 1]);
        assert_ne!(octal_mex(&[4, 0, 7], 12), octal_mex(&[0, 0, 7], 12));
    }

    #[test]
    fn the_fuzzers_findings_hold() {
        // Both were findings against this file's brute force, not the library: bit 8 (three
        // heaps) and digit 0 (splitting without taking) were missing here.
        take_break(b"0.88");
        take_break(b"4.dD");
    }

    #[test]
    fn misere_nim_on_one_heap_by_recursion() {
        // One heap, moves e_1: P-positions of misère play are the odd heaps.
        let mut memo = HashMap::new();
        let ps: Vec<i64> = (0..8)
            .filter(|&k| is_p(&[k], &[vec![1]], true, &mut memo))
            .collect();
        assert_eq!(ps, [1, 3, 5, 7]);
    }
}
