//! The driver: the current best input, the only place a candidate is accepted, and the pass schedule.
//!
//! Main types: [`Driver`], [`Event`], [`PassStats`], [`Report`], and the [`Pass`] trait with
//! [`UnitPass`] (a granularity plus a policy) and [`Schedule`]. [`Driver::run_policy`] is the
//! seed reduce loop: it asks a policy for deltas, renders `config - delta` to bytes, tests them
//! through the [`Evaluator`] and adopts the first interesting one. Passes that propose whole
//! byte strings (the DFA pass) use [`Driver::try_candidates`], the same path.
//!
//! ```
//! use myhill::{DDMin, Driver, EvalOptions, FnOracle, Granularity, Policy, Units};
//! let oracle = FnOracle::new(|b: &[u8]| b.contains(&b'x'));
//! let mut driver = Driver::new(b"abxcd".to_vec(), &oracle, EvalOptions::default());
//! let units = Units::cut(driver.best(), Granularity::Bytes);
//! let mut ddmin: Box<dyn Policy> = Box::new(DDMin);
//! driver.run_policy(&units, &mut ddmin).unwrap();
//! assert_eq!(driver.best(), b"x");
//! ```
//!
//! Invariant: a candidate is accepted only if it is interesting and shortlex-smaller than the
//! current best, so the best never grows and every schedule terminates.

use crate::IdSet;
use crate::eval::{EvalOptions, EvalStats, Evaluator, Stop};
use crate::oracle::Oracle;
use crate::policy::{Policy, PolicyFactory};
use crate::units::{Granularity, Units};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// What the driver tells its listener.
pub enum Event<'a> {
    PassStarted {
        pass: &'a str,
    },
    /// A smaller interesting input was accepted; `bytes` is the new best.
    Reduced {
        pass: &'a str,
        bytes: &'a [u8],
    },
    PassDone {
        stats: &'a PassStats,
    },
    /// The best did not pass a re-run between passes and went back to `bytes`, the last
    /// result that did (see [`Driver::verify_best`]).
    RolledBack {
        bytes: &'a [u8],
    },
}

/// Figures of one pass (summed over every time the schedule ran it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PassStats {
    pub name: String,
    pub tests: u64,
    pub cache_hits: u64,
    pub successes: u64,
    pub bytes_removed: u64,
    pub time: Duration,
}

/// The figures of a whole run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub initial_bytes: usize,
    pub final_bytes: usize,
    pub eval: EvalStats,
    pub passes: Vec<PassStats>,
    pub wall: Duration,
    /// Tests run at once.
    pub jobs: usize,
    /// Pass-specific counters (for example the DFA pass's solves), by name.
    pub counters: BTreeMap<String, f64>,
    /// Why the run ended early, if it did.
    pub stopped: Option<Stop>,
}

/// Receives the driver's events.
pub type Listener<'o> = Box<dyn FnMut(&Event) + 'o>;

/// Holds the best input and accepts candidates; runs passes over it.
pub struct Driver<'o> {
    eval: Evaluator<'o>,
    best: Vec<u8>,
    initial_len: usize,
    passes: Vec<PassStats>,
    /// The pass being run, with when it started and the test counters at its start.
    current: Option<(usize, Instant, u64, u64)>,
    listener: Option<Listener<'o>>,
    started: Instant,
    counters: BTreeMap<String, f64>,
    /// Re-run the best between passes (see [`Driver::verify_best`]).
    verify: bool,
    /// The last best that passed a re-run (at first the input, which the caller checked).
    verified: Vec<u8>,
    rollbacks: u32,
}

/// Rollbacks after which the driver stops re-running the best: by then every success is
/// re-confirmed, and a test that still fools that is beyond what re-runs can fix.
const MAX_ROLLBACKS: u32 = 3;

fn shortlex_less(a: &[u8], b: &[u8]) -> bool {
    (a.len(), a) < (b.len(), b)
}

impl<'o> Driver<'o> {
    pub fn new(input: Vec<u8>, oracle: &'o dyn Oracle, options: EvalOptions) -> Self {
        let input_copy = input.clone();
        Driver {
            eval: Evaluator::new(oracle, options),
            initial_len: input.len(),
            best: input,
            passes: Vec::new(),
            current: None,
            listener: None,
            started: Instant::now(),
            counters: BTreeMap::new(),
            verify: false,
            verified: input_copy,
            rollbacks: 0,
        }
    }

    /// Re-run the best once after every pass that changed it, so that a test which is flaky on
    /// reduced inputs is caught before later passes build on a lucky result. Off by default:
    /// it costs a test per pass, and in-process oracles are rarely flaky.
    pub fn set_verify_between_passes(&mut self, on: bool) {
        self.verify = on;
    }

