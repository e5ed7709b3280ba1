use super::*;
use crate::algebra::testing::{arb_module, v};
use crate::algebra::{AffineModule, AffineSemigroup, Stratification};
use proptest::prelude::*;

fn module(offsets: &[Vec<i64>], gens: &[Vec<i64>]) -> AffineModule {
    AffineModule::new(
        offsets.iter().map(|f| v(f)).collect(),
        AffineSemigroup::new(gens.iter().map(|g| v(g)).collect()).unwrap(),
    )
    .unwrap()
}

fn names(d: usize) -> Vec<String> {
    default_names(d)
}

#[test]
fn example_8_2_misere_strategy_prints_as_in_the_paper() {
    // [GM09] Example 8.2: a/(1-a^2) + b^2/((1-a^2)(1-b^2)).
    let s = Stratification::new(vec![
        module(&[vec![1, 0]], &[vec![2, 0]]),
        module(&[vec![0, 2]], &[vec![2, 0], vec![0, 2]]),
    ])
    .unwrap();
    let set = StratifiedSet::from_stratification(&s).unwrap().unwrap();
    let f = RationalFunction::of_set(&set).unwrap();
    assert_eq!(
        f.display(&names(2)).to_string(),
        "a/(1 - a^2) + b^2/((1 - a^2)(1 - b^2))"
    );
    // Its value at (1/2, 1/3) is the sum of the two series.
    let x = [Q::new(1.into(), 2.into()), Q::new(1.into(), 3.into())];
    let expected = Q::new(1.into(), 2.into()) / (Q::one() - Q::new(1.into(), 4.into()))
        + Q::new(1.into(), 9.into())
            / ((Q::one() - Q::new(1.into(), 4.into())) * (Q::one() - Q::new(1.into(), 9.into())));
    assert_eq!(f.evaluate(&x), Some(expected));
}

#[test]
fn different_forms_of_one_function_are_equal() {
    // 1/(1-a) − (1 + a/(1-a)) = 0, and 1/(1-a) + a^-1/(1-a^-1) = 0 as rational functions.
    let geometric = RationalFunction::of_set(
        &StratifiedSet::from_semigroup(&AffineSemigroup::new(vec![v(&[1])]).unwrap()).unwrap(),
    )
    .unwrap();
    let shifted = geometric
        .shift(&v(&[1]))
        .add(&RationalFunction::monomial(&v(&[0])));
    assert!(geometric.sub(&shifted).is_zero().unwrap());
    let backwards = RationalFunction::from_terms(
        1,
        vec![Term {
            denominators: vec![v(&[-1])],
            exponent: v(&[-1]),
            coefficient: Q::one(),
        }],
    );
    assert!(geometric.add(&backwards).is_zero().unwrap());
    assert!(!geometric.is_zero().unwrap());
}

/// Brute force: the points of F + A with coordinate sum ≤ n.
fn enumerate(w: &AffineModule, n: i64) -> Vec<Vector> {
    let d = w.dim();
    let mut out = Vec::new();
    let mut x = vec![0i64; d];
    loop {
        let p = v(&x);
        if w.offsets()
            .iter()
            .any(|f| w.semigroup().contains(&p.sub(f)).unwrap())
        {
            out.push(p);
        }
        let mut i = d;
        loop {
            if i == 0 {
                out.sort();
                return out;
            }
            i -= 1;
            x[i] += 1;
            if x.iter().sum::<i64>() <= n {
                break;
            }
            x[i] = 0;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(80))]

    #[test]
    fn series_equals_enumeration(w in arb_module(3)) {
        let set = StratifiedSet::from_module(&w).unwrap();
        let f = RationalFunction::of_set(&set).unwrap();
        let ones = v(&[1, 1, 1]);
        let series = f.series(&ones, &Integer::from(7)).unwrap();
        let mut got: Vec<Vector> = series.terms().iter().map(|t| {
            assert!(t.coefficient.is_one(), "coefficient {} in {}", t.coefficient, f.display(&names(3)));
            t.exponent.clone()
        }).collect();
        got.sort();
        prop_assert_eq!(got, enumerate(&w, 7), "{}", f.display(&names(3)));
    }

    #[test]
    fn hadamard_is_the_coefficientwise_product(a in arb_module(2), b in arb_module(2)) {
        let f = RationalFunction::of_set(&StratifiedSet::from_module(&a).unwrap()).unwrap();
        let g = RationalFunction::of_set(&StratifiedSet::from_module(&b).unwrap()).unwrap().scale(&q(3));
        let h = f.hadamard(&g).unwrap();
        let ones = v(&[1, 1]);
        let deg = Integer::from(10);
        let (fs, gs, hs) = (f.series(&ones, &deg).unwrap(), g.series(&ones, &deg).unwrap(), h.series(&ones, &deg).unwrap());
        for x in 0..=10 {
            for y in 0..=(10 - x) {
                let p = v(&[x, y]);
                prop_assert_eq!(hs.coefficient(&p), fs.coefficient(&p) * gs.coefficient(&p));
                prop_assert_eq!(h.coefficient(&p), f.coefficient(&p) * g.coefficient(&p));
            }
        }
        // f ⋆ f = f for a set.
        prop_assert!(f.hadamard(&f).unwrap().sub(&f).is_zero().unwrap());
    }
}

