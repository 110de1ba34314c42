//! How much time myhill itself spends per oracle call on a large input.
//!
//!     cargo run --release --example scale [UNITS] [NEEDED]
//!
//! Builds UNITS (default 100,000) pseudo-random bytes in which NEEDED (default 10) scattered
//! positions hold the only 0xFF bytes; the in-process oracle is interesting iff all of them
//! survive. Runs DDMin and ProbDD at byte units with the cache on, and prints the oracle calls,
//! the wall time, the time inside the oracle, and the rest divided by the calls.

use myhill::{DDMin, Driver, EvalOptions, FnOracle, Granularity, Policy, ProbDD, Units};
use std::sync::Mutex;
use std::time::{Duration, Instant};

fn input(units: usize, needed: usize) -> Vec<u8> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut bytes: Vec<u8> = (0..units)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % 255) as u8
        })
        .collect();
    for k in 0..needed {
        bytes[(k * 2 + 1) * units / (2 * needed)] = 0xFF;
    }
    bytes
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let units = args.first().copied().unwrap_or(100_000);
    let needed = args.get(1).copied().unwrap_or(10);
    let data = input(units, needed);
    println!("input: {units} byte units, {needed} needed");
    let policies: Vec<Box<dyn Policy>> = vec![Box::new(DDMin), Box::new(ProbDD::new(0.1))];
    for mut policy in policies {
        let in_oracle = Mutex::new(Duration::ZERO);
        let oracle = FnOracle::new(|c: &[u8]| {
            let t = Instant::now();
            let ok = c.iter().filter(|&&b| b == 0xFF).count() == needed;
            *in_oracle.lock().unwrap() += t.elapsed();
            ok
        });
        let started = Instant::now();
        let mut driver = Driver::new(data.clone(), &oracle, EvalOptions::default());
        let cut = Units::cut(&data, Granularity::Bytes);
        driver.run_policy(&cut, &mut policy).unwrap();
        let wall = started.elapsed();
        let report = driver.report();
        let oracle_time = *in_oracle.lock().unwrap();
        let calls = report.eval.tests_run;
        let own = wall.saturating_sub(oracle_time);
        println!(
            "{:<7} calls={} cache_hits={} final_bytes={} wall={:.3}s oracle={:.3}s myhill_per_call={:.1}us",
            policy.name(),
            calls,
            report.eval.cache_hits,
            driver.best().len(),
            wall.as_secs_f64(),
            oracle_time.as_secs_f64(),
            own.as_secs_f64() * 1e6 / (calls + report.eval.cache_hits).max(1) as f64,
        );
        assert_eq!(driver.best().len(), needed);
    }
}
