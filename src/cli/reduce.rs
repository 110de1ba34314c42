//! `myhill reduce`: the first check, the reduction with its safety net, and the summary.

use super::setup::{backup_path, read_input, resolve_test, shell_line, write_atomic};
use super::ui::{Ui, busy_share, summary};
use super::{EXIT_FLAKY, EXIT_INTERRUPTED, EXIT_NOT_INTERESTING, EXIT_OK, Fail, ReduceArgs};
use myhill::command::{CommandOracle, CommandSpec, Signature, dynamic_timeout};
use myhill::oracle::Reconfirm;
use myhill::{Cancel, Driver, EvalOptions, Event, Oracle, Outcome, Report, Stop, Verdict};
use regex::bytes::Regex;
use std::cell::RefCell;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn compile(re: &Option<String>, what: &str) -> Result<Option<Regex>, Fail> {
    re.as_deref()
        .map(|r| {
            Regex::new(r)
                .map_err(|e| Fail::setup(format!("{what} is not a valid regular expression: {e}")))
        })
        .transpose()
}

fn tail(bytes: &[u8], lines: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let all: Vec<&str> = text.lines().collect();
    let start = all.len().saturating_sub(lines);
    if all.is_empty() {
        return "    (nothing)\n".to_string();
    }
    all[start..].iter().map(|l| format!("    {l}\n")).collect()
}

fn describe(outcome: &Outcome) -> String {
    match (outcome.verdict, outcome.exit_code) {
        (Verdict::TimedOut, _) => format!("timed out after {:.1}s", outcome.duration.as_secs_f64()),
        (_, Some(code)) => format!("exit status {code}"),
        (_, None) => "killed by a signal".to_string(),
    }
}

/// Installs the Ctrl-C and SIGTERM handlers: the first sets the flag, a second one exits.
fn interrupt_flag() -> Result<Arc<AtomicBool>, Fail> {
    let flag = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register_conditional_shutdown(sig, EXIT_INTERRUPTED, flag.clone())
            .and_then(|_| signal_hook::flag::register(sig, flag.clone()))
            .map_err(|e| Fail::setup(format!("cannot install the signal handler: {e}")))?;
    }
    Ok(flag)
}

struct FirstCheck {
    runs: Vec<Outcome>,
}

