use super::*;
use proptest::prelude::*;

/// Grundy values by brute force: every option of every heap listed as a multiset of parts
/// (written independently of the fast path: no split symmetry, no bitsets).
fn brute(digits: &[u8], n: usize) -> Vec<u32> {
    fn parts(
        total: usize,
        count: usize,
        min: usize,
        acc: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if count == 0 {
            if total == 0 {
                out.push(acc.clone());
            }
            return;
        }
        for x in min..=total {
            acc.push(x);
            parts(total - x, count - 1, x, acc, out);
            acc.pop();
        }
    }
    let mut g = Vec::new();
    for h in 0..=n {
        let mut values = Vec::new();
        for (k, &d) in digits.iter().enumerate() {
            if k > h {
                break;
            }
            for count in 0..4 {
                if d >> count & 1 == 0 || (k == 0 && count < 2) {
                    continue;
                }
                let mut options = Vec::new();
                parts(h - k, count, 1, &mut Vec::new(), &mut options);
                for o in options {
                    values.push(o.iter().fold(0u32, |x, &p| x ^ g[p]));
                }
            }
        }
        g.push((0..).find(|v| !values.contains(v)).unwrap());
    }
    g
}

fn values(code: &str, n: usize) -> Vec<u32> {
    octal_values(&HeapCode::parse(code).unwrap(), n, 1 << 30, &mut |_, _| {}).unwrap()
}

#[test]
fn kayles_is_periodic_with_period_12_from_71() {
    // Guy and Smith (1956): the Grundy values of Kayles (0.77) have period 12 from heap 71 on;
    // 70 is the last exception.
    let g = values("0.77", 1200);
    assert!((71..1188).all(|h| g[h] == g[h + 12]));
    assert_ne!(g[70], g[82]);
    assert_eq!(&g[..12], &brute(&[0, 7, 7], 11)[..]);
}

#[test]
fn reading_the_rare_heaps_first_changes_no_value() {
    // Games where the common values dominate (so the rare heaps are read first for most heaps)
    // and games where they do not, against walking every split.
    for (code, expect_sparse) in [
        ("0.77", true),
        ("0.16", true),
        ("0.137", false),
        ("0.07", false),
        ("4.07", false),
        ("0.F", false),
        ("0.6", false),
        ("0.56", false),
        ("0.35", false),
        ("0.54", false),
    ] {
        let c = HeapCode::parse(code).unwrap();
        let (fast, sparse) = values_with(&c, 6000, 1 << 30, &mut |_, _| {}, true).unwrap();
        let (plain, none) = values_with(&c, 6000, 1 << 30, &mut |_, _| {}, false).unwrap();
        assert_eq!(none, 0);
        assert_eq!(fast, plain, "{code}");
        if expect_sparse {
            assert!(
                sparse > 1000,
                "{code}: only {sparse} heaps read the rare heaps first"
            );
        }
    }
}

#[test]
fn the_heap_game_mex_agrees() {
    // The slow path of `heap` (options listed, then the mex) is another independent check.
    for code in [
        "0.07", "0.137", "0.77", "0.16", "4.07", "0.F", "8.31", "0.4F",
    ] {
        let c = HeapCode::parse(code).unwrap();
        let slow: Vec<u32> = crate::game::heap::HeapGame::from_code(&c, 60)
            .grundy()
            .into_iter()
            .map(|v| v as u32)
            .collect();
        assert_eq!(values(code, 60), slow, "{code}");
    }
}

