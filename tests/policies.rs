//! DDMin and ProbDD against the seeds' counts, a direct set-based restatement of their
//! definitions, and properties over arbitrary monotone oracles.

mod support;

use myhill::{
    FnOracle,
    eval::EvalOptions,
    passes::Cx,
    policy::{BinarySplit, ComplementDDMin, DDMin, Policy, ProbDD},
    text::{Granularity, Units},
};
use proptest::prelude::*;
use std::collections::BTreeSet;
use support::demos::{keep_2_and_7_rows, reduce_values, seed_rows};

#[test]
fn keep_2_and_7_matches_the_seed_counts() {
    let rows = keep_2_and_7_rows();
    assert_eq!(
        rows[0].to_string(),
        "keep-2-and-7 ddmin calls=33 result=[2, 7]"
    );
    assert_eq!(
        rows[1].to_string(),
        "keep-2-and-7 probdd calls=12 result=[2, 7]"
    );
}

#[test]
fn steps_200_end_at_the_three_needed_steps() {
    for row in seed_rows().iter().filter(|r| r.demo == "steps-200") {
        assert_eq!(row.result, "[37, 118, 161]", "{row}");
    }
    let complement = seed_rows()
        .into_iter()
        .find(|r| r.demo == "steps-200" && r.strategy == "ddmin-complement")
        .unwrap();
    // The bisection page's own ddmin: 59 runs including the first check.
    assert_eq!(complement.calls, 59);
}

/// A monotone oracle: interesting iff the kept values include one of the `needs` sets.
fn monotone(needs: &[BTreeSet<u32>]) -> impl Fn(&[u32]) -> bool + Send + Sync + Clone + '_ {
    move |kept: &[u32]| needs.iter().any(|n| n.iter().all(|x| kept.contains(x)))
}

/// The seeds' DDMin restated over ordered sets, for cross-checking counts call for call.
fn reference_ddmin(n_units: u32, interesting: &dyn Fn(&[u32]) -> bool) -> (u64, Vec<u32>) {
    let mut config: Vec<u32> = (0..n_units).collect();
    let mut calls = 0;
    'rounds: loop {
        let len = config.len();
        let mut n = 2usize;
        loop {
            if len == 0 {
                break 'rounds;
            }
            let size = len.div_ceil(n);
            let chunks: Vec<Vec<u32>> = config.chunks(size).map(|c| c.to_vec()).collect();
            let mut candidates: Vec<Vec<u32>> = chunks.clone(); // keep only chunk i
            candidates.extend(chunks.iter().map(|c| {
                config
                    .iter()
                    .copied()
                    .filter(|x| !c.contains(x))
                    .collect::<Vec<u32>>()
            }));
            for cand in candidates {
                if cand.len() == len {
                    continue; // empty delta
                }
                calls += 1;
                if interesting(&cand) {
                    config = cand;
                    continue 'rounds;
                }
            }
            if n >= len {
                break 'rounds;
            }
            n = (2 * n).min(len);
        }
    }
    (calls, config)
}

/// The seeds' ProbDD restated with a full sort per proposal.
fn reference_probdd(n_units: u32, interesting: &dyn Fn(&[u32]) -> bool) -> (u64, Vec<u32>) {
    let mut probs: Vec<(u32, f64)> = (0..n_units).map(|u| (u, 0.1)).collect();
    let mut calls = 0;
    loop {
        let mut reduced = false;
        loop {
            if probs.iter().all(|&(_, p)| p >= 1.0) {
                break;
            }
            let mut order = probs.clone();
            order.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap().then(a.0.cmp(&b.0)));
            let (mut survive, mut best_k, mut best_gain) = (1.0f64, 0usize, 0.0f64);
            for (i, &(_, p)) in order.iter().enumerate() {
                survive *= 1.0 - p;
                let gain = (i + 1) as f64 * survive;
                if gain > best_gain {
                    (best_k, best_gain) = (i + 1, gain);
                }
            }
            if best_k == 0 {
                break;
            }
            let pre: Vec<u32> = order[..best_k].iter().map(|&(u, _)| u).collect();
            let cand: Vec<u32> = {
                let mut c: Vec<u32> = probs
                    .iter()
                    .map(|&(u, _)| u)
                    .filter(|u| !pre.contains(u))
                    .collect();
                c.sort_unstable();
                c
            };
            calls += 1;
            if interesting(&cand) {
                probs.retain(|(u, _)| !pre.contains(u));
                reduced = true;
                break;
            }
            let denom = 1.0
                - order[..best_k]
                    .iter()
                    .map(|&(_, p)| 1.0 - p)
                    .product::<f64>();
            if denom > 0.0 {
                for (u, p) in probs.iter_mut() {
                    if pre.contains(u) {
                        *p = (*p / denom).min(1.0);
                    }
                }
            }
        }
        if !reduced {
            let mut kept: Vec<u32> = probs.iter().map(|&(u, _)| u).collect();
            kept.sort_unstable();
            return (calls, kept);
        }
    }
}