    /// Re-runs the best if it changed since the last re-run. If it is no longer interesting,
    /// the best goes back to the last result that passed a re-run, the evaluator forgets its
    /// interesting verdicts, and the oracle is told to re-confirm from now on.
    pub fn verify_best(&mut self) -> Result<(), Stop> {
        if !self.verify || self.best == self.verified || self.rollbacks >= MAX_ROLLBACKS {
            return Ok(());
        }
        self.count("verify_runs", 1.0);
        if self.eval.rerun(&self.best)?.is_interesting() {
            self.verified = self.best.clone();
            return Ok(());
        }
        self.rollbacks += 1;
        self.count("flaky_rollbacks", 1.0);
        self.best = self.verified.clone();
        self.eval.distrust();
        if let Some(l) = self.listener.as_mut() {
            l(&Event::RolledBack { bytes: &self.best });
        }
        Ok(())
    }

    /// Receives every [`Event`].
    pub fn set_listener(&mut self, f: impl FnMut(&Event) + 'o) {
        self.listener = Some(Box::new(f));
    }

    /// The smallest interesting input so far.
    pub fn best(&self) -> &[u8] {
        &self.best
    }

    pub fn evaluator(&mut self) -> &mut Evaluator<'o> {
        &mut self.eval
    }

    pub fn jobs(&self) -> usize {
        self.eval.jobs()
    }

    /// Adds `by` to a named counter of the report.
    pub fn count(&mut self, name: &str, by: f64) {
        *self.counters.entry(name.to_string()).or_default() += by;
    }

    /// Raises a named counter of the report to at least `value`.
    pub fn count_max(&mut self, name: &str, value: f64) {
        let c = self.counters.entry(name.to_string()).or_default();
        *c = c.max(value);
    }

    /// Starts attributing tests and reductions to the pass `name`.
    pub fn begin_pass(&mut self, name: &str) {
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
        let stats = self.eval.stats();
        self.current = Some((i, Instant::now(), stats.tests_run, stats.cache_hits));
        if let Some(l) = self.listener.as_mut() {
            l(&Event::PassStarted { pass: name });
        }
    }

    /// Stops attributing to the current pass.
    pub fn end_pass(&mut self) {
        let Some((i, since, tests, hits)) = self.current.take() else {
            return;
        };
        let stats = self.eval.stats();
        let p = &mut self.passes[i];
        p.tests += stats.tests_run - tests;
        p.cache_hits += stats.cache_hits - hits;
        p.time += since.elapsed();
        if let Some(l) = self.listener.as_mut() {
            l(&Event::PassDone {
                stats: &self.passes[i],
            });
        }
    }

    fn current_name(&self) -> String {
        self.current
            .map(|(i, ..)| self.passes[i].name.clone())
            .unwrap_or_else(|| "reduce".to_string())
    }

    fn accept(&mut self, bytes: Vec<u8>) {
        debug_assert!(shortlex_less(&bytes, &self.best));
        let removed = self.best.len().saturating_sub(bytes.len()) as u64;
        self.best = bytes;
        let name = self.current_name();
        if let Some((i, ..)) = self.current {
            self.passes[i].successes += 1;
            self.passes[i].bytes_removed += removed;
        }
        if let Some(l) = self.listener.as_mut() {
            l(&Event::Reduced {
                pass: &name,
                bytes: &self.best,
            });
        }
    }

    /// Tests candidates from `next` in order and accepts the first interesting one that is
    /// shortlex-smaller than the best; returns its payload. Candidates that are not smaller
    /// count as failures without a test.
    pub fn try_candidates<T>(
        &mut self,
        next: &mut dyn FnMut() -> Option<(Vec<u8>, T)>,
    ) -> Result<Option<T>, Stop> {
        let best = &self.best;
        let mut filtered = || {
            loop {
                let (bytes, payload) = next()?;
                if shortlex_less(&bytes, best) {
                    return Some((bytes, payload));
                }
            }
        };
        match self.eval.first_interesting(&mut filtered)? {
            Some((bytes, payload)) => {
                self.accept(bytes);
                Ok(Some(payload))
            }
            None => Ok(None),
        }
    }

    /// The seed reduce loop over `units` (a cut of the current best) driven by `policy`.
    /// Returns the final configuration. With speculation, a policy that learned from
    /// candidates past the winner is restored and replayed, so it sees the sequential history.
    pub fn run_policy(
        &mut self,
        units: &Units,
        policy: &mut Box<dyn Policy>,
    ) -> Result<IdSet, Stop> {
        debug_assert_eq!(
            units.data(),
            &self.best[..],
            "units must cut the current best"
        );
        let mut config = units.all();
        loop {
            let snapshot = (self.jobs() > 1).then(|| policy.clone_box());
            let mut pulled = 0usize;
            let winner = {
                let mut proposals = policy.propose(&config);
                let config_ref = &config;
                let mut next = || {
                    let delta = proposals.next()?;
                    assert!(!delta.is_empty(), "a policy proposed an empty delta");
                    pulled += 1;
                    let candidate = config_ref.difference(&delta);
                    Some((units.render(&candidate), (pulled, candidate)))
                };
                self.try_candidates(&mut next)?
            };
            let keep_going = match winner {
                Some((pulls, candidate)) => {
                    if let Some(snapshot) = snapshot
                        && pulled > pulls
                    {
                        *policy = snapshot;
                        policy.propose(&config).take(pulls).for_each(drop);
                    }
                    config = candidate;
                    policy.on_reduced(Some(&config))
                }
                None => policy.on_reduced(None),
            };
            if !keep_going {
                return Ok(config);
            }
        }
    }

    /// Everything measured so far.
    pub fn report(&self) -> Report {
        Report {
            initial_bytes: self.initial_len,
            final_bytes: self.best.len(),
            eval: self.eval.stats().clone(),
            passes: self.passes.clone(),
            wall: self.started.elapsed(),
            jobs: self.eval.jobs(),
            counters: self.counters.clone(),
            stopped: None,
        }
    }
}

