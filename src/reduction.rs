//! One reduction from start to end: the first check, the budget, re-runs, rollback, the final confirmation.
//!
//! Main types: [`Reduction`], [`ReduceOptions`] and [`Finished`]. A reduction owns the
//! [`Driver`] (the best, acceptance) and adds the guarantees around it, the same for the
//! command line and for library users:
//!
//! 1. **The first check.** The unchanged original is run [`ReduceOptions::first_runs`] times
//!    (through the evaluator, counted as tests). The first run [`Oracle::calibrate`]s the
//!    oracle. A hang costs one timeout; different verdicts are [`Error::Flaky`] unless
//!    [`ReduceOptions::allow_flaky`] (then every success is confirmed by a second run); no
//!    interesting verdict is [`Error::NotInteresting`].
//! 2. **One budget.** [`ReduceOptions::max_tests`] counts every test: the first check, the
//!    passes, the re-runs and the final confirmation (one test is held back for it), as a
//!    one-job run counts them, so the result is the same for every `jobs`.
//! 3. **Re-runs and rollback.** After every pass that changed the best, the best is run once
//!    more (inside one file of a tree too: the whole tree, after each pass of the file's
//!    schedule; a rollback then puts back the whole tree and the file's schedule goes on with
//!    the file as it is there). If that run fails, the original is run again: if it fails too, the test broke
//!    during the run and the run stops ([`Stop::Oracle`]) keeping its best. Else the test is
//!    flaky on reduced inputs: the best goes back to the last result that passed a re-run,
//!    every cached success is forgotten and every later success is confirmed by a second run.
//! 4. **The final confirmation.** A result no re-run has confirmed yet (the run stopped in a
//!    pass) is run once more through the evaluator; if it fails, the result is the last one
//!    that passed. An interrupted run keeps its best unconfirmed rather than run another test.
//! 5. **Interruption.** [`Control::stop`] ends the run at the next test, keeping the best.
//! 6. **One event stream.** Every [`Event`] goes to the listener set by
//!    [`Reduction::on_event`]: started, tested, pass started, progress and done, reduced,
//!    rolled back, finished.
//!
//! ```
//! use myhill::{FnOracle, Reduction, ReduceOptions, Strategy};
//! let oracle = FnOracle::new(|b: &[u8]| String::from_utf8_lossy(b).contains("bug"));
//! let input = b"fn main() {\n  let x = 1;\n  bug();\n}\n".to_vec();
//! let mut reduction = Reduction::new(input, &oracle, ReduceOptions::default());
//! let finished = reduction.run(&mut Strategy::named("default").unwrap().schedule()).unwrap();
//! assert_eq!(finished.best, b"bug");
//! assert!(finished.report.confirmed);
//! ```
//!
//! Limits: a test that is flaky on reduced inputs is caught only at the end of the pass that
//! accepted a lucky result; after three rollbacks the re-runs between passes stop (every
//! success is confirmed by then).

use crate::certify::{Certificate, Minimality, certify};
use crate::cx::Cx;
use crate::error::Error;
use crate::eval::{EvalOptions, Rerun, VerdictStore};
use crate::kind::Decided;
use crate::oracle::{Control, Oracle, Outcome, Verdict};
use crate::report::{Counter, Event, Events, Report, Stop};
use crate::rounds::{self, Checkpoints, Settings};
use crate::schedule::Schedule;
use crate::units::{Granularity, Units};
use std::sync::Arc;
use std::time::Instant;

