//! The context a pass runs in: the one way a pass reaches the best, the tests, the sweeps'
//! memory and the run's ledger.
//!
//! Main type: [`Cx`], which holds three parts: the [`Driver`] (the best, acceptance, and the
//! [`View`]: the whole input or one file of a tree), the `Sweeps` (the failure memory,
//! renames, sweep mode and yield floor) and the `Ledger` (per-pass figures, counters, the
//! trace). Every acceptance goes through the driver and is noted in the ledger here, so a
//! pass cannot change the best without its row and the trace knowing.
//!
//! ```
//! use myhill::FnOracle;
//! use myhill::eval::EvalOptions;
//! use myhill::passes::{Cx, Pass, UnitPass};
//! use myhill::policy::{DDMin, Policy};
//! use myhill::text::Granularity;
//! use std::sync::Arc;
//! let oracle = FnOracle::new(|b: &[u8]| b.contains(&b'x'));
//! let mut cx = Cx::new(b"a\nx\nb\n".to_vec(), &oracle, EvalOptions::default());
//! let mut pass = UnitPass::new(Granularity::Lines, Arc::new(|| Box::new(DDMin) as Box<dyn Policy>));
//! pass.run(&mut cx).unwrap();
//! assert_eq!(cx.best(), b"x\n");
//! assert!(cx.report().eval.tests_run > 0);
//! ```
//!
//! Limits: a `Cx` is one run's; two reductions never share one.

use crate::archive::Archive;
use crate::certify::{Certificate, Minimality};
use crate::driver::{Driver, View, Witness};
use crate::eval::{EvalOptions, Evaluator, Meter};
use crate::idset::IdSet;
use crate::kind::{Decided, Kind};
use crate::ledger::Ledger;
use crate::oracle::{Oracle, Verdict};
use crate::policy::Policy;
use crate::report::{Counter, Report, Stop};
use crate::sweeps::{SweepMode, Sweeps};
use crate::tree::Nesting;
use crate::units::Units;
use std::sync::Arc;
use std::time::Duration;

/// The tests over which a pass's yield is judged for a hand-over: as many as a sweep may
/// fail in a row (the schedule's `SWEEP_PATIENCE`; a test there keeps the two equal).
pub(crate) const HAND_OVER_WINDOW: u64 = 50;

/// What a pass runs with: the driver, the sweeps' memory and the ledger.
pub struct Cx<'o> {
    pub(crate) driver: Driver<'o>,
    pub(crate) sweeps: Sweeps,
    pub(crate) ledger: Ledger,
}

/// The driver with the ledger that notes what it accepts: the part of a [`Cx`] a sweep tests
/// through while it holds the sweeps' memory.
pub(crate) struct Judge<'a, 'o> {
    pub(crate) driver: &'a mut Driver<'o>,
    pub(crate) ledger: &'a mut Ledger,
}

impl<'o> Judge<'_, 'o> {
    /// See [`Driver::try_candidates`]; an acceptance is noted in the ledger.
    pub(crate) fn try_candidates<T>(
        &mut self,
        next: &mut dyn FnMut() -> Option<(Vec<u8>, T)>,
    ) -> Result<Option<T>, Stop> {
        let before = self.driver.best_shared();
        let found = self.driver.try_candidates(next)?;
        if found.is_some() {
            self.reduced(&before);
        }
        Ok(found)
    }

    /// See [`Driver::accept`]; an acceptance is noted in the ledger.
    pub(crate) fn accept(&mut self, witness: Witness) -> bool {
        let before = self.driver.best_shared();
        let accepted = self.driver.accept(witness);
        if accepted {
            self.reduced(&before);
        }
        accepted
    }

    /// Notes an acceptance: the bytes removed are the files' bytes where the best is a
    /// tree's archive (its names and headers are no bytes of the user's), once per acceptance.
    fn reduced(&mut self, before: &[u8]) {
        let size = |bytes: &[u8]| {
            Archive::is_archive(bytes)
                .then(|| Archive::decode(bytes).ok())
                .flatten()
                .map_or(bytes.len(), |tree| tree.content_bytes())
        };
        let removed = size(before).saturating_sub(size(self.driver.best())) as u64;
        self.ledger.reduced(self.driver, removed);
    }

    /// See [`Driver::test_batch`].
    pub(crate) fn test_batch(
        &mut self,
        candidates: &[Vec<u8>],
    ) -> Result<Vec<Option<Witness>>, Stop> {
        self.driver.test_batch(candidates)
    }

    /// The best (see [`Driver::best`]).
    pub(crate) fn best(&self) -> &[u8] {
        self.driver.best()
    }

    /// The best, shared.
    pub(crate) fn best_shared(&self) -> Arc<Vec<u8>> {
        self.driver.best_shared()
    }

    /// The running pass's progress meter.
    pub(crate) fn meter(&self) -> Meter {
        self.driver.meter()
    }

    /// Tests run at once.
    pub(crate) fn jobs(&self) -> usize {
        self.driver.jobs()
    }

    /// Candidates a batching pass tests together.
    pub(crate) fn batch(&self) -> usize {
        self.driver.batch()
    }

    /// Adds `value` to `counter` in the ledger.
    pub(crate) fn count(&mut self, counter: Counter, value: u64) {
        self.ledger.count(counter, value);
    }
}

