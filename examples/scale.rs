//! How much time myhill itself spends per oracle call on a large input.
//!
//!     cargo run --release --example scale [UNITS] [NEEDED]
//!     cargo run --release --example scale -- schedule [MB...] [--max-tests N]
//!                                                 [--chunks-from BYTES|never] [--keep F]
//!
//! Builds UNITS (default 100,000) pseudo-random bytes in which NEEDED (default 10) scattered
//! positions hold the only 0xFF bytes; the in-process oracle is interesting iff all of them
//! survive. Runs DDMin and ProbDD at byte units with the cache on, and prints the oracle calls,
//! the wall time, the time inside the oracle, and the rest divided by the calls.
//!
//! `schedule` runs the default schedule, `-j 1`, on C-like text of each size in MB (default
//! 1, 10 and 50): declarations, structs, functions and namespace blocks, of which two lines
//! (a typedef and the function that uses it) make the input interesting, with the braces
//! balanced. It stops after N tests (default 300) and prints, per size: tests, final bytes,
//! myhill's own CPU per test (the process's CPU time, less the oracle's own thread CPU time,
//! over the tests), the process's peak resident memory so far (`VmHWM`; run one size per
//! process to read each size's own peak), then each pass's successes and tests.
//! `--chunks-from` runs the chunk pass from that size instead of the default schedule's
//! threshold (`never`: not at all), to compare schedules. `--keep F` makes the test also
//! demand at least the fraction F of the input's bytes (say 0.9): the input then stays large
//! however long the run, the worst case for memory and for the passes' own work.

use bstr::ByteSlice;
use myhill::{
    FnOracle, ReduceOptions, Reduction, Strategy,
    eval::EvalOptions,
    passes::{Cx, TopChunks},
    policy::{DDMin, Policy, ProbDD},
    text::{Granularity, Units},
};
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

/// Deterministic C-like text of about `bytes` bytes with the two needed lines inside.
fn c_like(bytes: usize) -> Vec<u8> {
    let mut out = String::with_capacity(bytes + 4096);
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut i = 0u64;
    let mut typedef_done = false;
    let mut user_done = false;
    while out.len() < bytes {
        if !typedef_done && out.len() > bytes * 3 / 10 {
            out.push_str("typedef unsigned kept_t;\n");
            typedef_done = true;
        }
        if !user_done && out.len() > bytes * 7 / 10 {
            out.push_str("int keep_me(kept_t x) { return x < 0; }\n");
            user_done = true;
        }
        match next() % 8 {
            0 => {
                out.push_str(&format!("namespace n{i} {{\n"));
                for k in 0..(next() % 40) {
                    out.push_str(&format!("  int g{i}_{k}(int a) {{ return a * {k}; }}\n"));
                }
                out.push_str("}\n");
            }
            1 | 2 => {
                out.push_str(&format!("struct s{i} {{\n"));
                for k in 0..(next() % 12) {
                    out.push_str(&format!("  long m{k}; // member {k}\n"));
                }
                out.push_str("};\n");
            }
            3..=5 => out.push_str(&format!(
                "static int f{i}(int a, int b)\n{{\n  if (a > b) {{ return a - {}; }}\n  return b + a;\n}}\n",
                next() % 1000
            )),
            _ => out.push_str(&format!("extern const char *v{i} = \"{}\";\n", next() % 99_991)),
        }
        i += 1;
    }
    out.into_bytes()
}

/// CPU time of this process so far (`thread`: of the calling thread only).
fn cpu_time(thread: bool) -> Duration {
    let clock = if thread {
        libc::CLOCK_THREAD_CPUTIME_ID
    } else {
        libc::CLOCK_PROCESS_CPUTIME_ID
    };
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec we own.
    unsafe { libc::clock_gettime(clock, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Peak resident memory of this process so far, in MiB.
fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn schedule(args: &[String]) {
    let mut sizes: Vec<f64> = Vec::new();
    let mut max_tests = 300u64;
    // From what size the chunk pass runs (None: the default schedule's own threshold;
    // usize::MAX: never).
    let mut chunks_from: Option<usize> = None;
    let mut keep = 0.0f64;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--max-tests" {
            max_tests = it
                .next()
                .and_then(|n| n.parse().ok())
                .expect("a number of tests");
        } else if a == "--keep" {
            keep = it
                .next()
                .and_then(|f| f.parse().ok())
                .expect("a fraction of the input");
        } else if a == "--chunks-from" {
            let n = it.next().expect("a size in bytes, or never");
            chunks_from = Some(if n == "never" {
                usize::MAX
            } else {
                n.parse().expect("a size in bytes")
            });
        } else {
            sizes.push(a.parse().expect("a size in MB"));
        }
    }
    if sizes.is_empty() {
        sizes = vec![1.0, 10.0, 50.0];
    }
    for size in sizes {
        let data = c_like((size * f64::from(1 << 20)) as usize);
        let least = (keep * data.len() as f64) as usize;
        let in_oracle = Mutex::new(Duration::ZERO);
        let oracle = FnOracle::new(|c: &[u8]| {
            if c.len() < least {
                return false;
            }
            let t = cpu_time(true);
            let has = |needle: &str| c.find(needle).is_some();
            let balanced = c.iter().filter(|&&b| b == b'{').count()
                == c.iter().filter(|&&b| b == b'}').count();
            let ok = balanced && has("typedef unsigned kept_t;") && has("keep_me(kept_t x)");
            *in_oracle.lock().unwrap() += cpu_time(true) - t;
            ok
        });
        let options = ReduceOptions {
            max_tests: Some(max_tests),
            ..ReduceOptions::default()
        };
        let (cpu0, wall0) = (cpu_time(false), Instant::now());
        let initial = data.len();
        let mut reduction = Reduction::new(data, &oracle, options);
        let mut plan = Strategy::named("default").unwrap().schedule();
        if let Some(from) = chunks_from
            && let Some(i) = plan.names().iter().position(|n| n == "chunks/forms")
        {
            plan.passes[i] = Box::new(TopChunks::new(from));
        }
        let finished = reduction.run(&mut plan).expect("the input is interesting");
        let (cpu, wall) = (cpu_time(false) - cpu0, wall0.elapsed());
        let oracle_time = *in_oracle.lock().unwrap();
        let tests = finished.report.eval.tests_run.max(1);
        println!(
            "{size:>5} MB: {initial} -> {} bytes in {tests} tests, wall {:.1}s, cpu {:.1}s, oracle {:.1}s, myhill_cpu_per_test={:.2}ms, peak_rss={:.0}MiB",
            finished.best.len(),
            wall.as_secs_f64(),
            cpu.as_secs_f64(),
            oracle_time.as_secs_f64(),
            cpu.saturating_sub(oracle_time).as_secs_f64() * 1e3 / tests as f64,
            peak_rss_mib(),
        );
        let passes: Vec<String> = finished
            .report
            .passes
            .iter()
            .filter(|p| p.tests > 0)
            .map(|p| format!("{} {}/{}", p.name, p.successes, p.tests))
            .collect();
        println!("         passes (successes/tests): {}", passes.join(", "));
    }
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if raw.first().map(String::as_str) == Some("schedule") {
        return schedule(&raw[1..]);
    }
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
        let mut driver = Cx::new(data.clone(), &oracle, EvalOptions::default());
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
