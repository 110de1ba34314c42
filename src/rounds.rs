//! The round engine: the one loop that runs the passes of a schedule, for a whole input and
//! for one file of a tree alike.
//!
//! Main items: [`run`], the [`Checkpoints`] hook and [`Settings`]. The engine runs rounds as
//! the [`Planner`] plans them: after a round that changed the best, only the passes that
//! changed it; the passes by what they paid per test; sweeps patient and remembering what
//! failed until a round changes nothing, then a complete round, which ends the run if it
//! changes nothing (and skipped no pass, and nothing was rolled back). It opens and closes
//! each pass's row in the ledger, sets the sweeps' mode and yield floor, and with many jobs
//! lets the next passes' previews fill the slots a pass leaves idle. What happens between two
//! passes (re-running the best, rolling back) is the owner's [`Checkpoints`]: the reduction's
//! re-runs, for a whole input and inside one file of a tree alike (a pass that runs a
//! schedule inside gets them through [`crate::passes::Pass::run_checked`]).
//!
//! ```
//! use myhill::{FnOracle, Reduction, ReduceOptions, Strategy};
//! let oracle = FnOracle::new(|b: &[u8]| b.windows(2).any(|w| w == b"ok"));
//! let mut reduction = Reduction::new(b"a b ok c\n".to_vec(), &oracle, ReduceOptions::default());
//! // The reduction runs its schedule through the engine.
//! let finished = reduction.run(&mut Strategy::named("default").unwrap().schedule()).unwrap();
//! assert_eq!(finished.best, b"ok");
//! ```
//!
//! Limits: a pass is one step; the engine never interrupts one (the control's skip ends it
//! at its next test). While the best is one file of a tree, its rows are named
//! `pass @ path` and no preview is looked ahead to (the previews would be the file's content,
//! not the tree's).

use crate::cx::Cx;
use crate::driver::View;
use crate::kind::Kind;
use crate::oracle::Control;
use crate::report::{Counter, Stop};
pub(crate) use crate::schedule::Checkpoints;
use crate::schedule::{Checks, PassRun, Planner, Schedule, Thoroughness};

/// No re-runs, no rollback: the checkpoints of a pass run alone, outside a reduction.
pub(crate) struct NoCheckpoints;

impl<'o> Checkpoints<'o> for NoCheckpoints {
    fn after_pass(&mut self, _: &mut Cx<'o>, _: bool) -> Result<(), Stop> {
        Ok(())
    }

    fn settle(&mut self, _: &mut Cx<'o>) -> Result<(), Stop> {
        Ok(())
    }

    fn rollbacks(&self) -> u64 {
        0
    }
}

/// How the engine runs.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    /// Stops, hurries, skips and disables from outside.
    pub(crate) control: Control,
    /// Tests run at once.
    pub(crate) jobs: usize,
    /// Candidates a batching pass tests together.
    pub(crate) batch: usize,
    /// Whether the next passes' previews are tested in the slots a pass leaves idle.
    pub(crate) look_ahead: bool,
}

/// Runs `schedule` on the best of `cx` as the module doc says, with `checkpoints` between
/// passes.
pub(crate) fn run<'o>(
    cx: &mut Cx<'o>,
    schedule: &mut Schedule,
    settings: &Settings,
    checkpoints: &mut dyn Checkpoints<'o>,
) -> Result<(), Stop> {
    let mut planner = Planner::new(schedule.passes.len(), schedule.to_fixpoint);
    let focus = cx.view().path().map(str::to_owned);
    loop {
        let (changed, interrupted) = run_round(cx, schedule, &mut planner, settings, checkpoints)?;
        if !planner.end_round(changed, interrupted) || cx.view().path() != focus.as_deref() {
            return Ok(());
        }
    }
}