/// How a reduction runs.
#[derive(Clone, Debug)]
pub struct ReduceOptions {
    /// Tests run at once; never changes the result.
    pub jobs: usize,
    /// Answer repeated candidates from the content cache.
    pub cache: bool,
    /// Stop after this many tests in all (see the module doc).
    pub max_tests: Option<u64>,
    /// Runs of the unchanged original before reducing (at least one).
    pub first_runs: u32,
    /// Go on when the first runs disagree, confirming every success.
    pub allow_flaky: bool,
    /// Re-run the best between passes and at the end.
    pub verify: bool,
    /// Stops, hurries or skips from outside.
    pub control: Control,
    /// The most bytes of candidates held for speculation at once (default: 64 MiB or the
    /// input's size, whichever is more), which bounds memory at about three times the input.
    pub window_bytes: Option<usize>,
    /// Candidates tested together by the passes that batch (1: none). A batch is tested
    /// whole and its successes merged, so many jobs do not waste their tests behind each
    /// success; the result depends on the batch, never on `jobs`.
    pub batch: usize,
}

impl Default for ReduceOptions {
    fn default() -> Self {
        ReduceOptions {
            jobs: 1,
            cache: true,
            max_tests: None,
            first_runs: 2,
            allow_flaky: false,
            verify: true,
            control: Control::new(),
            window_bytes: None,
            batch: 1,
        }
    }
}

/// The end of a run.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The result: the smallest interesting input found (the last confirmed one if a later
    /// one failed its confirmation).
    pub best: Vec<u8>,
    /// The figures, with why the run stopped early if it did.
    pub report: Report,
}

impl Finished {
    /// Whether the result has at most one byte: a test that accepts that often accepts
    /// almost anything.
    pub fn is_trivial(&self) -> bool {
        self.best.len() <= 1
    }
}

/// Rollbacks after which re-runs between passes stop: by then every success is confirmed,
/// and a test that still fools that is beyond what re-runs can fix.
const MAX_ROLLBACKS: u64 = 3;

/// One reduction of one input; see the module doc.
pub struct Reduction<'o> {
    cx: Cx<'o>,
    /// The run's one event stream; the driver and its evaluator report to it.
    events: Events<'o>,
    options: ReduceOptions,
    trust: Trust,
    first_check: Option<Vec<Outcome>>,
    started: Instant,
}

impl<'o> Reduction<'o> {
    /// A reduction of `input` with `oracle`.
    pub fn new(input: Vec<u8>, oracle: &'o dyn Oracle, options: ReduceOptions) -> Self {
        let eval = EvalOptions {
            jobs: options.jobs.max(1),
            cache: options.cache,
            max_tests: options.max_tests,
            control: options.control.clone(),
            window_bytes: options.window_bytes.unwrap_or((64 << 20).max(input.len())),
            batch: options.batch.max(1),
        };
        let mut cx = Cx::new(input, oracle, eval);
        let events = Events::default();
        cx.evaluator().set_events(events.clone());
        Reduction {
            events,
            trust: Trust {
                verified: cx.best_shared(),
                original: cx.best_shared(),
                verify_runs: 0,
                rollbacks: 0,
                allow_flaky: options.allow_flaky,
            },
            cx,
            options,
            first_check: None,
            started: Instant::now(),
        }
    }

    /// Sets the input's kind for the whole run (by default, the original's content decides
    /// it): the kind its file name gives, or the one the user chose; see [`crate::text::Kind`].
    pub fn set_kind(&mut self, kind: Decided) {
        self.cx.set_kind(kind);
    }

    /// Sends every [`Event`] to `f`.
    pub fn on_event(&mut self, f: impl FnMut(&Event) + 'o) {
        self.events.listen(f);
    }

    /// Consults and feeds `store` for every test (a run directory's verdict cache): a
    /// candidate whose verdict it holds is not tested again, but counts as the test it was.
    pub fn set_store(&mut self, store: impl VerdictStore + 'o) {
        self.cx.evaluator().set_store(store);
    }

    /// The best so far.
    pub fn best(&self) -> &[u8] {
        self.cx.best()
    }

    /// Runs the unchanged original (see the module doc) unless that was done; returns the
    /// outcomes of its runs, which keep what the test printed.
    pub fn check_original(&mut self) -> Result<&[Outcome], Error> {
        if self.first_check.is_none() {
            let outcomes = self.first_runs()?;
            self.adopt_first_check(outcomes)?;
        }
        Ok(self.first_check.as_deref().unwrap_or_default())
    }

