//! `myhill reduce`: where the result goes, the reduction's events on screen and on disk, the summary.

use super::ReduceArgs;
use super::exit::{Exit, Fail};
use super::files::{check_output, keep_original, mode_of};
use super::out;
use super::session::{Extras, Session};
use super::stats::{self, Ended, Record};
use super::tree_io::{self, Target};
use super::ui::{Setup, Ui, summary};
use myhill::{
    Event, Recorded, ReduceOptions, Reduction, RunDir, RunInfo, RunStatus, Stop, Strategy,
};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Writes every new best to the output, and remembers the first write error.
struct Keeper {
    /// Unknown until the first check passed and the original is safe.
    path: Option<PathBuf>,
    target: Target,
    error: Option<String>,
}

impl Keeper {
    fn keep(&mut self, bytes: &[u8]) {
        let Some(path) = &self.path else {
            return;
        };
        if let Err(e) = self.target.write(path, bytes) {
            self.error
                .get_or_insert(format!("cannot write {}: {e}", path.display()));
        }
    }
}

pub fn run(args: ReduceArgs) -> Result<Exit, Fail> {
    if let Some(path) = &args.stats_json {
        stats::check_path(path)?;
    }
    let mut record = Record::default();
    let result = reduce(&args, &mut record);
    let Some(path) = &args.stats_json else {
        return result;
    };
    // Written whatever happened, so a script learns why a run ended as well as how far it got.
    let written = stats::write(path, &stats::to_json(&record, &args, &result));
    match (result, written) {
        (Err(fail), Err(also)) => {
            out::err(format!("myhill: warning: {}", also.message));
            Err(fail)
        }
        (result, written) => written.and(result),
    }
}

/// The passes to run: `--passes`, else the strategy, without those `--skip-pass` names.
pub(super) fn schedule(args: &ReduceArgs) -> Result<myhill::Schedule, Fail> {
    let mut schedule = match &args.passes {
        Some(names) => myhill::schedule_of(names)?,
        None => Strategy::named(&args.strategy)?
            .with_units(args.units)
            .schedule(),
    };
    for name in &args.skip_pass {
        if tree_io::is_tree_pass(name) && args.t.input.is_dir() {
            continue;
        }
        if !schedule.skip(name) {
            return Err(Fail::usage(format!(
                "--skip-pass {name}: no such pass in this schedule; it has {}",
                schedule.names().join(", ")
            )));
        }
    }
    Ok(schedule)
}

