//! Wall time at many jobs with a slow test: the `myhill` binary on seed-200 with batches.
//!
//!     cargo build --release && cargo run --release --example wide -- [sleep|cpu] [JOBS,...] [--batch N] [--launcher 'CMD'] [--repeat R]
//!
//! The input is 200 lines `step 0` .. `step 199`; the test needs steps 37, 118 and 161 (the
//! shared seed-200 case). The `sleep` test sleeps 1 s per run (a slow remote test: a build on
//! another machine); the `cpu` test spins a shell loop for about 0.3 s of CPU. Each job count
//! runs `myhill reduce -j N --batch B` (default jobs 1,16 and batch 16), optionally through
//! `--launcher` (e.g. `srun --quiet --ntasks=1 --`, with the work directory beside the input).
//! With `--repeat R` each configuration runs R times and the median wall time is kept. Prints
//! wall time, tests and the ratio to the first job count, and checks that every job count
//! gives the same result. Also runs `-j 1` without batches, the default a user starts from.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

const CHECK: &str = r#"LC_ALL=C awk 'BEGIN{w[0]="step 37";w[1]="step 118";w[2]="step 161";k=0} k<3&&$0==w[k]{k++} END{exit(k==3?0:1)}' "$1""#;

struct Run {
    wall: f64,
    tests: u64,
    result: Vec<u8>,
}

fn run_once(dir: &Path, script: &Path, jobs: usize, batch: usize, launcher: Option<&str>) -> Run {
    let bin = std::env::var("MYHILL").unwrap_or_else(|_| "target/release/myhill".into());
    let out = dir.join(format!("out-{jobs}-{batch}"));
    let stats = dir.join("stats.json");
    let mut cmd = Command::new(&bin);
    cmd.args(["reduce", "-q", "--no-run-dir", "-j", &jobs.to_string()])
        .args(["--batch", &batch.to_string()])
        .arg("-o")
        .arg(&out)
        .arg("--stats-json")
        .arg(&stats);
    if let Some(l) = launcher {
        let work = dir.join("work");
        std::fs::create_dir_all(&work).unwrap();
        cmd.args(["--launcher", l]).arg("--work-dir").arg(&work);
    }
    cmd.arg(script).arg(dir.join("input.txt"));
    let started = Instant::now();
    let status = cmd
        .status()
        .expect("run myhill (build it with cargo build --release)");
    let wall = started.elapsed().as_secs_f64();
    assert!(status.success(), "myhill failed: {status}");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&stats).unwrap()).unwrap();
    Run {
        wall,
        tests: json["tests_run"].as_u64().unwrap_or(0),
        result: std::fs::read(&out).unwrap(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let mode = args.first().cloned().unwrap_or_else(|| "sleep".into());
    let jobs: Vec<usize> = args
        .get(1)
        .filter(|a| !a.starts_with("--"))
        .map(|a| a.split(',').map(|j| j.parse().unwrap()).collect())
        .unwrap_or_else(|| vec![1, 16]);
    let batch: usize = flag("--batch").map_or(16, |b| b.parse().unwrap());
    let repeat: usize = flag("--repeat").map_or(1, |r| r.parse().unwrap());
    let launcher = flag("--launcher");
    let dir = tempfile::tempdir_in(".").unwrap();
    let input: String = (0..200).map(|i| format!("step {i}\n")).collect();
    std::fs::write(dir.path().join("input.txt"), input).unwrap();
    let body = match mode.as_str() {
        "sleep" => format!("sleep 1\n{CHECK}"),
        "cpu" => format!("i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done\n{CHECK}"),
        other => panic!("unknown test {other:?}: sleep or cpu"),
    };
    let script = dir.path().join("t.sh");
    std::fs::write(&script, format!("#!/bin/bash\n{body}\n")).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    println!(
        "test={mode} batch={batch} launcher={} cores={} repeat={repeat}",
        launcher.as_deref().unwrap_or("local"),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let median = |jobs: usize, batch: usize| {
        let mut runs: Vec<Run> = (0..repeat)
            .map(|_| run_once(dir.path(), &script, jobs, batch, launcher.as_deref()))
            .collect();
        runs.sort_by(|a, b| a.wall.total_cmp(&b.wall));
        runs.swap_remove(runs.len() / 2)
    };
    let plain = median(1, 1);
    println!(
        "jobs 1, no batch: {:.2} s, {} tests, result {} bytes",
        plain.wall,
        plain.tests,
        plain.result.len()
    );
    let mut first: Option<Run> = None;
    for &j in &jobs {
        let run = median(j, batch);
        let (ratio, plain_ratio) = (
            first.as_ref().map_or(1.0, |f| run.wall / f.wall),
            run.wall / plain.wall,
        );
        println!(
            "jobs {j}, batch {batch}: {:.2} s, {} tests, result {} bytes; {:.3}x of jobs {}, {:.3}x of jobs 1 without batches",
            run.wall,
            run.tests,
            run.result.len(),
            ratio,
            jobs[0],
            plain_ratio
        );
        if let Some(f) = &first {
            assert_eq!(f.result, run.result, "jobs {j} gave another result");
            assert_eq!(f.tests, run.tests, "jobs {j} counted other tests");
        } else {
            first = Some(run);
        }
    }
}
