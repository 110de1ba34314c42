//! The `--stats-json` file: a run's figures in a versioned format, written on every exit of `reduce`.
//!
//! The format is `notes/stats-schema.json` (JSON Schema) and the README's "The stats file";
//! a change that breaks a reader raises [`SCHEMA_VERSION`]. Counts are integers, times are
//! seconds; why the run ended is one of a few fixed names, never display text.

use super::exit::{Ended, Fail};
use myhill::{Report, Stop, report::Figure};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The version of the format; readers check it.
pub const SCHEMA_VERSION: u64 = 1;

/// What the file will say, filled in as the run goes, so that a run that fails at any point
/// still leaves what it knew.
#[derive(Default)]
pub struct Record {
    /// The strategy, unless `--passes` named the passes.
    pub strategy: Option<String>,
    /// The passes scheduled, in order.
    pub schedule: Vec<String>,
    pub jobs: Option<usize>,
    /// Where the result is, once it was written there.
    pub output: Option<PathBuf>,
    pub backup: Option<PathBuf>,
    /// The run directory, once it was made.
    pub run_dir: Option<PathBuf>,
    /// The figures, once the reduction existed.
    pub report: Option<Report>,
    /// Why it ended, when the exit code alone does not say.
    pub ended: Option<Ended>,
    /// For a directory: files and content bytes at the start and at the end.
    pub files: Option<((usize, usize), (usize, usize))>,
    /// The passes disabled during the run (the full view's `d`), still disabled at its end.
    pub disabled: Vec<String>,
}

fn path(p: &Option<PathBuf>) -> Value {
    p.as_ref()
        .map_or(Value::Null, |p| json!(p.display().to_string()))
}

/// Refuses a `--stats-json` path the file could not be written to, before the run rather
/// than after it: a directory, or a file in a directory that does not exist.
pub fn check_path(path: &Path) -> Result<(), Fail> {
    if path.is_dir() {
        return Err(Fail::usage(format!(
            "--stats-json {}: is a directory; give a file name",
            path.display()
        )));
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        return Err(Fail::usage(format!(
            "--stats-json {}: the directory {} does not exist; make it first",
            path.display(),
            parent.display()
        )));
    }
    Ok(())
}

