//! The job pool: tests on worker threads of one scope, each reporting back by number.
//!
//! Main items: the evaluator's private `Pool` and `run_confirmed`. The pool starts a test on a
//! thread of the caller's scope and hands back finished ones in the order they end; the caller
//! decides what a verdict means. Every test the evaluator runs goes through `run_confirmed`,
//! the one place [`Oracle::test`] is called.
//!
//! Limits: an in-process oracle ignores cancellation, so its cancelled tests run to the end.

use crate::oracle::{Cancel, Oracle, OracleError, Outcome, Verdict};
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
pub(crate) fn run_confirmed(
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

/// Tests running on threads of one scope.
pub(crate) struct Pool<'scope, 'env: 'scope> {
    scope: &'scope Scope<'scope, 'env>,
    oracle: &'env dyn Oracle,
    tx: Sender<Done>,
    rx: Receiver<Done>,
    running: usize,
    seq: u64,
}

impl<'scope, 'env> Pool<'scope, 'env> {
    /// No test running yet.
    pub(crate) fn new(scope: &'scope Scope<'scope, 'env>, oracle: &'env dyn Oracle) -> Self {
        let (tx, rx) = mpsc::channel();
        Pool {
            scope,
            oracle,
            tx,
            rx,
            running: 0,
            seq: 0,
        }
    }

    /// Starts a test of `bytes` (see [`run_confirmed`]) and returns its number.
    pub(crate) fn start(
        &mut self,
        bytes: Arc<Vec<u8>>,
        cancel: Cancel,
        confirm: u32,
        verbose: bool,
    ) -> u64 {
        self.seq += 1;
        let (seq, tx, oracle) = (self.seq, self.tx.clone(), self.oracle);
        self.scope.spawn(move || {
            let (result, runs) = run_confirmed(oracle, &bytes, &cancel, confirm, verbose);
            let _ = tx.send(Done { seq, result, runs });
        });
        self.running += 1;
        seq
    }

    /// Tests running now.
    pub(crate) fn running(&self) -> usize {
        self.running
    }

    /// The next test to end, waiting at most `timeout` (none: until one ends); `None` if none
    /// ended in time or none runs.
    pub(crate) fn wait(&mut self, timeout: Option<Duration>) -> Option<Done> {
        if self.running == 0 {
            return None;
        }
        let done = match timeout {
            Some(t) => self.rx.recv_timeout(t).ok()?,
            None => self.rx.recv().ok()?,
        };
        self.running -= 1;
        Some(done)
    }
}