/// One round as the planner planned it; whether it changed the best, and whether something
/// interrupted it (a skipped pass, a rollback).
fn run_round<'o>(
    cx: &mut Cx<'o>,
    schedule: &mut Schedule,
    planner: &mut Planner,
    settings: &Settings,
    checkpoints: &mut dyn Checkpoints<'o>,
) -> Result<(bool, bool), Stop> {
    let round = planner.round().clone();
    let full = round.every;
    if !full {
        cx.count(Counter::RestrictedRounds, 1);
    }
    if round.thoroughness == Thoroughness::Complete && schedule.to_fixpoint {
        cx.count(Counter::CompleteRounds, 1);
    }
    cx.set_sweep_mode(round.thoroughness.sweep_mode());
    let before = cx.best_shared();
    let focus = cx.view().path().map(str::to_owned);
    let rollbacks = checkpoints.rollbacks();
    let mut paid = vec![false; schedule.passes.len()];
    let mut skipped_any = false;
    let thorough = round.thoroughness != Thoroughness::Patient;
    for (at, &i) in round.order.iter().enumerate() {
        if thorough && schedule.to_fixpoint && paid.contains(&true) {
            // A find ends a remembering or complete round (they run the cheapest pass
            // first): the patient rounds after it retry what the find changed and what it
            // frees in turn, for a fraction of the cost, so the costlier passes left would
            // test candidates on a best that may soon change, and the next complete round
            // tests every candidate again anyway.
            break;
        }
        let start = cx.best_shared();
        if settings.look_ahead && matches!(cx.view(), View::Whole) {
            let upcoming: Vec<usize> = round.order[at + 1..]
                .iter()
                .chain(round.order[..at].iter().filter(|&&j| paid[j]))
                .copied()
                .collect();
            let window = cx.evaluator().options().window_bytes;
            let next = lookahead(schedule, &upcoming, &start, cx.kind(), settings, window);
            cx.evaluator().set_lookahead(next);
        }
        let patient = round.thoroughness == Thoroughness::Patient;
        cx.set_yield_floor(patient.then(|| planner.hand_over_rate(i)).flatten());
        let waiting = &round.order[at + 1..];
        cx.set_hand_over_floor(
            patient
                .then(|| planner.hand_over_rate_to(i, waiting))
                .flatten(),
        );
        let Some(run) = run_pass(cx, schedule, i, settings, checkpoints)? else {
            continue;
        };
        planner.record(i, run.figures);
        match run.result {
            Err(Stop::SkipPass) => {
                settings.control.take_skip();
                skipped_any = true;
            }
            other => other?,
        }
        paid[i] = cx.best() != start.as_slice();
        checkpoints.after_pass(cx, paid[i])?;
        if cx.view().path() != focus.as_deref() {
            // A rollback took away the file this schedule ran on: its rounds end here.
            return Ok((true, true));
        }
    }
    let ending = !schedule.to_fixpoint
        || (cx.best() == before.as_slice()
            && full
            && planner.round_is_complete()
            && !skipped_any
            && checkpoints.rollbacks() == rollbacks);
    let mut settled_back = false;
    if ending {
        let at = checkpoints.rollbacks();
        checkpoints.settle(cx)?;
        settled_back = checkpoints.rollbacks() != at;
    }
    let changed = cx.best() != before.as_slice();
    let interrupted = skipped_any || checkpoints.rollbacks() != rollbacks || settled_back;
    Ok((changed, interrupted))
}

/// A pass run to its end: what the planner learns from it, and how it ended.
struct Ran {
    figures: PassRun,
    result: Result<(), Stop>,
}

