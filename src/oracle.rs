//! The question every reduction asks, "is this candidate still interesting?", and its answers.
//!
//! Main types: [`Verdict`], [`Outcome`] (a verdict with what the test printed, summarised in
//! bounded memory as [`Output`]), the [`Oracle`] trait, [`FnOracle`] (an in-process closure,
//! for tests, examples and library users), [`Control`] (how a caller stops a reduction, hurries
//! it or skips its pass) and [`Cancel`] (how one running test is told to stop). The oracle
//! that runs the user's test as a process is [`crate::TestCommand`].
//!
//! ```
//! use myhill::{FnOracle, Oracle, Verdict, process::Cancel};
//! let oracle = FnOracle::new(|bytes: &[u8]| bytes.contains(&b'!'));
//! let out = oracle.test(b"hi!", &Cancel::never()).unwrap();
//! assert_eq!(out.verdict, Verdict::Interesting);
//! ```
//!
//! Limits: an oracle must be deterministic for `--jobs` to leave the answer unchanged; one that
//! is flaky on the original is caught by the first check of [`crate::Reduction`], one that is
//! flaky on reduced inputs by its re-runs.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
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
    /// Whether this verdict keeps a candidate.
    pub fn is_interesting(self) -> bool {
        self == Verdict::Interesting
    }
}

/// What a test printed on one stream: its length, a digest of the whole, and its last bytes.
/// Equal digests mean equal output; the memory it takes does not grow with the output.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// Bytes printed.
    pub len: u64,
    /// A 128-bit hash of everything printed.
    pub digest: u128,
    /// The last bytes printed (at most a few KiB), for explaining a failure.
    pub tail: Vec<u8>,
}

/// A verdict with how the test ended and what it printed (kept only when needed).
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The answer.
    pub verdict: Verdict,
    /// How long the test ran.
    pub duration: Duration,
    /// The test's exit status (`None` when killed by a signal, timed out, or not a process).
    pub exit_code: Option<i32>,
    /// The signal that ended the test, if one did.
    pub signal: Option<i32>,
    /// What the test printed on stdout (empty unless kept).
    pub stdout: Output,
    /// What the test printed on stderr (empty unless kept).
    pub stderr: Output,
}

impl Outcome {
    /// An outcome with nothing but a verdict.
    pub fn of(verdict: Verdict) -> Outcome {
        Outcome {
            verdict,
            duration: Duration::ZERO,
            exit_code: None,
            signal: None,
            stdout: Output::default(),
            stderr: Output::default(),
        }
    }

