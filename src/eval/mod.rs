//! The one evaluation path: content cache, then the job pool, then the oracle.
//!
//! Main types: [`Evaluator`] and [`EvalOptions`]. Every candidate of every pass is tested
//! through [`Evaluator::first_interesting`], which pulls candidates lazily, answers repeats
//! from a cache keyed by a 128-bit hash of the bytes, and with `jobs > 1` tests the following
//! candidates speculatively while the earliest one runs. Verdicts are committed in proposal
//! order, so the first interesting candidate in order wins exactly as it would sequentially;
//! tests that can no longer win are cancelled at once.
//!
//! Counting is sequential too: [`crate::report::EvalStats::tests_run`] counts the tests a one-job run
//! would make, and the budget counts the same, so `--max-tests` gives the same result for every
//! `--jobs`. A speculative verdict that was not needed is kept apart from the cache and is
//! charged as a test when a later candidate needs it; the cache that passes may read
//! ([`Evaluator::cached`]) holds only committed verdicts. After a success fails a re-run,
//! [`Evaluator::distrust`] makes every later success pay for a confirming run.
//!
//! The parts, each owning one thing: `verdicts` (the committed cache, spare verdicts, the
//! [`VerdictStore`]), `budget` (`--max-tests` and the tests held back), `pool` (tests on
//! worker threads; the one place the oracle is called) and `window` (speculation in proposal
//! order, and the lookahead). This file is the front: what a pass, the driver and the
//! reduction may ask, and the counting every path shares.
//!
//! ```
//! use myhill::{FnOracle, eval::{EvalOptions, Evaluator}};
//! let oracle = FnOracle::new(|b: &[u8]| b.len() >= 2);
//! let mut eval = Evaluator::new(&oracle, EvalOptions::default());
//! let mut candidates = vec![b"a".to_vec(), b"bc".to_vec()].into_iter().map(|c| (c, ()));
//! let won = eval.first_interesting(&mut || candidates.next()).unwrap();
//! assert_eq!(won.unwrap().0, b"bc");
//! assert_eq!(eval.stats().tests_run, 2);
//! ```
//!
//! Limits: the window of speculative candidates is at most `4 * jobs` long and holds at most
//! [`EvalOptions::window_bytes`] of candidates (always at least one); an in-process oracle
//! ignores cancellation, so its cancelled tests simply run to the end.

mod budget;
mod pool;
mod verdicts;
mod window;

pub use verdicts::{VerdictStore, content_key};

use crate::oracle::{Cancel, Control, Oracle, OracleError, Outcome, Verdict};
use crate::report::{EvalStats, Event, Events, Stop};
use budget::{Budget, YieldWatch};
use pool::{Pool, Runs};
use std::cell::Cell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;
use std::thread::Scope;
use std::time::Instant;
use verdicts::{Known, Verdicts};

/// How candidates are evaluated.
#[derive(Clone, Debug)]
pub struct EvalOptions {
    /// Tests run at once; 1 means strictly sequential.
    pub jobs: usize,
    /// Answer repeated candidates from the content cache.
    pub cache: bool,
    /// Stop after this many tests (as [`crate::report::EvalStats::tests_run`] counts them).
    pub max_tests: Option<u64>,
    /// Stops, hurries or skips from outside.
    pub control: Control,
    /// The most bytes of candidates held for speculation at once.
    pub window_bytes: usize,
    /// Candidates a batching pass tests together, whatever `jobs` is (1: no batches). See
    /// [`Evaluator::test_all`].
    pub batch: usize,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            jobs: 1,
            cache: true,
            max_tests: None,
            control: Control::new(),
            window_bytes: 64 << 20,
            batch: 1,
        }
    }
}

impl EvalOptions {
    /// The seeds' bare loop: one job, no cache.
    pub fn bare() -> Self {
        EvalOptions {
            cache: false,
            ..Self::default()
        }
    }
}

/// How far the running pass has got, `(done, total)`. Proposals set it while the evaluator
/// pulls them, when nothing else can reach the evaluator; it reports a change as an
/// [`Event::Progress`] at the next pull.
#[derive(Clone, Debug, Default)]
pub(crate) struct Meter(Rc<Cell<Option<(u64, u64)>>>);

