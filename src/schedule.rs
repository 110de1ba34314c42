//! What a reduction runs: passes, and schedules of them.
//!
//! Main types: the [`Pass`] trait and [`Schedule`]. A pass reads the driver's best and tries to
//! shrink it by handing candidates to the [`Cx`]; it never runs a process and never changes
//! the best itself. A schedule is a list of passes, run in order and optionally repeated until a
//! whole round removes nothing; [`crate::Reduction::run`] runs it, re-running the best between
//! passes.
//!
//! ```
//! use myhill::{Stop, passes::{Cx, Pass, Schedule}};
//! /// Proposes dropping the last byte, once.
//! struct DropLast;
//! impl Pass for DropLast {
//!     fn name(&self) -> String { "drop-last".into() }
//!     fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
//!         let best = cx.best();
//!         let mut candidate = Some((best[..best.len().saturating_sub(1)].to_vec(), ()));
//!         cx.try_candidates(&mut || candidate.take()).map(drop)
//!     }
//! }
//! let schedule = Schedule { passes: vec![Box::new(DropLast)], to_fixpoint: true };
//! assert_eq!(schedule.passes[0].name(), "drop-last");
//! ```
//!
//! [`Planner`] decides what each round of a schedule run to a fixpoint does: which passes, in
//! what order (by the bytes each removed per test so far; remembering and complete rounds the
//! cheapest pass first), and how its sweeps spend their tests
//! ([`SweepMode`]): rounds of cheap, patient sweeps that skip what already failed around
//! unchanged bytes; before each complete round, a remembering round of the passes that hold
//! remembered failures (whatever their expected yield) and, if it changed nothing and left a
//! pass out, one of every pass, so that a find near an earlier change comes before the
//! complete round and not in it; and a complete round at the end that keeps the fixpoint's
//! guarantee (notes/schedule.md, the tail of a reduction).
//!
//! Limits: what a pass is expected to find again is a proportion of what changed since its last
//! run (see [`Planner::expected_rate`]), not a model of where it finds things.

use crate::cx::Cx;
use crate::kind::Kind;
use crate::report::Stop;
use crate::sweeps::SweepMode;

/// One step of a schedule: reads the driver's best and tries to shrink it.
pub trait Pass {
    /// A short name for reports, such as `split/lines`.
    fn name(&self) -> String;
    /// Proposes candidates through `cx` until it has nothing more to try.
    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop>;
    /// As [`Pass::run`], with the checkpoints of the run it is a step of (the reduction's
    /// re-runs of the best and rollback). A pass that runs a schedule of its own inside (one
    /// file of a tree at a time) hands them to that schedule, so its passes are re-run and
    /// rolled back as the outer ones are. By default [`Pass::run`]: the owner re-runs the
    /// best after the whole pass.
    fn run_checked<'o>(
        &mut self,
        cx: &mut Cx<'o>,
        checks: &mut Checks<'_, 'o>,
    ) -> Result<(), Stop> {
        let _ = checks;
        self.run(cx)
    }
    /// The first candidates `run` would test on `best`, of kind `kind`, with batches of `batch`,
    /// if they can be told without testing anything (default: none). With many jobs, a reduction tests them
    /// in the slots the pass before leaves idle, so that a pass which finds nothing costs no
    /// wave of its own; a wrong preview only wastes those slots.
    fn preview(&self, _best: &[u8], _kind: Kind, _batch: usize) -> Vec<Vec<u8>> {
        Vec::new()
    }
}

