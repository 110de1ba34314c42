//! Every figure of the stats file is what its doc says, at `-j 2`: `oracle_runs` is the number
//! of times the test ran (cancelled runs included), `recalled <= tests_run`, wasted speculation
//! never exceeds the speculation started, and resuming a finished run runs the test 0 times.

use myhill::{
    Oracle, ReduceOptions, Reduction, Report, Strategy, Verdict,
    eval::VerdictStore,
    process::{Cancel, OracleError, Outcome},
};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Interesting iff every line of `needle` survives; a success answers after 3 ms, a failure
/// after 8 ms, stopping early when cancelled: the test after a success in the window has
/// started by the time the success answers, whatever the scheduling of the two workers, so
/// it is cancelled. Counts every run it starts and every run cancelled.
struct Counting {
    needle: Vec<&'static [u8]>,
    started: AtomicU64,
    cancelled: AtomicU64,
}

impl Counting {
    fn new(needle: Vec<&'static [u8]>) -> Counting {
        Counting {
            needle,
            started: AtomicU64::new(0),
            cancelled: AtomicU64::new(0),
        }
    }

    fn started(&self) -> u64 {
        self.started.load(Ordering::SeqCst)
    }
}

impl Oracle for Counting {
    fn test(&self, candidate: &[u8], cancel: &Cancel) -> Result<Outcome, OracleError> {
        self.started.fetch_add(1, Ordering::SeqCst);
        let lines: Vec<&[u8]> = candidate.split(|&b| b == b'\n').collect();
        if self.needle.iter().all(|n| lines.contains(n)) {
            std::thread::sleep(Duration::from_millis(3));
            return Ok(Outcome::of(Verdict::Interesting));
        }
        for _ in 0..8 {
            if cancel.is_cancelled() {
                self.cancelled.fetch_add(1, Ordering::SeqCst);
                return Err(OracleError::Cancelled);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok(Outcome::of(Verdict::NotInteresting))
    }
}

/// Verdicts and re-run verdicts, by content key (and re-run number).
type Kept = (HashMap<u128, Verdict>, HashMap<(u128, u32), Verdict>);

/// Verdicts kept in memory, shared between a run and its resumption.
#[derive(Clone, Default)]
struct Memory(Arc<Mutex<Kept>>);

impl VerdictStore for Memory {
    fn recall(&self, key: u128) -> Option<Verdict> {
        self.0.lock().unwrap().0.get(&key).copied()
    }
    fn remember(&mut self, key: u128, verdict: Verdict) {
        self.0.lock().unwrap().0.insert(key, verdict);
    }
    fn recall_rerun(&self, key: u128, nth: u32) -> Option<Verdict> {
        self.0.lock().unwrap().1.get(&(key, nth)).copied()
    }
    fn remember_rerun(&mut self, key: u128, nth: u32, verdict: Verdict) {
        self.0.lock().unwrap().1.insert((key, nth), verdict);
    }
}

fn input() -> Vec<u8> {
    (0..60)
        .flat_map(|i| format!("line {i} {{ x }}\n").into_bytes())
        .collect()
}

fn needle() -> Vec<&'static [u8]> {
    vec![b"line 7 { x }", b"line 41 { x }"]
}

fn options(batch: usize) -> ReduceOptions {
    ReduceOptions {
        jobs: 2,
        batch,
        ..ReduceOptions::default()
    }
}

fn check_figures(report: &Report, oracle: &Counting, what: &str) {
    let eval = &report.eval;
    assert_eq!(
        eval.oracle_runs,
        oracle.started(),
        "{what}: oracle_runs against the runs of the test"
    );
    assert!(eval.recalled <= eval.tests_run, "{what}: {eval:?}");
    assert!(
        eval.speculative_wasted <= eval.speculative_started,
        "{what}: {eval:?}"
    );
}

#[test]
fn oracle_runs_counts_every_run_of_the_test_cancelled_ones_included() {
    for batch in [1, 4] {
        let oracle = Counting::new(needle());
        let mut reduction = Reduction::new(input(), &oracle, options(batch));
        let finished = reduction
            .run(&mut Strategy::named("default").unwrap().schedule())
            .unwrap();
        assert_eq!(finished.best, b"line 7 { x }\nline 41 { x }");
        check_figures(&finished.report, &oracle, &format!("batch {batch}"));
        if batch == 1 {
            assert!(
                oracle.cancelled.load(Ordering::SeqCst) > 0,
                "the case must cancel tests to mean anything"
            );
        }
    }
}

#[test]
fn resuming_a_finished_run_runs_the_test_zero_times() {
    let store = Memory::default();
    let oracle = Counting::new(needle());
    let mut first = Reduction::new(input(), &oracle, options(4));
    first.set_store(store.clone());
    let check = first.check_original().unwrap().to_vec();
    let done = first
        .run(&mut Strategy::named("default").unwrap().schedule())
        .unwrap();
    drop(first);
    check_figures(&done.report, &oracle, "the first run");
    assert!(
        done.report.verify_runs > 0,
        "re-runs between passes must be part of it"
    );

    let again = Counting::new(needle());
    let mut resumed = Reduction::new(input(), &again, options(4));
    resumed.set_store(store.clone());
    resumed.reuse_first_check(&check).unwrap();
    let replayed = resumed
        .run(&mut Strategy::named("default").unwrap().schedule())
        .unwrap();
    drop(resumed);
    assert_eq!(again.started(), 0, "the resumed run ran the test");
    assert_eq!(replayed.best, done.best);
    assert_eq!(replayed.report.eval.tests_run, done.report.eval.tests_run);
    assert_eq!(
        replayed.report.eval.recalled,
        replayed.report.eval.tests_run - check.len() as u64
    );
    check_figures(&replayed.report, &again, "the resumed run");
}

/// The report's figures agree with one another and, where they count what one job would do,
/// with a one-job run: the passes' tests, the first check and the re-runs make `tests_run`;
/// the passes' cache hits make `cache_hits`; the trace ends at the result.
#[test]
fn the_report_adds_up_and_counts_what_one_job_would() {
    for batch in [1, 4] {
        let run = |jobs: usize| {
            let oracle = Counting::new(needle());
            let options = ReduceOptions {
                jobs,
                ..options(batch)
            };
            let mut reduction = Reduction::new(input(), &oracle, options);
            let finished = reduction
                .run(&mut Strategy::named("default").unwrap().schedule())
                .unwrap();
            drop(reduction);
            check_figures(
                &finished.report,
                &oracle,
                &format!("jobs {jobs} batch {batch}"),
            );
            finished
        };
        let (one, two) = (run(1), run(2));
        assert_eq!(one.best, two.best);
        let (a, b) = (&one.report, &two.report);
        for (what, x, y) in [
            ("tests_run", a.eval.tests_run, b.eval.tests_run),
            ("cache_hits", a.eval.cache_hits, b.eval.cache_hits),
            ("interesting", a.eval.interesting, b.eval.interesting),
            ("timeouts", a.eval.timeouts, b.eval.timeouts),
            ("verify_runs", a.verify_runs, b.verify_runs),
            ("first_check_runs", a.first_check_runs, b.first_check_runs),
        ] {
            assert_eq!(x, y, "{what} at batch {batch}: one job against two");
        }
        assert_eq!(a.eval.speculative_started, 0, "one job never speculates");
        assert_eq!(
            a.eval.oracle_runs, a.eval.tests_run,
            "one job runs what it counts"
        );
        for report in [a, b] {
            let passes: u64 = report.passes.iter().map(|p| p.tests).sum();
            assert_eq!(
                passes + report.first_check_runs + report.verify_runs,
                report.eval.tests_run
            );
            let hits: u64 = report.passes.iter().map(|p| p.cache_hits).sum();
            assert_eq!(hits, report.eval.cache_hits);
            assert_eq!(report.trace.last().map(|t| t.1), Some(report.final_bytes));
            assert!(report.confirmed);
            assert_eq!(report.jobs, if std::ptr::eq(report, a) { 1 } else { 2 });
        }
    }
}
