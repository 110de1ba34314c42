//! The driver: the current best input, and the only place a candidate is accepted.
//!
//! Main type: [`Driver`]. Passes read [`Driver::best`] and hand candidates to
//! [`Driver::try_candidates`] (whole byte strings) or [`Driver::run_policy`] (the seed reduce
//! loop: a policy proposes deltas over a cut of the best, `config - delta` is rendered and
//! tested). Both go through the [`crate::Evaluator`]; the first interesting candidate in
//! proposal order that is shortlex-smaller than the best is accepted. A pass that tests a
//! batch whole gets a [`Witness`] per interesting candidate from [`Driver::test_batch`] and
//! hands the one it chose to [`Driver::accept`]; it can read [`Driver::cached`] verdicts, ask
//! for a [`Driver::certify`] and count typed [`crate::Counter`]s, but never reaches the
//! evaluator or the oracle. Passes that read the best's nesting share one [`Driver::nesting`],
//! built once per best. A [`crate::Reduction`] owns a driver for the whole lifecycle of a
//! run; used alone, a driver is the seeds' bare loop.
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
//! current best, so the best never grows and every schedule terminates. The only other change
//! of the best is a rollback by the reduction to a result that passed before.

use crate::archive::Splice;
use crate::certify::{Certificate, Minimality, certify_in};
use crate::eval::{EvalOptions, Evaluator, Meter};
use crate::idset::IdSet;
use crate::kind::{Decided, Kind};
use crate::oracle::{Oracle, Verdict};
use crate::policy::Policy;
use crate::report::{Counter, Event, Figure, Fold, PassStats, Report, Stop};
use crate::tree::Nesting;
use crate::units::Units;
use std::cell::{Cell, OnceCell};
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Holds the best input and accepts candidates.
pub struct Driver<'o> {
    eval: Evaluator<'o>,
    /// Shared with the reduction's last confirmed result and with unit cuts, not copied.
    /// Changed only through [`Driver::set_best`].
    best: Arc<Vec<u8>>,
    /// The best's nesting, once a pass asked for it; emptied whenever the best changes.
    nesting: OnceCell<Arc<Nesting>>,
    /// How many times a nesting was built.
    nesting_builds: Cell<u64>,
    initial_len: usize,
    passes: Vec<PassStats>,
    /// The pass being run, with when it started and the test counters at its start.
    current: Option<(usize, Instant, u64, u64)>,
    started: Instant,
    counters: BTreeMap<Counter, Figure>,
    trace: Vec<(u64, usize)>,
    /// While one file of a tree is reduced: the tree around it. The best is then that file's
    /// content, and every candidate is lifted into the whole tree before it is tested.
    focus: Option<Splice>,
    /// When each entry of `trace` happened, since the start.
    trace_times: Vec<Duration>,
    sweep_mode: SweepMode,
    /// The keys of the sweep candidates that failed, whichever pass proposed them (see
    /// [`SweepMode::remember`]): a key names the edit and its context, not the pass.
    failures: HashSet<u64>,
    /// The passes that ran a sweep since the last rollback.
    sweeping_passes: HashSet<String>,
    /// Whether a sweep stopped for lack of patience since this was last taken.
    cut_short: bool,
    /// Failures whose context a later find of the same sweep changed, since this was last taken.
    stale_failures: u64,
    /// The renamings since the failures were first remembered: the memory reads every input
    /// with the old names (see [`Renames`]).
    renames: Renames,
    /// Bytes per test below which a splitting pass hands its tests over (see
    /// [`Driver::yield_floor`]).
    yield_floor: Option<f64>,
    /// The kind of the input, decided once from the original (see [`crate::Kind`]); while
    /// focused on one file of a tree, that file's.
    kind: Decided,
    /// The kind of each file of a tree, decided when it was first focused on, by path.
    file_kinds: BTreeMap<String, Decided>,
    /// While focused on a file: the tree's kind, put back when the focus ends.
    outer_kind: Option<Decided>,
}

