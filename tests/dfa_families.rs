//! The generated families of `examples/dfa_families`: every case passes its own test, the same
//! seed gives the same cases, and each recorded minimum is the true one (by brute force on small
//! instances of every kind); the same of the held-out bracket and counted families.

#[path = "../examples/dfa_families/families.rs"]
mod families;

use families::{Case, Scale, brute_minimum, generate, generate_held_out};
use std::collections::BTreeMap;

/// Inputs of 6 to 14 bytes before the keep-condition's additions, small enough for
/// `brute_minimum`.
const TINY: Scale = Scale {
    min_bytes: 6,
    max_bytes: 14,
    max_depth: 4,
};

/// Checks that `cases` and `again` (the same seed) are the same cases, each interesting,
/// sized and with a plausible minimum; returns how many cases each family has.
fn families_of_sound_cases(cases: &[Case], again: &[Case]) -> BTreeMap<&'static str, usize> {
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for (a, b) in cases.iter().zip(again) {
        assert_eq!(
            (&a.name, &a.input, a.minimum),
            (&b.name, &b.input, b.minimum)
        );
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
    kinds
}

/// Checks every recorded minimum of the `cases` of at most 18 bytes against brute force;
/// returns how many were checked under each `kind`.
fn brute_checked(cases: Vec<Case>, kind: impl Fn(&Case) -> String) -> BTreeMap<String, usize> {
    let mut checked: BTreeMap<String, usize> = BTreeMap::new();
    for case in cases.into_iter().filter(|c| c.input.len() <= 18) {
        assert_eq!(
            brute_minimum(&case.input, &case.test),
            Some(case.minimum),
            "{}: {:?}",
            case.name,
            String::from_utf8_lossy(&case.input)
        );
        *checked.entry(kind(&case)).or_default() += 1;
    }
    checked
}

#[test]
fn every_generated_case_is_interesting_sized_and_reproducible() {
    let cases = generate(220, 0x5EED, Scale::FAMILIES);
    assert_eq!(cases.len(), 220);
    let kinds = families_of_sound_cases(&cases, &generate(220, 0x5EED, Scale::FAMILIES));
    assert_eq!(kinds.len(), 5, "{kinds:?}");
}

#[test]
fn recorded_minima_are_the_shortest_interesting_subsequences() {
    let checked = brute_checked(generate(400, 7, TINY), |c| c.family.to_string());
    assert_eq!(checked.len(), 5, "every kind checked: {checked:?}");
    assert!(checked.values().all(|&n| n >= 10), "{checked:?}");
}

#[test]
fn held_out_cases_are_interesting_sized_reproducible_and_their_minima_true() {
    let cases = generate_held_out(120, 0x5EED, Scale::FAMILIES);
    let kinds = families_of_sound_cases(&cases, &generate_held_out(120, 0x5EED, Scale::FAMILIES));
    assert_eq!(kinds.len(), 2, "{kinds:?}");
    assert!(kinds.values().all(|&n| n >= 40), "{kinds:?}");
    let checked = brute_checked(generate_held_out(400, 7, TINY), |c| {
        let keep = c.name.rsplit('-').next().unwrap_or_default();
        keep.chars().filter(|c| c.is_ascii_alphabetic()).collect()
    });
    // Every keep-condition: p, n, xy, xin; two, least, diff, ab.
    assert_eq!(checked.len(), 8, "{checked:?}");
    assert!(checked.values().all(|&n| n >= 5), "{checked:?}");
}
