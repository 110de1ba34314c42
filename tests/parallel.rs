//! `--jobs` changes the speed, never the answer: every strategy, and the large-input chunk
//! passes, accept the same reductions in the same order with 1, 2 and 4 jobs, with or without a
//! test budget.

use myhill::{FnOracle, ReduceOptions, Reduction, Strategy as Named, text::Granularity};
use proptest::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;

/// Runs `strategy` with `jobs` and returns every accepted best, in order, then the result and
/// the tests counted.
fn accepted(
    strategy: &str,
    input: &[u8],
    needle: &[u8],
    jobs: usize,
    cache: bool,
    max_tests: Option<u64>,
) -> (Vec<Vec<u8>>, u64) {
    accepted_in_batches(strategy, input, needle, jobs, cache, max_tests, 1)
}

/// [`accepted`] with candidates tested in batches of `batch`.
fn accepted_in_batches(
    strategy: &str,
    input: &[u8],
    needle: &[u8],
    jobs: usize,
    cache: bool,
    max_tests: Option<u64>,
    batch: usize,
) -> (Vec<Vec<u8>>, u64) {
    let has_subsequence = |c: &[u8]| {
        let mut it = c.iter();
        needle.iter().all(|x| it.any(|y| y == x))
    };
    let oracle = FnOracle::new(has_subsequence);
    let options = ReduceOptions {
        jobs,
        cache,
        max_tests,
        batch,
        ..ReduceOptions::default()
    };
    let mut reduction = Reduction::new(input.to_vec(), &oracle, options);
    let seen = Rc::new(RefCell::new(Vec::new()));
    let sink = seen.clone();
    reduction.on_event(move |e| {
        if let myhill::Event::Reduced { bytes, .. } = e {
            sink.borrow_mut().push(bytes.to_vec());
        }
    });
    let mut schedule = Named::named(strategy).unwrap().schedule();
    let finished = reduction.run(&mut schedule).unwrap();
    drop(reduction);
    let mut out = seen.borrow().clone();
    out.push(finished.best.clone());
    (out, finished.report.eval.tests_run)
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
        budget in proptest::option::of(4u64..60),
    ) {
        let mut it = input.iter();
        prop_assume!(needle.iter().all(|x| it.any(|y| y == x)));
        for strategy in myhill::strategy::STRATEGIES.iter().map(|s| s.name) {
            let one = accepted(strategy, &input, &needle, 1, cache, budget);
            if let Some(max) = budget {
                prop_assert!(one.1 <= max, "{} tests over a budget of {}", one.1, max);
            }
            for jobs in [2, 4] {
                let many = accepted(strategy, &input, &needle, jobs, cache, budget);
                prop_assert_eq!(&one, &many, "strategy {} with {} jobs", strategy, jobs);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn batches_give_the_same_reductions_whatever_the_jobs(
        input in text(),
        needle in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'x'), Just(b'{')], 1..4),
        cache in any::<bool>(),
        budget in proptest::option::of(4u64..60),
        batch in 2usize..9,
    ) {
        let mut it = input.iter();
        prop_assume!(needle.iter().all(|x| it.any(|y| y == x)));
        let one = accepted_in_batches("default", &input, &needle, 1, cache, budget, batch);
        if let Some(max) = budget {
            prop_assert!(one.1 <= max, "{} tests over a budget of {}", one.1, max);
        }
        let result = one.0.last().unwrap();
        let mut it = result.iter();
        prop_assert!(needle.iter().all(|x| it.any(|y| y == x)));
        for jobs in [2, 5] {
            let many = accepted_in_batches("default", &input, &needle, jobs, cache, budget, batch);
            prop_assert_eq!(&one, &many, "batch {} with {} jobs", batch, jobs);
        }
    }
}

