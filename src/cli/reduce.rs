//! `myhill reduce`: the reduction with its safety net, and the summary.

use super::session::{Prepared, prepare};
use super::setup::{backup_path, write_atomic};
use super::ui::{Ui, busy_share, summary};
use super::{EXIT_INTERRUPTED, EXIT_OK, Fail, ReduceArgs};
use myhill::oracle::Reconfirm;
use myhill::{Cancel, Driver, EvalOptions, Event, Oracle, Report, Stop, Verdict};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Instant;

/// How many accepted results are kept in memory to fall back on.
const HISTORY: usize = 16;

pub fn run(args: ReduceArgs) -> Result<i32, Fail> {
    let schedule = myhill::strategy::schedule(&args.strategy, args.units).map_err(Fail::setup)?;
    let prepared = prepare(&args.t)?;
    let Prepared {
        input_path,
        original,
        judged,
        first_check_runs,
        interrupt,
        jobs,
        ..
    } = &prepared;
    let (input_path, original, jobs) = (input_path.clone(), original.clone(), *jobs);
    let oracle = prepared.oracle();
    // Re-confirms every success with --allow-flaky, and from the first flaky re-run on.
    let reconfirm = Reconfirm::new(&oracle, u32::from(args.t.allow_flaky));
    let active: &dyn Oracle = &reconfirm;

    // Never lose work: keep the original, and decide where the best goes.
    let mode = std::fs::metadata(&input_path)
        .ok()
        .map(|m| m.permissions().mode() & 0o7777);
    let (out_path, backup): (PathBuf, Option<PathBuf>) = match &args.output {
        Some(o) => (o.clone(), None),
        None => {
            let b = backup_path(&input_path);
            std::fs::copy(&input_path, &b).map_err(|e| {
                Fail::setup(format!(
                    "cannot keep the original as {}: {e} (check that the directory is writable, or use -o PATH)",
                    b.display()
                ))
            })?;
            (input_path.clone(), Some(b))
        }
    };
    if args.output.is_some() {
        write_atomic(&out_path, &original, mode)
            .map_err(|e| Fail::setup(format!("cannot write {}: {e}", out_path.display())))?;
    }

    let options = EvalOptions {
        jobs,
        cache: !args.no_cache,
        max_tests: args.max_tests.map(|m| m.saturating_sub(*first_check_runs)),
        interrupt: Some(interrupt.clone()),
    };
    let ui = Rc::new(RefCell::new(Ui::new(args.t.quiet, original.len())));
    let write_error: Rc<RefCell<Option<String>>> = Rc::new(RefCell::new(None));
    // The last accepted results, to fall back on if the final one does not re-check.
    let history: Rc<RefCell<VecDeque<Vec<u8>>>> = Rc::new(RefCell::new(VecDeque::new()));
    let mut driver = Driver::new(original.clone(), active, options);
    for outcome in judged {
        driver.evaluator().record_external(&original, outcome);
    }
    {
        let ui = ui.clone();
        driver
            .evaluator()
            .set_on_test(move |stats| ui.borrow_mut().tested(stats));
    }
    {
        let (ui, out, err) = (ui.clone(), out_path.clone(), write_error.clone());
        let history = history.clone();
        // Every new best, smaller or rolled back, is kept in the history and written at once.
        let keep = move |bytes: &[u8], rolled_back: bool| {
            let mut h = history.borrow_mut();
            if rolled_back {
                h.clear();
            } else if h.len() == HISTORY {
                h.pop_front();
            }
            h.push_back(bytes.to_vec());
            drop(h);
            if let Err(e) = write_atomic(&out, bytes, mode) {
                err.borrow_mut()
                    .get_or_insert(format!("cannot write {}: {e}", out.display()));
            }
        };
        driver.set_listener(move |event| match event {
            Event::PassStarted { pass } => ui.borrow_mut().pass_started(pass),
            Event::Reduced { bytes, .. } => {
                keep(bytes, false);
                ui.borrow_mut().reduced(bytes.len());
            }
            Event::RolledBack { bytes } => {
                keep(bytes, true);
                ui.borrow_mut().finish_line();
                eprintln!(
                    "myhill: warning: the best so far was not interesting when run again: the test is \
                     flaky on reduced inputs (often undefined behaviour in a reduced program). Going \
                     back to the last result that passed twice ({} bytes); every success is \
                     re-confirmed from now on.",
                    bytes.len()
                );
            }
            Event::PassDone { .. } => {}
        });
    }
    driver.set_verify_between_passes(true);
    if let (false, Some(b)) = (args.t.quiet, &backup) {
        eprintln!("myhill: the original is kept as {}", b.display());
    }
    let started = Instant::now();
    let mut schedule = schedule;
    let outcome = schedule.run(&mut driver);
    let mut report = driver.report();
    report.wall = started.elapsed();
    let mut best = driver.best().to_vec();
    drop(driver);
    ui.borrow_mut().finish_line();

    // One more real run of the result: a test that is flaky on reduced inputs (undefined
    // behaviour in a reduced program, say) can accept a candidate on a lucky run.
    let mut final_check_runs = 0u64;
    let interrupted = outcome == Err(Stop::Interrupted);
    if !interrupted && best != original {
        let cancel = Cancel::child_of(Some(interrupt.clone()));
        let mut confirms = |bytes: &[u8]| {
            final_check_runs += 1;
            oracle
                .test(bytes, &cancel)
                .is_ok_and(|o| o.verdict == Verdict::Interesting)
        };
        if !confirms(&best) {
            let mut fallback = original.clone();
            let older: Vec<Vec<u8>> = history.borrow().iter().rev().skip(1).cloned().collect();
            for candidate in older {
                if confirms(&candidate) && confirms(&candidate) {
                    fallback = candidate;
                    break;
                }
            }
            eprintln!(
                "myhill: warning: the result was interesting once but not when run again: the test is \
                 flaky on reduced inputs (often undefined behaviour in a reduced program; make the test \
                 stricter, e.g. compile with -fsanitize=address,undefined). Falling back to the last \
                 result that passed twice ({} bytes).",
                fallback.len()
            );
            best = fallback;
        }
    }
    report.final_bytes = best.len();
    report
        .counters
        .insert("final_check_runs".into(), final_check_runs as f64);

    // The best is already on disk; write it once more in case a write failed mid-run.
    if let Err(e) = write_atomic(&out_path, &best, mode) {
        return Err(Fail::setup(format!(
            "cannot write the result to {}: {e}; the best result could not be saved{}",
            out_path.display(),
            backup
                .map(|b| format!(" (the original is safe in {})", b.display()))
                .unwrap_or_default()
        )));
    }
    if let Some(e) = write_error.borrow().as_ref() {
        eprintln!("myhill: warning: {e} (retried at the end)");
    }

    let (code, note) = match &outcome {
        Ok(()) => (EXIT_OK, None),
        Err(Stop::Interrupted) => (
            EXIT_INTERRUPTED,
            Some("interrupted: the best result so far is saved".to_string()),
        ),
        Err(Stop::Budget) => (
            EXIT_OK,
            Some(format!(
                "stopped after --max-tests {} tests",
                args.max_tests.unwrap_or(0)
            )),
        ),
        Err(Stop::Oracle(msg)) => (super::EXIT_SETUP, Some(format!("stopped: {msg}"))),
    };
    report.stopped = outcome.err();

    if !args.t.quiet {
        eprint!("{}", summary(&report, *first_check_runs));
        eprintln!("myhill: result written to {}", out_path.display());
    }
    if let Some(note) = note {
        eprintln!("myhill: {note}");
    }
    if best.len() <= 1 {
        eprintln!(
            "myhill: warning: the result is {} byte(s): the test is probably too loose (does it accept almost anything?)",
            best.len()
        );
    }
    if let Some(path) = &args.stats_json {
        let json = stats_json(&report, &args, jobs, *first_check_runs, code);
        std::fs::write(path, serde_json::to_string_pretty(&json).unwrap() + "\n").map_err(|e| {
            Fail::setup(format!("cannot write --stats-json {}: {e}", path.display()))
        })?;
    }
    Ok(code)
}

