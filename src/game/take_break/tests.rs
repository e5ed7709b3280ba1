use super::*;

fn code(s: &str) -> HeapCode {
    HeapCode::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Grundy values by the mex rule over `options`, with no fast path.
fn mex_values(c: &HeapCode, n: usize) -> Vec<u32> {
    let mut g = Vec::new();
    for h in 0..=n {
        let seen: std::collections::BTreeSet<u32> = c
            .options(h)
            .iter()
            .map(|p| p.iter().fold(0, |x, &a| x ^ g[a]))
            .collect();
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

#[test]
fn digits_and_repeats() {
    let k = code("0.77");
    assert_eq!(k.octal_digits(5), Some(vec![0, 7, 7]));
    assert_eq!(k.last_nonzero(), Some(2));
    let nim = code("0.[3]");
    assert!(nim.is_repeating());
    assert_eq!(nim.octal_digits(4), Some(vec![0, 3, 3, 3, 3]));
    assert_eq!(nim.last_nonzero(), None);
    let alt = code("0.[37]");
    assert_eq!(alt.octal_digits(5), Some(vec![0, 3, 7, 3, 7, 3]));
    // Letters past F are heap counts past 3; lower case reads as upper case.
    assert!(code("0.G").digit(1).unwrap().allows(4));
    assert_eq!(code("0.g").digit(1).unwrap().counts, 16);
    assert_eq!(code("0.Z").digit(1).unwrap().counts, 35);
    assert_eq!(
        code("0.{2,3}").digit(1).unwrap().counts,
        code("0.C").digit(1).unwrap().counts
    );
    assert!(code("{2+}.0").digit(0).unwrap().allows(40));
    assert_eq!(code("4!.0").octal_digits(3), None);
    assert_eq!(
        code("4!.0").digit(0).unwrap().modifier(),
        Modifier::Distinct
    );
    assert_eq!(code("  0.07 ").to_string(), "0.07");
}

#[test]
fn options_of_the_classical_games() {
    // Kayles: heap 4 → 3, 2, 1+2, 1+1, and 2 (take two), 1+1 (take two, split).
    assert_eq!(
        code("0.77").options(4),
        vec![vec![1, 1], vec![1, 2], vec![2], vec![3]]
    );
    // Grundy's game: 7 → 1+6, 2+5, 3+4 (never two equal heaps, never the heap itself).
    assert_eq!(
        code("4!.0").options(7),
        vec![vec![1, 6], vec![2, 5], vec![3, 4]]
    );
    assert_eq!(code("4!.0").options(2), Vec::<Vec<usize>>::new());
    // `?`: three heaps not all equal; `=`: all equal.
    assert_eq!(code("8?.0").options(6), vec![vec![1, 1, 4], vec![1, 2, 3]]);
    assert_eq!(
        code("0.[{0+}=]").options(3),
        vec![vec![], vec![1], vec![1, 1], vec![2]]
    );
    // Nim removes any positive number.
    assert_eq!(code("0.[3]").options(3), vec![vec![], vec![1], vec![2]]);
    // Heap 0 has no options, whatever the code.
    assert!(code("0.[{0+}=]").options(0).is_empty());
}

#[test]
fn option_counts_of_heap_20() {
    // Checked by counting the partitions by hand for the simple cases: Nim has 20 options,
    // Grundy's game splits 20 into a + b with a < b (9 ways), Dawson's Kayles removes 2 and
    // leaves 18 as one heap or two (1 + 9), the subtraction game {2, 3, 7} has 3. The counts
    // agree with CGSuite's `Options.Size` for these games.
    for (c, n) in [
        ("0.[3]", 20),
        ("4!.0", 9),
        ("0.77", 20),
        ("0.07", 10),
        ("0.0330003", 3),
    ] {
        assert_eq!(code(c).options(20).len(), n, "{c}");
    }
}

#[test]
fn values_of_generalized_codes() {
    // Grundy's game (Winning Ways, ch. 4): 0 0 0 1 0 2 1 0 2 1 0 2 1 3 2 1 3 2 4 3 0.
    assert_eq!(
        mex_values(&code("4!.0"), 20),
        vec![0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]
    );
    // Nim and 0.[{0+}=] are g(n) = n; {2+}.0 splits into any number of heaps: g(n) = n − 1.
    assert_eq!(
        mex_values(&code("0.[3]"), 12),
        (0..=12).collect::<Vec<u32>>()
    );
    assert_eq!(
        mex_values(&code("0.[{0+}=]"), 12),
        (0..=12).collect::<Vec<u32>>()
    );
    let split_any = mex_values(&code("{2+}.0"), 12);
    assert_eq!(split_any[1..], (0..12).collect::<Vec<u32>>()[..]);
}

/// Every malformed code is refused at its offending character, saying what would be right.
#[test]
fn diagnostics_point_at_the_character() {
    for (bad, position, says) in [
        ("", 1, "a point"),
        ("07", 3, "a point"),
        (".7", 1, "the digit d0"),
        ("0.", 3, "the digits d1"),
        ("0.7#", 4, "a digit"),
        ("0.7]", 4, "closes nothing"),
        ("0.[]", 3, "inside `[…]`"),
        ("0.[3", 5, "`]`"),
        ("0.[3]7", 6, "nothing may follow"),
        ("0.{2,", 6, "a heap count"),
        ("0.{2;3}", 5, "`,`"),
        ("0.{99}", 4, "counts up to 63"),
        ("0.!7", 3, "follows the digit"),
        ("20.017", 1, "adds tokens"),
        ("1.07", 1, "leaves no heap"),
        ("2.07", 1, "leaves a heap as it is"),
    ] {
        let e = HeapCode::parse(bad).expect_err(bad);
        assert_eq!(e.position, position, "{bad}: {e}");
        assert!(e.to_string().contains(says), "{bad}: {e}");
    }
    // Leading blanks count toward the position.
    assert_eq!(HeapCode::parse("  0.7#").unwrap_err().position, 6);
}

#[test]
fn the_option_bound_bounds_the_options() {
    for c in [
        "0.77",
        "0.3F",
        "4!.0",
        "8?.0",
        "0.[3]",
        "{2+}.0",
        "0.{1,2,3,4}",
    ] {
        let code = code(c);
        let listed: u128 = (1..=18).map(|h| code.options(h).len() as u128).sum();
        let bound = code.option_bound(18, u128::MAX).unwrap();
        assert!(listed <= bound, "{c}: {listed} options, bound {bound}");
    }
    // Splitting into any number of heaps has exponentially many options: refused early.
    assert!(code("{2+}.0").option_bound(200, 1_000_000).is_err());
    assert!(code("0.77").option_bound(1000, 1_000_000).is_ok());
}
