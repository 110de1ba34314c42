//! `--jobs` changes the speed, never the answer: every strategy accepts the same reductions in
//! the same order with 1, 2 and 4 jobs.

use myhill::{Driver, EvalOptions, Event, FnOracle};
use proptest::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;

/// Runs `strategy` with `jobs` and returns every accepted best, in order.
fn accepted(strategy: &str, input: &[u8], needle: &[u8], jobs: usize, cache: bool) -> Vec<Vec<u8>> {
    let has_subsequence = |c: &[u8]| {
        let mut it = c.iter();
        needle.iter().all(|x| it.any(|y| y == x))
    };
    let oracle = FnOracle::new(has_subsequence);
    let options = EvalOptions {
        jobs,
        cache,
        ..EvalOptions::default()
    };
    let mut driver = Driver::new(input.to_vec(), &oracle, options);
    let seen = Rc::new(RefCell::new(Vec::new()));
    let sink = seen.clone();
    driver.set_listener(move |e| {
        if let Event::Reduced { bytes, .. } = e {
            sink.borrow_mut().push(bytes.to_vec());
        }
    });
    let mut schedule = myhill::strategy::schedule(strategy, None).unwrap();
    schedule.run(&mut driver).unwrap();
    let mut out = seen.borrow().clone();
    out.push(driver.best().to_vec());
    out
}

fn text() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![
            Just(b'a'),
            Just(b'b'),
            Just(b' '),
            Just(b'\n'),
            Just(b'{'),
            Just(b'}'),
            Just(b'x')
        ],
        1..80,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_strategy_accepts_the_same_reductions_whatever_the_jobs(
        input in text(),
        needle in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'x'), Just(b'{')], 1..4),
        cache in any::<bool>(),
    ) {
        let mut it = input.iter();
        prop_assume!(needle.iter().all(|x| it.any(|y| y == x)));
        for (strategy, _) in myhill::strategy::STRATEGIES {
            let one = accepted(strategy, &input, &needle, 1, cache);
            for jobs in [2, 4] {
                let many = accepted(strategy, &input, &needle, jobs, cache);
                prop_assert_eq!(&one, &many, "strategy {} with {} jobs", strategy, jobs);
            }
        }
    }
}

#[test]
fn speculation_is_reported() {
    let oracle = FnOracle::new(|c: &[u8]| c.contains(&b'7'));
    let input: Vec<u8> = (0..200u32)
        .flat_map(|i| format!("{i}\n").into_bytes())
        .collect();
    let options = EvalOptions {
        jobs: 4,
        ..EvalOptions::default()
    };
    let mut driver = Driver::new(input, &oracle, options);
    let mut schedule =
        myhill::strategy::schedule("ddmin", Some(myhill::Granularity::Lines)).unwrap();
    schedule.run(&mut driver).unwrap();
    let report = driver.report();
    assert!(report.eval.speculative_started > 0);
    assert!(report.eval.speculative_wasted > 0);
    assert_eq!(driver.best(), b"7\n");
}