#[test]
fn batches_reach_a_minimum_on_lines() {
    // 200 lines, three needed: batches of 16 find them as binary splitting does.
    let input: Vec<u8> = (0..200u32)
        .flat_map(|i| format!("step {i}\n").into_bytes())
        .collect();
    let lines = ["step 37", "step 118", "step 161"];
    let needed = |c: &[u8]| {
        let text = String::from_utf8_lossy(c);
        lines.iter().all(|l| text.lines().any(|x| x == *l))
    };
    let oracle = FnOracle::new(needed);
    let options = ReduceOptions {
        batch: 16,
        jobs: 4,
        ..ReduceOptions::default()
    };
    let mut reduction = Reduction::new(input, &oracle, options);
    let finished = reduction
        .run(&mut Named::named("default").unwrap().schedule())
        .unwrap();
    assert_eq!(finished.best, b"step 37\nstep 118\nstep 161");
    assert!(finished.report.confirmed);
    // 80 before plain text was cut to bytes: DDMin over the bytes of the three lines then
    // shows that none can go (134 with these batches).
    assert!(
        finished.report.eval.tests_run <= 140,
        "{}",
        finished.report.eval.tests_run
    );
}

#[test]
fn speculation_is_reported() {
    let oracle = FnOracle::new(|c: &[u8]| c.contains(&b'7'));
    let input: Vec<u8> = (0..200u32)
        .flat_map(|i| format!("{i}\n").into_bytes())
        .collect();
    let options = ReduceOptions {
        jobs: 4,
        ..ReduceOptions::default()
    };
    let mut reduction = Reduction::new(input, &oracle, options);
    let mut schedule = Named::named("ddmin")
        .unwrap()
        .with_units(Some(Granularity::Lines))
        .schedule();
    let finished = reduction.run(&mut schedule).unwrap();
    let report = &finished.report;
    assert!(report.eval.speculative_started > 0);
    assert!(report.eval.speculative_wasted > 0);
    assert_eq!(finished.best, b"7\n");
}

#[test]
fn with_batches_a_lucky_result_is_still_rolled_back_the_same_way_at_any_jobs() {
    // "x" alone passes only the first time, like a reduced program whose undefined
    // behaviour printed the right thing once; the re-run beside the next pass catches it.
    let run = |jobs: usize| {
        let seen = std::sync::atomic::AtomicBool::new(false);
        let oracle = FnOracle::new(move |c: &[u8]| {
            c.contains(&b'x')
                && (c != b"x" || !seen.swap(true, std::sync::atomic::Ordering::SeqCst))
        });
        let options = ReduceOptions {
            batch: 4,
            jobs,
            ..ReduceOptions::default()
        };
        let mut reduction = Reduction::new(b"ab x cd\nef gh\n".to_vec(), &oracle, options);
        let finished = reduction
            .run(&mut Named::named("default").unwrap().schedule())
            .unwrap();
        (
            finished.best,
            finished.report.rollbacks,
            finished.report.confirmed,
        )
    };
    let one = run(1);
    assert!(one.0.contains(&b'x') && one.0 != b"x", "{:?}", one.0);
    assert!(one.1 >= 1);
    assert!(one.2);
    assert_eq!(run(3), one);
}

/// A large-input-shaped text: declarations, a JSON-like list with commas, and blocks.
fn forms_text(n: usize, seed: u64) -> Vec<u8> {
    let mut out = String::new();
    let mut x = seed | 1;
    for i in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        match x % 4 {
            0 => out.push_str(&format!("int v{i} = {};\n", x % 1000)),
            1 => out.push_str(&format!(
                "{{\"k{i}\": [{}, {}, {}]}},\n",
                x % 7,
                x % 11,
                x % 13
            )),
            2 => out.push_str(&format!(
                "void f{i}(int a) {{\n  return a + {};\n}}\n",
                x % 5
            )),
            _ => out.push_str(&format!("struct S{i} {{ int m; }};\n")),
        }
    }
    out.into_bytes()
}