/// What the owner of a run does between its passes: re-run the best, and roll it back when
/// a re-run fails (a [`crate::Reduction`]'s re-runs; none for a pass run alone).
pub(crate) trait Checkpoints<'o> {
    /// After a pass ran to its end; `paid` says whether it changed the best. May re-run the
    /// best (now or beside the next passes) and roll it back.
    fn after_pass(&mut self, cx: &mut Cx<'o>, paid: bool) -> Result<(), Stop>;
    /// At the end of a round that would end the run: takes what is pending (a re-run still
    /// running), which may roll the best back.
    fn settle(&mut self, cx: &mut Cx<'o>) -> Result<(), Stop>;
    /// How many rollbacks there were: one since a round began interrupts it.
    fn rollbacks(&self) -> u64;
}

/// The checkpoints of the run a pass is a step of, lent to it for the schedule it runs
/// inside itself (see [`Pass::run_checked`]); only the crate's round engine reads them.
pub struct Checks<'a, 'o> {
    pub(crate) inner: &'a mut dyn Checkpoints<'o>,
}

impl<'a, 'o> Checks<'a, 'o> {
    /// Lends `inner`.
    pub(crate) fn new(inner: &'a mut dyn Checkpoints<'o>) -> Self {
        Checks { inner }
    }
}

/// Passes run in order, optionally repeated until a whole round removes nothing.
pub struct Schedule {
    /// The passes, in order.
    pub passes: Vec<Box<dyn Pass>>,
    /// Repeat rounds until one removes nothing.
    pub to_fixpoint: bool,
}

impl Schedule {
    /// The names of its passes, in order.
    pub fn names(&self) -> Vec<String> {
        self.passes.iter().map(|p| p.name()).collect()
    }

    /// Drops the passes called `name`; whether there was one.
    pub fn skip(&mut self, name: &str) -> bool {
        let before = self.passes.len();
        self.passes.retain(|p| p.name() != name);
        self.passes.len() < before
    }
}

/// Tests in a row without a success after which a sweep stops in a patient round: the sweep
/// goes on from there the next time it runs (what failed is remembered), so a costly sweep
/// takes its turn in slices while cheaper passes still pay.
pub const SWEEP_PATIENCE: usize = 50;

/// The least bytes per test a pass is expected to remove (see [`Planner::expected_rate`]) for
/// it to run again before the complete round: one byte per 50 tests. On the README's job the
/// sweeps that still paid late in the run paid about one byte per 17 to 40 tests (siblings
/// 163 bytes in 2,759 tests), the reruns this keeps out one byte per 200 to 900.
pub const WORTH_A_RERUN: f64 = 0.02;

/// How thorough a round is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Thoroughness {
    /// Sweeps skip what failed in the same context and stop after
    /// [`SWEEP_PATIENCE`] failures in a row.
    Patient,
    /// Sweeps skip what failed in the same context, but go to the end.
    Remembering,
    /// Every candidate of every sweep is tested (unless the very same bytes were): a round
    /// of this kind that changes nothing ends the run.
    Complete,
}

impl Thoroughness {
    /// The sweeps' mode in a round of this kind.
    pub fn sweep_mode(self) -> SweepMode {
        match self {
            Thoroughness::Patient => SweepMode {
                remember: true,
                patience: Some(SWEEP_PATIENCE),
            },
            Thoroughness::Remembering => SweepMode {
                remember: true,
                patience: None,
            },
            Thoroughness::Complete => SweepMode::default(),
        }
    }
}

/// One round: the passes (indices into the schedule) in the order they run, and how thorough
/// it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    /// Indices of the passes that run, in order.
    pub order: Vec<usize>,
    /// How the sweeps spend their tests.
    pub thoroughness: Thoroughness,
    /// Whether it stands for a round of every pass: it leaves out only passes not expected
    /// to repay a run (see [`Planner::expected_rate`]), and only when it is not complete.
    pub every: bool,
}

/// What one run of a pass did, for the [`Planner`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PassRun {
    /// Tests it ran.
    pub tests: u64,
    /// Bytes it removed.
    pub removed: u64,
    /// Whether a sweep of it stopped for lack of patience.
    pub cut_short: bool,
    /// Bytes of the best it left.
    pub left: u64,
    /// Candidates its sweeps left out for having failed in the same context.
    pub skipped: u64,
    /// Failures of its sweeps whose context a later find of the same sweep changed: a rerun
    /// tests them again, and may find there what those finds freed.
    pub stale: u64,
    /// Whether it ran a sweep, whose failures are remembered (see [`SweepMode::remember`]): a
    /// run of it in a remembering round costs only the candidates whose context changed.
    pub remembers: bool,
}

/// What the [`Planner`] knows of a pass's last run that ran a test.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct LastRun {
    /// The run, or `None` if the pass has not run a test yet.
    run: Option<PassRun>,
    /// Bytes the other passes removed since, where it can find again (see [`Planner::record`]).
    changed: u64,
    /// Bytes the other passes removed since, wherever.
    removed_since: u64,
}

