//! Outcomes and winning moves of misère sums of heaps answered through their proved quotients,
//! at the language level: positions far past any search, checked against closed forms and
//! against the search itself (the memo solver) where it reaches.

mod common;

use common::run_script;

fn printed(script: &str) -> String {
    let (out, err) = run_script("<quotient answers>", script);
    assert!(err.is_none(), "{err:?}");
    out
}

/// Misère Nim with heaps up to 2 (quotient T2): n heaps of 1 alone are P exactly when n is
/// odd; with some heap of 2, P exactly when both counts are even.
#[test]
fn misere_nim_past_any_search() {
    let out = printed(
        "let G = game(nim(2), misere(nim(2)))\n\
         print(outcome(G, (10^9, 0)), outcome(G, (10^9 + 1, 0)), outcome(G, (10^30, 4)), outcome(G, (10^30, 5)))\n\
         print(winning_moves(G, (10^9, 3)))\n\
         print(outcome(G, (0, 0)))",
    );
    assert_eq!(out, "N P P N\n{(0, 1)}\ndefeated\n");
}

/// Misère Kayles on heaps up to 9 as a lattice game: positions with a million heaps answered
/// through the quotient agree with the quotient asked directly (heap lists), and positions the
/// search reaches agree with the search (`restrict`ed solutions of a box).
#[test]
fn misere_kayles_with_a_million_heaps() {
    let out = printed(
        "let K = octal(\"0.77\", 9, play: \"misere\")\n\
         let Q = misere_quotient(\"0.77\")\n\
         let p = (300000, 100000, 100000, 100000, 100000, 100000, 100000, 50000, 50001)\n\
         print(outcome(K, p))\n\
         let heaps = [h for h in range(1, 10) for i in range(p[h])]\n\
         print(len(heaps), outcome(Q, heaps))\n\
         let W = winning_moves(K, p)\n\
         print(len(W) > 0)\n\
         for m in W { assert outcome(K, p - m) == \"P\" }\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[1], format!("1000001 {}", lines[0]));
    assert_eq!(lines[2], if lines[0] == "N" { "true" } else { "false" });
}

/// Positions with more than 2^16 positions below them (which go through the quotient) agree
/// with a table solution of a box around them (the row solver, which knows nothing of heaps).
#[test]
fn the_quotient_agrees_with_the_search() {
    let out = printed(
        "let K = octal(\"0.77\", 4, play: \"misere\")\n\
         let S = solve(K, ((0, 0, 0, 0), (255, 255, 3, 3)))\n\
         let disagreements = 0\n\
         for a in range(248, 256) { for b in range(248, 256) { for c in range(1, 4) { for d in range(1, 4) {\n\
           let p = (a, b, c, d)\n\
           if outcome(K, p) != outcome(S, p) { disagreements = disagreements + 1 }\n\
         } } } }\n\
         print(disagreements)",
    );
    assert_eq!(out, "0\n");
}