/// How the sweeps of patches (the passes that try every candidate of a list) spend their tests
/// in a round; the reduction sets it for each round, and the default is a plain sweep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepMode {
    /// Skip a candidate that already failed in the same context: the same edit with the same
    /// bytes around it (it may have failed on another input, whose other parts differ).
    pub remember: bool,
    /// End a sweep after this many tests in a row that found nothing.
    pub patience: Option<usize>,
}

/// The names the renaming pass gave identifiers since the sweeps began to remember failures:
/// each current name and the name the memory knows it by. A consistent renaming changes no
/// candidate's meaning, so the failure memory reads every input with the old names back
/// ([`Renames::form`]): a deletion that failed before a renaming is still known to fail after
/// it, where the bytes around it changed only by the new names.
#[derive(Clone, Debug, Default)]
pub(crate) struct Renames {
    known_as: std::collections::HashMap<Vec<u8>, Vec<u8>>,
}

impl Renames {
    /// Notes that every occurrence of the identifier `from` became `to`, a name the input did
    /// not use.
    pub(crate) fn renamed(&mut self, from: &[u8], to: &[u8]) {
        let known = self.known_as.remove(from).unwrap_or_else(|| from.to_vec());
        self.known_as.insert(to.to_vec(), known);
    }

    /// Whether nothing was renamed.
    pub(crate) fn is_empty(&self) -> bool {
        self.known_as.is_empty()
    }

    /// `bytes` with every renamed identifier given back the name the memory knows it by (the
    /// bytes themselves while nothing was renamed).
    pub(crate) fn form<'a>(&self, bytes: &'a [u8]) -> std::borrow::Cow<'a, [u8]> {
        if self.is_empty() {
            return std::borrow::Cow::Borrowed(bytes);
        }
        let mut out = Vec::with_capacity(bytes.len());
        self.each_lexeme(bytes, |_, known| out.extend_from_slice(known));
        std::borrow::Cow::Owned(out)
    }

    /// [`Renames::form`], with the offset in it of every offset of `bytes` (an offset inside
    /// a renamed identifier maps to the start of its old name), one past the end included.
    pub(crate) fn form_with_offsets(&self, bytes: &[u8]) -> (Vec<u8>, Vec<usize>) {
        let mut out = Vec::with_capacity(bytes.len());
        let mut at = Vec::with_capacity(bytes.len() + 1);
        self.each_lexeme(bytes, |lexeme, known| {
            if lexeme == known {
                at.extend(out.len()..out.len() + lexeme.len());
            } else {
                at.extend(std::iter::repeat_n(out.len(), lexeme.len()));
            }
            out.extend_from_slice(known);
        });
        at.push(out.len());
        (out, at)
    }

    /// Calls `f` with each lexeme of `bytes` and the bytes the memory knows it by: its old
    /// name for a renamed identifier, else the lexeme itself.
    fn each_lexeme<'a>(&'a self, bytes: &'a [u8], mut f: impl FnMut(&'a [u8], &'a [u8])) {
        for l in crate::lex::lexemes(bytes) {
            let lexeme = &bytes[l.start..l.end];
            match self.known_as.get(lexeme) {
                Some(old) if l.class == crate::lex::Class::Word => f(lexeme, old),
                _ => f(lexeme, lexeme),
            }
        }
    }
}

/// Bytes the driver tested and found interesting (in a batch): only the driver makes one, so a
/// pass can accept a candidate only through [`Driver::accept`], never bytes it judged itself.
#[derive(Debug)]
pub struct Witness {
    bytes: Vec<u8>,
}

impl Witness {
    /// The bytes found interesting.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// Whether `a` comes before `b` in shortlex order: shorter first, then bytewise.
pub fn shortlex_less(a: &[u8], b: &[u8]) -> bool {
    (a.len(), a) < (b.len(), b)
}

impl<'o> Driver<'o> {
    /// A driver whose best is `input`, testing through a fresh evaluator.
    pub fn new(input: Vec<u8>, oracle: &'o dyn Oracle, options: EvalOptions) -> Self {
        let kind = Decided::of(None, &input);
        Driver {
            eval: Evaluator::new(oracle, options),
            initial_len: input.len(),
            trace: vec![(0, input.len())],
            trace_times: vec![Duration::ZERO],
            best: Arc::new(input),
            nesting: OnceCell::new(),
            nesting_builds: Cell::new(0),
            passes: Vec::new(),
            current: None,
            started: Instant::now(),
            counters: BTreeMap::new(),
            focus: None,
            sweep_mode: SweepMode::default(),
            failures: HashSet::new(),
            sweeping_passes: HashSet::new(),
            cut_short: false,
            stale_failures: 0,
            renames: Renames::default(),
            yield_floor: None,
            kind,
            outer_kind: None,
            file_kinds: BTreeMap::new(),
        }
    }