/// Plans the rounds of a schedule run to a fixpoint; see the module doc.
///
/// The rule: the first round runs every pass in the schedule's order (structure first). After
/// a round that changed the best, the next runs only the passes that changed it and are
/// expected to pay again ([`WORTH_A_RERUN`]); after one that changed nothing, every pass that
/// is, and the complete round every pass. Later rounds order their passes by bytes removed per test,
/// each run counting twice as much as the one before it, so a pass that stopped paying sinks;
/// remembering and complete rounds order them by what their last run cost, the cheapest first.
/// A round of every pass also runs a sweep whose own finds made some of its failures stale
/// ([`PassRun::stale`]) at its last rate, and a pass that does not remember whose last run
/// cost no more tests than the bytes removed since (see `due_for_its_cost`).
/// A full patient round that changes nothing is followed by a remembering one, which runs
/// every pass that remembers failures too (it retries only what changed around), then by a
/// complete one; a complete round that changes nothing ends the run.
/// Any change goes back to patient rounds (the reduction ends a remembering or complete round
/// at its first find); so does a rollback, with every pass.
#[derive(Clone, Debug)]
pub struct Planner {
    /// Per pass, decayed (bytes removed, tests).
    paid: Vec<(f64, f64)>,
    /// Per pass, its last run that ran a test, and what changed since.
    last: Vec<LastRun>,
    /// Per pass, whether it ran a sweep (its failures are remembered).
    remembers: Vec<bool>,
    next: Round,
    first: bool,
    this_round: Vec<PassRun>,
}

impl Planner {
    /// A planner for `passes` passes; `to_fixpoint` false plans one complete round.
    pub fn new(passes: usize, to_fixpoint: bool) -> Planner {
        Planner {
            paid: vec![(0.0, 0.0); passes],
            last: vec![LastRun::default(); passes],
            remembers: vec![false; passes],
            next: Round {
                order: (0..passes).collect(),
                thoroughness: if to_fixpoint {
                    Thoroughness::Patient
                } else {
                    Thoroughness::Complete
                },
                every: true,
            },
            first: true,
            this_round: vec![PassRun::default(); passes],
        }
    }

    /// The round to run now.
    pub fn round(&self) -> &Round {
        &self.next
    }

    /// Bytes removed per test by pass `i`, recent runs weighing most; infinite for a pass that
    /// never ran a test (it costs nothing, or has not run yet).
    pub fn rate(&self, i: usize) -> f64 {
        let (bytes, tests) = self.paid[i];
        if tests == 0.0 {
            f64::INFINITY
        } else {
            bytes / tests
        }
    }

    /// What pass `i` is expected to remove per test if it runs again now: what it removed in
    /// its last run, in the share of the input the other passes changed since (its finds
    /// come from what changed around it), over what that run cost. Infinite for a pass that
    /// has not run a test yet or whose sweep was cut short (it has more to do, whatever
    /// changed). Measured on the README's job: split/tokens removed 383 bytes of 1,794 in
    /// 1,564 tests, then, after the others removed 80 bytes of the 1,411 left, 1 byte in 864
    /// tests; this expects 22 bytes, 0.014 per test, and the pass waits.
    pub fn expected_rate(&self, i: usize) -> f64 {
        let last = self.last[i];
        let Some(run) = last.run.filter(|r| !r.cut_short) else {
            return f64::INFINITY;
        };
        let share = if run.left == 0 {
            1.0
        } else {
            (last.changed as f64 / run.left as f64).min(1.0)
        };
        run.removed as f64 * share / run.tests.max(1) as f64
    }

    /// What a sweep whose own finds changed the context of failures it had tried before them
    /// ([`PassRun::stale`]) is expected to remove per test if it runs again: its last rate,
    /// since a rerun retries only what changed around (there first); 0 for any other pass.
    fn stale_rate(&self, i: usize) -> f64 {
        match self.last[i].run {
            Some(run) if run.remembers && run.removed > 0 && run.stale > 0 => {
                run.removed as f64 / run.tests.max(1) as f64
            }
            _ => 0.0,
        }
    }

