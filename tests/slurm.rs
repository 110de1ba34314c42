//! End to end on a real Slurm cluster: a reduction whose tests run through
//! `--launcher 'srun --quiet --ntasks=1 --'` at `-j 8` gives the same result as a local one,
//! every test runs in a job of its own, and no job is left behind (cancelled tests' steps
//! included). Without a reachable cluster the test says so and passes, unless
//! `MYHILL_REQUIRE_SLURM` is set (`.ci/run` sets it after starting one with `.ci/slurm-up.sh`).

mod common;

use common::Case;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const SKIPPED: &str = "skipped: no Slurm cluster; .ci/run starts one with .ci/slurm-up.sh";

/// Why no Slurm cluster can be used here, if none can.
fn no_cluster() -> Option<String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for program in ["srun", "squeue", "sinfo"] {
        if !std::env::split_paths(&path).any(|d| d.join(program).is_file()) {
            return Some(format!("{program} is not on PATH"));
        }
    }
    for probe in [
        &["sinfo", "-h"][..],
        &["srun", "--quiet", "-n1", "--", "/bin/true"][..],
    ] {
        let out = Command::new("timeout")
            .arg("10")
            .args(probe)
            .current_dir("/")
            .stdin(Stdio::null())
            .output();
        match out {
            Ok(out) if out.status.success() => {}
            Ok(out) => {
                return Some(format!(
                    "`{}` failed ({}): {}",
                    probe.join(" "),
                    out.status,
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
            Err(e) => return Some(format!("cannot run `timeout 10 {}`: {e}", probe.join(" "))),
        }
    }
    None
}

/// Runs a command with a deadline; past it, myhill gets SIGTERM (so srun cancels its steps),
/// and the test fails.
fn run_bounded(mut cmd: Command, log: &Path, limit: Duration) -> (Output, Duration) {
    let started = Instant::now();
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            common::signal(&child, libc::SIGTERM);
            std::thread::sleep(Duration::from_secs(5));
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "myhill ran longer than {limit:?}; its stderr:\n{}",
                std::fs::read_to_string(log).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = started.elapsed();
    let out = Output {
        status,
        stdout: Vec::new(),
        stderr: std::fs::read(log).unwrap(),
    };
    (out, elapsed)
}

/// A job id from inside a job run in `dir` (which the nodes must see: `file` is read there).
fn job_id(dir: &Path, name: &str, file: &str) -> u64 {
    let out = Command::new("timeout")
        .args(["20", "srun", "--quiet", "-n1", "-J", name, "--", "sh", "-c"])
        .arg(format!("cat {file} >/dev/null && echo $SLURM_JOB_ID"))
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    text.trim().parse().unwrap_or_else(|_| {
        panic!(
            "a job could not read {} ({}): is the case directory (TMPDIR) on storage the nodes \
             share? stdout {text:?}, stderr {:?}",
            dir.join(file).display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn squeue(args: &[&str]) -> String {
    let out = Command::new("timeout")
        .arg("10")
        .arg("squeue")
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "squeue failed: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn figure(stats: &serde_json::Value, name: &str) -> u64 {
    stats[name]
        .as_u64()
        .unwrap_or_else(|| panic!("no {name} in {stats}"))
}

#[test]
fn a_reduction_through_srun_matches_the_local_one_and_leaves_no_job() {
    if let Some(why) = no_cluster() {
        // CI starts a cluster first and says so: there, a missing one is a failure.
        let required = std::env::var("MYHILL_REQUIRE_SLURM").is_ok_and(|v| !v.is_empty());
        assert!(!required, "MYHILL_REQUIRE_SLURM is set but: {why}");
        // Past the test harness's capture, so that the skip shows in a plain `cargo test`.
        let _ = writeln!(std::io::stderr(), "slurm: {SKIPPED} ({why})");
        return;
    }
    let case = Case::new();
    let input: String = (1..=120)
        .map(|i| format!("setting_{i} = {};\n", i * 37 % 101))
        .collect();
    case.file("in.txt", input.as_bytes());
    // Interesting while three settings survive whole; each run logs the job it runs in.
    case.script(
        "t.sh",
        &format!(
            "echo \"${{SLURM_JOB_ID:-local}}\" >> {}\nsleep 0.2\n\
             grep -qx 'setting_17 = 23;' \"$1\" && grep -qx 'setting_64 = 45;' \"$1\" && \
             grep -qx 'setting_101 = 0;' \"$1\"",
            case.path("calls").display()
        ),
    );
    std::fs::create_dir(case.path("work")).unwrap();
    // Our jobs carry a name of their own, so that others' jobs on the cluster do not count.
    let name = format!("myhill-test-{}", std::process::id());
    let limit = Duration::from_secs(120);

    let (local, local_wall) = run_bounded(
        case.command(&[
            "reduce",
            "-j8",
            "-o",
            "local.txt",
            "--stats-json",
            "local.json",
            "./t.sh",
            "in.txt",
        ]),
        &case.path("local.log"),
        limit,
    );
    assert!(local.status.success(), "{}", common::stderr(&local));
    std::fs::rename(case.path("calls"), case.path("calls-local")).unwrap();

    let first_job = job_id(case.dir.path(), &name, "in.txt");
    let launcher = format!("srun --quiet --ntasks=1 --job-name={name} --");
    let work = case.path("work");
    let (out, srun_wall) = run_bounded(
        case.command(&[
            "reduce",
            "--launcher",
            &launcher,
            "--work-dir",
            work.to_str().unwrap(),
            "-j8",
            "-o",
            "out.txt",
            "--stats-json",
            "srun.json",
            "./t.sh",
            "in.txt",
        ]),
        &case.path("srun.log"),
        limit,
    );
    let log = common::stderr(&out);
    assert!(out.status.success(), "{log}");

    // Nothing of ours is left on the cluster: cancelled tests' steps go within moments.
    let ended = Instant::now();
    let deadline = ended + Duration::from_secs(10);
    let left_at_end = squeue(&["-h", "--name", &name]);
    let mut left = left_at_end.clone();
    while !left.trim().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(200));
        left = squeue(&["-h", "--name", &name]);
    }
    assert!(
        left.trim().is_empty(),
        "jobs left 10 s after the run:\n{}",
        squeue(&["-h"])
    );
    let drained = ended.elapsed();
    let last_job = job_id(case.dir.path(), &name, "in.txt");

    // Every test ran in a job of its own.
    let calls = std::fs::read_to_string(case.path("calls")).unwrap();
    let jobs: Vec<&str> = calls.lines().collect();
    assert!(
        jobs.iter().all(|j| j.parse::<u64>().is_ok()),
        "a test ran outside srun: {jobs:?}"
    );
    let distinct: std::collections::BTreeSet<&str> = jobs.iter().copied().collect();
    assert_eq!(distinct.len(), jobs.len(), "two tests ran in one job");

    // No timeout (one would make the result depend on timing) and the local run's result.
    let srun_stats = common::json(&case.path("srun.json"));
    let local_stats = common::json(&case.path("local.json"));
    assert_eq!(figure(&srun_stats, "timeouts"), 0, "{log}");
    let result = case.read("out.txt");
    assert_eq!(
        String::from_utf8_lossy(&result),
        String::from_utf8_lossy(&case.read("local.txt")),
        "{log}"
    );
    assert!(result.len() * 10 < input.len(), "barely reduced: {log}");
    let check = Command::new(case.path("t.sh"))
        .arg(case.path("out.txt"))
        .current_dir(case.dir.path())
        .output()
        .unwrap();
    assert!(check.status.success(), "the result is not interesting");
    // Each test's directory was removed, on the shared work directory and in TMPDIR.
    let leftovers: Vec<_> = std::fs::read_dir(&work).unwrap().collect();
    assert!(leftovers.is_empty(), "left in --work-dir: {leftovers:?}");
    assert!(
        case.temp_leftovers().is_empty(),
        "{:?}",
        case.temp_leftovers()
    );

    // The figures, for `cargo test --test slurm -- --nocapture`.
    let count = |name: &str| {
        std::fs::read_to_string(case.path(name))
            .unwrap()
            .lines()
            .count()
    };
    let first_check = log.lines().find(|l| l.contains("original is"));
    eprintln!("slurm: {}", first_check.unwrap_or("?"));
    eprintln!(
        "slurm: -j 8 wall {:.1}s through srun, {:.1}s local",
        srun_wall.as_secs_f64(),
        local_wall.as_secs_f64()
    );
    eprintln!(
        "slurm: tests run {} ({} locally), runs completed {}, speculative {}",
        figure(&srun_stats, "tests_run"),
        figure(&local_stats, "tests_run"),
        figure(&srun_stats, "oracle_runs"),
        figure(&srun_stats, "speculative_started")
    );
    eprintln!(
        "slurm: tests started {} in srun jobs ({} locally); jobs allocated {}",
        jobs.len(),
        count("calls-local"),
        last_job.saturating_sub(first_job + 1)
    );
    eprintln!(
        "slurm: squeue when myhill exited: {:?}, empty {:.2}s later",
        left_at_end.trim(),
        drained.as_secs_f64()
    );
}
