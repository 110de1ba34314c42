//! The one evaluation path: content cache, then the worker pool, then the oracle.
//!
//! Main types: [`Evaluator`], [`EvalOptions`], [`EvalStats`] and [`Stop`]. Every candidate of
//! every pass is tested through [`Evaluator::first_interesting`], which pulls candidates
//! lazily, answers repeats from a cache keyed by a 128-bit hash of the bytes, and with
//! `jobs > 1` tests the following candidates speculatively while the earliest one runs.
//! Verdicts are committed in proposal order, so the first interesting candidate in order wins
//! exactly as it would sequentially; tests that can no longer win are cancelled at once.
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
//! Limits: the window of speculative candidates is at most `4 * jobs` long; an in-process
//! oracle ignores cancellation, so its cancelled tests simply run to the end.

use crate::oracle::{Cancel, Oracle, OracleError, Outcome, Verdict};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Why evaluation stopped before the policy ran out of candidates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The user pressed Ctrl-C or sent SIGTERM.
    Interrupted,
    /// `max_tests` real tests have run.
    Budget,
    /// The oracle could not run a test at all.
    Oracle(String),
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Interrupted => f.write_str("interrupted"),
            Stop::Budget => f.write_str("test budget used up"),
            Stop::Oracle(msg) => write!(f, "the test could not be run: {msg}"),
        }
    }
}

/// How candidates are evaluated.
#[derive(Clone, Debug)]
pub struct EvalOptions {
    /// Tests run at once; 1 means strictly sequential.
    pub jobs: usize,
    /// Answer repeated candidates from the content cache.
    pub cache: bool,
    /// Stop after this many real tests.
    pub max_tests: Option<u64>,
    /// Set by a signal handler to stop everything.
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            jobs: 1,
            cache: true,
            max_tests: None,
            interrupt: None,
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

/// Counters of the evaluation path.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvalStats {
    /// Real oracle runs that completed with a verdict.
    pub tests_run: u64,
    /// Candidates answered from the cache (or by an identical test already in flight).
    pub cache_hits: u64,
    /// Completed runs whose verdict was "timed out".
    pub timeouts: u64,
    /// Completed runs that were interesting.
    pub interesting: u64,
    /// Tests started while an earlier candidate was still undecided.
    pub speculative_started: u64,
    /// Tests whose result could not be used: cancelled, or decided after an earlier winner.
    pub speculative_wasted: u64,
    /// Total time tests were running, summed over workers.
    pub busy: Duration,
    /// Wall time spent inside `first_interesting`.
    pub wall: Duration,
}

/// Called after every completed test.
pub type TestHook<'o> = Box<dyn FnMut(&EvalStats) + 'o>;

/// The cache, worker pool and oracle behind every pass.
pub struct Evaluator<'o> {
    oracle: &'o dyn Oracle,
    options: EvalOptions,
    cache: HashMap<u128, Verdict>,
    stats: EvalStats,
    on_test: Option<TestHook<'o>>,
}

fn content_key(bytes: &[u8]) -> u128 {
    xxhash_rust::xxh3::xxh3_128(bytes)
}

enum Slot {
    Known(Verdict),
    Running,
    /// Waits for an identical candidate that is already running.
    SameAs(u128),
}

struct Pending<T> {
    seq: u64,
    key: u128,
    bytes: Arc<Vec<u8>>,
    payload: T,
    slot: Slot,
    cancel: Option<Cancel>,
}

impl<'o> Evaluator<'o> {
    pub fn new(oracle: &'o dyn Oracle, options: EvalOptions) -> Self {
        Evaluator {
            oracle,
            options: EvalOptions {
                jobs: options.jobs.max(1),
                ..options
            },
            cache: HashMap::new(),
            stats: EvalStats::default(),
            on_test: None,
        }
    }

    /// Calls `f` after every completed test (for progress displays).
    pub fn set_on_test(&mut self, f: impl FnMut(&EvalStats) + 'o) {
        self.on_test = Some(Box::new(f));
    }

    pub fn stats(&self) -> &EvalStats {
        &self.stats
    }

    pub fn options(&self) -> &EvalOptions {
        &self.options
    }

