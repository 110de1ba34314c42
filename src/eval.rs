//! The one evaluation path: content cache, then the worker pool, then the oracle.
//!
//! Main types: [`Evaluator`] and [`EvalOptions`]. Every candidate of every pass is tested
//! through [`Evaluator::first_interesting`], which pulls candidates lazily, answers repeats
//! from a cache keyed by a 128-bit hash of the bytes, and with `jobs > 1` tests the following
//! candidates speculatively while the earliest one runs. Verdicts are committed in proposal
//! order, so the first interesting candidate in order wins exactly as it would sequentially;
//! tests that can no longer win are cancelled at once.
//!
//! Counting is sequential too: [`crate::EvalStats::tests_run`] counts the tests a one-job run
//! would make, and the budget counts the same, so `--max-tests` gives the same result for every
//! `--jobs`. A speculative verdict that was not needed is kept apart from the cache and is
//! charged as a test when a later candidate needs it; the cache that passes may read
//! ([`Evaluator::cached`]) holds only committed verdicts. After a success fails a re-run,
//! [`Evaluator::distrust`] makes every later success pay for a confirming run.
//!
//! ```
//! use myhill::{EvalOptions, Evaluator, FnOracle};
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

use crate::oracle::{Cancel, Control, Oracle, OracleError, Outcome, Verdict};
use crate::report::{EvalStats, Event, Stop};
use std::cell::Cell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How candidates are evaluated.
#[derive(Clone, Debug)]
pub struct EvalOptions {
    /// Tests run at once; 1 means strictly sequential.
    pub jobs: usize,
    /// Answer repeated candidates from the content cache.
    pub cache: bool,
    /// Stop after this many tests (as [`crate::EvalStats::tests_run`] counts them).
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

/// Verdicts kept outside the process (a run directory's cache), consulted before a test runs
/// and told every verdict a test gave. A verdict recalled from it counts as a test, as it did
/// in the run that made it, so a resumed run counts, and decides, exactly as the first did.
pub trait VerdictStore: Send {
    /// The verdict of the candidate whose content key is `key`, if one was kept.
    fn recall(&self, key: u128) -> Option<Verdict>;
    /// Keeps the verdict a test gave.
    fn remember(&mut self, key: u128, verdict: Verdict);
    /// The verdict of the `nth` re-run of `key` (re-runs go past the cache), if one was kept.
    fn recall_rerun(&self, key: u128, nth: u32) -> Option<Verdict>;
    /// Keeps the verdict of the `nth` re-run of `key`.
    fn remember_rerun(&mut self, key: u128, nth: u32, verdict: Verdict);
}

/// The content key of a candidate: a 128-bit hash of its bytes.
pub fn content_key(bytes: &[u8]) -> u128 {
    xxhash_rust::xxh3::xxh3_128(bytes)
}

/// A verdict run but not yet needed, and the runs it took.
#[derive(Clone, Copy, Debug)]
struct Spare {
    verdict: Verdict,
    runs: u64,
}

/// Receives the evaluator's and its owners' events.
type Sink<'o> = Box<dyn FnMut(&Event) + 'o>;

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

/// The cache, worker pool and oracle behind every pass.
pub struct Evaluator<'o> {
    oracle: &'o dyn Oracle,
    options: EvalOptions,
    /// Extra runs that must agree before an interesting verdict counts.
    confirm: u32,
    /// Tests held back from the budget (for a final confirmation).
    reserve: u64,
    committed: HashMap<u128, Verdict>,
    spare: HashMap<u128, Spare>,
    stats: EvalStats,
    sink: Option<Sink<'o>>,
    meter: Meter,
    /// The progress last reported, so an unchanged one is not sent again.
    reported: Option<(u64, u64)>,
    store: Option<Box<dyn VerdictStore + 'o>>,
    /// Re-runs made so far, per key, to name them in the store.
    reruns: HashMap<u128, u32>,
    /// Let tests still running finish when a call returns, instead of cancelling them: their
    /// verdicts are wanted next (a batch).
    drain: bool,
    /// Candidates the next passes will test first (see [`Evaluator::set_lookahead`]).
    lookahead: VecDeque<Vec<u8>>,
}