impl Meter {
    /// The pass is at `done` of `total`.
    pub(crate) fn set(&self, done: u64, total: u64) {
        self.0.set(Some((done, total)));
    }
}

/// A test running on its own thread (the one test of its pool), and its cancel.
type Background<'s, 'e> = (Pool<'s, 'e>, Cancel);

/// A re-run of an accepted result, started beside the next passes (see
/// [`Evaluator::start_rerun`]) and judged by [`Evaluator::finish_rerun`].
pub(crate) struct Rerun<'s, 'e> {
    bytes: Arc<Vec<u8>>,
    key: u128,
    running: Option<Background<'s, 'e>>,
}

impl Rerun<'_, '_> {
    /// The bytes re-run.
    pub(crate) fn bytes(&self) -> &Arc<Vec<u8>> {
        &self.bytes
    }
}

/// The cache, job pool and oracle behind every pass.
pub struct Evaluator<'o> {
    oracle: &'o dyn Oracle,
    options: EvalOptions,
    /// Extra runs that must agree before an interesting verdict counts.
    confirm: u32,
    budget: Budget,
    verdicts: Verdicts<'o>,
    stats: EvalStats,
    /// Every run of the test, counted by the pools (`stats.oracle_runs` is read from it).
    runs: Runs,
    events: Events<'o>,
    meter: Meter,
    /// The progress last reported, so an unchanged one is not sent again.
    reported: Option<(u64, u64)>,
    /// Let tests still running finish when a call returns, instead of cancelling them: their
    /// verdicts are wanted next (a batch).
    drain: bool,
    /// Candidates the next passes will test first (see [`Evaluator::set_lookahead`]).
    lookahead: VecDeque<Vec<u8>>,
    /// The running pass's yield, if it hands over when it plods (see
    /// [`Evaluator::watch_yield`]).
    watch: Option<YieldWatch>,
}

impl<'o> Evaluator<'o> {
    /// An evaluator over `oracle`.
    pub fn new(oracle: &'o dyn Oracle, options: EvalOptions) -> Self {
        Evaluator {
            oracle,
            confirm: 0,
            budget: Budget::new(options.max_tests),
            verdicts: Verdicts::new(options.cache),
            options: EvalOptions {
                jobs: options.jobs.max(1),
                ..options
            },
            stats: EvalStats::default(),
            runs: Runs::default(),
            events: Events::default(),
            meter: Meter::default(),
            reported: None,
            drain: false,
            lookahead: VecDeque::new(),
            watch: None,
        }
    }

    /// From now on, until the next call, stops the running pass with [`Stop::HandOver`] once
    /// its last `window` tests removed less than `floor` bytes a test (`None`: never); `len`
    /// is the best's length now. The owner of the best tells of each change through
    /// [`Evaluator::best_changed`].
    pub(crate) fn watch_yield(&mut self, floor: Option<f64>, window: u64, len: usize) {
        let tests = self.stats.tests_run;
        self.watch = floor.map(|floor| YieldWatch::new(floor, window, tests, len));
    }

    /// Stops watching the running pass's yield (see [`Evaluator::watch_yield`]).
    pub(crate) fn unwatch_yield(&mut self) {
        self.watch = None;
    }

    /// The best is now `len` bytes long.
    pub(crate) fn best_changed(&mut self, len: usize) {
        let tests = self.stats.tests_run;
        if let Some(watch) = &mut self.watch {
            watch.best_changed(tests, len);
        }
    }

    /// Candidates the passes after the running one will test first on the current best. While
    /// the running pass leaves jobs idle (its last candidates are being tested), they run in
    /// those slots, and their verdicts are kept apart from the cache like any speculative
    /// verdict: charged as a test when a pass asks for them, so counts and results are what
    /// one job gives. An interesting verdict of the running pass (the best is about to
    /// change) drops them. Never with a budget: a test that is not needed yet must not stand in
    /// the way of one that is.
    pub(crate) fn set_lookahead(&mut self, candidates: Vec<Vec<u8>>) {
        self.lookahead = if self.budget.is_limited() {
            VecDeque::new()
        } else {
            candidates.into()
        };
    }