    /// Takes the first check of another reduction of the same input with the same oracle
    /// (`compare` runs several strategies from one check; a resumed run takes its own): its
    /// runs count as this one's tests, and the first calibrates the oracle.
    pub fn reuse_first_check(&mut self, outcomes: &[Outcome]) -> Result<(), Error> {
        let eval = self.cx.evaluator();
        if let Some(first) = outcomes.first() {
            eval.calibrate(first);
        }
        for o in outcomes {
            eval.count_external(&self.trust.verified, o.verdict);
        }
        self.adopt_first_check(outcomes.to_vec())
    }

    fn first_runs(&mut self) -> Result<Vec<Outcome>, Error> {
        let runs = self.options.first_runs.max(1);
        if let Some(max) = self.options.max_tests {
            let needed = u64::from(runs) + u64::from(self.options.verify);
            if max < needed {
                return Err(Error::BadOption(format!(
                    "--max-tests {max} leaves nothing to reduce with: the first check runs the \
                     original {runs} times{}; give at least {}",
                    if self.options.verify {
                        " and one test is kept to confirm the result"
                    } else {
                        ""
                    },
                    needed + 1
                )));
            }
        }
        let original = self.trust.verified.clone();
        let stop = |stop| match stop {
            Stop::Oracle(msg) => Error::Oracle(msg),
            _ => Error::Interrupted,
        };
        let eval = self.cx.evaluator();
        let outcomes = if eval.jobs() > 1 {
            // All at once: the check takes one test's time, not `runs`.
            let outcomes = eval
                .run_verbose_all(&original, runs as usize)
                .map_err(stop)?;
            eval.calibrate(&outcomes[0]);
            outcomes
        } else {
            let mut outcomes = Vec::new();
            for k in 0..runs {
                let outcome = eval.run_verbose(&original).map_err(stop)?;
                if k == 0 {
                    eval.calibrate(&outcome);
                }
                let hangs = outcome.verdict == Verdict::TimedOut;
                outcomes.push(outcome);
                if hangs {
                    // One timeout is enough to know: a second would cost as much again.
                    break;
                }
            }
            outcomes
        };
        Ok(outcomes)
    }

    fn adopt_first_check(&mut self, outcomes: Vec<Outcome>) -> Result<(), Error> {
        let verdicts: Vec<Verdict> = outcomes.iter().map(|o| o.verdict).collect();
        let last = outcomes.last().expect("at least one run").clone();
        if last.verdict == Verdict::TimedOut {
            return Err(Error::Hangs(Box::new(last)));
        }
        if verdicts.windows(2).any(|w| w[0] != w[1]) {
            if !self.options.allow_flaky {
                return Err(Error::Flaky(outcomes));
            }
            self.cx.evaluator().set_confirm(1);
        }
        if !verdicts.contains(&Verdict::Interesting) {
            return Err(Error::NotInteresting(Box::new(last)));
        }
        self.first_check = Some(outcomes);
        Ok(())
    }

    /// Runs `schedule` from the current best to its end, or until the budget, an
    /// interruption, or a test that can no longer run stops it (see [`Report::stopped`]).
    pub fn run(&mut self, schedule: &mut Schedule) -> Result<Finished, Error> {
        self.check_original()?;
        let (bytes, jobs) = (self.cx.best().len(), self.cx.jobs());
        self.events.emit(&Event::Started { bytes, jobs });
        let verify = self.options.verify;
        if verify && self.options.max_tests.is_some() {
            self.cx.evaluator().set_reserve(1);
        }
        let stopped = self.run_rounds(schedule).err();
        self.cx.evaluator().release_reserve();
        let stopped = match stopped {
            // A broken test would fail the confirmation too, and roll the best back.
            Some(stop @ (Stop::Interrupted | Stop::Oracle(_))) => Some(stop),
            other if verify => match self.trust.verify_best(&mut self.cx) {
                Ok(()) => other,
                Err(stop) => Some(stop),
            },
            other => other,
        };
        let mut report = self.report();
        report.stopped = stopped;
        let finished = Finished {
            best: self.cx.best().to_vec(),
            report,
        };
        self.events.emit(&Event::Finished {
            best: &finished.best,
            report: &finished.report,
        });
        Ok(finished)
    }