fn reduce(args: &ReduceArgs, record: &mut Record) -> Result<Exit, Fail> {
    let mut schedule = schedule(args)?;
    record.strategy = args.passes.is_none().then(|| args.strategy.clone());
    record.schedule = schedule.names();
    let resumed = match &args.resume {
        Some(dir) => Some(RunDir::open(dir)?),
        None => None,
    };
    if let (Some(o), None) = (&args.output, &resumed) {
        if args.t.input.is_dir() {
            tree_io::check_output(o, &args.t.input)?;
        } else {
            check_output(o, &args.t.input)?;
        }
    }
    let run_path = match &resumed {
        Some((run, _)) => Some(run.path().to_path_buf()),
        None => new_run_path(args)?,
    };
    if args.also_interesting.is_some() && run_path.is_none() {
        return Err(Fail::usage(
            "--also-interesting keeps candidates in the run directory: leave out --no-run-dir, \
             or give --run-dir DIR",
        ));
    }
    let extras = Extras {
        original: match &resumed {
            Some((run, _)) => Some(run.original()?),
            None => None,
        },
        also_interesting: args
            .also_interesting
            .zip(run_path.as_ref().map(|p| p.join("also-interesting"))),
    };
    let mut session = Session::open_with(&args.t, extras)?;
    let identity = session.oracle.spec().identity();
    if let Some((run, info)) = &resumed
        && info.test != identity
    {
        return Err(Fail::usage(format!(
            "the test changed since the run in {} began (its command, its script, a file it \
             names or a signature option): the verdicts kept there would not hold. Start a new \
             run from its best, under the input's own name: cp {} {} && myhill reduce TEST {2}",
            run.path().display(),
            run.path().join("best").display(),
            best_copy_name(&args.t.input).display()
        )));
    }
    record.jobs = Some(session.jobs);
    if session.tree {
        schedule = tree_io::tree_schedule(args)?;
        record.schedule = schedule.names();
    }
    let mode = mode_of(&session.input_path);
    let target = Target {
        tree: session.tree,
        mode,
    };
    let options = ReduceOptions {
        cache: !args.no_cache,
        batch: usize::from(args.batch),
        ..session.options(&args.t, args.max_tests)
    };
    // The reduction owns the only copy of the input; until it accepts something, its best is
    // the original, which is what the backup and `-o` start from.
    let original = std::mem::take(&mut session.original);
    let initial_len = original.len();
    // A tree is counted in files and the bytes they hold.
    let initial_tree = tree_io::sizes(&original).filter(|_| session.tree);
    let input_key = myhill::content_key(&original);
    let mut reduction = Reduction::new(original, &session.oracle, options);

    // The run directory: made (or reopened) before any test, so every verdict is kept.
    let run_dir = match resumed {
        Some((run, _)) => Some(run),
        None => match &run_path {
            Some(path) => create_run_dir(path, args, identity, reduction.best())?,
            None => None,
        },
    };
    if let Some(run) = &run_dir {
        reduction.set_store(run.verdicts()?);
        record.run_dir = Some(run.path().to_path_buf());
    }
    let stored_check = run_dir
        .as_ref()
        .map(|r| r.info().first_check.clone())
        .filter(|c| !c.is_empty());
    let run_dir = Rc::new(RefCell::new(run_dir));
    let keeper = Rc::new(RefCell::new(Keeper {
        path: None,
        target,
        error: None,
    }));
    let ui = Rc::new(RefCell::new(Ui::new(Setup {
        quiet: args.t.quiet,
        initial: initial_tree.map_or(initial_len, |(_, bytes)| bytes),
        files: initial_tree.map(|(files, _)| files),
        jobs: session.jobs,
        max_tests: args.max_tests,
        first_runs: args.t.first_runs,
        control: session.control.clone(),
    })));
    if let Some(run) = run_dir.borrow().as_ref()
        && !args.t.quiet
    {
        ui.borrow().say(format!(
            "myhill: run directory {} (resume with: myhill reduce --resume {0})",
            run.path().display()
        ));
    }
    {
        let (keeper, ui, run_dir) = (keeper.clone(), ui.clone(), run_dir.clone());
        reduction.on_event(move |event| {
            // A resumed run replays the steps its directory holds: the output already has
            // something at least as good, so only new steps are written.
            let recorded = run_dir
                .borrow_mut()
                .as_mut()
                .map_or(Recorded::New, |r| r.record(event));
            match event {
                Event::Reduced { bytes, .. } | Event::RolledBack { bytes }
                    if recorded != Recorded::Replayed =>
                {
                    keeper.borrow_mut().keep(bytes)
                }
                Event::Finished { best, .. } if recorded != Recorded::Replayed => {
                    keeper.borrow_mut().keep(best)
                }
                _ => {}
            }
            ui.borrow_mut().event(event);
        });
    }
    let checked = match stored_check {
        Some(check) => reduction.reuse_first_check(&check).map(|()| check),
        None => reduction.check_original().map(<[_]>::to_vec),
    };
    let outcomes = match checked {
        Ok(o) => o,
        Err(e) => {
            ui.borrow_mut().finish();
            let mut report = reduction.report();
            // A failed check is not kept by the reduction, but every test so far was part of it.
            report.first_check_runs = report.eval.tests_run;
            record.report = Some(report);
            if matches!(e, myhill::Error::Hangs(_)) {
                record.ended = Some(Ended::Hangs);
            }
            return Err(session.explain(e));
        }
    };
    if !args.t.quiet {
        ui.borrow()
            .say(session.interesting_line(reduction.best(), &outcomes));
    }

    // Never lose work: keep the original, and decide where the best goes.
    record.report = Some(reduction.report());
    let stored = run_dir
        .borrow()
        .as_ref()
        .map(|r| (r.info().output.clone(), r.info().backup.clone()));
    let out_path = match (stored, &args.output) {
        (Some((output, backup)), _) if args.resume.is_some() => {
            record.backup = backup;
            output
        }
        (_, Some(o)) => {
            target
                .write(o, reduction.best())
                .map_err(|e| Fail::usage(format!("cannot write {}: {e}", o.display())))?;
            o.clone()
        }
        (_, None) => {
            let backup = if session.tree {
                tree_io::keep_original(&session.input_path, reduction.best())?
            } else {
                keep_original(&session.input_path, reduction.best(), input_key, mode)?
            };
            record.backup = Some(backup.clone());
            if !args.t.quiet {
                ui.borrow().say(format!(
                    "myhill: the original is kept as {}",
                    backup.display()
                ));
            }
            if let Some(run) = run_dir.borrow_mut().as_mut() {
                run.update(|i| i.backup = Some(absolute(&backup)))?;
            }
            session.input_path.clone()
        }
    };
    if let Some(run) = run_dir.borrow_mut().as_mut() {
        run.update(|i| {
            i.first_check = outcomes.clone();
            i.output = absolute(&out_path);
            i.status = RunStatus::Running;
        })?;
    }
    keeper.borrow_mut().path = Some(out_path.clone());
    record.output = Some(out_path.clone());
    let finished = reduction.run(&mut schedule);
    if finished.is_err() {
        record.report = Some(reduction.report());
    }
    let finished = finished?;
    drop(reduction);
    ui.borrow_mut().finish();
    record.report = Some(finished.report.clone());
    if let Some(run) = run_dir.borrow().as_ref() {
        if let Some(e) = run.error() {
            out::err(format!(
                "myhill: warning: the run directory is incomplete: {e}"
            ));
        }
        let recalled = finished.report.eval.recalled;
        if recalled > 0 && !args.t.quiet {
            out::err(format!(
                "myhill: {recalled} of the {} tests were answered from the run directory",
                finished.report.eval.tests_run
            ));
        }
        if run.replaying() {
            out::err(format!(
                "myhill: stopped while replaying the earlier run: {} keeps its best, as does {}",
                out_path.display(),
                run.path().join("best").display()
            ));
        }
    }
    if session.tree {
        record.files = initial_tree.zip(tree_io::sizes(&finished.best));
    }
    finish(args, record, &finished, &out_path, &keeper.borrow(), target)
}