    /// Consults and feeds `store` for every test from now on.
    pub fn set_store(&mut self, store: impl VerdictStore + 'o) {
        self.verdicts.set_store(Box::new(store));
    }

    /// Sends every [`Event::Tested`] (and every event passed to [`Evaluator::emit`]) to `f`.
    pub fn set_sink(&mut self, f: impl FnMut(&Event) + 'o) {
        self.events.listen(f);
    }

    /// Reports to `events`, the stream a reduction owns, from now on.
    pub(crate) fn set_events(&mut self, events: Events<'o>) {
        self.events = events;
    }

    /// Hands an event to the sink.
    pub fn emit(&mut self, event: &Event) {
        self.events.emit(event);
    }

    /// The running pass's progress meter, for proposals to set while they are pulled.
    pub(crate) fn meter(&self) -> Meter {
        self.meter.clone()
    }

    /// Forgets the progress of the last pass.
    pub(crate) fn reset_progress(&mut self) {
        self.meter.0.set(None);
        self.reported = None;
    }

    /// Sends the meter's reading as an [`Event::Progress`] if it moved.
    pub(crate) fn report_progress(&mut self) {
        let now = self.meter.0.get();
        if now != self.reported
            && let Some((done, total)) = now
        {
            self.reported = now;
            self.emit(&Event::Progress { done, total });
        }
    }

    /// The counters so far. `speculative_wasted` counts the speculative verdicts dropped so
    /// far; those still kept unused are added by [`Evaluator::final_stats`].
    pub fn stats(&self) -> EvalStats {
        EvalStats {
            oracle_runs: self.runs.get(),
            ..self.stats.clone()
        }
    }

    /// The counters as a run's report gives them: every speculative verdict that no candidate
    /// has needed so far counts as wasted.
    pub fn final_stats(&self) -> EvalStats {
        let mut stats = self.stats();
        stats.speculative_wasted += self.verdicts.unused_speculative();
        stats
    }

    /// The options it was made with.
    pub fn options(&self) -> &EvalOptions {
        &self.options
    }

    /// Tests run at once.
    pub fn jobs(&self) -> usize {
        self.options.jobs
    }

    /// Hands the outcome of the original's first run to the oracle (see
    /// [`Oracle::calibrate`]).
    pub fn calibrate(&self, first: &Outcome) {
        self.oracle.calibrate(first);
    }

    /// Makes every interesting verdict pay for `extra` more runs that must agree.
    pub fn set_confirm(&mut self, extra: u32) {
        self.confirm = extra;
    }

    /// Holds `tests` back from the budget until [`Evaluator::release_reserve`].
    pub fn set_reserve(&mut self, tests: u64) {
        self.budget.hold_back(tests);
    }

    /// Makes the held-back tests available again.
    pub fn release_reserve(&mut self) {
        self.budget.release();
    }

    /// A committed verdict for exactly these bytes, if the cache holds one.
    pub fn cached(&self, bytes: &[u8]) -> Option<Verdict> {
        self.verdicts.committed(content_key(bytes))
    }

    /// Whether `cost` more tests fit in the budget.
    fn affordable(&self, cost: u64) -> bool {
        self.budget.affords(self.stats.tests_run, cost)
    }

    fn worst_cost(&self) -> u64 {
        1 + u64::from(self.confirm)
    }

    fn check_control(&self) -> Result<(), Stop> {
        let control = &self.options.control;
        if control.is_stopped() {
            Err(Stop::Interrupted)
        } else if control.skip_requested() {
            Err(Stop::SkipPass)
        } else if self
            .watch
            .as_ref()
            .is_some_and(|w| w.plods(self.stats.tests_run))
        {
            Err(Stop::HandOver)
        } else {
            Ok(())
        }
    }

    /// Counts the time of the test that gave `outcome` (a speculative one too; its pool
    /// counted its runs), keeps its verdict in the store, and tells the sink.
    fn ran(&mut self, key: u128, size: usize, outcome: &Outcome) {
        self.stats.busy += outcome.duration;
        self.verdicts.remember(key, outcome.verdict);
        let stats = self.stats();
        self.emit(&Event::Tested {
            verdict: outcome.verdict,
            candidate: key,
            size,
            duration: outcome.duration,
            stdout: &outcome.stdout.tail,
            stderr: &outcome.stderr.tail,
            stats: &stats,
        });
    }

