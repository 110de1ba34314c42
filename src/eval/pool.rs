//! The job pool: tests on worker threads of one scope, each reporting back by number.
//!
//! Main items: the evaluator's private `Pool`, `Runs` and `run_confirmed`. The pool starts a
//! test on a thread of the caller's scope (or, made with [`Pool::here`], on the caller's own
//! thread) and hands back finished ones in the order they end; the caller decides what a
//! verdict means. Every test the evaluator runs goes through a pool, so the runs of the test
//! are counted in one place, where a finished run arrives ([`Runs`]); and through
//! `run_confirmed`, the one place [`Oracle::test`] is called.
//!
//! Limits: an in-process oracle ignores cancellation, so its cancelled tests run to the end.
//! A test whose oracle panics ends as cancelled, with no run counted, and the panic goes on
//! to the scope.

use crate::oracle::{Cancel, Oracle, OracleError, Outcome, Verdict};
use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::Scope;
use std::time::Duration;

/// A test that ended: its number, its outcome, and the runs of the test it started.
pub(crate) struct Done {
    pub(crate) seq: u64,
    pub(crate) result: Result<Outcome, OracleError>,
    pub(crate) runs: u64,
}

/// Runs the oracle once (keeping what the test printed if `verbose`), then up to `confirm`
/// more times while it keeps saying interesting. Returns the outcome and the runs of the test
/// it started, a cancelled one included (a test that could not start is not a run).
fn run_confirmed(
    oracle: &dyn Oracle,
    bytes: &[u8],
    cancel: &Cancel,
    confirm: u32,
    verbose: bool,
) -> (Result<Outcome, OracleError>, u64) {
    if !cancel.wait_while_paused() {
        return (Err(OracleError::Cancelled), 0);
    }
    let first = if verbose || cancel.keeps_output() {
        oracle.test_verbose(bytes, cancel)
    } else {
        oracle.test(bytes, cancel)
    };
    let mut first = match first {
        Ok(o) => o,
        Err(e @ OracleError::Cancelled) => return (Err(e), 1),
        Err(e) => return (Err(e), 0),
    };
    let mut runs = 1;
    for _ in 0..confirm {
        if first.verdict != Verdict::Interesting {
            break;
        }
        if !cancel.wait_while_paused() {
            return (Err(OracleError::Cancelled), runs);
        }
        match oracle.test(bytes, cancel) {
            Ok(again) => {
                runs += 1;
                first.duration += again.duration;
                if again.verdict != Verdict::Interesting {
                    first.verdict = again.verdict;
                }
            }
            Err(e @ OracleError::Cancelled) => return (Err(e), runs + 1),
            Err(e) => return (Err(e), runs),
        }
    }
    (Ok(first), runs)
}

/// Every run of the test an evaluator's pools saw end: shared by the evaluator and its pools,
/// and added to only where a finished run arrives ([`Pool::wait`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Runs(Rc<Cell<u64>>);

impl Runs {
    /// The runs so far.
    pub(crate) fn get(&self) -> u64 {
        self.0.get()
    }
}

/// Tests running on threads of one scope, or one at a time on the caller's thread.
pub(crate) struct Pool<'scope, 'env: 'scope> {
    /// None: each test runs on the caller's thread when it is started.
    scope: Option<&'scope Scope<'scope, 'env>>,
    oracle: &'scope dyn Oracle,
    runs: Runs,
    tx: Sender<Done>,
    rx: Receiver<Done>,
    running: usize,
    seq: u64,
}

/// Sends a test's end to its pool, a cancelled end if its thread unwinds before it could.
struct Reply {
    seq: u64,
    tx: Sender<Done>,
    sent: bool,
}

impl Reply {
    fn send(mut self, result: Result<Outcome, OracleError>, runs: u64) {
        self.sent = true;
        let _ = self.tx.send(Done {
            seq: self.seq,
            result,
            runs,
        });
    }
}

impl Drop for Reply {
    fn drop(&mut self) {
        if !self.sent {
            // Without it, a pool waiting for this test would wait for ever.
            let _ = self.tx.send(Done {
                seq: self.seq,
                result: Err(OracleError::Cancelled),
                runs: 0,
            });
        }
    }
}

impl<'scope, 'env> Pool<'scope, 'env> {
    /// No test running yet; tests run on threads of `scope`, and their runs count in `runs`.
    pub(crate) fn new(
        scope: &'scope Scope<'scope, 'env>,
        oracle: &'scope dyn Oracle,
        runs: &Runs,
    ) -> Self {
        Self::with(Some(scope), oracle, runs)
    }

    /// A pool of one job, the caller's thread: [`Pool::start`] runs the test to its end, and
    /// [`Pool::wait`] hands it back.
    pub(crate) fn here(oracle: &'scope dyn Oracle, runs: &Runs) -> Self {
        Self::with(None, oracle, runs)
    }

    fn with(
        scope: Option<&'scope Scope<'scope, 'env>>,
        oracle: &'scope dyn Oracle,
        runs: &Runs,
    ) -> Self {
        let (tx, rx) = mpsc::channel();
        Pool {
            scope,
            oracle,
            runs: runs.clone(),
            tx,
            rx,
            running: 0,
            seq: 0,
        }
    }

    /// Starts a test of `bytes` (see `run_confirmed`) and returns its number; a pool made
    /// with [`Pool::here`] runs it to its end first.
    pub(crate) fn start(
        &mut self,
        bytes: Arc<Vec<u8>>,
        cancel: Cancel,
        confirm: u32,
        verbose: bool,
    ) -> u64 {
        self.seq += 1;
        let oracle = self.oracle;
        let reply = Reply {
            seq: self.seq,
            tx: self.tx.clone(),
            sent: false,
        };
        let test = move || {
            let (result, runs) = run_confirmed(oracle, &bytes, &cancel, confirm, verbose);
            reply.send(result, runs);
        };
        match self.scope {
            Some(scope) => {
                scope.spawn(test);
            }
            None => test(),
        }
        self.running += 1;
        self.seq
    }

    /// Tests running now.
    pub(crate) fn running(&self) -> usize {
        self.running
    }

    /// The next test to end, waiting at most `timeout` (none: until one ends); `None` if none
    /// ended in time or none runs. Its runs are counted here, the one place they are.
    pub(crate) fn wait(&mut self, timeout: Option<Duration>) -> Option<Done> {
        if self.running == 0 {
            return None;
        }
        let done = match timeout {
            Some(t) => self.rx.recv_timeout(t).ok()?,
            None => self.rx.recv().ok()?,
        };
        self.running -= 1;
        self.runs.0.set(self.runs.0.get() + done.runs);
        Some(done)
    }
}
