//! Wall time of --jobs 1, 2 and 4 for ddmin, ProbDD and the default schedule.
//!
//!     cargo run --release --example jobs [sleep|cpu|both]
//!
//! The input is 200 lines `step 0` .. `step 199`; the in-process oracle needs steps 37, 118 and
//! 161. The `sleep` oracle sleeps 50 ms per run (the test's time dominates, as with a compiler);
//! the `cpu` oracle spins for about 20 ms. Every run must give the same result whatever the job
//! count; the program checks that and prints tests, wall time and the speed-up over one job.

use myhill::{Driver, EvalOptions, FnOracle};
use std::time::{Duration, Instant};

fn interesting(c: &[u8]) -> bool {
    let text = String::from_utf8_lossy(c);
    let mut want = ["step 37", "step 118", "step 161"].into_iter().peekable();
    for line in text.lines() {
        if want.peek() == Some(&line) {
            want.next();
        }
    }
    want.peek().is_none()
}

fn spin(d: Duration) {
    let t = Instant::now();
    let mut x = 0u64;
    while t.elapsed() < d {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        std::hint::black_box(x);
    }
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "both".into());
    let input: Vec<u8> = (0..200)
        .flat_map(|i| format!("step {i}\n").into_bytes())
        .collect();
    type Check = fn(&[u8]) -> bool;
    let oracles: Vec<(&str, Check)> = vec![
        ("sleep50ms", |c| {
            std::thread::sleep(Duration::from_millis(50));
            interesting(c)
        }),
        ("cpu20ms", |c| {
            spin(Duration::from_millis(20));
            interesting(c)
        }),
    ];
    println!(
        "cores={}",
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    );
    for (oracle_name, f) in oracles {
        if mode != "both" && !oracle_name.starts_with(&mode) {
            continue;
        }
        for strategy in ["ddmin", "probdd", "default"] {
            let mut base = None;
            let mut first_result: Option<Vec<u8>> = None;
            for jobs in [1, 2, 4] {
                let oracle = FnOracle::new(f);
                let units = if strategy == "default" {
                    None
                } else {
                    Some(myhill::Granularity::Lines)
                };
                let mut schedule = myhill::strategy::schedule(strategy, units).unwrap();
                let options = EvalOptions {
                    jobs,
                    ..EvalOptions::default()
                };
                let mut driver = Driver::new(input.clone(), &oracle, options);
                let started = Instant::now();
                schedule.run(&mut driver).unwrap();
                let wall = started.elapsed().as_secs_f64();
                let report = driver.report();
                let base_wall = *base.get_or_insert(wall);
                match &first_result {
                    None => first_result = Some(driver.best().to_vec()),
                    Some(r) => {
                        assert_eq!(r, driver.best(), "the result changed with --jobs {jobs}")
                    }
                }
                println!(
                    "oracle={oracle_name} strategy={strategy} jobs={jobs} tests={} wasted={} wall={wall:.2}s ratio={:.2} final_bytes={}",
                    report.eval.tests_run,
                    report.eval.speculative_wasted,
                    wall / base_wall,
                    driver.best().len()
                );
            }
        }
    }
}
