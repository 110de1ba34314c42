//! The speculation window: the candidates after the earliest undecided one, tested while it runs.
//!
//! Main items: the private `Window` and [`Evaluator::run_parallel`](super::Evaluator). With
//! `jobs > 1` the evaluator pulls candidates ahead into the window and starts them on the job
//! pool in proposal order; verdicts are committed in that order, so the first interesting
//! candidate wins exactly as it would with one job, and whatever still runs behind it is
//! cancelled (or, for a batch, drained) and kept apart from the cache. Idle jobs behind a
//! pass's last candidates take the next passes' first ones (the lookahead, `Ghost`s).
//!
//! Limits: the window is at most `4 * jobs` candidates long and holds at most
//! [`super::EvalOptions::window_bytes`] of them (always at least one).

use super::Evaluator;
use super::pool::{Done, Pool};
use super::verdicts::{Known, content_key};
use crate::oracle::{Cancel, OracleError};
use crate::report::Stop;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

enum State {
    /// Known, with what committing it costs.
    Known(Known),
    /// Waiting for a job.
    Queued,
    /// On a job: its number, its cancel, and whether it started while an earlier candidate
    /// was undecided.
    Running(u64, Cancel, bool),
    /// The same bytes as an earlier candidate of the window: free once that one is committed.
    Duplicate,
}

/// A lookahead candidate on a job.
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

/// The candidates pulled and not yet committed, and the lookahead on jobs.
struct Window<T> {
    pending: VecDeque<Pending<T>>,
    bytes: usize,
    exhausted: bool,
    ghosts: Vec<Ghost>,
}

impl<T> Window<T> {
    /// The window position of the candidate running as test `seq`, and whether it started
    /// speculatively.
    fn running(&self, seq: u64) -> Option<(usize, bool)> {
        self.pending
            .iter()
            .enumerate()
            .find_map(|(k, p)| match p.state {
                State::Running(s, _, speculative) if s == seq => Some((k, speculative)),
                _ => None,
            })
    }
}

impl<'o> Evaluator<'o> {
    /// [`Evaluator::first_interesting`] with several jobs (see the module doc).
    pub(super) fn run_parallel<T>(
        &mut self,
        next: &mut dyn FnMut() -> Option<(Vec<u8>, T)>,
    ) -> Result<Option<(Vec<u8>, T)>, Stop> {
        let (oracle, runs) = (self.oracle, self.runs.clone());
        std::thread::scope(|scope| {
            let mut pool = Pool::new(scope, oracle, &runs);
            let mut window = Window {
                pending: VecDeque::new(),
                bytes: 0,
                exhausted: false,
                ghosts: Vec::new(),
            };
            loop {
                if let Err(stop) = self.check_control() {
                    self.close(&mut window, &mut pool)?;
                    return Err(stop);
                }
                self.pull(&mut window, next);
                self.start_queued(&mut window, &mut pool);
                // Only while the pass waits on a test of its own: a pass whose verdicts are all
                // known (a resumed run) leaves no job idle for long.
                let waiting = window
                    .pending
                    .iter()
                    .any(|p| matches!(p.state, State::Running(..)));
                if window.exhausted && waiting && self.verdicts.caching() {
                    self.start_lookahead(&mut window, &mut pool);
                }
                // Commit decided candidates in proposal order.
                while let Some(front) = window.pending.front() {
                    let known = match front.state {
                        State::Known(known) => known,
                        State::Duplicate => match self.verdicts.committed(front.key) {
                            Some(verdict) => Known {
                                verdict,
                                cost: 0,
                                recalled: false,
                                speculative: false,
                            },
                            // The earlier copy was not committed (it was uncacheable): test it.
                            None => {
                                window.pending.front_mut().expect("a front").state = State::Queued;
                                break;
                            }
                        },
                        State::Queued if pool.running() == 0 => {
                            // Nothing runs and the first waiting candidate cannot start.
                            self.close(&mut window, &mut pool)?;
                            return Err(Stop::Budget);
                        }
                        _ => break,
                    };
                    if known.cost > 0 && !self.affordable(known.cost) {
                        self.close(&mut window, &mut pool)?;
                        return Err(Stop::Budget);
                    }
                    let p = window.pending.pop_front().expect("a front");
                    window.bytes -= p.bytes.len();
                    self.commit(p.key, known);
                    if known.verdict.is_interesting() {
                        // The best is about to change: what the next passes would try on it
                        // is stale.
                        self.lookahead.clear();
                        self.close(&mut window, &mut pool)?;
                        let bytes = Arc::try_unwrap(p.bytes).unwrap_or_else(|a| (*a).clone());
                        return Ok(Some((bytes, p.payload)));
                    }
                }
                if window.pending.is_empty() && window.exhausted && window.ghosts.is_empty() {
                    return Ok(None);
                }
                let Some(done) = pool.wait(Some(Duration::from_millis(50))) else {
                    continue;
                };
                self.stats.running = pool.running();
                if let Some(g) = window.ghosts.iter().position(|g| g.seq == done.seq) {
                    let ghost = window.ghosts.swap_remove(g);
                    if let Err(stop) = self.ghost_done(ghost, done) {
                        let _ = self.close(&mut window, &mut pool);
                        return Err(stop);
                    }
                    continue;
                }
                let Some((k, speculative)) = window.running(done.seq) else {
                    continue;
                };
                if let Err(e) = self.settle(&mut window, k, speculative, done) {
                    let stop = Self::error(e);
                    if stop == Stop::Interrupted {
                        self.close(&mut window, &mut pool)?;
                    } else {
                        let _ = self.close(&mut window, &mut pool);
                    }
                    return Err(stop);
                }
            }
        })
    }