    /// The kind of the best: the input's, decided once (by default from the original's
    /// content; a reduction sets the one its input's name gives), or the focused file's.
    pub fn kind(&self) -> Kind {
        self.kind.kind
    }

    /// The input's kind and what decided it (see [`Driver::kind`]).
    pub fn decided_kind(&self) -> Decided {
        self.kind
    }

    /// Sets the input's kind for the whole run (the file name's, or the user's choice).
    pub fn set_kind(&mut self, kind: Decided) {
        self.kind = kind;
    }

    /// How sweeps run now.
    pub fn sweep_mode(&self) -> SweepMode {
        self.sweep_mode
    }

    /// Sets how sweeps run from now on.
    pub fn set_sweep_mode(&mut self, mode: SweepMode) {
        self.sweep_mode = mode;
    }

    /// The keys of the sweep candidates that failed, of every pass, taken out; give them back
    /// with [`Driver::keep_failures`].
    pub(crate) fn take_failures(&mut self) -> HashSet<u64> {
        std::mem::take(&mut self.failures)
    }

    /// The renamings the failure memory reads inputs through.
    pub(crate) fn renames(&self) -> &Renames {
        &self.renames
    }

    /// Notes that the best just accepted renamed every occurrence of the identifier `from` to
    /// `to`, a name it did not use: what failed before is still known to fail with the new
    /// name around it.
    pub(crate) fn note_rename(&mut self, from: &[u8], to: &[u8]) {
        self.renames.renamed(from, to);
    }

    /// Notes that a sweep stopped for lack of patience.
    pub(crate) fn note_cut_short(&mut self) {
        self.cut_short = true;
    }

    /// Notes `n` failures of a sweep whose context a later find of the same sweep changed: a
    /// rerun would test them again.
    pub(crate) fn note_stale_failures(&mut self, n: u64) {
        self.stale_failures += n;
    }

    /// The failures noted by [`Driver::note_stale_failures`] since the last call.
    pub(crate) fn take_stale_failures(&mut self) -> u64 {
        std::mem::take(&mut self.stale_failures)
    }

    /// What the other passes are expected to remove per test now, if the running pass is to
    /// hand its tests over to them when it pays less: binary splitting over words stops when
    /// its recent yield falls below it, and goes on from where it stopped in a later round.
    /// Set by the reduction for each pass of a patient round; `None` otherwise.
    pub fn yield_floor(&self) -> Option<f64> {
        self.yield_floor
    }

    /// Sets [`Driver::yield_floor`] for the next pass run.
    pub fn set_yield_floor(&mut self, floor: Option<f64>) {
        self.yield_floor = floor;
    }

    /// Whether a sweep stopped for lack of patience since the last call.
    pub(crate) fn take_cut_short(&mut self) -> bool {
        std::mem::take(&mut self.cut_short)
    }

    /// Whether the pass called `name` ran a sweep since the last rollback: its failures are
    /// remembered, so a run of it in a remembering round costs only what changed around.
    pub(crate) fn remembers(&self, name: &str) -> bool {
        self.sweeping_passes.contains(name)
    }

    /// Gives back the failures (see [`Driver::take_failures`]), with the running pass's.
    pub(crate) fn keep_failures(&mut self, failures: HashSet<u64>) {
        self.failures = failures;
        let name = self.current_name();
        self.sweeping_passes.insert(name);
    }

    /// The smallest interesting input so far.
    pub fn best(&self) -> &[u8] {
        &self.best
    }

    /// The best, shared rather than copied (for a cut of it, or to keep it).
    pub fn best_shared(&self) -> Arc<Vec<u8>> {
        self.best.clone()
    }