/// Runs pass `i` in its row of the ledger (named after the file while the best is one file
/// of a tree), unless the user disabled it.
fn run_pass<'o>(
    cx: &mut Cx<'o>,
    schedule: &mut Schedule,
    i: usize,
    settings: &Settings,
    checkpoints: &mut dyn Checkpoints<'o>,
) -> Result<Option<Ran>, Stop> {
    let start = cx.best_shared();
    let tests_before = cx.evaluator().stats().tests_run;
    let skipped_before = cx.counted(Counter::SweepRemembered);
    let pass = &mut schedule.passes[i];
    let name = pass.name();
    if settings.control.is_disabled(&name) {
        return Ok(None);
    }
    let row = match cx.view().path() {
        Some(path) => format!("{name} @ {path}"),
        None => name,
    };
    cx.begin_pass(&row);
    let result = pass.run_checked(cx, &mut Checks::new(checkpoints));
    cx.evaluator().set_lookahead(Vec::new());
    let handed_over = result == Err(Stop::HandOver);
    let result = if handed_over {
        cx.count(Counter::HandOvers, 1);
        Ok(())
    } else {
        result
    };
    cx.end_pass(result == Err(Stop::SkipPass));
    let figures = PassRun {
        tests: cx.evaluator().stats().tests_run - tests_before,
        removed: start.len().saturating_sub(cx.best().len()) as u64,
        cut_short: cx.sweeps.take_cut_short() || handed_over,
        stale: cx.sweeps.take_stale_failures(),
        left: cx.best().len() as u64,
        skipped: cx.counted(Counter::SweepRemembered) - skipped_before,
        remembers: cx.sweeps.remembers(&row),
    };
    Ok(Some(Ran { figures, result }))
}

/// Runs `schedule` inside the pass that is running, on the best as the driver's view shows
/// it now (one file of a tree): planned rounds, a row per pass named after the file, the
/// owner's `checks` between its passes (the whole input re-run after a pass that changed
/// it, and rolled back if that fails: the view then shows the file in the tree rolled back
/// to, and the rounds end if the file is not there) and no previews. The sweeps' mode and
/// yield floor of the round outside are put back after.
pub(crate) fn run_within<'o>(
    cx: &mut Cx<'o>,
    schedule: &mut Schedule,
    checks: &mut Checks<'_, 'o>,
) -> Result<(), Stop> {
    let options = cx.evaluator().options();
    let settings = Settings {
        control: options.control.clone(),
        jobs: options.jobs,
        batch: options.batch,
        look_ahead: false,
    };
    let (mode, floor) = (cx.sweep_mode(), cx.yield_floor());
    let result = run(cx, schedule, &settings, &mut *checks.inner);
    cx.set_sweep_mode(mode);
    cx.set_yield_floor(floor);
    result
}

/// What the `upcoming` passes will test first on `best`, if none of them changes it: the rest
/// of this round, then what the next round will likely run (those that paid so far in this
/// one). At most `jobs` candidates (more could not run beside the last wave of the running
/// pass), and none when a preview (a batch of copies of the best) would not fit in `window`
/// bytes, the bound on candidates held for speculation.
fn lookahead(
    schedule: &Schedule,
    upcoming: &[usize],
    best: &[u8],
    kind: Kind,
    settings: &Settings,
    window: usize,
) -> Vec<Vec<u8>> {
    if best.len().saturating_mul(settings.batch.max(settings.jobs)) > window {
        return Vec::new();
    }
    let mut out = Vec::new();
    for &j in upcoming {
        if out.len() >= settings.jobs {
            break;
        }
        out.extend(schedule.passes[j].preview(best, kind, settings.batch));
    }
    out.truncate(settings.jobs);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lookahead_previews_the_next_passes_within_the_window() {
        let names = ["squeeze/whitespace", "split/lines", "split/tokens"].map(String::from);
        let schedule = crate::strategy::schedule_of(&names).unwrap();
        let best: Vec<u8> = (0..40)
            .flat_map(|i| format!("line {i}\n").into_bytes())
            .collect();
        let settings = Settings {
            control: Control::new(),
            jobs: 8,
            batch: 4,
            look_ahead: true,
        };
        let round = [1, 2];
        // Before squeeze: split/lines' first batch (4 chunks), then split/tokens' (4 more).
        let next = lookahead(&schedule, &round, &best, Kind::Text, &settings, 1 << 20);
        assert_eq!(next.len(), 8);
        assert!(next.iter().all(|c| c.len() < best.len()));
        // A batch of copies of the best would not fit: nothing is looked ahead to.
        let small = best.len() * 4 - 1;
        assert!(lookahead(&schedule, &round, &best, Kind::Text, &settings, small).is_empty());
    }
}
