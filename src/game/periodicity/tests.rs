use super::*;
use crate::game::grundy::octal_values;
use proptest::prelude::*;

fn values(code: &str, n: usize) -> Vec<u32> {
    octal_values(&HeapCode::parse(code).unwrap(), n, 1 << 30, &mut |_, _| {}).unwrap()
}

fn of(code: &str, n: usize) -> Periodicity {
    periodicity(&HeapCode::parse(code).unwrap(), &values(code, n))
}

fn proved(p: &Periodicity) -> (usize, usize) {
    match p {
        Periodicity::Proved {
            preperiod, period, ..
        } => (*preperiod, *period),
        other => panic!("not proved: {other}"),
    }
}

#[test]
fn classical_octal_games() {
    // Winning Ways ch. 4 and CGSuite's CheckPeriodicity agree on these (period, preperiod):
    // Kayles 12 from 71, Dawson's Kayles 34 from 53, Dawson's chess 34 from 52; the subtraction
    // game {2, 3, 7} has period 5 from 0.
    assert_eq!(proved(&of("0.77", 2000)), (71, 12));
    assert_eq!(proved(&of("0.07", 2000)), (53, 34));
    assert_eq!(proved(&of("0.137", 2000)), (52, 34));
    assert_eq!(proved(&of("0.0330003", 200)), (0, 5));
    assert_eq!(proved(&of("4.0", 100)), (1, 2));
    // The theorem needs heaps below 2·71 + 12 + 2 = 156 compared with n + 12: 168 values.
    assert!(of("0.77", 167).is_proved());
    assert!(!of("0.77", 166).is_proved());
}

fn arithmetic(p: &Periodicity) -> (usize, usize, i64) {
    match p {
        Periodicity::ProvedArithmetic {
            preperiod,
            period,
            saltus,
            ..
        } => (*preperiod, *period, *saltus),
        other => panic!("not proved: {other}"),
    }
}

#[test]
fn arithmetic_periodicity_of_repeating_codes() {
    // Nim: G(n + 1) = G(n) + 1. The all-but subtraction game {2, 3, 7} (0, 1, 0, 1, 2, 3, 2, 3,
    // 4, 5, …; CGSuite's values in the oracle file agree): G(n + 4) = G(n) + 2 from the start.
    assert_eq!(arithmetic(&of("0.[3]", 50)), (0, 1, 1));
    assert_eq!(arithmetic(&of("0.[7]", 50)), (0, 1, 1));
    assert_eq!(arithmetic(&of("0.3003330[3]", 200)), (0, 4, 2));
    // All-but {1, 4, 7, 11, 12}, {2, 3, 7, 10, 11, 12}, a tail of period 4 and one with saltus 0
    // (found by an independent Python brute force to 12,000 heaps).
    assert_eq!(arithmetic(&of("0.033033033300[3]", 1000)), (97, 33, 11));
    assert_eq!(arithmetic(&of("0.300333033000[3]", 1000)), (27, 69, 23));
    assert_eq!(arithmetic(&of("0.3320[0303]", 1000)), (58, 18, 5));
    assert_eq!(arithmetic(&of("0.032321[00003]", 1000)), (174, 30, 0));
    // Too few values for the check, and a code that is not arithmetic-periodic at all.
    assert!(!of("0.033033033300[3]", 130).is_proved());
    assert!(!of("0.313[330]", 3000).is_proved());
    // A finite hexadecimal code with an apparent saltus: no theorem here proves it.
    match of("0.3F", 2000) {
        Periodicity::Apparent {
            preperiod: 0,
            period: 6,
            saltus: 3,
            ..
        } => {}
        other => panic!("{other}"),
    }
}

#[test]
fn what_no_theorem_covers_is_only_apparent() {
    // Grundy's game has no known period, and a modifier is outside the theorem.
    let grundy = of("4!.0", 3000);
    assert!(!grundy.is_proved(), "{grundy}");
    assert!(theorem_data(&HeapCode::parse("4!.0").unwrap()).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whatever is proved from the values up to N still holds on the values up to 6N: an
    /// empirical check of the theorem's range (including three-heap hexadecimal digits).
    #[test]
    fn proofs_hold_far_beyond_the_values_they_used(
        rest in proptest::collection::vec(0u8..16, 1..=3),
        d0 in prop::sample::select(vec![0u8, 4]),
    ) {
        let code = format!("{d0:X}.{}", rest.iter().map(|d| format!("{d:X}")).collect::<String>());
        let n = 400;
        let short = values(&code, n);
        let long = values(&code, 6 * n);
        if let Periodicity::Proved { preperiod, period, .. } =
            periodicity(&HeapCode::parse(&code).unwrap(), &short)
        {
            for i in preperiod..=6 * n - period {
                prop_assert_eq!(long[i + period], long[i], "{} at {}", code, i);
            }
        }
    }

    /// The same for arithmetic periodicity: random codes whose digits up to d_m take without
    /// splitting and whose repeating tail is made of 0s and 3s (all-but subtraction games among
    /// them); what is proved from 300 values holds on 3000.
    #[test]
    fn arithmetic_proofs_hold_far_beyond_the_values_they_used(
        head in proptest::collection::vec(0u8..4, 0..=8),
        tail in proptest::collection::vec(prop::sample::select(vec![0u8, 3]), 1..=4),
    ) {
        prop_assume!(tail.contains(&3));
        let digits = |ds: &[u8]| ds.iter().map(|d| d.to_string()).collect::<String>();
        let code = format!("0.{}[{}]", digits(&head), digits(&tail));
        let short = values(&code, 300);
        let long = values(&code, 3000);
        if let Periodicity::ProvedArithmetic { preperiod, period, saltus, .. } =
            periodicity(&HeapCode::parse(&code).unwrap(), &short)
        {
            for i in preperiod..=3000 - period {
                prop_assert_eq!(
                    i64::from(long[i + period]),
                    i64::from(long[i]) + saltus,
                    "{} at {}", code, i
                );
            }
        }
    }
}
