//! myhill's own cost per test of a command: temp dir, write, spawn, wait, kill, clean-up, cache.
//!
//!     cargo run --release --example overhead [TESTS] [BYTES]
//!
//! Runs /bin/true TESTS times (default 2,000) on a BYTES-byte candidate (default 10,000) through
//! the command oracle and the evaluator (cache on, every candidate distinct), then spawns
//! /bin/true as many times directly, and prints the difference per test.

use myhill::eval::{EvalOptions, Evaluator};
use myhill::{TestCommand, TestSpec};
use std::process::{Command, Stdio};
use std::time::Instant;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let tests = args.first().copied().unwrap_or(2000);
    let bytes = args.get(1).copied().unwrap_or(10_000);

    let oracle = TestCommand::new(TestSpec::new(vec!["/bin/true".into()], "input.c"));
    let mut eval = Evaluator::new(&oracle, EvalOptions::default());
    let mut candidate = vec![b'a'; bytes];
    let started = Instant::now();
    for i in 0..tests {
        candidate[..8].copy_from_slice(&(i as u64).to_le_bytes());
        eval.test(&candidate).unwrap();
    }
    let through_myhill = started.elapsed();
    assert_eq!(eval.stats().tests_run, tests as u64);

    let started = Instant::now();
    for _ in 0..tests {
        Command::new("/bin/true")
            .arg("input.c")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
    }
    let direct = started.elapsed();
    let per = |d: std::time::Duration| d.as_secs_f64() * 1e6 / tests as f64;
    println!(
        "tests={tests} candidate_bytes={bytes} through_myhill={:.0}us/test direct_spawn={:.0}us/test overhead={:.0}us/test",
        per(through_myhill),
        per(direct),
        per(through_myhill) - per(direct)
    );
}