#[test]
fn memory_refusal_and_progress() {
    let code = HeapCode::parse("0.F").unwrap();
    assert!(matches!(
        octal_values(&code, 1_000_000, 1 << 20, &mut |_, _| {}),
        Err(GrundyError::TooLarge { .. })
    ));
    let mut calls = 0;
    let g = octal_values(&code, 10_000, 1 << 30, &mut |h, n| {
        calls += 1;
        assert!(h <= n);
    })
    .unwrap();
    assert_eq!(g.len(), 10_001);
    assert!(calls >= 3);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Random octal and hexadecimal codes (d0 ∈ {0, 4, 8, 12}, up to 5 digits after the point)
    /// against the brute force on heaps up to 30.
    #[test]
    fn random_codes_agree_with_brute_force(
        d0 in prop::sample::select(vec![0u8, 4, 8, 12]),
        rest in proptest::collection::vec(0u8..16, 1..=5),
    ) {
        let mut digits = vec![d0];
        digits.extend(&rest);
        let code: String = format!(
            "{:X}.{}",
            d0,
            rest.iter().map(|d| format!("{d:X}")).collect::<String>()
        );
        let parsed = HeapCode::parse(&code).unwrap();
        prop_assert_eq!(parsed.octal_digits(30).unwrap(), digits.clone());
        let fast = octal_values(&parsed, 30, 1 << 30, &mut |_, _| {}).unwrap();
        prop_assert_eq!(fast, brute(&digits, 30), "{}", code);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random octal codes on heaps up to 2500: reading the rare heaps first gives the values of
    /// walking every split.
    #[test]
    fn random_codes_with_and_without_the_rare_heaps(
        rest in proptest::collection::vec(0u8..8, 1..=4),
    ) {
        let code = format!("0.{}", rest.iter().map(|d| d.to_string()).collect::<String>());
        let c = HeapCode::parse(&code).unwrap();
        let (fast, _) = values_with(&c, 2500, 1 << 30, &mut |_, _| {}, true).unwrap();
        let (plain, _) = values_with(&c, 2500, 1 << 30, &mut |_, _| {}, false).unwrap();
        prop_assert_eq!(fast, plain, "{}", code);
    }
}

#[test]
fn a_passed_deadline_stops_it() {
    let code = HeapCode::parse("0.8F").unwrap();
    let past = std::time::Instant::now();
    let out = crate::interrupt::with_deadline(past, || {
        octal_values(&code, 1_000_000, 1 << 30, &mut |_, _| {})
    });
    assert_eq!(out, Err(GrundyError::Interrupted { done: 0 }));
}

/// Grundy values of a generalized code by brute force from its written digits: every ordered
/// tuple of r nonempty parts of the rest is generated, filtered by the modifier, and sorted into
/// a multiset (a different enumeration from the code's partition walk).
fn brute_general(digits: &[(Vec<usize>, char)], n: usize) -> Vec<u32> {
    fn tuples(total: usize, r: usize, acc: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if r == 0 {
            if total == 0 {
                out.push(acc.clone());
            }
            return;
        }
        for x in 1..=total {
            acc.push(x);
            tuples(total - x, r - 1, acc, out);
            acc.pop();
        }
    }
    let mut g: Vec<u32> = Vec::new();
    for h in 0..=n {
        let mut values = std::collections::BTreeSet::new();
        for (j, (counts, modifier)) in digits.iter().enumerate().take(h + 1) {
            let rest = h - j;
            for &r in counts {
                if (r == 0 && (rest != 0 || j == 0)) || (j == 0 && r == 1) || r > rest {
                    continue;
                }
                let mut all = Vec::new();
                tuples(rest, r, &mut Vec::new(), &mut all);
                for mut t in all {
                    t.sort_unstable();
                    let distinct = t.windows(2).all(|w| w[0] != w[1]);
                    let equal = t.windows(2).all(|w| w[0] == w[1]);
                    let keep = match modifier {
                        '!' => distinct,
                        '?' => t.len() < 2 || !equal,
                        '=' => equal,
                        _ => true,
                    };
                    if keep {
                        values.insert(t.iter().fold(0u32, |x, &p| x ^ g[p]));
                    }
                }
            }
        }
        g.push((0..).find(|v| !values.contains(v)).unwrap());
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random generalized codes — count lists in braces, modifiers, splits into up to 4 heaps —
    /// against the brute force on heaps up to 16.
    #[test]
    fn generalized_codes_agree_with_brute_force(
        d0 in prop::sample::select(vec![vec![], vec![2], vec![2, 3], vec![3], vec![2, 4]]),
        rest in proptest::collection::vec(
            (proptest::collection::btree_set(0usize..=4, 0..=3), prop::sample::select(vec![' ', '!', '?', '='])),
            1..=4,
        ),
        m0 in prop::sample::select(vec![' ', '!', '?', '=']),
    ) {
        let braces = |counts: &[usize], m: char| {
            if counts.is_empty() {
                "0".to_string()
            } else {
                let list: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
                format!("{{{}}}{}", list.join(","), m.to_string().trim())
            }
        };
        let mut digits = vec![(d0.clone(), m0)];
        digits.extend(rest.iter().map(|(c, m)| (c.iter().copied().collect::<Vec<_>>(), *m)));
        let text = format!(
            "{}.{}",
            braces(&d0, m0),
            digits[1..].iter().map(|(c, m)| braces(c, *m)).collect::<String>()
        );
        let code = HeapCode::parse(&text).unwrap();
        let got = octal_values(&code, 16, 1 << 30, &mut |_, _| {}).unwrap();
        prop_assert_eq!(got, brute_general(&digits, 16), "{}", text);
    }
}