    /// Pulls candidates into the window while it has room.
    fn pull<T>(&mut self, window: &mut Window<T>, next: &mut dyn FnMut() -> Option<(Vec<u8>, T)>) {
        while !window.exhausted
            && window.pending.len() < 4 * self.options.jobs
            && (window.pending.is_empty() || window.bytes < self.options.window_bytes)
        {
            let Some((bytes, payload)) = next() else {
                window.exhausted = true;
                break;
            };
            self.report_progress();
            let key = content_key(&bytes);
            // A copy of an earlier candidate of the window is free once that one is committed,
            // as it is with one job, even when the store knows it too.
            let state = if let Some(known) = self.verdicts.take_in_process(key) {
                State::Known(known)
            } else if self.verdicts.caching() && window.pending.iter().any(|p| p.key == key) {
                State::Duplicate
            } else if let Some(known) = self.verdicts.recall(key, self.confirm) {
                State::Known(known)
            } else {
                State::Queued
            };
            window.bytes += bytes.len();
            window.pending.push_back(Pending {
                key,
                bytes: Arc::new(bytes),
                payload,
                state,
            });
        }
    }

    /// Starts queued candidates in order, while jobs are free and the budget could still need
    /// them, and none before them is already a known success.
    fn start_queued<T>(&mut self, window: &mut Window<T>, pool: &mut Pool) {
        let confirm = self.confirm;
        let mut planned = self.stats.tests_run;
        let mut undecided_before = false;
        for p in window.pending.iter_mut() {
            if pool.running() >= self.options.jobs {
                break;
            }
            match &p.state {
                State::Known(known) if known.verdict.is_interesting() => break,
                State::Known(known) => planned += known.cost,
                State::Running(..) => planned += 1 + u64::from(confirm),
                State::Duplicate => {}
                State::Queued => {
                    planned += 1 + u64::from(confirm);
                    if self.budget.limit().is_some_and(|max| planned > max) {
                        break;
                    }
                    let cancel = Cancel::child_of(&self.options.control);
                    self.stats.speculative_started += u64::from(undecided_before);
                    let seq = pool.start(p.bytes.clone(), cancel.clone(), confirm, false);
                    self.stats.running = pool.running();
                    p.state = State::Running(seq, cancel, undecided_before);
                }
            }
            undecided_before |= !matches!(p.state, State::Known(_));
        }
    }

