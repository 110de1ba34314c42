//! `myhill reduce`: where the result goes, the reduction's events on screen and on disk, the summary.

use super::ReduceArgs;
use super::exit::{Exit, Fail};
use super::files::{check_output, make_backup, mode_of, write_atomic};
use super::out;
use super::session::Session;
use super::stats::{self, Ended, Record};
use super::ui::{Setup, Ui, summary};
use myhill::{Event, ReduceOptions, Reduction, Stop, Strategy};
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

/// Writes every new best to the output, and remembers the first write error.
struct Keeper {
    /// Unknown until the first check passed and the original is safe.
    path: Option<PathBuf>,
    mode: Option<u32>,
    error: Option<String>,
}

impl Keeper {
    fn keep(&mut self, bytes: &[u8]) {
        let Some(path) = &self.path else {
            return;
        };
        if let Err(e) = write_atomic(path, bytes, self.mode) {
            self.error
                .get_or_insert(format!("cannot write {}: {e}", path.display()));
        }
    }
}

pub fn run(args: ReduceArgs) -> Result<Exit, Fail> {
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

fn reduce(args: &ReduceArgs, record: &mut Record) -> Result<Exit, Fail> {
    let mut schedule = match &args.passes {
        Some(names) => myhill::schedule_of(names)?,
        None => Strategy::named(&args.strategy)?
            .with_units(args.units)
            .schedule(),
    };
    for name in &args.skip_pass {
        if !schedule.skip(name) {
            return Err(Fail::usage(format!(
                "--skip-pass {name}: no such pass in this schedule; it has {}",
                schedule.names().join(", ")
            )));
        }
    }
    record.strategy = args.passes.is_none().then(|| args.strategy.clone());
    record.schedule = schedule.names();
    if let Some(o) = &args.output {
        check_output(o, &args.t.input)?;
    }
    let mut session = Session::open(&args.t)?;
    record.jobs = Some(session.jobs);
    let mode = mode_of(&session.input_path);
    let options = ReduceOptions {
        cache: !args.no_cache,
        ..session.options(&args.t, args.max_tests)
    };
    // The reduction owns the only copy of the input; until it accepts something, its best is
    // the original, which is what the backup and `-o` start from.
    let original = std::mem::take(&mut session.original);
    let initial_len = original.len();
    let mut reduction = Reduction::new(original, &session.oracle, options);
    let keeper = Rc::new(RefCell::new(Keeper {
        path: None,
        mode,
        error: None,
    }));
    let ui = Rc::new(RefCell::new(Ui::new(Setup {
        quiet: args.t.quiet,
        initial: initial_len,
        jobs: session.jobs,
        max_tests: args.max_tests,
        first_runs: args.t.first_runs,
        control: session.control.clone(),
    })));
    {
        let (keeper, ui) = (keeper.clone(), ui.clone());
        reduction.on_event(move |event| {
            match event {
                Event::Reduced { bytes, .. } | Event::RolledBack { bytes } => {
                    keeper.borrow_mut().keep(bytes)
                }
                Event::Finished { best, .. } => keeper.borrow_mut().keep(best),
                _ => {}
            }
            ui.borrow_mut().event(event);
        });
    }
    let outcomes = match reduction.check_original() {
        Ok(o) => o.to_vec(),
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
            .say(session.interesting_line(initial_len, &outcomes));
    }

    // Never lose work: keep the original, and decide where the best goes.
    let out_path = match &args.output {
        Some(o) => {
            record.report = Some(reduction.report());
            write_atomic(o, reduction.best(), mode)
                .map_err(|e| Fail::usage(format!("cannot write {}: {e}", o.display())))?;
            o.clone()
        }
        None => {
            record.report = Some(reduction.report());
            let backup = make_backup(&session.input_path, reduction.best(), mode)?;
            record.backup = Some(backup.clone());
            if !args.t.quiet {
                ui.borrow().say(format!(
                    "myhill: the original is kept as {}",
                    backup.display()
                ));
            }
            session.input_path.clone()
        }
    };
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
        out::err_raw(summary(report));
        out::err(format!("myhill: result written to {}", out_path.display()));
    }
    if let Some(e) = keeper.borrow().error.as_ref() {
        out::err(format!("myhill: warning: {e}"));
    }
    if report.rollbacks > 0 || !report.confirmed {
        out::err(flaky_note(report));
    }
    match &report.stopped {
        Some(Stop::Interrupted) => out::err("myhill: interrupted: the best result so far is saved"),
        Some(Stop::Budget) => out::err(format!(
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
    if keeper.borrow().error.is_some() {
        // Every write failed or some did: one more try, and say whether the result is safe.
        write_atomic(&out_path, &finished.best, mode).map_err(|e| {
            Fail::usage(format!(
                "cannot write the result to {}: {e}; the best result could not be saved",
                out_path.display()
            ))
        })?;
    }
    Ok(exit)
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
        "myhill: note: the result was not re-run at the end (interrupted); it passed the test once."
            .to_string()
    }
}