/// The end of a run that got past its first check: the exit status, the summary and the
/// warnings, and one more write of the result if an earlier one failed.
fn finish(
    args: &ReduceArgs,
    record: &mut Record,
    finished: &myhill::Finished,
    out_path: &Path,
    keeper: &Keeper,
    target: Target,
) -> Result<Exit, Fail> {
    let report = &finished.report;
    let mut exit = match &report.stopped {
        None | Some(Stop::Budget) | Some(Stop::SkipPass) => Exit::Ok,
        Some(Stop::Interrupted) => Exit::Interrupted,
        Some(Stop::Oracle(_)) => Exit::Usage,
    };
    let trivial = finished.is_trivial() && !args.allow_trivial && exit == Exit::Ok;
    if trivial {
        exit = Exit::Trivial;
        record.ended = Some(Ended::Trivial);
    }
    if !args.t.quiet {
        out::err_raw(summary(report, record.files));
        out::err(format!("myhill: result written to {}", out_path.display()));
    }
    if let Some(e) = keeper.error.as_ref() {
        out::err(format!("myhill: warning: {e}"));
    }
    if report.rollbacks > 0 || !report.confirmed {
        out::err(flaky_note(report));
    }
    match &report.stopped {
        Some(Stop::Interrupted) => out::err("myhill: interrupted: the best result so far is saved"),
        Some(Stop::Budget) if !args.t.quiet => out::err(format!(
            "myhill: stopped after --max-tests {} tests",
            args.max_tests.unwrap_or(0)
        )),
        Some(Stop::Oracle(msg)) => out::err(format!("myhill: stopped: {msg}")),
        _ => {}
    }
    if trivial {
        out::err(format!(
            "myhill: error: the result has {} byte(s): the test probably accepts almost anything. \
             Make it stricter (check for the actual failure, e.g. with --stderr-regex), or pass \
             --allow-trivial if this is what you want. The result is in {}.",
            finished.best.len(),
            out_path.display()
        ));
    }
    if keeper.error.is_some() {
        // Every write failed or some did: one more try, and say whether the result is safe.
        target.write(out_path, &finished.best).map_err(|e| {
            Fail::usage(format!(
                "cannot write the result to {}: {e}; the best result could not be saved",
                out_path.display()
            ))
        })?;
    }
    Ok(exit)
}