impl<'o> Cx<'o> {
    /// A context whose best is `input`, testing through a fresh evaluator, with an empty
    /// memory and ledger.
    pub fn new(input: Vec<u8>, oracle: &'o dyn Oracle, options: EvalOptions) -> Self {
        let ledger = Ledger::new(input.len());
        Cx {
            driver: Driver::new(input, oracle, options),
            sweeps: Sweeps::default(),
            ledger,
        }
    }

    /// The driver and the ledger, apart from the sweeps' memory.
    pub(crate) fn split(&mut self) -> (Judge<'_, 'o>, &mut Sweeps) {
        let judge = Judge {
            driver: &mut self.driver,
            ledger: &mut self.ledger,
        };
        (judge, &mut self.sweeps)
    }

    fn judge(&mut self) -> Judge<'_, 'o> {
        self.split().0
    }

    /// The smallest interesting input so far (one file's content while focused on it).
    pub fn best(&self) -> &[u8] {
        self.driver.best()
    }

    /// The best, shared rather than copied (for a cut of it, or to keep it).
    pub fn best_shared(&self) -> Arc<Vec<u8>> {
        self.driver.best_shared()
    }

    /// The nesting of the best, shared by every pass until the best changes.
    pub fn nesting(&self) -> Arc<Nesting> {
        self.driver.nesting()
    }

    /// The kind of the best, as the driver decided it once per best.
    pub fn kind(&self) -> Kind {
        self.driver.kind()
    }

    /// The best's kind and what decided it.
    pub fn decided_kind(&self) -> Decided {
        self.driver.decided_kind()
    }

    /// Sets the input's kind for the whole run.
    pub fn set_kind(&mut self, kind: Decided) {
        self.driver.set_kind(kind);
    }

    /// What the best is now: the whole input or one file of a tree.
    pub fn view(&self) -> &View {
        self.driver.view()
    }

    /// Tests run at once.
    pub fn jobs(&self) -> usize {
        self.driver.jobs()
    }

    /// Candidates a batching pass tests together (1: it does not batch).
    pub fn batch(&self) -> usize {
        self.driver.batch()
    }

    /// A verdict already committed for exactly these bytes, if the cache holds one.
    pub fn cached(&self, bytes: &[u8]) -> Option<Verdict> {
        self.driver.cached(bytes)
    }

    /// Certifies the current best cut into `units`.
    pub fn certify(&mut self, units: &Units, property: Minimality) -> Result<Certificate, Stop> {
        self.driver.certify(units, property)
    }

    /// Tests a batch of candidates whole; nothing is accepted.
    pub fn test_batch(&mut self, candidates: &[Vec<u8>]) -> Result<Vec<Option<Witness>>, Stop> {
        self.driver.test_batch(candidates)
    }

    /// Accepts what `witness` vouches for if it is shortlex-smaller than the best; whether it
    /// was.
    pub fn accept(&mut self, witness: Witness) -> bool {
        self.judge().accept(witness)
    }

    /// Tests candidates from `next` in order and accepts the first interesting one that is
    /// shortlex-smaller than the best; returns its payload.
    pub fn try_candidates<T>(
        &mut self,
        next: &mut dyn FnMut() -> Option<(Vec<u8>, T)>,
    ) -> Result<Option<T>, Stop> {
        self.judge().try_candidates(next)
    }