/// Runs the oracle once, then up to `confirm` more times while it keeps saying interesting.
fn run_confirmed(
    oracle: &dyn Oracle,
    bytes: &[u8],
    cancel: &Cancel,
    confirm: u32,
) -> (Result<Outcome, OracleError>, u64) {
    let mut first = match oracle.test(bytes, cancel) {
        Ok(o) => o,
        Err(e) => return (Err(e), 0),
    };
    let mut runs = 1;
    for _ in 0..confirm {
        if first.verdict != Verdict::Interesting {
            break;
        }
        match oracle.test(bytes, cancel) {
            Ok(again) => {
                runs += 1;
                first.duration += again.duration;
                if again.verdict != Verdict::Interesting {
                    first.verdict = again.verdict;
                }
            }
            Err(e) => return (Err(e), runs),
        }
    }
    (Ok(first), runs)
}

enum State {
    /// Known, with the tests it costs when committed (0 for a cache hit).
    Known(Verdict, u64),
    /// Waiting for a worker.
    Queued,
    /// On a worker.
    Running(u64, Cancel),
    /// The same bytes as an earlier candidate of the window: free once that one is committed.
    Duplicate,
}

/// A lookahead candidate on a worker (see [`Evaluator::set_lookahead`]).
struct Ghost {
    seq: u64,
    key: u128,
    size: usize,
    cancel: Cancel,
}

struct Pending<T> {
    key: u128,
    bytes: Arc<Vec<u8>>,
    payload: T,
    state: State,
}

