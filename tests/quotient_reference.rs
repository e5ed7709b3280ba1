//! Misère quotients of the three-digit octal codes against MisereSolver's values, recorded in
//! `reference_tools/miseresolver_three_digit_codes.tsv` (which names the MisereSolver build and
//! the heap of each code; the tool itself is not needed here). The codes whose quotient has at
//! most [`MOST_ELEMENTS`] elements are computed again, a few seconds in all: the same |Q| and |P|
//! at the same heap, and final wherever MisereSolver proved it final (lg's test of periodicity
//! needs no more heaps than MisereSolver's, so it may be final where MisereSolver is not yet).

mod common;

use common::run_script;

/// The largest recorded quotient recomputed here (246 of the 448 codes; all 448 agreed when the
/// file was recorded, in half an hour).
const MOST_ELEMENTS: u64 = 50;

struct Recorded {
    code: String,
    heap: u32,
    order: u64,
    p_count: u64,
    final_at: Option<u32>,
}

fn recorded() -> Vec<Recorded> {
    let text = include_str!("reference_tools/miseresolver_three_digit_codes.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("code"))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 5, "{l}");
            Recorded {
                code: f[0].to_string(),
                heap: f[1].parse().unwrap(),
                order: f[2].parse().unwrap(),
                p_count: f[3].parse().unwrap(),
                final_at: f[4].parse().ok(),
            }
        })
        .collect()
}

#[test]
fn three_digit_codes_agree_with_miseresolver() {
    let all = recorded();
    assert_eq!(all.len(), 448);
    let rows: Vec<&Recorded> = all.iter().filter(|r| r.order <= MOST_ELEMENTS).collect();
    assert!(rows.len() >= 200, "{}", rows.len());
    let mut script = String::new();
    for r in &rows {
        script.push_str(&format!(
            "let Q = misere_quotient(\"{}\", max_heap: {})\n\
             print(\"{}\", quotient_order(Q), len(p_portion(Q)), is_final(Q))\n",
            r.code, r.heap, r.code
        ));
    }
    let (out, err) = run_script("<three-digit codes>", &script);
    assert!(err.is_none(), "{err:?}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), rows.len());
    for (r, line) in rows.iter().zip(lines) {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f[0], r.code);
        assert_eq!(
            (f[1].parse::<u64>().unwrap(), f[2].parse::<u64>().unwrap()),
            (r.order, r.p_count),
            "{} to heap {}: lg {line}",
            r.code,
            r.heap
        );
        if r.final_at.is_some() {
            assert_eq!(f[3], "true", "{}: final in MisereSolver, not in lg", r.code);
        }
    }
}