    /// The nesting of the best: built on the first call after the best changed, then the same
    /// one for every pass that asks until the best changes again.
    pub fn nesting(&self) -> Arc<Nesting> {
        self.nesting
            .get_or_init(|| {
                self.nesting_builds.set(self.nesting_builds.get() + 1);
                Arc::new(Nesting::of(self.best.clone()))
            })
            .clone()
    }

    /// The one way the best changes: its nesting goes with it.
    fn set_best(&mut self, best: Arc<Vec<u8>>) {
        self.best = best;
        self.nesting = OnceCell::new();
    }

    /// The evaluation path, for the [`crate::Reduction`] that owns this driver (its first
    /// check, re-runs, store and events). Passes never see it: they get the methods below.
    pub(crate) fn evaluator(&mut self) -> &mut Evaluator<'o> {
        &mut self.eval
    }

    /// Tests run at once.
    pub fn jobs(&self) -> usize {
        self.eval.jobs()
    }

    /// Candidates a batching pass tests together (1: it does not batch).
    pub fn batch(&self) -> usize {
        self.eval.options().batch.max(1)
    }

    /// A verdict already committed for exactly these bytes, if the cache holds one (free: no
    /// test, no count).
    pub fn cached(&self, bytes: &[u8]) -> Option<Verdict> {
        match &self.focus {
            Some(splice) => self.eval.cached(&splice.lift(bytes)),
            None => self.eval.cached(bytes),
        }
    }

    /// Certifies the current best cut into `units` (see [`crate::certify()`]); nothing is accepted,
    /// a deletion found is handed back for [`Driver::try_candidates`].
    pub fn certify(&mut self, units: &Units, property: Minimality) -> Result<Certificate, Stop> {
        match &self.focus {
            Some(splice) => {
                let lift = |content: &[u8]| splice.lift(content);
                let found = certify_in(&mut self.eval, units, property, Some(&lift))?;
                // A deletion found is handed back as the file's content, like the best.
                Ok(found.map_smaller(|smaller| splice.unlift(&smaller).to_vec()))
            }
            None => certify_in(&mut self.eval, units, property, None),
        }
    }

    /// The running pass's progress meter, for proposals to set while they are pulled.
    pub(crate) fn meter(&self) -> Meter {
        self.eval.meter()
    }

    /// Tests a batch of candidates, all of them (see [`Evaluator::test_all`]), and returns a
    /// [`Witness`] for each interesting one; nothing is accepted. A pass then hands the one it
    /// chose to [`Driver::accept`].
    pub fn test_batch(&mut self, candidates: &[Vec<u8>]) -> Result<Vec<Option<Witness>>, Stop> {
        let verdicts = match &self.focus {
            Some(splice) => {
                let lifted: Vec<Vec<u8>> = candidates.iter().map(|c| splice.lift(c)).collect();
                self.eval.test_all(&lifted)?
            }
            None => self.eval.test_all(candidates)?,
        };
        Ok(candidates
            .iter()
            .zip(verdicts)
            .map(|(c, v)| v.is_interesting().then(|| Witness { bytes: c.clone() }))
            .collect())
    }

    /// Accepts what `witness` vouches for if it is shortlex-smaller than the best; whether it
    /// was.
    pub fn accept(&mut self, witness: Witness) -> bool {
        if !shortlex_less(&witness.bytes, &self.best) {
            return false;
        }
        self.take(witness.bytes);
        true
    }

    /// Adds `value` to `counter` (or raises it to `value`, as the counter folds).
    pub fn count(&mut self, counter: Counter, value: u64) {
        let entry = self.counters.entry(counter).or_insert(Figure::Count(0));
        if let Figure::Count(n) = entry {
            *n = match counter.fold() {
                Fold::Max | Fold::MaxSeconds => (*n).max(value),
                Fold::Sum | Fold::SumSeconds => *n + value,
            };
        }
    }

    /// The value of `counter` so far (0 if it was never counted or holds a time).
    pub fn counted(&self, counter: Counter) -> u64 {
        match self.counters.get(&counter) {
            Some(Figure::Count(n)) => *n,
            _ => 0,
        }
    }