/// Runs the large-input chunk passes with `jobs` and returns every accepted best, in order,
/// then the result and the tests counted.
/// Runs the passes `names` with `jobs`, the test needing every string of `keep`, and returns
/// every accepted best, in order, then the result and the tests counted.
fn passes_accepted(
    names: &[&str],
    input: &[u8],
    keep: &[Vec<u8>],
    jobs: usize,
    max_tests: Option<u64>,
) -> (Vec<Vec<u8>>, u64) {
    let oracle =
        FnOracle::new(|c: &[u8]| keep.iter().all(|k| c.windows(k.len()).any(|w| w == &k[..])));
    let options = ReduceOptions {
        jobs,
        max_tests,
        ..ReduceOptions::default()
    };
    let mut reduction = Reduction::new(input.to_vec(), &oracle, options);
    let seen = Rc::new(RefCell::new(Vec::new()));
    let sink = seen.clone();
    reduction.on_event(move |e| {
        if let myhill::Event::Reduced { bytes, .. } = e {
            sink.borrow_mut().push(bytes.to_vec());
        }
    });
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let mut schedule = myhill::strategy::schedule_of(&names).unwrap();
    let finished = reduction.run(&mut schedule).unwrap();
    drop(reduction);
    let mut out = seen.borrow().clone();
    out.push(finished.best.clone());
    (out, finished.report.eval.tests_run)
}

/// Checks that the passes `names` accept the same bests in the same order at 1, 2 and 4 jobs,
/// the test needing the lines `picks` chooses, and that `-j 1` keeps to the budget.
fn same_whatever_the_jobs(
    names: &[&str],
    input: &[u8],
    picks: &[prop::sample::Index],
    budget: Option<u64>,
) -> Result<(), TestCaseError> {
    let lines: Vec<&[u8]> = input
        .split(|&b| b == b'\n')
        .filter(|l| l.len() > 3)
        .collect();
    let keep: Vec<Vec<u8>> = picks.iter().map(|i| i.get(&lines).to_vec()).collect();
    let one = passes_accepted(names, input, &keep, 1, budget);
    if let Some(max) = budget {
        prop_assert!(one.1 <= max, "{} tests over a budget of {}", one.1, max);
    }
    for jobs in [2, 4] {
        let many = passes_accepted(names, input, &keep, jobs, budget);
        prop_assert_eq!(&one, &many, "{} jobs", jobs);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn the_chunk_passes_accept_the_same_reductions_whatever_the_jobs(
        n in 8usize..120,
        seed in any::<u64>(),
        picks in proptest::collection::vec(any::<prop::sample::Index>(), 1..4),
        budget in proptest::option::of(3u64..40),
    ) {
        // Speculation over the chunk sweeps (most deletions succeed here) never changes the answer.
        let input = forms_text(n, seed);
        same_whatever_the_jobs(&["chunks/bodies", "chunks/forms"], &input, &picks, budget)?;
    }
}

/// Declarations nobody mentions, of a few shapes, every name distinct.
fn dead_text(n: usize, seed: u64) -> Vec<u8> {
    let mut out = String::new();
    let mut x = seed | 1;
    for i in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        match x % 4 {
            0 => out.push_str(&format!("int v{i} = {};\n", x % 1000)),
            1 => out.push_str(&format!("typedef long t{i};\n")),
            2 => out.push_str(&format!(
                "void f{i}(int a) {{\n  return a + {};\n}}\n",
                x % 5
            )),
            _ => out.push_str(&format!("struct S{i} {{ int m{i}; }};\n")),
        }
    }
    out.into_bytes()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn the_dead_declarations_pass_accepts_the_same_reductions_whatever_the_jobs(
        n in 8usize..120,
        seed in any::<u64>(),
        picks in proptest::collection::vec(any::<prop::sample::Index>(), 1..24),
        budget in proptest::option::of(3u64..80),
    ) {
        // Many dead declarations, some needed by the test: the single deletions of the last
        // sweeps alternate failures and successes, and the jobs pull candidates past the one
        // accepted. Only those judged before it may count as needed.
        let input = dead_text(n, seed);
        same_whatever_the_jobs(&["chunks/dead"], &input, &picks, budget)?;
    }
}