    /// The yield below which pass `i` hands its tests over in a patient round: the most that
    /// any other pass that ran a whole run is expected to remove per test if it runs again
    /// now ([`Planner::expected_rate`]); `None` when no such pass expects anything. A pass
    /// that has not run yet, or whose sweep was cut short, is left out: it has its turn in
    /// the round anyway, and its infinite expectation says nothing of its yield.
    pub fn hand_over_rate(&self, i: usize) -> Option<f64> {
        self.most_expected_besides(i, 0..self.paid.len())
    }

    /// The yield below which pass `i` hands its tests over to the passes `waiting` after it in
    /// its round: the most any of them that ran a whole run is expected to remove per test now.
    /// Only they get the tests it gives up before the next round, so only their expectation
    /// is worth a stop: with every pass's (as [`Planner::hand_over_rate`]), a pass that took
    /// 2,696 bytes in one test (strip/comments) set a floor no other pass's 50 tests met, and
    /// hello-cpp ended at 3,121 bytes after 1,000 tests instead of 2,303.
    pub fn hand_over_rate_to(&self, i: usize, waiting: &[usize]) -> Option<f64> {
        self.most_expected_besides(i, waiting.iter().copied())
    }

    /// The highest finite, positive expected rate among `passes` other than `i`.
    fn most_expected_besides(&self, i: usize, passes: impl Iterator<Item = usize>) -> Option<f64> {
        passes
            .filter(|&j| j != i)
            .map(|j| self.expected_rate(j))
            .filter(|r| r.is_finite() && *r > 0.0)
            .max_by(f64::total_cmp)
    }

    /// What a run of pass `i` over the whole input is expected to cost: the candidates of its
    /// last run that ran a test, those it tested and those it left out as failed before.
    fn whole_run_cost(&self, i: usize) -> u64 {
        self.last[i].run.map_or(0, |r| r.tests + r.skipped)
    }

    /// Whether pass `i`, which does not remember failures, is due in a round of every pass
    /// whatever it removed: its last run cost no more tests than the bytes the others removed
    /// since, wherever. Such a pass (a number made smaller, a run of lines) finds what a change
    /// anywhere freed, which no share of bytes predicts: on the README's job, 16 became 13 and
    /// removed nothing, so its expected yield was nothing, yet after a write of a terminator
    /// went, 13 became 9 in 6 tests; found late, that one byte cost a whole complete round.
    fn due_for_its_cost(&self, i: usize) -> bool {
        let last = self.last[i];
        !self.remembers[i]
            && last.run.is_some()
            && last.removed_since > 0
            && self.whole_run_cost(i) <= last.removed_since
    }

    /// Records what pass `i` did in the current round.
    pub fn record(&mut self, i: usize, run: PassRun) {
        if run.removed > 0 {
            for (j, last) in self.last.iter_mut().enumerate() {
                if j != i {
                    last.removed_since += run.removed;
                }
                // What a sweep changed, the other sweeps retry around (a remembering sweep
                // tests again every candidate whose context changed); a pass that is not a
                // sweep, binary splitting or the tree, finds nothing new there: it waits for a
                // change of its own kind, or the remembering round of every pass.
                if j != i && (!run.remembers || self.remembers[j]) {
                    last.changed += run.removed;
                }
            }
        }
        self.remembers[i] |= run.remembers;
        if run.tests > 0 {
            self.last[i] = LastRun {
                run: Some(run),
                changed: 0,
                removed_since: 0,
            };
        }
        let (bytes, tests) = &mut self.paid[i];
        if run.tests > 0 || run.removed > 0 {
            *bytes = *bytes / 2.0 + run.removed as f64;
            *tests = *tests / 2.0 + run.tests as f64;
        }
        let r = &mut self.this_round[i];
        r.tests += run.tests;
        r.removed += run.removed;
        r.cut_short |= run.cut_short;
        r.skipped += run.skipped;
    }

    /// Whether the current round, so far, tested every candidate of every pass: a complete
    /// round, or one that ran every pass and whose sweeps neither stopped early nor left out a
    /// candidate that failed before. Such a round that changes nothing ends the run, since it
    /// gives the complete round's guarantee already.
    pub fn round_is_complete(&self) -> bool {
        self.next.thoroughness == Thoroughness::Complete
            || (self.next.order.len() == self.paid.len()
                && self
                    .this_round
                    .iter()
                    .all(|r| !r.cut_short && r.skipped == 0))
    }

