//! The ledger of a run: what each pass cost and removed, the typed counters, and the trace
//! of the best's size over tests and time.
//!
//! Main type: [`Ledger`]. The round engine opens and closes a pass's entry
//! ([`Ledger::begin_pass`], [`Ledger::end_pass`]); the [`crate::passes::Cx`] notes every acceptance
//! and rollback in it; passes count through the `Cx`. [`Ledger::report`] folds it with the
//! driver's figures into a [`Report`].
//!
//! Limits: the trace keeps one entry per change of the best, bounded by the input's size.

use crate::driver::Driver;
use crate::report::{Counter, Event, Figure, Fold, PassStats, Report};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Per-pass figures, counters and the trace of a run.
pub(crate) struct Ledger {
    initial_len: usize,
    passes: Vec<PassStats>,
    /// The passes being run, innermost last (a pass that runs a schedule of its own, on one
    /// file of a tree, holds the rows of that schedule's passes inside its own), each with
    /// when its current stretch started and the test counters then: a pass's row counts only
    /// the tests of its own stretches, not those of the rows inside it.
    current: Vec<(usize, Instant, u64, u64)>,
    started: Instant,
    counters: BTreeMap<Counter, Figure>,
    trace: Vec<(u64, usize)>,
    /// When each entry of `trace` happened, since the start.
    trace_times: Vec<Duration>,
}

impl Ledger {
    /// A ledger for an input of `len` bytes.
    pub(crate) fn new(len: usize) -> Ledger {
        Ledger {
            initial_len: len,
            passes: Vec::new(),
            current: Vec::new(),
            started: Instant::now(),
            counters: BTreeMap::new(),
            trace: vec![(0, len)],
            trace_times: vec![Duration::ZERO],
        }
    }

    /// Adds `value` to `counter` (or raises it to `value`, as the counter folds).
    pub(crate) fn count(&mut self, counter: Counter, value: u64) {
        let entry = self.counters.entry(counter).or_insert(Figure::Count(0));
        if let Figure::Count(n) = entry {
            *n = match counter.fold() {
                Fold::Max | Fold::MaxSeconds => (*n).max(value),
                Fold::Sum | Fold::SumSeconds => *n + value,
            };
        }
    }

    /// The value of `counter` so far (0 if it was never counted or holds a time).
    pub(crate) fn counted(&self, counter: Counter) -> u64 {
        match self.counters.get(&counter) {
            Some(Figure::Count(n)) => *n,
            _ => 0,
        }
    }

    /// Adds `time` to `counter` (or raises it to `time`, as the counter folds).
    pub(crate) fn time(&mut self, counter: Counter, time: Duration) {
        let entry = self.counters.entry(counter).or_insert(Figure::Seconds(0.0));
        if let Figure::Seconds(s) = entry {
            let t = time.as_secs_f64();
            *s = match counter.fold() {
                Fold::Max | Fold::MaxSeconds => s.max(t),
                Fold::Sum | Fold::SumSeconds => *s + t,
            };
        }
    }

    /// Starts attributing tests and reductions to the pass `name`.
    pub(crate) fn begin_pass(&mut self, driver: &mut Driver, name: &str) {
        let i = match self.passes.iter().position(|p| p.name == name) {
            Some(i) => i,
            None => {
                self.passes.push(PassStats {
                    name: name.to_string(),
                    ..PassStats::default()
                });
                self.passes.len() - 1
            }
        };
        self.passes[i].runs += 1;
        let eval = driver.evaluator();
        let stats = eval.stats();
        let (tests, hits) = (stats.tests_run, stats.cache_hits);
        if let Some(&(outer, since, t, h)) = self.current.last() {
            self.passes[outer].add(tests - t, hits - h, since.elapsed());
        }
        self.current.push((i, Instant::now(), tests, hits));
        eval.reset_progress();
        eval.emit(&Event::PassStarted { pass: name });
    }

    /// Stops attributing to the current pass; `skipped` says the user skipped it.
    pub(crate) fn end_pass(&mut self, driver: &mut Driver, skipped: bool) {
        let Some((i, since, tests, hits)) = self.current.pop() else {
            return;
        };
        let eval = driver.evaluator();
        let stats = eval.stats();
        let (now_tests, now_hits) = (stats.tests_run, stats.cache_hits);
        let p = &mut self.passes[i];
        p.add(now_tests - tests, now_hits - hits, since.elapsed());
        p.skipped += u64::from(skipped);
        let done = p.clone();
        eval.emit(&Event::PassDone { stats: &done });
        if let Some(outer) = self.current.last_mut() {
            *outer = (outer.0, Instant::now(), now_tests, now_hits);
        }
    }

    /// The running pass's name ("reduce" between passes).
    pub(crate) fn current_name(&self) -> String {
        self.current
            .last()
            .map(|&(i, ..)| self.passes[i].name.clone())
            .unwrap_or_else(|| "reduce".to_string())
    }

    /// Notes that the driver just accepted a best `removed` bytes smaller.
    pub(crate) fn reduced(&mut self, driver: &mut Driver, removed: u64) {
        if let Some(&(i, ..)) = self.current.last() {
            self.passes[i].successes += 1;
            self.passes[i].bytes_removed += removed;
        }
        let name = self.current_name();
        let whole = driver.whole();
        let eval = driver.evaluator();
        let tests = eval.stats().tests_run;
        self.trace.push((tests, whole.len()));
        self.trace_times.push(self.started.elapsed());
        eval.emit(&Event::Reduced {
            pass: &name,
            bytes: &whole,
            tests,
        });
    }

    /// Notes that the best went back to an earlier result.
    pub(crate) fn rolled_back(&mut self, driver: &mut Driver) {
        let best = driver.whole();
        let eval = driver.evaluator();
        self.trace.push((eval.stats().tests_run, best.len()));
        self.trace_times.push(self.started.elapsed());
        eval.emit(&Event::RolledBack { bytes: &best });
    }

    /// Everything measured so far, with the driver's figures.
    pub(crate) fn report(&self, driver: &Driver) -> Report {
        let mut counters = self.counters.clone();
        if driver.nesting_builds() > 0 {
            counters.insert(
                Counter::NestingBuilds,
                Figure::Count(driver.nesting_builds()),
            );
        }
        let (kind, file_kinds) = driver.kinds();
        Report {
            initial_bytes: self.initial_len,
            final_bytes: driver.best().len(),
            eval: driver.eval().final_stats(),
            passes: self.passes.clone(),
            wall: self.started.elapsed(),
            jobs: driver.jobs(),
            trace: self.trace.clone(),
            trace_times: self.trace_times.clone(),
            counters,
            kind,
            file_kinds: file_kinds.clone(),
            ..Report::default()
        }
    }
}

impl PassStats {
    /// Adds a stretch of a run: its tests, cache hits and time.
    fn add(&mut self, tests: u64, cache_hits: u64, time: Duration) {
        self.tests += tests;
        self.cache_hits += cache_hits;
        self.time += time;
    }
}