    /// Runs the schedule through the round engine ([`crate::rounds`]), with the re-runs
    /// between passes as its checkpoints.
    ///
    /// The best is re-run after each pass that changed it. With batches, that re-run goes on
    /// beside the next passes (started at once when several jobs are allowed: one test more
    /// than `jobs` may run then) and its verdict is taken when the next pass that changes the
    /// best ends, or when the rounds end, so a re-run costs no wave of its own; the decision
    /// falls at the same point whatever the jobs, so the result does not depend on them.
    fn run_rounds(&mut self, schedule: &mut Schedule) -> Result<(), Stop> {
        let defer = self.options.batch > 1;
        let background = self.options.jobs > 1;
        let settings = Settings {
            control: self.options.control.clone(),
            jobs: self.options.jobs,
            batch: self.options.batch,
            look_ahead: defer && background,
        };
        let verify = self.options.verify;
        let (cx, trust) = (&mut self.cx, &mut self.trust);
        std::thread::scope(|scope| {
            let mut checks = Rechecks {
                trust,
                verify,
                defer,
                scope: background.then_some(scope),
                deferred: None,
            };
            let result = rounds::run(cx, schedule, &settings, &mut checks);
            if let Some(d) = checks.deferred.take() {
                cx.evaluator().abandon_rerun(d);
            }
            result
        })
    }

    /// Certifies the current best at `granularity` (see [`certify`]), after the first check.
    pub fn certify(
        &mut self,
        granularity: Granularity,
        property: Minimality,
    ) -> Result<Certificate, Error> {
        self.check_original()?;
        let units = Units::cut(self.cx.best(), granularity);
        certify(self.cx.evaluator(), &units, property).map_err(|stop| match stop {
            Stop::Oracle(msg) => Error::Oracle(msg),
            Stop::Budget => Error::BadOption("--max-tests ran out before the check ended".into()),
            _ => Error::Interrupted,
        })
    }

    /// Certifies one file of a tree (the best is an [`crate::archive::Archive`]; `entry` indexes its
    /// entries) at `granularity`: each deletion in that file is tested as the whole tree, and
    /// a `smaller` result is the whole tree. After the first check.
    pub fn certify_file(
        &mut self,
        entry: usize,
        granularity: Granularity,
        property: Minimality,
    ) -> Result<Certificate, Error> {
        self.check_original()?;
        let best = self.cx.best_shared();
        let tree = crate::archive::Archive::decode(&best)
            .map_err(|e| Error::BadOption(format!("the input is not a directory tree: {e}")))?;
        let splice = tree
            .splice(entry)
            .ok_or_else(|| Error::BadOption(format!("entry {entry} is not a regular file")))?;
        let units = Units::cut(splice.content(&best), granularity);
        let lift = |content: &[u8]| splice.lift(content);
        crate::certify::certify_in(self.cx.evaluator(), &units, property, Some(&lift)).map_err(
            |stop| match stop {
                Stop::Oracle(msg) => Error::Oracle(msg),
                Stop::Budget => {
                    Error::BadOption("--max-tests ran out before the check ended".into())
                }
                _ => Error::Interrupted,
            },
        )
    }

    /// Everything measured so far.
    pub fn report(&self) -> Report {
        let mut report = self.cx.report();
        report.wall = self.started.elapsed();
        report.first_check_runs = self.first_check.as_ref().map_or(0, |f| f.len() as u64);
        report.verify_runs = self.trust.verify_runs;
        report.rollbacks = self.trust.rollbacks;
        report.confirmed = self.cx.best() == self.trust.verified.as_slice();
        report
    }
}

