//! An over-engineered C++ hello world reduced in-process with a real test: the candidate must
//! compile with `g++ -std=c++17` and the program must print exactly `Hello, world!` (one
//! trailing newline allowed) three runs out of three. That is `examples/hello/test.sh`'s check,
//! except that the shell ignores any number of trailing newlines.
//! Prints, per granularity and strategy (ddmin, ProbDD, and the `dfa` schedule), the tests
//! run, the final size and whether the result is interval-minimal.
//!
//!     cargo run --release --example hello_world                        # hello.cpp, tokens
//!     cargo run --release --example hello_world -- bytes tokens dfa    # some units, one strategy
//!     cargo run --release --example hello_world -- --input=examples/hello/small.cpp bytes
//!
//! Options: `--jobs=N` (default 2) runs that many tests at once without changing any result;
//! `--max-tests=N` bounds each reduction; `--check-tests=N` (default 30,000) bounds the
//! interval-minimality check of the ddmin and ProbDD results (the `dfa` schedule proves its
//! own). Needs g++ on the PATH. Limits: a check that finds no deletable run costs a test per
//! distinct deletion, quadratic in the result's units, so large results end "unknown".

use myhill::{
    Event, FnOracle, ReduceOptions, Reduction, Stop, Strategy,
    check::{Certificate, Minimality, certify},
    eval::{EvalOptions, Evaluator},
    passes::{Schedule, UnitPass},
    policy::{DDMin, Policy, ProbDD},
    report::Counter,
    text::{Granularity, Units},
};
use std::cell::Cell;
use std::path::Path;
use std::process::{Command, Stdio};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

/// Compiles `source` in a fresh directory and checks what the program prints.
fn greets(source: &[u8]) -> bool {
    let dir = tempfile::tempdir().expect("a temp dir");
    let src = dir.path().join("greeter.cpp");
    std::fs::write(&src, source).expect("write the candidate");
    let exe = dir.path().join("a.out");
    let compiled = Command::new("timeout")
        .args([
            "20",
            "g++",
            "-std=c++17",
            "-O0",
            "-w",
            "-ftrivial-auto-var-init=pattern",
            "-x",
            "c++",
        ])
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !compiled {
        return false;
    }
    (0..3).all(|_| {
        let run = Command::new("timeout")
            .arg("2")
            .arg(&exe)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output();
        match run {
            Ok(out) if out.status.code() != Some(124) => {
                out.stdout == b"Hello, world!" || out.stdout == b"Hello, world!\n"
            }
            _ => false,
        }
    })
}

/// Whether `bytes` is interval-minimal at `g`, tried through a fresh evaluator with a budget:
/// narrowest deletions first, so a result that is not minimal is usually refuted quickly.
fn certify_interval(bytes: &[u8], g: Granularity, jobs: usize, budget: u64) -> String {
    let oracle = FnOracle::new(greets);
    let options = EvalOptions {
        jobs,
        max_tests: Some(budget),
        ..EvalOptions::default()
    };
    let mut eval = Evaluator::new(&oracle, options);
    match certify(
        &mut eval,
        &Units::cut(bytes, g),
        Minimality::IntervalMinimal,
    ) {
        Ok(Certificate::Minimal { tests, .. }) => format!("yes ({tests} tests to check)"),
        Ok(Certificate::NotMinimal { deleted, tests, .. }) => format!(
            "no: units {}..{} deletable ({tests} tests to find)",
            deleted.0, deleted.1
        ),
        Err(_) => format!("unknown after {} tests", eval.stats().tests_run),
    }
}

fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .find_map(|a| a.strip_prefix(name).and_then(|v| v.strip_prefix('=')))
        .map(str::to_string)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let jobs: usize = flag(&args, "--jobs").map_or(2, |j| j.parse().expect("a number of jobs"));
    let max_tests: Option<u64> =
        flag(&args, "--max-tests").map(|n| n.parse().expect("a number of tests"));
    let check_tests: u64 =
        flag(&args, "--check-tests").map_or(30_000, |n| n.parse().expect("a number of tests"));
    let input_path = flag(&args, "--input").unwrap_or("examples/hello/hello.cpp".to_string());
    let input = std::fs::read(&input_path).expect("read the input (run from the repository)");
    let mut granularities: Vec<Granularity> = args.iter().filter_map(|a| a.parse().ok()).collect();
    if granularities.is_empty() {
        granularities.push(Granularity::Tokens);
    }
    let mut strategies: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| ["ddmin", "probdd", "dfa"].contains(a))
        .collect();
    if strategies.is_empty() {
        strategies = vec!["ddmin", "probdd", "dfa"];
    }
    assert!(
        greets(&input),
        "the input must compile and greet (is g++ installed?)"
    );
    let stem = Path::new(&input_path)
        .file_stem()
        .map_or("input".into(), |s| s.to_string_lossy().into_owned());
    let out_dir = Path::new("target/hello_world");
    std::fs::create_dir_all(out_dir).expect("an output directory");
    println!("{input_path}: {} bytes, jobs {jobs}", input.len());
    println!(
        "| units | strategy | tests | final bytes | interval-minimal | wall s | SAT s | solves | accepted path / interval / fallback / span |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for &g in &granularities {
        for &strategy in &strategies {
            let oracle = FnOracle::new(greets);
            let options = ReduceOptions {
                jobs,
                max_tests,
                first_runs: 1,
                verify: false,
                ..ReduceOptions::default()
            };
            let mut reduction = Reduction::new(input.clone(), &oracle, options);
            // The dfa schedule starts with exactly the ddmin run: report it as well.
            let first_pass: Rc<Cell<Option<(u64, u64, f64)>>> = Rc::new(Cell::new(None));
            let seen = first_pass.clone();
            let started = Instant::now();
            let initial = input.len() as u64;
            reduction.on_event(move |e| match e {
                Event::PassDone { stats } if seen.get().is_none() => {
                    let left = initial - stats.bytes_removed;
                    let secs = started.elapsed().as_secs_f64();
                    eprintln!(
                        "{}: {} tests, {left} bytes, {secs:.0} s",
                        stats.name, stats.tests
                    );
                    seen.set(Some((stats.tests, left, secs)));
                }
                Event::Reduced { pass, bytes, .. } => eprintln!("{pass}: {} bytes", bytes.len()),
                _ => {}
            });
            let one = |make: fn() -> Box<dyn Policy>| Schedule {
                passes: vec![Box::new(UnitPass::new(g, Arc::new(make)))],
                to_fixpoint: false,
            };
            let mut schedule = match strategy {
                "ddmin" => one(|| Box::new(DDMin)),
                "probdd" => one(|| Box::new(ProbDD::default())),
                _ => Strategy::named("dfa")
                    .unwrap()
                    .with_units(Some(g))
                    .schedule(),
            };
            let result = reduction
                .run(&mut schedule)
                .expect("the input is interesting");
            let finished = match &result.report.stopped {
                None => true,
                Some(Stop::Budget) => false,
                Some(other) => panic!("the test could not run: {other}"),
            };
            let wall = started.elapsed().as_secs_f64();
            let report = &result.report;
            let c = |k: Counter| report.counters.get(&k).map_or(0.0, |f| f.value());
            let minimal = if !finished {
                "not reached (budget)".to_string()
            } else if strategy == "dfa" {
                if c(Counter::DfaIntervalMinimal) > 0.0 {
                    "yes (proved by the pass)".to_string()
                } else {
                    "no".to_string()
                }
            } else {
                certify_interval(&result.best, g, jobs, check_tests)
            };
            if strategy == "dfa"
                && let Some((tests, bytes, secs)) = first_pass.get()
            {
                println!(
                    "| {g} | ddmin (first pass of dfa) | {tests} | {bytes} | | {secs:.0} | | | |"
                );
            }
            let path = out_dir.join(format!("{stem}-{strategy}-{g}.cpp"));
            std::fs::write(&path, &result.best).expect("write the result");
            println!(
                "| {g} | {strategy} | {} | {} | {minimal} | {wall:.0} | {:.2} | {} | {} / {} / {} / {} |",
                report.eval.tests_run,
                report.final_bytes,
                c(Counter::DfaSatSeconds),
                c(Counter::DfaSolves),
                c(Counter::DfaAcceptedShortestPath),
                c(Counter::DfaAcceptedInterval),
                c(Counter::DfaAcceptedFallback),
                c(Counter::DfaAcceptedSpan),
            );
        }
    }
}