    /// Adds `time` to `counter` (or raises it to `time`, as the counter folds).
    pub fn time(&mut self, counter: Counter, time: Duration) {
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
        self.passes[i].runs += 1;
        let stats = self.eval.stats();
        self.current = Some((i, Instant::now(), stats.tests_run, stats.cache_hits));
        self.eval.reset_progress();
        self.eval.emit(&Event::PassStarted { pass: name });
    }

    /// Says how far the running pass has got, `done` of `total` steps, as an
    /// [`Event::Progress`] (if it moved). [`Driver::run_policy`] and the sweeps of patches
    /// report their own; a pass of its own calls this between candidates.
    pub fn progress(&mut self, done: u64, total: u64) {
        self.eval.meter().set(done, total);
        self.eval.report_progress();
    }

    /// Stops attributing to the current pass; `skipped` says the user skipped it.
    pub fn end_pass(&mut self, skipped: bool) {
        let Some((i, since, tests, hits)) = self.current.take() else {
            return;
        };
        let stats = self.eval.stats();
        let p = &mut self.passes[i];
        p.tests += stats.tests_run - tests;
        p.cache_hits += stats.cache_hits - hits;
        p.time += since.elapsed();
        p.skipped += u64::from(skipped);
        let done = p.clone();
        self.eval.emit(&Event::PassDone { stats: &done });
    }

    fn current_name(&self) -> String {
        self.current
            .map(|(i, ..)| self.passes[i].name.clone())
            .unwrap_or_else(|| "reduce".to_string())
    }

    /// The one change of the best by a pass: `bytes`, tested interesting and shortlex-smaller.
    fn take(&mut self, bytes: Vec<u8>) {
        debug_assert!(shortlex_less(&bytes, &self.best));
        let removed = self.best.len().saturating_sub(bytes.len()) as u64;
        self.set_best(Arc::new(bytes));
        let name = self.current_name();
        if let Some((i, ..)) = self.current {
            self.passes[i].successes += 1;
            self.passes[i].bytes_removed += removed;
        }
        let tests = self.eval.stats().tests_run;
        let whole = match &self.focus {
            Some(splice) => Arc::new(splice.lift(&self.best)),
            None => self.best.clone(),
        };
        self.trace.push((tests, whole.len()));
        self.trace_times.push(self.started.elapsed());
        self.eval.emit(&Event::Reduced {
            pass: &name,
            bytes: &whole,
            tests,
        });
    }

    /// Narrows the best to one file of a tree: until [`Driver::unfocus`], the best is that
    /// file's content (`splice` taken from the current best) and passes work on it alone,
    /// while every candidate is tested as the whole tree with it in that file's place.
    /// The file's kind is decided the first time it is focused on, from its path and content,
    /// and kept for the rest of the run.
    pub(crate) fn focus(&mut self, path: &str, splice: Splice) {
        assert!(
            self.focus.is_none(),
            "a driver focuses on one file at a time"
        );
        let content = splice.content(&self.best).to_vec();
        let file_kind = *self
            .file_kinds
            .entry(path.to_string())
            .or_insert_with(|| Decided::of(Some(path), &content));
        self.outer_kind = Some(std::mem::replace(&mut self.kind, file_kind));
        self.set_best(Arc::new(content));
        self.focus = Some(splice);
    }

    /// Widens the best back to the whole tree after [`Driver::focus`].
    pub(crate) fn unfocus(&mut self) {
        if let Some(kind) = self.outer_kind.take() {
            self.kind = kind;
        }
        if let Some(splice) = self.focus.take() {
            let whole = splice.lift(&self.best);
            self.set_best(Arc::new(whole));
        }
    }

    /// Puts back an earlier result as the best (a rollback after a failed re-run).
    pub(crate) fn roll_back_to(&mut self, bytes: Arc<Vec<u8>>) {
        self.set_best(bytes);
        self.trace
            .push((self.eval.stats().tests_run, self.best.len()));
        self.trace_times.push(self.started.elapsed());
        // What failed was judged by a test that proved flaky.
        self.failures.clear();
        self.sweeping_passes.clear();
        self.renames = Renames::default();
        let best = self.best.clone();
        self.eval.emit(&Event::RolledBack { bytes: &best });
    }