/// Why a run stops when the original, which passed the first check, fails now: how the test
/// ended, and the last line it printed on stderr (escaped).
fn broken_test(outcome: &Outcome) -> String {
    let how = match outcome.exit_code {
        Some(code) => format!("exit {code}"),
        None => outcome.describe(),
    };
    let said = String::from_utf8_lossy(&outcome.stderr.tail)
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(|l| {
            let line: String = l.trim().chars().take(200).collect();
            format!(" ({})", line.escape_debug())
        })
        .unwrap_or_default();
    format!(
        "the test now fails on the original: {how}{said}, where the first check passed. The \
         test broke during the run (a script no longer executable, a tool removed, a full \
         disk?): the best so far is kept; fix the test, then resume the run"
    )
}

/// The results the re-runs confirmed, what they cost, and the original they are told apart
/// from a broken test by.
struct Trust {
    /// The last result that passed a re-run (at first the original, once checked).
    verified: Arc<Vec<u8>>,
    /// The input as given, run again when a best fails its re-run: if the original fails
    /// too, the test broke rather than flaked.
    original: Arc<Vec<u8>>,
    verify_runs: u64,
    rollbacks: u64,
    allow_flaky: bool,
}

impl Trust {
    /// Takes the verdict of a deferred re-run (running it now if it did not start) and rolls
    /// back if it failed, as [`Trust::verify_best`] does.
    fn settle(&mut self, cx: &mut Cx, deferred: Rerun) -> Result<(), Stop> {
        self.count_rerun(cx);
        let best = deferred.bytes().clone();
        let verdict = cx.evaluator().finish_rerun(deferred)?;
        if verdict.is_interesting() {
            self.verified = best;
            return Ok(());
        }
        self.roll_back(cx)
    }

    /// A re-run of the best, noted as one inside a file's schedule while focused on a file.
    fn count_rerun(&mut self, cx: &mut Cx) {
        self.verify_runs += 1;
        if cx.view().path().is_some() {
            cx.count(Counter::FilesEachReruns, 1);
        }
    }

    /// Re-runs the best (the whole input, the tree around it while focused on one file) if
    /// no re-run has confirmed it; rolls back if it fails.
    fn verify_best(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        let best = cx.whole();
        if best == self.verified {
            return Ok(());
        }
        self.count_rerun(cx);
        if cx.evaluator().rerun(&best)?.is_interesting() {
            self.verified = best;
            return Ok(());
        }
        self.roll_back(cx)
    }

    /// After the best failed its re-run: a test that is flaky on reduced inputs, or one that
    /// stopped working (its script made non-executable, a tool removed, a full disk). The
    /// original tells them apart: if it fails as well (twice, three times with
    /// `allow_flaky`), the run stops with [`Stop::Oracle`] and keeps its best, rather than roll
    /// back to the last confirmed result and go on testing in vain. Else the best goes back
    /// to that result and every later success is confirmed.
    fn roll_back(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        let tries = if self.allow_flaky { 3 } else { 2 };
        let original = self.original.clone();
        let mut failed = None;
        for _ in 0..tries {
            match cx.evaluator().run_verbose(&original) {
                Ok(outcome) if outcome.verdict.is_interesting() => {
                    failed = None;
                    break;
                }
                Ok(outcome) => failed = Some(outcome),
                // No test left to tell: a rollback loses nothing.
                Err(Stop::Budget) => {
                    failed = None;
                    break;
                }
                Err(stop) => return Err(stop),
            }
        }
        if let Some(outcome) = failed {
            return Err(Stop::Oracle(broken_test(&outcome)));
        }
        self.rollbacks += 1;
        cx.count(Counter::FlakyRollbacks, 1);
        if cx.view().path().is_some() {
            cx.count(Counter::FilesEachRollbacks, 1);
        }
        cx.evaluator().distrust();
        cx.roll_back_to(self.verified.clone());
        Ok(())
    }
}

