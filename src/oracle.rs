//! The question every reduction asks, "is this candidate still interesting?", and its answers.
//!
//! Main types: [`Verdict`], [`Outcome`], the [`Oracle`] trait, [`FnOracle`] (an in-process
//! closure, for tests, examples and library users) and [`Cancel`] (how a running test is told
//! to stop). The command oracle that runs the user's script lives in [`crate::command`].
//!
//! ```
//! use myhill::{Cancel, FnOracle, Oracle, Verdict};
//! let oracle = FnOracle::new(|bytes: &[u8]| bytes.contains(&b'!'));
//! let out = oracle.test(b"hi!", &Cancel::never()).unwrap();
//! assert_eq!(out.verdict, Verdict::Interesting);
//! ```
//!
//! Limits: an oracle must be deterministic for `--jobs` to leave the answer unchanged; a flaky
//! one is detected at the first check (see the command-line driver), not here.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

/// The answer of one test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Still triggers the behaviour being reduced.
    Interesting,
    /// Does not (or is invalid).
    NotInteresting,
    /// The test ran past its time limit; reported apart and never accepted.
    TimedOut,
}

impl Verdict {
    pub fn is_interesting(self) -> bool {
        self == Verdict::Interesting
    }
}

/// A verdict with what the test printed (kept only when an oracle needs it) and how long it took.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    pub duration: Duration,
    /// The test's exit status (`None` when killed by a signal or not a process).
    pub exit_code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl Outcome {
    pub fn of(verdict: Verdict) -> Outcome {
        Outcome {
            verdict,
            duration: Duration::ZERO,
            exit_code: None,
            stdout: Vec::new(),
            stderr: Vec::new(),
        }
    }
}

/// Why an oracle could not give a verdict.
#[derive(Debug)]
pub enum OracleError {
    /// The test was stopped because its result is no longer needed or the user interrupted.
    Cancelled,
    /// The test could not be run at all (with a message that names the fix).
    Setup(String),
}

impl std::fmt::Display for OracleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OracleError::Cancelled => f.write_str("test cancelled"),
            OracleError::Setup(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for OracleError {}

/// Tells a running test to stop: set per test by the worker pool, or globally on Ctrl-C.
#[derive(Clone, Debug, Default)]
pub struct Cancel {
    this_test: Arc<AtomicBool>,
    everything: Option<Arc<AtomicBool>>,
}

impl Cancel {
    /// A token that never fires.
    pub fn never() -> Cancel {
        Cancel::default()
    }

    /// A fresh per-test token that also fires when `everything` is set.
    pub fn child_of(everything: Option<Arc<AtomicBool>>) -> Cancel {
        Cancel {
            this_test: Arc::new(AtomicBool::new(false)),
            everything,
        }
    }

    pub fn cancel(&self) {
        self.this_test.store(true, Ordering::SeqCst);
    }

    pub fn is_cancelled(&self) -> bool {
        self.this_test.load(Ordering::Relaxed)
            || self
                .everything
                .as_ref()
                .is_some_and(|e| e.load(Ordering::Relaxed))
    }
}

/// Decides whether a candidate is interesting. The only way a reduction learns anything.
pub trait Oracle: Send + Sync {
    fn test(&self, candidate: &[u8], cancel: &Cancel) -> Result<Outcome, OracleError>;

    /// Told that an interesting verdict did not hold up when run again; an oracle that can
    /// re-confirm its verdicts should start doing so. Most oracles ignore it.
    fn distrust(&self) {}
}

/// An in-process oracle from a closure over the candidate's bytes.
pub struct FnOracle<F> {
    f: F,
}

impl<F: Fn(&[u8]) -> bool + Send + Sync> FnOracle<F> {
    pub fn new(f: F) -> Self {
        FnOracle { f }
    }
}

impl<F: Fn(&[u8]) -> bool + Send + Sync> Oracle for FnOracle<F> {
    fn test(&self, candidate: &[u8], _cancel: &Cancel) -> Result<Outcome, OracleError> {
        Ok(Outcome::of(if (self.f)(candidate) {
            Verdict::Interesting
        } else {
            Verdict::NotInteresting
        }))
    }
}

/// Wraps a flaky oracle: an interesting verdict counts only if `extra` more runs agree, so
/// no reduction is accepted on one lucky run. Starting at 0 extra runs, [`Oracle::distrust`]
/// raises it to 1.
pub struct Reconfirm<'a> {
    inner: &'a dyn Oracle,
    extra: AtomicU32,
}

impl<'a> Reconfirm<'a> {
    pub fn new(inner: &'a dyn Oracle, extra: u32) -> Self {
        Reconfirm {
            inner,
            extra: AtomicU32::new(extra),
        }
    }
}

impl Oracle for Reconfirm<'_> {
    fn distrust(&self) {
        self.extra.fetch_max(1, Ordering::Relaxed);
    }

    fn test(&self, candidate: &[u8], cancel: &Cancel) -> Result<Outcome, OracleError> {
        let mut first = self.inner.test(candidate, cancel)?;
        for _ in 0..self.extra.load(Ordering::Relaxed) {
            if first.verdict != Verdict::Interesting {
                break;
            }
            let again = self.inner.test(candidate, cancel)?;
            first.duration += again.duration;
            if again.verdict != Verdict::Interesting {
                first.verdict = again.verdict;
            }
        }
        Ok(first)
    }
}