    /// Commits a verdict, charging what it costs.
    fn commit(&mut self, key: u128, known: Known) {
        if known.cost == 0 {
            self.stats.cache_hits += 1;
            return;
        }
        self.stats.tests_run += known.cost;
        self.stats.recalled += u64::from(known.recalled);
        match known.verdict {
            Verdict::TimedOut => self.stats.timeouts += 1,
            Verdict::Interesting => self.stats.interesting += 1,
            Verdict::NotInteresting => {}
        }
        self.verdicts.commit(key, known.verdict);
    }

    fn error(e: OracleError) -> Stop {
        match e {
            OracleError::Cancelled => Stop::Interrupted,
            OracleError::Setup(msg) => Stop::Oracle(msg),
        }
    }

    /// Tests one candidate sequentially (through the cache) and returns its verdict.
    pub fn test(&mut self, bytes: &[u8]) -> Result<Verdict, Stop> {
        let started = Instant::now();
        let result = self.test_one(content_key(bytes), bytes);
        self.stats.wall += started.elapsed();
        result
    }

    fn test_one(&mut self, key: u128, bytes: &[u8]) -> Result<Verdict, Stop> {
        self.check_control()?;
        if let Some(known) = self.verdicts.take(key, self.confirm) {
            if !self.affordable(known.cost) {
                self.verdicts.keep_spare(key, known);
                return Err(Stop::Budget);
            }
            self.commit(key, known);
            return Ok(known.verdict);
        }
        if !self.affordable(self.worst_cost()) {
            return Err(Stop::Budget);
        }
        let (result, runs) = self.run_here(bytes, self.confirm);
        let outcome = result.map_err(Self::error)?;
        // Committed first, so the event's counters include this test.
        self.commit(key, Known::ran(outcome.verdict, runs, false));
        self.ran(key, bytes.len(), &outcome);
        Ok(outcome.verdict)
    }

    /// Runs the test of `bytes` on this thread through a pool of one job (see
    /// `Pool::here`): its outcome and its runs.
    fn run_here(&self, bytes: &[u8], confirm: u32) -> (Result<Outcome, OracleError>, u64) {
        let cancel = Cancel::child_of(&self.options.control);
        let mut pool = Pool::here(self.oracle, &self.runs);
        pool.start(Arc::new(bytes.to_vec()), cancel, confirm, false);
        pool.wait(None)
            .map_or((Err(OracleError::Cancelled), 0), |done| {
                (done.result, done.runs)
            })
    }

    /// Runs the oracle once on `bytes`, past the cache, and counts it as a test; the verdict
    /// replaces the cached one. For re-runs of a result already accepted.
    pub fn rerun(&mut self, bytes: &[u8]) -> Result<Verdict, Stop> {
        self.judge_rerun(bytes, content_key(bytes), None)
    }

    /// A re-run of `bytes` to be judged later by [`Evaluator::finish_rerun`]. With a `scope`
    /// its test starts now, in the background (one test more than `jobs` may run then),
    /// unless the store already kept its verdict; without one it runs when judged.
    pub(crate) fn start_rerun<'s, 'e>(
        &mut self,
        scope: Option<&'s Scope<'s, 'e>>,
        bytes: Arc<Vec<u8>>,
    ) -> Rerun<'s, 'e>
    where
        'o: 's,
    {
        let key = content_key(&bytes);
        let kept = self.verdicts.peek_rerun(key).is_some();
        let running = scope.filter(|_| !kept).map(|scope| {
            let cancel = Cancel::child_of(&self.options.control);
            let mut pool = Pool::new(scope, self.oracle, &self.runs);
            pool.start(bytes.clone(), cancel.clone(), 0, false);
            (pool, cancel)
        });
        Rerun {
            bytes,
            key,
            running,
        }
    }