pub fn run(args: ReduceArgs) -> Result<i32, Fail> {
    let input_path = args.input.clone();
    let original = read_input(&input_path)?;
    let argv = resolve_test(&args.test)?;
    if args.jobs == Some(0) {
        return Err(Fail::setup("--jobs must be at least 1"));
    }
    if let Some(t) = args.timeout
        && !(t > 0.0 && t.is_finite())
    {
        return Err(Fail::setup(
            "--timeout must be a positive number of seconds",
        ));
    }
    let schedule = myhill::strategy::schedule(&args.strategy, args.units).map_err(Fail::setup)?;
    let file_name = input_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "input".to_string());
    let signature = Signature {
        expect_exit: args.expect_exit,
        stdout_regex: compile(&args.stdout_regex, "--stdout-regex")?,
        stderr_regex: compile(&args.stderr_regex, "--stderr-regex")?,
        same_as: None,
    };
    let mut spec = CommandSpec::new(argv.clone(), &file_name);
    spec.input_mode = args.input_mode;
    spec.signature = signature;
    spec.timeout_is_interesting = args.timeout_is_interesting;
    let input_mode_arg = matches!(
        args.input_mode,
        myhill::command::InputMode::Arg | myhill::command::InputMode::All
    );
    let interrupt = interrupt_flag()?;

    // The first check runs with output captured, so a failure can be explained.
    let mut checker = CommandOracle::new(CommandSpec {
        capture_output: true,
        ..spec.clone()
    });
    if let Some(t) = args.timeout {
        checker.set_timeout(Duration::from_secs_f64(t));
    }
    let cancel = Cancel::child_of(Some(interrupt.clone()));
    let mut check = FirstCheck { runs: Vec::new() };
    let run_original = |oracle: &CommandOracle| -> Result<Outcome, Fail> {
        oracle.test(&original, &cancel).map_err(|e| match e {
            myhill::OracleError::Cancelled => Fail {
                code: EXIT_INTERRUPTED,
                message: "interrupted during the first check; nothing was changed".into(),
            },
            myhill::OracleError::Setup(msg) => Fail::setup(msg),
        })
    };
    if args.same_output {
        let reference = run_original(&checker)?;
        if reference.verdict == Verdict::TimedOut {
            return Err(hangs(&reference, &args));
        }
        checker.set_same_as(
            reference.exit_code,
            reference.stdout.clone(),
            reference.stderr.clone(),
        );
        spec.signature.same_as = Some((
            reference.exit_code,
            reference.stdout.clone(),
            reference.stderr.clone(),
        ));
        check.runs.push(reference);
    }
    let first_runs = args.first_runs.max(1);
    for _ in 0..first_runs {
        check.runs.push(run_original(&checker)?);
    }
    let judged: Vec<&Outcome> = check
        .runs
        .iter()
        .skip(usize::from(args.same_output))
        .collect();
    let verdicts: Vec<Verdict> = judged.iter().map(|o| o.verdict).collect();
    let flaky = verdicts.windows(2).any(|w| w[0] != w[1]);
    if flaky && !args.allow_flaky {
        let list: Vec<String> = judged.iter().map(|o| describe(o)).collect();
        return Err(Fail {
            code: EXIT_FLAKY,
            message: format!(
                "the test is flaky: on the unchanged original it gave different verdicts ({}).\n\
                 Make it deterministic (fixed seeds, no timing, no shared state), or pass \
                 --allow-flaky to re-confirm every reduction.",
                list.join(", ")
            ),
        });
    }
    if !verdicts.contains(&Verdict::Interesting) {
        let last = judged.last().unwrap();
        if last.verdict == Verdict::TimedOut {
            return Err(hangs(last, &args));
        }
        return Err(not_interesting(
            last,
            &original,
            &input_path,
            &spec,
            &argv,
            input_mode_arg,
        ));
    }
    let slowest = check
        .runs
        .iter()
        .map(|o| o.duration)
        .max()
        .unwrap_or_default();

    // The oracle used for the reduction proper.
    let oracle = CommandOracle::new(spec.clone());
    oracle.set_timeout(match args.timeout {
        Some(t) => Duration::from_secs_f64(t),
        None => dynamic_timeout(slowest),
    });
    let reconfirm = Reconfirm::new(&oracle, 1);
    let active: &dyn Oracle = if args.allow_flaky {
        &reconfirm
    } else {
        &oracle
    };

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

    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let options = EvalOptions {
        jobs,
        cache: !args.no_cache,
        max_tests: args
            .max_tests
            .map(|m| m.saturating_sub(check.runs.len() as u64)),
        interrupt: Some(interrupt.clone()),
    };
    let ui = Rc::new(RefCell::new(Ui::new(args.quiet, original.len())));
    let write_error: Rc<RefCell<Option<String>>> = Rc::new(RefCell::new(None));
    let mut driver = Driver::new(original.clone(), active, options);
    for outcome in check.runs.iter().skip(usize::from(args.same_output)) {
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
        driver.set_listener(move |event| match event {
            Event::PassStarted { pass } => ui.borrow_mut().pass_started(pass),
            Event::Reduced { bytes, .. } => {
                if let Err(e) = write_atomic(&out, bytes, mode) {
                    err.borrow_mut()
                        .get_or_insert(format!("cannot write {}: {e}", out.display()));
                }
                ui.borrow_mut().reduced(bytes.len());
            }
            Event::PassDone { .. } => {}
        });
    }
    if !args.quiet {
        eprintln!(
            "myhill: the original is interesting ({} bytes, test took {:.2}s; timeout {:.1}s){}",
            original.len(),
            slowest.as_secs_f64(),
            oracle.timeout().as_secs_f64(),
            backup
                .as_ref()
                .map(|b| format!("; original kept as {}", b.display()))
                .unwrap_or_default()
        );
    }
    let started = Instant::now();
    let mut schedule = schedule;
    let outcome = schedule.run(&mut driver);
    let mut report = driver.report();
    report.wall = started.elapsed();
    let best = driver.best().to_vec();
    drop(driver);
    ui.borrow_mut().finish_line();

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

    if args.allow_flaky && code == EXIT_OK {
        let again = oracle.test(&best, &Cancel::child_of(Some(interrupt.clone())));
        if !again.is_ok_and(|o| o.verdict == Verdict::Interesting) {
            eprintln!(
                "myhill: warning: the final result did not re-confirm as interesting (the test is flaky)"
            );
        }
    }
    if !args.quiet {
        eprint!("{}", summary(&report, check.runs.len() as u64));
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
        let json = stats_json(&report, &args, jobs, check.runs.len() as u64, code);
        std::fs::write(path, serde_json::to_string_pretty(&json).unwrap() + "\n").map_err(|e| {
            Fail::setup(format!("cannot write --stats-json {}: {e}", path.display()))
        })?;
    }
    Ok(code)
}

