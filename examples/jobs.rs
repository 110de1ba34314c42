//! Wall time of --jobs 1, 2 and 4 for ddmin, ProbDD and the default schedule.
//!
//!     cargo run --release --example jobs [sleep|cpu|both]
//!
//! The input is 200 lines `step 0` .. `step 199`; the test, a real script run through the
//! command oracle, needs steps 37, 118 and 161. The `sleep` test sleeps 50 ms per run (the
//! test's time dominates, as with a compiler); the `cpu` test spins for about 20 ms of CPU.
//! Every run must give the same result whatever the job count; the program checks that and
//! prints tests, wall time and the ratio to one job.

use myhill::{ReduceOptions, Reduction, Strategy, TestCommand, TestSpec};
use std::os::unix::fs::PermissionsExt;
use std::time::Instant;

const CHECK: &str = r#"awk 'BEGIN{w[0]="step 37";w[1]="step 118";w[2]="step 161";k=0} k<3&&$0==w[k]{k++} END{exit(k==3?0:1)}' "$1""#;

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "both".into());
    let input: Vec<u8> = (0..200)
        .flat_map(|i| format!("step {i}\n").into_bytes())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let scripts = [
        ("sleep50ms", format!("sleep 0.05\n{CHECK}")),
        (
            "cpu20ms",
            format!("i=0; while [ $i -lt 4000 ]; do i=$((i+1)); done\n{CHECK}"),
        ),
    ];
    println!(
        "cores={}",
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    );
    for (oracle_name, body) in scripts {
        if mode != "both" && !oracle_name.starts_with(&mode) {
            continue;
        }
        let script = dir.path().join(format!("{oracle_name}.sh"));
        std::fs::write(&script, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        for strategy in ["ddmin", "probdd", "default"] {
            let mut base = None;
            let mut first_result: Option<Vec<u8>> = None;
            for jobs in [1, 2, 4] {
                let oracle = TestCommand::new(TestSpec::new(
                    vec![script.to_string_lossy().into_owned()],
                    "input.txt",
                ));
                let units = if strategy == "default" {
                    None
                } else {
                    Some(myhill::text::Granularity::Lines)
                };
                let mut schedule = Strategy::named(strategy)
                    .unwrap()
                    .with_units(units)
                    .schedule();
                let options = ReduceOptions {
                    jobs,
                    ..ReduceOptions::default()
                };
                let mut reduction = Reduction::new(input.clone(), &oracle, options);
                let started = Instant::now();
                let finished = reduction.run(&mut schedule).unwrap();
                let wall = started.elapsed().as_secs_f64();
                let report = &finished.report;
                let base_wall = *base.get_or_insert(wall);
                match &first_result {
                    None => first_result = Some(finished.best.clone()),
                    Some(r) => {
                        assert_eq!(r, &finished.best, "the result changed with --jobs {jobs}")
                    }
                }
                println!(
                    "oracle={oracle_name} strategy={strategy} jobs={jobs} tests={} wasted={} wall={wall:.2}s ratio={:.2} final_bytes={}",
                    report.eval.tests_run,
                    report.eval.speculative_wasted,
                    wall / base_wall,
                    finished.best.len()
                );
            }
        }
    }
}