    /// The verdict of a re-run begun by [`Evaluator::start_rerun`], counted as a test (see
    /// [`Evaluator::rerun`]).
    pub(crate) fn finish_rerun(&mut self, rerun: Rerun) -> Result<Verdict, Stop> {
        let Rerun {
            bytes,
            key,
            running,
        } = rerun;
        self.judge_rerun(&bytes, key, running)
    }

    /// Drops a re-run begun by [`Evaluator::start_rerun`]: its test is cancelled and counted
    /// as a run of the test, nothing else.
    pub(crate) fn abandon_rerun(&mut self, rerun: Rerun) {
        self.abandon(rerun.running);
    }

    fn abandon(&mut self, running: Option<Background<'_, '_>>) {
        if let Some((mut pool, cancel)) = running {
            cancel.cancel();
            // Waited for, so its runs are counted.
            let _ = pool.wait(None);
        }
    }

    fn judge_rerun(
        &mut self,
        bytes: &[u8],
        key: u128,
        running: Option<Background<'_, '_>>,
    ) -> Result<Verdict, Stop> {
        if self.options.control.is_stopped() {
            self.abandon(running);
            return Err(Stop::Interrupted);
        }
        if !self.affordable(1) {
            self.abandon(running);
            return Err(Stop::Budget);
        }
        let (nth, kept) = self.verdicts.next_rerun(key);
        let (verdict, ran) = match kept {
            Some(verdict) => {
                self.abandon(running);
                (verdict, None)
            }
            None => {
                let result = match running {
                    Some((mut pool, _)) => pool
                        .wait(None)
                        .map_or(Err(OracleError::Cancelled), |done| done.result),
                    None => self.run_here(bytes, 0).0,
                };
                let outcome = result.map_err(Self::error)?;
                self.verdicts.remember_rerun(key, nth, outcome.verdict);
                (outcome.verdict, Some(outcome))
            }
        };
        self.stats.speculative_wasted += self.verdicts.forget(key);
        // Committed first, so the event's counters include this test.
        let known = Known {
            verdict,
            cost: 1,
            recalled: ran.is_none(),
            speculative: false,
        };
        self.commit(key, known);
        if let Some(outcome) = ran {
            self.ran(key, bytes.len(), &outcome);
        }
        Ok(verdict)
    }

    /// Runs the oracle once on `bytes` keeping what the test printed, and counts it as a test.
    /// For the first check of the original, whose failure must be explained.
    pub fn run_verbose(&mut self, bytes: &[u8]) -> Result<Outcome, Stop> {
        Ok(self.run_verbose_all(bytes, 1)?.remove(0))
    }

    /// Counts a test that another evaluator ran on `bytes` (the shared first check of
    /// `compare`) as one of this evaluator's, and caches its verdict.
    pub fn count_external(&mut self, bytes: &[u8], verdict: Verdict) {
        self.commit(content_key(bytes), Known::ran(verdict, 1, false));
    }

    /// After an interesting verdict did not hold up: forgets every "interesting" known (any of
    /// them may have been luck) and confirms every later success with one more run.
    pub fn distrust(&mut self) {
        self.stats.speculative_wasted += self.verdicts.distrust();
        self.confirm = self.confirm.max(1);
    }

    /// The verdicts of all `candidates`, each counted as a test (or a cache hit) as one job
    /// would count it, whatever `jobs` is. With several jobs they run at once, and a success
    /// does not cancel the others: a batch wants every verdict. For passes that test a fixed
    /// batch and merge its successes, so that many jobs do not waste their tests.
    pub fn test_all(&mut self, candidates: &[Vec<u8>]) -> Result<Vec<Verdict>, Stop> {
        let mut verdicts = vec![Verdict::NotInteresting; candidates.len()];
        let drain = std::mem::replace(&mut self.drain, true);
        let mut from = 0;
        let result = loop {
            let mut k = from;
            let mut next = || {
                let c = candidates.get(k)?;
                k += 1;
                Some((c.clone(), k - 1))
            };
            match self.first_interesting(&mut next) {
                Ok(Some((_, i))) => {
                    verdicts[i] = Verdict::Interesting;
                    from = i + 1;
                }
                Ok(None) => break Ok(verdicts),
                Err(stop) => break Err(stop),
            }
        };
        self.drain = drain;
        result
    }