fn hangs(outcome: &Outcome, args: &ReduceArgs) -> Fail {
    Fail {
        code: EXIT_NOT_INTERESTING,
        message: format!(
            "the test hangs on the original: it was killed after {:.1}s.\n\
             Give it more time with --timeout SECS{}, or, if the hang is the bug, pass --timeout-is-interesting.",
            outcome.duration.as_secs_f64(),
            if args.timeout.is_some() {
                " (a larger one)"
            } else {
                ""
            }
        ),
    }
}

fn not_interesting(
    outcome: &Outcome,
    original: &[u8],
    input: &Path,
    spec: &CommandSpec,
    argv: &[String],
    passes_path: bool,
) -> Fail {
    let mut msg = format!(
        "the original is not interesting: the test gave {} on the unchanged input.\n",
        describe(outcome)
    );
    msg.push_str(&format!(
        "  stdout (last lines):\n{}",
        tail(&outcome.stdout, 10)
    ));
    msg.push_str(&format!(
        "  stderr (last lines):\n{}",
        tail(&outcome.stderr, 10)
    ));
    // Does it behave differently in the input's own directory?
    let abs = std::fs::canonicalize(input).unwrap_or_else(|_| input.to_path_buf());
    let dir = abs.parent().unwrap_or(Path::new(".")).to_path_buf();
    let in_place = tempfile::tempdir().ok().and_then(|capture| {
        let oracle = CommandOracle::new(CommandSpec {
            capture_output: true,
            ..spec.clone()
        });
        oracle.set_timeout(Duration::from_secs(30));
        oracle
            .run_at(&abs, &dir, capture.path(), &Cancel::never())
            .ok()
    });
    match in_place {
        Some(o) if o.verdict == Verdict::Interesting => msg.push_str(&format!(
            "  In {} itself the test says interesting, so it depends on its working directory or \
             on files beside the input: use absolute paths in the test, or copy what it needs.\n",
            dir.display()
        )),
        Some(o) => msg.push_str(&format!(
            "  In the input's own directory it behaves the same ({}).\n",
            describe(&o)
        )),
        None => {}
    }
    let mut words = argv.to_vec();
    if passes_path {
        words.push(abs.to_string_lossy().into_owned());
    }
    msg.push_str(&format!(
        "  Reproduce it with:\n    cd {} && {} < {}; echo \"exit status $?\"\n",
        shell_line(&[dir.to_string_lossy().into_owned()]),
        shell_line(&words),
        shell_line(&[abs.to_string_lossy().into_owned()])
    ));
    msg.push_str("  Fix the test (it must exit 0 on this input) or the signature options, then run myhill again.");
    let _ = original;
    Fail {
        code: EXIT_NOT_INTERESTING,
        message: msg,
    }
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