proptest! {
    /// The i64 membership test of a term agrees with the exact rational solve, on terms with up
    /// to d independent denominators (dependent draws are skipped) and points around them.
    #[test]
    fn fast_membership_agrees_with_the_rational_solve(
        d in 1usize..5,
        seed in prop::collection::vec(-3i64..4, 40),
        points in prop::collection::vec(prop::collection::vec(-6i64..12, 4), 30),
    ) {
        let k = (seed[0].unsigned_abs() as usize) % (d + 1);
        let denominators: Vec<Vector> = (0..k)
            .map(|j| Vector::from_i64s(&seed[1 + j * d..1 + (j + 1) * d]))
            .collect();
        prop_assume!(crate::algebra::linalg::rank(&denominators, d) == k);
        let term = Term {
            denominators,
            exponent: Vector::from_i64s(&seed[30..30 + d]),
            coefficient: Q::one(),
        };
        let test = membership::TermTest::new(&term).expect("small entries fit i64");
        for p in &points {
            let x = Vector::from_i64s(&p[..d]);
            prop_assert_eq!(test.counts(&x), Some(term.counts(&x)), "{:?} at {}", term, x);
        }
    }
}

/// f·g counts the ways to write x = y + z with y in A and z in B: against that count by brute
/// force on a box, for sets with nonnegative generators (so every sum stays in the box's order).
#[test]
fn products_count_the_decompositions() {
    let sets = [
        module(&[vec![0, 0], vec![0, 1]], &[vec![2, 0]]),
        module(&[vec![1, 0]], &[vec![0, 1]]),
        module(&[vec![0, 0], vec![1, 2]], &[vec![1, 1]]),
    ];
    for (i, a) in sets.iter().enumerate() {
        for (j, b) in sets.iter().enumerate() {
            if i == j {
                continue;
            }
            let sa = StratifiedSet::from_module(a).unwrap();
            let sb = StratifiedSet::from_module(b).unwrap();
            let (f, g) = (
                RationalFunction::of_set(&sa).unwrap(),
                RationalFunction::of_set(&sb).unwrap(),
            );
            let h = f.mul(&g).unwrap();
            for x0 in 0..7 {
                for x1 in 0..7 {
                    let mut count = 0i64;
                    for y0 in 0..=x0 {
                        for y1 in 0..=x1 {
                            let y = v(&[y0, y1]);
                            let z = v(&[x0 - y0, x1 - y1]);
                            if sa.contains(&y) && sb.contains(&z) {
                                count += 1;
                            }
                        }
                    }
                    assert_eq!(
                        h.coefficient(&v(&[x0, x1])),
                        Q::from_integer(count.into()),
                        "at ({x0}, {x1})"
                    );
                }
            }
        }
    }
    // f·f counts with multiplicity: refused, saying why.
    let f = RationalFunction::of_set(&StratifiedSet::from_module(&sets[0]).unwrap()).unwrap();
    assert!(f.mul(&f).unwrap_err().to_string().contains("multiplicity"));
    // No common region of convergence.
    let f = RationalFunction::of_set(
        &StratifiedSet::from_module(&module(&[vec![0]], &[vec![1]])).unwrap(),
    )
    .unwrap();
    let g = RationalFunction::of_set(
        &StratifiedSet::from_module(&module(&[vec![0]], &[vec![-1]])).unwrap(),
    )
    .unwrap();
    assert!(f.mul(&g).is_err());
}