/// The file's content for a run of `reduce` that ended with `result`.
pub fn to_json(record: &Record, args: &super::ReduceArgs, result: &Result<Ended, Fail>) -> Value {
    let (exit, message) = match result {
        // A test that could no longer run ends a reduction without a failure: say why.
        Ok(ended) => (
            ended.exit(),
            match record.report.as_ref().and_then(|r| r.stopped.as_ref()) {
                Some(Stop::Oracle(why)) => Some(why.clone()),
                _ => None,
            },
        ),
        Err(fail) => (fail.ended.exit(), Some(fail.message.clone())),
    };
    let ended = record
        .ended
        .unwrap_or_else(|| match (result, &record.report) {
            (Ok(_), Some(report)) => Ended::of_stop(report.stopped.as_ref()),
            (Ok(ended), None) => *ended,
            (Err(fail), _) => fail.ended,
        });
    let empty = Report::default();
    let report = record.report.as_ref().unwrap_or(&empty);
    let e = &report.eval;
    let known = record.report.is_some();
    let passes = passes_json(report, &record.disabled);
    let (counters, timers) = figures_json(report);
    let trace = trace_json(report);
    let reached = |share: f64| match report.reached(share) {
        Some((tests, at)) => json!({ "tests": tests, "seconds": at.as_secs_f64() }),
        None => Value::Null,
    };
    let command_line: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let kind = known.then(|| {
        json!({
            "name": report.kind.kind.name(),
            "decided_by": report.kind.by.name(),
            "files": report
                .file_kinds
                .iter()
                .map(|(path, d)| (path.clone(), json!(d.kind.name())))
                .collect::<serde_json::Map<String, Value>>(),
        })
    });
    let mut stats = json!({
        "schema_version": SCHEMA_VERSION,
        "myhill_version": env!("CARGO_PKG_VERSION"),
        "command_line": command_line,
        "test": args.t.test,
        "input": args.t.input.display().to_string(),
        "output": path(&record.output),
        "backup": path(&record.backup),
        "run_dir": path(&record.run_dir),
        "strategy": record.strategy,
        "schedule": record.schedule,
        "kind": kind,
        "jobs": record.jobs.or(known.then_some(report.jobs)),
        "max_tests": args.max_tests,
        "batch": args.batch,
        "exit_code": exit.code(),
        "ended": ended.name(),
        "message": message,
        "initial_bytes": record.files.map_or(known.then_some(report.initial_bytes), |f| Some(f.0.1)),
        "final_bytes": record.files.map_or(known.then_some(report.final_bytes), |f| Some(f.1.1)),
        "initial_files": record.files.map(|f| f.0.0),
        "final_files": record.files.map(|f| f.1.0),
        "confirmed": report.confirmed,
        "tests_run": e.tests_run,
        "first_check_runs": report.first_check_runs,
        "verify_runs": report.verify_runs,
        "oracle_runs": e.oracle_runs,
        "cache_hits": e.cache_hits,
        "recalled": e.recalled,
        "timeouts": e.timeouts,
        "interesting": e.interesting,
        "speculative_started": e.speculative_started,
        "speculative_wasted": e.speculative_wasted,
        "rollbacks": report.rollbacks,
        "wall_seconds": report.wall.as_secs_f64(),
        "busy_share": super::ui::busy_share(report),
        "trace": trace,
        "reached_90": reached(0.9),
        "reached_99": reached(0.99),
        "passes": passes,
        "counters": counters,
        "timers": timers,
    });
    // Beside the others (one more key would pass json!'s recursion limit).
    stats["disabled_passes"] = json!(record.disabled);
    stats
}

/// One object per pass: its runs, tests and what it removed.
fn passes_json(report: &Report, disabled: &[String]) -> Vec<Value> {
    report
        .passes
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "runs": p.runs,
                "skipped": p.skipped,
                "disabled": disabled.contains(&p.name),
                "tests": p.tests,
                "cache_hits": p.cache_hits,
                "successes": p.successes,
                "bytes_removed": p.bytes_removed,
                "tests_per_byte": (p.bytes_removed > 0)
                    .then(|| p.tests as f64 / p.bytes_removed as f64),
                "seconds": p.time.as_secs_f64(),
            })
        })
        .collect()
}

/// The passes' counters and timers, each by name.
fn figures_json(
    report: &Report,
) -> (
    serde_json::Map<String, Value>,
    serde_json::Map<String, Value>,
) {
    let mut counters = serde_json::Map::new();
    let mut timers = serde_json::Map::new();
    for (name, figure) in &report.counters {
        match figure {
            Figure::Count(n) => counters.insert(name.to_string(), json!(n)),
            Figure::Seconds(s) => timers.insert(name.to_string(), json!(s)),
        };
    }
    (counters, timers)
}

/// The size curve: tests, bytes and, where known, seconds at each step.
fn trace_json(report: &Report) -> Vec<Value> {
    report
        .trace
        .iter()
        .zip(report.trace_times.iter().map(Some).chain(std::iter::repeat(None)))
        .map(|(&(tests, bytes), at)| {
            json!({ "tests": tests, "bytes": bytes, "seconds": at.map(|t| t.as_secs_f64()) })
        })
        .collect()
}

/// Writes the file.
pub fn write(path: &Path, json: &Value) -> Result<(), Fail> {
    let text = serde_json::to_string_pretty(json).unwrap_or_default() + "\n";
    std::fs::write(path, text)
        .map_err(|e| Fail::usage(format!("cannot write --stats-json {}: {e}", path.display())))
}