fn stats_json(
    report: &Report,
    args: &ReduceArgs,
    jobs: usize,
    first_check: u64,
    code: i32,
) -> serde_json::Value {
    let passes: Vec<serde_json::Value> = report
        .passes
        .iter()
        .map(|p| {
            serde_json::json!({
                "name": p.name,
                "tests": p.tests,
                "cache_hits": p.cache_hits,
                "successes": p.successes,
                "bytes_removed": p.bytes_removed,
                "seconds": p.time.as_secs_f64(),
            })
        })
        .collect();
    let counters: serde_json::Map<String, serde_json::Value> = report
        .counters
        .iter()
        .map(|(k, v)| (k.clone(), serde_json::json!(v)))
        .collect();
    let e = &report.eval;
    serde_json::json!({
        "strategy": args.strategy,
        "jobs": jobs,
        "exit_code": code,
        "stopped": report.stopped.as_ref().map(|s| s.to_string()),
        "tests_run": e.tests_run,
        "first_check_runs": first_check,
        "cache_hits": e.cache_hits,
        "timeouts": e.timeouts,
        "initial_bytes": report.initial_bytes,
        "final_bytes": report.final_bytes,
        "wall_seconds": report.wall.as_secs_f64(),
        "speculative_started": e.speculative_started,
        "speculative_wasted": e.speculative_wasted,
        "busy_share": busy_share(report),
        "passes": passes,
        "counters": counters,
    })
}