impl<'o> Evaluator<'o> {
    /// An evaluator over `oracle`.
    pub fn new(oracle: &'o dyn Oracle, options: EvalOptions) -> Self {
        Evaluator {
            oracle,
            options: EvalOptions {
                jobs: options.jobs.max(1),
                ..options
            },
            confirm: 0,
            reserve: 0,
            committed: HashMap::new(),
            spare: HashMap::new(),
            stats: EvalStats::default(),
            sink: None,
            meter: Meter::default(),
            reported: None,
            store: None,
            reruns: HashMap::new(),
            drain: false,
            lookahead: VecDeque::new(),
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
        self.lookahead = if self.options.max_tests.is_none() {
            candidates.into()
        } else {
            VecDeque::new()
        };
    }

    /// Consults and feeds `store` for every test from now on.
    pub fn set_store(&mut self, store: impl VerdictStore + 'o) {
        self.store = Some(Box::new(store));
    }

    /// Sends every [`Event::Tested`] (and every event passed to [`Evaluator::emit`]) to `f`.
    pub fn set_sink(&mut self, f: impl FnMut(&Event) + 'o) {
        self.sink = Some(Box::new(f));
    }

    /// Hands an event to the sink.
    pub fn emit(&mut self, event: &Event) {
        if let Some(sink) = self.sink.as_mut() {
            sink(event);
        }
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

    /// The counters so far.
    pub fn stats(&self) -> &EvalStats {
        &self.stats
    }

    /// The options it was made with.
    pub fn options(&self) -> &EvalOptions {
        &self.options
    }

    /// Tests run at once.
    pub fn jobs(&self) -> usize {
        self.options.jobs
    }

    /// The oracle behind it.
    pub fn oracle(&self) -> &'o dyn Oracle {
        self.oracle
    }

    /// Makes every interesting verdict pay for `extra` more runs that must agree.
    pub fn set_confirm(&mut self, extra: u32) {
        self.confirm = extra;
    }

    /// Holds `tests` back from the budget until [`Evaluator::release_reserve`].
    pub fn set_reserve(&mut self, tests: u64) {
        self.reserve = tests;
    }

    /// Makes the held-back tests available again.
    pub fn release_reserve(&mut self) {
        self.reserve = 0;
    }

    /// A committed verdict for exactly these bytes, if the cache holds one.
    pub fn cached(&self, bytes: &[u8]) -> Option<Verdict> {
        self.committed.get(&content_key(bytes)).copied()
    }

    /// Whether `cost` more tests fit in the budget.
    fn affordable(&self, cost: u64) -> bool {
        self.options
            .max_tests
            .is_none_or(|max| self.stats.tests_run + cost <= max.saturating_sub(self.reserve))
    }

    fn worst_cost(&self) -> u64 {
        1 + self.confirm as u64
    }

    fn check_control(&self) -> Result<(), Stop> {
        let control = &self.options.control;
        if control.is_stopped() {
            Err(Stop::Interrupted)
        } else if control.skip_requested() {
            Err(Stop::SkipPass)
        } else {
            Ok(())
        }
    }

    /// Counts a completed oracle run (speculative ones too), keeps its verdict in the store,
    /// and tells the sink.
    fn ran(&mut self, key: u128, size: usize, outcome: &Outcome) {
        self.stats.oracle_runs += 1;
        self.stats.busy += outcome.duration;
        if let Some(store) = self.store.as_mut() {
            store.remember(key, outcome.verdict);
        }
        let stats = self.stats.clone();
        self.emit(&Event::Tested {
            verdict: outcome.verdict,
            candidate: key,
            size,
            duration: outcome.duration,
            stats: &stats,
        });
    }

    /// Commits a verdict that cost `cost` tests.
    fn commit(&mut self, key: u128, verdict: Verdict, cost: u64) {
        if cost == 0 {
            self.stats.cache_hits += 1;
            return;
        }
        self.stats.tests_run += cost;
        match verdict {
            Verdict::TimedOut => self.stats.timeouts += 1,
            Verdict::Interesting => self.stats.interesting += 1,
            Verdict::NotInteresting => {}
        }
        if self.options.cache {
            self.committed.insert(key, verdict);
        }
    }

    /// What is already known of `key`: a committed verdict (free), a spare one, or one the
    /// store kept (both charged, as tests a one-job run would have made).
    fn known(&mut self, key: u128) -> Option<(Verdict, u64)> {
        if !self.options.cache {
            return None;
        }
        if let Some(&v) = self.committed.get(&key) {
            return Some((v, 0));
        }
        if let Some(s) = self.spare.remove(&key) {
            return Some((s.verdict, s.runs));
        }
        let v = self.store.as_ref()?.recall(key)?;
        self.stats.recalled += 1;
        Some((v, 1 + u64::from(v.is_interesting()) * self.confirm as u64))
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
        if let Some((verdict, cost)) = self.known(key) {
            if !self.affordable(cost) {
                self.spare.insert(
                    key,
                    Spare {
                        verdict,
                        runs: cost,
                    },
                );
                return Err(Stop::Budget);
            }
            self.commit(key, verdict, cost);
            return Ok(verdict);
        }
        if !self.affordable(self.worst_cost()) {
            return Err(Stop::Budget);
        }
        let cancel = Cancel::child_of(&self.options.control);
        let (result, runs) = run_confirmed(self.oracle, bytes, &cancel, self.confirm);
        let outcome = result.map_err(Self::error)?;
        // Committed first, so the event's counters include this test.
        self.commit(key, outcome.verdict, runs);
        self.stats.oracle_runs += runs - 1;
        self.ran(key, bytes.len(), &outcome);
        Ok(outcome.verdict)
    }

    /// Runs the oracle once on `bytes`, past the cache, and counts it as a test; the verdict
    /// replaces the cached one. For re-runs of a result already accepted.
    pub fn rerun(&mut self, bytes: &[u8]) -> Result<Verdict, Stop> {
        self.rerun_with(bytes, |oracle, cancel| oracle.test(bytes, cancel))
    }

    /// [`Evaluator::rerun`] whose run is made by `run` (which may have started earlier, in
    /// the background); it is not called when the verdict is already kept in the store.
    pub fn rerun_with(
        &mut self,
        bytes: &[u8],
        run: impl FnOnce(&dyn Oracle, &Cancel) -> Result<Outcome, OracleError>,
    ) -> Result<Verdict, Stop> {
        if self.options.control.is_stopped() {
            return Err(Stop::Interrupted);
        }
        if !self.affordable(1) {
            return Err(Stop::Budget);
        }
        let key = content_key(bytes);
        let nth = {
            let n = self.reruns.entry(key).or_insert(0);
            *n += 1;
            *n
        };
        let kept = self.store.as_ref().and_then(|s| s.recall_rerun(key, nth));
        let (verdict, outcome) = match kept {
            Some(v) => {
                self.stats.recalled += 1;
                (v, None)
            }
            None => {
                let outcome = run(self.oracle, &Cancel::child_of(&self.options.control))
                    .map_err(Self::error)?;
                if let Some(store) = self.store.as_mut() {
                    store.remember_rerun(key, nth, outcome.verdict);
                }
                (outcome.verdict, Some(outcome))
            }
        };
        self.committed.remove(&key);
        self.spare.remove(&key);
        // Committed first, so the event's counters include this test.
        self.commit(key, verdict, 1);
        if let Some(outcome) = outcome {
            self.ran(key, bytes.len(), &outcome);
        }
        Ok(verdict)
    }

    /// Runs the oracle once on `bytes` keeping what the test printed, and counts it as a test.
    /// For the first check of the original, whose failure must be explained.
    pub fn run_verbose(&mut self, bytes: &[u8]) -> Result<Outcome, Stop> {
        if self.options.control.is_stopped() {
            return Err(Stop::Interrupted);
        }
        if !self.affordable(1) {
            return Err(Stop::Budget);
        }
        let outcome = self
            .oracle
            .test_verbose(bytes, &Cancel::child_of(&self.options.control))
            .map_err(Self::error)?;
        let key = content_key(bytes);
        self.commit(key, outcome.verdict, 1);
        self.ran(key, bytes.len(), &outcome);
        Ok(outcome)
    }

    /// Counts a test that another evaluator ran on `bytes` (the shared first check of
    /// `compare`) as one of this evaluator's, and caches its verdict.
    pub fn count_external(&mut self, bytes: &[u8], verdict: Verdict) {
        self.commit(content_key(bytes), verdict, 1);
    }

    /// After an interesting verdict did not hold up: forgets every "interesting" known (any of
    /// them may have been luck) and confirms every later success with one more run.
    pub fn distrust(&mut self) {
        self.committed.retain(|_, v| !v.is_interesting());
        self.spare.retain(|_, s| !s.verdict.is_interesting());
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
    /// test; with several jobs, the runs go at once. For the first check.
    pub fn run_verbose_all(&mut self, bytes: &[u8], n: usize) -> Result<Vec<Outcome>, Stop> {
        if self.options.jobs <= 1 || n <= 1 {
            return (0..n).map(|_| self.run_verbose(bytes)).collect();
        }
        if self.options.control.is_stopped() {
            return Err(Stop::Interrupted);
        }
        if !self.affordable(n as u64) {
            return Err(Stop::Budget);
        }
        let oracle = self.oracle;
        let control = &self.options.control;
        let mut results: Vec<Result<Outcome, OracleError>> = Vec::with_capacity(n);
        // At most `jobs` at a time.
        let mut left = n;
        while left > 0 {
            let wave = left.min(self.options.jobs);
            left -= wave;
            std::thread::scope(|scope| {
                let runs: Vec<_> = (0..wave)
                    .map(|_| {
                        scope.spawn(move || oracle.test_verbose(bytes, &Cancel::child_of(control)))
                    })
                    .collect();
                results.extend(
                    runs.into_iter()
                        .map(|r| r.join().unwrap_or(Err(OracleError::Cancelled))),
                );
            });
        }
        let key = content_key(bytes);
        let mut outcomes = Vec::with_capacity(n);
        for result in results {
            let outcome = result.map_err(Self::error)?;
            self.commit(key, outcome.verdict, 1);
            self.ran(key, bytes.len(), &outcome);
            outcomes.push(outcome);
        }
        Ok(outcomes)
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

    fn run_parallel<T>(
        &mut self,
        next: &mut dyn FnMut() -> Option<(Vec<u8>, T)>,
    ) -> Result<Option<(Vec<u8>, T)>, Stop> {
        let jobs = self.options.jobs;
        let oracle = self.oracle;
        let confirm = self.confirm;
        type Done = (u64, Result<Outcome, OracleError>, u64);
        let (tx, rx) = mpsc::channel::<Done>();
        std::thread::scope(|scope| {
            let mut window: VecDeque<Pending<T>> = VecDeque::new();
            let mut window_bytes = 0usize;
            let mut running = 0usize;
            let mut exhausted = false;
            let mut seq = 0u64;
            let mut ghosts: Vec<Ghost> = Vec::new();
            // Ends the call: cancels what still runs, waits for it, and keeps what completed
            // apart from the cache.
            let finish = |this: &mut Self,
                          window: &mut VecDeque<Pending<T>>,
                          ghosts: &mut Vec<Ghost>,
                          mut running: usize|
             -> Result<(), Stop> {
                for p in window.iter() {
                    if let State::Running(_, c) = &p.state
                        && !this.drain
                    {
                        c.cancel();
                    }
                }
                // Drained or not, what was looked ahead to is stale or unwanted here.
                ghosts.iter().for_each(|g| g.cancel.cancel());
                let mut error = None;
                while running > 0 {
                    let Ok((seq, result, runs)) = rx.recv() else {
                        break;
                    };
                    running -= 1;
                    this.stats.speculative_wasted += 1;
                    match result {
                        Ok(outcome) => {
                            let found = window
                                .iter()
                                .find(|p| matches!(p.state, State::Running(s, _) if s == seq))
                                .map(|p| (p.key, p.bytes.len()))
                                .or_else(|| {
                                    ghosts
                                        .iter()
                                        .find(|g| g.seq == seq)
                                        .map(|g| (g.key, g.size))
                                });
                            if let Some((key, size)) = found {
                                this.ran(key, size, &outcome);
                            }
                            this.stats.oracle_runs += runs - 1;
                            let key = found.map(|f| f.0);
                            if let Some(key) = key
                                && this.options.cache
                                && !this.committed.contains_key(&key)
                            {
                                let spare = Spare {
                                    verdict: outcome.verdict,
                                    runs,
                                };
                                this.spare.insert(key, spare);
                            }
                        }
                        Err(OracleError::Setup(msg)) => error = Some(Stop::Oracle(msg)),
                        Err(OracleError::Cancelled) => {}
                    }
                }
                // Verdicts decided behind the winner were not needed either.
                for p in window.drain(..) {
                    if let State::Known(verdict, runs) = p.state
                        && runs > 0
                        && this.options.cache
                    {
                        this.spare.insert(p.key, Spare { verdict, runs });
                    }
                }
                ghosts.clear();
                this.stats.running = 0;
                error.map_or(Ok(()), Err)
            };
            loop {
                if let Err(stop) = self.check_control() {
                    finish(self, &mut window, &mut ghosts, running)?;
                    return Err(stop);
                }
                // Pull candidates into the window.
                while !exhausted
                    && window.len() < 4 * jobs
                    && (window.is_empty() || window_bytes < self.options.window_bytes)
                {
                    let Some((bytes, payload)) = next() else {
                        exhausted = true;
                        break;
                    };
                    self.report_progress();
                    let key = content_key(&bytes);
                    let state = if let Some((v, cost)) = self.known(key) {
                        State::Known(v, cost)
                    } else if self.options.cache && window.iter().any(|p| p.key == key) {
                        State::Duplicate
                    } else {
                        State::Queued
                    };
                    window_bytes += bytes.len();
                    window.push_back(Pending {
                        key,
                        bytes: Arc::new(bytes),
                        payload,
                        state,
                    });
                }
                // Start queued candidates in order, while the budget could still need them.
                let mut planned = self.stats.tests_run;
                for p in window.iter_mut() {
                    if running >= jobs {
                        break;
                    }
                    match &p.state {
                        State::Known(_, cost) => planned += cost,
                        State::Running(..) => planned += 1 + confirm as u64,
                        State::Duplicate => {}
                        State::Queued => {
                            planned += 1 + confirm as u64;
                            let limit = self
                                .options
                                .max_tests
                                .map(|m| m.saturating_sub(self.reserve));
                            if limit.is_some_and(|max| planned > max) {
                                break;
                            }
                            seq += 1;
                            let cancel = Cancel::child_of(&self.options.control);
                            if running > 0 {
                                self.stats.speculative_started += 1;
                            }
                            let (tx, c, b, s) = (tx.clone(), cancel.clone(), p.bytes.clone(), seq);
                            scope.spawn(move || {
                                let (result, runs) = run_confirmed(oracle, &b, &c, confirm);
                                let _ = tx.send((s, result, runs));
                            });
                            running += 1;
                            self.stats.running = running;
                            p.state = State::Running(seq, cancel);
                        }
                    }
                }
                // Idle jobs behind the pass's last candidates take the next passes' first ones.
                if exhausted && !window.is_empty() && self.options.cache {
                    while running < jobs {
                        let Some(bytes) = self.lookahead.pop_front() else {
                            break;
                        };
                        let key = content_key(&bytes);
                        let known = self.committed.contains_key(&key)
                            || self.spare.contains_key(&key)
                            || window.iter().any(|p| p.key == key)
                            || ghosts.iter().any(|g| g.key == key)
                            || self
                                .store
                                .as_ref()
                                .is_some_and(|st| st.recall(key).is_some());
                        if known {
                            continue;
                        }
                        seq += 1;
                        let cancel = Cancel::child_of(&self.options.control);
                        self.stats.speculative_started += 1;
                        let (tx, c, s) = (tx.clone(), cancel.clone(), seq);
                        let size = bytes.len();
                        scope.spawn(move || {
                            let (result, runs) = run_confirmed(oracle, &bytes, &c, confirm);
                            let _ = tx.send((s, result, runs));
                        });
                        running += 1;
                        self.stats.running = running;
                        ghosts.push(Ghost {
                            seq,
                            key,
                            size,
                            cancel,
                        });
                    }
                }
                // Commit decided candidates in proposal order.
                while let Some(front) = window.front() {
                    let (verdict, cost) = match front.state {
                        State::Known(v, cost) => (v, cost),
                        State::Duplicate => match self.committed.get(&front.key) {
                            Some(&v) => (v, 0),
                            // The earlier copy was not committed (it was uncacheable): test it.
                            None => {
                                window.front_mut().unwrap().state = State::Queued;
                                break;
                            }
                        },
                        State::Queued if running == 0 => {
                            // Nothing runs and the first waiting candidate cannot start.
                            finish(self, &mut window, &mut ghosts, running)?;
                            return Err(Stop::Budget);
                        }
                        _ => break,
                    };
                    if cost > 0 && !self.affordable(cost) {
                        finish(self, &mut window, &mut ghosts, running)?;
                        return Err(Stop::Budget);
                    }
                    let p = window.pop_front().unwrap();
                    window_bytes -= p.bytes.len();
                    self.commit(p.key, verdict, cost);
                    if verdict.is_interesting() {
                        // The best is about to change: what the next passes would try on it
                        // is stale.
                        self.lookahead.clear();
                        finish(self, &mut window, &mut ghosts, running)?;
                        let bytes = Arc::try_unwrap(p.bytes).unwrap_or_else(|a| (*a).clone());
                        return Ok(Some((bytes, p.payload)));
                    }
                }
                if window.is_empty() && exhausted && ghosts.is_empty() {
                    return Ok(None);
                }
                if running == 0 {
                    continue;
                }
                let Ok((done, result, runs)) = rx.recv_timeout(Duration::from_millis(50)) else {
                    continue;
                };
                running -= 1;
                self.stats.running = running;
                if let Some(g) = ghosts.iter().position(|g| g.seq == done) {
                    let g = ghosts.swap_remove(g);
                    match result {
                        Ok(outcome) => {
                            self.stats.oracle_runs += runs - 1;
                            self.ran(g.key, g.size, &outcome);
                            if !self.committed.contains_key(&g.key) {
                                let spare = Spare {
                                    verdict: outcome.verdict,
                                    runs,
                                };
                                self.spare.insert(g.key, spare);
                            }
                        }
                        // A stop from outside cancels the pass's own tests too.
                        Err(OracleError::Cancelled) => {}
                        Err(OracleError::Setup(msg)) => {
                            let _ = finish(self, &mut window, &mut ghosts, running);
                            return Err(Stop::Oracle(msg));
                        }
                    }
                    continue;
                }
                match result {
                    Ok(outcome) => {
                        self.stats.oracle_runs += runs - 1;
                        if let Some(k) = window
                            .iter()
                            .position(|p| matches!(p.state, State::Running(s, _) if s == done))
                        {
                            let (key, size) = (window[k].key, window[k].bytes.len());
                            self.ran(key, size, &outcome);
                            window[k].state = State::Known(outcome.verdict, runs);
                        }
                    }
                    Err(OracleError::Cancelled) => {
                        finish(self, &mut window, &mut ghosts, running)?;
                        return Err(Stop::Interrupted);
                    }
                    Err(OracleError::Setup(msg)) => {
                        let _ = finish(self, &mut window, &mut ghosts, running);
                        return Err(Stop::Oracle(msg));
                    }
                }
            }
        })
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