    pub fn jobs(&self) -> usize {
        self.options.jobs
    }

    /// A verdict known for exactly these bytes, if the cache holds one.
    pub fn cached(&self, bytes: &[u8]) -> Option<Verdict> {
        self.cache.get(&content_key(bytes)).copied()
    }

    fn interrupted(&self) -> bool {
        self.options
            .interrupt
            .as_ref()
            .is_some_and(|i| i.load(Ordering::Relaxed))
    }

    fn budget_left(&self, started: u64) -> bool {
        self.options.max_tests.is_none_or(|max| started < max)
    }

    fn record(&mut self, key: u128, outcome: &Outcome) {
        self.stats.tests_run += 1;
        self.stats.busy += outcome.duration;
        match outcome.verdict {
            Verdict::TimedOut => self.stats.timeouts += 1,
            Verdict::Interesting => self.stats.interesting += 1,
            Verdict::NotInteresting => {}
        }
        if self.options.cache {
            self.cache.insert(key, outcome.verdict);
        }
        if let Some(f) = self.on_test.as_mut() {
            f(&self.stats);
        }
    }

    /// Tests one candidate (through the cache), sequentially.
    pub fn test(&mut self, bytes: &[u8]) -> Result<Verdict, Stop> {
        let started = Instant::now();
        let result = if self.interrupted() {
            Err(Stop::Interrupted)
        } else {
            self.verdict_of(content_key(bytes), bytes)
        };
        self.stats.wall += started.elapsed();
        result
    }

    /// The verdict for one candidate: from the cache if allowed, else from one oracle run.
    fn verdict_of(&mut self, key: u128, bytes: &[u8]) -> Result<Verdict, Stop> {
        if self.options.cache
            && let Some(&v) = self.cache.get(&key)
        {
            self.stats.cache_hits += 1;
            return Ok(v);
        }
        self.run_oracle(key, bytes)
    }

    /// One real run of the oracle, within the budget; its verdict is recorded and cached.
    fn run_oracle(&mut self, key: u128, bytes: &[u8]) -> Result<Verdict, Stop> {
        if !self.budget_left(self.stats.tests_run) {
            return Err(Stop::Budget);
        }
        let cancel = Cancel::child_of(self.options.interrupt.clone());
        match self.oracle.test(bytes, &cancel) {
            Ok(outcome) => {
                self.record(key, &outcome);
                Ok(outcome.verdict)
            }
            Err(OracleError::Cancelled) => Err(Stop::Interrupted),
            Err(OracleError::Setup(msg)) => Err(Stop::Oracle(msg)),
        }
    }

    /// Runs the oracle on `bytes` again, past the cache; the new verdict replaces the cached one.
    pub fn rerun(&mut self, bytes: &[u8]) -> Result<Verdict, Stop> {
        if self.interrupted() {
            return Err(Stop::Interrupted);
        }
        self.run_oracle(content_key(bytes), bytes)
    }

    /// After an interesting verdict did not hold up: forgets every cached "interesting" (any
    /// of them may have been luck) and tells the oracle, which may re-confirm from now on.
    pub fn distrust(&mut self) {
        self.cache.retain(|_, v| !v.is_interesting());
        self.oracle.distrust();
    }

