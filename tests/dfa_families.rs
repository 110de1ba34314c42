//! The generated families of `examples/dfa_families`: every case passes its own test, the same
//! seed gives the same cases, and each recorded minimum is the true one (by brute force on small
//! instances of every kind); the same of the held-out bracket and counted families.

#[path = "../examples/dfa_families/families.rs"]
mod families;

use families::{Scale, brute_minimum, generate, generate_held_out};
use std::collections::BTreeMap;

#[test]
fn every_generated_case_is_interesting_sized_and_reproducible() {
    let cases = generate(220, 0x5EED, Scale::FAMILIES);
    let again = generate(220, 0x5EED, Scale::FAMILIES);
    assert_eq!(cases.len(), 220);
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for (a, b) in cases.iter().zip(&again) {
        assert_eq!((&a.name, &a.input), (&b.name, &b.input));
        assert!((a.test)(&a.input), "{} fails its own test", a.name);
        assert!(
            (100..=5200).contains(&a.input.len()),
            "{}: {} bytes",
            a.name,
            a.input.len()
        );
        assert!(a.minimum >= 1 && a.minimum <= a.input.len(), "{}", a.name);
        *kinds.entry(a.family).or_default() += 1;
    }
    assert_eq!(kinds.len(), 5, "{kinds:?}");
}

#[test]
fn recorded_minima_are_the_shortest_interesting_subsequences() {
    let tiny = Scale {
        min_bytes: 6,
        max_bytes: 14,
        max_depth: 4,
    };
    let mut checked: BTreeMap<&str, usize> = BTreeMap::new();
    for case in generate(400, 7, tiny) {
        if case.input.len() > 18 {
            continue;
        }
        assert_eq!(
            brute_minimum(&case.input, &case.test),
            Some(case.minimum),
            "{}: {:?}",
            case.name,
            String::from_utf8_lossy(&case.input)
        );
        *checked.entry(case.family).or_default() += 1;
    }
    assert_eq!(checked.len(), 5, "every kind checked: {checked:?}");
    assert!(checked.values().all(|&n| n >= 10), "{checked:?}");
}

#[test]
fn held_out_cases_are_interesting_sized_reproducible_and_their_minima_true() {
    let cases = generate_held_out(120, 0x5EED, Scale::FAMILIES);
    let again = generate_held_out(120, 0x5EED, Scale::FAMILIES);
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for (a, b) in cases.iter().zip(&again) {
        assert_eq!(
            (&a.name, &a.input, a.minimum),
            (&b.name, &b.input, b.minimum)
        );
        assert!((a.test)(&a.input), "{} fails its own test", a.name);
        assert!((100..=5200).contains(&a.input.len()), "{}", a.name);
        assert!(a.minimum >= 1 && a.minimum <= a.input.len(), "{}", a.name);
        *kinds.entry(a.family).or_default() += 1;
    }
    assert_eq!(kinds.len(), 2, "{kinds:?}");
    assert!(kinds.values().all(|&n| n >= 40), "{kinds:?}");
    let tiny = Scale {
        min_bytes: 6,
        max_bytes: 14,
        max_depth: 4,
    };
    let mut checked: BTreeMap<String, usize> = BTreeMap::new();
    for case in generate_held_out(400, 7, tiny) {
        if case.input.len() > 18 {
            continue;
        }
        assert_eq!(
            brute_minimum(&case.input, &case.test),
            Some(case.minimum),
            "{}: {:?}",
            case.name,
            String::from_utf8_lossy(&case.input)
        );
        let keep = case.name.rsplit('-').next().unwrap_or_default();
        let keep: String = keep.chars().filter(|c| c.is_ascii_alphabetic()).collect();
        *checked.entry(keep).or_default() += 1;
    }
    // Every keep-condition: p, n, xy, xin; two, least, diff, ab.
    assert_eq!(checked.len(), 8, "{checked:?}");
    assert!(checked.values().all(|&n| n >= 5), "{checked:?}");
}