/// Where a new run's directory goes: `--run-dir`, none with `--no-run-dir`, else a fresh one
/// under the state directory (none, with a note, when there is no state directory).
fn new_run_path(args: &ReduceArgs) -> Result<Option<PathBuf>, Fail> {
    if args.no_run_dir {
        return Ok(None);
    }
    if let Some(dir) = &args.run_dir {
        return Ok(Some(absolute(dir)));
    }
    let name = args
        .t
        .input
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match myhill::default_runs_root() {
        Some(root) => Ok(Some(myhill::fresh_run_path(&root, &name))),
        None => {
            if !args.t.quiet {
                out::err(
                    "myhill: note: neither XDG_STATE_HOME nor HOME is set, so no run directory is \
                     kept (give --run-dir DIR to keep one)",
                );
            }
            Ok(None)
        }
    }
}

/// Makes the run directory at `path`. One the user named must work; the default one may
/// fail (a read-only home), and then the run goes on without it, with a warning.
fn create_run_dir(
    path: &Path,
    args: &ReduceArgs,
    identity: u128,
    original: &[u8],
) -> Result<Option<RunDir>, Fail> {
    let mut info = RunInfo::new(reduce_args(), identity);
    info.input = absolute(&args.t.input);
    match RunDir::create(path, info, original) {
        Ok(run) => Ok(Some(run)),
        Err(e) if args.run_dir.is_some() => Err(e.into()),
        Err(e) => {
            out::err(format!(
                "myhill: warning: no run directory ({e}); the run cannot be resumed"
            ));
            Ok(None)
        }
    }
}

/// The arguments after `reduce` on this process's command line, as given.
fn reduce_args() -> Vec<String> {
    let all: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let at = all
        .iter()
        .position(|a| a == "reduce")
        .map_or(all.len(), |i| i + 1);
    all[at..].to_vec()
}

/// A name for a copy of a run's best that keeps the input's extension (a compiler test
/// needs `.c`): `in.c` gives `in.best.c`.
fn best_copy_name(input: &Path) -> PathBuf {
    let stem = input
        .file_stem()
        .map_or("input".into(), |s| s.to_string_lossy());
    match input.extension() {
        Some(ext) => PathBuf::from(format!("{stem}.best.{}", ext.to_string_lossy())),
        None => PathBuf::from(format!("{stem}.best")),
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

fn flaky_note(report: &myhill::Report) -> String {
    if report.rollbacks > 0 {
        format!(
            "myhill: warning: a result was interesting once but not when run again ({} time(s)): \
             the test is flaky on reduced inputs (often undefined behaviour in a reduced \
             program; make the test stricter, e.g. compile with -fsanitize=address,undefined). \
             The result is the last one that passed twice.",
            report.rollbacks
        )
    } else {
        "myhill: note: the result was not re-run at the end (the run stopped early); it passed the test once."
            .to_string()
    }
}