    /// Ends the round: `changed` says the best changed, `interrupted` that a pass was skipped
    /// by the user or the best rolled back. Returns whether another round is to run, and
    /// whether this one ran only the passes that paid before.
    pub fn end_round(&mut self, changed: bool, interrupted: bool) -> bool {
        let n = self.paid.len();
        let complete = self.round_is_complete();
        let round = std::mem::replace(&mut self.this_round, vec![PassRun::default(); n]);
        let full = self.next.every;
        let was = self.next.thoroughness;
        if self.first && was == Thoroughness::Complete {
            // A schedule that is not repeated.
            return false;
        }
        self.first = false;
        // What paid, unless what changed since cannot repay a rerun (see `expected_rate`).
        let paid: Vec<usize> = (0..n)
            .filter(|&i| round[i].removed > 0 && self.expected_rate(i) >= WORTH_A_RERUN)
            .collect();
        let all: Vec<usize> = (0..n).collect();
        let mut wide = false;
        let (passes, thoroughness, every) = if interrupted {
            (all, Thoroughness::Patient, true)
        } else if changed && !paid.is_empty() {
            (paid, Thoroughness::Patient, false)
        } else if changed {
            (all, Thoroughness::Patient, true)
        } else if !full {
            (all, was, true)
        } else if complete {
            return false;
        } else {
            // After a remembering round that left a pass out and changed nothing, one more
            // runs every pass: what it tests on this best the complete round would test too
            // (and then answers from the cache), and a find saves a complete round.
            wide = was == Thoroughness::Remembering && self.next.order.len() < n;
            let next = match was {
                Thoroughness::Patient => Thoroughness::Remembering,
                Thoroughness::Remembering if wide => Thoroughness::Remembering,
                Thoroughness::Remembering => Thoroughness::Complete,
                Thoroughness::Complete => return false,
            };
            (all, next, true)
        };
        let mut order = passes;
        let remembering = thoroughness == Thoroughness::Remembering;
        if every && !interrupted && thoroughness != Thoroughness::Complete && !wide {
            // A round of every pass but the complete one leaves out what cannot repay a run:
            // the complete round runs it. A remembering round keeps every pass that remembers:
            // it retries only what changed around, which is where the finds of a complete
            // round come from. Two kinds of pass come back whatever the others changed
            // around them: a sweep whose own late finds changed the context of its earlier
            // failures, and a pass that does not remember and costs less than what changed.
            // A round that narrows to what paid leaves them out: the best is still changing.
            order.retain(|&i| {
                self.expected_rate(i) >= WORTH_A_RERUN
                    || self.stale_rate(i) >= WORTH_A_RERUN
                    || (remembering && self.remembers[i])
                    || self.due_for_its_cost(i)
            });
        }
        if thoroughness == Thoroughness::Patient {
            // By rate, the best first; equal rates keep the schedule's order.
            order.sort_by(|&a, &b| self.rate(b).total_cmp(&self.rate(a)));
        } else {
            // Remembering and complete rounds come when few finds are left: the cheapest pass
            // first, so that a find comes after as few tests as it can. A find sends the run
            // back to patient rounds (it ends the round), and the next complete round
            // tests again every candidate tested before it.
            order.sort_by_key(|&i| self.whole_run_cost(i));
        }
        self.next = Round {
            order,
            thoroughness,
            every,
        };
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(tests: u64, removed: u64) -> PassRun {
        PassRun {
            tests,
            removed,
            cut_short: false,
            left: 100,
            skipped: 0,
            stale: 0,
            remembers: false,
        }
    }

    #[test]
    fn rounds_narrow_to_what_paid_then_widen_to_a_complete_round_that_ends_the_run() {
        let cut_short = |tests| PassRun {
            cut_short: true,
            ..run(tests, 0)
        };
        let mut planner = Planner::new(3, true);
        assert_eq!(planner.round().order, [0, 1, 2]);
        assert_eq!(planner.round().thoroughness, Thoroughness::Patient);
        planner.record(0, run(100, 10));
        planner.record(1, run(60, 0));
        planner.record(2, run(10, 50));
        assert!(planner.end_round(true, false));
        // Only what paid and can pay again: pass 0 ran before pass 2 changed half of what it
        // left (expected: 10 bytes x 1/2 in 100 tests); pass 2 ran last, so nothing changed
        // around what it left.
        assert_eq!(planner.round().order, [0]);
        assert!(!planner.round().every);
        planner.record(0, cut_short(50));
        assert!(planner.end_round(false, false));
        // Nothing changed: every pass that can repay a run. Pass 0's sweep was cut short and
        // has more to do; passes 1 and 2 wait for the complete round (pass 1 costs more tests
        // than the 50 bytes removed since it ran).
        assert_eq!(planner.round().order, [0]);
        assert!(planner.round().every);
        assert_eq!(planner.round().thoroughness, Thoroughness::Patient);
        planner.record(0, cut_short(50));
        assert!(planner.end_round(false, false));
        // A sweep stopped early: the sweeps go to the end, still skipping what failed.
        assert_eq!(planner.round().thoroughness, Thoroughness::Remembering);
        assert_eq!(planner.round().order, [0]);
        planner.record(0, run(80, 0));
        assert!(planner.end_round(false, false));
        // It left passes out and changed nothing: one more remembering round, of every pass
        // (what it tests, the complete round would test on the same bytes).
        assert_eq!(planner.round().thoroughness, Thoroughness::Remembering);
        assert_eq!(planner.round().order.len(), 3);
        let skipping = PassRun {
            skipped: 5,
            ..run(0, 0)
        };
        planner.record(0, skipping);
        assert!(planner.end_round(false, false));
        assert_eq!(planner.round().thoroughness, Thoroughness::Complete);
        // Every pass, the cheapest whole run first (pass 0's last run cost 80 tests, pass 1's
        // 60, pass 2's 10), so a find voids few tests.
        assert_eq!(planner.round().order, [2, 1, 0]);
        // The complete round finds something, in its last pass: nothing is expected to pay
        // before the complete round again, but pass 0's sweeps remember what failed.
        let remembering = |tests, removed| PassRun {
            remembers: true,
            ..run(tests, removed)
        };
        planner.record(2, run(80, 0));
        planner.record(0, remembering(5, 0));
        planner.record(1, run(5, 1));
        assert!(planner.end_round(true, false));
        assert!(planner.round().order.is_empty());
        assert_eq!(planner.round().thoroughness, Thoroughness::Patient);
        assert!(planner.end_round(false, false));
        // Before the next complete round, a remembering round of the passes that remember:
        // they retry only what changed around.
        assert_eq!(planner.round().thoroughness, Thoroughness::Remembering);
        assert_eq!(planner.round().order, [0]);
        planner.record(0, remembering(3, 0));
        assert!(planner.end_round(false, false));
        assert_eq!(planner.round().order.len(), 3);
        planner.record(0, skipping);
        assert!(planner.end_round(false, false));
        assert_eq!(planner.round().thoroughness, Thoroughness::Complete);
        // Pass 0, a sweep, ran last and waits; pass 1 ran before it removed 60 of 100 bytes,
        // but is not a sweep and costs more tests than that, so it waits too: the remembering
        // round of every pass runs it.
        planner.record(1, run(70, 5));
        planner.record(0, remembering(10, 60));
        assert!(planner.end_round(true, false));
        assert!(planner.round().order.is_empty());
        assert!(planner.end_round(false, false));
        assert_eq!(planner.round().thoroughness, Thoroughness::Remembering);
        assert_eq!(planner.round().order, [0]);
        planner.record(0, remembering(2, 0));
        assert!(planner.end_round(false, false));
        assert_eq!(planner.round().order.len(), 3);
        planner.record(0, skipping);
        assert!(planner.end_round(false, false));
        assert_eq!(planner.round().thoroughness, Thoroughness::Complete);
        // A complete round that changes nothing ends the run.
        assert!(!planner.end_round(false, false));
    }

    #[test]
    fn what_a_sweep_changed_calls_back_the_sweeps_but_not_the_other_passes() {
        let sweep = |tests, removed| PassRun {
            remembers: true,
            ..run(tests, removed)
        };
        let mut planner = Planner::new(4, true);
        planner.record(0, run(100, 20));
        planner.record(1, sweep(100, 20));
        // A sweep removes half of what the others left: the other sweep retries around it,
        // binary splitting would find nothing new there.
        planner.record(2, sweep(100, 50));
        assert_eq!(planner.expected_rate(0), 0.0);
        assert!(planner.expected_rate(1) >= WORTH_A_RERUN);
        // A change of the tree or of binary splitting calls it back.
        planner.record(3, run(100, 50));
        assert!(planner.expected_rate(0) >= WORTH_A_RERUN);
    }

    #[test]
    fn a_round_of_every_pass_runs_stale_sweeps_and_passes_cheaper_than_what_changed() {
        let sweep = |tests, removed, stale| PassRun {
            remembers: true,
            stale,
            ..run(tests, removed)
        };
        let plan = |stale, cheap_tests| {
            let mut planner = Planner::new(3, true);
            // Pass 0 does not remember and removed nothing; pass 1, a sweep, ran last and
            // removed 10 bytes in 20 tests; pass 2, a sweep too, removed 30 bytes before.
            planner.record(0, run(cheap_tests, 0));
            planner.record(2, sweep(100, 30, 0));
            planner.record(1, sweep(20, 10, stale));
            assert!(planner.end_round(true, false));
            // A narrow round of what paid: pass 2 ran before pass 1 changed a tenth of what
            // it left; pass 1 ran last, and waits there even with stale failures.
            assert_eq!(planner.round().order, [2]);
            planner.record(2, sweep(10, 0, 0));
            assert!(planner.end_round(false, false));
            assert!(planner.round().every);
            planner.round().order.clone()
        };
        // Nothing stale, and pass 0 costs more tests than the 40 bytes removed since it ran.
        assert_eq!(plan(0, 50), Vec::<usize>::new());
        // Pass 1's find changed the context of 3 of its earlier failures: its last rate.
        assert_eq!(plan(3, 50), [1]);
        // Pass 0 costs 40 tests or fewer: it runs, though it removed nothing.
        assert_eq!(plan(0, 40), [0]);
    }

    #[test]
    fn a_pass_hands_over_below_what_the_others_are_expected_to_pay() {
        let mut planner = Planner::new(4, true);
        // Nothing ran: nothing to hand over to.
        assert_eq!(planner.hand_over_rate(0), None);
        planner.record(1, run(100, 40));
        planner.record(2, run(10, 0));
        // Pass 3 changed half of what pass 1 left: pass 1 expects 40 x 1/2 in 100 tests.
        planner.record(3, run(10, 50));
        assert_eq!(planner.hand_over_rate(0), Some(0.2));
        // A pass's own expectation is not its floor; a sweep cut short, with its infinite
        // expectation, is no floor either.
        assert_eq!(planner.hand_over_rate(1), None);
        planner.record(
            2,
            PassRun {
                cut_short: true,
                ..run(10, 0)
            },
        );
        assert_eq!(planner.hand_over_rate(0), Some(0.2));
        assert_eq!(crate::cx::HAND_OVER_WINDOW, SWEEP_PATIENCE as u64);
        // Handing over to the passes waiting in the round: only theirs counts.
        assert_eq!(planner.hand_over_rate_to(0, &[1, 2, 3]), Some(0.2));
        assert_eq!(planner.hand_over_rate_to(0, &[2, 3]), None);
    }

    #[test]
    fn a_round_of_every_pass_that_left_nothing_out_and_changed_nothing_ends_the_run() {
        let round = |skipped, cut_short| {
            let mut planner = Planner::new(2, true);
            planner.record(0, run(10, 0));
            planner.record(
                1,
                PassRun {
                    skipped,
                    cut_short,
                    ..run(10, 0)
                },
            );
            planner.end_round(false, false)
        };
        // A patient round of every pass that tested every candidate and changed nothing gives
        // the complete round's guarantee: the run ends.
        assert!(!round(0, false));
        // One that left out a remembered failure, or stopped a sweep early, does not.
        assert!(round(1, false));
        assert!(round(0, true));
    }

    #[test]
    fn a_skip_or_rollback_runs_every_pass_again_and_a_single_round_is_complete() {
        let mut planner = Planner::new(2, true);
        planner.record(1, run(10, 5));
        assert!(planner.end_round(true, true));
        assert_eq!(planner.round().order.len(), 2);
        let once = Planner::new(2, false);
        assert_eq!(once.round().thoroughness, Thoroughness::Complete);
        assert!(!once.clone().end_round(true, false));
    }
}