/// One step of a schedule: reads the driver's best and tries to shrink it.
pub trait Pass {
    fn name(&self) -> String;
    fn run(&mut self, driver: &mut Driver) -> Result<(), Stop>;
}

/// A policy over the current best cut at one granularity.
pub struct UnitPass {
    pub granularity: Granularity,
    pub policy_name: String,
    pub make: PolicyFactory,
}

impl UnitPass {
    pub fn new(granularity: Granularity, make: PolicyFactory) -> UnitPass {
        let policy_name = make().name();
        UnitPass {
            granularity,
            policy_name,
            make,
        }
    }
}

impl Pass for UnitPass {
    fn name(&self) -> String {
        format!("{}/{}", self.policy_name, self.granularity)
    }

    fn run(&mut self, driver: &mut Driver) -> Result<(), Stop> {
        let units = Units::cut(driver.best(), self.granularity);
        let mut policy = (self.make)();
        driver.run_policy(&units, &mut policy).map(drop)
    }
}

/// Passes run in order, optionally repeated until a whole round removes nothing.
pub struct Schedule {
    pub passes: Vec<Box<dyn Pass>>,
    pub to_fixpoint: bool,
}

impl Schedule {
    /// Runs the schedule; the best so far stays in the driver whatever happens.
    pub fn run(&mut self, driver: &mut Driver) -> Result<(), Stop> {
        loop {
            let before = driver.best().to_vec();
            let rollbacks = driver.rollbacks;
            for pass in self.passes.iter_mut() {
                let name = pass.name();
                driver.begin_pass(&name);
                let result = pass.run(driver);
                driver.end_pass();
                result?;
                driver.verify_best()?;
            }
            // After a rollback the round is run again: what it found was built on luck.
            if driver.rollbacks != rollbacks {
                continue;
            }
            if !self.to_fixpoint || driver.best() == &before[..] {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{Cancel, OracleError, Outcome, Reconfirm, Verdict};
    use crate::policy::DDMin;
    use std::cell::Cell;
    use std::rc::Rc;
    use std::sync::{Arc, Mutex};

    /// Interesting iff the candidate keeps `c`, except that the first candidate without it
    /// passes once, by luck.
    struct LuckyOnce {
        lucky: Mutex<Option<Vec<u8>>>,
    }

    impl Oracle for LuckyOnce {
        fn test(&self, candidate: &[u8], _: &Cancel) -> Result<Outcome, OracleError> {
            let mut lucky = self.lucky.lock().unwrap();
            let pass = candidate.contains(&b'c')
                || (lucky.is_none() && {
                    *lucky = Some(candidate.to_vec());
                    true
                });
            Ok(Outcome::of(if pass {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            }))
        }
    }

    fn ddmin_schedule() -> Schedule {
        Schedule {
            passes: vec![Box::new(UnitPass::new(
                Granularity::Bytes,
                Arc::new(|| Box::new(DDMin) as Box<dyn Policy>),
            ))],
            to_fixpoint: false,
        }
    }

    #[test]
    fn a_lucky_result_is_caught_between_passes_and_rolled_back() {
        let inner = LuckyOnce {
            lucky: Mutex::new(None),
        };
        let oracle = Reconfirm::new(&inner, 0);
        let mut driver = Driver::new(b"abc".to_vec(), &oracle, EvalOptions::default());
        driver.set_verify_between_passes(true);
        let rolled_back = Rc::new(Cell::new(0));
        let seen = rolled_back.clone();
        driver.set_listener(move |e| {
            if let Event::RolledBack { bytes } = e {
                assert_eq!(*bytes, b"abc");
                seen.set(seen.get() + 1);
            }
        });
        ddmin_schedule().run(&mut driver).unwrap();
        assert_eq!(driver.best(), b"c");
        assert_eq!(rolled_back.get(), 1);
        assert_eq!(driver.report().counters["flaky_rollbacks"], 1.0);
    }

    #[test]
    fn without_verification_the_lucky_result_stands() {
        let oracle = LuckyOnce {
            lucky: Mutex::new(None),
        };
        let mut driver = Driver::new(b"abc".to_vec(), &oracle, EvalOptions::default());
        ddmin_schedule().run(&mut driver).unwrap();
        assert!(!driver.best().contains(&b'c'));
    }
}