/// The reduction's checkpoints for the round engine: the re-run after each pass that changed
/// the best, now or (with batches) beside the next passes.
struct Rechecks<'a, 's, 'e> {
    trust: &'a mut Trust,
    verify: bool,
    defer: bool,
    scope: Option<&'s std::thread::Scope<'s, 'e>>,
    deferred: Option<Rerun<'s, 'e>>,
}

impl<'o: 's, 's> Checkpoints<'o> for Rechecks<'_, 's, '_> {
    fn after_pass(&mut self, cx: &mut Cx<'o>, paid: bool) -> Result<(), Stop> {
        if !self.verify || self.trust.rollbacks >= MAX_ROLLBACKS {
            return Ok(());
        }
        if !self.defer {
            return self.trust.verify_best(cx);
        }
        if !paid {
            return Ok(());
        }
        if let Some(d) = self.deferred.take() {
            self.trust.settle(cx, d)?;
        }
        let best = cx.whole();
        if best != self.trust.verified && self.trust.rollbacks < MAX_ROLLBACKS {
            self.deferred = Some(cx.evaluator().start_rerun(self.scope, best));
        }
        Ok(())
    }

    fn settle(&mut self, cx: &mut Cx<'o>) -> Result<(), Stop> {
        match self.deferred.take() {
            Some(d) => self.trust.settle(cx, d),
            None => Ok(()),
        }
    }

    fn rollbacks(&self) -> u64 {
        self.trust.rollbacks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A disabled pass runs no test; the others do the work alone.
    #[test]
    fn a_disabled_pass_runs_no_further_test() {
        let names = ["split/lines", "split/tokens"].map(String::from);
        let mut schedule = crate::strategy::schedule_of(&names).unwrap();
        let oracle = crate::FnOracle::new(|b: &[u8]| b.windows(3).any(|w| w == b"key"));
        let input: Vec<u8> = (0..30)
            .flat_map(|i| format!("w{i} key x\n").into_bytes())
            .collect();
        let options = ReduceOptions::default();
        options.control.set_disabled("split/lines", true);
        assert!(options.control.is_disabled("split/lines"));
        let finished = Reduction::new(input, &oracle, options)
            .run(&mut schedule)
            .unwrap();
        let report = &finished.report;
        assert!(
            report.passes.iter().all(|p| p.name != "split/lines"),
            "{report:?}"
        );
        assert!(
            report
                .passes
                .iter()
                .any(|p| p.name == "split/tokens" && p.tests > 0)
        );
        assert_eq!(finished.best, b"key");
    }

    /// While paused no test starts; once resumed the run ends as it would have.
    #[test]
    fn no_test_starts_while_paused() {
        use std::sync::atomic::{AtomicU64, Ordering};
        let names = ["split/lines"].map(String::from);
        let calls = std::sync::Arc::new(AtomicU64::new(0));
        let counted = calls.clone();
        let oracle = crate::FnOracle::new(move |b: &[u8]| {
            counted.fetch_add(1, Ordering::SeqCst);
            b.windows(3).any(|w| w == b"key")
        });
        let input: Vec<u8> = (0..20)
            .flat_map(|i| format!("w{i}\n").into_bytes())
            .chain(*b"key\n")
            .collect();
        let options = ReduceOptions {
            jobs: 2,
            ..ReduceOptions::default()
        };
        let control = options.control.clone();
        control.pause();
        std::thread::scope(|scope| {
            let run = scope.spawn(|| {
                let mut schedule = crate::strategy::schedule_of(&names).unwrap();
                Reduction::new(input.clone(), &oracle, options).run(&mut schedule)
            });
            std::thread::sleep(std::time::Duration::from_millis(300));
            assert_eq!(calls.load(Ordering::SeqCst), 0, "a test ran while paused");
            control.resume();
            let finished = run.join().unwrap().unwrap();
            assert_eq!(finished.best, b"key\n");
            assert!(calls.load(Ordering::SeqCst) > 0);
        });
    }
}
