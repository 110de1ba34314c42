//! The C++ hello world of the DFA-induction post, reduced in-process with a real test: the
//! candidate must compile with `g++ -std=c++17` and the program must print exactly
//! `Hello, world!` (one trailing newline allowed). Prints, per strategy and granularity,
//! the tests run, the final size and whether the result is interval-minimal.
//!
//!     cargo run --release --example hello_world                   # tokens, all strategies
//!     cargo run --release --example hello_world -- bytes dfa      # one granularity, one strategy
//!     cargo run --release --example hello_world -- --check tokens # brute-force the others too
//!
//! Needs g++ on the PATH. A compile takes 0.1-0.7 s, so a full run takes tens of minutes;
//! `--jobs=N` (default 2) runs that many tests at once without changing any result.

use myhill::{
    DDMin, DfaOptions, Driver, EvalOptions, Event, FnOracle, Granularity, Policy, ProbDD, Schedule,
    UnitPass, Units, dfa_schedule,
};
use std::cell::Cell;
use std::path::Path;
use std::process::{Command, Stdio};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

const GREETER: &[u8] = include_bytes!("hello/hello.cpp");

/// Compiles `source` in a fresh directory and checks what the program prints.
fn greets(source: &[u8]) -> bool {
    let dir = tempfile::tempdir().expect("a temp dir");
    let src = dir.path().join("greeter.cpp");
    std::fs::write(&src, source).expect("write the candidate");
    let exe = dir.path().join("a.out");
    let compiled = Command::new("timeout")
        .args(["20", "g++", "-std=c++17", "-O0", "-w", "-x", "c++"])
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
}

fn interval_minimal(bytes: &[u8], g: Granularity) -> bool {
    let units = Units::cut(bytes, g);
    let n = units.len() as u32;
    (0..=n).all(|j| {
        (0..j).all(|i| {
            let mut cand = bytes[..units.offset(i)].to_vec();
            cand.extend_from_slice(&bytes[units.offset(j)..]);
            !greets(&cand)
        })
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.iter().any(|a| a == "--check");
    let jobs = args
        .iter()
        .find_map(|a| a.strip_prefix("--jobs="))
        .map_or(2, |j| j.parse().expect("a number of jobs"));
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
        greets(GREETER),
        "the original must compile and greet (is g++ installed?)"
    );
    let out_dir = Path::new("target/hello_world");
    std::fs::create_dir_all(out_dir).expect("an output directory");
    println!(
        "| units | strategy | tests | final bytes | interval-minimal | wall s | SAT s | solves |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for &g in &granularities {
        for &strategy in &strategies {
            let oracle = FnOracle::new(greets);
            let options = EvalOptions {
                jobs,
                ..EvalOptions::default()
            };
            let mut driver = Driver::new(GREETER.to_vec(), &oracle, options);
            // The dfa schedule starts with exactly the ddmin run: report it as well.
            let first_pass: Rc<Cell<Option<(u64, u64, f64)>>> = Rc::new(Cell::new(None));
            let seen = first_pass.clone();
            let started = Instant::now();
            driver.set_listener(move |e| match e {
                Event::PassDone { stats } if seen.get().is_none() => {
                    let left = GREETER.len() as u64 - stats.bytes_removed;
                    let secs = started.elapsed().as_secs_f64();
                    eprintln!(
                        "{}: {} tests, {left} bytes, {secs:.0} s",
                        stats.name, stats.tests
                    );
                    seen.set(Some((stats.tests, left, secs)));
                }
                Event::Reduced { pass, bytes } => eprintln!("{pass}: {} bytes", bytes.len()),
                _ => {}
            });
            let one = |make: fn() -> Box<dyn Policy>| Schedule {
                passes: vec![Box::new(UnitPass::new(g, Arc::new(make)))],
                to_fixpoint: false,
            };
            let mut schedule = match strategy {
                "ddmin" => one(|| Box::new(DDMin)),
                "probdd" => one(|| Box::new(ProbDD::default())),
                _ => dfa_schedule(g, DfaOptions::default()),
            };
            schedule.run(&mut driver).expect("the test runs");
            let wall = started.elapsed().as_secs_f64();
            let report = driver.report();
            let c = |k: &str| report.counters.get(k).copied().unwrap_or(0.0);
            let minimal = if strategy == "dfa" {
                (c("dfa.interval_minimal") > 0.0).to_string()
            } else if check {
                interval_minimal(driver.best(), g).to_string()
            } else {
                "not checked".to_string()
            };
            if strategy == "dfa"
                && let Some((tests, bytes, secs)) = first_pass.get()
            {
                println!(
                    "| {g} | ddmin (first pass of dfa) | {tests} | {bytes} | not checked | {secs:.0} | | |"
                );
            }
            let path = out_dir.join(format!("{strategy}-{g}.cpp"));
            std::fs::write(&path, driver.best()).expect("write the result");
            println!(
                "| {g} | {strategy} | {} | {} | {minimal} | {wall:.0} | {:.2} | {} |",
                report.eval.tests_run,
                report.final_bytes,
                c("dfa.sat_seconds"),
                c("dfa.solves"),
            );
        }
    }
}