    /// Runs the oracle `n` times on `bytes` keeping what the test printed, each counted as a
    /// test; with several jobs, up to `jobs` runs go at once. For the first check.
    pub fn run_verbose_all(&mut self, bytes: &[u8], n: usize) -> Result<Vec<Outcome>, Stop> {
        if self.options.control.is_stopped() {
            return Err(Stop::Interrupted);
        }
        if !self.affordable(n as u64) {
            return Err(Stop::Budget);
        }
        let (oracle, jobs, control) = (self.oracle, self.options.jobs, &self.options.control);
        let runs = &self.runs;
        let shared = Arc::new(bytes.to_vec());
        let mut results: Vec<Option<Result<Outcome, OracleError>>> = (0..n).map(|_| None).collect();
        std::thread::scope(|scope| {
            let mut pool = Pool::new(scope, oracle, runs);
            let mut order = Vec::with_capacity(n);
            while order.len() < n || pool.running() > 0 {
                while order.len() < n && pool.running() < jobs {
                    order.push(pool.start(shared.clone(), Cancel::child_of(control), 0, true));
                }
                if let Some(done) = pool.wait(None) {
                    let k = order
                        .iter()
                        .position(|&s| s == done.seq)
                        .expect("a run of ours");
                    results[k] = Some(done.result);
                }
            }
        });
        let key = content_key(bytes);
        let mut outcomes = Vec::with_capacity(n);
        let mut error = None;
        for result in results.into_iter().flatten() {
            match result {
                Ok(outcome) if error.is_none() => {
                    self.commit(key, Known::ran(outcome.verdict, 1, false));
                    self.ran(key, bytes.len(), &outcome);
                    outcomes.push(outcome);
                }
                Ok(_) => {}
                Err(e) => {
                    error.get_or_insert(Self::error(e));
                }
            }
        }
        error.map_or(Ok(outcomes), Err)
    }

    /// Pulls candidates from `next` until one is interesting and returns it with its payload.
    /// `Ok(None)` means `next` ran out and every candidate failed.
    pub fn first_interesting<T>(
        &mut self,
        next: &mut dyn FnMut() -> Option<(Vec<u8>, T)>,
    ) -> Result<Option<(Vec<u8>, T)>, Stop> {
        let started = Instant::now();
        let result = if self.options.jobs <= 1 {
            self.run_sequential(next)
        } else {
            self.run_parallel(next)
        };
        self.stats.wall += started.elapsed();
        result
    }