    /// The seed reduce loop over `units` (a cut of the current best) driven by `policy`.
    /// Returns the final configuration. With speculation, a policy that learned from
    /// candidates past the winner is restored and replayed, so it sees the sequential history.
    pub fn run_policy(
        &mut self,
        units: &Units,
        policy: &mut Box<dyn Policy>,
    ) -> Result<IdSet, Stop> {
        debug_assert_eq!(units.data(), self.best(), "units must cut the current best");
        self.run_policy_over(units.len(), &|kept| units.render(kept), policy)
    }

    /// [`Cx::run_policy`] over `n` items of the best that `render` turns into bytes, given
    /// the ids it keeps (for items that are not a cut into byte ranges, such as the files of
    /// a tree).
    pub(crate) fn run_policy_over(
        &mut self,
        n: usize,
        render: &dyn Fn(&IdSet) -> Vec<u8>,
        policy: &mut Box<dyn Policy>,
    ) -> Result<IdSet, Stop> {
        let mut config = IdSet::range(0, n as u32);
        let meter = self.driver.meter();
        let total = n as u64;
        loop {
            let snapshot = (self.jobs() > 1).then(|| policy.clone_box());
            let mut pulled = 0usize;
            let winner = {
                let mut proposals = policy.propose(&config);
                let config_ref = &config;
                let mut next = || {
                    let delta = proposals.next()?;
                    assert!(!delta.is_empty(), "a policy proposed an empty delta");
                    meter.set(u64::from(delta.first().unwrap_or(0)), total);
                    pulled += 1;
                    let candidate = config_ref.difference(&delta);
                    Some((render(&candidate), (pulled, candidate)))
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

    /// Says how far the running pass has got, `done` of `total` steps, as an
    /// [`crate::Event::Progress`] (if it moved). [`Cx::run_policy`] and the sweeps report
    /// their own; a pass of its own calls this between candidates.
    pub fn progress(&mut self, done: u64, total: u64) {
        let eval = self.driver.evaluator();
        eval.meter().set(done, total);
        eval.report_progress();
    }

    /// Adds `value` to `counter` (or raises it to `value`, as the counter folds).
    pub fn count(&mut self, counter: Counter, value: u64) {
        self.ledger.count(counter, value);
    }

    /// The value of `counter` so far (0 if it was never counted or holds a time).
    pub fn counted(&self, counter: Counter) -> u64 {
        self.ledger.counted(counter)
    }

    /// Adds `time` to `counter` (or raises it to `time`, as the counter folds).
    pub fn time(&mut self, counter: Counter, time: Duration) {
        self.ledger.time(counter, time);
    }

    /// Starts attributing tests and reductions to the pass `name`, and watches its yield: with
    /// a [`Cx::set_hand_over_floor`], once its last 50 tests (`HAND_OVER_WINDOW`) removed less
    /// than the floor a test, its next test ends it with [`Stop::HandOver`]. A pass that runs
    /// passes of its own (on each file of a tree) gives its watch over to theirs.
    pub fn begin_pass(&mut self, name: &str) {
        self.ledger.begin_pass(&mut self.driver, name);
        let (floor, len) = (self.sweeps.hand_over_floor, self.driver.best().len());
        self.driver
            .evaluator()
            .watch_yield(floor, HAND_OVER_WINDOW, len);
    }

    /// Stops attributing to the current pass and watching it; `skipped` says the user
    /// skipped it.
    pub fn end_pass(&mut self, skipped: bool) {
        self.driver.evaluator().unwatch_yield();
        self.ledger.end_pass(&mut self.driver, skipped);
    }

    /// How sweeps run now.
    pub fn sweep_mode(&self) -> SweepMode {
        self.sweeps.mode
    }

    /// Sets how sweeps run from now on.
    pub fn set_sweep_mode(&mut self, mode: SweepMode) {
        self.sweeps.mode = mode;
    }

    /// What the other passes are expected to remove per test now, if the running pass is to
    /// hand its tests over to them when it pays less (see [`Cx::begin_pass`]): a remembering
    /// split goes on from where it stopped in a later round, other passes start again.
    /// Set by the round engine for each pass of a patient round; `None` otherwise.
    pub fn yield_floor(&self) -> Option<f64> {
        self.sweeps.yield_floor
    }

    /// Sets the yield below which the next pass run hands its tests over (see
    /// [`Cx::begin_pass`]); the round engine sets the most a pass waiting in the round is
    /// expected to pay, in patient rounds.
    pub fn set_hand_over_floor(&mut self, floor: Option<f64>) {
        self.sweeps.hand_over_floor = floor;
    }

    /// Sets [`Cx::yield_floor`] for the next pass run.
    pub fn set_yield_floor(&mut self, floor: Option<f64>) {
        self.sweeps.yield_floor = floor;
    }

    /// Notes that the best just accepted renamed every occurrence of the identifier `from` to
    /// `to`, a name it did not use: what failed before is still known to fail with the new
    /// name around it.
    pub(crate) fn note_rename(&mut self, from: &[u8], to: &[u8]) {
        self.sweeps.renames.renamed(from, to);
    }

    /// Narrows the best to one file of a tree (see [`Driver::focus`]).
    pub(crate) fn focus(&mut self, path: &str, splice: crate::archive::Splice) {
        self.driver.focus(path, splice);
    }

    /// Widens the best back to the whole tree.
    pub(crate) fn unfocus(&mut self) {
        self.driver.unfocus();
    }

    /// The best as the whole input (the tree around it while focused on one file).
    pub(crate) fn whole(&self) -> Arc<Vec<u8>> {
        self.driver.whole()
    }

    /// Puts back an earlier result, a whole input, as the best (a rollback after a failed
    /// re-run; while focused on a file, the focus moves to it in the tree put back, see
    /// [`Driver::roll_back_to`]); what the sweeps remember goes, judged by a test that
    /// proved flaky.
    pub(crate) fn roll_back_to(&mut self, bytes: Arc<Vec<u8>>) {
        self.driver.roll_back_to(bytes);
        self.sweeps.forget();
        self.ledger.rolled_back(&mut self.driver);
    }

    /// The evaluation path, for the [`crate::Reduction`] (its first check, re-runs, store and
    /// events). Passes never see it.
    pub(crate) fn evaluator(&mut self) -> &mut Evaluator<'o> {
        self.driver.evaluator()
    }

    /// Everything measured so far.
    pub fn report(&self) -> Report {
        self.ledger.report(&self.driver)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::oracle::FnOracle;
    use crate::policy::DDMin;
    use crate::report::Event;
    use crate::units::Granularity;
    use std::cell::RefCell;
    use std::rc::Rc;

    #[test]
    fn run_policy_reports_where_its_candidates_start() {
        let oracle = FnOracle::new(|b: &[u8]| b.contains(&b'c'));
        let mut cx = Cx::new(b"abcdefgh".to_vec(), &oracle, EvalOptions::default());
        let seen = Rc::new(RefCell::new(Vec::new()));
        let sink = seen.clone();
        cx.evaluator().set_sink(move |e| {
            if let Event::Progress { done, total } = e {
                sink.borrow_mut().push((*done, *total));
            }
        });
        let units = Units::cut(cx.best(), Granularity::Bytes);
        let mut ddmin: Box<dyn Policy> = Box::new(DDMin);
        cx.run_policy(&units, &mut ddmin).unwrap();
        let seen = seen.borrow();
        assert!(!seen.is_empty());
        assert!(seen.iter().all(|&(done, total)| total == 8 && done < 8));
        // Consecutive reports differ: an unchanged position is not sent again.
        assert!(seen.windows(2).all(|w| w[0] != w[1]));
    }

    fn tree(files: &[(&str, &[u8])]) -> Vec<u8> {
        let entries = files
            .iter()
            .map(|(path, content)| crate::archive::Entry::file(path, 0o644, content))
            .collect();
        Archive::new(entries).unwrap().encode()
    }

    /// A rollback while focused on a file moves the focus to that file in the tree put back;
    /// a tree without the file ends the focus.
    #[test]
    fn a_rollback_while_focused_refocuses_on_the_file() {
        let oracle = FnOracle::new(|_: &[u8]| true);
        let now = tree(&[("a", b"x"), ("b", b"short")]);
        let mut cx = Cx::new(now.clone(), &oracle, EvalOptions::bare());
        let splice = Archive::decode(&now).unwrap().splice(1).unwrap();
        cx.focus("b", splice);
        assert_eq!(cx.best(), b"short");
        let earlier = tree(&[("a", b"x y z"), ("b", b"a longer b")]);
        cx.roll_back_to(Arc::new(earlier.clone()));
        assert_eq!(cx.best(), b"a longer b");
        assert_eq!(cx.view().path(), Some("b"));
        assert_eq!(*cx.whole(), earlier);
        let without = tree(&[("a", b"x y z")]);
        cx.roll_back_to(Arc::new(without.clone()));
        assert!(matches!(cx.view(), View::Whole));
        assert_eq!(cx.best(), without.as_slice());
    }
}