fn needs_strategy() -> impl Strategy<Value = (u32, Vec<BTreeSet<u32>>)> {
    (1u32..40).prop_flat_map(|n| {
        let set = proptest::collection::btree_set(0..n, 0..4);
        (Just(n), proptest::collection::vec(set, 1..3))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn ddmin_matches_the_definition_call_for_call((n, needs) in needs_strategy()) {
        let values: Vec<u32> = (0..n).collect();
        let keep = monotone(&needs);
        let (calls, result) = reduce_values(&values, keep.clone(), Box::new(DDMin));
        let (ref_calls, ref_result) = reference_ddmin(n, &keep);
        prop_assert_eq!(calls, ref_calls);
        prop_assert_eq!(&result, &ref_result);
        // Interesting, and 1-minimal: no single value can go.
        prop_assert!(keep(&result));
        for i in 0..result.len() {
            let mut smaller = result.clone();
            smaller.remove(i);
            prop_assert!(!keep(&smaller), "removing {} keeps {:?} interesting", result[i], result);
        }
    }

    #[test]
    fn probdd_matches_the_definition_call_for_call((n, needs) in needs_strategy()) {
        let values: Vec<u32> = (0..n).collect();
        let keep = monotone(&needs);
        let (calls, result) = reduce_values(&values, keep.clone(), Box::new(ProbDD::new(0.1)));
        let (ref_calls, ref_result) = reference_probdd(n, &keep);
        prop_assert_eq!(calls, ref_calls);
        prop_assert_eq!(&result, &ref_result);
        prop_assert!(keep(&result));
    }

    #[test]
    fn every_policy_ends_interesting_and_within_the_input(
        input in proptest::collection::vec(0u8..4, 1..120),
        needle in proptest::collection::vec(0u8..4, 1..4),
    ) {
        // Monotone over subsequences: interesting iff `needle` is a subsequence.
        let has_subsequence = |c: &[u8]| {
            let mut it = c.iter();
            needle.iter().all(|x| it.any(|y| y == x))
        };
        prop_assume!(has_subsequence(&input));
        let policies: Vec<Box<dyn Policy>> =
            vec![
            Box::new(DDMin),
            Box::new(ProbDD::new(0.1)),
            Box::new(ComplementDDMin::default()),
            Box::new(BinarySplit::default()),
        ];
        for mut policy in policies {
            let oracle = FnOracle::new(has_subsequence);
            let mut driver = Cx::new(input.clone(), &oracle, EvalOptions::default());
            let units = Units::cut(&input, Granularity::Bytes);
            let kept = driver.run_policy(&units, &mut policy).unwrap();
            prop_assert!(has_subsequence(driver.best()));
            prop_assert!(kept.iter().all(|i| (i as usize) < input.len()));
            prop_assert_eq!(units.render(&kept), driver.best().to_vec());
            // Terminated within a bound no sane policy exceeds on 120 units.
            prop_assert!(driver.report().eval.tests_run < 20_000);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn binary_split_is_one_minimal_on_monotone_oracles((n, needs) in needs_strategy()) {
        let values: Vec<u32> = (0..n).collect();
        let keep = monotone(&needs);
        let (calls, result) = reduce_values(&values, keep.clone(), Box::new(BinarySplit::default()));
        prop_assert!(keep(&result));
        for i in 0..result.len() {
            let mut smaller = result.clone();
            smaller.remove(i);
            prop_assert!(!keep(&smaller), "removing {} keeps {:?} interesting", result[i], result);
        }
        // Never more than one test per unit plus the halving steps.
        prop_assert!(calls <= 2 * n as u64 + 8, "{} calls for {} units", calls, n);
    }
}

#[test]
fn cache_hits_are_counted_apart_from_real_runs() {
    let oracle = FnOracle::new(|c: &[u8]| c.contains(&b'2') && c.contains(&b'7'));
    let input = b"12345678".to_vec();
    let units = Units::cut(&input, Granularity::Bytes);
    let mut cached = Cx::new(input.clone(), &oracle, EvalOptions::default());
    cached
        .run_policy(&units, &mut (Box::new(DDMin) as Box<dyn Policy>))
        .unwrap();
    let mut bare = Cx::new(input, &oracle, EvalOptions::bare());
    bare.run_policy(&units, &mut (Box::new(DDMin) as Box<dyn Policy>))
        .unwrap();
    let (c, b) = (cached.report().eval, bare.report().eval);
    assert_eq!(b.tests_run, 33);
    assert_eq!(b.cache_hits, 0);
    assert!(c.cache_hits > 0);
    assert_eq!(
        c.tests_run + c.cache_hits,
        33,
        "every candidate is either run or a hit"
    );
    assert_eq!(cached.best(), b"27");
}