    /// How the test ended, for messages: "exit status 1", "timed out after 2.0s", ...
    pub fn describe(&self) -> String {
        match (self.verdict, self.exit_code, self.signal) {
            (Verdict::TimedOut, _, _) => {
                format!("timed out after {:.1}s", self.duration.as_secs_f64())
            }
            (_, Some(code), _) => format!("exit status {code}"),
            (_, None, Some(sig)) => format!("killed by signal {sig}"),
            (_, None, None) => "no exit status".to_string(),
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

#[derive(Debug, Default)]
struct Flags {
    stop: AtomicBool,
    hurry: AtomicBool,
    skip_pass: AtomicBool,
    paused: AtomicBool,
    keep_output: AtomicBool,
    disabled: Mutex<Vec<String>>,
}

/// Steers a running reduction from outside (a signal handler, a key, another thread): stop
/// cleanly, hurry the stop, skip the running pass, disable a pass for the rest of the run, or
/// hold back new tests. Cheap to clone; clones share the flags.
///
/// ```
/// use myhill::process::Control;
/// let control = Control::new();
/// let handle = control.clone();
/// handle.stop();
/// assert!(control.is_stopped());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Control {
    flags: Arc<Flags>,
}

impl Control {
    /// Flags that are all down.
    pub fn new() -> Control {
        Control::default()
    }

    /// Stops the reduction cleanly: running tests get SIGTERM, then SIGKILL after a grace;
    /// the best so far is kept.
    pub fn stop(&self) {
        self.flags.stop.store(true, Ordering::SeqCst);
    }

    /// Stops the reduction without the grace: running tests are killed at once.
    pub fn hurry(&self) {
        self.flags.hurry.store(true, Ordering::SeqCst);
        self.stop();
    }

    /// Ends the running pass (its running tests are cancelled) and goes on with the next.
    pub fn skip_pass(&self) {
        self.flags.skip_pass.store(true, Ordering::SeqCst);
    }

    /// Whether [`Control::stop`] (or [`Control::hurry`]) was called.
    pub fn is_stopped(&self) -> bool {
        self.flags.stop.load(Ordering::Relaxed)
    }

    /// Whether [`Control::hurry`] was called.
    pub fn is_hurried(&self) -> bool {
        self.flags.hurry.load(Ordering::Relaxed)
    }

    /// Whether a skip of the running pass is pending.
    pub fn skip_requested(&self) -> bool {
        self.flags.skip_pass.load(Ordering::Relaxed)
    }

    /// Clears a pending skip and says whether there was one.
    pub fn take_skip(&self) -> bool {
        self.flags.skip_pass.swap(false, Ordering::SeqCst)
    }

    /// Holds back every test not yet started (running ones go on) until [`Control::resume`];
    /// a stop or a cancel still ends the wait.
    pub fn pause(&self) {
        self.flags.paused.store(true, Ordering::SeqCst);
    }

    /// Lets tests start again after [`Control::pause`].
    pub fn resume(&self) {
        self.flags.paused.store(false, Ordering::SeqCst);
    }

    /// Whether tests are held back.
    pub fn is_paused(&self) -> bool {
        self.flags.paused.load(Ordering::Relaxed)
    }

    /// Makes every later test keep the tail of what it printed, for a view to show (the
    /// verdict does not change).
    pub fn keep_output(&self) {
        self.flags.keep_output.store(true, Ordering::SeqCst);
    }

    /// Whether tests keep what they print.
    pub fn keeps_output(&self) -> bool {
        self.flags.keep_output.load(Ordering::Relaxed)
    }

    /// Leaves the pass `name` out of every later round, or (`false`) lets it run again. To
    /// end it while it runs, [`Control::skip_pass`] too.
    pub fn set_disabled(&self, name: &str, disabled: bool) {
        let mut list = self
            .flags
            .disabled
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        list.retain(|n| n != name);
        if disabled {
            list.push(name.to_string());
        }
    }

    /// Whether the pass `name` is disabled.
    pub fn is_disabled(&self, name: &str) -> bool {
        let list = self
            .flags
            .disabled
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        list.iter().any(|n| n == name)
    }

    /// The passes disabled now, in the order they were disabled.
    pub fn disabled(&self) -> Vec<String> {
        self.flags
            .disabled
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// Tells one running test to stop: set per test by the worker pool, or for every test through
/// the reduction's [`Control`].
#[derive(Clone, Debug, Default)]
pub struct Cancel {
    this_test: Arc<AtomicBool>,
    control: Option<Control>,
}

impl Cancel {
    /// A token that never fires.
    pub fn never() -> Cancel {
        Cancel::default()
    }

    /// A fresh per-test token that also fires when `control` is stopped.
    pub fn child_of(control: &Control) -> Cancel {
        Cancel {
            this_test: Arc::new(AtomicBool::new(false)),
            control: Some(control.clone()),
        }
    }

    /// Asks this test to stop.
    pub fn cancel(&self) {
        self.this_test.store(true, Ordering::SeqCst);
    }

    /// Whether the test should stop.
    pub fn is_cancelled(&self) -> bool {
        self.this_test.load(Ordering::Relaxed)
            || self.control.as_ref().is_some_and(Control::is_stopped)
    }

    /// Whether a stop should skip the grace and kill at once.
    pub fn is_hurried(&self) -> bool {
        self.control.as_ref().is_some_and(Control::is_hurried)
    }

    /// Waits while the reduction is paused ([`Control::pause`]); false if the test was
    /// cancelled meanwhile (it must not start then).
    pub fn wait_while_paused(&self) -> bool {
        while self.control.as_ref().is_some_and(Control::is_paused) {
            if self.is_cancelled() {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        !self.is_cancelled()
    }

    /// Whether the test should keep the tail of what it prints ([`Control::keep_output`]).
    pub fn keeps_output(&self) -> bool {
        self.control.as_ref().is_some_and(Control::keeps_output)
    }
}

/// Decides whether a candidate is interesting. The only way a reduction learns anything.
pub trait Oracle: Send + Sync {
    /// Tests one candidate.
    fn test(&self, candidate: &[u8], cancel: &Cancel) -> Result<Outcome, OracleError>;

    /// Tests one candidate and keeps what the test printed, to explain a failure. The first
    /// check of a reduction uses it; the default is [`Oracle::test`].
    fn test_verbose(&self, candidate: &[u8], cancel: &Cancel) -> Result<Outcome, OracleError> {
        self.test(candidate, cancel)
    }

    /// Hears the outcome of the original's first run, to adapt to it (a timeout from its
    /// duration, a reference output to reproduce). Most oracles ignore it.
    fn calibrate(&self, _first: &Outcome) {}
}

/// An in-process oracle from a closure over the candidate's bytes.
pub struct FnOracle<F> {
    f: F,
}

impl<F: Fn(&[u8]) -> bool + Send + Sync> FnOracle<F> {
    /// The oracle that calls `f`: `true` means interesting.
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