    /// Tests candidates from `next` in order and accepts the first interesting one that is
    /// shortlex-smaller than the best; returns its payload. Candidates that are not smaller
    /// count as failures without a test.
    pub fn try_candidates<T>(
        &mut self,
        next: &mut dyn FnMut() -> Option<(Vec<u8>, T)>,
    ) -> Result<Option<T>, Stop> {
        let best = self.best.clone();
        let focus = self.focus.clone();
        let mut filtered = || {
            loop {
                let (bytes, payload) = next()?;
                if shortlex_less(&bytes, &best) {
                    return Some(match &focus {
                        Some(splice) => (splice.lift(&bytes), payload),
                        None => (bytes, payload),
                    });
                }
            }
        };
        match self.eval.first_interesting(&mut filtered)? {
            Some((bytes, payload)) => {
                let bytes = match &self.focus {
                    Some(splice) => splice.unlift(&bytes).to_vec(),
                    None => bytes,
                };
                self.take(bytes);
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
        self.run_policy_over(units.len(), &|kept| units.render(kept), policy)
    }

    /// [`Driver::run_policy`] over `n` items of the best that `render` turns into bytes,
    /// given the ids it keeps (for items that are not a cut into byte ranges, such as the
    /// files of a tree).
    pub(crate) fn run_policy_over(
        &mut self,
        n: usize,
        render: &dyn Fn(&IdSet) -> Vec<u8>,
        policy: &mut Box<dyn Policy>,
    ) -> Result<IdSet, Stop> {
        let mut config = IdSet::range(0, n as u32);
        let meter = self.eval.meter();
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

    /// Everything measured so far.
    pub fn report(&self) -> Report {
        let mut counters = self.counters.clone();
        if self.nesting_builds.get() > 0 {
            counters.insert(
                Counter::NestingBuilds,
                Figure::Count(self.nesting_builds.get()),
            );
        }
        Report {
            initial_bytes: self.initial_len,
            final_bytes: self.best.len(),
            eval: self.eval.final_stats(),
            passes: self.passes.clone(),
            wall: self.started.elapsed(),
            jobs: self.eval.jobs(),
            trace: self.trace.clone(),
            trace_times: self.trace_times.clone(),
            counters,
            kind: self.outer_kind.unwrap_or(self.kind),
            file_kinds: self.file_kinds.clone(),
            ..Report::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::oracle::FnOracle;
    use crate::policy::DDMin;
    use crate::units::Granularity;
    use std::cell::RefCell;
    use std::rc::Rc;

    #[test]
    fn the_memory_reads_renamed_names_as_they_were_first_known() {
        let mut renames = Renames::default();
        assert_eq!(renames.form(b"count x"), &b"count x"[..]);
        renames.renamed(b"count", b"a");
        // A second renaming of the same identifier, then the freed name given to another.
        renames.renamed(b"a", b"b");
        renames.renamed(b"total", b"a");
        assert_eq!(renames.form(b"b=a+ab;\"b\""), &b"count=total+ab;\"b\""[..]);
        let (form, at) = renames.form_with_offsets(b"b a");
        assert_eq!(form, b"count total");
        assert_eq!(at, [0, 5, 6, 11]);
    }

    #[test]
    fn run_policy_reports_where_its_candidates_start() {
        let oracle = FnOracle::new(|b: &[u8]| b.contains(&b'c'));
        let mut driver = Driver::new(b"abcdefgh".to_vec(), &oracle, EvalOptions::default());
        let seen = Rc::new(RefCell::new(Vec::new()));
        let sink = seen.clone();
        driver.evaluator().set_sink(move |e| {
            if let Event::Progress { done, total } = e {
                sink.borrow_mut().push((*done, *total));
            }
        });
        let units = Units::cut(driver.best(), Granularity::Bytes);
        let mut ddmin: Box<dyn Policy> = Box::new(DDMin);
        driver.run_policy(&units, &mut ddmin).unwrap();
        let seen = seen.borrow();
        assert!(!seen.is_empty());
        assert!(seen.iter().all(|&(done, total)| total == 8 && done < 8));
        // Consecutive reports differ: an unchanged position is not sent again.
        assert!(seen.windows(2).all(|w| w[0] != w[1]));
    }
}