    fn run_sequential<T>(
        &mut self,
        next: &mut dyn FnMut() -> Option<(Vec<u8>, T)>,
    ) -> Result<Option<(Vec<u8>, T)>, Stop> {
        loop {
            self.check_control()?;
            let Some((bytes, payload)) = next() else {
                return Ok(None);
            };
            self.report_progress();
            if self.test_one(content_key(&bytes), &bytes)?.is_interesting() {
                return Ok(Some((bytes, payload)));
            }
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::FnOracle;
    use std::sync::atomic::{AtomicU64, Ordering};

    fn candidates(n: usize) -> impl FnMut() -> Option<(Vec<u8>, usize)> {
        let mut k = 0;
        move || {
            k += 1;
            (k <= n).then(|| (format!("c{k}").into_bytes(), k))
        }
    }

    #[test]
    fn the_budget_counts_what_one_job_would_run_whatever_the_jobs() {
        // Interesting from the 7th candidate on; a budget of 5 stops before it for every
        // job count, and the tests counted are the same.
        let oracle = FnOracle::new(|b: &[u8]| &b"c7"[..] <= b && b.len() == 2);
        for jobs in [1, 2, 4] {
            let options = EvalOptions {
                jobs,
                max_tests: Some(5),
                ..EvalOptions::default()
            };
            let mut eval = Evaluator::new(&oracle, options);
            let result = eval.first_interesting(&mut candidates(9));
            assert_eq!(result.unwrap_err(), Stop::Budget, "jobs {jobs}");
            assert_eq!(eval.stats().tests_run, 5, "jobs {jobs}");
            assert!(eval.stats().oracle_runs >= 5);
        }
    }

    #[test]
    fn unneeded_speculative_verdicts_stay_out_of_the_cache_until_charged() {
        let calls = AtomicU64::new(0);
        let oracle = FnOracle::new(|b: &[u8]| {
            calls.fetch_add(1, Ordering::SeqCst);
            b == b"c1"
        });
        let options = EvalOptions {
            jobs: 4,
            ..EvalOptions::default()
        };
        let mut eval = Evaluator::new(&oracle, options);
        eval.first_interesting(&mut candidates(4)).unwrap();
        assert_eq!(eval.stats().tests_run, 1);
        assert_eq!(
            eval.cached(b"c2"),
            None,
            "a wasted verdict is not committed"
        );
        // Needed now: charged as a test, without running the oracle again if it had run.
        let before = calls.load(Ordering::SeqCst);
        let mut again = vec![(b"c2".to_vec(), 0)].into_iter();
        eval.first_interesting(&mut || again.next()).unwrap();
        assert_eq!(eval.stats().tests_run, 2);
        assert!(calls.load(Ordering::SeqCst) <= before + 1);
        assert_eq!(eval.cached(b"c2"), Some(Verdict::NotInteresting));
    }

    #[test]
    fn lookahead_fills_idle_jobs_and_is_charged_when_a_pass_asks_for_it() {
        let calls = AtomicU64::new(0);
        let oracle = FnOracle::new(|b: &[u8]| {
            calls.fetch_add(1, Ordering::SeqCst);
            b == b"yes"
        });
        let one = |b: &[u8]| vec![(b.to_vec(), ())].into_iter();
        let options = EvalOptions {
            jobs: 4,
            ..EvalOptions::default()
        };
        let mut eval = Evaluator::new(&oracle, options);
        eval.set_lookahead(vec![b"n1".to_vec(), b"n2".to_vec()]);
        let mut pass = one(b"n0");
        assert!(
            eval.first_interesting(&mut || pass.next())
                .unwrap()
                .is_none()
        );
        // All three ran at once; only the pass's own candidate is counted.
        assert_eq!(calls.load(Ordering::SeqCst), 3);
        assert_eq!(eval.stats().tests_run, 1);
        assert_eq!(eval.cached(b"n1"), None);
        // The next pass asks for them: charged, not run again.
        let mut next = vec![(b"n1".to_vec(), ()), (b"n2".to_vec(), ())].into_iter();
        assert!(
            eval.first_interesting(&mut || next.next())
                .unwrap()
                .is_none()
        );
        assert_eq!(calls.load(Ordering::SeqCst), 3);
        assert_eq!(eval.stats().tests_run, 3);

        // A success drops what is left of the lookahead.
        eval.set_lookahead((3..20).map(|i| format!("n{i}").into_bytes()).collect());
        let mut pass = one(b"yes");
        assert!(
            eval.first_interesting(&mut || pass.next())
                .unwrap()
                .is_some()
        );
        let after = calls.load(Ordering::SeqCst);
        let mut pass = one(b"n0");
        eval.first_interesting(&mut || pass.next()).unwrap();
        assert_eq!(
            calls.load(Ordering::SeqCst),
            after,
            "nothing left to look ahead to"
        );

        // With a budget there is no lookahead.
        let options = EvalOptions {
            jobs: 4,
            max_tests: Some(100),
            ..EvalOptions::default()
        };
        calls.store(0, Ordering::SeqCst);
        let mut eval = Evaluator::new(&oracle, options);
        eval.set_lookahead(vec![b"n1".to_vec()]);
        let mut pass = one(b"n0");
        eval.first_interesting(&mut || pass.next()).unwrap();
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn distrust_confirms_later_successes() {
        let oracle = FnOracle::new(|b: &[u8]| b == b"c2");
        let mut eval = Evaluator::new(&oracle, EvalOptions::default());
        eval.distrust();
        let won = eval.first_interesting(&mut candidates(3)).unwrap().unwrap();
        assert_eq!(won.1, 2);
        assert_eq!(eval.stats().tests_run, 3, "c1, then c2 twice");
    }
}