    /// Idle jobs behind the pass's last candidates take the next passes' first ones.
    fn start_lookahead<T>(&mut self, window: &mut Window<T>, pool: &mut Pool) {
        while pool.running() < self.options.jobs {
            let Some(bytes) = self.lookahead.pop_front() else {
                break;
            };
            let key = content_key(&bytes);
            if self.verdicts.knows(key)
                || window.pending.iter().any(|p| p.key == key)
                || window.ghosts.iter().any(|g| g.key == key)
            {
                continue;
            }
            let cancel = Cancel::child_of(&self.options.control);
            self.stats.speculative_started += 1;
            let size = bytes.len();
            let seq = pool.start(Arc::new(bytes), cancel.clone(), self.confirm, false);
            self.stats.running = pool.running();
            window.ghosts.push(Ghost {
                seq,
                key,
                size,
                cancel,
            });
        }
    }

    /// Keeps a lookahead verdict apart from the cache, to be charged when a pass asks for it.
    fn ghost_done(&mut self, ghost: Ghost, done: Done) -> Result<(), Stop> {
        match done.result {
            Ok(outcome) => {
                self.ran(ghost.key, ghost.size, &outcome);
                let known = Known::ran(outcome.verdict, done.runs, true);
                if !self.verdicts.keep_spare(ghost.key, known) {
                    self.stats.speculative_wasted += 1;
                }
                Ok(())
            }
            // A stop from outside cancels the pass's own tests too.
            Err(OracleError::Cancelled) => {
                self.stats.speculative_wasted += 1;
                Ok(())
            }
            Err(e) => {
                self.stats.speculative_wasted += 1;
                Err(Self::error(e))
            }
        }
    }

    /// Records how the run of pending candidate `k` ended: its verdict, or, when the test could
    /// not give one, its cost and its place back in the queue; the error is the caller's to judge.
    fn settle<T>(
        &mut self,
        window: &mut Window<T>,
        k: usize,
        speculative: bool,
        done: Done,
    ) -> Result<(), OracleError> {
        match done.result {
            Ok(outcome) => {
                let (key, size) = (window.pending[k].key, window.pending[k].bytes.len());
                self.ran(key, size, &outcome);
                let known = Known::ran(outcome.verdict, done.runs, speculative);
                window.pending[k].state = State::Known(known);
                Ok(())
            }
            Err(e) => {
                self.stats.speculative_wasted += u64::from(speculative);
                window.pending[k].state = State::Queued;
                Err(e)
            }
        }
    }

    /// Ends a call: cancels what still runs (or, draining a batch, lets it finish), waits for
    /// it, and keeps what completed apart from the cache.
    fn close<T>(&mut self, window: &mut Window<T>, pool: &mut Pool) -> Result<(), Stop> {
        for p in window.pending.iter() {
            if let State::Running(_, cancel, _) = &p.state
                && !self.drain
            {
                cancel.cancel();
            }
        }
        // Drained or not, what was looked ahead to is stale or unwanted here.
        window.ghosts.iter().for_each(|g| g.cancel.cancel());
        let mut error = None;
        while let Some(done) = pool.wait(None) {
            if let Some(g) = window.ghosts.iter().position(|g| g.seq == done.seq) {
                let ghost = window.ghosts.swap_remove(g);
                if let Err(stop) = self.ghost_done(ghost, done) {
                    error = Some(stop);
                }
                continue;
            }
            let Some((k, speculative)) = window.running(done.seq) else {
                continue;
            };
            if let Err(e @ OracleError::Setup(_)) = self.settle(window, k, speculative, done) {
                error = Some(Self::error(e));
            }
        }
        // Verdicts decided behind the winner were not needed here.
        for p in window.pending.drain(..) {
            if let State::Known(known) = p.state
                && known.cost > 0
                && !self.verdicts.keep_spare(p.key, known)
            {
                self.stats.speculative_wasted += u64::from(known.speculative);
            }
        }
        window.bytes = 0;
        window.ghosts.clear();
        self.stats.running = 0;
        error.map_or(Ok(()), Err)
    }
}