    /// Counts a test that was run outside this evaluator (the first check of the original)
    /// and caches its verdict.
    pub fn record_external(&mut self, bytes: &[u8], outcome: &Outcome) {
        self.record(content_key(bytes), outcome);
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
            if self.interrupted() {
                return Err(Stop::Interrupted);
            }
            let Some((bytes, payload)) = next() else {
                return Ok(None);
            };
            if self
                .verdict_of(content_key(&bytes), &bytes)?
                .is_interesting()
            {
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
        let interrupt = self.options.interrupt.clone();
        let (tx, rx) = mpsc::channel::<(u64, Result<Outcome, OracleError>)>();
        std::thread::scope(|scope| {
            let mut window: VecDeque<Pending<T>> = VecDeque::new();
            let mut running = 0usize;
            let mut exhausted = false;
            let mut seq = 0u64;
            // Ends the call: cancels what still runs, waits for it, and counts the waste.
            let finish = |this: &mut Self,
                          window: &mut VecDeque<Pending<T>>,
                          mut running: usize|
             -> Result<(), Stop> {
                for p in window.iter() {
                    if let Some(c) = &p.cancel {
                        c.cancel();
                    }
                }
                let mut error = None;
                while running > 0 {
                    let Ok((seq, result)) = rx.recv() else { break };
                    running -= 1;
                    this.stats.speculative_wasted += 1;
                    match result {
                        Ok(outcome) => {
                            if let Some(p) = window.iter().find(|p| p.seq == seq) {
                                this.record(p.key, &outcome);
                            }
                        }
                        Err(OracleError::Setup(msg)) => error = Some(Stop::Oracle(msg)),
                        Err(OracleError::Cancelled) => {}
                    }
                }
                window.clear();
                error.map_or(Ok(()), Err)
            };
            loop {
                if self.interrupted() {
                    finish(self, &mut window, running)?;
                    return Err(Stop::Interrupted);
                }
                while !exhausted
                    && running < jobs
                    && window.len() < 4 * jobs
                    && self.budget_left(self.stats.tests_run + running as u64)
                {
                    let Some((bytes, payload)) = next() else {
                        exhausted = true;
                        break;
                    };
                    let key = content_key(&bytes);
                    let bytes = Arc::new(bytes);
                    seq += 1;
                    let cached = if self.options.cache {
                        self.cache.get(&key).copied()
                    } else {
                        None
                    };
                    let in_flight = self.options.cache
                        && window
                            .iter()
                            .any(|p| p.key == key && !matches!(p.slot, Slot::Known(_)));
                    let (slot, cancel) = if let Some(v) = cached {
                        self.stats.cache_hits += 1;
                        (Slot::Known(v), None)
                    } else if in_flight {
                        (Slot::SameAs(key), None)
                    } else {
                        let cancel = Cancel::child_of(interrupt.clone());
                        let (tx, c, b, s) = (tx.clone(), cancel.clone(), bytes.clone(), seq);
                        if window.iter().any(|p| !matches!(p.slot, Slot::Known(_))) {
                            self.stats.speculative_started += 1;
                        }
                        scope.spawn(move || {
                            let _ = tx.send((s, oracle.test(&b, &c)));
                        });
                        running += 1;
                        (Slot::Running, Some(cancel))
                    };
                    window.push_back(Pending {
                        seq,
                        key,
                        bytes,
                        payload,
                        slot,
                        cancel,
                    });
                }
                // Commit decided candidates in proposal order.
                while let Some(front) = window.front() {
                    match front.slot {
                        Slot::Known(v) if v.is_interesting() => {
                            let won = window.pop_front().unwrap();
                            finish(self, &mut window, running)?;
                            let bytes = Arc::try_unwrap(won.bytes).unwrap_or_else(|a| (*a).clone());
                            return Ok(Some((bytes, won.payload)));
                        }
                        Slot::Known(_) => {
                            window.pop_front();
                        }
                        _ => break,
                    }
                }
                if window.is_empty() {
                    if exhausted {
                        return Ok(None);
                    }
                    if !self.budget_left(self.stats.tests_run) {
                        return Err(Stop::Budget);
                    }
                    continue;
                }
                let Ok((done, result)) = rx.recv_timeout(Duration::from_millis(50)) else {
                    continue;
                };
                running -= 1;
                match result {
                    Ok(outcome) => {
                        let Some(i) = window.iter().position(|p| p.seq == done) else {
                            continue;
                        };
                        let key = window[i].key;
                        self.record(key, &outcome);
                        window[i].slot = Slot::Known(outcome.verdict);
                        window[i].cancel = None;
                        for p in window.iter_mut() {
                            if matches!(p.slot, Slot::SameAs(k) if k == key) {
                                self.stats.cache_hits += 1;
                                p.slot = Slot::Known(outcome.verdict);
                            }
                        }
                    }
                    Err(OracleError::Cancelled) => {
                        finish(self, &mut window, running)?;
                        return Err(Stop::Interrupted);
                    }
                    Err(OracleError::Setup(msg)) => {
                        let _ = finish(self, &mut window, running);
                        return Err(Stop::Oracle(msg));
                    }
                }
            }
        })
    }
}
